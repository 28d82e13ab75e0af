"""What one suit's decompositions can reach, without listing them.

`scoring.reach.skeleton_reach` asks, per suit: which (hun used, melds, pairs, queried keys held)
do the suit's decompositions give? Listing the decompositions answers it, but their number
grows fast with hun: 111222條 with seven hun has thousands, met on every cold 7-hun 天和.
This walks the suit rank by rank instead, keeping only the distinct states, which stay few.

A state after rank i is (runs started at i, runs started at i-1, hun used, melds, pairs,
bits): the runs still waiting for a tile at the next ranks, each to be met by a real tile
or a hun. At rank i its real tiles first meet some of those waiting runs, and every other
real tile of rank i lies in a group whose lowest real tile it is, exactly the groups
`arrange`'s templates anchor at i: a pair or set with hun filling up, a run from i, a run
from i-1 with a hun for i-1, a run from i-2 with hun for both. So the states reached at
the end are exactly what the decompositions give (checked in tests/test_reach.py against
`arrange.suit_parts`).
"""
from __future__ import annotations

from functools import lru_cache
from typing import Final

from rulekit.codes import PAIR, RUN, SET, group_key

# One way of forming the groups anchored at a rank: (real tiles used, hun used, melds,
# pairs, runs from this rank, runs from the rank before, which of the five anchored shapes
# occur as bits: 1 pair, 2 set, 4 run from i, 8 run from i-1, 16 run from i-2)
_Option = tuple[int, int, int, int, int, int, int]

# per group kind anchored at rank i: (real tiles, hun, is a meld, is a pair, shape bit,
# counts as a run from i, counts as a run from i-1)
_KINDS = (
    (2, 0, 0, 1, 1, 0, 0),       # pair of two real tiles
    (1, 1, 0, 1, 1, 0, 0),       # pair of a real tile and a hun
    (3, 0, 1, 0, 2, 0, 0),       # set of three
    (2, 1, 1, 0, 2, 0, 0),       # set of two and a hun
    (1, 2, 1, 0, 2, 0, 0),       # set of one and two hun
    (1, 0, 1, 0, 4, 1, 0),       # run from i: its next two tiles come later
    (1, 1, 1, 0, 8, 0, 1),       # run from i-1, a hun for i-1: its last tile comes later
    (1, 2, 1, 0, 16, 0, 0),      # run from i-2, hun for i-2 and i-1
)
_RUN_FROM_I, _RUN_FROM_BEFORE, _RUN_FROM_TWO_BEFORE = 4, 8, 16


# keyed by (real tiles of a rank: 0-4, allowed shapes: pair and set always, any of the three
# runs): 5 * 8 = 40 keys at most (a suit with more copies is listed, not walked: `packable`)
@lru_cache(maxsize=64)
def _options(real: int, allowed: int) -> tuple[_Option, ...]:
    """Every multiset of anchored groups using exactly `real` tiles, at most one pair, of
    the kinds whose shape bit is in `allowed`, by what it adds to a state (distinct), in
    order: so by hun used, as `_moves` needs."""
    out: set[_Option] = set()

    def rec(k: int, left: int, hun: int, melds: int, pairs: int, runs0: int, runs1: int,
            shapes: int) -> None:
        if left == 0:
            out.add((real, hun, melds, pairs, runs0, runs1, shapes))
            return
        if k == len(_KINDS):
            return
        rec(k + 1, left, hun, melds, pairs, runs0, runs1, shapes)
        r, h, m, q, bit, r0, r1 = _KINDS[k]
        if not allowed & bit:
            return
        n = 1
        while n * r <= left and pairs + n * q <= 1:
            rec(k + 1, left - n * r, hun + n * h, melds + n * m, pairs + n * q,
                runs0 + n * r0, runs1 + n * r1, shapes | bit)
            n += 1

    rec(0, real, 0, 0, 0, 0, 0, 0)
    return tuple(sorted(out))


_HUN_FIELD: Final = 31        # the most a state's five bits of hun hold


def packable(counts: tuple[int, ...], max_hun: int) -> bool:
    """Do a suit's states fit `suit_reach`'s fields? Always, for a legal hand's suit (at
    most four copies of a kind); the caller lists the decompositions otherwise."""
    return max(counts) <= 4 and max_hun <= _HUN_FIELD and sum(counts) + max_hun <= 45


# the states after each rank of the suits walked so far, by (suit base, hun budget, the
# counts up to that rank): suits that agree on their first ranks share that much of the
# walk (`Walks`, kept for one hand's rests by the place search, with one set of keys)
Walks = dict[tuple[int, int, tuple[int, ...]], set[int]]


def pack(hun: int, melds: int, pairs: int, bits: int) -> int:
    """One reach state as one int (a suit's reach is kept as a tuple of these: one object
    the garbage collector stops tracking, not one tuple per state): hun used in the low 6
    bits (at most 2 a real tile, and a suit holds at most 14), then pairs (1), melds (4),
    then the bits."""
    return ((bits << 4 | melds) << 1 | pairs) << 6 | hun


def unpack(state: int) -> tuple[int, int, int, int]:
    """`pack`'s (hun used, melds, pairs, bits)."""
    return state & 63, state >> 7 & 15, state >> 6 & 1, state >> 11


def suit_reach(base: int, counts: tuple[int, ...], max_hun: int, numbered: bool,
               bit: dict[int, int], walks: Walks | None = None
               ) -> set[tuple[int, int, int, int]]:
    """(hun used, melds, pairs, bits) over the decompositions of one suit's `counts`:
    `suit_reach_packed`'s states, unpacked."""
    return {unpack(st) for st in suit_reach_packed(base, counts, max_hun, numbered, bit,
                                                    walks)}


def suit_reach_packed(base: int, counts: tuple[int, ...], max_hun: int, numbered: bool,
                      bit: dict[int, int], walks: Walks | None = None) -> set[int]:
    """(hun used, melds, pairs, bits), each `pack`ed, over the decompositions of one suit's
    `counts` (the suit starting at kind `base`) using at most `max_hun` hun; `bit` gives
    the bit of each queried group key (`codes.group_key`).

    A state is one int (it runs for every cold suit of a many-hun hand): from the low
    end, runs waiting for their second tile (3 bits), for their last (4), hun (5), pairs
    (1), melds (4), then the bits. `packable` tells when the fields are wide enough.
    The states after a rank depend only on the counts up to it: with `walks` (the same
    `bit` every call), the walk starts after the longest prefix walked before, and keeps
    what it walks."""
    size = len(counts)
    end = size
    while end and counts[end - 1] == 0:
        end -= 1                # ranks past the last real tile: see the end
    states: set[int] = {0}
    start = 0
    if walks is not None:
        for j in range(end, 0, -1):
            hit = walks.get((base, max_hun, counts[:j]))
            if hit is not None:
                states, start = hit, j
                break
    for i in range(start, end):
        allowed = 1 | 2
        if numbered:
            if i + 2 < size:
                allowed |= _RUN_FROM_I
            if 1 <= i <= size - 2:
                allowed |= _RUN_FROM_BEFORE
            if i >= 2:
                allowed |= _RUN_FROM_TWO_BEFORE
        c = counts[i]
        moves = _moves(c, allowed, base + i, bit)
        nxt: set[int] = set()
        for st in states:
            w1 = st & 7
            waiting = w1 + (st >> 3 & 15)
            hun = st >> 7 & 31
            pairs = st >> 12 & 1
            rest = st >> 13             # melds, then bits
            # the waiting runs not met take a hun each: fewer met than this passes the budget
            for met in range(max(0, hun + waiting - max_hun), min(c, waiting) + 1):
                h = hun + waiting - met
                room = max_hun - h
                for gh, gq, runs0, runs1, add in moves[met]:
                    if gh > room:
                        break           # hun used ascending: the rest use more
                    if pairs + gq > 1:
                        continue
                    # melds add, bits or: `add` holds both above bit 13
                    both = rest + (add & 15) | (add >> 4) << 4
                    nxt.add(both << 13 | (pairs + gq) << 12 | (h + gh) << 7
                            | (w1 + runs1) << 3 | runs0)
        states = nxt
        if walks is not None:
            walks[(base, max_hun, counts[:i + 1])] = nxt
        if not states:
            break
    # the walk's state less its waiting runs is (bits, melds, pairs, hun) as `pack` lays
    # them out but for hun's 5 bits: re-laid with one shift and a mask
    if end == size:
        return {(st >> 12) << 6 | (st >> 7 & 31) for st in states if st & 127 == 0}
    # ranks without real tiles form no group of their own: there hun only finish the runs
    # still waiting, two for a run waiting for its second tile, one for its last (the
    # ranks exist: a run is started only where its tiles fit in the suit)
    out = set()
    for st in states:
        hun = (st >> 7 & 31) + 2 * (st & 7) + (st >> 3 & 15)
        if hun <= max_hun:
            out.add((st >> 12) << 6 | hun)
    return out


_Move = tuple[int, int, int, int, int]
# per number of a rank's tiles met by waiting runs: the ways, by hun used ascending
_Moves = list[list[_Move]]


def _moves(c: int, allowed: int, kind: int, bit: dict[int, int]) -> _Moves:
    """Per number of rank `kind`'s c tiles given to waiting runs: the ways of forming the
    groups anchored there with the rest, as (hun, pairs, runs from here, runs from the
    rank before, melds | bits << 4), in order of hun used, so the walk stops at the first
    way past its budget (no second list of the ways forming no pair: its allocations cost
    the young collections more than it saved)."""
    k0 = bit.get(group_key(PAIR, kind), 0)
    k1 = bit.get(group_key(SET, kind), 0)
    k2 = bit.get(group_key(RUN, kind), 0)
    k3 = bit.get(group_key(RUN, kind - 1), 0)
    k4 = bit.get(group_key(RUN, kind - 2), 0)
    # what decides them: the tiles, the shapes allowed and the five keys' bits (a rank of
    # the same count meets them again in every rest of a hand, and in the next hand)
    memo_key = (c, allowed, k0, k1, k2, k3, k4)
    hit = _MOVES.get(memo_key)
    if hit is not None:
        return hit
    out: _Moves = []
    for met in range(c + 1):
        ways: list[_Move] = []
        # `_options` sorted: by real tiles (here all c - met), then hun used
        for _, gh, gm, gq, runs0, runs1, shapes in _options(c - met, allowed):
            # the keys of the shapes it forms (bit j of `shapes`: the j-th of k0-k4)
            b = ((k0 if shapes & 1 else 0) | (k1 if shapes & 2 else 0)
                 | (k2 if shapes & 4 else 0) | (k3 if shapes & 8 else 0)
                 | (k4 if shapes & 16 else 0))
            ways.append((gh, gq, runs0, runs1, gm | b << 4))
        out.append(ways)
    if len(_MOVES) >= MOVES_KEPT:
        _MOVES.clear()
    _MOVES[memo_key] = out
    return out


MOVES_KEPT: Final = 1 << 8
"""`_moves` answers kept (`_MOVES`), at most ~12 KB each (134 5-tuples of small ints at
most, ~90 bytes each with the lists): ~3 MB at most. Keys: 5 counts x 8 sets of shapes x
what the ruleset's keys give a rank (a ruleset's hands meet a few dozen); emptied when
full, and by `clear_moves` (`forget`)."""
_MOVES: Final[dict[tuple[int, ...], _Moves]] = {}


def clear_moves() -> None:
    """Forget `_moves`' answers (a cold start: `scoring.reach.clear_reach`)."""
    _MOVES.clear()
