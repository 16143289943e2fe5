"""Run-length clues: `runs(c in 1..C: black[r, c]) == [3, 1, 2]`, around a ring
(`cyclic runs(…)`) and in any order (`sorted(runs(…)) == [1, 2, 3]`).

Run-length clues say which blocks of consecutive true cells a line holds. Written with
start variables per block, a rule file needs helper grids that uniqueness then has to ignore;
stated as the sequence's membership in a regular language, the compiler needs nothing but
the cells. Each comparison is read by a deterministic automaton (a *reader*), so "the prefix
up to cell i ends in state s" is a formula built from the previous cell's states, and the clue
holds exactly when the whole sequence ends in an accepting state. States from which the blocks
left cannot fit in the cells left are dropped while building, which is most of the propagation
a hand encoding gives. The readers:

- `InOrder`: state (blocks done, cells into the next): the lengths in order;
- `AnyOrder`: state (the lengths not yet seen, cells into the current block): the lengths as a
  multiset (`sorted(…)` on both sides);
- `AroundRing`: wraps either; it first counts the true cells before the first false one (they
  belong to the block that wraps around the end), then reads on with the inner reader, and
  at the end feeds it those head cells again, so the wrapping block is the last one read.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Protocol

from .errors import PuzzleError, Span
from .model import Formula, Model, neg
from .values import describe


@dataclass(frozen=True)
class Runs:
    """The blocks of true cells of a sequence of conditions, known only once solved."""

    cells: tuple[Formula, ...]
    cyclic: bool = False  # `cyclic runs(…)`: the last value is followed by the first
    ordered: bool = True  # False after `sorted(…)`: the lengths in ascending order


def runs_equal(m: Model, runs: Runs, lengths: list[int], span: Span | None = None) -> Formula:
    """The formula "the blocks of true cells have exactly these lengths" (in order, or as a
    multiset when `runs` is sorted: `lengths` is then ascending)."""
    if not runs.ordered and lengths != sorted(lengths):
        shown = "[" + ", ".join(map(str, lengths)) + "]"
        raise PuzzleError(f"`sorted(…)` is compared with {shown}, which is not in ascending order, so they are "
                          "never equal", span, "sort both sides: `sorted(runs(…)) == sorted(L)`")
    if any(b < 1 for b in lengths):
        return False  # no block has fewer than one cell
    reader: Reader = InOrder(lengths) if runs.ordered else AnyOrder(lengths)
    if runs.cyclic:
        reader = AroundRing(reader)
    return accepts(m, runs.cells, reader)


def sorted_value(x: object, span: Span) -> object:
    """`sorted(L)`: known numbers in ascending order; `sorted(runs(…))`: the block lengths so."""
    if isinstance(x, Runs):
        return Runs(x.cells, x.cyclic, ordered=False)
    if isinstance(x, list | tuple | range):
        if any(v is None for v in x):
            raise PuzzleError("cannot order an unknown value (`?`)", span,
                              "leave the unknown values out first, e.g. `list(v in L where known(v): v)`")
        if all(type(v) is int for v in x):
            return sorted(x)
    raise PuzzleError(f"`sorted` orders a list of numbers known before solving, or `runs(…)`, not {describe(x)}",
                      span)


class Reader(Protocol):
    """A deterministic automaton over a sequence of truth values."""

    start: Hashable

    def step(self, s, bit: bool) -> Hashable | None:
        """The state after reading `bit`, or None: no accepting end is reachable."""

    def need(self, s) -> int:
        """A lower bound on the values still to read before an accepting end."""

    def final(self, s) -> bool:
        """The sequence may end here."""


def accepts(m: Model, cells: tuple[Formula, ...], reader: Reader) -> Formula:
    """The formula "the reader accepts `cells`"."""
    cells = tuple(m.fixed(x) if type(x) is int else x for x in cells)  # values rules forced
    layers = _layers(cells, reader)
    if layers is None:
        return False
    if m.defines_by_clauses:
        return _by_clauses(m, cells, layers, reader.start)
    reach: dict[Hashable, Formula] = {reader.start: True}
    for x, layer in zip(cells, layers[1:]):
        reach = {t: m.or_([m.and_([reach[s], x if bit else neg(x)]) for s, bit in preds])
                 for t, preds in layer.items()}
    return m.or_(list(reach.values()))


Layer = dict[Hashable, list[tuple[Hashable, bool]]]
"""The states a reader can be in after a cell, each with the (state, value) pairs that lead to it."""


def _layers(cells: tuple[Formula, ...], reader: Reader) -> list[Layer] | None:
    """The states after each prefix of `cells` from which an accepting end is still reachable
    (the first layer: the start), or None when there is none."""
    layers: list[Layer] = [{reader.start: []}]
    moves: dict[Hashable, tuple] = {}  # state -> for each value: (next state, its need) or None
    n = len(cells)
    for i, x in enumerate(cells):
        left = n - i - 1  # cells after this one
        nxt: Layer = {}
        bits = (False, True) if type(x) is int else (x,)
        for s in layers[-1]:
            out = moves.get(s)
            if out is None:
                out = moves[s] = tuple(None if (t := reader.step(s, bit)) is None else (t, reader.need(t))
                                       for bit in (False, True))
            for bit in bits:
                tn = out[bit]
                if tn is not None and tn[1] <= left:
                    preds = nxt.get(tn[0])
                    if preds is None:
                        nxt[tn[0]] = [(s, bit)]
                    else:
                        preds.append((s, bit))
        if not nxt:
            return None
        layers.append(nxt)
    keep = {s for s in layers[-1] if reader.final(s)}
    if not keep:
        return None
    for i in range(n, 0, -1):  # backwards: only states that lead to an accepting end
        layer = layers[i]
        if len(keep) < len(layer):
            layer = layers[i] = {t: preds for t, preds in layer.items() if t in keep}
            if not layer:
                return None
        keep = {s for preds in layer.values() for s, _ in preds}
    return layers


SPLICE = 8  # a state reached by one path of at most this many cells is their conjunction


def _by_clauses(m: Model, cells: tuple[Formula, ...], layers: list[Layer], start: Hashable) -> Formula:
    """"The reader is in state t after cell i", built layer by layer as the old formula was, but
    written straight as clauses over auxiliary variables, each defined as equivalent to what it
    names, so the result holds exactly when the reader accepts and may be used anywhere, negated
    too. A state with one way in is the conjunction of that way's literals (no variable: a
    block's cells), one with several ways in a variable equal to their disjunction; each way
    longer than one literal gets a variable equal to it. "Variable implies what it names" goes
    to `m.definitions`; the converse only matters where the result is false, so it is a
    completion of the result's node (written only if some rule uses it negated)."""
    back: list[list[int]] = []  # the other direction: needed only where the result is false
    extend, add_back, new = m.definitions.extend, back.append, m.new_auxiliary
    # cells that are formulas occur both ways in the definitions (a value and its negation)
    m.definition_nodes.extend(y for x in cells if type(x) is int and (x if x > 0 else -x) in m.nodes for y in (x, -x))

    def name(conj: tuple[int, ...]) -> int:
        if len(conj) == 1:
            return conj[0]
        v = new()
        extend([[-v, lit] for lit in conj])
        add_back([v, *[-lit for lit in conj]])
        return v

    prev: dict[Hashable, tuple[int, ...]] = {start: ()}
    for x, layer in zip(cells, layers[1:]):
        here: dict[Hashable, tuple[int, ...]] = {}
        for t, preds in layer.items():
            ways = []
            for s, bit in preds:
                way = prev[s] if type(x) is bool else (*prev[s], x if bit else -x)
                ways.append(way if len(way) <= SPLICE else (name(way),))
            if len(ways) == 1:
                here[t] = ways[0]
                continue
            if () in ways:  # a way with no condition: the state holds
                here[t] = ()
                continue
            q = new()
            lits = [name(w) for w in ways]
            extend([[-q, *lits]])
            back.extend([[q, -lit] for lit in lits])
            here[t] = (q,)
        prev = here
    finals = list(prev.values())
    if () in finals:
        return True
    f = m.or_([name(w) for w in finals])
    if type(f) is int and f < 0 and -f in m.nodes:  # false where the conjunction -f is true
        m.completions.setdefault(-f, []).extend(back)
    else:
        m.definitions.extend(back)
    return f


class InOrder:
    """State (j, c): j blocks done, c cells into block j + 1."""

    def __init__(self, lengths: list[int]) -> None:
        self.lengths, self.start = lengths, (0, 0)
        k = len(lengths)
        # cells still needed from (j, 0): block j + 1, then each later block and its gap
        self.after = [0] * (k + 1)
        for j in range(k - 1, -1, -1):
            self.after[j] = lengths[j] + (1 + self.after[j + 1] if j + 1 < k else 0)

    def step(self, s: tuple[int, int], bit: bool) -> tuple[int, int] | None:
        j, c = s
        if bit:
            return (j, c + 1) if j < len(self.lengths) and c < self.lengths[j] else None
        if c == 0:
            return s
        return (j + 1, 0) if c == self.lengths[j] else None  # a block ends only at its length

    def need(self, s: tuple[int, int]) -> int:
        return self.after[s[0]] - s[1]

    def final(self, s: tuple[int, int]) -> bool:
        j, c = s
        k = len(self.lengths)
        return j == k or (j == k - 1 and c == self.lengths[j])


class AnyOrder:
    """State (R, c): R the lengths not yet seen (ascending), c cells into the current block."""

    def __init__(self, lengths: list[int]) -> None:
        self.start = (tuple(sorted(lengths)), 0)

    def step(self, s: tuple[tuple[int, ...], int], bit: bool) -> tuple[tuple[int, ...], int] | None:
        rest, c = s
        if bit:
            return (rest, c + 1) if rest and c < rest[-1] else None
        if c == 0:
            return s
        if c not in rest:
            return None
        i = rest.index(c)
        return rest[:i] + rest[i + 1:], 0

    def need(self, s: tuple[tuple[int, ...], int]) -> int:
        rest, c = s
        return sum(rest) + len(rest) - 1 - c if rest else 0

    def final(self, s: tuple[tuple[int, ...], int]) -> bool:
        rest, c = s
        return rest == () and c == 0 or rest == (c,)


class AroundRing:
    """States ("head", f): f true values so far, none false; ("body", f, s): the inner reader in
    state s after the head of f values and the false one that ended it."""

    def __init__(self, inner: Reader) -> None:
        self.inner, self.start = inner, ("head", 0)

    def step(self, s: tuple, bit: bool) -> tuple | None:
        if s[0] == "head":
            return ("head", s[1] + 1) if bit else ("body", s[1], self.inner.start)
        t = self.inner.step(s[2], bit)
        return None if t is None else ("body", s[1], t)

    def need(self, s: tuple) -> int:
        return 0 if s[0] == "head" else self.inner.need(s[2]) - s[1]

    def final(self, s: tuple) -> bool:
        # the head's true values follow the last value: read them again, then end
        t = self.inner.start if s[0] == "head" else s[2]
        for _ in range(s[1]):
            t = self.inner.step(t, True)
            if t is None:
                return False
        return self.inner.final(t)
