"""Pattern sets as int masks: the scorer's fan table and bounds agree with the fan algebra's
frozenset API, pattern bits are distinct, patterns read each other off `Facts.held`, and
the place search's int codes tell groups and rests apart exactly."""
from __future__ import annotations

import random
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rulekit
from rulekit import arrange
from rulekit.arrange import Layout, RawGroup
from rulekit.codes import NUM_KINDS, PAIR, RUN, SET
from rulekit.dsl import PatternSource, compile_patterns
from rulekit.facts import ContextFact, Facts, HandFact, HunFact, group_fact
from rulekit.scoring.holding import rest_layout
from rulekit.scoring.keys import group_code, rest_code
from rulekit.scoring.plan import WIN_GROUP_ATTRS, counted_patterns
from rulekit.scoring.scorer import Scorer
from conftest import examples

BUILTINS = ["tianjin", "tianjin-3p", "tianjin-dianpao", "tianjin-flowers", "tianjin-gold8",
            "tianjin-laizi", "tianjin-street"]


def valued_bits(sc: Scorer) -> list[int]:
    return [1 << i for i in range(sc.width) if sc.valued >> i & 1]


def mask_of(bits: list[int]) -> int:
    out = 0
    for b in bits:
        out |= b
    return out


@pytest.mark.parametrize("name", BUILTINS)
def test_pattern_bits_are_distinct_and_name_their_patterns(name: str) -> None:
    rs = rulekit.load_ruleset(name)
    plan = Scorer(rs).plan
    bits = [p.bit for p in rs.patterns]
    assert len(set(bits)) == len(bits) and all(b > 0 and b & (b - 1) == 0 for b in bits)
    for p in rs.patterns:
        assert plan.bit[p.id] == p.bit
        assert plan.ids_of(p.bit) == frozenset([p.id])
    every = mask_of(bits)
    assert plan.ids_of(every) == frozenset(p.id for p in rs.patterns)
    # the valued mask is exactly the patterns the algebra values
    assert plan.ids_of(plan.valued) == rs.algebra.ids & frozenset(p.id for p in rs.patterns)


@pytest.mark.parametrize("name", BUILTINS)
def test_fan_table_matches_the_algebra(name: str) -> None:
    """Every subset of the valued patterns (a random 3,000 when there are more than 12)
    gets from the table the very Breakdown the algebra computes for its ids, and bits of
    patterns the algebra does not value change nothing."""
    rs = rulekit.load_ruleset(name)
    sc = Scorer(rs)
    bits = valued_bits(sc)
    other = mask_of([p.bit for p in rs.patterns]) & ~sc.valued
    rng = random.Random(name)
    if len(bits) <= 12:
        masks = [mask_of(list(c)) for k in range(len(bits) + 1) for c in combinations(bits, k)]
    else:
        masks = [mask_of([b for b in bits if rng.random() < 0.4]) for _ in range(3000)]
    for m in masks:
        expected = rs.algebra.fan(sc.plan.ids_of(m))
        assert sc.fan(m) == expected
        assert sc.fan(m | other) == expected


def exclusive_pairs(rs: rulekit.Ruleset) -> frozenset[frozenset[str]]:
    """The exclusive pairs as the frozenset API takes them (every counted pair)."""
    pats = counted_patterns(rs)
    return frozenset(frozenset((a.id, b.id)) for i, a in enumerate(pats) for b in pats[i + 1:]
                     if a.excludes(b) or b.excludes(a))


@pytest.mark.parametrize("name", ["tianjin", "tianjin-flowers", "tianjin-street"])
@settings(max_examples=examples(150), deadline=None)
@given(data=st.data())
def test_bound_on_masks_equals_the_algebra_bound(name: str, data: st.DataObject) -> None:
    rs = rulekit.load_ruleset(name)
    sc = Scorer(rs)
    everyone = [p.bit for p in counted_patterns(rs)]
    held = mask_of(data.draw(st.lists(st.sampled_from(everyone), max_size=6)))
    free = mask_of(data.draw(st.lists(st.sampled_from(everyone), max_size=len(everyone))))
    expected = rs.algebra.upper_bound(sc.plan.ids_of(held), sorted(sc.plan.ids_of(free)),
                                      exclusive_pairs(rs))
    assert sc.bound(held, free) == expected
    assert sc.bound(held, free) == expected          # and from the memo


def test_a_pattern_reads_another_off_the_held_mask() -> None:
    compiled, errors = compile_patterns([
        PatternSource("a", "a", "hand.hun == 0"),
        PatternSource("b", "b", "not a"),
        PatternSource("c", "c", "a and b"),
    ])
    assert not errors
    by = {p.id: p for p in compiled}
    assert [by[i].bit for i in "abc"] == [1, 2, 4]     # source order
    f = Facts((), None, HandFact(0, (0,), (), (), ()), HunFact((31,), ()),
              ContextFact("self_draw", False, False, "none", 0))
    assert f.held == 0
    assert by["b"].fn(f) is True                       # a not (yet) held
    f.held = by["a"].bit
    assert by["b"].fn(f) is False
    f.held = by["a"].bit | by["b"].bit
    assert by["c"].fn(f) is True


def all_groups() -> list[RawGroup]:
    out = []
    for first in range(NUM_KINDS):
        for shape, size in ((PAIR, 2), (SET, 3), (RUN, 3)):
            if shape == RUN and (first >= 27 or first % 9 > 6):
                continue
            kinds = arrange.group_kinds(RawGroup(shape, first, ()))
            for n in range(size + 1):
                for fills in sorted(set(combinations(kinds, n))):
                    out.append(RawGroup(shape, first, tuple(fills)))
    return out


def test_group_code_tells_apart_exactly_what_needs_can_see() -> None:
    """Two groups share a `group_code` iff they agree on every fact a need may name of the
    winning tile's group (`WIN_GROUP_ATTRS`), the winning tile a hun or not: the key of
    `Scorer.group_allows` drops nothing its answer reads, and splits nothing it cannot."""
    groups = all_groups()
    groups += [g._replace(declared=True) for g in groups[:50]]
    groups += [g._replace(concealed=False, golden=True) for g in groups[:50]]
    for win_is_hun in (False, True):
        by_code: dict[int, tuple[object, ...]] = {}
        seen: dict[tuple[object, ...], int] = {}
        for g in groups:
            fact = group_fact(g, True, win_is_hun)
            facts = tuple(getattr(fact, attr) for attr in WIN_GROUP_ATTRS)
            assert by_code.setdefault(group_code(g), facts) == facts, g
            assert seen.setdefault(facts, group_code(g)) == group_code(g), g
        # 34 kinds' pairs (0-2 hun) and sets (0-3), 21 runs (0-3: runs with as many hun
        # alike): 322; the first 50 groups flagged twice, 38 codes each
        assert len(by_code) == 34 * 3 + 34 * 4 + 21 * 4 + 2 * 38


def test_rest_code_tells_rests_apart_exactly() -> None:
    """Two groups taken out of one hand get the same rest code iff they leave the same
    rest (`holding.rest_layout`), over every group of random hands."""
    rng = random.Random("rest codes")
    groups = all_groups()
    rests = 0
    for _ in range(40):
        counts = [0] * NUM_KINDS
        for k in rng.sample(range(NUM_KINDS), 8):
            counts[k] = rng.randint(1, 3)
        layout = Layout(tuple(counts), rng.randint(1, 4), 4)
        fits = []
        for g in groups:
            real = list(arrange.group_kinds(g))
            for fill in g.fills:
                real.remove(fill)
            if len(g.fills) <= layout.hun and all(real.count(k) <= counts[k] for k in real):
                fits.append(g)
        by_code: dict[int, Layout] = {}
        seen: dict[Layout, int] = {}
        for g in fits:
            rest = rest_layout(layout, g)
            code = rest_code(g)
            assert by_code.setdefault(code, rest) == rest
            assert seen.setdefault(rest, code) == code
        rests += len(by_code)
    assert rests > 40 * 30                             # many distinct rests were compared
