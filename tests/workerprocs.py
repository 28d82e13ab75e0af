"""Finding and watching a CLI run's worker processes through /proc (Linux), for the tests
that kill a worker or press Ctrl-C mid-run (test_score_jobs.py, test_diff_workers.py)."""
from __future__ import annotations

import subprocess
import time
from pathlib import Path

import pytest

HAS_PROC = Path("/proc/self/task").is_dir()


def workers(proc: subprocess.Popen[str], timeout: float = 30.0) -> list[int]:
    """The pids of the run's worker processes (its children with its command line)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and proc.poll() is None:
        cmdline = cmdline_of(proc.pid)     # read again: empty or the test's until exec
        kids = []
        for task in Path(f"/proc/{proc.pid}/task").iterdir():
            try:
                kids += [int(k) for k in (task / "children").read_text().split()]
            except OSError:
                continue
        found = [k for k in kids if b"tianjin-gold8" in cmdline and cmdline_of(k) == cmdline]
        if found:
            return found
        time.sleep(0.01)
    pytest.fail("the run ended or started no worker before the test could act")


def cmdline_of(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")
