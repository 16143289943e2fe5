"""PySAT backend: CNF from `encode.cnf`, any PySAT solver by name (CaDiCaL 1.9.5 by default).

CaDiCaL holds Python's GIL while it searches, so a timer thread cannot interrupt
it; instead the search runs in conflict-budget slices and the deadline is checked
between slices (learnt clauses are kept, so slicing costs little).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache, lru_cache
from itertools import repeat

from pysat.solvers import Solver, SolverNames, pysolvers

from ..deadline import check_interrupt, held
from ..encode.cnf import Cnf, CnfEncoder
from ..encode.linear import linear_options
from ..errors import PuzzleError
from ..model import Assertion, Model

ALIASES = {"cadical": "cadical195", "glucose": "glucose4", "kissat": "kissat404", "minisat": "minisat22",
           "lingeling": "lingeling", "maplesat": "maplechrono"}
NON_INCREMENTAL = {"kissat404"}


@lru_cache(maxsize=1)
def solver_names() -> list[str]:
    """The PySAT solvers this installation can run (PySAT names some it was built without,
    e.g. `cryptosat` needs pycryptosat); trying one costs well under a millisecond."""
    return [k for k in sorted(vars(SolverNames)) if not k.startswith("_") and _runs(k)]


def _runs(name: str) -> bool:
    try:
        Solver(name=name).delete()
    except Exception:  # NoSuchSolverError, or a missing extension
        return False
    return True


@cache
def can_stop(solver: str | None) -> bool:
    """Whether a search by this solver can be stopped at a time limit: PySAT gives Lingeling
    no conflict budget, and Kissat is run once, whole."""
    name = ALIASES.get(solver or "", solver or "cadical195")
    if name in NON_INCREMENTAL:
        return False
    try:
        s = Solver(name=name)
    except Exception:
        return True  # an unknown name is reported where the solver is made
    try:
        s.conf_budget(1)
        return True
    except NotImplementedError:
        return False
    finally:
        free(s)


def check_incremental(solver: str | None, need: str | None) -> None:
    """Refuse a solver that solves only once without assumptions (Kissat) for work that needs
    more (`need` says which); PySAT would abort the process or silently drop assumptions."""
    name = ALIASES.get(solver or "", solver or "")
    if need and name in NON_INCREMENTAL:
        raise PuzzleError(f"the SAT solver `{name}` solves a formula only once, without assumptions; "
                          f"{need} needs an incremental solver",
                          help="choose another with --solver, e.g. cadical195 (the default)")


class SatBackend:
    def __init__(self, model: Model, solver: str, pb: str | None = None, card: str | None = None,
                 guard: Callable[[Assertion], int | None] | None = None):
        """`guard`: each assertion holds only under its literal, if it has one (`clues.py`)."""
        solver = ALIASES.get(solver, solver)
        if solver not in solver_names():
            known = solver in vars(SolverNames) and not solver.startswith("_")
            raise PuzzleError(f"the SAT solver `{solver}` is not available in this installation" if known
                              else f"unknown SAT solver `{solver}`",
                              help="choose one of: " + ", ".join(solver_names()))
        opts = linear_options(pb, card)
        self.name = f"sat:{solver}"
        self.solver_name = solver
        self.model = model
        self.encoder = CnfEncoder(model, opts, guard=guard)
        clauses = self.encoder.add(model.assertions, model.false_rule is not None)
        self.cnf = Cnf(clauses, self.encoder.pool.top, model.decision_vars)
        self.decision = self.cnf.decision_vars
        self.extra: list[list[int]] = []
        self._used: set[int] | None = None  # the variables clauses mention, once phases are set (`generate`)
        self._rephased = False  # phases set since the last search (`set_phases`)
        self._fresh: int | None = None  # a variable in no clause, assumed to make CaDiCaL search again
        self._interrupted = False  # Ctrl-C inside the solver: its statistics are no longer readable
        self._focused = False  # `focus`: kept for a solver built again (`restart`)
        self._sampling = False  # `set_phases`: CaDiCaL's modes alternate again (`_seek`)
        self._solver = self._new_solver()
        self._model: list[int] | None = None
        self._beyond: set[int] = set()

    def _new_solver(self) -> Solver:
        s = Solver(name=self.solver_name)
        load(s, self.cnf.clauses)
        quiet_inprocessing(s)
        if self._focused:
            _focus(s)
        elif not self._sampling:
            _seek(s)
        for cl in self.extra:
            s.add_clause(cl)
        return s

    def solve(self, assumptions: list[int] | None = None, deadline: float | None = None,
              conflicts: int | None = None) -> bool | None:
        """True, False, or None when the deadline or `conflicts` more conflicts came first."""
        check_interrupt()
        try:
            return self._solve(assumptions or [], deadline, conflicts)
        except KeyboardInterrupt:  # `solve_until` turns PySAT's own error type into this
            self._interrupted = True  # CaDiCaL is then in a state its statistics abort on
            raise

    def _solve(self, assumptions: list[int], deadline: float | None, conflicts: int | None) -> bool | None:
        s = self._solver
        if self._rephased and self.solver_name not in NON_INCREMENTAL:
            # CaDiCaL 1.9.5, asked again with nothing new, returns its last model whatever the
            # phases say: one assumption (of a variable in no clause) makes it search again
            # (`generate` sampled one and the same solution for every seed)
            self._rephased = False
            if not assumptions:
                self._fresh = self._fresh or self.encoder.pool.fresh()
                assumptions = [self._fresh]
        if self._model is not None and self.solver_name not in NON_INCREMENTAL:
            # Start from the last model: the next solution (uniqueness, counting, backbones)
            # is usually close to it. Measured on random 30×30 weighted-sum grids: a second
            # solution in 0.03-2.4 s instead of more than 30 s.
            try:
                s.set_phases(self._model)
            except NotImplementedError:
                pass
        if self.solver_name in NON_INCREMENTAL:  # one call, no slices: it solves only once
            if self._model is not None or assumptions or self.extra:
                check_incremental(self.solver_name, "this search")
            deadline = conflicts = None
        return self._finish(solve_until(s, assumptions, deadline, conflicts))

    def set_phases(self, lits: list[int]) -> None:
        """Start the next search from these polarities instead of the last model's (a random
        sample of the solutions, for `generate`)."""
        self._model = None
        self._beyond = {v for v in lits if v > 0}  # variables in no clause take these values
        if self._used is None:  # which variables a clause mentions: the others are the phases' to set
            self._used = self._mentioned()
        try:
            self._solver.set_phases(lits)
        except NotImplementedError:
            pass
        self._rephased = True
        if not (self._sampling or self._focused):
            _seek(self._solver, False)
        self._sampling = True

    def largest_variable(self) -> int:
        """The largest variable number of the formula (definitions and encodings' own included)."""
        return max(self.cnf.num_vars, self.encoder.pool.top)

    def _finish(self, res: bool) -> bool:
        self._model = self._solver.get_model() if res else None
        return res

    def true_vars(self) -> set[int]:
        m = self._model or []
        n = len(m)
        used = self._used
        return {v for v in self.decision
                if (m[v - 1] > 0 if v <= n and (used is None or v in used) else v in self._beyond)}

    def add_clause(self, lits: list[int]) -> None:
        self.extra.append(lits)
        self._solver.add_clause(lits)
        if self._used is not None:
            self._used.update(abs(x) for x in lits)

    def focus(self) -> None:
        """Searches for another solution from here on: CaDiCaL alternates a focused mode (many
        restarts) with a stable one (few restarts, phases aimed at a model), and only the first
        helps a refutation (the first searches keep to the stable one: `_seek`). On the
        hardest of the searches for a second solution measured (a path genre's, 300 real
        boards): conflicts 0.80-0.84 of before where there are more than 5,000 (BENCHMARKS.md,
        eleventh session). The phases stay those of the last model: a
        second solution, where there is one, is mostly near the first."""
        self._focused = True
        _focus(self._solver)

    def restart(self, extra: list[list[int]]) -> None:
        """A new solver over the formula and these clauses only: what the last searches learnt
        (and the clauses added since) no longer steers the next (`generate` makes each puzzle
        from its seed alone)."""
        free(self._solver)
        self.extra = list(extra)
        self._solver = self._new_solver()
        self._model = None
        self._beyond = set()
        if self._used is not None:  # what earlier cuts mentioned is read from phases again, as before them
            self._used = self._mentioned()

    def _mentioned(self) -> set[int]:
        """The variables the formula and the clauses added to it mention."""
        return {abs(x) for cl in (*self.cnf.clauses, *self.extra) for x in cl}

    def extend(self, assertions: list) -> None:
        """Add assertions made after the backend was built (a plan's next time step)."""
        for cl in self.encoder.add(assertions):
            self.add_clause(cl)
        self.decision = self.model.decision_vars

    def value(self, lit: int) -> bool:
        """The value of a variable (or its negation) in the last model."""
        m = self._model or []
        v = abs(lit)
        return (v <= len(m) and m[v - 1] > 0) == (lit > 0)

    def stats(self) -> dict[str, int]:
        """Sizes, then the solver's search counters summed over every call (PySAT `accum_stats`:
        conflicts, decisions, propagations, restarts; none for solvers that keep none, e.g. Kissat)."""
        sizes = {"variables": self.encoder.variables(),
                 "clauses": len(self.cnf.clauses) + len(self.extra)}
        if self._interrupted:  # asking now would abort the process (exit 134)
            return sizes
        try:
            return sizes | {k: int(v) for k, v in self._solver.accum_stats().items()}
        except (NotImplementedError, AttributeError):
            return sizes

    def close(self) -> None:
        free(self._solver)


def load(s: Solver, clauses: list[list[int]]) -> None:
    """Add the clauses to a new solver. PySAT's own loop (`bootstrap_with`) checks each clause's
    kind and goes through two wrappers; CaDiCaL 1.9.5's clauses go straight to its C function
    (50,000 binary clauses: 16 -> 11 ms; a 16x16 board of digits has that many)."""
    inner = s.solver
    add_cl = getattr(pysolvers, "cadical195_add_cl", None)
    if type(inner).__name__ != "Cadical195" or add_cl is None or not getattr(inner, "cadical", None):
        s.append_formula(clauses)
        return
    # one C call per clause through `map`, without a Python loop around it (2 million clauses:
    # a quarter less time)
    if False in list(map(add_cl, repeat(inner.cadical), clauses)):
        inner.status = False


def free(s: Solver) -> None:
    """Delete a solver, with no signal raising halfway (`deadline.held`)."""
    with held():
        s.delete()


def _deletes_held() -> None:
    """Every PySAT solver's `delete` runs held, also where no `free` is on the stack: a solver
    dropped by an exception is deleted by its `__del__`. PySAT frees the C solver, then clears its
    pointer; the alarm raising between the two left the pointer, and the object's own `__del__`
    freed the solver again (exit 139). Compiled modules made it likely: a signal is handled at the
    next Python code, and that was often PySAT's `delete` (a time limit while variants were made)."""
    import pysat.solvers as solvers
    for cls in list(vars(solvers).values()):
        if isinstance(cls, type) and "delete" in vars(cls) and not getattr(cls.delete, "held", False):
            def delete(self, _delete=cls.delete) -> None:  # type: ignore[no-untyped-def]
                with held():
                    _delete(self)
            delete.held = True  # type: ignore[attr-defined]
            cls.delete = delete  # type: ignore[method-assign]


_deletes_held()


@contextmanager
def cadical(clauses: list[list[int]], with_proof: bool = False) -> Iterator[Solver]:
    """A CaDiCaL of its own for a side question (a proof, a core, a plan's analysis), set up as
    the backend's (`quiet_inprocessing`) and freed safely (`free`)."""
    s = Solver(name="cadical195", bootstrap_with=clauses, with_proof=with_proof)
    try:
        quiet_inprocessing(s)
        yield s
    finally:
        free(s)


def quiet_inprocessing(s: Solver) -> None:
    """Turn off CaDiCaL's variable elimination. A time limit is kept between conflict slices,
    and one elimination round is not bounded by a slice's budget: on a 25x42 path puzzle
    (0.86 million clauses) a single slice ran 25-58 s past a 20 s limit, in one run of two.
    Without it the longest slice there was 0.4 s and the puzzles solved as fast or faster
    (BENCHMARKS.md, "Equality by polarity, CaDiCaL's elimination, time limits")."""
    if type(s.solver).__name__ == "Cadical195":  # the one CaDiCaL PySAT lets configure
        s.solver.configure({"elim": 0})


def _seek(s: Solver, on: bool = True) -> None:
    """Search in CaDiCaL's stable mode alone (few restarts, phases aimed at a model) until
    `focus`, not alternating it with the focused mode: a search for a first solution is mostly
    one for any of many models. Random 30x30 weighted-sum grids, thirteen seeds: a first and a
    second solution in a median of 4.4 s instead of 26.7 s, faster on twelve; the published
    puzzles (one solution, a few thousand conflicts) at the same median time, their largest up
    to 0.12 s slower (BENCHMARKS.md, sixteenth session). Switching to it only after 10,000
    conflicts was worse than either. Not for a solver whose phases are set (`generate` samples
    solutions by random phases, which the stable mode's own phases override: a loop genre's 8x8
    boards took 110 samples a puzzle instead of 21): `on=False` gives it CaDiCaL's alternation back."""
    if type(s.solver).__name__ == "Cadical195":
        s.solver.configure({"stabilizeonly": int(on)})


def _focus(s: Solver) -> None:
    if type(s.solver).__name__ == "Cadical195":
        s.solver.configure({"stabilizeonly": 0, "stabilize": 0})


def solve_until(s: Solver, assumptions: list[int], deadline: float | None,
                conflicts: int | None = None) -> bool | None:
    """Solve until `deadline`, or until `conflicts` more conflicts (None when either came
    first): CaDiCaL in PySAT cannot be interrupted, so the clock is read between slices, each
    bounded by conflicts and decisions. Ctrl-C inside the solver (PySAT's own error type) is a
    KeyboardInterrupt."""
    try:
        return _solve_until(s, assumptions, deadline, conflicts)
    except Exception as err:
        if "keyboard interrupt" in str(err).lower():
            raise KeyboardInterrupt from err
        raise


def _solve_until(s: Solver, assumptions: list[int], deadline: float | None, budget: int | None) -> bool | None:
    if deadline is None and budget is None:
        return s.solve(assumptions=assumptions)
    # Few slices: each call starts CaDiCaL's schedules (restarts, mode switches, reductions)
    # over, and many short calls cost dearly. One horizon of a plan of jumps: 7,972 conflicts in
    # one call (0.2 s); 31 calls of 2,000, 61,000 conflicts (2.4 s); 1,094 calls of 100,
    # 110,000 (5.5 s). So slices grow fourfold and aim at a quarter of the time left (at least
    # 0.1 s); without a deadline they grow the same way, so a budget of conflicts makes the
    # same solver calls with a time limit or without one, until the limit nears.
    # The first slice is small: on a hard board 2,000 conflicts took 0.9 s (a 30x30
    # weighted-sum grid), past a 0.5 s limit. Growth is measured from the conflicts and
    # decisions the last slice made: a slice that spent its decisions without a conflict says
    # nothing about what conflicts cost (on a 60x60 path board budgets grown from such slices
    # let one run 2.4 s, and one before this rule 8 s past a 10 s limit). Decisions are bounded
    # too: on a 25x42 path puzzle 100 conflicts came with 6,000 decisions and took 5 s.
    conflicts, decisions = 100, 2000
    last = _counts(s)
    spent = 0
    while True:
        if budget is not None:
            conflicts = min(conflicts, budget - spent)
        try:
            s.conf_budget(conflicts)
        except NotImplementedError:
            return s.solve(assumptions=assumptions)
        try:
            s.dec_budget(decisions)
        except NotImplementedError:
            pass
        started = time.perf_counter()
        res = s.solve_limited(assumptions=assumptions)
        if res is not None:
            return res
        now = time.perf_counter()
        counts = _counts(s)
        done = (counts[0] - last[0], counts[1] - last[1]) if counts and last else (conflicts, decisions)
        last = counts
        spent += done[0]
        if (deadline is not None and now >= deadline) or (budget is not None and spent >= budget):
            return None
        left = min(deadline - now, 1e6) if deadline is not None else 1e6  # no deadline, or `math.inf`
        scale = max(min(0.1, left / 2), left / 4, 0.005) / max(now - started, 1e-4)
        conflicts = int(min(max(done[0] * scale, 20), 4 * max(done[0], 20), 1_000_000))
        decisions = int(min(max(done[1] * scale, 400), 4 * max(done[1], 400), 20_000_000))


def _counts(s: Solver) -> tuple[int, int] | None:
    """Conflicts and decisions so far, for solvers that count them."""
    try:
        st = s.accum_stats()
        return int(st["conflicts"]), int(st["decisions"])
    except (NotImplementedError, AttributeError, KeyError, TypeError):
        return None
