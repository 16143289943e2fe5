"""OR-tools CP-SAT for tours (`tour.TourProblem`): one circuit through the start node and
the chosen events, every flag covered by some chosen event, the fewest moves in all.

CP-SAT's circuit constraint with optional nodes (a node left out takes its self-loop)
is the exact tool here; a SAT encoding of the same tour would need ordering variables
per pair of events. The search reports each better tour and the proven bound.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..planning.tour import TourProblem


@dataclass
class TourResult:
    order: list[int]  # event nodes in visiting order; empty when none was found
    moves: int | None
    bound: int  # no tour costs less
    optimal: bool
    infeasible: bool
    seconds: float
    interrupted: bool = False  # Ctrl-C (CP-SAT catches it and returns what it has)


def available() -> bool:
    from ..extras import installed
    return installed("ortools.sat.python.cp_model")


def _nested(sets: list[set[int]]) -> bool:
    """True when the sets form a chain under inclusion. Then of two chosen events that set the
    same flag, the one setting less can be dropped: a shortest walk that skips it is no longer
    (costs are shortest paths), so some optimal tour takes exactly one of them. Saying so makes
    the bound of the circuit's relaxation tight enough to prove optima (seconds instead of
    never on a 24-present level)."""
    ordered = sorted(sets, key=len)
    return all(a <= b for a, b in zip(ordered, ordered[1:]))


def solve_tour(t: TourProblem, time_limit: float | None, hint: list[int] | None = None,
               progress: Callable[[str], None] | None = None, workers: int = 2,
               exactly_one: bool = True) -> TourResult:
    """`exactly_one=False` leaves out the chosen-event constraint of `_nested` (for benchmarks)."""
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    n = len(t.events)
    arcs: list[tuple[int, int, object]] = []
    lits: dict[tuple[int, int], object] = {}
    for (i, j) in t.cost:
        lit = model.new_bool_var(f"a{i}_{j}")
        lits[(i, j)] = lit
        arcs.append((i, j, lit))
    visit = {}
    for i in range(1, n):
        skip = model.new_bool_var(f"skip{i}")
        arcs.append((i, i, skip))
        visit[i] = skip.Not()
    model.add_circuit(arcs)
    sets: dict[int, set[int]] = {}
    for flag, events in t.covers.items():
        for i in events:
            sets.setdefault(i, set()).add(flag)
    for events in t.covers.values():
        chosen = [visit[i] for i in events]
        if exactly_one and _nested([sets[i] for i in events]):
            model.add_exactly_one(chosen)
        else:
            model.add_bool_or(chosen)
    model.minimize(sum(c * lits[a] for a, c in t.cost.items()))
    if hint:
        chosen = set(zip([0] + hint, hint + [0]))
        for a, lit in lits.items():
            model.add_hint(lit, a in chosen)
        for i in range(1, n):
            model.add_hint(visit[i], i in hint)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = workers
    if time_limit is not None:
        solver.parameters.max_time_in_seconds = max(time_limit, 0.01)

    class Report(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            if progress:
                progress(f"tour of {self.objective_value:.0f} moves; none shorter than "
                         f"{self.best_objective_bound:.0f} ({self.wall_time:.1f} s)")

    status = solver.solve(model, Report())
    found = status in (cp_model.OPTIMAL, cp_model.FEASIBLE)
    order: list[int] = []
    if found:
        nxt = {i: j for (i, j), lit in lits.items() if solver.boolean_value(lit)}
        at = nxt[0]
        while at != 0:
            order.append(at)
            at = nxt[at]
    bound = int(round(solver.best_objective_bound)) if found else 0
    stopped = status in (cp_model.FEASIBLE, cp_model.UNKNOWN)
    early = time_limit is None or solver.wall_time < time_limit - 0.5  # not by the time limit
    return TourResult(order, int(round(solver.objective_value)) if found else None, bound,
                      status == cp_model.OPTIMAL, status == cp_model.INFEASIBLE, solver.wall_time, stopped and early)
