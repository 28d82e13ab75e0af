"""The engine agrees with a naive reference scorer (tests/reference.py) on random hands.

The reference tries every kind for every hun and judges RULES.md's sentences in plain
Python, so this checks the arrangements, the DSL patterns, the all-hun domain, the pruning
and the algebra together against code that shares none of them.
"""
from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import rulekit
from reference import reference_hand_fan
from rulekit.corpus import random_hand
from conftest import examples

RS = rulekit.load_ruleset("tianjin")


def check(doc: dict) -> None:
    hand = rulekit.parse_hand(doc)
    result = rulekit.score(hand, RS)
    want = reference_hand_fan(hand)
    assert want is not None, "the corpus only makes winning shapes"
    assert result.hand_fan == want, (doc, result.explain)


@settings(max_examples=examples(300), deadline=None)
@given(st.integers(0, 10**9), st.sampled_from([0, 1]))
def test_few_hun(seed: int, hun: int) -> None:
    check(random_hand(random.Random(seed), hun_target=hun))


@settings(max_examples=examples(60), deadline=None)
@given(st.integers(0, 10**9))
def test_two_hun(seed: int) -> None:
    check(random_hand(random.Random(seed), hun_target=2))


@settings(max_examples=examples(6), deadline=None)
@given(st.integers(0, 10**9))
def test_three_hun(seed: int) -> None:
    check(random_hand(random.Random(seed), hun_target=3))


@settings(max_examples=examples(40), deadline=None)
@given(st.integers(0, 10**9), st.sampled_from([0, 1]))
def test_heavenly_takes_the_best_winning_tile(seed: int, hun: int) -> None:
    check(random_hand(random.Random(seed), hun_target=hun, heavenly_rate=1.0))
