"""`rulekit serve` and `rulekit sheet` on the command line."""
from __future__ import annotations

import io
import subprocess
import sys
import tempfile

import pytest

from rulekit.cli import build_parser, main
from rulekit.serve.main import config_from
from serve.serve_helpers import SERVED, child_env


def test_core_cli_does_not_import_the_server() -> None:
    code = "import sys, rulekit.cli; print(sorted(m for m in ('starlette', 'uvicorn') " \
           "if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=tempfile.gettempdir(), env=child_env()).stdout
    assert out.strip() == "[]"


def test_flags_become_limits() -> None:
    args = build_parser().parse_args(["serve", "--max-body", "5000", "--max-ruleset", "700",
                                      "--max-batch", "9", "--timeout", "0.5", "--threads", "2",
                                      "--max-work", "1000", "--rulesets", str(SERVED)])
    config = config_from(args)
    lim = config.limits
    assert (lim.body_bytes, lim.ruleset_bytes, lim.batch, lim.seconds, lim.threads,
            lim.work) == (5000, 700, 9, 0.5, 2, 1000)
    assert config.rulesets_dir == SERVED
    assert args.host == "127.0.0.1"             # loopback unless told otherwise


def test_the_server_leaves_what_it_loaded_out_of_collections(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """`rulekit serve` freezes the objects loaded before it serves (gc.freeze), so a full
    collection during a request walks only what requests made."""
    import gc

    import rulekit.serve.main as serve_main
    frozen: list[int] = []
    monkeypatch.setattr(serve_main.uvicorn, "run",
                        lambda app, **kw: frozen.append(gc.get_freeze_count()))
    args = build_parser().parse_args(["serve", "--port", "1"])
    try:
        assert serve_main.run(args, io.StringIO()) == 0
    finally:
        gc.unfreeze()
    assert frozen and frozen[0] > 1000


@pytest.mark.parametrize("argv,message", [
    (["serve", "--max-body", "0"], "--max-body must be positive"),
    (["serve", "--rulesets", "/no/such/dir"], "not a directory"),
    (["serve", "--db", "/proc/no/tables.db"], "--db /proc/no/tables.db: cannot open"),
    (["serve", "--db", ":memory:", "--max-tables", "0"], "--max-tables must be positive"),
    (["serve", "--db", ":memory:", "--bot-time", "0"], "--bot-time must be positive"),
])
def test_bad_flags_are_one_line(argv: list[str], message: str,
                                capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_sheet_of_a_ruleset_file_uses_the_cases_beside_it() -> None:
    out = io.StringIO()
    assert main(["sheet", str(SERVED / "table7.yaml")], out=out) == 0
    row = out.getvalue().split('<tr id="long">')[1].split("</tr>")[0]
    assert ">+8<" in row and "22 fan" in row and "捉5 龍 素" in row


def test_sheet_of_an_unknown_ruleset_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sheet", "no-such-ruleset"]) == 2
    assert "no such ruleset" in capsys.readouterr().err


def test_bot_time_reaches_the_tables() -> None:
    """`--bot-time`: a bot's seconds per decision at a table (remote or built-in), then the
    fallback plays, as `rulekit match --think-time` bounds a bot."""
    import rulekit.serve.main as serve_main
    args = build_parser().parse_args(["serve", "--db", ":memory:", "--bot-time", "2.5"])
    assert serve_main.tables_from(args).bot_time == 2.5
    default = build_parser().parse_args(["serve", "--db", ":memory:"])
    assert serve_main.tables_from(default).bot_time == 10.0
