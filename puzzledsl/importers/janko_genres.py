"""The layouts of the janko.at genres in the puzzlekit datasets (one line each).

Each genre's text is `rows cols [extras]` followed by the parts listed here, in order;
`grids.py` reads them. Clue lines come columns first, then rows, as janko writes them.
"""

from __future__ import annotations

from .base import Importer
from .grids import COL, COL_LINES, GRID, NUMBER_OR_DASH, ROW, ROW_LINES, Layout, Part, janko_layout, puzzlekit_layout

NUM = "a number"
CLUE = (NUMBER_OR_DASH, "a number or -")


def _grid(name: str, token: str = r"\S+", what: str = "", optional: bool = False, missing: str = "-") -> Part:
    return Part(name, GRID, token, what, optional, missing)


def _clue_grid(name: str) -> Part:
    return _grid(name, *CLUE)


def _regions(name: str = "region") -> Part:
    return _grid(name, r"[0-9]+|@|#", "a region number (or @ / # outside every region)")


COLUMN_AND_ROW_COUNTS = (Part("colclue", ROW, *CLUE), Part("rowclue", COL, *CLUE))

LAYOUTS: dict[str, tuple[str, Layout]] = {
    # importer suffix: (dataset name, layout)
    "hitori": ("Hitori", Layout(parts=(_grid("number", "[0-9]+", NUM),))),
    "binairo": ("Binairo", Layout(parts=(_grid("grid", "[12-]", "1, 2 or -"),))),
    "tent": ("Tent", Layout(parts=(*COLUMN_AND_ROW_COUNTS, _grid("grid", "[x-]", "x (a tree) or -")))),
    "norinori": ("Norinori", Layout(parts=(_grid("hint", "[x-]", "x or -"), _regions()))),
    "skyscraper": ("Skyscraper", Layout(("H",), {"D": "diagonals"}, (
        Part("from_top", ROW, *CLUE), Part("from_bottom", ROW, *CLUE), Part("from_left", COL, *CLUE),
        Part("from_right", COL, *CLUE),
        _clue_grid("grid")))),
    "thermometer": ("Thermometer", Layout(parts=(*COLUMN_AND_ROW_COUNTS, _grid(
        "cell", r"(?P<thermo>[0-9]+)\.(?P<bulb>[0-9]+)", "THERMOMETER.POSITION, e.g. 2.1")))),
    "mosaic": ("Mosaic", Layout(parts=(_clue_grid("clue"),))),
    "nonogram": ("Nonogram", Layout(parts=(Part("colclue", COL_LINES, "[0-9]+", NUM),
                                          Part("rowclue", ROW_LINES, "[0-9]+", NUM)))),
    "kuromasu": ("Kuromasu", Layout(parts=(_clue_grid("clue"),))),
    "lits": ("LITS", Layout(parts=(_regions(),))),
    "magnetic": ("Magnetic", Layout(parts=(
        Part("colplus", ROW, *CLUE), Part("colminus", ROW, *CLUE),
        Part("rowplus", COL, *CLUE), Part("rowminus", COL, *CLUE),
        _grid("hint", r"[.+x-]", ". + - or x", optional=True, missing="."), _regions()))),
    "kenken": ("KenKen", Layout(parts=(
        _grid("cage", r"(?P<target>[0-9]+)(?P<op>[-+*/x])?|[.-]", "a target, optionally with + - * x /, or . or -"),
        _regions()))),
    "killer_sudoku": ("KillerSudoku", Layout(parts=(_clue_grid("total"), _regions()))),
    "str8t": ("Str8t", Layout(parts=(_grid(
        "cell", r"(?P<digit>[0-9]+)?(?P<black>x)?|-", "a digit, x (black), a digit and x, or -"),))),
    "hidoku": ("Hidoku", Layout(parts=(_clue_grid("number"),))),
    "hashi": ("Hashi", Layout(parts=(_clue_grid("island"),))),
    "simple_loop": ("SimpleLoop", Layout(parts=(_grid("blocked", "[x-]", "x (blocked) or -"),))),
    "shakashaka": ("Shakashaka", Layout(parts=(_grid("grid", "[0-5x-]", "0-4, 5 or x (black), or -"),))),
    "tatamibari": ("Tatamibari", Layout(parts=(_grid("mark", "[shv-]", "s, h, v or -"),))),
    "galaxies": ("Galaxies", Layout(parts=(_clue_grid("centre"),))),
    "fillomino": ("Fillomino", Layout(parts=(_grid("clue", r"[0-9]+|[.-]", "a number, . or -"),))),
    "akari": ("Akari", Layout(parts=(_grid("board", "[0-4x-]", "0-4, x or -"),))),
    "masyu": ("Masyu", Layout(parts=(_grid("pearl", "[wb12-]", "w or 1 (white), b or 2 (black), or -"),))),
    "nurikabe": ("Nurikabe", Layout(parts=(_grid("board", r"[0-9]+|[?-]", "a number, ? or -"),))),
    "slitherlink": ("Slitherlink", Layout(parts=(_grid("clue", r"[0-4.-]", "0-3, . or -"),))),
    "star_battle": ("Starbattle", Layout(("S",), parts=(_regions(),))),
    "sudoku": ("Sudoku", Layout(parts=(_clue_grid("grid"),))),
}


def genre_importers() -> list[Importer]:
    """`janko_<genre>` (a text; named by `format`, never guessed) and `puzzlekit_<genre>` for each."""
    out = []
    for suffix, (genre, layout) in LAYOUTS.items():
        text = janko_layout(f"janko_{suffix}", genre, layout)
        out += [text, puzzlekit_layout(f"puzzlekit_{suffix}", genre, text)]
    return out
