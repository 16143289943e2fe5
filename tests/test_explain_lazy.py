"""The explanation loop's quick check of `connected` rules (`puzzledsl/explain/lazy.py`)
agrees with `graphs.check`, which the solver loop of `solve` uses: on random models of random
graphs, a model passes the quick check exactly when `graphs.check` finds no cut, and the cuts
are the same."""

from __future__ import annotations

import random

import pytest

from puzzledsl import graphs
from puzzledsl.errors import Span
from puzzledsl.explain.lazy import LazyGraph
from puzzledsl.model import GraphConstraint


def _graph(rng: random.Random, n: int) -> tuple[GraphConstraint, int]:
    """A random graph over variables 1..: nodes that are in, out, or a variable; edges likewise."""
    var = 0

    def cond() -> int | bool:
        nonlocal var
        roll = rng.random()
        if roll < 0.15:
            return True
        if roll < 0.2:
            return False
        var += 1
        return var if rng.random() < 0.8 else -var

    nodes = tuple(cond() for _ in range(n))
    edges = tuple((i, j, cond()) for i in range(n) for j in range(i + 1, n) if rng.random() < 0.3)
    return GraphConstraint("connected", nodes, edges, Span("t", 1, 1, 1, 1), None), var


@pytest.mark.parametrize("seed", range(40))
def test_quick_check_agrees_with_graphs_check(seed: int) -> None:
    rng = random.Random(seed)
    g, nvars = _graph(rng, rng.randint(1, 12))
    lazy = LazyGraph(g)
    for _ in range(30):
        model = [v if rng.random() < 0.5 else -v for v in range(1, nvars + 1)]
        true = {v for v in model if v > 0}
        expected = graphs.check([g], true).cuts
        assert lazy.cuts(model) == expected
        assert lazy._connected(model) == (not expected)
