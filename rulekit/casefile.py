"""Golden cases: hands and settle documents with the results a ruleset must give.

A case file pins what a ruleset does, so that a rule edit shows up as a named case with
expected vs got instead of as a surprise at the table. Only the keys a case gives in `expect`
are compared, so a case states exactly the point it is about. Format: docs/regression.md.
"""
from __future__ import annotations

import math
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Mapping, Sequence

import yaml

from rulekit import limits, resources
from rulekit.errors import RulekitError, RulesetError
from rulekit.ruleset import resolve, yamlmarks
from rulekit.ruleset.model import Ruleset
from rulekit.scoring import score_document
from rulekit.settlement import settle_document

Kind = Literal["hand", "settle"]

HAND_KEYS = ("win", "hand_fan", "kong_fan", "total_fan", "patterns", "patterns_one_of",
             "reason", "win_tile", "kongs", "error")
SETTLE_KEYS = ("payments", "next_dealer", "error")
CASE_KEYS = ("name", "hand", "settle", "expect", "note", "seed")   # note, seed: for people
# what `--update` writes when a case's expectation changes shape (error <-> result)
DEFAULT_EXPECT: Mapping[Kind, tuple[str, ...]] = {
    "hand": ("win", "hand_fan", "kong_fan", "total_fan", "patterns"),
    "settle": ("payments", "next_dealer"),
}


class CaseFileError(RulekitError):
    """A malformed case file; each problem is a `file:line: message` line."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems


@dataclass(frozen=True, slots=True)
class Case:
    name: str
    kind: Kind
    doc: Mapping[str, Any]
    expect: Mapping[str, Any]
    index: int                     # position in the file's `cases` list
    line: int


@dataclass(frozen=True, slots=True)
class CaseFile:
    path: Path
    shown: str                     # the path as shown to users
    ruleset: str                   # as written: a built-in name or a path relative to the file
    cases: tuple[Case, ...]
    text: str                      # kept so that `--update` can edit it in place
    ruleset_line: int = 1          # where `ruleset:` is written

    def ruleset_path(self) -> Path:
        try:
            return resolve.locate(self.ruleset, self.path)
        except RulekitError as err:
            raise CaseFileError([f"{self.shown}:1: ruleset: {err}"]) from None


@dataclass(frozen=True, slots=True)
class Mismatch:
    key: str
    expected: Any
    got: Any


@dataclass(frozen=True, slots=True)
class Outcome:
    """One case run: what came out, and where it differs from the expectation."""

    case: Case
    got: Mapping[str, Any]         # the result's to_dict(), or {"error": message}
    mismatches: tuple[Mismatch, ...]
    explain: tuple[str, ...]

    @property
    def passed(self) -> bool:
        return not self.mismatches


@dataclass(frozen=True, slots=True)
class Change:
    """One expectation rewritten by `--update`."""

    case: Case
    key: str
    old: Any
    new: Any
    what: Literal["changed", "added", "removed"] = "changed"

    def text(self) -> str:
        if self.what == "added":
            return f"{self.key}: added {yaml_flow(self.new)}"
        if self.what == "removed":
            return f"{self.key}: removed (was {yaml_flow(self.old)})"
        return f"{self.key}: {yaml_flow(self.old)} -> {yaml_flow(self.new)}"


# --- finding and loading ----------------------------------------------------------------------

def builtin_casefile(name: str) -> Path:
    """Where the case file of built-in ruleset `name` lives (it may not exist)."""
    return resources.cases_dir() / f"{name}.yaml"


def shown_path(path: Path) -> str:
    """Relative to the working directory when under it; built-ins as rulesets/cases/NAME."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        pass
    try:
        path.resolve().relative_to(resources.cases_dir().resolve())
        return f"rulesets/cases/{path.name}"
    except ValueError:
        return str(path)


def load_casefile(path: Path) -> CaseFile:
    """Read and check a case file; raise `CaseFileError` listing every problem."""
    shown = shown_path(path)
    return parse_casefile(_read_text(path, shown), path, shown)


def _read_text(path: Path, shown: str) -> str:
    """A case file's text, refused with `file:line` if unreadable, too large or not UTF-8."""
    try:
        with path.open("rb") as fh:
            raw = fh.read(limits.RULESET_BYTES + 1)
    except OSError as err:
        raise CaseFileError([f"{shown}:1: cannot read: {err.strerror}"]) from None
    if len(raw) > limits.RULESET_BYTES:
        raise CaseFileError([f"{shown}:1: larger than {limits.RULESET_BYTES} bytes; split "
                             "the cases over several files"])
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        line = raw[:err.start].count(b"\n") + 1
        raise CaseFileError([f"{shown}:{line}: not UTF-8 text (byte {err.start})"]) from None
    return text


def parse_casefile(text: str, path: Path, shown: str) -> CaseFile:
    node, data = _compose(text, shown)
    if not isinstance(data, dict) or not isinstance(node, yaml.MappingNode):
        raise CaseFileError([f"{shown}:1: a case file is a mapping with 'ruleset' and 'cases'"])
    problems: list[str] = []
    keys = _keys(node)
    for key in data:
        if key not in ("ruleset", "cases"):
            problems.append(f"{shown}:{_line(keys.get(key), node)}: unknown key {key!r}; "
                            "expected 'ruleset' and 'cases'")
    ruleset = data.get("ruleset")
    if not isinstance(ruleset, str) or not ruleset:
        problems.append(f"{shown}:{_line(keys.get('ruleset'), node)}: ruleset: expected a "
                        "built-in name or a path relative to this file")
    raw_cases = data.get("cases")
    cases_node = keys.get("cases", (None, None))[1]
    if not isinstance(raw_cases, list) or not isinstance(cases_node, yaml.SequenceNode):
        problems.append(f"{shown}:{_line(keys.get('cases'), node)}: cases: expected a list")
        raise CaseFileError(problems)
    cases = []
    names: dict[str, int] = {}
    for i, (raw, cnode) in enumerate(zip(raw_cases, cases_node.value)):
        case, errs = _case(raw, cnode, i, shown)
        problems += errs
        if case is not None:
            cases.append(case)
        name = raw.get("name") if isinstance(raw, dict) else None
        line = cnode.start_mark.line + 1
        if isinstance(name, str) and name in names:
            problems.append(f"{shown}:{line}: cases[{i}].name: {name!r} is also the name of "
                            f"the case on line {names[name]}")
        elif isinstance(name, str):
            names[name] = line
    if problems:
        raise CaseFileError(problems)
    return CaseFile(path, shown, str(ruleset), tuple(cases), text,
                    _line(keys.get("ruleset"), node))


def _compose(text: str, shown: str) -> tuple[yaml.Node | None, Any]:
    """Safe-load a case file with the ruleset loader, which refuses anchors, aliases and
    merge keys: an alias would make two cases share one expectation (so `--update` would edit
    it twice), and nested aliases expand exponentially."""
    try:
        return yamlmarks.compose(text, shown)
    except RulesetError as err:
        raise CaseFileError(err.problems) from None


def _keys(node: yaml.Node) -> dict[Any, tuple[yaml.Node, yaml.Node]]:
    if not isinstance(node, yaml.MappingNode):
        return {}
    return {k.value: (k, v) for k, v in node.value}


def _line(pair: tuple[yaml.Node, yaml.Node] | None, fallback: yaml.Node) -> int:
    return int((pair[0] if pair else fallback).start_mark.line) + 1


def _case(raw: Any, node: yaml.Node, i: int, shown: str) -> tuple[Case | None, list[str]]:
    line = node.start_mark.line + 1
    where = f"{shown}:{line}: cases[{i}]"
    if not isinstance(raw, dict):
        return None, [f"{where}: expected a mapping with name, hand or settle, and expect"]
    keys = _keys(node)
    problems = []
    for key in raw:
        if key not in CASE_KEYS:
            problems.append(f"{shown}:{_line(keys.get(key), node)}: cases[{i}]: unknown key "
                            f"{key!r}; expected one of " + ", ".join(CASE_KEYS))
    name = raw.get("name")
    if not isinstance(name, str) or not name.strip():
        problems.append(f"{where}.name: every case needs a short name")
        name = f"#{i}"
    kinds = [k for k in ("hand", "settle") if k in raw]
    if len(kinds) != 1:
        problems.append(f"{where} ({name}): give exactly one of 'hand' (a hand document) or "
                        "'settle' (a settle document)")
        return None, problems
    kind: Kind = kinds[0]  # type: ignore[assignment]
    if not isinstance(raw[kind], dict):
        problems.append(f"{shown}:{_line(keys.get(kind), node)}: cases[{i}].{kind} ({name}): "
                        "expected a mapping (a document)")
    expect = raw.get("expect")
    eline = _line(keys.get("expect"), node)
    allowed = HAND_KEYS if kind == "hand" else SETTLE_KEYS
    if not isinstance(expect, dict) or not expect:
        problems.append(f"{shown}:{eline}: cases[{i}].expect ({name}): expected a non-empty "
                        "mapping of result keys")
        expect = {}
    for key in expect:
        if key not in allowed:
            problems.append(f"{shown}:{eline}: cases[{i}].expect ({name}): unknown key "
                            f"{key!r} for a {kind} case; expected one of " + ", ".join(allowed))
    if "patterns" in expect and "patterns_one_of" in expect:
        problems.append(f"{shown}:{eline}: cases[{i}].expect ({name}): give 'patterns' or "
                        "'patterns_one_of', not both")
    one_of = expect.get("patterns_one_of")
    if one_of is not None and not (isinstance(one_of, list) and one_of
                                   and all(isinstance(s, list) for s in one_of)):
        problems.append(f"{shown}:{eline}: cases[{i}].expect.patterns_one_of ({name}): "
                        "expected a list of pattern lists")
    if "patterns" in expect and not isinstance(expect["patterns"], list):
        problems.append(f"{shown}:{eline}: cases[{i}].expect.patterns ({name}): expected a "
                        "list of pattern ids")
    if problems:
        return None, problems
    return Case(name, kind, raw[kind], expect, i, line), []


def default_targets() -> list[str]:
    """Every built-in ruleset and every built-in case file, by name."""
    return sorted(set(resolve.builtin_names())
                  | {p.stem for p in resources.cases_dir().glob("*.yaml")})


@dataclass(frozen=True, slots=True)
class Target:
    """What `rulekit test TARGET` runs: a case file, and the ruleset file under test if the
    target was a ruleset file (then the cases run against that file, whatever they name)."""

    cases: Path | None             # None: a built-in ruleset with no case file yet
    ruleset: Path | None = None


def find(target: str) -> Target:
    """The case file for a target, and the ruleset file under test if the target is one.

    A target is a case file, a ruleset file (its cases are in `cases/NAME.yaml` beside it,
    the layout of the built-ins), or a built-in ruleset's name.
    """
    p = Path(target)
    if p.is_file():
        if _is_ruleset_file(p):
            beside = p.parent / "cases" / p.name
            if not beside.is_file():
                raise CaseFileError([f"{target}: a ruleset file with no case file "
                                     f"(expected {beside})"])
            return Target(beside, p)
        return Target(p)
    if builtin_casefile(target).is_file():
        return Target(builtin_casefile(target))
    if target in resolve.builtin_names():
        return Target(None)
    raise CaseFileError([f"{target}: no such case file or built-in ruleset; built-in "
                         f"rulesets are: {', '.join(resolve.builtin_names())}"])


def _is_ruleset_file(p: Path) -> bool:
    """A mapping without `cases` that has a ruleset's keys; anything else is read (and its
    problems reported) as a case file."""
    try:
        _, data = _compose(_read_text(p, str(p)), str(p))
    except CaseFileError:
        return False
    return isinstance(data, dict) and "cases" not in data and (
        "patterns" in data or "extends" in data or "name" in data)


def other_ruleset(cf: CaseFile, under_test: Path) -> str | None:
    """A problem line when the case file names another ruleset than the file under test.

    `rulekit test edit/x.yaml` must test edit/x.yaml: a copied case file that still says
    `ruleset: x` (the built-in) would otherwise pass whatever the edit did.
    """
    try:
        named: Path | None = cf.ruleset_path()
    except CaseFileError:
        named = None
    if named is not None and named.resolve() == under_test.resolve():
        return None
    what = f"names {resolve.display_name(named)}" if named else "names no such ruleset"
    fix = Path(os.path.relpath(under_test.resolve(), cf.path.resolve().parent)).as_posix()
    return (f"FAIL {cf.shown}:{cf.ruleset_line}: ruleset: {cf.ruleset!r} {what}, but these "
            f"cases ran against {under_test}, the file under test; write `ruleset: {fix}`")


# --- running ----------------------------------------------------------------------------------

def run_case(case: Case, rs: Ruleset) -> Outcome:
    """Score or settle the case's document and compare the expected keys only."""
    try:
        if case.kind == "hand":
            result = score_document(case.doc, rs)
            got: Mapping[str, Any] = result.to_dict()
            explain = result.explain
        else:
            settled = settle_document(case.doc, rs)
            got = settled.to_dict()
            explain = _settle_explain(got)
    except RulekitError as err:
        got, explain = {"error": str(err)}, ()
    return Outcome(case, got, compare(case.expect, got), tuple(explain))


def compare(expect: Mapping[str, Any], got: Mapping[str, Any]) -> tuple[Mismatch, ...]:
    """Mismatches of the keys in `expect`; `patterns` compare as sets."""
    out = []
    error = got.get("error")
    if error is not None and "error" not in expect:
        return (Mismatch("error", None, error),)
    for key, want in expect.items():
        if key == "error":
            if error is None or str(want) not in error:
                out.append(Mismatch("error", want, error))
        elif error is not None:
            continue
        elif key == "patterns":
            if set(want) != set(got.get("patterns", ())):
                out.append(Mismatch("patterns", want, got.get("patterns")))
        elif key == "patterns_one_of":
            have = set(got.get("patterns", ()))
            if not any(set(s) == have for s in want):
                out.append(Mismatch("patterns", want, got.get("patterns")))
        elif not same(want, got.get(key)):
            out.append(Mismatch(key, want, got.get(key)))
    return tuple(out)


def same(a: Any, b: Any) -> bool:
    """Equality where 14 == 14.0 but true is not 1."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return math.isclose(a, b, rel_tol=0, abs_tol=1e-9)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return bool(a == b)


def _settle_explain(got: Mapping[str, Any]) -> tuple[str, ...]:
    flows = tuple(f"{t['from']}→{t['to']} {t['amount']} ({t['why']})"
                  for t in got.get("transfers", ()))
    score = got.get("score") or {}
    return tuple(score.get("explain", ())) + flows


def pattern_ids(case: Case) -> set[str]:
    """Every pattern id a case names in its expectation."""
    ids = set(case.expect.get("patterns") or ())
    for s in case.expect.get("patterns_one_of") or ():
        ids.update(s)
    return ids


def uncovered(cf: CaseFile, rs: Ruleset) -> tuple[str, ...]:
    """Scored patterns that no case of the file expects: the file's blind spots.

    Only patterns with a value in `scoring` can show up in a result; a pattern defined but
    given no value (off in this ruleset) changes no score, so it needs no case here.
    """
    named = set().union(*(pattern_ids(c) for c in cf.cases)) if cf.cases else set()
    scored = rs.algebra.ids
    return tuple(p.id for p in rs.patterns if p.id in scored and p.id not in named)


def unknown_patterns(cf: CaseFile, rs: Ruleset) -> list[str]:
    """`file:line: ...` for each expected pattern id the ruleset does not define (a typo)."""
    defined = {p.id for p in rs.patterns}
    return [f"{cf.shown}:{c.line}: {c.name}: pattern {pid!r} is not defined by ruleset "
            f"{rs.name}" for c in cf.cases for pid in sorted(pattern_ids(c) - defined)]


# --- reporting --------------------------------------------------------------------------------

def failure_line(cf: CaseFile, o: Outcome) -> str:
    """One line: where, which case, expected vs got for each key, and the explanation."""
    parts = [f"{m.key}: expected {_show(m.expected, m.key)}, got {_show(m.got, m.key)}"
             for m in o.mismatches]
    line = f"FAIL {cf.shown}:{o.case.line}: {o.case.name}: " + "; ".join(parts)
    if o.explain:
        line += " | " + "; ".join(o.explain)
    return line


def _show(value: Any, key: str) -> str:
    if key == "patterns" and isinstance(value, list) and value and isinstance(value[0], list):
        return "one of " + " | ".join(f"[{', '.join(map(str, s))}]" for s in value)
    if isinstance(value, list):
        return "[" + ", ".join(map(str, value)) + "]"
    if value is None:
        return "nothing" if key == "error" else "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


# --- updating ---------------------------------------------------------------------------------

def new_expect(case: Case, got: Mapping[str, Any]) -> dict[str, Any]:
    """The case's expectation rewritten to what came out, keeping its keys where possible."""
    error = got.get("error")
    if error is not None:
        return {"error": error}
    keys = DEFAULT_EXPECT[case.kind] if "error" in case.expect else tuple(case.expect)
    out: dict[str, Any] = {}
    for key in keys:
        if key == "patterns_one_of":
            have = set(got.get("patterns", ()))
            if any(set(s) == have for s in case.expect[key]):
                out[key] = case.expect[key]
            else:
                out["patterns"] = list(got.get("patterns", ()))
        else:
            out[key] = got.get(key)
    return out


def updated(cf: CaseFile, outcomes: Sequence[Outcome]) -> tuple[str, tuple[Change, ...]]:
    """The case file's text with every failing expectation rewritten, and the changes made.

    The text is edited in place (only the changed values), so comments, notes and layout
    written by the author survive.
    """
    edits: list[tuple[int, int, str]] = []
    changes: list[Change] = []
    root, _ = _compose(cf.text, cf.shown)
    cases_node = _keys(root)["cases"][1] if root is not None else None
    for o in outcomes:
        if o.passed:
            continue
        new = new_expect(o.case, o.got)
        old = dict(o.case.expect)
        for key in dict.fromkeys([*old, *new]):
            what: Literal["changed", "added", "removed"] = (
                "added" if key not in old else "removed" if key not in new else "changed")
            if what != "changed" or not _unchanged(key, old[key], new[key]):
                changes.append(Change(o.case, key, old.get(key), new.get(key), what))
        assert isinstance(cases_node, yaml.SequenceNode)
        pair = _keys(cases_node.value[o.case.index])["expect"]
        edits += _expect_edits(cf.text, pair, old, new)
    text = cf.text
    for start, end, repl in sorted(edits, reverse=True):
        text = text[:start] + repl + text[end:]
    return text, tuple(changes)


def write_atomic(path: Path, text: str) -> None:
    """Write a temporary file beside `path` and rename it over: a kill mid-write leaves the
    old file or the new one, never a truncated one. A symlink is followed: the file it
    points to is updated and the link stays a link."""
    target = Path(os.path.realpath(path))
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as err:
        raise CaseFileError([f"{shown_path(path)}:1: cannot write: {err.strerror}"]) from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        try:
            os.chmod(tmp, target.stat().st_mode & 0o7777)
        except OSError:
            pass
        os.replace(tmp, target)
    except BaseException as err:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(err, OSError):
            raise CaseFileError([f"{shown_path(path)}:1: cannot write: {err.strerror}"]) \
                from None
        raise


def _unchanged(key: str, old: Any, new: Any) -> bool:
    """Patterns in another order are the same expectation: leave the author's order."""
    if key == "patterns" and isinstance(old, list) and isinstance(new, list):
        return set(old) == set(new)
    return same(old, new)


def _expect_edits(text: str, pair: tuple[yaml.Node, yaml.Node], old: Mapping[str, Any],
                  new: Mapping[str, Any]) -> list[tuple[int, int, str]]:
    key_node, value_node = pair
    if list(old) != list(new):       # the keys change: write the whole mapping
        return [(key_node.end_mark.index, _end(text, value_node), ": " + yaml_flow(new))]
    edits = []
    for k, v in value_node.value:
        if not _unchanged(k.value, old[k.value], new[k.value]):
            edits.append((k.end_mark.index, _end(text, v), ": " + yaml_flow(new[k.value])))
    return edits


def _end(text: str, node: yaml.Node) -> int:
    """Where a node's own text ends: block nodes' marks run on over comments and blanks."""
    end = int(node.end_mark.index)
    start = int(node.start_mark.index)
    if isinstance(node, yaml.ScalarNode) or node.flow_style:
        return end
    lines = text[start:end].split("\n")
    while len(lines) > 1 and (not lines[-1].strip() or lines[-1].strip().startswith("#")):
        lines.pop()
    return start + len("\n".join(lines).rstrip())


def yaml_flow(value: Any) -> str:
    """A value as one line of flow-style YAML, as case files write expectations."""
    dumped = str(yaml.safe_dump(value, default_flow_style=True, allow_unicode=True,
                            sort_keys=False, width=10_000))
    return dumped.removesuffix("\n").removesuffix("\n...").strip()
