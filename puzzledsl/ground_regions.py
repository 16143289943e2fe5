"""`region(g, p)` and `size(region(g, p)) CMP target` while grounding.

On a known grid a region is computed at once: the list of its cells. On a decision grid it
is known only after solving, so `size(region(g, p))` may only be compared at a rule's top
(or after `COND ->`); each such comparison becomes a bound of a lazily checked `sizes`
constraint (`region_sizes.py`), one per rule and grid, over the grid's *joins*: one variable
per pair of neighbouring cells, true when the two hold the same value. Local consequences
that need no search (a region of size 1 has no joined neighbour, a larger one has one) are
written out as clauses here, so that the solver propagates them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .errors import PuzzleError, Span
from .model import GraphConstraint, SizeBound, neg
from .syntax import ast as A
from .values import Cond, EdgeGrid, Grid, IntVarCell, Lin, describe, orth_neighbours

if TYPE_CHECKING:
    from .ground import Grounder

FLIP = {"==": "==", "!=": "!=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}


@dataclass(frozen=True)
class RegionOf:
    """`region(g, p)` of a decision grid: usable only as `size(region(g, p))`."""

    grid: Grid
    key: tuple[int, ...]
    span: Span


@dataclass(frozen=True)
class SizeOf:
    """`size(region(g, p))` of a decision grid: usable only compared at a rule's top."""

    region: RegionOf
    span: Span


@dataclass(frozen=True)
class SizeRule:
    """`size(region(g, p)) cmp target` (the size on the left): a bound for the solver loop."""

    size: SizeOf
    cmp: str
    target: object
    span: Span


def known_region(g: Grid, key: tuple[int, ...], span: Span) -> list:
    """The cells of a known grid connected to `key` through neighbours of equal value, row-major."""
    value = g.cells.get(key)
    seen = {key}
    todo = [key]
    wrap = g.boundary == "wrap"
    while todo:
        p = todo.pop()
        if isinstance(g.cells.get(p), Cond | IntVarCell | Lin):  # a grid the solver fills, not a `var`
            raise PuzzleError(f"`region` reads a given or a `var` grid; `{g.name}` changes while solving", span)
        for q in orth_neighbours(g.dims, p, wrap):
            if q not in seen and _same(g.cells.get(q), value):
                seen.add(q)
                todo.append(q)
    return [k[0] if len(k) == 1 else k for k in sorted(seen)]


def _same(a: object, b: object) -> bool:
    return isinstance(a, bool) == isinstance(b, bool) and a == b


def region_of(gr: Grounder, e: A.Call, args: list) -> object:
    """`region(g, p)`: the cells on a known grid, a `RegionOf` on a decision grid."""
    g, p = args
    if not isinstance(g, Grid) or g.keyed or isinstance(g, EdgeGrid):
        raise PuzzleError(f"`region` takes a grid of cells (a given or a `var` over ranges), not {describe(g)}",
                          e.args[0].span)
    key = p if isinstance(p, tuple) else (p,)
    if not g.inside(key):
        raise PuzzleError(f"{p} is not a cell of `{g.name}[{g.shape()}]`", e.args[1].span)
    if gr.vars.get(g.name) is g:
        return RegionOf(g, key, e.span)
    return known_region(g, key, e.args[0].span)


def size_of(e: A.Call, args: list) -> object:
    """`size(region(...))`: a `SizeOf` for a decision grid, the number of cells otherwise."""
    x = args[0]
    if isinstance(x, RegionOf):
        return SizeOf(x, e.span)
    if isinstance(x, list | tuple):
        return len(x)
    raise PuzzleError(f"`size` counts the cells of a region, `size(region(g, p))`, not {describe(x)}",
                      e.args[0].span, "for the length of a list write `len(...)`")


def size_rule(op: str, a: object, b: object, e: A.Expr) -> SizeRule:
    if isinstance(a, SizeOf) and isinstance(b, SizeOf):
        raise PuzzleError("compare the size of a region with a number, not with another region's size", e.span)
    if isinstance(a, SizeOf):
        return SizeRule(a, op, b, e.span)
    return SizeRule(b, FLIP[op], a, e.span)  # type: ignore[arg-type]


class RegionSizes:
    """The bounds of each rule, gathered per decision grid, and every grid's joins (built once)."""

    def __init__(self, gr: Grounder):
        self.gr = gr
        self._joins: dict[str, tuple[list[tuple[int, ...]], dict, list]] = {}
        self.pending: dict[str, list[SizeBound]] = {}

    def joins(self, g: Grid, span: Span) -> tuple[list[tuple[int, ...]], dict, list]:
        """The grid's cells, their node numbers, and (i, j, join) per pair of neighbours."""
        found = self._joins.get(g.name)
        if found is None:
            gr, m = self.gr, self.gr.model
            keys = g.keys()
            index = {k: i for i, k in enumerate(keys)}
            cells = {k: g.get(k, span) for k in keys}
            edges = []
            for p in keys:
                for q in orth_neighbours(g.dims, p, g.boundary == "wrap"):
                    if p < q:
                        same = gr.formula(gr.compare("==", cells[p], cells[q], _at(span)), span)
                        if same is not False:  # two cells fixed to different values are never joined
                            edges.append((index[p], index[q], m.as_var(same, span)))
            found = self._joins[g.name] = (keys, index, edges)
        return found

    def add(self, r: SizeRule, guard: int | bool, rule: A.Rule, env: dict) -> None:
        """A bound of this rule, with the clauses that follow from it at its own cell."""
        gr, m = self.gr, self.gr.model
        region = r.size.region
        keys, index, edges = self.joins(region.grid, r.span)
        node = index[region.key]
        t = r.target
        if isinstance(t, bool) or not isinstance(t, int | IntVarCell | Lin | Cond):
            raise PuzzleError(f"the size of a region is compared with a number, not {describe(t)}", r.span)
        if isinstance(t, IntVarCell) and not t.binary:
            bound = SizeBound(node, r.cmp, m.as_var(guard, r.span),
                              tuple((t.lo + i, h) for i, h in enumerate(t.handles)))
        elif isinstance(t, int):
            bound = SizeBound(node, r.cmp, m.as_var(guard, r.span), ((t, True),))
        elif isinstance(t, IntVarCell):
            bound = SizeBound(node, r.cmp, m.as_var(guard, r.span), (), t.lo,
                              tuple((h, 1 << i) for i, h in enumerate(t.handles)), binary=True)
        else:
            lin = Lin.of(gr.lin(t, r.span))
            terms = tuple((m.as_var(h, r.span), c) for h, c in lin.terms.items() if c)
            bound = SizeBound(node, r.cmp, m.as_var(guard, r.span), (), lin.const, terms)
        self.pending.setdefault(region.grid.name, []).append(bound)
        near = [f for i, j, f in edges if node in (i, j)]
        for f in self.local_clauses(r, guard, near, len(keys)):
            gr.require_rule(f, r.span, rule, env)

    def local_clauses(self, r: SizeRule, guard: int | bool, near: list, cells: int) -> list:
        """What the bound says about the cell's own neighbours: size 1 means no neighbour holds the
        same value, a larger size means one does, and some targets allow no size at all."""
        gr, m = self.gr, self.gr.model
        e = _at(r.span)

        def holds(op: str, k: int) -> int | bool:  # `target op k`
            return gr.formula(gr.compare(op, r.target, k, e), r.span)

        lo_ok = {"==": [holds(">=", 1), holds("<=", cells)], "<=": [holds(">=", 1)], "<": [holds(">=", 2)],
                 ">=": [holds("<=", cells)], ">": [holds("<=", cells - 1)], "!=": [True]}[r.cmp]
        one = {"==": holds("==", 1), "<=": holds(">=", 1), "<": holds(">=", 2), ">=": holds("<=", 1),
               ">": holds("<=", 0), "!=": holds("!=", 1)}[r.cmp]
        more = {"==": holds(">=", 2), "<=": holds(">=", 2), "<": holds(">=", 3)}.get(r.cmp, True)
        out = [m.or_([neg(guard), m.and_(lo_ok)]), m.or_([neg(guard), one, *near])]
        out += [m.or_([neg(guard), neg(f), more]) for f in near]
        return out

    def flush(self, rule: A.Rule) -> None:
        """One `sizes` constraint per grid for the bounds this rule made."""
        for name, bounds in self.pending.items():
            _, _, edges = self._joins[name]
            self.gr.model.graphs.append(GraphConstraint(
                "sizes", (True,) * len(self._joins[name][0]), tuple(edges), rule.span, rule.label, rule.span,
                tuple(bounds)))
        self.pending = {}


def _at(span: Span) -> A.Expr:
    return A.Expr(span)
