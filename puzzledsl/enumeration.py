"""Every solution, one at a time, as the solver finds them (`--json-stream` prints them as
JSON lines; `Puzzle.solutions()` yields them).

`solve.py` counts and keeps two solutions for a verdict; this is the same blocking loop
as a generator, so a caller can print or stop after each solution without holding them all.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

from .backends.base import make_backend
from .compile import Compiled, no_gc
from .solve import LazyGraphs, _past, blocking_clause, decode
from .values import Grid


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
                self.count += 1
                yield decode(self.compiled, true)
                backend.add_clause(blocking_clause(answer, true))
        finally:
            self.stats = backend.stats()
            backend.close()

