"""The search place by place: each group that can hold the winning tile, best bound first.

Every reading puts the winning tile in one group (its *place*); the rest of the hand is an
arrangement of what is left. A place fixes what the reading-level patterns' needs ask of the
winning tile's group (混吊: the pair, with one other hun; 捉5: the run from 4萬, standing for
5萬), and the per-suit tables (`reach.skeleton_reach`) tell which shape queries the rest
can answer together. So before any arrangement is read, each place gets a bound of its own
from the fan algebra: the best the skeleton patterns its rest can reach, with the
reading-level patterns the place allows. Places of every candidate winning tile (a 天和
tries all fourteen) are then read in one queue, best bound first, and the search stops at
the first place whose bound cannot beat the best reading found. The bound of a place is
exact for shape queries and needs, and before it is read, the patterns its rest can decide
are read abstractly on that rest (`sharpen`, `abstract.ruled_out`), so with many hun the
valuable readings are met first and the rest of the queue is cut whole, where a scan of
every arrangement would read them all (docs/design.md).
"""
from __future__ import annotations

import heapq
from typing import Iterator

from rulekit import arrange
from rulekit.arrange import Layout, RawGroup
from rulekit.codes import (ARRANGEMENT, HAND, HONOR_START, NUM_KINDS, READING, RUN,
                          SKELETON, SUIT_SIZE, group_key)
from rulekit.facts import Facts, GroupFact, HunFact, WinFact, group_fact, plain_facts
from rulekit.scoring.abstract import View, ruled_out, spot_reads
from rulekit.scoring.holding import FILLING, HOLDING, holds, rest_layout
from rulekit.scoring.rests import Live, live_arrangements
from rulekit.scoring.keys import (BoundKey, ProjKey, SpotSig, group_code,
                                  spot_kind)
from rulekit.scoring.reach import Combined, rest_most, skeleton_reach
from rulekit.scoring.suit_reach import Walks
from rulekit.scoring.search import (INF, Projections, State, judge, keep_best, skeleton_at,
                                    projections, skeleton_level)


class Spot:
    """One group the winning tile can sit in, the kind it stands for there, and its bound."""

    __slots__ = ("bound", "group", "stands_for", "free", "exact", "sharp")

    def __init__(self, bound: float, group: RawGroup, stands_for: int, free: int) -> None:
        self.bound = bound
        self.group = group
        self.stands_for = stands_for
        self.free = free              # arrangement- and reading-level patterns still possible
                                      # (a mask)
        self.exact = False            # whether `bound` is from the rest's own reach
        self.sharp = False            # and through the abstract reading (`sharpen`)


class SkeletonHeld:
    """Skeleton-level results and the whole hand's cheap bounds, kept for the candidate
    winning tiles whose skeleton-level results agree (the same tag, `search.projections`):
    a 天和's fourteen share them instead of reading them fourteen times."""

    __slots__ = ("of", "whole", "whole_of")

    def __init__(self) -> None:
        # by queried-key bits: the mask of skeleton-level patterns that hold; by a spot's
        # own key bit: the distinct such masks over the whole hand's reach; by that bit and
        # the spot's free patterns (own << mask width | free): its bound from them (before
        # a candidate's own `bound_all` caps it)
        self.of: dict[int, int] = {}
        self.whole: dict[int, list[int]] = {}
        self.whole_of: dict[int, float] = {}


class Cand:
    """One candidate winning tile: what its places share (its patterns still possible,
    where skeleton results are kept, and the memos of its bounds)."""

    __slots__ = ("win_tile", "win_is_hun", "cand_win", "possible", "shared", "tag",
                 "bound_all", "free_sk", "held_sk", "hun_fact", "dead_of", "reads_of", "later")

    def __init__(self, s: State, win_tile: int, skeleton_helds: dict[int, SkeletonHeld]) -> None:
        self.win_is_hun = win_is_hun = win_tile in s.hun_kinds
        possible, _, _, bound_all = s.sc.limits(s.fixed, win_tile, win_is_hun, s.layout.hun)
        # skeleton-level facts know the winning tile (not where it sits)
        cand_win = WinFact(win_tile, win_is_hun, win_tile, None)
        shared, tag = projections(s, cand_win, possible)
        self.win_tile = win_tile
        self.cand_win = cand_win
        self.possible = possible
        self.shared = shared
        self.tag = tag
        self.bound_all = bound_all
        self.free_sk = possible & s.sc.plan.level_masks[SKELETON]
        if tag is None:               # results kept for this candidate only
            self.held_sk = SkeletonHeld()
        else:
            held_sk = skeleton_helds.get(tag)
            if held_sk is None:
                held_sk = skeleton_helds[tag] = SkeletonHeld()
            self.held_sk = held_sk
        self.hun_fact = HunFact(s.hun_kinds, s.held_hun)
        # by (the spot's group code, what it stands for, the rest's bits): the patterns an
        # abstract reading rules out there (`rest_dead`)
        self.dead_of: dict[tuple[SpotSig | None, int], int] = {}
        # by a spot's free patterns: what they read of it (`abstract.spot_reads`)
        self.reads_of: dict[int, tuple[bool, bool]] = {}
        plan = s.sc.plan
        self.later = plan.by_level[ARRANGEMENT] + plan.by_level[READING]


class Place:
    """What one rest of the hand is read for: the spots of the winning tile that leave it
    (a hun winning tile in any of several groups all of hun leaves the same rest, and may
    stand for each kind of a run), best bound first. Each arrangement of the rest is
    enumerated once for all of them. `exact` tells whether its leading spot's bound is the
    rest's own (`refine`; the spots after it may keep the whole hand's cheap bounds, no
    better)."""

    __slots__ = ("bound", "cand", "taken", "rest_of", "spots", "exact", "bound_of", "reach")

    def __init__(self, cand: Cand, spots: list[Spot]) -> None:
        spots = _by_bound(spots)
        self.bound = spots[0].bound
        self.cand = cand
        self.taken = spots[0].group   # a group whose taking out leaves the rest (any spot's)
        self.rest_of: Layout | None = None      # the rest, once asked for (`rest`)
        self.spots = spots
        self.exact = False
        # exact bounds by what decides them (`rest_bound`): spots alike share theirs
        self.bound_of: dict[BoundKey, float] = {}
        self.reach: frozenset[int] = frozenset()    # the rest's, once refined

    def rest(self, layout: Layout) -> Layout:
        """The rest of the hand `layout` this place leaves, made when first asked: most
        places are cut by a better one before they are refined (~1 in 10 on a 天和)."""
        rest = self.rest_of
        if rest is None:
            rest = self.rest_of = rest_layout(layout, self.taken)
        return rest


def by_place(s: State, candidates: tuple[int, ...]) -> None:
    """Every reading, place by place, over all candidate winning tiles at once.

    Places start with cheap bounds from the whole hand's reach; the best is made exact
    (from its rest's own reach, which also tells whether the rest completes at all) only
    when it comes first, and goes back in line if it drops: most places are never refined.
    """
    plan = s.sc.plan
    keys = plan.query_keys if plan.queries is not None else ()
    # the suits' walks, shared by the rests whose suits agree on their first ranks
    walks: Walks = {}
    # and the suits' combination, shared by the rests of the same real tiles
    combined = Combined(s.layout.need_melds)
    whole = (skeleton_reach(s.layout, keys, s.layout.hun, walks, combined)
             if plan.by_level[SKELETON] else frozenset([0]))
    # best bound first; among equals, fewer spots first (a place of many spots is a hun
    # winning tile in groups all of hun: costly to read, and rarely the best)
    # (then exact places first: they are read, not bounded again), then first made; the
    # three ties as one int (`in_line`): a heap of 3-tuples compares fewer items
    queue: list[tuple[float, int, Place]] = []
    hun_groups: list[tuple[RawGroup, int, int, int]] | None = None
    alike_hun = not plan.reads_win_tile
    skeleton_helds: dict[int, SkeletonHeld] = {}
    for win_tile in candidates:
        if alike_hun and win_tile in s.hun_kinds:
            if hun_groups is not None:
                continue              # its readings are the first hun winning tile's
        cand = Cand(s, win_tile, skeleton_helds)
        if cand.bound_all <= s.best_fan:
            continue
        if not cand.win_is_hun:
            groups = win_groups(s, win_tile, False)
        elif hun_groups is None:      # the same for every hun winning tile: listed once
            groups = hun_groups = win_groups(s, win_tile, True)
        else:
            groups = hun_groups
        for place in places_of(s, cand, groups, whole):
            queue.append((-place.bound, in_line(False, len(place.spots), len(queue)), place))
    reach_of: dict[tuple[tuple[int, ...], int, int, int], frozenset[int]] = {}
    # the abstract reading runs only on a place about to be read (`sharpen`)
    sharpens = bool(plan.rest_read) and plan.queries is not None and bool(plan.by_level[SKELETON])
    heapq.heapify(queue)
    seq = len(queue)
    while queue:
        place = heapq.heappop(queue)[2]
        if place.bound <= s.best_fan:
            return                    # the best bound left: no place can do better
        if not place.exact:
            if refine(s, place, reach_of, walks, -queue[0][0] if queue else -1.0, combined):
                heapq.heappush(queue, (-place.bound,
                                       in_line(place.exact, len(place.spots), seq), place))
                seq += 1
            continue
        if sharpens and not place.spots[0].sharp:
            bound = place.bound
            if not sharpen(s, place):
                continue
            if place.bound < bound or not place.exact:
                heapq.heappush(queue, (-place.bound,
                                       in_line(place.exact, len(place.spots), seq), place))
                seq += 1
                continue
        read_place(s, place)


def in_line(exact: bool, spots: int, seq: int) -> int:
    """A place's order in `by_place`'s queue among places of the same bound, as one int:
    exact first, then fewer spots, then first made (the order of the tuple (not exact,
    spots, seq): spots < 2^28, seq < 2^32)."""
    return (0 if exact else 1) << 60 | spots << 32 | seq


def places_of(s: State, cand: Cand, groups: list[tuple[RawGroup, int, int, int]],
              whole: frozenset[int]) -> list[Place]:
    """The places of one candidate winning tile (in `groups`, from `win_groups`), each with
    its spots' cheap bounds."""
    sc = s.sc
    plan = sc.plan
    possible, win_tile = cand.possible, cand.win_tile
    free23 = possible & (plan.level_masks[ARRANGEMENT] | plan.level_masks[READING]) & ~plan.gated
    by_rest: dict[int, list[Spot]] = {}
    for g, stands, rkey, code in groups:
        free = free23 | (sc.group_allows(g, win_tile, stands, cand.win_is_hun, code)
                         & possible)
        bound = spot_bound(s, cand, g, free, cand.held_sk.whole, whole, True)
        if bound > s.best_fan:
            hit = by_rest.get(rkey)
            if hit is None:
                hit = by_rest[rkey] = []
            hit.append(Spot(bound, g, stands, free))
    # the rest is built once per place, when it is refined (`Place.rest`)
    return [Place(cand, spots) for spots in by_rest.values()]


def spot_bound(s: State, cand: Cand, g: RawGroup, free: int, skeleton_helds: dict[int, list[int]],
               reach: frozenset[int], whole: bool) -> float:
    """The best fan of a reading with the winning tile in `g` and the queried keys of one
    of `reach` (bits of `plan.query_keys`): the whole hand's reach (cheap, shared; only
    its sets holding `g`'s key count) or the rest's (exact, `g`'s key added). Either
    contains every such reading's keys, so the bound holds. The reach's sets come down to
    a few distinct skeleton-level masks (`skeleton_helds`, by `g`'s own key bit): only those are
    bounded."""
    sc = s.sc
    plan = sc.plan
    if not plan.by_level[SKELETON]:
        return min(cand.bound_all, sc.bound(s.fixed, free))
    if plan.queries is None:
        return min(cand.bound_all, sc.bound(s.fixed, cand.free_sk | free))
    own = plan.query_bit.get(group_key(g[0], g[1]), 0)
    key = spot_kind(own, free, sc.width)
    if whole:                         # then the bound depends on g only through `own`
        hit = cand.held_sk.whole_of.get(key)
        if hit is not None:
            return min(hit, cand.bound_all)
    options = skeleton_helds.get(own)
    if options is None:
        options = skeleton_helds[own] = skeleton_sets(s, cand, own, reach, whole)
    bound = -1.0
    for held_sk in options:
        b = sc.bound(held_sk, free)
        if b > bound:
            bound = b
    if whole:
        cand.held_sk.whole_of[key] = bound
    return min(bound, cand.bound_all)


def skeleton_sets(s: State, cand: Cand, own: int, reach: frozenset[int], whole: bool
               ) -> list[int]:
    """The distinct masks of skeleton-level patterns that hold over the sets of `reach`
    with a group of own key bit `own` added (the whole hand's reach: its sets that hold
    that key), declared melds included."""
    gbit = own | s.declared_bits
    out: dict[int, None] = {}
    for bits in reach:
        if whole and bits & own != own:
            continue
        both = bits | gbit
        held_sk = cand.held_sk.of.get(both)
        if held_sk is None:
            held_sk = cand.held_sk.of[both] = skeleton_at(s, both, cand.cand_win, cand.hun_fact,
                                                    cand.possible, cand.shared, cand.tag)
        out[held_sk] = None
    return list(out)


def sharpen(s: State, place: Place) -> bool:
    """Before a place is read, its exact spots' bounds through the abstract reading, best
    first, while they lead: False when no spot can beat the best any more. The reading
    costs more than a bound, so only spots about to be read pay it (`refine` leaves it
    out): a place it drops goes back in line, often behind the place that holds the best
    reading, and a spot whose rest's reach already puts it under the best never pays."""
    best = s.best_fan
    top = -1.0
    for sp in place.spots:
        if sp.bound <= best or sp.bound <= top:
            break                     # sorted: the bounds left are no better
        if sp.exact and not sp.sharp:
            sp.bound = rest_bound(s, place, sp, place.reach, True)
            sp.sharp = True
        top = max(top, sp.bound)
    return _keep(place, [sp for sp in place.spots if sp.bound > best])


def rest_bound(s: State, place: Place, sp: Spot, reach: frozenset[int], sharp: bool
               ) -> float:
    """A spot's bound from its rest's own reach (`refine`): over each set of queried keys
    the rest can hold, the skeleton-level patterns that hold with the spot's group added,
    and the spot's free patterns less those an abstract reading of that rest rules out
    (`abstract.ruled_out`). Sets that cannot beat the best bound so far are not read.
    Spots that agree on their own key bit, their free patterns and what those read of
    them (`spot_sig`) share the result. Not `sharp`: without the abstract reading."""
    sc = s.sc
    cand = place.cand
    key = bound_key(s, cand, sp, sharp)
    own, _, sig, _ = key
    # what an abstract reading may rule out
    worth = sp.free & sc.plan.rest_read if sharp else 0
    hit = place.bound_of.get(key)
    if hit is not None:
        return hit
    gbit = own | s.declared_bits
    skeleton_held_of = cand.held_sk.of
    options: list[tuple[float, int, int]] = []
    top = -1.0
    seen: set[int] = set()            # (without the reading, a set's held_sk is all that counts)
    for bits in reach:
        both = bits | gbit
        held_sk = skeleton_held_of.get(both)
        if held_sk is None:
            held_sk = skeleton_held_of[both] = skeleton_at(s, both, cand.cand_win, cand.hun_fact,
                                               cand.possible, cand.shared, cand.tag)
        if not worth:
            if held_sk not in seen:
                seen.add(held_sk)
                top = max(top, sc.bound(held_sk, sp.free))
            continue
        options.append((sc.bound(held_sk, sp.free), bits, held_sk))
    best = -1.0
    if not worth:                     # the loosest set's bound, if it can beat the best
        best = top if top > s.best_fan else -1.0
    options.sort(key=lambda o: -o[0])
    for loose, bits, held_sk in options:
        if loose <= best or loose <= s.best_fan:
            break                     # (a bound cut here is below a best that only grows)
        dead = rest_dead(s, cand, sp, sig, bits, held_sk)
        b = sc.bound(held_sk, sp.free & ~dead) if dead else loose
        if b > best:
            best = b
    hit = place.bound_of[key] = min(best, cand.bound_all)
    return hit


def bound_key(s: State, cand: Cand, sp: Spot, sharp: bool) -> BoundKey:
    """What decides a spot's exact bound in its place (`rest_bound`): its own key bit, its
    free patterns, and (`sharp`) what those read abstractly read of it."""
    g = sp.group
    plan = s.sc.plan
    own = plan.query_bit.get(group_key(g[0], g[1]), 0)
    worth = sp.free & plan.rest_read if sharp else 0
    return own, sp.free, spot_sig(cand, sp, worth) if worth else None, sharp


def bound_known(s: State, place: Place, sp: Spot) -> float | None:
    """A spot's exact bound if a spot alike in its place has one already, else None."""
    return place.bound_of.get(bound_key(s, place.cand, sp, False))


def spot_sig(cand: Cand, sp: Spot, worth: int) -> SpotSig:
    """What the patterns `worth` (the spot's free ones read abstractly) can read of it
    (`abstract.spot_reads`): its whole group, or its shape and hun; what the winning tile
    stands for, if read."""
    reads = cand.reads_of.get(worth)
    if reads is None:
        reads = cand.reads_of[worth] = spot_reads(cand.later, worth)
    whole, stands = reads
    g = sp.group
    stand = sp.stands_for if stands else -1
    if whole:
        return (group_code(g), g.fills, stand)
    return (g.shape, len(g.fills), g.declared, g.concealed, g.golden, stand)


def rest_dead(s: State, cand: Cand, sp: Spot, sig: SpotSig | None, bits: int, held_sk: int
              ) -> int:
    """The free patterns of spot `sp` false on every reading whose rest holds the queried
    keys `bits` (and no other queried key): an abstract reading decides them."""
    g = sp.group
    key = (sig, bits)
    hit = cand.dead_of.get(key)
    if hit is not None:
        return hit
    plan = s.sc.plan
    qkeys = plan.query_keys
    rest_keys = frozenset([k for i, k in enumerate(qkeys) if bits >> i & 1])
    gkey = group_key(g[0], g[1])
    held_g = group_fact(g, True, cand.win_is_hun)
    f = Facts((), WinFact(cand.win_tile, cand.win_is_hun, sp.stands_for, held_g),
              s.hand_fact, cand.hun_fact, s.context,
              rest_keys | s.declared_keys | frozenset([gkey]))
    f.held = held_sk
    later = plan.level_masks[ARRANGEMENT] | plan.level_masks[READING]
    known = (plan.level_masks[HAND] | plan.level_masks[SKELETON]
             | (later & ~sp.free))
    view = View(f, known, plan.queries or frozenset(), rest_keys, (held_g,) + s.declared,
                place_rest_count(s), plan.bit)
    hit = cand.dead_of[key] = ruled_out(cand.later, sp.free & plan.rest_read, view)
    return hit


def place_rest_count(s: State) -> int:
    """How many groups the rest of the hand forms once the winning tile's is taken out."""
    return s.layout.need_melds + s.layout.need_pairs - 1


def refine(s: State, place: Place,
           reach_of: dict[tuple[tuple[int, ...], int, int, int], frozenset[int]],
           walks: Walks, target: float, combined: Combined | None = None) -> bool:
    """Make a place's bounds its rest's own: False when the rest cannot complete the hand
    or no spot can beat the best any more.

    Spots are made exact best cheap bound first, at least one per call, and only while the
    next one's cheap bound beats `target` (the best bound of the places waiting): the place
    goes back in line with the best of its exact bounds and the cheap ones left, and is read
    (`exact`) once an exact bound leads. A place of many spots whose first ones drop is then
    cut whole by a better place without bounding the rest of its spots."""
    rest = place.rest(s.layout)
    rkey = (rest.counts, rest.hun, rest.need_melds, rest.need_pairs)
    reach = reach_of.get(rkey)
    if reach is None:
        plan = s.sc.plan
        keys = plan.query_keys if plan.queries is not None else ()
        reach = reach_of[rkey] = skeleton_reach(rest, keys,
                                                rest_most(s.layout.hun, place.spots[0].group),
                                                walks, combined)
    if not reach:
        return False
    place.reach = reach
    by_rest = s.sc.plan.queries is not None and bool(s.sc.plan.by_level[SKELETON])
    skeleton_helds: dict[int, list[int]] = {}     # the rest's, by a spot's own key bit
    best = s.best_fan
    done = [sp for sp in place.spots if sp.exact and sp.bound > best]
    todo = [sp for sp in place.spots if not sp.exact]
    top = max([sp.bound for sp in done], default=-1.0)
    i = 0
    while i < len(todo):
        sp = todo[i]
        if sp.bound <= best or sp.bound <= top:
            break                     # sorted: the cheap bounds left are no better
        known = None
        if i > 0 and sp.bound <= target:
            known = bound_known(s, place, sp) if by_rest else None
            if known is None:
                break                 # another place first: this one waits in line
        sp.bound = (known if known is not None
                    else rest_bound(s, place, sp, reach, False) if by_rest
                    else spot_bound(s, place.cand, sp.group, sp.free, skeleton_helds, reach,
                                    False))
        sp.exact = True
        if sp.bound > best:
            done.append(sp)
            top = max(top, sp.bound)
        i += 1
    return _keep(place, done + [sp for sp in todo[i:] if sp.bound > best])


def _keep(place: Place, spots: list[Spot]) -> bool:
    """Keep `spots` (those that can still beat the best) in `place`, best bound first and exact
    before cheap among equals, the place's bound its first; False when none is left."""
    if not spots:
        return False
    spots = best_first(spots)
    place.spots = spots
    place.bound = spots[0].bound
    place.exact = spots[0].exact
    return True


def best_first(spots: list[Spot]) -> list[Spot]:
    """`spots` in the order of one stable sort on (-bound, not exact), which decides which
    equal reading a tie shows, without a tuple made per spot: as they are when already in
    that order; else the exact spots and the others apart, each in its order, each sorted
    stably on the bound unless it already is, then merged, exact first among equals. (A
    天和's hun winning tile has ~180 spots, put in order ~5 times a hand, nearly always
    two runs already sorted: `refine` adds a few exact spots to the cheap ones left, which
    stay in order; a sort's key calls were ~4% of such a hand.) May reorder `spots`
    itself."""
    if in_order(spots):
        return spots
    exact = [sp for sp in spots if sp.exact]
    if not exact or len(exact) == len(spots):
        return _by_bound(spots)
    cheap = _by_bound([sp for sp in spots if not sp.exact])
    exact = _by_bound(exact)
    # each exact spot goes before the first cheap one of its bound or lower: the cheap ones
    # between are copied as one slice
    out: list[Spot] = []
    j = 0
    n = len(cheap)
    for e in exact:
        k = j
        bound = e.bound
        while k < n and cheap[k].bound > bound:
            k += 1
        if k > j:
            out.extend(cheap[j:k])
            j = k
        out.append(e)
    out.extend(cheap[j:])
    return out


def in_order(spots: list[Spot]) -> bool:
    """Are `spots` in the order of (-bound, not exact) already?"""
    for i in range(1, len(spots)):
        a = spots[i - 1]
        b = spots[i]
        if a.bound < b.bound or (a.bound == b.bound and b.exact and not a.exact):
            return False
    return True


def _by_bound(spots: list[Spot]) -> list[Spot]:
    """`spots` sorted stably on the bound, highest first: itself, sorted only if it is not
    in that order already."""
    last = INF
    for sp in spots:
        if sp.bound > last:
            spots.sort(key=_minus_bound)
            break
        last = sp.bound
    return spots


def _minus_bound(sp: Spot) -> float:
    return -sp.bound


def win_groups(s: State, win_tile: int, win_is_hun: bool
               ) -> list[tuple[RawGroup, int, int, int]]:
    """Every group the winning tile can sit in, the kind it stands for there, which rest
    it leaves (`rest_code`) and its `scorer.group_code`.

    A real tile sits in a group holding it (`holding.HOLDING`, as `groups_holding` lists
    them). A hun winning tile stands for some kind k in a group with another hun or real
    tile: the groups holding a real k when the hand has one more k and one hun fewer, with
    k counted back as a fill (`holding.FILLING`; the rest is then the hand less that
    group: `rest_layout(s.layout, group)`). Only the kinds an arrangement can give such a
    group are tried: near a real tile, or in the wild domain for groups all of hun (as
    `arrange.arrangements` forms them). The groups come from tables built at import: a
    hand only checks which of them its counts and hun allow.
    """
    layout = s.layout
    counts, hun = layout.counts, layout.hun
    if not win_is_hun:
        return [(h[0], win_tile, h[3], h[4]) for h in HOLDING[win_tile]
                if holds(counts, hun, h)]
    dom = frozenset([k for k in s.wild() if 0 <= k < NUM_KINDS])
    out: list[tuple[RawGroup, int, int, int]] = []
    for k in stand_ins(counts, dom):
        for h in FILLING[k]:
            if not holds(counts, hun, h) or (h[5] and not wild_group(h[0], dom)):
                continue
            out.append((h[0], k, h[3], h[4]))
    return out


def stand_ins(counts: tuple[int, ...], dom: frozenset[int]) -> list[int]:
    """Kinds a hun winning tile can stand for: in a group with a real tile (within two
    ranks of one, or of its kind), or in a group all of hun (near a wild-domain kind)."""
    near: set[int] = set()
    for k in range(NUM_KINDS):
        if not counts[k] and k not in dom:
            continue
        if k >= HONOR_START:
            near.add(k)
            continue
        for j in range(k - 2, k + 3):
            if 0 <= j < HONOR_START and j // SUIT_SIZE == k // SUIT_SIZE:
                near.add(j)
    return sorted(near)


def wild_group(g: RawGroup, dom: frozenset[int]) -> bool:
    """Is this group of hun only one `arrange.arrangements` forms? (Its kinds meet the
    wild domain as `arrange.wild_meld_options` and its pairs require.)"""
    if g.shape == RUN:
        return g.first in dom or g.first + 1 in dom or g.first + 2 in dom
    return g.first in dom


def read_place(s: State, place: Place) -> None:
    """The readings that leave one rest: each arrangement of it with each spot of the
    winning tile, every skeleton cut by its own bound within the spot's.

    With shape queries only at skeleton level, a skeleton's projection is the rest's bits
    or'ed with the spot's own key bit, so spots that agree on that bit and on the patterns
    they leave free share their skeleton-level result and bound: one check per kind of
    spot and arrangement (a hun winning tile has ~90 spots, of a few kinds).

    The arrangements whose bits let a kind reach the place's bound are read first, keeping
    only a reading that reaches it: the first such reading is the one the full read in its
    order would keep (it beats every reading before it), and it ends the place. When none
    reaches it, the full read follows, as if the first had not run."""
    plan = s.sc.plan
    by_bits = plan.queries is not None
    kinds = spot_kinds(place.spots, plan.query_bit, by_bits, s.sc.width)
    if by_bits:
        read_rests(s, place, kinds, place.bound)
        if place.bound <= s.best_fan:
            return
    read_rests(s, place, kinds, -INF)


def read_rests(s: State, place: Place, kinds: list[tuple[float, int, int, list[Spot]]],
               floor: float) -> None:
    """`read_place`'s readings, those that can reach `floor` only, and only those that do
    kept."""
    sc = s.sc
    plan = sc.plan
    _, _, arrangement_level, reading_level = plan.by_level
    cand = place.cand
    win_tile, win_is_hun, possible = cand.win_tile, cand.win_is_hun, cand.possible
    declared_keys = s.declared_keys
    by_bits = plan.queries is not None
    rests: Iterator[tuple[int, tuple[RawGroup, ...]]]
    if by_bits:
        rests = live_arrangements(place.rest(s.layout), s.wild, plan.query_bit,
                                  Live(lambda bits: kinds_live(s, cand, kinds, bits, floor)))
    else:
        rests = ((0, raw) for raw in arrange.arrangements(place.rest(s.layout), s.wild))
    for rest_bits, rest_raw in rests:
        if place.bound <= s.best_fan:
            return
        rest_keys = [group_key(x[0], x[1]) for x in rest_raw]
        rest_bits |= s.declared_bits
        plain: tuple[GroupFact, ...] | None = None
        indexes: dict[int, frozenset[int]] = {}
        for kind_bound, own, free, spots in kinds:
            if kind_bound <= s.best_fan or kind_bound < floor:
                break                 # sorted: so are the kinds after it
            g = spots[0].group
            gkey = group_key(g[0], g[1])
            proj: ProjKey = rest_bits | own if by_bits else tuple(sorted(rest_keys + [gkey]))
            held_sk = skeleton_level(s, proj, rest_raw + (g,), None, cand.cand_win, possible,
                                   cand.shared, cand.tag)
            bound = sc.bound(held_sk, free)
            if bound <= s.best_fan or bound < floor:
                continue
            if plain is None:
                plain = plain_facts(rest_raw)
            for sp in spots:
                if sp.bound <= s.best_fan or sp.bound < floor:
                    break
                g = sp.group
                raw = rest_raw + (g,)
                held_g = group_fact(g, True, win_is_hun)
                groups = plain + (held_g,) + s.declared
                f = Facts(groups, WinFact(win_tile, win_is_hun, sp.stands_for, held_g),
                          s.hand_fact, HunFact(s.hun_kinds, s.held_hun, raw), s.context,
                          index_with(indexes, rest_keys, group_key(g[0], g[1]),
                                     declared_keys))
                f.held = held_sk
                judge(s, arrangement_level, f, possible)
                held = judge(s, reading_level, f, possible)
                if floor > -INF and sc.fan(held).fan < floor:
                    continue          # the first read keeps only what reaches its floor
                keep_best(s, held, groups, win_tile)
        if place.bound <= s.best_fan:
            return                    # before the next live rest is looked for: finding
                                      # it walks the rows after this one, none can do better


def kinds_live(s: State, cand: Cand, kinds: list[tuple[float, int, int, list[Spot]]],
               bits: int, floor: float) -> bool:
    """Can some kind of spot beat the best, and reach `floor`, with a rest of these
    queried-key bits? (Shape queries are all skeleton-level patterns read, so the bits
    stand for the rest.)"""
    bits |= s.declared_bits
    sc = s.sc
    for kind_bound, own, free, _ in kinds:
        if kind_bound <= s.best_fan or kind_bound < floor:
            return False              # sorted: so are the kinds after it
        held_sk = skeleton_at(s, bits | own, cand.cand_win, cand.hun_fact, cand.possible,
                          cand.shared, cand.tag)
        bound = sc.bound(held_sk, free)
        if bound > s.best_fan and bound >= floor:
            return True
    return False


def index_with(indexes: dict[int, frozenset[int]], rest_keys: list[int], gkey: int,
               declared_keys: frozenset[int]) -> frozenset[int]:
    """The skeleton index (`Facts.index`) of one arrangement of a rest with the group of
    key `gkey` added: built once per key and arrangement (`indexes`), shared by its spots."""
    hit = indexes.get(gkey)
    if hit is None:
        hit = frozenset(rest_keys + [gkey])
        if declared_keys:
            hit = hit | declared_keys
        indexes[gkey] = hit
    return hit


def spot_kinds(spots: list[Spot], query_bit: dict[int, int], by_bits: bool, width: int
               ) -> list[tuple[float, int, int, list[Spot]]]:
    """Spots by what decides their skeleton-level result and bound (their own key bit and
    their free patterns, as own << `width` | free; each spot alone unless `by_bits`), best
    bound first."""
    out: dict[int, tuple[float, int, int, list[Spot]]] = {}
    for i, sp in enumerate(spots):
        own = query_bit.get(group_key(sp.group[0], sp.group[1]), 0)
        key = spot_kind(own, sp.free, width) if by_bits else i
        hit = out.get(key)
        if hit is None:
            out[key] = (sp.bound, own, sp.free, [sp])
        else:
            hit[3].append(sp)         # spots come best first: the kind's bound is its first
    return sorted(out.values(), key=lambda k: -k[0])
