"""Exact money beyond doubles (issue 18, item 9): every amount rulekit prints is one a reader
that parses JSON numbers as doubles reads exactly, and a hand's payments sum to exactly zero
both in Python and as printed. Amounts, and the money one hand moves in all, are bounded by
limits.AMOUNT_WHOLE (2**53); past it the stake is refused with a SettleError."""
from __future__ import annotations

import json
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rulekit
from rulekit import limits
from rulekit.errors import SettleError
from rulekit.session import run_session
from rulekit.settlement import settle_document
from conftest import examples

TIANJIN = rulekit.load_ruleset("tianjin")
SU = {"indicator": "3s", "hand": "234m567p111z666z8p", "win_tile": "8p"}   # 素: 2 fan
KONGS = [["golden"], [], ["exposed", "concealed"], ["concealed"]]   # the winner has none


def _doc(stake: Any, chan: bool = False) -> dict[str, Any]:
    return {"dealer": 0, "winner": 1, "hand": SU, "stake": stake, "kongs": KONGS,
            "chan": chan, "pulls": [0, 1, 0, 2], "dealer_sits": True}


def test_a_stake_past_2_53_is_refused_not_printed_wrongly() -> None:
    with pytest.raises(SettleError) as err:
        settle_document(_doc(9007199254740993), TIANJIN)
    assert str(err.value) == (
        "stake: an amount over 2**53 (9,007,199,254,740,992) in magnitude, more than a JSON "
        "number carries exactly; use a smaller stake, or one with fewer digits")


def test_a_hand_moving_more_than_2_53_in_all_is_refused() -> None:
    """Each payment fits, but a seat's transfers summed by a double reader would round."""
    with pytest.raises(SettleError) as err:
        settle_document(_doc(2 ** 47 + 1), TIANJIN)   # 32 x stake < 2**53 < 100 x stake
    assert str(err.value).startswith("stake: amounts moving over 2**53 (9,007,199,254,740,992) "
                                     "in all, more than JSON numbers carry exactly")


def test_session_totals_past_2_53_are_refused() -> None:
    doc = {"winner": 1, "hand": SU, "stake": 2 ** 48 + 3}     # the dealer carries
    assert run_session([doc] * 2, TIANJIN).totals[1] > 0     # two hands fit
    with pytest.raises(SettleError) as err:
        run_session([doc] * 64, TIANJIN)
    assert err.value.field == "totals"
    assert err.value.message.startswith("amounts moving over 2**53")


def _as_doubles(printed: str) -> list[float]:
    """The payments as a double reader (JavaScript's JSON.parse) reads them."""
    return [float(p) for p in json.loads(printed, parse_int=float)["payments"]]


@settings(max_examples=examples(300), deadline=None)
@given(st.one_of(
    st.integers(2 ** 53 // 64, 2 ** 53 + 2 ** 20),                     # whole, near the bound
    st.integers(1, 2 ** 20).map(lambda k: limits.AMOUNT_WHOLE // k),
    st.builds(lambda m, e: Decimal(m).scaleb(-e), st.integers(1, 10 ** 12),  # fractional
              st.integers(0, 12))),
    st.booleans())
def test_payments_sum_to_exactly_zero_or_the_stake_is_refused(stake: Any, chan: bool) -> None:
    try:
        r = settle_document(_doc(stake, chan), TIANJIN)
    except SettleError as err:
        assert err.field == "stake", err
        return
    assert sum(r.payments) == 0
    moved = sum(Fraction(t.amount) for t in r.transfers)
    assert moved <= limits.AMOUNT_WHOLE
    printed = json.dumps(r.to_dict())
    as_decimals = json.loads(printed, parse_float=Decimal)["payments"]
    assert as_decimals == list(r.payments) and sum(as_decimals) == 0
    if all(isinstance(p, int) for p in r.payments):     # whole: exact as doubles too
        doubles = _as_doubles(printed)
        assert [int(d) for d in doubles] == list(r.payments)
        assert sum(doubles) == 0.0
        for seat, net in enumerate(doubles):
            got = [float(t.amount) for t in r.transfers if t.to_seat == seat]
            paid = [float(t.amount) for t in r.transfers if t.from_seat == seat]
            assert sum(got) - sum(paid) == net
