"""Command-line and package conventions (issue 9, item 8): --version and one version source,
`python -m rulekit`, argparse's error form, "did you mean" for ruleset names, --format on
every command that prints results, settle as text, the hand-document flags of `score`,
`waits` with each tile's fan, stdin for validate and test, the licence, the public API's
docstrings and signatures, and a build hook that compiles once."""
from __future__ import annotations

import inspect
import io
import json
import runpy
import subprocess
import sys
import tomllib
import types
from importlib import metadata
from importlib.machinery import ModuleSpec
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

import rulekit
from rulekit.cli import main
from rulekit.errors import RulesetError
from rulekit.ruleset import resolve
from conftest import examples

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
VERSION = PYPROJECT["project"]["version"]
HAND = ["46m 123456789s 22z", "--win", "5m", "--indicator", "7p"]      # (捉5 3 + 龍 4) × 素 2
SETTLE = {"dealer": 0, "dealer_sits": True, "pulls": [0, 0, 1, 2], "winner": 2,
          "hand": {"indicator": "7p", "hand": "46m123456789s22z", "win_tile": "5m"},
          "kongs": [[], ["exposed"], [], []], "chan": False, "stake": 1}


def run(argv: list[str], stdin: str = "", monkeypatch: pytest.MonkeyPatch | None = None
        ) -> tuple[int, str]:
    out = io.StringIO()
    if monkeypatch is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    return main(argv, out), out.getvalue()


# -- version ---------------------------------------------------------------------------------

def test_version_flag_prints_the_one_version(capsys: pytest.CaptureFixture[str]) -> None:
    code, _ = run(["--version"])
    assert (code, capsys.readouterr().out) == (0, f"rulekit {VERSION}\n")
    assert rulekit.__version__ == VERSION


def test_version_of_an_uninstalled_checkout_comes_from_pyproject(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    def missing(name: str) -> str:
        raise metadata.PackageNotFoundError(name)
    monkeypatch.setattr(metadata, "version", missing)
    monkeypatch.setattr(rulekit, "__file__", str(ROOT / "rulekit" / "__init__.py"))
    assert rulekit._version() == VERSION
    # no pyproject.toml beside the package, or another project's: no guess
    monkeypatch.setattr(rulekit, "__file__", str(tmp_path / "rulekit" / "__init__.py"))
    assert rulekit._version() == "0+unknown"
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "other"\nversion = "9.9"\n',
                                             encoding="utf-8")
    assert rulekit._version() == "0+unknown"


def test_installed_metadata_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(metadata, "version", lambda name: "7.1.2" if name == "rulekit" else "")
    assert rulekit._version() == "7.1.2"


def test_the_version_is_read_on_first_use_only() -> None:
    code = ("import rulekit, rulekit.cli, sys; a = '__version__' in vars(rulekit); "
            "v = rulekit.__version__; print(a, '__version__' in vars(rulekit), v)")
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, check=False)
    assert proc.stdout == f"False True {VERSION}\n"


def test_python_dash_m_rulekit() -> None:
    proc = subprocess.run([sys.executable, "-m", "rulekit", "score", *HAND], cwd=ROOT,
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0 and "WIN: 14 fan (hand 14, kongs 0)" in proc.stdout
    proc = subprocess.run([sys.executable, "-m", "rulekit", "--version"], cwd=ROOT,
                          capture_output=True, text=True, check=False)
    assert (proc.returncode, proc.stdout) == (0, f"rulekit {VERSION}\n")


# -- argparse's error form ---------------------------------------------------------------------

@pytest.mark.parametrize("argv, usage, error", [
    (["score", "--bogus"], "usage: rulekit score ",
     "rulekit score: error: unrecognized arguments: --bogus"),
    (["score", "--win"], "usage: rulekit score ",
     "rulekit score: error: argument --win: expected one argument"),
    ([], "usage: rulekit ", "rulekit: error: the following arguments are required: command"),
    (["nosuchcmd"], "usage: rulekit ",
     "rulekit: error: argument command: invalid choice: 'nosuchcmd' (choose from 'score', "),
    (["waits", "1m"], "usage: rulekit waits ",
     "rulekit waits: error: the following arguments are required: --indicator"),
])
def test_bad_arguments_print_usage_then_one_error_line(
        argv: list[str], usage: str, error: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(argv)
    err = capsys.readouterr().err
    lines = err.splitlines()
    assert code == 2 and out == ""
    assert lines[0].startswith(usage)
    assert lines[-1].startswith(error) and sum("error:" in x for x in lines) == 1
    assert "rulekit: error: rulekit" not in err


# -- did you mean -------------------------------------------------------------------------------

def test_a_near_miss_ruleset_name_gets_a_suggestion(capsys: pytest.CaptureFixture[str]) -> None:
    code, _ = run(["score", *HAND, "--ruleset", "tianjn"])
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith("rulekit score: error: unknown ruleset 'tianjn'; did you mean 'tianjin'? "
                          "(built-in rulesets are: tianjin, ")
    with pytest.raises(RulesetError, match="did you mean 'tianjin-gold8'"):
        rulekit.load_ruleset("tianjin-gld8")
    with pytest.raises(RulesetError, match="^zzz: no such ruleset; built-in rulesets are: "):
        rulekit.load_ruleset("zzz")


@settings(max_examples=examples(200), deadline=None)
@given(st.text(alphabet="tianjn-gold8flowers3p", min_size=1, max_size=16))
def test_a_suggestion_is_never_the_name_itself(ref: str) -> None:
    try:
        resolve.locate(ref)
    except RulesetError as err:
        message = err.problems[0]
        if "did you mean" in message:
            suggested = message.split("did you mean '")[1].split("'")[0]
            assert suggested != ref and suggested in resolve.builtin_names()
    else:
        assert ref in resolve.builtin_names() or Path(ref).is_file()


# -- --format on every command that prints results -----------------------------------------

def test_score_formats(monkeypatch: pytest.MonkeyPatch) -> None:
    code, out = run(["score", *HAND, "--format", "json"])
    assert code == 0 and json.loads(out)["explain"] == ["(捉5 3 + 龍 4) × 素 2 = 14"]
    doc = json.dumps({"indicator": "7p", "hand": "46m123456789s22z", "win_tile": "5m"})
    code, out = run(["score", "--json", "-"], doc, monkeypatch)
    assert code == 0 and json.loads(out)["total_fan"] == 14            # JSON in: JSON out
    code, out = run(["score", "--json", "-", "--format", "text"], doc, monkeypatch)
    assert code == 0 and out.splitlines()[-1] == "WIN: 14 fan (hand 14, kongs 0)"


def test_jsonl_batches_stay_json_lines(monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(["settle", "--jsonl", "-", "--format", "text"], json.dumps(SETTLE),
                    monkeypatch)
    assert (code, out) == (2, "")
    assert "--jsonl writes one JSON result per line" in capsys.readouterr().err


def test_settle_json_by_default_and_text_on_request(monkeypatch: pytest.MonkeyPatch) -> None:
    code, out = run(["settle", "--json", "-"], json.dumps(SETTLE), monkeypatch)
    result = json.loads(out)
    assert code == 0 and result["payments"] == [-58, -10, 83, -15]
    code, text = run(["settle", "--json", "-", "--format", "text"], json.dumps(SETTLE),
                     monkeypatch)
    # the same numbers: the dealer (sitting, ×2) and seat 2 (pulled once, ×2) 14 × 4 = 56;
    # seat 1's 明杠 1 point, ×2 from the dealer
    assert code == 0 and text.splitlines() == [
        "seat 2 wins 14 fan (捉5, 龍, 素; ruleset tianjin)",
        "  seat 0 pays seat 2 56 (hand)",
        "  seat 1 pays seat 2 14 (hand)",
        "  seat 3 pays seat 2 14 (hand)",
        "  seat 0 pays seat 1 2 (kong)",
        "  seat 2 pays seat 1 1 (kong)",
        "  seat 3 pays seat 1 1 (kong)",
        "net: seat 0 -58, seat 1 -10, seat 2 +83, seat 3 -15",
        "next dealer: seat 1",
    ]
    assert [f"  seat {t['from']} pays seat {t['to']} {t['amount']} ({t['why']})"
            for t in result["transfers"]] == text.splitlines()[1:7]


def test_settle_text_for_a_draw_with_chan(monkeypatch: pytest.MonkeyPatch) -> None:
    draw = {"dealer": 1, "dealer_sits": False, "pulls": [0, 0, 0, 0], "winner": None,
            "kongs": [[], [], [], []], "chan": True, "stake": 1}
    code, text = run(["settle", "--json", "-", "--format", "text"], json.dumps(draw),
                     monkeypatch)
    # 鏟: the dealer pays each other seat one 明杠 (1 point); a draw keeps the dealer
    assert code == 0 and text.splitlines() == [
        "draw (ruleset tianjin)",
        "  seat 1 pays seat 0 1 (chan)",
        "  seat 1 pays seat 2 1 (chan)",
        "  seat 1 pays seat 3 1 (chan)",
        "net: seat 0 +1, seat 1 -3, seat 2 +1, seat 3 +1",
        "next dealer: seat 1",
    ]


def test_settle_text_amounts_keep_their_exact_value_and_sign() -> None:
    from decimal import Decimal
    from fractions import Fraction
    from rulekit.report import _signed
    assert [_signed(x) for x in (3, -2.5, 0, 4.0, Decimal("0.1"), Fraction(1, 3))] == [
        "+3", "-2.5", "0", "+4", "+0.1", "+1/3"]


def test_session_and_diff_keep_json_as_an_alias(tmp_path: Path) -> None:
    hands = tmp_path / "hands.jsonl"
    hands.write_text(json.dumps(SETTLE) + "\n", encoding="utf-8")
    old = run(["session", "--jsonl", str(hands), "--json"])
    new = run(["session", "--jsonl", str(hands), "--format", "json"])
    assert old == new and json.loads(new[1])["totals"] == [-58, -10, 83, -15]
    assert run(["session", "--jsonl", str(hands)])[1].splitlines()[-1].split() == [
        "total", "-58", "-10", "83", "-15"]
    corpus = tmp_path / "c.jsonl"
    corpus.write_text(json.dumps({"indicator": "7p", "hand": "46m123456789s22z",
                                  "win_tile": "5m"}) + "\n", encoding="utf-8")
    argv = ["diff", "tianjin", "tianjin-gold8", "--corpus", str(corpus), "--jobs", "1"]
    code, as_json = run([*argv, "--format", "json"])
    assert code == 0 and json.loads(as_json) == json.loads(run([*argv, "--json"])[1])
    assert not run(argv)[1].startswith("{")


def test_validate_rulesets_show_formats(tmp_path: Path) -> None:
    code, out = run(["validate", "tianjin", "--format", "json"])      # the built-in file
    assert (code, json.loads(out)) == (0, [{"path": "rulesets/tianjin.yaml", "ok": True,
                                            "name": "tianjin", "patterns": 14}])
    bad = tmp_path / "bad.yaml"
    bad.write_text("extends: tianjin\nname: bad\nwin: {minimum: -1}\n", encoding="utf-8")
    code, out = run(["validate", str(bad), "--format", "json"])
    assert code == 2 and json.loads(out) == [
        {"path": str(bad), "ok": False, "problems": [f"{bad}:3: win.minimum: must be at least 0"]}]
    code, out = run(["rulesets", "--format", "json"])
    assert code == 0 and [r["name"] for r in json.loads(out)] == resolve.builtin_names()
    code, out = run(["show", "tianjin-gold8", "--format", "json"])
    shown = json.loads(out)
    assert code == 0 and shown["chain"] == ["rulesets/tianjin-gold8.yaml", "rulesets/tianjin.yaml"]
    assert shown["data"]["kong_points"]["golden"] == 8 and "extends" not in shown["data"]


# -- score flags, waits ------------------------------------------------------------------------

def test_score_flags_fill_the_document_fields(tmp_path: Path) -> None:
    overlay = tmp_path / "special.yaml"      # docs/variants.md: 地和 as 天和 (×4), 天聽 ×2
    overlay.write_text("extends: tianjin\nname: special\nscoring:\n"
                       "  multiply: {di_he: heavenly.multiplier, tian_ting: 2}\n",
                       encoding="utf-8")
    last = {}
    for flag, fan in [(None, 14), ("--earthly", 56), ("--ready-declared", 28)]:
        code, out = run(["score", *HAND, "-r", str(overlay), "--format", "json",
                         *([flag] if flag else [])])
        last[flag] = json.loads(out)
        assert (code, last[flag]["total_fan"]) == (0, fan)
    assert last["--earthly"]["pattern_names"] == ["捉5", "龍", "素", "地和"]
    code, out = run(["score", *HAND, "--earthly", "--format", "json"])   # off by default
    assert (code, json.loads(out)["total_fan"]) == (0, 14)
    code, out = run(["score", *HAND, "-r", "tianjin-flowers", "--flowers", "12345678f"])
    assert code == 0 and out.splitlines()[-2:] == ["  八花齊 16", "WIN: 16 fan (hand 16, kongs 0)"]


def test_waits_gives_each_tiles_fan_and_marks_those_below_the_minimum() -> None:
    # hun 9p and 1p: a drawn hun pairs the 2z (no 素, 1 fan < 2); the 2z itself: 素 ×2 = 2
    argv = ["waits", "123m 456p 789s 1112z", "--indicator", "9p"]
    code, out = run(argv)
    assert (code, out.splitlines()) == (0, ["1p  no win: below the minimum fan (提溜, 1 fan)",
                                            "9p  no win: below the minimum fan (提溜, 1 fan)",
                                            "2z  2 fan (提溜, 素)"])
    code, out = run([*argv, "--format", "json"])
    assert (code, json.loads(out)) == (0, [
        {"tile": "1p", "fan": 1, "win": False, "reason": "below_minimum"},
        {"tile": "9p", "fan": 1, "win": False, "reason": "below_minimum"},
        {"tile": "2z", "fan": 2, "win": True}])
    code, out = run(["waits", "123m 456p 789s 1357z", "--indicator", "9p"])
    assert (code, out) == (0, "no tile completes this hand\n")


def test_waits_scores_with_the_hand_flags(capsys: pytest.CaptureFixture[str]) -> None:
    # a player who discarded a hun may not win (小相公): every tile is marked, none hidden
    code, out = run(["waits", "46m 123456789s 22z", "--indicator", "7p", "--discarded-hun"])
    assert (code, out.splitlines()) == (0, ["5m  no win: 小相公 (捉5, 龍, 素, 14 fan)",
                                            "7p  no win: 小相公 (捉5, 龍, 7 fan)",
                                            "8p  no win: 小相公 (捉5, 龍, 7 fan)"])
    # the default ruleset has no discard wins: an error, not an empty list
    code, out = run(["waits", "46m 123456789s 22z", "--indicator", "7p", "--win-by", "discard"])
    assert (code, out) == (2, "")
    assert "win_by: 'discard' is not allowed by this ruleset" in capsys.readouterr().err


def test_waits_never_offers_a_fifth_copy() -> None:
    # 5555m: a fifth 5m cannot be drawn; the hun (1z, 2z) complete 555m 5m+hun
    code, out = run(["waits", "5555m 123456789s", "--indicator", "1z", "--format", "json"])
    assert code == 0 and [r["tile"] for r in json.loads(out)] == ["1z", "2z"]


# -- stdin ------------------------------------------------------------------------------------

def test_validate_dash_reads_a_ruleset_from_stdin(monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(["validate", "-"], "extends: tianjin\nname: piped\n", monkeypatch)
    assert (code, out) == (0, "stdin: ok (piped, 14 patterns)\n")
    code, out = run(["validate", "-"], "extends: tianjin\nname: piped\nhun: {kinds: 5}\n",
                    monkeypatch)
    assert code == 2 and capsys.readouterr().err.startswith("stdin:3: hun.kinds")


def test_test_dash_reads_a_case_file_from_stdin(monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    text = (ROOT / "rulesets" / "cases" / "tianjin-gold8.yaml").read_text(encoding="utf-8")
    n = text.count("\n  - name:")
    code, out = run(["test", "-"], text, monkeypatch)
    assert (code, out.splitlines()[-1]) == (0, f"{n} passed, 0 failed")
    broken = text.replace("total_fan: 10,", "total_fan: 11,", 1)
    code, out = run(["test", "-"], broken, monkeypatch)
    assert code == 1 and out.splitlines()[-1] == f"{n - 1} passed, 1 failed"
    assert out.startswith("FAIL stdin:") and "total_fan: expected 11, got 10" in out
    code, out = run(["test", "-", "--format", "json"], broken, monkeypatch)
    report = json.loads(out)
    assert code == 1 and {k: report[k] for k in ("passed", "failed", "updated", "exit")} == {
        "passed": n - 1, "failed": 1, "updated": 0, "exit": 1}
    assert len(report["failures"]) == 1 and report["failures"][0].startswith(
        "stdin:6: 金杠 +8: 素提溜 with a 金杠: total_fan: expected 11, got 10")
    code, out = run(["test", "-", "--update"], text, monkeypatch)
    assert code == 2 and "it cannot rewrite stdin" in capsys.readouterr().err


# -- package ----------------------------------------------------------------------------------

def test_licence_is_an_spdx_string_with_a_licence_file() -> None:
    assert PYPROJECT["project"]["license"] == "MIT"
    assert "setuptools>=77" in PYPROJECT["build-system"]["requires"]      # PEP 639 support
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n") and "Copyright (c) 2026 the rulekit authors" in text


@pytest.mark.parametrize("fn, params", [
    (rulekit.score, ["doc", "ruleset"]),
    (rulekit.settle, ["doc", "ruleset"]),
    (rulekit.waits, ["doc", "ruleset"]),
    (rulekit.scored_waits, ["doc", "ruleset"]),
    (rulekit.load_ruleset, ["ref", "allow_outside"]),
])
def test_public_api_keeps_docstrings_and_signatures(fn: Any, params: list[str]) -> None:
    """Also under the compiled build (mypyc drops both from the functions it compiles)."""
    assert fn.__doc__ and len(fn.__doc__.strip()) > 20
    sig = inspect.signature(fn)
    assert list(sig.parameters) == params
    assert all(p.default == "tianjin" for p in sig.parameters.values()
               if p.name not in ("doc", "allow_outside"))


def test_the_build_hook_compiles_only_when_extensions_are_built(
        monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[list[str]] = []
    fake = types.ModuleType("mypyc.build")
    fake.mypycify = lambda paths, **kw: calls.append(paths) or []   # type: ignore[attr-defined]
    package = types.ModuleType("mypyc")
    package.__spec__ = ModuleSpec("mypyc", None)
    monkeypatch.setitem(sys.modules, "mypyc", package)
    monkeypatch.setitem(sys.modules, "mypyc.build", fake)
    monkeypatch.delenv("RULEKIT_PURE_PYTHON", raising=False)
    captured: dict[str, Any] = {}
    import setuptools
    monkeypatch.setattr(setuptools, "setup", lambda **kw: captured.update(kw))
    hook = runpy.run_path(str(ROOT / "setup.py"))
    assert calls == []                                     # importing setup.py compiles nothing
    assert "rulekit/api.py" not in hook["HOT_PATH"]        # the public layer keeps its docs
    command = captured["cmdclass"]["build_ext"]
    for commands, compiled in [(["egg_info"], 0), (["dist_info"], 0), (["bdist_wheel"], 1)]:
        dist = captured["distclass"]()
        dist.commands = commands
        cmd = command(dist)
        cmd.ensure_finalized()
        cmd.ensure_finalized()                             # finalized once per command
        assert len(calls) == compiled, commands
    monkeypatch.setenv("RULEKIT_PURE_PYTHON", "1")               # a pure wheel, no mypyc
    dist = captured["distclass"]()
    dist.commands = ["bdist_wheel"]
    assert not dist.has_ext_modules()
    command(dist).ensure_finalized()
    assert len(calls) == 1 and dist.ext_modules == []


def test_every_scoring_module_is_compiled(monkeypatch: pytest.MonkeyPatch) -> None:
    """design.md: the hot path compiles every `scoring` module but its `__init__` (a new one
    left out runs interpreted under a compiled build: scoring/pruned.py did, at 1.5x)."""
    import setuptools
    monkeypatch.setattr(setuptools, "setup", lambda **kw: None)
    hook = runpy.run_path(str(ROOT / "setup.py"))
    scoring = {f"rulekit/scoring/{p.name}" for p in (ROOT / "rulekit" / "scoring").glob("*.py")
               if p.name != "__init__.py"}
    assert scoring - set(hook["HOT_PATH"]) == set()
