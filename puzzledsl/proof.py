"""Certificates for "no second solution" (`solve --unique --proof FILE`).

A verdict "unique" is the solver's word that the rules, plus a clause excluding the solution
found, have no model. Users who publish puzzles may want more than that word: a DRAT proof,
checkable by a tool that shares nothing with puzzledsl (drat-trim, or the small checker in
the tests). The formula is written next to the proof (FILE.cnf) exactly as it was solved:
the rules' clauses, the cuts of `connected`/`acyclic` rules that the search needed (each one
true of every solution, so they are part of the rules' meaning, not of the proof), and the
clause excluding the first solution on the answer variables. It is solved again from scratch
by CaDiCaL with proof logging, since the incremental solver that decided it has no log.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .backends.sat import cadical, solve_until
from .errors import PuzzleError


@dataclass(frozen=True)
class Certificate:
    proof: Path
    formula: Path
    variables: int
    clauses: int
    lemmas: int


def formula_path(proof: Path) -> Path:
    return proof.with_name(proof.name + ".cnf")


def write_certificate(backend: object, proof: Path, title: str | None,
                      deadline: float | None = None) -> Certificate | None:
    """Write the formula the uniqueness search ended with, and a DRAT proof that it is unsat;
    None when the deadline passes first (the proof is solved again, and may take as long)."""
    sat = getattr(backend, "inner", backend)  # a LazyGraphs wrapper holds the SAT backend
    cnf, extra = getattr(sat, "cnf", None), getattr(sat, "extra", None)
    if cnf is None or extra is None:
        raise PuzzleError("--proof needs the SAT backend (`--backend sat`)")
    clauses = [*cnf.clauses, *extra]
    top = max([cnf.num_vars, sat.encoder.pool.top, *(abs(x) for cl in clauses for x in cl)])
    with cadical(clauses, with_proof=True) as s:
        res = solve_until(s, [], deadline)
        if res is None:
            return None
        if res:
            raise RuntimeError("the formula of a unique puzzle has a model again")
        lines = s.get_proof() or []
    formula = formula_path(proof)
    try:
        with formula.open("w", encoding="ascii") as f:
            f.write(f"c puzzledsl: no second solution{f' of {title}' if title else ''}\n"
                    f"c the rules, {len(extra)} clause(s) added while solving (graph cuts, and the\n"
                    "c exclusion of the solution found), as solved; the proof is in the file without .cnf\n")
            f.write(f"p cnf {top} {len(clauses)}\n")
            f.writelines(" ".join(map(str, cl)) + " 0\n" for cl in clauses)
        with proof.open("w", encoding="ascii") as f:
            f.writelines(line + "\n" for line in lines)
    except OSError as err:
        raise PuzzleError(f"cannot write the proof: {err.strerror or err}: {err.filename or proof}") from err
    return Certificate(proof, formula, top, len(clauses), sum(1 for ln in lines if not ln.startswith("d ")))
