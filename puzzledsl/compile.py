"""The front half of the pipeline: parse → check → bind givens → ground.

`compile_file` returns a `Compiled` value; solving and rendering only read it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from .check import check_program
from .data import Binder, Raw, load_data_file, raw_from_ast
from .errors import PuzzleError
from .ground import Grounder
from .model import Model
from .syntax import ast as A
from .syntax.parser import parse_program
from .values import Grid, Symbol


@dataclass(frozen=True)
class ShowSpec:
    name: str
    glyphs: dict[object, tuple[str, str | None]]
    clues: tuple[tuple[str, str], ...]  # (given name, side)
    marked: tuple[str, ...]


@dataclass
class Compiled:
    title: str | None
    program: A.Program
    model: Model
    givens: dict[str, object]
    grids: dict[str, Grid]
    shows: list[ShowSpec]
    timings: dict[str, float] = field(default_factory=dict)


def parse_and_check(path: Path) -> tuple[A.Program, dict[str, Symbol]]:
    program = parse_program(path)
    symbols = check_program(program)
    return program, symbols


def compile_file(path: Path, data: Path | None = None, fmt: str | None = None,
                 instance: str | None = None) -> Compiled:
    t0 = time.perf_counter()
    program, symbols = parse_and_check(path)
    t1 = time.perf_counter()
    raw: dict[str, Raw] = {s.name: raw_from_ast(s.value) for s in program.statements if isinstance(s, A.Assign)}
    strict = True
    if data is not None:
        formats = [n for s in program.statements if isinstance(s, A.Format) for n, _ in s.names]
        loaded = load_data_file(data, formats, fmt, instance)
        strict = "__importer__" not in loaded
        raw.update(loaded)
    grounder = Grounder(program, {}, symbols)
    Binder(program, grounder).bind(raw, strict)
    t2 = time.perf_counter()
    grounder.declare_vars()
    grounded = grounder.ground_rules()
    t3 = time.perf_counter()
    title = next((s.text for s in program.statements if isinstance(s, A.Title)), None)
    shows = [_show_spec(s, grounded.grids, grounded.givens) for s in program.statements if isinstance(s, A.Show)]
    if not shows:
        shows = [ShowSpec(n, {}, (), ()) for n in grounded.grids]
    return Compiled(title, program, grounded.model, grounded.givens, grounded.grids, shows,
                    {"parse": t1 - t0, "data": t2 - t1, "ground": t3 - t2})


def _show_spec(s: A.Show, grids: dict[str, Grid], givens: dict[str, object]) -> ShowSpec:
    glyphs: dict[object, tuple[str, str | None]] = {}
    for g in s.glyphs:
        glyphs[raw_from_ast(g.value).value] = (g.text, g.style)
    return ShowSpec(s.name, glyphs, tuple((n, side) for n, side, _ in s.clues), tuple(n for n, _ in s.marked))


def require_grid(name: str, grids: dict[str, Grid], span) -> Grid:
    if name not in grids:
        raise PuzzleError(f"`show` names `{name}`, which is not a decision variable", span)
    return grids[name]
