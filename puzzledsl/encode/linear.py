"""The one place where sums become clauses: cardinality and pseudo-Boolean encodings.

`encode_linear` turns `sum(coef * lit) cmp bound` into CNF, optionally conditioned on
literals (the constraint holds when all of them are true; used for reification).
Unit coefficients go to `pysat.card`, others to `pysat.pb` (pindakaas). Which
encoding is used is a measured choice (see BENCHMARKS.md), settable per run.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from pysat.card import CardEnc
from pysat.card import EncType as CardType

CARD_ENCODINGS = {"auto": -1, "seqcounter": CardType.seqcounter, "totalizer": CardType.totalizer,
                  "sortnetwrk": CardType.sortnetwrk, "cardnetwrk": CardType.cardnetwrk,
                  "mtotalizer": CardType.mtotalizer, "kmtotalizer": CardType.kmtotalizer}
# pysat.pb loads pindakaas (a Rust extension): imported only when a weighted sum needs it.
PB_ENCODINGS = ("bdd", "seqcounter", "sortnetwrk", "adder", "binmerge", "watchdog", "totalizer", "mixedradix")


@dataclass(frozen=True)
class LinearOptions:
    card: str = "auto"  # seqcounter for small bounds, kmtotalizer for large ones (measured)
    pb: str = "bdd"
    pairwise_up_to: int = 20  # at-most-one over this many literals: pairwise clauses
    direct_up_to: int = 5  # any count over this many literals: clauses without auxiliary variables


def linear_options(pb: str | None = None, card: str | None = None) -> LinearOptions:
    """The encodings chosen on the command line (None: the default), checked by name."""
    from ..errors import PuzzleError
    if pb is not None and pb not in PB_ENCODINGS:
        raise PuzzleError(f"unknown PB encoding `{pb}`", help="choose one of: " + ", ".join(PB_ENCODINGS))
    if card is not None and card not in CARD_ENCODINGS:
        raise PuzzleError(f"unknown cardinality encoding `{card}`", help="choose one of: " + ", ".join(CARD_ENCODINGS))
    d = LinearOptions()
    return LinearOptions(card=card or d.card, pb=pb or d.pb)


class VarPool:
    """Hands out fresh variable ids above the model's handles."""

    def __init__(self, top: int):
        self.top = top

    def fresh(self) -> int:
        self.top += 1
        return self.top


def encode_linear(terms: list[tuple[int, int]], cmp: str, bound: int, pool: VarPool,
                  opts: LinearOptions, cond: tuple[int, ...] = ()) -> list[list[int]]:
    """Clauses for cond -> sum(coef * lit) cmp bound; cmp in <=, >=, ==; coefs > 0."""
    guard = [-c for c in cond]
    total = sum(c for _, c in terms)
    if cmp == "<=" and bound >= total or cmp == ">=" and bound <= 0:
        return []
    if bound < 0 and cmp in ("<=", "==") or bound > total and cmp in (">=", "=="):
        return [guard]
    lits = [lit for lit, _ in terms]
    if all(c == 1 for _, c in terms):
        return _card(lits, cmp, bound, pool, opts, guard)
    if total >= PB_MAX:
        return _big(terms, cmp, bound, pool, opts, cond)
    weights = tuple(c for _, c in terms)

    def pindakaas(n: int) -> tuple[list[list[int]], int]:
        from pysat.pb import EncType as PbType
        from pysat.pb import PBEnc
        method = {"<=": PBEnc.leq, ">=": PBEnc.geq, "==": PBEnc.equals}[cmp]
        enc = method(lits=list(range(1, len(lits) + 1)), weights=list(weights), bound=bound, top_id=n,
                     encoding=getattr(PbType, opts.pb), conditionals=list(range(len(lits) + 1, n + 1)) or None)
        return enc.clauses, enc.nv

    return _renamed(("pb", weights, cmp, bound, len(cond), opts.pb), pindakaas, lits + list(cond), pool)


# Encodings by their shape: a sum's clauses depend on its weights, comparison and bound, not on
# its literals, so each shape is encoded once, over stand-in literals 1..n, and renamed for every
# sum of that shape (a weighted row sum of 8 terms: 34 us from pindakaas, a few to rename;
# "exactly 2 of 10": 15 us from PySAT). Kept per process, forgotten when there are too many.
_SHAPES: dict[tuple, tuple[list[list[int]], int]] = {}
SHAPES_KEPT = 4096


def _renamed(shape: tuple, encode, lits: list[int], pool: VarPool) -> list[list[int]]:
    """`encode(n)`'s clauses (over literals 1..n, its own variables above n) for `lits` in
    place of 1..n, and fresh variables from `pool` for its own: remembered by `shape`."""
    n = len(lits)
    known = _SHAPES.get(shape)
    if known is None:
        clauses, top = encode(n)
        if len(_SHAPES) >= SHAPES_KEPT:
            _SHAPES.clear()
        known = _SHAPES[shape] = (clauses, max(top, n) - n)
    clauses, fresh = known
    real = [0, *lits]
    shift = pool.top - n
    pool.top += fresh
    return [[(real[x] if x <= n else x + shift) if x > 0 else (-real[-x] if -x <= n else x - shift) for x in cl]
            for cl in clauses]


PB_MAX = 2**62  # pindakaas works in 64-bit integers: weights, bounds and their sums stay below this


def _big(terms: list[tuple[int, int]], cmp: str, bound: int, pool: VarPool, opts: LinearOptions,
         cond: tuple[int, ...]) -> list[list[int]]:
    """A sum too large for pindakaas, made smaller without changing its solutions: weights above
    the bound saturate (`>=`) or force their literal false (`<=`), then all divide by their gcd."""
    from math import gcd

    from ..errors import PuzzleError
    if cmp == "==":
        return (encode_linear(terms, "<=", bound, pool, opts, cond)
                + encode_linear(terms, ">=", bound, pool, opts, cond))
    guard = [-c for c in cond]
    out: list[list[int]] = []
    if cmp == ">=":
        terms = [(lit, min(c, bound)) for lit, c in terms]
    else:
        out = [guard + [-lit] for lit, c in terms if c > bound]
        terms = [(lit, c) for lit, c in terms if c <= bound]
    g = 0
    for _, c in terms:
        g = gcd(g, c)
    if g > 1:
        terms = [(lit, c // g) for lit, c in terms]
        bound = -(-bound // g) if cmp == ">=" else bound // g
    if sum(c for _, c in terms) >= PB_MAX:
        raise PuzzleError("a weighted sum needs numbers of 62 bits or more, more than the SAT encodings take",
                          help="use --backend z3, which handles any size")
    return out + encode_linear(terms, cmp, bound, pool, opts, cond)


def _card(lits: list[int], cmp: str, k: int, pool: VarPool, opts: LinearOptions,
          guard: list[int]) -> list[list[int]]:
    n = len(lits)
    if cmp == "==" and k == 0 or cmp == "<=" and k == 0:
        return [guard + [-x] for x in lits]
    if cmp in (">=", "==") and k == n:
        return [guard + [x] for x in lits]
    if cmp == "<=" and k == n - 1:
        return [guard + [-x for x in lits]]
    if cmp == ">=" and k == 1:
        return [guard + lits]
    if k == 1 and n <= opts.pairwise_up_to and cmp in ("<=", "=="):
        neg = [-a for a in lits]
        amo = ([guard + [a, b] for i, a in enumerate(neg) for b in neg[i + 1:]] if guard
               else [[a, b] for i, a in enumerate(neg) for b in neg[i + 1:]])
        return amo + [guard + lits] if cmp == "==" else amo
    if n <= opts.direct_up_to and opts.card == "auto":
        return _direct(lits, cmp, k, guard)
    name = opts.card
    if name == "auto":
        name = "seqcounter" if min(k, n - k) <= 8 else "kmtotalizer"

    def pysat_card(n: int) -> tuple[list[list[int]], int]:
        method = {"<=": CardEnc.atmost, ">=": CardEnc.atleast, "==": CardEnc.equals}[cmp]
        enc = method(lits=list(range(1, n + 1)), bound=k, top_id=n, encoding=CARD_ENCODINGS[name])
        return enc.clauses, enc.nv

    clauses = _renamed(("card", n, cmp, k, name), pysat_card, lits, pool)
    return [guard + cl for cl in clauses] if guard else clauses


def _direct(lits: list[int], cmp: str, k: int, guard: list[int]) -> list[list[int]]:
    """A count over a few literals (a cell's neighbours) without auxiliary variables: at most k
    forbids every k+1 of them together, at least k asks one of every n-k+1. Measured on
    touch-free line rules: half the variables of a sequential counter and faster proofs."""
    out: list[list[int]] = []
    if cmp in ("<=", "=="):
        out += [guard + [-x for x in sub] for sub in combinations(lits, k + 1)]
    if cmp in (">=", "=="):
        out += [guard + list(sub) for sub in combinations(lits, len(lits) - k + 1)]
    return out
