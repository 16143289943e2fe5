"""Tapa (issue 10): clue cells that hold lists, `cyclic runs`, `sorted`, puzz.link's `tapa` code.

The puzzles are real ones with published solutions: pzprjs's test puzzle (`test/script/tapa.js`
in https://github.com/robx/pzprjs, commit 0401fc64) and the two of cspuz_core's Tapa tests
(`cspuz_rs_puzzles/src/puzzles/tapa.rs` in https://github.com/semiexp/cspuz_core, the second
with `?` clues). Each is solved, proven unique, compared with the published shading and
checked by `genre_checkers.check_tapa`, which is written from the rules. Small random boards
are counted against brute force over every shading.
"""

from __future__ import annotations

import random
import re
from itertools import product
from pathlib import Path

import pytest

from puzzledsl.cli import puzzle_url
from puzzledsl.compile import compile_file
from puzzledsl.data import InlineData
from puzzledsl.evaluate import broken_rules
from puzzledsl.importers.puzzlink_codec import Body
from puzzledsl.importers.puzzlink_lists import decode_number_lists, encode_number_lists
from puzzledsl.solve import Mode, solve
from tests.genre_checkers import check_tapa

ROOT = Path(__file__).resolve().parents[1]
TAPA = ROOT / "puzzles" / "tapa.puz"

# instance -> (its URL, the published shading: `x` shaded)
PUBLISHED = {
    "pzprjs-5x5": ("https://puzz.link/p?tapa/5/5/3n5hchhajn2",
                   ["-xxxx", "xx-x-", "x--xx", "-x-x-", "xxxx-"]),
    "cspuz-7x6": ("https://puzz.link/p?tapa/7/6/2nabg9w8o0h",
                  ["-xxx-xx", "-x----x", "-x-x-xx", "xxxxxx-", "x-x----", "xxx----"]),
    "cspuz-6x8": ("https://puzz.link/p?tapa/6/8/q2g9g.qb0pa0ccn",
                  ["xxx---", "x-xxx-", "----x-", "x-xxxx", "x----x", "xxx-xx", "x----x", "xxxxxx"]),
}


def _problem(compiled) -> str:
    """The clues as check_tapa reads them: `R C`, then rows of `3/1`, `?`, `-` tokens."""
    g = compiled.givens["clue"]
    rows = [" ".join("-" if (v := g.cells[(r, c)]) is None else "/".join("?" if x is None else str(x) for x in v)
                     for c in g.dims[1]) for r in g.dims[0]]
    return f"{len(g.dims[0])} {len(g.dims[1])}\n" + "\n".join(rows)


def _shading(solution) -> list[str]:
    g = solution["black"]
    return ["".join("x" if g.cells[(r, c)] else "-" for c in g.dims[1]) for r in g.dims[0]]


@pytest.mark.parametrize("name", sorted(PUBLISHED))
def test_published_puzzles(name: str) -> None:
    url, published = PUBLISHED[name]
    compiled = compile_file(ROOT / "puzzles" / "tapa" / f"{name}.puz")
    out = solve(compiled, mode=Mode(unique=True))
    assert out.unique is True
    shading = _shading(out.solutions[0])
    assert shading == published
    assert check_tapa(_problem(compiled), [list(row) for row in shading]) == []
    assert puzzle_url(compiled) == url  # the instance file holds the URL's puzzle
    assert puzzle_url(compile_file(TAPA, InlineData(url))) == url


def test_the_checker_catches_each_rule() -> None:
    """check_tapa is no rubber stamp: each broken rule of a changed shading is reported."""
    compiled = compile_file(ROOT / "puzzles" / "tapa" / "pzprjs-5x5.puz")
    problem, good = _problem(compiled), PUBLISHED["pzprjs-5x5"][1]
    grid = [list(row) for row in good]
    grid[1][2] = "x"  # a 2x2 block, and the clues next to it change
    assert any("2x2" in e for e in check_tapa(problem, grid))
    grid = [list(row) for row in good]
    grid[3][3] = "-"  # the bottom rows split off, and the 3/1/1 clue loses a block
    errors = check_tapa(problem, grid)
    assert any("3/1/1" in e for e in errors) and any("connected" in e for e in errors)
    grid = [list(row) for row in good]
    grid[0][0] = "x"  # a clue cell shaded
    assert any("is shaded" in e for e in check_tapa(problem, grid))


@pytest.mark.parametrize(("code", "clue"), [
    ("0", [0]), (".", [None]), ("3", [3]), ("9", [1, 1, 1, 1]), ("a8", [1, 2]), ("al", [3, 3]),
    ("ao", [4, None]), ("bw", [2, None, None]), ("d4", [1, 1, None, None]),
])
def test_clue_codes(code: str, clue: list) -> None:
    """The codes of cspuz_core's serializer tests (tapa.rs), read and written back."""
    assert decode_number_lists(Body(code, "u", 1), 1) == [clue]
    assert encode_number_lists([clue]) == code


def _random_clue(rng: random.Random) -> list:
    """A clue puz.link can code: one number 0..8 or `?`, or 2, 3, 4 numbers up to 5, 3, 1 or `?`."""
    k = rng.randint(1, 4)
    top = {1: 8, 2: 5, 3: 3, 4: 1}[k]
    return [rng.choice([None, *range(0 if k == 1 else 1, top + 1)]) for _ in range(k)]


def test_codec_round_trip_on_random_grids() -> None:
    rng = random.Random(10)
    for _ in range(200):
        n = rng.randint(1, 60)
        cells = [None if rng.random() < 0.7 else _random_clue(rng) for _ in range(n)]
        text = encode_number_lists(cells)
        assert decode_number_lists(Body(text, "u", 1), n) == cells, text


def test_a_clue_the_url_cannot_hold_is_an_error(tmp_path: Path) -> None:
    from puzzledsl.errors import PuzzleError
    f = tmp_path / "t.puz"
    f.write_text('use "tapa"\nclue = """\n6/1 - -\n- - -\n"""\n')
    with pytest.raises(PuzzleError, match=r"\[6, 1\]"):
        puzzle_url(compile_file(f))


def test_the_recheck_reads_the_clue_rule() -> None:
    compiled = compile_file(ROOT / "puzzles" / "tapa" / "cspuz-6x8.puz")
    sol = solve(compiled, mode=Mode()).solutions[0]
    assert broken_rules(compiled.program, compiled.givens, sol, compiled.symbols) == ([], [])
    black = sol["black"]
    changed = dict(black.cells)
    changed[(2, 5)] = False  # the `2` in row 2 loses half of its block of two
    bad = type(black)(black.name, black.dims, changed, black.boundary, black.outside)
    broken, _ = broken_rules(compiled.program, compiled.givens, {**sol, "black": bad}, compiled.symbols)
    assert any("a clue lists the blocks" in b for b in broken), broken


def _count_by_brute_force(problem: str, rows: int, cols: int) -> int:
    return sum(not check_tapa(problem, [list("".join("x" if b else "-" for b in bits[r * cols:(r + 1) * cols]))
                                        for r in range(rows)])
               for bits in product([False, True], repeat=rows * cols))


@pytest.mark.parametrize("seed", range(6))
def test_small_boards_against_brute_force(tmp_path: Path, seed: int) -> None:
    """Random 3x4 boards with random clues (`?` items too): puzzledsl's count of solutions is
    the number of shadings check_tapa passes."""
    rng = random.Random(seed)
    rows, cols = 3, 4
    for _ in range(3):
        grid = [["-"] * cols for _ in range(rows)]
        for _ in range(rng.randint(1, 3)):
            r, c = rng.randrange(rows), rng.randrange(cols)
            k = rng.choice([1, 1, 2, 2, 3])
            items = [rng.choice(["?", "1", "2", "3"]) for _ in range(k)] if k > 1 else [rng.choice("012345?")]
            grid[r][c] = "/".join(items)
        text = "\n".join(" ".join("[?]" if t == "?" else t for t in row) for row in grid)
        f = tmp_path / "t.puz"
        f.write_text(f'use "tapa"\nclue = """\n{text}\n"""\n')
        problem = f"{rows} {cols}\n" + "\n".join(" ".join(row) for row in grid)
        want = _count_by_brute_force(problem, rows, cols)
        assert solve(compile_file(f), mode=Mode(count=0)).count == want, text


def test_the_board_shows_the_clues_as_written(capsys) -> None:
    from puzzledsl.cli import main
    assert main(["solve", str(ROOT / "puzzles" / "tapa" / "cspuz-6x8.puz"), "--no-color"]) == 0
    out = capsys.readouterr().out
    assert "1/1/1/1" in out and "[?]" in out and "3/?/?" in out and "■" in out


# ----------------------------------------------------------------- Penpa+ URLs (issue 11)


def _penpa_problem(drawing, title: str = "", tags: tuple[str, ...] = ("tapa",)) -> str:
    from puzzledsl.importers import penpa_write
    return penpa_write.write_url(drawing, title, tags)


@pytest.mark.parametrize("name", sorted(PUBLISHED))
def test_penpa_url_round_trip_and_answer(name: str) -> None:
    """A bundled instance -> its Penpa+ URL -> the same givens (the tag names the genre) -> a
    unique solution -> the answer URL, whose shading is the published one and passes check_tapa."""
    from puzzledsl.importers import penpa
    from tests.test_penpa_answers import decode

    compiled = compile_file(ROOT / "puzzles" / "tapa" / f"{name}.puz")
    url = puzzle_url(compiled, "penpa")
    assert penpa.genre_rules(url) == "tapa"
    again = compile_file(TAPA, InlineData(url))
    assert again.givens["clue"].cells == compiled.givens["clue"].cells
    assert puzzle_url(again, "penpa") == url
    out = solve(again, mode=Mode(unique=True))
    assert out.unique is True
    check, decoded = decode("tapa", puzzle_url(again, "penpa", out.solutions[0]))
    black = decoded["black"].cells
    shading = ["".join("x" if black[(r, c)] else "-" for c in range(1, len(row) + 1))
               for r, row in enumerate(PUBLISHED[name][1], 1)]
    assert check == "surface" and shading == PUBLISHED[name][1]
    assert check_tapa(_problem(again), [list(row) for row in shading]) == []


def test_penpa_edit_drawings_solve() -> None:
    """penpa-edit's own drawings of puzz.link Tapas (its test snapshots, see test_penpa_answers)
    read, solve uniquely, and the shading passes check_tapa."""
    from tests.test_penpa_answers import SNAPSHOTS, _snapshot_url

    solved = 0
    for entry in (e for e in SNAPSHOTS if e["rules"] == "tapa" and e["name"] != "Tapa 1"):  # 1: every code, no puzzle
        compiled = compile_file(TAPA, InlineData(_snapshot_url(entry)))
        out = solve(compiled, mode=Mode(unique=True))
        assert out.unique is True, entry["name"]
        assert check_tapa(_problem(compiled), [list(row) for row in _shading(out.solutions[0])]) == []
        solved += 1
    assert solved == 3


def test_penpa_clue_styles() -> None:
    """A clue in the Tapa style is its characters; one number in a plain style is a clue of one;
    a blank text or pencil marks are no clue."""
    from puzzledsl.importers.penpa_write import Drawing

    d = Drawing(3, 3)
    d.number((0, 0), "1?3", style="4")
    d.number((0, 2), "0", style="4")
    d.number((1, 1), 5)  # normal style, an int
    d.number((2, 0), "?", style="6")
    d.number((2, 2), " ", style="1")
    d.q["number"][str(d.board().index((1, 0)))] = ["123", 1, "7"]
    clue = compile_file(TAPA, InlineData(_penpa_problem(d))).givens["clue"].cells
    assert clue == {(1, 1): [1, None, 3], (1, 2): None, (1, 3): [0], (2, 1): None, (2, 2): [5], (2, 3): None,
                    (3, 1): [None], (3, 2): None, (3, 3): None}


def _drawn(change) -> str:
    from puzzledsl.importers.penpa_write import Drawing

    d = Drawing(3, 3, space=(1, 0, 0, 0))
    d.number((1, 1), "3", style="4")
    change(d)
    return _penpa_problem(d)


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d.number((0, 0), "31"), "the clue '31' at row 1, column 1 in a plain number style"),
    (lambda d: d.number((0, 0), "19", style="4"), "the clue '19' at row 1, column 1"),
    (lambda d: d.number((0, 0), "11111", style="4"), "the clue '11111'"),
    (lambda d: d.number((0, 0), "3", style="2"), "number style 2"),
    (lambda d: d.number((-1, 1), "2", style="4"), "a number outside the grid"),
    (lambda d: d.shade((2, 2)), "drawing layers `surface`"),
    (lambda d: d.q["number"].update({str(d.board().nx0 * d.board().ny0 + d.board().index((0, 0))): ["12", 1, "4"]}),
     "a number at a corner or side of a cell"),
    (lambda d: d.symbol((2, 2), "circle_L", 1), "drawing layers `symbol`"),
])
def test_penpa_drawings_tapa_cannot_state_are_refused(capsys, change, message: str) -> None:
    from puzzledsl.cli import main

    url = _drawn(change)
    assert main(["solve", url, "--no-color"]) == 2
    err = capsys.readouterr().err
    assert message in err and "tapa.puz cannot state" in err and "Traceback" not in err, err
    assert re.search(r":1:\d+: error", err) and "^^^" in err  # located: it points at the URL's `p=`


def test_penpa_genre_from_title_or_rules(capsys) -> None:
    """A drawing titled Tapa reads alone; one titled Tapa-Like Loop (another genre) needs the rules."""
    from puzzledsl.cli import main
    from puzzledsl.importers import penpa
    from puzzledsl.importers.penpa_write import Drawing

    d = Drawing(2, 2)
    d.number((0, 0), "1", style="4")
    assert penpa.genre_rules(_penpa_problem(d, "Tapa (easy)", ())) == "tapa"
    loop = _penpa_problem(d, "Tapa-Like Loop", ())
    assert main(["solve", loop, "--no-color"]) == 2
    assert "does not say which genre" in capsys.readouterr().err
    assert main(["solve", "tapa", "--data", loop, "--no-color"]) == 0


@pytest.mark.parametrize(("clue", "shown"), [("1/1/1/1/1", "[1, 1, 1, 1, 1]"), ("9", "[9]")])
def test_penpa_writing_refuses_a_clue_penpa_does_not_draw(tmp_path: Path, capsys, clue: str, shown: str) -> None:
    from puzzledsl.cli import main
    from puzzledsl.errors import PuzzleError

    f = tmp_path / "t.puz"
    f.write_text(f'use "tapa"\nclue = """\n{clue} - -\n- - -\n"""\n')
    with pytest.raises(PuzzleError, match=r"no Penpa\+ drawing"):
        puzzle_url(compile_file(f), "penpa")
    assert main(["solve", str(f), "--url", "penpa", "--no-color"]) == 2
    err = capsys.readouterr().err
    assert shown in err and "Traceback" not in err, err
