"""Which integer decision variables are used as numbers and which only as labels.

A variable that is only compared for equality (`pair[p] == k`, `pair[p] == pair[q]`,
`pair[p] != 0`) is a label: one-hot encoding gives each `== k` a literal of its own, which
propagates far better than the conjunction of bits a binary encoding needs. A variable that
is added, ordered or summed is a number, where the bits of a binary encoding keep sums and
comparisons small. The grounder picks each variable's encoding from this (docs §3).
"""

from __future__ import annotations

from .syntax import ast as A

LABEL_AGGREGATES = {"count", "exists", "forall", "all", "any", "exactly", "atmost", "atleast", "alldiff"}
LABEL_BUILTINS = {"known"}


def numeric_names(program: A.Program) -> set[str]:
    """Names read somewhere as a number (conservatively: any use that is not plainly a label)."""
    found: set[str] = set()

    def visit(x: object, numeric: bool) -> None:
        if isinstance(x, A.Name):
            if numeric:
                found.add(x.id)
        elif isinstance(x, A.Index):
            visit(x.base, numeric)
            for i in x.indices:
                visit(i, True)
        elif isinstance(x, A.Compare):
            side = x.op not in ("==", "!=")
            visit(x.left, side)
            visit(x.right, side)
        elif isinstance(x, A.Logic | A.Not):
            for c in A.children(x):
                visit(c, False)
        elif isinstance(x, A.Ite):
            visit(x.cond, False)
            visit(x.then, numeric)
            visit(x.other, numeric)
        elif isinstance(x, A.Aggregate):
            for b in x.bindings:
                visit(b.source, True)
                visit(b.where, False)
            visit(x.where, False)
            visit(x.body, x.kind not in LABEL_AGGREGATES)
            visit(x.bound, True)
        elif isinstance(x, A.Call):
            for a in x.args:
                visit(a, x.func not in LABEL_BUILTINS)
        elif isinstance(x, A.Expr):  # arithmetic, literals, ranges, tuples: numbers throughout
            for c in A.children(x):
                visit(c, True)
        elif isinstance(x, tuple | list):
            for c in x:
                visit(c, numeric)
        elif hasattr(x, "__dict__") and not isinstance(x, A.Value):  # a statement or a part of one
            for v in vars(x).values():
                visit(v, numeric)

    for st in program.statements:
        visit(st, not isinstance(st, A.Rule | A.Wlog))
    return found
