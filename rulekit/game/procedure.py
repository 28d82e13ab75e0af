"""One hand, played: deal, 開混, turns, claims, kongs, the end (a win or 荒莊), then the score
and the payments through `rulekit.settle` (000/Ⅲ; docs/game.md, "The procedure").

Every step is an event `(seat, action, tile, rule)`; `rule` names the rule the step applied.
The only randomness is the `random.Random(seed)` that shuffles and rolls: players bring their
own, so the same seed always gives the same wall and the same dice.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from rulekit import shape
from rulekit.errors import RulekitError
from rulekit.game import documents, wall as wall_mod
from rulekit.game.players import Player
from rulekit.game.rules import GameRules, game_rules
from rulekit.game.state import (ADDED, CONCEALED, EXPOSED, GOLDEN, PUNG, HandState, Meld,
                                SeatState)
from rulekit.hand import win_by_allowed_by
from rulekit.ruleset.model import Ruleset
from rulekit.scoring import ScoreResult, score_document
from rulekit.settlement import settle_document
from rulekit.tiles import NUM_KINDS, TILE_NAMES, format_tiles, hun_kinds

Event = tuple[int, str, int, str]            # seat, action, tile kind (-1: none), rule
Observer = Callable[[HandState, Event], None]
KONG_RULE = {CONCEALED: "暗杠", GOLDEN: "金杠", ADDED: "明杠 (碰後補杠)", EXPOSED: "明杠"}
WIN_RULE = {"self_draw": "自摸", "kong_draw": "杠開", "last_draw": "海底撈", "discard": "點炮"}


class IllegalMove(RulekitError):
    """A player chose a move that was not among its legal options."""


@dataclass(frozen=True, slots=True)
class HandRecord:
    """A played hand: what was dealt, every event, and the result (docs/game.md, "Logs")."""

    seed: int | None
    dealer: int
    dice: tuple[int, ...]
    hun_dice: tuple[int, ...]
    wall: tuple[int, ...]
    indicator: int
    events: tuple[Event, ...]
    result: dict[str, Any]
    settle: dict[str, Any]            # the settle document the result was paid from

    def to_dict(self) -> dict[str, Any]:
        return {"seed": self.seed, "dealer": self.dealer, "dice": list(self.dice),
                "hun_dice": list(self.hun_dice), "indicator": TILE_NAMES[self.indicator],
                "wall": "".join(TILE_NAMES[t] for t in self.wall),
                "events": [event_dict(e) for e in self.events],
                "result": self.result}


def event_dict(e: Event) -> dict[str, Any]:
    seat, action, tile, rule = e
    d: dict[str, Any] = {"seat": seat, "action": action,
                         "tile": TILE_NAMES[tile] if tile >= 0 else None}
    if rule:
        d["rule"] = rule
    return d


class _Hand:
    """The state machine of one hand; `play_hand` is its only user."""

    def __init__(self, rs: Ruleset, rules: GameRules, st: HandState,
                 players: Sequence[Player], observer: Observer | None) -> None:
        self.rs, self.rules, self.st, self.players = rs, rules, st, players
        self.observer = observer
        self.events: list[Event] = []
        self.first_round: list[int] = []         # discards of the first go-round (鏟)
        self.outcome: tuple[int, dict[str, Any], int | None] | None = None
        self.first = -1                          # the dealer's last dealt tile

    def log(self, seat: int, action: str, tile: int = -1, rule: str = "") -> None:
        e = (seat, action, tile, rule)
        self.events.append(e)
        if self.observer is not None:
            self.observer(self.st, e)

    # -- the deal --------------------------------------------------------------------------
    def deal(self) -> int:
        """Three rounds of four tiles, one more each, the dealer a fourteenth (000/Ⅲ 拿牌);
        flowers shown and replaced from the tail, the dealer first. The dealer's last tile."""
        st, n = self.st, self.st.players
        order = [(st.dealer + i) % n for i in range(n)]
        dealt: list[list[int]] = [[] for _ in range(n)]
        for take in [4, 4, 4, 1]:
            for s in order:
                for _ in range(take):
                    dealt[s].append(self._head())
        dealt[st.dealer].append(self._head())
        for s in order:
            for t in dealt[s]:
                if t < NUM_KINDS:
                    st.seats[s].counts[t] += 1
                else:
                    st.seats[s].flowers.append(t)
        for s in order:
            self.log(s, "deal", -1, "拿牌: " + format_tiles(dealt[s]))
        st.seen[st.wall.indicator] += 1
        self.log((st.dealer + n // 2) % n, "indicator", st.wall.indicator,
                 "開混: hun " + " ".join(TILE_NAMES[k] for k in st.hun))
        last = dealt[st.dealer][-1]
        for s in order:
            for _ in range(len(st.seats[s].flowers)):
                got = self.replacement(s, "補花")
                if got is None:
                    raise RulekitError("the wall is too short to deal from")
                if s == st.dealer:
                    last = got
        return last

    def _head(self) -> int:
        i = self.st.wall.draw_head(self.rules.draw_game_at)
        if i is None:
            raise RulekitError("the wall is too short to deal from")
        return self.st.wall.tiles[i]

    # -- a seat's own turn -----------------------------------------------------------------
    def turn(self, seat: int, drawn: int, source: str) -> bool:
        """A seat holding 3k+2 tiles: win, kong, or discard. True when the hand is over."""
        while True:
            if source != PUNG and self.self_win(seat, drawn, source):
                return True
            options = self.kong_options(seat) if source != PUNG else []
            choice = self.players[seat].choose_kong(self.st, seat, tuple(options)) \
                if options else None
            if choice is None:
                break
            if choice not in options:
                raise IllegalMove(f"seat {seat}: kong {_kong_name(choice)} is not legal; legal: "
                                  + ", ".join(_kong_name(o) for o in options))
            if self.declare_kong(seat, choice):
                return True
            got = self.replacement(seat)
            if got is None:
                return self.draw_game()
            drawn, source = got, "replacement"
        self.discard(seat)
        return False

    def kong_options(self, seat: int) -> list[tuple[int, str]]:
        s = self.st.seats[seat]
        if len(s.melds) >= 4 or self.st.wall.taken_tail >= len(self.st.wall.tail_order):
            return []
        out: list[tuple[int, str]] = []
        for k in range(len(s.counts)):
            if s.counts[k] == 4:
                if not self.st.is_hun(k):
                    out.append((k, CONCEALED))
                elif self.rules.golden_kong:
                    out.append((k, GOLDEN))
        for m in s.melds:
            if m.shape == PUNG and s.counts[m.kind] >= 1:
                out.append((m.kind, ADDED))
        return out

    def declare_kong(self, seat: int, choice: tuple[int, str]) -> bool:
        """Lay the kong down; True if another seat robs it (搶杠) and the hand is over."""
        k, kind = choice
        s = self.st.seats[seat]
        if kind == ADDED:
            s.counts[k] -= 1
            pung = next(m for m in s.melds if m.kind == k and m.shape == PUNG)
            s.melds.remove(pung)              # melds in the order declared: the hand
            s.melds.append(Meld(k, EXPOSED))  # document's last kong is this one (context.last_kong)
            self.st.seen[k] += 1
            self.log(seat, "added_kong", k, KONG_RULE[ADDED])
            if self.rules.rob_kong and self.discard_wins(seat, k, "搶杠"):
                return True
        else:
            s.counts[k] -= 4
            s.melds.append(Meld(k, kind))
            self.st.seen[k] += 4
            self.log(seat, "golden_kong" if kind == GOLDEN else "concealed_kong", k,
                     KONG_RULE[kind])
        return False

    def replacement(self, seat: int, why: str = "杠後補牌") -> int | None:
        """A replacement from the tail (000/Ⅲ 杠後補牌, or 補花 for a flower); None if the
        head has reached it."""
        w = self.st.wall
        i = w.draw_tail()
        if i is None:
            return None
        rule = why
        if i // 2 == w.indicator_at // 2:
            rule += ": the indicator's stack, its other tile"
        return self.receive(seat, w.tiles[i], "replacement", rule)

    def receive(self, seat: int, t: int, action: str, rule: str) -> int | None:
        """A drawn tile into the hand; a flower is shown and replaced from the tail (補花).
        The tile finally kept, or None if the wall ran out."""
        s = self.st.seats[seat]
        if t < NUM_KINDS:
            s.counts[t] += 1
            self.log(seat, action, t, rule)
            return t
        s.flowers.append(t)
        self.log(seat, action, t, "補花: a flower, shown")
        return self.replacement(seat, "補花")

    def self_win(self, seat: int, drawn: int, source: str) -> bool:
        s, st = self.st.seats[seat], self.st
        c, h = st.shape_counts(seat)
        if not shape.is_win(c, h, len(s.melds)) and not self.rs.instant_wins:
            return False
        heavenly = source == "deal"
        earthly = (source == "draw" and seat != st.dealer and s.drawn == 1 and st.claims == 0
                   and not any(x.melds for x in st.seats))
        win_by = "kong_draw" if source == "replacement" else "self_draw"
        if source == "draw" and st.wall.live(self.rules.draw_game_at) == 0:
            win_by = "last_draw"
        if not win_by_allowed_by(win_by, self.rs.win_by):
            return False
        doc = documents.hand_doc(st, seat, drawn, win_by, heavenly=heavenly, earthly=earthly)
        rule = "天和" if heavenly else "地和" if earthly else WIN_RULE[win_by]
        return self.offer_win(seat, drawn, doc, rule, None)

    def offer_win(self, seat: int, tile: int, doc: dict[str, Any], rule: str,
                  discarder: int | None) -> bool:
        if not self.accepts(seat, doc):
            return False
        self.won(seat, tile, doc, rule, discarder)
        return True

    def accepts(self, seat: int, doc: dict[str, Any]) -> bool:
        """The ruleset lets the hand win (patterns, minimum, 小相公) and the player takes it."""
        score = score_document(doc, self.rs)
        return score.win and self.players[seat].choose_win(self.st, seat, score)

    def won(self, seat: int, tile: int, doc: dict[str, Any], rule: str,
            discarder: int | None) -> None:
        self.log(seat, "win", tile, rule)
        self.outcome = (seat, doc, discarder)

    # -- discards and claims ---------------------------------------------------------------
    def discard(self, seat: int) -> None:
        st, s = self.st, self.st.seats[seat]
        options = tuple(k for k in range(len(s.counts)) if s.counts[k])
        t = self.players[seat].choose_discard(st, seat, options)
        if t not in options:
            raise IllegalMove(f"seat {seat}: discard {_tile(t)} is not legal: not in the hand "
                              f"({format_tiles(options)})")
        s.counts[t] -= 1
        s.river.append(t)
        st.seen[t] += 1
        st.discards += 1
        rule = ""
        if st.is_hun(t):
            s.discarded_hun = True
            rule = "小相公: this seat cannot win this hand"
        if st.claims == 0 and len(self.first_round) < st.players:
            self.first_round.append(t)
        self.log(seat, "discard", t, rule)

    def discard_wins(self, discarder: int, t: int, rule: str) -> bool:
        """Seats after the discarder, in turn, may win on its tile (點炮 rulesets only, or
        搶杠 on an added kong's tile)."""
        st = self.st
        for i in range(1, st.players):
            seat = (discarder + i) % st.players
            s = st.seats[seat]
            s.counts[t] += 1
            c, h = st.shape_counts(seat)
            doc = documents.hand_doc(st, seat, t, "discard") \
                if shape.is_win(c, h, len(s.melds)) else None
            if doc is not None and self.accepts(seat, doc):
                st.seen[t] -= 1
                loser = st.seats[discarder]
                if rule == "點炮":
                    loser.river.pop()
                else:                                  # 搶杠: the kong stays a pung
                    loser.melds[-1] = Meld(t, PUNG)
                self.won(seat, t, doc, rule, discarder)
                return True
            s.counts[t] -= 1
        return False

    def claims(self, discarder: int) -> tuple[int, str] | None:
        """Pung or kong of the last discard by another seat (no chow; a hun never, 000/Ⅲ)."""
        st = self.st
        t = st.seats[discarder].river[-1]
        if st.is_hun(t) and not self.rules.pung_hun:
            return None
        for i in range(1, st.players):
            seat = (discarder + i) % st.players
            s = st.seats[seat]
            if s.counts[t] < 2 or len(s.melds) >= 4:
                continue
            options = ["pass", PUNG]
            if s.counts[t] == 3 and self.st.wall.taken_tail < len(self.st.wall.tail_order):
                options.append("kong")
            got = self.players[seat].choose_claim(st, seat, t, tuple(options))
            if got not in options:
                raise IllegalMove(f"seat {seat}: claim {got!r} of {_tile(t)} is not legal; "
                                  "legal: " + ", ".join(options))
            if got != "pass":
                return seat, got
        return None

    def take(self, discarder: int, seat: int, how: str) -> None:
        st = self.st
        t = st.seats[discarder].river.pop()
        s = st.seats[seat]
        n = 2 if how == PUNG else 3
        s.counts[t] -= n
        s.melds.append(Meld(t, PUNG if how == PUNG else EXPOSED))
        st.seen[t] += n
        st.claims += 1
        self.log(seat, how, t, "碰" if how == PUNG else "明杠")

    # -- the end ---------------------------------------------------------------------------
    def draw_game(self) -> bool:
        self.log(self.st.dealer, "draw_game", -1, "荒莊: the wall is drawn out")
        return True

    def chan(self) -> bool:
        """鏟 (000/Ⅲ): every non-dealer followed the dealer's first discard, no claim between."""
        fr = self.first_round
        return len(fr) == self.st.players and all(t == fr[0] for t in fr)


def _tile(t: object) -> str:
    return TILE_NAMES[t] if isinstance(t, int) and 0 <= t < len(TILE_NAMES) else repr(t)


def _kong_name(o: object) -> str:
    if isinstance(o, tuple) and len(o) == 2:
        return f"{o[1]} {_tile(o[0])}"
    return repr(o)


def play_hand(rs: Ruleset, players: Sequence[Player], *, seed: int | None, dealer: int = 0,
              rules: GameRules | None = None, order: Sequence[int] | None = None,
              hun_dice: tuple[int, ...] = (), observer: Observer | None = None) -> HandRecord:
    """Play one hand. With `order` (a wall in dealing order) and `hun_dice` the wall is given
    (a replay); otherwise `random.Random(seed)` shuffles and rolls."""
    rules = rules or game_rules(rs)
    if len(players) != rules.players:
        raise RulekitError(f"{len(players)} players for a {rules.players}-player ruleset")
    dice: tuple[int, ...] = ()
    if order is None:
        w, dice, hun_dice = wall_mod.build(random.Random(seed), dealer, rules.players,
                                           rules.break_dice, rules.flowers)
    else:
        w = wall_mod.from_order(list(order), hun_dice)
    st = HandState(w, dealer, hun_kinds(w.indicator, rules.hun_kinds),
                   [SeatState() for _ in range(rules.players)], [0] * 34)
    hand = _Hand(rs, rules, st, players, observer)
    hand.first = hand.deal()
    _run(hand)
    result, settle = _settle(hand)
    return HandRecord(seed, dealer, dice, hun_dice, tuple(w.tiles), w.indicator,
                      tuple(hand.events), result, settle)


def _run(hand: _Hand) -> None:
    st, rules = hand.st, hand.rules
    seat, drawn, source = st.dealer, hand.first, "deal"
    while True:
        if hand.turn(seat, drawn, source):
            return
        if rules.win_on_discard and hand.discard_wins(seat, st.seats[seat].river[-1], "點炮"):
            return
        claim = hand.claims(seat)
        if claim is not None:
            taker, how = claim
            hand.take(seat, taker, how)
            seat = taker
            if how == PUNG:
                source = PUNG
                continue
            got = hand.replacement(seat)
            if got is None:
                hand.draw_game()
                return
            drawn, source = got, "replacement"
            continue
        seat = (seat + 1) % st.players
        i = st.wall.draw_head(rules.draw_game_at)
        if i is None:
            hand.draw_game()
            return
        st.seats[seat].drawn += 1
        got = hand.receive(seat, st.wall.tiles[i], "draw", "")
        if got is None:
            hand.draw_game()
            return
        drawn, source = got, "draw"


def _settle(hand: _Hand) -> tuple[dict[str, Any], dict[str, Any]]:
    """Pay the hand through the settle pipeline; the result as the log shows it."""
    st = hand.st
    winner, doc, discarder = hand.outcome if hand.outcome else (None, None, None)
    chan = hand.chan()
    if chan:
        hand.log(st.dealer, "chan", hand.first_round[0], "鏟: the dealer pays each follower")
    sdoc = documents.settle_doc(st, hand.rules, winner, doc, chan, discarder)
    res = settle_document(sdoc, hand.rs)
    score: ScoreResult | None = res.score
    out = res.to_dict()
    result = {"winner": winner,
              "win_by": doc["win_by"] if doc else None,
              "patterns": sorted(score.patterns) if score else [],
              "total_fan": score.total_fan if score else 0,
              "kongs": sdoc["kongs"], "chan": chan,
              "payments": out["payments"], "next_dealer": res.next_dealer,
              "hand": doc}
    return result, sdoc
