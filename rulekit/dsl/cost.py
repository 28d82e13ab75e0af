"""A static bound on the work one evaluation of a pattern can do, so a ruleset that would make
scoring slow is refused when it loads, not when a hand meets it.

The unit is a *step*: one node evaluated once (a closure call in compile.py). A quantifier,
`count` or comprehension over a list costs its list's cost plus, for each item it can hold,
one step and its body's cost; `x in list` scans the list. List sizes come from the
vocabulary (`hand.tiles` at most 18, `groups` 5, `suits` 3, ...), so nesting multiplies them:
four nested `some ... in hand.tiles` cost about 18**4 * body, well over any budget.

Runs on a tree that has compiled (so names and types are known to be right) and never
evaluates anything. Iterative over expression nesting is not needed: parse() bounds depth.
"""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from rulekit import limits
from rulekit.dsl import ast
from rulekit.dsl.vocabulary import ATTRIBUTES, CONSTANTS, FUNCTIONS, NAMES

# a list whose size the vocabulary does not give (a comprehension of lists): the most tiles
# a hand holds, every list the DSL can build being made from a hand's tiles and groups
UNKNOWN_SIZE = 18


_PATTERN_STEPS: ContextVar[int] = ContextVar("pattern_steps", default=limits.PATTERN_STEPS)


def pattern_budget() -> int:
    """The most steps one evaluation of one pattern may take: `limits.PATTERN_STEPS`, or less
    inside `stricter` (a server's `--max-work`)."""
    return _PATTERN_STEPS.get()


@contextmanager
def stricter(pattern_steps: int) -> Iterator[None]:
    """Within the block (in this thread), rulesets that load are held to `pattern_steps` per
    pattern; never more than `limits.PATTERN_STEPS`."""
    token = _PATTERN_STEPS.set(min(pattern_steps, limits.PATTERN_STEPS))
    try:
        yield
    finally:
        _PATTERN_STEPS.reset(token)


class _Scope:
    """Quantifier variables in force: name → (type, size when the value is itself a list)."""

    def __init__(self) -> None:
        self.vars: list[dict[str, tuple[str, int]]] = []

    def find(self, name: str) -> tuple[str, int] | None:
        for frame in reversed(self.vars):
            if name in frame:
                return frame[name]
        return None


def cost(node: ast.Node) -> int:
    """Steps one evaluation of `node` may take at most."""
    return _cost(node, _Scope())


def _cost(n: ast.Node, scope: _Scope) -> int:
    if isinstance(n, (ast.Quantified, ast.Count, ast.Comprehension)):
        return _loop_cost(n, scope)
    if isinstance(n, ast.Compare):
        scan = _type_size(n.right, scope)[1] if n.op == "in" else 0
        return 1 + _cost(n.left, scope) + _cost(n.right, scope) + scan
    if isinstance(n, ast.Call):
        own = 1
        if n.fn == "distinct" and n.args:
            own += _type_size(n.args[0], scope)[1]
        return own + sum(_cost(a, scope) for a in n.args)
    return 1 + sum(_cost(c, scope) for c in _children(n))


def _loop_cost(n: ast.Quantified | ast.Count | ast.Comprehension, scope: _Scope) -> int:
    coll_cost = _cost(n.collection, scope)
    elem, size = _element(n.collection, scope)
    scope.vars.append({n.var: elem})
    try:
        body = n.body if isinstance(n, ast.Quantified) else (
            n.condition if isinstance(n, ast.Count) else n.expr)
        body_cost = _cost(body, scope) if body is not None else 0
    finally:
        scope.vars.pop()
    return 1 + coll_cost + size * (1 + body_cost)


def _children(n: ast.Node) -> list[ast.Node]:
    if isinstance(n, ast.Attr):
        return [n.obj]
    if isinstance(n, ast.ListLit):
        return list(n.items)
    if isinstance(n, ast.Arith):
        return [n.left, n.right]
    if isinstance(n, ast.Not):
        return [n.operand]
    if isinstance(n, ast.BoolOp):
        return list(n.operands)
    return []


def _element(coll: ast.Node, scope: _Scope) -> tuple[tuple[str, int], int]:
    """(the element's type and, if it is a list, its size) and how many elements at most."""
    type_, size = _type_size(coll, scope)
    elem_type = type_[5:] if type_.startswith("list:") else "any"
    inner = UNKNOWN_SIZE if elem_type.startswith("list:") else 0
    return (elem_type, inner), size


def _type_size(n: ast.Node, scope: _Scope) -> tuple[str, int]:
    """The type of `n` and, for a list, the most items it holds (0 for a non-list)."""
    if isinstance(n, ast.Name):
        var = scope.find(n.id)
        if var is not None:
            return var
        if n.id in NAMES:
            return NAMES[n.id].type, NAMES[n.id].size
        if n.id in CONSTANTS:
            type_, value = CONSTANTS[n.id]
            return type_, len(value) if isinstance(value, tuple) else 0
        return "bool", 0                          # a pattern reference
    if isinstance(n, ast.Attr):
        obj_type, _ = _type_size(n.obj, scope)
        entry = ATTRIBUTES.get(obj_type, {}).get(n.name)
        return (entry.type, entry.size) if entry is not None else ("any", UNKNOWN_SIZE)
    if isinstance(n, ast.ListLit):
        item = _type_size(n.items[0], scope)[0] if n.items else "any"
        return "list:" + item, len(n.items)
    if isinstance(n, ast.Comprehension):
        elem, size = _element(n.collection, scope)
        scope.vars.append({n.var: elem})
        try:
            item = _type_size(n.expr, scope)[0]
        finally:
            scope.vars.pop()
        return "list:" + item, size
    if isinstance(n, ast.Call):
        fn = FUNCTIONS.get(n.fn)
        if fn is not None and fn.result == "same" and n.args:
            return _type_size(n.args[0], scope)         # distinct(xs): at most xs's size
        return (fn.result if fn is not None else "any"), 0
    return _scalar_type(n), 0


def _scalar_type(n: Any) -> str:
    if isinstance(n, (ast.Num, ast.Arith, ast.Count)):
        return "int"
    if isinstance(n, ast.TileLit):
        return "tile"
    return "bool"
