"""`rulekit diff`'s worker processes: a dead worker or Ctrl-C ends the run cleanly.

These run the CLI as a subprocess over a corpus large enough to keep two workers busy, act on
the workers as soon as they exist (a real event: the tasks are submitted when they start, so
any worker's death breaks the run, whatever it was doing), and bound every wait generously
(a wait that long is a hang, not a slow machine).
"""
from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from workerprocs import HAS_PROC, alive, workers

from rulekit import cli, diff

ROOT = Path(__file__).resolve().parent.parent
CLI = "import sys; from rulekit.cli import main; sys.exit(main())"
pytestmark = pytest.mark.skipif(not HAS_PROC,
                                reason="finds worker processes through /proc")


@pytest.fixture(scope="module")
def big_corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = io.StringIO()
    assert cli.main(["corpus", "--count", "6000", "--seed", "11"], out=out) == 0
    path = tmp_path_factory.mktemp("corpus") / "corpus.jsonl"
    path.write_text(out.getvalue(), encoding="utf-8")
    return path


def start_diff(corpus: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-c", CLI, "diff", "tianjin", "tianjin-gold8",
                             "--corpus", str(corpus), "--jobs", "2"],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True)


BOUND = 300.0


def test_a_killed_worker_ends_the_run_with_exit_3(big_corpus: Path) -> None:
    proc = start_diff(big_corpus)
    try:
        pids = workers(proc, timeout=BOUND)
        os.kill(pids[0], signal.SIGKILL)             # its task, if any, is lost
        out, err = proc.communicate(timeout=BOUND)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 3
    assert err == ("rulekit diff: error: a diff worker process died (killed, or out of memory); "
                   "the diff is incomplete\n")
    assert out == ""


def test_ctrl_c_exits_130_without_tracebacks(big_corpus: Path) -> None:
    proc = start_diff(big_corpus)
    try:
        pids = workers(proc, timeout=BOUND)
        os.killpg(proc.pid, signal.SIGINT)           # as a terminal does: the whole group
        out, err = proc.communicate(timeout=BOUND)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130
    assert err == "rulekit: interrupted\n"
    assert out == ""
    deadline = time.monotonic() + BOUND
    while time.monotonic() < deadline and any(alive(p) for p in pids):
        time.sleep(0.05)
    assert not any(alive(p) for p in pids)          # no worker left running


class DyingSpec(diff.RulesetSpec):
    """A ruleset that loads in the parent and kills any worker process that loads it."""

    def load(self):  # type: ignore[no-untyped-def]
        if os.getpid() != PARENT:
            os._exit(9)
        return diff.RulesetSpec.load(self)


PARENT = os.getpid()


def test_a_dead_worker_is_a_worker_error_in_the_library(big_corpus: Path) -> None:
    lines = diff.read_corpus(big_corpus.read_text(encoding="utf-8").splitlines()[:1000])
    dying = DyingSpec("tianjin", str(diff.spec_for("tianjin").path))
    with pytest.raises(diff.WorkerError, match="a diff worker process died"):
        diff.run(diff.spec_for("tianjin"), dying, lines, jobs=2, chunk=100)
    report = diff.run(diff.spec_for("tianjin"), diff.spec_for("tianjin"), lines, jobs=2,
                      chunk=100)
    assert report.documents == 1000 and report.changed == ()
