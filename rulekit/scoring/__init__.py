"""Hand → arrangements → pattern facts → fan algebra → a `ScoreResult`.

The pipeline is the same for every ruleset; all that is Tianjin lives in the ruleset's data.
One module per stage: `result` (what a score returns), `plan` (which patterns count and at
which level, what their needs rule out), `scorer` (a ruleset's caches), `search` (the best
reading), `explain` (totals in words), `score` (a hand in, a result out).
"""
from rulekit.scoring.result import (BELOW_MINIMUM, NOT_A_WINNING_SHAPE, GroupView,
                                    ScoreResult)
from rulekit.scoring.score import score_document, score_hand, score_with, scorer_for
from rulekit.scoring.scorer import Scorer

__all__ = ["BELOW_MINIMUM", "NOT_A_WINNING_SHAPE", "GroupView", "ScoreResult", "Scorer",
           "score_document", "score_hand", "score_with", "scorer_for"]
