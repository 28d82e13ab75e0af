"""Every argument of every command has help, with its default shown; every error of a
command reads `rulekit CMD: error: ...` (issue 21: one error prefix form)."""
from __future__ import annotations

import argparse
import io

import pytest

from rulekit.cli import build_parser, main


def commands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    raise AssertionError("no subcommands")


@pytest.mark.parametrize("name", sorted(commands()))
def test_every_argument_has_help_and_shows_its_default(name: str) -> None:
    parser = commands()[name]
    text = parser.format_help()
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction):
            continue
        assert action.help, (name, action.dest)
        d = action.default
        if action.option_strings and not (d is None or d is False or d == []):
            # what --help prints for it, up to the next option
            flag = action.option_strings[0]
            part = text[text.index(f"  {flag}"):]
            nxt = part.find("\n  -", 3)
            assert "default" in part[:nxt if nxt > 0 else None], (name, flag)


@pytest.mark.parametrize("argv, start", [
    (["score", "-r", "nope", "1m", "--win", "5m", "--indicator", "7p"],
     "rulekit score: error: nope: no such ruleset"),
    (["simulate", "--hands", "1", "--players", "a,b"],
     "rulekit simulate: error: --players needs 4 names (one per seat), got 2"),
    (["validate", "x.yaml", "--nope"], "rulekit validate: error: unrecognized arguments: --nope"),
    (["test", "no-such-thing"], "rulekit test: error: no-such-thing: no such case file"),
    (["replay", "/no/such.jsonl"], "rulekit replay: error: /no/such.jsonl: cannot open"),
])
def test_every_error_reads_rulekit_command_error(argv: list[str], start: str,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    code = main(argv, out=io.StringIO())
    lines = [ln for ln in capsys.readouterr().err.splitlines() if not ln.startswith("usage")]
    assert code == 2 and lines[-1].startswith(start), lines
