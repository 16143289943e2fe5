"""janko.at texts: Kakurasu and Battleships, as in the puzzlekit datasets' `problem` fields."""

from __future__ import annotations

import re

from puzzledsl import words
from puzzledsl.errors import DataError

from .base import (
    _HINT_SET,
    JANKO_BATTLESHIP_TOKENS,
    Givens,
    Instances,
    _at,
    _clues,
    _content_lines,
    _instance_id,
    _Line,
    _natural,
    _need_line,
    _no_more,
    _size_header,
    _Tok,
    _tok_span,
)

# --------------------------------------------------------------------------- janko texts


def load_janko_kakurasu(text: str, path: str) -> Instances:
    """`rows cols`, column clues, row clues; clues are sums of 1-based weights."""
    lines = _content_lines(text, path)
    rows, cols, _ = _size_header(_need_line(lines, 0, "`rows cols`", path), path, extra=False)
    colsum = _clues(
        _need_line(lines, 1, "the column clues", path), cols, "column clues", rows * (rows + 1) // 2, path
    )
    rowsum = _clues(
        _need_line(lines, 2, "the row clues", path), rows, "row clues", cols * (cols + 1) // 2, path
    )
    _no_more(lines, 3, path)
    return [(_instance_id(path), {"R": rows, "C": cols, "rowsum": rowsum, "colsum": colsum})]


def _fleet(toks: list[_Tok], rows: int, cols: int, path: str) -> list[int] | None:
    """Ship counts by length 1, 2, ... from the header; a ship must fit the board."""
    if not toks:
        return None
    fleet = [_natural(tok, "each ship count", path) for tok in toks]
    for length, (tok, count) in enumerate(zip(toks, fleet, strict=True), 1):
        if count and length > max(rows, cols):
            raise DataError(
                f"ships of length {length} do not fit a {rows}x{cols} board", _tok_span(path, tok)
            )
    return fleet


def _token_grid(lines: list[_Line], rows: int, cols: int, path: str) -> list[list[str]]:
    """Exactly `rows` lines of `cols` battleship letters."""
    if len(lines) < rows:
        last = lines[-1]
        raise DataError(f"the grid has {words.count(len(lines), 'row')}, expected {rows}",
                        _at(path, last.number, last.end))
    grid = []
    for line in lines:
        cells = line.text.split()
        if len(cells) != cols or not all(cell in _HINT_SET for cell in cells):
            _grid_line_error(line, cols, path)
        grid.append(cells)
    return grid


def _grid_line_error(line: _Line, cols: int, path: str) -> None:
    """Raise the located error for a grid line that failed the fast check."""
    for tok in line.tokens[:cols]:
        if tok.text not in _HINT_SET:
            raise DataError(
                f"unknown grid token {tok.text!r}",
                _tok_span(path, tok),
                f"expected one of {' '.join(JANKO_BATTLESHIP_TOKENS)}",
            )
    where = (
        _tok_span(path, line.tokens[cols]) if len(line.tokens) > cols else _at(path, line.number, line.end)
    )
    raise DataError(f"grid row has {words.count(len(line.tokens), 'cell')}, expected {cols}", where)


def _no_more_grid(lines: list[_Line], rows: int, path: str) -> None:
    if len(lines) > rows:
        extra = lines[rows]
        raise DataError(f"the grid has more than {rows} rows", _tok_span(path, extra.tokens[0]))


def load_janko_battleship(text: str, path: str) -> Instances:
    """`rows cols [fleet...]`, column counts, row counts, then an optional hint grid."""
    lines = _content_lines(text, path)
    rows, cols, rest = _size_header(_need_line(lines, 0, "`rows cols`", path), path, extra=True)
    fleet = _fleet(rest, rows, cols, path)
    colsum = _clues(_need_line(lines, 1, "the column counts", path), cols, "column counts", rows, path)
    rowsum = _clues(_need_line(lines, 2, "the row counts", path), rows, "row counts", cols, path)
    grid_lines = lines[3:]
    _no_more_grid(grid_lines, rows, path)
    hint = _token_grid(grid_lines, rows, cols, path) if grid_lines else [["-"] * cols for _ in range(rows)]
    givens: Givens = {"R": rows, "C": cols, "rowsum": rowsum, "colsum": colsum, "hint": hint}
    if fleet is not None:
        givens["fleet"] = fleet
    return [(_instance_id(path), givens)]


_NUMBERS = re.compile(r"[ \t]*[0-9]+(?:[ \t]+[0-9]+)*[ \t]*\r?")
_CLUES = re.compile(r"[ \t]*(?:[0-9]+|-)(?:[ \t]+(?:[0-9]+|-))*[ \t]*\r?")
_GRID = re.compile(rf"[ \t]*[{JANKO_BATTLESHIP_TOKENS}](?:[ \t]+[{JANKO_BATTLESHIP_TOKENS}])*[ \t]*\r?")


def _head_lines(text: str, limit: int = 8192) -> list[str]:
    """The first non-blank-trimmed lines of the file's head: enough to sniff without reading it all."""
    return text[:limit].strip().split("\n")


def detect_janko_kakurasu(text: str) -> bool:
    """Exactly `rows cols` + two clue lines. (A fleet-less, grid-less battleship looks the same.)"""
    lines = _head_lines(text)
    return (
        len(text) < 8192
        and len(lines) == 3
        and _NUMBERS.fullmatch(lines[0]) is not None
        and len(lines[0].split()) == 2
        and all(_CLUES.fullmatch(line) for line in lines[1:])
    )


def detect_janko_battleship(text: str) -> bool:
    """`rows cols` with fleet counts, or followed by a grid of battleship letters."""
    lines = _head_lines(text)
    if len(lines) < 3 or not _NUMBERS.fullmatch(lines[0]) or not all(_CLUES.fullmatch(x) for x in lines[1:3]):
        return False
    has_fleet = len(lines[0].split()) > 2
    has_grid = len(lines) > 3 and _GRID.fullmatch(lines[3]) is not None
    return has_grid or (has_fleet and len(lines) == 3)
