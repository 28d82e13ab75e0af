"""Running independent tasks on a Dask cluster, for `simulate --cluster` and `diff --cluster`.

No scheduler of our own: Dask's. `local` starts a LocalCluster on 127.0.0.1 (what the tests
use); anything else is the address of a running scheduler. Workers receive plain data (seeds,
corpus lines, ruleset text) and a reference to a rulekit function, which they import from their
own installed rulekit; results come back in task order.

A cluster may lose its workers (killed, their machines gone): Dask then keeps the tasks
waiting for a worker that never comes. While a result is awaited the client asks the
scheduler every `POLL` seconds how many workers it has; after `NO_WORKERS` seconds with
none (or without an answer) the run stops with a `WorkerError` that says so (exit 3), as a
task that killed its workers (Dask's `KilledWorker`) does.
"""
from __future__ import annotations

import importlib
import time
from typing import Any, Callable, Iterator, Sequence, TypeVar

from rulekit.errors import RulekitError
from rulekit.workers import WorkerError

T = TypeVar("T")
R = TypeVar("R")


POLL = 1.0
"""Seconds between two questions to the scheduler while a result is awaited."""
NO_WORKERS = 30.0
"""Seconds a cluster may have no worker before the run stops (workers may be restarting)."""


class ClusterError(RulekitError):
    """Dask is missing, or the cluster cannot be reached."""


def dask_map(fn: Callable[[T], R], tasks: Sequence[T], workers: int, address: str
             ) -> Iterator[R]:
    """`fn` over `tasks` on the cluster at `address` (or a local one), in task order."""
    try:
        distributed: Any = importlib.import_module("dask.distributed")
    except ImportError:
        raise ClusterError('--cluster needs Dask: pip install "rulekit[dask]"') from None
    import logging              # here, not above: a local run never loads it (~3 ms)
    cluster = None
    try:
        if address == "local":
            # its workers' warnings (tasks cancelled when a run is stopped) are not ours to show
            cluster = distributed.LocalCluster(n_workers=max(1, workers), threads_per_worker=1,
                                               host="127.0.0.1", dashboard_address=None,
                                               processes=True, silence_logs=logging.ERROR)
            client = distributed.Client(cluster)
        else:
            client = distributed.Client(address, timeout="10s")
    except (OSError, TimeoutError, ValueError, TypeError) as err:
        raise ClusterError(f"cannot reach the Dask cluster at {address}: {err}") from None
    try:
        futures = client.map(fn, list(tasks), pure=False)
        for f in futures:
            yield _result(f, client, address, distributed)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def _result(future: Any, client: Any, address: str, distributed: Any) -> Any:
    """`future.result()`, or a `WorkerError` once the cluster has had no worker for
    `NO_WORKERS` seconds or a task has killed its workers."""
    alone_since: float | None = None
    while True:
        try:
            return future.result(timeout=POLL)
        except TimeoutError:
            pass
        except distributed.KilledWorker as err:
            raise WorkerError(f"the Dask cluster at {address} lost the workers running a task "
                              f"({err}); the run is incomplete") from None
        now = time.monotonic()
        if _workers(client) > 0:
            alone_since = None
        elif alone_since is None:
            alone_since = now
        elif now - alone_since >= NO_WORKERS:
            raise WorkerError(f"the Dask cluster at {address} has had no worker for "
                              f"{NO_WORKERS:g} s; the run is incomplete")


def _workers(client: Any) -> int:
    """The scheduler's worker count (0 if it does not answer)."""
    try:
        return len(client.scheduler_info(n_workers=-1).get("workers") or {})
    except Exception:  # noqa: BLE001 - a scheduler gone or unreachable has no workers
        return 0
