"""Yardstick: the in-process rate on distinct hands; `rulekit serve` over loopback next to it (requests/s, latency), then plain scores' p99 and errors under an attacker (heavy overlays, half-sent requests).

    python bench/serve_load.py                 # starts a server, 5000 requests at 32 connections
    python bench/serve_load.py --requests 20000 --concurrency 64
    python bench/serve_load.py --port 8000     # against a server already running on 127.0.0.1
    python bench/serve_load.py --attack 10     # then 10 s of plain scores under attack

Under attack (issue 18's load test): four threads send batches of 200 distinct tiny overlays
and single heavy overlays (each compiles for a few tenths of a second), one keeps 600
half-sent requests open (more than the server's connection cap, so it evicts), while two
clients score plain hands, one on a keep-alive connection and one on a new connection per
request. Every plain score must answer 200: the run exits 1 otherwise.

Each connection is a thread with one keep-alive `http.client` connection, so the figures
include Python's client cost; they show what one process serves, not a ceiling. The
in-process rate scores 5,000 distinct hands once each (CPU time of this thread): no hand
repeats, so no result-memo hit counts as a score. Hands are a
seeded corpus of 200 different winning hands, cycled. Only 127.0.0.1 is ever contacted, and
the run is bounded by the request count.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
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


def in_process_rate(count: int = 5000, seed: int = 2) -> float:
    """Hands per second of CPU time scored by `rulekit.score` in this process: `count`
    distinct hands of the seeded corpus (another seed than the HTTP loop's), each scored
    once, so no result-memo hit flatters it; after 500 other hands warm the memos."""
    import rulekit
    from rulekit.corpus import corpus
    rs = rulekit.load_ruleset("tianjin")
    for d in corpus(500, seed + 1000):
        rulekit.score(d, rs)
    seen: set[str] = set()
    docs = []
    for d in corpus(count, seed):
        key = json.dumps(d, sort_keys=True)
        if key not in seen:
            seen.add(key)
            docs.append(d)
    start = time.thread_time()
    for d in docs:
        rulekit.score(d, rs)
    return len(docs) / (time.thread_time() - start)


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        port: int = s.getsockname()[1]
        return port


def launch(args: list[str], port: int, seconds: float = 30,
           cwd: str | None = None) -> subprocess.Popen[bytes]:
    """Start `python ARGS` (the installed rulekit on its path) and wait until it listens on
    `port`, or kill it and stop the bench."""
    import rulekit
    env = dict(os.environ)
    env["PYTHONPATH"] = str(Path(rulekit.__file__).resolve().parent.parent)
    proc = subprocess.Popen([sys.executable, *args], cwd=cwd, env=env,
                            stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            socket.create_connection((HOST, port), timeout=1).close()
            return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit(f"the bench server ({' '.join(args[:3])}) did not start")


def start_server(port: int) -> subprocess.Popen[bytes]:
    return launch(["-m", "rulekit.cli", "serve", "--port", str(port), "--timeout", "2",
                   "--read-timeout", "3", "--db", ":memory:"], port,
                  cwd=tempfile.gettempdir())


def heavy_overlay(tag: str, patterns: int = 80) -> str:
    """A valid overlay that takes a few tenths of a second to compile (within every bound)."""
    expr = " or ".join(f"(hand.tiles == hand.tiles and {k} == {k + 1} and not context.discard)"
                       for k in range(10))
    pats = "".join(f"  p{i}:\n    name: p{i}\n    when: \"{expr}\"\n" for i in range(patterns))
    add = "".join(f"    p{i}: 1\n" for i in range(patterns))
    return f"extends: tianjin\nname: {tag}\npatterns:\n{pats}scoring:\n  add:\n{add}"


def _overlays(port: int, stop: threading.Event, k: int, hand: dict[str, Any],
              counts: dict[str, int]) -> None:
    """Batches of distinct tiny overlays, and heavy overlays, as fast as they are answered."""
    n = 0
    while not stop.is_set():
        n += 1
        if n % 2:
            body = [{"ruleset_yaml": f"extends: tianjin\nname: a{k}-{n}-{i}\nwin:\n"
                                     f"  minimum: {i % 9}\n", "hand": hand} for i in range(200)]
            path = "/v1/score:batch"
        else:
            body = {"ruleset_yaml": heavy_overlay(f"h{k}-{n}"), "hand": hand}   # type: ignore[assignment]
            path = "/v1/score"
        try:
            conn = http.client.HTTPConnection(HOST, port, timeout=30)
            conn.request("POST", path, json.dumps(body))
            status = conn.getresponse().status
            conn.close()
        except (OSError, http.client.HTTPException):
            status = 0
        counts[str(status)] = counts.get(str(status), 0) + 1


def _half_sent(port: int, stop: threading.Event, keep: int, counts: dict[str, int]) -> None:
    """`keep` connections with half a request each, reopened as the server closes them."""
    import selectors
    sel = selectors.DefaultSelector()

    def open_one() -> None:
        try:
            s = socket.create_connection((HOST, port), timeout=5)
            s.sendall(b"POST /v1/score HTTP/1.1\r\nHost: localhost\r\nContent-Le")
            s.setblocking(False)
            sel.register(s, selectors.EVENT_READ)
            counts["opened"] = counts.get("opened", 0) + 1
        except OSError:
            counts["refused"] = counts.get("refused", 0) + 1
    for _ in range(keep):
        open_one()
    while not stop.is_set():
        for key, _ in sel.select(0.2):
            s = key.fileobj
            sel.unregister(s)
            s.close()                        # type: ignore[union-attr]
            counts["closed by server"] = counts.get("closed by server", 0) + 1
            if not stop.is_set():
                open_one()
    for key in list(sel.get_map().values()):
        key.fileobj.close()                  # type: ignore[union-attr]


def _plain(port: int, stop: threading.Event, payloads: list[bytes], fresh: bool,
           result: LoadResult, lock: threading.Lock) -> None:
    conn = http.client.HTTPConnection(HOST, port, timeout=30)
    i = 0
    while not stop.is_set():
        i += 1
        if fresh:
            conn = http.client.HTTPConnection(HOST, port, timeout=30)
        t0 = time.perf_counter()
        try:
            conn.request("POST", "/v1/score", payloads[i % len(payloads)])
            resp = conn.getresponse()
            data = resp.read()
            err = None if resp.status == 200 and b'"win"' in data else f"{resp.status}: {data[:120]!r}"
        except (OSError, http.client.HTTPException) as exc:
            err = f"{type(exc).__name__}: {exc}"
            conn = http.client.HTTPConnection(HOST, port, timeout=30)
        with lock:
            result.latencies.append(time.perf_counter() - t0)
            if err:
                result.errors.append(err)
        if fresh:
            conn.close()
        time.sleep(0.005)


def _attack(port: int, hand: dict[str, Any], seconds: float, out: Any) -> None:
    """The attacker, in its own process (its busy threads must not slow the measuring
    client's by the GIL): overlays from four threads, half-sent requests from one."""
    import resource
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(4096, hard), hard))
    stop = threading.Event()
    counts: dict[str, int] = {}
    threads = [threading.Thread(target=_overlays, args=(port, stop, k, hand, counts))
               for k in range(4)]
    threads.append(threading.Thread(target=_half_sent, args=(port, stop, 600, counts)))
    for t in threads:
        t.start()
    time.sleep(seconds)
    stop.set()
    for t in threads:
        t.join(60)
    out.put(counts)


def under_attack(port: int, payloads: list[bytes], seconds: float) -> tuple[LoadResult,
                                                                            dict[str, int]]:
    """Plain scores for `seconds` while overlays and half-sent requests arrive."""
    import multiprocessing
    ctx = multiprocessing.get_context("spawn")
    out = ctx.Queue()
    attacker = ctx.Process(target=_attack, args=(port, json.loads(payloads[0])["hand"],
                                                 seconds + 2.0, out))
    attacker.start()
    time.sleep(2.0)                       # the attack is under way before measuring
    stop = threading.Event()
    result = LoadResult()
    lock = threading.Lock()
    victims = [threading.Thread(target=_plain, args=(port, stop, payloads, fresh, result, lock))
               for fresh in (False, True)]
    start = time.perf_counter()
    for t in victims:
        t.start()
    time.sleep(seconds)
    stop.set()
    for t in victims:
        t.join(60)
    result.seconds = time.perf_counter() - start
    result.requests = len(result.latencies)
    counts = out.get(timeout=120)
    attacker.join(30)
    return result, counts


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--requests", type=int, default=5000)
    ap.add_argument("--concurrency", type=int, default=32)
    ap.add_argument("--port", type=int, help="a server already on 127.0.0.1:PORT")
    ap.add_argument("--attack", type=float, default=0, metavar="SECONDS",
                    help="then plain scores for this long under attack (0: none)")
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
        attacked = under_attack(port, payloads, args.attack) if args.attack else None
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(timeout=10)
    import rulekit
    rate = in_process_rate()
    print(f"HTTP  {args.concurrency} connections: {result.line()}")
    print(f"in-process rulekit.score: {rate:.0f} hands/s of CPU, 5,000 distinct hands each "
          f"scored once ({'compiled' if rulekit.COMPILED else 'pure Python'})")
    for e in result.errors[:5]:
        print("error:", e)
    failed = bool(result.errors)
    if attacked is not None:
        plain, counts = attacked
        print(f"under attack ({args.attack:g} s of heavy overlays and 600 half-sent requests; "
              f"attacker's answers {dict(sorted(counts.items()))}):")
        print(f"  plain scores: {plain.line()}")
        for e in plain.errors[:5]:
            print("  error:", e)
        failed = failed or bool(plain.errors) or plain.requests == 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
