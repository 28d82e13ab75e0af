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
                 "built-in, served or pasted ruleset. Documents as in docs/api.md. " + limits},
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
    return f"<pre>{html.escape(_compact(value))}</pre>"


def _operation(path: str, method: str, op: dict[str, Any]) -> str:
    """One endpoint: summary, example request, its answer, and the statuses that refuse."""
    request = op.get("requestBody", {}).get("content", {}).get("application/json", {})
    parts = [f"<section><h2><code>{method.upper()} {html.escape(path)}</code></h2>",
             f"<p>{html.escape(op['summary'])}</p>"]
    if "example" in request:
        parts.append("<h3>Request</h3>" + _pre(request["example"]))
    parts.append("<h3>Responses</h3><dl class=responses>")
    refused = []
    for code, answer in op["responses"].items():
        body = answer.get("content", {}).get("application/json", {})
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
