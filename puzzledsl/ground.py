"""Grounding: evaluate the rules over the bound givens into a ground `Model`.

Everything that depends only on givens and loop variables is computed here, in
Python; what depends on decision variables becomes formula handles (`Cond`) or
linear expressions (`Lin`). Each error names the expression that caused it.
"""

from __future__ import annotations

import difflib
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from . import limits
from .closures import GUARD, make_fn
from .errors import PuzzleError, Span
from .ground_regions import RegionOf, RegionSizes, SizeOf, SizeRule, region_of, size_of, size_rule
from .int_use import numeric_names
from .model import GraphConstraint, Model, neg
from .runs import Runs, runs_equal, sorted_value
from .syntax import ast as A
from .values import (
    MISSING,
    Cond,
    EdgeGrid,
    Grid,
    IntVarCell,
    Keys,
    LazyGrid,
    Lin,
    Symbol,
    _cond,
    describe,
    orth_neighbours,
    ray_cells,
)

if TYPE_CHECKING:
    from .clues import ReadLog

DIRECTIONS = {
    "orth": ((-1, 0), (0, 1), (1, 0), (0, -1)),
    "diag": ((-1, -1), (-1, 1), (1, 1), (1, -1)),
    "king": ((-1, -1), (-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1)),
}
ABS_OF_DECISION = "`abs` takes a number known before solving, but this depends on decision variables"
ABS_HELP = "compare both signs instead: `a - b == 1 or b - a == 1` says `abs(a - b) == 1`"
BUILTINS = {"len", "abs", "known", "cells", "rows", "cols", "inside", "dim", "adjacent", "neighbours", "degree",
            "connected", "acyclic", "values", "variants", "rotations", "region", "size", "sorted", "ray"}
BUILTIN_ARITY = {"len": (1,), "abs": (1,), "known": (1,), "cells": (1, 2), "rows": (1,), "cols": (1,), "inside": (2,),
                 "dim": (2,), "adjacent": (1,), "neighbours": (2,), "degree": (2,), "connected": (1,),
                 "acyclic": (1,), "values": (1,), "variants": (1,), "rotations": (1,), "region": (2,), "size": (1,),
                 "sorted": (1,), "ray": (3, 4)}
GRAPH_KINDS = ("connected", "acyclic")
GUARDED_KINDS = ("all", "any", "count", "sum", "exactly", "atmost", "atleast", "connected")  # `while` on decisions
LAZY_FROM = 10_000  # cells: larger decision grids get variables only for the cells rules read
ONE_HOT_UP_TO = 24  # integer variables with more values are binary-encoded (measured: BENCHMARKS.md)
LABELS_ONE_HOT_UP_TO = 64  # the same for variables used only as labels (`int_use`), which one-hot suits
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


class Grounder:
    """Evaluates expressions; one instance per puzzle."""

    builtins = BUILTINS

    def __init__(self, program: A.Program, givens: dict[str, object], symbols: dict[str, Symbol],
                 located: bool = False):
        self.program = program
        self.model = Model()
        # `located`: each rule instance remembers its binding and keeps its own meaning (no
        # forced cell is folded into later rules), so an explanation can cite it alone
        self.located = located
        self.model.fold_units = not located
        self.givens = givens
        self.symbols = symbols
        self.vars: dict[str, Grid] = {}
        self.defines: dict[str, A.Define] = {}
        self._define_cache: dict[tuple, object] = {}
        self._neighbours: dict[tuple, list] = {}
        self._depth = 0
        self.declared: dict[str, Grid] = {}  # decision grids as declared: cells hold handles
        self._cell_of: dict[int, tuple[Grid, tuple[int, ...]]] = {}
        self._one_hot: dict[int, tuple[IntVarCell, int]] = {}  # value handle -> (its cell, value index)
        self._value_index: dict[int, tuple[Grid, dict]] = {}  # id(grid) -> (grid, cells by value)
        self.frozen = False
        self._fns: dict[A.Expr, object] = {}
        # `generate` (clues.py): which clue cells each rule instance reads; None when not asked
        self.reads: ReadLog | None = None
        self.regions = RegionSizes(self)
        for st in program.statements:
            if isinstance(st, A.Define):
                self.defines[st.name] = st

    @property
    def numeric(self) -> set[str]:
        """Integer variables read as numbers, not only as labels: worked out once per program,
        when the first integer variable is declared."""
        memo = self.program.memo
        found = memo.get("numeric")
        if found is None:
            found = memo["numeric"] = numeric_names(self.program)
        return found  # type: ignore[return-value]

    # ------------------------------------------------------------ declarations
    def declare_vars(self) -> None:
        for st in self.program.statements:
            if isinstance(st, A.Var) and not st.state:
                self._declare(st)

    def declared_dims(self, st: A.Var) -> tuple[range, ...]:
        """A variable's dimensions, refused before anything is built when the grid is too large."""
        dims = tuple(self.dim_range(d, {}) for d in st.dims)
        limits.grid_cells([len(r) if isinstance(r, Keys) else limits.size(r) for r in dims], f"`{st.name}`", st.span)
        return dims

    def _declare(self, st: A.Var) -> None:
        dims = self.declared_dims(st)
        if any(isinstance(r, Keys) for r in dims) and (st.type.kind == "edges" or st.boundary is not None):
            raise PuzzleError("a grid indexed by a list of values has no edges and no boundary", st.span,
                              "declare it over ranges (`[1..R, 1..C]`), or drop the `edges`/`outside`/`wrap`")
        if st.type.kind == "edges":
            self._declare_edges(st, dims)
            return
        grid = Grid(st.name, dims)
        if st.type.kind == "bool":
            def make(label: str) -> Cond:
                return Cond(self.model.new_var(label))
        elif st.type.kind == "range":
            lo, hi = self.static_int(st.type.lo, {}), self.static_int(st.type.hi, {})
            if hi < lo:
                raise PuzzleError(f"empty domain {lo}..{hi} for `{st.name}`", st.type.span)
            limits.check("domain", hi - lo + 1, f"the domain of `{st.name}` has too many values", st.type.span)

            cap = ONE_HOT_UP_TO if st.name in self.numeric else LABELS_ONE_HOT_UP_TO
            binary = hi - lo + 1 > cap if st.encoding is None else st.encoding == "binary" and hi > lo

            def make(label: str) -> IntVarCell:
                m = self.model
                if binary:
                    bits = tuple(m.new_var(f"{label}.bit{i}") for i in range((hi - lo).bit_length()))
                    cell = IntVarCell(lo, bits, True, hi)
                    m.require(m.linear(cell.terms(), "<=", hi - lo), st.span, f"{st.name} is at most {hi}")
                    return cell
                hs = tuple(m.new_var(f"{label}={v}") for v in range(lo, hi + 1))
                m.require(m.linear({h: 1 for h in hs}, "==", 1), st.span, f"{st.name} has one value")
                return IntVarCell(lo, hs, False, hi)
        else:
            raise PuzzleError(f"a decision variable is `bool` or a range like `1..9`, not `{st.type.kind}`",
                              st.type.span)
        self._cells(st, grid, make)

    def _cells(self, st: A.Var, grid: Grid, make) -> None:
        """Create the cells' variables: all of them, or for a grid of more than `LAZY_FROM` cells
        each when a rule first reads it (`var mem[1..50, 1..64, 0..14, -14..14]: bool`)."""
        def create(key: tuple[int, ...]) -> object:
            cell = make(st.name if not key else f"{st.name}[{','.join(map(str, key))}]")
            if isinstance(cell, Cond):
                self._cell_of[cell.h] = (declared, (key,))
            elif isinstance(cell, IntVarCell) and not cell.binary and len(cell.handles) == cell.hi - cell.lo + 1:
                for i, h in enumerate(cell.handles):
                    self._one_hot[h] = (cell, i)
            declared.cells[key] = view.cells[key] = cell
            return cell

        size = 1
        for r in grid.dims:
            size *= len(r)
        if size > LAZY_FROM and not grid.keyed:
            free = False if st.type.kind == "bool" else self.static_int(st.type.lo, {})
            domain = 2 if st.type.kind == "bool" else self.static_int(st.type.hi, {}) - free + 1
            declared, view = (LazyGrid(grid.name, grid.dims, create=create, domain=domain, free=free)
                              for _ in range(2))
        else:
            declared, view = grid, Grid(grid.name, grid.dims)
            for key in grid.keys():
                create(key)
        for g in (declared, view):
            self._boundary(st, g)
        self.declared[st.name] = declared
        self.vars[st.name] = view

    def _boundary(self, st: A.Var, grid: Grid) -> None:
        if st.boundary is not None:
            grid.boundary = st.boundary.kind
            if st.boundary.default is not None:
                grid.outside = self.ev(st.boundary.default, {})

    def _declare_edges(self, st: A.Var, dims: tuple[range, ...]) -> None:
        """One Boolean per pair of orthogonally adjacent cells; across the border too with `wrap`."""
        grid = EdgeGrid(st.name, dims)
        self._boundary(st, grid)
        for p in grid.keys():
            for q in orth_neighbours(dims, p, grid.boundary == "wrap"):
                if p < q:
                    cell = Cond(self.model.new_var(f"{st.name}[{p}-{q}]"))
                    grid.cells[p + q] = grid.cells[q + p] = cell
                    grid.edges.append((p, q))
                    self._cell_of[cell.h] = (grid, (p + q, q + p))
        self.declared[st.name] = grid
        self.vars[st.name] = EdgeGrid(grid.name, dims, dict(grid.cells), grid.boundary, grid.outside, grid.edges)

    def dim_range(self, d: A.Expr, env: dict) -> range | Keys:
        v = self.ev(d, env)
        if isinstance(v, range):
            return v
        if isinstance(v, int) and not isinstance(v, bool):
            return range(v)
        if isinstance(v, list | set | frozenset):
            return self.keys_of(v, d)
        raise PuzzleError(f"a dimension is a size, a range `lo..hi` or a list of values, not {describe(v)}", d.span)

    def keys_of(self, v: list | set | frozenset, d: A.Expr) -> Keys:
        """A list (or set, in sorted order) of known values as a dimension: `var pick[candidates]`."""
        items = list(v)
        if isinstance(v, set | frozenset):
            try:
                items.sort()
            except TypeError:
                items.sort(key=repr)
        for x in items:
            if isinstance(x, bool) or not isinstance(x, int | Symbol | tuple) or not _hashable(x):
                raise PuzzleError(f"a listed dimension holds numbers, symbols or tuples of them, not {describe(x)}",
                                  d.span)
        keys = Keys(items)
        if len(set(items)) != len(items):
            raise PuzzleError("a listed dimension names a value twice", d.span, "use `set(...)` to drop repeats")
        return keys

    # ------------------------------------------------------------ rules
    def ground_rules(self, skip: set[A.Rule] | frozenset = frozenset()) -> Grounded:
        """Ground every rule except those in `skip` (a plan's rules over state, grounded per step)."""
        self.frozen = True
        old = sys.getrecursionlimit()
        # A define level costs a handful of Python frames; make MAX_DEPTH, not Python, the limit
        # (Python 3.11 keeps pure-Python calls off the C stack, so this is safe).
        sys.setrecursionlimit(max(old, 40 * MAX_DEPTH))
        try:
            for st in self.program.statements:
                if isinstance(st, A.Rule) and st not in skip:
                    if self.reads is not None:
                        self.reads.start(st)
                    try:
                        self.assert_expr(st.body, {}, st)
                        self.regions.flush(st)
                    except PuzzleError as err:
                        if err.span is None:  # e.g. a limit reached deep inside: point at the rule
                            err.span = st.span
                        raise
        finally:
            sys.setrecursionlimit(old)
        return Grounded(self.model, self.givens, self.declared)

    def release(self) -> None:
        """Drop what refers back to this grounder (the closures, the region bounds' helper), once
        no more rules are grounded: it is then freed at once, not by a later pass of Python's
        cyclic collector that would have to scan everything it built (measured: half the time
        of that pass on a batch of 12x12 shading puzzles)."""
        self._fns.clear()
        self._define_cache.clear()
        self.regions.gr = None  # type: ignore[assignment]

    def assert_expr(self, e: A.Expr, env: dict, rule: A.Rule) -> None:
        """Split top-level conjunctions and foralls so each part is its own assertion."""
        reads = self.reads
        if isinstance(e, A.Aggregate) and e.kind == "all":
            body = e.body
            # a body that is one condition (the usual case) is evaluated here, not split again
            plain = self.frozen and not _splits(body)
            f = self._fns.get(body) if plain else None
            if plain and f is None:
                f = self._fns[body] = make_fn(self, body)
            for inner in self.iter_bindings(e.bindings, e.where, env, scoped=True, guarded=True):
                if GUARD in inner:  # `forall … while C: B` on decisions: B where every C so far held
                    self.assert_guarded(inner[GUARD], body, inner, rule)
                elif f is None:
                    self.assert_expr(body, inner, rule)
                else:
                    v = f(inner)
                    if v is not True:
                        self.assert_value(v, body, inner, rule)
            return
        if isinstance(e, A.Logic) and e.op == "and":
            for item in e.items:
                mark = reads.mark() if reads is not None else None
                self.assert_expr(item, env, rule)
                if reads is not None:
                    reads.back(mark)
            return
        v = None
        if isinstance(e, A.Logic) and e.op == "implies":  # `option -> rule`: decided before solving
            a = self.ev(e.items[0], env)
            if a is False:
                return
            if a is True:
                self.assert_expr(e.items[1], env, rule)
                return
            guard = self.formula(a, e.items[0].span)
            b = self.ev(e.items[1], env)
            if isinstance(b, SizeRule):  # `COND -> size(region(g, p)) == n`: a bound where COND holds
                self.regions.add(b, guard, rule, env)
                return
            v = _cond(self.model.implies(guard, self.formula(b, e.items[1].span)))
        self.assert_value(self.ev(e, env) if v is None else v, e, env, rule)

    def assert_value(self, v: object, e: A.Expr, env: dict, rule: A.Rule) -> None:
        """Require the value `v` of the rule part `e`: a condition, or a graph or size rule."""
        if type(v) is Cond:
            self.require_rule(v.h, e.span, rule, env)
        elif isinstance(v, Graph):
            self.add_graph(v, rule)
        elif isinstance(v, SizeRule):
            self.regions.add(v, True, rule, env)
        else:
            self.require_rule(self.formula(v, e.span), e.span, rule, env)

    def assert_guarded(self, guard: int, e: A.Expr, env: dict, rule: A.Rule) -> None:
        v = self.ev(e, env)
        if isinstance(v, SizeRule):
            self.regions.add(v, guard, rule, env)
            return
        if isinstance(v, Graph):
            raise PuzzleError(f"`{v.kind}` cannot be guarded by a `while` that depends on decisions", e.span,
                              "state the graph rule on its own")
        binding = {k: x for k, x in env.items() if k != GUARD}
        self.require_rule(self.model.implies(guard, self.formula(v, e.span)), e.span, rule, binding)

    def require_rule(self, f: int | bool, span: Span, rule: A.Rule, env: dict) -> None:
        """Assert one instance of a rule (its loop variables' values in `env`)."""
        if self.located:
            self.model.require(f, span, rule.label, rule.span, tuple(env.items()))
            return
        forced = self.model.require(f, span, rule.label, rule.span, tuple(env.items()) if f is False else None)
        self._fix_units(f, forced)

    def add_graph(self, g: Graph, rule: A.Rule) -> None:
        m = self.model
        nodes = tuple(m.as_var(f, g.span) for f in g.nodes)
        edges = tuple((i, j, m.as_var(f, g.span)) for i, j, f in g.edges if f is not False)
        m.add_graph(GraphConstraint(g.kind, nodes, edges, g.span, rule.label, rule.span))

    def _fix_units(self, f: int | bool, forced: list[int] | None = None) -> None:
        """A rule that forces a Boolean cell (a water hint, a row count of 0) makes the cell a
        constant for the rules grounded after it: their formulas simplify, and the encoding
        shrinks. The cell keeps its variable and its unit clause, so nothing is lost.
        `forced`: the literals `f` forces, when `Model.require` already worked them out."""
        for lit in self.model.forced(f) if forced is None else forced:
            where = self._cell_of.get(abs(lit))
            if where is not None:
                grid, keys = where
                grid = self.vars[grid.name]
                for key in keys:
                    grid.cells[key] = lit > 0

    # ------------------------------------------------------------ coercions
    def formula(self, v: object, span: Span) -> int | bool:
        if v is True or v is False:
            return v
        if isinstance(v, Cond):
            return v.h
        if isinstance(v, Graph):
            raise PuzzleError(f"`{v.kind}` must be a rule of its own", v.span,
                              "write it as a rule, or inside a rule's `forall` or `and`; it cannot be negated, "
                              "combined with `or`, or depend on decision variables")
        if isinstance(v, SizeRule | SizeOf | RegionOf):
            raise _region_misuse(v)
        raise PuzzleError(f"expected a condition (true/false), found {describe(v)}", span)

    def static_int(self, e: A.Expr, env: dict) -> int:
        v = self.ev(e, env)
        if isinstance(v, int) and not isinstance(v, bool):
            return v
        if isinstance(v, Lin | IntVarCell):
            raise PuzzleError("this number must be known before solving, but it depends on decision variables",
                              e.span)
        raise PuzzleError(f"expected a number, found {describe(v)}", e.span)

    def lin(self, v: object, span: Span) -> Lin | int:
        if isinstance(v, bool):
            return int(v)
        if isinstance(v, int):
            return v
        if isinstance(v, Cond):
            return Lin.of_formula(v.h)
        if isinstance(v, Lin | IntVarCell):
            return Lin.of(v)
        if v is None:
            raise PuzzleError("this value is unknown (`?`); guard it with `known(...)`", span)
        if isinstance(v, SizeRule | SizeOf | RegionOf):
            raise _region_misuse(v)
        raise PuzzleError(f"expected a number, found {describe(v)}", span)

    # ------------------------------------------------------------ evaluation
    def ev(self, e: A.Expr, env: dict) -> object:
        if self.frozen:
            f = self._fns.get(e)
            if f is None:
                f = self._fns[e] = make_fn(self, e)
            return f(env)
        return _DISPATCH[type(e)](self, e, env)

    def is_global(self, n: str) -> bool:
        return n in self.givens or n in self.vars or n in self.symbols or n in DIRECTIONS

    def walk(self, e: A.Expr, env: dict) -> object:
        """Evaluate by walking the tree: the fallback for node kinds without a closure."""
        return _DISPATCH[type(e)](self, e, env)

    def _int(self, e: A.IntLit, env: dict) -> object:
        return e.value

    def _bool(self, e: A.BoolLit, env: dict) -> object:
        return e.value

    def _name(self, e: A.Name, env: dict) -> object:
        n = e.id
        if n in env:
            return env[n]
        if n in self.givens:
            return self.givens[n]
        if n in self.vars:
            g = self.vars[n]
            return g.cells[()] if not g.dims else g
        if n in self.defines:
            d = self.defines[n]
            if d.params:
                raise PuzzleError(f"`{n}` takes {len(d.params)} argument(s): write `{n}(...)`", e.span)
            return self.call_define(d, (), e.span)
        if n in self.symbols:
            return self.symbols[n]
        if n in DIRECTIONS:
            return DIRECTIONS[n]
        raise unknown_name(n, e.span, list(env) + list(self.givens) + list(self.vars) + list(self.defines)
                           + list(self.symbols) + list(DIRECTIONS))

    def _tuple(self, e: A.TupleLit, env: dict) -> object:
        return tuple(self.ev(x, env) for x in e.items)

    def _list(self, e: A.ListLit, env: dict) -> object:
        return [self.ev(x, env) for x in e.items]

    def _set(self, e: A.SetLit, env: dict) -> object:
        return _distinct([self.ev(x, env) for x in e.items])

    def _range(self, e: A.Range, env: dict) -> object:
        return range(self.static_int(e.lo, env), self.static_int(e.hi, env) + 1)

    def _neg(self, e: A.Neg, env: dict) -> object:
        v = self.ev(e.operand, env)
        if isinstance(v, int) and not isinstance(v, bool):
            return -v
        return Lin.of(self.lin(v, e.operand.span)).scale(-1)

    def _not(self, e: A.Not, env: dict) -> object:
        return _cond(neg(self.formula(self.ev(e.operand, env), e.operand.span)))

    def _binary(self, e: A.Binary, env: dict) -> object:
        return self._binary_values(e, self.ev(e.left, env), self.ev(e.right, env))

    def _binary_values(self, e: A.Binary, a: object, b: object) -> object:
        if type(a) is int and type(b) is int:
            return _arith(e, a, b)
        if type(a) is list and type(b) is list and e.op == "+":
            return a + b
        if e.op == "*" and (type(a) is int and isinstance(b, tuple) or isinstance(a, tuple) and type(b) is int):
            k, t = (a, b) if type(a) is int else (b, a)
            return tuple(k * x for x in t)  # type: ignore[union-attr]
        if isinstance(a, tuple) and isinstance(b, tuple):
            if e.op not in "+-" or len(a) != len(b):
                raise PuzzleError(f"cannot apply `{e.op}` to tuples of {len(a)} and {len(b)}", e.span)
            return tuple(x + y if e.op == "+" else x - y for x, y in zip(a, b))
        la, lb = self.lin(a, e.left.span), self.lin(b, e.right.span)
        if isinstance(la, int) and isinstance(lb, int):
            return _arith(e, la, lb)
        if e.op in "+-":
            return Lin.of(la).add(Lin.of(lb), 1 if e.op == "+" else -1)
        if e.op == "*":
            if isinstance(la, int):
                return Lin.of(lb).scale(la)
            if isinstance(lb, int):
                return Lin.of(la).scale(lb)
            raise PuzzleError("the product of two decision values is not linear", e.span,
                              "one side of `*` must be known before solving")
        raise PuzzleError(f"`{e.op}` needs numbers known before solving", e.span)

    def _compare(self, e: A.Compare, env: dict) -> object:
        return self.compare(e.op, self.ev(e.left, env), self.ev(e.right, env), e)

    def compare(self, op: str, a: object, b: object, e: A.Expr) -> object:
        if type(a) is SizeOf or type(b) is SizeOf:
            return size_rule(op, a, b, e)
        if isinstance(a, Runs) or isinstance(b, Runs):
            return self.compare_runs(op, a, b, e)
        static = _is_static(a) and _is_static(b)
        if static:
            if op in ("==", "!="):
                return _eq(a, b) == (op == "==")
            if not (isinstance(a, int) and isinstance(b, int)):
                guard = ("an unknown value (`?`) has no order: guard the comparison, "
                         "e.g. `known(g[p]) and g[p] > 1`, or filter with `where known(g[p])`"
                         if a is None or b is None else None)
                raise PuzzleError(f"cannot order {describe(a)} and {describe(b)}", e.span, guard)
            return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op]
        if op in ("==", "!=") and (isinstance(a, IntVarCell) or isinstance(b, IntVarCell)):
            cell, other = (a, b) if isinstance(a, IntVarCell) else (b, a)
            f = None
            if isinstance(other, int) and not isinstance(other, bool):
                f = _int_equals(self.model, cell, other)
            elif isinstance(other, IntVarCell):
                f = _cells_equal(self.model, cell, other)
            if f is not None:
                return _cond(f if op == "==" else neg(f))
        if op in ("==", "!=") and _is_condition(a) and _is_condition(b):
            fa, fb = self.formula(a, e.span), self.formula(b, e.span)
            f = self.model.iff(fa, fb)
            return _cond(f if op == "==" else neg(f))
        la = Lin.of(self.lin(a, getattr(e, "left", e).span))
        lb = Lin.of(self.lin(b, getattr(e, "right", e).span))
        d = la.add(lb, -1)
        f = one_hot_relation(self.model, self._one_hot, d, op)
        if f is not None:
            return _cond(f)
        return _cond(self.model.linear(d.terms, op, -d.const))

    def compare_runs(self, op: str, a: object, b: object, e: A.Expr) -> object:
        runs, lengths = (a, b) if isinstance(a, Runs) else (b, a)
        if op not in ("==", "!=") or not isinstance(lengths, list | tuple) or \
                not all(type(x) is int for x in lengths):
            raise PuzzleError(f"`runs(…)` can only be compared with `==` or `!=` to a list of known numbers "
                              f"(the block lengths in order), not with `{op}` to {describe(lengths)}", e.span,
                              "e.g. `runs(c in 1..C: black[r, c]) == [3, 1, 2]`")
        f = runs_equal(self.model, runs, list(lengths), e.span)  # type: ignore[arg-type]
        return _cond(f if op == "==" else neg(f))

    def _logic(self, e: A.Logic, env: dict) -> object:
        m = self.model
        if e.op in ("and", "or"):
            stop = e.op == "or"  # the value that decides the whole: true for or, false for and
            out: list = []
            for x in e.items:
                f = self.formula(self.ev(x, env), x.span)
                if f is stop:
                    return stop
                out.append(f)
            return _cond(m.or_(out) if stop else m.and_(out))
        a = self.formula(self.ev(e.items[0], env), e.items[0].span)
        if e.op == "implies" and a is False:
            return True
        b = self.formula(self.ev(e.items[1], env), e.items[1].span)
        return _cond(m.implies(a, b) if e.op == "implies" else m.iff(a, b))

    def _ite(self, e: A.Ite, env: dict) -> object:
        c = self.formula(self.ev(e.cond, env), e.cond.span)
        if c is True:
            return self.ev(e.then, env)
        if c is False:
            return self.ev(e.other, env)
        a, b = self.ev(e.then, env), self.ev(e.other, env)
        if _is_condition(a) and _is_condition(b):
            return _cond(self.model.ite(c, self.formula(a, e.then.span), self.formula(b, e.other.span)))
        la, lb = self.lin(a, e.then.span), self.lin(b, e.other.span)
        if isinstance(la, int) and isinstance(lb, int):  # lb + (la - lb) * c
            return Lin(lb, {c: la - lb}) if la != lb else la
        raise PuzzleError("`if` on a decision needs branches that are known numbers or conditions", e.span)

    def _index(self, e: A.Index, env: dict) -> object:
        return self._index_values(e, self.ev(e.base, env), tuple(self.ev(x, env) for x in e.indices))

    def _index_values(self, e: A.Index, base: object, values: tuple) -> object:
        if isinstance(base, Grid) and base.keyed:  # each index is a listed value, taken whole
            if len(values) != len(base.dims):
                raise PuzzleError(f"`{base.name}` has {len(base.dims)} index(es), but {len(values)} were given", e.span)
            key = tuple(values)
            v = base.cells.get(key, MISSING)
            if v is MISSING:
                bad = next((x for x, r in zip(values, base.dims) if x not in r), values[0])
                raise PuzzleError(f"{_listed(bad)} is not an index of `{base.name}`", e.span,
                                  "index it with one of the values its dimension lists")
            return v
        idx: list = []
        for x, v in zip(e.indices, values):
            if type(v) is int:
                idx.append(v)
            elif isinstance(v, tuple):
                idx.extend(v)
            elif isinstance(v, int) and not isinstance(v, bool):
                idx.append(v)
            else:
                raise PuzzleError(f"an index must be a number known before solving, found {describe(v)}", x.span)
        if isinstance(base, Grid):
            key = tuple(idx)
            v = base.cells.get(key, MISSING)
            return v if v is not MISSING else base.get(key, e.span)
        if isinstance(base, tuple | list | range) and len(idx) == 1:  # as the re-check (evaluate.py) reads them
            if 0 <= idx[0] < len(base):
                return base[idx[0]]
            raise PuzzleError(f"index {idx[0]} is outside 0..{len(base) - 1}", e.span)
        if isinstance(base, tuple | list | range):
            raise PuzzleError(f"{describe(base)} takes one index, but {len(idx)} were given", e.span,
                              "index a list, tuple or range with one number from 0 (`p[0]`); a list of "
                              "lists one step at a time (`L[i][j]`)")
        raise PuzzleError(f"cannot index {describe(base)}", e.base.span,
                          "a 1-D grid's cells (`cells(g)`) are numbers, not tuples" if type(base) is int else None)

    def _call(self, e: A.Call, env: dict) -> object:
        if e.func in self.defines:
            d = self.defines[e.func]
            params = d.params or ()
            if len(params) != len(e.args):
                raise PuzzleError(f"`{e.func}` takes {len(params)} argument(s), {len(e.args)} given", e.span)
            return self.call_define(d, tuple(self.ev(a, env) for a in e.args), e.span)
        if e.func in BUILTINS:
            return self.builtin(e, [self.ev(a, env) for a in e.args])
        raise unknown_name(e.func, e.func_span, list(self.defines) + sorted(BUILTINS))

    def call_define(self, d: A.Define, args: tuple, span: Span) -> object:
        """A define's value for these arguments, computed once (a list argument is not remembered)."""
        key: tuple | None = (d.name, args)
        try:
            v = self._define_cache.get(key, MISSING)  # type: ignore[arg-type]
        except TypeError:
            key, v = None, MISSING
        if v is MISSING:
            return self.evaluate_define(d, args, span, key)
        if self.reads is not None:
            self.reads.remembered(key)
        return v

    def evaluate_define(self, d: A.Define, args: tuple, span: Span, key: tuple | None) -> object:
        self._depth += 1
        if self._depth > MAX_DEPTH:
            self._depth = 0
            raise PuzzleError(f"`{d.name}` calls itself more than {MAX_DEPTH} levels deep", span)
        reads = self.reads
        outer = reads.enter() if reads is not None else None
        try:
            f = self._fns.get(d.body) if self.frozen else None
            env = dict(zip(d.params or (), args))
            v = self.ev(d.body, env) if f is None else f(env)
        finally:
            self._depth -= 1
            if reads is not None:
                reads.leave(outer, key)
        if key is not None:
            self._define_cache[key] = v
        return v

    def builtin(self, e: A.Call, args: list) -> object:
        f = e.func
        arity = BUILTIN_ARITY.get(f, (1,))
        if len(args) not in arity:
            raise PuzzleError(f"`{f}` takes {' or '.join(map(str, arity))} argument(s), {len(args)} given", e.span)
        if f == "region":
            return region_of(self, e, args)
        if f == "size":
            return size_of(e, args)
        x = args[0]
        if f in ("variants", "rotations"):
            return shape_variants(x, f == "variants", e.args[0].span)
        if f in ("degree", "connected", "acyclic") and not isinstance(x, EdgeGrid):
            raise PuzzleError(f"`{f}` takes an edge grid (`var NAME[..]: edges`), not {describe(x)}",
                              e.args[0].span)
        if f in GRAPH_KINDS:
            keys = x.keys()
            index = {k: i for i, k in enumerate(keys)}
            edges = [(index[p], index[q], _formula_of(x.cells[p + q])) for p, q in x.edges]
            if f == "acyclic":
                return Graph(f, [True] * len(keys), edges, e.span)
            at: dict[int, list] = {}
            for i, j, h in edges:
                at.setdefault(i, []).append(h)
                at.setdefault(j, []).append(h)
            return Graph(f, [self.model.or_(at.get(i, [])) for i in range(len(keys))], edges, e.span)
        if f == "known":
            return x is not None
        if f == "abs":
            if isinstance(x, int) and not isinstance(x, bool):
                return abs(x)
            if isinstance(x, Lin | IntVarCell):
                raise PuzzleError(ABS_OF_DECISION, e.args[0].span, help=ABS_HELP)
            raise PuzzleError(f"`abs` takes a number, not {describe(x)}", e.args[0].span)
        if f == "sorted":
            return sorted_value(x, e.args[0].span)
        if f == "len":
            if isinstance(x, Grid):
                return len(x.dims[0])
            if isinstance(x, list | tuple | range):
                return len(x)
            raise PuzzleError(f"`len` takes a list or grid, not {describe(x)}", e.args[0].span)
        if not isinstance(x, Grid):
            raise PuzzleError(f"`{f}` takes a grid, not {describe(x)}", e.args[0].span)
        if f == "cells" and len(args) == 2:
            return self.cells_holding(x, args[1], e)
        if f == "cells":
            return [k[0] if len(k) == 1 else k for k in x.keys()]
        if f == "values":
            return [list(v) if t is list else v for t, v in self.value_index(x, e)]
        if f == "adjacent":
            if isinstance(x, EdgeGrid):
                pairs = x.edges
            else:
                pairs = [(p, q) for p in x.keys() for q in orth_neighbours(x.dims, p, x.boundary == "wrap") if p < q]
            return [(p[0], q[0]) if len(p) == 1 else (p, q) for p, q in pairs]
        if f in ("rows", "cols"):
            k = 0 if f == "rows" else 1
            if len(x.dims) <= k:
                raise PuzzleError(f"`{x.name}` has no {'columns' if k else 'rows'}", e.args[0].span)
            return x.dims[k]
        if f == "dim":
            k = args[1]
            if not isinstance(k, int) or not 1 <= k <= len(x.dims):
                raise PuzzleError(f"`{x.name}` has dimensions 1..{len(x.dims)}", e.args[1].span)
            return x.dims[k - 1]
        p = args[1]
        key = p if isinstance(p, tuple) else (p,)
        if f == "ray":
            return self.ray(x, key, args[2], args[3] if len(args) == 4 else None, e)
        if f in ("neighbours", "degree"):
            if not x.inside(key):
                raise PuzzleError(f"{p} is not a cell of `{x.name}[{x.shape()}]`", e.args[1].span)
            if f == "neighbours":
                return self.neighbours(x, key)
            nbrs = orth_neighbours(x.dims, key, x.boundary == "wrap")
            total = Lin()
            for q in nbrs:
                v = x.cells.get(key + q)
                if isinstance(v, Cond):
                    total.terms[v.h] = total.terms.get(v.h, 0) + 1
                elif v is True:
                    total.const += 1
            return total if total.terms else total.const
        return x.inside(key)

    def ray(self, g: Grid, key: tuple[int, ...], d: object, most: object, e: A.Call) -> list:
        if not g.inside(key):
            raise PuzzleError(f"{key[0] if len(key) == 1 else key} is not a cell of `{g.name}[{g.shape()}]`",
                              e.args[1].span)
        step = d if isinstance(d, tuple) else (d,)
        if len(step) != len(key) or not all(type(i) is int for i in step):
            shape = "a number" if len(key) == 1 else f"a tuple of {len(key)} numbers"
            raise PuzzleError(f"a direction of `{g.name}` is {shape}, not {describe(d)}", e.args[2].span,
                              "e.g. `d in orth`, or `(0, 1)` for rightwards")
        if most is not None and (type(most) is not int or most < 0):
            raise PuzzleError(f"the length of a ray is a number 0 or more, not {describe(most)}", e.args[3].span)
        cells = ray_cells(g.dims, key, step, g.boundary == "wrap", most)
        return [q[0] if len(q) == 1 else q for q in cells]

    def neighbours(self, g: Grid, key: tuple[int, ...]) -> list:
        """`neighbours(g, p)`, computed once per shape and cell (rules ask for it per binding)."""
        at = (g.dims, g.boundary == "wrap", key)
        found = self._neighbours.get(at)
        if found is None:
            found = self._neighbours[at] = [q[0] if len(q) == 1 else q
                                            for q in orth_neighbours(g.dims, key, g.boundary == "wrap")]
        return found

    def value_index(self, g: Grid, e: A.Call) -> dict:
        """The cells of a known grid by value (unknown cells left out), built once per grid: a
        region's cells are then found in its own size, not by a pass over the whole board."""
        if self.reads is not None:
            self.reads.whole(g)
        found = self._value_index.get(id(g))
        if found is not None:
            return found[1]
        index: dict[tuple, list] = {}
        for k in g.keys():
            v = g.cells.get(k)
            if v is None:
                continue
            if not _is_static(v):
                raise PuzzleError(f"`{e.func}` needs a grid known before solving; `{g.name}` is decided by the solver",
                                  e.args[0].span, "use a given grid (regions, clues), not a variable")
            index.setdefault(_value_key(v), []).append(k[0] if len(k) == 1 else k)
        keys = sorted(index, key=lambda t: t[1]) if all(t[0] is int for t in index) else list(index)
        by_value = {t: index[t] for t in keys}
        self._value_index[id(g)] = (g, by_value)  # the grid is kept so that its id stays its own
        return by_value

    def cells_holding(self, g: Grid, v: object, e: A.Call) -> list:
        return list(self.value_index(g, e).get(_value_key(v), ()))

    # ------------------------------------------------------------ aggregates
    def iter_bindings(self, bindings: tuple[A.Binding, ...], where: A.Expr | None, env: dict,
                      scoped: bool = False, guarded: bool = False) -> Iterator[dict]:
        """The environments of the bindings that pass their filters. `scoped` (a rule's own
        `forall`): what each item's filter reads of the clues is its own (`ReadLog`). A `while`
        ends a binding's run at the first item where it is false; one that depends on decisions
        (`guarded` callers only) leaves under `GUARD` the condition "every `while` so far held"."""
        env = dict(env)
        env.pop(GUARD, None)  # an enclosing aggregate's guard is not this one's
        last = len(bindings) - 1
        if last < 0:
            return iter([env] if where is None or self.passes(where, env) else [])
        reads = self.reads if scoped else None
        if reads is None and self.frozen and all(b.while_ is None for b in bindings):
            return self._plain_bindings(bindings, where, env)

        def rec(i: int, guard: int | bool) -> Iterator[dict]:  # the innermost binding yields itself
            b = bindings[i]
            name = None if b.is_tuple else b.names[0]
            items = self.iterable(self.ev(b.source, env), b.source.span)
            mark = reads.mark() if reads is not None else None  # what the sources read holds for each item
            run = guard
            for item in items:
                if reads is not None:
                    reads.back(mark)
                if name is not None:
                    env[name] = item
                else:
                    if not isinstance(item, tuple) or len(item) != len(b.names):
                        raise PuzzleError(f"cannot unpack {describe(item)} into ({', '.join(b.names)})", b.span)
                    env.update(zip(b.names, item))
                if b.while_ is not None:
                    run = self.take_while(b.while_, env, run, guarded)
                    if run is False:
                        break
                    if run is True:
                        env.pop(GUARD, None)
                    else:
                        env[GUARD] = run
                if b.where is not None and not self.passes(b.where, env):
                    continue
                if i < last:
                    yield from rec(i + 1, run)
                elif where is None or self.passes(where, env):
                    yield env

        return rec(0, True)

    def _plain_bindings(self, bindings: tuple[A.Binding, ...], where: A.Expr | None, env: dict) -> Iterator[dict]:
        """`iter_bindings` without `while` (the usual `forall r in 1..R, c in 1..C where …`),
        with each source and filter's closure looked up once."""
        fns = self._fns
        steps = []
        for b in bindings:
            for x in (b.source, b.where):
                if x is not None and x not in fns:
                    fns[x] = make_fn(self, x)
            steps.append((b.names[0] if not b.is_tuple else None, b, fns[b.source],
                          None if b.where is None else fns[b.where], b.where))
        if where is not None and where not in fns:
            fns[where] = make_fn(self, where)
        fwhere = None if where is None else fns[where]
        iterable, passes, last = self.iterable, self.passes, len(steps) - 1

        def ok(f, w: A.Expr) -> bool:
            v = f(env)
            return v if v is True or v is False else passes(w, env)

        def rec(i: int) -> Iterator[dict]:
            name, b, fsource, fw, w = steps[i]
            for item in iterable(fsource(env), b.source.span):
                if name is not None:
                    env[name] = item
                elif isinstance(item, tuple) and len(item) == len(b.names):
                    env.update(zip(b.names, item))
                else:
                    raise PuzzleError(f"cannot unpack {describe(item)} into ({', '.join(b.names)})", b.span)
                if fw is not None and not ok(fw, w):
                    continue
                if i < last:
                    yield from rec(i + 1)
                elif fwhere is None or ok(fwhere, where):
                    yield env

        return rec(0)

    def take_while(self, cond: A.Expr, env: dict, run: int | bool, guarded: bool) -> int | bool:
        """The condition that a `while` has held for every item up to this one."""
        f = self.formula(self.ev(cond, env), cond.span)
        if f is True or f is False or run is False:
            return run if f is True else False
        if not guarded:
            raise PuzzleError("this `while` depends on decision variables, which only `forall`, `exists`, "
                              "`count`, `sum`, `exactly`, `atmost`, `atleast` and `connected` allow", cond.span)
        return self.model.and_([run, f]) if run is not True else f

    def passes(self, where: A.Expr, env: dict) -> bool:
        """The value of a `where` filter, which must be known before solving."""
        w = self.ev(where, env)
        if isinstance(w, Cond):
            raise PuzzleError("a `where` filter must be known before solving, but this one depends on "
                              "decision variables", where.span, "move the condition into the body, "
                              "e.g. `forall x in S: cond -> body`")
        if w is not True and w is not False:
            raise PuzzleError(f"a `where` filter is a condition, found {describe(w)}", where.span)
        return w

    def iterable(self, v: object, span: Span) -> list | range | tuple:
        if isinstance(v, range):
            limits.check("cells", limits.size(v), "this range has too many values to run over", span)
            return v
        if isinstance(v, list | tuple):
            return v
        if isinstance(v, Grid):
            return [k[0] if len(k) == 1 else k for k in v.keys()]
        if isinstance(v, RegionOf):
            raise _region_misuse(v)
        raise PuzzleError(f"cannot range over {describe(v)}", span, "use a range `a..b`, a list, or `cells(grid)`")

    def _aggregate(self, e: A.Aggregate, env: dict) -> object:
        if e.kind == "connected":
            return self._connected_cells(e, env)
        if any(b.while_ is not None for b in e.bindings):
            return self._guarded_aggregate(e, env)
        return self.combine(e, [self.ev(e.body, inner) for inner in self.iter_bindings(e.bindings, e.where, env)],
                            env)

    def _guarded_aggregate(self, e: A.Aggregate, env: dict) -> object:
        """An aggregate with a `while` on decisions: an item counts only where its guard holds."""
        m, k, span = self.model, e.kind, e.body.span
        items = []
        for inner in self.iter_bindings(e.bindings, e.where, env, guarded=k in GUARDED_KINDS):
            v, guard = self.ev(e.body, inner), inner.get(GUARD, True)
            if guard is not True:
                if k == "all":
                    v = _cond(m.implies(guard, self.formula(v, span)))
                elif k == "sum":
                    n = self.lin(v, span)
                    if not isinstance(n, int):
                        raise PuzzleError("a `sum` with a `while` on decisions adds numbers known before solving; "
                                          "this one depends on decisions", span,
                                          "sum a known number per item, or count the items: `count(…: cond)`")
                    v = Lin(0, {guard: n}) if n else 0
                else:
                    v = _cond(m.and_([guard, self.formula(v, span)]))
            items.append(v)
        return self.combine(e, items, env)

    def combine(self, e: A.Aggregate, items: list, env: dict) -> object:
        """An aggregate's value from the values of its body, one per binding."""
        k = e.kind
        if k == "list":
            return items
        if k == "set":
            return _distinct(items)
        if k == "runs":
            return Runs(tuple(self.formula(v, e.body.span) for v in items), e.cyclic)
        m = self.model
        if k in ("all", "any"):
            fs = [self.formula(v, e.body.span) for v in items]
            return _cond(m.and_(fs) if k == "all" else m.or_(fs))
        if k in ("sum", "count"):  # summed in place: a long sum stays linear in its length
            const, terms, span = 0, {}, e.body.span
            if k == "count":
                for v in items:
                    f = self.formula(v, span)
                    if f is True:
                        const += 1
                    elif f is not False:
                        terms[f] = terms.get(f, 0) + 1
                return Lin(const, terms) if terms else const
            for v in items:
                lv = self.lin(v, span)
                if type(lv) is int:
                    const += lv
                    continue
                const += lv.const
                for h, c in lv.terms.items():
                    terms[h] = terms.get(h, 0) + c
            return Lin(const, terms) if terms else const
        if k in ("min", "max"):
            vals = [self.lin(v, e.body.span) for v in items]
            if any(not isinstance(v, int) for v in vals):
                raise PuzzleError(f"`{k}` needs values known before solving", e.body.span)
            if not vals:
                raise PuzzleError(f"`{k}` over an empty set", e.span)
            return min(vals) if k == "min" else max(vals)
        if k == "alldiff":
            return self.alldiff(items, e)
        bound = self.static_int(e.bound, env)
        fs = [self.formula(v, e.body.span) for v in items]
        cmp = {"exactly": "==", "atmost": "<=", "atleast": ">="}[k]
        return _cond(m.linear(_count_terms(fs), cmp, bound - sum(1 for f in fs if f is True)))

    def _connected_cells(self, e: A.Aggregate, env: dict) -> object:
        """`connected(p in S: cond)`: the cells p where cond holds are one orthogonally connected piece."""
        members: dict[tuple, int | bool] = {}
        for inner in self.iter_bindings(e.bindings, e.where, env, guarded=True):
            b = e.bindings[0]
            item = inner[b.names[0]] if not b.is_tuple else tuple(inner[n] for n in b.names)
            key = item if isinstance(item, tuple) else (item,)
            if not all(type(i) is int for i in key):
                raise PuzzleError(f"`connected` ranges over cells (numbers or tuples of numbers), found "
                                  f"{describe(item)}", b.source.span)
            f = self.formula(self.ev(e.body, inner), e.body.span)
            if GUARD in inner:
                f = self.model.and_([inner[GUARD], f])
            if f is not False:
                members[key] = self.model.or_([members.get(key, False), f])
        if len(members) <= 1:
            return True
        keys = list(members)
        index = {k: i for i, k in enumerate(keys)}
        edges = []
        for k in keys:
            for axis in range(len(k)):
                q = k[:axis] + (k[axis] + 1,) + k[axis + 1:]
                if q in index:
                    edges.append((index[k], index[q], True))
        return Graph("connected", [members[k] for k in keys], edges, e.span)

    def alldiff(self, items: list, e: A.Aggregate) -> object:
        m = self.model
        for v in items:
            if isinstance(v, list | tuple | set | frozenset | range | Grid) and not _deep_static(v):
                raise PuzzleError(f"`alldiff` compares single values (numbers, symbols, conditions), "
                                  f"not {describe(v)} that depends on decisions", e.span,
                                  "list the values themselves: `alldiff(c in cells(g): g[c])`")
        if all(_is_static(v) for v in items):
            try:
                return len(set(items)) == len(items)
            except TypeError:  # lists or grids of known values: compare them pairwise
                return not any(_eq(a, b) for i, a in enumerate(items) for b in items[i + 1:])
        if all(isinstance(v, IntVarCell) and not v.binary or (isinstance(v, int) and not isinstance(v, bool))
               for v in items):
            by_value: dict[int, list] = {}
            for v in items:
                if isinstance(v, int):
                    by_value.setdefault(v, []).append(True)
                else:
                    for i, h in enumerate(v.handles):
                        by_value.setdefault(v.lo + i, []).append(h)
            parts = [m.linear(_count_terms(fs), "<=", 1 - sum(1 for f in fs if f is True))
                     for fs in by_value.values() if len(fs) > 1]
            return _cond(m.and_(parts))
        parts = []
        for i in range(len(items)):
            for j in range(i + 1, len(items)):
                parts.append(self.formula(self.compare("!=", items[i], items[j], e), e.span))
        return _cond(m.and_(parts))


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
    return m.and_([m.implies(h, _index_relation(y, at_least, sy, op, -d.const - sx * i))
                   for i, h in enumerate(x.handles)])


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
    a variable one set of nodes however many comparisons read it."""
    out: list[int | bool] = [True] * len(y.handles)  # index 0: every value is at least the first
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


def _cells_equal(m: Model, a: IntVarCell, b: IntVarCell) -> int | bool:
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
    f = m.equalities[key] = m.and_([m.implies(h, _int_equals(m, b, a.lo + i)) for i, h in enumerate(a.handles)])
    if f is not True and f is not False and f > 0 and f in m.nodes:
        lo, hi = max(a.lo, b.lo), min(a.hi, b.hi)
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
    for flip in ((False, True) if mirrored else (False,)):
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


def unknown_name(name: str, span: Span, known: list[str]) -> PuzzleError:
    close = difflib.get_close_matches(name, sorted(set(known)), n=1)
    return PuzzleError(f"unknown name `{name}`", span, f"did you mean `{close[0]}`?" if close else None)


_DISPATCH = {
    A.IntLit: Grounder._int, A.BoolLit: Grounder._bool, A.Name: Grounder._name, A.TupleLit: Grounder._tuple,
    A.ListLit: Grounder._list, A.SetLit: Grounder._set, A.Range: Grounder._range, A.Neg: Grounder._neg,
    A.Not: Grounder._not, A.Binary: Grounder._binary, A.Compare: Grounder._compare, A.Logic: Grounder._logic,
    A.Ite: Grounder._ite, A.Index: Grounder._index, A.Call: Grounder._call, A.Aggregate: Grounder._aggregate,
}
