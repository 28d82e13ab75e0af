"""Finding ruleset files and applying `extends`.

Merge rule (documented in docs/authoring.md): mappings merge deeply, lists replace, and `null`
removes a key. Each key keeps the file and line it last came from, so a schema error in the
merged result still points at the line an author wrote.

`extends` is bounded and kept in its tree (docs/authoring.md, "extends"): a path may not leave
the directory of the file that names it unless allowed (`allow_outside=True`, or the
environment variable RULEKIT_ALLOW_EXTENDS_OUTSIDE=1, which `rulekit --allow-extends-outside`
sets); a chain is at most `limits.EXTENDS_DEPTH` files; a parent that cannot be read or is not a
ruleset is one error that never quotes its content.
"""
from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import IO, Any

from rulekit import limits, resources
from rulekit.errors import RulesetError
from rulekit.ruleset import prebuilt, yamlmarks
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
    if looks_like_path:
        raise RulesetError([f"{limits.excerpt(ref, 80)}: no such file{where}"
                            + _nearby(candidate)])
    import difflib                      # only for a name not found
    near = [] if looks_like_path else [
        n for n in difflib.get_close_matches(ref, builtin_names(), n=1) if n != ref]
    if near:
        raise RulesetError([f"unknown ruleset '{limits.excerpt(ref, 80)}'{where}; did you mean "
                            f"'{near[0]}'? (built-in rulesets are: {known})"])
    raise RulesetError([f"{limits.excerpt(ref, 80)}: no such ruleset{where}; built-in "
                        f"rulesets are: {known}"])


def _nearby(missing: Path) -> str:
    """`; did you mean 'my-table.yaml'?` when a YAML file beside the missing one is close."""
    try:
        names = [p.name for p in missing.parent.iterdir()
                 if p.suffix in (".yaml", ".yml")][:1000]
    except OSError:
        return ""
    import difflib
    near = difflib.get_close_matches(missing.name, names, n=1)
    return f"; did you mean '{missing.parent / near[0]}'?" if near else ""


def display_name(path: Path) -> str:
    """Built-ins are shown as rulesets/NAME.yaml; user files as given."""
    try:
        path.resolve().relative_to(resources.rulesets_dir().resolve())
        return f"rulesets/{path.name}"
    except ValueError:
        return str(path)


ALLOW_OUTSIDE_ENV = "RULEKIT_ALLOW_EXTENDS_OUTSIDE"


def read_text(path: Path, name: str, digests: list[bytes] | None = None) -> str:
    """A ruleset file's text: at most `limits.RULESET_BYTES`, UTF-8, or one clean error.
    The sha256 of the bytes read is appended to `digests` if given (`model.load` trusts the
    built-ins' recorded bytes)."""
    try:
        with open(path, "rb") as fh:
            return read_stream(fh, name, digests)
    except OSError as err:
        raise RulesetError([f"{name}:1: cannot read: {err.strerror}"]) from None


def read_stream(fh: IO[bytes], name: str, digests: list[bytes] | None = None) -> str:
    """`read_text` of an open binary stream (stdin): at most RULESET_BYTES + 1 bytes are read,
    whatever the stream holds."""
    raw = fh.read(limits.RULESET_BYTES + 1)
    if len(raw) > limits.RULESET_BYTES:
        raise RulesetError([f"{name}:1: file too large (over {limits.RULESET_BYTES} bytes)"])
    if digests is not None:
        digests.append(hashlib.sha256(raw).digest())
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as err:
        line = raw.count(b"\n", 0, err.start) + 1
        raise RulesetError([f"{name}:{line}: not UTF-8 text (byte 0x{raw[err.start]:02x} at "
                            f"offset {err.start})"]) from None


def read_layer(path: Path, text: str | None = None, shown: str | None = None,
               digests: list[bytes] | None = None
               ) -> tuple[dict[str, Any], dict[Path_, Origin]]:
    name = shown or display_name(path)
    if text is None:
        text = read_text(path, name, digests)
        if digests is not None and shown is None:
            known = prebuilt.layer(path, digests[-1], name)    # a built-in's recorded bytes
            if known is not None:
                return known
    elif digests is not None:
        digests.append(b"")         # text given, not read here: its bytes are not known
    data, origins = yamlmarks.load(text, name)
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise RulesetError([f"{name}:1: a ruleset is a mapping of keys, "
                            f"not a {type(data).__name__}"])
    return data, origins


def allow_outside_default(allow_outside: bool | None) -> bool:
    """The permission in force: the argument if given, else the environment variable."""
    if allow_outside is not None:
        return allow_outside
    return os.environ.get(ALLOW_OUTSIDE_ENV, "") not in ("", "0")


def _parent(ref: str, current: Path, allow_outside: bool) -> Path:
    """The file `extends: ref` in `current` names: a built-in, or a path in current's tree."""
    target = locate(ref, current)
    builtins = resources.rulesets_dir().resolve()
    resolved = target.resolve()
    if resolved.parent == builtins and not ("/" in ref or "\\" in ref):
        return target
    if not allow_outside and not resolved.is_relative_to(current.resolve().parent):
        raise RulesetError([f"{limits.excerpt(ref, 80)}: leaves the directory of "
                            f"{display_name(current)}; allow it with --allow-extends-outside "
                            f"(or {ALLOW_OUTSIDE_ENV}=1)"])
    return target


def _parent_layer(path: Path, ref: str, digests: list[bytes] | None = None
                  ) -> tuple[dict[str, Any], dict[Path_, Origin]]:
    """An `extends` target's layer; if it is not a ruleset, one error that quotes none of it
    (the target may be any file the including one names, /etc/passwd as well)."""
    try:
        data, origins = read_layer(path, digests=digests)
    except RulesetError:
        raise RulesetError([f"{limits.excerpt(ref, 80)}: not a ruleset (unreadable, not "
                            f"UTF-8 YAML, or refused)"]) from None
    allowed = schema_keys()
    if data and not set(data) <= allowed:
        raise RulesetError([f"{limits.excerpt(ref, 80)}: not a ruleset (its top level has "
                            f"keys a ruleset does not have)"])
    return data, origins


def schema_keys() -> set[str]:
    from rulekit.ruleset.schema import schema
    return set(schema().get("properties", {}))


def resolve(path: Path, text: str | None = None, shown: str | None = None,
            allow_outside: bool | None = None, digests: list[bytes] | None = None
            ) -> tuple[dict[str, Any], dict[Path_, Origin], list[Path]]:
    """The fully merged ruleset data for `path`, its key origins, and the chain of files.

    `text` and `shown`, when given, stand in for the first file's content and name (a file as
    it was at a git revision); its `extends` still resolves from `path`, on disk.
    `allow_outside` lets `extends` leave the including file's directory (default: the
    RULEKIT_ALLOW_EXTENDS_OUTSIDE environment variable). `digests`, if given, receives the
    sha256 of each file of the chain as read, in chain order (b"" for `text`).
    """
    outside = allow_outside_default(allow_outside)
    chain: list[Path] = []
    layers: list[tuple[dict[str, Any], dict[Path_, Origin]]] = []
    current: Path | None = path
    ref = ""
    while current is not None:
        resolved = current.resolve()
        if resolved in [p.resolve() for p in chain]:
            names = " -> ".join(display_name(p) for p in [*chain, current])
            raise RulesetError([f"{display_name(chain[-1])}:1: extends: cycle: {names}"])
        if len(chain) >= limits.EXTENDS_DEPTH:
            raise RulesetError([f"{display_name(chain[-1])}:1: extends: chain longer than "
                                f"{limits.EXTENDS_DEPTH} files"])
        chain.append(current)
        if len(chain) == 1:
            data, origins = read_layer(current, text, shown, digests)
        else:
            try:
                data, origins = _parent_layer(current, ref, digests)
            except RulesetError as err:
                raise _at_extends(layers[-1][1], chain[-2], err) from None
        layers.append((data, origins))
        parent = data.get("extends")
        if parent is None:
            current = None
        elif not isinstance(parent, str):
            origin = origins.get(("extends",), (display_name(current), 1, 1))
            raise RulesetError([f"{origin[0]}:{origin[1]}: extends: must be a ruleset name "
                                f"or a path"])
        else:
            ref = parent
            try:
                current = _parent(parent, current, outside)
            except RulesetError as err:
                raise _at_extends(origins, current, err) from None
    merged: dict[str, Any] = {}
    merged_origins: dict[Path_, Origin] = {}
    for data, origins in reversed(layers):
        merged = merge(merged, data)
        for key_path, origin in origins.items():
            merged_origins[key_path] = origin
    merged.pop("extends", None)
    return merged, merged_origins, chain


def _at_extends(origins: dict[Path_, Origin], including: Path, err: RulesetError
                ) -> RulesetError:
    origin = origins.get(("extends",), (display_name(including), 1, 1))
    return RulesetError([f"{origin[0]}:{origin[1]}: extends: {err.problems[0]}"])


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
