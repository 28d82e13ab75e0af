"""JSON at the boundary: read hostile documents within bounds, write strict JSON.

Every document the CLI (or a server) reads goes through `read_document`, so that whatever the
bytes are (not UTF-8, 100,000 brackets deep, a 5,000-digit integer, a lone surrogate, NaN),
the answer is a `JsonError` naming the problem, never an exception from `json` or a crash.
`iter_lines` applies it per line of a JSON-lines stream, so one bad line costs only itself.
"""
from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Iterator
from typing import IO, Any, Final

from rulekit.errors import RulekitError
from rulekit.limits import DOC_BYTES, INT_DIGITS, JSON_DEPTH, excerpt


class JsonError(RulekitError):
    """A document that is not UTF-8, not JSON, or beyond the bounds in `rulekit.limits`.

    `line` and `column` locate a syntax error (1-based) when there is one, else they are 0;
    `too_big` says the document passed a size or nesting bound (a server answers 413).
    """

    def __init__(self, message: str, line: int = 0, column: int = 0,
                 too_big: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column
        self.too_big = too_big

    def located(self, name: str) -> str:
        """The message prefixed with `name` and, for a syntax error, `:line:column`."""
        where = f"{name}:{self.line}:{self.column}" if self.line else name
        return f"{where}: {self.message}"


class _Refused(ValueError):
    """Raised from inside `json.loads` hooks; turned into a JsonError with a position."""


_BRACKET_OR_STRING = re.compile(r'"(?:[^"\\]|\\.)*"?|[\[{]|[\]}]')
_SURROGATE = re.compile("[\ud800-\udfff]")


def _int(text: str) -> int:
    # before int(): Python refuses over 4,300 digits with a ValueError, and big ones are slow
    if len(text.lstrip("-")) > INT_DIGITS:
        raise _Refused(f"an integer of more than {INT_DIGITS} digits")
    return int(text)


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _Refused(f"a number out of range ({excerpt(text, 40)})")
    return value


def _constant(text: str) -> Any:
    raise _Refused(f"{text} is not a JSON number")


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    # one loader, one meaning: `json` keeps the last of two equal keys, where another reader
    # (a proxy, a log checker) may keep the first, so a document with both is refused
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _Refused(f"duplicate key {excerpt(key, 40)!r}")
            seen.add(key)
    return obj


_DECODER: Final = json.JSONDecoder(parse_int=_int, parse_float=_float,
                                   parse_constant=_constant, object_pairs_hook=_object)
"""Built once: `json.loads` with hooks builds a decoder per call. A decoder keeps no state
between `decode` calls, so threads may share it."""
# the decoder's own scanner (typeshed does not declare the attribute)
_SCAN: Final[Callable[[str, int], tuple[Any, int]]] = getattr(_DECODER, "scan_once")
_PLAIN_START: Final = frozenset('{["-0123456789tfnIN')


def _decode(text: str) -> Any:
    """`json.loads(text)` with the hooks: the scanner alone when the text is one value
    from its first character to its last (a document line), else the full decoder, whose
    errors name what is wrong (leading or trailing space, extra data, a BOM)."""
    if text[:1] not in _PLAIN_START:
        return json.loads(text, parse_int=_int, parse_float=_float, parse_constant=_constant,
                          object_pairs_hook=_object)
    try:
        value, end = _SCAN(text, 0)
    except StopIteration:
        end = -1
    return value if end == len(text) else _DECODER.decode(text)


def _check_depth(text: str, max_depth: int = JSON_DEPTH) -> None:
    """Refuse nesting deeper than `max_depth` before `json` recurses into it."""
    if text.count("[") + text.count("{") <= max_depth:
        return
    depth = 0
    for m in _BRACKET_OR_STRING.finditer(text):
        tok = m.group()
        if tok in "[{":
            depth += 1
            if depth > max_depth:
                raise JsonError(f"invalid JSON: nested deeper than {max_depth} levels "
                                f"at character {m.start() + 1}", too_big=True)
        elif tok in "]}":
            depth -= 1


def _check_strings(value: Any, depth: int = 0) -> None:
    """Refuse lone surrogates (`"\\ud800"`): no valid UTF-8 could carry them back out."""
    if isinstance(value, str):
        if _SURROGATE.search(value):
            raise JsonError("invalid JSON: a string holds a lone surrogate escape "
                            "(\\ud800-\\udfff not in a pair), which is not a character")
    elif isinstance(value, list):
        for v in value:
            _check_strings(v, depth + 1)
    elif isinstance(value, dict):
        for k, v in value.items():
            _check_strings(k, depth + 1)
            _check_strings(v, depth + 1)


def decode(data: bytes) -> str:
    """UTF-8 text of `data` (a leading BOM dropped); a JsonError names the first bad byte."""
    try:
        # the utf-8-sig codec runs Python code per call; plain utf-8 gives the same text and
        # the same error offsets when there is no BOM
        return data.decode("utf-8-sig" if data[:3] == b"\xef\xbb\xbf" else "utf-8")
    except UnicodeDecodeError as err:
        raise JsonError(f"not UTF-8: byte 0x{data[err.start]:02x} at offset {err.start}"
                        ) from None


def read_document(data: bytes | str, max_bytes: int = DOC_BYTES,
                  max_depth: int = JSON_DEPTH) -> Any:
    """Parse one JSON document within the bounds of `rulekit.limits`; JsonError otherwise.

    A server passes its own `max_bytes` (a request may carry a whole ruleset) and one more
    level of `max_depth` for a batch (an array of documents)."""
    size = len(data)
    if size > max_bytes:
        raise JsonError(f"document too large: over {max_bytes} bytes", too_big=True)
    from_bytes = isinstance(data, bytes)
    text = decode(data) if isinstance(data, bytes) else data
    _check_depth(text, max_depth)
    try:
        value = _decode(text)
    except json.JSONDecodeError as err:
        raise JsonError(f"invalid JSON: {err.msg}", err.lineno, err.colno) from None
    except _Refused as err:
        raise JsonError(f"invalid JSON: {excerpt(str(err))}") from None
    except RecursionError:
        raise JsonError("invalid JSON: nested too deeply", too_big=True) from None
    # a surrogate comes from an escape, or from text given as str: strict UTF-8 decoding
    # never yields one
    if "\\u" in text or (not from_bytes and _SURROGATE.search(text)):
        _check_strings(value)
    return value


def read_bounded(fh: IO[bytes]) -> bytes:
    """All of `fh`, but at most DOC_BYTES + 1 bytes: enough to tell a document is too large."""
    return fh.read(DOC_BYTES + 1)


def iter_lines(fh: IO[bytes]) -> Iterator[tuple[int, Any, str | None]]:
    """(line number, document or None, error or None) for each non-blank line of `fh`.

    Lines are read as bytes, at most DOC_BYTES + 1 at a time, so a line that is too long,
    not UTF-8 or not JSON is one error and the next line is read as usual.
    """
    for n, raw, err in raw_lines(fh):
        if raw is None:
            yield n, None, err
        else:
            yield (n, *line_document(n, raw))


def raw_lines(fh: IO[bytes]) -> Iterator[tuple[int, bytes | None, str | None]]:
    """(line number, the line's bytes or None, error or None) for each non-blank line: the
    reading half of `iter_lines`, so that another process can decode the lines."""
    n = 0
    while True:
        raw = fh.readline(DOC_BYTES + 1)
        if not raw:
            return
        n += 1
        if len(raw) > DOC_BYTES and not raw.endswith(b"\n"):
            while raw and not raw.endswith(b"\n"):      # skip the rest of the long line
                raw = fh.readline(DOC_BYTES + 1)
            yield n, None, f"line {n}: document too large: over {DOC_BYTES} bytes"
            continue
        if not raw.strip():
            continue
        yield n, raw, None


def line_document(n: int, raw: bytes) -> tuple[Any, str | None]:
    """(document, None) for line `n` of a JSON-lines input, or (None, its error)."""
    try:
        return read_document(raw.rstrip(b"\r\n")), None
    except JsonError as err:
        at = f" at column {err.column}" if err.line == 1 else ""
        return None, f"line {n}: {err}{at}"


_STRICT: Final = json.JSONEncoder(ensure_ascii=False, allow_nan=False)
_STRICT_ASCII: Final = json.JSONEncoder(ensure_ascii=True, allow_nan=False)
"""Built once: `json.dumps` with options builds an encoder per call (a batch writes one per
line). An encoder keeps no state between `encode` calls, so threads may share these."""


def dumps(value: Any) -> str:
    """Strict JSON text (no NaN or Infinity), valid UTF-8 whatever strings `value` holds."""
    return _strict(value, _STRICT, _STRICT_ASCII)


def _strict(value: Any, plain: json.JSONEncoder, ascii_only: json.JSONEncoder) -> str:
    """`value` by `plain`, refusing NaN and Infinity; by `ascii_only` when a lone surrogate
    would make the text invalid UTF-8 (the escapes keep it valid)."""
    try:
        text: str = plain.encode(value)
    except ValueError:
        raise JsonError("the result holds a number that is not finite (NaN or Infinity), "
                        "which JSON cannot carry") from None
    if _SURROGATE.search(text):
        text = ascii_only.encode(value)
    return text


_COMPACT: Final = json.JSONEncoder(ensure_ascii=False, allow_nan=False, separators=(",", ":"))
_COMPACT_ASCII: Final = json.JSONEncoder(ensure_ascii=True, allow_nan=False,
                                         separators=(",", ":"))


def _orjson() -> Callable[[Any], bytes] | None:
    try:
        import orjson
    except ImportError:          # pragma: no cover - the serve extra installs it
        return None
    return orjson.dumps


_FAST: Final = _orjson()
"""orjson's encoder when it is installed (`rulekit[serve]`): 0.7 µs for a score result where
the standard library's C encoder takes 16-23 µs (the largest part of a server's own cost
per request after the framework's). It writes NaN and Infinity as `null` rather than refusing
them, so its text is used only when it holds no `null` (a score result never does)."""


def encode(value: Any) -> bytes:
    """Strict, compact JSON as UTF-8 bytes, for an answer on the wire: the same values as
    `dumps` (no NaN or Infinity: `JsonError`; valid UTF-8 whatever strings `value` holds),
    without the spaces. Fast by orjson where it is strict, else the standard library."""
    if _FAST is not None:
        try:
            data = _FAST(value)
        except TypeError:        # orjson.JSONEncodeError: a lone surrogate, an int > 64 bits
            pass
        else:
            if b"null" not in data:          # a NaN or Infinity would have written null
                return data
    return _strict(value, _COMPACT, _COMPACT_ASCII).encode()
