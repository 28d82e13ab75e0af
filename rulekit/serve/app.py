"""The Starlette application: routes, limits per request, errors as JSON, the static page.

Scoring runs in a small thread pool with a wall-time limit per request, so the event loop
keeps accepting and answering while a slow request is refused. (Python cannot stop a thread:
inline overlays are held to a static work budget before they run, see `inline.py`; the time
limit is the backstop.)
"""
from __future__ import annotations

import asyncio
import contextlib
import sys
from concurrent.futures import ThreadPoolExecutor
from importlib import resources
from pathlib import Path
from typing import Any, AsyncIterator, Awaitable, Callable

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from rulekit.serve import body, handlers, openapi, sheet
from rulekit.serve.errors import ApiError
from rulekit.serve.limits import ServeConfig
from rulekit.serve.registry import Registry

Handler = Callable[[Request], Awaitable[Response]]


def static_dir() -> Path:
    """The calculator's files, installed as package data or beside this module."""
    files = resources.files("rulekit.serve") / "static"
    return Path(str(files))


def _json(data: Any, status: int = 200) -> JSONResponse:
    return JSONResponse(data, status_code=status)


def _error(err: ApiError) -> JSONResponse:
    headers = {"Retry-After": "1"} if err.status == 503 else None
    return JSONResponse(err.body(), status_code=err.status, headers=headers)


class _Headers:
    """No page of ours loads anything from elsewhere or may be framed (plain ASGI: cheap)."""

    EXTRA = [(b"x-content-type-options", b"nosniff"),
             (b"content-security-policy",
              b"default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
              b"frame-ancestors 'none'")]

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *self.EXTRA]}
            await send(message)
        await self.app(scope, receive, send_with)


def create_app(config: ServeConfig | None = None) -> Starlette:
    config = config or ServeConfig()
    lim = config.limits
    reg = Registry(config)
    pool = ThreadPoolExecutor(max_workers=lim.workers, thread_name_prefix="rulekit-score")

    async def work(fn: Callable[[], Any]) -> Any:
        loop = asyncio.get_running_loop()
        try:
            return await asyncio.wait_for(loop.run_in_executor(pool, fn), lim.seconds)
        except asyncio.TimeoutError:
            raise ApiError(503, "body", f"scoring took longer than the {lim.seconds:g} s "
                                        f"limit of one request") from None
        except RecursionError:
            raise ApiError(422, "body", "the request nests too deeply") from None

    async def json_body(request: Request) -> Any:
        return body.parse(await body.read(request, lim.body_bytes), lim.json_depth)

    def api(fn: Callable[[Request], Awaitable[Any]]) -> Handler:
        async def endpoint(request: Request) -> Response:
            try:
                result = await fn(request)
            except ApiError as err:
                return _error(err)
            return result if isinstance(result, Response) else _json(result)
        return endpoint

    async def score(request: Request) -> Any:
        req = await json_body(request)
        return await work(lambda: handlers.score(reg, req))

    async def settle(request: Request) -> Any:
        req = await json_body(request)
        return await work(lambda: handlers.settle(reg, req))

    async def waits(request: Request) -> Any:
        req = await json_body(request)
        return await work(lambda: handlers.waits(reg, req))

    async def batch(request: Request) -> Any:
        docs, jsonl = body.documents(await body.read(request, lim.body_bytes), lim.json_depth,
                                     lim.batch)
        default = request.query_params.get("ruleset")
        results = await work(lambda: handlers.batch(reg, docs, default))
        if not jsonl:
            return results
        import json
        text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in results)
        return Response(text, media_type="application/x-ndjson")

    async def list_rulesets(request: Request) -> Any:
        return await work(lambda: handlers.rulesets(reg))

    async def one_ruleset(request: Request) -> Any:
        name = request.path_params["name"]
        return await work(lambda: handlers.ruleset(reg, name))

    async def validate(request: Request) -> Any:
        raw = await body.read(request, lim.body_bytes)
        if raw.lstrip().startswith(b"{"):
            text = body.parse(raw, lim.json_depth).get("ruleset_yaml")
        else:
            text = raw.decode("utf-8", errors="replace")
        return await work(lambda: handlers.validate(reg, text))

    async def rule_sheet(request: Request) -> Any:
        name = request.path_params["name"]
        entry = reg.entries.get(name)
        extra = [entry.path.parent / "cases" / f"{entry.path.stem}.yaml"] if entry else []
        html = await work(lambda: sheet.render(reg.get(name, "name"), name, extra))
        return HTMLResponse(html)

    async def health(request: Request) -> Any:
        return {"ok": True, "rulesets": len(reg.entries), "inline_cached": reg.cached()}

    async def index(request: Request) -> Response:
        return HTMLResponse((static_dir() / "index.html").read_text(encoding="utf-8"))

    async def spec(request: Request) -> Response:
        return _json(openapi.document(lim))

    async def docs(request: Request) -> Response:
        return HTMLResponse(openapi.page(openapi.document(lim)))

    async def not_found(request: Request, exc: Exception) -> Response:
        status = exc.status_code if isinstance(exc, HTTPException) else 500
        if status >= 500:
            return await internal(request, exc)
        msg = "no such endpoint" if status == 404 else "method not allowed here"
        return _error(ApiError(status, "path", f"{msg}: {request.method} {request.url.path}"))

    async def internal(request: Request, exc: Exception) -> Response:
        sys.stderr.write(f"rulekit serve: internal error on {request.url.path}: "
                         f"{type(exc).__name__}\n")
        return _json({"error": {"field": "", "message": "internal error (please report "
                                                        "this)"}}, 500)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        pool.shutdown(wait=False, cancel_futures=True)

    routes = [
        Route("/", index),
        Route("/v1/score", api(score), methods=["POST"]),
        Route("/v1/score:batch", api(batch), methods=["POST"]),
        Route("/v1/settle", api(settle), methods=["POST"]),
        Route("/v1/waits", api(waits), methods=["POST"]),
        Route("/v1/validate", api(validate), methods=["POST"]),
        Route("/v1/rulesets", api(list_rulesets)),
        Route("/v1/rulesets/{name:path}", api(one_ruleset)),
        Route("/rules/{name:path}", api(rule_sheet)),
        Route("/healthz", api(health)),
        Route("/openapi.json", spec),
        Route("/docs", docs),
        Mount("/static", StaticFiles(directory=static_dir()), name="static"),
    ]
    app = Starlette(routes=routes, middleware=[Middleware(_Headers)], lifespan=lifespan,
                    exception_handlers={HTTPException: not_found, Exception: internal})
    app.state.registry = reg
    return app
