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
    if max(c) > 4:
        return
    want = sorted(greedy._keep_value(c, k) * 64 + k for k in range(34) if c[k])
    after = shape.Discards(c, 0, 4)
    assert sorted(greedy._discard_keys(after)) == want      # by suit: sorted when needed
    assert greedy._least_key(after) == min(want)
    greedy._SUIT_KEYS.clear()                               # the same, worked out afresh
    assert sorted(greedy._discard_keys(after)) == want
    greedy._SUIT_KEYS.clear()
    assert greedy._least_key(after) == min(want)
    assert greedy._least_key(shape.Discards([0] * 34, 0, 4)) == -1


def test_suit_keys_read_a_suit_code() -> None:
    """One suit's keys, relative to its first kind, least first: in 1m 2m 2m 9m, 1m has
    two neighbours within two (value 2), 2m one (its own copies do not count), 9m none."""
    code = 1 + 2 * 5 + 1 * 5 ** 8
    assert greedy._suit_keys(code, False) == (0 * 64 + 8, 1 * 64 + 1, 2 * 64 + 0)
    # honours: the copies but one, no neighbours (東 x1 is 0, 南 x3 is 2, 中 x2 is 1)
    code = 1 + 3 * 5 + 2 * 5 ** 6
    assert greedy._suit_keys(code, True) == (0 * 64 + 0, 1 * 64 + 6, 2 * 64 + 1)
    assert greedy._suit_keys(0, False) == () and greedy._suit_keys(0, True) == ()


def test_suit_keys_are_remembered_and_bounded() -> None:
    greedy._SUIT_KEYS.clear()
    greedy._suit_keys(7, False)
    greedy._suit_keys(7, True)
    assert set(greedy._SUIT_KEYS) == {7, 7 + 5 ** 9}        # the honours' apart
    for code in range(greedy.SUIT_KEYS_MEMO + 5):
        greedy._suit_keys(code, False)
    assert len(greedy._SUIT_KEYS) <= greedy.SUIT_KEYS_MEMO


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
    assert greedy._ready_others(after, greedy._discard_keys(after), chosen) == want
