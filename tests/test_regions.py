"""`show … regions G`: walls between neighbouring cells whose values in G differ (docs §12)."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

import puzzledsl
from puzzledsl.api import render_text
from puzzledsl.compile import compile_file
from puzzledsl.errors import PuzzleError
from puzzledsl.render import boards
from puzzledsl.solve import Mode, solve
from puzzledsl.svg import document
from puzzledsl.values import Grid
from puzzledsl.walls import Walls
from tests.datasets import requires_data

PUZZLES = Path(__file__).resolve().parents[1] / "puzzles"
EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples"

STARS = '''
given room[1..4, 1..4]: sym = """
aabb
acbb
ccdd
cddd
"""
var star[1..4, 1..4]: bool outside false
rule forall r in 1..4: count(c in 1..4: star[r, c]) == 1
rule forall c in 1..4: count(r in 1..4: star[r, c]) == 1
rule forall k in values(room): count(p in cells(room, k): star[p]) == 1
rule forall p in cells(star), d in king: not (star[p] and star[p + d])
'''

DRAWN = """\
┏━━━━━━━┳━━━━━━━┓
┃ ·   ★ ┃ ·   · ┃
┃   ┏━━━┫       ┃
┃ · ┃ · ┃ ·   ★ ┃
┣━━━┛   ┣━━━━━━━┫
┃ ★   · ┃ ·   · ┃
┃   ┏━━━┛       ┃
┃ · ┃ ·   ★   · ┃
┗━━━┻━━━━━━━━━━━┛"""


def _text(rules: str, **kw: object) -> str:
    sol = puzzledsl.rules(rules).bind(**kw).solve()
    assert sol is not None
    return render_text(sol)


def test_walls_and_frame_are_drawn_exactly():
    assert _text(STARS + 'show star { true: "★", false: "·" } regions room\n') == DRAWN


def test_clues_sit_outside_the_frame():
    rules = STARS + ('given across[1..4]: int = [1, 2, 3, 4]\ngiven down[1..4]: int = [5, 6, 7, 8]\n'
                     'show star { true: "★", false: "·" } regions room, clue across at left, clue down at top\n')
    lines = _text(rules).splitlines()
    assert lines[0] == "    5   6   7   8"
    assert lines[1] == "  ┏━━━━━━━┳━━━━━━━┓"
    assert lines[2] == "1 ┃ ·   ★ ┃ ·   · ┃"


def test_a_define_and_a_decision_grid_give_the_walls():
    box = STARS + 'define box(r, c) = (r - 1) / 2 * 2 + (c - 1) / 2\nshow star regions box\n'
    assert _text(box).splitlines()[4] == "┣━━━━━━━╋━━━━━━━┫"
    piece = ("var part[1..2, 1..3]: 1..2\nrule part[1, 1] == 1 and part[2, 3] == 2\n"
             "rule count(p in cells(part): part[p] == 1) == 2\nrule part[1, 2] == 1\n"
             "show part regions part\n")
    assert _text(piece) == "┏━━━━━━━┳━━━┓\n┃ 1   1 ┃ 2 ┃\n┣━━━━━━━┛   ┃\n┃ 2   2   2 ┃\n┗━━━━━━━━━━━┛"


def test_a_line_crosses_the_walls_and_marks_sit_on_them():
    loop = ('given room[1..2, 1..3]: int = [[1, 1, 2], [3, 3, 2]]\nvar e[1..2, 1..3]: edges\n'
            "rule forall p in cells(e): degree(e, p) == 2\nrule connected(e)\nshow e regions room\n")
    assert _text(loop) == "┏━━━━━━━┳━━━┓\n┃ ┌─────╂─┐ ┃\n┣━┿━━━━━┫ │ ┃\n┃ └─────╂─┘ ┃\n┗━━━━━━━┻━━━┛"
    dots = ('given right[1..1, 1..2]: sym legend { ".": none, "o": dot } = [[dot, none]]\n'
            "given room[1..1, 1..3]: int = [[1, 2, 2]]\nvar x[1..1, 1..3]: 1..3\n"
            "rule x[1, 1] == 1 and x[1, 2] == 2 and x[1, 3] == 3\n"
            'show x regions room, between right { dot: "o", none: " " }\n')
    assert _text(dots).splitlines()[1] == "┃ 1 o 2   3 ┃"


def test_a_second_solution_marks_cells_by_glyph_and_a_moved_region():
    rules = ("var part[1..1, 1..3]: 1..2\nrule part[1, 1] == 1 and part[1, 3] == 2\n"
             "var x[1..1, 1..3]: bool\nrule forall p in cells(x): x[p] == (part[p] == 1)\n"
             "show x regions part\n")
    puzzle = puzzledsl.rules(rules).bind()
    first, second = puzzle.solutions(2)
    drawn = render_text(boards(puzzle.compiled, second.grids, first.grids)[0]).splitlines()
    assert drawn[1].count("*") == 1 and re.search(r"[■·]\*", drawn[1])


def test_the_svg_draws_the_walls_as_one_thick_path():
    sol = puzzledsl.rules(STARS + "show star regions room\n").bind().solve()
    svg = sol.svg()
    (path,) = re.findall(r'<path class="walls" d="([^"]+)"[^>]*stroke-width="4"', svg)
    # the frame's 4 sides and the inner walls, each run along a row or column joined: 3 + 4 runs
    assert path.count("M") == 11
    assert svg == sol._repr_svg_()  # Jupyter draws the same picture


@pytest.mark.parametrize("show, message", [
    ("show star regions nothing", "unknown name `nothing`"),
    ("show star regions row", "`regions row`: `row` has 1 index(es)"),
    ("show star regions pair", "`regions pair`: `pair` takes 1 parameter(s)"),
    ("show star regions small", "`small[1..3, 1..3]` does not have the shape of `star[1..4, 1..4]`"),
    ("show star regions room, regions room", "a `show` draws the walls of one region grid"),
    ("show stack regions room", "`regions` draws walls on a 2-D board; `stack` has 3 index(es)"),
])
def test_errors_are_located(show, message):
    text = STARS + ("given row[1..4]: int = [1, 2, 3, 4]\n"
                    "given small[1..3, 1..3]: int = [[1, 1, 1], [1, 1, 1], [1, 1, 1]]\n"
                    "define pair(p) = p\nvar stack[1..2, 1..2, 1..2]: bool\n")
    with pytest.raises(PuzzleError) as err:
        puzzledsl.rules(text + show + "\n").bind()
    assert message in err.value.message
    assert err.value.span is not None and err.value.span.line == text.count("\n") + 1
    if "index" in message or "parameter" in message or "shape" in message:
        assert err.value.help


BUNDLED = [PUZZLES / "star-battle" / "constructed-6x6.puz", PUZZLES / "sudoku" / "wikipedia.puz",
           PUZZLES / "shikaku" / "constructed-7x7.puz", PUZZLES / "fillomino" / "001_5x5.puz",
           EXAMPLES / "aquarium-5x5.puz", EXAMPLES / "heyawake-5x5.puz", EXAMPLES / "ripple-effect-5x5.puz"]


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.stem)
def test_bundled_region_genres_solve_and_draw_their_walls(path: Path):
    compiled = compile_file(path)
    out = solve(compiled, mode=Mode(unique=True))
    assert out.status == "sat" and out.unique
    text = "\n".join(render_text(b) for b in boards(compiled, out.solutions[0]))
    assert text.count("┏") >= 1 and "┛" in text and any(ch in text for ch in "┳┻┣┫╋")
    assert 'class="walls"' in document(compiled, out.solutions[0])


DATASET_GENRES = ["norinori", "thermometer", "lits", "magnetic", "kenken", "killer_sudoku", "tatamibari", "galaxies",
                  "star_battle"]


@requires_data
@pytest.mark.parametrize("key", DATASET_GENRES)
def test_dataset_region_genres_solve_their_smallest_puzzle_and_draw_walls(key: str):
    """The genres read from `../shared/data/genres/` whose `show` draws regions (the bundled
    sample of each is solved and compared in test_genres_bundled.py)."""
    from puzzledsl.compile import compile_givens, load_rules
    from tests.genre_specs import GENRES, by_size

    genre = GENRES[key]
    _, givens, _ = by_size(genre)[0]
    compiled = compile_givens(load_rules(genre.rules_path), givens)
    out = solve(compiled, mode=Mode(unique=True), time_limit=60)
    assert out.status == "sat" and out.unique
    (board,) = boards(compiled, out.solutions[0])
    assert board.regions is not None and "┏" in render_text(board)
    assert 'class="walls"' in document(compiled, out.solutions[0])


def test_a_30x30_board_draws_quickly():
    n = 30
    room = [[(r // 3 + c // 5) % 10 for c in range(n)] for r in range(n)]
    rules = (f"given room[1..{n}, 1..{n}]: int = {room}\nvar x[1..{n}, 1..{n}]: bool\n"
             "rule forall p in cells(x): x[p] == (room[p] == 0)\nshow x regions room\n")
    sol = puzzledsl.rules(rules).bind().solve()
    t = time.perf_counter()
    text = render_text(sol)
    svg = sol.svg()
    assert time.perf_counter() - t < 2.0  # generous: the machine may be loaded (BENCHMARKS.md has the figure)
    assert len(text.splitlines()) == 2 * n + 1 and svg.count('class="walls"') == 1


def test_walls_of_a_grid_with_unknown_cells():
    g = Grid("g", (range(1, 3), range(1, 3)), {(1, 1): 1, (1, 2): None, (2, 1): None, (2, 2): None})
    w = Walls.of(g, range(1, 3), range(1, 3))
    assert (0, 0) in w.right and (0, 0) in w.down and (1, 0) not in w.right and (0, 1) not in w.down


def test_walls_of_cells_not_yet_known_are_left_open():
    """`--determined` and `explain` draw partial boards: cells not yet known made one region of
    their own, walls that no solution has (friction log 19). A given's unknown cells keep theirs."""
    g = Grid("g", (range(1, 3), range(1, 4)), {(1, 1): 1, (1, 2): 1, (1, 3): 2, (2, 1): None, (2, 2): None,
                                               (2, 3): 2})
    w = Walls.of(g, range(1, 3), range(1, 4), open_unknown=True)
    assert (0, 1) in w.right  # 1 | 2, both known
    assert (0, 0) not in w.down and (0, 1) not in w.down and (1, 1) not in w.right  # beside open cells: none
    assert (0, 2) not in w.down  # 2 over 2
    assert (1, -1) in w.right and (1, 0) in w.down  # the frame stays
    closed = Walls.of(g, range(1, 3), range(1, 4))
    assert (0, 0) in closed.down and (1, 1) in closed.right


def _solved(tmp_path, capsys, text: str, flag: str) -> str:
    """What `solve FILE FLAG --no-color` prints for these rules (exit 0)."""
    from puzzledsl.cli import main

    f = tmp_path / "w.puz"
    f.write_text(text)
    assert main(["solve", str(f), flag, "--no-color"]) == 0
    return capsys.readouterr().out


def test_determined_draws_no_walls_around_open_cells(tmp_path, capsys):
    out = _solved(tmp_path, capsys, "var part[1..2, 1..2]: 1..2\nrule part[1, 1] == 1 and part[1, 2] == 2\n"
                  "show part regions part\n", "--determined")
    assert "┃ 1 ┃ 2 ┃" in out and "┃ ?   ? ┃" in out  # the open row: no wall between its cells


def test_solutions_that_differ_only_in_their_walls_are_not_called_drawn_the_same(tmp_path, capsys):
    out = _solved(tmp_path, capsys, "var part[1..1, 1..3]: 1..2\nvar x[1..1, 1..3]: bool\n"
                  "rule part[1, 1] == 1 and part[1, 3] == 2\nrule forall p in cells(x): not x[p]\n"
                  "show x regions part\n", "--unique")
    assert "drawn the same" not in out and "┃ · ┃ ·*  · ┃" in out
