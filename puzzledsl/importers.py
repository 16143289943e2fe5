"""Importers for foreign puzzle file formats.

The compiler is genre-agnostic; these readers are the only genre-aware part. Each
turns a foreign file into `(instance_id, givens)` pairs of plain values (int, None
for "no clue", lists, and grids of the foreign file's one-cell tokens), so that a
rule file's legend decides what the tokens mean. Every malformed input raises a
`DataError` located at the line and column of the data file where it is wrong.
"""

from __future__ import annotations

import json
import json.decoder
import json.scanner
import re
from bisect import bisect_right
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import NamedTuple

from puzzledsl.errors import DataError, Span, register_source

Givens = dict[str, object]
Instances = list[tuple[str, Givens]]

JANKO_BATTLESHIP_TOKENS = "-xonswem"
"""Janko's battleship letters: unknown, water, single, top, bottom, left end, right end, middle."""

_HINT_SET = frozenset(JANKO_BATTLESHIP_TOKENS)

CSPLIB_TO_JANKO = {"w": "x", "c": "o", "m": "m", "t": "n", "b": "s", "l": "w", "r": "e"}
"""CSPLib/PyCSP3 hint letters translated to janko letters, so one legend serves all formats."""


@dataclass(frozen=True)
class Importer:
    """A named reader for one foreign format, with a cheap sniff for auto-detection."""

    name: str
    description: str
    detect: Callable[[str], bool]
    load: Callable[[str, str], Instances]


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
        raise DataError(f"the grid has {len(lines)} rows, expected {rows}", _at(path, last.number, last.end))
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
    raise DataError(f"grid row has {len(line.tokens)} cells, expected {cols}", where)


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


# --------------------------------------------------------------------------- JSON with positions


class _LStr(str):
    pos: int


class _LInt(int):
    pos: int


class _LFloat(float):
    pos: int


class _LList(list):
    pos: int


class _LDict(dict):
    pos: int


_LOCATED: dict[type, type] = {str: _LStr, int: _LInt, float: _LFloat, list: _LList, dict: _LDict}


def _located(value: object, pos: int) -> object:
    """Tag a decoded value with its offset (true/false/null stay untagged)."""
    kind = _LOCATED.get(type(value))
    if kind is None:
        return value
    out = kind(value)
    out.pos = pos
    return out


def _json_error(err: json.JSONDecodeError, path: str) -> DataError:
    return DataError(f"invalid JSON: {err.msg}", _at(path, err.lineno, err.colno))


def parse_json_located(text: str, path: str) -> object:
    """Decode JSON so that every string, number, list and object knows its offset (`.pos`).

    Uses the pure-Python scanner, so it is slower than `json.loads`: use it on small files,
    or only after a fast parse found something to report.
    """
    decoder = json.JSONDecoder()

    def scan(s: str, idx: int) -> tuple[object, int]:
        value, end = inner(s, idx)
        return _located(value, idx), end

    decoder.parse_object = lambda s_end, strict, _scan, hook, pairs_hook, memo: json.decoder.JSONObject(
        s_end, strict, scan, hook, pairs_hook, memo
    )
    decoder.parse_array = lambda s_end, _scan: json.decoder.JSONArray(s_end, scan)
    inner = json.scanner.py_make_scanner(decoder)
    decoder.scan_once = scan
    try:
        return decoder.decode(text)
    except json.JSONDecodeError as err:
        raise _json_error(err, path) from None


def _json_span(text: str, path: str, node: object, fallback: object = None) -> Span:
    """The span of a located JSON value, or of its container when it carries no offset."""
    pos = getattr(node, "pos", getattr(fallback, "pos", 0))
    line = text.count("\n", 0, pos) + 1
    column = pos - (text.rfind("\n", 0, pos) + 1) + 1
    return Span(path, line, column, line, column + 1)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# --------------------------------------------------------------------------- PyCSP3 JSON


_PYCSP3_KEYS = ("fleet", "hints", "rowSums", "colSums")


class _Json:
    """A located JSON document plus helpers that raise errors at a value's position."""

    def __init__(self, text: str, path: str) -> None:
        self.text, self.path = text, path
        self.root = parse_json_located(text, path)

    def fail(self, message: str, node: object, parent: object = None, help: str | None = None) -> DataError:
        return DataError(message, _json_span(self.text, self.path, node, parent), help)

    def obj(
        self, node: object, keys: tuple[str, ...], required: tuple[str, ...], what: str, parent: object = None
    ) -> dict:
        if not isinstance(node, dict):
            raise self.fail(f"{what} must be a JSON object", node, parent)
        for key in node:
            if key not in keys:
                raise self.fail(
                    f"unknown key {key!r} in {what}", node[key], node, f"expected {', '.join(keys)}"
                )
        for key in required:
            if key not in node:
                raise self.fail(f"{what} has no {key!r}", node, parent)
        return node

    def ints(self, node: object, what: str, limit: int | None, parent: object) -> list[int]:
        if not isinstance(node, list) or not node:
            raise self.fail(f"{what} must be a non-empty list of numbers", node, parent)
        for item in node:
            if not _is_int(item) or item < 0 or (limit is not None and item > limit):
                bound = f"from 0 to {limit}" if limit is not None else "of at least 0"
                raise self.fail(f"each of {what} must be a whole number {bound}", item, node)
        return [int(item) for item in node]

    def natural(self, node: dict, key: str, minimum: int, maximum: int) -> int:
        value = node.get(key)
        if not _is_int(value) or not minimum <= value <= maximum:
            raise self.fail(f"{key!r} must be a whole number from {minimum} to {maximum}", value, node)
        return int(value)


def _pycsp3_fleet(doc: _Json, node: object, parent: object, size: int) -> list[int]:
    if not isinstance(node, list):
        raise doc.fail('\'fleet\' must be a list of {"size", "cnt"} objects', node, parent)
    by_length: dict[int, int] = {}
    for item in node:
        doc.obj(item, ("size", "cnt"), ("size", "cnt"), "a fleet entry", node)
        length = doc.natural(item, "size", 1, size)
        if length in by_length:
            raise doc.fail(f"ship size {length} is listed twice", item.get("size"), item)
        by_length[length] = doc.natural(item, "cnt", 0, size * size)
    return [by_length.get(n, 0) for n in range(1, max(by_length, default=0) + 1)]


def _pycsp3_hints(doc: _Json, node: object, parent: object, rows: int, cols: int) -> list[list[str]]:
    grid = [["-"] * cols for _ in range(rows)]
    if node is None:
        return grid
    if not isinstance(node, list):
        raise doc.fail('\'hints\' must be null or a list of {"type", "row", "col"} objects', node, parent)
    for item in node:
        doc.obj(item, ("type", "row", "col"), ("type", "row", "col"), "a hint", node)
        kind = item["type"]
        if kind not in CSPLIB_TO_JANKO:
            raise doc.fail(
                f"unknown hint type {kind!r}", kind, item, f"expected one of {', '.join(CSPLIB_TO_JANKO)}"
            )
        row, col = doc.natural(item, "row", 1, rows), doc.natural(item, "col", 1, cols)
        if grid[row - 1][col - 1] not in ("-", CSPLIB_TO_JANKO[kind]):
            raise doc.fail(f"conflicting hints for row {row}, col {col}", item, node)
        grid[row - 1][col - 1] = CSPLIB_TO_JANKO[kind]
    return grid


def load_pycsp3_battleship(text: str, path: str) -> Instances:
    """PyCSP3 SolitaireBattleship data: `fleet` [{size,cnt}], `hints` (1-based) or null, sums."""
    doc = _Json(text, path)
    root = doc.obj(doc.root, _PYCSP3_KEYS, ("fleet", "rowSums", "colSums"), "the battleship data")
    rows = len(doc.ints(root["rowSums"], "'rowSums'", None, root))
    cols = len(doc.ints(root["colSums"], "'colSums'", None, root))
    rowsum = doc.ints(root["rowSums"], "'rowSums'", cols, root)
    colsum = doc.ints(root["colSums"], "'colSums'", rows, root)
    givens: Givens = {
        "R": rows,
        "C": cols,
        "rowsum": list(rowsum),
        "colsum": list(colsum),
        "hint": _pycsp3_hints(doc, root.get("hints"), root, rows, cols),
        "fleet": _pycsp3_fleet(doc, root["fleet"], root, max(rows, cols)),
    }
    return [(_instance_id(path), givens)]


def detect_pycsp3_battleship(text: str) -> bool:
    """A JSON object with PyCSP3's battleship keys and `{size, cnt}` fleet entries."""
    head = text[:16384]
    return head.lstrip().startswith("{") and all(
        f'"{k}"' in head for k in ("fleet", "rowSums", "colSums", "cnt")
    )


# --------------------------------------------------------------------------- puzzlekit datasets


def _raw_offset(text: str, quote: int, index: int) -> int:
    """Offset in the file of character `index` of the JSON string literal opening at `quote`."""
    pos = quote + 1
    for _ in range(index):
        if text[pos] == "\\":
            if text[pos + 1] != "u":
                pos += 2
            elif 0xD800 <= int(text[pos + 2 : pos + 6], 16) < 0xDC00 and text[pos + 6 : pos + 8] == "\\u":
                pos += 12
            else:
                pos += 6
        elif text[pos] == '"':
            break
        else:
            pos += 1
    return pos


def _inner_index(inner: str, line: int, column: int) -> int:
    """Offset in a decoded multi-line string of a 1-based line and column."""
    lines = inner.split("\n")
    line = min(max(line, 1), len(lines))
    return min(sum(len(x) + 1 for x in lines[: line - 1]) + column - 1, len(inner))


def _relocate(err: DataError, text: str, path: str, literal: object, entry: str, inner: str) -> DataError:
    """Re-point an error found in an embedded problem text at the same spot inside the JSON file."""
    span = err.span or Span(path, 1, 1)
    start = _raw_offset(text, literal.pos, _inner_index(inner, span.line, span.column))
    width = max(span.end_column - span.column, 1) if span.end_line == span.line else 1
    line = text.count("\n", 0, start) + 1
    column = start - (text.rfind("\n", 0, start) + 1) + 1
    where = f"line {span.line}, column {span.column} of its problem text"
    return DataError(
        f"entry {entry!r} ({where}): {err.message}", Span(path, line, column, line, column + width), err.help
    )


def _puzzlekit_problem(root: object) -> tuple[str, tuple[str, ...]] | None:
    """What is wrong with a decoded dataset's structure, and the keys leading to it, if anything."""
    data = root.get("data") if isinstance(root, dict) else None
    if not isinstance(data, dict):
        return 'a puzzlekit dataset needs a top-level "data" object', ()
    if not data:
        return "the dataset has no entries", ("data",)
    for key, entry in data.items():
        if not isinstance(entry, dict) or not isinstance(entry.get("problem"), str):
            return f'entry {key!r} needs a string "problem"', ("data", key)
    return None


def _puzzlekit_entries(text: str, path: str) -> dict[str, dict]:
    """The `data` mapping; the slower located parse runs only to place an error."""
    try:
        root = json.loads(text)
    except json.JSONDecodeError as err:
        raise _json_error(err, path) from None
    problem = _puzzlekit_problem(root)
    if problem is not None:
        node = parent = parse_json_located(text, path)
        for key in problem[1]:
            parent, node = node, node[key]
        raise DataError(problem[0], _json_span(text, path, node, parent))
    return root["data"]


def load_puzzlekit(text: str, path: str, inner: Importer) -> Instances:
    """Apply a janko text importer to every entry's `problem`; instance ids are the entry keys."""
    out: Instances = []
    for key, entry in _puzzlekit_entries(text, path).items():
        problem = entry["problem"]
        try:
            loaded = inner.load(problem, path)
        except DataError as err:
            literal = parse_json_located(text, path)["data"][key]["problem"]
            raise _relocate(err, text, path, literal, key, problem) from None
        out.extend((key if len(loaded) == 1 else f"{key}/{sub}", givens) for sub, givens in loaded)
    return out


_FIRST_PROBLEM = re.compile(r'"problem"\s*:\s*("(?:[^"\\]|\\.)*")')


def detect_puzzlekit(text: str, inner: Importer) -> bool:
    """A JSON object with a `data` mapping whose first `problem` the inner importer recognises."""
    head = text[:65536]
    match = _FIRST_PROBLEM.search(head)
    if not head.lstrip().startswith("{") or '"data"' not in head or match is None:
        return False
    try:
        problem = json.loads(match.group(1))
    except json.JSONDecodeError:
        return False
    return inner.detect(problem)


def _puzzlekit(name: str, inner: Importer) -> Importer:
    return Importer(
        name=name,
        description=f'puzzlekit-dataset JSON ({{"data": {{id: {{"problem": ...}}}}}}) of {inner.name} texts',
        detect=lambda text: detect_puzzlekit(text, inner),
        load=lambda text, path: load_puzzlekit(text, path, inner),
    )


# --------------------------------------------------------------------------- registry

JANKO_KAKURASU = Importer(
    "janko_kakurasu",
    "janko.at Kakurasu text: `rows cols`, column clues, row clues ('-' = no clue)",
    detect_janko_kakurasu,
    load_janko_kakurasu,
)
JANKO_BATTLESHIP = Importer(
    "janko_battleship",
    "janko.at Battleships text: `rows cols [ships of length 1, 2, ...]`, column counts, row counts, grid",
    detect_janko_battleship,
    load_janko_battleship,
)
CSPLIB_BATTLESHIP = Importer(
    "csplib_battleship",
    "CSPLib prob014 Prolog facts problem(Id, [Len:Count,...], RowSums, ColSums, [Type@[Row,Col],...])",
    detect_csplib_battleship,
    load_csplib_battleship,
)
PYCSP3_BATTLESHIP = Importer(
    "pycsp3_battleship",
    "PyCSP3 SolitaireBattleship JSON: fleet [{size, cnt}], hints [{type, row, col}] or null, "
    "rowSums, colSums",
    detect_pycsp3_battleship,
    load_pycsp3_battleship,
)

IMPORTERS: dict[str, Importer] = {
    imp.name: imp
    for imp in (
        JANKO_KAKURASU,
        JANKO_BATTLESHIP,
        CSPLIB_BATTLESHIP,
        PYCSP3_BATTLESHIP,
        _puzzlekit("puzzlekit_kakurasu", JANKO_KAKURASU),
        _puzzlekit("puzzlekit_battleship", JANKO_BATTLESHIP),
    )
}


def detect(text: str) -> list[str]:
    """Names of the importers whose sniff accepts `text` (ideally exactly one)."""
    return [name for name, imp in IMPORTERS.items() if imp.detect(text)]


def load_with(name: str, text: str, path: str) -> Instances:
    """Load `text` (read from `path`) with the named importer."""
    importer = IMPORTERS.get(name)
    if importer is None:
        raise DataError(f"unknown importer {name!r}", help=f"known importers: {', '.join(sorted(IMPORTERS))}")
    register_source(path, text)
    return importer.load(text, path)
