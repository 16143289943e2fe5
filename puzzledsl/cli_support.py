"""What every command shares at its edges: checked option values, errors as JSON, a closed
stdout. Kept apart from `cli.py` so the command definitions stay readable."""

from __future__ import annotations

import argparse
import json
import math
import os
import sys

from .errors import PuzzleError

EXIT_INTERNAL = 70
EXIT_INTERRUPTED = 130
EXIT_CLOSED_PIPE = 128 + 13  # what a shell reports for a process ended by SIGPIPE


def seconds(text: str) -> float:
    """`--time-limit`: a finite positive number of seconds (not inf, nan, 0 or negative)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"`{text}` is not a number of seconds") from None
    if not math.isfinite(value) or value <= 0 or value > 10**9:
        raise argparse.ArgumentTypeError(f"`{text}`: the time limit must be a positive number of seconds "
                                         "(at most 10^9)")
    return value


class UsageError(SystemExit):
    """argparse's exit on a bad command line, with its message kept (for `--json`)."""

    def __init__(self, message: str):
        super().__init__(2)
        self.message = message


class Parser(argparse.ArgumentParser):
    """argparse, but a usage error keeps its message, so `main` can also say it in JSON."""

    def error(self, message: str):  # type: ignore[override]
        self.print_usage(sys.stderr)
        print(f"{self.prog}: error: {message}", file=sys.stderr)
        raise UsageError(f"{self.prog}: {message}")


def error_json(err: PuzzleError | None, kind: str, message: str | None = None) -> dict[str, object]:
    """`{"status": "error", "error": {...}}`: kind is `input`, `internal`, `interrupted` or
    `time_limit` (then the object reads like a search that ran out of time: status `unknown`,
    no solutions, uniqueness and count unknown)."""
    span = err.span if err is not None else None
    status = {"interrupted": "interrupted", "time_limit": "unknown"}.get(kind, "error")
    unknown = {"unique": None, "count": None, "count_complete": None, "solutions": []} if kind == "time_limit" else {}
    return {"status": status, "timed_out": kind == "time_limit", **unknown,
            "error": {"kind": kind, "message": message or (err.message if err is not None else ""),
                      "file": span.path if span else None, "line": span.line if span else None,
                      "column": span.column if span else None, "help": err.help if err is not None else None}}


def print_json_error(err: PuzzleError | None, kind: str, message: str | None = None) -> None:
    try:
        print(json.dumps(error_json(err, kind, message)), flush=True)
    except (BrokenPipeError, ValueError):  # stdout is closed: nothing more can be said there
        pass


def quiet_closed_pipe() -> int:
    """stdout's reader went away (`… | head`): stop writing, and keep Python from complaining
    when it flushes stdout at exit."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass
    return EXIT_CLOSED_PIPE


def finish(code: int) -> None:
    """Exit without freeing the heap object by object: after grounding a large board that takes
    ~0.2 s, which a time limit would overshoot. Only when no worker process is left to wait for."""
    import multiprocessing
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (BrokenPipeError, ValueError):
        code = EXIT_CLOSED_PIPE if code == 0 else code
        quiet_closed_pipe()
    if multiprocessing.active_children():
        sys.exit(code)
    os._exit(code)


def internal_message(err: BaseException) -> str:
    return (f"internal error: {type(err).__name__}: {err}\n(set PUZZLEDSL_DEBUG=1 for a traceback; "
            "please report it)")

