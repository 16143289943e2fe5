"""Arukone / Numberlink importers: every real file loads, formats are told apart, errors are located."""

from __future__ import annotations

import functools
import json
from collections import Counter
from pathlib import Path

import pytest

from puzzledsl.errors import DataError
from puzzledsl.importers import IMPORTERS, detect, load_with
from tests.datasets import battleship_entries, kakurasu_entries, read_text, requires_data
from tests.numberlink_data import (
    BWINF_SOLUTION,
    BWINF_SOLVED_PUZZLE,
    IMOS_SAMPLE,
    MALFORMED_PUZZLEKIT_ENTRY,
    PUZZLEKIT_ARUKONE_JSON,
    adc_answer_file,
    adc_answer_grid,
    adc_question_files,
    bwinf_files,
    bwinf_solution,
    flowfree_files,
    puzzlekit_arukone_entries,
    puzzlekit_solution_edges,
    thomasahle_files,
)
from tests.test_importers import _assert_error

NUMBERLINK = (
    "bwinf_arukone",
    "janko_arukone",
    "puzzlekit_arukone",
    "thomasahle",
    "imos_numberlink",
    "adc2015",
    "flowfree",
)

THOMASAHLE_COUNTS = {
    "inputs1": 10,
    "inputs2": 3,
    "inputs3": 20,
    "inputs4": 11,
    "inputs5": 20,
    "inputs6": 4,
    "inputs7": 1,
    "inputs8": 1,
    "inputs9": 101,
    "inputs10": 11,
    "janko": 270,
}

REAL_FILES = (
    [("bwinf_arukone", p) for p in bwinf_files()]
    + [("thomasahle", p) for p in thomasahle_files()]
    + [("adc2015", p) for p in adc_question_files()]
    + [("flowfree", p) for p in flowfree_files()]
    + ([("imos_numberlink", IMOS_SAMPLE)] if IMOS_SAMPLE.is_file() else [])
)
_IDS = [f"{name}-{path.parent.name}/{path.name}" for name, path in REAL_FILES]


@functools.cache
def _load(name: str, path: Path) -> list[tuple[str, dict]]:
    """A real file read once per test session (the tests only look at the result)."""
    return load_with(name, read_text(path), str(path))


def _check_grid(givens: dict) -> list[list[int | None]]:
    """Only `num`: a non-empty rectangle of labels >= 1 or None, each label exactly twice."""
    assert set(givens) == {"num"}
    grid = givens["num"]
    assert type(grid) is list and grid and type(grid[0]) is list and grid[0]
    assert all(type(row) is list and len(row) == len(grid[0]) for row in grid)
    labels = [v for row in grid for v in row if v is not None]
    assert all(type(v) is int and v >= 1 for v in labels)
    assert set(Counter(labels).values()) <= {2}
    return grid


# --------------------------------------------------------------------------- real files


def test_registry() -> None:
    assert set(NUMBERLINK) <= set(IMPORTERS)
    assert all(IMPORTERS[name].description for name in NUMBERLINK)


@requires_data
@pytest.mark.parametrize(("name", "path"), REAL_FILES, ids=_IDS)
def test_real_file_loads_and_is_detected(name: str, path: Path) -> None:
    text = read_text(path)
    assert detect(text) == [name]
    instances = _load(name, path)
    for _, givens in instances:
        _check_grid(givens)
    ids = [key for key, _ in instances]
    if name in ("thomasahle", "imos_numberlink"):
        assert ids == [str(i) for i in range(1, len(ids) + 1)]
    else:
        assert ids == [path.stem]


@requires_data
@pytest.mark.parametrize(("name", "path"), REAL_FILES, ids=_IDS)
def test_real_file_is_read_by_no_other_format(name: str, path: Path) -> None:
    """So a rule file may list all these formats in any order: only the right one reads a file."""
    text = read_text(path)
    for other in NUMBERLINK:
        if other != name:
            with pytest.raises(DataError):
                load_with(other, text, str(path))


@requires_data
def test_real_file_lists_are_complete() -> None:
    assert len(bwinf_files()) == 37
    assert {p.name: len(_load("thomasahle", p)) for p in thomasahle_files()} == THOMASAHLE_COUNTS
    assert len(adc_question_files()) == 17
    assert len(flowfree_files()) == 29


@requires_data
def test_bwinf_pair_count_and_values() -> None:
    for path in bwinf_files():
        [(_, givens)] = _load("bwinf_arukone", path)
        grid = givens["num"]
        lines = read_text(path).split()
        assert len(grid) == len(grid[0]) == int(lines[0])
        assert len({v for row in grid for v in row if v}) == int(lines[1])
    [(key, givens)] = _load("bwinf_arukone", BWINF_SOLVED_PUZZLE.parent / "arukone0.txt")
    assert key == "arukone0"
    assert givens["num"][0] == [1, None, 2, 4, None, None]
    assert givens["num"][5] == [None, None, None, 3, None, 5]


@requires_data
def test_bwinf_solution_file() -> None:
    """The file with a solution appended reads as the puzzle seed004-arukone8 and its known `pair`
    grid (the test-side reader agrees)."""
    text = read_text(BWINF_SOLUTION)
    [(_, both)] = load_with("bwinf_arukone", text, "s.txt")
    puzzle, solution = bwinf_solution(text)
    assert both["pair"] == solution
    [(_, givens)] = load_with("bwinf_arukone", puzzle, "p.txt")
    assert givens == _load("bwinf_arukone", BWINF_SOLVED_PUZZLE)[0][1]
    grid = givens["num"]
    assert len(solution) == 30 and all(v >= 0 for row in solution for v in row)
    assert all(solution[r][c] == v for r, row in enumerate(grid) for c, v in enumerate(row) if v)


@requires_data
def test_thomasahle_labels_by_first_appearance() -> None:
    path = next(p for p in thomasahle_files() if p.name == "inputs1")
    instances = _load("thomasahle", path)
    first = instances[0][1]["num"]  # A..AB... / ..CDE.E. / ..F.....
    assert first[0] == [1, None, None, 1, 2, None, None, None]
    assert first[1] == [None, None, 3, 4, 5, None, 5, None]
    assert first[2][2] == 6 and len(first) == 8
    for path in thomasahle_files():
        if path.stat().st_size < 100_000:
            _same_cells_as_characters(read_text(path), _load("thomasahle", path))


def _same_cells_as_characters(text: str, instances: list[tuple[str, dict]]) -> None:
    """Each puzzle's labels are 1..K and name exactly the cells of one character each."""
    lines = iter(text.split("\n"))
    for _, givens in instances:
        line = next(lines)
        while not line.strip() or line.startswith("#"):
            line = next(lines)
        width, height = map(int, line.split())
        rows = [next(lines).strip() for _ in range(height)]
        grid = givens["num"]
        assert (len(grid), len(grid[0])) == (height, width)
        by_char = {(r, c): ch for r, row in enumerate(rows) for c, ch in enumerate(row) if ch != "."}
        by_label = {(r, c): v for r, row in enumerate(grid) for c, v in enumerate(row) if v is not None}
        assert by_char.keys() == by_label.keys()
        pairs = {(by_char[cell], by_label[cell]) for cell in by_char}
        assert len(pairs) == len({ch for ch, _ in pairs}) == len({v for _, v in pairs})
        assert sorted(v for _, v in pairs) == list(range(1, len(pairs) + 1))


@requires_data
def test_thomasahle_big_puzzles() -> None:
    path = next(p for p in thomasahle_files() if p.name == "inputs6")
    shapes = [(len(g["num"]), len(g["num"][0])) for _, g in _load("thomasahle", path)]
    assert shapes == [(1002, 1002)] * 3 + [(123, 122)]


@requires_data
def test_adc_endpoints_agree_with_the_example_answers() -> None:
    """x is the column and y the row: the answer grids carry each line's number at its ends."""
    for path in adc_question_files():
        [(_, givens)] = _load("adc2015", path)
        grid = givens["num"]
        answer = adc_answer_grid(read_text(adc_answer_file(path)))
        assert (len(answer), len(answer[0])) == (len(grid), len(grid[0]))
        ends = [(r, c, v) for r, row in enumerate(grid) for c, v in enumerate(row) if v is not None]
        assert all(answer[r][c] == v for r, c, v in ends)
        assert {v for _, _, v in ends} == set(range(1, len(ends) // 2 + 1))
    q08 = next(p for p in adc_question_files() if p.name == "Q08.txt")
    grid = _load("adc2015", q08)[0][1]["num"]
    assert (len(grid), len(grid[0])) == (11, 12)
    assert grid[0][1] == grid[0][10] == 1 and grid[10][0] == 7 and grid[10][11] == 8


@requires_data
def test_adc_answers_are_not_problems() -> None:
    for path in adc_question_files():
        assert detect(read_text(adc_answer_file(path))) == []


@requires_data
def test_flowfree_sizes() -> None:
    for path in flowfree_files():
        [(_, givens)] = _load("flowfree", path)
        grid = givens["num"]
        if "x" in path.stem:
            size = int(path.stem.split("_")[1].split("x")[0])
            assert len(grid) == len(grid[0]) == size
    regular = _load("flowfree", next(p for p in flowfree_files() if p.name == "regular_5x5_01.txt"))
    assert regular[0][1]["num"][0] == [1, None, 2, None, 3]  # R.G.Y


@requires_data
def test_imos_sample() -> None:
    instances = _load("imos_numberlink", IMOS_SAMPLE)
    shapes = [(len(g["num"]), len(g["num"][0])) for _, g in instances]
    assert shapes == [(10, 10)] * 4 + [(2, 10), (2, 3)]
    assert instances[5][1]["num"] == [[1, None, 1], [None, None, None]]
    assert instances[0][1]["num"][0][9] == 1 and instances[0][1]["num"][4][4] == 1


# --------------------------------------------------------------------------- the puzzlekit dataset


@requires_data
def test_puzzlekit_problems_one_by_one() -> None:
    """579 problem texts load and are detected as janko_arukone; the malformed one is located."""
    loaded = 0
    for key, problem, solution in puzzlekit_arukone_entries():
        if key == MALFORMED_PUZZLEKIT_ENTRY:
            _assert_error("janko_arukone", problem, f"{key}.txt", 11, 20, "the grid has 10 rows, expected 11")
            continue
        # janko_battleship's sniff also takes a text whose fourth line is all '-' (108 of them),
        # but cannot read it: a rule file that lists janko_arukone reads them right.
        assert detect(problem) in (["janko_arukone"], ["janko_battleship", "janko_arukone"]), key
        with pytest.raises(DataError):
            load_with("janko_battleship", problem, f"{key}.txt")
        [(instance, givens)] = load_with("janko_arukone", problem, f"{key}.txt")
        assert instance == key
        grid = _check_grid(givens)
        rows, cols = map(int, problem.split("\n")[0].split())
        assert (len(grid), len(grid[0])) == (rows, cols)
        # The published solution: each numbered cell ends one link, the other cells have 0 or 2.
        degree = Counter(cell for edge in puzzlekit_solution_edges(solution) for cell in edge)
        for r, row in enumerate(grid):
            for c, v in enumerate(row):
                assert degree[(r, c)] == 1 if v else degree[(r, c)] in (0, 2), (key, r, c)
        loaded += 1
    assert loaded == 579


@requires_data
def test_puzzlekit_dataset_error_and_the_rest() -> None:
    """The whole dataset stops at the malformed entry, located in the JSON; without it, 579 load."""
    text = read_text(PUZZLEKIT_ARUKONE_JSON)
    assert detect(text) == ["puzzlekit_arukone"]
    entry = text.index(f'"{MALFORMED_PUZZLEKIT_ENTRY}"')
    last_row = "- - - - 9 3 - - - -"
    end = text.index(last_row + '"', entry) + len(last_row)
    line, column = text.count("\n", 0, end) + 1, end - text.rfind("\n", 0, end)
    err = _assert_error("puzzlekit_arukone", text, "n.json", line, column, "10 rows, expected 11")
    assert MALFORMED_PUZZLEKIT_ENTRY in err.message
    root = json.loads(text)
    del root["data"][MALFORMED_PUZZLEKIT_ENTRY]
    instances = load_with("puzzlekit_arukone", json.dumps(root, indent=1), "n.json")
    assert len(instances) == 579 and instances[0][0] == "01_5x5"
    assert instances[0][1]["num"][0] == [7, None, None, None, 3]


def _dataset(**problems: str) -> str:
    data = {key: {"problem": value, "solution": None} for key, value in problems.items()}
    return json.dumps({"count": len(data), "name": "NumberLink", "data": data}, indent=1)


def test_puzzlekit_small_dataset() -> None:
    text = _dataset(a=JANKO, b="2 2\n1 -\n- 1")
    loaded = load_with("puzzlekit_arukone", text, "d.json")
    assert [key for key, _ in loaded] == ["a", "b"]
    assert detect(text) == ["puzzlekit_arukone"]
    text = _dataset(a=JANKO, b=JANKO.replace("2 - 1", "2 x 1"))
    err = _assert_error("puzzlekit_arukone", text, "d.json", *_where(text, "2 x 1", 2), "whole number")
    assert "entry 'b'" in err.message


def _where(text: str, needle: str, offset: int = 0) -> tuple[int, int]:
    assert text.count(needle) == 1, needle
    pos = text.index(needle) + offset
    return text.count("\n", 0, pos) + 1, pos - (text.rfind("\n", 0, pos) + 1) + 1


# --------------------------------------------------------------------------- small texts of each format

BWINF = "3\n2\n1 0 2\n0 0 0\n2 0 1\n"
JANKO = "3 3\n1 - -\n2 - 1\n- 2 -\n"
THOMASAHLE = "# two puzzles\n\n3 2\nA.B\nB.A\n\n2 2\n#.\n.#\n"
IMOS = "3 2\n1 0 2\n2 0 1\n\n2 1\n3 3\n0 0\n"
ADC = "SIZE 3X2\nLINE_NUM 2\nLINE#1 (0,0)-(2,1)\nLINE#2 (1,0)-(1,1)\n"
FLOWFREE = "R.G\n...\nR.G\n"

SMALL = [
    ("bwinf_arukone", BWINF, [("b", [[1, None, 2], [None] * 3, [2, None, 1]])]),
    ("janko_arukone", JANKO, [("b", [[1, None, None], [2, None, 1], [None, 2, None]])]),
    ("thomasahle", THOMASAHLE, [("1", [[1, None, 2], [2, None, 1]]), ("2", [[1, None], [None, 1]])]),
    ("imos_numberlink", IMOS, [("1", [[1, None, 2], [2, None, 1]]), ("2", [[3, 3]])]),
    ("adc2015", ADC, [("b", [[1, 2, None], [None, 2, 1]])]),
    ("flowfree", FLOWFREE, [("b", [[1, None, 2], [None] * 3, [1, None, 2]])]),
]


@pytest.mark.parametrize(("name", "text", "expected"), SMALL, ids=[s[0] for s in SMALL])
def test_small_text(name: str, text: str, expected: list) -> None:
    assert load_with(name, text, "dir/b.txt") == [(key, {"num": grid}) for key, grid in expected]
    assert detect(text) == [name]
    crlf = text.replace("\n", "\r\n")
    assert detect(crlf) == [name]
    plain = load_with(name, text, "b.txt")
    assert load_with(name, crlf + "\r\n  \r\n\n", "b.txt") == plain
    assert load_with(name, text.rstrip("\n"), "b.txt") == plain
    for other in NUMBERLINK:
        if other != name:
            with pytest.raises(DataError):
                load_with(other, text, "b.txt")


def test_tolerated_variants() -> None:
    assert load_with("adc2015", ADC.replace("X", "x").replace("(0,0)-(2,1)", " ( 0 , 0 ) - ( 2 , 1 ) "), "b") == (
        load_with("adc2015", ADC, "b")
    )
    assert load_with("thomasahle", THOMASAHLE + "0 0\n# end\n", "t") == load_with("thomasahle", THOMASAHLE, "t")
    assert load_with("thomasahle", THOMASAHLE.replace("A.B\n", "  A.B  \n"), "t") == (
        load_with("thomasahle", THOMASAHLE, "t")
    )
    assert load_with("thomasahle", "2 1\naa\n1 2\nb\nb\n", "t") == [
        ("1", {"num": [[1, 1]]}),
        ("2", {"num": [[1], [1]]}),
    ]
    assert load_with("imos_numberlink", IMOS.replace("\n\n", "\n"), "i") == load_with("imos_numberlink", IMOS, "i")
    assert load_with("bwinf_arukone", BWINF.replace("1 0 2", "1  0   2   "), "b") == load_with(
        "bwinf_arukone", BWINF, "b"
    )


KAKURASU = "3 3\n1 - 3\n4 2 6\n"
BATTLESHIP = "3 3 2 1\n1 0 2\n2 0 1\no - -\n- - -\nw e -\n"


@pytest.mark.parametrize("text", [KAKURASU, BATTLESHIP, "2 3\n1 - 1\n2 0\n", "4 4\n1 2 3 4\n4 3 2 1\n", ""])
def test_other_genres_are_not_claimed(text: str) -> None:
    assert not set(detect(text)) & set(NUMBERLINK)
    for name in NUMBERLINK:
        with pytest.raises(DataError):
            load_with(name, text, "k.txt")


@requires_data
def test_janko_kakurasu_and_battleship_texts_are_not_claimed() -> None:
    """No numberlink sniff accepts, and no numberlink reader of `rows cols`-like headers reads,
    a real Kakurasu or Battleship text (the other readers stop at its first line)."""
    for entries in (kakurasu_entries, battleship_entries):
        for key, problem, _ in entries():
            assert not set(detect(problem)) & set(NUMBERLINK), key
            for name in ("janko_arukone", "imos_numberlink", "thomasahle"):
                with pytest.raises(DataError):
                    load_with(name, problem, f"{key}.txt")


# --------------------------------------------------------------------------- malformed texts


MALFORMED = [
    # BWINF: n, pairs, n rows of n numbers
    ("bwinf_arukone", "", 1, 1, "grid size"),
    ("bwinf_arukone", "3 3\n2\n1 0 2\n0 0 0\n2 0 1\n", 1, 3, "unexpected text after the grid size"),
    ("bwinf_arukone", "x\n2\n", 1, 1, "whole number"),
    ("bwinf_arukone", "0\n2\n", 1, 1, "at least 1"),
    ("bwinf_arukone", "3\n", 1, 2, "number of pairs"),
    ("bwinf_arukone", "3\n2\n", 2, 2, "first of 3 grid rows"),
    ("bwinf_arukone", BWINF.replace("\n2\n", "\n3\n"), 2, 1, "says 3 pairs, but the grid has 2"),
    ("bwinf_arukone", BWINF.replace("\n2\n", "\n2 pairs\n"), 2, 3, "unexpected text"),
    ("bwinf_arukone", BWINF.replace("1 0 2", "1 0"), 3, 4, "2 cells, expected 3"),
    ("bwinf_arukone", BWINF.replace("1 0 2", "1 0 2 0"), 3, 7, "4 cells, expected 3"),
    ("bwinf_arukone", BWINF.replace("1 0 2", "1 a 2"), 3, 3, "whole number"),
    ("bwinf_arukone", BWINF.replace("1 0 2", "1 - 2"), 3, 3, "whole number"),
    ("bwinf_arukone", BWINF.replace("2 0 1", "2 0 3"), 3, 1, "number 1 appears only once"),
    ("bwinf_arukone", BWINF.replace("0 0 0", "0 1 0"), 5, 5, "number 1 appears more than twice"),
    ("bwinf_arukone", "3\n2\n1 0 2\n2 0 1\n", 4, 6, "the grid has 2 rows, expected 3"),
    ("bwinf_arukone", BWINF + "0 0 0\n", 6, 1, "more than 3 rows"),
    ("bwinf_arukone", BWINF.replace("0 0 0\n", "\n0 0 0\n"), 4, 1, "blank line"),
    ("bwinf_arukone", BWINF.replace("\n", "\r\n").replace("2 0 1", "2 0 x"), 5, 5, "whole number"),
    # janko.at: rows cols, rows of numbers and '-'
    ("janko_arukone", "", 1, 1, "rows cols"),
    ("janko_arukone", "3\n", 1, 2, "rows cols"),
    ("janko_arukone", "3 3\n", 1, 4, "first of 3 grid rows"),
    ("janko_arukone", JANKO.replace("1 - -", "1 - 0"), 2, 5, "at least 1"),
    ("janko_arukone", JANKO.replace("1 - -", "1 . -"), 2, 3, "whole number"),
    ("janko_arukone", JANKO.replace("1 - -", "1 - - -"), 2, 7, "4 cells, expected 3"),
    ("janko_arukone", JANKO.replace("- 2 -", "- 2 1"), 4, 5, "number 1 appears more than twice"),
    ("janko_arukone", JANKO.replace("- 2 -", "- 3 -"), 3, 1, "number 2 appears only once"),
    ("janko_arukone", "3 3\n1 - -\n2 - 1\n", 3, 6, "the grid has 2 rows, expected 3"),
    ("janko_arukone", JANKO + "- - -\n", 5, 1, "more than 3 rows"),
    # thomasahle: '#' comments, W H, H rows of W characters
    ("thomasahle", "", 1, 1, "no puzzle"),
    ("thomasahle", "# only a comment\n", 1, 1, "no puzzle"),
    ("thomasahle", THOMASAHLE.replace("3 2", "3"), 3, 1, "expected a puzzle's `width height`, found '3'"),
    ("thomasahle", THOMASAHLE.replace("3 2", "3 2 1"), 3, 5, "unexpected text"),
    ("thomasahle", THOMASAHLE.replace("3 2", "0 2"), 3, 1, "the width must be at least 1"),
    ("thomasahle", THOMASAHLE.replace("3 2", "3 x"), 3, 3, "found '3 x'"),
    ("thomasahle", THOMASAHLE.replace("A.B", "A."), 4, 3, "2 cells, expected 3"),
    ("thomasahle", THOMASAHLE.replace("A.B", "A.BB"), 4, 4, "4 cells, expected 3"),
    ("thomasahle", THOMASAHLE.replace("A.B", "A B"), 4, 2, "spaces"),
    ("thomasahle", THOMASAHLE.replace("A.B", "  A.C"), 4, 5, "label 'C' appears only once"),
    ("thomasahle", THOMASAHLE.replace("B.A", "BAA"), 5, 3, "label 'A' appears more than twice"),
    ("thomasahle", THOMASAHLE.replace("3 2", "3 3"), 6, 1, "the grid has 2 rows, expected 3"),
    ("thomasahle", THOMASAHLE.replace("2 2", "2 3"), 9, 3, "the grid has 2 rows, expected 3"),
    ("thomasahle", "3 2\nA.B\n3 1\nA.A\n", 3, 1, "the grid has 1 row, expected 2"),
    ("thomasahle", THOMASAHLE + "0 0\n\n1 2\n", 12, 1, "after the `0 0` end mark"),
    # imos: W H, H rows of W numbers, 0 empty, no comments
    ("imos_numberlink", "", 1, 1, "no puzzle"),
    ("imos_numberlink", "# c\n" + IMOS, 1, 1, "found '# c'"),
    ("imos_numberlink", IMOS.replace("1 0 2", "1 x 2"), 2, 3, "whole number"),
    ("imos_numberlink", IMOS.replace("1 0 2", "1 - 2"), 2, 3, "whole number"),
    ("imos_numberlink", IMOS.replace("1 0 2", "1 0"), 2, 4, "2 cells, expected 3"),
    ("imos_numberlink", IMOS.replace("2 0 1", "2 0 4"), 2, 1, "number 1 appears only once"),
    ("imos_numberlink", IMOS.replace("3 2\n", "3 3\n"), 4, 1, "the grid has 2 rows, expected 3"),
    ("imos_numberlink", IMOS.replace("0 0\n", "0 0\n1 1\n"), 8, 1, "after the `0 0` end mark"),
    ("imos_numberlink", IMOS.replace("2 1\n", "2 -1\n"), 5, 3, "found '2 -1'"),
    # DA Symposium 2015
    ("adc2015", "", 1, 1, "SIZE"),
    ("adc2015", ADC.replace("SIZE", "SIZ"), 1, 1, "expected `SIZE`"),
    ("adc2015", ADC.replace("3X2", "3*2"), 1, 7, "expected 'X'"),
    ("adc2015", ADC.replace("3X2", "3X"), 1, 8, "expected the height in `SIZE WxH`, found the end of the line"),
    ("adc2015", ADC.replace("3X2", "0X2"), 1, 6, "at least 1"),
    ("adc2015", ADC.replace("3X2", "3X2 x"), 1, 10, "unexpected text after `SIZE WxH`"),
    ("adc2015", "SIZE 3X2\n", 1, 9, "missing line 2"),
    ("adc2015", ADC.replace("LINE_NUM 2", "LINE_NUM x"), 2, 10, "expected the number of lines"),
    ("adc2015", ADC.replace("LINE_NUM 2", "LINE_NUM 3"), 4, 19, "found 2 `LINE#` lines, but LINE_NUM says 3"),
    ("adc2015", ADC.replace("LINE_NUM 2", "LINE_NUM 1"), 4, 1, "unexpected line 4"),
    ("adc2015", ADC.replace("(0,0)-(2,1)", "(0,0)-(3,1)"), 3, 15, "x = 3 is outside the grid (0 to 2)"),
    ("adc2015", ADC.replace("(0,0)-(2,1)", "(0,2)-(2,1)"), 3, 11, "y = 2 is outside the grid (0 to 1)"),
    ("adc2015", ADC.replace("LINE#2", "LINE#1"), 4, 6, "line #1 is given twice"),
    ("adc2015", ADC.replace("LINE#2", "LINE#3"), 4, 6, "larger than LINE_NUM 2"),
    ("adc2015", ADC.replace("LINE#2", "LINE#0"), 4, 6, "at least 1"),
    ("adc2015", ADC.replace("LINE#2", "LINE 2"), 4, 1, "expected `LINE#`"),
    ("adc2015", ADC.replace("(1,0)-(1,1)", "(0,0)-(1,1)"), 4, 9, "cell (0,0) is already an end of line #1"),
    ("adc2015", ADC.replace("(0,0)-(2,1)", "(0,0)-(0,0)"), 3, 15, "already an end of line #1"),
    ("adc2015", ADC.replace("(0,0)-(2,1)", "(0,0-(2,1)"), 3, 12, "expected ')'"),
    ("adc2015", ADC.replace("(0,0)-(2,1)", "(0,0) (2,1)"), 3, 14, "expected '-'"),
    ("adc2015", ADC.replace("(0,0)-(2,1)", "(0,0)-(2,1) x"), 3, 20, "unexpected text"),
    ("adc2015", ADC.replace("LINE#2 (1,0)-(1,1)\n", "\nLINE#2 (1,0)-(1,1)\n"), 4, 1, "blank line"),
    # Flow Free
    ("flowfree", "", 1, 1, "no puzzle"),
    ("flowfree", FLOWFREE.replace("...", ".."), 2, 3, "2 cells, expected 3"),
    ("flowfree", FLOWFREE.replace("...", "...."), 2, 4, "4 cells, expected 3"),
    ("flowfree", FLOWFREE.replace("R.G\n...", "R.G\n.#."), 2, 2, "unexpected character '#'"),
    ("flowfree", FLOWFREE.replace("...", ". ."), 2, 2, "spaces"),
    ("flowfree", FLOWFREE.replace("...\nR.G", "...\nR.B"), 1, 3, "colour 'G' appears only once"),
    ("flowfree", FLOWFREE.replace("...", ".R."), 3, 1, "colour 'R' appears more than twice"),
    ("flowfree", FLOWFREE.replace("...\n", "...\n\n"), 3, 1, "blank line"),
]


@pytest.mark.parametrize(("name", "text", "line", "column", "fragment"), MALFORMED)
def test_malformed(name: str, text: str, line: int, column: int, fragment: str) -> None:
    _assert_error(name, text, "bad.txt", line, column, fragment)


def test_a_wrong_pair_count_says_which_line_to_correct(tmp_path, capsys):
    """Friction log 15: the help said to name another format with --format, which never helps here."""
    from puzzledsl.cli import main
    f = tmp_path / "b.txt"
    f.write_text("3\n3\n1 0 1\n2 0 2\n0 0 0\n")
    assert main(["solve", "arukone", "--data", str(f)]) == 2
    err = capsys.readouterr().err
    assert "the second line is the number of pairs: 2 for this grid" in err and "--format" not in err
