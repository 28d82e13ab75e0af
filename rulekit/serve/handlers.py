"""What each API call does, as plain functions of a parsed request (they run in a worker).

Each takes the request's JSON object and returns the response's; library errors become
`ApiError`s naming the field, so the HTTP layer only turns them into status and JSON.
"""
from __future__ import annotations

import time
from typing import Any, Callable, TypeVar

import rulekit
from rulekit import api, report
from rulekit.errors import (DslError, HandError, RulekitError, RulesetError, SettleError,
                            TileError)
from rulekit.hand import Hand, hun_of
from rulekit.ruleset.model import Ruleset
from rulekit.scoring.score import read_hand, score_hand
from rulekit.serve import cheap
from rulekit.serve.errors import ApiError, first_problem, problem_dict
from rulekit.serve.registry import Registry
from rulekit.tiles import NUM_KINDS, TILE_NAMES

T = TypeVar("T")


def _object(value: Any, field: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ApiError(400, field, "expected a JSON object")
    return value


def library_errors(fn: Callable[[], T], field: str) -> T:
    """Run `fn`, turning the library's input errors into 422s that name the field."""
    try:
        return fn()
    except (HandError, SettleError) as err:
        raise ApiError(422, f"{field}.{err.field}", err.message) from None
    except TileError as err:
        raise ApiError(422, field, str(err)) from None
    except RulesetError as err:
        raise ApiError(422, "ruleset", first_problem(err.problems), err.problems) from None
    except (DslError, RulekitError) as err:
        raise ApiError(422, field, str(err).splitlines()[0]) from None


# -- what a player reads: display names beside the codes, in this one place -----------------
# Pattern names come from the ruleset (`pattern_names`); these are the words for the codes the
# library answers with (a reason a hand does not win, why a transfer is paid), for the pages.
_REASON_NAMES = {"not_a_winning_shape": {"zh": "不成和牌", "en": "not a winning shape"},
                 "below_minimum": {"zh": "番數不夠", "en": "below the minimum fan"}}
_WHY_NAMES = {"hand": {"zh": "和牌", "en": "the win"}, "kong": {"zh": "杠", "en": "kongs"},
              "chan": {"zh": "鏟", "en": "chan"}}


def reason_name(code: str | None, rs: Ruleset) -> dict[str, str] | None:
    """`{"zh", "en"}` for a reason code; a forbid (小相公) is named by its ruleset."""
    if code is None:
        return None
    name = rs.pattern_name(code)
    return _REASON_NAMES.get(code) or {"zh": name, "en": name}


def named_score(result: dict[str, Any], rs: Ruleset) -> dict[str, Any]:
    if result.get("reason") is not None:
        result["reason_name"] = reason_name(result["reason"], rs)
    return result


def named_settle(result: dict[str, Any], rs: Ruleset) -> dict[str, Any]:
    for t in result.get("transfers", ()):
        t["why_name"] = _WHY_NAMES.get(t["why"], {"zh": t["why"], "en": t["why"]})
    if isinstance(result.get("score"), dict):
        named_score(result["score"], rs)
    return result
# -- end of display names ----------------------------------------------------------------------


def score(reg: Registry, req: Any, default: str | None = None) -> dict[str, Any]:
    """`{"ruleset" | "ruleset_yaml", "hand": {...}}` → the `ScoreResult` as a dict, with
    `reason_name` beside a `reason`."""
    req = _object(req, "body")
    rs = reg.pick(req, default)
    doc = _object(req.get("hand"), "hand")
    return library_errors(lambda: named_score(rulekit.score(doc, rs).to_dict(), rs), "hand")


def cheap_hand(reg: Registry, req: Any) -> tuple[Ruleset, Hand] | None:
    """The ruleset and validated hand of a score request cheap enough to score on the event
    loop (`cheap.py`), or None: the request goes to the scoring threads, as any other. A
    hand its ruleset refuses raises the 422 `score` would (reading it is bounded by the
    body's size, which the caller checked)."""
    if not isinstance(req, dict) or req.get("ruleset_yaml") is not None:
        return None
    rs = reg.ready(req.get("ruleset", api.DEFAULT_RULESET))
    doc = req.get("hand")
    if rs is None or not isinstance(doc, dict) or not cheap.ruleset_ok(rs):
        return None
    hand = library_errors(lambda: read_hand(doc, rs), "hand")
    return (rs, hand) if cheap.hand_ok(hand) else None


def score_read(rs: Ruleset, hand: Hand) -> dict[str, Any]:
    """`score`'s answer for a hand `cheap_hand` read."""
    return library_errors(lambda: named_score(score_hand(hand, rs).to_dict(), rs), "hand")


def settle(reg: Registry, req: Any) -> dict[str, Any]:
    """`{"ruleset" | "ruleset_yaml", "settle": {...}}` → the `SettleResult` as a dict, each
    transfer with `why_name` beside its `why`."""
    req = _object(req, "body")
    rs = reg.pick(req)
    doc = _object(req.get("settle"), "settle")
    return library_errors(lambda: named_settle(rulekit.settle(doc, rs).to_dict(), rs), "settle")


def waits(reg: Registry, req: Any, deadline: float | None = None) -> dict[str, Any]:
    """`{"ruleset" | "ruleset_yaml", "hand": {...13 tiles...}}` → each waited tile's score
    (the clock is read between tiles, as a batch reads it between documents)."""
    req = _object(req, "body")
    rs = reg.pick(req)
    doc = _object(req.get("hand"), "hand")

    def run() -> dict[str, Any]:
        out = []
        for item in rulekit.waits({k: v for k, v in doc.items() if k != "win_tile"}, rs):
            if deadline is not None and time.monotonic() > deadline:
                raise ApiError(503, "body", "the waits passed the time limit of one request")
            tile = item if isinstance(item, str) else str(getattr(item, "tile", item))
            result = rulekit.score({**doc, "win_tile": tile}, rs)
            out.append({"tile": tile, "win": result.win, "total_fan": result.total_fan,
                        "hand_fan": result.hand_fan, "patterns": list(result.patterns),
                        "pattern_names": list(result.pattern_names),
                        "reason": result.reason,
                        "reason_name": reason_name(result.reason, rs)})
        return {"waits": out}
    return library_errors(run, "hand")


def batch(reg: Registry, docs: list[Any], default: str | None,
          deadline: float | None = None) -> list[dict[str, Any]]:
    """One result per document, in order; a bad document's result is its error. The clock
    is read between documents: past `deadline` the batch stops (503), nothing goes on."""
    out: list[dict[str, Any]] = []
    for doc in docs:
        if deadline is not None and time.monotonic() > deadline:
            raise ApiError(503, "body", f"the batch passed the time limit of one request "
                                        f"after {len(out)} of {len(docs)} documents")
        try:
            if isinstance(doc, ApiError):
                raise doc
            out.append(score(reg, doc, default))
        except ApiError as err:
            out.append(err.body())
    return out


def hun_by_indicator(rs: Ruleset) -> dict[str, list[str]]:
    """Each indicator's hun under `rs` (hun.kinds, game.single_hun), as scoring reads them:
    the calculator shows these and never derives hun itself."""
    return {TILE_NAMES[t]: [TILE_NAMES[h] for h in hun_of(t, rs.hun_kinds, rs.hun_successor)]
            for t in range(NUM_KINDS)}


def describe(reg: Registry, name: str, rs: Ruleset) -> dict[str, Any]:
    entry = reg.entries.get(name)
    first = rs.description.splitlines()[0] if rs.description else ""
    return {"name": name, "origin": entry.origin if entry else "inline", "title": first,
            "players": rs.players, "hun_kinds": rs.hun_kinds, "win_by": sorted(rs.win_by),
            "golden_kong": rs.golden_kong_allowed, "max_pulls": int(rs.settlement["max_pulls"]),
            "hun_of": hun_by_indicator(rs)}


def rulesets(reg: Registry) -> dict[str, Any]:
    out = []
    for entry in reg.names():
        try:
            out.append(describe(reg, entry.name, reg.get(entry.name)))
        except ApiError as err:
            out.append({"name": entry.name, "origin": entry.origin, "broken": err.message})
    return {"rulesets": out}


def ruleset(reg: Registry, name: str) -> dict[str, Any]:
    rs = reg.get(name)
    return {**describe(reg, name, rs), "description": rs.description, "chain": list(rs.chain),
            "patterns": [{"id": p.id, "name": p.name} for p in rs.patterns],
            "yaml": report.ruleset_yaml(rs)}


def validate(reg: Registry, text: Any) -> dict[str, Any]:
    """Every problem of an overlay with its line; `ok` with the ruleset's name when none."""
    try:
        rs = reg.inline(text)
    except ApiError as err:
        if err.status != 422:
            raise
        return {"ok": False, "field": err.field, "message": err.message,
                "problems": [problem_dict(p) for p in err.problems or [err.message]]}
    return {"ok": True, "name": rs.name, "patterns": [{"id": p.id, "name": p.name}
                                                      for p in rs.patterns],
            "players": rs.players, "chain": list(rs.chain), "golden_kong": rs.golden_kong_allowed,
            "max_pulls": int(rs.settlement["max_pulls"]), "hun_of": hun_by_indicator(rs)}
