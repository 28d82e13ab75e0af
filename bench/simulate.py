"""Yardsticks: (a) `rulekit simulate --workers 1`, whole commands start to exit (fixed costs on every side), interleaved with the other worker counts; (b) the game loop's CPU seconds in one process, per core; (c) riichienv's random-agent hands interleaved with (b), a peer for scale.

    python bench/simulate.py [--hands 2000] [--seed 1] [--workers 1 2] [--repeat 3]
                             [--loop-hands 1000] [--quick]

(a) Each run is `rulekit simulate --hands N --seed S --workers W` (greedy players) as a
fresh process, timed by the wall clock from start to exit: interpreter start, imports,
loading the ruleset, starting the worker pool and each worker's own loading are charged to
every worker count alike (one worker runs in the command's process; more start a pool). The
worker counts run in turn, round after round (`--repeat` rounds), each figure the sum over
the rounds, so no count gets quieter minutes than another. Also printed: the command's
start-up alone (`--hands 1`), to show how much of each run is fixed cost. Wall clock, not
CPU: CPU time would add up the workers and hide what they gain. The fixed costs weigh less
the more hands a run plays: the ratio is the one at `--hands`, printed with it. On a machine
other jobs load, the wall clock measures the load too: the best run of each count is
printed beside the sums, and each command's CPU seconds (all its processes), from which a
line models the ratio an idle machine would show: a model, labelled so, never the
measurement. Serial in the model: the start-up (the `--hands 1` command's CPU) and the
report (its bootstrap over sessions, in the parent after the last hand: timed in this
process on the loop's outcomes repeated to `--hands`); the rest split evenly over the
workers.

(b) The game loop alone, per core: `--loop-hands` hands with greedy players played by
`rulekit.game.simulate.run_task` in this process (the ruleset loaded and the loop warmed on
16 hands of another seed first, the collector set as the command sets it), timed by the
process's CPU clock (other jobs on the machine take wall time, not this process's CPU).
Every hand has its own seed (no repeats), in sessions of 16 as `rulekit simulate` plays
them.

(c) A peer for scale, when `riichienv` is installed (`pip install .[bench]`): RiichiEnv's
Rust core playing one-kyoku riichi games with its `RandomAgent`s (the figure issue 22 quotes,
~470 hands/s, for the machine it was filed on), timed by the same CPU clock in chunks
interleaved with (b)'s sessions, as many hands as (b) plays. Not a like-for-like race
(other rules, random players whose hands mostly run to the wall): it says how fast this
machine is, so that (b)'s absolute rate can be read against another machine's.
"""
from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
from typing import Any, Callable

import rulekit

CLI = "import sys; from rulekit.cli import main; sys.exit(main())"


def run(hands: int, seed: int, workers: int) -> tuple[float, float]:
    """Seconds of one `rulekit simulate` command, start to exit: wall, and CPU (user and
    system, the command and its workers)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", CLI, "simulate", "--hands", str(hands), "--seed",
                    str(seed), "--workers", str(workers)], check=True,
                   stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def whole_commands(hands: int, seed: int, workers: list[int], repeat: int,
                   report_cpu: float) -> None:
    """(a): whole commands by worker count, interleaved."""
    print(f"(a) whole commands: {hands} hands, greedy players, {repeat} interleaved rounds, "
          "wall clock start to exit")
    walls: dict[int, list[float]] = {w: [] for w in workers}
    cpus: dict[int, float] = {w: 0.0 for w in workers}
    start_wall = start_cpu = 0.0
    for _ in range(repeat):
        wall, cpu = run(1, seed, 1)
        start_wall, start_cpu = start_wall + wall, start_cpu + cpu
        for w in workers:
            wall, cpu = run(hands, seed, w)
            walls[w].append(wall)
            cpus[w] += cpu
    print(f"start-up (the command with --hands 1): {start_wall / repeat:.2f} s a run, "
          f"{start_cpu / repeat:.2f} s CPU")
    rates = {w: hands * repeat / sum(t) for w, t in walls.items()}
    best = {w: hands / min(t) for w, t in walls.items()}
    for w in workers:
        print(f"simulate: {rates[w]:.0f} hands/s (greedy players, --workers {w}, fixed costs "
              f"included; best run {best[w]:.0f}); {cpus[w] / repeat:.2f} s CPU a run, "
              "all its processes")
    if 1 in rates:
        for w in workers:
            if w != 1:
                print(f"--workers {w}: {rates[w] / rates[1]:.2f}x one by the summed wall "
                      f"clock, {best[w] / best[1]:.2f}x by the best runs (at --hands {hands})")
        # what an otherwise idle machine would show if the work past start-up split evenly
        # over the workers: a model from CPU seconds, not a measurement
        fixed = start_cpu / repeat + report_cpu
        for w in workers:
            if w != 1:
                model = (cpus[1] / repeat) / (fixed + (cpus[w] / repeat - fixed) / w)
                print(f"--workers {w}: {model:.2f}x one as modelled from CPU seconds (start-up "
                      f"and report serial, {fixed:.2f} s; the rest split evenly; NOT measured)")


def peer_player() -> Callable[[int], None] | None:
    """(c): one riichienv one-kyoku game with random agents, by seed; None without it."""
    try:
        from riichienv import RiichiEnv
        from riichienv.agents import RandomAgent
    except ImportError:
        return None

    def play(seed: int) -> None:
        agent = RandomAgent(seed=seed)
        env = RiichiEnv(seed=seed)              # game mode 0: four players, one kyoku
        obs = env.reset()
        while not env.done():
            obs = env.step({p: agent.act(o) for p, o in obs.items()})
    return play


def game_loop(hands: int, seed: int, report_hands: int) -> float:
    """(b), with (c) interleaved: the game loop's CPU rate in this process, distinct seeds;
    returns the CPU seconds of the report of `report_hands` such hands (their outcomes
    repeated), for (a)'s model."""
    from rulekit import load_ruleset
    from rulekit.game import simulate as sim
    rs = load_ruleset("tianjin")
    players = ["greedy"] * rs.players
    for task in sim.tasks(rs, players, 16, seed + 1_000_003, chunks=1, log=False):
        sim.run_task(task)                                    # warm: another seed's hands
    todo = sim.tasks(rs, players, hands, seed, chunks=1, log=False)
    peer = peer_player()
    if peer is not None:
        peer(seed + 1_000_003)                                # warm the peer too
    sim.few_collections()                       # as `rulekit simulate` does before it plays
    outs: list[Any] = []
    cpu = peer_cpu = 0.0
    peer_hands = 0
    for task in todo:
        t0 = time.process_time()
        got = sim.run_task(task)
        cpu += time.process_time() - t0
        outs.extend(got)
        if peer is not None:
            t0 = time.process_time()
            for i in range(len(got)):
                peer(seed + peer_hands + i)
            peer_cpu += time.process_time() - t0
            peer_hands += len(got)
    print(f"(b) game loop: {len(outs)} hands (greedy players, distinct seeds) in {cpu:.2f} s "
          f"CPU in one process: {len(outs) / cpu:.0f} hands/s per core (issue 22's target: "
          "2,000)")
    if peer is None:
        print("(c) peer for scale: riichienv is not installed (pip install .[bench])")
    else:
        from importlib.metadata import version
        print(f"(c) peer for scale, interleaved with (b): riichienv {version('riichienv')} "
              f"(Rust core), random agents, one-kyoku games: {peer_hands / peer_cpu:.0f} "
              "hands/s per core (issue 22 quotes ~470 for the machine it was filed on)")
    from rulekit.game import summary
    many = (outs * (report_hands // max(1, len(outs)) + 1))[:report_hands]
    t0 = time.process_time()
    summary.summarise(many, rs, players, sim.SESSION_HANDS, seed)
    return time.process_time() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=2000, help="(a): hands a command plays")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--repeat", type=int, default=3, help="(a): rounds, all worker counts each")
    ap.add_argument("--loop-hands", type=int, default=1000, help="(b): hands timed")
    ap.add_argument("--quick", action="store_true", help="a smoke run: 40 hands, one round")
    a = ap.parse_args()
    if a.quick:
        a.hands, a.repeat, a.loop_hands = 40, 1, 40
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(__doc__.splitlines()[0])
    print(f"rulekit.COMPILED = {rulekit.COMPILED}; load average {load:.2f} at the start")
    report_cpu = game_loop(a.loop_hands, a.seed, a.hands)
    whole_commands(a.hands, a.seed, a.workers, a.repeat, report_cpu)


if __name__ == "__main__":
    main()
