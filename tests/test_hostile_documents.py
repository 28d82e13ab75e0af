"""Issue 9, the document side: every hostile hand, settle or batch input is a clean error.

Each input from the issue is run through the CLI (in process, and in a subprocess where the
real stdin bytes and the absence of a traceback matter): exit 0, 1 or 2, a one-line message,
or in `--jsonl` mode its own `{"error"}` line with the other lines still scored in order.
"""
from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from rulekit.cli import main

ZHUO5 = {"indicator": "1z", "hand": "4m2z123p789s555p77z", "win_tile": "5m"}
"""捉5 (南 is a hun, as 6萬): 3 fan under the default ruleset."""
GOOD = json.dumps(ZHUO5).encode()

# the inputs of issue 9 "Why", as bytes of one document (one --jsonl line)
HOSTILE: dict[str, tuple[bytes, str]] = {
    "not UTF-8": (b'{"indicator": "1z\xff"}', "not UTF-8: byte 0xff at offset 17"),
    "lone surrogate": (b'{"indicator": "\\ud800", "hand": "1m", "win_tile": "1m"}',
                       "lone surrogate"),
    "100,000 deep": (b"[" * 100_000, "document too large: over 65536 bytes"),
    "60,000 deep": (b"[" * 60_000, "nested deeper than 32 levels"),
    "deep object": (b'{"a":' * 10_000 + b"1" + b"}" * 10_000, "nested deeper than 32 levels"),
    "5,000-digit integer": (b'{"stake": ' + b"9" * 5000 + b"}",
                            "an integer of more than 30 digits"),
    "NaN": (b'{"stake": NaN}', "NaN is not a JSON number"),
    "-Infinity": (b'{"stake": -Infinity}', "-Infinity is not a JSON number"),
    "1e400": (b'{"stake": 1e400}', "a number out of range (1e400)"),
    "truncated": (b'{"indicator": "1z"', "invalid JSON"),
    # issue 18 item 5: `json` keeps the last of two equal keys, another reader the first
    "duplicate key": (b'{"hand": "1m", "win_tile": "1m", "hand": "2m"}',
                      "invalid JSON: duplicate key 'hand'"),
    "nested duplicate": (b'{"dealer": 0, "hand": {"win_tile": "1m", "win_tile": "2m"}}',
                         "invalid JSON: duplicate key 'win_tile'"),
}


def _stdin(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    out = io.StringIO()
    code = main(argv, out)
    return code, out.getvalue(), capsys.readouterr().err


def one_line_error(code: int, err: str) -> str:
    assert code == 2
    assert err.count("\n") == 1 and re.match(r"rulekit [a-z]+: error: ", err)
    assert "Traceback" not in err and "internal error" not in err
    return err


@pytest.mark.parametrize("name", HOSTILE)
@pytest.mark.parametrize("command", ["score", "settle"])
def test_one_hostile_document_is_one_line_exit_2(name: str, command: str,
                                                 monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    data, words = HOSTILE[name]
    _stdin(monkeypatch, data)
    code, out, err = run([command, "--json", "-"], capsys)
    assert out == ""
    assert words in one_line_error(code, err)
    assert len(err) < 300


@pytest.mark.parametrize("command", ["score", "settle"])
def test_a_batch_reports_each_bad_line_and_scores_the_rest_in_order(
        command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = GOOD if command == "score" else json.dumps(
        {"dealer": 0, "winner": 1, "hand": ZHUO5}).encode()
    lines = [good]
    for data, _ in HOSTILE.values():
        lines += [data, good]
    lines.append(b"x" * 70_000)        # too long, with no newline before the end
    path = tmp_path / "batch.jsonl"
    path.write_bytes(b"\n".join(lines))
    code, out, err = run([command, "--jsonl", str(path)], capsys)
    assert (code, err) == (1, "")
    results = [json.loads(line) for line in out.splitlines()]
    assert len(results) == len(lines)
    wants = [words for _, words in HOSTILE.values()]
    for i, r in enumerate(results):
        if i % 2 == 0 and i < len(results) - 1:
            if command == "score":
                assert (r["win"], r["total_fan"]) == (True, 3)
            else:
                assert r["payments"] == [-3, 9, -3, -3]
        else:
            assert r["error"].startswith(f"line {i + 1}: ")
            if i < len(results) - 1:
                assert wants[i // 2] in r["error"]
    assert "document too large" in results[-1]["error"]


def test_batch_in_a_subprocess_from_real_stdin_bytes() -> None:
    lines = [GOOD, b"\xc3\x28 not utf-8", b'"\\udfff"', b"[" * 100_000, b"1" * 5000, GOOD]
    proc = subprocess.run(
        [sys.executable, "-c", "import sys; from rulekit.cli import main; sys.exit(main())",
         "score", "--jsonl", "-"], input=b"\n".join(lines) + b"\n", capture_output=True,
        timeout=20, check=False)
    assert proc.returncode == 1
    assert proc.stderr == b""
    out = [json.loads(line) for line in proc.stdout.decode("utf-8").splitlines()]
    assert [("error" in r) for r in out] == [False, True, True, True, True, False]
    assert out[0]["total_fan"] == out[-1]["total_fan"] == 3
    assert out[1]["error"] == "line 2: not UTF-8: byte 0xc3 at offset 0"


def test_single_document_in_a_subprocess_has_no_traceback() -> None:
    for data in (b"\xff", b'{"x": "\\ud800"}', b"[" * 60_000, b"9" * 5000):
        proc = subprocess.run(
            [sys.executable, "-c", "import sys; from rulekit.cli import main; "
             "sys.exit(main())", "settle", "--json", "-"], input=data, capture_output=True,
            timeout=20, check=False)
        assert proc.returncode == 2
        assert proc.stderr.count(b"\n") == 1 and b"Traceback" not in proc.stderr


def test_output_is_strict_json_and_valid_utf8(capsys: pytest.CaptureFixture[str],
                                              tmp_path: Path) -> None:
    path = tmp_path / "x.jsonl"
    path.write_bytes(b'{"indicator": "\xe4\xb8\xad", "hand": "\xe6\x9d\xb1", '
                     b'"win_tile": "5m"}\n' + GOOD + b"\n")
    code, out, _ = run(["score", "--jsonl", str(path)], capsys)
    assert code == 1
    out.encode("utf-8")                       # no lone surrogate reached the output
    for line in out.splitlines():
        json.loads(line, parse_constant=lambda c: pytest.fail(f"{c} in output"))


# --- settle documents ---------------------------------------------------------------------------

def settle(doc: dict[str, Any], capsys: pytest.CaptureFixture[str],
           monkeypatch: pytest.MonkeyPatch, *extra: str) -> tuple[int, str, str]:
    _stdin(monkeypatch, json.dumps(doc).encode())
    return run(["settle", "--json", "-", *extra], capsys)


HEAVENLY = {"indicator": "1p", "hand": "11223456789p99s", "win_tile": "5m", "heavenly": True}


@pytest.mark.parametrize("doc, words", [
    ({"dealer": 0, "winner": 1, "hand": HEAVENLY}, "hand.heavenly: 天和 is the dealer's"),
    ({"dealer": 1, "winner": 1, "hand": {**ZHUO5, "earthly": True}}, "hand.earthly: 地和 is a "
                                                                       "non-dealer's"),
    ({"dealer": 0, "winner": None, "discarder": 2}, "discarder: a draw (no winner) has no "
                                                    "discarder"),
    ({"dealer": 0, "winner": 1, "hand": ZHUO5, "discarder": 2}, "discarder: only a win on a "
                                                                "discard"),
    ({"dealer": 0, "winner": 1, "hand": ZHUO5, "stake": 0.1234567890123456},
     "more than 15 significant digits"),
])
def test_impossible_settle_documents(doc: dict[str, Any], words: str,
                                     capsys: pytest.CaptureFixture[str],
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    code, _, err = settle(doc, capsys, monkeypatch)
    assert words in one_line_error(code, err)


def test_heavenly_on_a_discard_in_settle(capsys: pytest.CaptureFixture[str],
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    doc = {"dealer": 0, "winner": 0, "discarder": 1, "hand": {**HEAVENLY, "win_by": "discard"}}
    code, _, err = settle(doc, capsys, monkeypatch, "--ruleset", "tianjin-dianpao")
    assert "hand.heavenly: 天和 is the dealer's own first fourteen tiles, a self-draw" in \
        one_line_error(code, err)


def test_a_stake_of_one_tenth_prints_payments_that_sum_to_zero(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    # the case: 0.1 gave payments summing to -4.4e-16. Dealer sits, seat 1 pulls
    # once: 3 × 0.1 × 2 × 2 = 1.2 from the dealer, 0.3 from each other seat.
    doc = {"dealer": 0, "dealer_sits": True, "pulls": [0, 1, 0, 0], "winner": 1,
           "hand": ZHUO5, "stake": 0.1}
    code, out, _ = settle(doc, capsys, monkeypatch)
    assert code == 0
    payments = json.loads(out, parse_float=Decimal)["payments"]
    assert payments == [Decimal("-1.2"), Decimal("1.8"), Decimal("-0.3"), Decimal("-0.3")]
    assert sum(payments) == 0
    assert '"payments": [-1.2, 1.8, -0.3, -0.3]' in out


# --- hands --------------------------------------------------------------------------------------

def test_twelve_flowers_are_refused(capsys: pytest.CaptureFixture[str],
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    _stdin(monkeypatch, json.dumps({**ZHUO5, "flowers": "123456781234f"}).encode())
    code, out, err = run(["score", "--json", "-", "--ruleset", "tianjin-flowers"], capsys)
    assert "flowers: 1f appears more than once" in one_line_error(code, err)


def test_eight_flowers_still_win_at_once(capsys: pytest.CaptureFixture[str],
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    _stdin(monkeypatch, json.dumps({**ZHUO5, "flowers": "12345678f"}).encode())
    code, out, _ = run(["score", "--json", "-", "--ruleset", "tianjin-flowers"], capsys)
    assert code == 0 and "ba_hua_qi" in json.loads(out)["patterns"]


def test_heavenly_with_a_discard_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["score", "11223456789p99s", "--win", "5m", "--indicator", "1p",
                        "--heavenly", "--win-by", "discard", "-r", "tianjin-dianpao"], capsys)
    assert "heavenly: 天和 is the dealer's own first fourteen tiles" in one_line_error(code, err)


def test_waits_never_offers_a_fifth_copy(capsys: pytest.CaptureFixture[str]) -> None:
    # 5555m 123456789s, hun 東南: 555m + 5m·hun pair would need a fifth 5萬; only hun win
    code, out, _ = run(["waits", "5555m 123456789s", "--indicator", "1z"], capsys)
    assert (code, out) == (0, "1z  4 fan (龍)\n2z  4 fan (龍)\n")
    # the indicator's kind: 555m in hand and the face-up 5m are all four copies
    code, out, _ = run(["waits", "555m 123456789s 1z", "--indicator", "5m"], capsys)
    assert code == 0 and "5m" not in out.split() and "6m" in out.split()


@pytest.mark.parametrize("ruleset, fan, patterns", [
    ("tianjin", 14, "(捉5 3 + 龍 4) × 素 2 = 14"),
    ("tianjin-dianpao", 28, "(捉5 3 + 龍 4) × 素 2 × 海底撈 2 = 28"),
])
def test_a_last_tile_self_draw_wins(ruleset: str, fan: int, patterns: str,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    # 海底撈 is a self-draw: allowed wherever self-draws are, valued only where a ruleset says
    code, out, err = run(["score", "46m 123456789p 11z", "--win", "5m", "--indicator", "5z",
                          "--win-by", "last_draw", "-r", ruleset], capsys)
    assert (code, err) == (0, "")
    assert patterns in out and f"WIN: {fan} fan" in out


def test_output_is_utf8_whatever_the_locale() -> None:
    import os
    env = {**os.environ, "PYTHONIOENCODING": "latin-1"}
    proc = subprocess.run(
        [sys.executable, "-c", "import sys; from rulekit.cli import main; sys.exit(main())",
         "score", "--jsonl", "-"], input=GOOD + b"\n", capture_output=True, timeout=20,
        check=False, env=env)
    assert (proc.returncode, proc.stderr) == (0, b"")
    assert json.loads(proc.stdout.decode("utf-8"))["pattern_names"] == ["捉5"]


def test_non_finite_ruleset_values_never_reach_the_output(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    # .nan and .inf: refused when the ruleset loads (schema bounds) or, failing that, when a
    # result would carry them; either way exit 2 (or an error line) and never NaN in JSON
    rs = tmp_path / "nan.yaml"
    rs.write_text("extends: tianjin\nname: nanrs\nkong_points: {exposed: .nan, concealed: 2, "
                  "golden: 4}\nscoring:\n  add: {long: .inf}\n", encoding="utf-8")
    settle_doc = {"dealer": 0, "winner": 0, "hand": ZHUO5, "kongs": [[], ["exposed"], [], []]}
    code, out, err = settle(settle_doc, capsys, monkeypatch, "-r", str(rs))
    assert (code, out) == (2, "") and "internal error" not in err
    long_hand = {"indicator": "5z", "hand": "46m123456789p11z", "win_tile": "5m"}
    _stdin(monkeypatch, json.dumps(long_hand).encode() + b"\n" + GOOD + b"\n")
    code, out, err = run(["score", "--jsonl", "-", "-r", str(rs)], capsys)
    assert "internal error" not in err
    if code == 1:                                   # loaded: the 龍 hand's line is an error
        lines = [json.loads(line, parse_constant=lambda c: pytest.fail(f"{c} in output"))
                 for line in out.splitlines()]
        assert "not finite" in lines[0]["error"] and lines[1]["total_fan"] == 3
    else:
        assert (code, out) == (2, "")
