"""The scan's arrangements less those that cannot beat the best, in the scan's own order.

When the skeleton-level patterns read a skeleton only through shape queries, what decides an
arrangement's bound is the bits of the queried keys it holds (`scan.scan_bits`). A hand with
many hun has hundreds of arrangements, nearly all of them under the best once it is found;
the scan would still form, key and bound each. Here `arrange.anchored`'s nested loop over
the suits' parts is walked with each part's bits: a part is skipped whole when no
completion of the parts chosen so far (the later suits' distinct bits, and what all-hun
groups may add) has a bound that beats the best. Every arrangement met is one
`arrange.arrangement_codes` gives, in its order; only arrangements whose own bound cannot
beat the best are left out, and the scan skips those anyway, so what it reads and keeps
is the same (tests/test_pruned.py).
"""
from __future__ import annotations

from itertools import combinations_with_replacement
from typing import Callable, Iterator, Sequence

from rulekit.arrange import ALL_KEYS, KEY_OF, Layout, SuitPart, suit_part_lists, wild_codes
from rulekit.codes import PAIR, RUN, SET, key_shape
from rulekit.facts import WinFact
from rulekit.scoring.search import Projections, State, skeleton_at


class Bounds:
    """The bound of an arrangement by the bits of its queried keys (with `base`, the bits
    every arrangement here holds besides its own: declared melds, a group set apart),
    memoised: the skeleton-level patterns that hold (`search.skeleton_at`, sharing the scan's
    results) and the best fan with the patterns of `free`."""

    __slots__ = ("s", "cand_win", "possible", "free", "shared", "tag", "base", "of")

    def __init__(self, s: State, cand_win: WinFact, possible: int, free: int,
                 shared: Projections, tag: int | None, base: int) -> None:
        self.s = s
        self.cand_win = cand_win
        self.possible = possible
        self.free = free
        self.shared = shared
        self.tag = tag
        self.base = base
        self.of: dict[int, float] = {}

    def top(self, bits: int) -> float:
        """The best fan of an arrangement holding these bits (and `base`)."""
        hit = self.of.get(bits)
        if hit is None:
            s = self.s
            held_sk = skeleton_at(s, bits | self.base, self.cand_win, s.hun0, self.possible,
                              self.shared, self.tag)
            hit = self.of[bits] = s.sc.bound(held_sk, self.free)
        return hit

    def most(self, bits: int, ends: frozenset[int], memo: dict[int, float]) -> float:
        """The best `top` of `bits` with any of `ends` added (memoised by `bits`)."""
        hit = memo.get(bits)
        if hit is None:
            hit = -1.0
            for e in ends:
                t = self.top(bits | e)
                if t > hit:
                    hit = t
            memo[bits] = hit
        return hit


def part_bits(parts: Sequence[SuitPart], key_bits: tuple[int, ...]) -> list[int]:
    """Each part's queried keys, as bits."""
    out = []
    key_of = KEY_OF
    for _, _, _, codes in parts:
        bits = 0
        for c in codes:
            bits |= key_bits[key_of[c]]
        out.append(bits)
    return out


def wild_bits(query_keys: tuple[int, ...], melds: int, pairs: int) -> frozenset[int]:
    """What up to `melds` all-hun melds and `pairs` all-hun pairs may add to an
    arrangement's bits: any queried meld or pair key (a superset of what they can)."""
    meld_bits = [1 << i for i, k in enumerate(query_keys) if key_shape(k) in (RUN, SET)]
    pair_bits = [1 << i for i, k in enumerate(query_keys) if key_shape(k) == PAIR]
    out = {0}
    for _ in range(melds):
        out |= {e | b for e in out for b in meld_bits}
    if pairs:
        out |= {e | b for e in out for b in pair_bits}
    return frozenset(out)


def ors(a: Sequence[int], b: frozenset[int]) -> frozenset[int]:
    """Every x | y of x in `a`, y in `b`."""
    return frozenset([x | y for x in set(a) for y in b])


def live_codes(layout: Layout, wild_kinds: Callable[[], Sequence[int]],
               key_bits: tuple[int, ...], query_keys: tuple[int, ...], b: Bounds
               ) -> Iterator[tuple[int, ...]]:
    """`arrange.arrangement_codes(layout, wild_kinds)`, in its order, less arrangements whose
    bound (`b.top` of their bits) cannot beat the best (`b.s.best_fan`, read as it grows),
    most of them skipped with the part that leads to them."""
    lists = suit_part_lists(layout)
    if lists is None:
        return
    p0, p1, p2, p3 = lists
    s = b.s
    h, need, pairs = layout.hun, layout.need_melds, layout.need_pairs
    b0, b1, b2, b3 = [part_bits(p, key_bits) for p in lists]
    wild = wild_bits(query_keys, h // 3, pairs if h >= 2 else 0)
    # what the suits after each may add, all-hun groups included (a superset)
    e3 = ors(b3, wild)
    e2 = ors(b2, e3)
    e1 = ors(b1, e2)
    m1: dict[int, float] = {}
    m2: dict[int, float] = {}
    m3: dict[int, float] = {}
    m4: dict[int, float] = {}
    codes_of: tuple[tuple[int, ...], tuple[int, ...]] | None = None
    for i0 in range(len(p0)):
        h0, m0, q0, g0 = p0[i0]
        if h0 > h or m0 > need or q0 > pairs:
            continue
        x0 = b0[i0]
        if b.most(x0, e1, m1) <= s.best_fan:
            continue
        for i1 in range(len(p1)):
            h1, m1_, q1, g1 = p1[i1]
            ha, ma, qa = h0 + h1, m0 + m1_, q0 + q1
            if ha > h or ma > need or qa > pairs:
                continue
            x1 = x0 | b1[i1]
            if b.most(x1, e2, m2) <= s.best_fan:
                continue
            for i2 in range(len(p2)):
                h2, m2_, q2, g2 = p2[i2]
                hb, mb, qb = ha + h2, ma + m2_, qa + q2
                if hb > h or mb > need or qb > pairs:
                    continue
                x2 = x1 | b2[i2]
                if b.most(x2, e3, m3) <= s.best_fan:
                    continue
                for i3 in range(len(p3)):
                    h3, m3_, q3, g3 = p3[i3]
                    hc, mc, qc = hb + h3, mb + m3_, qb + q3
                    if hc > h or mc > need or qc > pairs:
                        continue
                    wm = need - mc
                    wp = pairs - qc
                    if h - hc != 3 * wm + 2 * wp:
                        continue
                    x3 = x2 | b3[i3]
                    if wm == 0 and wp == 0:
                        if b.top(x3) > s.best_fan:
                            yield g0 + g1 + g2 + g3
                        continue
                    if b.most(x3, wild, m4) <= s.best_fan:
                        continue
                    if codes_of is None:
                        codes_of = wild_codes(wild_kinds)
                    yield from with_wild(g0 + g1 + g2 + g3, x3, wm, wp, codes_of,
                                         key_bits, b)


def with_wild(codes: tuple[int, ...], bits: int, wm: int, wp: int,
              wild: tuple[tuple[int, ...], tuple[int, ...]], key_bits: tuple[int, ...],
              b: Bounds) -> Iterator[tuple[int, ...]]:
    """One row of real groups with each choice of `wm` all-hun melds and `wp` all-hun pairs,
    in `arrange.arrangement_codes`'s order, less those whose bound cannot beat the best."""
    meld_codes, pair_codes = wild
    key_of = ALL_KEYS
    s = b.s
    for melds in combinations_with_replacement(meld_codes, wm):
        mbits = bits
        for c in melds:
            mbits |= key_bits[key_of[c]]
        if not wp:
            if b.top(mbits) > s.best_fan:
                yield codes + melds
            continue
        for pair in pair_codes:
            if b.top(mbits | key_bits[key_of[pair]]) > s.best_fan:
                yield codes + melds + (pair,)

