"""Shared pieces of the importers: the `Importer` record and located reading of text lines."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import NamedTuple

from puzzledsl import limits
from puzzledsl.errors import DataError, Span

Givens = dict[str, object]
Instances = list[tuple[str, Givens]]

JANKO_BATTLESHIP_TOKENS = "-xonswem"
"""Janko's battleship letters: unknown, water, single, top, bottom, left end, right end, middle."""

_HINT_SET = frozenset(JANKO_BATTLESHIP_TOKENS)

CSPLIB_TO_JANKO = {"w": "x", "c": "o", "m": "m", "t": "n", "b": "s", "l": "w", "r": "e"}
"""CSPLib/PyCSP3 hint letters translated to janko letters, so one legend serves all formats."""


class Broken(dict):
    """The givens of one entry of a multi-puzzle file that does not read: the error is raised
    only when this entry is used, so the file's other puzzles stay usable."""

    def __init__(self, error: DataError):
        super().__init__()
        self.error = error


@dataclass(frozen=True)
class Importer:
    """A named reader for one foreign format, with a cheap sniff for auto-detection."""

    name: str
    description: str
    detect: Callable[[str], bool]
    load: Callable[[str, str], Instances]
    # reads a published solution text (as puzzlekit datasets carry) into known variable values
    solution: Callable[[str, Givens], Givens | None] | None = None


# --------------------------------------------------------------------------- located text


class _Tok(NamedTuple):
    """A whitespace-separated token and where it starts (1-based)."""

    text: str
    line: int
    column: int


@dataclass(frozen=True)
class _Line:
    """One line of a line-oriented file, without its line break; tokens are found on demand."""

    number: int
    text: str

    @cached_property
    def tokens(self) -> list[_Tok]:
        """The line's tokens with their columns (slower than `str.split`, so only where needed)."""
        return [_Tok(m.group(), self.number, m.start() + 1) for m in re.finditer(r"\S+", self.text)]

    @property
    def end(self) -> int:
        """Column just past the last character: where a missing token would go."""
        return len(self.text) + 1


def _tok_span(path: str, tok: _Tok) -> Span:
    return Span(path, tok.line, tok.column, tok.line, tok.column + len(tok.text))


def _bounded(n: int, what: str, span: Span | None) -> int:
    """Refuse a size read from a file before anything that large is built (`--limit import_cells`)."""
    limits.check("import_cells", n, what, span)
    return n


def _at(path: str, line: int, column: int) -> Span:
    return Span(path, line, column, line, column + 1)


def _content_lines(text: str, path: str) -> list[_Line]:
    """Lines of a file (CRLF or LF), trailing blank lines dropped; inner blank lines are errors."""
    raw = [line.rstrip("\r") for line in text.split("\n")]
    while raw and not raw[-1].strip():
        raw.pop()
    lines = []
    for number, line in enumerate(raw, 1):
        if not line.strip():
            raise DataError(
                "unexpected blank line", _at(path, number, 1), "blank lines may only end the file"
            )
        lines.append(_Line(number, line))
    return lines


def _need_line(lines: list[_Line], index: int, what: str, path: str) -> _Line:
    """The line at 0-based `index`, or an error at the end of the file naming what is missing."""
    if index < len(lines):
        return lines[index]
    last = lines[-1] if lines else _Line(0, "")
    line = max(last.number, 1)
    raise DataError(f"missing line {index + 1}: expected {what}", _at(path, line, last.end))


def _natural(tok: _Tok, what: str, path: str, minimum: int = 0) -> int:
    """A decimal number of at least `minimum`, or a located error."""
    if not (tok.text.isascii() and tok.text.isdigit()):
        raise DataError(f"{what} must be a whole number, not {tok.text!r}", _tok_span(path, tok))
    value = int(tok.text)
    if value < minimum:
        raise DataError(f"{what} must be at least {minimum}, not {value}", _tok_span(path, tok))
    return value


def _clues(line: _Line, count: int, what: str, limit: int, path: str) -> list[int | None]:
    """A line of exactly `count` clues, each '-' (None) or a number no larger than `limit`."""
    toks = line.tokens
    if len(toks) > count:
        raise DataError(f"too many {what}: expected {count}, found {len(toks)}", _tok_span(path, toks[count]))
    if len(toks) < count:
        raise DataError(
            f"too few {what}: expected {count}, found {len(toks)}", _at(path, line.number, line.end)
        )
    out: list[int | None] = []
    for tok in toks:
        value = None if tok.text == "-" else _natural(tok, f"each of the {what}", path)
        if value is not None and value > limit:
            raise DataError(f"clue {value} is larger than the largest possible {limit}", _tok_span(path, tok))
        out.append(value)
    return out


def _size_header(line: _Line, path: str, extra: bool) -> tuple[int, int, list[_Tok]]:
    """`rows cols` (and, if `extra`, any further tokens, returned unparsed)."""
    toks = line.tokens
    if len(toks) < 2:
        raise DataError("expected `rows cols` on line 1", _at(path, line.number, line.end))
    if len(toks) > 2 and not extra:
        raise DataError("unexpected text after `rows cols`", _tok_span(path, toks[2]))
    rows = _natural(toks[0], "the number of rows", path, 1)
    cols = _natural(toks[1], "the number of columns", path, 1)
    _bounded(rows * cols, "the grid has too many cells", _tok_span(path, toks[0]))
    return rows, cols, toks[2:]


def _no_more(lines: list[_Line], used: int, path: str) -> None:
    if len(lines) > used:
        extra = lines[used]
        raise DataError(
            f"unexpected line {extra.number}: the puzzle ended on line {used}",
            _tok_span(path, extra.tokens[0]),
        )


def _instance_id(path: str) -> str:
    return Path(path).stem or path
