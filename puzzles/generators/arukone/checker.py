"""Steps 2 and 5, is a candidate unique: by a SAT model of our own, then by the real rules.

Our model (`Checker`) lives in one incremental solver per process: a puzzle is a set of
assumptions (its ends), its known solution is excluded by one clause, and cycles are cut
lazily, so checking one more candidate costs a solver call, not a new formula. It answers
with a second solution, which the generator uses to repair the candidate. Before a puzzle is
written, `by_rules` asks `puzzles/arukone.puz` itself, compiled and solved like `solve
--unique`: the puzzle file is what users trust, and a test keeps the two checks agreeing.
"""

from __future__ import annotations

from .board import Board, Line


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
        # in this order: the clauses' order (and the helper variables') steers the solver, and
        # with it which second solution a repair starts from, so the puzzles made
        cl = [clause for c in range(size) for clause in self._cell(c)]
        cl += self._edges() + self._squares() + ([] if fill else self._tight())
        self.solver = Solver(name=solver, bootstrap_with=cl)
        self.checks = 0
        self.cuts = 0
        self.phases = True

    def _cell(self, c: int) -> list[list[int]]:
        """Cell c: one label (or empty), `used[k]` for its label, and as an end one edge, else
        two (none when empty)."""
        kmax, fill = self.kmax, self.fill
        xs = [self.x[c][k] for k in range(1 if fill else 0, kmax + 1)]
        cl = [xs]
        cl.extend(self._at_most_one(xs))
        for k in range(1, kmax + 1):
            cl.append([-self.x[c][k], self.used[k]])
        inc = [self.e[i] for i in self.board.incident[c]]
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
        return cl

    def _edges(self) -> list[list[int]]:
        """An edge joins two cells of one label; touch-free: two neighbours of one label are joined."""
        cl = []
        for i, (u, v) in enumerate(self.board.edges):
            e = self.e[i]
            for k in range(1, self.kmax + 1):
                cl.append([-e, -self.x[u][k], self.x[v][k]])
                cl.append([-e, -self.x[v][k], self.x[u][k]])
                if self.touchfree:
                    cl.append([-self.x[u][k], -self.x[v][k], e])
        return cl

    def _squares(self) -> list[list[int]]:
        """A 2x2 square of edges is a cycle: cut them all up front (longer cycles are cut lazily)."""
        n, eid, e = self.board.n, self.board.edge_id, self.e
        cl = []
        for r in range(n - 1):
            for k in range(n - 1):
                a, b, c, d = r * n + k, r * n + k + 1, (r + 1) * n + k, (r + 1) * n + k + 1
                cl.append([-e[eid[a, b]], -e[eid[a, c]], -e[eid[b, d]], -e[eid[c, d]]])
        return cl

    def _tight(self) -> list[list[int]]:
        """No line bends round an empty cell, and none turns above an empty cell inside the turn
        (`tight` in `puzzles/arukone.puz`, with the argument). Where cells may stay empty, a
        touch-free full cover has a second solution exactly when it has a touch-free and tight
        one: the steps there from another solution never pass through the full cover, whose
        lines have no other route through their own cells."""
        n, eid, e, x = self.board.n, self.board.edge_id, self.e, self.x
        cl = []

        def at(r: int, k: int) -> int | None:
            return r * n + k if 0 <= r < n and 0 <= k < n else None

        for r in range(n):
            for k in range(n):
                p = r * n + k
                for s in (1, -1):  # a drop: the turn at p, towards the side and down
                    side, down, inside = at(r, k + s), at(r + 1, k), at(r + 1, k + s)
                    if side is not None and down is not None and inside is not None:
                        cl.append([-e[eid[p, side]], -e[eid[p, down]], -x[inside][0]])
                for (ur, uk), (vr, vk) in (((0, 1), (1, 0)), ((0, 1), (-1, 0)), ((1, 0), (0, 1)), ((1, 0), (0, -1))):
                    run = [at(r, k), at(r + vr, k + vk), at(r + vr + ur, k + vk + uk),
                           at(r + vr + 2 * ur, k + vk + 2 * uk), at(r + 2 * ur, k + 2 * uk)]
                    if None not in run:  # a bend round the empty cell p + u
                        cl.append([-e[eid[a, b]] for a, b in zip(run, run[1:])] + [-x[at(r + ur, k + uk)][0]])
        return cl

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
        """The puzzle of `lines` as literals: these cells are ends with these labels, no other
        cell is an end, and labels past the puzzle's K are unused."""
        ends: dict[int, int] = {}
        for i, line in enumerate(lines):
            ends[line[0]] = ends[line[-1]] = i + 1
        out: list[int] = []
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
        out: list[Line] = []
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
        cycles: list[list[int]] = []
        for s in adj:
            if s in seen:
                continue
            cyc: list[int] = []
            prev, cur = -1, s
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


def by_rules(rules: object, board: Board, lines: list[Line], fill: bool, touchfree: bool,
             time_limit: float) -> tuple[bool, list[int] | None]:
    """Uniqueness by the real rules; when not unique, the second solution's labels per cell
    (None when the rules decided nothing within the time limit, or showed no second one)."""
    from puzzledsl.compile import compile_givens
    from puzzledsl.solve import Mode, solve
    from puzzledsl.uniqueness import decide

    options = {"fill": "true"} if fill else {}
    if touchfree:
        options["touchfree"] = "true"
    compiled = compile_givens(rules, {"num": board.clues(lines)}, options=options or None)
    # Few long lines leave many empty cells, where `verify`'s route (the rule file's `wlog`) wins:
    # 10x10 with 8 and 10 pairs, 0.41 against 1.43 s and 0.80 against 1.5 s for the puzzles of a
    # run; with 12 and 15 pairs the plain search, which compiles no variants, is twice as fast
    # (BENCHMARKS.md, eighteenth session).
    if len(lines) * 10 <= board.size:
        out = decide(compiled, time_limit=time_limit, explain=False)
    else:
        out = solve(compiled, mode=Mode(unique=True), time_limit=time_limit)
    if out.unique is True:
        return True, None
    if out.unique is None or len(out.solutions) < 2 or "pair" not in out.solutions[1]:
        return False, None
    n = board.n
    grid = out.solutions[1]["pair"]
    return False, [grid.cells[(c // n + 1, c % n + 1)] or 0 for c in range(board.size)]
