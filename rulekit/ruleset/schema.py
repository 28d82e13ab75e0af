"""JSON Schema validation of merged ruleset data, every error mapped back to its YAML line."""
from __future__ import annotations

import json
import math
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulekit.limits import excerpt
from rulekit.ruleset.yamlmarks import Origin, Path_

if TYPE_CHECKING:
    import jsonschema       # imported when a ruleset is validated (~90 ms): `_validator`


SCHEMA_FILE = Path(__file__).resolve().parent.parent / "schema" / "ruleset.schema.json"
"""The schema, in the package (read as a file: `importlib.resources` would cost every load
of a ruleset ~5 ms of imports for the same path). `validated` hashes this file."""


@lru_cache(maxsize=1)
def schema() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    return loaded


OVERLAY_FILE = "ruleset-overlay.schema.json"


@lru_cache(maxsize=1)
def overlay_schema() -> dict[str, Any]:
    """The schema of a file that `extends` another, derived from the full one so that the two
    never drift (rulekit/schema/ruleset-overlay.schema.json is this, printed by
    `rulekit schema --overlay`, for editors).

    Mappings merge deeply, so no key is required anywhere and any mapping value may be `null`
    (it removes the inherited key); lists replace, so a list's items stay complete."""
    full = schema()
    out = _relaxed(full)
    out["$id"] = full["$id"].replace("ruleset.schema.json", OVERLAY_FILE)
    out["title"] = "rulekit ruleset overlay"
    out["description"] = ("A ruleset that extends another: every key optional, null removes an "
                          "inherited key, lists replace the parent's whole. Generated from "
                          "ruleset.schema.json by `rulekit schema --overlay`. See "
                          "docs/authoring.md.")
    out["$defs"] = {name: _relaxed(d) for name, d in full["$defs"].items()}
    return out


def _relaxed(node: dict[str, Any]) -> dict[str, Any]:
    """`node` as an overlay may write it: nothing required, entries nullable. A deletion
    beside each addition may double a mapping's size. `items` stay as they are."""
    out = {k: v for k, v in node.items() if k != "required"}
    if "maxProperties" in out:
        out["maxProperties"] = 2 * out["maxProperties"]
    if "properties" in out:
        out["properties"] = {k: _nullable(_relaxed(v)) for k, v in out["properties"].items()}
    if isinstance(out.get("additionalProperties"), dict):
        out["additionalProperties"] = _nullable(_relaxed(out["additionalProperties"]))
    for key in ("allOf", "anyOf", "oneOf"):
        if key in out:
            out[key] = [_relaxed(x) for x in out[key]]
    return out


def _nullable(node: dict[str, Any]) -> dict[str, Any]:
    """`node` or null; said in place where it can be, so that editors' messages stay direct."""
    if "enum" in node or isinstance(node.get("type"), str):
        out = dict(node)
        if "enum" in out:
            out["enum"] = [*out["enum"], None]
        if isinstance(out.get("type"), str):
            out["type"] = [out["type"], "null"]
        return out
    out = {"anyOf": [node, {"type": "null"}]}
    if "description" in node:
        out["description"] = node["description"]
    return out


@lru_cache(maxsize=1)
def _validator() -> jsonschema.Draft202012Validator:
    import jsonschema
    return jsonschema.Draft202012Validator(schema())


def origin_of(path: Path_, origins: dict[Path_, Origin], default: str) -> Origin:
    """The deepest recorded origin along `path` (a missing key reports its parent)."""
    p = tuple(path)
    while p:
        if p in origins:
            return origins[p]
        p = p[:-1]
    return origins.get((), (default, 1, 1))


def dotted(path: Path_) -> str:
    return ".".join(str(p) for p in path) or "(top)"


def problems(data: Any, origins: dict[Path_, Origin], default: str) -> list[str]:
    """Every schema violation as `file:line: key.path: message`, in file order."""
    out: list[tuple[tuple[str, int], str]] = []
    for path in _non_finite(data):
        f, line, _ = origin_of(path, origins, default)
        out.append(((f, line), f"{f}:{line}: {dotted(path)}: must be a finite number"))
    for err in _validator().iter_errors(data):
        if _is_non_finite(err.instance):
            continue          # reported above, once
        path = tuple(err.absolute_path)
        message = _message(err)
        if "propertyNames" in err.absolute_schema_path:
            path += (err.instance,)        # the key itself is wrong: point at it
            if err.validator == "type":
                message = (f"a key here must be text (lower case, digits, _), "
                           f"not {_a(_json_type(err.instance))}")
        if err.validator == "additionalProperties" and isinstance(err.instance, dict):
            allowed = err.schema.get("properties", {})
            extras = [k for k in err.instance if k not in allowed]
            for extra in extras:
                f, line, _ = origin_of(path + (extra,), origins, default)
                hint = _closest(extra, allowed)
                out.append(((f, line), f"{f}:{line}: {dotted(path + (extra,))}: unknown key"
                            f"{hint}"))
            continue
        f, line, _ = origin_of(path, origins, default)
        out.append(((f, line), f"{f}:{line}: {dotted(path)}: {message}"))
    out.sort(key=lambda x: x[0])
    return [m for _, m in out]


def _is_non_finite(x: Any) -> bool:
    return isinstance(x, float) and not math.isfinite(x)


def _non_finite(data: Any) -> list[Path_]:
    """Paths of `.inf` and `.nan` values: JSON Schema's bounds cannot see a NaN (it compares
    false with everything), and neither may reach scoring."""
    found: list[Path_] = []
    stack: list[tuple[Path_, Any]] = [((), data)]
    while stack:
        path, node = stack.pop()
        if isinstance(node, dict):
            stack.extend((path + (k,), v) for k, v in node.items())
        elif isinstance(node, list):
            stack.extend((path + (i,), v) for i, v in enumerate(node))
        elif _is_non_finite(node):
            found.append(path)
    return found


def _closest(name: str, options: Any) -> str:
    import difflib
    # keys may be numbers (YAML `12:`); never offer the name itself
    names = [str(o) for o in options if str(o) != str(name)]
    close = difflib.get_close_matches(str(name), names, n=1, cutoff=0.6)
    return f"; did you mean '{close[0]}'?" if close else ""


def _message(err: jsonschema.ValidationError) -> str:
    v = err.validator
    if v == "enum":
        return "must be one of " + ", ".join(str(x) for x in err.validator_value)
    if v == "required":
        missing = [k for k in err.validator_value if k not in (err.instance or {})]
        return "missing required key " + ", ".join(repr(k) for k in missing)
    if v == "type":
        return f"must be {_a(err.validator_value)}, not {_a(_json_type(err.instance))}"
    if v == "pattern" and isinstance(err.instance, str):
        return f"{excerpt(repr(err.instance))} is not a valid identifier (lower case, digits, _)"
    if v == "minimum":
        return f"must be at least {err.validator_value}"
    if v == "maximum":
        return f"must be at most {err.validator_value}"
    if v == "maxLength":
        return f"must be at most {err.validator_value} characters long"
    if v == "maxProperties":
        return f"must have at most {err.validator_value} entries"
    if v == "maxItems":
        return f"must have at most {err.validator_value} items"
    if v == "anyOf" and _json_type(err.instance) == "number" and err.context:
        # a number out of bounds: say which bound, not that it may be a reference
        return next((_message(e) for e in err.context if e.validator != "type"),
                    f"{excerpt(repr(err.instance))} is not allowed here")
    if v == "anyOf":
        return (f"{excerpt(repr(err.instance))} must be a number or a dotted reference like "
                f"heavenly.multiplier")
    return excerpt(str(err.message))


def _a(t: Any) -> str:
    if isinstance(t, list):
        return " or ".join(_a(x) for x in t)
    return {"object": "a mapping", "array": "a list", "string": "a string",
            "integer": "a whole number", "number": "a number", "boolean": "true or false",
            "null": "empty"}.get(str(t), str(t))


def _json_type(x: Any) -> str:
    if isinstance(x, bool):
        return "boolean"
    if isinstance(x, (int, float)):
        return "number"
    if isinstance(x, str):
        return "string"
    if isinstance(x, list):
        return "array"
    if isinstance(x, dict):
        return "object"
    return "null"
