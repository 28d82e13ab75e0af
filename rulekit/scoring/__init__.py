"""Hand → arrangements → pattern facts → fan algebra → a `ScoreResult`.

The pipeline is the same for every ruleset; all that is Tianjin lives in the ruleset's data.
One module per stage, in the order a hand flows through them (docs/design.md):
`route` (every threshold that picks a search path, with the measurement that set it),
`plan` (which patterns count and at which level, what their needs rule out), `keys` (every
memo key's layout), `scorer` (a ruleset's caches), `score` (a hand in, a result out),
`search` (the judging both paths share), `scan` (arrangements one by one), `places` (the
place search), `rests` (a place's live arrangements), `holding` (the groups that can hold a
tile, the rest each leaves), `reach` (which queried groups arrangements can hold together,
memoised per suit), `suit_reach` (one suit's reach worked out rank by rank), `abstract`
(which patterns a place can still make true), `explain` (totals in words), `result` (what
a score returns).

The names below are imported on first use (PEP 562), so that a module the scorer stands on
(`algebra`) can read `scoring.route` without importing the whole scorer first.
"""
from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rulekit.scoring.result import (BELOW_MINIMUM, NOT_A_WINNING_SHAPE, GroupView,
                                        ScoreResult)
    from rulekit.scoring.score import score_document, score_hand, score_with, scorer_for
    from rulekit.scoring.scorer import Scorer

__all__ = ["BELOW_MINIMUM", "NOT_A_WINNING_SHAPE", "GroupView", "ScoreResult", "Scorer",
           "score_document", "score_hand", "score_with", "scorer_for"]

_HOME = {"BELOW_MINIMUM": "result", "NOT_A_WINNING_SHAPE": "result", "GroupView": "result",
         "ScoreResult": "result", "Scorer": "scorer", "score_document": "score",
         "score_hand": "score", "score_with": "score", "scorer_for": "score"}


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module 'rulekit.scoring' has no attribute {name!r}")
    value = getattr(import_module(f"rulekit.scoring.{home}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
