"""Yardstick: a warm in-process `rulekit.score` loop over the same parsed hands, CPU time, interleaved with `rulekit score --jsonl` runs.

    python bench/jsonl.py [--count 20000] [--seed 1] [--jobs 1 2] [--repeat 3] [--installed]
    python bench/jsonl.py --quick

The headline is the interleaved ratio: rounds of (one in-process pass over the parsed
documents, result memo off; one run of `rulekit score --jsonl --jobs 1` from start to exit)
in turn, both by CPU time (this thread's, the command's process's), summed over the rounds:
the command's rate over the loop's. Nothing is best-of and neither side gets quieter minutes
than the other. The figures after it are context, not interleaved:

The corpus comes from `rulekit corpus` (hand documents, one per line). In process: the
documents already parsed, `rulekit.score(doc, ruleset)` each (no JSON either way), two ways:
- warm: after a warm pass, every hand scored again --repeat times, the best pass kept, with
  the result memo off (`Scorer.result_memo = 0`: it would serve every hand of a second pass
  from memory); the scorer's other memos still hold what the earlier passes of these very
  hands left there;
- one pass, as the command does it: in a fresh process, the documents parsed and the
  ruleset loaded first, each hand scored once, every memo starting empty as the command's
  do; best of --repeat.
- steady: as a long-running process scores hands it has not seen: in a fresh process, as
  many hands of another seed scored first, then each of these hands once; best of
  --repeat. "warm" differs from it only in that its memos already hold what these very
  hands left there, which no one pass over a day's distinct hands can have.
End to end: `rulekit score --jsonl FILE` as a subprocess writing to a file, wall time from
start to exit (interpreter start, imports and ruleset load included), once per --jobs value.
Also `rulekit.score(doc, "tianjin")` by name against a `Ruleset` (the target: within 15%),
memo off. Each is run --repeat times, the best kept (by the wall clock and by CPU time);
no ratio is printed for these, as they do not share the machine's minutes.

The source tree comes first on sys.path (and PYTHONPATH for the command), so a compiled
build is measured only when built in place (`python setup.py build_ext --inplace`);
--installed measures the installed package instead (run it from outside the checkout).
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
INSTALLED = "--installed" in sys.argv
if not INSTALLED:
    sys.path.insert(0, str(ROOT))

import rulekit  # noqa: E402
from rulekit.scoring import scorer_for  # noqa: E402

CLI = "import sys; from rulekit.cli import main; sys.exit(main())"


def _env() -> dict[str, str]:
    return dict(os.environ) if INSTALLED else {**os.environ, "PYTHONPATH": str(ROOT)}


def make_corpus(path: Path, count: int, seed: int) -> list[dict[str, object]]:
    with open(path, "w", encoding="utf-8") as fh:
        subprocess.run([sys.executable, "-c", CLI, "corpus", "--count", str(count),
                        "--seed", str(seed)], stdout=fh, check=True,
                       cwd=path.parent if INSTALLED else ROOT, env=_env())
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def in_process(docs: list[dict[str, object]], repeat: int) -> tuple[float, float, float]:
    """Best hands/s of `rulekit.score` over the documents (after one warm pass), the result
    memo off: with a `Ruleset` by the wall clock and by CPU time, and by the name "tianjin"
    (CPU time), in turn."""
    rs = rulekit.load_ruleset("tianjin")
    score = rulekit.score
    sc = scorer_for(rs)
    memo, sc.result_memo = sc.result_memo, 0
    for d in docs[:2000]:
        score(d, rs)
    best_rs = best_cpu = best_name = 0.0
    for _ in range(repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        for d in docs:
            score(d, rs)
        best_rs = max(best_rs, len(docs) / (time.perf_counter() - t0))
        best_cpu = max(best_cpu, len(docs) / (time.process_time() - c0))
        c0 = time.process_time()
        for d in docs:
            score(d, "tianjin")
        best_name = max(best_name, len(docs) / (time.process_time() - c0))
    sc.result_memo = memo
    return best_rs, best_cpu, best_name


ONE_PASS = """
import json, sys, time
import rulekit
docs = [json.loads(line) for line in open(sys.argv[1], encoding="utf-8")]
rs = rulekit.load_ruleset("tianjin")
score = rulekit.score
t0, c0 = time.perf_counter(), time.process_time()
for d in docs:
    score(d, rs)
print(len(docs) / (time.perf_counter() - t0), len(docs) / (time.process_time() - c0))
"""


STEADY = """
import json, sys, time
import rulekit
docs = [json.loads(line) for line in open(sys.argv[1], encoding="utf-8")]
other = [json.loads(line) for line in open(sys.argv[2], encoding="utf-8")]
rs = rulekit.load_ruleset("tianjin")
score = rulekit.score
for d in other:
    score(d, rs)
t0, c0 = time.perf_counter(), time.process_time()
for d in docs:
    score(d, rs)
print(len(docs) / (time.perf_counter() - t0), len(docs) / (time.process_time() - c0))
"""


def steady(path: Path, other: Path, repeat: int) -> tuple[float, float]:
    """Best hands/s of one pass over the documents in a fresh process that has first
    scored as many hands of another seed: the rate a long-running process keeps on hands
    it has not seen. By the wall clock and by CPU time."""
    best_wall = best_cpu = 0.0
    for _ in range(repeat):
        out = subprocess.run([sys.executable, "-c", STEADY, str(path), str(other)],
                             env=_env(), cwd=path.parent if INSTALLED else ROOT, check=True,
                             capture_output=True, text=True).stdout.split()
        best_wall, best_cpu = max(best_wall, float(out[0])), max(best_cpu, float(out[1]))
    return best_wall, best_cpu


def one_pass(path: Path, repeat: int) -> tuple[float, float]:
    """Best hands/s of one pass of `rulekit.score` over the documents in a fresh process,
    the documents parsed and the ruleset loaded before the clock starts: what the command
    does, less starting, reading and writing. By the wall clock and by CPU time."""
    best_wall = best_cpu = 0.0
    for _ in range(repeat):
        out = subprocess.run([sys.executable, "-c", ONE_PASS, str(path)], env=_env(),
                             cwd=path.parent if INSTALLED else ROOT, check=True,
                             capture_output=True, text=True).stdout.split()
        best_wall, best_cpu = max(best_wall, float(out[0])), max(best_cpu, float(out[1]))
    return best_wall, best_cpu


def end_to_end(path: Path, count: int, jobs: int, repeat: int) -> tuple[float, float]:
    """Best hands/s of the command from its start to its exit: by the wall clock, and by the
    CPU time it and its workers used (steadier on a loaded machine; for --jobs > 1 it adds
    the workers' time, so only the wall clock shows what they gain)."""
    best_wall = best_cpu = 0.0
    env = _env()
    with tempfile.TemporaryFile() as out:
        for _ in range(repeat):
            out.seek(0)
            out.truncate()
            before = _children_cpu()
            t0 = time.perf_counter()
            proc = subprocess.run([sys.executable, "-c", CLI, "score", "--jsonl", str(path),
                                   "--jobs", str(jobs)], stdout=out,
                                  cwd=path.parent if INSTALLED else ROOT, env=env,
                                  check=False)
            elapsed = time.perf_counter() - t0
            if proc.returncode != 0:
                raise SystemExit(f"rulekit score --jsonl exited {proc.returncode}")
            best_wall = max(best_wall, count / elapsed)
            best_cpu = max(best_cpu, count / (_children_cpu() - before))
    return best_wall, best_cpu


def interleaved(path: Path, docs: list[dict[str, object]], rounds: int) -> tuple[float, float]:
    """(loop, command) hands/s of CPU over `rounds` rounds taken in turn: one in-process
    pass of `rulekit.score` over the parsed documents (result memo off, after a warm pass),
    then one `rulekit score --jsonl --jobs 1` run from start to exit (its CPU time)."""
    rs = rulekit.load_ruleset("tianjin")
    sc = scorer_for(rs)
    memo, sc.result_memo = sc.result_memo, 0
    for d in docs:
        rulekit.score(d, rs)
    loop = cmd = 0.0
    with tempfile.TemporaryFile() as out:
        for _ in range(rounds):
            c0 = time.thread_time()
            for d in docs:
                rulekit.score(d, rs)
            loop += time.thread_time() - c0
            out.seek(0)
            out.truncate()
            before = _children_cpu()
            subprocess.run([sys.executable, "-c", CLI, "score", "--jsonl", str(path), "--jobs",
                            "1"], stdout=out, cwd=path.parent if INSTALLED else ROOT,
                           env=_env(), check=True)
            cmd += _children_cpu() - before
    sc.result_memo = memo
    return rounds * len(docs) / loop, rounds * len(docs) / cmd


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--repeat", type=int, default=3, help="runs of each, best kept")
    ap.add_argument("--installed", action="store_true",
                    help="measure the installed rulekit, not the source tree")
    ap.add_argument("--quick", action="store_true", help="a smoke run: 1,000 hands, once")
    args = ap.parse_args(argv)
    if args.quick:
        args.count, args.repeat, args.jobs = 1000, 1, [1]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "corpus.jsonl"
        docs = make_corpus(path, args.count, args.seed)
        loop_rate, cmd_rate = interleaved(path, docs, args.repeat)
        print(f"interleaved, {args.repeat} rounds, CPU time: in-process warm loop "
              f"{loop_rate:.0f} hands/s, `rulekit score --jsonl --jobs 1` {cmd_rate:.0f} "
              f"hands/s: ratio {cmd_rate / loop_rate:.2f}")
        print("context (not interleaved, best of --repeat):")
        inside, inside_cpu, by_name = in_process(docs, args.repeat)
        once, once_cpu = one_pass(path, args.repeat)
        other = Path(tmp) / "other.jsonl"
        make_corpus(other, args.count, args.seed + 1000)
        kept, kept_cpu = steady(path, other, args.repeat)
        print(f"rulekit {'compiled (mypyc)' if rulekit.COMPILED else 'pure Python'}"
              f"{' (installed)' if INSTALLED else ''}; {args.count} hands from `rulekit "
              f"corpus --seed {args.seed}`, best of {args.repeat}; {os.cpu_count()} cores; "
              f"hands/s by wall clock (by CPU time)")
        print(f"in process, warm (rulekit.score)  {inside:>9.0f} ({inside_cpu:.0f})")
        print(f"in process, ruleset by name       {'':>9} ({by_name:.0f})  ratio "
              f"({by_name / inside_cpu:.2f})")
        print(f"in process, one pass              {once:>9.0f} ({once_cpu:.0f})")
        print(f"in process, steady (unseen hands) {kept:>9.0f} ({kept_cpu:.0f})")
        for jobs in args.jobs:
            wall, cpu = end_to_end(path, args.count, jobs, args.repeat)
            print(f"rulekit score --jsonl --jobs {jobs:<4} {wall:>9.0f} ({cpu:.0f})")


if __name__ == "__main__":
    main()
