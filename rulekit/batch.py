"""`rulekit score --jsonl`: one output line per input line, in order, in one process or many.

The parent reads the input's lines as bytes (bounded, `jsonio.raw_lines`) and hands them out
in chunks; whoever scores a chunk (this process, or a worker with `--jobs N`) decodes each
line, scores it and writes its JSON result or its `{"error": ...}` line. The same chunk
function runs either way, so the output is byte for byte the same whatever the job count;
chunks are written in input order as they complete. A worker that dies ends the run with a
`WorkerError` (the CLI exits 3); Ctrl-C stops the workers and reaches the caller.
"""
from __future__ import annotations

import signal
from collections import deque
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import IO, Any, Iterable, Iterator

from rulekit import api, jsonio
from rulekit.errors import RulekitError

CHUNK = 200
"""Lines per task: large enough that pickling a chunk and its output costs little."""
AHEAD = 4
"""Chunks submitted per worker beyond the one being written: memory stays bounded."""

Line = tuple[int, bytes | None, str | None]     # (line number, bytes, reading error)
Task = tuple[str, bool, tuple[Line, ...]]       # (ruleset reference, extends permission, lines)


class WorkerError(Exception):
    """A worker process died (killed, out of memory): the output is incomplete.

    Not a `RulekitError`: nothing the user gave was wrong, and the CLI exits 3 on it.
    """


def score_chunk(task: Task) -> tuple[str, int]:
    """The output text of a chunk (one line per input line) and how many lines failed."""
    ref, outside, lines = task
    rs = api.load_ruleset(ref, allow_outside=outside)
    out: list[str] = []
    failed = 0
    for n, raw, err in lines:
        doc: Any = None             # any JSON value: `score` refuses what is not a document
        if raw is not None:
            doc, err = jsonio.line_document(n, raw)
        text = ""
        if err is None:
            try:
                text = jsonio.dumps(api.score(doc, rs).to_dict())
            except RulekitError as exc:
                err = f"line {n}: {_one_line(str(exc))}"
        if err is not None:
            failed += 1
            text = jsonio.dumps({"error": err})
        out.append(text + "\n")
    return "".join(out), failed


def _one_line(text: str) -> str:
    return " | ".join(part.strip() for part in text.splitlines() if part.strip())


def _chunks(fh: IO[bytes], ref: str, outside: bool, size: int) -> Iterator[Task]:
    lines: list[Line] = []
    for line in jsonio.raw_lines(fh):
        lines.append(line)
        if len(lines) >= size:
            yield ref, outside, tuple(lines)
            lines = []
    if lines:
        yield ref, outside, tuple(lines)


def score_lines(fh: IO[bytes], out: IO[str], ref: str, *, outside: bool, jobs: int = 1,
                chunk: int = CHUNK) -> int:
    """Score every line of `fh` under the ruleset `ref`, writing results to `out` in order;
    the number of lines that failed. `ref` is loaded here first, so a bad ruleset fails
    before any worker starts. With one job each line is written as soon as it is scored
    (a pipe from a game server sees its answer at once); workers take `chunk` lines a task."""
    api.load_ruleset(ref, allow_outside=outside)
    tasks = _chunks(fh, ref, outside, chunk if jobs > 1 else 1)   # alone: write each line
    results = map(score_chunk, tasks) if jobs <= 1 else _in_workers(tasks, jobs)
    failed = 0
    for text, bad in results:
        out.write(text)
        failed += bad
    return failed


def _in_workers(tasks: Iterable[Task], jobs: int) -> Iterator[tuple[str, int]]:
    """Each chunk's output in input order, scored by `jobs` worker processes.

    At most AHEAD chunks per worker wait to be written. However the run ends early (a dead
    worker, Ctrl-C, a closed output), the pending chunks are cancelled and the workers
    stopped, so nothing hangs and nothing is left running.
    """
    pool = ProcessPoolExecutor(jobs, initializer=_worker_init)
    pending: deque[Future[tuple[str, int]]] = deque()
    try:
        for task in tasks:
            pending.append(pool.submit(score_chunk, task))
            if len(pending) > AHEAD * jobs:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
    except BrokenProcessPool:
        _stop(pool)
        raise WorkerError("a score worker process died (killed, or out of memory); the "
                          "output is incomplete") from None
    except BaseException:
        _stop(pool)
        raise
    pool.shutdown()


def _stop(pool: ProcessPoolExecutor) -> None:
    pool.shutdown(wait=False, cancel_futures=True)
    # a chunk already running would finish first: stop its worker now (SIGTERM, no output)
    procs = getattr(pool, "_processes", None) or {}
    for proc in list(procs.values()):
        if proc.is_alive():
            proc.terminate()
    for proc in list(procs.values()):
        proc.join(timeout=5)


def _worker_init() -> None:
    """Workers leave Ctrl-C to the parent: no traceback from each of them."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
