"""The scorer's run-time work budget: a ruleset that validates cannot make one hand take long.

The static budget (dsl/walk.py `cost`, limits.HAND_STEPS) assumes a bounded number of
evaluations per hand; a ruleset of cheap patterns that the fan algebra cannot prune makes the
search read far more arrangements than that. The scorer counts each evaluation's steps and
stops at limits.RUN_STEPS with a RulesetError naming the patterns (a counter, so the outcome
does not depend on the machine's speed).
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest

import rulekit
from rulekit import limits
from rulekit.errors import RulesetError

# 7 hun as a 天和: every one of its kinds is a candidate winning tile (the place search
# reads the same hand as a plain win within the budget: too little work to stop it)
SEVEN_HUN = {"indicator": "1m", "hand": "111m2222m 345p 678s", "win_tile": "9s",
             "heavenly": True}


def heavy(tmp_path: Path, n: int) -> Path:
    """`n` cheap arrangement-level patterns, each worth a little: valid, and within the
    static budget, but the algebra's bound prunes almost nothing on a 7-hun hand."""
    pats = "".join(
        f"  p{i}:\n    name: P{i}\n    when: \"some g in groups: g.shape == run and g.first == "
        f"{1 + i % 7}{'mps'[i % 3]} and win.group.shape != pair\"\n" for i in range(n))
    add = ", ".join(f"p{i}: {1 + i % 5}" for i in range(n))
    path = tmp_path / "heavy.yaml"
    path.write_text(f"extends: tianjin\nname: heavy\npatterns:\n{pats}scoring:\n"
                    f"  add: {{{add}}}\n", encoding="utf-8")
    return path


def test_a_ruleset_the_algebra_cannot_prune_is_stopped_naming_its_patterns(
        tmp_path: Path) -> None:
    rs = rulekit.load_ruleset(heavy(tmp_path, 8))          # validates: within the static check
    with pytest.raises(RulesetError) as err:
        rulekit.score(SEVEN_HUN, rs)
    assert err.value.problems == [
        f"{rs.source}: ruleset 'heavy' is too costly for this hand: its patterns would take "
        f"over {limits.RUN_STEPS:,} steps (the work budget); the costliest being judged: "
        "'shuang_hun_diao', 'p0', 'p1'"]
    # the same ruleset on an ordinary hand: scored, 捉5 3 + 龍 4 + P5 (456m) ... as usual
    r = rulekit.score({"indicator": "7p", "hand": "46m123456789s22z", "win_tile": "5m"}, rs)
    assert r.win and r.total_fan > 14


@pytest.mark.parametrize("name", ["tianjin", "tianjin-flowers"])
def test_builtin_rulesets_score_seven_hun_heavenly_hands_within_the_budget(name: str) -> None:
    """7 hun (1m indicator: three 1m, four 2m) and six random tiles, as 天和: the heaviest
    hands there are; tianjin-flowers, the costliest built-in, peaks near a third of RUN_STEPS."""
    rng = random.Random(5)
    kinds = [f"{r}{s}" for s in "mps" for r in range(1, 10)] + [f"{r}z" for r in range(1, 8)]
    pool = [k for k in kinds if k not in ("1m", "2m")]
    rs = rulekit.load_ruleset(name)
    wins = 0
    for _ in range(12):
        others = [rng.choice(pool) for _ in range(6)]
        doc = {"indicator": "1m", "hand": " ".join(["1m"] * 3 + ["2m"] * 4 + others),
               "win_tile": rng.choice(pool), "heavenly": True}
        if max(map((others + [doc["win_tile"]]).count, pool)) > 4:
            continue
        r = rulekit.score(doc, rs)                 # no RulesetError: within the budget
        assert r.win or r.reason == "not_a_winning_shape", r
        wins += r.win
    assert wins >= 6
