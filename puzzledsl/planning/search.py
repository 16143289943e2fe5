"""Finding plans: time-indexed SAT over a growing horizon, with proofs of lower bounds.

Step t holds a copy of every state atom; an action at step t reads the state at t and
writes the state at t+1 (frame axioms keep what no action writes). A step may be empty,
so "the goal holds at step T" means "a plan of at most T steps exists": horizons are
tried in order on one incremental solver, each with the goal as an assumption, and an
unsatisfiable horizon proves a lower bound.

Sequential steps take one action each. When an invariant fixes the number of actions of
every plan (`plan.count_delta`), steps take any set of actions that touch disjoint atoms
(they commute), which shortens the horizon several times over; the plan is then optimal
as soon as it exists.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from .. import words
from ..backends.sat import SatBackend, cadical, check_incremental
from ..deadline import TimeUp, alarm_at
from ..errors import PuzzleError
from ..model import Assertion, Formula, Model, neg
from .explicit import Explored, explore
from .order import commute_order, order_clauses
from .problem import GroundAction, PlanProblem, Reach, atoms_read, count_delta, parity_invariants, reachability, xor

Progress = Callable[[str], None]
ANSWER = {True: "plan", False: "no plan", None: "undecided"}  # a solver call's result, in words


@dataclass
class PlanResult:
    status: str  # "sat" | "unsat" | "unknown"
    actions: list[GroundAction] = field(default_factory=list)
    optimal: bool | None = None
    lower_bound: int = 0
    method: str = ""
    horizons: list[tuple[int, str, float]] = field(default_factory=list)  # (steps, sat/unsat/unknown, seconds)
    states: list[dict[int, bool]] = field(default_factory=list)  # the state before each action and at the end
    reason: str | None = None  # why there is no plan, when the compiler knows
    notes: list[str] = field(default_factory=list)
    stats: dict[str, int] = field(default_factory=dict)
    timed_out: bool = False
    cost: int | None = None  # the sum of the plan's action costs (`cost` clauses; 1 each by default)
    interrupted: bool = False  # Ctrl-C stopped the search; what it had found stands


def _solve(backend: SatBackend, assumptions: list, deadline: float | None, out: PlanResult,
           conflicts: int | None = None) -> bool | None:
    """One solver call; Ctrl-C ends the search as a time limit would, keeping the best plan."""
    try:
        return backend.solve(assumptions, deadline=deadline, conflicts=conflicts)
    except KeyboardInterrupt:
        out.interrupted = out.timed_out = True
        return None


class Unroller:
    """Adds the formulas of one time step at a time to the model; `take()` hands the new
    assertions to the solver."""

    def __init__(self, p: PlanProblem, reach: Reach, parallel: bool, invariants: list[tuple[list[int], bool]],
                 exact: int | None, order: str | None = None):
        self.p, self.m, self.reach = p, p.model, reach
        self.parallel, self.invariants, self.exact = parallel, invariants, exact
        self.order = order  # moves that commute come in ascending order (`order.py`)
        self.pending: list[Assertion] = []
        self.depends: dict[int, bool] = {}
        self.states: list[dict[int, Formula]] = []
        self.act_vars: list[dict[int, int]] = []
        self.goal_lits: dict[int, Formula] = {}
        self.setters: dict[int, list[tuple[int, Formula]]] = {}
        for act in p.actions:
            for h, v in act.effects.items():
                self.setters.setdefault(h, []).append((act.index, v))
        self.states.append(self._state(0))
        self._require(self._copy(p.init, 0), "the initial state")
        self._state_rules(0)

    def _state(self, t: int) -> dict[int, Formula]:
        out: dict[int, Formula] = {}
        for a in self.p.atoms:
            c = self.p.init_values.get(a.h) if t == 0 else self.reach.constant(a.h, t)
            out[a.h] = c if c is not None else self.m.new_var(f"{a.state}@{t}[{a.h}]")
        return out

    def _copy(self, f: Formula, t: int) -> Formula:
        return self.m.substitute(f, self.states[t], {}, self.depends)

    def _require(self, f: Formula, what: str) -> None:
        if f is True:
            return
        if f is False:  # a step that cannot hold: a variable and its negation, so the solver says so
            v = self.m.new_var("false")
            self.pending += [Assertion(v, None, what), Assertion(-v, None, what)]  # type: ignore[arg-type]
            return
        self.pending.append(Assertion(f, None, what))  # type: ignore[arg-type]

    def _state_rules(self, t: int) -> None:
        m = self.m
        for f, _span, label in self.p.state_rules:
            self._require(self._copy(f, t), label or "a state rule")
        for group in self.p.one_hot:
            vals = [self.states[t][h] for h in group]
            self._require(m.linear({v: 1 for v in vals if v is not True and v is not False}, "==",
                                   1 - sum(1 for v in vals if v is True)), "one value")

    @property
    def steps(self) -> int:
        return len(self.act_vars)

    def add_step(self) -> None:
        m, p, t = self.m, self.p, len(self.act_vars)
        now = self.states[t]
        nxt = self._state(t + 1)
        self.states.append(nxt)
        acts: dict[int, int] = {}
        for act in p.actions:
            first = self.reach.action_layer[act.index]
            if first is None or first > t:
                continue
            a = acts[act.index] = m.new_var(f"{act.text}@{t}")
            self._require(m.implies(a, self._copy(act.pre, t)), act.name)
            for h, v in act.effects.items():
                self._require(m.implies(a, m.iff(nxt[h], self._copy(v, t))), act.name)
        self.act_vars.append(acts)
        for atom in p.atoms:  # frame: a cell changes only through an action that writes it
            x0, x1 = now[atom.h], nxt[atom.h]
            if x0 is x1 or (x0 is not True and x0 is not False and x0 == x1):
                continue
            ups = [acts[i] for i, v in self.setters.get(atom.h, []) if i in acts and v is not False]
            downs = [acts[i] for i, v in self.setters.get(atom.h, []) if i in acts and v is not True]
            self._require(m.implies(m.and_([x1, neg(x0)]), m.or_(ups)), "frame")
            self._require(m.implies(m.and_([neg(x1), x0]), m.or_(downs)), "frame")
        if self.parallel:
            by_atom: dict[int, list[int]] = {}
            for i, a in acts.items():
                for h in p.actions[i].touches:
                    by_atom.setdefault(h, []).append(a)
            for lits in by_atom.values():
                if len(lits) > 1:
                    self._require(m.linear({v: 1 for v in lits}, "<=", 1), "one action per cell")
        elif len(acts) > 1:
            self._require(m.linear({v: 1 for v in acts.values()}, "<=", 1), "one action per step")
        if self.order and t > 0:
            for f in order_clauses(m, self.act_vars[t - 1], acts, self.order == "strict"):
                self._require(f, "moves in ascending order")
        if self.exact is not None and t < self.exact:
            self._require(m.or_(list(acts.values())), "an action at every step")
        self._state_rules(t + 1)

    def goal(self, t: int) -> Formula:
        if t not in self.goal_lits:
            m = self.m
            parts = [self._copy(self.p.goal, t)]
            for support, parity in self.invariants:
                x = xor(m, [self.states[t][h] for h in support])
                parts.append(x if parity else neg(x))
            g = m.and_(parts)
            if g is not True and g is not False and abs(g) in m.nodes:
                v = m.new_var(f"goal@{t}")
                self._require(m.implies(v, g), "goal")
                g = v
            self.goal_lits[t] = g
        return self.goal_lits[t]

    def cost_levels(self) -> list[int]:
        """One literal per step and cost level, true when the step's action costs at least that
        much (one action per step): the plan's cost is at most the number of true ones."""
        m, out = self.m, []
        depth = max((len(a.cost) for a in self.p.actions), default=0)
        for t, acts in enumerate(self.act_vars):
            for k in range(depth):
                pays = [(a, self._copy(self.p.actions[i].cost[k], t)) for i, a in acts.items()
                        if len(self.p.actions[i].cost) > k]
                pays = [(a, f) for a, f in pays if f is not False]
                if not pays:
                    continue
                v = m.new_var(f"cost@{t}>={k + 1}")
                for a, f in pays:
                    self._require(m.implies(m.and_([a, f]), v), "cost")
                out.append(v)
        return out

    def take(self) -> list[Assertion]:
        out, self.pending = self.pending, []
        return out

    def plan(self, backend: SatBackend, steps: int) -> list[GroundAction]:
        out = []
        for t in range(steps):
            for i, v in sorted(self.act_vars[t].items()):
                if backend.value(v):
                    out.append(self.p.actions[i])
        return out

    def initial(self, backend: SatBackend) -> dict[int, bool]:
        return {h: (f if f is True or f is False else backend.value(f)) for h, f in self.states[0].items()}


# ------------------------------------------------------------------ simulation

def simulate(p: PlanProblem, start: dict[int, bool], actions: list[GroundAction]) -> list[dict[int, bool]]:
    """Replay a plan on explicit states; every action's condition must hold where it is applied.
    An independent check of what the solver returned, and the boards of `--show-steps`."""
    m = p.model
    state = dict(start)
    states = [dict(state)]
    for k, act in enumerate(actions):
        if not m.evaluate(act.pre, state):
            raise PuzzleError(f"internal error: step {k + 1} ({act.text}) is not applicable in the plan found")
        memo: dict[int, bool] = {}
        new = {h: m.evaluate(v, state, memo) for h, v in act.effects.items()}
        state.update(new)
        states.append(dict(state))
    if not m.evaluate(p.goal, state):
        raise PuzzleError("internal error: the plan found does not reach the goal")
    return states


# ------------------------------------------------------------------ search

def fixed_length(p: PlanProblem, deadline: float | None = None) -> tuple[int | None, str | None]:
    """(number of actions every plan has, or None; a reason when no plan can exist)."""
    for state in p.templates:
        delta = count_delta(p, state)
        if delta is None:
            continue
        cells = [a.h for a in p.atoms if a.state == state and a.value is None]
        if not all(h in p.init_values for h in cells):
            continue
        k = _implied_count(p.model, p.model.and_([p.goal] + [f for f, _, _ in p.state_rules]), cells, deadline)
        if k is None:
            continue
        start = sum(p.init_values[h] for h in cells)
        n, rest = divmod(k - start, delta)
        if rest or n < 0:
            return None, (f"every action changes the number of true `{state}` cells by {delta}; from {start} "
                          f"no sequence of actions reaches the {k} the goal needs")
        return n, None
    return None, None


def _decided(s, assumptions: list[int], deadline: float | None) -> bool:
    """A solver call of the analyses, in slices until the deadline, then `TimeUp` (on a 1x4000
    board of jumps one call took 11 s)."""
    from ..backends.sat import solve_until

    res = solve_until(s, assumptions, deadline)
    if res is None:
        raise TimeUp()
    return res


def _useful_invariants(p: PlanProblem, invariants: list[tuple[list[int], bool]], deadline: float | None = None
                       ) -> tuple[list[tuple[list[int], bool]], str | None]:
    """The parity invariants (`parity_invariants`) the goal does not imply already (measured:
    implied ones only slow the solver down), or a reason why no goal state has the parities of
    the initial state."""
    from ..encode.cnf import CnfEncoder

    if not invariants:
        return [], None
    m = p.model
    enc = CnfEncoder(m)
    final = m.and_([p.goal] + [f for f, _, _ in p.state_rules])
    parts = [xor(m, support) if parity else neg(xor(m, support)) for support, parity in invariants]
    useful = []
    with cadical(enc.add([Assertion(final, None, None)])) as s:  # type: ignore[arg-type]
        lits = []
        for f in parts:
            v = m.new_var("parity")
            for cl in enc.add([Assertion(m.iff(v, f), None, None)]):  # type: ignore[arg-type]
                s.add_clause(cl)
            lits.append(v)
        if not _decided(s, lits, deadline):
            return [], ("no state that satisfies the goal has the parities of the initial state that every "
                        f"action keeps ({len(invariants)} parity invariant(s) over the cells)")
        for inv, v in zip(invariants, lits):
            if _decided(s, [-v], deadline):  # the goal allows the wrong parity: the invariant says more
                useful.append(inv)
    return useful, None


def _implied_count(m: Model, goal: Formula, cells: list[int], deadline: float | None = None) -> int | None:
    """The number of true cells every state satisfying the goal has, if the goal fixes it."""
    from ..encode.cnf import CnfEncoder

    enc = CnfEncoder(m)
    clauses = enc.add([Assertion(goal, None, None)])  # type: ignore[arg-type]
    with cadical(clauses) as s:
        if not _decided(s, [], deadline):
            return None
        model = s.get_model()
        k = sum(1 for h in cells if h <= len(model) and model[h - 1] > 0)
        other = m.linear({h: 1 for h in cells}, "!=", k)
        if other is False:
            return k
        if other is True:
            return None
        for cl in enc.add([Assertion(other, None, None)]):  # type: ignore[arg-type]
            s.add_clause(cl)
        return None if _decided(s, [], deadline) else k


def uniform_cost(p: PlanProblem) -> int | None:
    """The cost every action has, when it is one number; then the cheapest plan is the shortest."""
    costs = set()
    for act in p.actions:
        if any(f is not True and f is not False for f in act.cost):
            return None
        costs.add(sum(1 for f in act.cost if f is True))
    return costs.pop() if len(costs) == 1 else (1 if not costs else None)


def plan_cost(p: PlanProblem, actions: list[GroundAction], states: list[dict[int, bool]]) -> int:
    return sum(act.cost_in(p.model, state) for act, state in zip(actions, states))


def search(p: PlanProblem, solver: str = "cadical195", time_limit: float | None = None,
           progress: Progress | None = None, parallel: bool | None = None, backend: str = "sat",
           tours: bool = True, explicit: bool = True) -> PlanResult:
    """The shortest (or, under `horizon minimize cost`, the cheapest) plan, or one within the
    horizon, with what is proven about it. `tours=False` keeps collect-then-finish plans on the
    time-indexed encoding, `explicit=False` skips the search over explicit states (for tests)."""
    check_incremental(solver, "a plan search (one solver call per horizon)")
    unit = uniform_cost(p)
    try:
        out = _search(p, solver, time_limit, progress, parallel, backend, tours, unit, explicit)
    except TimeUp:  # in a stage that does not watch the clock, before any plan was found
        out = PlanResult("unknown", timed_out=True)
    if out.actions and out.cost is None:
        out.cost = plan_cost(p, out.actions, out.states)
    if p.horizon.cost and unit is not None:
        out.lower_bound *= unit  # the bound on the number of actions, in costs
    return out


def _search(p: PlanProblem, solver: str, time_limit: float | None, progress: Progress | None,
            parallel: bool | None, backend: str, tours: bool, unit: int | None, explicit: bool = True
            ) -> PlanResult:
    start = time.perf_counter()
    deadline = start + time_limit if time_limit else None
    out = PlanResult("unknown")
    reach, n_fixed, invariants, reason = _analyse(p, deadline)
    if reason:
        out.status, out.reason = "unsat", reason
        return out
    if n_fixed is not None:
        out.notes.append(f"every plan has exactly {words.count(n_fixed, 'action')} (a count invariant)")
    if invariants:
        out.notes.append(f"{len(invariants)} parity invariant(s) of the actions")
    hz = p.horizon
    if hz.cost and unit is None:
        if backend == "cpsat":
            raise PuzzleError("--backend cpsat does not minimise costs that depend on the state", hz.span)
        if (explicit and hz.bound is not None
                and (done := _explore(p, unit, n_fixed, commute_order(p), deadline, out)) is not None):
            return done  # (without a bound, `_cost_search` says that it needs one)
        return _cost_search(p, reach, n_fixed, invariants, out, solver, deadline, progress)
    if tours and backend in ("sat", "cpsat") and hz.kind != "exact":
        from ..backends import cpsat
        from .tour import detect
        with alarm_at(deadline):  # 0.8 s on a 10-flag sliding level
            graph = detect(p)
        if graph is not None and (cpsat.available() or backend == "cpsat"):
            from ..extras import require
            require("ortools.sat.python.cp_model", "solving this plan as a tour (OR-tools CP-SAT)")
            return _tour_search(p, graph, out, deadline, progress)
        if graph is not None:
            out.notes.append('solved step by step: pip install "puzzledsl[plans]" (OR-tools) to solve it as '
                             "a tour, much faster")
        if backend == "cpsat":
            raise PuzzleError("--backend cpsat solves plans that collect things and then reach a goal "
                              "(see docs/language.md §20); these rules are not of that form")
    order = commute_order(p)
    if explicit and (done := _explore(p, unit, n_fixed, order, deadline, out)) is not None:
        return done
    if parallel is None:
        parallel = n_fixed is not None and hz.kind != "exact"
    exact = hz.bound if hz.kind == "exact" else None
    if hz.bound is not None and hz.kind != "exact" and n_fixed is not None and n_fixed > hz.bound:
        out.status, out.reason = "unsat", (
            f"no plan of at most {words.count(hz.bound, 'action')}: every plan has {n_fixed}")
        return out
    if exact is not None and n_fixed is not None and exact != n_fixed:
        out.status, out.reason = "unsat", f"every plan has exactly {words.count(n_fixed, 'action')}, not {exact}"
        return out
    order = None if parallel else order
    if order:
        once = ", each at most once" if order == "strict" else ""
        out.notes.append(f"the moves commute: searched in one order{once}")
    un = Unroller(p, reach, parallel, invariants, exact, order)
    backend = SatBackend(p.model, solver)
    backend.extend(un.take())
    lb = reach.goal_layer
    out.lower_bound = n_fixed if n_fixed is not None else lb
    out.method = "time-indexed SAT, " + ("parallel steps" if parallel else "one action per step")
    horizons = _schedule(hz.kind, hz.bound, lb, n_fixed, parallel)
    budget = GIVE_UP
    last_unknown = False
    for T in horizons:
        with alarm_at(deadline):  # adding steps does not watch the clock; the solver below does
            while un.steps < T:
                un.add_step()
            goal = un.goal(T)
            backend.extend(un.take())
        t0 = time.perf_counter()
        # Give up on a horizon early: a longer one may be easier, and the clauses learnt stay.
        give_up = budget if parallel and T < (n_fixed or 0) and T > 1 else None
        if goal is False:
            res: bool | None = False
            if T >= reach.settled:  # the states reachable now are all there will ever be
                out.status, out.reason = "unsat", "the goal cannot hold in any reachable state"
                break
        else:
            res = _solve(backend, [goal] if goal is not True else [], deadline, out, give_up)
        spent = time.perf_counter() - t0
        word = ANSWER[res]
        out.horizons.append((T, word, spent))
        if progress:
            progress(f"horizon {T}: {word} ({spent:.2f} s)")
        if res:
            out.actions = un.plan(backend, T)
            out.states = simulate(p, un.initial(backend), out.actions)
            out.status = "sat"
            if n_fixed is not None:
                out.optimal = True
            elif hz.kind == "minimize" and not parallel and not last_unknown:
                out.optimal = True
                out.lower_bound = len(out.actions)
            break
        if res is False and not parallel and not last_unknown:
            out.lower_bound = max(out.lower_bound, T + 1)
        if res is False and deadline is not None and time.perf_counter() >= deadline:
            out.timed_out = True  # each horizon said no, and there is no time for the next
            break
        if res is None:
            last_unknown = True
            if out.interrupted or (deadline is not None and time.perf_counter() >= deadline):
                out.timed_out = True
                break
            budget = budget * 3 // 2
    else:
        if not last_unknown:
            out.status = "unsat"
            if hz.bound is not None and hz.kind != "exact":
                out.reason = f"no plan of at most {words.count(hz.bound, 'action')}"
            elif hz.kind == "exact":
                out.reason = f"no plan of exactly {words.count(hz.bound, 'action')}"
    out.stats = {**backend.stats(), "actions": len(p.actions), "atoms": len(p.atoms), "steps": un.steps}
    backend.close()
    return out


# What a horizon below the number of actions of every plan gets at first, in conflicts (then
# 1.5 times more each time one is given up). Conflicts, not seconds: the same run makes the
# same solver calls on any machine, and a slow or busy one does not give up sooner. On the
# 16 solvable starts of a 37-cell board of jumps (BENCHMARKS.md, "Plans that give up in
# conflicts"), in one session: 2 s growing 1.5-fold took 1.6-14 s a start (one start
# 3.6-16.6 s over 16 runs, and 60 s without a plan in CI); these budgets take 1.0-7.5 s,
# the same on every run.
GIVE_UP = 40_000


def _explore(p: PlanProblem, unit: int | None, n_fixed: int | None, order: str | None, deadline: float | None,
             out: PlanResult) -> PlanResult | None:
    """The search over explicit states, where it may help: with a count invariant SAT's
    parallel steps do better, and so does SAT's one order when the moves commute (25 lamps that
    toggle, 2^25 states: 0.5 s by SAT, 2.5 s with the explicit search given up first); it takes at most
    half of the time left. `order`: `commute_order(p)`."""
    if n_fixed is not None or order:
        return None
    half = None if deadline is None else time.perf_counter() + (deadline - time.perf_counter()) / 2
    try:
        with alarm_at(deadline):  # the search watches `half` itself; the alarm only the time limit
            found = explore(p, unit, half)
    except KeyboardInterrupt:  # Ctrl-C: reported as a search stopped before any plan, like SAT's
        out.interrupted = out.timed_out = True
        return out
    return None if found is None else _explored(p, found, out)


def _explored(p: PlanProblem, found: Explored, out: PlanResult) -> PlanResult:
    """A finished search over explicit states, as a proven result."""
    out.method = ("a search over explicit states, cheapest first" if found.cost is not None
                  else "breadth-first search over explicit states")
    out.stats = {"states": found.visited, "actions": len(p.actions), "atoms": len(p.atoms)}
    hz = p.horizon
    if found.actions is None:
        out.status = "unsat"
        if found.cut:
            out.reason = f"no plan of at most {words.count(hz.bound or 0, 'action')}"
        else:
            out.reason = (f"no goal state among the {words.count(found.visited, 'state')} reachable from the "
                          "initial state")
        return out
    out.status, out.actions = "sat", found.actions
    out.states = simulate(p, dict(p.init_values), found.actions)
    out.cost = found.cost
    if hz.kind == "minimize":
        out.optimal = True
        out.lower_bound = len(found.actions) if found.cost is None else found.cost
    return out


def _analyse(p: PlanProblem, deadline: float | None
             ) -> tuple[Reach, int | None, list[tuple[list[int], bool]], str | None]:
    """(reachability, the number of actions every plan has, useful parity invariants, a reason
    why no plan exists when one is found); `TimeUp` once the deadline has passed.

    The parts in Python run under the alarm (3 s for the parities of a 1x4000 board of jumps); the
    SAT calls do not, they solve in slices up to the deadline (`_decided`). PySAT frees a
    solver and then clears its pointer, and an alarm raising between the two had the solver
    freed twice (a crash)."""
    with alarm_at(deadline):
        reach = reachability(p)
        parities = parity_invariants(p) if reach.goal_layer is not None else []
    if reach.goal_layer is None:
        return reach, None, [], "the goal is unreachable even when actions never interfere"
    n_fixed, reason = fixed_length(p, deadline)
    if reason:
        return reach, n_fixed, [], reason
    invariants, reason = _useful_invariants(p, parities, deadline)
    return reach, n_fixed, invariants, reason


def _cost_search(p: PlanProblem, reach: Reach, n_fixed: int | None, invariants: list[tuple[list[int], bool]],
                 out: PlanResult, solver: str, deadline: float | None, progress: Progress | None) -> PlanResult:
    """The cheapest plan within the horizon: one action per step (a cost may depend on the
    order), T steps that may stay empty, then ever lower caps on the cost until none is left.
    Caps that take long alternate with proofs of lower bounds on a second solver, so a search
    cut short still says how good its plan is."""
    hz = p.horizon
    T = n_fixed if n_fixed is not None else hz.bound
    if T is None:
        raise PuzzleError("minimising the cost of a plan needs a bound on its length", hz.span,
                          "write `horizon minimize cost at most N` (N actions at most)")
    if hz.bound is not None and T > hz.bound:
        out.status, out.reason = "unsat", f"every plan has {words.count(T, 'action')}, more than {hz.bound}"
        return out
    m = p.model
    first: list[GroundAction] = []
    light = cost_free(p)
    if light is not None:
        # A first plan without the atoms only costs read: parallel steps find one in seconds where
        # the sequential encoding below took a minute (measured: 69 s -> 4 s, see BENCHMARKS.md).
        # It is replayed as assumptions, and the solver's phases start from it.
        left = None if deadline is None else (deadline - time.perf_counter()) / 2  # the rest for the costs
        try:
            pre = _search(light, solver, left, None, None, "sat", False, 1)
        except TimeUp:  # its own half of the time is up; the costs have the rest
            pre = PlanResult("unknown", timed_out=True)
        if pre.interrupted:
            out.interrupted = out.timed_out = True
            return out
        if pre.status == "unsat":  # the same action sequences: no plan here either
            out.status, out.reason = "unsat", pre.reason
            return out
        if pre.status == "sat" and len(pre.actions) <= T:
            first = pre.actions
            if progress:
                progress(f"a first plan of {words.count(len(first), 'action')}")
    with alarm_at(deadline):  # building T steps does not watch the clock (1.3 s for a 33-cell board of jumps)
        un = Unroller(p, reach, False, invariants, n_fixed)
        while un.steps < T:
            un.add_step()
        goal = un.goal(T)
        levels = un.cost_levels()
        encoding = un.take()
        backend = SatBackend(m, solver)
        backend.extend(encoding)
    out.method = "time-indexed SAT, one action per step, the cost capped by a cardinality constraint"
    assumptions = [] if goal is True else [goal]
    hint = [un.act_vars[t].get(a.index, 0) for t, a in enumerate(first)]
    hint = [] if 0 in hint else hint
    def costs_at_most(k: int) -> Formula:
        return m.linear({v: 1 for v in levels}, "<=", k)

    probe: SatBackend | None = None  # proves lower bounds: "no plan costs at most k", k = 0, 1, ...
    cap = None  # the cost asked for: below the best plan's
    budget = 2.0

    def found(on: SatBackend) -> None:
        out.actions = un.plan(on, T)
        out.states = simulate(p, un.initial(on), out.actions)
        out.cost = plan_cost(p, out.actions, out.states)
        out.status = "sat"
        if progress:
            progress(f"a plan of cost {out.cost} ({words.count(len(out.actions), 'action')}); none costs less than "
                     f"{out.lower_bound}")

    while not (out.status == "sat" and out.cost <= out.lower_bound):  # type: ignore[operator]
        t0 = time.perf_counter()
        if deadline is not None and t0 >= deadline:
            out.timed_out = True
            break
        # Once a plan exists, cheaper plans and lower bounds take turns, in growing slices.
        limit = deadline if out.status != "sat" else min(deadline or float("inf"), t0 + budget)
        res = False if goal is False else _solve(backend, assumptions + hint, limit, out)
        if hint and res is False:  # cannot happen (the same rules); search without it
            hint = []
            continue
        hint = []
        word = ANSWER[res]
        out.horizons.append((T, f"{word} of cost at most {cap}" if cap is not None else word,
                             time.perf_counter() - t0))
        if res:
            found(backend)
            cap = out.cost - 1  # type: ignore[operator]
            if cap >= out.lower_bound:
                backend.extend([Assertion(costs_at_most(cap), None, "cost")])  # type: ignore[arg-type]
            continue
        if res is False:
            if out.status == "sat":
                out.lower_bound = out.cost  # type: ignore[assignment]
            break
        if out.interrupted or out.status != "sat":
            out.timed_out = True
            break
        if probe is None:
            probe = SatBackend(m, solver)
            probe.extend(encoding)
        until = min(deadline or float("inf"), time.perf_counter() + budget)
        while out.cost > out.lower_bound:  # type: ignore[operator]
            k = out.lower_bound
            on = m.new_var(f"cost<={k}")
            probe.extend([Assertion(m.implies(on, costs_at_most(k)), None, "cost")])  # type: ignore[arg-type]
            t0 = time.perf_counter()
            res = _solve(probe, assumptions + [on], until, out)
            out.horizons.append((T, f"{ANSWER[res]} of cost at most {k}", time.perf_counter() - t0))
            if res is False:
                out.lower_bound = k + 1
                if progress:
                    progress(f"no plan costs {k} or less")
                continue
            if res:
                found(probe)  # cheaper than the best so far, and at most the proven bound: optimal
            break
        if out.interrupted:
            break
        budget *= 1.5
    if out.status == "sat":
        out.optimal = out.cost <= out.lower_bound  # type: ignore[operator]
    elif not out.timed_out:
        out.status = "unsat"
        out.reason = f"no plan of at most {words.count(T, 'action')}" if n_fixed is None else None
    out.stats = {**backend.stats(), "actions": len(p.actions), "atoms": len(p.atoms), "steps": un.steps}
    backend.close()
    return out


def cost_free(p: PlanProblem) -> PlanProblem | None:
    """`p` without its costs and the atoms only costs read (no condition, goal, state rule or
    effect on another atom reads them): the same action sequences are plans, and actions that
    only shared those atoms may take one step together. None when there are no such atoms."""
    m = p.model
    read: set[int] = set()
    for f in [p.goal, *(f for f, _, _ in p.state_rules)]:
        read |= atoms_read(m, f, p.atom_of)
    for act in p.actions:
        read |= set(act.pre_lits) | atoms_read(m, act.pre, p.atom_of)
    grow = True
    while grow:  # what an effect on a read atom reads is read
        grow = False
        for act in p.actions:
            for h, v in act.effects.items():
                new = atoms_read(m, v, p.atom_of) - read if h in read else set()
                if new:
                    read |= new
                    grow = True
    for group in p.one_hot:
        if read.intersection(group):
            read.update(group)
    drop = {a.h for a in p.atoms} - read
    if not any(h in drop for act in p.actions for h in act.effects):
        return None
    actions = [replace(act, effects={h: v for h, v in act.effects.items() if h not in drop},
                       touches=act.touches - drop, cost=(True,)) for act in p.actions]
    return replace(p, actions=actions, horizon=replace(p.horizon, cost=False))


def _tour_search(p: PlanProblem, graph, out: PlanResult, deadline: float | None,
                 progress: Progress | None) -> PlanResult:
    """Solve a collect-then-finish plan as a tour over collection events (see tour.py)."""
    from ..backends.cpsat import solve_tour
    from .tour import Lowered

    t0 = time.perf_counter()
    low = Lowered(graph)
    out.method = "tour over collection events, CP-SAT"
    out.notes.append(f"moves do not depend on what is collected: {len(graph.states)} reachable positions, "
                     f"{len(low.tour.events) - 1} collection events, {len(graph.flags)} things to collect")
    greedy = low.greedy()
    if progress and greedy:
        progress(f"a first plan: {words.count(len(low.actions(greedy)), 'move')}")
    left = None if deadline is None else max(deadline - time.perf_counter(), 0.01)
    res = solve_tour(low.tour, left, greedy or None, progress)
    out.interrupted = res.interrupted
    out.horizons.append((res.moves or 0, "optimal" if res.optimal else "best found", time.perf_counter() - t0))
    order = res.order or greedy
    out.stats = {"positions": len(graph.states), "events": len(low.tour.events) - 1, "arcs": len(low.tour.cost),
                 "actions": len(p.actions)}
    if res.infeasible or (not order and not graph.goal):
        out.status, out.optimal = "unsat", True
        out.reason = "no sequence of moves collects everything and reaches the goal"
        return out
    if not order:
        out.timed_out = True
        out.lower_bound = res.bound
        return out
    out.actions = [p.actions[i] for i in low.actions(order)]
    out.states = simulate(p, {a.h: p.init_values.get(a.h, False) for a in p.atoms}, out.actions)
    out.status = "sat"
    out.optimal = res.optimal and bool(res.order)
    out.lower_bound = len(out.actions) if out.optimal else res.bound
    out.timed_out = not out.optimal
    cap = p.horizon.bound
    if cap is not None and len(out.actions) > cap:
        if out.lower_bound > cap:
            out.status, out.reason, out.actions, out.states = "unsat", (
                f"no plan of at most {words.count(cap, 'move')}"), [], []
        else:
            out.status, out.actions, out.states = "unknown", [], []
    return out


def _schedule(kind: str, bound: int | None, lb: int, n_fixed: int | None, parallel: bool) -> Sequence[int]:
    """The horizons to try, in order."""
    if kind == "exact":
        return [bound or 0]
    if kind == "at_most" and not parallel:
        return [bound] if bound is not None else _open(lb)
    if parallel:
        top = n_fixed if n_fixed is not None else bound
        if top is None:
            return _open(lb)
        # growing quickly while the proofs are easy, then one step at a time (see `search`)
        return range(max(lb, 1), top + 1) if top >= lb else []
    top = bound if bound is not None else 100_000
    return range(lb, top + 1)


def _open(lb: int) -> range:
    return range(lb, 100_001)
