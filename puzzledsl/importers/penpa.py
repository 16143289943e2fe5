"""Penpa+ (penpa-edit) URLs: read a puzzle's givens from its URL, and write the URL of givens.

A URL such as `https://swaroopg92.github.io/penpa-edit/#m=edit&p=7VRNb…` carries the whole
editor state: `p=` is base64 of raw-deflated text whose lines are a header (grid type, size,
title, author, rules), the margins, and JSON of the drawing layers: `pu_q` (the problem) and
`pu_a` (the solver's marks), each a dict of `number`, `surface`, `symbol`, `lineE` … keyed by
penpa's point index (penpa-edit `docs/js/class_p.js`, `maketext`; `general.js`, `load`). A
drawing says nothing of its genre except through the genre tags or the title its author set,
so the genre comes from those when it can (`penpa_genres.genre_of`), else from the rule file
the user names. The genres, and what each reads from the drawing, are in `penpa_genres.py`
and `penpa_genres_more.py`, what they share (and the answer check's lists) in
`penpa_common.py`, the writing of URLs in `penpa_write.py`; this module knows penpa's text
and its coordinates only.

Square grids only (penpa's `square`, `sudoku` and `kakuro` grid types): a cell, with the
margins penpa keeps outside the frame for clues, is `(row, column)` with row 0 column 0 the
top-left cell inside the frame, so outside clues sit at row -1, column -1, row R, column C.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote

from puzzledsl import limits
from puzzledsl.errors import DataError, Span

from .base import Importer, Instances
from .puzzlink_codec import regions_from_borders

SITE = "https://swaroopg92.github.io/penpa-edit/"
_URL = re.compile(r"(?P<base>https?://[^#?\s]*)[#?](?P<params>\S*)")
SQUARE_TYPES = ("square", "sudoku", "kakuro")
MAX_TEXT = 8_000_000  # characters of inflated text: a real puzzle is a few kB

# penpa's substitutions of frequent JSON words (class_p.js COMPRESS_SUB); the first escapes `z`
COMPRESS_SUB = [("z", "zZ"), ('"qa"', "z9"), ('"pu_q"', "zQ"), ('"pu_a"', "zA"), ('"grid"', "zG"),
                ('"edit_mode"', "zM"), ('"surface"', "zS"), ('"line"', "zL"), ('"lineE"', "zE"),
                ('"wall"', "zW"), ('"cage"', "zC"), ('"number"', "zN"), ('"symbol"', "zY"),
                ('"special"', "zP"), ('"board"', "zB"), ('"command_redo"', "zR"), ('"command_undo"', "zU"),
                ('"command_replay"', "z8"), ('"numberS"', "z1"), ('"freeline"', "zF"), ('"freelineE"', "z2"),
                ('"thermo"', "zT"), ('"arrows"', "z3"), ('"direction"', "zD"), ('"squareframe"', "z0"),
                ('"polygon"', "z5"), ('"deletelineE"', "z4"), ('"killercages"', "z6"), ('"nobulbthermo"', "z7"),
                ('"__a"', "z_"), ("null", "zO")]
LAYERS = ("surface", "number", "numberS", "symbol", "freeline", "freelineE", "thermo", "arrows", "direction",
          "squareframe", "polygon", "line", "lineE", "wall", "cage", "deletelineE", "killercages", "nobulbthermo")
DARK = {1, 3, 4, 8}  # surface colours penpa's answer check counts as shading: dark grey, light grey, black, grey


Cell = tuple[int, int]


def expand(text: str) -> str:
    for word, code in reversed(COMPRESS_SUB):
        text = text.replace(code, word)
    return text


def compress(text: str) -> str:
    for word, code in COMPRESS_SUB:
        text = text.replace(word, code)
    return text


def deflate(text: str) -> str:
    """penpa's `encrypt_data`: raw deflate, then standard base64."""
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    return base64.b64encode(packer.compress(text.encode()) + packer.flush()).decode()


def inflate(data: str, span: Span) -> str:
    """penpa's `decrypt_data`, with clear errors for what is not its data."""
    text = unquote(data).replace(" ", "+").replace("-", "+").replace("_", "/")
    try:
        raw = base64.b64decode(text + "=" * (-len(text) % 4), validate=True)
    except (binascii.Error, ValueError):
        raise DataError("the `p=` part of this Penpa+ URL is not base64", span,
                        "copy the whole URL; a shortened link (tinyurl …) has to be opened first") from None
    unpacker = zlib.decompressobj(-15)
    try:
        out = unpacker.decompress(raw, MAX_TEXT)
    except zlib.error:
        out = b""
    if not unpacker.eof and len(out) >= MAX_TEXT:
        raise DataError(f"this Penpa+ URL inflates to more than {MAX_TEXT:,} characters", span)
    if not unpacker.eof:
        raise DataError("the `p=` part of this Penpa+ URL does not inflate: it is cut short or not Penpa+ data",
                        span, "copy the whole URL")
    try:
        return out.decode()
    except UnicodeDecodeError:
        raise DataError("the `p=` part of this Penpa+ URL is not Penpa+ data (not text)", span) from None


# ----------------------------------------------------------------- reading the URL


def _params(text: str, path: str) -> tuple[dict[str, str], dict[str, Span]]:
    """`key=value` pairs after `#` (or `?`), each with the span of its value."""
    m = _URL.fullmatch(text.strip())
    if m is None:
        raise DataError("not a Penpa+ URL", Span(path, 1, 1, 1, len(text.strip()) + 1))
    lead = len(text) - len(text.lstrip())
    values: dict[str, str] = {}
    spans: dict[str, Span] = {}
    col = lead + m.start("params") + 1
    for part in m.group("params").split("&"):
        key, _, value = part.partition("=")
        start = col + len(key) + 1
        values[key], spans[key] = value, Span(path, 1, start, 1, start + max(len(value), 1))
        col += len(part) + 1
    return values, spans


def is_url(text: str) -> bool:
    """A penpa-edit URL with its puzzle in `p=` (not a puzz.link URL, whose puzzle follows `?`)."""
    line = text.strip()
    if not line or "\n" in line or " " in line:
        return False
    m = _URL.fullmatch(line)
    if m is None:
        return False
    keys = {part.partition("=")[0] for part in m.group("params").split("&")}
    return "p" in keys and ("penpa" in m.group("base").lower() or bool(keys & {"m"}))


@dataclass
class Board:
    """One decoded Penpa+ drawing of a square grid: its size, margins, texts and layers."""

    gridtype: str
    cols: int  # inside the frame
    rows: int
    space: tuple[int, int, int, int]  # margins outside the frame: top, bottom, left, right
    title: str
    rules: str
    tags: list[str]
    q: dict  # the problem's layers (pu_q)
    span: Span  # the `p=` part of the URL, where errors about the drawing point
    header: list[str] = field(default_factory=list)

    @property
    def nx0(self) -> int:
        return self.cols + self.space[2] + self.space[3] + 4

    @property
    def ny0(self) -> int:
        return self.rows + self.space[0] + self.space[1] + 4

    def inside(self, cell: Cell) -> bool:
        return 0 <= cell[0] < self.rows and 0 <= cell[1] < self.cols

    def margin(self, cell: Cell) -> str | None:
        """`top`, `bottom`, `left` or `right` for a cell beside the frame (a clue's place), else None."""
        r, c = cell
        if 0 <= c < self.cols:
            return "top" if r < 0 else "bottom" if r >= self.rows else None
        if 0 <= r < self.rows:
            return "left" if c < 0 else "right" if c >= self.cols else None
        return None

    def cell(self, key: str | int) -> Cell | None:
        """The cell whose centre is penpa point `key`; None for any other point."""
        try:
            k = int(key)
        except ValueError:
            return None
        if not 0 <= k < self.nx0 * self.ny0:
            return None
        j, i = divmod(k, self.nx0)
        return j - 2 - self.space[0], i - 2 - self.space[2]

    def index(self, cell: Cell) -> int:
        return self.nx0 * (cell[0] + 2 + self.space[0]) + cell[1] + 2 + self.space[2]

    def vertex(self, r: int, c: int) -> int:
        """penpa's point for the corner below and right of cell (r, c)."""
        return self.nx0 * self.ny0 + self.index((r, c))

    def point(self, key: str | int) -> tuple[int, Cell] | None:
        """penpa point `key` as (kind, cell): kind 0 the cell's centre, 1 its corner below and
        right, 2 the middle of its bottom side, 3 the middle of its right side (class_square.js
        `create_point`); None for what is not a point."""
        try:
            k = int(key)
        except ValueError:
            return None
        base = self.nx0 * self.ny0
        if not 0 <= k < 4 * base:
            return None
        kind, k = divmod(k, base)
        return kind, self.cell(k)  # type: ignore[return-value]

    def line_key(self, a: Cell, b: Cell) -> str:
        """The `line` key of the segment joining the centres of neighbouring cells a and b."""
        i, j = sorted((self.index(a), self.index(b)))
        return f"{i},{j}"

    def edge_key(self, a: Cell, b: Cell) -> str:
        """The `lineE` key of the side between neighbouring cells a and b."""
        (r1, c1), (r2, c2) = sorted((a, b))
        if r1 == r2:  # a vertical side: from the corner above it to the one below it
            return f"{self.vertex(r1 - 1, c1)},{self.vertex(r1, c1)}"
        return f"{self.vertex(r1, c1 - 1)},{self.vertex(r1, c1)}"

    # --------------------------------------------------------------- the layers, read by cell

    def numbers(self) -> dict[Cell, int | str | None]:
        """Numbers and texts at cell centres (candidates left out); a blank text is None."""
        return {cell: _number(value[0]) for cell, value in self.number_entries().items()}

    def number_entries(self) -> dict[Cell, list]:
        """The `number` layer's entries at cell centres as penpa keeps them, `[text, colour,
        style]`, candidates (pencil marks, style "7") left out."""
        out: dict[Cell, list] = {}
        for key, value in self.layer("number").items():
            cell = self.cell(key)
            if cell is None or not isinstance(value, list) or not value or (len(value) > 2 and value[2] == "7"):
                continue
            out[cell] = value
        return out

    def shaded(self) -> set[Cell]:
        out = set()
        for key, colour in self.layer("surface").items():
            cell = self.cell(key)
            colour = colour[0] if isinstance(colour, list) and colour else colour
            if cell is not None and colour in DARK:
                out.add(cell)
        return out

    def symbols(self) -> dict[Cell, tuple[str, object]]:
        """Symbols at cell centres: (name, style)."""
        return {cell: v for (kind, cell), v in self.symbols_anywhere().items() if kind == 0}

    def symbols_anywhere(self) -> dict[tuple[int, Cell], tuple[str, object]]:
        """Symbols at any point (`point`'s kind and cell): (name, style)."""
        out: dict[tuple[int, Cell], tuple[str, object]] = {}
        for key, value in self.layer("symbol").items():
            point = self.point(key)
            if point is not None and isinstance(value, list) and len(value) >= 2:
                out[point] = (str(value[1]), value[0])
        return out

    def borders(self) -> set[frozenset[Cell]]:
        """Pairs of neighbouring cells with an edge line between them (`lineE`, any style but marks)."""
        out: set[frozenset[Cell]] = set()
        base = self.nx0 * self.ny0
        for key, style in self.layer("lineE").items():
            a, _, b = str(key).partition(",")
            if not (a.isdigit() and b.isdigit()) or style == 98:
                continue
            lo, hi = sorted((int(a) - base, int(b) - base))
            if not 0 <= lo < base:
                continue
            j, i = divmod(lo, self.nx0)
            r, c = j - 2 - self.space[0], i - 2 - self.space[2]  # the corner below and right of cell (r, c)
            if hi - lo == self.nx0:
                out.add(frozenset({(r + 1, c), (r + 1, c + 1)}))
            elif hi - lo == 1:
                out.add(frozenset({(r, c + 1), (r + 1, c + 1)}))
        return out

    def regions(self) -> list[list[int]]:
        """Region numbers 1, 2, … per cell inside the frame, parted by `borders`."""
        walls = self.borders()
        right = [[frozenset({(r, c), (r, c + 1)}) in walls for c in range(self.cols - 1)] for r in range(self.rows)]
        below = [[frozenset({(r, c), (r + 1, c)}) in walls for c in range(self.cols)] for r in range(self.rows - 1)]
        return regions_from_borders(right, below, self.rows, self.cols)

    def layer(self, name: str) -> dict:
        value = self.q.get(name) or {}
        return value if isinstance(value, dict) else {}

    def used(self) -> set[str]:
        """The problem's non-empty layers."""
        return {name for name in LAYERS if self.q.get(name)}


def _number(value: object) -> int | str | None:
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int):
        return value
    text = str(value).strip()
    if not text:
        return None
    return int(text) if text.isascii() and text.isdigit() else text


def _json(lines: list[str], at: int, what: str, span: Span) -> object:
    try:
        return json.loads(lines[at])
    except (IndexError, json.JSONDecodeError):
        raise DataError(f"this Penpa+ URL's {what} (line {at + 1} of its text) does not read", span,
                        "copy the whole URL; it may be cut short") from None


def _unescape(text: str) -> str:
    return text.replace("%2C", ",").replace("%2D", "\n").replace("%2E", "&").replace("%2F", "=")


def parse_url(text: str, path: str) -> Board:
    params, spans = _params(text, path)
    span = spans.get("p", Span(path, 1, 1, 1, len(text.strip()) + 1))
    if not params.get("p"):
        raise DataError("this Penpa+ URL has no puzzle after `p=`", span)
    if params["p"].startswith("http"):
        raise DataError("this Penpa+ URL only links to another site's puzzle", span, "give that URL instead")
    lines = expand(inflate(params["p"], span)).split("\n")
    header = lines[0].split(",")
    if lines[0][:1].isdigit():
        raise DataError("this is an old Penpa URL (its first version), which is not read", span,
                        "open it in Penpa+ and copy the URL it writes now")
    if header[0] not in SQUARE_TYPES:
        raise DataError(f"this Penpa+ puzzle is drawn on a `{header[0]}` grid; only square grids are read", span,
                        "square, sudoku and kakuro grids are read")
    try:
        nx, ny = int(header[1]), int(header[2])
    except (IndexError, ValueError):
        raise DataError("this Penpa+ URL's header has no grid size", span) from None
    space = _json(lines, 1, "margins", span)
    if not (isinstance(space, list) and len(space) == 4 and all(isinstance(v, int) and v >= 0 for v in space)):
        raise DataError("this Penpa+ URL's margins do not read", span)
    top, bottom, left, right = space
    cols, rows = nx - left - right, ny - top - bottom
    if cols <= 0 or rows <= 0:
        raise DataError(f"this Penpa+ grid has no cells inside its frame ({nx}×{ny}, margins {space})", span)
    limits.check("import_cells", (nx + 4) * (ny + 4), "the Penpa+ grid has too many cells", span)
    q = _json(lines, 3, "problem layers", span)
    if not isinstance(q, dict):
        raise DataError("this Penpa+ URL's problem layers do not read", span)
    tags = _json(lines, 17, "genre tags", span) if len(lines) > 17 and lines[17].strip() else []
    field_at = (lambda i: _unescape(header[i]) if len(header) > i else "")  # noqa: E731
    title = re.sub(r"^Title:\s?", "", field_at(15)).strip()
    return Board(header[0], cols, rows, (top, bottom, left, right), title, field_at(18),
                 [str(t) for t in tags] if isinstance(tags, list) else [], q, span, header)


# ----------------------------------------------------------------- the importer


def genre_rules(text: str, path: str = "<command line>") -> str:
    """The bundled rule file a URL names through its genre tags or title (a located error otherwise)."""
    from .penpa_genres import GENRES, genre_of
    board = parse_url(text, path)
    rules = genre_of(board)
    if rules is None:
        said = (f"tags {board.tags}" if board.tags else f"title {board.title!r}" if board.title
                else "no genre tag or title")
        raise DataError(f"this Penpa+ URL does not say which genre it is ({said})", board.span,
                        f"name the rules: `puzzledsl solve RULES --data URL`, RULES one of {', '.join(sorted(GENRES))}")
    return rules


def load_url(text: str, path: str, files: list[str] | None = None) -> Instances:
    """The givens of a Penpa+ URL, for the genre it names, else for the first of the rule
    `files` that is a genre penpa URLs are read for."""
    from .penpa_genres import GENRES, genre_of
    board = parse_url(text, path)
    named = genre_of(board)
    chosen = next((Path(f).stem for f in files or () if Path(f).stem in GENRES), None)
    if chosen is not None and named is not None and GENRES[chosen].variant_of == named:
        named = chosen  # the rules named read the drawing of the genre it names (a fleet-less battleship)
    rules = named or chosen
    if rules is None:
        if files:
            known = ", ".join(f"{g}.puz" for g in sorted(GENRES))
            raise DataError("Penpa+ URLs are not read for these rules", board.span, f"they are read for {known}")
        genre_rules(text, path)  # its error: say which genre
    givens = GENRES[rules].decode(board)  # type: ignore[index]
    tag = {"__rules__": rules} if named else {}
    return [(f"penpa-{rules}-{board.cols}x{board.rows}", {**givens, **tag})]


PENPA = Importer("penpa", "a Penpa+ (penpa-edit) URL, `…/penpa-edit/#m=edit&p=…` (or a file holding one)",
                 is_url, lambda text, path: load_url(text, path))


def rules_with_url(files: list[str]) -> str | None:
    from .penpa_genres import GENRES
    return next((Path(f).stem for f in files if Path(f).stem in GENRES), None)
