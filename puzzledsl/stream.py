"""`solve --json-stream` (and `solve --all --json`): every solution as one JSON line as soon
as it is found, then a summary line, so a consumer can process millions of solutions (or
stop early) without waiting for the count. Lines are objects with a `type`, as in MiniZinc's `--json-stream`:

    {"type": "solution", "index": 1, "values": {"black": [[true, false], ...]}}
    {"type": "summary", "status": "sat", "count": 4, "complete": true, ...}
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .cli_support import EXIT_INTERRUPTED
from .deadline import held, interrupt_requested
from .errors import EXIT_NO_SOLUTION, EXIT_SOLVED, EXIT_TIME_LIMIT, PuzzleError
from .report import listed_keys, solution_json

if TYPE_CHECKING:
    from .api import Puzzle
    from .compile import Compiled
    from .enumeration import Enumeration


def stream_json(puzzle: Puzzle, args: argparse.Namespace) -> int:
    """`--json-stream`, and `--all --json`: the same lines."""
    flags = "--json-stream" if args.json_stream else "--all --json"
    if puzzle.is_plan:
        raise PuzzleError(f"{flags} lists the solutions of puzzles without `state`; use --json for a plan")
    if args.unique or args.determined:
        raise PuzzleError(f"{flags} lists solutions: use it without --unique and --determined",
                          help="--json-stream goes alone, with --all, or with --count N; --count 0 --json "
                               "counts all solutions in one JSON object, two of them shown")
    if args.count is not None and args.count < 0:
        raise PuzzleError("--count takes a positive number (0: count all)")
    if args.time_limit is not None and args.time_limit <= 0:
        raise PuzzleError("--time-limit takes a positive number of seconds")
    t0 = time.perf_counter()
    found = puzzle.enumeration(args.count or None)
    written = _write_solutions(puzzle.compiled, found, args.recheck)
    status = "sat" if written.count else "unsat" if found.complete else "unknown"
    summary = {"type": "summary", "status": status, "title": puzzle.compiled.title, "count": written.count,
               "complete": found.complete, "timed_out": found.timed_out or written.interrupted,
               "backend": found.backend_name, "stats": {**found.stats, "rechecked": written.rechecked},
               "seconds": round(time.perf_counter() - t0, 6)}
    if written.interrupted:
        summary["interrupted"] = True
    keys = listed_keys(puzzle.compiled)
    if keys:
        summary["keys"] = keys
    sys.stdout.write(json.dumps(summary) + "\n")
    if written.interrupted:
        print("interrupted: the solutions found so far are listed", file=sys.stderr)
        return EXIT_INTERRUPTED
    if status == "unsat":
        return EXIT_NO_SOLUTION
    return EXIT_TIME_LIMIT if found.timed_out else EXIT_SOLVED


@dataclass
class Written:
    count: int = 0  # lines written (a solution found as Ctrl-C came is not among them)
    rechecked: int = 0
    interrupted: bool = False


def _write_solutions(compiled: Compiled, found: Enumeration, recheck: bool) -> Written:
    """One line per solution, flushed. The first two are read again over the rules first (as
    the report's two are: every one would cost about three times the search). Ctrl-C ends the
    list as a time limit would, after a line being written."""
    from .evaluate import recheck as read_again
    done = Written()
    solutions = iter(found)
    try:
        for grids in solutions:
            if recheck and done.rechecked < 2:
                done.rechecked += read_again(compiled, [grids])
            line = {"type": "solution", "index": done.count + 1, "values": solution_json(grids, compiled)}
            with held():  # Ctrl-C waits for the line to be out whole, and counted
                sys.stdout.write(json.dumps(line) + "\n")
                sys.stdout.flush()
                done.count += 1
    except KeyboardInterrupt:
        done.interrupted = True
    except Exception:
        if not interrupt_requested():  # Ctrl-C, turned into another error by a C binding (Z3's ctypes)
            raise
        done.interrupted = True
    if done.interrupted:
        solutions.close()  # type: ignore[attr-defined]  # the solver's statistics are kept on closing
    return done
