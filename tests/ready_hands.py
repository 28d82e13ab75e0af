"""Random ready hands for the tests of yes/no questions (`test_goal_checks`, `test_ready`):
one generator, so both ask about the same kind of hand greedy meets."""
from __future__ import annotations

import random

import rulekit
from rulekit import shape
from rulekit.codes import NUM_KINDS
from rulekit.corpus import random_hand
from rulekit.hand import Hand, parse_hand


def ready_thirteen(rs: rulekit.Ruleset, rng: random.Random, hun_targets: tuple[int, ...],
                   win_by: str | None = None) -> tuple[Hand, list[int], list[int]]:
    """A random winning hand (`random_hand`, no 天和, its hun count one of `hun_targets`,
    won by `win_by` or any way the ruleset allows) less one concealed tile: the hand as
    parsed, the 13 concealed tiles left, and the kinds that complete them (`shape.waits`,
    a fifth copy of a kind left out)."""
    while True:
        doc = random_hand(rng, hun_kinds_count=rs.hun_kinds,
                          hun_target=rng.choice(hun_targets), heavenly_rate=0.0)
        doc["win_by"] = win_by if win_by is not None else rng.choice(sorted(rs.win_by))
        try:
            hand = parse_hand(doc, hun_kind_count=rs.hun_kinds, win_by_allowed=rs.win_by,
                              hun_successor=rs.hun_successor)
        except rulekit.HandError:
            continue
        thirteen = list(hand.concealed + (hand.win_tile,))
        thirteen.remove(rng.choice(thirteen))
        c = [0] * NUM_KINDS
        for t in thirteen:
            c[t] += 1
        h = 0
        for k in hand.hun:
            h += c[k]
            c[k] = 0
        waits = [w for w in shape.waits(c, h, len(hand.melds))
                 if c[w] + sum(m.size for m in hand.melds if m.tile == w) < 4]
        if waits:
            return hand, thirteen, waits
