"""Typed syntax tree of a puzzledsl program; every node carries its source span."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import Span

# ---------------------------------------------------------------- expressions


@dataclass(frozen=True, eq=False)
class Expr:
    span: Span


@dataclass(frozen=True, eq=False)
class IntLit(Expr):
    value: int


@dataclass(frozen=True, eq=False)
class BoolLit(Expr):
    value: bool


@dataclass(frozen=True, eq=False)
class Name(Expr):
    id: str


@dataclass(frozen=True, eq=False)
class TupleLit(Expr):
    items: tuple[Expr, ...]


@dataclass(frozen=True, eq=False)
class ListLit(Expr):
    items: tuple[Expr, ...]


@dataclass(frozen=True, eq=False)
class SetLit(Expr):
    items: tuple[Expr, ...]


@dataclass(frozen=True, eq=False)
class Range(Expr):
    lo: Expr
    hi: Expr


@dataclass(frozen=True, eq=False)
class Neg(Expr):
    operand: Expr


@dataclass(frozen=True, eq=False)
class Not(Expr):
    operand: Expr


@dataclass(frozen=True, eq=False)
class Binary(Expr):
    """Arithmetic: + - * / %."""

    op: str
    left: Expr
    right: Expr


@dataclass(frozen=True, eq=False)
class Compare(Expr):
    op: str
    left: Expr
    right: Expr


@dataclass(frozen=True, eq=False)
class Logic(Expr):
    """and / or over two or more operands, implies and iff over two."""

    op: str
    items: tuple[Expr, ...]


@dataclass(frozen=True, eq=False)
class Ite(Expr):
    cond: Expr
    then: Expr
    other: Expr


@dataclass(frozen=True, eq=False)
class Index(Expr):
    base: Expr
    indices: tuple[Expr, ...]


@dataclass(frozen=True, eq=False)
class Call(Expr):
    func: str
    func_span: Span
    args: tuple[Expr, ...]


@dataclass(frozen=True, eq=False)
class Binding:
    names: tuple[str, ...]
    is_tuple: bool
    source: Expr
    span: Span


@dataclass(frozen=True, eq=False)
class Aggregate(Expr):
    """sum / count / all / any / alldiff / min / max / exactly / atmost / atleast and
    the forall / exists quantifiers: all range over bindings with an optional filter."""

    kind: str
    bindings: tuple[Binding, ...]
    where: Expr | None
    body: Expr
    bound: Expr | None = None


# ---------------------------------------------------------------- data values


@dataclass(frozen=True, eq=False)
class Value:
    span: Span


@dataclass(frozen=True, eq=False)
class IntValue(Value):
    value: int


@dataclass(frozen=True, eq=False)
class UnknownValue(Value):
    pass


@dataclass(frozen=True, eq=False)
class BoolValue(Value):
    value: bool


@dataclass(frozen=True, eq=False)
class SymValue(Value):
    name: str


@dataclass(frozen=True, eq=False)
class StringValue(Value):
    text: str


@dataclass(frozen=True, eq=False)
class ListValue(Value):
    items: tuple[Value, ...]


@dataclass(frozen=True, eq=False)
class BlockValue(Value):
    """A multi-line text block; `first_line` is the file line of its first text line."""

    text: str
    first_line: int


# ---------------------------------------------------------------- statements


@dataclass(frozen=True, eq=False)
class TypeRef:
    kind: str  # "bool" | "int" | "sym" | "range"
    optional: bool
    span: Span
    lo: Expr | None = None
    hi: Expr | None = None


@dataclass(frozen=True, eq=False)
class Boundary:
    kind: str  # "outside" | "wrap"
    span: Span
    default: Expr | None = None


@dataclass(frozen=True, eq=False)
class Stmt:
    span: Span


@dataclass(frozen=True, eq=False)
class Use(Stmt):
    target: str


@dataclass(frozen=True, eq=False)
class Title(Stmt):
    text: str


@dataclass(frozen=True, eq=False)
class Format(Stmt):
    names: tuple[tuple[str, Span], ...]


@dataclass(frozen=True, eq=False)
class Given(Stmt):
    name: str
    dims: tuple[Expr, ...]
    type: TypeRef
    legend: tuple[tuple[str, Value], ...] | None
    boundary: Boundary | None
    default: Value | None


@dataclass(frozen=True, eq=False)
class Var(Stmt):
    name: str
    dims: tuple[Expr, ...]
    type: TypeRef
    boundary: Boundary | None


@dataclass(frozen=True, eq=False)
class Define(Stmt):
    name: str
    params: tuple[str, ...] | None
    body: Expr


@dataclass(frozen=True, eq=False)
class Rule(Stmt):
    label: str | None
    body: Expr


@dataclass(frozen=True, eq=False)
class Glyph:
    value: Value
    text: str
    style: str | None


@dataclass(frozen=True, eq=False)
class Show(Stmt):
    name: str
    glyphs: tuple[Glyph, ...]
    clues: tuple[tuple[str, str, Span], ...]  # (given name, side, span)
    marked: tuple[tuple[str, Span], ...]


@dataclass(frozen=True, eq=False)
class Assign(Stmt):
    name: str
    value: Value


@dataclass
class Program:
    """All statements of a rule file and the files it uses, in source order."""

    statements: list[Stmt] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
