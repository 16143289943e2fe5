"""`puzzles/nurikabe.puz` against exhaustive counts: with and without its implied rules (the
steps from a clue through its island among them), the solutions counted on random small boards
equal the number of shadings that `tests/graph_checkers.py` accepts."""

from __future__ import annotations

import random
from itertools import combinations
from pathlib import Path

import pytest

from puzzledsl.compile import compile_givens, load_rules
from puzzledsl.solve import Mode, solve
from tests.graph_checkers import check_nurikabe

RULES = Path(__file__).resolve().parents[1] / "puzzles" / "nurikabe.puz"


def brute_force(clues: list[list[int | None]]) -> int:
    """Shadings with as many white cells as the numbers add up to, accepted by the checker."""
    rows, cols = len(clues), len(clues[0])
    free = [(r, c) for r in range(rows) for c in range(cols) if clues[r][c] is None]
    white = sum(v for row in clues for v in row if v is not None) - (rows * cols - len(free))
    if white < 0:
        return 0
    count = 0
    for picked in combinations(free, white):
        whites = set(picked)
        black = [[clues[r][c] is None and (r, c) not in whites for c in range(cols)] for r in range(rows)]
        count += not check_nurikabe(clues, black)
    return count


@pytest.mark.slow  # 10 s of brute force: in CI's slow run, out of the default one (under 5 minutes)
def test_counts_with_and_without_implied_rules_match_brute_force():
    rules = load_rules(RULES)
    rng = random.Random(7)
    checked = big = solvable = 0
    while checked < 24:
        rows, cols = rng.choice([(4, 4), (4, 5), (5, 4)])
        cells = rng.sample([(r, c) for r in range(rows) for c in range(cols)], rng.randint(1, 3))
        clues: list[list[int | None]] = [[None] * cols for _ in range(rows)]
        for r, c in cells:
            clues[r][c] = rng.randint(1, 9)
        if sum(v for row in clues for v in row if v) >= rows * cols:
            continue
        truth = brute_force(clues)
        counts = [solve(compile_givens(rules, {"board": clues}, implied=i), mode=Mode(count=0)).count
                  for i in (True, False)]
        assert counts == [truth, truth], clues
        checked += 1
        solvable += truth > 0
        big += any(v and v >= 6 for row in clues for v in row)
    assert big >= 8 and solvable >= 6  # islands large enough for the steps rule; not all empty counts


def test_a_zero_clue_is_named_as_the_rule_it_breaks(tmp_path, capsys):
    """Friction log 15: a `0` clue was an index error inside the rule file (`own` had no cell for
    it); now the island of every clue holds its own cell, and the rule "an island has at least one
    cell" is named, by `solve` (no solution) and by `check` (a warning)."""
    import json as _json

    from puzzledsl.cli import main
    data = tmp_path / "n.json"
    data.write_text(_json.dumps({"board": [[0, None], [None, None]]}))
    assert main(["solve", "nurikabe", "--data", str(data)]) == 1
    assert "“an island has at least one cell”" in capsys.readouterr().out
    assert main(["check", "nurikabe", "--data", str(data)]) == 0
    err = capsys.readouterr().err
    assert err.startswith("warning: rule “an island has at least one cell”") and "(where q = (1, 1))" in err
