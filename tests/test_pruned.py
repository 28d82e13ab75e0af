"""The scan's pruning for many-hun hands (route.PRUNED_SCAN_HUN, PLACE_BOUND_HUN) against plain
listings: `pruned.live_codes` is `arrange.arrangement_codes` in its order less exactly the
arrangements whose bound cannot beat the best, and `scan.place_bounds_of` bounds every
reading of the winning tile's group, read exhaustively."""
from __future__ import annotations

import math
import random

import pytest

import rulekit
from rulekit import arrange
from rulekit.arrange import Layout
from rulekit.facts import (SHAPE_OF, ContextFact, Facts, HandFact, HunFact, WinFact, group_fact,
                           readings)
from rulekit.corpus import random_hand
from rulekit.hand import Hand
from rulekit.ruleset.model import Ruleset
from rulekit.scoring.holding import groups_holding
from rulekit.scoring.pruned import Bounds, live_codes
from rulekit.scoring.scan import _CODE_OF, Options, candidate, place_bounds_of
from rulekit.scoring.score import scorer_for, tiles_part
from rulekit.scoring.search import State, WildDomain
from rulekit.codes import HAND, group_key


def state_of(hand: Hand, rs: Ruleset) -> State:
    """The search state `score_fresh` makes for a closed hand (hand-level patterns judged)."""
    sc = scorer_for(rs)
    tiles = hand.concealed + (hand.win_tile,)
    counts, suits, held = tiles_part(tiles, hand.hun)
    context = ContextFact(hand.win_by, hand.heavenly, hand.discarded_hun, "none",
                          len(hand.flowers), hand.earthly, hand.ready_declared)
    hand_fact = HandFact(len(held), tiles, (), (), hand.flowers)
    base = Facts((), WinFact(hand.win_tile, hand.win_tile in hand.hun, hand.win_tile, None),
                 hand_fact, HunFact(hand.hun, held), context, frozenset())
    for p in sc.plan.by_level[HAND]:
        if p.fn(base):
            base.held |= p.bit
    layout = Layout(tuple(counts), len(held), 4, 1, suits)
    return State(sc, base.held, hand_fact, context, hand.hun, held, (), frozenset(), layout,
                 WildDomain(rs, tiles, hand.hun), base.hun)


def hands(seed: str, count: int, hun: tuple[int, ...], rs: Ruleset, real_win: bool
          ) -> list[Hand]:
    rng = random.Random(seed)
    out: list[Hand] = []
    while len(out) < count:
        doc = random_hand(rng, hun_kinds_count=rs.hun_kinds, hun_target=rng.choice(hun),
                          heavenly_rate=0.0)
        if doc["melds"]:
            continue
        try:
            hand = rulekit.parse_hand(doc, hun_kind_count=rs.hun_kinds,
                                      win_by_allowed=rs.win_by)
        except rulekit.HandError:
            continue
        if real_win and hand.win_tile in hand.hun:
            continue
        out.append(hand)
    return out


def bits_of(codes: tuple[int, ...], key_bits: tuple[int, ...]) -> int:
    out = 0
    for c in codes:
        out |= key_bits[arrange.ALL_KEYS[c]]
    return out


@pytest.mark.parametrize("name", ["tianjin", "tianjin-street", "tianjin-laizi"])
def test_live_codes_are_the_listing_less_what_cannot_beat_the_best(name: str) -> None:
    rs = rulekit.load_ruleset(name)
    checked = pruned = 0
    for hand in hands(f"live {name}", 24, (3, 4, 5, 6), rs, False):
        s = state_of(hand, rs)
        plan = s.sc.plan
        assert plan.queries is not None
        every = list(arrange.arrangement_codes(s.layout, s.wild))
        win_is_hun = hand.win_tile in hand.hun
        cand_win = WinFact(hand.win_tile, win_is_hun, hand.win_tile, None)
        possible, free12, _, _ = s.sc.limits(s.fixed, hand.win_tile, win_is_hun, s.layout.hun)
        b = Bounds(s, cand_win, possible, free12, {}, None, s.declared_bits)
        tops = sorted({b.top(bits_of(c, plan.key_bits)) for c in every})
        # no best yet: every arrangement, in order; then with bests that cut some
        for best in [-1.0] + tops[:-1]:
            s.best_fan = best
            want = [c for c in every if b.top(bits_of(c, plan.key_bits)) > best]
            got = list(live_codes(s.layout, s.wild, plan.key_bits, plan.query_keys, b))
            assert got == want, (hand, best)
            pruned += len(every) - len(got)
        checked += 1
    assert checked == 24 and pruned > 0


def reading_fans(hand: Hand, rs: Ruleset, s: State
                 ) -> dict[tuple[str, int, tuple[int, ...]], float]:
    """The best fan of a reading with the winning tile in each group (by shape, first,
    fills), over every arrangement and reading, every pattern judged."""
    tiles = hand.concealed + (hand.win_tile,)
    out: dict[tuple[str, int, tuple[int, ...]], float] = {}
    for raw in arrange.arrangements(s.layout, s.wild):
        plain = tuple(group_fact(g, False, False) for g in raw)
        index = frozenset(group_key(g.shape, g.first) for g in raw)
        hun_fact = HunFact(hand.hun, s.held_hun, raw)
        for groups, win in readings(raw, plain, (), hand.win_tile, False):
            f = Facts(groups, win, HandFact(len(s.held_hun), tiles, (), (), ()), hun_fact,
                      s.context, index)
            true: set[str] = set()
            for p in rs.patterns:
                if p.fn(f):
                    f.held |= p.bit
                    true.add(p.id)
            assert win.group is not None
            key = (win.group.shape, win.group.first, win.group.fills)
            fan = float(rs.algebra.fan(frozenset(true)).fan)
            out[key] = max(out.get(key, -math.inf), fan)
    return out


def test_place_bounds_bound_every_reading_of_their_group() -> None:
    rs = rulekit.load_ruleset("tianjin")
    tight = 0
    for hand in hands("places", 16, (4, 5), rs, True):
        s = state_of(hand, rs)
        c = candidate(s, hand.win_tile, Options())
        _, win_tile, cand_win, possible, free12, _, _, shared, tag, _ = c
        top, bounds = place_bounds_of(s, win_tile, cand_win, possible, free12, shared, tag)
        fans = reading_fans(hand, rs, s)
        groups = groups_holding(s.layout.counts, s.layout.hun, win_tile)
        assert set(bounds) == {_CODE_OF[g] for g in groups}
        for g in groups:
            fan = fans.get((SHAPE_OF[g.shape], g.first, g.fills))
            bound = bounds[_CODE_OF[g]]
            if fan is None:
                continue              # no reading has the winning tile there
            assert bound >= fan, (hand, g)
            tight += bound == fan
        assert top == max(bounds.values()) >= max(fans.values())
    assert tight > 0
