"""One table in play: its seats' connections, the session's hands, the referee between them.

A table runs as one asyncio task in the server's loop. It asks the referee (`engine.py`)
which seat must decide, asks that seat (a person or a remote bot over its WebSocket, a
built-in bot in a thread), hands the answer to the referee in the executor, writes it to the
store and tells every seat what it may see. A seat with no connection, or one that does not
answer within its think time, gets the fallback, the built-in `greedy` player's choice (as
in `rulekit match`, docs/bots.md); it plays again from its next request. Nothing a seat sends
reaches the referee unless it is one of `legal`: an answer that is not is a fault, as in
`rulekit match` (docs/bots.md, "When a bot fails"): the fallback plays that decision at once
and the connection that sent it is closed (FAULT_CLOSE); the seat may connect again.
"""
from __future__ import annotations

import asyncio
import hmac
import hashlib
import sys
import time
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any, Callable

from rulekit.errors import RulekitError
from rulekit.game.protocol import rule_summary
from rulekit.game.players import PLAYERS
from rulekit.game.rules import game_rules
from rulekit.game.simulate import hand_seed
from rulekit.ruleset.model import Ruleset
from rulekit.serve.tables import wire
from rulekit.game import make_player
from rulekit.game.players import Player
from rulekit.game.actions import Action
from rulekit.serve.tables.engine import Engine, EngineError
from rulekit.serve.tables.records import hand_record, result_view
from rulekit.serve.tables.store import Store, TableRow

OUTBOX = 2000                 # messages queued to one connection before it is dropped
PEOPLE = ("human", "remote")
OPEN_CHOICES = ("discard", "sit", "pull")    # a question everyone knows is being asked
FAULT_CLOSE = 4400            # the close code of a connection whose answer was a fault


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(eq=False)
class Conn:
    """One WebSocket of a seat: an outbox its writer task drains, so a slow client never
    holds up the table (past OUTBOX queued messages it is dropped)."""

    view: bool                      # also wants `state` messages (the table page)
    outbox: asyncio.Queue[str | None] = field(default_factory=lambda: asyncio.Queue(OUTBOX))
    sent: int = 0                   # events of the current hand already sent
    hand: int = -1                  # which hand `sent` counts
    close_code: int | None = None   # set when the server closes it (4408 slow, 1000 done)

    def close(self, code: int) -> None:
        """Have the writer close the socket with `code` after what is queued (or at once
        when the queue is full: a slow client loses what it did not read)."""
        self.close_code = code
        if self.outbox.full():
            while not self.outbox.empty():
                self.outbox.get_nowait()
        self.outbox.put_nowait(None)

    def put(self, message: dict[str, Any]) -> bool:
        try:
            self.outbox.put_nowait(wire.encode(message))
            return True
        except asyncio.QueueFull:
            return False


@dataclass(eq=False)
class SeatLink:
    kind: str                       # "human", "remote" or a built-in bot's name
    conns: set[Conn] = field(default_factory=set)
    joined: bool = False            # has connected at least once
    asked: tuple[list[Action], asyncio.Future[Action | None]] | None = None
    deadline: float = 0.0
    fallbacks: int = 0
    faults: int = 0                 # answers refused (each one played by the fallback)
    gone_at: float = 0.0            # when its last connection closed


@dataclass(frozen=True, slots=True)
class Timing:
    think_time: float = 120.0       # a person's seconds per decision
    bot_time: float = 10.0          # a remote bot's (and an in-process bot's) seconds
    pause: float = 15.0             # between hands when people sit at the table
    grace: float = 5.0              # a seat whose connection drops (a page reloading) is
    #                                 waited for this long before the fallback plays it


class LiveTable:
    """A table's session in memory; the store holds everything needed to rebuild it."""

    def __init__(self, row: TableRow, rs: Ruleset, store: Store, pool: Executor,
                 timing: Timing, ended: Callable[[LiveTable], None] | None = None) -> None:
        self.row, self.rs, self.store, self.pool = row, rs, store, pool
        self.timing = timing
        self.ended = ended              # told once the session is over (the hall's memory)
        self.seats = [SeatLink(k) for k in row.seats]
        self.summary = rule_summary(rs, game_rules(rs))       # `start`'s ruleset, as in match
        self.totals = list(row.totals)
        self.status = row.status
        self.engine: Engine | None = None
        self.bots: dict[int, Player] = {}
        self.hand = 0
        self.last: dict[str, Any] | None = None       # the last finished hand, for the page
        self.finished = [h.n for h in store.hands(row.id) if h.record is not None]
        self.ready = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        if all(s.kind not in PEOPLE for s in self.seats):
            self.ready.set()

    # -- access ----------------------------------------------------------------------------
    def token_ok(self, seat: int, token: str) -> bool:
        """Constant-time check of a seat's token against its stored hash."""
        if not 0 <= seat < len(self.seats):
            return False
        return hmac.compare_digest(token_hash(token), self.row.token_hashes[seat])

    def public(self) -> dict[str, Any]:
        """What anyone with the table's id sees: no tiles of any seat in play."""
        eng = self.engine
        return {"id": self.row.id, "ruleset": self.row.ruleset,
                "overlay": self.row.ruleset_yaml is not None,
                "seats": [{"seat": i, "kind": s.kind, "connected": bool(s.conns),
                           "joined": s.joined, "fallbacks": s.fallbacks,
                           "faults": s.faults}
                          for i, s in enumerate(self.seats)],
                "hands": self.row.hands, "hand": self.hand, "status": self.status,
                "finished_hands": list(self.finished), "totals": list(self.totals),
                "pending": self.shown_pending(),
                "think_time": self.row.think_time, "seeded": self.row.seeded}

    def shown_pending(self) -> list[int]:
        """Who is to move, as everyone may know it: a seat's own turn and the choices made
        before the deal. A claim or a win on a discard is not shown: that a seat is asked
        would tell the others it holds a pair of the tile, or a winning hand."""
        eng = self.engine
        if eng is None or eng.over:
            return []
        return [s for s in eng.pending()
                if any(a["action"] in OPEN_CHOICES for a in eng.legal(s))]

    # -- connections -----------------------------------------------------------------------
    def connect(self, seat: int, conn: Conn) -> None:
        link = self.seats[seat]
        link.conns.add(conn)
        link.joined = True
        wait = self.row.think_time if link.kind == "human" else self.timing.bot_time
        conn.put(wire.start(seat, self.summary, players=len(self.seats),
                            hands=self.row.hands, think_time=wait))
        if all(s.joined or s.kind not in PEOPLE for s in self.seats):
            self.ready.set()
        self.push_seat(seat)
        if link.asked is not None:
            conn.put(self.request_message(seat, link.asked[0]))
        if self.status in ("finished", "broken"):
            link.conns.discard(conn)
            conn.close(1000)

    def disconnect(self, seat: int, conn: Conn) -> None:
        link = self.seats[seat]
        if conn not in link.conns:          # already let go (a fault, a slow client)
            return
        link.conns.discard(conn)
        if not link.conns:
            link.gone_at = time.monotonic()
            if link.asked is not None:
                self.after_grace(seat, link.asked[1], self.timing.grace)

    def after_grace(self, seat: int, fut: asyncio.Future[Action | None], delay: float) -> None:
        """Unless the seat is back within `delay` seconds, the fallback answers `fut`."""
        def gone() -> None:
            if not self.seats[seat].conns and not fut.done():
                fut.set_result(None)
        asyncio.get_running_loop().call_later(max(0.0, delay), gone)

    def answer(self, seat: int, conn: Conn, text: str) -> None:
        """A line from a seat: the answer to its request. One that is not an element of
        `legal` is a fault (docs/bots.md): an `error` naming it, the fallback answers at once,
        and this connection is closed. A line when nothing is asked only gets an `error`
        (a tap may cross the fallback's move)."""
        link = self.seats[seat]
        if link.asked is None or link.asked[1].done():
            conn.put(wire.error(seat, f"nothing is asked of seat {seat} now"))
            return
        try:
            action = wire.parse_answer(text, link.asked[0])
        except wire.ProtocolError as err:
            link.faults += 1
            conn.put(wire.error(seat, f"{err}; the fallback plays this decision",
                                fault=err.kind))
            link.asked[1].set_result(None)
            self.disconnect(seat, conn)
            conn.close(FAULT_CLOSE)
            return
        link.asked[1].set_result(action)

    # -- telling seats ---------------------------------------------------------------------
    def request_message(self, seat: int, legal: list[Action]) -> dict[str, Any]:
        obs = self.engine.observation(seat) if self.engine is not None else {}
        return wire.request(seat, obs, legal)

    def snapshot(self, seat: int) -> dict[str, Any]:
        eng = self.engine
        obs = eng.observation(seat) if eng is not None else None
        link = self.seats[seat]
        left = max(0.0, link.deadline - time.monotonic()) if link.asked else None
        return {"table": self.public(), "observation": obs, "last": self.last,
                "seconds_left": left}

    def push_seat(self, seat: int) -> None:
        """New events of the current hand to every connection of `seat`, and the page's
        state to those that want it."""
        eng = self.engine
        link = self.seats[seat]
        for conn in list(link.conns):
            ok = True
            if eng is not None:
                if conn.hand != self.hand:
                    conn.hand, conn.sent = self.hand, 0
                evs = eng.events(seat, conn.sent)
                for i, ev in enumerate(evs):
                    ok = ok and conn.put(wire.event(seat, self.hand, conn.sent + i, ev))
                conn.sent += len(evs)
            if conn.view:
                legal = link.asked[0] if link.asked else []
                ok = ok and conn.put(wire.state(seat, self.snapshot(seat), legal))
            if not ok:                                # too slow: drop it
                self.drop(seat, conn)

    def drop(self, seat: int, conn: Conn) -> None:
        """A connection that fell OUTBOX messages behind: its writer closes it (4408)."""
        self.disconnect(seat, conn)
        while not conn.outbox.empty():
            conn.outbox.get_nowait()
        conn.close(4408)

    def close_all(self) -> None:
        """The session is over: every socket is closed (1000) after its last messages."""
        for seat, link in enumerate(self.seats):
            for conn in list(link.conns):
                link.conns.discard(conn)
                conn.close(1000)

    def push_all(self) -> None:
        for s in range(len(self.seats)):
            self.push_seat(s)

    # -- the session -----------------------------------------------------------------------
    async def run(self) -> None:
        try:
            hands = self.store.hands(self.row.id)
            if hands:          # resumed after a restart: absent seats get a think time to return
                try:
                    await asyncio.wait_for(self.ready.wait(), self.row.think_time)
                except asyncio.TimeoutError:
                    pass
            else:
                await self.ready.wait()
            done = [h for h in hands if h.record is not None]
            dealer = done[-1].record["result"]["next_dealer"] if done and done[-1].record \
                else self.row.seed % len(self.seats)
            for n in range(len(done), self.row.hands):
                if n > len(done) and any(s.kind == "human" for s in self.seats):
                    await asyncio.sleep(self.timing.pause)
                dealer = await self.play(n, dealer)
            self.status = "finished"
            self.store.set_status(self.row.id, self.status, self.totals)
        except asyncio.CancelledError:
            raise
        except Exception as err:                      # noqa: BLE001 - a table never kills the server
            self.status = "broken"
            sys.stderr.write(f"rulekit serve: table {self.row.id} stopped: "
                             f"{type(err).__name__}: {err}\n")
            self.store.set_status(self.row.id, self.status, self.totals)
        finally:
            self.push_all()
            if self.status in ("finished", "broken"):
                self.close_all()
                if self.ended is not None:
                    self.ended(self)

    async def play(self, n: int, dealer: int) -> int:
        """Hand `n` from its first (or its last stored) action to its record; the next dealer."""
        loop = asyncio.get_running_loop()
        seed = hand_seed(self.row.seed, n)
        self.store.start_hand(self.row.id, n, seed, dealer)
        # seeded as `simulate` seeds them, so that `rulekit replay` derives their moves
        self.bots = {i: make_player(s.kind, self.rs, hand_seed(seed, i))
                     for i, s in enumerate(self.seats) if s.kind in PLAYERS}
        eng = await loop.run_in_executor(
            self.pool, lambda: Engine(self.rs, seed, dealer, list(self.totals)))
        stored = self.store.actions(self.row.id, n)          # an unfinished hand resumes
        for seat, action in stored:
            await loop.run_in_executor(self.pool, self.again, eng, seat, action)
        i = len(stored)
        self.engine, self.hand = eng, n
        self.push_all()
        while not eng.over:
            seats = eng.pending()          # several at once only for 拉莊: asked together
            answers = await asyncio.gather(*(self.decide(eng, s, eng.legal(s)) for s in seats))
            for seat, action in zip(seats, answers):
                await loop.run_in_executor(self.pool, eng.act, seat, action)
                self.store.add_action(self.row.id, n, i, seat, action)
                i += 1
            self.push_all()
        return await self.finish(eng, n)

    def again(self, eng: Engine, seat: int, action: Action) -> None:
        """A stored action of a resumed hand, applied as first played: a built-in bot is
        asked again first (its answer dropped), so that its random draws after the restart
        are the ones `rulekit replay` makes (each decision asks it once, as `bot` did)."""
        if seat in self.bots:
            obs, legal = eng.question(seat)
            try:
                self.bots[seat].act(obs, legal)
            except RulekitError:
                pass
        eng.act(seat, action)

    async def decide(self, eng: Engine, seat: int, legal: list[Action]) -> Action:
        link = self.seats[seat]
        obs = eng.observation(seat)
        if seat in self.bots:                         # a built-in bot, in a thread, bounded
            return await self.bot(eng, self.bots[seat], seat)
        question = eng.question(seat)
        wait = self.row.think_time if link.kind == "human" else self.timing.bot_time
        got: Action | None = None
        away = time.monotonic() - link.gone_at if not link.conns else 0.0
        if away < self.timing.grace or link.conns:
            fut: asyncio.Future[Action | None] = asyncio.get_running_loop().create_future()
            link.asked, link.deadline = (legal, fut), time.monotonic() + wait
            for conn in list(link.conns):
                conn.put(wire.request(seat, obs, legal))
            if not link.conns:
                self.after_grace(seat, fut, self.timing.grace - away)
            self.push_seat(seat)
            try:
                got = await asyncio.wait_for(fut, wait)
            except asyncio.TimeoutError:
                got = None
            finally:
                link.asked = None
        if got is None:                               # away or out of time: greedy plays
            link.fallbacks += 1
            return await asyncio.get_running_loop().run_in_executor(
                self.pool, eng.fallback, *question)
        return got

    async def bot(self, eng: Engine, player: Player, seat: int) -> Action:
        """A built-in bot's answer within the bot time, else greedy's (its thread, if stuck,
        finishes on its own: it reads only its copy of the observation)."""
        loop = asyncio.get_running_loop()
        obs, legal = eng.question(seat)
        try:
            return await asyncio.wait_for(
                loop.run_in_executor(self.pool, player.act, obs, legal), self.timing.bot_time)
        except (asyncio.TimeoutError, RulekitError):
            self.seats[seat].fallbacks += 1
            return await loop.run_in_executor(self.pool, eng.fallback, obs, legal)

    async def finish(self, eng: Engine, n: int) -> int:
        """Store the record and the totals together; tell every seat the result."""
        rec = eng.record()
        record = hand_record(rec, self.rs, list(self.row.seats), n)
        view = await asyncio.get_running_loop().run_in_executor(
            self.pool, lambda: result_view(record, self.rs))
        pays = record["result"]["payments"]
        self.totals = [t + float(p) for t, p in zip(self.totals, pays)]
        last = n + 1 >= self.row.hands
        self.status = "finished" if last else "playing"
        self.store.finish_hand(self.row.id, n, record, self.totals, self.status)
        self.finished.append(n)
        self.last = {**view, "totals": list(self.totals)}
        for s, link in enumerate(self.seats):
            for conn in list(link.conns):
                conn.put(wire.end(s, n, record["result"]))
        self.push_all()
        return int(record["result"]["next_dealer"])


__all__ = ["LiveTable", "Conn", "Timing", "token_hash", "EngineError"]
