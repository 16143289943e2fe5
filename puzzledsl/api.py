"""The public Python API (`import puzzledsl`): rules from a file, a bundled genre or a string;
data from a file or plain Python values; answers as plain Python values and rich boards.

It is a thin layer over the pipeline (`compile.py`, `solve.py`, `planning/`, `render.py`),
so a notebook and the command line give the same answers.
"""

from __future__ import annotations

import io
import os
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from . import bundled
from .compile import Compiled, compile_rules, load_rules
from .compile import Rules as _Rules
from .data import Raw, data_source, load_data_file, meant_for, raw_from_plain
from .errors import PuzzleError
from .report import option_word
from .syntax import ast as A

if TYPE_CHECKING:
    from rich.console import Console, ConsoleOptions, RenderResult

    from .planning.search import PlanResult
    from .solve import Mode, Outcome
    from .values import Grid

DataSource = str | os.PathLike[str] | Mapping[str, object]


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
         settings: Settings = Settings(), **givens: object) -> Puzzle:
    """`rules(source).bind(...)` in one call."""
    return rules(source).bind(data, format=format, instance=instance, options=options, settings=settings,
                              **givens)


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
             options: Mapping[str, object] | None = None, settings: Settings = Settings(),
             **givens: object) -> Puzzle:
        """Bind data: a data file (any format `puzzledsl formats` lists; `format`, `instance`
        as on the command line), a mapping of given names to plain values, keyword givens,
        or nothing (an instance file holds its data). `options` sets the rules' `option`s."""
        raw: dict[str, Raw] = {}
        strict = True
        if isinstance(data, Mapping):
            givens = {**data, **givens}
        elif data is not None:
            source = data_source(data) if isinstance(data, str) else Path(data)  # a str may be a puzzle URL
            if isinstance(source, Path):
                source = bundled.resolve(source, "instance")
            raw = load_data_file(source, self.formats, format, instance, self._rules.program.files)
            meant_for(raw, self._rules.program.files)
            strict = "__importer__" not in raw
        for name in givens:
            if name not in self.givens:
                from .ground_common import unknown_name
                err = unknown_name(name, None, self.givens)  # type: ignore[arg-type]
                raise PuzzleError(f"`{name}` is not a given of these rules", None, err.help)
        raw.update({k: raw_from_plain(v, None) for k, v in givens.items()})
        text_options = {k: option_word(v) for k, v in (options or {}).items()}
        return Puzzle(compile_rules(self._rules, raw, strict, text_options), settings)


class Puzzle:
    """Rules with their data, grounded: ask for a solution, uniqueness, a count, the
    determined cells, or (for puzzles played over time) a plan."""

    def __init__(self, compiled: Compiled, settings: Settings = Settings()):
        self.compiled = compiled
        self.settings = settings

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
        return Puzzle(self.compiled, replace(self.settings, **settings))

    # -- answers
    def solve(self) -> Solution | None:
        """A solution, or None when there is none."""
        out = self._run()
        return Solution(self.compiled, out.solutions[0]) if out.solutions else None

    def unique(self) -> bool:
        """Whether there is exactly one solution (False also when there is none)."""
        from .solve import Mode
        out = self._run(Mode(unique=True))
        if out.unique is None:
            raise TimeLimitReached("uniqueness undecided within the time limit")
        return out.unique

    def count(self, limit: int | None = None) -> int:
        """The number of solutions, counting at most `limit` (None: all of them)."""
        from .solve import Mode
        if limit is not None and limit < 1:
            raise ValueError("limit must be at least 1 (None counts every solution)")
        out = self._run(Mode(count=limit or 0))
        if out.timed_out:
            raise TimeLimitReached("counting stopped at the time limit", out.count or len(out.solutions))
        return out.count or 0

    def solutions(self, limit: int | None = None) -> Iterator[Solution]:
        """Solutions one by one as the solver finds them (at most `limit`); each differs
        from the ones before in some decision variable."""
        from .enumeration import Enumeration
        if self.compiled.plan is not None:
            raise PuzzleError("these rules describe a puzzle played over time: use plan()")
        s = self.settings
        found = Enumeration(self.compiled, s.backend, s.solver, s.pb, s.card, s.time_limit, limit)
        for grids in found:
            yield Solution(self.compiled, grids)
        if found.timed_out:
            raise TimeLimitReached("more solutions may exist: the time limit passed", found.count)

    def determined(self) -> Solution | None:
        """The cells equal in every solution; the others are None. None when there is no solution."""
        from .solve import Mode
        out = self._run(Mode(determined=True))
        if out.determined is None:
            return None
        return Solution(self.compiled, out.determined)

    def plan(self) -> Plan | None:
        """The shortest (or cheapest, under `horizon minimize cost`) plan, None when there is
        none; TimeLimitReached (with the best plan so far as `partial`) when not proven in time."""
        from .planning.search import search
        p = self.compiled.plan
        if p is None:
            raise PuzzleError("these rules have no `state`: use solve(), unique(), count()")
        s = self.settings
        res = search(p, s.solver or "cadical195", s.time_limit, backend=s.backend)
        if res.status == "unsat":
            return None
        plan = Plan(self.compiled, res) if res.status == "sat" else None
        if res.status == "unknown" or (res.timed_out and p.horizon.kind == "minimize"):
            raise TimeLimitReached("no plan proven within the time limit", plan)
        return plan

    def _run(self, mode: Mode | None = None) -> Outcome:
        from .solve import Mode, solve
        if self.compiled.plan is not None:
            raise PuzzleError("these rules describe a puzzle played over time: use plan()")
        s = self.settings
        out = solve(self.compiled, s.backend, s.solver, mode or Mode(), s.time_limit, None, s.pb, s.card)
        if out.status == "unknown":
            raise TimeLimitReached("no answer within the time limit")
        from .evaluate import recheck
        recheck(self.compiled, out.solutions)  # read the rules again over every solution returned
        return out


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
