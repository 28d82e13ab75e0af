"""The built-in rulesets as parsed data, so that loading one needs neither YAML nor lark.

`rulekit/builtin_rulesets.json` holds, for every file of `rulesets/`, its sha256, the data and
key origins `yamlmarks.load` makes of it, and the syntax tree `dsl.parse` makes of every
pattern text the built-ins hold. It is generated from the repository's own files
(`python -m rulekit.ruleset.prebuilt > rulekit/builtin_rulesets.json`) and
tests/test_prebuilt.py fails if it differs from what the files give now. It is plain JSON
read with `json.loads` into lists, dicts and the frozen `dsl.ast` values: nothing is
unpickled or executed.

What it saves: importing lark and building its LALR tables (~110 ms), importing PyYAML and
composing each file (~35 ms) of every process that loads a built-in.

When it is used (and nothing else is trusted):
- `layer`: a file is served from here only if it lies in the package's ruleset directory and
  the sha256 of the bytes just read equals the one recorded; an edited built-in, a copy
  elsewhere, or any user file goes through YAML as always;
- `trees`: the syntax trees are used only for a chain `validated.trusted` accepts (built-in
  files with their validated bytes); a user's ruleset is parsed by lark, every pattern of it.
- `digests`: the same sha256s, with the schema's, are what `validated.trusted` checks before
  a load skips the schema run; `generate` refuses a built-in the schema does not pass. One
  record, one command to renew it after a built-in changes.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any

from rulekit import resources
from rulekit.dsl import ast
from rulekit.ruleset.yamlmarks import Origin, Path_

FILE = Path(__file__).resolve().parent.parent / "builtin_rulesets.json"

_NODES: dict[str, type] = {c.__name__: c for c in (
    ast.Num, ast.TileLit, ast.BoolLit, ast.Name, ast.Attr, ast.Call, ast.ListLit, ast.Compare,
    ast.Arith, ast.Not, ast.BoolOp, ast.Quantified, ast.Count, ast.Comprehension)}


@lru_cache(maxsize=1)
def _text() -> str:
    try:
        return FILE.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):   # not shipped (a partial copy): all is parsed
        return "{}"


# what a damaged record (truncated, edited, from another version) raises when read: the
# record is then taken as absent, and every file is read and parsed as if it were not shipped
_DAMAGED = (ValueError, TypeError, KeyError, AttributeError, IndexError)


def _record() -> dict[str, Any]:
    """The record, freshly parsed (callers may keep or change what it returns)."""
    try:
        doc = json.loads(_text())
    except ValueError:
        return {}
    return doc if isinstance(doc, dict) else {}


def layer(path: Path, digest: bytes, name: str
          ) -> tuple[dict[str, Any], dict[Path_, Origin]] | None:
    """`yamlmarks.load`'s (data, origins) for the built-in file `path` whose bytes hash to
    `digest`, its origins naming the file `name`; None unless recorded for exactly these bytes.
    Fresh containers each call (a caller may merge into them)."""
    if path.resolve().parent != resources.rulesets_dir().resolve():
        return None
    try:
        entry = _record().get("files", {}).get(path.name)
        if entry is None or entry["sha256"] != digest.hex() or not isinstance(entry["data"],
                                                                                dict):
            return None
        origins = {tuple(key): (name, line, col) for key, line, col in entry["origins"]}
    except _DAMAGED:
        return None
    return entry["data"], origins


@lru_cache(maxsize=1)
def digests() -> tuple[dict[str, str], str]:
    """The sha256 of every built-in file as generated, and of the schema they were validated
    against then (`validated.trusted` reads them: one record for both shortcuts)."""
    doc = _record()
    try:
        files = {str(name): str(entry["sha256"]) for name, entry in doc["files"].items()}
        return files, str(doc["schema"])
    except _DAMAGED:
        return {}, ""


@lru_cache(maxsize=1)
def trees() -> dict[str, ast.Node]:
    """Pattern text → the syntax tree `dsl.parse` gives it, for every text of the built-ins
    (shared: the trees are frozen values)."""
    try:
        return {text: _node(enc) for text, enc in _record()["trees"].items()}
    except _DAMAGED:
        return {}


def _node(enc: Any) -> Any:
    if isinstance(enc, dict):
        cls = _NODES[enc["node"]]
        return cls(*[_node(v) for v in enc["fields"]], ast.Pos(*enc["pos"]))
    if isinstance(enc, list):
        return tuple(_node(v) for v in enc)
    return enc


# -- generating the file ------------------------------------------------------------------

def _encode(node: Any) -> Any:
    """A syntax tree as JSON values: each node {"node": class, "fields": [...], "pos"}."""
    if isinstance(node, ast.Pos):
        raise TypeError("a position outside a node")
    if _NODES.get(type(node).__name__) is type(node):
        n: Any = node
        names = [f.name for f in dataclasses.fields(n) if f.name != "pos"]
        return {"node": type(n).__name__, "fields": [_encode(getattr(n, f)) for f in names],
                "pos": [n.pos.line, n.pos.column]}
    if isinstance(node, tuple):
        return [_encode(v) for v in node]
    if node is None or isinstance(node, (str, int)):
        return node
    raise TypeError(f"cannot encode {type(node).__name__}")


def _same(a: Any, b: Any) -> bool:
    """Equal and of the same types all the way down (1, 1.0 and True are not the same)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return bool(a == b)


def generate() -> str:
    """The file's text from the ruleset files as they are now (YAML and lark, as a load
    without this file does); refuses a built-in the schema does not pass, and what JSON
    would not give back exactly. The schema's sha256 is recorded with the files': a load
    trusts the record only under that schema (`validated.trusted`)."""
    from rulekit.dsl.parse import parse
    from rulekit.ruleset import checks, resolve, schema, validated, yamlmarks
    files: dict[str, Any] = {}
    texts: set[str] = set()
    for path in sorted(resources.rulesets_dir().glob("*.yaml")):
        raw = path.read_bytes()
        name = resolve.display_name(path)
        data, origins = yamlmarks.load(raw.decode("utf-8"), name)
        if not isinstance(data, dict) or any(o[0] != name for o in origins.values()):
            raise ValueError(f"{name}: not a mapping, or origins in another file")
        entry = {"sha256": hashlib.sha256(raw).hexdigest(), "data": data,
                 "origins": [[list(k), o[1], o[2]] for k, o in origins.items()]}
        back = json.loads(json.dumps(entry, ensure_ascii=False))
        if not _same(back["data"], data) or \
                {tuple(k): (name, ln, col) for k, ln, col in back["origins"]} != origins:
            raise ValueError(f"{name}: JSON does not give its data back exactly")
        files[path.name] = entry
        merged, merged_origins, _ = resolve.resolve(path, allow_outside=False)
        problems = schema.problems(merged, merged_origins, name)
        if problems:
            raise ValueError(f"{name} does not pass the schema: {problems[0]}")
        texts.update(s.text for s, _ in checks._conditions(merged, merged_origins, name))
    encoded = {t: _encode(parse(t)) for t in sorted(texts)}
    for t, enc in encoded.items():
        if _node(json.loads(json.dumps(enc))) != parse(t):
            raise ValueError(f"the tree of {t!r} does not come back from JSON")
    return json.dumps({"generated_by": "python -m rulekit.ruleset.prebuilt",
                       "schema": validated.schema_digest(), "files": files,
                       "trees": encoded}, ensure_ascii=False, indent=None,
                      separators=(",", ":")) + "\n"


if __name__ == "__main__":
    sys.stdout.write(generate())
