"""An independent Santa Chilly simulator and exact BFS solver (c't 28/2023), written from the game rules.

Shares nothing with puzzledsl, so plans found by the compiler can be checked against the rules as
stated, not as encoded. The level is a torus: '#'/'T' obstacles, 'O' holes, '$' presents, 'P' the
start (ice), 'X' the exit. A move slides the penguin while the next cell is ice, a present or the
start; presents passed or stopped on are collected. Entering the exit ends the game; entering a
hole teleports to its target hole and stops there; an obstacle stops the penguin in front of it.
A slide that never meets an obstacle, hole or exit is an invalid move. Cells are (row, col).
"""

from __future__ import annotations

import json
import re
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

Cell = tuple[int, int]

DIRECTIONS: dict[str, Cell] = {"R": (0, 1), "L": (0, -1), "U": (-1, 0), "D": (1, 0)}
_PASSABLE = frozenset(" $P")
_KNOWN = frozenset(" T#O$PX")
_CONNECTION = re.compile(r"\(\s*(\d+)\s*,\s*(\d+)\s*\)\s*->\s*\(\s*(\d+)\s*,\s*(\d+)\s*\)")


@dataclass(frozen=True)
class Level:
    """A parsed level; `rows` keep the original letters (presents included) so the board is immutable."""

    rows: tuple[str, ...]
    height: int
    width: int
    start: Cell
    exit: Cell
    presents: frozenset[Cell]
    holes: Mapping[Cell, Cell] = field(default_factory=dict)

    def cell(self, pos: Cell) -> str:
        """The letter at `pos`, indices taken modulo the torus size."""
        return self.rows[pos[0] % self.height][pos[1] % self.width]


@dataclass
class SimResult:
    """The outcome of playing a move string; `error` is set for the first invalid move (play stops there)."""

    collected: frozenset[Cell]
    position: Cell
    exit_move: int | None = None
    """1-based index of the move that entered the exit, or None."""
    error: str | None = None
    moves_played: int = 0

    @property
    def entered_exit(self) -> bool:
        return self.exit_move is not None


def make_level(rows: list[str], connections: Mapping[Cell, Cell]) -> Level:
    """Build and validate a Level from row strings and a hole map given as (row, col) -> (row, col)."""
    if not rows:
        raise ValueError("a level needs at least one row")
    width = len(rows[0])
    if width == 0 or any(len(r) != width for r in rows):
        raise ValueError(f"rows must be non-empty and of equal width: {[len(r) for r in rows]}")
    found: dict[str, list[Cell]] = {}
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch not in _KNOWN:
                raise ValueError(f"unknown cell letter {ch!r} at {(r, c)}")
            found.setdefault(ch, []).append((r, c))
    for ch, what in (("P", "start"), ("X", "exit")):
        if len(found.get(ch, [])) != 1:
            raise ValueError(f"need exactly one {what} {ch!r}, found {len(found.get(ch, []))}")
    holes = set(found.get("O", []))
    for src, dst in connections.items():
        if src not in holes or dst not in holes:
            raise ValueError(f"connection {src}->{dst} does not join two hole cells")
    if missing := holes - set(connections):
        raise ValueError(f"holes without a connection: {sorted(missing)}")
    return Level(
        rows=tuple(rows),
        height=len(rows),
        width=width,
        start=found["P"][0],
        exit=found["X"][0],
        presents=frozenset(found.get("$", [])),
        holes=dict(connections),
    )


def parse_level_txt(text: str) -> Level:
    """Parse the seed's level.txt: line 1 = `(x,y)->(x,y);...` (x = column), then rows ending in '|'."""
    lines = text.splitlines()
    if not lines:
        raise ValueError("empty level file")
    header, body = lines[0], [ln for ln in lines[1:] if ln.strip()]
    connections: dict[Cell, Cell] = {}
    for part in filter(None, (p.strip() for p in header.split(";"))):
        m = _CONNECTION.fullmatch(part)
        if not m:
            raise ValueError(f"bad hole connection {part!r}")
        x1, y1, x2, y2 = map(int, m.groups())
        connections[(y1, x1)] = (y2, x2)
    rows = []
    for i, line in enumerate(body, start=2):
        if not line.endswith("|"):
            raise ValueError(f"line {i} does not end with '|': {line!r}")
        rows.append(line[:-1])
    return make_level(rows, connections)


def parse_levels_json(text: str) -> list[Level]:
    """Parse the game's JSON level list (`data` rows, `connections` [{src: {x, y}, dst: {x, y}}])."""
    levels = []
    for entry in json.loads(text):
        conns = {(c["src"]["y"], c["src"]["x"]): (c["dst"]["y"], c["dst"]["x"]) for c in entry.get("connections", [])}
        levels.append(make_level(list(entry["data"]), conns))
    return levels


def load_level(path: str | Path) -> Level:
    """Read a level.txt file, or the first level of a .json level list."""
    p = Path(path)
    text = p.read_text(encoding="utf-8")
    return parse_levels_json(text)[0] if p.suffix == ".json" else parse_level_txt(text)


def slide(level: Level, pos: Cell, direction: str, remaining: frozenset[Cell]) -> tuple[Cell, frozenset[Cell], bool]:
    """One move from `pos`: (stop cell, presents collected on the way, whether the exit was entered).

    Raises ValueError for an unknown direction or a slide that never stops (an open torus line).
    """
    if direction not in DIRECTIONS:
        raise ValueError(f"unknown move {direction!r}")
    dr, dc = DIRECTIONS[direction]
    got: set[Cell] = set()
    cur = pos
    for _ in range(level.height * level.width + 1):
        nxt = ((cur[0] + dr) % level.height, (cur[1] + dc) % level.width)
        ch = level.cell(nxt)
        if ch == "X":
            return nxt, frozenset(got), True
        if ch == "O":
            return level.holes[nxt], frozenset(got), False
        if ch not in _PASSABLE:
            return cur, frozenset(got), False
        cur = nxt
        if cur in remaining:
            got.add(cur)
        if cur == pos:
            break
    raise ValueError(f"move {direction} from {pos} slides forever (no obstacle, hole or exit on its line)")


def simulate(level: Level, moves: str) -> SimResult:
    """Play `moves` from the start; stops at the first invalid move or at a move after the exit."""
    remaining = set(level.presents)
    pos = level.start
    res = SimResult(collected=frozenset(), position=pos)
    for i, m in enumerate(moves, start=1):
        if res.exit_move is not None:
            res.error = f"move {i} ({m}) played after the exit was entered on move {res.exit_move}"
            break
        try:
            pos, got, at_exit = slide(level, pos, m, frozenset(remaining))
        except ValueError as e:
            res.error = f"move {i}: {e}"
            break
        remaining -= got
        res.position, res.moves_played = pos, i
        if at_exit:
            res.exit_move = i
    res.collected = frozenset(level.presents - remaining)
    return res


def is_valid_plan(level: Level, moves: str) -> bool:
    """A winning plan: every move legal, the last one enters the exit, and all presents are collected by then."""
    res = simulate(level, moves)
    return res.error is None and res.exit_move == len(moves) and res.collected == level.presents


def optimal_moves(level: Level, limit_states: int = 2_000_000) -> int | None:
    """Fewest moves of a winning plan by BFS over (position, collected bitmask); None if none exists."""
    plan = optimal_plan(level, limit_states)
    return None if plan is None else len(plan)


def optimal_plan(level: Level, limit_states: int = 2_000_000) -> str | None:
    """One shortest winning move string (BFS, moves tried in R, L, U, D order), or None if none exists."""
    index = {cell: i for i, cell in enumerate(sorted(level.presents))}
    full = (1 << len(index)) - 1
    start = (level.start, 0)
    parent: dict[tuple[Cell, int], tuple[tuple[Cell, int], str] | None] = {start: None}
    queue = deque([start])
    while queue:
        state = queue.popleft()
        pos, mask = state
        remaining = frozenset(c for c, i in index.items() if not mask >> i & 1)
        for m in DIRECTIONS:
            try:
                stop, got, at_exit = slide(level, pos, m, remaining)
            except ValueError:
                continue
            new_mask = mask
            for c in got:
                new_mask |= 1 << index[c]
            if at_exit:
                if new_mask == full:
                    moves = [m]
                    step = parent[state]
                    while step is not None:
                        state, move = step
                        moves.append(move)
                        step = parent[state]
                    return "".join(reversed(moves))
                continue
            nxt = (stop, new_mask)
            if nxt not in parent:
                parent[nxt] = (state, m)
                if len(parent) > limit_states:
                    raise RuntimeError(f"BFS exceeded {limit_states} states")
                queue.append(nxt)
    return None
