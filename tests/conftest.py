"""Shared fixtures: the default ruleset is loaded once per session (it is immutable)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import os

import pytest
import yaml
from hypothesis import settings

import rulekit
from rulekit.resources import cases_dir

DATA = Path(__file__).parent / "data"

# Hypothesis profiles: `ci` runs every property test with the example counts written at it
# (.ci/run sets HYPOTHESIS_PROFILE=ci; so does any environment with CI set); `dev`, the
# default elsewhere, runs a fifth of them (at least 10) for a quick loop while editing. Tests
# give their counts as `examples(n)`, which reads the profile.
settings.register_profile("ci", deadline=None, print_blob=True)
settings.register_profile("dev", deadline=None, max_examples=20)
PROFILE = os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev")
settings.load_profile(PROFILE)


def examples(n: int) -> int:
    """A property test's example count under the loaded profile: `n` under `ci`, a fifth of
    it (at least 10) under `dev`."""
    return n if PROFILE == "ci" else max(10, n // 5)
# The golden cases live once, in the package's case files (rulesets/cases/, what `rulekit test`
# reads): the tests read them from there too.
CASES = cases_dir()


@pytest.fixture(scope="session")
def tianjin() -> rulekit.Ruleset:
    return rulekit.load_ruleset("tianjin")


def golden_cases(ruleset: str) -> list[dict[str, Any]]:
    """The cases of rulesets/cases/RULESET.yaml (hand cases have `hand`, settle cases `settle`)."""
    with open(CASES / f"{ruleset}.yaml", encoding="utf-8") as fh:
        cases: list[dict[str, Any]] = yaml.safe_load(fh)["cases"]
    return cases


def fan_table_cases() -> list[dict[str, Any]]:
    """Seed 000's 番數演算法: the default's cases named `row N ...`, with N as `row`."""
    return [dict(c, row=int(c["name"].split()[1])) for c in golden_cases("tianjin")
            if c["name"].startswith("row ")]


def reading_cases() -> list[dict[str, Any]]:
    """The default's other hand cases: the readings of docs/rules.md."""
    return [c for c in golden_cases("tianjin")
            if "hand" in c and not c["name"].startswith("row ")]


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
