"""`POST /v1/impact`: "what does this change?" for a pasted overlay, from the calculator's
ruleset panel: which rules differ from the ruleset it is compared with, a corpus diff
(`rulekit diff`) and a short simulation (`rulekit simulate --versus`), bounded in time.

Both parts stop at a deadline (a share of the request's time limit) and say how much they
did; the request never asks for more than `MAX_HANDS` hands or `MAX_DOCUMENTS` documents.
"""
from __future__ import annotations

import time
from typing import Any, Callable

from rulekit import corpus, diff
from rulekit.game import html_report, simulate as sim, summary
from rulekit.ruleset.model import Ruleset
from rulekit.serve.errors import ApiError
from rulekit.serve.registry import Registry

DEFAULT_HANDS, MAX_HANDS = 64, 256
DEFAULT_DOCUMENTS, MAX_DOCUMENTS = 300, 2000
SESSION = 16
PLAYERS = ("greedy", "greedy", "greedy", "greedy")


def _count(req: dict[str, Any], key: str, default: int, most: int) -> int:
    value = req.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= most:
        raise ApiError(400, key, f"a whole number from 0 to {most}")
    return value


def impact(reg: Registry, req: Any, seconds: float,
           clock: Callable[[], float] = time.monotonic) -> dict[str, Any]:
    """`{"ruleset_yaml" | "ruleset", "versus"?, "hands"?, "documents"?, "seed"?,
    "html"?}` → the rule diff, the corpus diff and the simulation's report."""
    if not isinstance(req, dict):
        raise ApiError(400, "body", "expected a JSON object")
    first = reg.pick(req)
    other = reg.get(req.get("versus", "tianjin"), "versus")
    if other.players != first.players:
        raise ApiError(422, "versus", f"{other.name} seats {other.players} players, "
                                      f"{first.name} {first.players}")
    hands = _count(req, "hands", DEFAULT_HANDS, MAX_HANDS)
    documents = _count(req, "documents", DEFAULT_DOCUMENTS, MAX_DOCUMENTS)
    seed = _count(req, "seed", 1, 2 ** 31)
    start = clock()
    # a third of the time for the corpus, the rest (less a margin) for play
    corpus_part = _corpus_diff(first, other, documents, seed, start + seconds * 0.3, clock)
    outs = _play(first, other, hands, seed, start + seconds * 0.8, clock)
    report = summary.versus(outs, first, other, list(PLAYERS), SESSION, seed)
    report["seed"] = seed
    out = {"first": first.name, "other": other.name, "reading": report["reading"],
           "rules_differ": report["rules_differ"], "warnings": report["warnings"],
           "corpus": corpus_part, "simulation": report,
           "bounded": {"hands_asked": hands, "hands_played": len(outs),
                       "documents_asked": documents,
                       "documents_scored": corpus_part["documents"],
                       "seconds": round(clock() - start, 3)}}
    if len(outs) < hands:
        out["warnings"] = [*report["warnings"], f"the time limit stopped the simulation "
                           f"after {len(outs)} of {hands} hands"]
    if req.get("html") is True:
        out["html"] = html_report.page(report)
    return out


def _corpus_diff(first: Ruleset, other: Ruleset, count: int, seed: int, deadline: float,
                 clock: Callable[[], float]) -> dict[str, Any]:
    """`rulekit diff OTHER FIRST` over a seeded corpus of hands, until the deadline."""
    changed: list[dict[str, Any]] = []
    done = 0
    for doc in corpus.corpus(count, seed, hun_kinds_count=first.hun_kinds):
        if clock() > deadline:
            break
        done += 1
        old, new = diff.evaluate(doc, other), diff.evaluate(doc, first)
        if old.compared != new.compared:
            change = diff.DocChange(done, str(doc.get("id")), doc, old, new)
            changed.append({"id": change.id, "change": change.detail,
                            "doc": diff.brief(doc), "size": change.size})
    changed.sort(key=lambda c: (-c["size"][0], -c["size"][1]))
    return {"documents": done, "changed": len(changed),
            "largest": [{k: c[k] for k in ("id", "change", "doc")} for c in changed[:5]],
            "reading": f"each change reads {other.name} → {first.name}"}


def _play(first: Ruleset, other: Ruleset, hands: int, seed: int, deadline: float,
          clock: Callable[[], float]) -> list[dict[str, Any]]:
    """Whole sessions of the same deals under both rulesets, until the deadline."""
    outs: list[dict[str, Any]] = []
    for task in sim.tasks(first, list(PLAYERS), hands, seed, chunks=max(1, hands // SESSION),
                          log=False, versus=other, session_hands=SESSION):
        if clock() > deadline:
            break
        outs += sim.run_task(task)
    return outs
