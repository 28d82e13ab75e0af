"""uvicorn's h11 protocol with the deadlines a server on a shared network needs.

uvicorn closes an idle keep-alive connection (`timeout_keep_alive`), but a connection that
sends half a request and stops, or trickles a byte at a time, waits forever: 1,100 of them
held every file descriptor and no one else was served. Here the request's headers must
arrive within `header_seconds` of its first byte (or of the connection; a quarter of that
when more than half the connections allowed are open), and a connection past `connections`
closes the one that has waited longest for its headers. (The body's deadline is the ASGI
layer's: `guard.py`.)

The server's log is quiet under attack: no tracebacks, at most a few lines a second
(`QuietLog`).
"""
from __future__ import annotations

import asyncio
import logging
import resource
import time
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from rulekit.serve.limits import ServeLimits

_LIMITS: list[ServeLimits] = [ServeLimits()]      # what `Guarded` holds connections to


def guarded_protocol(lim: ServeLimits) -> type[asyncio.Protocol]:
    """`Guarded`, held to these limits (uvicorn makes one per connection; with
    `--workers N` each server process names it as "rulekit.serve.protocol:Guarded" and sets
    its limits when it makes its application)."""
    _LIMITS[0] = lim
    return Guarded


class Guarded(H11Protocol):
    """uvicorn's h11 protocol with a deadline for headers and a cap on connections."""

    _timer: asyncio.TimerHandle | None = None
    _since = 0.0

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.connections) > _LIMITS[0].connections and not self._evict():
            transport.close()              # full of requests in progress
            return
        self._arm()

    def _evict(self) -> bool:
        """Full: close the connection that has waited longest for its headers (a
        slow-loris holds many such; a working client holds none for long)."""
        waiting = [c for c in self.connections
                   if c is not self and isinstance(c, Guarded) and c._timer is not None]
        if not waiting:
            return False
        oldest = min(waiting, key=lambda c: c._since)
        oldest._disarm()
        oldest.transport.close()
        return True

    def _arm(self) -> None:
        if self._timer is None:
            crowded = len(self.connections) > _LIMITS[0].connections // 2
            seconds = _LIMITS[0].header_seconds / 4 if crowded else _LIMITS[0].header_seconds
            self._since = self.loop.time()
            self._timer = self.loop.call_later(seconds, self._late)

    def _disarm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _late(self) -> None:
        self._timer = None
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self.transport.close()

    def data_received(self, data: bytes) -> None:
        if self.conn.their_state is h11.IDLE:
            self._arm()
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE:
            self._disarm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)


def raise_open_files(want: int) -> int:
    """Raise this process's open-file limit towards `want` (within the hard limit): each
    connection holds one. Returns the limit now in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = want if hard == resource.RLIM_INFINITY else min(want, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):      # pragma: no cover - a container's policy
            pass
    return int(soft)


class QuietLog(logging.Filter):
    """At most `per_window` records per `window` seconds, each without its traceback; a count
    of those dropped is added to the next one let through."""

    def __init__(self, per_window: int = 5, window: float = 10.0) -> None:
        super().__init__()
        self.per_window = per_window
        self.window = window
        self.start = 0.0
        self.shown = 0
        self.dropped = 0

    def filter(self, record: logging.LogRecord) -> bool:
        now = time.monotonic()
        if now - self.start > self.window:
            self.start, self.shown = now, 0
        record.exc_info = None
        record.exc_text = None
        record.stack_info = None
        if self.shown >= self.per_window:
            self.dropped += 1
            return False
        self.shown += 1
        if self.dropped:
            record.msg = f"{record.getMessage()} ({self.dropped} similar lines not shown)"
            record.args = None
            self.dropped = 0
        return True


def quiet_logs(*names: str) -> None:
    for name in names:
        logging.getLogger(name).addFilter(QuietLog())


def uvicorn_options(lim: ServeLimits) -> dict[str, Any]:
    """uvicorn.run's keyword arguments for these limits."""
    # (no `limit_concurrency`: uvicorn counts connections against it, so half-sent requests
    # would earn everyone a 503; a connection runs one request at a time, and connections
    # are capped above)
    return {"http": guarded_protocol(lim), "timeout_keep_alive": lim.keep_alive,
            "h11_max_incomplete_event_size": 16 * 1024,
            "backlog": 256}
