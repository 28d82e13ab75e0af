"""A live table on a real `rulekit serve` process over real WebSockets (uvicorn with the
`websockets` library): a stdin/stdout bot seated through examples/table_bridge.py plays a
whole session, and the session ends by closing the seat's socket."""
from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import httpx

from serve.serve_helpers import Server, child_env

ROOT = Path(__file__).resolve().parents[2]


def test_a_remote_bot_plays_a_session_through_the_bridge() -> None:
    server = Server()
    try:
        t = httpx.post(server.url + "/v1/tables", json={
            "ruleset": "tianjin", "seats": ["greedy", "remote", "random", "greedy"],
            "hands": 2}).json()
        ws_url = server.url.replace("http", "ws", 1) + t["seats"][1]["ws"]
        bridge = subprocess.run(
            [sys.executable, str(ROOT / "examples" / "table_bridge.py"), ws_url,
             sys.executable, str(ROOT / "examples" / "bot_greedyish.py")],
            capture_output=True, text=True, timeout=120, env=child_env())
        assert bridge.returncode == 0, bridge.stderr
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            st = httpx.get(f"{server.url}/v1/tables/{t['id']}").json()
            if st["status"] == "finished":
                break
            time.sleep(0.1)
        assert st["status"] == "finished" and st["finished_hands"] == [0, 1]
        assert st["seats"][1]["fallbacks"] == 0          # every decision was the bot's
        lines = httpx.get(f"{server.url}/v1/tables/{t['id']}/hands.jsonl").text.splitlines()
        recs = [json.loads(x) for x in lines]
        assert [r["players"] for r in recs] == [["greedy", "remote", "random", "greedy"]] * 2
    finally:
        server.stop()
