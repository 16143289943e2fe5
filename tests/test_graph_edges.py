"""Graph rules over listed edges (docs §18): `acyclic((p, q) in E: c)` on nodes of any kind, and
`connected((p, q) in E: c)` on edges between cells, counted against brute force (a union-find
written here), and misuse located. A new user needed "no loop of diagonals" (Gokigen) and could
only say it by turning the board 45°."""

from __future__ import annotations

import itertools
import random

import pytest

import puzzledsl
from puzzledsl.errors import PuzzleError


def _forest(edges: list[tuple[object, object]], kind: str) -> bool:
    parent: dict = {}

    def root(a: object) -> object:
        while parent.setdefault(a, a) != a:
            a = parent[a]
        return a
    for p, q in edges:
        rp, rq = root(p), root(q)
        if rp == rq and kind == "acyclic":
            return False
        parent[rp] = rq
    return kind == "acyclic" or len({root(p) for p, _ in edges}) <= 1


def _count(text: str) -> int:
    return puzzledsl.rules(text).bind().count()


def _pairs(rng: random.Random, kind: str) -> list[tuple]:
    """Random edges: between numbered nodes for `acyclic`, between cells for `connected`."""
    if kind == "acyclic":
        nodes = list(range(1, rng.randint(3, 5) + 1))
        return sorted({tuple(sorted(rng.sample(nodes, 2))) for _ in range(rng.randint(3, 7))})
    cells = [(r, c) for r in range(1, 4) for c in range(1, 4)]
    return sorted({tuple(sorted(rng.sample(cells, 2))) for _ in range(rng.randint(3, 6))})


@pytest.mark.parametrize("kind, seed", [("acyclic", s) for s in range(8)] + [("connected", s) for s in range(6)])
def test_graph_rules_over_listed_edges_count_like_brute_force(kind: str, seed: int) -> None:
    pairs = _pairs(random.Random(seed if kind == "acyclic" else 100 + seed), kind)
    edges = ", ".join(f"({p!r}, {q!r})" for p, q in pairs)
    text = (f"define E = [{edges}]\nvar on[1..{len(pairs)}]: bool\n"
            f"rule {kind}((p, q) in E: on[1 + sum(k in 0..len(E) - 1 where E[k] == (p, q): k)])\n")
    truth = sum(_forest([e for e, b in zip(pairs, bits) if b], kind)
                for bits in itertools.product((0, 1), repeat=len(pairs)))
    assert _count(text) == truth


SLANT = """
given N: int
given clue[0..N, 0..N]: int?
var slash[1..N, 1..N]: bool   # `/` joins the cell's lower-left and upper-right corners, else `\\`
define options = list(r in 1..N, c in 1..N, s in [true, false]:
  (if s then ((r, c - 1), (r - 1, c)) else ((r - 1, c - 1), (r, c)), (r, c), s))
rule "no closed loop of diagonals": acyclic((e, p, s) in options: slash[p] == s)
rule "a number counts the diagonals that touch its corner":
  forall (i, j) in cells(clue) where known(clue[i, j]):
    count(p in [(i, j), (i + 1, j + 1)] where inside(slash, p): not slash[p])
    + count(p in [(i, j + 1), (i + 1, j)] where inside(slash, p): slash[p]) == clue[i, j]
"""


def test_a_slant_board_by_its_printed_rules() -> None:
    """Gokigen: one diagonal per cell, no closed loop, corner numbers; against every board."""
    rng = random.Random(7)
    n = 3
    for _ in range(4):
        shown = {(r, c): rng.randint(0, 2) for r in range(n + 1) for c in range(n + 1) if rng.random() < 0.3}
        truth = 0
        for bits in itertools.product((True, False), repeat=n * n):
            slash = dict(zip([(r, c) for r in range(1, n + 1) for c in range(1, n + 1)], bits))
            diag = {p: (((p[0], p[1] - 1), (p[0] - 1, p[1])) if s else ((p[0] - 1, p[1] - 1), p))
                    for p, s in slash.items()}
            if not _forest(list(diag.values()), "acyclic"):
                continue
            if all(sum(k in d for d in diag.values()) == v for k, v in shown.items()):
                truth += 1
        clue = [[shown.get((r, c)) for c in range(n + 1)] for r in range(n + 1)]
        assert puzzledsl.rules(SLANT).bind(N=n, clue=clue).count() == truth


@pytest.mark.parametrize("rule, words", [
    ("acyclic(p in 1..3: x[p])", "pairs of nodes"),
    ("acyclic(p in 1..3, q in 1..3: x[p] and x[q])", "one binding"),
    ("acyclic((p, q) in [(1, 1)]: x[p])", "to itself"),
])
def test_misuse_is_located(rule: str, words: str) -> None:
    with pytest.raises(PuzzleError, match=words) as err:
        puzzledsl.rules(f"var x[1..3]: bool\nrule {rule}\n").bind().solve()
    assert err.value.span is not None and err.value.span.line == 2
