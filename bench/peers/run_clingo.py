"""Run the clingo peer encodings on the shared puzzle data and time them.

Usage (from the repository root)::

    python bench/peers/run_clingo.py kakurasu [--limit N] [--per-instance]
    python bench/peers/run_clingo.py battleship [--limit N] [--per-instance]
    python bench/peers/run_clingo.py kakurasu-random --size 30 --seeds 1,2,3,4,5
    python bench/peers/run_clingo.py GENRE [--limit N] [--per-instance]
    python bench/peers/run_clingo.py numberlink [--source janko|bwinf] [--file F ...] [--fill] [--touchfree]
    python bench/peers/run_clingo.py pegsol FILE... [--runs K] [--config NAME] [--geometry square|triangle]

Every instance is grounded and solved with ``models=2``: the first model is
the solution, a second one disproves uniqueness.  The wall time of one
instance covers ``Control`` creation, ``add``, ``ground`` and ``solve``.  The
first model is checked against the clues (independently of the encoding) and
against the published solution where there is one.  A JSON summary goes to
stdout.

GENRE is one of the janko genres with an encoding here (``janko_genres.PEERS``: akari,
hitori, lits, nonogram, nurikabe, skyscraper, slitherlink, star_battle, sudoku, tent).  Its
puzzles are the ones ``bench/bench_genres.py GENRE --limit N`` takes, read by puzzledsl's
importer; a model is turned into the published solution's tokens, compared with it and checked
by the tests' checker (``tests/genre_checkers.py``).

Numberlink (Arukone) instances are clue grids: a janko/puzzlekit problem text
(``R C``, then rows of numbers or ``-``) or a BWINF file (``n``, the number of
pairs, then ``n`` rows, 0 = empty).  A model is its set of line segments; the
literal rules let cells stay empty (``--fill`` demands every cell be used,
``--touchfree`` forbids a line running next to itself).  ``first_model_s``
(``--per-instance``) is the time to the first solution, ``seconds`` the time
to the uniqueness verdict.

Peg solitaire (``pegsol``) is different: a board text file (``o`` peg, ``.``
empty hole, ``*`` empty target hole, ``@`` peg on a target, space = no hole)
is solved for one plan with ``pegsol.lp`` (sequential planning, one jump per
step, horizon = pegs - final pegs), ``--runs`` times with one clingo
``--configuration``.  The plan is replayed independently of the encoding.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import clingo

sys.path[:0] = [str(Path(__file__).resolve().parents[2]), str(Path(__file__).resolve().parent)]
from janko_genres import PEERS, Peer  # noqa: E402  (also when imported as bench.peers.run_clingo)

from tests import pegsol_sim  # noqa: E402  (the independent replay of the tests)
from tests.genre_specs import by_size, published, spread  # noqa: E402

HERE = Path(__file__).resolve().parent
DATA = Path("/work/shared/data")
KAKURASU_JSON = DATA / "kakurasu" / "Kakurasu_dataset.json"
BATTLESHIP_JSON = DATA / "battleship" / "Battleship_dataset.json"
CSPLIB_PL = DATA / "battleship" / "csplib_prob014_battleship_instances.pl"
CSPLIB_TXT = DATA / "battleship" / "csplib_prob014_unsolvable_for_csplib.txt"

Cell = tuple[int, int]
Atoms = frozenset[tuple[int | str, ...]]
"""A decoded model: cells (kakurasu, battleship), line segments (numberlink) or (row, column,
token) for the janko genres."""
NUMBERLINK_BWINF = DATA / "arukone" / "bwinf"
NUMBERLINK_JANKO = DATA / "arukone" / "janko" / "janko_puzzlekit_NumberLink_dataset.json"

JANKO_HINTS = {
    "x": "water",
    "o": "single",
    "n": "top",
    "s": "bottom",
    "w": "left",
    "e": "right",
    "m": "middle",
}
CSPLIB_HINTS = {
    "w": "water",
    "c": "single",
    "t": "top",
    "b": "bottom",
    "l": "left",
    "r": "right",
    "m": "middle",
}


def shown_cells(model: clingo.Model) -> Atoms:
    """The first two arguments of every shown atom: cells for kakurasu and battleship."""
    return frozenset((s.arguments[0].number, s.arguments[1].number) for s in model.symbols(shown=True))


@dataclass
class Instance:
    """One puzzle: clingo facts, an independent checker and maybe a solution."""

    genre: str
    ident: str
    facts: str
    check: Callable[[Atoms], bool]
    solution: Atoms | None = None
    # A generated grid is one solution among maybe several: compare the first
    # model with it only when the puzzle turns out to be unique.
    compare_only_if_unique: bool = False
    decode: Callable[[clingo.Model], Atoms] = shown_cells


@dataclass
class Outcome:
    """What solving one instance gave."""

    ident: str
    seconds: float
    status: str  # "unique", "multiple", "unsat" or "timeout"
    first_model_s: float | None = None
    valid: bool = True
    mismatch: bool = False
    has_solution: bool = False


@dataclass
class Summary:
    """Aggregated outcomes of one genre."""

    outcomes: list[Outcome] = field(default_factory=list)

    def as_dict(self, per_instance: bool) -> dict[str, object]:
        times = [o.seconds for o in self.outcomes]

        def ids(pred: Callable[[Outcome], bool]) -> list[str]:
            return [o.ident for o in self.outcomes if pred(o)]

        result: dict[str, object] = {
            "count": len(self.outcomes),
            "with_solution": sum(o.has_solution for o in self.outcomes),
            "median_s": round(statistics.median(times), 6) if times else None,
            "max_s": round(max(times), 6) if times else None,
            "total_s": round(sum(times), 6),
            "unique": sum(o.status == "unique" for o in self.outcomes),
            "multiple": ids(lambda o: o.status == "multiple"),
            "unsat": ids(lambda o: o.status == "unsat"),
            "timeouts": ids(lambda o: o.status == "timeout"),
            "invalid": ids(lambda o: not o.valid),
            "mismatched": len(ids(lambda o: o.mismatch)),
            "mismatched_ids": ids(lambda o: o.mismatch),
        }
        if per_instance:
            result["instances"] = [
                {
                    "id": o.ident,
                    "seconds": round(o.seconds, 6),
                    "unique": o.status == "unique",
                    "status": o.status,
                    "first_model_s": None if o.first_model_s is None else round(o.first_model_s, 6),
                }
                for o in self.outcomes
            ]
        return result


# --------------------------------------------------------------------------
# Kakurasu


def _clue(token: str) -> int | None:
    return None if token == "-" else int(token)


def kakurasu_instance(
    genre: str,
    ident: str,
    rows: int,
    cols: int,
    col_clues: Sequence[int | None],
    row_clues: Sequence[int | None],
    solution: frozenset[Cell] | None,
) -> Instance:
    facts = [f"rows({rows}).", f"cols({cols})."]
    facts += [f"rowsum({r},{s})." for r, s in enumerate(row_clues, 1) if s is not None]
    facts += [f"colsum({c},{s})." for c, s in enumerate(col_clues, 1) if s is not None]

    def check(black: frozenset[Cell]) -> bool:
        for r, s in enumerate(row_clues, 1):
            if s is not None and sum(c for rr, c in black if rr == r) != s:
                return False
        for c, s in enumerate(col_clues, 1):
            if s is not None and sum(r for r, cc in black if cc == c) != s:
                return False
        return all(1 <= r <= rows and 1 <= c <= cols for r, c in black)

    return Instance(genre, ident, "\n".join(facts), check, solution)


def grid_cells(rows: Sequence[str], is_set: Callable[[str], bool]) -> frozenset[Cell]:
    return frozenset((r, c) for r, line in enumerate(rows, 1) for c, tok in enumerate(line.split(), 1) if is_set(tok))


def kakurasu_dataset(limit: int | None) -> Iterator[Instance]:
    data = json.loads(KAKURASU_JSON.read_text())["data"]
    for ident, entry in list(data.items())[:limit]:
        lines = entry["problem"].strip().split("\n")
        rows, cols = map(int, lines[0].split())
        col_clues = [_clue(t) for t in lines[1].split()]
        row_clues = [_clue(t) for t in lines[2].split()]
        assert len(col_clues) == cols and len(row_clues) == rows, ident
        solution = None
        if entry.get("solution"):
            grid = entry["solution"].strip().split("\n")[1:]
            solution = grid_cells(grid, lambda t: t == "x")
        yield kakurasu_instance("kakurasu", ident, rows, cols, col_clues, row_clues, solution)


def kakurasu_random(size: int, seeds: Sequence[int]) -> Iterator[Instance]:
    for seed in seeds:
        rng = random.Random(seed)
        black = frozenset((r, c) for r in range(1, size + 1) for c in range(1, size + 1) if rng.random() < 0.5)
        row_clues = [sum(c for rr, c in black if rr == r) for r in range(1, size + 1)]
        col_clues = [sum(r for r, cc in black if cc == c) for c in range(1, size + 1)]
        instance = kakurasu_instance(
            "kakurasu-random",
            f"random-{size}x{size}-seed{seed}",
            size,
            size,
            col_clues,
            row_clues,
            black,
        )
        instance.compare_only_if_unique = True
        yield instance


# --------------------------------------------------------------------------
# Battleship


def ships_of(cells: frozenset[Cell]) -> list[int] | None:
    """Lengths of the straight ships formed by the cells; None if a group is
    not a straight segment or two ships touch (also diagonally)."""
    for r, c in cells:
        if (r + 1, c + 1) in cells or (r + 1, c - 1) in cells:
            return None
    lengths = []
    for r, c in cells:
        if (r - 1, c) in cells or (r, c - 1) in cells:
            continue
        down = right = 1
        while (r + down, c) in cells:
            down += 1
        while (r, c + right) in cells:
            right += 1
        if down > 1 and right > 1:
            return None
        lengths.append(max(down, right))
    return sorted(lengths)


def battleship_instance(
    genre: str,
    ident: str,
    rows: int,
    cols: int,
    fleet: dict[int, int],
    row_counts: Sequence[int | None],
    col_counts: Sequence[int | None],
    hints: Sequence[tuple[int, int, str]],
    solution: frozenset[Cell] | None,
) -> Instance:
    facts = [f"size({rows},{cols})."]
    facts += [f"fleet({n},{k})." for n, k in sorted(fleet.items())]
    facts += [f"rowsum({r},{s})." for r, s in enumerate(row_counts, 1) if s is not None]
    facts += [f"colsum({c},{s})." for c, s in enumerate(col_counts, 1) if s is not None]
    facts += [f"hint({r},{c},{t})." for r, c, t in hints]

    def check(cells: frozenset[Cell]) -> bool:
        if not all(1 <= r <= rows and 1 <= c <= cols for r, c in cells):
            return False
        lengths = ships_of(cells)
        wanted = sorted(n for n, k in fleet.items() for _ in range(k))
        if lengths != wanted:
            return False
        for r, s in enumerate(row_counts, 1):
            if s is not None and sum(rr == r for rr, _ in cells) != s:
                return False
        for c, s in enumerate(col_counts, 1):
            if s is not None and sum(cc == c for _, cc in cells) != s:
                return False
        for r, c, t in hints:
            up, down = (r - 1, c) in cells, (r + 1, c) in cells
            left, right = (r, c - 1) in cells, (r, c + 1) in cells
            ok = {
                "water": (r, c) not in cells,
                "single": not (up or down or left or right),
                "top": down and not up,
                "bottom": up and not down,
                "left": right and not left,
                "right": left and not right,
                "middle": (up and down) or (left and right),
            }[t]
            if not ok or (t != "water" and (r, c) not in cells):
                return False
        return True

    return Instance(genre, ident, "\n".join(facts), check, solution)


def battleship_janko(limit: int | None) -> Iterator[Instance]:
    data = json.loads(BATTLESHIP_JSON.read_text())["data"]
    for ident, entry in list(data.items())[:limit]:
        lines = entry["problem"].strip().split("\n")
        head = [int(t) for t in lines[0].split()]
        rows, cols = head[0], head[1]
        fleet = {n: k for n, k in enumerate(head[2:], 1) if k > 0}
        col_counts = [_clue(t) for t in lines[1].split()]
        row_counts = [_clue(t) for t in lines[2].split()]
        grid = lines[3:]
        assert len(grid) == rows and len(col_counts) == cols, ident
        hints = [
            (r, c, JANKO_HINTS[tok])
            for r, line in enumerate(grid, 1)
            for c, tok in enumerate(line.split(), 1)
            if tok != "-"
        ]
        solution = None
        if entry.get("solution"):
            sol_grid = entry["solution"].strip().split("\n")[1:]
            solution = grid_cells(sol_grid, lambda t: t != "-")
        yield battleship_instance(
            "battleship-janko",
            ident,
            rows,
            cols,
            fleet,
            row_counts,
            col_counts,
            hints,
            solution,
        )


def _ints(text: str) -> list[int]:
    return [int(t) for t in re.findall(r"\d+", text)]


def csplib_layouts() -> dict[str, frozenset[Cell]]:
    """The generated layouts in Moshe Rubin's original text.  With the hints,
    each board has exactly one solution, so the layout is that solution."""
    layouts: dict[str, frozenset[Cell]] = {}
    lines = CSPLIB_TXT.read_text().splitlines()
    ident = ""
    for i, line in enumerate(lines):
        if line.startswith("Board ID:"):
            ident = line.split(":")[1].strip()
        elif line.startswith("DisplayBoardASCII"):
            board = [row.split()[0] for row in lines[i + 2 : i + 12]]
            layouts[ident] = frozenset(
                (r, c) for r, row in enumerate(board, 1) for c, ch in enumerate(row, 1) if ch not in ".W"
            )
    return layouts


PROBLEM_RE = re.compile(
    r"problem\((\d+),\s*\[(.*?)\],\s*\[(.*?)\],\s*\[(.*?)\],\s*\[(.*?)\]\)\.",
    re.DOTALL,
)
HINT_RE = re.compile(r"([a-z])@\[(\d+),(\d+)\]")


def battleship_csplib(limit: int | None) -> Iterator[Instance]:
    layouts = csplib_layouts()
    problems = PROBLEM_RE.findall(CSPLIB_PL.read_text())
    for ident, fleet_s, rows_s, cols_s, hints_s in problems[:limit]:
        pairs = re.findall(r"(\d+):(\d+)", fleet_s)
        fleet = {int(n): int(k) for n, k in pairs}
        row_counts: list[int | None] = list(_ints(rows_s))
        col_counts: list[int | None] = list(_ints(cols_s))
        hints = [(int(r), int(c), CSPLIB_HINTS[t]) for t, r, c in HINT_RE.findall(hints_s)]
        yield battleship_instance(
            "battleship-csplib",
            ident,
            len(row_counts),
            len(col_counts),
            fleet,
            row_counts,
            col_counts,
            hints,
            layouts.get(ident),
        )


# --------------------------------------------------------------------------
# Numberlink (Arukone)

Clues = list[list[int | None]]
Link = tuple[int, int, int, int]
"""A line segment (r1, c1, r2, c2), 1-based, (r1, c1) < (r2, c2)."""


def numberlink_facts(clues: Sequence[Sequence[int | None]]) -> str:
    """size/2 and number/3 facts (1-based) for a clue grid (rows of numbers, None = empty)."""
    facts = [f"size({len(clues)},{len(clues[0]) if clues else 0})."]
    facts += [f"number({r},{c},{n})." for r, row in enumerate(clues, 1) for c, n in enumerate(row, 1) if n is not None]
    return "\n".join(facts)


def links_of(model: clingo.Model) -> Atoms:
    """The line segments of a numberlink model."""
    return frozenset(tuple(a.number for a in s.arguments) for s in model.symbols(shown=True) if s.name == "link")


def numberlink_valid(clues: Sequence[Sequence[int | None]], links: Atoms, fill: bool, touchfree: bool) -> bool:
    """The segments join every pair of equal numbers by one line, with no crossing, branching,
    loop or loose piece (and with `fill`, no empty cell; with `touchfree`, no line beside itself)."""
    rows, cols = len(clues), len(clues[0])
    nbrs: dict[Cell, list[Cell]] = {}
    for r1, c1, r2, c2 in links:
        inside = all(1 <= r <= rows and 1 <= c <= cols for r, c in ((r1, c1), (r2, c2)))
        if not inside or abs(r1 - r2) + abs(c1 - c2) != 1:
            return False
        nbrs.setdefault((r1, c1), []).append((r2, c2))
        nbrs.setdefault((r2, c2), []).append((r1, c1))
    ends: dict[int, list[Cell]] = {}
    for r, row in enumerate(clues, 1):
        for c, n in enumerate(row, 1):
            if n is not None:
                ends.setdefault(n, []).append((r, c))
            if len(nbrs.get((r, c), [])) != (1 if n is not None else 2 if (r, c) in nbrs else 0):
                return False
    label: dict[Cell, int] = {}
    for n, cells in ends.items():
        if len(cells) != 2:
            return False
        prev, cur = cells[0], cells[0]
        label[cur] = n
        while cur == cells[0] or clues[cur[0] - 1][cur[1] - 1] is None:
            prev, cur = cur, next(x for x in nbrs[cur] if x != prev)
            if cur in label:
                return False
            label[cur] = n
        if cur != cells[1]:
            return False
    if len(label) != len(nbrs) or (fill and len(label) != rows * cols):
        return False
    if touchfree:
        segments = {((r1, c1), (r2, c2)) for r1, c1, r2, c2 in links}
        for (r, c), n in label.items():
            for other in ((r, c + 1), (r + 1, c)):
                if label.get(other) == n and ((r, c), other) not in segments:
                    return False
    return True


def numberlink_instance(
    genre: str,
    ident: str,
    clues: Sequence[Sequence[int | None]],
    solution: Atoms | None = None,
    fill: bool = False,
    touchfree: bool = False,
) -> Instance:
    def check(links: Atoms) -> bool:
        return numberlink_valid(clues, links, fill, touchfree)

    instance = Instance(genre, ident, numberlink_facts(clues), check, solution, decode=links_of)
    # A published solution need not be the only one under the literal rules.
    instance.compare_only_if_unique = True
    return instance


def read_bwinf(text: str) -> Clues:
    """BWINF 42 format: `n`, the number of pairs, then n rows of n integers, 0 = empty
    (anything after the grid, e.g. a solution, is ignored)."""
    tokens = text.split()
    n = int(tokens[0])
    values = [int(t) for t in tokens[2 : 2 + n * n]]
    if len(values) != n * n:
        raise ValueError(f"expected {n}x{n} numbers")
    return [[values[r * n + c] or None for c in range(n)] for r in range(n)]


def read_puzzlekit(text: str) -> Clues:
    """puzzlekit/janko problem text: `R C`, then R rows of C numbers or `-`."""
    lines = [line.split() for line in text.strip().splitlines()]
    rows, cols = int(lines[0][0]), int(lines[0][1])
    grid = lines[1:]
    if len(grid) != rows or any(len(row) != cols for row in grid):
        raise ValueError(f"grid is not {rows}x{cols}")
    return [[None if t == "-" else int(t) for t in row] for row in grid]


def read_puzzlekit_links(text: str) -> Atoms:
    """puzzlekit/janko solution text: `R C`, then per cell the directions n s e w it links to."""
    rows = [line.split() for line in text.strip().splitlines()[1:]]
    step = {"n": (-1, 0), "s": (1, 0), "w": (0, -1), "e": (0, 1)}
    links = set()
    for r, row in enumerate(rows, 1):
        for c, token in enumerate(row, 1):
            for ch in token.strip("-"):
                dr, dc = step[ch]
                a, b = (r, c), (r + dr, c + dc)
                links.add((*min(a, b), *max(a, b)))
    return frozenset(links)


def read_clue_file(path: Path) -> Clues:
    """A BWINF file (one number on the first line) or a puzzlekit problem text (two)."""
    text = path.read_text()
    first = text.strip().splitlines()[0].split()
    return read_bwinf(text) if len(first) == 1 else read_puzzlekit(text)


def numberlink_janko(limit: int | None, fill: bool, touchfree: bool) -> Iterator[Instance]:
    data = json.loads(NUMBERLINK_JANKO.read_text())["data"]
    for ident, entry in list(data.items())[:limit]:
        try:
            clues = read_puzzlekit(entry["problem"])
        except ValueError as e:  # 341_11x10 says 11x10 and has 10 rows
            print(f"skipping numberlink-janko {ident}: {e}", file=sys.stderr)
            continue
        solution = read_puzzlekit_links(entry["solution"]) if entry.get("solution") else None
        yield numberlink_instance("numberlink-janko", ident, clues, solution, fill, touchfree)


def numberlink_files(genre: str, paths: Sequence[Path], fill: bool, touchfree: bool) -> Iterator[Instance]:
    for path in paths:
        yield numberlink_instance(genre, path.name, read_clue_file(path), None, fill, touchfree)


# --------------------------------------------------------------------------
# Solving


def token_atoms(grid: Sequence[Sequence[str]]) -> Atoms:
    """A token grid as a set of (row, column, token), 1-based: how janko genres compare models."""
    return frozenset((r, c, tok) for r, row in enumerate(grid, 1) for c, tok in enumerate(row, 1))


def token_grid(atoms: Atoms) -> list[list[str]]:
    rows: dict[int, dict[int, str]] = {}
    for r, c, tok in atoms:
        rows.setdefault(r, {})[c] = tok
    return [[row[c] for c in sorted(row)] for _, row in sorted(rows.items())]


def janko_instance(peer: Peer, iid: str, givens: dict, entry: dict) -> Instance:
    """One puzzle of a janko genre, from the givens puzzledsl's importer read: checked by the
    tests' independent checker and compared with the published solution's tokens."""
    genre = peer.genre
    problem = entry["problem"]

    def check(atoms: Atoms) -> bool:
        return not genre.check(problem, token_grid(atoms))

    def decode(model: clingo.Model) -> Atoms:
        return token_atoms(peer.decode(givens, model))

    solution = token_atoms(published(genre, entry["solution"])) if entry.get("solution") else None
    return Instance(genre.key, iid, "\n".join(peer.facts(givens)), check, solution, decode=decode)


def janko_genre(key: str, limit: int | None) -> Iterator[Instance]:
    """The puzzles `bench/bench_genres.py KEY --limit N` takes (spread over the set sorted by size)."""
    peer = PEERS[key]
    for iid, givens, entry in spread(by_size(peer.genre), limit):
        yield janko_instance(peer, iid, givens, entry)


def solve(instance: Instance, program: str, time_limit: float, options: Sequence[str] = ()) -> Outcome:
    models: list[Atoms] = []
    first_model_at: list[float] = []

    def on_model(model: clingo.Model) -> None:
        if not first_model_at:
            first_model_at.append(time.perf_counter() - start)
        models.append(instance.decode(model))

    start = time.perf_counter()
    ctl = clingo.Control(["--models=2", "--warn=none", *options])
    ctl.add("base", [], program)
    ctl.add("base", [], instance.facts)
    ctl.ground([("base", [])])
    finished, result = solve_within(ctl, on_model, time_limit - (time.perf_counter() - start))
    seconds = time.perf_counter() - start

    outcome = Outcome(
        instance.ident,
        seconds,
        "timeout",
        first_model_s=first_model_at[0] if first_model_at else None,
        has_solution=instance.solution is not None and not instance.compare_only_if_unique,
    )
    if not finished:
        return outcome
    if not models:
        outcome.status = "unsat"
        outcome.mismatch = outcome.has_solution
        return outcome
    outcome.status = "unique" if len(models) == 1 and result.exhausted else "multiple"
    outcome.valid = all(instance.check(m) for m in models)
    if instance.solution is not None and (outcome.status == "unique" or not instance.compare_only_if_unique):
        outcome.mismatch = models[0] != instance.solution
    return outcome


def solve_within(ctl: clingo.Control, on_model: Callable[[clingo.Model], None],
                 remaining: float) -> tuple[bool, clingo.SolveResult]:
    """Solve in the background and cancel after `remaining` seconds: (finished, result)."""
    handle = ctl.solve(on_model=on_model, async_=True)
    assert isinstance(handle, clingo.SolveHandle)
    with handle:
        finished = remaining > 0 and handle.wait(remaining)
        if not finished:
            handle.cancel()
        return finished, handle.get()


# --------------------------------------------------------------------------
# Peg solitaire

PegJump = tuple[Cell, Cell]
"""A jump: the cell the peg leaves and the direction."""


def final_pegs(board: pegsol_sim.Board) -> int:
    return len(board.targets) if board.targets else 1


def pegsol_facts(board: pegsol_sim.Board, geometry: str) -> str:
    facts = [f"hole({r},{c})." for r, c in sorted(board.holes)]
    facts += [f"peg({r},{c})." for r, c in sorted(board.pegs)]
    facts += [f"target({r},{c})." for r, c in sorted(board.targets)]
    facts += [f"dir({dr},{dc})." for dr, dc in pegsol_sim.DIRECTIONS[geometry]]
    return "\n".join(facts)


def pegsol_replay(board: pegsol_sim.Board, geometry: str, jumps: Sequence[PegJump]) -> bool:
    """Every jump is legal in turn and the final position meets the goal (the test oracle's replay)."""
    if any(d not in pegsol_sim.DIRECTIONS[geometry] for _, d in jumps):
        return False
    triples = [(a, (a[0] + d[0], a[1] + d[1]), (a[0] + 2 * d[0], a[1] + 2 * d[1])) for a, d in jumps]
    return pegsol_sim.is_solution(board, triples, geometry)  # type: ignore[arg-type]


def pegsol_solve(
    board: pegsol_sim.Board, geometry: str, program: str, config: str, time_limit: float, options: Sequence[str]
) -> tuple[float, str, list[PegJump] | None]:
    """One solve: (seconds, "sat" | "unsat" | "unknown", jumps of the first model)."""
    n = len(board.pegs) - final_pegs(board)
    plan: list[list[PegJump]] = []

    def on_model(model: clingo.Model) -> None:
        steps = [tuple(a.number for a in s.arguments) for s in model.symbols(shown=True) if s.name == "do"]
        plan.append([((r, c), (dr, dc)) for r, c, dr, dc, _ in sorted(steps, key=lambda x: x[4])])

    start = time.perf_counter()
    ctl = clingo.Control([f"--configuration={config}", "--models=1", "--warn=none", f"--const=n={max(n, 0)}", *options])
    ctl.add("base", [], program)
    ctl.add("base", [], pegsol_facts(board, geometry))
    ctl.ground([("base", [])])
    finished, result = solve_within(ctl, on_model, time_limit - (time.perf_counter() - start))
    seconds = time.perf_counter() - start
    if n < 0:  # fewer pegs than targets: nothing to plan
        return seconds, "unsat", None
    if plan:
        return seconds, "sat", plan[0]
    if finished and result.unsatisfiable:
        return seconds, "unsat", None
    return seconds, "unknown", None


def pegsol_main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="run_clingo.py pegsol", description="Solve peg solitaire boards with clingo.")
    parser.add_argument("files", nargs="+", type=Path, metavar="FILE", help="board text file")
    parser.add_argument("--runs", type=int, default=1, help="solves per board")
    parser.add_argument("--config", default="auto", help="clingo --configuration (auto, trendy, crafty, frumpy, ...)")
    parser.add_argument("--geometry", choices=sorted(pegsol_sim.DIRECTIONS), default="square", help="jump directions")
    parser.add_argument("--time-limit", type=float, default=120.0, help="seconds per solve")
    parser.add_argument("--clingo-option", action="append", default=[], metavar="OPT", help="extra clingo option")
    args = parser.parse_args(argv)
    program = (HERE / "pegsol.lp").read_text()

    reports = []
    for path in args.files:
        board = pegsol_sim.parse_board(path.read_text())
        runs = []
        for _ in range(args.runs):
            runs.append(pegsol_solve(board, args.geometry, program, args.config, args.time_limit, args.clingo_option))
        statuses = {status for _, status, _ in runs}
        valid = all(pegsol_replay(board, args.geometry, jumps) for _, status, jumps in runs if jumps is not None)
        if not valid:
            print(f"invalid plan for {path}", file=sys.stderr)
        times = [seconds for seconds, _, _ in runs]
        satisfiable: bool | str = statuses.pop() if len(statuses) == 1 else "mixed"
        satisfiable = {"sat": True, "unsat": False}.get(satisfiable, satisfiable)
        reports.append(
            {
                "file": str(path),
                "geometry": args.geometry,
                "holes": len(board.holes),
                "pegs": len(board.pegs),
                "jumps": len(board.pegs) - final_pegs(board),
                "config": args.config,
                "seconds": [round(t, 4) for t in times],
                "median_s": round(statistics.median(times), 4),
                "satisfiable": satisfiable,
                "valid": valid,
                "plan": [[list(cell), list(d)] for cell, d in runs[0][2]] if runs[0][2] is not None else None,
            }
        )
    report = {
        "solver": f"clingo {clingo.__version__}",
        "time_limit_s": args.time_limit,
        "clingo_options": [f"--configuration={args.config}", "--models=1", *args.clingo_option],
        "boards": reports,
    }
    json.dump(report, sys.stdout, indent=2)
    print()
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv and argv[0] == "pegsol":
        return pegsol_main(argv[1:])
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("genre", choices=["kakurasu", "battleship", "kakurasu-random", "numberlink", *PEERS])
    parser.add_argument("--limit", type=int, default=None, help="first N instances per source")
    parser.add_argument("--time-limit", type=float, default=60.0, help="seconds per instance")
    parser.add_argument("--size", type=int, default=30, help="kakurasu-random grid size")
    parser.add_argument("--seeds", default="1,2,3,4,5", help="kakurasu-random seeds")
    parser.add_argument("--per-instance", action="store_true")
    parser.add_argument("--source", choices=["janko", "bwinf"], default="janko", help="numberlink data set")
    parser.add_argument(
        "--file", action="append", default=[], type=Path, help="numberlink clue file (BWINF or puzzlekit text)"
    )
    parser.add_argument("--fill", action="store_true", help="numberlink: every cell must be used")
    parser.add_argument("--touchfree", action="store_true", help="numberlink: no line runs next to itself")
    parser.add_argument(
        "--clingo-option",
        action="append",
        default=[],
        metavar="OPT",
        help="extra clingo option, e.g. --clingo-option=--configuration=crafty",
    )
    args = parser.parse_args(argv)

    sources: list[Iterator[Instance]]
    if args.genre == "kakurasu":
        program = (HERE / "kakurasu.lp").read_text()
        sources = [kakurasu_dataset(args.limit)]
    elif args.genre == "kakurasu-random":
        program = (HERE / "kakurasu.lp").read_text()
        seeds = [int(s) for s in args.seeds.split(",") if s.strip()]
        sources = [kakurasu_random(args.size, seeds)]
    elif args.genre == "numberlink":
        program = (HERE / "numberlink.lp").read_text()
        args.clingo_option += [f"--const=fill={int(args.fill)}", f"--const=touchfree={int(args.touchfree)}"]
        if args.file:
            sources = [numberlink_files("numberlink", args.file[: args.limit], args.fill, args.touchfree)]
        elif args.source == "bwinf":
            paths = sorted(NUMBERLINK_BWINF.glob("*.txt"))[: args.limit]
            sources = [numberlink_files("numberlink-bwinf", paths, args.fill, args.touchfree)]
        else:
            sources = [numberlink_janko(args.limit, args.fill, args.touchfree)]
    elif args.genre in PEERS:
        program = PEERS[args.genre].program.read_text()
        args.clingo_option += list(PEERS[args.genre].options)
        sources = [janko_genre(args.genre, args.limit)]
    else:
        program = (HERE / "battleship.lp").read_text()
        sources = [battleship_janko(args.limit), battleship_csplib(args.limit)]

    summaries: dict[str, Summary] = {}
    for source in sources:
        for instance in source:
            outcome = solve(instance, program, args.time_limit, args.clingo_option)
            summaries.setdefault(instance.genre, Summary()).outcomes.append(outcome)
            if outcome.mismatch or not outcome.valid:
                print(
                    f"problem with {instance.genre} {instance.ident}: {outcome}",
                    file=sys.stderr,
                )

    report = {
        "solver": f"clingo {clingo.__version__}",
        "time_limit_s": args.time_limit,
        "clingo_options": ["--models=2", *args.clingo_option],
        "genres": {g: s.as_dict(args.per_instance) for g, s in summaries.items()},
    }
    json.dump(report, sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
