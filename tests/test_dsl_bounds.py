"""Numbers and work in the pattern DSL are bounded by what they really cost (issue 18, item 1).

A pattern may build numbers (`a * a`) and loops over lists it builds: the loader bounds every
number a pattern computes (limits.INT_BITS, proven from the literals and facts) and counts
steps (`walk.cost`) that the scorer charges per evaluation. The property below checks the
count against a reference interpreter that measures the *real work* of one evaluation:

- every node evaluated is one step;
- an arithmetic node costs the product of its operands' sizes in 64-bit words
  (`bit_length // 64 + 1` each: schoolbook multiplication; an addition costs less);
- `x in xs` costs one step per item scanned, and comparing two lists one per item.

Either the loader refuses the pattern, or its static steps are at least the real work and
every number it computed fits in limits.INT_BITS.
"""
from __future__ import annotations

import io
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rulekit
from rulekit import limits
from rulekit.cli import main
from rulekit.dsl import PatternSource, ast, compile_patterns, parse
from rulekit.dsl.walk import cost
from rulekit.errors import RulesetError
from conftest import examples

HOSTILE = Path(__file__).parent / "data" / "hostile"


# -- the hostile files: refused when they load, naming the pattern's place ------------------

@pytest.mark.parametrize("name, line, message", [
    ("square-chain.yaml", 9, "numbers here may grow past 100 bits (about 30 digits)"),
    ("square-chain-flat.yaml", 9, "numbers here may grow past 100 bits (about 30 digits)"),
    ("nested-list-loops.yaml", 9, "too costly: one evaluation may take"),
])
def test_hostile_dsl_rulesets_are_refused_when_they_load(
        name: str, line: int, message: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = HOSTILE / name
    with pytest.raises(RulesetError) as err:
        rulekit.load_ruleset(path)
    assert len(err.value.problems) == 1
    assert err.value.problems[0].startswith(f"{path}:{line}:")
    assert message in err.value.problems[0]
    assert main(["validate", str(path)], io.StringIO()) == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("command", [
    ["diff", "tianjin", "{path}", "--corpus", "{corpus}", "--jobs", "2"],
    ["simulate", "-r", "{path}", "--hands", "4", "--workers", "2"],
    ["score", "-r", "{path}", "--indicator", "7p", "--win", "5m", "46m123456789s22z"],
])
def test_the_commands_that_hung_refuse_the_squaring_chain_in_one_line(
        command: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    corpus = tmp_path / "c.jsonl"
    corpus.write_text('{"indicator": "7p", "hand": "46m123456789s22z", "win_tile": "5m"}\n',
                      encoding="utf-8")
    path = HOSTILE / "square-chain.yaml"
    argv = [a.format(path=path, corpus=corpus) for a in command]
    assert main(argv, io.StringIO()) == 2
    err = capsys.readouterr().err
    assert "square-chain.yaml:9:129: patterns.sq.when: numbers here may grow past 100 bits" in err


def test_a_big_literal_compares_but_a_product_of_two_is_refused() -> None:
    big = "9" * limits.INT_DIGITS
    compiled, errors = compile_patterns([PatternSource("p", "p", f"hand.kongs < {big}")])
    assert not errors and compiled[0].steps == 4
    _, errors = compile_patterns([PatternSource("p", "p", f"hand.kongs * {big} > {big}")])
    assert [e.message for e in errors] == [
        "numbers here may grow past 100 bits (about 30 digits), the most a pattern may "
        "compute: a product is as long as its operands together"]
    assert (errors[0].line, errors[0].column) == (1, 12)          # at the `*`


def test_a_list_of_long_lists_costs_its_real_length() -> None:
    """`[[...30 items...]]`: a loop over the inner list costs 30 items, not the 18 the loader
    once assumed for any list inside a list."""
    inner = "[" + ", ".join(["1"] * 30) + "]"
    steps = cost(parse(f"some xs in [{inner}]: some x in xs: x == 2"))
    # outer: 1 + list (1 + 1 + 30) + 1 item x (1 + inner loop (1 + 1 + 30 x (1 + 3)))
    assert steps == 1 + 32 + 1 * (1 + (1 + 1 + 30 * 4))


def test_the_run_time_guard_refuses_a_number_past_the_bound() -> None:
    """Second line: should a fact ever hold more than the loader assumed (FACT_BITS), the
    arithmetic itself refuses, naming the pattern, instead of computing on."""
    compiled, errors = compile_patterns([PatternSource("p", "p", "hand.kongs * 2 > 1",
                                                       "rules.yaml", 7, 11)])
    assert not errors
    facts = SimpleNamespace(hand=SimpleNamespace(kongs=1 << limits.INT_BITS))
    with pytest.raises(RulesetError) as err:           # like the run-time work budget's
        compiled[0].fn(facts)
    assert err.value.problems == [
        "rules.yaml:7:22: pattern 'p': a number grew past 100 bits while scoring (the most a "
        "pattern may compute)"]
    assert compiled[0].fn(SimpleNamespace(hand=SimpleNamespace(kongs=3)))


# -- the property -----------------------------------------------------------------------------

FACTS = SimpleNamespace(hand=SimpleNamespace(kongs=3, hun=2, tiles=(0, 0, 9, 27, 31, 4, 4),
                                             concealed=(0, 9)))


@st.composite
def ints(draw: Any, depth: int, names: tuple[str, ...]) -> str:
    options = ["literal", "fact", "count"] + (["var"] if names else [])
    if depth > 0:
        options += ["arith", "arith", "arith"]
    kind = draw(st.sampled_from(options))
    if kind == "literal":
        return str(draw(st.one_of(st.integers(0, 20), st.integers(0, 10 ** limits.INT_DIGITS
                                                                  - 1))))
    if kind == "fact":
        return str(draw(st.sampled_from(["hand.kongs", "hand.hun", "len(hand.tiles)"])))
    if kind == "count":
        return "count(t in hand.tiles: t == 1m)"
    if kind == "var":
        return str(draw(st.sampled_from(names)))
    op = draw(st.sampled_from(["+", "-", "*", "*"]))
    return f"({draw(ints(depth - 1, names))} {op} {draw(ints(depth - 1, names))})"


@st.composite
def conditions(draw: Any, depth: int, names: tuple[str, ...] = ()) -> str:
    options = ["compare", "member"] + (["some", "some", "count", "comprehension"]
                                       if depth > 0 else [])
    kind = draw(st.sampled_from(options))
    if kind == "compare":
        op = draw(st.sampled_from(["==", "<", ">=", "!="]))
        return f"{draw(ints(2, names))} {op} {draw(ints(2, names))}"
    if kind == "member":
        items = draw(st.lists(ints(1, names), min_size=0, max_size=4))
        return f"{draw(ints(1, names))} in [{', '.join(items)}]"
    var = f"v{len(names)}"
    items = draw(st.lists(ints(2, names), min_size=1, max_size=4))
    body = draw(conditions(depth - 1, (*names, var)))
    if kind == "some":
        q = draw(st.sampled_from(["some", "every", "no"]))
        return f"({q} {var} in [{', '.join(items)}]: {body})"
    if kind == "count":
        return f"count({var} in [{', '.join(items)}]: {body}) >= {draw(st.integers(0, 3))}"
    expr = draw(ints(2, (*names, var)))
    return f"(some w in [{expr} for {var} in [{', '.join(items)}]]: w > 1)"


def _words(x: int) -> int:
    return abs(x).bit_length() // 64 + 1


class Reference:
    """Evaluates a tree the obvious way, measuring the real work (the module's docstring)."""

    def __init__(self) -> None:
        self.work = 0
        self.biggest = 0

    def ev(self, n: ast.Node, env: dict[str, Any]) -> Any:
        self.work += 1
        if isinstance(n, ast.Num):
            return n.value
        if isinstance(n, ast.TileLit):
            return n.kind
        if isinstance(n, ast.Name):
            return env[n.id] if n.id in env else getattr(FACTS, n.id)
        if isinstance(n, ast.Attr):
            return getattr(self.ev(n.obj, env), n.name)
        if isinstance(n, ast.Call):
            assert n.fn == "len"
            return len(self.ev(n.args[0], env))
        if isinstance(n, ast.ListLit):
            return tuple(self.ev(i, env) for i in n.items)
        if isinstance(n, ast.Arith):
            a, b = self.ev(n.left, env), self.ev(n.right, env)
            self.work += _words(a) * _words(b) - 1
            value = a + b if n.op == "+" else a - b if n.op == "-" else a * b
            self.biggest = max(self.biggest, abs(value).bit_length())
            return value
        if isinstance(n, ast.Compare):
            return self._compare(n, env)
        if isinstance(n, ast.BoolOp):
            results = (self.ev(o, env) for o in n.operands)
            return all(results) if n.op == "and" else any(results)
        if isinstance(n, ast.Not):
            return not self.ev(n.operand, env)
        return self._binder(n, env)

    def _compare(self, n: ast.Compare, env: dict[str, Any]) -> bool:
        a, b = self.ev(n.left, env), self.ev(n.right, env)
        if n.op == "in":
            self.work += len(b)
            return a in b
        ops = {"==": a == b, "!=": a != b, "<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}
        return bool(ops[n.op])

    def _binder(self, n: ast.Node, env: dict[str, Any]) -> Any:
        assert isinstance(n, (ast.Quantified, ast.Count, ast.Comprehension))
        items = self.ev(n.collection, env)
        results = []
        for x in items:
            self.work += 1
            inner = {**env, n.var: x}
            if isinstance(n, ast.Comprehension):
                results.append(self.ev(n.expr, inner))
                continue
            body = n.body if isinstance(n, ast.Quantified) else n.condition
            truth = bool(self.ev(body, inner)) if body is not None else True
            results.append(truth)
            if isinstance(n, ast.Quantified) and truth == (n.quantifier != "every"):
                break                                     # the compiled loop stops here too
        if isinstance(n, ast.Comprehension):
            return tuple(results)
        if isinstance(n, ast.Count):
            return sum(results)
        found = any(results)
        return {"some": found, "no": not found, "every": all(results)}[n.quantifier]


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(conditions(3))
def test_a_pattern_is_refused_or_its_steps_bound_its_real_work(text: str) -> None:
    compiled, errors = compile_patterns([PatternSource("p", "p", text)])
    if errors:
        assert len(errors) == 1
        assert ("grow past 100 bits" in errors[0].message
                or "too costly" in errors[0].message), errors[0].message
        return
    tree = parse(text)
    ref = Reference()
    truth = ref.ev(tree, {})
    steps = compiled[0].steps
    assert steps == cost(tree) <= limits.PATTERN_STEPS
    assert ref.work <= steps, (ref.work, steps)
    assert ref.biggest <= limits.INT_BITS
    assert bool(compiled[0].fn(FACTS)) == bool(truth)
