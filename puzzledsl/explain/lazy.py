"""Graph rules checked against the solver's models inside the explanation loop.

An explanation asks the solver tens of thousands of questions, and each model of a question
that assumes a graph rule must be checked against it (`graphs.check`, which reads a set of the
model's true variables). Most models pass; this module tells those apart cheaply: a
`connected` rule is checked on the model as the solver's list, by a union-find over its edges,
and only a model that breaks it is handed to `graphs.check` for its cuts. Other kinds
(`acyclic`, `sizes`) go to `graphs.check` directly.
"""

from __future__ import annotations

from .. import graphs as graph_checks
from ..model import GraphConstraint


class LazyGraph:
    """One graph rule, ready to be checked against many models."""

    def __init__(self, g: GraphConstraint):
        self.g = g
        self.fast = g.kind == "connected"
        # each condition as (position in the model, whether it is positive); a constant as its value
        self.nodes = [f if isinstance(f, bool) else (abs(f) - 1, f > 0) for f in g.nodes]
        self.edges = [(i, j, f if isinstance(f, bool) else (abs(f) - 1, f > 0))
                      for i, j, f in g.edges if f is not False]
        self.variables = sorted({abs(f) for f in (*g.nodes, *(f for _, _, f in g.edges)) if not isinstance(f, bool)})

    def cuts(self, model: list[int]) -> list[list[int]]:
        """The cuts this model breaks (none when it keeps the rule)."""
        if self.fast and self._connected(model):
            return []
        true = {v for v in self.variables if model[v - 1] > 0}
        return graph_checks.check([self.g], true).cuts

    def _connected(self, model: list[int]) -> bool:
        """Whether the nodes that are in form one piece (a union-find over the edges that are in)."""
        active = [c if c is True or c is False else (model[c[0]] > 0) == c[1] for c in self.nodes]
        parent = list(range(len(active)))
        pieces = sum(active)
        for i, j, c in self.edges:
            if not (active[i] and active[j]) or (c is not True and (model[c[0]] > 0) != c[1]):
                continue
            while parent[i] != i:
                parent[i] = parent[parent[i]]
                i = parent[i]
            while parent[j] != j:
                parent[j] = parent[parent[j]]
                j = parent[j]
            if i != j:
                parent[i] = j
                pieces -= 1
                if pieces <= 1:
                    return True
        return pieces <= 1
