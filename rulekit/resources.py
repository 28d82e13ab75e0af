"""Where the shipped rulesets and grammar live, installed or in a checkout."""
from __future__ import annotations

from importlib.util import find_spec
from pathlib import Path

_CHECKOUT = Path(__file__).resolve().parent.parent


def _dir(package: str, fallback: str) -> Path:
    """The installed data package's directory; the checkout's when running from source.

    The package's directory as its import spec names it, not `importlib.resources.files`:
    the same directory for a package on disk, and every command that loads a ruleset is
    spared importing `importlib.resources` (tempfile, shutil, zipfile, lzma: ~5 ms of a
    `rulekit simulate` start-up). A package inside a zip has no directory: the fallback."""
    try:
        spec = find_spec(package)
    except ModuleNotFoundError:
        spec = None
    for place in (spec.submodule_search_locations or []) if spec is not None else []:
        path = Path(place)
        if path.is_dir():
            return path
    return _CHECKOUT / fallback


def rulesets_dir() -> Path:
    return _dir("rulekit.data.rulesets", "rulesets")


def cases_dir() -> Path:
    return rulesets_dir() / "cases"


def grammar_text(name: str) -> str:
    return (_dir("rulekit.data.grammar", "grammar") / name).read_text(encoding="utf-8")
