"""The arrangements of a rest whose queried keys can still beat the best reading.

When skeleton-level patterns read a skeleton only through shape queries, all that decides
their result is which queried keys the skeleton holds (its bits, `plan.projection`). A rest
with many hun has thousands of arrangements, nearly all of them the same few real groups
with every combination of all-hun melds, and most all-hun melds hold no queried key. So the
all-hun groups are taken by their bits first: a combination of bits that cannot beat the
best (the caller's `Live`) is skipped whole, without forming one arrangement of it. The
arrangements met are those `arrange.arrangements` gives, less the dead ones, in another
order.
"""
from __future__ import annotations

from itertools import combinations_with_replacement, product
from typing import Callable, Iterator, Sequence

from rulekit.arrange import (GROUP_OF, KEY_OF, Layout, RawGroup, anchored_first,
                             wild_meld_options, wild_pair_options)
from rulekit.codes import NUM_KINDS, group_key
from rulekit.scoring.route import FIRST_PARTS

# all-hun groups of one set of queried-key bits: (the bits, the groups)
BitClass = tuple[int, tuple[RawGroup, ...]]


class Live:
    """Can a skeleton of these bits still beat the best? `check` answers; a no is kept,
    since the best only grows."""

    __slots__ = ("check", "dead")

    def __init__(self, check: Callable[[int], bool]) -> None:
        self.check = check
        self.dead: set[int] = set()

    def __call__(self, bits: int) -> bool:
        if bits in self.dead:
            return False
        if self.check(bits):
            return True
        self.dead.add(bits)
        return False


def by_bits(groups: Sequence[RawGroup], key_bit: dict[int, int]) -> list[BitClass]:
    """Groups by the queried-key bit each holds (0 for none), in first-met order."""
    out: dict[int, list[RawGroup]] = {}
    for g in groups:
        b = key_bit.get(group_key(g[0], g[1]), 0)
        hit = out.get(b)
        if hit is None:
            out[b] = [g]
        else:
            hit.append(g)
    return [(b, tuple(gs)) for b, gs in out.items()]


def live_arrangements(layout: Layout, wild_kinds: Callable[[], Sequence[int]],
                      key_bit: dict[int, int], live: Live
                      ) -> Iterator[tuple[int, tuple[RawGroup, ...]]]:
    """(bits, arrangement) for every arrangement of `layout` whose bits `live` accepts.

    `live` is asked once per combination of real groups and all-hun bit classes, before
    any arrangement of it is formed; it may say no to more as the search goes on."""
    melds: list[BitClass] | None = None
    pairs: list[BitClass] | None = None
    key_of = KEY_OF
    # (real groups' bits, wild melds, wild pairs) whose every combination `live` refused:
    # it never takes a no back, so a later combination of real groups alike is skipped
    dead: set[int] = set()
    for codes, wm, wp in anchored_first(layout, FIRST_PARTS):
        base = 0
        for c in codes:
            base |= key_bit.get(key_of[c], 0)
        if wm == 0 and wp == 0:
            if live(base):
                yield base, tuple([GROUP_OF[c] for c in codes])
            continue
        like = (base << 4 | wm) << 1 | wp
        if like in dead:
            continue
        if melds is None or pairs is None:
            kinds = sorted({k for k in wild_kinds() if 0 <= k < NUM_KINDS})
            melds = by_bits(wild_meld_options(kinds), key_bit)
            pairs = by_bits(wild_pair_options(kinds), key_bit)
        real: tuple[RawGroup, ...] | None = None
        pair_classes = pairs if wp else [(0, ())]
        for picked in combinations_with_replacement(range(len(melds)), wm):
            mbits = base
            for i in picked:
                mbits |= melds[i][0]
            for pbits, pair_groups in pair_classes:
                bits = mbits | pbits
                if not live(bits):
                    continue
                if real is None:
                    real = tuple([GROUP_OF[c] for c in codes])
                for extra in _combinations(melds, picked, pair_groups):
                    yield bits, real + extra
        if real is None:
            dead.add(like)


def _combinations(melds: list[BitClass], picked: tuple[int, ...],
                  pair_groups: tuple[RawGroup, ...]) -> Iterator[tuple[RawGroup, ...]]:
    """Every choice of all-hun melds, as many from each class as `picked` names (a sorted
    multiset of class indexes), and of one pair from `pair_groups` (none if empty)."""
    parts = [combinations_with_replacement(melds[i][1], picked.count(i))
             for i in sorted(set(picked))]
    for chosen in product(*parts):
        got: tuple[RawGroup, ...] = ()
        for part in chosen:
            got += part
        if not pair_groups:
            yield got
        else:
            for pair in pair_groups:
                yield got + (pair,)
