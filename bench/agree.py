"""Yardstick: an exhaustive search (every reading, every pattern) on random hands with 0-7 hun under every built-in ruleset; the bar is 0 mismatches.

    python bench/agree.py [--count 20000] [--seed 1]

The exhaustive search (tests/exhaustive.py) reads every arrangement and every place of the
winning tile with every pattern, with none of the scorer's levels, bounds or shared results.
Hands are random winning shapes (rulekit.corpus), hun counts uniform over 0-7, dealt under
each ruleset's options; `--count` hands in all, spread over the rulesets. Prints the
mismatches (document, ruleset, both fans) and a summary per ruleset and hun count; exits 1
on any mismatch. tests/test_agree.py runs a small sample of the same check in CI.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import rulekit  # noqa: E402
from exhaustive import exhaustive_hand_fan, instant  # noqa: E402
from rulekit.corpus import random_hand  # noqa: E402
from rulekit.hand import parse_hand  # noqa: E402
from rulekit.ruleset.resolve import builtin_names  # noqa: E402


def hand_for(rng: random.Random, rs: rulekit.Ruleset, hun: int) -> Any:
    """A random winning hand valid under `rs` (its hun kinds and ways to win)."""
    while True:
        doc = random_hand(rng, hun_kinds_count=rs.hun_kinds, hun_target=hun)
        try:
            return parse_hand(doc, hun_kind_count=rs.hun_kinds, win_by_allowed=rs.win_by)
        except rulekit.HandError:
            continue


def check(rs: rulekit.Ruleset, hand: Any) -> tuple[float, float | None] | None:
    """(scorer's fan, exhaustive fan) when they differ, else None."""
    got = rulekit.score(hand, rs)
    if instant(hand, rs):
        return None
    want = exhaustive_hand_fan(hand, rs)
    if want is None:
        return None if got.reason == "not_a_winning_shape" else (got.hand_fan, None)
    return None if got.hand_fan == want else (got.hand_fan, want)


def run(count: int, seed: int, out: Any = sys.stdout) -> int:
    """Check `count` hands; the number of mismatches."""
    rng = random.Random(seed)
    names = builtin_names()
    done: Counter[tuple[str, int]] = Counter()
    bad = 0
    start = time.perf_counter()
    for i in range(count):
        name = names[i % len(names)]
        rs = rulekit.load_ruleset(name)
        hun = rng.randrange(8)
        hand = hand_for(rng, rs, hun)
        held = sum(1 for t in hand.concealed + (hand.win_tile,) if t in hand.hun)
        done[name, held] += 1
        diff = check(rs, hand)
        if diff is not None:
            bad += 1
            print(f"MISMATCH {name}: scorer {diff[0]} exhaustive {diff[1]}: {hand}", file=out)
        if (i + 1) % 250 == 0:
            print(f"  ... {i + 1} hands, {bad} mismatches, "
                  f"{time.perf_counter() - start:.0f} s", file=out, flush=True)
    for name in names:
        row = "  ".join(f"{k}:{done[name, k]}" for k in range(8) if done[name, k])
        print(f"  {name:18} {row}", file=out)
    print(f"agree: {count} hands, {bad} mismatches, {time.perf_counter() - start:.0f} s",
          file=out)
    return bad


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    return 1 if run(args.count, args.seed) else 0


if __name__ == "__main__":
    sys.exit(main())
