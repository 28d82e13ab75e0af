"""Safe YAML loading that remembers the file line of every key, for error messages."""
from __future__ import annotations

from typing import Any

import yaml

from rulekit.errors import RulesetError

Path_ = tuple[Any, ...]
Origin = tuple[str, int, int]        # file, line (1-based), column (1-based)


def compose(text: str, filename: str) -> tuple[yaml.Node | None, Any]:
    """Safe-load `text` keeping its node tree (for line marks); YAML errors name the line."""
    try:
        loader = yaml.SafeLoader(text)
        try:
            node = loader.get_single_node()
            data = loader.construct_document(node) if node is not None else None
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        line = mark.line + 1 if mark else 1
        raise RulesetError([f"{filename}:{line}: YAML: {err.problem or err}"]) from None
    except yaml.YAMLError as err:
        raise RulesetError([f"{filename}:1: YAML: {err}"]) from None
    return node, data


def load(text: str, filename: str) -> tuple[Any, dict[Path_, Origin]]:
    """Parse with `SafeLoader` only; return the data and {key path: origin}.

    The origin of a mapping entry is its key's position; of a scalar value, the value's own
    position is stored under the path plus the marker `"<value>"` (DSL errors need it).
    """
    node, data = compose(text, filename)
    origins: dict[Path_, Origin] = {}
    if node is not None:
        _walk(node, (), filename, origins)
    return data, origins


def _mark(node: yaml.Node, filename: str) -> Origin:
    return (filename, node.start_mark.line + 1, node.start_mark.column + 1)


def _walk(node: yaml.Node, path: Path_, filename: str, out: dict[Path_, Origin]) -> None:
    out.setdefault(path, _mark(node, filename))
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            key = key_node.value
            if key_node.tag.endswith(":int"):
                key = int(key)
            out[path + (key,)] = _mark(key_node, filename)
            _walk_value(value_node, path + (key,), filename, out)
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            out[path + (i,)] = _mark(item, filename)
            _walk_value(item, path + (i,), filename, out)


def _walk_value(node: yaml.Node, path: Path_, filename: str, out: dict[Path_, Origin]) -> None:
    if isinstance(node, yaml.ScalarNode):
        line = node.start_mark.line + 1
        col = node.start_mark.column + 1
        if node.style in ("|", ">"):
            line, col = line + 1, _block_indent(node) + 1
        elif node.style in ("'", '"'):
            col += 1
        out[path + ("<value>",)] = (filename, line, col)
    else:
        _walk(node, path, filename, out)
        out[path] = out.get(path, _mark(node, filename))


def _block_indent(node: yaml.ScalarNode) -> int:
    buf = node.start_mark.buffer or ""
    start = node.start_mark.index
    nl = buf.find("\n", start)
    if nl < 0:
        return 0
    rest = buf[nl + 1:]
    return len(rest) - len(rest.lstrip(" "))
