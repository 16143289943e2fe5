"""`puzzledsl verify`: decide the uniqueness of many puzzles, in parallel across cores.

Every FILE is expanded into its puzzles (a multi-puzzle file gives all of them); each
puzzle is one job: bind its data to the rules (parsed once per worker), then solve with
`Mode(unique=True)` under a per-puzzle time limit. A job's verdict is one of `VERDICTS`.

Exit code of a batch (the first that applies): 2 if some puzzle could not be read or
bound (an input error; the batch still runs to the end), 1 if some puzzle is not unique
or has no solution, 3 if some puzzle was not decided within the time limit, else 0.
An internal error (a bug) in a job is reported as an error and gives 70.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
from contextlib import ExitStack
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from .deadline import TimeUp, alarm_at, left
from .errors import EXIT_INPUT_ERROR, EXIT_NO_SOLUTION, EXIT_SOLVED, EXIT_TIME_LIMIT, PuzzleError, format_error
from .words import count

if TYPE_CHECKING:
    from .cluster import DaskSession
    from .compile import Rules

EXIT_INTERNAL = 70

UNIQUE, NOT_UNIQUE, NO_SOLUTION, UNKNOWN, ERROR = "unique", "not unique", "no solution", "unknown", "error"
VERDICTS = (UNIQUE, NOT_UNIQUE, NO_SOLUTION, UNKNOWN, ERROR)


# ------------------------------------------------------------------ rule options (--option NAME=VALUE)


def notion_of(compiled: object, options: dict[str, str] | None) -> dict[str, object]:
    """The option values a puzzle was checked under: the compiled program's own record of
    them (defaults included) when it keeps one, else the values given with --option."""
    used = getattr(compiled, "options", None)
    if isinstance(used, dict):
        return {k: _plain(v) for k, v in used.items()}
    return dict(options or {})


def _plain(v: object) -> object:
    return v if v is None or isinstance(v, bool | int | float | str) else str(v)


# ------------------------------------------------------------------ jobs


@dataclass
class Job:
    index: int
    file: str
    instance: str | None  # None: the file holds one puzzle
    raw: dict | None  # raw givens (data.Raw values); None when the file could not be read
    error: dict[str, object] | None = None  # why it could not be read (`puzzle_error`)


@dataclass
class Result:
    index: int
    file: str
    instance: str | None
    verdict: str
    seconds: float
    notion: dict[str, object] = field(default_factory=dict)
    error: dict[str, object] | None = None  # `puzzle_error`: what `solve --json` says of an error, and its text
    internal: bool = False
    route: str | None = None  # how the verdict was reached (`wlog`, a known solution), when not plainly
    established: list[str] = field(default_factory=list)  # what an unknown verdict's route proved in time

    @property
    def name(self) -> str:
        return self.file if self.instance is None else f"{self.file}#{self.instance}"


@dataclass(frozen=True)
class Config:
    rules: Path
    options: dict[str, str] | None
    backend: str = "sat"
    solver: str | None = None
    time_limit: float | None = None


def expand(rules_path: Path, files: list[Path], fmt: str | None, options: dict[str, str] | None = None,
           solution: Path | None = None, instances: list[str] | None = None) -> list[Job]:
    """One job per puzzle of every file; a file that cannot be read is one failed job. A
    solution file goes with the one puzzle of the batch (an input error for several).
    `instances`: only the puzzles with these ids (`--instance`), each one an input error when
    no file holds it."""
    from .compile import load_rules, with_solution
    from .data import load_instances
    from .syntax import ast as A

    rules = load_rules(rules_path)
    formats = [n for s in rules.program.statements if isinstance(s, A.Format) for n, _ in s.names]
    if options:
        from .compile import option_raw
        option_raw(rules.program, options)  # an option the rules do not declare: one error, not one per puzzle
    jobs: list[Job] = []
    wanted = set(instances) if instances else None
    seen: set[str] = set()
    for f in files:
        try:
            puzzles = load_instances(f, formats, fmt, rules.program.files)
        except PuzzleError as err:
            jobs.append(Job(len(jobs), str(f), None, None, puzzle_error(err)))
            continue
        many = len(puzzles) > 1
        for iid, raw in puzzles:
            if wanted is None or iid in wanted:
                jobs.append(Job(len(jobs), str(f), iid if many else None, raw))
                seen.add(iid)
    if wanted is not None and wanted - seen:
        missing = sorted(wanted - seen)
        raise PuzzleError(f"no puzzle with id {', '.join(f'`{i}`' for i in missing)} in these files",
                          help="`verify RULES FILE --json` without --instance gives every puzzle's `instance`")
    if solution is not None:
        if len(jobs) != 1:
            raise PuzzleError(f"--solution goes with one puzzle; the files hold {len(jobs)}",
                              help="verify each puzzle with its own solution, or put the solutions in the data")
        if jobs[0].raw is not None:
            jobs[0].raw = with_solution(rules, jobs[0].raw, solution)
    return jobs


_config: Config | None = None


def _init_worker(config: Config) -> None:
    global _config
    _config = config
    from .compile import load_rules

    try:
        load_rules(config.rules)  # parse once per worker (a hit in the cache when forked)
    except PuzzleError:
        pass  # reported by the job itself


def run_job(job: Job) -> Result:
    """Bind, ground and decide one puzzle (in a worker process, or in-process for --jobs 1)."""
    assert _config is not None
    res, err = solve_job(_config, job)
    if err is not None:
        res.error = puzzle_error(err)
    return res


def solve_job(cfg: Config, job: Job, rules: Rules | None = None) -> tuple[Result, PuzzleError | None]:
    """A job's result, and the user error that made it an `error` (unformatted: on a Dask worker
    the texts its span quotes are not at hand, so the caller formats it). Without `rules`, they
    are loaded from `cfg.rules` (parsed once per process: `load_rules` caches them)."""
    t0 = time.perf_counter()
    res = Result(job.index, job.file, job.instance, ERROR, 0.0, dict(cfg.options or {}))
    if job.raw is None:
        res.error = job.error
        return res, None
    error: PuzzleError | None = None
    try:
        from .compile import compile_rules, load_rules
        from .evaluate import recheck
        from .uniqueness import Search, decide

        rules = rules or load_rules(cfg.rules)
        deadline = t0 + cfg.time_limit if cfg.time_limit else None
        with alarm_at(deadline):  # the limit holds for grounding too
            compiled = compile_rules(rules, job.raw, "__importer__" not in job.raw, options=cfg.options)
        res.notion = notion_of(compiled, cfg.options)
        out = decide(compiled, Search(cfg.backend, cfg.solver), left(deadline), explain=False)  # a verdict only
        recheck(compiled, out.solutions)  # a solution that breaks a rule is a bug: an internal error
        res.route, res.established = out.route, out.established
        if out.interrupted:  # Ctrl-C stops the batch, not only this puzzle
            raise KeyboardInterrupt
        if out.status == "unsat":
            res.verdict = NO_SOLUTION
        elif out.unique is True:
            res.verdict = UNIQUE
        elif out.unique is False:
            res.verdict = NOT_UNIQUE
        else:
            res.verdict = UNKNOWN
    except TimeUp:
        res.verdict = UNKNOWN
    except PuzzleError as err:
        error = err
    except RecursionError:
        res.error = puzzle_error(None, message="the rules nest too deeply to ground (recursion limit)")
    except Exception as err:  # a bug in puzzledsl, not in the input
        res.error = puzzle_error(None, "internal", f"{type(err).__name__}: {err}")
        res.internal = True
    res.seconds = time.perf_counter() - t0
    return res, error


def puzzle_error(err: PuzzleError | None, kind: str = "input", message: str | None = None) -> dict[str, object]:
    """A puzzle's error as `verify --json` reports it: the object `solve --json` reports (kind
    `input` or `internal`, message, file, line, column, help) and `text`, the error as printed."""
    from .cli_support import error_object
    text = format_error(err) if err is not None else f"{'internal error' if kind == 'internal' else 'error'}: {message}"
    return error_object(err, kind, message) | {"text": text}


# ------------------------------------------------------------------ running a batch


class Interrupted(KeyboardInterrupt):
    """The batch was stopped; `results` holds the puzzles that finished."""

    def __init__(self, results: list[Result]):
        super().__init__()
        self.results = results


def worker_died(job: Job, exitcode: int | None) -> Result:
    """The result of a job whose worker process died (killed from outside, or out of memory):
    an error of that puzzle only; the batch goes on."""
    how = f"signal {-exitcode}" if exitcode is not None and exitcode < 0 else f"exit status {exitcode}"
    return Result(job.index, job.file, job.instance, ERROR, 0.0,
                  error=puzzle_error(None, message=f"the worker process solving this puzzle died ({how})"))


def run_batch(config: Config, jobs: list[Job], workers: int, progress: bool = False,
              session: DaskSession | None = None) -> list[Result]:
    """Run every job (on a Dask cluster; else in `workers` processes, 1 = in this process), in input order."""
    results: list[Result | None] = [None] * len(jobs)
    bar = _Progress(len(jobs)) if progress else None
    try:
        if session is not None:
            for r in session.verify(config, jobs):
                results[r.index] = r
                if bar:
                    bar.advance(r)
        elif workers <= 1 or len(jobs) <= 1:
            _init_worker(config)
            for job in jobs:
                r = run_job(job)
                results[job.index] = r
                if bar:
                    bar.advance(r)
        else:
            from .workers import run_pool

            for r in run_pool(jobs, workers, _init_worker, config, run_job, worker_died):
                results[r.index] = r
                if bar:
                    bar.advance(r)
    except KeyboardInterrupt:  # Ctrl-C or SIGTERM: what finished is still reported
        raise Interrupted([r for r in results if r is not None]) from None
    finally:
        if bar:
            bar.stop()
    return [r for r in results if r is not None]


class _Progress:
    """A rich progress bar on stderr with a running count of the verdicts."""

    def __init__(self, total: int) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        self.counts = dict.fromkeys(VERDICTS, 0)
        self.p = Progress(TextColumn("verifying"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                          TextColumn("{task.description}"), console=Console(stderr=True), transient=False)
        self.task = self.p.add_task(self._text(), total=total)
        self.p.start()

    def _text(self) -> str:
        c = self.counts
        parts = [f"[green]{c[UNIQUE]} unique[/]"]
        if c[NOT_UNIQUE]:
            parts.append(f"[red]{c[NOT_UNIQUE]} not unique[/]")
        if c[NO_SOLUTION]:
            parts.append(f"[red]{c[NO_SOLUTION]} no solution[/]")
        if c[UNKNOWN]:
            parts.append(f"[yellow]{c[UNKNOWN]} unknown[/]")
        if c[ERROR]:
            parts.append(f"[magenta]{c[ERROR]} error[/]")
        return ", ".join(parts)

    def advance(self, r: Result) -> None:
        self.counts[r.verdict] += 1
        self.p.update(self.task, advance=1, description=self._text())

    def stop(self) -> None:
        self.p.stop()


def exit_code(results: list[Result]) -> int:
    verdicts = {r.verdict for r in results}
    if any(r.internal for r in results):
        return EXIT_INTERNAL
    if ERROR in verdicts:
        return EXIT_INPUT_ERROR
    if NOT_UNIQUE in verdicts or NO_SOLUTION in verdicts:
        return EXIT_NO_SOLUTION
    if UNKNOWN in verdicts:
        return EXIT_TIME_LIMIT
    return EXIT_SOLVED


def summary(results: list[Result], wall: float, workers: int) -> dict[str, object]:
    times = [r.seconds for r in results if r.verdict != ERROR or r.seconds > 0]
    return {
        "total": len(results),
        "counts": {v: sum(r.verdict == v for r in results) for v in VERDICTS},
        "median_seconds": round(statistics.median(times), 6) if times else None,
        "max_seconds": round(max(times), 6) if times else None,
        "wall_seconds": round(wall, 6),
        "jobs": workers,
        "exit_code": exit_code(results),
    }


# ------------------------------------------------------------------ output


def print_json(config: Config, results: list[Result], wall: float, workers: int) -> None:
    notion = next((r.notion for r in results if r.verdict != ERROR), dict(config.options or {}))
    obj = {
        "rules": str(config.rules),
        "notion": notion,
        "time_limit": config.time_limit,
        "puzzles": [{k: v for k, v in asdict(r).items() if k not in ("index", "internal")}
                    | {"seconds": round(r.seconds, 6)} for r in results],
        "summary": summary(results, wall, workers),
    }
    json.dump(obj, sys.stdout)
    sys.stdout.write("\n")


def _word(v: object) -> str:
    return {True: "true", False: "false", None: "?"}.get(v, str(v)) if isinstance(v, bool | None) else str(v)


def _ms(s: float) -> str:
    return f"{s * 1000:.0f} ms" if s < 10 else f"{s:.1f} s"


def print_table(config: Config, results: list[Result], wall: float, workers: int, color: bool = True,
                listed: int = 20) -> None:
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    console = Console(no_color=not color, highlight=False, soft_wrap=True)
    s = summary(results, wall, workers)
    notion = next((r.notion for r in results if r.verdict != ERROR), dict(config.options or {}))
    shown = ", ".join(f"{k}={_word(v)}" for k, v in notion.items()) or "none"
    console.print(f"[bold]verify[/] {config.rules}: {count(len(results), 'puzzle')}, "
                  f"options: {shown}, {count(workers, 'job')}, {wall:.2f} s")
    styles = {UNIQUE: "green", NOT_UNIQUE: "red", NO_SOLUTION: "red", UNKNOWN: "yellow", ERROR: "magenta"}
    t = Table(title=None, show_edge=True)
    t.add_column("verdict")
    t.add_column("puzzles", justify="right")
    for v, n in s["counts"].items():  # type: ignore[union-attr]
        if n or v == UNIQUE:
            t.add_row(f"[{styles[v]}]{v}[/]", str(n))
    console.print(t)
    if s["median_seconds"] is not None:
        console.print(f"time per puzzle: median {_ms(s['median_seconds'])}, max {_ms(s['max_seconds'])}")
    decided = sorted((r for r in results if r.verdict != ERROR), key=lambda r: -r.seconds)
    if len(decided) > 1:
        slow = Table(title="slowest", title_justify="left", show_edge=True)
        slow.add_column("puzzle")
        slow.add_column("verdict")
        slow.add_column("time", justify="right")
        for r in decided[:5]:
            slow.add_row(r.name, f"[{styles[r.verdict]}]{r.verdict}[/]", _ms(r.seconds))
        console.print(slow)
    for v in (NOT_UNIQUE, NO_SOLUTION, UNKNOWN):
        bad = [r for r in results if r.verdict == v]
        if bad:
            console.print(f"[{styles[v]}]{v}[/] ({len(bad)}):")
            for r in bad[:listed]:
                console.print(f"  {r.name}")
                if v == UNKNOWN and r.established:
                    console.print(f"    [dim]established: {escape('; '.join(r.established))}[/]", highlight=False)
            if len(bad) > listed:
                console.print(f"  … and {len(bad) - listed} more (--json lists all)")
    errors = [r for r in results if r.verdict == ERROR]
    if errors:
        console.print(f"[magenta]error[/] ({len(errors)}):")
        for r in errors[:listed]:
            console.print(f"  {r.name}:", highlight=False)
            for line in (str(r.error["text"]) if r.error else "").splitlines():
                console.print(f"    {line}", markup=False)
        if len(errors) > listed:
            console.print(f"  … and {len(errors) - listed} more (--json lists all)")


def verify(rules: Path, files: list[Path], fmt: str | None = None, options: dict[str, str] | None = None,
           time_limit: float | None = None, jobs: int | None = None, as_json: bool = False,
           backend: str = "sat", solver: str | None = None, progress: bool | None = None,
           color: bool = True, solution: Path | None = None, scheduler: str | None = None,
           instances: list[str] | None = None) -> int:
    """The `verify` command; returns its exit code. A bad rules file raises `PuzzleError`.
    With `scheduler` (a Dask scheduler's address, or `local`) the puzzles are solved on a Dask
    cluster (see `cluster.py`); the results are the same."""
    if time_limit is not None and time_limit <= 0:
        raise PuzzleError("--time-limit takes a positive number of seconds")
    if jobs is not None and jobs < 1:
        raise PuzzleError("--jobs takes a positive number")
    if scheduler is not None:
        from .extras import require
        require("distributed", "--scheduler")  # before reading every file
    if solver is not None and backend == "sat":
        from .backends.sat import ALIASES, check_incremental, solver_names
        if ALIASES.get(solver, solver) not in solver_names():
            raise PuzzleError(f"unknown SAT solver `{solver}`", help="known: " + ", ".join(solver_names()))
        check_incremental(solver, "checking uniqueness")
    workers = jobs or os.cpu_count() or 1
    config = Config(Path(rules), options, backend, solver, time_limit)
    t0 = time.perf_counter()
    job_list = expand(config.rules, files, fmt, options, solution, instances)
    if progress is None:
        progress = sys.stderr.isatty()
    workers = max(1, min(workers, len(job_list)))
    interrupted = False
    with ExitStack() as stack:
        session = None
        if scheduler is not None:
            from .cluster import DaskSession
            session = stack.enter_context(DaskSession(scheduler, workers))
            workers = max(1, min(session.workers, len(job_list)))  # as many as can be busy, as here
        try:
            results = run_batch(config, job_list, workers, progress, session)
        except Interrupted as stop:
            results, interrupted = stop.results, True
    wall = time.perf_counter() - t0
    if as_json:
        print_json(config, results, wall, workers)
    else:
        print_table(config, results, wall, workers, color=color)
    if interrupted:
        print(f"interrupted: {len(results)} of {count(len(job_list), 'puzzle')} finished", file=sys.stderr)
        return 130
    return exit_code(results)
