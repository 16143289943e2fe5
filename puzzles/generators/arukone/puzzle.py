"""Step 4 and the output: from a unique cover to the puzzle as it is written.

The labels are ordered so that a greedy router (pairs in label order, each along a shortest
path, as BWINF's checker does) fails: pair 1 is, where possible, a line longer than the
shortest way between its ends. On a strictly unique puzzle such a greedy run cannot succeed.
"""

from __future__ import annotations

import random

from .board import Board, Line


def order_for_greedy(board: Board, lines: list[Line], rng: random.Random) -> tuple[list[Line], bool]:
    """The lines in label order, chosen so that routing pairs in that order along shortest
    paths goes wrong: as early as possible a line longer than the shortest way between its
    ends, given the other ends and the lines before it. True when such a line was found."""
    ends = {c for line in lines for c in (line[0], line[-1])}
    rest = list(range(len(lines)))
    rng.shuffle(rest)
    placed: list[int] = []
    blocked = set(ends)
    while rest:
        best, best_gain = None, 0
        for i in rest:
            line = lines[i]
            dist = board.distance(line[0], line[-1], blocked - {line[0], line[-1]})
            gain = len(line) - 1 - dist if dist is not None else 0
            if gain > best_gain:
                best, best_gain = i, gain
        if best is not None:
            rest.remove(best)
            return [lines[i] for i in placed + [best] + rest], True
        i = rest.pop()
        placed.append(i)
        blocked.update(lines[i])
    return [lines[i] for i in placed], False


def bwinf_text(board: Board, lines: list[Line]) -> str:
    """The puzzle as a BWINF file: `N`, `K`, then N rows of N integers, 0 = empty."""
    rows = [" ".join(str(v or 0) for v in row) for row in board.clues(lines)]
    return "\n".join([str(board.n), str(len(lines))] + rows) + "\n"
