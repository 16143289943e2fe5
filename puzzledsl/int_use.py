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
LABEL_BUILTINS = {"known", "region", "size"}  # a region joins cells of equal value


def numeric_names(program: A.Program) -> set[str]:
    """Names read somewhere as a number (conservatively: any use that is not plainly a label).
    A walk with its own stack: a sum of 1,500 terms nests deeper than Python's recursion."""
    found: set[str] = set()
    todo: list[tuple[object, bool]] = [(st, not isinstance(st, A.Rule | A.Wlog)) for st in program.statements]
    while todo:
        x, numeric = todo.pop()
        if isinstance(x, A.Name):
            if numeric:
                found.add(x.id)
        elif isinstance(x, A.Index):
            todo.append((x.base, numeric))
            todo += [(i, True) for i in x.indices]
        elif isinstance(x, A.Compare):
            side = x.op not in ("==", "!=")
            todo += [(x.left, side), (x.right, side)]
        elif isinstance(x, A.Logic | A.Not):
            todo += [(c, False) for c in A.children(x)]
        elif isinstance(x, A.Ite):
            todo += [(x.cond, False), (x.then, numeric), (x.other, numeric)]
        elif isinstance(x, A.Aggregate):
            for b in x.bindings:
                todo += [(b.source, True), (b.while_, False), (b.where, False)]
            todo += [(x.where, False), (x.body, x.kind not in LABEL_AGGREGATES), (x.bound, True)]
        elif isinstance(x, A.Call):
            todo += [(a, x.func not in LABEL_BUILTINS) for a in x.args]
        elif isinstance(x, A.Expr):  # arithmetic, literals, ranges, tuples: numbers throughout
            todo += [(c, True) for c in A.children(x)]
        elif isinstance(x, tuple | list):
            todo += [(c, numeric) for c in x]
        elif hasattr(x, "__dict__") and not isinstance(x, A.Value):  # a statement or a part of one
            todo += [(v, numeric) for v in vars(x).values()]
    return found
