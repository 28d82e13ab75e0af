"""JSON Schema validation of merged ruleset data, every error mapped back to its YAML line."""
from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources as _res
from pathlib import Path
from typing import Any

import jsonschema

from rulekit.ruleset.yamlmarks import Origin, Path_


@lru_cache(maxsize=1)
def schema() -> dict[str, Any]:
    try:
        text = _res.files("rulekit").joinpath("schema/ruleset.schema.json").read_text("utf-8")
    except (FileNotFoundError, ModuleNotFoundError):  # pragma: no cover - broken install
        text = (Path(__file__).parent.parent / "schema" / "ruleset.schema.json").read_text()
    loaded: dict[str, Any] = json.loads(text)
    return loaded


@lru_cache(maxsize=1)
def _validator() -> jsonschema.Draft202012Validator:
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
    for err in _validator().iter_errors(data):
        path = tuple(err.absolute_path)
        message = _message(err)
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


def _closest(name: str, options: Any) -> str:
    import difflib
    close = difflib.get_close_matches(str(name), [o for o in options if o != name], n=1,
                                      cutoff=0.6)
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
        return f"{err.instance!r} is not a valid identifier (lower case, digits, _)"
    if v == "minimum":
        return f"must be at least {err.validator_value}"
    if v == "anyOf":
        return f"{err.instance!r} must be a number or a dotted reference like heavenly.multiplier"
    return str(err.message)


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
