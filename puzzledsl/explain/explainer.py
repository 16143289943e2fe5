"""The solvers an explanation asks: the located model encoded once with a selector literal per
rule instance and per graph rule, in an incremental CaDiCaL that answers by assumptions.

Once the solution is known unique a second solver joins, holding the same clauses, whose
models *lean* to the solution (each variable is tried first at its value there). A question
"can this cell differ?" is asked there first: a model that says yes then agrees with most
cells fixed later, so it stays the cell's witness for many rounds. But a leaning model that
breaks a graph rule tends to be followed by another (the solution with one small stray piece,
then another), so after `PATIENCE` rounds of cuts the question goes to the plain solver, whose
models follow its own search. Cores are shrunk on the plain solver alone. Every clause and
cut goes to both.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

from pysat.solvers import Solver

from ..backends.sat import free, quiet_inprocessing, solve_until
from ..compile import Compiled
from ..encode.cnf import encode
from ..model import Assertion, GraphConstraint
from .lazy import LazyGraph
from .steps import Reason

PATIENCE = 4  # rounds of graph cuts a question may take on the leaning solver (or, with patience, on either)


class Explainer:
    """The solvers over the located model, with a selector per rule instance."""

    def __init__(self, compiled: Compiled, deadline: float | None = None):
        self.compiled = compiled
        self.deadline = deadline
        model = compiled.model
        located = [a for a in model.assertions if a.binding is not None]
        self.reasons: list[Reason] = [Reason(a.label, a.rule, a.binding or ()) for a in located]
        self.reasons += [Reason(g.label, g.rule, ()) for g in model.graphs]
        base = model.top
        self.sel = [base + 1 + i for i in range(len(self.reasons))]
        self.of_sel = {s: i for i, s in enumerate(self.sel)}
        guard_of = {id(a): self.sel[i] for i, a in enumerate(located)}
        model.top = base + len(self.reasons)

        def guard(a: Assertion) -> int | None:
            return guard_of.get(id(a))

        cnf = encode(model, None, guard=guard)
        self.top = max(cnf.num_vars, model.top)
        self.graphs: list[tuple[LazyGraph, int]] = [
            (LazyGraph(g), self.sel[len(located) + i]) for i, g in enumerate(model.graphs)]
        self.clauses: list[list[int]] = cnf.clauses  # every clause so far, for the leaning solver
        self.solver = Solver(name="cadical195", bootstrap_with=cnf.clauses)
        quiet_inprocessing(self.solver)
        self.leaning: Solver | None = None
        self.answered = self.solver  # the solver that answered the last question
        self.scope_vars = [self._scope(a.formula) for a in located] + [self._graph_scope(g) for g in model.graphs]
        self.calls = 0
        self.last: set[int] = set()  # the assumptions of the last call: its model keeps those graph rules
        self.graph_sel = {s for _, s in self.graphs}
        self.checked = True  # whether the last model found keeps every graph rule assumed

    # -- scopes: which answer variables a constraint reads
    def _scope(self, f: int) -> set[int]:
        return self.compiled.model.variables(f)

    def _graph_scope(self, g: GraphConstraint) -> set[int]:
        model = self.compiled.model
        defined = {v: f for f, v in model._as_var.items()}
        out: set[int] = set()
        conds = list(g.nodes) + [f for _, _, f in g.edges]
        for f in conds:
            if f is True or f is False:
                continue
            out |= model.variables(defined.get(abs(f), f))
        return out

    def close(self) -> None:
        free(self.solver)
        if self.leaning is not None:
            free(self.leaning)

    @contextmanager
    def whole(self) -> Iterator[None]:
        """While inside, questions go to a scratch solver in which every rule instance simply
        holds (its selector a unit clause, not an assumption), which CaDiCaL can simplify by: the
        solution and its uniqueness are found about twice as fast there. Clauses and cuts added
        meanwhile go to the plain solver at the end."""
        main, mark = self.solver, len(self.clauses)
        self.solver = Solver(name="cadical195", bootstrap_with=self.clauses + [[s] for s in self.sel])
        quiet_inprocessing(self.solver)
        try:
            yield
        finally:
            free(self.solver)
            self.solver = self.answered = main
            for clause in self.clauses[mark:]:
                main.add_clause(clause)

    def lean_to(self, solution: list[int]) -> None:
        """Start the leaning solver, its models leaning to `solution` (a model as a list)."""
        self.leaning = Solver(name="cadical195", bootstrap_with=self.clauses)
        quiet_inprocessing(self.leaning)
        self.leaning.set_phases(solution)

    def add_clause(self, clause: Iterable[int]) -> None:
        clause = list(clause)
        self.solver.add_clause(clause)
        if self.leaning is not None:
            self.leaning.add_clause(clause)
        else:
            self.clauses.append(clause)

    # -- solving, with the graph constraints whose selectors are assumed checked lazily
    def solve(self, assumptions: list[int], lean: bool = False, patience: bool = False) -> bool | None:
        """Whether the assumptions have a model that keeps the graph rules among them (None: the
        time limit passed). `lean`: asked on the leaning solver first. `patience`: a question
        that needs more than PATIENCE rounds of cuts on the plain solver too is given up: True,
        with `checked` false (its model may break a graph rule)."""
        self.last = set(assumptions)
        if lean and self.leaning is not None:
            res = self._solve(self.leaning, assumptions, True)
            if res is None or self.checked:
                return res
        return self._solve(self.solver, assumptions, patience)

    def _solve(self, solver: Solver, assumptions: list[int], patience: bool) -> bool | None:
        self.answered = solver
        self.checked = True
        on = self.last
        rounds = 0
        while True:
            if self.deadline is not None and time.perf_counter() >= self.deadline:
                return None
            self.calls += 1
            # in slices whether or not a limit is set: the slices steer which steps are found, and
            # an explanation (and its grade) must not change with `--time-limit` (a new user's
            # 9x9 board: 81 steps without a limit, 79 with any)
            res = solve_until(solver, assumptions, math.inf if self.deadline is None else self.deadline)
            if not res:
                return res
            active = [(g, s) for g, s in self.graphs if s in on]
            if not active:
                return True
            model = solver.get_model() or []
            cut = False
            for g, s in active:
                for clause in g.cuts(model):
                    self.add_clause([-s, *clause])
                    cut = True
            if not cut:
                return True
            rounds += 1
            if patience and rounds > PATIENCE:
                self.checked = False
                return True

    def model(self) -> list[int]:
        """The last model, as the solver's list."""
        return self.answered.get_model() or []

    def core(self) -> list[int] | None:
        """The assumptions the last unsatisfiable answer rests on."""
        return self.answered.get_core()

    def model_true(self) -> set[int]:
        return {v for v in self.model() if v > 0}

    def new_var(self) -> int:
        self.top += 1
        return self.top
