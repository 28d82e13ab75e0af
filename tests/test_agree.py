"""The scorer agrees with an exhaustive search (tests/exhaustive.py) on random hands with
0-7 hun under every built-in ruleset.

The exhaustive search has none of the scorer's levels, bounds, best-first order or shared
results, so this pins the parts that exist only for speed. CI runs a small sample
(RULEKIT_AGREE_HANDS, default 105: 15 per ruleset); `python bench/agree.py` runs the
20,000-hand check.
"""
from __future__ import annotations

import os
import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import rulekit  # noqa: E402
from agree import check, hand_for  # noqa: E402
from rulekit.ruleset.resolve import builtin_names  # noqa: E402

HANDS = int(os.environ.get("RULEKIT_AGREE_HANDS", "105"))
NAMES = builtin_names()


@pytest.mark.parametrize("name", NAMES)
def test_scorer_agrees_with_exhaustive_search(name: str) -> None:
    rs = rulekit.load_ruleset(name)
    rng = random.Random(f"agree {name}")
    per = max(1, HANDS // len(NAMES))
    bad = []
    for i in range(per):
        hand = hand_for(rng, rs, i % 8)        # every hun count 0-7 in turn
        diff = check(rs, hand)
        if diff is not None:
            bad.append((hand, diff))
    assert bad == []


def test_exhaustive_search_values_a_hand_by_the_rules() -> None:
    """The yardstick itself: 123456789m 東東東 南南, no hun (indicator 5p: hun 6p 7p), is a
    龍 (4) that is 素 (× 2): 8, as RULES.md and tests/reference.py say."""
    from exhaustive import exhaustive_hand_fan
    hand = rulekit.parse_hand({"indicator": "5p", "hand": "123456789m1112z",
                               "win_tile": "2z", "win_by": "self_draw"})
    assert exhaustive_hand_fan(hand, rulekit.load_ruleset("tianjin")) == 8
