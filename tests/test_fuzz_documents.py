"""Fuzzing hand and settle documents (issue 9): whatever comes in, the library raises only a
`RulekitError`, and the CLI never exits 3 or prints a traceback; a batch keeps every line.

Seeded (derandomize=True) so that a CI run is repeatable; a few thousand examples in all.
"""
from __future__ import annotations

import contextlib
import io
import json
import sys
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rulekit
from rulekit.cli import main
from rulekit.errors import RulekitError
from conftest import examples

RS = rulekit.load_ruleset("tianjin")
FLOWERS_RS = rulekit.load_ruleset("tianjin-flowers")

ZHUO5 = {"indicator": "1z", "hand": "4m2z123p789s555p77z", "win_tile": "5m"}
"""捉5: 3 fan under the default ruleset."""
VALID_HANDS: list[dict[str, Any]] = [
    ZHUO5,
    {"indicator": "7p", "hand": "234p9m7p78s",
     "melds": [{"kind": "kong", "tiles": "2222z", "concealed": False},
               {"kind": "pung", "tiles": "555p"}], "win_tile": "9s", "win_by": "kong_draw"},
    {"indicator": "1p", "hand": "11223456789p99s", "win_tile": "5m", "heavenly": True},
    {"indicator": "1m", "hand": "345p678s999p1z",
     "melds": [{"kind": "kong", "tiles": "2222m", "concealed": True}], "win_tile": "1z",
     "flowers": "135f", "win_by": "last_draw"},
]
VALID_SETTLES: list[dict[str, Any]] = [
    {"dealer": 0, "dealer_sits": True, "pulls": [0, 1, 2, 0], "winner": 1, "hand": ZHUO5,
     "kongs": [[], [], ["exposed"], []], "chan": True, "stake": 0.1},
    {"dealer": 2, "winner": 2, "hand": VALID_HANDS[2], "stake": 5},
    {"dealer": 1, "winner": None, "kongs": [["golden"], [], [], ["concealed"]]},
]
FIELDS = sorted({k for d in VALID_HANDS + VALID_SETTLES for k in d} | {"discarder", "earthly",
                                                                       "ready_declared"})

SCALARS = (st.none() | st.booleans() | st.integers() | st.floats()
           | st.decimals(allow_nan=True) | st.text(max_size=20)
           | st.text(alphabet="123456789mpszf 東南中發春菊萬", max_size=20))
JSON_VALUES = st.recursive(
    SCALARS, lambda inner: st.lists(inner, max_size=5)
    | st.dictionaries(st.sampled_from(FIELDS) | st.text(max_size=4), inner, max_size=5),
    max_leaves=15)


def _library_calls(doc: Any) -> None:
    """Score, settle and waits on `doc`: a RulekitError is the only way to refuse it."""
    for call in (lambda: rulekit.score(doc, RS), lambda: rulekit.score(doc, FLOWERS_RS),
                 lambda: rulekit.settle(doc, RS), lambda: rulekit.waits(doc, RS)):
        try:
            result = call()
        except RulekitError as err:
            assert "\n" not in str(err) and len(str(err)) < 1000
            continue
        if not isinstance(result, tuple):
            json.dumps(result.to_dict(), allow_nan=False)     # strict JSON out


@settings(max_examples=examples(1000), derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(JSON_VALUES)
def test_random_json_values(doc: Any) -> None:
    _library_calls(doc)


@st.composite
def mutated(draw: st.DrawFn) -> Any:
    """A valid hand or settle document with one to three fields changed, dropped or garbled."""
    doc = json.loads(json.dumps(draw(st.sampled_from(VALID_HANDS + VALID_SETTLES))))
    for _ in range(draw(st.integers(1, 3))):
        target = doc["hand"] if "hand" in doc and isinstance(doc["hand"], dict) \
            and draw(st.booleans()) else doc
        key = draw(st.sampled_from(sorted(target) + FIELDS))
        how = draw(st.sampled_from(["replace", "drop", "garble"]))
        if how == "drop":
            target.pop(key, None)
        elif how == "replace" or not isinstance(target.get(key), str):
            target[key] = draw(JSON_VALUES)
        else:
            text = target[key]
            i = draw(st.integers(0, len(text)))
            target[key] = text[:i] + draw(st.text(max_size=3)) + text[i + draw(
                st.integers(0, 2)):]
    return doc


@settings(max_examples=examples(1200), derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_mutated_valid_documents(doc: Any) -> None:
    _library_calls(doc)


def _run_cli(argv: list[str], data: bytes) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    try:
        with contextlib.redirect_stderr(err):
            code = main(argv, out)
    finally:
        sys.stdin = saved
    return code, out.getvalue(), err.getvalue()


LINES = (st.binary(max_size=120)
         | JSON_VALUES.map(lambda v: json.dumps(v, default=str).encode())
         | mutated().map(lambda v: json.dumps(v, default=str).encode()))


@settings(max_examples=examples(400), derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(LINES, max_size=4), st.sampled_from(["score", "settle", "session"]))
def test_random_lines_through_jsonl(lines: list[bytes], command: str) -> None:
    good = json.dumps(ZHUO5 if command == "score" else {"winner": 0, "hand": ZHUO5}).encode()
    data = b"\n".join(lines + [good]) + b"\n"
    code, out, err = _run_cli([command, "--jsonl", "-"], data)
    assert code != 3 and "Traceback" not in err and "internal error" not in err
    if command == "session":
        assert code in (0, 2) and (code == 0) == (err == "")
        return
    assert code in (0, 1) and err == ""
    results = [json.loads(line) for line in out.splitlines()]
    assert len(results) == len([line for line in data.split(b"\n") if line.strip()])
    assert code == (1 if any("error" in r for r in results) else 0)
    last = results[-1]
    assert last.get("total_fan", last.get("payments")) in (3, [9, -3, -3, -3])
