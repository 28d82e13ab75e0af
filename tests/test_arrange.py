"""Arrangements with wildcard hun: exact against an independent brute force."""
from __future__ import annotations

from collections import Counter
from functools import lru_cache
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulekit.arrange import (PAIR, RUN, Layout, _reaches, anchored, arrangements,
                             is_winning_shape, real_kinds, suit_parts)
from rulekit.scoring.holding import FILLING, HOLDING, groups_holding, rest_layout, rest_wins
from rulekit.scoring.reach import Combined, rest_most, skeleton_reach
from conftest import examples

ALL_KINDS = lambda: tuple(range(34))  # noqa: E731 - the full wild domain


def counts_of(tiles: list[int]) -> tuple[int, ...]:
    c = [0] * 34
    for t in tiles:
        c[t] += 1
    return tuple(c)


@lru_cache(maxsize=None)
def _brute_win(counts: tuple[int, ...], melds: int, pair: bool) -> bool:
    """Plain decomposition without wildcards (the textbook recursion)."""
    i = next((k for k, n in enumerate(counts) if n), None)
    if i is None:
        return melds == 0 and not pair
    c = list(counts)
    if pair and c[i] >= 2:
        c[i] -= 2
        if _brute_win(tuple(c), melds, False):
            return True
        c[i] += 2
    if melds and c[i] >= 3:
        c[i] -= 3
        if _brute_win(tuple(c), melds - 1, pair):
            return True
        c[i] += 3
    if melds and i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
        for k in (i, i + 1, i + 2):
            c[k] -= 1
        if _brute_win(tuple(c), melds - 1, pair):
            return True
    return False


def brute_is_winning(real: list[int], hun: int, melds: int) -> bool:
    """Try every kind for every hun (fine for up to 2 hun)."""
    for subst in product(range(34), repeat=hun):
        if _brute_win(counts_of(real + list(subst)), melds, True):
            return True
    return False


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.integers(0, 33), min_size=12, max_size=14), st.integers(0, 2))
def test_winning_shape_matches_brute_force(tiles: list[int], hun: int) -> None:
    real = tiles[: 14 - hun]
    if max(Counter(real).values()) > 4:
        return
    assert is_winning_shape(counts_of(real), hun, 4) == brute_is_winning(real, hun, 4)


@settings(max_examples=examples(400), deadline=None)
@given(st.lists(st.integers(0, 33), min_size=0, max_size=14), st.integers(0, 4),
       st.integers(0, 1), st.integers(0, 9))
def test_winning_shape_by_the_tables_is_the_suit_search(tiles: list[int], need_melds: int,
                                                        need_pairs: int, hun: int) -> None:
    """The shape tables' answer (counts 0-4) is the suit-by-suit search's, with the pair
    still to form or already formed (what `rest_wins` asks), whatever the tile count."""
    counts = counts_of(tiles)
    if max(counts) > 4:
        return
    real = 3 * need_melds + 2 * need_pairs - hun   # the tile count that can win
    if 0 <= real <= len(tiles) and tiles:          # often trim to it: cases that can win
        counts = counts_of(tiles[:real])
    assert is_winning_shape(counts, hun, need_melds, need_pairs) == \
        _reaches(counts, hun, need_melds, need_pairs)


def test_winning_shape_by_the_tables_by_hand() -> None:
    # 1m2m3m 5p5p: one meld and the pair; with the pair formed, 1m2m3m + two hun is no meld
    # count (5 tiles) but 1m2m3m alone is one meld
    one_meld = counts_of([0, 1, 2, 13, 13])
    assert is_winning_shape(one_meld, 0, 1, 1)
    assert not is_winning_shape(one_meld, 0, 1, 0)
    assert is_winning_shape(counts_of([0, 1, 2]), 0, 1, 0)
    # 1m 9m with one hun: no pair and one meld from three tiles
    assert not is_winning_shape(counts_of([0, 8]), 1, 1, 0)
    # 1m1m + one hun: a set; or the pair (1m1m) with the hun... a lone hun is no group
    assert is_winning_shape(counts_of([0, 0]), 1, 1, 0)
    assert not is_winning_shape(counts_of([0, 0]), 1, 0, 1)
    # a fifth copy is outside the tables: the search answers (1m x5 + hun = set + set)
    assert is_winning_shape(counts_of([0] * 5), 1, 2, 0)
    assert not is_winning_shape(counts_of([0] * 5), 0, 2, 0)


def test_winning_shape_outside_the_tables() -> None:
    # a rest with too much taken out (a meld from a hand whose melds are all declared, a
    # second pair, a hun it has not) completes nothing; counts of another length are refused
    assert not is_winning_shape(counts_of([0, 0]), 0, -1, 1)
    assert not is_winning_shape(counts_of([]), 0, 0, -1)
    assert not is_winning_shape(counts_of([0, 1, 2]), -1, 1, 0)
    assert is_winning_shape(counts_of([0, 0, 0, 1, 2, 3, 4, 5, 6, 6, 7, 8, 9, 9, 9, 13, 13]),
                            0, 5, 1)                   # five melds: more than the tables ask
    with pytest.raises(ValueError, match="34 kinds"):
        is_winning_shape((0,) * 27, 0, 0, 1)


def _check_uses_exactly(raw: tuple, real: list[int], hun: int) -> None:
    tiles: Counter[int] = Counter()
    fills: Counter[int] = Counter()
    for g in raw:
        tiles.update(g.kinds())
        fills.update(g.fills)
    assert sum(fills.values()) == hun
    assert tiles - fills == Counter(real)
    assert sum(1 for g in raw if g.shape == PAIR) == 1
    for g in raw:
        if g.shape == RUN:
            assert g.first < 27 and g.first % 9 <= 6


@settings(max_examples=examples(150), deadline=None)
@given(st.lists(st.integers(0, 33), min_size=14, max_size=14), st.integers(0, 4))
def test_every_arrangement_uses_exactly_the_tiles(tiles: list[int], hun: int) -> None:
    real = tiles[: 14 - hun]
    if max(Counter(real).values()) > 4:
        return
    for raw in arrangements(Layout(counts_of(real), hun, 4), ALL_KINDS):
        _check_uses_exactly(raw, real, hun)


def skeletons_brute(real: list[int], hun: int) -> set[tuple]:
    """Every group multiset, by substituting each hun and decomposing plainly."""
    out = set()

    def rec(c: list[int], melds: int, pair: bool, acc: list) -> None:
        i = next((k for k, n in enumerate(c) if n), None)
        if i is None:
            if melds == 0 and not pair:
                out.add(tuple(sorted(acc)))
            return
        if pair and c[i] >= 2:
            c[i] -= 2
            rec(c, melds, False, acc + [(PAIR, i)])
            c[i] += 2
        if melds and c[i] >= 3:
            c[i] -= 3
            rec(c, melds - 1, pair, acc + [(1, i)])
            c[i] += 3
        if melds and i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
            for k in (i, i + 1, i + 2):
                c[k] -= 1
            rec(c, melds - 1, pair, acc + [(RUN, i)])
            for k in (i, i + 1, i + 2):
                c[k] += 1

    for subst in product(range(34), repeat=hun):
        c = list(counts_of(real + list(subst)))
        if max(c) <= 8:
            rec(c, 4, True, [])
    return out


@settings(max_examples=examples(80), deadline=None)
@given(st.lists(st.integers(0, 26), min_size=14, max_size=14), st.integers(0, 2))
def test_arrangements_are_complete_for_few_hun(tiles: list[int], hun: int) -> None:
    real = sorted(tiles[: 14 - hun])
    if max(Counter(real).values()) > 4:
        return
    mine = {tuple(sorted((g.shape, g.first) for g in raw))
            for raw in arrangements(Layout(counts_of(real), hun, 4), ALL_KINDS)}
    assert mine == skeletons_brute(real, hun)


def test_eight_hun_stay_exact() -> None:
    # 6 real tiles + 8 hun: every shape the brute force can see at the skeleton level,
    # checked on the one question it can answer fast: which real-tile groupings exist
    real = [0, 1, 2, 12, 13, 27]
    got = list(arrangements(Layout(counts_of(real), 8, 4), ALL_KINDS))
    assert got, "8 hun with six tiles that fit in five groups win"
    for raw in got:
        _check_uses_exactly(raw, real, 8)
    # the 龍 in 萬 is reachable: 123m real, 456m and 789m all hun
    assert any({(g.shape, g.first) for g in raw} >= {(RUN, 0), (RUN, 3), (RUN, 6)}
               for raw in got)
    assert is_winning_shape(counts_of(real), 8, 4)
    assert not is_winning_shape(counts_of([0, 4, 8, 13, 20, 27]), 8, 4)  # six lone tiles



# 龍 in 萬 and 條, a 5萬 set and two pairs: the kind of keys a ruleset's patterns query
REACH_KEYS = (RUN * 64 + 0, RUN * 64 + 3, RUN * 64 + 6, RUN * 64 + 18, RUN * 64 + 24,
              1 * 64 + 4, PAIR * 64 + 4, PAIR * 64 + 27)


@settings(max_examples=examples(150), deadline=None)
@given(st.lists(st.integers(0, 33), min_size=14, max_size=14), st.integers(0, 5))
def test_skeleton_reach_never_under_reports(tiles: list[int], hun: int) -> None:
    # the scorer bounds fan with it: every arrangement's queried keys must be reported,
    # and a hand with no arrangement must report nothing
    real = tiles[: 14 - hun]
    if max(Counter(real).values()) > 4:
        return
    layout = Layout(counts_of(real), hun, 4)
    reach = skeleton_reach(layout, REACH_KEYS)
    seen = set()
    for raw in arrangements(layout, ALL_KINDS):
        keys = {g.shape * 64 + g.first for g in raw}
        seen.add(sum(1 << i for i, k in enumerate(REACH_KEYS) if k in keys))
    assert seen <= reach
    assert bool(reach) == bool(seen)


@settings(max_examples=examples(100), deadline=None)
@given(st.lists(st.integers(0, 26), min_size=14, max_size=14), st.integers(0, 7))
def test_rests_sharing_the_suits_combination_reach_what_each_reaches_alone(
        tiles: list[int], hun: int) -> None:
    # the place search's rests (every group holding a tile taken out, the pair or a meld,
    # and all-hun groups: hun fewer), each walked under `rest_most`, share one `Combined`
    # with the whole hand (under its hun): each must answer what it answers alone,
    # whichever rest of the same tiles came first
    real = tiles[: 14 - hun]
    if max(Counter(real).values()) > 4:
        return
    layout = Layout(counts_of(real), hun, 4)
    rests = [(layout, hun)]
    for tile in sorted(set(real)):
        rests += [(rest_layout(layout, g), rest_most(hun, g))
                  for g in groups_holding(layout.counts, hun, tile)]
    rests += [(Layout(layout.counts, hun - k, 4 - (k == 3), 1 - (k == 2)), hun - 2)
              for k in (2, 3) if hun >= k]
    for order in (rests, rests[::-1]):            # the whole hand first, or last
        combined = Combined(4)
        walks: dict[tuple[int, int, tuple[int, ...]], set[int]] = {}
        for rest, most in order:
            assert most >= rest.hun
            alone = skeleton_reach(rest, REACH_KEYS)
            assert skeleton_reach(rest, REACH_KEYS, most, walks, combined) == alone, rest
        assert len(combined.by_counts) < len(rests)


def test_rest_most_is_the_most_hun_a_rest_of_the_same_real_tiles_holds() -> None:
    # over every concealed group a tile can sit in: the hand's hun less the fewest fills
    # of any group with the same real tiles
    groups = {h[0] for table in (HOLDING, FILLING) for holders in table for h in holders}
    fewest: dict[tuple[int, ...], int] = {}
    for g in groups:
        real = tuple(sorted(real_kinds(g)))
        fewest[real] = min(fewest.get(real, 9), len(g.fills))
    assert len(groups) > 300
    for g in groups:
        assert rest_most(8, g) == 8 - fewest[tuple(sorted(real_kinds(g)))], g
        assert rest_most(8, g) >= 8 - len(g.fills)


@settings(max_examples=examples(150), deadline=None)
@given(st.lists(st.integers(0, 33), min_size=14, max_size=14), st.integers(0, 4))
def test_groups_holding_a_tile_are_exactly_its_groups_in_arrangements(tiles: list[int],
                                                                      hun: int) -> None:
    # the scorer proves a reading-level pattern impossible with these two functions
    real = tiles[: 14 - hun]
    if max(Counter(real).values()) > 4:
        return
    win = real[-1]
    layout = Layout(counts_of(real), hun, 4)
    in_arrangements = {g for raw in arrangements(layout, ALL_KINDS) for g in raw
                       if g.kinds().count(win) > g.fills.count(win)}
    completable = {g for g in groups_holding(layout.counts, hun, win) if rest_wins(layout, g)}
    assert in_arrangements == completable


def _uncut_anchored(layout: Layout) -> list[tuple[tuple[int, ...], int, int]]:
    """`anchored` as it was before each suit's budget was cut to what the others leave:
    every suit under the hand's whole hun, the same loops."""
    c, h, need, pairs = layout.counts, layout.hun, layout.need_melds, layout.need_pairs
    suits = [suit_parts(base, c[base:base + size], h)
             for base, size in ((0, 9), (9, 9), (18, 9), (27, 7))]
    out = []
    for combo in product(*suits):
        used = sum(p[0] for p in combo)
        melds = sum(p[1] for p in combo)
        got_pairs = sum(p[2] for p in combo)
        if used > h or melds > need or got_pairs > pairs:
            continue
        if h - used == 3 * (need - melds) + 2 * (pairs - got_pairs):
            codes = tuple(code for p in combo for code in p[3])
            out.append((codes, need - melds, pairs - got_pairs))
    return out


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.integers(0, 33), min_size=1, max_size=14), st.integers(0, 8),
       st.integers(1, 4), st.integers(0, 1))
def test_anchored_cut_by_the_other_suits_least_hun_is_the_uncut_loops(
        tiles: list[int], hun: int, need_melds: int, need_pairs: int) -> None:
    """Cutting each suit's budget to the hun the other suits leave drops only parts no
    combination uses: the same (codes, wild melds, wild pairs), in the same order."""
    real = tiles[:max(0, 3 * need_melds + 2 * need_pairs - hun)]
    counts = counts_of(real)
    if max(counts) > 4:
        return
    layout = Layout(counts, hun, need_melds, need_pairs)
    assert list(anchored(layout)) == _uncut_anchored(layout)


def test_a_combination_made_under_fewer_hun_does_not_serve_a_layout_holding_more() -> None:
    # an all-hun group's rest (two hun fewer) combined first: the whole hand, holding more
    # hun than that combination allowed, combines again (its states using every hun)
    real = [13, 21, 5, 11, 17, 22, 24, 21, 23]
    whole = Layout(counts_of(real), 5, 4)
    combined = Combined(4)
    rest = Layout(whole.counts, 3, 4, 0)
    assert skeleton_reach(rest, REACH_KEYS, 3, {}, combined) == skeleton_reach(rest, REACH_KEYS)
    assert skeleton_reach(whole, REACH_KEYS, 5, {}, combined) == \
        skeleton_reach(whole, REACH_KEYS)
    assert combined.by_counts[whole.counts][0] == 5
