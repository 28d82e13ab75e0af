"""Yardstick: `rulekit simulate --workers 1` on the same deals, each run a whole command from start to exit (fixed costs on both sides), interleaved.

    python bench/simulate.py [--hands 400] [--seed 1] [--workers 1 2] [--repeat 3] [--quick]

Each run is `rulekit simulate --hands N --seed S --workers W` (greedy players) as a fresh
process, timed by the wall clock from start to exit: interpreter start, imports, loading the
ruleset, starting the worker pool and each worker's own loading are charged to every worker
count alike (one worker runs in the command's process; more start a pool). The worker
counts are run in turn, round after round (`--repeat` rounds), and each figure is the sum
over the rounds, so no count gets quieter minutes than another. Also printed: the command's
start-up alone (`--hands 1`), to show how much of each run is fixed cost. Wall clock, not
CPU: CPU time would add up the workers and hide what they gain.
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import time

import rulekit

CLI = "import sys; from rulekit.cli import main; sys.exit(main())"


def run(hands: int, seed: int, workers: int) -> float:
    """Seconds (wall) of one `rulekit simulate` command, start to exit."""
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", CLI, "simulate", "--hands", str(hands), "--seed",
                    str(seed), "--workers", str(workers)], check=True,
                   stdout=subprocess.DEVNULL)
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=400)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--repeat", type=int, default=3, help="rounds, all worker counts each")
    ap.add_argument("--quick", action="store_true", help="a smoke run: 40 hands, one round")
    a = ap.parse_args()
    if a.quick:
        a.hands, a.repeat = 40, 1
    print(f"rulekit.COMPILED = {rulekit.COMPILED}; {a.hands} hands, greedy players, "
          f"{a.repeat} interleaved rounds, wall clock start to exit")
    total = {w: 0.0 for w in a.workers}
    start_up = 0.0
    for _ in range(a.repeat):
        start_up += run(1, a.seed, 1)
        for w in a.workers:
            total[w] += run(a.hands, a.seed, w)
    print(f"start-up (the command with --hands 1): {start_up / a.repeat:.2f} s a run")
    rates = {w: a.hands * a.repeat / t for w, t in total.items()}
    for w, r in rates.items():
        print(f"simulate: {r:.0f} hands/s (greedy players, --workers {w}, fixed costs included)")
    if 1 in rates:
        for w, r in rates.items():
            if w != 1:
                print(f"--workers {w}: {r / rates[1]:.2f}x one")


if __name__ == "__main__":
    main()
