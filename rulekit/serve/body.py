"""Reading a request body within its limits: its size while it streams, then `rulekit.jsonio`.

The size is the server's own bound (HTTP: a lying or absent Content-Length does not help), so
it is enforced here as the body arrives; everything about the JSON itself (nesting, long
integers, NaN, non-finite numbers, UTF-8, lone surrogates) is the library's one reader.
"""
from __future__ import annotations

from typing import Any

from starlette.requests import ClientDisconnect, Request

from rulekit import jsonio, limits
from rulekit.serve.errors import ApiError
from rulekit.serve.guard import BodyTimeout


async def read(request: Request, limit: int) -> bytes:
    """The whole body, or 413 as soon as it passes `limit` bytes. (ASGI messages read
    directly: Starlette's `Request.stream` and `Request.headers` cost more per request than
    the scoring of a hand does.)"""
    for key, value in request.scope["headers"]:
        if key == b"content-length":
            if value.isdigit() and int(value) > limit:
                raise ApiError(413, "body", f"the request body is larger than {limit} bytes")
            break
    chunks: list[bytes] = []
    size = 0
    try:
        while True:
            message = await request.receive()
            if message["type"] == "http.disconnect":
                raise ClientDisconnect()
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                raise ApiError(413, "body", f"the request body is larger than {limit} bytes")
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
    except BodyTimeout as exc:       # a half-sent body: 408, and the connection is closed
        raise ApiError(408, "body", str(exc)) from None
    except ClientDisconnect:         # nobody is left to answer: no traceback, no log line
        raise ApiError(400, "body", "the client went away before sending its body") from None
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)


def parse(data: bytes, max_bytes: int, where: str = "body", batch: bool = False) -> Any:
    """One JSON value read by `jsonio.read_document`: 413 past a size or nesting bound, else 400
    naming the line and column of a syntax error. A batch array may nest one level more."""
    depth = limits.JSON_DEPTH + (1 if batch else 0)
    try:
        return jsonio.read_document(data, max_bytes=max_bytes, max_depth=depth)
    except jsonio.JsonError as err:
        at = f" at line {err.line} column {err.column}" if err.line else ""
        raise ApiError(413 if err.too_big else 400, where, err.message + at) from None


def documents(data: bytes, max_bytes: int, max_count: int) -> tuple[list[Any], bool]:
    """A batch body: a JSON array, or JSON lines (a line that is not JSON comes back as its
    `ApiError`, in place). Returns the documents and whether the body was JSONL."""
    stripped = data.lstrip()
    if stripped.startswith(b"["):
        docs = parse(stripped, max_bytes, batch=True)
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
            out.append(parse(ln, max_bytes, f"line {i}"))
        except ApiError as err:         # one bad line is that line's result, not the batch's
            out.append(err)
    return out, True
