"""Load on `rulekit serve` over loopback: requests/s and latency next to the in-process rate.

    python bench/serve_load.py                 # starts a server, 5000 requests at 32 connections
    python bench/serve_load.py --requests 20000 --concurrency 64
    python bench/serve_load.py --port 8000     # against a server already running on 127.0.0.1

Each connection is a thread with one keep-alive `http.client` connection, so the figures
include Python's client cost; they show what one process serves, not a ceiling. Hands are a
seeded corpus of 200 different winning hands, cycled. Only 127.0.0.1 is ever contacted, and
the run is bounded by the request count.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HOST = "127.0.0.1"


@dataclass
class LoadResult:
    requests: int = 0
    errors: list[str] = field(default_factory=list)
    seconds: float = 0.0
    latencies: list[float] = field(default_factory=list)

    @property
    def rate(self) -> float:
        return self.requests / self.seconds if self.seconds else 0.0

    def percentile(self, p: float) -> float:
        if not self.latencies:
            return 0.0
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]

    def line(self) -> str:
        return (f"{self.requests} requests, {len(self.errors)} errors, {self.seconds:.2f} s: "
                f"{self.rate:.0f} requests/s, p50 {self.percentile(50) * 1000:.1f} ms, "
                f"p99 {self.percentile(99) * 1000:.1f} ms")


def bodies(count: int = 200, seed: int = 1) -> list[bytes]:
    """Score requests for `count` different winning hands (the seeded corpus)."""
    from rulekit.corpus import corpus
    return [json.dumps({"ruleset": "tianjin", "hand": doc}).encode()
            for doc in corpus(count, seed)]


def load(port: int, payloads: list[bytes], total: int, concurrency: int,
         path: str = "/v1/score") -> LoadResult:
    """`total` POSTs to 127.0.0.1:`port` over `concurrency` keep-alive connections."""
    result = LoadResult()
    lock = threading.Lock()
    counter = iter(range(total))

    def worker() -> None:
        conn = http.client.HTTPConnection(HOST, port, timeout=30)
        mine: list[float] = []
        errors: list[str] = []
        while True:
            with lock:
                i = next(counter, None)
            if i is None:
                break
            body = payloads[i % len(payloads)]
            t0 = time.perf_counter()
            try:
                conn.request("POST", path, body, {"Content-Type": "application/json"})
                resp = conn.getresponse()
                data = resp.read()
                if resp.status != 200 or b'"win"' not in data:
                    errors.append(f"{resp.status}: {data[:120]!r}")
            except (OSError, http.client.HTTPException) as err:
                errors.append(f"{type(err).__name__}: {err}")
                conn.close()
                conn = http.client.HTTPConnection(HOST, port, timeout=30)
            mine.append(time.perf_counter() - t0)
        conn.close()
        with lock:
            result.latencies += mine
            result.errors += errors

    threads = [threading.Thread(target=worker) for _ in range(concurrency)]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    result.seconds = time.perf_counter() - start
    result.requests = len(result.latencies)
    return result


def in_process_rate(payloads: list[bytes], seconds: float = 1.0) -> float:
    """Hands per second scored by `rulekit.score` in this process, same hands."""
    import rulekit
    rs = rulekit.load_ruleset("tianjin")
    docs = [json.loads(b)["hand"] for b in payloads]
    for d in docs:
        rulekit.score(d, rs)
    n = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for d in docs:
            rulekit.score(d, rs)
        n += len(docs)
    return n / (time.perf_counter() - start)


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        port: int = s.getsockname()[1]
        return port


def start_server(port: int) -> subprocess.Popen[bytes]:
    import rulekit
    env = dict(os.environ)
    env["PYTHONPATH"] = str(Path(rulekit.__file__).resolve().parent.parent)
    proc = subprocess.Popen([sys.executable, "-m", "rulekit.cli", "serve", "--port", str(port)],
                            cwd=tempfile.gettempdir(), env=env, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            socket.create_connection((HOST, port), timeout=1).close()
            return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("rulekit serve did not start")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--requests", type=int, default=5000)
    ap.add_argument("--concurrency", type=int, default=32)
    ap.add_argument("--port", type=int, help="a server already on 127.0.0.1:PORT")
    args = ap.parse_args(argv)
    payloads = bodies()
    proc = None
    port = args.port
    if port is None:
        port = free_port()
        proc = start_server(port)
    try:
        load(port, payloads, min(500, args.requests), args.concurrency)     # warm up
        result = load(port, payloads, args.requests, args.concurrency)
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(timeout=10)
    import rulekit
    rate = in_process_rate(payloads)
    print(f"HTTP  {args.concurrency} connections: {result.line()}")
    print(f"in-process rulekit.score: {rate:.0f} hands/s "
          f"({'compiled' if rulekit.COMPILED else 'pure Python'})")
    for e in result.errors[:5]:
        print("error:", e)
    return 1 if result.errors else 0


if __name__ == "__main__":
    sys.exit(main())
