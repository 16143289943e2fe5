"""Clue sets sampled with their solution: `generate` for genres whose full clue set is no puzzle.

The first route of `generate.py` fills every clue cell the sampled solution allows and thins
that set. It fails for two kinds of rules: those with no solution until some clues exist (an
open cell says something, so the blank board is unsatisfiable), and those where a clue can sit
only where the solution's shape allows one, so that the full set of a random solution rarely
pins it down.

This route makes the clue set a decision too. Every clue cell is a choice among its values and
"open" (`clues.ground_choices`: the rules grounded once per value and once open, a selector
per cell and value), so one solver samples a solution with a clue set it satisfies; then, with
that solution's answer fixed, as many more clues as the solver finds present. The clue set is
checked in the same solver (the selectors fixed by assumptions, the solution blocked under a
literal of its own). A second solution S' found there becomes a clause for the later samples
of this puzzle: each guarded rule instance is evaluated over S' as the solver left it, and the
clue set must take one of the clue states (a value, or open) under which some instance breaks.
Every clue set that rules S' out does (its own states hold no instance that S' breaks, and any
set ruling S' out breaks one under S''s auxiliary values too), so the clause loses no puzzle
but those whose solution is S' itself. Only a puzzle's first sample starts from random phases;
each later one starts from the last, so it moves only as far as the clauses need (measured
against restarts every 20 or 300 samples: BENCHMARKS.md, issue 13).
A unique clue set is thinned as in the first route: where an open cell says something, a clue
goes only if the planted solution stays a solution. `uniqueness.decide` confirms the result.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from . import graphs
from .backends.sat import SatBackend
from .clues import Cell, ground_choices, make_guards, open_says
from .compile import Compiled
from .deadline import TimeUp
from .solve import LazyGraphs, blocking_clause, decode, model_literals
from .uniqueness import fixing

if TYPE_CHECKING:
    from .generate import Generator

Clue = tuple[Cell, int]  # a clue cell and the index of its value in the grid's domain


class Joint:
    """One generator's guarded model with every clue a choice, and its solver (built once)."""

    def __init__(self, gen: Generator):
        from .generate import NoPuzzle
        self.gen = gen
        self.keys = {n: gen.keys[n] for n in gen.decls}
        self.domains = {n: gen.domains[n] for n in gen.decls}
        g, log, passes = ground_choices(gen.program, gen.blank.givens, gen.rules.symbols, self.keys, self.domains)
        self.several = log.several
        self.several_rules = list(log.several_rules)  # which rules read several clue cells at once
        model = g.model
        self.open_says = open_says(model)  # then a clue removed is checked to keep the planted solution
        self.cells: list[Cell] = [(n, k) for n, ks in self.keys.items() for k in ks]
        self.guards = guards = make_guards(model, self.cells, passes)  # type: ignore[arg-type]
        for cell in self.cells:  # a grid with fewer values than passes: its extra selectors stay false
            for i in range(len(self.domains[cell[0]]), passes):
                guards.clauses.append([-guards.selector[cell, i]])
        self.sat = SatBackend(model, gen.req.solver, guard=guards)
        for clause in guards.clauses:
            self.sat.add_clause(clause)
        self.backend = LazyGraphs(self.sat, model.graphs) if model.graphs else self.sat
        self.compiled = Compiled(gen.blank.title, gen.program, model, gen.blank.givens, g.declared, [],
                                 answer=gen.blank.answer)
        self.planted: list[int] = []  # the sampled solution's answer, as assumptions
        self.last: list[int] | None = None  # the last sample's phases
        self.decision = self.sat.model.decision_vars
        self.base = (list(self.sat.extra), self.sat.encoder.pool.top)
        self.learnt = self.sat.encoder.pool.fresh()  # assumed while sampling: the clauses learnt from S'
        if self.backend.solve([self.learnt]) is False:
            raise NoPuzzle(f"these rules have no solution {gen.as_asked()}, whatever the clues")

    def restart(self) -> None:
        """The solver as built, before a puzzle: each puzzle depends on its own random choices
        alone, not on what was learnt making the ones before (so `--jobs` writes the same)."""
        extra, top = self.base
        self.sat.restart(extra)
        self.sat.encoder.pool.top = top
        self.learnt = self.sat.encoder.pool.fresh()
        self.last = None

    # ------------------------------------------------------------ one puzzle
    def puzzle(self, rng: random.Random, deadline: float | None) -> tuple[dict[str, object], int, int, int] | None:
        """(givens, clues kept, clues sampled, samples) of a unique, clue-minimal puzzle, or None
        when `tries` samples give none."""
        from .generate import NoPuzzle, _on_time, _with_values
        self.restart()
        blank = None
        for sample in range(1, self.gen.tries("joint") + 1):
            _on_time(deadline)
            self.gen.progress(f"trying clue set {sample}")
            clues = self.sample(rng, deadline, sample == 1)
            if clues is None:
                # each learnt clause bars the clue sets a second solution fits (as far as the guarded
                # rule instances tell), so this is strong evidence, not a proof; where a rule reads
                # several clue cells at once the guarded instances do not tell it (friction log 17:
                # unique 4x4 rectangle puzzles exist, and this said there likely were none)
                why = ("; but a rule reads several clue cells at once (see the warning), which this search "
                       "cannot follow, so unique puzzles may well exist"
                       if self.several else ", so there is likely no unique puzzle of this size (with "
                       "these fixed givens)")
                raise NoPuzzle("no clue set is left that tells the solutions sampled so far apart: each fits "
                               "two of them" + why)
            block = self.sat.encoder.pool.fresh()
            true = self.backend.true_vars()
            self.sat.add_clause([-block, *blocking_clause(self.compiled.answer_handles(), true)])
            self.planted = model_literals(self.compiled.answer_handles(), true)
            try:
                if not self.unique(clues, block, deadline):
                    self.learn(clues)
                    continue
                kept = self.thin(clues, block, rng, deadline)
            finally:
                self.sat.add_clause([-block])
            givens = _with_values(self.gen.blank.givens, self.values(kept))
            if not self.gen.confirm(givens, deadline):
                if self.several:  # the guarded model was a relaxation: this sample is no puzzle
                    continue
                raise RuntimeError("a generated puzzle is not unique when solved as written")
            blank = self.gen.one_clue(givens, decode(self.compiled, true))
            if blank is not None:  # one clue throughout: its solution is never sampled again for this puzzle
                self.sat.add_clause([-x for x in self.planted])
                continue
            return givens, len(kept), len(clues), sample
        if blank is not None:
            raise NoPuzzle(self.gen.blank_board(blank))
        return None

    def sample(self, rng: random.Random, deadline: float | None, fresh: bool) -> set[Clue] | None:
        """A solution and a clue set it satisfies, as many clues present as the solver finds.
        `fresh`: from random phases (else from the last sample's, so that the clauses learnt
        since move it only as far as they need)."""
        phases = self.random_phases(rng, deadline) if fresh or self.last is None else self.last
        self.backend.set_phases(phases)
        res = self.backend.solve([self.learnt], deadline)
        if res is None:
            raise TimeUp()
        if not res:
            return None
        clues = self.clues_now()
        # every other clue the solution allows, as far as the solver finds them with the answer fixed
        true = self.backend.true_vars()
        fixed = model_literals(self.compiled.answer_handles(), true)
        sel, open_ = self.guards.selector, self.guards.open
        self.backend.set_phases([-open_[c] for c in self.cells]
                                + [sel[c, i] for c in self.cells for i in range(len(self.domains[c[0]]))])
        if self.backend.solve([self.learnt, *fixed, *self.assumptions(clues, free=True)], deadline):
            clues = self.clues_now()
        else:  # the graph cuts of the first call are kept: the second model is the first's
            self.backend.solve([self.learnt, *fixed, *self.assumptions(clues)], deadline)
        true = self.backend.true_vars()
        self.last = model_literals(self.decision, true) + self.assumptions(clues)
        return clues

    def random_phases(self, rng: random.Random, deadline: float | None) -> list[int]:
        """Decisions at a random density, clues present at a random rate; the answer from a
        solution of the blank board where it has one (as the first route samples)."""
        from .generate import NoPuzzle
        bias = rng.random()
        presence = 0.6 + 0.4 * rng.random()
        phases = [v if rng.random() < bias else -v for v in self.decision]
        if self.gen.route_blank:
            try:
                solution = self.gen.sample(rng, deadline)
            except NoPuzzle:
                self.gen.route_blank = False
            else:
                answer = self.compiled.answer or list(solution)
                phases += fixing(self.compiled.grids, {n: solution[n] for n in answer if n in solution}) or []
        sel = self.guards.selector
        for cell in self.cells:
            here = rng.random() < presence
            phases.append(-self.guards.open[cell] if here else self.guards.open[cell])
            phases.extend(sel[cell, i] if here else -sel[cell, i] for i in range(len(self.domains[cell[0]])))
        return phases

    def clues_now(self) -> set[Clue]:
        value, sel = self.sat.value, self.guards.selector
        return {(cell, i) for cell in self.cells for i in range(len(self.domains[cell[0]])) if value(sel[cell, i])}

    def assumptions(self, clues: set[Clue], free: bool = False) -> list[int]:
        """The selectors that give these clues and leave the other cells open (`free`: undecided)."""
        given = dict(clues)
        sel, open_ = self.guards.selector, self.guards.open
        if free:
            return [sel[c, given[c]] for c in self.cells if c in given]
        return [sel[c, given[c]] if c in given else open_[c] for c in self.cells]

    def unique(self, clues: set[Clue], block: int, deadline: float | None) -> bool:
        from .generate import _on_time, _with_values
        _on_time(deadline)
        res = self.backend.solve([block, *self.assumptions(clues)], deadline)
        if res is None:
            raise TimeUp()
        if not res:
            return not self.open_says or self.backend.solve([*self.planted, *self.assumptions(clues)], deadline)
        if not self.several:
            return False
        return self.gen.confirm(_with_values(self.gen.blank.givens, self.values(clues)), deadline)

    def thin(self, clues: set[Clue], block: int, rng: random.Random, deadline: float | None) -> set[Clue]:
        """Clues removed in random order while the puzzle stays unique, again over those kept
        until none can go (grids named by --keep are never thinned)."""
        active = set(clues)
        order = sorted(c for c in clues if c[0][0] not in self.gen.keep)
        rng.shuffle(order)
        changed = True
        while changed:
            changed = False
            for clue in order:
                if clue in active and self.unique(active - {clue}, block, deadline):
                    active.discard(clue)
                    changed = True
        return active

    def values(self, clues: set[Clue]) -> dict[str, dict[tuple, object]]:
        out: dict[str, dict[tuple, object]] = {n: {} for n in self.keys}
        for (name, key), i in clues:
            out[name][key] = self.domains[name][i]
        return out

    def learn(self, clues: set[Clue]) -> None:
        """The second solution in the solver is S': every later clue set must break it. Each
        guarded rule instance (and graph constraint) is evaluated over S' as the solver left it;
        one that breaks names the clue states that would rule S' out."""
        true = self.backend.true_vars()
        value = dict.fromkeys(true, True)
        model = self.sat.model
        memo: dict[int, bool] = {}
        given = dict(clues)
        broken: set[frozenset] = set()
        for a in model.assertions:
            got = model.guards.get(id(a))  # type: ignore[attr-defined]
            if got is not None and got not in broken and not model.evaluate(a.formula, value, memo):
                broken.add(got)
        for gc, got in self.guards.graphs:
            if got not in broken and not graphs.check([gc], true).ok:
                broken.add(got)
        lits: set[int] = set()
        for got in broken:
            # a state P itself has cannot rule S' out (S' satisfies P), however the instance reads it
            lits.update(self.guards.literal(c, state) for c, state in got if given.get(c) != state)
        self.sat.add_clause([-self.learnt, *sorted(lits)])

