"""A yes's floor (`score.yes_floor`): the full score started from just below the hand fan
of the reading a yes/no question found is the full score, reading shown included (the
procedure scores each win it offers so: `procedure._Hand.score`)."""
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
from rulekit.scoring.score import score_fresh, score_with, scorer_for, yes_floor
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
def test_a_yes_s_floor_gives_the_full_score(seed: int, name: str) -> None:
    rs = rulekit.load_ruleset(name)
    sc = scorer_for(rs)
    goal = float(max(rs.minimum, 1))
    for hand in winning_hands(rs, random.Random(seed), 6):
        yes = score_fresh(sc, hand, goal)
        full = score_fresh(sc, hand)
        if not yes.win:
            continue
        assert full.hand_fan >= yes.hand_fan
        assert shown(score_fresh(sc, hand, INF, yes_floor(yes))) == shown(full), hand


def test_the_floor_is_just_below_the_yes_s_fan() -> None:
    """A floor at the fan found, not below it, would lose that reading: the floor passes
    only fans of at least the yes's."""
    rs = rulekit.load_ruleset("tianjin")
    sc = scorer_for(rs)
    asked = 0
    for hand in winning_hands(rs, random.Random(5), 40):
        yes = score_fresh(sc, hand, float(rs.minimum))
        if not yes.win:
            continue
        asked += 1
        floor = yes_floor(yes)
        assert floor < yes.hand_fan == math.nextafter(floor, INF)
        if score_fresh(sc, hand).hand_fan == yes.hand_fan:   # nothing above it: only it
            assert score_fresh(sc, hand, INF, float(yes.hand_fan)).win is False
            assert shown(score_with(sc, hand, floor)) == shown(score_fresh(sc, hand))
    assert asked >= 10
