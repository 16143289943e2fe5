"""Santa Chilly (c't 28/2023) levels: a board of one character per cell and hole connections.

Both readers give one `board` grid of one-character strings per puzzle (' ' ice, 'T' tree,
'#' rock, 'O' hole, '$' present, 'P' start, 'X' exit) and two grids `to_row`, `to_col`: for a
hole, the 0-based row and column of the hole it leads to; None for every other cell. The files
give connections as 0-based (x, y) = (column, row).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass

from puzzledsl import words
from puzzledsl.errors import DataError, Span, offset_span

from .base import Broken, Givens, Importer, Instances, _at, _instance_id, _Line
from .located_json import _is_int, _json_error, _json_span, parse_json_located
from .puzzlekit import _raw_offset

CELLS = " T#O$PX"
"""Ice, tree, rock, hole, present, start, exit."""

_CELL_HELP = "cells are ' ' ice, 'T' tree, '#' rock, 'O' hole, '$' present, 'P' start, 'X' exit"


@dataclass(frozen=True)
class _Conn:
    """One hole connection, (x, y) = (column, row), and how to locate its parts in the file."""

    src: tuple[int, int]
    dst: tuple[int, int]
    where: Callable[[str], Span]
    """Span of "src", "dst", "src.x", "src.y", "dst.x" or "dst.y"."""


def _build(rows: list[str], conns: list[_Conn], cell: Callable[[int, int], Span], board: Span) -> Givens:
    """Check a level and give its board and hole targets.

    `cell(r, c)` locates character c of row r (c may be the row's length: just past its end);
    `board` is where an error about the whole board goes.
    """
    width = len(rows[0])
    if width == 0:
        raise DataError("the first row of the board is empty", cell(0, 0), "every row has the same width, at least 1")
    for r, row in enumerate(rows):
        if len(row) != width:
            raise DataError(
                f"board row {r + 1} has {words.count(len(row), 'cell')}, expected {width} like the first row",
                cell(r, min(len(row), width)),
            )
        for c, char in enumerate(row):
            if char not in CELLS:
                raise DataError(f"unexpected character {char!r} in the board", cell(r, c), _CELL_HELP)
    for char, what in (("P", "start"), ("X", "exit")):
        places = [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == char]
        if not places:
            raise DataError(f"the board has no {what} {char!r}", board, f"a level has exactly one {what}")
        if len(places) > 1:
            first = places[0]
            raise DataError(
                f"a second {what} {char!r}",
                cell(*places[1]),
                f"a level has exactly one {what}; the first is in row {first[0] + 1}, column {first[1] + 1}",
            )
    height = len(rows)
    target: dict[tuple[int, int], tuple[int, int]] = {}
    for conn in conns:
        for end in ("src", "dst"):
            x, y = getattr(conn, end)
            if x >= width:
                raise DataError(f"x = {x} is outside the board (0 to {width - 1})", conn.where(f"{end}.x"))
            if y >= height:
                raise DataError(f"y = {y} is outside the board (0 to {height - 1})", conn.where(f"{end}.y"))
            if rows[y][x] != "O":
                what = "source" if end == "src" else "destination"
                raise DataError(
                    f"the connection's {what} ({x},{y}) is {rows[y][x]!r}, not a hole 'O'",
                    conn.where(end),
                    "connections join holes; x is the column and y the row, both from 0",
                )
        if conn.src in target:
            raise DataError(
                f"a second connection from hole ({conn.src[0]},{conn.src[1]})",
                conn.where("src"),
                "each hole leads to exactly one other hole",
            )
        target[conn.src] = conn.dst
    to_row: list[list[int | None]] = [[None] * width for _ in rows]
    to_col: list[list[int | None]] = [[None] * width for _ in rows]
    for r, row in enumerate(rows):
        for c, char in enumerate(row):
            if char != "O":
                continue
            if (c, r) not in target:
                raise DataError(
                    f"hole ({c},{r}) has no connection", cell(r, c), "each hole leads to exactly one other hole"
                )
            to_col[r][c], to_row[r][c] = target[(c, r)]
    return {"board": [list(row) for row in rows], "to_row": to_row, "to_col": to_col}


# --------------------------------------------------------------------------- level.txt

_NUM = r"[0-9]+"
_PAIR = [(r"\(", "'('"), (_NUM, "x"), (r",", "','"), (_NUM, "y"), (r"\)", "')'")]
_CONNECTION = [*_PAIR, (r"->", "'->'"), *_PAIR]
_BLANKS = " \t"


def _connections(line: _Line, path: str) -> list[_Conn]:
    """`(x,y)->(x,y);(x,y)->(x,y);...`, blanks anywhere between tokens, an optional final ';'."""
    text = line.text
    pos = 0
    out: list[_Conn] = []

    def skip(p: int) -> int:
        while p < len(text) and text[p] in _BLANKS:
            p += 1
        return p

    pos = skip(pos)
    while pos < len(text):
        starts: list[int] = []  # 1-based column of each item of the connection
        numbers: list[tuple[int, int, int]] = []  # value, start column, end column
        for pattern, name in _CONNECTION:
            pos = skip(pos)
            m = re.compile(pattern).match(text, pos)
            if m is None:
                found = repr(text[pos]) if pos < len(text) else "the end of the line"
                raise DataError(
                    f"expected {name} in a hole connection `(x,y)->(x,y)`, found {found}",
                    _at(path, line.number, pos + 1),
                    "line 1 lists the hole connections `(x,y)->(x,y)`, apart by ';'",
                )
            starts.append(pos + 1)
            if pattern == _NUM:
                numbers.append((int(m.group()), pos + 1, m.end() + 1))
            pos = m.end()
        out.append(_text_conn(path, line.number, numbers, (starts[0], starts[4] + 1), (starts[6], pos + 1)))
        pos = skip(pos)
        if pos < len(text):
            if text[pos] != ";":
                raise DataError(
                    f"expected ';' between hole connections, found {text[pos]!r}", _at(path, line.number, pos + 1)
                )
            pos = skip(pos + 1)
    return out


def _text_conn(
    path: str, line: int, numbers: list[tuple[int, int, int]], src: tuple[int, int], dst: tuple[int, int]
) -> _Conn:
    """A connection read from line 1; `src` and `dst` are the columns of its two `(x,y)`, end exclusive."""
    (sx, sxa, sxb), (sy, sya, syb), (dx, dxa, dxb), (dy, dya, dyb) = numbers
    spans = {
        "src": Span(path, line, src[0], line, src[1]),
        "dst": Span(path, line, dst[0], line, dst[1]),
        "src.x": Span(path, line, sxa, line, sxb),
        "src.y": Span(path, line, sya, line, syb),
        "dst.x": Span(path, line, dxa, line, dxb),
        "dst.y": Span(path, line, dya, line, dyb),
    }
    return _Conn((sx, sy), (dx, dy), spans.__getitem__)


def load_chilly_text(text: str, path: str) -> Instances:
    """The seed's `level.txt`: line 1 the hole connections, then one line per row ending in '|'."""
    raw = [line.rstrip("\r") for line in text.split("\n")]
    while raw and not raw[-1].strip():
        raw.pop()
    if not raw:
        raise DataError(
            "the file holds no level: expected the hole connections, then board rows ending in '|'", _at(path, 1, 1)
        )
    conns = _connections(_Line(1, raw[0]), path)
    if len(raw) < 2:
        raise DataError(
            "the file has no board: expected rows ending in '|' after line 1", _at(path, 1, len(raw[0]) + 1)
        )
    rows: list[str] = []
    for number, line in enumerate(raw[1:], 2):
        if not line.strip():
            raise DataError("unexpected blank line", _at(path, number, 1), "blank lines may only end the file")
        body = line.rstrip(_BLANKS)
        if not body.endswith("|"):
            raise DataError(
                "a board row must end in '|'",
                _at(path, number, len(line) + 1),
                "the cells are the characters before it",
            )
        rows.append(body[:-1])
    givens = _build(rows, conns, lambda r, c: _at(path, r + 2, c + 1), _at(path, 2, 1))
    return [(_instance_id(path), givens)]


_POINT_RE = r"[ \t]*\([ \t]*[0-9]+[ \t]*,[ \t]*[0-9]+[ \t]*\)[ \t]*"
_CONN_RE = rf"{_POINT_RE}->{_POINT_RE}"
_CONN_LINE = re.compile(rf"(?:{_CONN_RE}(?:;{_CONN_RE})*;?)?[ \t]*")
_ROW = re.compile(r"[ T#O$PX]*\|[ \t]*")


def detect_chilly_text(text: str) -> bool:
    """Line 1 hole connections (maybe none), then rows of level characters, each ending in '|'."""
    lines = [line.rstrip("\r") for line in text[:8192].split("\n", 6)[:6]]
    rows = [line for line in lines[1:5] if line.strip()]
    return bool(_CONN_LINE.fullmatch(lines[0])) and bool(rows) and all(_ROW.fullmatch(row) for row in rows)


# --------------------------------------------------------------------------- the game's JSON


class _Level:
    """One level of the JSON list, located: errors point at the value that is wrong."""

    def __init__(self, text: str, path: str, node: object, parent: object, index: int) -> None:
        self.text, self.path, self.index = text, path, index
        self.name = f"level {index}"
        if not isinstance(node, dict):
            raise self.fail('must be a JSON object with "data" and "connections"', node, parent)
        self.node = node
        name = node.get("name", None)
        if "name" in node:
            if not isinstance(name, str) or not name:
                raise self.fail('"name" must be a non-empty string', name, node)
            self.name = f"level {index} ({name!r})"
        self.key = name if isinstance(name, str) else str(index)

    def fail(self, message: str, node: object, parent: object = None, help: str | None = None) -> DataError:
        return DataError(f"{self.name}: {message}", _json_span(self.text, self.path, node, parent), help)

    def rows(self) -> list[str]:
        data = self.node.get("data")
        if not isinstance(data, list) or not data or not all(isinstance(row, str) for row in data):
            bad = next((row for row in data if not isinstance(row, str)), data) if isinstance(data, list) else data
            raise self.fail('"data" must be a non-empty list of row strings', bad, self.node)
        return [str(row) for row in data]

    def cell(self, r: int, c: int) -> Span:
        literal = self.node["data"][r]
        pos = _raw_offset(self.text, literal.pos, c)
        return offset_span(self.text, self.path, pos, pos + 1)

    def connections(self) -> list[_Conn]:
        conns = self.node.get("connections", [])
        if not isinstance(conns, list):
            raise self.fail('"connections" must be a list of {"src": {"x", "y"}, "dst": {"x", "y"}}', conns, self.node)
        return [self._conn(item, conns) for item in conns]

    def _conn(self, item: object, parent: object) -> _Conn:
        if not isinstance(item, dict):
            raise self.fail('a connection must be an object {"src": {"x", "y"}, "dst": {"x", "y"}}', item, parent)
        ends: dict[str, tuple[int, int]] = {}
        for end in ("src", "dst"):
            point = item.get(end)
            if not isinstance(point, dict):
                raise self.fail(f'a connection needs {end!r}: {{"x": column, "y": row}}', point, item)
            for axis in ("x", "y"):
                value = point.get(axis)
                if not _is_int(value) or value < 0:
                    raise self.fail(f'{end}\'s "{axis}" must be a whole number of at least 0', value, point)
            ends[end] = (int(point["x"]), int(point["y"]))

        def where(part: str) -> Span:
            end, _, axis = part.partition(".")
            node = item[end][axis] if axis else item[end]
            return _json_span(self.text, self.path, node)

        return _Conn(ends["src"], ends["dst"], where)

    def givens(self) -> Givens:
        rows = self.rows()
        conns = self.connections()
        board = _json_span(self.text, self.path, self.node["data"])
        try:
            return _build(rows, conns, self.cell, board)
        except DataError as err:
            raise DataError(f"{self.name}: {err.message}", err.span, err.help) from None


def load_chilly_json(text: str, path: str) -> Instances:
    """The game's level list: `[{"name", "data": [rows], "connections": [{"src", "dst"}]}, ...]`."""
    try:
        json.loads(text)
    except json.JSONDecodeError as err:
        raise _json_error(err, path) from None
    root = parse_json_located(text, path)
    if not isinstance(root, list) or not root:
        raise DataError(
            "expected a non-empty JSON list of levels",
            _json_span(text, path, root),
            'each {"name", "data", "connections"}',
        )
    out: Instances = []
    seen: dict[str, int] = {}
    for index, node in enumerate(root, 1):
        try:
            level = _Level(text, path, node, root, index)
            if level.key in seen:
                raise level.fail(
                    f"the name {level.key!r} is used twice", node.get("name"), node, f"first by level {seen[level.key]}"
                )
            seen[level.key] = index
            out.append((level.key, level.givens()))
        except DataError as err:
            name = node.get("name") if isinstance(node, dict) else None
            out.append((name if isinstance(name, str) and name else str(index), Broken(err)))  # raised if chosen
    if all(isinstance(givens, Broken) for _, givens in out):
        raise out[0][1].error  # type: ignore[union-attr]
    return out


def detect_chilly_json(text: str) -> bool:
    """A JSON list whose first level has `data` and `connections`."""
    head = text[:16384]
    return head.lstrip().startswith("[") and '"connections"' in head and '"data"' in head


# --------------------------------------------------------------------------- registry entries

CHILLY_TEXT = Importer(
    "chilly_text",
    "Santa Chilly level.txt (c't 28/2023): line 1 hole connections `(x,y)->(x,y);...` (0-based, x = column), "
    "then board rows ending in '|' (' ' ice, T tree, # rock, O hole, $ present, P start, X exit)",
    detect_chilly_text,
    load_chilly_text,
)
CHILLY_JSON = Importer(
    "chilly_json",
    'Santa Chilly game JSON: a list of levels {"name", "data": [rows], "connections": [{"src": {x, y}, '
    '"dst": {x, y}}]}; ids are the names',
    detect_chilly_json,
    load_chilly_json,
)
