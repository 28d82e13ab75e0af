"""rulekit: Tianjin mahjong house rules as data. The public API, and nothing else.

The names below are imported on first use (PEP 562): `import rulekit.shape` or a one-shot
`rulekit score` then loads only what it needs, not the ruleset loader, YAML, JSON Schema and
the DSL compiler. `from rulekit import score`, `rulekit.score`, `dir()` and `help()` work as
with eager imports.
"""
from __future__ import annotations

import sys
import types
from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rulekit.api import load_ruleset, score, score_many, scored_waits, settle, waits
    from rulekit.errors import (DslError, HandError, RulekitError, RulesetError, SettleError,
                                TileError)
    from rulekit.hand import Hand, Meld, parse_hand
    from rulekit.ruleset.model import Ruleset
    from rulekit.scoring import ScoreResult
    from rulekit.waits import Wait

    COMPILED: bool
    """True when the scoring hot path runs as mypyc-compiled C (setup.py); False for pure
    Python."""
    __version__: str

__all__ = [
    "DslError", "Hand", "HandError", "Meld", "Ruleset", "RulekitError", "RulesetError",
    "ScoreResult", "SettleError", "TileError", "load_ruleset", "parse_hand", "score", "settle",
    "waits", "score_many", "scored_waits", "Wait", "COMPILED", "__version__",
]

# each public name → the module that defines it
_HOME = {
    "load_ruleset": "rulekit.api", "score": "rulekit.api", "score_many": "rulekit.api",
    "scored_waits": "rulekit.api", "settle": "rulekit.api", "waits": "rulekit.api",
    "DslError": "rulekit.errors", "HandError": "rulekit.errors",
    "RulekitError": "rulekit.errors", "RulesetError": "rulekit.errors",
    "SettleError": "rulekit.errors", "TileError": "rulekit.errors",
    "Hand": "rulekit.hand", "Meld": "rulekit.hand", "parse_hand": "rulekit.hand",
    "Ruleset": "rulekit.ruleset.model", "ScoreResult": "rulekit.scoring",
    "Wait": "rulekit.waits",
}


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


def _compiled() -> bool:
    search = import_module("rulekit.scoring.search")
    return not (search.__file__ or "").endswith(".py")


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is not None:
        value = getattr(import_module(home), name)
    elif name == "COMPILED":
        value = _compiled()
    elif name == "__version__":
        # read on first use: the package metadata costs tens of milliseconds that a one-shot
        # `rulekit score` should not pay
        value = _version()
    else:
        raise AttributeError(f"module 'rulekit' has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


class _Package(types.ModuleType):
    """The package module, keeping the name `rulekit.waits` for the function.

    Importing the submodule `rulekit.waits` (as `rulekit.api` does) sets the package's
    attribute `waits` to that module, which would hide the function; eager imports bound the
    function after it. The submodule stays in `sys.modules` (`from rulekit.waits import
    Wait` works), and `rulekit.waits` is the function whatever was imported first.
    """

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "waits" and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
