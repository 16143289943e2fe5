"""What every command shares at its edges: checked option values, errors as JSON, a closed
stdout. Kept apart from `cli.py` so the command definitions stay readable. Also: bundled genres by
name, `puzzledsl list`, and `--version` (read from the package metadata only when asked)."""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from .errors import EXIT_SOLVED, PuzzleError, did_you_mean

if TYPE_CHECKING:
    from rich.console import Console

EXIT_INTERNAL = 70
EXIT_INTERRUPTED = 130
EXIT_CLOSED_PIPE = 128 + 13  # what a shell reports for a process ended by SIGPIPE


def parse_options(items: list[str] | None) -> dict[str, str] | None:
    """`--option NAME=VALUE` arguments as a dict (None when there are none). The values stay
    strings: the rule file's `option` declarations give their types."""
    if not items:
        return None
    out: dict[str, str] = {}
    for item in items:
        name, eq, value = item.partition("=")
        name, value = name.strip(), value.strip()
        if not eq or not name.isidentifier() or not value:
            raise PuzzleError(f"malformed --option `{item}`: expected NAME=VALUE",
                              help="for example `--option fill=true`; repeat --option for several")
        if name in out and out[name] != value:
            raise PuzzleError(f"--option {name} is given twice (`{out[name]}` and `{value}`)")
        out[name] = value
    return out


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


OUTPUTS = ("svg", "png", "proof", "dimacs", "smt2")  # options that name a file to write


def check_outputs(args: argparse.Namespace) -> None:
    """The files the options write, checked before any solving: a folder or a missing folder is
    an input error at once, not a failure (or a crash: a proof's `FILE.cnf` beside `.`) after the
    search. `-` is standard output where the option allows it."""
    for name in OUTPUTS:
        path = getattr(args, name, None)
        if path is None or str(path) == "-":
            continue
        what = {"svg": "the picture ", "png": "the picture ", "proof": "the proof "}.get(name, "")
        if not str(path) or path.is_dir():
            raise PuzzleError(f"cannot write {what}{path}: it is a folder", help=f"--{name} names a file to write")
        if not path.parent.is_dir():
            raise PuzzleError(f"cannot write {what}{path}: its folder does not exist")


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

    def parse_args(self, args=None, namespace=None):  # type: ignore[no-untyped-def, override]
        """An argument no command takes is reported by the command it was given to, with its
        usage, and a misspelt flag gets the nearest of that command's (argparse reports it at
        the top with the top's usage: `solve … --uniqe` did not point at `--unique`)."""
        ns, extras = self.parse_known_args(args, namespace)
        if extras:
            owner = self._command_of(ns)
            # compared without their dashes, which every long flag shares (`--quiet` is not `--set`)
            flags = [s[2:] for a in owner._actions for s in a.option_strings if s.startswith("--")]
            meant = next((m.replace("`", "`--", 1) for m in (did_you_mean(x[2:].split("=", 1)[0], flags)
                                                             for x in extras if x.startswith("--")) if m), None)
            owner.error(f"unrecognized arguments: {' '.join(extras)}" + (f"; {meant}" if meant else ""))
        return ns

    def _command_of(self, ns: argparse.Namespace) -> argparse.ArgumentParser:
        """The (sub)command parser that `ns` was read by: down the chosen subcommands."""
        for action in self._actions:
            if isinstance(action, argparse._SubParsersAction):
                chosen = action.choices.get(getattr(ns, action.dest, None) or "")
                if isinstance(chosen, Parser):
                    return chosen._command_of(ns)
        return self


def error_json(err: PuzzleError | None, kind: str, message: str | None = None) -> dict[str, object]:
    """`{"status": "error", "error": {...}}`: kind is `input`, `internal`, `interrupted` or
    `time_limit` (then the object reads like a search that ran out of time: status `unknown`,
    no solutions, uniqueness and count unknown)."""
    status = {"interrupted": "interrupted", "time_limit": "unknown"}.get(kind, "error")
    unknown = {"unique": None, "count": None, "count_complete": None, "solutions": []} if kind == "time_limit" else {}
    return {"status": status, "timed_out": kind == "time_limit", **unknown, "error": error_object(err, kind, message)}


def error_object(err: PuzzleError | None, kind: str, message: str | None = None) -> dict[str, object]:
    """An error as JSON: `{"kind", "message", "file", "line", "column", "help"}` (the place and
    help null where the error has none); `solve --json` and each of `verify --json`'s puzzles."""
    span = err.span if err is not None else None
    return {"kind": kind, "message": message or (err.message if err is not None else ""),
            "file": span.path if span else None, "line": span.line if span else None,
            "column": span.column if span else None, "help": err.help if err is not None else None}


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
    ~0.2 s, which a time limit would overshoot. Only when no worker process is left to wait for
    (there is none unless a command imported `multiprocessing`: importing it here costs 4 ms)."""
    multiprocessing = sys.modules.get("multiprocessing")
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (BrokenPipeError, ValueError):
        code = EXIT_CLOSED_PIPE if code == 0 else code
        quiet_closed_pipe()
    if multiprocessing is not None and multiprocessing.active_children():
        sys.exit(code)
    os._exit(code)


def internal_message(err: BaseException) -> str:
    return (f"internal error: {type(err).__name__}: {err}\n(set PUZZLEDSL_DEBUG=1 for a traceback; "
            "please report it)")



class VersionAction(argparse.Action):
    """`--version`: like argparse's own, but the metadata lookup (~20 ms) happens only when used; it
    also says whether the modules run compiled (setup.py, native.py)."""

    def __init__(self, option_strings: list[str], dest: str = argparse.SUPPRESS, **kwargs: object):
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS,
                         help="print the version and exit")

    def __call__(self, parser: argparse.ArgumentParser, *args: object) -> None:
        from . import __version__, native
        print(f"{parser.prog} {__version__} ({native.summary()})")
        parser.exit()


def resolve_bundled(args: argparse.Namespace) -> None:
    """Rule and data files that are not local paths are looked up among the bundled
    genres and instances (`GENRE`, `GENRE/INSTANCE.puz`); a local file wins."""
    from .bundled import find, resolve
    from .data import InlineData
    if isinstance(getattr(args, "file", None), InlineData):  # a URL: its genre's bundled rules, it the data
        from .importers import penpa, puzzlink
        if getattr(args, "data", None) is not None:
            raise PuzzleError("a puzzle URL in place of the rules is the data too: leave out --data")
        text = args.file.text
        rules = penpa.genre_rules(text) if penpa.is_url(text) else puzzlink.genre_rules(text)
        args.file, args.data = Path(rules), args.file
    from .bundled import data_instance
    pair = data_instance(args.file) if isinstance(getattr(args, "file", None), Path) and \
        getattr(args, "data", None) is None else None
    if pair is not None:  # a bundled instance that is a data file: its genre's rules read it
        args.file, args.data = pair
    for attr, what in (("file", "genre or instance"), ("rules", "genre"), ("data", "instance")):
        value = getattr(args, attr, None)
        if isinstance(value, Path):
            setattr(args, attr, resolve(value, what))
    if isinstance(getattr(args, "files", None), list):  # verify's: a missing one is that puzzle's error
        args.files = [f if f.exists() else find(f) or f for f in args.files]


def print_list() -> int:
    """`puzzledsl list`: every bundled genre with its title, options, data formats, the puzzle
    links it reads (puzz.link by its genre name there, Penpa+) and its instances."""
    from .bundled import genres
    from .importers.penpa_genres import GENRES as PENPA
    from .importers.puzzlink_genres import PIDS
    from .report import option_word
    out = sys.stdout
    for g in genres():
        print(f"{g.name:<22} {g.title}", file=out)
        for o in g.options:
            decl = f"option {o.name}: {o.type} = {option_word(o.default)}"
            print(f"    {decl:<32} {o.doc}".rstrip(), file=out)
        if g.formats:
            print(f"    formats: {', '.join(g.formats)}", file=out)
        urls = ([f"puzz.link ({PIDS[g.name]})"] if g.name in PIDS else []) + (["Penpa+"] if g.name in PENPA else [])
        if urls:
            print(f"    urls: {', '.join(urls)}", file=out)
        if g.instances:
            print(f"    instances: {', '.join(g.instances)}", file=out)
    print("\nsolve by name: puzzledsl solve GENRE --data FILE [--option NAME=VALUE], "
          "or puzzledsl solve GENRE/INSTANCE; --data also takes a puzzle link (URL) the genre reads", file=out)
    return EXIT_SOLVED


class StatusLine:
    """A spinner, what the search is doing, and the time it has taken so far (`0:01:23`), on one
    line of a terminal's stderr: a long run shows that it is alive and for how long."""

    def __init__(self, console: Console, text: str) -> None:
        from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
        self.console = console
        self._progress = Progress(SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn(),
                                  console=console, transient=True)
        self._task = self._progress.add_task(text, total=None)

    def update(self, text: str) -> None:
        self._progress.update(self._task, description=text)

    def start(self) -> None:
        self._progress.start()

    def stop(self) -> None:
        self._progress.stop()


@contextmanager
def status_line(args: argparse.Namespace, text: str, show: bool = True) -> Iterator[StatusLine | None]:
    """A status line on a terminal's stderr while the solver works (None elsewhere, under --json,
    and where `show` is false: worker processes cannot write to it)."""
    if not show or args.json or not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    status = StatusLine(Console(stderr=True, no_color=getattr(args, "no_color", False) or None), text)
    status.start()
    try:
        yield status
    finally:
        status.stop()
