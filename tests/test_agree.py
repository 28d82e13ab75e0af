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
from rulekit.corpus import random_hand  # noqa: E402
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


PLACE_HANDS = int(os.environ.get("RULEKIT_AGREE_PLACE_HANDS", "3"))


@pytest.mark.parametrize("name", NAMES)
def test_the_place_search_agrees_with_exhaustive_search(name: str) -> None:
    """The hands `scoring/places.py` takes (a 天和 with 4+ hun, any hand with 6+): random
    hands of each kind, from 4 to 7 hun, under every built-in ruleset."""
    from rulekit.scoring.route import by_place_pays
    from rulekit.scoring.score import suit_classes
    rs = rulekit.load_ruleset(name)
    rng = random.Random(f"places {name}")
    bad, taken = [], 0
    for i in range(PLACE_HANDS * 2):
        heavenly = i % 2 == 0
        hun = 4 + (i // 2) % 4 if heavenly else 6 + (i // 2) % 2
        while True:
            doc = random_hand(rng, hun_kinds_count=rs.hun_kinds, hun_target=hun,
                              heavenly_rate=1.0 if heavenly else 0.0)
            try:
                hand = rulekit.parse_hand(doc, hun_kind_count=rs.hun_kinds,
                                          win_by_allowed=rs.win_by)
            except rulekit.HandError:
                continue
            if bool(hand.heavenly) == heavenly:
                break
        held = sum(1 for t in hand.concealed + (hand.win_tile,) if t in hand.hun)
        real = [0] * 34
        for t in hand.concealed + (hand.win_tile,):
            real[t] += t not in hand.hun
        taken += by_place_pays(held, 2 if hand.heavenly and rs.heavenly_free_winning_tile
                               else 1, hand.win_tile in hand.hun, suit_classes(tuple(real)),
                               len(hand.melds))
        diff = check(rs, hand)
        if diff is not None:
            bad.append((doc, diff))
    assert bad == []
    assert taken >= PLACE_HANDS       # the hands did go the place search's way


def test_every_place_of_a_hun_winning_tile_is_a_place_the_scan_reads() -> None:
    """`places.win_groups` lists, for a hun winning tile, every (group, kind it stands
    for) that the scan's `facts.readings` meets over all arrangements: the place search
    misses no reading."""
    from rulekit import arrange
    from rulekit.facts import ContextFact, GroupFact, HandFact, group_fact, readings
    from rulekit.scoring.places import win_groups
    from rulekit.scoring.score import scorer_for
    from rulekit.scoring.search import State, WildDomain
    def key(f: GroupFact) -> tuple[str, int, tuple[int, ...]]:
        return f.shape, f.first, f.fills

    rs = rulekit.load_ruleset("tianjin")
    rng = random.Random("hun places")
    checked = 0
    while checked < 12:
        doc = random_hand(rng, hun_target=3 + checked % 4, heavenly_rate=0.0)
        hand = rulekit.parse_hand(doc)
        if hand.win_tile not in hand.hun or hand.melds:
            continue
        tiles = hand.concealed + (hand.win_tile,)
        counts = [0] * 34
        for t in tiles:
            if t not in hand.hun:
                counts[t] += 1
        held = tuple(sorted(t for t in tiles if t in hand.hun))
        layout = arrange.Layout(tuple(counts), len(held), 4)
        wild = WildDomain(rs, tiles, hand.hun)
        hand_fact = HandFact(len(held), tiles, (), (), ())
        context = ContextFact(hand.win_by, False, False, "none", 0)
        s = State(scorer_for(rs), 0, hand_fact, context, hand.hun, held, (),
                  frozenset(), layout, wild)
        places = {(key(group_fact(g, True, True)), k)
                  for g, k, _, _ in win_groups(s, hand.win_tile, True)}
        seen = set()
        for raw in arrange.arrangements(layout, wild):
            plain = tuple(group_fact(g, False, False) for g in raw)
            for _, win in readings(raw, plain, (), hand.win_tile, True):
                assert win.group is not None
                seen.add((key(win.group), win.stands_for))
        assert seen and seen <= places, (doc, seen - places)
        checked += 1


# 5-hun hands on both sides of `route.PLACE_HUN_PINNED`: (hand, indicator, winning tile,
# melds, searched by place?)
FIVE_HUN = [
    ("46m345567p23333s", "2s", "5m", [], True),         # real winning tile
    ("234567m678p6677s", "6s", "6s", [], True),         # hun winning tile, two suits
    ("778889m678p3456s", "8m", "9m", [], False),        # hun winning tile, three suits
    ("3456m66p1122z", "1z", "2z", [{"kind": "pung", "tiles": "666z"}], False),   # a meld
]


@pytest.mark.parametrize("text, indicator, win, melds, by_place", FIVE_HUN)
def test_five_hun_hands_take_their_route_and_agree(text: str, indicator: str, win: str,
                                                   melds: list[dict[str, str]],
                                                   by_place: bool) -> None:
    """Each 5-hun hand goes the way `route.by_place_pays` says, and whichever path it takes
    finds the exhaustive search's value."""
    from rulekit.scoring.route import by_place_pays
    from rulekit.scoring.score import suit_classes
    rs = rulekit.load_ruleset("tianjin")
    hand = rulekit.parse_hand({"indicator": indicator, "hand": text, "win_tile": win,
                               "melds": melds, "win_by": "self_draw"},
                              hun_kind_count=rs.hun_kinds)
    real = [0] * 34
    for t in hand.concealed + (hand.win_tile,):
        real[t] += t not in hand.hun
    held = sum(1 for t in hand.concealed + (hand.win_tile,) if t in hand.hun)
    assert held == 5
    assert by_place_pays(held, 1, hand.win_tile in hand.hun, suit_classes(tuple(real)),
                         len(hand.melds)) == by_place
    assert check(rs, hand) is None
