"""Which patterns a place can still make true, read three-valued (the abstract reading).

A place's bound (places.py) counts every arrangement- and reading-level pattern its needs
allow as possible. Some are ruled out only by how the winning tile's group meets the rest of
the hand: a pattern may hold of a run holding the winning tile *unless* that run is the only
one of its kind while other runs exist, and whether another such run exists is a fact of the
rest. So the place search reads each such pattern on an *abstract reading*: the hand, the
winning tile and its group are known; the skeleton index is known for the queried keys
(`plan.query_keys`: the rest's reach says which it holds), the winning group's key and the
declared melds'; of the rest's groups only the queried keys they hold are known. A count
over the groups is then known as a range when its condition pins one group key (by shape
and kind, or shape, suit and rank). Anything else is unknown (`U`), and an unknown pattern
stays possible: only a false answer removes a pattern, and it is false for every reading of
the place with that rest, so the search stays exact (bench/agree.py). The reading itself is
each pattern's, compiled when its ruleset loads (`dsl.abstract`, `CompiledPattern.abstract`).
"""
from __future__ import annotations

from typing import Final

from rulekit.dsl.abstract import View
from rulekit.dsl.compile import CompiledPattern

__all__ = ["View", "reads_rest", "ruled_out", "spot_reads"]


# facts of the winning tile's group that its shape and hun decide (with the candidate's own)
_PLAIN_GROUP_READS: Final = frozenset([
    "win.group.shape", "win.group.hun", "win.group.other_hun", "win.group.declared",
    "win.group.concealed", "win.group.golden", "win.group.has_win"])


def spot_reads(patterns: tuple[CompiledPattern, ...], free: int) -> tuple[bool, bool]:
    """What the patterns of `free` can tell of a spot: (its whole group, or only its shape
    and hun; what the winning tile stands for). A pattern reads the whole group when it
    reads the reading's groups (the spot's is one), a fact of the group beyond its shape
    and hun, or makes a shape query (the index holds the spot's key)."""
    whole = stands = False
    for p in patterns:
        if not free & p.bit:
            continue
        for r in p.reads:
            if r == "win.stands_for":
                stands = True
            elif r in ("groups", "melds") or (r.startswith("win.group")
                                              and r not in _PLAIN_GROUP_READS):
                whole = True
        if not whole and p.shape_queries:
            whole = True
    return whole, stands


def reads_rest(p: CompiledPattern) -> bool:
    """Can the rest of the hand decide `p` beyond its needs (it reads the reading's groups
    or makes a shape query)? Only such patterns are worth an abstract reading: the others
    a place decides by their needs alone (`Scorer.group_allows`)."""
    if p.tree is None:
        return False
    return bool({"groups", "melds"} & p.reads) or p.shape_queries


def ruled_out(patterns: tuple[CompiledPattern, ...], free: int, view: View) -> int:
    """The bits of the patterns of `free` (in level order) that are false on `view`; a
    pattern found true or false is known to the patterns after it."""
    dead = 0
    facts = view.facts
    for p in patterns:
        b = p.bit
        fn = p.abstract
        if not free & b or fn is None:
            continue
        v = fn(view)
        if v is True:
            facts.held |= b
            view.known |= b
        elif v is False:
            view.known |= b
            dead |= b
    return dead
