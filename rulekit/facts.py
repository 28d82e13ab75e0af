"""Plain facts about one reading of a hand, for compiled patterns to read.

A *reading* is an arrangement plus where the winning tile sits in it (and, when the winning tile
is a hun, what it stands for). Nothing here knows a Tianjin pattern: these are the nouns the DSL
talks about (`docs/dsl.md` lists every one). Hand-level facts are built once per hand and shared
by all of its readings.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Final, Iterable, Iterator

from rulekit.arrange import ALL_GROUPS, GROUP_OF, WILD_GROUPS, RawGroup, group_kinds, real_kinds
from rulekit.codes import (FLOWER_START, HONOR_START, KONG, NUM_KINDS, PAIR, RUN, SET,
                           SUIT_SIZE, TIAO_START, TONG_START, WAN_START, group_key)

SUIT_NAMES: Final = ("wan", "tong", "tiao", "zi")
NUMBERED_SUITS: Final = ("wan", "tong", "tiao")
SHAPE_OF: Final = {RUN: "run", SET: "set", PAIR: "pair", KONG: "kong"}


def suit_name(kind: int) -> str:
    return SUIT_NAMES[min(kind // SUIT_SIZE, 3)] if kind < NUM_KINDS else "hua"


def rank(kind: int) -> int:
    if kind >= FLOWER_START:
        return kind - FLOWER_START + 1
    return kind - HONOR_START + 1 if kind >= HONOR_START else kind % SUIT_SIZE + 1


@dataclass(frozen=True, slots=True, eq=False, init=False)
class GroupFact:
    """One meld or the pair of a reading: frozen, since one object serves every reading and
    every result that has that group (`group_fact`); equal by identity (memo keys)."""

    shape: str
    suit: str
    rank: int
    first: int
    kind: int
    tiles: tuple[int, ...]
    hun: int
    other_hun: int
    fills: tuple[int, ...]
    declared: bool
    concealed: bool
    golden: bool
    has_win: bool

    # written out (init=False), as `ScoreResult`'s: built once per distinct group
    def __init__(self, g: RawGroup, has_win: bool, win_is_hun: bool) -> None:
        hun = len(g.fills)
        object.__setattr__(self, "shape", SHAPE_OF[g.shape])
        object.__setattr__(self, "first", g.first)
        object.__setattr__(self, "kind", g.first)
        object.__setattr__(self, "suit", suit_name(g.first))
        object.__setattr__(self, "rank", rank(g.first))
        object.__setattr__(self, "tiles", group_kinds(g))
        object.__setattr__(self, "fills", g.fills)
        object.__setattr__(self, "hun", hun)
        object.__setattr__(self, "other_hun", hun - (1 if has_win and win_is_hun else 0))
        object.__setattr__(self, "declared", g.declared)
        object.__setattr__(self, "concealed", g.concealed)
        object.__setattr__(self, "golden", g.golden)
        object.__setattr__(self, "has_win", has_win)


class WinFact:
    __slots__ = ("tile", "is_hun", "stands_for", "group")

    def __init__(self, tile: int, is_hun: bool, stands_for: int,
                 group: GroupFact | None) -> None:
        self.tile = tile
        self.is_hun = is_hun
        self.stands_for = stands_for
        self.group = group


class HandFact:
    """The whole hand; its sorted tile lists are made only if a pattern reads them."""

    __slots__ = ("hun", "melds", "kongs", "flowers", "_concealed", "_meld_tiles", "_sorted")

    def __init__(self, hun: int, concealed: tuple[int, ...], meld_tiles: tuple[int, ...],
                 melds: tuple[GroupFact, ...], flowers: tuple[int, ...]) -> None:
        self.hun = hun
        self._concealed = concealed
        self._meld_tiles = meld_tiles
        self._sorted: tuple[tuple[int, ...], tuple[int, ...]] | None = None
        self.melds = melds
        self.kongs = sum(1 for m in melds if m.shape == "kong")
        self.flowers = flowers

    def _lists(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        if self._sorted is None:
            self._sorted = (tuple(sorted(self._concealed + self._meld_tiles)),
                            tuple(sorted(self._concealed)))
        return self._sorted

    @property
    def tiles(self) -> tuple[int, ...]:
        """Every tile: concealed, winning, melds (kongs x4), sorted."""
        return self._lists()[0]

    @property
    def concealed(self) -> tuple[int, ...]:
        """The concealed tiles and the winning tile, sorted."""
        return self._lists()[1]


class HunFact:
    """The hand's hun; `fills` (what they stand for) is worked out only if a pattern asks."""

    __slots__ = ("kinds", "suit", "held", "_raw", "_fills")

    def __init__(self, kinds: tuple[int, ...], held: tuple[int, ...],
                 raw: tuple[RawGroup, ...] = ()) -> None:
        self.kinds = kinds
        self.suit = suit_name(kinds[0])
        self.held = held
        self._raw = raw
        self._fills: tuple[int, ...] | None = None

    @property
    def fills(self) -> tuple[int, ...]:
        if self._fills is None:
            self._fills = tuple(sorted([f for g in self._raw for f in g.fills]))
        return self._fills


class ContextFact:
    __slots__ = ("win_by", "self_draw", "kong_draw", "discard", "last_draw", "heavenly",
                 "discarded_hun", "last_kong", "flowers", "earthly", "ready_declared")

    def __init__(self, win_by: str, heavenly: bool, discarded_hun: bool, last_kong: str,
                 flowers: int, earthly: bool = False, ready_declared: bool = False) -> None:
        self.win_by = win_by
        self.self_draw = win_by == "self_draw"
        self.kong_draw = win_by == "kong_draw"
        self.discard = win_by == "discard"
        self.last_draw = win_by == "last_draw"
        self.heavenly = heavenly
        self.discarded_hun = discarded_hun
        self.last_kong = last_kong
        self.flowers = flowers
        self.earthly = earthly
        self.ready_declared = ready_declared


SHAPE_CODE: Final = {"run": RUN, "set": SET, "pair": PAIR, "kong": KONG}
_SUIT_BASE: Final = {"wan": WAN_START, "tong": TONG_START, "tiao": TIAO_START, "zi": HONOR_START,
                     "hua": FLOWER_START}


def shape_key(shape: int, first: int) -> int:
    """One int per (shape, first tile): the skeleton index holds these."""
    return group_key(shape, first)


def run_key(suit: str, rank_: int) -> int:
    base = _SUIT_BASE.get(suit)
    return -1 if base is None else group_key(RUN, base + rank_ - 1)


class Facts:
    """Everything one pattern evaluation may read. `held` is the mask of the earlier
    patterns that hold (bit: `CompiledPattern.bit`); patterns read each other from it.

    `index` holds `shape_key` of every group, so run()/set()/pair() are set lookups; the
    scorer builds it once per skeleton and passes it in.
    """

    __slots__ = ("groups", "win", "hand", "hun", "context", "suits", "held", "index",
                 "_melds")

    def __init__(self, groups: tuple[GroupFact, ...], win: WinFact | None, hand: HandFact,
                 hun: HunFact, context: ContextFact,
                 index: frozenset[int] | None = None) -> None:
        self.groups = groups
        self.win = win
        self.hand = hand
        self.hun = hun
        self.context = context
        self.suits = NUMBERED_SUITS
        self.held = 0
        self.index = index if index is not None else frozenset(
            shape_key(SHAPE_CODE[g.shape], g.first) for g in groups)
        self._melds: tuple[GroupFact, ...] | None = None

    @property
    def melds(self) -> tuple[GroupFact, ...]:
        if self._melds is None:
            self._melds = tuple(g for g in self.groups if g.shape != "pair")
        return self._melds


@lru_cache(maxsize=512)
def declared_group(kind: str, tile: int, concealed: bool, golden: bool) -> RawGroup:
    """One shared group per kind of declared meld (built per meld per score otherwise)."""
    return RawGroup(KONG if kind == "kong" else SET, tile, (), True, concealed, golden)


_DECLARED: Final[list[tuple[RawGroup, GroupFact] | None]] = [None] * (NUM_KINDS * 8)
"""A declared meld's group and its facts, by (tile, kong or not, concealed, golden): what
`declared_fact` found for it first (272 entries at most)."""


def declared_fact(kind: str, tile: int, concealed: bool, golden: bool
                  ) -> tuple[RawGroup, GroupFact]:
    """A declared meld's group (`declared_group`) and its facts (`group_fact`), from a table:
    a list read, where the two lru caches cost a call and a hash each. Only whether the
    kind is a kong tells melds apart there, so that is all the table's index keeps."""
    if 0 <= tile < NUM_KINDS:
        i = tile * 8 + (4 if kind == "kong" else 0) + (2 if concealed else 0) + int(golden)
        hit = _DECLARED[i]
        if hit is None:
            g = declared_group(kind, tile, concealed, golden)
            hit = _DECLARED[i] = (g, group_fact(g, False, False))
        return hit
    g = declared_group(kind, tile, concealed, golden)
    return g, group_fact(g, False, False)


_SHARED_IDS: Final = frozenset([id(g) for g in GROUP_OF] + [id(g) for g in WILD_GROUPS])
"""The ids of groups that live as long as the module (held by `arrange`'s tables), so an id
in here never comes to stand for another object; `_BY_ID` is bounded by their number."""
_BY_ID: Final[dict[int, GroupFact]] = {}


def group_fact(raw: RawGroup, has_win: bool, win_is_hun: bool) -> GroupFact:
    """Group facts are immutable, so one object serves every reading that has that group.

    The groups of arrangements are shared objects that live as long as the process
    (`arrange.GROUP_OF`, `arrange.WILD_GROUPS`): their facts are kept by the group's id,
    a lookup far cheaper than hashing the group's fields, which the lru_cache did ~20
    times a hand (~700 instructions each). Other groups (declared melds, groups made for
    one hand) go through `_fact_of`, which gives equal groups the one fact as before.
    """
    key = (id(raw) << 2) | (2 if has_win else 0) | (1 if win_is_hun else 0)
    hit = _BY_ID.get(key)
    if hit is not None:
        return hit
    fact = _fact_of(raw, has_win, win_is_hun)
    if id(raw) in _SHARED_IDS:
        _BY_ID[key] = fact
    return fact


FACT_MEMO: Final = 1 << 13
"""Facts of groups that are not shared objects (declared melds, groups made for one hand)
`_fact_of` keeps, least recently used first out: ~480 bytes each (tests/test_memo_bounds.py
measures at most FACT_ENTRY_BYTES), so ~4 MB at most; a hand declares four melds at most."""
FACT_ENTRY_BYTES: Final = 600


@lru_cache(maxsize=FACT_MEMO)
def _fact_of(raw: RawGroup, has_win: bool, win_is_hun: bool) -> GroupFact:
    return GroupFact(raw, has_win, win_is_hun)


def clear_memos() -> None:
    """Forget the group facts kept so far (a cold start: `scoring.score.forget`)."""
    _BY_ID.clear()
    for c in range(len(_PLAIN_BY_CODE)):
        _PLAIN_BY_CODE[c] = None
    for i in range(len(_DECLARED)):
        _DECLARED[i] = None
    _fact_of.cache_clear()
    declared_group.cache_clear()


def held_value(g: RawGroup, name: str, win_is_hun: bool) -> object:
    """`getattr(group_fact(g, True, win_is_hun), name)`, read off the group itself for the
    attributes a win gate checks most (`plan.gate_group_allows`): a 天和's hun winning tile
    meets ~130 groups, whose facts cost more to build than the checks; any other attribute
    through the facts."""
    if name == "shape":
        return SHAPE_OF[g.shape]
    if name == "first" or name == "kind":
        return g.first
    if name == "other_hun":
        return len(g.fills) - (1 if win_is_hun else 0)
    if name == "hun":
        return len(g.fills)
    return getattr(group_fact(g, True, win_is_hun), name)


def plain_facts(raw: tuple[RawGroup, ...]) -> tuple[GroupFact, ...]:
    """The facts of an arrangement's groups, none holding the winning tile: one shared
    object per group (`group_fact`), so an arrangement's facts cost a lookup per group."""
    return tuple([group_fact(g, False, False) for g in raw])


_PLAIN_BY_CODE: Final[list[GroupFact | None]] = [None] * len(ALL_GROUPS)
"""`group_fact(ALL_GROUPS[code], False, False)` by group code, as it is first asked for: the
facts of an arrangement given by its codes are then list reads, not id lookups."""


def coded_facts(codes: tuple[int, ...], at: int = -1, held: GroupFact | None = None
                ) -> tuple[GroupFact, ...]:
    """`plain_facts` of the arrangement whose group codes (`arrange.ALL_GROUPS`) are `codes`;
    with `held`, that fact stands at index `at` instead (the group holding the winning
    tile). The same objects `group_fact` gives."""
    table = _PLAIN_BY_CODE
    out: list[GroupFact] = []
    for j in range(len(codes)):
        if j == at and held is not None:
            out.append(held)
            continue
        c = codes[j]
        f = table[c]
        if f is None:
            f = table[c] = group_fact(ALL_GROUPS[c], False, False)
        out.append(f)
    return tuple(out)


def win_places(raw: tuple[RawGroup, ...], win_tile: int, win_is_hun: bool
               ) -> list[tuple[int, int]]:
    """Every distinct place the winning tile can sit in one arrangement: the index of its
    group in `raw`, and the kind it stands for there.

    A real winning tile sits in a concealed group holding a real tile of its kind; a hun
    winning tile sits in any concealed group with a hun, standing for one of its fills (a
    run's fills are distinct kinds, a set's or pair's all its own kind). A list, not a
    generator: an arrangement has one or two places, fewer than a generator costs to make.
    """
    out: list[tuple[int, int]] = []
    placed: list[RawGroup] = []          # an equal group again gives the same readings
    for i, g in enumerate(raw):
        fills = g.fills
        if win_is_hun:
            if not fills:
                continue
        elif g.shape == RUN:
            # a real tile of its kind: a run holds each kind once, a set or pair only one
            if not g.first <= win_tile <= g.first + 2 or win_tile in fills:
                continue
        elif g.first != win_tile or len(fills) == len(group_kinds(g)):
            continue
        if placed and g in placed:
            continue
        placed.append(g)
        if not win_is_hun:
            out.append((i, win_tile))
        elif g.shape == RUN:
            out += [(i, k) for k in fills]
        else:
            out.append((i, fills[0]))
    return out


def _real_mask(g: RawGroup) -> int:
    mask = 0
    if g.shape >= 0:
        for k in real_kinds(g):
            mask |= 1 << k
    return mask


_REAL_MASK: Final[tuple[int, ...]] = tuple([_real_mask(g) for g in ALL_GROUPS])
"""Group code → the kinds of its real tiles, as bits (0 for the unused codes)."""
_HAS_FILLS: Final[tuple[bool, ...]] = tuple([bool(g.fills) for g in ALL_GROUPS])
"""Group code → whether a hun stands in the group."""


def coded_win_places(codes: tuple[int, ...], win_tile: int, win_is_hun: bool
                     ) -> list[tuple[int, int]]:
    """`win_places` of an arrangement given with its groups' codes (`arrange.ALL_GROUPS`):
    the same places in the same order, read from tables by code. A real winning tile sits
    in a group holding a real tile of its kind, a hun winning tile in a group with a hun;
    equal groups have equal codes (one code per group), so a code met again is skipped."""
    out: list[tuple[int, int]] = []
    for i in range(len(codes)):
        c = codes[i]
        if win_is_hun:
            if not _HAS_FILLS[c]:
                continue
        elif not _REAL_MASK[c] >> win_tile & 1:
            continue
        met = False                 # an equal group before it: placed there already
        for j in range(i):
            if codes[j] == c:
                met = True
                break
        if met:
            continue
        if not win_is_hun:
            out.append((i, win_tile))
            continue
        g = ALL_GROUPS[c]
        if g.shape == RUN:
            for k in g.fills:
                out.append((i, k))
        else:
            out.append((i, g.fills[0]))
    return out


def readings(raw: tuple[RawGroup, ...], plain: tuple[GroupFact, ...],
             declared: tuple[GroupFact, ...], win_tile: int, win_is_hun: bool
             ) -> Iterator[tuple[tuple[GroupFact, ...], WinFact]]:
    """Every distinct reading of one arrangement (`win_places`): its groups and winning tile.
    `plain` are the arrangement's group facts with no winning tile, in `raw`'s order."""
    for i, stands in win_places(raw, win_tile, win_is_hun):
        held = group_fact(raw[i], True, win_is_hun)
        yield (plain[:i] + (held,) + plain[i + 1:] + declared,
               WinFact(win_tile, win_is_hun, stands, held))
