"""`suit_reach`'s walk, its ways kept by hun used (`_moves`) so it stops at the first past
its budget, against the plain walk that tries every way of every rank."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rulekit.codes import KEY_STRIDE, PAIR, RUN, SET
from rulekit.scoring import suit_reach as sr
from conftest import examples


def every_key(base: int, size: int) -> dict[int, int]:
    """A bit for every group key of the suit: the walk's states tell every group apart."""
    keys = [shape * KEY_STRIDE + base + i for shape in (RUN, SET, PAIR) for i in range(size)]
    return {k: 1 << j for j, k in enumerate(keys)}


def plain_ways(c: int, allowed: int, kind: int, bit: dict[int, int]
               ) -> list[list[tuple[int, int, int, int, int]]]:
    """Per tiles met: every way of `_options`, unordered, pairs included."""
    keys = [bit.get(k, 0) for k in (PAIR * KEY_STRIDE + kind, SET * KEY_STRIDE + kind,
                                    RUN * KEY_STRIDE + kind, RUN * KEY_STRIDE + kind - 1,
                                    RUN * KEY_STRIDE + kind - 2)]
    out = []
    for met in range(c + 1):
        ways = []
        for _, gh, gm, gq, runs0, runs1, shapes in sr._options(c - met, allowed):
            b = 0
            for j in range(5):
                if shapes >> j & 1:
                    b |= keys[j]
            ways.append((gh, gq, runs0, runs1, gm | b << 4))
        out.append(ways)
    return out


def plain_walk(base: int, counts: tuple[int, ...], max_hun: int, numbered: bool,
               bit: dict[int, int]) -> set[int]:
    """The walk as it was before its ways were ordered: every met, every way, each checked."""
    size = len(counts)
    end = size
    while end and counts[end - 1] == 0:
        end -= 1
    states = {0}
    for i in range(end):
        allowed = 1 | 2
        if numbered:
            allowed |= (4 if i + 2 < size else 0) | (8 if 1 <= i <= size - 2 else 0) \
                | (16 if i >= 2 else 0)
        c = counts[i]
        ways = plain_ways(c, allowed, base + i, bit)
        nxt = set()
        for s in states:
            w1, waiting = s & 7, (s & 7) + (s >> 3 & 15)
            hun, pairs, rest = s >> 7 & 31, s >> 12 & 1, s >> 13
            for met in range(min(c, waiting) + 1):
                h = hun + waiting - met
                for gh, gq, runs0, runs1, add in ways[met]:
                    if h + gh > max_hun or pairs + gq > 1:
                        continue
                    both = rest + (add & 15) | (add >> 4) << 4
                    nxt.add(both << 13 | (pairs + gq) << 12 | (h + gh) << 7
                            | (w1 + runs1) << 3 | runs0)
        states = nxt
    if end == size:
        return {(s >> 12) << 6 | (s >> 7 & 31) for s in states if s & 127 == 0}
    out = set()
    for s in states:
        hun = (s >> 7 & 31) + 2 * (s & 7) + (s >> 3 & 15)
        if hun <= max_hun:
            out.add((s >> 12) << 6 | hun)
    return out


@settings(max_examples=examples(200), deadline=None)
@given(st.integers(0, 4), st.integers(0, 31), st.integers(0, 8), st.booleans())
def test_a_ranks_ways_by_hun_used(c: int, allowed: int, rank: int,
                                   some_keys: bool) -> None:
    sr.clear_moves()
    bit = every_key(0, 9) if some_keys else {}
    allowed |= 3                                    # pair and set always
    got = sr._moves(c, allowed, rank, bit)
    plain = plain_ways(c, allowed, rank, bit)
    assert len(got) == c + 1
    for every, ways in zip(got, plain):
        assert sorted(every) == sorted(ways)
        assert [w[0] for w in every] == sorted(w[0] for w in every)


suits = st.tuples(st.sampled_from([0, 9, 18, 27]),
                  st.lists(st.integers(0, 8), min_size=1, max_size=14),
                  st.integers(0, 9), st.booleans())


@settings(max_examples=examples(300), deadline=None)
@given(suits)
def test_the_walk_as_the_plain_walk(suit: tuple[int, list[int], int, bool]) -> None:
    base, ranks, max_hun, some_keys = suit
    size = 7 if base == 27 else 9
    counts = tuple(min(4, [r % size for r in ranks].count(i)) for i in range(size))
    bit = every_key(base, size) if some_keys else {}
    assert sr.suit_reach_packed(base, counts, max_hun, base < 27, bit) == \
        plain_walk(base, counts, max_hun, base < 27, bit)


def test_a_4_hun_heavenly_hands_rests_by_hand_picked_budgets() -> None:
    # the rests of 466677778m1444z (win 5m) its place search walks, under the budgets it
    # walks them: the same states as the plain walk, one `Walks` shared as the search does
    bit = every_key(0, 9)
    walks: sr.Walks = {}
    for counts, most in (((0, 0, 0, 1, 1, 3, 4, 1, 0), 4), ((0, 0, 0, 1, 0, 3, 4, 1, 0), 3),
                         ((0, 0, 0, 0, 1, 3, 4, 1, 0), 3), ((0, 0, 0, 1, 1, 2, 4, 1, 0), 3),
                         ((0, 0, 0, 1, 1, 3, 3, 1, 0), 3), ((0, 0, 0, 1, 1, 3, 4, 0, 0), 3),
                         ((0, 0, 0, 0, 0, 2, 4, 1, 0), 4)):
        got = sr.suit_reach_packed(0, counts, most, True, bit, walks)
        assert got == plain_walk(0, counts, most, True, bit), counts
        assert len(got) > 5
