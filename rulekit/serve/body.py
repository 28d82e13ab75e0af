"""Reading a request body within its limits: size first, then JSON nesting, then parsing.

The size is enforced while the body streams in (a lying or absent Content-Length does not
help), and nesting is measured by a linear scan before `json.loads` could recurse.
"""
from __future__ import annotations

import json
import math
import re
from typing import Any

from starlette.requests import Request

from rulekit.limits import INT_DIGITS
from rulekit.serve.errors import ApiError

_TOKENS = re.compile(rb'"(?:[^"\\]|\\.)*"|[\[\]{}]')


async def read(request: Request, limit: int) -> bytes:
    """The whole body, or 413 as soon as it passes `limit` bytes."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise ApiError(413, "body", f"the request body is larger than {limit} bytes")
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise ApiError(413, "body", f"the request body is larger than {limit} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


def depth(data: bytes, stop: int = 1 << 30) -> int:
    """The deepest nesting of arrays and objects in a JSON text (strings skipped); the scan
    ends as soon as it passes `stop`."""
    level = deepest = 0
    for m in _TOKENS.finditer(data):
        c = m.group()
        if c in (b"[", b"{"):
            level += 1
            if level > deepest:
                deepest = level
                if deepest > stop:
                    break
        elif c in (b"]", b"}"):
            level -= 1
    return deepest


def parse(data: bytes, max_depth: int, where: str = "body") -> Any:
    """One JSON value; 400 naming the line and column when it is not JSON, 413 if too deep."""
    if depth(data, max_depth) > max_depth:
        raise ApiError(413, where, f"JSON nested deeper than {max_depth} levels")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise ApiError(400, where, "the body is not UTF-8 text") from None
    try:
        return json.loads(text, parse_int=_int, parse_float=_float, parse_constant=_constant)
    except json.JSONDecodeError as err:
        raise ApiError(400, where, f"invalid JSON at line {err.lineno} column {err.colno}: "
                                   f"{err.msg}") from None
    except ValueError as err:           # from the number hooks below
        raise ApiError(400, where, str(err)) from None
    except RecursionError:
        raise ApiError(413, where, "JSON nested too deeply") from None


def _int(text: str) -> int:
    if len(text.lstrip("-")) > INT_DIGITS:
        raise ValueError(f"a number in the JSON is longer than {INT_DIGITS} digits")
    return int(text)


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text[:20]} is too large a number")
    return value


def _constant(text: str) -> Any:
    raise ValueError(f"{text} is not a number JSON allows")


def documents(data: bytes, max_depth: int, max_count: int) -> tuple[list[Any], bool]:
    """A batch body: a JSON array, or JSON lines (a line that is not JSON comes back as its
    `ApiError`, in place). Returns the documents and whether the body was JSONL."""
    stripped = data.lstrip()
    if stripped.startswith(b"["):
        docs = parse(stripped, max_depth + 1)
        if not isinstance(docs, list):      # pragma: no cover - '[' always parses to a list
            raise ApiError(400, "body", "expected a JSON array")
        if len(docs) > max_count:
            raise ApiError(413, "body", f"{len(docs)} documents; a batch holds at most "
                                        f"{max_count}")
        return docs, False
    lines = [ln for ln in data.splitlines() if ln.strip()]
    if len(lines) > max_count:
        raise ApiError(413, "body", f"{len(lines)} documents; a batch holds at most {max_count}")
    out: list[Any] = []
    for i, ln in enumerate(lines, 1):
        try:
            out.append(parse(ln, max_depth, f"line {i}"))
        except ApiError as err:         # one bad line is that line's result, not the batch's
            out.append(err)
    return out, True
