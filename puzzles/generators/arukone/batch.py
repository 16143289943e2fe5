"""Many puzzles: in this process, in J forked worker processes, or as J tasks on a Dask cluster.

A generator's later puzzles depend on the ones it made before (its SAT solver keeps what it
learnt), so the work is split the same way everywhere: worker w makes puzzles w + 1,
w + 1 + J, … in that order, in one `Generator`. The same seed and J thus write the same
files on one machine and on a cluster. Local workers are `puzzledsl.workers.run_pool`'s,
each job one worker's share, streamed back puzzle by puzzle.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict
from functools import partial
from typing import Any

from .board import Line
from .generator import Generator, Settings, Stats, puzzle_rng

Made = tuple[int, list[Line] | None, Stats]  # puzzle i, its lines in label order (None: given up), its counts


def produce(s: Settings, seed: int, count: int, jobs: int, session: Any = None) -> Iterator[Made]:
    """Puzzles 1..count, in completion order: on the Dask `session` when given, else in
    `jobs` worker processes (1: in this process)."""
    if session is not None:
        return _on_dask(session, s, seed, count, jobs)
    if jobs <= 1 or count <= 1:
        return _share(s, None, seed, range(1, count + 1), _made)
    return _in_processes(s, seed, count, jobs)


def shares(count: int, jobs: int) -> list[list[int]]:
    """Each worker's puzzles, in the order it makes them."""
    return [list(range(1 + w, count + 1, jobs)) for w in range(min(jobs, count))]


def _share(s: Settings, rules: object, seed: int, indices: Iterable[int],
           make: Callable[[Generator, int, int], Made]) -> Iterator[Made]:
    """One worker's puzzles, made in order by one Generator."""
    gen = Generator(s, rules)
    try:
        for i in indices:
            yield make(gen, seed, i)
    finally:
        gen.close()


def _made(gen: Generator, seed: int, i: int) -> Made:
    st = Stats()
    return i, gen.puzzle(puzzle_rng(seed, gen.s, i), st), st


def _reported(gen: Generator, seed: int, i: int) -> Made:
    """`_made` in a worker: an error is reported and costs this puzzle, not the worker's others."""
    try:
        return _made(gen, seed, i)
    except Exception as err:
        print(f"puzzle {i}: {type(err).__name__}: {err}", file=sys.stderr)
        return i, None, Stats()


def _in_processes(s: Settings, seed: int, count: int, jobs: int) -> Iterator[Made]:
    from puzzledsl.workers import run_pool

    sent: set[int] = set()

    def died(indices: list[int], exitcode: int | None) -> list[Made]:
        lost = [i for i in indices if i not in sent]
        how = f"signal {-exitcode}" if exitcode is not None and exitcode < 0 else f"exit status {exitcode}"
        print(f"puzzles {lost}: the worker process making them died ({how})", file=sys.stderr)
        return [(i, None, Stats()) for i in lost]

    def forked(_: object) -> None:
        """The workers are forked: they start with the settings and the loaded rules."""

    for made in run_pool(shares(count, jobs), jobs, forked, None, partial(_share, s, None, seed, make=_reported),
                         died, stream=True):
        sent.add(made[0])
        yield made


def _on_dask(session: Any, s: Settings, seed: int, count: int, jobs: int) -> Iterator[Made]:
    """Worker w's share is one task, made in order by one Generator, as in a local worker
    process. The parsed rules are sent along: a worker need not see this machine's files."""
    from puzzledsl.cluster import generator_task
    from puzzledsl.compile import load_rules

    rules = session.client.scatter(load_rules(s.rules), broadcast=True, hash=False) if s.verify == "rules" else None
    tasks = {}
    for w, indices in enumerate(shares(count, jobs)):
        fut = session.submit(generator_task, "arukone.batch", "share_task", asdict(s), rules, seed, indices,
                             name=f"arukone-{w}")
        tasks[fut.key] = indices
    for fut, made, failure in session.results(list(session.futures)):
        if failure is not None:  # the worker died, more often than Dask retries
            print(f"puzzles {tasks[fut.key]}: lost on the Dask cluster: {type(failure).__name__}: {failure}",
                  file=sys.stderr)
            made = [(i, None, {}) for i in tasks[fut.key]]
        for i, lines, st in made:
            yield i, lines, Stats(**st)


def share_task(settings: dict, rules: object, seed: int,
               indices: list[int]) -> list[tuple[int, list[Line] | None, dict]]:
    """One worker's share as a Dask task: plain values in and out."""
    return [(i, lines, asdict(st)) for i, lines, st in _share(Settings(**settings), rules, seed, indices, _reported)]
