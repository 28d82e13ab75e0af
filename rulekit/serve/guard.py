"""What the HTTP layer refuses before a request reaches an endpoint.

- `Host` must be a name this server was told it has (421 otherwise): a page on another site
  whose name is made to resolve to 127.0.0.1 (DNS rebinding) sends its own name as Host.
- A state-changing request (POST and the rest) carrying an `Origin` must come from the
  server's own origin, scheme, host and port alike (403 otherwise): a page elsewhere can POST
  `text/plain` to a local server without asking first, but its browser always names the
  page's origin. `https://127.0.0.1:PORT` is not this http server's origin. Clients that
  are not browsers send no Origin and are not affected.
- A request body must arrive within `body_seconds` (408, and the connection is closed).
- A WebSocket handshake is held to the Host and Origin checks as a POST is (refused 403).
- Every answer carries `SECURITY_HEADERS` (nosniff, the Content-Security-Policy).

All of it is one plain-ASGI layer (cheap: a few header comparisons per request). The
protocol-level guards (headers' deadline, connection cap) are `protocol.py`'s.
"""
from __future__ import annotations

import asyncio
from typing import Iterable
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from rulekit import jsonio
from rulekit.serve.errors import ApiError
from rulekit.serve.limits import ServeConfig

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
_WEB_SCHEME = {"http": "http", "https": "https", "ws": "http", "wss": "https"}
_DEFAULT_PORT = {"http": 80, "https": 443}


def host_name(value: str) -> str:
    """The name part of a Host header or an origin's netloc, lower case, port dropped
    (`[::1]:8000` → `::1`, `localhost:8000` → `localhost`)."""
    value = value.strip().lower()
    if value.startswith("["):
        return value[1:value.find("]")] if "]" in value else value
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


Origin_ = tuple[str, str, int]
"""An origin as a browser compares it: scheme, host (lower case), port (the default filled in)."""


def origin_of(scheme: str, netloc: str) -> Origin_ | None:
    """`(scheme, host, port)` of a scheme and a `host[:port]`, or None for what is not a web
    origin (another scheme, an empty host, a port that is no number)."""
    web = _WEB_SCHEME.get(scheme.lower())
    if web is None:
        return None
    try:
        parts = urlsplit(f"{web}://{netloc.strip()}")
        port, host = parts.port, parts.hostname
    except ValueError:
        return None
    if not host:
        return None
    return web, host, port if port is not None else _DEFAULT_PORT[web]


def own_origin(scope: Scope, host: str) -> Origin_ | None:
    """This request's own origin: the scheme it came by (a WebSocket's ws/wss as http/https)
    and its Host header."""
    return origin_of(str(scope.get("scheme") or "http"), host)


def _header(scope: Scope, name: bytes) -> str | None:
    for k, v in scope.get("headers", ()):
        if k == name:
            return str(v.decode("latin-1"))
    return None


def refusal(scope: Scope, allowed: Iterable[str]) -> ApiError | None:
    """Why this request may not be served (Host, then Origin), or None. A WebSocket
    handshake is checked as a state-changing request: a page elsewhere may open one to any
    server (browsers send its Origin, and no preflight)."""
    allowed = set(allowed)
    host = _header(scope, b"host")
    if host is not None and "*" not in allowed and host_name(host) not in allowed:
        return ApiError(421, "host", "this server does not answer to that name (rulekit "
                                     "serve --allow-host NAME adds one)")
    if scope["type"] == "http" and scope.get("method", "GET") in SAFE_METHODS:
        return None
    origin = _header(scope, b"origin")
    if origin is not None:
        parts = urlsplit(origin.strip()) if origin != "null" else None
        theirs = origin_of(parts.scheme, parts.netloc) if parts is not None else None
        if theirs is None or host is None or theirs != own_origin(scope, host):
            return ApiError(403, "origin", "requests from pages on other sites are refused")
    if _header(scope, b"sec-fetch-site") == "cross-site":
        return ApiError(403, "origin", "requests from pages on other sites are refused")
    return None


async def send_error(send: Send, err: ApiError, close: bool = False) -> None:
    headers = [(b"content-type", b"application/json"), *SECURITY_HEADERS]
    if close:
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": err.status, "headers": headers})
    await send({"type": "http.response.body", "body": jsonio.encode(err.body())})


class BodyTimeout(Exception):
    """The request body did not arrive in time (answered 408 by `Guard`)."""


SECURITY_HEADERS = [(b"x-content-type-options", b"nosniff"),
                    (b"content-security-policy",
                     b"default-src 'self'; style-src 'self' 'unsafe-inline'; "
                     b"img-src 'self' data:; frame-ancestors 'none'")]
"""On every answer: no page of ours loads anything from elsewhere or may be framed."""


class Guard:
    """Host and Origin checks, the body's deadline and the security headers, around the
    whole application: one plain-ASGI layer, so a request pays for one wrapper, not three."""

    def __init__(self, app: ASGIApp, config: ServeConfig) -> None:
        self.app = app
        self.allowed = frozenset(h.lower() for h in config.allowed_hosts)
        self.body_seconds = config.limits.body_seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            if refusal(scope, self.allowed) is not None:
                await send({"type": "websocket.close", "code": 1008})    # a 403 handshake
                return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        err = refusal(scope, self.allowed)
        if err is not None:
            await send_error(send, err)
            return
        deadline = asyncio.get_running_loop().time() + self.body_seconds
        whole = False            # the body has arrived: later receives wait for a disconnect
        started = False

        async def timed_receive() -> Message:
            nonlocal whole
            if whole:
                return await receive()
            try:         # asyncio.timeout_at: no task per receive, as wait_for makes
                async with asyncio.timeout_at(deadline):
                    message = await receive()
            except TimeoutError:
                raise BodyTimeout(f"the request body did not arrive within "
                                  f"{self.body_seconds:g} s") from None
            whole = not message.get("more_body", False)
            return message

        async def noted_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                message = {**message, "headers": [*message.get("headers", ()),
                                                  *SECURITY_HEADERS]}
            await send(message)
        try:
            await self.app(scope, timed_receive, noted_send)
        except BodyTimeout as exc:       # a reader other than body.read (which answers 408)
            if not started:
                await send_error(send, ApiError(408, "body", str(exc)), close=True)
