"""rulekit: Tianjin mahjong house rules as data. The public API, and nothing else."""
from rulekit.api import load_ruleset, score, score_many, scored_waits, settle, waits
from rulekit.errors import (DslError, HandError, RulekitError, RulesetError, SettleError,
                            TileError)
from rulekit.hand import Hand, Meld, parse_hand
from rulekit.ruleset.model import Ruleset
from rulekit.scoring import ScoreResult
from rulekit.scoring import search as _search
from rulekit.waits import Wait

COMPILED: bool = not (_search.__file__ or "").endswith(".py")
"""True when the scoring hot path runs as mypyc-compiled C (setup.py); False for pure Python."""

__all__ = [
    "DslError", "Hand", "HandError", "Meld", "Ruleset", "RulekitError", "RulesetError",
    "ScoreResult", "SettleError", "TileError", "load_ruleset", "parse_hand", "score", "settle",
    "waits", "score_many", "scored_waits", "Wait", "COMPILED", "__version__",
]


def _version() -> str:
    """The installed distribution's version; pyproject.toml's for an uninstalled checkout.

    pyproject.toml holds the one literal version: an install records it in the package
    metadata, and a source checkout (tests run from the worktree) reads it from the file.
    """
    from importlib import metadata
    try:
        return metadata.version("rulekit")
    except metadata.PackageNotFoundError:
        pass
    import tomllib
    from pathlib import Path
    try:
        with open(Path(__file__).resolve().parent.parent / "pyproject.toml", "rb") as fh:
            project = tomllib.load(fh).get("project", {})
    except (OSError, tomllib.TOMLDecodeError):
        return "0+unknown"
    version = project.get("version") if project.get("name") == "rulekit" else None
    return version if isinstance(version, str) else "0+unknown"


def __getattr__(name: str) -> str:
    # `__version__` is looked up on first use: reading the package metadata costs tens of
    # milliseconds that a one-shot `rulekit score` should not pay
    if name == "__version__":
        version = _version()
        globals()["__version__"] = version
        return version
    raise AttributeError(f"module 'rulekit' has no attribute {name!r}")
