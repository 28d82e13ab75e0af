"""`shape.wins_holding`: `is_win` asked of a table's own counts, hun still in them (the game's
self-draw and discard checks), must answer as `is_win` does once the hun are taken out."""
from __future__ import annotations

from hypothesis import given, strategies as st

from rulekit import shape
from rulekit.tiles import NUM_KINDS, hun_kinds


@st.composite
def held(draw: st.DrawFn) -> tuple[list[int], tuple[int, ...], int]:
    """Counts of up to 14 tiles (3 * (4 - melds) + 2 most often) drawn from a few kinds,
    so that winning shapes are common, and the hun of an indicator."""
    melds = draw(st.integers(0, 4))
    size = min(14, 3 * (4 - melds) + 2 + draw(st.sampled_from([0, 0, 0, -1, 1, -2])))
    kinds = draw(st.lists(st.integers(0, NUM_KINDS - 1), min_size=1, max_size=10,
                          unique=True))
    counts = [0] * NUM_KINDS
    for k in draw(st.lists(st.sampled_from(kinds), min_size=size, max_size=size)):
        if counts[k] < 4:
            counts[k] += 1
    hun = hun_kinds(draw(st.integers(0, NUM_KINDS - 1)), draw(st.sampled_from([1, 2])))
    return counts, hun, melds


@given(held())
def test_wins_holding_is_is_win_without_the_hun(case: tuple[list[int], tuple[int, ...], int]
                                                 ) -> None:
    counts, hun, melds = case
    c, h = list(counts), 0
    for k in hun:
        h += c[k]
        c[k] = 0
    before = list(counts)
    assert shape.wins_holding(counts, hun, melds) == shape.is_win(c, h, melds)
    assert counts == before                                    # the table's counts untouched


def test_wins_holding_reads_hun_as_wildcards() -> None:
    counts = [0] * NUM_KINDS
    for k in (0, 1, 2, 9, 10, 11, 18, 19, 20, 27, 27, 27):    # 123m 123p 123s 111z
        counts[k] += 1
    counts[33] = 2                                           # 77z: the pair
    assert shape.wins_holding(counts, (), 0)
    counts[33] = 1
    counts[30] = 1                                           # 7z 4z: no pair
    assert not shape.wins_holding(counts, (), 0)
    assert shape.wins_holding(counts, (30,), 0)              # 4z is hun: it pairs the 7z
    assert not shape.wins_holding(counts, (30,), 1)          # one meld declared: 3 too many
