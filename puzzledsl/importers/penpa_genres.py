"""The genres Penpa+ URLs are read and written for: each bundled rule file, how its givens are
drawn in Penpa+ (following what penpa-edit's own puzz.link import draws, `docs/js/general.js`
`decode_puzzlink`), the genre tags and title words that name it, and how a solution is written
for penpa's answer check.

Whatever a drawing holds that the rule file cannot state (a `?` clue, a thermometer, a given
star, a clue in a margin the genre has no use for) is an error, never a silently different
puzzle. The givens are the values the puzz.link and janko readers give.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable

from puzzledsl.errors import PuzzleError

from .base import Givens
from .penpa import Board, Cell
from .penpa_common import (
    Answer,
    Genre,
    _at,
    _clues,
    _digits,
    _drawing,
    _error,
    _grid,
    _ints,
    _lists,
    _loop_edges,
    _loop_lines,
    _marks,
    _only,
    _region_edges,
    _shading,
    _side_clues,
)
from .penpa_genres_more import MORE, MORE_TITLES
from .penpa_write import Drawing
from .puzzlink_genres import _cells, _line, _sym

# ----------------------------------------------------------------- numbers in cells


SHADE = (("surface", ["", 1]), ("1", "2", "1"))  # the answer's input mode, and the grid: solid lines, a frame
LINES = (("combi", ["linex", ""]), ("2", "2", "1"))  # as penpa's puzz.link import: lines and crosses
EDGES = (("combi", ["edgesub", ""]), ("2", "2", "1"))  # region sides drawn along a dashed grid
LOOP_EDGES = (("combi", ["edgex", ""]), ("3", "1", "2"))  # dots only, no frame (else its sides would not count)


def _number_grid(name: str, rules: str, tags: tuple[str, ...], answer: Callable[[dict[str, object], Drawing], Answer],
                 low: int = 0, high: int | None = None, blank: object = None, every: bool = False,
                 look: tuple[tuple[str, list], tuple[str, str, str]] = SHADE) -> Genre:
    """A clue number in some cells (`every`: in each), nothing else: nurikabe, hitori, kuromasu, …"""
    def dec(board: Board) -> Givens:
        _only(board, rules, {"number", "surface"})
        inside, _ = _clues(board, rules)
        if blank is not None:
            inside = {k: blank if v in ("?", None) else v for k, v in inside.items()}
        elif None in inside.values():  # penpa's puzz.link import writes a `?` clue as a blank
            raise _error(board, rules, "a clue without a number (a `?`)")
        _ints(board, rules, {k: v for k, v in inside.items() if v != blank}, "clue", low, high)
        if every and (len(inside) < board.rows * board.cols or None in inside.values()):
            raise _error(board, rules, "a cell without a number")
        return {name: _grid(board, lambda c: inside.get(c))}

    def enc(g: dict[str, object]) -> Drawing:
        d, flat, cols, _ = _drawing(g, name)
        d.mode, d.grid = look
        for cell, v in _at(flat, cols):
            if v is not None and v != blank:
                d.number(cell, v)
        return d

    return Genre(rules, tags, dec, enc, answer)


def _dec_arukone(board: Board) -> Givens:
    _only(board, "arukone", {"number"})
    inside, _ = _clues(board, "arukone")
    names = sorted({v for v in inside.values() if v is not None}, key=lambda v: (isinstance(v, str), str(v)))
    ints = [v for v in names if isinstance(v, int)]
    if any(v <= 0 for v in ints):
        raise _error(board, "arukone", "a number below 1")
    code = {v: v if isinstance(v, int) else max(ints, default=0) + i + 1 for i, v in enumerate(
        v for v in names if isinstance(v, str))} | {v: v for v in ints}  # letters after the numbers
    return {"num": _grid(board, lambda c: code.get(inside.get(c))), "fill": False}  # type: ignore[arg-type]


def _enc_arukone(g: dict[str, object]) -> Drawing:
    if g.get("fill") or g.get("touchfree"):
        raise PuzzleError("this arukone puzzle fills the grid or forbids touching lines; a Penpa+ URL "
                          "does not say so")
    return _number_grid("num", "arukone", (), _loop_lines("link"), look=LINES).encode(g)


def _shikaku_owner(values: dict[str, object]) -> dict[Cell, object]:
    """Each cell's rectangle, named by its number's cell, from the rectangles taken."""
    owner: dict[Cell, object] = {}
    for ((clue, (top, left, h, w)),), taken in values["take"].cells.items():  # type: ignore[attr-defined]
        if taken:
            owner.update({(r - 1, c - 1): clue for r in range(top, top + h) for c in range(left, left + w)})
    return owner


def _sudoku_boxes(n: int) -> list[list[int]]:
    k = math.isqrt(n)
    return [[r // k * k + c // k for c in range(n)] for r in range(n)]


def _dec_sudoku(board: Board) -> Givens:
    _only(board, "sudoku", {"number", "lineE", "surface"})
    n = board.cols
    if board.rows != n or math.isqrt(n) ** 2 != n:
        raise _error(board, "sudoku", f"a {board.cols}×{board.rows} grid", "its grid is n²×n² with n×n boxes")
    if any(flag == "1" for flag in board.header[11:15]):
        raise _error(board, "sudoku", "diagonals (a variant)")
    drawn = {p for p in board.borders() if all(board.inside(c) for c in p)}
    if drawn and board.regions() != [[v + 1 for v in row] for row in _sudoku_boxes(n)]:
        raise _error(board, "sudoku", "boxes other than n×n squares")
    inside, _ = _clues(board, "sudoku")
    _ints(board, "sudoku", inside, "clue", 1, n)
    return {"grid": _grid(board, lambda c: inside.get(c))}


def _enc_sudoku(g: dict[str, object]) -> Drawing:
    d, flat, cols, _ = _drawing(g, "grid", gridtype="sudoku")
    d.mode = ("number", ["1", 2])
    for cell, v in _at(flat, cols):
        if v is not None:
            d.number(cell, v)
    d.regions(_sudoku_boxes(cols))  # type: ignore[arg-type]
    return d


# ----------------------------------------------------------------- black cells with numbers: akari, shakashaka


def _black_cells(name: str, rules: str, tags: tuple[str, ...], black: int, combi: str,
                 answer: Callable[[dict[str, object], Drawing], Answer]) -> Genre:
    def dec(board: Board) -> Givens:
        _only(board, rules, {"number", "surface"})
        inside, _ = _clues(board, rules)
        shaded = board.shaded()
        for cell, v in inside.items():
            if v is not None and cell not in shaded:
                raise _error(board, rules, f"a number on a white cell (row {cell[0] + 1}, column {cell[1] + 1})")
        _ints(board, rules, inside, "clue", 0, 4)
        return {name: _grid(board, lambda c: (black if inside.get(c) is None else inside[c]) if c in shaded else None)}

    def enc(g: dict[str, object]) -> Drawing:
        d, flat, cols, _ = _drawing(g, name)
        d.mode = ("combi", [combi, ""])
        for cell, v in _at(flat, cols):
            if v is not None:
                d.shade(cell)
                if v != black:
                    d.number(cell, v, colour=7)  # white on black
        return d

    return Genre(rules, tags, dec, enc, answer)


TRIANGLE = {1: 1, 2: 4, 3: 2, 4: 3}  # shakashaka.puz's corner (nw, ne, sw, se) -> penpa's `tri` style (nw, sw, se, ne)


def _ans_shakashaka(values: dict[str, object], d: Drawing) -> Answer:
    """Each triangle as penpa's shakashaka input draws it: a `tri` symbol, its style the corner."""
    board = d.board()
    marks = [f"{board.index((r - 1, c - 1))},{TRIANGLE[v]}B"
             for (r, c), v in values["triangle"].cells.items() if v]  # type: ignore[attr-defined]
    return _lists(symbol=marks), ["tri"]


# ----------------------------------------------------------------- symbols: masyu, tents; shading: simple loop


PEARLS = {1: "w", 2: "b"}


def _dec_masyu(board: Board) -> Givens:
    _only(board, "masyu", {"symbol"})
    pearls = {}
    for cell, (name, style) in board.symbols().items():
        if not board.inside(cell) or not name.startswith("circle") or style not in PEARLS:
            raise _error(board, "masyu", f"a `{name}` symbol of style {style}",
                         "only white and black circles are pearls")
        pearls[cell] = PEARLS[style]  # type: ignore[index]
    return {"pearl": _grid(board, lambda c: pearls.get(c, "-"))}


def _enc_masyu(g: dict[str, object]) -> Drawing:
    d, flat, cols, _ = _drawing(g, "pearl")
    d.mode, d.grid = LINES
    for cell, v in _at(flat, cols):
        if _sym(v) in ("white", "black"):
            d.symbol(cell, "circle_L", 1 if _sym(v) == "white" else 2)
    return d


def _dec_simple_loop(board: Board) -> Givens:
    _only(board, "simple-loop", {"surface"})
    shaded = board.shaded()
    return {"blocked": _grid(board, lambda c: "x" if c in shaded else "-")}


def _enc_simple_loop(g: dict[str, object]) -> Drawing:
    d, flat, cols, _ = _drawing(g, "blocked")
    d.mode, d.grid = LINES
    for cell, v in _at(flat, cols):
        if v:
            d.shade(cell)
    return d


def _dec_tent(board: Board) -> Givens:
    _only(board, "tent", {"number", "symbol"})
    inside, margins = _clues(board, "tent", "top bottom left right")
    if any(v is not None for v in inside.values()):
        raise _error(board, "tent", "a number inside the grid")
    trees = set()
    for cell, (name, style) in board.symbols().items():
        if not board.inside(cell) or name != "tents" or style != 1:
            raise _error(board, "tent", f"a `{name}` symbol of style {style} (only trees are read)")
        trees.add(cell)
    return {"colclue": _side_clues(board, "tent", margins, ("top", "bottom"), board.cols, "column counts"),
            "rowclue": _side_clues(board, "tent", margins, ("left", "right"), board.rows, "row counts"),
            "grid": _grid(board, lambda c: "x" if c in trees else "-")}


def _enc_tent(g: dict[str, object]) -> Drawing:
    d, flat, cols, _ = _drawing(g, "grid", space=(1, 0, 1, 0))
    d.mode = ("combi", ["tents", ""])
    for cell, v in _at(flat, cols):
        if v is not None:
            d.symbol(cell, "tents", 1)
    for i, v in enumerate(_line(g, "colclue")):
        if v is not None:
            d.number((-1, i), v)
    for i, v in enumerate(_line(g, "rowclue")):
        if v is not None:
            d.number((i, -1), v)
    return d


# ----------------------------------------------------------------- clues outside: skyscrapers, kakurasu


def _dec_skyscraper(board: Board) -> Givens:
    _only(board, "skyscraper", {"number"})
    n = board.cols
    if board.rows != n:
        raise _error(board, "skyscraper", f"a {board.cols}×{board.rows} grid", "its grid is square")
    inside, margins = _clues(board, "skyscraper", "top bottom left right")
    _ints(board, "skyscraper", inside, "height", 1, n)
    sides = {}
    for side in ("top", "bottom", "left", "right"):
        clues = {k: None if v == "?" else v for k, v in margins[side].items()}
        _ints(board, "skyscraper", clues, "clue", 1, n)
        sides[f"from_{side}"] = [clues.get(i) for i in range(n)]
    return {"H": n, **sides, "grid": _grid(board, lambda c: inside.get(c))}


def _enc_skyscraper(g: dict[str, object]) -> Drawing:
    d, flat, cols, rows = _drawing(g, "grid", space=(1, 1, 1, 1))
    if g.get("diagonals") or not g["H"] == cols == rows:
        raise PuzzleError("this skyscraper puzzle has heights other than 1..N in an N×N grid, or the diagonals "
                          "rule, which a Penpa+ drawing does not state")
    d.mode = ("number", ["1", 2])
    for cell, v in _at(flat, cols):
        if v is not None:
            d.number(cell, v)
    for side, place in (("top", lambda i: (-1, i)), ("bottom", lambda i: (rows, i)),
                        ("left", lambda i: (i, -1)), ("right", lambda i: (i, cols))):
        for i, v in enumerate(_line(g, f"from_{side}")):
            if v is not None:
                d.number(place(i), v)
    return d


def _labels(values: dict, count: int) -> bool:
    return values == {i: i + 1 for i in range(count)}


def _dec_kakurasu(board: Board) -> Givens:
    _only(board, "kakurasu", {"number"})
    inside, margins = _clues(board, "kakurasu", "top bottom left right")
    if any(v is not None for v in inside.values()):
        raise _error(board, "kakurasu", "a number inside the grid")
    for a, b, n in (("top", "bottom", board.cols), ("left", "right", board.rows)):
        for side, other in ((a, b), (b, a)):
            if _labels(margins[side], n) and margins[other]:
                margins[side] = {}  # the 1, 2, 3, … beside the sums only number the rows or columns
    return {"colsum": _side_clues(board, "kakurasu", margins, ("top", "bottom"), board.cols, "column sums"),
            "rowsum": _side_clues(board, "kakurasu", margins, ("left", "right"), board.rows, "row sums")}


def _enc_kakurasu(g: dict[str, object]) -> Drawing:
    colsum, rowsum = _line(g, "colsum"), _line(g, "rowsum")
    d = Drawing(len(rowsum), len(colsum), space=(1, 1, 1, 1))
    for i, v in enumerate(colsum):
        d.number((len(rowsum), i), i + 1, colour=6)  # the values of the columns, grey
        if v is not None:
            d.number((-1, i), v)
    for i, v in enumerate(rowsum):
        d.number((i, len(colsum)), i + 1, colour=6)
        if v is not None:
            d.number((i, -1), v)
    return d


# ----------------------------------------------------------------- regions: star battle, LITS, norinori


def _regions_only(board: Board, rules: str, allowed: set[str]) -> list[list[int]]:
    _only(board, rules, allowed | {"lineE"})
    return board.regions()


def _dec_star_battle(board: Board) -> Givens:
    region = _regions_only(board, "star-battle", {"number", "symbol"})
    if board.rows != board.cols:
        raise _error(board, "star-battle", f"a {board.cols}×{board.rows} grid", "its grid is square")
    inside, _ = _clues(board, "star-battle", "top bottom left right")
    if any(v is not None for v in inside.values()):
        raise _error(board, "star-battle", "a number inside the grid")
    if any(board.inside(c) for c in board.symbols()):
        raise _error(board, "star-battle", "symbols inside the grid (given stars or marks)")
    counts = {v for c, v in board.numbers().items() if not board.inside(c) and v is not None}
    found = re.search(r"(\d+)\s*-?\s*stars?\b", f"{board.title} {board.rules}", re.IGNORECASE)
    if len(counts) > 1 or (counts and not all(isinstance(v, int) and v > 0 for v in counts)):
        raise _error(board, "star-battle", f"several numbers outside the grid ({sorted(map(str, counts))})",
                     "the one number outside the grid is read as the stars per row, column and region")
    stars = next(iter(counts), None) or (int(found.group(1)) if found else 1)
    return {"S": stars, "region": [[f"r{v}" for v in row] for row in region]}


def _enc_star_battle(g: dict[str, object]) -> Drawing:
    d, flat, cols, _ = _drawing(g, "region", space=(1, 1, 1, 1))  # as penpa's puzz.link import draws it
    d.mode = ("combi", ["star", ""])
    d.regions([flat[i : i + cols] for i in range(0, len(flat), cols)])
    d.number((-1, cols - 2), g["S"])
    d.symbol((-1, cols - 1), "star", 2, layer=2)
    return d


def _dec_lits(board: Board) -> Givens:
    return {"region": _regions_only(board, "lits", set())}


def _dec_norinori(board: Board) -> Givens:
    region = _regions_only(board, "norinori", {"surface"})
    shaded = board.shaded()
    return {"region": region, "hint": _grid(board, lambda c: "x" if c in shaded else "-")}


def _enc_regions(name: str, shaded: str | None = None) -> Callable[[dict[str, object]], Drawing]:
    def enc(g: dict[str, object]) -> Drawing:
        d, flat, cols, _ = _drawing(g, name)
        if None in flat:
            raise PuzzleError("this puzzle has cells outside every region, which a Penpa+ drawing does not state")
        d.regions([flat[i : i + cols] for i in range(0, len(flat), cols)])
        for cell, v in _at(_cells(g, shaded)[0] if shaded else [], cols):
            if v:
                d.shade(cell)
        return d
    return enc


# ----------------------------------------------------------------- the table

GENRES: dict[str, Genre] = {g.rules: g for g in (
    Genre("sudoku", ("classic",), _dec_sudoku, _enc_sudoku, _digits("x")),
    Genre("star-battle", ("starbattle",), _dec_star_battle, _enc_star_battle, _marks("star", "1E", "star")),
    _number_grid("board", "nurikabe", ("nurikabe",), _shading("black"), low=1),
    Genre("lits", ("lits",), _dec_lits, _enc_regions("region"), _shading("shaded")),
    Genre("norinori", ("norinori",), _dec_norinori, _enc_regions("region", "hint"), _shading("black")),
    _black_cells("board", "akari", ("akari",), 9, "akari", _marks("light", "3H", "akari")),
    _black_cells("grid", "shakashaka", ("shakashaka",), 5, "shaka", _ans_shakashaka),
    Genre("skyscraper", ("skyscrapers",), _dec_skyscraper, _enc_skyscraper, _digits("height")),
    Genre("kakurasu", (), _dec_kakurasu, _enc_kakurasu, _shading("black")),
    Genre("tent", ("tents",), _dec_tent, _enc_tent, _marks("tent", "2F", "tent")),
    _number_grid("number", "hitori", ("hitori",), _shading("black"), low=1, every=True),
    _number_grid("clue", "kuromasu", ("kurodoko", "kuromasu"), _shading("black"), low=1),
    _number_grid("num", "shikaku", ("shikaku",), _region_edges(_shikaku_owner), low=1, look=EDGES),
    _number_grid("clue", "slitherlink", ("slitherlink",), _loop_edges("line"), high=4, blank="?",
                 look=LOOP_EDGES),
    Genre("masyu", ("masyu",), _dec_masyu, _enc_masyu, _loop_lines("link")),
    Genre("simple-loop", ("simple loop",), _dec_simple_loop, _enc_simple_loop, _loop_lines("link")),
    Genre("arukone", ("numberlink",), _dec_arukone, _enc_arukone, _loop_lines("link")),
    *MORE,
)}
"""Bundled rule file stem -> how its puzzles are drawn in Penpa+."""

TITLES = {"sudoku": "sudoku", "classic sudoku": "sudoku", "star battle": "star-battle", "nurikabe": "nurikabe",
          "lits": "lits", "norinori": "norinori", "akari": "akari", "light up": "akari", "shakashaka": "shakashaka",
          "skyscrapers": "skyscraper", "skyscraper": "skyscraper", "kakurasu": "kakurasu", "tents": "tent",
          "tents and trees": "tent", "hitori": "hitori", "kurodoko": "kuromasu", "kuromasu": "kuromasu",
          "shikaku": "shikaku", "slitherlink": "slitherlink", "masyu": "masyu", "simple loop": "simple-loop",
          "numberlink": "arukone", "arukone": "arukone", **MORE_TITLES}
"""A title naming the genre, in lower case, up to a bracket, dash or colon ("Star Battle (2 stars)")."""

NOTE_WORDS = frozenset("""very easy medium hard harder hardest difficult tough expert beginner intermediate
    advanced extreme fiendish evil normal classic standard puzzle no nr number star stars example practice
    warm up warmup daily weekly test mini small large big giant level round part x""".split())
"""Words of a note after a title's genre (a difficulty, a number, a size): "Sudoku - easy", "Nurikabe: #12"."""


def _is_note(rest: str) -> bool:
    """Whether what follows a title's dash, colon or bracket is a note on the puzzle (difficulty,
    number, size, stars, author) rather than a variant's name ("Tapa - Islands")."""
    words = re.findall(r"[^\W_]+", rest.lower())
    return not words or words[0] == "by" or all(w in NOTE_WORDS or any(ch.isdigit() for ch in w) for w in words)

TAGS = {tag: g.rules for g in GENRES.values() for tag in g.tags}


def genre_of(board: Board) -> str | None:
    """The bundled rule file a drawing names through its genre tags, else its title; None if neither does."""
    tagged = {TAGS[t] for t in board.tags if t in TAGS}
    if len(tagged) == 1 and len(board.tags) == 1:
        return tagged.pop()
    if board.tags:
        return None  # several tags (a variant, a mixture) or unknown ones: the rules must be named
    head, *rest = re.split(r"[(\[:\-–—,]", board.title.lower(), maxsplit=1)
    if rest and not _is_note(rest[0]):
        return None  # a variant or another genre ("Tapa - Islands", "Tapa-Like Loop"): the rules must be named
    return TITLES.get(" ".join(head.split()))
