"""Per-ruleset planning: which patterns count, at which level each is judged, and what a
pattern's needs rule out before any arrangement is tried (the bounds' inputs).

A set of patterns is a *mask*, an int: each pattern has its bit (`CompiledPattern.bit`,
from its place in the ruleset's source order), and `Facts.held` is the same kind of mask.
Memo keys built from masks hash and compare at the cost of an int, and the garbage
collector never has to walk them (a frozenset of ids, or a tuple holding one, it must)."""
from __future__ import annotations

from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any, Callable, Final, Iterable

from rulekit.arrange import RawGroup
from rulekit.codes import KEY_LIMIT
from rulekit.dsl.compile import CompiledPattern
from rulekit.dsl.vocabulary import ARRANGEMENT, HAND, READING, SKELETON, path_dep
from rulekit.facts import SHAPE_CODE, held_value
from rulekit.ruleset.model import Ruleset
from rulekit.scoring.abstract import reads_rest

# the facts of the winning tile's group a need may name (`win.group.<attr>`)
WIN_GROUP_ATTRS = ("shape", "suit", "rank", "first", "kind", "hun", "other_hun",
                   "declared", "concealed", "golden", "has_win")


# Where a need of a win-gated pattern finds its value (`Scorer.group_allows`): a fact of the
# winning tile's group, or one of the winning tile's own; as bits, which of them any reads
_FROM_GROUP: Final = 1
_FROM_TILE: Final = 2
_FROM_IS_HUN: Final = 4
_FROM_STANDS_FOR: Final = 8
READS_TILE: Final = _FROM_TILE
READS_STANDS_FOR: Final = _FROM_STANDS_FOR
# (where from, the group fact's name, the value, whether it must equal it)
GateCheck = tuple[int, str, Any, bool]
# A check on the winning tile's group as `gate_group_allows` runs it: what it reads off the
# raw group (its shape code, first kind, hun or hun besides the winning tile; any other fact
# through `held_value`), the value (a shape by its code), equal?, the fact's name
GroupCheck = tuple[int, Any, bool, str]
# (Final: compiled, each is a constant, not a read of the module's globals)
_READ_SHAPE: Final = 0
_READ_FIRST: Final = 1
_READ_HUN: Final = 2
_READ_OTHER_HUN: Final = 3
_READ_FACT: Final = 4


@dataclass(frozen=True, slots=True)
class Plan:
    """Per-ruleset split of the patterns by what they read, and which exclude each other."""

    by_level: tuple[tuple[CompiledPattern, ...], ...]    # HAND, SKELETON, ARRANGEMENT, READING
    # each level's patterns' bits, in the same order, and each level's mask
    level_bits: tuple[tuple[int, ...], ...]
    level_masks: tuple[int, ...]
    ids: tuple[str, ...]              # bit i of a mask is the pattern ids[i]
    bit: dict[str, int]               # pattern id -> its bit (`CompiledPattern.bit`)
    valued: int                       # the patterns the fan algebra values: all a fan reads
    # a valued pattern's bit -> the bits of the valued patterns it never holds with
    excludes: dict[int, int]
    # every index key the skeleton-level patterns can ask about, when all of them only
    # make shape queries (None otherwise): skeletons agreeing on these keys agree on them
    queries: frozenset[int] | None
    query_keys: tuple[int, ...] = ()        # the same, sorted: bit i of a reach is key i
    # reading-level patterns with a need on the winning tile's group: which group can hold
    # the winning tile decides whether they can hold at all (`scan.win_group_checked`)
    win_gated: tuple[CompiledPattern, ...] = ()
    gated: int = 0                    # the same, as a mask
    # getters for the hand-level facts skeleton-level patterns read, when those are all they
    # read besides shape queries: their results can then be shared between hands (None: not)
    skeleton_reads: tuple[Callable[[Any], Any], ...] | None = None
    query_bit: dict[int, int] = field(default_factory=dict)   # key -> 1 << its place
    # the same by index: group key -> its bit, 0 for a key no pattern queries (every group
    # key is below codes.KEY_LIMIT)
    key_bits: tuple[int, ...] = ()
    # each win-gated pattern's bit and the needs `group_allows` checks, and where from
    # any of them reads (so a memo key leaves out what none reads)
    gate_checks: tuple[tuple[int, tuple[GateCheck, ...]], ...] = ()
    # the same patterns' checks on the group, as `gate_group_allows` runs them
    group_checks: tuple[tuple[int, tuple[GroupCheck, ...]], ...] = ()
    gate_reads: int = 0
    # whether a counted pattern reads the winning tile itself (`win.tile`): if none does,
    # the place search reads a 天和's hun winning tiles as one (their readings are alike)
    reads_win_tile: bool = True
    # the arrangement- and reading-level patterns the rest of the hand can decide beyond
    # their needs (`abstract.reads_rest`): the place search reads them abstractly
    rest_read: int = 0

    def ids_of(self, mask: int) -> frozenset[str]:
        """The pattern ids of a mask (for the fan algebra, on a table miss only)."""
        ids = self.ids
        return frozenset([ids[i] for i in range(len(ids)) if mask >> i & 1])

    def projection(self, keys: Iterable[int]) -> int:
        """Which queried keys the group keys `keys` hold, as bits (an int keys memos
        cheaply). Runs per skeleton: a table index per key, not a dict lookup."""
        table = self.key_bits
        bits = 0
        for k in keys:
            bits |= table[k]
        return bits


def counted_patterns(rs: Ruleset) -> tuple[CompiledPattern, ...]:
    """Only patterns that count somewhere: those the algebra values, the ones they refer to,
    and the ones forbid / instant_win / adjust_total conditions read."""
    by_id = {p.id: p for p in rs.patterns}
    wanted = set(rs.algebra.ids)
    for cond in (*rs.forbids, *(c for c, _ in rs.instant_wins),
                 *(r.condition for r in rs.total_rules)):
        wanted |= cond.refs
    stack = list(wanted)
    while stack:
        p = by_id.get(stack.pop())
        if p is not None:
            for r in p.refs - wanted:
                wanted.add(r)
                stack.append(r)
    return tuple(p for p in rs.patterns if p.id in wanted)


def build_plan(rs: Ruleset) -> Plan:
    pats = counted_patterns(rs)
    bit = {p.id: p.bit for p in rs.patterns}
    width = max((p.bit.bit_length() for p in rs.patterns), default=0)
    by_bit = {p.bit: p.id for p in rs.patterns}
    ids = tuple(by_bit.get(1 << i, "") for i in range(width))
    valued_ids = rs.algebra.ids
    valued = 0
    for pid in valued_ids:
        valued |= bit.get(pid, 0)
    excludes: dict[int, int] = {}
    for i, a in enumerate(pats):
        for b in pats[i + 1:]:
            if (a.excludes(b) or b.excludes(a)) and a.id in valued_ids and b.id in valued_ids:
                excludes[bit[a.id]] = excludes.get(bit[a.id], 0) | bit[b.id]
                excludes[bit[b.id]] = excludes.get(bit[b.id], 0) | bit[a.id]
    levels = tuple(tuple(p for p in pats if p.dep == lv)
                   for lv in (HAND, SKELETON, ARRANGEMENT, READING))
    level_bits = tuple(tuple(bit[p.id] for p in lv) for lv in levels)
    level_masks = tuple(sum(lv) for lv in level_bits)
    queries: frozenset[int] | None = frozenset()
    for p in levels[SKELETON]:
        queries = None if (queries is None or p.queries is None) else queries | p.queries
    gated = tuple(p for p in levels[READING]
                  if any(path.startswith("win.group.") or path == "win.stands_for"
                         for path, _, _ in p.needs))
    reads = sorted(set().union(*(p.reads for p in levels[SKELETON])))
    skeleton_reads = (tuple(attrgetter(r) for r in reads)
                    if queries is not None and all(path_dep(r) == HAND for r in reads)
                    else None)
    keys = tuple(sorted(queries or ()))
    query_bit = {k: 1 << i for i, k in enumerate(keys)}
    checks = tuple((bit[p.id], gate_checks(p)) for p in gated)
    sources = 0
    for _, cs in checks:
        for source, _, _, _ in cs:
            sources |= source
    return Plan(levels, level_bits, level_masks, ids, bit, valued, excludes, queries, keys,
                gated, sum(bit[p.id] for p in gated), skeleton_reads, query_bit,
                key_bits=tuple(query_bit.get(k, 0) for k in range(KEY_LIMIT)),
                gate_checks=checks, group_checks=group_checks(checks), gate_reads=sources,
                reads_win_tile=any(r == "win" or r.startswith("win.tile")
                                   for p in pats for r in p.reads),
                rest_read=sum(bit[p.id] for p in levels[ARRANGEMENT] + levels[READING]
                              if reads_rest(p)))


def gate_checks(p: CompiledPattern) -> tuple[GateCheck, ...]:
    """The needs of a win-gated pattern that a group of the winning tile can decide: those
    on the group's facts (`WIN_GROUP_ATTRS`) and on the winning tile itself, the group's
    shape first (the cheapest no)."""
    out: list[GateCheck] = []
    for path, value, equal in p.needs:
        if path == "win.tile":
            out.append((_FROM_TILE, "", value, equal))
        elif path == "win.is_hun":
            out.append((_FROM_IS_HUN, "", value, equal))
        elif path == "win.stands_for":
            out.append((_FROM_STANDS_FOR, "", value, equal))
        elif path.startswith("win.group.") and path[len("win.group."):] in WIN_GROUP_ATTRS:
            out.append((_FROM_GROUP, path[len("win.group."):], value, equal))
    return tuple(sorted(out, key=lambda c: (c[1] != "shape", c[0], c[1], repr(c[2]))))


def group_checks(checks: tuple[tuple[int, tuple[GateCheck, ...]], ...]
                 ) -> tuple[tuple[int, tuple[GroupCheck, ...]], ...]:
    """Each gated pattern's bit with its checks on the winning tile's group, in order, as
    `gate_group_allows` runs them: the facts it checks most read off the raw group as ints
    (a shape named by its code: `SHAPE_OF` is one to one, so the answers are the same)."""
    out = []
    for bit, cs in checks:
        mine: list[GroupCheck] = []
        for source, name, value, equal in cs:
            if source != _FROM_GROUP:
                continue
            if name == "shape" and isinstance(value, str) and value in SHAPE_CODE:
                mine.append((_READ_SHAPE, SHAPE_CODE[value], equal, name))
            elif name in ("first", "kind"):
                mine.append((_READ_FIRST, value, equal, name))
            elif name in ("hun", "other_hun"):
                mine.append((_READ_HUN if name == "hun" else _READ_OTHER_HUN, value, equal,
                             name))
            else:
                mine.append((_READ_FACT, value, equal, name))
        out.append((bit, tuple(mine)))
    return tuple(out)


def gate_group_allows(checks: tuple[tuple[int, tuple[GroupCheck, ...]], ...], g: RawGroup,
                      win_is_hun: bool) -> int:
    """The bits of the patterns whose checks on the winning tile's group (`g`; `checks`
    from `group_checks`: shape, kind and hun read off the raw group, any other fact by
    `held_value`) all pass: `possible` on those needs, without a dict of known facts or a
    group's facts built. A pattern
    can hold in that place when it passes this and `gate_tile_allows`: two parts, the
    first kept per group (`Scorer.group_allows`), the second cheap enough to run every
    time."""
    out = 0
    hun = len(g.fills)
    for bit, cs in checks:
        ok = True
        for read, value, equal, name in cs:
            got: object
            if read == _READ_SHAPE:
                got = g.shape
            elif read == _READ_FIRST:
                got = g.first
            elif read == _READ_HUN:
                got = hun
            elif read == _READ_OTHER_HUN:
                got = hun - 1 if win_is_hun else hun
            else:
                got = held_value(g, name, win_is_hun)
            if (got == value) != equal:
                ok = False
                break
        if ok:
            out |= bit
    return out


def gate_tile_allows(checks: tuple[tuple[int, tuple[GateCheck, ...]], ...], win_tile: int,
                     win_is_hun: bool, stands_for: int) -> int:
    """The bits of the patterns whose checks on the winning tile itself all pass."""
    out = 0
    for bit, cs in checks:
        ok = True
        for source, _, value, equal in cs:
            if source == _FROM_GROUP:
                continue
            got: Any = (win_tile if source == _FROM_TILE else win_is_hun
                        if source == _FROM_IS_HUN else stands_for)
            if (got == value) != equal:
                ok = False
                break
        if ok:
            out |= bit
    return out


def possible(p: CompiledPattern, known: dict[str, Any], most: dict[str, int]) -> bool:
    """False when a need of `p` contradicts what this hand already shows.

    `known` holds facts fixed for the hand; `most` upper bounds of counts (a group cannot
    hold more hun than the hand has).
    """
    for path, value, equal in p.needs:
        if path in known and (known[path] == value) != equal:
            return False
        if (equal and path in most and isinstance(value, int) and not isinstance(value, bool)
                and value > most[path]):
            return False
    return True
