"""Hand → arrangements → pattern facts → fan algebra → a `ScoreResult`.

The pipeline is the same for every ruleset; all that is Tianjin lives in the ruleset's data.
Patterns that read only the hand and its context are evaluated once; the rest once per
reading (arrangement + place of the winning tile). Exploration stops as soon as a reading
reaches the best fan the algebra allows for this hand, so hands rich in hun stay fast.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from rulekit import arrange
from rulekit.algebra import Breakdown, num
from rulekit.arrange import Layout, RawGroup
from rulekit.dsl.compile import CompiledPattern
from rulekit.dsl.vocabulary import ARRANGEMENT, HAND, READING
from rulekit.facts import (ContextFact, Facts, GroupFact, HandFact, HunFact, declared_group,
                           group_fact, readings)
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


@dataclass(frozen=True, slots=True)
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

    hand_level: tuple[CompiledPattern, ...]
    arrangement_level: tuple[CompiledPattern, ...]
    reading_level: tuple[CompiledPattern, ...]
    exclusive: frozenset[frozenset[str]]


def _plan(rs: Ruleset) -> _Plan:
    plan = rs.memo.get("plan")
    if plan is None:
        pats = rs.patterns
        exclusive = frozenset(frozenset((a.id, b.id)) for i, a in enumerate(pats)
                              for b in pats[i + 1:] if a.excludes(b) or b.excludes(a))
        plan = rs.memo["plan"] = _Plan(tuple(p for p in pats if p.dep == HAND),
                                       tuple(p for p in pats if p.dep == ARRANGEMENT),
                                       tuple(p for p in pats if p.dep == READING), exclusive)
    return plan


def _bound(rs: Ruleset, plan: _Plan, held: frozenset[str],
           free: tuple[CompiledPattern, ...]) -> float:
    key = ("bound", held, len(free))
    value = rs.memo.get(key)
    if value is None:
        value = rs.memo[key] = rs.algebra.upper_bound(held, (p.id for p in free),
                                                      plan.exclusive)
    return value


def score_hand(hand: Hand, rs: Ruleset) -> ScoreResult:
    """Score a validated hand under a ruleset. Never raises for a legal `Hand`."""
    plan = _plan(rs)
    hun_set = frozenset(hand.hun)
    concealed_all = hand.concealed + (hand.win_tile,)
    meld_tiles: tuple[int, ...] = ()
    for m in hand.melds:
        meld_tiles += (m.tile,) * (4 if m.kind == "kong" else 3)
    declared = tuple(group_fact(declared_group(m.kind, m.tile, m.concealed, m.golden),
                                False, False) for m in hand.melds)
    kong_kinds = tuple(m.kong_type for m in hand.melds if m.kind == "kong")
    kong_fan = sum(rs.kong_points[k] for k in kong_kinds)  # type: ignore[index]
    context = ContextFact(hand.win_by, hand.heavenly, hand.discarded_hun,
                          kong_kinds[-1] if kong_kinds else "none",  # type: ignore[arg-type]
                          len(hand.flowers), hand.earthly, hand.ready_declared)
    held_hun = tuple(sorted(t for t in concealed_all if t in hun_set))
    hand_fact = HandFact(len(held_hun), tuple(sorted(concealed_all + meld_tiles)),
                         tuple(sorted(concealed_all)), declared, hand.flowers)

    # hand-level patterns, once
    base = Facts((), None, hand_fact, HunFact(hand.hun, held_hun), context)
    indep: dict[str, bool] = {}
    base.pats = indep
    for p in plan.hand_level:
        indep[p.id] = bool(p.fn(base))
    forbidden = next((f.id for f in rs.forbids if f.fn(base)), None)
    for cond, fan in rs.instant_wins:
        if cond.fn(base):
            return _finish(rs, base, Breakdown(num(fan), (), f"{cond.name} {num(fan)}"),
                           (), hand.win_tile, kong_fan, kong_kinds, forbidden, instant=True)

    fixed = frozenset(k for k, v in indep.items() if v)
    bound_all = _bound(rs, plan, fixed, plan.arrangement_level + plan.reading_level)
    fans: dict[frozenset[str], Breakdown] = rs.memo.setdefault("fans", {})
    level1, level2 = plan.arrangement_level, plan.reading_level

    if hand.heavenly and rs.heavenly_free_winning_tile:
        candidates = tuple(sorted(set(concealed_all)))
    else:
        candidates = (hand.win_tile,)
    counts = [0] * 34
    for t in concealed_all:
        if t not in hun_set:
            counts[t] += 1
    layout = Layout(tuple(counts), len(held_hun), 4 - len(hand.melds))
    if not arrange.is_winning_shape(layout.counts, layout.hun, layout.need_melds):
        return ScoreResult(False, 0, num(kong_fan), num(kong_fan), (), (),
                           ("not a winning shape: no four melds and a pair",),
                           forbidden or NOT_A_WINNING_SHAPE, kongs=kong_kinds)

    best_fan = -1.0
    best: tuple[Breakdown, tuple[GroupFact, ...], int] | None = None
    wild = _WildDomain(rs, concealed_all, hand.hun)
    done = False
    for win_tile in candidates:
        win_is_hun = win_tile in hun_set
        for raw in arrange.arrangements(layout, wild):
            hun_fact = HunFact(hand.hun, held_hun, _fills(raw))
            pats1 = indep
            if level1:
                f1 = Facts(tuple(group_fact(g, False, False) for g in raw) + declared, None,
                           hand_fact, hun_fact, context)
                pats1 = f1.pats = dict(indep)
                for p in level1:
                    pats1[p.id] = bool(p.fn(f1))
            held1 = frozenset(k for k, v in pats1.items() if v)
            bound = _bound(rs, plan, held1, level2)
            if bound <= best_fan:
                continue
            for groups, win in readings(raw, declared, win_tile, win_is_hun):
                if level2:
                    f = Facts(groups, win, hand_fact, hun_fact, context)
                    pats = f.pats = dict(pats1)
                    for p in level2:
                        pats[p.id] = bool(p.fn(f))
                    held = frozenset(k for k, v in pats.items() if v)
                else:
                    held = held1
                bd = fans.get(held)
                if bd is None:
                    bd = fans[held] = rs.algebra.fan(held)
                if bd.fan > best_fan:
                    best_fan, best = float(bd.fan), (bd, groups, win_tile)
                if best_fan >= bound or not level2:
                    break
            if best_fan >= bound_all:
                done = True
                break
        if done:
            break
    assert best is not None  # a winning shape has at least one reading
    bd, groups, win_tile = best
    return _finish(rs, base, bd, groups, win_tile, kong_fan, kong_kinds, forbidden)


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


def _fills(raw: tuple[RawGroup, ...]) -> tuple[int, ...]:
    return tuple(sorted(f for g in raw for f in g.fills))


def _finish(rs: Ruleset, base: Facts, bd: Breakdown, groups: tuple[GroupFact, ...],
            win_tile: int, kong_fan: float, kong_kinds: tuple[str, ...],
            forbidden: str | None, instant: bool = False) -> ScoreResult:
    explain = [bd.text]
    kong_fan_counted = kong_fan
    multiplier = 1.0
    for rule in rs.total_rules:
        if rule.condition.fn(base):
            if rule.kong_points_as and kong_kinds:
                kong_fan_counted += (rs.kong_points[rule.kong_points_as]
                                     - rs.kong_points[kong_kinds[-1]])
            multiplier *= rule.multiply_total
            explain.append(f"{rule.name}: total × {num(rule.multiply_total)}")
    for k in kong_kinds:
        explain.append(f"+ {_KONG_NAMES[k]} {num(rs.kong_points[k])}")
    hand_fan = bd.fan
    total = (hand_fan + kong_fan_counted) * multiplier
    if kong_kinds or multiplier != 1:
        explain.append(f"total {num(total)}")
    reach = total if rs.minimum_counts_kong_points else hand_fan
    reason = forbidden
    if reason is None and not instant and reach < rs.minimum:
        reason = BELOW_MINIMUM
        explain.append(f"below the minimum of {num(rs.minimum)}")
    elif forbidden is not None:
        name = next((f.name for f in rs.forbids if f.id == forbidden), forbidden)
        explain.append(f"cannot win: {name}")
    shown = tuple(t.id for t in bd.terms if t.role != "combination")
    return ScoreResult(
        win=reason is None,
        hand_fan=num(hand_fan),
        kong_fan=num(kong_fan),
        total_fan=num(total),
        patterns=shown,
        pattern_names=tuple(rs.pattern_name(p) for p in shown),
        explain=tuple(explain),
        reason=reason,
        win_tile=tile_name(win_tile),
        groups=groups,
        kongs=kong_kinds,
    )


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
