"""A greedy Arukone router, modelled on the checker that BWINF 42 (round 1, task 1) offered.

The participants' write-ups (seed 004) describe it from the outside: pairs are joined one after
the other in number order, each along a shortest path, and a line once drawn blocks its cells
for the later pairs; there is no backtracking. So it misses solutions whenever an early short
line cuts a later pair off, which is what the task asked puzzle generators to exploit.

This is not BWINF's code: its tie-break between equally short paths is unknown. Here it is
breadth-first search from the number's first cell in row-major order, neighbours tried in
reading order (up, left, right, down); the first path found wins. That order reproduces what
the seed 004 author observed on his `arukone1` (the checker fails it, and solves it once the
numbers 3 and 4 are swapped); so do other orders, while e.g. up, right, down, left does not.
The official example `arukone0.txt` defeats this router under every neighbour order: each
shortest line for 1 shuts the 2 in. The 4x4 `checker-trap` defeats it under every order too.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

Cell = tuple[int, int]
ClueGrid = Sequence[Sequence[int | None]]

Step = tuple[int, int]

ORDER: tuple[Step, ...] = ((-1, 0), (0, -1), (0, 1), (1, 0))
"""Neighbour order of the breadth-first search: up, left, right, down (reading order)."""


def shortest_path(
    free: Sequence[Sequence[bool]], start: Cell, goal: Cell, order: Sequence[Step] = ORDER
) -> list[Cell] | None:
    """A shortest orthogonal path from start to goal whose inner cells are all free (the ends
    need not be), or None. Deterministic: the first path the search reaches wins."""
    rows, cols = len(free), len(free[0])
    parent: dict[Cell, Cell | None] = {start: None}
    todo = deque([start])
    while todo:
        cur = todo.popleft()
        if cur == goal:
            path = []
            step: Cell | None = cur
            while step is not None:
                path.append(step)
                step = parent[step]
            return path[::-1]
        for dr, dc in order:
            n = (cur[0] + dr, cur[1] + dc)
            if 0 <= n[0] < rows and 0 <= n[1] < cols and n not in parent and (n == goal or free[n[0]][n[1]]):
                parent[n] = cur
                todo.append(n)
    return None


def route_greedy(clues: ClueGrid, order: Sequence[Step] = ORDER) -> list[list[int]] | None:
    """The label grid (pair number per cell, 0 = empty) of the greedy routing, or None when some
    pair cannot be joined once the lines of the smaller numbers are drawn. `order` is the
    neighbour order of the search, as (row, column) steps."""
    cells: dict[int, list[Cell]] = {}
    for r, row in enumerate(clues):
        for c, n in enumerate(row):
            if n is not None:
                cells.setdefault(n, []).append((r, c))
    labels = [[0 if n is None else n for n in row] for row in clues]
    for n, ends in sorted(cells.items()):
        if len(ends) != 2:
            return None
        free = [[label == 0 for label in row] for row in labels]
        path = shortest_path(free, ends[0], ends[1], order)
        if path is None:
            return None
        for r, c in path:
            labels[r][c] = n
    return labels
