"""An independent exhaustive Arukone (Numberlink) solver for small puzzles (about 6x6, a few pairs).

Written from the rules in plain Python, sharing nothing with puzzledsl or the checker: the
pairs are routed one after the other, in number order, along every simple orthogonal path over
cells that no earlier line uses and that hold no other number. Each combination of paths is one
solution, so solutions are counted as distinct edge sets. Cells may stay empty unless `fill`;
with `touchfree` a line may not run next to itself (adjacent cells of one line are consecutive).

Pruning only ever removes branches that cannot be completed: after every step each pair still
to be routed (and the current line's tip) must reach its partner through free cells, and with
`fill` every free cell must lie in a region that some unfinished pair can still pass through.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

Cell = tuple[int, int]
Edge = tuple[Cell, Cell]
ClueGrid = Sequence[Sequence[int | None]]


def _pairs(clues: ClueGrid) -> list[tuple[int, Cell, Cell]]:
    cells: dict[int, list[Cell]] = {}
    for r, row in enumerate(clues):
        for c, n in enumerate(row):
            if n is not None:
                cells.setdefault(n, []).append((r, c))
    bad = {n: len(v) for n, v in cells.items() if len(v) != 2}
    if bad:
        raise ValueError(f"every number must appear exactly twice: {bad}")
    return [(n, v[0], v[1]) for n, v in sorted(cells.items())]


def enumerate_solutions(
    clues: ClueGrid, *, fill: bool = False, touchfree: bool = False, limit: int | None = None
) -> Iterator[tuple[list[list[int]], frozenset[Edge]]]:
    """Yield (label grid, edge set) for every solution, at most `limit` of them."""
    rows = len(clues)
    cols = len(clues[0]) if rows else 0
    pairs = _pairs(clues)
    # owner: 0 = free, n > 0 = a numbered cell or a cell of line n
    owner = [[0 if n is None else n for n in row] for row in clues]
    nbrs = {
        (r, c): [(y, x) for y, x in ((r - 1, c), (r, c + 1), (r + 1, c), (r, c - 1)) if 0 <= y < rows and 0 <= x < cols]
        for r in range(rows)
        for c in range(cols)
    }
    lines: list[list[Cell]] = []
    emitted = 0

    def reachable(start: Cell, goal: Cell) -> set[Cell] | None:
        """Free cells reachable from `start` (which may be occupied); None if `goal` is not."""
        seen, todo, hit = {start}, [start], False
        while todo:
            for n in nbrs[todo.pop()]:
                if n == goal:
                    hit = True
                elif n not in seen and owner[n[0]][n[1]] == 0:
                    seen.add(n)
                    todo.append(n)
        return seen if hit else None

    def feasible(k: int, tip: Cell) -> bool:
        """Pairs k.. (pair k continuing from `tip`) can still be joined, and with `fill` all
        free cells can still be covered by some of them."""
        covered: set[Cell] = set()
        for i in range(k, len(pairs)):
            start = tip if i == k else pairs[i][1]
            region = reachable(start, pairs[i][2])
            if region is None:
                return False
            covered |= region
        if fill:
            return all(owner[r][c] != 0 or (r, c) in covered for r in range(rows) for c in range(cols))
        return True

    def route(k: int) -> Iterator[None]:
        nonlocal emitted
        if k == len(pairs):
            if fill and any(owner[r][c] == 0 for r in range(rows) for c in range(cols)):
                return
            emitted += 1
            yield None
            return
        n, start, goal = pairs[k]
        path = [start]
        on_path = {start}

        def touches(cell: Cell) -> bool:
            """Stepping from the tip to `cell` would put it beside an earlier cell of the line."""
            return any(m in on_path and m != path[-1] for m in nbrs[cell])

        def extend() -> Iterator[None]:
            tip = path[-1]
            for cell in nbrs[tip]:
                if limit is not None and emitted >= limit:
                    return
                if cell == goal:
                    if touchfree and touches(cell):
                        continue
                    lines.append(path + [goal])
                    yield from route(k + 1)
                    lines.pop()
                elif owner[cell[0]][cell[1]] == 0:
                    if touchfree and touches(cell):
                        continue
                    owner[cell[0]][cell[1]] = n
                    path.append(cell)
                    on_path.add(cell)
                    if feasible(k, cell):
                        yield from extend()
                    on_path.discard(cell)
                    path.pop()
                    owner[cell[0]][cell[1]] = 0

        if feasible(k, start):
            yield from extend()

    for _ in route(0):
        labels = [[0 if n is None else n for n in row] for row in clues]
        edges: set[Edge] = set()
        for (n, _, _), line in zip(pairs, lines):
            for a, b in zip(line, line[1:]):
                labels[b[0]][b[1]] = n
                edges.add((a, b) if a <= b else (b, a))
        yield labels, frozenset(edges)


def count_solutions(clues: ClueGrid, *, fill: bool = False, touchfree: bool = False, limit: int | None = None) -> int:
    """Number of solutions (distinct edge sets), stopping at `limit` if given."""
    return sum(1 for _ in enumerate_solutions(clues, fill=fill, touchfree=touchfree, limit=limit))
