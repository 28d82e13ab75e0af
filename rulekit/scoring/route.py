"""Every threshold that picks a search path, in one place, each with the measurement that set it.

The search is exact whichever path a hand takes (bench/agree.py checks every path against an
exhaustive search); these numbers only decide which path costs least. Change one, and
re-measure with the bench named beside it. This module imports nothing of rulekit, so the
modules the scorer stands on (`arrange`, `algebra`) can read it too.
"""
from __future__ import annotations

from typing import Final

TIGHT_BOUND_HUN: Final = 3
"""From this many hun the scan first works out which skeleton-level patterns any arrangement
can make true (`scan.held1_options`) and which groups can hold the winning tile
(`scan.win_group_checked`): tight bounds that pay once arrangements are many. Below 3 hun
both cost more than they save (bench/score.py per-hun table, measured when introduced)."""

PLACE_HUN: Final = 5
"""From this many hun any hand is searched place by place (`places.by_place`). Measured
(compiled, bench/score.py): 7-hun hands 4.2 ms by the scan, 1.4 ms by place; at 3-4 hun the
scan is as fast or faster (its fixed cost per hand is lower): starting at 3 or 4 cost the
dealt mix 0.59-0.68 x riichi, against 0.55 with 6. Lowered to 5 at issue 22 (bench/worst.py
found 5-hun hands the scan reads in full, e.g. `46m345567p23333s`, indicator 2s, win 5m:
21 ms scanned, 2.9 ms by place, pure Python): on 200 random 5-hun hands (pure Python, cold)
the place search's slowest took 5.6-6.5 ms, the scan's 8.4-26 ms, at 1.1-1.4 x the scan's
mean; 5-hun hands are about 0.1% of the dealt mix."""

PLACE_HUN_HEAVENLY: Final = 4
"""From this many hun a hand with several candidate winning tiles (a 天和) is searched place
by place: a 3-hun 天和 scans in about half the time it takes by place; at 4 hun they are
even; 7-hun 天和 went from 25 ms mean, 180 ms worst (scan) to 7.5 ms and 17 ms (places)."""

REACH_BY_RANK_HUN: Final = 4
"""From this many hun a suit's reach (`arrange.skeleton_reach`) is worked out rank by rank
(`rulekit.reach`) rather than read off its listed decompositions: 111222條 with seven hun
has thousands of those but few distinct states. Below 4 hun the lists are short and the scan
lists them anyway: by rank there cost the dealt mix 5% more instructions (callgrind)."""

EXACT_BOUND_PATTERNS: Final = 12
"""Free valued patterns up to which the upper bound tries every subset (2**12 = 4,096 fan
lookups at most); beyond it a linear bound that prunes less but costs one pass, so a ruleset
with many valued patterns cannot cost 2**n per hand."""

DENSE_FANS: Final = 16
"""Up to this many mask bits, fans live in a list indexed by the valued bits (2**16 slots at
most, filled lazily); with more, in a dict. The list measured as fast as the dict or
faster."""


def by_place_pays(hun: int, candidates: int) -> bool:
    """Should a hand with this many hun and candidate winning tiles be searched by place?"""
    return hun >= PLACE_HUN or (candidates > 1 and hun >= PLACE_HUN_HEAVENLY)
