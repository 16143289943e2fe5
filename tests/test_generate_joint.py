"""`generate` for genres whose full clue set is no puzzle (issue 13): Masyu (a pearl only where
the loop's shape allows one) and Nurikabe (one number per island; no shading without clues).
The clue set is sampled with the solution (`generate_joint.py`). Each puzzle is re-verified
unique by `puzzledsl verify`, its solution passed by the genre's independent checker, and its
clue set checked minimal by compiling and solving it again without each clue. Nurikabe's are
also verified with the rules' default formulation (islands numbered by counting the clues, not
the one `generate` grounds) and, at 4×4, by brute force over every shading."""

from __future__ import annotations

import random
from itertools import product
from pathlib import Path

import pytest

from puzzledsl.cli import main
from puzzledsl.compile import compile_file
from puzzledsl.generate import Generator, Request
from puzzledsl.generate_cli import data_text, plain_givens
from puzzledsl.uniqueness import decide
from tests.graph_checkers import check_masyu, check_nurikabe, edge

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles"
BY_CELL = {"by_cell": "true"}


def _masyu(g: dict, sol: dict) -> list[str]:
    pearls = [["w" if t == "w" else "b" if t == "b" else "-" for t in row] for row in g["pearl"]]
    edges = {edge((p[0] - 1, p[1] - 1), (q[0] - 1, q[1] - 1)) for p, q in sol["link"]}
    return check_masyu(pearls, edges)


def _nurikabe(g: dict, sol: dict) -> list[str]:
    return check_nurikabe(g["board"], sol["black"])


def _solve(rules: Path, data: Path, options: dict | None = None) -> tuple[bool | None, dict]:
    out = decide(compile_file(rules, data, options=options))
    sol = {k: v.nested() for k, v in out.solutions[0].items()} if out.solutions else {}
    return out.unique, sol


def _made(tmp_path: Path, genre: str, size: str, seed: int, options: dict, values: tuple = (), route: str = "auto"):
    rules = PUZZLES / f"{genre}.puz"
    gen = Generator(Request(rules, size, options=options, values=values, route=route))
    p = gen.puzzle(random.Random(seed))
    data = tmp_path / f"{genre}-{seed}.txt"
    data.write_text(data_text(gen.rules, p.givens, gen.decls, gen.setting_lines, genre))
    return rules, gen, p, data


def _minimal(rules: Path, gen: Generator, p, data: Path, answer: object, name: str) -> None:
    """Without any one clue the puzzle has no unique solution, or another one (a Nurikabe
    island that loses its number is no island: the board without it may be another puzzle)."""
    clues = [(n, k) for n in gen.decls for k, v in p.givens[n].cells.items() if v is not None]
    assert clues and 0 < p.clues == len(clues) <= p.full
    for grid_name, key in clues:
        fewer = dict(p.givens)
        grid = p.givens[grid_name]
        fewer[grid_name] = type(grid)(grid.name, grid.dims, {**grid.cells, key: None}, grid.boundary, grid.outside)
        data.write_text(data_text(gen.rules, fewer, gen.decls, gen.setting_lines, "fewer"))
        unique, sol = _solve(rules, data)
        assert not (unique and sol[name] == answer), f"the clue {grid_name}{list(key)} can go"


@pytest.mark.parametrize("size, seed", [("6x6", 1), ("6x6", 2), ("7x7", 3)])
def test_masyu_is_unique_valid_and_minimal(tmp_path, size, seed):
    rules, gen, p, data = _made(tmp_path, "masyu", size, seed, {}, route="joint")
    assert gen.route == "joint"
    assert main(["verify", str(rules), str(data), "--jobs", "1"]) == 0
    unique, sol = _solve(rules, data)
    assert unique is True
    assert _masyu(plain_givens(gen.rules, p.givens, gen.decls), sol) == []
    _minimal(rules, gen, p, data, sol["link"], "link")


@pytest.mark.parametrize("size, seed", [("5x5", 1), ("6x6", 2)])
def test_nurikabe_is_unique_valid_and_minimal(tmp_path, size, seed):
    rules, gen, p, data = _made(tmp_path, "nurikabe", size, seed, BY_CELL, ("board=1..4",))
    assert gen.route == "joint"  # a blank board has no shading
    assert main(["verify", str(rules), str(data), "--jobs", "1", "--option", "by_cell=true"]) == 0
    assert main(["verify", str(rules), str(data), "--jobs", "1"]) == 0  # the default formulation agrees
    unique, sol = _solve(rules, data)
    assert unique is True
    assert _nurikabe(plain_givens(gen.rules, p.givens, gen.decls), sol) == []
    _minimal(rules, gen, p, data, sol["black"], "black")


def test_nurikabe_4x4_unique_by_brute_force(tmp_path):
    rules, gen, p, data = _made(tmp_path, "nurikabe", "4x4", 5, BY_CELL, ("board=1..3",))
    board = plain_givens(gen.rules, p.givens, gen.decls)["board"]
    cells = [(r, c) for r in range(4) for c in range(4) if board[r][c] is None]  # numbered cells are white
    found = []
    for bits in product((False, True), repeat=len(cells)):
        black = [[False] * 4 for _ in range(4)]
        for (r, c), b in zip(cells, bits):
            black[r][c] = b
        if not check_nurikabe(board, black):
            found.append(black)
    assert len(found) == 1
    assert _solve(rules, data)[1]["black"] == found[0]


def test_joint_route_same_puzzles_with_jobs(tmp_path):
    args = ["generate", "masyu", "--size", "6x6", "--count", "3", "--seed", "4"]
    assert main([*args, "--out", str(tmp_path / "one")]) == 0
    assert main([*args, "--jobs", "2", "--out", str(tmp_path / "two")]) == 0
    one = sorted((tmp_path / "one").iterdir())
    assert [f.read_text() for f in one] == [(tmp_path / "two" / f.name).read_text() for f in one]


def test_full_route_refuses_what_it_cannot_make(capsys):
    assert main(["generate", "nurikabe", "--size", "5x5", "--option", "by_cell=true", "--route", "full",
                 "--values", "board=1..3", "--tries", "3"]) == 1
    assert "no solution" in capsys.readouterr().err


MARKED = """given R: int
given C: int
given mark[1..R, 1..C]: int? in 0..1
define marked = list(p in cells(mark) where known(mark[p]): p)
var flag[marked]: bool
var black[1..R, 1..C]: bool
rule "a mark says whether its cell is shaded": forall p in marked: flag[p] == (mark[p] == 1) and black[p] == flag[p]
"""


def test_a_variable_indexed_by_what_the_clues_list_takes_the_joint_route(tmp_path, capsys):
    """A new user's rules (friction log 12): `flag` has a cell per clue, none on the board without
    clues, so the full route read `flag[p]` where it has no cell and blamed the rule ("(1, 1) is
    not an index of `flag`"). Now the clues are sampled with the solution."""
    rules = tmp_path / "marked.puz"
    rules.write_text(MARKED)
    gen = Generator(Request(rules, "2x2"))
    made = gen.puzzle(random.Random(1))
    assert gen.route == "joint" and [n for n, _ in gen.clue_indexed] == ["flag"]
    data = tmp_path / "p.txt"
    data.write_text(data_text(gen.rules, made.givens, gen.decls, gen.setting_lines, "marked"))
    assert _solve(rules, data)[0] is True
    assert all(v is not None for v in made.givens["mark"].cells.values())  # an unmarked cell is free
    assert main(["generate", str(rules), "--size", "2x2", "--route", "full"]) == 2
    assert "the cells of `flag` are computed from the clues" in capsys.readouterr().err


def test_auto_route_keeps_the_full_route_where_it_works():
    gen = Generator(Request(PUZZLES / "kakurasu.puz", "5x5"))
    gen.puzzle(random.Random(1))
    assert gen.route == "full"


def test_a_relaxed_joint_model_gives_up_as_soon_as_the_full_route(capsys):
    """Nurikabe's default rules number the islands by counting clues: the joint model is only a
    relaxation, few samples are puzzles, so a puzzle is given up after 100 samples (was 5000:
    some 11 minutes at 6x6), with a warning that says so."""
    gen = Generator(Request(PUZZLES / "nurikabe.puz", "4x4"))
    joint = gen.prepare()
    assert joint is not None and joint.several and gen.tries("joint") == 100
    assert main(["generate", "nurikabe", "--size", "4x4", "--count", "1", "--tries", "1"]) in (0, 1)
    warning = capsys.readouterr().err  # the warning names the rules that read several clues (friction log 12)
    assert joint.several_rules and all(f"“{r.label}” (" in warning for r in joint.several_rules[:3])
    by_cell = Generator(Request(PUZZLES / "nurikabe.puz", "4x4", options=BY_CELL))
    assert by_cell.prepare() is not None and by_cell.tries("joint") == 5000


def test_no_unique_clue_set_says_that_none_exists(tmp_path, capsys):
    """Two solutions that every clue reads alike: the report says that there is likely no unique
    puzzle, not only that the sampled solutions could not be told apart."""
    f = tmp_path / "twins.puz"
    f.write_text("given clue[1..2, 1..2]: bool?\nvar x[1..2]: bool\nrule x[1] != x[2]\n"
                 "rule forall p in cells(clue) where known(clue[p]): clue[p] == (x[1] or x[2])\n")
    assert main(["generate", str(f), "--route", "joint", "--seed", "1"]) == 1
    assert "likely no unique puzzle of this size (with these fixed givens)" in capsys.readouterr().err


def test_giving_up_over_rules_reading_several_clues_claims_nothing(capsys):
    """Friction log 17: rectangles whose rules read several clue cells at once gave up saying there
    was likely no unique puzzle of the size, though unique 4x4 and 5x5 puzzles exist; the search
    cannot follow such rules, and the report now says so instead."""
    rc = main(["generate", "shikaku", "--size", "5x5", "--values", "num=1..9", "--seed", "1", "--time-limit", "30"])
    err = capsys.readouterr().err
    assert rc == 1 and "read several clue cells at once" in err
    assert "unique puzzles may well exist" in err and "likely no unique puzzle" not in err


def test_a_joint_route_chosen_for_the_user_that_fails_names_the_full_route(capsys) -> None:
    """A rule over the list of all clues sent `auto` to the joint route, where no sampled clue set
    was unique; `--route full` made the puzzle at once, and nothing said so (friction log 19)."""
    rules = Path(__file__).parent / "data" / "friction" / "easy-as-abc-clue-list.puz"
    code = main(["generate", str(rules), "--size", "7x7", "--set", "K=4", "--seed", "2", "--tries", "2"])
    err = capsys.readouterr().err
    assert code == 1 and "no sampled clue set of 2 was unique" in err
    assert "`--route full` fills each solution's clues and thins them instead" in err


def test_full_route_with_loop_cuts_same_puzzles_with_jobs(tmp_path):
    """A helper's Gokigen (friction log 19): its diagonals appear in no clause until a loop is cut,
    and a variable in no clause takes its sampled phase; the cuts of earlier puzzles left their
    variables read from the solver instead, so puzzle 3 after puzzles 1 and 2 differed from puzzle
    3 made first, and `--jobs 2` wrote other puzzles."""
    rules = Path(__file__).parent / "data" / "friction" / "gokigen.puz"
    args = ["generate", str(rules), "--size", "6x6", "--count", "6", "--seed", "5"]
    assert main([*args, "--out", str(tmp_path / "one")]) == 0
    assert main([*args, "--jobs", "2", "--out", str(tmp_path / "two")]) == 0
    one = sorted((tmp_path / "one").iterdir())
    assert len(one) == 6
    assert [f.read_text() for f in one] == [(tmp_path / "two" / f.name).read_text() for f in one]
