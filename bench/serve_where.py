"""Yardstick: one Starlette hello-world POST with the thread hop and without it, in one server process; where the server's CPU goes when a request scores a hand (event-loop thread vs worker threads, per-thread schedstat), interleaved.

    python bench/serve_where.py               # 40 blocks of 20 requests per side
    python bench/serve_where.py --quick       # 8 blocks: a smoke run

bench/serve_cost.py's control (a hello endpoint scoring the hand in its hop) costs more over
the hello than scoring costs in a tight loop. This bench says where that goes. One server
process (uvicorn with rulekit's guarded protocol and options, `gc.freeze`, as `rulekit
serve` runs) answers these paths, each a bare Starlette endpoint:

    hello        read the body, hop to a thread (`run_in_executor` under `wait_for`), answer
    hello-loop   the same without the hop
    spin         the hop, the thread adding integers for ~40 µs (no memory traffic)
    sweep        the hop, the thread reading a 3 MB buffer (what evicts caches does)
    control      the hop, the thread scoring the request's hand (`rulekit.score`)
    loop-score   no hop, the hand scored on the event loop
    in process   this process scoring hands of the same corpus in a tight loop

One keep-alive client sends blocks of `--block` requests a side, every hand distinct, the
order of the sides turning per block. Around each block it reads every server thread's CPU
from `/proc/PID/task/*/schedstat` and prints, per request, the event-loop thread's share and
the other threads'. The server also reports, from inside: each scoring call's CPU
(`time.thread_time`, in a thread and on the loop) and the time its collections took per
generation (`gc.callbacks`). Only 127.0.0.1 is contacted; the run is bounded by its counts.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from typing import Any

from serve_cost import Client, run_app             # bench/ is this script's folder on sys.path
from serve_load import free_port, launch

SIDES = ("hello", "hello-loop", "spin", "sweep", "control", "loop-score", "in process")


def serve(port: int) -> None:
    """The paths above in one uvicorn server, as `rulekit serve` runs it."""
    import asyncio
    import gc
    import threading
    from concurrent.futures import ThreadPoolExecutor

    import rulekit
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import JSONResponse, Response
    from starlette.routing import Route

    from rulekit.serve.limits import ServeLimits

    lim = ServeLimits()
    pool = ThreadPoolExecutor(max_workers=lim.threads, thread_name_prefix="hop")
    rs = rulekit.load_ruleset("tianjin")
    big = bytes(3 * 1024 * 1024)
    acc: dict[str, list[int]] = {}

    def add(key: str, ns: int) -> None:
        slot = acc.setdefault(key, [0, 0])
        slot[0] += 1
        slot[1] += ns

    def timed_score(doc: Any) -> Any:
        t0 = time.thread_time_ns()
        win = rulekit.score(doc, rs).win
        where = "loop" if threading.current_thread() is threading.main_thread() else "thread"
        add(f"scoring call, {where}", time.thread_time_ns() - t0)
        return {"win": win}

    def spin() -> Any:
        t0 = time.thread_time_ns()
        x = 0
        for i in range(2000):
            x += i
        add("spin call", time.thread_time_ns() - t0)
        return {"hello": x}

    def sweep() -> Any:
        t0 = time.thread_time_ns()
        n = big.count(b"x")
        add("sweep call", time.thread_time_ns() - t0)
        return {"hello": n}

    gc_start = [0]

    def on_gc(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            gc_start[0] = time.thread_time_ns()
        else:
            add(f"collection, generation {info['generation']}",
                time.thread_time_ns() - gc_start[0])
    gc.callbacks.append(on_gc)

    async def hop(fn: Any) -> Any:
        loop = asyncio.get_running_loop()
        return await asyncio.wait_for(loop.run_in_executor(pool, fn), lim.seconds)

    async def hello(request: Request) -> Response:
        await request.body()
        return JSONResponse(await hop(lambda: {"hello": "world"}))

    async def hello_loop(request: Request) -> Response:
        await request.body()
        return JSONResponse({"hello": "world"})

    async def spin_hop(request: Request) -> Response:
        await request.body()
        return JSONResponse(await hop(spin))

    async def sweep_hop(request: Request) -> Response:
        await request.body()
        return JSONResponse(await hop(sweep))

    async def control(request: Request) -> Response:
        doc = json.loads(await request.body())["hand"]
        return JSONResponse(await hop(lambda: timed_score(doc)))

    async def loop_score(request: Request) -> Response:
        doc = json.loads(await request.body())["hand"]
        return JSONResponse(timed_score(doc))

    async def stats(request: Request) -> Response:
        return JSONResponse(acc)

    app = Starlette(routes=[Route("/hello", hello, methods=["POST"]),
                            Route("/hello-loop", hello_loop, methods=["POST"]),
                            Route("/spin", spin_hop, methods=["POST"]),
                            Route("/sweep", sweep_hop, methods=["POST"]),
                            Route("/control", control, methods=["POST"]),
                            Route("/loop-score", loop_score, methods=["POST"]),
                            Route("/stats", stats)])
    run_app(app, port, lim)


def start(port: int) -> subprocess.Popen[bytes]:
    return launch([__file__, "--serve", str(port)], port, seconds=60)


def threads_cpu(pid: int) -> dict[int, int]:
    """CPU nanoseconds of each thread of `pid` so far."""
    out = {}
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/schedstat") as fh:
                out[int(task)] = int(fh.read().split()[0])
        except (FileNotFoundError, ProcessLookupError):
            pass
    return out


def block_cpu(client: Client, pid: int, side: str, docs: list[dict[str, Any]],
              rs: Any) -> tuple[float, float]:
    """(event-loop thread, other threads) CPU seconds over one block of `side`; for the
    in-process side, this process's CPU as the second."""
    import rulekit
    if side == "in process":
        t0 = time.process_time()
        for d in docs:
            rulekit.score(d, rs)
        return 0.0, time.process_time() - t0
    time.sleep(0.005)
    before = threads_cpu(pid)
    for d in docs:
        status, answer = client.request(f"/{side}", json.dumps({"hand": d}).encode())
        if status != 200:
            raise SystemExit(f"/{side} answered {status}: {answer[:200]!r}")
    time.sleep(0.005)
    after = threads_cpu(pid)
    loop = after.get(pid, 0) - before.get(pid, 0)
    total = sum(after.values()) - sum(before.values())
    return loop / 1e9, (total - loop) / 1e9


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--blocks", type=int, default=40, help="blocks per side")
    ap.add_argument("--block", type=int, default=20, help="requests per block")
    ap.add_argument("--warm", type=int, default=600, help="hands scored before measuring")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--quick", action="store_true", help="8 blocks: a smoke run")
    ap.add_argument("--serve", type=int, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.serve:
        serve(args.serve)
        return 0
    if args.quick:
        args.blocks = 8
    import rulekit
    from rulekit.corpus import corpus
    n = args.warm + args.blocks * args.block * len(SIDES)
    docs = list(corpus(n, args.seed))
    rs = rulekit.load_ruleset("tianjin")
    port = free_port()
    proc = start(port)
    sums = {s: [0.0, 0.0] for s in SIDES}
    try:
        client = Client(port)
        for d in docs[:args.warm]:          # both processes' memos warmed alike
            client.request("/control", json.dumps({"hand": d}).encode())
            rulekit.score(d, rs)
        base = json.loads(client.request("/stats", b"", "GET")[1])
        at = args.warm
        for b in range(args.blocks):
            k = b % len(SIDES)
            for side in SIDES[k:] + SIDES[:k]:
                loop, others = block_cpu(client, proc.pid, side, docs[at:at + args.block], rs)
                at += args.block
                sums[side][0] += loop
                sums[side][1] += others
        stats = json.loads(client.request("/stats", b"", "GET")[1])
    finally:
        proc.terminate()
        proc.wait(10)
    count = args.blocks * args.block
    mode = "compiled hot path (mypyc)" if rulekit.COMPILED else "pure Python"
    print(f"serve_where.py: {mode}; {args.blocks} blocks x {args.block} requests a side; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    print("CPU per request       total  event-loop thread  other threads")
    for side in SIDES:
        loop, others = (x / count * 1e6 for x in sums[side])
        print(f"  {side:12s} {loop + others:8.0f} µs {loop:10.0f} µs {others:14.0f} µs")
    served = count * (len(SIDES) - 1)
    print("measured inside the server (CPU of the thread that ran it):")
    for key in sorted(stats):
        calls, ns = (a - b for a, b in zip(stats[key], base.get(key, [0, 0])))
        if calls:
            print(f"  {key:28s} {calls:6d} x {ns / calls / 1e3:7.1f} µs"
                  + (f" = {ns / served / 1e3:.1f} µs per request served" if "coll" in key
                     else ""))
    hello = sum(sums["hello"]) / count
    print(f"the hop: {(hello - sum(sums['hello-loop']) / count) / hello:.0%} of a hello; "
          f"the event loop's share grows by "
          f"{(sums['spin'][0] - sums['hello'][0]) / count * 1e6:.0f} µs (spin), "
          f"{(sums['sweep'][0] - sums['hello'][0]) / count * 1e6:.0f} µs (sweep), "
          f"{(sums['control'][0] - sums['hello'][0]) / count * 1e6:.0f} µs (scoring) "
          f"over the hello's")
    return 0


if __name__ == "__main__":
    sys.exit(main())
