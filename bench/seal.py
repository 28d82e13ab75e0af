"""Yardstick: the CPU time of sealing one hand record (`sealing.seal_line`, what `simulate --log` adds per hand) against the CPU time of playing and logging that hand, in the same process.

    python bench/seal.py [--hands 64] [--rounds 5] [--quick]

Hands of four greedy players are played with their log lines (`simulate.run_task`, as a
worker does), then, in interleaved rounds, the same lines are sealed and the same hands
played again. Printed: microseconds per seal and milliseconds per hand (median over
rounds), and the seal's share of a logged hand. CPU time (`process_time`), so other
processes on the machine do not count; the key is a throwaway one in a temporary folder.
"""
from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=64)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--quick", action="store_true", help="8 hands, 2 rounds (a smoke run)")
    args = ap.parse_args()
    hands, rounds = (8, 2) if args.quick else (args.hands, args.rounds)
    from rulekit import api
    from rulekit.game import recordkey, sealing, simulate as sim
    rs = api.load_ruleset("tianjin")
    [task] = sim.tasks(rs, ["greedy"] * 4, hands, 5, chunks=1, log=True)
    with tempfile.TemporaryDirectory() as tmp:
        key = recordkey.load_or_create(str(Path(tmp) / "record.key"))
        lines = [o["log"] for o in sim.run_task(task)]
        seal_us, hand_ms = [], []
        for _ in range(rounds):
            t0 = time.process_time()
            for _ in range(10):
                for line in lines:
                    sealing.seal_line(line, key)
            seal_us.append((time.process_time() - t0) / (10 * len(lines)) * 1e6)
            t0 = time.process_time()
            sim.run_task(task)
            hand_ms.append((time.process_time() - t0) / hands * 1e3)
    s, h = statistics.median(seal_us), statistics.median(hand_ms)
    print(f"seal: {s:.1f} us per record; a logged hand: {h:.2f} ms; "
          f"the seal's share: {100 * s / (1000 * h):.2f}% ({hands} hands, {rounds} rounds, "
          f"records of {sum(map(len, lines)) // len(lines)} bytes)")


if __name__ == "__main__":
    main()
