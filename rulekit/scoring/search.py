"""The search for a hand's best reading: every arrangement, every place of the winning tile.

Patterns are judged at the level they read (plan.py): skeleton-level ones once per skeleton
(shared between skeletons, and often hands, with the same shape-query projection), then the
arrangement-level ones, then the reading-level ones per place of the winning tile. Bounds
from the fan algebra cut every branch that cannot beat the best so far, and exploration
stops once a reading reaches the best fan the algebra allows for this hand. Every path ends
in `keep_best`, the one routine that values a reading and keeps it if it is the best.
"""
from __future__ import annotations

from typing import Any, Final, Iterable, Iterator, Sequence

from rulekit import arrange, limits
from rulekit.algebra import Breakdown
from rulekit.arrange import Layout, RawGroup
from rulekit.codes import (DRAGON_START, HONOR_START, NUM_KINDS, SKELETON, SUIT_BASES,
                           group_key)
from rulekit.dsl.compile import CompiledPattern
from rulekit.errors import RulesetError
from rulekit.facts import (ContextFact, Facts, GroupFact, HandFact, HunFact, WinFact,
                           group_fact, plain_facts, win_places)
from rulekit.ruleset.model import Ruleset
from rulekit.scoring.keys import tagged
from rulekit.scoring.route import TIGHT_BOUND_HUN
from rulekit.scoring.scorer import Judged, Scorer

Projections = dict[Any, Judged]
NO_INDEX: Final[frozenset[int]] = frozenset()     # the index of facts without groups
# the best reading's breakdown, groups, winning tile and the mask of its patterns
Best = tuple[Breakdown, tuple[GroupFact, ...], int, int]


class WildDomain:
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
        for base in SUIT_BASES[:3]:
            for r in wild_ranks:
                if 1 <= r <= 9:
                    dom.add(base + r - 1)
        classes = ((0, 9), (9, 18), (18, HONOR_START), (HONOR_START, DRAGON_START),
                   (DRAGON_START, NUM_KINDS))
        for lo, hi in classes:
            dom.update([k for k in range(lo, hi) if k not in dom][:2])
        return tuple(sorted(dom))


class State:
    """What one hand's search shares between its steps: built once per hand."""

    __slots__ = ("sc", "fixed", "hand_fact", "context", "hun_kinds",
                 "held_hun", "declared", "declared_keys", "declared_bits", "layout", "wild",
                 "best_fan", "best", "steps")

    def __init__(self, sc: Scorer, fixed: int,
                 hand_fact: HandFact, context: ContextFact, hun_kinds: tuple[int, ...],
                 held_hun: tuple[int, ...], declared: tuple[GroupFact, ...],
                 declared_keys: frozenset[int], layout: Layout, wild: WildDomain) -> None:
        self.sc = sc
        self.fixed = fixed            # the mask of the hand-level patterns that hold
        self.hand_fact = hand_fact
        self.context = context
        self.hun_kinds = hun_kinds
        self.held_hun = held_hun
        self.declared = declared
        self.declared_keys = declared_keys
        self.declared_bits = sc.plan.projection(declared_keys)
        self.layout = layout
        self.wild = wild
        self.best_fan = -1.0
        self.best: Best | None = None
        self.steps = 0              # pattern steps spent on this hand (`judge`)


def keep_best(s: State, held: int, groups: tuple[GroupFact, ...], win_tile: int) -> None:
    """Value one reading (its fan is read from the table by the mask of patterns it holds)
    and keep it if it beats the best so far: the one place every search path ends."""
    bd = s.sc.fan(held)
    if bd.fan > s.best_fan:
        s.best_fan, s.best = float(bd.fan), (bd, groups, win_tile, held)


def judge(s: State, patterns: Sequence[CompiledPattern], f: Facts, possible: int) -> int:
    """Judge `patterns` on `f`, or'ing the bit of each that holds into `f.held` (later
    patterns read it); `f.held` after. Only the patterns in the mask `possible` are
    evaluated.

    Counts the steps spent (each pattern's static cost per evaluation): the static budget
    assumes a bounded number of evaluations per hand, and a ruleset whose bounds prune
    badly could otherwise make one hand take minutes. Over `limits.RUN_STEPS` the hand
    stops with a `RulesetError` naming the patterns being judged."""
    steps = 0
    for p in patterns:
        b = p.bit
        if possible & b:
            steps += p.steps
            if p.fn(f):
                f.held |= b
    s.steps += steps
    if s.steps > limits.RUN_STEPS:
        over_budget(s.sc.rs, patterns)
    return f.held


def over_budget(rs: Ruleset, patterns: Sequence[CompiledPattern]) -> None:
    costliest = sorted(patterns, key=lambda p: -p.steps)[:3]
    names = ", ".join(f"'{p.id}'" for p in costliest)
    raise RulesetError([f"{rs.source}: ruleset '{rs.name}' is too costly for this hand: its "
                        f"patterns would take over {limits.RUN_STEPS:,} steps (the work "
                        f"budget); the costliest being judged: {names}"])


def skeleton_key(raw: tuple[RawGroup, ...]) -> tuple[int, ...]:
    """The groups' keys (`codes.group_key`),
    sorted: arrangements with equal keys judge alike at skeleton level."""
    return tuple(sorted([group_key(g[0], g[1]) for g in raw]))


def coded_key(codes: tuple[int, ...]) -> tuple[int, ...]:
    """`skeleton_key` of an arrangement given by its group codes (`arrange.ALL_KEYS`):
    the same key, read from a table instead of from each group."""
    key_of = arrange.ALL_KEYS
    keys = [key_of[c] for c in codes]
    keys.sort()
    return tuple(keys)


# an arrangement as the scan takes it: its groups and their codes (`arrange.ALL_GROUPS`)
Arranged = tuple[tuple[RawGroup, ...], tuple[int, ...]]
# arrangements as the scan takes them: (skeleton key, the arrangements with that key)
Skeletons = Iterable[tuple[tuple[int, ...], Sequence[Arranged]]]


def projection_of(s: State, skey: tuple[int, ...]) -> Any:
    """What the skeleton-level patterns can see of a skeleton: the bits of the keys they
    query when they only make shape queries, else the whole skeleton key."""
    plan = s.sc.plan
    if plan.queries is None:
        return skey
    # `Plan.projection`, spelled out over a tuple (this runs per skeleton; a loop over a
    # typed tuple compiles to indexing, over an Iterable to the iterator protocol)
    table = plan.key_bits
    bits = s.declared_bits
    for k in skey:
        bits |= table[k]
    return bits


def by_skeleton(arranged: Iterable[Arranged]
                ) -> list[tuple[tuple[int, ...], list[Arranged]]]:
    """Arrangements grouped by skeleton key, in first-met order: a 天和's candidates then
    key and bound each skeleton once, not once per arrangement."""
    out: dict[tuple[int, ...], list[Arranged]] = {}
    for a in arranged:
        skey = coded_key(a[1])
        hit = out.get(skey)
        if hit is None:
            out[skey] = [a]
        else:
            hit.append(a)
    return list(out.items())


def one_by_one(arranged: Iterable[Arranged]
               ) -> Iterator[tuple[tuple[int, ...], tuple[Arranged]]]:
    """Arrangements as met, each on its own: the search can stop before the rest are
    even enumerated."""
    for a in arranged:
        yield coded_key(a[1]), (a,)


def win_group_checked(s: State, win_tile: int, possible: int) -> tuple[int, list[RawGroup]]:
    """`possible` less the reading-level patterns that no group of the winning tile allows,
    and the groups that do allow one, most valuable first.

    Such a pattern needs something of the group holding the winning tile (混吊: the pair,
    with one other hun). Only a few groups can hold a real winning tile; if none that meets
    the needs leaves a completable rest, no reading has the pattern and the bound drops.
    The groups that pass are where the valuable readings are: the search tries them first.
    """
    sc, layout = s.sc, s.layout
    out = possible
    groups = arrange.groups_holding(layout.counts, layout.hun, win_tile)
    feasible: dict[RawGroup, bool] = {}
    allows: dict[RawGroup, int] = {}
    masks = [sc.group_allows(g, win_tile, win_tile, False) for g in groups]
    for p in sc.plan.win_gated:
        b = p.bit
        if not possible & b:
            continue
        found = False
        for i, g in enumerate(groups):
            if not masks[i] & b:
                continue
            ok = feasible.get(g)
            if ok is None:
                ok = feasible[g] = arrange.rest_wins(layout, g)
            if ok:
                found = True
                allows[g] = allows.get(g, 0) | b
        if not found:
            out &= ~b
    if not allows:
        return out, []
    gated = sc.plan.gated
    ranked = sorted(((-sc.bound(s.fixed, (out & ~gated) | ids), i, g)
                     for i, (g, ids) in enumerate(allows.items())))
    return out, [g for _, _, g in ranked]


def search_groups_first(s: State, win_tile: int, groups: list[RawGroup],
                        possible: int, free12: int, bound_all: float,
                        cand_win: WinFact, projections: Projections, tag: Any) -> None:
    """The readings with the real winning tile in one of `groups`, before all the others.

    Each is one of the groups plus an arrangement of the tiles left. The full search runs
    afterwards and sees them again, by then mostly cut by the bound.
    """
    sc = s.sc
    _, _, level2, level3 = sc.plan.by_level
    for g in groups:
        held_g = group_fact(g, True, False)
        win = WinFact(win_tile, False, win_tile, held_g)
        for rest_raw in arrange.arrangements(arrange.rest_layout(s.layout, g), s.wild):
            raw = rest_raw + (g,)
            skey = skeleton_key(raw)
            index = frozenset(skey) | s.declared_keys if s.declared_keys else frozenset(skey)
            held1 = skeleton_level(s, projection_of(s, skey), raw, index, cand_win, possible,
                                   projections, tag)
            if sc.bound(held1, free12) <= s.best_fan:
                continue
            hun_fact = HunFact(s.hun_kinds, s.held_hun, raw)
            groups_ = plain_facts(rest_raw) + (held_g,)
            groups_ += s.declared
            f = Facts(groups_, win, s.hand_fact, hun_fact, s.context, index)
            f.held = held1
            judge(s, level2, f, possible)
            keep_best(s, judge(s, level3, f, possible), groups_, win_tile)
            if s.best_fan >= bound_all:
                return


def projections(s: State, cand_win: WinFact, possible: int) -> tuple[Projections, Any]:
    """Where skeleton-level results are kept, and the tag their keys carry.

    When those patterns read only shape queries and hand-level facts, a result depends on
    the projection, the hand-level patterns, the patterns still possible and the facts read:
    it is kept by the scorer, tagged with these, and serves every later hand that agrees
    (the key is one int: the tag above the projection's bits). Otherwise it is kept for
    this hand only.
    """
    getters = s.sc.plan.level1_reads
    if getters is None:
        return {}, None
    f = Facts((), cand_win, s.hand_fact, HunFact(s.hun_kinds, s.held_hun), s.context,
              NO_INDEX)
    # the tag becomes a small int once per hand, so the per-skeleton lookups stay cheap
    return s.sc.level1_tag((s.fixed, possible, tuple([get(f) for get in getters])))


def skeleton_level(s: State, proj: Any, raw: tuple[RawGroup, ...],
                   index: frozenset[int] | None, cand_win: WinFact, possible: int,
                   shared: Projections, tag: Any) -> Judged:
    """Skeleton-level patterns of one skeleton, judged on `raw`: shared by every skeleton
    with the same projection (and, tagged, by every hand that agrees on what they read).
    `index` is the skeleton's (`Facts.index`), or None to build it only if judged."""
    # tagged, the projection is bits of the queried keys: the tag goes above them
    key = proj if tag is None else tagged(tag, proj, len(s.sc.plan.query_keys))
    known = shared.get(key)
    if known is None:
        if s.sc.plan.by_level[SKELETON]:
            if index is None:
                index = frozenset([group_key(g[0], g[1]) for g in raw]) | s.declared_keys
            known = judge_level1(s, plain_facts(raw) + s.declared, cand_win,
                                 HunFact(s.hun_kinds, s.held_hun, raw), index, possible)
        else:
            known = s.fixed
        shared[key] = known
    return known


def judge_level1(s: State, groups: tuple[GroupFact, ...], cand_win: WinFact,
                 hun_fact: HunFact, index: frozenset[int], possible: int) -> Judged:
    """The skeleton-level patterns judged on one skeleton: the mask of the patterns that
    hold so far (the hand-level ones too)."""
    f1 = Facts(groups, cand_win, s.hand_fact, hun_fact, s.context, index)
    f1.held = s.fixed
    return judge(s, s.sc.plan.by_level[SKELETON], f1, possible)


def level1_at(s: State, bits: int, cand_win: WinFact, hun_fact: HunFact,
              possible: int, shared: Projections, tag: Any) -> int:
    """The skeleton-level patterns that hold for skeletons with these queried keys (bits of
    `plan.query_keys`, declared melds included): shape queries are all they read of a
    skeleton, so the declared melds and the queried keys stand in for its groups."""
    keys = s.sc.plan.query_keys
    proj: Any = bits if tag is None else tagged(tag, bits, len(keys))
    known = shared.get(proj)
    if known is None:
        index = frozenset([k for i, k in enumerate(keys) if bits >> i & 1]) | s.declared_keys
        known = shared[proj] = judge_level1(s, s.declared, cand_win, hun_fact, index,
                                            possible)
    return known


def held1_options(s: State, cand_win: WinFact, possible: int, shared: Projections,
                  tag: Any) -> tuple[int, ...] | None:
    """Every set of skeleton-level patterns some arrangement of the hand makes true.

    Exact when those patterns read the skeleton only through shape queries (their truth
    then depends on which queried groups it has, `arrange.skeleton_reach`); None otherwise.
    Empty when the hand has no winning arrangement at all.
    """
    plan = s.sc.plan
    if not plan.by_level[SKELETON]:
        return (s.fixed,)
    if plan.queries is None:
        return None
    out: dict[int, None] = {}
    hun_fact = HunFact(s.hun_kinds, s.held_hun)
    for bits in arrange.skeleton_reach(s.layout, plan.query_keys):
        out[level1_at(s, bits | s.declared_bits, cand_win, hun_fact, possible, shared,
                      tag)] = None
    return tuple(out)


# what one candidate winning tile's search starts from: its bound, the tile, the winning
# tile as skeleton-level facts see it, the patterns still possible (all, less the skeleton
# level, the reading level), the groups to read first, and where skeleton results are kept
Candidate = tuple[float, int, WinFact, int, int, int, list[RawGroup], Projections, Any]


def candidate(s: State, win_tile: int) -> Candidate:
    """The bounds and first groups of one winning tile, before any arrangement is read."""
    sc, layout = s.sc, s.layout
    win_is_hun = win_tile in s.hun_kinds
    possible, free12, free3, bound_all = sc.limits(s.fixed, win_tile, win_is_hun, layout.hun)
    # skeleton-level facts know the winning tile (not where it sits)
    cand_win = WinFact(win_tile, win_is_hun, win_tile, None)
    first: list[RawGroup] = []
    if not win_is_hun and layout.hun >= TIGHT_BOUND_HUN and sc.plan.win_gated:
        checked, first = win_group_checked(s, win_tile, possible)
        if checked != possible:
            possible = checked
            free12 = possible & ~sc.plan.level_masks[SKELETON]
            free3 &= possible
            bound_all = sc.bound(s.fixed, possible)
    shared_level1, tag = projections(s, cand_win, possible)
    if layout.hun >= TIGHT_BOUND_HUN:
        options = held1_options(s, cand_win, possible, shared_level1, tag)
        if options is not None:
            bound_all = min(bound_all, max((sc.bound(h1, free12) for h1 in options),
                                           default=-1.0))
    return (bound_all, win_tile, cand_win, possible, free12, free3, first, shared_level1, tag)


def search(s: State, candidates: tuple[int, ...]) -> None:
    """Every arrangement, then every place of the winning tile in it, for each candidate
    winning tile. A 天和 tries each of its tiles over the same arrangements, the tile with
    the highest bound first: its best reading then often cuts the others whole."""
    layout = s.layout
    cands = [candidate(s, t) for t in candidates]
    if len(cands) > 1:
        cands.sort(key=lambda c: -c[0])
    grouped: Skeletons | None = None
    for bound_all, win_tile, cand_win, possible, free12, free3, first, shared_level1, tag \
            in cands:
        if bound_all <= s.best_fan:
            break                     # sorted: no later candidate can do better either
        if first:
            search_groups_first(s, win_tile, first, possible, free12, bound_all, cand_win,
                                shared_level1, tag)
            if s.best_fan >= bound_all:
                continue
        if len(candidates) > 1 and grouped is None:
            grouped = by_skeleton(arrange.coded_arrangements(layout, s.wild))
        skeletons = (grouped if grouped is not None
                     else one_by_one(arrange.coded_arrangements(layout, s.wild)))
        scan(s, skeletons, win_tile, cand_win, (possible, free12, free3, bound_all),
             shared_level1, tag)


def scan(s: State, skeletons: Skeletons, win_tile: int, cand_win: WinFact,
         limits: tuple[int, int, int, float],
         shared_level1: Projections, tag: Any) -> None:
    """Judge arrangements for one winning tile, skeleton by skeleton, each skeleton cut as
    soon as its bound cannot beat the best so far."""
    possible, free12, free3, bound_all = limits
    sc = s.sc
    seen: dict[tuple[int, ...], tuple[int, float]] = {}
    pruned: set[tuple[int, ...]] = set()
    for skey, raws in skeletons:
        if skey in pruned:
            continue
        entry = seen.get(skey)
        if entry is None:
            held1 = skeleton_level(s, projection_of(s, skey), raws[0][0], None, cand_win,
                                   possible, shared_level1, tag)
            bound = sc.bound(held1, free12)
            if bound <= s.best_fan:
                # the best only grows: this skeleton is out for good, keep nothing
                pruned.add(skey)
                continue
            entry = seen[skey] = (held1, bound)
        held_base, bound = entry
        for raw, _ in raws:
            if bound <= s.best_fan:
                break
            read(s, raw, skey, win_tile, cand_win, held_base, bound, possible, free3)
            if s.best_fan >= bound_all:
                return


def read(s: State, raw: tuple[RawGroup, ...], skey: tuple[int, ...], win_tile: int,
         cand_win: WinFact, held_base: int, bound: float, possible: int,
         free3: int) -> None:
    """One arrangement (`skey` its skeleton key): its arrangement-level patterns, then each
    place of the winning tile with the reading-level ones.

    At each place only the reading-level patterns whose needs its group meets are judged
    (`Scorer.group_allows`; the others cannot hold there), and none if even all of them
    could not beat the best. Most places leave none: then no facts are built (not even
    the groups' facts, the skeleton index or the hun's) unless the place makes a new
    best."""
    sc = s.sc
    _, _, level2, level3 = sc.plan.by_level
    plain: tuple[GroupFact, ...] | None = None
    hun_fact: HunFact | None = None
    index: frozenset[int] | None = None
    if level2:
        plain = plain_facts(raw)
        hun_fact = HunFact(s.hun_kinds, s.held_hun, raw)
        index = frozenset(skey) | s.declared_keys
        f2 = Facts(plain + s.declared, cand_win, s.hand_fact, hun_fact, s.context, index)
        f2.held = held_base
        held_base = judge(s, level2, f2, possible)
        bound = sc.bound(held_base, free3)
        if bound <= s.best_fan:
            return
    win_is_hun = cand_win.is_hun
    gated = free3 & sc.plan.gated
    base_fan = float(sc.fan(held_base).fan)     # a place with nothing to judge is worth it
    for i, stands in win_places(raw, win_tile, win_is_hun):
        held = held_base
        live = free3 & ~gated
        if gated:
            live |= gated & sc.group_allows(raw[i], win_tile, stands, win_is_hun)
        # the most this place can be worth cannot beat the best: skip it
        if (sc.bound(held_base, live) if live else base_fan) <= s.best_fan:
            if s.best_fan >= bound or not free3:
                break
            continue
        if plain is None:
            plain = plain_facts(raw)
        held_g = group_fact(raw[i], True, win_is_hun)
        groups = plain[:i] + (held_g,) + plain[i + 1:] + s.declared
        if live:
            if hun_fact is None or index is None:
                hun_fact = HunFact(s.hun_kinds, s.held_hun, raw)
                index = frozenset(skey) | s.declared_keys
            f = Facts(groups, WinFact(win_tile, win_is_hun, stands, held_g), s.hand_fact,
                      hun_fact, s.context, index)
            f.held = held_base
            held = judge(s, level3, f, live)
        keep_best(s, held, groups, win_tile)
        if s.best_fan >= bound or not free3:
            break
