"""Typed syntax tree of a puzzledsl program; every node carries its source span."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import Span

# Nodes compare by identity (they key caches) and skip the generated __repr__ and
# frozen setters: creating ~40 dataclasses otherwise costs tens of ms at every start.
_node = dataclass(eq=False, repr=False)

# ---------------------------------------------------------------- expressions


@_node
class Expr:
    span: Span


@_node
class IntLit(Expr):
    value: int


@_node
class BoolLit(Expr):
    value: bool


@_node
class Name(Expr):
    id: str


@_node
class TupleLit(Expr):
    items: tuple[Expr, ...]


@_node
class ListLit(Expr):
    items: tuple[Expr, ...]


@_node
class SetLit(Expr):
    items: tuple[Expr, ...]


@_node
class Range(Expr):
    lo: Expr
    hi: Expr


@_node
class Neg(Expr):
    operand: Expr


@_node
class Not(Expr):
    operand: Expr


@_node
class Binary(Expr):
    """Arithmetic: + - * / %."""

    op: str
    left: Expr
    right: Expr


@_node
class Compare(Expr):
    op: str
    left: Expr
    right: Expr


@_node
class Logic(Expr):
    """and / or over two or more operands, implies and iff over two."""

    op: str
    items: tuple[Expr, ...]


@_node
class Ite(Expr):
    cond: Expr
    then: Expr
    other: Expr


@_node
class Index(Expr):
    base: Expr
    indices: tuple[Expr, ...]


@_node
class Call(Expr):
    func: str
    func_span: Span
    args: tuple[Expr, ...]


@_node
class Binding:
    names: tuple[str, ...]
    is_tuple: bool
    source: Expr
    span: Span
    where: Expr | None = None  # a filter after this binding; the last binding's is the node's `where`
    while_: Expr | None = None  # `while C`: the run over the source ends at the first item where C fails


@_node
class Aggregate(Expr):
    """sum / count / all / any / alldiff / min / max / exactly / atmost / atleast and
    the forall / exists quantifiers: all range over bindings with an optional filter."""

    kind: str
    bindings: tuple[Binding, ...]
    where: Expr | None
    body: Expr
    bound: Expr | None = None
    cyclic: bool = False  # `cyclic runs(…)`: the values are read around a ring


def children(e: Expr) -> list[Expr]:
    """The direct sub-expressions of an expression (bindings' sources excluded); data values
    written inside one (`?`, strings: `check` rejects them) are listed too."""
    out: list[Expr] = []
    for v in vars(e).values():
        if isinstance(v, Expr | Value):
            out.append(v)  # type: ignore[arg-type]
        elif isinstance(v, tuple):
            out.extend(x for x in v if isinstance(x, Expr | Value))
    return out


# ---------------------------------------------------------------- data values


@_node
class Value:
    span: Span


@_node
class IntValue(Value):
    value: int


@_node
class UnknownValue(Value):
    pass


@_node
class BoolValue(Value):
    value: bool


@_node
class SymValue(Value):
    name: str


@_node
class StringValue(Value):
    text: str


@_node
class ListValue(Value):
    items: tuple[Value, ...]


@_node
class BlockValue(Value):
    """A multi-line text block; `first_line` is the file line of its first text line."""

    text: str
    first_line: int


# ---------------------------------------------------------------- statements


@_node
class TypeRef:
    kind: str  # "bool" | "int" | "sym" | "edges" | "range" | "list"
    optional: bool
    span: Span
    lo: Expr | None = None
    hi: Expr | None = None
    item: TypeRef | None = None  # a list's items (`[int?]`): a given whose cells hold lists


@_node
class Boundary:
    kind: str  # "outside" | "wrap"
    span: Span
    default: Expr | None = None


@_node
class Stmt:
    span: Span


@_node
class Use(Stmt):
    target: str


@_node
class Title(Stmt):
    text: str


@_node
class Format(Stmt):
    names: tuple[tuple[str, Span], ...]


@_node
class Given(Stmt):
    name: str
    dims: tuple[Expr, ...]
    type: TypeRef
    legend: tuple[tuple[str, Value], ...] | None
    boundary: Boundary | None
    default: Value | None
    option: bool = False  # `option NAME: T = V`: a given with a default, set by `--option NAME=VALUE`
    values: tuple[Expr, Expr] | None = None  # `in LO..HI`: the values a clue may take (`generate`)


@_node
class Var(Stmt):
    name: str
    dims: tuple[Expr, ...]
    type: TypeRef
    boundary: Boundary | None
    state: bool = False  # `state NAME…`: one copy per time step of a plan (§20)
    encoding: str | None = None  # `one-hot` or `binary` as written; None: chosen from the variable's use (§3)


@_node
class Define(Stmt):
    name: str
    params: tuple[str, ...] | None
    body: Expr


@_node
class Rule(Stmt):
    label: str | None
    body: Expr
    implied: bool = False  # follows from the other rules; stated to speed up the search (docs §21)


@_node
class Glyph:
    value: Value
    text: str
    style: str | None


@_node
class Show(Stmt):
    name: str
    glyphs: tuple[Glyph, ...]
    clues: tuple[tuple[str, str, Span], ...]  # (given name, side, span)
    marked: tuple[tuple[str, Span], ...]
    over: str | None = None  # `show view over grid`: a define drawn at each cell of a grid
    lines: tuple[str, Span] | None = None  # `lines E`: cells drawn as the line of edge grid E through them
    between: tuple[tuple[str, tuple[Glyph, ...], Span], ...] = ()  # `between G {…}`: G drawn between cells
    regions: tuple[str, Span] | None = None  # `regions G`: walls between neighbouring cells whose values in G differ


@_node
class Assign(Stmt):
    name: str
    value: Value


@_node
class SymbolDecl(Stmt):
    """`symbol a, b, c`: symbols declared without a legend."""

    names: tuple[tuple[str, Span], ...]


@_node
class Answer(Stmt):
    """`answer x, y`: the variables that make up a solution; `--unique`, counting and
    `--determined` compare solutions on these only (a projection)."""

    names: tuple[tuple[str, Span], ...]


@_node
class Effect:
    """`target[idx] := value`, possibly under `forall` bindings (nested effects flattened)."""

    span: Span


@_node
class AssignEffect(Effect):
    name: str
    name_span: Span
    indices: tuple[Expr, ...]
    value: Expr


@_node
class ForallEffect(Effect):
    bindings: tuple[Binding, ...]
    where: Expr | None
    body: tuple[Effect, ...]


@_node
class Action(Stmt):
    """`action NAME(BINDINGS where C) cost K "TEXT": if PRE then EFFECTS` (§20)."""

    name: str
    bindings: tuple[Binding, ...]
    where: Expr | None
    text: str | None
    pre: Expr | None
    effects: tuple[Effect, ...]
    cost: Expr | None = None  # a number, may read the state before the action; 1 when absent
    text_span: Span | None = None  # where TEXT is written (its `{NAME}`s are checked)


@_node
class Init(Stmt):
    body: Expr


@_node
class Goal(Stmt):
    body: Expr


@_node
class Horizon(Stmt):
    """`horizon N` (exactly N steps), `horizon at most N`, `horizon minimize [cost] [at most N]`."""

    minimize: bool
    exact: Expr | None
    at_most: Expr | None
    cost: bool = False  # minimise the actions' costs, not their number


@_node
class Wlog(Stmt):
    """`wlog A, B unless COND: keep V or N` — the rule author's promise that deciding uniqueness
    may assume the options A, B (see docs/language.md §21 and `puzzledsl/uniqueness.py`)."""

    options: tuple[tuple[str, Span], ...]
    unless: Expr | None
    keep: tuple[str, Span]
    neutral: Value


@_node
class Prefer(Stmt):
    """`prefer A, B unless COND`: look for solutions with these options set first (a search
    order only), unless COND (over givens and options) holds."""

    options: tuple[tuple[str, Span], ...]
    unless: Expr | None = None


@dataclass
class Program:
    """All statements of a rule file and the files it uses, in source order."""

    statements: list[Stmt] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    # what later stages work out from the rules alone, kept for every puzzle compiled with them
    # (a batch of data sets then pays for it once); never part of the program's meaning
    memo: dict[str, object] = field(default_factory=dict, compare=False, repr=False)
