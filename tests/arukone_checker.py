"""An independent Arukone (Numberlink) checker, written from the rules and not from any encoder.

Rules: every pair of equal numbers is joined by a line running orthogonally from cell to cell;
a line never crosses or shares a cell with another line (nor with itself); a numbered cell is
the end of exactly one line, every other cell of a line has exactly two line neighbours, and
there is no line that does not join a pair (so no loops). Cells may stay empty unless `fill`.
With `touchfree`, a line never runs orthogonally next to itself: two adjacent cells of the
same line are consecutive on it.

A solution is a label grid (the pair number per cell, 0 = empty) and, where a line touches
itself, the set of its edges: the label grid alone cannot say which neighbours are linked.
Cells are (row, column), 0-based; messages count from 1.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

Cell = tuple[int, int]
Edge = tuple[Cell, Cell]
ClueGrid = Sequence[Sequence[int | None]]
LabelGrid = Sequence[Sequence[int]]

MIXED = -1
"""Label that `labels_from_edges` gives to a line piece joining no number or several numbers."""

HAMILTON_BUDGET = 200_000
"""Search steps allowed per self-touching line when recovering its route from labels."""


class AmbiguousLabels(ValueError):
    """The label grid does not determine the lines' edges (a line touches itself)."""

    def __init__(self, label: int, message: str) -> None:
        super().__init__(message)
        self.label = label


def where(cell: Cell) -> str:
    return f"row {cell[0] + 1}, column {cell[1] + 1}"


def neighbours(cell: Cell, rows: int, cols: int) -> list[Cell]:
    r, c = cell
    return [(y, x) for y, x in ((r - 1, c), (r, c + 1), (r + 1, c), (r, c - 1)) if 0 <= y < rows and 0 <= x < cols]


def edge(a: Cell, b: Cell) -> Edge:
    """The edge between two cells in its normal form (smaller cell first)."""
    return (a, b) if a <= b else (b, a)


def normalize_edges(edges: Iterable[Sequence[Sequence[int]]]) -> frozenset[Edge]:
    """Edges given as any pairs of (row, column) pairs, in normal form."""
    out = set()
    for a, b in edges:
        out.add(edge((int(a[0]), int(a[1])), (int(b[0]), int(b[1]))))
    return frozenset(out)


def clue_cells(clues: ClueGrid) -> dict[int, list[Cell]]:
    """Number -> its cells, in row-major order."""
    where_: dict[int, list[Cell]] = {}
    for r, row in enumerate(clues):
        for c, n in enumerate(row):
            if n is not None:
                where_.setdefault(n, []).append((r, c))
    return dict(sorted(where_.items()))


def _adjacency(edges: Iterable[Edge]) -> dict[Cell, list[Cell]]:
    adj: dict[Cell, list[Cell]] = {}
    for a, b in edges:
        adj.setdefault(a, []).append(b)
        adj.setdefault(b, []).append(a)
    return adj


def _component(start: Cell, adj: dict[Cell, list[Cell]]) -> set[Cell]:
    seen, todo = {start}, [start]
    while todo:
        for n in adj.get(todo.pop(), []):
            if n not in seen:
                seen.add(n)
                todo.append(n)
    return seen


def labels_from_edges(clues: ClueGrid, edges: Iterable[Sequence[Sequence[int]]]) -> list[list[int]]:
    """The label grid that an edge set gives: each connected piece of line takes the number of
    the numbered cells it contains; a piece with none or several different numbers gets MIXED;
    cells on no edge are 0, and a numbered cell always keeps its number."""
    rows, cols = len(clues), len(clues[0]) if clues else 0
    adj = _adjacency(normalize_edges(edges))
    labels = [[0 if n is None else n for n in row] for row in clues]
    seen: set[Cell] = set()
    for start in adj:
        if start in seen:
            continue
        piece = _component(start, adj)
        seen |= piece
        numbers = {clues[r][c] for r, c in piece if 0 <= r < rows and 0 <= c < cols and clues[r][c] is not None}
        label = numbers.pop() if len(numbers) == 1 else MIXED
        for r, c in piece:
            if 0 <= r < rows and 0 <= c < cols and clues[r][c] is None:
                labels[r][c] = label
    return labels


def _hamiltonian_paths(cells: set[Cell], start: Cell, end: Cell, want: int, budget: int) -> list[list[Cell]] | None:
    """Up to `want` paths from start to end visiting every cell of `cells` exactly once, moving
    orthogonally; None when the search ran out of budget first."""
    found: list[list[Cell]] = []
    path, used = [start], {start}
    steps = 0

    def rec(cur: Cell) -> bool:  # True = stop
        nonlocal steps
        steps += 1
        if steps > budget:
            return True
        if cur == end:
            if len(path) == len(cells):
                found.append(path[:])
            return len(found) >= want
        r, c = cur
        for n in ((r - 1, c), (r, c + 1), (r + 1, c), (r, c - 1)):
            if n in cells and n not in used:
                used.add(n)
                path.append(n)
                stop = rec(n)
                path.pop()
                used.discard(n)
                if stop:
                    return True
        return False

    rec(start)
    return None if steps > budget else found


def edges_from_labels(labels: LabelGrid, clues: ClueGrid | None = None) -> frozenset[Edge]:
    """The line edges that a label grid implies.

    Where no cell has more than two same-label neighbours, the edges are simply the adjacent
    same-label pairs (if that is not a valid solution, the checker says so). Where a line touches
    itself, the route is recovered from its two numbered cells (`clues` needed) when exactly one
    route covers the line's cells; otherwise AmbiguousLabels is raised: pass the edges instead.
    """
    rows, cols = len(labels), len(labels[0]) if labels else 0
    by_label: dict[int, set[Cell]] = {}
    for r, row in enumerate(labels):
        for c, label in enumerate(row):
            if label > 0:
                by_label.setdefault(label, set()).add((r, c))
    ends = clue_cells(clues) if clues is not None else {}
    out: set[Edge] = set()
    for label, cells in by_label.items():
        induced = {edge(a, b) for a in cells for b in neighbours(a, rows, cols) if b in cells}
        degree = {a: sum(b in cells for b in neighbours(a, rows, cols)) for a in cells}
        pair = ends.get(label, [])
        if all(d <= 2 for d in degree.values()) and all(degree[p] <= 1 for p in pair if p in cells):
            out |= induced
            continue
        if len(pair) != 2 or not all(p in cells for p in pair):
            raise AmbiguousLabels(label, f"line {label} touches itself and has no two numbered ends; pass the edges")
        routes = _hamiltonian_paths(cells, pair[0], pair[1], 2, HAMILTON_BUDGET)
        if routes is None or len(routes) > 1:
            why = "too many routes to search" if routes is None else "several routes cover its cells"
            raise AmbiguousLabels(label, f"line {label} touches itself and {why}; pass the edges")
        if not routes:
            out |= induced  # no route at all: let the checker report what is wrong
            continue
        out |= {edge(a, b) for a, b in zip(routes[0], routes[0][1:])}
    return frozenset(out)


def _shape(clues: ClueGrid, labels: LabelGrid) -> list[str]:
    rows = len(clues)
    cols = len(clues[0]) if rows else 0
    if any(len(row) != cols for row in clues):
        return ["clue grid is not rectangular"]
    if len(labels) != rows or any(len(row) != cols for row in labels):
        return [f"label grid is not {rows}x{cols}"]
    return []


def _clue_violations(clues: ClueGrid, labels: LabelGrid) -> list[str]:
    bad = []
    pairs = clue_cells(clues)
    for n, cells in pairs.items():
        if n <= 0:
            bad.append(f"{where(cells[0])}: clue {n} is not a positive number")
        elif len(cells) != 2:
            bad.append(f"number {n} appears {len(cells)} times, not twice")
    for r, row in enumerate(labels):
        for c, label in enumerate(row):
            clue = clues[r][c]
            if clue is not None and label != clue:
                bad.append(f"{where((r, c))}: numbered {clue} but labelled {label}")
            elif label == MIXED:
                bad.append(f"{where((r, c))}: line piece joins no number or several numbers")
            elif label < 0 or (label > 0 and label not in pairs):
                bad.append(f"{where((r, c))}: label {label} is not a number of the puzzle")
    return bad


def _edge_violations(clues: ClueGrid, labels: LabelGrid, edges: frozenset[Edge]) -> list[str]:
    rows, cols = len(clues), len(clues[0])
    bad = []
    for a, b in sorted(edges):
        if not (0 <= a[0] < rows and 0 <= b[0] < rows and 0 <= a[1] < cols and 0 <= b[1] < cols):
            bad.append(f"edge {a}-{b} leaves the grid")
        elif abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1:
            bad.append(f"edge {where(a)} - {where(b)} does not join orthogonal neighbours")
        elif MIXED in (labels[a[0]][a[1]], labels[b[0]][b[1]]):
            continue  # reported with the labels
        elif labels[a[0]][a[1]] == 0 or labels[b[0]][b[1]] == 0:
            bad.append(f"edge {where(a)} - {where(b)} runs through an empty cell")
        elif labels[a[0]][a[1]] != labels[b[0]][b[1]]:
            bad.append(
                f"lines {labels[a[0]][a[1]]} and {labels[b[0]][b[1]]} meet between {where(a)} and {where(b)}"
            )
    return bad


def _degree_violations(clues: ClueGrid, labels: LabelGrid, adj: dict[Cell, list[Cell]]) -> list[str]:
    bad = []
    for r, row in enumerate(labels):
        for c, label in enumerate(row):
            degree = len(adj.get((r, c), []))
            if clues[r][c] is not None:
                if degree != 1:
                    bad.append(f"{where((r, c))}: number {clues[r][c]} ends {degree} line segments, not 1")
            elif label != 0 and degree != 2:
                kind = "lines cross or branch" if degree > 2 else "line stops"
                bad.append(f"{where((r, c))}: {kind} ({degree} line neighbours, not 2)")
            elif label == 0 and degree:
                bad.append(f"{where((r, c))}: empty cell with {degree} line neighbours")
    return bad


def _connection_violations(clues: ClueGrid, labels: LabelGrid, adj: dict[Cell, list[Cell]]) -> list[str]:
    bad = []
    by_label: dict[int, list[Cell]] = {}
    for r, row in enumerate(labels):
        for c, label in enumerate(row):
            by_label.setdefault(label, []).append((r, c))
    for n, cells in clue_cells(clues).items():
        if len(cells) != 2:
            continue
        reached = _component(cells[0], adj)
        if cells[1] not in reached:
            bad.append(f"number {n}: no line joins {where(cells[0])} and {where(cells[1])}")
        stray = sorted(cell for cell in by_label.get(n, []) if cell not in reached)
        if stray and cells[1] in reached:
            bad.append(f"number {n}: cells not on its line (a loop or loose piece), e.g. {where(stray[0])}")
    return bad


def _touch_violations(labels: LabelGrid, edges: frozenset[Edge]) -> list[str]:
    rows, cols = len(labels), len(labels[0])
    bad = []
    for r in range(rows):
        for c in range(cols):
            for b in ((r, c + 1), (r + 1, c)):
                if b[0] < rows and b[1] < cols and labels[r][c] > 0 and labels[r][c] == labels[b[0]][b[1]]:
                    if edge((r, c), b) not in edges:
                        bad.append(f"line {labels[r][c]} runs next to itself at {where((r, c))} and {where(b)}")
    return bad


def check_arukone(
    clues: ClueGrid,
    labels: LabelGrid | None = None,
    edges: Iterable[Sequence[Sequence[int]]] | None = None,
    *,
    fill: bool = False,
    touchfree: bool = False,
) -> list[str]:
    """Every rule broken by the solution; an empty list means it is valid.

    Give the label grid, the edges, or both. Without edges, they are derived from the labels
    (`edges_from_labels`); an ambiguous grid is reported, not guessed (with `touchfree`, an
    ambiguous grid is a line running next to itself).
    """
    if labels is None and edges is None:
        raise ValueError("give the label grid, the edges or both")
    if labels is None:
        labels = labels_from_edges(clues, edges or ())
    bad = _shape(clues, labels)
    if bad:
        return bad
    if edges is None:
        try:
            edge_set = edges_from_labels(labels, clues)
        except AmbiguousLabels as e:
            if touchfree:  # whatever its route, the line has a neighbour off the route
                return _clue_violations(clues, labels) + [f"line {e.label} runs next to itself"]
            return _clue_violations(clues, labels) + [str(e)]
    else:
        edge_set = normalize_edges(edges)
    bad = _clue_violations(clues, labels) + _edge_violations(clues, labels, edge_set)
    if bad:
        return bad
    adj = _adjacency(edge_set)
    bad = _degree_violations(clues, labels, adj) + _connection_violations(clues, labels, adj)
    if fill:
        bad += [
            f"{where((r, c))}: empty, but every cell must be used"
            for r, row in enumerate(labels)
            for c, label in enumerate(row)
            if label == 0
        ]
    if touchfree:
        bad += _touch_violations(labels, edge_set)
    return bad
