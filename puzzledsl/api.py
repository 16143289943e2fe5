"""The public Python API (`import puzzledsl`): rules from a file, a bundled genre or a string;
data from a file or plain Python values; answers as plain Python values and rich boards.

It is a thin layer over the pipeline (`compile.py`, `solve.py`, `uniqueness.py`, `planning/`,
`render.py`), and the command line's `solve` is built on it (`load`, then `Puzzle.outcome`,
`enumeration` or `plan_search`), so a notebook and the command line give the same answers,
by the same routes.
"""

from __future__ import annotations

import io
import os
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from . import bundled
from .compile import Compiled, compile_rules, load_rules, with_solution
from .compile import Rules as _Rules
from .data import InlineData, Raw, data_source, load_data_file, meant_for, own_instance, raw_from_plain
from .errors import PuzzleError, did_you_mean
from .report import option_word
from .syntax import ast as A
from .values import binding_text

if TYPE_CHECKING:
    from collections.abc import Callable

    from rich.console import Console, ConsoleOptions, RenderResult

    from .enumeration import Enumeration
    from .explain import Explanation
    from .planning.search import PlanResult
    from .solve import Mode, Outcome, Progress
    from .values import Grid

DataSource = str | os.PathLike[str] | Mapping[str, object]
KnownSource = str | os.PathLike[str] | Mapping[str, object]


class TimeLimitReached(Exception):
    """The time limit passed before the answer was complete; `partial` holds what was
    found (a count so far, a plan not proven optimal), or None."""

    def __init__(self, message: str, partial: object = None):
        super().__init__(message)
        self.partial = partial


@dataclass(frozen=True)
class Settings:
    """How a puzzle is solved: backend `sat` or `z3`, a PySAT solver name, encodings, a time limit."""

    backend: str = "sat"
    solver: str | None = None
    pb: str | None = None
    card: str | None = None
    time_limit: float | None = None


def rules(source: str | os.PathLike[str]) -> Rules:
    """Rules from a file path, a bundled genre or instance name (`"GENRE"`,
    `"GENRE/INSTANCE.puz"`), or rules text (a string with a line break)."""
    if isinstance(source, str) and "\n" in source:
        return rules_from_text(source)
    return Rules(load_rules(bundled.resolve(Path(source), "genre")), str(source))


def rules_from_text(text: str, name: str = "<rules>") -> Rules:
    """Rules written in a string; `use "genre"` finds bundled rules (and files in the
    current folder). Errors point into the text under `name`."""
    from .check import check_program
    from .syntax.parser import parse_program

    t0 = time.perf_counter()
    program = parse_program(Path(name), text)
    return Rules(_Rules(program, check_program(program), time.perf_counter() - t0), name)


def load(source: str | os.PathLike[str], data: DataSource | None = None, *, format: str | None = None,
         instance: str | None = None, options: Mapping[str, object] | None = None,
         solution: KnownSource | None = None, implied: bool = True, settings: Settings = Settings(),
         **givens: object) -> Puzzle:
    """`rules(source).bind(...)` in one call (the command line's `solve` starts here too). A
    bundled instance that is a data file (`"GENRE/x.txt"`) brings its genre's rules."""
    pair = bundled.data_instance(source) if data is None and "\n" not in str(source) else None
    if pair is not None:
        source, data = pair
    return rules(source).bind(data, format=format, instance=instance, options=options, solution=solution,
                              implied=implied, settings=settings, **givens)


class Rules:
    """Parsed and checked rules, reusable for many data sets."""

    def __init__(self, parsed: _Rules, name: str):
        self._rules = parsed
        self.name = name
        stmts = parsed.program.statements
        self.title: str | None = next((s.text for s in stmts if isinstance(s, A.Title)), None)
        self.formats: list[str] = [n for s in stmts if isinstance(s, A.Format) for n, _ in s.names]
        self.givens: list[str] = [s.name for s in stmts if isinstance(s, A.Given) and not s.option]
        self.options: dict[str, object] = {o.name: o.default for o in bundled.options_of(stmts)}

    def __repr__(self) -> str:
        return f"<puzzledsl.Rules {self.title or self.name!r}>"

    def bind(self, data: DataSource | None = None, *, format: str | None = None, instance: str | None = None,
             options: Mapping[str, object] | None = None, solution: KnownSource | None = None,
             implied: bool = True, settings: Settings = Settings(), **givens: object) -> Puzzle:
        """Bind data: a data file (any format `puzzledsl formats` lists; `format`, `instance`
        as on the command line), a mapping of given names to plain values, keyword givens,
        or nothing (an instance file holds its data). `options` sets the rules' `option`s;
        `solution` is a known solution (a data file, or decision variables to plain values) that
        uniqueness starts from; `implied=False` leaves out the rules marked `implied`."""
        raw, strict = self._data(data, format, instance)
        if isinstance(data, Mapping):
            givens = {**data, **givens}
        for name in givens:
            if name not in self.givens:
                from .ground_common import unknown_name
                err = unknown_name(name, None, self.givens)  # type: ignore[arg-type]
                raise PuzzleError(f"`{name}` is not a given of these rules", None, err.help)
        raw.update({k: raw_from_plain(v, None) for k, v in givens.items()})
        if solution is not None:
            raw = self._known(raw, solution)
        text_options = {k: option_word(v) for k, v in (options or {}).items()}
        settings = _settings(settings)
        from .deadline import TimeUp, alarm_at
        deadline = time.perf_counter() + settings.time_limit if settings.time_limit else None
        try:
            with alarm_at(deadline):  # the limit bounds grounding here, then each question's search
                compiled = compile_rules(self._rules, raw, strict, text_options, implied)
        except TimeUp:
            if deadline is None:  # an enclosing limit's (the command line's own): it reports it
                raise
            raise TimeLimitReached("the time limit passed before the puzzle was ready to solve") from None
        return Puzzle(compiled, settings)

    def generate(self, size: str | None = None, *, count: int = 1, seed: int = 1,
                 options: Mapping[str, object] | None = None, set: Mapping[str, object] | None = None,
                 clues: tuple[str, ...] = (), keep: tuple[str, ...] = (),
                 values: Mapping[str, tuple[int, int]] | None = None, grade: float | None = None,
                 candidates: int = 5, time_limit: float | None = None) -> Iterator[Generated]:
        """Unique, clue-minimal puzzles of these rules, one after another, as `puzzledsl generate
        RULES` makes them (the same seed gives the same puzzles; `docs/cli.md`): `size` as
        `"10x10"`, `set` givens by value, `clues` the clue grids to fill (default: every optional
        given grid), `keep` grids kept whole, `values` an int clue's range (`{"num": (1, 5)}`),
        `grade` a grade to aim at among `candidates` puzzles. A puzzle that cannot be made ends
        the iteration with `PuzzleError` (none unique within the tries) or `TimeLimitReached`."""
        import json

        from .errors import EXIT_TIME_LIMIT
        from .generate import Generator, Request
        from .generate_cli import Task, make_one, plain_givens, puzzle_text, set_values

        req = Request(Path(self.name), size,
                      tuple(f"{k}={json.dumps(v)}" for k, v in (set or {}).items()),
                      {k: option_word(v) for k, v in (options or {}).items()}, tuple(clues), tuple(keep),
                      tuple(f"{k}={lo}..{hi}" for k, (lo, hi) in (values or {}).items()))
        gen = Generator(req, self._rules)
        deadline = time.perf_counter() + time_limit if time_limit else None
        task = Task(seed, deadline, grade, candidates)
        stem = Path(self.name).stem
        for i in range(1, count + 1):
            made, got, failure = make_one(gen, task, i)
            if failure is not None:
                if failure[1] == EXIT_TIME_LIMIT:
                    raise TimeLimitReached(f"puzzle {i}: {failure[0]}")
                raise PuzzleError(f"puzzle {i}: {failure[0]}")
            givens = {**set_values(gen.raw, made.givens), **plain_givens(gen.rules, made.givens, gen.decls)}
            text = puzzle_text(gen, stem, seed, i, made, got)
            yield Generated(self.bind(givens, options=options), text, made.clues, made.full, got)

    def _data(self, data: DataSource | None, format: str | None, instance: str | None) -> tuple[dict[str, Raw], bool]:
        """A data file read as `--data` reads it, and whether its names must all be givens
        (an importer's output may name more)."""
        if data is None or isinstance(data, Mapping):
            own_instance(instance, self._rules.program.files)
            return {}, True
        # a str may be a puzzle URL (the command line has made it InlineData already)
        source = data_source(data) if isinstance(data, str) else data if isinstance(data, InlineData) else Path(data)
        if isinstance(source, Path):
            source = bundled.resolve(source, "instance")
        raw = load_data_file(source, self.formats, format, instance, self._rules.program.files)
        meant_for(raw, self._rules.program.files)
        return raw, "__importer__" not in raw

    def _known(self, raw: dict[str, Raw], solution: KnownSource) -> dict[str, Raw]:
        """`raw` with a known solution: read from a file as `--solution` reads it, or given as values."""
        if not isinstance(solution, Mapping):
            return with_solution(self._rules, raw, Path(solution))
        decision = {s.name for s in self._rules.program.statements if isinstance(s, A.Var)}
        for name in solution:
            if name not in decision:
                raise PuzzleError(f"`{name}` is not a decision variable of these rules", None,
                                  "decision variables: " + (", ".join(sorted(decision)) or "none"))
        return {**raw, **{k: raw_from_plain(v, None) for k, v in solution.items()}}


@dataclass(frozen=True)
class Generated:
    """A puzzle made by `Rules.generate`: bound and ready to solve (`puzzle`), its data as
    `puzzledsl generate` writes it (`text`, read back by `solve RULES --data FILE`), its clue
    cells kept and those its solution allowed (`clues`, `full`), and its grade when one was aimed at."""

    puzzle: Puzzle
    text: str
    clues: int
    full: int
    grade: float | None


def _settings(settings: object) -> Settings:
    """`Settings`, or a mapping of its fields (`{"time_limit": 5}`)."""
    if isinstance(settings, Settings):
        return settings
    if isinstance(settings, Mapping):
        fields = set(Settings.__dataclass_fields__)
        wrong = [k for k in settings if k not in fields]
        if wrong:
            raise PuzzleError(f"`{wrong[0]}` is not a setting", None,
                              "settings are " + ", ".join(f"`{f}`" for f in Settings.__dataclass_fields__))
        return Settings(**settings)  # type: ignore[arg-type]
    raise PuzzleError(f"settings= takes puzzledsl.Settings(...) or a dict of its fields, not {type(settings).__name__}")


class Puzzle:
    """Rules with their data, grounded: ask for a solution, uniqueness, a count, the
    determined cells, or (for puzzles played over time) a plan."""

    def __init__(self, compiled: Compiled, settings: Settings = Settings()):
        self.compiled = compiled
        self.settings = _settings(settings)
        self._rechecked: set = set()  # solutions already read again over the rules (one per question is enough)

    def __repr__(self) -> str:
        return f"<puzzledsl.Puzzle {self.title!r}>"

    @property
    def title(self) -> str | None:
        return self.compiled.title

    @property
    def options(self) -> dict[str, object]:
        """Every rule option and the value it has for this puzzle."""
        return {k: bundled.plain(v) for k, v in self.compiled.options.items()}

    @property
    def is_plan(self) -> bool:
        """True for a puzzle played over time (`state`, `action`, `goal`): use `plan()`."""
        return self.compiled.plan is not None

    def using(self, **settings: object) -> Puzzle:
        """The same puzzle solved differently: `using(backend="z3")`, `using(time_limit=5)`."""
        return Puzzle(self.compiled, _settings({**vars(self.settings), **settings}))

    # -- answers as plain values
    def solve(self) -> Solution | None:
        """A solution, or None when there is none."""
        out = self._answer()
        return Solution(self.compiled, out.solutions[0]) if out.solutions else None

    def unique(self) -> bool:
        """Whether there is exactly one solution (False also when there is none)."""
        return self.verdict().unique

    def verdict(self) -> Verdict:
        """Uniqueness with its evidence: the solutions found (a second one when not unique) and
        the route that decided it, the same as `solve --unique` takes (see `Verdict`)."""
        from .solve import Mode
        out = self._answer(Mode(unique=True))
        if out.unique is None:  # `partial`: what the route proved in time (`Outcome.established`)
            raise TimeLimitReached("uniqueness undecided within the time limit"
                                   + (f" (established: {'; '.join(out.established)})" if out.established else ""),
                                   list(out.established))
        return Verdict(out.unique, out.route or PLAIN_ROUTE, [Solution(self.compiled, g) for g in out.solutions])

    def count(self, limit: int | None = None) -> int:
        """The number of solutions, counting at most `limit` (None: all of them)."""
        from .solve import Mode
        if limit is not None and limit < 1:
            raise ValueError("limit must be at least 1 (None counts every solution)")
        out = self._answer(Mode(count=limit or 0))
        if out.timed_out:
            raise TimeLimitReached("counting stopped at the time limit", out.count or len(out.solutions))
        return out.count or 0

    def solutions(self, limit: int | None = None) -> Iterator[Solution]:
        """Solutions one by one as the solver finds them (at most `limit`); each differs
        from the ones before in the answer (`answer x, y`; every decision variable by default)."""
        found = self.enumeration(limit)
        for grids in found:
            yield Solution(self.compiled, grids)
        if found.timed_out:
            raise TimeLimitReached("more solutions may exist: the time limit passed", found.count)

    def determined(self) -> Solution | None:
        """The cells equal in every solution; the others are None. None when there is no solution."""
        from .solve import Mode
        out = self._answer(Mode(determined=True))
        if out.determined is None:
            return None
        return Solution(self.compiled, out.determined)

    def explain(self, progress: Mapping[str, object] | None = None, *,
                only_next: bool = False) -> Explanation:
        """The step-by-step deductions from the givens (and `progress`: decision variables as
        data, `None`/`?` where open) to the solution, with the grade (`.steps`, `.grade`,
        `.status`: "unique", "not unique", "unsat", "unknown"; docs/explain.md). `only_next`:
        the next step alone. The settings' time limit holds; what was found by then is returned."""
        from .explain import explain
        from .uniqueness import known_values
        if self.compiled.origin is None or self.compiled.plan is not None:
            raise PuzzleError("`explain` covers puzzles without time steps compiled from rules and data")
        located = self.compiled.origin.located()
        for name in progress or {}:
            if name not in located.grids:
                raise PuzzleError(f"`{name}` in the progress is no decision variable of these rules",
                                  help=did_you_mean(name, list(located.grids)) or "decision variables: "
                                  + ", ".join(f"`{n}`" for n in located.grids))
        cells = known_values(located, {k: raw_from_plain(v, None) for k, v in (progress or {}).items()})
        return explain(located, cells, self.settings.time_limit, only_next=only_next)

    def plan(self) -> Plan | None:
        """The shortest (or cheapest, under `horizon minimize cost`) plan, None when there is
        none; TimeLimitReached (with the best plan so far as `partial`) when not proven in time."""
        res = self.plan_search()
        if res.status == "unsat":
            return None
        plan = Plan(self.compiled, res) if res.status == "sat" else None
        if res.status == "unknown" or (res.timed_out and self.compiled.plan.horizon.kind == "minimize"):  # type: ignore[union-attr]
            raise TimeLimitReached("no plan proven within the time limit", plan)
        return plan

    # -- whole results, as the command line reports them
    def outcome(self, mode: Mode | None = None, *, progress: Progress | None = None, proof: Path | None = None,
                recheck: bool = True) -> Outcome:
        """Everything a search found (solutions, verdict, count, route, timings, the solver's
        statistics), with a time limit or Ctrl-C recorded in it rather than raised: what the
        command line reports. `recheck` reads the rules again over every solution returned."""
        from .solve import Mode
        self._not_a_plan()
        out = self._search(mode or Mode(), progress, proof)
        fr = self.compiled.model.false_rule
        if out.status == "unsat" and not out.conflict and fr is not None:  # what the report says of it
            where = f" (where {binding_text(fr.binding)})" if fr.binding else ""
            out.conflict = [(fr.label, f"{fr.place}{where}")]
        if recheck:
            from .evaluate import recheck as read_again
            t = time.perf_counter()
            fresh = [s for s in out.solutions if _solution_key(s) not in self._rechecked]
            done = read_again(self.compiled, fresh)  # 0 for none, or for rules it cannot read
            if done:
                self._rechecked.update(_solution_key(s) for s in fresh)
            out.stats["rechecked"] = len(out.solutions) if done or not fresh else 0
            out.timings["recheck"] = time.perf_counter() - t
        return out

    def json(self, mode: Mode | None = None) -> dict:
        """What `solve --json` prints for this question (`Mode()`: a solution; `Mode(unique=True)`,
        `Mode(count=0)`, `Mode(determined=True)`), as a dict of plain values (`json.dumps` takes it)."""
        from .report import json_object
        from .solve import Mode
        mode = mode or Mode()
        return json_object(self.compiled, self.outcome(mode), mode)

    def enumeration(self, limit: int | None = None) -> Enumeration:
        """Every solution (at most `limit`) as the solver finds them; after the loop it says
        whether the list is complete, or the time limit stopped it (`--json-stream`)."""
        from .enumeration import Enumeration
        self._not_a_plan()
        s = self.settings
        return Enumeration(self.compiled, s.backend, s.solver, s.pb, s.card, s.time_limit, limit)

    def plan_search(self, progress: Callable[[str], None] | None = None) -> PlanResult:
        """The plan search's whole result (the lengths tried, what is proven, statistics), a
        time limit recorded in it rather than raised."""
        from .planning.search import search
        p = self.compiled.plan
        if p is None:
            raise PuzzleError("these rules have no `state`: use solve(), unique(), count()")
        s = self.settings
        return search(p, s.solver or "cadical195", s.time_limit, progress, backend=s.backend)

    def _search(self, mode: Mode, progress: Progress | None, proof: Path | None) -> Outcome:
        """Uniqueness alone by the fastest sound route (`uniqueness.decide`: `wlog`, `prefer`, a
        known solution), and a first solution by its first step where the rules declare such
        options; anything else, and a uniqueness proof (which is about the rules as given), by
        the plain search."""
        from .solve import Mode, solve
        s = self.settings
        if proof is None and s.backend != "cpsat":
            from .uniqueness import Search, decide, first_solution
            if mode == Mode(unique=True):
                return decide(self.compiled, Search(s.backend, s.solver, s.pb, s.card), s.time_limit,
                              progress=progress)
            if mode == Mode():  # the plain search itself where the rules declare no such options
                return first_solution(self.compiled, Search(s.backend, s.solver, s.pb, s.card), s.time_limit,
                                      progress)
        return solve(self.compiled, s.backend, s.solver, mode, s.time_limit, progress, s.pb, s.card, proof=proof)

    def _answer(self, mode: Mode | None = None) -> Outcome:
        """The outcome, rechecked; no answer at all within the time limit is an exception."""
        out = self.outcome(mode)
        if out.status == "unknown":  # for uniqueness, `partial` is what the route proved in time (a list)
            unique = mode is not None and mode.unique
            raise TimeLimitReached("no answer within the time limit", list(out.established) if unique else None)
        return out

    def _not_a_plan(self) -> None:
        if self.compiled.plan is not None:
            raise PuzzleError("these rules describe a puzzle played over time: use plan()")


def _solution_key(solution: dict) -> object:
    """A solution's values as one hashable key (its grids' cells), to re-check it once."""
    try:
        return frozenset((name, frozenset(g.cells.items())) for name, g in solution.items())
    except TypeError:  # a value that cannot be hashed: never taken for one seen before
        return object()


PLAIN_ROUTE = "the plain search (solve, exclude the solution, solve again)"


@dataclass(frozen=True)
class Verdict:
    """Whether the solution is unique, how that was decided, and the evidence: the solution
    (and a second one when not unique; none when there is no solution). `route` names the
    rules' declarations used (`wlog`, `prefer`, a known solution), or the plain search."""

    unique: bool
    route: str
    solutions: list[Solution]

    @property
    def solvable(self) -> bool:
        """Whether there is a solution at all (`unique` is False both with none and with two)."""
        return bool(self.solutions)


class Solution(Mapping[str, object]):
    """One solution: maps every decision variable (and every view `show` draws) to its values
    as nested lists (rows of cells: bools, ints, symbol names; None where undetermined).
    Printing it, or giving it to rich, draws the boards."""

    def __init__(self, compiled: Compiled, grids: dict[str, Grid], other: Solution | None = None):
        from .report import solution_json
        self._compiled = compiled
        self.grids = grids
        self._other = other
        self._values = solution_json(grids, compiled)

    def __getitem__(self, name: str) -> object:
        return self._values[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __eq__(self, other: object) -> bool:
        return dict(self) == dict(other) if isinstance(other, Mapping) else NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<puzzledsl.Solution of {', '.join(self._values)}>"

    def compared_to(self, other: Solution) -> Solution:
        """The same solution drawn with the cells that differ from `other` marked."""
        return Solution(self._compiled, self.grids, other)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        from .render import boards
        other = self._other.grids if self._other is not None else None
        for i, board in enumerate(boards(self._compiled, self.grids, other)):
            if i:
                yield ""
            yield board

    def __str__(self) -> str:
        return render_text(self)

    def _repr_pretty_(self, printer: object, cycle: bool) -> None:
        """IPython shows the boards as text."""
        printer.text(str(self))  # type: ignore[attr-defined]

    def svg(self) -> str:
        """The boards as an SVG document (the cells that differ from `other` marked)."""
        from .svg import document
        return document(self._compiled, self.grids, self._other.grids if self._other is not None else None)

    def _repr_svg_(self) -> str:
        """Jupyter draws the boards as a picture."""
        return self.svg()

    def _repr_html_(self) -> str:
        """Jupyter shows the boards in colour (rich's HTML export, styles inline)."""
        from rich.console import Console
        console = Console(file=io.StringIO(), record=True, width=200, color_system="truecolor",
                          force_terminal=True, highlight=False)
        console.print(self)
        return console.export_html(inline_styles=True, code_format="<pre style=\"line-height:1.2\">{code}</pre>")


def render_text(renderable: object, width: int = 200) -> str:
    """A rich renderable as plain text (no colour), e.g. a board for a log or a test."""
    from rich.console import Console
    buffer = io.StringIO()
    Console(file=buffer, width=width, color_system=None, highlight=False, soft_wrap=True).print(renderable)
    return buffer.getvalue().rstrip("\n")


@dataclass
class Action:
    name: str
    args: list[object]
    text: str


class Plan:
    """A plan: its actions (`name`, plain `args`, `text`), its length and cost, what is proven
    about it, and the boards along the way (`states`, `final`)."""

    def __init__(self, compiled: Compiled, res: PlanResult):
        from .planning.problem import json_value
        from .planning.report import plan_text, state_grids, step_costs
        p = compiled.plan
        assert p is not None
        self.actions = [Action(a.name, [json_value(x) for x in a.args], a.text) for a in res.actions]
        self.text: str = plan_text(res, step_costs(p, res))
        self.moves: int = len(res.actions)
        self.cost: int | None = res.cost
        self.optimal: bool | None = res.optimal
        self.lower_bound: int = res.lower_bound
        self.states = [Solution(compiled, state_grids(p, s)) for s in res.states]
        self.result = res

    @property
    def final(self) -> Solution:
        return self.states[-1]

    def __repr__(self) -> str:
        return f"<puzzledsl.Plan {self.moves} actions{', optimal' if self.optimal else ''}: {self.text}>"

    def __len__(self) -> int:
        return self.moves
