"""Yardstick: issue 5's target, 100,000 hands in under 30 s on 2 cores, for `rulekit diff` of two rulesets over a seeded corpus (wall clock after start-up).

    python bench/diff.py [--count 100000] [--seed 1] [--jobs N] [--old tianjin] [--new NAME]

The target (issue #5) is 100,000 hands in under 30 s on a 2-core machine. The timed part is
what `rulekit diff --corpus FILE` does after start-up: read and parse the corpus file, then
score every hand under both rulesets in worker processes. Generating the corpus is timed
apart. NEW defaults to the built-in tianjin-gold8, or the same overlay in a temporary file
when it is not there. The last line is `diff: N hands in S s`.
"""
from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

from rulekit import diff
from rulekit.corpus import corpus
from rulekit.progress import Progress
from rulekit.ruleset import resolve

GOLD8 = ("extends: tianjin\nname: gold8-overlay\nkong_points: {golden: 8}\n"
         "chan: {payout: hun_diao}\n")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--old", default="tianjin")
    ap.add_argument("--new", default=None)
    args = ap.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        new = args.new
        if new is None:
            if "tianjin-gold8" in resolve.builtin_names():
                new = "tianjin-gold8"
            else:
                new = str(Path(tmp) / "gold8.yaml")
                Path(new).write_text(GOLD8, encoding="utf-8")
        path = Path(tmp) / "corpus.jsonl"
        t0 = time.perf_counter()
        with path.open("w", encoding="utf-8") as fh:
            import json
            for doc in corpus(args.count, args.seed):
                fh.write(json.dumps(doc, ensure_ascii=False) + "\n")
        gen = time.perf_counter() - t0
        print(f"corpus: {args.count} hands (seed {args.seed}) generated in {gen:.1f} s")

        t0 = time.perf_counter()
        old_spec, new_spec = diff.spec_for(args.old), diff.spec_for(new)
        with path.open(encoding="utf-8") as fh:
            docs = diff.read_corpus(fh)
        read = time.perf_counter() - t0
        cpu0 = _children_cpu()
        with Progress(len(docs), "diff") as bar:
            report = diff.run(old_spec, new_spec, docs, corpus_name=str(path),
                              jobs=args.jobs, progress=bar)
        total = time.perf_counter() - t0
        cpu = _children_cpu() - cpu0
    print(f"{args.old} -> {new}: {len(report.changed)} of {report.documents} changed, "
          f"{report.win_changed} win changes")
    print(f"read {read:.1f} s; scoring {2 * report.documents} hand-rulesets with "
          f"{args.jobs} worker(s): {2 * report.documents / max(total - read, 1e-9):.0f} per s")
    print(f"worker CPU {cpu:.1f} s in all ({cpu / max(total - read, 1e-9):.2f} cores busy on "
          f"average; other load on the machine shows as less than {args.jobs})")
    print(f"diff: {report.documents} hands in {total:.1f} s")
    return 0


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


if __name__ == "__main__":
    sys.exit(main())
