"""`simulate --workers N`'s local processes: N workers, each fed its tasks through a pipe
of its own and answering each with the task's outcomes; results are yielded in task order.

Not `concurrent.futures` (`rulekit.workers.in_order`, which `diff` and `score --jobs` use):
its two threads in the parent (one moving tasks and results, one pickling tasks) spent
~0.4 ms of CPU a task, and a simulate task (one session) plays in ~10 ms, so with two
workers on two cores they took ~4% of the cores the workers play on; and its start is
later (its first worker forks on the first submit, in order). Here the parent only waits
on the pipes and the workers' sentinels (`multiprocessing.connection.wait`) between
results; a pipe's framing and pickling is all a task costs it (docs/game.md, "Speed").

How work is handed out: a worker holds at most `DEPTH` tasks (the one it plays and the next,
already in its pipe, so it never waits for the parent), and one at the end (when fewer
than a round of `DEPTH` a worker are left), so the last worker to finish is at most one
task behind the first. Results wait in the parent until those before them arrive: at most
`DEPTH` a worker.

How it stops is `rulekit.workers`' way (the same `_init` runs in each worker): Ctrl-C and
SIGTERM are held while a worker forks and ignored or default in it, a worker dies with its
parent (Linux), and however the run ends early (a dead worker: `WorkerError`; Ctrl-C, SIGTERM,
the consumer closing this generator) the workers are terminated and joined before the
exception goes on: nothing is left running. A worker that dies mid-answer leaves half a
message: the read fails (end of file) and that, too, is a dead worker.
"""
from __future__ import annotations

import os
import selectors
import signal
import sys
import threading
from collections import deque
from multiprocessing import connection, get_context
from multiprocessing.context import DefaultContext, ForkContext
from typing import Any, Callable, Generator, Sequence, TypeVar

from rulekit import workers
from rulekit.workers import WorkerError

T = TypeVar("T")
R = TypeVar("R")

DEPTH = 2
"""Tasks a worker holds while more than a round of them is left."""

JOIN_SECONDS = 5.0
"""How long a stopped worker is waited for before it is killed."""


class _Lane:
    """One worker: its process, the parent's end of its pipe, the tasks it holds (indexes)."""

    __slots__ = ("proc", "conn", "held")

    def __init__(self, proc: Any, conn: connection.Connection) -> None:
        self.proc = proc
        self.conn = conn
        self.held: deque[int] = deque()


def in_order(fn: Callable[[T], R], tasks: Sequence[T], jobs: int, died: str,
             setup: Callable[[], None] | None = None) -> Generator[R, None, None]:
    """`fn(task)` for each task in `jobs` worker processes, yielded in task order; `died` is
    the `WorkerError`'s message if a worker dies; `setup` runs in each worker first."""
    parent = os.getpid() if threading.current_thread() is threading.main_thread() else 0
    ctx = _context()
    lanes: list[_Lane] = []
    try:
        for _ in range(min(jobs, len(tasks))):
            lanes.append(_start(ctx, fn, tasks, setup, parent))
        yield from _relay(lanes, len(tasks), died)
    except BaseException:
        _stop(lanes, force=True)
        raise
    _stop(lanes, force=False)


def _context() -> ForkContext | DefaultContext:
    """Fork where it is safe (Linux): a worker starts with the parent's imports, the tasks
    and the loaded ruleset (`simulate.load_shipped`); elsewhere the platform's default
    (macOS and Windows spawn: a worker imports for itself and gets the tasks pickled)."""
    return get_context("fork") if sys.platform.startswith("linux") else get_context()


def _start(ctx: ForkContext | DefaultContext, fn: Callable[[T], R], tasks: Sequence[T],
           setup: Callable[[], None] | None, parent: int) -> _Lane:
    mine, theirs = ctx.Pipe()
    proc = ctx.Process(target=_serve, args=(theirs, fn, tasks, setup, parent), daemon=True)
    masks = hasattr(signal, "pthread_sigmask")              # Windows: no masks
    held = signal.pthread_sigmask(signal.SIG_BLOCK, workers._STOPS) if masks else None
    try:
        proc.start()                    # born with Ctrl-C and SIGTERM held: `_init` takes them
    finally:
        if held is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)
    theirs.close()
    return _Lane(proc, mine)


class _Failed:
    """A task's exception, sent back in place of its result and raised in the parent."""

    __slots__ = ("error",)

    def __init__(self, error: BaseException) -> None:
        self.error = error


def _serve(conn: connection.Connection, fn: Callable[[T], R], tasks: Sequence[T],
           setup: Callable[[], None] | None, parent: int) -> None:
    """A worker: a task's index in, its result (or `_Failed`) out, until None or the
    parent's end closes. The tasks came with the worker: an index is all a pipe carries."""
    workers._init(setup, parent)
    while True:
        try:
            index = conn.recv()
        except (EOFError, OSError):
            return
        if index is None:
            return
        try:
            answer: Any = fn(tasks[index])
        except Exception as err:    # noqa: BLE001 - raised again in the parent, as a pool does
            answer = _Failed(err)
        try:
            conn.send(answer)
        except (EOFError, OSError):
            return
        except Exception as err:    # noqa: BLE001 - an answer that does not pickle
            conn.send(_Failed(RuntimeError(f"{type(err).__name__}: {err}")))


def _relay(lanes: list[_Lane], count: int, died: str) -> Generator[Any, None, None]:
    """The results of tasks 0 .. count-1 in order, handing each worker the next index as it
    answers. One selector for the run (the pipes and the workers' sentinels)."""
    done: dict[int, Any] = {}
    head = 0
    with selectors.DefaultSelector() as watch:
        for lane in lanes:
            watch.register(lane.conn, selectors.EVENT_READ, (lane, True))
            watch.register(lane.proc.sentinel, selectors.EVENT_READ, (lane, False))
        given = _feed(lanes, count, 0, died)
        while head < count:
            if head in done:
                answer = done.pop(head)
                if isinstance(answer, _Failed):         # in its turn, after those before
                    raise answer.error
                yield answer
                head += 1
                continue
            ready = [key.data for key, _ in watch.select()]
            for lane, answered in ready:
                if answered and lane.held:
                    done[lane.held.popleft()] = _answer(lane, died)
            for lane, answered in ready:
                if not answered and lane.held and (lane, True) not in ready:
                    raise WorkerError(died)             # ended without answering
            given = _feed(lanes, count, given, died)


def _feed(lanes: list[_Lane], count: int, given: int, died: str) -> int:
    """Tops each worker up to its share of the tasks from `given` on; the next to give."""
    for lane in lanes:
        depth = DEPTH if count - given > DEPTH * len(lanes) else 1
        while given < count and len(lane.held) < depth:
            try:
                lane.conn.send(given)
            except OSError:                             # its end is closed: it died
                raise WorkerError(died) from None
            lane.held.append(given)
            given += 1
    return given


def _answer(lane: _Lane, died: str) -> Any:
    try:
        answer = lane.conn.recv()
    except (EOFError, OSError):                         # died mid-answer
        raise WorkerError(died) from None
    return answer


def _stop(lanes: list[_Lane], force: bool) -> None:
    """Ends every worker: asked to (`force` False, all answered) or terminated (SIGTERM,
    the default action in a worker), then joined; one that will not end is killed."""
    for lane in lanes:
        try:
            if force:
                if lane.proc.is_alive():
                    lane.proc.terminate()
            else:
                lane.conn.send(None)
        except (OSError, ValueError):
            pass
    for lane in lanes:
        lane.proc.join(JOIN_SECONDS)
        if lane.proc.is_alive():
            lane.proc.kill()
            lane.proc.join(JOIN_SECONDS)
        lane.conn.close()
