"""The tables' HTTP and WebSocket routes and their pages (docs/serve.md, "Tables").

| route | what |
| --- | --- |
| `POST /v1/tables` | create: ruleset, seats, hands, think_time → id and one link per seat |
| `GET /v1/tables/{id}` | public state; with `?seat=S&token=T` that seat's view too |
| `GET /v1/tables/{id}/hands/{n}` | a finished hand's record (what `rulekit replay` reads) |
| `GET /v1/tables/{id}/hands.jsonl` | every finished hand, one record a line |
| `WS /v1/tables/{id}/ws?seat=S&token=T[&view=1]` | the seat's protocol (docs/bots.md) |
| `GET /tables`, `/tables/{id}`, `/tables/{id}/hands/{n}` | lobby, table page, replay viewer |
"""
from __future__ import annotations

import asyncio
import contextlib
from typing import Any, Awaitable, Callable

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from rulekit import jsonio
from rulekit.serve import body
from rulekit.serve.errors import ApiError
from rulekit.serve.static_files import page
from rulekit.serve.tables.hall import Tables
from rulekit.serve.tables.live import Conn
from rulekit.serve.tables import wire

MAX_MESSAGE = 4096                # a seat's message: one action (protocol: MAX_ANSWER_BYTES)
MAX_CONNECTIONS = 4               # open sockets of one seat (a phone and a laptop, reloads)
PAGE_HEADERS = {"Referrer-Policy": "no-referrer", "Cache-Control": "no-store"}


def _json(data: Any, status: int = 200) -> Response:
    return Response(jsonio.dumps(data), status_code=status, media_type="application/json",
                    headers={"Cache-Control": "no-store"})


def _api(fn: Callable[[Request], Awaitable[Any]]) -> Callable[[Request], Awaitable[Response]]:
    async def endpoint(request: Request) -> Response:
        try:
            got = await fn(request)
        except ApiError as err:
            return _json(err.body(), err.status)
        return got if isinstance(got, Response) else _json(got)
    return endpoint


def _page(name: str) -> Callable[[Request], Awaitable[Response]]:
    async def endpoint(request: Request) -> Response:
        return HTMLResponse(page(name), headers=PAGE_HEADERS)
    return endpoint


def routes(tables: Tables) -> list[BaseRoute]:
    """The tables' routes; none when tables are off (`TablesConfig.enabled`)."""
    if not tables.config.enabled:
        return []
    lim = tables.serve.limits

    async def create(request: Request) -> Any:
        req = body.parse(await body.read(request, lim.body_bytes), lim.body_bytes)
        return _json(await tables.create(req), 201)

    async def show(request: Request) -> Any:
        tid = request.path_params["id"]
        q = request.query_params
        if "token" in q or "seat" in q:
            table, seat = await tables.seat(tid, q.get("seat"), q.get("token"))
            asked = table.seats[seat].asked
            legal = asked[0] if asked is not None else []
            return wire.state(seat, table.snapshot(seat), legal)
        return (await tables.get(tid)).public()

    async def hand(request: Request) -> Any:
        return tables.record(request.path_params["id"], request.path_params["n"])

    async def hands(request: Request) -> Any:
        recs = tables.records(request.path_params["id"])
        return Response("".join(jsonio.dumps(r) + "\n" for r in recs),
                        media_type="application/x-ndjson")

    async def overlay(request: Request) -> Any:
        table = await tables.get(request.path_params["id"])
        if table.row.ruleset_yaml is None:
            raise ApiError(404, "id", f"this table plays the named ruleset "
                                      f"'{table.row.ruleset}'; it has no overlay")
        return Response(table.row.ruleset_yaml, media_type="text/yaml; charset=utf-8")

    return [
        Route("/v1/tables", _api(create), methods=["POST"]),
        Route("/v1/tables/{id}", _api(show)),
        Route("/v1/tables/{id}/hands.jsonl", _api(hands)),
        Route("/v1/tables/{id}/hands/{n}", _api(hand)),
        Route("/v1/tables/{id}/ruleset.yaml", _api(overlay)),
        WebSocketRoute("/v1/tables/{id}/ws", lambda ws: seat_socket(tables, ws)),
        Route("/tables", _page("table.html")),
        Route("/tables/{id}", _page("table.html")),
        Route("/tables/{id}/hands/{n}", _page("replay.html")),
    ]


async def seat_socket(tables: Tables, ws: WebSocket) -> None:
    """One seat's connection: refused before accepting without its token; then the seat's
    messages out (from the table, through the connection's outbox) and its answers in."""
    q = ws.query_params
    try:
        table, seat = await tables.seat(ws.path_params["id"], q.get("seat"), q.get("token"))
    except ApiError:
        await ws.close(code=4403)
        return
    if len(table.seats[seat].conns) >= MAX_CONNECTIONS:
        await ws.close(code=4429)
        return
    await ws.accept()
    conn = Conn(view=q.get("view") == "1")
    table.connect(seat, conn)
    writer = asyncio.get_running_loop().create_task(_write(ws, conn))
    try:
        while not writer.done():
            text = await ws.receive_text()
            if len(text) > MAX_MESSAGE:
                conn.put(wire.error(seat, f"a message of {len(text)} characters (at most "
                                          f"{MAX_MESSAGE})"))
                continue
            table.answer(seat, conn, text)
    except (WebSocketDisconnect, RuntimeError, KeyError):
        pass
    finally:
        table.disconnect(seat, conn)
        if not conn.outbox.full():
            conn.outbox.put_nowait(None)
        await asyncio.gather(writer, return_exceptions=True)


async def _write(ws: WebSocket, conn: Conn) -> None:
    while True:
        text = await conn.outbox.get()
        if text is None:
            if conn.close_code is not None:
                with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
                    await ws.close(code=conn.close_code)
            return
        try:
            await ws.send_text(text)
        except (WebSocketDisconnect, RuntimeError, OSError):
            return
