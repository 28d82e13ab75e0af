"""Shared fixtures: the default ruleset is loaded once per session (it is immutable)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

import rulekit

DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="session")
def tianjin() -> rulekit.Ruleset:
    return rulekit.load_ruleset("tianjin")


def load_cases(name: str) -> list[dict[str, Any]]:
    with open(DATA / name, encoding="utf-8") as fh:
        cases: list[dict[str, Any]] = yaml.safe_load(fh)
    return cases


def check_expect(result: dict[str, Any], expect: dict[str, Any]) -> list[str]:
    """Differences between a result and the keys an expectation names (patterns as sets)."""
    diffs = []
    for key, want in expect.items():
        if key == "patterns":
            if set(want) != set(result["patterns"]):
                diffs.append(f"patterns: expected {sorted(want)}, got {sorted(result['patterns'])}")
        elif key == "patterns_one_of":
            if not any(set(p) == set(result["patterns"]) for p in want):
                diffs.append(f"patterns: expected one of {want}, got {result['patterns']}")
        elif result.get(key) != want:
            diffs.append(f"{key}: expected {want!r}, got {result.get(key)!r}")
    return diffs
