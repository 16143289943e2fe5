"""Importers for foreign puzzle file formats.

The compiler is genre-agnostic; these readers are the only genre-aware part. Each
turns a foreign file into `(instance_id, givens)` pairs of plain values (int, None
for "no clue", lists, and grids of the foreign file's one-cell tokens), so that a
rule file's legend decides what the tokens mean. Every malformed input raises a
`DataError` located at the line and column of the data file where it is wrong.
"""


from __future__ import annotations

from puzzledsl.errors import DataError, register_source

from .base import CSPLIB_TO_JANKO, JANKO_BATTLESHIP_TOKENS, Givens, Importer, Instances  # noqa: F401
from .chilly import CHILLY_JSON, CHILLY_TEXT
from .csplib import detect_csplib_battleship, load_csplib_battleship
from .janko import detect_janko_battleship, detect_janko_kakurasu, load_janko_battleship, load_janko_kakurasu
from .janko_genres import genre_importers
from .located_json import parse_json_located  # noqa: F401
from .numberlink import ADC2015, BWINF_ARUKONE, FLOWFREE, IMOS_NUMBERLINK, JANKO_ARUKONE, THOMASAHLE
from .pegsol import PDDL_PEGSOL, PEG_BOARD
from .penpa import PENPA
from .puzzlekit import _puzzlekit, detect_puzzlekit, load_puzzlekit  # noqa: F401
from .puzzlink import PUZZLINK
from .pycsp3 import detect_pycsp3_battleship, load_pycsp3_battleship

# --------------------------------------------------------------------------- registry

JANKO_KAKURASU = Importer(
    "janko_kakurasu",
    "janko.at Kakurasu text: `rows cols`, column clues, row clues ('-' = no clue)",
    detect_janko_kakurasu,
    load_janko_kakurasu,
)
JANKO_BATTLESHIP = Importer(
    "janko_battleship",
    "janko.at Battleships text: `rows cols [ships of length 1, 2, ...]`, column counts, row counts, grid",
    detect_janko_battleship,
    load_janko_battleship,
)
CSPLIB_BATTLESHIP = Importer(
    "csplib_battleship",
    "CSPLib prob014 Prolog facts problem(Id, [Len:Count,...], RowSums, ColSums, [Type@[Row,Col],...])",
    detect_csplib_battleship,
    load_csplib_battleship,
)
PYCSP3_BATTLESHIP = Importer(
    "pycsp3_battleship",
    "PyCSP3 SolitaireBattleship JSON: fleet [{size, cnt}], hints [{type, row, col}] or null, "
    "rowSums, colSums",
    detect_pycsp3_battleship,
    load_pycsp3_battleship,
)

IMPORTERS: dict[str, Importer] = {
    imp.name: imp
    for imp in (
        JANKO_KAKURASU,
        JANKO_BATTLESHIP,
        CSPLIB_BATTLESHIP,
        PYCSP3_BATTLESHIP,
        _puzzlekit("puzzlekit_kakurasu", JANKO_KAKURASU),
        _puzzlekit("puzzlekit_battleship", JANKO_BATTLESHIP),
        BWINF_ARUKONE,
        JANKO_ARUKONE,
        _puzzlekit("puzzlekit_arukone", JANKO_ARUKONE),
        THOMASAHLE,
        IMOS_NUMBERLINK,
        ADC2015,
        FLOWFREE,
        CHILLY_TEXT,
        CHILLY_JSON,
        PEG_BOARD,
        PDDL_PEGSOL,
        *genre_importers(),
        PUZZLINK,
        PENPA,
    )
}


def detect(text: str) -> list[str]:
    """Names of the importers whose sniff accepts `text` (ideally exactly one)."""
    return [name for name, imp in IMPORTERS.items() if imp.detect(text)]


def load_with(name: str, text: str, path: str) -> Instances:
    """Load `text` (read from `path`) with the named importer."""
    importer = IMPORTERS.get(name)
    if importer is None:
        raise DataError(f"unknown importer {name!r}", help=f"known importers: {', '.join(sorted(IMPORTERS))}")
    register_source(path, text)
    return importer.load(text, path)
