"""Grounding: the built-in functions (`cells`, `neighbours`, `ray`, `values`, `degree`, …) over
bound values and decision grids."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .errors import PuzzleError
from .ground_common import (
    ABS_HELP,
    ABS_OF_DECISION,
    BUILTIN_ARITY,
    GRAPH_KINDS,
    Graph,
    _formula_of,
    _is_static,
    _value_key,
    builtin_arity,
    shape_variants,
)
from .ground_regions import region_of, size_of
from .runs import sorted_value
from .syntax import ast as A
from .values import (
    Cond,
    EdgeGrid,
    Grid,
    IntVarCell,
    Lin,
    describe,
    orth_neighbours,
    ray_cells,
)

if TYPE_CHECKING:
    pass

class Builtins:
    """The `Grounder`'s built-ins (a mixin: it shares the grounder's state and caches)."""

    def builtin(self, e: A.Call, args: list) -> object:
        f = e.func
        if len(args) not in BUILTIN_ARITY.get(f, (1,)):
            raise builtin_arity(f, len(args), e.span)
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
                elif v is None and key + q in x.cells:  # an edge left open by `--determined`: no count
                    raise PuzzleError("the degree reads an edge that is not determined", e.span)
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
