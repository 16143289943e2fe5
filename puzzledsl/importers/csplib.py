"""CSPLib prob014 (Solitaire Battleship) Prolog facts."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Iterator

from puzzledsl.errors import DataError, Span

from .base import (
    CSPLIB_TO_JANKO,
    Givens,
    Instances,
    _bounded,
)

# --------------------------------------------------------------------------- CSPLib Prolog facts

_PL_TOKEN = re.compile(
    r"(?P<skip>\s+|%[^\n]*|/\*.*?\*/)|(?P<int>-?[0-9]+)|(?P<atom>[a-z][A-Za-z0-9_]*)|(?P<punct>[()\[\],:@.])",
    re.DOTALL,
)


class _Prolog:
    """A recursive-descent reader for the ground facts `problem(Id, Fleet, Rows, Cols, Hints).`"""

    def __init__(self, text: str, path: str) -> None:
        self.text, self.path = text, path
        self.line_starts = [0] + [m.end() for m in re.finditer("\n", text)]
        self.toks = list(self._tokens())
        self.i = 0

    def span(self, offset: int, length: int = 1) -> Span:
        line = bisect_right(self.line_starts, offset)
        column = offset - self.line_starts[line - 1] + 1
        return Span(self.path, line, column, line, column + max(length, 1))

    def _tokens(self) -> Iterator[tuple[str, str, int]]:
        pos = 0
        while pos < len(self.text):
            m = _PL_TOKEN.match(self.text, pos)
            if m is None:
                raise DataError(f"unexpected character {self.text[pos]!r}", self.span(pos))
            if m.lastgroup != "skip":
                yield m.lastgroup or "", m.group(), pos
            pos = m.end()

    def peek(self) -> tuple[str, str, int]:
        """The next token; at the end, a pseudo-token placed just after the last real one."""
        if self.i < len(self.toks):
            return self.toks[self.i]
        last = self.toks[-1] if self.toks else ("", "", 0)
        return "eof", "end of file", last[2] + len(last[1])

    def error(self, expected: str) -> DataError:
        _, text, pos = self.peek()
        return DataError(
            f"expected {expected}, found {text!r}"
            if text != "end of file"
            else f"expected {expected} before the end of the file",
            self.span(pos),
        )

    def take(self, kind: str, text: str | None = None) -> tuple[str, int]:
        got_kind, got_text, pos = self.peek()
        if got_kind != kind or (text is not None and got_text != text):
            raise self.error(repr(text) if text else f"{'a number' if kind == 'int' else 'a name'}")
        self.i += 1
        return got_text, pos

    def natural(self, what: str) -> tuple[int, int]:
        """A non-negative integer and its offset."""
        text, pos = self.take("int")
        if text.startswith("-"):
            raise DataError(f"{what} must not be negative", self.span(pos, len(text)))
        return int(text), pos

    def items(self, item: Callable[[], object]) -> list:
        """`[item, item, ...]` (possibly empty)."""
        self.take("punct", "[")
        out = []
        if self.peek()[1] != "]":
            out.append(item())
            while self.peek()[1] == ",":
                self.i += 1
                out.append(item())
        self.take("punct", "]")
        return out

    def fleet_item(self) -> tuple[int, int, int]:
        length, pos = self.natural("a ship length")
        self.take("punct", ":")
        count, _ = self.natural("a ship count")
        return length, count, pos

    def hint_item(self) -> tuple[str, int, int, int, int, int]:
        kind, pos = self.take("atom")
        self.take("punct", "@")
        self.take("punct", "[")
        row, row_pos = self.natural("a row")
        self.take("punct", ",")
        col, col_pos = self.natural("a column")
        self.take("punct", "]")
        return kind, pos, row, row_pos, col, col_pos

    def fact(self) -> tuple[str, int, list, list, list, list]:
        self.take("atom", "problem")
        self.take("punct", "(")
        ident, id_pos = self.take("int")
        self.take("punct", ",")
        fleet = self.items(self.fleet_item)
        self.take("punct", ",")
        rows = self.items(lambda: self.natural("a row sum"))
        self.take("punct", ",")
        cols = self.items(lambda: self.natural("a column sum"))
        self.take("punct", ",")
        hints = self.items(self.hint_item)
        self.take("punct", ")")
        self.take("punct", ".")
        return ident, id_pos, fleet, rows, cols, hints


def _csplib_fleet(p: _Prolog, items: list[tuple[int, int, int]]) -> list[int]:
    """`Len:Count` pairs as counts per length 1..max; lengths must be distinct and positive."""
    by_length: dict[int, int] = {}
    for length, count, pos in items:
        if length < 1 or length in by_length:
            why = "ship lengths start at 1" if length < 1 else f"ship length {length} is listed twice"
            raise DataError(why, p.span(pos, len(str(length))))
        _bounded(length, "the ship is longer than any grid this run may build", p.span(pos, len(str(length))))
        by_length[length] = count
    return [by_length.get(n, 0) for n in range(1, max(by_length, default=0) + 1)]


def _sums(p: _Prolog, items: list[tuple[int, int]], limit: int, what: str) -> list[int | None]:
    for value, pos in items:
        if value > limit:
            raise DataError(
                f"{what} {value} is larger than the board allows ({limit})", p.span(pos, len(str(value)))
            )
    return [value for value, _ in items]


def _csplib_hints(p: _Prolog, items: list, rows: int, cols: int) -> list[list[str]]:
    grid = [["-"] * cols for _ in range(rows)]
    for kind, pos, row, row_pos, col, col_pos in items:
        if kind not in CSPLIB_TO_JANKO:
            raise DataError(
                f"unknown hint type {kind!r}",
                p.span(pos, len(kind)),
                f"expected one of {', '.join(CSPLIB_TO_JANKO)}",
            )
        for value, at, size, what in ((row, row_pos, rows, "row"), (col, col_pos, cols, "column")):
            if not 1 <= value <= size:
                raise DataError(f"hint {what} {value} is outside 1..{size}", p.span(at, len(str(value))))
        letter = CSPLIB_TO_JANKO[kind]
        if grid[row - 1][col - 1] not in ("-", letter):
            raise DataError(f"conflicting hints for cell [{row},{col}]", p.span(pos, len(kind)))
        grid[row - 1][col - 1] = letter
    return grid


def load_csplib_battleship(text: str, path: str) -> Instances:
    """CSPLib prob014 facts; hints are 1-based `[Row,Col]`, rows and columns sized by the sums."""
    p = _Prolog(text, path)
    out: Instances = []
    seen: set[str] = set()
    while p.peek()[0] != "eof":
        ident, id_pos, fleet, row_items, col_items, hint_items = p.fact()
        if ident in seen:
            raise DataError(f"instance {ident} is defined twice", p.span(id_pos, len(ident)))
        seen.add(ident)
        rows, cols = len(row_items), len(col_items)
        if not rows or not cols:
            raise DataError(f"instance {ident} has an empty board", p.span(id_pos, len(ident)))
        givens: Givens = {
            "R": rows,
            "C": cols,
            "rowsum": _sums(p, row_items, cols, "row sum"),
            "colsum": _sums(p, col_items, rows, "column sum"),
            "hint": _csplib_hints(p, hint_items, rows, cols),
            "fleet": _csplib_fleet(p, fleet),
        }
        out.append((ident, givens))
    if not out:
        raise DataError("no `problem(...)` facts found", p.span(0))
    return out


def detect_csplib_battleship(text: str) -> bool:
    """A Prolog fact `problem(<number>,` at the start of a line."""
    return re.search(r"^[ \t]*problem\([ \t]*-?[0-9]+[ \t]*,", text[:16384], re.MULTILINE) is not None
