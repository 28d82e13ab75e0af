"""Running simulation tasks: in this process, in a local process pool (concurrent.futures),
or on a Dask cluster. No scheduler of our own; results come back in task order."""
from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor
from typing import Any, Iterator, Sequence

from rulekit.cluster import ClusterError as ClusterError     # re-exported for callers
from rulekit.cluster import dask_map
from rulekit.game.simulate import Task, run_task

Result = list[dict[str, Any]]


def run(tasks: Sequence[Task], workers: int, cluster: str | None = None) -> Iterator[Result]:
    """Each task's outcomes, in task order."""
    if cluster is not None:
        yield from dask_map(run_task, tasks, workers, cluster)
    elif workers <= 1 or len(tasks) <= 1:
        for t in tasks:
            yield run_task(t)
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            yield from pool.map(run_task, tasks)
