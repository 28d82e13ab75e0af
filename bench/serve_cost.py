"""Yardstick: a Starlette hello-world POST with the same thread hop, in the same server process, interleaved; the server's own CPU per request ((POST /v1/score − scoring the hand in process) ÷ it).

    python bench/serve_cost.py                # 4 servers x 4 rounds of 300 requests each way
    python bench/serve_cost.py --quick        # 1 server, 2 rounds of 60: a smoke run
    python bench/serve_cost.py --runs 8 --rounds 6 --per-round 400

One server process is started on a free 127.0.0.1 port exactly as `rulekit serve` makes it
(`create_app`, the guarded h11 protocol, the same uvicorn options, `gc.freeze`), with extra
paths mounted only here: `/hello`, a bare Starlette application (no rulekit middleware)
whose endpoint reads the request body, makes the same executor hop as a score in a thread
(`run_in_executor` under `wait_for`) and answers `{"hello":"world"}` with `JSONResponse`.
That is the framework's own floor for an endpoint doing work in a thread, and the issue's
yardstick. `/hello-loop` is the same endpoint without the hop: a stricter yardstick, printed
too, since rulekit no longer hops for every hand.

rulekit scores a cheap hand (at most 3 hun, no 天和, a ruleset of cheap patterns, a small
body: rulekit/serve/cheap.py) on the event loop, without the hop, and every other hand in
its scoring threads. The corpus holds both kinds as a table deals them (`rulekit.corpus`:
hun counts as dealt, 1% of hands with 0-7 hun drawn uniformly, 3% 天和): about 96% go to the
loop. The bench prints the share each path took, read from the server's `/healthz` counters
over the measured rounds.

One client (raw sockets, one keep-alive connection, one request at a time) sends rounds of N
score requests, each a different hand of the seeded corpus (the library memoizes results,
so no hand repeats, warm-up included), and N posts to each hello carrying the same bodies,
in blocks of 20 a side, the order of the sides turning per block. The server's CPU is read
from `/proc/PID/task/*/schedstat` (every thread, nanoseconds) before and after each block,
not the client's wall clock. After each block this process scores the same block's hands
with `rulekit.score` (process CPU time; each hand once, a fresh memo): the scoring a request
cannot avoid. The ratio is

    (server CPU per score request − in-process CPU per hand) / server CPU per hello request

A control, `/hello-score`, is the hello endpoint scoring a hand (other hands, as distinct)
in its hop: its cost minus hello's is what scoring costs as a server's thread does it
(colder caches between requests: the framework's work around it evicts the scorer's, and
the scorer's evicts the event loop's), which the in-process loop does not pay. The bench
prints that ratio too, with this figure in place of the in-process one: what of the gap is
rulekit's code and what is work in a thread (for the hands rulekit scores on its loop the
control overstates the scoring's cost: they pay no hop).

The machine may be shared: figures are CPU time, not wall time, and the rounds interleave,
so load changes touch both sides alike. The hop's cost differs more between server
processes than between rounds of one (how the OS places the loop and pool threads), so the
bench starts `--runs` servers one after another and prints each one's ratio and the pooled
one. Only 127.0.0.1 is contacted; the run is bounded by its request count.
"""
from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import time
from typing import Any

from serve_load import HOST, free_port, launch     # bench/ is this script's folder on sys.path
HELLO = "/hello"
HELLO_LOOP = "/hello-loop"
CONTROL = "/hello-score"
PAUSE = 0.005         # seconds before and after a timed block


# -- the server (run as `serve_cost.py --serve PORT` in its own process) ---------------------

def serve(port: int) -> None:
    """`rulekit serve`'s application and uvicorn options, `/hello` beside it."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    import rulekit
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import JSONResponse, Response
    from starlette.routing import Route
    from starlette.types import Receive, Scope, Send

    from rulekit.serve.app import create_app
    from rulekit.serve.limits import ServeConfig, ServeLimits
    from rulekit.serve.main import allowed_hosts

    lim = ServeLimits()
    config = ServeConfig(limits=lim, allowed_hosts=allowed_hosts(HOST, []))
    app = create_app(config)
    pool = ThreadPoolExecutor(max_workers=lim.threads, thread_name_prefix="hello")

    async def hello(request: Request) -> Response:
        await request.body()
        loop = asyncio.get_running_loop()
        value = await asyncio.wait_for(loop.run_in_executor(pool, lambda: {"hello": "world"}),
                                       lim.seconds)
        return JSONResponse(value)

    async def hello_loop(request: Request) -> Response:
        await request.body()
        return JSONResponse({"hello": "world"})

    rs = rulekit.load_ruleset("tianjin")

    async def hello_score(request: Request) -> Response:
        doc = json.loads(await request.body())["hand"]
        loop = asyncio.get_running_loop()
        value = await asyncio.wait_for(
            loop.run_in_executor(pool, lambda: {"win": rulekit.score(doc, rs).win}),
            lim.seconds)
        return JSONResponse(value)

    hello_app = Starlette(routes=[Route(HELLO, hello, methods=["POST"]),
                                  Route(HELLO_LOOP, hello_loop, methods=["POST"]),
                                  Route(CONTROL, hello_score, methods=["POST"])])

    async def both(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"] in (HELLO, HELLO_LOOP, CONTROL):
            await hello_app(scope, receive, send)
        else:
            await app(scope, receive, send)

    run_app(both, port, lim)


def run_app(app: Any, port: int, lim: Any) -> None:
    """Serve `app` on `port` as `rulekit serve` runs (its protocol options, quiet logs, the
    loaded objects frozen out of the collector)."""
    import gc

    import uvicorn

    from rulekit.serve.protocol import quiet_logs, uvicorn_options
    quiet_logs("uvicorn.error", "asyncio")
    gc.freeze()
    uvicorn.run(app, host=HOST, port=port, log_level="warning", access_log=False,
                server_header=False, **uvicorn_options(lim))


# -- the client ------------------------------------------------------------------------------

def start(port: int) -> subprocess.Popen[bytes]:
    return launch([__file__, "--serve", str(port)], port, seconds=60)


def server_cpu(pid: int) -> int:
    """CPU nanoseconds of every thread of `pid` so far."""
    total = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/schedstat") as fh:
                total += int(fh.read().split()[0])
        except (FileNotFoundError, ProcessLookupError):     # a thread that just ended
            pass
    return total


class Client:
    """One keep-alive HTTP/1.1 connection, one request at a time."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.sock = socket.create_connection((HOST, port))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buf = b""

    def request(self, path: str, body: bytes, method: str = "POST") -> tuple[int, bytes]:
        head = (f"{method} {path} HTTP/1.1\r\nHost: {HOST}:{self.port}\r\n"
                f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n")
        self.sock.sendall(head.encode() + body)
        while b"\r\n\r\n" not in self.buf:
            self._more()
        header, self.buf = self.buf.split(b"\r\n\r\n", 1)
        lines = header.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        length = next(int(ln.split(":", 1)[1]) for ln in lines[1:]
                      if ln.lower().startswith("content-length:"))
        while len(self.buf) < length:
            self._more()
        answer, self.buf = self.buf[:length], self.buf[length:]
        return status, answer

    def _more(self) -> None:
        chunk = self.sock.recv(65536)
        if not chunk:
            raise SystemExit("the server closed the connection")
        self.buf += chunk


def timed_block(client: Client, pid: int, path: str, bodies: list[bytes]) -> float:
    """Server CPU seconds over `bodies` sent to `path` (all must answer 200)."""
    time.sleep(PAUSE)                    # let the server finish what came before
    before = server_cpu(pid)
    for b in bodies:
        status, answer = client.request(path, b)
        if status != 200:
            raise SystemExit(f"{path} answered {status}: {answer[:200]!r}")
    time.sleep(PAUSE)
    return (server_cpu(pid) - before) / 1e9


def scoring_cpu(docs: list[dict[str, Any]], rs: Any) -> float:
    """CPU seconds of `rulekit.score` over `docs` in this process (each hand once)."""
    import rulekit
    start = time.process_time()
    for d in docs:
        rulekit.score(d, rs)
    return time.process_time() - start


def one_round(client: Client, pid: int, docs: list[dict[str, Any]], bodies: list[bytes],
              control: list[bytes], rs: Any, block: int) -> tuple[float, ...]:
    """CPU seconds per request of (score, hello, in-process scoring, control, hello without
    the hop) over one round, in blocks of `block` a side, the order of the sides turning per
    block. The control scores other hands (`control`): the memo would answer the same ones."""
    totals = [0.0] * 5
    for k, at in enumerate(range(0, len(bodies), block)):
        part = slice(at, at + block)
        sides = [("/v1/score", 0, bodies), (HELLO, 1, bodies), (CONTROL, 3, control),
                 (HELLO_LOOP, 4, bodies)]
        for path, i, payloads in sides[k % 4:] + sides[:k % 4]:
            totals[i] += timed_block(client, pid, path, payloads[part])
        totals[2] += scoring_cpu(docs[part], rs)
    return tuple(t / len(bodies) for t in totals)


Sides = tuple[list[float], list[float], list[float], list[float], list[float]]
"""score, hello, in-process scoring, control, hello without the hop: CPU seconds per
request of each round"""


def paths_taken(client: Client) -> dict[str, int]:
    """Where the server has scored /v1/score requests so far (its /healthz counters)."""
    status, answer = client.request("/healthz", b"", "GET")
    counts: dict[str, int] = json.loads(answer).get("scored", {}) if status == 200 else {}
    return counts


def one_server(docs: list[dict[str, Any]], rounds: int, per_round: int, block: int,
               rs: Any, tag: str) -> tuple[Sides, dict[str, int]]:
    """Round 0 warms up (its hands never recur), then `rounds` measured rounds; the second
    half of `docs` are the control's hands. Also where the measured rounds' scores went."""
    bodies = [json.dumps({"ruleset": "tianjin", "hand": d}).encode() for d in docs]
    half = len(docs) // 2
    port = free_port()
    proc = start(port)
    sides: Sides = ([], [], [], [], [])
    try:
        client = Client(port)
        for r in range(rounds + 1):
            part = slice(r * per_round, (r + 1) * per_round)
            ctrl = slice(half + r * per_round, half + (r + 1) * per_round)
            if r == 1:
                before = paths_taken(client)
            got = one_round(client, proc.pid, docs[part], bodies[part], bodies[ctrl], rs, block)
            if r == 0:
                continue
            for side, v in zip(sides, got):
                side.append(v)
            s, h, ln, c, hl = (v * 1e6 for v in got)
            print(f"{tag} round {r}: score {s:4.0f} µs, hello {h:4.0f} µs (without the hop "
                  f"{hl:4.0f}), scoring in process {ln:4.0f} µs, control {c:4.0f} µs -> ratio "
                  f"{(s - ln) / h:.2f}", flush=True)
        after = paths_taken(client)
    finally:
        proc.terminate()
        proc.wait(10)
    return sides, {k: after.get(k, 0) - before.get(k, 0) for k in after}


def run(runs: int, rounds: int, per_round: int, seed: int, block: int) -> None:
    """`runs` server processes one after another, each with hands of its own: the thread
    hop's cost differs from one process to the next (how the OS places its threads), more
    than between rounds of one process, so one process is not a measurement."""
    import rulekit
    from rulekit.corpus import corpus
    per_run = 2 * (rounds + 1) * per_round
    docs = list(corpus(runs * per_run, seed))
    rs = rulekit.load_ruleset("tianjin")
    results = []
    paths: dict[str, int] = {}
    for k in range(runs):
        sides, taken = one_server(docs[k * per_run:(k + 1) * per_run], rounds, per_round,
                                  block, rs, f"server {k + 1}")
        results.append(sides)
        for key, n in taken.items():
            paths[key] = paths.get(key, 0) + n
    for k, sides in enumerate(results, 1):
        report(f"server {k}", *sides)
    pooled: Sides = ([], [], [], [], [])
    for sides in results:
        for all_, one in zip(pooled, sides):
            all_.extend(one)
    print(f"\n{runs} server processes x {rounds} rounds x {per_round} requests each way, "
          f"server CPU per request:")
    score, hello, lib, control, hello_loop = (statistics.fmean(x) for x in pooled)
    total = sum(paths.values()) or 1
    print(f"  POST /v1/score           {score * 1e6:5.0f} µs (scored on the event loop "
          f"{paths.get('loop', 0) / total:.0%}, in a thread {paths.get('threads', 0) / total:.0%})")
    print(f"  rulekit.score in process {lib * 1e6:5.0f} µs per hand (same hands, once each)")
    print(f"  server's own cost        {(score - lib) * 1e6:5.0f} µs")
    print(f"  POST /hello              {hello * 1e6:5.0f} µs (Starlette + the same thread hop)")
    print(f"  POST /hello-loop         {hello_loop * 1e6:5.0f} µs (Starlette, no hop)")
    print(f"  POST /hello-score        {control * 1e6:5.0f} µs (the hello, scoring the hand in "
          f"the hop: a control)")
    per_server = sorted(ratio(*sides) for sides in results)
    print(f"ratio (score - scoring) / hello: {ratio(*pooled):.2f} (servers "
          f"{', '.join(f'{x:.2f}' for x in per_server)}; median "
          f"{statistics.median(per_server):.2f}); target <= 1.3")
    print(f"against the hello without the hop: (score - scoring) / hello-loop = "
          f"{(score - lib) / hello_loop:.2f}")
    in_server = control - hello
    print(f"control: scoring as a thread of a server does it costs {in_server * 1e6:.0f} µs, "
          f"not {lib * 1e6:.0f}; (score - that) / hello = {(score - in_server) / hello:.2f}")


def ratio(score_s: list[float], hello_s: list[float], lib_s: list[float],
          control_s: list[float], hello_loop_s: list[float]) -> float:
    score, hello, lib = (statistics.fmean(x) for x in (score_s, hello_s, lib_s))
    return (score - lib) / hello


def report(tag: str, score_s: list[float], hello_s: list[float], lib_s: list[float],
           control_s: list[float], hello_loop_s: list[float]) -> None:
    score, hello, lib, control = (statistics.fmean(x)
                                  for x in (score_s, hello_s, lib_s, control_s))
    print(f"{tag}: score {score * 1e6:.0f} µs - scoring {lib * 1e6:.0f} µs = "
          f"{(score - lib) * 1e6:.0f} µs own cost; hello {hello * 1e6:.0f} µs; control "
          f"{control * 1e6:.0f} µs; ratio "
          f"{ratio(score_s, hello_s, lib_s, control_s, hello_loop_s):.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=4, help="server processes, one after another")
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--per-round", type=int, default=300)
    ap.add_argument("--block", type=int, default=20, help="requests per side in a row")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--quick", action="store_true", help="1 server, 2 rounds of 60: a smoke run")
    ap.add_argument("--serve", type=int, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.serve:
        serve(args.serve)
        return
    if args.quick:
        args.runs, args.rounds, args.per_round = 1, 2, 60
    run(args.runs, args.rounds, args.per_round, args.seed, args.block)


if __name__ == "__main__":
    main()
