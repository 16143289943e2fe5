"""Arukone / Numberlink files: a grid of labelled cells, each label marking the two ends of a line.

Every reader gives one `num` grid per puzzle: rows top to bottom of `int` (a line's label) or
None (an empty cell). Formats that number their lines keep those numbers; formats that use
characters (thomasahle, Flow Free) number them 1, 2, ... in order of first appearance, reading
the grid row by row from the top left, separately for each puzzle. Every reader checks that each
label appears exactly twice, as the genre demands.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from itertools import chain

from puzzledsl import words
from puzzledsl.errors import DataError, Span

from .base import (
    Givens,
    Importer,
    Instances,
    _at,
    _bounded,
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

Grid = list[list[int | None]]

_PAIR_HELP = "a label marks the two ends of one line, so it appears exactly twice"


def _check_pairs(grid: Grid, locate: Callable[[int, int], Span], describe: Callable[[int], str]) -> None:
    """Every label appears exactly twice; else an error at its only or at its third occurrence."""
    counts = Counter(filter(None, chain.from_iterable(grid)))  # labels are at least 1
    bad = {label for label, count in counts.items() if count != 2}
    if not bad:
        return
    seen: Counter[int] = Counter()
    for r, row in enumerate(grid):
        for c, label in enumerate(row):
            if label not in bad:
                continue
            seen[label] += 1
            if counts[label] == 1:
                raise DataError(f"{describe(label)} appears only once", locate(r, c), _PAIR_HELP)
            if seen[label] == 3:
                raise DataError(f"{describe(label)} appears more than twice", locate(r, c), _PAIR_HELP)


def _number(label: int) -> str:
    return f"number {label}"


def _head(text: str, limit: int = 65536) -> tuple[list[str], bool]:
    """The whole lines (without CR) in the first `limit` characters, and whether that is all the text."""
    complete = len(text) <= limit
    head = text if complete else text[: max(text.rfind("\n", 0, limit), 0)]
    return [line.rstrip("\r") for line in head.split("\n")], complete


_INT = re.compile(r"[ \t]*[0-9]+[ \t]*")
_TWO_INTS = re.compile(r"[ \t]*[0-9]+[ \t]+[0-9]+[ \t]*")
_INT_ROW = re.compile(r"[ \t]*[0-9]+(?:[ \t]+[0-9]+)*[ \t]*")
_SPACE = re.compile(r"\s")
_NOT_DOT = re.compile(r"[^.]")


def _pairs_only(values: list[str]) -> bool:
    return all(count == 2 for count in Counter(values).values())


# --------------------------------------------------------------------------- rows of cells


class _NumberRows:
    """Rows of whitespace-separated cells: '-' (if `dash`) or 0 (if not) empty, else a label >= 1."""

    def __init__(self, dash: bool) -> None:
        self.dash = dash

    def __call__(self, line: _Line, cols: int, path: str) -> list[int | None]:
        cells = line.text.split()
        if len(cells) == cols and all((self.dash and t == "-") or (t.isascii() and t.isdigit()) for t in cells):
            row = [None if t == "-" else int(t) for t in cells]
            if not (self.dash and 0 in row):
                return [value or None for value in row]
        toks = line.tokens
        for tok in toks[:cols]:
            if not (self.dash and tok.text == "-"):
                _natural(tok, "each cell", path, 1 if self.dash else 0)
        if len(toks) > cols:
            raise DataError(f"grid row has {words.count(len(toks), 'cell')}, expected {cols}",
                            _tok_span(path, toks[cols]))
        raise DataError(f"grid row has {words.count(len(toks), 'cell')}, expected {cols}",
                        _at(path, line.number, line.end))

    @staticmethod
    def locate(line: _Line, column: int, path: str) -> Span:
        return _tok_span(path, line.tokens[column])

    @staticmethod
    def describe(label: int) -> str:
        return _number(label)


class _CharRows:
    """Rows of one character per cell, '.' empty; labels numbered 1, 2, ... by first appearance.

    One reader serves one puzzle: it remembers which character got which number.
    """

    def __init__(self, allowed: re.Pattern[str] | None = None, kind: str = "label") -> None:
        self.labels: dict[str, int] = {}
        self.allowed = allowed
        self.kind = kind

    def __call__(self, line: _Line, cols: int, path: str) -> list[int | None]:
        offset = _indent(line.text)
        cells = line.text.strip()
        space = _SPACE.search(cells)
        if space is not None:
            raise DataError(
                "a grid row cannot contain spaces",
                _at(path, line.number, offset + space.start() + 1),
                f"one character per cell: '.' for an empty cell, any other for a {self.kind}",
            )
        if len(cells) != cols:
            column = offset + min(len(cells), cols) + 1
            raise DataError(f"grid row has {words.count(len(cells), 'cell')}, expected {cols}",
                            _at(path, line.number, column))
        row: list[int | None] = [None] * cols
        for m in _NOT_DOT.finditer(cells):
            char = m.group()
            if self.allowed is not None and not self.allowed.fullmatch(char):
                raise DataError(
                    f"unexpected character {char!r} in the grid",
                    _at(path, line.number, offset + m.start() + 1),
                    f"expected '.' for an empty cell or a letter or digit for a {self.kind}",
                )
            label = self.labels.get(char)
            if label is None:
                label = self.labels[char] = len(self.labels) + 1
            row[m.start()] = label
        return row

    @staticmethod
    def locate(line: _Line, column: int, path: str) -> Span:
        return _at(path, line.number, _indent(line.text) + column + 1)

    def describe(self, label: int) -> str:
        char = next(char for char, number in self.labels.items() if number == label)
        return f"{self.kind} {char!r}"


RowReader = _NumberRows | _CharRows


def _indent(text: str) -> int:
    return len(text) - len(text.lstrip())


def _grid(lines: list[_Line], rows: int, cols: int, path: str, reader: RowReader) -> Grid:
    """Exactly `rows` lines of `cols` cells (more lines may follow: the caller checks)."""
    if len(lines) < rows:
        last = lines[-1]
        raise DataError(f"the grid has {words.count(len(lines), 'row')}, expected {rows}",
                        _at(path, last.number, last.end))
    grid = [reader(line, cols, path) for line in lines[:rows]]
    _check_pairs(grid, lambda r, c: reader.locate(lines[r], c, path), reader.describe)
    return grid


def _no_more_rows(lines: list[_Line], rows: int, path: str) -> None:
    if len(lines) > rows:
        extra = lines[rows]
        raise DataError(f"the grid has more than {rows} rows", _tok_span(path, extra.tokens[0]))


def _one_number(line: _Line, what: str, path: str, minimum: int) -> tuple[int, _Tok]:
    if len(line.tokens) > 1:
        raise DataError(f"unexpected text after {what}", _tok_span(path, line.tokens[1]))
    return _natural(line.tokens[0], what, path, minimum), line.tokens[0]


# --------------------------------------------------------------------------- BWINF 42


def load_bwinf_arukone(text: str, path: str) -> Instances:
    """BWINF 42 (2023) round 1: `n`, the number of pairs, then n rows of n numbers (0 = empty),
    optionally followed by `Solved field:` and n rows of the number on each cell (a known solution,
    as participants print it)."""
    head, marker, tail = text.partition("Solved field:")
    lines = _content_lines(head if marker else text, path)
    size, size_tok = _one_number(_need_line(lines, 0, "the grid size `n`", path), "the grid size", path, 1)
    _bounded(size * size, "the grid has too many cells", _tok_span(path, size_tok))
    pairs, pairs_tok = _one_number(_need_line(lines, 1, "the number of pairs", path), "the number of pairs", path, 0)
    _need_line(lines, 2, f"the first of {size} grid rows", path)
    grid = _grid(lines[2:], size, size, path, _NumberRows(dash=False))
    _no_more_rows(lines[2:], size, path)
    labels = {label for row in grid for label in row if label is not None}
    if len(labels) != pairs:
        raise DataError(
            f"the file says {words.count(pairs, 'pair')}, "
            f"but the grid has {words.count(len(labels), 'different number')}",
            _tok_span(path, pairs_tok),
            f"the second line is the number of pairs: {len(labels)} for this grid, or a number is missing "
            "from it",
        )
    givens: Givens = {"num": grid}
    if marker:
        offset = head.count("\n") + 1  # the rows start on the line after the marker
        rest = tail.partition("\n")[2]
        rows = [_Line(line.number + offset, line.text) for line in _content_lines(rest, path)]
        _need_line(rows, size - 1, f"{size} solution rows after `Solved field:`", path)
        _no_more_rows(rows, size, path)
        read = _NumberRows(dash=False)
        givens["pair"] = [[v or 0 for v in read(line, size, path)] for line in rows]
    return [(_instance_id(path), givens)]


def detect_bwinf_arukone(text: str) -> bool:
    """`n`, a number, then a row of n numbers."""
    lines, _ = _head(text)
    if len(lines) < 3 or not _INT.fullmatch(lines[0]) or not _INT.fullmatch(lines[1]):
        return False
    return _INT_ROW.fullmatch(lines[2]) is not None and len(lines[2].split()) == int(lines[0])


# --------------------------------------------------------------------------- janko.at text


def load_janko_arukone(text: str, path: str) -> Instances:
    """janko.at Arukone text as in the puzzlekit dataset: `rows cols`, then rows of numbers or '-'."""
    lines = _content_lines(text, path)
    rows, cols, _ = _size_header(_need_line(lines, 0, "`rows cols`", path), path, extra=False)
    _need_line(lines, 1, f"the first of {rows} grid rows", path)
    grid = _grid(lines[1:], rows, cols, path, _NumberRows(dash=True))
    _no_more_rows(lines[1:], rows, path)
    return [(_instance_id(path), {"num": grid})]


_JANKO_ROW = re.compile(r"[ \t]*(?:[0-9]+|-)(?:[ \t]+(?:[0-9]+|-))*[ \t]*")


def detect_janko_arukone(text: str) -> bool:
    """`rows cols`, then exactly that many rows of numbers and '-', some '-', each number twice, no 0.

    (A 2x2 Kakurasu whose clues pair up reads the same; the rule file's own formats come first.)
    """
    lines, complete = _head(text)
    lines = [line for line in lines if line.strip()]
    if not complete or len(lines) < 2 or not _TWO_INTS.fullmatch(lines[0]):
        return False
    rows, cols = map(int, lines[0].split())
    body = lines[1:]
    if len(body) != rows or not all(_JANKO_ROW.fullmatch(x) and len(x.split()) == cols for x in body):
        return False
    cells = " ".join(body).split()
    numbers = [t for t in cells if t != "-"]
    return len(numbers) < len(cells) and all(int(t) > 0 for t in numbers) and _pairs_only(numbers)


_STEP = {"n": (-1, 0), "s": (1, 0), "w": (0, -1), "e": (0, 1)}


def janko_arukone_solution(text: str, givens: Givens) -> Givens | None:
    """A published solution (`rows cols`, then per-cell links such as `se`, `ew`, `-`) as the
    number of the line through each cell (0 = empty), found by walking the links from each
    number. None when it does not read as lines between the puzzle's numbers: it is only a hint."""
    lines = [line.split() for line in text.strip().split("\n")]
    num = givens["num"]
    rows, cols = len(num), len(num[0]) if num else 0
    if len(lines) != rows + 1 or lines[0] != [str(rows), str(cols)] or any(len(r) != cols for r in lines[1:]):
        return None
    links = [[set(t) - {"-"} for t in row] for row in lines[1:]]
    pair = [[0] * cols for _ in range(rows)]
    for r0, row in enumerate(num):
        for c0, label in enumerate(row):
            if label is None or pair[r0][c0]:
                continue
            r, c, prev = r0, c0, None
            while True:
                pair[r][c] = label
                nxt = [(r + dr, c + dc) for d, (dr, dc) in _STEP.items() if d in links[r][c]]
                nxt = [q for q in nxt if q != prev and 0 <= q[0] < rows and 0 <= q[1] < cols]
                if len(nxt) != 1:
                    break
                prev, (r, c) = (r, c), nxt[0]
                if pair[r][c]:
                    break
    return {"pair": pair}


# --------------------------------------------------------------------------- files of several puzzles


def _load_multi(text: str, path: str, comments: bool, new_reader: Callable[[], RowReader]) -> Instances:
    """Puzzles `W H` + H rows, apart by blank lines (and, with `comments`, '#' lines), up to an
    optional `0 0` end mark. Instance ids are "1", "2", ... in file order."""
    lines = [line.rstrip("\r") for line in text.split("\n")]
    while lines and not lines[-1].strip():
        lines.pop()
    out: Instances = []
    i = 0
    while i < len(lines):
        if not lines[i].strip() or (comments and lines[i].lstrip().startswith("#")):
            i += 1
            continue
        header = _Line(i + 1, lines[i])
        width, height = _width_height(header, path, "a puzzle's `width height`")
        if width == height == 0:
            _nothing_after(lines, i + 1, comments, path)
            break
        _natural(header.tokens[0], "the width", path, 1)
        _natural(header.tokens[1], "the height", path, 1)
        _bounded(width * height, "the grid has too many cells", _tok_span(path, header.tokens[0]))
        reader = new_reader()
        rows: list[_Line] = []
        for k in range(i + 1, i + 1 + height):
            if k >= len(lines) or _ends_puzzle(lines[k], isinstance(reader, _CharRows)):
                where = _at(path, k + 1, 1) if k < len(lines) else _at(path, k, len(lines[k - 1]) + 1)
                raise DataError(
                    f"the grid has {words.count(len(rows), 'row')}, expected {height}",
                    where,
                    f"its `width height` is on line {header.number}",
                )
            rows.append(_Line(k + 1, lines[k]))
        out.append((str(len(out) + 1), {"num": _grid(rows, height, width, path, reader)}))
        i += 1 + height
    if not out:
        raise DataError("the file holds no puzzle: expected `width height`", _at(path, max(len(lines), 1), 1))
    return out


def _width_height(line: _Line, path: str, what: str) -> tuple[int, int]:
    toks = line.tokens
    if len(toks) > 2:
        raise DataError(f"unexpected text after {what}", _tok_span(path, toks[2]))
    wrong = [tok for tok in toks if not (tok.text.isascii() and tok.text.isdigit())]
    if len(toks) < 2 or wrong:
        raise DataError(f"expected {what}, found {line.text.strip()!r}", _tok_span(path, (wrong or toks)[0]))
    return int(toks[0].text), int(toks[1].text)


def _ends_puzzle(line: str, chars: bool) -> bool:
    """A line that cannot be a grid row, as a puzzle with too few rows runs into it."""
    return not line.strip() or (chars and _TWO_INTS.fullmatch(line) is not None)


def _nothing_after(lines: list[str], start: int, comments: bool, path: str) -> None:
    for k in range(start, len(lines)):
        if lines[k].strip() and not (comments and lines[k].lstrip().startswith("#")):
            raise DataError("unexpected text after the `0 0` end mark", _at(path, k + 1, _indent(lines[k]) + 1))


# --------------------------------------------------------------------------- thomasahle/numberlink


def load_thomasahle(text: str, path: str) -> Instances:
    """thomasahle/numberlink puzzles: `W H` then H rows of W characters, '.' empty; '#' comment lines."""
    return _load_multi(text, path, comments=True, new_reader=_CharRows)


def detect_thomasahle(text: str) -> bool:
    """After '#' comments, `W H` then rows of W characters without spaces, some '.'."""
    lines, complete = _head(text)
    i = 0
    while i < len(lines) and (not lines[i].strip() or lines[i].lstrip().startswith("#")):
        i += 1
    if i >= len(lines) or not _TWO_INTS.fullmatch(lines[i]):
        return False
    width, height = map(int, lines[i].split())
    rows = [x.strip() for x in lines[i + 1 : i + 1 + height]]
    if not rows or width == 0 or not all(len(x) == width and not _SPACE.search(x) for x in rows):
        return False
    if len(rows) < height:
        return not complete and any("." in x for x in rows)
    after = lines[i + 1 + height] if i + 1 + height < len(lines) else ""
    follows = not after.strip() or after.lstrip().startswith("#") or _TWO_INTS.fullmatch(after) is not None
    return follows and any("." in x for x in rows)


# --------------------------------------------------------------------------- imos/Puzzle NumberLink


def load_imos_numberlink(text: str, path: str) -> Instances:
    """imos/Puzzle NumberLink input: `W H` then H rows of W numbers (0 = empty), blank lines between."""
    return _load_multi(text, path, comments=False, new_reader=lambda: _NumberRows(dash=False))


def detect_imos_numberlink(text: str) -> bool:
    """`W H`, then H rows of W numbers with some 0 and every other number twice."""
    lines, complete = _head(text)
    if not _TWO_INTS.fullmatch(lines[0]):
        return False
    width, height = map(int, lines[0].split())
    rows = lines[1 : 1 + height]
    if not rows or not all(_INT_ROW.fullmatch(x) and len(x.split()) == width for x in rows):
        return False
    cells = [int(t) for x in rows for t in x.split()]
    labels = [str(v) for v in cells if v]
    if len(rows) < height:
        return not complete and len(labels) < len(cells)
    return len(labels) < len(cells) and _pairs_only(labels)


# --------------------------------------------------------------------------- DA Symposium 2015

_NUM = r"[0-9]+"
_SIZE_LINE = [(r"SIZE", "`SIZE`"), (_NUM, "the width"), (r"[xX]", "'X'"), (_NUM, "the height")]
_COUNT_LINE = [(r"LINE_NUM", "`LINE_NUM`"), (_NUM, "the number of lines")]
_END = [(r"\(", "'('"), (_NUM, "x"), (r",", "','"), (_NUM, "y"), (r"\)", "')'")]
_LINE_LINE = [(r"LINE#", "`LINE#`"), (_NUM, "the line number"), *_END, (r"-", "'-'"), *_END]


def _scan(line: _Line, items: list[tuple[str, str]], path: str, what: str) -> list[_Tok]:
    """Match `line` against (regex, description) items, blanks allowed between; the number tokens.

    An item that does not match is an error at its column.
    """
    text = line.text.rstrip()
    pos = 0
    numbers = []
    for pattern, name in items:
        while pos < len(text) and text[pos] in " \t":
            pos += 1
        m = re.compile(pattern).match(text, pos)
        if m is None:
            found = repr(text[pos]) if pos < len(text) else "the end of the line"
            raise DataError(f"expected {name} in {what}, found {found}", _at(path, line.number, pos + 1))
        if pattern == _NUM:
            numbers.append(_Tok(m.group(), line.number, pos + 1))
        pos = m.end()
    while pos < len(text) and text[pos] in " \t":
        pos += 1
    if pos < len(text):
        raise DataError(f"unexpected text after {what}", _at(path, line.number, pos + 1))
    return numbers


def load_adc2015(text: str, path: str) -> Instances:
    """DA Symposium 2015 contest problem: `SIZE WxH`, `LINE_NUM n`, n lines `LINE#k (x1,y1)-(x2,y2)`.

    Coordinates are 0-based, x the column and y the row; line k's label is k at both ends.
    """
    lines = _content_lines(text, path)
    wtok, htok = _scan(_need_line(lines, 0, "`SIZE WxH`", path), _SIZE_LINE, path, "`SIZE WxH`")
    width = _natural(wtok, "the width", path, 1)
    height = _natural(htok, "the height", path, 1)
    _bounded(width * height, "the grid has too many cells", _tok_span(path, wtok))
    [ntok] = _scan(_need_line(lines, 1, "`LINE_NUM n`", path), _COUNT_LINE, path, "`LINE_NUM n`")
    count = _natural(ntok, "the number of lines", path)
    if len(lines) < 2 + count:
        last = lines[-1]
        raise DataError(
            f"found {len(lines) - 2} `LINE#` lines, but LINE_NUM says {count}", _at(path, last.number, last.end)
        )
    _no_more(lines, 2 + count, path)
    grid: Grid = [[None] * width for _ in range(height)]
    owner: dict[tuple[int, int], int] = {}
    first_seen: dict[int, int] = {}
    for line in lines[2:]:
        ktok, *coords = _scan(line, _LINE_LINE, path, "`LINE#k (x1,y1)-(x2,y2)`")
        k = _natural(ktok, "the line number", path, 1)
        if k > count:
            raise DataError(f"line number {k} is larger than LINE_NUM {count}", _tok_span(path, ktok))
        if k in first_seen:
            raise DataError(f"line #{k} is given twice", _tok_span(path, ktok), f"first on line {first_seen[k]}")
        first_seen[k] = line.number
        for xtok, ytok in (coords[:2], coords[2:]):
            x, y = int(xtok.text), int(ytok.text)
            if x >= width:
                raise DataError(f"x = {x} is outside the grid (0 to {width - 1})", _tok_span(path, xtok))
            if y >= height:
                raise DataError(f"y = {y} is outside the grid (0 to {height - 1})", _tok_span(path, ytok))
            other = owner.get((x, y))
            if other is not None:
                span = Span(path, line.number, xtok.column, line.number, ytok.column + len(ytok.text))
                why = "a line needs two different ends" if other == k else "two lines cannot end in one cell"
                raise DataError(f"cell ({x},{y}) is already an end of line #{other}", span, why)
            owner[(x, y)] = k
            grid[y][x] = k
    return [(_instance_id(path), {"num": grid})]


_ADC_SIZE = re.compile(r"\s*SIZE\s*[0-9]+\s*[xX]\s*[0-9]+\s*")
_ADC_COUNT = re.compile(r"\s*LINE_NUM\s*[0-9]+\s*")


def detect_adc2015(text: str) -> bool:
    """`SIZE WxH` then `LINE_NUM n` (an answer file has grid rows after its SIZE line instead)."""
    lines = text[:4096].split("\n")
    return len(lines) >= 2 and bool(_ADC_SIZE.fullmatch(lines[0])) and bool(_ADC_COUNT.fullmatch(lines[1]))


# --------------------------------------------------------------------------- Flow Free (mzucker/flow_solver)

_COLOUR = re.compile(r"[A-Za-z0-9]")


def load_flowfree(text: str, path: str) -> Instances:
    """mzucker/flow_solver puzzle: rows of one character per cell, '.' empty, letters for colours."""
    lines = _content_lines(text, path)
    if not lines:
        raise DataError("the file holds no puzzle: expected rows of '.' and colour letters", _at(path, 1, 1))
    if not any(ch == "." or ch.isalpha() for line in lines for ch in line.text):
        # digits alone are other formats' numbers (a BWINF file `0`, `0`), not a board of colours
        raise DataError("the file holds no puzzle: expected rows of '.' and colour letters, not digits alone",
                        _at(path, lines[0].number, 1))
    width = len(lines[0].text.strip())
    grid = _grid(lines, len(lines), width, path, _CharRows(_COLOUR, "colour"))
    return [(_instance_id(path), {"num": grid})]


_FLOW_ROW = re.compile(r"[.A-Za-z0-9]+[ \t]*")


def detect_flowfree(text: str) -> bool:
    """Rows of equal length of '.', letters and digits only, with some '.' and some letter."""
    lines, complete = _head(text)
    while lines and not lines[-1].strip():
        lines.pop()
    if not complete or not lines or not all(_FLOW_ROW.fullmatch(x) for x in lines):
        return False
    rows = [x.rstrip() for x in lines]
    return (
        len({len(x) for x in rows}) == 1 and any("." in x for x in rows) and any(ch.isalpha() for x in rows for ch in x)
    )


# --------------------------------------------------------------------------- registry entries

BWINF_ARUKONE = Importer(
    "bwinf_arukone",
    "BWINF 42 Arukone: `n`, the number of pairs, n rows of n numbers (0 = empty)",
    detect_bwinf_arukone,
    load_bwinf_arukone,
)
JANKO_ARUKONE = Importer(
    "janko_arukone",
    "janko.at Arukone text: `rows cols`, then rows of numbers ('-' = empty)",
    detect_janko_arukone,
    load_janko_arukone,
    janko_arukone_solution,
)
THOMASAHLE = Importer(
    "thomasahle",
    "thomasahle/numberlink puzzles: `W H` + H rows of W characters ('.' = empty, others = labels, "
    "numbered 1, 2, ... by first appearance), '#' comments, `0 0` ends; ids 1, 2, ...",
    detect_thomasahle,
    load_thomasahle,
)
IMOS_NUMBERLINK = Importer(
    "imos_numberlink",
    "imos/Puzzle NumberLink input: `W H` + H rows of W numbers (0 = empty), `0 0` ends; ids 1, 2, ...",
    detect_imos_numberlink,
    load_imos_numberlink,
)
ADC2015 = Importer(
    "adc2015",
    "DA Symposium 2015 problem: `SIZE WxH`, `LINE_NUM n`, `LINE#k (x1,y1)-(x2,y2)` (0-based, x = column)",
    detect_adc2015,
    load_adc2015,
)
FLOWFREE = Importer(
    "flowfree",
    "Flow Free level (mzucker/flow_solver): rows of '.' (empty) and colour letters, "
    "numbered 1, 2, ... by first appearance",
    detect_flowfree,
    load_flowfree,
)
