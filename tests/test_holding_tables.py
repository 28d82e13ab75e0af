"""`holding.HOLDING` / `FILLING` (the groups a tile can sit in, listed at import) give, for
any hand, exactly the groups the plain definitions give, in the same order: the place
search's spots, and so the reading a tie shows, depend on that order."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rulekit.arrange import RawGroup, group_kinds
from rulekit.codes import NUM_KINDS
from rulekit.scoring.holding import FILLING, HOLDING, groups_holding, holds, real_holders
from rulekit.scoring.keys import group_code, rest_code
from conftest import examples


def plain_real(counts: list[int], hun: int, tile: int) -> list[tuple[RawGroup, int, int]]:
    """The groups a real `tile` sits in, from `groups_holding` (counts include the tile)."""
    return [(g, rest_code(g), group_code(g)) for g in groups_holding(counts, hun, tile)]


def plain_fill(counts: list[int], hun: int, k: int) -> list[tuple[RawGroup, int, int, bool]]:
    """The groups a hun standing for `k` sits in: those holding a real k when the hand has
    one more k and one hun fewer, with k counted back as a fill (what `places.win_groups`
    did before the tables)."""
    more = list(counts)
    more[k] += 1
    out = []
    for g in groups_holding(more, hun - 1, k):
        actual = RawGroup(g.shape, g.first, tuple(sorted(g.fills + (k,))))
        wild = len(actual.fills) == len(group_kinds(actual))
        out.append((actual, rest_code(actual), group_code(actual), wild))
    return out


hands = st.tuples(st.lists(st.integers(0, 4), min_size=NUM_KINDS, max_size=NUM_KINDS),
                  st.integers(0, 8), st.integers(0, NUM_KINDS - 1))


@settings(max_examples=examples(400), deadline=None)
@given(hands)
def test_holding_is_groups_holding(hand: tuple[list[int], int, int]) -> None:
    counts, hun, tile = hand
    counts[tile] = max(counts[tile], 1)           # the tile is the hand's
    got = [(h[0], h[3], h[4]) for h in HOLDING[tile] if holds(tuple(counts), hun, h)]
    assert got == plain_real(counts, hun, tile)


@settings(max_examples=examples(400), deadline=None)
@given(hands)
def test_real_holders_are_groups_holding(hand: tuple[list[int], int, int]) -> None:
    """What the scan reads a real winning tile's groups from: `groups_holding`'s groups, in
    its order, each with its `group_code`."""
    counts, hun, tile = hand
    counts[tile] = max(counts[tile], 1)           # the tile is the hand's
    got = real_holders(tuple(counts), hun, tile)
    assert [h[0] for h in got] == groups_holding(counts, hun, tile)
    assert [h[4] for h in got] == [group_code(h[0]) for h in got]


@settings(max_examples=examples(400), deadline=None)
@given(hands)
def test_filling_is_groups_holding_one_more(hand: tuple[list[int], int, int]) -> None:
    counts, hun, k = hand
    hun = max(hun, 1)                             # the winning hun is the hand's
    counts[k] = min(counts[k], 3)                 # room for one more k
    got = [(h[0], h[3], h[4], h[5]) for h in FILLING[k] if holds(tuple(counts), hun, h)]
    assert got == plain_fill(counts, hun, k)


def test_every_holder_is_a_shared_group_where_one_exists() -> None:
    """Groups `arrange` shares keep their facts by id (`facts.group_fact`)."""
    from rulekit.arrange import ALL_GROUPS
    shared = {id(g) for g in ALL_GROUPS}
    by_value = set(ALL_GROUPS)
    for table in (HOLDING, FILLING):
        for holders in table:
            for h in holders:
                assert (id(h[0]) in shared) == (h[0] in by_value)
    assert sum(len(t) for t in HOLDING) > 3 * NUM_KINDS
