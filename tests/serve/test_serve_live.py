"""A real `rulekit serve` process on 127.0.0.1: the issue's curl, load, and abuse under load.

Bounded: a fixed number of requests, only to the loopback port of the server the fixture
started. The load figures are printed (run with -s to see them), never asserted on.
"""
from __future__ import annotations

import http.client
import importlib.util
import json
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from serve.serve_helpers import HAND, Server, child_env

BENCH = Path(__file__).resolve().parents[2] / "bench" / "serve_load.py"


def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("serve_load", BENCH)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    sys.modules["serve_load"] = mod
    spec.loader.exec_module(mod)
    return mod


def post(server: Server, path: str, body: bytes, timeout: float = 30) -> tuple[int, Any]:
    conn = http.client.HTTPConnection(server.host, server.port, timeout=timeout)
    try:
        conn.request("POST", path, body, {"Content-Type": "application/json"})
        resp = conn.getresponse()
        data = resp.read()
        return resp.status, json.loads(data)
    finally:
        conn.close()


def test_issue_curl_matches_cli(server: Server) -> None:
    """Done-when of issue 12: curl's answer equals `rulekit score --json -` on the document."""
    body = json.dumps({"ruleset": "tianjin", "hand": HAND})
    curl = shutil.which("curl")
    if curl:
        got = subprocess.run([curl, "-s", f"{server.url}/v1/score", "-d", body],
                             capture_output=True, text=True, timeout=30, check=True).stdout
    else:   # the same request curl -d sends: a form content type, the JSON as the body
        conn = http.client.HTTPConnection(server.host, server.port, timeout=30)
        conn.request("POST", "/v1/score", body,
                     {"Content-Type": "application/x-www-form-urlencoded"})
        got = conn.getresponse().read().decode()
    cli = subprocess.run([sys.executable, "-m", "rulekit.cli", "score", "--json", "-"],
                         input=json.dumps(HAND), capture_output=True, text=True, timeout=60,
                         check=True, cwd=tempfile.gettempdir(), env=child_env()).stdout
    assert json.loads(got) == json.loads(cli)
    assert json.loads(got)["explain"] == ["(捉5 3 + 龍 4) × 素 2 = 14"]


def test_five_thousand_requests_at_32_connections(server: Server) -> None:
    mod = bench()
    payloads = mod.bodies()
    result = mod.load(server.port, payloads, 5000, 32)
    rate = mod.in_process_rate(500)          # 500 distinct hands, each scored once
    print(f"\nserve load: {result.line()}; in process: {rate:.0f} hands/s")
    assert result.errors == []
    assert result.requests == 5000


def _abuse() -> list[tuple[str, str, bytes, int]]:
    bomb = ("extends: tianjin\na: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, "
            "*a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, "
            "*c, *c, *c, *c, *c, *c]\ne: [*d, *d, *d, *d, *d, *d, *d, *d, *d]\n")
    slow = ("extends: tianjin\npatterns:\n  slow:\n    name: slow\n    when: \"" +
            ": ".join(f"some v{i} in hand.tiles" for i in range(8)) + ": v0 == v7\"\n")
    return [
        ("oversized body", "/v1/score", b'{"hand": "' + b"1" * (2 * 1024 * 1024) + b'"}', 413),
        ("deep JSON", "/v1/score", b"[" * 50_000 + b"]" * 50_000, 413),
        ("alias bomb", "/v1/score", json.dumps({"ruleset_yaml": bomb, "hand": HAND}).encode(),
         422),
        ("work budget", "/v1/score", json.dumps({"ruleset_yaml": slow, "hand": HAND}).encode(),
         422),
        ("../ name", "/v1/score", json.dumps({"ruleset": "../../etc/passwd",
                                              "hand": HAND}).encode(), 400),
        ("extends a file", "/v1/score", json.dumps({
            "ruleset_yaml": "extends: /etc/passwd\n", "hand": HAND}).encode(), 422),
        ("big batch", "/v1/score:batch", json.dumps([{"hand": HAND}] * 1001).encode(), 413),
    ]


@pytest.mark.parametrize("name,path,body,status", _abuse(), ids=[a[0] for a in _abuse()])
def test_abuse_is_a_clean_4xx_while_others_are_served(server: Server, name: str, path: str,
                                                     body: bytes, status: int) -> None:
    mod = bench()
    payloads = mod.bodies(50)
    background: dict[str, Any] = {}
    runner = threading.Thread(target=lambda: background.setdefault(
        "r", mod.load(server.port, payloads, 300, 4)))
    runner.start()
    try:
        got, data = post(server, path, body)
    finally:
        runner.join()
    assert got == status, data
    assert set(data) == {"error"} and data["error"]["message"]
    assert background["r"].errors == [] and background["r"].requests == 300
