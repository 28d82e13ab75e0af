"""The referee a table drives, behind one small interface (TABLE-CONTRACT.md).

`rulekit.game.Table` is the referee: when the installed rulekit has it, `new_engine` wraps
it and the runner asks every seat (bots included) from `(observation, legal)`. Until then
`ThreadEngine` gives the same interface over `play_hand`: the hand runs in its own thread
and each seat the server does not play in-process (a person, a remote bot) is a player that
parks the thread until `act` answers. Every call returns only when the hand is waiting
again, so callers run `act` in an executor, never on the event loop.
"""
from __future__ import annotations

import json
import threading
from typing import Any, Callable, Protocol

from rulekit.errors import RulekitError
from rulekit.game import players as players_mod
from rulekit.game.procedure import HandRecord, event_dict, play_hand
from rulekit.game.rules import game_rules
from rulekit.game.state import PUNG, HandState
from rulekit.ruleset.model import Ruleset
from rulekit.scoring import ScoreResult
from rulekit.tiles import NUM_KINDS, TILE_NAMES, format_tiles

Action = dict[str, Any]
HIDDEN_DRAWS = ("draw", "replacement")
HIDDEN_KONGS = ("concealed_kong", "golden_kong")


class EngineError(RulekitError):
    """An action the referee refuses (not one of `legal`), or a hand that broke."""


class Engine(Protocol):
    """What a table needs of the referee (the contract's `Table`, observations as dicts)."""

    bots_inside: bool               # True: built-in bots are played by the engine itself

    @property
    def over(self) -> bool: ...
    def pending(self) -> tuple[int, ...]: ...
    def legal(self, seat: int) -> list[Action]: ...
    def observation(self, seat: int) -> dict[str, Any]: ...
    def act(self, seat: int, action: Action) -> None: ...
    def events(self, seat: int, since: int = 0) -> list[dict[str, Any]]: ...
    def record(self) -> HandRecord: ...
    def fallback(self, seat: int) -> Action: ...


def same_action(a: Any, b: Any) -> bool:
    """One spelling per action: `true` is not `1` here, though Python finds them equal."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def seat_event(e: tuple[int, str, int, str], seat: int) -> dict[str, Any]:
    """An event as `seat` may see it: others' dealt and drawn tiles and concealed kongs
    carry no tile (a flower drawn is shown, so it keeps its tile)."""
    d = event_dict(e)
    who, action, tile, _ = e
    if who != seat:
        if action == "deal":
            d["rule"] = "拿牌"
        elif action in HIDDEN_DRAWS and 0 <= tile < NUM_KINDS:
            d["tile"] = None
        elif action in HIDDEN_KONGS:
            d["tile"] = None
    return d


def observe(st: HandState, seat: int, wall_left: int, turn: int,
            last: tuple[int, str, int, str] | None, scores: list[float] | None
            ) -> dict[str, Any]:
    """What `seat` may know of `st` (the contract's `Observation.to_dict()`)."""
    me = st.seats[seat]
    melds = []
    for s, ss in enumerate(st.seats):
        row = []
        for m in ss.melds:
            hidden = m.shape in ("concealed", "golden") and s != seat
            row.append({"kind": "pung" if m.shape == PUNG else "kong", "type": m.shape,
                        "tile": None if hidden else TILE_NAMES[m.kind]})
        melds.append(row)
    drawn = None
    if last is not None and last[0] == seat and last[1] in HIDDEN_DRAWS and last[2] < NUM_KINDS:
        drawn = TILE_NAMES[last[2]]
    last_discard = None
    if last is not None and last[1] == "discard":
        last_discard = {"seat": last[0], "tile": TILE_NAMES[last[2]]}
    return {"seat": seat, "dealer": st.dealer,
            "hand": format_tiles(k for k in range(NUM_KINDS) for _ in range(me.counts[k])),
            "drawn": drawn, "melds": melds,
            "discards": [[TILE_NAMES[t] for t in ss.river] for ss in st.seats],
            "flowers": [[TILE_NAMES[t] for t in ss.flowers] for ss in st.seats],
            "indicator": TILE_NAMES[st.wall.indicator],
            "hun": [TILE_NAMES[k] for k in st.hun],
            "tiles_held": [ss.size() for ss in st.seats], "wall_left": wall_left,
            "scores": scores, "turn": turn, "last_discard": last_discard}


class ThreadEngine:
    """The contract's Table over `play_hand` in a thread (see the module's docstring)."""

    bots_inside = True

    def __init__(self, rs: Ruleset, seed: int, dealer: int, bots: dict[int, str],
                 scores: list[float] | None = None) -> None:
        self.rs, self.scores = rs, scores
        self.rules = game_rules(rs)
        self._cv = threading.Condition()
        self._ask: tuple[int, list[Action]] | None = None
        self._greedy: Callable[[], Action] | None = None
        self._answer: Action | None = None
        self._events: list[tuple[int, str, int, str]] = []
        self._st: HandState | None = None
        self._rec: HandRecord | None = None
        self._error: str | None = None
        seats: list[players_mod.Player] = []
        for s in range(self.rules.players):
            name = bots.get(s)
            seats.append(players_mod.make_player(name, rs, seed * 31 + s) if name
                         else _Asked(self, s))
        self._thread = threading.Thread(target=self._play, args=(seats, seed, dealer),
                                        daemon=True, name="rulekit-table")
        self._thread.start()
        self._settle()

    # -- the hand's thread -----------------------------------------------------------------
    def _play(self, seats: list[players_mod.Player], seed: int, dealer: int) -> None:
        try:
            rec = play_hand(self.rs, seats, seed=seed, dealer=dealer, observer=self._observe)
            with self._cv:
                self._rec = rec
        except BaseException as err:       # noqa: BLE001 - reported by the next call
            with self._cv:
                self._error = f"{type(err).__name__}: {err}"
        finally:
            with self._cv:
                self._cv.notify_all()

    def _observe(self, st: HandState, e: tuple[int, str, int, str]) -> None:
        with self._cv:
            self._st = st
            self._events.append(e)

    def decide(self, seat: int, legal: list[Action], greedy: Callable[[], Action]) -> Action:
        """Called in the hand's thread: park until `act` answers. `greedy` is what the
        built-in greedy player would answer (the fallback)."""
        with self._cv:
            self._ask, self._answer, self._greedy = (seat, legal), None, greedy
            self._cv.notify_all()
            while self._answer is None:
                self._cv.wait()
            got, self._answer, self._ask = self._answer, None, None
            return got

    # -- the interface ---------------------------------------------------------------------
    def _settle(self) -> None:
        with self._cv:
            while self._ask is None and self._rec is None and self._error is None:
                self._cv.wait()
            if self._error is not None:
                raise EngineError(f"the hand broke: {self._error}")

    @property
    def over(self) -> bool:
        with self._cv:
            return self._rec is not None

    def pending(self) -> tuple[int, ...]:
        with self._cv:
            return (self._ask[0],) if self._ask is not None else ()

    def legal(self, seat: int) -> list[Action]:
        with self._cv:
            if self._ask is None or self._ask[0] != seat:
                return []
            return [dict(a) for a in self._ask[1]]

    def act(self, seat: int, action: Action) -> None:
        with self._cv:
            legal = self._ask[1] if self._ask is not None and self._ask[0] == seat else []
            if not any(same_action(action, a) for a in legal):
                shown = ", ".join(json.dumps(a) for a in legal) or "nothing (not your turn)"
                raise EngineError(f"seat {seat}: {json.dumps(action)[:200]} is not legal; "
                                  f"legal: {shown}")
            self._answer, self._ask = dict(action), None
            self._cv.notify_all()
        self._settle()

    def fallback(self, seat: int) -> Action:
        """The greedy player's answer to the pending decision (docs/bots.md, "Faults")."""
        with self._cv:
            if self._ask is None or self._ask[0] != seat or self._greedy is None:
                raise EngineError(f"nothing is asked of seat {seat}")
            return self._greedy()

    def observation(self, seat: int) -> dict[str, Any]:
        with self._cv:
            st = self._st
            if st is None:
                raise EngineError("the hand has not been dealt")
            last = next((e for e in reversed(self._events)
                         if e[1] not in ("indicator",)), None)
            turn = self._ask[0] if self._ask is not None else (last[0] if last else st.dealer)
            left = st.wall.live(self.rules.draw_game_at)
            return observe(st, seat, left, turn, last, self.scores)

    def events(self, seat: int, since: int = 0) -> list[dict[str, Any]]:
        with self._cv:
            return [seat_event(e, seat) for e in self._events[since:]]

    def record(self) -> HandRecord:
        with self._cv:
            if self._rec is None:
                raise EngineError("the hand is not over")
            return self._rec


class _Asked(players_mod.Player):
    """A seat the engine asks through `decide`: the old player hooks as contract actions."""

    name = "asked"

    def __init__(self, engine: ThreadEngine, seat: int) -> None:
        self.engine, self.seat = engine, seat
        self.greedy = players_mod.GreedyPlayer()

    def choose_discard(self, st: HandState, seat: int, options: tuple[int, ...]) -> int:
        def greedy() -> Action:
            return {"action": "discard",
                    "tile": TILE_NAMES[self.greedy.choose_discard(st, seat, options)]}
        got = self.engine.decide(seat, [{"action": "discard", "tile": TILE_NAMES[k]}
                                         for k in options], greedy)
        return TILE_NAMES.index(got["tile"])

    def choose_claim(self, st: HandState, seat: int, tile: int, options: tuple[str, ...]) -> str:
        def greedy() -> Action:
            return {"action": self.greedy.choose_claim(st, seat, tile, options)}
        got = self.engine.decide(seat, [{"action": o} for o in options], greedy)
        return str(got["action"])

    def choose_kong(self, st: HandState, seat: int, options: tuple[players_mod.Kong, ...]
                    ) -> players_mod.Kong | None:
        def greedy() -> Action:
            got = self.greedy.choose_kong(st, seat, options)
            return {"action": "pass"} if got is None else \
                {"action": "kong", "tile": TILE_NAMES[got[0]], "kind": got[1]}
        legal: list[Action] = [{"action": "kong", "tile": TILE_NAMES[k], "kind": kind}
                               for k, kind in options]
        got = self.engine.decide(seat, legal + [{"action": "pass"}], greedy)
        if got["action"] == "pass":
            return None
        return TILE_NAMES.index(got["tile"]), str(got["kind"])

    def choose_win(self, st: HandState, seat: int, score: ScoreResult) -> bool:
        got = self.engine.decide(seat, [{"action": "win"}, {"action": "pass"}],
                                 lambda: {"action": "win"})
        return bool(got["action"] == "win")


Factory = Callable[[Ruleset, int, int, dict[int, str], "list[float] | None"], Engine]


def new_engine(rs: Ruleset, seed: int, dealer: int, bots: dict[int, str],
               scores: list[float] | None = None) -> Engine:
    """The referee for one hand: `rulekit.game.Table` when present, else `ThreadEngine`."""
    return ThreadEngine(rs, seed, dealer, bots, scores)
