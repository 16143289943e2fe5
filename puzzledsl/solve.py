"""Solving modes over a backend: first solution, uniqueness, counting, determined cells.

A solution is distinct from another when some decision variable of the answer differs
(every decision variable, unless the rules declare `answer x, y`: a projection, as
clingo's `--project`); further solutions are found by blocking earlier ones on those
variables, which is sound for "is there another answer" and counts answers, not models.
A time-out never counts as a proof: uniqueness is then `None` ("unknown").
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from . import graphs
from .backends.base import Backend, make_backend
from .backends.sat import check_incremental
from .compile import Compiled, no_gc
from .deadline import TimeUp, alarm_at, interrupt_requested
from .model import Assertion, GraphConstraint, Model
from .proof import Certificate, write_certificate
from .values import Grid, IntVarCell, LazyGrid, binding_text

if TYPE_CHECKING:
    from pysat.solvers import Solver


@dataclass(frozen=True)
class Mode:
    unique: bool = False
    count: int | None = None  # stop counting here; 0 = count all
    determined: bool = False
    # with no solution, name the rules that clash (grounding them again, each instance its own):
    # a report wants it; a verdict alone does not (`verify`: a 35x48 board, 1.0 s of its 2.1 s)
    explain: bool = True


@dataclass
class Outcome:
    status: str  # "sat" | "unsat" | "unknown"
    solutions: list[dict[str, Grid]] = field(default_factory=list)
    unique: bool | None = None
    count: int | None = None
    count_complete: bool = False
    determined: dict[str, Grid] | None = None
    timed_out: bool = False
    timings: dict[str, float] = field(default_factory=dict)
    stats: dict[str, int] = field(default_factory=dict)
    backend: str = ""
    route: str | None = None  # how uniqueness was decided, when not by the plain search (`wlog`, known solution)
    established: list[str] = field(default_factory=list)  # what the route proved before a time limit cut it short
    conflict: list[tuple[str | None, str]] = field(default_factory=list)  # rules behind "unsat"
    interrupted: bool = False  # Ctrl-C stopped the search; what it had found stands
    certificate: Certificate | None = None  # `--proof`: where the proof of uniqueness was written


# `progress(what, n)`: ("count", solutions so far), ("determined", cells checked), or, while
# looking for one solution, what is looked for ("a second solution", "a first solution with
# fill") and the step of the search (1 a first solution, 2 another that keeps the first's cells,
# 3 a second one; docs/api.md). A status line shows it; nothing else depends on it.
Progress = Callable[[str, int], None]
COUNT_CAP = 10 ** 18  # `--all` stops here: cells no rule reads can make the count astronomical


def decode(compiled: Compiled, true: set[int]) -> dict[str, Grid]:
    out: dict[str, Grid] = {}
    for name, g in compiled.grids.items():
        vals = g.empty_like()
        if isinstance(g, LazyGrid) and g.unread():  # cells no rule reads: their least value
            vals.cells = dict.fromkeys(g.keys(), g.free)
        for key, cell in g.cells.items():
            if isinstance(cell, IntVarCell):
                vals.cells[key] = cell.value(true)
            else:
                vals.cells[key] = cell.h in true
        out[name] = vals
    return out


def free_cells(compiled: Compiled) -> list[tuple[str, LazyGrid]]:
    """The answer's grids with cells no rule reads: each such cell may take any value of its
    domain in every solution, which multiplies the count of answers."""
    names = compiled.answer if compiled.answer is not None else list(compiled.grids)
    out = []
    for name in names:
        g = compiled.grids[name]
        if isinstance(g, LazyGrid) and g.domain > 1 and g.unread():
            out.append((name, g))
    return out


def _past(deadline: float | None) -> bool:
    return deadline is not None and time.perf_counter() >= deadline


def blocking_clause(decision: list[int], true: set[int]) -> list[int]:
    return [-v if v in true else v for v in decision]


def model_literals(decision: list[int], true: set[int]) -> list[int]:
    """The variables at their values in a model (`true`): as assumptions, that model again."""
    return [v if v in true else -v for v in decision]


def incremental_need(mode: Mode, graphs: bool) -> str | None:
    """What in this run calls the solver more than once (None: one call is enough)."""
    if mode.unique or mode.count is not None:
        return "checking uniqueness or counting"
    if mode.determined:
        return "--determined"
    return "a connectivity rule (checked lazily)" if graphs else None


def solve(compiled: Compiled, backend_kind: str = "sat", solver: str | None = None, mode: Mode = Mode(),
          time_limit: float | None = None, progress: Progress | None = None,
          pb: str | None = None, card: str | None = None, proof: Path | None = None) -> Outcome:
    """Solve, count or prove uniqueness by the plain search (block each solution, solve again).
    With `proof`, a verdict "unique" comes with a DRAT proof written there (`proof.py`)."""
    start = time.perf_counter()
    deadline = start + time_limit if time_limit else None
    model = compiled.model
    if model.false_rule is not None:
        return Outcome("unsat", count=0, unique=False, count_complete=True, backend=backend_kind,
                       timings={"encode": 0.0, "solve": 0.0})
    if backend_kind == "sat":
        check_incremental(solver, incremental_need(mode, bool(model.graphs)))
    try:
        backend = open_backend(compiled, backend_kind, solver, pb, card, deadline)
    except TimeUp:  # the limit passed while encoding: nothing found yet
        return Outcome("unknown", backend=backend_kind, timed_out=True,
                       timings={"encode": time.perf_counter() - start, "solve": 0.0})
    t_enc = time.perf_counter()
    out = Outcome("unknown", backend=backend.name)
    try:
        with alarm_at(deadline):
            _run(compiled, backend, mode, deadline, progress, out)
            if proof is not None and out.unique is True:
                out.certificate = write_certificate(backend, proof, compiled.title, deadline)
    except TimeUp:  # a stage between solver calls overran: what was found stands
        out.timed_out = True
    except KeyboardInterrupt:  # Ctrl-C (or SIGTERM): report what was found, as a time-out would
        out.timed_out = out.interrupted = True
    except Exception:
        if not interrupt_requested():
            raise
        out.timed_out = out.interrupted = True  # the interrupt, wrapped by a C binding (Z3's ctypes)
    finally:
        out.stats = backend.stats()
        backend.close()
    out.timings = {"encode": t_enc - start, "solve": time.perf_counter() - t_enc}
    return out


def open_backend(compiled: Compiled, backend_kind: str = "sat", solver: str | None = None,
                 pb: str | None = None, card: str | None = None, deadline: float | None = None) -> Backend:
    """A backend for the compiled model whose models also satisfy its graph constraints."""
    with no_gc(), alarm_at(deadline):  # encoding does not watch the clock
        backend = make_backend(backend_kind, compiled.model, solver, pb, card)
    return LazyGraphs(backend, compiled.model.graphs) if compiled.model.graphs else backend


class LazyGraphs:
    """A backend whose models also satisfy the graph constraints: each model is checked, and
    cuts are added (and kept) until one passes; a model whose only fault is cycles is first
    repaired (see `graphs.py`)."""

    def __init__(self, inner: Backend, graph_constraints: list[GraphConstraint]):
        self.inner = inner
        self.graphs = graph_constraints
        self.name = inner.name
        self.cuts = 0
        self.rounds = 0
        self.repairs = 0

    def solve(self, assumptions: list[int] | None = None, deadline: float | None = None,
              conflicts: int | None = None) -> bool | None:
        """`conflicts`: a budget for each call of the inner solver (a round of cuts gets a new one)."""
        assumptions = list(assumptions or [])
        while True:
            res = self.inner.solve(assumptions, deadline=deadline, conflicts=conflicts)
            if not res:
                return res
            true = self.inner.true_vars()
            found = graphs.check(self.graphs, true)
            if found.ok:
                return True
            self.rounds += 1
            for cut in found.cuts:
                self.inner.add_clause(cut)
            self.cuts += len(found.cuts)
            if found.cycle_edges:
                res = self.inner.solve(assumptions + graphs.repair(self.graphs, true, found), deadline=deadline,
                                       conflicts=conflicts)
                if res is None:
                    return None
                if res and graphs.check(self.graphs, self.inner.true_vars()).ok:
                    self.repairs += 1
                    return True
            if _past(deadline):
                return None

    def true_vars(self) -> set[int]:
        return self.inner.true_vars()

    def set_phases(self, lits: list[int]) -> None:
        self.inner.set_phases(lits)  # type: ignore[attr-defined]

    def largest_variable(self) -> int:
        return self.inner.largest_variable()  # type: ignore[attr-defined]

    def restart(self, extra: list[list[int]]) -> None:
        self.inner.restart(extra)  # type: ignore[attr-defined]

    def focus(self) -> None:
        self.inner.focus()

    def add_clause(self, lits: list[int]) -> None:
        self.inner.add_clause(lits)

    def stats(self) -> dict[str, int]:
        return {**self.inner.stats(), "graph_cuts": self.cuts, "graph_rounds": self.rounds,
                "graph_repairs": self.repairs}

    def close(self) -> None:
        self.inner.close()


def _run(compiled: Compiled, backend: Backend, mode: Mode, deadline: float | None,
         progress: Progress | None, out: Outcome) -> None:
    decision = compiled.answer_handles()
    started = time.perf_counter()
    res = backend.solve(deadline=deadline)
    if res is None:
        out.timed_out = True
        return
    if not res:
        out.status, out.count, out.unique, out.count_complete = "unsat", 0, False, True
        if mode.explain:  # naming the clashing rules is worth a little more time than the search took
            searched = time.perf_counter() - started
            out.conflict = explain_unsat(compiled, deadline, seconds=min(5.0, max(0.5, 3 * searched)))
        return
    out.status = "sat"
    first = backend.true_vars()
    out.solutions.append(decode(compiled, first))
    if mode.determined:  # before counting: blocking clauses would hide solutions from it
        out.determined = _determined(compiled, backend, decision, first, deadline, progress, out)
    limit = mode.count if mode.count is not None else (2 if mode.unique else None)
    if limit is not None and not out.timed_out:
        _count(compiled, backend, decision, first, limit, deadline, progress, out)


def _count(compiled: Compiled, backend: Backend, decision: list[int], first: set[int], limit: int,
           deadline: float | None, progress: Progress | None, out: Outcome) -> None:
    n, true = 1, first
    if progress and limit == 2:
        progress("a second solution", 3)
    while limit == 0 or n < limit:
        out.count = n  # so far, should Ctrl-C stop the count
        backend.add_clause(blocking_clause(decision, true))
        res = None if _past(deadline) else backend.solve(deadline=deadline)
        if res is None:
            out.timed_out = True
            break
        if not res:
            out.count_complete = True
            break
        n += 1
        true = backend.true_vars()
        if len(out.solutions) < 2:
            out.solutions.append(decode(compiled, true))
        if progress:
            progress("count", n)
    n = _with_free_cells(compiled, n, limit, out)
    out.count = n
    if out.count_complete:
        out.unique = n == 1
    elif not out.timed_out or n >= 2:
        out.unique = False if n >= 2 else None


def _with_free_cells(compiled: Compiled, n: int, limit: int, out: Outcome) -> int:
    """The count when the answer has cells no rule reads (each solution stands for
    domain^free answers), capped at `limit` (or COUNT_CAP); a second solution for the report."""
    free = free_cells(compiled)
    if not free:
        return n
    if len(out.solutions) < 2:
        name, g = free[0]
        key = next(k for k in g.keys() if k not in g.cells)
        second = {k: v.empty_like() for k, v in out.solutions[0].items()}
        for k, v in out.solutions[0].items():
            second[k].cells = dict(v.cells)
        second[name].cells[key] = (not g.free) if g.free is False else g.free + 1
        out.solutions.append(second)
    cap = limit or COUNT_CAP
    for _, g in free:
        for _ in range(g.unread()):
            n *= g.domain
            if n >= cap:
                out.count_complete = False
                return cap
    return n


def _determined(compiled: Compiled, backend: Backend, decision: list[int], first: set[int],
                deadline: float | None, progress: Progress | None, out: Outcome) -> dict[str, Grid] | None:
    """Backbone by elimination: a variable is determined when flipping it is unsatisfiable."""
    value = {v: v in first for v in decision}
    candidates = set(decision)
    fixed: set[int] = set()
    for i, v in enumerate(decision):
        if v not in candidates:
            continue
        lit = -v if value[v] else v
        res = None if _past(deadline) else backend.solve(assumptions=[lit], deadline=deadline)
        if res is None:
            out.timed_out = True
            return None
        if res:
            now = backend.true_vars()
            candidates -= {u for u in candidates if (u in now) != value[u]}
        else:
            fixed.add(v)
            candidates.discard(v)
        if progress:
            progress("determined", i + 1)
    grids: dict[str, Grid] = {}
    sol = out.solutions[0]
    for name, g in compiled.grids.items():
        vals = g.empty_like()
        if isinstance(g, LazyGrid) and g.unread():  # cells no rule reads are free
            vals.cells = dict.fromkeys(g.keys(), None if g.domain > 1 else g.free)
        for key, cell in g.cells.items():
            handles = cell.handles if isinstance(cell, IntVarCell) else (cell.h,)
            vals.cells[key] = sol[name].cells[key] if all(h in fixed for h in handles) else None
        grids[name] = vals
    return grids


def explain_unsat(compiled: Compiled, deadline: float | None = None,
                  seconds: float = 5.0) -> list[tuple[str | None, str]]:
    """The rules that cannot hold together: an unsat core over one selector per rule
    statement, shrunk by deletion, for at most `seconds` and never past the run's deadline
    (proving the core again can take as long as the search did). Returns (label, location)
    pairs; empty if unknown. Graph rules (`connected`, region sizes) take part through their
    cuts, each guarded by its rule's selector."""
    from .backends.sat import cadical
    from .encode.cnf import encode

    stop = time.perf_counter() + seconds
    stop = stop if deadline is None else min(stop, deadline)
    model = compiled.model
    if model.fold_units and compiled.origin is not None:
        # Ground again with each rule whole: a rule's forced values are not folded into the
        # rules after it (it is in the clash too), and definitions are told from rule instances.
        try:
            with alarm_at(stop):
                model = compiled.origin.located().model
        except TimeUp:
            return []
    named: dict[object, tuple[str | None, object]] = {}
    for a in model.assertions:
        named.setdefault(a.rule, (a.label, a.rule))
    for gc in model.graphs:
        named.setdefault(gc.rule or gc.span, (gc.label, gc.rule or gc.span))
    sel = {rule: model.top + 1 + i for i, rule in enumerate(named)}
    by_lit = {lit: named[rule] for rule, lit in sel.items()}

    def guard(a: Assertion) -> int | None:
        """A rule instance holds under its rule's selector; a definition (a graph's node or edge
        variable, a domain) always holds, or dropping a rule would free a graph's variables."""
        return sel[a.rule] if a.binding is not None or model.fold_units else None

    cnf = _within(stop, lambda: encode(model, None, sel, guard).clauses)  # sel: fresh variables above it
    if cnf is None:
        return []
    with cadical(cnf) as s:
        def holds(assumptions: list[int]) -> bool | None:
            return _holds_with_cuts(s, model, lambda gc: sel[gc.rule or gc.span], assumptions, stop)

        if holds(list(sel.values())) is not False:
            return []
        core = list(s.get_core() or sel.values())
        for lit in list(core):
            if lit not in core:  # already dropped with a smaller core: no need to prove it again
                continue
            trial = [x for x in core if x != lit]
            if not trial:
                continue
            res = holds(trial)
            if res is None:
                break
            if not res:
                smaller = set(s.get_core() or trial)
                core = [x for x in trial if x in smaller]
    rules = [by_lit[x][1] for x in sorted(core) if x in by_lit]
    where = _instances(model, [r for r in rules if r in sel], sel, stop)
    out = []
    for x in sorted(core):
        if x in by_lit:
            label, rule = by_lit[x]
            shown = where.get(rule, [])
            more = f"; and {len(shown) - INSTANCES_SHOWN} more" if len(shown) > INSTANCES_SHOWN else ""
            out.append((label, str(rule) + (f" (where {'; '.join(shown[:INSTANCES_SHOWN])}{more})" if shown else "")))
    return out


INSTANCES_SHOWN = 3  # rule instances named per rule of a conflict; the rest are counted


def _holds_with_cuts(s: Solver, model: Model, selector: Callable[[GraphConstraint], int], assumptions: list[int],
                     stop: float) -> bool | None:
    """Satisfiable under these assumptions, the graph rules whose selectors are assumed included
    (their cuts added as needed, each under its selector); None when the time ran out, or when
    no cut excludes a model (a violation among constants)."""
    from .backends.sat import solve_until
    on = set(assumptions)
    while True:
        res = solve_until(s, assumptions, stop)
        if not res:
            return res
        true = {lit for lit in s.get_model() if lit > 0}
        cuts = [[*cut, -selector(gc)] for gc in model.graphs if selector(gc) in on
                for cut in graphs.check([gc], true).cuts]
        if not cuts:
            return True
        if all(any((abs(lit) in true) == (lit > 0) for lit in cut) for cut in cuts):
            return None
        for cut in cuts:
            s.add_clause(cut)


def _within(stop: float, encoding: Callable[[], list[list[int]]]) -> list[list[int]] | None:
    """The clauses, or None when the explanation's time runs out first: encoding a large board
    again took 1.1 s past a 0.56 s budget, only for the solver to give up at once."""
    if time.perf_counter() >= stop:
        return None
    try:
        with no_gc(), alarm_at(stop):
            return encoding()
    except TimeUp:
        return None


def _instances(model: Model, rules: list, sel: dict, stop: float) -> dict[object, list[str]]:
    """For the rules of a conflict, the instances (loop values) that clash: one selector per
    instance, CaDiCaL's core of them, shrunk by deletion while the time lasts. A wrong clue on a
    large board is then named by its cell, not only by its rules. Empty when there is no time,
    or when the rules' instances have no loop values (a rule without `forall`)."""
    from .backends.sat import cadical
    from .encode.cnf import encode

    chosen = set(rules)
    if time.perf_counter() >= stop:
        return {}
    top = max(sel.values())
    inst: dict[tuple, int] = {}  # (rule, the binding as written: loop values may be lists) -> selector
    named: dict[int, tuple] = {}  # selector -> (rule, binding)
    for a in model.assertions:
        if a.rule in chosen and a.binding:
            key = (a.rule, repr(a.binding))
            if key not in inst:
                inst[key] = top + 1 + len(inst)
                named[inst[key]] = (a.rule, a.binding)
    if not inst:
        return {}
    off = top + 1 + len(inst)  # every other rule: a selector never assumed

    def guard(a: Assertion) -> int | None:
        if a.binding is None and not model.fold_units:
            return None
        if a.rule in chosen:
            return inst.get((a.rule, repr(a.binding)), sel[a.rule]) if a.binding else sel[a.rule]
        return off

    assumed = [*inst.values(), *{sel[r] for r in rules}]
    cnf = _within(stop, lambda: encode(model, None, {"off": off}, guard).clauses)
    if cnf is None:
        return {}

    def selector(gc: GraphConstraint) -> int:  # a graph rule of the conflict holds whole (its cuts read
        rule = gc.rule or gc.span              # the whole grid); the others never
        return sel[rule] if rule in chosen else off

    with cadical(cnf) as s:
        if _holds_with_cuts(s, model, selector, assumed, stop) is not False:
            return {}
        core = [x for x in (s.get_core() or assumed) if x in named]
        fixed = [sel[r] for r in rules]
        for lit in list(core):
            if lit not in core or time.perf_counter() >= stop:
                continue
            trial = [x for x in core if x != lit]
            res = _holds_with_cuts(s, model, selector, trial + fixed, stop)
            if res is None:
                break
            if not res:
                smaller = set(s.get_core() or trial)
                core = [x for x in trial if x in smaller]
    out: dict[object, list[str]] = {}
    for lit in sorted(core):
        rule, binding = named[lit]
        out.setdefault(rule, []).append(binding_text(binding))
    return out
