"""The tables' SQLite store: schema versions and migrations, WAL, what a restart reads back."""
from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from rulekit.serve.tables import store as store_mod
from rulekit.serve.tables.store import VERSION, Store, StoreError, TableRow

ROW = TableRow(id="t1", created=1.5, ruleset="tianjin", ruleset_yaml=None,
               seats=("human", "greedy", "greedy", "remote"), token_hashes=("a", "b", "c", "d"),
               hands=4, think_time=90.0, seed=2**61, status="playing", totals=(0, 0, 0, 0))


def test_a_new_file_is_at_the_latest_version_in_wal(tmp_path: Path) -> None:
    s = Store(tmp_path / "sub" / "t.db")          # the folder is made
    assert s.version() == VERSION == len(store_mod.MIGRATIONS)
    with sqlite3.connect(tmp_path / "sub" / "t.db") as raw:
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    s.close()
    assert Store(tmp_path / "sub" / "t.db").version() == VERSION   # reopening changes nothing


def test_rows_come_back_as_written(tmp_path: Path) -> None:
    s = Store(tmp_path / "t.db")
    s.add_table(ROW)
    s.start_hand("t1", 0, 2**64 - 1, 3)            # a hand's seed takes 64 unsigned bits
    s.add_action("t1", 0, 0, 2, {"action": "discard", "tile": "5m"})
    s.add_action("t1", 0, 1, 3, {"action": "pass"})
    s.close()
    s = Store(tmp_path / "t.db")
    assert s.tables() == [ROW] and s.table("t1") == ROW and s.table("nope") is None
    (h,) = s.hands("t1")
    assert (h.n, h.seed, h.dealer, h.record) == (0, 2**64 - 1, 3, None)
    assert s.actions("t1", 0) == [(2, {"action": "discard", "tile": "5m"}), (3, {"action": "pass"})]
    s.finish_hand("t1", 0, {"hand": 0, "events": []}, [1.0, -1.0, 0.0, 0.0], "finished")
    assert s.hands("t1")[0].record == {"hand": 0, "events": []}
    got = s.table("t1")
    assert got is not None and (got.status, got.totals) == ("finished", (1.0, -1.0, 0.0, 0.0))


def test_an_older_file_is_migrated_and_a_newer_one_refused(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "t.db"
    with sqlite3.connect(path) as raw:
        raw.execute("PRAGMA user_version=0")        # an empty file: every migration runs
    extra = "CREATE TABLE notes (table_id TEXT, text TEXT);"
    monkeypatch.setattr(store_mod, "MIGRATIONS", store_mod.MIGRATIONS + (extra,))
    monkeypatch.setattr(store_mod, "VERSION", VERSION + 1)
    s = Store(path)
    assert s.version() == VERSION + 1
    s.add_table(ROW)
    s.close()
    monkeypatch.undo()                             # this rulekit again: the file is newer
    with pytest.raises(StoreError, match=f"schema version {VERSION + 1} is newer"):
        Store(path)


def test_a_version_1_file_gains_seeded_and_unfinished_tables_are_listed(tmp_path: Path) -> None:
    """Migration 2 adds `seeded` (a table from before it was never seeded); `tables(unfinished=
    True)` is what a restart loads."""
    path = tmp_path / "t.db"
    with sqlite3.connect(path) as raw:             # the file rulekit wrote before `seeded`
        raw.executescript(store_mod.MIGRATIONS[0] + "PRAGMA user_version=1;")
        raw.execute("INSERT INTO tables VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                    ("old", 1.0, "tianjin", None, '["greedy"]', '["x"]', 1, 60.0, 5,
                     "finished", "[0.0]"))
    s = Store(path)
    assert s.version() == VERSION == 2
    old = s.table("old")
    assert old is not None and (old.seeded, old.seed, old.status) == (False, 5, "finished")
    s.add_table(ROW)
    seeded = TableRow(**{**{f: getattr(ROW, f) for f in ROW.__slots__}, "id": "t2",
                         "created": 2.0, "seeded": True})
    s.add_table(seeded)
    assert [t.id for t in s.tables()] == ["old", "t1", "t2"]
    assert s.tables(unfinished=True) == [ROW, seeded]
    s.close()


def test_a_file_that_is_not_a_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    path.write_bytes(b"this is not sqlite at all" * 100)
    with pytest.raises(StoreError, match="cannot open: file is not a database"):
        Store(path)


def test_the_default_file_is_under_the_user_data_directory(monkeypatch: pytest.MonkeyPatch,
                                                             tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert store_mod.default_path() == tmp_path / "rulekit" / "tables.db"
