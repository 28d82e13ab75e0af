"""Local worker processes (`diff`, `score --jobs`, `simulate --workers`) and how they stop.

`concurrent.futures` with the platform's default start method; workers ignore Ctrl-C (the
parent handles it once, without a traceback per worker). However a run ends early (a dead
worker, Ctrl-C, SIGTERM, a bad input line, a closed output), the pending tasks are cancelled
and the workers stopped, so nothing hangs and nothing is left running.

SIGTERM: the CLI turns it into `Terminated`, a `KeyboardInterrupt`, in the main thread
(`sigterm_raises`), so it takes Ctrl-C's path (workers stopped, files closed) and exits 143.
A worker process restores the default action (the parent's `_stop` terminates it with
SIGTERM) and, on Linux, asks the kernel to kill it if the parent dies (SIGKILL included):
no worker outlives its run holding the output pipes.
"""
from __future__ import annotations

import signal
import threading
from collections import deque
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Callable, Generator, Iterable, Iterator, TypeVar

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


class Terminated(KeyboardInterrupt):
    """SIGTERM arrived: raised in the main thread so that Ctrl-C's cleanup runs; exit 143."""


def _raise_terminated(signum: int, frame: Any) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)      # once: the cleanup runs undisturbed
    raise Terminated()


@contextmanager
def sigterm_raises() -> Iterator[None]:
    """While the block runs, SIGTERM raises `Terminated` in the main thread (elsewhere, where
    no handler can be set, nothing changes); the previous handler is restored after."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _raise_terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def in_order(fn: Callable[[T], R], tasks: Iterable[T], jobs: int, died: str,
             setup: Callable[[], None] | None = None) -> Generator[R, None, None]:
    """`fn(task)` for each task in `jobs` processes, yielded in task order; `died` is the
    `WorkerError`'s message if a worker dies; `setup` runs in each worker first."""
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool
    import os
    parent = os.getpid() if threading.current_thread() is threading.main_thread() else 0
    pool = ProcessPoolExecutor(jobs, initializer=_init, initargs=(setup, parent))
    pending: deque[Future[R]] = deque()
    try:
        for task in tasks:
            pending.append(_submit(pool, fn, task))
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


_STOPS = {signal.SIGINT, signal.SIGTERM}


def _submit(pool: ProcessPoolExecutor, fn: Callable[[T], R], task: T) -> Future[R]:
    """`pool.submit`, with Ctrl-C and SIGTERM held while it may fork the workers: a worker
    is born with them blocked, and takes them (ignored, default) only once `_init` has set
    its handlers, so a signal at that moment never raises the parent's exception in it."""
    if not hasattr(signal, "pthread_sigmask"):                  # Windows: no masks
        return pool.submit(fn, task)
    held = signal.pthread_sigmask(signal.SIG_BLOCK, _STOPS)
    try:
        return pool.submit(fn, task)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


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
    # what the executor forgets on shutdown (it drops its references at once): its workers,
    # its result queue and its thread
    procs = list((getattr(pool, "_processes", None) or {}).values())
    queue = getattr(pool, "_result_queue", None)
    manager = getattr(pool, "_executor_manager_thread", None)
    pool.shutdown(wait=False, cancel_futures=True)
    # a task already running would finish first: stop its worker now (SIGTERM, no output)
    for proc in procs:
        if proc.is_alive():
            proc.terminate()
    for proc in procs:
        proc.join(timeout=5)
    # the executor's thread may be reading half a result a killed worker left; with the
    # workers gone, closing this end (the parent's, unused) lets that read end, so the
    # thread ends too
    writer = getattr(queue, "_writer", None)
    if writer is not None:
        writer.close()
    # let that thread finish its cleanup now: at exit the interpreter wakes it through a
    # pipe the thread closes, and a race between the two prints a traceback
    if manager is not None:
        manager.join(timeout=5)


def _init(setup: Callable[[], None] | None, parent: int = 0) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)      # a forked worker inherits `Terminated`
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOPS)  # held since the fork (`_submit`)
    if parent:
        _die_with_parent(parent)
    if setup is not None:
        setup()


def _die_with_parent(parent: int) -> None:
    """Linux: SIGKILL this process when the thread that started it ends (the main thread of
    `parent`: `in_order` asks only there). Elsewhere nothing: `_stop` is the only guard."""
    import ctypes
    import os
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)                   # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:                          # the parent died before the prctl
        os._exit(1)
