"""Boards as rich renderables: glyphs and styles from `show`, clues beside the grid,
given cells marked, cells that differ between two solutions highlighted.

The text reads without colour too: where a console has no colour (`--no-color`, `NO_COLOR`,
a pipe), the cells in which a second solution differs carry a `*` after the glyph (DIFF_GLYPH),
so they are marked by glyph as well as by colour.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import product

from rich.console import Console, ConsoleOptions, RenderResult
from rich.text import Text

from .compile import CORNERS, Compiled, ShowSpec, glyph_key
from .values import EdgeGrid, Grid

DEFAULT_GLYPHS: dict[object, tuple[str, str | None]] = {True: ("■", "bold"), False: ("·", "dim")}
UNKNOWN = ("?", "dim italic")
MARK_STYLE = "underline"
DIFF_STYLE = "bold reverse red"
DIFF_GLYPH = "*"  # after a differing cell when the console has no colour
# the line through a cell, by the sides it leaves at: (up, right, down, left)
BOX = {(0, 0, 0, 0): "·", (1, 0, 0, 0): "╵", (0, 1, 0, 0): "╶", (0, 0, 1, 0): "╷", (0, 0, 0, 1): "╴",
       (1, 0, 1, 0): "│", (0, 1, 0, 1): "─", (0, 1, 1, 0): "┌", (0, 0, 1, 1): "┐", (1, 1, 0, 0): "└",
       (1, 0, 0, 1): "┘", (1, 1, 1, 0): "├", (1, 0, 1, 1): "┤", (0, 1, 1, 1): "┬", (1, 1, 0, 1): "┴",
       (1, 1, 1, 1): "┼"}
PALETTE = ("bold red", "bold green", "bold yellow", "bold blue", "bold magenta", "bold cyan", "red", "green",
           "yellow", "blue", "magenta", "cyan", "bright_red", "bright_green", "bright_blue", "bright_magenta")


MAX_SLICES = 100  # boards drawn for one grid of three or more dimensions; --json has them all


def list_text(v: list, sep: str) -> str:
    """A list given's items, `?` for unknown ones."""
    return sep.join("?" if x is None else str(x) for x in v)


def clue_text(v: object) -> str:
    """A clue beside the board: a list given's numbers spaced (`3 1`)."""
    return list_text(v, " ") if isinstance(v, list) else str(v)


@dataclass
class Board:
    """One shown variable of one solution, with its clues."""

    spec: ShowSpec
    values: Grid
    givens: dict[str, object]
    differs: set[tuple[int, ...]] | None = None
    lines: EdgeGrid | None = None  # drawn through the cells (`show … lines E`, or an edge grid shown itself)
    regions: Grid | None = None  # walls between neighbours whose values differ (`show … regions G`)
    regions_open: bool = False  # `regions` holds values not yet found (`Walls.of`'s open_unknown)
    _partial: bool | None = field(default=None, init=False, repr=False)  # some edge of `lines` not known

    def sides(self, k: tuple[int, ...]) -> tuple[int, int, int, int]:
        """Which of up, right, down, left the line through cell k leaves at."""
        r, c = k
        g = self.lines
        return tuple(int(g.cells.get(k + q) is True) for q in ((r - 1, c), (r, c + 1), (r + 1, c), (r, c - 1)))

    def cell(self, k: tuple[int, ...]) -> tuple[str, str | None, tuple[int, int, int, int] | None]:
        """Text and style of one cell, and the line's sides when a line is drawn through it."""
        if self.lines is None or len(k) != 2:
            text, style = self.glyph(self.values.cells[k])
            return text, style, None
        sides = self.sides(k)
        if self.values is self.lines:
            return BOX[sides], "bold" if any(sides) else "dim", sides
        v = self.values.cells[k]
        text, style = self.glyph(v)
        if any(sides) and not self.marked(k):
            text = BOX[sides]
        if style is None and any(sides) and v is not None:
            style = PALETTE[hash(v) % len(PALETTE)]
        return text, style, sides

    def between(self, axis: int, k: tuple[int, ...]) -> tuple[str, str | None]:
        """What `show … between G` draws after cell k: beside it (axis 1) or under it (axis 0);
        on a board of lines that is partly known (a step of `explain`), a `×` where the line is
        known not to pass."""
        for name, glyphs, a in self.spec.between:
            g = self.givens.get(name)
            if a == axis and isinstance(g, Grid):
                v = g.cells.get(k)
                if v is None:  # unknown: nothing, or the glyph keyed `?`
                    return glyphs.get(None, ("", None))
                return self.glyph(v, glyphs)
        if self.lines is not None and len(k) == 2 and self._partial_lines():
            q = (k[0] + 1, k[1]) if axis == 0 else (k[0], k[1] + 1)
            if self.lines.cells.get(k + q) is False:
                return "×", "dim"
        return "", None

    def _partial_lines(self) -> bool:
        """Whether some edge of the lines is not known yet: only then is "no line" worth a mark."""
        if self._partial is None:
            self._partial = any(v is None for v in self.lines.cells.values())  # type: ignore[union-attr]
        return self._partial

    def corner(self, i: int, j: int) -> tuple[str, str | None]:
        """What `show … between G` draws on a corner of the cells: the i-th line between rows
        (0 above the first, the number of rows below the last) and the j-th between columns."""
        for name, glyphs, a in self.spec.between:
            g = self.givens.get(name)
            if a == CORNERS and isinstance(g, Grid):
                inner = len(g.dims[0]) < len(self.values.dims[0])  # only the corners inside the board
                gi, gj = i - inner, j - inner
                if not (0 <= gi < len(g.dims[0]) and 0 <= gj < len(g.dims[1])):
                    return "", None
                v = g.cells.get((g.dims[0][gi], g.dims[1][gj]))
                return glyphs.get(None, ("", None)) if v is None else self.glyph(v, glyphs)
        return "", None

    def corner_lines(self) -> tuple[bool, bool]:
        """(any corners drawn, the corners on the frame among them)."""
        for name, _, a in self.spec.between:
            g = self.givens.get(name)
            if a == CORNERS and isinstance(g, Grid):
                return True, len(g.dims[0]) > len(self.values.dims[0])
        return False, False

    def glyph(self, v: object, glyphs: dict[object, tuple[str, str | None]] | None = None) -> tuple[str, str | None]:
        if v is None:
            return UNKNOWN
        try:
            g = (self.spec.glyphs if glyphs is None else glyphs).get(glyph_key(v))
        except TypeError:  # a list: no glyph of its own
            g = None
        if g is not None:
            return g
        if isinstance(v, bool):
            return DEFAULT_GLYPHS[v]
        if isinstance(v, tuple):  # a view's pair such as (number, arrow): each item's glyph, side by side
            parts = [self.glyph(x, glyphs) for x in v]
            return "".join(t for t, _ in parts), next((st for _, st in parts if st is not None), None)
        if isinstance(v, list):  # a list given's cell drawn by a view: as a text grid writes it
            text = list_text(v, "/")
            return (text if text not in ("", "?") else f"[{text}]", "bold")
        return (str(v), None)

    def marked(self, key: tuple[int, ...]) -> bool:
        for name in self.spec.marked:
            g = self.givens.get(name)
            if isinstance(g, Grid) and g.cells.get(key) is not None:
                return True
        return False

    def clue(self, side: str, index: int) -> str:
        for name, where in self.spec.clues:
            if where == side:
                g = self.givens.get(name)
                if isinstance(g, Grid):
                    v = g.cells.get((index,))
                    return "" if v is None else clue_text(v)
        return ""

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        g = self.values
        if isinstance(g, EdgeGrid) and len(g.dims) != 2:  # no picture: the chosen edges as text
            n = len(g.dims)
            chosen = [f"{_key(k[:n])}-{_key(k[n:])}" for k in (p + q for p, q in g.edges) if g.cells.get(k)]
            yield Text(f"{g.name}: " + (", ".join(chosen) or "no edges"))
            return
        if g.keyed:  # indexed by listed values: no picture, each value with its index
            if all(isinstance(v, bool) for v in g.cells.values()):
                chosen = [_key(k) for k in g.keys() if g.cells.get(k)]
                yield Text(f"{g.name}: " + (", ".join(chosen) or "none chosen"))
            else:
                yield Text(f"{g.name}: " + ", ".join(f"{_key(k)} = {self.glyph(g.cells.get(k))[0]}" for k in g.keys()))
            return
        if len(g.dims) > 2:
            yield from self.slices()
            return
        if len(g.dims) == 0:
            yield Text(f"{g.name} = {self.glyph(g.cells[()])[0]}")
            return
        dims = g.dims if len(g.dims) == 2 else (range(1), g.dims[0])
        key = (lambda r, c: (r, c)) if len(g.dims) == 2 else (lambda r, c: (c,))
        rows, cols = dims
        if isinstance(g, EdgeGrid):
            self.lines = g
        width = max([len(self.cell(k)[0]) for k in g.keys()] +
                    [len(self.clue(s, c)) for c in cols for s in ("top", "bottom")] +
                    [len(self.between(0, k)[0]) for k in g.keys()] + [1])
        corners, frame = self.corner_lines() if len(g.dims) == 2 else (False, False)
        gap = max([len(self.between(1, k)[0]) for k in g.keys()] + [1] +  # the columns between cells
                  [len(self.corner(i, j)[0]) for i in range(len(rows) + 1) for j in range(len(cols) + 1)
                   if corners])
        plain = console.no_color or console.color_system is None
        if self.regions is not None and len(g.dims) == 2:
            from .walls import Walls, draw  # imports this module

            yield from draw(self, Walls.of(self.regions, rows, cols, self.regions_open), width, gap, plain)
            return
        # a column after each cell for DIFF_GLYPH, on both boards of a pair so that they line up
        marker = " " if self.differs is not None and plain else ""
        left_w = max([len(self.clue("left", r)) for r in rows] + [0])
        pad = " " * (left_w + 1 if left_w else 0)
        space = " " * gap
        margin = space if frame else ""  # the corners on the frame stand left and right of the cells
        for side in ("top",):
            if any(self.clue(side, c) for c in cols):
                yield Text(pad + margin + space.join(_centred(self.clue(side, c), width) + marker for c in cols),
                           style="cyan")
        if frame:
            yield self.between_row(None, cols, key, width, pad, space, marker, 0, frame)
        for j, r in enumerate(rows):
            line = Text(pad if not left_w else self.clue("left", r).rjust(left_w) + " ", style="cyan")
            line.append(margin)
            for i, c in enumerate(cols):
                k = key(r, c)
                text, style, sides = self.cell(k)
                styles = [s for s in (style, MARK_STYLE if self.marked(k) else None,
                                      DIFF_STYLE if self.differs and k in self.differs else None) if s]
                left = (width - len(text)) // 2
                fill = ("─" if sides and sides[3] else " ", "─" if sides and sides[1] else " ")
                text = fill[0] * left + text + fill[1] * (width - len(text) - left)
                line.append(text, style=" ".join(styles) or None)
                if marker:  # a line going right runs on through the column, unless the cell's `*` is there
                    differs = k in self.differs
                    line.append(DIFF_GLYPH if differs else "─" if sides and sides[1] else marker,
                                style=DIFF_STYLE if differs else style if sides and sides[1] else None)
                if i + 1 < len(cols):
                    mark, mark_style = self.between(1, k)
                    if sides and sides[1]:
                        line.append("─" * gap, style=style)
                    else:
                        line.append(mark.center(gap), style=mark_style)
            right = self.clue("right", r)
            if frame:
                line.append(space)
            if right:
                line.append("  " + right, style="cyan")
            yield line
            # a line between rows: what `between` draws there, or, with cells wider than one
            # character (numbers of two digits), the lines going down, which no cell then shows
            downs = self.lines is not None and width > 1
            if r != rows[-1] and (downs or corners or any(a == 0 for _, _, a in self.spec.between)):
                yield self.between_row(r, cols, key, width, pad, space, marker, j + 1 if corners else None, frame)
        if frame:
            yield self.between_row(None, cols, key, width, pad, space, marker, len(rows), frame)
        if any(self.clue("bottom", c) for c in cols):
            yield Text(pad + margin + space.join(_centred(self.clue("bottom", c), width) + marker for c in cols),
                       style="cyan")

    def between_row(self, r: int | None, cols: range, key, width: int, pad: str, space: str, marker: str,
                    corners: int | None = None, frame: bool = False) -> Text:
        """The line under row r (None: above or below the board): what `between` draws under each
        cell, or the line going down; with `corners`, that line of corners in the columns between
        (and with `frame`, at both ends too)."""
        line = Text(pad)

        def corner(j: int) -> None:
            text, style = self.corner(corners, j)  # type: ignore[arg-type]
            line.append(text.center(len(space)), style=style)

        if frame:
            corner(0)
        for i, c in enumerate(cols):
            k = key(r, c) if r is not None else None
            down = k is not None and self.lines is not None and self.sides(k)[2]
            text, style = ("│", "bold") if down else self.between(0, k) if k is not None else ("", None)
            drawn = self.cell(k)[0] if down else ""
            if drawn[:1] in BOX.values():  # under the cell's own line glyph, which may carry a mark after it
                left = (width - len(drawn)) // 2
                line.append(" " * left + text + " " * (width - left - 1) + marker, style=style)
            else:
                line.append(text.center(width) + marker, style=style)
            if i + 1 < len(cols):
                if corners is not None:
                    corner(i + 1)
                else:
                    line.append(space)
        if frame:
            corner(len(cols))
        return line


    def slices(self) -> RenderResult:
        """A grid of three or more dimensions, drawn as one 2-D board per value of the leading
        indices, each under its name: `b[1, ·, ·]`."""
        parts = self.parts()
        for i, (name, board) in enumerate(parts[:MAX_SLICES]):
            if i:
                yield Text("")
            yield Text(name, style="bold")
            yield board
        if len(parts) > MAX_SLICES:
            yield Text(f"… and {len(parts) - MAX_SLICES:,} more boards of {self.values.name} (every value: --json)",
                       style="dim")

    def parts(self) -> list[tuple[str, Board]]:
        """The 2-D boards of a grid of three or more dimensions, one per value of the leading
        indices that has cells (a grid made only where its rules use it may have few), with their
        names (`b[1, ·, ·]`)."""
        g = self.values
        n = len(g.dims) - 2
        cells: dict[tuple, dict] = {}
        for k, v in g.cells.items():  # one pass: a scan per prefix was quadratic (1.4 million cells)
            cells.setdefault(k[:n], {})[k[n:]] = v
        differs: dict[tuple, set] = {}
        for k in self.differs or ():
            differs.setdefault(k[:n], set()).add(k[n:])
        out = []
        for prefix in product(*g.dims[:-2]):
            if prefix not in cells:
                continue
            part = Grid(g.name, g.dims[-2:], cells[prefix])
            changed = None if self.differs is None else differs.get(prefix, set())
            out.append((f"{g.name}[{', '.join(map(str, prefix))}, ·, ·]", Board(self.spec, part, self.givens, changed)))
        return out


def _key(k: tuple[int, ...]) -> str:
    return str(k[0]) if len(k) == 1 else "(" + ",".join(map(str, k)) + ")"


def boards(compiled: Compiled, solution: dict[str, Grid], other: dict[str, Grid] | None = None,
           partial: bool = False) -> list[Board]:
    """The boards of the `show` lines; `partial`: `solution` leaves cells open (None), as the
    cells that `--determined` did not fix, or an `explain` step's board."""
    out = []
    for spec in compiled.shows:
        values = compiled.values_of(spec, solution)
        lines = solution[spec.lines] if spec.lines is not None else None
        differs = None
        if other is not None:
            differs = set()
            for mine, theirs in ((values, compiled.values_of(spec, other)),
                                 (lines, other[spec.lines] if spec.lines is not None else None)):
                if mine is None:
                    continue
                for k, v in mine.cells.items():
                    if theirs.cells.get(k) != v:
                        differs.update((k[:len(mine.dims)], k[len(mine.dims):]) if isinstance(mine, EdgeGrid)
                                       else (k,))
        regions = regions_of(compiled, spec, solution)
        if differs is not None and regions is not None and spec.regions not in compiled.givens:
            theirs = regions_of(compiled, spec, other)
            differs.update(k for k, v in regions.cells.items() if theirs.cells.get(k) != v)  # a cell's region moved
        out.append(Board(spec, values, compiled.givens, differs, lines, regions,
                         regions_open=partial and spec.regions not in compiled.givens))
    return out


def regions_of(compiled: Compiled, spec: ShowSpec, solution: dict[str, Grid]) -> Grid | None:
    """The grid whose values `show … regions G` compares: a given, a variable's solved values, or
    a define evaluated at each cell of the board (as a view is)."""
    if spec.regions is None:
        return None
    g = solution.get(spec.regions, compiled.givens.get(spec.regions))
    if isinstance(g, Grid):
        return g
    return compiled.values_of(ShowSpec(spec.regions, {}, (), (), spec.over or spec.name), solution)


def _centred(text: str, width: int) -> str:
    """A clue above or below a column, placed as the column's cells place their glyphs (a glyph
    narrower than the column keeps the extra space on its right), so a 1 stands over a 1."""
    left = (width - len(text)) // 2
    return " " * left + text + " " * (width - len(text) - left)
