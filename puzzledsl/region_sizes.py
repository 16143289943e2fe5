"""Sizes of regions of equal values (`size(region(g, p)) == n[p]`), enforced lazily by cuts.

A region is a maximal orthogonally connected group of cells holding one value. Stating its
size as clauses needs an order or a root per region (tried as a rule file: some real boards
needed gigabytes). So, as for `connected`, each model is checked instead. A `sizes`
constraint has a node per cell and, per pair of neighbouring cells, a literal "these two
cells hold the same value" (a *join*); the regions of a model are the pieces the true joins
make. A broken bound gives a cut that the model breaks and every solution keeps:

- a region *too large* for its bound m: a connected part of it of m + 1 cells, all joined,
  lies in one region of at least m + 1 cells, so while the target keeps its value not all of
  those joins hold (the part is grown by breadth-first search from the bounded cell);
- a region *too small* (or of the one size `!=` forbids): while its cells stay joined and no
  join leaves it, the region stays as it is, so some join inside breaks, some join across its
  border holds, or the target changes.

The target "changes" is a literal: the target's value literal negated (a known number: none),
or for a sum every literal of the sum flipped.
"""

from __future__ import annotations

from collections import deque

from .model import GraphConstraint, SizeBound, neg

_UNBOUNDED = 1 << 62


def _holds(f: int | bool, true: set[int]) -> bool:
    if f is True or f is False:
        return f
    return (f in true) if f > 0 else (-f not in true)


def allowed(cmp: str, t: int) -> tuple[int, int]:
    """The sizes `size cmp t` allows, as an interval (for `!=`: every size; checked apart)."""
    return {"==": (t, t), "<=": (1, t), "<": (1, t - 1), ">=": (t, _UNBOUNDED), ">": (t + 1, _UNBOUNDED),
            "!=": (1, _UNBOUNDED)}[cmp]


def target(b: SizeBound, true: set[int]) -> tuple[int, list[int | bool]]:
    """The target's value in the model, and the literals that say it has another one."""
    for value, lit in b.choices:
        if _holds(lit, true):
            return value, [neg(lit)]
    total = b.const + sum(c for lit, c in b.terms if _holds(lit, true))
    return total, [neg(lit) if _holds(lit, true) else lit for lit, _ in b.terms]


def sizes_cuts(g: GraphConstraint, true: set[int]) -> list[list[int]]:
    """The cuts for the bounds a model breaks: at most one of each kind per region and round."""
    n = len(g.nodes)
    around: list[list[tuple[int, int | bool]]] = [[] for _ in range(n)]  # node -> (neighbour, join)
    for i, j, f in g.edges:
        around[i].append((j, f))
        around[j].append((i, f))
    piece = [-1] * n
    pieces: list[list[int]] = []
    for s in range(n):
        if piece[s] < 0:
            pieces.append(_grow(s, around, true, piece, len(pieces)))
    cuts: list[list[int]] = []
    done: set[tuple[int, bool]] = set()
    for b in g.sizes:
        if not _holds(b.guard, true):
            continue
        t, other = target(b, true)
        k = piece[b.node]
        size = len(pieces[k])
        lo, hi = allowed(b.cmp, t)
        big = size > hi
        if not big and size >= lo and not (b.cmp == "!=" and size == t):
            continue
        if (k, big) in done:
            continue
        done.add((k, big))
        if big:
            _, tree = _part(b.node, max(hi + 1, 1), around, true)
            lits = [neg(f) for f in tree]
        else:
            members = set(pieces[k])
            _, tree = _part(b.node, size, around, true)
            lits = [neg(f) for f in tree]
            lits += [f for u in pieces[k] for w, f in around[u] if w not in members]
        clause = {x for x in [neg(b.guard), *other, *lits] if x is not False}
        cuts.append(sorted(clause))  # type: ignore[arg-type]  # no literal is True: the model breaks it
    return cuts


def _grow(s: int, around: list, true: set[int], piece: list[int], k: int) -> list[int]:
    piece[s] = k
    members, todo = [s], [s]
    while todo:
        u = todo.pop()
        for w, f in around[u]:
            if piece[w] < 0 and _holds(f, true):
                piece[w] = k
                members.append(w)
                todo.append(w)
    return members


def _part(start: int, count: int, around: list, true: set[int]) -> tuple[list[int], list[int | bool]]:
    """`count` cells of the region of `start`, connected, found breadth first from it, and the
    joins of the tree that reached them."""
    seen, tree = [start], []
    marked = {start}
    todo = deque([start])
    while todo and len(seen) < count:
        u = todo.popleft()
        for w, f in around[u]:
            if w not in marked and _holds(f, true):
                marked.add(w)
                seen.append(w)
                tree.append(f)
                todo.append(w)
                if len(seen) == count:
                    break
    return seen, tree
