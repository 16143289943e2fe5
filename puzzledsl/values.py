"""Run-time values shared by data binding and grounding."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from itertools import product

from .errors import PuzzleError, Span


@dataclass(frozen=True)
class Symbol:
    """A named constant such as `water`, introduced by a legend or written in data."""

    name: str

    def __str__(self) -> str:
        return self.name


def cell_pair(item: object) -> bool:
    """An edge between two cells, `((1, 2), (1, 3))`: what `connected` over listed edges ranges
    over (a pair of numbers is a cell of the other form, `connected((r, c) in cells(g): …)`)."""
    return type(item) is tuple and len(item) == 2 and all(type(x) is tuple for x in item)


def plain(v: object) -> object:
    """A value as JSON and Python callers see it: a symbol as its name, a tuple (a view may
    return one) as a list of plain values, anything else as it is."""
    if isinstance(v, Symbol):
        return v.name
    if isinstance(v, tuple | list):
        return [plain(x) for x in v]
    return v


@dataclass(frozen=True)
class IntVarCell:
    """An integer decision variable. One-hot (`handles[i]` means value lo + i) for small
    domains; for large ones binary (`handles[i]` is bit i of value - lo), which keeps a
    label among hundreds to a handful of variables per cell."""

    lo: int
    handles: tuple[int, ...]
    binary: bool = False
    hi: int = 0

    def value(self, true: set[int]) -> int | None:
        if self.binary:
            return self.lo + sum(1 << i for i, h in enumerate(self.handles) if h in true)
        return next((self.lo + i for i, h in enumerate(self.handles) if h in true), None)

    def terms(self) -> dict[int, int]:
        if self.binary:
            return {h: 1 << i for i, h in enumerate(self.handles)}
        return {h: i for i, h in enumerate(self.handles) if i and h is not False}


class Lin:
    """A linear expression over formula handles: const + sum(coef * handle)."""

    __slots__ = ("const", "terms")

    def __init__(self, const: int = 0, terms: dict[int, int] | None = None):
        self.const = const
        self.terms: dict[int, int] = terms if terms is not None else {}

    @staticmethod
    def of(v: int | bool | Lin | IntVarCell) -> Lin:
        if isinstance(v, Lin):
            return v
        if isinstance(v, IntVarCell):
            return Lin(v.lo, v.terms())
        if v is True or v is False:
            return Lin(int(v))
        return Lin(v)

    @staticmethod
    def of_formula(h: int) -> Lin:
        return Lin(0, {h: 1})

    def add(self, other: Lin, sign: int = 1) -> Lin:
        terms = dict(self.terms)
        for h, c in other.terms.items():
            terms[h] = terms.get(h, 0) + sign * c
        return Lin(self.const + sign * other.const, terms)

    def scale(self, k: int) -> Lin:
        return Lin(self.const * k, {h: c * k for h, c in self.terms.items()})



class Keys:
    """A dimension made of a list of known values (`var pick[candidates]: bool`): iterates like
    a range, in the list's order, and answers `in` by hashing."""

    __slots__ = ("values", "_at")

    def __init__(self, values: list[object]):
        self.values = tuple(values)
        self._at = {v: i for i, v in enumerate(self.values)}

    def __iter__(self):
        return iter(self.values)

    def __len__(self) -> int:
        return len(self.values)

    def __contains__(self, v: object) -> bool:
        try:
            return v in self._at
        except TypeError:  # an unhashable value is never a key
            return False

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Keys) and self.values == other.values

    def __hash__(self) -> int:
        return hash(self.values)


@dataclass
class Grid:
    """A given or decision grid: cells by index tuple, with an optional boundary rule."""

    name: str
    dims: tuple[range, ...]
    cells: dict[tuple[int, ...], object] = field(default_factory=dict)
    boundary: str | None = None  # None | "outside" | "wrap"
    outside: object = None

    def keys(self) -> list[tuple[int, ...]]:
        return list(product(*self.dims))

    def empty_like(self) -> Grid:
        """A grid of the same shape and boundary, without cells (for solved values)."""
        return Grid(self.name, self.dims, boundary=self.boundary, outside=self.outside)

    def shape(self) -> str:
        return ", ".join(f"{len(r)} listed values" if isinstance(r, Keys) else range_text(r) for r in self.dims)

    @cached_property
    def keyed(self) -> bool:
        """Some dimension is a list of values: an index is taken whole, never spread."""
        return any(isinstance(r, Keys) for r in self.dims)

    def get(self, idx: tuple[int, ...], span: Span) -> object:
        v = self.cells.get(idx, MISSING)
        if v is not MISSING:
            return v
        if len(idx) != len(self.dims):
            raise PuzzleError(f"`{self.name}` has {len(self.dims)} index(es), but {len(idx)} were given", span,
                              f"give them in one pair of brackets: `{self.name}[{', '.join('ijkl'[:len(self.dims)])}]` "
                              "(`g[1][2]` reads `g[1]` first)" if len(idx) < len(self.dims) <= 4 else None)
        if self.boundary == "wrap":
            wrapped = tuple(r.start + (i - r.start) % len(r) for i, r in zip(idx, self.dims))
            return self.cells[wrapped]
        if self.boundary == "outside":
            return self.outside
        shown = idx[0] if len(idx) == 1 else idx
        raise PuzzleError(f"index {shown} is outside `{self.name}[{self.shape()}]`", span,
                          f"skip the cells past the edge with `where inside({self.name}, …)`, or declare "
                          f"`{self.name}` with `outside VALUE` (or `wrap`) to allow reading past its edge")

    def inside(self, idx: tuple[int, ...]) -> bool:
        dims = self.dims
        if len(idx) == 2 == len(dims):  # a board's cell, asked for every cell of every rule: no generator
            return idx[0] in dims[0] and idx[1] in dims[1]
        return len(idx) == len(dims) and all(i in r for i, r in zip(idx, dims))

    def nested(self, fn=lambda v: v) -> object:
        """The cells as nested lists, row-major, for JSON and rendering."""
        def build(depth: int, prefix: tuple[int, ...], again) -> object:  # `again` is `build`: no cycle
            if depth == len(self.dims):
                return fn(self.cells[prefix])
            return [again(depth + 1, prefix + (i,), again) for i in self.dims[depth]]
        return build(0, (), build)


MISSING = object()


def orth_neighbours(dims: tuple[range, ...], key: tuple[int, ...], wrap: bool = False) -> list[tuple[int, ...]]:
    """The cells next to `key` along one axis, inside `dims` (across the edge too when wrapping)."""
    out: list[tuple[int, ...]] = []
    for axis, r in enumerate(dims):
        for step in (-1, 1):
            i = key[axis] + step
            if wrap:
                i = r.start + (i - r.start) % len(r)
            elif i not in r:
                continue
            q = key[:axis] + (i,) + key[axis + 1:]
            if q != key and q not in out:
                out.append(q)
    return out


def reachable_items(items: list, starts: object, span: Span | None, ok: Callable[[object], bool] | None = None) -> list:
    """`reachable(STARTS, p in S where F)`: the items (cells or numbers) joined to a start by
    steps of one along one axis through items; in the items' order, each once. A flood fill
    over known values, so that a rule file can restrict variables to what can be reached.
    `ok` is the filter F, asked only of the items the fill comes next to."""
    def key(x: object) -> tuple[int, ...]:
        if type(x) is int:
            return (x,)
        if type(x) is tuple and x and all(type(i) is int for i in x):
            return x
        raise PuzzleError(f"`reachable` steps between cells (tuples of numbers) or numbers, found {x!r}", span)

    order = {key(x): x for x in items}
    verdict: dict[tuple[int, ...], bool] = {}

    def takes(k: tuple[int, ...]) -> bool:
        if k not in order:
            return False
        if ok is None:
            return True
        v = verdict.get(k)
        if v is None:
            v = verdict[k] = ok(order[k])
        return v

    first = list(starts) if isinstance(starts, list | range | set | frozenset) else [starts]
    seen = {k for k in map(key, first) if takes(k)}
    todo = list(seen)
    while todo:
        k = todo.pop()
        for axis in range(len(k)):
            for step in (-1, 1):
                q = k[:axis] + (k[axis] + step,) + k[axis + 1:]
                if q not in seen and takes(q):
                    seen.add(q)
                    todo.append(q)
    return [x for k, x in order.items() if k in seen]


def ray_cells(dims: tuple[range, ...], key: tuple[int, ...], step: tuple[int, ...],
              wrap: bool = False, most: int | None = None) -> list[tuple[int, ...]]:
    """`ray(g, p, d)`: the cells p + d, p + 2d, … nearest first, up to the edge (on a wrapping
    grid, once round: up to the cell before p comes again), at most `most` of them."""
    out: list[tuple[int, ...]] = []
    if not any(step):
        return out
    q = key
    while most is None or len(out) < most:
        q = tuple(a + b for a, b in zip(q, step))
        if wrap:
            q = tuple(r.start + (i - r.start) % len(r) for i, r in zip(q, dims))
            if q == key:
                return out
        elif not all(i in r for i, r in zip(q, dims)):
            return out
        out.append(q)
    return out


@dataclass
class EdgeGrid(Grid):
    """A decision variable per pair of orthogonally adjacent cells (`var link[..]: edges`).
    `cells` holds every edge under both orders of its two cells (`p + q` and `q + p`);
    `edges` lists each once, as (p, q) with p before q."""

    edges: list[tuple[tuple[int, ...], tuple[int, ...]]] = field(default_factory=list)

    def empty_like(self) -> EdgeGrid:
        return EdgeGrid(self.name, self.dims, boundary=self.boundary, outside=self.outside, edges=self.edges)

    def get(self, idx: tuple[int, ...], span: Span) -> object:
        v = self.cells.get(idx, MISSING)
        if v is not MISSING:
            return v
        n = len(self.dims)
        if len(idx) != 2 * n:
            raise PuzzleError(f"an edge of `{self.name}` is read with two cells, `{self.name}[p, q]` "
                              f"({2 * n} numbers), but {len(idx)} were given", span,
                              f"name both ends: `{self.name}[p, q]` for the edge between cells p and q "
                              f"(`q in neighbours({self.name}, p): {self.name}[p, q]`); how many edges a cell has "
                              f"is `degree({self.name}, p)`" if len(idx) == n else None)
        p, q = idx[:n], idx[n:]
        if self.inside(p) and self.inside(q):
            raise PuzzleError(f"cells {_show_key(p)} and {_show_key(q)} are not neighbours in `{self.name}`", span)
        if self.boundary == "outside":
            return self.outside
        raise PuzzleError(f"the edge {_show_key(p)}-{_show_key(q)} is outside `{self.name}[{self.shape()}]`", span,
                          f"declare `{self.name}` with `outside false` to allow reading past its edge")

    def nested(self, fn=lambda v: v) -> object:
        """The chosen edges, as [[p, q], ...] (for JSON)."""
        return [[list(p), list(q)] for p, q in self.edges if fn(self.cells[p + q]) is True]

    def at(self, key: tuple[int, ...]) -> list[tuple[tuple[int, ...], object]]:
        """(neighbour, edge value) for every edge at cell `key`."""
        return [(q, self.cells[key + q]) for q in orth_neighbours(self.dims, key, self.boundary == "wrap")
                if key + q in self.cells]


@dataclass
class LazyGrid(Grid):
    """A decision grid too large to create whole: a cell gets its variables when a rule
    first reads it (`create`). Cells no rule reads are free: any of `domain` values, shown
    as `free`."""

    create: Callable[[tuple[int, ...]], object] | None = None
    domain: int = 2
    free: object = False

    def get(self, idx: tuple[int, ...], span: Span) -> object:
        v = self.cells.get(idx, MISSING)
        if v is not MISSING:
            return v
        if self.inside(idx):
            return self.create(idx)  # type: ignore[misc]
        if self.boundary == "wrap" and len(idx) == len(self.dims):
            return self.get(tuple(r.start + (i - r.start) % len(r) for i, r in zip(idx, self.dims)), span)
        return super().get(idx, span)

    def unread(self) -> int:
        """How many cells no rule has read."""
        total = 1
        for r in self.dims:
            total *= len(r)
        return total - len(self.cells)


def binding_text(binding: tuple[tuple[str, object], ...]) -> str:
    """A rule instance's loop values as the rules write them: `p = (3, 2), k = 7`."""
    return ", ".join(f"{name} = {written(v)}" for name, v in binding)


def written(v: object) -> str:
    """A value as the rules write it: `(3, 2)`, `7`, `water`, `true`, `?`."""
    if isinstance(v, tuple):
        return "(" + ", ".join(map(written, v)) + ")"
    if isinstance(v, list):
        return "[" + ", ".join(map(written, v)) + "]"
    return "true" if v is True else "false" if v is False else "?" if v is None else str(v)


def _show_key(k: tuple[int, ...]) -> str:
    return str(k[0]) if len(k) == 1 else "(" + ", ".join(map(str, k)) + ")"


class Cond:
    """A condition that depends on decision variables: a formula handle."""

    __slots__ = ("h",)

    def __init__(self, h: int):
        self.h = h


def _cond(f: int | bool) -> object:
    return f if f is True or f is False else Cond(f)



def describe(v: object) -> str:
    """A value's kind in the user's words, for messages."""
    if v is True or v is False:
        return "a condition (true/false)"
    if isinstance(v, int):
        return "a number"
    if isinstance(v, Symbol):
        return f"the symbol `{v}`"
    if v is None:
        return "an unknown value (`?`)"
    if isinstance(v, tuple):
        return f"a tuple of {len(v)}"
    if isinstance(v, list | range):
        return "a list"
    if isinstance(v, Grid):
        return f"the grid `{v.name}`"
    if isinstance(v, Lin | IntVarCell):
        return "a number that depends on decision variables"
    if type(v).__name__ == "Runs":
        return "the blocks of a line (`runs(…)`), known only once solved"
    if type(v).__name__ == "RegionOf":
        return "the region of a cell of a decision grid, known only once solved"
    if type(v).__name__ == "SizeOf":
        return "the size of a region of a decision grid, known only once solved"
    if type(v).__name__ == "SizeRule":
        return "a bound on the size of a region, which must be a rule of its own"
    return type(v).__name__


def range_text(r: range) -> str:
    """A dimension's range as the rules write it: `1..9`."""
    return f"{r.start}..{r.stop - 1}"
