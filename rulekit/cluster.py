"""Running independent tasks on a Dask cluster, for `simulate --cluster` and `diff --cluster`.

No scheduler of our own: Dask's. `local` starts a LocalCluster on 127.0.0.1 (what the tests
use); anything else is the address of a running scheduler. Workers receive plain data (seeds,
corpus lines, ruleset text) and a reference to a rulekit function, which they import from their
own installed rulekit; results come back in task order.
"""
from __future__ import annotations

import importlib
from typing import Any, Callable, Iterator, Sequence, TypeVar

from rulekit.errors import RulekitError

T = TypeVar("T")
R = TypeVar("R")


class ClusterError(RulekitError):
    """Dask is missing, or the cluster cannot be reached."""


def dask_map(fn: Callable[[T], R], tasks: Sequence[T], workers: int, address: str
             ) -> Iterator[R]:
    """`fn` over `tasks` on the cluster at `address` (or a local one), in task order."""
    try:
        distributed: Any = importlib.import_module("dask.distributed")
    except ImportError:
        raise ClusterError('--cluster needs Dask: pip install "rulekit[dask]"') from None
    cluster = None
    try:
        if address == "local":
            cluster = distributed.LocalCluster(n_workers=max(1, workers), threads_per_worker=1,
                                               host="127.0.0.1", dashboard_address=None,
                                               processes=True)
            client = distributed.Client(cluster)
        else:
            client = distributed.Client(address, timeout="10s")
    except (OSError, TimeoutError, ValueError, TypeError) as err:
        raise ClusterError(f"cannot reach the Dask cluster at {address}: {err}") from None
    try:
        futures = client.map(fn, list(tasks), pure=False)
        for f in futures:
            yield f.result()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
