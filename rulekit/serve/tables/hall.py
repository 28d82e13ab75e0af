"""The tables of one server: created, found by id, rebuilt from the store at start.

Memory is bounded: tables in play (at most `max_tables`) and the `keep_finished` most
recently finished, each for at most `finished_seconds`. A finished table dropped from
memory (or one finished before a restart: start loads only the unfinished) is read back from
the store when someone asks for it; its records are read from the store directly.

A table's id and each seat's token are `secrets.token_urlsafe` values; the store keeps only
each token's SHA-256, compared in constant time (`hmac.compare_digest`). The id alone shows
the public state (seats, scores, finished hands); a seat's tiles and its WebSocket need the
seat's token: the link is the key.
"""
from __future__ import annotations

import asyncio
import secrets
import sys
import time
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from rulekit.game.players import PLAYERS
from rulekit.ruleset.model import Ruleset
from rulekit.serve.errors import ApiError
from rulekit.serve.limits import ServeConfig
from rulekit.serve.registry import Registry
from rulekit.serve.tables.live import PEOPLE, LiveTable, Timing, token_hash
from rulekit.serve.tables.store import Store, TableRow

KINDS = PEOPLE + PLAYERS
UNFINISHED = ("waiting", "playing")
SEED_LIMIT = 2 ** 62            # a table's seed, given or drawn (it fits SQLite's INTEGER)


@dataclass(frozen=True, slots=True)
class TablesConfig:
    """`rulekit serve --db` and the bounds of the tables a server runs."""

    db: str = ":memory:"            # the CLI passes --db (default store.default_path())
    max_tables: int = 100           # tables in play at once (finished ones do not count)
    max_hands: int = 64             # hands in one session
    think_time: float = 120.0       # a person's default seconds per decision
    max_think: float = 3600.0
    bot_time: float = 10.0          # a remote or in-process bot's seconds per decision
    pause: float = 15.0             # seconds between hands when a person sits at a table
    grace: float = 5.0              # seconds a dropped seat is waited for (a page reload)
    threads: int = 4                # the referee's and the bots' threads
    keep_finished: int = 32         # finished tables kept in memory, the latest first ...
    finished_seconds: float = 600.0  # ... each for at most this long after it finished
    enabled: bool = True            # False: no store opened, no table routes (a server of
    #                                 several processes: a table lives in one process)


class Tables:
    def __init__(self, config: ServeConfig, registry: Registry,
                 tables: TablesConfig | None = None) -> None:
        self.config = tables or TablesConfig()
        self.serve = config
        self.reg = registry
        self.store = Store(self.config.db if self.config.enabled else ":memory:")
        self.pool = ThreadPoolExecutor(max_workers=self.config.threads,
                                       thread_name_prefix="rulekit-table")
        self.live: dict[str, LiveTable] = {}
        self.done: OrderedDict[str, float] = OrderedDict()   # finished in memory: since when
        self.timing = Timing(self.config.think_time, self.config.bot_time, self.config.pause,
                             self.config.grace)

    # -- lifespan --------------------------------------------------------------------------
    async def startup(self) -> None:
        """Every unfinished table back in memory, playing on from its log (finished ones are
        read from the store when asked for)."""
        loop = asyncio.get_running_loop()
        if not self.config.enabled:
            return
        for row in self.store.tables(unfinished=True):
            try:
                rs = await loop.run_in_executor(self.pool, self.ruleset_of, row)
            except ApiError as err:
                sys.stderr.write(f"rulekit serve: table {row.id}: its ruleset no longer "
                                 f"loads ({err.message})\n")
                continue
            self.add(row, rs)

    async def shutdown(self) -> None:
        tasks = [t.task for t in self.live.values() if t.task is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self.pool.shutdown(wait=False, cancel_futures=True)
        self.store.close()

    def add(self, row: TableRow, rs: Ruleset) -> LiveTable:
        table = LiveTable(row, rs, self.store, self.pool, self.timing, self.ended)
        self.live[row.id] = table
        if row.status in UNFINISHED:
            table.task = asyncio.get_running_loop().create_task(table.run())
        else:
            self.ended(table)
        return table

    def ended(self, table: LiveTable) -> None:
        """`table` is over: it stays in memory a while (its page shows the last result), then
        only in the store."""
        self.done[table.row.id] = time.monotonic()
        self.done.move_to_end(table.row.id)
        self.prune()
        asyncio.get_running_loop().call_later(self.config.finished_seconds, self.prune)

    def prune(self) -> None:
        """Drop finished tables past `keep_finished`, oldest first, and those finished more
        than `finished_seconds` ago."""
        old = time.monotonic() - self.config.finished_seconds
        while self.done and (len(self.done) > self.config.keep_finished
                             or next(iter(self.done.values())) <= old):
            tid, _ = self.done.popitem(last=False)
            table = self.live.get(tid)
            if table is not None and table.status not in UNFINISHED:
                table.close_all()
                del self.live[tid]

    def ruleset_of(self, row: TableRow) -> Ruleset:
        if row.ruleset_yaml is not None:
            return self.reg.inline(row.ruleset_yaml)
        return self.reg.get(row.ruleset)

    # -- finding ---------------------------------------------------------------------------
    async def get(self, table_id: str) -> LiveTable:
        """The table in memory, or a finished one read back from the store."""
        table = self.live.get(table_id)
        if table is not None:
            return table
        row = self.store.table(table_id) if self.config.enabled else None
        if row is None or row.status in UNFINISHED:     # in play but not here: its ruleset
            raise ApiError(404, "id", "no table with that id")   # did not load at start
        loop = asyncio.get_running_loop()
        try:
            rs = await loop.run_in_executor(self.pool, self.ruleset_of, row)
        except ApiError:
            raise ApiError(404, "id", "no table with that id (its ruleset no longer "
                                      "loads; its hands are still at /hands.jsonl)") from None
        return self.live.get(table_id) or self.add(row, rs)

    def known(self, table_id: str) -> None:
        """404 unless a table with that id is in memory or in the store."""
        if table_id not in self.live and self.store.table(table_id) is None:
            raise ApiError(404, "id", "no table with that id")

    async def seat(self, table_id: str, seat: Any, token: Any) -> tuple[LiveTable, int]:
        """The table and seat a token opens; 403 (and nothing else) when it opens none."""
        table = await self.get(table_id)
        try:
            s = int(seat)
        except (TypeError, ValueError):
            s = -1
        if not isinstance(token, str) or not table.token_ok(s, token):
            raise ApiError(403, "token", "this link opens no seat of this table")
        return table, s

    # -- creating --------------------------------------------------------------------------
    async def create(self, req: Any) -> dict[str, Any]:
        if not isinstance(req, dict):
            raise ApiError(400, "body", "expected a JSON object")
        loop = asyncio.get_running_loop()
        rs = await loop.run_in_executor(self.pool, self.reg.pick, req)
        seats, hands, think = self.check(req, rs)
        seed = req.get("seed")
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)
                                 or not 0 <= seed < SEED_LIMIT):
            raise ApiError(422, "seed", f"a whole number from 0 to {SEED_LIMIT - 1}")
        playing = sum(1 for t in self.live.values() if t.status in ("waiting", "playing"))
        if playing >= self.config.max_tables:
            raise ApiError(429, "body", f"this server runs at most {self.config.max_tables} "
                                        f"tables at once; try again when one finishes")
        tokens = [secrets.token_urlsafe(18) for _ in seats]
        overlay = req.get("ruleset_yaml")
        row = TableRow(id=secrets.token_urlsafe(9), created=time.time(),
                       ruleset=rs.name if overlay is None else f"{rs.name} (overlay)",
                       ruleset_yaml=overlay, seats=tuple(seats),
                       token_hashes=tuple(token_hash(t) for t in tokens), hands=hands,
                       think_time=think,
                       seed=secrets.randbits(62) if seed is None else seed,
                       status="playing", totals=tuple(0.0 for _ in seats),
                       seeded=seed is not None)
        self.store.add_table(row)
        table = self.add(row, rs)
        links = []
        for i, (kind, tok) in enumerate(zip(seats, tokens)):
            q = f"seat={i}&token={tok}"
            links.append({"seat": i, "kind": kind, "token": tok,
                          "link": f"/tables/{row.id}?{q}",
                          "ws": f"/v1/tables/{row.id}/ws?{q}"} if kind in PEOPLE
                         else {"seat": i, "kind": kind})
        return {"id": row.id, "seats": links, "table": table.public()}

    def check(self, req: dict[str, Any], rs: Ruleset) -> tuple[list[str], int, float]:
        seats = req.get("seats")
        if not isinstance(seats, list) or len(seats) != rs.players:
            raise ApiError(422, "seats", f"a list of {rs.players} seats, each one of "
                                         + ", ".join(KINDS))
        for i, k in enumerate(seats):
            if k not in KINDS:
                raise ApiError(422, f"seats[{i}]", f"{str(k)[:40]!r}: a seat is one of "
                                                   + ", ".join(KINDS))
        hands = req.get("hands", 1)
        if not isinstance(hands, int) or isinstance(hands, bool) \
                or not 1 <= hands <= self.config.max_hands:
            raise ApiError(422, "hands", f"a whole number from 1 to {self.config.max_hands}")
        think = req.get("think_time", self.config.think_time)
        if not isinstance(think, (int, float)) or isinstance(think, bool) \
                or not 1 <= think <= self.config.max_think:
            raise ApiError(422, "think_time", f"seconds, from 1 to {self.config.max_think:g}")
        return list(seats), hands, float(think)

    # -- finished hands --------------------------------------------------------------------
    def record(self, table_id: str, n: Any) -> dict[str, Any]:
        """A finished hand's record (every tile revealed); 404 for one still in play."""
        self.known(table_id)
        for h in self.store.hands(table_id):
            if str(h.n) == str(n) and h.record is not None:
                return exported(h.record)
        raise ApiError(404, "hand", "no finished hand with that number at this table")

    def records(self, table_id: str) -> list[dict[str, Any]]:
        self.known(table_id)
        return [exported(h.record) for h in self.store.hands(table_id) if h.record is not None]


def exported(record: dict[str, Any]) -> dict[str, Any]:
    """A kept hand as `rulekit replay` reads it: the sealed log line, without the settle
    document the server keeps beside it for the result view (records.hand_record)."""
    return {k: v for k, v in record.items() if k != "settle"}
