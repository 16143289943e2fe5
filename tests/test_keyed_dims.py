"""Variables indexed by a computed list of values (`var take[choices]: bool`), and views over a
given grid (`show area over num`). Shikaku is the example: each number takes one of its
candidate rectangles. Solution counts are compared with a brute-force enumeration of the
ways to cut a small board into rectangles, written from the genre's rules alone."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from puzzledsl.compile import compile_file
from puzzledsl.errors import PuzzleError
from puzzledsl.solve import Mode, solve

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "puzzles" / "shikaku.puz"

Rect = tuple[int, int, int, int]  # top, left, height, width (1-based)


def _cuts(R: int, C: int) -> list[list[Rect]]:
    """Every way to cut an R×C board into rectangles (fill the first free cell, row-major)."""
    out: list[list[Rect]] = []
    used = [[False] * (C + 1) for _ in range(R + 1)]

    def free_cell() -> tuple[int, int] | None:
        return next(((r, c) for r in range(1, R + 1) for c in range(1, C + 1) if not used[r][c]), None)

    def go(acc: list[Rect]) -> None:
        cell = free_cell()
        if cell is None:
            out.append(list(acc))
            return
        r, c = cell
        for h in range(1, R - r + 2):
            for w in range(1, C - c + 2):
                if any(used[r + i][c + j] for i in range(h) for j in range(w)):
                    continue
                for i in range(h):
                    for j in range(w):
                        used[r + i][c + j] = True
                acc.append((r, c, h, w))
                go(acc)
                acc.pop()
                for i in range(h):
                    for j in range(w):
                        used[r + i][c + j] = False

    go([])
    return out


def _fits(cut: list[Rect], clues: dict[tuple[int, int], int]) -> bool:
    for (t, left, h, w) in cut:
        inside = [v for (r, c), v in clues.items() if t <= r < t + h and left <= c < left + w]
        if inside != [h * w]:
            return False
    return True


def _instance(tmp_path: Path, grid: list[list[int | None]]) -> Path:
    f = tmp_path / "i.puz"
    rows = "\n".join(" ".join("-" if v is None else str(v) for v in row) for row in grid)
    f.write_text(f'use "shikaku"\nnum = """\n{rows}\n"""\n')
    return f


def test_bundled_instance_is_unique_and_a_cut_into_rectangles():
    out = solve(compile_file(ROOT / "puzzles" / "shikaku" / "constructed-7x7.puz"), mode=Mode(unique=True))
    assert out.status == "sat" and out.unique
    take = out.solutions[0]["take"]
    chosen = [k[0] for k, v in take.cells.items() if v]
    covered: dict[tuple[int, int], int] = {}
    for _clue, (t, left, h, w) in chosen:
        for r in range(t, t + h):
            for c in range(left, left + w):
                assert (r, c) not in covered
                covered[(r, c)] = h * w
    assert len(covered) == 49
    area = out.solutions[0]["area"] if "area" in out.solutions[0] else None
    assert area is None or all(area.cells[k] == covered[k] for k in covered)


@pytest.mark.parametrize("seed", range(40))
def test_counts_agree_with_brute_force(tmp_path, seed):
    rnd = random.Random(seed)
    R, C = rnd.choice([(2, 3), (3, 3), (3, 4), (4, 3), (4, 4)])
    cuts = _cuts(R, C)
    base = rnd.choice(cuts)
    clues: dict[tuple[int, int], int] = {}
    for (t, left, h, w) in base:
        if rnd.random() < 0.8:
            clues[(t + rnd.randrange(h), left + rnd.randrange(w))] = h * w
    if rnd.random() < 0.2 and clues:  # sometimes a wrong clue: no solution
        p = rnd.choice(sorted(clues))
        clues[p] += 1
    grid = [[clues.get((r, c)) for c in range(1, C + 1)] for r in range(1, R + 1)]
    expected = sum(_fits(cut, clues) for cut in cuts)
    out = solve(compile_file(_instance(tmp_path, grid)), mode=Mode(count=0))
    assert out.count == expected


def _run(tmp_path: Path, text: str):
    f = tmp_path / "r.puz"
    f.write_text(text)
    return solve(compile_file(f), mode=Mode(count=0))


def test_an_index_is_taken_whole_in_every_dimension(tmp_path):
    text = ("define L = list(k in 1..3: (k, k))\nvar x[L, 1..2]: 0..3\n"
            "rule forall p in L: x[p, 1] + x[p, 2] == p[0]\n"
            "rule forall p in L, q in L where p[0] < q[0]: x[p, 1] < x[q, 1]\n")
    # x[(k,k), 1] rises strictly through 0..3 with x[(k,k), 1] <= k: (0,1,2), (0,1,3), (0,2,3), (1,2,3)
    assert _run(tmp_path, text).count == 4


def test_a_set_of_symbols_as_a_dimension(tmp_path):
    text = ('given g[1..2]: sym legend { "a": apple, "b": pear }\ng = "a b"\n'
            "var eat[set(p in cells(g): g[p])]: bool\nrule eat[apple] and not eat[pear]\n")
    assert _run(tmp_path, text).count == 1


@pytest.mark.parametrize("text, message", [
    ("define L = [(1, 2), (3, 4)]\nvar x[L]: bool\nrule x[(5, 6)]\n", "(5, 6) is not an index of `x`"),
    ("define L = [1, 2, 2]\nvar x[L]: bool\n", "names a value twice"),
    ("define L = [[1], [2]]\nvar x[L]: bool\n", "holds numbers, symbols or tuples of them, not a list"),
    ("define L = [(1, [(0, 0)]), (2, [(1, 0)])]\nvar x[L]: bool\n", "not a tuple whose item 2 is a list"),
    ("define L = [(1, 2)]\nvar x[L]: bool outside false\n", "no edges and no boundary"),
    ("define L = [(1, 2)]\nvar x[L]: bool\nrule x[(1, 2), 1]\n", "has 1 index(es), but 2 were given"),
])
def test_errors(tmp_path, text, message):
    with pytest.raises(PuzzleError) as err:
        _run(tmp_path, text)
    assert message in err.value.message and err.value.span is not None


def test_json_and_text_output(tmp_path):
    from puzzledsl.cli import main
    f = _instance(tmp_path, [[2, None], [None, 2]])
    assert main(["solve", str(f), "--json"]) == 0


def test_cli_json_keeps_list_order(tmp_path, capsys):
    from puzzledsl.cli import main
    f = _instance(tmp_path, [[None, 2], [None, 2]])
    assert main(["solve", str(f), "--json", "--unique"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["unique"] is True
    assert got["solutions"][0]["area"] == [[2, 2], [2, 2]]
    assert got["solutions"][0]["take"] == [True, True]  # one candidate each: the two rows


def test_a_view_over_a_given_grid_needs_its_shape(tmp_path):
    text = "given g[1..2]: int = [1, 2]\ngiven n: int = 3\nvar x: bool\ndefine v(i) = g[i] + x\nshow v over n\n"
    with pytest.raises(PuzzleError) as err:
        _run(tmp_path, text)
    assert "unknown name `n`" in err.value.message
