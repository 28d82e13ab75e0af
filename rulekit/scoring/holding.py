"""The groups that can hold a given tile, and the rest each leaves: the questions the scan and
the place search ask about the winning tile (which groups can hold it in some arrangement)
and about a place (what is left to arrange once its group is taken out).

Exact, not bounds: a group holds the tile in some arrangement exactly when `rest_wins` says
its rest still completes the hand (tests/test_arrange.py checks this against every
arrangement of random hands).
"""
from __future__ import annotations

from typing import Sequence

from rulekit.arrange import Layout, RawGroup, is_winning_shape, real_kinds
from rulekit.codes import HONOR_START, LAST_RUN_RANK, PAIR, RUN, SET, SUIT_SIZE


def groups_holding(counts: Sequence[int], hun: int, tile: int) -> list[RawGroup]:
    """Every group that can hold one real `tile`, from `counts` (which include it) and hun."""
    out: list[RawGroup] = []
    more = counts[tile] - 1                       # real copies besides this one
    if more >= 1:
        out.append(RawGroup(PAIR, tile, ()))
    if hun >= 1:
        out.append(RawGroup(PAIR, tile, (tile,)))
    if more >= 2:
        out.append(RawGroup(SET, tile, ()))
    if more >= 1 and hun >= 1:
        out.append(RawGroup(SET, tile, (tile,)))
    if hun >= 2:
        out.append(RawGroup(SET, tile, (tile, tile)))
    if tile < HONOR_START:
        for start in (tile - 2, tile - 1, tile):
            if (start < 0 or start // SUIT_SIZE != tile // SUIT_SIZE
                    or start % SUIT_SIZE > LAST_RUN_RANK):
                continue
            a, b = [k for k in (start, start + 1, start + 2) if k != tile]
            options: tuple[tuple[int, ...], ...] = ((), (a,), (b,), (a, b))
            for fills in options:
                if (len(fills) <= hun and (a in fills or counts[a] >= 1)
                        and (b in fills or counts[b] >= 1)):
                    out.append(RawGroup(RUN, start, fills))
    return out


def rest_layout(layout: Layout, group: RawGroup) -> Layout:
    """What is left to arrange once `group` (a concealed group) is taken out."""
    counts = list(layout.counts)
    for k in real_kinds(group):
        counts[k] -= 1
    is_pair = group.shape == PAIR
    return Layout(tuple(counts), layout.hun - len(group.fills),
                  layout.need_melds - (0 if is_pair else 1), layout.need_pairs - is_pair)


def rest_wins(layout: Layout, group: RawGroup) -> bool:
    """Do the tiles left after taking `group` still complete the hand?"""
    rest = rest_layout(layout, group)
    return is_winning_shape(rest.counts, rest.hun, rest.need_melds, rest.need_pairs)
