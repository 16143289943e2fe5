"""`puzzledsl` command line: solve, explain, check, export, verify, generate, formats, solvers.

Exit codes: 0 solved (or checked), 1 no solution, 2 input error, 3 time limit
reached before the requested answer was complete. `verify` (see `batch.py`): 0 every
puzzle unique, 1 some not unique or without solution, 2 some puzzle (or the command)
has an input error, 3 some puzzle undecided within the time limit.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from . import limits
from .cli_support import (
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    Parser,
    UsageError,
    VersionAction,
    check_outputs,
    finish,
    internal_message,
    parse_options,
    print_json_error,
    print_list,
    quiet_closed_pipe,
    resolve_bundled,
    seconds,
    status_line,
)
from .deadline import TimeUp, alarm_at, forget_interrupt, interrupt_requested, left, signals_as_interrupt
from .errors import EXIT_INPUT_ERROR, EXIT_NO_SOLUTION, EXIT_SOLVED, EXIT_TIME_LIMIT, PuzzleError, format_error
from .extras import missing_core

if TYPE_CHECKING:
    from .api import Puzzle, Settings
    from .compile import Compiled

CARD_HELP = "cardinality encoding (default: auto: seqcounter for small bounds, kmtotalizer for large ones)"
SOLUTION_HELP = ("a known solution: a data file (any format the rules read) that gives the decision variables; "
                 "uniqueness starts from it, and it is checked against the rules")
SCHEDULER_HELP = ("run the puzzles on a Dask cluster: its scheduler's address (tcp://HOST:8786), or `local` "
                  "for one on this machine with --jobs worker processes; the results are the same "
                  "(needs puzzledsl[dask])")
URL_KINDS = ("puzzlink", "penpa", "penpa-answer")
NO_COLOR_HELP = "no colours (also when NO_COLOR is set or the output is not a terminal)"


def _data_arg(text: str) -> object:
    """`--data`: a file, or a puzz.link or Penpa+ URL given in place of one."""
    from .data import data_source
    return data_source(text)


def _file_arg(text: str) -> object:
    """The puzzle: a rule or instance file, a bundled name, or a puzz.link or Penpa+ URL (whose
    genre names the bundled rules; `https://` would not survive as a Path)."""
    from .data import InlineData, is_puzzle_url
    if text.startswith(("http://", "https://")) and is_puzzle_url(text):
        return InlineData(text.strip())
    return Path(text)


def _parser(generators: bool = True) -> argparse.ArgumentParser:
    """The command line; `generators=False` leaves out the generators' own options (importing
    them costs ~8 ms, spent only when the command line names `generate`)."""
    p = Parser(prog="puzzledsl", description="Solve logic puzzles written in the puzzledsl language.",
                                epilog="exit codes: 0 solved, 1 no solution, 2 input error, 3 time limit (with "
                                       "--unique, 0 also when not unique: the verdict is printed; `verify` exits 1)")
    p.add_argument("--version", action=VersionAction)
    sub = p.add_subparsers(dest="command", required=True)

    def data_args(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("file", type=_file_arg, help="a rule file or an instance file that uses one; or a bundled "
                        "genre or instance by name (`arukone`, `kakurasu/seed-5x5.puz`; see `puzzledsl list`); or a "
                        "puzz.link or Penpa+ URL, solved with the bundled rules of its genre")
        sp.add_argument("--data", type=_data_arg, help="data file: puzzledsl assignments, JSON, or a known foreign "
                        "format; `-` reads standard input; or a puzz.link or Penpa+ URL")
        sp.add_argument("--format", dest="fmt", help="data format name (default: detected); see `puzzledsl formats`")
        sp.add_argument("--instance", help="which puzzle of a multi-puzzle data file")
        option_arg(sp)

    def option_arg(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("--option", dest="options", action="append", metavar="NAME=VALUE",
                        help="set a rule option declared by the rules (`option NAME: TYPE = DEFAULT`); repeatable")
        sp.add_argument("--limit", action="append", metavar="NAME=N",
                        help="raise a bound on the work (cells, domain, data_bytes, import_cells, nesting, "
                             "clauses); repeatable")

    s = sub.add_parser("solve", help="solve a puzzle")
    data_args(s)
    s.add_argument("--backend", choices=("sat", "z3", "cpsat"), default="sat",
                   help="sat (default), z3, or cpsat (plans that collect things; see docs §20)")
    s.add_argument("--solver", help="PySAT solver name (default cadical195); see `puzzledsl solvers`")
    s.add_argument("--pb", help="pseudo-Boolean encoding for weighted sums (default: bdd)")
    s.add_argument("--card", help=CARD_HELP)
    s.add_argument("--unique", action="store_true", help="prove uniqueness or show a second solution")
    s.add_argument("--svg", type=Path, metavar="FILE",
                   help="also draw the solution as an SVG picture into FILE (with a second solution below, "
                        "its differences marked)")
    s.add_argument("--no-recheck", dest="recheck", action="store_false",
                   help="skip reading the rules again over each solution found (an independent check that "
                        "no encoding bug made the answer; it costs about one more grounding)")
    s.add_argument("--png", type=Path, metavar="FILE", help="the same picture as PNG (needs puzzledsl[png])")
    s.add_argument("--proof", type=Path, metavar="FILE",
                   help="with --unique: when unique, write a DRAT proof of it to FILE and the formula it "
                        "refutes to FILE.cnf (check them with drat-trim FILE.cnf FILE)")
    s.add_argument("--solution", type=Path, metavar="FILE", help=SOLUTION_HELP)
    g = s.add_mutually_exclusive_group()
    g.add_argument("--count", type=int, metavar="N",
                   help="count solutions, stopping at N (0: count all, as --all; with --json one object, two shown)")
    g.add_argument("--all", action="store_true",
                   help="count all solutions (the report shows two); with --json, as --json-stream: every "
                        "solution as one JSON line as it is found, then a summary line")
    s.add_argument("--determined", action="store_true", help="show only cells equal in every solution")
    s.add_argument("--no-implied", dest="implied", action="store_false",
                   help="leave out the rules marked `implied` (a check: the solutions must stay the same)")
    s.add_argument("--json", action="store_true",
                   help="print one JSON object on stdout (with --all: JSON lines, as --json-stream)")
    s.add_argument("--url", nargs="?", const="puzzlink", choices=URL_KINDS, metavar="SITE",
                   help="print the puzzle's URL to open in a browser instead of solving: `puzzlink` (the "
                        "default), `penpa` (Penpa+, to edit and solve), or `penpa-answer` (Penpa+ in solve "
                        "mode with its answer check: the puzzle is solved first, with a warning if it has "
                        "more than one solution, as the check accepts only the one written)")
    s.add_argument("--time-limit", type=seconds, metavar="SECONDS",
                   help="stop then; an answer not complete by then is reported as unknown (exit 3). "
                        "Lingeling and Kissat cannot be stopped mid-search")
    s.add_argument("--show-steps", action="store_true", help="a puzzle played over time: draw every board")
    s.add_argument("--no-color", action="store_true", help=NO_COLOR_HELP)
    s.add_argument("--stats", action="store_true",
                   help="print the solver's statistics: conflicts, decisions, propagations, restarts")
    s.add_argument("--json-stream", action="store_true",
                   help="print each solution as one JSON line as it is found (all, or --count N), then a "
                        "summary line")

    x = sub.add_parser("explain", help="explain the solution step by step (docs/explain.md)")
    data_args(x)
    x.add_argument("--next", action="store_true",
                   help="only the next step from the progress (the data's or --progress's open cells)")
    x.add_argument("--progress", type=Path, metavar="FILE",
                   help="a partly filled board: a data file giving the decision variables, `?` where open")
    x.add_argument("--json", action="store_true", help="print one JSON object on stdout")
    x.add_argument("--time-limit", type=seconds, metavar="SECONDS",
                   help="stop after this many seconds (exit code 3; the steps found so far are printed)")
    x.add_argument("--no-color", action="store_true", help=NO_COLOR_HELP)
    c = sub.add_parser("check", help="parse and type-check; bind the file's own data; with all the data (--data, or a "
                           "file that holds it): also ground, as solve does, but do not solve")
    data_args(c)
    c.add_argument("--no-color", action="store_true", help=NO_COLOR_HELP)  # for its error messages

    e = sub.add_parser("export", help="write the encoded puzzle as DIMACS CNF or SMT-LIB 2")
    data_args(e)
    e.add_argument("--dimacs", type=Path, metavar="OUT",
                   help="write DIMACS CNF (with `c var` name comments; `-`: standard output)")
    e.add_argument("--smt2", type=Path, metavar="OUT",
                   help="write SMT-LIB 2 (as Z3 receives it; `-`: standard output)")
    e.add_argument("--pb", help="pseudo-Boolean encoding for weighted sums (default: bdd)")
    e.add_argument("--card", help=CARD_HELP)

    v = sub.add_parser("verify", help="decide the uniqueness of many puzzles, in parallel",
                       epilog="exit codes: 2 input error (in the command, or in some puzzle), else 1 some not "
                              "unique or without solution, else 3 some undecided (time limit), else 0 all unique. "
                              "With --json, each puzzle's `error` is null or {kind, message, file, line, column, "
                              "help, text}: the fields of `solve --json`'s `error` (kind `input` or `internal`; file, "
                              "line, column and help null where there are none) and `text`, the error as printed; "
                              "`route` says how a verdict was reached, `established` what an undecided one's route "
                              "proved in time (docs/language.md §21). An error in the command itself gives "
                              "{\"status\": \"error\", \"error\": {…}}, as `solve --json` does")
    v.add_argument("rules", type=Path, help="the rule file")
    v.add_argument("files", type=Path, nargs="+", help="data files, or instance files of these rules "
                   "(`genre/x.puz`); a multi-puzzle file counts as all its puzzles")
    v.add_argument("--format", dest="fmt", help="data format name (default: detected per file)")
    v.add_argument("--instance", action="append", metavar="ID",
                   help="only the puzzle with this id of a multi-puzzle file (repeatable, or ID,ID,…)")
    v.add_argument("--solution", type=Path, metavar="FILE", help=SOLUTION_HELP + " (one puzzle only)")
    option_arg(v)
    v.add_argument("--time-limit", type=seconds, metavar="SECONDS", help="per puzzle; undecided puzzles are `unknown`")
    v.add_argument("--jobs", type=int, metavar="N", help="worker processes (default: one per core; 1 = in-process)")
    v.add_argument("--scheduler", metavar="ADDRESS", help=SCHEDULER_HELP)
    v.add_argument("--json", action="store_true", help="print one JSON object on stdout")
    v.add_argument("--backend", choices=("sat", "z3"), default="sat", help="sat (default) or z3")
    v.add_argument("--solver", help="PySAT solver name (default cadical195)")
    v.add_argument("--progress", action="store_true", default=None,
                   help="show the progress bar even when stderr is not a terminal")
    v.add_argument("--no-color", action="store_true", help=NO_COLOR_HELP)

    gen = sub.add_parser("generate", help="generate puzzles of a genre (`puzzledsl generate GENRE --help`)")
    genres = gen.add_subparsers(dest="genre", required=True, title="generators", help="the genre",
                                description="`puzzledsl generate GENRE --help` lists a generator's options")
    if generators:
        add_generators(genres)
        from .generate_cli import ABOUT, DESCRIPTION, add_arguments
        add_arguments(genres.add_parser("rules", help=ABOUT, description=DESCRIPTION,
                                        formatter_class=argparse.RawDescriptionHelpFormatter,
                                        epilog="exit codes: 0 all made, 1 fewer (none unique within --tries), "
                                               "2 input error, 3 time limit. With --json, `error` is null or "
                                               "{kind, message, file, line, column, help, text} as in verify "
                                               "--json, kind `no_puzzle` or `time_limit`. A --json report "
                                               "saved as made.json holds the puzzles made-1, made-2, …: `solve "
                                               "RULES --data made.json --instance made-2` solves the second. "
                                               "Without --json the last line (on stderr) counts the puzzles "
                                               "made and gives each one's clues kept of those its solution "
                                               "allowed (12/40: 12 of 40 clue cells kept)"))

    sub.add_parser("list", help="list the bundled genres: their options, data formats and instances")
    sub.add_parser("formats", help="list the data formats that --data understands")
    sub.add_parser("solvers", help="list the SAT solvers and encodings")
    return p


def _bare_url_flag(argv: list[str]) -> list[str]:
    """`--url FILE`: the flag's value is optional, so argparse would take FILE as the site."""
    out = list(argv)
    for i, a in enumerate(out[:-1]):
        if a == "--url" and out[i + 1] not in URL_KINDS:
            out[i] = f"--url={URL_KINDS[0]}"
    return out


def main(argv: list[str] | None = None) -> int:
    argv = _generic_generate(_bare_url_flag(sys.argv[1:] if argv is None else argv))
    try:
        args = _parser(generators="generate" in argv).parse_args(argv)
    except UsageError as err:
        if "--json" in argv:
            print_json_error(PuzzleError(err.message), "input")
        raise
    color = sys.stderr.isatty() and not os.environ.get("NO_COLOR") and not getattr(args, "no_color", False)
    as_json = getattr(args, "json", False)
    if getattr(args, "time_limit", None) is not None:
        args.deadline = time.perf_counter() + args.time_limit  # the whole run, parsing included
    try:
        with limits.using(limits.parse_limits(getattr(args, "limit", None))), signals_as_interrupt():
            code = _dispatch(args)
        sys.stdout.flush()  # a closed pipe shows here, not at exit
        return code
    except BrokenPipeError:
        return quiet_closed_pipe()
    except SystemExit as exc:  # rich exits 1 ("no solution") on a closed pipe; say it as a closed pipe
        if isinstance(exc.__context__, BrokenPipeError):
            return quiet_closed_pipe()
        raise
    except PuzzleError as err:
        _say(format_error(err, color=color))
        if as_json:
            print_json_error(err, "input")
        return err.exit_code
    except TimeUp:
        _say("time limit reached before the puzzle was ready to solve")
        if as_json:
            print_json_error(None, "time_limit", "time limit reached before the puzzle was ready to solve")
        return EXIT_TIME_LIMIT
    except KeyboardInterrupt:
        _say("interrupted")
        if as_json:
            print_json_error(None, "interrupted", "interrupted")
        return EXIT_INTERRUPTED
    except RecursionError:
        msg = "the rules nest too deeply (recursion limit)"
        _say(f"error: {msg}")
        if as_json:
            print_json_error(None, "input", msg)
        return EXIT_INPUT_ERROR
    except Exception as err:  # a bug in puzzledsl, not in the input
        broken = missing_core(err) if isinstance(err, ModuleNotFoundError) else None
        if broken is not None:  # a default dependency missing: the install, not the input
            _say(format_error(broken, color=color))
            if as_json:
                print_json_error(broken, "input")
            return broken.exit_code
        if interrupt_requested():  # Ctrl-C, turned into another error by a C binding
            _say("interrupted")
            if as_json:
                print_json_error(None, "interrupted", "interrupted")
            return EXIT_INTERRUPTED
        if os.environ.get("PUZZLEDSL_DEBUG"):
            raise
        _say(internal_message(err))
        if as_json:
            print_json_error(None, "internal", f"{type(err).__name__}: {err}")
        return EXIT_INTERNAL
    finally:
        forget_interrupt()


def _generic_generate(argv: list[str]) -> list[str]:
    """`generate RULES …` is `generate rules RULES …` unless RULES names a generator of its own
    (a genre's own generator, where it does better than the generic one). Options may come
    before RULES (`generate --size 5x5 RULES`): RULES is moved to the front."""
    if len(argv) < 2 or argv[0] != "generate":
        return argv
    import pkgutil
    names = {m.name for m in pkgutil.iter_modules(_generators().__path__)}
    if argv[1].startswith("-"):
        at = _first_operand(argv[1:], names)
        if at is None:  # no genre at all: argparse says that it is missing (not that an option's value is no genre)
            return argv if {"-h", "--help"} & set(argv) else argv[:1]
        argv = ["generate", argv[1 + at], *argv[1:1 + at], *argv[2 + at:]]
    if argv[1] in names or argv[1] == "rules":
        return argv
    return ["generate", "rules", *argv[1:]]


def _first_operand(words: list[str], generators: set[str]) -> int | None:
    """The index of the first word that is neither an option nor an option's value, as the
    generators' parsers (the generic one's and each bundled one's) read their options."""
    probe = argparse.ArgumentParser(add_help=False, conflict_handler="resolve")
    from .generate_cli import add_arguments
    add_arguments(probe)
    for name in generators:
        importlib.import_module(f"{_generators().__name__}.{name}").add_arguments(probe)
    valued = {s for a in probe._actions if a.nargs != 0 for s in a.option_strings}
    i = 0
    while i < len(words):
        if not words[i].startswith("-"):
            return i
        i += 2 if words[i] in valued else 1
    return None


def _say(text: str) -> None:
    """Write to stderr, which may itself be a closed pipe (`2>&1 | head -1`)."""
    try:
        print(text, file=sys.stderr)
    except (BrokenPipeError, ValueError):
        pass


_ONE_SHOT = False  # run as a program (`run`), not called in another Python process (tests, notebooks)


def _dispatch(args: argparse.Namespace) -> int:
    if args.command == "generate":
        return _generate(args)
    if args.command == "list":
        return print_list()
    if getattr(args, "fmt", None) is not None:  # before any file is read (verify's: once, not once per file)
        from .data import check_format
        check_format(args.fmt)
    check_outputs(args)
    resolve_bundled(args)
    args.options = parse_options(getattr(args, "options", None))
    if args.command == "explain":
        from .explain.cli import run
        return run(args)
    if args.command == "verify":
        from .batch import verify
        _warn_unstoppable(args)
        return verify(args.rules, args.files, args.fmt, args.options, args.time_limit, args.jobs, args.json,
                      args.backend, args.solver, args.progress, color=not args.no_color, solution=args.solution,
                      scheduler=args.scheduler,
                      instances=[i for a in args.instance for i in a.split(",") if i] if args.instance else None)
    if args.command == "formats":
        from .importers import IMPORTERS
        print("puzzledsl  assignments `name = value` (the default for text that looks like it)")
        print("json       a JSON object mapping given names to values")
        for name, imp in sorted(IMPORTERS.items()):
            print(f"{name:<22} {imp.description}")
        return EXIT_SOLVED
    if args.command == "solvers":
        from .backends.sat import NON_INCREMENTAL, can_stop, solver_names
        from .encode.linear import CARD_ENCODINGS, PB_ENCODINGS
        names = solver_names()
        once = [n for n in names if n in NON_INCREMENTAL]
        endless = [n for n in names if n not in NON_INCREMENTAL and not can_stop(n)]
        print("SAT solvers:", ", ".join(n + ("*" if n in once else "†" if n in endless else "") for n in names))
        if once:
            print("  * solves once, without assumptions: not for --unique, --count, verify or generate")
        if endless:
            print("  † cannot be stopped during its search: --time-limit bounds only the stages around it")
        print("PB encodings:", ", ".join(PB_ENCODINGS))
        print("cardinality encodings:", ", ".join(CARD_ENCODINGS))
        return EXIT_SOLVED
    from .compile import check_data, parse_and_check
    from .data import own_instance
    if args.command == "check" and args.data is None:
        program, _ = parse_and_check(args.file)
        own_instance(args.instance, program.files)
        grounded = check_data(args.file, args.options)  # a file with all its data: also grounded
        print(f"ok: {', '.join(program.files)}" + (" (rules only: no data to ground; give it with --data, or as "
                                                   "`name = value` lines in the file)" if grounded is None
                                                   else f" ({_sizes(grounded)})"))
        return EXIT_SOLVED
    t0 = time.perf_counter()
    deadline = getattr(args, "deadline", None)
    if _ONE_SHOT:  # one puzzle, in a process of its own: its compiled form lives until the end
        from . import compile as stage
        stage.KEEP_ALL = True
    from .api import load
    with alarm_at(deadline):  # the run's own limit (parsing included); the search's is set below
        puzzle = load(args.file, args.data, format=args.fmt, instance=args.instance, options=args.options,
                      solution=getattr(args, "solution", None), implied=getattr(args, "implied", True),
                      settings=_settings(args, time_limit=None))
    if deadline is not None:
        args.time_limit = left(deadline)  # what is left of it for the search
        puzzle = puzzle.using(time_limit=args.time_limit)
    compiled = puzzle.compiled
    compiled.timings["compile"] = time.perf_counter() - t0
    for note in compiled.program.memo.get("notes", ()):  # type: ignore[union-attr]
        print(f"warning: {note}", file=sys.stderr)
    if args.command == "check":
        print(f"ok: {_sizes(compiled)}")
        from .false_rule import false_rule_text
        false = false_rule_text(compiled)
        if false is not None:  # well formed, but no solution: `solve` would say so at once
            print(f"warning: {false}: `solve` finds no solution", file=sys.stderr)
        return EXIT_SOLVED
    if args.command == "export":
        return _export(args, compiled)
    if args.url:
        return _print_url(args, puzzle)
    return _solve(args, puzzle, t0)


def _sizes(compiled: Compiled) -> str:
    """What `check` grounded: `12 decision variables, 30 constraints`; for a plan its state
    cells and moves (its rules are copied into every step only when solving)."""
    from .words import count
    m = compiled.model
    if compiled.plan is not None:
        p = compiled.plan
        return f"a plan: {count(len(p.atoms), 'state atom')} per step, {count(len(p.actions), 'possible move')}"
    return f"{count(len(m.var_names), 'decision variable')}, {count(len(m.assertions), 'constraint')}"


def _settings(args: argparse.Namespace, **given: object) -> Settings:
    """How `solve` (or `export`) was told to solve: backend, SAT solver, encodings, time limit
    (`given` replaces some)."""
    from .api import Settings
    chosen = {"backend": getattr(args, "backend", "sat"), "solver": getattr(args, "solver", None),
              "pb": getattr(args, "pb", None), "card": getattr(args, "card", None),
              "time_limit": getattr(args, "time_limit", None)}
    return Settings(**{**chosen, **given})  # type: ignore[arg-type]


def puzzle_url(compiled, site: str = "puzzlink", solution: dict | None = None) -> str:
    """The puzz.link or Penpa+ URL of a compiled puzzle's givens (with `solution`, a Penpa+ URL
    in solve mode that checks the answer), if its rules are a genre the site knows."""
    if site == "puzzlink":
        from .importers.puzzlink import GENRES, rules_with_url, url_of
        rules = rules_with_url(compiled.program.files)
        if rules is None:
            known = ", ".join(sorted({f"{g.rules}.puz" for g in GENRES.values()}))
            raise PuzzleError("these rules have no puzz.link genre", None, f"URLs are written for {known}")
        return url_of(rules, compiled.givens)
    from .importers import penpa, penpa_write
    from .importers.penpa_genres import GENRES as PENPA_GENRES
    rules = penpa.rules_with_url(compiled.program.files)
    if rules is None:
        known = ", ".join(f"{g}.puz" for g in sorted(PENPA_GENRES))
        raise PuzzleError("these rules have no Penpa+ genre", None, f"Penpa+ URLs are written for {known}")
    return penpa_write.url_of(rules, compiled.givens, solution)


def _print_url(args: argparse.Namespace, puzzle: Puzzle) -> int:
    solution = None
    if args.url == "penpa-answer":
        from .solve import Mode
        result = puzzle.outcome(Mode(unique=True), recheck=args.recheck)
        if result.status != "sat":
            print(f"puzzledsl: no solution to write ({result.status})", file=sys.stderr)
            return EXIT_NO_SOLUTION if result.status == "unsat" else EXIT_TIME_LIMIT
        solution = result.solutions[0]
        if result.unique is not True:  # the answer check knows one solution: the others would be marked wrong
            found = "has more than one solution" if result.unique is False else "was not proven unique in time"
            print(f"warning: the puzzle {found}: Penpa+'s answer check accepts only the one written into the "
                  "URL and rejects the others", file=sys.stderr)
    print(puzzle_url(puzzle.compiled, "penpa" if solution is not None else args.url, solution))
    return EXIT_SOLVED


def _export(args: argparse.Namespace, compiled) -> int:
    if not args.dimacs and not args.smt2:
        raise PuzzleError("export needs --dimacs OUT or --smt2 OUT")
    # graph constraints are checked on each model and cut lazily: they have no clauses to write
    lazy = sorted({f"{g.kind} ({g.label})" if g.label else g.kind for g in compiled.model.graphs})
    omitted = ""
    if lazy:
        omitted = (f"not written: {len(compiled.model.graphs)} graph constraint(s), {', '.join(lazy)}, which "
                   "puzzledsl checks on each model and enforces by cuts; the file allows models that break them")
        print(f"warning: {omitted}", file=sys.stderr)
    if args.dimacs:
        from .encode.cnf import encode
        from .encode.linear import linear_options
        from .reading import output_file
        cnf = encode(compiled.model, linear_options(args.pb, args.card))
        with output_file(args.dimacs) as f:
            f.write(f"c puzzledsl: {compiled.title or args.file}\n")
            if omitted:
                f.write(f"c {omitted}\n")
            for v, name in sorted(compiled.model.var_names.items()):
                f.write(f"c var {v} {name}\n")
            f.write(f"p cnf {cnf.num_vars} {len(cnf.clauses)}\n")
            for cl in cnf.clauses:
                f.write(" ".join(map(str, cl)) + " 0\n")
    if args.smt2:
        from .extras import require
        require("z3", "export --smt2")
        from .backends.smt import Z3Backend
        from .reading import output_file
        with output_file(args.smt2) as f:
            if omitted:
                f.write(f"; {omitted}\n")
            f.write(Z3Backend(compiled.model).smtlib())
    return EXIT_SOLVED


def _solve(args: argparse.Namespace, puzzle: Puzzle, t0: float) -> int:
    if args.json_stream or (args.all and args.json and not puzzle.is_plan):
        from .stream import stream_json
        return stream_json(puzzle, args)
    if puzzle.is_plan:
        return _solve_plan(args, puzzle, t0)
    from .report import print_human, print_json, print_search_stats
    from .solve import Mode
    compiled = puzzle.compiled
    mode = Mode(unique=args.unique, count=0 if args.all else args.count, determined=args.determined)
    if mode.count is not None and mode.count < 0:
        raise PuzzleError("--count takes a number of solutions from 0 (0: count them all)")
    if args.time_limit is not None and args.time_limit <= 0:
        raise PuzzleError("--time-limit takes a positive number of seconds")
    _warn_unstoppable(args)
    if args.proof is not None and (not args.unique or mode.count is not None or mode.determined
                                   or args.backend != "sat"):
        raise PuzzleError("--proof goes with --unique alone, on the SAT backend",
                          help="e.g. `puzzledsl solve RULES --data FILE --unique --proof unique.drat`")
    with status_line(args, "solving…") as status:
        def progress(what: str, n: int) -> None:
            status.update(f"counting: {n:,}" if what == "count" else f"checking cells: {n:,}" if what == "determined"
                          else f"looking for {what}…")
        out = puzzle.outcome(mode, progress=progress if status is not None else None, proof=args.proof,
                             recheck=args.recheck)
    if (args.svg is not None or args.png is not None) and out.solutions:
        _pictures(args, compiled, out)  # files first: a reader closing stdout early must not lose them
    out.timings.update(compiled.timings)
    out.timings["total"] = time.perf_counter() - t0
    if args.json:
        print_json(compiled, out, mode)
    else:
        print_human(compiled, out, mode, color=not args.no_color)
        if args.stats:
            print_search_stats(out.stats, color=not args.no_color)
    if args.proof is not None and not args.json:
        c = out.certificate
        from .words import count
        print(f"proof of uniqueness: {c.proof} ({count(c.lemmas, 'lemma')}), formula {c.formula} "
              f"({count(c.variables, 'variable')}, {count(c.clauses, 'clause')})" if c else "no proof written: " + (
                  "the time limit passed while writing it" if out.unique else "uniqueness was not proven"),
              file=sys.stderr)
    if out.interrupted:
        print("interrupted: what was found so far is shown", file=sys.stderr)
        return EXIT_INTERRUPTED
    if out.status == "unsat":
        return EXIT_NO_SOLUTION
    if out.status == "unknown" or out.timed_out:
        return EXIT_TIME_LIMIT
    return EXIT_SOLVED


def _pictures(args: argparse.Namespace, compiled, out) -> None:
    """`--svg FILE` / `--png FILE`: the solution shown (a second one below it, if found)."""
    from .svg import document
    shown = out.determined if out.determined is not None else out.solutions[0]
    second = out.solutions[1] if len(out.solutions) > 1 and out.determined is None else None
    svg = document(compiled, shown, second=second)
    target = args.svg
    try:
        if args.svg is not None:
            args.svg.write_text(svg, encoding="utf-8")
        if args.png is not None:
            from .extras import require
            cairosvg = require("cairosvg", "--png")
            target = args.png
            cairosvg.svg2png(bytestring=svg.encode("utf-8"), write_to=str(args.png), scale=2)
    except OSError as err:
        raise PuzzleError(f"cannot write the picture: {err.strerror or err}: {target}") from err


def _warn_unstoppable(args: argparse.Namespace) -> None:
    """A time limit that the chosen solver cannot keep is said up front, not found out late."""
    from .backends.sat import can_stop
    if args.time_limit is not None and args.backend == "sat" and not can_stop(args.solver):
        print(f"warning: the SAT solver `{args.solver}` cannot be stopped during its search, so "
              f"--time-limit bounds only the stages around it (cadical195 and glucose4 keep it)", file=sys.stderr)


def _solve_plan(args: argparse.Namespace, puzzle: Puzzle, t0: float) -> int:
    """A puzzle played over time: search plans of growing length (see planning/search.py)."""
    from .planning.report import print_plan_human, print_plan_json
    from .report import print_search_stats
    if args.time_limit is not None and args.time_limit <= 0:
        raise PuzzleError("--time-limit takes a positive number of seconds")
    if args.unique or args.count is not None or args.all or args.determined:
        raise PuzzleError("--unique, --count, --all and --determined are for puzzles without `state`; "
                          "a plan is searched for the fewest moves")
    with status_line(args, "planning…") as status:
        res = puzzle.plan_search(status.update if status is not None else None)
    compiled = puzzle.compiled
    timings = dict(compiled.timings)
    timings["total"] = time.perf_counter() - t0
    if args.json:
        print_plan_json(compiled, res, timings, args.show_steps)
    else:
        print_plan_human(compiled, res, timings, args.show_steps, color=not args.no_color)
        if args.stats:
            print_search_stats(res.stats, color=not args.no_color)
    if res.interrupted:
        print("interrupted: the best plan found so far is shown", file=sys.stderr)
        return 130
    if res.status == "unsat":
        return EXIT_NO_SOLUTION
    if res.status == "unknown" or (res.timed_out and compiled.plan.horizon.kind == "minimize"):
        return EXIT_TIME_LIMIT  # no plan, or the best one found is not proven optimal (it is printed)
    return EXIT_SOLVED


def _generators():
    """The bundled generators' package (`puzzles/generators`, installed as `puzzledsl.stdlib.generators`).
    In a source checkout `puzzles/` is not inside the package, so it is mounted from there."""
    try:
        return importlib.import_module("puzzledsl.stdlib.generators")
    except ModuleNotFoundError as err:
        if err.name not in ("puzzledsl.stdlib", "puzzledsl.stdlib.generators"):
            raise
    from importlib.machinery import ModuleSpec
    from importlib.util import module_from_spec
    folder = Path(__file__).resolve().parent.parent / "puzzles"
    if not (folder / "generators" / "__init__.py").is_file():
        raise PuzzleError("no puzzle generators are installed")
    spec = ModuleSpec("puzzledsl.stdlib", None, is_package=True)
    spec.submodule_search_locations = [str(folder)]
    mod = module_from_spec(spec)
    sys.modules["puzzledsl.stdlib"] = mod
    return importlib.import_module("puzzledsl.stdlib.generators")


def add_generators(genres: argparse._SubParsersAction) -> None:
    """A subcommand per bundled generator, its options added by the generator's module."""
    import pkgutil
    package = _generators()
    for m in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
        if not m.name.startswith("_"):
            module = importlib.import_module(f"{package.__name__}.{m.name}")
            about = (module.__doc__ or "").strip().split("\n")[0] or None
            module.add_arguments(genres.add_parser(m.name, help=about, description=about))


def _generate(args: argparse.Namespace) -> int:
    if args.genre == "rules":
        from .generate_cli import run
        return run(args)
    module = importlib.import_module(f"{_generators().__name__}.{args.genre}")
    return module.run(args)


def run() -> None:
    global _ONE_SHOT
    _ONE_SHOT = True  # this process ends at `finish`, without freeing what it made
    finish(main())


if __name__ == "__main__":
    run()
