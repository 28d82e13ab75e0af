"""Players: the interface an in-process player implements, and three built-in ones.

A player decides from its seat's `Observation` and the list of legal actions only
(`act(obs, legal)` returns one element of `legal`; the table refuses anything else with
`IllegalMove`). Both are copies: a player that changes them changes nothing at the table.
`random` picks uniformly among legal moves; `greedy` discards toward the lowest
`shape.deficiency`, preferring waits that can reach the ruleset's minimum, and never a hun
(小相公 would forbid its win); `value` plays as greedy until its hand is ready, then keeps the
wait whose wins are worth the most fan. 坐莊 and 拉莊 follow the ruleset's `game.dealer_sits`
and `game.pulls` (the table settings these were before they were choices).
"""
from __future__ import annotations

import random
from typing import Any

from rulekit.game import actions
from rulekit.game.actions import Action, find, tile_of
from rulekit.game import greedy
from rulekit.game.builtin import default_choice as default_choice, settings_choice
from rulekit.game.greedy import greedy_discard, ranked_discards
from rulekit.game.observation import Observation
from rulekit.game.rules import GameRules
from rulekit.game.state import ADDED, GOLDEN
from rulekit.ruleset.model import Ruleset
from rulekit.tiles import NUM_KINDS, TILE_NAMES

Kong = tuple[int, str]          # kind, and "concealed", "golden" or "added"


class Player:
    """The interface, and the defaults: sit and pull as the table settings say, take every
    win, claim, kong and declare nothing, discard the first legal tile. `start` and `end`
    are optional hooks."""

    name = "player"
    sits = False                 # 坐莊 when the dealer (game.dealer_sits)
    pulls = 0                    # 拉莊 count as a non-dealer (game.pulls)

    def act(self, obs: Observation, legal: list[Action]) -> Action:
        """One element of `legal`."""
        return self.table_choice(legal) or default_choice(legal)

    def table_choice(self, legal: list[Action]) -> Action | None:
        """The 坐莊 / 拉莊 answer from the player's settings, if that is the question."""
        return settings_choice(self.sits, self.pulls, legal)

    def start(self, seat: int, ruleset: str) -> None:
        """Called before a hand with the seat and the ruleset's name (optional)."""

    def event(self, event: dict[str, Any]) -> None:
        """Called with each event the seat may see, in order (optional; `play_hand` calls it
        only for players that override it)."""

    def end(self, result: dict[str, Any]) -> None:
        """Called after a hand with its result (optional)."""


def split_counts(obs: Observation) -> tuple[list[int], int, int]:
    """The seat's concealed tiles as `rulekit.shape` takes them: non-hun counts, hun held,
    melds declared."""
    c = list(obs.hand)
    h = 0
    for k in obs.hun:
        h += c[k]
        c[k] = 0
    return c, h, len(obs.melds[obs.seat])


class RandomPlayer(Player):
    """Uniform among the legal moves (a win is always taken; a kong or not, uniformly among
    the kongs and not konging, then a discard)."""

    name = "random"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def act(self, obs: Observation, legal: list[Action]) -> Action:
        got = self.table_choice(legal)
        if got is not None:
            return got
        if legal[0]["action"] == "win":
            return legal[0]
        discards = find(legal, "discard")
        if not discards:                      # a claim, or 天聽: uniform among the options
            return self.rng.choice(legal)
        kongs = find(legal, "kong")
        if kongs:
            k: Action | None = self.rng.choice([None, *kongs])
            if k is not None:
                return k
        return self.rng.choice(discards)


WAIT_MEMO = greedy.WAIT_MEMO
WAIT_ENTRY_BYTES = greedy.WAIT_ENTRY_BYTES


class WaitScorer:
    """The fan a wait would win with, scored by the ruleset from a hand document built from
    the seat's own observation (self-drawn), 0 where the ruleset would not let it win
    (below `win.minimum`, 小相公, ...); remembered per hand shape (`core`: the compiled
    `rulekit.game.greedy.WaitScorer` doing the work on the observation's `View`)."""

    def __init__(self, rs: Ruleset) -> None:
        self.rs = rs
        self.core = greedy.WaitScorer(rs)

    def waits(self, obs: Observation, counts: list[int]) -> list[int]:
        """The kinds that complete the 13 tiles `counts` (hun kinds last: a hun drawn
        completes any ready hand), or [] if it is not ready."""
        return self.core.waits(view(obs), counts)

    def fan(self, obs: Observation, counts: list[int], w: int) -> float:
        return self.core.fan(view(obs), counts, w)

    def can_win(self, obs: Observation, counts: list[int]) -> bool:
        """Some real wait of the 13 tiles `counts` (not a hun drawn) with a copy not in
        sight wins under the ruleset."""
        return self.core.can_win(view(obs), counts)


def view(obs: Observation) -> greedy.View:
    """The values greedy reads, from a seat's observation."""
    assert obs.indicator is not None          # asked only once the tiles are dealt
    s = obs.seat
    last = obs.last_discard
    return greedy.View(list(obs.hand), obs.hun, obs.melds[s],
                       -1 if obs.drawn is None else obs.drawn, -1 if last is None else last[1],
                       obs.indicator, obs.discarded_hun[s], obs.flowers[s], obs.ready[s],
                       lambda: [obs.visible(k) - obs.hand[k] for k in range(NUM_KINDS)])


ALTERNATIVES = greedy.ALTERNATIVES


class GreedyPlayer(Player):
    """Toward the lowest deficiency; claims and kongs that do not set the hand back. With a
    ruleset, a discard that makes the hand ready keeps a wait that can win: among the
    discards that leave it ready, the first (in greedy's order) whose waits reach the
    ruleset's minimum (issue 21: a 提溜-only wait never wins under a 2-fan minimum). The
    decisions are `rulekit.game.greedy`'s, on the observation's `View`."""

    name = "greedy"

    def __init__(self, rs: Ruleset | None = None) -> None:
        self.scorer = WaitScorer(rs) if rs is not None else None

    def act(self, obs: Observation, legal: list[Action]) -> Action:
        first = legal[0]["action"]
        if first == "win":
            return legal[0]
        if legal[-1]["action"] == "discard":          # own turn: kongs, then discards
            if first == "kong":
                kongs = find(legal, "kong")
                k = self.choose_kong(obs, [(tile_of(a), a["kind"]) for a in kongs])
                if k is not None:
                    return actions.kong(*k)
            return actions.discard(self.choose_discard(obs, legal))
        if len(legal) > 1 and legal[1]["action"] == "pung":
            return {"action": self.choose_claim(obs, len(legal) > 2)}
        return self.table_choice(legal) or default_choice(legal)

    def choose_discard(self, obs: Observation, legal: list[Action]) -> int:
        return greedy.choose_discard(self.scorer.core if self.scorer else None, view(obs),
                                     legal)

    @staticmethod
    def was_ready(obs: Observation) -> bool:
        """The hand was ready before this draw (greedy chose its wait then)."""
        return greedy.was_ready(view(obs))

    def choose_claim(self, obs: Observation, kong: bool) -> str:
        return greedy.choose_claim(view(obs), kong)

    def choose_kong(self, obs: Observation, options: list[Kong]) -> Kong | None:
        return greedy.choose_kong(view(obs), options)


class ValuePlayer(GreedyPlayer):
    """Greedy until ready; then, among the discards that keep the hand ready, the one whose
    waits are worth most: the fan of each winning tile (scored by the ruleset from a hand
    document built from its own observation) times the copies of it not in sight. Takes a
    金杠 whenever offered (its points are paid win or not)."""

    name = "value"

    def __init__(self, rs: Ruleset) -> None:
        super().__init__(rs)
        self.rs = rs

    def choose_kong(self, obs: Observation, options: list[Kong]) -> Kong | None:
        for o in options:
            if o[1] == GOLDEN:
                return o
        return super().choose_kong(obs, options)

    def choose_discard(self, obs: Observation, legal: list[Action]) -> int:
        c, h, m = split_counts(obs)
        got = greedy_discard(c, h, m)
        if got is None or got[1] != 1:
            return got[0] if got else tile_of(find(legal, "discard")[0])
        ranked = ranked_discards(c, h, m)
        face_up = [obs.visible(k) - obs.hand[k] for k in range(NUM_KINDS)]
        best, pick = -1.0, ranked[0][2]
        for d, _, k in ranked:
            if d != 1:
                break
            ev = self.expected_fan(obs, face_up, k)
            if ev > best:
                best, pick = ev, k
        return pick

    def expected_fan(self, obs: Observation, face_up: list[int], discard: int) -> float:
        """Σ over winning tiles of fan × unseen copies, for the hand without `discard`."""
        assert self.scorer is not None
        counts = list(obs.hand)
        counts[discard] -= 1
        total = 0.0
        for w in self.scorer.waits(obs, counts):
            n = max(0, 4 - face_up[w] - counts[w])
            if n:
                total += n * self.scorer.fan(obs, counts, w)
        return total


class ScriptedPlayer(Player):
    """Plays the moves of a recorded hand (replay): each choice is the next recorded event;
    坐莊 and 拉莊 come from the record's `dealer_sits` and `pulls`."""

    name = "scripted"

    def __init__(self, script: "Script", sits: bool = False,
                 pulls: list[int] | None = None) -> None:
        self.script = script
        self.record_sits = sits
        self.record_pulls = pulls or []

    def act(self, obs: Observation, legal: list[Action]) -> Action:
        what = {a["action"] for a in legal}
        if "sit" in what:
            return legal[0] if self.record_sits else legal[1]
        if "pull" in what:
            n = self.record_pulls[obs.seat] if obs.seat < len(self.record_pulls) else 0
            return actions.pull(n) if n else actions.pass_()
        e = self.script.peek()
        mine = e is not None and e[0] == obs.seat
        if "discard" in what:
            if mine and e is not None and e[1] == "win":
                return actions.win()
            if mine and e is not None and e[1] in _KONG_EVENTS:
                return actions.kong(e[2], _KONG_EVENTS[e[1]])
            return actions.discard(self.script.expect(obs.seat, ("discard",))[2])
        if mine and e is not None:
            if "pung" in what and e[1] in ("pung", "kong") and obs.last_discard is not None \
                    and e[2] == obs.last_discard[1]:
                return {"action": e[1]}
            if e[1] in ("win", "ready") and e[1] in what:
                return {"action": e[1]}
        return actions.pass_()


_KONG_EVENTS = {"added_kong": ADDED, "concealed_kong": "concealed", "golden_kong": GOLDEN}


class ReplayMismatch(Exception):
    """The recorded moves cannot be played (under another ruleset, the play diverges)."""


class Script:
    """The recorded events of a hand, and how many the replay has produced so far."""

    def __init__(self, events: list[tuple[int, str, int, str]]) -> None:
        self.events = events
        self.at = 0

    def observe(self, st: object, e: tuple[int, str, int, str]) -> None:
        self.at += 1

    def peek(self) -> tuple[int, str, int, str] | None:
        return self.events[self.at] if self.at < len(self.events) else None

    def expect(self, seat: int, what: tuple[str, ...]) -> tuple[int, str, int, str]:
        e = self.peek()
        if e is None or e[0] != seat or e[1] not in what:
            got = "the end" if e is None else \
                f"seat {e[0]} {e[1]} {TILE_NAMES[e[2]] if e[2] >= 0 else ''}"
            raise ReplayMismatch(f"event {self.at}: seat {seat} must {'/'.join(what)}, "
                                 f"the record has {got.strip()}")
        return e


PLAYERS = ("random", "greedy", "value")


def make_player(name: str, rs: Ruleset, seed: int, rules: GameRules | None = None
                ) -> Player:
    """A built-in player by name (`random` is seeded with `seed`); it sits and pulls as the
    ruleset's `game.dealer_sits` and `game.pulls` say (`rules`: the ruleset's, if the
    caller has them already)."""
    p: Player
    if name == "greedy":                    # four a simulated hand: no table of makers
        p = GreedyPlayer(rs)
    elif name == "random":
        p = RandomPlayer(seed)
    elif name == "value":
        p = ValuePlayer(rs)
    else:
        raise ValueError(f"unknown player {name!r}; built-in players: {', '.join(PLAYERS)}")
    if rules is None:
        from rulekit.game.rules import game_rules
        rules = game_rules(rs)
    p.sits, p.pulls = rules.dealer_sits, rules.pulls
    return p
