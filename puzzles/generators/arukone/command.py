"""`puzzledsl generate arukone`: the options, their checks, the files and the summary.

Everything here is about the command line; the puzzles come from `batch.produce`, so the
same batches can be run from Python (as `bench/bench_generate.py` does with a `Generator`).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

from puzzledsl.words import count

from .batch import Made, produce
from .board import Board
from .generator import RULES, Settings, Stats
from .puzzle import bwinf_text


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--size", type=int, required=True, metavar="N", help="the board is N x N")
    p.add_argument("--pairs", type=int, required=True, metavar="K", help="number of pairs")
    p.add_argument("--count", type=int, default=1, metavar="M", help="how many puzzles (default 1)")
    p.add_argument("--seed", type=int, metavar="S", help="random seed (default: a random one, printed)")
    p.add_argument("--rules", choices=NOTIONS, default="literal", dest="notion",
                   help="the rules the puzzles are unique under: literal (the default: BWINF's and janko.at's, "
                        "cells may stay empty), touchfree (a line never runs beside itself), fill (Flow Free: "
                        "every cell used), or fill+touchfree")
    p.add_argument("--fill", action="store_true", help="the same as --rules fill (with --touchfree: fill+touchfree)")
    p.add_argument("--touchfree", action="store_true", help="the same as --rules touchfree")
    p.add_argument("--out", type=Path, default=Path("."), metavar="DIR", help="output folder (default: .)")
    p.add_argument("--jobs", type=int, metavar="J",
                   help="worker processes (default 1, or with --scheduler the cluster's threads; the files "
                        "depend on the seed and on J)")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="run the J workers on a Dask cluster: its scheduler's address (tcp://HOST:8786), or "
                        "`local` for one on this machine; the same files as --jobs J (needs puzzledsl[dask])")
    p.add_argument("--verify", choices=("rules", "fast"), default="rules",
                   help="rules (default): confirm each puzzle with puzzles/arukone.puz before writing it; "
                        "fast: trust the generator's own SAT check")
    p.add_argument("--rules-file", type=Path, default=RULES, dest="rules", help=argparse.SUPPRESS)
    p.add_argument("--time-limit", type=float, default=20.0, metavar="SECONDS",
                   help="per verification with the rules (default 20); a time-out rejects the puzzle")
    p.add_argument("--max-layouts", type=int, default=400, metavar="L",
                   help="layouts tried per puzzle before giving up on it (default 400)")
    p.add_argument("--progress", action="store_true", default=None, help="show progress even when not a terminal")
    p.add_argument("--quiet", action="store_true", help="no summary on stderr")


NOTIONS = ("literal", "touchfree", "fill", "fill+touchfree")


def _check_args(a: argparse.Namespace) -> str | None:
    if a.size < 2:
        return "--size must be at least 2"
    if a.pairs < 1:
        return "--pairs must be at least 1"
    if 2 * a.pairs > a.size * a.size:
        return f"{a.pairs} pairs need at least {2 * a.pairs} cells; a {a.size}x{a.size} board has {a.size ** 2}"
    if a.count < 1:
        return "--count must be at least 1"
    if a.jobs is not None and a.jobs < 1:
        return "--jobs must be at least 1"
    if a.time_limit <= 0:
        return "--time-limit takes a positive number of seconds"
    return None


def run(args: argparse.Namespace) -> int:
    """Write the puzzles asked for: exit code 0 when all were made, 1 when some were given up,
    2 for bad input."""
    problem = _check_args(args)
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "big")
    fill = args.fill or args.notion.startswith("fill")
    touchfree = args.touchfree or args.notion.endswith("touchfree")
    s = Settings(args.size, args.pairs, fill, touchfree, args.verify, args.rules, args.time_limit, args.max_layouts)
    if not _ready(s, args.out):
        return 2
    progress = sys.stderr.isatty() if args.progress is None else args.progress
    notion = "fill" if s.fill else "strict"
    if s.touchfree:
        notion += "+touchfree"
    t0, cpu0 = time.perf_counter(), time.process_time()
    total = Stats()
    with ExitStack() as stack:
        session = None
        if args.scheduler is not None:
            from puzzledsl.cluster import DaskSession
            session = stack.enter_context(DaskSession(args.scheduler, args.jobs or os.cpu_count() or 1))
        jobs = args.jobs or (session.workers if session else 1)
        bar = _Bar(args.count, f"arukone {s.n}x{s.n}, {s.k} pairs, {notion}") if progress else None
        try:
            written = _write(produce(s, seed, args.count, jobs, session), s, seed, args.out, total, bar)
        finally:
            if bar:
                bar.stop()
    wall = time.perf_counter() - t0
    if not args.quiet:
        rate = len(written) / wall if wall > 0 else 0.0
        cpu = total.seconds if jobs > 1 or session else time.process_time() - cpu0
        per_core = len(written) / cpu if cpu > 0 else 0.0
        print(f"wrote {len(written)} of {args.count} puzzles to {args.out} (seed {seed}, {notion}); "
              f"{total.layouts} layouts, {total.checks} SAT checks, {total.repairs} repairs, "
              f"{total.verified} verified with the rules in {total.verify_seconds:.2f} s "
              f"({total.rejected} rejected); {total.greedy_proof} with a label order that defeats greedy routing; "
              f"{wall:.2f} s, {rate:.1f} puzzles/s with {count(jobs, 'job')}{' on Dask' if session else ''} "
              f"({per_core:.1f} per CPU second)", file=sys.stderr)
    if len(written) < args.count and total.stuck == total.layouts:
        print(f"hint: no layout got down to {s.k} lines; try more pairs"
              f"{'' if s.fill else ' or --fill'}", file=sys.stderr)
    return 0 if len(written) == args.count else 1


def _ready(s: Settings, out: Path) -> bool:
    """The rules load (when they verify) and the output folder exists; else the error is printed."""
    if s.verify == "rules":
        from puzzledsl.compile import load_rules
        from puzzledsl.errors import PuzzleError, format_error
        try:
            load_rules(s.rules)
        except PuzzleError as err:
            print(format_error(err), file=sys.stderr)
            return False
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        print(f"error: cannot create {out}: {err}", file=sys.stderr)
        return False
    return True


def _write(made: Iterator[Made], s: Settings, seed: int, out: Path, total: Stats, bar: _Bar | None) -> list[Path]:
    """Each puzzle's file, written as it comes (its counts added to `total`); the files written."""
    board = Board(s.n)
    written: list[Path] = []
    for i, lines, st in made:
        total.add(st)
        if lines is not None:
            path = out / f"arukone-{s.n}-{s.k}-{seed}-{i}.txt"
            path.write_text(bwinf_text(board, lines), encoding="utf-8")
            written.append(path)
        if bar:
            bar.advance(lines is not None)
    return written


class _Bar:
    """A progress bar on stderr, with a count of the puzzles given up."""

    def __init__(self, total: int, title: str) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        self.p = Progress(TextColumn(title), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                          TextColumn("{task.description}"), console=Console(stderr=True))
        self.failed = 0
        self.task = self.p.add_task("", total=total)
        self.p.start()

    def advance(self, ok: bool) -> None:
        self.failed += not ok
        self.p.update(self.task, advance=1, description=f"[red]{self.failed} given up[/]" if self.failed else "")

    def stop(self) -> None:
        self.p.stop()
