"""Which queried groups a hand's arrangements can hold together, without listing them.

The scorer bounds a hand's fan by the skeleton-level patterns it could make true: those
depend only on which queried groups (`codes.group_key`s: `run(s, 1)`, a 5萬 set, ...) an
arrangement holds. `skeleton_reach` answers that per suit and combines the suits, each suit's
answer memoised (`_REACH`, bounded). A suit's answer is read off its listed decompositions
(`arrange.suit_parts`) or, from `route.REACH_BY_RANK_HUN` hun or for a place's rest,
worked out rank by rank
(`scoring.suit_reach`), which stays small where the lists grow into thousands.
"""
from __future__ import annotations

from typing import Final

from rulekit.arrange import KEY_OF, Layout, RawGroup, real_kinds, suit_parts, suit_shape
from rulekit.codes import (HONOR_SIZE, HONOR_START, PAIR, RUN, SET, SUIT_SIZE, TIAO_START,
                           TONG_START, WAN_START, key_shape)
from rulekit.scoring.route import REACH_BY_RANK_HUN
from rulekit.scoring.suit_reach import (Walks, clear_moves, pack, packable,
                                        suit_reach_packed)

# a suit's reach: its states (hun used, melds, pairs, bits), each `suit_reach.pack`ed, hun
# used ascending
_Reach = tuple[int, ...]
_ReachKey = tuple[int, tuple[int, ...], int, tuple[int, ...]]
# What one suit's decompositions reach (`_suit_reach`), by (suit, counts, hun budget, queried
# keys). Bounded like `arrange`'s suit memo, by entries and by an estimate of bytes (a
# many-hun suit reaches hundreds of states): emptied when either is passed.
# `REACH_ENTRY_BYTES` and `REACH_STATE_BYTES` are upper bounds of what
# tests/test_memo_bounds.py measures.
_REACH_LIMIT: Final = 1 << 14
_REACH_BYTES_LIMIT: Final = [4 << 20]      # a list: tests lower it
REACH_ENTRY_BYTES: Final = 400             # the dict slot, the key and the result tuple
REACH_STATE_BYTES: Final = 96              # each (hun, melds, pairs, bits) state (an int)
_REACH: Final[dict[_ReachKey, _Reach]] = {}
_REACH_BYTES: Final[list[int]] = [0]
# `_wild_extra`'s answers by (queried keys, all-hun melds, all-hun pairs): a few for a
# ruleset's keys, asked by every reach of a hand's rests (`places.refine`); emptied with
# the suits' reach (`clear_reach`), and past `_WILD_LIMIT` entries
_WILD_LIMIT: Final = 256
_WILD: Final[dict[tuple[tuple[int, ...], int, int], frozenset[int]]] = {}
_SUITS: Final = ((WAN_START, SUIT_SIZE), (TONG_START, SUIT_SIZE), (TIAO_START, SUIT_SIZE),
                 (HONOR_START, HONOR_SIZE))


def _suit_reach(base: int, counts: tuple[int, ...], max_hun: int, keys: tuple[int, ...],
                walks: Walks | None = None) -> _Reach:
    """(hun used, melds, pairs, bits of `keys` held) over one suit's decompositions, each
    `pack`ed, hun used ascending, through the bounded memo `_REACH` (and `walks`,
    `suit_reach`'s, on a miss)."""
    key = (base, counts, max_hun, keys)
    hit = _REACH.get(key)
    if hit is not None:
        return hit
    got = _narrowed(base, counts, max_hun, keys)
    if got is None:
        got = _suit_reach_of(base, counts, max_hun, keys, walks)
    if len(_REACH) >= _REACH_LIMIT or _REACH_BYTES[0] >= _REACH_BYTES_LIMIT[0]:
        _REACH.clear()
        _REACH_BYTES[0] = 0
    _REACH[key] = got
    _REACH_BYTES[0] += REACH_ENTRY_BYTES + REACH_STATE_BYTES * len(got)
    return got


def _narrowed(base: int, counts: tuple[int, ...], max_hun: int, keys: tuple[int, ...]
              ) -> _Reach | None:
    """The same suit's reach under a larger budget, if memoised, less its states using more
    than `max_hun` hun (its first ones: they come hun used ascending); else None. Exact: a
    state's hun only grows along a walk (and a part's hun is its groups'), so the states of
    a smaller budget are those of a larger one within it."""
    for wider in range(max_hun + 1, 2 * sum(counts) + 1):     # (`skeleton_reach`'s cap)
        got = _REACH.get((base, counts, wider, keys))
        if got is not None:
            end = 0
            while end < len(got) and got[end] & 63 <= max_hun:
                end += 1
            return got[:end]
    return None


def reach_size() -> tuple[int, int]:
    """Entries of the suit-reach memo and the estimate of its bytes."""
    return len(_REACH), _REACH_BYTES[0]


def clear_reach() -> None:
    """Forget every suit reach this process has memoised (`scoring.score.forget`)."""
    _REACH.clear()
    _REACH_BYTES[0] = 0
    _WILD.clear()
    clear_moves()


def _suit_reach_of(base: int, counts: tuple[int, ...], max_hun: int, keys: tuple[int, ...],
                   walks: Walks | None = None) -> _Reach:
    bit = {k: 1 << i for i, k in enumerate(keys)}
    # by rank from `REACH_BY_RANK_HUN` hun, and for the rests of a hand searched by place
    # or bounded by place in the scan (`walks` given: 4 hun or more), whose budgets fall
    # under it once walked under `rest_most`: listing a rest's suit cost as much as
    # walking it under one hun more
    if (max_hun >= REACH_BY_RANK_HUN or walks is not None) and packable(counts, max_hun):
        return by_hun_used(suit_reach_packed(base, counts, max_hun, base < HONOR_START, bit,
                                             walks), max_hun)
    out = set()
    for h, m, q, codes in suit_parts(base, counts, max_hun):
        bits = 0
        for c in codes:
            bits |= bit.get(KEY_OF[c], 0)
        out.add(pack(h, m, q, bits))
    return by_hun_used(out, max_hun)


def by_hun_used(states: set[int], max_hun: int) -> _Reach:
    """Packed states (`suit_reach.pack`, at most `max_hun` hun used each) by hun used
    ascending, in buckets (a sort's key calls cost ~10% of a cold suit's reach): the
    tuple a stable sort on hun used gives."""
    buckets: list[list[int]] = [[] for _ in range(max_hun + 1)]
    for st in states:
        h = st & 63
        while h >= len(buckets):      # (never, if the caller's `max_hun` holds)
            buckets.append([])
        buckets[h].append(st)
    out: list[int] = []
    for b in buckets:
        out.extend(b)
    return tuple(out)


class Combined:
    """One hand's suits as `skeleton_reach` combines them, kept by the layout's real counts
    for the rests of that hand: a place search's rests that differ only in hun, melds and
    pair (a hun winning tile in an all-hun group; a pair spot and a meld spot leaving the
    same tiles) combine their suits once. Each combination is made under the loosest limits
    (its caller's `most` hun, the hand's `melds`, a pair) and serves any layout of the same
    tiles holding no more hun; the all-hun groups' keys are kept by how many of them."""

    __slots__ = ("melds", "by_counts", "extra")

    def __init__(self, melds: int) -> None:
        self.melds = melds
        # by real counts: (the hun it was made under, the combination, the fewest hun the
        # suits need: `suit_shape`'s, kept so a layout sharing it reads no suit again)
        self.by_counts: dict[tuple[int, ...], tuple[int, dict[int, set[int]], int]] = {}
        self.extra: dict[int, frozenset[int]] = {}


def skeleton_reach(layout: Layout, keys: tuple[int, ...], most: int = -1,
                   walks: Walks | None = None, combined: Combined | None = None
                   ) -> frozenset[int]:
    """Which of `keys` (`codes.group_key`) the arrangements hold together, as bit masks.

    Bit i stands for keys[i]. All-hun groups may add any meld or pair key, so this can
    over-report (never under-report): the scorer uses it for an upper bound only. Each suit
    is read under the hun the others leave it, as in `arrange.anchored`. With `most` (at
    least `layout.hun`) each suit is read under that many hun, or what its tiles can use:
    its states past the hun this layout leaves it are dropped as the suits combine, so the
    answer is the same, and the rests of one hand (`places.refine`, hun fewer by their
    place's) share each suit's memo entry. `walks` (with the same `keys` every call)
    lets suits whose first ranks agree share that part of their walk (`suit_reach`), and
    `combined` (with the same `keys` every call, `most` given) layouts of the same real
    tiles share the suits' combination (`Combined`): it is made under the loosest limits
    (`most` hun, the hand's melds, a pair) and each layout keeps the states within its
    own. (Exact: a state within a layout's limits combines suit states within them.)
    """
    c = layout.counts
    h = layout.hun
    need = layout.need_melds
    pairs = layout.need_pairs
    extra: dict[int, frozenset[int]]
    if combined is not None and most >= h and need <= combined.melds:
        made = combined.by_counts.get(c)
        if made is not None and made[0] >= h:
            if h < made[2]:
                return frozenset()    # the suits need more hun than there are
            reach = made[1]
        else:
            suits = [(base, size) + suit_shape(c, base, size) for base, size in _SUITS]
            fewest = sum([f for _, _, _, _, f in suits])
            if h < fewest:
                return frozenset()
            reach = _combine(suits, c, keys, most, most, combined.melds, 1, h - fewest, walks)
            combined.by_counts[c] = (most, reach, fewest)
        extra = combined.extra
    else:
        suits = [(base, size) + suit_shape(c, base, size) for base, size in _SUITS]
        spare = h - sum([fewest for _, _, _, _, fewest in suits])
        if spare < 0:
            return frozenset()
        reach = _combine(suits, c, keys, most, h, need, pairs, spare, walks)
        extra = {}
    # the queried keys all-hun groups may add, by how many melds and pairs they form
    by_wild: dict[int, set[int]] = {}
    for packed, bits_set in reach.items():
        used, melds, got_pairs = packed >> 4, packed >> 1 & 7, packed & 1
        wild_melds, wild_pairs = need - melds, pairs - got_pairs
        if wild_melds < 0 or wild_pairs < 0 or h - used != 3 * wild_melds + 2 * wild_pairs:
            continue
        wild = wild_melds * 2 + wild_pairs
        hit = by_wild.get(wild)
        if hit is None:
            by_wild[wild] = set(bits_set)
        else:
            hit |= bits_set
    out: set[int] = set()
    for wild, bits_set in by_wild.items():
        more = extra.get(wild)
        if more is None:
            more = extra[wild] = _wild_extra(keys, wild >> 1, wild & 1)
        if len(more) == 1:
            out |= bits_set
        else:
            out.update([bits | e for bits in bits_set for e in more])
    return frozenset(out)


def _combine(suits: list[tuple[int, int, int, int, int]], c: tuple[int, ...],
             keys: tuple[int, ...], most: int, h: int, need: int, pairs: int, spare: int,
             walks: Walks | None) -> dict[int, set[int]]:
    """The suits' reaches combined (`skeleton_reach`): by (hun used, melds, pairs) as
    `_packed`, the bits held together, within `h` hun, `need` melds and `pairs` pairs;
    empty when no combination fits."""
    # the states so far by hun used, melds and pairs (`_packed`): the bits they hold
    reach: dict[int, set[int]] = {0: {0}}
    for base, size, code, n, fewest in suits:
        if n == 0 and code == 0:
            continue
        budget = min(fewest + spare if most < 0 else most, 2 * n)
        opts = _suit_reach(base, tuple(c[base:base + size]), budget, keys, walks)
        nxt: dict[int, set[int]] = {}
        for packed, bits_a in reach.items():
            ha, ma, qa = packed >> 4, packed >> 1 & 7, packed & 1
            for o in opts:
                hb = o & 63
                if ha + hb > h:
                    break             # sorted by hun used: the rest use more
                mb, qb, bb = o >> 7 & 15, o >> 6 & 1, o >> 11
                if ma + mb > need or qa + qb > pairs:
                    continue
                key = _packed(ha + hb, ma + mb, qa + qb)
                hit = nxt.get(key)
                if hit is None:
                    hit = nxt[key] = set()
                for ba in bits_a:
                    hit.add(ba | bb)
        reach = nxt
        if not reach:
            return reach
    return reach


def rest_most(hun: int, g: RawGroup) -> int:
    """The hun a rest's suits are walked under (`skeleton_reach`'s `most`) when `g` is
    taken out of a hand of `hun` hun: the most any rest leaving the same real tiles holds,
    the hand's less the fewest fills a group of those tiles takes (a pair for one or two
    of one kind, a meld otherwise). Rests of the same tiles then share their suits' walks
    and combination, and none is walked under more hun than such a rest can hold (a walk
    costs about twice as much per hun more)."""
    real = real_kinds(g)
    if len(real) <= 2 and len(set(real)) <= 1:
        return hun - (2 - len(real))
    return hun - (3 - len(real))


def _packed(hun: int, melds: int, pairs: int) -> int:
    """A state's hun used, melds (at most 4) and pairs (at most 1) as one int."""
    return (hun << 3 | melds) << 1 | pairs


def _wild_extra(keys: tuple[int, ...], wild_melds: int, wild_pairs: int) -> frozenset[int]:
    """The queried keys (as bits) `wild_melds` all-hun melds and `wild_pairs` all-hun
    pairs may hold together (memoised: `_WILD`)."""
    key = (keys, wild_melds, wild_pairs)
    hit = _WILD.get(key)
    if hit is not None:
        return hit
    if len(_WILD) >= _WILD_LIMIT:
        _WILD.clear()
    got = _WILD[key] = frozenset(wild_extra(keys, wild_melds, wild_pairs))
    return got


def wild_extra(keys: tuple[int, ...], wild_melds: int, wild_pairs: int) -> set[int]:
    """`_wild_extra` worked out."""
    meld_bits = [1 << i for i, k in enumerate(keys) if key_shape(k) in (RUN, SET)]
    pair_bits = [0] + [1 << i for i, k in enumerate(keys) if key_shape(k) == PAIR]
    extra = {0}
    for _ in range(wild_melds):
        extra |= {e | b for e in extra for b in meld_bits}
    if wild_pairs:
        extra = {e | b for e in extra for b in pair_bits}
    return extra
