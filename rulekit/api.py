"""The library's entry points; the CLI, a game server or an HTTP service call these."""
from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping

from rulekit.waits import waits as _waits_of
from rulekit.hand import Hand
from rulekit.ruleset import resolve
from rulekit.ruleset.model import Ruleset, load
from rulekit.scoring import ScoreResult, score_document, score_hand

if TYPE_CHECKING:
    from rulekit.settlement import SettleResult

DEFAULT_RULESET = "tianjin"
RulesetRef = str | Path | Ruleset


def load_ruleset(ref: RulesetRef = DEFAULT_RULESET) -> Ruleset:
    """A built-in name or a YAML path → a compiled `Ruleset` (raises `RulesetError`).

    Loads are cached per file and modification time, so a server may call this per request.
    """
    if isinstance(ref, Ruleset):
        return ref
    path = resolve.locate(str(ref)) if not isinstance(ref, Path) else ref
    return _cached(str(path.resolve()), _stamp(path))


def _stamp(path: Path) -> float:
    try:
        return os.stat(path).st_mtime
    except OSError:
        return 0.0


@lru_cache(maxsize=64)
def _cached(path: str, mtime: float) -> Ruleset:
    # mtime is part of the key: an edited file is loaded again; `extends` parents are
    # re-read whenever the child is
    return load(Path(path))


def score(doc: Mapping[str, Any] | Hand, ruleset: RulesetRef = DEFAULT_RULESET) -> ScoreResult:
    """Score one hand document (or a parsed `Hand`); raises `HandError` on bad input."""
    rs = load_ruleset(ruleset)
    if isinstance(doc, Hand):
        return score_hand(doc, rs)
    return score_document(doc, rs)


def settle(doc: Mapping[str, Any], ruleset: RulesetRef = DEFAULT_RULESET) -> "SettleResult":
    """Payments for one settle document; raises `SettleError` on bad input."""
    from rulekit.settlement import settle_document
    return settle_document(doc, load_ruleset(ruleset))


def waits(doc: Mapping[str, Any], ruleset: RulesetRef = DEFAULT_RULESET) -> tuple[str, ...]:
    """The tiles that complete a 13-tile hand document (no `win_tile`)."""
    return _waits_of(doc, load_ruleset(ruleset))
