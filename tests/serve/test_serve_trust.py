"""Issue 18, items 2-4: no request stalls the server, memory stays bounded, HTTP hygiene.

In-process tests drive the application (its overlay pool's worker processes are real); the
connection-level ones talk to a real `rulekit serve` on 127.0.0.1. Every wait is bounded; no
assertion is on how fast anything is, only on what is answered.
"""
from __future__ import annotations

import http.client
import json
import os
import socket
import sys
import threading
import time
from pathlib import Path
from typing import Any, Iterator

import pytest
from starlette.testclient import TestClient

import rulekit
from rulekit.serve import handlers
from rulekit.serve.errors import ApiError
from rulekit.serve.limits import ServeConfig
from rulekit.serve.main import allowed_hosts
from rulekit.serve.registry import Registry
from serve.serve_helpers import HAND, SERVED, Server, make_client


def heavy_overlay(tag: str, patterns: int = 80) -> str:
    """A valid overlay that takes a few tenths of a second to compile (long conditions,
    many patterns; within every static bound): the cost is real work, not a sleep."""
    expr = " or ".join(f"(hand.tiles == hand.tiles and {k} == {k + 1} and not context.discard)"
                       for k in range(10))
    pats = "".join(f"  p{i}:\n    name: p{i}\n    when: \"{expr}\"\n" for i in range(patterns))
    add = "".join(f"    p{i}: 1\n" for i in range(patterns))
    return f"extends: tianjin\nname: {tag}\npatterns:\n{pats}scoring:\n  add:\n{add}"


def gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def wait_until(check: Any, seconds: float = 10.0) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if check():
            return True
        time.sleep(0.05)
    return bool(check())


# --- item 2: one request never stalls the server -----------------------------------------

def test_a_slow_overlay_is_503_its_worker_killed_and_healthz_answers_meanwhile() -> None:
    client = make_client(seconds=2.0, processes=1, body_bytes=4 << 20)
    pool = client.app.state.overlays  # type: ignore[attr-defined]
    warm = client.post("/v1/score", json={"ruleset_yaml": "extends: tianjin\nname: w\n",
                                          "hand": HAND})
    assert warm.status_code == 200 and warm.json()["hand_fan"] == 14
    before = pool.pids()
    assert len(before) == 1 and not gone(before[0])
    # twenty distinct heavy overlays in one batch: several seconds of compiling in one worker
    batch = [{"ruleset_yaml": heavy_overlay(f"h{i}"), "hand": HAND} for i in range(20)]
    answer: dict[str, Any] = {}

    def slow() -> None:
        r = client.post("/v1/score:batch", json=batch)
        answer["status"], answer["body"] = r.status_code, r.json()
    t = threading.Thread(target=slow)
    t.start()
    health = 0
    while t.is_alive():
        r = client.get("/healthz")
        assert r.status_code == 200 and r.json()["ok"] is True
        health += 1
        plain = client.post("/v1/score", json={"ruleset": "tianjin", "hand": HAND})
        assert plain.status_code == 200 and plain.json()["hand_fan"] == 14
        t.join(0.05)
    t.join(30)
    assert health >= 1, "/healthz never answered while the slow request ran"
    assert answer["status"] == 503
    assert "longer than the 2 s limit" in answer["body"]["error"]["message"]
    # its worker was killed (the process is gone) and replaced
    assert wait_until(lambda: gone(before[0])), "the slow request's worker is still alive"
    assert pool.stats()["killed"] == 1
    after = client.post("/v1/score", json={"ruleset_yaml": "extends: tianjin\nname: w\n",
                                           "hand": HAND})
    assert after.status_code == 200 and pool.pids() != before
    pool.close()


def test_a_batch_reads_the_clock_between_documents(monkeypatch: pytest.MonkeyPatch) -> None:
    reg = Registry(ServeConfig())
    docs = [{"ruleset": "tianjin", "hand": HAND}] * 10
    ticks = iter(range(100))
    monkeypatch.setattr(handlers.time, "monotonic", lambda: float(next(ticks)))
    with pytest.raises(ApiError) as late:
        handlers.batch(reg, docs, None, deadline=3.5)     # the clock reads 0, 1, 2, 3, 4
    assert late.value.status == 503
    assert late.value.message.endswith("after 4 of 10 documents")
    assert len(handlers.batch(reg, docs, None)) == 10     # no deadline: every document


def test_waits_read_the_clock_between_tiles(monkeypatch: pytest.MonkeyPatch) -> None:
    reg = Registry(ServeConfig())
    req = {"hand": {"indicator": "7p", "hand": "46m123456789s22z"}}
    full = handlers.waits(reg, req)["waits"]
    assert [w["tile"] for w in full if w["win"]] == ["5m", "7p", "8p"]
    ticks = iter(range(100))
    monkeypatch.setattr(handlers.time, "monotonic", lambda: float(next(ticks)))
    with pytest.raises(ApiError) as late:
        handlers.waits(reg, req, deadline=0.5)            # the clock reads 0, then 1
    assert late.value.status == 503 and "time limit" in late.value.message


def test_a_batch_of_many_distinct_overlays_is_cut_at_the_deadline() -> None:
    client = make_client(seconds=0.5, processes=1)
    docs = [{"ruleset_yaml": f"extends: tianjin\nname: t{i}\nwin:\n  minimum: {i}\n",
             "hand": HAND} for i in range(1000)]
    t0 = time.monotonic()
    r = client.post("/v1/score:batch", json=docs)
    assert r.status_code == 503 and r.headers["retry-after"] == "1"
    assert time.monotonic() - t0 < 20          # generous: the point is that it ends
    plain = client.post("/v1/score", json={"hand": HAND})
    assert plain.status_code == 200
    client.app.state.overlays.close()  # type: ignore[attr-defined]


def test_distinct_overlays_do_not_grow_the_cache_past_its_bound() -> None:
    client = make_client(cache=4, processes=1)
    pool = client.app.state.overlays  # type: ignore[attr-defined]
    seen = []
    for i in range(12):
        r = client.post("/v1/score", json={
            "ruleset_yaml": f"extends: tianjin\nname: c{i}\nwin:\n  minimum: {i}\n",
            "hand": HAND})
        assert r.status_code == 200 and r.json()["win"] is (14 >= i)
        seen.append(pool.stats()["cached"])
    assert seen[:4] == [1, 2, 3, 4] and max(seen) == 4
    reg = Registry(ServeConfig(limits=client.app.state.registry.limits))  # type: ignore[attr-defined]
    for i in range(9):
        reg.inline(f"extends: tianjin\nname: d{i}\n")
    assert reg.cached() == 4
    pool.close()


def test_a_worker_past_its_memory_bound_is_replaced_after_its_job() -> None:
    client = make_client(processes=1, worker_memory=1)         # every worker is past 1 byte
    pool = client.app.state.overlays  # type: ignore[attr-defined]
    pids = []
    for i in range(3):
        r = client.post("/v1/score", json={"ruleset_yaml": f"extends: tianjin\nname: r{i}\n",
                                           "hand": HAND})
        assert r.status_code == 200 and r.json()["hand_fan"] == 14   # the job is answered
        pids.append(pool.pids())
    assert pool.stats()["recycled"] == 3 and pool.stats()["killed"] == 0
    assert len({p[0] for p in pids}) == 3                         # a new worker each time
    assert wait_until(lambda: gone(pids[0][0]))
    pool.close()


# --- item 4: Host and Origin ----------------------------------------------------------------

@pytest.fixture(scope="module")
def guarded() -> Iterator[TestClient]:
    with make_client() as c:
        yield c


def test_a_foreign_host_is_421_with_a_json_error(guarded: TestClient) -> None:
    for host in ("evil.example", "evil.example:8000", "127.0.0.1.evil.example",
                 "localhost.evil.example"):
        r = guarded.get("/healthz", headers={"Host": host})
        assert r.status_code == 421, host
        assert r.json()["error"]["field"] == "host"
    for host in ("localhost:8000", "127.0.0.1", "[::1]:8000", "LOCALHOST", "testserver"):
        assert guarded.get("/healthz", headers={"Host": host}).status_code == 200, host


@pytest.mark.parametrize("headers,status", [
    ({"Origin": "http://evil.example"}, 403),
    ({"Origin": "http://evil.example", "Content-Type": "text/plain"}, 403),
    ({"Origin": "null"}, 403),
    ({"Origin": "http://localhost:9999"}, 403),         # another origin on this machine
    ({"Origin": "https://testserver"}, 403),             # same host, another scheme
    ({"Origin": "https://testserver:80"}, 403),          # ... even on this port
    ({"Origin": "http://testserver:8080"}, 403),         # same host, another port
    ({"Origin": "ftp://testserver"}, 403),               # not a web origin
    ({"Origin": "http://testserver:80"}, 200),           # the default port written out
    ({"Origin": "HTTP://TestServer"}, 200),              # case does not matter
    ({"Sec-Fetch-Site": "cross-site"}, 403),
    ({"Origin": "http://testserver"}, 200),              # the calculator's own page
    ({"Sec-Fetch-Site": "same-origin", "Origin": "http://testserver"}, 200),
    ({}, 200),                                           # curl, a game server
])
def test_state_changing_requests_from_other_origins_are_403(
        guarded: TestClient, headers: dict[str, str], status: int) -> None:
    r = guarded.post("/v1/score", content=json.dumps({"hand": HAND}), headers=headers)
    assert r.status_code == status, r.text
    if status == 403:
        assert r.json()["error"]["field"] == "origin"
    else:
        assert r.json()["hand_fan"] == 14


def test_an_origin_is_scheme_host_and_port() -> None:
    """A page served over https on the same name and port is another origin than this http
    server (scheme compared); a ws/wss handshake is compared as http/https."""
    from rulekit.serve.guard import origin_of, refusal

    def post(origin: str, host: str = "127.0.0.1:8000", scheme: str = "http",
             kind: str = "http") -> int:
        scope = {"type": kind, "scheme": scheme, "method": "POST",
                 "headers": [(b"host", host.encode()), (b"origin", origin.encode())]}
        err = refusal(scope, {"127.0.0.1", "localhost", "::1"})
        return 200 if err is None else err.status
    assert origin_of("https", "127.0.0.1:8000") == ("https", "127.0.0.1", 8000)
    assert origin_of("HTTP", "[::1]") == ("http", "::1", 80)
    assert origin_of("wss", "a.example") == ("https", "a.example", 443)
    assert origin_of("http", "a.example:x") is None and origin_of("file", "") is None
    assert post("http://127.0.0.1:8000") == 200
    assert post("https://127.0.0.1:8000") == 403
    assert post("http://127.0.0.1:8001") == 403
    assert post("http://localhost:8000") == 403                  # another name: another origin
    assert post("https://127.0.0.1:8000", scheme="https") == 200  # served over TLS
    assert post("http://127.0.0.1:8000", scheme="https") == 403
    assert post("http://[::1]:8000", host="[::1]:8000") == 200
    assert post("http://127.0.0.1:8000", scheme="ws", kind="websocket") == 200
    assert post("https://127.0.0.1:8000", scheme="ws", kind="websocket") == 403
    assert post("https://127.0.0.1:8000", scheme="wss", kind="websocket") == 200


def test_reads_from_other_origins_are_answered(guarded: TestClient) -> None:
    r = guarded.get("/v1/rulesets", headers={"Origin": "http://evil.example"})
    assert r.status_code == 200 and r.json()["rulesets"]


def test_websocket_handshakes_are_held_to_host_and_origin() -> None:
    from starlette.applications import Starlette
    from starlette.middleware import Middleware
    from starlette.routing import WebSocketRoute
    from starlette.websockets import WebSocket, WebSocketDisconnect

    from rulekit.serve.guard import Guard

    async def echo(ws: WebSocket) -> None:
        await ws.accept()
        await ws.send_text("hello")
        await ws.close()
    app = Starlette(routes=[WebSocketRoute("/ws", echo)],
                    middleware=[Middleware(Guard, config=ServeConfig())])
    c = TestClient(app)
    with c.websocket_connect("/ws", headers={"Origin": "http://testserver"}) as ws:
        assert ws.receive_text() == "hello"
    with c.websocket_connect("/ws") as ws:                      # a bot: no Origin
        assert ws.receive_text() == "hello"
    for headers in ({"Origin": "http://evil.example"}, {"Host": "evil.example"},
                    {"Origin": "null"}, {"Origin": "https://testserver"}):
        with pytest.raises(WebSocketDisconnect) as refused:
            with c.websocket_connect("/ws", headers=headers):
                pass
        assert refused.value.code == 1008


def test_allowed_hosts_default_to_loopback_and_the_bound_address() -> None:
    # an application made in process answers loopback names and Starlette's TestClient;
    # `rulekit serve` computes its own list (never "testserver")
    assert ServeConfig().allowed_hosts == ("127.0.0.1", "localhost", "::1", "testserver")
    assert set(allowed_hosts("127.0.0.1", [])) == {"127.0.0.1", "localhost", "::1"}
    assert "192.168.1.5" in allowed_hosts("192.168.1.5", [])
    names = allowed_hosts("0.0.0.0", ["Club.LAN"])
    assert "club.lan" in names and "localhost" in names and "0.0.0.0" not in names
    assert socket.gethostname().lower() in names
    with make_client() as c:
        assert c.get("/healthz", headers={"Host": "club.lan"}).status_code == 421
    from rulekit.serve.app import create_app
    anyhost = TestClient(create_app(ServeConfig(allowed_hosts=("*",))))
    assert anyhost.get("/healthz", headers={"Host": "club.lan"}).status_code == 200


# --- item 4: error texts show no install path -------------------------------------------

def test_error_bodies_name_no_filesystem_path(guarded: TestClient) -> None:
    roots = {str(Path(rulekit.__file__).resolve().parent.parent), sys.prefix,
             str(SERVED.resolve()), str(Path.home())}
    bad = [
        ("POST", "/v1/score", {"ruleset_yaml": "extends: tianjin\nname: x\nwin:\n  bogus: 1\n",
                               "hand": HAND}),
        ("POST", "/v1/score", {"ruleset_yaml": "extends: table7\nname: x\nplayers: 9\n",
                               "hand": HAND}),
        ("POST", "/v1/score", {"ruleset": "nonexistent", "hand": HAND}),
        ("POST", "/v1/score", {"ruleset": "../../etc/passwd", "hand": HAND}),
        ("POST", "/v1/score", {"ruleset": "table7", "hand": {"hand": "zz"}}),
        ("POST", "/v1/validate", "extends: /etc/passwd\n"),
        ("POST", "/v1/validate", "extends: table7\npatterns:\n  x:\n    when: 'nope('\n"),
        ("GET", "/v1/rulesets/table7", None),
        ("GET", "/v1/rulesets", None),
        ("GET", "/rules/table7", None),
        ("GET", "/rules/nope", None),
        ("GET", "/no/such/page", None),
        ("POST", "/v1/score", "{not json"),
    ]
    for method, path, body in bad:
        content = body if isinstance(body, str) else json.dumps(body) if body else None
        r = guarded.request(method, path, content=content)
        for root in roots:
            assert root not in r.text, f"{method} {path} shows {root}: {r.text[:300]}"


# --- item 4: half-sent requests, against a real server --------------------------------------

@pytest.fixture(scope="module")
def strict() -> Iterator[Server]:
    s = Server("--read-timeout", "1", "--rulesets", str(SERVED))
    yield s
    s.stop()


def test_half_sent_requests_are_closed_after_the_timeout(strict: Server) -> None:
    heads = []
    for _ in range(20):
        s = socket.create_connection((strict.host, strict.port), timeout=15)
        s.sendall(b"POST /v1/score HTTP/1.1\r\nHost: localhost\r\n")      # no blank line
        heads.append(s)
    bodies = []
    for _ in range(5):
        s = socket.create_connection((strict.host, strict.port), timeout=15)
        s.sendall(b"POST /v1/score HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100\r\n\r\n{")
        bodies.append(s)
    # meanwhile a whole request is answered at once
    conn = http.client.HTTPConnection(strict.host, strict.port, timeout=15)
    conn.request("POST", "/v1/score", json.dumps({"hand": HAND}))
    assert conn.getresponse().status == 200
    for s in heads:                      # closed by the server, no answer
        assert s.recv(100) == b""
        s.close()
    for s in bodies:                     # 408 with a JSON error, then closed
        data = b""
        while chunk := s.recv(4096):
            data += chunk
        head, _, text = data.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 408") and b"connection: close" in head.lower()
        assert json.loads(text)["error"]["field"] == "body"
        s.close()
    assert strict.proc.poll() is None


def test_a_broken_served_file_is_named_by_its_name_only(tmp_path: Path) -> None:
    (tmp_path / "bad.yaml").write_text("extends: tianjin\nname: bad\nwin:\n  bogus: 1\n")
    with make_client(tmp_path) as c:
        for r in (c.post("/v1/score", json={"ruleset": "bad", "hand": HAND}),
                  c.post("/v1/score", json={"ruleset_yaml": "extends: bad\nname: y\n",
                                            "hand": HAND}),
                  c.get("/v1/rulesets")):
            assert str(tmp_path) not in r.text
            assert "bad.yaml:4: win.bogus: unknown key" in r.text
        c.app.state.overlays.close()  # type: ignore[attr-defined]


def test_workers_runs_several_server_processes_with_the_same_guards() -> None:
    s = Server("--workers", "2", "--read-timeout", "1")
    try:
        conn = http.client.HTTPConnection(s.host, s.port, timeout=30)
        for body in ({"hand": HAND},
                     {"ruleset_yaml": "extends: tianjin\nname: w2\n", "hand": HAND}):
            conn.request("POST", "/v1/score", json.dumps(body))
            r = conn.getresponse()
            assert r.status == 200 and json.loads(r.read())["hand_fan"] == 14
        conn.request("GET", "/healthz", headers={"Host": "evil.example"})
        r = conn.getresponse()
        assert r.status == 421 and json.loads(r.read())["error"]["field"] == "host"
        half = socket.create_connection((s.host, s.port), timeout=15)
        half.sendall(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n")
        assert half.recv(100) == b""                  # closed after the read timeout
        half.close()
    finally:
        s.stop()


def test_bad_worker_counts_are_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    from rulekit.cli import main
    assert main(["serve", "--workers", "0"]) == 2
    assert capsys.readouterr().err.strip().endswith("--workers must be between 1 and 64")


def test_abuse_leaves_the_log_quiet_and_without_tracebacks(strict: Server) -> None:
    """The last test of this module on `strict`: it stops that server to read its log."""
    s = strict
    try:
        for i in range(60):
            c = socket.create_connection((s.host, s.port), timeout=15)
            if i % 3 == 0:                    # not HTTP at all
                c.sendall(b"\x16\x03\x01 garbage \r\n\r\n")
            elif i % 3 == 1:                  # a body that stops, then the client goes away
                c.sendall(b"POST /v1/score HTTP/1.1\r\nHost: localhost\r\n"
                          b"Content-Length: 500\r\n\r\n{\"hand\":")
            else:                             # headers that stop
                c.sendall(b"POST /v1/score HTTP/1.1\r\nHost: loc")
            c.close()
        conn = http.client.HTTPConnection(s.host, s.port, timeout=15)
        conn.request("POST", "/v1/score", json.dumps({"hand": HAND}))
        assert conn.getresponse().status == 200
    finally:
        s.proc.terminate()
        s.proc.wait(timeout=20)
    log = s.proc.stderr.read().decode("utf-8", "replace")  # type: ignore[union-attr]
    assert "Traceback" not in log
    lines = [ln for ln in log.splitlines() if ln.strip()]
    # the two start lines, then at most five a window (QuietLog); the test above sent its
    # own half-sent requests to this server too
    assert len(lines) <= 2 + 5 + 1, log
