"""Run-length clues: `runs(c in 1..C: black[r, c]) == [3, 1, 2]`.

Run-length clues say which blocks of consecutive true cells a line holds. Written with
start variables per block, a rule file needs helper grids that uniqueness then has to ignore;
stated as the sequence's membership in a regular language, the compiler needs nothing but
the cells. The automaton below is deterministic (state: blocks done, cells into the next),
so "the prefix up to cell i ends in state s" is a formula built from the previous cell's
states, and the clue holds exactly when the whole line ends in an accepting state. States
from which the blocks left cannot fit in the cells left are dropped while building, which is
most of the propagation a hand encoding gives.
"""

from __future__ import annotations

from dataclasses import dataclass

from .model import Formula, Model, neg


@dataclass(frozen=True)
class Runs:
    """The blocks of true cells of a sequence of conditions, known only once solved."""

    cells: tuple[Formula, ...]


def runs_equal(m: Model, cells: tuple[Formula, ...], lengths: list[int]) -> Formula:
    """The formula "the blocks of true cells of `cells` have exactly these lengths, in order"."""
    if any(b < 1 for b in lengths):
        return False  # no block has fewer than one cell
    k, n = len(lengths), len(cells)
    # cells still needed from state (j, c): the rest of block j + 1, then each later block and its gap
    after = [0] * (k + 1)
    for j in range(k - 1, -1, -1):
        after[j] = lengths[j] + (1 + after[j + 1] if j + 1 < k else 0)

    def needed(j: int, c: int) -> int:
        return 0 if j == k else after[j] - c

    reach: dict[tuple[int, int], Formula] = {(0, 0): True}
    for i, x in enumerate(cells):
        left = n - i - 1  # cells after this one
        nxt: dict[tuple[int, int], list[Formula]] = {}
        for (j, c), f in reach.items():
            for state, g in _steps(j, c, f, x, lengths, m):
                if g is not False and needed(*state) <= left:
                    nxt.setdefault(state, []).append(g)
        reach = {s: m.or_(fs) for s, fs in nxt.items()}
    return m.or_([f for (j, c), f in reach.items() if j == k or (j == k - 1 and c == lengths[j])])


def _steps(j: int, c: int, f: Formula, x: Formula, lengths: list[int], m: Model):
    """The states after reading cell x from state (j, c) reached under f, each with its formula."""
    if c == 0:
        yield (j, 0), m.and_([f, neg(x)])
        if j < len(lengths):
            yield (j, 1), m.and_([f, x])
    elif c < lengths[j]:
        yield (j, c + 1), m.and_([f, x])
    else:  # block j + 1 is complete: a gap must follow
        yield (j + 1, 0), m.and_([f, neg(x)])
