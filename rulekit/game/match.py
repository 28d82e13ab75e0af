"""A match: hands played at a `Table` by one participant per seat, built-in players or bot
processes (docs/bots.md). A bot that fails is named in the report and its seat is played by
the fallback player for the rest of the match; the match always finishes.

With `duplicate`, every deal (one seed: the same wall, dice and dealer) is played once per
seat with the participants rotated one seat each time, so each sits at every seat of it.
"""
from __future__ import annotations

import random
from dataclasses import asdict, dataclass, field
from typing import Any, Callable, Iterator, Protocol, Sequence

from rulekit.game import protocol
from rulekit.game.bots import BotFault, SubprocessBot
from rulekit.game.logfile import HandLog
from rulekit.game.players import PLAYERS, Player, make_player
from rulekit.game.procedure import HandRecord
from rulekit.game.rules import GameRules, game_rules
from rulekit.game.simulate import SESSION_HANDS, hand_seed, log_line, outcome_of
from rulekit.game.table import Table
from rulekit.ruleset.model import Ruleset

FALLBACK = "greedy"            # plays a failed bot's seat for the rest of the match
BOT_PREFIX = "cmd:"


class SeatView(Protocol):
    """What a participant may ask of the table about its own seat (rulekit.game.Table)."""

    def observation(self, seat: int) -> Any: ...
    def legal(self, seat: int) -> list[dict[str, Any]]: ...
    def events(self, seat: int, since: int = 0) -> list[dict[str, Any]]: ...


@dataclass(frozen=True, slots=True)
class Fault:
    """A bot that stopped playing: who, when, why, and what it sent."""

    participant: int          # which --seat (0-based)
    spec: str
    seat: int
    hand: int
    decision: int             # its answers so far in the match
    kind: str
    detail: str
    sent: str | None
    stderr: str

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(slots=True)
class Participant:
    """One `--seat`: a built-in player's name, or `cmd:COMMAND` (a bot process)."""

    index: int
    spec: str
    rs: Ruleset
    think_time: float
    on_fault: Callable[[Fault], None]
    cwd: str | None = None
    bot: SubprocessBot | None = None
    player: Player | None = None
    seen: int = 0             # events of this hand already sent to the bot
    player_seen: int = 0      # ... and given to the in-process player
    hand: int = -1
    seat: int = -1
    seed: int = 0
    decisions: int = 0
    seconds: float = 0.0      # spent waiting for its answers

    @property
    def is_bot(self) -> bool:
        return self.spec.startswith(BOT_PREFIX)

    def launch(self, start: dict[str, Any]) -> None:
        if not self.is_bot:
            return
        self.bot = SubprocessBot(self.spec[len(BOT_PREFIX):], think_time=self.think_time,
                                 cwd=self.cwd)
        try:
            self.bot.launch()
            self.bot.send(start)
        except BotFault as f:
            self._fail(f)

    def begin(self, hand: int, seat: int, seed: int) -> None:
        """A new hand: a built-in (or fallback) player is made afresh, seeded per seat as
        `simulate` seeds it, so an all-built-in match plays as `simulate` does."""
        self.hand, self.seat, self.seed, self.seen = hand, seat, seed, 0
        self.player = None
        if self.bot is None:
            self._new_player(FALLBACK if self.is_bot else self.spec)

    def _new_player(self, name: str) -> None:
        """An in-process player for this seat and hand, told of it as `play_hand` tells
        its players (the `start` hook; events through `event` if it listens)."""
        self.player = make_player(name, self.rs, hand_seed(self.seed, self.seat))
        self.player.start(self.seat, self.rs.name)
        self.player_seen = 0

    def _feed(self, view: SeatView) -> None:
        p = self.player
        assert p is not None
        if type(p).event is Player.event:
            return
        for e in view.events(self.seat, self.player_seen):
            p.event(e)
            self.player_seen += 1

    def ask_bot(self, view: SeatView) -> dict[str, Any] | None:
        """The bot's answer, or None if there is no bot (any more): it just failed, or it
        is a built-in player's seat."""
        if self.bot is None:
            return None
        seat = self.seat
        try:
            self._send_events(view)
            legal = view.legal(seat)
            obs = view.observation(seat).to_dict()
            got = self.bot.ask(protocol.request(seat, obs, legal), legal)
            self.decisions += 1
            return got
        except BotFault as f:
            self._fail(f)
            self._new_player(FALLBACK)
            return None

    def decide(self, view: SeatView) -> dict[str, Any]:
        got = self.ask_bot(view)
        if got is not None:
            return got
        assert self.player is not None
        self._feed(view)
        return self.player.act(view.observation(self.seat), view.legal(self.seat))

    def _send_events(self, view: SeatView) -> None:
        assert self.bot is not None
        evs = view.events(self.seat, self.seen)
        for i, ev in enumerate(evs, start=self.seen):
            self.bot.send(protocol.event(self.seat, self.hand, i, ev))
        self.seen += len(evs)

    def end(self, view: SeatView, result: dict[str, Any]) -> None:
        if self.player is not None:
            self._feed(view)
            self.player.end(result)
        if self.bot is None:
            return
        try:
            self._send_events(view)
            self.bot.send(protocol.end(self.seat, self.hand, result))
        except BotFault as f:
            self._fail(f)

    def _fail(self, f: BotFault) -> None:
        bot = self.bot
        assert bot is not None
        self.seconds = bot.seconds
        bot.close(grace=0)
        tail = bot.stderr_tail()
        self.on_fault(Fault(self.index, self.spec, self.seat, self.hand, self.decisions,
                            f.kind, str(f), f.sent, protocol.excerpt(tail[-240:], 240)
                            if tail else ""))
        self.bot = None

    def eof(self) -> None:
        """The match is over: tell the bot (EOF on its stdin) before `close` waits."""
        if self.bot is not None:
            self.bot.eof()

    def close(self) -> None:
        if self.bot is not None:
            self.seconds = self.bot.seconds
            self.bot.close()
            self.bot = None

    def answers(self) -> dict[str, Any]:
        """How many answers the bot gave and how long they took on average."""
        ms = 1000 * self.seconds / self.decisions if self.decisions else 0.0
        return {"participant": self.index, "spec": self.spec, "answers": self.decisions,
                "mean_ms": round(ms, 3)}


@dataclass(frozen=True, slots=True)
class MatchConfig:
    specs: tuple[str, ...]
    hands: int                    # hands; with duplicate, deals (each played once per seat)
    seed: int
    duplicate: bool = False
    think_time: float = 1.0
    session_hands: int = SESSION_HANDS
    cwd: str | None = None


@dataclass(slots=True)
class MatchResult:
    """Each hand's outcome (with `players`, `deal`, `rotation`) and each bot's fault."""

    outcomes: list[dict[str, Any]] = field(default_factory=list)
    faults: list[Fault] = field(default_factory=list)
    answers: list[dict[str, Any]] = field(default_factory=list)   # per bot: count, time


def check_spec(spec: str) -> str | None:
    """Why `spec` is not a seat (None if it is one)."""
    if spec.startswith(BOT_PREFIX):
        return None if spec[len(BOT_PREFIX):].strip() else "cmd: needs a command"
    if spec not in PLAYERS:
        return f"unknown player {spec!r}; built-in players: {', '.join(PLAYERS)}, or cmd:COMMAND"
    return None


def schedule(cfg: MatchConfig, players: int
             ) -> Iterator[tuple[int, int, int, int, int | None]]:
    """(hand index, deal, rotation, seed, dealer or None) in play order; a None dealer is
    the one the previous hand passed on (a session carries the dealer)."""
    if cfg.duplicate:
        for d in range(cfg.hands):
            seed = hand_seed(cfg.seed, d)
            dealer = random.Random(seed).randrange(players)
            for r in range(players):
                yield d * players + r, d, r, seed, dealer
        return
    for i in range(cfg.hands):
        seed = hand_seed(cfg.seed, i)
        first = random.Random(seed).randrange(players) if i % cfg.session_hands == 0 else None
        yield i, i, 0, seed, first


def end_result(rec: HandRecord) -> dict[str, Any]:
    """A hand's result as `end` tells every seat: the log's result (the winning hand is
    shown once the hand is over)."""
    return dict(rec.result)


def play_one(rs: Ruleset, seated: Sequence[Participant], seed: int, dealer: int,
             hand: int) -> HandRecord:
    """One hand at a Table: each pending seat's participant decides, in turn."""
    t = Table(rs, seed=seed, dealer=dealer)
    for s, p in enumerate(seated):
        p.begin(hand, s, seed)
    while not t.over:
        seat = t.pending()[0]
        t.act(seat, seated[seat].decide(t))
    rec = t.record()
    result = end_result(rec)
    for p in seated:
        p.end(t, result)
    return rec


def match_log_line(rec: HandRecord, rs: Ruleset, rules: GameRules, specs: Sequence[str],
                   index: int, deal: int, rotation: int | None) -> str:
    """`simulate --log`'s line (so `rulekit replay` reads it), with the deal and rotation
    of a duplicate match."""
    extra = None if rotation is None else {"deal": deal, "rotation": rotation}
    return log_line(rec, rs, rules, specs, index, extra)


def run_match(rs: Ruleset, cfg: MatchConfig, log: HandLog | None = None,
              progress: Callable[[int], None] | None = None) -> MatchResult:
    """Play the match; every bot process is ended when it returns or raises."""
    rules = game_rules(rs)
    n = rules.players
    res = MatchResult()
    parts = [Participant(i, spec, rs, cfg.think_time, res.faults.append, cfg.cwd)
             for i, spec in enumerate(cfg.specs)]
    total = cfg.hands * n if cfg.duplicate else cfg.hands
    summary = protocol.rule_summary(rs, rules)
    try:
        for p in parts:
            p.launch(protocol.start(p.index, summary, players=n, hands=total,
                                    think_time=cfg.think_time))
        dealer = 0
        for index, deal, rotation, seed, first in schedule(cfg, n):
            dealer = dealer if first is None else first
            seated = [parts[(s - rotation) % n] for s in range(n)]
            rec = play_one(rs, seated, seed, dealer, index)
            specs = [p.spec for p in seated]
            o = outcome_of(rec)
            o.update(hand=index, deal=deal, rotation=rotation, players=specs)
            res.outcomes.append(o)
            if log is not None:
                log.write(match_log_line(rec, rs, rules, specs, index, deal,
                                         rotation if cfg.duplicate else None))
            dealer = rec.result["next_dealer"]
            if progress is not None:
                progress(1)
    finally:
        for p in parts:
            p.eof()
        for p in parts:
            p.close()
        res.answers = [p.answers() for p in parts if p.is_bot]
    return res
