"""Importers read every real file, tell formats apart, and locate every malformed input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from puzzledsl.errors import DataError
from puzzledsl.importers import IMPORTERS, JANKO_BATTLESHIP_TOKENS, detect, load_with
from puzzledsl.importers.base import Broken
from tests.datasets import (
    BATTLESHIP_JSON,
    CSPLIB_PL,
    KAKURASU_JSON,
    PYCSP3_JSONS,
    battleship_entries,
    kakurasu_entries,
    read_text,
    requires_data,
)

REAL_FILES = [
    ("puzzlekit_kakurasu", KAKURASU_JSON, 280),
    ("puzzlekit_battleship", BATTLESHIP_JSON, 861),
    ("csplib_battleship", CSPLIB_PL, 303),
    ("pycsp3_battleship", PYCSP3_JSONS[0], 1),
    ("pycsp3_battleship", PYCSP3_JSONS[1], 1),
]


def _is_clue(value: object, limit: int) -> bool:
    return value is None or (type(value) is int and 0 <= value <= limit)


def _check_givens(givens: dict[str, object]) -> None:
    """Plain values of the documented shape: ints/None, lists, grids of one-letter tokens."""
    rows, cols = givens["R"], givens["C"]
    assert type(rows) is int and type(cols) is int and rows > 0 and cols > 0
    assert len(givens["rowsum"]) == rows and len(givens["colsum"]) == cols
    if "hint" not in givens:
        assert set(givens) == {"R", "C", "rowsum", "colsum"}
        return
    assert all(_is_clue(v, cols) for v in givens["rowsum"]) and all(
        _is_clue(v, rows) for v in givens["colsum"]
    )
    hint = givens["hint"]
    assert type(hint) is list and len(hint) == rows
    assert all(type(row) is list and len(row) == cols for row in hint)
    assert all(type(t) is str and t in JANKO_BATTLESHIP_TOKENS for row in hint for t in row)
    assert all(type(n) is int and n >= 0 for n in givens.get("fleet", []))


@requires_data
@pytest.mark.parametrize(
    ("name", "path", "count"), REAL_FILES, ids=[f"{n}-{p.name}" for n, p, _ in REAL_FILES]
)
def test_real_file_loads(name: str, path: Path, count: int) -> None:
    instances = load_with(name, read_text(path), str(path))
    assert len(instances) == count
    assert len({key for key, _ in instances}) == count
    for _, givens in instances:
        _check_givens(givens)


@requires_data
@pytest.mark.parametrize(
    ("name", "path"), [(n, p) for n, p, _ in REAL_FILES], ids=lambda x: getattr(x, "name", x)
)
def test_real_file_detected_by_its_importer_only(name: str, path: Path) -> None:
    assert detect(read_text(path)) == [name]


@requires_data
@pytest.mark.parametrize(
    ("name", "entries"), [("janko_kakurasu", kakurasu_entries), ("janko_battleship", battleship_entries)]
)
def test_every_janko_problem_text(name: str, entries) -> None:
    """Each embedded problem text is detected as its own format and loads on its own."""
    wrong = [key for key, problem, _ in entries() if detect(problem) != [name]]
    assert wrong == []
    for key, problem, _ in entries():
        [(instance, givens)] = load_with(name, problem, f"{key}.txt")
        assert instance == key
        _check_givens(givens)


@requires_data
def test_janko_battleship_values() -> None:
    givens = dict(load_with("puzzlekit_battleship", read_text(BATTLESHIP_JSON), str(BATTLESHIP_JSON)))[
        "01_11x11"
    ]
    assert givens["fleet"] == [5, 4, 3, 2, 1]
    assert givens["colsum"][:3] == [2, 5, 3] and givens["rowsum"][:3] == [2, 6, 1]
    assert givens["hint"][0][7] == "x" and givens["hint"][1][0] == "w" and givens["hint"][7][10] == "s"


@requires_data
def test_kakurasu_missing_clues_are_none() -> None:
    instances = load_with("puzzlekit_kakurasu", read_text(KAKURASU_JSON), str(KAKURASU_JSON))
    assert any(None in g["rowsum"] + g["colsum"] for _, g in instances)
    assert dict(instances)["301_5x5"] == {
        "R": 5,
        "C": 5,
        "rowsum": [6, 3, 8, 10, 5],
        "colsum": [8, 12, 11, 4, 4],
    }


@requires_data
def test_csplib_and_pycsp3_agree_on_board_113() -> None:
    """Two independent encodings of one board: checks 1-based [row, col] and letter translation."""
    csplib = dict(load_with("csplib_battleship", read_text(CSPLIB_PL), str(CSPLIB_PL)))["113"]
    [(_, pycsp3)] = load_with("pycsp3_battleship", read_text(PYCSP3_JSONS[0]), str(PYCSP3_JSONS[0]))
    assert csplib == pycsp3
    assert csplib["fleet"] == [4, 3, 2, 1]
    assert csplib["hint"][6][9] == "o" and csplib["hint"][0][5] == "x"
    assert sum(t != "-" for row in csplib["hint"] for t in row) == 2


@requires_data
def test_pycsp3_null_hints_and_unordered_fleet() -> None:
    [(key, givens)] = load_with("pycsp3_battleship", read_text(PYCSP3_JSONS[1]), str(PYCSP3_JSONS[1]))
    assert key == "pycsp3_12-12-5-0"
    assert givens["fleet"] == [2, 0, 1, 4, 4]
    assert all(t == "-" for row in givens["hint"] for t in row)


# --------------------------------------------------------------------------- detection and tolerances

NOT_FOREIGN = [
    'use "kakurasu"\nrowsum = [1, 2]\ncolsum = [2, 1]\n',
    'use "battleship"\ngiven hint: grid\nvar ship: bool\nrule counts { sum(ship) = 3 }\n',
    "rule no_touch:\n  forall cell c: given x\n",
    '{"rowsum": [1, 2], "colsum": [2, 1]}',
    '{"R": 3, "C": 3, "rowSums": [1, 1, 1], "colSums": [1, 1, 1], "fleet": [3]}',
    '{"data": {"a": {"rowsum": [1]}}}',
    "",
]


@pytest.mark.parametrize("text", NOT_FOREIGN)
def test_detect_ignores_other_files(text: str) -> None:
    assert detect(text) == []


KAKURASU = "3 3\n1 - 3\n4 2 6\n"
BATTLESHIP = "3 3 2 1\n1 0 2\n2 0 1\no - -\n- - -\nw e -\n"


@pytest.mark.parametrize(("name", "text"), [("janko_kakurasu", KAKURASU), ("janko_battleship", BATTLESHIP)])
def test_crlf_and_trailing_blank_lines(name: str, text: str) -> None:
    plain = load_with(name, text, "p.txt")
    assert load_with(name, text.replace("\n", "\r\n") + "\r\n  \r\n\n", "p.txt") == plain
    assert load_with(name, text.rstrip("\n"), "p.txt") == plain
    assert detect(text.replace("\n", "\r\n")) == [name]


def test_janko_battleship_without_grid_or_fleet() -> None:
    [(key, givens)] = load_with("janko_battleship", "2 3\n1 - 1\n2 0\n", "seed/001.txt")
    assert key == "001"
    assert givens == {
        "R": 2,
        "C": 3,
        "rowsum": [2, 0],
        "colsum": [1, None, 1],
        "hint": [["-"] * 3, ["-"] * 3],
    }
    assert "fleet" in load_with("janko_battleship", "2 3 1\n1 - 1\n2 0\n", "x.txt")[0][1]


def test_janko_kakurasu_givens() -> None:
    assert load_with("janko_kakurasu", KAKURASU, "k.txt") == [
        ("k", {"R": 3, "C": 3, "rowsum": [4, 2, 6], "colsum": [1, None, 3]})
    ]


def test_unknown_importer() -> None:
    with pytest.raises(DataError, match="unknown importer"):
        load_with("nope", "", "x")


def test_registry_names() -> None:
    assert {
        "janko_kakurasu",
        "janko_battleship",
        "csplib_battleship",
        "pycsp3_battleship",
        "puzzlekit_kakurasu",
        "puzzlekit_battleship",
    } <= set(IMPORTERS)
    assert all(name == imp.name and imp.description for name, imp in IMPORTERS.items())


# --------------------------------------------------------------------------- malformed line formats

MALFORMED_TEXT = [
    ("janko_kakurasu", "3 3\n1 2\n1 2 3\n", 2, 4, "too few column clues"),
    ("janko_kakurasu", "3 3\n1 2 3 4\n1 2 3\n", 2, 7, "too many column clues"),
    ("janko_kakurasu", "3 x\n1 2 3\n1 2 3\n", 1, 3, "number of columns"),
    ("janko_kakurasu", "3 3\n1 ? 3\n1 2 3\n", 2, 3, "whole number"),
    ("janko_kakurasu", "3 3\n1 2 -3\n1 2 3\n", 2, 5, "whole number"),
    ("janko_kakurasu", "3 3\n1 2 3\n1 2 3\n4\n", 4, 1, "unexpected line"),
    ("janko_kakurasu", "3 3\n\n1 2 3\n1 2 3\n", 2, 1, "blank line"),
    ("janko_kakurasu", "3 3\n1 2 3\n", 2, 6, "row clues"),
    ("janko_kakurasu", "", 1, 1, "rows cols"),
    ("janko_kakurasu", "3 3\n7 1 1\n1 2 3\n", 2, 1, "larger"),
    ("janko_kakurasu", "3 3 3\n1 2 3\n1 2 3\n", 1, 5, "unexpected text"),
    ("janko_kakurasu", "0 3\n1 2 3\n\n", 1, 1, "at least 1"),
    ("janko_kakurasu", "3 3\r\n1 2 3\r\n1 z 3\r\n", 3, 3, "whole number"),
    ("janko_battleship", "3 3 2 1\n1 1 1\n1 1 1\n- - -\n- q -\n- - -\n", 5, 3, "unknown grid token"),
    ("janko_battleship", "3 3\n1 1 1\n1 1 1\n- - -\n- -\n- - -\n", 5, 4, "2 cells, expected 3"),
    ("janko_battleship", "3 3\n1 1 1\n1 1 1\n- - - x\n- - -\n- - -\n", 4, 7, "4 cells"),
    ("janko_battleship", "3 3\n1 1 1\n1 1 1\n- - -\n- - -\n", 5, 6, "2 rows"),
    ("janko_battleship", "3 3\n1 1 1\n1 1 1\n- - -\n- - -\n- - -\nx x x\n", 7, 1, "more than 3 rows"),
    ("janko_battleship", "3 3 2 a\n1 1 1\n1 1 1\n", 1, 7, "ship count"),
    ("janko_battleship", "3 3\n1 4 1\n1 1 1\n", 2, 3, "larger"),
    ("janko_battleship", "3 3 0 0 0 1\n1 1 1\n1 1 1\n", 1, 11, "do not fit"),
    ("janko_battleship", "3 3\n1 1 1\n1 1 1\nxx - -\n- - -\n- - -\n", 4, 1, "unknown grid token"),
    ("janko_battleship", "3 3\n1 1 1\n", 2, 6, "row counts"),
    ("janko_battleship", "3 3\n1 1 1\n1 1 1\n- - -\n\n- - -\n- - -\n", 5, 1, "blank line"),
]


@pytest.mark.parametrize(("name", "text", "line", "column", "fragment"), MALFORMED_TEXT)
def test_malformed_janko_text(name: str, text: str, line: int, column: int, fragment: str) -> None:
    _assert_error(name, text, "bad.txt", line, column, fragment)


def _assert_error(name: str, text: str, path: str, line: int, column: int, fragment: str) -> DataError:
    with pytest.raises(DataError) as info:
        for _, givens in load_with(name, text, path):
            if isinstance(givens, Broken):  # a bad entry of a multi-puzzle file: raised when it is used
                raise givens.error
    err = info.value
    assert fragment in err.message
    assert err.span is not None and (err.span.path, err.span.line, err.span.column) == (path, line, column)
    return err


# --------------------------------------------------------------------------- malformed CSPLib facts

CSPLIB = """% a comment
problem(1,
\t[2:1,1:1],
\t[1,0,2],
\t[2,0,1],
\t[c@[1,1],w@[2,2]]).
"""


def test_csplib_small_board() -> None:
    [(key, givens)] = load_with("csplib_battleship", CSPLIB, "c.pl")
    assert key == "1"
    assert givens == {
        "R": 3,
        "C": 3,
        "rowsum": [1, 0, 2],
        "colsum": [2, 0, 1],
        "fleet": [1, 1],
        "hint": [["o", "-", "-"], ["-", "x", "-"], ["-", "-", "-"]],
    }
    assert detect(CSPLIB) == ["csplib_battleship"]


MALFORMED_CSPLIB = [
    (("c@[1", "z@[1"), 6, 3, "unknown hint type"),
    (("c@[1,1]", "c@[4,1]"), 6, 6, "outside 1..3"),
    (("c@[1,1]", "c@[1,0]"), 6, 8, "outside 1..3"),
    (("[1,0,2]", "[1,0 2]"), 4, 7, "expected ',' or ']', found '2'"),
    (("]]).", "]])"), 6, 20, "before the end of the file"),
    (("% a comment", "# a comment"), 1, 1, "unexpected character"),
    (("[1,0,2]", "[1,0,4]"), 4, 7, "larger than the board"),
    (("2:1,1:1", "2:-1,1:1"), 3, 5, "negative"),
    (("2:1,1:1", "2:1,2:1"), 3, 7, "listed twice"),
    (("w@[2,2]", "w@[1,1]"), 6, 11, "conflicting"),
    (("problem(1,", "prob(1,"), 2, 1, "expected 'problem'"),
    (("problem(1,", "problem(x,"), 2, 9, "expected a number"),
    (("[2,0,1],", "[],"), 2, 9, "empty board"),
]


@pytest.mark.parametrize(("edit", "line", "column", "fragment"), MALFORMED_CSPLIB)
def test_malformed_csplib(edit: tuple[str, str], line: int, column: int, fragment: str) -> None:
    assert edit[0] in CSPLIB
    _assert_error("csplib_battleship", CSPLIB.replace(*edit), "c.pl", line, column, fragment)


def test_csplib_duplicate_and_empty() -> None:
    _assert_error("csplib_battleship", CSPLIB + CSPLIB.replace("% a comment\n", ""), "c.pl", 7, 9, "twice")
    _assert_error("csplib_battleship", "% nothing here\n", "c.pl", 1, 1, "no `problem")


# --------------------------------------------------------------------------- malformed JSON

PYCSP3 = """{
  "fleet": [{"size": 2, "cnt": 1}, {"size": 1, "cnt": 1}],
  "hints": [{"type": "c", "row": 1, "col": 1}],
  "rowSums": [1, 0, 2],
  "colSums": [2, 0, 1]
}
"""


def _where(text: str, needle: str) -> tuple[int, int]:
    """1-based line and column of the only occurrence of `needle`."""
    assert text.count(needle) == 1, needle
    pos = text.index(needle)
    return text.count("\n", 0, pos) + 1, pos - (text.rfind("\n", 0, pos) + 1) + 1


def test_pycsp3_small_board() -> None:
    [(key, givens)] = load_with("pycsp3_battleship", PYCSP3, "dir/small.json")
    assert key == "small"
    assert givens["fleet"] == [1, 1] and givens["hint"][0][0] == "o"
    assert detect(PYCSP3) == ["pycsp3_battleship"]


MALFORMED_PYCSP3 = [
    (('"type": "c"', '"type": "z"'), '"z"', "unknown hint type"),
    (('"row": 1', '"row": 4'), "4", "'row' must be"),
    (("[1, 0, 2]", '[1, "a", 2]'), '"a"', "whole number"),
    (("[1, 0, 2]", "[1, 0, 5]"), "5", "from 0 to 3"),
    (('"size": 2', '"size": 0'), '0, "cnt"', "'size' must be"),
    (('"size": 1', '"size": 2'), '2, "cnt": 1}]', "listed twice"),
    (('"hints"', '"hint"'), '[{"type"', "unknown key 'hint'"),
    (('  "colSums": [2, 0, 1]\n', '  "colSums": [2, 0, 1],\n'), "}\n", "invalid JSON"),
    (('"rowSums": [1, 0, 2],\n', ""), "{\n", "has no 'rowSums'"),
    (('[{"type": "c", "row": 1, "col": 1}]', "true"), "{\n", "'hints' must be null or a list"),
    (('[{"size": 2', '[{"sise": 2'), '2, "cnt": 1}, {', "unknown key 'sise'"),
]


@pytest.mark.parametrize(("edit", "needle", "fragment"), MALFORMED_PYCSP3)
def test_malformed_pycsp3(edit: tuple[str, str], needle: str, fragment: str) -> None:
    assert edit[0] in PYCSP3
    text = PYCSP3.replace(*edit, 1)
    _assert_error("pycsp3_battleship", text, "p.json", *_where(text, needle), fragment)


def _dataset(**problems: object) -> str:
    data = {key: {"problem": value, "solution": None} for key, value in problems.items()}
    return json.dumps({"count": len(data), "name": "Battleship", "data": data}, indent=1)


def test_puzzlekit_small_dataset() -> None:
    text = _dataset(a=BATTLESHIP, b=BATTLESHIP.replace("o - -", "- - x"))
    loaded = load_with("puzzlekit_battleship", text, "d.json")
    assert [key for key, _ in loaded] == ["a", "b"] and loaded[1][1]["hint"][0][2] == "x"
    assert detect(text) == ["puzzlekit_battleship"]
    assert detect(_dataset(k=KAKURASU)) == ["puzzlekit_kakurasu"]


def test_puzzlekit_error_points_into_the_json_file() -> None:
    """An error inside an embedded problem text is reported at its place in the JSON file."""
    text = _dataset(a=BATTLESHIP, b="3 3\n1 1 1\n1 1 1\n- - -\n- q -\n- - -")
    err = _assert_error("puzzlekit_battleship", text, "d.json", *_where(text, "q"), "unknown grid token")
    assert "entry 'b'" in err.message and "line 5, column 3" in err.message
    text = _dataset(k=KAKURASU.replace("4 2 6", "4 2 \u00e9"))
    _assert_error("puzzlekit_kakurasu", text, "d.json", *_where(text, "\\u00e9"), "whole number")


@pytest.mark.parametrize(
    ("text", "needle", "fragment"),
    [
        (
            '{"data": {"a": {"problem": "3 3\\n1 2 3\\n1 2 3"}, "b": {"problem": 7}}}',
            '{"problem": 7',
            "entry 'b'",
        ),
        ('{"data": {"a": []}}', "[]", "entry 'a'"),
        ('{"name": "x"}', '{"name"', 'top-level "data"'),
        ('{"name": "x", "data": {}}', "{}", "no entries"),
        ('{"data": {"a": {"problem": "3 3"}},}', ",}", "invalid JSON"),
    ],
)
def test_malformed_puzzlekit(text: str, needle: str, fragment: str) -> None:
    line, column = _where(text, needle)
    _assert_error("puzzlekit_kakurasu", text, "d.json", line, column + (needle == ",}"), fragment)
