"""One worker process of the overlay pool: compiles and scores untrusted `ruleset_yaml` work.

It reads jobs and writes replies as JSON bytes over its pipe (never pickles: a job is a
request's parsed JSON, which a client wrote), keeps its own `Registry` (so compiled overlays
are cached here, bounded by `--cache`), and exits when the server closes the pipe. The server
kills it when a job passes its deadline and starts another (`pool.py`): a CPU-bound overlay
cannot stop anything but this process.
"""
from __future__ import annotations

import json
import signal
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

from rulekit import arrange
from rulekit.serve import handlers, sheet
from rulekit.serve.errors import ApiError
from rulekit.serve.limits import ServeConfig, ServeLimits
from rulekit.serve.registry import Registry


SUIT_MEMO_BYTES = 4 << 20
"""The suit-decomposition memo of a worker (16 MiB in the server): its common rows are what
pays, and a worker that meets one new hand per overlay would otherwise take ~100k overlays
to reach its plateau (bench/memory.py)."""


def settings(config: ServeConfig) -> dict[str, Any]:
    """The server's configuration as plain data (JSON): what a worker process, or a server
    process of `--workers N`, rebuilds it from (`config_of`)."""
    return {"limits": asdict(config.limits),
            "rulesets_dir": None if config.rulesets_dir is None else str(config.rulesets_dir),
            "allowed_hosts": list(config.allowed_hosts)}


def config_of(plain: dict[str, Any]) -> ServeConfig:
    folder = plain.get("rulesets_dir")
    return ServeConfig(limits=ServeLimits(**plain["limits"]),
                       rulesets_dir=None if folder is None else Path(folder),
                       allowed_hosts=tuple(plain["allowed_hosts"]))


def run_job(reg: Registry, job: dict[str, Any]) -> Any:
    """One job's value; `ApiError`s pass up to `answer`."""
    op = job["op"]
    deadline = time.monotonic() + float(job["seconds"])
    if op == "score":
        return handlers.score(reg, job["req"])
    if op == "settle":
        return handlers.settle(reg, job["req"])
    if op == "waits":
        return handlers.waits(reg, job["req"], deadline)
    if op == "batch":       # a line that was not JSON comes back as its error, in place
        docs = [ApiError(400, d["error"]["field"], d["error"]["message"]) if bad else d
                for d, bad in zip(job["docs"], job["errors"])]
        return handlers.batch(reg, docs, job["default"], deadline)
    if op == "validate":
        return handlers.validate(reg, job["text"])
    if op == "sheet":
        return sheet.render(reg.inline(job["text"]), "pasted overlay")
    raise ApiError(400, "body", f"unknown job {op!r}")       # pragma: no cover - ours only


def answer(reg: Registry, job: dict[str, Any]) -> dict[str, Any]:
    """The reply to one job: its value, its refusal, or the type of a bug (never a trace)."""
    try:
        return {"ok": run_job(reg, job), "cached": reg.cached()}
    except ApiError as err:
        return {"error": {"status": err.status, "field": err.field, "message": err.message,
                          "problems": err.problems}, "cached": reg.cached()}
    except RecursionError:
        return {"error": {"status": 422, "field": "body", "message": "the request nests too "
                          "deeply", "problems": []}, "cached": reg.cached()}
    except Exception as exc:            # the last guard: the server answers 500
        return {"internal": type(exc).__name__, "cached": reg.cached()}


def warm(reg: Registry) -> None:
    """Build what every first compile needs (the DSL grammar, the schema, the built-ins an
    overlay extends) before the worker says it is ready: its start is not charged to a
    request, the first overlay's compile would be."""
    try:
        reg.inline("extends: tianjin\nname: warm\n")
    except ApiError:                              # pragma: no cover - a built-in that fails
        pass
    reg.forget_inline()


def main(conn: Any, plain: dict[str, Any]) -> None:
    """The worker's loop: a job in, a reply out, until the server goes away."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)      # the server stops us, not Ctrl-C
    arrange.bound_suit_memo(SUIT_MEMO_BYTES)
    reg = Registry(config_of(plain))
    warm(reg)
    try:
        conn.send_bytes(b'{"ready": true}')
    except (EOFError, OSError):
        return
    while True:
        try:
            data = conn.recv_bytes()
        except (EOFError, OSError):
            return
        reply = answer(reg, json.loads(data))
        try:
            text = json.dumps(reply, allow_nan=True)
        except (TypeError, ValueError) as exc:          # pragma: no cover - results are JSON
            text = json.dumps({"internal": type(exc).__name__})
        try:
            conn.send_bytes(text.encode("utf-8"))
        except (EOFError, OSError):
            return
