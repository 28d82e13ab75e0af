"""Yardstick: a hand's first scoring, all memos forgotten, against one riichi `estimate_hand_value` (CPU time, interleaved).

    python bench/worst.py [--budget 120] [--quick] [--seed 1] [--hun 4 5] [--heavenly no]

An adversarial search for the slowest hand, not a sample: random heavy hands (3-7 hun, half
of them 天和) and the known worst family (a connected one-suit block of real tiles plus 7
hun, e.g. `566779m1111444z`, indicator 4z, win 8m, 天和), then local search from the slowest
so far (replace a tile by another kind or by a hun, move the indicator, pick another winning
tile, flip 天和), for a fixed budget of seconds.

`--hun` and `--heavenly` restrict the search to one family (hands holding those hun counts;
天和 or not): the worst of a family, not the worst overall, for work on one search path.
Candidates outside the family are not timed.

Each candidate is scored cold: `rulekit.scoring.score.forget()` first drops every memo the
scoring path keeps in this process (the Scorers with their plans, bounds, fans and results;
per-suit decompositions and reach; group facts; result texts), so the time includes building
the ruleset's Scorer again, as a fresh process's first score does. Times are CPU time of this
thread (`time.thread_time`), so a neighbour's load on the machine does not count. A candidate
among the five slowest so far is timed twice more, each cold, and the final five three more
times: a hand's time is the fastest of its cold timings.

The yardstick is the mean CPU time of riichi's `HandCalculator().estimate_hand_value`
(`pip install .[bench]`) over closed hun-free dealt winning hands (rulekit.corpus), re-measured
after every 20 candidates and averaged over the run, so both sides see the same machine. The
ratio printed is the worst hand's cold time over that mean (the issue's target: <= 20).
"""
from __future__ import annotations

import argparse
import gc
import json
import random
import sys
import time
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))

import rulekit  # noqa: E402
from rulekit.corpus import DEALT, random_hand  # noqa: E402
from rulekit.errors import RulekitError  # noqa: E402
from rulekit.hand import parse_hand  # noqa: E402
from rulekit.scoring.score import forget  # noqa: E402
from rulekit.tiles import format_tiles, hun_kinds, parse_tiles  # noqa: E402
from score import closed_plain, hun_count, riichi_form, riichi_scorer  # noqa: E402

Doc = dict[str, Any]
KNOWN_WORST: Doc = {"indicator": "4z", "hand": "566779m1111444z", "melds": [],
                    "win_tile": "8m", "win_by": "self_draw", "heavenly": True}
# the worst of other families found so far (docs/perf-history.md): where a family's search starts
KNOWN_OTHERS: list[Doc] = [
    {"indicator": "4z", "hand": "234566777m1144z", "melds": [], "win_tile": "5m",
     "win_by": "self_draw", "heavenly": False},             # 4 hun, scanned
    {"indicator": "8m", "hand": "778889m678p3456s", "melds": [], "win_tile": "9m",
     "win_by": "self_draw", "heavenly": False},             # 5 hun, hun winning tile, scanned
]


class Family:
    """Which hands the search may time: those holding one of `hun` hun (any if empty) and,
    unless `heavenly` is None, 天和 or not as it says."""

    def __init__(self, hun: tuple[int, ...] = (), heavenly: bool | None = None) -> None:
        self.hun, self.heavenly = hun, heavenly

    def holds(self, doc: Doc) -> bool:
        if self.heavenly is not None and bool(doc.get("heavenly")) != self.heavenly:
            return False
        return not self.hun or hun_count(doc) in self.hun


def cold_time(doc: Doc, rs: rulekit.Ruleset) -> float:
    """CPU seconds of scoring `doc` with every memo of the scoring path forgotten."""
    forget()
    gc.collect()
    t0 = time.thread_time()
    rulekit.score(doc, rs)
    return time.thread_time() - t0


def best_of(doc: Doc, rs: rulekit.Ruleset, times: int) -> float:
    return min(cold_time(doc, rs) for _ in range(times))


def tiles_of(doc: Doc) -> list[int]:
    return list(parse_tiles(doc["hand"])) + [parse_tiles(doc["win_tile"])[0]]


def doc_of(tiles: list[int], indicator: int, heavenly: bool) -> Doc:
    return {"indicator": format_tiles([indicator]), "hand": format_tiles(sorted(tiles[:-1])),
            "melds": [], "win_tile": format_tiles([tiles[-1]]), "win_by": "self_draw",
            "heavenly": heavenly}


def valid(doc: Doc) -> bool:
    try:
        parse_hand(doc)
    except RulekitError:
        return False
    return True


def mutate(rng: random.Random, doc: Doc, family: Family = Family()) -> Doc:
    """A neighbour of a closed hand: one tile, the indicator, the winning tile or 天和 (not
    when the family fixes it)."""
    tiles = tiles_of(doc)
    indicator = parse_tiles(doc["indicator"])[0]
    heavenly = bool(doc.get("heavenly"))
    move = rng.random()
    if move < 0.55:
        i = rng.randrange(len(tiles))
        hun = hun_kinds(indicator, 2)
        near = tiles[i] + rng.choice((-2, -1, 1, 2))
        tiles[i] = rng.choice(hun) if rng.random() < 0.3 else (
            near if 0 <= near < 34 and rng.random() < 0.6 else rng.randrange(34))
    elif move < 0.7:
        indicator = rng.randrange(34)
    elif move < 0.9:
        i = rng.randrange(len(tiles))
        tiles[i], tiles[-1] = tiles[-1], tiles[i]
    elif family.heavenly is None:
        heavenly = not heavenly
    return doc_of(tiles, indicator, heavenly)


def seeds(rng: random.Random, family: Family = Family()) -> list[Doc]:
    """Where the search starts: the known worst hands and random heavy hands, of the
    family."""
    out = [d for d in [KNOWN_WORST] + KNOWN_OTHERS if family.holds(d)]
    counts = family.hun or (3, 4, 5, 6, 7, 7, 7)
    rate = 0.5 if family.heavenly is None else float(family.heavenly)
    while len(out) < 41:
        d = random_hand(rng, hun_target=rng.choice(counts), heavenly_rate=rate)
        if not d["melds"] and family.holds(d):
            out.append(d)
    return out


class Yardstick:
    """riichi's estimate_hand_value, CPU time per hand, sampled through the run."""

    def __init__(self, riichi: Callable[[Any], Any], hands: list[Any]) -> None:
        self.riichi, self.hands = riichi, hands
        self.total, self.count, self.at = 0.0, 0, 0
        for h in hands[:50]:
            riichi(h)                                   # its warm-up

    def sample(self, n: int = 50) -> None:
        for _ in range(n):
            h = self.hands[self.at % len(self.hands)]
            self.at += 1
            t0 = time.thread_time()
            self.riichi(h)
            self.total += time.thread_time() - t0
            self.count += 1

    @property
    def mean(self) -> float:
        return self.total / self.count


def search(rs: rulekit.Ruleset, stick: Yardstick, budget: float, seed: int,
           family: Family = Family()) -> tuple[int, list[tuple[float, Doc]]]:
    """The number of candidates tried in `budget` seconds (wall), and the slowest five as
    (cold time, hand), slowest first. A hand's time is the fastest of its cold timings:
    each candidate is timed once, twice more if it ranks among the slowest, and the final
    five three more times each, so a preempted or collected call cannot rank a hand."""
    rng = random.Random(seed)
    timed: dict[str, tuple[float, Doc]] = {}

    def keep(doc: Doc, t: float) -> None:
        key = json.dumps(doc, sort_keys=True)
        old = timed.get(key)
        timed[key] = (t if old is None else min(t, old[0]), doc)

    def top(n: int) -> list[tuple[float, Doc]]:
        return sorted(timed.values(), key=lambda p: -p[0])[:n]

    queue = seeds(rng, family)
    tried = 0
    end = time.monotonic() + budget
    while time.monotonic() < end:
        if queue:
            doc = queue.pop()
        else:
            pool = top(5)
            doc = mutate(rng, rng.choice(pool)[1] if pool else KNOWN_WORST, family)
            for _ in range(rng.randrange(3)):
                doc = mutate(rng, doc, family)
        if not valid(doc) or not family.holds(doc):
            continue
        t = cold_time(doc, rs)
        tried += 1
        if tried % 20 == 0:
            stick.sample()
        slowest = top(5)
        if len(slowest) < 5 or t > slowest[-1][0]:
            t = min(t, best_of(doc, rs, 2))
        keep(doc, t)
    for t, doc in top(5):
        keep(doc, best_of(doc, rs, 3))
    return tried, top(5)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--budget", type=float, default=120.0, help="seconds of search (wall)")
    ap.add_argument("--quick", action="store_true", help="a 10-second smoke run")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--ruleset", default="tianjin")
    ap.add_argument("--hun", type=int, nargs="+", default=[],
                    help="only hands holding these many hun (a family)")
    ap.add_argument("--heavenly", choices=("any", "yes", "no"), default="any",
                    help="only 天和 hands, or none")
    args = ap.parse_args()
    family = Family(tuple(args.hun), {"any": None, "yes": True, "no": False}[args.heavenly])
    budget = 10.0 if args.quick else args.budget
    riichi = riichi_scorer()
    if riichi is None:
        print("riichi mahjong is not installed: pip install '.[bench]'", file=sys.stderr)
        return 2
    rs = rulekit.load_ruleset(args.ruleset)
    rng = random.Random(args.seed + 1000)
    plain = closed_plain([random_hand(rng, mix=DEALT) for _ in range(3000)])
    stick = Yardstick(riichi, [riichi_form(d) for d in plain])
    stick.sample(200)
    tried, top = search(rs, stick, budget, args.seed, family)
    worst, worst_doc = top[0]
    stick.sample(200)
    one = stick.mean
    mode = "compiled hot path (mypyc)" if rulekit.COMPILED else "pure Python"
    only = (f", family: hun {args.hun or 'any'}, 天和 {args.heavenly}"
            if args.hun or family.heavenly is not None else "")
    print(f"worst.py: {tried} candidates in {budget:.0f} s, ruleset {rs.name}, {mode}, "
          f"seed {args.seed}{only}")
    print(f"  one riichi estimate_hand_value: {one * 1e6:.1f} us CPU (mean of {stick.count})")
    for t, d in top:
        print(f"  {t * 1e3:8.2f} ms = {t / one:6.1f} x  {d}")
    print(f"worst hand: {worst_doc}")
    print(f"worst cold score: {worst * 1e3:.2f} ms CPU = {worst / one:.1f} x one "
          f"estimate_hand_value (target <= 20)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
