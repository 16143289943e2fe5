"""SAT and Z3 agree on every real instance (slow): same status, same uniqueness verdict,
and, the puzzles being unique, the same solution. Skips without the data folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from puzzledsl.compile import compile_givens, load_rules
from puzzledsl.importers import load_with
from puzzledsl.solve import Mode, solve
from tests.datasets import BATTLESHIP_JSON, CSPLIB_PL, KAKURASU_JSON, read_text, requires_data

pytestmark = [requires_data, pytest.mark.slow]

PUZZLES = Path(__file__).resolve().parents[1] / "puzzles"
SETS = {
    "kakurasu": ("kakurasu", KAKURASU_JSON, "puzzlekit_kakurasu", "black"),
    "battleship-janko": ("battleship", BATTLESHIP_JSON, "puzzlekit_battleship", "ship"),
    "battleship-csplib": ("battleship", CSPLIB_PL, "csplib_battleship", "ship"),
}


@pytest.mark.parametrize("name", sorted(SETS))
def test_sat_and_z3_agree_on_every_instance(name: str) -> None:
    rule_name, path, fmt, var = SETS[name]
    rules = load_rules(PUZZLES / f"{rule_name}.puz")
    disagreements = []
    for iid, givens in load_with(fmt, read_text(path), str(path)):
        compiled = compile_givens(rules, givens)
        sat = solve(compiled, "sat", None, Mode(unique=True))
        smt = solve(compiled, "z3", None, Mode(unique=True))
        same = (sat.status, sat.unique) == (smt.status, smt.unique) and (
            not sat.solutions or sat.solutions[0][var].nested() == smt.solutions[0][var].nested())
        if not same:
            disagreements.append(iid)
    assert not disagreements, f"{len(disagreements)} disagreements, first: {disagreements[:5]}"
