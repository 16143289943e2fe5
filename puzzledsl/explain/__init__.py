"""Step-wise explanations: from the givens to the solution, one small deduction at a time.

Each *step* fixes one or more answer cells and names the reasons that force them: ground rule
instances (a rule at one binding of its loop variables, `rule "row sums" at r = 3`) and cells
fixed by earlier steps. The reasons are a minimal unsatisfiable subset of "the cited rule
instances, the cited cells, and the negation of what the step fixes" (the idea of Bogaerts,
Gamba and Guns, "A framework for step-wise explaining how to solve constraint satisfaction
problems", AIJ 2021; here with a greedy search, not an optimal one).

How it is found. The puzzle is compiled `located` (every rule instance keeps its binding and
its own meaning) and encoded once with one selector literal per rule instance and per graph
constraint (`connected`, checked lazily with cuts guarded by its selector). Incremental
CaDiCaLs answer every question by assumptions (explainer.py: the solution is found on a
scratch solver where every rule simply holds; the round's questions go first to a solver whose
models lean to the solution). A round looks for cells that a *neighbourhood* forces: level 1
allows the rule instances that read the cell, level 2 also those that read a cell those read
(cells of every decision grid, auxiliary ones too; a rule that reads more than a quarter of
the cells does not widen it), level 3 every rule. At the first level at which some cell is
forced, every open cell is tried; each forced cell's core is solved again while that shrinks
it, and the SHRINK cores with the fewest rule instances are shrunk by deletion to minimal sets
of rule instances (with every fixed cell allowed, so cells are preferred to rules; a shrink
stops once it needs more than the fewest found). The steps citing the fewest rule instances
are taken, their cited cells made minimal, those with equal rule instances merged into one;
other cells forced in the round join a step whose reasons force them too. A cell that a level
leaves open keeps its witness (the model that proved it open) and is not asked again while
the cells fixed since agree with that witness. With a unique solution level 3 always forces
something, so the explanation always ends at the solution.

The grade (`Explanation.grade`) is computed from the steps: see docs/explain.md.
"""

from __future__ import annotations

import time

from ..compile import Compiled
from ..values import Grid
from .explainer import Explainer
from .search import NEXT_SHRINK, SHRINK, Search
from .steps import HARD, Explanation, Fact, Reason, Step, answer_facts

__all__ = ["HARD", "Explanation", "Fact", "Reason", "Step", "answer_facts", "explain"]


def explain(compiled: Compiled, progress: dict[str, Grid] | None = None, time_limit: float | None = None,
            only_next: bool = False) -> Explanation:
    """The explanation of a compiled (`located`) puzzle, from the cells of `progress` (None
    where open) on; `only_next`: just the next step."""
    start = time.perf_counter()
    deadline = start + time_limit if time_limit else None
    out = Explanation("unknown")
    if compiled.model.false_rule is not None:
        out.status = "unsat"
        return out
    ex = Explainer(compiled, deadline)
    try:
        _run(ex, compiled, progress or {}, only_next, out)
    finally:
        ex.close()
        out.seconds = time.perf_counter() - start
    return out


def _run(ex: Explainer, compiled: Compiled, progress: dict[str, Grid], only_next: bool, out: Explanation) -> None:
    with ex.whole():
        found = _solution(ex, compiled, out)
    if found is None:
        return
    solution, facts = found
    out.status = "unique"
    if not only_next:  # one round: a witness need not last
        ex.lean_to(solution)
    fixed = []
    for i, f in enumerate(facts):
        grid = progress.get(f.name)
        v = grid.cells.get(f.key) if grid is not None else None
        if v is None:
            continue
        if v != f.value:
            out.wrong.append((f, v))
        else:
            fixed.append(i)
            out.given.append(f)
    if out.wrong:
        return
    search = Search(ex, facts, fixed, NEXT_SHRINK if only_next else SHRINK)
    try:
        while len(search.fixed) < len(facts):
            steps = search.round()
            if steps is None:
                out.timed_out = True
                return
            if not steps:  # every rule instance forces each open cell of a unique solution
                raise AssertionError("no step found while cells are open")
            out.steps.extend(steps[:1] if only_next else steps)
            if only_next:
                return
    finally:
        out.steps = _alone_first(out.steps)


def _alone_first(steps: list[Step]) -> list[Step]:
    """The steps `alone` first, the rest in the order found. Such a step uses no earlier one, so
    it may come anywhere before; rounds of limited size found them among the others (a new
    user's clue cells came as steps 1-5, 7, 8, 11-14 and 16; friction log 17)."""
    return [s for s in steps if s.alone] + [s for s in steps if not s.alone]


def _solution(ex: Explainer, compiled: Compiled, out: Explanation) -> tuple[list[int], list[Fact]] | None:
    """The solution (as the solver's model) and its facts, once it is shown unique; else None,
    with `out` saying why."""
    every = list(ex.sel)
    res = ex.solve(every)
    if res is None:
        out.timed_out = True
        return None
    if not res:
        out.status = "unsat"
        return None
    solution = ex.model()
    facts = answer_facts(compiled, {v for v in solution if v > 0})
    out.facts = facts
    other = ex.new_var()  # "some answer cell differs", while it is assumed
    ex.add_clause([-other, *_differs(ex, facts)])
    res = ex.solve(every + [other])
    ex.add_clause([-other])
    if res is None:
        out.timed_out = True
        return None
    if res:
        out.status = "not unique"
        return None
    return solution, facts


def _differs(ex: Explainer, facts: list[Fact]) -> list[int]:
    """Literals, one per multi-literal fact, each true only when that cell differs."""
    out = []
    for f in facts:
        if len(f.lits) == 1:
            out.append(-f.lits[0])
            continue
        d = ex.new_var()
        ex.add_clause([-d, *(-lit for lit in f.lits)])
        out.append(d)
    return out
