"""Finding ruleset files and applying `extends`.

Merge rule (documented in docs/authoring.md): mappings merge deeply, lists replace, and `null`
removes a key. Each key keeps the file and line it last came from, so a schema error in the
merged result still points at the line an author wrote.
"""
from __future__ import annotations

import difflib
from pathlib import Path
from typing import Any

from rulekit import resources
from rulekit.errors import RulesetError
from rulekit.ruleset import yamlmarks
from rulekit.ruleset.yamlmarks import Origin, Path_


def builtin_names() -> list[str]:
    return sorted(p.stem for p in resources.rulesets_dir().glob("*.yaml"))


def locate(ref: str, relative_to: Path | None = None) -> Path:
    """A built-in name (`tianjin`) or a path (relative to the extending file, if any)."""
    looks_like_path = "/" in ref or ref.endswith((".yaml", ".yml")) or "\\" in ref
    if not looks_like_path:
        builtin = resources.rulesets_dir() / f"{ref}.yaml"
        if builtin.is_file():
            return builtin
    candidate = Path(ref)
    if relative_to is not None and not candidate.is_absolute():
        candidate = relative_to.parent / candidate
    if candidate.is_file():
        return candidate
    known = ", ".join(builtin_names())
    where = f" (from {relative_to})" if relative_to else ""
    near = [] if looks_like_path else [
        n for n in difflib.get_close_matches(ref, builtin_names(), n=1) if n != ref]
    if near:
        raise RulesetError([f"unknown ruleset '{ref}'{where}; did you mean '{near[0]}'? "
                            f"(built-in rulesets are: {known})"])
    raise RulesetError([f"{ref}: no such ruleset{where}; built-in rulesets are: {known}"])


def display_name(path: Path) -> str:
    """Built-ins are shown as rulesets/NAME.yaml; user files as given."""
    try:
        path.resolve().relative_to(resources.rulesets_dir().resolve())
        return f"rulesets/{path.name}"
    except ValueError:
        return str(path)


def read_layer(path: Path, text: str | None = None, shown: str | None = None
               ) -> tuple[dict[str, Any], dict[Path_, Origin]]:
    name = shown or display_name(path)
    if text is None:
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as err:
            raise RulesetError([f"{name}:1: cannot read: {err.strerror}"]) from None
    data, origins = yamlmarks.load(text, name)
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise RulesetError([f"{name}:1: a ruleset is a mapping of keys, "
                            f"not a {type(data).__name__}"])
    return data, origins


def resolve(path: Path, text: str | None = None, shown: str | None = None
            ) -> tuple[dict[str, Any], dict[Path_, Origin], list[Path]]:
    """The fully merged ruleset data for `path`, its key origins, and the chain of files.

    `text` and `shown`, when given, stand in for the first file's content and name (a file as
    it was at a git revision); its `extends` still resolves from `path`, on disk.
    """
    chain: list[Path] = []
    layers: list[tuple[dict[str, Any], dict[Path_, Origin]]] = []
    current: Path | None = path
    while current is not None:
        resolved = current.resolve()
        if resolved in [p.resolve() for p in chain]:
            names = " -> ".join(display_name(p) for p in [*chain, current])
            raise RulesetError([f"{display_name(chain[-1])}:1: extends: cycle: {names}"])
        chain.append(current)
        data, origins = read_layer(current, *((text, shown) if len(chain) == 1 else ()))
        layers.append((data, origins))
        parent = data.get("extends")
        if parent is None:
            current = None
        elif not isinstance(parent, str):
            origin = origins.get(("extends",), (display_name(current), 1, 1))
            raise RulesetError([f"{origin[0]}:{origin[1]}: extends: must be a ruleset name "
                                f"or a path"])
        else:
            try:
                current = locate(parent, current)
            except RulesetError as err:
                origin = origins.get(("extends",), (display_name(current), 1, 1))
                raise RulesetError([f"{origin[0]}:{origin[1]}: extends: {err.problems[0]}"]) \
                    from None
    merged: dict[str, Any] = {}
    merged_origins: dict[Path_, Origin] = {}
    for data, origins in reversed(layers):
        merged = merge(merged, data)
        for key_path, origin in origins.items():
            merged_origins[key_path] = origin
    merged.pop("extends", None)
    return merged, merged_origins, chain


def merge(base: Any, over: Any) -> Any:
    """Deep merge: mappings merge, lists and scalars replace, `None` deletes the key."""
    if not isinstance(base, dict) or not isinstance(over, dict):
        return over
    out = dict(base)
    for key, value in over.items():
        if value is None:
            out.pop(key, None)
        elif key in out:
            out[key] = merge(out[key], value)
        else:
            out[key] = _strip_nulls(value)
    return out


def _strip_nulls(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _strip_nulls(v) for k, v in value.items() if v is not None}
    return value
