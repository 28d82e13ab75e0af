"""What the server adds to the library's checks on a pasted `ruleset_yaml` overlay.

The library's loader already refuses what makes any ruleset hostile (YAML anchors, aliases
and merge keys, deep nesting, over-long numbers: `ruleset/yamlmarks.py`; patterns over the
scoring work budget: `dsl/walk.py and dsl/budget.py`). A request can do one more thing a file on disk cannot be
trusted with: `extends` a path on the server's disk. So the server, and only the server,
bounds the overlay's size by its own `--max-ruleset`, and lets `extends` name only a built-in
or a served ruleset, rewriting a served name to that file.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

import yaml

from rulekit import resources
from rulekit.errors import RulesetError
from rulekit.ruleset import yamlmarks
from rulekit.serve.errors import ApiError, first_problem
from rulekit.serve.limits import ServeLimits

FIELD = "ruleset_yaml"
SHOWN = "<inline>"


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
    try:
        node, _ = yamlmarks.compose(text, SHOWN)     # the library's bounded loader
    except RulesetError as err:
        raise ApiError(422, FIELD, first_problem(err.problems), err.problems) from None
    base = resources.rulesets_dir() / f"{SHOWN}.yaml"
    ext = _value(node, "extends") if isinstance(node, yaml.MappingNode) else None
    if ext is None:
        return Prepared(text, base)
    names = set(builtins)
    if not isinstance(ext, yaml.ScalarNode) or ext.value not in names | set(served):
        known = ", ".join(sorted(names | set(served)))
        raise ApiError(422, FIELD, f"{SHOWN}:{ext.start_mark.line + 1}: extends: must name a "
                                   f"ruleset this server has ({known}); requests never name "
                                   f"files")
    if ext.value not in names:           # a served file: resolve it as its path
        path = served[ext.value]
        text = text[:ext.start_mark.index] + json.dumps(path.name) + text[ext.end_mark.index:]
        base = path.parent / f"{SHOWN}.yaml"
    return Prepared(text, base)


def _value(node: yaml.MappingNode, key: str) -> yaml.Node | None:
    for k, v in node.value:
        if isinstance(k, yaml.ScalarNode) and k.value == key:
            return v
    return None
