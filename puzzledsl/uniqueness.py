"""Deciding uniqueness by the cheapest sound route.

The plain route solves, blocks the solution and solves again. Rules may say more (docs §21):

- `wlog O unless C: keep V or N` is the author's promise that, while C is false, every solution
  turns into one with the options O set, through solutions that each differ from the one before
  only at cells of V that are N in one of the two (the simplest: it shrinks, setting cells to
  N). Then a second solution exists exactly when the stricter rules (O set) have a second one,
  or another solution of the rules differs from the first only where one of them is N (an
  *extension*, or a shrunk form).
  Both searches are much easier than the plain one: the stricter rules propagate more, and
  the extension search has most cells fixed.
- `prefer F` looks for solutions with the options F set first (a search order, nothing more:
  every solution found this way is re-checked against the rules as given). Several `prefer`
  statements are tried in turn, each within a budget of conflicts, before the rules without them.
- Data that names a decision variable is a known solution (or part of one): the search for a
  first solution is skipped, and a known solution that breaks the stricter rules is at once
  shown not unique (the first step of its chain is the second solution).

Every solution reported is checked against the rules as given (solved under assumptions that
fix it), so a wrong promise can cost a verdict but never yields a wrong solution.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

from .backends.base import Backend
from .backends.sat import check_incremental
from .compile import Compiled
from .data import Raw, is_int, kind_of_data, nested_cells
from .deadline import TimeUp, alarm_at
from .errors import DataError, PuzzleError, Span
from .ground import Grounder
from .solve import Mode, Outcome, Progress, blocking_clause, decode, open_backend, solve
from .syntax import ast as A
from .values import EdgeGrid, Grid, IntVarCell, written
from .variants import variant

Values = dict[str, Grid]


@dataclass(frozen=True)
class Search:
    """How to solve: the backend settings of the command line."""

    backend: str = "sat"
    solver: str | None = None
    pb: str | None = None
    card: str | None = None


class Session:
    """One compiled variant with its solver, speaking in grid values rather than literals.
    The variant is compiled and encoded when first used: a verdict that comes early (a known
    solution that shrinks) pays for no other variant, and each opening checks the deadline."""

    def __init__(self, variant: Callable[[], Compiled], search: Search, deadline: float | None = None):
        if search.backend == "sat":
            check_incremental(search.solver, "checking uniqueness")
        self._variant, self._search, self._deadline = variant, search, deadline

    @cached_property
    def compiled(self) -> Compiled:
        if self._deadline is not None and time.perf_counter() >= self._deadline:
            raise TimeUp()
        return self._variant()

    @cached_property
    def backend(self) -> Backend:
        c, s = self.compiled, self._search
        return open_backend(c, s.backend, s.solver, s.pb, s.card, deadline=self._deadline)

    @property
    def opened(self) -> bool:
        return "backend" in self.__dict__

    @property
    def compiled_yet(self) -> bool:
        return "compiled" in self.__dict__

    def solve(self, deadline: float | None, assumptions: list[int] | None = None,
              conflicts: int | None = None) -> bool | None:
        if self.compiled.model.false_rule is not None:
            return False
        if deadline is not None and time.perf_counter() >= deadline:
            return None
        return self.backend.solve(assumptions or [], deadline=deadline, conflicts=conflicts)

    def values(self) -> Values:
        return decode(self.compiled, self.backend.true_vars())

    def fix(self, values: Values) -> list[int] | None:
        """Assumptions that fix every known cell of `values`; None when a value is out of range."""
        return fixing(self.compiled.grids, values)

    def block_last(self) -> None:
        true = self.backend.true_vars()
        self.backend.add_clause(blocking_clause(self.compiled.answer_handles(), true))

    def keep_or(self, name: str, values: Values, neutral: object) -> None:
        """Every cell of `name` that is not `neutral` in `values` stays as it is or becomes `neutral`."""
        grid = self.compiled.grids[name]
        for key, v in values[name].cells.items():
            if v is None or v == neutral:
                continue
            for clause in _one_of(grid.cells[key], (v, neutral)):
                self.backend.add_clause(clause)

    def close(self) -> None:
        if self.opened:
            self.backend.close()


def fixing(grids: dict[str, Grid], values: Values) -> list[int] | None:
    """The literals that give the decision grids `grids` every known cell of `values`; None when
    a value is out of a cell's range."""
    lits: list[int] = []
    for name, known in values.items():
        grid = grids.get(name)
        if grid is None:
            continue
        for key, v in known.cells.items():
            cell = grid.cells.get(key)
            if v is None or cell is None:
                continue
            got = _literals(cell, v)
            if got is None:
                return None
            lits.extend(got)
    return lits


def _literals(cell: object, v: object) -> list[int] | None:
    if isinstance(cell, IntVarCell):
        if not isinstance(v, int) or isinstance(v, bool) or not cell.lo <= v <= cell.hi:
            return None
        if cell.binary:
            return [h if (v - cell.lo) >> i & 1 else -h for i, h in enumerate(cell.handles)]
        return [cell.handles[v - cell.lo]]
    if not isinstance(v, bool):
        return None
    return [cell.h if v else -cell.h]  # type: ignore[attr-defined]


def _one_of(cell: object, allowed: tuple[object, object]) -> list[list[int]]:
    """Clauses saying a cell takes one of two values."""
    if not isinstance(cell, IntVarCell):
        return []  # a Boolean has only two values
    vals = [a for a in allowed if isinstance(a, int) and cell.lo <= a <= cell.hi]
    if not cell.binary:
        return [[-h] for i, h in enumerate(cell.handles) if cell.lo + i not in vals]
    if len(vals) == 1:
        return [[lit] for lit in _literals(cell, vals[0]) or []]
    a, b = (x - cell.lo for x in vals)
    differ = [i for i in range(len(cell.handles)) if (a >> i & 1) != (b >> i & 1)]
    out = [[h if a >> i & 1 else -h] for i, h in enumerate(cell.handles) if i not in differ]
    first = cell.handles[differ[0]]
    for i in differ[1:]:  # the differing bits all follow the first one (as in a, or as in b)
        h = cell.handles[i]
        same = (a >> i & 1) == (a >> differ[0] & 1)
        out += [[-first, h], [first, -h]] if same else [[-first, -h], [first, h]]
    return out


# ------------------------------------------------------------------ the declarations in force


@dataclass(frozen=True)
class Promise:
    options: tuple[str, ...]
    keep: str
    neutral: object
    text: str  # how the verdict names it
    span: Span | None = None  # the `wlog` statement, for an error that says it does not hold


def promise(compiled: Compiled) -> Promise | None:
    """The first `wlog` that applies: its options are off and its `unless` condition is false."""
    for st in compiled.program.statements:
        if not isinstance(st, A.Wlog):
            continue
        names = tuple(n for n, _ in st.options)
        if any(compiled.options.get(n) is not False for n in names):
            continue
        if st.unless is not None and _static(compiled, st.unless):
            continue
        from .data import raw_from_ast
        neutral = raw_from_ast(st.neutral).value
        return Promise(names, st.keep[0], neutral, "wlog " + ", ".join(names), st.span)
    return None


def preferred(compiled: Compiled) -> tuple[tuple[str, ...], ...]:
    """The options of each `prefer` statement that the instance leaves off, in the order the
    statements are written (each is tried in turn, before the rules without them)."""
    out: list[tuple[str, ...]] = []
    for st in compiled.program.statements:
        if isinstance(st, A.Prefer):
            names = tuple(n for n, _ in st.options if compiled.options.get(n) is False)
            if names and not (st.unless is not None and _static(compiled, st.unless)):
                out.append(names)
    return tuple(out)


PREFER_BUDGET = 100_000
"""Conflicts a search under a `prefer` may take before the next one is tried: a preference
is a search order, so one whose search drags must not hold back the rest."""

DEFERRED_AT = 0.9
"""Where a time limit is set, the share of the time left that the search for a second solution
of the stricter rules may take before the `prefer` variants not compiled yet are searched (each
within DEFERRED_BUDGET conflicts), so that a verdict the limit cuts short still says what they
prove (`Outcome.established`). Earlier, they would cost more than they save on the unique
puzzles (the stricter search, stopped and resumed, also takes a different course: up to 1.4
times the conflicts on 8 real boards, BENCHMARKS.md)."""

DEFERRED_BUDGET = 5_000
"""Conflicts each of those may take. A preferred variant whose options propagate well (`fill`)
refutes a second solution in a few hundred; one that drags (a search aid) is no fact worth the
time left."""


def _static(compiled: Compiled, e: A.Expr) -> bool:
    g = Grounder(compiled.program, compiled.givens, compiled.symbols)
    g.frozen = True
    try:
        return bool(g.ev(e, {}))
    finally:
        g.release()


def known_values(compiled: Compiled, raw: dict[str, Raw]) -> Values:
    """Known solution data (nested lists of values) as grids shaped like the variables."""
    out: Values = {}
    for name, r in raw.items():
        grid = compiled.grids.get(name)
        if grid is None:
            continue
        vals = grid.empty_like()
        if isinstance(grid, EdgeGrid):
            _fill_edges(vals, grid, r, name)
        else:
            _fill(vals, grid, nested_cells(r, len(grid.dims)), (), name)
        out[name] = vals
    return out


def _fill_edges(vals: EdgeGrid, grid: EdgeGrid, r: Raw, name: str) -> None:
    """An edge grid's known solution: its chosen edges, `[[p, q], …]` as `solve --json` writes
    them (each edge by its two cells); every other edge is not chosen."""
    def plain(x: Raw) -> object:
        return [plain(y) for y in x.value] if isinstance(x.value, list) else x.value

    if not isinstance(r.value, list):
        raise DataError(f"the known solution for `{name}` lists its chosen edges, each by its two cells "
                        f"(`[[[1, 1], [1, 2]], …]`), not {kind_of_data(r.value)}", r.span)
    vals.cells = dict.fromkeys(grid.cells, False)
    for item in r.value:
        edge = plain(item)
        cells = [tuple(c) for c in edge] if isinstance(edge, list) and len(edge) == 2 and all(
            isinstance(c, list) and all(type(x) is int for x in c) for c in edge) else None
        if cells is None or cells[0] + cells[1] not in grid.cells:
            raise DataError(f"`{name}` has no edge {written(edge)}", item.span or r.span,
                            "an edge is written by its two neighbouring cells, `[[1, 1], [1, 2]]`")
        vals.cells[cells[0] + cells[1]] = vals.cells[cells[1] + cells[0]] = True


def _fill(vals: Grid, grid: Grid, r: Raw, prefix: tuple[int, ...], name: str) -> None:
    depth = len(prefix)
    if depth == len(grid.dims):
        v = r.value
        vals.cells[prefix] = _token_value(v, grid.cells.get(prefix), name, r.span) if isinstance(v, str) else v
        return
    items = r.value
    dim = grid.dims[depth]
    if not isinstance(items, list) or len(items) != len(dim):
        found = (f", found {len(items)}" if isinstance(items, list) else
                 f", found {kind_of_data(items)}" if depth == 0 else "")
        raise DataError(f"the known solution for `{name}` has the wrong shape: expected {len(dim)} entries"
                        + (f" at depth {depth + 1}" if depth else "") + found, r.span,
                        "a grid is a text block of rows, rows as strings, or nested lists, one list deep per "
                        "index (`[[true, false], [false, true]]`)")
    for i, item in zip(dim, items):
        _fill(vals, grid, item, prefix + (i,), name)


def _token_value(v: str, cell: object, name: str, span: Span | None) -> object:
    """A cell of a known solution written as text (a text block's token): `?` or `-` for a cell
    not known, a number, or `true`/`false` (`1`/`0`) for a Boolean."""
    if v in ("?", "-"):
        return None
    if isinstance(cell, IntVarCell):
        if is_int(v):
            return int(v)
        raise DataError(f"`{v}` is not a value of `{name}`", span,
                        f"a cell of `{name}` holds a number ({cell.lo}..{cell.hi}), or `?` where it is not known")
    truth = {"true": True, "false": False, "1": True, "0": False}.get(v)
    if truth is None:
        raise DataError(f"`{v}` is not a value of `{name}`", span,
                        f"a cell of `{name}` is `true` or `false` (`1` or `0` in a text block), or `?` where it "
                        "is not known")
    return truth


# ------------------------------------------------------------------ the routes


def decide(compiled: Compiled, search: Search = Search(), time_limit: float | None = None,
           known: dict[str, Raw] | None = None, progress: Progress | None = None,
           explain: bool = True) -> Outcome:
    """Uniqueness of a compiled puzzle by the cheapest sound route its rules allow. `explain`: with
    no solution, name the clashing rules (`Mode.explain`; a verdict alone does not need them)."""
    return _decide(compiled, search, time_limit, known, first_only=False, progress=progress, explain=explain)


def first_solution(compiled: Compiled, search: Search = Search(), time_limit: float | None = None,
                   progress: Progress | None = None) -> Outcome:
    """A first solution by the route's first step: the `prefer` and `wlog` options set first,
    each solution found checked against the rules as given. Where the stricter rules hold of
    the published solutions (every cell used, say), the solver propagates far more with them:
    contest boards of lines that may leave cells empty were solved in a second this way, and not
    in 10 s from the rules as given (BENCHMARKS.md). A known solution in the data is the first
    solution, checked as `decide` checks it: a wrong one is an input error, never passed over."""
    return _decide(compiled, search, time_limit, None, first_only=True, progress=progress)


def _decide(compiled: Compiled, search: Search, time_limit: float | None, known: dict[str, Raw] | None,
            first_only: bool, progress: Progress | None = None, explain: bool = True) -> Outcome:
    """The route, or the plain search (with `progress`) where the rules declare no options to
    route by and no solution is known."""
    start = time.perf_counter()
    deadline = start + time_limit if time_limit else None
    origin = compiled.origin
    if known is None and origin is not None:
        known = origin.known()
    w = promise(compiled) if origin is not None else None
    prefer = preferred(compiled) if origin is not None else ()
    if (w is None and not prefer and not known) or compiled.model.false_rule is not None:
        # (a rule the givens alone break: the plain search says so, no route needs to run)
        return solve(compiled, search.backend, search.solver, Mode(unique=not first_only, explain=explain), time_limit,
                     progress, pb=search.pb, card=search.card)
    out = Outcome("unknown", backend=search.backend)
    sessions: list[Session] = []
    try:
        with alarm_at(deadline):  # compiling and encoding the variants do not watch the clock
            _route(compiled, search, w, prefer, known_values(compiled, known or {}), deadline, out, sessions,
                   first_only, progress or _quiet)
    except TimeUp:
        out.timed_out = True
    except DataError as err:
        if err.span is None and known:  # a wrong known solution that no rule names: point at it
            err.span = next(iter(known.values())).span
        raise
    finally:
        for s in sessions:
            if s.opened:
                out.backend = s.backend.name  # as the plain search names it (`sat:cadical195`)
            for k, v in (s.backend.stats() if s.opened else {}).items():
                out.stats[k] = out.stats.get(k, 0) + v
            s.close()
    out.timings = {"encode": 0.0, "solve": time.perf_counter() - start}
    return out


def _quiet(what: str, step: int) -> None:
    pass


def _route(compiled: Compiled, search: Search, w: Promise | None, prefer: tuple[tuple[str, ...], ...],
           known: Values, deadline: float | None, out: Outcome, sessions: list[Session],
           first_only: bool = False, progress: Progress = _quiet) -> None:
    assert compiled.origin is not None

    def open_(variant: Callable[[], Compiled]) -> Session:
        s = Session(variant, search, deadline)
        sessions.append(s)
        return s

    def preferring(options: tuple[str, ...]) -> Session:
        return open_(lambda: variant(strict.compiled, {o: "true" for o in options}))

    given = open_(lambda: compiled)  # the rules as given: checks every solution
    strict = open_(lambda: variant(compiled, {o: "true" for o in w.options})) if w else given  # type: ignore
    fast = {preferring(p): p for p in prefer}  # each `prefer`, in order: a search order only
    order = [*fast, strict]
    how = w.text if w else "rules as given"

    def solve(s: Session, assumptions: list[int] | None = None) -> bool | None:
        """`s.solve`, where a preferred variant's search that outruns its budget counts as
        "nothing found there" (None only for the deadline)."""
        res = s.solve(deadline, assumptions, PREFER_BUDGET if s in fast else None)
        if res is None and s in fast and not (deadline is not None and time.perf_counter() >= deadline):
            return False
        return res

    def options_of(s: Session) -> str:
        """` with a, b`: the options a variant sets, promised and preferred."""
        options = dict.fromkeys(o for o in (*(w.options if w and s is not given else ()), *fast.get(s, ())) if o)
        return f" with {', '.join(options)}" if options else ""

    # 1. a first solution of the strict rules, or the known one (checked against the rules as given)
    if known:
        progress("a solution that completes the known one", 1)
        first = _known(given, known, deadline, out)
        if first is None:
            return
        if first_only:
            out.route = "the known solution, checked against the rules as given"
    else:
        first = None
        for s in order:  # the last one, the strict rules, searches without a budget
            progress("a first solution" + options_of(s), 1)
            res = solve(s)
            if res is None:
                out.timed_out = True
                return
            if res:
                first = s.values()
                if s is not given and not _holds(given, first, deadline, out):
                    return
                if first_only:
                    out.route = f"a first solution{options_of(s)}, checked against the rules as given"
                break
        if first is None:
            out.status, out.count, out.unique, out.count_complete = "unsat", 0, False, True
            out.route = f"no solution with {how}" + (": none without them either (wlog)" if w else "")
            return
    out.status = "sat"
    out.solutions.append(first)
    if first_only:
        return

    # 2. an extension of the first solution under the rules as given (cheap: most cells fixed).
    # A known solution goes here before the strict rules see it: if it breaks them, its shrunk
    # form is such an extension, and none found proves it strict (under the promise).
    if w is not None:
        ext, given = given, open_(lambda: compiled)  # the clauses added here hold for this search only
        progress(f"another solution that keeps every `{w.keep}` of the first or sets it to {w.neutral}", 2)
        res = ext.solve(deadline, ext.fix(first))
        if res is None:
            out.timed_out = True
            return
        ext.block_last()
        ext.keep_or(w.keep, first, w.neutral)
        res = ext.solve(deadline)
        if res is None:
            out.timed_out = True
            return
        which = "known solution" if known else "first"
        if res:
            _second(out, ext.values(), f"{how}: another solution keeps every `{w.keep}` of the "
                                         f"{which} or sets it to {w.neutral}")
            return
        out.established.append(f"no other solution keeps every `{w.keep}` of the {which} or sets it to {w.neutral}")

    # 3. a second solution of the strict rules, the preferred options first where step 1 already
    # compiled them. Compiling them only to look for a second filled solution costs more, on the
    # unique puzzles, than it saves on the others (BENCHMARKS.md): the others wait until most of
    # the time left has gone (DEFERRED_AT).
    primed: set[Session] = set()

    def second(s: Session, budget: int | None, until: float | None = deadline) -> str:
        """Look for a second solution of `s`: "found" (reported in `out`, or the deadline came
        while checking it), "none", or "budget" when `budget` conflicts ran out, or the clock
        reached `until`, before the deadline."""
        progress("a second solution" + options_of(s), 3)
        if s not in primed:
            primed.add(s)
            lits = s.fix(first)
            res = solve(s, lits) if lits is not None else False
            if res is None:
                raise TimeUp()
            if res:
                s.block_last()
                s.backend.focus()  # on a unique puzzle, the search that follows is a refutation
            elif s is strict and w is not None:
                raise PuzzleError(f"`{w.text}` does not hold for this puzzle: its first solution breaks "
                                  f"{', '.join(w.options)}, yet no other solution differs from it only where one "
                                  f"of the two is {written(w.neutral)} (the first step of the promised chain)",
                                  w.span, "the promise is argued in a comment beside the `wlog` statement "
                                  "(docs/language.md §21); test it on small boards against a brute-force count")
        res = s.solve(until, None, budget)
        if res is None:
            if deadline is not None and time.perf_counter() >= deadline:
                raise TimeUp()
            return "budget"
        if not res:
            return "none"
        found = s.values()
        if s is given or _holds(given, found, deadline, out):
            _second(out, found, f"{how}: a second solution" + (f" with {', '.join(fast[s])}" if s in fast else ""))
        return "found"

    later = [s for s in fast if not s.compiled_yet]
    for s in order:
        if s in later:
            continue
        if s is strict and later and deadline is not None:
            now = time.perf_counter()
            res = second(s, None, now + DEFERRED_AT * (deadline - now))
        else:
            res = second(s, PREFER_BUDGET if s in fast else None)
        if res == "budget" and s is strict:
            for t in later:
                res = second(t, DEFERRED_BUDGET)
                if res == "found":
                    return
                if res == "none":
                    out.established.append(f"no second solution{options_of(t)}")
            later = []
            res = second(s, None)
        if res == "found":
            return
        if res == "none" and s in fast:
            out.established.append(f"no second solution{options_of(s)}")
    out.unique, out.count, out.count_complete = True, 1, True
    first_is = "the known solution" if known else "the first"
    out.route = (f"{how}: no second solution with {', '.join(w.options)}, none extends {first_is}"
                 if w else f"{how}: no second solution" + (" other than the known one" if known else ""))


def _second(out: Outcome, second: Values, route: str) -> None:
    out.solutions.append(second)
    out.unique, out.count, out.count_complete = False, 2, False
    out.route = route


def _holds(given: Session, values: Values, deadline: float | None, out: Outcome) -> bool:
    """Whether a solution of a variant satisfies the rules as given (else the promise is wrong)."""
    lits = given.fix(values)
    res = given.solve(deadline, lits) if lits is not None else False
    if res is None:
        out.timed_out = True
        return False
    if not res:
        raise PuzzleError("a solution found under a `wlog` or `prefer` option breaks the rules as given: "
                          "those options must only add rules")
    return True


def _known(given: Session, known: Values, deadline: float | None, out: Outcome) -> Values | None:
    """The known solution, completed by the solver where the data leaves cells open."""
    lits = given.fix(known)
    res = given.solve(deadline, lits) if lits is not None else False
    if res is None:
        out.timed_out = True
        return None
    if not res:
        rules, at = _which_rules(given.compiled, known)
        raise DataError("the known solution (in the data, or from --solution) breaks the rules"
                        + (rules or _which_cells(given, known, deadline)), at,
                        "check it, or leave it out to search for a solution")
    return given.values()


CELLS_BUDGET = 2.0  # seconds for naming the cells of a wrong known solution; then it stays unnamed
CELLS_SHOWN = 6


def _which_cells(given: Session, known: Values, deadline: float | None) -> str:
    """Where a known solution goes wrong when no rule can be read over it (it gives some decision
    grids, the rules read others): a value out of range, else the cells that no solution has
    with every other cell as given (one cheap solver call each: the rest is fixed), else a set
    that no solution has together and none of whose cells is spare. Empty when the budget runs
    out first."""
    cells: list[tuple[str, list[int]]] = []
    for name, values in known.items():
        grid = given.compiled.grids.get(name)
        for key, v in values.cells.items() if grid is not None else ():
            cell = grid.cells.get(key)
            if v is None or cell is None:
                continue
            shown = f"`{name}[{', '.join(map(str, key))}] = {written(v)}`"
            lits = _literals(cell, v)
            if lits is None:
                span = f"{cell.lo}..{cell.hi}" if isinstance(cell, IntVarCell) else "its values"
                return f": {shown} is outside {span}"
            cells.append((shown, lits))
    stop = time.perf_counter() + CELLS_BUDGET
    stop = min(stop, deadline) if deadline is not None else stop

    def holds(chosen: list[tuple[str, list[int]]]) -> bool | None:
        return given.solve(stop, [lit for _, lits in chosen for lit in lits])

    alone = []
    for item in cells:
        res = holds([c for c in cells if c is not item])
        if res is None:
            return ""
        if res:
            alone.append(item)
    if alone:
        return (": with its other cells as given, no solution has "
                + _listed([shown for shown, _ in alone], " or "))
    core = list(cells)  # several wrong cells, each keeping another wrong: drop every spare one
    for item in cells:
        trial = [c for c in core if c is not item]
        res = holds(trial)
        if res is None:
            return ""
        if res is False:
            core = trial
    if not core:
        return ""
    return (": no solution has " if len(core) == 1 else ": no solution has all of ") + _listed(
        [shown for shown, _ in core], ", ")


def _listed(items: list[str], sep: str) -> str:
    more = f" and {len(items) - CELLS_SHOWN} more" if len(items) > CELLS_SHOWN else ""
    return sep.join(items[:CELLS_SHOWN]) + more


def _which_rules(compiled: Compiled, known: Values) -> tuple[str, Span | None]:
    """(`: rule “…” at FILE:LINE:COL, …`, the first one's place): the rules a known solution
    breaks, where it gives every cell they read (read again over it as the re-check does);
    ("", None) when that cannot tell. The error points at the first, as `--json` reads it."""
    from .evaluate import Unreadable, broken_rules
    try:
        broken, _ = broken_rules(compiled.program, compiled.givens, dict(known), compiled.symbols)
    except Unreadable:
        return "", None
    if not broken:
        return "", None
    at = next((st.body.span for st in compiled.program.statements
               if isinstance(st, A.Rule) and f" at {st.body.span}" in broken[0]), None)
    return ": " + "; ".join(broken[:3]) + (f" and {len(broken) - 3} more" if len(broken) > 3 else ""), at
