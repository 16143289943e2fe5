"""Sudoku, Star Battle and Akari, written from docs/language.md alone.

Each instance is solved through the command line (`solve --unique --json`); the
solution is then validated by a checker written from the genre's rules in plain
Python, and uniqueness is re-proved by an independent backtracking search that
counts solutions up to two. Nothing here uses the puzzledsl encoder.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from itertools import combinations
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = ROOT / "puzzles"

# ----------------------------------------------------------------- instance files


def read_block(path: Path, name: str) -> list[str]:
    """The rows of the text block assigned to `name` in an instance file."""
    text = path.read_text(encoding="utf-8")
    m = re.search(rf'^{name}\s*=\s*"""(.*?)"""', text, re.S | re.M)
    assert m, f"no {name} block in {path}"
    return [ln.strip() for ln in m.group(1).splitlines() if ln.strip()]


def read_int(path: Path, name: str, default: int) -> int:
    m = re.search(rf"^{name}\s*=\s*(\d+)", path.read_text(encoding="utf-8"), re.M)
    return int(m.group(1)) if m else default


def cells_of(row: str) -> list[str]:
    """Cells of a text row: tokens if the row has spaces, characters otherwise."""
    return row.split() if " " in row else list(row)


def solve_cli(path: Path) -> dict:
    proc = subprocess.run([sys.executable, "-m", "puzzledsl", "solve", str(path), "--unique", "--json"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


# ----------------------------------------------------------------- Sudoku


def sudoku_givens(path: Path) -> list[list[int | None]]:
    return [[None if t == "." else int(t) for t in cells_of(row)] for row in read_block(path, "grid")]


def check_sudoku(givens: list[list[int | None]], sol: list[list[int]]) -> list[str]:
    n_ = len(givens)
    n = int(round(n_ ** 0.5))
    errors = []
    want = set(range(1, n_ + 1))
    if len(sol) != n_ or any(len(row) != n_ for row in sol):
        return ["wrong shape"]
    for r in range(n_):
        for c in range(n_):
            if givens[r][c] is not None and sol[r][c] != givens[r][c]:
                errors.append(f"given ({r},{c}) changed")
    for r in range(n_):
        if set(sol[r]) != want:
            errors.append(f"row {r}")
    for c in range(n_):
        if {sol[r][c] for r in range(n_)} != want:
            errors.append(f"column {c}")
    for br in range(n):
        for bc in range(n):
            if {sol[br * n + i][bc * n + j] for i in range(n) for j in range(n)} != want:
                errors.append(f"box {br},{bc}")
    return errors


def count_sudoku(givens: list[list[int | None]], limit: int = 2) -> int:
    n_ = len(givens)
    n = int(round(n_ ** 0.5))
    g = [row[:] for row in givens]

    def options(r: int, c: int) -> set[int]:
        used = set(g[r]) | {g[i][c] for i in range(n_)}
        br, bc = r - r % n, c - c % n
        used |= {g[br + i][bc + j] for i in range(n) for j in range(n)}
        return set(range(1, n_ + 1)) - used

    def rec() -> int:
        best = None
        for r in range(n_):
            for c in range(n_):
                if g[r][c] is None:
                    opts = options(r, c)
                    if best is None or len(opts) < len(best[2]):
                        best = (r, c, opts)
        if best is None:
            return 1
        r, c, opts = best
        total = 0
        for v in opts:
            g[r][c] = v
            total += rec()
            g[r][c] = None
            if total >= limit:
                break
        return total

    return rec()


# ----------------------------------------------------------------- Star Battle


def check_star_battle(regions: list[list[str]], s: int, star: list[list[bool]]) -> list[str]:
    n = len(regions)
    errors = []
    for r in range(n):
        if sum(star[r]) != s:
            errors.append(f"row {r}")
    for c in range(n):
        if sum(star[r][c] for r in range(n)) != s:
            errors.append(f"column {c}")
    for name in {x for row in regions for x in row}:
        k = sum(star[r][c] for r in range(n) for c in range(n) if regions[r][c] == name)
        if k != s:
            errors.append(f"region {name} has {k}")
    for r in range(n):
        for c in range(n):
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    rr, cc = r + dr, c + dc
                    if (dr or dc) and 0 <= rr < n and 0 <= cc < n and star[r][c] and star[rr][cc]:
                        errors.append(f"stars touch at ({r},{c})")
    return errors


def count_star_battle(regions: list[list[str]], s: int, limit: int = 2) -> int:
    """Row by row: choose s non-adjacent columns, keep column, region and touch limits."""
    n = len(regions)
    col = [0] * n
    reg: dict[str, int] = {x: 0 for row in regions for x in row}
    prev: tuple[int, ...] = ()

    # room[x][r]: most stars region x can still take in rows r.. (s per row, non-adjacent)
    room = {x: [0] * (n + 1) for x in reg}
    for r in range(n - 1, -1, -1):
        for x in reg:
            k = sum(regions[r][c] == x for c in range(n))
            room[x][r] = room[x][r + 1] + min(s, (k + 1) // 2)

    def rec(r: int) -> int:
        nonlocal prev
        if r == n:
            return int(all(v == s for v in col) and all(v == s for v in reg.values()))
        if any(v + (n - r) * 1 < s for v in col) or any(reg[x] + room[x][r] < s for x in reg):
            return 0
        total = 0
        for cs in combinations(range(n), s):
            if any(b - a < 2 for a, b in zip(cs, cs[1:])):
                continue
            if any(abs(a - b) <= 1 for a in cs for b in prev):
                continue
            if any(col[c] >= s for c in cs):
                continue
            names = [regions[r][c] for c in cs]
            if any(reg[x] + names.count(x) > s for x in names):
                continue
            for c in cs:
                col[c] += 1
                reg[regions[r][c]] += 1
            saved, prev = prev, cs
            total += rec(r + 1)
            prev = saved
            for c in cs:
                col[c] -= 1
                reg[regions[r][c]] -= 1
            if total >= limit:
                break
        return total

    return rec(0)


# ----------------------------------------------------------------- Akari

WALLS = set("#01234")


def _rays(board: list[str], r: int, c: int) -> list[tuple[int, int]]:
    """White cells a light at (r, c) shines on (not including (r, c))."""
    out = []
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        rr, cc = r + dr, c + dc
        while 0 <= rr < len(board) and 0 <= cc < len(board[0]) and board[rr][cc] == ".":
            out.append((rr, cc))
            rr, cc = rr + dr, cc + dc
    return out


def _neighbours(board: list[str], r: int, c: int) -> list[tuple[int, int]]:
    return [(r + dr, c + dc) for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
            if 0 <= r + dr < len(board) and 0 <= c + dc < len(board[0])]


def check_akari(board: list[str], light: list[list[bool]]) -> list[str]:
    rows, cols = len(board), len(board[0])
    errors = []
    lights = {(r, c) for r in range(rows) for c in range(cols) if light[r][c]}
    for r, c in lights:
        if board[r][c] != ".":
            errors.append(f"light on a wall at ({r},{c})")
        for cell in _rays(board, r, c):
            if cell in lights:
                errors.append(f"lights ({r},{c}) and {cell} see each other")
    lit = set(lights) | {cell for r, c in lights for cell in _rays(board, r, c)}
    for r in range(rows):
        for c in range(cols):
            if board[r][c] == "." and (r, c) not in lit:
                errors.append(f"({r},{c}) is dark")
            if board[r][c] in "01234":
                k = sum(cell in lights for cell in _neighbours(board, r, c))
                if k != int(board[r][c]):
                    errors.append(f"wall ({r},{c}) has {k} lights")
    return errors


def count_akari(board: list[str], limit: int = 2) -> int:
    """Decide white cells in row-major order; prune on numbers and on dark cells."""
    rows, cols = len(board), len(board[0])
    whites = [(r, c) for r in range(rows) for c in range(cols) if board[r][c] == "."]
    order = {cell: i for i, cell in enumerate(whites)}
    rays = {cell: _rays(board, *cell) for cell in whites}
    # cells that can light a white cell: itself and every cell in its rays
    sources = {cell: [cell] + rays[cell] for cell in whites}
    numbers = {(r, c): int(board[r][c]) for r in range(rows) for c in range(cols) if board[r][c] in "01234"}
    lights: set[tuple[int, int]] = set()
    decided_off: set[tuple[int, int]] = set()

    def ok_numbers(final: bool) -> bool:
        for (r, c), k in numbers.items():
            nb = [x for x in _neighbours(board, r, c) if x in order]
            on = sum(x in lights for x in nb)
            free = sum(x not in lights and x not in decided_off for x in nb)
            if on > k or on + free < k or (final and on != k):
                return False
        return True

    def dark_forever() -> bool:
        for cell in whites:
            if all(s in decided_off for s in sources[cell]):
                return True
        return False

    def rec(i: int) -> int:
        if not ok_numbers(i == len(whites)) or dark_forever():
            return 0
        if i == len(whites):
            return 1
        cell = whites[i]
        total = 0
        if not any(x in lights for x in rays[cell]):
            lights.add(cell)
            total += rec(i + 1)
            lights.discard(cell)
        if total < limit:
            decided_off.add(cell)
            total += rec(i + 1)
            decided_off.discard(cell)
        return total

    return rec(0)


# ----------------------------------------------------------------- the checkers themselves


def test_checkers_reject_broken_solutions():
    givens = [[1, None, None, None], [None, None, None, None], [None, None, None, None], [None, None, None, 1]]
    good = [[1, 2, 3, 4], [3, 4, 1, 2], [2, 1, 4, 3], [4, 3, 2, 1]]
    assert check_sudoku(givens, good) == []
    bad = [row[:] for row in good]
    bad[0][1], bad[0][2] = bad[0][2], bad[0][1]
    assert check_sudoku(givens, bad)
    regions = [list("aab"), list("abb"), list("ccc")]
    assert check_star_battle(regions, 1, [[True, False, False], [False, False, True], [False, True, False]])
    board = ["..", ".1"]
    assert check_akari(board, [[False, True], [True, False]])  # the two lights see each other
    assert check_akari(["...", "...", "..1"], [[True, False, False], [False, False, False], [False, False, False]])
    assert check_akari(["#.", ".."], [[False, False], [False, True]]) == []


# ----------------------------------------------------------------- the instances

SUDOKU = sorted((PUZZLES / "sudoku").glob("*.puz"))
STAR_BATTLE = sorted((PUZZLES / "star-battle").glob("*.puz"))
AKARI = sorted((PUZZLES / "akari").glob("*.puz"))


def test_instances_exist():
    assert SUDOKU and STAR_BATTLE and AKARI


@pytest.mark.parametrize("path", SUDOKU, ids=lambda p: p.stem)
def test_sudoku(path: Path):
    givens = sudoku_givens(path)
    out = solve_cli(path)
    assert out["status"] == "sat"
    sol = out["solutions"][0]["x"]
    assert check_sudoku(givens, sol) == []
    assert out["unique"] is True
    assert count_sudoku(givens) == 1


def test_sudoku_wikipedia_solution():
    """The published solution of Wikipedia's example puzzle."""
    out = solve_cli(PUZZLES / "sudoku" / "wikipedia.puz")
    published = ["534678912", "672195348", "198342567", "859761423", "426853791",
                 "713924856", "961537284", "287419635", "345286179"]
    assert out["solutions"][0]["x"] == [[int(ch) for ch in row] for row in published]


@pytest.mark.parametrize("path", STAR_BATTLE, ids=lambda p: p.stem)
def test_star_battle(path: Path):
    regions = [cells_of(row) for row in read_block(path, "region")]
    s = read_int(path, "S", 1)
    out = solve_cli(path)
    assert out["status"] == "sat"
    assert check_star_battle(regions, s, out["solutions"][0]["star"]) == []
    assert out["unique"] is True
    assert count_star_battle(regions, s) == 1


@pytest.mark.parametrize("path", AKARI, ids=lambda p: p.stem)
def test_akari(path: Path):
    board = read_block(path, "board")
    out = solve_cli(path)
    assert out["status"] == "sat"
    assert check_akari(board, out["solutions"][0]["light"]) == []
    assert out["unique"] is True
    assert count_akari(board) == 1


# ----------------------------------------------------------------- compiler bugs found on the way


def _run(tmp_path: Path, text: str, *args: str) -> subprocess.CompletedProcess:
    f = tmp_path / "bug.puz"
    f.write_text(text, encoding="utf-8")
    return subprocess.run([sys.executable, "-m", "puzzledsl", *args, str(f)], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)


def test_shape_builtins_on_a_decision_grid_are_known(tmp_path: Path):
    proc = _run(tmp_path, "var x[2, 2]: bool\nrule forall p in cells(x): x[p]\n", "check")
    assert proc.returncode == 0, proc.stderr


def test_recursive_define_200_deep(tmp_path: Path):
    text = "define f(k) = if k == 0 then 0 else f(k - 1) + 1\nvar b: bool\nrule f(200) == 200 and b\n"
    proc = _run(tmp_path, text, "solve")
    assert proc.returncode == 0, proc.stderr
