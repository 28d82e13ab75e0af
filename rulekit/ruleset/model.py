"""A ruleset after loading: validated, merged, its patterns compiled. Immutable and shareable.

One `Ruleset` serves any number of hands and threads: nothing in it changes after `load`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Mapping

from rulekit.algebra import Algebra, Combination
from rulekit.dsl.compile import CompiledPattern
from rulekit.errors import RulesetError
from rulekit.ruleset import checks, prebuilt, resolve, schema, validated
from rulekit.ruleset.yamlmarks import Origin, Path_


@dataclass(frozen=True, slots=True)
class TotalRule:
    """A context rule on the total (e.g. 002's 杠開 on a concealed kong doubling it all)."""

    name: str
    condition: CompiledPattern
    kong_points_as: str | None
    multiply_total: float
    add_total: float = 0.0


@dataclass(frozen=True, slots=True, weakref_slot=True)
class Ruleset:
    """A loaded ruleset: a value. What scoring learns about it is kept by its
    `rulekit.scoring.Scorer`, not in here."""

    name: str
    description: str
    source: str                          # file it was loaded from, as shown to users
    chain: tuple[str, ...]               # the file and its `extends` ancestors
    data: Mapping[str, Any]              # the merged YAML, for `rulekit show`
    players: int
    hun_kinds: int
    golden_kong_allowed: bool
    win_by: frozenset[str]
    minimum: float
    minimum_counts_kong_points: bool
    kong_points: Mapping[str, float]
    heavenly_free_winning_tile: bool
    patterns: tuple[CompiledPattern, ...]        # dependency order
    forbids: tuple[CompiledPattern, ...]
    instant_wins: tuple[tuple[CompiledPattern, float], ...]
    algebra: Algebra
    total_rules: tuple[TotalRule, ...]
    settlement: Mapping[str, Any]
    chan: Mapping[str, Any]
    names: Mapping[str, str]                     # pattern id → display name
    wild_tiles: frozenset[int]                   # tiles the patterns name
    wild_ranks: frozenset[int]                   # ranks the patterns name

    def pattern_name(self, pid: str) -> str:
        return self.names.get(pid, pid)


def load(ref: str | Path, allow_outside: bool | None = None,
         read: list[tuple[Path, bytes]] | None = None) -> Ruleset:
    """Load a built-in name or a file path; raise `RulesetError` listing every problem.

    `allow_outside` lets `extends` leave the file's directory tree (docs/authoring.md).
    `read`, if given, receives each file of the chain with the sha256 of the bytes read
    (`api.load_ruleset` stamps its cache entry with them)."""
    path = ref if isinstance(ref, Path) else resolve.locate(str(ref))
    digests: list[bytes] = []
    data, origins, chain = resolve.resolve(path, allow_outside=allow_outside, digests=digests)
    if read is not None:
        read.extend(zip(chain, digests))
    return _checked(data, origins, resolve.display_name(path),
                    tuple(resolve.display_name(p) for p in chain),
                    schema_checked=validated.trusted(chain, digests))


def load_text(text: str, path: Path, shown: str) -> Ruleset:
    """Load a ruleset file's `text` as if it were at `path` (for `extends`), named `shown` in
    messages: how `rulekit diff` reads a ruleset at a git revision."""
    data, origins, chain = resolve.resolve(path, text, shown)
    return _checked(data, origins, shown,
                    (shown,) + tuple(resolve.display_name(p) for p in chain[1:]))


def _checked(data: dict[str, Any], origins: dict[Path_, Origin], shown: str,
             chain: tuple[str, ...], schema_checked: bool = False) -> Ruleset:
    """Every independent problem, or the ruleset: the schema, then the DSL and the references
    on whatever parts are well formed (checks.py), all reported together in file order.
    `schema_checked`: the bytes are built-ins the tests validated (`validated.trusted`), so
    the schema run is skipped; the DSL and references are checked all the same."""
    problems = [] if schema_checked else schema.problems(data, origins, shown)
    # the same bytes give the same trees: a trusted chain's patterns skip lark (prebuilt.py)
    by_id, dsl_problems = checks.compile_all(data, origins, shown,
                                             prebuilt.trees() if schema_checked else None)
    problems += dsl_problems
    problems += checks.reference_problems(data, origins, shown, by_id)
    if problems:
        raise RulesetError(checks.ordered(problems, chain))
    return _build(data, shown, chain, by_id)


def _context_only(by_id: Mapping[str, CompiledPattern], prefix: str) -> list[CompiledPattern]:
    """The conditions of one hand-level section, under their own keys."""
    return [CompiledPattern(pid[len(prefix):], c.name, c.fn, c.dep, c.tiles, c.ranks)
            for pid, c in by_id.items() if pid.startswith(prefix)]


def _display_names(names: Mapping[str, str], instant: Mapping[str, Any]) -> dict[str, str]:
    """Pattern ids and instant-win ids (an instant win is reported as its one pattern) to
    their names, for people."""
    out = dict(names)
    for iid, entry in instant.items():
        if iid not in out and isinstance(entry, Mapping):
            out[str(iid)] = str(entry.get("name", iid))
    return out


def _algebra(data: Mapping[str, Any], names: dict[str, str]) -> Algebra:
    scoring = data["scoring"]
    base = scoring.get("base") or {}
    combos = [Combination(cname, frozenset(c["patterns"]), float(c["value"]))
              for cname, c in (scoring.get("combinations") or {}).items()]
    return Algebra(
        base=next(((k, float(v)) for k, v in base.items()), None),
        add=tuple((k, float(v)) for k, v in scoring["add"].items()),
        multiply=tuple((k, checks.number(data, v) or 0.0)
                       for k, v in scoring["multiply"].items()),
        combinations=tuple(combos),
        names=names,
    )


def _build(data: Mapping[str, Any], shown: str, chain: tuple[str, ...],
           by_id: Mapping[str, CompiledPattern]) -> Ruleset:
    """The ruleset of data that passed every check."""
    pattern_data: dict[str, Any] = data["patterns"]
    compiled = [c for pid, c in by_id.items() if ":" not in pid]
    forbids = _context_only(by_id, "forbid:")
    instant_src = data.get("instant_win", {})
    instants = [(c, float(instant_src[c.id]["fan"]))
                for c in _context_only(by_id, "instant_win:")]
    names = {pid: str(p.get("name", pid)) for pid, p in pattern_data.items()}
    algebra = _algebra(data, names)
    total_rules = []
    conds = {c.id: c for c in _context_only(by_id, "adjust_total:")}
    for i, r in enumerate(data["scoring"].get("adjust_total") or []):
        if str(i) in conds:
            total_rules.append(TotalRule(r["name"], conds[str(i)], r.get("kong_points_as"),
                                         float(r.get("multiply_total", 1)),
                                         float(r.get("add_total", 0))))
    wild_tiles = frozenset(t for p in compiled for t in p.tiles)
    wild_ranks = frozenset(r for p in compiled for r in p.ranks)
    win = data["win"]
    hun = data["hun"]
    return Ruleset(
        name=str(data["name"]),
        description=str(data.get("description", "")).strip(),
        source=shown,
        chain=chain,
        data=MappingProxyType(dict(data)),
        players=int(data.get("players", 4)),
        hun_kinds=int(hun["kinds"]),
        golden_kong_allowed=hun.get("golden_kong", "allowed") == "allowed",
        win_by=frozenset(win["by"]),
        minimum=float(win["minimum"]),
        minimum_counts_kong_points=bool(win.get("minimum_counts_kong_points", False)),
        kong_points=MappingProxyType({k: float(v) for k, v in data["kong_points"].items()}),
        heavenly_free_winning_tile=bool(data["heavenly"].get("free_winning_tile", True)),
        patterns=tuple(compiled),
        forbids=tuple(forbids),
        instant_wins=tuple(instants),
        algebra=algebra,
        total_rules=tuple(total_rules),
        settlement=MappingProxyType(dict(data["settlement"])),
        chan=MappingProxyType(dict(data["chan"])),
        names=MappingProxyType(_display_names(names, instant_src)),
        wild_tiles=wild_tiles,
        wild_ranks=wild_ranks,
    )
