"""Hand → arrangements → pattern facts → fan algebra → a `ScoreResult`.

The pipeline is the same for every ruleset; all that is Tianjin lives in the ruleset's data.
Patterns that read only the hand and its context are evaluated once; the rest once per
reading (arrangement + place of the winning tile). Exploration stops as soon as a reading
reaches the best fan the algebra allows for this hand, so hands rich in hun stay fast.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any, Callable, Iterable, Mapping

from rulekit import arrange
from rulekit.algebra import Breakdown, Term, num
from rulekit.arrange import Layout, RawGroup
from rulekit.dsl.compile import CompiledPattern
from rulekit.dsl.vocabulary import ARRANGEMENT, HAND, READING, SKELETON, path_dep
from rulekit.facts import (ContextFact, Facts, GroupFact, HandFact, HunFact, WinFact,
                           declared_group, group_fact, readings)
from rulekit.hand import Hand
from rulekit.ruleset.model import Ruleset
from rulekit.tiles import format_tiles, tile_name

NOT_A_WINNING_SHAPE = "not_a_winning_shape"
BELOW_MINIMUM = "below_minimum"


@dataclass(frozen=True, slots=True)
class GroupView:
    """A group of the best arrangement, as shown to a player."""

    shape: str
    tiles: str
    hun_as: str          # what the hun in it stand for, e.g. "5m"
    declared: bool
    concealed: bool
    has_win: bool

    def to_dict(self) -> dict[str, Any]:
        return {"shape": self.shape, "tiles": self.tiles, "hun_as": self.hun_as,
                "declared": self.declared, "concealed": self.concealed, "win": self.has_win}


@dataclass(frozen=True, slots=True, init=False)
class ScoreResult:
    win: bool
    hand_fan: int | float
    kong_fan: int | float
    total_fan: int | float
    patterns: tuple[str, ...]
    pattern_names: tuple[str, ...]
    explain: tuple[str, ...]
    reason: str | None = None
    win_tile: str | None = None
    groups: tuple[GroupFact, ...] = field(default=(), repr=False, compare=False)
    kongs: tuple[str, ...] = ()          # exposed / concealed / golden, in meld order

    # Written out (init=False) because one is built per score: compiled by mypyc this runs
    # in ~30 ns, where the __init__ dataclasses generates runs as Python (~0.8 us).
    def __init__(self, win: bool, hand_fan: int | float, kong_fan: int | float,
                 total_fan: int | float, patterns: tuple[str, ...],
                 pattern_names: tuple[str, ...], explain: tuple[str, ...],
                 reason: str | None = None, win_tile: str | None = None,
                 groups: tuple[GroupFact, ...] = (), kongs: tuple[str, ...] = ()) -> None:
        object.__setattr__(self, "win", win)
        object.__setattr__(self, "hand_fan", hand_fan)
        object.__setattr__(self, "kong_fan", kong_fan)
        object.__setattr__(self, "total_fan", total_fan)
        object.__setattr__(self, "patterns", patterns)
        object.__setattr__(self, "pattern_names", pattern_names)
        object.__setattr__(self, "explain", explain)
        object.__setattr__(self, "reason", reason)
        object.__setattr__(self, "win_tile", win_tile)
        object.__setattr__(self, "groups", groups)
        object.__setattr__(self, "kongs", kongs)

    @property
    def arrangement(self) -> tuple[GroupView, ...]:
        """The best arrangement, formatted only when someone asks (scoring stays fast)."""
        return tuple(_view(g) for g in self.groups)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "win": self.win, "hand_fan": self.hand_fan, "kong_fan": self.kong_fan,
            "total_fan": self.total_fan, "patterns": list(self.patterns),
            "pattern_names": list(self.pattern_names), "explain": list(self.explain),
        }
        if self.reason is not None:
            out["reason"] = self.reason
        if self.win_tile is not None:
            out["win_tile"] = self.win_tile
        if self.arrangement:
            out["arrangement"] = [g.to_dict() for g in self.arrangement]
        out["kongs"] = list(self.kongs)
        return out


@dataclass(frozen=True, slots=True)
class _Plan:
    """Per-ruleset split of the patterns by what they read, and which exclude each other."""

    by_level: tuple[tuple[CompiledPattern, ...], ...]    # HAND, SKELETON, ARRANGEMENT, READING
    exclusive: frozenset[frozenset[str]]
    # every index key the skeleton-level patterns can ask about, when all of them only
    # make shape queries (None otherwise): skeletons agreeing on these keys agree on them
    queries: frozenset[int] | None
    query_keys: tuple[int, ...] = ()        # the same, sorted: bit i of a reach is key i
    # reading-level patterns with a need on the winning tile's group: which group can hold
    # the winning tile decides whether they can hold at all (`_win_group_checked`)
    win_gated: tuple[CompiledPattern, ...] = ()
    # getters for the hand-level facts skeleton-level patterns read, when those are all they
    # read besides shape queries: their results can then be shared between hands (None: not)
    level1_reads: tuple[Callable[[Any], Any], ...] | None = None
    query_bit: dict[int, int] = field(default_factory=dict)   # key -> 1 << its place

    def projection(self, keys: Iterable[int]) -> int:
        """Which queried keys `keys` hold, as bits (an int keys memos cheaply)."""
        bit = self.query_bit
        bits = 0
        for k in keys:
            bits |= bit.get(k, 0)
        return bits


def _plan(rs: Ruleset) -> _Plan:
    plan = rs.memo.get("plan")
    if plan is None:
        # only patterns that count somewhere are evaluated: those the algebra values, the
        # ones they refer to, and the ones forbid / instant_win / adjust_total conditions read
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
        pats = tuple(p for p in rs.patterns if p.id in wanted)
        exclusive = frozenset(frozenset((a.id, b.id)) for i, a in enumerate(pats)
                              for b in pats[i + 1:] if a.excludes(b) or b.excludes(a))
        levels = tuple(tuple(p for p in pats if p.dep == lv)
                       for lv in (HAND, SKELETON, ARRANGEMENT, READING))
        queries: frozenset[int] | None = frozenset()
        for p in levels[1]:
            queries = None if (queries is None or p.queries is None) else queries | p.queries
        gated = tuple(p for p in levels[3]
                      if any(path.startswith("win.group.") or path == "win.stands_for"
                             for path, _, _ in p.needs))
        reads = sorted(set().union(*(p.reads for p in levels[1])))
        level1_reads = (tuple(attrgetter(r) for r in reads)
                        if queries is not None and all(path_dep(r) == HAND for r in reads)
                        else None)
        keys = tuple(sorted(queries or ()))
        plan = rs.memo["plan"] = _Plan(levels, exclusive, queries, keys, gated, level1_reads,
                                        {k: 1 << i for i, k in enumerate(keys)})
    return plan


def _bound(rs: Ruleset, plan: _Plan, held: frozenset[str], free: frozenset[str]) -> float:
    key = ("bound", held, free)
    value = rs.memo.get(key)
    if value is None:
        value = rs.memo[key] = rs.algebra.upper_bound(held, sorted(free), plan.exclusive)
    return value


def _win_group_checked(s: "_State", win_tile: int, possible: frozenset[str]
                       ) -> tuple[frozenset[str], list[RawGroup]]:
    """`possible` less the reading-level patterns that no group of the winning tile allows,
    and the groups that do allow one, most valuable first.

    Such a pattern needs something of the group holding the winning tile (混吊: the pair,
    with one other hun). Only a few groups can hold a real winning tile; if none that meets
    the needs leaves a completable rest, no reading has the pattern and the bound drops.
    The groups that pass are where the valuable readings are: the search tries them first.
    """
    rs, plan, layout = s.rs, s.plan, s.layout
    out = possible
    groups = arrange.groups_holding(layout.counts, layout.hun, win_tile)
    feasible: dict[RawGroup, bool] = {}
    allows: dict[RawGroup, set[str]] = {}
    for p in plan.win_gated:
        if p.id not in possible:
            continue
        found = False
        for g in groups:
            if not _group_allows(rs, p, g, win_tile):
                continue
            ok = feasible.get(g)
            if ok is None:
                ok = feasible[g] = arrange.rest_wins(layout, g)
            if ok:
                found = True
                allows.setdefault(g, set()).add(p.id)
        if not found:
            out = out - {p.id}
    if not allows:
        return out, []
    gated = frozenset(p.id for p in plan.win_gated)
    ranked = sorted(((-_bound(rs, plan, s.fixed, (out - gated) | frozenset(ids)), i, g)
                     for i, (g, ids) in enumerate(allows.items())))
    return out, [g for _, _, g in ranked]


def _search_groups_first(s: "_State", win_tile: int, groups: list[RawGroup],
                         possible: frozenset[str], free12: frozenset[str], bound_all: float,
                         cand_win: WinFact, projections: Projections, tag: Any) -> None:
    """The readings with the real winning tile in one of `groups`, before all the others.

    Each is one of the groups plus an arrangement of the tiles left. The full search runs
    afterwards and sees them again, by then mostly cut by the bound.
    """
    rs, plan = s.rs, s.plan
    _, _, level2, level3 = plan.by_level
    fans: dict[frozenset[str], Breakdown] = rs.memo.setdefault("fans", {})
    for g in groups:
        held_g = group_fact(g, True, False)
        win = WinFact(win_tile, False, win_tile, held_g)
        for rest_raw in arrange.arrangements(arrange.rest_layout(s.layout, g), s.wild):
            raw = rest_raw + (g,)
            skey = tuple(sorted([x[0] * 64 + x[1] for x in raw]))
            pats1, held1, index, hun_fact, _ = _skeleton(s, raw, skey, cand_win, possible,
                                                         projections, tag)
            if _bound(rs, plan, held1, free12) <= s.best_fan:
                continue
            groups_ = tuple([group_fact(x, False, False) for x in rest_raw]) + (held_g,)
            groups_ += s.declared
            pats = dict(pats1)
            f = Facts(groups_, win, s.hand_fact, hun_fact, s.context, index)
            f.pats = pats
            for p in level2:
                pats[p.id] = p.id in possible and bool(p.fn(f))
            for p in level3:
                pats[p.id] = p.id in possible and bool(p.fn(f))
            held = _interned(rs, frozenset([k for k, v in pats.items() if v]))
            bd = fans.get(held)
            if bd is None:
                bd = fans[held] = rs.algebra.fan(held)
            if bd.fan > s.best_fan:
                s.best_fan, s.best = float(bd.fan), (bd, groups_, win_tile, held)
                if s.best_fan >= bound_all:
                    return


def _group_allows(rs: Ruleset, p: CompiledPattern, g: RawGroup, win_tile: int) -> bool:
    """Can `p` hold when the real winning tile sits in `g`? (By its needs; memoised.)"""
    key = ("allows", p.id, g, win_tile)
    hit: bool | None = rs.memo.get(key)
    if hit is None:
        held = group_fact(g, True, False)
        known: dict[str, Any] = {"win.tile": win_tile, "win.is_hun": False,
                                 "win.stands_for": win_tile}
        for attr in ("shape", "suit", "rank", "first", "kind", "hun", "other_hun",
                     "declared", "concealed", "golden", "has_win"):
            known["win.group." + attr] = getattr(held, attr)
        hit = rs.memo[key] = _possible(p, known, {})
    return hit


def _possible(p: CompiledPattern, known: dict[str, Any], most: dict[str, int]) -> bool:
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


def _limits(rs: Ruleset, plan: _Plan, fixed: frozenset[str], win_tile: int,
            win_is_hun: bool, held_hun: int
            ) -> tuple[frozenset[str], frozenset[str], frozenset[str], float]:
    """Which patterns can still hold given what the hand already shows, and the best fan.

    Memoised per ruleset: it depends only on the hand-level patterns, the winning tile and
    how many hun the hand holds.
    """
    key = ("limits", fixed, win_tile, win_is_hun, held_hun)
    hit = rs.memo.get(key)
    if hit is None:
        known: dict[str, Any] = {"win.tile": win_tile, "win.is_hun": win_is_hun,
                                 "hand.hun": held_hun}
        if not win_is_hun:
            known["win.stands_for"] = win_tile
        others = held_hun - (1 if win_is_hun else 0)
        most = {"win.group.other_hun": others, "win.group.hun": held_hun}
        _, level1, level2, level3 = plan.by_level
        possible = frozenset(p.id for lv in (level1, level2, level3) for p in lv
                             if _possible(p, known, most))
        free12 = possible - {p.id for p in level1}
        free3 = frozenset(p.id for p in level3) & possible
        hit = rs.memo[key] = (possible, free12, free3, _bound(rs, plan, fixed, possible))
    return hit


# From this many hun on, the search first works out which skeleton-level patterns any
# arrangement can make true (`_held1_options`): a tight bound that pays once arrangements
# are many, and costs more than it saves below (measured).
TIGHT_BOUND_HUN = 3


class _State:
    """What one hand's search shares between its steps: built once per hand."""

    __slots__ = ("rs", "plan", "indep", "fixed", "hand_fact", "context", "hun_kinds",
                 "held_hun", "declared", "declared_keys", "declared_bits", "layout", "wild",
                 "best_fan", "best")

    def __init__(self, rs: Ruleset, plan: _Plan, indep: dict[str, bool], fixed: frozenset[str],
                 hand_fact: HandFact, context: ContextFact, hun_kinds: tuple[int, ...],
                 held_hun: tuple[int, ...], declared: tuple[GroupFact, ...],
                 declared_keys: frozenset[int], layout: Layout, wild: "_WildDomain") -> None:
        self.rs = rs
        self.plan = plan
        self.indep = indep
        self.fixed = fixed
        self.hand_fact = hand_fact
        self.context = context
        self.hun_kinds = hun_kinds
        self.held_hun = held_hun
        self.declared = declared
        self.declared_keys = declared_keys
        self.declared_bits = plan.projection(declared_keys)
        self.layout = layout
        self.wild = wild
        self.best_fan = -1.0
        self.best: tuple[Breakdown, tuple[GroupFact, ...], int, frozenset[str]] | None = None


def score_hand(hand: Hand, rs: Ruleset) -> ScoreResult:
    """Score a validated hand under a ruleset. Never raises for a legal `Hand`."""
    plan = _plan(rs)
    hand_level = plan.by_level[0]
    hun_set = frozenset(hand.hun)
    concealed_all = hand.concealed + (hand.win_tile,)
    meld_tiles: tuple[int, ...] = ()
    for m in hand.melds:
        meld_tiles += (m.tile,) * (4 if m.kind == "kong" else 3)
    declared_raw = tuple(declared_group(m.kind, m.tile, m.concealed, m.golden)
                         for m in hand.melds)
    declared = tuple(group_fact(d, False, False) for d in declared_raw)
    declared_keys = frozenset(d[0] * 64 + d[1] for d in declared_raw)
    kong_kinds = tuple(m.kong_type for m in hand.melds if m.kong_type is not None)
    kong_fan = sum(rs.kong_points[k] for k in kong_kinds)
    context = ContextFact(hand.win_by, hand.heavenly, hand.discarded_hun,
                          kong_kinds[-1] if kong_kinds else "none",
                          len(hand.flowers), hand.earthly, hand.ready_declared)
    held_hun = tuple(sorted(t for t in concealed_all if t in hun_set))
    hand_fact = HandFact(len(held_hun), concealed_all, meld_tiles, declared, hand.flowers)

    # hand-level patterns, once; they may read the winning tile but not where it sits
    win_is_hun = hand.win_tile in hun_set
    base = Facts((), WinFact(hand.win_tile, win_is_hun, hand.win_tile, None), hand_fact,
                 HunFact(hand.hun, held_hun), context)
    indep: dict[str, bool] = {}
    base.pats = indep
    for p in hand_level:
        indep[p.id] = bool(p.fn(base))
    forbidden = next((f.id for f in rs.forbids if f.fn(base)), None)
    for cond, fan in rs.instant_wins:
        if cond.fn(base):
            term = Term(cond.id, cond.name, num(fan), "instant")
            return _finish(rs, base, Breakdown(num(fan), (term,), f"{cond.name} {num(fan)}"),
                           (), hand.win_tile, kong_fan, kong_kinds, forbidden, instant=True)

    counts = [0] * 34
    for t in concealed_all:
        if t not in hun_set:
            counts[t] += 1
    layout = Layout(tuple(counts), len(held_hun), 4 - len(hand.melds))
    fixed = _interned(rs, frozenset([k for k, v in indep.items() if v]))
    if hand.heavenly and rs.heavenly_free_winning_tile:
        candidates = tuple(sorted(set(concealed_all)))
    else:
        candidates = (hand.win_tile,)
    state = _State(rs, plan, indep, fixed, hand_fact, context, hand.hun, held_hun, declared,
                   declared_keys, layout, _WildDomain(rs, concealed_all, hand.hun))
    _search_arrangements(state, candidates)
    best = state.best
    if best is None:
        return ScoreResult(False, 0, num(kong_fan), num(kong_fan), (), (),
                           ("not a winning shape: no four melds and a pair",),
                           forbidden or NOT_A_WINNING_SHAPE, kongs=kong_kinds)
    bd, groups, win_tile, held = best
    return _finish(rs, base, bd, groups, win_tile, kong_fan, kong_kinds, forbidden, held=held)


Projections = dict[Any, tuple[dict[str, bool], frozenset[str]]]


def _interned(rs: Ruleset, value: frozenset[str]) -> frozenset[str]:
    """The one frozenset equal to `value` that this ruleset keeps.

    Memo keys built from it then match by identity instead of comparing elements, which a
    profile showed as the main cost of the scorer's dictionary lookups.
    """
    pool: dict[frozenset[str], frozenset[str]] = rs.memo.setdefault("interned", {})
    return pool.setdefault(value, value)


def _with(rs: Ruleset, held: frozenset[str], more: tuple[str, ...]) -> frozenset[str]:
    """`held | more`, interned; memoised on the (interned) `held` and the ids added."""
    memo: dict[tuple[frozenset[str], tuple[str, ...]], frozenset[str]] = (
        rs.memo.setdefault("with", {}))
    key = (held, more)
    hit = memo.get(key)
    if hit is None:
        hit = memo[key] = _interned(rs, held | frozenset(more))
    return hit


def _projections(s: _State, cand_win: WinFact, possible: frozenset[str]
                 ) -> tuple[Projections, Any]:
    """Where skeleton-level results are kept, and the tag their keys carry.

    When those patterns read only shape queries and hand-level facts, a result depends on
    the projection, the hand-level patterns, the patterns still possible and the facts read:
    it is kept per ruleset, tagged with these, and serves every later hand that agrees.
    Otherwise it is kept for this hand only.
    """
    getters = s.plan.level1_reads
    if getters is None:
        return {}, None
    f = Facts((), cand_win, s.hand_fact, HunFact(s.hun_kinds, s.held_hun), s.context)
    shared: Projections = s.rs.memo.setdefault("level1", {})
    # the tag becomes a small int once per hand, so the per-skeleton lookups stay cheap
    tags: dict[Any, int] = s.rs.memo.setdefault("level1 tags", {})
    return shared, tags.setdefault((s.fixed, possible, tuple([get(f) for get in getters])),
                                   len(tags))


def _skeleton(s: _State, raw: tuple[RawGroup, ...], skey: tuple[int, ...],
              cand_win: WinFact, possible: frozenset[str], projections: Projections,
              tag: Any) -> tuple[dict[str, bool], frozenset[str], frozenset[int], HunFact,
                                 tuple[GroupFact, ...] | None]:
    """Skeleton-level patterns of one skeleton: shared by every skeleton with the same
    projection on the patterns' shape queries, when they only make such queries."""
    plan = s.plan
    level1 = plan.by_level[1]
    index = frozenset(skey) | s.declared_keys
    proj: Any = (plan.projection(skey) | s.declared_bits if plan.queries is not None
                 else skey)
    if tag is not None:
        proj = (proj, tag)
    known1 = projections.get(proj)
    plain = None
    hun_fact = None
    if known1 is None:
        if level1:
            plain = tuple([group_fact(g, False, False) for g in raw])
            hun_fact = HunFact(s.hun_kinds, s.held_hun, raw)
            known1 = _level1(s, plain + s.declared, cand_win, hun_fact, index, possible)
        else:
            known1 = (dict(s.indep), s.fixed)
        projections[proj] = known1
    if hun_fact is None:
        hun_fact = HunFact(s.hun_kinds, s.held_hun, raw)
    return known1[0], known1[1], index, hun_fact, plain


def _search_arrangements(s: _State, candidates: tuple[int, ...]) -> None:
    """Every arrangement, then every place of the winning tile in it."""
    rs, plan = s.rs, s.plan
    _, level1, level2, level3 = plan.by_level
    layout, declared = s.layout, s.declared
    fans: dict[frozenset[str], Breakdown] = rs.memo.setdefault("fans", {})
    hun_kinds = s.hun_kinds
    # a 天和 tries each of its tiles as the winning tile over the same arrangements
    shared: tuple[tuple[RawGroup, ...], ...] | None = None
    for win_tile in candidates:
        win_is_hun = win_tile in hun_kinds
        possible, free12, free3, bound_all = _limits(rs, plan, s.fixed, win_tile, win_is_hun,
                                                     layout.hun)
        if bound_all <= s.best_fan:
            continue
        # skeleton-level facts know the winning tile (not where it sits)
        cand_win = WinFact(win_tile, win_is_hun, win_tile, None)
        first: list[RawGroup] = []
        if not win_is_hun and layout.hun >= TIGHT_BOUND_HUN and plan.win_gated:
            checked, first = _win_group_checked(s, win_tile, possible)
            if checked != possible:
                possible = _interned(rs, checked)
                free12 = _interned(rs, possible - {p.id for p in level1})
                free3 = _interned(rs, free3 & possible)
                bound_all = _bound(rs, plan, s.fixed, possible)
                if bound_all <= s.best_fan:
                    continue
        projections, tag = _projections(s, cand_win, possible)
        if first:
            _search_groups_first(s, win_tile, first, possible, free12, bound_all, cand_win,
                                 projections, tag)
            if s.best_fan >= bound_all:
                continue
        if layout.hun >= TIGHT_BOUND_HUN:
            options = _held1_options(s, cand_win, possible, projections, tag)
            if options is not None:
                bound_all = max((_bound(rs, plan, h1, free12) for h1 in options), default=-1.0)
                if bound_all <= s.best_fan:
                    continue
        skeletons: dict[tuple[int, ...], tuple[dict[str, bool], frozenset[str], float,
                                               frozenset[int], HunFact]] = {}
        pruned: set[tuple[int, ...]] = set()
        if len(candidates) > 1 and shared is None:
            shared = tuple(arrange.arrangements(layout, s.wild))
        for raw in shared if shared is not None else arrange.arrangements(layout, s.wild):
            skey = tuple(sorted([g[0] * 64 + g[1] for g in raw]))
            if skey in pruned:
                continue
            entry = skeletons.get(skey)
            plain = None
            if entry is None:
                pats1, held1, index, hun_fact, plain = _skeleton(s, raw, skey, cand_win,
                                                                 possible, projections, tag)
                bound = _bound(rs, plan, held1, free12)
                if bound <= s.best_fan:
                    # the best only grows: this skeleton is out for good, keep nothing
                    pruned.add(skey)
                    continue
                entry = skeletons[skey] = (pats1, held1, bound, index, hun_fact)
            pats, held_base, bound, index, hun_fact = entry
            if bound <= s.best_fan:
                continue
            if plain is None:
                plain = tuple([group_fact(g, False, False) for g in raw])
            if level2:
                pats = dict(pats)
                f2 = Facts(plain + declared, cand_win, s.hand_fact, hun_fact, s.context, index)
                f2.pats = pats
                for p in level2:
                    pats[p.id] = p.id in possible and bool(p.fn(f2))
                held_base = _interned(rs, frozenset([k for k, v in pats.items() if v]))
                bound = _bound(rs, plan, held_base, free3)
                if bound <= s.best_fan:
                    continue
            live3 = level3 if free3 else ()
            if live3:
                pats = dict(pats)
            for groups, win in readings(raw, plain, declared, win_tile, win_is_hun):
                held = held_base
                if live3:
                    f = Facts(groups, win, s.hand_fact, hun_fact, s.context, index)
                    f.pats = pats
                    true3 = []
                    for p in live3:
                        v = p.id in possible and bool(p.fn(f))
                        pats[p.id] = v
                        if v:
                            true3.append(p.id)
                    if true3:
                        held = _with(rs, held_base, tuple(true3))
                bd = fans.get(held)
                if bd is None:
                    bd = fans[held] = rs.algebra.fan(held)
                if bd.fan > s.best_fan:
                    s.best_fan, s.best = float(bd.fan), (bd, groups, win_tile, held)
                if s.best_fan >= bound or not live3:
                    break
            if s.best_fan >= bound_all:
                break


def _held1_options(s: _State, cand_win: WinFact, possible: frozenset[str],
                   projections: Projections, tag: Any) -> tuple[frozenset[str], ...] | None:
    """Every set of skeleton-level patterns some arrangement of the hand makes true.

    Exact when those patterns read the skeleton only through shape queries (their truth
    then depends on which queried groups it has, `arrange.skeleton_reach`); None otherwise.
    Empty when the hand has no winning arrangement at all.
    """
    plan = s.plan
    level1 = plan.by_level[1]
    if not level1:
        return (s.fixed,)
    if plan.queries is None:
        return None
    keys = plan.query_keys
    out: dict[frozenset[str], None] = {}
    hun_fact = HunFact(s.hun_kinds, s.held_hun)
    for bits in arrange.skeleton_reach(s.layout, keys):
        index = frozenset([k for i, k in enumerate(keys) if bits >> i & 1]) | s.declared_keys
        proj: Any = bits | s.declared_bits
        if tag is not None:
            proj = (proj, tag)
        known = projections.get(proj)
        if known is None:
            # shape queries are all these patterns read of a skeleton: the declared melds
            # and the queried keys stand in for its groups
            known = projections[proj] = _level1(s, s.declared, cand_win, hun_fact, index,
                                                possible)
        out[known[1]] = None
    return tuple(out)


def _level1(s: _State, groups: tuple[GroupFact, ...], cand_win: WinFact, hun_fact: HunFact,
            index: frozenset[int], possible: frozenset[str]
            ) -> tuple[dict[str, bool], frozenset[str]]:
    """The skeleton-level patterns judged on one skeleton: every pattern's truth so far,
    and the (interned) set of those that hold."""
    pats1 = dict(s.indep)
    f1 = Facts(groups, cand_win, s.hand_fact, hun_fact, s.context, index)
    f1.pats = pats1
    level1 = s.plan.by_level[1]
    for p in level1:
        pats1[p.id] = p.id in possible and bool(p.fn(f1))
    return pats1, _interned(s.rs, s.fixed | frozenset([p.id for p in level1 if pats1[p.id]]))


class _WildDomain:
    """Kinds an all-hun group may take without losing an outcome; computed only if needed.

    Patterns tell kinds apart only through the tiles and ranks they name, the hand's own
    tiles and the hun; every other kind of a suit class behaves alike, so two stand-ins per
    class (two, so that "same" and "different" both stay reachable) are enough. See
    docs/design.md.
    """

    def __init__(self, rs: Ruleset, tiles: tuple[int, ...], hun: tuple[int, ...]) -> None:
        self.args = (rs.wild_tiles, rs.wild_ranks, tiles, hun)

    def __call__(self) -> tuple[int, ...]:
        wild_tiles, wild_ranks, tiles, hun = self.args
        dom = set(wild_tiles) | set(tiles) | set(hun)
        for base in (0, 9, 18):
            for r in wild_ranks:
                if 1 <= r <= 9:
                    dom.add(base + r - 1)
        for lo, hi in ((0, 9), (9, 18), (18, 27), (27, 31), (31, 34)):
            dom.update([k for k in range(lo, hi) if k not in dom][:2])
        return tuple(sorted(dom))


def _finish(rs: Ruleset, base: Facts, bd: Breakdown, groups: tuple[GroupFact, ...],
            win_tile: int, kong_fan: float, kong_kinds: tuple[str, ...],
            forbidden: str | None, instant: bool = False,
            held: frozenset[str] | None = None) -> ScoreResult:
    rules = tuple(i for i, rule in enumerate(rs.total_rules) if rule.condition.fn(base))
    # `held` determines `bd` (fans are memoised by it) and hashes far faster
    key = ("finish", held if held is not None else bd, kong_kinds, forbidden, instant, rules)
    parts = rs.memo.get(key)
    if parts is None:
        parts = rs.memo[key] = _totals(rs, bd, kong_fan, kong_kinds, forbidden, instant,
                                       tuple(rs.total_rules[i] for i in rules))
    total, reason, explain, shown, names = parts
    return ScoreResult(reason is None, bd.fan, num(kong_fan), total, shown, names, explain,
                       reason, tile_name(win_tile), groups, kong_kinds)


def _totals(rs: Ruleset, bd: Breakdown, kong_fan: float, kong_kinds: tuple[str, ...],
            forbidden: str | None, instant: bool, rules: tuple[Any, ...]) -> tuple[Any, ...]:
    """Total, reason and the itemised steps: the same for every hand with these inputs."""
    explain = [bd.text]
    kong_fan_counted = kong_fan
    multiplier = 1.0
    added = 0.0
    for rule in rules:
        if rule.kong_points_as and kong_kinds:
            kong_fan_counted += (rs.kong_points[rule.kong_points_as]
                                 - rs.kong_points[kong_kinds[-1]])
        multiplier *= rule.multiply_total
        added += rule.add_total
        if rule.multiply_total != 1:
            explain.append(f"{rule.name}: total × {num(rule.multiply_total)}")
        if rule.add_total:
            explain.append(f"{rule.name}: total + {num(rule.add_total)}")
    for k in kong_kinds:
        explain.append(f"+ {_KONG_NAMES[k]} {num(rs.kong_points[k])}")
    total = (bd.fan + kong_fan_counted) * multiplier + added
    if kong_kinds or multiplier != 1 or added:
        explain.append(f"total {num(total)}")
    reach = total if rs.minimum_counts_kong_points else bd.fan
    reason = forbidden
    if reason is None and not instant and reach < rs.minimum:
        reason = BELOW_MINIMUM
        explain.append(f"below the minimum of {num(rs.minimum)}")
    elif forbidden is not None:
        name = next((f.name for f in rs.forbids if f.id == forbidden), forbidden)
        explain.append(f"cannot win: {name}")
    shown = tuple(t.id for t in bd.terms if t.role != "combination")
    return (num(total), reason, tuple(explain), shown,
            tuple(rs.pattern_name(p) for p in shown))


_KONG_NAMES = {"exposed": "明杠", "concealed": "暗杠", "golden": "金杠"}


def _view(g: GroupFact) -> GroupView:
    return GroupView(g.shape, format_tiles(g.tiles), format_tiles(g.fills), g.declared,
                     g.concealed, g.has_win)


def score_document(doc: Mapping[str, Any], rs: Ruleset) -> ScoreResult:
    """Validate a hand document under the ruleset's options, then score it."""
    from rulekit.hand import parse_hand
    hand = parse_hand(doc, hun_kind_count=rs.hun_kinds, win_by_allowed=rs.win_by)
    if not rs.golden_kong_allowed and any(m.golden for m in hand.melds):
        from rulekit.errors import HandError
        raise HandError("melds", "this ruleset does not allow 金杠 (a kong of four hun)")
    return score_hand(hand, rs)
