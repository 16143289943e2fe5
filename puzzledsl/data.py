"""Givens: read data (instance files, --data files, importers) and bind it to the declared givens.

Sizes come from the data: a dimension written as a bare given name (`rowsum[1..R]`)
binds that name from the data's shape when nothing else gives it.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from . import limits
from .data_lists import list_cell
from .errors import DataError, PuzzleError, Span, offset_span, register_source
from .syntax import ast as A
from .values import Grid, Symbol
from .words import count

# ------------------------------------------------------------------ raw data


@dataclass
class Raw:
    """A value as written, before it is checked against its declaration."""

    value: object  # int | bool | None | Symbol | str (a grid token) | list[Raw] | Block
    span: Span | None
    name_span: Span | None = None  # where `name = value` names it: what an unknown name points at


@dataclass
class Block:
    text: str
    first_line: int
    path: str


def raw_assigned(st: A.Assign) -> Raw:
    """The value of `name = value` (a puzzle or data file), remembering where the name is."""
    r = raw_from_ast(st.value)
    sp = st.span
    r.name_span = Span(sp.path, sp.line, sp.column, sp.line, sp.column + len(st.name)) if sp else None
    return r


def raw_from_ast(v: A.Value) -> Raw:
    if isinstance(v, A.IntValue):
        return Raw(v.value, v.span)
    if isinstance(v, A.BoolValue):
        return Raw(v.value, v.span)
    if isinstance(v, A.UnknownValue):
        return Raw(None, v.span)
    if isinstance(v, A.SymValue):
        return Raw(Symbol(v.name), v.span)
    if isinstance(v, A.StringValue):
        return Raw(v.text, v.span)
    if isinstance(v, A.ListValue):
        return Raw([raw_from_ast(x) for x in v.items], v.span)
    assert isinstance(v, A.BlockValue)
    return Raw(Block(v.text, v.first_line, v.span.path), v.span)


def raw_from_plain(obj: object, span: Span | None) -> Raw:
    """JSON or importer values: numbers, null, booleans, strings (tokens), lists."""
    if isinstance(obj, list | tuple):
        return Raw([raw_from_plain(x, span) for x in obj], span)
    if obj is None or isinstance(obj, bool):
        return Raw(obj, span)
    if isinstance(obj, int | str):  # located JSON's numbers and strings are subclasses: plain values only
        return Raw(int(obj) if isinstance(obj, int) else str(obj), span)
    shown = repr(obj) if len(repr(obj)) <= 40 else repr(obj)[:37] + "…"
    kind = "an object" if isinstance(obj, dict) else "a fraction" if isinstance(obj, float) else "this"
    raise DataError(f"{kind} is no data value: `{shown}`", span,
                    "a given's value is a whole number, a string, true, false, null or a list of these")


# ------------------------------------------------------------------ data files


@dataclass(frozen=True)
class InlineData:
    """Data written on the command line instead of in a file: a puzzle URL."""

    text: str

    def __str__(self) -> str:
        return self.text


def is_puzzle_url(text: str) -> bool:
    """A puzz.link or Penpa+ URL (or puzz.link's bare `genre/cols/rows/...` form)."""
    from .importers import penpa, puzzlink

    return puzzlink.is_url(text) or penpa.is_url(text)


def data_source(arg: str) -> Path | InlineData:
    """A `--data` argument: a puzz.link or Penpa+ URL (or puzz.link's bare `genre/cols/rows/...`
    form, unless a file has that name) is the data itself; anything else names a file."""
    from .importers.puzzlink import is_url

    if arg.startswith(("http://", "https://")) and is_puzzle_url(arg):
        return InlineData(arg.strip())
    path = Path(arg)
    if is_url(arg) and not path.exists() and path.suffix.lower() not in (".txt", ".json", ".puz", ".dat"):
        return InlineData(arg.strip())  # a missing `genre/6/6/x.txt` is a missing file, not a URL
    return path


def meant_for(raw: dict[str, Raw], files: list[str]) -> None:
    """Data that names the rule file it is for (a URL names its genre) must meet that file."""
    wanted = raw.pop("__rules__", None)
    if wanted is None or any(Path(f).stem == wanted.value for f in files):
        return
    fmt = raw["__importer__"].value if "__importer__" in raw else "puzzlink"
    raise DataError(f"this puzzle is for the rules {wanted.value}.puz, not these", wanted.span,
                    f"solve it with `puzzledsl solve {wanted.value} --data …`, or force these rules with "
                    f"`--format {fmt}` (rules that always read such data name `{fmt}` in their `format` line)")


def load_data_file(path: Path, formats: list[str], fmt: str | None, instance: str | None,
                   files: list[str] | None = None) -> dict[str, Raw]:
    """Read a --data file: puzzledsl assignments, a JSON object of givens, or a foreign format.
    `files`: the rule files it is for (a Penpa+ URL that does not name its genre is read for them)."""
    forced = fmt is not None
    fmt, instances = _read_instances(path, formats, fmt, files)
    givens = _pick_instance(instances, instance, str(path))
    if fmt in ("puzzledsl", "json"):
        return givens
    if forced or fmt in formats:  # a format named on purpose (on the command line, or by the rules'
        # `format` line: a rule file of one's own that reads puzz.link URLs) is read for these rules
        givens = {k: v for k, v in givens.items() if k != "__rules__"}
    return {k: raw_from_plain(v, Span(str(path), 1, 1)) for k, v in givens.items()} | {"__importer__": Raw(fmt, None)}


def own_instance(instance: str | None, files: list[str]) -> None:
    """`--instance` without --data: the puzzle is the file's own, one puzzle named after the file."""
    if instance is not None and files and instance != Path(files[-1]).stem:
        raise _not_the_one(instance, Path(files[-1]).stem, None,
                           f"--instance picks a puzzle of a --data file; {files[-1]}")


def load_instances(path: Path, formats: list[str], fmt: str | None,
                   files: list[str] | None = None) -> list[tuple[str, dict[str, Raw]]]:
    """Every puzzle of a data file as `(instance id, raw givens)`, read as `load_data_file`
    reads one (same detection and formats); a multi-puzzle file yields all of its puzzles.
    A file of assignments or a JSON object is one puzzle, named after the file."""
    fmt, instances = _read_instances(path, formats, fmt, files)
    if fmt in ("puzzledsl", "json"):
        return instances
    if not instances:
        raise DataError("the file holds no puzzle", Span(str(path), 1, 1))
    file_span = Span(str(path), 1, 1)
    return [(iid, _raw_instance(givens, file_span, fmt)) for iid, givens in instances]


def _read_instances(path: Path, formats: list[str], fmt: str | None,
                    files: list[str] | None = None) -> tuple[str, list[tuple[str, dict]]]:
    """The format and the puzzles of a data file: raw givens for `puzzledsl` and `json` (one
    puzzle, named after the file), an importer's plain givens otherwise."""
    from . import importers
    from .syntax.parser import parse_text, read_source

    if isinstance(path, InlineData):
        text, shown, stem = path.text, path.text, "url"
        register_source(shown, text)  # errors quote the URL and point into it
    else:
        text = read_source(path)
        shown = "<stdin>" if str(path) == "-" else str(path)
        stem = Path(path).stem
    if fmt is None and not text.strip():  # not "cannot tell this file's format (… Expecting value)"
        raise DataError("the data file is empty", Span(shown, 1, 1),
                        "a data file holds assignments `name = value`, a JSON object of givens, or a puzzle "
                        "in a format `puzzledsl formats` lists")
    if fmt is None and _looks_like_assignments(text):
        fmt = "puzzledsl"
    if fmt is None and not isinstance(path, InlineData) and _looks_like_rules(text):
        own = _rule_file_as_data(text, shown, files)
        if own is not None:
            return "puzzledsl", [(stem, own)]
    if fmt == "puzzledsl":
        out: dict[str, Raw] = {}
        for st in parse_text(text, shown, data=True):
            if isinstance(st, A.Use) and files is not None:
                _same_rules(st, files)  # an instance file (`use "genre"` + assignments): its data
                continue
            if not isinstance(st, A.Assign):
                raise DataError("a data file holds only assignments `name = value`", st.span)
            if st.name in out:  # the last would win, silently
                raise DataError(f"`{st.name}` is given twice", st.span,
                                f"first at {out[st.name].span}; keep one of them")
            out[st.name] = raw_assigned(st)
        return fmt, [(stem, out)]
    instances = None
    named_json = fmt == "json"
    if fmt is None:
        fmt, instances = _detect(text, shown, formats)
    if fmt is None or fmt == "json":
        report = _generate_report(text)
        if report is not None:  # `generate --json`: each puzzle's givens, one puzzle each
            return "json", [(f"{stem}-{i}", {k: raw_from_plain(v, Span(shown, 1, 1)) for k, v in g.items()})
                            for i, g in enumerate(report, 1)]
        return "json", [(stem, _plain_json(text, shown, named_json))]
    if instances is None and fmt == importers.PENPA.name:
        from .importers.penpa import load_url
        instances = load_url(text, shown, files)
    if instances is None:
        check_format(fmt)
        instances = importers.IMPORTERS[fmt].load(text, shown)
    return fmt, instances


def check_format(fmt: str | None) -> None:
    """A --format name must be one we read (checked once, before any file is read)."""
    from . import importers

    if fmt is not None and fmt not in ("puzzledsl", "json") and fmt not in importers.IMPORTERS:
        raise PuzzleError(f"unknown data format `{fmt}`", None,
                          "known formats: puzzledsl, json, " + ", ".join(sorted(importers.IMPORTERS)))


def _detect(text: str, path: str, formats: list[str]) -> tuple[str | None, list | None]:
    """The format of a data file: the first of the rule file's own formats that reads it
    without error (two formats can look alike line by line, so sniffing alone
    cannot tell them apart), else the first importer whose sniff accepts it."""
    from . import importers

    if importers.PUZZLINK.detect(text):  # a URL names its genre: no other format could read it
        return importers.PUZZLINK.name, None
    if importers.PENPA.detect(text):
        return importers.PENPA.name, None
    first_error: PuzzleError | None = None
    for name in formats:
        imp = importers.IMPORTERS.get(name)
        if imp is None:
            continue
        try:
            return name, imp.load(text, path)
        except PuzzleError as err:
            if first_error is None:
                first_error = err
                err.help = err.help or f"read as `{name}`, the rules' first format; name another with --format"
    for name, imp in importers.IMPORTERS.items():
        if name not in formats and imp.detect(text):
            return name, None
    if first_error is not None and first_error.span is not None and (
            first_error.span.line > 1 or text.lstrip()[:1].isdigit()):
        # its first line read well, or the file opens with a number, as no JSON object of givens
        # does: the rules' format says more than "not JSON: Extra data" (`4 2` on one line, `4.5`)
        raise first_error
    return None, None


RULE_WORDS = re.compile(r"(implied\s+)?(title|format|given|option|var|define|rule|show|symbol|answer|wlog|prefer|"
                        r"state|action|init|goal|horizon)\b")


def _first_statement(text: str) -> str | None:
    """The first line that is not blank, a comment or the `use "…"` of an instance file."""
    for line in text.splitlines():
        s = line.strip()
        if s and not s.startswith("#") and not re.match(r'use\s+"[^"]*"\s*(#.*)?$', s):
            return s
    return None


def _looks_like_rules(text: str) -> bool:
    """A rule file's first statement (after comments and `use` lines) opens with a keyword."""
    s = _first_statement(text)
    return s is not None and RULE_WORDS.match(s) is not None


def _rule_file_as_data(text: str, shown: str, files: list[str] | None) -> dict[str, Raw] | None:
    """A rule file given as --data. The rule file itself (`check X.puz --data X.puz`): its data is
    already in the rules, so it adds nothing. Another: an error that says what it is. None: it
    does not parse as rules after all, and the formats are tried."""
    from .syntax.parser import parse_text

    try:
        statements = parse_text(text, shown)
    except PuzzleError:
        return None
    first = next((st for st in statements if not isinstance(st, A.Use | A.Assign)), None)
    if first is None:
        return None
    if files and Path(shown).resolve() == Path(files[-1]).resolve():
        return {}
    raise DataError("this is a rule file, not a data file: a data file holds only assignments `name = value` "
                    "or a puzzle in a format `puzzledsl formats` lists", first.span,
                    f"rules are named first: `puzzledsl solve {shown}` (with --data if the givens are not in it)")


def _looks_like_assignments(text: str) -> bool:
    """Assignments `name = value`, perhaps after the `use "…"` of an instance file."""
    s = _first_statement(text)
    return s is not None and "=" in s and s.split("=", 1)[0].strip().isidentifier()


def _same_rules(use: A.Use, files: list[str]) -> None:
    """An instance file read as data (`verify RULES genre/instance.puz`) must use these rules."""
    if not any(Path(f).stem == Path(use.target).stem for f in files):
        raise DataError(f'this instance file uses the rules "{use.target}", not {Path(files[-1]).name}', use.span,
                        f'an instance file names its rules: solve it alone, `puzzledsl solve {use.span.path}`, '
                        f'or verify it with them, `puzzledsl verify {use.target} {use.span.path}`')


LOCATE_JSON_UP_TO = 4_000_000  # characters; larger files are read fast, their errors at 1:1


def _generate_report(text: str) -> list[dict] | None:
    """The puzzles' givens of a `generate --json` report (`{"puzzles": [{"givens": …}, …]}`), or None."""
    if '"puzzles"' not in text[:200]:
        return None
    try:
        obj = json.loads(text)
    except json.JSONDecodeError:
        return None
    puzzles = obj.get("puzzles") if isinstance(obj, dict) else None
    if not isinstance(puzzles, list) or not all(isinstance(p, dict) and isinstance(p.get("givens"), dict)
                                                for p in puzzles):
        return None
    return [p["givens"] for p in puzzles]


def _line_column(text: str, i: int) -> tuple[int, int]:
    """Line and column (from 1) of character `i` of `text`."""
    return text.count("\n", 0, i) + 1, i - text.rfind("\n", 0, i)


def _plain_json(text: str, path: str, named: bool = False) -> dict[str, Raw]:
    """A JSON object of givens; `named`: `--format json` said so, and the format is not in doubt."""
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as err:
        at = Span(path, err.lineno, err.colno)
        if named:
            raise DataError(f"not valid JSON: {err.msg} at {err.lineno}:{err.colno}", at,
                            "--format json reads a JSON object of givens; without --format the format "
                            "is detected") from None
        if text.lstrip()[:1] in ("{", "["):  # meant as JSON: say what is wrong with it, not "name the format"
            before = text[:err.pos].rstrip()
            if before.endswith(",") and text[err.pos:err.pos + 1] in ("}", "]"):
                at = Span(path, *_line_column(text, len(before) - 1))
                raise DataError("not valid JSON: a comma after the last item", at,
                                f"JSON allows no comma before `{text[err.pos]}`: delete this one") from None
            raise DataError(f"not valid JSON: {err.msg}", at,
                            'a JSON data file is one object, {"name": value, …}, with names and strings in '
                            'double quotes') from None
        colon = re.match(r"\s*([A-Za-z_]\w*)\s*:", _first_statement(text) or "")
        if colon:  # `name: value`, as YAML or a Python dict would write it
            from .syntax.frontend import DATA_HELP
            raise DataError(f"`{colon.group(1)}:` is no assignment", Span(path, *_line_column(text, text.index(
                colon.group(1)))), f"write `{colon.group(1)} = …`; {DATA_HELP}") from None
        raise DataError(f"cannot tell this file's format (not puzzledsl, not JSON: {err.msg})", at,
                        "name the format with --format NAME; `puzzledsl formats` lists them") from None
    if not isinstance(obj, dict):
        raise DataError("a JSON data file must be an object that maps given names to values", Span(path, 1, 1))
    if len(text) > LOCATE_JSON_UP_TO:
        return {k: raw_from_plain(v, Span(path, 1, 1)) for k, v in obj.items()}
    from .importers.located_json import parse_json_located

    located = parse_json_located(text, path)

    def raw(v: object, start: int, end: int) -> Raw:
        span = offset_span(text, path, start, end)
        if isinstance(v, list):
            spans = getattr(v, "spans", [])
            return Raw([raw(x, *p) for x, p in zip(v, spans)], span)
        return raw_from_plain(v, span)

    spans = getattr(located, "spans", {})
    out: dict[str, Raw] = {}
    for k, v in located.items():
        start, end = spans.get(k, (0, 1))
        key = text.rfind(json.dumps(k), 0, start)  # a given's own errors point at `"name": value`
        out[k] = raw(v, key if key >= 0 else start, end)
    return out


def _pick_instance(instances: list[tuple[str, dict]], wanted: str | None, path: str) -> dict:
    if not instances:
        raise DataError("the file holds no puzzle", Span(path, 1, 1))
    if wanted is None:
        if len(instances) == 1:
            return _usable(instances[0][1])
        raise DataError(f"the file holds {len(instances)} puzzles; choose one with --instance ID",
                        Span(path, 1, 1), _ids(instances))
    for iid, givens in instances:
        if iid == wanted:
            return _usable(givens)
    if len(instances) == 1:  # the id of a one-puzzle file is its name: another id is a mistake
        raise _not_the_one(wanted, instances[0][0], Span(path, 1, 1))
    raise DataError(f"no puzzle with id `{wanted}` in this file", Span(path, 1, 1), _ids(instances))


def _not_the_one(wanted: str, iid: str, span: Span | None, holder: str = "the file") -> DataError:
    """`--instance` naming another puzzle than the one a file holds."""
    return DataError(f"no puzzle with id `{wanted}` in this file", span,
                     f"{holder} holds one puzzle, `{iid}`: leave out --instance")


def _ids(instances: list[tuple[str, dict]], shown: int = 10) -> str:
    """The ids of a multi-puzzle file, for a help line (the first few of a long one)."""
    ids = ", ".join(f"`{i}`" for i, _ in instances[:shown])
    return f"its ids: {ids}" + (f", … ({len(instances)} in all)" if len(instances) > shown else "")


def _usable(givens: dict) -> dict:
    error = getattr(givens, "error", None)  # an entry that does not read (importers.base.Broken)
    if error is not None:
        raise error
    return givens


# ------------------------------------------------------------------ binding


class Binder:
    """Checks raw data against the `given` declarations and binds sizes from shapes."""

    def __init__(self, program: A.Program, grounder) -> None:
        self.decls = [s for s in program.statements if isinstance(s, A.Given)]
        self.by_name = {d.name: d for d in self.decls}
        self.known = {s.name for s in program.statements if isinstance(s, A.Var)}  # data for these: a known solution
        self.g = grounder  # evaluates dimension expressions over the givens bound so far
        self.unsized: dict[str, Span | None] = {}  # grids given as `?` whose sizes are not bound yet
        self.sized_by: dict[str, tuple[str, int, list[int]]] = {}  # a size -> (grid, dimension, shape) read off

    def legend(self, d: A.Given) -> dict[str, object]:
        out: dict[str, object] = {}
        for token, v in d.legend or ():
            out[token] = raw_from_ast(v).value
        return out

    def bind(self, raw: dict[str, Raw], strict_names: bool, require_all: bool = True) -> dict[str, object]:
        """Bind every given; with `require_all` off (`check` of an instance file without
        --data), givens left without a value are no error, but the data that is there is checked."""
        givens: dict[str, object] = self.g.givens
        for name, r in raw.items():
            if name not in self.by_name and name not in self.known and strict_names and not name.startswith("__"):
                from .ground_common import unknown_name
                err = unknown_name(name, r.name_span or r.span or Span("?", 1, 1), list(self.by_name))
                err.message = f"`{name}` is not a given of these rules"
                if not self.by_name:  # rules without a given: a data file given where the rules go
                    err.help = ("these \"rules\" declare no given: is this a data file? Name the rules "
                                "first: `puzzledsl solve RULES --data FILE` (a bundled genre's name will do)")
                raise DataError(err.message, err.span, err.help)
        pending = list(self.decls)
        self.unsized, self.sized_by = {}, {}
        waiting: dict[str, PuzzleError] = {}  # defaults that could not be computed yet, and why
        while pending:
            progress = False
            for d in list(pending):
                r = raw.get(d.name)
                if r is None and d.default is not None:
                    try:
                        r = self.default(d, d.default)
                    except PuzzleError as err:
                        waiting[d.name] = err  # it may read a given bound later in this loop
                        continue
                if not d.dims:
                    if r is not None:
                        givens[d.name] = self.scalar(d, r)
                        pending.remove(d)
                        progress = True
                    continue
                if r is None:
                    continue
                grid = self.grid(d, r, pending)
                if grid is not None:
                    givens[d.name] = grid
                    pending.remove(d)
                    progress = True
            if not progress:
                break
        if pending and require_all:
            stuck = next((d for d in pending if d.name in waiting), None)
            if stuck is not None:
                err = waiting[stuck.name]
                unbound = [d.name for d in pending if f"unknown name `{d.name}`" == err.message]
                if unbound:
                    raise PuzzleError(f"the default of `{stuck.name}` reads `{unbound[0]}`, which has no value",
                                      err.span, "defaults that read each other in a cycle never get one; "
                                      f"give `{unbound[0]}` a value in the data")
                raise err
            # name a list or grid first: sizes like `R` usually follow from its shape
            first = next((d for d in pending if d.dims), pending[0])
            others = [d.name for d in pending if d is not first]
            more = f" (nor for {', '.join(f'`{n}`' for n in others)})" if others else ""
            if first.name in self.unsized and others:
                sizes = ", ".join(f"`{n}`" for n in others)
                raise PuzzleError(f"`{first.name} = ?` takes its size from other data, but nothing gives {sizes}",
                                  self.unsized[first.name] or first.span,
                                  f"give {sizes} a value, or write the rows of `{first.name}`")
            raise PuzzleError(f"no value for the given `{first.name}`{more}", first.span,
                              f"write `{first.name} = ...` in the puzzle file, or pass a --data file (in "
                              f"Python: `load(rules, data)` or `{first.name}=...`)")
        return givens

    def default(self, d: A.Given, v: A.Value | A.Expr) -> Raw:
        """A given's default: a value as written, or an expression over other givens and
        defines (`given H: int = N`, `= R * C`), computed once those are bound. For a `sym` given
        a bare name is always a symbol (`option measure: sym = jumps` beside an option `jumps`)."""
        if isinstance(v, A.SymValue) and d.type.kind != "sym":
            v = A.Name(v.span, v.name)
        if isinstance(v, A.ListValue):
            return Raw([self.default(d, x) for x in v.items], v.span)
        if isinstance(v, A.Value):
            return raw_from_ast(v)
        return _raw_of(self.g.ev(v, {}), v.span)

    # -- scalars
    def scalar(self, d: A.Given, r: Raw) -> object:
        return self.cell(d, r.value, r.span, self.legend(d), scalar=True)

    def cell(self, d: A.Given, v: object, span: Span | None, legend: dict[str, object],
             scalar: bool = False) -> object:
        kind = d.type.kind
        if kind == "list":
            return list_cell(self, d, v, span, legend)
        if isinstance(v, str):
            if v in legend:
                v = legend[v]
            elif kind == "int" and is_int(v):
                v = int(v)
            elif kind == "sym" and not legend and v.isidentifier():
                v = Symbol(v)
            elif v in ("?", "-") and d.type.optional and not legend:
                v = None
            else:
                raise DataError(f"`{v}` is not a valid value for `{d.name}`", span,
                                _allowed(kind, legend, d.type.optional, v, d.name if d.option else None, scalar))
        elif type(v) is int and str(v) in legend:  # a number written as a legend's token reads as that token
            v = legend[str(v)]  # (`0` in a grid whose legend reads "0" as empty, from JSON or Python)
        if v is None:
            if not d.type.optional:
                raise DataError(f"`{d.name}` may not hold unknown values", span,
                                f"declare it with `{kind}?` to allow `?`")
            return None
        ok = {"int": isinstance(v, int) and not isinstance(v, bool), "bool": isinstance(v, bool),
              "sym": isinstance(v, Symbol)}.get(kind, False)
        if not ok:
            hint = (_allowed(kind, legend) if kind == "sym" and isinstance(v, int) and not isinstance(v, bool)
                    else None)
            raise DataError(f"`{d.name}` holds {kind} values, not {kind_of_data(v)}", span, hint)
        return v

    # -- grids
    def grid(self, d: A.Given, r: Raw, pending: list[A.Given]) -> Grid | None:
        if r.value is None:  # `g = ?`: no clue in any cell; the sizes come from elsewhere
            self.cell(d, None, r.span, {})  # refused, as a `?` cell is, unless the given is optional
            rows, shape = None, ()
        else:
            legend = self.legend(d)
            rows = self.nested(d, r, legend)
            shape = _shape(rows, len(d.dims), d, r.span)
        bound = {}  # a size given read off this data -> the dimension it was read from
        for k, (dim_expr, size) in enumerate(zip(d.dims, shape)):
            name = self.bind_size(dim_expr, size, pending)
            if name is not None:
                bound[name] = k
                self.sized_by[name] = (d.name, k, list(shape))
        try:
            dims = tuple(self.g.dim_range(x, {}) for x in d.dims)
        except PuzzleError:
            if any(self._mentions_pending(x, pending) for x in d.dims):
                if rows is None:
                    self.unsized[d.name] = r.span
                return None  # a size it needs is not bound yet
            raise
        if rows is None:
            grid = Grid(d.name, dims)
            grid.cells = dict.fromkeys(grid.keys())
            return self._boundary(d, grid)
        for k, (rng, size) in enumerate(zip(dims, shape)):
            if limits.size(rng) != size:
                hint = self._read_from(d.dims[k], bound, shape)
                if k == 0 and isinstance(r.value, str) and len(d.dims) > 1:  # one string: one row of a grid
                    hint = ("a string is one row of cells: write the rows as a text block (`\"\"\"` … `\"\"\"`, "
                            "one row per line) or as a list of strings")
                raise _size_mismatch(d, rows, k, rng, size, r.span, hint)
            if size == 0:
                break  # no entries: the later dimensions' sizes are not in the data (`[]` is a 0 x n grid)
        grid = Grid(d.name, dims)
        for key, cell in _cells(rows, dims):
            grid.cells[key] = self.cell(d, cell.value, cell.span, legend)
        return self._boundary(d, grid)

    def _boundary(self, d: A.Given, grid: Grid) -> Grid:
        if d.boundary is not None:
            grid.boundary = d.boundary.kind
            if d.boundary.default is not None:
                grid.outside = self.g.ev(d.boundary.default, {})
        return grid

    def _mentions_pending(self, e: A.Expr, pending: list[A.Given]) -> bool:
        return expr_reads(e, {p.name for p in pending})

    def _read_from(self, e: A.Expr, bound: dict[str, int], shape: list[int]) -> str | None:
        """Where a size in `e` came from, when it was read off another dimension of the same data:
        the help line of a size mismatch (`N` taken from 8 rows, then 9 columns)."""
        names = [n for n in bound if expr_reads(e, {n})]
        if not names:  # read off another grid's data: that one may be the wrong one
            other = [n for n in self.sized_by if expr_reads(e, {n})]
            if not other:
                return None
            grid, k, its_shape = self.sized_by[other[0]]
            return f"`{other[0]}` = {self.g.givens[other[0]]} was read off the {_along(its_shape, k)} of `{grid}`"
        k = bound[names[0]]
        return f"`{names[0]}` = {self.g.givens[names[0]]} was read off this data's {_along(shape, k)}"

    def bind_size(self, e: A.Expr, size: int, pending: list[A.Given]) -> str | None:
        """`[N]` binds N = size; `[lo..N]` binds N = lo + size - 1, if N is an unbound int given.
        The name bound, if any."""
        target, offset = None, 0
        if isinstance(e, A.Name):
            target = e
        elif isinstance(e, A.Range) and isinstance(e.hi, A.Name):
            target = e.hi
            try:
                offset = self.g.static_int(e.lo, {}) - 1
            except PuzzleError:
                return None
        if target is None or target.id in self.g.givens:
            return None
        decl = self.by_name.get(target.id)
        if decl is None or decl.dims or decl.type.kind != "int" or decl not in pending:
            return None
        self.g.givens[target.id] = size + offset
        pending.remove(decl)
        return target.id

    def nested(self, d: A.Given, r: Raw, legend: dict[str, object]) -> Raw:
        return nested_cells(r, len(d.dims), legend, d.type.kind == "list")


def nested_cells(r: Raw, ndims: int, legend: dict[str, object] | None = None, lists: bool = False) -> Raw:
    """Grid data as nested lists of cells: a text block, a row written as a string, or rows as
    strings, split into their cells' tokens (each at its own place)."""
    legend = legend or {}
    if isinstance(r.value, Block):
        return _block_rows(r.value, r.span, legend, ndims, lists)
    if isinstance(r.value, str) and ndims == 1:  # "x - - o" as one row
        return Raw(_string_cells(r.value, r.span, legend, lists), r.span)
    if isinstance(r.value, str) and ndims == 2:  # the one row of a grid of one row
        return Raw([Raw(_string_cells(r.value, r.span, legend, lists), r.span)], r.span)
    if isinstance(r.value, list) and ndims >= 2:  # rows given as strings
        r = Raw([Raw(_string_cells(x.value, x.span, legend, lists), x.span)
                 if isinstance(x.value, str) else x for x in r.value], r.span)
    return r


def _raw_of(value: object, span: Span) -> Raw:
    """A computed value as data: numbers, conditions, symbols, `?`, and lists of them."""
    if isinstance(value, list | tuple | range):
        return Raw([_raw_of(x, span) for x in value], span)
    if value is None or isinstance(value, bool | int | Symbol):
        return Raw(value, span)
    from .values import describe
    raise DataError(f"a given's default must be a value known before solving, not {describe(value)}", span)


def _allowed(kind: str, legend: dict[str, object], optional: bool = False,
             token: object = None, option: str | None = None, scalar: bool = False) -> str | None:
    """What a grid cell of this kind may hold, for the help line of the bad cell `token`; or a
    `scalar` given, or the value of the `option` of that name."""
    if option is not None and kind == "int" and not legend:
        return f"`{option}` is an `int` option: a whole number, as in `--option {option}=3`"
    if scalar and option is None and kind == "int":
        return "a whole number such as `3` or `-1`"
    known = ", ".join(f"`{k}`" for k in legend)
    # a value of the legend (`more` of `">": more`) written where its token belongs
    stands = [k for k, val in legend.items() if isinstance(val, Symbol) and val.name == token]
    if stands:
        return f"the legend allows {known}; `{token}` is what `{stands[0]}` stands for: write `{stands[0]}`"
    other_case = [k for k in legend if isinstance(token, str) and k != token and k.lower() == token.lower()]
    if other_case:  # `X` for the legend's `x`: a new symbol `X` would mean nothing to the rules
        return f"the legend allows {known}: did you mean `{other_case[0]}`? (tokens are case-sensitive)"
    unknown = ""
    mark = token if isinstance(token, str) and len(token) == 1 and not token.isalnum() else "."
    if optional and not legend:
        unknown = f", or `?` or `-` for no clue (to write it `{mark}`, declare `legend {{ \"{mark}\": ? }}`)"
    elif not optional and mark == token and kind in ("int", "sym"):  # an empty cell where none may be
        # without a legend, `T?` reads `?` and `-` as unknown; other marks (and any with a legend) need one
        also = (f" (and add `\"{mark}\": ?` to its legend)" if legend else "" if mark in "?-"
                else f" (and a legend such as `legend {{ \"{mark}\": ? }}`)")
        unknown = f"; to allow empty cells, declare `{kind}?`{also}"
    if kind == "int":
        either = f", or one of the legend's {known}" if known else ""
        add = (f"; to read `{token}` as a number, add it to the legend (`\"{token}\": 7`)"
               if known and isinstance(token, str) and not is_int(token) else "")
        if not known and isinstance(token, str) and token.isidentifier():  # letters naming regions, say
            add = "; for names such as `a` (regions, colours), declare it `sym`"
        return f"a cell holds a whole number such as `3` or `-1`{either}{add}{unknown}"
    if known and kind == "sym" and isinstance(token, str) and token.isidentifier():
        return (f"the legend allows {known}: with a legend, a `sym` given reads only its tokens; add "
                f"`\"{token}\": {token}` to it, or leave the legend out (then `?` and `-` are unknown)")
    if known:
        return f"the legend allows {known}{unknown}"
    if kind == "sym":
        return (f"a `sym` given reads names such as `a` or `wall`{unknown}; "
                "for numbers (region ids too), declare it `int`")
    if kind == "bool":  # `--option fill=yes`, `options={"fill": "False"}`: said nothing more
        return "a `bool` is written `true` or `false`"
    return None


_INT = re.compile(r"-?[0-9]+")


def is_int(s: str) -> bool:
    """A whole number as `int()` reads it from a grid: one optional minus, ASCII digits
    (`--1` and `²` are not numbers, though `str.isdigit` would let the latter through)."""
    return _INT.fullmatch(s) is not None


def kind_of_data(v: object) -> str:
    if isinstance(v, bool):
        return "true/false"
    if isinstance(v, int):
        return "numbers"
    if isinstance(v, Symbol):
        return f"the symbol `{v}`"
    if isinstance(v, list):
        return f"a list of {count(len(v), 'value')} (a grid needs dimensions: `given g[1..N]`)"
    if isinstance(v, Block):
        return "a text block"
    text = str(v)  # never an internal object's repr: a short quote of the value
    return f"`{text[:40]}…`" if len(text) > 40 else f"`{text}`"


def _string_cells(text: str, span: Span | None, legend: dict[str, object], lists: bool) -> list[Raw]:
    """The cells of a row written as a string, each at its own place when the string is written
    on one line without escapes (its span is then its text and two quotes), else at the string."""
    tokens = _tokens(text, legend, lists)
    exact = (span is not None and span.end_line in (0, span.line)
             and span.end_column - span.column == len(text) + 2)
    if not exact:
        return [Raw(t, span) for t in tokens]
    assert span is not None
    out, at = [], 0
    for t in tokens:
        at = text.index(t, at)
        start = span.column + 1 + at
        out.append(Raw(t, Span(span.path, span.line, start, span.line, start + len(t))))
        at += len(t)
    return out


def _tokens(line: str, legend: dict[str, object], lists: bool = False) -> list[str]:
    """Cells of a text row: whitespace-separated tokens, or single characters when the
    row has no spaces or the legend gives a meaning to the space character. A row of a
    list given that holds `/` or `[` (`3/1`, `[?]`) is tokens however many cells it has."""
    if " " in legend or not any(ch.isspace() for ch in line.strip()) and not (lists and ("/" in line or "[" in line)):
        return list(line)
    return line.split()


def _block_rows(b: Block, span: Span | None, legend: dict[str, object], ndims: int, lists: bool = False) -> Raw:
    lines = b.text.split("\n")
    first = b.first_line
    # the text after the opening quotes on the same line is ignored when blank
    if lines and not lines[0].strip():
        lines, first = lines[1:], first + 1
    while lines and not lines[-1].strip():
        lines.pop()
    keep_spaces = " " in legend
    indent = min((len(ln) - len(ln.lstrip()) for ln in lines if ln.strip()), default=0)
    width = max((len(ln.rstrip()) for ln in lines), default=0)
    rows: list[Raw] = []
    for i, ln in enumerate(lines):
        # a space means something: rows are padded to the longest (trailing spaces are invisible)
        text = ln[indent:].rstrip().ljust(width - indent) if keep_spaces else ln.strip()
        lead = indent if keep_spaces else len(ln) - len(ln.lstrip())
        row_span = Span(b.path, first + i, lead + 1, first + i, len(ln) + 1)
        cells = []
        col = lead + 1
        for tok in _tokens(text, legend, lists):
            pos = ln.find(tok, col - 1) if tok.strip() else col - 1
            col = (pos if pos >= 0 else col - 1) + 1
            cells.append(Raw(tok, Span(b.path, first + i, col, first + i, col + len(tok))))
            col += len(tok)
        rows.append(Raw(cells, row_span))
    if ndims == 1:
        flat = [c for row in rows for c in row.value]  # type: ignore[union-attr]
        return Raw(flat, span)
    return Raw(rows, span)


def _shape(r: Raw, ndims: int, d: A.Given, span: Span | None) -> list[int]:
    """Sizes along each dimension; ragged data is an error at the offending row."""
    shape: list[int] = []
    level = [r]
    for depth in range(ndims):
        sizes = set()
        for x in level:
            if not isinstance(x.value, list):
                help_ = ('write its rows as a text block (`"""`, one row a line) or as a list of rows '
                         '(`["ab", "cd"]`, `[[1, 2], [3, 4]]`)' if depth == 0 and ndims == 2
                         else f"nest the data one list deep per dimension ({ndims} here)")
                raise DataError(f"`{d.name}` has {ndims} dimension(s), but the data is nested only {depth} deep",
                                x.span or span, help_)
            sizes.add(len(x.value))
        if len(sizes) > 1:
            raise _ragged(d, level, depth, span)
        shape.append(sizes.pop() if sizes else 0)
        level = [c for x in level for c in x.value]  # type: ignore[union-attr]
    for x in level:  # a list given's cells are lists themselves (their items are checked as they are read)
        if isinstance(x.value, list) and d.type.kind != "list":
            raise DataError(f"`{d.name}` has {ndims} dimension(s), but the data is nested deeper", x.span or span)
    return shape


def expr_reads(e: A.Expr, names: set[str]) -> bool:
    """Whether expression `e` reads one of `names` (as written: defines are not looked into)."""
    return (isinstance(e, A.Name) and e.id in names) or any(expr_reads(x, names) for x in A.children(e))


def _ragged(d: A.Given, level: list[Raw], depth: int, span: Span | None) -> DataError:
    """Rows of different lengths: the odd one is the first that differs from the most common
    length (the first row's on a tie), pointed at from its first extra entry when it is too long."""
    lengths = Counter(len(x.value) for x in level)  # type: ignore[arg-type]
    expect = lengths.most_common(1)[0][0]  # ties keep the first row's length: Counter keeps insertion order
    at, bad = next((i, x) for i, x in enumerate(level) if len(x.value) != expect)  # type: ignore[arg-type]
    n = len(bad.value)  # type: ignore[arg-type]
    which = f"row {at + 1}" if depth == 1 else "a row"  # rows of the first index, counted from 1
    others = "the first has" if len(level[0].value) == expect else "the other rows have"  # type: ignore[arg-type]
    where = _past(bad, expect) if n > expect else None
    help_ = _too_many(n - expect) if where else None
    if where and _packed(bad):  # `...12`: read as five one-character entries
        help_ += ("; this row has no spaces, so each character is one entry: separate the entries with "
                  "spaces where one is longer than a character (`. . . 12`)")
    return DataError(f"ragged data for `{d.name}`: {which} has {count(n, 'entry', 'entries')}, {others} {expect}",
                     where or bad.span or span, help_)


def _packed(row: Raw) -> bool:
    """Whether a row of a text block was written without spaces (each character an entry)."""
    spans = [x.span for x in row.value]  # type: ignore[union-attr]
    return len(spans) > 1 and all(a is not None and b is not None and a.line == b.line and b.column == a.column + 1
                                  for a, b in zip(spans, spans[1:]))


def _along(shape: list[int], k: int) -> str:
    """A data's size along dimension k, in words: "8 rows", "length along dimension 2 (9)"."""
    return f"{shape[k]} rows" if k == 0 and len(shape) == 2 else f"length along dimension {k + 1} ({shape[k]})"


def _too_many(k: int) -> str:
    return "this entry is one too many" if k == 1 else f"the {k} entries from here on are too many"


def _past(row: Raw, n: int) -> Span | None:
    """From the entry after the first `n` of a row to the row's end: the entries too many."""
    extra, last = row.value[n].span, row.value[-1].span  # type: ignore[index]
    if extra is None:
        return None
    end = last if last is not None and last.end_line else extra
    return Span(extra.path, extra.line, extra.column, end.end_line, end.end_column)


def _size_mismatch(d: A.Given, rows: Raw, k: int, rng: range, have: int, span: Span | None,
                   read_from: str | None) -> DataError:
    """Data longer or shorter than a declared dimension: pointed at the first entry too many
    (a row for the first dimension, a cell of the first row for the others); data too short at
    itself when it is written on one line, else at its last entry (a text block's last row)."""
    want = limits.size(rng)
    node = rows
    for _ in range(k):  # the first entry along each earlier dimension
        if not isinstance(node.value, list) or not node.value:
            break
        node = node.value[0]
    if have > want:
        where = _past(node, want)
    elif node.span is not None and node.span.end_line == node.span.line or not node.value:
        where = node.span
    else:
        where = node.value[-1].span  # type: ignore[index]
    return DataError(f"`{d.name}` should have {want} entries along dimension {k + 1} "
                     f"({rng.start}..{rng.stop - 1}), but the data has {have}", where or span, read_from)


def _cells(r: Raw, dims: tuple[range, ...], depth: int = 0, key: tuple[int, ...] = ()):
    if depth == len(dims):
        yield key, r
        return
    for i, child in zip(dims[depth], r.value):  # type: ignore[arg-type]
        yield from _cells(child, dims, depth + 1, key + (i,))


def _raw_instance(givens: dict, span: Span, fmt: str) -> dict[str, Raw]:
    error = getattr(givens, "error", None)  # an entry that does not read: its error, when it is compiled
    if error is not None:
        return {"__error__": Raw(error, None)}
    return {k: raw_from_plain(v, span) for k, v in givens.items()} | {"__importer__": Raw(fmt, None)}
