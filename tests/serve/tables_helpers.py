"""Helpers for the live tables' tests: an app on a store file, and waiting for a table."""
from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from rulekit.serve.app import create_app
from rulekit.serve.tables import TablesConfig

THREE_BOTS = ["human", "greedy", "greedy", "greedy"]


def tables_client(db: Path | str = ":memory:", **kw: Any) -> TestClient:
    kw.setdefault("grace", 0)
    config = TablesConfig(db=str(db), pause=0, **kw)
    return TestClient(create_app(tables_config=config), raise_server_exceptions=False)


def create(c: TestClient, seats: list[str], hands: int = 1, **extra: Any) -> dict[str, Any]:
    r = c.post("/v1/tables", json={"ruleset": "tianjin", "seats": seats, "hands": hands,
                                   **extra})
    assert r.status_code == 201, r.text
    got: dict[str, Any] = r.json()
    return got


def wait_status(c: TestClient, tid: str, status: str, seconds: float = 60) -> dict[str, Any]:
    """Poll the public state until the table reaches `status` (a bound, not a timing)."""
    deadline = time.monotonic() + seconds
    while True:
        st: dict[str, Any] = c.get(f"/v1/tables/{tid}").json()
        if st["status"] == status or time.monotonic() > deadline:
            return st
        time.sleep(0.02)


def until(ws: Any, kind: str) -> dict[str, Any]:
    """Messages from a seat's socket up to the first of type `kind`."""
    while True:
        m: dict[str, Any] = ws.receive_json()
        if m["type"] == kind:
            return m


def play_out(ws: Any) -> dict[str, Any]:
    """Answer every request (a win when offered, else the last legal action) to the `end`."""
    while True:
        m = ws.receive_json()
        if m["type"] == "request":
            legal = m["legal"]
            pick = next((a for a in legal if a["action"] == "win"), legal[-1])
            ws.send_text(json.dumps(pick))
        elif m["type"] == "end":
            return m
