"""The groups that can hold a given tile, and the rest each leaves: the questions the scan and
the place search ask about the winning tile (which groups can hold it in some arrangement)
and about a place (what is left to arrange once its group is taken out).

Exact, not bounds: a group holds the tile in some arrangement exactly when `rest_wins` says
its rest still completes the hand (tests/test_arrange.py checks this against every
arrangement of random hands).
"""
from __future__ import annotations

from typing import Final, Sequence

from rulekit.arrange import (ALL_GROUPS, SUIT_DIGIT, SUIT_OF, Layout, RawGroup,
                             is_winning_shape, real_kinds)
from rulekit.codes import (HONOR_START, LAST_RUN_RANK, NUM_KINDS, PAIR, RUN, SET, SUIT_SIZE,
                           key_first, key_shape)
from rulekit.scoring.keys import group_code, rest_code
from rulekit.shape import fits_codes


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


# One group a tile can sit in, listed once at import (`HOLDING`, `FILLING`): the group (a
# shared object where `arrange` has one), what it needs of a hand as a flat tuple (kind,
# real copies, kind, real copies, ...), how many hun it holds, its `keys.rest_code` and
# `keys.group_code`, and whether it is all hun
Holder = tuple[RawGroup, tuple[int, ...], int, int, int, bool]

_SHARED: Final[dict[RawGroup, RawGroup]] = {g: g for g in ALL_GROUPS}


def _holder(g: RawGroup) -> Holder:
    shared = _SHARED.get(g, g)
    real = real_kinds(shared)
    needs: list[int] = []
    for k in dict.fromkeys(real):
        needs += [k, real.count(k)]
    return (shared, tuple(needs), len(shared.fills), rest_code(shared), group_code(shared),
            not real)


def _holders(tile: int, as_fill: bool) -> tuple[Holder, ...]:
    """`groups_holding`'s groups for `tile` in its order, each group whatever a hand has
    (a real copy of `tile`, or with `as_fill` a hun standing for it, counted as a fill)."""
    out = []
    for g in groups_holding([4] * NUM_KINDS, 4, tile):
        if as_fill:
            g = RawGroup(g.shape, g.first, tuple(sorted(g.fills + (tile,))))
        out.append(_holder(g))
    return tuple(out)


HOLDING: Final[tuple[tuple[Holder, ...], ...]] = tuple(
    [_holders(t, False) for t in range(NUM_KINDS)])
"""Per kind: every group a real tile of it can sit in, as `groups_holding` lists them; a
hand has those whose needs its counts meet and whose hun it holds (`holders`)."""
FILLING: Final[tuple[tuple[Holder, ...], ...]] = tuple(
    [_holders(k, True) for k in range(NUM_KINDS)])
"""Per kind: every group a hun standing for it can sit in (the hun among the group's fills),
in the order `groups_holding` lists them with that kind counted once more as real."""


def holds(counts: tuple[int, ...], hun: int, holder: Holder) -> bool:
    """Can a hand of these real counts and hun form this group? (`counts` a tuple, as
    `Layout.counts`: compiled, a tuple is indexed directly, a `Sequence` through the
    generic protocol, which cost a hun winning tile's ~500 checks a hand.)"""
    if holder[2] > hun:
        return False
    needs = holder[1]
    for i in range(0, len(needs), 2):
        if counts[needs[i]] < needs[i + 1]:
            return False
    return True


def rest_fits(layout: Layout, holder: Holder) -> bool:
    """`rest_wins(layout, holder[0])` for a group the hand can form (`holds`), read off the
    suits' codes the layout carries with the group's real tiles taken out of them: no rest
    `Layout` or counts made (a yes/no question asks this of every group holding its winning
    tile: `scan.gated_allowed`). Without the codes (`Layout.suits` empty), `rest_wins`."""
    g = holder[0]
    codes = layout.suits
    if not codes:
        return rest_wins(layout, g)
    is_pair = g.shape == PAIR
    melds = layout.need_melds - (0 if is_pair else 1)
    pairs = layout.need_pairs - (1 if is_pair else 0)
    if melds < 0 or pairs < 0:
        return False
    c0, n0, c1, n1, c2, n2, c3, n3 = codes
    needs = holder[1]
    for i in range(0, len(needs), 2):
        k = needs[i]
        n = needs[i + 1]
        s = SUIT_OF[k]
        d = SUIT_DIGIT[k] * n
        if s == 0:
            c0 -= d
            n0 -= n
        elif s == 1:
            c1 -= d
            n1 -= n
        elif s == 2:
            c2 -= d
            n2 -= n
        else:
            c3 -= d
            n3 -= n
    return fits_codes(c0, c1, c2, c3, n0 + n1 + n2 + n3, layout.hun - holder[2], melds,
                      pairs == 1)


KEY_NEEDS_STRIDE: Final = 8
"""`key_needs`' entries: bit, pair (1 or 0), then three (kind, real copies) slots."""


def key_needs(keys: tuple[int, ...]) -> tuple[int, ...]:
    """For each group key of `keys` a concealed group can have (a run, a set or a pair; a
    kong is a declared meld), `KEY_NEEDS_STRIDE` ints in one flat tuple: its bit (1 << its
    place in `keys`), 1 if it is a pair, and the real copies it takes as three (kind,
    copies) slots (unused ones take 0 copies): a hand can form it when hun make up what its
    counts lack (`scan.keys_bound`)."""
    out: list[int] = []
    for i, k in enumerate(keys):
        shape, first = key_shape(k), key_first(k)
        if shape == RUN:
            out += [1 << i, 0, first, 1, first + 1, 1, first + 2, 1]
        elif shape == SET:
            out += [1 << i, 0, first, 3, first, 0, first, 0]
        elif shape == PAIR:
            out += [1 << i, 1, first, 2, first, 0, first, 0]
    return tuple(out)


def real_holders(counts: tuple[int, ...], hun: int, tile: int) -> list[Holder]:
    """`HOLDING`'s groups for a real `tile` that a hand of these counts (the tile included)
    and hun can form: `groups_holding`'s groups, in its order, as the shared objects the
    table lists with their codes, without building a group per call."""
    return [h for h in HOLDING[tile] if holds(counts, hun, h)]
