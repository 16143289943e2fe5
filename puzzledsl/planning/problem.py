"""Grounding of puzzles played over time (`state`, `action`, `init`, `goal`, `horizon`).

Every action, the goal, the initial state and the rules over state cells are grounded
once, over *template* state cells: each Boolean state cell (and each value of an integer
state cell) is one template handle, an *atom*. `search.py` copies these formulas into every
time step. Before that, this module derives what the data decide already:

- relaxed reachability: which atom values and actions can occur by step t at all (an
  atom that can never change is a constant; an action that can never apply is dropped);
- invariants of the actions: a count that every action changes by the same amount (the
  pieces a jump removes), which fixes the plan length, and parity (GF(2)) invariants,
  which decide at once goals that no sequence of actions can reach.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import PuzzleError, Span
from ..ground import Grounder
from ..model import AndNode, Formula, Model, neg
from ..syntax import ast as A
from ..values import Cond, Grid, IntVarCell, Lin, Symbol, describe


@dataclass(frozen=True)
class Atom:
    """One Boolean fact of the state: cell `key` of state `state` (has value `value`, for integers)."""

    state: str
    key: tuple
    value: int | None
    h: int  # its template handle


@dataclass
class GroundAction:
    index: int
    name: str
    args: tuple
    text: str
    pre: Formula  # over template atoms
    pre_lits: dict[int, bool]  # atoms the condition fixes (its literal part)
    effects: dict[int, Formula]  # atom -> its value after the action (over template atoms at the step before)
    touches: frozenset[int]  # atoms read or written
    span: Span
    cost: tuple[Formula, ...] = (True,)  # level k-1: "the cost is at least k", over the atoms before the action

    def cost_in(self, m: Model, state: dict[int, bool]) -> int:
        return sum(1 for f in self.cost if m.evaluate(f, state))


@dataclass(frozen=True)
class HorizonSpec:
    kind: str  # "minimize" | "at_most" | "exact"
    bound: int | None  # the cap (minimize, at_most) or the length (exact)
    span: Span | None = None
    cost: bool = False  # minimise the sum of the actions' costs (`horizon minimize cost`)


@dataclass
class PlanProblem:
    model: Model
    atoms: list[Atom]
    atom_of: dict[int, Atom]
    templates: dict[str, Grid]
    actions: list[GroundAction]
    init: Formula
    init_values: dict[int, bool]  # atoms the initial state fixes
    goal: Formula
    state_rules: list[tuple[Formula, Span, str | None]]
    horizon: HorizonSpec
    one_hot: list[tuple[int, ...]]  # atoms of one integer cell: exactly one holds at every step
    implied: frozenset[int] = frozenset()  # the positions in `state_rules` of `implied rule`s


# ------------------------------------------------------------------ which statements involve states

def state_names(program: A.Program) -> set[str]:
    return {s.name for s in program.statements if isinstance(s, A.Var) and s.state}


def mentions(e: A.Expr, names: set[str], defines: dict[str, A.Define], memo: dict[str, bool]) -> bool:
    """Does `e` read one of `names`, directly or through defines?"""
    if isinstance(e, A.Name):
        if e.id in names:
            return True
        if e.id in defines:
            return _define_mentions(e.id, names, defines, memo)
        return False
    if isinstance(e, A.Call) and e.func in defines and _define_mentions(e.func, names, defines, memo):
        return True
    if isinstance(e, A.Aggregate):
        if any(mentions(x, names, defines, memo) for b in e.bindings for x in (b.source, b.while_, b.where)
               if x is not None):
            return True
    return any(mentions(c, names, defines, memo) for c in A.children(e))


def _define_mentions(name: str, names: set[str], defines: dict[str, A.Define], memo: dict[str, bool]) -> bool:
    if name not in memo:
        memo[name] = False  # recursion: assume not, until shown
        memo[name] = mentions(defines[name].body, names, defines, memo)
    return memo[name]


# ------------------------------------------------------------------ grounding

def ground_plan(g: Grounder, program: A.Program) -> PlanProblem:
    """Declare template state cells in `g` and ground actions, init, goal and state rules."""
    g.model.templates = True  # copied into every step: no variables defined by clauses
    try:
        return _ground_plan(g, program)
    finally:
        g.model.templates = False


def _ground_plan(g: Grounder, program: A.Program) -> PlanProblem:
    m = g.model
    atoms: list[Atom] = []
    one_hot: list[tuple[int, ...]] = []
    templates: dict[str, Grid] = {}
    for st in program.statements:
        if isinstance(st, A.Var) and st.state:
            templates[st.name] = _declare_state(g, st, atoms, one_hot)
    atom_of = {a.h: a for a in atoms}
    stmts = program.statements
    actions: list[GroundAction] = []
    for st in stmts:
        if isinstance(st, A.Action):
            _ground_action(g, st, atom_of, templates, actions)
    init = m.and_([g.formula(g.ev(s.body, {}), s.body.span) for s in stmts if isinstance(s, A.Init)])
    goals = [s for s in stmts if isinstance(s, A.Goal)]
    if not goals:
        raise PuzzleError("a puzzle played over time needs a `goal`", _first_state_span(program),
                          "say what must hold at the end, e.g. `goal forall p in cells(b): done[p]`")
    goal = m.and_([g.formula(g.ev(s.body, {}), s.body.span) for s in goals])
    memo: dict[str, bool] = {}
    names = set(templates)
    rules = [s for s in stmts if isinstance(s, A.Rule) and mentions(s.body, names, g.defines, memo)]
    state_rules = [(g.formula(g.ev(s.body, {}), s.body.span), s.span, s.label) for s in rules]
    implied = frozenset(i for i, s in enumerate(rules) if s.implied)
    horizon = _horizon(g, program)
    init_values = _fixed_literals(m, init, atom_of)
    for group in one_hot:  # an integer cell fixed to one value is fixed to "not" for the others
        if any(init_values.get(h) for h in group):
            for h in group:
                init_values.setdefault(h, False)
    return PlanProblem(m, atoms, atom_of, templates, actions, init, init_values, goal, state_rules, horizon,
                       one_hot, implied)


def _first_state_span(program: A.Program) -> Span | None:
    return next((s.span for s in program.statements if isinstance(s, A.Var) and s.state), None)


def _declare_state(g: Grounder, st: A.Var, atoms: list[Atom], one_hot: list[tuple[int, ...]]) -> Grid:
    dims = g.declared_dims(st)
    grid = Grid(st.name, dims)
    if st.boundary is not None:
        grid.boundary = st.boundary.kind
        if st.boundary.default is not None:
            grid.outside = g.ev(st.boundary.default, {})
    m = g.model
    for key in grid.keys():
        label = st.name if not key else f"{st.name}[{','.join(map(str, key))}]"
        if st.type.kind == "bool":
            h = m.new_var(label)
            atoms.append(Atom(st.name, key, None, h))
            grid.cells[key] = Cond(h)
        else:
            lo, hi = g.static_int(st.type.lo, {}), g.static_int(st.type.hi, {})
            if hi < lo:
                raise PuzzleError(f"empty domain {lo}..{hi} for `{st.name}`", st.type.span)
            hs = []
            for v in range(lo, hi + 1):
                h = m.new_var(f"{label}={v}")
                atoms.append(Atom(st.name, key, v, h))
                hs.append(h)
            one_hot.append(tuple(hs))
            grid.cells[key] = IntVarCell(lo, tuple(hs), False, hi)
    g.vars[st.name] = grid
    return grid


def _ground_action(g: Grounder, st: A.Action, atom_of: dict[int, Atom], templates: dict[str, Grid],
                   out: list[GroundAction]) -> None:
    m = g.model
    names = [n for b in st.bindings for n in b.names]
    for env in g.iter_bindings(st.bindings, st.where, {}):
        env = dict(env)
        args = tuple(env[n] for n in names)
        pre = True if st.pre is None else g.formula(g.ev(st.pre, env), st.pre.span)
        if pre is False:
            continue
        effects: dict[int, Formula] = {}
        _ground_effects(g, st.effects, env, templates, effects)
        pre_lits = _fixed_literals(m, pre, atom_of)
        touched = set(effects) | set(pre_lits) | atoms_read(m, pre, atom_of)
        for v in effects.values():
            touched |= atoms_read(m, v, atom_of)
        text = _action_text(st, names, args)
        cost = (True,) if st.cost is None else _cost_levels(g, st.cost, env)
        for f in cost:
            touched |= atoms_read(m, f, atom_of)
        out.append(GroundAction(len(out), st.name, args, text, pre, pre_lits, effects, frozenset(touched), st.span,
                                cost))


def _cost_levels(g: Grounder, e: A.Expr, env: dict) -> tuple[Formula, ...]:
    """A cost as its unary levels [cost >= 1, cost >= 2, ...]: the sum of a plan's costs is then
    a count of true levels, which a cardinality constraint bounds."""
    lin = Lin.of(g.lin(g.ev(e, env), e.span))
    lo = lin.const + sum(c for c in lin.terms.values() if c < 0)
    hi = lin.const + sum(c for c in lin.terms.values() if c > 0)
    if lo < 0:
        raise PuzzleError(f"a cost must not be negative, but this one can be {lo}", e.span)
    if hi > 1000:
        raise PuzzleError(f"costs are small whole numbers (at most 1000), but this one can be {hi}", e.span)
    return tuple(g.formula(g.compare(">=", lin if lin.terms else lin.const, k, e), e.span) for k in range(1, hi + 1))


def _ground_effects(g: Grounder, effects: tuple[A.Effect, ...], env: dict, templates: dict[str, Grid],
                    out: dict[int, Formula]) -> None:
    for ef in effects:
        if isinstance(ef, A.ForallEffect):
            for inner in g.iter_bindings(ef.bindings, ef.where, env):
                _ground_effects(g, ef.body, dict(inner), templates, out)
            continue
        assert isinstance(ef, A.AssignEffect)
        grid = templates[ef.name]
        key: list = []
        for x in ef.indices:
            v = g.ev(x, env)
            key.extend(v if isinstance(v, tuple) else (v,))
        key_t = tuple(key)
        cell = grid.cells.get(key_t)
        if cell is None:
            if grid.boundary == "wrap" and all(isinstance(k, int) for k in key_t) and len(key_t) == len(grid.dims):
                key_t = tuple(r[(k - r.start) % len(r)] for k, r in zip(key_t, grid.dims))
                cell = grid.cells.get(key_t)
            if cell is None:
                raise PuzzleError(f"{describe(key_t if len(key_t) != 1 else key_t[0])} is not a cell of "
                                  f"`{ef.name}[{grid.shape()}]`", ef.span)
        value = g.ev(ef.value, env)
        if isinstance(cell, Cond):
            parts = {cell.h: g.formula(value, ef.value.span)}
        else:
            parts = {h: g.formula(g.compare("==", value, cell.lo + i, ef), ef.value.span)
                     for i, h in enumerate(cell.handles)}
        for h, f in parts.items():
            if h in out and out[h] != f:
                raise PuzzleError(f"this action sets `{ef.name}[{','.join(map(str, key_t))}]` twice, to different "
                                  "values", ef.span)
            out[h] = f


def _action_text(st: A.Action, names: list[str], args: tuple) -> str:
    if st.text is None:
        return f"{st.name}({', '.join(format_value(a) for a in args)})" if st.bindings else st.name
    values = dict(zip(names, args))
    return re.sub(r"\{([A-Za-z_][A-Za-z_0-9]*)\}",
                  lambda mt: format_value(values[mt.group(1)]) if mt.group(1) in values else mt.group(0), st.text)


def format_value(v: object) -> str:
    if isinstance(v, Symbol):
        return v.name
    if isinstance(v, tuple):
        return "(" + ",".join(format_value(x) for x in v) + ")"
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def json_value(v: object) -> object:
    """Action arguments in JSON: cells as [row, col], symbols (directions) as strings."""
    if isinstance(v, Symbol):
        return v.name
    if isinstance(v, tuple | list):
        return [json_value(x) for x in v]
    return v


def _horizon(g: Grounder, program: A.Program) -> HorizonSpec:
    specs = [s for s in program.statements if isinstance(s, A.Horizon)]
    if len(specs) > 1:
        raise PuzzleError("more than one `horizon`", specs[1].span, f"the first is at {specs[0].span}")
    if not specs:
        return HorizonSpec("minimize", None)
    s = specs[0]
    if s.exact is not None:
        n = g.static_int(s.exact, {})
        if n < 0:
            raise PuzzleError("a horizon is at least 0", s.exact.span)
        return HorizonSpec("exact", n, s.span)
    bound = g.static_int(s.at_most, {}) if s.at_most is not None else None
    if bound is not None and bound < 0:
        raise PuzzleError("a horizon is at least 0", s.at_most.span)  # type: ignore[union-attr]
    return HorizonSpec("minimize" if s.minimize else "at_most", bound, s.span, s.cost)


# ------------------------------------------------------------------ formula shapes

def _fixed_literals(m: Model, f: Formula, atom_of: dict[int, Atom]) -> dict[int, bool]:
    """The atoms a condition fixes through its top-level conjunction of literals."""
    if f is True or f is False:
        return {}
    node = m.nodes.get(f) if f > 0 else None
    out: dict[int, bool] = {}
    for lit in (node.children if isinstance(node, AndNode) else (f,)):
        if abs(lit) in atom_of:
            out[abs(lit)] = lit > 0
    return out


def atoms_read(m: Model, f: Formula, atom_of: dict[int, Atom]) -> set[int]:
    """The atoms a formula reads."""
    return {h for h in m.variables(f) if h in atom_of}


# ------------------------------------------------------------------ relaxed reachability

@dataclass
class Reach:
    """First step at which each atom value / action can occur, ignoring interactions (an
    over-approximation: what is never reached here is never reached by any plan)."""

    fact_layer: dict[tuple[int, bool], int]
    action_layer: list[int | None]
    goal_layer: int | None  # first layer where every goal literal is reached; None: never

    @property
    def settled(self) -> int:
        """The step from which nothing new is reached: every later step looks the same."""
        return max([0, *self.fact_layer.values(), *(a for a in self.action_layer if a is not None)])

    def constant(self, h: int, t: int) -> bool | None:
        """The value atom `h` must have at step t, or None when it may vary."""
        t_true = self.fact_layer.get((h, True))
        t_false = self.fact_layer.get((h, False))
        can_true = t_true is not None and t_true <= t
        can_false = t_false is not None and t_false <= t
        if can_true and not can_false:
            return True
        if can_false and not can_true:
            return False
        if not can_true and not can_false:
            return False  # unreachable at all: no plan gets here (the encoding may say anything)
        return None


def reachability(p: PlanProblem, max_layers: int = 100_000) -> Reach:
    m = p.model
    layer: dict[tuple[int, bool], int] = {}
    for a in p.atoms:
        v = p.init_values.get(a.h)
        for val in ((v,) if v is not None else (True, False)):
            layer[(a.h, val)] = 0
    acts: list[int | None] = [None] * len(p.actions)
    effects_of: list[list[tuple[int, bool]]] = []
    for act in p.actions:
        facts: list[tuple[int, bool]] = []
        for h, v in act.effects.items():
            for val in ((v,) if v is True or v is False else (True, False)):
                facts.append((h, val))
        effects_of.append(facts)
    waiting: dict[tuple[int, bool], list[int]] = {}
    missing = []
    for i, act in enumerate(p.actions):
        need = [(h, v) for h, v in act.pre_lits.items()]
        missing.append(len(need))
        for f in need:
            waiting.setdefault(f, []).append(i)
    frontier = [i for i in range(len(p.actions)) if missing[i] == 0]
    for f in list(layer):  # facts of layer 0 enable actions
        for i in waiting.pop(f, []):
            missing[i] -= 1
            if missing[i] == 0:
                frontier.append(i)
    t = 0
    while frontier and t < max_layers:
        new_facts: list[tuple[int, bool]] = []
        for i in frontier:
            acts[i] = t
            for f in effects_of[i]:
                if f not in layer:
                    layer[f] = t + 1
                    new_facts.append(f)
        frontier = []
        for f in new_facts:
            for i in waiting.pop(f, []):
                missing[i] -= 1
                if missing[i] == 0:
                    frontier.append(i)
        t += 1
    goal_layer: int | None = 0
    for h, v in _fixed_literals(m, p.goal, p.atom_of).items():
        at = layer.get((h, v))
        if at is None:
            goal_layer = None
            break
        goal_layer = max(goal_layer, at)  # type: ignore[type-var]
    return Reach(layer, acts, goal_layer)


# ------------------------------------------------------------------ invariants

def is_flip(h: int, v: Formula) -> bool:
    """Whether the effect `h := v` is `x := not x`: it flips the atom whatever it was."""
    return v is not True and v is not False and v == neg(h)


def toggles(p: PlanProblem) -> tuple[list[int], set[int]]:
    """Each action as the set of atoms it flips (a bitmask over `order`): a value its condition
    fixes set to the other, or `x := not x`; and the atoms some action sets without knowing
    their value before ("wild": no invariant may weigh them)."""
    wild: set[int] = set()
    masks: list[int] = []
    order = [a.h for a in p.atoms if a.value is None]
    bit = {h: i for i, h in enumerate(order)}
    for act in p.actions:
        mask = 0
        for h, v in act.effects.items():
            before = act.pre_lits.get(h)
            if h in bit and is_flip(h, v):
                mask |= 1 << bit[h]  # `x := not x` flips whatever x was
            elif h not in bit or v not in (True, False) or before is None:
                wild.add(h)
            elif before != v:
                mask |= 1 << bit[h]
        masks.append(mask)
    return masks, wild


def count_delta(p: PlanProblem, state: str) -> int | None:
    """The change of `count(true cells of state)` that every action makes, when it is the
    same non-zero number for all of them (each reads the cells it writes)."""
    cells = {a.h for a in p.atoms if a.state == state and a.value is None}
    delta: int | None = None
    for act in p.actions:
        d = 0
        for h, v in act.effects.items():
            if h not in cells:
                continue
            before = act.pre_lits.get(h)
            if before is None or v not in (True, False):
                return None
            d += int(v) - int(before)
        if delta is None:
            delta = d
        elif d != delta:
            return None
    return delta if delta else None


def parity_invariants(p: PlanProblem) -> list[tuple[list[int], bool]]:
    """Sets of atoms whose number of true atoms keeps its parity under every action, with
    that parity in the initial state: the GF(2) null space of the actions' flip vectors,
    restricted to atoms the initial state fixes and no action sets blindly."""
    masks, wild = toggles(p)
    order = [a.h for a in p.atoms if a.value is None]
    allowed = [i for i, h in enumerate(order) if h not in wild and h in p.init_values
               and any(mk >> i & 1 for mk in masks)]
    if not allowed or len(allowed) > 4000:
        return []
    # rows: actions restricted to allowed atoms; null space of the (actions × atoms) matrix
    col = {i: j for j, i in enumerate(allowed)}
    rows = []
    for mk in set(masks):
        r = 0
        for i in allowed:
            if mk >> i & 1:
                r |= 1 << col[i]
        if r:
            rows.append(r)
    pivots: dict[int, int] = {}  # pivot column -> reduced row
    for r in rows:
        for c, pr in pivots.items():
            if r >> c & 1:
                r ^= pr
        if r:
            c = r.bit_length() - 1
            for c2 in list(pivots):
                if pivots[c2] >> c & 1:
                    pivots[c2] ^= r
            pivots[c] = r
    free = [j for j in range(len(allowed)) if j not in pivots]
    out = []
    for fcol in free:
        w = 1 << fcol
        for c, pr in pivots.items():
            if pr >> fcol & 1:
                w |= 1 << c
        support = [order[allowed[j]] for j in range(len(allowed)) if w >> j & 1]
        parity = sum(p.init_values[h] for h in support) % 2 == 1
        out.append((support, parity))
    return out


def xor(m: Model, items: list[Formula]) -> Formula:
    acc: Formula = False
    for x in items:
        acc = neg(m.iff(acc, x))
    return acc
