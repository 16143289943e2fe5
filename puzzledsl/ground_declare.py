"""Grounding, part one: the decision variables a program declares, as grids of literals,
integer cells and edge grids (created lazily where a grid is large)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import limits
from .errors import PuzzleError
from .ground_common import (
    _hashable,
)
from .joins import names_in
from .syntax import ast as A
from .values import (
    Cond,
    EdgeGrid,
    Grid,
    IntVarCell,
    Keys,
    LazyGrid,
    Symbol,
    describe,
    orth_neighbours,
)

if TYPE_CHECKING:
    pass

LAZY_FROM = 10_000  # cells: larger decision grids get variables only for the cells rules read
ONE_HOT_UP_TO = 24  # integer variables with more values are binary-encoded (measured: BENCHMARKS.md)
LABELS_ONE_HOT_UP_TO = 64  # the same for variables used only as labels (`int_use`), which one-hot suits

class Declarations:
    """The `Grounder`'s declarations of decision variables (a mixin: it shares the grounder's state)."""

    def declare_vars(self) -> None:
        # Dimensions, domains and boundaries are evaluated through closures, as rules are (a grid
        # indexed by a computed list of placements builds that list as fast as a rule would). The
        # closures are dropped afterwards: one built before every variable existed reads a later
        # variable's name the slow way, and the rules build their own.
        frozen, self.frozen = self.frozen, True
        try:
            for st in self.program.statements:
                if isinstance(st, A.Var) and not st.state:
                    self._declare(st)
        finally:
            self.frozen = frozen
            self._fns.clear()

    def declared_dims(self, st: A.Var) -> tuple[range, ...]:
        """A variable's dimensions, refused before anything is built when the grid is too large."""
        dims = tuple(self.dim_range(d, {}) for d in st.dims)
        limits.grid_cells([len(r) if isinstance(r, Keys) else limits.size(r) for r in dims], f"`{st.name}`", st.span)
        return dims

    def _declare(self, st: A.Var) -> None:
        dims = self.declared_dims(st)
        if any(isinstance(r, Keys) for r in dims) and (st.type.kind == "edges" or st.boundary is not None):
            raise PuzzleError("a grid indexed by a list of values has no edges and no boundary", st.span,
                              "declare it over ranges (`[1..R, 1..C]`), or drop the `edges`/`outside`/`wrap`; "
                              "for a graph of other nodes, list its edges: `acyclic((p, q) in EDGES: …)`")
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
                read = self._given_values(st.type.lo, st.type.hi)
                raise PuzzleError(f"empty domain {lo}..{hi} for `{st.name}`", st.type.span,
                                  f"its bounds read {read}: the data may be too small for these rules"
                                  if read else None)
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
            # two calls, not a generator: compiled, that would hold `create` in this call's scope, a cycle
            declared = LazyGrid(grid.name, grid.dims, create=create, domain=domain, free=free)
            view = LazyGrid(grid.name, grid.dims, create=create, domain=domain, free=free)
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

    def _given_values(self, *exprs: A.Expr) -> str:
        """`N = 1`: the givens (bound from data, or defaulted) that expressions read, as values."""
        read: set[str] = set()
        for e in exprs:
            names_in(e, read)
        return ", ".join(f"{n} = {self.givens[n]}" for n in sorted(read)
                         if n in self.givens and not isinstance(self.givens[n], Grid))

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
                raise PuzzleError(f"a listed dimension holds numbers, symbols or tuples of them, not {_unkeyable(x)}",
                                  d.span, "a list cannot be part of an index: index by the item's position "
                                          "(`var take[1..len(L)]`) or by a number or tuple it holds, and read the "
                                          "list from there" if isinstance(x, tuple) else None)
        keys = Keys(items)
        if len(set(items)) != len(items):
            raise PuzzleError("a listed dimension names a value twice", d.span, "use `set(...)` to drop repeats")
        return keys


def _unkeyable(x: object) -> str:
    """What makes a value unfit as an index: a tuple is named by the item that is not (a list)."""
    if isinstance(x, tuple):
        for i, item in enumerate(x, 1):
            if isinstance(item, bool) or not isinstance(item, int | Symbol | tuple) or not _hashable(item):
                return f"a tuple whose item {i} is {describe(item)}"
    return describe(x)
