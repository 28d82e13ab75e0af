"""Walking a pattern's syntax tree, and the analyses the scorer and the loader read off it.

One definition of a node's children (`children`, in field order) serves every walk; the
analyses beside it are small functions or visitors over a tree that has compiled (so names
and types are right), and none evaluates anything:

- `references`: every name a tree mentions (the loader's dependency graph);
- `reads`: the fact paths it reads (`win.group.shape`), for the scorer's shared results;
- `needs`: what every arrangement where it holds must meet (mutually exclusive patterns);
- `Analysis`: the patterns it reads, the tiles and ranks it names, and the skeleton index
  keys it asks about (`queries`);
- `cost`: the static work bound (limits.py).

`compile.py` type-checks and emits closures; it calls these after a pattern compiles.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator

from rulekit import limits

from rulekit.codes import KONG, NUM_KINDS, PAIR, SET, group_key
from rulekit.dsl import ast
from rulekit.dsl.vocabulary import ATTRIBUTES, CONSTANTS, FUNCTIONS, NAMES, SKELETON
from rulekit.facts import run_key

# a list whose size the vocabulary does not give (a comprehension of lists): the most tiles
# a hand holds, every list the DSL can build being made from a hand's tiles and groups
UNKNOWN_SIZE = 18

Binder = ast.Quantified | ast.Count | ast.Comprehension


def children(n: ast.Node) -> tuple[ast.Node, ...]:
    """The node's sub-expressions, in field order (a binder's collection before its body,
    except a comprehension, whose expression is written first)."""
    if isinstance(n, ast.Attr):
        return (n.obj,)
    if isinstance(n, (ast.Call,)):
        return n.args
    if isinstance(n, ast.ListLit):
        return n.items
    if isinstance(n, (ast.Compare, ast.Arith)):
        return (n.left, n.right)
    if isinstance(n, ast.Not):
        return (n.operand,)
    if isinstance(n, ast.BoolOp):
        return n.operands
    if isinstance(n, ast.Quantified):
        return (n.collection, n.body)
    if isinstance(n, ast.Count):
        return (n.collection,) if n.condition is None else (n.collection, n.condition)
    if isinstance(n, ast.Comprehension):
        return (n.expr, n.collection)
    return ()


def chain(n: ast.Node) -> list[str] | None:
    """['win', 'group', 'shape'] for a plain attribute chain off a name, else None."""
    names: list[str] = []
    while isinstance(n, ast.Attr):
        names.append(n.name)
        n = n.obj
    if not isinstance(n, ast.Name):
        return None
    names.append(n.id)
    return names[::-1]


def shape_queries(n: ast.Node) -> bool:
    """Does the tree make a shape query (run, set, pair) anywhere?"""
    return any(isinstance(x, ast.Call) and x.fn in ("run", "set", "pair") for x in walk(n))


def walk(n: ast.Node) -> Iterator[ast.Node]:
    """Every node of the tree, `n` first (depth first, no recursion)."""
    stack = [n]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(reversed(children(node)))


def body_of(n: Binder) -> ast.Node | None:
    """What a binder evaluates per element (None: a `count` without a condition)."""
    if isinstance(n, ast.Quantified):
        return n.body
    if isinstance(n, ast.Count):
        return n.condition
    return n.expr


# -- names and paths ---------------------------------------------------------------------------

def references(tree: ast.Node) -> set[str]:
    """Every name the tree mentions, bound variables included (a superset of its patterns)."""
    return {n.id for n in walk(tree) if isinstance(n, ast.Name)}


def path(n: ast.Node) -> str | None:
    """`win.group.shape` for an attribute chain off a top-level name, else None."""
    if isinstance(n, ast.Name) and n.id in NAMES:
        return n.id
    if isinstance(n, ast.Attr):
        inner = path(n.obj)
        return f"{inner}.{n.name}" if inner else None
    return None


def reads(tree: ast.Node) -> set[str]:
    """The fact paths the tree reads: whole chains, never their prefixes."""
    out: set[str] = set()
    stack = [tree]
    while stack:
        n = stack.pop()
        p = path(n)
        if p is not None:
            out.add(p)
        else:
            stack.extend(children(n))
    return out


def const_value(n: ast.Node) -> tuple[bool, Any]:
    """(True, value) for an expression known while compiling (a literal, a constant, a list
    of them), else (False, None): what the compiler folds to a constant."""
    if isinstance(n, (ast.Num, ast.BoolLit)):
        return True, n.value
    if isinstance(n, ast.TileLit):
        return True, n.kind
    if isinstance(n, ast.Name):
        if n.id not in NAMES and n.id in CONSTANTS:
            return True, CONSTANTS[n.id][1]
        return False, None
    if isinstance(n, ast.ListLit):
        values = [const_value(i) for i in n.items]
        if all(known for known, _ in values):
            return True, tuple(v for _, v in values)
    return False, None


def _literal(n: ast.Node) -> tuple[bool, Any]:
    if isinstance(n, (ast.Num, ast.BoolLit)):
        return True, n.value
    if isinstance(n, ast.TileLit):
        return True, n.kind
    if isinstance(n, ast.Name) and n.id in CONSTANTS:
        return True, CONSTANTS[n.id][1]
    return False, None


def needs(n: ast.Node, patterns: dict[str, frozenset[tuple[str, Any, bool]]]
          ) -> set[tuple[str, Any, bool]]:
    """Facts a condition requires: its top-level conjuncts of the form `path == constant`.

    Sound but partial: anything more complex requires nothing. Lets the scorer know that,
    say, 混吊 (pair) and 雙混吊 (not a pair) never hold together, so its bound is reachable.
    """
    if isinstance(n, ast.BoolOp) and n.op == "and":
        out: set[tuple[str, Any, bool]] = set()
        for o in n.operands:
            out |= needs(o, patterns)
        return out
    if isinstance(n, ast.Compare) and n.op in ("==", "!="):
        p, (is_lit, value) = path(n.left), _literal(n.right)
        if p and is_lit:
            return {(p, value, n.op == "==")}
        return set()
    if isinstance(n, ast.Not):
        p = path(n.operand)
        return {(p, True, False)} if p else set()
    p = path(n)
    if p:
        return {(p, True, True)}
    if isinstance(n, ast.Name) and n.id in patterns:
        return set(patterns[n.id])
    return set()


# -- types, sizes and number bounds, as the compiler found them ---------------------------------

@dataclass(frozen=True, slots=True)
class Extent:
    """What the loader knows of a value before any hand: its type; for a list, the most items
    it holds at each level of nesting (`sizes`, outermost first; () for a non-list); and an
    upper bound on the bit length of every number in it (`bits`, 0 when it holds none).
    Bits, not magnitudes: a magnitude bound of a hostile product is itself a huge number."""

    type: str
    sizes: tuple[int, ...] = ()
    bits: int = 0

    @property
    def size(self) -> int:
        """How many items the value holds at most (0 for a non-list)."""
        return self.sizes[0] if self.sizes else 0

    @property
    def flat(self) -> int:
        """How many scalars it holds at most, at every level (1 for a non-list): the work of
        comparing two such values."""
        out = 1
        for n in self.sizes:
            out *= max(n, 1)
        return out


SCALAR_BOOL = Extent("bool")
# the bit length of any number a fact holds (a count of tiles, hun, kongs or flowers; a rank):
# all are below 256 (limits.FACT_BITS)
FACT_INT = Extent("int", (), limits.FACT_BITS)


class Scope:
    """Quantifier variables in force: name → the extent of the value it takes."""

    def __init__(self) -> None:
        self.vars: list[dict[str, Extent]] = []

    def find(self, name: str) -> Extent | None:
        for frame in reversed(self.vars):
            if name in frame:
                return frame[name]
        return None


def element(coll: ast.Node, scope: Scope) -> tuple[Extent, int]:
    """The extent of one item of the list `coll`, and how many items it holds at most."""
    ext = extent(coll, scope)
    elem_type = ext.type[5:] if ext.type.startswith("list:") else "any"
    return Extent(elem_type, ext.sizes[1:], ext.bits), ext.size


def type_size(n: ast.Node, scope: Scope) -> tuple[str, int]:
    """The type of `n` and, for a list, the most items it holds (0 for a non-list)."""
    ext = extent(n, scope)
    return ext.type, ext.size


def _widest(exts: list[Extent]) -> tuple[tuple[int, ...], int]:
    """The sizes and bits that bound every one of `exts` (items of one list)."""
    depth = max((len(e.sizes) for e in exts), default=0)
    sizes = tuple(max((e.sizes[i] for e in exts if i < len(e.sizes)), default=0)
                  for i in range(depth))
    return sizes, max((e.bits for e in exts), default=0)


def extent(n: ast.Node, scope: Scope) -> Extent:
    """The extent of `n` (see `Extent`); sound for every tree that compiled."""
    if isinstance(n, ast.Name):
        var = scope.find(n.id)
        if var is not None:
            return var
        if n.id in NAMES:
            e = NAMES[n.id]
            return Extent(e.type, (e.size,) if e.type.startswith("list:") else ())
        if n.id in CONSTANTS:
            type_, value = CONSTANTS[n.id]
            return Extent(type_, (len(value),) if isinstance(value, tuple) else ())
        return SCALAR_BOOL                          # a pattern reference
    if isinstance(n, ast.Attr):
        entry = ATTRIBUTES.get(extent(n.obj, scope).type, {}).get(n.name)
        if entry is None:
            return Extent("any", (UNKNOWN_SIZE,))
        if entry.type == "int":
            return FACT_INT
        return Extent(entry.type, (entry.size,) if entry.type.startswith("list:") else ())
    if isinstance(n, ast.ListLit):
        items = [extent(i, scope) for i in n.items]
        sizes, bits = _widest(items)
        return Extent("list:" + (items[0].type if items else "any"), (len(items), *sizes), bits)
    if isinstance(n, ast.Comprehension):
        elem, size = element(n.collection, scope)
        scope.vars.append({n.var: elem})
        try:
            item = extent(n.expr, scope)
        finally:
            scope.vars.pop()
        return Extent("list:" + item.type, (size, *item.sizes), item.bits)
    if isinstance(n, ast.Call):
        return _call_extent(n, scope)
    if isinstance(n, ast.Num):
        return Extent("int", (), abs(n.value).bit_length())
    if isinstance(n, ast.Count):
        return Extent("int", (), element(n.collection, scope)[1].bit_length())
    if isinstance(n, ast.Arith):
        return Extent("int", (), arith_bits(n.op, extent(n.left, scope).bits,
                                            extent(n.right, scope).bits))
    if isinstance(n, ast.TileLit):
        return Extent("tile")
    return SCALAR_BOOL


def _call_extent(n: ast.Call, scope: Scope) -> Extent:
    fn = FUNCTIONS.get(n.fn)
    if fn is not None and fn.result == "same" and n.args:
        return extent(n.args[0], scope)             # distinct(xs): at most xs's size
    if n.fn == "len" and n.args:
        return Extent("int", (), extent(n.args[0], scope).size.bit_length())
    result = fn.result if fn is not None else "any"
    return FACT_INT if result == "int" else Extent(result)


def arith_bits(op: str, left: int, right: int) -> int:
    """A bound on the bit length of `a op b` for operands of at most `left` and `right` bits:
    a product's size is its operands' sizes added, a sum's one bit more than the larger. Capped
    just above limits.INT_BITS, so that the bound of a hostile chain stays a small number."""
    bits = left + right if op == "*" else max(left, right) + 1
    return min(bits, limits.INT_BITS + 1)


def words(bits: int) -> int:
    """Machine words (64 bits) of a number of `bits` bits: what big-number arithmetic costs."""
    return bits // 64 + 1


def oversized(tree: ast.Node) -> ast.Arith | None:
    """The first arithmetic node whose result may exceed limits.INT_BITS bits, or None: the
    loader refuses such a pattern (a number squared twenty times has millions of digits)."""
    return _Oversized().find(tree)


class _Oversized:
    def __init__(self) -> None:
        self.scope = Scope()

    def find(self, n: ast.Node) -> ast.Arith | None:
        if isinstance(n, (ast.Quantified, ast.Count, ast.Comprehension)):
            hit = self.find(n.collection)
            if hit is not None:
                return hit
            self.scope.vars.append({n.var: element(n.collection, self.scope)[0]})
            try:
                body = body_of(n)
                return self.find(body) if body is not None else None
            finally:
                self.scope.vars.pop()
        for c in children(n):
            hit = self.find(c)
            if hit is not None:
                return hit
        if isinstance(n, ast.Arith) and extent(n, self.scope).bits > limits.INT_BITS:
            return n
        return None


# -- what a compiled pattern reads -----------------------------------------------------------------

class Analysis:
    """One walk of a compiled pattern, in the compiler's order (a binder's collection, then
    its variable, then its body; a node after its sub-expressions), collecting:

    - `refs`: the patterns it reads (names not bound by a quantifier);
    - `tiles`: the kinds 0-33 its tile literals name; `ranks`: the ranks it names (a
      constant second argument of `run`, a constant compared with a rank);
    - `queries`: for a skeleton-level pattern that reads the arrangement only through
      run()/set()/pair() with arguments known while compiling, every index key it can ask
      about; None when it reads the skeleton any other way.
    """

    def __init__(self, own_id: str, patterns: dict[str, int],
                 pattern_queries: dict[str, frozenset[int] | None]) -> None:
        self.own_id = own_id
        self.patterns = patterns                  # known pattern ids → dependence level
        self.pattern_queries = pattern_queries
        self.scope = Scope()
        self.const_vars: dict[str, tuple[Any, ...]] = {}
        self.refs: set[str] = set()
        self.tiles: set[int] = set()
        self.ranks: set[int] = set()
        self.queries: set[int] | None = set()

    def run(self, tree: ast.Node) -> "Analysis":
        self.visit(tree)
        return self

    def visit(self, n: ast.Node) -> None:
        if isinstance(n, (ast.Quantified, ast.Count, ast.Comprehension)):
            self.visit(n.collection)
            known, value = const_value(n.collection)
            if known:
                self.const_vars[n.var] = tuple(value)
            else:
                self.const_vars.pop(n.var, None)
            self.scope.vars.append({n.var: element(n.collection, self.scope)[0]})
            body = body_of(n)
            if body is not None:
                self.visit(body)
            self.scope.vars.pop()
            return
        for c in children(n):
            self.visit(c)
        self.leave(n)

    def leave(self, n: ast.Node) -> None:
        if isinstance(n, ast.TileLit) and n.kind < NUM_KINDS:
            self.tiles.add(n.kind)
        elif isinstance(n, ast.Name):
            self._name(n)
        elif isinstance(n, ast.Attr):
            entry = ATTRIBUTES.get(type_size(n.obj, self.scope)[0], {}).get(n.name)
            if entry is not None and entry.dep >= SKELETON:
                self.queries = None
        elif isinstance(n, ast.Call):
            self._call(n)
        elif isinstance(n, ast.Compare) and _reads_rank(n.left):
            known, value = const_value(n.right)
            if known:
                values = value if isinstance(value, tuple) else (value,)
                self.ranks.update(v for v in values if isinstance(v, int))

    def _name(self, n: ast.Name) -> None:
        if self.scope.find(n.id) is not None:
            return
        if n.id in NAMES:
            if NAMES[n.id].dep >= SKELETON:
                self.queries = None
            return
        if n.id in CONSTANTS or n.id == self.own_id or n.id not in self.patterns:
            return
        self.refs.add(n.id)
        if self.patterns[n.id] == SKELETON:
            theirs = self.pattern_queries.get(n.id)
            if theirs is None or self.queries is None:
                self.queries = None
            else:
                self.queries |= theirs

    def _call(self, n: ast.Call) -> None:
        if n.fn == "run" and len(n.args) == 2:
            known, value = const_value(n.args[1])
            if known:
                self.ranks.add(value)
        if n.fn not in ("run", "set", "pair") or self.queries is None:
            return
        values = [self._values(a) for a in n.args]
        if any(v is None for v in values):
            self.queries = None
        elif n.fn == "run":
            self.queries |= {run_key(su, r) for su in values[0] for r in values[1]}  # type: ignore[union-attr]
        elif n.fn == "pair":
            self.queries |= {group_key(PAIR, t) for t in values[0]}  # type: ignore[union-attr]
        else:
            self.queries |= {group_key(k, t) for t in values[0] for k in (SET, KONG)}  # type: ignore[union-attr]

    def _values(self, n: ast.Node) -> tuple[Any, ...] | None:
        """Every value an argument can take, when that is known while compiling."""
        known, value = const_value(n)
        if known:
            return (value,)
        if isinstance(n, ast.Name) and n.id in self.const_vars:
            return self.const_vars[n.id]
        return None


def _reads_rank(n: ast.Node) -> bool:
    return ((isinstance(n, ast.Attr) and n.name == "rank")
            or (isinstance(n, ast.Call) and n.fn == "rank"))


# -- the work bound ------------------------------------------------------------------------------

def cost(node: ast.Node) -> int:
    """Steps one evaluation of `node` may take at most (see limits.py).

    The unit is a *step*: one node evaluated once (a closure call in compile.py). A
    quantifier, `count` or comprehension over a list costs its list's cost plus, for each
    item it can hold, one step and its body's cost; `x in list` scans the list, item by item
    (a list item costs what comparing it costs). List sizes come from the vocabulary
    (`hand.tiles` at most 18, `groups` 5, `suits` 3, ...) and from the literals, so nesting
    multiplies them: four nested `some ... in hand.tiles` cost about 18**4 * body. An
    arithmetic node costs the product of its operands' sizes in machine words (`words`):
    one step for the numbers a hand holds, more for the big numbers a pattern could build
    (bounded by limits.INT_BITS, `oversized`). Recursion depth is bounded by parse()
    (limits.DSL_DEPTH).
    """
    return _cost(node, Scope())


def _cost(n: ast.Node, scope: Scope) -> int:
    if isinstance(n, (ast.Quantified, ast.Count, ast.Comprehension)):
        coll_cost = _cost(n.collection, scope)
        elem, size = element(n.collection, scope)
        scope.vars.append({n.var: elem})
        try:
            body = body_of(n)
            body_cost = _cost(body, scope) if body is not None else 0
        finally:
            scope.vars.pop()
        return 1 + coll_cost + size * (1 + body_cost)
    if isinstance(n, ast.Compare):
        left, right = extent(n.left, scope), extent(n.right, scope)
        if n.op == "in":
            own = right.size * element(n.right, scope)[0].flat
        else:
            own = left.flat - 1                     # comparing lists: item by item
        return 1 + own + _cost(n.left, scope) + _cost(n.right, scope)
    if isinstance(n, ast.Arith):
        left, right = extent(n.left, scope), extent(n.right, scope)
        return (words(left.bits) * words(right.bits) + _cost(n.left, scope)
                + _cost(n.right, scope))
    if isinstance(n, ast.Call):
        own = 1
        if n.fn == "distinct" and n.args:
            own += extent(n.args[0], scope).flat
        return own + sum(_cost(a, scope) for a in n.args)
    return 1 + sum(_cost(c, scope) for c in children(n))
