"""The procedure keeps each seat's suit codes as its counts change (`_Hand.codes`, read by
a turn's `shape.Held` instead of the 34 counts): at every decision of played hands they
equal the codes read from the counts, through draws, discards, claims, kongs (robbed ones
too), flowers and wins on a discard."""
from __future__ import annotations

import random

import pytest

from rulekit import shape
from rulekit.game import Table
from rulekit.game.procedure import CODES
from test_table import RULESETS


def read(counts: list[int]) -> list[int]:
    h = shape.Held(counts, ())
    return [h.s0, h.s1, h.s2, h.s3, h.n]


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_kept_codes_are_the_counts_codes(name: str) -> None:
    rs = RULESETS[name]
    checked = 0
    seen: set[str] = set()
    for seed in range(8):
        rng = random.Random(seed)
        t = Table(rs, seed, seed % rs.players)
        h = t._hand
        while not t.over:
            seat = rng.choice(t.pending())
            if h.seen.dealt:
                for s, st in enumerate(h.st.seats):
                    assert h.codes[CODES * s:CODES * s + CODES] == read(st.counts), (seed, s)
                    checked += 1
                r = t._open[seat]
                if r.held is not None:           # a turn's Held, read from the kept codes
                    want = shape.Held(h.st.seats[seat].counts, h.st.hun)
                    assert (r.held.s0, r.held.s1, r.held.s2, r.held.s3, r.held.n,
                            r.held.hun) == (want.s0, want.s1, want.s2, want.s3, want.n,
                                            want.hun)
            legal = t.legal(seat)
            kongs = [a for a in legal if a["action"] in ("kong", "pung", "win")]
            t.act(seat, rng.choice(kongs) if kongs and rng.random() < 0.7
                  else rng.choice(legal))
        seen |= {e[1] for e in h.events}
    assert checked > 500
    assert {"discard", "pung"} <= seen


def test_held_from_codes_is_held_from_counts() -> None:
    c = [0] * 34
    for k in (0, 0, 1, 2, 9, 13, 20, 26, 27, 27, 33, 33, 33, 5):
        c[k] += 1
    kept = read(c)
    for hun in ((), (0,), (33, 27), (5, 6)):
        a, b = shape.Held(c, hun), shape.Held(c, hun, [9, 9] + kept, 2)
        assert (a.s0, a.s1, a.s2, a.s3, a.n, a.hun) == (b.s0, b.s1, b.s2, b.s3, b.n, b.hun)
