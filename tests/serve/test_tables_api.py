"""Live tables over HTTP and WebSocket, in process: tokens, the referee's refusals, seats that
leave and come back, a remote bot, the records `rulekit replay` reads, and a restart."""
from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Callable

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from rulekit.game import cli as game_cli
from serve.tables_helpers import (THREE_BOTS, create, play_out, tables_client, until,
                                  wait_status)

ROOT = Path(__file__).resolve().parents[2]
OVERLAY = "extends: tianjin\nname: our table\n"


@pytest.fixture()
def c() -> TestClient:
    with tables_client() as client:
        yield client


def replay(path: Path) -> dict[str, object]:
    out = io.StringIO()
    code = game_cli.replay(SimpleNamespace(log=str(path), ruleset=None, format="json"), out)
    rep: dict[str, object] = json.loads(out.getvalue())
    rep["exit"] = code
    return rep


def test_bots_play_a_session_whose_records_replay(c: TestClient, tmp_path: Path) -> None:
    t = create(c, ["greedy", "value", "random", "greedy"], hands=3)
    assert [s.get("token") for s in t["seats"]] == [None] * 4     # bots have no link
    st = wait_status(c, t["id"], "finished")
    assert st["status"] == "finished" and st["finished_hands"] == [0, 1, 2]
    lines = c.get(f"/v1/tables/{t['id']}/hands.jsonl").text.splitlines()
    recs = [json.loads(x) for x in lines]
    assert [r["hand"] for r in recs] == [0, 1, 2]
    assert recs[0]["players"] == ["greedy", "value", "random", "greedy"]
    totals = [sum(r["result"]["payments"][s] for r in recs) for s in range(4)]
    assert st["totals"] == pytest.approx(totals)
    assert c.get(f"/v1/tables/{t['id']}/hands/1").json() == recs[1]
    path = tmp_path / "hands.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    rep = replay(path)
    assert (rep["hands"], rep["reproduced"], rep["exit"]) == (3, 3, 0)


def test_a_wrong_token_sees_nothing(c: TestClient) -> None:
    t = create(c, THREE_BOTS)
    tid, good = t["id"], t["seats"][0]["token"]
    for q in (f"seat=0&token={good}x", "seat=0&token=", f"seat=1&token={good}",
              f"seat=9&token={good}", f"seat=zero&token={good}"):
        r = c.get(f"/v1/tables/{tid}?{q}")
        assert r.status_code == 403
        assert r.json() == {"error": {"field": "token",
                                      "message": "this link opens no seat of this table"}}
        with pytest.raises(WebSocketDisconnect) as err:
            with c.websocket_connect(f"/v1/tables/{tid}/ws?{q}") as ws:
                ws.receive_json()
        assert err.value.code == 4403
    mine = c.get(f"/v1/tables/{tid}?seat=0&token={good}").json()
    assert mine["type"] == "state" and mine["observation"] is None   # dealt once all joined
    assert mine["table"]["seats"][0]["joined"] is False
    public = c.get(f"/v1/tables/{tid}").json()
    assert "observation" not in public and good not in json.dumps(public)
    assert c.get("/v1/tables/nosuchtable").status_code == 404
    assert c.get(f"/v1/tables/{tid}/hands/0").status_code == 404    # not over: not shown


def test_a_refused_answer_is_a_fault_the_fallback_plays_at_once(c: TestClient) -> None:
    """As in `rulekit match` (docs/bots.md, "When a bot fails"): an answer that is no element
    of `legal` is a fault. The seat hears why (`fault` names the kind), the fallback plays
    that decision at once (the think time is ten minutes: the table does not wait for it),
    and the connection is closed (4400); the seat may come back and plays on."""
    t = create(c, THREE_BOTS, think_time=600)
    url = t["seats"][0]["ws"]
    for n, (text, kind) in enumerate(((None, "illegal"), ("not json at all", "garbage"),
                                      ("[" * 9 + "]" * 9, "garbage")), start=1):
        with c.websocket_connect(url) as ws:
            start = until(ws, "start")
            assert start["protocol"] == "rulekit-bot/1" and start["think_time"] == 600
            try:
                req = until(ws, "request")
            except WebSocketDisconnect as gone:
                # the fallback played the seat out while it was away: the hand ended (the
                # server says `start`, then closes 1000); the earlier faults made the point
                assert n > 1 and gone.code == 1000
                break
            held = {a.get("tile") for a in req["legal"]}
            absent = next(f"{r}{s}" for s in "mpsz" for r in range(1, 8)
                          if f"{r}{s}" not in held)
            ws.send_text(text or json.dumps({"action": "discard", "tile": absent}))
            err = until(ws, "error")
            assert err["fault"] == kind and err["seat"] == 0
            assert err["message"].endswith("; the fallback plays this decision")
            if kind == "illegal":
                assert f'"tile": "{absent}"' in err["message"]
                assert "is not legal; legal:" in err["message"]
            with pytest.raises(WebSocketDisconnect) as closed:
                until(ws, "never")
            assert closed.value.code == 4400
        st = _seat_count(c, t["id"], "fallbacks", n)
        if st["status"] != "playing":
            break                                   # a bot won early: the point is made
        # the fault's decision, and any asked while the seat was away (grace 0 here)
        assert st["seats"][0]["faults"] == n and st["seats"][0]["fallbacks"] >= n
    assert st["seats"][0]["faults"] >= 1


def _seat_count(c: TestClient, tid: str, key: str, n: int,
                seconds: float = 60) -> dict[str, Any]:
    """The public state once seat 0's `key` reached `n` (a bound, not a timing)."""
    import time
    deadline = time.monotonic() + seconds
    while True:
        st: dict[str, Any] = c.get(f"/v1/tables/{tid}").json()
        if st["seats"][0][key] >= n or time.monotonic() > deadline:
            return st
        time.sleep(0.02)


def test_a_seat_that_leaves_gets_the_fallback_and_comes_back(c: TestClient) -> None:
    # seed 8: seat 0 deals (seed mod 4), so its 坐莊 question comes first and seat 1's
    # 拉莊 after it (with seat 1 dealing, seat 0 was asked only once seat 1's think time
    # had run out, and seat 1's late answer then hit its next request)
    t = create(c, ["human", "human", "greedy", "greedy"], think_time=60, seed=8)
    s0, s1 = t["seats"][0]["ws"], t["seats"][1]["ws"]
    with c.websocket_connect(s1) as ws1:
        with c.websocket_connect(s0) as ws0:
            until(ws0, "start")
            until(ws0, "request")
        # seat 0 vanished while asked: greedy answers for it, play goes on to seat 1
        req1 = until(ws1, "request")
        st = c.get(f"/v1/tables/{t['id']}").json()
        assert st["seats"][0]["fallbacks"] >= 1 and not st["seats"][0]["connected"]
        with c.websocket_connect(s0) as back:           # back: the hand so far, then play
            assert until(back, "start")["seat"] == 0
            ev = until(back, "event")
            assert ev["index"] == 0 and ev["hand"] == 0
            ws1.send_text(json.dumps(req1["legal"][-1]))
            end0 = _both(back, ws1)                     # both seats play the hand out
        assert end0 is not None and len(end0["result"]["payments"]) == 4
    st = wait_status(c, t["id"], "finished")
    assert st["finished_hands"] == [0]


def _both(a: object, b: object) -> dict[str, object] | None:
    """Play out both seats' sockets to the end of the hand; the end message of the first."""
    import threading
    ends: dict[int, dict[str, object]] = {}

    def run(i: int, ws: object) -> None:
        ends[i] = play_out(ws)
    threads = [threading.Thread(target=run, args=(i, ws)) for i, ws in enumerate((a, b))]
    for th in threads:
        th.start()
    for th in threads:
        th.join(60)
    return ends.get(0)


def test_a_remote_bot_plays_a_seat_over_the_websocket(c: TestClient) -> None:
    """The sample bot of `rulekit match` (stdin/stdout), bridged line by line to the seat's
    WebSocket: the same protocol, unchanged."""
    t = create(c, ["remote", "greedy", "greedy", "greedy"], hands=2)
    bot = subprocess.Popen([sys.executable, str(ROOT / "examples" / "bot_greedyish.py")],
                           stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert bot.stdin is not None and bot.stdout is not None
    answered, ends = 0, []
    try:
        with c.websocket_connect(t["seats"][0]["ws"]) as ws:
            while len(ends) < 2:
                m = ws.receive_json()
                bot.stdin.write(json.dumps(m) + "\n")
                bot.stdin.flush()
                if m["type"] == "request":
                    ws.send_text(bot.stdout.readline())
                    answered += 1
                elif m["type"] == "end":
                    ends.append(m["result"])
    finally:
        bot.stdin.close()
        bot.wait(10)
    st = wait_status(c, t["id"], "finished")
    assert answered > 0 and st["seats"][0]["fallbacks"] == 0
    recs = [c.get(f"/v1/tables/{t['id']}/hands/{n}").json() for n in range(2)]
    assert [r["result"] for r in recs] == ends


def test_tables_are_refused_when_malformed_or_too_many() -> None:
    with tables_client(max_tables=1) as c:
        bad = [({"ruleset": "tianjin", "seats": ["human"] * 3}, 422, "seats"),
               ({"ruleset": "tianjin", "seats": ["human"] * 3 + ["god"]}, 422, "seats[3]"),
               ({"ruleset": "tianjin", "seats": THREE_BOTS, "hands": 0}, 422, "hands"),
               ({"ruleset": "tianjin", "seats": THREE_BOTS, "hands": 10**6}, 422, "hands"),
               ({"ruleset": "tianjin", "seats": THREE_BOTS, "think_time": True}, 422,
                "think_time"),
               ({"ruleset": "nope", "seats": THREE_BOTS}, 404, "ruleset"),
               ({"ruleset_yaml": "extends: /etc/passwd\n", "seats": THREE_BOTS}, 422,
                "ruleset_yaml"),
               ([1, 2], 400, "body")]
        for body, status, field in bad:
            r = c.post("/v1/tables", json=body)
            assert (r.status_code, r.json()["error"]["field"]) == (status, field), body
        t = create(c, THREE_BOTS, ruleset=None, ruleset_yaml=OVERLAY)
        assert t["table"]["ruleset"] == "our table (overlay)"
        assert c.get(f"/v1/tables/{t['id']}/ruleset.yaml").text == OVERLAY
        r = c.post("/v1/tables", json={"ruleset": "tianjin", "seats": THREE_BOTS})
        assert r.status_code == 429


def test_a_restart_shows_every_table_and_resumes_an_unfinished_hand(tmp_path: Path) -> None:
    db = tmp_path / "tables.db"
    with tables_client(db, grace=600) as c:          # seat 0 is waited for, not played
        done = create(c, ["greedy"] * 4, hands=2)
        wait_status(c, done["id"], "finished")
        totals = c.get(f"/v1/tables/{done['id']}").json()["totals"]
        live = create(c, THREE_BOTS, think_time=60)
        with c.websocket_connect(live["seats"][0]["ws"]) as ws:
            for _ in range(3):                       # three of its moves, then the server dies
                req = until(ws, "request")
                ws.send_text(json.dumps(req["legal"][-1]))
            req = until(ws, "request")
            before = req["observation"]
    with tables_client(db) as c:                     # a new server on the same file
        st = c.get(f"/v1/tables/{done['id']}").json()
        assert st["status"] == "finished" and st["finished_hands"] == [0, 1]
        assert st["totals"] == totals
        assert c.get(f"/v1/tables/{done['id']}/hands/1").json()["hand"] == 1
        with c.websocket_connect(live["seats"][0]["ws"]) as ws:
            req = until(ws, "request")
            assert req["observation"] == before      # the hand resumed from its log
            ws.send_text(json.dumps(req["legal"][-1]))
            end = play_out(ws)
        rec = c.get(f"/v1/tables/{live['id']}/hands/0").json()
        assert rec["result"] == end["result"]
        path = tmp_path / "h.jsonl"
        path.write_text(json.dumps(rec) + "\n", encoding="utf-8")
        assert replay(path)["reproduced"] == 1


def test_a_seat_has_at_most_four_sockets(c: TestClient) -> None:
    t = create(c, THREE_BOTS, think_time=60)
    url = t["seats"][0]["ws"]
    with c.websocket_connect(url) as a, c.websocket_connect(url) as b, \
            c.websocket_connect(url) as d, c.websocket_connect(url) as e:
        for ws in (a, b, d, e):
            assert until(ws, "start")["seat"] == 0
        with pytest.raises(WebSocketDisconnect) as err:
            with c.websocket_connect(url) as f:
                f.receive_json()
        assert err.value.code == 4429


def test_the_public_state_never_says_who_is_asked_about_a_discard(c: TestClient) -> None:
    """A claim (pung, kong) or a win on a discard is asked of a seat that holds the tiles for
    it: naming that seat as pending would tell the others. Only own turns and the choices
    before the deal are shown. (Played until seat 0 is first asked about a discard.)"""
    t = create(c, ["human", "greedy", "greedy", "greedy"], hands=8, think_time=60)
    own = claims = 0
    with c.websocket_connect(t["seats"][0]["ws"]) as ws:
        while not claims:
            m = until(ws, "request")
            kinds = {a["action"] for a in m["legal"]}
            public = c.get(f"/v1/tables/{t['id']}").json()["pending"]
            if kinds & {"discard", "sit", "pull"}:
                own += 1
                assert 0 in public
            else:
                claims += 1
                assert public == [], m["legal"]
            pick = next((a for a in m["legal"] if a["action"] == "win"), m["legal"][-1])
            ws.send_text(json.dumps(pick))
    assert own > 0 and claims == 1


def test_a_connection_that_falls_behind_is_closed(c: TestClient,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The table never waits for a slow client: a connection more than OUTBOX messages
    behind is closed (4408); the seat's other connection plays on."""
    from rulekit.serve.tables import live
    t = create(c, THREE_BOTS, think_time=60)
    url = t["seats"][0]["ws"]
    with c.websocket_connect(url) as ws:
        # one move, so the hand is surely still on (the deal is random: after four, a bot had
        # once won and the session ended); the hand so far is already more than 3 messages
        req = until(ws, "request")
        ws.send_text(json.dumps(req["legal"][-1]))
        req = until(ws, "request")
        monkeypatch.setattr(live, "OUTBOX", 3)     # a reconnect gets the hand so far at once
        with pytest.raises(WebSocketDisconnect) as err:
            with c.websocket_connect(url + "&view=1") as slow:
                for _ in range(100):
                    slow.receive_json()
        assert err.value.code == 4408
        ws.send_text(json.dumps(req["legal"][-1]))
        assert until(ws, "request")["seat"] == 0   # the table went on


def test_tables_can_be_turned_off() -> None:
    """A server of several processes turns tables off: a table lives in one process."""
    with tables_client(enabled=False) as c:
        r = c.post("/v1/tables", json={"ruleset": "tianjin", "seats": ["greedy"] * 4})
        assert r.status_code == 404
        assert c.get("/tables").status_code == 404
        assert c.post("/v1/score", json={"hand": {"indicator": "7p", "hand": "46m123456789s22z",
                                                  "win_tile": "5m"}}).json()["win"] is True


def test_a_seed_makes_a_table_reproducible(c: TestClient) -> None:
    """`seed` (optional, for tests): the same seed, ruleset and seats play the same hands,
    record for record; the public state says the table was seeded (its creator knows every
    wall). A bad seed is a 422 naming the field."""
    seats = ["greedy", "value", "random", "greedy"]
    runs = []
    for _ in range(2):
        t = create(c, seats, hands=2, seed=20261201)
        assert t["table"]["seeded"] is True
        assert wait_status(c, t["id"], "finished")["finished_hands"] == [0, 1]
        runs.append(c.get(f"/v1/tables/{t['id']}/hands.jsonl").text)
    assert runs[0] == runs[1]
    recs = [json.loads(x) for x in runs[0].splitlines()]
    assert recs[0]["dealer"] == 20261201 % 4
    other = create(c, seats, hands=2)
    assert other["table"]["seeded"] is False
    wait_status(c, other["id"], "finished")
    assert c.get(f"/v1/tables/{other['id']}/hands.jsonl").text != runs[0]
    for bad in (-1, 2 ** 62, True, "7", 1.5):
        r = c.post("/v1/tables", json={"ruleset": "tianjin", "seats": seats, "seed": bad})
        assert (r.status_code, r.json()["error"]["field"]) == (422, "seed"), bad


def test_finished_tables_leave_memory_and_are_read_back_from_the_store(tmp_path: Path) -> None:
    """At most `keep_finished` finished tables stay in memory (and none past
    `finished_seconds`); a dropped one answers from the store as before, and a restarted
    server loads only the unfinished."""
    db = tmp_path / "tables.db"
    with tables_client(db, keep_finished=1) as c:
        hall = c.app.state.tables                       # type: ignore[attr-defined]
        ids: list[str] = []
        for _ in range(3):
            t = create(c, ["greedy"] * 4, hands=1, seed=len(ids))
            ids.append(t["id"])
            wait_status(c, t["id"], "finished")
        assert _eventually(lambda: len(hall.live) <= 1)
        assert ids[0] not in hall.live and ids[1] not in hall.live
        shown = {}
        for tid in ids:                                 # each read back: shown as before
            st = c.get(f"/v1/tables/{tid}").json()
            assert (st["status"], st["finished_hands"], st["seeded"]) == ("finished", [0], True)
            shown[tid] = st["totals"]
            rec = c.get(f"/v1/tables/{tid}/hands/0").json()
            assert [round(p, 9) for p in rec["result"]["payments"]] == \
                [round(x, 9) for x in st["totals"]]
            assert len(hall.live) <= 1 and tid in hall.live
    with tables_client(db, finished_seconds=0) as c:
        hall = c.app.state.tables                       # type: ignore[attr-defined]
        assert hall.live == {}                          # nothing to play: nothing loaded
        assert c.get(f"/v1/tables/{ids[0]}").json()["totals"] == shown[ids[0]]
        assert hall.live == {}                          # read, shown, dropped at once
        assert c.get(f"/v1/tables/{ids[2]}/hands.jsonl").text.count("\n") == 1
        assert c.get("/v1/tables/nosuchtable").status_code == 404


def _eventually(ok: Callable[[], bool], seconds: float = 30) -> bool:
    """`ok()` once it holds, polling (a bound, not a timing)."""
    import time
    deadline = time.monotonic() + seconds
    while not ok() and time.monotonic() < deadline:
        time.sleep(0.02)
    return ok()


def test_a_four_bot_table_restarted_mid_hand_replays(tmp_path: Path) -> None:
    """A server stopped after twelve moves of an all-bot hand: the next one replays the
    stored moves, asking each built-in bot again (its answer dropped) so that its random
    draws go on as `rulekit replay` makes them, and the hand's record replays exactly.
    (Without asking again, the random bots drew afresh after the restart.)"""
    import rulekit
    from rulekit.game import make_player
    from rulekit.game.simulate import hand_seed
    from rulekit.serve.tables.engine import Engine
    from rulekit.serve.tables.store import Store, TableRow
    db, seats, seed = tmp_path / "tables.db", ["random", "random", "greedy", "random"], 77
    rs = rulekit.load_ruleset("tianjin")
    store = Store(db)
    store.add_table(TableRow(id="stopped", created=0.0, ruleset="tianjin", ruleset_yaml=None,
                             seats=tuple(seats), token_hashes=("-",) * 4, hands=1,
                             think_time=60.0, seed=seed, status="playing",
                             totals=(0.0,) * 4, seeded=True))
    hs, dealer = hand_seed(seed, 0), seed % 4
    store.start_hand("stopped", 0, hs, dealer)
    eng = Engine(rs, hs, dealer, [0.0] * 4)              # hand 0 as the table plays it
    bots = [make_player(k, rs, hand_seed(hs, i)) for i, k in enumerate(seats)]
    moves = 0
    while moves < 12:
        asked = eng.pending()
        answers = [bots[s].act(*eng.question(s)) for s in asked]
        for s, a in zip(asked, answers):
            eng.act(s, a)
            store.add_action("stopped", 0, moves, s, a)
            moves += 1
    assert not eng.over
    store.close()
    with tables_client(db) as c:
        st = wait_status(c, "stopped", "finished")
        assert st["finished_hands"] == [0]
        path = tmp_path / "h.jsonl"
        path.write_text(c.get("/v1/tables/stopped/hands.jsonl").text, encoding="utf-8")
    rep = replay(path)
    assert (rep["hands"], rep["reproduced"], rep["exit"]) == (1, 1, 0), rep
