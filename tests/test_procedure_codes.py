"""The procedure keeps each seat's suit codes as its counts change (`_Hand.codes`, read by
a turn's `shape.Held` instead of the 34 counts): at every decision of played hands they
equal the codes read from the counts, through draws, discards, claims, kongs (robbed ones
too), flowers and wins on a discard."""
from __future__ import annotations

import random

import pytest

from rulekit import shape
from rulekit.game import Table
from test_table import RULESETS


def read(counts: list[int]) -> list[int]:
    h = shape.Held(counts, ())
    return [h.s0, h.s1, h.s2, h.s3, h.n]


def kept(codes: shape.Codes) -> list[int]:
    return [codes.s0, codes.s1, codes.s2, codes.s3, codes.n]


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
                    assert kept(h.codes[s]) == read(st.counts), (seed, s)
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


def test_codes_follow_their_counts_and_make_the_same_held() -> None:
    c = [0] * 34
    codes = shape.Codes(c)
    for k, d in ((0, 2), (1, 1), (2, 1), (9, 1), (13, 1), (20, 1), (26, 1), (27, 2),
                 (33, 3), (5, 1), (33, -1), (26, -1), (8, 4), (8, -4)):
        c[k] += d
        codes.add(k, d)
        assert kept(codes) == read(c), (k, d)
    for hun in ((), (0,), (33, 27), (5, 6)):
        a, b = shape.Held(c, hun), shape.Held(c, hun, codes)
        assert (a.s0, a.s1, a.s2, a.s3, a.n, a.hun) == (b.s0, b.s1, b.s2, b.s3, b.n, b.hun)
