"""A ruleset after loading: validated, merged, its patterns compiled. Immutable and shareable.

One `Ruleset` serves any number of hands and threads: nothing in it changes after `load`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Mapping

from rulekit.algebra import Algebra, Combination
from rulekit.dsl.compile import CompiledPattern, PatternSource, compile_patterns
from rulekit.errors import DslError, RulesetError
from rulekit.ruleset import resolve, schema
from rulekit.ruleset.yamlmarks import Origin, Path_


@dataclass(frozen=True, slots=True)
class TotalRule:
    """A context rule on the total (e.g. 002's 杠開 on a concealed kong doubling it all)."""

    name: str
    condition: CompiledPattern
    kong_points_as: str | None
    multiply_total: float
    add_total: float = 0.0


@dataclass(frozen=True, slots=True)
class Ruleset:
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
    # per-ruleset memo of pure results (fan of a pattern set, upper bounds): never observable
    memo: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)

    def pattern_name(self, pid: str) -> str:
        return self.names.get(pid, pid)


def load(ref: str | Path) -> Ruleset:
    """Load a built-in name or a file path; raise `RulesetError` listing every problem."""
    path = ref if isinstance(ref, Path) else resolve.locate(str(ref))
    data, origins, chain = resolve.resolve(path)
    return _checked(data, origins, resolve.display_name(path),
                    tuple(resolve.display_name(p) for p in chain))


def load_text(text: str, path: Path, shown: str) -> Ruleset:
    """Load a ruleset file's `text` as if it were at `path` (for `extends`), named `shown` in
    messages: how `rulekit diff` reads a ruleset at a git revision."""
    data, origins, chain = resolve.resolve(path, text, shown)
    return _checked(data, origins, shown,
                    (shown,) + tuple(resolve.display_name(p) for p in chain[1:]))


def _checked(data: dict[str, Any], origins: dict[Path_, Origin], shown: str,
             chain: tuple[str, ...]) -> Ruleset:
    problems = schema.problems(data, origins, shown)
    if problems:
        # the DSL can still be checked where the patterns section is well formed
        problems += _dsl_problems(data, origins, shown)
        raise RulesetError(_dedupe(problems))
    return _build(data, origins, shown, chain)


def _dedupe(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))


def _where(origins: dict[Path_, Origin], path: Path_, default: str) -> Origin:
    return schema.origin_of(path, origins, default)


def _sources(path: Path_, entries: Mapping[str, Any] | list[Any],
             origins: dict[Path_, Origin], default: str,
             prefix: str = "") -> list[tuple[PatternSource, str]]:
    """(source, key path shown in errors) for every `when` under `path`."""
    out = []
    items = entries.items() if isinstance(entries, dict) else enumerate(entries)
    for key, entry in items:
        if not isinstance(entry, dict) or not isinstance(entry.get("when"), str):
            continue
        f, line, col = _where(origins, path + (key, "when", "<value>"), default)
        src = PatternSource(f"{prefix}{key}", str(entry.get("name", key)), entry["when"], f,
                            line, col)
        out.append((src, schema.dotted(path + (key, "when"))))
    return out


def _dsl_error_line(err: DslError, key: str) -> str:
    head = f"{err.source}:{err.line}:{err.column}: {key}: {err.message}"
    if err.text:
        head += f"\n    {err.text}\n    {' ' * max(err.caret - 1, 0)}^"
    return head


def _conditions(data: Mapping[str, Any], origins: dict[Path_, Origin],
                default: str) -> list[tuple[PatternSource, str]]:
    """Every DSL text in the ruleset. Only `patterns` get plain ids others can refer to."""
    raw_scoring = data.get("scoring")
    scoring: Mapping[str, Any] = raw_scoring if isinstance(raw_scoring, dict) else {}
    out = _sources(("patterns",), data.get("patterns") or {}, origins, default)
    out += _sources(("forbid",), data.get("forbid") or {}, origins, default, "forbid:")
    out += _sources(("instant_win",), data.get("instant_win") or {}, origins, default,
                    "instant_win:")
    out += _sources(("scoring", "adjust_total"), scoring.get("adjust_total") or [], origins,
                    default, "adjust_total:")
    return out


def _compile_all(data: Mapping[str, Any], origins: dict[Path_, Origin], default: str
                 ) -> tuple[dict[str, CompiledPattern], list[str]]:
    sources = _conditions(data, origins, default)
    compiled, errors = compile_patterns([s for s, _ in sources])
    problems = []
    for e in errors:
        # the error belongs to the last DSL text that starts at or before its line
        key = "patterns"
        best = 0
        for s, k in sources:
            if s.source == e.source and best <= s.line <= e.line:
                key, best = k, s.line
        problems.append(_dsl_error_line(e, key))
    return {c.id: c for c in compiled}, problems


def _dsl_problems(data: Mapping[str, Any], origins: dict[Path_, Origin],
                  default: str) -> list[str]:
    if not isinstance(data.get("patterns"), dict):
        return []
    return _compile_all(data, origins, default)[1]


def _build(data: Mapping[str, Any], origins: dict[Path_, Origin], shown: str,
           chain: tuple[str, ...]) -> Ruleset:
    problems: list[str] = []

    def at(path: Path_) -> str:
        f, line, _ = _where(origins, path, shown)
        return f"{f}:{line}: {schema.dotted(path)}"

    pattern_data: dict[str, Any] = data["patterns"]
    by_id, dsl_problems = _compile_all(data, origins, shown)
    problems += dsl_problems
    compiled = [c for pid, c in by_id.items() if ":" not in pid]
    defined = set(pattern_data)

    def context_only(prefix: str, path: Path_) -> list[CompiledPattern]:
        out = []
        for pid, c in by_id.items():
            if pid.startswith(prefix):
                key = pid[len(prefix):]
                if c.dep:
                    problems.append(f"{at(path + (int(key) if key.isdigit() else key,))}: "
                                    f"must depend only on the hand and its context, not on "
                                    f"an arrangement")
                out.append(CompiledPattern(key, c.name, c.fn, c.dep, c.tiles, c.ranks))
        return out

    forbids = context_only("forbid:", ("forbid",))
    instant_src = data.get("instant_win", {})
    instants = [(c, float(instant_src[c.id]["fan"]))
                for c in context_only("instant_win:", ("instant_win",))]

    scoring = data["scoring"]

    def checked_ids(section: str, ids: Any) -> None:
        for pid in ids:
            if pid not in defined:
                hint = schema._closest(pid, defined)
                problems.append(f"{at(('scoring', section, pid))}: pattern '{pid}' is used "
                                f"here but never defined in patterns{hint}")

    def number(path: Path_, value: Any) -> float:
        if isinstance(value, (int, float)):
            return float(value)
        node: Any = data
        for part in str(value).split("."):
            node = node.get(part) if isinstance(node, dict) else None
        if isinstance(node, (int, float)) and not isinstance(node, bool):
            return float(node)
        problems.append(f"{at(path)}: '{value}' does not name a number in this ruleset")
        return 0.0

    base = scoring.get("base") or {}
    checked_ids("base", base)
    checked_ids("add", scoring["add"])
    checked_ids("multiply", scoring["multiply"])
    combos = []
    for cname, c in (scoring.get("combinations") or {}).items():
        for pid in c["patterns"]:
            if pid not in defined:
                problems.append(f"{at(('scoring', 'combinations', cname, 'patterns'))}: "
                                f"pattern '{pid}' is never defined in patterns")
        combos.append(Combination(cname, frozenset(c["patterns"]), float(c["value"])))
    names = {pid: str(p.get("name", pid)) for pid, p in pattern_data.items()}
    algebra = Algebra(
        base=next(((k, float(v)) for k, v in base.items()), None),
        add=tuple((k, float(v)) for k, v in scoring["add"].items()),
        multiply=tuple((k, number(("scoring", "multiply", k), v))
                       for k, v in scoring["multiply"].items()),
        combinations=tuple(combos),
        names=names,
    )
    total_rules = []
    adjust = scoring.get("adjust_total") or []
    conds = {c.id: c for c in context_only("adjust_total:", ("scoring", "adjust_total"))}
    for i, r in enumerate(adjust):
        if str(i) in conds:
            total_rules.append(TotalRule(r["name"], conds[str(i)], r.get("kong_points_as"),
                                         float(r.get("multiply_total", 1)),
                                         float(r.get("add_total", 0))))
    if problems:
        raise RulesetError(_dedupe(problems))
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
        names=MappingProxyType(names),
        wild_tiles=wild_tiles,
        wild_ranks=wild_ranks,
    )
