"""`solve --unique --proof FILE`: a DRAT proof of "no second solution", checked by the
independent checker in `tests/drat_checker.py`, and rejected once the clause that excludes
the first solution is taken out of the formula (so the check is not vacuous)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from puzzledsl.cli import main
from tests.drat_checker import check, read_dimacs

ROOT = Path(__file__).resolve().parents[1]
UNIQUE = ["kakurasu/seed-5x5.puz", "battleship/csplib-113.puz", "masyu/02_6x6.puz", "slitherlink/1_4x4.puz",
          "star-battle/constructed-8x8.puz", "sudoku/wikipedia.puz", "nurikabe/01_10x10.puz"]
ARUKONE = """5 5
7 - - - 3
9 1 3 - -
- - - 7 -
- - - - -
9 - - - 1
"""  # janko.at Arukone 001


def _run(capsys, *args: object) -> tuple[int, str, str]:
    rc = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return rc, out, err


def _refuted_without_exclusion(proof: Path) -> bool:
    """The proof against the formula without the exclusion of the solution: of the clauses added
    while solving (their number is in the header), the one over every decision variable, the
    longest (graph cuts may come after it: a search for a second solution adds them too)."""
    formula = Path(str(proof) + ".cnf")
    clauses = read_dimacs(formula)
    added = int(re.search(r"(\d+) clause\(s\) added while solving", formula.read_text()).group(1))
    exclusion = len(clauses) - added + max(range(added), key=lambda i: len(clauses[len(clauses) - added + i]))
    weaker = proof.with_name("weaker.cnf")
    kept = clauses[:exclusion] + clauses[exclusion + 1:]
    weaker.write_text("p cnf 1 1\n" + "".join(" ".join(map(str, c)) + " 0\n" for c in kept))
    return check(weaker, proof)[0]


@pytest.mark.parametrize("name", UNIQUE)
def test_proofs_of_uniqueness_check(tmp_path, capsys, name):
    proof = tmp_path / "unique.drat"
    rc, out, err = _run(capsys, "solve", ROOT / "puzzles" / name, "--unique", "--proof", proof, "--no-color")
    assert rc == 0 and "unique" in out, out + err
    assert f"proof of uniqueness: {proof}" in err
    ok, why = check(Path(str(proof) + ".cnf"), proof)
    assert ok, why
    assert not _refuted_without_exclusion(proof)


def test_proof_with_graph_cuts_and_json(tmp_path, capsys):
    """Arukone's `acyclic` rule is checked lazily: the cuts the search needed are in the formula
    (the rules as given: the proof does not rest on the `wlog` argument of `arukone.puz`)."""
    data = tmp_path / "a.txt"
    data.write_text(ARUKONE)
    proof = tmp_path / "a.drat"
    rc, out, err = _run(capsys, "solve", ROOT / "puzzles" / "arukone.puz", "--data", data, "--unique",
                        "--proof", proof, "--json")
    obj = json.loads(out)
    assert rc == 0 and obj["unique"] is True, out + err
    assert obj["proof"]["file"] == str(proof) and obj["proof"]["lemmas"] >= 0
    ok, why = check(Path(obj["proof"]["formula"]), proof)
    assert ok, why
    assert not _refuted_without_exclusion(proof)


def test_no_proof_for_a_puzzle_with_two_solutions(tmp_path, capsys):
    proof = tmp_path / "p.drat"
    rc, out, err = _run(capsys, "solve", ROOT / "puzzles" / "battleship" / "seed-9x9-fleetless.puz", "--unique",
                        "--proof", proof, "--no-color")
    assert rc == 0 and "not unique" in out
    assert "no proof written" in err and not proof.exists()


@pytest.mark.parametrize("extra, message", [
    ((), "--proof goes with --unique alone"),
    (("--unique", "--backend", "z3"), "--proof goes with --unique alone"),
    (("--unique", "--count", "3"), "--proof goes with --unique alone"),
])
def test_proof_needs_the_plain_unique_search(tmp_path, capsys, extra, message):
    rc, _, err = _run(capsys, "solve", ROOT / "puzzles" / "kakurasu" / "seed-5x5.puz", "--proof",
                      tmp_path / "p.drat", *extra)
    assert rc == 2 and message in err


def test_proof_into_a_missing_folder(tmp_path, capsys):
    rc, _, err = _run(capsys, "solve", ROOT / "puzzles" / "kakurasu" / "seed-5x5.puz", "--unique", "--proof",
                      tmp_path / "no" / "such" / "p.drat")
    assert rc == 2 and "cannot write the proof" in err


def test_the_checker_runs_as_a_command(tmp_path, capsys):
    """Friction log 11: the docs name `tests/drat_checker.py` as a checker, but run as a command
    it had no entry point and exited 0 on anything, a truncated proof too."""
    import subprocess
    import sys
    proof = tmp_path / "unique.drat"
    _run(capsys, "solve", ROOT / "puzzles" / "kakurasu" / "seed-5x5.puz", "--unique", "--proof", proof)
    checker = [sys.executable, str(ROOT / "tests" / "drat_checker.py")]
    ok = subprocess.run([*checker, f"{proof}.cnf", proof], capture_output=True, text=True)
    assert ok.returncode == 0 and "s VERIFIED" in ok.stdout
    cut = tmp_path / "cut.drat"
    cut.write_bytes(proof.read_bytes()[:10])
    bad = subprocess.run([*checker, f"{proof}.cnf", cut], capture_output=True, text=True)
    assert bad.returncode == 1 and "NOT VERIFIED" in bad.stdout
    assert subprocess.run(checker, capture_output=True).returncode == 2
