"""Which patterns a place can still make true, read three-valued off their syntax trees.

A place's bound (places.py) counts every arrangement- and reading-level pattern its needs
allow as possible. Some are ruled out only by how the winning tile's group meets the rest of
the hand: a pattern may hold of a run holding the winning tile *unless* that run is the only
one of its kind while other runs exist, and whether another such run exists is a fact of the
rest. So the place search reads each such pattern on an *abstract reading*: the hand, the
winning tile and its group are known; the skeleton index is known for the queried keys
(`plan.query_keys`: the rest's reach says which it holds), the winning group's key and the
declared melds'; of the rest's groups only the queried keys they hold are known. A count
over the groups is then known as a range when its condition pins one group key (by shape
and kind, or shape, suit and rank). Anything else is unknown (`U`), and an unknown pattern
stays possible: only a false answer removes a pattern, and it is false for every reading of
the place with that rest, so the search stays exact (bench/agree.py).
"""
from __future__ import annotations

import operator
from typing import Any, Callable, Final

from rulekit.arrange import RawGroup
from rulekit.codes import (HONOR_START, KONG, NUM_KINDS, PAIR, RUN, SET, SUIT_SIZE, group_key,
                          key_first, key_shape)
from rulekit.dsl import ast
from rulekit.dsl.compile import CompiledPattern
from rulekit.dsl.vocabulary import CONSTANTS, FUNCTIONS, NAMES
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
_OPEN_ATTRS: Final = frozenset(["hun", "other_hun", "fills"])


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


# facts of the winning tile's group that its shape and hun decide (with the candidate's own)
_PLAIN_GROUP_READS: Final = frozenset([
    "win.group.shape", "win.group.hun", "win.group.other_hun", "win.group.declared",
    "win.group.concealed", "win.group.golden", "win.group.has_win"])


def spot_reads(patterns: tuple[CompiledPattern, ...], free: int) -> tuple[bool, bool]:
    """What the patterns of `free` can tell of a spot: (its whole group, or only its shape
    and hun; what the winning tile stands for). A pattern reads the whole group when it
    reads the reading's groups (the spot's is one), a fact of the group beyond its shape
    and hun, or makes a shape query (the index holds the spot's key)."""
    whole = stands = False
    for p in patterns:
        if not free & p.bit:
            continue
        for r in p.reads:
            if r == "win.stands_for":
                stands = True
            elif r in ("groups", "melds") or (r.startswith("win.group")
                                              and r not in _PLAIN_GROUP_READS):
                whole = True
        if not whole and p.tree is not None and _queries(p.tree):
            whole = True
    return whole, stands


def reads_rest(p: CompiledPattern) -> bool:
    """Can the rest of the hand decide `p` beyond its needs (it reads the reading's groups
    or makes a shape query)? Only such patterns are worth an abstract reading: the others
    a place decides by their needs alone (`Scorer.group_allows`)."""
    if p.tree is None:
        return False
    return bool({"groups", "melds"} & p.reads) or _queries(p.tree)


def _queries(n: Any) -> bool:
    """Does the tree make a shape query (run, set, pair)?"""
    if isinstance(n, ast.Call):
        return n.fn in ("run", "set", "pair") or any(_queries(x) for x in n.args)
    if isinstance(n, ast.Attr):
        return _queries(n.obj)
    if isinstance(n, ast.ListLit):
        return any(_queries(x) for x in n.items)
    if isinstance(n, (ast.Compare, ast.Arith)):
        return _queries(n.left) or _queries(n.right)
    if isinstance(n, ast.Not):
        return _queries(n.operand)
    if isinstance(n, ast.BoolOp):
        return any(_queries(x) for x in n.operands)
    if isinstance(n, ast.Quantified):
        return _queries(n.collection) or _queries(n.body)
    if isinstance(n, ast.Count):
        return _queries(n.collection) or (n.condition is not None and _queries(n.condition))
    if isinstance(n, ast.Comprehension):
        return _queries(n.collection) or _queries(n.expr)
    return False


def ruled_out(patterns: tuple[CompiledPattern, ...], free: int, view: View) -> int:
    """The bits of the patterns of `free` (in level order) that are false on `view`; a
    pattern found true or false is known to the patterns after it."""
    dead = 0
    facts = view.facts
    for p in patterns:
        b = p.bit
        if not free & b or p.tree is None:
            continue
        v = ev(p.tree, view, {})
        if v is True:
            facts.held |= b
            view.known |= b
        elif v is False:
            view.known |= b
            dead |= b
    return dead


def ev(n: Any, a: View, env: dict[str, Any]) -> Any:
    """The value of node `n` on the abstract reading `a`: a plain value, a `Span` or `U`.

    Nodes are told apart by their exact type (a pointer compare each; `isinstance` on a
    miss walks the class's bases, and this runs for every node of every reading); a type
    not listed reads as `U`, which keeps a pattern possible."""
    t = type(n)
    if t is ast.Attr:
        obj = ev(n.obj, a, env)
        if obj is U or isinstance(obj, Span):
            return U
        if isinstance(obj, RestGroup):
            return U if n.name in _OPEN_ATTRS else getattr(obj.fact, n.name)
        if isinstance(obj, HunFact) and n.name == "fills":
            return U
        return getattr(obj, n.name)
    if t is ast.Compare:
        return _compare(n.op, ev(n.left, a, env), ev(n.right, a, env))
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
        return U if any(_open(i) for i in items) else tuple(items)
    if t is ast.Not:
        v = ev(n.operand, a, env)
        return U if v is U else not v
    if t is ast.Arith:
        return _arith(n.op, ev(n.left, a, env), ev(n.right, a, env))
    if t is ast.Quantified:
        return _quantified(n, a, env)
    if t is ast.Count:
        return _count(n, a, env)
    return U                          # a comprehension: not read abstractly


def _open(v: Any) -> bool:
    return v is U or isinstance(v, Span)


def _name(name: str, a: View, env: dict[str, Any]) -> Any:
    if name in env:
        return env[name]
    if name in NAMES:
        return U if name in ("groups", "melds") else getattr(a.facts, name)
    if name in CONSTANTS:
        return CONSTANTS[name][1]
    bit = a.bits.get(name)
    if bit is not None and a.known & bit:
        return a.facts.held & bit != 0
    return U


def _call(n: ast.Call, a: View, env: dict[str, Any]) -> Any:
    args = [ev(x, a, env) for x in n.args]
    if any(_open(x) for x in args):
        return U
    if n.fn == "run":
        return _lookup(a, (run_key(args[0], args[1]),))
    if n.fn == "pair":
        return _lookup(a, (group_key(PAIR, args[0]),))
    if n.fn == "set":
        return _lookup(a, (group_key(SET, args[0]), group_key(KONG, args[0])))
    impl = FUNCTIONS[n.fn].impl
    return U if impl is None else impl(a.facts, *args)


def _lookup(a: View, keys: tuple[int, ...]) -> Any:
    """A shape query: true if a key is present, false if every key's absence is known."""
    index = a.facts.index
    if any(k in index for k in keys):
        return True
    return False if all(k < 0 or k in a.tracked for k in keys) else U


def _compare(op: str, left: Any, right: Any) -> Any:
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


def _arith(op: str, left: Any, right: Any) -> Any:
    if left is U or right is U:
        return U
    if not isinstance(left, Span) and not isinstance(right, Span):
        return left + right if op == "+" else left - right if op == "-" else left * right
    if op == "*":
        return U
    lo1, hi1 = (left.lo, left.hi) if isinstance(left, Span) else (left, left)
    lo2, hi2 = (right.lo, right.hi) if isinstance(right, Span) else (right, right)
    return Span(lo1 + lo2, hi1 + hi2) if op == "+" else Span(lo1 - hi2, hi1 - lo2)


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


def _of_groups(coll: Any, env: dict[str, Any]) -> str | None:
    """'groups' or 'melds' when the collection is the reading's groups, else None."""
    if isinstance(coll, ast.Name) and coll.id in ("groups", "melds") and coll.id not in env:
        return coll.id
    return None


def _quantified(n: ast.Quantified, a: View, env: dict[str, Any]) -> Any:
    which = _of_groups(n.collection, env)
    if which is not None:
        # some: at least one holds; no: none holds; every: none fails
        span = _count_groups(n.var, n.body, n.quantifier == "every", which == "melds", a, env)
        if n.quantifier == "some":
            return True if span.lo >= 1 else False if span.hi == 0 else U
        return True if span.hi == 0 else False if span.lo >= 1 else U
    coll = ev(n.collection, a, env)
    if _open(coll):
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
    which = _of_groups(n.collection, env)
    if which is not None:
        if n.condition is None:
            return U
        span = _count_groups(n.var, n.condition, False, which == "melds", a, env)
        return span.lo if span.lo == span.hi else span
    coll = ev(n.collection, a, env)
    if _open(coll):
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
    if key is None:
        return Span(lo, hi + a.rest_count)
    if key < 0 or (melds_only and key_shape(key) == PAIR):
        return Span(lo, hi)           # no group of the rest can have it
    if key in a.tracked and key not in a.rest_keys:
        return Span(lo, hi)
    inner[var] = RestGroup(key_shape(key), key_first(key))
    v = ev(cond, a, inner)
    if v is False:
        return Span(lo, hi)
    if v is True and key in a.rest_keys:
        lo += 1
    return Span(lo, hi + a.rest_count)


def _pinned(cond: Any, var: str, a: View, env: dict[str, Any]) -> int | None:
    """The one group key a group meeting `cond` must have, from its top-level conjuncts
    `var.shape == x` and `var.first == x` (or `kind`), or `.suit` and `.rank`; -1 when no
    group of the rest can have it (a kong, or no such kind); None when not pinned."""
    parts = cond.operands if isinstance(cond, ast.BoolOp) and cond.op == "and" else (cond,)
    blind = dict(env)
    blind[var] = U                    # a side that reads the group itself is not a constant
    got: dict[str, Any] = {}
    for c in parts:
        if not isinstance(c, ast.Compare) or c.op != "==":
            continue
        for side, other in ((c.left, c.right), (c.right, c.left)):
            if (isinstance(side, ast.Attr) and isinstance(side.obj, ast.Name)
                    and side.obj.id == var
                    and side.name in ("shape", "first", "kind", "suit", "rank")):
                v = ev(other, a, blind)
                if not _open(v):
                    got[side.name] = v
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
