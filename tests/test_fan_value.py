"""`Algebra.value` (the number alone, what the bounds read) is `float(fan(held).fan)` on
every set of valued patterns of every built-in ruleset, and on random algebras with
combinations, negative and fractional values."""
from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rulekit
from rulekit.algebra import Algebra, Combination
from rulekit.scoring.scorer import Scorer
from conftest import examples

BUILTINS = ("tianjin", "tianjin-3p", "tianjin-dianpao", "tianjin-flowers", "tianjin-gold8",
            "tianjin-laizi", "tianjin-street")


@pytest.mark.parametrize("name", BUILTINS)
def test_value_is_the_fan_on_every_set_of_a_builtin(name: str) -> None:
    rs = rulekit.load_ruleset(name)
    ids = sorted(rs.algebra.ids)
    assert len(ids) <= 14                        # every subset below is tried
    sc = Scorer(rs)
    for k in range(len(ids) + 1):
        for held in combinations(ids, k):
            got = rs.algebra.value(frozenset(held))
            assert got == float(rs.algebra.fan(frozenset(held)).fan)
            mask = sum(sc.plan.bit[i] for i in held)
            assert sc.fan_value(mask) == float(sc.fan(mask).fan)


values = st.sampled_from([-2.0, -1.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 8.0])
NAMES = ("a", "b", "c", "d", "e", "f")


@settings(max_examples=examples(300), deadline=None)
@given(st.data())
def test_value_is_the_fan_on_random_algebras(data: st.DataObject) -> None:
    ids = list(NAMES)
    roles = data.draw(st.lists(st.sampled_from(["add", "mul", "none"]), min_size=6,
                               max_size=6))
    add = tuple((i, data.draw(values)) for i, r in zip(ids, roles) if r == "add")
    mul = tuple((i, data.draw(values)) for i, r in zip(ids, roles) if r == "mul")
    base = (ids[5], data.draw(values)) if data.draw(st.booleans()) else None
    combos = tuple(Combination(f"c{j}", frozenset(data.draw(
        st.lists(st.sampled_from(ids), min_size=2, max_size=3, unique=True))),
        data.draw(values)) for j in range(data.draw(st.integers(0, 2))))
    alg = Algebra(base, add, mul, combos, {i: i.upper() for i in ids})
    for k in range(len(ids) + 1):
        for held in combinations(ids, k):
            assert alg.value(frozenset(held)) == float(alg.fan(frozenset(held)).fan)
