"""Yardstick: `score.wins_with` (greedy's yes/no: does this wait win?) on the waits greedy seats meet at a table, microseconds a question, by hun held.

    python bench/greedy_waits.py [--hands 40] [--seed 7] [--repeat 3] [--quick]

The questions: `--hands` hands of four greedy players under tianjin; at each discard a seat is
offered, every discard it may make and every real wait the 13 tiles left have (a superset of
what greedy asks: it asks only the discards that keep it ready, ALTERNATIVES of them), each
as the `Hand` greedy builds (`WaitScorer.hand_of`). Each hand is asked once a pass, the
passes in turn, each hun count's questions timed as one block; the first pass is cold (a fresh process's scorer), the rest warm (its memos
of bounds and skeletons kept, as in a game), each printed. `wins_with` keeps no result, so
no pass times a memo hit of the answer itself. CPU clock of this process.
"""
from __future__ import annotations

import argparse
import time
from collections import defaultdict
from typing import Any

import rulekit
from rulekit.errors import HandError
from rulekit.game import greedy, play_hand
from rulekit.game.actions import find, tile_of
from rulekit.game.players import GreedyPlayer, view
from rulekit.hand import Hand
from rulekit.scoring.score import scorer_for, wins_with


def table_waits(rs: rulekit.Ruleset, hands: int, seed: int
                ) -> list[tuple[greedy.View, list[int], int]]:
    """Every (view, 13 tiles, wait) a greedy seat may check at its discards in `hands` hands:
    each discard it is offered, each real wait of what that discard leaves. Gathered from
    greedy's observations (a subclass is asked the usual way), so that it works whether
    `rulekit.game.greedy` is compiled (its own calls cannot be spied on) or not.
    tests/test_wins_with.py asks the same questions."""
    asked: list[tuple[greedy.View, list[int], int]] = []

    class Listening(GreedyPlayer):
        def act(self, obs: Any, legal: list[dict[str, Any]]) -> Any:
            if obs.indicator is not None:
                v = view(obs)
                core = greedy.WaitScorer(rs)
                for d in sorted({tile_of(a) for a in find(legal, "discard")}):
                    counts = list(v.hand)
                    counts[d] -= 1
                    asked.extend((v, list(counts), w) for w in core.waits(v, counts)
                                 if w not in v.hun)
            return super().act(obs, legal)

    for i in range(hands):
        play_hand(rs, [Listening(rs) for _ in range(rs.players)], seed=seed + i,
                  dealer=i % rs.players)
    return asked


def questions(rs: rulekit.Ruleset, hands: int, seed: int) -> list[Hand]:
    """The hands of every real wait of every discard greedy seats are offered (distinct)."""
    asked: dict[Any, Hand] = {}
    core = greedy.WaitScorer(rs)
    for v, counts, w in table_waits(rs, hands, seed):
        counts[w] += 1
        try:
            hand = core.hand_of(v, counts, w)
        except HandError:
            continue
        asked.setdefault((hand.concealed, hand.melds, w, hand.indicator,
                          hand.discarded_hun, hand.ready_declared), hand)
    return list(asked.values())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=40)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--repeat", type=int, default=3, help="passes over the questions")
    ap.add_argument("--quick", action="store_true", help="a smoke run: 3 hands, 2 passes")
    a = ap.parse_args()
    if a.quick:
        a.hands, a.repeat = 3, 2
    print(__doc__.splitlines()[0])
    print(f"rulekit.COMPILED = {rulekit.COMPILED}")
    rs = rulekit.load_ruleset("tianjin")
    qs = questions(rs, a.hands, a.seed)
    sc = scorer_for(rs)
    groups: dict[int, list[Hand]] = defaultdict(list)     # timed a block per hun count
    for h in qs:
        groups[sum(1 for t in h.concealed + (h.win_tile,) if t in h.hun)].append(h)
    for r in range(a.repeat):
        spent: dict[int, float] = {}
        yes = 0
        for hun in sorted(groups):
            t0 = time.process_time()
            for h in groups[hun]:
                yes += wins_with(sc, h)
            spent[hun] = time.process_time() - t0
        total = sum(spent.values())
        by_hun = ", ".join(f"{n} hun ({len(groups[n])}) {spent[n] / len(groups[n]) * 1e6:.1f}"
                           for n in sorted(groups))
        print(f"pass {r + 1} ({'cold' if r == 0 else 'warm'}): {len(qs)} questions "
              f"({yes} yes), {total / len(qs) * 1e6:.1f} us a question; by hun held (count) "
              f"us: {by_hun}")

if __name__ == "__main__":
    main()
