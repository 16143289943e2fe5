"""Real puzzles from /work/shared/data, solved in-process with the SAT backend.

Each puzzle must have exactly one solution, that solution must pass the independent
checker, and it must equal the published solution where there is one. The default run
takes a small sample; the complete sets are marked `slow`
(`python -m pytest -m slow tests/test_datasets.py`). Everything skips without the data.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import cache
from itertools import islice
from pathlib import Path

import pytest

from puzzledsl.compile import compile_givens, load_rules
from puzzledsl.importers import load_with
from puzzledsl.solve import Mode, solve
from tests.checkers import (
    check_battleship,
    check_kakurasu,
    read_janko_battleship_solution,
    read_janko_kakurasu_solution,
)
from tests.datasets import battleship_entries, csplib_instances, kakurasu_entries, requires_data

pytestmark = requires_data

PUZZLES = Path(__file__).resolve().parents[1] / "puzzles"
BIG = "battleshipd5a4db73_30x30"  # janko's 30x30: no published solution


@cache
def rules(name: str):
    """Parsed and checked once per run, reused for every instance."""
    return load_rules(PUZZLES / f"{name}.puz")


def solve_unique(rule_name: str, givens: dict, var: str) -> tuple[list[list[bool]] | None, str | None]:
    """(the solution, None) when there is exactly one, else (None, what went wrong)."""
    out = solve(compile_givens(rules(rule_name), givens), "sat", None, Mode(unique=True))
    if out.status != "sat":
        return None, f"status {out.status}"
    if out.unique is not True:
        return None, f"not unique (unique={out.unique}, count={out.count})"
    return out.solutions[0][var].nested(), None


def kakurasu_problems(key: str, problem: str, solution: str | None) -> list[str]:
    g = load_with("janko_kakurasu", problem, key)[0][1]
    black, why = solve_unique("kakurasu", g, "black")
    if black is None:
        return [why]
    bad = check_kakurasu(g["rowsum"], g["colsum"], black)
    if solution is not None and black != read_janko_kakurasu_solution(solution):
        bad.append("differs from the published solution")
    return bad


def battleship_problems(key: str, problem: str, solution: str | None) -> list[str]:
    g = load_with("janko_battleship", problem, key)[0][1]
    ship, why = solve_unique("battleship", g, "ship")
    if ship is None:
        return [why]
    bad = check_battleship(g["rowsum"], g["colsum"], g["fleet"], g["hint"], ship)
    if solution is not None and ship != read_janko_battleship_solution(solution):
        bad.append("differs from the published solution")
    return bad


def csplib_problems(key: str, g: dict) -> list[str]:
    ship, why = solve_unique("battleship", g, "ship")
    if ship is None:
        return [why]
    return check_battleship(g["rowsum"], g["colsum"], g["fleet"], g["hint"], ship)  # no published solutions


# ------------------------------------------------------------------ fast sample (default run)


@cache
def kakurasu_head() -> list:
    return list(islice(kakurasu_entries(), 15))


@cache
def battleship_head() -> list:
    return list(islice((e for e in battleship_entries() if e[0] != BIG), 15))


@cache
def csplib_head() -> list:
    return list(islice(csplib_instances(), 10))


@pytest.mark.parametrize("i", range(15))
def test_kakurasu_sample(i: int) -> None:
    key, problem, solution = kakurasu_head()[i]
    assert solution is not None
    assert kakurasu_problems(key, problem, solution) == [], key


@pytest.mark.parametrize("i", range(15))
def test_battleship_janko_sample(i: int) -> None:
    key, problem, solution = battleship_head()[i]
    assert solution is not None
    assert battleship_problems(key, problem, solution) == [], key


@pytest.mark.parametrize("i", range(10))
def test_csplib_sample(i: int) -> None:
    key, g = csplib_head()[i]
    assert csplib_problems(key, g) == [], key


def test_battleship_30x30() -> None:
    key, problem, solution = next(e for e in battleship_entries() if e[0] == BIG)
    assert solution is None
    g = load_with("janko_battleship", problem, key)[0][1]
    assert (g["R"], g["C"]) == (30, 30)
    assert battleship_problems(key, problem, None) == []


# ------------------------------------------------------------------ complete sets (slow)


def run_all(items: Iterable, check: Callable[..., list[str]], expected: int) -> None:
    failures, n = [], 0
    for item in items:
        n += 1
        bad = check(*item)
        if bad:
            failures.append(f"{item[0]}: {'; '.join(bad[:3])}")
    assert n == expected
    assert not failures, f"{len(failures)} of {n} failed:\n" + "\n".join(failures[:20])


@pytest.mark.slow
def test_every_kakurasu() -> None:
    run_all(kakurasu_entries(), kakurasu_problems, 280)


@pytest.mark.slow
def test_every_janko_battleship() -> None:
    entries = list(battleship_entries())
    assert sum(solution is None for _, _, solution in entries) == 1  # only the 30x30 lacks one
    run_all(entries, battleship_problems, 861)


@pytest.mark.slow
def test_every_csplib_battleship() -> None:
    run_all(csplib_instances(), csplib_problems, 303)
