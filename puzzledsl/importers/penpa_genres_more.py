"""More Penpa+ genres: Nonogram, Hashi, Galaxies (penpa-edit draws these when it imports a
puzz.link URL, `docs/js/general.js` `decode_puzzlink`); Magnets and Battleships, which
penpa-edit has input modes and answer checks for (`+` and `-` as its `math` symbols, ship
pieces as its `battleship_B` symbols) but no import; Tatamibari, drawn with penpa's line
symbols (`-`, `|`, `+`); Tapa, whose clues penpa-edit draws in its Tapa number style (a
text of one character per number, `?` for an unknown one, laid out round the cell). Where
penpa-edit draws no convention of its own (which margin holds the `+` counts, how the fleet
is given), the drawings of T0nyX1ang/noqx's penpa front end are followed.
"""

from __future__ import annotations

import re
from collections import Counter

from puzzledsl.errors import DataError, PuzzleError

from .base import Givens
from .penpa import Board, Cell
from .penpa_common import (
    Answer,
    Genre,
    _at,
    _clues,
    _drawing,
    _error,
    _grid,
    _ints,
    _lists,
    _only,
    _owner,
    _region_edges,
    _shading,
    _side_clues,
)
from .penpa_write import Drawing
from .puzzlink_genres import _cells, _line

# ----------------------------------------------------------------- nonogram: clues in the top and left margins


def _dec_nonogram(board: Board) -> Givens:
    _only(board, "nonogram", {"number", "lineE"})  # thick or dotted guide lines every five cells say nothing
    cols: list[list[int]] = [[] for _ in range(board.cols)]
    rows: list[list[int]] = [[] for _ in range(board.rows)]
    for (r, c), v in sorted(board.numbers().items()):
        side = board.margin((r, c))
        if v is None:
            continue
        if side not in ("top", "left"):
            where = "inside the grid" if board.inside((r, c)) else f"in the {side or 'corner'} margin"
            raise _error(board, "nonogram", f"a number {where} ({v!r} at row {r + 1}, column {c + 1})",
                         "the clues are read from the top and left margins")
        if not (isinstance(v, int) and v >= 0):
            raise _error(board, "nonogram", f"the clue {v!r}")
        (cols[c] if side == "top" else rows[r]).append(v)
    kc, kr = max(1, *map(len, cols)), max(1, *map(len, rows))
    return {"colclue": [c + [None] * (kc - len(c)) for c in cols],
            "rowclue": [r + [None] * (kr - len(r)) for r in rows]}


def _enc_nonogram(g: dict[str, object]) -> Drawing:
    colclue, kc, cols = _cells(g, "colclue")
    rowclue, kr, rows = _cells(g, "rowclue")
    down = [[v for v in colclue[i : i + kc] if v is not None] for i in range(0, len(colclue), kc)]
    across = [[v for v in rowclue[i : i + kr] if v is not None] for i in range(0, len(rowclue), kr)]
    top, left = max(1, *map(len, down)), max(1, *map(len, across))
    d = Drawing(rows, cols, space=(top, 0, left, 0))
    d.mode = ("combi", ["blpo", ""])  # as penpa's puzz.link import: black cells and dots
    for c, clues in enumerate(down):  # the last clue nearest the grid
        for k, v in enumerate(reversed(clues)):
            d.number((-1 - k, c), v)
    for r, clues in enumerate(across):
        for k, v in enumerate(reversed(clues)):
            d.number((r, -1 - k), v)
    return d


# ----------------------------------------------------------------- hashi: numbered islands, bridges as lines

def _dec_hashi(board: Board) -> Givens:
    _only(board, "hashi", {"number", "symbol"})
    inside, _ = _clues(board, "hashi")
    if None in inside.values():  # penpa's puzz.link import writes a `?` island as a blank
        raise _error(board, "hashi", "an island without a number")
    _ints(board, "hashi", inside, "island", 1, 8)
    if any(board.inside(c) and c not in inside for c in board.symbols()):
        raise _error(board, "hashi", "a symbol on an empty cell")
    return {"island": _grid(board, lambda c: inside.get(c))}


def _enc_hashi(g: dict[str, object]) -> Drawing:
    d, flat, cols, _ = _drawing(g, "island")
    d.mode, d.grid = ("combi", ["hashi", ""]), ("3", "2", "2")  # no grid, no frame: islands in circles
    for cell, v in _at(flat, cols):
        if v is not None:
            d.number(cell, v, colour=6)
    return d


def _ans_hashi(values: dict[str, object], d: Drawing) -> Answer:
    """Each bridge as the unit lines it runs along, `,1` single and `,2` double (penpa's hashi
    input draws a second bridge as a double line)."""
    board, lines = d.board(), []
    for name, (dr, dc) in (("across", (0, 1)), ("down", (1, 0))):
        for (r, c), n in values[name].cells.items():  # type: ignore[attr-defined]
            if n:
                lines.append(f"{board.line_key((r - 1, c - 1), (r - 1 + dr, c - 1 + dc))},{n}")
    return _lists(line=lines), ["loopline"]


# ----------------------------------------------------------------- galaxies: dots at centres, sides and corners

DOT_AT = {0: 0, 3: 1, 2: 2, 1: 3}  # penpa's point kind -> galaxies.puz's place: centre, right, bottom, corner
KIND_OF = {v: k for k, v in DOT_AT.items()}


def _dec_galaxies(board: Board) -> Givens:
    _only(board, "galaxies", {"symbol"})
    centre: dict[Cell, int] = {}
    for (kind, (r, c)), (name, style) in board.symbols_anywhere().items():
        if not name.startswith("circle") or style not in (1, 2):
            raise _error(board, "galaxies", f"a `{name}` symbol of style {style}", "only white and black dots are read")
        far = (r + (kind in (1, 2)), c + (kind in (1, 3)))  # the cell on the dot's other side
        if not (board.inside((r, c)) and board.inside(far)):
            raise _error(board, "galaxies", f"a dot outside the grid or on its frame (row {r + 1}, column {c + 1})")
        centre[(r, c)] = DOT_AT[kind]
    return {"centre": _grid(board, lambda c: centre.get(c))}


def _enc_galaxies(g: dict[str, object]) -> Drawing:
    d, flat, cols, _ = _drawing(g, "centre")
    d.mode, d.grid = ("combi", ["edgesub", ""]), ("2", "2", "1")  # as penpa's puzz.link import
    for cell, v in _at(flat, cols):
        if v is not None:
            d.symbol(cell, "circle_SS", 1, layer=2, kind=KIND_OF[v])  # type: ignore[index]
    return d


# ----------------------------------------------------------------- magnets: dominoes, counts, `+` and `-`

PLUS, MINUS = 2, 3  # penpa's `math` symbol styles


def _math(board: Board, rules: str, cell: Cell, name: str, style: object) -> int:
    if not name.startswith("math") or style not in (PLUS, MINUS):
        raise _error(board, rules, f"a `{name}` symbol of style {style} at row {cell[0] + 1}, column {cell[1] + 1}",
                     "only `+` and `-` (penpa's math symbols) are read")
    return 1 if style == PLUS else -1


def _dominoes(board: Board) -> list[list[int | None]]:
    regions = board.regions()
    size = Counter(v for row in regions for v in row)
    if max(size.values()) > 2:
        raise _error(board, "magnetic", "a region of more than two cells", "its regions are dominoes and single cells")
    return [[v if size[v] == 2 else None for v in row] for row in regions]


def _margin(board: Board, margins: dict[str, dict], side: str, count: int) -> list[int | None]:
    clues = {k: None if v == "?" else v for k, v in margins[side].items()}
    _ints(board, "magnetic", clues, "count")
    return [clues.get(i) for i in range(count)]  # type: ignore[misc]


def _dec_magnetic(board: Board) -> Givens:
    _only(board, "magnetic", {"number", "symbol", "surface", "lineE"})
    _, margins = _clues(board, "magnetic", "top bottom left right")
    hint: dict[Cell, str] = {cell: "x" for cell in board.shaded() if board.inside(cell)}  # a given neutral cell
    swapped = False  # the top and left counts are the `+` counts, unless a corner's sign says otherwise
    for cell, (name, style) in board.symbols().items():
        sign = _math(board, "magnetic", cell, name, style)
        if board.inside(cell):
            hint[cell] = "+" if sign > 0 else "-"
        elif cell == (-1, -1) or cell == (board.rows, board.cols):
            swapped |= (sign > 0) != (cell == (-1, -1))
        else:
            raise _error(board, "magnetic", f"a sign outside the grid at row {cell[0] + 1}, column {cell[1] + 1}",
                         "a sign in the top left or bottom right corner says which counts are which")
    first, second = ("minus", "plus") if swapped else ("plus", "minus")
    return {f"col{first}": _margin(board, margins, "top", board.cols),
            f"col{second}": _margin(board, margins, "bottom", board.cols),
            f"row{first}": _margin(board, margins, "left", board.rows),
            f"row{second}": _margin(board, margins, "right", board.rows),
            "hint": _grid(board, lambda c: hint.get(c, ".")), "region": _dominoes(board)}


def _enc_magnetic(g: dict[str, object]) -> Drawing:
    d, region, cols, rows = _drawing(g, "region", space=(1, 1, 1, 1))
    d.mode = ("combi", ["magnets", ""])
    grid = [region[i : i + cols] for i in range(0, len(region), cols)]
    for r in range(rows):
        for c in range(cols):
            for r2, c2 in ((r, c + 1), (r + 1, c)):
                if r2 < rows and c2 < cols and (grid[r][c] is None or grid[r][c] != grid[r2][c2]):
                    d.border((r, c), (r2, c2))
    for cell, v in _at(_cells(g, "hint")[0], cols):
        if v == 0:
            d.shade(cell, 1)
        elif v is not None:
            d.symbol(cell, "math", PLUS if v > 0 else MINUS)
    for name, place in (("colplus", lambda i: (-1, i)), ("colminus", lambda i: (rows, i)),
                        ("rowplus", lambda i: (i, -1)), ("rowminus", lambda i: (i, cols))):
        for i, v in enumerate(_line(g, name)):
            if v is not None:
                d.number(place(i), v)
    d.symbol((-1, -1), "math", PLUS)  # which counts are which: `+` at the top left, `-` at the bottom right
    d.symbol((rows, cols), "math", MINUS)
    return d


def _ans_magnetic(values: dict[str, object], d: Drawing) -> Answer:
    board, given = d.board(), set(d.q["symbol"])
    marks = [f"{k},{PLUS if v > 0 else MINUS}G" for (r, c), v in values["pole"].cells.items()  # type: ignore[attr-defined]
             if v and (k := str(board.index((r - 1, c - 1)))) not in given]
    return _lists(symbol=marks), ["math"]


# ----------------------------------------------------------------- tatamibari: penpa's line symbols

TATAMI = {1: "h", 2: "v", 5: "s"}  # penpa's `line` symbol styles: a horizontal bar, a vertical one, a cross
TATAMI_STYLE = {"wide": 1, "tall": 2, "square": 5}


def _dec_tatamibari(board: Board) -> Givens:
    _only(board, "tatamibari", {"symbol", "number"})
    inside, _ = _clues(board, "tatamibari")
    if inside:
        cell, v = next(iter(inside.items()))
        raise _error(board, "tatamibari", f"a number or text ({v!r} at row {cell[0] + 1}, column {cell[1] + 1})",
                     "only the `-`, `|` and `+` symbols are read; a `?` mark is not")
    mark: dict[Cell, str] = {}
    for cell, (name, style) in board.symbols().items():
        if name != "line" or style not in TATAMI or not board.inside(cell):
            raise _error(board, "tatamibari", f"a `{name}` symbol of style {style} at row {cell[0] + 1}, "
                         f"column {cell[1] + 1}", "only penpa's `-`, `|` and `+` line symbols are read")
        mark[cell] = TATAMI[style]  # type: ignore[index]
    return {"mark": _grid(board, lambda c: mark.get(c, "-"))}


def _enc_tatamibari(g: dict[str, object]) -> Drawing:
    d, flat, cols, _ = _drawing(g, "mark")
    d.mode, d.grid = ("combi", ["edgesub", ""]), ("2", "2", "1")
    for cell, v in _at(flat, cols):
        if v is not None:
            d.symbol(cell, "line", TATAMI_STYLE[getattr(v, "name", str(v))])
    return d


# ----------------------------------------------------------------- battleships: counts, ship pieces, a fleet

PIECES = {1: "o", 2: "m", 3: "w", 4: "n", 5: "e", 6: "s", 7: "x", 8: "x"}  # penpa's `battleship_B` styles
PIECE_STYLE = {"single": 1, "middle": 2, "leftend": 3, "top": 4, "rightend": 5, "bottom": 6, "water": 7}
FLEET = re.compile(r"fleet\s*:\s*((?:\d+\s*[x×]\s*\d+\s*,?\s*)+)", re.IGNORECASE)


def _ships(board: Board, rules: str) -> Givens:
    _only(board, rules, {"number", "symbol"})
    inside, margins = _clues(board, rules, "top bottom left right")
    if any(v is not None for v in inside.values()):
        raise _error(board, rules, "a number inside the grid")
    hint: dict[Cell, str] = {}
    for cell, (name, style) in board.symbols().items():
        if not name.startswith("battleship") or style not in PIECES or not board.inside(cell):
            raise _error(board, rules, f"a `{name}` symbol of style {style} at row {cell[0] + 1}, column {cell[1] + 1}",
                         "ship pieces and water (penpa's battleship symbols) in the grid are read")
        hint[cell] = PIECES[style]  # type: ignore[index]
    return {"colsum": _side_clues(board, rules, margins, ("top", "bottom"), board.cols, "column counts"),
            "rowsum": _side_clues(board, rules, margins, ("left", "right"), board.rows, "row counts"),
            "hint": _grid(board, lambda c: hint.get(c, "-"))}


def _dec_battleship(board: Board) -> Givens:
    found = FLEET.search(f"{board.title}\n{board.rules}")
    if found is None:
        raise DataError("this Penpa+ battleship puzzle does not give its fleet: its rules text has no "
                        "`Fleet: 1x4, 2x3, 3x2, 4x1` (count x length)", board.span,
                        "a puzzle without a fleet is read with `puzzledsl solve battleship-fleetless --data URL`")
    ships: Counter[int] = Counter()
    for count, length in re.findall(r"(\d+)\s*[x×]\s*(\d+)", found.group(1)):
        ships[int(length)] += int(count)
    if 0 in ships or not ships:
        raise _error(board, "battleship", "a ship of length 0 in its fleet")
    return {**_ships(board, "battleship"), "fleet": [ships[k] for k in range(1, max(ships) + 1)]}


def _enc_ships(g: dict[str, object]) -> Drawing:
    d, flat, cols, _ = _drawing(g, "hint", space=(1, 0, 1, 0))  # counts above and left, as noqx draws them
    d.mode = ("combi", ["battleship", ""])
    for cell, v in _at(flat, cols):
        if v is not None:
            d.symbol(cell, "battleship_B", PIECE_STYLE[getattr(v, "name", str(v))])
    for i, v in enumerate(_line(g, "colsum")):
        d.number((-1, i), "?" if v is None else v)
    for i, v in enumerate(_line(g, "rowsum")):
        d.number((i, -1), "?" if v is None else v)
    fleet = _line(g, "fleet") if "fleet" in g else []
    if fleet:
        d.rules = "Fleet: " + ", ".join(f"{n}x{k}" for k, n in reversed(list(enumerate(fleet, 1))))
    return d


def _piece(ship: dict[tuple[int, int], bool], r: int, c: int) -> int:
    up, down, left, right = (ship.get((r + dr, c + dc)) for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)))
    if (up and down) or (left and right):
        return PIECE_STYLE["middle"]
    return (PIECE_STYLE["top"] if down else PIECE_STYLE["bottom"] if up else PIECE_STYLE["leftend"] if right
            else PIECE_STYLE["rightend"] if left else PIECE_STYLE["single"])


def _ans_ships(values: dict[str, object], d: Drawing) -> Answer:
    """Each ship cell as the piece it is, but for the pieces given (penpa's input keeps those)."""
    board, given = d.board(), set(d.q["symbol"])
    ship = values["ship"].cells  # type: ignore[attr-defined]
    marks = [f"{k},{_piece(ship, r, c)}D" for (r, c), on in ship.items()
             if on and (k := str(board.index((r - 1, c - 1)))) not in given]
    return _lists(symbol=marks), ["battleship"]


# ----------------------------------------------------------------- tapa: lists of numbers in penpa's Tapa style

TAPA_STYLE = "4"  # penpa's number style that lays a text's characters out round the cell, one a number
PLAIN_STYLES = {"1", "5", "6", "10"}  # normal, small, medium and big numbers: a one-number clue
TAPA_ITEM: dict[str, int | None] = {**{str(k): k for k in range(9)}, "?": None}
TAPA_MOST = 4  # penpa draws a Tapa text of one to four characters (nothing for a longer one)


def _tapa_clue(board: Board, cell: Cell, value: list) -> list[int | None] | None:
    """The clue a number of the drawing states: its text's characters, each 0..8 or `?`."""
    text = "" if isinstance(value[0], bool) else str(value[0]).strip()
    style = str(value[2]) if len(value) > 2 else "1"
    at = f"{text!r} at row {cell[0] + 1}, column {cell[1] + 1}"
    if not text:
        return None  # a blank text: nothing is drawn
    if not board.inside(cell):
        raise _error(board, "tapa", f"a number outside the grid ({at})")
    if style not in PLAIN_STYLES | {TAPA_STYLE}:
        raise _error(board, "tapa", f"a number in penpa's number style {style} ({at})",
                     "clues are read in the Tapa, normal, small, medium and big number styles")
    if style != TAPA_STYLE and text not in TAPA_ITEM:
        raise _error(board, "tapa", f"the clue {at} in a plain number style",
                     "a clue of several numbers is drawn in the Tapa style, one character a number")
    if len(text) > TAPA_MOST or any(ch not in TAPA_ITEM for ch in text):
        raise _error(board, "tapa", f"the clue {at}",
                     f"a clue is one to {TAPA_MOST} characters, each a number 0..8 or `?`")
    return [TAPA_ITEM[ch] for ch in text]


def _dec_tapa(board: Board) -> Givens:
    _only(board, "tapa", {"number"})
    if any(board.cell(key) is None and isinstance(v, list) and v and str(v[0]).strip()
           for key, v in board.layer("number").items()):
        raise _error(board, "tapa", "a number at a corner or side of a cell", "clues are read at cell centres")
    clues: dict[Cell, list[int | None]] = {}
    for cell, value in board.number_entries().items():
        clue = _tapa_clue(board, cell, value)
        if clue is not None:
            clues[cell] = clue
    return {"clue": _grid(board, lambda c: clues.get(c))}


def _enc_tapa(g: dict[str, object]) -> Drawing:
    d, flat, cols, _ = _drawing(g, "clue")
    d.mode = ("combi", ["blpo", ""])  # as penpa's puzz.link import: black cells and dots
    for (r, c), clue in _at(flat, cols):
        if clue is None:
            continue
        items = list(clue)  # type: ignore[call-overload]
        if not 1 <= len(items) <= TAPA_MOST or any(x is not None and not 0 <= x <= 8 for x in items):
            raise PuzzleError(f"the Tapa clue {items} at row {r + 1}, column {c + 1} has no Penpa+ drawing",
                              help=f"penpa's Tapa style draws one to {TAPA_MOST} numbers, each 0..8 or `?`")
        d.number((r, c), "".join("?" if x is None else str(x) for x in items), style=TAPA_STYLE)
    return d


# ----------------------------------------------------------------- the table

MORE = (
    Genre("nonogram", ("nonogram",), _dec_nonogram, _enc_nonogram, _shading("black")),
    Genre("hashi", ("hashiwokakero (hashi/bridges)",), _dec_hashi, _enc_hashi, _ans_hashi),
    Genre("galaxies", ("spiralgalaxies",), _dec_galaxies, _enc_galaxies, _region_edges(_owner("owner"))),
    Genre("magnetic", (), _dec_magnetic, _enc_magnetic, _ans_magnetic),
    Genre("tatamibari", (), _dec_tatamibari, _enc_tatamibari, _region_edges(_owner("owner"))),
    Genre("battleship", ("battleships",), _dec_battleship, _enc_ships, _ans_ships),
    Genre("battleship-fleetless", (), lambda board: _ships(board, "battleship-fleetless"), _enc_ships, _ans_ships,
          variant_of="battleship"),
    Genre("tapa", ("tapa",), _dec_tapa, _enc_tapa, _shading("black")),
)

MORE_TITLES = {"nonogram": "nonogram", "hashi": "hashi", "hashiwokakero": "hashi", "bridges": "hashi",
               "galaxies": "galaxies", "spiral galaxies": "galaxies", "tentaisho": "galaxies",
               "tentai show": "galaxies", "magnets": "magnetic", "magnetic": "magnetic", "tatamibari": "tatamibari",
               "battleships": "battleship", "battleship": "battleship",
               "battleships without a fleet": "battleship-fleetless", "tapa": "tapa"}
"""Titles naming these genres (lower case), for `penpa_genres.TITLES`."""
