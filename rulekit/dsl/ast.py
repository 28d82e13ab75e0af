"""The DSL's syntax tree: small frozen values, each with its position for error messages."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Pos:
    line: int
    column: int


@dataclass(frozen=True, slots=True)
class Num:
    value: int
    pos: Pos


@dataclass(frozen=True, slots=True)
class TileLit:
    kind: int
    text: str
    pos: Pos


@dataclass(frozen=True, slots=True)
class BoolLit:
    value: bool
    pos: Pos


@dataclass(frozen=True, slots=True)
class Name:
    id: str
    pos: Pos


@dataclass(frozen=True, slots=True)
class Attr:
    obj: "Node"
    name: str
    pos: Pos


@dataclass(frozen=True, slots=True)
class Call:
    fn: str
    args: tuple["Node", ...]
    pos: Pos


@dataclass(frozen=True, slots=True)
class ListLit:
    items: tuple["Node", ...]
    pos: Pos


@dataclass(frozen=True, slots=True)
class Compare:
    op: str              # == != < <= > >= in
    left: "Node"
    right: "Node"
    pos: Pos


@dataclass(frozen=True, slots=True)
class Arith:
    op: str              # + - *
    left: "Node"
    right: "Node"
    pos: Pos


@dataclass(frozen=True, slots=True)
class Not:
    operand: "Node"
    pos: Pos


@dataclass(frozen=True, slots=True)
class BoolOp:
    op: str              # and / or
    operands: tuple["Node", ...]
    pos: Pos


@dataclass(frozen=True, slots=True)
class Quantified:
    quantifier: str      # some / every / no
    var: str
    collection: "Node"
    body: "Node"
    pos: Pos


@dataclass(frozen=True, slots=True)
class Count:
    var: str
    collection: "Node"
    condition: "Node | None"
    pos: Pos


@dataclass(frozen=True, slots=True)
class Comprehension:
    expr: "Node"
    var: str
    collection: "Node"
    pos: Pos


Node = (Num | TileLit | BoolLit | Name | Attr | Call | ListLit | Compare | Arith | Not | BoolOp
        | Quantified | Count | Comprehension)
