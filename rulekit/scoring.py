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
    arrangement: tuple[GroupView, ...] = ()
    kongs: tuple[str, ...] = ()          # exposed / concealed / golden, in meld order

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


@dataclass(slots=True)
class _Best:
    fan: float = -1.0
    breakdown: Breakdown | None = None
    groups: tuple[GroupFact, ...] = ()
    raw: tuple[RawGroup, ...] = ()
    win_tile: int = -1
    held: frozenset[str] = field(default_factory=frozenset)


def _wild_kinds(rs: Ruleset, tiles: tuple[int, ...], hun: tuple[int, ...]) -> tuple[int, ...]:
    """Kinds an all-hun group may take without losing an outcome (see docs/design.md).

    Patterns only tell kinds apart through the tiles and ranks they name, the hand's own
    tiles and the hun; every other kind of a suit class behaves alike, so two stand-ins per
    class (two, so that "same" and "different" both stay reachable) are enough.
    """
    dom = set(rs.wild_tiles) | set(tiles) | set(hun)
    for base in (0, 9, 18):
        for r in rs.wild_ranks:
            dom.add(base + r - 1)
    for lo, hi in ((0, 9), (9, 18), (18, 27), (27, 31), (31, 34)):
        spare = [k for k in range(lo, hi) if k not in dom][:2]
        dom.update(spare)
    return tuple(sorted(dom))


def _kong_points(rs: Ruleset, hand: Hand) -> tuple[float, tuple[str, ...]]:
    kinds = tuple(m.kong_type for m in hand.melds if m.kind == "kong")
    return sum(rs.kong_points[k] for k in kinds), kinds  # type: ignore[index]


def score_hand(hand: Hand, rs: Ruleset) -> ScoreResult:
    """Score a validated hand under a ruleset. Never raises for a legal `Hand`."""
    hun_set = frozenset(hand.hun)
    concealed_all = hand.concealed + (hand.win_tile,)
    meld_tiles: tuple[int, ...] = ()
    for m in hand.melds:
        meld_tiles += (m.tile,) * (4 if m.kind == "kong" else 3)
    declared = tuple(declared_group(m.kind, m.tile, m.concealed, m.golden) for m in hand.melds)
    declared_facts = tuple(group_fact(d, False, False) for d in declared)
    kongs = tuple(m for m in hand.melds if m.kind == "kong")
    last_kong = kongs[-1].kong_type if kongs else "none"
    context = ContextFact(hand.win_by, hand.heavenly, hand.discarded_hun, last_kong or "none",
                          len(hand.flowers), hand.earthly, hand.ready_declared)
    held_hun = tuple(sorted(t for t in concealed_all if t in hun_set))
    hand_fact = HandFact(len(held_hun), tuple(sorted(concealed_all + meld_tiles)),
                         tuple(sorted(concealed_all)), declared_facts, hand.flowers)
    hun_fact = HunFact(hand.hun, held_hun)

    # hand-level patterns, once
    base = Facts((), WinFact(hand.win_tile, hand.win_tile in hun_set, hand.win_tile,
                             None), hand_fact, hun_fact, context)  # type: ignore[arg-type]
    indep: dict[str, bool] = {}
    for p in rs.patterns:
        if not p.dep:
            base.pats = indep
            indep[p.id] = bool(p.fn(base))
    base.pats = indep
    forbidden = next((f.id for f in rs.forbids if f.fn(base)), None)
    kong_fan, kong_kinds = _kong_points(rs, hand)

    for cond, fan in rs.instant_wins:
        if cond.fn(base):
            return _finish(rs, hand, base, Breakdown(num(fan), (), f"{cond.name} {num(fan)}"),
                           (), hand.win_tile, frozenset({cond.id}), kong_fan, kong_kinds,
                           forbidden, instant=cond)

    dep_patterns = tuple(p for p in rs.patterns if p.dep)
    fixed = frozenset(k for k, v in indep.items() if v)
    memo = rs.memo
    bound_key = ("bound", fixed)
    bound = memo.get(bound_key)
    if bound is None:
        bound = memo[bound_key] = rs.algebra.upper_bound(fixed, (p.id for p in dep_patterns))
    fans: dict[frozenset[str], Breakdown] = memo.setdefault("fans", {})

    if hand.heavenly and rs.heavenly_free_winning_tile:
        candidates = tuple(sorted(set(concealed_all)))
    else:
        candidates = (hand.win_tile,)
    need = 4 - len(hand.melds)
    best = _Best()
    wild = _wild_kinds(rs, concealed_all, hand.hun)
    for win_tile in candidates:
        counts = [0] * 34
        n_hun = 0
        for t in concealed_all:
            if t in hun_set:
                n_hun += 1
            else:
                counts[t] += 1
        layout = Layout(tuple(counts), n_hun, need)
        if not arrange.is_winning_shape(layout.counts, n_hun, need):
            continue
        win_is_hun = win_tile in hun_set
        for raw in arrange.arrangements(layout, wild):
            for groups, win in readings(raw, declared_facts, win_tile, win_is_hun):
                f = Facts(groups, win, hand_fact, HunFact(hand.hun, held_hun,
                                                          _fills(raw)), context)
                pats = dict(indep)
                f.pats = pats
                for p in dep_patterns:
                    pats[p.id] = bool(p.fn(f))
                held = frozenset(k for k, v in pats.items() if v)
                bd = fans.get(held)
                if bd is None:
                    bd = fans[held] = rs.algebra.fan(held)
                if bd.fan > best.fan:
                    best = _Best(float(bd.fan), bd, groups, raw, win_tile, held)
                    if best.fan >= bound:
                        break
            if best.fan >= bound:
                break
        if best.fan >= bound:
            break
    if best.breakdown is None:
        return ScoreResult(False, 0, num(kong_fan), num(kong_fan), (), (),
                           ("not a winning shape: no four melds and a pair",),
                           forbidden or NOT_A_WINNING_SHAPE, kongs=kong_kinds)
    return _finish(rs, hand, base, best.breakdown, best.groups, best.win_tile, best.held,
                   kong_fan, kong_kinds, forbidden)


def _fills(raw: tuple[RawGroup, ...]) -> tuple[int, ...]:
    return tuple(sorted(f for g in raw for f in g.fills))


def _finish(rs: Ruleset, hand: Hand, base: Facts, bd: Breakdown, groups: tuple[GroupFact, ...],
            win_tile: int, held: frozenset[str], kong_fan: float, kong_kinds: tuple[str, ...],
            forbidden: str | None, instant: Any = None) -> ScoreResult:
    explain = [bd.text]
    kong_fan_counted = kong_fan
    multiplier = 1.0
    for rule in rs.total_rules:
        if rule.condition.fn(base):
            if rule.kong_points_as and kong_kinds:
                old = rs.kong_points[kong_kinds[-1]]
                new = rs.kong_points[rule.kong_points_as]
                kong_fan_counted += new - old
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
    if reason is None and instant is None and reach < rs.minimum:
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
        arrangement=tuple(_view(g) for g in groups),
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
