"""`size(region(g, p))`: regions of equal values and their sizes (issue 10).

Solution counts on small random boards are compared with a brute-force enumeration written
here from the definition (a region is a maximal orthogonally connected group of cells of one
value), sharing nothing with the compiler; misuse gives located errors.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

import puzzledsl
from puzzledsl.errors import PuzzleError
from tests.genre_checkers import check_fillomino, solution_grid

ROOT = Path(__file__).resolve().parents[1]
PUBLISHED = json.loads((ROOT / "tests" / "data" / "genres" / "fillomino.json").read_text(encoding="utf-8"))["data"]
BUNDLED = {"001_5x5": "1_5x5", "034_13x37": "34_13x37", "pzprjs-6x6": "pzprjs_6x6"}
"""Instance file in puzzles/fillomino/ -> its entry (problem, published solution, source)."""

CAP = 60  # counts are compared up to here (both sides stop at CAP + 1)

Board = dict[tuple[int, int], object]


def regions(values: Board, rows: int, cols: int) -> dict[tuple[int, int], int]:
    """The size of the region of every assigned cell; unassigned cells (absent) join nothing."""
    size: dict[tuple[int, int], int] = {}
    for start in values:
        if start in size:
            continue
        group, todo = {start}, [start]
        while todo:
            r, c = todo.pop()
            for q in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if q in values and q not in group and values[q] == values[start]:
                    group.add(q)
                    todo.append(q)
        for p in group:
            size[p] = len(group)
    return size


def closed(p: tuple[int, int], values: Board, rows: int, cols: int) -> bool:
    """No unassigned cell touches the region of p: its size is final."""
    group, todo = {p}, [p]
    while todo:
        r, c = todo.pop()
        for q in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if not (0 <= q[0] < rows and 0 <= q[1] < cols):
                continue
            if q not in values:
                return False
            if q not in group and values[q] == values[p]:
                group.add(q)
                todo.append(q)
    return True


def brute_count(rows: int, cols: int, domain: list, fixed: Board, ok: Callable[[int, object], bool],
                upper: Callable[[object], int | None]) -> int:
    """Assignments (cells row-major, givens fixed) in which every cell's region size s satisfies
    `ok(s, value)`, counted up to CAP + 1. A region's size only grows as cells are assigned,
    so one larger than `upper(value)` of a cell in it, or a closed one that fails, ends a branch."""
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    values: Board = {}
    count = 0

    def fine() -> bool:
        size = regions(values, rows, cols)
        for p, v in values.items():
            u = upper(v)
            if u is not None and size[p] > u:
                return False
            if not ok(size[p], v) and closed(p, values, rows, cols):
                return False
        return True

    def go(i: int) -> None:
        nonlocal count
        if count > CAP:
            return
        if i == len(cells):
            count += 1
            return
        for v in ([fixed[cells[i]]] if cells[i] in fixed else domain):
            values[cells[i]] = v
            if fine():
                go(i + 1)
            del values[cells[i]]

    go(0)
    return count


def random_board(rng: random.Random, domain: list) -> tuple[int, int, Board]:
    rows, cols = rng.randint(2, 4), rng.randint(2, 4)
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    fixed = {p: rng.choice(domain) for p in rng.sample(cells, rng.randint(0, min(4, len(cells) // 2)))}
    return rows, cols, fixed


def puz_count(text: str, rows: int, cols: int, fixed: Board, backend: str = "sat") -> int:
    given = [[fixed.get((r, c)) for c in range(cols)] for r in range(rows)]
    puzzle = puzzledsl.rules_from_text(text).bind(R=rows, C=cols, fix=given,
                                                  settings=puzzledsl.Settings(backend=backend))
    return puzzle.count(CAP + 1)


OWN = """
given R: int
given C: int
given fix[1..R, 1..C]: int?
var n[1..R, 1..C]: 1..{hi}{encoding}
rule forall p in cells(fix) where known(fix[p]): n[p] == fix[p]
rule forall p in cells(n): size(region(n, p)) {cmp} n[p]
"""

CONST = """
given R: int
given C: int
given fix[1..R, 1..C]: int?
var n[1..R, 1..C]: 1..{hi}
rule forall p in cells(fix) where known(fix[p]): n[p] == fix[p]
rule forall p in cells(n): size(region(n, p)) {cmp} {k}
"""

SHADED = """
given R: int
given C: int
given fix[1..R, 1..C]: int?
var black[1..R, 1..C]: bool
rule forall p in cells(fix) where known(fix[p]): black[p] == (fix[p] == 1)
rule "each shaded region has {k} cells": forall p in cells(black): black[p] -> size(region(black, p)) == {k}
"""

OPS = {"==": lambda s, t: s == t, "<=": lambda s, t: s <= t, ">=": lambda s, t: s >= t,
       "<": lambda s, t: s < t, ">": lambda s, t: s > t, "!=": lambda s, t: s != t}


@pytest.mark.parametrize("seed0", range(0, 48, 12))
def test_own_value_counts(seed0):
    """`size(region(n, p)) == n[p]` (a region holds as many cells as its number), and `<=`."""
    for seed in range(seed0, seed0 + 12):
        rng = random.Random(seed)
        hi = rng.choice([4, 5])
        domain = list(range(1, hi + 1))
        rows, cols, fixed = random_board(rng, domain)
        cmp = "==" if seed % 4 else "<="
        encoding = " binary" if seed % 3 == 0 else ""  # the target's bits, or one literal per value
        want = brute_count(rows, cols, domain, fixed, lambda s, v, f=OPS[cmp]: f(s, v),
                           lambda v, c=cmp: v if c in ("==", "<=") else None)
        got = puz_count(OWN.format(hi=hi, cmp=cmp, encoding=encoding), rows, cols, fixed)
        assert got == want, (seed, rows, cols, fixed, cmp, got, want)


@pytest.mark.parametrize("seed0", range(0, 48, 12))
def test_constant_size_counts(seed0):
    """`size(region(n, p)) CMP k` for a known k, each comparison."""
    for seed in range(seed0, seed0 + 12):
        rng = random.Random(1000 + seed)
        hi = rng.choice([2, 3])
        domain = list(range(1, hi + 1))
        rows, cols, fixed = random_board(rng, domain)
        cmp, k = list(OPS)[seed % 6], rng.randint(1, 4)
        upper = {"==": k, "<=": k, "<": k - 1}.get(cmp)
        want = brute_count(rows, cols, domain, fixed, lambda s, v, f=OPS[cmp], k=k: f(s, k),
                           lambda v, u=upper: u)
        got = puz_count(CONST.format(hi=hi, cmp=cmp, k=k), rows, cols, fixed)
        assert got == want, (seed, rows, cols, fixed, cmp, k, got, want)


@pytest.mark.parametrize("seed0", range(0, 20, 10))
def test_shaded_regions_counts(seed0):
    """A Boolean grid's true cells, under a decision guard: `black[p] -> size(region(black, p)) == k`."""
    for seed in range(seed0, seed0 + 10):
        rng = random.Random(2000 + seed)
        rows, cols, fixed = random_board(rng, [0, 1])
        k = rng.randint(1, 4)
        want = brute_count(rows, cols, [0, 1], fixed, lambda s, v, k=k: v == 0 or s == k,
                           lambda v, k=k: k if v == 1 else None)
        got = puz_count(SHADED.format(k=k), rows, cols, fixed)
        assert got == want, (seed, rows, cols, fixed, k, got, want)


SUM = """
given R: int
given C: int
given fix[1..R, 1..C]: int?
var n[1..R, 1..C]: 1..2
var big[1..R, 1..C]: bool
rule forall p in cells(fix) where known(fix[p]): n[p] == fix[p]
rule forall p in cells(n): big[p] == (n[p] == 2)
rule forall p in cells(n): size(region(n, p)) {cmp} 2 * big[p] + 1
"""


def test_sum_target_counts():
    """A target that is a sum (`2 * big[p] + 1`): cuts flip its literals."""
    for seed in range(16):
        rng = random.Random(4000 + seed)
        rows, cols, fixed = random_board(rng, [1, 2])
        cmp = ["==", "<=", ">=", "!="][seed % 4]
        want = brute_count(rows, cols, [1, 2], fixed, lambda s, v, f=OPS[cmp]: f(s, 2 * v - 1),
                           lambda v, c=cmp: 2 * v - 1 if c in ("==", "<=") else None)
        assert puz_count(SUM.format(cmp=cmp), rows, cols, fixed) == want, (seed, cmp)


def test_z3_agrees():
    """The Z3 backend takes the same cuts."""
    for seed in range(6):
        rng = random.Random(3000 + seed)
        domain = [1, 2, 3, 4]
        rows, cols, fixed = random_board(rng, domain)
        want = brute_count(rows, cols, domain, fixed, lambda s, v: s == v, lambda v: v)
        assert puz_count(OWN.format(hi=4, cmp="==", encoding=""), rows, cols, fixed, backend="z3") == want


def test_known_grid_regions():
    """On a given grid a region is a list of cells, computed before solving."""
    text = """
given g[1..2, 1..3]: int = [[1, 1, 2], [3, 1, 2]]
var x: 0..30
rule x == size(region(g, (1, 1))) + 10 * len(region(g, (2, 3)))
define first = region(g, (1, 2))
rule first == [(1, 1), (1, 2), (2, 2)]
"""
    solution = puzzledsl.rules_from_text(text).bind().solve()
    assert solution is not None and solution["x"] == 23


MISUSE = [
    ("rule not (size(region(n, (1, 1))) == 3)", "the size of a region of a decision grid is known only once solved",
     (3, 11)),
    ("rule size(region(n, (1, 1))) + 1 == 3", "the size of a region of a decision grid", (3, 6)),
    ("rule forall q in region(n, (1, 1)): n[q] == 1", "the region of a decision grid is known only once solved",
     (3, 18)),
    ("rule exists p in cells(n): size(region(n, p)) == 1", "the size of a region of a decision grid", (3, 28)),
    ("rule size(region(n, (1, 1))) == size(region(n, (1, 2)))", "not with another region's size", (3, 6)),
]


@pytest.mark.parametrize("rule, message, at", MISUSE)
def test_misuse_is_located_by_check(rule, message, at):
    text = f"given k: int = 1\nvar n[1..2, 1..2]: 1..4\n{rule}\n"
    with pytest.raises(PuzzleError) as err:
        puzzledsl.rules_from_text(text)
    assert message in err.value.message
    assert (err.value.span.line, err.value.span.column) == at


GROUND_MISUSE = [
    ("rule size(n) == 3", "`size` counts the cells of a region"),
    ("rule size(region(n, (3, 1))) == 3", "(3, 1) is not a cell of `n[1..2, 1..2]`"),
    ("rule size(region(n, (1, 1))) == true", "compared with a number, not a condition"),
    ("define s = size(region(n, (1, 1)))\nrule s + 1 == 2", "the size of a region of a decision grid"),
    ("define b = size(region(n, (1, 1))) == 2\nrule not b", "must be a rule of its own"),
]


@pytest.mark.parametrize("rule, message", GROUND_MISUSE)
def test_misuse_is_located_when_grounding(rule, message):
    text = f"var n[1..2, 1..2]: 1..4\n{rule}\n"
    with pytest.raises(PuzzleError) as err:
        puzzledsl.rules_from_text(text).bind().solve()
    assert message in err.value.message
    assert err.value.span is not None and err.value.span.line >= 2


@pytest.mark.parametrize("name", BUNDLED)
def test_bundled_fillomino_is_unique_and_as_published(name):
    entry = PUBLISHED[BUNDLED[name]]
    proc = subprocess.run([sys.executable, "-m", "puzzledsl", "solve", f"puzzles/fillomino/{name}.puz", "--unique",
                           "--json"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["unique"] is True
    mine = [[str(v) for v in row] for row in out["solutions"][0]["n"]]
    assert check_fillomino(entry["problem"], mine) == []
    assert mine == solution_grid(entry["solution"])


def test_fillomino_checker_finds_broken_solutions():
    entry = PUBLISHED["1_5x5"]
    good = solution_grid(entry["solution"])
    assert check_fillomino(entry["problem"], good) == []
    merged = [row[:] for row in good]
    merged[0][1] = "3"  # the 3-region of the first column grows to four cells
    assert any("has 4 cells" in e for e in check_fillomino(entry["problem"], merged))
    moved = [row[:] for row in good]
    moved[0][0], moved[1][1] = "1", "3"  # a given changes
    assert any("changes its given" in e for e in check_fillomino(entry["problem"], moved))


def test_fillomino_from_a_janko_text(tmp_path):
    """The rule file's `format` line reads janko's text (`-` empty)."""
    data = tmp_path / "f.txt"
    data.write_text(PUBLISHED["1_5x5"]["problem"] + "\n", encoding="utf-8")
    puzzle = puzzledsl.load("fillomino", str(data))
    assert puzzle.unique()
