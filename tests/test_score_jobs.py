"""`rulekit score --jsonl --jobs N`: the same bytes as one process; a dead worker or Ctrl-C
ends the run cleanly. The subprocess tests act once the run has written its first result (a
real event, not a delay: the workers are busy with the next chunks) and bound every wait
generously (a wait that long is a hang, not a slow machine)."""
from __future__ import annotations

import io
import json
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from workerprocs import HAS_PROC, alive, workers

from rulekit import api, batch, cli

ROOT = Path(__file__).resolve().parent.parent
CLI = "import sys; from rulekit.cli import main; sys.exit(main())"
BAD = [b'{"indicator": "1m"}\n', b"not json\n", b"\n", b'{"hand": ' + b"1" * 70000 + b"}\n",
       b"[1, 2]\n", b'{"indicator": "7p", "hand": "46m123456789s22z", "win_tile": "5m"}\n']


def corpus_bytes(count: int, seed: int) -> bytes:
    out = io.StringIO()
    assert cli.main(["corpus", "--count", str(count), "--seed", str(seed)], out=out) == 0
    return out.getvalue().encode("utf-8")


@pytest.fixture(scope="module")
def mixed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Hands, with bad lines among them (each kind of line error, a blank line, a known
    hand) about the chunk boundaries: input lines 1, 200, 201, 402, 403 and 651."""
    lines = corpus_bytes(700, 5).splitlines(keepends=True)
    for at, bad in zip((0, 199, 200, 401, 402, 650), BAD):
        lines.insert(at, bad)
    path = tmp_path_factory.mktemp("jobs") / "mixed.jsonl"
    path.write_bytes(b"".join(lines))
    return path


def run(argv: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    return cli.main(argv, out=out), out.getvalue()


def test_two_jobs_write_the_same_bytes_as_one(mixed: Path) -> None:
    one = run(["score", "--jsonl", str(mixed)])
    two = run(["score", "--jsonl", str(mixed), "--jobs", "2"])
    assert one == two
    code, text = one
    rows = [json.loads(line) for line in text.splitlines()]
    assert code == 1 and len(rows) == 700 + 5         # the blank line has no output line
    errors = [(i, r["error"]) for i, r in enumerate(rows) if "error" in r]
    assert [e for _, e in errors] == [
        "line 1: hand: required field is missing",
        "line 200: invalid JSON: Expecting value at column 1",
        "line 402: document too large: over 65536 bytes",
        "line 403: document: expected an object, got array"]
    assert rows[649] == json.loads(run(["score", "46m123456789s22z", "--win", "5m",   # line 651
                                        "--indicator", "7p", "--format", "json"])[1])
    assert rows[649]["total_fan"] == 14


def test_the_chunk_size_does_not_change_the_output(mixed: Path) -> None:
    data = mixed.read_bytes()
    texts = []
    for jobs, chunk in ((1, 1), (2, 7), (2, 1000)):
        out = io.StringIO()
        failed = batch.score_lines(io.BytesIO(data), out, "tianjin", outside=False,
                                   jobs=jobs, chunk=chunk)
        texts.append((failed, out.getvalue()))
    assert texts[0] == texts[1] == texts[2] and texts[0][0] == 4


def test_jobs_below_one_is_a_usage_error(mixed: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["score", "--jsonl", str(mixed), "--jobs", "0"]) == (2, "")
    assert capsys.readouterr().err == ("rulekit score: error: --jobs must be 1 or more, "
                                       "got 0\n")


def test_a_dead_worker_is_a_worker_error_in_the_library(mixed: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    parent, real = os.getpid(), api.load_ruleset

    def dying(ref: object, **kw: object) -> object:
        if os.getpid() != parent:
            os._exit(9)                      # a worker (forked with this patch) dies
        return real(ref, **kw)               # type: ignore[arg-type]

    monkeypatch.setattr(api, "load_ruleset", dying)
    with pytest.raises(batch.WorkerError, match="a score worker process died"):
        batch.score_lines(io.BytesIO(mixed.read_bytes()), io.StringIO(), "tianjin",
                          outside=False, jobs=2, chunk=50)


# -- the command, as a user runs it -----------------------------------------------------------

pytestmark_proc = pytest.mark.skipif(not HAS_PROC,
                                     reason="finds worker processes through /proc")


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """18,000 hands (6,000 three times): enough to keep two workers busy for a few seconds
    even compiled, so the tests act while they run."""
    path = tmp_path_factory.mktemp("jobs") / "big.jsonl"
    path.write_bytes(corpus_bytes(6000, 12) * 3)
    return path


def start(corpus: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-c", CLI, "score", "--jsonl", str(corpus),
                             "--jobs", "2", "-r", "tianjin-gold8"],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True)


BOUND = 300.0


def first_result(proc: subprocess.Popen[str]) -> None:
    """Returns once the run has written to stdout: chunks are in the workers' hands."""
    ready, _, _ = select.select([proc.stdout], [], [], BOUND)
    assert ready, "the run wrote nothing"


@pytestmark_proc
def test_a_killed_worker_ends_the_run_with_exit_3(big: Path) -> None:
    proc = start(big)
    try:
        pids = workers(proc, timeout=BOUND)
        first_result(proc)                           # mid-run: a task in flight is lost
        os.kill(pids[0], signal.SIGKILL)
        out, err = proc.communicate(timeout=BOUND)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 3
    assert err == ("rulekit score: error: a score worker process died (killed, or out of memory); "
                   "the output is incomplete\n")
    assert len(out.splitlines()) < 18000             # what came before, in order, then stop
    assert all("total_fan" in json.loads(line) for line in out.splitlines())


@pytestmark_proc
def test_ctrl_c_exits_130_without_tracebacks(big: Path) -> None:
    proc = start(big)
    try:
        pids = workers(proc, timeout=BOUND)
        first_result(proc)                           # the workers are busy scoring
        os.killpg(proc.pid, signal.SIGINT)           # as a terminal does: the whole group
        _, err = proc.communicate(timeout=BOUND)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130
    assert err == "rulekit: interrupted\n"
    deadline = time.monotonic() + BOUND
    while time.monotonic() < deadline and any(alive(p) for p in pids):
        time.sleep(0.05)
    assert not any(alive(p) for p in pids)          # no worker left running
