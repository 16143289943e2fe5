"""Arukone (Numberlink) puzzles with exactly one solution, written in BWINF format.

    puzzledsl generate arukone --size N --pairs K [--count M] [--seed S] [--fill] [--touchfree]
                               [--out DIR] [--jobs J] [--scheduler ADDRESS] [--verify rules|fast]

How a puzzle is made:

1. A layout, i.e. the intended solution: a random domino tiling whose dominoes (lines of two
   cells) are joined end to end until K lines are left. Two lines are joined only where they
   touch nowhere else, so every line stays touch-free (it never runs beside itself); when no
   such join is left, an end cell moves from one line to a neighbouring line's end to open new
   ones. Touch-free covers of the whole board are nearly always unique puzzles. (`--fill`
   alone also allows joins that touch, as a last resort.)
2. Uniqueness under the chosen notion (`strict` = the literal rules: cells may stay empty and
   solutions differ by their edges; `--fill` = every cell used; `--touchfree` = a line never
   runs beside itself) is checked by a SAT model of its own in one incremental solver per
   process: a puzzle is a set of assumptions (its ends), its known solution is excluded by one
   clause, and cycles are cut lazily. For a full cover, strict uniqueness equals uniqueness
   among touch-free solutions (see `Generator`), which the solver decides much faster.
3. A second solution, when there is one, guides a repair instead of a fresh start: a line is
   cut at an edge the second solution does not use (the new ends rule that solution out), and
   two other lines are joined to get back to K. The result is checked again.
4. Labels are ordered so that a greedy router (pairs in label order, each along a shortest
   path, as BWINF's checker does) fails: pair 1 is, where possible, a line longer than the
   shortest way between its ends. On a strictly unique puzzle such a greedy run cannot succeed.
5. Before it is written, each puzzle is verified with the real rules (`puzzles/arukone.puz`,
   compiled and solved with `Mode(unique=True)` and the notion's options); should they find a
   second solution, it is repaired like in step 3. `--verify fast` skips this step.

Output: `DIR/arukone-N-K-SEED-I.txt` (I = 1..M): `N`, `K`, then N rows of N integers, 0 = empty.
The same command line (seed and --jobs included) writes the same files. With `--scheduler`
the J workers run on a Dask cluster (J = --jobs, else the cluster's threads, printed at the
end): the same seed and J write the same files as `--jobs J` on one machine.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections import deque
from contextlib import ExitStack
from dataclasses import asdict, dataclass
from pathlib import Path

from puzzledsl.words import count

RULES = Path(__file__).resolve().parent.parent / "arukone.puz"

Line = list[int]  # cells r * n + c, end to end


# ------------------------------------------------------------------ the board


class Board:
    """An n x n grid: cell ids, neighbours, and edge ids between neighbours."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.size = n * n
        self.nbrs: list[list[int]] = []
        for c in range(self.size):
            r, k = divmod(c, n)
            self.nbrs.append([r2 * n + k2 for r2, k2 in ((r - 1, k), (r, k - 1), (r, k + 1), (r + 1, k))
                              if 0 <= r2 < n and 0 <= k2 < n])
        self.edges = [(u, v) for u in range(self.size) for v in self.nbrs[u] if u < v]
        self.edge_id = {}
        for i, (u, v) in enumerate(self.edges):
            self.edge_id[u, v] = self.edge_id[v, u] = i
        self.incident = [[self.edge_id[c, d] for d in self.nbrs[c]] for c in range(self.size)]

    def labels(self, lines: list[Line]) -> list[int]:
        lab = [0] * self.size
        for i, line in enumerate(lines):
            for c in line:
                lab[c] = i + 1
        return lab

    def edge_set(self, lines: list[Line]) -> set[int]:
        return {self.edge_id[a, b] for line in lines for a, b in zip(line, line[1:])}

    def clues(self, lines: list[Line]) -> list[list[int | None]]:
        grid: list[list[int | None]] = [[None] * self.n for _ in range(self.n)]
        for i, line in enumerate(lines):
            for c in (line[0], line[-1]):
                grid[c // self.n][c % self.n] = i + 1
        return grid

    def distance(self, a: int, b: int, blocked: set[int]) -> int | None:
        """Length (in steps) of a shortest path from a to b through cells not blocked."""
        dist = {a: 0}
        todo = deque([a])
        while todo:
            c = todo.popleft()
            if c == b:
                return dist[c]
            for d in self.nbrs[c]:
                if d not in dist and (d == b or d not in blocked):
                    dist[d] = dist[c] + 1
                    todo.append(d)
        return None


# ------------------------------------------------------------------ layouts


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
        a, b = (i, j) if len(self.lines[i]) <= len(self.lines[j]) else (j, i)
        owner, nbrs = self.owner, self.b.nbrs
        return sum(1 for x in self.lines[a] for y in nbrs[x] if owner[y] == b)

    def merges(self, of: set[int] | None = None, touching: bool = False,
               forbidden: set[frozenset[int]] | None = None) -> list[tuple[int, int]]:
        """Pairs of neighbouring heads (c, d) of two lines that may be joined; the lines
        must touch nowhere else unless `touching`. Only lines in `of` when given."""
        out = []
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
        out = []
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


# ------------------------------------------------------------------ the uniqueness check


class Checker:
    """Numberlink as SAT in one incremental solver: a label per cell (0 = empty, unless fill),
    an edge variable per pair of neighbours, an `end` variable per cell. A puzzle is a set of
    assumptions (its ends and their labels), so one solver serves every candidate."""

    def __init__(self, board: Board, kmax: int, fill: bool, touchfree: bool, solver: str = "cadical195") -> None:
        from pysat.solvers import Solver

        self.board, self.kmax, self.fill, self.touchfree = board, kmax, fill, touchfree
        self.top = 0
        size = board.size
        first = 1 if fill else 0
        self.x = [[0] * (kmax + 1) for _ in range(size)]
        for c in range(size):
            for k in range(first, kmax + 1):
                self.x[c][k] = self._var()
        self.e = [self._var() for _ in board.edges]
        self.end = [self._var() for _ in range(size)]
        self.used = [0] + [self._var() for _ in range(kmax)]
        cl: list[list[int]] = []
        for c in range(size):
            xs = [self.x[c][k] for k in range(first, kmax + 1)]
            cl.append(xs)
            cl.extend(self._at_most_one(xs))
            for k in range(1, kmax + 1):
                cl.append([-self.x[c][k], self.used[k]])
            inc = [self.e[i] for i in board.incident[c]]
            end = self.end[c]
            d = len(inc)
            for i in range(d):
                for j in range(i + 1, d):
                    cl.append([-end, -inc[i], -inc[j]])
                    for m in range(j + 1, d):
                        cl.append([-inc[i], -inc[j], -inc[m]])
            cl.append([-end] + inc)
            empty = [] if fill else [self.x[c][0]]
            for skip in range(d):
                cl.append([end] + empty + [e for i, e in enumerate(inc) if i != skip])
            if not fill:
                cl.extend([-self.x[c][0], -e] for e in inc)
                cl.append([-self.x[c][0], -end])
        for i, (u, v) in enumerate(board.edges):
            e = self.e[i]
            for k in range(1, kmax + 1):
                cl.append([-e, -self.x[u][k], self.x[v][k]])
                cl.append([-e, -self.x[v][k], self.x[u][k]])
                if touchfree:
                    cl.append([-self.x[u][k], -self.x[v][k], e])
        n = board.n
        for r in range(n - 1):  # a 2x2 square of edges is a cycle: cut them all up front
            for k in range(n - 1):
                a, b, c, d = r * n + k, r * n + k + 1, (r + 1) * n + k, (r + 1) * n + k + 1
                eid = board.edge_id
                cl.append([-self.e[eid[a, b]], -self.e[eid[a, c]], -self.e[eid[b, d]], -self.e[eid[c, d]]])
        self.solver = Solver(name=solver, bootstrap_with=cl)
        self.checks = 0
        self.cuts = 0
        self.phases = True

    def phase_literals(self, lines: list[Line], mine: set[int]) -> list[int]:
        """Start the search at the known solution: another one is mostly a local change."""
        lab = self.board.labels(lines)
        out = [v if i in mine else -v for i, v in enumerate(self.e)]
        for c in range(self.board.size):
            out += [self.x[c][k] if lab[c] == k else -self.x[c][k] for k in range(0 if not self.fill else 1,
                                                                                  self.kmax + 1)]
        return out

    def _var(self) -> int:
        self.top += 1
        return self.top

    def _at_most_one(self, xs: list[int]) -> list[list[int]]:
        if len(xs) <= 6:
            return [[-a, -b] for i, a in enumerate(xs) for b in xs[i + 1:]]
        s = [self._var() for _ in xs[:-1]]  # sequential counter
        out = [[-xs[0], s[0]], [-xs[-1], -s[-1]]]
        for i in range(1, len(xs) - 1):
            out += [[-xs[i], s[i]], [-s[i - 1], s[i]], [-xs[i], -s[i - 1]]]
        return out

    def assumptions(self, lines: list[Line]) -> list[int]:
        ends = {}
        for i, line in enumerate(lines):
            ends[line[0]] = ends[line[-1]] = i + 1
        out = []
        for c in range(self.board.size):
            if c in ends:
                out += [self.end[c], self.x[c][ends[c]]]
            else:
                out.append(-self.end[c])
        out += [-self.used[k] for k in range(len(lines) + 1, self.kmax + 1)]
        return out

    def other_solution(self, lines: list[Line]) -> list[Line] | None:
        """A solution of the puzzle of `lines` (its ends) other than `lines`, or None."""
        self.checks += 1
        mine = self.board.edge_set(lines)
        act = self._var()
        # another solution lacks some edge of this one (a superset would need a cycle)
        self.solver.add_clause([-act] + [-self.e[i] for i in sorted(mine)])
        if self.phases:
            try:
                self.solver.set_phases(self.phase_literals(lines, mine))
            except NotImplementedError:
                self.phases = False
        assume = self.assumptions(lines) + [act]
        try:
            while self.solver.solve(assumptions=assume):
                model = self.solver.get_model()
                on = [i for i, v in enumerate(self.e) if model[v - 1] > 0]
                found, cycles = self.trace(lines, on)
                if not cycles:
                    return found
                for cyc in cycles:
                    self.solver.add_clause([-self.e[i] for i in cyc])
                    self.cuts += 1
            return None
        finally:
            self.solver.add_clause([-act])

    def trace(self, lines: list[Line], on: list[int]) -> tuple[list[Line], list[list[int]]]:
        """The lines of an edge set (walked from each pair's first end) and its cycles (edge ids)."""
        b = self.board
        adj: dict[int, list[int]] = {}
        for i in on:
            u, v = b.edges[i]
            adj.setdefault(u, []).append(v)
            adj.setdefault(v, []).append(u)
        seen: set[int] = set()
        out = []
        for line in lines:
            walk = [line[0]]
            prev, cur = -1, line[0]
            while True:
                nxt = [d for d in adj.get(cur, ()) if d != prev]
                if not nxt:
                    break
                prev, cur = cur, nxt[0]
                walk.append(cur)
            seen.update(walk)
            out.append(walk)
        cycles = []
        for s in adj:
            if s in seen:
                continue
            cyc, prev, cur = [], -1, s
            while True:
                seen.add(cur)
                step = next(d for d in adj[cur] if d != prev)
                cyc.append(b.edge_id[cur, step])
                prev, cur = cur, step
                if cur == s:
                    break
            cycles.append(cyc)
        return out, cycles

    def close(self) -> None:
        self.solver.delete()


# ------------------------------------------------------------------ labels


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


# ------------------------------------------------------------------ generating one puzzle


@dataclass
class Stats:
    layouts: int = 0
    checks: int = 0
    repairs: int = 0
    verified: int = 0
    rejected: int = 0  # by the real rules (should stay 0: the two checks agree)
    stuck: int = 0  # layouts that could not be brought down to K lines
    greedy_proof: int = 0  # puzzles whose label order provably defeats a shortest-path greedy router
    seconds: float = 0.0
    verify_seconds: float = 0.0

    def add(self, o: Stats) -> None:
        for f in self.__dataclass_fields__:
            setattr(self, f, getattr(self, f) + getattr(o, f))


@dataclass
class Settings:
    n: int
    k: int
    fill: bool = False
    touchfree: bool = False
    verify: str = "rules"
    rules: Path = RULES
    time_limit: float = 20.0
    max_layouts: int = 400
    max_steps: int = 40
    solver: str = "minisat22"  # measured fastest here, ahead of glucose4 and cadical195


class Generator:
    """Makes puzzles one after another (its SAT solver and compiled rules are reused)."""

    def __init__(self, s: Settings, rules: object = None) -> None:
        """`rules`: the parsed `puzzles/arukone.puz` when the caller has them (a Dask worker
        gets them sent, and need not read the file); else they are loaded from `s.rules`."""
        self.s = s
        self.board = Board(s.n)
        # a full cover (which every layout is) that is unique among touch-free solutions is unique
        # under the strict rules too: shortening every line of another solution until it no longer
        # touches itself gives a touch-free one, and it cannot give back this one. So the strict
        # check can search touch-free solutions only, which propagates far better.
        self.checker = Checker(self.board, s.k, s.fill, s.touchfree or not s.fill, s.solver)
        self.rules = rules
        if s.verify == "rules" and rules is None:
            from puzzledsl.compile import load_rules
            self.rules = load_rules(s.rules)
        self.budget = 4 * self.board.size  # head transfers allowed per reduction

    def close(self) -> None:
        self.checker.close()

    def puzzle(self, rng: random.Random, stats: Stats) -> list[Line] | None:
        """A unique puzzle's lines in label order, or None after `max_layouts` layouts."""
        t0 = time.perf_counter()
        try:
            stuck0 = stats.stuck
            for tried in range(1, self.s.max_layouts + 1):
                stats.layouts += 1
                lines = self._attempt(rng, stats)
                if lines is not None:
                    return lines
                if tried == 50 and stats.stuck - stuck0 == tried:
                    return None  # K lines are out of reach of these layouts: give up early
            return None
        finally:
            stats.seconds += time.perf_counter() - t0

    def _attempt(self, rng: random.Random, stats: Stats) -> list[Line] | None:
        """One layout, repaired until unique (its lines in label order), or None to start over."""
        s, b = self.s, self.board
        loose = s.fill and not s.touchfree  # joins that touch are allowed (only the fill notion survives them)
        lay = Layout(b, dominoes(b, rng))
        if not lay.reduce(s.k, rng, self.budget, loose):
            stats.stuck += 1
            return None
        for _ in range(s.max_steps):
            lines = lay.as_list()
            stats.checks += 1
            other = self.checker.other_solution(lines)
            if other is None:
                lines, proof = order_for_greedy(b, lines, rng)
                if self.rules is None:
                    stats.greedy_proof += proof
                    return lines
                unique, second = self._verify(lines, stats)
                if unique:
                    stats.greedy_proof += proof
                    return lines
                stats.rejected += 1
                if second is None:
                    return None  # undecided within the time limit
                cuts = [(i, j) for i, line in lay.lines.items() for j in range(2, len(line) - 1)
                        if not second[line[j - 1]] == second[line[j]] == second[line[0]]]
            else:
                used = b.edge_set(other)
                cuts = [(i, j) for i, line in lay.lines.items() for j in range(2, len(line) - 1)
                        if b.edge_id[line[j - 1], line[j]] not in used]
            # cut a line at an edge the other solution does not use, which rules that solution
            # out (the new ends cannot lie inside its lines); then join two lines to get back to k
            stats.repairs += 1
            if not cuts:
                return None
            a, c = lay.split(*rng.choice(cuts))
            if not lay.reduce(s.k, rng, self.budget, loose, {frozenset((a, c))}):
                return None
        return None

    def _verify(self, lines: list[Line], stats: Stats) -> tuple[bool, list[int] | None]:
        """Uniqueness by the real rules; when not unique, the second solution's labels per cell."""
        from puzzledsl.compile import compile_givens
        from puzzledsl.solve import Mode, solve

        t0 = time.perf_counter()
        options = {"fill": "true"} if self.s.fill else {}
        if self.s.touchfree:
            options["touchfree"] = "true"
        compiled = compile_givens(self.rules, {"num": self.board.clues(lines)}, options=options or None)
        out = solve(compiled, mode=Mode(unique=True), time_limit=self.s.time_limit)
        stats.verified += 1
        stats.verify_seconds += time.perf_counter() - t0
        if out.unique is True:
            return True, None
        if out.unique is None or len(out.solutions) < 2 or "pair" not in out.solutions[1]:
            return False, None
        n = self.board.n
        grid = out.solutions[1]["pair"]
        return False, [grid.cells[(c // n + 1, c % n + 1)] or 0 for c in range(self.board.size)]


def bwinf_text(board: Board, lines: list[Line]) -> str:
    rows = [" ".join(str(v or 0) for v in row) for row in board.clues(lines)]
    return "\n".join([str(board.n), str(len(lines))] + rows) + "\n"


def puzzle_rng(seed: int, s: Settings, i: int) -> random.Random:
    return random.Random(f"arukone:{seed}:{s.n}:{s.k}:{s.fill}:{s.touchfree}:{i}")


# ------------------------------------------------------------------ command line


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--size", type=int, required=True, metavar="N", help="the board is N x N")
    p.add_argument("--pairs", type=int, required=True, metavar="K", help="number of pairs")
    p.add_argument("--count", type=int, default=1, metavar="M", help="how many puzzles (default 1)")
    p.add_argument("--seed", type=int, metavar="S", help="random seed (default: a random one, printed)")
    p.add_argument("--fill", action="store_true", help="unique under the Flow Free rule (every cell used)")
    p.add_argument("--touchfree", action="store_true", help="unique under the touch-free rule")
    p.add_argument("--out", type=Path, default=Path("."), metavar="DIR", help="output folder (default: .)")
    p.add_argument("--jobs", type=int, metavar="J",
                   help="worker processes (default 1, or with --scheduler the cluster's threads; the files "
                        "depend on the seed and on J)")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="run the J workers on a Dask cluster: its scheduler's address (tcp://HOST:8786), or "
                        "`local` for one on this machine; the same files as --jobs J (needs puzzledsl[dask])")
    p.add_argument("--verify", choices=("rules", "fast"), default="rules",
                   help="rules (default): confirm each puzzle with puzzles/arukone.puz before writing it; "
                        "fast: trust the generator's own SAT check")
    p.add_argument("--rules", type=Path, default=RULES, help=argparse.SUPPRESS)
    p.add_argument("--time-limit", type=float, default=20.0, metavar="SECONDS",
                   help="per verification with the rules (default 20); a time-out rejects the puzzle")
    p.add_argument("--max-layouts", type=int, default=400, metavar="L",
                   help="layouts tried per puzzle before giving up on it (default 400)")
    p.add_argument("--progress", action="store_true", default=None, help="show progress even when not a terminal")
    p.add_argument("--quiet", action="store_true", help="no summary on stderr")


def _check_args(a: argparse.Namespace) -> str | None:
    if a.size < 2:
        return "--size must be at least 2"
    if a.pairs < 1:
        return "--pairs must be at least 1"
    if 2 * a.pairs > a.size * a.size:
        return f"{a.pairs} pairs need at least {2 * a.pairs} cells; a {a.size}x{a.size} board has {a.size ** 2}"
    if a.count < 1:
        return "--count must be at least 1"
    if a.jobs is not None and a.jobs < 1:
        return "--jobs must be at least 1"
    if a.time_limit <= 0:
        return "--time-limit takes a positive number of seconds"
    return None


def run(args: argparse.Namespace) -> int:
    problem = _check_args(args)
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "big")
    s = Settings(args.size, args.pairs, args.fill, args.touchfree, args.verify, args.rules, args.time_limit,
                 args.max_layouts)
    if s.verify == "rules":
        from puzzledsl.compile import load_rules
        from puzzledsl.errors import PuzzleError, format_error
        try:
            load_rules(s.rules)
        except PuzzleError as err:
            print(format_error(err), file=sys.stderr)
            return 2
    try:
        args.out.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        print(f"error: cannot create {args.out}: {err}", file=sys.stderr)
        return 2
    progress = sys.stderr.isatty() if args.progress is None else args.progress
    notion = "fill" if s.fill else "strict"
    if s.touchfree:
        notion += "+touchfree"
    t0, cpu0 = time.perf_counter(), time.process_time()
    total = Stats()
    written: list[Path] = []
    with ExitStack() as stack:
        session = None
        if args.scheduler is not None:
            from puzzledsl.cluster import DaskSession
            session = stack.enter_context(DaskSession(args.scheduler, args.jobs or os.cpu_count() or 1))
        jobs = args.jobs or (session.workers if session else 1)
        bar = _Bar(args.count, f"arukone {s.n}x{s.n}, {s.k} pairs, {notion}") if progress else None
        try:
            made = _produce_on(session, s, seed, args.count, jobs) if session else _produce(s, seed, args.count, jobs)
            for i, lines, st in made:
                total.add(st)
                if lines is not None:
                    path = args.out / f"arukone-{s.n}-{s.k}-{seed}-{i}.txt"
                    path.write_text(bwinf_text(Board(s.n), lines), encoding="utf-8")
                    written.append(path)
                if bar:
                    bar.advance(lines is not None)
        finally:
            if bar:
                bar.stop()
    wall = time.perf_counter() - t0
    if not args.quiet:
        rate = len(written) / wall if wall > 0 else 0.0
        cpu = total.seconds if jobs > 1 or session else time.process_time() - cpu0
        per_core = len(written) / cpu if cpu > 0 else 0.0
        print(f"wrote {len(written)} of {args.count} puzzles to {args.out} (seed {seed}, {notion}); "
              f"{total.layouts} layouts, {total.checks} SAT checks, {total.repairs} repairs, "
              f"{total.verified} verified with the rules in {total.verify_seconds:.2f} s "
              f"({total.rejected} rejected); {total.greedy_proof} with a label order that defeats greedy routing; "
              f"{wall:.2f} s, {rate:.1f} puzzles/s with {count(jobs, 'job')}{' on Dask' if session else ''} "
              f"({per_core:.1f} per CPU second)", file=sys.stderr)
    if len(written) < args.count and total.stuck == total.layouts:
        print(f"hint: no layout got down to {s.k} lines; try more pairs"
              f"{'' if s.fill else ' or --fill'}", file=sys.stderr)
    return 0 if len(written) == args.count else 1


def _produce(s: Settings, seed: int, count: int, jobs: int):
    """(index, lines or None, stats) per puzzle; puzzle i is made by worker i % jobs, in order."""
    if jobs <= 1 or count <= 1:
        gen = Generator(s)
        try:
            for i in range(1, count + 1):
                st = Stats()
                yield i, gen.puzzle(puzzle_rng(seed, s, i), st), st
        finally:
            gen.close()
        return
    import multiprocessing as mp

    ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else mp.get_context()
    queue = ctx.Queue()
    workers = [ctx.Process(target=_worker, args=(s, seed, list(range(1 + w, count + 1, jobs)), queue), daemon=True)
               for w in range(min(jobs, count))]
    for w in workers:
        w.start()
    try:
        for _ in range(count):
            yield queue.get()
    finally:
        for w in workers:
            if w.is_alive():
                w.terminate()
            w.join()


def _worker(s: Settings, seed: int, indices: list[int], queue) -> None:
    gen = Generator(s)
    try:
        for i in indices:
            queue.put(_one(gen, seed, i))
    finally:
        gen.close()


def _one(gen: Generator, seed: int, i: int) -> tuple[int, list[Line] | None, Stats]:
    st = Stats()
    try:
        lines = gen.puzzle(puzzle_rng(seed, gen.s, i), st)
    except Exception as err:  # report, do not hang the parent
        print(f"puzzle {i}: {type(err).__name__}: {err}", file=sys.stderr)
        lines = None
    return i, lines, st


def _produce_on(session, s: Settings, seed: int, count: int, jobs: int):
    """`_produce` on a Dask cluster: worker w's puzzles (i % jobs == w) are one task, made in
    order by one Generator, as in a local worker process, so the files are the same. The
    parsed rules are sent along: a worker need not see this machine's files."""
    from puzzledsl.cluster import generator_task
    from puzzledsl.compile import load_rules

    rules = session.client.scatter(load_rules(s.rules), broadcast=True, hash=False) if s.verify == "rules" else None
    chunks = {}
    for w in range(min(jobs, count)):
        indices = list(range(1 + w, count + 1, jobs))
        fut = session.submit(generator_task, "arukone", "chunk", asdict(s), rules, seed, indices, name=f"arukone-{w}")
        chunks[fut.key] = indices
    for fut, made, failure in session.results(list(session.futures)):
        if failure is not None:  # the worker died, more often than Dask retries
            print(f"puzzles {chunks[fut.key]}: lost on the Dask cluster: {type(failure).__name__}: {failure}",
                  file=sys.stderr)
            made = [(i, None, {}) for i in chunks[fut.key]]
        for i, lines, st in made:
            yield i, lines, Stats(**st)


def chunk(settings: dict, rules: object, seed: int, indices: list[int]) -> list[tuple[int, list[Line] | None, dict]]:
    """Worker w's puzzles in one Generator (a Dask task: plain values in and out)."""
    gen = Generator(Settings(**settings), rules)
    try:
        return [(i, lines, asdict(st)) for i, lines, st in (_one(gen, seed, i) for i in indices)]
    finally:
        gen.close()


class _Bar:
    def __init__(self, total: int, title: str) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        self.p = Progress(TextColumn(title), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                          TextColumn("{task.description}"), console=Console(stderr=True))
        self.failed = 0
        self.task = self.p.add_task("", total=total)
        self.p.start()

    def advance(self, ok: bool) -> None:
        self.failed += not ok
        self.p.update(self.task, advance=1, description=f"[red]{self.failed} given up[/]" if self.failed else "")

    def stop(self) -> None:
        self.p.stop()
