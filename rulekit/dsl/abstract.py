"""A pattern read three-valued on what a place knows (the *abstract reading*), compiled once.

The place search (`scoring.places`) asks of a pattern that reads the rest of the hand
whether any reading of a place, with a rest holding given queried keys, can make it true
(`scoring.abstract.ruled_out`). What is known is a `View`: the hand, the winning tile and
its group, the declared melds, the queried keys the rest holds and how many groups it
forms. A value the view cannot tell is `U`; a count over the reading's groups is a `Span`
when the rest may add to it; only a pattern found false is left out of a place's bound.

Each pattern that can be asked is compiled here to closures `fn(view, slots)` when its
ruleset loads (`dsl.compile.compile_patterns`, `CompiledPattern.abstract`), as its concrete
evaluation is: no tree is walked while a hand is scored. The closures answer exactly as
the tree interpreter they replace (kept as tests/abstract_reference.py, and pinned to it
by tests/test_abstract_compiled.py): same values, same order of evaluation.
"""
from __future__ import annotations

import operator
from typing import Any, Callable, Final

from rulekit.arrange import RawGroup
from rulekit.codes import (HONOR_START, KONG, NUM_KINDS, PAIR, RUN, SET, SUIT_SIZE, group_key,
                          key_first, key_shape)
from rulekit.dsl import ast
from rulekit.dsl.vocabulary import CONSTANTS, FUNCTIONS, NAMES
from rulekit.dsl.walk import chain
from rulekit.facts import SUIT_NAMES, Facts, GroupFact, HunFact, run_key


class _Unknown:
    """The value of what an abstract reading cannot tell."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "U"


U: Final = _Unknown()

_SHAPE_CODE: Final = {"run": RUN, "set": SET, "pair": PAIR, "kong": KONG}
_CMP: Final[dict[str, Callable[[Any, Any], bool]]] = {
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
    ">": operator.gt, ">=": operator.ge}
# a group of the rest: these of its facts depend on its hun, which the reach does not tell
OPEN_ATTRS: Final = frozenset(["hun", "other_hun", "fills"])
# the attributes of a counted group that can pin the one key it must have (`pinned_key`)
PIN_ATTRS: Final = ("shape", "first", "kind", "suit", "rank")


class Span:
    """An int known to lie in [lo, hi] (a count over groups the rest partly decides)."""

    __slots__ = ("lo", "hi")

    def __init__(self, lo: int, hi: int) -> None:
        self.lo = lo
        self.hi = hi


class RestGroup:
    """A group of the rest known by its key only: shape, kind, suit, rank and tiles are
    its key's; it is concealed, undeclared and does not hold the winning tile."""

    __slots__ = ("fact",)

    def __init__(self, shape: int, first: int) -> None:
        self.fact = GroupFact(RawGroup(shape, first, ()), False, False)


class View:
    """What an abstract reading knows: `facts` (its `held` the patterns known true, its
    `index` the keys known present), the mask of patterns whose truth is known, the keys
    whose absence the index proves, the queried keys the rest's groups hold, the groups
    known whole (the winning tile's, the declared melds) and how many groups the rest forms.
    """

    __slots__ = ("facts", "known", "tracked", "rest_keys", "members", "rest_count", "bits")

    def __init__(self, facts: Facts, known: int, tracked: frozenset[int],
                 rest_keys: frozenset[int], members: tuple[GroupFact, ...], rest_count: int,
                 bits: dict[str, int]) -> None:
        self.facts = facts
        self.known = known
        self.tracked = tracked
        self.rest_keys = rest_keys
        self.members = members
        self.rest_count = rest_count
        self.bits = bits


# -- the values' rules, shared by the compiled closures and the reference interpreter ----

def is_open(v: Any) -> bool:
    """Is `v` not a plain value (unknown, or a range)?"""
    return v is U or isinstance(v, Span)


def attr_of(obj: Any, name: str) -> Any:
    """`obj.name` on an abstract reading: unknown off an unknown value or a range, and for
    the facts of a rest's group that its hun decide (or the hand's hun's `fills`)."""
    if obj is U or isinstance(obj, Span):
        return U
    if isinstance(obj, RestGroup):
        return U if name in OPEN_ATTRS else getattr(obj.fact, name)
    if isinstance(obj, HunFact) and name == "fills":
        return U
    return getattr(obj, name)


def pattern_value(a: View, name: str) -> Any:
    """Another pattern's truth, if the view knows it."""
    bit = a.bits.get(name)
    if bit is not None and a.known & bit:
        return a.facts.held & bit != 0
    return U


def shape_query(a: View, fn: str, args: list[Any]) -> Any:
    """run(s, r) / pair(t) / set(t) on plain arguments."""
    if fn == "run":
        return lookup(a, (run_key(args[0], args[1]),))
    if fn == "pair":
        return lookup(a, (group_key(PAIR, args[0]),))
    return lookup(a, (group_key(SET, args[0]), group_key(KONG, args[0])))


def lookup(a: View, keys: tuple[int, ...]) -> Any:
    """A shape query: true if a key is present, false if every key's absence is known."""
    index = a.facts.index
    if any(k in index for k in keys):
        return True
    return False if all(k < 0 or k in a.tracked for k in keys) else U


def compare(op: str, left: Any, right: Any) -> Any:
    """`left op right`, ranges compared by their bounds."""
    if left is U or right is U:
        return U
    if op == "in":
        return U if isinstance(left, Span) or isinstance(right, Span) else left in right
    if not isinstance(left, Span) and not isinstance(right, Span):
        return _CMP[op](left, right)
    lo1, hi1 = (left.lo, left.hi) if isinstance(left, Span) else (left, left)
    lo2, hi2 = (right.lo, right.hi) if isinstance(right, Span) else (right, right)
    if op in ("==", "!="):
        if lo1 == hi1 == lo2 == hi2:
            return op == "=="
        if hi1 < lo2 or hi2 < lo1:
            return op == "!="
        return U
    if op in (">", ">="):               # a > b is b < a
        lo1, hi1, lo2, hi2 = lo2, hi2, lo1, hi1
        op = "<" if op == ">" else "<="
    if (hi1 < lo2) if op == "<" else (hi1 <= lo2):
        return True
    if (lo1 >= hi2) if op == "<" else (lo1 > hi2):
        return False
    return U


def arith(op: str, left: Any, right: Any) -> Any:
    """`left op right`; a sum or difference of ranges is a range, their product unknown."""
    if left is U or right is U:
        return U
    if not isinstance(left, Span) and not isinstance(right, Span):
        return left + right if op == "+" else left - right if op == "-" else left * right
    if op == "*":
        return U
    lo1, hi1 = (left.lo, left.hi) if isinstance(left, Span) else (left, left)
    lo2, hi2 = (right.lo, right.hi) if isinstance(right, Span) else (right, right)
    return Span(lo1 + lo2, hi1 + hi2) if op == "+" else Span(lo1 - hi2, hi1 - lo2)


def pin_key(got: dict[str, Any]) -> int | None:
    """The one group key a counted group must have, from the values its conjuncts pin
    (`shape`, and `first` or `kind`, or `suit` and `rank`); -1 when no group of the rest
    can have it (a kong, or no such kind); None when not pinned."""
    shape = _SHAPE_CODE.get(got.get("shape", ""))
    if shape is None:
        return None
    first = got.get("first", got.get("kind"))
    if first is None:
        suit, rank = got.get("suit"), got.get("rank")
        if suit is None or rank is None:
            return None
        if suit not in SUIT_NAMES or not 1 <= rank <= (SUIT_SIZE if suit != "zi" else 7):
            return -1
        first = SUIT_NAMES.index(suit) * SUIT_SIZE + rank - 1
    if shape == KONG or not 0 <= first < NUM_KINDS:
        return -1
    if shape == RUN and (first >= HONOR_START or first % SUIT_SIZE > 6):
        return -1
    return group_key(shape, first)


def pin_sides(cond: ast.Node, var: str) -> list[tuple[str, ast.Node]]:
    """The conjuncts of `cond` (its top level) that compare `var.<pin attribute>` for
    equality: each attribute with the other side, in the order the conjuncts are read."""
    parts = cond.operands if isinstance(cond, ast.BoolOp) and cond.op == "and" else (cond,)
    out: list[tuple[str, ast.Node]] = []
    for c in parts:
        if not isinstance(c, ast.Compare) or c.op != "==":
            continue
        for side, other in ((c.left, c.right), (c.right, c.left)):
            if (isinstance(side, ast.Attr) and isinstance(side.obj, ast.Name)
                    and side.obj.id == var and side.name in PIN_ATTRS):
                out.append((side.name, other))
    return out


def groups_named(coll: ast.Node, bound: bool) -> str | None:
    """'groups' or 'melds' when the collection is the reading's groups (a name no loop
    variable shadows: `bound` tells), else None."""
    if isinstance(coll, ast.Name) and coll.id in ("groups", "melds") and not bound:
        return coll.id
    return None


def rest_span(lo: int, hi: int, key: int | None, melds_only: bool, a: View,
              judge: Callable[[RestGroup], Any]) -> Span:
    """A count over the reading's groups, `lo`..`hi` from the groups known whole, widened
    by the rest's: exact for a pinned `key` the rest's reach tells (`judge` reads the
    condition on a group of that key), else every rest group may count."""
    if key is None:
        return Span(lo, hi + a.rest_count)
    if key < 0 or (melds_only and key_shape(key) == PAIR):
        return Span(lo, hi)           # no group of the rest can have it
    if key in a.tracked and key not in a.rest_keys:
        return Span(lo, hi)
    v = judge(RestGroup(key_shape(key), key_first(key)))
    if v is False:
        return Span(lo, hi)
    if v is True and key in a.rest_keys:
        lo += 1
    return Span(lo, hi + a.rest_count)


# -- the compiler --------------------------------------------------------------------------

Slots = list[Any]
AFn = Callable[[View, Slots], Any]
AbstractFn = Callable[[View], Any]


def compile_abstract(tree: ast.Node) -> AbstractFn:
    """The pattern's abstract reading, fn(view) -> a plain value, a `Span` or `U`. A fresh
    slot list per call keeps it re-entrant."""
    c = _Compiler()
    fn = c.node(tree)
    n = c.nslots
    if n:
        return lambda a: fn(a, [None] * n)
    empty: Slots = []
    return lambda a: fn(a, empty)


def _const(value: Any) -> AFn:
    return lambda a, env: value


class _Compiler:
    """One walk of a (type-checked) tree into closures; loop variables get slots, as in
    `dsl.compile`."""

    def __init__(self) -> None:
        self.scopes: list[dict[str, int]] = []
        self.nslots = 0

    def slot_of(self, name: str) -> int | None:
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        return None

    def node(self, n: ast.Node) -> AFn:
        """A comprehension reads as `U`, which keeps a pattern possible."""
        if isinstance(n, ast.Attr):
            return self.attr(n)
        if isinstance(n, ast.Compare):
            return self.compare(n)
        if isinstance(n, ast.Name):
            return self.name(n.id)
        if isinstance(n, (ast.Num, ast.BoolLit)):
            return _const(n.value)
        if isinstance(n, ast.TileLit):
            return _const(n.kind)
        if isinstance(n, ast.BoolOp):
            return _bool_op(n.op != "and", tuple(self.node(x) for x in n.operands))
        if isinstance(n, ast.Call):
            return self.call(n)
        if isinstance(n, ast.ListLit):
            return self.list_lit(n)
        if isinstance(n, ast.Not):
            return _not(self.node(n.operand))
        if isinstance(n, ast.Arith):
            return _arith(n.op, self.node(n.left), self.node(n.right))
        if isinstance(n, ast.Quantified):
            return self.quantified(n)
        if isinstance(n, ast.Count):
            return self.count(n)
        return _const(U)

    def name(self, name: str) -> AFn:
        slot = self.slot_of(name)
        if slot is not None:
            return lambda a, env: env[slot]
        if name in NAMES:
            if name in ("groups", "melds"):
                return _const(U)
            get = operator.attrgetter(name)
            return lambda a, env: get(a.facts)
        if name in CONSTANTS:
            return _const(CONSTANTS[name][1])
        return lambda a, env: pattern_value(a, name)

    def attr(self, n: ast.Attr) -> AFn:
        path = chain(n)
        if path is not None and self.slot_of(path[0]) is None and path[0] in NAMES \
                and path[0] not in ("groups", "melds") and "fills" not in path:
            # a path off the facts (`win.group.shape`): every step is a fact, never U, a
            # range or a rest's group, so one C-level getter reads it
            get = operator.attrgetter(".".join(path))
            return lambda a, env: get(a.facts)
        name = n.name
        obj = n.obj
        if isinstance(obj, ast.Name):
            slot = self.slot_of(obj.id)
            if slot is not None:      # a loop variable's attribute: read its slot itself
                return lambda a, env: attr_of(env[slot], name)
        inner = self.node(obj)
        return lambda a, env: attr_of(inner(a, env), name)

    def compare(self, n: ast.Compare) -> AFn:
        op = n.op
        lf, rf = self.node(n.left), self.node(n.right)
        if op == "==" and _is_const(n.right):
            value = _const_value(n.right)

            def eq_const(a: View, env: Slots) -> Any:
                left = lf(a, env)
                if left is U:
                    return U
                if isinstance(left, Span):
                    return compare(op, left, value)
                return left == value
            return eq_const
        return lambda a, env: compare(op, lf(a, env), rf(a, env))

    def call(self, n: ast.Call) -> AFn:
        fns = tuple(self.node(x) for x in n.args)
        fn = n.fn
        query = fn in ("run", "pair", "set")
        impl = FUNCTIONS[fn].impl

        def call(a: View, env: Slots) -> Any:
            args = [f(a, env) for f in fns]
            for x in args:
                if x is U or isinstance(x, Span):
                    return U
            if query:
                return shape_query(a, fn, args)
            return U if impl is None else impl(a.facts, *args)
        return call

    def list_lit(self, n: ast.ListLit) -> AFn:
        if all(_is_const(i) for i in n.items):
            items = tuple(_const_value(i) for i in n.items)
            return _const(items)
        fns = tuple(self.node(i) for i in n.items)

        def list_lit(a: View, env: Slots) -> Any:
            items = [f(a, env) for f in fns]
            return U if any(is_open(i) for i in items) else tuple(items)
        return list_lit

    def groups_of(self, coll: ast.Node) -> str | None:
        bound = isinstance(coll, ast.Name) and self.slot_of(coll.id) is not None
        return groups_named(coll, bound)

    def bind(self, var: str) -> int:
        slot = self.nslots
        self.nslots += 1
        self.scopes.append({var: slot})
        return slot

    def quantified(self, n: ast.Quantified) -> AFn:
        which = self.groups_of(n.collection)
        if which is not None:
            span = self.groups_count(n.var, n.body, n.quantifier == "every", which == "melds")
            if n.quantifier == "some":
                return lambda a, env: _some(span(a, env))
            return lambda a, env: _none(span(a, env))
        coll = self.node(n.collection)
        slot = self.bind(n.var)
        body = self.node(n.body)
        self.scopes.pop()
        return _quantified(n.quantifier, coll, slot, body)

    def count(self, n: ast.Count) -> AFn:
        which = self.groups_of(n.collection)
        if which is not None:
            if n.condition is None:
                return _const(U)
            span = self.groups_count(n.var, n.condition, False, which == "melds")
            return lambda a, env: _exact(span(a, env))
        coll = self.node(n.collection)
        slot = self.bind(n.var)
        cond = self.node(n.condition) if n.condition is not None else None
        self.scopes.pop()
        return _count(coll, slot, cond)

    def groups_count(self, var: str, cond: ast.Node, negate: bool, melds_only: bool
                     ) -> Callable[[View, Slots], Span]:
        """How many of the reading's groups (melds only if `melds_only`) meet `cond` (fail
        it if `negate`): the known groups counted exactly, the rest's by the key `cond`
        pins."""
        slot = self.bind(var)
        fn = self.node(cond)
        # the sides a pinned key is read from, with the loop variable unknown (`pinned`)
        sides = tuple((attr, self.node(other)) for attr, other in pin_sides(cond, var))
        self.scopes.pop()
        return _groups_count(slot, fn, negate, melds_only, None if negate else sides)


def _is_const(n: ast.Node) -> bool:
    """A literal or a vocabulary constant (not shadowed: a loop variable may not be named
    as a built-in, `dsl.compile`)."""
    return (type(n) is ast.Num or type(n) is ast.BoolLit or type(n) is ast.TileLit
            or (isinstance(n, ast.Name) and n.id in CONSTANTS))


def _const_value(n: ast.Node) -> Any:
    if isinstance(n, ast.TileLit):
        return n.kind
    if isinstance(n, ast.Name):
        return CONSTANTS[n.id][1]
    assert isinstance(n, (ast.Num, ast.BoolLit))
    return n.value


def _not(fn: AFn) -> AFn:
    def not_(a: View, env: Slots) -> Any:
        v = fn(a, env)
        return U if v is U else not v
    return not_


def _arith(op: str, lf: AFn, rf: AFn) -> AFn:
    return lambda a, env: arith(op, lf(a, env), rf(a, env))


def _bool_op(stop: bool, fns: tuple[AFn, ...]) -> AFn:
    """`and` stops at a false operand, `or` (`stop`) at a true one; an unknown operand
    makes the result unknown unless a later one decides it."""
    def bool_op(a: View, env: Slots) -> Any:
        out: Any = not stop
        for x in fns:
            v = x(a, env)
            if v is U:
                out = U
            elif bool(v) == stop:
                return stop
        return out
    return bool_op


def _some(span: Span) -> Any:
    return True if span.lo >= 1 else False if span.hi == 0 else U


def _none(span: Span) -> Any:
    """`no` (none holds) and `every` (none fails, counted negated)."""
    return True if span.hi == 0 else False if span.lo >= 1 else U


def _exact(span: Span) -> Any:
    return span.lo if span.lo == span.hi else span


def _quantified(q: str, coll: AFn, slot: int, body: AFn) -> AFn:
    def quantified(a: View, env: Slots) -> Any:
        items = coll(a, env)
        if is_open(items):
            return U
        seen_open = False
        for x in items:
            env[slot] = x
            v = body(a, env)
            if v is U:
                seen_open = True
            elif q == "some" and v:
                return True
            elif q == "every" and not v:
                return False
            elif q == "no" and v:
                return False
        return U if seen_open else q != "some"
    return quantified


def _count(coll: AFn, slot: int, cond: AFn | None) -> AFn:
    def count(a: View, env: Slots) -> Any:
        items = coll(a, env)
        if is_open(items):
            return U
        if cond is None:
            return len(items)
        lo = hi = 0
        for x in items:
            env[slot] = x
            v = cond(a, env)
            if v is U:
                hi += 1
            elif v:
                lo += 1
                hi += 1
        return lo if lo == hi else Span(lo, hi)
    return count


def _groups_count(slot: int, fn: AFn, negate: bool, melds_only: bool,
                  sides: tuple[tuple[str, AFn], ...] | None
                  ) -> Callable[[View, Slots], Span]:
    def groups_count(a: View, env: Slots) -> Span:
        lo = hi = 0
        for g in a.members:
            if melds_only and g.shape == "pair":
                continue
            env[slot] = g
            v = fn(a, env)
            if v is U:
                hi += 1
            elif bool(v) != negate:
                lo += 1
                hi += 1
        key = None
        if sides is not None:
            env[slot] = U             # a side that reads the group itself is not a constant
            got: dict[str, Any] = {}
            for attr, side in sides:
                v = side(a, env)
                if not is_open(v):
                    got[attr] = v
            key = pin_key(got)

        def judge(rest: RestGroup) -> Any:
            env[slot] = rest
            return fn(a, env)
        return rest_span(lo, hi, key, melds_only, a, judge)
    return groups_count
