"""Players: the interface a game server or a bot implements, and three built-in ones.

Each choice is offered with its legal options; the procedure refuses anything else with
`IllegalMove`. A player reads the `HandState` (its own seat's tiles and what is face up)
and must not change it. `random` picks uniformly among legal moves; `greedy` discards toward
the lowest `shape.deficiency` and never a hun (小相公 would forbid its win); `value` plays
as greedy until its hand is ready, then keeps the wait whose wins are worth the most fan.
"""
from __future__ import annotations

import random
from typing import Any, Callable

from rulekit import shape
from rulekit.game.state import ADDED, GOLDEN, HandState
from rulekit.ruleset.model import Ruleset
from rulekit.scoring import ScoreResult, score_document
from rulekit.tiles import TILE_NAMES

Kong = tuple[int, str]          # kind, and "concealed", "golden" or "added"


class Player:
    """The interface. The defaults: take every win, claim and kong nothing, discard the
    first legal tile."""

    name = "player"

    def choose_discard(self, st: HandState, seat: int, options: tuple[int, ...]) -> int:
        return options[0]

    def choose_claim(self, st: HandState, seat: int, tile: int, options: tuple[str, ...]) -> str:
        """One of `options`: "pass", "pung", "kong"."""
        return "pass"

    def choose_kong(self, st: HandState, seat: int, options: tuple[Kong, ...]) -> Kong | None:
        return None

    def choose_win(self, st: HandState, seat: int, score: ScoreResult) -> bool:
        return True


class RandomPlayer(Player):
    """Uniform among the legal moves (a win is always taken)."""

    name = "random"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose_discard(self, st: HandState, seat: int, options: tuple[int, ...]) -> int:
        return self.rng.choice(options)

    def choose_claim(self, st: HandState, seat: int, tile: int, options: tuple[str, ...]) -> str:
        return self.rng.choice(options)

    def choose_kong(self, st: HandState, seat: int, options: tuple[Kong, ...]) -> Kong | None:
        return self.rng.choice((None,) + options)


def _keep_value(c: list[int], k: int) -> int:
    """How connected a tile is (neighbours within two in its suit; pairs for honours):
    among equally good discards the least connected goes first."""
    if k >= 27:
        return c[k] - 1
    r = k % 9
    base = k - r
    lo = base + (r - 2 if r >= 2 else 0)
    hi = base + (r + 3 if r <= 6 else 9)
    total = -c[k]
    for j in range(lo, hi):
        total += c[j]
    return total


def ranked_discards(st: HandState, seat: int) -> list[tuple[int, int, int]]:
    """(deficiency after, connectedness, kind) for each non-hun kind held, best first."""
    c, h = st.shape_counts(seat)
    m = len(st.seats[seat].melds)
    out = []
    for k in range(34):
        if c[k]:
            c[k] -= 1
            d = shape.deficiency(c, h, m)
            c[k] += 1
            out.append((d, _keep_value(c, k), k))
    out.sort()
    return out


def greedy_discard(st: HandState, seat: int) -> tuple[int, int] | None:
    """(kind, deficiency after) of `ranked_discards(...)[0]`, with fewer deficiency calls:
    a 14-tile hand that does not win has a tile its best reading leaves unused, so the best
    discard reaches max(deficiency of the 14, 1); the least connected tile that does wins."""
    c, h = st.shape_counts(seat)
    m = len(st.seats[seat].melds)
    kinds = [k for k in range(34) if c[k]]
    if not kinds:
        return None
    target = max(shape.deficiency(c, h, m), 1)
    order = sorted(kinds, key=lambda k: _keep_value(c, k) * 64 + k) if len(kinds) > 1 \
        else kinds
    best = (order[0], 99)
    for k in order:
        c[k] -= 1
        d = shape.deficiency(c, h, m)
        c[k] += 1
        if d == target:
            return k, d
        if d < best[1]:
            best = (k, d)
    return best


class GreedyPlayer(Player):
    """Toward the lowest deficiency; claims and kongs that do not set the hand back."""

    name = "greedy"

    def choose_discard(self, st: HandState, seat: int, options: tuple[int, ...]) -> int:
        got = greedy_discard(st, seat)
        return got[0] if got else options[0]

    def choose_claim(self, st: HandState, seat: int, tile: int, options: tuple[str, ...]) -> str:
        c, h = st.shape_counts(seat)
        m = len(st.seats[seat].melds)
        now = shape.deficiency(c, h, m)
        if "kong" in options:
            c[tile] -= 3
            after = shape.deficiency(c, h, m + 1)
            c[tile] += 3
            if after <= now:
                return "kong"
        c[tile] -= 2
        best = 99
        for k in range(34):
            if c[k]:
                c[k] -= 1
                best = min(best, shape.deficiency(c, h, m + 1))
                c[k] += 1
        return "pung" if best < now else "pass"

    def choose_kong(self, st: HandState, seat: int, options: tuple[Kong, ...]) -> Kong | None:
        got = greedy_discard(st, seat)
        now = got[1] if got else 99
        c, h = st.shape_counts(seat)
        m = len(st.seats[seat].melds)
        for k, kind in options:
            if kind == ADDED:
                c[k] -= 1
                after = shape.deficiency(c, h, m)
                c[k] += 1
            elif kind == GOLDEN:
                after = shape.deficiency(c, h - 4, m + 1)
            else:
                c[k] -= 4
                after = shape.deficiency(c, h, m + 1)
                c[k] += 4
            if after <= now:
                return (k, kind)
        return None


class ValuePlayer(GreedyPlayer):
    """Greedy until ready; then, among the discards that keep the hand ready, the one whose
    waits are worth most: the fan of each winning tile (scored by the ruleset) times the
    copies of it not in sight. Takes a 金杠 whenever offered (its points are paid win or not).
    To score a wait it changes its own seat's counts for a moment and puts them back."""

    name = "value"

    def __init__(self, rs: Ruleset) -> None:
        self.rs = rs
        self.cache: dict[tuple[Any, ...], float] = {}

    def choose_kong(self, st: HandState, seat: int, options: tuple[Kong, ...]) -> Kong | None:
        for o in options:
            if o[1] == GOLDEN:
                return o
        return super().choose_kong(st, seat, options)

    def choose_discard(self, st: HandState, seat: int, options: tuple[int, ...]) -> int:
        got = greedy_discard(st, seat)
        if got is None or got[1] != 1:
            return got[0] if got else options[0]
        ranked = ranked_discards(st, seat)
        best, pick = -1.0, ranked[0][2]
        for d, _, k in ranked:
            if d != 1:
                break
            ev = self.expected_fan(st, seat, k)
            if ev > best:
                best, pick = ev, k
        return pick

    def expected_fan(self, st: HandState, seat: int, discard: int) -> float:
        """Σ over winning tiles of fan × unseen copies, for the hand without `discard`."""
        s = st.seats[seat]
        s.counts[discard] -= 1
        try:
            c, h = st.shape_counts(seat)
            waits = [w for w in shape.waits(c, h, len(s.melds)) if not st.is_hun(w)]
            if not waits:
                return 0.0
            total = 0.0
            for w in waits + list(st.hun):
                n = st.unseen(seat, w)
                if n:
                    total += n * self.fan_with(st, seat, w)
            return total
        finally:
            s.counts[discard] += 1

    def fan_with(self, st: HandState, seat: int, w: int) -> float:
        from rulekit.game.documents import hand_doc
        s = st.seats[seat]
        key = (tuple(s.counts), tuple((m.kind, m.shape) for m in s.melds), w,
               st.wall.indicator, s.discarded_hun)
        got = self.cache.get(key)
        if got is None:
            s.counts[w] += 1
            try:
                res = score_document(hand_doc(st, seat, w, "self_draw"), self.rs)
            finally:
                s.counts[w] -= 1
            got = float(res.total_fan) if res.win else 0.0
            self.cache[key] = got
        return got


class ScriptedPlayer(Player):
    """Plays the moves of a recorded hand (replay): each choice is the next recorded event."""

    name = "scripted"

    def __init__(self, script: "Script") -> None:
        self.script = script

    def choose_discard(self, st: HandState, seat: int, options: tuple[int, ...]) -> int:
        e = self.script.expect(seat, ("discard",))
        return e[2]

    def choose_claim(self, st: HandState, seat: int, tile: int, options: tuple[str, ...]) -> str:
        e = self.script.peek()
        if e is not None and e[0] == seat and e[1] in ("pung", "kong") and e[2] == tile:
            return e[1]
        return "pass"

    def choose_kong(self, st: HandState, seat: int, options: tuple[Kong, ...]) -> Kong | None:
        e = self.script.peek()
        kinds = {"added_kong": ADDED, "concealed_kong": "concealed", "golden_kong": GOLDEN}
        if e is not None and e[0] == seat and e[1] in kinds:
            return (e[2], kinds[e[1]])
        return None

    def choose_win(self, st: HandState, seat: int, score: ScoreResult) -> bool:
        e = self.script.peek()
        return e is not None and e[0] == seat and e[1] == "win"


class ReplayMismatch(Exception):
    """The recorded moves cannot be played (under another ruleset, the play diverges)."""


class Script:
    """The recorded events of a hand, and how many the replay has produced so far."""

    def __init__(self, events: list[tuple[int, str, int, str]]) -> None:
        self.events = events
        self.at = 0

    def observe(self, st: HandState, e: tuple[int, str, int, str]) -> None:
        self.at += 1

    def peek(self) -> tuple[int, str, int, str] | None:
        return self.events[self.at] if self.at < len(self.events) else None

    def expect(self, seat: int, actions: tuple[str, ...]) -> tuple[int, str, int, str]:
        e = self.peek()
        if e is None or e[0] != seat or e[1] not in actions:
            got = "the end" if e is None else f"seat {e[0]} {e[1]} {TILE_NAMES[e[2]] if e[2] >= 0 else ''}"
            raise ReplayMismatch(f"event {self.at}: seat {seat} must {'/'.join(actions)}, "
                                 f"the record has {got.strip()}")
        return e


PLAYERS = ("random", "greedy", "value")


def make_player(name: str, rs: Ruleset, seed: int) -> Player:
    """A built-in player by name (`random` is seeded with `seed`)."""
    makers: dict[str, Callable[[], Player]] = {
        "random": lambda: RandomPlayer(seed), "greedy": GreedyPlayer,
        "value": lambda: ValuePlayer(rs)}
    if name not in makers:
        raise ValueError(f"unknown player {name!r}; built-in players: {', '.join(PLAYERS)}")
    return makers[name]()

