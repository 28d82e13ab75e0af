"""`rulekit score --jsonl`: one output line per input line, in order, in one process or many.

The parent reads the input's lines as bytes (bounded, `jsonio.raw_lines`); with one job it
decodes, scores and writes each in turn, with `--jobs N` it hands them out in chunks to
workers. Each line goes through the same function (`_line`: decode, score, its JSON result
or its `{"error": ...}` line) either way, so the output is byte for byte the same whatever
the job count; chunks are written in input order as they complete. A worker that dies ends the run with a
`WorkerError` (the CLI exits 3); Ctrl-C stops the workers and reaches the caller.
"""
from __future__ import annotations

import gc
from contextlib import closing, contextmanager
from typing import IO, Any, Callable, Iterator

from rulekit import api, jsonio, workers
from rulekit.workers import WorkerError as WorkerError      # re-exported for callers
from rulekit.errors import RulekitError

CHUNK = 200
"""Lines per task: large enough that pickling a chunk and its output costs little."""

Line = tuple[int, bytes | None, str | None]     # (line number, bytes, reading error)
Task = tuple[str, bool, tuple[Line, ...]]       # (ruleset reference, extends permission, lines)


def score_chunk(task: Task) -> tuple[str, int]:
    """The output text of a chunk (one line per input line) and how many lines failed."""
    ref, outside, lines = task
    rs = api.load_ruleset(ref, allow_outside=outside)
    out: list[str] = []
    failed = 0
    for n, raw, err in lines:
        text, bad = _line(n, raw, err, rs)
        failed += bad
        out.append(text)
    _lines_done(len(lines))
    return "".join(out), failed


def _line(n: int, raw: bytes | None, err: str | None, rs: api.RulesetRef) -> tuple[str, bool]:
    """One input line's output line, and whether it failed."""
    doc: Any = None                 # any JSON value: `score` refuses what is not a document
    if raw is not None:
        doc, err = jsonio.line_document(n, raw)
    return result_line(n, doc, err, lambda d: _score_json(d, rs))


def _score_json(doc: Any, rs: api.RulesetRef) -> str:
    """A document's result as JSON text: `ScoreResult.to_json` (pieces memoised, ~10x
    faster than encoding the dict), or the strict encoder where it declines."""
    result = api.score(doc, rs)
    return result.to_json() or jsonio.dumps(result.to_dict())


def result_line(n: int, doc: Any, err: str | None,
                fn: Callable[[Any], dict[str, Any] | str]) -> tuple[str, bool]:
    """One `--jsonl` output line: `fn(doc)` as JSON (or the JSON text it returns), or
    `{"error": "line N: ..."}` if the line could not be read (`err`) or `fn` refused it;
    and whether it failed."""
    if err is None:
        try:
            value = fn(doc)
            return (value if isinstance(value, str) else jsonio.dumps(value)) + "\n", False
        except RulekitError as exc:
            err = f"line {n}: {one_line(str(exc))}"
    return jsonio.dumps({"error": err}) + "\n", True


def one_line(text: str) -> str:
    """A multi-line message (a DSL error's caret) as one line, for JSON lines and stderr."""
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
    (a pipe from a game server sees its answer at once), under the ruleset loaded here;
    workers take `chunk` lines a task."""
    rs = api.load_ruleset(ref, allow_outside=outside)
    failed = 0
    if jobs <= 1:
        with _collecting_less():
            for n, raw, err in jsonio.raw_lines(fh):
                text, bad = _line(n, raw, err, rs)
                out.write(text)
                failed += bad
                _lines_done(1)
        return failed
    results = workers.in_order(
        score_chunk, _chunks(fh, ref, outside, chunk), jobs, "a score worker process died "
        "(killed, or out of memory); the output is incomplete", setup=_batch_gc)
    # closed on any way out (a failed write, a signal): the workers stop before this returns
    with _collecting_less(), closing(results):
        for chunk_text, chunk_failed in results:
            out.write(chunk_text)
            failed += chunk_failed
            _lines_done(chunk_text.count("\n"))      # one output line per input line
    return failed


def _batch_gc() -> None:
    """What is loaded before the lines (modules, the ruleset) is never garbage, and scoring
    makes no garbage that only the collector frees (`_collecting_less`): leave the loaded
    objects out of every collection, and the collector off but for a collection of the
    young generations every COLLECT_EVERY lines (`_lines_done`). A worker process runs
    this first."""
    gc.freeze()
    gc.disable()


COLLECT_EVERY = 50_000
"""Lines between two collections of the young generations while a batch runs."""
_since_collect = 0


def _lines_done(count: int) -> None:
    """Count lines handled (here or in a worker); collect the young generations every
    COLLECT_EVERY."""
    global _since_collect
    _since_collect += count
    if _since_collect >= COLLECT_EVERY:
        _since_collect = 0
        gc.collect(1)


@contextmanager
def _collecting_less() -> Iterator[None]:
    """While the lines of one call are scored here: what was loaded is frozen out of the
    collector, and the collector runs only every COLLECT_EVERY lines (`_lines_done` counts
    them), over what those lines left (`gc.collect(1)`). Scoring makes next to no
    cyclic garbage (22 objects over 20,000 hands; none for bad lines of any kind,
    tests/test_result_json.py), so the automatic collections were tracing the memos' new
    entries twice (young, then middle generation) for nothing: ~4% of a 20,000-line run.
    Afterwards the collector is as it was (a library caller or a test keeps its own
    settings)."""
    global _since_collect
    before, enabled = gc.get_threshold(), gc.isenabled()
    _batch_gc()
    _since_collect = 0
    try:
        yield
    finally:
        # what the lines left (the memos' new entries) joins the oldest generation with what
        # was loaded, untraced: else the first young collection after the batch traces all
        # of it (~90M instructions after 20,000 lines)
        gc.freeze()
        gc.unfreeze()
        gc.set_threshold(*before)
        if enabled:
            gc.enable()
