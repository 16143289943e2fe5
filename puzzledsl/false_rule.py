"""Why a rule that grounded to false cannot hold, in words that fit what the rule reads.

"Cannot hold for these givens" is only true of a rule whose truth depends on the data: one
that reads a given, or a variable whose cells or range the givens set. A rule that reads
neither is false whatever the data (`rule 1 == 2`, or a count over fixed cells of a
variable that exceeds them), and saying "for these givens" would send the user to the data.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .model import Assertion
from .planning.problem import mentions
from .syntax import ast as A
from .values import binding_text

if TYPE_CHECKING:
    from .compile import Compiled


def data_names(program: A.Program, defines: dict[str, A.Define]) -> set[str]:
    """The givens, and the variables whose declaration reads one (`var x[1..N]`, `var v: 1..M`)."""
    names = {s.name for s in program.statements if isinstance(s, A.Given)}
    givens = set(names)
    memo: dict[str, bool] = {}
    for s in program.statements:
        if isinstance(s, A.Var):
            parts = [*s.dims, s.type.lo, s.type.hi, s.boundary.default if s.boundary else None]
            if any(p is not None and mentions(p, givens, defines, memo) for p in parts):
                names.add(s.name)
    return names


def cannot_hold(program: A.Program, rule: Assertion) -> tuple[str, str]:
    """What makes the rule false, as the verb phrase after "rule “r” at P" and a note to put
    after the loop values where it fails ("" when there is nothing to add)."""
    statement = next((s for s in program.statements if isinstance(s, A.Rule) and s.span == rule.rule), None)
    if statement is None:  # not a rule statement's instance (a declaration's own constraint)
        return "cannot hold for these givens", ""
    defines = {s.name: s for s in program.statements if isinstance(s, A.Define)}
    if mentions(statement.body, data_names(program, defines), defines, {}):
        return "cannot hold for these givens", ""
    variables = {s.name for s in program.statements if isinstance(s, A.Var)}
    if mentions(statement.body, variables, defines, {}):
        return "cannot hold, whatever its variables' values", ": it reads no given, so no data can change that"
    return "never holds", ": it reads no given and no decision variable, so no data can change that"


def false_rule_text(compiled: Compiled) -> str | None:
    """`rule “r” at P cannot hold for these givens (where q = (1, 1))`: a rule the givens alone
    make false, so that there is no solution (None when there is none such)."""
    fr = compiled.model.false_rule
    if fr is None:
        return None
    what = f"rule “{fr.label}”" if fr.label else "a rule"
    at = binding_text(fr.binding or ())
    why, note = cannot_hold(compiled.program, fr)
    return f"{what} at {fr.place} {why}" + (f" (where {at})" if at else "") + note
