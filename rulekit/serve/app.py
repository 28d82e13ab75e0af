"""The Starlette application: routes, limits per request, errors as JSON, the static page.

Two paths, by trust. A request naming a built-in or served ruleset (cheap, and bounded by
the library's static budget) is scored in a small thread pool, so per-request overhead stays
low. A request carrying an inline overlay (`ruleset_yaml`, `/v1/validate`, `/rules?overlay=`)
is compiled and scored in the overlay pool's worker processes (`pool.py`): it cannot hold the
event loop's GIL, and at its deadline its worker is killed. Either way a batch checks the
clock between documents, so no work goes on after its 503.
"""
from __future__ import annotations

import asyncio
import contextlib
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any, AsyncIterator, Awaitable, Callable

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import Receive, Scope, Send

from rulekit import jsonio
from rulekit.serve import body, cheap, handlers, handtext, openapi, sheet
from rulekit.serve.errors import ApiError
from rulekit.serve.guard import Guard
from rulekit.serve.limits import ServeConfig
from rulekit.serve.pool import STARTUP_SECONDS, OverlayPool
from rulekit.serve.registry import Registry
from rulekit.serve.static_files import page, static_dir as static_dir      # re-exported
from rulekit.serve.tables import Tables, TablesConfig, routes as table_routes

Handler = Callable[[Request], Awaitable[Response]]


def _json(data: Any, status: int = 200) -> Response:
    """`data` as strict JSON (`jsonio.encode`, once, straight to bytes); a non-finite number
    (a stake of 1e300 times a fan) is refused, not written as the `Infinity` JSON does not
    have."""
    try:
        data = jsonio.encode(data)
    except jsonio.JsonError as err:
        return _error(ApiError(422, "body", err.message))
    return Response(data, status_code=status, media_type="application/json")


def _error(err: ApiError) -> Response:
    headers = ({"Retry-After": "1"} if err.status == 503
               else {"Connection": "close"} if err.status == 408 else None)
    return Response(jsonio.encode(err.body()), status_code=err.status, headers=headers,
                    media_type="application/json")


class _Api:
    """The endpoints, sharing one registry, one set of limits and the two scoring pools."""

    def __init__(self, config: ServeConfig) -> None:
        self.lim = config.limits
        self.reg = Registry(config)
        self.pool = ThreadPoolExecutor(max_workers=self.lim.threads,
                                       thread_name_prefix="rulekit-score")
        # overlay jobs: each waits (in one of these threads) for a worker process
        self.overlays = OverlayPool(config)
        self.dispatch = ThreadPoolExecutor(max_workers=4 * self.lim.processes + 4,
                                           thread_name_prefix="rulekit-overlay")
        # where /v1/score requests were scored (counted on the event loop, so no lock)
        self.scored = {"loop": 0, "threads": 0, "workers": 0}

    def deadline(self) -> float:
        return time.monotonic() + self.lim.seconds

    def _late(self) -> ApiError:
        return ApiError(503, "body", f"scoring took longer than the {self.lim.seconds:g} s "
                                     f"limit of one request")

    async def work(self, fn: Callable[[], Any]) -> Any:
        """`fn` in the scoring threads, within the request's time limit."""
        loop = asyncio.get_running_loop()
        try:         # asyncio.timeout: the deadline without the task wait_for makes
            async with asyncio.timeout(self.lim.seconds):
                return await loop.run_in_executor(self.pool, fn)
        except TimeoutError:
            raise self._late() from None
        except RecursionError:
            raise ApiError(422, "body", "the request nests too deeply") from None

    async def untrusted(self, job: dict[str, Any], key: str) -> Any:
        """An overlay job in the overlay pool; the pool kills its worker at the deadline."""
        loop = asyncio.get_running_loop()
        deadline = self.deadline()
        call = loop.run_in_executor(self.dispatch, self.overlays.run, job, deadline, key)
        try:       # the pool keeps the deadline (a worker's start is not charged to it)
            return await asyncio.wait_for(call, self.lim.seconds + STARTUP_SECONDS + 1.0)
        except asyncio.TimeoutError:
            raise self._late() from None

    async def json_body(self, request: Request) -> Any:
        return body.parse(await body.read(request, self.lim.body_bytes), self.lim.body_bytes)

    async def one(self, op: str, request: Request, fn: Callable[[Any], Any]) -> Any:
        """A score, settle or waits request: by the overlay pool when it carries an overlay."""
        req = await self.json_body(request)
        overlay = _overlay(req)
        if overlay is not None:
            return await self.untrusted({"op": op, "req": req}, overlay)
        return await self.work(lambda: fn(req))

    async def score(self, request: Request) -> Any:
        """A hand cheap enough by `cheap.py` (few hun, a ruleset of cheap patterns, a small
        body) is scored here on the event loop: the hop to a thread would cost more than the
        scoring. Any other goes to the threads or, with an overlay, to a worker process."""
        raw = await body.read(request, self.lim.body_bytes)
        req = body.parse(raw, self.lim.body_bytes)
        overlay = _overlay(req)
        if overlay is not None:
            self.scored["workers"] += 1
            return await self.untrusted({"op": "score", "req": req}, overlay)
        if len(raw) <= cheap.BODY_BYTES:
            try:
                picked = handlers.cheap_hand(self.reg, req)
            except ApiError:
                self.scored["loop"] += 1         # a hand its ruleset refuses: answered here
                raise
            if picked is not None:
                self.scored["loop"] += 1
                return handlers.score_read(*picked)
        self.scored["threads"] += 1
        return await self.work(lambda: handlers.score(self.reg, req))

    async def settle(self, request: Request) -> Any:
        return await self.one("settle", request, lambda req: handlers.settle(self.reg, req))

    async def waits(self, request: Request) -> Any:
        deadline = self.deadline()
        return await self.one("waits", request,
                              lambda req: handlers.waits(self.reg, req, deadline))

    async def batch(self, request: Request) -> Any:
        raw = await body.read(request, self.lim.body_bytes)
        docs, jsonl = body.documents(raw, self.lim.body_bytes, self.lim.batch)
        default = request.query_params.get("ruleset")
        overlay = next((o for o in map(_overlay, docs) if o is not None), None)
        if overlay is not None:
            plain = [d.body() if isinstance(d, ApiError) else d for d in docs]
            results = await self.untrusted({"op": "batch", "docs": plain, "default": default,
                                            "errors": [isinstance(d, ApiError) for d in docs]},
                                           overlay)
        else:
            deadline = self.deadline()
            results = await self.work(lambda: handlers.batch(self.reg, docs, default, deadline))
        if not jsonl:
            return results
        try:
            lines = b"".join(jsonio.encode(r) + b"\n" for r in results)
        except jsonio.JsonError as err:
            raise ApiError(422, "body", err.message) from None
        return Response(lines, media_type="application/x-ndjson")

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
        if not isinstance(text, str):
            return handlers.validate(self.reg, text)        # the 400, without a worker
        return await self.untrusted({"op": "validate", "text": text}, text)

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
        return HTMLResponse(str(await self.untrusted({"op": "sheet", "text": text}, text)))

    async def parse(self, request: Request) -> Any:
        """A typed hand as a hand document (`handtext`): cheap and bounded by its length, so
        it runs here rather than in the scoring pool."""
        req = await self.json_body(request)
        if not isinstance(req, dict):
            raise ApiError(400, "body", "expected a JSON object {\"text\": ...}")
        return handtext.parse(req.get("text"))

    async def impact(self, request: Request) -> Any:
        """What an overlay changes (rulekit/serve/impact.py): bounded by the time limit."""
        from rulekit.serve import impact
        req = await self.json_body(request)
        return await self.work(lambda: impact.impact(self.reg, req, self.lim.seconds))

    async def health(self, request: Request) -> Any:
        """Cheap on purpose: it answers while every worker is busy."""
        return {"ok": True, "rulesets": len(self.reg.entries),
                "inline_cached": self.overlays.stats()["cached"],
                "overlay_pool": self.overlays.stats(), "scored": dict(self.scored)}


def _overlay(req: Any) -> str | None:
    """The overlay text a request carries (any non-null `ruleset_yaml`: a worker checks
    it), or None for a request naming its ruleset."""
    if isinstance(req, dict) and req.get("ruleset_yaml") is not None:
        text = req["ruleset_yaml"]
        return text if isinstance(text, str) else ""
    return None


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
    return HTMLResponse(page("index.html"))


async def _favicon(request: Request) -> Response:
    """The pages' icon at the address browsers ask for by themselves (no 404 per page)."""
    icon = (static_dir() / "favicon.svg").read_bytes()
    return Response(icon, media_type="image/svg+xml",
                    headers={"Cache-Control": "public, max-age=86400"})


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


def create_app(config: ServeConfig | None = None,
               tables_config: TablesConfig | None = None) -> Starlette:
    """The whole application: API, calculator, rule sheets, OpenAPI document, tables."""
    api = _Api(config or ServeConfig())
    tables = Tables(config or ServeConfig(), api.reg, tables_config)    # live tables
    spec = openapi.document(api.lim)

    async def spec_json(request: Request) -> Response:
        return _json(spec)

    async def docs(request: Request) -> Response:
        return HTMLResponse(openapi.page(spec))

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        api.overlays.warm()
        await tables.startup()
        yield
        await tables.shutdown()
        api.pool.shutdown(wait=False, cancel_futures=True)
        api.overlays.close()
        api.dispatch.shutdown(wait=False, cancel_futures=True)

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
        Route("/v1/parse", _endpoint(api.parse), methods=["POST"]),
        Route("/favicon.ico", _favicon),
        Route("/healthz", _endpoint(api.health)),
        Route("/openapi.json", spec_json),
        Route("/docs", docs),
        *table_routes.routes(tables),
        Mount("/static", StaticFiles(directory=static_dir()), name="static"),
    ]
    conf = config or ServeConfig()
    app = _App(routes=routes, middleware=[Middleware(Guard, config=conf)],
               lifespan=lifespan,
               exception_handlers={HTTPException: _http_error, Exception: _internal})
    app.state.registry = api.reg
    app.state.overlays = api.overlays
    app.state.tables = tables
    return app


class _App(Starlette):
    """Starlette re-raises an error after its 500 is sent, for the server to log it with its
    traceback; `_internal` has logged one line already, so it ends here (under attack, a
    traceback per request is what kept a server busy writing its log)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        except Exception:         # answered 500 (or the client is gone); logged by _internal
            pass
