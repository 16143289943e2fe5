"""The interface every solver backend implements; adding a backend is one file.

A backend receives the ground model, solves it repeatedly (with blocking clauses
added between calls, for uniqueness and counting) and reports which decision
variables are true. `solve` returns True (a model), False (none) or None (the
deadline passed first).
"""

from __future__ import annotations

from typing import Protocol

from ..errors import PuzzleError
from ..model import Model

SEARCH_STATS = ("conflicts", "decisions", "propagations", "restarts")  # counters `--stats` prints


class Backend(Protocol):
    name: str

    def solve(self, assumptions: list[int] = ..., deadline: float | None = None,
              conflicts: int | None = None) -> bool | None:
        """Solve under assumptions (decision-variable literals); None when the deadline came
        first, or `conflicts` more conflicts (a budget the SAT backend keeps; others ignore it)."""

    def true_vars(self) -> set[int]:
        """Decision variables that are true in the last model."""

    def add_clause(self, lits: list[int]) -> None:
        """Add a clause over decision-variable literals (blocks a solution, for example)."""

    def focus(self) -> None:
        """The searches from here on are mostly proofs that no (further) solution exists: a solver
        that can set itself up for that does (CaDiCaL leaves its stable mode, made for finding
        models); others ignore it."""

    def stats(self) -> dict[str, int]:
        """Sizes worth reporting (variables, clauses or assertions), then the SEARCH_STATS the
        solver keeps, summed over every call."""

    def close(self) -> None: ...


def make_backend(kind: str, model: Model, solver: str | None, pb: str | None, card: str | None) -> Backend:
    """Build a backend by name; z3 is imported only when asked for."""
    if kind == "sat":
        from .sat import SatBackend
        return SatBackend(model, solver or "cadical195", pb=pb, card=card)
    if kind == "z3":
        from ..extras import require
        require("z3", "--backend z3")
        from .smt import Z3Backend
        return Z3Backend(model)
    if kind == "cpsat":
        raise PuzzleError("--backend cpsat solves only puzzles played over time whose plans collect things "
                          "(docs/language.md §20)", help="use --backend sat or --backend z3 for these rules")
    raise PuzzleError(f"unknown backend `{kind}`", help="choose sat or z3")
