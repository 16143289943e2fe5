"""Clue grids as decisions: the transformation behind `puzzledsl generate RULES`.

A genre's optional given grids (`given num[1..R, 1..C]: int?`) are its clues. Generating a
puzzle asks "is it still unique without this clue?" many times, so the rules are grounded once
with every clue cell at its value (the *given* pass) and once with every clue cell unknown (the
*open* pass), into one model, and each assertion is guarded by the clue cells its grounding
read: one literal per clue cell, true when the clue is given. An assertion of the given pass
holds where all the cells it read are given, one of the open pass where none of them is. A
puzzle with any subset of its clues is then the same solver under assumptions.

Why this is exact: the grounding of a rule instance is a function of the given values it reads
on its way (its sources, filters, defines and body). When every instance reads at most one clue
cell, each instance of a puzzle with some clues given is grounded exactly as in one of the two
passes. An instance that reads several cells is kept only where all of them are in the state
of its pass; that can leave out constraints (never add wrong ones), so "no other solution" still
holds and `ReadLog.several` tells the caller to confirm a "not unique" one on the real puzzle.
Where an open cell says something, the planted solution may break a constraint left out (a
wall removed leaves a white cell that no ray of the rules reaches): `Trial` evaluates the rules
over it.

A clue cell may also be a choice among several values (`ground_choices`): one given pass per
value, one selector per cell and value, and one more literal per cell for "open", exactly one
of them true. The clue set itself is then a decision of the solver, which `generate` samples
together with a solution (`generate_joint.py`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from .errors import PuzzleError, Span
from .ground import Grounder
from .model import Assertion, Formula, GraphConstraint, Model
from .syntax import ast as A
from .values import Grid, Symbol

Cell = tuple[str, tuple]  # (given name, key)


class ReadLog:
    """The clue cells read on the current path of grounding (`Grounder.reads`). A rule's own
    `forall` gives each item its own path; a define's reads are remembered with its value."""

    def __init__(self) -> None:
        self.scope: set[Cell] = set()
        self.several = False  # some path read two clue cells or more
        self.several_rules: list[A.Rule] = []  # the rules of such paths, in order (a warning names them)
        self.defines: dict[tuple, frozenset[Cell]] = {}
        self.rules: set[A.Rule] = set()  # the rules that read some clue cell
        self._rule: A.Rule | None = None

    def start(self, rule: A.Rule) -> None:
        self.scope = set()
        self._rule = rule

    def read(self, cell: Cell) -> None:
        scope = self.scope
        scope.add(cell)
        if len(scope) > 1:
            self._several()
        if self._rule is not None:
            self.rules.add(self._rule)

    def mark(self) -> frozenset[Cell]:
        return frozenset(self.scope)

    def back(self, mark: frozenset[Cell]) -> None:
        self.scope = set(mark)

    def enter(self) -> set[Cell]:
        outer, self.scope = self.scope, set()
        return outer

    def leave(self, outer: set[Cell], key: tuple | None) -> None:
        own = self.scope
        if key is not None:
            self.defines[key] = frozenset(own)
        outer |= own
        self.scope = outer
        if len(outer) > 1:
            self._several()

    def _several(self) -> None:
        self.several = True
        if self._rule is not None and self._rule not in self.several_rules:
            self.several_rules.append(self._rule)

    def remembered(self, key: tuple) -> None:
        for cell in self.defines.get(key, ()):
            self.read(cell)

    def whole(self, g: Grid) -> None:
        """A built-in that reads every cell of a grid (`values`, `cells(g, v)`)."""
        cells = g.cells
        if isinstance(cells, TrackedCells):
            for key in cells.clues:
                self.read((cells.name, key))

    def reset(self) -> None:
        """Before another pass: defines are grounded afresh, so what they read is too."""
        self.defines.clear()
        self.scope = set()
        self._rule = None


class TrackedCells(dict):
    """A given grid's cells that tell the log when a clue cell is read."""

    def __init__(self, cells: dict, name: str, clues: set[tuple], log: ReadLog):
        super().__init__(cells)
        self.name, self.clues, self.log = name, clues, log

    def get(self, key, default=None):
        if key in self.clues:
            self.log.read((self.name, key))
        return dict.get(self, key, default)

    def __getitem__(self, key):
        if key in self.clues:
            self.log.read((self.name, key))
        return dict.__getitem__(self, key)

    def values(self):
        for key in self.clues:
            self.log.read((self.name, key))
        return dict.values(self)

    def items(self):
        for key in self.clues:
            self.log.read((self.name, key))
        return dict.items(self)


class ClueModel(Model):
    """A model whose assertions remember the clue cells their grounding read, and which pass
    (`given`) grounded them. With `outcomes` (the solution's values in place of variables),
    it only records whether each rule instance holds."""

    def __init__(self, log: ReadLog, outcomes: list[tuple[frozenset[Cell], bool]] | None = None):
        super().__init__()
        self.log = log
        self.fold_units = False  # an assertion may hold in one pass only: it forces nothing for the other
        self.state: int | None = 0  # the pass: the index of every clue cell's value, None when open
        self.guards: dict[int, frozenset[tuple[Cell, int | None]]] = {}  # id(assertion) -> cells read, their state
        self.outcomes = outcomes
        self._falsum: int | None = None
        self.graph_guards: dict[int, frozenset[tuple[Cell, int | None]]] = {}  # id(graph) -> cells read, state

    def require(self, f: Formula, span: Span, label: str | None, rule: Span | None = None,
                binding: tuple[tuple[str, object], ...] | None = None) -> None:
        cells = frozenset(self.log.scope)
        if self.outcomes is not None:
            if f is True or f is False:
                self.outcomes.append((cells, f))
            return
        if f is False and cells:  # false only with these clues: a guarded contradiction
            f = -self.falsum(span)
        n = len(self.assertions)
        super().require(f, span, label, rule, binding)
        if cells and len(self.assertions) > n:
            self.guards[id(self.assertions[-1])] = frozenset((c, self.state) for c in cells)

    def as_var(self, f: Formula, span: Span) -> Formula:
        """A variable defined equal to `f`: a definition, which holds whatever the clues (the
        variable is shared by every pass that meets `f`), so it is never guarded."""
        scope, self.log.scope = self.log.scope, set()
        try:
            return super().as_var(f, span)
        finally:
            self.log.scope = scope

    def add_graph(self, gc: GraphConstraint) -> None:
        """A graph constraint, guarded like an assertion by the clue cells its grounding read."""
        cells = frozenset(self.log.scope)
        if self.outcomes is not None:
            return
        super().add_graph(gc)
        if cells:
            self.graph_guards[id(gc)] = frozenset((c, self.state) for c in cells)

    def falsum(self, span: Span) -> int:
        if self._falsum is None:
            self.top += 1
            self._falsum = self.top
            super().require(self._falsum, span, None)
        return self._falsum


@dataclass
class Guards:
    """One selector literal per clue cell (true: the clue is given) and each assertion's guard.
    With several values per cell (`choices`), `selector` is keyed by (cell, value index) and
    `open` holds each cell's literal for "no clue"."""

    selector: dict
    of: dict[int, int] = field(default_factory=dict)  # id(assertion) -> guard literal
    clauses: list[list[int]] = field(default_factory=list)  # defining guards of several cells
    open: dict[Cell, int] = field(default_factory=dict)
    graphs: list[tuple[GraphConstraint, frozenset]] = field(default_factory=list)  # unguarded originals, cells read

    def __call__(self, a: Assertion) -> int | None:
        return self.of.get(id(a))

    def literal(self, cell: Cell, state: int | None) -> int:
        if not self.open:
            return self.selector[cell] if state is not None else -self.selector[cell]
        return self.open[cell] if state is None else self.selector[cell, state]


def open_says(model: ClueModel) -> bool:
    """Whether an open cell says something (some guarded rule instance or graph holds only where a
    cell is open): then a clue removed may leave the planted solution without its reason."""
    return any(state is None for got in (*model.guards.values(), *model.graph_guards.values()) for _, state in got)


def make_guards(model: ClueModel, cells: Iterable[Cell], choices: int = 0) -> Guards:
    """Selectors above the model's handles, and a literal per guarded assertion: the selector
    (or its negation) for one cell, a fresh literal implied by all of them for several. With
    `choices` values per cell: a selector per cell and value, an "open" literal per cell, and
    clauses that make exactly one of them true."""
    guards = Guards({})
    for cell in cells:
        if not choices:
            model.top += 1
            guards.selector[cell] = model.top
            continue
        lits = []
        for i in range(choices):
            model.top += 1
            guards.selector[cell, i] = model.top
            lits.append(model.top)
        model.top += 1
        guards.open[cell] = model.top
        lits.append(model.top)
        guards.clauses.append(lits)
        guards.clauses.extend([-a, -b] for j, a in enumerate(lits) for b in lits[j + 1:])
    several: dict[frozenset, int] = {}

    def literal(got: frozenset[tuple[Cell, int | None]]) -> int:
        lits = [guards.literal(c, state) for c, state in got]
        if len(lits) == 1:
            return lits[0]
        lit = several.get(got)
        if lit is None:
            model.top += 1
            lit = several[got] = model.top
            guards.clauses.append([-x for x in lits] + [lit])
        return lit
    for a in model.assertions:
        got = model.guards.get(id(a))
        if got is not None:
            guards.of[id(a)] = literal(got)
    # a guarded graph constraint (`connected`, `acyclic`) holds over nodes that are in only
    # where its guard holds: with the guard false, no node is in and it holds trivially
    model.log.scope = set()
    for i, gc in enumerate(model.graphs):
        got = model.graph_guards.get(id(gc))
        if got is not None:
            lit = literal(got)
            guards.graphs.append((gc, got))
            nodes = tuple(model.as_var(model.and_([n, lit]), gc.span) for n in gc.nodes)
            model.graphs[i] = replace(gc, nodes=nodes)
    return guards


def tracked(givens: dict[str, object], values: dict[str, dict[tuple, object]], log: ReadLog) -> dict[str, object]:
    """The givens with each clue grid's cells set to `values` (other cells as they are), its
    clue cells reporting their reads to `log`."""
    out = dict(givens)
    for name, cells in values.items():
        base = givens[name]
        assert isinstance(base, Grid)
        grid = Grid(base.name, base.dims, boundary=base.boundary, outside=base.outside)
        grid.cells = TrackedCells({**base.cells, **cells}, name, set(cells), log)
        out[name] = grid
    return out


def new_grounder(program: A.Program, givens: dict[str, object], symbols: dict[str, Symbol],
                 model: ClueModel) -> Grounder:
    g = Grounder(program, givens, symbols, located=True)
    g.model = model
    g.reads = model.log
    return g


def next_pass(g: Grounder, givens: dict[str, object]) -> None:
    """Let a grounder ground the rules again over other givens: nothing it computed from the
    old ones (defines, closures, indexes by value) is kept."""
    g.givens = givens
    g._define_cache.clear()
    g._fns.clear()
    g._value_index.clear()
    if g.reads is not None:
        g.reads.reset()


def ground_both(program: A.Program, givens: dict[str, object], symbols: dict[str, Symbol],
                clues: dict[str, dict[tuple, object]]) -> tuple[Grounder, ReadLog]:
    """The rules grounded with the clues given and with them open, into one `ClueModel`. Rules
    that read no clue cell are grounded once (their grounding cannot differ)."""
    log = ReadLog()
    model = ClueModel(log)
    g = new_grounder(program, tracked(givens, clues, log), symbols, model)
    g.declare_vars()
    g.ground_rules()
    reading = set(log.rules)
    spans = {r.span for r in reading}
    sized = next((gc.rule for gc in model.graphs if gc.rule in spans and gc.kind == "sizes"), None)
    if sized is not None:
        raise PuzzleError("this rule on the size of regions reads a clue: `generate` cannot guard it", sized,
                          "`generate` grounds each clue's rules once with the clue and once without; a "
                          "`size(region(…))` is solved for the whole board at once. Say the size by labels "
                          "and counts instead (each cell a region label, `count(…) == n` per label and "
                          "`connected` per label; docs/language.md §3, \"Clues that exist only where the "
                          "solution allows\"), or generate with a genre's own generator")
    next_pass(g, tracked(givens, {n: dict.fromkeys(cells) for n, cells in clues.items()}, log))
    model.state = None
    g.ground_rules({s for s in program.statements if isinstance(s, A.Rule)} - reading)
    return g, log


def ground_choices(program: A.Program, givens: dict[str, object], symbols: dict[str, Symbol],
                   keys: dict[str, list[tuple]], domains: dict[str, list[object]]) -> tuple[Grounder, ReadLog, int]:
    """The rules grounded once per value with every clue cell at that value (pass i: the i-th
    value of each grid's domain, its last for a shorter one), and once with every cell open,
    into one `ClueModel`; the number of value passes is returned with them (for `make_guards`)."""
    passes = max(len(d) for d in domains.values())

    def values(i: int) -> dict[str, dict[tuple, object]]:
        return {n: dict.fromkeys(ks, domains[n][min(i, len(domains[n]) - 1)]) for n, ks in keys.items()}
    g, log = ground_both(program, givens, symbols, values(0))
    every = {s for s in program.statements if isinstance(s, A.Rule)}
    for i in range(1, passes):
        next_pass(g, tracked(givens, values(i), log))
        g.model.state = i  # type: ignore[attr-defined]
        g.ground_rules(every - log.rules)
    return g, log, passes


def consistent_values(program: A.Program, givens: dict[str, object], symbols: dict[str, Symbol],
                      solution: dict[str, Grid], name: str, keys: list[tuple], domain: list[object]) -> dict:
    """For each clue cell of `name`, the first value of `domain` that the solution satisfies:
    the rules are evaluated with the solution in place of the variables, every open cell set to
    the value tried, and a cell takes the value when no rule instance that read it breaks (a
    broken instance that read several cells is tried again with each of them alone). A cell no
    value fits stays open (it cannot carry a clue)."""
    found: dict[tuple, object] = {}
    trial = Trial(program, givens, symbols, solution, {name: keys})
    for v in domain:
        open_keys = [k for k in keys if k not in found]
        if not open_keys:
            break
        broken = trial.broken({name: dict.fromkeys(open_keys, v)})
        several = {k for read in broken if len(read) > 1 for _, k in read}
        alone = {k for read in broken if len(read) == 1 for _, k in read}
        for k in open_keys:
            if k not in alone and (k not in several or not trial.broken({name: {k: v}})):
                found[k] = v
    return found


class Trial:
    """The rules evaluated over a solution with some clue cells set. One grounder serves every
    trial: the clue grids' cells change in place, so the closures built for the first stay
    valid; after the first, only the rules that read a clue are evaluated. Graph constraints
    (`connected`, …) are not evaluated."""

    def __init__(self, program: A.Program, givens: dict[str, object], symbols: dict[str, Symbol],
                 solution: dict[str, Grid], keys: dict[str, list[tuple]]):
        self.log = log = ReadLog()
        self.outcomes: list[tuple[frozenset[Cell], bool]] = []
        tried = tracked(givens, {name: dict.fromkeys(ks) for name, ks in keys.items()}, log)
        self.cells: dict[str, TrackedCells] = {name: tried[name].cells for name in keys}  # type: ignore[attr-defined]
        self.g = new_grounder(program, tried, symbols, ClueModel(log, self.outcomes))
        self.g.vars = dict(solution)
        self.every = {s for s in program.statements if isinstance(s, A.Rule)}
        self.skip: set[A.Rule] = set()

    def broken(self, values: dict[str, dict[tuple, object]]) -> list[frozenset[Cell]]:
        """The clue cells read by each rule instance that breaks with these cells set (the
        others open)."""
        for name, cells in self.cells.items():
            given = values.get(name, {})
            for k in cells.clues | set(given):
                dict.__setitem__(cells, k, given.get(k))
            cells.clues = set(given)
        self.g._define_cache.clear()
        self.g._value_index.clear()
        self.log.reset()
        self.outcomes.clear()
        self.g.ground_rules(self.skip)
        self.skip = self.every - self.log.rules
        return [read for read, ok in self.outcomes if not ok and read]
