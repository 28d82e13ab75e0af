"""Yardstick: the work budget `limits.RUN_STEPS`; the most pattern steps one hand costs under each built-in ruleset, against it.

    python bench/steps.py [--hands 40] [--seed 5] [--quick]

The yardstick is the run-time work budget: the scorer charges each evaluation's steps
(`walk.cost`: nodes, loop items, arithmetic by its operands' words) and stops a hand over
`limits.RUN_STEPS`. The hands are the heaviest there are: seven hun (indicator 1m: three 1m,
four 2m) and six random tiles, as 天和, so every hun kind is a candidate winning tile. A count
of steps, not a time: the same on every machine. The figure in limits.py's comment is this
bench's output (40 hands, seed 5). Each line: `RULESET: N hands, at most S steps (P% of
RUN_STEPS)`.
"""
from __future__ import annotations

import argparse
import random
from typing import Any

import rulekit
from rulekit import limits
from rulekit.ruleset import resolve
from rulekit.scoring import places, scan, scorer, search


def heavy_hands(n: int, seed: int) -> list[dict[str, Any]]:
    """`n` distinct seven-hun 天和 documents (no kind more than four times)."""
    rng = random.Random(seed)
    kinds = [f"{r}{s}" for s in "mps" for r in range(1, 10)] + [f"{r}z" for r in range(1, 8)]
    pool = [k for k in kinds if k not in ("1m", "2m")]
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    while len(out) < n:
        others = sorted(rng.choice(pool) for _ in range(6))
        win = rng.choice(pool)
        key = " ".join(others) + "+" + win
        if key in seen or max(map((others + [win]).count, pool)) > 4:
            continue
        seen.add(key)
        out.append({"indicator": "1m", "hand": " ".join(["1m"] * 3 + ["2m"] * 4 + others),
                    "win_tile": win, "heavenly": True})
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=40)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--quick", action="store_true", help="4 hands: a smoke run")
    args = ap.parse_args()
    peak = [0]
    judge = search.judge

    def counting(s: search.State, *rest: Any) -> int:
        held = judge(s, *rest)
        peak[0] = max(peak[0], s.steps)
        return held

    for module in (search, scan, scorer, places):  # every caller's own reference
        if hasattr(module, "judge"):
            setattr(module, "judge", counting)
    docs = heavy_hands(4 if args.quick else args.hands, args.seed)
    for name in resolve.builtin_names():
        rs = rulekit.load_ruleset(name)
        peak[0] = 0
        for doc in docs:
            rulekit.score(doc, rs)
        print(f"{name}: {len(docs)} hands, at most {peak[0]:,} steps "
              f"({100 * peak[0] / limits.RUN_STEPS:.1f}% of RUN_STEPS)")


if __name__ == "__main__":
    main()
