"""`Scorer`: one ruleset's plan and every memo the search keeps, as typed fields.

A `Ruleset` is an immutable value; what scoring learns about it (fans of pattern sets,
bounds, which patterns a hand can still make) lives here. Every memo holds pure results,
so sharing one `Scorer` between hands never changes an answer, only its speed. Sets of
patterns are masks (`plan.py`); the fan of a mask is read from a table indexed by its valued
bits, filled from the fan algebra on first use.
"""
from __future__ import annotations

import threading
from typing import Any, Final

from rulekit.algebra import Breakdown, num
from rulekit.scoring.keys import (ProjKey, TagKey, TotalsKey, allows_group_key, allows_key,
                                  bound_key, group_code, limits_key)
from rulekit.scoring.route import DENSE_FANS, EXACT_BOUND_PATTERNS
from rulekit.arrange import RawGroup
from rulekit.codes import READING, SKELETON
from rulekit.facts import Facts
from rulekit.ruleset.model import Ruleset
from rulekit.scoring.explain import Totals, totals
from rulekit.scoring.holding import HOLDING, Holder, key_needs
from rulekit.scoring.plan import (READS_STANDS_FOR, READS_TILE, Plan, build_plan,
                                  gate_group_allows, gate_tile_allows, possible)
from rulekit.scoring.result import ScoreResult
from rulekit.tiles import tile_name

# masks: possible, possible less the skeleton-level ones, the reading-level ones possible;
# and the bound
Limits = tuple[int, int, int, float]
# the mask of the patterns that hold so far
Judged = int
# everything a hand's score depends on (`score.hand_key`), as one flat tuple of ints: no
# nested tuples to hash (a tuple's hash is not kept, and the memo hashes a key at the lookup
# and again at the store), and one allocation, which the garbage collector stops tracking at
# its first look (a tuple of ints only). A hand with a win type or meld kind no document
# names (built directly) has its names in the key instead; the two never compare equal.
HandKey = tuple[object, ...]

RESULT_MEMO: Final = 1 << 12
"""Hand results a `Scorer` keeps; when full the memo is emptied and refills (a few MB)."""

MEMO_ENTRIES: Final = 1 << 16
"""Entries each of a `Scorer`'s other memos may hold before it is emptied (`Scorer.trim`).
Their keys are finite but large (a group, a winning tile and what it stands for, ...): a
server that runs for weeks, or a client sending crafted hands, must not grow them without
end. A memo this size costs a few MB; a dealt hand adds a handful of entries at most."""

MEMO_BYTES: Final = 8 << 20
"""Bytes a `Scorer`'s memos may hold together, by their estimate (`Scorer.memo_bytes`): past
it, `trim` replaces every memo. A server keeps `score.SCORERS_KEPT` scorers, so this bounds
them all; a built-in ruleset's memos stay far below it (tianjin: ~2 MB after 3,000 hands)."""

# What one entry of each memo holds at most, by tests/test_memo_bounds.py's tracemalloc
# measurements (the dict's slot and spare room, the key, the value), in bytes. Fans, totals
# and results vary with the ruleset's names: each is counted as it is stored (`_text_bytes`).
ALLOW_BYTES: Final = 140       # int key -> int mask
BOUND_BYTES: Final = 140       # int key -> float
LIMIT_BYTES: Final = 300       # int key -> (mask, mask, mask, float)
SKELETON_BYTES: Final = 200      # skeleton results (int or (tag, bits) -> mask) and their tags
ENTRY_BYTES: Final = 400       # a fan, a totals or a result entry, less its texts


def _text_bytes(texts: tuple[str, ...]) -> int:
    """An upper bound of the bytes `texts` hold (a str object is ~60 bytes and at most 4
    bytes a character), counted when a fan, a totals or a result is stored (a miss)."""
    n = 0
    for t in texts:
        n += 80 + 4 * len(t)
    return n



class Scorer:
    """One ruleset's scoring caches; `rulekit.scoring.score_hand` keeps one per ruleset."""

    def __init__(self, rs: Ruleset, result_memo: int = RESULT_MEMO,
                 memo_entries: int = MEMO_ENTRIES, memo_bytes: int = MEMO_BYTES) -> None:
        self.rs = rs
        self.plan: Plan = build_plan(rs)
        # hand-level results (`score.score_with`); at most `result_memo` of them, 0 for none
        # (a bench that times the search itself sets 0)
        self.result_memo = result_memo
        self.results: dict[HandKey, ScoreResult] = {}
        self.valued = self.plan.valued
        self.width = len(self.plan.ids)           # bits in a mask
        self.dense = self.width <= DENSE_FANS
        # fans by the valued bits of a mask: a list when it is small enough, else a dict
        self.fan_list: list[Breakdown | None] = [None] * (self.valued + 1) if self.dense else []
        self.fans: dict[int, Breakdown] = {}
        # bounds by held | free << width (valued bits only)
        self.bounds: dict[int, float] = {}
        # fans as numbers (what the bounds read), by the valued bits of a mask
        self.values: dict[int, float] = {}
        self.allows: dict[int, int] = {}      # `group_allows`
        # by real winning tile: the groups holding it that allow a win-gated pattern there
        # (`gate_holders`; 34 entries at most)
        self.gate_held: dict[int, tuple[tuple[Holder, int], ...]] = {}
        # the queried keys a concealed group can have, with what each takes (`key_needs`)
        self.key_needs = key_needs(self.plan.query_keys)
        self.limit_memo: dict[int, Limits] = {}
        # skeleton-level results shared between hands (`search.projections`), and the small
        # int each hand's (fixed, possible, facts read) tag becomes: one pair, replaced
        # whole by `trim`, so a hand never mixes the tags of one with the results of another
        self.skeleton_memo: tuple[dict[ProjKey, Judged], dict[TagKey, int]] = ({}, {})
        self.totals: dict[TotalsKey, Totals] = {}
        self.memo_entries = memo_entries
        self.memo_limit = memo_bytes
        # the estimated bytes of what fans, totals and results hold, added as they are stored
        self.fan_bytes = 0
        self.total_bytes = 0
        self.result_bytes = 0
        # new tags are numbered under it: threads of a server share this scorer
        self.tag_lock = threading.Lock()

    def memo_bytes(self) -> int:
        """The estimate of the bytes every memo holds: entries times what one holds at most,
        and the texts of fans, totals and results as they were stored. Never below what
        tracemalloc measures (tests/test_memo_bounds.py)."""
        skeleton, tags = self.skeleton_memo
        return (len(self.allows) * ALLOW_BYTES
                + (len(self.bounds) + len(self.values)) * BOUND_BYTES
                + len(self.limit_memo) * LIMIT_BYTES + (len(skeleton) + len(tags)) * SKELETON_BYTES
                + self.fan_bytes + self.total_bytes + self.result_bytes)

    def trim(self) -> None:
        """Replace each memo grown past `memo_entries` by an empty one (between hands).

        Replaced, not cleared: a hand another thread is scoring keeps the dict it holds, and
        every entry is a pure result, so dropping one only costs its recomputation. Past
        `memo_limit` bytes (the estimate) every memo is replaced."""
        if self.memo_bytes() > self.memo_limit:
            self.forget()
            return
        cap = self.memo_entries
        if len(self.allows) > cap:
            self.allows = {}
        if len(self.bounds) > cap:
            self.bounds = {}
        if len(self.values) > cap:
            self.values = {}
        if len(self.fans) > cap:
            self.fans = {}
            self.fan_bytes = 0
        if len(self.limit_memo) > cap:
            self.limit_memo = {}
        if len(self.totals) > cap:
            self.totals = {}
            self.total_bytes = 0
        skeleton, tags = self.skeleton_memo
        if len(skeleton) > cap or len(tags) > cap:
            self.skeleton_memo = ({}, {})

    def forget(self) -> None:
        """Replace every memo by an empty one (their bytes passed `memo_limit`)."""
        self.allows = {}
        self.gate_held = {}
        self.bounds = {}
        self.values = {}
        self.limit_memo = {}
        self.skeleton_memo = ({}, {})
        if self.dense:
            self.fan_list = [None] * (self.valued + 1)
        self.fans = {}
        self.totals = {}
        self.results = {}
        self.fan_bytes = self.total_bytes = self.result_bytes = 0

    def skeleton_tag(self, key: TagKey) -> tuple[dict[ProjKey, Judged], int]:
        """The shared skeleton-level memo and the small int `key` is tagged with in it.

        Two threads meeting two new keys at once must not get the same number, so a new tag
        is taken under a lock (a few hundred exist; every later hand finds its tag without
        it)."""
        skeleton, tags = self.skeleton_memo
        tag = tags.get(key)
        if tag is None:
            with self.tag_lock:
                tag = tags.setdefault(key, len(tags))
        return skeleton, tag

    def result(self, key: HandKey) -> ScoreResult | None:
        """The result kept for a hand with this key, or None."""
        return self.results.get(key)

    def keep_result(self, key: HandKey, result: ScoreResult) -> None:
        """Remember a hand's result (an immutable value: handing it out again is safe); the
        memo is emptied when it holds `result_memo` entries, so it stays bounded."""
        results = self.results
        if len(results) >= self.result_memo:
            results.clear()
            self.result_bytes = 0
            if self.result_memo <= 0:
                return
        results[key] = result
        # the groups are shared facts; the texts may outlive the totals entry they came from
        self.result_bytes += ENTRY_BYTES + 8 * len(result.groups) + _text_bytes(result.explain)

    def fan(self, held: int) -> Breakdown:
        """The fan of the patterns `held` holds (a mask), from the table."""
        key = held & self.valued
        if self.dense:
            bd = self.fan_list[key]
            if bd is None:
                bd = self.fan_list[key] = self.rs.algebra.fan(self.plan.ids_of(key))
                self.fan_bytes += breakdown_bytes(bd)
            return bd
        hit = self.fans.get(key)
        if hit is None:
            hit = self.fans[key] = self.rs.algebra.fan(self.plan.ids_of(key))
            self.fan_bytes += breakdown_bytes(hit)
        return hit

    def fan_value(self, held: int) -> float:
        """`float(self.fan(held).fan)`, from a table of numbers (`Algebra.value`): a bound
        tries many subsets whose breakdowns no result shows."""
        key = held & self.valued
        hit = self.values.get(key)
        if hit is None:
            hit = self.values[key] = self.rs.algebra.value(self.plan.ids_of(key))
        return hit

    def bound(self, held: int, free: int) -> float:
        """The best fan reachable holding `held` and perhaps any of `free` (masks)."""
        valued = self.valued
        held &= valued
        free &= valued
        key = bound_key(held, free, self.width)
        value = self.bounds.get(key)
        if value is None:
            value = self.bounds[key] = self.upper_bound(held, free)
        return value

    def upper_bound(self, fixed: int, free: int) -> float:
        """`Algebra.upper_bound` on masks, its subsets' fans read from the table: the best fan
        of `fixed` with any subset of `free` holding no two patterns that exclude each other
        (so the bound is reachable, and the search can stop once a reading reaches it)."""
        bits = [1 << i for i in range(self.width) if free >> i & 1]
        if len(bits) > EXACT_BOUND_PATTERNS:
            return self.rs.algebra.loose_bound(self.plan.ids_of(fixed | free))
        excludes = self.plan.excludes
        subsets = [0]
        for b in bits:
            never = excludes.get(b, 0)
            subsets += [m | b for m in subsets if not m & never]
        best = 0.0
        for m in subsets:
            fan = self.fan_value(fixed | m)
            if fan > best:
                best = fan
        return best

    def limits(self, fixed: int, win_tile: int, win_is_hun: bool, held_hun: int) -> Limits:
        """Which patterns can still hold given what the hand already shows, and the best fan.

        It depends only on the hand-level patterns (the mask `fixed`), the winning tile and
        how many hun the hand holds.
        """
        key = limits_key(fixed, win_tile, held_hun, win_is_hun)
        hit = self.limit_memo.get(key)
        if hit is None:
            known: dict[str, Any] = {"win.tile": win_tile, "win.is_hun": win_is_hun,
                                     "hand.hun": held_hun}
            if not win_is_hun:
                known["win.stands_for"] = win_tile
            others = held_hun - (1 if win_is_hun else 0)
            most = {"win.group.other_hun": others, "win.group.hun": held_hun}
            plan = self.plan
            can = 0
            for level in (1, 2, 3):
                bits = plan.level_bits[level]
                for i, p in enumerate(plan.by_level[level]):
                    if possible(p, known, most):
                        can |= bits[i]
            free12 = can & ~plan.level_masks[SKELETON]
            free3 = can & plan.level_masks[READING]
            hit = self.limit_memo[key] = (can, free12, free3, self.bound(fixed, can))
        return hit

    def group_allows(self, g: RawGroup, win_tile: int, stands_for: int, win_is_hun: bool,
                     code: int = -1) -> int:
        """The mask of the win-gated patterns (`plan.win_gated`) that can hold when the
        winning tile sits in `g`, standing for `stands_for` (by their needs: a quick no,
        never a wrong one). Memoised in two parts, each under one int, so the memo holds
        nothing the garbage collector must walk; `code` is `group_code(g)` when the caller
        has it."""
        plan = self.plan
        allows = self.allows
        if code < 0:
            code = group_code(g)
        # what the group's own facts allow is kept per group (building its facts costs more
        # than the checks), what the winning tile and what it stands for allow apart: a
        # group meets a dozen of those, and a 天和's hun winning tile ~90 groups of each
        gkey = allows_group_key(code, win_is_hun)
        by_group = allows.get(gkey)
        if by_group is None:
            by_group = allows[gkey] = gate_group_allows(plan.group_checks, g, win_is_hun)
        # the key leaves out the winning tile and what it stands for when no need reads it
        # (a hun winning tile of either hun kind then shares the entry)
        tile = win_tile if plan.gate_reads & READS_TILE else 0
        stands = stands_for if plan.gate_reads & READS_STANDS_FOR else 0
        tkey = allows_key(tile, stands, win_is_hun)
        by_tile = allows.get(tkey)
        if by_tile is None:
            by_tile = allows[tkey] = gate_tile_allows(plan.gate_checks, win_tile, win_is_hun,
                                                      stands_for)
        return by_group & by_tile

    def gate_holders(self, win_tile: int) -> tuple[tuple[Holder, int], ...]:
        """The groups a real winning tile of this kind can sit in (`holding.HOLDING`) that
        allow some win-gated pattern there, each with the mask of those (`group_allows`,
        the tile standing for itself): what a yes/no question checks of its winning tile
        (`scan.gated_allowed`), worked out once per kind."""
        hit = self.gate_held.get(win_tile)
        if hit is None:
            out = []
            for holder in HOLDING[win_tile]:
                m = self.group_allows(holder[0], win_tile, win_tile, False,
                                      holder[4]) & self.plan.gated
                if m:
                    out.append((holder, m))
            hit = self.gate_held[win_tile] = tuple(out)
        return hit

    def finish(self, base: Facts, bd: Breakdown, groups: tuple[Any, ...], win_tile: int,
               kong_fan: float, kong_kinds: tuple[str, ...], forbidden: str | None,
               instant: bool = False, held: int | None = None) -> ScoreResult:
        """The result for the best reading found: totals memoised on what decides them."""
        rs = self.rs
        rules: tuple[int, ...] = ()
        if rs.total_rules:
            rules = tuple([i for i, rule in enumerate(rs.total_rules) if rule.condition.fn(base)])
        # `held` determines `bd` (fans are memoised by it) and hashes far faster
        key = (held & self.valued if held is not None else bd, kong_kinds, forbidden, instant,
               rules)
        parts = self.totals.get(key)
        if parts is None:
            parts = self.totals[key] = totals(rs, bd, kong_fan, kong_kinds, forbidden, instant,
                                              tuple(rs.total_rules[i] for i in rules))
            self.total_bytes += ENTRY_BYTES + _text_bytes(parts[2]) + _text_bytes(parts[4])
        total, reason, explain, shown, names = parts
        return ScoreResult(reason is None, bd.fan, num(kong_fan), total, shown, names, explain,
                           reason, tile_name(win_tile), groups, kong_kinds)


def breakdown_bytes(bd: Breakdown) -> int:
    """An upper bound of what a fan entry holds: the breakdown, its terms, its text."""
    return ENTRY_BYTES + 200 * len(bd.terms) + _text_bytes((bd.text,))
