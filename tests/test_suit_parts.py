"""Per-suit decompositions (`arrange.suit_parts`): exact against a plain reference.

The arranger's search is cut by the shape tables and memoised by suit code; neither may
change what it returns. The reference below knows nothing of templates, orders or tables:
it picks a group for the lowest real tile every way there is and keeps the distinct
multisets of groups. The arranger must give each of them exactly once.
"""
from __future__ import annotations

import random
from functools import lru_cache
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulekit import arrange
from rulekit.arrange import GROUP_OF, PAIR, RUN, SET, suit_parts
from conftest import examples

# a group as (shape, first kind, fills), kinds absolute
Group = tuple[int, int, tuple[int, ...]]


def _groups_at(work: tuple[int, ...], i: int, numbered: bool) -> list[tuple[Group, int]]:
    """Every group whose lowest real tile is rank i, with the real copies it takes
    (ranks relative to the suit): (group, hun it needs)."""
    out: list[tuple[Group, int]] = []
    for real in (2, 1):
        if work[i] >= real:
            out.append(((PAIR, i, (i,) * (2 - real)), 2 - real))
    for real in (3, 2, 1):
        if work[i] >= real:
            out.append(((SET, i, (i,) * (3 - real)), 3 - real))
    if numbered:
        for start in (i - 2, i - 1, i):
            if start < 0 or start + 2 >= len(work):
                continue
            below = tuple(k for k in range(start, i))          # no real tile below i
            above = [k for k in range(i + 1, start + 3)]
            for pick in product((False, True), repeat=len(above)):
                if any(p and work[k] < 1 for p, k in zip(pick, above)):
                    continue
                fills = below + tuple(k for p, k in zip(pick, above) if not p)
                out.append(((RUN, start, fills), len(fills)))
    return out


@lru_cache(maxsize=None)
def _reference(work: tuple[int, ...], max_hun: int, pair_free: bool, numbered: bool
               ) -> frozenset[tuple[Group, ...]]:
    """Every multiset (as a sorted tuple) of groups using up `work` exactly, each group
    holding at least one real tile, at most `max_hun` hun, at most one pair."""
    i = next((r for r, n in enumerate(work) if n), None)
    if i is None:
        return frozenset({()})
    out: set[tuple[Group, ...]] = set()
    for g, hun in _groups_at(work, i, numbered):
        if hun > max_hun or (g[0] == PAIR and not pair_free):
            continue
        rest = list(work)
        real = [g[1] + o for o in range(3)] if g[0] == RUN else \
            [i] * (2 if g[0] == PAIR else 3)
        for f in g[2]:
            real.remove(f)
        for k in real:
            rest[k] -= 1
        for tail in _reference(tuple(rest), max_hun - hun, pair_free and g[0] != PAIR,
                               numbered):
            out.add(tuple(sorted(tail + (g,))))
    return frozenset(out)


def _absolute(groups: tuple[Group, ...], base: int) -> tuple[Group, ...]:
    return tuple(sorted((s, base + f, tuple(base + k for k in fills))
                        for s, f, fills in groups))


def _tallied(parts: tuple[arrange.SuitPart, ...]) -> list[tuple[Group, ...]]:
    """The parts as sorted group tuples, after checking each part's (hun, melds, pairs)."""
    out = []
    for hun, melds, pairs, codes in parts:
        groups = tuple(sorted((GROUP_OF[c].shape, GROUP_OF[c].first, GROUP_OF[c].fills)
                              for c in codes))
        assert hun == sum(len(g[2]) for g in groups)
        assert pairs == sum(1 for g in groups if g[0] == PAIR)
        assert melds == len(groups) - pairs
        out.append(groups)
    return out


def check_suit(counts: tuple[int, ...], base: int, budgets: range = range(9)) -> None:
    """suit_parts(base, counts, b) is exactly the reference for every budget b, each
    multiset once, with the right (hun, melds, pairs) tallies. The reference is computed
    once, for the largest budget: a smaller budget's are those using no more hun."""
    top = {_absolute(g, base): sum(len(x[2]) for x in g)
           for g in _reference(counts, budgets[-1], True, base < 27)}
    for max_hun in budgets:
        seen = _tallied(suit_parts(base, counts, max_hun))
        assert len(seen) == len(set(seen)), (counts, max_hun)
        assert set(seen) == {g for g, hun in top.items() if hun <= max_hun}, \
            (counts, base, max_hun)


def _vectors(size: int, most: int) -> list[tuple[int, ...]]:
    """Every count vector of `size` ranks, 0..4 copies each, at most `most` tiles."""
    out: list[tuple[int, ...]] = []

    def go(prefix: list[int], left: int) -> None:
        if len(prefix) == size:
            out.append(tuple(prefix))
            return
        for k in range(min(4, left) + 1):
            go(prefix + [k], left - k)
    go([], most)
    return out


@pytest.mark.parametrize("tiles", range(6))
def test_every_small_numbered_suit_matches_the_reference(tiles: int) -> None:
    vectors = [v for v in _vectors(9, tiles) if sum(v) == tiles]
    assert len(vectors) == [1, 9, 45, 165, 495, 1278][tiles]   # 5 tiles: C(13, 5) - 9
    for counts in vectors:
        check_suit(counts, 9, range(9) if tiles <= 4 else range(6))


def test_every_small_honour_suit_matches_the_reference() -> None:
    vectors = _vectors(7, 5)
    assert len(vectors) == 785                       # C(12, 5) - 7 (five of one rank)
    for counts in vectors:
        check_suit(counts, 27)


def _random_suit(rng: random.Random, size: int, tiles: int) -> tuple[int, ...]:
    c = [0] * size
    while sum(c) < tiles:
        r = rng.randrange(size)
        if c[r] < 4:
            c[r] += 1
    return tuple(c)


def test_random_suits_match_the_reference_at_every_hun_budget() -> None:
    rng = random.Random(20261130)
    for _ in range(80):
        numbered = rng.random() < 0.75
        counts = _random_suit(rng, 9 if numbered else 7, rng.randint(5, 9))
        check_suit(counts, rng.choice((0, 9, 18)) if numbered else 27)


def test_random_large_suits_match_the_reference_at_the_budgets_a_hand_allows() -> None:
    """10 to 14 tiles of one suit: a hand then holds at most 14 - tiles hun."""
    rng = random.Random(1130)
    for _ in range(60):
        numbered = rng.random() < 0.75
        counts = _random_suit(rng, 9 if numbered else 7, rng.randint(10, 14))
        check_suit(counts, rng.choice((0, 9, 18)) if numbered else 27,
                   range(15 - sum(counts)))


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(st.integers(0, 4), min_size=9, max_size=9), st.integers(0, 8),
       st.sampled_from((0, 9, 18)))
def test_table_cut_search_equals_the_uncut_search(counts: list[int], max_hun: int,
                                                  base: int) -> None:
    """The cut (shape tables) removes only branches that end empty: the same parts, in the
    same order, as the search without it."""
    if sum(counts) > 14:
        counts = [min(k, 1) for k in counts]
    code = sum(k * 5 ** r for r, k in enumerate(counts))
    n = sum(counts)
    cut = arrange._search(base, list(counts), code, n, min(max_hun, 2 * n))
    uncut = arrange._search(base, list(counts), -1, n, min(max_hun, 2 * n))
    assert cut == uncut
    assert suit_parts(base, tuple(counts), max_hun) == cut


def test_a_larger_budget_only_adds_parts() -> None:
    """Budgets are memoised apart, yet each budget's parts are the next budget's parts that
    use no more hun (the memo key holds the clamped budget, not a stale neighbour's)."""
    counts = (1, 1, 0, 0, 2, 0, 0, 0, 1)
    for max_hun in range(8):
        small = suit_parts(0, counts, max_hun)
        large = suit_parts(0, counts, max_hun + 1)
        assert set(small) == {p for p in large if p[0] <= max_hun}
    # 1m 2m 5m 5m 9m with two hun: 1m2m+hun run, 5m pair, 9m with... no: 9m needs two hun
    # for its own set or pair+... so the fewest hun that use all five tiles is 1+2 = 3
    assert suit_parts(0, counts, 2) == ()
    assert min(p[0] for p in suit_parts(0, counts, 3)) == 3


def test_a_smaller_budget_served_from_a_larger_one_is_the_search_itself() -> None:
    """Once a suit is memoised under a large budget, smaller budgets are cut from it: the
    same parts in the same order as searching under the smaller budget (uncut)."""
    rng = random.Random(7)
    for _ in range(40):
        counts = _random_suit(rng, 9, rng.randint(3, 8))
        n = sum(counts)
        arrange._MEMO.clear()
        suit_parts(18, counts, 8)                     # memoised under min(8, 2n)
        for max_hun in range(min(8, 2 * n)):
            assert suit_parts(18, counts, max_hun) == \
                arrange._search(18, list(counts), -1, n, max_hun), (counts, max_hun)


def test_counts_outside_the_tables_are_still_decomposed() -> None:
    """Five copies (a hun standing for a fifth tile is legal, a fifth real tile is not, but
    the arranger is not the place to say so) bypass the tables and the memo."""
    parts = suit_parts(0, (5, 0, 0, 0, 0, 0, 0, 0, 0), 1)
    # 1m x5 = set + pair, or set + set with one hun
    assert sorted((h, m, q) for h, m, q, _ in parts) == [(0, 1, 1), (1, 2, 0)]


def test_a_suit_moved_from_another_numbered_suit_is_its_own_search() -> None:
    """A shape first decomposed in one numbered suit serves the others (`arrange._moved`,
    under the same budget or cut from a larger one): the same parts in the same order as
    searching that suit itself, and the move really served them (no search ran)."""
    rng = random.Random(11)
    real_search = arrange._search
    for _ in range(60):
        counts = _random_suit(rng, 9, rng.randint(1, 8))
        n = sum(counts)
        first, second = rng.sample((0, 9, 18), 2)
        wide = rng.randint(0, 8)
        arrange._MEMO.clear()
        suit_parts(first, counts, wide)
        for max_hun in range(min(wide, 2 * n) + 1):
            expected = real_search(second, list(counts), -1, n, max_hun)
            searched: list[int] = []
            arrange._search = lambda *a: searched.append(1) or real_search(*a)  # type: ignore
            try:
                got = suit_parts(second, counts, max_hun)
            finally:
                arrange._search = real_search
            assert got == expected, (counts, first, second, wide, max_hun)
            assert searched == [], "served by a search, not moved"
            arrange._MEMO.clear()
            suit_parts(first, counts, wide)


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(st.integers(0, 4), min_size=9, max_size=9), st.integers(0, 8),
       st.sampled_from((0, 9, 18, 27)), st.lists(st.tuples(st.booleans(), st.integers(0, 8),
                                                        st.sampled_from((0, 9, 18))),
                                              max_size=4))
def test_parts_forming_no_pair_are_the_parts_less_those_with_a_pair(
        counts: list[int], max_hun: int, base: int,
        before: list[tuple[bool, int, int]]) -> None:
    """`no_pairs` (a layout whose pair is formed) lists exactly the parts that form none, in
    their order among all parts, whatever the memo already holds (rows of either kind,
    another budget, another numbered suit) and with the table cut or without it."""
    size = 7 if base == 27 else 9
    counts = counts[:size]
    if sum(counts) > 14:
        counts = [min(k, 1) for k in counts]
    n = sum(counts)
    code = sum(k * 5 ** r for r, k in enumerate(counts))
    want = [p for p in arrange._search(base, list(counts), -1, n, min(max_hun, 2 * n))
            if p[2] == 0]
    arrange._MEMO.clear()
    for no_pairs, hun, other in before:               # what an earlier hand left
        where = base if base == 27 else other
        arrange._parts_of(tuple(counts), 0, where, size, code if n else 0, n, hun, no_pairs)
    got = arrange._parts_of(tuple(counts), 0, base, size, code, n, max_hun, True)
    assert list(got) == want
    uncut = arrange._search(base, list(counts), -1, n, min(max_hun, 2 * n), True)
    assert list(uncut) == want


def test_a_layout_whose_pair_is_formed_combines_the_same_arrangements() -> None:
    """`anchored` on a rest (need_pairs 0) yields what it yielded when it listed every part
    and dropped those with a pair as it combined them: the same sequence."""
    rng = random.Random(5)
    for _ in range(150):
        counts = [0] * 34
        for k in rng.sample(range(34), rng.randint(1, 6)):
            counts[k] = rng.randint(1, 3)
        real = sum(counts)
        hun = rng.randint(0, 7)
        if (real + hun) % 3:
            continue
        layout = arrange.Layout(tuple(counts), hun, (real + hun) // 3, 0)
        arrange._MEMO.clear()
        got = list(arrange.anchored(layout))
        # the plain combination: every part listed, those with a pair dropped
        parts = [[p for p in arrange.suit_parts(b, tuple(counts[b:b + s]), hun) if p[2] == 0]
                 for b, s in ((0, 9), (9, 9), (18, 9), (27, 7))]
        want = []
        for combo in product(*parts):
            h = sum(p[0] for p in combo)
            m = sum(p[1] for p in combo)
            if h <= hun and m <= layout.need_melds and hun - h == 3 * (layout.need_melds - m):
                want.append((sum((p[3] for p in combo), ()), layout.need_melds - m, 0))
        assert got == want, counts


def test_parts_forming_no_pair_are_cut_from_the_full_parts_memoised() -> None:
    """`arrange._unpaired`: once a suit's full parts are memoised under a budget, its parts
    forming no pair under that budget or a smaller one are cut from them, the same parts in
    the same order as the search without pairs; under a larger budget, None (searched)."""
    rng = random.Random(13)
    for _ in range(60):
        base = rng.choice((0, 9, 18, 27))
        size = 7 if base == 27 else 9
        counts = _random_suit(rng, size, rng.randint(1, 8))
        n = sum(counts)
        code = sum(k * 5 ** r for r, k in enumerate(counts))
        wide = min(rng.randint(0, 8), 2 * n)
        arrange._MEMO.clear()
        suit_parts(base, counts, wide)
        for max_hun in range(2 * n + 1):
            got = arrange._unpaired(code, base // 9, max_hun)
            if max_hun > wide:
                assert got is None
                continue
            assert got is not None
            assert list(got) == list(arrange._search(base, list(counts), -1, n, max_hun,
                                                     True)), (counts, wide, max_hun)
