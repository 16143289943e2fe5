"""CSPLib prob014 (Solitaire Battleship) Prolog facts."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from puzzledsl.errors import DataError, Span

from .base import (
    CSPLIB_TO_JANKO,
    Givens,
    Instances,
    _bounded,
)

if TYPE_CHECKING:  # lark is imported when a file of this format is read, not with the importers
    from lark import Token, Tree

# --------------------------------------------------------------------------- CSPLib Prolog facts
# The grammar is grammars/csplib_battleship.lark (beside this module); here the facts become givens, each value
# checked where it stands.

_WORDS = {"INT": "a number", "ATOM": "a name"}
_SHIP = ("a ship length", "a ship count")
_CELL = ("a row", "a column")


class _Facts:
    """The parsed facts of one file; `span` locates a value's error at its token."""

    def __init__(self, text: str, path: str) -> None:
        from .lark_reader import parse
        self.path = path
        self.tree = parse("csplib_battleship", text, path, _WORDS)

    def span(self, tok: Token) -> Span:
        from .lark_reader import token_span
        return token_span(self.path, tok)

    def naturals(self, fact: Tree) -> None:
        """Every number of a fact but its id is non-negative (checked in the order they are written)."""
        _, fleet, row_sums, col_sums, hints = fact.children
        named = [(tok, what) for ship in fleet.children for tok, what in zip(ship.children, _SHIP)]
        named += [(tok, "a row sum") for tok in row_sums.children]
        named += [(tok, "a column sum") for tok in col_sums.children]
        named += [(tok, what) for hint in hints.children for tok, what in zip(hint.children[1:], _CELL)]
        for tok, what in named:
            if tok.startswith("-"):
                raise DataError(f"{what} must not be negative", self.span(tok))


def _csplib_fleet(p: _Facts, ships: list[Tree]) -> list[int]:
    """`Len:Count` pairs as counts per length 1..max; lengths must be distinct and positive."""
    by_length: dict[int, int] = {}
    for ship in ships:
        length_tok, count_tok = ship.children
        length, count = int(length_tok), int(count_tok)
        if length < 1 or length in by_length:
            why = "ship lengths start at 1" if length < 1 else f"ship length {length} is listed twice"
            raise DataError(why, p.span(length_tok))
        _bounded(length, "the ship is longer than any grid this run may build", p.span(length_tok))
        by_length[length] = count
    return [by_length.get(n, 0) for n in range(1, max(by_length, default=0) + 1)]


def _sums(p: _Facts, toks: list[Token], limit: int, what: str) -> list[int | None]:
    values = [int(tok) for tok in toks]
    for value, tok in zip(values, toks):
        if value > limit:
            raise DataError(f"{what} {value} is larger than the board allows ({limit})", p.span(tok))
    return values


def _csplib_hints(p: _Facts, hints: list[Tree], rows: int, cols: int) -> list[list[str]]:
    grid = [["-"] * cols for _ in range(rows)]
    for hint in hints:
        kind, row_tok, col_tok = hint.children
        row, col = int(row_tok), int(col_tok)
        if kind not in CSPLIB_TO_JANKO:
            raise DataError(
                f"unknown hint type {str(kind)!r}",
                p.span(kind),
                f"expected one of {', '.join(CSPLIB_TO_JANKO)}",
            )
        for value, tok, size, what in ((row, row_tok, rows, "row"), (col, col_tok, cols, "column")):
            if not 1 <= value <= size:
                raise DataError(f"hint {what} {value} is outside 1..{size}", p.span(tok))
        letter = CSPLIB_TO_JANKO[kind]
        if grid[row - 1][col - 1] not in ("-", letter):
            raise DataError(f"conflicting hints for cell [{row},{col}]", p.span(kind))
        grid[row - 1][col - 1] = letter
    return grid


def load_csplib_battleship(text: str, path: str) -> Instances:
    """CSPLib prob014 facts; hints are 1-based `[Row,Col]`, rows and columns sized by the sums."""
    p = _Facts(text, path)
    out: Instances = []
    seen: set[str] = set()
    for fact in p.tree.children:
        p.naturals(fact)
        id_tok, fleet, row_sums, col_sums, hints = fact.children
        ident = str(id_tok)
        if ident in seen:
            raise DataError(f"instance {ident} is defined twice", p.span(id_tok))
        seen.add(ident)
        rows, cols = len(row_sums.children), len(col_sums.children)
        if not rows or not cols:
            raise DataError(f"instance {ident} has an empty board", p.span(id_tok))
        givens: Givens = {
            "R": rows,
            "C": cols,
            "rowsum": _sums(p, row_sums.children, cols, "row sum"),
            "colsum": _sums(p, col_sums.children, rows, "column sum"),
            "hint": _csplib_hints(p, hints.children, rows, cols),
            "fleet": _csplib_fleet(p, fleet.children),
        }
        out.append((ident, givens))
    if not out:
        raise DataError("no `problem(...)` facts found", Span(path, 1, 1, 1, 2))
    return out


def detect_csplib_battleship(text: str) -> bool:
    """A Prolog fact `problem(<number>,` at the start of a line."""
    return re.search(r"^[ \t]*problem\([ \t]*-?[0-9]+[ \t]*,", text[:16384], re.MULTILINE) is not None
