"""The command line: outputs, exit codes, one-line errors with no traceback."""
from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from rulekit.cli import main

HAND = {"indicator": "7p", "hand": "46m123456789s22z", "win_tile": "5m"}


def run(argv: list[str], stdin: str = "", monkeypatch: pytest.MonkeyPatch | None = None
        ) -> tuple[int, str]:
    out = io.StringIO()
    if monkeypatch is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(argv, out)
    return code, out.getvalue()


def test_human_form_prints_the_breakdown() -> None:
    code, out = run(["score", "46m 123456789s 22z", "--win", "5m", "--indicator", "7p"])
    assert code == 0
    assert "(捉5 3 + 龍 4) × 素 2 = 14" in out
    assert "WIN: 14 fan" in out


def test_json_in_json_out(monkeypatch: pytest.MonkeyPatch) -> None:
    code, out = run(["score", "--json", "-"], json.dumps(HAND), monkeypatch)
    result = json.loads(out)
    assert code == 0
    assert {k: result[k] for k in ("win", "hand_fan", "kong_fan", "total_fan")} == {
        "win": True, "hand_fan": 14, "kong_fan": 0, "total_fan": 14}


def test_jsonl_keeps_going_after_a_bad_line(monkeypatch: pytest.MonkeyPatch) -> None:
    lines = [json.dumps(HAND), "{not json", json.dumps(dict(HAND, win_tile="0m")),
             json.dumps(dict(HAND, hand="46m123456789s23z", win_tile="1z"))]
    code, out = run(["score", "--jsonl", "-"], "\n".join(lines), monkeypatch)
    rows = [json.loads(x) for x in out.splitlines()]
    assert code == 1
    assert rows[0]["total_fan"] == 14
    assert rows[1]["error"].startswith("line 2: invalid JSON")
    assert "win_tile: unknown tile '0m'" in rows[2]["error"]
    assert rows[3] == {**rows[3], "win": False, "reason": "not_a_winning_shape"}


def test_a_hand_that_does_not_win_is_not_an_error() -> None:
    code, out = run(["score", "123m456p789s1234z", "--win", "5z", "--indicator", "7p",
                     "--format", "json"])
    assert code == 0 and json.loads(out)["reason"] == "not_a_winning_shape"


def test_bad_input_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, _ = run(["score", "46m 123456789s 22z", "--win", "5x", "--indicator", "7p"])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and "win_tile" in err and "Traceback" not in err


def test_unknown_ruleset(capsys: pytest.CaptureFixture[str]) -> None:
    code, _ = run(["score", "--ruleset", "nope", "x", "--win", "5m", "--indicator", "7p"])
    assert code == 2 and "no such ruleset" in capsys.readouterr().err


def test_validate_lists_every_problem(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = tmp_path / "bad.yaml"
    p.write_text("extends: tianjin\nname: bad\nhun: {kinds: 5}\nwin: {minimum: -1}\n"
                 "patterns:\n  su: {name: 素, when: 'hand.hun =='}\n", encoding="utf-8")
    code, _ = run(["validate", str(p)])
    err = capsys.readouterr().err
    assert code == 2
    assert f"{p}:3: hun.kinds" in err and f"{p}:4: win.minimum" in err
    assert f"{p}:6:" in err and "patterns.su.when" in err


def test_validate_ok_and_show_and_rulesets_and_schema() -> None:
    code, out = run(["validate", "rulesets/tianjin.yaml"])
    assert code == 0 and "ok" in out
    code, out = run(["show", "tianjin"])
    assert code == 0 and "tian_he: heavenly.multiplier" in out
    code, out = run(["rulesets"])
    assert code == 0 and out.startswith("tianjin")
    code, out = run(["schema"])
    assert json.loads(out)["$schema"].endswith("2020-12/schema")


def test_waits() -> None:
    code, out = run(["waits", "46m 123456789s 1z 7p", "--indicator", "7p"])
    # 5m: 捉5 3 + 龍 4; a hun (7p, 8p) drawn as 5m also 捉5; 1z pairs the 1z: 龍 4 alone
    assert (code, out.splitlines()) == (0, ["5m  7 fan (捉5, 龍)", "7p  7 fan (捉5, 龍)",
                                            "8p  7 fan (捉5, 龍)", "1z  4 fan (龍)"])


def test_console_script_has_no_traceback() -> None:
    proc = subprocess.run([sys.executable, "-m", "rulekit.cli", "score", "--json", "-"],
                          input="[1, 2", capture_output=True, text=True, check=False)
    assert proc.returncode == 2
    assert proc.stderr.startswith("rulekit score: error: stdin:1:") and "Traceback" not in proc.stderr
