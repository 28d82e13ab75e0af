"""Every threshold that picks a search path, in one place, each with the measurement that set it.

The search is exact whichever path a hand takes (bench/agree.py checks every path against an
exhaustive search); these numbers only decide which path costs least. Change one, and
re-measure with the bench named beside it. This module imports nothing of rulekit, so a
module the scorer stands on (`algebra`) can read it too.
"""
from __future__ import annotations

from typing import Final

TIGHT_BOUND_HUN: Final = 3
"""From this many hun the scan first works out which skeleton-level patterns any arrangement
can make true (`scan.skeleton_options`) and which groups can hold the winning tile
(`scan.win_group_checked`): tight bounds that pay once arrangements are many. Below 3 hun
both cost more than they save (bench/score.py per-hun table, measured when introduced). From
4 measured 68-71 us mean on 600 random 3-hun hands against 79 us from 3 (compiled, warm), but
the groups read first change which of several equal best readings a hand shows, and with it
the pinned game logs (tests/test_table.py): left at 3. A yes/no question has its own
threshold (`TIGHT_BOUND_HUN_GOAL`)."""

TIGHT_BOUND_HUN_GOAL: Final = 5
"""The same for a yes/no question (`score.wins_with`, `tight_bounds`): its "no" answers
(greedy's waits under a 2-fan minimum, most of them) end at the bounds or after reading every
arrangement, and below 5 hun the cheaper checks of `goal_checks` (the win-gated groups, the
sets of queried keys) end them for less than the tight bounds cost. bench/greedy_waits.py,
compiled, warm passes, builds alternated, us a question, before `goal_checks` existed: with
the tight bounds from 3 hun, 3-hun questions 17.1-19.2 and 4-hun 20.5-23.1; with none, 3-hun
12.2-13.6 but 4-hun 28.9-35.1, so from 4. From 1 hun (the last session): 15 against 9. With
`goal_checks`, from 5 instead of 4 (issue 22 item 3, s-fast; callgrind, 200 greedy hands of
seed 1, compiled): the loop 676.6 M -> 655.4 M instructions, the 4-hun questions' tight
bounds (`skeleton_options` 28.9 M, `win_group_checked` 12.5 M over ~250 questions) replaced by
`keys_bound` and `gated_allowed` (+6.3 M); the seven built-ins' game logs unchanged."""

PLACE_BOUND_HUN: Final = 4
"""From this many hun a long scan of a real winning tile bounds each group that can hold it
(`scan.PlaceCut`: loose from the whole hand's reach, exact from its rest's, walked only while
it leads): the best of those bounds ends the scan, a group's readings stop once the best
reaches its own. The 4-hun hands the scan took in full (`234566777m1144z`, indicator 4z, win
5m: ~2,400 arrangements read for a best of 7 under a bound of 14) went from 2.2-3.4 ms cold
to 0.8-1.3 ms with `PRUNED_SCAN_HUN` (compiled, docs/perf-history.md "No slow hands, fourth
pass"). Below 4 hun not tried: 3-hun hands are 40 times as many in the dealt mix, and
the bounds cost walks."""

PLACE_BOUND_AFTER: Final = 64
"""How many arrangements the scan meets before it works out those bounds anyway
(`scan.PlaceCut`; they are made sooner when a second group is read first or the whole scan
is next): a guard for a long first group, not tuned. A hand the scan ends sooner never pays
for them: with bounds made only at the whole scan (no second-group trigger) the 4-hun mean
fell ~6% and the worst hands rose ~50% (pure Python), so both triggers stay."""

PRUNED_SCAN_HUN: Final = 4
"""From this many hun the scan takes a hand's arrangements through `pruned.live_codes` (the
suits' parts walked with their queried keys' bits, a part skipped whole when nothing it
leads to can beat the best) rather than one by one. With `PLACE_BOUND_HUN` it halves the
slowest 4-hun hands a search finds (bench/worst.py --hun 4 --heavenly no: 52.8 x to
26.1 x); both cost the mean of 400 random warm 4-hun hands 149-151 -> 179-181 us
(compiled, ~3% of the dealt mix's time, whose ratio did not move: perf-history.md)."""

PLACE_HUN: Final = 6
"""From this many hun any hand is searched place by place (`places.by_place`). Measured
(compiled, bench/score.py): 7-hun hands 4.2 ms by the scan, 1.4 ms by place; at 3-4 hun the
scan is as fast or faster (its fixed cost per hand is lower): starting at 3 or 4 cost the
dealt mix 0.59-0.68 x riichi, against 0.55 with 6."""

PLACE_HUN_PINNED: Final = 5
"""From this many hun a hand is searched place by place unless its winning tile is a hun and
its real tiles are spread (over three or more suit classes) or it has declared melds: the
scan takes those. A real winning tile pins the places to the few groups that can hold it;
a hun winning tile with few, spread real tiles or fewer groups to form leaves the scan few
arrangements, read in about half the place search's time. bench/worst.py found 5-hun hands
the scan reads in full, e.g. `46m345567p23333s`, indicator 2s, win 5m (21 ms scanned, 2.9 ms
by place, pure Python): these stay by place, as do those like `234567m678p6677s`, indicator
6s, win 6s (hun winning tile, two suits, no melds: 3.5 ms cold scanned, 1.0 ms by place,
compiled). Measured on 2 x 400 random 5-hun hands (compiled, warm, each path timed on the
same hand): all by place 206-215 us mean, worst 0.94-1.21 ms; this rule 139-146 us, worst
0.94-1.30 ms; all by scan 178-181 us, worst 2.9-6.0 ms. The slowest cold scan a 40-second
local search found among the hands the rule scans: 1.67 ms (`778889m678p3456s`, indicator
8m, win 9m), under the worst cold hand by place (~3 ms, 7-hun 天和). At 4 hun the scan is as
cheap for every kind of hand (84 us mean, all by place 167 us)."""

PLACE_HUN_HEAVENLY: Final = 4
"""From this many hun a hand with several candidate winning tiles (a 天和) is searched place
by place: a 3-hun 天和 scans in about half the time it takes by place; at 4 hun they are
even; 7-hun 天和 went from 25 ms mean, 180 ms worst (scan) to 7.5 ms and 17 ms (places)."""

REACH_BY_RANK_HUN: Final = 4
"""From this many hun a suit's reach (`reach.skeleton_reach`) is worked out rank by rank
(`scoring.suit_reach`) rather than read off its listed decompositions: 111222條 with seven hun
has thousands of those but few distinct states. Below 4 hun the lists are short and the scan
lists them anyway: by rank there cost the dealt mix 5% more instructions (callgrind). The
rests of a hand of 4 hun or more (the place search's, the scan's place bounds) go by rank
whatever their budget: walked under `reach.rest_most`, a 4-hun 天和's rests fall to 3, where
listing them cost as much as the walk under 4 had (`466677778m1444z`, callgrind)."""

EXACT_BOUND_PATTERNS: Final = 12
"""Free valued patterns up to which the upper bound tries every subset (2**12 = 4,096 fan
lookups at most); beyond it a linear bound that prunes less but costs one pass, so a ruleset
with many valued patterns cannot cost 2**n per hand."""

DENSE_FANS: Final = 16
"""Up to this many mask bits, fans live in a list indexed by the valued bits (2**16 slots at
most, filled lazily); with more, in a dict. The list measured as fast as the dict or
faster."""


def by_place_pays(hun: int, candidates: int, win_is_hun: bool, suits: int,
                  melds: int) -> bool:
    """Should a hand with this many hun and candidate winning tiles, whose winning tile is a
    hun or not, whose real concealed tiles span `suits` suit classes and which has `melds`
    declared melds, be searched by place?"""
    if hun >= PLACE_HUN or (candidates > 1 and hun >= PLACE_HUN_HEAVENLY):
        return True
    return hun >= PLACE_HUN_PINNED and not (win_is_hun and (suits >= 3 or melds > 0))


def place_bounds(hun: int, goal: bool) -> bool:
    """Should a long scan bound each place of a real winning tile (`scan.PlaceCut`), for a
    hand with this many hun searched for its best reading or, if `goal`, for a yes/no? Not
    for a yes/no: greedy's 4-hun questions (bench/greedy_waits.py --hands 40 --repeat 2,
    compiled) took 51.4 / 30.2 us cold / warm with both cuts against 40.0 / 22.9 without."""
    return hun >= PLACE_BOUND_HUN and not goal


def pruned_scan(hun: int, goal: bool) -> bool:
    """Should the scan skip arrangements by their bits as it lists them
    (`pruned.live_codes`) for a hand with this many hun, searched for its best reading or,
    if `goal`, for a yes/no (not: as `place_bounds`)?"""
    return hun >= PRUNED_SCAN_HUN and not goal


KEYS_BOUND_MOST: Final = 32
"""Sets of queried keys a yes/no question's hand may hold together, at most, for its bound
over them (`scan.keys_bound`, each set a memo lookup); with more it is left to the scan."""


def goal_checks(hun: int, goal: bool) -> bool:
    """Should a yes/no question (`goal`) with this many hun and a real winning tile bound its
    readings before its scan by two cheap checks: the win-gated patterns no group of its
    winning tile allows dropped (`scan.gated_allowed`: the tight path's check, unranked),
    and the sets of queried keys its arrangements could hold (`scan.keys_bound`, instead of
    the tight path's reach)? Below `TIGHT_BOUND_HUN_GOAL` (from there the tight bounds do it).
    Greedy's waits under a 2-fan minimum are "no" 97 times in 100 (200 hands of seed 1:
    2,864 of 2,933); the checks end most before any arrangement is listed (the 1-3 hun
    questions scanned: 3,335 -> 406) and skip the readings of the rest. The reach itself
    (`skeleton_options`) ended 96% but cost ~60 k instructions a question, more than the scans
    it saved (callgrind, 200 greedy hands: the loop 817 M -> 955 M); docs/perf-history.md,
    "The wait check's 'no', bounded before the scan" (s-ask)."""
    return goal and hun < TIGHT_BOUND_HUN_GOAL


def tight_bounds(hun: int, goal: bool) -> bool:
    """Should the scan tighten its bounds first (`scan.skeleton_options`,
    `scan.win_group_checked`) for a hand with this many hun, searched for its best reading
    or, if `goal`, for a yes/no?"""
    return hun >= (TIGHT_BOUND_HUN_GOAL if goal else TIGHT_BOUND_HUN)


FIRST_PARTS: Final = 32
"""A place read's rest whose one suit of many parts is not in the memo is searched for its
first 32 parts, then 128, ... (`arrange.anchored_first`) as `rests.live_arrangements` reads
on: its first live arrangement was in the first 2-89 rows of 300-655 on the 6/7-hun 天和
hands bench/worst.py led with (`555667m1111444z`, `344557778888p7s`: the rest's search
11-15% of the hand, callgrind, docs/perf-history.md's eighth pass)."""
