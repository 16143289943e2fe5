"""Graph constraints (`connected`, `acyclic`, region `sizes`) enforced lazily, by cuts.

Writing connectivity or acyclicity out as clauses needs a counter or an order per
node; most puzzle models are connected, or acyclic, anyway once the local rules
hold. So the solver first solves without them; each model is checked here, and a
violated constraint yields clauses (cuts) that the model breaks and every correct
solution keeps. They stay in the solver for later solves (uniqueness, counting).

A model whose only fault is a cycle may be *repaired*: solved again with the cycle's
edges off and every other edge as it was (the rest of the model is free to follow).
Where removing a closed loop leaves a valid solution, as with lines that may leave
cells empty, this finds it at once instead of cutting cycle after cycle.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from .model import GraphConstraint
from .region_sizes import sizes_cuts


@dataclass
class Check:
    """What one model breaks: the cuts to add, and the edges of the cycles it contains."""

    cuts: list[list[int]] = field(default_factory=list)
    cycle_edges: dict[int, set[int]] = field(default_factory=dict)  # graph index -> edge positions on cycles

    @property
    def ok(self) -> bool:
        return not self.cuts


def _holds(f: int | bool, true: set[int]) -> bool:
    if f is True or f is False:
        return f
    return (f in true) if f > 0 else (-f not in true)


def check(graphs: list[GraphConstraint], true: set[int]) -> Check:
    """Check a model (its true variables) against every graph constraint."""
    out = Check()
    for gi, g in enumerate(graphs):
        if g.kind == "connected":
            out.cuts.extend(_connected_cuts(g, true))
        elif g.kind == "sizes":
            out.cuts.extend(sizes_cuts(g, true))
        else:
            cuts, on_cycles = _cycle_cuts(g, true)
            if cuts:
                out.cuts.extend(cuts)
                out.cycle_edges[gi] = on_cycles
    return out


def _components(n: int, active: list[bool], adj: dict[int, list[int]]) -> list[list[int]]:
    seen = [False] * n
    comps = []
    for s in range(n):
        if not active[s] or seen[s]:
            continue
        seen[s] = True
        comp, todo = [s], [s]
        while todo:
            u = todo.pop()
            for w in adj.get(u, ()):
                if not seen[w]:
                    seen[w] = True
                    comp.append(w)
                    todo.append(w)
        comps.append(comp)
    return comps


def _connected_cuts(g: GraphConstraint, true: set[int]) -> list[list[int]]:
    """For each piece X that is not the largest piece L: a node of X and a node of L both in
    means an edge leaving X must be in (its condition, or its far node), and one leaving L.
    The second cut stops the solver from answering the first by moving X about inside a region
    that L's border still closes (a 31x45 shading board: 20,029 rounds, undecided at 30 s, with
    the first cut alone; 395 rounds and 1.9 s with both; BENCHMARKS.md)."""
    n = len(g.nodes)
    active = [_holds(f, true) for f in g.nodes]
    adj: dict[int, list[int]] = {}
    for i, j, f in g.edges:
        if active[i] and active[j] and _holds(f, true):
            adj.setdefault(i, []).append(j)
            adj.setdefault(j, []).append(i)
    comps = _components(n, active, adj)
    if len(comps) <= 1:
        return []
    comps.sort(key=len, reverse=True)
    y = _representative(g, comps[0])
    cuts = []
    around_largest = _boundary(g, set(comps[0]))
    for comp in comps[1:]:
        x = _representative(g, comp)
        ends = {-lit for lit in (g.nodes[x], g.nodes[y]) if lit is not True}
        for side in (_boundary(g, set(comp)), around_largest):
            if side is not None:
                cuts.append(sorted(ends | side))
    return cuts


def _boundary(g: GraphConstraint, inside: set[int]) -> set[int] | None:
    """What must hold for the piece to reach out: an edge leaving it (its condition, or its far
    node); None if one always does (cannot happen for a piece of a model)."""
    out: set[int] = set()
    for i, j, f in g.edges:
        if (i in inside) == (j in inside) or f is False:
            continue
        far = j if i in inside else i
        lit = f if f is not True else g.nodes[far]
        if lit is True:
            return None
        if lit is not False:
            out.add(lit)
    return out


def _representative(g: GraphConstraint, comp: list[int]) -> int:
    """A node of the piece, preferably one that is always in (its literal drops out of the cut)."""
    return next((i for i in comp if g.nodes[i] is True), comp[0])


def _cycle_cuts(g: GraphConstraint, true: set[int]) -> tuple[list[list[int]], set[int]]:
    """One cut per cycle closed while growing a spanning forest: not all of its edges."""
    parent: dict[int, int] = {}

    def find(u: int) -> int:
        while parent.get(u, u) != u:
            parent[u] = parent.get(parent[u], parent[u])
            u = parent[u]
        return u

    forest: dict[int, list[tuple[int, int]]] = {}  # node -> (neighbour, edge position)
    cuts: list[list[int]] = []
    on_cycles: set[int] = set()
    for pos, (i, j, f) in enumerate(g.edges):
        if not _holds(f, true):
            continue
        ri, rj = find(i), find(j)
        if ri != rj:
            parent[ri] = rj
            forest.setdefault(i, []).append((j, pos))
            forest.setdefault(j, []).append((i, pos))
            continue
        path = _forest_path(forest, i, j) + [pos]
        on_cycles.update(path)
        cuts.append(sorted({-g.edges[p][2] for p in path if g.edges[p][2] is not True}))
    return cuts, on_cycles


def _forest_path(forest: dict[int, list[tuple[int, int]]], a: int, b: int) -> list[int]:
    """Edge positions on the path from a to b in the forest (they are in one tree)."""
    back: dict[int, tuple[int, int] | None] = {a: None}
    todo = deque([a])
    while todo:
        u = todo.popleft()
        if u == b:
            break
        for w, pos in forest.get(u, ()):
            if w not in back:
                back[w] = (u, pos)
                todo.append(w)
    path = []
    u = b
    while back[u] is not None:
        prev, pos = back[u]  # type: ignore[misc]
        path.append(pos)
        u = prev
    return path


def repair(graphs: list[GraphConstraint], true: set[int], found: Check) -> list[int]:
    """Assumptions for a repair solve: the edges on cycles off, every other edge of those graphs
    as in the model."""
    lits: list[int] = []
    for gi, positions in found.cycle_edges.items():
        for pos, (_, _, f) in enumerate(graphs[gi].edges):
            if f is True or f is False:
                continue
            on = _holds(f, true) and pos not in positions
            lits.append(f if on else -f)
    return lits
