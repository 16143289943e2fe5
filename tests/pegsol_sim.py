"""An independent peg solitaire checker and small-board solver, written from the rules.

Shares nothing with puzzledsl, so plans found by the compiler are checked against the rules as
stated. Board text: 'o' peg, '.' empty hole, '*' empty target hole, '@' peg on a target hole,
' ' no hole; short rows are padded with no-hole. A jump moves a peg over an adjacent peg into an
empty hole and removes the jumped peg. 'square' boards jump orthogonally; the 'triangle' board
(written left-aligned, row r holding columns 0..r) also jumps along the (1, 1) diagonal.
Goal: one peg left, and if the board marks targets, the pegs left are exactly the targets.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Literal

Cell = tuple[int, int]
Jump = tuple[Cell, Cell, Cell]
Geometry = Literal["square", "triangle"]

DIRECTIONS: dict[str, tuple[Cell, ...]] = {
    "square": ((0, 1), (0, -1), (1, 0), (-1, 0)),
    "triangle": ((0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, -1)),
}


@dataclass(frozen=True)
class Board:
    """Holes, the pegs in them, and the target holes (empty set = the last peg may end anywhere)."""

    holes: frozenset[Cell]
    pegs: frozenset[Cell]
    targets: frozenset[Cell]


def parse_board(text: str) -> Board:
    """Parse board text; trailing blank lines are ignored, leading ones count as rows of no holes."""
    holes, pegs, targets = set(), set(), set()
    for r, line in enumerate(text.rstrip("\n").split("\n")):
        for c, ch in enumerate(line.rstrip("\r")):
            if ch == " ":
                continue
            if ch not in "o.*@":
                raise ValueError(f"unknown board letter {ch!r} at {(r, c)}")
            holes.add((r, c))
            if ch in "o@":
                pegs.add((r, c))
            if ch in "*@":
                targets.add((r, c))
    return Board(frozenset(holes), frozenset(pegs), frozenset(targets))


def load_board(path: str | Path) -> Board:
    """Read and parse a board file."""
    return parse_board(Path(path).read_text(encoding="utf-8"))


def _board(board: Board | str) -> Board:
    return parse_board(board) if isinstance(board, str) else board


def check_jump(board: Board, jump: Jump, geometry: Geometry = "square") -> str | None:
    """Why `jump` is illegal on `board`, or None if it is legal."""
    a, b, c = jump
    d = (b[0] - a[0], b[1] - a[1])
    if d not in DIRECTIONS[geometry] or (c[0] - b[0], c[1] - b[1]) != d:
        return f"{a}->{b}->{c} is not a straight jump on a {geometry} board"
    if not {a, b, c} <= board.holes:
        return f"{a}->{b}->{c} leaves the board"
    if a not in board.pegs or b not in board.pegs:
        return f"{a}->{b}->{c} needs pegs at {a} and {b}"
    if c in board.pegs:
        return f"{a}->{b}->{c} lands on an occupied hole {c}"
    return None


def apply(board: Board | str, jumps: Sequence[Jump], geometry: Geometry = "square") -> Board:
    """Play `jumps` in order; raises ValueError naming the first illegal one."""
    b = _board(board)
    pegs = set(b.pegs)
    for i, jump in enumerate(jumps, start=1):
        cur = Board(b.holes, frozenset(pegs), b.targets)
        if why := check_jump(cur, jump, geometry):
            raise ValueError(f"jump {i}: {why}")
        a, over, to = jump
        pegs -= {a, over}
        pegs.add(to)
    return Board(b.holes, frozenset(pegs), b.targets)


def is_goal(board: Board) -> bool:
    """One peg left (or, with targets marked, pegs exactly on the targets)."""
    return board.pegs == board.targets if board.targets else len(board.pegs) == 1


def is_solution(board_text: Board | str, jumps: Sequence[Jump], geometry: Geometry = "square") -> bool:
    """All jumps legal and the final position meets the goal."""
    try:
        return is_goal(apply(board_text, jumps, geometry))
    except ValueError:
        return False


def count_moves(jumps: Sequence[Jump]) -> int:
    """Moves in the competition sense: maximal chains of consecutive jumps by the same peg."""
    return sum(1 for i, j in enumerate(jumps) if i == 0 or j[0] != jumps[i - 1][2])


def position_class(pegs: frozenset[Cell] | set[Cell]) -> tuple[int, int]:
    """The de Bruijn invariant of a square-board position: (sum of w^(r+c), sum of w^(r-c)) in GF(4).

    An orthogonal jump keeps it (w^k + w^(k+1) = w^(k+2)), so a position whose class no single hole
    has cannot end with one peg. GF(4) = {0, 1, w, w^2} is coded 0, 1, 2, 3 with addition as XOR.
    """
    a = b = 0
    for r, c in pegs:
        a ^= (1, 2, 3)[(r + c) % 3]
        b ^= (1, 2, 3)[(r - c) % 3]
    return a, b


def possible_end_cells(board: Board | str) -> list[Cell]:
    """Holes where a single last peg could stand by the position-class invariant (square boards; necessary only)."""
    b = _board(board)
    k = position_class(b.pegs)
    return [h for h in sorted(b.holes) if position_class({h}) == k]


def legal_jumps(board: Board, geometry: Geometry = "square") -> list[Jump]:
    """Every jump playable on `board`."""
    out = []
    for a in sorted(board.pegs):
        for dr, dc in DIRECTIONS[geometry]:
            b, c = (a[0] + dr, a[1] + dc), (a[0] + 2 * dr, a[1] + 2 * dc)
            if b in board.pegs and c in board.holes and c not in board.pegs:
                out.append((a, b, c))
    return out


def solve(board_text: Board | str, geometry: Geometry = "square") -> list[Jump] | None:
    """One winning jump sequence by DFS memoised over peg sets; None if there is none. Small boards only."""
    start = _board(board_text)
    holes, targets = start.holes, start.targets

    @cache
    def search(pegs: frozenset[Cell]) -> tuple[Jump, ...] | None:
        b = Board(holes, pegs, targets)
        if is_goal(b):
            return ()
        for a, over, to in legal_jumps(b, geometry):
            rest = search((pegs - {a, over}) | {to})
            if rest is not None:
                return ((a, over, to), *rest)
        return None

    found = search(start.pegs)
    return None if found is None else list(found)


def solvable(board_text: Board | str, geometry: Geometry = "square") -> bool:
    """Whether the goal can be reached (exhaustive; small boards only)."""
    return solve(board_text, geometry) is not None


def min_moves(board_text: Board | str, geometry: Geometry = "square") -> int | None:
    """Fewest moves (jump chains) of a solution by 0-1 BFS over (pegs, cell of the last landing); small boards only.

    Continuing a chain with the peg that just landed costs 0, any other jump starts a new move and costs 1.
    """
    start = _board(board_text)
    holes, targets = start.holes, start.targets
    first: tuple[frozenset[Cell], Cell | None] = (start.pegs, None)
    best = {first: 0}
    queue = deque([first])
    while queue:
        state = queue.popleft()
        pegs, last = state
        cost = best[state]
        board = Board(holes, pegs, targets)
        if is_goal(board):
            return cost
        for a, over, to in legal_jumps(board, geometry):
            step = 0 if a == last else 1
            nxt = ((pegs - {a, over}) | {to}, to)
            if nxt not in best or best[nxt] > cost + step:
                best[nxt] = cost + step
                if step:
                    queue.append(nxt)
                else:
                    queue.appendleft(nxt)
    return None
