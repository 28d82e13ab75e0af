"""A ready hand's waits asked with one shared set-up (`scoring.ready`, greedy's `can_win`):
each wait's answer, and its whole score, are those of the wait's own hand scored alone."""
from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import rulekit
from rulekit.codes import NUM_KINDS
from rulekit.hand import Hand, parse_hand
from rulekit.ruleset.resolve import builtin_names
from rulekit.scoring.ready import Ready, grown, score_at, wins_at, won_on
from rulekit.scoring.score import score_fresh, scorer_for, tiles_part, wins_with, yes_no_goal
from conftest import examples
from ready_hands import ready_thirteen

RULESETS = builtin_names()


def ready_hand(rs: rulekit.Ruleset, rng: random.Random) -> tuple[Hand, list[int]]:
    """A random winning hand (0-4 hun, melds as `random_hand` makes them, any win type of
    the ruleset) less one concealed tile, and the kinds that complete it (hun kinds
    included: `wins_at` takes any)."""
    hand, thirteen, waits = ready_thirteen(rs, rng, (0, 1, 2, 3, 4))
    # the 13's own winning tile any kind: the shared set-up never reads it
    return (Hand(hand.indicator, hand.hun, tuple(sorted(thirteen)), hand.melds,
                 rng.randrange(NUM_KINDS), hand.win_by, False, hand.discarded_hun,
                 hand.flowers, hand.earthly, hand.ready_declared),
            waits + list(hand.hun))


@settings(max_examples=examples(60), deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(RULESETS))
def test_each_wait_s_answer_and_score_are_its_own_hand_s(seed: int, name: str) -> None:
    """Every wait of a random ready hand, one `Ready` shared by all (asked in turn, each
    asked twice: nothing a question leaves behind changes the next): the yes/no answer is
    `wins_with`'s and the full score's, and the score from the shared set-up, with and
    without the goal, is `score_fresh`'s of the wait's own hand."""
    rs = rulekit.load_ruleset(name)
    sc = scorer_for(rs)
    thirteen, waits = ready_hand(rs, random.Random(seed))
    r = Ready(sc, thirteen)
    goal = yes_no_goal(rs)
    for _ in range(2):
        for w in waits:
            hand = won_on(thirteen, w)
            full = score_fresh(sc, hand)
            assert score_at(r, w) == full, (hand, w)
            if goal > 0:
                assert score_at(r, w, goal) == score_fresh(sc, hand, goal), (hand, w)
            yes = wins_at(r, w)
            assert yes == wins_with(sc, hand) == (full.win and full.total_fan > 0), (hand, w)


@settings(max_examples=examples(100), deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(RULESETS))
def test_a_wait_s_counts_and_codes_are_tiles_part_s(seed: int, name: str) -> None:
    """The counts and suit codes each wait grows from the 13 tiles' are `tiles_part`'s of
    the 14 (every kind not a hun kind asked, ready or not; the hun held are the 13's)."""
    rs = rulekit.load_ruleset(name)
    thirteen, _ = ready_hand(rs, random.Random(seed))
    r = Ready(scorer_for(rs), thirteen)
    for w in range(NUM_KINDS):
        if w in thirteen.hun:
            continue
        counts, codes, held = tiles_part(thirteen.concealed + (w,), thirteen.hun)
        assert grown(r, w) == (counts, codes), w
        assert r.held_hun == held


def fixed_ready(name: str, doc: dict[str, object]) -> tuple[rulekit.Ruleset, Hand]:
    rs = rulekit.load_ruleset(name)
    hand = parse_hand(doc, hun_kind_count=rs.hun_kinds, win_by_allowed=rs.win_by,
                      hun_successor=rs.hun_successor)
    return rs, hand


def test_the_wait_s_tile_is_in_the_hand_s_tiles() -> None:
    """亂風向 (tianjin-flowers: every tile an honour, an instant win) reads the hand's tiles:
    the wait's are the 13 and the wait, never the 13's own winning tile."""
    rs, hand = fixed_ready("tianjin-flowers", {"indicator": "5m", "hand": "1122334455667z",
                                               "win_tile": "1m", "win_by": "self_draw"})
    r = Ready(scorer_for(rs), hand)
    got = score_at(r, 33)                                   # 7z
    assert got.win and got.total_fan == 8
    assert got == score_fresh(scorer_for(rs), won_on(hand, 33))
    assert wins_at(r, 33)


def test_the_shared_context_keeps_the_last_kong() -> None:
    """tianjin-laizi doubles a 杠開 on a concealed kong: the shared context names it."""
    rs, hand = fixed_ready("tianjin-laizi", {
        "indicator": "9s", "hand": "345m456p789s5z", "win_tile": "1z", "win_by": "kong_draw",
        "melds": [{"kind": "kong", "tiles": "2222m", "concealed": True}]})
    r = Ready(scorer_for(rs), hand)
    alone = score_fresh(scorer_for(rs), won_on(hand, 31))   # 5z
    assert alone.win and score_at(r, 31) == alone
