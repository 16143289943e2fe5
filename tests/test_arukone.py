"""Arukone (`puzzles/arukone.puz`): solutions checked by the independent checker in
`tests/arukone_checker.py`, counts against the brute-force counter in
`tests/arukone_bruteforce.py`, janko solutions against the published ones."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from puzzledsl.compile import compile_givens, load_rules
from puzzledsl.solve import Mode, solve
from tests.arukone_bruteforce import count_solutions
from tests.arukone_checker import check_arukone, normalize_edges
from tests.datasets import DATA, data_file, requires_data
from tests.numberlink_data import puzzlekit_arukone_entries, puzzlekit_solution_edges

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "puzzles" / "arukone.puz"
ARUKONE0 = DATA / "arukone" / "bwinf" / "arukone0.txt"
NOTIONS = {"strict": {}, "fill": {"fill": "true"}, "touch-free": {"touchfree": "true"}}


def run(clues: list[list[int | None]], options: dict[str, str], mode: Mode, time_limit: float = 60):
    compiled = compile_givens(load_rules(RULES), {"num": clues}, options)
    return solve(compiled, mode=mode, time_limit=time_limit)


def as_cells(sol) -> tuple[list[list[int]], frozenset]:
    """The solved label grid, and the chosen edges with 0-based cells."""
    labels = sol["pair"].nested()
    edges = normalize_edges([[(p[0] - 1, p[1] - 1), (q[0] - 1, q[1] - 1)] for p, q in sol["link"].nested()])
    return labels, edges


def parse_janko(problem: str) -> list[list[int | None]]:
    rows = problem.strip().split("\n")[1:]
    return [[None if t == "-" else int(t) for t in row.split()] for row in rows]


def random_puzzle(rng: random.Random, n: int, pairs: int) -> list[list[int | None]]:
    cells = rng.sample([(r, c) for r in range(n) for c in range(n)], 2 * pairs)
    grid: list[list[int | None]] = [[None] * n for _ in range(n)]
    for i, (r, c) in enumerate(cells):
        grid[r][c] = i // 2 + 1
    return grid


# ------------------------------------------------------------------ the official BWINF example


@requires_data
def test_bwinf_example_has_two_literal_solutions_and_none_that_fill():
    text = data_file(ARUKONE0).read_text().split("\n")
    clues = [[int(t) or None for t in line.split()] for line in text[2:] if line.strip()]
    out = run(clues, {}, Mode(count=0))
    assert out.count == 2 and out.count_complete
    seen = set()
    for sol in out.solutions:
        labels, edges = as_cells(sol)
        assert check_arukone(clues, labels, edges) == []
        seen.add(edges)
    assert len(seen) == 2
    assert count_solutions(clues) == 2
    filled = run(clues, {"fill": "true"}, Mode(count=0))
    assert filled.status == "unsat" and count_solutions(clues, fill=True) == 0


@requires_data
def test_bwinf_example_on_the_command_line_reports_the_notion():
    res = subprocess.run([sys.executable, "-m", "puzzledsl", "solve", str(RULES), "--data", str(ARUKONE0), "--unique",
                          "--json"], capture_output=True, text=True, cwd=ROOT)
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    assert out["unique"] is False
    assert out["options"] == {"fill": False, "touchfree": False, "near": False, "tight": False}
    grid = out["solutions"][0]["pair"]  # the number whose line occupies each cell, 0 when empty
    assert len(grid) == 6 and all(isinstance(v, int) for row in grid for v in row)
    res = subprocess.run([sys.executable, "-m", "puzzledsl", "solve", str(RULES), "--data", str(ARUKONE0),
                          "--option", "fill=true"], capture_output=True, text=True, cwd=ROOT)
    assert res.returncode == 1


def test_a_board_without_numbers_is_a_puzzle_not_an_error_in_the_rules():
    """A generator's board with no pairs (`4`, `0`, zeros): every cell stays empty, one solution;
    under fill none. Was "`max` over an empty set" at the rule file's `define K`."""
    empty: list[list[int | None]] = [[None] * 4 for _ in range(4)]
    out = run(empty, {}, Mode(unique=True))
    assert out.status == "sat" and out.unique is True
    assert out.solutions[0]["pair"].nested() == [[0] * 4 for _ in range(4)]
    assert run(empty, {"fill": "true"}, Mode(unique=True)).status == "unsat"


# ------------------------------------------------------------------ counts per notion


@pytest.mark.parametrize("seed", range(30))
def test_counts_agree_with_brute_force_for_every_notion(seed):
    rng = random.Random(seed)
    n = rng.choice([3, 4, 4, 5])
    clues = random_puzzle(rng, n, rng.randint(1, 3 if n < 5 else 4))
    for name, options in NOTIONS.items():
        flags = {"fill": "fill" in options, "touchfree": "touchfree" in options}
        expected = count_solutions(clues, limit=4, **flags)
        out = run(clues, options, Mode(count=4))
        assert min(out.count or 0, 4) == expected, (name, clues)
        for sol in out.solutions:
            labels, edges = as_cells(sol)
            assert check_arukone(clues, labels, edges, **flags) == [], (name, clues)


# ------------------------------------------------------------------ janko, with published solutions


def _janko(limit: int | None):
    entries = [e for e in puzzlekit_arukone_entries() if e[0] != "341_11x10"]
    entries.sort(key=lambda e: len(e[1]))
    return entries[:limit] if limit else entries


def _check_janko(iid: str, problem: str, solution: str | None) -> None:
    """Solved and proven unique under the fill rule, the solution equal to the published one;
    a puzzle whose published solution leaves cells empty has none that fills, and is solved
    under the literal rules instead."""
    clues = parse_janko(problem)
    published = puzzlekit_solution_edges(solution)
    published_labels = None
    out = run(clues, {"fill": "true"}, Mode(unique=True))
    fill = out.status == "sat"
    if not fill:
        published_labels = [[v for v in row] for row in _labels_of(clues, published)]
        assert any(0 in row for row in published_labels), iid  # only those may fail to fill
        out = run(clues, {}, Mode())
    assert out.status == "sat", iid
    labels, edges = as_cells(out.solutions[0])
    assert check_arukone(clues, labels, edges, fill=fill) == [], iid
    if fill:
        assert out.unique is True, iid
        if check_arukone(clues, None, published, fill=True) == []:
            assert edges == published, iid


def _labels_of(clues, edges):
    from tests.arukone_checker import labels_from_edges
    return labels_from_edges(clues, edges)


@requires_data
def test_smallest_janko_puzzles_match_their_published_solutions():
    for iid, problem, solution in _janko(25):
        _check_janko(iid, problem, solution)


def _check_janko_solved(iid: str, problem: str, solution: str | None) -> bool:
    """Solved, checked and compared: under fill and touch-free together (a solution there is a
    solution under every notion, and it is found fast); a puzzle whose published solution leaves
    cells empty or runs beside itself under touch-free alone (which has a solution exactly when the literal rules do).
    False when the time limit ends the search first."""
    clues = parse_janko(problem)
    published = puzzlekit_solution_edges(solution)
    out = run(clues, {"fill": "true", "touchfree": "true"}, Mode(), time_limit=20)
    if out.status == "unknown":
        return False
    fill = out.status == "sat"
    if not fill:  # only a published solution that leaves cells empty or touches itself (190_35x48)
        assert any(0 in row for row in _labels_of(clues, published)) or \
            check_arukone(clues, None, published, fill=True, touchfree=True) != [], iid
        out = run(clues, {"touchfree": "true"}, Mode(), time_limit=20)
        if out.status == "unknown":
            return False
    assert out.status == "sat", iid
    labels, edges = as_cells(out.solutions[0])
    assert check_arukone(clues, labels, edges, fill=fill, touchfree=True) == [], iid
    if fill and check_arukone(clues, None, published, fill=True) == []:
        assert edges == published, iid  # janko puzzles are unique under the fill rule
    return True


@pytest.mark.slow
@requires_data
def test_janko_puzzles_are_solved_and_match_their_published_solutions():
    """Every fourth janko puzzle, and the ten largest (the whole set is `bench/bench_arukone.py
    janko`, recorded in BENCHMARKS.md). Every answer found must be right; a few hard 15×15 and
    larger puzzles may run out of time, but not more than 5%."""
    every = _janko(None)
    entries = every[::4] + [e for e in every[-10:] if e not in every[::4]]
    unsolved = [iid for iid, problem, solution in entries if not _check_janko_solved(iid, problem, solution)]
    assert len(unsolved) <= len(entries) // 20, unsolved


# Janko puzzles with more than one solution under the literal rules (the extra ones leave cells
# empty or let a line touch itself), found by the clingo peer (bench/peers/numberlink.lp).
LITERAL_NOT_UNIQUE = ("388_10x15", "424_12x12", "435_12x12", "445_12x12", "565_10x10")


@requires_data
@pytest.mark.parametrize("iid", LITERAL_NOT_UNIQUE)
def test_janko_puzzles_with_a_second_literal_solution(iid):
    problem = next(p for key, p, _ in puzzlekit_arukone_entries() if key == iid)
    clues = parse_janko(problem)
    out = run(clues, {}, Mode(unique=True))
    assert out.unique is False and len(out.solutions) == 2
    found = [as_cells(sol) for sol in out.solutions]
    for labels, edges in found:
        assert check_arukone(clues, labels, edges) == []
    assert found[0][1] != found[1][1]
