"""Sizes that the rules fix by themselves (`var x[1..1000000000]: bool`), checked against the
limits already by `puzzledsl check`, before any data is read or anything is built."""

from __future__ import annotations

from . import limits
from .syntax import ast as A


def literal_int(e: A.Expr) -> int | None:
    """The value of an integer expression made of literals only (None when it needs anything else)."""
    if isinstance(e, A.IntLit):
        return e.value
    if isinstance(e, A.Neg):
        v = literal_int(e.operand)
        return -v if v is not None else None
    if isinstance(e, A.Binary) and e.op in ("+", "-", "*"):
        a, b = literal_int(e.left), literal_int(e.right)
        if a is None or b is None or e.op == "*" and max(abs(a), abs(b)) > 2**64:
            return None
        return a + b if e.op == "+" else a - b if e.op == "-" else a * b
    return None


def literal_size(e: A.Expr) -> int | None:
    """The number of indices of a dimension written with literals: `N` or `lo..hi`."""
    if isinstance(e, A.Range):
        lo, hi = literal_int(e.lo), literal_int(e.hi)
        return max(0, hi - lo + 1) if lo is not None and hi is not None else None
    n = literal_int(e)
    return max(0, n) if n is not None else None


def check_var(st: A.Var) -> None:
    """Refuse a variable whose literal sizes already exceed the limits."""
    sizes = [literal_size(d) for d in st.dims]
    if all(s is not None for s in sizes):
        limits.grid_cells(sizes, f"`{st.name}`", st.span)  # type: ignore[arg-type]
    if st.type.kind == "range" and st.type.lo is not None and st.type.hi is not None:
        lo, hi = literal_int(st.type.lo), literal_int(st.type.hi)
        if lo is not None and hi is not None:
            limits.check("domain", hi - lo + 1, f"the domain of `{st.name}` has too many values", st.type.span)
