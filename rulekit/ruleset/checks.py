"""Every problem of a merged ruleset beyond its schema, found in one pass.

The checks here (the DSL of every condition, the pattern ids that `scoring` names, dotted
number references, conditions that must not read an arrangement) each look only at the parts
they need and skip what the schema already reports as malformed, so that `rulekit validate`
shows every independent problem at once instead of the first stage's.
"""
from __future__ import annotations

import re
from typing import Any, Mapping

from rulekit.dsl.ast import Node
from rulekit.dsl.compile import CompiledPattern, PatternSource, compile_patterns
from rulekit.errors import DslError
from rulekit.ruleset import schema
from rulekit.ruleset.yamlmarks import Origin, Path_

# the sections whose conditions are read once per hand, with the prefix of their ids
CONTEXT_SECTIONS: tuple[tuple[str, Path_], ...] = (
    ("forbid:", ("forbid",)),
    ("instant_win:", ("instant_win",)),
    ("adjust_total:", ("scoring", "adjust_total")),
)


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, dict) else {}


def _where(origins: dict[Path_, Origin], path: Path_, default: str) -> Origin:
    return schema.origin_of(path, origins, default)


def _at(origins: dict[Path_, Origin], path: Path_, default: str) -> str:
    f, line, _ = _where(origins, path, default)
    return f"{f}:{line}: {schema.dotted(path)}"


def _sources(path: Path_, entries: Any, origins: dict[Path_, Origin], default: str,
             prefix: str = "") -> list[tuple[PatternSource, str]]:
    """(source, key path shown in errors) for every `when` under `path`.

    An entry whose `when` is missing or not text stands in as `false` (its schema error is
    reported on its own), so that patterns reading it are not told it does not exist."""
    out = []
    if isinstance(entries, dict):
        items: Any = entries.items()
    elif isinstance(entries, list):
        items = enumerate(entries)
    else:
        return []
    for key, entry in items:
        entry = _mapping(entry)
        when = entry.get("when")
        f, line, col = _where(origins, path + (key, "when", "<value>"), default)
        text = when if isinstance(when, str) else "false"
        src = PatternSource(f"{prefix}{key}", str(entry.get("name", key)), text, f, line, col)
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
    out = _sources(("patterns",), data.get("patterns"), origins, default)
    for prefix, path in CONTEXT_SECTIONS:
        section: Any = data
        for part in path:
            section = _mapping(section).get(part)
        out += _sources(path, section, origins, default, prefix)
    return out


def compile_all(data: Mapping[str, Any], origins: dict[Path_, Origin], default: str,
                trees: Mapping[str, Node] | None = None
                ) -> tuple[dict[str, CompiledPattern], list[str]]:
    """Every condition compiled, by id (`forbid:x` etc. for the context sections), and every
    DSL problem as a `file:line:column: key: message` line. `trees`: syntax trees already
    known for some texts (`prebuilt.trees`, for a trusted chain only)."""
    sources = _conditions(data, origins, default)
    compiled, errors = compile_patterns([s for s, _ in sources], trees)
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


def number(data: Mapping[str, Any], value: Any) -> float | None:
    """A number, or the number a dotted reference (`heavenly.multiplier`) names; else None."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    if not isinstance(value, str):
        return None
    node: Any = data
    for part in value.split("."):
        node = node.get(part) if isinstance(node, dict) else None
    if isinstance(node, (int, float)) and not isinstance(node, bool):
        return float(node)
    return None


def reference_problems(data: Mapping[str, Any], origins: dict[Path_, Origin], default: str,
                       by_id: Mapping[str, CompiledPattern]) -> list[str]:
    """Pattern ids in `scoring` that `patterns` does not define, references that name no
    number, and hand-level conditions that read an arrangement."""
    problems: list[str] = []
    defined = set(_mapping(data.get("patterns")))
    scoring = _mapping(data.get("scoring"))
    for section in ("base", "add", "multiply"):
        for pid in _mapping(scoring.get(section)):
            if isinstance(pid, str) and pid not in defined:     # a non-text key: schema's
                problems.append(f"{_at(origins, ('scoring', section, pid), default)}: pattern "
                                f"'{pid}' is used here but never defined in patterns"
                                f"{schema._closest(pid, defined)}")
    for cname, combo in _mapping(scoring.get("combinations")).items():
        listed = _mapping(combo).get("patterns")
        for pid in listed if isinstance(listed, list) else []:
            if isinstance(pid, str) and pid not in defined:
                where = _at(origins, ("scoring", "combinations", cname, "patterns"), default)
                problems.append(f"{where}: pattern '{pid}' is never defined in patterns"
                                f"{schema._closest(pid, defined)}")
    for key, value in _mapping(scoring.get("multiply")).items():
        if _is_ref(value) and number(data, value) is None:
            problems.append(f"{_at(origins, ('scoring', 'multiply', key), default)}: "
                            f"'{value}' does not name a number in this ruleset")
    for prefix, path in CONTEXT_SECTIONS:
        for pid, c in by_id.items():
            if pid.startswith(prefix) and c.dep:
                key = pid[len(prefix):]
                where = _at(origins, path + (int(key) if key.isdigit() else key,), default)
                problems.append(f"{where}: must depend only on the hand and its context, not "
                                f"on an arrangement")
    return problems


def _is_ref(value: Any) -> bool:
    """A well-formed dotted reference (anything else is the schema's to report)."""
    ref = schema.schema()["$defs"]["ref"]
    return (isinstance(value, str) and len(value) <= ref["maxLength"]
            and re.fullmatch(ref["pattern"], value) is not None)


_LOCATION = re.compile(r"^(.*?):(\d+)(?::(\d+))?: ")


def ordered(problems: list[str], files: tuple[str, ...]) -> list[str]:
    """Problems without repeats, by file (in `files` order, the ruleset before its parents),
    line and column."""
    def key(problem: str) -> tuple[int, str, int, int]:
        m = _LOCATION.match(problem)
        if m is None:
            return (len(files), "", 0, 0)
        f = m.group(1)
        rank = files.index(f) if f in files else len(files)
        return (rank, f, int(m.group(2)), int(m.group(3) or 0))
    return sorted(dict.fromkeys(problems), key=key)
