"""Running simulation tasks: in this process, in a local process pool (concurrent.futures),
or on a Dask cluster. No scheduler of our own; results come back in task order."""
from __future__ import annotations

import importlib
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Iterator, Sequence

from rulekit.errors import RulekitError
from rulekit.game.simulate import Task, run_task

Result = list[dict[str, Any]]


class ClusterError(RulekitError):
    """Dask is missing, or the cluster cannot be reached."""


def run(tasks: Sequence[Task], workers: int, cluster: str | None = None) -> Iterator[Result]:
    """Each task's outcomes, in task order."""
    if cluster is not None:
        yield from _dask(tasks, workers, cluster)
    elif workers <= 1 or len(tasks) <= 1:
        for t in tasks:
            yield run_task(t)
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            yield from pool.map(run_task, tasks)


def _dask(tasks: Sequence[Task], workers: int, address: str) -> Iterator[Result]:
    """On Dask: `local` starts a LocalCluster on 127.0.0.1; anything else is a scheduler's
    address. Workers receive the tasks (seeds, player names, ruleset text) and the
    reference to `run_task`, which they import from their own rulekit."""
    try:
        distributed: Any = importlib.import_module("dask.distributed")
    except ImportError:
        raise ClusterError('--cluster needs Dask: pip install "rulekit[dask]"') from None
    Client, LocalCluster = distributed.Client, distributed.LocalCluster
    cluster = None
    try:
        if address == "local":
            cluster = LocalCluster(n_workers=max(1, workers), threads_per_worker=1,
                                   host="127.0.0.1", dashboard_address=None,
                                   processes=True)
            client = Client(cluster)
        else:
            client = Client(address, timeout="10s")
    except (OSError, TimeoutError, ValueError, TypeError) as err:
        raise ClusterError(f"cannot reach the Dask cluster at {address}: {err}") from None
    try:
        futures = client.map(run_task, list(tasks), pure=False)
        for f in futures:
            yield f.result()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()

