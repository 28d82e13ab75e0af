"""Which queried groups a hand's arrangements can hold together, without listing them.

The scorer bounds a hand's fan by the skeleton-level patterns it could make true: those
depend only on which queried groups (`codes.group_key`s: `run(s, 1)`, a 5萬 set, ...) an
arrangement holds. `skeleton_reach` answers that per suit and combines the suits, each suit's
answer memoised (`_REACH`, bounded). A suit's answer is read off its listed decompositions
(`arrange.suit_parts`) or, from `route.REACH_BY_RANK_HUN` hun, worked out rank by rank
(`scoring.suit_reach`), which stays small where the lists grow into thousands.
"""
from __future__ import annotations

from typing import Final

from rulekit.arrange import KEY_OF, Layout, suit_parts, suit_shape
from rulekit.codes import (HONOR_SIZE, HONOR_START, PAIR, RUN, SET, SUIT_SIZE, TIAO_START,
                           TONG_START, WAN_START, key_shape)
from rulekit.scoring.route import REACH_BY_RANK_HUN
from rulekit.scoring.suit_reach import packable, suit_reach

_Reach = tuple[tuple[int, int, int, int], ...]
_ReachKey = tuple[int, tuple[int, ...], int, tuple[int, ...]]
# What one suit's decompositions reach (`_suit_reach`), by (suit, counts, hun budget, queried
# keys). Bounded like `arrange`'s suit memo, by entries and by an estimate of bytes (a
# many-hun suit reaches hundreds of states): emptied when either is passed.
# `REACH_ENTRY_BYTES` and `REACH_STATE_BYTES` are upper bounds of what
# tests/test_memo_bounds.py measures.
_REACH_LIMIT: Final = 1 << 14
_REACH_BYTES_LIMIT: Final = [4 << 20]      # a list: tests lower it
REACH_ENTRY_BYTES: Final = 400             # the dict slot, the key and the result tuple
REACH_STATE_BYTES: Final = 96              # each (hun, melds, pairs, bits) state
_REACH: Final[dict[_ReachKey, _Reach]] = {}
_REACH_BYTES: Final[list[int]] = [0]
_SUITS: Final = ((WAN_START, SUIT_SIZE), (TONG_START, SUIT_SIZE), (TIAO_START, SUIT_SIZE),
                 (HONOR_START, HONOR_SIZE))


def _suit_reach(base: int, counts: tuple[int, ...], max_hun: int, keys: tuple[int, ...]
                ) -> _Reach:
    """(hun used, melds, pairs, bits of `keys` held) over one suit's decompositions,
    through the bounded memo `_REACH`."""
    key = (base, counts, max_hun, keys)
    hit = _REACH.get(key)
    if hit is not None:
        return hit
    got = _suit_reach_of(base, counts, max_hun, keys)
    if len(_REACH) >= _REACH_LIMIT or _REACH_BYTES[0] >= _REACH_BYTES_LIMIT[0]:
        _REACH.clear()
        _REACH_BYTES[0] = 0
    _REACH[key] = got
    _REACH_BYTES[0] += REACH_ENTRY_BYTES + REACH_STATE_BYTES * len(got)
    return got


def reach_size() -> tuple[int, int]:
    """Entries of the suit-reach memo and the estimate of its bytes."""
    return len(_REACH), _REACH_BYTES[0]


def clear_reach() -> None:
    """Forget every suit reach this process has memoised (`scoring.score.forget`)."""
    _REACH.clear()
    _REACH_BYTES[0] = 0


def _suit_reach_of(base: int, counts: tuple[int, ...], max_hun: int, keys: tuple[int, ...]
                   ) -> _Reach:
    bit = {k: 1 << i for i, k in enumerate(keys)}
    if max_hun >= REACH_BY_RANK_HUN and packable(counts, max_hun):
        return tuple(sorted(suit_reach(base, counts, max_hun, base < HONOR_START, bit)))
    out = set()
    for h, m, q, codes in suit_parts(base, counts, max_hun):
        bits = 0
        for c in codes:
            bits |= bit.get(KEY_OF[c], 0)
        out.add((h, m, q, bits))
    return tuple(sorted(out))


def skeleton_reach(layout: Layout, keys: tuple[int, ...]) -> frozenset[int]:
    """Which of `keys` (`codes.group_key`) the arrangements hold together, as bit masks.

    Bit i stands for keys[i]. All-hun groups may add any meld or pair key, so this can
    over-report (never under-report): the scorer uses it for an upper bound only. Each suit
    is read under the hun the others leave it, as in `arrange.anchored`.
    """
    c = layout.counts
    h = layout.hun
    need = layout.need_melds
    suits = [(base, size) + suit_shape(c, base, size) for base, size in _SUITS]
    spare = h - sum([fewest for _, _, _, _, fewest in suits])
    if spare < 0:
        return frozenset()
    reach = {(0, 0, 0, 0)}
    for base, size, code, n, fewest in suits:
        if n == 0 and code == 0:
            continue
        opts = _suit_reach(base, tuple(c[base:base + size]), min(fewest + spare, 2 * n), keys)
        reach = {(a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] | b[3])
                 for a in reach for b in opts
                 if a[0] + b[0] <= h and a[1] + b[1] <= need
                 and a[2] + b[2] <= layout.need_pairs}
        if not reach:
            return frozenset()
    meld_bits = [1 << i for i, k in enumerate(keys) if key_shape(k) in (RUN, SET)]
    pair_bits = [0] + [1 << i for i, k in enumerate(keys) if key_shape(k) == PAIR]
    out: set[int] = set()
    for used, melds, got_pairs, bits in reach:
        wild_melds, wild_pairs = need - melds, layout.need_pairs - got_pairs
        if h - used != 3 * wild_melds + 2 * wild_pairs:
            continue
        extra = {0}
        for _ in range(wild_melds):
            extra |= {e | b for e in extra for b in meld_bits}
        if wild_pairs:
            extra = {e | b for e in extra for b in pair_bits}
        out.update(bits | e for e in extra)
    return frozenset(out)
