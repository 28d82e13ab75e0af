"""Yardstick: the same decisions made by the same policy in process and through the bot protocol (a subprocess); the difference per decision is the protocol's cost.

    python bench/match.py [--hands 20] [--rounds 5] [--quick]

A match (`rulekit match`, seat 0 the sample bot examples/bot_greedyish.py, three greedy
seats) is played once and every message seat 0 received is recorded: its events and each
request. Then, in interleaved rounds, the recorded stream is fed
  in-process: to the sample bot's `choose(observation, legal)`, called directly (what an
              in-process player costs: the decision alone), and
  protocol:   to a running sample bot process (started, and asked once, before the clock
              starts): every event and request written as a line,
              each answer read within the think time and matched against `legal`.
Both give the same answers (checked). Printed: decisions per second of each side (best
round), and the protocol's overhead per decision in microseconds (median over rounds of
the per-round difference). The bot process is Python too: its own JSON decoding and
encoding are part of the overhead, as they would be for any bot.
"""
from __future__ import annotations

import argparse
import runpy
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import rulekit
from rulekit.game import bots, match

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "examples" / "bot_greedyish.py"


def record(hands: int, seed: int) -> list[tuple[list[dict[str, Any]], dict[str, Any]]]:
    """(events sent before it, request) for each decision seat 0's bot made."""
    stream: list[tuple[list[dict[str, Any]], dict[str, Any]]] = []
    pending: list[dict[str, Any]] = []
    real_send, real_ask = bots.SubprocessBot.send, bots.SubprocessBot.ask

    def send(self: bots.SubprocessBot, message: Any) -> None:
        if message["type"] == "event":
            pending.append(message)
        real_send(self, message)

    def ask(self: bots.SubprocessBot, message: Any, legal: Any) -> Any:
        stream.append((list(pending), message))
        pending.clear()
        return real_ask(self, message, legal)

    bots.SubprocessBot.send, bots.SubprocessBot.ask = send, ask  # type: ignore[method-assign]
    try:
        cfg = match.MatchConfig((f"cmd:{sys.executable} {SAMPLE}", "greedy", "greedy",
                                 "greedy"), hands, seed, think_time=10.0)
        res = match.run_match(rulekit.load_ruleset("tianjin"), cfg)
        assert not res.faults, res.faults
    finally:
        bots.SubprocessBot.send, bots.SubprocessBot.ask = real_send, real_ask  # type: ignore[method-assign]
    return stream


def in_process(stream: list[tuple[list[dict[str, Any]], dict[str, Any]]], choose: Any
               ) -> tuple[float, list[Any]]:
    t = time.perf_counter()
    got = [choose(req["observation"], req["legal"]) for _, req in stream]
    return time.perf_counter() - t, got


def through_protocol(stream: list[tuple[list[dict[str, Any]], dict[str, Any]]]
                     ) -> tuple[float, list[Any]]:
    bot = bots.SubprocessBot(f"{sys.executable} {SAMPLE}", think_time=10.0)
    bot.launch()
    try:
        first = stream[0][1]
        bot.ask(first, first["legal"])         # the interpreter has started: not timed
        t = time.perf_counter()
        got = []
        for events, req in stream:
            for e in events:
                bot.send(e)
            got.append(bot.ask(req, req["legal"]))
        return time.perf_counter() - t, got
    finally:
        bot.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--quick", action="store_true", help="2 hands, 2 rounds: a smoke run")
    a = ap.parse_args()
    hands, rounds = (2, 2) if a.quick else (a.hands, a.rounds)
    stream = record(hands, a.seed)
    choose = runpy.run_path(str(SAMPLE))["choose"]
    n = len(stream)
    events = sum(len(e) for e, _ in stream)
    print(f"{n} decisions of seat 0 over {hands} hands ({events} events sent with them), "
          f"rulekit.COMPILED = {rulekit.COMPILED}")
    local: list[float] = []
    remote: list[float] = []
    for _ in range(rounds):                      # interleaved: both sides see the same load
        t1, g1 = in_process(stream, choose)
        t2, g2 = through_protocol(stream)
        assert g1 == g2, "the two sides must make the same decisions"
        local.append(t1)
        remote.append(t2)
    print(f"in-process: {n / min(local):,.0f} decisions/s")
    print(f"protocol:   {n / min(remote):,.0f} decisions/s (a Python bot process)")
    over = statistics.median((r - l) / n * 1e6 for r, l in zip(remote, local))
    print(f"protocol overhead: {over:,.0f} us per decision (median of {rounds} rounds; "
          f"{events / n:.1f} event lines per decision included)")


if __name__ == "__main__":
    main()
