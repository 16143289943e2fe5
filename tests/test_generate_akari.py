"""`puzzledsl generate akari` puts numbers on walls (it once placed plain walls only: the rule
file's legend named one wall value, 9, and the generator tried no other), and each puzzle has
one solution, counted by a brute-force search written from the rules (no puzzledsl code), its
solution passed by the independent checker."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from puzzledsl.generate import Generator, Request
from puzzledsl.generate_cli import plain_givens
from tests.genre_checkers import check_akari

AKARI = Path(__file__).resolve().parent.parent / "puzzles" / "akari.puz"
ORTH = ((-1, 0), (0, 1), (1, 0), (0, -1))


def _janko(board: list[list[int | None]]) -> str:
    """The board as janko writes it: `-` white, `x` a plain wall, a digit a numbered wall."""
    def token(v: int | None) -> str:
        return "-" if v is None else "x" if v == 9 else str(v)
    return "\n".join([f"{len(board)} {len(board[0])}", *(" ".join(map(token, row)) for row in board)]) + "\n"


def solutions(board: list[list[int | None]], most: int = 2) -> list[set[tuple[int, int]]]:
    """Up to `most` sets of lights that satisfy the rules, by backtracking over the white cells:
    no two lights see each other, no numbered wall gets more lights than its number, and at the
    end every white cell is lit and every number met."""
    rows, cols = len(board), len(board[0])
    white = [(r, c) for r in range(rows) for c in range(cols) if board[r][c] is None]

    def seen(p: tuple[int, int]) -> list[tuple[int, int]]:
        out = []
        for dr, dc in ORTH:
            r, c = p[0] + dr, p[1] + dc
            while 0 <= r < rows and 0 <= c < cols and board[r][c] is None:
                out.append((r, c))
                r, c = r + dr, c + dc
        return out

    sees = {p: seen(p) for p in white}
    walls = {(r, c): board[r][c] for r in range(rows) for c in range(cols) if board[r][c] in range(5)}
    beside = {p: [(p[0] + dr, p[1] + dc) for dr, dc in ORTH] for p in walls}
    found: list[set[tuple[int, int]]] = []

    def over(lights: set[tuple[int, int]]) -> bool:
        return any(sum(q in lights for q in beside[w]) > n for w, n in walls.items())

    def go(i: int, lights: set[tuple[int, int]]) -> None:
        if len(found) >= most:
            return
        if i == len(white):
            lit = lights | {q for p in lights for q in sees[p]}
            if lit >= set(white) and all(sum(q in lights for q in beside[w]) == n for w, n in walls.items()):
                found.append(set(lights))
            return
        p = white[i]
        if not any(q in lights for q in sees[p]):
            lights.add(p)
            if not over(lights):
                go(i + 1, lights)
            lights.discard(p)
        go(i + 1, lights)

    go(0, set())
    return found


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_generated_akari_has_numbered_walls_and_one_solution(seed):
    gen = Generator(Request(AKARI, "6x6"))
    p = gen.puzzle(random.Random(seed))
    board = plain_givens(gen.rules, p.givens, gen.decls)["board"]
    numbers = [v for row in board for v in row if v in range(5)]
    assert numbers, f"seed {seed}: no numbered wall in {board}"
    found = solutions(board)
    assert len(found) == 1, f"seed {seed}: {len(found)} solutions by brute force"
    lights = found[0]
    sol = [["o" if (r, c) in lights else "-" for c in range(6)] for r in range(6)]
    assert check_akari(_janko(board), sol) == []


def test_brute_force_counts_solutions():
    """The counter itself: an open 2x2 board has two solutions (lights in opposite corners); a
    cell between a wall and the edge lights only itself, so a 2 between two such cells is met
    and a 1 cannot be."""
    assert len(solutions([[None, None], [None, None]])) == 2
    assert len(solutions([[None, None, None]], most=5)) == 3
    assert solutions([[None, 2, None]]) == [{(0, 0), (0, 2)}]
    assert solutions([[None, 1, None]]) == []
