"""Step 1, the layout: the intended solution, as lines that cover the whole board.

A random domino tiling's dominoes (lines of two cells) are joined end to end until K lines
are left. Two lines are joined only where they touch nowhere else, so every line stays
touch-free (it never runs beside itself); when no such join is left, an end cell moves from
one line to a neighbouring line's end to open new ones. Touch-free covers of the whole board
are nearly always unique puzzles, which is why the later steps seldom have much to repair.
"""

from __future__ import annotations

import random

from .board import Board, Line


class Layout:
    """Lines covering the board, kept touch-free (a line never runs beside itself) where it
    can: such covers are nearly always unique puzzles. Lines have ids; `owner` maps cells."""

    def __init__(self, board: Board, lines: list[Line]) -> None:
        self.b = board
        self.lines: dict[int, Line] = {}
        self.owner = [-1] * board.size
        self.end = [False] * board.size  # the cell is a head (an end of its line)
        self.next = 0
        for line in lines:
            self.add(line)

    def add(self, line: Line) -> int:
        """Take a line in under a new id (ids are never reused, so a join or split is a new line)."""
        i = self.next
        self.next += 1
        self.lines[i] = line
        owner = self.owner
        for c in line:
            owner[c] = i
        self.end[line[0]] = self.end[line[-1]] = True
        return i

    def __len__(self) -> int:
        return len(self.lines)

    def as_list(self) -> list[Line]:
        return [list(x) for x in self.lines.values()]

    def contacts(self, i: int, j: int) -> int:
        """How many pairs of neighbouring cells lines i and j share (1: they meet only at one place)."""
        a, b = (i, j) if len(self.lines[i]) <= len(self.lines[j]) else (j, i)
        owner, nbrs = self.owner, self.b.nbrs
        return sum(1 for x in self.lines[a] for y in nbrs[x] if owner[y] == b)

    def merges(self, of: set[int] | None = None, touching: bool = False,
               forbidden: set[frozenset[int]] | None = None) -> list[tuple[int, int]]:
        """Pairs of neighbouring heads (c, d) of two lines that may be joined; the lines
        must touch nowhere else unless `touching`. Only lines in `of` when given."""
        out: list[tuple[int, int]] = []
        owner, nbrs, end = self.owner, self.b.nbrs, self.end
        for i in (self.lines if of is None else of):
            line = self.lines.get(i)
            if line is None:
                continue
            for c in {line[0], line[-1]}:
                for d in nbrs[c]:
                    if not end[d]:
                        continue
                    j = owner[d]
                    if j == i or (of is None and j < i):
                        continue
                    if forbidden and frozenset((i, j)) in forbidden:
                        continue
                    if touching or self.contacts(i, j) == 1:
                        out.append((c, d))
        return out

    def merge(self, c: int, d: int) -> int:
        """Join the line ending at c to the line ending at its neighbour d; the new line's id."""
        i, j = self.owner[c], self.owner[d]
        a = self.lines.pop(i)
        b = self.lines.pop(j)
        if a[-1] != c:
            a.reverse()
        if b[0] != d:
            b.reverse()
        self.end[c] = self.end[d] = False
        return self.add(a + b)

    def transfers(self) -> list[tuple[int, int]]:
        """(c, d): head c moves from its line to the line ending at its neighbour d, keeping
        both lines touch-free and the first at two cells or more."""
        out: list[tuple[int, int]] = []
        for i, line in self.lines.items():
            if len(line) >= 3:
                for c in (line[0], line[-1]):
                    out += [(c, d) for d in self.b.nbrs[c] if self._can_transfer(i, c, d)]
        return out

    def _can_transfer(self, i: int, c: int, d: int) -> bool:
        j = self.owner[d]
        owner = self.owner
        return j != i and self.end[d] and sum(1 for x in self.b.nbrs[c] if owner[x] == j) == 1

    def random_transfer(self, rng: random.Random, tries: int = 16) -> tuple[int, int] | None:
        """A random allowed transfer (sampled; the full list only when sampling finds none)."""
        ids = [i for i, line in self.lines.items() if len(line) >= 3]
        if not ids:
            return None
        nbrs = self.b.nbrs
        for _ in range(tries):
            i = ids[int(rng.random() * len(ids))]
            line = self.lines[i]
            c = line[0] if rng.random() < 0.5 else line[-1]
            nb = nbrs[c]
            d = nb[int(rng.random() * len(nb))]
            if self._can_transfer(i, c, d):
                return c, d
        moves = self.transfers()
        return rng.choice(moves) if moves else None

    def transfer(self, c: int, d: int) -> tuple[int, int]:
        """Move head c to the end d of the neighbouring line; the ids of the two lines."""
        i, j = self.owner[c], self.owner[d]
        a, b = self.lines[i], self.lines[j]
        if a[0] == c:
            a.pop(0)
            self.end[a[0]] = True
        else:
            a.pop()
            self.end[a[-1]] = True
        if b[-1] == d:
            b.append(c)
        else:
            b.insert(0, c)
        self.end[d] = False
        self.owner[c] = j
        return i, j

    def split(self, i: int, at: int) -> tuple[int, int]:
        """Cut line i before its cell number `at`; the ids of the two new lines."""
        line = self.lines.pop(i)
        return self.add(line[:at]), self.add(line[at:])  # add() marks the new ends

    def reduce(self, k: int, rng: random.Random, budget: int, touching: bool = False,
               forbidden: set[frozenset[int]] | None = None) -> bool:
        """Join lines until there are k: touch-free joins where possible, head transfers
        to open new ones (at most `budget`), then (when `touching`) any join."""
        options = self.merges(forbidden=forbidden)
        while len(self) > k:
            if options:
                c, d = rng.choice(options)
                new = self.merge(c, d)
                options = [(x, y) for x, y in options if self.owner[x] != new and self.owner[y] != new]
                options += self.merges({new}, forbidden=forbidden)
                continue
            move = self.random_transfer(rng) if budget > 0 else None
            if move:
                budget -= 1
                i, j = self.transfer(*move)
                options = self.merges({i, j}, forbidden=forbidden)
                continue
            if touching:
                loose = self.merges(touching=True, forbidden=forbidden)
                if loose:  # the join that touches least
                    scored = [(self.contacts(self.owner[c], self.owner[d]), rng.random(), c, d) for c, d in loose]
                    _, _, c, d = min(scored)
                    self.merge(c, d)
                    options = self.merges(forbidden=forbidden)
                    continue
            return False
        return True


def dominoes(board: Board, rng: random.Random) -> list[Line]:
    """A random domino tiling (a regular one mixed by flipping 2x2 blocks); on an odd board
    the corner cell joins a neighbouring domino."""
    n = board.n
    lab = [-1] * board.size
    k = 0
    for r in range(0, n - 1, 2):
        for c in range(n):
            lab[r * n + c] = lab[(r + 1) * n + c] = k
            k += 1
    if n % 2:
        for c in range(0, n - 1, 2):
            lab[(n - 1) * n + c] = lab[(n - 1) * n + c + 1] = k
            k += 1
    rand = rng.random
    for _ in range(6 * board.size):
        r, c = int(rand() * (n - 1)), int(rand() * (n - 1))
        a, b, x, y = r * n + c, r * n + c + 1, (r + 1) * n + c, (r + 1) * n + c + 1
        if lab[a] == lab[b] and lab[x] == lab[y]:
            lab[x], lab[b] = lab[a], lab[y]
        elif lab[a] == lab[x] and lab[b] == lab[y]:
            lab[b], lab[x] = lab[a], lab[y]
    pieces: dict[int, Line] = {}
    for c in range(board.size):
        if lab[c] >= 0:
            pieces.setdefault(lab[c], []).append(c)
    if n % 2:  # the odd corner joins a neighbour domino at that domino's end
        corner = board.size - 1
        for d in board.nbrs[corner]:
            piece = pieces[lab[d]]
            piece.remove(d)
            pieces[lab[d]] = piece + [d, corner]
            break
    return list(pieces.values())
