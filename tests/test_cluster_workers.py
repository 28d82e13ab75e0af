"""A Dask cluster that loses its workers stops the run with a message instead of hanging
(issue 18 item 6). A real scheduler (in this process) and a real worker process (no nanny to
restart it), killed while it runs a task; the wait is bounded by `cluster.NO_WORKERS`."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time

import distributed                  # the test extra installs it: never skipped
import pytest

from rulekit import cluster
from rulekit.workers import WorkerError
BOUND = 120.0


def test_a_cluster_whose_workers_are_killed_stops_with_a_message(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cluster, "NO_WORKERS", 2.0)
    monkeypatch.setattr(cluster, "POLL", 0.2)
    local = distributed.LocalCluster(n_workers=0, processes=False, protocol="tcp://",
                                     host="127.0.0.1",
                                     dashboard_address=None)
    worker = subprocess.Popen(
        [sys.executable, "-m", "distributed.cli.dask_worker", local.scheduler_address,
         "--no-nanny", "--nthreads", "1", "--no-dashboard"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    watch = distributed.Client(local)
    killed = threading.Event()

    def kill_when_busy() -> None:
        deadline = time.monotonic() + BOUND
        while time.monotonic() < deadline:
            if any(watch.processing().values()):           # the task is on the worker
                os.kill(worker.pid, signal.SIGKILL)
                killed.set()
                return
            time.sleep(0.05)

    try:
        watch.wait_for_workers(1, timeout=BOUND)
        killer = threading.Thread(target=kill_when_busy, daemon=True)
        killer.start()
        started = time.monotonic()
        with pytest.raises(WorkerError, match=r"has had no worker for 2 s; the run is "
                                              r"incomplete"):
            list(cluster.dask_map(time.sleep, [3600.0], 1, local.scheduler_address))
        assert killed.is_set() and time.monotonic() - started < BOUND
    finally:
        if worker.poll() is None:
            worker.kill()
        worker.wait(timeout=BOUND)
        watch.close()
        local.close()
