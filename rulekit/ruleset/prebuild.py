"""Build time: writes rulekit/builtin_rulesets.json from the ruleset files as they are now.

`python -m rulekit.ruleset.prebuild > rulekit/builtin_rulesets.json` after a built-in (or the
schema) changes; tests/test_prebuilt.py fails until then. It lives apart from
`ruleset/prebuilt.py`, which only reads the record at run time: the generator needs the whole
loader (YAML, lark, the schema, `resolve`, `validated`), and those import `prebuilt`, so in one
module they made an import circle.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import sys
from typing import Any

from rulekit import resources
from rulekit.dsl import ast
from rulekit.dsl.parse import parse
from rulekit.ruleset import checks, prebuilt, resolve, schema, validated, yamlmarks


def encode(node: Any) -> Any:
    """A syntax tree as JSON values: each node {"node": class, "fields": [...], "pos"}."""
    if isinstance(node, ast.Pos):
        raise TypeError("a position outside a node")
    if prebuilt.NODES.get(type(node).__name__) is type(node):
        n: Any = node
        names = [f.name for f in dataclasses.fields(n) if f.name != "pos"]
        return {"node": type(n).__name__, "fields": [encode(getattr(n, f)) for f in names],
                "pos": [n.pos.line, n.pos.column]}
    if isinstance(node, tuple):
        return [encode(v) for v in node]
    if node is None or isinstance(node, (str, int)):
        return node
    raise TypeError(f"cannot encode {type(node).__name__}")


def same(a: Any, b: Any) -> bool:
    """Equal and of the same types all the way down (1, 1.0 and True are not the same)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return bool(a == b)


def generate() -> str:
    """The file's text from the ruleset files as they are now (YAML and lark, as a load
    without this file does); refuses a built-in the schema does not pass, and what JSON
    would not give back exactly. The schema's sha256 is recorded with the files': a load
    trusts the record only under that schema (`validated.trusted`)."""
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
        if not same(back["data"], data) or \
                {tuple(k): (name, ln, col) for k, ln, col in back["origins"]} != origins:
            raise ValueError(f"{name}: JSON does not give its data back exactly")
        files[path.name] = entry
        merged, merged_origins, _ = resolve.resolve(path, allow_outside=False)
        problems = schema.problems(merged, merged_origins, name)
        if problems:
            raise ValueError(f"{name} does not pass the schema: {problems[0]}")
        texts.update(s.text for s, _ in checks._conditions(merged, merged_origins, name))
    encoded = {t: encode(parse(t)) for t in sorted(texts)}
    for t, enc in encoded.items():
        if prebuilt.node(json.loads(json.dumps(enc))) != parse(t):
            raise ValueError(f"the tree of {t!r} does not come back from JSON")
    return json.dumps({"generated_by": "python -m rulekit.ruleset.prebuild",
                       "schema": validated.schema_digest(), "files": files,
                       "trees": encoded}, ensure_ascii=False, indent=None,
                      separators=(",", ":")) + "\n"


if __name__ == "__main__":
    sys.stdout.write(generate())
