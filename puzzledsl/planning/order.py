"""Plans whose moves commute: their order is free, so the search fixes one.

When no action reads a cell that some action writes (a flip `x := not x` reads only its own
cell, and flips of one cell by two actions commute), every plan gives the same states in
any order of its moves: a press that toggles a lamp and its neighbours toggles them whatever
was pressed before. A sequential search then explores every order of every set of moves (15!
orders of a 15-press plan) before it can say that a horizon has no plan. Asking for the moves
in ascending action order keeps one plan of each set and loses none.

When moreover every action only flips cells, or only sets cells to constants, a shortest plan
never repeats one (two flips cancel, a second setting changes nothing): the order can be
strict. Neither holds once a `rule` reads the states between moves (the order then decides
which states occur), nor for a plan of exactly N moves, nor for costs that read the state.
"""

from __future__ import annotations

from ..model import Formula, Model
from .problem import PlanProblem, atoms_read, is_flip


def commute_order(p: PlanProblem) -> str | None:
    """"strict" (ascending action index, no repeats), "sorted" (ascending, repeats allowed) or
    None (the order of the moves matters, as far as this analysis can tell)."""
    if p.state_rules or p.horizon.kind == "exact" or len(p.actions) < 2:
        return None
    m, atom_of = p.model, p.atom_of
    written: dict[int, set[int]] = {}  # atom -> actions that set it (not a flip)
    flipped: dict[int, set[int]] = {}  # atom -> actions that flip it
    read: dict[int, set[int]] = {}  # atom -> actions whose condition, cost or effect values read it
    kinds: set[str] = set()
    for act in p.actions:
        reads = atoms_read(m, act.pre, atom_of)
        for f in act.cost:
            reads |= atoms_read(m, f, atom_of)
        flips = {h for h, v in act.effects.items() if is_flip(h, v)}
        for h, v in act.effects.items():
            if h not in flips:
                reads |= atoms_read(m, v, atom_of)
                written.setdefault(h, set()).add(act.index)
        for h in flips:
            flipped.setdefault(h, set()).add(act.index)
        for h in reads:
            read.setdefault(h, set()).add(act.index)
        kinds.add("flip" if len(flips) == len(act.effects) else "set" if not flips else "mixed")
    for h in set(written) | set(flipped):
        if read.get(h) or len(written.get(h, ())) > 1 or (h in written and h in flipped):
            return None
    return "strict" if "mixed" not in kinds else "sorted"


def order_clauses(m: Model, prev: dict[int, int], now: dict[int, int], strict: bool) -> list[Formula]:
    """An action at a step implies one of a lower index (or the same, unless strict) at the step
    before: the moves come in ascending order, and empty steps only at the end."""
    out: list[Formula] = []
    below: Formula = False  # some action of the step before with an index less than j's
    earlier = sorted(prev)
    k = 0
    for j in sorted(now):
        while k < len(earlier) and (earlier[k] < j or (not strict and earlier[k] == j)):
            below = m.or_([below, prev[earlier[k]]])
            k += 1
        out.append(m.implies(now[j], below))
    return out
