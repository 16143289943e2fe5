"""janko.at grid texts described by a layout: `rows cols [extras]`, then clue lines and grids.

Most genres of the puzzlekit datasets share one shape: a header line, then some lines of
clues (one per row, one per column, or R/C lines of varying length) and some R×C grids of
tokens. A `Layout` names these parts in order; one reader turns any such text into givens
(tokens stay strings, so a rule file's legend decides what they mean). A token that holds
two values (`2.1`: thermometer 2, bulb 1) is split by a pattern with named groups, each
group becoming a given of its own (`?` where the group is absent).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from puzzledsl.errors import DataError

from .base import (
    Givens,
    Importer,
    Instances,
    _at,
    _content_lines,
    _instance_id,
    _Line,
    _natural,
    _no_more,
    _size_header,
    _tok_span,
)
from .puzzlekit import load_puzzlekit

ROW, COL, GRID, ROW_LINES, COL_LINES = "row", "col", "grid", "row lines", "col lines"
"""Part kinds: one line of C tokens, one line of R tokens, R lines of C tokens, R (C) lines of
any number of tokens (padded with `-` to the longest; a line `0` is empty)."""


@dataclass(frozen=True)
class Part:
    name: str
    kind: str
    token: str = r"\S+"  # what one token may be (a regex; named groups split it)
    what: str = ""  # how an error names the token: "a number or -"
    optional: bool = False  # a grid that may be left out (told by the number of lines) ...
    missing: str = "-"  # ... and then reads as this token in every cell


@dataclass(frozen=True)
class Layout:
    header: tuple[str, ...] = ()  # names of the numbers after `rows cols`
    flags: dict[str, str] = field(default_factory=dict)  # header letter -> bool given it sets
    parts: tuple[Part, ...] = ()


NUMBER_OR_DASH = r"[0-9]+|-"


def _header(line: _Line, layout: Layout, path: str) -> Givens:
    rows, cols, rest = _size_header(line, path, extra=bool(layout.header or layout.flags))
    givens: Givens = {"R": rows, "C": cols} | {name: False for name in layout.flags.values()}
    numbers = [tok for tok in rest if tok.text not in layout.flags]
    for tok in rest:
        if tok.text in layout.flags:
            givens[layout.flags[tok.text]] = True
    if len(numbers) > len(layout.header):
        raise DataError("unexpected text in the header", _tok_span(path, numbers[len(layout.header)]))
    if len(numbers) < len(layout.header):
        raise DataError(f"the header needs `rows cols {' '.join(layout.header)}`", _at(path, line.number, line.end))
    for name, tok in zip(layout.header, numbers, strict=True):
        givens[name] = _natural(tok, f"`{name}` in the header", path)
    return givens


def _tokens(line: _Line, part: Part, count: int | None, path: str) -> list[str]:
    """The line's tokens, each matching the part's pattern; exactly `count` of them unless None."""
    toks = line.tokens
    if count is not None and len(toks) != count:
        where = _tok_span(path, toks[count]) if len(toks) > count else _at(path, line.number, line.end)
        raise DataError(f"{part.name}: expected {count} tokens on line {line.number}, found {len(toks)}", where)
    pattern = re.compile(part.token)
    for tok in toks:
        if pattern.fullmatch(tok.text) is None:
            raise DataError(f"{part.name}: unexpected token {tok.text!r}", _tok_span(path, tok),
                            f"expected {part.what or part.token}")
    return [tok.text for tok in toks]


def _split(part: Part, value: list) -> Givens:
    """The part itself, and one given per named group of its token pattern."""
    out: Givens = {part.name: value}
    pattern = re.compile(part.token)
    for group in pattern.groupindex:
        def cell(tok: str, group: str = group) -> str:
            return pattern.fullmatch(tok).group(group) or "?"
        out[group] = [[cell(t) for t in row] for row in value] if value and isinstance(value[0], list) \
            else [cell(t) for t in value]
    return out


def _read_part(lines: list[_Line], at: int, part: Part, rows: int, cols: int, path: str) -> tuple[list, int]:
    """The part's value and the index of the line after it."""
    if part.kind in (ROW, COL):
        return _tokens(lines[at], part, cols if part.kind == ROW else rows, path), at + 1
    count = cols if part.kind == COL_LINES else rows
    block = lines[at : at + count]
    if part.kind == GRID:
        return [_tokens(line, part, cols, path) for line in block], at + count
    ragged = [[t for t in _tokens(line, part, None, path) if t != "0"] for line in block]
    width = max(1, *(len(r) for r in ragged))
    return [r + ["-"] * (width - len(r)) for r in ragged], at + count


def _line_counts(part: Part, rows: int, cols: int) -> int:
    return {ROW: 1, COL: 1, GRID: rows, ROW_LINES: rows, COL_LINES: cols}[part.kind]


def load_layout(text: str, path: str, layout: Layout) -> Instances:
    lines = _content_lines(text, path)
    if not lines:
        raise DataError("expected `rows cols` on line 1", _at(path, 1, 1))
    givens = _header(lines[0], layout, path)
    rows, cols = givens["R"], givens["C"]
    required = 1 + sum(_line_counts(p, rows, cols) for p in layout.parts if not p.optional)
    with_optional = required + sum(_line_counts(p, rows, cols) for p in layout.parts if p.optional)
    keep = len(lines) >= with_optional
    if len(lines) < required:
        last = lines[-1]
        raise DataError(f"the puzzle needs {required} lines, this one has {len(lines)}",
                        _at(path, last.number, last.end))
    at = 1
    for part in layout.parts:
        if part.optional and not keep:
            value = [[part.missing] * cols for _ in range(rows)]
        else:
            value, at = _read_part(lines, at, part, rows, cols, path)
        givens |= _split(part, value)
    _no_more(lines, at, path)
    return [(_instance_id(path), givens)]


def janko_layout(name: str, genre: str, layout: Layout) -> Importer:
    """A janko text importer; never guessed (files of many genres look alike), named by `format`."""
    parts = ", ".join(p.name for p in layout.parts)
    return Importer(name, f"janko.at {genre} text: `rows cols{''.join(' ' + h for h in layout.header)}`, {parts}",
                    lambda text: False, lambda text, path: load_layout(text, path, layout))


_NAME = re.compile(r'"name"\s*:\s*"([^"\\]*)"')


def puzzlekit_layout(name: str, genre: str, inner: Importer) -> Importer:
    """The puzzlekit dataset of `genre`, recognised by its `"name"` field."""
    def detect(text: str) -> bool:
        head = text[:4096]
        names = _NAME.findall(head)
        return head.lstrip().startswith("{") and '"data"' in text[:65536] and genre in names[:1]

    return Importer(name, f'puzzlekit-dataset JSON ("name": "{genre}") of {inner.name} texts', detect,
                    lambda text, path: load_puzzlekit(text, path, inner))

