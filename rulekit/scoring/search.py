"""The judging every search path shares: the state of one hand's search, judging patterns
level by level, skeleton-level results shared between skeletons and hands, and `keep_best`.

Patterns are judged at the level they read (plan.py): skeleton-level ones once per skeleton
(shared between skeletons, and often hands, with the same shape-query projection), then the
arrangement-level ones, then the reading-level ones per place of the winning tile. The two
search paths stand on this module side by side: the scan (`scan.py`, arrangements one by
one) and the place search (`places.py`); `route.py` says which a hand takes. Both end in
`keep_best`, the one routine that values a reading and keeps it if it is the best.
"""
from __future__ import annotations

from typing import Any, Final, Sequence

from rulekit import arrange, limits
from rulekit.algebra import Breakdown
from rulekit.arrange import Layout, RawGroup
from rulekit.codes import (DRAGON_START, HONOR_START, NUM_KINDS, SKELETON, SUIT_BASES, SUIT_SIZE,
                           TIAO_START, TONG_START, WAN_START, group_key)
from rulekit.dsl.compile import CompiledPattern
from rulekit.errors import RulesetError
from rulekit.facts import ContextFact, Facts, GroupFact, HandFact, HunFact, WinFact, plain_facts
from rulekit.ruleset.model import Ruleset
from rulekit.scoring.keys import ProjKey, tagged
from rulekit.scoring.scorer import Judged, Scorer

Projections = dict[ProjKey, Judged]


INF: Final = float("inf")
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
        self.rs = rs                # read only when called: most hands never call it
        self.tiles = tiles
        self.hun = hun

    def __call__(self) -> tuple[int, ...]:
        wild_tiles, wild_ranks, tiles, hun = (self.rs.wild_tiles, self.rs.wild_ranks,
                                              self.tiles, self.hun)
        dom = set(wild_tiles) | set(tiles) | set(hun)
        for base in SUIT_BASES[:3]:
            for r in wild_ranks:
                if 1 <= r <= SUIT_SIZE:
                    dom.add(base + r - 1)
        classes = ((WAN_START, TONG_START), (TONG_START, TIAO_START), (TIAO_START, HONOR_START),
                   (HONOR_START, DRAGON_START), (DRAGON_START, NUM_KINDS))
        for lo, hi in classes:
            dom.update([k for k in range(lo, hi) if k not in dom][:2])
        return tuple(sorted(dom))


class State:
    """What one hand's search shares between its steps: built once per hand."""

    __slots__ = ("sc", "fixed", "hand_fact", "context", "hun_kinds",
                 "held_hun", "declared", "declared_keys", "declared_bits", "layout", "wild",
                 "best_fan", "best", "steps", "goal", "hun0")

    def __init__(self, sc: Scorer, fixed: int,
                 hand_fact: HandFact, context: ContextFact, hun_kinds: tuple[int, ...],
                 held_hun: tuple[int, ...], declared: tuple[GroupFact, ...],
                 declared_keys: frozenset[int], layout: Layout, wild: WildDomain,
                 hun0: HunFact | None = None) -> None:
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
        self.goal = INF             # a reading of this fan or more ends the search (`reaches`)
        # the hun's facts with no groups read (the hand-level facts' own, when given)
        self.hun0 = hun0 if hun0 is not None else HunFact(hun_kinds, held_hun)


def keep_best(s: State, held: int, groups: tuple[GroupFact, ...], win_tile: int) -> None:
    """Value one reading (its fan is read from the table by the mask of patterns it holds)
    and keep it if it beats the best so far: the one place every search path ends."""
    bd = s.sc.fan(held)
    if bd.fan > s.best_fan:
        s.best_fan, s.best = float(bd.fan), (bd, groups, win_tile, held)
        if bd.fan >= s.goal:          # a yes/no question answered: every bound now prunes
            s.best_fan = INF


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


def projections(s: State, cand_win: WinFact, possible: int) -> tuple[Projections, int | None]:
    """Where skeleton-level results are kept, and the tag their keys carry.

    When those patterns read only shape queries and hand-level facts, a result depends on
    the projection, the hand-level patterns, the patterns still possible and the facts read:
    it is kept by the scorer, tagged with these, and serves every later hand that agrees
    (the key is one int: the tag above the projection's bits). Otherwise it is kept for
    this hand only. Only the skeleton-level patterns of `possible` are judged, so only they
    go into the tag: a 天和's candidate winning tiles that differ in the others share it.
    """
    getters = s.sc.plan.skeleton_reads
    if getters is None:
        return {}, None
    f = Facts((), cand_win, s.hand_fact, s.hun0, s.context, NO_INDEX)
    # the tag becomes a small int once per hand, so the per-skeleton lookups stay cheap
    possible1 = possible & s.sc.plan.level_masks[SKELETON]
    return s.sc.skeleton_tag((s.fixed, possible1, tuple([get(f) for get in getters])))


def skeleton_level(s: State, proj: Any, raw: tuple[RawGroup, ...] | None,
                   index: frozenset[int] | None, cand_win: WinFact, possible: int,
                   shared: Projections, tag: Any, codes: tuple[int, ...] = ()) -> Judged:
    """Skeleton-level patterns of one skeleton, judged on `raw`: shared by every skeleton
    with the same projection (and, tagged, by every hand that agrees on what they read).
    `index` is the skeleton's (`Facts.index`), or None to build it only if judged; `raw`
    None for an arrangement given by its `codes`, its groups then made only if judged."""
    # tagged, the projection is bits of the queried keys: the tag goes above them
    key = proj if tag is None else tagged(tag, proj, len(s.sc.plan.query_keys))
    known = shared.get(key)
    if known is None:
        if s.sc.plan.by_level[SKELETON]:
            if raw is None:             # given by its codes (`arrange.ALL_GROUPS`)
                raw = tuple([arrange.ALL_GROUPS[c] for c in codes])
            if index is None:
                index = frozenset([group_key(g[0], g[1]) for g in raw]) | s.declared_keys
            known = judge_skeleton(s, plain_facts(raw) + s.declared, cand_win,
                                 HunFact(s.hun_kinds, s.held_hun, raw), index, possible)
        else:
            known = s.fixed
        shared[key] = known
    return known


def judge_skeleton(s: State, groups: tuple[GroupFact, ...], cand_win: WinFact,
                 hun_fact: HunFact, index: frozenset[int], possible: int) -> Judged:
    """The skeleton-level patterns judged on one skeleton: the mask of the patterns that
    hold so far (the hand-level ones too)."""
    f1 = Facts(groups, cand_win, s.hand_fact, hun_fact, s.context, index)
    f1.held = s.fixed
    return judge(s, s.sc.plan.by_level[SKELETON], f1, possible)


def skeleton_at(s: State, bits: int, cand_win: WinFact, hun_fact: HunFact,
              possible: int, shared: Projections, tag: int | None) -> int:
    """The skeleton-level patterns that hold for skeletons with these queried keys (bits of
    `plan.query_keys`, declared melds included): shape queries are all they read of a
    skeleton, so the declared melds and the queried keys stand in for its groups."""
    keys = s.sc.plan.query_keys
    proj = bits if tag is None else tagged(tag, bits, len(keys))
    known = shared.get(proj)
    if known is None:
        index = frozenset([k for i, k in enumerate(keys) if bits >> i & 1]) | s.declared_keys
        known = shared[proj] = judge_skeleton(s, s.declared, cand_win, hun_fact, index,
                                            possible)
    return known
