"""The independent Arukone oracles: checker, brute-force counter, greedy router, clingo peer.

The checker and the counter are tested against each other on tiny boards (every edge subset
the checker accepts is exactly one solution the counter finds), on hand-made cases, on the
official BWINF example and on the published janko.at solutions.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Sequence
from functools import cache
from typing import Any

import pytest

from tests.arukone_bruteforce import count_solutions, enumerate_solutions
from tests.arukone_checker import (
    MIXED,
    AmbiguousLabels,
    Edge,
    check_arukone,
    edge,
    edges_from_labels,
    labels_from_edges,
)
from tests.datasets import DATA, read_text, requires_data
from tests.greedy_router import ORDER, route_greedy

Clues = list[list[int | None]]

BWINF = DATA / "arukone" / "bwinf"
JANKO_JSON = DATA / "arukone" / "janko" / "janko_puzzlekit_NumberLink_dataset.json"


# --------------------------------------------------------------------------
# Tiny readers of our own (the project's importers are not used here)


def read_bwinf(text: str) -> Clues:
    """BWINF 42: `n`, the number of pairs, then n rows of n integers (0 = empty); anything after
    the grid is ignored."""
    tokens = text.split()
    n, pairs = int(tokens[0]), int(tokens[1])
    values = [int(t) for t in tokens[2 : 2 + n * n]]
    assert len(values) == n * n
    clues: Clues = [[values[r * n + c] or None for c in range(n)] for r in range(n)]
    assert len({v for v in values if v}) == pairs
    return clues


def read_bwinf_solution(text: str) -> list[list[int]]:
    """The label grid after `Solved field:` in seed004-arukone8-solution.txt."""
    values = [int(t) for t in text.split("Solved field:")[1].split()]
    n = int(text.split()[0])
    assert len(values) == n * n
    return [values[r * n : (r + 1) * n] for r in range(n)]


def read_puzzlekit(text: str) -> Clues:
    """puzzlekit problem text: `R C`, then R rows of C numbers or `-`."""
    lines = [line.split() for line in text.strip().splitlines()]
    rows, cols = int(lines[0][0]), int(lines[0][1])
    grid = lines[1:]
    if len(grid) != rows or any(len(row) != cols for row in grid):
        raise ValueError(f"grid is not {rows}x{cols}")
    return [[None if t == "-" else int(t) for t in row] for row in grid]


def read_puzzlekit_edges(text: str) -> frozenset[Edge]:
    """puzzlekit solution text: `R C`, then per cell the directions (n s e w) it links to, `-`
    for none."""
    step = {"n": (-1, 0), "s": (1, 0), "w": (0, -1), "e": (0, 1)}
    rows = [line.split() for line in text.strip().splitlines()[1:]]
    return frozenset(
        edge((r, c), (r + step[ch][0], c + step[ch][1]))
        for r, row in enumerate(rows)
        for c, token in enumerate(row)
        for ch in token.strip("-")
    )


def grid(text: str) -> Clues:
    """A clue grid drawn as rows of `.` and digits."""
    return [[None if ch == "." else int(ch) for ch in line.split()] for line in text.strip().splitlines()]


def bwinf(name: str) -> Clues:
    return read_bwinf(read_text(BWINF / name))


@cache
def janko() -> dict[str, tuple[Clues, frozenset[Edge]]]:
    entries = {}
    for key, entry in json.loads(read_text(JANKO_JSON))["data"].items():
        try:
            entries[key] = (read_puzzlekit(entry["problem"]), read_puzzlekit_edges(entry["solution"]))
        except ValueError:
            assert key == "341_11x10"  # header says 11x10, the grid has 10 rows
    return entries


# --------------------------------------------------------------------------
# Hand-made cases

U_CLUES = grid("""
1 . .
1 . .
""")
U_EDGES = {edge((0, 0), (0, 1)), edge((0, 1), (0, 2)), edge((0, 2), (1, 2)), edge((1, 2), (1, 1)), edge((1, 1), (1, 0))}
U_LABELS = [[1, 1, 1], [1, 1, 1]]


def test_straight_line_is_valid_and_fills() -> None:
    clues = grid("1 . 1")
    assert check_arukone(clues, [[1, 1, 1]]) == []
    assert check_arukone(clues, [[1, 1, 1]], fill=True, touchfree=True) == []
    assert check_arukone(clues, edges=[((0, 0), (0, 1)), ((0, 2), (0, 1))]) == []


def test_missing_and_broken_lines() -> None:
    clues = grid("1 . 1")
    assert any("no line joins" in v for v in check_arukone(clues, [[1, 0, 1]]))
    assert any("empty, but every cell" in v for v in check_arukone(grid("1 1 ."), [[1, 1, 0]], fill=True))
    bad = check_arukone(clues, [[1, 1, 1]], [((0, 0), (0, 1))])
    assert any("line stops" in v for v in bad) and any("ends 0 line segments" in v for v in bad)


def test_clue_errors() -> None:
    assert any("numbered 1 but labelled 2" in v for v in check_arukone(grid("1 . 1"), [[2, 2, 2]]))
    assert any("appears 1 times" in v for v in check_arukone(grid("1 . ."), [[1, 0, 0]]))
    assert any("not a number of the puzzle" in v for v in check_arukone(grid("1 1 ."), [[1, 1, 5]]))
    assert check_arukone(grid("1 1"), [[1, 1, 1]]) == ["label grid is not 1x2"]


def test_crossing_lines_are_rejected() -> None:
    clues = grid("""
. 2 .
1 . 1
. 2 .
""")
    assert count_solutions(clues) == 0
    cross = [((1, 0), (1, 1)), ((1, 1), (1, 2)), ((0, 1), (1, 1)), ((1, 1), (2, 1))]
    for middle in (1, 2):
        labels = [[0, 2, 0], [1, middle, 1], [0, 2, 0]]
        assert any("meet between" in v for v in check_arukone(clues, labels, cross))
    labels = labels_from_edges(clues, cross)
    assert labels[1][1] == MIXED
    assert any("joins no number or several" in v for v in check_arukone(clues, edges=cross))


def test_branching_line_is_rejected() -> None:
    clues = grid("""
1 . 1
. . .
""")
    labels = [[1, 1, 1], [0, 1, 0]]
    edges = [((0, 0), (0, 1)), ((0, 1), (0, 2)), ((0, 1), (1, 1))]
    assert any("cross or branch" in v for v in check_arukone(clues, labels, edges))


def test_loop_beside_a_line_is_rejected() -> None:
    clues = grid("""
1 1 . .
. . . .
. . . .
""")
    labels = [[1, 1, 0, 0], [0, 0, 1, 1], [0, 0, 1, 1]]
    square = [((1, 2), (1, 3)), ((1, 2), (2, 2)), ((1, 3), (2, 3)), ((2, 2), (2, 3))]
    bad = check_arukone(clues, labels, [((0, 0), (0, 1)), *square])
    assert any("loop or loose piece" in v for v in bad)
    assert any("loop or loose piece" in v for v in check_arukone(clues, labels))
    assert any("joins no number" in v for v in check_arukone(clues, edges=[((0, 0), (0, 1)), *square]))


def test_line_touching_itself() -> None:
    """Allowed by the literal rules, not with touchfree; the unique route is recovered from labels."""
    assert check_arukone(U_CLUES, U_LABELS, U_EDGES) == []
    assert check_arukone(U_CLUES, U_LABELS) == []
    assert edges_from_labels(U_LABELS, U_CLUES) == U_EDGES
    assert any("runs next to itself" in v for v in check_arukone(U_CLUES, U_LABELS, U_EDGES, touchfree=True))
    assert any("runs next to itself" in v for v in check_arukone(U_CLUES, U_LABELS, touchfree=True))


def test_ambiguous_label_grid_needs_edges() -> None:
    clues = grid("""
1 . .
. . .
. . 1
""")
    labels = [[1] * 3 for _ in range(3)]
    with pytest.raises(AmbiguousLabels):
        edges_from_labels(labels, clues)
    assert any("pass the edges" in v for v in check_arukone(clues, labels))
    snake = [((0, 0), (0, 1)), ((0, 1), (0, 2)), ((0, 2), (1, 2)), ((1, 2), (1, 1))]
    snake += [((1, 1), (1, 0)), ((1, 0), (2, 0)), ((2, 0), (2, 1)), ((2, 1), (2, 2))]
    assert check_arukone(clues, labels, snake) == []
    assert check_arukone(clues, labels, snake, fill=True) == []


# --------------------------------------------------------------------------
# Counter on hand-made cases, and checker and counter against each other


@pytest.mark.parametrize(
    ("clues", "literal", "fill", "touchfree"),
    [
        (grid("1 1"), 1, 1, 1),
        (grid("1 . 1"), 1, 1, 1),
        (grid("1 .\n. 1"), 2, 0, 2),
        (U_CLUES, 3, 1, 1),
        (grid("1 2\n2 1"), 0, 0, 0),
        (grid("1 . 2\n. . .\n2 . 1"), 0, 0, 0),
        (grid(". . .\n1 2 .\n. . .\n. 2 1"), 2, 1, 1),
    ],
)
def test_counter_on_hand_made_cases(clues: Clues, literal: int, fill: int, touchfree: int) -> None:
    assert count_solutions(clues) == literal
    assert count_solutions(clues, fill=True) == fill
    assert count_solutions(clues, touchfree=True) == touchfree


def _all_edges(rows: int, cols: int) -> list[Edge]:
    return [
        edge((r, c), (r + dr, c + dc))
        for r in range(rows)
        for c in range(cols)
        for dr, dc in ((0, 1), (1, 0))
        if r + dr < rows and c + dc < cols
    ]


TINY = [
    grid("1 . .\n. . .\n. . 1"),  # 12 solutions, 2 filling, 6 touch-free
    grid("1 . 2\n. . .\n2 . 1"),  # none
    grid("1 . .\n2 . 1\n. . 2"),
    grid("1 . .\n. . .\n. 1 ."),
    grid("1 . . .\n. . . 1"),
    grid(". 1 2 .\n1 . . 2"),
    grid("1 . 2 .\n. . 1 2"),
]


@pytest.mark.parametrize("clues", TINY)
def test_checker_and_counter_agree_on_every_edge_set(clues: Clues) -> None:
    """Every subset of the board's edges that the checker accepts is a solution the counter
    enumerates, and vice versa, for each of the three rule sets."""
    rows, cols = len(clues), len(clues[0])
    candidates = _all_edges(rows, cols)
    accepted: dict[str, set[frozenset[Edge]]] = {"literal": set(), "fill": set(), "touchfree": set()}
    for bits in itertools.product((False, True), repeat=len(candidates)):
        edges = frozenset(e for e, b in zip(candidates, bits, strict=True) if b)
        labels = labels_from_edges(clues, edges)
        if check_arukone(clues, labels, edges):
            continue
        accepted["literal"].add(edges)
        if not check_arukone(clues, labels, edges, fill=True):
            accepted["fill"].add(edges)
        if not check_arukone(clues, labels, edges, touchfree=True):
            accepted["touchfree"].add(edges)
    for mode, found in accepted.items():
        options = {mode: True} if mode != "literal" else {}
        enumerated = [e for _, e in enumerate_solutions(clues, **options)]
        assert len(enumerated) == len(set(enumerated)), mode
        assert set(enumerated) == found, mode


@pytest.mark.parametrize("clues", TINY + [U_CLUES])
def test_enumerated_solutions_pass_the_checker(clues: Clues) -> None:
    for labels, edges in enumerate_solutions(clues):
        assert check_arukone(clues, labels, edges) == []
        assert labels_from_edges(clues, edges) == labels
    for labels, _ in enumerate_solutions(clues, touchfree=True):
        assert check_arukone(clues, labels, touchfree=True) == []


def test_counter_limit() -> None:
    clues = grid("1 . .\n. . .\n. . 1")
    assert count_solutions(clues) > 3
    assert count_solutions(clues, limit=3) == 3


def test_some_tiny_cases_have_solutions() -> None:
    assert [count_solutions(clues) for clues in TINY] == [12, 0, 3, 10, 8, 4, 2]


# --------------------------------------------------------------------------
# Real data


@requires_data
def test_bwinf_example_has_two_solutions_and_none_filling() -> None:
    clues = bwinf("arukone0.txt")
    solutions = list(enumerate_solutions(clues))
    assert len(solutions) == 2
    assert count_solutions(clues, fill=True) == 0
    assert count_solutions(clues, touchfree=True) == 2
    for labels, edges in solutions:
        assert check_arukone(clues, labels, edges) == []
        assert check_arukone(clues, labels) == []
        assert any("every cell must be used" in v for v in check_arukone(clues, labels, fill=True))


@requires_data
def test_bwinf_small_counts() -> None:
    trap = bwinf("checker-trap-4x4.txt")
    assert (count_solutions(trap), count_solutions(trap, fill=True), count_solutions(trap, touchfree=True)) == (9, 2, 4)
    assert count_solutions(bwinf("scr1pting-6x6-0.txt")) == 2


@requires_data
def test_seed004_solutions_are_valid() -> None:
    """The seed 004 author's solution of his arukone1 (from the write-up) and of arukone8."""
    clues = bwinf("seed004-arukone1.txt")
    labels = [
        [0, 0, 4, 4, 4, 0],
        [1, 1, 1, 1, 4, 3],
        [5, 5, 5, 5, 4, 3],
        [5, 4, 4, 4, 4, 3],
        [5, 4, 0, 3, 3, 3],
        [5, 0, 0, 3, 2, 2],
    ]
    assert check_arukone(clues, labels) == []
    assert check_arukone(clues, labels, fill=True) != []
    text = read_text(BWINF / "seed004-arukone8-solution.txt")
    assert read_bwinf(text) == bwinf("seed004-arukone8.txt")
    assert check_arukone(read_bwinf(text), read_bwinf_solution(text)) == []


JANKO_NOT_FILLING = {"181_8x8", "266_10x10", "425_12x12", "430_20x20", "437_15x15", "455_15x15"}
JANKO_TOUCHING = {"190_35x48"}


def _check_janko(keys: Sequence[str]) -> None:
    for key in keys:
        clues, edges = janko()[key]
        labels = labels_from_edges(clues, edges)
        assert check_arukone(clues, labels, edges) == [], key
        assert (check_arukone(clues, labels, edges, fill=True) == []) == (key not in JANKO_NOT_FILLING), key
        assert (check_arukone(clues, labels, edges, touchfree=True) == []) == (key not in JANKO_TOUCHING), key


@requires_data
def test_janko_published_solutions_sample() -> None:
    keys = sorted(janko())
    assert len(keys) == 579
    _check_janko(sorted(set(keys[::25]) | JANKO_NOT_FILLING | JANKO_TOUCHING))
    clues, edges = janko()["190_35x48"]
    labels = labels_from_edges(clues, edges)
    assert edges_from_labels(labels, clues) == edges  # the self-touching route is still recovered


@requires_data
@pytest.mark.slow
def test_janko_published_solutions_all() -> None:
    _check_janko(sorted(janko()))


# --------------------------------------------------------------------------
# Greedy router

ALL_ORDERS = list(itertools.permutations(ORDER))


def test_greedy_router_easy_cases() -> None:
    clues = grid("""
1 . . 1
2 . . 2
3 . . .
. . . 3
""")
    labels = route_greedy(clues)
    assert labels is not None and check_arukone(clues, labels) == []
    assert labels[:2] == [[1, 1, 1, 1], [2, 2, 2, 2]]
    assert route_greedy(grid("1 1")) == [[1, 1]]
    assert route_greedy(grid("1 2\n2 1")) is None


@requires_data
def test_greedy_router_falls_into_the_checker_trap() -> None:
    """The 4x4 trap is solvable (twice even with every cell used) but the shortest line for 1
    shuts the 2 in, whatever the tie-break; the same happens on the official example."""
    for name in ("checker-trap-4x4.txt", "arukone0.txt"):
        clues = bwinf(name)
        assert count_solutions(clues, limit=1) == 1
        assert all(route_greedy(clues, order) is None for order in ALL_ORDERS), name


@requires_data
def test_greedy_router_reproduces_seed004_observation() -> None:
    """seed 004: BWINF's checker fails on arukone1 but solves it with the numbers 3 and 4 swapped."""
    clues = bwinf("seed004-arukone1.txt")
    assert route_greedy(clues) is None
    swapped = [[{3: 4, 4: 3}.get(n, n) if n else None for n in row] for row in clues]
    labels = route_greedy(swapped)
    assert labels is not None and check_arukone(swapped, labels) == []


@requires_data
@pytest.mark.parametrize("name", ["benwies-6x6-0.txt", "priton-ce-5x5-0.txt", "v1perzerofy-11x11-2635b58.txt"])
def test_greedy_router_solutions_are_valid(name: str) -> None:
    clues = bwinf(name)
    labels = route_greedy(clues)
    assert labels is not None and check_arukone(clues, labels) == []


# --------------------------------------------------------------------------
# clingo peer (bench/peers/numberlink.lp)


def _clingo_edge_sets(clues: Clues, fill: bool = False, touchfree: bool = False) -> list[frozenset[Edge]]:
    clingo = pytest.importorskip("clingo")
    from bench.peers.run_clingo import HERE, numberlink_facts

    consts = [f"--const=fill={int(fill)}", f"--const=touchfree={int(touchfree)}"]
    ctl = clingo.Control(["--models=0", "--warn=none", *consts])
    ctl.add("base", [], (HERE / "numberlink.lp").read_text())
    ctl.add("base", [], numberlink_facts(clues))
    ctl.ground([("base", [])])
    found: list[frozenset[Edge]] = []

    def on_model(model: Any) -> None:
        links = [[a.number - 1 for a in s.arguments] for s in model.symbols(shown=True) if s.name == "link"]
        found.append(frozenset(edge((r1, c1), (r2, c2)) for r1, c1, r2, c2 in links))

    ctl.solve(on_model=on_model)
    return found


@pytest.mark.parametrize("clues", TINY + [U_CLUES, grid(". . .\n1 2 .\n. . .\n. 2 1")])
def test_clingo_peer_matches_counter(clues: Clues) -> None:
    for mode in ("literal", "fill", "touchfree"):
        options = {mode: True} if mode != "literal" else {}
        models = _clingo_edge_sets(clues, **options)
        assert len(models) == len(set(models)), mode
        assert set(models) == {e for _, e in enumerate_solutions(clues, **options)}, mode


@requires_data
def test_clingo_peer_on_bwinf_example_and_janko() -> None:
    clues = bwinf("arukone0.txt")
    models = _clingo_edge_sets(clues)
    assert set(models) == {e for _, e in enumerate_solutions(clues)} and len(models) == 2
    assert _clingo_edge_sets(clues, fill=True) == []
    clues, edges = janko()["01_5x5"]
    assert _clingo_edge_sets(clues) == [edges]
