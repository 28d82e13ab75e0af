"""Yardstick: riichi's waits loop (`is_agari` on each of the 34 kinds added) on the same 13 tiles; CPU time, interleaved, each hand once.

    python bench/waits.py [--count 4000] [--chunk 100] [--seed 1] [--quick]

Hands: the documents of `rulekit.corpus` (the dealt mix of hun counts, melds included)
without their winning tile, so every hand waits on at least one tile. The yardstick is what
a riichi program does to find a hand's waits: for each of the 34 kinds it can still draw,
add it and call `Agari().is_agari` (every tile taken as itself: riichi has no hun). Both
sides run on the same chunk of hands in turn (interleaved chunks), each hand once per side,
timed by this thread's CPU clock. `scored_waits` scores the hand once per wait: it is timed
per hand and per wait, against one `rulekit.score` of the same hand (the corpus's winning
tile). The scorer's result memo is off, so neither side reads a result the other left.
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
from rulekit.scoring import scorer_for

# (13-tile doc, 14 counts, full doc, the winning tile's kind)
Case = tuple[dict[str, Any], list[int], dict[str, Any], int]


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
        out[hun].append((waiting, counts, doc, hand.win_tile))
    return out


def riichi_waits(is_agari: Callable[[list[int]], bool], counts14: list[int],
                 win: int) -> list[int]:
    """A riichi program's waits: each kind added to the 13 tiles, one `is_agari` each."""
    c = list(counts14)
    c[win] -= 1
    out = []
    for k in range(34):
        if c[k] < 4:
            c[k] += 1
            if is_agari(c):
                out.append(k)
            c[k] -= 1
    return out


def compare(ours: Callable[[Case], object], theirs: Callable[[Case], object],
            cases: list[Case], chunk: int) -> tuple[float, float]:
    """Mean CPU seconds per hand (rulekit, riichi) over interleaved chunks, each hand once
    per side."""
    clock = time.thread_time
    a = b = 0.0
    for i in range(0, len(cases), chunk):
        part = cases[i:i + chunk]
        t0 = clock()
        for c in part:
            ours(c)
        a += clock() - t0
        t0 = clock()
        for c in part:
            theirs(c)
        b += clock() - t0
    return a / len(cases), b / len(cases)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=4000, help="hands in all")
    ap.add_argument("--chunk", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--quick", action="store_true", help="a smoke run: 400 hands")
    args = ap.parse_args(argv)
    if args.quick:
        args.count = 400
    rs = rulekit.load_ruleset("tianjin")
    scorer_for(rs).result_memo = 0       # no side reads a result the other left
    by_hun = make_cases(args.count, args.seed, rs.hun_kinds)
    is_agari = Agari().is_agari
    waits, scored, score = rulekit.waits, rulekit.scored_waits, rulekit.score
    print(f"rulekit {'compiled (mypyc)' if rulekit.COMPILED else 'pure Python'}; "
          f"{args.count} hands, chunks of {args.chunk}, each hand once per side; "
          "us of CPU per hand; riichi = 34 is_agari")
    print(f"{'hun':>3} {'hands':>6} {'waits':>8} {'riichi':>9} {'ratio':>6} "
          f"{'scored':>9} {'per wait':>9} {'score':>8}")
    total = [0.0, 0.0, 0.0, 0.0, 0]
    for hun in sorted(by_hun):
        cases = by_hun[hun]
        a, b = compare(lambda c: waits(c[0], rs), lambda c: riichi_waits(is_agari, c[1], c[3]),
                       cases, args.chunk)
        s, one = compare(lambda c: scored(c[0], rs), lambda c: score(c[2], rs),
                         cases, args.chunk)
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
    print(f"waits: {a * 1e6:.2f} us per hand = {a / b:.2f} x riichi's waits loop of 34 "
          f"is_agari ({b * 1e6:.2f} us)")


if __name__ == "__main__":
    main()
