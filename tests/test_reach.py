"""`scoring.suit_reach.suit_reach` against the decompositions `arrange.suit_parts` lists."""
from __future__ import annotations

from itertools import combinations_with_replacement

from hypothesis import given, settings
from hypothesis import strategies as st

from rulekit import arrange
from rulekit.codes import KEY_STRIDE, PAIR, RUN, SET
from rulekit.scoring import reach
from rulekit.scoring.suit_reach import Walks, pack, packable, suit_reach, unpack
from conftest import examples


def every_key(base: int, size: int) -> dict[int, int]:
    """A bit for every group key of the suit: the reach then tells every group apart."""
    keys = [shape * KEY_STRIDE + base + i for shape in (RUN, SET, PAIR) for i in range(size)]
    return {k: 1 << j for j, k in enumerate(keys)}


def listed(base: int, counts: tuple[int, ...], max_hun: int,
           bit: dict[int, int]) -> set[tuple[int, int, int, int]]:
    out = set()
    for h, m, q, codes in arrange.suit_parts(base, counts, max_hun):
        bits = 0
        for c in codes:
            bits |= bit.get(arrange.KEY_OF[c], 0)
        out.add((h, m, q, bits))
    return out


def test_every_small_suit_by_every_key() -> None:
    # every numbered suit of up to 5 tiles and every honour suit of up to 6, with 0-4 hun:
    # the same (hun, melds, pairs, keys held) as the listed decompositions
    for base, size, most in ((9, 9, 5), (27, 7, 6)):
        bit = every_key(base, size)
        checked = 0
        for n in range(1, most + 1):
            for tiles in combinations_with_replacement(range(size), n):
                counts = tuple(tiles.count(r) for r in range(size))
                if max(counts) > 4:
                    continue
                for max_hun in range(5):
                    assert suit_reach(base, counts, max_hun, base < 27, bit) == \
                        listed(base, counts, max_hun, bit), (base, counts, max_hun)
                    checked += 1
        assert checked > 5000


suits = st.tuples(st.sampled_from([0, 9, 18, 27]),
                  st.lists(st.integers(0, 8), min_size=1, max_size=14),
                  st.integers(0, 8))


@settings(max_examples=examples(300), deadline=None)
@given(suits)
def test_large_suits_and_many_hun(suit: tuple[int, list[int], int]) -> None:
    base, ranks, max_hun = suit
    size = 7 if base == 27 else 9
    counts = tuple(min(4, [r % size for r in ranks].count(i)) for i in range(size))
    bit = every_key(base, size)
    assert suit_reach(base, counts, max_hun, base < 27, bit) == \
        listed(base, counts, max_hun, bit)


def test_a_suit_ending_in_empty_ranks_finishes_its_runs_with_hun() -> None:
    # 1條 alone with three hun: past it only hun, for the runs it started (1-2-3 with two)
    bit = every_key(18, 9)
    got = suit_reach(18, (1, 0, 0, 0, 0, 0, 0, 0, 0), 3, True, bit)
    assert (2, 1, 0, bit[RUN * KEY_STRIDE + 18]) in got
    assert (3, 1, 1, bit[RUN * KEY_STRIDE + 18]) not in got      # no tile left for a pair
    assert got == listed(18, (1, 0, 0, 0, 0, 0, 0, 0, 0), 3, bit)


@settings(max_examples=examples(100), deadline=None)
@given(st.lists(st.tuples(st.lists(st.integers(0, 8), min_size=1, max_size=8),
                          st.integers(0, 8)), min_size=1, max_size=6))
def test_walks_shared_by_suits_that_agree_on_first_ranks(
        suits: list[tuple[list[int], int]]) -> None:
    # one `Walks` kept across several suits, as the place search keeps it for a hand's rests
    # (the same keys every call): each answer is still its own suit's
    bit = every_key(0, 9)
    walks: Walks = {}
    for ranks, max_hun in suits:
        counts = tuple(min(4, ranks.count(i)) for i in range(9))
        assert suit_reach(0, counts, max_hun, True, bit, walks) == \
            listed(0, counts, max_hun, bit), (counts, max_hun)


def test_1112_with_two_hun_by_hand() -> None:
    # 1112條 with at most two hun: some of its ways, worked out by hand
    bit = every_key(18, 9)
    got = suit_reach(18, (3, 1, 0, 0, 0, 0, 0, 0, 0), 2, True, bit)
    run_123 = bit[RUN * KEY_STRIDE + 18]
    set_1 = bit[SET * KEY_STRIDE + 18]
    pair_1 = bit[PAIR * KEY_STRIDE + 18]
    pair_2 = bit[PAIR * KEY_STRIDE + 19]
    set_2 = bit[SET * KEY_STRIDE + 19]
    # 111 + 2 with a hun as a pair: one hun, a meld and a pair
    assert (1, 1, 1, set_1 | pair_2) in got
    # 11 + 123 (3 a hun): one hun, a meld and a pair
    assert (1, 1, 1, pair_1 | run_123) in got
    # 111 + 222 (two hun): two hun, two melds
    assert (2, 2, 0, set_1 | set_2) in got
    # no way uses no hun: 1112 cannot be melds and at most one pair on its own
    assert all(h >= 1 for h, _, _, _ in got)


def test_a_suit_too_large_for_the_fields_is_listed() -> None:
    # five copies of a kind never occur in a hand; skeleton_reach still answers, by listing
    assert not packable((5, 0, 0, 0, 0, 0, 0, 0, 0), 2)
    assert packable((4, 4, 4, 2, 0, 0, 0, 0, 0), 28)
    got = [unpack(st) for st in reach._suit_reach(0, (5, 1, 1, 0, 0, 0, 0, 0, 0), 4, ())]
    assert (1, 2, 1, 0) in got         # 111 + 123 + 1 with a hun as a pair
    assert [h for h, _, _, _ in got] == sorted(h for h, _, _, _ in got)


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.integers(0, 33), min_size=0, max_size=14), st.integers(0, 8),
       st.integers(0, 4), st.integers(0, 1), st.booleans())
def test_the_reach_of_no_keys_is_the_winning_shape(tiles: list[int], hun: int,
                                                   need_melds: int, need_pairs: int,
                                                   fifth: bool) -> None:
    """`skeleton_reach` asked about no keys says whether any arrangement exists: exactly
    `arrange.is_winning_shape` (its tables, or for a fifth copy its own suit search)."""
    counts = [0] * 34
    for t in tiles:
        counts[t] = min(4, counts[t] + 1)
    if fifth and tiles:
        counts[tiles[0]] = 5                       # outside the shape tables
    layout = arrange.Layout(tuple(counts), hun, need_melds, need_pairs)
    assert bool(reach.skeleton_reach(layout, ())) == \
        arrange.is_winning_shape(tuple(counts), hun, need_melds, need_pairs)


@settings(max_examples=examples(200), deadline=None)
@given(st.integers(0, 31), st.integers(0, 15), st.integers(0, 1), st.integers(0, 1 << 40))
def test_a_packed_state_unpacks_to_itself(hun: int, melds: int, pairs: int, bits: int) -> None:
    assert unpack(pack(hun, melds, pairs, bits)) == (hun, melds, pairs, bits)


@settings(max_examples=examples(200), deadline=None)
@given(suits)
def test_the_memo_holds_the_walk_or_the_list_packed_hun_first(
        suit: tuple[int, list[int], int]) -> None:
    base, ranks, max_hun = suit
    size = 7 if base == 27 else 9
    counts = tuple(min(4, [r % size for r in ranks].count(i)) for i in range(size))
    keys = tuple(sorted(every_key(base, size)))
    bit = {k: 1 << i for i, k in enumerate(keys)}
    reach.clear_reach()
    got = reach._suit_reach(base, counts, max_hun, keys)
    assert {unpack(st) for st in got} == listed(base, counts, max_hun, bit)
    assert len(set(got)) == len(got)
    assert [st & 63 for st in got] == sorted(st & 63 for st in got)


@settings(max_examples=examples(60), deadline=None)
@given(st.lists(st.sampled_from([shape * KEY_STRIDE + f for shape in (RUN, SET, PAIR)
                                 for f in (0, 3, 6, 9, 27, 31)]),
                max_size=8, unique=True).map(lambda ks: tuple(sorted(ks))),
       st.integers(0, 4), st.integers(0, 1))
def test_the_wild_keys_memo_answers_as_the_plain_work(keys: tuple[int, ...], melds: int,
                                                      pairs: int) -> None:
    """`_wild_extra` (memoised) is the set `wild_extra` works out, cold and warm, and
    `clear_reach` empties its memo."""
    reach.clear_reach()
    want = reach.wild_extra(keys, melds, pairs)
    assert set(reach._wild_extra(keys, melds, pairs)) == want
    assert set(reach._wild_extra(keys, melds, pairs)) == want
    assert reach._WILD
    reach.clear_reach()
    assert not reach._WILD


def test_the_wild_keys_of_two_melds_and_a_pair_by_hand() -> None:
    keys = (RUN * KEY_STRIDE, SET * KEY_STRIDE + 31, PAIR * KEY_STRIDE + 27)
    # melds hold the run (bit 0) or the set (bit 1), the pair the pair key (bit 2)
    assert reach.wild_extra(keys, 2, 1) == {0, 1, 2, 3, 4, 5, 6, 7}
    assert reach.wild_extra(keys, 1, 0) == {0, 1, 2}
    assert reach.wild_extra(keys, 0, 1) == {0, 4}
    assert reach.wild_extra(keys, 0, 0) == {0}


@settings(max_examples=examples(200), deadline=None)
@given(suits, st.integers(0, 8))
def test_a_smaller_budget_is_narrowed_from_a_wider_one_memoised(
        suit: tuple[int, list[int], int], less: int) -> None:
    """A suit asked again under fewer hun is served from the wider entry (`_narrowed`: its
    first states, hun used ascending), the same states a walk of its own finds."""
    base, ranks, wider = suit
    size = 7 if base == 27 else 9
    counts = tuple(min(4, [r % size for r in ranks].count(i)) for i in range(size))
    max_hun = min(wider, less)
    keys = tuple(sorted(every_key(base, size)))
    bit = {k: 1 << i for i, k in enumerate(keys)}
    reach.clear_reach()
    reach._suit_reach(base, counts, wider, keys)
    narrowed = reach._narrowed(base, counts, max_hun, keys)
    if max_hun == wider or wider > 2 * sum(counts):
        assert narrowed is None       # no wider entry within the cap `skeleton_reach` uses
        return
    assert narrowed is not None
    assert {unpack(st) for st in narrowed} == listed(base, counts, max_hun, bit)
    assert reach._suit_reach(base, counts, max_hun, keys) == narrowed
    assert [st & 63 for st in narrowed] == sorted(st & 63 for st in narrowed)


@settings(max_examples=examples(200), deadline=None)
@given(st.sets(st.integers(0, 1 << 20)), st.integers(0, 40))
def test_by_hun_used_is_the_stable_sort_on_hun_used(states: set[int], max_hun: int) -> None:
    from rulekit.scoring.reach import by_hun_used
    want = tuple(sorted(states, key=lambda x: x & 63))
    assert by_hun_used(states, max_hun) == want
