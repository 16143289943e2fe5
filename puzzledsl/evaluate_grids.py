"""The values the re-check (`evaluate.py`) reads rules over: truth values and numbers as the
language reference defines them, equality, the cells of grids and the graphs of chosen edges.

Plain functions over finished values (`values.Grid`, tuples, ints), apart from `GridCells`,
which keeps what a re-check asks of one grid many times (its cells in order, its cells by value).
Like `evaluate.py`, nothing here imports grounding or encoding code.
"""

from __future__ import annotations

from itertools import product

from .values import EdgeGrid, Grid, Symbol, orth_neighbours, reachable_items, written


class Unreadable(Exception):
    """A construct this evaluator does not read (the rule stays unchecked)."""


# ---------------------------------------------------------------- values
def truth(v: object) -> bool:
    if v is True or v is False:
        return v
    raise Unreadable(f"not a condition: {v!r}")


def number(v: object) -> int:
    if v is True or v is False:
        return int(v)  # a condition used as a number counts 1 or 0
    if isinstance(v, int):
        return v
    raise Unreadable(f"not a number: {v!r}")


def ordered(v: object) -> int | tuple:
    """A number, or a tuple of numbers (tuples order lexicographically)."""
    if type(v) is tuple:
        return tuple(number(x) for x in v)
    return number(v)


def same(a: object, b: object) -> bool:
    if isinstance(a, bool) != isinstance(b, bool):
        return False
    if isinstance(a, list | tuple | range) and isinstance(b, list | tuple | range):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return a == b


def distinct(items: list) -> list:
    out: list = []
    for v in items:
        if not any(same(v, w) for w in out):
            out.append(v)
    return out


def plain_key(v: object) -> tuple | None:
    """A value's key when `same` is plain equality of its type: numbers (a truth value apart
    from 1 and 0), names and text; None for lists and tuples."""
    t = type(v)
    return (t, v) if t is int or t is bool or t is str or t is Symbol else None


def run_lengths(values: list[bool], cyclic: bool = False) -> list[int]:
    """`runs(…)` of known values: the lengths of the blocks of true values, in order; around a
    ring (`cyclic`) read from the first value on, the block that wraps over the end last."""
    if cyclic and values and all(values):
        return [len(values)]
    if cyclic and values:  # cut the ring just after a false value
        k = values.index(False) + 1
        values = values[k:] + values[:k]
    return [len(block) for block in "".join("#" if v else "." for v in values).split(".") if block]


# ---------------------------------------------------------------- grids
def flat(idx: list) -> tuple:
    out: list = []
    for i in idx:
        out.extend(i if isinstance(i, tuple) else (i,))
    return tuple(out)


def inside(g: Grid, key: tuple) -> bool:
    return len(key) == len(g.dims) and all(k in r for k, r in zip(key, g.dims, strict=True))


def wrap(g: Grid, key: tuple) -> tuple:
    return tuple(r.start + (k - r.start) % len(r) for k, r in zip(key, g.dims, strict=True))


def neighbours(g: Grid, key: tuple) -> list[tuple]:
    return orth_neighbours(g.dims, key, g.boundary == "wrap")


def index(base: object, idx: list) -> object:
    """`base[idx]` as the rules read it: a list's item, a grid's cell (wrapped or outside as its
    boundary says), an edge in either order."""
    if isinstance(base, list | tuple | range):
        if len(idx) != 1:
            raise Unreadable("a list takes one index")
        return base[number(idx[0])]
    if not isinstance(base, Grid):
        raise Unreadable("indexing something that is not a grid")
    if base.keyed:  # listed values, each index taken whole
        key = tuple(idx)
        if key not in base.cells:
            raise Unreadable("a value that is not an index of its grid")
        return base.cells[key]
    key = flat(idx)
    if isinstance(base, EdgeGrid):
        n = len(base.dims)
        p, q = key[:n], key[n:]
        if base.boundary == "wrap":
            p, q = wrap(base, p), wrap(base, q)
        v = base.cells.get(p + q, base.cells.get(q + p))
        if v is None:
            if not (inside(base, p) and inside(base, q)) and base.boundary == "outside":
                return base.outside
            raise Unreadable("an edge that is not there")
        return v
    if base.boundary == "wrap":
        key = wrap(base, key)
    if not inside(base, key):
        if base.boundary == "outside":
            return base.outside
        raise Unreadable("a cell outside its grid")
    return base.cells.get(key)


def region(g: Grid, key: tuple) -> list:
    """The cells joined to `key` through neighbours of the same value, row-major."""
    value = index(g, list(key))
    seen, todo = {key}, [key]
    while todo:
        p = todo.pop()
        for q in neighbours(g, p):
            if q not in seen and same(index(g, list(q)), value):
                seen.add(q)
                todo.append(q)
    return [k[0] if len(k) == 1 else k for k in sorted(seen)]


def variants(shape: object, mirrored: bool) -> list:
    """A shape's rotations (and with `mirrored` its reflections), each moved to start at (0, 0)."""
    cells = list(shape)  # type: ignore[call-overload]
    out: list = []
    for flip in [False, True] if mirrored else [False]:
        turned = [(r, -c) for r, c in cells] if flip else cells
        for _ in range(4):
            turned = [(c, -r) for r, c in turned]
            ordered_ = sorted(set(turned))
            moved = [(r - ordered_[0][0], c - ordered_[0][1]) for r, c in ordered_]
            if moved not in out:
                out.append(moved)
    return out


class GridCells:
    """What a re-check asks of one grid again and again, worked out once per grid."""

    def __init__(self) -> None:
        self._keys: dict[int, tuple[Grid, list]] = {}  # id(grid) -> (grid, its cells in order)
        self._by_value: dict[int, tuple[Grid, tuple]] = {}  # id(grid) -> (grid, `groups`)
        self._neighbours: dict[tuple, tuple[Grid, list]] = {}  # (id(grid), cell) -> (grid, its neighbours)

    def keys(self, g: Grid) -> list:
        """The cells of a grid, row-major: numbers for 1-D, tuples otherwise."""
        found = self._keys.get(id(g))
        if found is None:
            out = [k[0] if len(k) == 1 else k for k in product(*g.dims)]
            found = self._keys[id(g)] = (g, out)
        return found[1]

    def by_value(self, g: Grid) -> list[tuple[object, list]]:
        """The grid's values in order of first appearance, each with its cells."""
        return self.groups(g)[0]

    def groups(self, g: Grid) -> tuple[list[tuple[object, list]], dict]:
        """`by_value`, and its groups by `(type, value)` for numbers, names and text: found without
        comparing a cell's value to every group's (a board of hundreds of regions)."""
        found = self._by_value.get(id(g))
        if found is None:
            groups: list[tuple[object, list]] = []
            at: dict[tuple, list] = {}
            for k in self.keys(g):
                v = g.cells.get(k if isinstance(k, tuple) else (k,))
                if v is None:
                    continue
                plain = plain_key(v)
                cells = at.get(plain) if plain is not None else \
                    next((c for w, c in groups if plain_key(w) is None and same(v, w)), None)
                if cells is not None:
                    cells.append(k)
                    continue
                groups.append((v, [k]))
                if plain is not None:
                    at[plain] = groups[-1][1]
            found = self._by_value[id(g)] = (g, (groups, at))
        return found[1]

    def neighbours(self, g: Grid, p: tuple) -> list:
        """`neighbours(g, p)`: numbers for 1-D grids, tuples otherwise."""
        key = (id(g), p)
        found = self._neighbours.get(key)
        if found is None or found[0] is not g:
            found = self._neighbours[key] = (g, [q[0] if len(q) == 1 else q for q in neighbours(g, p)])
        return found[1]


# ---------------------------------------------------------------- graphs
def graph_break(chosen: list[tuple[object, object]], kind: str) -> str | None:
    """Where the chosen edges break `acyclic` (a closed loop's nodes) or `connected` (its
    pieces); None when they hold."""
    parent: dict = {}

    def root(a: object) -> object:
        while parent.setdefault(a, a) != a:
            a = parent[a]
        return a
    for i, (p, q) in enumerate(chosen):
        rp, rq = root(p), root(q)
        if rp == rq and kind == "acyclic":
            return "a closed loop through " + _nodes_text(_path(chosen[:i], q, p))
        parent[rp] = rq
    if kind == "acyclic":
        return None
    pieces = {root(p) for p, _ in chosen}
    if len(pieces) > 1:
        nodes = {x for edge in chosen for x in edge}
        return _pieces_text([sorted((x for x in nodes if root(x) == r), key=str) for r in pieces])
    return None


def cells_break(cells: list[tuple]) -> str | None:
    """The pieces, when the cells are not one orthogonally connected piece (none or one is)."""
    if not cells or len(reachable_items(cells, cells[0], None)) == len(set(cells)):
        return None
    left, pieces = set(cells), []
    while left:
        piece = reachable_items(cells, min(left), None)
        pieces.append(sorted(piece))
        left -= set(piece)
    return _pieces_text(pieces)


def _path(edges: list[tuple[object, object]], a: object, b: object) -> list[object]:
    """The nodes from a to b along edges that form a forest (a, b in one tree)."""
    adj: dict[object, list[object]] = {}
    for p, q in edges:
        adj.setdefault(p, []).append(q)
        adj.setdefault(q, []).append(p)
    back: dict[object, object] = {a: a}
    todo = [a]
    while todo and b not in back:
        x = todo.pop()
        for y in adj.get(x, ()):
            if y not in back:
                back[y] = x
                todo.append(y)
    path = [b]
    while path[-1] != a:
        path.append(back[path[-1]])
    return path[::-1]


def _nodes_text(nodes: list[object], shown: int = 8) -> str:
    """`(1, 1), (1, 2), …` (at most `shown` of them, then how many more)."""
    text = ", ".join(written(n) for n in nodes[:shown])
    return text + (f" and {len(nodes) - shown} more" if len(nodes) > shown else "")


def _pieces_text(pieces: list[list[object]]) -> str:
    """`3 pieces; the smallest: (4, 4)`: what a broken `connected` consists of."""
    smallest = min(pieces, key=lambda x: (len(x), str(x[0])))  # a piece is never empty
    return f"{len(pieces)} pieces; the smallest: {_nodes_text(smallest, 6)}"

