"""Yardstick: resident memory (RSS, the process and its children) over time of `rulekit score --jsonl` on 200k distinct hands and of `rulekit serve` on 20k distinct requests (a fifth of them distinct inline overlays); it plateaus when the last third of the run grows less than 10% over the middle third.

    python bench/memory.py             # both, full size (minutes)
    python bench/memory.py --quick     # 20k lines, 2,000 requests: a smoke run
    python bench/memory.py --only serve --requests 60000     # the long run (~12 min)

Issue 18: the scorer cache kept every ruleset ever scored (5,000 overlays took a server from
114 to 533 MB) and the suit memo grew by entries only. Each run samples the RSS of the
process tree (a server's overlay workers included; pages the forked workers share count once
per process, so the tree's figure overstates) a few times a second and prints the curve in
ten steps, for the server's tree and for the server process alone, with the slope over the
second half of the run (MB per 1,000 requests or lines: near 0 on a plateau, a leak's cost
per request otherwise). Inputs are distinct: a seeded corpus (`rulekit corpus`), and overlays
that differ in their text. Only 127.0.0.1 is contacted; every run is bounded by its count.
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
from pathlib import Path
from typing import Any, Callable, Iterable

HOST = "127.0.0.1"
PAGE = os.sysconf("SC_PAGE_SIZE")


def tree_rss(root: int) -> int:
    """RSS in bytes of `root` and every process below it (Linux /proc)."""
    return sum(rss for _, rss in tree(root))


def tree(root: int) -> list[tuple[int, int]]:
    """(pid, RSS bytes) of `root` and every process below it."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        ppid = int(stat[stat.rfind(b")") + 2:].split()[1])
        children.setdefault(ppid, []).append(int(entry))
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        try:
            with open(f"/proc/{pid}/statm", "rb") as f:
                out.append((pid, int(f.read().split()[1]) * PAGE))
        except (OSError, ValueError, IndexError):
            pass
        todo += children.get(pid, [])
    return out


class Sampler:
    """RSS of a process tree every `every` seconds, with how far the run had got; `own`
    keeps the root process's RSS alone (a server without its overlay workers)."""

    def __init__(self, pid: int, progress: Callable[[], int], every: float = 0.25) -> None:
        self.samples: list[tuple[float, int, int]] = []      # (seconds, done, bytes)
        self.own: list[tuple[float, int, int]] = []          # the same, the root alone
        self.stop = threading.Event()
        t0 = time.monotonic()

        def run() -> None:
            while not self.stop.is_set():
                rows = tree(pid)
                t, done = time.monotonic() - t0, progress()
                self.samples.append((t, done, sum(rss for _, rss in rows)))
                self.own.append((t, done, sum(rss for p, rss in rows if p == pid)))
                self.stop.wait(every)
        self.thread = threading.Thread(target=run, daemon=True)
        self.thread.start()

    def finish(self) -> list[tuple[float, int, int]]:
        self.stop.set()
        self.thread.join()
        return self.samples


def report(title: str, samples: list[tuple[float, int, int]], unit: str) -> bool:
    """Print the curve in ten steps; True when the last third grew < 10% over the middle."""
    samples = [s for s in samples if s[2] > 0]
    if len(samples) < 6:
        print(f"{title}: too few samples ({len(samples)})")
        return False
    print(f"{title}:")
    for i in range(1, 11):
        t, done, rss = samples[min(len(samples) - 1, i * len(samples) // 10 - 1)]
        print(f"  {t:7.1f} s  {done:>8,} {unit}  {rss / 2**20:7.1f} MB")
    third = len(samples) // 3
    middle = max(s[2] for s in samples[third:2 * third])
    last = max(s[2] for s in samples[2 * third:])
    first = samples[0][2]
    flat = last < middle * 1.10
    print(f"  start {first / 2**20:.1f} MB, peak of the middle third {middle / 2**20:.1f} MB, "
          f"of the last third {last / 2**20:.1f} MB: "
          f"{'plateau' if flat else 'STILL RISING'} ({(last / middle - 1) * 100:+.1f}%)")
    print(f"  slope over the second half: {slope(samples) / 2**20 * 1000:+.2f} MB per 1,000 "
          f"{unit}")
    return flat


def slope(samples: list[tuple[float, int, int]]) -> float:
    """Bytes per unit done over the second half of the run (least squares): a plateau is
    near 0 however the start-up went; a leak shows as its cost per request or line."""
    half = [(float(d), float(r)) for _, d, r in samples[len(samples) // 2:]]
    if len(half) < 2:
        return 0.0
    mx = sum(d for d, _ in half) / len(half)
    my = sum(r for _, r in half) / len(half)
    var = sum((d - mx) ** 2 for d, _ in half)
    return 0.0 if var == 0 else sum((d - mx) * (r - my) for d, r in half) / var


def env() -> dict[str, str]:
    import rulekit
    e = dict(os.environ)
    e["PYTHONPATH"] = str(Path(rulekit.__file__).resolve().parent.parent)
    return e


def jsonl_run(lines: int, seed: int) -> bool:
    """`rulekit score --jsonl` over `lines` distinct hands, RSS against lines read."""
    from rulekit.corpus import corpus
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "hands.jsonl"
        with path.open("w") as f:
            for doc in corpus(lines, seed):
                f.write(json.dumps(doc) + "\n")
        out = Path(tmp) / "out.jsonl"
        proc = subprocess.Popen([sys.executable, "-m", "rulekit.cli", "score", "--jsonl",
                                 str(path)], stdout=out.open("wb"), stderr=subprocess.DEVNULL,
                                env=env(), cwd=tmp)

        def done() -> int:
            try:
                return out.stat().st_size
            except OSError:
                return 0
        sampler = Sampler(proc.pid, done)
        proc.wait()
        samples = sampler.finish()
        per_line = max(1, done() // lines)
        samples = [(t, d // per_line, r) for t, d, r in samples]
        print(f"score --jsonl: exit {proc.returncode}, {lines:,} lines")
        return report(f"rulekit score --jsonl over {lines:,} distinct hands", samples,
                      "lines") and proc.returncode == 0


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        port: int = s.getsockname()[1]
        return port


def serve_run(requests: int, seed: int) -> bool:
    """`rulekit serve` over `requests` distinct requests, one in five a distinct overlay."""
    from rulekit.corpus import corpus
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "rulekit.cli", "serve", "--port", str(port),
                             "--db", ":memory:"],
                            stderr=subprocess.DEVNULL, env=env(), cwd=tempfile.gettempdir())
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                socket.create_connection((HOST, port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        docs = corpus(requests, seed)
        count = [0]
        sampler = Sampler(proc.pid, lambda: count[0])
        errors = send(port, docs, count)
        samples = sampler.finish()
        own = sampler.own
        # the server first, then its forkserver and overlay workers
        print("serve: each process at the end: " + ", ".join(
            f"{rss / 2**20:.1f} MB" for _, rss in tree(proc.pid)))
    finally:
        proc.terminate()
        proc.wait(timeout=20)
    print(f"serve: {requests:,} requests, {errors} not answered 200")
    flat = report(f"rulekit serve over {requests:,} distinct requests (1 in 5 a distinct "
                  f"overlay), the server and its overlay workers", samples, "requests")
    alone = report("the server process alone", own, "requests")
    return flat and alone and errors == 0


def send(port: int, docs: Iterable[dict[str, Any]], count: list[int], start: int = 0) -> int:
    """The requests over 4 keep-alive connections; how many were not answered 200 (or 422).
    `start` numbers the first request (overlays differ by their number)."""
    lock = threading.Lock()
    it = iter(enumerate(docs, start))
    errors = [0]

    def worker() -> None:
        conn = http.client.HTTPConnection(HOST, port, timeout=60)
        while True:
            with lock:
                nxt = next(it, None)
            if nxt is None:
                break
            i, doc = nxt
            body: dict[str, Any] = {"hand": doc}
            if i % 5 == 0:
                body["ruleset_yaml"] = (f"extends: tianjin\nname: m{i}\nwin:\n  minimum: "
                                        f"{i % 13}\nkong_points:\n  exposed: {1 + i % 3}\n")
            try:
                conn.request("POST", "/v1/score", json.dumps(body))
                resp = conn.getresponse()
                resp.read()
                ok = resp.status in (200, 422)      # 422: a corpus hand the overlay refuses
            except (OSError, http.client.HTTPException):
                ok = False
                conn = http.client.HTTPConnection(HOST, port, timeout=60)
            with lock:
                count[0] += 1
                errors[0] += not ok
        conn.close()
    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return errors[0]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="20k lines and 2,000 requests")
    ap.add_argument("--lines", type=int, help="score --jsonl lines (default 200,000)")
    ap.add_argument("--requests", type=int, help="serve requests (default 20,000)")
    ap.add_argument("--only", choices=["jsonl", "serve"])
    ap.add_argument("--seed", type=int, default=18)
    args = ap.parse_args(argv)
    lines = args.lines or (20_000 if args.quick else 200_000)
    requests = args.requests or (2_000 if args.quick else 20_000)
    ok = True
    if args.only in (None, "jsonl"):
        ok = jsonl_run(lines, args.seed) and ok
    if args.only in (None, "serve"):
        ok = serve_run(requests, args.seed) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
