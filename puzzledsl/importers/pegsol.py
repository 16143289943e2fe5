"""Peg solitaire boards: plain text pictures and the IPC 2008/2011 planning competition's PDDL.

Both readers give one `board` grid per puzzle, rows padded with ' ' to the same width, of
one-character strings: 'o' a peg, '.' an empty hole, '*' an empty hole that must hold a peg at
the end, '@' a peg on such a target hole, ' ' no hole. The PDDL reader also gives `jumps`, the
board's geometry: "square" (jumps along rows and columns), "triangle" (also along the diagonal
(1,1)) or "king" (along both diagonals).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache

from puzzledsl.errors import DataError, Span

from .. import words
from .base import Importer, Instances, _at, _bounded, _instance_id

PEG_CELLS = "o.*@ "
_PEGS = "o@"
_HOLES = "o.*@"
_CELL_HELP = "'o' peg, '.' empty hole, '*' empty target hole, '@' peg on a target hole, ' ' no hole"

# --------------------------------------------------------------------------- plain text boards


def _lines(text: str) -> list[str]:
    raw = [line.rstrip("\r") for line in text.split("\n")]
    while raw and not raw[-1].strip():
        raw.pop()
    return raw


def _board_start(lines: list[str]) -> int:
    """Index of the first board line, after '#' comment lines and blank lines at the top."""
    i = 0
    while i < len(lines) and (not lines[i].strip() or lines[i].lstrip().startswith("#")):
        i += 1
    return i


def load_peg_board(text: str, path: str) -> Instances:
    """A picture of the board, one row per line; '#' comment lines may come first."""
    lines = _lines(text)
    start = _board_start(lines)
    if start >= len(lines):
        line = max(len(lines), 1)
        raise DataError(
            "the file holds no board: expected rows of 'o', '.', '*', '@' and ' '",
            _at(path, line, len(lines[-1]) + 1 if lines else 1),
            _CELL_HELP,
        )
    rows = []
    for number, line in enumerate(lines[start:], start + 1):
        if not line.strip():
            raise DataError("unexpected blank line", _at(path, number, 1), "blank lines may only end the file")
        for column, char in enumerate(line, 1):
            if char not in PEG_CELLS:
                raise DataError(f"unexpected character {char!r} in the board", _at(path, number, column), _CELL_HELP)
        rows.append(line.rstrip(" "))
    if not any(char in _PEGS for row in rows for char in row):
        raise DataError("the board has no peg ('o' or '@')", _at(path, start + 1, 1), _CELL_HELP)
    width = max(len(row) for row in rows)
    return [(_instance_id(path), {"board": [list(row.ljust(width)) for row in rows]})]


_PEG_ROW = re.compile(r"[o.*@ ]*[o.*@][o.*@ ]*")


def detect_peg_board(text: str) -> bool:
    """After '#' comments, at least 3 rows of 'o', '.', '*', '@' and ' ' only, with some peg."""
    if len(text) > 65536:
        return False
    lines = _lines(text)
    rows = lines[_board_start(lines) :]
    return (
        len(rows) >= 3
        and all(_PEG_ROW.fullmatch(row) for row in rows)
        and any(char in _PEGS for row in rows for char in row)
    )


# --------------------------------------------------------------------------- s-expressions


@dataclass(frozen=True)
class _Atom:
    text: str
    line: int
    column: int

    @property
    def key(self) -> str:
        return self.text.lower()


@dataclass
class _List:
    """A parenthesised list; `line`, `column` are those of its '('."""

    line: int
    column: int
    items: list[_Atom | _List] = field(default_factory=list)

    @property
    def head(self) -> str:
        first = self.items[0] if self.items else None
        return first.key if isinstance(first, _Atom) else ""


@cache
def _builder() -> object:
    """The transformer that builds atoms and lists as lark reduces them (grammars/sexp.lark):
    made at the first PDDL file, so that lark is not imported with the importers."""
    from lark import Token, Transformer

    class Build(Transformer):
        def ATOM(self, tok: Token) -> _Atom:  # a terminal's callback bears its name
            return _Atom(str(tok), tok.line, tok.column)

        def list(self, children: list) -> _List:
            opening = children[0]
            return _List(opening.line, opening.column, children[1:-1])

        def start(self, children: list) -> list:
            return children

    return Build()


def _sexps(text: str, path: str) -> list[_Atom | _List]:
    """The top-level expressions of a PDDL text; `;` starts a comment to the end of the line."""
    from lark import Token
    from lark.exceptions import UnexpectedToken

    from .lark_reader import grammar
    try:
        return grammar("sexp", _builder()).parse(text)
    except UnexpectedToken as err:
        tok = err.token
        if tok.type != "$END":  # nothing else can be unexpected but a `)` with no `(` open
            raise DataError("unmatched ')'", _at(path, tok.line, tok.column)) from None
        opened = [t for t in getattr(err.state, "value_stack", []) if isinstance(t, Token) and t == "("]
        where = _at(path, opened[-1].line, opened[-1].column) if opened else _at(path, 1, 1)
        raise DataError("this '(' is never closed", where) from None


def _span(path: str, node: _Atom | _List) -> Span:
    if isinstance(node, _Atom):
        return Span(path, node.line, node.column, node.line, node.column + len(node.text))
    return _at(path, node.line, node.column)


# --------------------------------------------------------------------------- IPC PDDL problems

_LOCATION = re.compile(r"pos-([0-9]+)-([0-9]+)", re.IGNORECASE)
_ORTHOGONAL = frozenset({(0, 1), (0, -1), (1, 0), (-1, 0)})
_GEOMETRIES = {
    _ORTHOGONAL: "square",
    _ORTHOGONAL | {(1, 1), (-1, -1)}: "triangle",
    _ORTHOGONAL | {(1, 1), (-1, -1), (1, -1), (-1, 1)}: "king",
}
_IGNORED_INIT = {"=", "move-ended"}
_IGNORED_SECTIONS = {":domain", ":requirements", ":metric"}

Cell = tuple[int, int]


def _cell_list(cells: list[Cell]) -> str:
    names = [f"pos-{r}-{c}" for r, c in sorted(cells)]
    return ", ".join(names[:8]) + (f" and {len(names) - 8} more" if len(names) > 8 else "")


class _Problem:
    """A pegsol problem being read; each method raises at the expression that is wrong."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.locations: dict[str, tuple[Cell, _Atom]] = {}
        self.state: dict[Cell, tuple[str, _List]] = {}  # "occupied" or "free", and the fact
        self.lines: dict[tuple[Cell, Cell, Cell], _List] = {}
        self.goal: dict[Cell, tuple[str, _List]] = {}

    def fail(self, message: str, node: _Atom | _List, help: str | None = None) -> DataError:
        return DataError(message, _span(self.path, node), help)

    def atom(self, node: _Atom | _List | None, what: str, parent: _List) -> _Atom:
        if isinstance(node, _Atom):
            return node
        raise self.fail(f"expected {what}", node if node is not None else parent)

    def objects(self, section: _List) -> None:
        names: list[_Atom] = []
        items = section.items[1:]
        i = 0
        while i < len(items):
            item = self.atom(items[i], "an object name", section)
            if item.text != "-":
                names.append(item)
                i += 1
                continue
            kind = self.atom(items[i + 1] if i + 1 < len(items) else None, "a type after '-'", section)
            if kind.key != "location":
                raise self.fail(f"unexpected type {kind.text!r}: a pegsol problem has only locations", kind)
            for name in names:
                self.declare(name)
            i += 2
            names.clear()
        for name in names:
            self.declare(name)

    def declare(self, name: _Atom) -> None:
        m = _LOCATION.fullmatch(name.text)
        if m is None:
            raise self.fail(f"expected a location `pos-ROW-COLUMN`, found {name.text!r}", name)
        if name.key in self.locations:
            raise self.fail(f"location {name.text} is declared twice", name)
        cell = (int(m.group(1)), int(m.group(2)))
        other = next((atom for place, atom in self.locations.values() if place == cell), None)
        if other is not None:
            raise self.fail(f"location {name.text} names the same hole as {other.text} on line {other.line}", name)
        self.locations[name.key] = (cell, name)

    def cell(self, node: _Atom | _List | None, fact: _List) -> Cell:
        atom = self.atom(node, "a location", fact)
        found = self.locations.get(atom.key)
        if found is None:
            raise self.fail(f"{atom.text!r} is not a location declared in :objects", atom)
        return found[0]

    def args(self, fact: _List, count: int) -> list[Cell]:
        if len(fact.items) != count + 1:
            where = fact.items[count + 1] if len(fact.items) > count + 1 else fact
            raise self.fail(f"({fact.head} ...) takes {words.count(count, 'location')}", where)
        return [self.cell(item, fact) for item in fact.items[1:]]

    def init(self, section: _List) -> None:
        for fact in section.items[1:]:
            if not isinstance(fact, _List) or not fact.items:
                raise self.fail("expected a fact `(predicate ...)` in :init", fact)
            head = fact.head
            if head in _IGNORED_INIT:
                continue
            if head == "in-line":
                a, b, c = self.args(fact, 3)
                self.lines[(a, b, c)] = fact
            elif head in ("occupied", "free"):
                [cell] = self.args(fact, 1)
                before = self.state.get(cell)
                if before is not None:
                    again = "again" if before[0] == head else f"but it is {before[0]} on line {before[1].line}"
                    raise self.fail(f"location {_name(cell)} is {head} {again}", fact)
                self.state[cell] = (head, fact)
            else:
                raise self.fail(
                    f"unexpected fact ({head} ...) in :init",
                    fact,
                    "a pegsol problem's :init has IN-LINE, occupied and free facts",
                )

    def goals(self, section: _List) -> None:
        if len(section.items) != 2:
            raise self.fail(
                "expected one goal formula in :goal", section.items[2] if len(section.items) > 2 else section
            )
        formula = section.items[1]
        if not isinstance(formula, _List):
            raise self.fail("expected a goal `(and ...)`", formula)
        literals = formula.items[1:] if formula.head == "and" else [formula]
        for lit in literals:
            if not isinstance(lit, _List) or lit.head not in ("occupied", "free"):
                raise self.fail(
                    "unsupported goal: only (occupied LOCATION) and (free LOCATION) can be read",
                    lit,
                    "the board's rules know only which holes end with a peg",
                )
            [cell] = self.args(lit, 1)
            before = self.goal.get(cell)
            if before is not None and before[0] != lit.head:
                raise self.fail(f"the goal wants {_name(cell)} both {before[0]} and {lit.head}", lit)
            self.goal[cell] = (lit.head, lit)

    def jumps(self, init: _List) -> str:
        directions: set[Cell] = set()
        for (a, b, c), fact in self.lines.items():
            step = (b[0] - a[0], b[1] - a[1])
            if (c[0] - b[0], c[1] - b[1]) != step or max(map(abs, step)) != 1:
                raise self.fail(
                    f"IN-LINE {_name(a)} {_name(b)} {_name(c)} is not three neighbouring holes in a straight line",
                    fact,
                )
            directions |= {step, (-step[0], -step[1])}
        geometry = _GEOMETRIES.get(frozenset(directions))
        if geometry is None:
            steps = ", ".join(f"({dr},{dc})" for dr, dc in sorted(directions)) or "none"
            raise self.fail(
                f"the IN-LINE facts jump in the directions (row, column) {steps}",
                init,
                "the rules know three geometries: along rows and columns (square), also along (1,1) (triangle), "
                "and along both diagonals (king)",
            )
        cells = {cell for cell, _ in self.locations.values()}
        for a in sorted(cells):
            for dr, dc in sorted(directions):
                b, c = (a[0] + dr, a[1] + dc), (a[0] + 2 * dr, a[1] + 2 * dc)
                if b in cells and c in cells and (a, b, c) not in self.lines:
                    raise self.fail(
                        f"(IN-LINE {_name(a)} {_name(b)} {_name(c)}) is missing",
                        init,
                        f"the {geometry} geometry the other IN-LINE facts give lets a peg jump along every line "
                        "of three holes",
                    )
        return geometry

    def board(self, init: _List, goal: _List) -> list[list[str]]:
        cells = {cell for cell, _ in self.locations.values()}
        unset = [cell for cell in cells if cell not in self.state]
        if unset:
            raise self.fail(f":init says neither occupied nor free for {_cell_list(unset)}", init)
        if not any(state == "occupied" for state, _ in self.state.values()):
            raise self.fail("no location is occupied in :init: the board has no peg", init)
        loose = [cell for cell in cells if cell not in self.goal]
        if loose:
            raise self.fail(
                f"the goal does not say whether {_cell_list(loose)} {'ends' if len(loose) == 1 else 'end'} "
                "occupied or free",
                goal,
                "the rules read a goal that says, for every location, whether it ends with a peg",
            )
        top = min(r for r, _ in cells)
        left = min(c for _, c in cells)
        height = max(r for r, _ in cells) - top + 1
        width = max(c for _, c in cells) - left + 1
        _bounded(width * height, "the board spans too many cells", _span(self.path, init))
        grid = [[" "] * width for _ in range(height)]
        for r, c in cells:
            peg = self.state[(r, c)][0] == "occupied"
            target = self.goal[(r, c)][0] == "occupied"
            grid[r - top][c - left] = ("@" if peg else "*") if target else ("o" if peg else ".")
        return grid


def _name(cell: Cell) -> str:
    return f"pos-{cell[0]}-{cell[1]}"


def _define(exprs: list[_Atom | _List], path: str) -> _List:
    if not exprs:
        raise DataError("the file holds no PDDL: expected `(define (problem NAME) ...)`", _at(path, 1, 1))
    define = exprs[0]
    if not isinstance(define, _List) or define.head != "define":
        raise DataError("expected `(define (problem NAME) ...)`", _span(path, define))
    if len(exprs) > 1:
        raise DataError("unexpected text after the `(define ...)`", _span(path, exprs[1]))
    kind = define.items[1] if len(define.items) > 1 else None
    if isinstance(kind, _List) and kind.head == "domain":
        raise DataError(
            "this is a domain file; give the problem file",
            _span(path, kind.items[0]),
            "a PDDL problem `(define (problem NAME) (:domain ...) (:objects ...) (:init ...) (:goal ...))` "
            "holds the board",
        )
    if not isinstance(kind, _List) or kind.head != "problem":
        raise DataError("expected `(problem NAME)` after `define`", _span(path, kind if kind is not None else define))
    return define


def load_pddl_pegsol(text: str, path: str) -> Instances:
    """An IPC peg solitaire problem: locations `pos-R-C`, IN-LINE, occupied and free facts, a goal."""
    define = _define(_sexps(text, path), path)
    problem = _Problem(path)
    sections: dict[str, _List] = {}
    for section in define.items[2:]:
        if not isinstance(section, _List) or not section.head.startswith(":"):
            raise problem.fail("expected a section `(:objects ...)`, `(:init ...)` or `(:goal ...)`", section)
        head = section.head
        if head in sections:
            raise problem.fail(f"a second ({head} ...) section", section)
        if head not in _IGNORED_SECTIONS | {":objects", ":init", ":goal"}:
            raise problem.fail(
                f"unsupported section ({head} ...)", section, "a pegsol problem has :objects, :init and :goal"
            )
        sections[head] = section
    for head in (":objects", ":init", ":goal"):
        if head not in sections:
            raise problem.fail(f"the problem has no ({head} ...) section", define)
    problem.objects(sections[":objects"])
    if not problem.locations:
        raise problem.fail("the problem declares no location: the board has no hole", sections[":objects"])
    problem.init(sections[":init"])
    problem.goals(sections[":goal"])
    board = problem.board(sections[":init"], sections[":goal"])
    jumps = problem.jumps(sections[":init"])
    return [(_instance_id(path), {"board": board, "jumps": jumps})]


_DEFINE = re.compile(r"\(\s*define\s*\(\s*(?:problem|domain)\s", re.IGNORECASE)


def detect_pddl_pegsol(text: str) -> bool:
    """A PDDL `(define (problem ...` (or the domain, to say it is no problem) with IN-LINE and occupied."""
    head = text[:65536]
    lower = head.lower()
    return _DEFINE.search(head) is not None and "in-line" in lower and "(occupied" in lower


# --------------------------------------------------------------------------- registry entries

PEG_BOARD = Importer(
    "peg_board",
    "peg solitaire board picture: one row per line, 'o' peg, '.' empty hole, '*' empty target hole, "
    "'@' peg on a target, ' ' no hole; '#' comment lines may come first",
    detect_peg_board,
    load_peg_board,
)
PDDL_PEGSOL = Importer(
    "pddl_pegsol",
    "IPC 2008/2011 peg solitaire PDDL problem: locations pos-R-C, (IN-LINE a b c), (occupied l) / (free l) "
    "in :init and :goal; gives the board and its jumps (square, triangle or king)",
    detect_pddl_pegsol,
    load_pddl_pegsol,
)
