"""`rulekit.waits` and `rulekit.scored_waits` per 13-tile hand document, against riichi.

    python bench/waits.py [--count 4000] [--chunk 100] [--repeat 5] [--seed 1]

Hands: the documents of `rulekit.corpus` (the dealt mix of hun counts, melds included)
without their winning tile, so every hand waits on at least one tile. The yardstick is one
riichi `Agari().is_agari` call on the same hand with its winning tile, every tile taken as
itself (riichi has no hun); the issue's target is `waits` <= 3 x that call. Both sides run
on the same chunk of hands in turn (interleaved chunks, each timed --repeat times per side,
the best kept). `scored_waits` scores the hand once per wait: it is timed per hand and per
wait, against one `rulekit.score` of the same hand (the corpus's winning tile).
Requires `pip install mahjong` (the `bench` extra).
"""
from __future__ import annotations

import argparse
import random
import time
from collections import defaultdict
from typing import Any, Callable

from mahjong.agari import Agari

import rulekit
from rulekit.corpus import DEALT, random_hand
from rulekit.hand import parse_hand

Case = tuple[dict[str, Any], list[int], dict[str, Any]]   # (13-tile doc, 14 counts, full doc)


def make_cases(count: int, seed: int, hun_kinds: int) -> dict[int, list[Case]]:
    """Hands by hun count: the 13-tile document, riichi's 34 counts, the winning document."""
    rng = random.Random(seed)
    out: dict[int, list[Case]] = defaultdict(list)
    while sum(len(v) for v in out.values()) < count:
        doc = random_hand(rng, mix=DEALT)
        if doc.get("heavenly"):
            continue                # 天和 has no wait: its fourteen tiles are dealt
        hand = parse_hand(doc, hun_kind_count=hun_kinds)
        counts = [0] * 34
        for t in hand.concealed + (hand.win_tile,):
            counts[t] += 1
        for m in hand.melds:
            counts[m.tile] += 3     # riichi counts a kong as three tiles
        hun = sum(1 for t in hand.concealed if t in hand.hun)
        waiting = {k: v for k, v in doc.items() if k != "win_tile"}
        out[hun].append((waiting, counts, doc))
    return out


def compare(ours: Callable[[Case], object], theirs: Callable[[Case], object],
            cases: list[Case], chunk: int, repeat: int) -> tuple[float, float]:
    """Mean seconds per hand (rulekit, riichi) over interleaved chunks, best of `repeat`."""
    clock = time.perf_counter
    a = b = 0.0
    for i in range(0, len(cases), chunk):
        part = cases[i:i + chunk]
        best_a = best_b = float("inf")
        for _ in range(repeat):
            t0 = clock()
            for c in part:
                ours(c)
            best_a = min(best_a, clock() - t0)
            t0 = clock()
            for c in part:
                theirs(c)
            best_b = min(best_b, clock() - t0)
        a += best_a
        b += best_b
    return a / len(cases), b / len(cases)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=4000, help="hands in all")
    ap.add_argument("--chunk", type=int, default=100)
    ap.add_argument("--repeat", type=int, default=5, help="timings per chunk, best kept")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    rs = rulekit.load_ruleset("tianjin")
    by_hun = make_cases(args.count, args.seed, rs.hun_kinds)
    is_agari = Agari().is_agari
    waits, scored, score = rulekit.waits, rulekit.scored_waits, rulekit.score
    print(f"rulekit {'compiled (mypyc)' if rulekit.COMPILED else 'pure Python'}; "
          f"{args.count} hands, chunks of {args.chunk} timed {args.repeat} times (best kept); "
          "us per hand")
    print(f"{'hun':>3} {'hands':>6} {'waits':>8} {'is_agari':>9} {'ratio':>6} "
          f"{'scored':>9} {'per wait':>9} {'score':>8}")
    total = [0.0, 0.0, 0.0, 0.0, 0]
    for hun in sorted(by_hun):
        cases = by_hun[hun]
        a, b = compare(lambda c: waits(c[0], rs), lambda c: is_agari(c[1]),
                       cases, args.chunk, args.repeat)
        s, one = compare(lambda c: scored(c[0], rs), lambda c: score(c[2], rs),
                         cases, args.chunk, 1)
        n_waits = sum(len(waits(c[0], rs)) for c in cases)
        per_wait = s * len(cases) / max(n_waits, 1)
        print(f"{hun:>3} {len(cases):>6} {a * 1e6:>8.2f} {b * 1e6:>9.2f} {a / b:>6.2f} "
              f"{s * 1e6:>9.1f} {per_wait * 1e6:>9.1f} {one * 1e6:>8.1f}")
        for i, x in enumerate((a, b, s, one)):
            total[i] += x * len(cases)
        total[4] += len(cases)
    n = total[4]
    a, b, s, one = (x / n for x in total[:4])
    print(f"all {n:>6} {a * 1e6:>8.2f} {b * 1e6:>9.2f} {a / b:>6.2f} {s * 1e6:>9.1f} "
          f"{'':>9} {one * 1e6:>8.1f}")
    print(f"waits: {a * 1e6:.2f} us per hand = {a / b:.2f} x one is_agari "
          f"({b * 1e6:.2f} us); target <= 3 x")


if __name__ == "__main__":
    main()
