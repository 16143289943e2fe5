"""The janko.at genres of `../shared/data/genres/`, each with a rule file written from the docs.

For every bundled genre (`genre_specs.py`): the published solutions pass an independent
checker (`genre_checkers.py`, no puzzledsl code) and a broken one does not; the rule
file's `format` line reads the dataset; and a sample of five puzzles, from the smallest
board to the largest, is solved with uniqueness proven, passes the checker and equals
the published solution. Slow genres cap the sample's board size (`CAP`); `-m slow` runs
their largest boards too. `bench/bench_genres.py` runs every puzzle.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from puzzledsl.compile import compile_file, compile_givens, load_rules
from puzzledsl.solve import Mode, solve
from puzzledsl.syntax import ast as A
from tests.datasets import requires_data
from tests.genre_checkers import solution_grid
from tests.genre_specs import GENRES, OPTIONS, Genre, by_size, options, published, spread

CAP = {"lits": 15 * 15, "norinori": 20 * 20, "nonogram": 30 * 30, "kuromasu": 20 * 20, "akari": 20 * 20,
       "nurikabe": 7 * 7, "galaxies": 10 * 10, "tatamibari": 10 * 10, "shakashaka": 12 * 12, "hidoku": 8 * 8,
       "hashi": 20 * 20, "masyu": 20 * 20}
"""Largest board (cells) in the default sample of genres whose largest boards take seconds."""

_loaded: dict[str, list] = {}


NOT_UNIQUE = {"star_battle": {"starbattlefdd4c885_25x25"}, "norinori": {"177_12x22"}}
"""Published puzzles with a second solution under the printed rules (Star Battle: a star pair
in regions 2 and 6 of rows 1 and 3 swaps; Norinori: two dominoes in rows 8-10 move);
`test_known_second_solutions` checks that both solutions pass the checker."""


UNSUPPORTED = {"nurikabe": {"726_10x10", "758_11x11", "827_13x20"}}
"""Nurikabe islands marked `?` (numbered, size not given): `nurikabe.puz` reads `?` as no
clue, and the checker cannot say it either."""


def puzzles(genre: Genre) -> list[tuple[str, dict, dict]]:
    """The dataset's readable, unique entries that have a published solution, smallest first."""
    if genre.key not in _loaded:
        skip = NOT_UNIQUE.get(genre.key, set()) | UNSUPPORTED.get(genre.key, set()) | set(OPTIONS.get(genre.key, {}))
        _loaded[genre.key] = [x for x in by_size(genre) if x[2].get("solution") and x[0] not in skip]
    return _loaded[genre.key]


def sample(genre: Genre, capped: bool) -> list[tuple[str, dict, dict]]:
    cap = CAP.get(genre.key) if capped else None
    fits = [x for x in puzzles(genre) if cap is None or x[1]["R"] * x[1]["C"] <= cap]
    return spread(fits, 5)


def solve_and_compare(genre: Genre, givens: dict, entry: dict, opts: dict[str, str] | None = None) -> None:
    out = solve(compile_givens(load_rules(genre.rules_path), givens, opts), mode=Mode(unique=True), time_limit=120)
    assert out.status == "sat" and out.unique is True
    mine = genre.tokens(out.solutions[0], entry["problem"])
    assert genre.check(entry["problem"], mine) == []
    assert mine == published(genre, entry["solution"])


@requires_data
@pytest.mark.parametrize("key", GENRES)
def test_sample_is_solved_uniquely_as_published(key: str) -> None:
    genre = GENRES[key]
    for _, givens, entry in sample(genre, capped=True):
        solve_and_compare(genre, givens, entry)


@requires_data
def test_unmarked_variants_are_unique_with_their_options() -> None:
    """The Killer Sudoku X puzzles: unique with `diagonals`, not unique without it."""
    for key, chosen in OPTIONS.items():
        genre = GENRES[key]
        for iid, givens, entry in by_size(genre):
            if iid in chosen:
                solve_and_compare(genre, givens, entry, options(genre, iid))
                plain = solve(compile_givens(load_rules(genre.rules_path), givens), mode=Mode(unique=True))
                assert plain.unique is False


@requires_data
def test_regions_numbered_from_zero() -> None:
    """LITS 283 numbers its regions from 0; region 0 must get its tetromino too (it once did not)."""
    genre = GENRES["lits"]
    [(_, givens, entry)] = [x for x in by_size(genre) if x[0] == "283_10x10"]
    solve_and_compare(genre, givens, entry)


@requires_data
def test_known_second_solutions() -> None:
    for key, ids in NOT_UNIQUE.items():
        genre = GENRES[key]
        for iid, givens, entry in by_size(genre):
            if iid in ids:
                out = solve(compile_givens(load_rules(genre.rules_path), givens), mode=Mode(unique=True))
                assert out.unique is False
                assert all(genre.check(entry["problem"], genre.tokens(s, entry["problem"])) == []
                           for s in out.solutions)


TOO_SLOW = {"nurikabe", "lits"}
"""Their largest boards are not solved within minutes, or not proven unique within the
test's 120 s (LITS 80_31x45 on the CI machine; see BENCHMARKS.md). Galaxies' 20x36 boards
left this set with `reachable` (`tests/test_reachable_joins.py` runs them by default)."""


@requires_data
@pytest.mark.slow
@pytest.mark.parametrize("key", sorted(set(CAP) - TOO_SLOW))
def test_largest_boards_of_slow_genres(key: str) -> None:
    genre = GENRES[key]
    for _, givens, entry in puzzles(genre)[-2:]:
        solve_and_compare(genre, givens, entry)


@requires_data
@pytest.mark.slow
@pytest.mark.parametrize("key", GENRES)
def test_published_solutions_pass_the_checker(key: str) -> None:
    genre = GENRES[key]
    wrong = [iid for iid, _, e in puzzles(genre) if genre.check(e["problem"], solution_grid(e["solution"]))]
    assert wrong == []


@requires_data
@pytest.mark.parametrize("key", GENRES)
def test_the_checker_rejects_a_changed_cell(key: str) -> None:
    """Each cell of a small published solution (as compared), changed to another token of
    that solution, makes the checker complain for most cells (some changes may stay valid)."""
    genre = GENRES[key]
    _, _, entry = puzzles(genre)[0]
    sol = published(genre, entry["solution"])
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
def test_the_format_line_names_the_importers(key: str) -> None:
    genre = GENRES[key]
    formats = [n for st in load_rules(genre.rules_path).program.statements if isinstance(st, A.Format)
               for n, _ in st.names]
    assert formats == [f"janko_{key}", genre.importer]  # a broken text gets the janko reader's error


@requires_data
@pytest.mark.parametrize("key", ["hitori", "lits"])
def test_the_format_line_reads_the_dataset(key: str) -> None:
    """`solve RULES --data <Genre>.json --instance ID` finds the importer from the rule file."""
    genre = GENRES[key]
    iid, _, entry = puzzles(genre)[0]
    compiled = compile_file(genre.rules_path, Path(genre.data_path), None, iid)
    out = solve(compiled, mode=Mode())
    assert genre.tokens(out.solutions[0], entry["problem"]) == published(genre, entry["solution"])


BROKEN = {  # known faults of the dataset: their headers count more rows than the grid has
    "lits": {f"{n}_11x11" for n in range(281, 291)} - {"283_11x11"},
    "nurikabe": {"1086_21x10", "1092_18x10", "1093_24x17", "1094_30x15", "1095_36x20", "1096_27x13",
                 "1097_39x20", "1098_34x19", "1099_41x20", "1100_32x15", "1131_36x15", "1132_19x10",
                 "1133_20x11", "1134_23x15", "1135_24x13", "1136_22x12", "1137_26x13", "1138_60x27",
                 "1139_39x20", "1140_49x30"},
    "shakashaka": {"108_11x10"},
    "galaxies": {"445_51x14"},
}


@requires_data
@pytest.mark.slow
def test_every_dataset_entry_reads_or_fails_at_a_place() -> None:
    """Entries the importers reject are the known broken ones, each error located inside."""
    from puzzledsl.importers import load_with
    from puzzledsl.importers.base import Broken

    for genre in GENRES.values():
        text = genre.data_path.read_text(encoding="utf-8")
        broken = set()
        for iid, givens in load_with(genre.importer, text, str(genre.data_path)):
            if isinstance(givens, Broken):
                assert givens.error.span is not None and givens.error.span.line > 1
                broken.add(iid)
        assert broken == BROKEN.get(genre.key, set()), genre.key


MALFORMED = [  # (importer, text, line, column, message fragment)
    ("janko_hitori", "2 2\n1 2\n2\n", 3, 2, "expected 2 tokens on line 3, found 1"),
    ("janko_hitori", "2 2\n1 2\n2 x\n", 3, 3, "unexpected token 'x'"),
    ("janko_hitori", "2 2\n1 2\n", 2, 4, "the puzzle needs 3 lines, this one has 2"),
    ("janko_hitori", "2 2\n1 2\n2 1\n1 1\n", 4, 1, "unexpected line 4"),
    ("janko_hitori", "2 2 3\n1 2\n2 1\n", 1, 5, "unexpected text after `rows cols`"),
    ("janko_star_battle", "2 2\n1 2\n2 1\n", 1, 4, "the header needs `rows cols S`"),
    ("janko_thermometer", "1 2\n1 1\n2\n1.1 1,2\n", 4, 5, "THERMOMETER.POSITION"),
    ("janko_tent", "2 2\n1 0\n1\nx -\n- -\n", 3, 2, "expected 2 tokens on line 3, found 1"),
    ("janko_kenken", "1 1\n1?\n1\n", 2, 1, "a target, optionally with + - * x /"),
]


@pytest.mark.parametrize(("name", "text", "line", "column", "fragment"), MALFORMED)
def test_malformed_janko_text_is_located(name: str, text: str, line: int, column: int, fragment: str) -> None:
    from puzzledsl.errors import DataError
    from puzzledsl.importers import load_with

    with pytest.raises(DataError) as info:
        load_with(name, text, "bad.txt")
    err = info.value
    assert (err.span.line, err.span.column) == (line, column)
    assert fragment in err.message + (err.help or "")


def test_a_broken_text_gets_the_located_error_of_its_rules_format(tmp_path: Path) -> None:
    """With no --format, a janko text that breaks on line 3 is reported there (exit 2), not as
    'cannot tell this file's format'."""
    import os
    import subprocess
    import sys

    bad = tmp_path / "bad.txt"
    bad.write_text("2 2\n1 2\n2 x\n")
    root = Path(__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": str(root)}
    proc = subprocess.run([sys.executable, "-m", "puzzledsl", "solve", "puzzles/hitori.puz", "--data", str(bad)],
                          cwd=root, capture_output=True, text=True, timeout=60, env=env)
    assert proc.returncode == 2
    assert f"{bad}:3:3: error: number: unexpected token 'x'" in proc.stderr
