"""One puzzle after another: a layout, checked, repaired until unique, ordered, verified.

This is the loop over the other modules' steps (see the package's docstring). A `Generator`
keeps its SAT solver and the compiled rules from one puzzle to the next, which is where the
speed comes from, and also why the puzzles a generator makes depend on the ones it made
before: the batch hands each worker a fixed list of puzzles, in order.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from pathlib import Path

from .board import Board, Line
from .checker import Checker, by_rules
from .layout import Layout, dominoes
from .puzzle import order_for_greedy

RULES = Path(__file__).resolve().parents[2] / "arukone.puz"


@dataclass
class Stats:
    """What making puzzles took, summed over a batch for the summary line."""

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
    """What shapes the puzzles (plain values: a Dask task gets them as a dict)."""

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


def puzzle_rng(seed: int, s: Settings, i: int) -> random.Random:
    """Puzzle i's random choices: from the seed, the settings that shape it, and i."""
    return random.Random(f"arukone:{seed}:{s.n}:{s.k}:{s.fill}:{s.touchfree}:{i}")


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
        """`by_rules`, counted and timed."""
        t0 = time.perf_counter()
        out = by_rules(self.rules, self.board, lines, self.s.fill, self.s.touchfree, self.s.time_limit)
        stats.verified += 1
        stats.verify_seconds += time.perf_counter() - t0
        return out
