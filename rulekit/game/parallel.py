"""Running simulation tasks: in this process, in local worker processes (`lanes`: a pipe
each, a dead worker is a `WorkerError`, Ctrl-C and SIGTERM stop them all), or on a Dask
cluster. Results come back in task order."""
from __future__ import annotations

from typing import Any, Generator, Sequence

from rulekit.cluster import ClusterError as ClusterError     # re-exported for callers
from rulekit.cluster import dask_map
from rulekit.game.simulate import Task, few_collections, run_task

Result = list[dict[str, Any]]
DIED = "a simulate worker process died (killed, or out of memory); the run is incomplete"


def run(tasks: Sequence[Task], workers: int, cluster: str | None = None
        ) -> Generator[Result, None, None]:
    """Each task's outcomes, in task order."""
    if cluster is not None:
        yield from dask_map(run_task, tasks, workers, cluster)
    elif workers <= 1 or len(tasks) <= 1:
        for t in tasks:
            yield run_task(t)
    else:
        from rulekit.game import lanes      # multiprocessing: not for a one-process run
        yield from lanes.in_order(run_task, tasks, workers, DIED, setup=few_collections)
