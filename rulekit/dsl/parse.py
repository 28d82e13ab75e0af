"""Text → AST. The grammar is `grammar/pattern.lark`, built once per process, when first needed.

The LALR tables are built in memory (about 50 ms) and never cached on disk: lark's
`cache=True` unpickles a file of predictable name in the shared temp directory, which anyone
on the machine could plant. Pattern text is bounded in size, nesting and number length
(`rulekit.limits`) before and after parsing, so no input reaches a RecursionError.

lark itself is imported on the first `parse` (~40 ms): a process that loads only built-in
rulesets takes their trees from `rulekit.ruleset.prebuilt` and never needs it.
"""
from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any, List

from rulekit import limits, resources
from rulekit.codes import FLOWER_START, HONOR_START, TIAO_START, TONG_START, WAN_START
from rulekit.dsl import ast
from rulekit.dsl.walk import children
from rulekit.errors import DslError

if TYPE_CHECKING:
    from lark import Lark, Token, Tree
    from lark.exceptions import UnexpectedInput

_TILE_BASE = {"m": WAN_START, "p": TONG_START, "s": TIAO_START, "z": HONOR_START,
              "f": FLOWER_START}


@lru_cache(maxsize=1)
def _parser() -> Lark:
    from lark import Lark
    # no cache=True: it would unpickle a planted file from the shared temp dir
    return Lark(resources.grammar_text("pattern.lark"), parser="lalr",
                propagate_positions=True, maybe_placeholders=True)


def _pos(meta_or_tok: Any) -> ast.Pos:
    return ast.Pos(getattr(meta_or_tok, "line", 1) or 1, getattr(meta_or_tok, "column", 1) or 1)


@lru_cache(maxsize=1)
def _to_ast() -> Any:
    """The parse tree → AST transformer class (made on first use: it subclasses lark's)."""
    from lark import Transformer, v_args

    @v_args(meta=True)
    class _ToAst(Transformer):  # type: ignore[type-arg]
        def number(self, meta: Any, c: List[Token]) -> ast.Num:
            if len(c[0]) > limits.INT_DIGITS:
                raise DslError(f"number too long ({len(c[0])} digits; at most "
                               f"{limits.INT_DIGITS})", line=c[0].line or 1,
                               column=c[0].column or 1)
            return ast.Num(int(c[0]), _pos(c[0]))

        def tile(self, meta: Any, c: List[Token]) -> ast.TileLit:
            t = str(c[0])
            rank, suit = int(t[0]), t[1]
            if (suit == "z" and rank > 7) or (suit == "f" and rank > 8):
                raise DslError(f"no tile '{t}'", line=c[0].line or 1, column=c[0].column or 1)
            return ast.TileLit(_TILE_BASE[suit] + rank - 1, t, _pos(c[0]))

        def true(self, meta: Any, c: List[Token]) -> ast.BoolLit:
            return ast.BoolLit(True, _pos(c[0]))

        def false(self, meta: Any, c: List[Token]) -> ast.BoolLit:
            return ast.BoolLit(False, _pos(c[0]))

        def name(self, meta: Any, c: List[Token]) -> ast.Name:
            return ast.Name(str(c[0]), _pos(c[0]))

        def attr(self, meta: Any, c: List[Any]) -> ast.Attr:
            return ast.Attr(c[0], str(c[1]), _pos(c[1]))

        def args(self, meta: Any, c: List[Any]) -> tuple[Any, ...]:
            return tuple(c)

        def call(self, meta: Any, c: List[Any]) -> ast.Call:
            return ast.Call(str(c[0]), c[1] or (), _pos(c[0]))

        def list(self, meta: Any, c: List[Any]) -> ast.ListLit:  # noqa: UP006 (shadowed)
            return ast.ListLit(c[0] or (), _pos(meta))

        def comparison(self, meta: Any, c: List[Any]) -> ast.Compare:
            return ast.Compare(str(c[1]), c[0], c[2], _pos(c[1]))

        def membership(self, meta: Any, c: List[Any]) -> ast.Compare:
            return ast.Compare("in", c[0], c[1], _pos(meta))

        def sum(self, meta: Any, c: List[Any]) -> Any:
            return self._arith(c)

        def product(self, meta: Any, c: List[Any]) -> Any:
            return self._arith(c)

        @staticmethod
        def _arith(c: List[Any]) -> Any:
            node = c[0]
            for i in range(1, len(c), 2):
                node = ast.Arith(str(c[i]), node, c[i + 1], _pos(c[i]))
            return node

        def neg(self, meta: Any, c: List[Any]) -> ast.Arith:
            return ast.Arith("-", ast.Num(0, _pos(meta)), c[0], _pos(meta))

        def negation(self, meta: Any, c: List[Any]) -> ast.Not:
            return ast.Not(c[0], _pos(meta))

        def and_expr(self, meta: Any, c: List[Any]) -> ast.BoolOp:
            return ast.BoolOp("and", tuple(c), _pos(meta))

        def or_expr(self, meta: Any, c: List[Any]) -> ast.BoolOp:
            return ast.BoolOp("or", tuple(c), _pos(meta))

        def quantified(self, meta: Any, c: List[Any]) -> ast.Quantified:
            return ast.Quantified(str(c[0]), str(c[1]), c[2], c[3], _pos(c[0]))

        def count(self, meta: Any, c: List[Any]) -> ast.Count:
            return ast.Count(str(c[0]), c[1], c[2], _pos(meta))

        def comprehension(self, meta: Any, c: List[Any]) -> ast.Comprehension:
            return ast.Comprehension(c[0], str(c[1]), c[2], _pos(meta))

    return _ToAst


def _expected(err: UnexpectedInput) -> str:
    names = sorted(getattr(err, "expected", None) or getattr(err, "allowed", None) or [])
    pretty = {"NAME": "a name", "NUMBER": "a number", "TILE": "a tile", "RPAR": "')'",
              "LPAR": "'('", "COLON": "':'", "RSQB": "']'", "COMMA": "','", "_IN": "'in'",
              "COMP": "a comparison", "_AND": "'and'", "_OR": "'or'", "$END": "end of text",
              "LSQB": "'['", "MINUS": "'-'", "QUANT": "some/every/no", "TRUE": "true",
              "FALSE": "false", "_NOT": "'not'", "_COUNT": "count", "DOT": "'.'"}
    shown = [pretty.get(n, n.lower()) for n in names][:6]
    return ", ".join(shown)


def parse(text: str, source: str = "<dsl>") -> ast.Node:
    """Parse one pattern expression; syntax errors become `DslError` with line, column, caret.

    Too long or too deeply nested text is refused with a one-line `DslError` (no caret: the
    line may be the whole hostile input); no lark or Python error escapes.
    """
    if len(text) > limits.DSL_CHARS:
        raise DslError(f"pattern too long ({len(text)} characters; at most "
                       f"{limits.DSL_CHARS})", source=source)
    from lark.exceptions import LarkError, UnexpectedInput, VisitError
    try:
        tree = _parser().parse(text)
    except UnexpectedInput as err:
        raise _syntax_error(err, text, source) from None
    except LarkError as err:  # pragma: no cover - lark's other failures, kept clean
        raise DslError(f"cannot parse: {limits.excerpt(type(err).__name__)}",
                       source=source) from None
    _check_depth(tree, source)
    try:
        node: ast.Node = _to_ast()().transform(tree)
    except VisitError as err:       # lark wraps errors raised in the transformer
        inner = err.orig_exc
        if isinstance(inner, DslError):
            raise DslError(inner.message, source=source, line=inner.line,
                           column=inner.column, text=_line(text, inner.line)) from None
        raise DslError(f"cannot read this pattern: {type(inner).__name__}",
                       source=source) from None
    _check_ast_depth(node, source)
    return node


def _syntax_error(err: UnexpectedInput, text: str, source: str) -> DslError:
    from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken
    line, col = err.line or 1, err.column or 1
    if isinstance(err, UnexpectedEOF) or (isinstance(err, UnexpectedToken)
                                          and err.token.type == "$END"):
        msg = f"unexpected end of expression; expected {_expected(err)}"
        lines = text.splitlines() or [""]
        line, col = len(lines), len(lines[-1]) + 1
    elif isinstance(err, UnexpectedCharacters):
        msg = f"unexpected character {text[err.pos_in_stream or 0]!r}"
    elif isinstance(err, UnexpectedToken):
        msg = f"unexpected {limits.excerpt(str(err.token), 40)!r}; expected {_expected(err)}"
    else:  # pragma: no cover - lark's other input errors
        msg = limits.excerpt(str(err).splitlines()[0])
    return DslError(msg, source=source, line=line, column=col, text=_line(text, line))


def _too_deep(source: str, line: int, column: int) -> DslError:
    return DslError(f"pattern nested too deeply (more than {limits.DSL_DEPTH} levels)",
                    source=source, line=line, column=column)


def _check_depth(tree: Tree, source: str) -> None:  # type: ignore[type-arg]
    """Refuse a parse tree deeper than DSL_DEPTH before anything walks it recursively."""
    from lark import Tree
    stack: list[tuple[Any, int]] = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > limits.DSL_DEPTH:
            meta = node.meta
            raise _too_deep(source, getattr(meta, "line", 1), getattr(meta, "column", 1))
        stack.extend((c, depth + 1) for c in node.children if isinstance(c, Tree))


def _check_ast_depth(node: ast.Node, source: str) -> None:
    """Refuse a syntax tree deeper than DSL_DEPTH (`1+1+...+1` nests although the parse tree
    is flat), so the compiler's and the patterns' recursion stay shallow."""
    stack: list[tuple[ast.Node, int]] = [(node, 1)]
    while stack:
        n, depth = stack.pop()
        if depth > limits.DSL_DEPTH:
            raise _too_deep(source, n.pos.line, n.pos.column)
        stack.extend((c, depth + 1) for c in children(n))


def _line(text: str, line: int) -> str:
    """The source line quoted under an error, cut to limits.QUOTE_CHARS."""
    lines = text.splitlines()
    return limits.excerpt(lines[line - 1]) if 0 < line <= len(lines) else ""
