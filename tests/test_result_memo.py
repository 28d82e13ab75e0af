"""Hand-level results memoised per ruleset (`Scorer.results`): the same hand scored again under
the same ruleset is served the result already found, without a search; the memo is keyed on
everything a score depends on (tile order in a document is not part of it), and bounded.

A fresh score always builds a new `ScoreResult`, so `is` tells a served result from a scored
one; `Scorer(rs, result_memo=0)` keeps nothing, and gives the value to compare against.
"""
from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rulekit
from rulekit.corpus import random_hand
from rulekit.hand import Hand, parse_hand
from rulekit.scoring import ScoreResult, Scorer, score_with, scorer_for
from rulekit.scoring.scorer import RESULT_MEMO
from rulekit.tiles import parse_tiles, tile_name
from conftest import examples

RS = rulekit.load_ruleset("tianjin")
# (捉5 3 + 龍 4) × 素 2 = 14, on 5m self-drawn (RULES.md 000/Ⅳ)
LONG = {"indicator": "7p", "hand": "46m123456789s22z", "win_tile": "5m"}


def fresh(doc: dict[str, Any], rs: rulekit.Ruleset = RS) -> ScoreResult:
    """The score of `doc` from a scorer that keeps no result."""
    hand = parse_hand(doc, hun_kind_count=rs.hun_kinds, win_by_allowed=rs.win_by)
    return score_with(Scorer(rs, result_memo=0), hand)


def test_the_same_document_again_is_served_the_same_result_object() -> None:
    first = rulekit.score(LONG, RS)
    again = rulekit.score(dict(LONG), RS)
    assert again is first
    assert (first.total_fan, first.patterns) == (14, ("zhuo_wu", "long", "su"))
    assert first == fresh(LONG) and first is not fresh(LONG)


def test_a_served_result_is_an_immutable_value() -> None:
    r = rulekit.score(LONG, RS)
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.total_fan = 99            # type: ignore[misc]
    assert all(isinstance(getattr(r, f), tuple)
               for f in ("patterns", "pattern_names", "explain", "groups", "kongs"))
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.groups[0].has_win = False     # type: ignore[misc]  # a group every result shares
    assert isinstance(r.groups[0].tiles, tuple) and isinstance(r.groups[0].fills, tuple)
    d = r.to_dict()
    d["patterns"].append("x")       # the caller's dict is its own
    assert rulekit.score(LONG, RS).to_dict()["patterns"] == ["zhuo_wu", "long", "su"]


def test_a_parsed_hand_with_its_tiles_in_another_order_is_served_the_same_result() -> None:
    hand = parse_hand(LONG)
    r = rulekit.score(hand, RS)
    reordered = Hand(hand.indicator, hand.hun, tuple(reversed(hand.concealed)), hand.melds,
                     hand.win_tile, hand.win_by, hand.heavenly, hand.discarded_hun)
    assert rulekit.score(reordered, RS) is r


def shuffled(doc: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    tiles = [tile_name(t) for t in parse_tiles(doc["hand"])]
    rng.shuffle(tiles)
    return {**doc, "hand": "".join(tiles)}


@settings(max_examples=examples(150), deadline=None)
@given(st.integers(0, 10**9), st.integers(0, 10**9))
def test_tile_order_in_the_document_does_not_matter(seed: int, order: int) -> None:
    doc = random_hand(random.Random(seed), max_hun=7)
    sc = Scorer(RS)
    rules = {"hun_kind_count": RS.hun_kinds, "win_by_allowed": RS.win_by}
    first = score_with(sc, parse_hand(doc, **rules))
    other = shuffled(doc, random.Random(order))
    assert score_with(sc, parse_hand(other, **rules)) is first
    assert len(sc.results) == 1
    assert first == fresh(other)            # and it is what scoring that order finds


# each flag changes what the hand is worth under tianjin (RULES.md 000/Ⅲ): 天和 ×4, and
# 小相公 (a hun discarded) forbids the win
@pytest.mark.parametrize("flag, total, win", [
    ({"heavenly": True}, 56, True),
    ({"discarded_hun": True}, 14, False),
])
def test_a_different_context_flag_is_scored_not_served(flag: dict[str, Any], total: int,
                                                       win: bool) -> None:
    plain = rulekit.score(LONG, RS)
    flagged = rulekit.score({**LONG, **flag}, RS)
    assert flagged is not plain
    assert (flagged.total_fan, flagged.win) == (total, win)
    assert flagged == fresh({**LONG, **flag})
    assert rulekit.score(LONG, RS) is plain     # both kept, each under its own key


@pytest.mark.parametrize("change", [
    {"ready_declared": True}, {"earthly": True}, {"win_by": "last_draw"},
    {"indicator": "6p"}, {"win_tile": "2z", "hand": "456m123456789s2z"}])
def test_every_field_of_the_hand_is_in_the_key(change: dict[str, Any]) -> None:
    sc = Scorer(RS)
    rules = {"hun_kind_count": RS.hun_kinds, "win_by_allowed": RS.win_by}
    a = score_with(sc, parse_hand(LONG, **rules))
    b = score_with(sc, parse_hand({**LONG, **change}, **rules))
    assert b is not a and len(sc.results) == 2
    assert b == fresh({**LONG, **change})


def test_flowers_are_in_the_key() -> None:
    rs = rulekit.load_ruleset("tianjin-flowers")
    sc = Scorer(rs)
    rules = {"hun_kind_count": rs.hun_kinds, "win_by_allowed": rs.win_by}
    for flowers in ("", "1f", "12f"):
        score_with(sc, parse_hand({**LONG, "flowers": flowers} if flowers else LONG, **rules))
    assert len(sc.results) == 3


def test_the_memo_belongs_to_the_rulesets_scorer() -> None:
    other = rulekit.load_ruleset("tianjin-flowers")
    a, b = rulekit.score(LONG, RS), rulekit.score(LONG, other)
    assert a is not b
    assert any(v is a for v in scorer_for(RS).results.values())
    assert not any(v is a for v in scorer_for(other).results.values())


def test_the_memo_stays_within_its_bound() -> None:
    sc = Scorer(RS, result_memo=4)
    rules = {"hun_kind_count": RS.hun_kinds, "win_by_allowed": RS.win_by}
    rng = random.Random(3)
    for _ in range(30):
        hand = parse_hand(random_hand(rng, max_hun=3), **rules)
        score_with(sc, hand)
        assert 1 <= len(sc.results) <= 4
    assert RESULT_MEMO == 1 << 12


def test_a_scorer_without_a_memo_scores_every_time() -> None:
    sc = Scorer(RS, result_memo=0)
    hand = parse_hand(LONG)
    a, b = score_with(sc, hand), score_with(sc, hand)
    assert a is not b and a == b and not sc.results

