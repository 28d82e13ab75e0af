"""The overlay pool: a few worker processes that compile and score untrusted overlays.

An inline `ruleset_yaml` is the one thing a request sends that runs the library's compiler
and the DSL on text the server has not seen: its cost is known only when it runs. In a thread
it would hold the GIL (every other client waits) and could not be stopped. Here it runs in a
worker process (`worker.py`); the server waits for its reply until the request's deadline,
then kills the process (SIGKILL) and starts another, and answers 503. A worker whose memory
passes `--worker-memory` is replaced after its job, so what overlays leave behind is bounded
in bytes, not only in entries.

Jobs and replies cross the pipe as JSON bytes: nothing a client wrote is ever unpickled.
Calls block (`run` is called from a thread); every wait is bounded by the job's deadline.
"""
from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import threading
import time
from dataclasses import dataclass
from typing import Any

from rulekit.serve import worker
from rulekit.serve.errors import ApiError
from rulekit.serve.limits import ServeConfig


def _context() -> Any:
    """forkserver where it exists (a new worker forks from a process that has imported
    rulekit already: milliseconds), else spawn; never fork (the server has threads)."""
    methods = multiprocessing.get_all_start_methods()
    if "forkserver" in methods:
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(["rulekit.serve.worker"])
        return ctx
    return multiprocessing.get_context("spawn")           # pragma: no cover - not Linux


def rss_bytes(pid: int) -> int:
    """Resident memory of a process (Linux /proc; 0 where it cannot be read)."""
    try:
        with open(f"/proc/{pid}/statm", "rb") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


@dataclass
class _Worker:
    index: int
    proc: Any
    conn: Any
    jobs: int = 0
    cached: int = 0


STARTUP_SECONDS = 60.0
"""How long a new worker may take to be ready (importing rulekit on a loaded machine)."""


class Timeout(Exception):
    """A job passed its deadline (its worker has been killed)."""


class OverlayPool:
    """`size` worker processes, started on first use, each job bounded by its deadline."""

    def __init__(self, config: ServeConfig) -> None:
        lim = config.limits
        self.size = lim.processes
        self.seconds = lim.seconds
        self.memory = lim.worker_memory
        self.plain = worker.settings(config)
        self._ctx: Any = None
        self._lock = threading.Condition()
        self._idle: list[_Worker] = []
        self._all: dict[int, _Worker] = {}
        self._closed = False
        self.killed = 0              # workers killed at a deadline (for /healthz and tests)
        self.recycled = 0            # workers replaced for their memory

    # -- the workers ------------------------------------------------------------------
    def _start(self, index: int) -> _Worker:
        if self._ctx is None:
            self._ctx = _context()
        ours, theirs = self._ctx.Pipe(duplex=True)
        proc = self._ctx.Process(target=worker.main, args=(theirs, self.plain), daemon=True,
                                 name=f"rulekit-overlay-{index}")
        proc.start()
        theirs.close()
        # ready when its registry is built: a start is not charged to any request's time
        if not ours.poll(STARTUP_SECONDS) or json.loads(ours.recv_bytes()) != {"ready": True}:
            proc.kill()                                     # pragma: no cover - broken install
            raise RuntimeError("an overlay worker did not start")
        return _Worker(index, proc, ours)

    def _ensure(self) -> None:
        """Start the workers the first time a job needs one (under the lock)."""
        while len(self._all) < self.size and not self._closed:
            index = next(i for i in range(self.size) if i not in self._all)
            w = self._start(index)
            self._all[index] = w
            self._idle.append(w)

    def _stop(self, w: _Worker, kill: bool) -> None:
        """End a worker: SIGKILL when it may be busy, else close its pipe (it exits)."""
        if kill:
            w.proc.kill()
        w.conn.close()
        w.proc.join(2.0)
        if w.proc.is_alive():                    # pragma: no cover - a stuck exit
            w.proc.kill()
            w.proc.join(2.0)

    def _take(self, deadline: float, prefer: int) -> tuple[_Worker, float]:
        """An idle worker (`prefer` if it is idle: it has likely compiled this overlay), or
        503 when none frees up before the deadline; and the seconds spent starting workers
        (not charged to the job)."""
        with self._lock:
            t0 = time.monotonic()
            self._ensure()
            started = time.monotonic() - t0
            deadline += started
            while not self._idle:
                left = deadline - time.monotonic()
                if left <= 0 or self._closed:
                    raise Timeout()
                self._lock.wait(left)
            for w in self._idle:
                if w.index == prefer:
                    self._idle.remove(w)
                    return w, started
            return self._idle.pop(), started

    def _give_back(self, w: _Worker, healthy: bool) -> None:
        if healthy and self.memory and rss_bytes(w.proc.pid) > self.memory:
            self.recycled += 1
            healthy = False
        if not healthy:
            self._stop(w, kill=True)
        with self._lock:
            if healthy and not self._closed:
                self._idle.append(w)
            else:
                self._all.pop(w.index, None)
                if not self._closed:
                    self._ensure()
            self._lock.notify()

    # -- jobs -------------------------------------------------------------------------
    def run(self, job: dict[str, Any], deadline: float, key: str = "") -> Any:
        """The job's value, or its `ApiError`; 503 at the deadline (the worker is killed)."""
        prefer = int(hashlib.sha256(key.encode("utf-8")).hexdigest()[:8], 16) % self.size
        try:
            w, started = self._take(deadline, prefer)
            deadline += started
        except Timeout:
            raise _late(self.seconds) from None
        healthy = False
        try:
            left = deadline - time.monotonic()
            if left <= 0.01:            # no time left to start: the worker stays as it is
                healthy = True
                raise _late(self.seconds)
            w.conn.send_bytes(json.dumps({**job, "seconds": left}).encode("utf-8"))
            if not w.conn.poll(left):
                self.killed += 1
                raise _late(self.seconds)
            reply = json.loads(w.conn.recv_bytes())
            healthy = True
        except (EOFError, OSError):
            raise ApiError(503, "body", "the worker scoring this request stopped; "
                                        "try again") from None
        finally:
            self._give_back(w, healthy)
        w.jobs += 1
        w.cached = int(reply.get("cached", 0))
        return _value(reply)

    def warm(self) -> None:
        """Start the workers now, in the background (the server's startup), so that the first
        overlay does not wait for them."""
        def start() -> None:
            with self._lock:
                self._ensure()
        threading.Thread(target=start, name="rulekit-overlay-start", daemon=True).start()

    def pids(self) -> list[int]:
        with self._lock:
            return [w.proc.pid for w in self._all.values()]

    def stats(self) -> dict[str, int]:
        with self._lock:
            return {"processes": len(self._all), "busy": len(self._all) - len(self._idle),
                    "cached": sum(w.cached for w in self._all.values()),
                    "killed": self.killed, "recycled": self.recycled}

    def close(self) -> None:
        with self._lock:
            self._closed = True
            workers = list(self._all.values())
            self._all.clear()
            self._idle.clear()
            self._lock.notify_all()
        for w in workers:
            self._stop(w, kill=True)


def _late(seconds: float) -> ApiError:
    return ApiError(503, "body", f"scoring took longer than the {seconds:g} s limit of one "
                                 f"request")


def _value(reply: dict[str, Any]) -> Any:
    if "ok" in reply:
        return reply["ok"]
    if "error" in reply:
        e = reply["error"]
        raise ApiError(int(e["status"]), str(e["field"]), str(e["message"]),
                       [str(p) for p in e.get("problems") or []])
    raise RuntimeError(f"overlay worker: {reply.get('internal', 'internal error')}")
