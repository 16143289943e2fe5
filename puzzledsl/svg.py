"""Boards as SVG pictures (`solve --svg FILE`, `Solution.svg()`, Jupyter).

Drawn from the same `Board`s as the terminal (`render.py`), so a genre's `show` line decides
the picture too: glyphs and their colours, clues on the four sides, given cells marked (a
grey ground), lines through the cells (`lines E`), thick walls between regions (`regions G`,
one path), and the cells in which a second solution differs (a red ground, a red frame and a
`*` in the corner: glyph as well as colour). Plain SVG written as text: a few hundred elements need no drawing library.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html import escape

from .compile import Compiled
from .render import Board, boards
from .values import EdgeGrid, Grid
from .walls import Walls

CELL = 32  # pixels per cell
FONT = "DejaVu Sans, Verdana, sans-serif"
COLOURS = {"red": "#c62828", "green": "#2e7d32", "yellow": "#b8860b", "blue": "#1565c0", "magenta": "#8e24aa",
           "cyan": "#00838f", "white": "#9e9e9e", "black": "#000000", "bright_red": "#ef5350",
           "bright_green": "#66bb6a", "bright_yellow": "#d4ac0d", "bright_blue": "#42a5f5",
           "bright_magenta": "#ba68c8", "bright_cyan": "#26c6da"}
FILLED = {"■", "█"}  # glyphs drawn as a filled square
DIFF_FILL, DIFF_LINE, GIVEN_FILL = "#ffebee", "#d50000", "#eeeeee"
WALL = 4  # pixels: the walls of `show … regions G` (a cell's own border is 1)


@dataclass
class _Canvas:
    width: int = 0
    height: int = 0
    parts: list[str] = field(default_factory=list)

    def add(self, element: str) -> None:
        self.parts.append(element)

    def text(self, x: float, y: float, s: str, colour: str = "#000", bold: bool = False, size: int = 18,
             anchor: str = "middle") -> None:
        weight = ' font-weight="bold"' if bold else ""
        self.add(f'<text x="{x:g}" y="{y:g}" fill="{colour}" font-size="{size}"{weight} text-anchor="{anchor}" '
                 f'dominant-baseline="central">{escape(s)}</text>')


def _style(style: str | None) -> tuple[str, bool]:
    """(colour, bold) of a rich style string such as `bold red` or `dim`."""
    words = (style or "").split()
    colour = next((COLOURS[w] for w in words if w in COLOURS), "#9e9e9e" if "dim" in words else "#000")
    return colour, "bold" in words


def document(compiled: Compiled, solution: dict[str, Grid], other: dict[str, Grid] | None = None,
             second: dict[str, Grid] | None = None) -> str:
    """An SVG document of a solution's boards (cells differing from `other` marked); with
    `second`, that solution is drawn below, its differences from the first marked."""
    c = _Canvas()
    y = _panel(c, boards(compiled, solution, other), 0, compiled.title)
    if second is not None:
        y = _panel(c, boards(compiled, second, solution), y + CELL // 2, "a second solution (differences marked *)")
    c.height = y
    body = "\n".join(c.parts)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{c.width}" height="{c.height}" '
            f'viewBox="0 0 {c.width} {c.height}" font-family="{FONT}">\n'
            f'<rect width="100%" height="100%" fill="white"/>\n{body}\n</svg>\n')


def _panel(c: _Canvas, panel: list[Board], y: int, caption: str | None) -> int:
    if caption:
        c.text(4, y + 12, caption, bold=True, size=14, anchor="start")
        c.width = max(c.width, 8 + 9 * len(caption))  # a small board's caption is wider than the board
        y += 24
    for board in panel:
        y = _board(c, board, y) + CELL // 2
    return y


def _board(c: _Canvas, b: Board, y0: int) -> int:
    g = b.values
    if len(g.dims) > 2:  # one picture per value of the leading indices
        for name, part in b.parts():
            c.text(4, y0 + 10, name, bold=True, size=13, anchor="start")
            y0 = _board(c, part, y0 + 22) + CELL // 2
        return y0
    if len(g.dims) == 0 or isinstance(g, EdgeGrid) and len(g.dims) != 2:
        text = f"{g.name} = {b.glyph(g.cells[()])[0]}" if len(g.dims) == 0 else f"{g.name}: (edges, not drawn)"
        c.text(4, y0 + 12, text, size=14, anchor="start")
        c.width = max(c.width, 8 + 9 * len(text))
        return y0 + 24
    if isinstance(g, EdgeGrid):
        b.lines = g
    rows, cols = g.dims if len(g.dims) == 2 else (range(1), g.dims[0])
    key = (lambda r, col: (r, col)) if len(g.dims) == 2 else (lambda r, col: (col,))
    left = CELL if any(b.clue("left", r) for r in rows) else 0
    top = CELL if any(b.clue("top", col) for col in cols) else 0
    corners = len(g.dims) == 2 and b.corner_lines()[0]
    rim = CELL // 4 + 2 if corners else 0  # room for the discs on the frame's corners
    x0, gy = 4 + left + rim, y0 + top + rim
    for i, col in enumerate(cols):
        cx = x0 + i * CELL + CELL / 2
        if top:
            c.text(cx, y0 + CELL / 2, b.clue("top", col), "#00838f", size=15)
        if b.clue("bottom", col):
            c.text(cx, gy + len(rows) * CELL + CELL / 2, b.clue("bottom", col), "#00838f", size=15)
    for j, r in enumerate(rows):
        cy = gy + j * CELL + CELL / 2
        if left:
            c.text(4 + left / 2, cy, b.clue("left", r), "#00838f", size=15)
        if b.clue("right", r):
            c.text(x0 + len(cols) * CELL + CELL / 2, cy, b.clue("right", r), "#00838f", size=15)
        for i, col in enumerate(cols):
            _cell(c, b, key(r, col), x0 + i * CELL, gy + j * CELL)
    if b.spec.between:  # on the sides, drawn over both cells
        for j, r in enumerate(rows):
            for i, col in enumerate(cols):
                k = key(r, col)
                for axis, x, y in ((1, x0 + (i + 1) * CELL, gy + j * CELL + CELL / 2),
                                   (0, x0 + i * CELL + CELL / 2, gy + (j + 1) * CELL)):
                    text, style = b.between(axis, k)
                    if text.strip():
                        colour, bold = _style(style)
                        c.text(x, y, text, colour, bold, size=16 if len(text) < 3 else 11)
    w, h = len(cols) * CELL, len(rows) * CELL
    if b.regions is not None and len(g.dims) == 2:  # the frame is one of the walls
        path = " ".join(f"M{x1:g} {y1:g}L{x2:g} {y2:g}" for x1, y1, x2, y2 in
                        Walls.of(b.regions, rows, cols, b.regions_open).segments(x0, gy, CELL))
        c.add(f'<path class="walls" d="{path}" fill="none" stroke="#000" stroke-width="{WALL}" '
              'stroke-linecap="square"/>')
    else:
        c.add(f'<rect x="{x0}" y="{gy}" width="{w}" height="{h}" fill="none" stroke="#000" stroke-width="2"/>')
    if corners:  # on the corners of the cells, over the grid lines: a disc with the number
        for i in range(len(rows) + 1):
            for j in range(len(cols) + 1):
                text, style = b.corner(i, j)
                if text.strip():
                    colour, bold = _style(style)
                    x, y = x0 + j * CELL, gy + i * CELL
                    c.add(f'<circle cx="{x}" cy="{y}" r="{CELL / 4 + 1:g}" fill="white" stroke="{colour}" '
                          'stroke-width="1.5"/>')
                    c.text(x, y, text, colour, bold, size=13 if len(text) < 3 else 9)
    right = CELL if any(b.clue("right", r) for r in rows) else 0
    bottom = CELL if any(b.clue("bottom", col) for col in cols) else 0
    c.width = max(c.width, x0 + w + right + 4 + rim)
    return gy + h + bottom + rim


def _cell(c: _Canvas, b: Board, k: tuple[int, ...], x: int, y: int) -> None:
    text, style, sides = b.cell(k)
    differs = bool(b.differs and k in b.differs)
    colour, bold = _style(style)
    reverse = "reverse" in (style or "").split() and not (sides and any(sides))  # as the terminal: light on dark
    fill = colour if reverse else DIFF_FILL if differs else GIVEN_FILL if b.marked(k) else "white"
    c.add(f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{fill}" stroke="#bdbdbd" stroke-width="1"/>')
    if reverse:
        colour = "white"
    mid_x, mid_y = x + CELL / 2, y + CELL / 2
    if sides and any(sides):
        if b.regions is not None and colour == "#000":
            colour = COLOURS["blue"]  # a black line would read as a wall
        ends = [(mid_x, y), (x + CELL, mid_y), (mid_x, y + CELL), (x, mid_y)]
        for side, (ex, ey) in zip(sides, ends, strict=True):
            if side:
                c.add(f'<line x1="{mid_x:g}" y1="{mid_y:g}" x2="{ex:g}" y2="{ey:g}" stroke="{colour}" '
                      f'stroke-width="6" stroke-linecap="round"/>')
        if b.values is b.lines or not b.marked(k):
            text = ""  # the line is the cell's picture (a clue cell keeps its number on top)
    if text in FILLED:
        c.add(f'<rect x="{x + 3}" y="{y + 3}" width="{CELL - 6}" height="{CELL - 6}" fill="{colour}"/>')
    elif text.strip() and text != "·":
        if sides and any(sides):  # a number on a line: a disc behind it
            c.add(f'<circle cx="{mid_x:g}" cy="{mid_y:g}" r="{CELL / 2 - 4:g}" fill="white" stroke="{colour}" '
                  f'stroke-width="2"/>')
        c.text(mid_x, mid_y, text, colour, bold or b.marked(k), size=18 if len(text) < 3 else 12)
    elif text == "·":
        c.add(f'<circle cx="{mid_x:g}" cy="{mid_y:g}" r="2" fill="#9e9e9e"/>')
    if differs:
        c.add(f'<rect x="{x + 1.5}" y="{y + 1.5}" width="{CELL - 3}" height="{CELL - 3}" fill="none" '
              f'stroke="{DIFF_LINE}" stroke-width="2" stroke-dasharray="4 2"/>')
        c.text(x + CELL - 6, y + 7, "*", DIFF_LINE, True, size=12)
