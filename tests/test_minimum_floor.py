"""The minimum's floor (`score.minimum_floor`): a full score whose search starts just below
the ruleset's minimum wins exactly when the full score does and is then the full score,
reading shown included; `score_with` keeps only its wins (the procedure scores each would-be
win so: `procedure._Hand.score`)."""
from __future__ import annotations

import math
import random

from hypothesis import given, settings
from hypothesis import strategies as st

import rulekit
from rulekit.corpus import random_hand
from rulekit.hand import Hand, parse_hand
from rulekit.ruleset.resolve import builtin_names
from rulekit.scoring.result import ScoreResult
from rulekit.scoring.score import (hand_key, minimum_floor, score_fresh, score_with,
                                   scorer_for)
from rulekit.scoring.search import INF
from conftest import examples
from test_goal_checks import ready_waits

RULESETS = builtin_names()


def shown(r: ScoreResult) -> tuple[object, ...]:
    """Everything a result shows, the groups of its reading included (not in `==`)."""
    return (r, r.groups, r.win_tile)


def winning_hands(rs: rulekit.Ruleset, rng: random.Random, n: int) -> list[Hand]:
    """`n` random winning-shape hands of 0-8 hun (some 天和, any win type the ruleset
    allows), and the real waits of a ready hand: the shapes the procedure asks about."""
    out: list[Hand] = []
    while len(out) < n:
        doc = random_hand(rng, hun_kinds_count=rs.hun_kinds, heavenly_rate=0.1)
        doc["win_by"] = rng.choice(sorted(rs.win_by))
        try:
            out.append(parse_hand(doc, hun_kind_count=rs.hun_kinds, win_by_allowed=rs.win_by,
                                  hun_successor=rs.hun_successor))
        except rulekit.HandError:
            continue
    return out + ready_waits(rs, rng)


@settings(max_examples=examples(40), deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(RULESETS))
def test_a_score_from_the_minimum_s_floor_is_the_full_score(seed: int, name: str) -> None:
    rs = rulekit.load_ruleset(name)
    sc = scorer_for(rs)
    floor = minimum_floor(rs)
    for hand in winning_hands(rs, random.Random(seed), 6):
        full = score_fresh(sc, hand)
        floored = score_fresh(sc, hand, INF, floor)
        assert floored.win == full.win, hand
        if full.win:
            assert shown(floored) == shown(full), hand


def test_the_floor_is_just_below_the_minimum() -> None:
    """A floor at the minimum, not below it, would lose the hands that win with exactly
    the minimum; the floor is none where the minimum counts kong points or is 0."""
    rs = rulekit.load_ruleset("tianjin")
    floor = minimum_floor(rs)
    assert floor < rs.minimum == math.nextafter(floor, INF)
    sc = scorer_for(rs)
    at_minimum = 0
    for hand in winning_hands(rs, random.Random(5), 60):
        full = score_fresh(sc, hand)
        if full.win and full.hand_fan == rs.minimum:
            at_minimum += 1
            assert score_fresh(sc, hand, INF, floor).win
            assert not score_fresh(sc, hand, INF, float(rs.minimum)).win
    assert at_minimum >= 3
    for name in RULESETS:
        other = rulekit.load_ruleset(name)
        if other.minimum <= 0 or other.minimum_counts_kong_points:
            assert minimum_floor(other) == -1.0


def test_score_with_keeps_only_a_floored_win() -> None:
    """A floored hand that does not win is "not a winning shape", not its score: never
    kept for the full score's callers; a floored win is kept and is the full score."""
    rs = rulekit.load_ruleset("tianjin")
    floor = minimum_floor(rs)
    wins = losses = 0
    for hand in winning_hands(rs, random.Random(9), 80):
        sc = scorer_for(rs)
        sc.results.clear()
        r = score_with(sc, hand, floor)
        kept = sc.result(hand_key(hand))
        if r.win:
            wins += 1
            assert kept is r and shown(r) == shown(score_fresh(sc, hand))
        else:
            losses += 1
            assert kept is None
            assert shown(score_with(sc, hand)) == shown(score_fresh(sc, hand))
    assert wins >= 5 and losses >= 5
