"""The search for steps: the rounds that find the cheapest steps (`Search`), asking an
`Explainer` (explainer.py); see the package's doc."""

from __future__ import annotations

from ..values import IntVarCell
from .explainer import Explainer
from .steps import Fact, Step

LEVELS = (1, 2, 3)
SHRINK = 12  # forced cells per round whose reasons are made minimal: those with the smallest cores
NEXT_SHRINK = 4  # the same for `--next`, which shows one step: a hint within 0.2 s
OVER: list[int] = []  # what `shrink` returns once a core needs more members than its bound
WIDE = 0.25  # the share of the cells above which a rule (connectivity, a fleet) is global


class Search:
    """The rounds of an explanation over an `Explainer`."""

    def __init__(self, ex: Explainer, facts: list[Fact], fixed: list[int], shrink: int = SHRINK):
        self.ex = ex
        self.shrink_count = shrink
        self.facts = facts
        self.fixed: list[int] = list(fixed)  # fact indices, in the order they were fixed
        self.is_fixed = set(fixed)
        self.pos: list[int] = []  # the literal that says fact i holds
        self.neg: list[int] = []  # the literal that says fact i does not
        for f in facts:
            if len(f.lits) == 1:
                self.pos.append(f.lits[0])
                self.neg.append(-f.lits[0])
                continue
            p, n = ex.new_var(), ex.new_var()
            for lit in f.lits:
                ex.add_clause([-p, lit])
            ex.add_clause([-n, *(-lit for lit in f.lits)])
            self.pos.append(p)
            self.neg.append(n)
        self.fact_of_pos = {lit: i for i, lit in enumerate(self.pos)}
        cell_of = self._cells()
        # constraint -> cells it reads (facts first, then every other decision cell);
        # cell -> constraints that read it
        self.scope = [sorted({cell_of[v] for v in vs if v in cell_of}) for vs in ex.scope_vars]
        cells = max(cell_of.values(), default=-1) + 1
        self.readers: list[list[int]] = [[] for _ in range(cells)]
        for r, fs in enumerate(self.scope):
            for i in fs:
                self.readers[i].append(r)
        # a rule that reads more than WIDE of the cells is in a neighbourhood, but does not widen it
        self.wide = [len(fs) > WIDE * cells for fs in self.scope]
        # (fact, level) -> (a model, as the solver's list of literals; how many cells were fixed then)
        self.witness: dict[tuple[int, int], tuple[list[int], int]] = {}
        self.rule_index = {id(r): i for i, r in enumerate(ex.reasons)}
        self._near: dict[tuple[int, int], list[int]] = {}

    def _cells(self) -> dict[int, int]:
        """Variable -> cell: fact i is cell i; then every other cell of a decision grid (an
        auxiliary grid, such as a number per cell naming its island), so neighbourhoods reach through them."""
        out: dict[int, int] = {}
        for i, f in enumerate(self.facts):
            for h in f.handles or [abs(lit) for lit in f.lits]:
                out[h] = i
        n = len(self.facts)
        for grid in self.ex.compiled.grids.values():
            for cell in grid.cells.values():
                if isinstance(cell, bool):
                    continue
                handles = cell.handles if isinstance(cell, IntVarCell) else (cell.h,)  # type: ignore[attr-defined]
                if any(h in out for h in handles):
                    continue
                for h in handles:
                    out[h] = n
                n += 1
        return out

    def neighbourhood(self, i: int, level: int) -> list[int]:
        """The rule instances a round may cite for fact i at this level (see the module doc)."""
        got = self._near.get((i, level))
        if got is not None:
            return got
        if level >= 3:
            got = list(range(len(self.ex.reasons)))
        else:
            first = set(self.readers[i])
            if level == 1:
                got = sorted(first)
            else:
                near = {i} | {j for r in first if not self.wide[r] for j in self.scope[r]}
                got = sorted({r for j in near for r in self.readers[j]})
        self._near[(i, level)] = got
        return got

    def still_open(self, i: int, level: int) -> bool:
        """Whether the witness that left fact i open at this level still agrees with every
        cell fixed since (then it still does: the same model satisfies all of it)."""
        w = self.witness.get((i, level))
        if w is None:
            return False
        true, seen = w
        for j in self.fixed[seen:]:
            if not self._agrees(j, true):
                return False
        self.witness[(i, level)] = (true, len(self.fixed))
        return True

    def _agrees(self, j: int, true: set[int]) -> bool:
        return all(true[abs(lit) - 1] == lit for lit in self.facts[j].lits)

    def round(self) -> list[Step] | None:
        """The cheapest steps from the cells fixed so far (None: the time limit passed)."""
        open_ = [i for i in range(len(self.facts)) if i not in self.is_fixed]
        if not open_:
            return []
        known = [self.pos[j] for j in self.fixed]
        for level in LEVELS:
            cores: list[tuple[int, list[int]]] = []
            for i in open_:
                if self.still_open(i, level):
                    continue
                rs = self.neighbourhood(i, level)
                assumptions = [self.ex.sel[r] for r in rs] + known + [self.neg[i]]
                res = self.ex.solve(assumptions, lean=True, patience=level < LEVELS[-1])
                if res is None:
                    return None
                if res:
                    if self.ex.checked:
                        self.share(self.ex.model(), level, open_)
                    continue
                core = self.tighten(assumptions, self.neg[i])
                if core is None:
                    return None
                cores.append((i, core))
            if cores:
                return self.found(cores, level)
        return []

    def share(self, true: list[int], level: int, open_: list[int]) -> None:
        """Keep a model as the witness of every open cell it leaves open at this level: the
        cell differs from the solution there, and every rule instance of the cell's
        neighbourhood holds (its selector is true; a graph rule's only if it was assumed, as
        only then were its cuts enforced)."""
        seen = len(self.fixed)
        sel, lazy = self.ex.sel, self.ex.graph_sel
        for i in open_:
            if self.witness.get((i, level), (None, -1))[1] == seen or self._agrees(i, true):
                continue
            near = self.neighbourhood(i, level)
            if all(true[sel[r] - 1] > 0 and (sel[r] not in lazy or sel[r] in self.ex.last) for r in near):
                self.witness[(i, level)] = (true, seen)

    def tighten(self, assumptions: list[int], negated: int, rounds: int = 3) -> list[int] | None:
        """The last core (without `negated`), solved again on its own while that shrinks it:
        a cheap first cut before deletion."""
        first = set(self.ex.core() or assumptions)
        core = [x for x in assumptions if x in first and x != negated]
        for _ in range(rounds):
            res = self.ex.solve(core + [negated])
            if res is None:
                return None
            smaller = set(self.ex.core() or core)
            if res or len(smaller - {negated}) >= len(core):
                break
            core = [x for x in core if x in smaller]
        return core

    def found(self, cores: list[tuple[int, list[int]]], level: int) -> list[Step] | None:
        """Steps from the cells some neighbourhood forces: the SHRINK whose cores cite the fewest
        rule instances are made minimal (the others wait for a later round). Only the steps
        that cite the fewest are taken, so a shrink stops once it has proved more rule instances
        needed than the fewest found so far (`OVER`)."""
        sel = self.ex.of_sel
        cores.sort(key=lambda ic: (sum(x in sel for x in ic[1]), len(ic[1]), ic[0]))
        out = []
        least: int | None = None
        for i, core in cores[:self.shrink_count]:
            keep = self.shrink(core, self.neg[i], {x for x in core if x in sel}, least)
            if keep is None:
                return None
            if keep is OVER:
                continue
            rules = [sel[x] for x in keep if x in sel]
            least = len(rules) if least is None else min(least, len(rules))
            out.append((i, rules))
        steps = self.steps(out, level)
        if steps is None or self.join(steps, [i for i, _ in cores[self.shrink_count:]]) is None:
            return None
        return steps

    def join(self, steps: list[Step], rest: list[int]) -> bool | None:
        """Cells forced this round but not made minimal, added to a step whose reasons force
        them too (one check each), so that one deduction is one step."""
        index = {id(f): i for i, f in enumerate(self.facts)}
        for i in rest:
            for step in steps:
                rules = [self.rule_index[id(r)] for r in step.reasons]
                if not any(i in self.scope[r] for r in rules):
                    continue
                res = self.ex.solve([self.ex.sel[r] for r in rules] + [self.pos[index[id(f)]] for f in step.uses]
                                    + [self.neg[i]])
                if res is None:
                    return None
                if not res:
                    step.fixed.append(self.facts[i])
                    self.fixed.append(i)
                    self.is_fixed.add(i)
                    break
        return True

    def shrink(self, assumptions: list[int], negated: int, drop: set[int],
               bound: int | None = None) -> list[int] | None:
        """A core (without `negated`) shrunk by deletion of its members in `drop` (one at a time,
        keeping each smaller core the solver finds): a subset of the assumptions that, with
        `negated`, still has no model, and from which no member of `drop` can be left out.
        With a `bound`: `OVER` as soon as more than `bound` members of `drop` are needed."""
        keep = [x for x in assumptions if x != negated]
        order = sorted((x for x in keep if x in drop), key=self._weight)
        needed = 0
        for x in order:
            if x not in keep:
                continue
            trial = [y for y in keep if y != x]
            res = self.ex.solve(trial + [negated])
            if res is None:
                return None
            if res:
                needed += 1
                if bound is not None and needed > bound:
                    return OVER
                continue
            smaller = set(self.ex.core() or trial)
            keep = [y for y in trial if y in smaller]
        return keep

    def _weight(self, x: int) -> int:
        """Deletion order: the rule instances that read the most cells go first."""
        r = self.ex.of_sel.get(x)
        return -len(self.scope[r]) if r is not None else 0

    def minimal(self, i: int, rules: list[int]) -> tuple[list[int], list[int]] | None:
        """The reasons of fact i: the rule instances found, and a minimal set of fixed cells
        among those they read."""
        near = {j for r in rules for j in self.scope[r]}
        cells = [self.pos[j] for j in self.fixed if j in near]
        assumptions = [self.ex.sel[r] for r in rules] + cells
        res = self.ex.solve(assumptions + [self.neg[i]])
        if res is None:
            return None
        if res:  # cannot happen: these reasons forced it with every fixed cell
            raise AssertionError("a step's reasons stopped forcing its cell")
        core = self.tighten(assumptions + [self.neg[i]], self.neg[i], 1)
        if core is None:
            return None
        keep = self.shrink(core, self.neg[i], set(cells))
        if keep is None:
            return None
        return ([self.ex.of_sel[x] for x in keep if x in self.ex.of_sel],
                [self.fact_of_pos[x] for x in keep if x not in self.ex.of_sel])

    def steps(self, found: list[tuple[int, list[int]]], level: int) -> list[Step] | None:
        """The found deductions that cite the fewest rule instances, with their cells made
        minimal; deductions from the same rule instances are one step."""
        least = min(len(rules) for _, rules in found)
        merged: dict[tuple[int, ...], tuple[list[int], set[int]]] = {}
        for i, rules in found:
            if len(rules) != least:
                continue
            mus = self.minimal(i, rules)
            if mus is None:
                return None
            key = tuple(sorted(mus[0]))
            fixed, uses = merged.setdefault(key, ([], set()))
            fixed.append(i)
            uses.update(mus[1])
        out = []
        for rules, (fixed, uses) in sorted(merged.items(), key=lambda kv: (len(kv[1][1]), kv[1][0])):
            out.append(Step([self.facts[i] for i in fixed], [self.ex.reasons[r] for r in rules],
                            [self.facts[j] for j in sorted(uses)], level))
            for i in fixed:
                self.fixed.append(i)
                self.is_fixed.add(i)
        return out
