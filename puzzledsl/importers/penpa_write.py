"""Writing Penpa+ URLs: a `Drawing` of a problem (what `penpa_genres` encoders fill in), the
editor text penpa-edit loads (`class_p.js` `maketext`, `maketext_solve`), and, for a solution,
the solve-mode URL with penpa's answer check in `&a=` (`make_solution`'s six lists). Reading is
in `penpa.py`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field

from puzzledsl.errors import PuzzleError, Span

from .penpa import LAYERS, SITE, Board, Cell, compress, deflate
from .puzzlink_codec import borders_of

VERSION = [3, 2, 3]  # the penpa-edit version whose format this writes
TITLE_OF = {"sudoku": "Sudoku", "star-battle": "Star Battle", "nurikabe": "Nurikabe", "lits": "LITS",
            "norinori": "Norinori", "akari": "Akari", "shakashaka": "Shakashaka", "skyscraper": "Skyscrapers",
            "kakurasu": "Kakurasu", "tent": "Tents", "hitori": "Hitori", "kuromasu": "Kurodoko",
            "shikaku": "Shikaku", "slitherlink": "Slitherlink", "masyu": "Masyu", "simple-loop": "Simple Loop",
            "arukone": "Numberlink", "nonogram": "Nonogram", "hashi": "Hashi", "galaxies": "Spiral Galaxies",
            "magnetic": "Magnets", "tatamibari": "Tatamibari", "battleship": "Battleships",
            "battleship-fleetless": "Battleships without a fleet", "tapa": "Tapa"}


def empty_layers() -> dict:
    out: dict = {"command_redo": {"__a": []}, "command_undo": {"__a": []}, "command_replay": {"__a": []}}
    for name in LAYERS:
        out[name] = [] if name in ("thermo", "arrows", "direction", "squareframe", "polygon", "killercages",
                                   "nobulbthermo") else {}
    return out


@dataclass
class Drawing:
    """A problem being drawn for a Penpa+ URL: what `penpa_genres` encoders fill in."""

    rows: int
    cols: int
    space: tuple[int, int, int, int] = (0, 0, 0, 0)
    gridtype: str = "square"
    q: dict = field(default_factory=empty_layers)
    mode: tuple[str, list] = ("surface", ["", 1])  # the answer layer's input mode and setting, as penpa types them
    grid: tuple[str, str, str] = ("1", "2", "1")  # grid lines (1 solid, 2 dashed, 3 none), dots (1 on), frame (1 on)
    rules: str = ""  # the rules text, where a drawing states what it cannot draw (a battleship fleet)

    def board(self) -> Board:
        return Board(self.gridtype, self.cols, self.rows, self.space, "", "", [], self.q, Span("<url>", 1, 1))

    def number(self, cell: Cell, value: object, colour: int = 1, style: str = "1") -> None:
        """A number or text at a cell's centre; `style` penpa's number style ("1" normal, "4" Tapa)."""
        self.q["number"][str(self.board().index(cell))] = [value, colour, style]

    def shade(self, cell: Cell, colour: int = 4) -> None:
        self.q["surface"][str(self.board().index(cell))] = colour

    def symbol(self, cell: Cell, name: str, style: int, layer: int = 1, kind: int = 0) -> None:
        """A symbol at a cell's centre, or (`kind`, as `Board.point`) at a corner or side of it."""
        board = self.board()
        self.q["symbol"][str(kind * board.nx0 * board.ny0 + board.index(cell))] = [style, name, layer]

    def border(self, a: Cell, b: Cell) -> None:
        """The edge between neighbouring cells a and b, drawn thick (penpa's style 2)."""
        self.q["lineE"][self.board().edge_key(a, b)] = 2

    def regions(self, grid: list[list[object]]) -> None:
        """Borders between neighbouring cells of different regions."""
        right, below = borders_of(grid)
        for r, row in enumerate(right):
            for c in (c for c, wall in enumerate(row) if wall):
                self.border((r, c), (r, c + 1))
        for r, row in enumerate(below):
            for c in (c for c, wall in enumerate(row) if wall):
                self.border((r, c), (r + 1, c))


def _centre(board: Board) -> int:
    """penpa's `center_n`: the point nearest the middle of the whole grid (margins included)."""
    nx, ny = board.nx0 - 4, board.ny0 - 4
    ci, cj = (nx + 3) // 2, (ny + 3) // 2
    kind = {(1, 1): 0, (0, 0): 1, (1, 0): 2, (0, 1): 3}[(nx % 2, ny % 2)]  # cell, corner, edge below, edge right
    return kind * board.nx0 * board.ny0 + board.nx0 * cj + ci


def _header(board: Board, title: str, rules: str, size: int = 38) -> str:
    nx, ny = board.nx0 - 4, board.ny0 - 4
    centre = _centre(board)
    text_rules = rules.replace("\n", "%2D").replace(",", "%2C").replace("&", "%2E").replace("=", "%2F")
    fields = [board.gridtype, str(nx), str(ny), str(size), "0", "1", "1", str((nx + 1) * size),
              str((ny + 1) * size), str(centre), str(centre), "0", "0", "0", "0",
              "Title: " + title.replace(",", "%2C"), "Author: ", "", text_rules, "OFF", "false", ""]
    return ",".join(fields)


def _mode(drawing: Drawing) -> dict:
    edit, setting = drawing.mode
    base = {"surface": ["", 1], "multicolor": ["", 1], "line": ["1", 2], "lineE": ["1", 2], "wall": ["", 2],
            "cage": ["1", 10], "number": ["1", 1], "symbol": ["circle_L", 1], "special": ["thermo", ""],
            "board": ["", ""], "move": ["1", ""], "combi": ["battleship", 3], "sudoku": ["1", 1]}  # class_p.js
    answer = {**base, "line": ["1", 3], "lineE": ["1", 3], "wall": ["", 3], "number": ["1", 2], "sudoku": ["1", 9]}
    answer["edit_mode"], answer[edit] = edit, setting
    return {"qa": "pu_a", "grid": list(drawing.grid), "pu_q": {**base, "edit_mode": "surface"}, "pu_a": answer}


def _centerlist(board: Board) -> list[int]:
    cells = [board.index((r, c)) for r in range(board.rows) for c in range(board.cols)]
    return cells[:1] + [b - a for a, b in zip(cells, cells[1:], strict=False)]


def write_url(drawing: Drawing, title: str, tags: Iterable[str], rules: str = "",
              solution: list[list[str]] | None = None, check: Iterable[str] = ()) -> str:
    """The URL penpa-edit opens: in edit mode, or with a solution in solve mode with its answer check."""
    board = drawing.board()
    dumps = (lambda v: json.dumps(v, separators=(",", ":")))  # noqa: E731
    mode = _mode(drawing)
    empty = dumps(empty_layers())
    settings = dumps({f"sol_{name}": True for name in check})
    shared = [dumps(_centerlist(board)), "[]", settings, '"x"', '"x"', dumps(VERSION), dumps(mode), '"x"', "0"]
    head = [_header(board, title, rules), dumps(list(drawing.space))]
    if solution is None:
        lines = head + [dumps(mode), dumps(drawing.q), empty] + shared + [empty, empty, "{}", dumps(list(tags)), ""]
        return f"{SITE}#m=edit&p={deflate(compress(chr(10).join(lines)))}"
    answer_mode = f'{dumps(mode["grid"])}~"{drawing.mode[0]}"~{dumps(drawing.mode[1])}'
    lines = head + [answer_mode, dumps(drawing.q), ""] + shared + [empty, "x", "{}", dumps(list(tags)), "false"]
    sol = dumps([sorted(part) for part in solution])
    return f"{SITE}#m=solve&p={deflate(compress(chr(10).join(lines)))}&a={deflate(sol)}"


def url_of(rules: str, givens: dict[str, object], solution: dict[str, object] | None = None) -> str:
    """The Penpa+ URL of bound givens: in edit mode, or with `solution` (the decision variables'
    values) in solve mode with penpa's answer check."""
    from .penpa_genres import GENRES
    genre = GENRES.get(rules)
    if genre is None:
        raise PuzzleError(f"Penpa+ URLs are not written for {rules}.puz",
                          help=f"they are for {', '.join(f'{g}.puz' for g in sorted(GENRES))}")
    drawing = genre.encode(givens)
    title = TITLE_OF.get(rules, rules)
    if solution is None:
        return write_url(drawing, title, genre.tags[:1], drawing.rules)
    lists, check = genre.answer(solution, drawing)
    return write_url(drawing, title, genre.tags[:1], drawing.rules, solution=lists, check=check)
