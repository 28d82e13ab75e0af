"""Checks on a pasted `ruleset_yaml` overlay before the library compiles it.

A request's overlay is hostile until shown otherwise: it may be large, nest deeply, use YAML
anchors to expand itself (an alias bomb), `extends` a file on the server's disk, or hold a
pattern whose nested quantifiers would take minutes per hand. Each is refused here with its
line, before anything expensive runs; the library's own bounds apply again when it loads.
"""
from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

import yaml

from rulekit import limits as lib
from rulekit.dsl import ast
from rulekit.dsl.parse import parse as parse_dsl
from rulekit.errors import DslError
from rulekit.serve.errors import ApiError
from rulekit.serve.limits import ServeLimits

FIELD = "ruleset_yaml"
SHOWN = "<inline>"
LIST_ITEMS = 18          # the longest list a pattern can range over (hand.tiles, 4 kongs)
_SECTIONS = ("patterns", "forbid", "instant_win")


@dataclass(frozen=True, slots=True)
class Prepared:
    """An overlay that passed the checks: the text to compile and where it stands on disk."""

    text: str
    base: Path           # where the library resolves its `extends` from


def prepare(text: str, lim: ServeLimits, builtins: Iterable[str],
            served: dict[str, Path]) -> Prepared:
    """Check `text`; its `extends` may only name a built-in or a served ruleset."""
    if len(text.encode("utf-8")) > lim.ruleset_bytes:
        raise ApiError(413, FIELD, f"the overlay is larger than {lim.ruleset_bytes} bytes")
    node = _scan(text, lim)
    from rulekit import resources
    base = resources.rulesets_dir() / f"{SHOWN}.yaml"
    if not isinstance(node, yaml.MappingNode):
        return Prepared(text, base)
    ext = _value(node, "extends")
    if ext is not None:
        names = set(builtins)
        if not isinstance(ext, yaml.ScalarNode) or ext.value not in names | set(served):
            known = ", ".join(sorted(names | set(served)))
            raise ApiError(422, FIELD, f"{SHOWN}:{ext.start_mark.line + 1}: extends: "
                                       f"must name a ruleset this server has ({known}); "
                                       f"requests never name files")
        if ext.value not in names:           # a served file: resolve it as its path
            folder = served[ext.value].parent
            quoted = json.dumps(served[ext.value].name)
            text = text[:ext.start_mark.index] + quoted + text[ext.end_mark.index:]
            base = folder / f"{SHOWN}.yaml"
    _check_work(node, lim)
    return Prepared(text, base)


def _scan(text: str, lim: ServeLimits) -> yaml.Node | None:
    """Refuse anchors, aliases and deep nesting from the event stream, then compose."""
    depth = 0
    try:
        for event in yaml.parse(text, Loader=yaml.SafeLoader):
            if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
                raise ApiError(422, FIELD, f"{SHOWN}:{event.start_mark.line + 1}: YAML anchors "
                                           f"and aliases are not accepted in an overlay")
            if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                depth += 1
                if depth > lim.yaml_depth:
                    raise ApiError(422, FIELD, f"{SHOWN}:{event.start_mark.line + 1}: nested "
                                               f"deeper than {lim.yaml_depth} levels")
            elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                depth -= 1
        node: yaml.Node | None = yaml.compose(text, Loader=yaml.SafeLoader)
        return node
    except yaml.YAMLError:
        return None      # the library reports the syntax error with its line


def _value(node: yaml.MappingNode, key: str) -> yaml.Node | None:
    for k, v in node.value:
        if isinstance(k, yaml.ScalarNode) and k.value == key:
            return v
    return None


def _conditions(node: yaml.MappingNode) -> list[tuple[str, yaml.ScalarNode]]:
    """(key path, `when` node) for every pattern text in the overlay."""
    out: list[tuple[str, yaml.ScalarNode]] = []
    entries: list[tuple[str, yaml.Node]] = []
    for section in _SECTIONS:
        sec = _value(node, section)
        if isinstance(sec, yaml.MappingNode):
            entries += [(f"{section}.{k.value}", v) for k, v in sec.value]
    scoring = _value(node, "scoring")
    adjust = _value(scoring, "adjust_total") if isinstance(scoring, yaml.MappingNode) else None
    if isinstance(adjust, yaml.SequenceNode):
        entries += [(f"scoring.adjust_total.{i}", v) for i, v in enumerate(adjust.value)]
    for key, entry in entries:
        when = _value(entry, "when") if isinstance(entry, yaml.MappingNode) else None
        if isinstance(when, yaml.ScalarNode):
            out.append((f"{key}.when", when))
    return out


def _check_work(node: yaml.MappingNode, lim: ServeLimits) -> None:
    total = 0
    for key, when in _conditions(node):
        line = when.start_mark.line + 1
        if len(when.value) > lib.DSL_CHARS:
            raise ApiError(422, FIELD, f"{SHOWN}:{line}: {key}: longer than "
                                       f"{lib.DSL_CHARS} characters")
        try:
            tree = parse_dsl(when.value)
        except DslError:
            continue         # the library reports it with its line and caret
        except RecursionError:
            raise ApiError(422, FIELD, f"{SHOWN}:{line}: {key}: nested too deeply") from None
        total += work(tree)
        if total > lim.work:
            raise ApiError(422, FIELD, f"{SHOWN}:{line}: {key}: over the work budget: the "
                                       f"patterns would take more than {lim.work} steps per "
                                       f"arrangement (nested quantifiers multiply)")


def work(node: Any) -> int:
    """An upper estimate of the steps one evaluation of a pattern takes on one arrangement."""
    if isinstance(node, ast.Quantified):
        return work(node.collection) + LIST_ITEMS * work(node.body)
    if isinstance(node, ast.Count):
        inner = work(node.condition) if node.condition is not None else 1
        return work(node.collection) + LIST_ITEMS * inner
    if isinstance(node, ast.Comprehension):
        return work(node.collection) + LIST_ITEMS * work(node.expr)
    cost = 1
    if dataclasses.is_dataclass(node):
        for f in dataclasses.fields(node):
            value = getattr(node, f.name)
            if isinstance(value, tuple):
                cost += sum(work(v) for v in value)
            elif dataclasses.is_dataclass(value) and not isinstance(value, ast.Pos):
                cost += work(value)
    return cost
