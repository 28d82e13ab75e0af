"""Local worker processes for `rulekit diff` and `rulekit score --jobs`, and how they stop.

`concurrent.futures` with the platform's default start method; workers ignore Ctrl-C (the
parent handles it once, without a traceback per worker). However a run ends early (a dead
worker, Ctrl-C, a bad input line, a closed output), the pending tasks are cancelled and the
workers stopped, so nothing hangs and nothing is left running.
"""
from __future__ import annotations

import signal
from collections import deque
from typing import TYPE_CHECKING, Callable, Iterable, Iterator, TypeVar

if TYPE_CHECKING:       # imported when a pool starts: a one-job run never loads them (~10 ms)
    from concurrent.futures import Future, ProcessPoolExecutor

T = TypeVar("T")
R = TypeVar("R")

AHEAD = 4
"""Tasks submitted per worker beyond the one being consumed: memory stays bounded."""

POLL = 0.5
"""Seconds between looks at the workers while a result is awaited (`_result`)."""


class WorkerError(Exception):
    """A worker process died (killed, out of memory): the run cannot be completed.

    Not a `RulekitError`: nothing the user gave was wrong, and the CLI exits 3 on it.
    """


def in_order(fn: Callable[[T], R], tasks: Iterable[T], jobs: int, died: str,
             setup: Callable[[], None] | None = None) -> Iterator[R]:
    """`fn(task)` for each task in `jobs` processes, yielded in task order; `died` is the
    `WorkerError`'s message if a worker dies; `setup` runs in each worker first."""
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool
    pool = ProcessPoolExecutor(jobs, initializer=_init, initargs=(setup,))
    pending: deque[Future[R]] = deque()
    try:
        for task in tasks:
            pending.append(pool.submit(fn, task))
            if len(pending) > AHEAD * jobs:
                yield _result(pending.popleft(), pool)
        while pending:
            yield _result(pending.popleft(), pool)
    except BrokenProcessPool:
        _stop(pool)
        raise WorkerError(died) from None
    except BaseException:
        _stop(pool)
        raise
    pool.shutdown()


def _result(future: Future[R], pool: ProcessPoolExecutor) -> R:
    """`future.result()`, looking at the workers every `POLL` seconds meanwhile.

    A worker killed while it was writing a result leaves half a message in the pipe, and
    the executor's thread then waits for the rest forever, never marking the pool broken
    (CPython's ProcessPoolExecutor): a dead worker seen here ends the wait instead.
    """
    from concurrent.futures.process import BrokenProcessPool
    while True:
        try:
            return future.result(timeout=POLL)
        except TimeoutError:
            procs = getattr(pool, "_processes", None) or {}
            if any(p.exitcode is not None for p in list(procs.values())):
                raise BrokenProcessPool("a worker process died") from None


def _stop(pool: ProcessPoolExecutor) -> None:
    pool.shutdown(wait=False, cancel_futures=True)
    # a task already running would finish first: stop its worker now (SIGTERM, no output)
    procs = getattr(pool, "_processes", None) or {}
    for proc in list(procs.values()):
        if proc.is_alive():
            proc.terminate()
    for proc in list(procs.values()):
        proc.join(timeout=5)
    # the executor's thread may be reading half a result a killed worker left; with the
    # workers gone, closing this end (the parent's, unused) lets that read end, so the
    # thread, which the interpreter joins at exit, ends too
    queue = getattr(pool, "_result_queue", None)
    writer = getattr(queue, "_writer", None)
    if writer is not None:
        writer.close()


def _init(setup: Callable[[], None] | None) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if setup is not None:
        setup()
