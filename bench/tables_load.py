"""Yardstick: hands/s a `rulekit serve` plays at 50 tables of four built-in bots at once, and the p99 of a /v1/score request meanwhile next to its p99 with no table playing (before and after).

    python bench/tables_load.py            # 50 tables x 8 hands, score requests from 4 threads
    python bench/tables_load.py --quick    # 50 tables x 2 hands: a smoke run

The server is a real `rulekit serve` child process on a free 127.0.0.1 port with its tables in
a temporary SQLite file (every action and record written, as in use). Calculator load is a
seeded corpus of 200 different winning hands (bench/serve_load.py), 4 keep-alive
connections; it runs before the tables (idle), while they play (loaded), and after (idle
again), so the two sides share one process and one machine. Only 127.0.0.1 is contacted; the
run ends when every table has finished or after --limit seconds.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from serve_load import HOST, LoadResult, bodies, free_port, load  # noqa: E402


def start(port: int, db: str) -> subprocess.Popen[bytes]:
    import rulekit
    env = dict(os.environ)
    env["PYTHONPATH"] = str(Path(rulekit.__file__).resolve().parent.parent)
    proc = subprocess.Popen([sys.executable, "-m", "rulekit.cli", "serve", "--port", str(port),
                             "--db", db], cwd=tempfile.gettempdir(), env=env,
                            stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            conn = http.client.HTTPConnection(HOST, port, timeout=2)
            conn.request("GET", "/healthz")
            if conn.getresponse().status == 200:
                return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("rulekit serve did not start")


def call(port: int, method: str, path: str, body: object = None) -> dict[str, object]:
    conn = http.client.HTTPConnection(HOST, port, timeout=30)
    conn.request(method, path, json.dumps(body) if body is not None else None)
    resp = conn.getresponse()
    data: dict[str, object] = json.loads(resp.read())
    conn.close()
    return data


def play_tables(port: int, tables: int, hands: int, limit: float) -> tuple[int, float]:
    """Create the tables, wait for them all to finish; (hands played, seconds)."""
    bots = ["greedy", "value", "random", "greedy"]
    t0 = time.perf_counter()
    ids = [str(call(port, "POST", "/v1/tables",
                    {"ruleset": "tianjin", "seats": bots, "hands": hands})["id"])
           for _ in range(tables)]
    done = 0
    while time.perf_counter() - t0 < limit:
        states = [call(port, "GET", f"/v1/tables/{i}") for i in ids]
        done = sum(len(s["finished_hands"]) for s in states)          # type: ignore[arg-type]
        if all(s["status"] != "playing" for s in states):
            break
        time.sleep(0.25)
    return done, time.perf_counter() - t0


def loaded(port: int, payloads: list[bytes], tables: int, hands: int,
           limit: float) -> tuple[int, float, LoadResult]:
    """The tables play while 4 connections score hands until they are done."""
    out: dict[str, tuple[int, float]] = {}

    def run() -> None:
        out["t"] = play_tables(port, tables, hands, limit)
    th = threading.Thread(target=run)
    th.start()
    total = LoadResult()
    while th.is_alive():
        r = load(port, payloads, 200, 4)
        total.latencies += r.latencies
        total.errors += r.errors
        total.seconds += r.seconds
        total.requests += r.requests
    th.join()
    return out["t"][0], out["t"][1], total


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--hands", type=int, default=8)
    ap.add_argument("--quick", action="store_true", help="2 hands a table, fewer requests")
    ap.add_argument("--limit", type=float, default=600.0, help="seconds at most")
    args = ap.parse_args(argv)
    hands = 2 if args.quick else args.hands
    idle_n = 400 if args.quick else 2000
    payloads = bodies()
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        proc = start(port, str(Path(tmp) / "tables.db"))
        try:
            load(port, payloads, 200, 4)                                   # warm up
            before = load(port, payloads, idle_n, 4)
            played, seconds, during = loaded(port, payloads, args.tables, hands, args.limit)
            after = load(port, payloads, idle_n, 4)
        finally:
            proc.terminate()
            proc.wait(timeout=10)
    print(f"{args.tables} tables x {hands} hands of four bots (greedy, value, random, greedy):"
          f" {played} hands in {seconds:.1f} s = {played / seconds:.1f} hands/s")
    print(f"/v1/score idle before : {before.line()}")
    print(f"/v1/score while played: {during.line()}")
    print(f"/v1/score idle after  : {after.line()}")
    errors = before.errors + during.errors + after.errors
    for e in errors[:5]:
        print("error:", e)
    return 1 if errors or played < args.tables * hands else 0


if __name__ == "__main__":
    sys.exit(main())
