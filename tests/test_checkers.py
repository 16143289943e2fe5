"""The independent checkers accept every published solution and reject broken ones."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import cache

import pytest

from puzzledsl.importers import load_with
from tests.checkers import (
    SHIP_LETTERS,
    check_battleship,
    check_kakurasu,
    read_janko_battleship_solution,
    read_janko_kakurasu_solution,
)
from tests.datasets import battleship_entries, kakurasu_entries, requires_data

Solved = tuple[str, dict[str, object], list[list[bool]]]


@cache
def _solved(genre: str) -> list[Solved]:
    """Entries with a published solution, parsed once per session."""
    entries = kakurasu_entries() if genre == "kakurasu" else battleship_entries()
    read = read_janko_kakurasu_solution if genre == "kakurasu" else read_janko_battleship_solution
    return [
        (key, load_with(f"janko_{genre}", problem, key)[0][1], read(solution))
        for key, problem, solution in entries
        if solution is not None
    ]


def _solved_kakurasu() -> Iterator[Solved]:
    """Fresh copies of the boards, so that tests may mutate them."""
    for key, givens, grid in _solved("kakurasu"):
        yield key, givens, [row[:] for row in grid]


def _solved_battleship() -> Iterator[Solved]:
    for key, givens, grid in _solved("battleship"):
        yield key, givens, [row[:] for row in grid]


def _kakurasu(givens: dict[str, object], grid: list[list[bool]]) -> list[str]:
    return check_kakurasu(givens["rowsum"], givens["colsum"], grid)


def _battleship(givens: dict[str, object], grid: list[list[bool]]) -> list[str]:
    return check_battleship(givens["rowsum"], givens["colsum"], givens.get("fleet"), givens["hint"], grid)


GENRES: dict[str, tuple[Callable[[], Iterator[Solved]], Callable[..., list[str]], int]] = {
    "kakurasu": (_solved_kakurasu, _kakurasu, 280),
    "battleship": (_solved_battleship, _battleship, 860),
}


@requires_data
@pytest.mark.parametrize("genre", GENRES)
def test_published_solutions_pass(genre: str) -> None:
    solved, check, expected = GENRES[genre]
    failures, count = {}, 0
    for key, givens, grid in solved():
        count += 1
        if problems := check(givens, grid):
            failures[key] = problems
    assert failures == {}
    assert count == expected


def _flips(givens: dict[str, object], index: int) -> list[tuple[int, int]]:
    """A few cells to flip, spread over the board, in rows or columns that have a clue."""
    rows, cols = givens["R"], givens["C"]
    cells = [((index + k * 5) % rows, (index * 3 + k * 7) % cols) for k in range(2)]
    return [(r, c) for r, c in cells if givens["rowsum"][r] is not None or givens["colsum"][c] is not None]


@requires_data
@pytest.mark.parametrize("genre", GENRES)
def test_flipped_cell_is_rejected(genre: str) -> None:
    solved, check, _ = GENRES[genre]
    accepted = []
    for index, (key, givens, grid) in enumerate(solved()):
        for r, c in _flips(givens, index):
            grid[r][c] = not grid[r][c]
            if not check(givens, grid):
                accepted.append((key, r, c))
            grid[r][c] = not grid[r][c]
    assert accepted == []


def _count_preserving_swap(grid: list[list[bool]]) -> tuple[int, int, int, int] | None:
    """Corners (r1, c1), (r2, c2) ship and (r1, c2), (r2, c1) water: swapping keeps all counts."""
    for r1, row1 in enumerate(grid):
        for r2 in range(r1 + 2, len(grid)):
            for c1, c2 in ((a, b) for a in range(len(row1)) for b in range(len(row1)) if abs(a - b) > 1):
                if row1[c1] and grid[r2][c2] and not row1[c2] and not grid[r2][c1]:
                    return r1, c1, r2, c2
    return None


@requires_data
def test_battleship_count_preserving_swap_is_rejected() -> None:
    """Counts stay right, so the shape, fleet and hint rules must catch it (janko puzzles are unique)."""
    accepted = []
    for key, givens, grid in _solved_battleship():
        swap = _count_preserving_swap(grid)
        if swap is None:
            continue
        r1, c1, r2, c2 = swap
        for r, c in ((r1, c1), (r2, c2), (r1, c2), (r2, c1)):
            grid[r][c] = not grid[r][c]
        if not _battleship(givens, grid):
            accepted.append(key)
    assert accepted == []


# --------------------------------------------------------------------------- hand-made boards

BOARD = """
n - o -
s - - -
- - - -
w m e -
"""


def _letters(text: str) -> list[list[str]]:
    return [line.split() for line in text.strip().splitlines()]


def _ships(text: str) -> list[list[bool]]:
    return [[token in SHIP_LETTERS for token in row] for row in _letters(text)]


def _counts(grid: list[list[bool]]) -> tuple[list[int | None], list[int | None]]:
    return [sum(row) for row in grid], [sum(col) for col in zip(*grid, strict=True)]


def test_hand_made_board_is_valid() -> None:
    ship = _ships(BOARD)
    rows, cols = _counts(ship)
    assert check_battleship(rows, cols, [1, 1, 1], _letters(BOARD), ship) == []
    assert check_battleship([None] * 4, [None] * 4, None, None, ship) == []


@pytest.mark.parametrize(
    ("board", "fleet", "fragment"),
    [
        ("n - - -\nm - - -\nm e - -\n- - - -", None, "not straight"),
        ("o - - -\n- o - -\n- - - -\n- - - -", None, "touch"),
        ("w e - -\n- - w e\n- - - -\n- - - -", None, "touch"),
        ("w e - o\n- - - -\n- - - -\n- - - -", [1, 2], "fleet"),
        ("w e - o\n- - - -\n- - - -\n- - - -", [1, 1, 0], None),
        ("w m e -\n- - - -\n- - - -\n- - - -", [0, 0, 0, 1], "fleet"),
    ],
)
def test_shape_and_fleet_rules(board: str, fleet: list[int] | None, fragment: str | None) -> None:
    ship = _ships(board)
    rows, cols = _counts(ship)
    problems = check_battleship(rows, cols, fleet, None, ship)
    if fragment is None:
        assert problems == []
    else:
        assert problems and all(fragment in p for p in problems), problems


@pytest.mark.parametrize(
    ("letter", "row", "col", "ok"),
    [
        ("n", 0, 0, True),
        ("n", 1, 0, False),
        ("s", 1, 0, True),
        ("s", 0, 0, False),
        ("w", 3, 0, True),
        ("w", 3, 1, False),
        ("e", 3, 2, True),
        ("e", 3, 1, False),
        ("m", 3, 1, True),
        ("m", 0, 2, False),
        ("m", 3, 3, False),
        ("o", 0, 2, True),
        ("o", 0, 0, False),
        ("x", 2, 2, True),
        ("x", 0, 0, False),
        ("-", 0, 0, True),
        ("-", 2, 2, True),
        ("q", 2, 2, False),
    ],
)
def test_hint_letters(letter: str, row: int, col: int, ok: bool) -> None:
    hint = [["-"] * 4 for _ in range(4)]
    hint[row][col] = letter
    problems = check_battleship([None] * 4, [None] * 4, None, hint, _ships(BOARD))
    assert (problems == []) is ok, problems


def test_vertical_middle_hint() -> None:
    ship = _ships("n - -\nm - -\ns - -")
    hint = [["-", "-", "-"], ["m", "-", "-"], ["-", "-", "-"]]
    assert check_battleship([1, 1, 1], [3, 0, 0], [0, 0, 1], hint, ship) == []


def test_counts_and_size() -> None:
    ship = _ships(BOARD)
    assert any("row 1" in p for p in check_battleship([1, 1, 0, 3], [None] * 4, None, None, ship))
    assert any("column 4" in p for p in check_battleship([None] * 4, [3, 1, 2, 1], None, None, ship))
    assert check_battleship([None] * 3, [None] * 4, None, None, ship) == ["grid is not 3x4"]


@pytest.mark.parametrize(
    ("rowsum", "colsum", "black", "ok"),
    [
        ([1, 2], [1, 2], [[True, False], [False, True]], True),
        ([None, 3], [2, 2], [[False, False], [True, True]], True),
        ([None, None], [None, None], [[True, True], [True, False]], True),
        ([1, 2], [1, 2], [[False, True], [True, False]], False),
        ([3, None], [None, None], [[True, False], [False, False]], False),
    ],
)
def test_kakurasu_weights(
    rowsum: list[int | None], colsum: list[int | None], black: list[list[bool]], ok: bool
) -> None:
    assert (check_kakurasu(rowsum, colsum, black) == []) is ok


def test_kakurasu_size() -> None:
    assert check_kakurasu([1], [1, 2], [[True]]) == ["grid is not 1x2"]


def test_solution_readers() -> None:
    assert read_janko_kakurasu_solution("2 3\nx - x\n- - -\n") == [[True, False, True], [False, False, False]]
    assert read_janko_battleship_solution("2 2 1\r\no x\r\n- -\r\n") == [[True, False], [False, False]]
    for bad in ("2 2\nx -\n", "2 2\nx -\n- q\n", "x\n"):
        with pytest.raises(ValueError):
            read_janko_kakurasu_solution(bad)
    with pytest.raises(ValueError):
        read_janko_battleship_solution("1 2\no q\n")
