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
from rulekit.scoring.score import (Declared, context_of, declared_of, score_parts, tiles_part,
                                   wins_with, yes_no_goal)
from rulekit.scoring.scorer import Scorer


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
        return wins_with(r.sc, Hand(hand.indicator, hand.hun, hand.concealed, hand.melds, w,
                                    hand.win_by, hand.heavenly, hand.discarded_hun,
                                    hand.flowers, hand.earthly, hand.ready_declared))
    counts = list(r.counts)
    n = counts[w] + 1
    counts[w] = n
    codes = r.codes
    if codes and n <= 4:                        # `tiles_part` of the 14 tiles
        s = 2 * SUIT_OF[w]
        grown = list(codes)
        grown[s] += SUIT_DIGIT[w]
        grown[s + 1] += 1
        codes = tuple(grown)
    else:
        codes = ()
    hit = score_parts(r.sc, hand, w, hand.concealed + (w,), counts, codes, r.held_hun,
                      r.declared, r.context, r.goal)
    return hit.win and hit.total_fan > 0
