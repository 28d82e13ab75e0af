"""Where the shipped rulesets and grammar live, installed or in a checkout."""
from __future__ import annotations

from importlib import resources as _res
from pathlib import Path

_CHECKOUT = Path(__file__).resolve().parent.parent


def _dir(package: str, fallback: str) -> Path:
    try:
        path = Path(str(_res.files(package)))
        if path.is_dir():
            return path
    except (ModuleNotFoundError, TypeError):
        pass
    return _CHECKOUT / fallback


def rulesets_dir() -> Path:
    return _dir("rulekit.data.rulesets", "rulesets")


def cases_dir() -> Path:
    return rulesets_dir() / "cases"


def grammar_text(name: str) -> str:
    return (_dir("rulekit.data.grammar", "grammar") / name).read_text(encoding="utf-8")
