"""Where the real third-party puzzle data lives, and iterators over it.

CI has `/work/shared/data` beside the checkout; a user's fresh clone does not, so every
test that reads it must be marked `requires_data` (or call `data_file`) and skips cleanly.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"

KAKURASU_JSON = DATA / "kakurasu" / "Kakurasu_dataset.json"
BATTLESHIP_JSON = DATA / "battleship" / "Battleship_dataset.json"
CSPLIB_PL = DATA / "battleship" / "csplib_prob014_battleship_instances.pl"
PYCSP3_JSONS = (DATA / "battleship" / "csplib_00113.json", DATA / "battleship" / "pycsp3_12-12-5-0.json")

_MISSING = f"real puzzle data not found at {DATA} (CI keeps shared/data beside the checkout; clones lack it)"

requires_data = pytest.mark.skipif(not DATA.is_dir(), reason=_MISSING)
"""Mark a test that reads the shared data folder; it skips when the folder is absent."""

Entry = tuple[str, str, str | None]
"""(instance id, problem text, solution text or None)."""


def data_file(path: Path) -> Path:
    """`path` if it exists, else skip the calling test with a reason that names it."""
    if not path.is_file():
        pytest.skip(f"{path} not found; {_MISSING}")
    return path


def read_text(path: Path) -> str:
    """The text of a data file, skipping the test when it is absent."""
    return data_file(path).read_text(encoding="utf-8")


def _puzzlekit_entries(path: Path) -> Iterator[Entry]:
    for key, entry in json.loads(read_text(path))["data"].items():
        yield key, entry["problem"], entry.get("solution") or None


def kakurasu_entries() -> Iterator[Entry]:
    """The 280 janko.at kakurasu puzzles of the puzzlekit dataset, all with solutions."""
    return _puzzlekit_entries(KAKURASU_JSON)


def battleship_entries() -> Iterator[Entry]:
    """The 861 janko.at battleship puzzles (860 with solutions, one 30x30 without)."""
    return _puzzlekit_entries(BATTLESHIP_JSON)


def csplib_instances() -> Iterator[tuple[str, dict[str, object]]]:
    """The 303 CSPLib prob014 boards as (id, givens), read by the project's importer."""
    from puzzledsl.importers import load_with

    yield from load_with("csplib_battleship", read_text(CSPLIB_PL), str(CSPLIB_PL))
