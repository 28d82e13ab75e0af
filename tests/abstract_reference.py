"""The abstract reading as a tree interpreter: the reference the compiled closures
(`rulekit.dsl.abstract.compile_abstract`) are pinned to (tests/test_abstract_compiled.py).

This is how the place search read a pattern three-valued until the reading was compiled
once per ruleset load: `ev` walks the syntax tree on every call, with `env` a dict of loop
variables. The values' rules (ranges compared, a pinned key, a rest's group) are the
module's shared ones; the walk, the scopes and the order of evaluation are this file's own.
"""
from __future__ import annotations

from typing import Any

from rulekit.dsl import ast
from rulekit.dsl.abstract import (U, RestGroup, Span, View, arith, attr_of, compare,
                                  groups_named, is_open, pattern_value, pin_key, pin_sides,
                                  rest_span, shape_query)
from rulekit.dsl.vocabulary import CONSTANTS, FUNCTIONS, NAMES


def ev(n: Any, a: View, env: dict[str, Any]) -> Any:
    """The value of node `n` on the abstract reading `a`: a plain value, a `Span` or `U`;
    a node type not listed (a comprehension) reads as `U`."""
    t = type(n)
    if t is ast.Attr:
        return attr_of(ev(n.obj, a, env), n.name)
    if t is ast.Compare:
        return compare(n.op, ev(n.left, a, env), ev(n.right, a, env))
    if t is ast.Name:
        return _name(n.id, a, env)
    if t is ast.Num or t is ast.BoolLit:
        return n.value
    if t is ast.BoolOp:
        return _bool_op(n, a, env)
    if t is ast.TileLit:
        return n.kind
    if t is ast.Call:
        return _call(n, a, env)
    if t is ast.ListLit:
        items = [ev(i, a, env) for i in n.items]
        return U if any(is_open(i) for i in items) else tuple(items)
    if t is ast.Not:
        v = ev(n.operand, a, env)
        return U if v is U else not v
    if t is ast.Arith:
        return arith(n.op, ev(n.left, a, env), ev(n.right, a, env))
    if t is ast.Quantified:
        return _quantified(n, a, env)
    if t is ast.Count:
        return _count(n, a, env)
    return U


def _name(name: str, a: View, env: dict[str, Any]) -> Any:
    if name in env:
        return env[name]
    if name in NAMES:
        return U if name in ("groups", "melds") else getattr(a.facts, name)
    if name in CONSTANTS:
        return CONSTANTS[name][1]
    return pattern_value(a, name)


def _call(n: ast.Call, a: View, env: dict[str, Any]) -> Any:
    args = [ev(x, a, env) for x in n.args]
    if any(is_open(x) for x in args):
        return U
    if n.fn in ("run", "pair", "set"):
        return shape_query(a, n.fn, args)
    impl = FUNCTIONS[n.fn].impl
    return U if impl is None else impl(a.facts, *args)


def _bool_op(n: ast.BoolOp, a: View, env: dict[str, Any]) -> Any:
    stop = n.op != "and"              # and stops at a false operand, or at a true one
    out: Any = not stop
    for x in n.operands:
        v = ev(x, a, env)
        if v is U:
            out = U
        elif bool(v) == stop:
            return stop
    return out


def _quantified(n: ast.Quantified, a: View, env: dict[str, Any]) -> Any:
    which = groups_named(n.collection, isinstance(n.collection, ast.Name)
                         and n.collection.id in env)
    if which is not None:
        # some: at least one holds; no: none holds; every: none fails
        span = _count_groups(n.var, n.body, n.quantifier == "every", which == "melds", a, env)
        if n.quantifier == "some":
            return True if span.lo >= 1 else False if span.hi == 0 else U
        return True if span.hi == 0 else False if span.lo >= 1 else U
    coll = ev(n.collection, a, env)
    if is_open(coll):
        return U
    inner = dict(env)
    seen_open = False
    q = n.quantifier
    for x in coll:
        inner[n.var] = x
        v = ev(n.body, a, inner)
        if v is U:
            seen_open = True
        elif q == "some" and v:
            return True
        elif q == "every" and not v:
            return False
        elif q == "no" and v:
            return False
    return U if seen_open else q != "some"


def _count(n: ast.Count, a: View, env: dict[str, Any]) -> Any:
    which = groups_named(n.collection, isinstance(n.collection, ast.Name)
                         and n.collection.id in env)
    if which is not None:
        if n.condition is None:
            return U
        span = _count_groups(n.var, n.condition, False, which == "melds", a, env)
        return span.lo if span.lo == span.hi else span
    coll = ev(n.collection, a, env)
    if is_open(coll):
        return U
    if n.condition is None:
        return len(coll)
    inner = dict(env)
    lo = hi = 0
    for x in coll:
        inner[n.var] = x
        v = ev(n.condition, a, inner)
        if v is U:
            hi += 1
        elif v:
            lo += 1
            hi += 1
    return lo if lo == hi else Span(lo, hi)


def _count_groups(var: str, cond: Any, negate: bool, melds_only: bool, a: View,
                  env: dict[str, Any]) -> Span:
    """How many of the reading's groups (melds only if `melds_only`) meet `cond` (fail it
    if `negate`): the known groups counted exactly, the rest's by the key `cond` pins."""
    inner = dict(env)
    lo = hi = 0
    for g in a.members:
        if melds_only and g.shape == "pair":
            continue
        inner[var] = g
        v = ev(cond, a, inner)
        if v is U:
            hi += 1
        elif bool(v) != negate:
            lo += 1
            hi += 1
    key = None if negate else _pinned(cond, var, a, env)

    def judge(rest: RestGroup) -> Any:
        inner[var] = rest
        return ev(cond, a, inner)
    return rest_span(lo, hi, key, melds_only, a, judge)


def _pinned(cond: Any, var: str, a: View, env: dict[str, Any]) -> int | None:
    """The one group key a group meeting `cond` must have (`pin_key`), from the values of
    its pinning conjuncts' other sides read with the group unknown."""
    blind = dict(env)
    blind[var] = U                    # a side that reads the group itself is not a constant
    got: dict[str, Any] = {}
    for attr, other in pin_sides(cond, var):
        v = ev(other, a, blind)
        if not is_open(v):
            got[attr] = v
    return pin_key(got)
