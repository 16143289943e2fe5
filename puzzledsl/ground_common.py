"""What the stages of grounding share: the built-in names and their arities, the values a
graph rule and a grounded puzzle are, and the small functions over ground values (equality,
integer relations through one-hot and order literals, shape variants, error messages).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from . import limits
from .errors import PuzzleError, Span, did_you_mean
from .ground_regions import RegionOf, SizeOf, SizeRule
from .model import Model, neg
from .runs import Runs
from .syntax import ast as A
from .values import (
    Cond,
    Grid,
    IntVarCell,
    Lin,
    describe,
)

if TYPE_CHECKING:
    pass

DIRECTIONS = {
    "orth": ((-1, 0), (0, 1), (1, 0), (0, -1)),
    "diag": ((-1, -1), (-1, 1), (1, 1), (1, -1)),
    "king": ((-1, -1), (-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1)),
}
ABS_OF_DECISION = "`abs` takes a number known before solving, but this depends on decision variables"
ABS_HELP = "compare both signs instead: `a - b == 1 or b - a == 1` says `abs(a - b) == 1`"
# The words that open an aggregate (`count(q in S: …)`), as the grammar has them: a near miss
# of one is reported as such, not as an unknown name or a stray `in`.
AGGREGATES = ("sum", "count", "all", "any", "alldiff", "min", "max", "list", "set", "runs", "exactly", "atmost",
              "atleast", "connected", "acyclic", "forall", "exists", "reachable")

BUILTINS = {"len", "abs", "known", "cells", "rows", "cols", "inside", "dim", "adjacent", "neighbours", "degree",
            "connected", "acyclic", "values", "variants", "rotations", "region", "size", "sorted", "ray"}
BUILTIN_ARITY = {"len": (1,), "abs": (1,), "known": (1,), "cells": (1, 2), "rows": (1,), "cols": (1,), "inside": (2,),
                 "dim": (2,), "adjacent": (1,), "neighbours": (2,), "degree": (2,), "connected": (1,),
                 "acyclic": (1,), "values": (1,), "variants": (1,), "rotations": (1,), "region": (2,), "size": (1,),
                 "sorted": (1,), "ray": (3, 4)}
BUILTIN_USAGE = {"len": "len(x)", "abs": "abs(n)", "known": "known(v)", "cells": "cells(g)` or `cells(g, v)",
                 "rows": "rows(g)", "cols": "cols(g)", "inside": "inside(g, p)", "dim": "dim(g, k)",
                 "adjacent": "adjacent(g)", "neighbours": "neighbours(g, p)", "degree": "degree(e, p)",
                 "connected": "connected(e)", "acyclic": "acyclic(e)", "values": "values(g)",
                 "variants": "variants(s)", "rotations": "rotations(s)", "region": "region(g, p)",
                 "size": "size(region(g, p))", "sorted": "sorted(x)", "ray": "ray(g, p, d)` or `ray(g, p, d, n)"}


def builtin_arity(f: str, given: int, span: Span) -> PuzzleError:
    """A builtin called with too many or too few arguments, and how it is called."""
    n = BUILTIN_ARITY[f]
    return PuzzleError(f"`{f}` takes {' or '.join(map(str, n))} argument(s), {given} given", span,
                       f"write `{BUILTIN_USAGE[f]}` (docs/language.md §11)")


GRAPH_KINDS = ("connected", "acyclic")
GUARDED_KINDS = ("all", "any", "count", "sum", "exactly", "atmost", "atleast", "connected")  # `while` on decisions
MAX_DEPTH = 400


@dataclass(frozen=True)
class Graph:
    """The value of `connected(...)` / `acyclic(...)`: usable only as a rule (item) of its own."""

    kind: str
    nodes: list  # conditions
    edges: list  # (i, j, condition)
    span: Span


@dataclass
class Grounded:
    model: Model
    givens: dict[str, object]
    grids: dict[str, Grid]  # decision grids, cells hold handles / IntVarCells


def one_hot_relation(m: Model, one_hot: dict[int, tuple[IntVarCell, int]], d: Lin, op: str) -> int | bool | None:
    """`d op 0` value by value, when `d` is `sx * x + sy * y + k` over one or two one-hot integer
    variables: "x has value i implies y lies in the interval that solves it", one implication
    per value of x (x has exactly one), the interval read off y's order literals ("y is at
    least j", a ladder shared by every comparison with y). As a reified sum, 40 copies of
    `c == (a - b == 1)` over 0..9 took 26,040 variables and 89,600 clauses, eight increasing
    values 0..8 (`a[j] < a[k]`, 28 pairs) 4,056 and 11,889; this way a few hundred. None: not
    that shape."""
    cells: dict[int, tuple[IntVarCell, int]] = {}  # id(cell) -> (cell, its sign s)
    for h, coef in d.terms.items():
        owner = one_hot.get(h)
        if owner is None or owner[1] == 0 or coef % owner[1]:
            return None
        cell, i = owner
        s = coef // i
        if s == 0 or cells.setdefault(id(cell), (cell, s))[1] != s or len(cells) > 2:
            return None
    if not cells:
        return None
    ordered = sorted(cells.values(), key=lambda c: len(c[0].handles))
    if any(d.terms.get(h, 0) != s * i for c, s in ordered for i, h in enumerate(c.handles)):
        return None  # a cell's handle missing from the sum (its coefficient cancelled)
    (y, sy) = ordered[-1]
    at_least = [] if op in ("==", "!=") else _order_literals(m, y)
    if len(ordered) == 1:
        return _index_relation(y, at_least, sy, op, -d.const)
    (x, sx) = ordered[0]
    parts = [(h, _index_relation(y, at_least, sy, op, -d.const - sx * i)) for i, h in enumerate(x.handles)]
    if not m.defines_by_clauses:
        return m.and_([m.implies(h, r) for h, r in parts])
    key = tuple(parts)
    if key in m.relations:
        return m.relations[key]
    # "for each value of x, y lies where it must" as clauses over an auxiliary variable c (one
    # list each, no formula node: a 6x6 board of heights compares two cells some 180 times).
    # The result is c as the negation of the node (not c), whose completion, written where the
    # result is used false, says "not c: some value of x breaks it"
    c = m.new_auxiliary()
    m.definitions.extend([-c, -h] if r is False else [-c, -h, r] for h, r in parts if r is not True)
    n = m.conjunction_of(-c)
    m.completions[n] = [[c, -h] if r is True else [c, -h, -r] for h, r in parts if r is not False]
    # the order literals are formulas (a ladder): the definitions use them as they are (the
    # completion's negated uses are asked for when it is written)
    m.definition_nodes.extend(r for _, r in parts if type(r) is int and (r if r > 0 else -r) in m.nodes)
    m.relations[key] = -n
    return -n


def _splits(e: A.Expr) -> bool:
    """Whether `assert_expr` takes `e` apart (a `forall`, an `and`, an `implies`) rather than
    requiring its value as one condition."""
    return (isinstance(e, A.Aggregate) and e.kind == "all") or (isinstance(e, A.Logic) and e.op in ("and", "implies"))


def _hashable(x: object) -> bool:
    try:
        hash(x)
    except TypeError:
        return False
    return True


def _listed(v: object) -> str:
    """A listed index as the rules write it: `(2, 3)`, `7`, `water`."""
    if isinstance(v, tuple):
        return "(" + ", ".join(_listed(x) for x in v) + ")"
    return str(v).lower() if isinstance(v, bool) else str(v)


def _index_relation(y: IntVarCell, at_least: list[int | bool], sy: int, op: str, rest: int) -> int | bool:
    """`sy * j op rest` for the value index j of the one-hot variable y."""
    n = len(y.handles)
    if op in ("==", "!="):
        f = y.handles[rest // sy] if rest % sy == 0 and 0 <= rest // sy < n else False
        return f if op == "==" else neg(f)
    if sy < 0:  # multiply by -1: the order flips
        sy, rest, op = -sy, -rest, {"<": ">", "<=": ">=", ">": "<", ">=": "<="}[op]
    if op == "<":
        op, rest = "<=", rest - 1
    elif op == ">":
        op, rest = ">=", rest + 1
    j = rest // sy + 1 if op == "<=" else -(-rest // sy)  # j <= floor(rest / sy) / j >= ceil(rest / sy)
    f = True if j <= 0 else False if j >= n else at_least[j]
    return neg(f) if op == "<=" else f


def _order_literals(m: Model, y: IntVarCell) -> list[int | bool]:
    """The order literals "y's value index is at least j" for j = 1..n-1: y's handles j.. or'ed,
    built as a ladder (at least j = handle j or at least j + 1). Hash-consing makes the ladder of
    a variable one set of nodes however many comparisons read it; the list is kept too (a
    visibility rule compares each cell with every cell before it: 8,000 ladders a puzzle)."""
    out = m.ladders.get(y.handles)
    if out is None:
        out = m.ladders[y.handles] = [True] * len(y.handles)  # index 0: every value is at least the first
        f: int | bool = False
        for k in range(len(y.handles) - 1, 0, -1):
            f = out[k] = m.or_([y.handles[k], f])
    return out


def _int_equals(m: Model, cell: IntVarCell, v: int) -> int | bool:
    i = v - cell.lo
    if not cell.lo <= v <= cell.hi:
        return False
    if cell.binary:
        return m.and_([h if i >> b & 1 else -h for b, h in enumerate(cell.handles)])
    return cell.handles[i]


def cells_equal(m: Model, a: IntVarCell, b: IntVarCell) -> int | bool:
    """Two integer variables are equal: bitwise when both are binary with one offset; for
    one-hot ones, each value of `a` implies the same value of `b` (each has exactly one)."""
    if a.binary and b.binary and a.lo == b.lo:
        n = max(len(a.handles), len(b.handles))
        bit = lambda c, i: c.handles[i] if i < len(c.handles) else False  # noqa: E731
        return m.and_([m.iff(bit(a, i), bit(b, i)) for i in range(n)])
    if a.binary or b.binary:
        return m.and_([m.implies(_int_equals(m, a, v), _int_equals(m, b, v)) for v in range(a.lo, a.hi + 1)])
    if a.handles[0] > b.handles[0]:  # `x == y` and `y == x`: one node
        a, b = b, a
    key = (a.handles[0], b.handles[0])
    f = m.equalities.get(key)
    if f is not None:  # neighbours compared in several rules: built once
        return f
    parts = [(h, _int_equals(m, b, a.lo + i)) for i, h in enumerate(a.handles)]
    lo, hi = max(a.lo, b.lo), min(a.hi, b.hi)
    if m.defines_by_clauses and not any(r is True for _, r in parts):
        # An auxiliary variable c, equal to `a == b`, and a node f that is just c, with one clause
        # per value for each direction, each written once however many rules use it: "c: each
        # value of a is b's" where some rule uses f true, "no value is both, or c" where some rule
        # uses it false (the completions of f and of -f). With a node per value and its negation
        # spread over each use, comparing neighbours' labels cost 60% of grounding a 15x15 path
        # puzzle and half of encoding it (BENCHMARKS.md, twelfth session).
        c = m.new_auxiliary()
        f = m.equalities[key] = m.conjunction_of(c)
        m.completions[f] = [[-c, -h] if r is False else [-c, -h, r] for h, r in parts]
        m.completions[-f] = [[c, -a.handles[v - a.lo], -b.handles[v - b.lo]] for v in range(lo, hi + 1)]
        return f
    f = m.equalities[key] = m.implications(parts)
    if f is not True and f is not False and f > 0 and f in m.nodes:
        m.equal_values[f] = tuple((a.handles[v - a.lo], b.handles[v - b.lo]) for v in range(lo, hi + 1))
    return f


def shape_variants(shape: object, mirrored: bool, span: Span) -> list[list[tuple[int, int]]]:
    """A shape's distinct turns (and mirror images), each as its cells (row, column) sorted and
    moved so that the smallest is (0, 0): placed at a cell p, a variant's first cell lands on p."""
    if not isinstance(shape, list | tuple) or not shape or not all(
            isinstance(c, tuple) and len(c) == 2 and all(type(x) is int for x in c) for c in shape):
        raise PuzzleError(f"a shape is a list of cells (row, column), such as [(0, 0), (1, 0), (1, 1)]; "
                          f"this is {describe(shape)}", span)
    out: list[list[tuple[int, int]]] = []
    cells = list(shape)
    for flip in [False, True] if mirrored else [False]:
        turned = [(r, -c) for r, c in cells] if flip else cells
        for _ in range(4):
            turned = [(c, -r) for r, c in turned]  # a quarter turn
            ordered = sorted(set(turned))
            r0, c0 = ordered[0]
            moved = [(r - r0, c - c0) for r, c in ordered]
            if moved not in out:
                out.append(moved)
    return out


def _distinct(items: list) -> list:
    """Items in first-seen order, each once (structural equality: `true` and 1 stay apart)."""
    out: list = []
    for v in items:
        if not any(_eq(v, w) for w in out):
            out.append(v)
    return out


def _formula_of(v: object) -> int | bool:
    return v.h if isinstance(v, Cond) else v  # type: ignore[return-value]


def _count_terms(fs: list) -> dict[int, int]:
    terms: dict[int, int] = {}
    for f in fs:
        if f is not True and f is not False:
            terms[f] = terms.get(f, 0) + 1
    return terms


def _value_key(v: object) -> tuple:
    """A known value as a key of the index by value (a list given's cells are lists)."""
    return (list, tuple(v)) if type(v) is list else (type(v), v)  # type: ignore[arg-type]


def _is_static(v: object) -> bool:
    return not isinstance(v, Cond | Lin | IntVarCell | Runs)


def _deep_static(v: object) -> bool:
    """No decision anywhere inside a (possibly nested) list, tuple, set or grid."""
    todo = [v]
    while todo:
        x = todo.pop()
        if not _is_static(x):
            return False
        if isinstance(x, list | tuple | set | frozenset):
            todo.extend(x)
        elif isinstance(x, Grid):
            todo.extend(x.cells.values())
    return True


def _is_condition(v: object) -> bool:
    return v is True or v is False or isinstance(v, Cond)


def tuple_order(a: object, b: object) -> bool:
    """Whether `a` and `b` are tuples of numbers of one length, which order lexicographically."""
    return (type(a) is tuple and type(b) is tuple and len(a) == len(b)
            and all(type(x) is int for x in a) and all(type(x) is int for x in b))


def _eq(a: object, b: object) -> bool:
    if isinstance(a, bool) != isinstance(b, bool):
        return False
    return a == b


def _arith(e: A.Binary, a: int, b: int) -> int:
    if e.op == "+":
        return a + b
    if e.op == "-":
        return a - b
    if e.op == "*":
        return a * b
    if b == 0:
        raise PuzzleError("division by zero", e.span)
    return a // b if e.op == "/" else a % b


def _region_misuse(v: SizeRule | SizeOf | RegionOf) -> PuzzleError:
    """A region of a decision grid used where only a known value or a condition can stand."""
    if isinstance(v, SizeRule):
        return PuzzleError("a bound on the size of a region must be a rule of its own", v.span,
                           "write it as a rule, inside a rule's `forall` or `and`, or after `CONDITION ->`; "
                           "it cannot be negated or combined with `or`")
    what = "region" if isinstance(v, RegionOf) else "size of a region"
    return PuzzleError(f"the {what} of a decision grid is known only once solved", v.span,
                       "compare its size at a rule's top: `forall p in cells(g): size(region(g, p)) == ...`")


def define_arity(name: str, params: list[str] | tuple[str, ...], given: int, span: Span) -> PuzzleError:
    """A define called with the wrong number of arguments. A grid's index spreads a cell (`g[p]`
    is `g[r, c]`), a define's arguments do not, which is the usual cause (friction log 17)."""
    n = len(params)
    if n == 1 and given >= 2:
        example = f"`{name}((r, c))`" if given == 2 else "in parentheses"
        help = (f"a define's arguments are not spread as a grid's index is: pass the cell as one tuple, "
                f"{example}, or declare it with {given} parameters")
    elif n >= 2 and given == 1:
        help = (f"it is declared as `define {name}({', '.join(params)})`; a cell passed as one tuple is one "
                f"argument: give its parts, `{name}(p[0], p[1])`, or declare `define {name}(p)`")
    else:
        help = f"it is declared as `define {name}({', '.join(params)})`"
    return PuzzleError(f"`{name}` takes {n} argument(s), {given} given", span, help)


def unknown_name(name: str, span: Span, known: list[str]) -> PuzzleError:
    return PuzzleError(f"unknown name `{name}`", span, did_you_mean(name, known))


def too_many_items(e: A.Aggregate) -> None:
    """An aggregate over several bindings (or a `while`) holds more items than a grid may have
    cells: a clue of 100000 that sizes a nested range. Said before the items exhaust memory."""
    limits.check("cells", limits.current().cells + 1, f"this `{e.kind}` has too many items (so far)", e.span)


SUM_WHILE = ("a `sum` with a `while` on decisions adds numbers known before solving; this one depends on "
             "decisions")
SUM_WHILE_HELP = ("sum a known number per item, or count: a decision number `y[q]` of at most MAX is the count "
                  "of its units, `count(q in … while …, k in 1..MAX: y[q] >= k)`")
