"""The front half of the pipeline: parse → check → bind givens → ground.

`compile_file` returns a `Compiled` value; solving and rendering only read it.
"""

from __future__ import annotations

import gc
import os
import re
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from . import limits
from .check import check_program
from .data import Binder, Raw, load_data_file, meant_for, own_instance, raw_assigned, raw_from_ast, raw_from_plain
from .errors import PuzzleError, Span, did_you_mean
from .ground import Grounder
from .limits import deep_recursion
from .model import Model
from .planning.problem import PlanProblem, ground_plan, mentions, state_names
from .syntax import ast as A
from .syntax.parser import parse_program
from .values import Grid, IntVarCell, Symbol, binding_text, range_text


@dataclass(frozen=True)
class ShowSpec:
    name: str
    glyphs: dict[object, tuple[str, str | None]]
    clues: tuple[tuple[str, str], ...]  # (given name, side)
    marked: tuple[str, ...]
    over: str | None = None
    lines: str | None = None  # an edge grid drawn through the cells
    # 2-D givens drawn between neighbouring cells: (name, glyphs, axis); axis 1 when the given has
    # one column fewer than the board (between (r, c) and (r, c + 1)), 0 when it has one row fewer,
    # CORNERS when it has one row and one column more (every corner of the cells) or fewer (the inner ones)
    between: tuple[tuple[str, dict[object, tuple[str, str | None]], int], ...] = ()
    regions: str | None = None  # a grid (or a define of a cell) whose differing neighbours get a wall between


CORNERS = 2
"""The `axis` of a `between` given drawn on the corners of the cells (clues on the grid's vertices)."""


@dataclass
class Compiled:
    title: str | None
    program: A.Program
    model: Model
    givens: dict[str, object]
    grids: dict[str, Grid]
    shows: list[ShowSpec]
    timings: dict[str, float] = field(default_factory=dict)
    symbols: dict[str, Symbol] = field(default_factory=dict)
    options: dict[str, object] = field(default_factory=dict)  # every `option` and its value in this run
    plan: PlanProblem | None = None  # a puzzle played over time (`state`, `action`, `goal`)
    answer: tuple[str, ...] | None = None  # `answer x, y`: what solutions are compared on; None = all
    origin: Origin | None = None  # what it was compiled from, to compile variants (`wlog`, `prefer`)
    options_set: tuple[str, ...] = ()  # the options given a value for this run (command line, data), not defaulted

    def answer_handles(self) -> list[int]:
        """The decision variables two solutions are compared on: those behind the `answer`
        variables' cells, or every decision variable when the rules declare no `answer`."""
        if self.answer is None:
            return self.model.decision_vars
        out: set[int] = set()
        for name in self.answer:
            for cell in self.grids[name].cells.values():
                out.update(cell.handles if isinstance(cell, IntVarCell) else (cell.h,))
        return sorted(out)

    def values_of(self, spec: ShowSpec, solution: dict[str, Grid]) -> Grid:
        """What a `show` draws for one solution: a variable's values, or a view (a define
        evaluated at every cell of a grid, with the decision variables at their solved values)."""
        if spec.over is None:
            return solution[spec.name]
        g = Grounder(self.program, self.givens, self.symbols)
        g.vars = dict(solution)
        g.frozen = True
        base = solution.get(spec.over) or self.givens[spec.over]  # a variable's shape, or a given grid's
        view = Grid(spec.name, base.dims)
        d = g.defines[spec.name]
        try:
            for key in base.keys():
                try:
                    view.cells[key] = g.call_define(d, key, d.span)
                except PuzzleError:
                    # undetermined cells (--determined) leave the view unknown where it reads them; with
                    # every cell solved, the error is the view's own (an index past the edge): reported
                    if not _partial(solution):
                        raise
                    view.cells[key] = None
        finally:
            g.release()
        return view


def _partial(solution: dict[str, Grid]) -> bool:
    """Some cell of the solution is undetermined (a `--determined` board)."""
    return any(v is None for grid in solution.values() for v in grid.cells.values())


@dataclass(frozen=True)
class Origin:
    rules: Rules
    raw: dict[str, Raw]
    strict: bool
    options: dict[str, str]
    implied: bool = True
    # the grounder after the last rule, kept where the rules have variants (`wlog`, `prefer`):
    # a variant goes on from it (`variants.py`)
    grounder: Grounder | None = field(default=None, compare=False, repr=False)

    def located(self) -> Compiled:
        """The same puzzle with every rule kept whole: no rule's forced values folded into the
        rules grounded after it (explanations must see each rule on its own)."""
        return compile_rules(self.rules, self.raw, self.strict, self.options, self.implied, located=True)

    def known(self) -> dict[str, Raw]:
        """Data that names decision variables: a known solution (or part of one), from the data or
        written in the puzzle file itself (a `black = ...` after the clues: it used to be ignored)."""
        statements = self.rules.program.statements
        names = {s.name for s in statements if isinstance(s, A.Var)}
        written = {s.name: raw_assigned(s) for s in statements if isinstance(s, A.Assign) and s.name in names}
        return written | {k: v for k, v in self.raw.items() if k in names}


@dataclass(frozen=True)
class Rules:
    """A parsed and checked program, reusable across many data sets."""

    program: A.Program
    symbols: dict[str, Symbol]
    parse_seconds: float


_rules_cache: dict[tuple[str, int, limits.Limits], tuple[Rules, tuple]] = {}


def parse_and_check(path: Path) -> tuple[A.Program, dict[str, Symbol]]:
    rules = load_rules(path)
    return rules.program, rules.symbols


def load_rules(path: Path) -> Rules:
    """Parse and check a file (and what it uses); cached per file and modification time,
    so a batch over many data files parses the rules once."""
    try:
        real, status = _real(path)
        key = (real, status.st_mtime_ns, limits.current())
    except (OSError, RuntimeError, ValueError):  # no such file, a symlink loop: parse_program says which
        key = None
    if key is not None and key in _rules_cache:
        rules, stamps = _rules_cache[key]
        if _stamps(rules.program, key[0]) == stamps:
            return rules
    t0 = time.perf_counter()
    with deep_recursion():  # the checker recurses once per nesting level (bounded by the parser)
        program = parse_program(Path(path))
        rules = Rules(program, check_program(program), time.perf_counter() - t0)
    if key is not None:
        _rules_cache[key] = (rules, _stamps(program, key[0]))
    return rules


_real_paths: dict[str, tuple[str, tuple[int, int]]] = {}  # a path as given: its real path, and that file


def _real(path: Path | str) -> tuple[str, os.stat_result]:
    """A file's real path (symbolic links resolved) and its status. Resolving walks every folder
    on the path (30 us, on each puzzle of a batch that names its rules); the answer is kept while
    the path still names the same file (device and inode)."""
    name = os.fspath(path)
    status = os.stat(name)
    known = _real_paths.get(name)
    if known is not None and known[1] == (status.st_dev, status.st_ino):
        return known[0], status
    real = os.path.realpath(name, strict=True)
    _real_paths[name] = (real, (status.st_dev, status.st_ino))
    return real, status


def _stamps(program: A.Program, real: str) -> tuple:
    """The modification times of every file the rules were read from, and of the using file's
    folder (a rule file added beside it changes what `use` finds): a used genre file edited in a
    running Python session is read again, not served from the cache."""
    out = []
    for f in [*program.files, os.path.dirname(real)]:
        try:
            out.append(os.stat(f).st_mtime_ns)
        except OSError:
            out.append(None)
    return tuple(out)


def compile_file(path: Path, data: Path | None = None, fmt: str | None = None,
                 instance: str | None = None, options: dict[str, str] | None = None,
                 solution: Path | None = None, implied: bool = True, located: bool = False) -> Compiled:
    """Compile a rule or instance file, with an optional --data file and --solution file.
    `located`: every rule instance keeps its binding and its own meaning (`puzzledsl/explain/`)."""
    rules = load_rules(path)
    raw: dict[str, Raw] = {}
    strict = True
    if data is not None:
        raw = load_data_file(data, rule_formats(rules), fmt, instance, rules.program.files)
        meant_for(raw, rules.program.files)
        strict = "__importer__" not in raw
    else:
        own_instance(instance, rules.program.files)
    if solution is not None:
        raw = with_solution(rules, raw, solution)
    return compile_rules(rules, raw, strict, options, implied, located)


def rule_formats(rules: Rules) -> list[str]:
    """The data formats a rule file's `format` line names."""
    return [n for s in rules.program.statements if isinstance(s, A.Format) for n, _ in s.names]


def with_solution(rules: Rules, raw: dict[str, Raw], solution: Path, what: str = "solution") -> dict[str, Raw]:
    """`raw` with the known solution read from a file: the entries that name decision variables
    (`pair = [[...]]`, a BWINF file's `Solved field:`, a janko entry's solution), in any format
    the rules read. Uniqueness then starts from it (`uniqueness.decide`). `what`: the file's
    part, for the error (`explain --progress` reads a partial solution the same way)."""
    found = load_data_file(solution, rule_formats(rules), None, None)
    program = rules.program
    names = {s.name for s in program.statements if isinstance(s, A.Var)}
    known = {k: v for k, v in found.items() if k in names}
    if not known:
        answer = [n for s in program.statements if isinstance(s, A.Answer) for n, _ in s.names] or sorted(names)
        givens = {s.name for s in program.statements if isinstance(s, A.Given)}
        stray = next((k for k in found if k not in givens and not k.startswith("__")), None)
        meant = did_you_mean(stray, answer) if stray is not None else None
        raise PuzzleError(f"the {what} file gives no value to a decision variable"
                          + (f": `{stray}` is none of them" if stray is not None else ""),
                          Span(str(solution), 1, 1),
                          (f"{meant} " if meant else "") + "its answer: " + (", ".join(f"`{n}`" for n in answer)
                                                                            or "none"))
    return {**raw, **known}


def check_data(path: Path, options: dict[str, str] | None = None) -> Compiled | None:
    """Bind the data written in a rule or instance file (its assignments and defaults) as
    `solve` would, so that `check` without --data finds what `solve` would reject (ragged rows,
    bad tokens; a given an instance file leaves without a value). A file that gives every given
    a value is grounded too (an index out of range), and returned compiled. A rule file's
    givens without a value are left for a data file; its rules that read no data are grounded
    alone, so that one that never holds is reported."""
    rules = load_rules(path)
    program = rules.program
    merged = {s.name: raw_assigned(s) for s in program.statements if isinstance(s, A.Assign)}
    instance = bool(merged)  # it writes its data (`name = value`): all of it, as `solve` reads it
    merged.update(option_raw(program, options or {}))
    g = Grounder(program, {}, rules.symbols)
    try:
        bound = Binder(program, g).bind(merged, True, require_all=instance)
        never_holds(g, program)
    finally:
        g.release()
    if all(s.name in bound for s in program.statements if isinstance(s, A.Given)):
        return compile_rules(rules, {}, True, options)
    return None


def never_holds(grounder: Grounder, program: A.Program) -> None:
    """Report a rule that reads no given and no decision variable (`rule "never": 1 == 2`) and
    is false: it is known without data, and no data could give these rules a solution."""
    names = {s.name for s in program.statements if isinstance(s, A.Given | A.Var)}
    memo: dict[str, bool] = {}
    for st in program.statements:
        if not isinstance(st, A.Rule) or mentions(st.body, names, grounder.defines, memo):
            continue
        grounder.assert_expr(st.body, {}, st)
        false = grounder.model.false_rule
        if false is not None:
            what = f"rule “{false.label}”" if false.label else "this rule"
            where = f" (where {binding_text(false.binding)})" if false.binding else ""
            raise PuzzleError(f"{what} never holds{where}", false.span,
                              "it reads no given and no decision variable, so no data can give these rules "
                              "a solution: correct it or leave it out")


def compile_givens(rules: Rules, givens: dict[str, object], options: dict[str, str] | None = None,
                   implied: bool = True, located: bool = False) -> Compiled:
    """Compile with givens from an importer (plain Python values); unused names are ignored."""
    return compile_rules(rules, {k: raw_from_plain(v, None) for k, v in givens.items()}, False, options, implied,
                         located)


def option_raw(program: A.Program, options: dict[str, str]) -> dict[str, Raw]:
    """`--option NAME=VALUE` settings as data: `true`/`false`, integers, `?`, or a symbol name."""
    declared = {s.name: s for s in program.statements if isinstance(s, A.Given) and s.option}
    givens = {s.name for s in program.statements if isinstance(s, A.Given) and not s.option}
    out: dict[str, Raw] = {}
    for name, text in options.items():
        if name not in declared:
            known = ", ".join(sorted(declared)) or "none"
            if name in givens:  # a new user's `--option N=5` for a given with a default
                raise PuzzleError(f"`{name}` is a given, not an option of these rules", None,
                                  f"set a given with data: `{name} = {text.strip()}` in a data file (`--data`) or in "
                                  f"an instance file that `use`s the rules; or declare it `option {name}: …` "
                                  f"(options: {known})")
            meant = did_you_mean(name, sorted(declared))
            raise PuzzleError(f"`{name}` is not an option of these rules", None,
                              (f"{meant} " if meant else "") + f"options: {known}")
        word = text.strip()
        value: object = {"true": True, "false": False, "?": None}.get(word, word)
        if isinstance(value, str) and re.fullmatch(r"-?[0-9]+", value):
            value = int(value)
        out[name] = raw_from_plain(value, None)
    return out


KEEP_ALL = False  # a one-shot process (the command line): what is allocated lives until it exits


@contextmanager
def no_gc():
    """Grounding and encoding allocate many small objects that all stay alive; Python's cyclic
    collector would scan them again and again for nothing (measured: ~20% of compile time).
    At the end they are moved to the oldest generation without a scan (`gc.freeze` then
    `gc.unfreeze`, two list splices), so the young collection that would follow at once does
    not walk the whole model (2 ms of a 34 ms compile + solve, BENCHMARKS.md). The caller's
    young objects are collected first, so that none of its garbage is moved along, where only
    a full collection would find it. Nothing is moved where someone else froze objects (a
    pre-forking server): unfreezing would thaw theirs. In a one-shot process (`KEEP_ALL`) what was allocated stays
    frozen until it exits (a 40x57 board: 8.0 -> 6.6 s of CPU). Compiling itself leaves no
    reference cycles (tests/test_compile_memory.py)."""
    was = gc.isenabled()
    move = was and not KEEP_ALL and gc.get_freeze_count() == 0
    if move:
        gc.collect(1)
    gc.disable()
    try:
        yield
    finally:
        if KEEP_ALL:
            gc.freeze()
        elif move:
            gc.freeze()
            gc.unfreeze()
        if was:
            gc.enable()


def compile_rules(rules: Rules, raw: dict[str, Raw], strict: bool = True,
                  options: dict[str, str] | None = None, implied: bool = True, located: bool = False) -> Compiled:
    """`implied=False` leaves out the rules marked `implied` (which must not change the solutions)."""
    with no_gc():
        return _compile_rules(rules, raw, strict, options or {}, implied, located)


def _compile_rules(rules: Rules, raw: dict[str, Raw], strict: bool, options: dict[str, str],
                   implied: bool, located: bool = False) -> Compiled:
    t1 = time.perf_counter()
    program = rules.program
    if "__error__" in raw:  # a puzzle of a multi-puzzle file that does not read (data.load_instances)
        raise raw["__error__"].value  # type: ignore[misc]
    merged = {s.name: raw_assigned(s) for s in program.statements if isinstance(s, A.Assign)}
    merged.update(raw)
    merged.update(option_raw(program, options))
    grounder = Grounder(program, {}, rules.symbols, located)
    Binder(program, grounder).bind(merged, strict)
    t2 = time.perf_counter()
    grounder.declare_vars()
    plan = None
    skip: set[A.Rule] = set()
    states = state_names(program)
    if states:
        grounder.frozen = True
        plan = ground_plan(grounder, program)
        memo: dict[str, bool] = {}
        skip = {s for s in program.statements if isinstance(s, A.Rule)
                and mentions(s.body, states, grounder.defines, memo)}
    if not implied:
        skip |= {s for s in program.statements if isinstance(s, A.Rule) and s.implied}
    grounded = grounder.ground_rules(skip)
    if grounded.model.false_rule is not None and grounded.model.units and not located:
        # Values forced by earlier rules were folded into this one: it may hold on its own.
        # Ground again keeping every rule whole, so the unsat search names all that clash.
        return _compile_rules(rules, raw, strict, options, implied, located=True)  # as Origin.located
    kept = None
    if plan is None:  # a plan grounds its steps later, with this grounder
        grounder.release()
        if any(isinstance(s, A.Wlog | A.Prefer) for s in program.statements) and grounder.can_fork():
            kept = grounder
    t3 = time.perf_counter()
    title = next((s.text for s in program.statements if isinstance(s, A.Title)), None)
    boards = {**grounded.givens, **grounded.grids}  # what a `show` may draw
    shows = [_show_spec(s, grounded.givens, boards) for s in program.statements if isinstance(s, A.Show)]
    if not shows:
        shows = [ShowSpec(n, {}, (), ()) for n in (plan.templates if plan is not None else grounded.grids)]
    chosen = {s.name: grounded.givens.get(s.name) for s in program.statements if isinstance(s, A.Given) and s.option}
    answers = [n for s in program.statements if isinstance(s, A.Answer) for n, _ in s.names]
    return Compiled(title, program, grounded.model, grounded.givens, grounded.grids, shows,
                    {"parse": rules.parse_seconds, "data": t2 - t1, "ground": t3 - t2}, rules.symbols, chosen, plan,
                    tuple(dict.fromkeys(answers)) if answers else None,
                    Origin(rules, raw, strict, options, implied, kept), tuple(n for n in chosen if n in merged))


def _show_spec(s: A.Show, givens: dict[str, object], grids: dict[str, object]) -> ShowSpec:
    between = []
    board = grids.get(s.over or s.name)
    for name, glyphs, span in s.between:
        g = givens.get(name)
        dims = board.dims if isinstance(board, Grid) else ()
        if not isinstance(g, Grid) or len(dims) != 2:
            raise PuzzleError(f"`between {name}` needs a 2-D board and a 2-D given", span)
        rows, cols = dims
        more = (len(g.dims[0]) - len(rows), len(g.dims[1]) - len(cols)) if len(g.dims) == 2 else None
        corners = more in ((1, 1), (-1, -1))  # every corner of the cells, or the inner ones
        axis = (1 if g.dims == (rows, cols[:-1]) else 0 if g.dims == (rows[:-1], cols) else
                CORNERS if corners else None)
        if axis is None:
            raise PuzzleError(f"`{name}[{g.shape()}]` does not lie between the cells of "
                              f"`{board.name}[{board.shape()}]`", span,
                              "a given drawn between the columns has one column fewer than the board; "
                              "between the rows, one row fewer; on the corners of the cells, one row and "
                              "one column more (or fewer, the inner corners only)")
        if axis == CORNERS and s.regions is not None:
            raise PuzzleError(f"`between {name}` on the corners of the cells cannot be drawn with `regions`",
                              span, "draw the regions in a `show` of their own")
        between.append((name, _glyphs(glyphs), axis))
    for name, side, span in s.clues:
        g = givens.get(name)
        dims = board.dims if isinstance(board, Grid) else ()
        if isinstance(g, Grid) and len(dims) == 2 and len(g.dims) == 1:
            along = dims[0] if side in ("left", "right") else dims[1]
            if g.dims[0] != along:
                what = "rows" if side in ("left", "right") else "columns"
                raise PuzzleError(f"`clue {name}` at {side} matches the board's {what} by index, but `{name}` is "
                                  f"indexed {range_text(g.dims[0])} and the {what} of `{board.name}` "
                                  f"{range_text(along)}", span,
                                  f"declare `{name}[{range_text(along)}]`, one clue per {what[:-1]}")
    regions = s.regions[0] if s.regions is not None else None
    g = grids.get(regions) if regions is not None else None
    if isinstance(g, Grid) and isinstance(board, Grid) and g.dims != board.dims:
        raise PuzzleError(f"`{regions}[{g.shape()}]` does not have the shape of `{board.name}[{board.shape()}]`",
                          s.regions[1], "`regions G` compares the values of neighbouring cells of the board in G: "
                          "G has one value per cell")
    return ShowSpec(s.name, _glyphs(s.glyphs), tuple((n, side) for n, side, _ in s.clues),
                    tuple(n for n, _ in s.marked), s.over, s.lines[0] if s.lines is not None else None,
                    tuple(between), regions)


def _glyphs(glyphs: tuple[A.Glyph, ...]) -> dict[object, tuple[str, str | None]]:
    """Keyed by `glyph_key`: `1` and `true` are two keys (in a Python dict they would be one)."""
    return {glyph_key(raw_from_ast(g.value).value): (g.text, g.style) for g in glyphs}


def glyph_key(v: object) -> object:
    """A value as a key of a `show`'s glyphs: a condition apart from the numbers 1 and 0."""
    return ("bool", v) if isinstance(v, bool) else v
