"""`Scorer`: one ruleset's plan and every memo the search keeps, as typed fields.

A `Ruleset` is an immutable value; what scoring learns about it (fans of pattern sets,
bounds, which patterns a hand can still make) lives here. Every memo holds pure results,
so sharing one `Scorer` between hands never changes an answer, only its speed.
"""
from __future__ import annotations

from typing import Any, Final

from rulekit.algebra import Breakdown, num
from rulekit.arrange import RawGroup
from rulekit.dsl.compile import CompiledPattern
from rulekit.facts import Facts, group_fact
from rulekit.ruleset.model import Ruleset
from rulekit.scoring.explain import Totals, totals
from rulekit.scoring.plan import WIN_GROUP_ATTRS, Plan, build_plan, possible
from rulekit.scoring.result import ScoreResult
from rulekit.tiles import tile_name

# possible, possible less the skeleton-level ones, the reading-level ones possible, bound
Limits = tuple[frozenset[str], frozenset[str], frozenset[str], float]
# every pattern's truth so far, and the (interned) set of those that hold
Judged = tuple[dict[str, bool], frozenset[str]]
# everything a hand's score depends on (`score.hand_key`): concealed tiles sorted, melds as
# (kind, tile, concealed, golden), winning tile, win_by, heavenly, discarded_hun, flowers,
# earthly, ready_declared, hun kinds, indicator
HandKey = tuple[tuple[int, ...], tuple[tuple[str, int, bool, bool], ...], int, str, bool,
                bool, tuple[int, ...], bool, bool, tuple[int, ...], int]

RESULT_MEMO: Final = 1 << 12
"""Hand results a `Scorer` keeps; when full the memo is emptied and refills (a few MB)."""


class Scorer:
    """One ruleset's scoring caches; `rulekit.scoring.score_hand` keeps one per ruleset."""

    def __init__(self, rs: Ruleset, result_memo: int = RESULT_MEMO) -> None:
        self.rs = rs
        self.plan: Plan = build_plan(rs)
        # hand-level results (`score.score_with`); at most `result_memo` of them, 0 for none
        # (a bench that times the search itself sets 0)
        self.result_memo = result_memo
        self.results: dict[HandKey, ScoreResult] = {}
        self.fans: dict[frozenset[str], Breakdown] = {}
        self.bounds: dict[tuple[frozenset[str], frozenset[str]], float] = {}
        self.interned: dict[frozenset[str], frozenset[str]] = {}
        self.added: dict[tuple[frozenset[str], tuple[str, ...]], frozenset[str]] = {}
        self.allows: dict[tuple[str, RawGroup, int, int, bool], bool] = {}
        self.limit_memo: dict[tuple[frozenset[str], int, bool, int], Limits] = {}
        # skeleton-level results shared between hands (`search.projections`), and the small
        # int each hand's (fixed, possible, facts read) tag becomes
        self.level1: dict[Any, Judged] = {}
        self.level1_tags: dict[Any, int] = {}
        self.totals: dict[Any, Totals] = {}

    def result(self, key: HandKey) -> ScoreResult | None:
        """The result kept for a hand with this key, or None."""
        return self.results.get(key)

    def keep_result(self, key: HandKey, result: ScoreResult) -> None:
        """Remember a hand's result (an immutable value: handing it out again is safe); the
        memo is emptied when it holds `result_memo` entries, so it stays bounded."""
        results = self.results
        if len(results) >= self.result_memo:
            results.clear()
            if self.result_memo <= 0:
                return
        results[key] = result

    def intern(self, value: frozenset[str]) -> frozenset[str]:
        """The one frozenset equal to `value` that this scorer keeps.

        Memo keys built from it then match by identity instead of comparing elements, which a
        profile showed as the main cost of the scorer's dictionary lookups.
        """
        return self.interned.setdefault(value, value)

    def with_ids(self, held: frozenset[str], more: tuple[str, ...]) -> frozenset[str]:
        """`held | more`, interned; memoised on the (interned) `held` and the ids added."""
        key = (held, more)
        hit = self.added.get(key)
        if hit is None:
            hit = self.added[key] = self.intern(held | frozenset(more))
        return hit

    def fan(self, held: frozenset[str]) -> Breakdown:
        bd = self.fans.get(held)
        if bd is None:
            bd = self.fans[held] = self.rs.algebra.fan(held)
        return bd

    def bound(self, held: frozenset[str], free: frozenset[str]) -> float:
        """The best fan reachable holding `held` and perhaps any of `free`."""
        key = (held, free)
        value = self.bounds.get(key)
        if value is None:
            value = self.bounds[key] = self.rs.algebra.upper_bound(held, sorted(free),
                                                                   self.plan.exclusive)
        return value

    def limits(self, fixed: frozenset[str], win_tile: int, win_is_hun: bool,
               held_hun: int) -> Limits:
        """Which patterns can still hold given what the hand already shows, and the best fan.

        It depends only on the hand-level patterns, the winning tile and how many hun the
        hand holds.
        """
        key = (fixed, win_tile, win_is_hun, held_hun)
        hit = self.limit_memo.get(key)
        if hit is None:
            known: dict[str, Any] = {"win.tile": win_tile, "win.is_hun": win_is_hun,
                                     "hand.hun": held_hun}
            if not win_is_hun:
                known["win.stands_for"] = win_tile
            others = held_hun - (1 if win_is_hun else 0)
            most = {"win.group.other_hun": others, "win.group.hun": held_hun}
            _, level1, level2, level3 = self.plan.by_level
            can = frozenset(p.id for lv in (level1, level2, level3) for p in lv
                            if possible(p, known, most))
            free12 = can - {p.id for p in level1}
            free3 = frozenset(p.id for p in level3) & can
            hit = self.limit_memo[key] = (can, free12, free3, self.bound(fixed, can))
        return hit

    def group_allows(self, p: CompiledPattern, g: RawGroup, win_tile: int, stands_for: int,
                     win_is_hun: bool) -> bool:
        """Can `p` hold when the winning tile sits in `g`, standing for `stands_for`? (By
        its needs: a quick no, never a wrong one.)"""
        key = (p.id, g, win_tile, stands_for, win_is_hun)
        hit = self.allows.get(key)
        if hit is None:
            held = group_fact(g, True, win_is_hun)
            known: dict[str, Any] = {"win.tile": win_tile, "win.is_hun": win_is_hun,
                                     "win.stands_for": stands_for}
            for attr in WIN_GROUP_ATTRS:
                known["win.group." + attr] = getattr(held, attr)
            hit = self.allows[key] = possible(p, known, {})
        return hit

    def finish(self, base: Facts, bd: Breakdown, groups: tuple[Any, ...], win_tile: int,
               kong_fan: float, kong_kinds: tuple[str, ...], forbidden: str | None,
               instant: bool = False, held: frozenset[str] | None = None) -> ScoreResult:
        """The result for the best reading found: totals memoised on what decides them."""
        rs = self.rs
        rules = tuple(i for i, rule in enumerate(rs.total_rules) if rule.condition.fn(base))
        # `held` determines `bd` (fans are memoised by it) and hashes far faster
        key = (held if held is not None else bd, kong_kinds, forbidden, instant, rules)
        parts = self.totals.get(key)
        if parts is None:
            parts = self.totals[key] = totals(rs, bd, kong_fan, kong_kinds, forbidden, instant,
                                              tuple(rs.total_rules[i] for i in rules))
        total, reason, explain, shown, names = parts
        return ScoreResult(reason is None, bd.fan, num(kong_fan), total, shown, names, explain,
                           reason, tile_name(win_tile), groups, kong_kinds)
