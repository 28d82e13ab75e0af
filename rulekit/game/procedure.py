"""One hand, played: 坐莊 and 拉莊, the deal, 開混, turns, claims, kongs, the end (a win or
荒莊), then the score and the payments through `rulekit.settle` (000/Ⅲ; docs/game.md, "The
procedure").

The procedure is a generator (`_Hand.run`): at each decision it yields a `Request` naming
the seat and its legal actions and receives the answer, so that the table, not the
procedure, decides who answers (`rulekit.game.table.Table`). Every step is an event
`(seat, action, tile, rule)`; `rule` names the rule the step applied. The only randomness is
the `random.Random(seed)` that shuffles and rolls: players bring their own, so the same seed
always gives the same wall and the same dice.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Final, Generator, TypeVar

from rulekit import shape
from rulekit.errors import HandError, RulekitError
from rulekit.game import actions, documents, templates
from rulekit.game.actions import DISCARDS, Action
from rulekit.game.observation import WinOffer
from rulekit.game.rules import GameRules
from rulekit.game.state import (ADDED, CONCEALED, EXPOSED, GOLDEN, PUNG, HandState, Meld,
                                Seen)
from rulekit.hand import Hand, win_by_allowed_by
from rulekit.ruleset.model import Ruleset
from rulekit.scoring import ScoreResult
from rulekit.scoring.score import read_hand, score_fresh, score_with, scorer_for
from rulekit.money import json_number
from rulekit.settlement import settle_document
from rulekit.tiles import NUM_KINDS, TILE_NAMES, format_tiles

T = TypeVar("T")
_PUNG: Final[Action] = actions.claim(PUNG)
_KONG: Final[Action] = actions.claim("kong")
Event = tuple[int, str, int, str]            # seat, action, tile kind (-1: none), rule
Observer = Callable[[HandState, Event], None]
KONG_RULE: Final = {CONCEALED: "暗杠", GOLDEN: "金杠", ADDED: "明杠 (碰後補杠)", EXPOSED: "明杠"}
WIN_RULE: Final = {"self_draw": "自摸", "kong_draw": "杠開", "last_draw": "海底撈", "discard": "點炮"}


class IllegalMove(RulekitError):
    """A seat answered with an action that was not among its legal ones, or answered when
    it had nothing to decide."""


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


def discard_counts(events: tuple[Event, ...]) -> tuple[int, int]:
    """The hand's discards, and those carrying a rule label (a hun's, where a forbid rule
    reads it: `GameRules.hun_discard_rule`), in one pass over the events (compiled: the
    simulation's outcome of every hand asks it)."""
    n = labelled = 0
    for e in events:
        if e[1] == "discard":
            n += 1
            if e[3]:
                labelled += 1
    return n, labelled


def event_dict(e: Event) -> dict[str, Any]:
    seat, action, tile, rule = e
    d: dict[str, Any] = {"seat": seat, "action": action,
                         "tile": TILE_NAMES[tile] if tile >= 0 else None}
    if rule:
        d["rule"] = rule
    return d


Gen = Generator["Request | tuple[Request, ...]", Any, T]


class Request:
    """A decision the procedure waits for: `seat` answers with one of `legal`; `drawn`, the
    tile just drawn, shown to this seat only; `win`, the win on offer, as the ruleset scores
    it. A plain class, not a dataclass: compiled, a dataclass's `__init__` stays the
    interpreted one `dataclasses` writes (~1,600 instructions a request, ~50 a hand)."""

    __slots__ = ("seat", "legal", "drawn", "win", "held")

    def __init__(self, seat: int, legal: list[Action], drawn: int | None = None,
                 win: WinOffer | None = None, held: shape.Held | None = None) -> None:
        self.seat = seat
        self.legal = legal
        self.drawn = drawn
        self.win = win
        self.held = held             # on a seat's turn, its tiles as read for the shape test

    def __repr__(self) -> str:
        return f"Request(seat={self.seat!r}, legal={self.legal!r}, drawn={self.drawn!r}, " \
            f"win={self.win!r})"


@dataclass(slots=True)
class _Offer:
    doc: dict[str, Any]
    rule: str
    win: WinOffer
    score: ScoreResult              # kept for the settlement: each win is scored once


def _offer(doc: dict[str, Any], rule: str, score: ScoreResult) -> _Offer:
    return _Offer(doc, rule, WinOffer(score.total_fan, tuple(sorted(score.patterns))), score)


class _Hand:
    """One hand as a generator of decisions (`run`): each `yield` is a `Request` (or, for
    simultaneous choices, a tuple of them) and receives the answer; `rulekit.game.Table`
    drives it. Counts change as `c[k] = c[k] + 1`, not `c[k] += 1`: compiled, the latter
    goes through the generic in-place number protocol."""

    def __init__(self, rs: Ruleset, rules: GameRules, st: HandState,
                 observer: Observer | None) -> None:
        self.rs, self.rules, self.st = rs, rules, st
        self.observer = observer
        self.events: list[Event] = []
        self.pre_events: list[dict[str, Any]] = []  # 坐莊 / 拉莊 choices, shown to all
        self.first_round: list[int] = []         # discards of the first go-round (鏟)
        self.outcome: tuple[int, dict[str, Any], int | None] | None = None
        self.scored: ScoreResult | None = None   # the winner's score, from its offer
        self.first = -1                          # the dealer's last dealt tile
        self.seen = Seen(turn=st.dealer)
        self.sits = rules.dealer_sits
        self.pulls = [0 if s == st.dealer else rules.pulls for s in range(st.players)]
        self.result: dict[str, Any] = {}
        self.scorer = scorer_for(rs)
        self.settle: dict[str, Any] = {}
        # the settings read at every draw, as attributes of this (compiled) class: the
        # rules' and ruleset's classes are interpreted, each read of theirs a lookup
        self.draw_at: str = rules.draw_game_at
        self.on_discard: bool = rules.win_on_discard
        self.may_ready: bool = rules.ready
        self.instant: bool = bool(rs.instant_wins)
        self.win_bys: frozenset[str] = rs.win_by
        self.pung_hun: bool = rules.pung_hun            # read at every discard
        self.claims_last_four: bool = rules.claims_on_last_four
        # each seat's counts as `shape.Codes`: worked out after the deal, then kept as the
        # counts change (`_add`), so a turn's `Held` reads five ints, not the 34 counts
        self.codes: list[shape.Codes] = []

    def log(self, seat: int, action: str, tile: int = -1, rule: str = "") -> None:
        e = (seat, action, tile, rule)
        self.events.append(e)
        if self.observer is not None:
            self.observer(self.st, e)

    def run(self) -> Gen[None]:
        """The whole hand: choices before the deal, the deal, play, the settlement."""
        yield from self.before_deal()
        self.first = self.deal()
        self.seen.dealt = True
        yield from self.play()
        self.result, self.settle = _settle(self)

    # -- before the deal: 坐莊, 拉莊 (000/Ⅲ) -----------------------------------------------
    def before_deal(self) -> Gen[None]:
        """「在游戲開始後，玩家拿牌前」 the dealer may sit; then every non-dealer at once may
        pull up to `max_pulls` times (「所有閑家在屏幕上同時出現3個選項」)."""
        st, rules = self.st, self.rules
        if rules.ask_sit:
            a = yield Request(st.dealer, [actions.sit(), actions.pass_()])
            self.sits = a["action"] == "sit"
            self.pre_events.append({"seat": st.dealer, "action": "sit", "tile": None,
                                    "rule": "坐莊" if self.sits else "不坐莊",
                                    "sits": self.sits})
        self.seen.sits = self.sits
        if rules.max_pulls:
            legal = [actions.pass_()] + [actions.pull(c) for c in range(1, rules.max_pulls + 1)]
            others = [(st.dealer + i) % st.players for i in range(1, st.players)]
            got = yield tuple(Request(s, [dict(a) for a in legal]) for s in others)
            for s in others:
                a = got[s]
                self.pulls[s] = int(a["count"]) if a["action"] == "pull" else 0
                self.pre_events.append({"seat": s, "action": "pull", "tile": None,
                                        "rule": "拉莊", "count": self.pulls[s]})
        self.seen.pulls = list(self.pulls)
        self.seen.version += 1

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
                    st.seats[s].counts[t] = st.seats[s].counts[t] + 1
                else:
                    st.seats[s].flowers.append(t)
        for s in order:
            self.log(s, "deal", -1, "拿牌: " + format_tiles(dealt[s]))
        st.seen[st.wall.indicator] = st.seen[st.wall.indicator] + 1
        self.log((st.dealer + n // 2) % n, "indicator", st.wall.indicator,
                 "開混: hun " + " ".join(TILE_NAMES[k] for k in st.hun))
        last = dealt[st.dealer][-1]
        self._recode()
        for s in order:
            for _ in range(len(st.seats[s].flowers)):
                got = self.replacement(s, "補花")
                if got is None:
                    raise RulekitError("the wall is too short to deal from")
                if s == st.dealer:
                    last = got
        return last

    def _recode(self) -> None:
        """Every seat's `codes` worked out from its counts (once, after the deal)."""
        self.codes = [shape.Codes(s.counts) for s in self.st.seats]

    def _add(self, seat: int, t: int, d: int) -> None:
        """`d` copies of kind `t` (d < 0: taken) into the seat's concealed counts, and into
        its `codes`: every change of a seat's counts after the deal goes through here."""
        s = self.st.seats[seat]
        s.counts[t] = s.counts[t] + d
        if self.codes:                       # (made at the end of the deal)
            self.codes[seat].add(t, d)

    def _head(self) -> int:
        i = self.st.wall.draw_head(self.draw_at)
        if i is None:
            raise RulekitError("the wall is too short to deal from")
        return self.st.wall.tiles[i]

    # -- play ------------------------------------------------------------------------------
    def play(self) -> Gen[None]:
        """Turns, claims and draws until a win or 荒莊."""
        st, rules = self.st, self.rules
        seat, drawn, source = st.dealer, self.first, "deal"
        while True:
            if (yield from self.turn(seat, drawn, source)):
                return
            if self.on_discard and (yield from self.discard_wins(
                    seat, st.seats[seat].river[-1], "點炮")):
                return
            claim = None
            for taker, legal in self.claim_offers(seat):
                a = yield Request(taker, legal)
                if a["action"] != "pass":
                    claim = taker, str(a["action"])
                    break
            if claim is not None:
                taker, how = claim
                self.take(seat, taker, how)
                seat = self.seen.turn = taker
                if how == PUNG:
                    source = PUNG
                    continue
                got = self.replacement(seat)
                if got is None:
                    self.draw_game()
                    return
                drawn, source = got, "replacement"
                continue
            seat = self.seen.turn = (seat + 1) % st.players
            if self.may_ready and self.may_declare_ready(seat):
                yield from self.ask_ready(seat)
            i = st.wall.draw_head(self.draw_at)
            if i is None:
                self.draw_game()
                return
            st.seats[seat].drawn += 1
            got = self.receive(seat, st.wall.tiles[i], "draw", "")
            if got is None:
                self.draw_game()
                return
            drawn, source = got, "draw"

    def may_declare_ready(self, seat: int) -> bool:
        """天聽 (000/Ⅳ 特殊規則): 「莊家打下第一張牌後，後旁家立手即聽牌，可報天聽」: a
        non-dealer before its first draw, nothing claimed yet, its dealt tiles ready."""
        st, s = self.st, self.st.seats[seat]
        if seat == st.dealer or s.drawn or st.claims or s.melds or s.ready:
            return False
        c, h = st.shape_counts(seat)
        return bool(shape.waits(c, h, 0))

    def ask_ready(self, seat: int) -> Gen[None]:
        a = yield Request(seat, [actions.ready(), actions.pass_()])
        if a["action"] == "ready":
            self.st.seats[seat].ready = True
            self.seen.version += 1
            self.log(seat, "ready", -1, "天聽: 此後不能換張")

    # -- a seat's own turn -----------------------------------------------------------------
    def turn(self, seat: int, drawn: int, source: str) -> Gen[bool]:
        """A seat holding 3k+2 tiles: win, kong, or discard. True when the hand is over.
        A seat that declared 天聽 may only win or discard the tile it drew."""
        s = self.st.seats[seat]
        while True:
            self.seen.holding = seat
            # read once, from the kept codes: the shape test, the discard
            tiles = shape.Held(s.counts, self.st.hun, self.codes[seat])
            offer = self.self_win(seat, drawn, source, tiles) if source != PUNG else None
            legal = [actions.WIN] if offer is not None else []
            if s.ready and source != PUNG:
                legal.append(DISCARDS[drawn])
            else:
                # the discards, and whether a kong may be on (a kind held four times, or
                # a pung's fourth held): `kong_options` is asked only then
                # (into `legal` itself, the kongs put before them when on; the counts read
                # by a `for`, unchecked, compiled)
                discards = DISCARDS
                first = len(legal)
                fours = False
                k = 0
                for n in s.counts:
                    if n:
                        legal.append(discards[k])
                        if n == 4:
                            fours = True
                    k += 1
                if source != PUNG and (fours or self.pung_held(seat)):
                    legal[first:first] = [actions.kong(k, kind)
                                          for k, kind in self.kong_options(seat)]
            a = yield Request(seat, legal, None if source == PUNG else drawn,
                              offer.win if offer is not None else None, tiles)
            what = a["action"]
            if what == "win" and offer is not None:
                self.won(seat, drawn, offer, None)
                return True
            if what != "kong":
                self.discard(seat, actions.tile_of(a))
                return False
            if (yield from self.declare_kong(seat, (actions.tile_of(a), a["kind"]))):
                return True
            got = self.replacement(seat)
            if got is None:
                return self.draw_game()
            drawn, source = got, "replacement"

    def pung_held(self, seat: int) -> bool:
        """The seat holds the fourth tile of one of its pungs (an added kong may be on)."""
        s = self.st.seats[seat]
        for m in s.melds:
            if m.shape == PUNG and s.counts[m.kind] >= 1:
                return True
        return False

    def kong_options(self, seat: int) -> list[tuple[int, str]]:
        s = self.st.seats[seat]
        if len(s.melds) >= 4 or not self.st.wall.tail_left():
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

    def declare_kong(self, seat: int, choice: tuple[int, str]) -> Gen[bool]:
        """Lay the kong down; True if another seat robs it (搶杠) and the hand is over."""
        k, kind = choice
        s = self.st.seats[seat]
        self.seen.version += 1
        if kind == ADDED:
            self._add(seat, k, -1)
            pung = next(m for m in s.melds if m.kind == k and m.shape == PUNG)
            s.melds.remove(pung)              # melds in the order declared: the hand
            s.melds.append(Meld(k, EXPOSED))  # document's last kong is this one (context.last_kong)
            self.st.seen[k] = self.st.seen[k] + 1
            self.log(seat, "added_kong", k, KONG_RULE[ADDED])
            if self.rules.rob_kong and (yield from self.discard_wins(seat, k, "搶杠")):
                return True
        else:
            self._add(seat, k, -4)
            s.melds.append(Meld(k, kind))
            self.st.seen[k] = self.st.seen[k] + 4
            self.log(seat, "golden_kong" if kind == GOLDEN else "concealed_kong", k,
                     KONG_RULE[kind])
        return False

    def replacement(self, seat: int, why: str = "杠後補牌") -> int | None:
        """A replacement from the tail (000/Ⅲ 杠後補牌, or 補花 for a flower); None if the
        head has taken every tile the tail could give."""
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
            self._add(seat, t, 1)
            self.log(seat, action, t, rule)
            return t
        s.flowers.append(t)
        self.seen.version += 1
        self.log(seat, action, t, "補花: a flower, shown")
        return self.replacement(seat, "補花")

    def self_win(self, seat: int, drawn: int, source: str,
                 held: shape.Held | None = None) -> _Offer | None:
        """The win the ruleset allows on the seat's own tiles (`held`: them, read), or None."""
        s, st = self.st.seats[seat], self.st
        if not self.instant and not (st.shape_wins(seat) if held is None
                                     else held.wins(len(s.melds))):
            return None
        heavenly = source == "deal"
        earthly = (source == "draw" and seat != st.dealer and s.drawn == 1 and st.claims == 0
                   and not any(x.melds for x in st.seats))
        win_by = "kong_draw" if source == "replacement" else "self_draw"
        if source == "draw" and st.wall.live(self.draw_at) == 0:
            win_by = "last_draw"
        if not win_by_allowed_by(win_by, self.win_bys):
            return None
        score = self.score(seat, drawn, win_by, heavenly, earthly)
        if score is None or not score.win:
            return None
        doc = documents.hand_doc(st, seat, drawn, win_by, heavenly=heavenly, earthly=earthly,
                                 earthly_as_heavenly=self.rules.earthly_as_heavenly)
        return _offer(doc, "天和" if heavenly else "地和" if earthly else WIN_RULE[win_by],
                      score)

    def score(self, seat: int, win_tile: int, win_by: str, heavenly: bool = False,
              earthly: bool = False) -> ScoreResult | None:
        """The ruleset's score of the seat's would-be win (its counts include `win_tile`),
        as `score_document` scores its `documents.hand_doc`, if it wins; else None, as for
        a hand the scorer refuses: with `game.pung_hun` a seat may hold a pung of hun, which
        no hand document allows (000/Ⅲ: hun never stand in a meld but a 金杠), so that seat
        cannot win. Where the minimum is on the hand fan alone, the scorer is asked yes or
        no first (`score_fresh` with the minimum as its goal, as `wins_with` asks it: the
        search stops at the first reading that reaches the minimum, and wins exactly when
        the best reading would, forbid rules and instant wins being the hand's): three of
        four shapes asked do not win, and a no is found cheaper than the best reading; a
        yes is then scored in full (measured, compiled, the 2,211 hands the procedure asked
        in 600 hands, each once in a fresh process: 27-29 us a hand against 30-31)."""
        try:
            hand = self.hand_of(seat, win_tile, win_by, heavenly, earthly)
        except HandError:
            return None
        rs = self.rs
        if rs.minimum > 0 and not rs.minimum_counts_kong_points \
                and not score_fresh(self.scorer, hand, float(rs.minimum)).win:
            return None
        score = score_with(self.scorer, hand)
        return score if score.win else None

    def hand_of(self, seat: int, win_tile: int, win_by: str, heavenly: bool = False,
                earthly: bool = False) -> Hand:
        """The `Hand` `read_hand` makes of the seat's `hand_doc` (`HandError` where that is
        not legal), read from its document only when no hand before (this one or an earlier
        one under the ruleset) asked with the same indicator, melds, flowers and flags
        (`templates`): otherwise the template's hun, melds, flowers and flags and the
        concealed tiles from the counts (the procedure asks at every draw that makes a
        winning shape; only a win needs the document, for the record). The table's counts
        pass the copies checks a document could fail (four of a kind at most, the
        indicator's kind three), so only a template can be refused."""
        s = self.st.seats[seat]
        doc_heavenly = heavenly or (earthly and self.rules.earthly_as_heavenly)
        key = templates.key_of(self.st.wall.indicator,
                               tuple([(m.kind, m.shape) for m in s.melds]), tuple(s.flowers),
                               s.discarded_hun, s.ready, win_by, doc_heavenly, earthly)
        t = templates.lookup(self.rs, key)
        if t is None:
            t = read_hand(documents.hand_doc(self.st, seat, win_tile, win_by,
                                             heavenly=heavenly, earthly=earthly,
                                             earthly_as_heavenly=self.rules.earthly_as_heavenly),
                          self.rs)
            templates.remember(self.rs, key, t)
            return t
        counts = s.counts
        concealed: list[int] = []
        for k in range(len(counts)):
            n = counts[k] - 1 if k == win_tile else counts[k]
            while n > 0:
                concealed.append(k)
                n -= 1
        return Hand(t.indicator, t.hun, tuple(concealed), t.melds, win_tile, t.win_by,
                    t.heavenly, t.discarded_hun, t.flowers, t.earthly, t.ready_declared)

    def won(self, seat: int, tile: int, offer: _Offer, discarder: int | None) -> None:
        self.log(seat, "win", tile, offer.rule)
        self.outcome = (seat, offer.doc, discarder)
        self.scored = offer.score

    # -- discards and claims ---------------------------------------------------------------
    def discard(self, seat: int, t: int) -> None:
        st, s = self.st, self.st.seats[seat]
        self._add(seat, t, -1)
        s.river.append(t)
        st.seen[t] = st.seen[t] + 1
        st.discards += 1
        self.seen.last_discard = (seat, t)
        self.seen.holding = -1
        self.seen.rivers += 1
        rule = ""
        if st.is_hun(t):
            s.discarded_hun = True
            self.seen.version += 1
            rule = self.rules.hun_discard_rule
        if st.claims == 0 and len(self.first_round) < st.players:
            self.first_round.append(t)
        self.log(seat, "discard", t, rule)

    def discard_wins(self, discarder: int, t: int, rule: str) -> Gen[bool]:
        """Seats after the discarder, in turn, may win on its tile (點炮 rulesets only, or
        搶杠 on an added kong's tile)."""
        st = self.st
        for i in range(1, st.players):
            seat = (discarder + i) % st.players
            s = st.seats[seat]
            self._add(seat, t, 1)
            score = self.score(seat, t, "discard") if st.shape_wins(seat) else None
            doc = documents.hand_doc(st, seat, t, "discard") \
                if score is not None and score.win else None
            self._add(seat, t, -1)
            if score is None or doc is None:
                continue
            offer = _offer(doc, rule, score)
            a = yield Request(seat, [actions.WIN, actions.PASS], None, offer.win)
            if a["action"] != "win":
                continue
            self._add(seat, t, 1)
            st.seen[t] = st.seen[t] - 1
            loser = st.seats[discarder]
            if rule == "點炮":
                loser.river.pop()
                self.seen.rivers += 1
            else:                                  # 搶杠: the kong stays a pung
                loser.melds[-1] = Meld(t, PUNG)
                self.seen.version += 1
            self.won(seat, t, offer, discarder)
            return True
        return False

    def claim_offers(self, discarder: int) -> list[tuple[int, list[Action]]]:
        """Who may pung or kong the last discard, in turn from the discarder's right, and
        how (no chow; a hun never, 000/Ⅲ; none on the last four tiles where
        `game.claims_on_last_four` is false). The first seat that does not pass takes it."""
        st = self.st
        t = st.seats[discarder].river[-1]
        if st.is_hun(t) and not self.pung_hun:
            return []
        if not self.claims_last_four and st.wall.live(self.draw_at) <= 4:
            return []
        out = []
        n = len(st.seats)
        for i in range(1, n):
            seat = (discarder + i) % n
            s = st.seats[seat]
            if s.counts[t] < 2 or len(s.melds) >= 4 or s.ready:
                continue
            legal = [actions.PASS, _PUNG]
            if s.counts[t] == 3 and st.wall.tail_left():
                legal.append(_KONG)
            out.append((seat, legal))
        return out

    def take(self, discarder: int, seat: int, how: str) -> None:
        st = self.st
        t = st.seats[discarder].river.pop()
        s = st.seats[seat]
        n = 2 if how == PUNG else 3
        self._add(seat, t, -n)
        s.melds.append(Meld(t, PUNG if how == PUNG else EXPOSED))
        self.seen.version += 1
        st.seen[t] = st.seen[t] + n
        st.claims += 1
        self.seen.rivers += 1
        self.log(seat, how, t, "碰" if how == PUNG else "明杠")

    # -- the end ---------------------------------------------------------------------------
    def draw_game(self) -> bool:
        self.log(self.st.dealer, "draw_game", -1, "荒莊: the wall is drawn out")
        return True

    def chan(self) -> bool:
        """鏟 (000/Ⅲ): every non-dealer followed the dealer's first discard, no claim between."""
        fr = self.first_round
        return len(fr) == self.st.players and all(t == fr[0] for t in fr)


def _settle(hand: _Hand) -> tuple[dict[str, Any], dict[str, Any]]:
    """Pay the hand through the settle pipeline; the result as the log shows it."""
    st = hand.st
    winner, doc, discarder = hand.outcome if hand.outcome else (None, None, None)
    chan = hand.chan()
    if chan:
        hand.log(st.dealer, "chan", hand.first_round[0], "鏟: the dealer pays each follower")
    sdoc = documents.settle_doc(st, hand.sits, hand.pulls, winner, doc, chan, discarder)
    res = settle_document(sdoc, hand.rs, scored=hand.scored)
    score: ScoreResult | None = res.score
    result = {"winner": winner,
              "win_by": doc["win_by"] if doc else None,
              "patterns": sorted(score.patterns) if score else [],
              "total_fan": score.total_fan if score else 0,
              "kongs": sdoc["kongs"], "chan": chan,
              "payments": [json_number(p) for p in res.payments],    # as res.to_dict()'s
              "next_dealer": res.next_dealer,
              "hand": doc}
    return result, sdoc
