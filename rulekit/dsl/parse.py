"""Text → AST. The grammar is `grammar/pattern.lark`, loaded once per process."""
from __future__ import annotations

from functools import lru_cache
from typing import Any, List

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from rulekit import resources
from rulekit.dsl import ast
from rulekit.errors import DslError

_TILE_BASE = {"m": 0, "p": 9, "s": 18, "z": 27, "f": 34}


@lru_cache(maxsize=1)
def _parser() -> Lark:
    # cache=True: lark keeps the LALR tables in the temp dir, keyed by the grammar's hash,
    # so a one-shot `rulekit score` does not rebuild them (about 50 ms)
    return Lark(resources.grammar_text("pattern.lark"), parser="lalr",
                propagate_positions=True, maybe_placeholders=True, cache=True)


def _pos(meta_or_tok: Any) -> ast.Pos:
    return ast.Pos(getattr(meta_or_tok, "line", 1) or 1, getattr(meta_or_tok, "column", 1) or 1)


@v_args(meta=True)
class _ToAst(Transformer):  # type: ignore[type-arg]
    def number(self, meta: Any, c: List[Token]) -> ast.Num:
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
    """Parse one pattern expression; syntax errors become `DslError` with line, column, caret."""
    try:
        tree = _parser().parse(text)
        node: ast.Node = _ToAst().transform(tree)
        return node
    except UnexpectedInput as err:
        line, col = err.line or 1, err.column or 1
        if isinstance(err, UnexpectedEOF) or (isinstance(err, UnexpectedToken)
                                              and err.token.type == "$END"):
            msg = f"unexpected end of expression; expected {_expected(err)}"
            lines = text.splitlines() or [""]
            line, col = len(lines), len(lines[-1]) + 1
        elif isinstance(err, UnexpectedCharacters):
            msg = f"unexpected character {text[err.pos_in_stream or 0]!r}"
        elif isinstance(err, UnexpectedToken):
            msg = f"unexpected {str(err.token)!r}; expected {_expected(err)}"
        else:  # pragma: no cover - lark's other input errors
            msg = str(err).splitlines()[0]
        raise DslError(msg, source=source, line=line, column=col,
                       text=_line(text, line)) from None
    except DslError as err:
        raise DslError(err.message, source=source, line=err.line, column=err.column,
                       text=_line(text, err.line)) from None
    except Exception as err:  # lark wraps transformer errors in VisitError
        inner = getattr(err, "orig_exc", None)
        if isinstance(inner, DslError):
            raise DslError(inner.message, source=source, line=inner.line, column=inner.column,
                           text=_line(text, inner.line)) from None
        raise


def _line(text: str, line: int) -> str:
    lines = text.splitlines()
    return lines[line - 1] if 0 < line <= len(lines) else ""
