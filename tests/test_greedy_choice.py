"""Greedy's discard choice (`rulekit.game.greedy`): the keys it orders its discards
by, and its first discard, equal the plain definitions (`_keep_value`, `ranked_discards`)."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rulekit import shape
from rulekit.game import greedy
from conftest import examples

HANDS = st.lists(st.integers(0, 33), min_size=1, max_size=14)


def counts_of(tiles: list[int]) -> list[int]:
    c = [0] * 34
    for t in tiles:
        c[t] += 1
    return c


def table_hand(tiles: list[int], hun: int) -> tuple[list[int], int, int] | None:
    """A seat's counts, hun and melds made of drawn tiles: the melds fill what the tiles
    leave of 14, the hun at most what is left (None when a kind is held five times)."""
    c = counts_of(tiles)
    if max(c) > 4:
        return None
    melds = (14 - len(tiles)) // 3
    return c, min(hun, 14 - 3 * melds - len(tiles)), melds


@settings(max_examples=examples(300), deadline=None)
@given(HANDS)
def test_discard_keys_are_the_connectedness_of_each_kind(tiles: list[int]) -> None:
    c = counts_of(tiles)
    want = [greedy._keep_value(c, k) * 64 + k for k in range(34) if c[k]]
    assert greedy._discard_keys(c) == want          # in kind order: sorted when needed
    assert greedy._least_key(c) == min(want)
    assert greedy._least_key([0] * 34) == -1
    keys: list[int] = [-5]                          # one window: the least, and each key
    assert greedy._window(c, keys) == min(want) and keys == [-5] + want


@settings(max_examples=examples(300), deadline=None)
@given(HANDS, st.integers(0, 4))
def test_the_first_discard_is_the_best_ranked(tiles: list[int], hun: int) -> None:
    """`greedy_discard` is `ranked_discards(...)[0]` (kind, deficiency after) on every hand,
    winning or not, hun or not."""
    table = table_hand(tiles, hun)
    if table is None:
        return
    c, hun, melds = table
    ranked = greedy.ranked_discards(c, hun, melds)
    d, _, k = ranked[0]
    assert greedy.greedy_discard(c, hun, melds) == (k, d)
    assert [r[0] for r in ranked] == [
        shape.deficiency(c[:j] + [c[j] - 1] + c[j + 1:], hun, melds) for _, _, j in ranked]


@settings(max_examples=examples(300), deadline=None)
@given(HANDS, st.integers(0, 4))
def test_the_ready_others_are_the_ranked_ones(tiles: list[int], hun: int) -> None:
    """`_ready_others` lists the discards that leave the hand ready, but the chosen one,
    in `ranked_discards`' order."""
    table = table_hand(tiles, hun)
    if table is None:
        return
    c, hun, melds = table
    ranked = greedy.ranked_discards(c, hun, melds)
    chosen = ranked[0][2]
    after = shape.Discards(c, hun, 4 - melds)
    want = [k for d, _, k in ranked if d == 1 and k != chosen]
    assert greedy._ready_others(after, greedy._discard_keys(c), chosen) == want
