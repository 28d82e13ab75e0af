"""Which score requests are answered on the event loop itself, without the thread hop.

Why: the hop to the scoring threads (`run_in_executor`: a queue, a futex wake, the GIL
handed to the thread and back, the loop sleeping in epoll and woken by its self-pipe) costs
the server more CPU than scoring a dealt hand does. Measured compiled, per thread
(bench/serve_where.py, docs/serve.md): a Starlette hello-world with the hop costs 1.7-2x the
same endpoint without it; a hand scored in a server thread costs 1.2-1.9x its CPU in a tight
loop, and the event loop's own work after the hop grows by 40-63 us when the thread scored (a
thread that spins 44 us changes it by -3 to +19 us, one that sweeps 3 MB adds 87-138: the
scoring evicts the loop's caches). GIL hand-offs, collections (1-3 us a request) and memo
lookups are not where it goes.

When: only where the worst case is known small. Scoring on the loop holds the interpreter
as a scoring thread does (there is one GIL: a thread stalls the loop for up to
`sys.getswitchinterval()`, 5 ms, at a stretch), so a hand whose worst case is well under
that costs every other client no more on the loop than in a thread. A request is scored there
only when all of these hold, else it goes to the threads as before:

- it names a built-in or served ruleset already loaded and fresh (`Registry.ready`: no file
  is read on the loop), never an overlay (those run in worker processes, `pool.py`);
- that ruleset's patterns cost at most `RULESET_STEPS` static steps together (the library's
  own count, `CompiledPattern.steps`; the built-ins 336 to 595) and at most
  `VALUED_PATTERNS` of them add to the fan (a first score may work out the best fan of
  every subset of those: 2**n lookups), so a served ruleset with costly patterns is scored
  in the threads, under the time limit; so is tianjin-flowers (14 valued patterns: one cold
  hand took 4.9 ms), while tianjin's worst is under 1 ms;
- its body is at most `BODY_BYTES` (a hand document is 100-300 bytes), so reading the hand
  is bounded by its size;
- the hand holds at most `HUN` hun and is not a 天和 (a 天和 may have any of its tiles as the
  winning one: several searches). The worst such hand, found by an adversarial search
  (bench/serve_loop_worst.py, every memo forgotten before each score), is in docs/serve.md.

These thresholds are the server's own policy, not the scorer's: they pick *where* a score runs
(the event loop or a thread), from what a stall costs the server's other clients, and
they are measured by the server's benches. Which search path a hand takes inside the scorer
is `scoring/route.py`'s business alone; nothing here changes it, and a route change shows
here only through bench/serve_loop_worst.py's worst hand.
"""
from __future__ import annotations

import weakref
from typing import Final

from rulekit.hand import Hand
from rulekit.ruleset.model import Ruleset
from rulekit.scoring.score import scorer_for

HUN: Final = 3
"""Most hun a hand scored on the loop may hold (from 3 hun the scan's work per hand grows: the
worst 4-hun hand of a random sample took 1.7 ms cold, a 5-hun one 3.7 ms)."""

BODY_BYTES: Final = 2048
"""Largest request body scored on the loop."""

RULESET_STEPS: Final = 640
"""Most static steps all of a ruleset's patterns and conditions may take together for its
hands to be scored on the loop (the built-ins: 336 to 595)."""

VALUED_PATTERNS: Final = 11
"""Most patterns that add to the fan for a ruleset's hands to be scored on the loop (tianjin 9,
tianjin-dianpao 11, tianjin-flowers 14)."""

_KEPT: Final = 16
_RULESETS: dict[int, tuple[weakref.ref[Ruleset], bool]] = {}


def ruleset_steps(rs: Ruleset) -> int:
    """One evaluation of each pattern and condition of `rs`, in the library's static steps."""
    conds = [*rs.patterns, *rs.forbids, *(c for c, _ in rs.instant_wins),
             *(r.condition for r in rs.total_rules)]
    return sum(c.steps for c in conds)


def ruleset_ok(rs: Ruleset) -> bool:
    """May hands of `rs` be scored on the event loop? (Kept per ruleset object, for the last few.)"""
    hit = _RULESETS.get(id(rs))
    if hit is not None and hit[0]() is rs:
        return hit[1]
    ok = (ruleset_steps(rs) <= RULESET_STEPS
          and scorer_for(rs).valued.bit_count() <= VALUED_PATTERNS)
    if len(_RULESETS) >= _KEPT:
        _RULESETS.clear()
    _RULESETS[id(rs)] = (weakref.ref(rs), ok)
    return ok


def hand_ok(hand: Hand) -> bool:
    """Is this (validated) hand cheap enough to score on the event loop: few hun, one winning tile?"""
    if hand.heavenly:
        return False
    hun = hand.hun
    held = sum(1 for t in hand.concealed if t in hun) + (hand.win_tile in hun)
    return held <= HUN
