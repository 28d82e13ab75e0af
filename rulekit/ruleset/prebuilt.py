"""The built-in rulesets as parsed data, so that loading one needs neither YAML nor lark.

`rulekit/builtin_rulesets.json` holds, for every file of `rulesets/`, its sha256, the data and
key origins `yamlmarks.load` makes of it, and the syntax tree `dsl.parse` makes of every
pattern text the built-ins hold. It is generated from the repository's own files
(`python -m rulekit.ruleset.prebuild > rulekit/builtin_rulesets.json`, the build-time
generator, kept apart so that this runtime module imports nothing of the loader) and
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
  a load skips the schema run; `prebuild.generate` refuses a built-in the schema does not
  pass. One record, one command to renew it after a built-in changes.
"""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from rulekit import resources
from rulekit.dsl import ast
from rulekit.ruleset.yamlmarks import Origin, Path_

FILE = Path(__file__).resolve().parent.parent / "builtin_rulesets.json"

NODES: dict[str, type] = {c.__name__: c for c in (
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
        return {text: node(enc) for text, enc in _record()["trees"].items()}
    except _DAMAGED:
        return {}


def node(enc: Any) -> Any:
    if isinstance(enc, dict):
        cls = NODES[enc["node"]]
        return cls(*[node(v) for v in enc["fields"]], ast.Pos(*enc["pos"]))
    if isinstance(enc, list):
        return tuple(node(v) for v in enc)
    return enc
