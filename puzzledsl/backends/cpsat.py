"""OR-tools CP-SAT for tours (`tour.TourProblem`): one circuit through the start node and
the chosen events, every flag covered by some chosen event, the fewest moves in all.

CP-SAT's circuit constraint with optional nodes (a node left out takes its self-loop)
is the exact tool here; a SAT encoding of the same tour would need ordering variables
per pair of events. The search reports each better tour and the proven bound.

Ctrl-C: CP-SAT's own SIGINT handler is off and the search runs in a thread (the solver
releases the GIL), so the signal reaches Python in the main thread, which stops the search
and keeps what it found. Only then is the result `interrupted`: CP-SAT may also stop before
the time limit for reasons of its own, and the wall time cannot tell the two apart.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..planning.tour import TourProblem


@dataclass
class TourResult:
    order: list[int]  # event nodes in visiting order; empty when none was found
    moves: int | None
    bound: int  # no tour costs less
    optimal: bool
    infeasible: bool
    seconds: float
    interrupted: bool = False  # Ctrl-C (or SIGTERM under the CLI) stopped the search; what it had stands


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
    solver.parameters.catch_sigint_signal = False  # Python's handler sees it (`_solve_in_thread`)
    if time_limit is not None:
        solver.parameters.max_time_in_seconds = max(time_limit, 0.01)

    class Report(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            if progress:
                progress(f"tour of {self.objective_value:.0f} moves; none shorter than "
                         f"{self.best_objective_bound:.0f} ({self.wall_time:.1f} s)")

    status, signalled = _solve_in_thread(solver, model, Report())
    found = status in (cp_model.OPTIMAL, cp_model.FEASIBLE)
    order: list[int] = []
    if found:
        nxt = {i: j for (i, j), lit in lits.items() if solver.boolean_value(lit)}
        at = nxt[0]
        while at != 0:
            order.append(at)
            at = nxt[at]
    bound = int(round(solver.best_objective_bound)) if found else 0
    stopped = status in (cp_model.FEASIBLE, cp_model.UNKNOWN)  # not when it finished as the signal came
    return TourResult(order, int(round(solver.objective_value)) if found else None, bound,
                      status == cp_model.OPTIMAL, status == cp_model.INFEASIBLE, solver.wall_time,
                      signalled and stopped)


def _solve_in_thread(solver: Any, model: Any, callback: Any) -> tuple[Any, bool]:
    """`solver.solve` in a worker thread; (its status, whether KeyboardInterrupt came meanwhile).

    The main thread waits in short slices, so a signal's Python handler runs within 50 ms even
    when the signal was delivered to one of CP-SAT's threads. On KeyboardInterrupt the search
    is told to stop; the request is repeated until it ends, as one made before `solve` has set
    up its search is dropped. Any other exception (a `TimeUp` alarm) stops it too and goes on.
    The wait is on an event, not `Thread.join`: on Python 3.11 a join cut short by
    KeyboardInterrupt marked the running thread as finished (the bpo-45274 clean-up in
    `Thread._wait_for_tstate_lock` releases the lock the live thread holds)."""
    box: dict[str, Any] = {}
    done = threading.Event()

    def run() -> None:
        try:
            box["status"] = solver.solve(model, callback)
        except BaseException as err:  # raised again in the caller's thread
            box["error"] = err
        finally:
            done.set()

    threading.Thread(target=run, name="cp-sat", daemon=True).start()
    signalled = False
    try:
        while not done.wait(0.05):
            pass
    except KeyboardInterrupt:
        signalled = True
    finally:
        while not done.is_set():
            solver.stop_search()
            try:
                done.wait(0.05)
            except KeyboardInterrupt:  # a second Ctrl-C: the stop is already on its way
                signalled = True
    if "error" in box:
        raise box["error"]
    return box["status"], signalled
