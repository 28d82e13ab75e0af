"""Where the pages rulekit serve shows live: one answer for the calculator's routes (app.py)
and the tables' (tables/routes.py), so neither imports the other."""
from __future__ import annotations

from importlib import resources
from pathlib import Path


def static_dir() -> Path:
    """The pages' files, installed as package data or beside this module."""
    files = resources.files("rulekit.serve") / "static"
    return Path(str(files))
