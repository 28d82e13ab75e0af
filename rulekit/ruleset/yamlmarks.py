"""Safe YAML loading that remembers the file line of every key, for error messages.

The one loader for rulesets and case files, and a bounded one: anchors, aliases and merge keys
are refused (a 9-line alias bomb expands to gigabytes; a recursive anchor never ends), as are
nesting deeper than `limits.YAML_DEPTH`, text over `limits.RULESET_BYTES` and integers over
`limits.INT_DIGITS` digits. Each refusal is one `RulesetError` line `file:line: ...` quoting
at most `limits.QUOTE_CHARS` of the input.

One text, one meaning: a mapping may not repeat a key (`duplicate key 'extends' (first at
line 3)`; PyYAML would keep the last one, after a check may have read the first), and the
YAML 1.1 forms that turn innocent-looking text into a surprising value are refused at their
line: base-60 numbers (`1:0:0.5` is 3600.5), octal, hexadecimal, binary and underscored
numbers (`010` is 8, `0x1F` 31), dates and times (`2001-12-14`), and explicit tags (`!!binary`,
`!!float`: PyYAML already refuses `!!python/...`). Booleans (`yes`, `off`) and non-finite
numbers (`.inf`, `.nan`) are loaded as what they are: harmless to hold, the schema check
reports them where a number or text belongs, together with every other problem of the file.

PyYAML is imported on the first load (~15 ms): loading a built-in ruleset whose bytes are the
recorded ones never needs it (`rulekit.ruleset.prebuilt`).
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import yaml

from rulekit import limits
from rulekit.errors import RulesetError

Path_ = tuple[Any, ...]
Origin = tuple[str, int, int]        # file, line (1-based), column (1-based)

_MERGE = "tag:yaml.org,2002:merge"
_STR = "tag:yaml.org,2002:str"
# the plain numbers a ruleset means: decimal, no leading zero, no `_`, no `:` (YAML 1.1 reads
# the others as octal, hexadecimal, binary or base 60)
_PLAIN_INT = re.compile(r"[-+]?(0|[1-9][0-9]*)")
_PLAIN_FLOAT = re.compile(r"[-+]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][-+]?[0-9]+)?"
                          r"|[-+]?\.(inf|Inf|INF)|\.(nan|NaN|NAN)")


class _Refused(Exception):
    """A YAML construct rulesets do not allow, at a mark."""

    def __init__(self, mark: Any, message: str) -> None:
        super().__init__(message)
        self.line = mark.line + 1 if mark is not None else 1
        self.message = message


@lru_cache(maxsize=1)
def _loader_class() -> Any:
    """The bounded loader class (made on first use: it subclasses PyYAML's)."""
    import yaml

    class _BoundedLoader(yaml.SafeLoader):  # type: ignore[misc]  # pyyaml has no types here
        """SafeLoader that refuses anchors and aliases and bounds nesting while composing, so
        nothing is ever expanded and the composer's recursion stays shallow."""

        def __init__(self, stream: str) -> None:
            super().__init__(stream)
            self.depth = 0

        def compose_node(self, parent: Any, index: Any) -> Any:
            event = self.peek_event()
            if isinstance(event, yaml.AliasEvent):
                raise _Refused(event.start_mark, f"YAML aliases (*"
                               f"{limits.excerpt(event.anchor, 40)}) are not allowed in "
                               "rulesets or case files: write the value out")
            if getattr(event, "tag", None) is not None:
                tag = event.tag.replace("tag:yaml.org,2002:", "!!")
                raise _Refused(event.start_mark, f"YAML tags ({limits.excerpt(tag, 40)}) "
                               "are not allowed in "
                               "rulesets or case files: write the value plainly")
            if getattr(event, "anchor", None) is not None:
                raise _Refused(event.start_mark, f"YAML anchors (&"
                               f"{limits.excerpt(event.anchor, 40)}) are not allowed in "
                               "rulesets or case files: write the value out")
            self.depth += 1
            if self.depth > limits.YAML_DEPTH:
                raise _Refused(event.start_mark, f"YAML nested too deeply (more than "
                               f"{limits.YAML_DEPTH} levels)")
            try:
                return super().compose_node(parent, index)
            finally:
                self.depth -= 1

    return _BoundedLoader


def compose(text: str, filename: str) -> tuple[yaml.Node | None, Any]:
    """Safe-load `text` keeping its node tree (for line marks); YAML errors name the line."""
    if len(text) > limits.RULESET_BYTES:
        raise RulesetError([f"{filename}:1: file too large ({len(text)} characters; at most "
                            f"{limits.RULESET_BYTES})"])
    import yaml
    try:
        loader = _loader_class()(text)
        try:
            node = loader.get_single_node()
            if node is not None:
                _check(node)
            data = loader.construct_document(node) if node is not None else None
        finally:
            loader.dispose()
    except _Refused as err:
        raise RulesetError([f"{filename}:{err.line}: {err.message}"]) from None
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        line = mark.line + 1 if mark else 1
        problem = limits.excerpt(str(err.problem or err).splitlines()[0])
        raise RulesetError([f"{filename}:{line}: YAML: {problem}"]) from None
    except yaml.reader.ReaderError as err:
        line = text.count("\n", 0, max(err.position, 0)) + 1
        raise RulesetError([f"{filename}:{line}: YAML: unacceptable character "
                            f"#x{err.character if isinstance(err.character, int) else 0:04x}"
                            ]) from None
    except yaml.YAMLError as err:
        raise RulesetError([f"{filename}:1: YAML: "
                            f"{limits.excerpt(' '.join(str(err).split()))}"]) from None
    return node, data


def _check(root: yaml.Node) -> None:
    """Refuse merge keys, repeated keys and surprising scalars (`_scalar`), before the
    constructor meets them (and before `int()` meets thousands of digits)."""
    import yaml
    stack = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, yaml.MappingNode):
            seen: dict[Any, int] = {}
            for key, value in node.value:
                if key.tag == _MERGE:
                    raise _Refused(key.start_mark, "YAML merge keys (<<) are not allowed in "
                                   "rulesets or case files: write the keys out")
                if isinstance(key, yaml.ScalarNode):
                    _scalar(key)
                    _once(key, seen)
                stack.append(key)
                stack.append(value)
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)
        else:
            _scalar(node)


def _once(key: yaml.ScalarNode, seen: dict[Any, int]) -> None:
    """Note the key in `seen` (key → its line), refusing one the mapping already has."""
    try:
        value = _key(key)
        hash(value)
    except Exception:       # noqa: BLE001  # the constructor reports it with its line
        return
    if value in seen:
        raise _Refused(key.start_mark, f"duplicate key '{limits.excerpt(str(value), 40)}' "
                       f"(first at line {seen[value]})")
    seen[value] = key.start_mark.line + 1


def _scalar(node: yaml.ScalarNode) -> None:
    """Refuse a plain scalar YAML 1.1 reads as something its text does not show."""
    if node.style is not None:                       # quoted or block text: a string
        return
    tag, text = node.tag, node.value
    if tag.endswith(":int"):
        digits = sum(c.isalnum() for c in text)
        if digits > limits.INT_DIGITS:
            raise _Refused(node.start_mark, f"number too long ({digits} digits; at most "
                           f"{limits.INT_DIGITS})")
        if not _PLAIN_INT.fullmatch(text):
            raise _Refused(node.start_mark, _odd_number(text))
    elif tag.endswith(":float") and not _PLAIN_FLOAT.fullmatch(text):
        raise _Refused(node.start_mark, _odd_number(text))
    elif tag.endswith(":timestamp"):
        raise _Refused(node.start_mark, f"YAML reads {limits.excerpt(text, 40)} as a date: "
                       "quote it if it is text")


def _odd_number(text: str) -> str:
    how = ("base 60" if ":" in text else "hexadecimal" if "x" in text.lower()
           else "binary" if "b" in text.lower() else "digits grouped by '_'" if "_" in text
           else "octal")
    return (f"YAML 1.1 reads {limits.excerpt(text, 40)} as a number ({how}): write a plain "
            "decimal number, or quote it if it is text")


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
    import yaml
    out.setdefault(path, _mark(node, filename))
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            key = _key(key_node)
            out[path + (key,)] = _mark(key_node, filename)
            _walk_value(value_node, path + (key,), filename, out)
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            out[path + (i,)] = _mark(item, filename)
            _walk_value(item, path + (i,), filename, out)


def _key(node: yaml.Node) -> Any:
    """A key as the constructor made it (`0x1F:` is the int 31), so origins match the data."""
    import yaml
    if node.tag == _STR or not isinstance(node, yaml.ScalarNode):
        return node.value
    loader = _key_loader()
    return loader.yaml_constructors[node.tag](loader, node)


@lru_cache(maxsize=1)
def _key_loader() -> Any:
    import yaml
    return yaml.SafeLoader("")


def _walk_value(node: yaml.Node, path: Path_, filename: str, out: dict[Path_, Origin]) -> None:
    import yaml
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
