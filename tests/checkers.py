"""Independent solution checkers, written from the puzzle rules and not from any encoder.

They are deliberately naive, so that a bug in the compiler or a rule file cannot hide
behind the same bug in the check. Each returns a list of violations; empty = valid.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

Clues = Sequence[int | None]
Grid = Sequence[Sequence[bool]]
Cell = tuple[int, int]

SHIP_LETTERS = frozenset("onswem")
WATER_LETTERS = frozenset("-x")


def _shape(rows: int, cols: int, grid: Grid) -> list[str]:
    """A size mismatch makes every other check meaningless, so it is reported alone."""
    if len(grid) != rows or any(len(row) != cols for row in grid):
        return [f"grid is not {rows}x{cols}"]
    return []


def check_kakurasu(rowsum: Clues, colsum: Clues, black: Grid) -> list[str]:
    """Each row's black cells weigh their 1-based column numbers, each column's their row numbers."""
    bad = _shape(len(rowsum), len(colsum), black)
    if bad:
        return bad
    for r, clue in enumerate(rowsum):
        got = sum(c + 1 for c, is_black in enumerate(black[r]) if is_black)
        if clue is not None and got != clue:
            bad.append(f"row {r + 1}: black weights sum to {got}, clue is {clue}")
    for c, clue in enumerate(colsum):
        got = sum(r + 1 for r in range(len(rowsum)) if black[r][c])
        if clue is not None and got != clue:
            bad.append(f"column {c + 1}: black weights sum to {got}, clue is {clue}")
    return bad


def _ships(ship: Grid) -> list[list[Cell]]:
    """Maximal orthogonally connected groups of ship cells (flood fill)."""
    seen: set[Cell] = set()
    groups = []
    for r, row in enumerate(ship):
        for c, is_ship in enumerate(row):
            if not is_ship or (r, c) in seen:
                continue
            group, todo = [], [(r, c)]
            seen.add((r, c))
            while todo:
                y, x = todo.pop()
                group.append((y, x))
                for n in ((y - 1, x), (y + 1, x), (y, x - 1), (y, x + 1)):
                    if _at(ship, *n) and n not in seen:
                        seen.add(n)
                        todo.append(n)
            groups.append(sorted(group))
    return groups


def _at(ship: Grid, r: int, c: int) -> bool:
    """Ship at (r, c); outside the board counts as water."""
    return 0 <= r < len(ship) and 0 <= c < len(ship[r]) and bool(ship[r][c])


def _count_violations(rowsum: Clues, colsum: Clues, ship: Grid) -> list[str]:
    bad = []
    for r, clue in enumerate(rowsum):
        got = sum(bool(x) for x in ship[r])
        if clue is not None and got != clue:
            bad.append(f"row {r + 1}: {got} ship cells, clue is {clue}")
    for c, clue in enumerate(colsum):
        got = sum(bool(row[c]) for row in ship)
        if clue is not None and got != clue:
            bad.append(f"column {c + 1}: {got} ship cells, clue is {clue}")
    return bad


def _shape_violations(groups: list[list[Cell]]) -> list[str]:
    """Ships are straight, and cells of different ships never touch, not even at a corner."""
    bad = []
    label = {cell: i for i, group in enumerate(groups) for cell in group}
    for i, group in enumerate(groups):
        if len({r for r, _ in group}) > 1 and len({c for _, c in group}) > 1:
            bad.append(f"ship at row {group[0][0] + 1}, column {group[0][1] + 1} is not straight")
        for r, c in group:
            for dr, dc in ((-1, -1), (-1, 1), (1, -1), (1, 1)):
                other = label.get((r + dr, c + dc))
                if other is not None and other > i:
                    bad.append(
                        f"ships touch at row {r + 1}, column {c + 1} "
                        f"and row {r + dr + 1}, column {c + dc + 1}"
                    )
    return bad


def _fleet_violations(groups: list[list[Cell]], fleet: Sequence[int]) -> list[str]:
    got = Counter(len(group) for group in groups)
    want = Counter({length: n for length, n in enumerate(fleet, 1) if n})
    return (
        []
        if got == want
        else [f"ship lengths {dict(sorted(got.items()))}, fleet wants {dict(sorted(want.items()))}"]
    )


def _hint_ok(token: str, ship: Grid, r: int, c: int) -> bool | None:
    """Whether cell (r, c) obeys a janko hint letter; None for an unknown letter."""
    at = _at(ship, r, c)
    up, down, left, right = _at(ship, r - 1, c), _at(ship, r + 1, c), _at(ship, r, c - 1), _at(ship, r, c + 1)
    rules = {
        "-": True,
        "x": not at,
        "o": at and not (up or down or left or right),
        "n": at and not up and down,
        "s": at and up and not down,
        "w": at and not left and right,
        "e": at and left and not right,
        "m": at and ((up and down) or (left and right)),
    }
    return rules.get(token)


def _hint_violations(hint: Sequence[Sequence[str]], ship: Grid) -> list[str]:
    bad = []
    for r, row in enumerate(hint):
        for c, token in enumerate(row):
            ok = token == "-" or _hint_ok(token, ship, r, c)
            if ok is None:
                bad.append(f"row {r + 1}, column {c + 1}: unknown hint {token!r}")
            elif not ok:
                bad.append(f"row {r + 1}, column {c + 1}: hint {token!r} not satisfied")
    return bad


def check_battleship(
    rowsum: Clues,
    colsum: Clues,
    fleet: Sequence[int] | None,
    hint: Sequence[Sequence[str]] | None,
    ship: Grid,
) -> list[str]:
    """Counts, straight non-touching ships, the exact fleet (if given) and the hint letters."""
    bad = _shape(len(rowsum), len(colsum), ship)
    if hint is not None:
        bad += _shape(len(rowsum), len(colsum), [[True] * len(row) for row in hint])
    if bad:
        return bad
    groups = _ships(ship)
    bad = _count_violations(rowsum, colsum, ship) + _shape_violations(groups)
    if fleet is not None:
        bad += _fleet_violations(groups, fleet)
    if hint is not None:
        bad += _hint_violations(hint, ship)
    return bad


def _solution_rows(text: str) -> list[list[str]]:
    """Token rows after the `rows cols ...` header, checked against the header's size."""
    lines = [line.split() for line in text.strip().splitlines()]
    if not lines or len(lines[0]) < 2:
        raise ValueError("solution has no `rows cols` header")
    rows, cols = int(lines[0][0]), int(lines[0][1])
    grid = lines[1:]
    if len(grid) != rows or any(len(row) != cols for row in grid):
        raise ValueError(f"solution grid is not {rows}x{cols}")
    return grid


def read_janko_kakurasu_solution(text: str) -> list[list[bool]]:
    """janko.at kakurasu solution: `rows cols`, then rows where `x` is black and `-` white."""
    grid = _solution_rows(text)
    if any(token not in "x-" or len(token) != 1 for row in grid for token in row):
        raise ValueError("kakurasu solution cells must be 'x' or '-'")
    return [[token == "x" for token in row] for row in grid]


def read_janko_battleship_solution(text: str) -> list[list[bool]]:
    """janko.at battleship solution: header, then rows where o n s w e m are ship, - x water."""
    grid = _solution_rows(text)
    if any(token not in SHIP_LETTERS | WATER_LETTERS for row in grid for token in row):
        raise ValueError("battleship solution cells must be one of o n s w e m - x")
    return [[token in SHIP_LETTERS for token in row] for row in grid]
