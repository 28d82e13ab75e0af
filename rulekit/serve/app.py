"""The Starlette application: routes, limits per request, errors as JSON, the static page.

Scoring runs in a small thread pool with a wall-time limit per request, so the event loop
keeps accepting and answering while a slow request is refused. (Python cannot stop a thread:
inline overlays are held to the library's static work budget when they load, `dsl/walk.py and dsl/budget.py`;
the time limit is the backstop.)
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
from starlette.responses import HTMLResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from rulekit import jsonio
from rulekit.serve import body, handlers, openapi, sheet
from rulekit.serve.errors import ApiError
from rulekit.serve.limits import ServeConfig
from rulekit.serve.registry import Registry

Handler = Callable[[Request], Awaitable[Response]]


def static_dir() -> Path:
    """The calculator's files, installed as package data or beside this module."""
    files = resources.files("rulekit.serve") / "static"
    return Path(str(files))


def _json(data: Any, status: int = 200) -> Response:
    """`data` as strict JSON (`jsonio.dumps`); a non-finite number (a stake of 1e300 times a
    fan) is refused, not written as the `Infinity` JSON does not have."""
    try:
        text = jsonio.dumps(data)
    except jsonio.JsonError as err:
        return _error(ApiError(422, "body", err.message))
    return Response(text, status_code=status, media_type="application/json")


def _error(err: ApiError) -> Response:
    headers = {"Retry-After": "1"} if err.status == 503 else None
    return Response(jsonio.dumps(err.body()), status_code=err.status, headers=headers,
                    media_type="application/json")


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


class _Api:
    """The endpoints, sharing one registry, one set of limits and one scoring pool."""

    def __init__(self, config: ServeConfig) -> None:
        self.lim = config.limits
        self.reg = Registry(config)
        self.pool = ThreadPoolExecutor(max_workers=self.lim.workers,
                                       thread_name_prefix="rulekit-score")

    async def work(self, fn: Callable[[], Any]) -> Any:
        """`fn` in the scoring pool, within the request's time limit."""
        loop = asyncio.get_running_loop()
        try:
            return await asyncio.wait_for(loop.run_in_executor(self.pool, fn), self.lim.seconds)
        except asyncio.TimeoutError:
            raise ApiError(503, "body", f"scoring took longer than the {self.lim.seconds:g} s "
                                        f"limit of one request") from None
        except RecursionError:
            raise ApiError(422, "body", "the request nests too deeply") from None

    async def json_body(self, request: Request) -> Any:
        return body.parse(await body.read(request, self.lim.body_bytes), self.lim.body_bytes)

    async def score(self, request: Request) -> Any:
        req = await self.json_body(request)
        return await self.work(lambda: handlers.score(self.reg, req))

    async def settle(self, request: Request) -> Any:
        req = await self.json_body(request)
        return await self.work(lambda: handlers.settle(self.reg, req))

    async def waits(self, request: Request) -> Any:
        req = await self.json_body(request)
        return await self.work(lambda: handlers.waits(self.reg, req))

    async def batch(self, request: Request) -> Any:
        raw = await body.read(request, self.lim.body_bytes)
        docs, jsonl = body.documents(raw, self.lim.body_bytes, self.lim.batch)
        default = request.query_params.get("ruleset")
        results = await self.work(lambda: handlers.batch(self.reg, docs, default))
        if not jsonl:
            return results
        try:
            text = "".join(jsonio.dumps(r) + "\n" for r in results)
        except jsonio.JsonError as err:
            raise ApiError(422, "body", err.message) from None
        return Response(text, media_type="application/x-ndjson")

    async def list_rulesets(self, request: Request) -> Any:
        return await self.work(lambda: handlers.rulesets(self.reg))

    async def one_ruleset(self, request: Request) -> Any:
        name = request.path_params["name"]
        return await self.work(lambda: handlers.ruleset(self.reg, name))

    async def validate(self, request: Request) -> Any:
        raw = await body.read(request, self.lim.body_bytes)
        text: Any
        if raw.lstrip().startswith(b"{"):
            req = body.parse(raw, self.lim.body_bytes)
            text = req.get("ruleset_yaml") if isinstance(req, dict) else None
        else:
            text = raw.decode("utf-8", errors="replace")
        return await self.work(lambda: handlers.validate(self.reg, text))

    async def rule_sheet(self, request: Request) -> Any:
        name = request.path_params["name"]
        entry = self.reg.entries.get(name)
        extra = [entry.path.parent / "cases" / f"{entry.path.stem}.yaml"] if entry else []
        page = await self.work(lambda: sheet.render(self.reg.get(name, "name"), name, extra))
        return HTMLResponse(page)

    async def overlay_sheet(self, request: Request) -> Any:
        """The sheet of a pasted overlay (`/rules?overlay=TEXT`), as the calculator links it."""
        text = request.query_params.get("overlay")
        if text is None:
            raise ApiError(400, "overlay", "give ?overlay=TEXT, or open /rules/NAME")

        def render() -> str:
            return sheet.render(self.reg.inline(text), "pasted overlay")
        return HTMLResponse(await self.work(render))

    async def impact(self, request: Request) -> Any:
        """What an overlay changes (rulekit/serve/impact.py): bounded by the time limit."""
        from rulekit.serve import impact
        req = await self.json_body(request)
        return await self.work(lambda: impact.impact(self.reg, req, self.lim.seconds))

    async def health(self, request: Request) -> Any:
        return {"ok": True, "rulesets": len(self.reg.entries), "inline_cached": self.reg.cached()}


def _endpoint(fn: Callable[[Request], Awaitable[Any]]) -> Handler:
    """An API endpoint: its value as JSON, its `ApiError` as the error JSON."""
    async def endpoint(request: Request) -> Response:
        try:
            result = await fn(request)
        except ApiError as err:
            return _error(err)
        return result if isinstance(result, Response) else _json(result)
    return endpoint


async def _index(request: Request) -> Response:
    return HTMLResponse((static_dir() / "index.html").read_text(encoding="utf-8"))


async def _http_error(request: Request, exc: Exception) -> Response:
    status = exc.status_code if isinstance(exc, HTTPException) else 500
    if status >= 500:
        return await _internal(request, exc)
    msg = "no such endpoint" if status == 404 else "method not allowed here"
    return _error(ApiError(status, "path", f"{msg}: {request.method} {request.url.path}"))


async def _internal(request: Request, exc: Exception) -> Response:
    """The last guard: a bug answers 500 with no detail; its type goes to the server's log."""
    sys.stderr.write(f"rulekit serve: internal error on {request.url.path}: "
                     f"{type(exc).__name__}\n")
    return _json({"error": {"field": "", "message": "internal error (please report this)"}},
                 500)


def create_app(config: ServeConfig | None = None) -> Starlette:
    """The whole application: API, calculator, rule sheets, OpenAPI document."""
    api = _Api(config or ServeConfig())
    spec = openapi.document(api.lim)

    async def spec_json(request: Request) -> Response:
        return _json(spec)

    async def docs(request: Request) -> Response:
        return HTMLResponse(openapi.page(spec))

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        api.pool.shutdown(wait=False, cancel_futures=True)

    routes = [
        Route("/", _index),
        Route("/v1/score", _endpoint(api.score), methods=["POST"]),
        Route("/v1/score:batch", _endpoint(api.batch), methods=["POST"]),
        Route("/v1/settle", _endpoint(api.settle), methods=["POST"]),
        Route("/v1/waits", _endpoint(api.waits), methods=["POST"]),
        Route("/v1/validate", _endpoint(api.validate), methods=["POST"]),
        Route("/v1/impact", _endpoint(api.impact), methods=["POST"]),
        Route("/v1/rulesets", _endpoint(api.list_rulesets)),
        Route("/v1/rulesets/{name:path}", _endpoint(api.one_ruleset)),
        Route("/rules", _endpoint(api.overlay_sheet)),
        Route("/rules/{name:path}", _endpoint(api.rule_sheet)),
        Route("/healthz", _endpoint(api.health)),
        Route("/openapi.json", spec_json),
        Route("/docs", docs),
        Mount("/static", StaticFiles(directory=static_dir()), name="static"),
    ]
    app = Starlette(routes=routes, middleware=[Middleware(_Headers)], lifespan=lifespan,
                    exception_handlers={HTTPException: _http_error, Exception: _internal})
    app.state.registry = api.reg
    return app
