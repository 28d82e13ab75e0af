"""Hands per second of `rulekit simulate` with greedy players.

    python bench/simulate.py [--hands 400] [--seed 1] [--workers 1 2] [--repeat 3]
                             [--clock wall|cpu]

For each worker count: the same hands (same seed) played `--repeat` times, the worker
counts interleaved, the best time kept (load from other processes on the machine only slows
a run down). Every run pays its fixed costs: the shipped ruleset loaded afresh, the tasks
cut, the worker pool (if any) started. Prints
`simulate: N hands/s` per worker count, whether the scoring hot path is compiled (mypyc:
`rulekit.COMPILED`), and the speed-up of each worker count over one. `--clock cpu` times
this process's CPU (one worker only): on a machine shared with other jobs the wall clock
measures the load as much as the code.
"""
from __future__ import annotations

import argparse
import time

import rulekit
from rulekit.game import parallel, simulate


def once(rs: rulekit.Ruleset, hands: int, seed: int, workers: int, clock: str) -> float:
    """Seconds for one run, fixed costs included on every side: the shipped ruleset loaded
    afresh (as a run's first `tasks` does), the tasks cut, the pool (if any) started."""
    now = time.process_time if clock == "cpu" else time.perf_counter
    simulate._LOADED.clear()
    t = now()
    ts = simulate.tasks(rs, ["greedy"] * 4, hands, seed,
                        chunks=4 * workers if workers > 1 else 1, log=False)
    n = sum(len(r) for r in parallel.run(ts, workers))
    took = now() - t
    assert n == hands
    return took


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=400)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--clock", choices=["wall", "cpu"], default="wall")
    a = ap.parse_args()
    if a.clock == "cpu" and a.workers != [1]:
        ap.error("--clock cpu times this process: use it with --workers 1")
    print(f"rulekit.COMPILED = {rulekit.COMPILED}")
    rs = rulekit.load_ruleset("tianjin")
    best = {w: float("inf") for w in a.workers}
    for _ in range(a.repeat):                     # the worker counts interleaved
        for w in a.workers:
            best[w] = min(best[w], once(rs, a.hands, a.seed, w, a.clock))
    rates = {w: a.hands / t for w, t in best.items()}
    for w in a.workers:
        print(f"simulate: {rates[w]:.0f} hands/s (greedy players, --workers {w}, "
              f"{a.clock} clock)")
    if 1 in rates:
        for w, r in rates.items():
            if w != 1:
                print(f"--workers {w}: {r / rates[1]:.2f}x one")


if __name__ == "__main__":
    main()
