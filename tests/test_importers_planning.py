"""Santa Chilly and peg solitaire importers: real files load, formats are told apart, errors are located."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from puzzledsl.errors import DataError
from puzzledsl.importers import IMPORTERS, detect, load_with
from puzzledsl.importers.base import Broken
from tests.datasets import DATA, read_text, requires_data
from tests.test_importers import _assert_error

PLANNING = ("chilly_text", "chilly_json", "peg_board", "pddl_pegsol")

CHILLY_LEVEL = DATA / "chilly" / "ct-2023-28-level.txt"
CHILLY_LEVELS = DATA / "chilly" / "ct-2023-28-levels.json"
PEGSOL = DATA / "pegsol"
PDDL_PROBLEMS = [PEGSOL / "pegsol-08-strips" / f"{name}.pddl" for name in ("p01", "p20", "p29", "p30")] + [
    PEGSOL / "pegsol-sat11-strips" / f"{name}.pddl" for name in ("p01", "p20")
]
PDDL_DOMAINS = [PEGSOL / "pegsol-08-strips" / "p01-domain.pddl", PEGSOL / "pegsol-sat11-strips" / "domain.pddl"]
PEGS = dict(zip(PDDL_PROBLEMS, (5, 17, 28, 32, 16, 32)))  # as their comments say; sat11 p20 is 2008 p30

REAL_FILES = [("chilly_text", CHILLY_LEVEL), ("chilly_json", CHILLY_LEVELS)] + [
    ("pddl_pegsol", path) for path in PDDL_PROBLEMS
]
_IDS = [f"{name}-{path.parent.name}/{path.name}" for name, path in REAL_FILES]


def _where(text: str, needle: str, offset: int = 0) -> tuple[int, int]:
    """1-based line and column of the only occurrence of `needle` (plus `offset` characters)."""
    assert text.count(needle) == 1, needle
    pos = text.index(needle) + offset
    return text.count("\n", 0, pos) + 1, pos - (text.rfind("\n", 0, pos) + 1) + 1


def _count(board: list[list[str]], chars: str) -> int:
    return sum(char in chars for row in board for char in row)


def _check_chilly(givens: dict) -> None:
    assert set(givens) == {"board", "to_row", "to_col"}
    board = givens["board"]
    height, width = len(board), len(board[0])
    assert all(len(row) == width for grid in givens.values() for row in grid) and len(givens["to_row"]) == height
    for r, row in enumerate(board):
        for c, char in enumerate(row):
            assert type(char) is str and char in " T#O$PX"
            to = (givens["to_row"][r][c], givens["to_col"][r][c])
            if char == "O":
                assert board[to[0]][to[1]] == "O"
            else:
                assert to == (None, None)
    assert _count(board, "P") == _count(board, "X") == 1


def _check_peg(givens: dict) -> None:
    board = givens["board"]
    assert board and all(len(row) == len(board[0]) for row in board)
    assert all(type(char) is str and char in "o.*@ " for row in board for char in row)
    assert _count(board, "o@") >= 1


# --------------------------------------------------------------------------- real files


def test_registry() -> None:
    assert set(PLANNING) <= set(IMPORTERS)
    assert all(IMPORTERS[name].description for name in PLANNING)


@requires_data
@pytest.mark.parametrize(("name", "path"), REAL_FILES, ids=_IDS)
def test_real_file_loads_and_is_detected(name: str, path: Path) -> None:
    text = read_text(path)
    assert detect(text) == [name]
    instances = load_with(name, text, str(path))
    assert len(instances) == 1
    key, givens = instances[0]
    if name == "chilly_json":
        assert key == "Merry Xmas"
        _check_chilly(givens)
    elif name == "chilly_text":
        assert key == path.stem
        _check_chilly(givens)
    else:
        assert key == path.stem
        _check_peg(givens)
        assert givens["jumps"] == "square"
    for other in PLANNING:
        if other != name:
            with pytest.raises(DataError):
                load_with(other, text, str(path))


@requires_data
def test_chilly_text_and_json_agree() -> None:
    [(_, text_givens)] = load_with("chilly_text", read_text(CHILLY_LEVEL), str(CHILLY_LEVEL))
    [(_, json_givens)] = load_with("chilly_json", read_text(CHILLY_LEVELS), str(CHILLY_LEVELS))
    assert text_givens == json_givens
    board = text_givens["board"]
    assert (len(board), len(board[0])) == (40, 40)
    assert _count(board, "$") == 24 and _count(board, "O") == 3
    assert board[11][21] == "P" and board[38][39] == "X"
    # (x=39,y=9)->(3,38); (3,38)->(11,4); (11,4)->(39,9): x is the column, y the row
    holes = {
        (r, c): (text_givens["to_row"][r][c], text_givens["to_col"][r][c])
        for r, row in enumerate(board)
        for c, char in enumerate(row)
        if char == "O"
    }
    assert holes == {(9, 39): (38, 3), (38, 3): (4, 11), (4, 11): (9, 39)}
    assert text_givens["to_row"][0][0] is None and text_givens["to_col"][11][21] is None


@requires_data
def test_pddl_boards() -> None:
    english = [list(row) for row in ("  ooo  ", "  ooo  ", "ooooooo", "ooo*ooo", "ooooooo", "  ooo  ", "  ooo  ")]
    for path in (PEGSOL / "pegsol-08-strips" / "p30.pddl", PEGSOL / "pegsol-sat11-strips" / "p20.pddl"):
        [(_, givens)] = load_with("pddl_pegsol", read_text(path), str(path))
        board = givens["board"]
        assert board == english
        assert _count(board, "o.*@") == 33 and _count(board, "o@") == 32
        assert [(r, c) for r, row in enumerate(board) for c, ch in enumerate(row) if ch in "*@"] == [(3, 3)]
        assert givens["jumps"] == "square"
    for path in PDDL_PROBLEMS:
        [(_, givens)] = load_with("pddl_pegsol", read_text(path), str(path))
        board = givens["board"]
        assert (len(board), len(board[0])) == (7, 7) and _count(board, "o.*@") == 33
        # every problem ends with one peg in the centre
        assert [(r, c) for r, row in enumerate(board) for c, ch in enumerate(row) if ch in "*@"] == [(3, 3)]
        assert _count(board, "o@") == PEGS[path], path


@requires_data
@pytest.mark.parametrize("path", PDDL_DOMAINS, ids=lambda p: p.name)
def test_pddl_domain_is_no_problem(path: Path) -> None:
    """The sniff takes the domain file too, so that a user who gives it hears what to give instead."""
    text = read_text(path)
    assert detect(text) == ["pddl_pegsol"]
    _assert_error("pddl_pegsol", text, "d.pddl", 3, 10, "this is a domain file; give the problem file")


@requires_data
def test_no_other_data_file_is_claimed() -> None:
    """No file of the other genres under the shared data is taken by these sniffs."""
    ours = {CHILLY_LEVEL, CHILLY_LEVELS, *PDDL_PROBLEMS, *PDDL_DOMAINS}
    checked = 0
    for path in sorted(DATA.rglob("*")):
        if not path.is_file() or path in ours:
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        assert not set(detect(text)) & set(PLANNING), path
        checked += 1
    assert checked > 100


def test_peg_board_files_of_the_project() -> None:
    """The boards under puzzles/peg-solitaire (if present) read as peg_board and only as that."""
    folder = Path(__file__).resolve().parents[1] / "puzzles" / "peg-solitaire"
    for path in sorted(folder.glob("*.txt")):
        text = path.read_text(encoding="utf-8")
        [(key, givens)] = load_with("peg_board", text, str(path))
        assert key == path.stem
        _check_peg(givens)
        found = set(detect(text))
        if len(givens["board"]) >= 3:
            # a rectangle of only 'o' and '.' is also a Flow Free level to its sniff (one colour, 'o')
            assert found - {"flowfree"} == {"peg_board"}, path
        else:
            assert "peg_board" not in found, path  # too short to sniff: the rule file names the format


# --------------------------------------------------------------------------- small texts

CHILLY_TXT = "(1,0)->(0,2);(0,2)->(1,0)\nPO |\n $ |\nO X|\n"
CHILLY_GIVENS = {
    "board": [["P", "O", " "], [" ", "$", " "], ["O", " ", "X"]],
    "to_row": [[None, 2, None], [None] * 3, [0, None, None]],
    "to_col": [[None, 0, None], [None] * 3, [1, None, None]],
}
CHILLY_JSON = """[
 {"name": "small", "thresholds": [1, 2, 3],
  "data": ["PO ", " $ ", "O X"],
  "connections": [{"src": {"x": 1, "y": 0}, "dst": {"x": 0, "y": 2}},
                  {"src": {"x": 0, "y": 2}, "dst": {"x": 1, "y": 0}}]},
 {"data": ["P X"], "connections": []}
]
"""
PEG = "# a small board\n# (comment)\n\n ooo\no.*@o\n ooo\n"
PEG_GIVENS = {"board": [list(" ooo "), list("o.*@o"), list(" ooo ")]}

SQUARE = [(0, 1), (1, 0)]
TRIANGLE = [*SQUARE, (1, 1)]
KING = [*TRIANGLE, (1, -1)]


def _pddl(picture: list[str], directions: list[tuple[int, int]], origin: tuple[int, int] = (0, 0)) -> str:
    """A PDDL problem in the IPC style for a board picture: a hole at every non-blank character,
    IN-LINE both ways along every line of three holes in the directions, and the goal of the legend."""
    r0, c0 = origin
    holes = {(r + r0, c + c0): ch for r, row in enumerate(picture) for c, ch in enumerate(row) if ch != " "}

    def name(cell: tuple[int, int]) -> str:
        return f"pos-{cell[0]}-{cell[1]}"

    lines = ["; a test board", "(define (problem pegsolitaire-test)", "    (:domain pegsolitaire-sequential)"]
    lines += ["    (:objects"] + [f"        {name(cell)} - location" for cell in sorted(holes)] + ["    )"]
    lines += ["    (:init", "        (= (total-cost) 0)", "        (move-ended)"]
    for a in sorted(holes):
        for dr, dc in directions:
            b, c = (a[0] + dr, a[1] + dc), (a[0] + 2 * dr, a[1] + 2 * dc)
            if b in holes and c in holes:
                lines.append(f"        (IN-LINE {name(a)} {name(b)} {name(c)})")
                lines.append(f"        (IN-LINE {name(c)} {name(b)} {name(a)})")
    for cell, ch in sorted(holes.items()):
        lines.append(f"        ({'occupied' if ch in 'o@' else 'free'} {name(cell)})")
    lines += ["    )", "    (:goal (and"]
    for cell, ch in sorted(holes.items()):
        lines.append(f"        ({'occupied' if ch in '*@' else 'free'} {name(cell)})")
    lines += ["    ))", "    (:metric minimize (total-cost))", ")", ""]
    return "\n".join(lines)


PDDL_PICTURE = ["o.o", "o*o", "ooo"]
PDDL = _pddl(PDDL_PICTURE, SQUARE)

SMALL = [
    ("chilly_text", CHILLY_TXT, [("b", CHILLY_GIVENS)]),
    (
        "chilly_json",
        CHILLY_JSON,
        [("small", CHILLY_GIVENS), ("2", {"board": [["P", " ", "X"]], "to_row": [[None] * 3], "to_col": [[None] * 3]})],
    ),
    ("peg_board", PEG, [("b", PEG_GIVENS)]),
    ("pddl_pegsol", PDDL, [("b", {"board": [list(row) for row in PDDL_PICTURE], "jumps": "square"})]),
]


@pytest.mark.parametrize(("name", "text", "expected"), SMALL, ids=[s[0] for s in SMALL])
def test_small_text(name: str, text: str, expected: list) -> None:
    assert load_with(name, text, "dir/b.txt") == expected
    assert detect(text) == [name]
    crlf = text.replace("\n", "\r\n")
    assert detect(crlf) == [name]
    assert load_with(name, crlf + "\r\n  \r\n\n", "b.txt") == expected
    assert load_with(name, text.rstrip("\n"), "b.txt") == expected
    for other in PLANNING:
        if other != name:
            with pytest.raises(DataError):
                load_with(other, text, "b.txt")


def test_chilly_text_variants() -> None:
    spaced = " ( 1 , 0 ) -> ( 0 , 2 ) ; (0,2)->(1,0) ; \nPO |  \n $ |\nO X|\n"
    assert load_with("chilly_text", spaced, "b") == [("b", CHILLY_GIVENS)]
    assert detect(spaced) == ["chilly_text"]
    no_holes = "\nP  |\n $X|\n"
    assert detect(no_holes) == ["chilly_text"]
    [(_, givens)] = load_with("chilly_text", no_holes, "b")
    assert givens["board"] == [["P", " ", " "], [" ", "$", "X"]]
    assert givens["to_row"] == givens["to_col"] == [[None] * 3] * 2


def test_pddl_geometries() -> None:
    picture = ["ooo", "o.o", "ooo"]
    board = [list(row) for row in picture]
    for directions, jumps in ((SQUARE, "square"), (TRIANGLE, "triangle"), (KING, "king")):
        text = _pddl(picture, directions)
        assert detect(text) == ["pddl_pegsol"]
        assert load_with("pddl_pegsol", text, "g.pddl") == [("g", {"board": board, "jumps": jumps})]
    # a triangle board drawn as a staircase, placed away from row and column 0: the board is trimmed
    stairs = [".  ", "oo ", "o@o"]
    text = _pddl(stairs, TRIANGLE, origin=(2, 5))
    assert load_with("pddl_pegsol", text, "t.pddl") == [
        ("t", {"board": [list(r) for r in stairs], "jumps": "triangle"})
    ]
    # untyped objects, a goal of one literal (a 1-hole goal needs every other location free, so
    # only a board of one location is fully constrained by it... which has no line: use two rows)
    untyped = PDDL.replace(" - location", "")
    assert load_with("pddl_pegsol", untyped, "b") == load_with("pddl_pegsol", PDDL, "b")


def test_peg_board_is_not_the_comment_picture_of_pddl() -> None:
    """The PDDL files draw their boards in comments with '*' occupied and 'o' free: never a peg_board."""
    assert detect(";;     * * *\n;;     * o *\n;; * * * * *\n") == []


CHILLY_LIKE = [
    "(0,0)->(0,0)\n",  # connections but no board
    "PO |\n $ |\nO X|\n",  # no connection line: the first row is read as one
]
OTHER_GENRES = [
    "3 3\n1 - 3\n4 2 6\n",  # janko kakurasu
    "3\n2\n1 0 2\n0 0 0\n2 0 1\n",  # BWINF arukone
    "# two puzzles\n\n3 2\nA.B\nB.A\n",  # thomasahle
    "R.G\n...\nR.G\n",  # Flow Free
    "SIZE 3X2\nLINE_NUM 1\nLINE#1 (0,0)-(2,1)\n",  # DA Symposium
    '{"data": {"a": {"problem": "3 3"}}}',  # puzzlekit
    '[{"rowSums": [1]}]',  # a JSON list of something else
    "(define (problem x) (:domain blocks) (:init (on a b)))",  # another PDDL problem
    "",
]


@pytest.mark.parametrize("text", OTHER_GENRES + CHILLY_LIKE)
def test_other_texts_are_not_claimed(text: str) -> None:
    assert not set(detect(text)) & set(PLANNING)


# --------------------------------------------------------------------------- malformed texts

_CHILLY_ROWS = "\nPO |\n $ |\nO X|\n"
_CONN = "(1,0)->(0,2);(0,2)->(1,0)"

MALFORMED_TEXT = [
    # chilly_text: connections, then rows ending in '|'
    ("chilly_text", "", 1, 1, "holds no level"),
    ("chilly_text", "(1,0)->(0,2)\n", 1, 13, "no board"),
    ("chilly_text", "(1,0)->(0,2);(0,2)-(1,0)" + _CHILLY_ROWS, 1, 19, "expected '->'"),
    ("chilly_text", "(1,0)->(0,2) (0,2)->(1,0)" + _CHILLY_ROWS, 1, 14, "expected ';'"),
    ("chilly_text", "(1,0)->(0,2);(0,2)->(a,0)" + _CHILLY_ROWS, 1, 22, "expected x"),
    ("chilly_text", "(-1,0)->(0,2);(0,2)->(1,0)" + _CHILLY_ROWS, 1, 2, "expected x"),
    ("chilly_text", "(1,0)->(0,2);(0,2)->(1,0" + _CHILLY_ROWS, 1, 25, "expected ')'"),
    ("chilly_text", "(1,0)->(0,2);;(0,2)->(1,0)" + _CHILLY_ROWS, 1, 14, "expected '('"),
    ("chilly_text", CHILLY_TXT.replace("PO |", "PO "), 2, 4, "must end in '|'"),
    ("chilly_text", CHILLY_TXT.replace(" $ |", " $|"), 3, 3, "2 cells, expected 3"),
    ("chilly_text", CHILLY_TXT.replace(" $ |", " $  |"), 3, 4, "4 cells, expected 3"),
    ("chilly_text", CHILLY_TXT.replace(" $ |", " % |"), 3, 2, "unexpected character '%'"),
    ("chilly_text", CHILLY_TXT.replace(" $ |", " o |"), 3, 2, "unexpected character 'o'"),
    ("chilly_text", CHILLY_TXT.replace("PO |", " O |"), 2, 1, "no start 'P'"),
    ("chilly_text", CHILLY_TXT.replace("O X|", "O  |"), 2, 1, "no exit 'X'"),
    ("chilly_text", CHILLY_TXT.replace(" $ |", " X |"), 4, 3, "a second exit 'X'"),
    ("chilly_text", CHILLY_TXT.replace(" $ |", "P$ |"), 3, 1, "a second start 'P'"),
    ("chilly_text", CHILLY_TXT.replace(_CONN, "(1,0)->(5,2);(0,2)->(1,0)"), 1, 9, "x = 5 is outside"),
    ("chilly_text", CHILLY_TXT.replace(_CONN, "(1,0)->(0,2);(0,7)->(1,0)"), 1, 17, "y = 7 is outside"),
    ("chilly_text", CHILLY_TXT.replace(_CONN, "(2,0)->(0,2);(0,2)->(1,0)"), 1, 1, "source (2,0) is ' '"),
    ("chilly_text", CHILLY_TXT.replace(_CONN, "(1,0)->(1,1);(0,2)->(1,0)"), 1, 8, "destination (1,1) is '$'"),
    ("chilly_text", CHILLY_TXT.replace(_CONN, _CONN + ";(1,0)->(0,2)"), 1, 27, "a second connection from hole (1,0)"),
    ("chilly_text", CHILLY_TXT.replace(_CONN, "(1,0)->(0,2)"), 4, 1, "hole (0,2) has no connection"),
    ("chilly_text", CHILLY_TXT.replace(_CONN, ""), 2, 2, "hole (1,0) has no connection"),
    ("chilly_text", CHILLY_TXT.replace(" $ |\n", "\n $ |\n"), 3, 1, "blank line"),
    ("chilly_text", _CONN + "\n|\nPX|\n", 2, 1, "first row of the board is empty"),
    ("chilly_text", CHILLY_TXT.replace("\n", "\r\n").replace("O X|", "O X"), 4, 4, "must end in '|'"),
    # peg_board
    ("peg_board", "", 1, 1, "holds no board"),
    ("peg_board", "# only\n", 1, 7, "holds no board"),
    ("peg_board", PEG.replace("o.*@o", "o.x@o"), 5, 3, "unexpected character 'x'"),
    ("peg_board", PEG.replace("o.*@o", "o.*@o\t"), 5, 6, "unexpected character '\\t'"),
    ("peg_board", PEG.replace(" ooo\n", " ...\n").replace("o.*@o", "..*.."), 4, 1, "no peg"),
    ("peg_board", PEG.replace("o.*@o\n", "\no.*@o\n"), 5, 1, "blank line"),
    ("peg_board", PEG.replace("o.*@o\n", "# late comment\no.*@o\n"), 5, 1, "unexpected character '#'"),
    ("peg_board", "ooo\nO.o\nooo\n", 2, 1, "unexpected character 'O'"),
]


@pytest.mark.parametrize(("name", "text", "line", "column", "fragment"), MALFORMED_TEXT)
def test_malformed_text(name: str, text: str, line: int, column: int, fragment: str) -> None:
    _assert_error(name, text, "bad.txt", line, column, fragment)


# chilly_json: (edit, where, fragment)
MALFORMED_JSON = [
    (("]\n", "\n"), (8, 1), "invalid JSON: Expecting ',' delimiter"),
    (("[\n", "{\n"), (2, 2), "invalid JSON: Expecting property name"),
    (('"data": ["PO ", " $ ", "O X"]', '"data": "PO "'), ('"PO "', 0), '"data" must be a non-empty list'),
    (('"data": ["PO ", " $ ", "O X"]', '"data": ["PO ", 3, "O X"]'), ("3, ", 0), '"data" must be'),
    (('" $ "', '" & "'), ('" & "', 2), "unexpected character '&'"),
    (('" $ "', '" $"'), ('" $"', 3), "2 cells, expected 3"),
    (('"O X"', '"O \\u0058\\""'), ('\\"', 0), "4 cells, expected 3"),
    (('"x": 1, "y": 0}, "dst"', '"x": "1", "y": 0}, "dst"'), ('"1"', 0), 'src\'s "x" must be a whole number'),
    (('"x": 1, "y": 0}, "dst"', '"x": 1, "y": -1}, "dst"'), ("-1", 0), '"y" must be a whole number'),
    (('"x": 1, "y": 0}, "dst"', '"x": 1, "y": 5}, "dst"'), ("5}", 0), "y = 5 is outside the board (0 to 2)"),
    (('"dst": {"x": 0, "y": 2}}', '"dst": {"x": 1, "y": 1}}'), ('"x": 1, "y": 1', -1), "destination (1,1) is '$'"),
    (('"dst": {"x": 0, "y": 2}}', '"to": {"x": 0, "y": 2}}'), ('{"src": {"x": 1', 0), "needs 'dst'"),
    (('"connections": []', '"connections": 5'), ("5}", 0), 'level 2: "connections" must be a list'),
    (
        (',\n                  {"src": {"x": 0, "y": 2}, "dst": {"x": 1, "y": 0}}', ""),
        ('"O X"', 1),
        "level 1 ('small'): hole (0,2) has no connection",
    ),
    (
        ('{"src": {"x": 0, "y": 2}, "dst"', '{"src": {"x": 0, "y": 2}, "to"'),
        ('{"src": {"x": 0, "y": 2}', 0),
        "a connection needs 'dst'",
    ),
    (('{"data": ["P X"], ', '[], {"data": ["P X"], '), ("[], ", 0), "level 2: must be a JSON object"),
    (('"name": "small"', '"name": 7'), ("7", 0), '"name" must be a non-empty string'),
    (('{"data": ["P X"]', '{"name": "small", "data": ["P X"]'), ('"small", "data": ["P X"]', 0), "used twice"),
    (('"P X"', '"P  "'), ('["P  "]', 0), "level 2: the board has no exit"),
]


@pytest.mark.parametrize(("edit", "where", "fragment"), MALFORMED_JSON)
def test_malformed_chilly_json(edit: tuple[str, str], where: tuple, fragment: str) -> None:
    """`where` is the (needle, offset) of the expected position in the edited text, or its (line, column)."""
    assert CHILLY_JSON.count(edit[0]) == 1, edit
    text = CHILLY_JSON.replace(*edit)
    line, column = where if isinstance(where[0], int) else _where(text, *where)
    _assert_error("chilly_json", text, "bad.json", line, column, fragment)


def test_chilly_json_bad_level_spares_the_others() -> None:
    text = CHILLY_JSON.replace('"P X"', '"P ?"')
    instances = load_with("chilly_json", text, "l.json")
    assert instances[0] == ("small", CHILLY_GIVENS)
    key, broken = instances[1]
    assert key == "2" and isinstance(broken, Broken)
    assert "level 2" in broken.error.message and "'?'" in broken.error.message
    assert (broken.error.span.line, broken.error.span.column) == _where(text, '"P ?"', 3)
    # when every level is bad, loading the file fails at once
    _assert_error("chilly_json", '[{"data": ["X"]}]', "one.json", 1, 11, "no start 'P'")
    _assert_error("chilly_json", "[]", "none.json", 1, 1, "non-empty JSON list")


# pddl_pegsol: (edit of PDDL, where: (needle, offset) in the edited text, fragment)
MALFORMED_PDDL = [
    (("(define", "(defin"), ("(defin", 0), "expected `(define (problem NAME) ...)`"),
    (("(total-cost))\n)\n", "(total-cost))\n)\n(extra)\n"), ("(extra)", 0), "unexpected text after"),
    (("(total-cost))\n)\n", "(total-cost))\n))\n"), ("\n))\n", 2), "unmatched ')'"),
    (("(problem pegsolitaire-test)", "(problme x)"), ("(problme", 0), "expected `(problem NAME)`"),
    (("    (:domain pegsolitaire-sequential)", "    :domain pegsolitaire"), (":domain", 0), "expected a section"),
    (("pos-0-0 - location", "cell-0-0 - location"), ("cell-0-0", 0), "expected a location `pos-ROW-COLUMN`"),
    (("pos-0-0 - location", "pos-0-0 - peg"), ("- peg", 2), "unexpected type 'peg'"),
    (
        ("pos-0-1 - location", "pos-0-0 - location"),
        ("        pos-0-0 - location\n        pos-0-2", 8),
        "declared twice",
    ),
    (("pos-0-2 - location", "pos-00-1 - location"), ("pos-00-1", 0), "names the same hole as pos-0-1 on line 6"),
    (
        ("(occupied pos-2-2)\n    )", "(occupied pos-2-2)\n        (occupied pos-9-9)\n    )"),
        ("pos-9-9", 0),
        "'pos-9-9' is not a location declared in :objects",
    ),
    (
        ("(occupied pos-2-2)\n    )", "(occupied pos-2-2)\n        (free pos-2-2)\n    )"),
        ("(free pos-2-2)\n    )\n", 0),
        "pos-2-2 is free but it is occupied on line 38",
    ),
    (
        ("        (free pos-0-1)\n        (occupied pos-0-2)", "        (occupied pos-0-2)"),
        ("(:init", 0),
        "neither occupied nor free for pos-0-1",
    ),
    (("(move-ended)", "(last-visited pos-0-0)"), ("(last-visited", 0), "unexpected fact (last-visited"),
    (("(move-ended)", "move-ended"), ("move-ended", 0), "expected a fact"),
    (
        ("(IN-LINE pos-0-0 pos-1-0 pos-2-0)", "(IN-LINE pos-0-0 pos-1-0)"),
        ("(IN-LINE pos-0-0 pos-1-0)", 0),
        "(in-line ...) takes 3 locations",
    ),
    (
        ("(IN-LINE pos-0-0 pos-1-0 pos-2-0)", "(IN-LINE pos-0-0 pos-1-0 pos-2-0 pos-2-1)"),
        ("pos-2-0 pos-2-1)", 8),
        "takes 3 locations",
    ),
    (
        ("(IN-LINE pos-0-0 pos-1-0 pos-2-0)", "(IN-LINE pos-0-0 pos-1-0 pos-1-1)"),
        ("(IN-LINE pos-0-0 pos-1-0 pos-1-1)", 0),
        "not three neighbouring holes in a straight line",
    ),
    (
        ("(IN-LINE pos-0-0 pos-1-0 pos-2-0)", "(IN-LINE pos-0-0 pos-0-0 pos-0-0)"),
        ("(IN-LINE pos-0-0 pos-0-0 pos-0-0)", 0),
        "not three neighbouring holes",
    ),
    (
        ("        (IN-LINE pos-0-0 pos-1-0 pos-2-0)\n", ""),
        ("(:init", 0),
        "(IN-LINE pos-0-0 pos-1-0 pos-2-0) is missing",
    ),
    (("        (occupied pos-1-1)\n", ""), ("(:goal", 0), "does not say whether pos-1-1 ends occupied or free"),
    (
        ("(free pos-2-2)\n    ))", "(free pos-2-2)\n        (occupied pos-2-2)\n    ))"),
        ("(occupied pos-2-2)\n    ))", 0),
        "both free and occupied",
    ),
    (("(free pos-2-2)\n    ))", "(not (occupied pos-2-2))\n    ))"), ("(not", 0), "unsupported goal"),
    (("(:goal (and", "(:goal (free pos-0-0) (and"), ("(and", 0), "expected one goal formula"),
    (
        ("(:metric minimize (total-cost))", "(:constraints (always (free pos-0-0)))"),
        ("(:constraints", 0),
        "unsupported section (:constraints",
    ),
    (("    (:objects", "    (:init)\n    (:objects"), ("(:init\n", 0), "a second (:init ...) section"),
    (("(:metric minimize (total-cost))", "(:metric minimize (total-cost)) (:goal)"), ("(:goal)", 0), "a second (:goal"),
]


def _pddl_case(edit: tuple[str, str], where: tuple[str, int]) -> tuple[str, tuple[int, int]]:
    assert PDDL.count(edit[0]) == 1, edit
    text = PDDL.replace(*edit)
    return text, _where(text, *where)


@pytest.mark.parametrize(("edit", "where", "fragment"), MALFORMED_PDDL)
def test_malformed_pddl(edit: tuple[str, str], where: tuple[str, int], fragment: str) -> None:
    text, (line, column) = _pddl_case(edit, where)
    _assert_error("pddl_pegsol", text, "bad.pddl", line, column, fragment)


def test_malformed_pddl_more() -> None:
    # the define never closes: the error is at its '('
    text = PDDL[: PDDL.rindex(")")]
    _assert_error("pddl_pegsol", text, "p.pddl", *_where(text, "(define"), "never closed")
    _assert_error("pddl_pegsol", "", "p.pddl", 1, 1, "no PDDL")
    _assert_error("pddl_pegsol", "; only a comment\n", "p.pddl", 1, 1, "no PDDL")
    # a board without pegs
    empty = _pddl(["...", ".*."], SQUARE)
    _assert_error("pddl_pegsol", empty, "p.pddl", *_where(empty, "(:init"), "no location is occupied")
    # only rows, no columns: the IN-LINE facts give a geometry the rules do not know
    rows = _pddl(["ooo", "o*o"], [(0, 1)])
    _assert_error("pddl_pegsol", rows, "p.pddl", *_where(rows, "(:init"), "directions (row, column) (0,-1), (0,1)")
    anti = _pddl(["ooo", "o*o", "ooo"], [*SQUARE, (1, -1)])
    _assert_error("pddl_pegsol", anti, "p.pddl", *_where(anti, "(:init"), "(-1,1)")
    # no :goal section; no location at all
    text = PDDL[: PDDL.index("    (:goal")] + ")\n"
    _assert_error("pddl_pegsol", text, "p.pddl", *_where(text, "(define"), "no (:goal ...) section")
    text = PDDL.replace(PDDL[PDDL.index("(:objects") : PDDL.index("(:init")], "(:objects)\n    ")
    _assert_error("pddl_pegsol", text, "p.pddl", *_where(text, "(:objects"), "declares no location")
    # the goal may say occupied twice for one location, but not for none of them
    text = PDDL.replace("(:goal (and", "(:goal (and (occupied pos-1-1)")
    assert load_with("pddl_pegsol", text, "p") == load_with("pddl_pegsol", PDDL, "p")
    # a domain file written by hand
    text = "(define (domain pegsolitaire-sequential)\n  (:predicates (IN-LINE ?x ?y ?z) (occupied ?l)))\n"
    assert detect(text) == ["pddl_pegsol"]
    _assert_error("pddl_pegsol", text, "d.pddl", 1, 10, "domain file")


# --------------------------------------------------------------------------- no input crashes a reader


@pytest.mark.parametrize(("name", "text"), [(s[0], s[1]) for s in SMALL])
def test_every_cut_and_deletion_is_located(name: str, text: str) -> None:
    """Any prefix of a small file, and the file without any one character, reads or raises a located
    DataError: never another exception."""
    variants = {text[:i] for i in range(len(text))} | {text[:i] + text[i + 1 :] for i in range(len(text))}
    for variant in sorted(variants):
        try:
            for _, givens in load_with(name, variant, "v.txt"):
                if isinstance(givens, Broken):
                    raise givens.error
        except DataError as err:
            assert err.span is not None and err.span.line >= 1 and err.span.column >= 1, (variant, err.message)


def test_json_rows_are_checked_like_text_rows() -> None:
    """The JSON board goes through the same checks as the text board: the same givens, the same messages."""
    level = {
        "name": "n",
        "data": ["PO ", " $ ", "O X"],
        "connections": [
            {"src": {"x": 1, "y": 0}, "dst": {"x": 0, "y": 2}},
            {"src": {"x": 0, "y": 2}, "dst": {"x": 1, "y": 0}},
        ],
    }
    assert load_with("chilly_json", json.dumps([level]), "j") == [("n", CHILLY_GIVENS)]
