"""The janko.at genres of `../shared/data/genres/`, each with a rule file written from the docs.

For every bundled genre (`genre_specs.py`): the published solutions pass an independent
checker (`genre_checkers.py`, no puzzledsl code) and a broken one does not; the rule
file's `format` line reads the dataset; and a sample of five puzzles, from the smallest
board to the largest, is solved with uniqueness proven, passes the checker and equals
the published solution. Slow genres cap the sample's board size (`CAP`); `-m slow` runs
their largest boards too. `bench/bench_genres.py` runs every puzzle.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from puzzledsl.compile import compile_file, compile_givens, load_rules
from puzzledsl.solve import Mode, solve
from tests.datasets import requires_data
from tests.genre_checkers import solution_grid
from tests.genre_specs import GENRES, Genre, by_size, published, spread

pytestmark = requires_data

CAP = {"lits": 15 * 15, "norinori": 20 * 20, "nonogram": 30 * 30, "kuromasu": 20 * 20}
"""Largest board (cells) in the default sample of genres whose largest boards take seconds."""

_loaded: dict[str, list] = {}


def puzzles(genre: Genre) -> list[tuple[str, dict, dict]]:
    """The dataset's readable entries that have a published solution, smallest first."""
    if genre.key not in _loaded:
        _loaded[genre.key] = [x for x in by_size(genre) if x[2].get("solution")]
    return _loaded[genre.key]


def sample(genre: Genre, capped: bool) -> list[tuple[str, dict, dict]]:
    cap = CAP.get(genre.key) if capped else None
    fits = [x for x in puzzles(genre) if cap is None or x[1]["R"] * x[1]["C"] <= cap]
    return spread(fits, 5)


def solve_and_compare(genre: Genre, givens: dict, entry: dict) -> None:
    out = solve(compile_givens(load_rules(genre.rules_path), givens), mode=Mode(unique=True), time_limit=120)
    assert out.status == "sat" and out.unique is True
    mine = genre.tokens(out.solutions[0], entry["problem"])
    assert genre.check(entry["problem"], mine) == []
    assert mine == published(genre, entry["solution"])


@pytest.mark.parametrize("key", GENRES)
def test_sample_is_solved_uniquely_as_published(key: str) -> None:
    genre = GENRES[key]
    for _, givens, entry in sample(genre, capped=True):
        solve_and_compare(genre, givens, entry)


@pytest.mark.slow
@pytest.mark.parametrize("key", sorted(CAP))
def test_largest_boards_of_slow_genres(key: str) -> None:
    genre = GENRES[key]
    for _, givens, entry in puzzles(genre)[-2:]:
        solve_and_compare(genre, givens, entry)


@pytest.mark.parametrize("key", GENRES)
def test_published_solutions_pass_the_checker(key: str) -> None:
    genre = GENRES[key]
    wrong = [iid for iid, _, e in puzzles(genre) if genre.check(e["problem"], solution_grid(e["solution"]))]
    assert wrong == []


@pytest.mark.parametrize("key", GENRES)
def test_the_checker_rejects_a_changed_cell(key: str) -> None:
    """Each cell of a small published solution, changed to another token of that solution,
    makes the checker complain for at least most cells (some changes may stay valid)."""
    genre = GENRES[key]
    _, _, entry = puzzles(genre)[0]
    sol = solution_grid(entry["solution"])
    tokens = sorted({t for row in sol for t in row})
    caught = 0
    for r, row in enumerate(sol):
        for c, tok in enumerate(row):
            other = tokens[(tokens.index(tok) + 1) % len(tokens)]
            changed = [list(x) for x in sol]
            changed[r][c] = other
            caught += bool(genre.check(entry["problem"], changed))
    assert caught >= 0.9 * sum(len(row) for row in sol)


@pytest.mark.parametrize("key", GENRES)
def test_the_format_line_reads_the_dataset(key: str) -> None:
    """`solve RULES --data <Genre>.json --instance ID` finds the importer from the rule file."""
    genre = GENRES[key]
    iid, _, entry = puzzles(genre)[0]
    compiled = compile_file(genre.rules_path, Path(genre.data_path), None, iid)
    out = solve(compiled, mode=Mode())
    assert genre.tokens(out.solutions[0], entry["problem"]) == published(genre, entry["solution"])


def test_every_dataset_entry_reads_or_fails_at_a_place() -> None:
    """Entries the importers reject are the known broken ones (see SOURCES.md), each located."""
    from puzzledsl.importers import load_with
    from puzzledsl.importers.base import Broken

    broken = {}
    for genre in GENRES.values():
        text = genre.data_path.read_text(encoding="utf-8")
        for iid, givens in load_with(genre.importer, text, str(genre.data_path)):
            if isinstance(givens, Broken):
                assert givens.error.span is not None and givens.error.span.line > 1
                broken[f"{genre.key}/{iid}"] = givens.error.message
    lits_headers = {k for k in broken if k.startswith("lits/") and "needs 12 lines" in broken[k]}
    assert set(broken) == lits_headers and len(lits_headers) == 9, json.dumps(broken, indent=1)
