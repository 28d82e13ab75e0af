"""Yardstick: the GIL's switch interval (sys.getswitchinterval(), 5 ms), the longest a scoring thread may hold the interpreter, and so stall the event loop, at a stretch; the slowest hand `rulekit serve` scores on its event loop, first scoring, every memo forgotten (CPU time).

    python bench/serve_loop_worst.py [--budget 60] [--quick] [--seed 1]

`rulekit/serve/cheap.py` lets the server score a hand on the event loop (no thread hop) when
it holds at most `cheap.HUN` hun, is not a 天和, comes in a small body and names a loaded
ruleset of cheap patterns. That is safe for other clients only if every such hand is cheap,
so this is an adversarial search, not a sample: random eligible hands (0 to `cheap.HUN` hun,
with and without melds), then local search from the slowest so far (bench/worst.py's moves:
a tile to another kind or to a hun, the indicator, the winning tile), keeping only hands the
server would score on its loop, for a fixed budget of seconds, over every built-in ruleset whose
patterns pass `cheap.ruleset_ok` (tianjin-flowers does not: see cheap.py).

What is timed is the whole path of one request, as `app.py` runs it: reading the
hand (`handlers.cheap_hand`), scoring it (`handlers.score_read`) and encoding the answer
(`jsonio.encode`), after `rulekit.scoring.score.forget()` (the Scorer, its plan and every
memo rebuilt, as in a fresh process; a running server's are warm) and a full collection.
Times are this thread's CPU time (`time.thread_time`), so other load on the machine does not
count; a candidate among the five slowest is timed twice more and keeps its fastest time.
"""
from __future__ import annotations

import argparse
import gc
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import rulekit  # noqa: E402
from rulekit import jsonio  # noqa: E402
from rulekit.corpus import random_hand  # noqa: E402
from rulekit.ruleset import resolve  # noqa: E402
from rulekit.scoring.score import forget  # noqa: E402
from rulekit.serve import cheap, handlers  # noqa: E402
from rulekit.serve.errors import ApiError  # noqa: E402
from rulekit.serve.limits import ServeConfig  # noqa: E402
from rulekit.serve.registry import Registry  # noqa: E402
from worst import mutate, valid  # noqa: E402

Doc = dict[str, Any]


def loop_time(reg: Registry, req: Doc) -> float | None:
    """CPU seconds of the event-loop path for `req`, every memo forgotten; None when the server
    would not score it on its loop."""
    reg.get(req["ruleset"])          # loaded and fresh, as a server's steady traffic keeps it
    forget()
    gc.collect()
    t0 = time.thread_time()
    try:
        picked = handlers.cheap_hand(reg, req)
    except ApiError:
        return None
    if picked is None:
        return None
    jsonio.encode(handlers.score_read(*picked))
    return time.thread_time() - t0


def search(reg: Registry, name: str, budget: float, seed: int
           ) -> tuple[int, list[tuple[float, Doc]]]:
    """Candidates tried and the slowest five (fastest of its timings, hand), slowest first."""
    rng = random.Random(seed)
    timed: dict[str, tuple[float, Doc]] = {}
    tried = 0
    end = time.monotonic() + budget
    while time.monotonic() < end:
        if tried < 40 or not timed:             # random eligible hands first
            doc = random_hand(rng, hun_target=rng.randrange(cheap.HUN + 1),
                              heavenly_rate=0.0)
        else:
            top = sorted(timed.values(), key=lambda p: -p[0])[:5]
            doc = mutate(rng, rng.choice(top)[1])
            for _ in range(rng.randrange(3)):
                doc = mutate(rng, doc)
            doc["heavenly"] = False
        if not valid(doc):
            continue
        req = {"ruleset": name, "hand": doc}
        t = loop_time(reg, req)
        if t is None:
            continue
        tried += 1
        slowest = sorted(timed.values(), key=lambda p: -p[0])[:5]
        if len(slowest) < 5 or t > slowest[-1][0]:
            t = min([t] + [x for x in (loop_time(reg, req), loop_time(reg, req))
                           if x is not None])
        key = json.dumps(doc, sort_keys=True)
        old = timed.get(key)
        timed[key] = (t if old is None else min(t, old[0]), doc)
    return tried, sorted(timed.values(), key=lambda p: -p[0])[:5]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--budget", type=float, default=60.0, help="seconds of search, all rulesets")
    ap.add_argument("--quick", action="store_true", help="a 10-second smoke run")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    budget = 10.0 if args.quick else args.budget
    reg = Registry(ServeConfig())
    names = [n for n in resolve.builtin_names() if cheap.ruleset_ok(reg.get(n))]
    interval = sys.getswitchinterval()
    mode = "compiled hot path (mypyc)" if rulekit.COMPILED else "pure Python"
    print(f"serve_loop_worst.py: {mode}; on the loop when <= {cheap.HUN} hun, no 天和, body <= "
          f"{cheap.BODY_BYTES} bytes, ruleset <= {cheap.RULESET_STEPS} steps and <= "
          f"{cheap.VALUED_PATTERNS} valued patterns ({', '.join(names)}); switch "
          f"interval {interval * 1e3:g} ms")
    worst: tuple[float, str, Doc] = (0.0, "", {})
    for k, name in enumerate(names):
        tried, top = search(reg, name, budget / len(names), args.seed + k)
        t, doc = top[0]
        print(f"  {name:16s} {tried:5d} hands; slowest {t * 1e3:6.2f} ms  {json.dumps(doc)}")
        if t > worst[0]:
            worst = (t, name, doc)
    t, name, doc = worst
    print(f"worst request scored on the loop: {t * 1e3:.2f} ms CPU ({name}, every memo forgotten) = "
          f"{t / interval:.2f} of the {interval * 1e3:g} ms switch interval")
    return 0


if __name__ == "__main__":
    sys.exit(main())
