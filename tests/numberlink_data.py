"""The real Arukone / Numberlink files and readers of their published solutions (test side only).

Solutions follow `tests/arukone_checker.py`: cells are (row, column), 0-based; a label grid holds
the line number per cell with 0 for an empty cell; an edge joins two orthogonal neighbours and
is written smaller cell first.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from tests.datasets import DATA, Entry, _puzzlekit_entries

ARUKONE = DATA / "arukone"
PUZZLEKIT_ARUKONE_JSON = ARUKONE / "janko" / "janko_puzzlekit_NumberLink_dataset.json"
BWINF_SOLUTION = ARUKONE / "bwinf" / "seed004-arukone8-solution.txt"
BWINF_SOLVED_PUZZLE = ARUKONE / "bwinf" / "seed004-arukone8.txt"
IMOS_SAMPLE = ARUKONE / "imos" / "sample_input"
MALFORMED_PUZZLEKIT_ENTRY = "341_11x10"
"""Its header says 11 rows, its grid has 10 (and its solution is the text `[end]`)."""

Cell = tuple[int, int]
Edge = tuple[Cell, Cell]
LabelGrid = list[list[int]]


def _files(folder: Path, pattern: str = "*") -> list[Path]:
    return sorted(p for p in folder.glob(pattern) if p.is_file()) if folder.is_dir() else []


def bwinf_files() -> list[Path]:
    """The BWINF 42 puzzles (not the file that appends a solution, nor the manifest)."""
    return [p for p in _files(ARUKONE / "bwinf", "*.txt") if p != BWINF_SOLUTION]


def thomasahle_files() -> list[Path]:
    return _files(ARUKONE / "ahle")


def adc_question_files() -> list[Path]:
    return _files(ARUKONE / "adc2015" / "Q", "*.txt")


def adc_answer_file(question: Path) -> Path:
    """The example answer `A/Ann.txt` of the problem `Q/Qnn.txt`."""
    return question.parent.parent / "A" / ("A" + question.name[1:])


def flowfree_files() -> list[Path]:
    return _files(ARUKONE / "flowfree", "*.txt")


def puzzlekit_arukone_entries() -> Iterator[Entry]:
    """The 580 janko.at Arukone of the puzzlekit dataset: (id, problem text, solution text)."""
    return _puzzlekit_entries(PUZZLEKIT_ARUKONE_JSON)


def _edge(a: Cell, b: Cell) -> Edge:
    return (a, b) if a <= b else (b, a)


_STEP = {"n": (-1, 0, "s"), "s": (1, 0, "n"), "e": (0, 1, "w"), "w": (0, -1, "e")}


def puzzlekit_solution_edges(text: str) -> frozenset[Edge]:
    """A puzzlekit Arukone solution, `R C` then R rows of per-cell links ('ns', 'e', 'sw', ...; '-' none).

    Every link must be matched by the neighbour's opposite link; otherwise ValueError.
    """
    lines = [line for line in text.strip().split("\n") if line.strip()]
    try:
        rows, cols = map(int, lines[0].split())
    except ValueError:
        raise ValueError(f"expected `rows cols`, found {lines[0]!r}") from None
    grid = [line.split() for line in lines[1:]]
    if len(grid) != rows or any(len(row) != cols for row in grid):
        raise ValueError(f"expected {rows} rows of {cols} cells")
    edges = set()
    for r, row in enumerate(grid):
        for c, token in enumerate(row):
            if token == "-":
                continue
            if set(token) - set(_STEP) or len(set(token)) != len(token):
                raise ValueError(f"row {r + 1}, column {c + 1}: unknown link token {token!r}")
            for letter in token:
                dr, dc, back = _STEP[letter]
                y, x = r + dr, c + dc
                if not (0 <= y < rows and 0 <= x < cols) or back not in grid[y][x]:
                    raise ValueError(f"row {r + 1}, column {c + 1}: link {letter!r} is not matched")
                edges.add(_edge((r, c), (y, x)))
    return frozenset(edges)


def adc_answer_grid(text: str) -> LabelGrid:
    """A DA Symposium 2015 answer: `SIZE WxH`, then H rows of W comma-separated line numbers (0 = empty)."""
    lines = [line.strip() for line in text.strip().split("\n") if line.strip()]
    head = lines[0].split()
    if len(head) != 2 or head[0] != "SIZE":
        raise ValueError(f"expected `SIZE WxH`, found {lines[0]!r}")
    width, height = map(int, head[1].upper().split("X"))
    grid = [[int(cell) for cell in line.split(",")] for line in lines[1:]]
    if len(grid) != height or any(len(row) != width for row in grid):
        raise ValueError(f"expected {height} rows of {width} numbers")
    return grid


def bwinf_solution(text: str) -> tuple[str, LabelGrid]:
    """The BWINF puzzle text at the start of a solution file, and the grid after `Solved field:`."""
    lines = text.replace("\r\n", "\n").split("\n")
    marker = next(i for i, line in enumerate(lines) if line.strip() == "Solved field:")
    puzzle = "\n".join(lines[:marker]).strip() + "\n"
    grid = [[int(cell) for cell in line.split()] for line in lines[marker + 1 :] if line.strip()]
    size = int(puzzle.split()[0])
    if len(grid) != size or any(len(row) != size for row in grid):
        raise ValueError(f"expected {size} solution rows of {size} numbers")
    return puzzle, grid
