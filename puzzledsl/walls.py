"""Region borders (`show … regions G`): thick walls between neighbouring cells whose values in G
differ, and the board's frame.

`Walls` says where the walls are; `draw` draws a board with them as text: each cell is a field
of its glyph with a space either side, a column between two fields holds the wall between them
(`┃`), and a line between two rows of cells holds the walls under them (`━`), with the junctions
(`┏ ┳ ╋ …`) chosen from the walls that meet at each corner. A line of `lines E` crosses a wall as
`╂` or `┿`; a `between` mark stands in the middle of its side, over a wall if there is one. The
picture is the same without colour: walls are characters, and a cell in which a second solution
differs carries DIFF_GLYPH in its right margin.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from rich.text import Text

from .render import DIFF_GLYPH, DIFF_STYLE, MARK_STYLE, Board
from .values import Grid

# a corner where walls meet, by the directions they leave in: (up, right, down, left)
HEAVY = {(0, 0, 0, 0): " ", (1, 0, 0, 0): "╹", (0, 1, 0, 0): "╺", (0, 0, 1, 0): "╻", (0, 0, 0, 1): "╸",
         (1, 0, 1, 0): "┃", (0, 1, 0, 1): "━", (0, 1, 1, 0): "┏", (0, 0, 1, 1): "┓", (1, 1, 0, 0): "┗",
         (1, 0, 0, 1): "┛", (1, 1, 1, 0): "┣", (1, 0, 1, 1): "┫", (0, 1, 1, 1): "┳", (1, 1, 0, 1): "┻",
         (1, 1, 1, 1): "╋"}
CROSS_V, CROSS_H = "╂", "┿"  # a line crossing a wall between columns, between rows


@dataclass(frozen=True)
class Walls:
    """The walls of a board of R × C cells, by position (0-based): `right[j][i]` is the wall
    right of cell (j, i) (i = -1: the frame on the left), `down[j][i]` the wall under it
    (j = -1: the frame on top)."""

    rows: int
    cols: int
    right: frozenset[tuple[int, int]]  # (j, i): a wall between (j, i) and (j, i + 1)
    down: frozenset[tuple[int, int]]  # (j, i): a wall between (j, i) and (j + 1, i)

    @staticmethod
    def of(regions: Grid, rows: range, cols: range, open_unknown: bool = False) -> Walls:
        """Walls where neighbouring cells' values in `regions` differ (an unknown value is one
        value of its own: a hole in a given's regions), and the frame. `open_unknown`: an unknown
        value is one not yet found (`--determined`, a step of `explain`), and has no walls;
        drawn as a value, the open cells made regions that no solution has (friction log 19)."""
        v = [[regions.cells.get((r, c)) for c in cols] for r in rows]
        n, m = len(rows), len(cols)

        def apart(a: object, b: object) -> bool:
            return a != b and not (open_unknown and (a is None or b is None))

        right = {(j, i) for j in range(n) for i in range(-1, m) if i in (-1, m - 1) or apart(v[j][i], v[j][i + 1])}
        down = {(j, i) for j in range(-1, n) for i in range(m) if j in (-1, n - 1) or apart(v[j][i], v[j + 1][i])}
        return Walls(n, m, frozenset(right), frozenset(down))

    def corner(self, j: int, i: int) -> str:
        """The junction at the corner below and right of cell (j, i) (j, i = -1: the frame)."""
        return HEAVY[((j, i) in self.right, (j, i + 1) in self.down, (j + 1, i) in self.right, (j, i) in self.down)]

    def segments(self, x0: float, y0: float, size: float) -> Iterator[tuple[float, float, float, float]]:
        """The walls as line segments (x1, y1, x2, y2) on a picture whose cells are `size` wide,
        runs along a row or a column joined into one segment."""
        for i, start, end in _runs(self.right, self.cols, self.rows, lambda i, j: (j, i)):  # vertical walls
            x = x0 + (i + 1) * size
            yield x, y0 + start * size, x, y0 + end * size
        for j, start, end in _runs(self.down, self.rows, self.cols, lambda j, i: (j, i)):  # horizontal walls
            y = y0 + (j + 1) * size
            yield x0 + start * size, y, x0 + end * size, y


def draw(b: Board, walls: Walls, width: int, gap: int, plain: bool) -> Iterator[Text]:
    """The board's lines of text, walls drawn (see the module doc); `width` is a glyph's width,
    `gap` that of the columns between fields (1, or the widest `between` mark)."""
    g = b.values
    rs, cs = g.dims
    field = width + 2
    left_w = max([len(b.clue("left", r)) for r in rs] + [0])
    pad = " " * (left_w + 1 if left_w else 0)

    def clue_row(side: str) -> Text | None:
        if not any(b.clue(side, c) for c in cs):
            return None
        text = pad + " " * gap + "".join(b.clue(side, c).center(field) + " " * gap for c in cs)
        return Text(text.rstrip(), style="cyan")

    top = clue_row("top")
    if top is not None:
        yield top
    yield _between_rows(b, walls, -1, field, gap, pad)
    for j, r in enumerate(rs):
        clue = b.clue("left", r)
        line = Text(clue.rjust(left_w) + " " if left_w else "", style="cyan")
        line.append(_side(walls, j, -1, gap, None, False))
        for i, c in enumerate(cs):
            text, style, sides = b.cell((r, c))
            differs = bool(b.differs and (r, c) in b.differs)
            styles = [s for s in (style, MARK_STYLE if b.marked((r, c)) else None, DIFF_STYLE if differs else None)
                      if s]
            across, back = bool(sides and sides[1]), bool(sides and sides[3])
            lo = (width - len(text)) // 2
            text = ("─" if back else " ") * (lo + 1) + text + ("─" if across else " ") * (width - len(text) - lo)
            line.append(text, style=" ".join(styles) or None)
            if differs and plain:
                line.append(DIFF_GLYPH, style=DIFF_STYLE)
            else:
                line.append("─" if across else " ", style=style if across else None)
            mark = b.between(1, (r, c)) if i + 1 < len(cs) else ("", None)
            line.append(_side(walls, j, i, gap, mark, across))
        right = b.clue("right", r)
        if right:
            line.append(" " + right, style="cyan")
        yield line
        yield _between_rows(b, walls, j, field, gap, pad)
    bottom = clue_row("bottom")
    if bottom is not None:
        yield bottom


def _side(walls: Walls, j: int, i: int, gap: int, mark: tuple[str, str | None] | None, across: bool) -> Text:
    """The column right of cell (j, i): its wall, a `between` mark, or a line going across."""
    wall = (j, i) in walls.right
    if mark is not None and mark[0].strip():
        return Text(mark[0].center(gap), style=mark[1])
    if across:
        return Text((CROSS_V if wall else "─").center(gap, "─"), style="bold")
    return Text(("┃" if wall else " ").center(gap))


def _between_rows(b: Board, walls: Walls, j: int, field: int, gap: int, pad: str) -> Text:
    """The line under row j of cells (j = -1: the frame on top): the walls under each cell and
    the corners, a `between` mark in the middle of its side, or a line going down."""
    rs, cs = b.values.dims
    line = Text(pad)
    for i in range(-1, len(cs)):
        if i >= 0:
            wall = (j, i) in walls.down
            ground = "━" if wall else " "
            mid = ground
            style = None
            if 0 <= j < len(rs) - 1:
                k = (rs[j], cs[i])
                mark, mark_style = b.between(0, k)
                if mark.strip():
                    mid, style = mark, mark_style
                elif b.lines is not None and b.sides(k)[2]:
                    mid, style = (CROSS_H if wall else "│"), "bold"
            lo = (field - len(mid)) // 2
            line.append(ground * lo)
            line.append(mid, style=style)
            line.append(ground * (field - len(mid) - lo))
        c = walls.corner(j, i)
        left, right = (j, i) in walls.down and i >= 0, (j, i + 1) in walls.down
        lo = (gap - 1) // 2
        line.append(("━" if left else " ") * lo + c + ("━" if right else " ") * (gap - 1 - lo))
    return line


def _runs(walls: set, lines: int, length: int, at) -> Iterator[tuple[int, int, int]]:
    """(line, start, end) of each run of consecutive walls along each line (-1 .. lines - 1),
    `at(line, k)` being the wall's key at step k of that line."""
    for line in range(-1, lines):
        k = 0
        while k < length:
            if at(line, k) not in walls:
                k += 1
                continue
            start = k
            while k < length and at(line, k) in walls:
                k += 1
            yield line, start, k
