"""Every solution, one at a time, as the solver finds them (`--json-stream` prints them as
JSON lines; `Puzzle.solutions()` yields them).

`solve.py` counts and keeps two solutions for a verdict; this is the same blocking loop
as a generator, so a caller can print or stop after each solution without holding them all.
It lists what `--all` counts: solutions that differ in the answer (`answer x, y`), each
standing for every value of its free cells (cells no rule reads, `solve.free_cells`).
"""

from __future__ import annotations

import time
from collections.abc import Iterator

from .backends.base import make_backend
from .compile import Compiled, no_gc
from .deadline import check_interrupt
from .solve import LazyGraphs, _past, blocking_clause, decode, free_cells
from .values import Grid, LazyGrid


class Enumeration:
    """Solutions in the order found, each differing from the ones before in the answer; after
    iteration, `complete` says whether all were found (False after a limit or the time limit),
    `timed_out` why not, `stats` the solver's."""

    def __init__(self, compiled: Compiled, backend: str = "sat", solver: str | None = None, pb: str | None = None,
                 card: str | None = None, time_limit: float | None = None, limit: int | None = None):
        self.compiled = compiled
        self.args = (backend, solver, pb, card)
        self.time_limit = time_limit
        self.limit = limit
        self.complete = False
        self.timed_out = False
        self.count = 0
        self.stats: dict[str, int] = {}
        self.backend_name = backend

    def __iter__(self) -> Iterator[dict[str, Grid]]:
        deadline = time.perf_counter() + self.time_limit if self.time_limit else None
        model = self.compiled.model
        if model.false_rule is not None:
            self.complete = True
            return
        kind, solver, pb, card = self.args
        with no_gc():
            backend = make_backend(kind, model, solver, pb, card)
        if model.graphs:
            backend = LazyGraphs(backend, model.graphs)
        self.backend_name = backend.name
        answer = self.compiled.answer_handles()  # `answer x, y`: solutions differ there, as `--all` counts
        free = free_cells(self.compiled)
        try:
            while self.limit is None or self.count < self.limit:
                res = None if _past(deadline) else backend.solve(deadline=deadline)
                if res is None:
                    self.timed_out = True
                    return
                if not res:
                    self.complete = True
                    return
                true = backend.true_vars()
                for i, grids in enumerate(spread(decode(self.compiled, true), free)):
                    if i and (self.count == self.limit or _past(deadline)):
                        self.timed_out = self.count != self.limit
                        return
                    self.count += 1
                    check_interrupt()  # cells no rule reads: many answers per model, and no solver call
                    yield grids        # between them to notice a Ctrl-C lost in a finaliser
                backend.add_clause(blocking_clause(answer, true))
        finally:
            self.stats = backend.stats()
            backend.close()



def spread(grids: dict[str, Grid], free: list[tuple[str, LazyGrid]]) -> Iterator[dict[str, Grid]]:
    """A solution stands for every value of its free cells (cells no rule reads, as
    `solve.free_cells` counts them): the solution as decoded (each at its least value), then
    the others, the cells stepping as an odometer's wheels."""
    yield grids
    wheels = [(name, key, g) for name, g in free for key in g.keys() if key not in g.cells]
    turns = [0] * len(wheels)
    while True:
        i = 0
        while i < len(wheels) and turns[i] == wheels[i][2].domain - 1:
            turns[i] = 0
            i += 1
        if i == len(wheels):
            return
        turns[i] += 1
        out = dict(grids)
        for name in {name for name, _ in free}:
            out[name] = grids[name].empty_like()
            out[name].cells = dict(grids[name].cells)
        for (name, key, g), t in zip(wheels, turns):
            out[name].cells[key] = bool(t) if g.free is False else g.free + t  # type: ignore[operator]
        yield out
