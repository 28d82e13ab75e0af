"""The pattern DSL: parsing, checking, evaluation, and its error messages."""
from __future__ import annotations

import pytest

from rulekit.dsl import PatternSource, compile_patterns, parse
from rulekit.errors import DslError


def compile_one(text: str, **extra: str) -> tuple[list, list]:
    sources = [PatternSource("p", "p", text, "rules.yaml", 10, 11)]
    sources += [PatternSource(k, k, v) for k, v in extra.items()]
    return compile_patterns(sources)


def only_error(text: str, **extra: str) -> DslError:
    compiled, errors = compile_one(text, **extra)
    assert len(errors) == 1, errors
    return errors[0]


def test_syntax_error_has_file_line_column_and_caret() -> None:
    err = only_error("run(s, 1) and")
    assert (err.source, err.line) == ("rules.yaml", 10)
    text = str(err)
    assert text.startswith("rules.yaml:10:")
    assert "unexpected end of expression" in text
    caret_line = text.splitlines()[-1]
    assert caret_line.strip() == "^"
    assert caret_line.index("^") - 4 == len("run(s, 1) and")


def test_unknown_attribute_suggests_the_nearest_name() -> None:
    err = only_error("win.group.shap == pair")
    assert "no attribute 'shap'; did you mean 'shape'?" in err.message
    assert err.column == 11 + len("win.group.")


def test_unknown_name_suggests_pattern_names() -> None:
    err = only_error("lnog and hand.hun == 0", long="true")
    assert "unknown name 'lnog'; did you mean 'long'?" in err.message


def test_type_errors_are_reported() -> None:
    assert "cannot compare a tile with a number" in only_error("win.tile == 3").message
    assert "expected a condition" in only_error("hand.hun").message
    assert "run() wants a suit" in only_error("run(5m, 1)").message
    assert "takes 2 arguments" in only_error("run(wan)").message


def test_bad_tile_literal() -> None:
    with pytest.raises(DslError, match="no tile '9z'"):
        parse("win.tile == 9z")


def test_cycles_between_patterns_are_errors() -> None:
    _, errors = compile_patterns([PatternSource("a", "a", "b"), PatternSource("b", "b", "a")])
    assert any("circle" in e.message for e in errors)


def test_dependence_levels() -> None:
    compiled, errors = compile_patterns([
        PatternSource("ctx", "c", "context.kong_draw"),
        PatternSource("skel", "s", "some s in suits: run(s, 1)"),
        PatternSource("arr", "a", "some g in groups: g.hun > 0"),
        PatternSource("read", "r", "win.group.shape == pair"),
        PatternSource("ref", "f", "skel and read"),
    ])
    assert not errors
    assert {p.id: p.dep for p in compiled} == {"ctx": 0, "skel": 1, "arr": 2, "read": 3,
                                               "ref": 3}


def test_needs_make_exclusive_patterns_known() -> None:
    compiled, _ = compile_patterns([
        PatternSource("pair", "p", "win.group.shape == pair and win.group.other_hun == 1"),
        PatternSource("meld", "m", "win.group.shape != pair and win.group.other_hun == 2"),
        PatternSource("five", "f", "win.stands_for == 5m and win.group.shape == run"),
        PatternSource("free", "x", "hand.hun > 0"),
    ])
    by = {p.id: p for p in compiled}
    assert by["pair"].excludes(by["meld"]) and by["meld"].excludes(by["pair"])
    assert by["five"].excludes(by["pair"])
    assert not by["five"].excludes(by["meld"])
    assert not by["free"].excludes(by["pair"])


def test_quantifiers_count_and_comprehension_evaluate() -> None:
    from rulekit.facts import ContextFact, Facts, HandFact, HunFact
    hand = HandFact(0, (0, 0, 9, 27), (), (), ())
    f = Facts((), None, hand, HunFact((31, 32), ()), ContextFact("self_draw", False, False,
                                                                 "none", 0))
    compiled, errors = compile_patterns([
        PatternSource("a", "a", "len(distinct([suit(t) for t in hand.tiles])) == 3"),
        PatternSource("b", "b", "count(t in hand.tiles: is_honor(t)) == 1"),
        PatternSource("c", "c", "every t in hand.tiles: not is_hun(t)"),
        PatternSource("d", "d", "no t in hand.tiles: t == 5m"),
        PatternSource("e", "e", "some k in hun.kinds: is_dragon(k) and rank(k) == 5"),
        PatternSource("g", "g", "hun.suit == zi and 2 * 3 - 1 == 5 and 1m in hand.tiles"),
    ])
    assert not errors
    assert all(p.fn(f) for p in compiled), [p.id for p in compiled if not p.fn(f)]


def _reading_facts(win_by: str, group_shape: str | None) -> object:
    """Facts whose winning tile (a hun standing for 5m) sits in a pair of 5m made of it and
    one other hun, or in the run 4m-5m-6m as its only hun, or (None) nowhere yet, as
    hand-level facts have it: reading `win.group.<attr>` then raises."""
    from rulekit.arrange import RawGroup
    from rulekit.codes import PAIR, RUN
    from rulekit.facts import (ContextFact, Facts, HandFact, HunFact, WinFact,
                               group_fact)
    group = None
    if group_shape is not None:
        raw = RawGroup(PAIR, 4, (4, 4)) if group_shape == "pair" else RawGroup(RUN, 3, (4,))
        group = group_fact(raw, True, True)
    hand = HandFact(2, (0, 0, 9, 27), (), (), ())
    return Facts((), WinFact(31, True, 4, group), hand, HunFact((31, 32), (31, 31)),
                 ContextFact(win_by, False, False, "none", 0))


@pytest.mark.parametrize(("text", "pair", "run"), [
    ("win.group.shape == pair", True, False),                         # one test, ==
    ("win.group.shape != pair", False, True),                         # one test, !=
    ("win.group.shape == pair and win.group.other_hun == 1", True, False),   # folded tests
    ("win.group.shape != pair and win.group.other_hun == 0", False, True),
    ("win.stands_for == 5m and (win.group.shape == pair and win.group.hun == 2)", True,
     False),                                                          # nested conjunction
    ("win.group.other_hun == 1 and (some t in hand.tiles: t == 1m)", True, False),  # + rest
    ("win.group.other_hun == 1 and (some t in hand.tiles: t == 2m)", False, False),
    ("win.group.other_hun == 1 and not (win.group.shape == run)", True, False),
    ("win.group.shape in [pair, set]", True, False),                  # `in` a constant list
    ("win.is_hun", True, True),                                       # a bare bool fact
    ("(win.group.shape == run or win.group.hun == 2) and win.tile == 1z", False, False),
    ("true and win.group.shape == pair", True, False),
])
def test_compiled_shapes_evaluate_to_bools(text: str, pair: bool, run: bool) -> None:
    """Every shape the compiler emits a special closure for (a path against a constant, a
    conjunction of them, with a rest that needs quantifier slots, a bare bool fact) gives
    the truth worked out by hand, as a bool, on the two readings of `_reading_facts`."""
    compiled, errors = compile_one(text)
    assert not errors
    fn = compiled[0].fn
    assert fn(_reading_facts("self_draw", "pair")) is pair
    assert fn(_reading_facts("self_draw", "run")) is run


def test_conjunctions_keep_their_operands_order() -> None:
    """A conjunction's folded tests run in the order written (cheaper levels first), so an
    operand that reads the winning tile's group is never reached once an earlier,
    hand-level one fails: on hand-level facts (no group yet) it would raise."""
    compiled, errors = compile_one(
        "context.discard == true and win.group.shape == pair and win.group.other_hun == 1")
    assert not errors
    fn = compiled[0].fn
    assert fn(_reading_facts("self_draw", None)) is False
    with pytest.raises(AttributeError):
        fn(_reading_facts("discard", None))
    assert fn(_reading_facts("discard", "pair")) is True


def _grouped_facts() -> object:
    """Facts of the skeleton 4m-5m-6m, 1m-2m-3m, 4m-5m-6m, 7p7p7p, 9s9s, the winning tile (a
    hun standing for 5m) in the first run: loop conditions over `groups` have several
    answers to count."""
    from rulekit.arrange import RawGroup
    from rulekit.codes import PAIR, RUN, SET
    from rulekit.facts import (ContextFact, Facts, HandFact, HunFact, WinFact,
                               group_fact)
    raws = [RawGroup(RUN, 3, (4,)), RawGroup(RUN, 0, ()), RawGroup(RUN, 3, ()),
            RawGroup(SET, 15, ()), RawGroup(PAIR, 26, ())]
    groups = tuple(group_fact(r, i == 0, True) for i, r in enumerate(raws))
    hand = HandFact(1, (0, 0, 9, 27), (), (), ())
    return Facts(groups, WinFact(31, True, 4, groups[0]), hand, HunFact((31, 32), (31,)),
                 ContextFact("self_draw", False, False, "none", 0))


@pytest.mark.parametrize(("text", "expected"), [
    # a loop variable's path against a constant, a fact path, another loop variable's path
    # and any other expression (`==` and `!=`), alone and in a counted conjunction
    ("count(g in groups: g.shape == run) == 3", True),
    ("count(g in groups: g.shape == run) != 3", False),      # an expression against a constant
    ("count(g in groups: g.shape == run) != 2", True),
    ("count(g in groups: g.shape == run) == 2", False),
    ("count(g in groups: g.shape != run) == 2", True),
    ("count(g in groups: g.suit == win.group.suit) == 3", True),
    ("count(g in groups: g.suit != win.group.suit) == 2", True),
    ("count(g in groups: g.shape == run and g.suit == win.group.suit"
     " and g.rank == win.group.rank) == 2", True),
    ("count(g in groups: g.shape == run and g.suit == win.group.suit"
     " and g.rank != win.group.rank) == 1", True),
    ("count(g in groups: g.rank == 1 + 3) == 2", True),
    ("count(g in groups: g.rank != 1 + 3) == 3", True),
    ("count(g in groups: some h in groups: g.rank == h.rank and g.first != h.first) == 0",
     True),
    ("count(g in groups: count(h in groups: g.rank == h.rank) == 2) == 2", True),
    ("count(g in groups: count(h in groups: g.shape != h.shape) == 2) == 3", True),
    ("some g in groups: g.shape == pair and g.suit == win.group.suit", False),
    ("run(win.group.suit, 1) and run(win.group.suit, 4)", True),      # run(fact path, n)
    ("run(win.group.suit, 7)", False),
    ("some g in groups: run(g.suit, 1)", True),
    ("some g in groups: g.shape == set and run(g.suit, 1)", False),
    ("every g in groups: g.shape != run or g.suit == win.group.suit", True),
])
def test_loop_variable_comparisons_evaluate(text: str, expected: bool) -> None:
    """The comparisons the compiler fuses for loop variables (`_slot_compare`) and a count
    over a conjunction (`_count_all`) give the answers worked out by hand."""
    compiled, errors = compile_one(text)
    assert not errors, errors
    assert compiled[0].fn(_grouped_facts()) is expected


def test_a_count_reads_a_fact_path_only_when_reached() -> None:
    """A counted `g.path == fact.path` reads the fact path once a call, and only once an
    element gets that far (as the plain conjunction does): with no group holding the
    winning tile, `win.group.suit` raises if read, and no group here is a kong."""
    compiled, errors = compile_one(
        "count(g in groups: g.shape == kong and g.suit == win.group.suit) == 0")
    assert not errors
    f = _grouped_facts()
    f.win.group = None            # type: ignore[attr-defined]
    assert compiled[0].fn(f) is True
    compiled, errors = compile_one(
        "count(g in groups: g.shape == run and g.suit == win.group.suit) == 0")
    with pytest.raises(AttributeError):
        compiled[0].fn(f)
