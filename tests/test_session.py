from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rulekit.errors import RulekitError, SettleError
from rulekit.ruleset.model import Ruleset, load
from rulekit.session import SessionResult, run_session
from rulekit.settlement import settle_document

SU: dict[str, Any] = {"indicator": "3s", "hand": "234m567p111z666z8p", "win_tile": "8p"}
ZHUO5: dict[str, Any] = {"indicator": "1z", "hand": "4m2z123p789s555p77z", "win_tile": "5m"}

# hand 1: seat 2 wins under dealer 0 → seat 1 deals; hand 2: the dealer (1) wins and keeps the
# deal; hand 3: a draw with a kong and 鏟, the dealer keeps the deal (default: keep).
THREE: list[dict[str, Any]] = [
    {"dealer": 0, "dealer_sits": True, "pulls": [0, 1, 0, 0], "winner": 2, "hand": SU},
    {"winner": 1, "hand": ZHUO5, "pulls": [1, 0, 0, 0]},
    {"kongs": [[], [], [], ["exposed"]], "chan": True},
]


@pytest.fixture(scope="module")
def rs() -> Ruleset:
    return load("tianjin")


def test_three_hands_carry_the_dealer(rs: Ruleset) -> None:
    s = run_session(THREE, rs)
    assert s.dealers == (0, 1, 1)
    assert s.winners == (2, 1, None)
    assert [h.next_dealer for h in s.hands] == [1, 1, 1]
    assert s.next_dealer == 1
    assert s.hands[0].payments == (-4, -2, 8, -2)
    # hand 2: dealer 1 wins 捉5 3; seat 0 pulled once → pays 6, seats 2 and 3 pay 3
    assert s.hands[1].payments == (-6, 12, -3, -3)
    # hand 3: 鏟 1 from dealer 1 to each; seat 3's 明杠 1 from each (× 1, no sits or pulls)
    assert s.hands[2].payments == (0, -4, 0, 4)


def test_totals_are_the_sums_of_the_payments(rs: Ruleset) -> None:
    s = run_session(THREE, rs)
    assert s.totals == tuple(sum(h.payments[i] for h in s.hands) for i in range(4))
    assert s.totals == (-10, 6, 5, -1)
    assert sum(s.totals) == 0


def test_each_hand_matches_settling_it_alone(rs: Ruleset) -> None:
    s = run_session(THREE, rs)
    for doc, dealer, h in zip(THREE, s.dealers, s.hands):
        assert h == settle_document({**doc, "dealer": dealer}, rs)


def test_a_later_hand_may_repeat_the_carried_dealer(rs: Ruleset) -> None:
    docs = [THREE[0], {**THREE[1], "dealer": 1}, {**THREE[2], "dealer": 1}]
    assert run_session(docs, rs).totals == run_session(THREE, rs).totals


def test_first_hand_dealer_defaults_to_0_or_is_given(rs: Ruleset) -> None:
    assert run_session([{}], rs).dealers == (0,)
    s = run_session([{"dealer": 3, "winner": 1, "hand": SU}, {}], rs)
    assert s.dealers == (3, 0)


def test_dealer_mismatch_raises(rs: Ruleset) -> None:
    docs = [THREE[0], {**THREE[1], "dealer": 0}]
    with pytest.raises(SettleError) as info:
        run_session(docs, rs)
    err = info.value
    assert err.field == "hands[1].dealer"
    assert err.message == "expected dealer 1 (carried from the previous hand), got 0"
    assert str(err) == "hands[1].dealer: expected dealer 1 (carried from the previous hand), got 0"


@pytest.mark.parametrize("bad, field", [
    ({"pulls": [0, 1, 0, 0]}, "hands[2].pulls[1]"),        # the carried dealer is 1
    ({"stake": 0}, "hands[2].stake"),
    ({"winner": 0, "hand": {**SU, "win_tile": 5}}, "hands[2].hand.win_tile"),
    ({"dealer": "1"}, "hands[2].dealer"),
])
def test_errors_name_the_hand(rs: Ruleset, bad: dict[str, Any], field: str) -> None:
    docs = [THREE[0], THREE[1], {**THREE[2], **bad}]
    with pytest.raises(SettleError) as info:
        run_session(docs, rs)
    assert info.value.field == field
    assert isinstance(info.value, RulekitError) and "\n" not in str(info.value)


def test_a_hand_that_is_not_an_object(rs: Ruleset) -> None:
    with pytest.raises(SettleError) as info:
        run_session([THREE[0], [1, 2]], rs)  # type: ignore[list-item]
    assert info.value.field == "hands[1]"
    assert info.value.message == "expected an object, got array"


def test_pass_if_no_kong_is_carried(tmp_path: Path) -> None:
    path = tmp_path / "v.yaml"
    path.write_text("extends: tianjin\nname: v\nsettlement: {dealer_on_draw: pass_if_no_kong}\n",
                    encoding="utf-8")
    rs = load(path)
    s = run_session([{"dealer": 3, "kongs": [[], ["exposed"], [], []]}, {}, {"winner": 0,
                     "hand": SU}], rs)
    assert s.dealers == (3, 0, 0)
    assert s.next_dealer == 0


def test_empty_session(rs: Ruleset) -> None:
    s = run_session([], rs)
    assert s == SessionResult((), (0, 0, 0, 0), (), (), 0)
    assert s.table().splitlines()[-1].split() == ["total", "0", "0", "0", "0"]


def test_to_dict(rs: Ruleset) -> None:
    d = run_session(THREE, rs).to_dict()
    assert d["totals"] == [-10, 6, 5, -1]
    assert d["dealers"] == [0, 1, 1]
    assert d["winners"] == [2, 1, None]
    assert d["next_dealer"] == 1
    assert [h["payments"] for h in d["hands"]] == [[-4, -2, 8, -2], [-6, 12, -3, -3],
                                                   [0, -4, 0, 4]]


def test_table(rs: Ruleset) -> None:
    text = run_session(THREE, rs).table()
    rows = [line.split() for line in text.splitlines()]
    assert rows[0] == ["hand", "dealer", "winner", "seat", "0", "seat", "1", "seat", "2",
                       "seat", "3"]
    assert rows[1:] == [
        ["1", "0", "2", "-4", "-2", "8", "-2"],
        ["2", "1", "1", "-6", "12", "-3", "-3"],
        ["3", "1", "draw", "0", "-4", "0", "4"],
        ["total", "-10", "6", "5", "-1"],
    ]
    widths = {len(line) for line in text.splitlines()}
    assert len(widths) == 1          # right-aligned columns: every line as long as the header
