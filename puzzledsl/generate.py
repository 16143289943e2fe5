"""`puzzledsl generate RULES`: unique, clue-minimal puzzles of any genre whose clues are grids.

No genre code: the clues are the rule file's optional given grids (`given num[..]: int?`,
or those `--clues` names). A puzzle is made in four steps:

1. A solution, sampled from the rules with every clue open, by a SAT search started from random
   polarities (`--seed`): one compiled blank puzzle serves every sample of a run.
2. Its full clue set: each clue cell gets the first value the solution satisfies (the rules are
   evaluated over the solution, `clues.consistent_values`); a cell no value fits stays open.
   The values come from the given's type: `bool`, the symbols of its legend, or for an `int`
   given the range `given num[..]: int? in LO..HI` declares (or `--values num=LO..HI`), then
   the integers its legend names.
3. Uniqueness of the full set, then clues removed one at a time in random order while the puzzle
   stays unique, over one solver: the clue grids become guarded decisions (`clues.py`), the
   planted solution is blocked once, and each question is a solve under assumptions. A clue
   that cannot go is tried again after the others (until nothing changes), so the result is
   clue-minimal even for rules where an open cell says something. If the full set is not
   unique, another solution is sampled.
4. The result is compiled as a normal puzzle and `uniqueness.decide` confirms it before it is
   reported. Grids named by `--keep` are filled and never thinned (counts that every puzzle
   of a genre shows, say).

That is the *full* route. Where a solution's full clue set is seldom or never a puzzle (a clue
may sit only where the solution's shape allows one; or the blank board has no solution, an
open cell saying something), the *joint* route of `generate_joint.py` samples the clue set
together with the solution. `--route auto` (the default) takes the joint route when an open
clue cell on its own says something (the blank board's solutions would be those of a puzzle
with every cell open), else the full route when one of `PROBES` solutions, sampled with a
fixed seed, has a unique full clue set, else the joint one.
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import product
from pathlib import Path

from .backends.sat import SatBackend
from .clues import (
    Cell,
    ClueModel,
    ReadLog,
    Trial,
    consistent_values,
    ground_both,
    make_guards,
    new_grounder,
    open_says,
    tracked,
)
from .compile import Compiled, Rules, compile_rules, load_rules, option_raw
from .data import Binder, Raw, expr_reads, raw_from_ast
from .deadline import TimeUp, alarm_at
from .errors import PuzzleError, Span
from .generate_joint import Joint
from .ground import Grounder
from .solve import LazyGraphs, blocking_clause, decode, model_literals, open_backend
from .syntax import ast as A
from .syntax.parser import parse_text
from .uniqueness import Search, decide, fixing
from .values import Grid, Symbol


@dataclass(frozen=True)
class Request:
    """What the command line asks for (see `puzzledsl generate RULES --help`)."""

    rules: Path
    size: str | None = None
    settings: tuple[str, ...] = ()  # NAME=VALUE, data values
    options: dict[str, str] = field(default_factory=dict)
    clues: tuple[str, ...] = ()  # empty: every optional given grid
    keep: tuple[str, ...] = ()
    values: tuple[str, ...] = ()  # NAME=LO..HI
    solver: str = "cadical195"
    tries: int | None = None  # solutions sampled per puzzle before giving up (None: 100, joint route 5000)
    route: str = "auto"  # "full": thin each solution's full clue set; "joint": sample the clues too; "auto": probe


@dataclass
class Puzzle:
    givens: dict[str, object]  # the clue grids (open cells None) and every other given
    clues: int  # clue cells given
    full: int  # clue cells of the full set
    samples: int  # solutions sampled until a full clue set was unique
    seconds: float


TRIES, TRIES_JOINT = 100, 5000  # samples per puzzle by default, by route
PROBES = 10  # full clue sets tried (until one is unique) before `generate` samples the clues with the solution


def _quiet(text: str) -> None:
    pass


class NoPuzzle(Exception):
    """No unique puzzle within the tries (the reason is the message)."""


class Mismatch(Exception):
    """The planted solution breaks its full clue set: another sample is taken."""


SAMPLE_TRY = 2_000  # conflicts for each try of a sample drawn towards a random assignment (`Generator.sample`)


class Generator:
    """One rule file at one size: the blank puzzle compiled once, then `puzzle(rng)` per puzzle."""

    def __init__(self, req: Request, rules: Rules | None = None):
        self.req = req
        self.rules: Rules = rules if rules is not None else load_rules(req.rules)  # parsed elsewhere: a worker
        program = self.rules.program
        self.program = program
        self.raw, self.setting_lines = _settings(program, req)
        decls = {s.name: s for s in program.statements if isinstance(s, A.Given) and not s.option}
        self.decls = _clue_decls(decls, req, self.raw)
        for d in self.decls.values():  # before the blank board is compiled: its errors would hide this
            if d.type.kind == "list":
                raise PuzzleError(f"`generate` tries one value per clue cell, but the cells of `{d.name}` hold lists",
                                  d.type.span, "generate such puzzles with a generator of the genre's own "
                                  "(`puzzles/generators/`)")
        self.keep = set(req.keep)
        dims = self._dims()
        blank = dict(self.raw)
        for name, ds in dims.items():
            blank[name] = _open_raw(ds)
        try:
            self.blank = compile_rules(self.rules, blank, True, req.options)
        except PuzzleError as err:
            if err.message.startswith("no value for the given"):
                err.help = "give it with --set NAME=VALUE, written as in a data file (`--set NAME=[4, 3, 2, 1]`)"
            else:  # e.g. a domain or a count sized by the clue cells: nothing to sample before clues exist
                err.message = f"`generate` grounds these rules on a board without clues first, and there: {err.message}"
                err.help = err.help or ("rules that take a size from the clues themselves (a count of the clue "
                                        "cells, the largest clue) have no solution to sample without them; "
                                        "such a genre needs a generator of its own")
            raise
        if self.blank.plan is not None:
            raise PuzzleError("these rules describe a puzzle played over time: `generate` makes clue puzzles")
        if req.route not in ("auto", "full", "joint"):
            raise PuzzleError(f"--route takes auto, full or joint, not `{req.route}`")
        self.route = None if req.route == "auto" else req.route
        self.route_blank = True  # the blank board has solutions: the joint route starts from them
        self.progress: Callable[[str], None] = _quiet  # what a puzzle's making is at (a status line)
        self.keys = {name: list(product(*ds)) for name, ds in dims.items()}
        self.domains = {name: self._domain(d) for name, d in self.decls.items()}
        # A variable indexed by a list computed from the clues has other cells with clues set: a
        # solution of the board without clues cannot be read then (what the full route does).
        self.clue_indexed = self._clue_indexed()
        if self.clue_indexed and self.route == "full":
            name, span = self.clue_indexed[0]
            raise PuzzleError(f"`--route full` reads a solution of the board without clues with clues set, but "
                              f"the cells of `{name}` are computed from the clues", span,
                              "leave --route out (or use --route joint): the clues are then sampled with "
                              "the solution")
        self.sampler = open_backend(self.blank, "sat", req.solver)
        self._joint: Joint | None = None
        if self.blank.model.false_rule is not None:
            a = self.blank.model.false_rule
            fails = PuzzleError(f"no puzzle {self.as_asked()}: the rule {_rule_name(a.label)}fails without any clue",
                                a.span)
            if req.route == "full":
                fails.help = "sample the clues with the solution: --route joint"
                raise fails
            self.route, self.route_blank = "joint", False
            try:
                self._joint = Joint(self)
            except NoPuzzle:
                raise fails from None

    # ------------------------------------------------------------ setup
    def _dims(self) -> dict[str, tuple[range, ...]]:
        g = Grounder(self.program, {}, self.rules.symbols)
        # an instance file's own fixed data (a region grid whose shape gives the sizes) counts, as in
        # compiling; its clue grids do not: generating replaces them, whatever their size
        own = {s.name: raw_from_ast(s.value) for s in self.program.statements
               if isinstance(s, A.Assign) and s.name not in self.decls}
        merged = {**own, **self.raw, **option_raw(self.program, self.req.options)}
        Binder(self.program, g).bind(merged, True, require_all=False)
        self.scratch = g
        out = {}
        for name, d in self.decls.items():
            try:
                out[name] = tuple(g.dim_range(x, {}) for x in d.dims)
            except PuzzleError as err:
                unset = [s.name for s in self.program.statements if isinstance(s, A.Given)
                         and s.name not in g.givens and any(expr_reads(x, {s.name}) for x in d.dims)]
                why = (f"`{'`, `'.join(unset)}` {'has' if len(unset) == 1 else 'have'} no value yet" if unset
                       else err.message)
                raise PuzzleError(f"the size of `{name}` is not known: {why}", err.span,
                                  "give it with --size ROWSxCOLS, or --set NAME=VALUE for each size") from err
            if any(not isinstance(r, range) for r in out[name]):
                raise PuzzleError(f"`{name}` is indexed by a list of values, not a board", d.span)
        return out

    def _clue_indexed(self) -> list[tuple[str, Span | None]]:
        """The decision variables (name, declaration) whose cells differ between the board without
        clues and the board with every clue cell set (`var take[choices]`, `choices` listed from
        the numbers' cells)."""
        clues = self._every_clue_set(skip=())
        log = ReadLog()
        g = new_grounder(self.program, tracked(self.blank.givens, clues, log), self.rules.symbols, ClueModel(log))
        try:
            g.declare_vars()
        except PuzzleError:  # no such board: what the routes make of it is for them to say
            return []
        finally:
            g.release()
        return [(s.name, s.span) for s in self.program.statements if isinstance(s, A.Var) and s.name in g.vars
                and s.name in self.blank.grids and set(g.vars[s.name].cells) != set(self.blank.grids[s.name].cells)]

    def _every_clue_set(self, skip: set[str] | tuple = ()) -> dict[str, dict[tuple, object]]:
        """Every cell of each clue grid (but those in `skip`) at its grid's first value."""
        return {n: dict.fromkeys(self.keys[n], self.domains[n][0]) for n in self.decls
                if n not in skip and self.domains[n]}

    def _domain(self, d: A.Given) -> list[object]:
        """The values a clue of `d` may take, in the order they are tried."""
        legend = [raw_from_ast(v).value for _, v in d.legend or ()]
        if d.type.kind == "bool":
            return [True, False]
        if d.type.kind == "sym":
            found = [v for v in legend if isinstance(v, Symbol)] or sorted(self.rules.symbols.values(), key=str)
            return list(dict.fromkeys(found))
        ints = list(dict.fromkeys(v for v in legend if isinstance(v, int) and not isinstance(v, bool)))
        asked = _values_option(self.req.values).get(d.name)
        if asked is not None:  # --values names every value tried: the legend's numbers are not added
            return list(asked)
        if d.values is not None:
            lo, hi = (self.scratch_int(x) for x in d.values)
            return list(dict.fromkeys([*range(lo, hi + 1), *ints]))
        if len(ints) > 1:
            return sorted(ints)
        others = [n for n in self.decls if n != d.name]
        pick = f"; if `{d.name}` holds no clues, name the clue grids: --clues {','.join(others)}" if others else ""
        raise PuzzleError(f"the values of the clues `{d.name}` are not known", d.span,
                          f"declare them (`given {d.name}[…]: int? in LO..HI`) or pass --values {d.name}=LO..HI"
                          + pick)

    def scratch_int(self, e: A.Expr) -> int:
        g = Grounder(self.program, self.blank.givens, self.rules.symbols)
        g.frozen = True
        try:
            return g.static_int(e, {})
        finally:
            g.release()

    # ------------------------------------------------------------ one puzzle
    def prepare(self, deadline: float | None = None) -> Joint | None:
        """The route, probed if need be, and the joint route's solver, built once (the first
        puzzle does it otherwise); the latter returned when that is the route."""
        with alarm_at(deadline):  # grounding every clue set at once watches no clock of its own: a
            # board of 63 piece placements spent 2.9 s past a 10 s limit in it (friction log 17)
            if self.route is None:
                self.route = self._probe(deadline)
            if self.route == "joint" and self._joint is None:
                self._joint = Joint(self)
        return self._joint

    def puzzle(self, rng: random.Random, deadline: float | None = None) -> Puzzle:
        start = time.perf_counter()
        if self.prepare(deadline) is not None:
            assert self._joint is not None
            got = self._joint.puzzle(rng, deadline)
            if got is None:
                raise NoPuzzle(f"no sampled clue set of {self.tries('joint')} was unique (--tries)"
                               + self.other_route())
            givens, clues, sampled, samples = got
            return Puzzle(givens, clues, sampled, samples, time.perf_counter() - start)
        # the sampler as built: a puzzle depends on its own seed alone, not on what making the ones
        # before taught the solver, cuts included (so `--jobs` writes the same puzzles)
        self.sampler.restart([])  # type: ignore[union-attr]
        blank = None
        for sample in range(1, self.tries("full") + 1):
            _on_time(deadline)
            self.progress(f"trying solution {sample}")
            solution = self.sample(rng, deadline, toward=True)
            made = self._thin(solution, rng, deadline)
            if made is not None:
                givens, clues, full = made
                blank = self.one_clue(givens, solution)
                if blank is None:
                    return Puzzle(givens, clues, full, sample, time.perf_counter() - start)
                lits = fixing(self.blank.grids, solution) or []  # never this solution again, for this puzzle
                self.sampler.add_clause([-x for x in lits])  # type: ignore[union-attr]
        if blank is not None:
            raise NoPuzzle(self.blank_board(blank))
        raise NoPuzzle(f"no sampled solution of {self.tries('full')} had a unique full clue set (--tries)")

    def one_clue(self, givens: dict[str, object], solution: dict[str, Grid]) -> str | None:
        """The one token every clue of a puzzle shows, when it has several clues, they are all
        alike (`#` only, `0` only) and its solution is a blank board (every answer grid one value
        throughout): the puzzle is no puzzle, and is passed over. A genre whose clues are all alike
        by nature (circles to colour) keeps its puzzles: their solutions are not blank."""
        answer = self.blank.answer or list(solution)
        if any(len({repr(v) for v in solution[n].cells.values()}) > 1 for n in answer if n in solution):
            return None
        seen: set[str] = set()
        count = 0
        for name, d in self.decls.items():
            grid = givens.get(name)
            if not isinstance(grid, Grid):
                continue
            legend = legend_of(d)
            for v in grid.cells.values():
                if v is not None:
                    seen.add(str(token(d, v, legend)))
                    count += 1
                    if len(seen) > 1:
                        return None
        return next(iter(seen)) if count > 1 else None

    def blank_board(self, clue: str) -> str:
        return (f"every unique puzzle found had `{clue}` as its only clue: the solutions sampled leave the board "
                "(nearly) blank, which these rules allow. To ask for fuller ones, add an option and a rule, e.g. "
                "`option minfill: int = 0` with `rule count(p in cells(x): x[p] != 0) >= minfill`, generate with "
                "`--option minfill=20`, and keep the puzzles `verify` calls unique without it (docs/language.md §3)")

    def tries(self, route: str) -> int:
        """Samples per puzzle: the joint route's are cheaper (one solver call each) and it needs more,
        unless its guarded model is only a relaxation of the rules (few samples are puzzles then:
        give up as soon as the full route would, rather than after hours)."""
        if self.req.tries is not None:
            return self.req.tries
        if route == "joint" and not (self._joint is not None and self._joint.several):
            return TRIES_JOINT
        return TRIES

    def _probe(self, deadline: float | None) -> str:
        """The route for these rules: "full" when the full clue set of one of the first
        `PROBES` solutions (sampled with a fixed seed, so every worker of a run agrees) is
        unique, else "joint" (clues sampled with the solution, `generate_joint.py`)."""
        if self.clue_indexed or self._open_cells_say():
            self.route_blank = False  # nor do the joint route's samples start from the blank board's
            return "joint"
        rng = random.Random("route")
        for _ in range(PROBES):
            try:
                solution = self.sample(rng, deadline)
            except NoPuzzle:
                self.route_blank = False
                return "joint"  # no solution without clues
            if self._thin(solution, rng, deadline, probe=True) is not None:
                return "full"
        return "joint"

    def _open_cells_say(self) -> bool:
        """Whether an open clue cell on its own says something: a rule instance that reads one
        clue cell holds only where that cell is open (`known(dot[p]) iff …`: no dot, the
        neighbours are not one apart). The blank board, every cell open, is then a puzzle of its
        own, and the full route would sample only its solutions: their full clue sets never
        hold a clue that contradicts what an open cell says (a new user's dot puzzle came out
        with no dot for any seed). An instance over several cells' openness (`if every row sum
        is known then … else …`) is most often another form of the same rule, and does not count.
        Grids kept whole (--keep) are never open."""
        clues = self._every_clue_set(skip=self.keep)
        g, _ = ground_both(self.program, self.blank.givens, self.rules.symbols, clues)
        try:
            model = g.model
            read = (*model.guards.values(), *model.graph_guards.values())  # type: ignore[attr-defined]
            return any(len(got) == 1 and next(iter(got))[1] is None for got in read)
        finally:
            g.release()

    def sample(self, rng: random.Random, deadline: float | None, toward: bool = False) -> dict[str, Grid]:
        """A solution of the blank board, of a density of its own. `toward`: drawn towards a
        random assignment of that density, every decision variable assumed, then half of those
        assumptions, and so on, each try within SAMPLE_TRY conflicts, until one is satisfiable.
        The phases alone did not give the density asked where an all-alike board satisfies the
        rules: a board of diagonals without loops, 22 puzzles of 30 with 30 or more of 36 cells one
        way (or 6 or fewer); 12 this way, as the densities drawn put them (friction log 19,
        BENCHMARKS.md).
        The tries depend on what the solver learnt before, so only the full route takes them: it
        starts each puzzle from the sampler as built."""
        bias = rng.random()  # a density of its own per sample: sparse and dense solutions are met too
        # every variable's phase, the encodings' own too: CaDiCaL decides those first, and with
        # their default phases a row or a digit count came out the same for every seed
        every = range(1, self.sampler.largest_variable() + 1)  # type: ignore[union-attr]
        self.sampler.set_phases([v if rng.random() < bias else -v for v in every])  # type: ignore[union-attr]
        target = [h if rng.random() < bias else -h for h in self.blank.model.decision_vars] if toward else []
        rng.shuffle(target)  # halved, a random half is kept
        while target:
            res = self.sampler.solve(target, deadline=deadline, conflicts=SAMPLE_TRY)
            if res:
                return decode(self.blank, self.sampler.true_vars())
            if res is None and deadline is not None and time.perf_counter() >= deadline:
                raise TimeUp()
            target = target[:len(target) // 2]
        res = self.sampler.solve(deadline=deadline)
        if res is None:
            raise TimeUp()
        if not res:
            raise NoPuzzle(f"these rules have no solution {self.as_asked()}")
        return decode(self.blank, self.sampler.true_vars())

    def other_route(self) -> str:
        """`; --route full …` where `auto` chose the joint route, which a failure then names."""
        return "; `--route full` fills each solution's clues and thins them instead" if self.req.route == "auto" else ""

    def as_asked(self) -> str:
        """`at this size`, and with what --set and --option fixed: where "no solution" holds."""
        fixed = [s.split("=", 1)[0].strip() for s in self.req.settings] + list(self.req.options)
        return "at this size" + (f" with {', '.join(f'`{n}`' for n in fixed)} as given" if fixed else "")

    def full_clues(self, solution: dict[str, Grid]) -> dict[str, dict[tuple, object]]:
        return {name: consistent_values(self.program, self.blank.givens, self.rules.symbols, solution, name,
                                        self.keys[name], self.domains[name]) for name in self.decls}

    def _thin(self, solution: dict[str, Grid], rng: random.Random, deadline: float | None,
              probe: bool = False) -> tuple[dict[str, object], int, int] | None:
        """The planted solution's full clue set thinned to a minimal unique one; None when the
        full set is not unique (`probe`: only that is asked; anything else when it is)."""
        full = self.full_clues(solution)
        fixed = {n: v for n, v in full.items() if n in self.keep}
        base = _with_values(self.blank.givens, fixed)
        removable = {n: v for n, v in full.items() if n not in self.keep}
        try:
            check = Checker(self, base, removable, solution, deadline)
        except Mismatch:
            return None
        try:
            cells = list(check.selector)
            active = set(cells)
            if not check.unique(active):
                return None
            if probe:
                return {}, 0, 0
            order = list(cells)
            rng.shuffle(order)
            changed = True
            while changed:  # again over the clues kept, until none can go
                changed = False
                for cell in order:
                    if cell in active and check.unique(active - {cell}):
                        active.discard(cell)
                        changed = True
        finally:
            check.close()
        values = {n: {k: v for k, v in cells_.items() if (n, k) in active} for n, cells_ in removable.items()}
        givens = _with_values(base, values)
        if not self.confirm(givens, deadline):
            raise RuntimeError("a generated puzzle is not unique when solved as written")
        return givens, len(active) + sum(len(v) for v in fixed.values()), sum(len(v) for v in full.values())

    def compiled(self, givens: dict[str, object], located: bool = False) -> Compiled:
        """The puzzle compiled as `solve` compiles it (`located`: as `explain` does)."""
        raw = dict(self.raw)
        for name in self.decls:
            raw[name] = _grid_raw(givens[name])  # type: ignore[arg-type]
        return compile_rules(self.rules, raw, True, self.req.options, located=located)

    def grade(self, givens: dict[str, object], deadline: float | None) -> float | None:
        """The puzzle's difficulty grade as `puzzledsl explain` computes it (docs/explain.md);
        None when the explanation does not finish in time."""
        from .explain import explain
        left = None if deadline is None else max(deadline - time.perf_counter(), 0.001)
        out = explain(self.compiled(givens, located=True), time_limit=left)
        return float(out.grade()["grade"]) if out.status == "unique" else None

    def confirm(self, givens: dict[str, object], deadline: float | None) -> bool:
        """Uniqueness of the puzzle as `solve --unique` would decide it."""
        left = None if deadline is None else max(deadline - time.perf_counter(), 0.001)
        out = decide(self.compiled(givens), Search("sat", self.req.solver), left, explain=False)
        if out.timed_out and out.unique is None:
            raise TimeUp()
        return out.unique is True


class Checker:
    """Uniqueness of the planted solution under any subset of the clues: one solver over the
    rules grounded with the clues given and open (`clues.ground_both`), the solution blocked."""

    def __init__(self, gen: Generator, base: dict[str, object], clues: dict[str, dict[tuple, object]],
                 solution: dict[str, Grid], deadline: float | None):
        self.gen, self.clues, self.deadline = gen, clues, deadline
        g, log = ground_both(gen.program, base, gen.rules.symbols, clues)
        model = g.model
        self.several = log.several
        guards = make_guards(model, [(n, k) for n, cells in clues.items() for k in cells])  # type: ignore[arg-type]
        self.selector: dict[Cell, int] = guards.selector
        sat = SatBackend(model, gen.req.solver, guard=guards)
        for clause in guards.clauses:
            sat.add_clause(clause)
        self.backend = LazyGraphs(sat, model.graphs) if model.graphs else sat
        self.base = base
        fix = fixing(g.declared, solution)
        every = list(self.selector.values())
        if fix is None or self.backend.solve(every + fix, deadline) is not True:
            self.close()  # clue values that hold one by one but not together (rules reading several clues)
            raise Mismatch()
        compiled = Compiled(gen.blank.title, gen.program, model, base, g.declared, [], answer=gen.blank.answer)
        true = self.backend.true_vars()
        self.block = sat.encoder.pool.fresh()  # assumed: the planted solution is blocked
        self.backend.add_clause([-self.block, *blocking_clause(compiled.answer_handles(), true)])
        # where an open cell says something, a clue removed may leave the planted solution
        # without its reason: it must stay a solution
        self.planted = model_literals(compiled.answer_handles(), true)
        self.open_says = open_says(model)
        # where the guarded model lacks instances that read several clues, it may keep the planted
        # solution where the rules do not (a cell opened that no ray of the rules reaches): the rules
        # themselves are evaluated over it (`clues.Trial`), or with graphs the real puzzle solved
        self.trial: Trial | None = None
        if self.open_says and self.several and not model.graphs:
            self.trial = Trial(gen.program, base, gen.rules.symbols, solution, {n: list(c) for n, c in clues.items()})

    def unique(self, active: set[Cell]) -> bool:
        _on_time(self.deadline)
        chosen = [s if c in active else -s for c, s in self.selector.items()]
        res = self.backend.solve([self.block, *chosen], self.deadline)
        if res is None:
            raise TimeUp()
        if not res:
            if not self.open_says:
                return True
            if self.trial is not None:
                return not self.trial.broken(self._values(active))
            if not self.several:
                return self.backend.solve([*chosen, *self.planted], self.deadline) is True
        elif not self.several:
            return False
        # the guarded model may lack a rule instance that reads several clues: ask the real puzzle
        return self.gen.confirm(_with_values(self.base, self._values(active)), self.deadline)

    def _values(self, active: set[Cell]) -> dict[str, dict[tuple, object]]:
        """The clue values of the cells in `active`, grid by grid."""
        return {n: {k: v for k, v in cells.items() if (n, k) in active} for n, cells in self.clues.items()}

    def close(self) -> None:
        self.backend.close()


# ------------------------------------------------------------------ setup helpers


def _settings(program: A.Program, req: Request) -> tuple[dict[str, Raw], list[str]]:
    """--set NAME=VALUE (a data value, as a data file writes it) and --size ROWSxCOLS, as raw
    data and as the assignments a puzzle's data file repeats."""
    raw: dict[str, Raw] = {}
    lines: list[str] = []
    for text in req.settings:
        name, sep, value = text.partition("=")
        if not sep or not name.strip().isidentifier():
            raise PuzzleError(f"--set takes NAME=VALUE, not `{text}`", help="e.g. --set N=9, --set NAME=[4, 3, 2]")
        for st in parse_text(f"{name.strip()} = {value}", "--set"):
            assert isinstance(st, A.Assign)
            raw[st.name] = raw_from_ast(st.value)
            lines.append(f"{st.name} = {value.strip()}")
    if req.size is not None:
        for name, n in _size_names(program, req.size).items():
            if name not in raw:
                raw[name] = Raw(n, None)
                lines.append(f"{name} = {n}")
    return raw, lines


def _size_names(program: A.Program, size: str) -> dict[str, int]:
    """The size givens that --size sets: the names bounding the board, the first two-dimensional
    grid (a clue grid, else a variable) whose dimensions are `1..NAME` (or `NAME`), else the
    first whose dimensions are `LO..NAME`. Clues on the corners (`num[0..R, 0..C]`) are thus
    one more each way than the board `--size` gives: two new users took the size so."""
    m = re.fullmatch(r"\s*(\d+)\s*(?:[x×]\s*(\d+))?\s*", size)
    if m is None:
        raise PuzzleError(f"--size takes ROWSxCOLS or N, not `{size}`", help="e.g. --size 10x10")
    wanted = (int(m[1]), int(m[2] or m[1]))
    if min(wanted) < 1:
        raise PuzzleError(f"--size {size}: a board has at least one row and one column", help="e.g. --size 10x10")
    givens = {s.name for s in program.statements if isinstance(s, A.Given)}
    grids = [s for s in program.statements if isinstance(s, A.Given) and s.type.optional and len(s.dims) == 2]
    grids += [s for s in program.statements if isinstance(s, A.Var) and len(s.dims) == 2]
    bounded = [(st, names) for st in grids if all(names := [_bound_name(d, givens) for d in st.dims])]
    board = next((x for x in bounded if all(lo == 1 for _, lo in x[1])), bounded[0] if bounded else None)
    if board is not None:
        st, names = board
        out: dict[str, int] = {}
        for (name, lo), n in zip(names, wanted):  # type: ignore[misc]
            if out.get(name, lo + n - 1) != lo + n - 1:
                raise PuzzleError(f"--size {size}: both sides of `{st.name}` are `{name}`, so the board is square")
            if lo + n - 1 < 1:
                raise PuzzleError(f"--size {size} makes `{name}` = {lo + n - 1}, and `{st.name}` no board",
                                  help=f"`{st.name}` runs from {lo}: give a larger size")
            out[name] = lo + n - 1
        return out
    raise PuzzleError("--size finds no two-dimensional grid sized by givens in these rules",
                      help="leave --size out where the rules fix the sizes (`[1..9, 1..9]`); "
                           "else set them with --set NAME=VALUE")


def _bound_name(d: A.Expr, givens: set[str]) -> tuple[str, int] | None:
    """(NAME, LO) for a dimension `NAME` (LO 1, a count) or `LO..NAME` with a literal LO."""
    if isinstance(d, A.Name) and d.id in givens:
        return d.id, 1
    if isinstance(d, A.Range) and isinstance(d.hi, A.Name) and d.hi.id in givens and isinstance(d.lo, A.IntLit):
        return d.hi.id, d.lo.value
    return None


def _clue_decls(decls: dict[str, A.Given], req: Request, raw: dict[str, Raw]) -> dict[str, A.Given]:
    optional = {n: d for n, d in decls.items() if d.dims and d.type.optional and n not in raw}
    names = [n for text in req.clues for n in text.split(",") if n.strip()] or list(optional)
    for n in [*names, *req.keep]:
        if n in req.keep and n in raw:
            raise PuzzleError(f"`{n}` is given with --set, so every puzzle has it as set: it needs no --keep",
                              help="--keep is for clue grids that are filled from each solution and never thinned "
                                   "(counts beside the board, say)")
        if n.strip() not in optional:
            known = ", ".join(optional) or "none"
            raise PuzzleError(f"`{n}` is not a clue grid of these rules (an optional given grid, `given {n}[…]: T?`)",
                              help=f"clue grids: {known}")
    if not names:
        raise PuzzleError("these rules have no clue grid to generate: no optional given grid (`given NAME[…]: T?`)",
                          help="a given grid whose cells may be `?` holds the clues that `generate` fills and removes")
    if all(n.strip() in req.keep for n in names):
        raise PuzzleError("every clue grid is kept (--keep): there is no clue to remove")
    return {n.strip(): optional[n.strip()] for n in names}


def _values_option(texts: tuple[str, ...]) -> dict[str, range]:
    out = {}
    for text in texts:
        m = re.fullmatch(r"\s*([A-Za-z_]\w*)\s*=\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*", text)
        if m is None:
            raise PuzzleError(f"--values takes NAME=LO..HI, not `{text}`", help="e.g. --values NAME=0..9")
        out[m[1]] = range(int(m[2]), int(m[3]) + 1)
    return out


def _open_raw(dims: tuple[range, ...]) -> Raw:
    if not dims:
        return Raw(None, None)
    return Raw([_open_raw(dims[1:]) for _ in dims[0]], None)


def _grid_raw(grid: Grid) -> Raw:
    def build(depth: int, prefix: tuple) -> Raw:
        if depth == len(grid.dims):
            return Raw(grid.cells.get(prefix), None)
        return Raw([build(depth + 1, prefix + (i,)) for i in grid.dims[depth]], None)
    return build(0, ())


def _with_values(givens: dict[str, object], values: dict[str, dict[tuple, object]]) -> dict[str, object]:
    out = dict(givens)
    for name, cells in values.items():
        base = givens[name]
        assert isinstance(base, Grid)
        out[name] = Grid(base.name, base.dims, {**base.cells, **cells}, base.boundary, base.outside)
    return out


def _on_time(deadline: float | None) -> None:
    if deadline is not None and time.perf_counter() >= deadline:
        raise TimeUp()


def _rule_name(label: str | None) -> str:
    return f"“{label}” " if label else ""


def legend_of(d: A.Given) -> dict[str, object]:
    """A given's legend, token to value."""
    return {token: raw_from_ast(v).value for token, v in d.legend or ()}


def token(d: A.Given, v: object, legend: dict[str, object]) -> object:
    """A cell's value as data writes it: its legend token, else the number, name or truth value
    (None stays None: the caller writes it as `?` or null)."""
    if v is None:
        return None
    for t, w in legend.items():
        if w == v and type(w) is type(v) and t.strip():
            return t
    if isinstance(v, Symbol):
        return v.name
    return v
