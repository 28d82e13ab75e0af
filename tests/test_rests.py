"""`scoring.rests.live_arrangements`: the arrangements of a rest, less those whose queried
keys cannot beat the best, without forming the dead ones."""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

import rulekit
from rulekit.arrange import PAIR, RUN, SET, Layout, RawGroup, arrangements
from rulekit.codes import KEY_STRIDE
from rulekit.scoring.rests import Live, live_arrangements
from conftest import examples

def ALL_KINDS() -> tuple[int, ...]:
    """The full wild domain."""
    return tuple(range(34))
# 龍 in 萬 and 條, a 5萬 set, the 5萬 pair and an east pair, as a ruleset's queries might be
KEYS = (RUN * KEY_STRIDE + 0, RUN * KEY_STRIDE + 3, RUN * KEY_STRIDE + 6,
        RUN * KEY_STRIDE + 18, RUN * KEY_STRIDE + 24, SET * KEY_STRIDE + 4,
        PAIR * KEY_STRIDE + 4, PAIR * KEY_STRIDE + 27)
KEY_BIT = {k: 1 << i for i, k in enumerate(KEYS)}


def counts_of(tiles: list[int]) -> tuple[int, ...]:
    c = [0] * 34
    for t in tiles:
        c[t] += 1
    return tuple(c)


def bits_of(raw: tuple[RawGroup, ...] | tuple[tuple[int, int, tuple[int, ...]], ...]) -> int:
    """The queried-key bits of an arrangement, or of its `canon` form."""
    bits = 0
    for g in raw:
        bits |= KEY_BIT.get(g[0] * KEY_STRIDE + g[1], 0)
    return bits


def canon(raw: tuple[RawGroup, ...]) -> tuple[tuple[int, int, tuple[int, ...]], ...]:
    return tuple(sorted((g.shape, g.first, tuple(sorted(g.fills))) for g in raw))


hands = st.tuples(st.lists(st.integers(0, 33), min_size=14, max_size=14),
                  st.integers(0, 6)).filter(
    lambda th: max(Counter(th[0][: 14 - th[1]]).values()) <= 4)


@settings(max_examples=examples(60), deadline=None)
@given(hands, st.sets(st.integers(0, (1 << len(KEYS)) - 1), max_size=40), st.booleans())
def test_exactly_the_live_arrangements_each_once(hand: tuple[list[int], int],
                                                 dead: set[int], all_live: bool) -> None:
    tiles, hun = hand
    layout = Layout(counts_of(tiles[: 14 - hun]), hun, 4)
    every = Counter(canon(raw) for raw in arrangements(layout, ALL_KINDS))
    refused: list[int] = []

    def check(bits: int) -> bool:
        if all_live or bits not in dead:
            return True
        refused.append(bits)
        return False

    got: Counter[tuple[tuple[int, int, tuple[int, ...]], ...]] = Counter()
    for bits, raw in live_arrangements(layout, ALL_KINDS, KEY_BIT, Live(check)):
        assert bits == bits_of(raw)
        got[canon(raw)] += 1
    want = every if all_live else Counter({r: n for r, n in every.items()
                                           if bits_of(r) not in dead})
    assert got == want
    # a no is remembered: bits once refused are not asked again
    assert len(refused) == len(set(refused))


def test_seven_hun_rest_skips_the_dead_without_forming_them() -> None:
    # 45萬 123條 and 6 hun left for three melds and a pair, as a 7-hun 天和 leaves once the
    # winning tile is placed: 6,116 arrangements, nearly all of them all-hun melds holding
    # no queried key; 82 hold the 123條 and 789條 runs
    real = [3, 4, 18, 19, 20]
    layout = Layout(counts_of(real), 6, 3)
    every = [raw for raw in arrangements(layout, ALL_KINDS)]
    assert len(every) == 6116
    wanted = KEY_BIT[RUN * KEY_STRIDE + 18] | KEY_BIT[RUN * KEY_STRIDE + 24]
    asked: list[int] = []

    def check(bits: int) -> bool:
        asked.append(bits)
        return bits & wanted == wanted

    got = list(live_arrangements(layout, ALL_KINDS, KEY_BIT, Live(check)))
    assert sorted(canon(r) for _, r in got) == sorted(
        canon(r) for r in every if bits_of(r) & wanted == wanted)
    assert len(got) == 82
    # the predicate is asked per combination of bits, far fewer times than there are
    # arrangements
    assert len(asked) < len(every) // 20


WORST_TIAN_HE = [
    # 7-hun 天和 hands whose rests have thousands of arrangements (bench/score.py's (c))
    ({"indicator": "9s", "hand": "45m11123444999s", "melds": [], "win_tile": "1s",
      "win_by": "self_draw", "heavenly": True}, 56),
    ({"indicator": "1m", "hand": "1112222m346888p", "melds": [], "win_tile": "5p",
      "win_by": "self_draw", "heavenly": True}, 56),
    ({"indicator": "8p", "hand": "24m66678889999p", "melds": [], "win_tile": "3m",
      "win_by": "self_draw", "heavenly": True}, 32),
]


def test_worst_tian_he_hands_keep_their_fan() -> None:
    # 56 = (捉5 3 + 龍 4) × 本混 2 × 天和 4; 32 = 龍 4 × 本混 2 × 天和 4 (tianjin.yaml)
    rs = rulekit.load_ruleset("tianjin")
    for doc, fan in WORST_TIAN_HE:
        assert rulekit.score(doc, rs).total_fan == fan, doc["hand"]


def plain_live(layout: Layout, live: Live) -> list[tuple[int, tuple[RawGroup, ...]]]:
    """`live_arrangements` as it was before it skipped real groups alike to ones whose every
    combination was refused: each combination of bits asked in turn."""
    from itertools import combinations_with_replacement
    from rulekit.arrange import GROUP_OF, KEY_OF, anchored, wild_meld_options, wild_pair_options
    from rulekit.scoring.rests import _combinations, by_bits
    melds = by_bits(wild_meld_options(ALL_KINDS()), KEY_BIT)
    pairs = by_bits(wild_pair_options(ALL_KINDS()), KEY_BIT)
    out: list[tuple[int, tuple[RawGroup, ...]]] = []
    for codes, wm, wp in anchored(layout):
        base = 0
        for c in codes:
            base |= KEY_BIT.get(KEY_OF[c], 0)
        real = tuple(GROUP_OF[c] for c in codes)
        if wm == 0 and wp == 0:
            if live(base):
                out.append((base, real))
            continue
        for picked in combinations_with_replacement(range(len(melds)), wm):
            mbits = base
            for i in picked:
                mbits |= melds[i][0]
            for pbits, pair_groups in (pairs if wp else [(0, ())]):
                if live(mbits | pbits):
                    out += [(mbits | pbits, real + extra)
                            for extra in _combinations(melds, picked, pair_groups)]
    return out


@settings(max_examples=examples(60), deadline=None)
@given(hands, st.integers(0, (1 << len(KEYS)) - 1), st.integers(1, 40))
def test_the_same_arrangements_in_the_same_order_as_asking_each(
        hand: tuple[list[int], int], salt: int, every: int) -> None:
    """Live refuses more as the search goes (a best that grows): skipping real groups whose
    combinations were all refused before leaves the sequence met as it was."""
    tiles, hun = hand
    layout = Layout(counts_of(tiles[: 14 - hun]), hun, 4)

    def growing() -> Live:
        asked = [0]

        def check(bits: int) -> bool:
            asked[0] += 1
            return (bits ^ salt) % (2 + asked[0] // every) != 0
        return Live(check)

    got = [(b, canon(r)) for b, r in live_arrangements(layout, ALL_KINDS, KEY_BIT, growing())]
    assert got == [(b, canon(r)) for b, r in plain_live(layout, growing())]
