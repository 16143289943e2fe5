"""Tests of the independent planning oracles (Santa Chilly simulator/BFS, peg solitaire checker/DFS).

The oracles judge the compiler's plans, so they are checked here against the published c't plan,
hand-reasoned small levels and known peg solitaire facts, before anything is compared with them.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.chilly_sim import (
    Level,
    is_valid_plan,
    load_level,
    make_level,
    optimal_moves,
    optimal_plan,
    parse_level_txt,
    simulate,
)
from tests.pegsol_sim import (
    apply,
    count_moves,
    is_solution,
    load_board,
    min_moves,
    parse_board,
    possible_end_cells,
    solvable,
    solve,
)

ROOT = Path(__file__).resolve().parents[1]
CHILLY = ROOT / "puzzles" / "chilly"
PEGS = ROOT / "puzzles" / "peg-solitaire"
DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
CT_TXT = DATA / "chilly" / "ct-2023-28-level.txt"
CT_JSON = DATA / "chilly" / "ct-2023-28-levels.json"
requires_ct = pytest.mark.skipif(not CT_TXT.is_file() or not CT_JSON.is_file(), reason=f"no c't data under {DATA}")

CT_PLAN = "RULDLDLDULRUDDLULDLULULULULDLRULURDLDLURULDLDRDLDLDLDRULDLULULDRURUDLDLRUDRULDRDLRURDRDRDRDRURLDLDRDLDR"


def level(*rows: str, holes: str = "") -> Level:
    """A level from rows written without their trailing '|'."""
    return parse_level_txt(holes + "\n" + "".join(r + "|\n" for r in rows))


# --------------------------------------------------------------------------
# Santa Chilly: the real c't level


@requires_ct
def test_ct_level_same_from_both_files() -> None:
    txt, js = load_level(CT_TXT), load_level(CT_JSON)
    assert txt == js
    assert (txt.height, txt.width, len(txt.presents), len(txt.holes)) == (40, 40, 24, 3)
    assert txt.start == (11, 21) and txt.exit == (38, 39)
    assert txt.holes == {(9, 39): (38, 3), (38, 3): (4, 11), (4, 11): (9, 39)}


@requires_ct
def test_ct_published_plan_verifies() -> None:
    lv = load_level(CT_TXT)
    res = simulate(lv, CT_PLAN)
    assert len(CT_PLAN) == 103
    assert res.error is None and res.exit_move == 103 and res.collected == lv.presents
    assert is_valid_plan(lv, CT_PLAN)


@requires_ct
def test_ct_corrupted_plans_fail() -> None:
    lv = load_level(CT_TXT)
    short = simulate(lv, CT_PLAN[:-1])
    assert not is_valid_plan(lv, CT_PLAN[:-1]) and short.exit_move is None and len(short.collected) == 24
    after = simulate(lv, CT_PLAN + "R")
    assert not is_valid_plan(lv, CT_PLAN + "R") and after.error is not None and "after the exit" in after.error
    assert not is_valid_plan(lv, "L" + CT_PLAN[1:])
    # Of all 309 one-letter changes only one stays valid: move 9 L (into the hole at (38, 3)) instead of U.
    still_valid = [
        (i + 1, m)
        for i in range(len(CT_PLAN))
        for m in "RLUD"
        if m != CT_PLAN[i] and is_valid_plan(lv, CT_PLAN[:i] + m + CT_PLAN[i + 1 :])
    ]
    assert still_valid == [(9, "L")]


# --------------------------------------------------------------------------
# Santa Chilly: the rules on tiny examples


def test_slide_collects_wraps_and_stops() -> None:
    lv = level("$ #P $", "######", "X#####")
    res = simulate(lv, "R")
    assert res.position == (0, 1) and res.collected == {(0, 5), (0, 0)} and res.error is None


def test_hole_teleports_and_stops() -> None:
    lv = level("P O  #", "######", "  O  X", holes="(2,0)->(2,2);(2,2)->(2,0)")
    assert simulate(lv, "R").position == (2, 2)
    assert is_valid_plan(lv, "RR")


def test_open_line_is_an_invalid_move() -> None:
    lv = level("P  ", "###", "##X")
    res = simulate(lv, "R")
    assert res.error is not None and "forever" in res.error
    assert optimal_moves(lv) is None


def test_exit_ends_the_game_even_without_presents() -> None:
    lv = level("PX$#", "####")
    res = simulate(lv, "R")
    assert res.exit_move == 1 and not res.collected
    assert not is_valid_plan(lv, "R") and optimal_moves(lv) is None


def test_bad_level_files_are_rejected() -> None:
    with pytest.raises(ValueError, match="end with"):
        parse_level_txt("\nP X#\n")
    with pytest.raises(ValueError, match="exactly one"):
        make_level(["P  #"], {})
    with pytest.raises(ValueError, match="connection"):
        level("PO X#", holes="(0,1)->(0,1)")  # x/y swapped: the hole is x=1, y=0


# --------------------------------------------------------------------------
# Santa Chilly: the hand-made levels and their README table


def readme_table() -> list[tuple[str, int | None, str | None]]:
    """(file, optimum, plan) rows of puzzles/chilly/README.md; '—' means no plan."""
    rows = []
    for line in (CHILLY / "README.md").read_text(encoding="utf-8").splitlines():
        if m := re.match(r"\| `(tiny-[\w-]+\.txt)` \|[^|]*\|[^|]*\|[^|]*\| (\d+|—) \| `?(\w+|—)`? \|", line):
            opt, plan = m.group(2), m.group(3)
            rows.append((m.group(1), None if opt == "—" else int(opt), None if plan == "—" else plan))
    return rows


def test_readme_lists_every_hand_level() -> None:
    files = sorted(p.name for p in CHILLY.glob("tiny-*.txt"))
    assert 5 <= len(files) <= 8 and sorted(name for name, _, _ in readme_table()) == files


@pytest.mark.parametrize(("name", "optimum", "plan"), readme_table())
def test_hand_level_optimum(name: str, optimum: int | None, plan: str | None) -> None:
    text = (CHILLY / name).read_text(encoding="utf-8")
    assert all(line.endswith("|") for line in text.splitlines()[1:])
    lv = parse_level_txt(text)
    assert optimal_moves(lv) == optimum
    if plan is not None:
        assert len(plan) == optimum and is_valid_plan(lv, plan)


def framed(lv: Level) -> Level:
    """The same level inside a rock frame, so that nothing can wrap around."""
    rows = ["#" * (lv.width + 2)] + ["#" + r + "#" for r in lv.rows] + ["#" * (lv.width + 2)]
    return make_level(rows, {(a + 1, b + 1): (c + 1, d + 1) for (a, b), (c, d) in lv.holes.items()})


def test_hand_levels_need_what_they_claim() -> None:
    wrap = load_level(CHILLY / "tiny-wrap.txt")
    assert optimal_moves(framed(wrap)) is None
    hole = load_level(CHILLY / "tiny-hole.txt")
    assert optimal_moves(make_level([r.replace("O", "#") for r in hole.rows], {})) is None
    slide = load_level(CHILLY / "tiny-slide.txt")
    stops = {simulate(slide, "RD"[:k]).position for k in range(3)}
    assert not slide.presents & stops  # every present collected without stopping on it
    for name, first in (("tiny-exit-first.txt", "R"), ("tiny-detour.txt", "R"), ("tiny-detour.txt", "L")):
        assert simulate(load_level(CHILLY / name), first).exit_move == 1
    mix = load_level(CHILLY / "tiny-mix.txt")
    plan = optimal_plan(mix)
    assert plan is not None and optimal_moves(framed(mix)) != len(plan)


# --------------------------------------------------------------------------
# Peg solitaire


TRIANGLE_CELLS = [(r, c) for r in range(5) for c in range(r + 1)]


def test_board_sizes() -> None:
    for name, holes, pegs in (("english", 33, 32), ("european", 37, 36), ("european-anywhere", 37, 36)):
        b = load_board(PEGS / f"{name}.txt")
        assert (len(b.holes), len(b.pegs)) == (holes, pegs)
        assert b.targets == (set() if name.endswith("anywhere") else {(3, 3)})
        assert (3, 3) in b.holes - b.pegs
    tri = load_board(PEGS / "triangle.txt")
    assert tri.holes == set(TRIANGLE_CELLS) and tri.holes - tri.pegs == {(0, 0)} and not tri.targets


def test_position_classes_of_the_big_boards() -> None:
    assert possible_end_cells(load_board(PEGS / "english.txt")) == [(0, 3), (3, 0), (3, 3), (3, 6), (6, 3)]
    assert possible_end_cells(load_board(PEGS / "european.txt")) == []
    assert possible_end_cells(load_board(PEGS / "european-anywhere.txt")) == []


@pytest.mark.parametrize("vacancy", TRIANGLE_CELLS)
def test_triangle_every_single_vacancy_is_solvable(vacancy: tuple[int, int]) -> None:
    text = "\n".join("".join("." if (r, c) == vacancy else "o" for c in range(r + 1)) for r in range(5))
    jumps = solve(text, "triangle")
    assert jumps is not None and len(jumps) == 13 and is_solution(text, jumps, "triangle")


TINY_BOARDS = [("tiny-1", True, 2), ("tiny-2", True, 1), ("tiny-3", True, 2), ("tiny-4", False, None)]


@pytest.mark.parametrize(("name", "is_solvable", "moves"), TINY_BOARDS)
def test_tiny_boards(name: str, is_solvable: bool, moves: int | None) -> None:
    text = (PEGS / f"{name}.txt").read_text(encoding="utf-8")
    assert solvable(text) is is_solvable
    assert min_moves(text) == moves


def test_jumps_chains_and_goal() -> None:
    tiny3 = (PEGS / "tiny-3.txt").read_text(encoding="utf-8")
    plan = [((1, 0), (1, 1), (1, 2)), ((0, 0), (0, 1), (0, 2)), ((0, 2), (1, 2), (2, 2))]
    assert is_solution(tiny3, plan) and count_moves(plan) == 2
    assert apply(tiny3, plan).pegs == {(2, 2)}
    assert not is_solution(tiny3, plan[:2])  # two pegs left
    assert not is_solution((PEGS / "tiny-4.txt").read_text(encoding="utf-8"), plan)  # ends off the target
    with pytest.raises(ValueError, match="jump 1"):
        apply(tiny3, [((0, 0), (1, 1), (2, 2))])  # diagonal on a square board
    with pytest.raises(ValueError, match="occupied"):
        apply(parse_board("ooo"), [((0, 0), (0, 1), (0, 2))])
    assert count_moves([]) == 0
