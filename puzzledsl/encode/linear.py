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
    from pysat.pb import EncType as PbType
    from pysat.pb import PBEnc

    weights = [c for _, c in terms]
    method = {"<=": PBEnc.leq, ">=": PBEnc.geq, "==": PBEnc.equals}[cmp]
    enc = method(lits=lits, weights=weights, bound=bound, top_id=pool.top,
                 encoding=getattr(PbType, opts.pb), conditionals=list(cond) or None)
    pool.top = max(pool.top, enc.nv)
    return enc.clauses


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
        amo = [guard + [-a, -b] for i, a in enumerate(lits) for b in lits[i + 1:]]
        return amo + [guard + lits] if cmp == "==" else amo
    if n <= opts.direct_up_to and opts.card == "auto":
        return _direct(lits, cmp, k, guard)
    method = {"<=": CardEnc.atmost, ">=": CardEnc.atleast, "==": CardEnc.equals}[cmp]
    name = opts.card
    if name == "auto":
        name = "seqcounter" if min(k, n - k) <= 8 else "kmtotalizer"
    enc = method(lits=lits, bound=k, top_id=pool.top, encoding=CARD_ENCODINGS[name])
    pool.top = max(pool.top, enc.nv)
    return [guard + cl for cl in enc.clauses] if guard else enc.clauses


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
