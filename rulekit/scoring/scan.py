"""The scan: a hand's arrangements one by one, for hands with few hun (`route.py`).

Each skeleton is keyed and bounded once; from `route.TIGHT_BOUND_HUN` hun the bounds are
tightened first (`skeleton_options`, `win_group_checked`; not for a yes/no question:
`route.tight_bounds`), and the groups that allow a win-gated pattern are read first, so the
best is usually the first reading. A 天和 tries
each of its kinds as the winning tile over the same arrangements, enumerated once and
grouped by skeleton. The judging it stands on is `search.py`'s, shared with the place search.

From `route.PRUNED_SCAN_HUN` hun, arrangements are listed less those that cannot beat the
best (`pruned.live_codes`, keyed by their queried keys' bits: `scan_bits`), and from
`route.PLACE_BOUND_HUN` a long scan of a real winning tile bounds each group that can hold
it (`PlaceCut`): the best of those bounds ends the scan. Both only cut what could not beat
the best, in the same order, so the reading kept is the one a plain scan keeps.
"""
from __future__ import annotations

from typing import Final, Iterable, Iterator

from rulekit import arrange
from rulekit.arrange import RawGroup
from rulekit.codes import ARRANGEMENT, READING, SKELETON, group_key
from rulekit.facts import (Facts, GroupFact, HunFact, WinFact, coded_facts, coded_win_places,
                           group_fact, plain_facts)
from rulekit.scoring.holding import (KEY_NEEDS_STRIDE, holds, real_holders,
                                     rest_fits, rest_layout, rest_wins)
from rulekit.scoring.keys import ProjKey, group_code, spot_kind
from rulekit.scoring.reach import Combined, rest_most, skeleton_reach
from rulekit.scoring.pruned import Bounds, live_codes
from rulekit.scoring.route import (KEYS_BOUND_MOST, PLACE_BOUND_AFTER, goal_checks,
                                   place_bounds, pruned_scan, tight_bounds)
from rulekit.scoring.suit_reach import Walks
from rulekit.scoring.search import (INF, Projections, State, judge, keep_best, skeleton_at,
                                    projections, skeleton_level)


_ALLOW_CODE: Final[tuple[int, ...]] = tuple([group_code(g) if g.shape >= 0 else -1
                                             for g in arrange.ALL_GROUPS])
"""Group code (`arrange.ALL_GROUPS`) → its `keys.group_code`, the key of `Scorer.allows`."""

_CODE_OF: Final[dict[RawGroup, int]] = {g: c for c, g in enumerate(arrange.GROUP_OF)
                                        if g.shape >= 0}
"""A group holding a real tile → its code (`arrange.GROUP_OF`: one code per group)."""

# the best fan of a reading with the real winning tile in a group, by the group's code
# (`arrange.ALL_GROUPS`): `place_bound`'s, for the hand's candidate winning tile
PlaceBounds = dict[int, float]


def skeleton_key(raw: tuple[RawGroup, ...]) -> tuple[int, ...]:
    """The groups' keys (`codes.group_key`),
    sorted: arrangements with equal keys judge alike at skeleton level."""
    return tuple(sorted([group_key(g[0], g[1]) for g in raw]))


def coded_key(codes: tuple[int, ...]) -> tuple[int, ...]:
    """`skeleton_key` of an arrangement given by its group codes (`arrange.ALL_KEYS`):
    the same key, read from a table instead of from each group. Five groups (a closed
    hand's four melds and pair) are sorted by a network of nine compare-exchanges on
    native ints (compiled; `list.sort` on a list of them cost ~1,700 instructions a key of
    a 天和's ~450 arrangements), other counts by `sorted`."""
    key_of = arrange.ALL_KEYS
    if len(codes) != 5:
        return tuple(sorted([key_of[c] for c in codes]))
    a = key_of[codes[0]]
    b = key_of[codes[1]]
    c = key_of[codes[2]]
    d = key_of[codes[3]]
    e = key_of[codes[4]]
    if a > b:
        a, b = b, a
    if d > e:
        d, e = e, d
    if c > e:
        c, e = e, c
    if c > d:
        c, d = d, c
    if a > d:
        a, d = d, a
    if a > c:
        a, c = c, a
    if b > e:
        b, e = e, b
    if b > d:
        b, d = d, b
    if b > c:
        b, c = c, b
    return (a, b, c, d, e)


# a skeleton as the scan takes it: its key, what the skeleton-level patterns see of it
# (`projection_of`), the arrangements with that key (their groups' codes: the groups are
# made only for the few read)
Skeleton = tuple[tuple[int, ...], ProjKey, list[tuple[int, ...]]]


def projection_of(s: State, skey: tuple[int, ...]) -> ProjKey:
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


def by_skeleton(s: State, arranged: Iterable[tuple[int, ...]]) -> list[Skeleton]:
    """Arrangements (their groups' codes) grouped by skeleton key, in first-met order, each
    skeleton with its projection: a 天和's candidates then key and project each skeleton
    once, not once per arrangement and candidate."""
    out: dict[tuple[int, ...], list[tuple[int, ...]]] = {}
    for codes in arranged:
        skey = coded_key(codes)
        hit = out.get(skey)
        if hit is None:
            out[skey] = [codes]
        else:
            hit.append(codes)
    return [(skey, projection_of(s, skey), raws) for skey, raws in out.items()]


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
    holders = real_holders(layout.counts, layout.hun, win_tile)
    groups = [h[0] for h in holders]
    feasible: dict[RawGroup, bool] = {}
    allows: dict[RawGroup, int] = {}
    masks = [sc.group_allows(h[0], win_tile, win_tile, False, h[4]) for h in holders]
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
                ok = feasible[g] = rest_wins(layout, g)
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


def group_free(s: State, g: RawGroup, win_tile: int, free12: int) -> int:
    """The patterns above the skeleton level a reading with the real winning tile in `g`
    can still make true: `free12` less the win-gated ones `g` does not allow."""
    sc = s.sc
    return free12 & (~sc.plan.gated | sc.group_allows(g, win_tile, win_tile, False))


def place_bound(s: State, g: RawGroup, free: int, cand_win: WinFact, possible: int,
                shared: Projections, tag: int | None, walks: Walks,
                combined: Combined | None = None) -> float:
    """The best fan of any reading with the real winning tile in `g` (`free`: `group_free`):
    over each set of queried keys its rest can hold (`reach.skeleton_reach` of the rest,
    with `g`'s own key), the skeleton-level patterns that hold, with the patterns of `free`;
    -1 when the rest cannot complete the hand. (The place search's exact spot bound,
    `places.rest_bound`, without the abstract reading.)"""
    sc = s.sc
    plan = sc.plan
    keys = plan.query_keys if plan.queries is not None else ()
    reach = skeleton_reach(rest_layout(s.layout, g), keys, rest_most(s.layout.hun, g), walks,
                           combined)
    if not reach:
        return -1.0
    if not plan.by_level[SKELETON]:
        return sc.bound(s.fixed, free)
    if plan.queries is None:
        return sc.bound(s.fixed, (possible & plan.level_masks[SKELETON]) | free)
    gbit = plan.query_bit.get(group_key(g[0], g[1]), 0) | s.declared_bits
    seen: set[int] = set()
    best = -1.0
    for bits in reach:
        held_sk = skeleton_at(s, bits | gbit, cand_win, s.hun0, possible, shared, tag)
        if held_sk not in seen:
            seen.add(held_sk)
            b = sc.bound(held_sk, free)
            if b > best:
                best = b
    return best


def loose_bound(s: State, g: RawGroup, free: int, cand_win: WinFact, possible: int,
                shared: Projections, tag: int | None, whole: frozenset[int],
                memo: dict[int, float]) -> float:
    """A bound of `place_bound`'s without walking the rest: over the sets of the whole hand's
    reach that hold `g`'s own key (they contain every such reading's). Memoised by own key
    bit and free patterns; needs shape queries only at skeleton level."""
    sc = s.sc
    own = sc.plan.query_bit.get(group_key(g[0], g[1]), 0)
    kind = spot_kind(own, free, sc.width)
    loose = memo.get(kind)
    if loose is None:
        loose = -1.0
        for bits in whole:
            if bits & own == own:
                held_sk = skeleton_at(s, bits | s.declared_bits, cand_win, s.hun0, possible,
                                  shared, tag)
                loose = max(loose, sc.bound(held_sk, free))
        memo[kind] = loose
    return loose


def place_bounds_of(s: State, win_tile: int, cand_win: WinFact, possible: int, free12: int,
                    shared: Projections, tag: int | None) -> tuple[float, PlaceBounds]:
    """Every group that can hold the real winning tile with its `place_bound`, by code, and
    the best of them: no reading of the hand beats it."""
    walks: Walks = {}
    combined = Combined(s.layout.need_melds)
    out: PlaceBounds = {}
    top = -1.0
    for h in real_holders(s.layout.counts, s.layout.hun, win_tile):
        g = h[0]
        b = place_bound(s, g, group_free(s, g, win_tile, free12), cand_win, possible, shared,
                        tag, walks, combined)
        out[_CODE_OF[g]] = b
        top = max(top, b)
    return top, out


class PlaceCut:
    """Bounds of a real winning tile's places, worked out only once the scan has gone on a
    while (a second first-group, the whole scan next, or `PLACE_BOUND_AFTER` arrangements
    met): a hand the scan ends soon never pays for them. Each group holding the tile starts
    with the `loose_bound` from the whole hand's reach; a group's rest is walked for its
    `place_bound` only while its bound is the highest and beats the best (`settle`, again
    whenever the best grows), so groups the best already passes are never walked. Before
    `ready` every place's bound is infinite (no cut); after, `top` (the best of them) caps
    the scan's bound."""

    __slots__ = ("s", "win_tile", "cand_win", "possible", "free12", "shared", "tag", "left",
                 "memo", "bounds", "top", "groups", "free", "exact", "walks", "combined",
                 "settled")

    def __init__(self, s: State, win_tile: int, cand_win: WinFact, possible: int,
                 free12: int, shared: Projections, tag: int | None, memo: Options) -> None:
        self.s = s
        self.win_tile = win_tile
        self.cand_win = cand_win
        self.possible = possible
        self.free12 = free12
        self.shared = shared
        self.tag = tag
        self.memo = memo              # the hand's reach, if `skeleton_options` read it
        self.left = PLACE_BOUND_AFTER
        self.bounds: PlaceBounds | None = None      # by group code, once ready
        self.top = INF
        self.groups: dict[int, RawGroup] = {}       # by code
        self.free: dict[int, int] = {}              # by code: `group_free`
        self.exact: set[int] = set()                # codes whose bound is `place_bound`'s
        self.walks: Walks = {}
        self.combined = Combined(s.layout.need_melds)
        self.settled = -INF                         # the best `settle` last saw

    def tick(self) -> bool:
        """One more arrangement met: True when that makes the bounds worked out (now)."""
        self.left -= 1
        if self.left:
            return False
        return self.ready()

    def ready(self) -> bool:
        """Work the bounds out now, if not yet: True when they were just worked out."""
        if self.bounds is not None:
            return False
        self.left = -1
        s = self.s
        plan = s.sc.plan
        whole = self.memo.reach
        if plan.queries is None or not plan.by_level[SKELETON]:
            whole = None              # (then `place_bound` needs no walk of sets either)
        loose: dict[int, float] = {}
        bounds: PlaceBounds = {}
        for h in real_holders(s.layout.counts, s.layout.hun, self.win_tile):
            g = h[0]
            code = _CODE_OF[g]
            free = self.free[code] = group_free(s, g, self.win_tile, self.free12)
            self.groups[code] = g
            if whole is None:
                bounds[code] = self.walk(code)
            else:
                bounds[code] = loose_bound(s, g, free, self.cand_win, self.possible,
                                           self.shared, self.tag, whole, loose)
        self.bounds = bounds
        self.settle(True)
        return True

    def walk(self, code: int) -> float:
        self.exact.add(code)
        return place_bound(self.s, self.groups[code], self.free[code], self.cand_win,
                           self.possible, self.shared, self.tag, self.walks, self.combined)

    def settle(self, level: bool = False) -> float:
        """Walk the group of the highest bound while it is not exact and beats the best;
        then `top`, the highest bound (no reading beats it). With `level`, only the groups
        whose loose bound is the highest: when the bounds are first made the best is often
        a first reading's, soon passed, and the groups under the next level are then left
        for the best the scan finds to pass (or for their walk once it has grown)."""
        bounds = self.bounds
        if bounds is None:
            return INF
        best = self.s.best_fan
        self.settled = best
        first = INF
        while True:
            code, top = -1, -INF
            for c, b in bounds.items():
                if b > top:
                    code, top = c, b
            if top <= best or code in self.exact:
                break
            if level:
                if first == INF:
                    first = top
                elif top < first:
                    break
            bounds[code] = self.walk(code)
        self.top = top
        return top

    def grown(self) -> bool:
        """Has the best grown since the last `settle` (so that walking may now end the
        scan)? Only once the bounds are ready."""
        return self.bounds is not None and self.s.best_fan > self.settled

    def of(self, code: int) -> float:
        """The bound of a place in the group of this code (`arrange.ALL_GROUPS`)."""
        bounds = self.bounds
        if bounds is None:
            return INF
        return bounds.get(code, INF)


def search_groups_first(s: State, win_tile: int, groups: list[RawGroup],
                        possible: int, free12: int, bound_all: float,
                        cand_win: WinFact, projections: Projections, tag: int | None,
                        cut: PlaceCut | None = None) -> None:
    """The readings with the real winning tile in one of `groups`, before all the others.

    Each is one of the groups plus an arrangement of the tiles left. The full search runs
    afterwards and sees them again, by then mostly cut by the bound. With `cut`, once its
    bounds are worked out a group's readings stop when the best reaches its place's bound.
    The rest's arrangements come as codes: when the skeleton-level patterns read only shape
    queries, one is keyed by its queried keys' bits (as in `scan_bits`) and its groups are
    made only if it can beat the best.
    """
    sc = s.sc
    plan = sc.plan
    _, _, arrangement_level, reading_level = plan.by_level
    by_bits = plan.queries is not None
    key_bits = plan.key_bits
    key_of = arrange.ALL_KEYS
    all_groups = arrange.ALL_GROUPS
    for i, g in enumerate(groups):
        code = _CODE_OF[g]
        if cut is not None and i == 1 and cut.ready():    # a second group: bounds pay
            bound_all = min(bound_all, cut.top)
            if s.best_fan >= bound_all:
                return
        gbound = INF if cut is None else cut.of(code)
        if gbound <= s.best_fan:
            continue
        held_g = group_fact(g, True, False)
        win = WinFact(win_tile, False, win_tile, held_g)
        gkey = key_of[code]
        gbits = s.declared_bits | key_bits[gkey]
        seen: dict[int, tuple[int, float]] = {}
        rest = rest_layout(s.layout, g)
        rests: Iterator[tuple[int, ...]]
        if by_bits and pruned_scan(s.layout.hun, s.goal < INF):
            rests = live_codes(rest, s.wild, key_bits, plan.query_keys,
                               Bounds(s, cand_win, possible, free12, projections, tag, gbits))
        else:
            rests = arrange.arrangement_codes(rest, s.wild)
        for rest_codes in rests:
            if cut is not None and cut.tick():
                bound_all = min(bound_all, cut.top)
                gbound = cut.of(code)
                if s.best_fan >= bound_all:
                    return
                if s.best_fan >= gbound:
                    break
            rest_raw: tuple[RawGroup, ...] | None = None
            index: frozenset[int] | None = None
            if by_bits:
                bits = gbits
                for c in rest_codes:
                    bits |= key_bits[key_of[c]]
                entry = seen.get(bits)
                if entry is None:
                    held_sk = skeleton_level(s, bits, None, None, cand_win, possible,
                                           projections, tag, rest_codes + (code,))
                    entry = seen[bits] = (held_sk, sc.bound(held_sk, free12))
                held_sk, bound = entry
            else:
                rest_raw = tuple([all_groups[c] for c in rest_codes])
                raw = rest_raw + (g,)
                skey = skeleton_key(raw)
                index = frozenset(skey) | s.declared_keys
                held_sk = skeleton_level(s, projection_of(s, skey), raw, index, cand_win,
                                       possible, projections, tag)
                bound = sc.bound(held_sk, free12)
            if bound <= s.best_fan:
                continue
            if rest_raw is None:
                rest_raw = tuple([all_groups[c] for c in rest_codes])
            if index is None:
                index = frozenset([key_of[c] for c in rest_codes] + [gkey]) | s.declared_keys
            hun_fact = HunFact(s.hun_kinds, s.held_hun, rest_raw + (g,))
            groups_ = plain_facts(rest_raw) + (held_g,)
            groups_ += s.declared
            f = Facts(groups_, win, s.hand_fact, hun_fact, s.context, index)
            f.held = held_sk
            judge(s, arrangement_level, f, possible)
            keep_best(s, judge(s, reading_level, f, possible), groups_, win_tile)
            if cut is not None and cut.grown():
                bound_all = min(bound_all, cut.settle())
                gbound = cut.of(code)
            if s.best_fan >= bound_all:
                return
            if s.best_fan >= gbound:
                break


class Options:
    """What a hand's candidate winning tiles share (`skeleton_options`): the hand's skeleton
    reach and, by tag, the sets of skeleton-level patterns it reaches."""

    __slots__ = ("reach", "by_tag")

    def __init__(self) -> None:
        self.reach: frozenset[int] | None = None
        self.by_tag: dict[int, tuple[int, ...]] = {}


def skeleton_options(s: State, cand_win: WinFact, possible: int, shared: Projections,
                  tag: int | None, memo: Options) -> tuple[int, ...] | None:
    """Every set of skeleton-level patterns some arrangement of the hand makes true.

    Exact when those patterns read the skeleton only through shape queries (their truth
    then depends on which queried groups it has, `reach.skeleton_reach`); None otherwise.
    Empty when the hand has no winning arrangement at all. The hand's reach, and the sets
    of candidates whose skeleton-level results agree (one tag), are read once (`memo`).
    """
    plan = s.sc.plan
    if not plan.by_level[SKELETON]:
        return (s.fixed,)
    if plan.queries is None:
        return None
    if tag is not None:
        hit = memo.by_tag.get(tag)
        if hit is not None:
            return hit
    reach = memo.reach
    if reach is None:
        reach = memo.reach = skeleton_reach(s.layout, plan.query_keys)
    out: dict[int, None] = {}
    hun_fact = s.hun0
    for bits in reach:
        out[skeleton_at(s, bits | s.declared_bits, cand_win, hun_fact, possible, shared,
                      tag)] = None
    got = tuple(out)
    if tag is not None:
        memo.by_tag[tag] = got
    return got


def gated_allowed(s: State, win_tile: int, gated: int) -> int:
    """Of the win-gated patterns `gated` (a mask), those some group holding the real winning
    tile allows (`Scorer.group_allows`) with a rest that completes the hand: no reading of
    the others can hold. `win_group_checked`'s check without its ranking: only the groups
    that allow one of them at all are looked at (`Scorer.gate_holders`, per winning tile),
    each rest read off the suits' codes (`holding.rest_fits`)."""
    layout = s.layout
    counts, hun = layout.counts, layout.hun
    allowed = 0
    for holder, mask in s.sc.gate_holders(win_tile):
        m = mask & gated & ~allowed
        if m and holds(counts, hun, holder) and rest_fits(layout, holder):
            allowed |= m
            if allowed == gated:
                break
    return allowed


def keys_bound(s: State, cand_win: WinFact, possible: int, free12: int, shared: Projections,
               tag: int | None) -> float:
    """An upper bound of the fan of the hand's readings, or INF: the best, over the sets of
    queried keys (`plan.query_keys`) an arrangement could hold together, of their
    skeleton-level patterns (`skeleton_at`, the declared melds' keys added) with `free12`.
    Every arrangement's queried keys are such a set: each key a group the counts can form
    with hun making up what they lack, the set within the hun (what its groups lack, each
    counted on its own: never more than they lack together) and the melds and pair to form.
    INF past `route.KEYS_BOUND_MOST` sets. A set is one int: its bits above
    `_SET_SHIFT`, then the hun its groups lack, its melds and its pair."""
    sc = s.sc
    layout = s.layout
    counts, hun = layout.counts, layout.hun
    most_melds, most_pairs = layout.need_melds, layout.need_pairs
    needs = sc.key_needs
    sets = [0]
    for j in range(0, len(needs), KEY_NEEDS_STRIDE):
        missing = 0
        for i in range(j + 2, j + KEY_NEEDS_STRIDE, 2):
            short = needs[i + 1] - counts[needs[i]]
            if short > 0:
                missing += short
        if missing > hun:
            continue
        pair = needs[j + 1]
        add = needs[j] << _SET_SHIFT | missing << 4 | (1 - pair) << 1 | pair
        for state in list(sets):
            if (state >> 4 & 15) + missing <= hun and (state >> 1 & 7) + 1 - pair <= most_melds \
                    and (state & 1) + pair <= most_pairs:
                sets.append(state + add)
        if len(sets) > KEYS_BOUND_MOST:
            return INF
    best = -1.0
    width = len(sc.plan.query_keys)
    top = -1 if tag is None else tag << width
    declared = s.declared_bits
    seen = -1
    for state in sets:
        bits = declared | state >> _SET_SHIFT
        held_sk = shared.get(top | bits, -1) if top >= 0 else -1
        if held_sk < 0:
            held_sk = skeleton_at(s, bits, cand_win, s.hun0, possible, shared, tag)
        if held_sk != seen:             # most sets hold the same patterns
            seen = held_sk
            bound = sc.bound(held_sk, free12)
            if bound > best:
                best = bound
    return best


_SET_SHIFT: Final = 8
"""Where a `keys_bound` set's bits start: below them the hun lacked (4 bits: at most 8
hun), the melds (3 bits) and the pair (1 bit)."""


# what one candidate winning tile's search starts from: its bound, the tile, the winning
# tile as skeleton-level facts see it, the patterns still possible (all, less the skeleton
# level, the reading level), the groups to read first, where skeleton results are kept, and
# the bounds of the winning tile's places (None when not to be worked out)
Candidate = tuple[float, int, WinFact, int, int, int, list[RawGroup], Projections, int | None,
                  PlaceCut | None]


def candidate(s: State, win_tile: int, memo: Options) -> Candidate:
    """The bounds and first groups of one winning tile, before any arrangement is read."""
    sc, layout = s.sc, s.layout
    win_is_hun = win_tile in s.hun_kinds
    possible, free12, free3, bound_all = sc.limits(s.fixed, win_tile, win_is_hun, layout.hun)
    # skeleton-level facts know the winning tile (not where it sits)
    cand_win = WinFact(win_tile, win_is_hun, win_tile, None)
    first: list[RawGroup] = []
    tight = tight_bounds(layout.hun, s.goal < INF)
    if not win_is_hun and tight and sc.plan.win_gated:
        checked, first = win_group_checked(s, win_tile, possible)
        if checked != possible:
            possible = checked
            free12 = possible & ~sc.plan.level_masks[SKELETON]
            free3 &= possible
            bound_all = sc.bound(s.fixed, possible)
    checks = not win_is_hun and not tight and goal_checks(layout.hun, s.goal < INF)
    if checks:
        gated = possible & sc.plan.gated
        allowed = gated_allowed(s, win_tile, gated) if gated else 0
        if allowed != gated:          # as the tight path's check drops them, unranked
            possible = (possible & ~gated) | allowed
            free12 = possible & ~sc.plan.level_masks[SKELETON]
            free3 &= possible
            bound_all = sc.bound(s.fixed, possible)
    shared_skeleton, tag = projections(s, cand_win, possible)
    cut: PlaceCut | None = None
    if tight:
        options = skeleton_options(s, cand_win, possible, shared_skeleton, tag, memo)
        if options is not None:
            bound_all = min(bound_all, max((sc.bound(h1, free12) for h1 in options),
                                           default=-1.0))
    elif checks and bound_all > s.best_fan and sc.plan.queries is not None \
            and sc.plan.by_level[SKELETON]:
        bound_all = min(bound_all, keys_bound(s, cand_win, possible, free12, shared_skeleton,
                                              tag))
    if not win_is_hun and place_bounds(layout.hun, s.goal < INF):
        cut = PlaceCut(s, win_tile, cand_win, possible, free12, shared_skeleton, tag, memo)
    return (bound_all, win_tile, cand_win, possible, free12, free3, first, shared_skeleton, tag,
            cut)


def search(s: State, candidates: tuple[int, ...]) -> None:
    """Every arrangement, then every place of the winning tile in it, for each candidate
    winning tile. A 天和 tries each of its tiles over the same arrangements, the tile with
    the highest bound first: its best reading then often cuts the others whole."""
    layout = s.layout
    memo = Options()
    cands = [candidate(s, t, memo) for t in candidates]
    if len(cands) > 1:
        cands.sort(key=lambda c: -c[0])
    grouped: list[Skeleton] | None = None
    # by (tag, free12): the skeletons' skeleton-level results and bounds met so far, in
    # their order; candidates that agree on both (a tagged result is the same for every
    # candidate of its tag) read them instead of working them out again
    entries: dict[tuple[int, int], list[tuple[int, float]]] = {}
    for bound_all, win_tile, cand_win, possible, free12, free3, first, shared_skeleton, tag, \
            cut in cands:
        if bound_all <= s.best_fan:
            break                     # sorted: no later candidate can do better either
        if first:
            search_groups_first(s, win_tile, first, possible, free12, bound_all, cand_win,
                                shared_skeleton, tag, cut)
            if cut is not None:
                bound_all = min(bound_all, cut.top)
            if s.best_fan >= bound_all:
                continue
        limits = (possible, free12, free3, bound_all)
        if cut is not None and cut.ready():       # the whole scan next: bounds pay
            bound_all = min(bound_all, cut.top)
            if s.best_fan >= bound_all:
                continue
            limits = (possible, free12, free3, bound_all)
        if len(candidates) == 1:
            scan_each(s, arrangements_of(s, cand_win, possible, free12, shared_skeleton, tag),
                      win_tile, cand_win, limits, shared_skeleton, tag, cut)
            continue
        if grouped is None:
            grouped = by_skeleton(s, arrange.arrangement_codes(layout, s.wild))
        known = None
        if tag is not None:
            known = entries.get((tag, free12))
            if known is None:
                known = entries[(tag, free12)] = []
        scan(s, grouped, win_tile, cand_win, limits, shared_skeleton, tag, known)


def arrangements_of(s: State, cand_win: WinFact, possible: int, free12: int,
                    shared: Projections, tag: int | None) -> Iterator[tuple[int, ...]]:
    """The hand's arrangements as `scan_each` takes them (their groups' codes): through
    `pruned.live_codes` where the route says it pays and bits decide the bounds."""
    plan = s.sc.plan
    if plan.queries is not None and pruned_scan(s.layout.hun, s.goal < INF):
        return live_codes(s.layout, s.wild, plan.key_bits, plan.query_keys,
                          Bounds(s, cand_win, possible, free12, shared, tag, s.declared_bits))
    return arrange.arrangement_codes(s.layout, s.wild)


def scan(s: State, skeletons: list[Skeleton], win_tile: int, cand_win: WinFact,
         limits: tuple[int, int, int, float],
         shared_skeleton: Projections, tag: int | None,
         known: list[tuple[int, float]] | None = None) -> None:
    """Judge arrangements for one winning tile, skeleton by skeleton (each met once: they
    come grouped), each skeleton cut as soon as its bound cannot beat the best so far (the
    best only grows: a skeleton cut stays cut). `known`: the skeletons' skeleton-level
    results and bounds (in their order) that another candidate of the same tag and the
    same `free12` worked out, extended here as far as this scan goes."""
    possible, free12, free3, bound_all = limits
    sc = s.sc
    for i, (skey, proj, arranged) in enumerate(skeletons):
        if known is not None and i < len(known):
            held_base, bound = known[i]
        else:
            held_base = skeleton_level(s, proj, None, None, cand_win, possible,
                                       shared_skeleton, tag, arranged[0])
            bound = sc.bound(held_base, free12)
            if known is not None:
                known.append((held_base, bound))
        for codes in arranged:
            if bound <= s.best_fan:
                break
            read(s, None, codes, skey, win_tile, cand_win, held_base, bound, possible, free3)
            if s.best_fan >= bound_all:
                return


def scan_each(s: State, arranged: Iterator[tuple[int, ...]], win_tile: int,
              cand_win: WinFact, limits: tuple[int, int, int, float],
              shared_skeleton: Projections, tag: int | None,
              cut: PlaceCut | None = None) -> None:
    """`scan` over arrangements as they are met (their groups' codes), each keyed as it
    comes: one winning tile, so the search can stop before the rest are even enumerated.
    With `cut`, once its bounds are worked out a place whose group's bound cannot beat the
    best is not read, and the best of them ends the scan."""
    if s.sc.plan.queries is not None:
        scan_bits(s, arranged, win_tile, cand_win, limits, shared_skeleton, tag, cut)
        return
    possible, free12, free3, bound_all = limits
    seen: dict[tuple[int, ...], tuple[int, float]] = {}
    for codes in arranged:
        if cut is not None and cut.tick():
            bound_all = min(bound_all, cut.top)
            if s.best_fan >= bound_all:
                return
        skey = coded_key(codes)
        entry = seen.get(skey)
        if entry is None:
            entry = seen[skey] = skeleton_entry(s, skey, None, codes, cand_win, possible,
                                                free12, shared_skeleton, tag)
        held_base, bound = entry
        if bound <= s.best_fan:
            continue
        read(s, None, codes, skey, win_tile, cand_win, held_base, bound, possible, free3,
             cut)
        if cut is not None and cut.grown():
            bound_all = min(bound_all, cut.settle())
        if s.best_fan >= bound_all:
            return


def scan_bits(s: State, arranged: Iterator[tuple[int, ...]], win_tile: int,
              cand_win: WinFact, limits: tuple[int, int, int, float],
              shared_skeleton: Projections, tag: int | None, cut: PlaceCut | None) -> None:
    """`scan_each` when the skeleton-level patterns read a skeleton only through shape
    queries: then all that decides an arrangement's skeleton-level result and bound is the
    bits of the queried keys it holds (`projection_of`), so arrangements are keyed by those
    bits, an int or'ed from a table per group, not by their sorted skeleton key."""
    possible, free12, free3, bound_all = limits
    key_bits = s.sc.plan.key_bits
    key_of = arrange.ALL_KEYS
    declared_bits = s.declared_bits
    seen: dict[int, tuple[int, float]] = {}
    for codes in arranged:
        if cut is not None and cut.tick():
            bound_all = min(bound_all, cut.top)
            if s.best_fan >= bound_all:
                return
        bits = declared_bits
        for c in codes:
            bits |= key_bits[key_of[c]]
        entry = seen.get(bits)
        if entry is None:
            held_sk = skeleton_level(s, bits, None, None, cand_win, possible, shared_skeleton,
                                   tag, codes)
            entry = seen[bits] = (held_sk, s.sc.bound(held_sk, free12))
        held_base, bound = entry
        if bound <= s.best_fan:
            continue
        read(s, None, codes, None, win_tile, cand_win, held_base, bound, possible, free3,
             cut)
        if cut is not None and cut.grown():
            bound_all = min(bound_all, cut.settle())
        if s.best_fan >= bound_all:
            return


def skeleton_entry(s: State, skey: tuple[int, ...], raw: tuple[RawGroup, ...] | None,
                   codes: tuple[int, ...], cand_win: WinFact, possible: int, free12: int,
                   shared_skeleton: Projections, tag: int | None) -> tuple[int, float]:
    """A skeleton's skeleton-level patterns (judged on one of its arrangements: `raw`, or
    made from `codes`) and the best fan its readings can reach."""
    held_sk = skeleton_level(s, projection_of(s, skey), raw, None, cand_win, possible,
                           shared_skeleton, tag, codes)
    return held_sk, s.sc.bound(held_sk, free12)


def read(s: State, raw: tuple[RawGroup, ...] | None, codes: tuple[int, ...],
         skey: tuple[int, ...] | None, win_tile: int, cand_win: WinFact, held_base: int,
         bound: float, possible: int, free3: int, cut: PlaceCut | None = None) -> None:
    """One arrangement (`codes` its groups' codes, `raw` its groups or None to make them
    only if needed, `skey` its skeleton key or None): its arrangement-level patterns, then each
    place of the winning tile with the reading-level ones.

    At each place only the reading-level patterns whose needs its group meets are judged
    (`Scorer.group_allows`; the others cannot hold there), and none if even all of them
    could not beat the best. Most places leave none: then no facts are built (not even
    the groups' facts, the skeleton index or the hun's) unless the place makes a new
    best. With `cut`'s bounds worked out, a place whose group's bound (`place_bound`)
    cannot beat the best is skipped too."""
    sc = s.sc
    _, _, arrangement_level, reading_level = sc.plan.by_level
    plain: tuple[GroupFact, ...] | None = None
    hun_fact: HunFact | None = None
    index: frozenset[int] | None = None
    all_groups = arrange.ALL_GROUPS
    if arrangement_level:
        plain = coded_facts(codes)
        if raw is None:
            raw = tuple([all_groups[c] for c in codes])
        hun_fact = HunFact(s.hun_kinds, s.held_hun, raw)
        index = skeleton_index(s, codes, skey)
        f2 = Facts(plain + s.declared, cand_win, s.hand_fact, hun_fact, s.context, index)
        f2.held = held_base
        held_base = judge(s, arrangement_level, f2, possible)
        bound = sc.bound(held_base, free3)
        if bound <= s.best_fan:
            return
    win_is_hun = cand_win.is_hun
    gated = free3 & sc.plan.gated
    fan = sc.fan(held_base).fan
    base_fan = fan if isinstance(fan, float) else float(fan)    # a place with nothing to judge
    for i, stands in coded_win_places(codes, win_tile, win_is_hun):
        if cut is not None and cut.of(codes[i]) <= s.best_fan:
            continue
        held = held_base
        live = free3 & ~gated
        g = all_groups[codes[i]]
        if gated:
            live |= gated & sc.group_allows(g, win_tile, stands, win_is_hun,
                                            _ALLOW_CODE[codes[i]])
        # the most this place can be worth cannot beat the best: skip it
        if (sc.bound(held_base, live) if live else base_fan) <= s.best_fan:
            if s.best_fan >= bound or not free3:
                break
            continue
        held_g = group_fact(g, True, win_is_hun)
        if plain is None:
            groups = coded_facts(codes, i, held_g)
        else:
            groups = plain[:i] + (held_g,) + plain[i + 1:]
        if s.declared:
            groups += s.declared
        if live:
            if hun_fact is None or index is None:
                if raw is None:
                    raw = tuple([all_groups[c] for c in codes])
                hun_fact = HunFact(s.hun_kinds, s.held_hun, raw)
                index = skeleton_index(s, codes, skey)
            f = Facts(groups, WinFact(win_tile, win_is_hun, stands, held_g), s.hand_fact,
                      hun_fact, s.context, index)
            f.held = held_base
            held = judge(s, reading_level, f, live)
        keep_best(s, held, groups, win_tile)
        if s.best_fan >= bound or not free3:
            break


def skeleton_index(s: State, codes: tuple[int, ...], skey: tuple[int, ...] | None
                   ) -> frozenset[int]:
    """An arrangement's skeleton index (`Facts.index`): its groups' keys (`skey`, or read
    from `codes`) and the declared melds'."""
    if skey is None:
        key_of = arrange.ALL_KEYS
        return frozenset([key_of[c] for c in codes]) | s.declared_keys
    return frozenset(skey) | s.declared_keys
