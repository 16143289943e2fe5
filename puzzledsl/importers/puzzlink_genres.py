"""The genres puzz.link URLs are read for: each pzprjs genre name, its bundled rule file, and
the decoding and encoding of that rule file's givens (the values the janko readers give, so
each rule file's legend reads them unchanged).

Whatever a URL can say that a bundled rule file cannot (a `?` clue, an unnumbered island, a
pzprjs variant flag) is a located error, never a silently different puzzle.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from puzzledsl.errors import DataError, PuzzleError, Span

from . import puzzlink_codec as K
from .base import Givens
from .puzzlink_lists import decode_number_lists, encode_number_lists


@dataclass
class Url:
    """A parsed URL: genre, flags, size and the coded body (a cursor that knows its columns)."""

    pid: str
    pflag: str
    cols: int
    rows: int
    body: K.Body
    pid_span: Span

    @property
    def cells(self) -> int:
        return self.cols * self.rows

    def grid(self, flat: list) -> list[list]:
        return [flat[r * self.cols : (r + 1) * self.cols] for r in range(self.rows)]

    def square(self) -> None:
        if self.cols != self.rows:
            raise DataError(f"a {self.pid} grid is square; this one is {self.cols}×{self.rows}", self.pid_span)


@dataclass(frozen=True)
class Genre:
    rules: str  # the bundled rule file's stem
    decode: Callable[[Url], Givens]
    encode: Callable[[dict[str, object]], tuple[str, str, int, int, str]]  # (pid, pflag, cols, rows, body)


# ----------------------------------------------------------------- the genres

def _no_question(url: Url, flat: list, what: str) -> None:
    if K.QUESTION in flat:
        raise url.body.error(f"this {url.pid} puzzle has a `?` {what}, which {GENRES[url.pid].rules}.puz cannot state",
                             at=0, width=max(len(url.body.text), 1))


def _no_flag(url: Url, allowed: str = "") -> None:
    extra = [f for f in url.pflag if f not in allowed]
    if extra:
        raise DataError(f"the {url.pid} variant flag {url.pflag!r} is not read",
                        url.pid_span, "only plain puzzles of this genre are")


def _cells(g: dict[str, object], name: str) -> tuple[list, int, int]:
    """A bound 2-D given as a flat row-major list, with its columns and rows."""
    grid = g[name]
    rows, cols = grid.dims  # type: ignore[attr-defined]
    return [grid.cells[(r, c)] for r in rows for c in cols], len(cols), len(rows)  # type: ignore[attr-defined]


def _line(g: dict[str, object], name: str) -> list:
    grid = g[name]
    return [grid.cells[(i,)] for i in grid.dims[0]]  # type: ignore[attr-defined]


def _rows2(flat: list, cols: int) -> list[list]:
    return [flat[i : i + cols] for i in range(0, len(flat), cols)]


def _cannot(rules: str, what: str) -> PuzzleError:
    return PuzzleError(f"this {rules} puzzle has {what}, which a puzz.link URL cannot state")


def _sym(v: object) -> str | None:
    return None if v is None else getattr(v, "name", str(v))


# numlin / arukone -> arukone.puz: numbers; puzz.link's Arukone fills every cell unless flagged `e`

def _dec_numlin(url: Url) -> Givens:
    _no_flag(url, "e" if url.pid == "arukone" else "")
    nums = K.decode_number16(url.body, url.cells)
    _no_question(url, nums, "number")
    return {"num": url.grid(nums), "fill": url.pid == "arukone" and "e" not in url.pflag}


def _enc_numlin(g: dict[str, object]) -> tuple[str, str, int, int, str]:
    if g.get("touchfree"):
        raise _cannot("arukone", "the touchfree option")
    flat, cols, rows = _cells(g, "num")
    return ("arukone" if g.get("fill") else "numlin"), "", cols, rows, K.encode_number16(flat)


# a grid of numbers (number16): nurikabe, kurodoko, hashikake, sudoku, shikaku, fillomino (a URL with
# drawn borders has more after the numbers: refused as unexpected text)

def _number_grid(name: str, rules: str, square: bool = False) -> Genre:
    def dec(url: Url) -> Givens:
        _no_flag(url)
        if square:
            url.square()
            if math.isqrt(url.cols) ** 2 != url.cols:
                raise DataError(f"{rules}.puz has n×n boxes; a {url.cols}×{url.cols} {url.pid} has other boxes",
                                url.pid_span, "its boxes are n×n when the side is a square: 4, 9, 16, 25, …")
        nums = K.decode_number16(url.body, url.cells)
        _no_question(url, nums, "clue")
        return {name: url.grid(nums)}

    def enc(g: dict[str, object]) -> tuple[str, str, int, int, str]:
        flat, cols, rows = _cells(g, name)
        return PIDS[rules], "", cols, rows, K.encode_number16(flat)

    return Genre(rules, dec, enc)


# 0..4 per cell (cell4): lightup (a `.` is a black cell), shakashaka (likewise), slither (`.` is `?`)

def _cell4(name: str, rules: str, black: object | None) -> Genre:
    def dec(url: Url) -> Givens:
        _no_flag(url)
        cells = K.decode_cell4(url.body, url.cells)
        if black is None:
            cells = [None if v == K.QUESTION else v for v in cells]  # a `?` clue says nothing
        else:
            cells = ["x" if v == K.QUESTION else v for v in cells]
        return {name: url.grid(cells)}

    def enc(g: dict[str, object]) -> tuple[str, str, int, int, str]:
        flat, cols, rows = _cells(g, name)
        out = []
        for v in flat:
            if black is not None and v == black:
                out.append(K.QUESTION)
            elif v is None or (isinstance(v, int) and 0 <= v <= 4):
                out.append(v)
            else:
                raise _cannot(rules, f"the clue {v}")
        return PIDS[rules], "", cols, rows, K.encode_cell4(out)

    return Genre(rules, dec, enc)


def _dec_hitori(url: Url) -> Givens:
    _no_flag(url)
    nums = K.decode_hitori(url.body, url.cells)
    if None in nums or K.QUESTION in nums:
        raise url.body.error("every hitori cell needs a number", at=0, width=max(len(url.body.text), 1))
    return {"number": url.grid(nums)}


def _enc_hitori(g: dict[str, object]) -> tuple[str, str, int, int, str]:
    flat, cols, rows = _cells(g, "number")
    return "hitori", "", cols, rows, K.encode_hitori(flat)


# regions (borders): starbattle (a star count first), norinori, lits

def _regions(url: Url) -> list[list[int]]:
    right, below = K.decode_borders(url.body, url.cols, url.rows)
    return K.regions_from_borders(right, below, url.rows, url.cols)


def _border_body(g: dict[str, object], name: str, rules: str) -> tuple[int, int, str]:
    flat, cols, rows = _cells(g, name)
    if None in flat:
        raise _cannot(rules, "cells outside every region")
    right, below = K.borders_of(_rows2(flat, cols))
    return cols, rows, K.encode_borders(right, below)


def _dec_starbattle(url: Url) -> Givens:
    _no_flag(url)
    url.square()
    count = url.body.part()
    stars = count.take(len(count.text), 10, "the number of stars") if count.text.isdigit() else None
    if stars is None:
        raise count.error(f"expected the number of stars, found {count.text!r}", width=max(len(count.text), 1))
    return {"S": stars, "region": [[f"r{v}" for v in row] for row in _regions(url)]}


def _enc_starbattle(g: dict[str, object]) -> tuple[str, str, int, int, str]:
    cols, rows, body = _border_body(g, "region", "star-battle")
    return "starbattle", "", cols, rows, f"{g['S']}/{body}"


def _dec_norinori(url: Url) -> Givens:
    _no_flag(url)
    return {"region": _regions(url), "hint": [["-"] * url.cols for _ in range(url.rows)]}


def _enc_norinori(g: dict[str, object]) -> tuple[str, str, int, int, str]:
    if any(_cells(g, "hint")[0]):
        raise _cannot("norinori", "cells shown shaded")
    return ("norinori", "", *_border_body(g, "region", "norinori"))


def _dec_lits(url: Url) -> Givens:
    _no_flag(url)
    return {"region": _regions(url)}


def _enc_lits(g: dict[str, object]) -> tuple[str, str, int, int, str]:
    return ("lits", "", *_border_body(g, "region", "lits"))


# clues outside the grid: box (kakurasu), skyscrapers, tents, nonogram

def _dec_box(url: Url) -> Givens:
    _no_flag(url)
    sums = K.decode_base32_list(url.body, url.cols + url.rows, "a clue")
    return {"colsum": sums[: url.cols], "rowsum": sums[url.cols :]}


def _enc_box(g: dict[str, object]) -> tuple[str, str, int, int, str]:
    cols, rows = _line(g, "colsum"), _line(g, "rowsum")
    if None in cols or None in rows:
        raise _cannot("kakurasu", "a row or column without a clue")
    return "box", "", len(cols), len(rows), K.encode_base32_list(cols + rows)


def _dec_skyscrapers(url: Url) -> Givens:
    _no_flag(url)
    url.square()
    n = url.cols
    sides = K.decode_excell16(url.body, 4 * n)
    # pzprjs writes the grid only when a cell of it holds a number: its absence is no URL cut short
    grid = K.decode_number16(url.body, url.cells) if not url.body.done() else [None] * url.cells
    _no_question(url, sides + grid, "clue")
    return {"H": n, "from_top": sides[:n], "from_bottom": sides[n : 2 * n], "from_left": sides[2 * n : 3 * n],
            "from_right": sides[3 * n :], "grid": url.grid(grid)}


def _enc_skyscrapers(g: dict[str, object]) -> tuple[str, str, int, int, str]:
    flat, cols, rows = _cells(g, "grid")
    if g.get("diagonals") or not g["H"] == cols == rows:
        raise _cannot("skyscraper", "heights other than 1..N in an N×N grid, or the diagonals rule")
    sides = [v for name in ("from_top", "from_bottom", "from_left", "from_right") for v in _line(g, name)]
    body = K.encode_number16(sides)  # the side clues are written as pzprjs writes any numbers
    if any(v is not None for v in flat):
        body += K.encode_number16(flat)
    return "skyscrapers", "", cols, rows, body


def _dec_tents(url: Url) -> Givens:
    _no_flag(url)
    clues = K.decode_excell16(url.body, url.cols + url.rows)
    _no_question(url, clues, "count")
    trees = K.decode_marks(url.body, url.cells)
    return {"colclue": clues[: url.cols], "rowclue": clues[url.cols :],
            "grid": url.grid(["x" if t else "-" for t in trees])}


def _enc_tents(g: dict[str, object]) -> tuple[str, str, int, int, str]:
    flat, cols, rows = _cells(g, "grid")
    body = K.encode_number16(_line(g, "colclue") + _line(g, "rowclue"))
    return "tents", "", cols, rows, body + K.encode_marks([v is not None for v in flat])


def _dec_nonogram(url: Url) -> Givens:
    _no_flag(url)
    depth_c, depth_r = (url.rows + 1) // 2, (url.cols + 1) // 2  # clue slots above a column, left of a row
    slots = K.decode_excell16(url.body, url.cols * depth_c + url.rows * depth_r)
    _no_question(url, slots, "clue")

    def lines(start: int, count: int, depth: int) -> list[list[int]]:
        # slot 0 is nearest the grid: a line's clues read outwards, so reverse them
        return [[v for v in reversed(slots[start + i * depth : start + (i + 1) * depth]) if v]
                for i in range(count)]

    cols, rows = lines(0, url.cols, depth_c), lines(url.cols * depth_c, url.rows, depth_r)
    kc, kr = max(1, *map(len, cols)), max(1, *map(len, rows))
    return {"colclue": [c + [None] * (kc - len(c)) for c in cols],
            "rowclue": [r + [None] * (kr - len(r)) for r in rows]}


def _enc_nonogram(g: dict[str, object]) -> tuple[str, str, int, int, str]:
    colclue, kc, cols = _cells(g, "colclue")
    rowclue, kr, rows = _cells(g, "rowclue")
    slots: list = []
    for clues, k, depth in ((colclue, kc, (rows + 1) // 2), (rowclue, kr, (cols + 1) // 2)):
        for i in range(0, len(clues), k):
            line = [v for v in clues[i : i + k] if v]
            if len(line) > depth:
                raise _cannot("nonogram", f"a line of {len(line)} clues (puzz.link leaves room for {depth})")
            slots += list(reversed(line)) + [None] * (depth - len(line))
    return "nonogram", "", cols, rows, K.encode_number16(slots)


# circles and marks: mashu, tatamibari, simpleloop

def _dec_mashu(url: Url) -> Givens:
    _no_flag(url)
    circles = K.decode_circles(url.body, url.cells)
    return {"pearl": url.grid([{0: "-", 1: "w", 2: "b"}[v] for v in circles])}


def _enc_mashu(g: dict[str, object]) -> tuple[str, str, int, int, str]:
    flat, cols, rows = _cells(g, "pearl")
    return "mashu", "", cols, rows, K.encode_circles([{None: 0, "white": 1, "black": 2}[_sym(v)] for v in flat])


TATAMI = {"1": "v", "2": "h", "3": "s", ".": K.QUESTION}  # pzprjs: 1 a vertical bar, 2 a horizontal one, 3 a cross
TATAMI_OUT = {"tall": "1", "wide": "2", "square": "3"}


def _dec_tatamibari(url: Url) -> Givens:
    _no_flag(url)
    marks = K.decode_coded(url.body, url.cells, TATAMI)
    _no_question(url, marks, "mark")
    return {"mark": url.grid(["-" if v is None else v for v in marks])}


def _enc_tatamibari(g: dict[str, object]) -> tuple[str, str, int, int, str]:
    flat, cols, rows = _cells(g, "mark")
    return "tatamibari", "", cols, rows, K.encode_coded(flat, lambda v: TATAMI_OUT.get(_sym(v) or ""))


def _dec_simpleloop(url: Url) -> Givens:
    _no_flag(url)
    blocked = K.decode_binary(url.body, url.cells, "the blocked cells")
    return {"blocked": url.grid(["x" if b else "-" for b in blocked])}


def _enc_simpleloop(g: dict[str, object]) -> tuple[str, str, int, int, str]:
    flat, cols, rows = _cells(g, "blocked")
    return "simpleloop", "", cols, rows, K.encode_binary(flat) if any(flat) else ""


# dots (tentaisho): one position per cell centre, border middle and inner corner, row by row

def _dec_tentaisho(url: Url) -> Givens:
    _no_flag(url)
    width = 2 * url.cols - 1
    dots = K.decode_dots(url.body, width * (2 * url.rows - 1))
    empty = K.decode_binary(url.body, url.cells, "the empty cells") if not url.body.done() else []
    if any(empty):
        raise url.body.error("this tentaisho puzzle has cells outside the grid, which galaxies.puz cannot state",
                             at=0, width=max(len(url.body.text), 1))
    centre: list[list[int | None]] = [[None] * url.cols for _ in range(url.rows)]
    for i, dot in enumerate(dots):
        if dot:  # a black dot only shades its galaxy in pzprjs's picture: the rules are the same
            y, x = divmod(i, width)  # half-cell steps from the first cell's centre
            centre[y // 2][x // 2] = 2 * (y % 2) + x % 2
    return {"centre": centre}


def _enc_tentaisho(g: dict[str, object]) -> tuple[str, str, int, int, str]:
    flat, cols, rows = _cells(g, "centre")
    width = 2 * cols - 1
    dots = [0] * (width * (2 * rows - 1))
    for i, v in enumerate(flat):
        if v is not None:
            r, c = divmod(i, cols)
            dots[(2 * r + v // 2) * width + 2 * c + v % 2] = 1
    return "tentaisho", "", cols, rows, K.encode_dots(dots)


# magnets: per column `-` then `+` counts (the `-` nearest the grid), the same per row; the
# dominoes as borders; given poles (1 `+`, 2 `-`); then the cells in no domino

def _set_around(right: list[list[bool]], below: list[list[bool]], r: int, c: int, value: bool) -> None:
    """The four borders of cell (r, c), those inside the grid."""
    for row, col, side in ((r, c, right), (r, c - 1, right), (r, c, below), (r - 1, c, below)):
        if 0 <= row < len(side) and 0 <= col < len(side[row]):
            side[row][col] = value


def _dec_magnets(url: Url) -> Givens:
    _no_flag(url)
    counts = K.decode_excell16(url.body, 2 * (url.cols + url.rows))
    _no_question(url, counts, "count")
    cols, rows = counts[: 2 * url.cols], counts[2 * url.cols :]
    right, below = K.decode_borders(url.body, url.cols, url.rows)
    poles = K.decode_circles(url.body, url.cells) if not url.body.done() else [0] * url.cells
    empty = K.decode_binary(url.body, url.cells, "the empty cells") if not url.body.done() else [False] * url.cells
    for i in (i for i, e in enumerate(empty) if e):  # pzprjs draws no borders at an empty cell: wall it in
        _set_around(right, below, *divmod(i, url.cols), True)
    regions = K.regions_from_borders(right, below, url.rows, url.cols)
    flat = [None if e else f"{v}" for v, e in zip((v for row in regions for v in row), empty, strict=True)]
    return {"colminus": cols[0::2], "colplus": cols[1::2], "rowminus": rows[0::2], "rowplus": rows[1::2],
            "hint": url.grid([{0: ".", 1: "+", 2: "-"}[v] for v in poles]), "region": url.grid(flat)}


def _enc_magnets(g: dict[str, object]) -> tuple[str, str, int, int, str]:
    region, cols, rows = _cells(g, "region")
    hint = _cells(g, "hint")[0]
    if 0 in hint:
        raise _cannot("magnetic", "a cell given as neutral")
    counts = [v for pair in zip(_line(g, "colminus"), _line(g, "colplus"), strict=True) for v in pair]
    counts += [v for pair in zip(_line(g, "rowminus"), _line(g, "rowplus"), strict=True) for v in pair]
    grid = _rows2(region, cols)
    right, below = K.borders_of(grid)
    for r, c in ((r, c) for r in range(rows) for c in range(cols) if grid[r][c] is None):
        _set_around(right, below, r, c, False)  # as pzprjs writes them: no borders at an empty cell
    body = K.encode_number16(counts) + K.encode_borders(right, below)
    if any(v is not None for v in hint) or None in region:
        body += K.encode_circles([{None: 0, 1: 1, -1: 2}[v] for v in hint])
        body += K.encode_binary([v is None for v in region])
    return "magnets", "", cols, rows, body


# tapa -> tapa.puz: clue cells that hold lists of numbers (a `?` number is an unknown item)

def _dec_tapa(url: Url) -> Givens:
    _no_flag(url)
    return {"clue": url.grid(decode_number_lists(url.body, url.cells))}


def _enc_tapa(g: dict[str, object]) -> tuple[str, str, int, int, str]:
    flat, cols, rows = _cells(g, "clue")
    try:
        return "tapa", "", cols, rows, encode_number_lists(flat)
    except ValueError as err:
        raise _cannot("tapa", str(err).removeprefix("the clue ").replace(" has no puzz.link code", " as a clue")) \
            from None


GENRES: dict[str, Genre] = {
    "numlin": Genre("arukone", _dec_numlin, _enc_numlin),
    "arukone": Genre("arukone", _dec_numlin, _enc_numlin),
    "lightup": _cell4("board", "akari", 9),
    "shakashaka": _cell4("grid", "shakashaka", 5),
    "slither": _cell4("clue", "slitherlink", None),
    "nurikabe": _number_grid("board", "nurikabe"),
    "kurodoko": _number_grid("clue", "kuromasu"),
    "hashikake": _number_grid("island", "hashi"),
    "sudoku": _number_grid("grid", "sudoku", square=True),
    "shikaku": _number_grid("num", "shikaku"),
    "fillomino": _number_grid("clue", "fillomino"),
    "hitori": Genre("hitori", _dec_hitori, _enc_hitori),
    "starbattle": Genre("star-battle", _dec_starbattle, _enc_starbattle),
    "norinori": Genre("norinori", _dec_norinori, _enc_norinori),
    "lits": Genre("lits", _dec_lits, _enc_lits),
    "box": Genre("kakurasu", _dec_box, _enc_box),
    "skyscrapers": Genre("skyscraper", _dec_skyscrapers, _enc_skyscrapers),
    "tents": Genre("tent", _dec_tents, _enc_tents),
    "nonogram": Genre("nonogram", _dec_nonogram, _enc_nonogram),
    "mashu": Genre("masyu", _dec_mashu, _enc_mashu),
    "tatamibari": Genre("tatamibari", _dec_tatamibari, _enc_tatamibari),
    "simpleloop": Genre("simple-loop", _dec_simpleloop, _enc_simpleloop),
    "tentaisho": Genre("galaxies", _dec_tentaisho, _enc_tentaisho),
    "magnets": Genre("magnetic", _dec_magnets, _enc_magnets),
    "tapa": Genre("tapa", _dec_tapa, _enc_tapa),
}
"""pzprjs genre name -> the bundled rule file and the coding of its givens."""

ALIASES = {"akari": "lightup", "hashi": "hashikake", "bridges": "hashikake", "building": "skyscrapers",
           "skyscraper": "skyscrapers", "masyu": "mashu", "pearl": "mashu", "slitherlink": "slither",
           "numberlink": "numlin", "bijutsukan": "lightup", "spiralgalaxies": "tentaisho"}
"""Other names pzprjs accepts for a genre (its `alias` and `pzprurl` fields)."""

URL_NAMES = {"lightup": "akari", "hashikake": "hashi"}
"""The name pzprjs writes in a URL when it is not the genre's own (`pzprurl`)."""

PIDS = {g.rules: URL_NAMES.get(pid, pid) for pid, g in reversed(GENRES.items())}
"""Rule file stem -> the genre name its URLs are written with (`numlin` for arukone.puz)."""
