"""The n x n board as numbers: cells `r * n + c`, their neighbours, and an id per edge between
two neighbours. Every other part of the generator speaks in these ids, so the layouts, the
SAT check and the label order share one plain, fast geometry."""

from __future__ import annotations

from collections import deque

Line = list[int]  # cells r * n + c, end to end


class Board:
    """An n x n grid: cell ids, neighbours, and edge ids between neighbours."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.size = n * n
        self.nbrs: list[list[int]] = []
        for c in range(self.size):
            r, k = divmod(c, n)
            self.nbrs.append([r2 * n + k2 for r2, k2 in ((r - 1, k), (r, k - 1), (r, k + 1), (r + 1, k))
                              if 0 <= r2 < n and 0 <= k2 < n])
        self.edges = [(u, v) for u in range(self.size) for v in self.nbrs[u] if u < v]
        self.edge_id: dict[tuple[int, int], int] = {}
        for i, (u, v) in enumerate(self.edges):
            self.edge_id[u, v] = self.edge_id[v, u] = i
        self.incident = [[self.edge_id[c, d] for d in self.nbrs[c]] for c in range(self.size)]

    def labels(self, lines: list[Line]) -> list[int]:
        """The label of every cell (line i is label i + 1), 0 where no line runs."""
        lab = [0] * self.size
        for i, line in enumerate(lines):
            for c in line:
                lab[c] = i + 1
        return lab

    def edge_set(self, lines: list[Line]) -> set[int]:
        return {self.edge_id[a, b] for line in lines for a, b in zip(line, line[1:])}

    def clues(self, lines: list[Line]) -> list[list[int | None]]:
        """The puzzle the lines make: each line's two ends show its label, other cells are empty."""
        grid: list[list[int | None]] = [[None] * self.n for _ in range(self.n)]
        for i, line in enumerate(lines):
            for c in (line[0], line[-1]):
                grid[c // self.n][c % self.n] = i + 1
        return grid

    def distance(self, a: int, b: int, blocked: set[int]) -> int | None:
        """Length (in steps) of a shortest path from a to b through cells not blocked."""
        dist = {a: 0}
        todo = deque([a])
        while todo:
            c = todo.popleft()
            if c == b:
                return dist[c]
            for d in self.nbrs[c]:
                if d not in dist and (d == b or d not in blocked):
                    dist[d] = dist[c] + 1
                    todo.append(d)
        return None
