"""Nurikabe (a region genre), Slitherlink and Masyu (loop genres), written from the docs.

Each instance is a real janko.at-style puzzle from the puzzlekit dataset; its published
solution is kept beside the tests (`tests/data/genres/<genre>.json`, with the source).
Every instance is solved through the command line (`solve --unique --json`); the
solution must be unique, pass an independent checker (`graph_checkers.py`, no puzzledsl
code) and equal the published one.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.graph_checkers import (
    check_masyu,
    check_nurikabe,
    check_slitherlink,
    edge,
    masyu_edges_from_letters,
    read_clues,
    read_rows,
    read_shading,
    slitherlink_edges_from_shading,
)

ROOT = Path(__file__).resolve().parent.parent
PUZZLES = ROOT / "puzzles"
PUBLISHED = Path(__file__).resolve().parent / "data" / "genres"


def published(genre: str) -> dict[str, dict[str, str]]:
    return json.loads((PUBLISHED / f"{genre}.json").read_text(encoding="utf-8"))["data"]


def instances(genre: str) -> list[Path]:
    return sorted((PUZZLES / genre).glob("*.puz"))


def read_block(path: Path, name: str) -> list[list[str]]:
    """The token rows of the text block assigned to `name` in an instance file."""
    m = re.search(rf'^{name}\s*=\s*"""(.*?)"""', path.read_text(encoding="utf-8"), re.S | re.M)
    assert m, f"no {name} block in {path}"
    return [ln.split() for ln in m.group(1).splitlines() if ln.strip()]


def solve_cli(path: Path) -> dict:
    proc = subprocess.run([sys.executable, "-m", "puzzledsl", "solve", str(path), "--unique", "--json"],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def edge_set(chosen: list, offset: int = 0) -> set:
    """The JSON value of an `edges` variable ([[p, q], ...]) as checker edges, indices shifted."""
    return {edge(tuple(x - offset for x in p), tuple(x - offset for x in q)) for p, q in chosen}


# ----------------------------------------------------------------- the data and the checkers


@pytest.mark.parametrize("genre", ["nurikabe", "slitherlink", "masyu"])
def test_each_instance_file_is_a_published_puzzle(genre: str):
    """One instance file per published puzzle, holding exactly the published clues."""
    data = published(genre)
    files = instances(genre)
    assert 3 <= len(files) <= 6
    assert sorted(p.stem for p in files) == sorted(data)
    name = {"nurikabe": "board", "slitherlink": "clue", "masyu": "pearl"}[genre]
    for path in files:
        assert read_block(path, name) == read_rows(data[path.stem]["problem"])


def test_published_solutions_pass_the_checkers():
    for entry in published("nurikabe").values():
        assert check_nurikabe(read_clues(entry["problem"]), read_shading(entry["solution"])) == []
    for entry in published("slitherlink").values():
        loop = slitherlink_edges_from_shading(read_shading(entry["solution"]))
        assert check_slitherlink(read_clues(entry["problem"]), loop) == []
    for entry in published("masyu").values():
        loop = masyu_edges_from_letters(read_rows(entry["solution"]))
        assert check_masyu(read_rows(entry["problem"]), loop) == []


def test_checkers_reject_broken_solutions():
    clues = [[2, None, None], [None, None, None], [None, None, 3]]
    good = [[False, False, True], [True, True, True], [False, False, False]]
    assert check_nurikabe(clues, good) == []
    assert check_nurikabe(clues, [[False, True, True], [True, True, True], [False, False, False]])  # island of 1
    assert check_nurikabe(clues, [[True, False, True], [True, True, True], [False, False, False]])  # clue black
    assert check_nurikabe(clues, [[False, False, True], [True, False, True], [True, False, False]])  # wall split
    assert check_nurikabe([[1, None, None], [None, None, None]], [[False, True, True], [True, True, True]]) == [
        "2x2 black block at (0,1)"]
    assert check_nurikabe([[1, None, 1]], [[False, False, False]])  # two numbers on one island
    assert check_nurikabe([[1, None, None]], [[False, True, False]])  # an island without a number

    square = {edge((0, 0), (0, 1)), edge((0, 1), (1, 1)), edge((1, 1), (1, 0)), edge((1, 0), (0, 0))}
    assert check_slitherlink([[4]], square) == []
    assert check_slitherlink([[3]], square)  # wrong count
    assert check_slitherlink([[None]], square - {edge((0, 0), (0, 1))})  # open path
    two = square | {edge((0, 2), (0, 3)), edge((0, 3), (1, 3)), edge((1, 3), (1, 2)), edge((1, 2), (0, 2))}
    assert check_slitherlink([[None, None, None]], two)  # two loops
    assert check_slitherlink([[None]], set())  # no loop
    figure8 = {edge((0, 0), (0, 1)), edge((0, 1), (1, 1)), edge((1, 1), (1, 0)), edge((1, 0), (0, 0)),
               edge((1, 1), (1, 2)), edge((1, 2), (2, 2)), edge((2, 2), (2, 1)), edge((2, 1), (1, 1))}
    assert check_slitherlink([[None, None], [None, None]], figure8)  # touches itself at a dot

    ring = {edge((0, 0), (0, 1)), edge((0, 1), (0, 2)), edge((0, 2), (1, 2)), edge((1, 2), (1, 1)),
            edge((1, 1), (1, 0)), edge((1, 0), (0, 0))}
    assert check_masyu([["-", "w", "-"], ["-", "-", "-"]], ring) == []
    assert check_masyu([["w", "-", "-"], ["-", "-", "-"]], ring)  # white on a corner
    assert check_masyu([["-", "-", "-"], ["-", "b", "-"]], ring)  # black on a straight
    assert check_masyu([["b", "-", "-"], ["-", "-", "-"]], ring)  # black: no straight after it
    assert check_masyu([["-", "-", "-"], ["-", "-", "-"], ["-", "w", "-"]], ring)  # pearl off the loop
    with pytest.raises(ValueError):
        masyu_edges_from_letters([["e", "-"]])


# ----------------------------------------------------------------- solving the instances


@pytest.mark.parametrize("path", instances("nurikabe"), ids=lambda p: p.stem)
def test_nurikabe(path: Path):
    entry = published("nurikabe")[path.stem]
    out = solve_cli(path)
    assert out["status"] == "sat"
    black = out["solutions"][0]["black"]
    assert check_nurikabe(read_clues(entry["problem"]), black) == []
    assert out["unique"] is True
    assert black == read_shading(entry["solution"])


@pytest.mark.parametrize("path", instances("slitherlink"), ids=lambda p: p.stem)
def test_slitherlink(path: Path):
    entry = published("slitherlink")[path.stem]
    out = solve_cli(path)
    assert out["status"] == "sat"
    loop = edge_set(out["solutions"][0]["line"])
    assert check_slitherlink(read_clues(entry["problem"]), loop) == []
    assert out["unique"] is True
    assert loop == slitherlink_edges_from_shading(read_shading(entry["solution"]))


@pytest.mark.parametrize("path", instances("masyu"), ids=lambda p: p.stem)
def test_masyu(path: Path):
    entry = published("masyu")[path.stem]
    out = solve_cli(path)
    assert out["status"] == "sat"
    loop = edge_set(out["solutions"][0]["link"], offset=1)
    assert check_masyu(read_rows(entry["problem"]), loop) == []
    assert out["unique"] is True
    assert loop == masyu_edges_from_letters(read_rows(entry["solution"]))
