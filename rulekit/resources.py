"""Where the shipped rulesets and grammar live, installed or in a checkout."""
from __future__ import annotations

from importlib import resources as _res
from pathlib import Path

_CHECKOUT = Path(__file__).resolve().parent.parent


def _dir(package: str, fallback: str) -> Path:
    """The installed data package's directory; the checkout's when running from source."""
    try:
        files = _res.files(package)
        if isinstance(files, Path) and files.is_dir():
            return files
    except (ModuleNotFoundError, TypeError):
        pass
    return _CHECKOUT / fallback


def rulesets_dir() -> Path:
    return _dir("rulekit.data.rulesets", "rulesets")


def cases_dir() -> Path:
    return rulesets_dir() / "cases"


def grammar_text(name: str) -> str:
    return (_dir("rulekit.data.grammar", "grammar") / name).read_text(encoding="utf-8")
