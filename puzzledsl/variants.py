"""A compiled puzzle with some options changed, grounded on top of the puzzle as compiled.

The uniqueness route (`uniqueness.py`) searches variants of a puzzle: the rules with a `wlog`
or `prefer` option set. Most rules do not read those options, and their ground form is the same
in every variant. So a variant starts from a copy of the puzzle's own ground model: the rules
that read a changed option lose their instances and are grounded again with the new values; the
others are kept as they are. (A 12x12 path puzzle, cells may stay empty: its strict variant
took 30 ms to compile afresh, 19 ms forked; BENCHMARKS.md, sixteenth session.)

This gives what a fresh compile gives where the dropped instances forced no value on their own:
rules grounded after them may have read a forced value as a constant, and that value need not be
forced in the variant. Where one did, or where an option reaches further than rules (a given's
default, a variable's domain), `variant` compiles afresh.
"""

from __future__ import annotations

import dataclasses
import time

from .compile import Compiled, compile_rules, no_gc, option_raw
from .data import Binder
from .ground import Grounder
from .planning.problem import mentions
from .syntax import ast as A


def variant(compiled: Compiled, options: dict[str, str]) -> Compiled:
    """`compiled` with the options in `options` set as given (the others as they were)."""
    origin = compiled.origin
    assert origin is not None
    merged = {**origin.options, **options}
    if origin.grounder is not None:
        with no_gc():
            out = _regrounded(compiled, origin.grounder, options, merged)
        if out is not None:
            return out
    return compile_rules(origin.rules, origin.raw, origin.strict, merged, origin.implied)


def _regrounded(compiled: Compiled, base: Grounder, options: dict[str, str],
                merged: dict[str, str]) -> Compiled | None:
    """The variant built on a copy of `base` (the grounder that compiled `compiled`, after its
    last rule); None where it cannot be (see the module's docstring)."""
    t0 = time.perf_counter()
    program, origin = compiled.program, compiled.origin
    assert origin is not None
    decls = {s.name: s for s in program.statements if isinstance(s, A.Given) and s.option}
    binder = Binder(program, base)  # reads the values only: `base` stays as it is
    values: dict[str, object] = {}
    for name, raw in option_raw(program, options).items():
        d = decls[name]
        if d.dims:
            return None
        value, old = binder.scalar(d, raw), base.givens.get(name)
        if type(value) is not type(old) or value != old:
            values[name] = value
    changed, memo = set(values), {}
    for st in program.statements:
        if isinstance(st, A.Given) and st.name not in changed and isinstance(st.default, A.Expr):
            if mentions(st.default, changed, base.defines, memo):
                return None
        if isinstance(st, A.Var) and any(mentions(e, changed, base.defines, memo) for e in _declaration(st)):
            return None
    again = {st for st in program.statements if isinstance(st, A.Rule) and (origin.implied or not st.implied)
             and mentions(st.body, changed, base.defines, memo)}
    dropped = {st.span for st in again}
    if base.model.false_rule is not None and base.model.false_rule.rule in dropped:  # it may hold now
        return None
    if any(a.rule in dropped and base.model.forced(a.formula) for a in base.model.assertions):
        return None
    g = base.fork()
    g.givens.update(values)
    m = g.model
    m.assertions = [a for a in m.assertions if a.rule not in dropped]
    m.graphs = [gc for gc in m.graphs if gc.rule not in dropped]
    skip = {st for st in program.statements if isinstance(st, A.Rule) and st not in again}
    grounded = g.ground_rules(skip)
    g.release()
    chosen = {s.name: g.givens.get(s.name) for s in program.statements if isinstance(s, A.Given) and s.option}
    return dataclasses.replace(
        compiled, model=grounded.model, givens=g.givens, options=chosen,
        timings={**compiled.timings, "data": 0.0, "ground": time.perf_counter() - t0},
        origin=dataclasses.replace(origin, options=merged, grounder=g),
        options_set=tuple(dict.fromkeys((*compiled.options_set, *options))))


def _declaration(st: A.Var) -> list[A.Expr]:
    """The expressions a variable's declaration reads (its dimensions, domain and boundary)."""
    out = [*st.dims]
    for part in (st.type.lo, st.type.hi, st.boundary.default if st.boundary is not None else None):
        if isinstance(part, A.Expr):
            out.append(part)
    return out

