"""Yardstick: riichi's `estimate_hand_value` on closed hun-free hands; each hand scored once, distinct, interleaved.

    python bench/score.py [--count 10000] [--seed 1] [--chunk 200] [--no-compare] [--quick]

(a) The dealt mix: seeded random winning hands with hun counts as fourteen tiles dealt from
the wall hold them (rulekit.corpus.DEALT), plus a floor so that every count from 0 to 7
occurs, melds, kong draws and heavenly hands; each scored from its JSON document
(validation included) and timed once. Printed per hun count, with the worst single hand.
(b) The closed, hun-free hands of a corpus of another seed (none of them in (a)), scored by
rulekit and by the riichi `mahjong` library's `HandCalculator().estimate_hand_value`
(`pip install .[bench]`): like with like.
The three loops (dealt mix, rulekit on (b), riichi on (b)) run in interleaved chunks of
`--chunk` hands, so that a neighbour's load on the machine falls on all of them alike; each
figure comes with its own ratio to riichi. Every hand is distinct (duplicates of the corpus
are dropped) and each loop scores each of its hands once: no loop re-scores a hand whose
results an earlier pass left in the memos (the result memo is the library's default; it
cannot hit). For the worst case searched for, not sampled, see bench/worst.py.
(c) The worst case: `--heavy` 天和 hands holding 7 hun, each timed, the slowest reported as
a multiple of one `estimate_hand_value`.
All after `--warm` hands of a different seed (the memos a running server would have), with
the harness's own garbage collected first. It says whether the hot path runs compiled.
Python's cyclic garbage collector runs when allocations say so, and a full collection
(~15 ms here, mostly over objects the imports made) lands on whichever hand happens to
trigger it: each loop's time spent in collections is printed, and the worst hand is given
with and without the collections that ran during it.
Times are CPU time of this thread (`time.thread_time`), not the wall clock: on a shared
machine a preempted call would otherwise count another process's work.
"""
from __future__ import annotations

import argparse
import gc
import json
import random
import sys
import time
from collections import defaultdict
from typing import Any, Callable

import rulekit
from rulekit.corpus import DEALT, random_hand
from rulekit.hand import parse_hand
from rulekit.scoring.scorer import RESULT_MEMO
from rulekit.tiles import parse_tiles

Doc = dict[str, Any]


def build_corpus(count: int, seed: int, floor: int) -> list[Doc]:
    """Distinct hands: duplicates the random dealer makes are dropped."""
    rng = random.Random(seed)
    docs = [random_hand(rng, mix=DEALT) for _ in range(count - 8 * floor)]
    for k in range(8):
        docs += [random_hand(rng, hun_target=k) for _ in range(floor)]
    rng.shuffle(docs)
    seen: set[str] = set()
    out = []
    for d in docs:
        key = json.dumps(d, sort_keys=True)
        if key not in seen:
            seen.add(key)
            out.append(d)
    return out


def hun_count(doc: Doc) -> int:
    h = parse_hand(doc)
    return sum(1 for t in h.concealed + (h.win_tile,) if t in h.hun)


def closed_plain(docs: list[Doc]) -> list[Doc]:
    """The closed, hun-free, non-heavenly hands: what riichi can score like for like."""
    return [d for d in docs if not d["melds"] and not d.get("heavenly") and not hun_count(d)]


def riichi_form(doc: Doc) -> tuple[list[int], int]:
    """A hand in the riichi library's 136-tile form: (sorted tiles, winning tile)."""
    kinds = list(parse_tiles(doc["hand"])) + [parse_tiles(doc["win_tile"])[0]]
    used: dict[int, int] = defaultdict(int)
    tiles136 = []
    for k in kinds:
        tiles136.append(k * 4 + used[k])
        used[k] += 1
    return sorted(tiles136), tiles136[-1]


def riichi_scorer() -> Callable[[tuple[list[int], int]], Any] | None:
    try:
        from mahjong.hand_calculating.hand import HandCalculator
        from mahjong.hand_calculating.hand_config import HandConfig
    except ImportError:
        return None
    calc = HandCalculator()
    config = HandConfig(is_tsumo=True)
    return lambda h: calc.estimate_hand_value(h[0], h[1], config=config)


class GcClock:
    """CPU time spent in garbage collections (gc.callbacks), so far."""

    def __init__(self) -> None:
        self.total = 0.0
        self.started = 0.0
        self.full = 0           # full (generation 2) collections so far
        gc.callbacks.append(self.tick)

    def tick(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self.started = time.thread_time()
        else:
            self.total += time.thread_time() - self.started
            self.full += info["generation"] == 2


GC = GcClock()


def timed_each(fn: Callable[[Any], Any], items: list[Any], out: list[float],
               gc_out: list[float] | None = None) -> float:
    """Call `fn` on each item, timing each call; appends to `out` (and the collections'
    share of each call to `gc_out`), returns the sum."""
    clock = time.thread_time        # CPU time: a neighbour's load on the machine does not count
    total = 0.0
    for x in items:
        g0 = GC.total
        t0 = clock()
        fn(x)
        dt = clock() - t0
        total += dt
        out.append(dt)
        if gc_out is not None:
            gc_out.append(GC.total - g0)
    return total


def chunks(items: list[Any], n: int) -> list[list[Any]]:
    """`items` cut into `n` consecutive chunks of nearly equal size: each item once."""
    return [items[len(items) * i // n:len(items) * (i + 1) // n] for i in range(n)]


def interleaved(docs: list[Doc], plain: list[Doc], rs: rulekit.Ruleset, chunk: int,
                riichi: Callable[[Any], Any] | None) -> dict[str, list[float]]:
    """Per-hand times of the three loops, run chunk by chunk in turn."""
    n = max(1, -(-len(docs) // chunk))
    dealt, mine, theirs = (chunks(docs, n), chunks(plain, n),
                           chunks([riichi_form(d) for d in plain], n))
    score = rulekit.score
    times: dict[str, list[float]] = {"dealt": [], "plain": [], "riichi": [], "dealt_gc": [],
                                     "plain_gc": [], "riichi_gc": []}
    for i in range(n):
        timed_each(lambda d: score(d, rs), dealt[i], times["dealt"], times["dealt_gc"])
        timed_each(lambda d: score(d, rs), mine[i], times["plain"], times["plain_gc"])
        if riichi is not None:
            timed_each(riichi, theirs[i], times["riichi"], times["riichi_gc"])
    return times


def heavy_hands(count: int, seed: int) -> list[Doc]:
    rng = random.Random(seed)
    out: list[Doc] = []
    while len(out) < count:
        d = random_hand(rng, hun_target=7, heavenly_rate=1.0)
        if d.get("heavenly") and hun_count(d) == 7:
            out.append(d)
    return out


def full_collection() -> float:
    """The best of 3 full collections of this process, no hand being scored: what a full
    collection landing on a hand adds to it, whatever the hand."""
    best = float("inf")
    for _ in range(3):
        t0 = time.thread_time()
        gc.collect()
        best = min(best, time.thread_time() - t0)
    return best


def gc_line(times: list[float], gcs: list[float]) -> str:
    """How much of a loop's time went to garbage collections."""
    return (f"  garbage collection: {sum(gcs) * 1e3:.1f} ms of {sum(times) * 1e3:.1f} ms "
            f"({sum(gcs) / sum(times) * 100:.1f}%)")


def per_hun_table(docs: list[Doc], times: list[float]) -> list[str]:
    per: dict[int, list[float]] = defaultdict(list)
    for d, t in zip(docs, times):
        per[hun_count(d)].append(t)
    rows = []
    for k in sorted(per):
        ts = per[k]
        rows.append(f"  {k} hun: {len(ts):>6} hands  mean {sum(ts) / len(ts) * 1e6:8.1f} us  "
                    f"max {max(ts) * 1e3:8.2f} ms  share of time "
                    f"{sum(ts) / sum(times) * 100:5.1f}%")
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=10_000)
    ap.add_argument("--quick", action="store_true", help="a smoke run: 1,000 hands, small warm-up")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--floor", type=int, default=10, help="hands per hun count 0..7 at least")
    ap.add_argument("--chunk", type=int, default=200)
    ap.add_argument("--heavy", type=int, default=200, help="7-hun 天和 hands timed alone")
    ap.add_argument("--warm", type=int, default=20_000,
                    help="hands of another seed scored first, as a running server would have")
    ap.add_argument("--no-compare", action="store_true")
    ap.add_argument("--freeze", action="store_true",
                    help="gc.freeze() after the warm-up, as `rulekit serve` and `score --jsonl` "
                         "do: collections then skip what the imports and the warm-up made")
    ap.add_argument("--result-memo", type=int, default=RESULT_MEMO,
                    help="hand results the scorer keeps (the library's default; no hand "
                         "repeats, so it never hits and only its upkeep is timed)")
    args = ap.parse_args()
    if args.quick:
        args.count, args.warm, args.heavy, args.floor = 1000, 1000, 10, 2
    rs = rulekit.load_ruleset("tianjin")
    from rulekit.scoring import scorer_for
    scorer_for(rs).result_memo = args.result_memo
    for d in build_corpus(args.warm, args.seed + 1000, 2):   # warm caches on other hands
        rulekit.score(d, rs)
    docs = build_corpus(args.count, args.seed, args.floor)
    # (b)'s hands come from another seed, none of them in (a): scoring (a) must not leave
    # their results in the memos
    taken = {json.dumps(d, sort_keys=True) for d in docs}
    plain = [d for d in closed_plain(build_corpus(args.count, args.seed + 500, 0))
             if json.dumps(d, sort_keys=True) not in taken]
    heavy = heavy_hands(args.heavy, args.seed + 7)
    riichi = None if args.no_compare else riichi_scorer()
    if riichi is not None:
        for d in plain[:200]:
            riichi(riichi_form(d))                   # its warm-up
    gc.collect()
    if args.freeze:
        gc.freeze()
    times = interleaved(docs, plain, rs, args.chunk, riichi)
    heavy_times: list[float] = []
    heavy_gc: list[float] = []
    full = GC.full
    timed_each(lambda d: rulekit.score(d, rs), heavy, heavy_times, heavy_gc)
    times["heavy_gc"] = heavy_gc
    times["heavy_full"] = [float(GC.full - full)]
    times["full_collection"] = [full_collection()]
    report(args, rs, docs, plain, times, heavy, heavy_times)
    return 0


def report(args: argparse.Namespace, rs: rulekit.Ruleset, docs: list[Doc], plain: list[Doc],
           times: dict[str, list[float]], heavy: list[Doc], heavy_times: list[float]) -> None:
    mode = "compiled hot path (mypyc)" if rulekit.COMPILED else "pure Python"
    print(f"(a) dealt mix: {len(docs)} hands, seed {args.seed}, ruleset {rs.name}, {mode}, "
          f"result memo {args.result_memo}" + (", gc frozen after the warm-up" if args.freeze else ""))
    for row in per_hun_table(docs, times["dealt"][:len(docs)]):
        print(row)
    dealt = times["dealt"]
    worst = max(range(len(dealt)), key=dealt.__getitem__)
    print(f"  worst hand: {dealt[worst] * 1e3:.2f} ms: {docs[worst % len(docs)]}")
    print(gc_line(dealt, times["dealt_gc"]))
    rate = len(dealt) / sum(dealt)
    mine = times["plain"]
    plain_rate = len(mine) / sum(mine) if mine else 0.0
    print(f"(b) closed hun-free hands (not in (a)): {len(plain)} distinct, each timed once, "
          f"chunks of {args.chunk}, interleaved")
    print(f"  rulekit.score: {plain_rate:8.0f} hands/s  mean {1e6 / plain_rate:6.1f} us")
    theirs = times["riichi"]
    one = 0.0
    if theirs:
        riichi_rate = len(theirs) / sum(theirs)
        one = sum(theirs) / len(theirs)
        print(f"  riichi estimate_hand_value: {riichi_rate:8.0f} hands/s  "
              f"mean {one * 1e6:6.1f} us")
        print(f"  time ratio rulekit/riichi, closed hun-free: {riichi_rate / plain_rate:.2f}")
        print("  rulekit" + gc_line(mine, times["plain_gc"])[1:])
        print("  riichi " + gc_line(theirs, times["riichi_gc"])[1:])
        print(f"  time ratio rulekit dealt mix / riichi closed hun-free: "
              f"{riichi_rate / rate:.2f}  (target <= 0.4)")
    else:
        print("  riichi mahjong: not installed (pip install '.[bench]'), or --no-compare")
    slow = max(heavy_times)
    print(f"(c) {len(heavy)} 7-hun 天和 hands: mean {sum(heavy_times) / len(heavy) * 1e3:.2f} ms,"
          f" worst {slow * 1e3:.2f} ms" + (f" = {slow / one:.0f} x one estimate_hand_value "
                                            "(a sample; bench/worst.py searches for the worst)"
                                            if one else ""))
    net = [t - g for t, g in zip(heavy_times, times["heavy_gc"])]
    print(f"  without the garbage collections that ran during them: worst "
          f"{max(net) * 1e3:.2f} ms" + (f" = {max(net) / one:.0f} x" if one else ""))
    print(gc_line(heavy_times, times["heavy_gc"]))
    pause = times["full_collection"][0]
    print(f"  full collections during them: {times['heavy_full'][0]:.0f}; one full collection of "
          f"this process alone ({len(gc.get_objects())} objects tracked): {pause * 1e3:.2f} ms"
          + (f" = {pause / one:.0f} x" if one else ""))
    print(f"score: {rate:.0f} hands/s")


if __name__ == "__main__":
    sys.exit(main())
