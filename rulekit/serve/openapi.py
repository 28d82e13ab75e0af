"""The API described as OpenAPI 3.1, and a docs page rendered from it (no script, no CDN)."""
from __future__ import annotations

import html
import json
from typing import Any

import rulekit
from rulekit import limits as lib
from rulekit.serve import handlers, handtext
from rulekit.serve.limits import ServeLimits

_ERROR = {"type": "object", "required": ["error"], "properties": {"error": {
    "type": "object", "required": ["field", "message"],
    "properties": {"field": {"type": "string"}, "message": {"type": "string"},
                   "problems": {"type": "array", "items": {"$ref": "#/components/schemas/Problem"}}}}}}
_RULESET = {"ruleset": {"type": "string", "description": "a built-in or served name",
                        "default": "tianjin"},
            "ruleset_yaml": {"type": "string", "description": "an overlay text; its `extends` "
                                                              "names a built-in or served ruleset"}}
_HAND: dict[str, Any] = {"indicator": "7p", "hand": "46m123456789s22z", "win_tile": "5m"}
_HAND_EXAMPLE = {"ruleset": "tianjin", "hand": _HAND}


def _post(summary: str, request: dict[str, Any], example: Any, ok: str,
          codes: str = "400 403 408 413 421 422 503", answer: Any = None) -> dict[str, Any]:
    responses: dict[str, Any] = {"200": {"description": ok}}
    if answer is not None:
        responses["200"]["content"] = {"application/json": {"example": answer}}
    for code in codes.split():
        responses[code] = {"description": "refused", "content": {"application/json": {
            "schema": {"$ref": "#/components/schemas/Error"}}}}
    return {"post": {"summary": summary, "requestBody": {"required": True, "content": {
        "application/json": {"schema": request, "example": example}}}, "responses": responses}}


def _envelope(doc_key: str, description: str) -> dict[str, Any]:
    return {"type": "object", "required": [doc_key], "properties": {
        **_RULESET, doc_key: {"type": "object", "description": description}}}


def _answers() -> dict[str, Any]:
    """The example requests' real answers, computed by the library (never stale text)."""
    hand = _HAND
    rs = rulekit.load_ruleset("tianjin")
    waits_hand = {"indicator": "7p", "hand": "46m123456789s1z7p"}
    waits = []
    for tile in rulekit.waits(waits_hand):
        r = rulekit.score({**waits_hand, "win_tile": tile})
        waits.append({"tile": tile, "win": r.win, "total_fan": r.total_fan,
                      "pattern_names": list(r.pattern_names)})
    return {
        "score": rulekit.score(hand).to_dict(),
        "settle": {k: v for k, v in handlers.named_settle(
            rulekit.settle(_SETTLE).to_dict(), rs).items() if k != "score"},
        "waits": {"waits": waits},
        "parse": handtext.parse(_PARSE_EXAMPLE["text"]),
    }


# -- live tables (docs/serve.md "Tables"): shapes as the server answers, ids shortened ----------
_TID = "GXl02lqxrjYm"
_TOKEN = "kIAKcJtb7zsubgDAVoZJNLPc"
_TABLE_REQUEST = {"ruleset": "tianjin", "seats": ["human", "greedy", "greedy", "remote"],
                  "hands": 4, "think_time": 120}
_SEAT_LINK = {"seat": 0, "kind": "human", "token": _TOKEN,
              "link": f"/tables/{_TID}?seat=0&token={_TOKEN}",
              "ws": f"/v1/tables/{_TID}/ws?seat=0&token={_TOKEN}"}
_PUBLIC = {"id": _TID, "ruleset": "tianjin", "overlay": False,
           "seats": [{"seat": 0, "kind": "human", "connected": True, "joined": True,
                      "fallbacks": 0, "faults": 0}, "..."],
           "hands": 4, "hand": 1, "status": "playing", "finished_hands": [0],
           "totals": [-2.0, -2.0, -2.0, 6.0], "pending": [0], "think_time": 120.0,
           "seeded": False}
_RECORD = {"format": 2, "hand": 0, "ruleset": "tianjin",
           "players": ["human", "greedy", "greedy", "remote"], "seed": 7, "dealer": 0,
           "indicator": "7p", "wall": "...", "events": [
               {"seat": 0, "action": "deal", "tile": None, "rule": "拿牌: 8m1148899p13s357z"},
               {"seat": 0, "action": "discard", "tile": "9p", "rule": None}, "..."],
           "result": {"winner": 3, "win_by": "self_draw", "patterns": ["..."], "total_fan": 2,
                      "payments": [-2, -2, -2, 6], "next_dealer": 3}, "settle": {"...": "..."},
           "digest": "..."}
_WS = ("The seat's WebSocket, `ws://HOST/v1/tables/{id}/ws?seat=S&token=T` (`&view=1` adds "
       "`state` messages, as the table page asks). It carries the bot protocol rulekit-bot/1 "
       "(docs/bots.md): the server sends `start`, `event`, `request` (with `observation` and "
       "`legal`) and `end`, one JSON object per message; the seat answers a request with "
       "exactly one element of `legal`, e.g. {\"action\": \"discard\", \"tile\": \"9p\"}. An "
       "answer not in `legal` is a fault, as in `rulekit match`: {\"type\": \"error\", \"seat\", "
       "\"message\", \"fault\"}, the fallback plays that decision at once and the socket is "
       "closed with 4400. A wrong seat or token is closed with code 4403 before it opens; a seat that "
       "leaves gets the fallback until it reconnects, and reconnecting resumes.")


def _get(summary: str, ok: str, answer: Any = None, media: str = "application/json",
         refused: str = "404") -> dict[str, Any]:
    """A GET under /v1/tables/{id}: the id in the path, an example answer, the refusals."""
    response: dict[str, Any] = {"description": ok}
    if answer is not None:
        response["content"] = {media: {"example": answer}}
    responses: dict[str, Any] = {"200": response}
    for code in refused.split():
        responses[code] = {"description": "refused", "content": {"application/json": {
            "schema": {"$ref": "#/components/schemas/Error"}}}}
    return {"get": {"summary": summary, "parameters": [
        {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}],
        "responses": responses}}


def _tables() -> dict[str, Any]:
    """The live tables' endpoints (rulekit/serve/tables/routes.py), the WebSocket in text."""
    create = _post("Open a table: a ruleset (by name, or an overlay as `ruleset_yaml`), one "
                   "seat kind per player (`human`, `remote`, or a built-in bot `greedy`, "
                   "`value`, `random`), `hands` (1 to 64) and `think_time` (seconds a person "
                   "has per decision, 1 to 3600), and for reproducible tests a `seed` (0 to "
                   "2^62 - 1; the table then says `seeded`: its creator knows every wall). "
                   "Each human or remote seat gets a token: its "
                   "link is its key.", {"type": "object", "required": ["seats"], "properties": {
                       **_RULESET, "seats": {"type": "array", "items": {"type": "string"}},
                       "hands": {"type": "integer", "minimum": 1, "maximum": 64},
                       "think_time": {"type": "number", "minimum": 1, "maximum": 3600},
                       "seed": {"type": "integer", "minimum": 0,
                                "maximum": 2 ** 62 - 1}}},
                   _TABLE_REQUEST, "", "400 413 422 429")
    ok = create["post"]["responses"].pop("200")
    create["post"]["responses"] = {"201": {**ok, "description": "the table's id, a link per "
                                           "seat, the public state", "content": {
        "application/json": {"example": {"id": _TID, "seats": [
            _SEAT_LINK, {"seat": 1, "kind": "greedy"}, "..."], "table": _PUBLIC}}}},
        **create["post"]["responses"]}
    show = _get("The public state of a table (seats, hand, status, finished hands, running "
                "`totals`); with `?seat=S&token=T`, that seat's `state` message (its "
                "observation, `legal`, seconds left, the last hand's result)", "the table",
                _PUBLIC, refused="403 404")
    show["get"]["parameters"] += [
        {"name": n, "in": "query", "required": False, "schema": {"type": t}}
        for n, t in (("seat", "integer"), ("token", "string"))]
    hand = _get("A finished hand's record, the line `rulekit replay` reads (404 while it "
                "is played)", "the record", _RECORD)
    hand["get"]["parameters"].append({"name": "n", "in": "path", "required": True,
                                      "schema": {"type": "integer"}})
    return {
        "/v1/tables": create,
        "/v1/tables/{id}": show,
        "/v1/tables/{id}/hands/{n}": hand,
        "/v1/tables/{id}/hands.jsonl": _get(
            "Every finished hand, one record a line: `rulekit replay t.jsonl`",
            "JSON lines", "{...hand 0...}\n{...hand 1...}\n", "application/x-ndjson"),
        "/v1/tables/{id}/ruleset.yaml": _get(
            "The table's overlay, for `rulekit replay --ruleset` (404 for a named ruleset)",
            "YAML", "extends: tianjin\nname: our kitchen table\n", "text/yaml"),
        "/v1/tables/{id}/ws": {"get": {
            "summary": "WebSocket: one seat's protocol", "description": _WS,
            "parameters": [{"name": n, "in": p, "required": p != "query" or n != "view",
                            "schema": {"type": "string"}}
                           for n, p in (("id", "path"), ("seat", "query"), ("token", "query"),
                                        ("view", "query"))],
            "responses": {"101": {"description": "switching to the WebSocket protocol"}}}},
    }


_SETTLE: dict[str, Any] = {
    "dealer": 0, "dealer_sits": False, "pulls": [0, 0, 0, 0], "winner": 2,
    "hand": _HAND, "kongs": [[], [], [], []], "chan": False, "stake": 1}
_SETTLE_EXAMPLE = {"ruleset": "tianjin", "settle": _SETTLE}
_PARSE_EXAMPLE = {"text": "四六萬 123456789s 南南 和5m 混七筒"}


def document(lim: ServeLimits) -> dict[str, Any]:
    limits = (f"Limits: body {lim.body_bytes} bytes, inline ruleset {lim.ruleset_bytes} bytes, "
              f"batch {lim.batch} documents, {lim.seconds:g} s per request, JSON depth "
              f"{lib.JSON_DEPTH}.")
    answers = _answers()
    return {
        "openapi": "3.1.0",
        "info": {"title": "rulekit", "version": rulekit.__version__, "description":
                 "Tianjin mahjong house rules as data: score, settle and waits under a "
                 "built-in, served or pasted ruleset, and live tables people and bots play "
                 "at (docs/serve.md, Tables). Documents as in docs/api.md. " + limits},
        "paths": {
            "/v1/score": _post("Score one hand", _envelope("hand", "a hand document"),
                               _HAND_EXAMPLE, "the score result (docs/api.md); a hand that "
                               "does not win has `reason` and `reason_name` ({zh, en})",
                               answer=answers["score"]),
            "/v1/score:batch": _post(
                "Score many hands: a JSON array (answered with an array) or JSON lines "
                "(answered with JSON lines); `?ruleset=` is the default ruleset",
                {"type": "array", "items": _envelope("hand", "a hand document")},
                [_HAND_EXAMPLE], "one result or {error} per document, in order"),
            "/v1/settle": _post("Who pays whom", _envelope("settle", "a settle document"),
                                _SETTLE_EXAMPLE, "payments, transfers (each `why` with its "
                                "`why_name`), next dealer, and the winner's `score` (left out "
                                "here)", answer=answers["settle"]),
            "/v1/waits": _post("The tiles a 13-tile hand waits on, each with its score",
                               _envelope("hand", "a hand document without win_tile"),
                               {"ruleset": "tianjin", "hand": {"indicator": "7p",
                                                               "hand": "46m123456789s1z7p"}},
                               "{waits: [{tile, win, total_fan, hand_fan, patterns, "
                               "pattern_names, reason, reason_name}]} (here without the last "
                               "four)", answer=answers["waits"]),
            "/v1/parse": _post("A hand typed as one line (the calculator's text box): "
                               "concealed tiles, then `win`/和/+, `ind`/混, `pung`/碰, "
                               "`kong`/杠, `ckong`/暗杠, `flowers`/花, each followed by its "
                               "tiles in ASCII or Chinese; 14 tiles and no `win` make the last "
                               "one the winning tile. Only reads: /v1/score checks the hand.",
                               {"type": "object", "required": ["text"], "properties": {
                                   "text": {"type": "string", "maxLength": handtext.MAX_TEXT}}},
                               _PARSE_EXAMPLE, "{hand: {hand document}}", "400 413 422",
                               answer=answers["parse"]),
            "/v1/validate": _post("Every problem of a ruleset text, with its line",
                                  {"type": "object", "properties": {
                                      "ruleset_yaml": _RULESET["ruleset_yaml"]}},
                                  {"ruleset_yaml": "extends: tianjin\nwin:\n  minimum: 2\n"},
                                  "{ok, problems: [{line, message}]}", "400 403 408 413 421 503",
                                  answer={"ok": True, "name": "tianjin", "patterns": [
                                      {"id": "tiliu", "name": "提溜"}, "..."], "players": 4,
                                      "chain": ["<inline>", "rulesets/tianjin.yaml"]}),
            "/v1/rulesets": {"get": {"summary": "The rulesets served, by name",
                                     "responses": {"200": {"description": "names"}}}},
            "/v1/rulesets/{name}": {"get": {
                "summary": "One ruleset: merged YAML and description",
                "parameters": [{"name": "name", "in": "path", "required": True,
                                "schema": {"type": "string"}}],
                "responses": {"200": {"description": "the ruleset"},
                              "400": {"description": "not a name"},
                              "404": {"description": "no such ruleset"}}}},
            "/rules/{name}": {"get": {"summary": "The rule sheet of a ruleset (HTML)",
                                      "responses": {"200": {"description": "HTML"}}}},
            "/rules": {"get": {"summary": "The rule sheet of an overlay: ?overlay=TEXT",
                               "responses": {"200": {"description": "HTML"},
                                             "422": {"description": "the overlay is refused"}}}},
            "/v1/impact": _post(
                "What an overlay changes against `versus` (default tianjin): the rules that "
                "differ, a corpus diff and a short simulation, bounded by the time limit "
                "(docs/serve.md)",
                {"type": "object", "properties": {
                    **_RULESET, "versus": {"type": "string"},
                    "hands": {"type": "integer", "minimum": 0, "maximum": 256},
                    "documents": {"type": "integer", "minimum": 0, "maximum": 2000},
                    "seed": {"type": "integer"}, "html": {"type": "boolean"}}},
                {"ruleset_yaml": "extends: tianjin\nname: mine\nkong_points: {golden: 8}\n",
                 "hands": 64}, "{rules_differ, warnings, corpus, simulation, bounded}"),
            **_tables(),
        },
        "components": {"schemas": {
            "Error": _ERROR,
            "Problem": {"type": "object", "properties": {
                "file": {"type": "string"}, "line": {"type": "integer"},
                "column": {"type": "integer"}, "message": {"type": "string"}}}}},
    }


def _compact(value: Any, depth: int = 0) -> str:
    """JSON as a person reads it: a value that fits on a short line stays on one."""
    flat = json.dumps(value, ensure_ascii=False)
    pad = "  " * (depth + 1)
    if len(flat) + 2 * depth <= 40 or not isinstance(value, (dict, list)) or not value:
        return flat
    if isinstance(value, dict):
        items = [f"{pad}{json.dumps(k, ensure_ascii=False)}: {_compact(v, depth + 1)}"
                 for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + "  " * depth + "}"
    items = [pad + _compact(v, depth + 1) for v in value]
    return "[\n" + ",\n".join(items) + "\n" + "  " * depth + "]"


def _pre(value: Any) -> str:
    return f"<pre>{html.escape(value if isinstance(value, str) else _compact(value))}</pre>"


def _operation(path: str, method: str, op: dict[str, Any]) -> str:
    """One endpoint: summary, example request, its answer, and the statuses that refuse."""
    request = op.get("requestBody", {}).get("content", {}).get("application/json", {})
    parts = [f"<section><h2><code>{method.upper()} {html.escape(path)}</code></h2>",
             f"<p>{html.escape(op['summary'])}</p>"]
    if "description" in op:
        parts.append(f"<p>{html.escape(op['description'])}</p>")
    if "example" in request:
        parts.append("<h3>Request</h3>" + _pre(request["example"]))
    parts.append("<h3>Responses</h3><dl class=responses>")
    refused = []
    for code, answer in op["responses"].items():
        body: dict[str, Any] = next(iter(answer.get("content", {}).values()), {})
        if body.get("schema", {}).get("$ref", "").endswith("/Error"):
            refused.append(code)
            continue
        shown = _pre(body["example"]) if "example" in body else ""
        parts.append(f"<dt><code>{code}</code></dt><dd>{html.escape(answer['description'])}"
                     f"{shown}</dd>")
    if refused:
        parts.append(f"<dt><code>{' '.join(refused)}</code></dt><dd>refused (see Errors above):"
                     f" <code>{{\"error\": {{\"field\", \"message\"}}}}</code></dd>")
    return "".join(parts) + "</dl></section>"


def page(doc: dict[str, Any]) -> str:
    """A readable docs page: each endpoint, its example request and its answers; it wraps
    at a phone's width (no line is cut off)."""
    rows = [_operation(path, method, op) for path, methods in doc["paths"].items()
            for method, op in methods.items()]
    info = doc["info"]
    return (f"<!doctype html><html lang=en><meta charset=utf-8>"
            f"<meta name=viewport content='width=device-width,initial-scale=1'>"
            f"<title>rulekit API</title><link rel=stylesheet href=/static/app.css>"
            f"<link rel=icon href=/favicon.ico type=image/svg+xml>"
            f"<body class=docs><main><h1>rulekit API {html.escape(info['version'])}</h1>"
            f"<p>{html.escape(info['description'])}</p>"
            f"<p>Errors: <code>{{\"error\": {{\"field\", \"message\"}}}}</code>. Machine-readable: "
            f"<a href=/openapi.json>/openapi.json</a>. Calculator: <a href=/>/</a>.</p>"
            + "".join(rows) + "</main></body></html>")
