"""A ready hand's waits asked as yes/no questions with one set-up: what `score_fresh` makes
of a hand before its search and does not depend on the winning tile (the concealed tiles'
counts and suit codes, the hun held, the melds' part, the context) is made once for the 13
tiles, and each wait adds its own tile to it. Greedy asks every wait of each ready hand it
meets (~4 a hand, nearly all "no"), and the set-up was ~20 k instructions of a ~53 k
question (issue 22 item 3)."""
from __future__ import annotations

from rulekit.arrange import SUIT_DIGIT, SUIT_OF
from rulekit.facts import ContextFact
from rulekit.hand import Hand
from rulekit.scoring.result import ScoreResult
from rulekit.scoring.score import (Declared, context_of, declared_of, score_fresh, score_parts,
                                   tiles_part, wins_with, yes_no_goal)
from rulekit.scoring.scorer import Scorer
from rulekit.scoring.search import INF


class Ready:
    """The winning-tile-free part of a hand's questions: `hand`'s concealed tiles, hun,
    melds and flags (its own winning tile is never read)."""

    __slots__ = ("sc", "hand", "goal", "counts", "codes", "held_hun", "declared", "context")

    def __init__(self, sc: Scorer, hand: Hand) -> None:
        self.sc = sc
        self.hand = hand
        self.goal = yes_no_goal(sc.rs)          # 0: no yes/no search (`wins_with`)
        counts, codes, held_hun = tiles_part(hand.concealed, hand.hun)
        self.counts = counts
        self.codes = codes
        self.held_hun = held_hun
        self.declared: Declared = declared_of(sc.rs, hand)
        self.context: ContextFact = context_of(hand, self.declared[3])


def wins_at(r: Ready, w: int) -> bool:
    """`wins_with(r.sc, hand)` for `r.hand` won on `w`: the same answer, its set-up shared."""
    hand = r.hand
    if r.goal <= 0 or w in hand.hun:            # the full score, or the hun held change
        return wins_with(r.sc, won_on(hand, w))
    hit = score_at(r, w, r.goal)
    return hit.win and hit.total_fan > 0


def score_at(r: Ready, w: int, goal: float = INF) -> ScoreResult:
    """`score_fresh(r.sc, hand, goal)` for `r.hand` won on `w`, from the shared set-up."""
    hand = r.hand
    if w in hand.hun:
        return score_fresh(r.sc, won_on(hand, w), goal)
    counts, codes = grown(r, w)
    return score_parts(r.sc, hand, w, hand.concealed + (w,), counts, codes, r.held_hun,
                       r.declared, r.context, goal)


def grown(r: Ready, w: int) -> tuple[list[int], tuple[int, ...]]:
    """`tiles_part`'s counts and suit codes of the 13 tiles and `w` (not a hun kind), made
    from the 13's: `w` counted, its suit's code and count grown (() past four copies)."""
    counts = list(r.counts)
    n = counts[w] + 1
    counts[w] = n
    codes = r.codes
    if not codes or n > 4:
        return counts, ()
    s = 2 * SUIT_OF[w]
    more = list(codes)
    more[s] += SUIT_DIGIT[w]
    more[s + 1] += 1
    return counts, tuple(more)


def won_on(hand: Hand, w: int) -> Hand:
    """`hand` with `w` as its winning tile."""
    return Hand(hand.indicator, hand.hun, hand.concealed, hand.melds, w, hand.win_by,
                hand.heavenly, hand.discarded_hun, hand.flowers, hand.earthly,
                hand.ready_declared)
