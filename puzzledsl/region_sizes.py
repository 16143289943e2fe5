"""Sizes of regions of equal values (`size(region(g, p)) == n[p]`), enforced lazily by cuts.

A region is a maximal orthogonally connected group of cells holding one value. Stating its
size as clauses needs an order or a root per region (tried as a rule file: some real boards
needed gigabytes). So, as for `connected`, each model is checked instead. A `sizes`
constraint has a node per cell and, per pair of neighbouring cells, a literal "these two
cells hold the same value" (a *join*); the regions of a model are the pieces the true joins
make. A broken bound gives a cut that the model breaks and every solution keeps:

- a region *too large* for its bound m: a connected part of it of m + 1 cells, all joined,
  lies in one region of at least m + 1 cells, so not all of those joins hold unless the target
  allows that many (the part is grown by breadth-first search from the bounded cell);
- a region *too small* (or of the one size `!=` forbids): while no join leaves it, the region
  of the bounded cell stays within its cells, so some join across its border holds or the
  target allows a size up to its own; and while its cells stay joined as well, the region
  stays as it is, so some join inside breaks, some join across the border holds, or the
  target allows exactly its size.

What the target must do instead is said as strongly as a clause can: one of its values that
allow such a size (a known number: none; a binary integer that must take one value: a clause
per bit), or else not its present value.
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


def fitting(cmp: str, a: int, b: int) -> tuple[int, int] | None:
    """The targets t for which `size cmp t` allows some size in a..b, as an interval (None for
    `!=` over a single size: every target but that one)."""
    if cmp == "!=":
        return None if a == b else (-_UNBOUNDED, _UNBOUNDED)
    return {"==": (a, b), "<=": (a, _UNBOUNDED), "<": (a + 1, _UNBOUNDED), ">=": (-_UNBOUNDED, b),
            ">": (-_UNBOUNDED, b - 1)}[cmp]


def value(b: SizeBound, true: set[int]) -> int:
    """The target's value in the model."""
    for v, lit in b.choices:
        if _holds(lit, true):
            return v
    return b.const + sum(c for lit, c in b.terms if _holds(lit, true))


def targets(b: SizeBound, a: int, z: int, t: int, true: set[int]) -> list[list[int | bool]]:
    """What the target must do when the region's size lies in a..z: literals of which one holds
    (a disjunction), one such list per clause. A target's value literals say it exactly; a
    binary one that must take one value has a clause per bit; otherwise the target is told to
    leave its value t (for a sum: some literal of the sum flips)."""
    span = fitting(b.cmp, a, z)
    if b.choices:
        return [[lit for v, lit in b.choices if (v != a if span is None else span[0] <= v <= span[1])]]
    if b.binary and span is not None:
        lo, hi = max(span[0], b.const), min(span[1], b.const + sum(c for _, c in b.terms))
        if lo > hi:
            return [[]]
        if lo == hi:
            return [[lit if (lo - b.const) & c else neg(lit)] for lit, c in b.terms]
    return [[neg(lit) if _holds(lit, true) else lit for lit, _ in b.terms]]


def sizes_cuts(g: GraphConstraint, true: set[int]) -> list[list[int]]:
    """The cuts for the bounds a model breaks: those of one region and kind once per round."""
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
        t = value(b, true)
        k = piece[b.node]
        size = len(pieces[k])
        lo, hi = allowed(b.cmp, t)
        big = size > hi
        if not big and size >= lo and not (b.cmp == "!=" and size == t):
            continue
        if (k, big) in done:
            continue
        done.add((k, big))
        if big:  # a connected part of hi + 1 cells, all joined: the region has at least that many
            _, tree = _part(b.node, max(hi + 1, 1), around, true)
            lits = [neg(f) for f in tree]
            wants = targets(b, max(hi + 1, 1), n, t, true)
        else:  # closed: while no join leaves it, the region stays within these cells
            members = set(pieces[k])
            border = [f for u in pieces[k] for w, f in around[u] if w not in members]
            _, tree = _part(b.node, size, around, true)
            _add(cuts, b.guard, targets(b, 1, size, t, true), border)
            # and while its joins hold too, it is exactly this size
            _add(cuts, b.guard, targets(b, size, size, t, true), [neg(f) for f in tree] + border)
            continue
        _add(cuts, b.guard, wants, lits)
    return cuts


def _add(cuts: list[list[int]], guard: int | bool, wants: list[list[int | bool]], lits: list) -> None:
    """The clauses "guard fails, or one of `want`, or one of `lits`", one per `want`."""
    for want in wants:
        if any(x is True for x in want):
            continue  # a target that may stay (a `!=` bound over several sizes): no cut from this side
        clause = {x for x in [neg(guard), *want, *lits] if x is not False}
        cuts.append(sorted(clause))  # type: ignore[arg-type]  # no literal is True: the model breaks it


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
