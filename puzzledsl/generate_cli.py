"""`puzzledsl generate RULES`: the command line of the generic generator (`generate.py`) and
the puzzles it writes, as data files that `puzzledsl solve RULES --data FILE` reads.

Exit codes: 0 every puzzle asked for was made, 1 fewer (none unique within --tries samples),
2 an input error, 3 the time limit passed first (the puzzles made until then are written).
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import sys
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from .cli_support import status_line
from .compile import Rules
from .errors import EXIT_NO_SOLUTION, EXIT_SOLVED, EXIT_TIME_LIMIT, PuzzleError, Span
from .syntax import ast as A
from .values import Grid, plain

ABOUT = "any genre whose clues are given grids: a rule file or a bundled genre (`generate GENRE --size 10x10`)"
DESCRIPTION = """\
`puzzledsl generate RULES …` is short for `puzzledsl generate rules RULES …`.
Unique puzzles of any genre whose clues are given grids, each clue-minimal: without any one of
its clues a puzzle has more than one solution. The clues are the rule file's optional given
grids (`given NAME[..]: T?`). A solution is sampled with random phases, every clue cell is
filled from it where the rules allow a value (the values of an `int` clue: `in LO..HI` after
its type, or --values), then clues are removed in random order while the puzzle stays
unique. Each puzzle is confirmed with the rules as `solve --unique` would before it is
written, as puzzledsl data: `puzzledsl solve RULES --data FILE` reads it.

Where the full clue set of a solution is no puzzle (a clue sits only where the solution's shape
allows one, or the blank board has no solution at all), or an open clue cell on its own says
something (the blank board is then a puzzle of its own, and its solutions are biased to it),
the clue set is sampled with the solution instead (--route joint; --route auto picks it then,
or when ten probes of the first way fail): each clue cell is a decision among its values and
"open", a second solution found is learnt as a clause the next clue set must break, and the
first unique set is thinned.

examples (RULES: a bundled genre's name, see `puzzledsl list`, or a rule file):
  puzzledsl generate RULES --size 10x10 --count 5 --out puzzles-out
  puzzledsl generate RULES --size 10x10 --set "NAME=VALUE" --keep NAME,NAME   (a given set, grids kept whole)
  puzzledsl generate RULES --data regions.txt --count 5   (every puzzle on the file's board)
  puzzledsl generate my-genre.puz --size 9x9 --seed 7 --json
  puzzledsl generate RULES --size 8x8 --route joint --values NAME=1..5   (clues sampled with the solution)
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("rules", type=Path, metavar="RULES",
                   help="the rule file, or a bundled genre by name (see `puzzledsl list`)")
    p.add_argument("--size", metavar="ROWSxCOLS",
                   help="the board (`--size 10x10`, `--size 9`): sets the givens that bound the first grid "
                        "indexed from 1 each way, a clue grid, else a variable grid. Clues on corners "
                        "(`num[0..R, 0..C]`) are one more each way than the board: `--size 4x4` gives R = 4, "
                        "C = 4 and a 5x5 clue grid")
    p.add_argument("--set", dest="settings", action="append", default=[], metavar="NAME=VALUE",
                   help="give a given a value, written as in a data file (`--set NAME=[4, 3, 2, 1]`); repeatable")
    p.add_argument("--data", type=Path, metavar="FILE",
                   help="givens fixed for every puzzle (a board's regions, say), from a file of `NAME = VALUE` "
                        "lines or a JSON object, as `solve --data` reads one; --set overrides a name in it")
    p.add_argument("--option", dest="options", action="append", metavar="NAME=VALUE",
                   help="set a rule option (`option NAME: TYPE = DEFAULT`); repeatable")
    p.add_argument("--clues", action="append", default=[], metavar="NAME[,NAME]",
                   help="the clue grids (default: every optional given grid, `given NAME[…]: T?`)")
    p.add_argument("--keep", action="append", default=[], metavar="NAME[,NAME]",
                   help="clue grids filled from the solution and never thinned (counts every puzzle shows)")
    p.add_argument("--values", action="append", default=[], metavar="NAME=LO..HI",
                   help="the values an `int` clue may take, all of them (its legend's numbers are not added): "
                        "where the rules do not say (`given NAME[…]: int? in LO..HI`), or to try others")
    p.add_argument("--route", choices=("auto", "full", "joint"), default="auto",
                   help="full: fill every clue the sampled solution allows, then thin; joint: sample the clue set "
                        "with the solution (genres where a clue may sit only where the solution allows one, or "
                        "whose blank board has no solution, or where an open clue cell says something); "
                        "auto (default): joint where an open clue cell says something, else full if one of ten "
                        "probes works")
    p.add_argument("--count", type=int, default=1, metavar="N", help="how many puzzles (default 1)")
    p.add_argument("--jobs", type=int, default=1, metavar="J",
                   help="worker processes (default 1); puzzle i comes from the seed and i alone, so any J "
                        "writes the same puzzles")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="make the puzzles on a Dask cluster: its scheduler's address (tcp://HOST:8786), or `local` "
                        "for one on this machine with J worker processes; the same puzzles (needs puzzledsl[dask])")
    p.add_argument("--seed", type=int, default=1, metavar="S",
                   help="random seed (default 1): the same seed, the same puzzles")
    p.add_argument("--grade", type=float, metavar="G",
                   help="aim at this difficulty grade (as `puzzledsl explain` grades, docs/explain.md): of "
                        "--candidates puzzles, keep the one whose grade is closest")
    p.add_argument("--candidates", type=int, default=5, metavar="K",
                   help="with --grade: puzzles made for each one written (default 5)")
    p.add_argument("--tries", type=int, metavar="T",
                   help="solutions sampled for one puzzle before giving up (default 100; 5000 on the joint route, "
                        "whose samples cost one solver call each, unless its model only approximates the rules)")
    p.add_argument("--out", type=Path, metavar="DIR",
                   help="write each puzzle to DIR/RULES-SIZE-SEED-I.txt (default: print them)")
    p.add_argument("--json", action="store_true",
                   help="print one JSON object: the puzzles' givens (the --set and size ones too) and figures; "
                   "`verify` and `solve --data REPORT.json --instance ID` read the report, whose puzzles have "
                   "the ids REPORT-1, REPORT-2, …")
    p.add_argument("--time-limit", type=float, metavar="SECONDS", help="for the whole run (exit 3 when it passes)")
    p.add_argument("--solver", default="cadical195", help="PySAT solver name (default cadical195)")
    p.add_argument("--no-color", action="store_true", help="no colours in error messages")


def data_settings(path: Path) -> list[str]:
    """A data file's assignments as `--set` texts, each value as the file writes it (a JSON
    object's values written as data): the givens every generated puzzle shares."""
    from .syntax.parser import parse_text, read_source
    text = read_source(path)
    if path.suffix.lower() == ".json":
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as err:
            raise PuzzleError(f"{path} is not JSON: {err.msg}", Span(str(path), err.lineno, err.colno)) from err
        if not isinstance(obj, dict):
            raise PuzzleError(f"{path}: the JSON data is an object of givens by name", Span(str(path), 1, 1))
        return [f"{name}={_list_text(value)}" for name, value in obj.items()]
    lines = text.splitlines()
    out = []
    for st in parse_text(text, str(path)):
        if isinstance(st, A.Use):
            continue
        if not isinstance(st, A.Assign):
            raise PuzzleError("--data holds givens only (`NAME = VALUE` lines), not rules", st.span,
                              "give the rules as generate's first argument")
        sp = st.value.span  # the value as written: a text block keeps its lines
        rows = lines[sp.line - 1:sp.end_line]
        rows[-1] = rows[-1][:sp.end_column - 1]  # the end first: on one line the start column stays right
        rows[0] = rows[0][sp.column - 1:]
        out.append(f"{st.name}={chr(10).join(rows)}")
    return out


def _reading(rules: list) -> str:
    """The subject of "… read(s) several clue cells": the rules named, at most three."""
    named = [f"“{r.label}” ({r.span.path}:{r.span.line})" if r.label else f"at {r.span.path}:{r.span.line}"
             for r in rules[:3]] + ([f"{len(rules) - 3} more"] if len(rules) > 3 else [])
    if not named:
        return "some rule instance reads"
    if len(named) == 1:
        return f"an instance of the rule {named[0]} reads"
    return f"instances of the rules {', '.join(named[:-1])} and {named[-1]} read"


def run(args: argparse.Namespace) -> int:
    from .cli_support import parse_options, resolve_bundled
    from .generate import Generator, Request
    args.file = args.rules
    resolve_bundled(args)
    if args.count < 1 or (args.tries is not None and args.tries < 1) or args.candidates < 1 or args.jobs < 1:
        raise PuzzleError("--count, --tries, --candidates and --jobs take a positive number")
    start = time.perf_counter()
    deadline = start + args.time_limit if args.time_limit else None
    settings = tuple(args.settings)
    if args.data is not None:
        given = {t.partition("=")[0].strip() for t in settings}
        settings = tuple(t for t in data_settings(args.data) if t.partition("=")[0] not in given) + settings
    req = Request(args.file, args.size, settings, parse_options(args.options) or {}, tuple(args.clues),
                  tuple(n.strip() for k in args.keep for n in k.split(",") if n.strip()), tuple(args.values),
                  args.solver, args.tries, args.route)
    gen = Generator(req)
    if args.out is not None:
        try:
            args.out.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise PuzzleError(f"cannot create {args.out}: {err.strerror or err}") from err
    task = Task(args.seed, deadline, args.grade, args.candidates)
    one_process = not args.scheduler and (args.jobs <= 1 or args.count <= 1)
    with status_line(args, "preparing…", show=one_process) as status:
        at = [1]  # the puzzle being made (one process makes them in order)
        if status is not None:
            gen.progress = lambda text: status.update(f"puzzle {at[0]} of {args.count}: {text}")
        if not args.scheduler:
            _prepare(gen, deadline)
        made_by = (_on_dask(args.scheduler, gen, task, args.count, args.jobs) if args.scheduler
                   else _in_order(gen, task, args.count, args.jobs))
        made, problem, code = _write_all(args, gen, made_by, status, at)
    seconds = time.perf_counter() - start
    if args.json:
        print(json.dumps({"puzzles": made, "made": len(made), "asked": args.count, "seconds": round(seconds, 3),
                          "error": None if problem is None else _error(problem, code)}))
    else:
        figures = ", ".join(f"{m['clues']}/{m['full']}" for m in made)
        print(f"{len(made)} of {args.count} made in {seconds:.2f} s"
              + (f" (clues kept of those the solution allowed: {figures})" if made else ""), file=sys.stderr)
        if problem:
            print(f"stopped: {problem}", file=sys.stderr)
    return code


def _write_all(args: argparse.Namespace, gen, made_by: Iterable[tuple[int, Made]], status,
               at: list[int]) -> tuple[list[dict], str | None, int]:
    """Each puzzle as it comes: written to --out or printed (the status line paused around it),
    and reported; (the reports, why making stopped, the exit code)."""
    made: list[dict] = []
    for i, (p, grade, failure) in made_by:
        if failure is not None:
            return made, failure[0], failure[1]
        if args.grade is not None and grade is not None and grade != args.grade:
            print(f"note: puzzle {i} grades {grade}, the closest to {args.grade:g} of {args.candidates} made "
                  "(--candidates for more)", file=sys.stderr)
        text = puzzle_text(gen, args.file.stem, args.seed, i, p, grade)
        path = None
        if args.out is not None:
            path = args.out / f"{args.file.stem}-{(args.size or 'gen').replace('×', 'x')}-{args.seed}-{i}.txt"
            path.write_text(text, encoding="utf-8")
        elif not args.json:
            if status is not None:
                status.stop()
            print(text, flush=True)
            if status is not None:
                status.start()
        made.append({"file": str(path) if path else None, "clues": p.clues, "full": p.full, "samples": p.samples,
                     "grade": grade,
                     "seconds": round(p.seconds, 4),
                     "givens": {**set_values(gen.raw, p.givens), **plain_givens(gen.rules, p.givens, gen.decls)}})
        at[0] = i + 1
    return made, None, EXIT_SOLVED


def _prepare(gen, deadline: float | None) -> None:
    """The route chosen and its solver built once, before any worker is forked (each inherits
    them); a warning when the joint route's guarded model is only a relaxation of the rules."""
    from .deadline import TimeUp
    from .generate import NoPuzzle
    try:
        joint = gen.prepare(deadline)
    except (NoPuzzle, TimeUp):
        return  # each puzzle then says why
    if joint is not None and joint.several:
        print(f"warning: the clue set is sampled with the solution, but {_reading(joint.several_rules)} several clue "
              "cells at once (a count over all clues, say), so the sampled clue sets may break it and few or "
              "none are puzzles; rules in which each instance reads one clue cell suit this (an option of the "
              f"rules may offer such a form); each puzzle gives up after {gen.tries('joint')} samples (--tries)"
              + gen.other_route(),
              file=sys.stderr)


@dataclass(frozen=True)
class Task:
    """What each puzzle is made under; puzzle i's random choices come from (seed, i) alone."""

    seed: int
    deadline: float | None
    aim: float | None
    candidates: int


Made = tuple  # (puzzle or None, grade or None, (problem, exit code) or None)


def _error(problem: str, code: int) -> dict[str, object]:
    """Why generating stopped, as `verify --json` gives a puzzle's error (kind `time_limit` or
    `no_puzzle`, no place in a file; `text` as printed)."""
    from .cli_support import error_object
    return error_object(None, "time_limit" if code == EXIT_TIME_LIMIT else "no_puzzle", problem) | {"text": problem}


def make_one(gen, task: Task, i: int) -> Made:
    """Puzzle i of a task: (the puzzle, its grade, None), or (None, None, (why not, exit code))."""
    from .deadline import TimeUp
    from .generate import NoPuzzle
    try:
        p, grade = _one(gen, random.Random(f"{task.seed}:{i}"), task.deadline, task.aim, task.candidates)
    except NoPuzzle as err:
        return None, None, (str(err), EXIT_NO_SOLUTION)
    except TimeUp:
        return None, None, ("the time limit passed", EXIT_TIME_LIMIT)
    return p, grade, None


def _in_order(gen, task: Task, count: int, jobs: int) -> Iterator[tuple[int, Made]]:
    """Puzzles 1..count in order, made in `jobs` worker processes (forked: each inherits the
    compiled blank puzzle) and handed on as soon as every one before them is there."""
    if jobs <= 1 or count <= 1:
        for i in range(1, count + 1):
            yield i, make_one(gen, task, i)
        return
    from .workers import run_pool

    def died(i: int, exitcode: int | None) -> tuple[int, Made]:
        return i, (None, None, (f"a worker process died (exit code {exitcode}) making puzzle {i}", EXIT_NO_SOLUTION))

    yield from _by_index(run_pool(list(range(1, count + 1)), jobs, _no_setup, None,
                                  lambda i: (i, make_one(gen, task, i)), died))


def _by_index(made: Iterable[tuple[int, Made]]) -> Iterator[tuple[int, Made]]:
    """Puzzles numbered 1, 2, … that come in any order, handed on in order as soon as each
    one before them is there."""
    waiting: dict[int, Made] = {}
    nxt = 1
    for i, result in made:
        waiting[i] = result
        while nxt in waiting:
            yield nxt, waiting.pop(nxt)
            nxt += 1


def _no_setup(_: object) -> None:
    """Forked workers start with everything they need."""


def _on_dask(address: str, gen, task: Task, count: int, jobs: int) -> Iterator[tuple[int, Made]]:
    """Puzzles 1..count in order, made on a Dask cluster: each worker process compiles the blank
    puzzle once (the parsed rules are sent along, so it needs no files) and makes what it is given.
    The deadline travels as the seconds left, a worker's clock being its own."""
    from .cluster import DaskSession
    with DaskSession(address, jobs) as session:
        left = None if task.deadline is None else task.deadline - time.perf_counter()
        futures = [session.submit(dask_puzzle, gen.req, gen.rules, task, left, i, name=f"generate-{i}")
                   for i in range(1, count + 1)]
        index = {f.key: i for i, f in enumerate(futures, 1)}

        def arrived() -> Iterator[tuple[int, Made]]:
            for fut, value, failure in session.results(futures):
                i = index[fut.key]
                if isinstance(failure, PuzzleError):
                    raise failure
                yield i, value if failure is None else (None, None, (f"puzzle {i} was lost on the cluster: "
                                                                     f"{type(failure).__name__}: {failure}",
                                                                     EXIT_NO_SOLUTION))
        yield from _by_index(arrived())


_GENERATORS: dict[str, object] = {}  # a Dask worker's generators, one per request


def dask_puzzle(req, rules, task: Task, left: float | None, i: int) -> Made:
    """Puzzle i on a Dask worker (`generate RULES --scheduler`)."""
    from .generate import Generator
    key = repr(req)
    gen = _GENERATORS.get(key)
    if gen is None:
        gen = _GENERATORS[key] = Generator(req, rules)
    deadline = None if left is None else time.perf_counter() + left
    _quiet_unsendable()
    made = make_one(gen, Task(task.seed, deadline, task.aim, task.candidates), i)
    if made[2] is not None:  # a search cut short leaves solver objects in cycles: free them on this
        gc.collect()         # thread, which made them (some may not be dropped on another)
    return made


def _quiet_unsendable() -> None:
    """A pseudo-Boolean encoder's objects (pindakaas, Rust) can only be freed on the thread that
    made them; the few a time limit strands are freed by the worker's event loop, which then
    leaves them allocated and reports it on stderr. That report says nothing to the user."""
    hook = sys.unraisablehook
    if getattr(hook, "quiet_unsendable", False):
        return

    def quiet(args) -> None:  # type: ignore[no-untyped-def]
        if not (isinstance(args.exc_value, RuntimeError) and "is unsendable" in str(args.exc_value)):
            hook(args)
    quiet.quiet_unsendable = True  # type: ignore[attr-defined]
    sys.unraisablehook = quiet


def _one(gen, rng: random.Random, deadline: float | None, aim: float | None, candidates: int):
    """A puzzle, and its grade when one is aimed at: the closest of `candidates` puzzles (the
    first made that grades exactly as asked ends the search)."""
    if aim is None:
        return gen.puzzle(rng, deadline), None
    best = None
    for _ in range(candidates):
        p = gen.puzzle(rng, deadline)
        grade = gen.grade(p.givens, deadline)
        if grade is not None and (best is None or abs(grade - aim) < abs(best[1] - aim)):
            best = (p, grade)
        if best is not None and best[1] == aim:
            break
    if best is None:
        from .deadline import TimeUp
        raise TimeUp()
    return best


# ------------------------------------------------------------------ the puzzle as data


def puzzle_text(gen, stem: str, seed: int, i: int, p, grade: float | None) -> str:
    """Puzzle i as `generate` writes it: a title line that says how it was made, then its data."""
    clues = f"{p.clues} clue" + ("" if p.clues == 1 else "s")
    title = (f"{gen.blank.title or stem}, generated by puzzledsl (seed {seed}, puzzle {i}): {clues}"
             + ("" if grade is None else f", grade {grade}"))
    return data_text(gen.rules, p.givens, gen.decls, gen.setting_lines, title)


def data_text(rules: Rules, givens: dict[str, object], names, settings: list[str], title: str) -> str:
    """The puzzle as puzzledsl assignments: the settings asked for, then every clue grid (two
    dimensions as a text block when every token is one word, else nested lists)."""
    lines = [f"# {title}", *settings]
    for d in rules.program.statements:
        if not isinstance(d, A.Given) or d.name not in names:
            continue
        lines.append(f"{d.name} = {_grid_text(d, givens[d.name])}")  # type: ignore[arg-type]
    return "\n".join(lines) + "\n"


def _grid_text(d: A.Given, grid: Grid) -> str:
    from .generate import legend_of, token
    legend = legend_of(d)
    unknown = next((t for t, w in legend.items() if w is None and t.strip() and len(t) == 1), None)
    if not legend:
        unknown = "?"
    nested = grid.nested(lambda v: token(d, v, legend))
    words = [str(x) for row in (nested if len(grid.dims) == 2 else []) for x in row if x is not None]
    if len(grid.dims) == 2 and unknown is not None and " " not in legend \
            and all(w and not any(c.isspace() or c in "\"[]," for c in w) for w in words):
        rows = [" ".join(unknown if x is None else str(x) for x in row) for row in nested]  # type: ignore[union-attr]
        return '"""\n' + "\n".join(rows) + '\n"""'
    return _list_text(nested)


def _list_text(x: object) -> str:
    if isinstance(x, list):
        return "[" + ", ".join(_list_text(y) for y in x) + "]"
    if x is None:
        return "?"
    if isinstance(x, bool):
        return "true" if x else "false"
    if isinstance(x, str):
        return json.dumps(x)
    return str(x)


def set_values(names: Iterable[str], givens: dict[str, object]) -> dict[str, object]:
    """The givens set with --set, as plain values: a puzzle's `givens` in `--json` are then a
    whole data set (`solve --data`, `verify` read the report)."""
    return {n: (g.nested(plain) if isinstance(g := givens[n], Grid) else plain(g)) for n in names if n in givens}


def plain_givens(rules: Rules, givens: dict[str, object], names) -> dict[str, object]:
    """The clue grids as a JSON data file has them (null for an open cell)."""
    from .generate import legend_of, token
    decls = {d.name: d for d in rules.program.statements if isinstance(d, A.Given)}
    out = {}
    for name in names:
        d, grid = decls[name], givens[name]
        legend = legend_of(d)
        out[name] = grid.nested(lambda v, d=d, legend=legend: token(d, v, legend))  # type: ignore[union-attr]
    return out
