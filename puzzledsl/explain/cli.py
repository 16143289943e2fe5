"""`puzzledsl explain` (its flags are in `cli.py`): what it prints, a board per step or one
JSON object.

Exit codes as for `solve`: 0 explained, 1 no solution, not unique, or progress that breaks the
solution, 2 input error, 3 time limit (the steps found so far are printed).
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import dataclass, field
from pathlib import Path

from ..compile import Compiled
from ..deadline import alarm_at, left
from ..errors import EXIT_NO_SOLUTION, EXIT_SOLVED, EXIT_TIME_LIMIT
from ..render import Board, boards
from ..values import Grid, Symbol, plain
from . import HARD, Explanation, Fact, Step, explain
from .steps import fill

NEW_GLYPH, NEW_STYLE = "*", "bold reverse green"  # a cell this step fixes
USED_GLYPH, USED_STYLE = "+", "bold yellow underline"  # a fixed cell this step uses


def run(args: argparse.Namespace) -> int:
    from ..compile import compile_file

    t0 = time.perf_counter()
    deadline = getattr(args, "deadline", None)
    with alarm_at(deadline):
        compiled = compile_file(args.file, args.data, args.fmt, args.instance, options=args.options, located=True)
    if compiled.plan is not None:
        from ..errors import PuzzleError
        raise PuzzleError("`explain` covers puzzles without time steps (`state`, `action`); "
                          "use `solve --show-steps` for a plan")
    progress, note = progress_of(compiled, args.progress)
    out = explain(compiled, progress, left(deadline), only_next=args.next)
    conflict = None
    if out.status == "unsat" and not out.timed_out:  # no steps to show: say why, as `solve` does
        from ..solve import explain_unsat
        conflict = explain_unsat(compiled, deadline)
    total = time.perf_counter() - t0
    if args.json:
        print(json.dumps(as_json(compiled, out, args.next, note, total, conflict)))
    else:
        print_human(compiled, out, args.next, note, color=not args.no_color, conflict=conflict)
    if out.timed_out:
        return EXIT_TIME_LIMIT
    return EXIT_SOLVED if out.status == "unique" and not out.wrong else EXIT_NO_SOLUTION


def progress_of(compiled: Compiled, path: Path | None) -> tuple[dict[str, Grid], str | None]:
    """The cells `--progress FILE` fixes, or else those the data fixes. Data that fills every
    answer cell is a published solution, not progress: it is left out (the note says so)."""
    from ..compile import with_solution
    from ..uniqueness import known_values

    if path is not None:
        assert compiled.origin is not None
        return known_values(compiled, with_solution(compiled.origin.rules, {}, path, "progress")), None
    known = compiled.origin.known() if compiled.origin is not None else {}
    if not known:
        return {}, None
    values = known_values(compiled, known)
    names = compiled.answer if compiled.answer is not None else list(compiled.grids)
    cells = [(n, k) for n in names for k in compiled.grids[n].cells]
    if cells and all(values.get(n) is not None and values[n].cells.get(k) is not None for n, k in cells):
        return {}, "the data gives a whole solution: explaining from the givens alone"
    return values, None


# ------------------------------------------------------------------ human output


@dataclass
class StepBoard(Board):
    """A board with the cells a step fixes and the cells it uses marked, by glyph and colour."""

    new: set[tuple[int, ...]] = field(default_factory=set)
    used: set[tuple[int, ...]] = field(default_factory=set)

    def cell(self, k: tuple[int, ...]) -> tuple[str, str | None, tuple[int, int, int, int] | None]:
        text, style, sides = super().cell(k)
        if k in self.new:
            return text + NEW_GLYPH, NEW_STYLE, sides
        if k in self.used:
            return text + USED_GLYPH, USED_STYLE, sides
        return text + ("─" if sides and sides[1] else " "), style, sides  # a line runs on through the mark column


def partial(compiled: Compiled, facts: list[Fact]) -> dict[str, Grid]:
    """Every decision grid with the cells of `facts` at their values, the rest open (None)."""
    out = {}
    for name, g in compiled.grids.items():
        vals = g.empty_like()
        vals.cells = dict.fromkeys(g.keys(), None)
        out[name] = vals
    for name in {f.name for f in facts}:
        out[name].cells.update(fill(compiled, name, facts))
    return out


def step_boards(compiled: Compiled, known: list[Fact], step: Step | None) -> list[StepBoard]:
    new = {(f.name, f.key) for f in step.fixed} if step else set()
    used = {(f.name, f.key) for f in step.uses} if step else set()
    out = []
    for b in boards(compiled, partial(compiled, known), partial=True):
        if b.spec.over is not None and not _shows_anything(b):
            continue  # a view that nothing known determines yet: a board of `?` says nothing
        names = _marked_by(compiled, b)
        out.append(StepBoard(b.spec, b.values, b.givens, None, b.lines, b.regions, b.regions_open,
                             new={k for n, k in new if n in names and k in b.values.cells},
                             used={k for n, k in used if n in names and k in b.values.cells}))
    return out


def _marked_by(compiled: Compiled, b: Board) -> set[str]:
    """The decision grids whose fixed cells a board marks: its own, the one a view is drawn over,
    or, for a view over a given (`show cell over clue`), every one, at the cells of the board."""
    over = b.spec.over
    if over is None:
        return {b.spec.name}
    return {over} if over in compiled.grids else set(compiled.grids)


def _shows_anything(b: Board) -> bool:
    """Some cell of the view is known and drawn (a glyph that is not blank)."""
    return any(v is not None and b.glyph(v)[0].strip() for v in b.values.cells.values())


def _on_their_own(steps: list[Step]) -> int:
    """How many of the first steps are `alone`: shown as one block, in their order."""
    n = 0
    while n < len(steps) and steps[n].alone:
        n += 1
    return n


def _by_rule(steps: list[Step]) -> dict[str, list[Fact]]:
    out: dict[str, list[Fact]] = {}
    for s in steps:
        r = s.reasons[0]
        label = f'rule "{r.label}"' if r.label else f"the rule at line {r.rule.line if r.rule else '?'}"
        out.setdefault(label, []).extend(s.fixed)
    return out


def value_text(v: object) -> str:
    if v is True or v is False:
        return "true" if v else "false"
    return str(v)


def print_human(compiled: Compiled, out: Explanation, only_next: bool, note: str | None, color: bool = True,
                conflict: list[tuple[str | None, str]] | None = None) -> None:
    from rich.console import Console

    from ..report import print_clash

    console = Console(no_color=not color, highlight=False, soft_wrap=True)
    title = compiled.title or "puzzle"
    if note:
        console.print(f"[dim]{note}[/]")
    if out.status == "unsat":
        console.print(f"[bold red]no solution[/] — {title}: nothing to explain")
        print_clash(console, compiled, conflict)
        return
    if out.status == "not unique":
        console.print(f"[bold red]not unique[/] — {title}: the givens do not force one solution, so no "
                      "chain of deductions reaches it (`solve --unique` shows two)")
        return
    if out.wrong:
        console.print(f"[bold red]the progress breaks the solution[/] — {title}:")
        for f, v in out.wrong:
            console.print(f"  {f.where()} is {value_text(v)}, but the solution has {value_text(f.value)}")
        return
    if out.status == "unknown" and not out.facts:
        console.print(f"[bold yellow]time limit reached[/] before the solution was found — {title}")
        return
    known = list(out.given)
    if only_next:
        if not out.steps:
            console.print(f"[bold green]solved[/] — {title}: every cell is already filled in"
                          if not out.timed_out else f"[bold yellow]time limit reached[/] — {title}")
            return
        console.print(f"[bold]next step[/] — {title}")
    elif out.timed_out:  # the grade of the steps so far would pass for the puzzle's
        console.print(f"[bold yellow]time limit reached[/] — {title}: the first {len(out.steps)} "
                      f"step{'s' if len(out.steps) != 1 else ''} of the explanation, not graded")
    else:
        g = out.grade()
        console.print(f"[bold green]explained[/] — {title}: {g['steps']} steps, grade {g['grade']} "
                      f"(hardest step: {g['hardest']} rule instance{'s' if g['hardest'] != 1 else ''}; "
                      f"{g['hard_steps']} steps of {HARD} or more)")
    console.print(f"[dim]{NEW_GLYPH} = fixed by the step, {USED_GLYPH} = a cell fixed before that the step uses[/]")
    first = 0 if only_next else _on_their_own(out.steps)
    first = first if first > 1 else 0  # a block of one is an ordinary step
    if first:  # one block: a board per copied given tells the reader nothing
        console.print()
        console.print(f"[bold]steps 1–{first}[/]: each fixes one cell by one rule instance alone")
        for label, facts in _by_rule(out.steps[:first]).items():
            cells = ", ".join(f"{f.where()} = {value_text(f.value)}" for f in facts)
            console.print(f"  by {label} ({len(facts)} cell{'s' if len(facts) != 1 else ''}): {cells}")
        together = Step([f for s in out.steps[:first] for f in s.fixed], [], [], 0)
        known += together.fixed
        for b in step_boards(compiled, known, together):
            console.print(b)
    for n, step in enumerate(out.steps[first:], first + 1):
        console.print()
        cells = ", ".join(f"{f.where()} = {value_text(f.value)}" for f in step.fixed)
        console.print(f"[bold]step {n}[/] ({step.size} rule instance{'s' if step.size != 1 else ''}): {cells}")
        for r in step.reasons:
            console.print(f"  because {r.where()}  [dim]{Path(r.line()).name}[/]")
        if step.uses:
            console.print("  and " + ", ".join(f.where() for f in step.uses))
        known += step.fixed
        for b in step_boards(compiled, known, step):
            console.print(b)
    if out.timed_out:
        console.print()
        console.print("[bold yellow]time limit reached[/]: the steps so far are shown")


# ------------------------------------------------------------------ JSON


def _binding(v: object) -> object:
    if isinstance(v, tuple):
        return [_binding(x) for x in v]
    if isinstance(v, Symbol):
        return v.name
    return v if isinstance(v, int | str | bool) or v is None else str(v)


def _cell(f: Fact) -> dict:
    return {"variable": f.name, "index": f.index(), "value": plain(f.value)}


def step_json(step: Step) -> dict:
    return {
        "cells": [_cell(f) for f in step.fixed],
        "reasons": [{"rule": r.label, "binding": {k: _binding(v) for k, v in r.binding}, "where": r.where(),
                     "at": r.line()} for r in step.reasons],
        "uses": [_cell(f) for f in step.uses],
        "size": step.size,
        "level": step.level,
    }


def as_json(compiled: Compiled, out: Explanation, only_next: bool, note: str | None, total: float,
            conflict: list[tuple[str | None, str]] | None = None) -> dict:
    from ..report import clash_json

    status = "time_limit" if out.timed_out else ("wrong_progress" if out.wrong else out.status)
    obj: dict = {"status": status, "title": compiled.title, "steps": [step_json(s) for s in out.steps]}
    clash = clash_json(compiled, conflict) if out.status == "unsat" else None
    if clash:
        obj["conflict"] = clash
    if not only_next:
        obj["grade"] = out.grade()
    obj["progress"] = [_cell(f) for f in out.given]
    if out.wrong:
        obj["wrong"] = [{**_cell(f), "progress": plain(v)} for f, v in out.wrong]
    if note:
        obj["note"] = note
    obj["timings"] = {"explain": round(out.seconds, 4), "total": round(total, 4)}
    return obj
