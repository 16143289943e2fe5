"""Z3 backend: the ground model as Z3 Booleans with native pseudo-Boolean constraints.

It keeps the model's structure (no CNF), so it is also an independent check of the
CNF encoder: both backends must agree on every instance.
"""

from __future__ import annotations

import time

import z3

from ..deadline import check_interrupt
from ..model import AndNode, Model
from .base import SEARCH_STATS

PB_MAX = 2**31 - 1  # larger coefficients or bounds go to integer arithmetic


class Z3Backend:
    def __init__(self, model: Model):
        self.name = "z3"
        self.model = model
        self.ctx = z3.Context()
        self.solver = z3.Solver(ctx=self.ctx)
        self.decision = model.decision_vars
        self._vars = {v: z3.Bool(model.var_names[v], self.ctx) for v in self.decision}
        self._vars.update((v, z3.Bool(f"aux#{v}", self.ctx)) for v in model.auxiliary)
        self._cache: dict[int, z3.BoolRef] = {}
        if model.false_rule is not None:  # the givens alone violate a rule
            self.solver.add(z3.BoolVal(False, self.ctx))
        for a in model.assertions:
            self.solver.add(self.term(a.formula))
        for cl in [*model.definitions, *(c for cs in model.completions.values() for c in cs)]:
            self.solver.add(z3.Or([self.term(x) for x in cl], self.ctx))
        self._last: z3.ModelRef | None = None

    def term(self, lit: int) -> z3.BoolRef:
        t = self._node(abs(lit))
        return t if lit > 0 else z3.Not(t, self.ctx)

    def _node(self, h: int) -> z3.BoolRef:
        if h in self._vars:
            return self._vars[h]
        t = self._cache.get(h)
        if t is not None:
            return t
        # iterative post-order so deep formulas do not hit Python's recursion limit
        stack = [h]
        while stack:
            x = stack[-1]
            if x in self._cache or x in self._vars:
                stack.pop()
                continue
            node = self.model.nodes[x]
            kids = [abs(c) for c in node.children] if isinstance(node, AndNode) else [abs(c) for c, _ in node.terms]
            todo = [k for k in kids if k not in self._cache and k not in self._vars]
            if todo:
                stack.extend(todo)
                continue
            stack.pop()
            self._cache[x] = self._build(node)
        return self._cache[h]

    def _lit(self, lit: int) -> z3.BoolRef:
        t = self._vars.get(abs(lit))
        if t is None:
            t = self._cache[abs(lit)]
        return t if lit > 0 else z3.Not(t, self.ctx)

    def _build(self, node) -> z3.BoolRef:
        if isinstance(node, AndNode):
            return z3.And(*[self._lit(c) for c in node.children], self.ctx)
        pairs = [(self._lit(h), c) for h, c in node.terms]
        if max(abs(node.bound), sum(abs(c) for _, c in pairs)) >= PB_MAX:  # Z3's PB terms are 32-bit
            total = z3.Sum([z3.If(x, z3.IntVal(c, self.ctx), z3.IntVal(0, self.ctx)) for x, c in pairs])
            k = z3.IntVal(node.bound, self.ctx)
            return total >= k if node.cmp == ">=" else total == k
        if node.cmp == ">=":
            return z3.PbGe(pairs, node.bound)
        return z3.PbEq(pairs, node.bound)

    def solve(self, assumptions: list[int] | None = None, deadline: float | None = None,
              conflicts: int | None = None) -> bool | None:  # no conflict budget here: Z3 keeps none
        check_interrupt()
        if deadline is not None:
            ms = max(int((deadline - time.perf_counter()) * 1000), 1)
            self.solver.set("timeout", ms)
        res = self.solver.check([self.term(a) for a in assumptions or []])
        if res == z3.sat:
            self._last = self.solver.model()
            return True
        self._last = None
        why = self.solver.reason_unknown() if res != z3.unsat else ""
        if ("cancel" in why or "interrupt" in why) and (deadline is None or time.perf_counter() < deadline):
            raise KeyboardInterrupt  # Ctrl-C (Z3 says "canceled"), not the time limit
        return False if res == z3.unsat else None

    def true_vars(self) -> set[int]:
        m = self._last
        if m is None:
            return set()
        # `m[t]` reads the model; `m.eval` would run Z3's evaluator, which takes Ctrl-C for itself
        # and drops it (a variable absent from the model is false, as model completion says)
        return {v for v, t in self._vars.items() if z3.is_true(m[t])}

    def add_clause(self, lits: list[int]) -> None:
        # the context is passed for the empty clause (a cut that no model escapes), which has no
        # term to take it from
        self.solver.add(z3.Or(*[self.term(x) for x in lits], self.ctx))

    def focus(self) -> None:
        pass

    def stats(self) -> dict[str, int]:
        """Sizes, then Z3's search counters under the names PySAT uses (`sat conflicts` → conflicts)."""
        out = {"variables": len(self._vars), "assertions": len(self.solver.assertions())}
        st = self.solver.statistics()
        for key in st.keys():
            name = key.removeprefix("sat ").removeprefix("smt ")
            if name in SEARCH_STATS:
                out[name] = out.get(name, 0) + int(st.get_key_value(key))
        return out

    def smtlib(self) -> str:
        return self.solver.to_smt2()

    def close(self) -> None:
        pass
