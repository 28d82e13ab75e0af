"""The API described as OpenAPI 3.1, and a docs page rendered from it (no script, no CDN)."""
from __future__ import annotations

import html
import json
from typing import Any

import rulekit
from rulekit import limits as lib
from rulekit.serve.limits import ServeLimits

_ERROR = {"type": "object", "required": ["error"], "properties": {"error": {
    "type": "object", "required": ["field", "message"],
    "properties": {"field": {"type": "string"}, "message": {"type": "string"},
                   "problems": {"type": "array", "items": {"$ref": "#/components/schemas/Problem"}}}}}}
_RULESET = {"ruleset": {"type": "string", "description": "a built-in or served name",
                        "default": "tianjin"},
            "ruleset_yaml": {"type": "string", "description": "an overlay text; its `extends` "
                                                              "names a built-in or served ruleset"}}
_HAND_EXAMPLE = {"ruleset": "tianjin",
                 "hand": {"indicator": "7p", "hand": "46m123456789s22z", "win_tile": "5m"}}


def _post(summary: str, request: dict[str, Any], example: Any, ok: str,
          codes: str = "400 413 422 503") -> dict[str, Any]:
    responses: dict[str, Any] = {"200": {"description": ok}}
    for code in codes.split():
        responses[code] = {"description": "refused", "content": {"application/json": {
            "schema": {"$ref": "#/components/schemas/Error"}}}}
    return {"post": {"summary": summary, "requestBody": {"required": True, "content": {
        "application/json": {"schema": request, "example": example}}}, "responses": responses}}


def _envelope(doc_key: str, description: str) -> dict[str, Any]:
    return {"type": "object", "required": [doc_key], "properties": {
        **_RULESET, doc_key: {"type": "object", "description": description}}}


def document(lim: ServeLimits) -> dict[str, Any]:
    limits = (f"Limits: body {lim.body_bytes} bytes, inline ruleset {lim.ruleset_bytes} bytes, "
              f"batch {lim.batch} documents, {lim.seconds:g} s per request, JSON depth "
              f"{lib.JSON_DEPTH}.")
    return {
        "openapi": "3.1.0",
        "info": {"title": "rulekit", "version": rulekit.__version__, "description":
                 "Tianjin mahjong house rules as data: score, settle and waits under a "
                 "built-in, served or pasted ruleset. Documents as in docs/api.md. " + limits},
        "paths": {
            "/v1/score": _post("Score one hand", _envelope("hand", "a hand document"),
                               _HAND_EXAMPLE, "the score result (docs/api.md)"),
            "/v1/score:batch": _post(
                "Score many hands: a JSON array (answered with an array) or JSON lines "
                "(answered with JSON lines); `?ruleset=` is the default ruleset",
                {"type": "array", "items": _envelope("hand", "a hand document")},
                [_HAND_EXAMPLE], "one result or {error} per document, in order"),
            "/v1/settle": _post("Who pays whom", _envelope("settle", "a settle document"),
                                {"ruleset": "tianjin", "settle": {
                                    "dealer": 0, "dealer_sits": False, "pulls": [0, 0, 0, 0],
                                    "winner": 2, "hand": _HAND_EXAMPLE["hand"],
                                    "kongs": [[], [], [], []], "chan": False, "stake": 1}},
                                "payments, transfers, next dealer"),
            "/v1/waits": _post("The tiles a 13-tile hand waits on, each with its score",
                               _envelope("hand", "a hand document without win_tile"),
                               {"ruleset": "tianjin", "hand": {"indicator": "7p",
                                                               "hand": "46m123456789s1z7p"}},
                               "{waits: [{tile, win, total_fan, pattern_names}]}"),
            "/v1/validate": _post("Every problem of a ruleset text, with its line",
                                  {"type": "object", "properties": {
                                      "ruleset_yaml": _RULESET["ruleset_yaml"]}},
                                  {"ruleset_yaml": "extends: tianjin\nwin:\n  minimum: 2\n"},
                                  "{ok, problems: [{line, message}]}", "400 413"),
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


def page(doc: dict[str, Any]) -> str:
    """A readable docs page: each endpoint, its summary and its example request."""
    rows = []
    for path, methods in doc["paths"].items():
        for method, op in methods.items():
            example = op.get("requestBody", {}).get("content", {}).get(
                "application/json", {}).get("example")
            ex = (f"<pre>{html.escape(json.dumps(example, ensure_ascii=False, indent=1))}</pre>"
                  if example is not None else "")
            codes = ", ".join(op["responses"])
            rows.append(f"<section><h2><code>{method.upper()} {html.escape(path)}</code></h2>"
                        f"<p>{html.escape(op['summary'])}</p><p>status: {codes}</p>{ex}"
                        f"</section>")
    info = doc["info"]
    return (f"<!doctype html><html lang=en><meta charset=utf-8>"
            f"<meta name=viewport content='width=device-width,initial-scale=1'>"
            f"<title>rulekit API</title><link rel=stylesheet href=/static/app.css>"
            f"<body class=docs><main><h1>rulekit API {html.escape(info['version'])}</h1>"
            f"<p>{html.escape(info['description'])}</p>"
            f"<p>Errors: <code>{{\"error\": {{\"field\", \"message\"}}}}</code>. Machine-readable: "
            f"<a href=/openapi.json>/openapi.json</a>. Calculator: <a href=/>/</a>.</p>"
            + "".join(rows) + "</main></body></html>")
