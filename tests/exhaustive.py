"""An exhaustive scorer: every arrangement, every reading, every pattern, no bound, no memo.

It shares the engine's arrangements (checked against a brute force in test_arrange.py),
facts and compiled patterns, and none of the scorer's planning: no levels, no pruning, no
bounds, no results shared between skeletons or hands. So agreeing with it checks the parts
of the scorer that exist only for speed, under any ruleset and any number of hun (where
tests/reference.py, which tries 34 kinds per hun, only reaches two or three).
"""
from __future__ import annotations

from rulekit import arrange
from rulekit.arrange import Layout
from rulekit.codes import NUM_KINDS, group_key
from rulekit.facts import (ContextFact, Facts, HandFact, HunFact, WinFact, declared_group,
                           group_fact, readings)
from rulekit.hand import Hand
from rulekit.ruleset.model import Ruleset
from rulekit.scoring.search import WildDomain


def exhaustive_hand_fan(hand: Hand, rs: Ruleset) -> float | None:
    """The best hand fan over every reading, or None when no arrangement exists.

    Instant wins are the caller's business (they replace the search)."""
    hun = frozenset(hand.hun)
    tiles = hand.concealed + (hand.win_tile,)
    declared_raw = tuple(declared_group(m.kind, m.tile, m.concealed, m.golden)
                         for m in hand.melds)
    declared = tuple(group_fact(d, False, False) for d in declared_raw)
    meld_tiles: tuple[int, ...] = ()
    for m in hand.melds:
        meld_tiles += (m.tile,) * (4 if m.kind == "kong" else 3)
    kongs = [m.kong_type for m in hand.melds if m.kong_type is not None]
    context = ContextFact(hand.win_by, hand.heavenly, hand.discarded_hun,
                          kongs[-1] if kongs else "none", len(hand.flowers), hand.earthly,
                          hand.ready_declared)
    held_hun = tuple(sorted(t for t in tiles if t in hun))
    hand_fact = HandFact(len(held_hun), tiles, meld_tiles, declared, hand.flowers)
    counts = [0] * NUM_KINDS
    for t in tiles:
        if t not in hun:
            counts[t] += 1
    layout = Layout(tuple(counts), len(held_hun), 4 - len(hand.melds))
    wins = (tuple(sorted(set(tiles))) if hand.heavenly and rs.heavenly_free_winning_tile
            else (hand.win_tile,))
    best: float | None = None
    raws = list(arrange.arrangements(layout, WildDomain(rs, tiles, hand.hun)))
    for win_tile in wins:
        for raw in raws:
            plain = tuple(group_fact(g, False, False) for g in raw)
            index = frozenset(group_key(g.shape, g.first) for g in raw) | frozenset(
                group_key(d[0], d[1]) for d in declared_raw)
            hun_fact = HunFact(hand.hun, held_hun, raw)
            for groups, win in readings(raw, plain, declared, win_tile, win_tile in hun):
                f = Facts(groups, win, hand_fact, hun_fact, context, index)
                true: set[str] = set()
                for p in rs.patterns:           # dependency order
                    if p.fn(f):
                        f.held |= p.bit         # later patterns read it
                        true.add(p.id)
                fan = rs.algebra.fan(frozenset(true)).fan
                if best is None or fan > best:
                    best = fan
    return best


def instant(hand: Hand, rs: Ruleset) -> bool:
    """Does an instant-win condition hold (the hand fan is then its value, no search)?"""
    hun = frozenset(hand.hun)
    tiles = hand.concealed + (hand.win_tile,)
    held_hun = tuple(sorted(t for t in tiles if t in hun))
    declared = tuple(group_fact(declared_group(m.kind, m.tile, m.concealed, m.golden),
                                False, False) for m in hand.melds)
    meld_tiles: tuple[int, ...] = ()
    for m in hand.melds:
        meld_tiles += (m.tile,) * (4 if m.kind == "kong" else 3)
    kongs = [m.kong_type for m in hand.melds if m.kong_type is not None]
    context = ContextFact(hand.win_by, hand.heavenly, hand.discarded_hun,
                          kongs[-1] if kongs else "none", len(hand.flowers), hand.earthly,
                          hand.ready_declared)
    base = Facts((), WinFact(hand.win_tile, hand.win_tile in hun, hand.win_tile, None),
                 HandFact(len(held_hun), tiles, meld_tiles, declared, hand.flowers),
                 HunFact(hand.hun, held_hun), context)
    for p in rs.patterns:
        if p.dep == 0 and p.fn(base):
            base.held |= p.bit
    return any(cond.fn(base) for cond, _ in rs.instant_wins)
