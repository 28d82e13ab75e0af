"""Many hands, summarised: per-hand seeds from one master seed, sessions of hands that carry
the dealer, results merged in hand order, so the same seed gives the same numbers whatever
runs them (docs/game.md, "Simulation").

A task is plain data (seeds, player names, the ruleset's merged text): it is all a worker
receives, in a process pool or on a Dask cluster, and `run_task` is the only code it runs.
"""
from __future__ import annotations

import gc
import hashlib
import json
import random
from dataclasses import dataclass
from typing import Any, Sequence

from rulekit.game import builtin
from rulekit.game.players import make_player
from rulekit.game.procedure import HandRecord, discard_counts
from rulekit.game.record import seal
from rulekit.game.rules import GameRules, game_rules
from rulekit.game.table import play_hand
from rulekit.ruleset.model import Ruleset, load_merged

SESSION_HANDS = 16


def hand_seed(master: int, index: int) -> int:
    """The seed of hand `index`: the same on every machine and Python (no `hash()`)."""
    digest = hashlib.sha256(f"rulekit.game:{master}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def ruleset_text(rs: Ruleset) -> str:
    """The ruleset, merged (no `extends` left), as text a worker loads: JSON is YAML."""
    return json.dumps(dict(rs.data), ensure_ascii=False, sort_keys=True)


_LOADED: dict[str, Ruleset] = {}
LOADED_MAX = 8
"""Merged rulesets a process keeps (a long-lived caller simulates under a few at a time)."""


def load_shipped(text: str, name: str) -> Ruleset:
    """A ruleset from its merged text, loaded once per process: as plain data, not as a
    user's file (a chain at the size limits merges to more than one file may hold). `tasks`
    keeps the caller's rulesets here under their texts, so the parent and a forked worker
    neither parse nor check them again (loading the merged text cost the command ~0.1 s
    of CPU, on every side); a process without them (a spawned worker, a cluster's) checks
    the text in full (`load_merged`)."""
    got = _LOADED.get(text)
    if got is None:
        got = load_merged(text, name)
        _remember(text, got)
    return got


def _remember(text: str, rs: Ruleset) -> None:
    if text in _LOADED:
        return                                     # the first kept stays (the same rules)
    if len(_LOADED) >= LOADED_MAX:
        del _LOADED[next(iter(_LOADED))]           # the oldest
    _LOADED[text] = rs


@dataclass(frozen=True, slots=True)
class Task:
    """Sessions `first_session ..` of a simulation: what a worker gets."""

    ruleset: str                        # merged text
    name: str
    versus: str | None                  # the other ruleset's merged text (--versus)
    versus_name: str | None
    players: tuple[str, ...]
    master: int
    first_hand: int
    hands: int
    session_hands: int
    log: bool


def run_task(task: Task) -> list[dict[str, Any]]:
    """Play the task's hands; one outcome per hand (with its log line when asked), in order."""
    return _run(task)


GC_YOUNG = 10_000
"""Allocations between two collections of the youngest objects in a process that simulates
(Python's default, 700, spent about a tenth of a hand's time collecting; measured, compiled:
6 % more hands a second with the loaded objects frozen and this threshold)."""


def few_collections() -> None:
    """For a process that only simulates (the `simulate` command, its pool's workers):
    freeze what it holds now (the ruleset, the scorer, the imports) out of the collector and
    collect the young less often. Process-wide, so a library caller (a server) is left to
    decide for itself: `run_task` never calls it."""
    gc.freeze()
    gc.set_threshold(GC_YOUNG, 50, 50)


def _run(task: Task) -> list[dict[str, Any]]:
    rs = load_shipped(task.ruleset, task.name)
    other = load_shipped(task.versus, task.versus_name or "versus") if task.versus else None
    rules = game_rules(rs)                      # worked out once a task, not once a hand
    other_rules = game_rules(other) if other is not None else None
    out: list[dict[str, Any]] = []
    dealers = [0, 0]
    for i in range(task.first_hand, task.first_hand + task.hands):
        seed = hand_seed(task.master, i)
        if i % task.session_hands == 0:        # 000/Ⅳ: the first dealer is chosen at random
            first = random.Random(seed).randrange(len(task.players))
            dealers = [first, first]
        a = _one(rs, task, seed, dealers[0], i, rules)
        dealers[0] = a["next_dealer"]
        if other is not None and other_rules is not None:
            b = _one(other, task, seed, dealers[1], i, other_rules)
            dealers[1] = b["next_dealer"]
            a["versus"] = b
        out.append(a)
    return out


def _one(rs: Ruleset, task: Task, seed: int, dealer: int, index: int,
         rules: GameRules | None = None) -> dict[str, Any]:
    rules = rules or game_rules(rs)
    if len(task.players) == rules.players and all(n == "greedy" for n in task.players):
        rec = builtin.play(rs, rules, seed, dealer)   # compiled: no Table or player objects
    else:
        # a seat's own seed only for the players that draw (`random`): a hash a seat saved
        players = [make_player(name, rs, hand_seed(seed, seat) if name == "random" else 0,
                               rules) for seat, name in enumerate(task.players)]
        rec = play_hand(rs, players, seed=seed, dealer=dealer, rules=rules)
    outcome = outcome_of(rec)
    if task.log:
        outcome["log"] = log_line(rec, rs, rules, task.players, index)
    return outcome


def outcome_of(rec: HandRecord) -> dict[str, Any]:
    r = rec.result
    turns, labelled = discard_counts(rec.events)
    return {"dealer": rec.dealer, "winner": r["winner"], "win_by": r["win_by"],
            "patterns": r["patterns"], "total_fan": r["total_fan"],
            "payments": r["payments"], "next_dealer": r["next_dealer"], "chan": r["chan"],
            "kongs": r["kongs"],
            # a discard labelled is a hun's where a forbid rule reads it (rules.hun_discard_rule)
            "xiao_xiang_gong": labelled,
            # for the impact report (rulekit.game.impact): who sat and pulled, 天和, length
            "dealer_sits": bool(rec.settle.get("dealer_sits")),
            "pulls": list(rec.settle.get("pulls") or []),
            "heavenly": bool((r.get("hand") or {}).get("heavenly")),
            "turns": turns}


def log_line(rec: HandRecord, rs: Ruleset, rules: GameRules, players: Sequence[str],
             index: int, extra: dict[str, int] | None = None) -> str:
    """The hand's record as one JSON line (docs/game.md, "Logs"); `extra`: the inputs a
    duplicate match adds (`deal`, `rotation`), sealed with the rest."""
    d: dict[str, Any] = {"hand": index, "ruleset": rs.name, "players": list(players)}
    d.update(rec.to_dict())
    d["dealer_sits"] = rec.settle["dealer_sits"]
    d["pulls"] = rec.settle["pulls"]
    d.update(extra or {})
    return json.dumps(seal(d), ensure_ascii=False, separators=(",", ":"))


def tasks(rs: Ruleset, players: Sequence[str], hands: int, seed: int, *, chunks: int,
          log: bool, versus: Ruleset | None = None,
          session_hands: int = SESSION_HANDS) -> list[Task]:
    """Whole sessions cut into about `chunks` tasks, in hand order."""
    sessions = -(-hands // session_hands)
    per = max(1, -(-sessions // max(1, chunks)))
    text = ruleset_text(rs)
    _remember(text, rs)                 # the caller's own: forked workers inherit it
    vtext = ruleset_text(versus) if versus is not None else None
    if versus is not None and vtext is not None:
        _remember(vtext, versus)
    out = []
    for s in range(0, sessions, per):
        first = s * session_hands
        n = min(hands, (s + per) * session_hands) - first
        out.append(Task(text, rs.name, vtext, versus.name if versus else None, tuple(players),
                        seed, first, n, session_hands, log))
    return out

