"""Arrangements: every way 14 tiles (with wildcard hun) form four melds and a pair.

No rule lives here: this module only knows tile kinds, the three group shapes and that honours
never run. Which arrangement is worth most is the ruleset's business (`rulekit/scoring/`).

Speed comes from two places. Each suit is decomposed on its own and memoised on its counts, so
the same suit shape met again (very common) costs a dict lookup. Hun that no real tile anchors
("wild" groups, only possible with 5+ hun) are not expanded over every kind: the caller passes
the kinds that can make a difference (`wild_kinds`), see `scoring.search.WildDomain`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations_with_replacement
from typing import Callable, Final, Iterable, Iterator, NamedTuple, Sequence

from rulekit.codes import (HONOR_SIZE, HONOR_START, KONG, LAST_RUN_RANK, NUM_KINDS, PAIR, RUN, SET,
                           SUIT_BASES, SUIT_SIZE, TIAO_START, TONG_START, WAN_START, group_key)
from rulekit.shape import HON_WIN, NUM_WIN, fits

__all__ = ["HONOR_START", "KONG", "NUM_KINDS", "PAIR", "RUN", "SET"]   # re-exported


class RawGroup(NamedTuple):
    """One meld or the pair, as formed from real tiles and hun.

    `fills` lists the kinds the hun in this group stand for (sorted); the real tiles are the
    group's tiles minus `fills`. Declared melds (pungs and kongs laid down) have no fills.
    """

    shape: int
    first: int          # lowest kind (the kind itself for sets, pairs and kongs)
    fills: tuple[int, ...]
    declared: bool = False
    concealed: bool = True
    golden: bool = False

    def kinds(self) -> tuple[int, ...]:
        return group_kinds(self)


def group_kinds(g: RawGroup) -> tuple[int, ...]:
    """The kinds a group stands for, hun as what they fill (a function, not only a method:
    mypyc compiles functions, while a NamedTuple's methods stay interpreted)."""
    f = g.first
    if g.shape == RUN:
        return (f, f + 1, f + 2)
    return (f,) * (2 if g.shape == PAIR else 4 if g.shape == KONG else 3)


# One suit's decomposition: (hun used, melds formed, pairs formed, group codes). Codes are
# ints (see GROUP_OF) so that the memo holds no objects the garbage collector must scan.
SuitPart = tuple[int, int, int, tuple[int, ...]]


# A group template, for the lowest real tile at some rank i of a suit: (shape, start,
# real_offsets), the offsets counted from the group's start. Positions below i are hun.
_Template = tuple[int, int, tuple[int, ...]]


def _templates(size: int, numbered: bool) -> list[list[_Template]]:
    """Per rank i: the group templates whose lowest *real* tile is i."""
    out: list[list[_Template]] = []
    for i in range(size):
        t: list[_Template] = [
            (PAIR, i, (0, 0)), (PAIR, i, (0,)),
            (SET, i, (0, 0, 0)), (SET, i, (0, 0)), (SET, i, (0,)),
        ]
        if numbered:
            if i + 2 < size:
                t += [(RUN, i, (0, 1, 2)), (RUN, i, (0, 1)), (RUN, i, (0, 2)), (RUN, i, (0,))]
            if 1 <= i <= size - 2:
                t += [(RUN, i - 1, (1, 2)), (RUN, i - 1, (1,))]
            if i >= 2:
                t += [(RUN, i - 2, (2,))]
        out.append(t)
    return out


# A template compiled for the search: (code, [(rank, copies taken)], hun, is_pair).
_Step = tuple[int, tuple[tuple[int, int], ...], int, bool]


def _steps(templates: list[list[_Template]]) -> tuple[tuple[_Step, ...], ...]:
    out = []
    for i, tl in enumerate(templates):
        steps = []
        for ti, (shape, start, offs) in enumerate(tl):
            ranks = [start + o if shape == RUN else i for o in offs]
            take = tuple((k, ranks.count(k)) for k in dict.fromkeys(ranks))
            size = 2 if shape == PAIR else 3
            steps.append((i * 16 + ti, take, size - len(offs), shape == PAIR))
        out.append(tuple(steps))
    return tuple(out)


def _group_table(base: int, templates: list[list[_Template]]) -> dict[int, RawGroup]:
    """Every template's group in the suit starting at `base`, built once: code → group."""
    table = {}
    offset = _CODE_OFFSET[base]
    for i, tl in enumerate(templates):
        for ti, (shape, start, offs) in enumerate(tl):
            if shape == RUN:
                fills = tuple(start + o for o in range(3) if o not in offs)
                first = start
            else:
                fills = (i,) * ((2 if shape == PAIR else 3) - len(offs))
                first = i
            table[offset + i * 16 + ti] = RawGroup(shape, base + first,
                                                   tuple(base + f for f in fills))
    return table


_NUMBERED_TEMPLATES = _templates(9, True)
_HONOR_TEMPLATES = _templates(7, False)
_NUMBERED_STEPS = _steps(_NUMBERED_TEMPLATES)
_HONOR_STEPS = _steps(_HONOR_TEMPLATES)
_CODE_OFFSET: Final = {base: 256 * i for i, base in enumerate(SUIT_BASES)}
_GROUP_TABLE: dict[int, RawGroup] = {}
for _base in SUIT_BASES:
    _GROUP_TABLE.update(_group_table(_base, _NUMBERED_TEMPLATES if _base < HONOR_START
                                     else _HONOR_TEMPLATES))
_UNUSED = RawGroup(-1, -1, ())
GROUP_OF: Final[tuple[RawGroup, ...]] = tuple(_GROUP_TABLE.get(c, _UNUSED)
                                       for c in range(max(_GROUP_TABLE) + 1))
"""Group code → the group: one shared object per (suit, rank, template), built at import
(a tuple, indexed by code; codes no template uses hold a placeholder)."""
KEY_OF: Final[tuple[int, ...]] = tuple(group_key(g.shape, g.first) if g.shape >= 0 else -1
                                       for g in GROUP_OF)
"""Group code → its group's `codes.group_key` (-1 for the placeholder)."""


# Suit decompositions are memoised in one dict, keyed by one int: the suit's base-5 code
# (rank 0 the lowest digit, as in rulekit.shape) and which suit. Its value is the shape's
# row: the parts per hun budget (clamped to twice the suit's tiles), None where not yet
# worked out; so a budget missing from the row finds a wider one in the same row, not by
# probing the dict once per budget. A row is a tuple, replaced when it gains a budget:
# tuples of ints and None leave the garbage collector's lists, lists never would (thousands
# of rows it would walk at every full collection). Bounded: when full it is emptied
# (refilling is cheap: the search below meets no dead ends), by entries and by an estimate
# of its bytes: rows of many-hun suits hold hundreds of parts (28k entries of a long run
# measured ~55 MB), so entries alone would let it reach ~130 MB. 16 MiB: a dealt mix fills
# ~9k rows by then (~25k hands) and scores as fast after each emptying as with 48 MiB (a
# 60k-hand run took the same CPU), and a server reaches its plateau within ~25k hands.
_MEMO_LIMIT: Final = 1 << 15
_MEMO_BYTES_LIMIT: Final = [16 << 20]      # a list: tests lower it
_Row = tuple[tuple[SuitPart, ...] | None, ...]
_MEMO: Final[dict[int, _Row]] = {}
_MEMO_BYTES: Final[list[int]] = [0]        # the estimate of what `_MEMO` holds
_EMPTY_PART: Final[tuple[SuitPart, ...]] = ((0, 0, 0, ()),)       # a suit with no tiles
_POW5: Final = (1, 5, 25, 125, 625, 3125, 15625, 78125, 390625)
_MAX_SUIT_TILES: Final = 14     # the most one suit holds in a hand (the tables stop there)


def suit_parts(base: int, counts: Sequence[int], max_hun: int) -> tuple[SuitPart, ...]:
    """All ways to use up every real tile of one suit, with at most `max_hun` hun.

    Each real tile's group takes at most two hun, so a larger budget changes nothing:
    clamping it keeps one memo entry per suit shape instead of one per hand's hun count.
    """
    return _parts_at(tuple(counts), 0, base, len(counts), max_hun)


def _parts_at(c: tuple[int, ...], at: int, base: int, size: int, max_hun: int
              ) -> tuple[SuitPart, ...]:
    """`suit_parts` of the suit at `base` whose counts are c[at:at + size] (no slice made)."""
    code, n = _suit_code(c, at, size)
    return _parts_of(c, at, base, size, code, n, max_hun)


def _suit_code(c: tuple[int, ...], at: int, size: int) -> tuple[int, int]:
    """The base-5 code and the tile count of the suit c[at:at + size]; the code is -1 when
    the shape tables do not hold it (a count above 4, or more than 14 tiles)."""
    code = 0
    n = 0
    plain = True
    for r in range(at + size - 1, at - 1, -1):
        k = c[r]
        if k < 0 or k > 4:
            plain = False
        code = code * 5 + k
        n += k
    if not plain or n > _MAX_SUIT_TILES:
        return -1, n
    return code, n


SUIT_DIGIT: Final[tuple[int, ...]] = tuple([5 ** (k - base) for base, end in
                                            zip(SUIT_BASES, SUIT_BASES[1:] + (NUM_KINDS,))
                                            for k in range(base, end)])
"""Kind → what one tile of it adds to its suit's base-5 code (`_suit_code`)."""
SUIT_OF: Final[tuple[int, ...]] = tuple([min(k // SUIT_SIZE, len(SUIT_BASES) - 1)
                                         for k in range(NUM_KINDS)])
"""Kind → its suit's place in `Layout.suits` (萬 0, 筒 1, 條 2, the honours 3)."""


def _parts_of(c: tuple[int, ...], at: int, base: int, size: int, code: int, n: int,
              max_hun: int, no_pairs: bool = False) -> tuple[SuitPart, ...]:
    """`_parts_at` once the suit's code and count are known (`_suit_code`); with
    `no_pairs`, only the parts that form no pair (what a layout whose pair is formed
    combines), in the same order."""
    if code < 0:
        return _search(base, list(c[at:at + size]), -1, n, max_hun, no_pairs)
    if n == 0:
        return _EMPTY_PART
    return _memo_parts(base, code, n, max_hun, no_pairs)


def _least_hun(base: int, code: int, n: int) -> int:
    """The fewest hun any part of this suit uses, pair or not, by the shape tables: a lower
    bound (their minimum is over a superset of the parts); 0 for counts they do not hold."""
    if code <= 0:
        return 0
    return _fewest_hun(NUM_WIN if base < HONOR_START else HON_WIN, code, n, True)


def _memo_key(code: int, suit: int, no_pairs: bool) -> int:
    """`_MEMO`'s key: the suit's base-5 code and the suit, negative for its parts that form
    no pair (`no_pairs`)."""
    key = code * 4 + suit
    return -1 - key if no_pairs else key


def _memo_parts(base: int, code: int, n: int, max_hun: int, no_pairs: bool = False
                ) -> tuple[SuitPart, ...]:
    """`suit_parts` of a plain suit given by its code and tile count, through the memo;
    with `no_pairs` only those forming no pair, in the same order."""
    got = _memo_known(base, code, n, max_hun, no_pairs)
    if got is not None:
        return got
    top = 2 * n
    if max_hun > top:
        max_hun = top
    got = _search(base, _digits(code, 9 if base < HONOR_START else 7), code, n, max_hun,
                  no_pairs)
    key = _memo_key(code, base // SUIT_SIZE, no_pairs)
    _keep_parts(key, _MEMO.get(key), top, max_hun, got)
    return got


def _memo_known(base: int, code: int, n: int, max_hun: int, no_pairs: bool
                ) -> tuple[SuitPart, ...] | None:
    """`_memo_parts` when the memo holds them or what to make them from (kept then), else
    None: what it gives without a search."""
    top = 2 * n
    if max_hun > top:
        max_hun = top
    suit = base // SUIT_SIZE
    key = _memo_key(code, suit, no_pairs)
    row = _MEMO.get(key)
    if row is not None:
        hit = row[max_hun]
        if hit is not None:
            return hit
    got = _known_parts(row, code, suit, base, max_hun, no_pairs)
    if got is not None:
        _keep_parts(key, row, top, max_hun, got)
    return got


def _known_parts(row: _Row | None, code: int, suit: int, base: int, max_hun: int,
                 no_pairs: bool) -> tuple[SuitPart, ...] | None:
    """A suit's parts cut or moved from what the memo holds (`_narrowed`, `_unpaired`,
    `_moved`), without a search; None if it holds nothing to make them from."""
    got = _narrowed(row, max_hun) if row is not None else None
    if got is None and no_pairs:
        got = _unpaired(code, suit, max_hun)
    if got is None and base < HONOR_START:
        got = _moved(code, suit, max_hun, no_pairs)
    return got


def _keep_parts(key: int, row: _Row | None, top: int, max_hun: int,
                got: tuple[SuitPart, ...]) -> None:
    """Keep `got` in the memo's row `key` (None: a new row, of budgets 0..`top`) under
    `max_hun`, within the memo's bounds."""
    if row is None:
        row = (None,) * (top + 1)
        if not _MEMO:                          # emptied elsewhere (a test clears it)
            _MEMO_BYTES[0] = 0
        elif len(_MEMO) >= _MEMO_LIMIT or _MEMO_BYTES[0] >= _MEMO_BYTES_LIMIT[0]:
            _MEMO.clear()
            _MEMO_BYTES[0] = 0
        _MEMO_BYTES[0] += 200 + 8 * top        # the dict entry and the row
    _MEMO[key] = row[:max_hun] + (got,) + row[max_hun + 1:]
    _MEMO_BYTES[0] += parts_bytes(got) + 8 * top      # the parts and the row's new copy


def first_parts(layout: Layout, limit: int) -> tuple[PartLists, int, bool] | None:
    """`suit_part_lists(layout)` with one suit's parts cut to its first `limit`, when that
    suit is the only one of more than one part or the only one the memo cannot give
    without a search: then `anchored`'s rows of those first parts are its first rows, in
    its order, and a reader that needs only a few (`rests.live_arrangements`: the place
    read's rest, whose first live arrangement often comes in its first rows of hundreds)
    is spared the rest of the search. (lists, that suit's place, whether its parts are all
    there); None when this does not apply (then `suit_part_lists`). The first parts are
    kept in the memo only if they are all the suit's."""
    plan = _suit_plan(layout)
    if plan is None:
        return None
    codes, tiles, budgets = plan
    c = layout.counts
    no_pairs = layout.need_pairs == 0
    lists: list[tuple[SuitPart, ...]] = []
    big = -1
    for i in range(4):
        base = SUIT_BASES[i]
        code, n = codes[i], tiles[i]
        got: tuple[SuitPart, ...] | None
        if code > 0 and n > 0:
            got = _memo_known(base, code, n, budgets[i], no_pairs)
        else:
            got = _parts_of(c, base, base, SUIT_SIZES[i], code, n, budgets[i], no_pairs)
        if got is None or len(got) > 1:
            if big >= 0:
                return None           # two suits of many parts (or to search)
            big = i
            got = got or ()
        lists.append(got)
    if big < 0 or lists[big]:
        return None                   # nothing to search: `suit_part_lists` is as cheap
    base = SUIT_BASES[big]
    code, n = codes[big], tiles[big]
    top = 2 * n
    budget = min(budgets[big], top)
    got = _search(base, _digits(code, 9 if base < HONOR_START else 7), code, n, budget,
                  no_pairs, limit)
    whole = len(got) < limit
    if whole:
        key = _memo_key(code, base // SUIT_SIZE, no_pairs)
        _keep_parts(key, _MEMO.get(key), top, budget, got)
    lists[big] = got
    return (lists[0], lists[1], lists[2], lists[3]), big, whole


def parts_bytes(parts: tuple[SuitPart, ...]) -> int:
    """An estimate of the memory `parts` holds (CPython 64-bit): the tuple, each part's
    4-tuple and its codes' tuple; parts shared with another row are counted again."""
    total = 56 + 8 * len(parts)
    for p in parts:
        total += 152 + 8 * len(p[3])
    return total


def clear_memos() -> None:
    """Forget every per-suit decomposition this process has memoised (a cold start, as a
    fresh process has: `scoring.score.forget` calls it, bench/worst.py times it)."""
    _MEMO.clear()
    _MEMO_BYTES[0] = 0


def bound_suit_memo(limit: int) -> None:
    """Set the bytes the suit-decomposition memo may hold (an overlay worker keeps less: it
    scores a hand or two per ruleset, and a server runs several such workers)."""
    _MEMO_BYTES_LIMIT[0] = limit


def memo_size() -> tuple[int, int]:
    """Entries of the suit-decomposition memo and the estimate of its bytes."""
    return len(_MEMO), _MEMO_BYTES[0]


def _narrowed(row: _Row, max_hun: int) -> tuple[SuitPart, ...] | None:
    """The same suit's parts under a larger budget, if memoised in its row, less those
    using more than `max_hun` hun; else None.

    The order is the search's own: under the smaller budget it walks a sub-tree of the
    larger search's tree (fewer templates fit, the cut is stricter, the order of children
    is the same), and every part it yields lies on that sub-tree.
    """
    for wider in range(max_hun + 1, len(row)):
        got = row[wider]
        if got is not None:
            return tuple([p for p in got if p[0] <= max_hun])
    return None


def _unpaired(code: int, suit: int, max_hun: int) -> tuple[SuitPart, ...] | None:
    """The parts forming no pair, cut from the same suit's full parts if memoised under
    this budget or a larger one (those forming none, within `max_hun`); else None.

    The search without pairs walks a sub-tree of the full search, in the same order, and
    yields exactly its parts that form none: a place's rest, whose pair is formed, then
    reads the parts the whole hand's listing already has instead of searching again.
    """
    row = _MEMO.get(_memo_key(code, suit, False))
    if row is None:
        return None
    for wider in range(max_hun, len(row)):
        got = row[wider]
        if got is not None:
            return tuple([p for p in got if p[2] == 0 and p[0] <= max_hun])
    return None


def _moved(code: int, suit: int, max_hun: int, no_pairs: bool = False
           ) -> tuple[SuitPart, ...] | None:
    """The same counts' parts memoised in another numbered suit (under this budget, or cut
    from a larger one), their groups moved into numbered suit `suit`; else None.

    The three numbered suits share templates and search order; only the group codes differ,
    by 256 per suit (`_CODE_OFFSET`). A third of a cold run's suit searches were a shape
    already decomposed in another suit, and moving the parts costs a small fraction of the
    search.
    """
    for other in range(3):
        if other == suit:
            continue
        row = _MEMO.get(_memo_key(code, other, no_pairs))
        if row is None:
            continue
        got = row[max_hun]
        if got is None:
            got = _narrowed(row, max_hun)
        if got is not None:
            shift = (suit - other) * 256
            return tuple([(h, m, q, tuple([c + shift for c in codes]))
                          for h, m, q, codes in got])
    return None


def _digits(code: int, size: int) -> list[int]:
    out = [0] * size
    for r in range(size):
        out[r] = code % 5
        code //= 5
    return out


# The templates compiled for the search, flat in one list of ints (fast to read compiled):
# _STRIDE ints per template, at the offsets below. For rank i and a spare hun budget b
# (0, 1, 2: no template needs more), the positions of the templates that fit, in template
# order, are order[at[3 * i + b]:at[3 * i + b + 1]]: a hun-free suit scans three, not twelve.
_M_CODE: Final = 0          # the group's template code
_M_HUN: Final = 1           # hun it needs
_M_PAIR: Final = 2          # 1 for a pair
_M_DCODE: Final = 3         # what taking its real tiles subtracts from the suit code
_M_DN: Final = 4            # how many real tiles it takes
_M_INDEX: Final = 5         # its index among rank i's templates (the order that dedupes)
_M_TAKE: Final = 6          # three (rank, copies) slots, unused ones (rank, 0)
_STRIDE: Final = 12


class _Moves(NamedTuple):
    flat: list[int]
    order: list[int]
    at: list[int]


def _moves(steps: tuple[tuple[_Step, ...], ...]) -> _Moves:
    """The flat templates and their per-(rank, budget) orders, from the templates' steps."""
    flat: list[int] = []
    order: list[int] = []
    at = [0]
    for i, tl in enumerate(steps):
        first = len(flat)
        for ti, (code, take, need_hun, is_pair) in enumerate(tl):
            slots = [x for k, n in take for x in (k, n)] + [i, 0] * (3 - len(take))
            flat += [code, need_hun, int(is_pair), sum(n * 5 ** k for k, n in take),
                     sum(n for _, n in take), ti] + slots
        for budget in range(3):
            order += [first + _STRIDE * ti for ti, step in enumerate(tl) if step[2] <= budget]
            at.append(len(order))
    return _Moves(flat, order, at)


_NUMBERED_MOVES: Final = _moves(_NUMBERED_STEPS)
_HONOR_MOVES: Final = _moves(_HONOR_STEPS)


def _search(base: int, work: list[int], code: int, n: int, max_hun: int,
            no_pairs: bool = False, limit: int = -1) -> tuple[SuitPart, ...]:
    """The decompositions of one suit (`work`: its counts, consumed and restored), as group
    codes placed in the suit at `base`.

    Each multiset of groups is produced once: the groups anchored on one rank are chosen in
    non-decreasing template order. With `code` >= 0 (the counts' base-5 code), a template is
    tried only if the shape tables' fewest hun for what it leaves fit the budget, so no
    branch dies empty-handed; this cuts work, never an arrangement (the tables' minimum is
    over a superset of these decompositions). And once the lowest rank is used up, the rest
    of the suit is itself a suit shape: its parts come from the memo (`_Search.rest`), so a
    miss searches one rank and looks the rest up, instead of searching every rank again.
    `code` -1 searches every rank, without the tables or the memo. With `no_pairs` the
    search starts as if its pair were taken: no pair template is tried and the cut asks
    for melds only, so it walks the sub-tree of the full search that forms no pair, in the
    same order (a layout whose pair is formed, such as a place's rest, needs no other).
    """
    numbered = base < HONOR_START
    search = _Search(work, max_hun, _NUMBERED_MOVES if numbered else _HONOR_MOVES,
                     NUM_WIN if numbered else HON_WIN, base, int(no_pairs), limit)
    try:
        search.rec(code, n, 0, 0, 0, 0, int(no_pairs))
    except _Full:
        pass                          # the first `limit` parts: the search's first ones
    return tuple(search.out)


class _Full(Exception):
    """A search given a `limit` has made that many parts (`_Search.add`)."""


def _fewest_hun(table: bytes, code: int, n: int, pair_free: bool) -> int:
    """The fewest hun that complete the tiles of `code` (n of them) into melds, and a pair
    when `pair_free`, by the shape tables (rulekit.shape: entry = m0 + 64 * saves)."""
    e = table[code]
    m0 = e & 63
    no_pair = 3 * m0 - n
    if pair_free:
        with_pair = 3 * (m0 - (e >> 6)) + 2 - n
        if with_pair < no_pair:
            return with_pair
    return no_pair


class _Search:
    """One suit's search: what stays fixed while it recurses, and what it builds."""

    def __init__(self, work: list[int], max_hun: int, moves: _Moves, table: bytes,
                 base: int, taken: int = 0, limit: int = -1) -> None:
        self.work = work
        self.limit = limit            # stop (`_Full`) once this many parts are made
        self.taken = taken            # 1: searching as if the pair were taken (`no_pairs`)
        self.size = len(work)
        self.max_hun = max_hun
        self.flat = moves.flat
        self.order = moves.order
        self.at = moves.at
        self.table = table
        self.base = base
        self.offset = _CODE_OFFSET[base]
        self.codes: list[int] = []
        self.out: list[SuitPart] = []

    def rec(self, code: int, n: int, i: int, min_t: int, hun: int, melds: int,
            pairs: int) -> None:
        """Extend the groups in `codes` every way that uses up `work`."""
        work = self.work
        size = self.size
        while i < size and work[i] == 0:
            i += 1
            min_t = 0
        if i == size:
            self.out.append((hun, melds, pairs - self.taken, tuple(self.codes)))
            if len(self.out) == self.limit:
                raise _Full()
            return
        mv = self.flat
        order = self.order
        spare = self.max_hun - hun
        j = 3 * i + (spare if spare < 2 else 2)
        for pos in range(self.at[j], self.at[j + 1]):
            m = order[pos]
            ti = mv[m + _M_INDEX]
            if ti < min_t:
                continue
            is_pair = mv[m + _M_PAIR]
            if is_pair and pairs:
                continue
            k0 = mv[m + _M_TAKE]
            n0 = mv[m + _M_TAKE + 1]
            k1 = mv[m + _M_TAKE + 2]
            n1 = mv[m + _M_TAKE + 3]
            k2 = mv[m + _M_TAKE + 4]
            n2 = mv[m + _M_TAKE + 5]
            if work[k0] < n0 or work[k1] < n1 or work[k2] < n2:
                continue
            h = hun + mv[m + _M_HUN]
            q = 1 if is_pair else pairs
            rest = code - mv[m + _M_DCODE] if code >= 0 else -1
            left = n - mv[m + _M_DN]
            if rest >= 0 and h + _fewest_hun(self.table, rest, left, q == 0) > self.max_hun:
                continue
            work[k0] = work[k0] - n0
            work[k1] = work[k1] - n1
            work[k2] = work[k2] - n2
            self.codes.append(self.offset + mv[m + _M_CODE])
            if rest >= 0 and work[i] == 0:
                self.rest(rest, left, h, melds if is_pair else melds + 1, q)
            else:
                self.rec(rest, left, i, ti, h, melds if is_pair else melds + 1, q)
            self.codes.pop()
            work[k0] = work[k0] + n0
            work[k1] = work[k1] + n1
            work[k2] = work[k2] + n2

    def rest(self, code: int, n: int, hun: int, melds: int, pairs: int) -> None:
        """Rank i is used up: the groups in `codes`, each way of the rest of the suit.

        The rest (`code`, the suit's counts above rank i) is searched under the hun left,
        through the memo, and its parts come in the order this search would meet them: it
        walks the same tree below this node (templates in the same order, the same cut).
        With the pair taken, the rest's parts that form one are dropped: the rest searched
        without pairs would walk a sub-tree of that tree, in the same order.
        """
        own = pairs - self.taken      # the pairs the parts made show
        out = self.out
        if n == 0:
            out.append((hun, melds, own, tuple(self.codes)))
            if len(out) == self.limit:
                raise _Full()
            return
        head = tuple(self.codes)
        for h, m, q, codes in _memo_parts(self.base, code, n, self.max_hun - hun,
                                          self.taken == 1):
            if q and pairs:
                continue
            out.append((hun + h, melds + m, own + q, head + codes))
            if len(out) == self.limit:
                raise _Full()


@dataclass(frozen=True, slots=True, init=False)
class Layout:
    """The hand as the arranger needs it: real concealed counts (win tile included), hun."""

    counts: tuple[int, ...]     # length 34, hun tiles excluded
    hun: int                    # hun tiles among concealed + win
    need_melds: int             # melds to form from the concealed tiles (4 - declared)
    need_pairs: int = 1         # 0 when the pair is already formed (holding.rest_layout)
    # each suit's base-5 code and tile count (`_suit_code`) when the caller has them, for
    # `anchored`: (code, count) of 萬, 筒, 條 and the honours; () to have them worked out
    suits: tuple[int, ...] = field(default=(), compare=False)

    # written out: one is built per score, and mypyc compiles this one (see hand.Hand)
    def __init__(self, counts: tuple[int, ...], hun: int, need_melds: int,
                 need_pairs: int = 1, suits: tuple[int, ...] = ()) -> None:
        object.__setattr__(self, "counts", counts)
        object.__setattr__(self, "hun", hun)
        object.__setattr__(self, "need_melds", need_melds)
        object.__setattr__(self, "need_pairs", need_pairs)
        object.__setattr__(self, "suits", suits)




# each suit's parts (萬, 筒, 條, the honours) as `anchored` combines them
PartLists = tuple[tuple[SuitPart, ...], tuple[SuitPart, ...], tuple[SuitPart, ...],
                  tuple[SuitPart, ...]]


SUIT_SIZES: Final = (SUIT_SIZE, SUIT_SIZE, SUIT_SIZE, HONOR_SIZE)


def _suit_plan(layout: Layout
               ) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]] | None:
    """Each suit's base-5 code, tile count and hun budget (its least hun and the hun no
    suit's least claims) as `suit_part_lists` decomposes it; None when the suits need more
    hun than there are."""
    c = layout.counts
    suits = layout.suits
    if len(suits) == 8:
        a0, n0, a1, n1, a2, n2, a3, n3 = suits
    else:
        a0, n0 = _suit_code(c, WAN_START, SUIT_SIZE)
        a1, n1 = _suit_code(c, TONG_START, SUIT_SIZE)
        a2, n2 = _suit_code(c, TIAO_START, SUIT_SIZE)
        a3, n3 = _suit_code(c, HONOR_START, HONOR_SIZE)
    l0 = _least_hun(WAN_START, a0, n0)
    l1 = _least_hun(TONG_START, a1, n1)
    l2 = _least_hun(TIAO_START, a2, n2)
    l3 = _least_hun(HONOR_START, a3, n3)
    spare = layout.hun - l0 - l1 - l2 - l3     # the hun no suit's least claims
    if spare < 0:
        return None
    return ((a0, a1, a2, a3), (n0, n1, n2, n3),
            (l0 + spare, l1 + spare, l2 + spare, l3 + spare))


def suit_part_lists(layout: Layout) -> PartLists | None:
    """Each suit's parts, each decomposed under the hun the other suits leave it (what
    `anchored` combines, in its order); None when the suits need more hun than there are."""
    plan = _suit_plan(layout)
    if plan is None:
        return None
    (a0, a1, a2, a3), (n0, n1, n2, n3), (b0, b1, b2, b3) = plan
    c = layout.counts
    # a layout whose pair is formed combines only parts that form none: those alone listed
    formed = layout.need_pairs == 0
    return (_parts_of(c, WAN_START, WAN_START, SUIT_SIZE, a0, n0, b0, formed),
            _parts_of(c, TONG_START, TONG_START, SUIT_SIZE, a1, n1, b1, formed),
            _parts_of(c, TIAO_START, TIAO_START, SUIT_SIZE, a2, n2, b2, formed),
            _parts_of(c, HONOR_START, HONOR_START, HONOR_SIZE, a3, n3, b3, formed))


def anchored(layout: Layout) -> Iterator[tuple[tuple[int, ...], int, int]]:
    """Combinations of per-suit parts that leave only wild groups to form.

    Yields (group codes, wild_melds, wild_pairs). Suits are combined one at a time, cutting a
    branch as soon as it uses too many hun, melds or pairs (explicit loops: this is the
    innermost loop of scoring).

    Each suit is decomposed under the hun the other suits leave it: every part of a suit
    uses at least its `_least_hun`, so a part using more than the hand's hun less the
    others' least joins no arrangement. The parts cut are ones no combination yields, so
    what is yielded (and its order) is unchanged; high-hun hands decompose far fewer.
    """
    lists = suit_part_lists(layout)
    if lists is None:
        return iter(())
    return _rows(layout, lists)


def anchored_first(layout: Layout, limit: int) -> Iterator[tuple[tuple[int, ...], int, int]]:
    """`anchored(layout)`'s rows, the same in the same order, the suit of many parts
    searched for its first `limit` parts only until a row past them is asked for, then for
    four times as many, and so on (`first_parts`; each round searches from the start): a
    reader that stops early is spared most of that suit's search."""
    first = first_parts(layout, limit)
    if first is None:
        yield from anchored(layout)
        return
    lists, big, whole = first
    start = 0
    while True:
        # the other suits have one part each: the rows go on with the suit's later parts
        later = list(lists)
        later[big] = lists[big][start:]
        yield from _rows(layout, (later[0], later[1], later[2], later[3]))
        if whole:
            return
        start = limit
        limit *= 4
        more = first_parts(layout, limit)
        if more is None or more[1] != big:     # (the memo emptied meanwhile)
            full = suit_part_lists(layout)
            if full is None:
                return
            lists, whole = full, True
        else:
            lists, _, whole = more


def _rows(layout: Layout, lists: PartLists) -> Iterator[tuple[tuple[int, ...], int, int]]:
    """`anchored`'s rows of these suits' parts."""
    h = layout.hun
    need = layout.need_melds
    pairs = layout.need_pairs
    p0, p1, p2, p3 = lists
    for h0, m0, q0, g0 in p0:
        if h0 > h or m0 > need or q0 > pairs:
            continue
        for h1, m1, q1, g1 in p1:
            ha, ma, qa = h0 + h1, m0 + m1, q0 + q1
            if ha > h or ma > need or qa > pairs:
                continue
            for h2, m2, q2, g2 in p2:
                hb, mb, qb = ha + h2, ma + m2, qa + q2
                if hb > h or mb > need or qb > pairs:
                    continue
                for h3, m3, q3, g3 in p3:
                    hc, mc, qc = hb + h3, mb + m3, qb + q3
                    if hc > h or mc > need or qc > pairs:
                        continue
                    wild_melds = need - mc
                    wild_pairs = pairs - qc
                    if h - hc == 3 * wild_melds + 2 * wild_pairs:
                        yield g0 + g1 + g2 + g3, wild_melds, wild_pairs


def _wild_tables() -> tuple[tuple[tuple[RawGroup, ...], ...], tuple[RawGroup, ...]]:
    """Per kind: the all-hun melds it can start or join, and its all-hun pair (built once)."""
    melds = []
    for k in range(NUM_KINDS):
        opts = [RawGroup(SET, k, (k, k, k))]
        if k < HONOR_START:
            for start in (k - 2, k - 1, k):
                if (start >= 0 and start // SUIT_SIZE == k // SUIT_SIZE
                        and start % SUIT_SIZE <= LAST_RUN_RANK):
                    opts.append(RawGroup(RUN, start, (start, start + 1, start + 2)))
        melds.append(tuple(opts))
    return tuple(melds), tuple(RawGroup(PAIR, k, (k, k)) for k in range(NUM_KINDS))


_WILD_MELDS, _WILD_PAIRS = _wild_tables()
WILD_GROUPS: Final[tuple[RawGroup, ...]] = tuple(
    [g for opts in _WILD_MELDS for g in opts] + list(_WILD_PAIRS))
"""Every all-hun group `arrangements` hands out: shared objects, built at import."""
ALL_GROUPS: Final[tuple[RawGroup, ...]] = GROUP_OF + WILD_GROUPS
"""Group code → group, for every group an arrangement holds: `GROUP_OF`'s codes, then one
code per all-hun group (`coded_arrangements` gives each arrangement's codes)."""
ALL_KEYS: Final[tuple[int, ...]] = KEY_OF + tuple([group_key(g.shape, g.first)
                                                   for g in WILD_GROUPS])
"""Group code → its group's `codes.group_key`, as `KEY_OF` over `ALL_GROUPS`."""
# equal all-hun runs are listed under each kind they hold: one code serves them all
_WILD_CODE: Final[dict[RawGroup, int]] = {g: len(GROUP_OF) + i
                                          for i, g in enumerate(WILD_GROUPS)}


def wild_meld_options(kinds: Iterable[int]) -> tuple[RawGroup, ...]:
    """Melds made of three hun, over the given candidate kinds (runs start at them)."""
    return tuple(sorted({g for k in kinds for g in _WILD_MELDS[k]}))


def wild_pair_options(kinds: Iterable[int]) -> tuple[RawGroup, ...]:
    """Pairs made of two hun, over the given candidate kinds."""
    return tuple([_WILD_PAIRS[k] for k in kinds])


def arrangements(layout: Layout, wild_kinds: Callable[[], Sequence[int]]
                 ) -> Iterator[tuple[RawGroup, ...]]:
    """Every arrangement of the concealed part: groups with their hun fills (in no set order).

    `wild_kinds` is called only when all-hun groups occur (5+ hun), since it costs.
    """
    for groups, _ in coded_arrangements(layout, wild_kinds):
        yield groups


def coded_arrangements(layout: Layout, wild_kinds: Callable[[], Sequence[int]]
                       ) -> Iterator[tuple[tuple[RawGroup, ...], tuple[int, ...]]]:
    """`arrangements`, each with its groups' codes (`ALL_GROUPS`, in the same order).

    What a caller needs per group (its key, its facts) is then a table read by code
    (`ALL_KEYS`) instead of a hash of the group, per arrangement.
    """
    all_groups = ALL_GROUPS
    for codes in arrangement_codes(layout, wild_kinds):
        yield tuple([all_groups[c] for c in codes]), codes


def arrangement_codes(layout: Layout, wild_kinds: Callable[[], Sequence[int]]
                      ) -> Iterator[tuple[int, ...]]:
    """`coded_arrangements` as the codes alone, in the same order: a caller that reads a
    group or two of most arrangements (the scan) builds no tuple of groups for them.

    The all-hun options are worked out only as far as a combination needs them: a hand
    whose only all-hun group is a pair (two hun, the commonest case) never lists the melds."""
    kinds: tuple[int, ...] | None = None
    meld_codes: tuple[int, ...] | None = None
    pair_codes: tuple[int, ...] | None = None
    for codes, wm, wp in anchored(layout):
        if wm == 0 and wp == 0:
            yield codes
            continue
        if kinds is None:
            kinds = wild_kind_list(wild_kinds)
        if wm and meld_codes is None:
            meld_codes = wild_meld_codes(kinds)
        if wp and pair_codes is None:
            pair_codes = wild_pair_codes(kinds)
        pairs = pair_codes if wp and pair_codes is not None else _NO_PAIR
        for melds in combinations_with_replacement(meld_codes or (), wm):
            for pair in pairs:
                yield codes + (melds if pair < 0 else melds + (pair,))


# the all-hun melds and pairs an arrangement may hold, by code (`ALL_GROUPS`)
WildCodes = tuple[tuple[int, ...], tuple[int, ...]]
_NO_PAIR: Final = (-1,)


def _meld_order() -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The distinct all-hun melds in `wild_meld_options`' order (sorted groups), as codes;
    and per kind the mask of its melds' places in that order."""
    ordered = sorted({g for opts in _WILD_MELDS for g in opts})
    place = {g: i for i, g in enumerate(ordered)}
    masks = []
    for opts in _WILD_MELDS:
        m = 0
        for g in opts:
            m |= 1 << place[g]
        masks.append(m)
    return tuple([_WILD_CODE[g] for g in ordered]), tuple(masks)


_MELD_ORDER: Final = _meld_order()
_MELD_CODE_AT: Final[tuple[int, ...]] = _MELD_ORDER[0]
"""The distinct all-hun melds' codes in `wild_meld_options`' order."""
_MELD_MASK: Final[tuple[int, ...]] = _MELD_ORDER[1]
"""Kind → the mask of its all-hun melds' places in `_MELD_CODE_AT`."""
_PAIR_CODE: Final[tuple[int, ...]] = tuple([_WILD_CODE[p] for p in _WILD_PAIRS])


def wild_kind_list(wild_kinds: Callable[[], Sequence[int]]) -> tuple[int, ...]:
    """The kinds `wild_kinds` gives that a group can have (a flower kind, 34+, never stands
    in one), sorted and each once."""
    return tuple(sorted({k for k in wild_kinds() if 0 <= k < NUM_KINDS}))


def wild_meld_codes(kinds: Sequence[int]) -> tuple[int, ...]:
    """`wild_meld_options(kinds)` as codes, in its order: the kinds' melds or'ed as a mask
    of their places in the sorted order, read lowest first (no groups sorted per hand)."""
    mask = 0
    masks = _MELD_MASK
    for k in kinds:
        mask |= masks[k]
    out: list[int] = []
    at = _MELD_CODE_AT
    while mask:
        low = mask & -mask
        out.append(at[low.bit_length() - 1])
        mask ^= low
    return tuple(out)


def wild_pair_codes(kinds: Sequence[int]) -> tuple[int, ...]:
    """`wild_pair_options(kinds)` as codes, in its order."""
    pair_code = _PAIR_CODE
    return tuple([pair_code[k] for k in kinds])


def wild_codes(wild_kinds: Callable[[], Sequence[int]]) -> WildCodes:
    """The codes of the all-hun melds and pairs over the kinds `wild_kinds` gives, in the
    order `arrangement_codes` combines them (one hash per option, not per arrangement)."""
    kinds = wild_kind_list(wild_kinds)
    return wild_meld_codes(kinds), wild_pair_codes(kinds)


def is_winning_shape(counts: Sequence[int], hun: int, need_melds: int,
                     need_pairs: int = 1) -> bool:
    """Can these tiles plus `hun` wildcards form `need_melds` melds and `need_pairs` pairs?

    `counts` has one entry per kind (34; other lengths are refused with ValueError). Counts
    the shape tables hold (0 to 4 each) are answered from them, by the question
    `shape.is_win` asks (`shape.fits`), the pair formed or not. Other counts and needs (a
    fifth copy, a negative count, hun or need: a rest with too much taken out) take the
    suit-by-suit search (`_reaches`), which answers them exactly.
    """
    if len(counts) != NUM_KINDS:
        raise ValueError(f"counts must have {NUM_KINDS} kinds, not {len(counts)}")
    if hun < 0 or not 0 <= need_melds <= 4 or not 0 <= need_pairs <= 1:
        return _reaches(counts, hun, need_melds, need_pairs)
    c = list(counts)
    n = 0
    for k in c:
        if k < 0 or k > 4:
            return _reaches(counts, hun, need_melds, need_pairs)
        n += k
    return fits(c, n, hun, need_melds, need_pairs == 1)


def _reaches(counts: Sequence[int], hun: int, need_melds: int, need_pairs: int) -> bool:
    """`is_winning_shape` by the suit-by-suit search (`anchored`), for counts the shape
    tables do not hold: the hand wins when some combination of suit parts leaves exactly
    the hun its all-hun groups take (those form over any kind)."""
    for _ in anchored(Layout(tuple(counts), hun, need_melds, need_pairs)):
        return True
    return False


def suit_shape(counts: tuple[int, ...], base: int, size: int) -> tuple[int, int, int]:
    """One suit of `counts` (kinds base to base + size) as the search reads it: its base-5
    code (-1 outside the shape tables), its tile count, and the fewest hun any of its parts
    uses (`scoring.reach` reads each suit under the hun the others leave, as `anchored`)."""
    code, n = _suit_code(counts, base, size)
    return code, n, _least_hun(base, code, n)


def real_kinds(g: RawGroup) -> list[int]:
    """The kinds of `g`'s real tiles: its kinds less those its hun fill, ascending."""
    real = list(group_kinds(g))
    for fill in g.fills:
        real.remove(fill)
    return real
