"""Invariants over random winning hands (hypothesis drives the corpus generator's seed)."""
from __future__ import annotations

import random
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import rulekit
from rulekit.corpus import random_hand
from rulekit.hand import parse_hand
from rulekit.scoring import Scorer, score_with
from rulekit.tiles import parse_tiles, tile_name
from conftest import examples

RS = rulekit.load_ruleset("tianjin")
NO_MEMO = Scorer(RS, result_memo=0)     # scores every hand: the result memo would serve the
#                                         shuffled hand the first one's result


def hand_for(seed: int, max_hun: int = 7) -> dict[str, Any]:
    return random_hand(random.Random(seed), max_hun=max_hun)


def shuffled(doc: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    tiles = [tile_name(t) for t in parse_tiles(doc["hand"])]
    rng.shuffle(tiles)
    out = dict(doc)
    out["hand"] = " ".join(tiles)
    out["melds"] = list(reversed(doc["melds"])) if len(doc["melds"]) > 1 and not any(
        m["kind"] == "kong" for m in doc["melds"]) else doc["melds"]
    return out


@settings(max_examples=examples(200), deadline=None)
@given(st.integers(0, 10**9), st.integers(0, 10**9))
def test_tile_order_never_changes_a_score(seed: int, order: int) -> None:
    doc = hand_for(seed)
    a = rulekit.score(doc, RS).to_dict()
    b = score_with(NO_MEMO, parse_hand(shuffled(doc, random.Random(order)),
                                       hun_kind_count=RS.hun_kinds)).to_dict()
    for key in ("win", "hand_fan", "kong_fan", "total_fan", "reason"):
        assert a.get(key) == b.get(key)
    assert sorted(a["patterns"]) == sorted(b["patterns"])


@settings(max_examples=examples(200), deadline=None)
@given(st.integers(0, 10**9))
def test_reported_arrangement_uses_exactly_the_hands_tiles(seed: int) -> None:
    doc = hand_for(seed)
    r = rulekit.score(doc, RS)
    assert r.reason != "not_a_winning_shape"
    hun = set(rulekit.parse_hand(doc).hun)
    stood: Counter[int] = Counter()
    real: Counter[int] = Counter()
    for g in r.arrangement:
        kinds = Counter(parse_tiles(g.tiles))
        fills = Counter(parse_tiles(g.hun_as))
        stood.update(fills)
        real.update(kinds - fills)
    # a heavenly hand may be scored with another of its 14 tiles as the winning tile
    concealed = Counter(parse_tiles(doc["hand"])) + Counter(parse_tiles(doc["win_tile"]))
    melds: Counter[int] = Counter()
    for m in doc["melds"]:
        melds.update(parse_tiles(m["tiles"]))
    held_hun = sum(n for t, n in concealed.items() if t in hun)
    assert sum(stood.values()) == held_hun
    assert real == Counter({t: n for t, n in concealed.items() if t not in hun}) + melds
    assert sum(1 for g in r.arrangement if g.has_win) == 1


@settings(max_examples=examples(150), deadline=None)
@given(st.integers(0, 10**9), st.integers(0, 13))
def test_replacing_a_tile_by_a_hun_keeps_a_winning_shape(seed: int, which: int) -> None:
    doc = hand_for(seed, max_hun=3)
    hand = rulekit.parse_hand(doc)
    tiles = list(hand.concealed)
    i = which % len(tiles)
    for h in hand.hun:
        used = sum(1 for t in tiles + [hand.win_tile] if t == h)
        used += sum(4 if m.kind == "kong" else 3 for m in hand.melds if m.tile == h)
        limit = 3 if h == hand.indicator else 4
        if used < limit and tiles[i] != h:
            tiles[i] = h
            new = dict(doc, hand=" ".join(tile_name(t) for t in tiles))
            assert rulekit.score(new, RS).reason != "not_a_winning_shape"
            return


@settings(max_examples=examples(100), deadline=None)
@given(st.integers(0, 10**9))
def test_total_is_hand_plus_kong_points(seed: int) -> None:
    doc = hand_for(seed)
    r = rulekit.score(doc, RS)
    kongs = Counter(r.kongs)
    assert r.kong_fan == kongs["exposed"] * 1 + kongs["concealed"] * 2 + kongs["golden"] * 4
    assert r.total_fan == r.hand_fan + r.kong_fan
    assert r.win == (r.hand_fan >= 2)
