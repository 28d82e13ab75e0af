"""rulekit: Tianjin mahjong house rules as data. The public API, and nothing else."""
from rulekit.api import load_ruleset, score, settle, waits
from rulekit.errors import (DslError, HandError, RulekitError, RulesetError, SettleError,
                            TileError)
from rulekit.hand import Hand, Meld, parse_hand
from rulekit.ruleset.model import Ruleset
from rulekit import scoring as _scoring
from rulekit.scoring import ScoreResult

COMPILED: bool = not _scoring.__file__.endswith(".py")
"""True when the scoring hot path runs as mypyc-compiled C (setup.py); False for pure Python."""

__all__ = [
    "DslError", "Hand", "HandError", "Meld", "Ruleset", "RulekitError", "RulesetError",
    "ScoreResult", "SettleError", "TileError", "load_ruleset", "parse_hand", "score", "settle",
    "waits", "COMPILED",
]
__version__ = "0.1.0"
