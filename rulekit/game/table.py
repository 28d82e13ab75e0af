"""The referee: one hand's authoritative state, stepped by the seats' answers
(docs/bots.md). `Table` says who must decide, what each may do and see, and applies the
answers; `play_hand` is a loop over it that asks in-process players.

The table drives the procedure's generator (`rulekit.game.procedure`); it never lets a
seat reach the state: legal actions and observations are copies made when asked for.
"""
from __future__ import annotations

import json
import random
from typing import Any, Sequence

from rulekit.errors import RulekitError
from rulekit.game import wall as wall_mod
from rulekit.game.actions import Action
from rulekit.game.observation import Observation, observe
from rulekit.game import builtin
from rulekit.game.players import GreedyPlayer, Player
from rulekit.game.procedure import (Event, HandRecord, IllegalMove, Observer, Request, _Hand,
                                    event_dict)
from rulekit.game.rules import GameRules, game_rules
from rulekit.game.state import HandState, SeatState
from rulekit.hand import hun_of
from rulekit.ruleset.model import Ruleset
from rulekit.tiles import NUM_KINDS

_HIDDEN_TILE = frozenset({"draw", "replacement", "concealed_kong", "golden_kong"})


class Table:
    """One hand under a ruleset. `pending()` names the seats that must decide now,
    `legal(seat)` what each may answer, `act(seat, action)` applies an answer; `events(seat)`
    and `observation(seat)` are what that seat may know; `record()` once `over`."""

    def __init__(self, ruleset: Ruleset, seed: int | None = None, dealer: int = 0,
                 scores: Sequence[float] | None = None, *, rules: GameRules | None = None,
                 order: Sequence[int] | None = None, hun_dice: tuple[int, ...] = (),
                 observer: Observer | None = None) -> None:
        rules = rules or game_rules(ruleset)
        if not 0 <= dealer < rules.players:
            raise RulekitError(f"dealer: a seat from 0 to {rules.players - 1}, not {dealer}")
        self.ruleset, self.rules, self.seed = ruleset, rules, seed
        self.scores = tuple(scores) if scores is not None else None
        if self.scores is not None and len(self.scores) != rules.players:
            raise RulekitError(f"scores: one total per seat ({rules.players}), "
                               f"not {len(self.scores)}")
        self.dice: tuple[int, ...] = ()
        if order is None:
            w, self.dice, hun_dice = wall_mod.build(random.Random(seed), dealer, rules.players,
                                                    rules.break_dice, rules.flowers)
        else:
            w = wall_mod.from_order(list(order), hun_dice)
        self.hun_dice = hun_dice
        st = HandState(w, dealer, hun_of(w.indicator, rules.hun_kinds, rules.hun_successor),
                       [SeatState() for _ in range(rules.players)], [0] * NUM_KINDS)
        self._hand = _Hand(ruleset, rules, st, observer)
        self._run = self._hand.run()
        self._open: dict[int, Request] = {}
        self._answers: dict[int, Action] = {}
        self._group = False
        self._pending: tuple[int, ...] = ()
        self.over = False
        self._advance(None)

    def _advance(self, answer: Any) -> None:
        try:
            got = self._run.send(answer)
        except StopIteration:
            self._asked(None)
            return
        self._asked(got)

    def _asked(self, got: Request | tuple[Request, ...] | None) -> None:
        """Open the procedure's next question (None: the hand is over)."""
        if got is None:
            self._open, self._pending = {}, ()
            self.over = True
        elif isinstance(got, Request):
            self._open, self._group, self._pending = {got.seat: got}, False, (got.seat,)
        else:
            self._open, self._group = {r.seat: r for r in got}, True
            self._pending = tuple(sorted(self._open))
            self._answers = {}

    def pending(self) -> tuple[int, ...]:
        """The seats that must decide now, in seat order; () once the hand is over."""
        return self._pending

    def legal(self, seat: int) -> list[Action]:
        """Fresh copies of the seat's legal actions; [] for a seat not pending."""
        r = self._open.get(seat)
        return list(map(dict.copy, r.legal)) if r is not None else []

    def act(self, seat: int, action: object) -> None:
        """Apply the seat's answer (an `Action`; anything else is refused as not legal, as
        a bot may send anything) and advance the hand to the next decision."""
        r = self._open.get(seat)
        if r is None:
            raise IllegalMove(f"seat {seat} has nothing to decide now (pending: "
                              f"{list(self.pending())})")
        for mine in r.legal:
            if mine == action:
                break
        else:
            raise IllegalMove(f"seat {seat}: {_shown(action)} is not legal; legal: "
                              + ", ".join(_shown(a) for a in r.legal))
        if not self._group:
            self._advance(mine)
            return
        self._answers[seat] = mine
        del self._open[seat]
        self._pending = tuple(sorted(self._open))
        if not self._open:
            self._advance(self._answers)

    def observation(self, seat: int) -> Observation:
        """What `seat` may know now, as a value of its own."""
        if not 0 <= seat < self.rules.players:
            raise RulekitError(f"seat: 0 to {self.rules.players - 1}, not {seat}")
        h = self._hand
        r = self._open.get(seat)
        return observe(h.st, seat, h.st.wall.live(self.rules.draw_game_at), h.seen,
                       self.scores, r.drawn if r is not None else None,
                       r.win if r is not None else None)

    def events(self, seat: int, since: int = 0) -> list[dict[str, Any]]:
        """The events `seat` may see, from index `since`: others' draws, replacements and
        concealed kongs carry no tile (a flower drawn is shown), others' deals no tiles."""
        h = self._hand
        pre = h.pre_events
        out = [dict(e) for e in pre[since:]]
        for e in h.events[max(0, since - len(pre)):]:
            out.append(event_dict(seen_by(e, seat)))
        return out

    @property
    def state(self) -> HandState:
        """The authoritative state, for the referee's own checks (tests); never a player's."""
        return self._hand.st

    def record(self) -> HandRecord:
        """The hand's record, once it is over (the one `play_hand` returns)."""
        if not self.over:
            raise RulekitError("the hand is not over: no record yet")
        h, w = self._hand, self._hand.st.wall
        return HandRecord(self.seed, h.st.dealer, self.dice, self.hun_dice, tuple(w.tiles),
                          w.indicator, tuple(h.events), h.result, h.settle)


def seen_by(e: Event, seat: int) -> Event:
    """The event as `seat` sees it."""
    s, action, tile, rule = e
    if s == seat:
        return e
    if action == "deal":
        return (s, action, -1, rule.split(":")[0])
    if action in _HIDDEN_TILE and tile < NUM_KINDS:
        return (s, action, -1, rule)
    return e


def _play_greedy(t: Table, players: Sequence[Player]) -> None:
    """Built-in greedy players at every seat: `rulekit.game.builtin.drive` answers from the
    state (the moves `GreedyPlayer.act` makes from its observation) until a question greedy
    answers from its settings (坐莊, 拉莊, 天聽) or a simultaneous one, which go the usual
    way."""
    h = t._hand
    scorers = [p.scorer.core if isinstance(p, GreedyPlayer) and p.scorer else None
               for p in players]
    while not t.over:
        if not t._group and h.seen.dealt:
            t._asked(builtin.drive(t._run, t._open[t._pending[0]], h.st, h.seen, scorers))
            if t.over:
                return
        for seat in t.pending():
            legal = t._open[seat].legal
            got = _settings_answer(players[seat], legal)
            if got is None:
                got = players[seat].act(t.observation(seat), t.legal(seat))
            t.act(seat, got)


def _settings_answer(p: Player, legal: list[Action]) -> Action | None:
    """`GreedyPlayer.act`'s answer where it reads nothing of the observation
    (`builtin.settings_answer`: 坐莊, 拉莊, 天聽, four a hand under tianjin); None for the
    questions `act` answers from the observation."""
    return builtin.settings_answer(p.sits, p.pulls, legal)


def _shown(a: object) -> str:
    try:
        return json.dumps(a, ensure_ascii=False, sort_keys=True)
    except (TypeError, ValueError):
        return repr(a)[:80]


def play_hand(rs: Ruleset, players: Sequence[Player], *, seed: int | None, dealer: int = 0,
              rules: GameRules | None = None, order: Sequence[int] | None = None,
              hun_dice: tuple[int, ...] = (), observer: Observer | None = None,
              scores: Sequence[float] | None = None) -> HandRecord:
    """Play one hand, asking each in-process player from its observation and legal actions.
    With `order` (a wall in dealing order) and `hun_dice` the wall is given (a replay);
    otherwise `random.Random(seed)` shuffles and rolls."""
    rules = rules or game_rules(rs)
    if len(players) != rules.players:
        raise RulekitError(f"{len(players)} players for a {rules.players}-player ruleset")
    t = Table(rs, seed, dealer, scores, rules=rules, order=order, hun_dice=hun_dice,
              observer=observer)
    for seat, p in enumerate(players):
        p.start(seat, rs.name)
    listening = [s for s, p in enumerate(players) if type(p).event is not Player.event]
    seen = [0] * len(players)
    if not listening and all(type(p) is GreedyPlayer for p in players):
        _play_greedy(t, players)
    while not t.over:
        for seat in t.pending():
            t.act(seat, players[seat].act(t.observation(seat), t.legal(seat)))
        for s in listening:
            for e in t.events(s, seen[s]):
                players[s].event(e)
                seen[s] += 1
    rec = t.record()
    for s in listening:
        for e in t.events(s, seen[s]):
            players[s].event(e)
    for p in players:
        p.end(rec.result)
    return rec
