"""Hands per second of `rulekit simulate` with greedy players.

    python bench/simulate.py [--hands 400] [--seed 1] [--workers 1 2] [--repeat 3]
                             [--clock wall|cpu]

For each worker count: the same hands (same seed) played `--repeat` times, the best time
kept (load from other processes on the machine only slows a run down). Prints
`simulate: N hands/s` per worker count, whether the scoring hot path is compiled (mypyc:
`rulekit.COMPILED`), and the speed-up of each worker count over one. `--clock cpu` times
this process's CPU (one worker only): on a machine shared with other jobs the wall clock
measures the load as much as the code.
"""
from __future__ import annotations

import argparse
import time

import rulekit
from rulekit.game import parallel
from rulekit.game.simulate import tasks


def timed(hands: int, seed: int, workers: int, repeat: int, clock: str = "wall") -> float:
    rs = rulekit.load_ruleset("tianjin")
    best = float("inf")
    now = time.process_time if clock == "cpu" else time.perf_counter
    for _ in range(repeat):
        ts = tasks(rs, ["greedy"] * 4, hands, seed, chunks=4 * workers if workers > 1 else 1,
                   log=False)
        t = now()
        n = sum(len(r) for r in parallel.run(ts, workers))
        best = min(best, now() - t)
        assert n == hands
    return hands / best


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
    rates = {}
    for w in a.workers:
        rates[w] = timed(a.hands, a.seed, w, a.repeat, a.clock)
        print(f"simulate: {rates[w]:.0f} hands/s (greedy players, --workers {w}, "
              f"{a.clock} clock)")
    if 1 in rates:
        for w, r in rates.items():
            if w != 1:
                print(f"--workers {w}: {r / rates[1]:.2f}x one")


if __name__ == "__main__":
    main()
