"""Yardstick: the riichi `mahjong` library (is_agari, 34 is_agari for waits, shanten) on the same hands in one process, interleaved; rulekit.shape against it.

    python bench/shape.py [--count 4000] [--chunk 100] [--repeat 5] [--seed 1]

Hands, per hun count 0..3: winning hands (four random melds and a pair, then `hun` of their
tiles turned into hun) and random 14-tile deals (from the 136-tile wall, `hun` of them
turned into hun). rulekit sees the hun as wildcards; riichi, which has none, sees the same
hand before the hun were made (its hun-free equivalent). Measures:

- is_win: `shape.is_win` vs `Agari().is_agari` (14 tiles);
- waits: `shape.waits` on the hand less one tile vs 34 `is_agari` calls (one per kind);
- deficiency: `shape.deficiency` vs `Shanten.calculate_shanten_for_regular_hand`.

Each measure runs both sides on the same chunk of hands in turn (interleaved chunks, so
that load on the machine hits both alike; each chunk timed --repeat times per side, the
best kept) and prints the mean per call and the ratio rulekit / riichi. Last, the worst
single call of each rulekit function over all hands.
Requires `pip install mahjong` (the `bench` extra).
"""
from __future__ import annotations

import argparse
import random
import time
from typing import Callable, Sequence

from mahjong.agari import Agari
from mahjong.shanten import Shanten

import rulekit
from rulekit import shape

Hand = tuple[list[int], int, list[int]]       # (counts without hun, hun, hun-free equivalent)


def _counts(tiles: Sequence[int]) -> list[int]:
    c = [0] * 34
    for t in tiles:
        c[t] += 1
    return c


def winning_tiles(rng: random.Random) -> list[int]:
    while True:
        tiles: list[int] = []
        for _ in range(4):
            k = rng.randrange(34)
            if k < 27 and k % 9 <= 6 and rng.random() < 0.6:
                tiles += [k, k + 1, k + 2]
            else:
                tiles += [k] * 3
        tiles += [rng.randrange(34)] * 2
        if max(_counts(tiles)) <= 4:
            return tiles


def make_hands(rng: random.Random, count: int, hun: int, winning: bool) -> list[Hand]:
    wall = [k for k in range(34) for _ in range(4)]
    out = []
    for _ in range(count):
        tiles = winning_tiles(rng) if winning else rng.sample(wall, 14)
        rng.shuffle(tiles)
        out.append((_counts(tiles[hun:]), hun, _counts(tiles)))
    return out


def less_one(hands: list[Hand]) -> list[Hand]:
    """The same hands as 13 tiles: drop the first real tile (riichi: the same tile)."""
    out = []
    for c, hun, full in hands:
        k = next(i for i in range(34) if c[i])
        c13, f13 = list(c), list(full)
        c13[k] -= 1
        f13[k] -= 1
        out.append((c13, hun, f13))
    return out


def riichi_waits(agari: Agari) -> Callable[[list[int]], list[int]]:
    def waits(c: list[int]) -> list[int]:
        out = []
        for k in range(34):
            if c[k] < 4:
                c[k] += 1
                if agari.is_agari(c):
                    out.append(k)
                c[k] -= 1
        return out
    return waits


def timed_ours(fn: Callable[[list[int], int], object], hands: list[Hand]) -> float:
    pairs = [(c, hun) for c, hun, _ in hands]
    clock = time.perf_counter
    t0 = clock()
    for c, hun in pairs:
        fn(c, hun)
    return clock() - t0


def timed_riichi(fn: Callable[[list[int]], object], hands: list[Hand]) -> float:
    frees = [full for _, _, full in hands]
    clock = time.perf_counter
    t0 = clock()
    for full in frees:
        fn(full)
    return clock() - t0


def compare(ours: Callable[[list[int], int], object], theirs: Callable[[list[int]], object],
            hands: list[Hand], chunk: int, repeat: int) -> tuple[float, float]:
    """Mean seconds per call (rulekit, riichi), over interleaved chunks.

    Each chunk is timed `repeat` times on each side, alternating, and the best time of
    each side kept: a chunk lasts well under a scheduler tick, so the best is the run
    that no other process interrupted.
    """
    a = b = 0.0
    for i in range(0, len(hands), chunk):
        part = hands[i:i + chunk]
        best_a = best_b = float("inf")
        for _ in range(repeat):
            best_a = min(best_a, timed_ours(ours, part))
            best_b = min(best_b, timed_riichi(theirs, part))
        a += best_a
        b += best_b
    return a / len(hands), b / len(hands)


def worst(fn: Callable[[list[int], int], object], hands: list[Hand]) -> tuple[float, Hand]:
    """The slowest hand, each timed as the best of 5 calls (so a preempted call is not it)."""
    clock = time.perf_counter
    slowest, which = 0.0, hands[0]
    for h in hands:
        best = 1.0
        for _ in range(5):
            t0 = clock()
            fn(h[0], h[1])
            best = min(best, clock() - t0)
        if best > slowest:
            slowest, which = best, h
    return slowest, which


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=4000, help="hands per (set, hun count)")
    ap.add_argument("--chunk", type=int, default=100)
    ap.add_argument("--repeat", type=int, default=5, help="timings per chunk, best kept")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    agari = Agari()
    is_agari = agari.is_agari
    riichi_w = riichi_waits(agari)
    shanten = Shanten.calculate_shanten_for_regular_hand
    print(f"rulekit.shape {'compiled (mypyc)' if rulekit.COMPILED else 'pure Python'}; "
          f"{args.count} hands per row, chunks of {args.chunk} timed {args.repeat} times "
          "(best kept); times in us per call")
    print(f"{'measure':<11} {'hands':<8} {'hun':>3} {'rulekit':>9} {'riichi':>9} {'ratio':>6}")
    everything: list[Hand] = []
    for winning in (True, False):
        label = "winning" if winning else "dealt"
        for hun in range(4):
            hands = make_hands(rng, args.count, hun, winning)
            everything += hands
            rows = (("is_win", shape.is_win, is_agari, hands),
                    ("waits", shape.waits, riichi_w, less_one(hands)),
                    ("deficiency", shape.deficiency, shanten, hands))
            for name, ours, theirs, hs in rows:
                a, b = compare(ours, theirs, hs, args.chunk, args.repeat)
                print(f"{name:<11} {label:<8} {hun:>3} {a * 1e6:>9.2f} {b * 1e6:>9.2f} "
                      f"{a / b:>6.3f}")
    for name, fn, hs in (("is_win", shape.is_win, everything),
                         ("waits", shape.waits, less_one(everything)),
                         ("deficiency", shape.deficiency, everything)):
        slowest, (c, hun, _) = worst(fn, hs)
        tiles = "".join(str(k) + "," for k in range(34) for _ in range(c[k]))
        print(f"worst {name}: {slowest * 1e6:.1f} us, hun={hun}, kinds {tiles.rstrip(',')}")


if __name__ == "__main__":
    main()
