"""The bundled janko.at genres: dataset, rule file, importer, and how a solved board reads
in the published solution's tokens (so the two can be compared). Used by
`test_genres_bundled.py` and `bench/bench_genres.py`."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from puzzledsl.importers import load_with
from puzzledsl.importers.base import Broken
from tests import genre_checkers as checkers
from tests.datasets import DATA

GENRES_DIR = DATA / "genres"
PUZZLES = Path(__file__).resolve().parents[1] / "puzzles"

Solution = dict  # variable name -> puzzledsl Grid (its `.cells` maps 1-based (r, c) to values)
Tokens = list[list[str]]


@dataclass(frozen=True)
class Genre:
    key: str  # importer suffix: puzzlekit_<key>
    dataset: str  # genres/<dataset>.json
    rules: str  # puzzles/<rules>.puz
    tokens: Callable[[Solution, str], Tokens]  # a solution as published tokens (problem text given)
    check: Callable[[str, Tokens], list[str]]
    rules_file: Path | None = None  # another rule file than the bundled one (a variant to compare)
    data_file: Path | None = None  # another dataset file than `../shared/data/genres/<dataset>.json`

    @property
    def data_path(self) -> Path:
        return self.data_file or GENRES_DIR / f"{self.dataset}.json"

    @property
    def rules_path(self) -> Path:
        return self.rules_file or PUZZLES / f"{self.rules}.puz"

    @property
    def importer(self) -> str:
        return f"puzzlekit_{self.key}"


def _size(grid) -> tuple[int, int]:
    keys = grid.cells.keys()
    return max(r for r, _ in keys), max(c for _, c in keys)


def _each(name: str, f: Callable[[object], str]) -> Callable[[Solution, str], Tokens]:
    def tokens(sol: Solution, problem: str) -> Tokens:
        grid = sol[name]
        rows, cols = _size(grid)
        return [[f(grid.cells[r, c]) for c in range(1, cols + 1)] for r in range(1, rows + 1)]

    return tokens


def _shade(name: str, yes: str = "x") -> Callable[[Solution, str], Tokens]:
    return _each(name, lambda v: yes if v else "-")


def _number(name: str) -> Callable[[Solution, str], Tokens]:
    return _each(name, str)


def _tents(sol: Solution, problem: str) -> Tokens:
    trees = checkers.grids(problem, 2)[0]
    tents = _shade("tent", "o")(sol, problem)
    return [[t if t == "o" else ("x" if tree == "x" else "-") for t, tree in zip(row, trow, strict=True)]
            for row, trow in zip(tents, trees, strict=True)]


def _lits(sol: Solution, problem: str) -> Tokens:
    """Shaded cells as `#`; compared with the published letters through `lits_mask`."""
    return _shade("shaded", "#")(sol, problem)


def _hashi(sol: Solution, problem: str) -> Tokens:
    across, down = sol["across"], sol["down"]
    rows, cols = _size(across)
    island = checkers.blocks(problem)

    def cell(r: int, c: int) -> str:
        if island[r - 1][c - 1] != "-":
            return "-"
        if c > 1 and across.cells[r, c - 1]:
            return str(across.cells[r, c - 1])
        if r > 1 and down.cells[r - 1, c]:
            return "ab"[down.cells[r - 1, c] - 1]
        return "-"

    return [[cell(r, c) for c in range(1, cols + 1)] for r in range(1, rows + 1)]


def _loop(sol: Solution, problem: str) -> Tokens:
    """A loop through cell centres, as the letters of the directions it leaves each cell by."""
    rows, cols, _ = checkers.header(problem)
    link = sol["link"].cells

    def cell(r: int, c: int) -> str:
        way = [letter for letter, (dr, dc) in zip("nsew", ((-1, 0), (1, 0), (0, 1), (0, -1)), strict=True)
               if link.get((r, c, r + dr, c + dc))]
        return "".join(way) or "-"

    return [[cell(r, c) for c in range(1, cols + 1)] for r in range(1, rows + 1)]


def relabel(tokens: Tokens) -> Tokens:
    """Region numbers renamed 1, 2, ... in order of first appearance (numbering is arbitrary)."""
    names: dict[str, str] = {}
    return [[names.setdefault(t, str(len(names) + 1)) for t in row] for row in tokens]


def lits_mask(tokens: Tokens) -> Tokens:
    return [["-" if t == "-" else "#" for t in row] for row in tokens]


def lights(tokens: Tokens) -> Tokens:
    return [["o" if t == "o" else "-" for t in row] for row in tokens]


def _str8t(sol: Solution, problem: str) -> Tokens:
    return _each("value", lambda v: "-" if v == 0 else str(v))(sol, problem)


def _hidoku(sol: Solution, problem: str) -> Tokens:
    """The number of each cell: the k with `at[r, c, k]` (the rules draw it as a view)."""
    held = {(r, c): k for (r, c, k), v in sol["at"].cells.items() if v}
    rows, cols = max(held)
    return [[str(held[r, c]) for c in range(1, cols + 1)] for r in range(1, rows + 1)]


def _magnets(sol: Solution, problem: str) -> Tokens:
    return _each("pole", lambda v: {1: "+", -1: "-", 0: "x"}[v])(sol, problem)


def _inside_loop(sol: Solution, problem: str) -> Tokens:
    """Cells inside the loop (an odd number of its vertical edges to the left) as `x`."""
    rows, cols, _ = checkers.header(problem)
    line = sol["line"].cells

    def inside(r: int, c: int) -> bool:
        return sum(bool(line.get((r - 1, k, r, k))) for k in range(c)) % 2 == 1

    return [["x" if inside(r, c) else "-" for c in range(1, cols + 1)] for r in range(1, rows + 1)]


def _regions(sol: Solution, problem: str) -> Tokens:
    return relabel(_number("owner")(sol, problem))


def _genre(key: str, dataset: str, rules: str, tokens: Callable[[Solution, str], Tokens]) -> Genre:
    return Genre(key, dataset, rules, tokens, getattr(checkers, f"check_{key}"))


GENRES: dict[str, Genre] = {g.key: g for g in (
    _genre("hitori", "Hitori", "hitori", _shade("black")),
    _genre("binairo", "Binairo", "binairo", _number("digit")),
    _genre("tent", "Tent", "tent", _tents),
    _genre("norinori", "Norinori", "norinori", _shade("black")),
    _genre("skyscraper", "Skyscraper", "skyscraper", _number("height")),
    _genre("thermometer", "Thermometer", "thermometer", _shade("filled")),
    _genre("mosaic", "Mosaic", "mosaic", _shade("black")),
    _genre("nonogram", "Nonogram", "nonogram", _shade("black")),
    _genre("kuromasu", "Kuromasu", "kuromasu", _shade("black")),
    _genre("lits", "LITS", "lits", _lits),
    _genre("magnetic", "Magnetic", "magnetic", _magnets),
    _genre("kenken", "KenKen", "kenken", _number("value")),
    _genre("killer_sudoku", "KillerSudoku", "killer-sudoku", _number("value")),
    _genre("str8t", "Str8t", "str8t", _str8t),
    _genre("hidoku", "Hidoku", "hidoku", _hidoku),
    _genre("hashi", "Hashi", "hashi", _hashi),
    _genre("simple_loop", "SimpleLoop", "simple-loop", _loop),
    _genre("shakashaka", "Shakashaka", "shakashaka", _each("triangle", lambda v: ["-", "nw", "ne", "sw", "se"][v])),
    _genre("tatamibari", "Tatamibari", "tatamibari", _regions),
    _genre("galaxies", "Galaxies", "galaxies", _regions),
    _genre("akari", "Akari", "akari", _shade("light", "o")),
    _genre("masyu", "Masyu", "masyu", _loop),
    _genre("nurikabe", "Nurikabe", "nurikabe", _shade("black")),
    _genre("slitherlink", "Slitherlink", "slitherlink", _inside_loop),
    _genre("sudoku", "Sudoku", "sudoku", _number("x")),
    _genre("star_battle", "Starbattle", "star-battle-numbered", _shade("star")),
)}

ELSEWHERE: dict[str, Genre] = {g.key: g for g in (
    _genre("fillomino", "Fillomino", "fillomino", _number("n")),
)}
"""Bundled genres whose datasets are not in `../shared/data/genres/`: the benchmark reads them
with `--data FILE` (Fillomino: `assets/data/Fillomino/Fillomino_dataset.json` of
SmilingWayne/puzzlekit-dataset, 53de2fc, 840 janko.at puzzles 5×4 … 50×64)."""


OPTIONS: dict[str, dict[str, dict[str, str]]] = {
    "killer_sudoku": {f"{n}_9x9": {"diagonals": "true"} for n in (196, 197, 198, 248, 249, 257, 716, 717, 718,
                                                                   719, 720, 726, 727, 728)},
}
"""Puzzles of a variant the dataset does not mark, and the rule options that state it (their
published solutions have both diagonals all different; only 9 of the other 472 9×9 do)."""


def options(genre: Genre, iid: str) -> dict[str, str] | None:
    return OPTIONS.get(genre.key, {}).get(iid)


def published(genre: Genre, solution_text: str) -> Tokens:
    """The published solution in the form `tokens` produces."""
    grid = checkers.solution_grid(solution_text)
    return {"lits": lits_mask, "tatamibari": relabel, "galaxies": relabel, "akari": lights}.get(genre.key, list)(grid)


def spread(items: list, limit: int | None) -> list:
    """`limit` items evenly spaced over `items`, first and last included."""
    if limit is None or limit >= len(items):
        return items
    if limit == 1:
        return items[-1:]
    return [items[round(i * (len(items) - 1) / (limit - 1))] for i in range(limit)]


def by_size(genre: Genre) -> list[tuple[str, dict, dict]]:
    """(id, givens, dataset entry) of every entry that reads, smallest board first."""
    text = genre.data_path.read_text(encoding="utf-8")
    entries = json.loads(text)["data"]
    loaded = load_with(genre.importer, text, str(genre.data_path))
    out = [(iid, g, entries[iid]) for iid, g in loaded if not isinstance(g, Broken)]
    return sorted(out, key=lambda x: (x[1]["R"] * x[1]["C"], x[0]))
