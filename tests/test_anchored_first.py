"""`arrange.anchored_first` (the place read's rest searched for its first parts only, then
more as rows are read) gives `arrange.anchored`'s rows, the same in the same order, whatever
the memo holds and however far it is read; `first_parts` cuts a suit's search to its first
parts exactly."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rulekit import arrange
from rulekit.arrange import Layout, anchored, anchored_first, first_parts, suit_part_lists
from rulekit.codes import NUM_KINDS
from conftest import examples


@st.composite
def layouts(draw: st.DrawFn) -> Layout:
    """A layout of one suit of many tiles (any of the four), maybe a tile or two elsewhere,
    hun to make the count fit some melds and a pair or none (a rest's pair formed)."""
    counts = [0] * NUM_KINDS
    base = draw(st.sampled_from([0, 9, 18, 27]))
    size = 7 if base == 27 else 9
    for _ in range(draw(st.integers(1, 11))):
        k = base + draw(st.integers(0, size - 1))
        if counts[k] < 4:
            counts[k] += 1
    for _ in range(draw(st.integers(0, 2))):
        k = draw(st.integers(0, NUM_KINDS - 1))
        if counts[k] < 4:
            counts[k] += 1
    pairs = draw(st.integers(0, 1))
    real = sum(counts)
    hun = draw(st.integers(0, 7))
    while (real + hun - 2 * pairs) % 3:
        hun += 1
    melds = (real + hun - 2 * pairs) // 3
    return Layout(tuple(counts), hun, melds, pairs)


def _forget() -> None:
    arrange.clear_memos()


@settings(max_examples=examples(300), deadline=None)
@given(layouts(), st.sampled_from([1, 2, 3, 5, 32]), st.booleans(), st.integers(0, 40))
def test_anchored_first_gives_anchoreds_rows(layout: Layout, limit: int, warm: bool,
                                             read: int) -> None:
    _forget()
    want = list(anchored(layout))
    if not warm:
        _forget()
    # read in full, and read only `read` rows first (a reader that stops), then in full
    assert list(anchored_first(layout, limit)) == want
    _forget()
    rows = anchored_first(layout, limit)
    head = [row for _, row in zip(range(read), rows)]
    assert head == want[:read]
    assert list(anchored_first(layout, limit)) == want


@settings(max_examples=examples(300), deadline=None)
@given(layouts(), st.integers(1, 40))
def test_first_parts_are_the_first_of_the_suits_parts(layout: Layout, limit: int) -> None:
    _forget()
    got = first_parts(layout, limit)
    full = suit_part_lists(layout)
    if got is None:
        return
    assert full is not None
    lists, big, whole = got
    for i in range(4):
        if i == big:
            assert lists[i] == full[i][:limit]
            assert whole == (len(full[i]) < limit)
        else:
            assert lists[i] == full[i]
            assert len(lists[i]) <= 1


def test_first_parts_cut_a_rest_of_many_parts() -> None:
    """The rest of `555667m1111444z` (indicator 4z, win 6m, 天和) the place search reads:
    333 parts, its first live arrangement in the first two rows."""
    _forget()
    counts = [0] * NUM_KINDS
    for k, n in ((4, 3), (5, 1), (6, 1)):     # 555m 6m 7m: the rest of 5566 7m less 6m's run
        counts[k] = n
    layout = Layout(tuple(counts), 7, 3, 1)
    got = first_parts(layout, 32)
    assert got is not None
    lists, big, whole = got
    assert big == 0 and len(lists[0]) == 32 and not whole
    full = suit_part_lists(layout)
    assert full is not None and len(full[0]) > 32
