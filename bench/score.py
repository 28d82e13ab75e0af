"""Scoring throughput on a seeded corpus of random winning hands.

    python bench/score.py [--count 10000] [--seed 1] [--no-compare]

The corpus: hun counts as fourteen tiles dealt from the wall hold them (rulekit.corpus.DEALT),
plus a floor so that every count from 0 to 7 occurs (7 is the most a valid two-kind hand can
hold: the indicator stays on the wall), melds, kong draws and heavenly hands. Hands are
scored from their JSON documents (validation included), one process, each hand timed once,
after --warm hands of a different seed (the memos a running server would have), with the
harness's own garbage collected before the timed loop. It says whether the scoring hot path
runs compiled (mypyc) or as pure Python. Prints the figure per hun count, then, with the
riichi `mahjong` package installed (`pip install .[bench]`), its estimate_hand_value on
comparable closed hands in the same run, and last `score: N hands/s`.
"""
from __future__ import annotations

import argparse
import gc
import random
import sys
import time
from collections import defaultdict
from typing import Any

import rulekit
from rulekit.corpus import DEALT, random_hand
from rulekit.hand import parse_hand


def build_corpus(count: int, seed: int, floor: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    docs = [random_hand(rng, mix=DEALT) for _ in range(count - 8 * floor)]
    for k in range(8):
        docs += [random_hand(rng, hun_target=k) for _ in range(floor)]
    rng.shuffle(docs)
    return docs


def hun_count(doc: dict[str, Any]) -> int:
    h = parse_hand(doc)
    return sum(1 for t in h.concealed + (h.win_tile,) if t in h.hun)


def time_rulekit(docs: list[dict[str, Any]], rs: rulekit.Ruleset
                 ) -> tuple[float, dict[int, list[float]]]:
    """One pass, each hand timed: the total and the times by hun count come from it."""
    per: dict[int, list[float]] = defaultdict(list)
    counts = [hun_count(d) for d in docs]
    clock = time.perf_counter
    score = rulekit.score
    total = 0.0
    for d, k in zip(docs, counts):
        t0 = clock()
        score(d, rs)
        dt = clock() - t0
        total += dt
        per[k].append(dt)
    return total, per


def riichi_hands(docs: list[dict[str, Any]], n: int) -> list[tuple[list[int], int]]:
    """Closed, hun-free hands of the corpus in the riichi library's 136-tile form."""
    from rulekit.tiles import parse_tiles
    out = []
    for d in docs:
        if d["melds"] or d.get("heavenly") or hun_count(d):
            continue
        kinds = list(parse_tiles(d["hand"])) + [parse_tiles(d["win_tile"])[0]]
        used: dict[int, int] = defaultdict(int)
        tiles136 = []
        for k in kinds:
            tiles136.append(k * 4 + used[k])
            used[k] += 1
        out.append((sorted(tiles136), tiles136[-1]))
        if len(out) == n:
            break
    return out


def time_riichi(hands: list[tuple[list[int], int]]) -> float | None:
    try:
        from mahjong.hand_calculating.hand import HandCalculator
        from mahjong.hand_calculating.hand_config import HandConfig
    except ImportError:
        return None
    calc = HandCalculator()
    config = HandConfig(is_tsumo=True)
    for tiles, win in hands[:200]:                # its warm-up
        calc.estimate_hand_value(tiles, win, config=config)
    gc.collect()                                  # the same footing as rulekit's loop
    start = time.perf_counter()
    for tiles, win in hands:
        calc.estimate_hand_value(tiles, win, config=config)
    return len(hands) / (time.perf_counter() - start)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--floor", type=int, default=10, help="hands per hun count 0..7 at least")
    ap.add_argument("--warm", type=int, default=20_000,
                    help="hands of another seed scored first, as a running server would have")
    ap.add_argument("--no-compare", action="store_true")
    args = ap.parse_args()
    rs = rulekit.load_ruleset("tianjin")
    for d in build_corpus(args.warm, args.seed + 1000, 2):   # warm caches on other hands
        rulekit.score(d, rs)
    docs = build_corpus(args.count, args.seed, args.floor)
    # Collect the harness's own garbage (the warm-up corpus) and settle the corpus just
    # built into the oldest generation, so that no collection its building owes lands in
    # the timed loop. Every collection the scorer's own allocations cause is still timed.
    gc.collect()
    total, per = time_rulekit(docs, rs)
    print(f"corpus: {len(docs)} hands, seed {args.seed}, ruleset {rs.name}, "
          f"{'compiled hot path (mypyc)' if rulekit.COMPILED else 'pure Python'}")
    for k in sorted(per):
        times = per[k]
        mean = sum(times) / len(times)
        print(f"  {k} hun: {len(times):>6} hands  mean {mean * 1e6:9.0f} us  "
              f"max {max(times) * 1e3:8.1f} ms")
    rate = len(docs) / total
    if not args.no_compare:
        hands = riichi_hands(docs, 2000)
        riichi = time_riichi(hands)
        if riichi is None:
            print("riichi mahjong: not installed (pip install '.[bench]')")
        else:
            print(f"riichi mahjong estimate_hand_value: {riichi:.0f} hands/s on "
                  f"{len(hands)} closed hands; rulekit/riichi = {rate / riichi:.2f}")
    print(f"score: {rate:.0f} hands/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
