"""The place search's abstract reading (`scoring.abstract`): a pattern it calls false or true
is so on every reading the view stands for; what it cannot tell it calls unknown."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulekit.arrange import RawGroup
from rulekit.codes import NUM_KINDS, PAIR, RUN, SET, group_key
from rulekit.dsl import PatternSource, compile_patterns
from rulekit.facts import ContextFact, Facts, HandFact, HunFact, WinFact, group_fact
from rulekit.dsl.abstract import U, View
from rulekit.scoring.abstract import ruled_out
from abstract_reference import ev
from conftest import examples

# DSL texts of the kinds the place search meets: counts pinned to the winning group's key,
# shape queries, quantifiers over groups and melds, facts a rest's key cannot tell
TEXTS = {
    "lone_run": "win.group.shape == run and count(g in groups: g.shape == run and "
                "g.suit == win.group.suit and g.rank == win.group.rank) == 1",
    "two_of_a_kind": "count(g in groups: g.shape == win.group.shape and "
                     "g.first == win.group.first) >= 2",
    "not_lone": "win.group.other_hun == 2 and not (win.group.shape == run and "
                "run(win.group.suit, 1) and run(win.group.suit, 4) and run(win.group.suit, 7) "
                "and count(g in groups: g.shape == run and g.suit == win.group.suit "
                "and g.rank == win.group.rank) == 1)",
    "queried": "run(wan, 1) and run(wan, 4) and run(wan, 7)",
    "some_set": "some g in melds: g.shape == set and g.first == 5m",
    "no_pair_of_1z": "no g in groups: g.shape == pair and g.kind == 1z",
    "every_concealed": "every g in groups: g.concealed",
    "hun_count": "some g in groups: g.hun == 2",
    "spread": "count(g in groups: g.shape == run) + len(hun.kinds) > 3",
}
PATTERNS = {p.id: p for p in compile_patterns([PatternSource(k, k, v)
                                               for k, v in TEXTS.items()])[0]}
HUN = (31, 32)
WAN_RUNS = frozenset(group_key(RUN, r) for r in (0, 3, 6))


def facts_of(win: RawGroup, groups: tuple[RawGroup, ...]) -> tuple[Facts, WinFact]:
    held_g = group_fact(win, True, True)
    wf = WinFact(HUN[0], True, win.first + 1 if win.shape == RUN else win.first, held_g)
    hand = HandFact(2, (), (), (), ())
    ctx = ContextFact("self_draw", False, False, "none", 0)
    all_groups = tuple(group_fact(g, False, False) for g in groups) + (held_g,)
    return Facts(all_groups, wf, hand, HunFact(HUN, (31, 31)), ctx), wf


def view_of(win: RawGroup, rest: tuple[RawGroup, ...], tracked: frozenset[int],
            known: int = 0, held: int = 0, bits: dict[str, int] | None = None) -> View:
    """The abstract view of a reading: the rest known only by its tracked keys; of the
    patterns `bits` names, those of `known` known, true if in `held`."""
    _, wf = facts_of(win, rest)
    rest_keys = frozenset(group_key(g.shape, g.first) for g in rest) & tracked
    own = group_key(win.shape, win.first)
    f = Facts((), wf, HandFact(2, (), (), (), ()), HunFact(HUN, (31, 31)),
              ContextFact("self_draw", False, False, "none", 0), rest_keys | {own})
    assert wf.group is not None
    f.held = held
    return View(f, known, tracked, rest_keys, (wf.group,), len(rest), bits or {})


RUN_4M = RawGroup(RUN, 3, (3, 4, 5))       # 4-5-6萬 of three hun, the winning one too


def test_a_count_pinned_to_the_winning_groups_key_is_known_from_the_rest() -> None:
    lone = PATTERNS["lone_run"].tree
    other = (RawGroup(RUN, 0, ()), RawGroup(RUN, 6, ()), RawGroup(SET, 20, ()),
             RawGroup(PAIR, 27, ()))
    second = other[:2] + (RawGroup(RUN, 3, ()), other[3])
    assert ev(lone, view_of(RUN_4M, other, WAN_RUNS), {}) is True
    assert ev(lone, view_of(RUN_4M, second, WAN_RUNS), {}) is False
    # a key no skeleton-level pattern queries: the reach cannot tell, so unknown
    assert ev(lone, view_of(RUN_4M, other, frozenset()), {}) is U


def test_a_lone_run_of_the_long_suit_rules_the_pattern_out() -> None:
    pat = PATTERNS["not_lone"]
    other = (RawGroup(RUN, 0, ()), RawGroup(RUN, 6, ()), RawGroup(SET, 20, ()),
             RawGroup(PAIR, 27, ()))
    view = view_of(RUN_4M, other, WAN_RUNS)
    assert ruled_out((pat,), pat.bit, view) == pat.bit
    with_second = other[:2] + (RawGroup(RUN, 3, ()), other[3])
    assert ruled_out((pat,), pat.bit, view_of(RUN_4M, with_second, WAN_RUNS)) == 0


def test_shape_queries_are_known_only_for_tracked_keys() -> None:
    q = PATTERNS["queried"].tree
    rest = (RawGroup(RUN, 0, ()), RawGroup(SET, 20, ()), RawGroup(SET, 21, ()),
            RawGroup(PAIR, 27, ()))
    assert ev(q, view_of(RUN_4M, rest, WAN_RUNS), {}) is False
    assert ev(q, view_of(RUN_4M, rest, frozenset()), {}) is U
    full = (RawGroup(RUN, 0, ()), RawGroup(RUN, 6, ())) + rest[2:]
    assert ev(q, view_of(RUN_4M, full, WAN_RUNS), {}) is True


def test_facts_of_the_rests_hun_stay_unknown() -> None:
    rest = (RawGroup(SET, 20, ()),) * 3 + (RawGroup(PAIR, 27, ()),)
    assert ev(PATTERNS["hun_count"].tree, view_of(RawGroup(SET, 4, (4,)), rest,
                                                 WAN_RUNS), {}) is U
    # the winning tile's group is known whole: two hun in it decide `some`
    two = RawGroup(RUN, 3, (3, 5))
    assert ev(PATTERNS["hun_count"].tree, view_of(two, rest, WAN_RUNS), {}) is True


def random_group(rng: random.Random) -> RawGroup:
    shape = rng.choice((RUN, SET, PAIR))
    if shape == RUN:
        first = rng.choice([s * 9 + r for s in range(3) for r in range(7)])
        fills = tuple(sorted(rng.sample([first, first + 1, first + 2], rng.randrange(3))))
    else:
        first = rng.randrange(NUM_KINDS)
        fills = (first,) * rng.randrange(3 if shape == SET else 2)
    return RawGroup(shape, first, fills)


@settings(max_examples=examples(300), deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(sorted(TEXTS)), st.booleans())
def test_abstract_answers_agree_with_every_reading(seed: int, pid: str, track: bool) -> None:
    """Sound: a known answer is the pattern's value on the concrete reading."""
    rng = random.Random(seed)
    win = random_group(rng)
    rest = tuple(random_group(rng) for _ in range(4))
    tracked = (frozenset(group_key(g.shape, g.first) for g in rest[:2]) | WAN_RUNS
               if track else frozenset())
    pat = PATTERNS[pid]
    facts, _ = facts_of(win, rest)
    truth = bool(pat.fn(facts))
    got = ev(pat.tree, view_of(win, rest, tracked), {})
    assert got is U or got == truth


@pytest.mark.parametrize("pid", sorted(TEXTS))
def test_every_pattern_keeps_its_tree(pid: str) -> None:
    assert PATTERNS[pid].tree is not None
