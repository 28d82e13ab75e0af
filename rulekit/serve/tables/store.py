"""Where tables live between restarts: one SQLite file (`rulekit serve --db PATH`).

Tables, their sessions' hands, every action a seat took (so an unfinished hand resumes by
replaying them through the engine) and every finished hand's record (the line `rulekit
replay` reads) are rows. The schema is versioned by SQLite's `user_version` and upgraded by
the migrations below, in order; a file from a newer rulekit is refused, not guessed at.
WAL journal: readers never wait for the one writer, and each write is one short
transaction (an action is a few dozen bytes), so the event loop may make it directly.
"""
from __future__ import annotations

import json
import os
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rulekit.errors import RulekitError

# Migration i takes a file from user_version i to i + 1. Append only; never edit one.
MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE tables (
        id TEXT PRIMARY KEY,
        created REAL NOT NULL,
        ruleset TEXT NOT NULL,            -- a built-in or served name, or the overlay's name
        ruleset_yaml TEXT,                -- the inline overlay, when the table has one
        seats TEXT NOT NULL,              -- JSON: ["human", "greedy", "remote", ...]
        token_hashes TEXT NOT NULL,       -- JSON: SHA-256 hex of each seat's token
        hands INTEGER NOT NULL,           -- hands in the session
        think_time REAL NOT NULL,         -- seconds a human seat has per decision
        seed INTEGER NOT NULL,            -- the session's master seed
        status TEXT NOT NULL,             -- playing | finished | broken
        totals TEXT NOT NULL              -- JSON: running score per seat
    );
    CREATE TABLE hands (
        table_id TEXT NOT NULL REFERENCES tables(id),
        n INTEGER NOT NULL,               -- 0-based hand of the session
        seed TEXT NOT NULL,               -- decimal: a hand's seed takes 64 bits unsigned
        dealer INTEGER NOT NULL,
        record TEXT,                      -- JSON hand record once finished, else NULL
        PRIMARY KEY (table_id, n)
    );
    CREATE TABLE actions (
        table_id TEXT NOT NULL,
        n INTEGER NOT NULL,
        i INTEGER NOT NULL,               -- order within the hand
        seat INTEGER NOT NULL,
        action TEXT NOT NULL,             -- JSON action, as the seat gave it
        PRIMARY KEY (table_id, n, i)
    );
    """,
    """
    ALTER TABLE tables ADD COLUMN seeded INTEGER NOT NULL DEFAULT 0;  -- 1: the creator chose the seed
    """,
)
VERSION = len(MIGRATIONS)


class StoreError(RulekitError):
    """The table database cannot be opened or is from a newer rulekit."""


@dataclass(frozen=True, slots=True)
class TableRow:
    """A table as stored: its setup and where its session stands."""

    id: str
    created: float
    ruleset: str
    ruleset_yaml: str | None
    seats: tuple[str, ...]
    token_hashes: tuple[str, ...]
    hands: int
    think_time: float
    seed: int
    status: str
    totals: tuple[float, ...]
    seeded: bool = False            # the creator chose `seed` (and so knows every wall)


@dataclass(frozen=True, slots=True)
class HandRow:
    table_id: str
    n: int
    seed: int
    dealer: int
    record: dict[str, Any] | None


def default_path() -> Path:
    """`$XDG_DATA_HOME/rulekit/tables.db` (`~/.local/share/...` without it)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "rulekit" / "tables.db"


class Store:
    """One connection shared by the server's threads behind a lock (writes are short)."""

    def __init__(self, path: Path | str) -> None:
        self.path = str(path)
        try:
            if self.path != ":memory:":
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(self.path, check_same_thread=False,
                                      isolation_level=None)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.execute("PRAGMA foreign_keys=ON")
            self.db.execute("PRAGMA busy_timeout=5000")
        except (OSError, sqlite3.Error) as err:
            raise StoreError(f"--db {self.path}: cannot open: {err}") from None
        self.lock = threading.Lock()
        self.migrate()

    def migrate(self) -> None:
        """Bring the file to VERSION, one migration per transaction."""
        with self.lock:
            try:
                have = int(self.db.execute("PRAGMA user_version").fetchone()[0])
                if have > VERSION:
                    raise StoreError(f"--db {self.path}: schema version {have} is newer than "
                                     f"this rulekit's {VERSION}")
                for v in range(have, VERSION):
                    self.db.executescript("BEGIN;" + MIGRATIONS[v]
                                          + f"PRAGMA user_version={v + 1}; COMMIT;")
            except sqlite3.DatabaseError as err:
                raise StoreError(f"--db {self.path}: not a table database: {err}") from None

    def version(self) -> int:
        with self.lock:
            return int(self.db.execute("PRAGMA user_version").fetchone()[0])

    def close(self) -> None:
        with self.lock:
            self.db.close()

    # -- tables ----------------------------------------------------------------------------
    def add_table(self, t: TableRow) -> None:
        with self.lock:
            self.db.execute(
                "INSERT INTO tables VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                (t.id, t.created, t.ruleset, t.ruleset_yaml, json.dumps(list(t.seats)),
                 json.dumps(list(t.token_hashes)), t.hands, t.think_time, t.seed, t.status,
                 json.dumps(list(t.totals)), int(t.seeded)))

    def set_status(self, table_id: str, status: str, totals: list[float]) -> None:
        with self.lock:
            self.db.execute("UPDATE tables SET status=?, totals=? WHERE id=?",
                            (status, json.dumps(totals), table_id))

    def table(self, table_id: str) -> TableRow | None:
        with self.lock:
            row = self.db.execute("SELECT * FROM tables WHERE id=?", (table_id,)).fetchone()
        return _table(row) if row else None

    def tables(self, unfinished: bool = False) -> list[TableRow]:
        """Every table, oldest first; with `unfinished`, only those still to be played."""
        where = " WHERE status IN ('waiting', 'playing')" if unfinished else ""
        with self.lock:
            rows = self.db.execute(f"SELECT * FROM tables{where} ORDER BY created").fetchall()
        return [_table(r) for r in rows]

    # -- hands and actions -----------------------------------------------------------------
    def start_hand(self, table_id: str, n: int, seed: int, dealer: int) -> None:
        with self.lock:
            self.db.execute("INSERT OR IGNORE INTO hands VALUES (?,?,?,?,NULL)",
                            (table_id, n, str(seed), dealer))

    def add_action(self, table_id: str, n: int, i: int, seat: int,
                   action: dict[str, Any]) -> None:
        with self.lock:
            self.db.execute("INSERT INTO actions VALUES (?,?,?,?,?)",
                            (table_id, n, i, seat, json.dumps(action)))

    def finish_hand(self, table_id: str, n: int, record: dict[str, Any],
                    totals: list[float], status: str) -> None:
        """The record and the new totals in one transaction: never one without the other."""
        with self.lock:
            self.db.execute("BEGIN")
            try:
                self.db.execute("UPDATE hands SET record=? WHERE table_id=? AND n=?",
                                (json.dumps(record, ensure_ascii=False), table_id, n))
                self.db.execute("UPDATE tables SET totals=?, status=? WHERE id=?",
                                (json.dumps(totals), status, table_id))
                self.db.execute("COMMIT")
            except BaseException:
                self.db.execute("ROLLBACK")
                raise

    def hands(self, table_id: str) -> list[HandRow]:
        with self.lock:
            rows = self.db.execute("SELECT * FROM hands WHERE table_id=? ORDER BY n",
                                   (table_id,)).fetchall()
        return [HandRow(r[0], r[1], int(r[2]), r[3], json.loads(r[4]) if r[4] else None)
                for r in rows]

    def actions(self, table_id: str, n: int) -> list[tuple[int, dict[str, Any]]]:
        with self.lock:
            rows = self.db.execute("SELECT seat, action FROM actions WHERE table_id=? AND n=? "
                                   "ORDER BY i", (table_id, n)).fetchall()
        return [(int(s), json.loads(a)) for s, a in rows]


def _table(r: tuple[Any, ...]) -> TableRow:
    return TableRow(r[0], r[1], r[2], r[3], tuple(json.loads(r[4])), tuple(json.loads(r[5])),
                    r[6], r[7], r[8], r[9], tuple(json.loads(r[10])), bool(r[11]))
