"""`solve --json-stream`: every solution as one JSON line as soon as it is found, then a
summary line, so a consumer can process millions of solutions (or stop early) without
waiting for the count. Lines are objects with a `type`, as in MiniZinc's `--json-stream`:

    {"type": "solution", "index": 1, "values": {"black": [[true, false], ...]}}
    {"type": "summary", "status": "sat", "count": 4, "complete": true, ...}
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from .compile import Compiled
from .enumeration import Enumeration
from .errors import EXIT_NO_SOLUTION, EXIT_SOLVED, EXIT_TIME_LIMIT, PuzzleError
from .report import solution_json


def stream_json(compiled: Compiled, args: argparse.Namespace) -> int:
    if compiled.plan is not None:
        raise PuzzleError("--json-stream lists the solutions of puzzles without `state`; use --json for a plan")
    if args.unique or args.determined:
        raise PuzzleError("--json-stream lists solutions: use it alone, with --all, or with --count N")
    if args.count is not None and args.count < 0:
        raise PuzzleError("--count takes a positive number (0: count all)")
    if args.time_limit is not None and args.time_limit <= 0:
        raise PuzzleError("--time-limit takes a positive number of seconds")
    t0 = time.perf_counter()
    found = Enumeration(compiled, args.backend, args.solver, args.pb, args.card, args.time_limit,
                        args.count or None)
    out = sys.stdout
    for grids in found:
        line = {"type": "solution", "index": found.count, "values": solution_json(grids, compiled)}
        out.write(json.dumps(line) + "\n")
        out.flush()
    status = "sat" if found.count else "unsat" if found.complete else "unknown"
    summary = {"type": "summary", "status": status, "title": compiled.title, "count": found.count,
               "complete": found.complete, "timed_out": found.timed_out, "backend": found.backend_name,
               "stats": found.stats, "seconds": round(time.perf_counter() - t0, 6)}
    out.write(json.dumps(summary) + "\n")
    if status == "unsat":
        return EXIT_NO_SOLUTION
    return EXIT_TIME_LIMIT if found.timed_out else EXIT_SOLVED
