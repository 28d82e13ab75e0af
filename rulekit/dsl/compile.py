"""AST → type-checked closures over `Facts`, once per ruleset load.

Each node becomes a `fn(facts, env)`; `env` is a list of quantifier-variable slots. Checking
happens in the same walk, so every closure that exists is well typed, and unknown names get a
"did you mean" from the vocabulary. Nothing is ever passed to `eval`. What a compiled pattern
reads, needs and costs is found by the analyses in `walk.py`, not here.
"""
from __future__ import annotations

import operator
from dataclasses import dataclass, field
from graphlib import CycleError, TopologicalSorter
from typing import Any, Callable, Final, Mapping

from rulekit import limits
from rulekit.dsl import ast, walk
from rulekit.dsl.abstract import AbstractFn, compile_abstract
from rulekit.dsl.budget import pattern_budget
from rulekit.dsl.parse import parse
from rulekit.codes import ARRANGEMENT, HAND, KONG, PAIR, SET, group_key
from rulekit.dsl.vocabulary import ATTRIBUTES, CONSTANTS, FUNCTIONS, NAMES, SKELETON
from rulekit.facts import SUIT_NAMES, run_key
from rulekit.errors import DslError, RulesetError

Fn = Callable[[Any, list[Any]], Any]
Hoist = tuple[int, Callable[[Any], Any], Callable[[Any], Any], bool]


@dataclass(frozen=True, slots=True)
class PatternSource:
    """A pattern as written: where it came from, so errors point into the YAML file."""

    id: str
    name: str
    text: str
    source: str = "<dsl>"
    line: int = 1          # file line of the expression's first line
    column: int = 1        # file column of the expression's first character


PatternFn = Callable[..., Any]     # fn(facts) -> truth


@dataclass(frozen=True, slots=True)
class CompiledPattern:
    id: str
    name: str
    fn: PatternFn
    dep: int                           # 0 hand, 1 arrangement, 2 reading (vocabulary.py)
    # group kinds (0-33) among the tile literals it names: the candidate kinds of an all-hun
    # group (scoring's wild domain); a flower literal names no kind a group can have
    tiles: frozenset[int] = field(default_factory=frozenset)
    ranks: frozenset[int] = field(default_factory=frozenset)   # ranks it names
    # conditions every arrangement where it holds must meet: (fact path, value, equal?)
    needs: frozenset[tuple[str, Any, bool]] = field(default_factory=frozenset)
    refs: frozenset[str] = field(default_factory=frozenset)    # patterns it reads
    # for a skeleton-level pattern that reads the arrangement only through run()/set()/
    # pair() with arguments known when compiling: every index key it can ask about. Its
    # truth then depends only on which of these keys a skeleton has (see scoring/search.py).
    queries: frozenset[int] | None = None
    # every fact path it reads off a top-level name (`win.group.shape`, `hun.suit`, `groups`):
    # the scorer may share a result between hands that agree on all of them
    reads: frozenset[str] = field(default_factory=frozenset)
    # steps one evaluation may take (`walk.cost`): the scorer counts them per hand, so that
    # the static budget's assumption (limits.py) also holds for hands it did not foresee
    steps: int = 1
    # its bit in a mask of patterns (`Facts.held`, the scorer's pattern sets): 1 << its place
    # among the ruleset's patterns in source order; 0 for a condition (forbid, ...)
    bit: int = 0
    # its syntax tree, kept for the scorer's three-valued reading of it on a place
    # (`scoring.abstract`): what the rest of the hand can still make of it
    tree: Any = field(default=None, compare=False, repr=False)
    # whether its tree makes a shape query (run, set, pair) anywhere (`walk.shape_queries`)
    shape_queries: bool = False
    # its abstract reading compiled (`dsl.abstract`), for an arrangement- or reading-level
    # pattern the rest of the hand can decide beyond its needs (it reads the reading's
    # groups or makes a shape query): what the place search asks of it; else None
    abstract: AbstractFn | None = field(default=None, compare=False, repr=False)

    def excludes(self, other: "CompiledPattern") -> bool:
        """True when both can never hold together (one needs path == a, the other != a)."""
        mine = {(p, v): eq for p, v, eq in self.needs}
        for p, v, eq in other.needs:
            if (p, v) in mine and mine[(p, v)] != eq:
                return True
            if eq and any(q == p and e and w != v for (q, w), e in mine.items()):
                return True
        return False


# one test of a fact path against a constant: (the path's getter, the constant, equal?)
Test = tuple[Callable[[Any], Any], Any, bool]


@dataclass(slots=True)
class _Typed:
    type: str
    dep: int
    fn: Fn
    const: Any = None
    is_const: bool = False
    # the getter of the fact path this node reads (`win.group.shape`): comparisons with it
    # call the getter itself instead of a closure around it
    getter: Callable[[Any], Any] | None = None
    # a condition that is a conjunction: its leading path-versus-constant tests, and the
    # closures for the rest of its operands, in order (None: not a conjunction). The entry
    # point runs the tests inline, before it makes a slot list (`_entry`)
    tests: tuple[Test, ...] = ()
    rest: tuple[Fn, ...] | None = None
    # a path off a loop variable (`g.suit` in `count(g in groups: ...)`): its slot and the
    # getter of the rest of the path, so a comparison reads it in its own closure
    slot_getter: tuple[int, Callable[[Any], Any]] | None = None
    # `g.path == fact.path` (or `!=`, `g` a loop variable): (slot, g's getter, the fact
    # path's getter, equal); a count reads the fact path once per call (`_count_all`)
    hoist: Hoist | None = None
    # a conjunction's `hoist` for each closure of `rest` (None where it has none)
    rest_hoists: tuple[Hoist | None, ...] = ()


def _const(type_: str, value: Any) -> _Typed:
    return _Typed(type_, HAND, lambda f, env: value, value, True)


_CMP = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
        ">": operator.gt, ">=": operator.ge}
_ARITH = {"+": operator.add, "-": operator.sub, "*": operator.mul}


class _Compiler:
    """Type-checks one pattern's tree and emits its closures (one walk, nothing else)."""

    def __init__(self, src: PatternSource, patterns: dict[str, int],
                 all_ids: frozenset[str] = frozenset(),
                 bits: dict[str, int] | None = None) -> None:
        self.src = src
        self.all_ids = all_ids             # every pattern id, for suggestions
        self.patterns = patterns           # known pattern ids → dep level (filled in order)
        self.bits = bits or {}             # pattern id → its bit (`CompiledPattern.bit`)
        self.scopes: list[dict[str, tuple[int, str]]] = []
        self.nslots = 0

    def error(self, msg: str, pos: ast.Pos) -> DslError:
        return DslError(msg, source=self.src.source, line=pos.line, column=pos.column,
                        text=_line(self.src.text, pos.line))

    def suggest(self, name: str, options: Any) -> str:
        # never the name itself: "unknown name 'x'; did you mean 'x'?" helps nobody
        import difflib                      # only for a misspelt name
        close = difflib.get_close_matches(name, [o for o in options if o != name], n=1,
                                          cutoff=0.6)
        return f"; did you mean '{close[0]}'?" if close else ""

    def lookup_var(self, name: str) -> tuple[int, str] | None:
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        return None

    # -- the walk -------------------------------------------------------------------------
    def c(self, n: ast.Node) -> _Typed:
        method = getattr(self, "c_" + type(n).__name__)
        result: _Typed = method(n)
        return result

    def c_Num(self, n: ast.Num) -> _Typed:
        return _const("int", n.value)

    def c_TileLit(self, n: ast.TileLit) -> _Typed:
        return _const("tile", n.kind)

    def c_BoolLit(self, n: ast.BoolLit) -> _Typed:
        return _const("bool", n.value)

    def c_Name(self, n: ast.Name) -> _Typed:
        var = self.lookup_var(n.id)
        if var is not None:
            slot, type_ = var
            return _Typed(type_, HAND, lambda f, env: env[slot])   # its loop's level counts
        if n.id in NAMES:
            entry = NAMES[n.id]
            getter = operator.attrgetter(n.id)
            return _Typed(entry.type, entry.dep, lambda f, env: getter(f), getter=getter)
        if n.id in CONSTANTS:
            type_, value = CONSTANTS[n.id]
            return _const(type_, value)
        if n.id == self.src.id:
            raise self.error(f"pattern '{n.id}' refers to itself", n.pos)
        if n.id in self.patterns:
            bit = self.bits[n.id]         # a pattern reads another's truth off the mask
            return _Typed("bool", self.patterns[n.id], lambda f, env: f.held & bit != 0)
        if n.id in FUNCTIONS:
            raise self.error(f"'{n.id}' is a function: call it as {n.id}(...)", n.pos)
        known = [*NAMES, *CONSTANTS, *self.all_ids, *(v for s in self.scopes for v in s)]
        raise self.error(f"unknown name '{n.id}'{self.suggest(n.id, known)}", n.pos)

    def c_Attr(self, n: ast.Attr) -> _Typed:
        obj = self.c(n.obj)
        attrs = ATTRIBUTES.get(obj.type)
        if attrs is None:
            raise self.error(f"{_show(obj.type)} has no attributes (no '.{n.name}')", n.pos)
        if n.name not in attrs:
            raise self.error(f"a {obj.type} has no attribute '{n.name}'"
                             f"{self.suggest(n.name, attrs)}", n.pos)
        entry = attrs[n.name]
        dep = max(obj.dep, entry.dep)
        chain = walk.chain(n)
        if chain is not None and self.lookup_var(chain[0]) is None:
            # a path off the facts object, e.g. win.group.shape: one C-level getter
            getter = operator.attrgetter(".".join(chain))
            return _Typed(entry.type, dep, lambda f, env: getter(f), getter=getter)
        if chain is not None:
            slot = self.lookup_var(chain[0])[0]  # type: ignore[index]
            getter = operator.attrgetter(".".join(chain[1:]))
            return _Typed(entry.type, dep, lambda f, env: getter(env[slot]),
                          slot_getter=(slot, getter))
        getter = operator.attrgetter(n.name)
        inner = obj.fn
        return _Typed(entry.type, dep, lambda f, env: getter(inner(f, env)))

    def c_Call(self, n: ast.Call) -> _Typed:
        fn = FUNCTIONS.get(n.fn)
        if fn is None:
            raise self.error(f"unknown function '{n.fn}'{self.suggest(n.fn, FUNCTIONS)}", n.pos)
        if len(n.args) != len(fn.params):
            raise self.error(f"{n.fn}() takes {len(fn.params)} argument"
                             f"{'s' if len(fn.params) != 1 else ''}, got {len(n.args)}", n.pos)
        args = [self.c(a) for a in n.args]
        for a, want, node in zip(args, fn.params, n.args):
            ok = a.type.startswith("list:") if want == "list:*" else a.type == want
            if not ok:
                raise self.error(f"{n.fn}() wants {_show(want)}, got {_show(a.type)}",
                                 _pos_of(node))
        result = args[0].type if fn.result == "same" else fn.result
        fns = [a.fn for a in args]
        dep = max([fn.dep, *(a.dep for a in args)])
        if fn.impl is None:                    # run(), set(), pair(): skeleton index lookups
            return _Typed(result, dep, _shape_query(n.fn, args))
        impl = fn.impl
        if len(fns) == 1:
            a0 = fns[0]
            return _Typed(result, dep, lambda f, env: impl(f, a0(f, env)))
        a0, a1 = fns[0], fns[1]
        return _Typed(result, dep, lambda f, env: impl(f, a0(f, env), a1(f, env)))

    def c_ListLit(self, n: ast.ListLit) -> _Typed:
        items = [self.c(i) for i in n.items]
        types = {i.type for i in items}
        if len(types) > 1:
            raise self.error("a list mixes " + " and ".join(sorted(_show(t) for t in types)),
                             n.pos)
        type_ = "list:" + (types.pop() if types else "any")
        if all(i.is_const for i in items):
            return _const(type_, tuple(i.const for i in items))
        fns = [i.fn for i in items]
        return _Typed(type_, max((i.dep for i in items), default=HAND),
                      lambda f, env: tuple(x(f, env) for x in fns))

    def c_Compare(self, n: ast.Compare) -> _Typed:
        left, right = self.c(n.left), self.c(n.right)
        lf, rf = left.fn, right.fn
        dep = max(left.dep, right.dep)
        if n.op == "in":
            if not right.type.startswith("list:"):
                raise self.error(f"'in' needs a list on its right, got {_show(right.type)}",
                                 n.pos)
            elem = right.type[5:]
            if elem not in ("any", left.type):
                raise self.error(f"{_show(left.type)} is never in a list of {_show(elem)}",
                                 n.pos)
            if right.is_const:
                values = frozenset(right.const)
                get = left.getter
                if get is not None:
                    return _Typed("bool", dep, lambda f, env: get(f) in values)
                return _Typed("bool", dep, lambda f, env: lf(f, env) in values)
            return _Typed("bool", dep, lambda f, env: lf(f, env) in rf(f, env))
        if left.type != right.type:
            raise self.error(f"cannot compare {_show(left.type)} with {_show(right.type)}",
                             n.pos)
        if n.op not in ("==", "!=") and left.type != "int":
            raise self.error(f"'{n.op}' compares numbers, not {_show(left.type)}", n.pos)
        op = _CMP[n.op]
        if right.is_const and left.getter is not None and n.op in ("==", "!="):
            return _test(left.getter, right.const, n.op == "==", dep)
        if left.slot_getter is not None and n.op in ("==", "!="):
            hoist: Hoist | None = None
            if not right.is_const and right.getter is not None:
                hoist = (left.slot_getter[0], left.slot_getter[1], right.getter, n.op == "==")
            return _Typed("bool", dep, _slot_compare(left.slot_getter, right, n.op == "=="),
                          hoist=hoist)
        if right.is_const:
            value = right.const
            if n.op == "==":              # the operator inline: no call to `operator.eq`
                return _Typed("bool", dep, lambda f, env: lf(f, env) == value)
            if n.op == "!=":
                return _Typed("bool", dep, lambda f, env: lf(f, env) != value)
            return _Typed("bool", dep, lambda f, env: op(lf(f, env), value))
        return _Typed("bool", dep, lambda f, env: op(lf(f, env), rf(f, env)))

    def c_Arith(self, n: ast.Arith) -> _Typed:
        left, right = self.c(n.left), self.c(n.right)
        if left.type != "int" or right.type != "int":
            raise self.error(f"'{n.op}' works on numbers, not "
                             f"{_show(left.type if left.type != 'int' else right.type)}",
                             n.pos)
        op, lf, rf = _ARITH[n.op], left.fn, right.fn
        top = 1 << limits.INT_BITS
        error, src = self.error, self.src

        def arith(f: Any, env: list[Any]) -> int:
            value: int = op(lf(f, env), rf(f, env))
            if -top < value < top:
                return value
            # the loader proves every number in bounds (`walk.oversized`): this is the second
            # line, should a fact ever hold more than that proof assumes
            at = _relocate(error("", n.pos), src)
            raise RulesetError([f"{at.source}:{at.line}:{at.column}: pattern '{src.id}': a "
                                f"number grew past {limits.INT_BITS} bits while scoring (the "
                                "most a pattern may compute)"])
        return _Typed("int", max(left.dep, right.dep), arith)

    def _bool(self, n: ast.Node) -> _Typed:
        t = self.c(n)
        if t.type != "bool":
            raise self.error(f"expected a condition (true/false), got {_show(t.type)}",
                             _pos_of(n))
        return t

    def c_Not(self, n: ast.Not) -> _Typed:
        inner = self._bool(n.operand)
        fn = inner.fn
        return _Typed("bool", inner.dep, lambda f, env: not fn(f, env))

    def c_BoolOp(self, n: ast.BoolOp) -> _Typed:
        parts = [self._bool(o) for o in n.operands]
        # cheap, arrangement-independent operands first: they decide most hands
        parts.sort(key=lambda p: p.dep)
        fns = tuple(p.fn for p in parts)
        dep = max(p.dep for p in parts)
        if n.op == "and":
            return _conjunction(parts, dep)
        if len(fns) == 2:
            a, b = fns
            return _Typed("bool", dep, lambda f, env: bool(a(f, env) or b(f, env)))
        if len(fns) == 3:
            a, b, c = fns
            return _Typed("bool", dep,
                          lambda f, env: bool(a(f, env) or b(f, env) or c(f, env)))

        def or_(f: Any, env: list[Any]) -> bool:
            for x in fns:
                if x(f, env):
                    return True
            return False
        return _Typed("bool", dep, or_)

    def _bind(self, var: str, coll_node: ast.Node, pos: ast.Pos) -> tuple[_Typed, int]:
        coll = self.c(coll_node)
        if not coll.type.startswith("list:"):
            raise self.error(f"'{var} in ...' needs a list, got {_show(coll.type)}", pos)
        if var in NAMES or var in CONSTANTS or var in FUNCTIONS:
            raise self.error(f"'{var}' is a built-in name; pick another variable name", pos)
        slot = self.nslots
        self.nslots += 1
        self.scopes.append({var: (slot, coll.type[5:])})
        return coll, slot

    def c_Quantified(self, n: ast.Quantified) -> _Typed:
        coll, slot = self._bind(n.var, n.collection, n.pos)
        body = self._bool(n.body)
        self.scopes.pop()
        cf, bf = coll.fn, body.fn
        q = n.quantifier

        def quant(f: Any, env: list[Any]) -> bool:
            for x in cf(f, env):
                env[slot] = x
                if bf(f, env):
                    if q == "some":
                        return True
                    if q == "no":
                        return False
                elif q == "every":
                    return False
            return q != "some"
        return _Typed("bool", max(coll.dep, body.dep), quant)

    def c_Count(self, n: ast.Count) -> _Typed:
        coll, slot = self._bind(n.var, n.collection, n.pos)
        cond = self._bool(n.condition) if n.condition is not None else None
        self.scopes.pop()
        cf = coll.fn
        if cond is None:
            return _Typed("int", coll.dep, lambda f, env: len(cf(f, env)))
        bf = cond.fn
        if cond.rest is not None and not cond.tests:
            return _Typed("int", max(coll.dep, cond.dep),
                          _count_all(cf, slot, cond.rest, cond.rest_hoists))

        def count(f: Any, env: list[Any]) -> int:
            k = 0
            for x in cf(f, env):
                env[slot] = x
                if bf(f, env):
                    k += 1
            return k
        return _Typed("int", max(coll.dep, cond.dep), count)

    def c_Comprehension(self, n: ast.Comprehension) -> _Typed:
        coll, slot = self._bind(n.var, n.collection, n.pos)
        body = self.c(n.expr)
        self.scopes.pop()
        cf, bf = coll.fn, body.fn

        def comp(f: Any, env: list[Any]) -> tuple[Any, ...]:
            out = []
            for x in cf(f, env):
                env[slot] = x
                out.append(bf(f, env))
            return tuple(out)
        return _Typed("list:" + body.type, max(coll.dep, body.dep), comp)


_UNREAD: Final = object()


def _count_all(cf: Fn, slot: int, fns: tuple[Fn, ...], hoists: tuple[Hoist | None, ...]
               ) -> Fn:
    """`count(x in xs: a and b ...)` whose condition is a conjunction of closures: the loop
    runs the operands itself, in order, instead of calling the conjunction per element. An
    operand `x.path == fact.path` reads the fact path once per call, when first reached
    (the facts do not change while a pattern is judged), and compares inline."""
    n = len(fns)
    if len(hoists) != n:
        hoists = (None,) * n

    def count(f: Any, env: list[Any]) -> int:
        k = 0
        vals = [_UNREAD] * n
        for x in cf(f, env):
            env[slot] = x
            for i in range(n):
                h = hoists[i]
                if h is None:
                    if not fns[i](f, env):
                        break
                    continue
                s, get, rget, equal = h
                v = vals[i]
                if v is _UNREAD:
                    v = vals[i] = rget(f)
                if equal:
                    if not get(env[s]) == v:
                        break
                elif not get(env[s]) != v:
                    break
            else:
                k += 1
        return k
    return count


def _shape_query(fn: str, args: list[_Typed]) -> Fn:
    """run(s, r) / set(t) / pair(t) as one int lookup in the facts' skeleton index."""
    if fn == "run":
        sf, rf = args[0].fn, args[1].fn
        if args[1].is_const:
            r = args[1].const
            if args[0].is_const:
                key = run_key(args[0].const, r)
                return lambda f, env: key in f.index
            keys = {s: run_key(s, r) for s in SUIT_NAMES}
            get = args[0].getter
            if get is not None:           # a fact path (`win.group.suit`): its getter itself
                return lambda f, env: keys[get(f)] in f.index
            return lambda f, env: keys[sf(f, env)] in f.index
        return lambda f, env: run_key(sf(f, env), rf(f, env)) in f.index
    tf = args[0].fn
    if fn == "pair":
        return lambda f, env: group_key(PAIR, tf(f, env)) in f.index
    return lambda f, env: (group_key(SET, tf(f, env)) in f.index
                           or group_key(KONG, tf(f, env)) in f.index)


def _pos_of(n: ast.Node) -> ast.Pos:
    return n.pos


def _show(type_: str) -> str:
    if type_.startswith("list:"):
        return f"a list of {type_[5:]}"
    return {"int": "a number", "bool": "a condition", "tile": "a tile", "suit": "a suit",
            "shape": "a shape", "group": "a group"}.get(type_, f"a {type_}")


def _line(text: str, line: int) -> str:
    lines = text.splitlines()
    return limits.excerpt(lines[line - 1]) if 0 < line <= len(lines) else ""


def _relocate(err: DslError, src: PatternSource) -> DslError:
    """Expression-relative position → position in the YAML file."""
    line = src.line + err.line - 1
    column = err.column + (src.column - 1 if err.line == 1 else 0)
    return DslError(err.message, source=src.source, line=line, column=column, text=err.text,
                    caret=err.caret)


def _test(get: Callable[[Any], Any], value: Any, equal: bool, dep: int) -> _Typed:
    """`path == constant` (or `!=`): the path's getter called directly, one closure in all
    (a comparison of two closures costs three calls); a test a conjunction can fold."""
    if equal:
        return _Typed("bool", dep, lambda f, env: get(f) == value, tests=((get, value, True),),
                      rest=())
    return _Typed("bool", dep, lambda f, env: get(f) != value, tests=((get, value, False),),
                  rest=())


def _slot_compare(left: tuple[int, Callable[[Any], Any]], right: _Typed, equal: bool) -> Fn:
    """`g.path == x` (or `!=`) for a loop variable `g`, with `x` a constant, a fact path or
    another loop variable's path: one closure that calls the getters itself (a comparison
    of two closures costs three calls more, once per element of the loop)."""
    slot, get = left
    if right.is_const:
        value = right.const
        if equal:
            return lambda f, env: get(env[slot]) == value
        return lambda f, env: get(env[slot]) != value
    if right.getter is not None:
        rget = right.getter
        if equal:
            return lambda f, env: get(env[slot]) == rget(f)
        return lambda f, env: get(env[slot]) != rget(f)
    if right.slot_getter is not None:
        rslot, rsget = right.slot_getter
        if equal:
            return lambda f, env: get(env[slot]) == rsget(env[rslot])
        return lambda f, env: get(env[slot]) != rsget(env[rslot])
    rf = right.fn
    if equal:
        return lambda f, env: get(env[slot]) == rf(f, env)
    return lambda f, env: get(env[slot]) != rf(f, env)


def _passes(tests: tuple[Test, ...], f: Any) -> bool:
    """Every path-versus-constant test holds on the facts `f`."""
    for get, value, equal in tests:
        if equal:
            if get(f) != value:
                return False
        elif get(f) == value:
            return False
    return True


def _conjunction(parts: list[_Typed], dep: int) -> _Typed:
    """`a and b and ...`, in the operands' order: the leading tests of its leading operands
    (a test, or a conjunction that starts with tests) become its own leading tests, so a
    pattern such as `win.group.shape == pair and win.group.other_hun == 1` is one closure
    that calls two getters, and its entry point runs them inline (`_entry`)."""
    tests: tuple[Test, ...] = ()
    rest: list[Fn] = []
    hoists: list[Hoist | None] = []
    for p in parts:
        if not rest and p.rest is not None:
            tests += p.tests
            rest.extend(p.rest)
            hoists.extend(p.rest_hoists if len(p.rest_hoists) == len(p.rest)
                          else [None] * len(p.rest))
        else:
            rest.append(p.fn)
            hoists.append(p.hoist)
    fns = tuple(rest)
    rest_hoists = tuple(hoists)
    if not fns:
        return _Typed("bool", dep, lambda f, env: _passes(tests, f), tests=tests, rest=fns)

    def and_(f: Any, env: list[Any]) -> bool:
        if not _passes(tests, f):
            return False
        for x in fns:
            if not x(f, env):
                return False
        return True
    return _Typed("bool", dep, and_, tests=tests, rest=fns, rest_hoists=rest_hoists)


def _entry(body: _Typed, nslots: int) -> PatternFn:
    """The pattern's entry point, fn(facts). A conjunction's leading tests run inline, first:
    they decide most evaluations, before the slot list of quantifier variables is made.
    A fresh slot list per call keeps evaluation re-entrant."""
    if body.is_const:
        truth = bool(body.const)
        return lambda f: truth
    if body.getter is not None and not nslots:
        return body.getter                 # a bool fact (`context.kong_draw`): its getter
    tests, fns = body.tests, body.rest
    empty: list[Any] = []
    if fns is None or (fns and not tests):
        fn = body.fn
        if nslots:
            return lambda f: fn(f, [None] * nslots)
        return lambda f: fn(f, empty)
    if not fns:
        if len(tests) == 1:
            get, value, equal = tests[0]
            if equal:
                return lambda f: get(f) == value
            return lambda f: get(f) != value
        return lambda f: _passes(tests, f)

    def entry(f: Any) -> bool:
        if not _passes(tests, f):
            return False
        env = [None] * nslots if nslots else empty
        for x in fns:
            if not x(f, env):
                return False
        return True
    return entry


def _order(graph: dict[str, set[str]], by_id: dict[str, PatternSource],
           errors: list[DslError]) -> tuple[list[str], set[str]]:
    """Dependency order, and the patterns on a cycle. Each cycle is reported once and its
    edges dropped, so that every other pattern is still checked."""
    cyclic: set[str] = set()
    while True:
        try:
            return list(TopologicalSorter(graph).static_order()), cyclic
        except CycleError as err:
            cycle: list[str] = list(err.args[1])
            s = by_id[cycle[0]]
            errors.append(DslError("patterns refer to each other in a circle: "
                                   + " -> ".join(cycle), source=s.source, line=s.line,
                                   column=s.column))
            for a, b in zip(cycle, cycle[1:]):
                graph.get(a, set()).discard(b)
                graph.get(b, set()).discard(a)
            cyclic.update(cycle)


def compile_patterns(sources: list[PatternSource],
                     parsed: Mapping[str, ast.Node] | None = None
                     ) -> tuple[list[CompiledPattern], list[DslError]]:
    """Compile a ruleset's patterns in dependency order; return them and every error found.
    `parsed`: the syntax trees of some texts, already known (a trusted built-in's,
    `ruleset.prebuilt`); the others are parsed here (lark is loaded only then)."""
    errors: list[DslError] = []
    trees: dict[str, ast.Node] = {}
    by_id = {s.id: s for s in sources}
    for s in sources:
        tree = parsed.get(s.text) if parsed is not None else None
        if tree is not None:
            trees[s.id] = tree
            continue
        try:
            trees[s.id] = parse(s.text, s.source)
        except DslError as err:
            errors.append(_relocate(err, s))
    graph = {pid: {r for r in walk.references(t) if r in by_id and r != pid}
             for pid, t in trees.items()}
    order, cyclic = _order(graph, by_id, errors)
    compiled: list[CompiledPattern] = []
    # a pattern that fails (parse error, cycle) still counts as known, so that the patterns
    # reading it report only their own mistakes
    known: dict[str, int] = {pid: 0 for pid in by_id if pid not in trees or pid in cyclic}
    queries: dict[str, frozenset[int] | None] = {}
    needs: dict[str, frozenset[tuple[str, Any, bool]]] = {}
    bits = {pid: 1 << i for i, pid in enumerate([p for p in by_id if ":" not in p])}
    for pid in order:
        if pid not in trees:
            continue
        s = by_id[pid]
        comp = _Compiler(s, known, frozenset(i for i in by_id if ":" not in i), bits)
        try:
            typed = comp._bool(trees[pid])
        except DslError as err:
            errors.append(_relocate(err, s))
            known[pid] = 0
            continue
        big = walk.oversized(trees[pid])
        if big is not None:
            errors.append(_relocate(comp.error(
                f"numbers here may grow past {limits.INT_BITS} bits (about "
                f"{limits.INT_DIGITS} digits), the most a pattern may compute: a product is "
                "as long as its operands together", big.pos), s))
            known[pid] = 0
            continue
        fn = _entry(typed, comp.nslots)
        tree = trees[pid]
        seen = walk.Analysis(pid, known, queries).run(tree)
        known[pid] = typed.dep
        needs[pid] = frozenset(walk.needs(trees[pid], needs))
        queries[pid] = (frozenset(seen.queries) if seen.queries is not None
                        and typed.dep == SKELETON else None)
        reads = frozenset(walk.reads(tree))
        shaped = walk.shape_queries(tree)
        rest_read = typed.dep >= ARRANGEMENT and (shaped or "groups" in reads
                                                  or "melds" in reads)
        compiled.append(CompiledPattern(pid, s.name, fn, typed.dep, frozenset(seen.tiles),
                                        frozenset(seen.ranks), needs[pid],
                                        frozenset(seen.refs), queries[pid], reads,
                                        walk.cost(tree), bits.get(pid, 0), tree, shaped,
                                        compile_abstract(tree) if rest_read else None))
    deps = {c.id: c.dep for c in compiled}
    steps = {c.id: c.steps for c in compiled}
    errors += _work_errors([(s, deps[s.id], steps[s.id]) for s in sources if s.id in deps])
    return compiled, errors


def _work_errors(costs: list[tuple[PatternSource, int, int]]) -> list[DslError]:
    """The scoring work budget (limits.py): each pattern's steps per evaluation, and all of
    them per hand, an arrangement-level pattern counting ARRANGEMENT_EVALS times."""
    budget = pattern_budget()
    errors = [DslError(f"pattern '{s.id}' too costly: one evaluation may take {steps:,} steps "
                       f"(at most {budget:,}); nested loops multiply their "
                       f"lists' sizes (hand.tiles holds 18)",
                       source=s.source, line=s.line, column=s.column)
              for s, _, steps in costs if steps > budget]
    if errors:
        return errors
    per_hand = [(steps * (limits.ARRANGEMENT_EVALS if dep else 1), s) for s, dep, steps in costs]
    total = sum(w for w, _ in per_hand)
    if total <= limits.HAND_STEPS:
        return []
    worst = sorted(per_hand, key=lambda x: -x[0])[:3]
    # shown at the pattern that takes the running total over (a parent's patterns come
    # first in `sources`): the one an author just added, not one a parent defines
    running = 0
    for w, s in per_hand:
        running += w
        if running > limits.HAND_STEPS:
            break
    names = ", ".join(f"'{src.id}' {w:,}" for w, src in worst)
    return [DslError(f"patterns too costly together: one hand may take {total:,} steps (at "
                     f"most {limits.HAND_STEPS:,}; a pattern that reads the arrangement counts "
                     f"{limits.ARRANGEMENT_EVALS:,} times); the costliest: {names}",
                     source=s.source, line=s.line, column=s.column)]
