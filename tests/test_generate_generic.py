"""`puzzledsl generate RULES` (issue 13): puzzles of ten bundled genres, each re-verified unique
by `puzzledsl verify`, its solution passed by an independent checker, and its clue set
minimal (without any one clue the puzzle is no longer unique), checked by compiling and
solving the puzzle again, not with the generator's guarded model."""

from __future__ import annotations

import json
import random
from itertools import permutations
from pathlib import Path

import pytest

from puzzledsl.cli import main
from puzzledsl.compile import compile_file
from puzzledsl.generate import Generator, Request
from puzzledsl.generate_cli import data_text, plain_givens
from puzzledsl.uniqueness import decide
from tests.checkers import check_battleship, check_kakurasu
from tests.genre_checkers import (
    check_akari,
    check_binairo,
    check_fillomino,
    check_hidoku,
    check_kuromasu,
    check_mosaic,
    check_skyscraper,
    check_sudoku,
)
from tests.graph_checkers import check_slitherlink, edge

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles"


def _janko(header: str, *grids: list[list[object]]) -> str:
    """A janko-style problem text: a header, then rows of tokens (`-` for an open cell)."""
    rows = [" ".join("-" if x is None else str(x) for x in row) for g in grids for row in g]
    return "\n".join([header, *rows]) + "\n"


def _tokens(grid: list[list[object]], true: str = "x", false: str = "-") -> list[list[str]]:
    return [[(true if v else false) if isinstance(v, bool) else str(v) for v in row] for row in grid]


def _kakurasu(g: dict, sol: dict) -> list[str]:
    return check_kakurasu(g["rowsum"], g["colsum"], sol["black"])


def _battleship(g: dict, sol: dict) -> list[str]:
    return check_battleship(g["rowsum"], g["colsum"], [3, 2, 1], [["-" if t is None else t for t in row]
                                                                  for row in g["hint"]], sol["ship"])


def _grid_check(check, given: str, var: str, extra: str = ""):
    def run(g: dict, sol: dict) -> list[str]:
        grid = g[given]
        return check(_janko(f"{len(grid)} {len(grid[0])} {extra}".strip(), grid), _tokens(sol[var]))
    return run


def _hidoku(g: dict, sol: dict) -> list[str]:
    """The number of each cell is the k with `at[r][c][k - 1]` (the rules draw it as a view)."""
    grid = g["number"]
    numbers = [[str(row.index(True) + 1) for row in cells] for cells in sol["at"]]
    return check_hidoku(_janko(f"{len(grid)} {len(grid[0])}", grid), numbers)


def _slitherlink(g: dict, sol: dict) -> list[str]:
    return check_slitherlink(g["clue"], {edge(tuple(p), tuple(q)) for p, q in sol["line"]})


def _skyscraper(g: dict, sol: dict) -> list[str]:
    views = [[g[k]] for k in ("from_top", "from_bottom", "from_left", "from_right")]
    n = len(g["grid"])
    return check_skyscraper(_janko(f"{n} {n} {n}", *views, g["grid"]), _tokens(sol["height"]))


def _akari(g: dict, sol: dict) -> list[str]:
    board = [["x" if v == 9 else v for v in row] for row in g["board"]]
    return check_akari(_janko(f"{len(board)} {len(board[0])}", board), _tokens(sol["light"], "o"))


# genre, size, --set, --keep, independent check
CASES = [
    ("kakurasu", "5x5", (), (), _kakurasu),
    ("battleship", "6x6", ("fleet=[3, 2, 1]",), ("rowsum", "colsum"), _battleship),
    # every clue removable: the fleet rule reads all row counts, the guarded model is a relaxation
    ("battleship", "6x6", ("fleet=[3, 2, 1]",), (), _battleship),
    ("sudoku", "4x4", (), (), _grid_check(check_sudoku, "grid", "x")),
    ("mosaic", "5x5", (), (), _grid_check(check_mosaic, "clue", "black")),
    ("slitherlink", "4x4", (), (), _slitherlink),
    ("kuromasu", "5x5", (), (), _grid_check(check_kuromasu, "clue", "black")),
    ("binairo", "6x6", (), (), _grid_check(check_binairo, "grid", "digit")),
    ("hidoku", "4x4", (), (), _hidoku),
    ("skyscraper", "4x4", ("H=4",), (), _skyscraper),
    # an open cell says something (it must be lit), and a rule reads many cells (a light's ray)
    ("akari", "6x6", (), (), _akari),
    # the clues' values bound by the board (friction log 17: `generate fillomino` needed --values)
    ("fillomino", "5x5", (), (), _grid_check(check_fillomino, "clue", "n")),
]


def _solve(rules: Path, data: Path) -> tuple[bool | None, dict]:
    out = decide(compile_file(rules, data))
    sol = {k: v.nested() for k, v in out.solutions[0].items()} if out.solutions else {}
    return out.unique, sol


@pytest.mark.parametrize("genre, size, settings, keep, check", CASES,
                         ids=[c[0] + ("-kept" if c[3] else "") for c in CASES])
def test_generated_puzzle_is_unique_valid_and_minimal(tmp_path, genre, size, settings, keep, check):
    rules = PUZZLES / f"{genre}.puz"
    gen = Generator(Request(rules, size, settings, keep=keep))
    p = gen.puzzle(random.Random(7))
    data = tmp_path / "puzzle.txt"
    data.write_text(data_text(gen.rules, p.givens, gen.decls, gen.setting_lines, genre))
    assert main(["verify", str(rules), str(data), "--jobs", "1"]) == 0  # unique, by `verify`
    unique, sol = _solve(rules, data)
    assert unique is True
    givens = plain_givens(gen.rules, p.givens, gen.decls)
    assert check(givens, sol) == []
    # minimal: each clue that may go (not a kept grid) is needed
    removable = [(n, k) for n in gen.decls if n not in keep for k, v in p.givens[n].cells.items() if v is not None]
    assert removable and 0 < p.clues <= p.full
    for name, key in removable:
        fewer = dict(p.givens)
        grid = p.givens[name]
        fewer[name] = type(grid)(grid.name, grid.dims, {**grid.cells, key: None}, grid.boundary, grid.outside)
        data.write_text(data_text(gen.rules, fewer, gen.decls, gen.setting_lines, genre))
        assert _solve(rules, data)[0] is False, f"{genre}: the clue {name}{list(key)} can go"


def test_same_seed_same_files_and_json(tmp_path, capsys):
    args = ["generate", "kakurasu", "--size", "4x4", "--count", "2", "--seed", "5"]
    assert main([*args, "--out", str(tmp_path / "a")]) == 0
    assert main([*args, "--out", str(tmp_path / "b")]) == 0
    a = sorted(p.name for p in (tmp_path / "a").iterdir())
    assert a == ["kakurasu-4x4-5-1.txt", "kakurasu-4x4-5-2.txt"]
    assert all((tmp_path / "a" / n).read_text() == (tmp_path / "b" / n).read_text() for n in a)
    capsys.readouterr()
    assert main([*args, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["made"] == 2 and set(out["puzzles"][0]["givens"]) == {"R", "C", "rowsum", "colsum"}  # a whole data set
    data = tmp_path / "p.json"  # the givens object is a JSON data file
    data.write_text(json.dumps(out["puzzles"][0]["givens"]))
    assert main(["solve", "kakurasu", "--data", str(data), "--unique", "--json"]) == 0


def test_workers_write_the_same_puzzles(tmp_path):
    """Puzzle i comes from the seed and i alone: two worker processes write what one does."""
    args = ["generate", "kakurasu", "--size", "5x5", "--count", "4", "--seed", "3"]
    assert main([*args, "--out", str(tmp_path / "one")]) == 0
    assert main([*args, "--jobs", "2", "--out", str(tmp_path / "two")]) == 0
    names = sorted(p.name for p in (tmp_path / "one").iterdir())
    assert names == sorted(p.name for p in (tmp_path / "two").iterdir()) and len(names) == 4
    assert all((tmp_path / "one" / n).read_text() == (tmp_path / "two" / n).read_text() for n in names)


def test_workers_stop_at_the_time_limit(capsys):
    assert main(["generate", "kakurasu", "--size", "14x14", "--count", "50", "--jobs", "2",
                 "--time-limit", "0.5", "--json"]) == 3
    out = json.loads(capsys.readouterr().out)
    assert out["made"] < 50 and out["error"]["kind"] == "time_limit"
    assert out["error"]["text"] == out["error"]["message"] == "the time limit passed"


@pytest.mark.parametrize("argv, code, words", [
    (["generate", "kakurasu", "--size", "4x4", "--jobs", "0"], 2, "--jobs take"),
    (["generate", "no-such-genre.puz", "--size", "5x5"], 2, "no-such-genre"),
    (["generate", "hitori", "--size", "5x5"], 2, "no clue grid"),
    (["generate", "sudoku", "--size", "5x5"], 2, "N is a square"),
    (["generate", "binairo", "--size", "5x5"], 1, "no solution at this size"),
    (["generate", "kakurasu", "--size", "five"], 2, "--size takes"),
    (["generate", "kakurasu", "--size", "0x0"], 2, "at least one row"),  # wrote an empty puzzle
    (["generate", "kakurasu", "--size", "4x4", "--keep", "rowsum,colsum"], 2, "no clue to remove"),
    (["generate", "battleship", "--size", "6x6"], 2, "fleet"),
    (["generate", "kakurasu", "--size", "4x4", "--clues", "black"], 2, "not a clue grid"),
    # sized by its clues (the number of dots): a located error saying why, not a bare "empty domain"
    (["generate", "galaxies", "--size", "5x5"], 2, "on a board without clues first, and there: empty domain"),
])
def test_bad_input_is_a_clear_error(capsys, argv, code, words):
    assert main(argv) == code
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err


def test_size_on_rules_of_a_fixed_size_says_to_leave_it_out(tmp_path, capsys):
    """A board fixed in the rules (`[1..4, 1..4]`) has no size given to set: the help says so."""
    f = tmp_path / "fixed.puz"
    f.write_text("given num[1..4, 1..4]: int? in 1..4\nvar x[1..4, 1..4]: 1..4\n"
                 "rule forall p in cells(num) where known(num[p]): x[p] == num[p]\n")
    assert main(["generate", str(f), "--size", "4x4"]) == 2
    assert "leave --size out" in capsys.readouterr().err


SUKORO = """given R: int
given C: int
given clue[1..R, 1..C]: int? in 1..4 legend { ".": ?, "#": 0 }
var d[1..R, 1..C]: 0..4 outside 0
rule forall p in cells(clue) where known(clue[p]): d[p] == clue[p]
rule forall p in cells(d): d[p] != 0 -> d[p] == count(q in neighbours(d, p): d[q] != 0)
rule forall (p, q) in adjacent(d): not (d[p] != 0 and d[p] == d[q])
option minfill: int = 0
rule count(p in cells(d): d[p] != 0) >= minfill
rule connected(p in cells(d): d[p] != 0)
"""


def test_a_puzzle_of_one_clue_only_is_passed_over(tmp_path, capsys):
    """Rules that allow a blank board gave puzzles of `#` only (friction log 14's Sukoro), and a
    Slitherlink of `0`s around a one-cell loop (friction log 15): such puzzles are passed over, and
    when every sample gives one, `generate` says why and names the remedy; with the option it
    suggests, the clues are digits too."""
    f = tmp_path / "sukoro.puz"
    f.write_text(SUKORO)
    assert main(["generate", str(f), "--size", "5x5", "--seed", "2", "--tries", "1"]) == 1  # its one sample is blank
    out, err = capsys.readouterr()
    assert "every unique puzzle found had `#` as its only clue" in err and "--option minfill=20" in err
    assert main(["generate", str(f), "--size", "5x5", "--seed", "2", "--tries", "5"]) == 0  # the next one is not
    board = capsys.readouterr().out.split('clue = """', 1)[1].split('"""', 1)[0]
    assert any(ch in board for ch in "1234")
    assert main(["generate", str(f), "--size", "5x5", "--seed", "2", "--option", "minfill=8"]) == 0
    out, err = capsys.readouterr()
    board = out.split('clue = """', 1)[1].split('"""', 1)[0]
    assert "warning" not in err and any(ch in board for ch in "1234")


CREEK = """given R: int
given C: int
given clue[0..R, 0..C]: int? in 0..4 legend { ".": ? }
var black[1..R, 1..C]: bool outside false
rule forall (i, j) in cells(clue) where known(clue[i, j]):
  count(dr in 0..1, dc in 0..1: black[i + dr, j + dc]) == clue[i, j]
rule connected(p in cells(black): not black[p])
"""


def test_size_is_the_board_when_clues_sit_on_its_corners(tmp_path, capsys):
    """Clues on the corners (`clue[0..R, 0..C]`): --size 3x4 is the board of cells (R = 3, C = 4,
    a 4x5 clue grid), as two new users took it; it set the clue grid's size. Where the only
    grid runs from 0, a size that leaves no board is an error (it wrote a 0x0 puzzle)."""
    f = tmp_path / "creek.puz"
    f.write_text(CREEK)
    assert main(["generate", str(f), "--size", "3x4", "--seed", "1", "--json"]) == 0
    givens = json.loads(capsys.readouterr().out)["puzzles"][0]["givens"]
    assert (givens["R"], givens["C"], len(givens["clue"]), len(givens["clue"][0])) == (3, 4, 4, 5)
    assert main(["generate", str(f)]) == 2  # no size at all: said "unknown name `R`" of a declared given
    assert "the size of `clue` is not known: `R`, `C` have no value yet" in capsys.readouterr().err
    g = tmp_path / "corners.puz"
    g.write_text("given R: int\ngiven C: int\ngiven clue[0..R, 0..C]: int? in 0..1\n"
                 "var x[0..R, 0..C]: 0..1\nrule forall p in cells(clue) where known(clue[p]): x[p] == clue[p]\n")
    assert main(["generate", str(g), "--size", "1x1"]) == 2
    assert "makes `R` = 0" in capsys.readouterr().err


def test_options_may_come_before_the_rules_name(tmp_path, capsys):
    """`generate --size 4x4 kakurasu` (a friction log): the same puzzles as with the name first;
    options before a genre's own generator go to it; without any name, argparse says so."""
    assert main(["generate", "kakurasu", "--size", "4x4", "--seed", "5", "--json"]) == 0
    first = [p["givens"] for p in json.loads(capsys.readouterr().out)["puzzles"]]
    assert main(["generate", "--size", "4x4", "--seed=5", "kakurasu", "--json"]) == 0
    assert [p["givens"] for p in json.loads(capsys.readouterr().out)["puzzles"]] == first
    assert main(["generate", "--size", "5", "--pairs", "3", "--seed", "1", "--verify", "fast", "arukone",
                 "--out", str(tmp_path)]) == 0  # a genre's own generator, its options first
    assert len(list(tmp_path.iterdir())) == 1 and "wrote 1 of 1" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit:
        main(["generate", "--size", "4x4"])
    assert exit.value.code == 2 and "required: genre" in capsys.readouterr().err


@pytest.mark.parametrize("rules, help_words, fix", [
    # int clues say which values they take
    ("given N: int\ngiven clue[1..N]: int?\nvar x[1..N]: bool\n"
     "rule forall i in 1..N where known(clue[i]): count(j in 1..i: x[j]) == clue[i]\n",
     "--values clue=LO..HI", ["--values", "clue=0..3", "--seed", "2"]),
    # a grid kept only for drawing (a new user's Creek canvas): the help names --clues
    ("given N: int\ngiven num[1..N]: int? in 0..1\ngiven canvas[1..N]: int? = ?\n"
     "var x[1..N]: bool\nrule forall i in 1..N where known(num[i]): x[i] == (num[i] == 1)\n",
     "--clues num", ["--clues", "num", "--seed", "1"]),
])
def test_clues_of_unknown_values_are_explained(tmp_path, capsys, rules, help_words, fix):
    f = tmp_path / "r.puz"
    f.write_text(rules)
    assert main(["generate", str(f), "--set", "N=3"]) == 2
    assert help_words in capsys.readouterr().err
    assert main(["generate", str(f), "--set", "N=3", *fix]) == 0


def test_an_instance_file_s_own_data_gives_the_sizes(tmp_path, capsys):
    """A file that `use`s the rules and sets a fixed grid (regions) sizes the board by that grid's
    shape, as `solve` does (a friction log: "the size of `num` is not known: unknown name `R`")."""
    (tmp_path / "rooms.puz").write_text(
        "given R: int\ngiven C: int\ngiven room[1..R, 1..C]: sym\ngiven num[1..R, 1..C]: int? in 0..4 = ?\n"
        "var black[1..R, 1..C]: bool\n"
        "rule forall p in cells(num) where known(num[p]):\n"
        "  count(q in cells(room, room[p]): black[q]) == num[p]\n")
    (tmp_path / "layout.puz").write_text('use "rooms"\nroom = """\naab\nabb\n"""\n')
    assert main(["generate", str(tmp_path / "layout.puz"), "--seed", "1"]) == 0
    assert "num = " in capsys.readouterr().out
    # an instance's clues are replaced, so their size does not bind the board: --size does
    assert main(["generate", "kakurasu/seed-5x5.puz", "--size", "6x6", "--seed", "1"]) == 0
    assert "rowsum = [" in capsys.readouterr().out


ROOMS = ("given R: int\ngiven C: int\ngiven room[1..R, 1..C]: sym\ngiven num[1..R, 1..C]: int? in 0..4 = ?\n"
         "var black[1..R, 1..C]: bool\n"
         "rule forall p in cells(num) where known(num[p]):\n"
         "  count(q in cells(room, room[p]): black[q]) == num[p]\n")


def _rooms_solutions(room: list[str], num: list[list[int | None]]) -> int:
    """Shadings where every clue counts the shaded cells of its room: by brute force."""
    cells = [(r, c) for r in range(len(room)) for c in range(len(room[0]))]
    found = 0
    for bits in range(1 << len(cells)):
        black = {p for i, p in enumerate(cells) if bits >> i & 1}
        found += all(sum(room[q[0]][q[1]] == room[r][c] for q in black) == num[r][c]
                     for r, c in cells if num[r][c] is not None)
    return found


@pytest.mark.parametrize("data", ['use "rooms"\nroom = """\naabb\nacbb\nccdd\n"""\n',
                                  '{"room": ["aabb", "acbb", "ccdd"]}'])
def test_generate_takes_fixed_givens_from_a_data_file(tmp_path, capsys, data):
    """Friction log 18: the regions of a board came only through `--set`, a multi-line value on
    the command line; `--data FILE` reads them as `solve --data` would (text or JSON), and --set
    still overrides a name the file gives."""
    (tmp_path / "rooms.puz").write_text(ROOMS)
    layout = tmp_path / ("layout.json" if data.startswith("{") else "layout.txt")
    layout.write_text(data)
    assert main(["generate", str(tmp_path / "rooms.puz"), "--data", str(layout), "--count", "2", "--seed", "4",
                 "--json"]) == 0
    made = json.loads(capsys.readouterr().out)["puzzles"]
    assert len(made) == 2
    for p in made:
        room = ["".join(row) for row in p["givens"]["room"]]
        assert room == ["aabb", "acbb", "ccdd"]
        assert _rooms_solutions(room, p["givens"]["num"]) == 1
    assert main(["generate", str(tmp_path / "rooms.puz"), "--data", str(layout), "--set",
                 'room="""\nabc\nabc\n"""', "--seed", "4"]) == 0
    assert 'room = """\nabc\nabc\n"""' in capsys.readouterr().out


def test_generate_data_holds_no_rules(tmp_path, capsys):
    (tmp_path / "rooms.puz").write_text(ROOMS)
    assert main(["generate", str(tmp_path / "rooms.puz"), "--data", str(tmp_path / "rooms.puz")]) == 2
    assert "--data holds givens only" in capsys.readouterr().err


def test_the_json_report_reads_back(tmp_path, capsys):
    """`generate --json` prints each puzzle's givens, the --set ones too, so that `verify` (and
    `solve --data … --instance`) read the report itself (it was an unsupported value, and the
    fleet of a Battleship was missing)."""
    assert main(["generate", "battleship", "--size", "6x6", "--set", "fleet=[0,1,2]", "--keep", "rowsum,colsum",
                 "--count", "2", "--seed", "3", "--json"]) == 0
    report = tmp_path / "made.json"
    report.write_text(capsys.readouterr().out)
    assert json.loads(report.read_text())["puzzles"][0]["givens"]["fleet"] == [0, 1, 2]
    assert main(["verify", "battleship", str(report), "--jobs", "1", "--json"]) == 0
    verdicts = [p["verdict"] for p in json.loads(capsys.readouterr().out)["puzzles"]]
    assert verdicts == ["unique", "unique"]



def test_the_report_s_instances_are_solved_one_by_one(tmp_path, capsys):
    """`solve --data REPORT.json --instance REPORT-i` solves puzzle i (it solved puzzle 1 whatever
    the id, and took an unknown id or none at all silently); a multi-puzzle file without
    --instance, or an id the file does not hold (or, without --data, another id than the puzzle
    file's name), is an input error naming the ids."""
    assert main(["generate", "kakurasu", "--size", "5x5", "--count", "3", "--seed", "2", "--json"]) == 0
    report = tmp_path / "made.json"
    report.write_text(capsys.readouterr().out)
    givens = [p["givens"] for p in json.loads(report.read_text())["puzzles"]]
    for i, g in enumerate(givens, 1):
        assert main(["solve", "kakurasu", "--data", str(report), "--instance", f"made-{i}", "--json"]) == 0
        black = json.loads(capsys.readouterr().out)["solutions"][0]["black"]
        assert check_kakurasu(g["rowsum"], g["colsum"], black) == []
        others = [o for o in givens if o is not g]
        assert any(check_kakurasu(o["rowsum"], o["colsum"], black) for o in others)  # not another's answer
    for extra in ([], ["--instance", "made-9"], ["--instance", "nosuch"]):
        for command in ("solve", "explain"):
            assert main([command, "kakurasu", "--data", str(report), *extra]) == 2
            err = capsys.readouterr().err
            assert "made.json:1:1: error:" in err and "`made-1`, `made-2`, `made-3`" in err, err
            assert ("choose one with --instance ID" in err) == (not extra), err
    one = tmp_path / "one.json"
    one.write_text(json.dumps(givens[1]))
    assert main(["solve", "kakurasu", "--data", str(one), "--instance", "5"]) == 2
    assert "no puzzle with id `5`" in capsys.readouterr().err
    assert main(["solve", "kakurasu", "--data", str(one), "--instance", "one", "--json"]) == 0
    capsys.readouterr()
    assert main(["solve", str(PUZZLES / "kakurasu" / "seed-5x5.puz"), "--instance", "5"]) == 2  # its own data
    assert "holds one puzzle, `seed-5x5`" in capsys.readouterr().err

def test_arukone_keeps_its_own_generator(tmp_path):
    assert main(["generate", "arukone", "--size", "5", "--pairs", "3", "--seed", "1", "--out", str(tmp_path),
                 "--quiet"]) == 0
    assert [p.name for p in tmp_path.iterdir()] == ["arukone-5-3-1-1.txt"]


@pytest.mark.parametrize("genre, size", [("kakurasu", "6x6"), ("sudoku", "4x4"), ("binairo", "6x6")])
def test_solution_sampling_varies_with_the_seed(genre, size):
    """Each seed samples a solution of its own: CaDiCaL asked again with nothing new returned its
    last model whatever the phases, and decided the encodings' own variables (a row count, a
    digit) first with their default phases: a new user's Sudokus all had one solution."""
    gen = Generator(Request(PUZZLES / f"{genre}.puz", size))
    samples = [gen.sample(random.Random(s), None) for s in range(4)]
    solutions = {json.dumps({k: sorted(map(str, g.cells.items())) for k, g in sol.items()}) for sol in samples}
    assert len(solutions) > 2


def test_a_grade_missed_is_said(capsys):
    """Friction log 15: `--grade 3` wrote puzzles of grade 6.1 and 8.05 without a word."""
    assert main(["generate", "kakurasu", "--size", "5x5", "--grade", "3", "--candidates", "2", "--seed", "1"]) == 0
    assert "note: puzzle 1 grades 1.0, the closest to 3 of 2 made (--candidates for more)" in capsys.readouterr().err


def test_aiming_at_a_grade(capsys):
    assert main(["generate", "kakurasu", "--size", "5x5", "--grade", "1", "--candidates", "3", "--json"]) == 0
    p = json.loads(capsys.readouterr().out)["puzzles"][0]
    assert p["grade"] is not None and p["grade"] >= 1


DOTS = """given N: int
given num[1..N, 1..N]: int? in 1..N legend { ".": ? }
given h[1..N, 1..N - 1]: sym? legend { ".": ?, "o": white }
given v[1..N - 1, 1..N]: sym? legend { ".": ?, "o": white }
var x[1..N, 1..N]: 1..N
define apart(a, b) = a - b == 1 or b - a == 1
rule forall r in 1..N: alldiff(c in 1..N: x[r, c])
rule forall c in 1..N: alldiff(r in 1..N: x[r, c])
rule forall p in cells(num) where known(num[p]): x[p] == num[p]
rule forall (r, c) in cells(h): known(h[r, c]) iff apart(x[r, c], x[r, c + 1])
rule forall (r, c) in cells(v): known(v[r, c]) iff apart(x[r, c], x[r + 1, c])
"""


def _dot_solutions(g: dict, limit: int = 2) -> list[list[list[int]]]:
    """Latin squares that meet the digits and have a dot exactly between neighbours one apart,
    by backtracking over the cells from the rules as stated (at most `limit` of them)."""
    n = len(g["num"])
    sq = [[0] * n for _ in range(n)]
    found: list[list[list[int]]] = []

    def fits(r: int, c: int, d: int) -> bool:
        if g["num"][r][c] not in (None, d) or d in sq[r][:c] or d in (sq[i][c] for i in range(r)):
            return False
        left = c == 0 or (g["h"][r][c - 1] is not None) == (abs(sq[r][c - 1] - d) == 1)
        return left and (r == 0 or (g["v"][r - 1][c] is not None) == (abs(sq[r - 1][c] - d) == 1))

    def place(i: int) -> None:
        if len(found) >= limit:
            return
        if i == n * n:
            found.append([row[:] for row in sq])
            return
        r, c = divmod(i, n)
        for d in range(1, n + 1):
            if fits(r, c, d):
                sq[r][c] = d
                place(i + 1)
                sq[r][c] = 0

    place(0)
    return found


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_open_cells_that_say_something_take_the_joint_route(tmp_path, seed):
    """Dots declared `sym?`, `?` meaning "no dot: not one apart": the blank board is the puzzle
    "no dot anywhere", so solutions sampled from it never had a dot and neither had any
    generated board, for every seed (friction log 6). `--route auto` now samples the clues
    with the solution; each board has dots and exactly one solution by backtracking."""
    rules = tmp_path / "dots.puz"
    rules.write_text(DOTS)
    gen = Generator(Request(rules, settings=("N=5",)))
    p = gen.puzzle(random.Random(seed))
    assert gen.route == "joint"
    g = plain_givens(gen.rules, p.givens, gen.decls)
    assert any(x is not None for grid in (g["h"], g["v"]) for row in grid for x in row), g
    assert len(_dot_solutions(g)) == 1


@pytest.mark.parametrize("route", ["full", "joint"])
def test_making_a_puzzle_says_what_it_tries(route):
    """`generate`'s status line hears each solution (or clue set) tried, one call per sample."""
    gen = Generator(Request(PUZZLES / "kakurasu.puz", "4x4", route=route))
    heard: list[str] = []
    gen.progress = heard.append
    p = gen.puzzle(random.Random(1))
    word = "solution" if route == "full" else "clue set"
    assert heard == [f"trying {word} {k}" for k in range(1, p.samples + 1)]


def test_no_solution_names_the_givens_set(tmp_path, capsys):
    """Friction log 14: a region grid fixed with --set that leaves no solution was reported as "no
    solution at this size", which sent the user to --size."""
    f = tmp_path / "k.puz"
    f.write_text("given N: int\ngiven k: int\ngiven g[1..N]: int? in 0..1\nvar x[1..N]: bool\n"
                 "rule count(i in 1..N: x[i]) == k\nrule forall i in 1..N where known(g[i]): x[i] == (g[i] == 1)\n")
    assert main(["generate", str(f), "--set", "N=3", "--set", "k=5"]) == 2  # a rule fails on the givens alone
    assert "no puzzle at this size with `N`, `k` as given: the rule fails" in capsys.readouterr().err
    f.write_text(f.read_text() + "rule count(i in 1..N: x[i]) == k - 1\n")  # each alone holds, not both
    assert main(["generate", str(f), "--set", "N=3", "--set", "k=2", "--route", "full"]) == 1
    assert "stopped: these rules have no solution at this size with `N`, `k` as given" in capsys.readouterr().err


def test_values_name_every_value_tried(tmp_path, capsys):
    """Friction log 14: `--values clue=1..4` still wrote the legend's `#` (0) as clues."""
    f = tmp_path / "sukoro.puz"
    f.write_text(SUKORO)
    assert main(["generate", str(f), "--size", "5x5", "--seed", "3", "--option", "minfill=6",
                 "--values", "clue=1..4"]) == 0
    board = capsys.readouterr().out.split('clue = """', 1)[1].split('"""', 1)[0]
    assert "#" not in board and any(ch in board for ch in "1234")


def test_clues_alike_by_nature_make_puzzles(tmp_path, capsys):
    """Friction log 18: a genre whose clues are all one token (circles to colour) got "every unique
    puzzle found had `o` as its only clue: the solutions sampled leave the board (nearly) blank"
    although its solutions were not blank. Only a puzzle whose solution is blank is passed over."""
    (tmp_path / "circles.puz").write_text(
        'given N: int\ngiven circle[1..N, 1..N]: sym? legend { ".": ?, "o": open }\nvar dark[1..N, 1..N]: bool\n'
        "rule forall p in cells(circle) where not known(circle[p]): not dark[p]\n"
        "rule forall r in 1..N: exactly(1, c in 1..N where known(circle[r, c]): dark[r, c])\n"
        "rule forall c in 1..N: exactly(1, r in 1..N where known(circle[r, c]): dark[r, c])\n")
    assert main(["generate", str(tmp_path / "circles.puz"), "--set", "N=4", "--count", "2", "--seed", "1",
                 "--tries", "2000", "--json"]) == 0
    for p in json.loads(capsys.readouterr().out)["puzzles"]:
        circles = {(r, c) for r, row in enumerate(p["givens"]["circle"]) for c, v in enumerate(row) if v}
        perms = [s for s in permutations(range(4)) if all((r, s[r]) in circles for r in range(4))]
        assert len(perms) == 1  # one way to pick a circle per row and column: unique
