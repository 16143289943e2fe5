"""What the Penpa+ genres share (`penpa_genres.py`, `penpa_genres_more.py`): the genre record,
checks that a drawing holds only what a rule file can state, and the solution lists that
penpa-edit's answer check compares.

penpa's answer check (`docs/js/class_p.js`, `make_solution`) keeps six lists of strings, each
sorted as JavaScript sorts strings: 0 shaded cells (`"point"`), 1 lines between cell centres
(`"a,b,1"`, `"a,b,2"` for a double line), 2 lines along cell sides (`"a,b,1"` with corner
points, leaving out the frame when it is drawn thick and the sides given thick in the problem),
3 walls, 4 digits (`"point,digit"`), 5 symbols (`"point,style" + a letter per kind: `E` star,
`F` tent, `G` plus or minus, `H` light, `D` a ship's piece). A solved grid is correct when the
solver's lists equal these, as one JSON text; the URL's settings line says which lists count.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from puzzledsl.errors import DataError

from .base import Givens
from .penpa import Board, Cell
from .penpa_write import Drawing
from .puzzlink_genres import _cells

Answer = tuple[list[list[str]], list[str]]  # penpa's six solution lists, and the answer checks they need


@dataclass(frozen=True)
class Genre:
    rules: str  # the bundled rule file's stem
    tags: tuple[str, ...]  # penpa genre tags that name it; the first is written
    decode: Callable[[Board], Givens]
    encode: Callable[[dict[str, object]], Drawing]
    answer: Callable[[dict[str, object], Drawing], Answer]  # the solution lists penpa's answer check compares
    variant_of: str | None = None  # a genre whose drawings these rules read too, when named


def _error(board: Board, rules: str, what: str, help: str | None = None) -> DataError:
    return DataError(f"this Penpa+ puzzle has {what}, which {rules}.puz cannot state", board.span, help)


def _only(board: Board, rules: str, allowed: set[str]) -> None:
    extra = sorted(board.used() - allowed - {"lineE"})
    if extra:
        raise _error(board, rules, "drawing layers " + ", ".join(f"`{e}`" for e in extra),
                     "is it a variant of the genre? Only the plain genre is read")
    if "lineE" not in allowed and any(all(board.inside(c) for c in pair) for pair in board.borders()):
        raise _error(board, rules, "region borders")


def _clues(board: Board, rules: str, sides: str = "") -> tuple[dict[Cell, int | str | None], dict[str, dict]]:
    """The numbers inside the frame, and those in the margins named in `sides` by side and
    place along it; a number elsewhere outside is an error."""
    inside: dict[Cell, int | str | None] = {}
    margins: dict[str, dict] = {"top": {}, "bottom": {}, "left": {}, "right": {}}
    for cell, v in board.numbers().items():
        side = board.margin(cell)
        if board.inside(cell):
            inside[cell] = v
        elif side is not None and side in sides:
            margins[side][cell[1] if side in ("top", "bottom") else cell[0]] = v
        elif v is not None:
            raise _error(board, rules, f"a number outside the grid ({v!r} at row {cell[0] + 1}, column {cell[1] + 1})")
    return inside, margins


def _ints(board: Board, rules: str, values: dict, what: str, low: int = 0, high: int | None = None) -> None:
    for v in values.values():
        if v is not None and not (isinstance(v, int) and v >= low and (high is None or v <= high)):
            raise _error(board, rules, f"the {what} {v!r}")


def _grid(board: Board, value: Callable[[Cell], object]) -> list[list[object]]:
    return [[value((r, c)) for c in range(board.cols)] for r in range(board.rows)]


def _drawing(g: dict[str, object], name: str, **kw: object) -> tuple[Drawing, list, int, int]:
    flat, cols, rows = _cells(g, name)
    return Drawing(rows, cols, **kw), flat, cols, rows  # type: ignore[arg-type]


def _at(flat: list, cols: int) -> list[tuple[Cell, object]]:
    return [(divmod(i, cols), v) for i, v in enumerate(flat)]


def _true_cells(values: dict[str, object], name: str) -> list[Cell]:
    grid = values[name]
    return [(r - 1, c - 1) for (r, c), v in grid.cells.items() if v is True]  # type: ignore[attr-defined]


def _lists(**parts: list[str]) -> list[list[str]]:
    order = ("surface", "line", "edge", "wall", "number", "symbol")
    return [parts.get(name, []) for name in order]


def _edge_pairs(values: dict[str, object], name: str) -> Iterable[tuple[Cell, Cell]]:
    """The joined pairs of an `edges` variable, each once, as 0-based cells (or corners)."""
    for (r1, c1, r2, c2), on in values[name].cells.items():  # type: ignore[attr-defined]
        if on and (r1, c1) < (r2, c2):
            yield (r1 - 1, c1 - 1), (r2 - 1, c2 - 1)


def _loop_lines(name: str) -> Callable[[dict[str, object], Drawing], Answer]:
    """A path between cell centres (masyu, simple loop, arukone): penpa's `line` list."""
    def answer(values: dict[str, object], d: Drawing) -> Answer:
        board = d.board()
        return _lists(line=[f"{board.line_key(a, b)},1" for a, b in _edge_pairs(values, name)]), ["loopline"]
    return answer


def _loop_edges(name: str) -> Callable[[dict[str, object], Drawing], Answer]:
    """A loop along cell sides (slitherlink; its corners (i, j), 0..R × 0..C): penpa's edge
    list. The drawing has no thick frame, so the sides on the border count too."""
    def answer(values: dict[str, object], d: Drawing) -> Answer:
        board = d.board()
        edges = []
        for (i1, j1), (i2, j2) in _edge_pairs(values, name):
            a, b = sorted((board.vertex(i1, j1), board.vertex(i2, j2)))  # dots are bottom-right corners
            edges.append(f"{a},{b},1")
        return _lists(edge=edges), ["loopedge"]
    return answer


Owner = Callable[[dict[str, object]], dict[Cell, object]]  # a solution's region of each cell


def _region_edges(owner: Owner) -> Callable[[dict[str, object], Drawing], Answer]:
    """Regions (shikaku, galaxies, tatamibari): the sides between cells of different regions,
    but those the problem gives thick (the frame is never between two cells)."""
    def answer(values: dict[str, object], d: Drawing) -> Answer:
        board, of = d.board(), owner(values)
        edges = []
        for (r, c), region in of.items():
            for other in ((r, c + 1), (r + 1, c)):
                if other in of and of[other] != region:
                    key = board.edge_key((r, c), other)
                    if d.q["lineE"].get(key) != 2:
                        edges.append(f"{key},1")
        return _lists(edge=edges), ["loopedge"]
    return answer


def _owner(name: str) -> Owner:
    def owner(values: dict[str, object]) -> dict[Cell, object]:
        return {(r - 1, c - 1): v for (r, c), v in values[name].cells.items()}  # type: ignore[attr-defined]
    return owner


def _shading(name: str) -> Callable[[dict[str, object], Drawing], Answer]:
    def answer(values: dict[str, object], d: Drawing) -> Answer:
        cells = [str(d.board().index(c)) for c in _true_cells(values, name)]
        return _lists(surface=cells), ["surface"]
    return answer


def _marks(name: str, code: str, check: str) -> Callable[[dict[str, object], Drawing], Answer]:
    def answer(values: dict[str, object], d: Drawing) -> Answer:
        marks = [f"{d.board().index(c)},{code}" for c in _true_cells(values, name)]
        return _lists(symbol=marks), [check]
    return answer


def _digits(name: str) -> Callable[[dict[str, object], Drawing], Answer]:
    def answer(values: dict[str, object], d: Drawing) -> Answer:
        grid = values[name]
        given = set(d.q["number"])
        nums = [f"{k},{v}" for (r, c), v in grid.cells.items()  # type: ignore[attr-defined]
                if v and (k := str(d.board().index((r - 1, c - 1)))) not in given]
        return _lists(number=nums), ["number"]
    return answer



def _side_clues(board: Board, rules: str, margins: dict[str, dict], along: tuple[str, str], count: int,
                what: str) -> list[int | None]:
    """The clues of one margin (the first of `along` that has any; both is an error)."""
    used = [side for side in along if any(v is not None for v in margins[side].values())]
    if len(used) > 1:
        raise _error(board, rules, f"{what} on both the {along[0]} and the {along[1]}")
    clues = margins[used[0]] if used else {}
    clues = {k: None if v == "?" else v for k, v in clues.items()}
    _ints(board, rules, clues, what)
    return [clues.get(i) for i in range(count)]  # type: ignore[misc]
