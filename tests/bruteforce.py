"""Independent brute-force solvers, written from the puzzle rules in plain Python.

They share nothing with the compiler (no rule files, no encoders), so the solution
counts they compute can be compared with what puzzledsl reports.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import combinations, product

Clues = Sequence[int | None]


def _row_masks(width: int, count: int) -> list[int]:
    """Every row of `width` cells with exactly `count` ship cells, as bit masks (bit c = column c)."""
    return [sum(1 << c for c in cols) for cols in combinations(range(width), count)]


def fleetless_summary(rowsum: Sequence[int], colsum: Sequence[int]) -> tuple[int, tuple[int, ...], tuple[int, ...]]:
    """Fleet-less battleship, enumerated row by row with backtracking.

    Rules: ship cells per row and per column match the counts; no two ship cells touch
    diagonally (which is what makes every ship a straight line and keeps ships apart).

    Returns (number of solutions, per-row AND of all solutions, per-row OR of all
    solutions), rows as bit masks. A cell is the same in every solution exactly when its
    AND bit equals its OR bit. Sub-results are memoised on (row, previous row, column
    counts still needed), which is what makes the 9x9 of seed 001 take about a second.
    """
    rows, cols = len(rowsum), len(colsum)
    full = (1 << cols) - 1
    masks = {k: _row_masks(cols, k) for k in set(rowsum)}
    none: tuple[int, tuple[int, ...], tuple[int, ...]] = (0, (), ())

    @cache
    def rec(r: int, prev: int, remaining: tuple[int, ...]) -> tuple[int, tuple[int, ...], tuple[int, ...]]:
        if r == rows:
            return (1, (), ()) if not any(remaining) else none
        left = rows - r
        if any(x > left or x < 0 for x in remaining):
            return none
        may = sum(1 << c for c, x in enumerate(remaining) if x > 0)
        must = sum(1 << c for c, x in enumerate(remaining) if x == left)
        total, ands, ors = 0, None, None
        for cur in masks[rowsum[r]]:
            if cur & ~may or must & ~cur:
                continue
            if prev & (cur << 1) & full or prev & (cur >> 1):  # diagonal contact with the row above
                continue
            n, a, o = rec(r + 1, cur, tuple(x - (cur >> c & 1) for c, x in enumerate(remaining)))
            if not n:
                continue
            a, o = (cur, *a), (cur, *o)
            total += n
            ands = a if ands is None else tuple(x & y for x, y in zip(ands, a, strict=True))
            ors = o if ors is None else tuple(x | y for x, y in zip(ors, o, strict=True))
        return (total, ands, ors) if total else none

    if any(x < 0 or x > cols for x in rowsum) or any(x < 0 or x > rows for x in colsum):
        return none
    return rec(0, 0, tuple(colsum))


def fleetless_count(rowsum: Sequence[int], colsum: Sequence[int]) -> int:
    return fleetless_summary(rowsum, colsum)[0]


def naive_fleetless_count(rowsum: Sequence[int], colsum: Sequence[int]) -> int:
    """Every one of the 2^(R*C) grids, tested literally: for cross-checking the enumerator on tiny boards."""
    rows, cols = len(rowsum), len(colsum)
    n = 0
    for bits in product((False, True), repeat=rows * cols):
        g = [bits[r * cols:(r + 1) * cols] for r in range(rows)]
        if any(sum(g[r]) != rowsum[r] for r in range(rows)):
            continue
        if any(sum(g[r][c] for r in range(rows)) != colsum[c] for c in range(cols)):
            continue
        if any(g[r][c] and g[r + 1][c + d] for r in range(rows - 1) for c in range(cols) for d in (-1, 1)
               if 0 <= c + d < cols):
            continue
        n += 1
    return n


def kakurasu_count(rowsum: Clues, colsum: Clues, limit: int | None = None) -> int:
    """Kakurasu solutions (a black cell adds its 1-based column to its row's sum and its row
    to its column's sum; None = no clue), row by row; stops at `limit` if given."""
    rows, cols = len(rowsum), len(colsum)
    options = []
    for clue in rowsum:
        opts = [m for m in range(1 << cols) if clue is None or sum(c + 1 for c in range(cols) if m >> c & 1) == clue]
        options.append(opts)
    found = 0

    def rec(r: int, sums: tuple[int, ...]) -> bool:
        nonlocal found
        if r == rows:
            if all(clue is None or s == clue for s, clue in zip(sums, colsum, strict=True)):
                found += 1
                return limit is not None and found >= limit
            return False
        for m in options[r]:
            new = tuple(s + (r + 1 if m >> c & 1 else 0) for c, s in enumerate(sums))
            if any(clue is not None and s > clue for s, clue in zip(new, colsum, strict=True)):
                continue
            if rec(r + 1, new):
                return True
        return False

    rec(0, (0,) * cols)
    return found
