"""The abstract reading compiled to closures (`dsl.abstract.compile_abstract`) answers as the
tree interpreter it replaced (tests/abstract_reference.py): the same value (a plain value of
the same type, the same range, or unknown) on every view, for patterns of every node type
the DSL has; and a ruleset's patterns carry it when the place search can ask for it."""
from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulekit.arrange import RawGroup
from rulekit.codes import KONG, NUM_KINDS, PAIR, RUN, SET, group_key
from rulekit.dsl import PatternSource, compile_patterns
from rulekit.dsl.abstract import U, Span, View, compile_abstract
from rulekit.facts import ContextFact, Facts, GroupFact, HandFact, HunFact, WinFact, group_fact
from abstract_reference import ev
from test_abstract import view_of as reading_view
from conftest import examples
import rulekit
from rulekit.scoring.score import scorer_for

# every node type, and each way a count over the groups is pinned (or not), shadowed
# loop variables, ranges in arithmetic and every comparison, patterns read by name
TEXTS = {
    "lone_run": "win.group.shape == run and count(g in groups: g.shape == run and "
                "g.suit == win.group.suit and g.rank == win.group.rank) == 1",
    "shuang": "win.group.shape != pair and win.group.other_hun == 2 and not ("
              "win.group.shape == run and win.group.rank in [1, 4, 7] and "
              "run(win.group.suit, 1) and run(win.group.suit, 4) and run(win.group.suit, 7) "
              "and count(g in groups: g.shape == run and g.suit == win.group.suit "
              "and g.rank == win.group.rank) == 1)",
    "two_alike": "count(g in groups: win.group.shape == g.shape and "
                 "win.group.first == g.first) >= 2",
    "meld_set": "count(g in melds: g.shape == set and g.kind == win.group.kind) >= 1",
    "zi_pair": "some g in groups: g.shape == pair and g.suit == zi",
    "no_kong": "count(g in groups: g.shape == kong and g.first == 1m) == 0",
    "zi_run": "count(g in groups: g.shape == run and g.suit == zi and g.rank == 1) == 0",
    "run_8": "count(g in groups: g.shape == run and g.suit == win.group.suit "
             "and g.rank == 8) == 0",
    "every_clean": "every g in melds: g.concealed and g.hun == 0",
    "no_stand_set": "no g in groups: g.shape == set and g.first == win.stands_for",
    "count_all": "count(g in groups) == 5",
    "hun_tiles": "count(t in hand.tiles: is_hun(t)) >= 2",
    "hun_win": "some t in hun.kinds: t == win.tile",
    "spread": "len(distinct(hand.concealed)) > 7",
    "runs_minus_sets": "count(g in groups: g.shape == run) - "
                       "count(g in groups: g.shape == set) >= 1",
    "double_runs": "count(g in groups: g.shape == run) * 2 > 3",
    "pairs_in": "count(g in groups: g.shape == pair and g.kind == win.group.first) in [1, 2]",
    "rank_list": "win.group.rank in [rank(win.tile), 3]",
    "queries": "not (run(win.group.suit, win.group.rank) or pair(win.tile) "
               "or set(win.stands_for))",
    "steps": "some g in groups: some h in groups: g.shape == run and h.shape == run "
             "and g.suit == h.suit and g.rank == h.rank + 3",
    "shadow": "some g in groups: count(g in melds: g.shape == set and g.kind == 5m) >= 1 "
              "and g.shape == pair",
    "refs": "lone_run or zi_pair",
    "comprehension": "[g.hun for g in groups] == [0, 0, 0, 0, 0]",
    "hun_fills": "len(hun.fills) == 2",
    "no_fills": "count(g in groups: len(g.fills) == 0 and g.shape == set) >= 1",
    "has_win": "some g in groups: g.has_win and g.other_hun >= 1",
    "declared": "context.self_draw and count(g in melds: g.declared) == 0",
    "kind_zi": "count(g in groups: g.shape == set and g.kind == win.group.kind "
               "and g.suit == zi) <= 1",
    "either": "win.group.shape == run or win.group.shape == set or "
              "count(g in groups: g.shape == pair) > 1",
    "few_sets": "count(g in groups: g.shape == set) < 2",
    "at_most": "count(g in groups: g.shape == run and g.first == 1p) <= 1",
    "some_sets": "count(g in groups: g.shape == set and g.kind == 4z) != 0",
    "under": "3 > count(g in groups: g.shape == run and g.suit == tong and g.rank == 2)",
    "above": "count(g in groups: g.shape == set) + len(hun.kinds) > 3",
    "honours": "every g in groups: is_honor(g.first) or g.shape == run",
    "hun_suit": "hun.suit == win.group.suit and win.group.hun >= 1",
    "self_pin": "count(g in groups: g.shape == set and g.kind == g.first) >= 1",
    "no_stands_hun": "no t in hun.kinds: t == win.stands_for",
    "every_other": "every t in hand.concealed: t != win.tile",
    "few_honours": "count(t in hand.concealed: is_honor(t)) in [0, 1]",
}
PATTERNS = {p.id: p for p in compile_patterns([PatternSource(k, k, v)
                                               for k, v in TEXTS.items()])[0]}
BITS = {p.id: p.bit for p in PATTERNS.values()}
COMPILED = {pid: compile_abstract(p.tree) for pid, p in PATTERNS.items()}
# the texts whose answer is one on every view: no group of the rest can have the key they
# count (zi_run, run_8), or what they read is never read abstractly
CONSTANT = frozenset(["zi_run", "run_8", "count_all", "double_runs", "steps", "comprehension",
                      "hun_fills"])
HUN = (31, 32)
QUERYABLE = [group_key(s, f) for s in (RUN, SET, PAIR, KONG) for f in range(NUM_KINDS)
             if s != RUN or (f < 27 and f % 9 < 7)]


def random_group(rng: random.Random, declared: bool = False) -> RawGroup:
    shape = rng.choice((SET, KONG) if declared else (RUN, SET, PAIR))
    if shape == RUN:
        first = rng.choice([s * 9 + r for s in range(3) for r in range(7)])
        fills = tuple(sorted(rng.sample([first, first + 1, first + 2], rng.randrange(3))))
    else:
        first = rng.randrange(NUM_KINDS)
        fills = () if declared else (first,) * rng.randrange(3 if shape == SET else 2)
    return RawGroup(shape, first, fills, declared, not declared or rng.random() < 0.3)


def random_view(rng: random.Random) -> View:
    """A view as the place search makes one, its every part drawn at random: the winning
    group, declared melds, the tracked keys and which of them the rest holds, what is known
    of the other patterns."""
    win = random_group(rng)
    win_is_hun = rng.random() < 0.5
    held_g = group_fact(win, True, win_is_hun)
    melds = tuple(random_group(rng, True) for _ in range(rng.randrange(3)))
    declared = tuple(GroupFact(g, False, False) for g in melds)
    tracked = frozenset(rng.sample(QUERYABLE, rng.randrange(0, 40)))
    rest_keys = frozenset(k for k in tracked if rng.random() < 0.3)
    tile = rng.choice(HUN) if win_is_hun else rng.choice(win.fills or (win.first,))
    stands = win.first + rng.randrange(3) if win.shape == RUN else win.first
    hand = HandFact(rng.randrange(8), tuple(sorted(rng.randrange(NUM_KINDS)
                                                   for _ in range(rng.randrange(1, 15)))), (), declared, ())
    ctx = ContextFact(rng.choice(("self_draw", "discard")), False, False, "none", 0)
    index = rest_keys | frozenset(group_key(g.shape, g.first) for g in melds) \
        | frozenset([group_key(win.shape, win.first)])
    f = Facts((), WinFact(tile, win_is_hun, stands, held_g), hand,
              HunFact(HUN, (31,) * rng.randrange(1, 5)), ctx, index)
    known = rng.getrandbits(len(BITS))
    f.held = rng.getrandbits(len(BITS)) & known
    return View(f, known, tracked, rest_keys, (held_g,) + declared, 4 - len(declared), BITS)


def same(a: Any, b: Any) -> bool:
    if isinstance(a, Span) or isinstance(b, Span):
        return (isinstance(a, Span) and isinstance(b, Span)
                and (a.lo, a.hi) == (b.lo, b.hi))
    return a is b if (a is U or b is U) else (type(a) is type(b) and a == b)


@settings(max_examples=examples(400), deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(sorted(TEXTS)))
def test_compiled_reading_answers_as_the_interpreter(seed: int, pid: str) -> None:
    view = random_view(random.Random(seed))
    want = ev(PATTERNS[pid].tree, view, {})
    got = COMPILED[pid](view)
    assert same(got, want), (pid, got, want)


def test_every_pattern_answers_as_the_interpreter_on_many_views() -> None:
    """Each text on the same 300 views (a fixed seed): every answer the same, and each
    text met at least two different answers (the views tell its cases apart)."""
    rng = random.Random(5)
    views = [random_view(rng) for _ in range(300)]
    for pid, fn in COMPILED.items():
        answers = set()
        for view in views:
            want = ev(PATTERNS[pid].tree, view, {})
            got = fn(view)
            assert same(got, want), (pid, got, want)
            answers.add("U" if got is U else ("span" if isinstance(got, Span) else got))
        if pid not in CONSTANT:
            assert len(answers) >= 2, (pid, answers)


def view_of(win: RawGroup, rest: tuple[RawGroup, ...], tracked: frozenset[int],
            known: int = 0, held: int = 0) -> View:
    return reading_view(win, rest, tracked, known, held, BITS)


RUN_4M = RawGroup(RUN, 3, (3, 4, 5))
WAN_RUNS = frozenset(group_key(RUN, r) for r in (0, 3, 6))
OTHER = (RawGroup(RUN, 0, ()), RawGroup(RUN, 6, ()), RawGroup(SET, 20, ()),
         RawGroup(PAIR, 27, ()))


def test_hand_worked_answers() -> None:
    """Cases worked by hand on a 4-5-6萬 of three hun holding the winning tile."""
    lone, alike = COMPILED["lone_run"], COMPILED["two_alike"]
    second = OTHER[:2] + (RawGroup(RUN, 3, ()), OTHER[3])
    tracked = WAN_RUNS | {group_key(RUN, 3)}
    # the rest's reach tells whether it holds a second 4萬 run
    assert lone(view_of(RUN_4M, OTHER, tracked)) is True
    assert lone(view_of(RUN_4M, second, tracked)) is False
    assert alike(view_of(RUN_4M, second, tracked)) is True
    assert alike(view_of(RUN_4M, OTHER, tracked)) is False
    # a key no skeleton-level pattern queries: the rest may or may not hold one
    assert lone(view_of(RUN_4M, OTHER, frozenset())) is U
    # runs of 1-4-7萬 (tracked, present) and the lone 4萬 run: 雙混吊 is ruled out
    assert COMPILED["shuang"](view_of(RUN_4M, OTHER, tracked)) is False
    assert COMPILED["shuang"](view_of(RUN_4M, second, tracked)) is True
    # two hun besides the winning tile are what it needs: one is not enough
    assert COMPILED["shuang"](view_of(RawGroup(RUN, 3, (3, 4)), second, tracked)) is False
    # counts of the rest widen by the groups it forms; a product of ranges is unknown
    span = COMPILED["runs_minus_sets"](view_of(RUN_4M, OTHER, tracked))
    assert span is U or (span.lo, span.hi) != (0, 0)
    assert COMPILED["double_runs"](view_of(RUN_4M, OTHER, tracked)) is U
    # a kong, a run of honours or of rank 8: no group of the rest has the key
    assert COMPILED["no_kong"](view_of(RUN_4M, OTHER, frozenset())) is True
    assert COMPILED["zi_run"](view_of(RUN_4M, OTHER, frozenset())) is True
    assert COMPILED["run_8"](view_of(RUN_4M, OTHER, frozenset())) is True
    # another pattern read by name: only when the view knows it
    bit = BITS["zi_pair"]
    assert COMPILED["refs"](view_of(RUN_4M, second, tracked)) is U
    assert COMPILED["refs"](view_of(RUN_4M, second, tracked, bit, bit)) is True
    assert COMPILED["refs"](view_of(RUN_4M, second, tracked, bit, 0)) is U
    both = bit | BITS["lone_run"]
    assert COMPILED["refs"](view_of(RUN_4M, second, tracked, both, 0)) is False
    # a comprehension and the hand's hun's fills are not read abstractly
    assert COMPILED["comprehension"](view_of(RUN_4M, OTHER, tracked)) is U
    assert COMPILED["hun_fills"](view_of(RUN_4M, OTHER, tracked)) is U


@pytest.mark.parametrize("name", ["tianjin", "tianjin-3p", "tianjin-laizi"])
def test_a_rulesets_patterns_carry_the_reading_the_place_search_asks(name: str) -> None:
    """Exactly the patterns the place search reads abstractly (`plan.rest_read`) carry a
    compiled reading, and each answers as the interpreter on random views."""
    rs = rulekit.load_ruleset(name)
    plan = scorer_for(rs).plan
    later = plan.by_level[2] + plan.by_level[3]
    asked = [p for p in later if p.bit & plan.rest_read]
    assert asked
    assert all(p.abstract is not None for p in asked)
    assert all(p.abstract is None for p in rs.patterns if not p.bit & plan.rest_read)
    rng = random.Random(11)
    for _ in range(200):
        view = random_view(rng)
        view.bits = plan.bit
        for p in asked:
            assert p.abstract is not None
            assert same(p.abstract(view), ev(p.tree, view, {}))
