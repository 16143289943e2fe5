"""Static checks that need no data: names, arity, kinds (condition / number / symbol),
and what must be known before solving (filters, ranges, sizes, indices).

Grounding re-checks everything with the real values; this pass exists so that
`puzzledsl check` finds the mistakes a rule author makes before any data exists. This module
walks the statements; `kinds.py` answers what each expression is, `check_show.py` checks what a
`show` draws.
"""

from __future__ import annotations

import re

from .check_show import check_show
from .errors import PuzzleError, Span, did_you_mean
from .ground_common import unknown_name
from .kinds import ANY, BOOL, INT, SET, WORDS, Declared, Kinds, type_kind
from .static_size import check_var
from .syntax import ast as A
from .values import Symbol

GRAPH_CALLS = {"connected", "acyclic"}


class Checker:
    """Statement by statement, after every global name is collected (a rule may use a name
    declared below it)."""

    def __init__(self, program: A.Program):
        self.program = program
        self.names = Declared()
        self.givens, self.vars = self.names.givens, self.names.vars
        self.defines, self.symbols = self.names.defines, self.names.symbols
        self.kinds = Kinds(self.names)

    # ---------------------------------------------------------------- entry
    def run(self) -> dict[str, Symbol]:
        self.collect()
        # views (`show V over X`); a rule that reads one checks it as any define (`Kinds.define_kind`)
        self.views = {st.name for st in self.program.statements if isinstance(st, A.Show) and st.over is not None}
        self.view_kinds = Kinds(self.names, solved=True)  # their defines: the decisions read as solved
        for st in self.program.statements:
            self.statement(st)
        return self.symbols

    def collect(self) -> None:
        seen: dict[str, Span] = {}
        for st in self.program.statements:
            if isinstance(st, A.Given | A.Var | A.Define):
                if st.name in seen:
                    raise PuzzleError(f"`{st.name}` is declared twice", st.span, f"first declared at {seen[st.name]}")
                seen[st.name] = st.span
                table = {A.Given: self.givens, A.Var: self.vars, A.Define: self.defines}[type(st)]
                table[st.name] = st  # type: ignore[index]
            if isinstance(st, A.SymbolDecl):
                for name, _sp in st.names:
                    self.symbols.setdefault(name, Symbol(name))
            if isinstance(st, A.Given) and st.legend:
                for _, v in st.legend:
                    if isinstance(v, A.SymValue):
                        self.symbols.setdefault(v.name, Symbol(v.name))
        assigned: dict[str, Span] = {}
        for st in self.program.statements:
            if isinstance(st, A.Assign):
                if st.name in assigned:  # the last would win, silently
                    raise PuzzleError(f"`{st.name}` is given twice", st.span,
                                      f"first at {assigned[st.name]}; keep one of them")
                assigned[st.name] = st.span
        for name, sp in seen.items():
            if name in self.symbols:
                raise PuzzleError(f"`{name}` is both a declared name and a legend symbol", sp,
                                  f"a symbol and a given, variable or define share one set of names: rename "
                                  f"one of them (`var is_{name}`, or the symbol `{name}_cell`)")

    def statement(self, st: A.Stmt) -> None:
        if isinstance(st, A.Given | A.Var):
            for d in st.dims:
                self.kinds.static(d, set(), "a size")
            if st.type.kind == "range":
                self.kinds.static(st.type.lo, set(), "a domain bound")
                self.kinds.static(st.type.hi, set(), "a domain bound")
            if isinstance(st, A.Var):
                check_var(st)
            if st.type.kind == "list":
                list_type(st)
            if isinstance(st, A.Given) and st.legend:
                legend_kinds(st)
            if isinstance(st, A.Var) and st.encoding is not None and st.type.kind != "range":
                raise PuzzleError(f"`{st.encoding}` is the encoding of an integer variable, not of `{st.type.kind}`",
                                  st.type.span, "leave it out, or declare a range such as `1..9`")
            if isinstance(st, A.Var) and st.state and st.type.kind not in ("bool", "range"):
                raise PuzzleError(f"a state variable is `bool` or a range like `1..9`, not `{st.type.kind}`",
                                  st.type.span)
            if isinstance(st, A.Var) and st.type.kind not in ("bool", "range", "edges"):
                raise PuzzleError(f"a decision variable is `bool`, `edges` or a range like `1..9`, "
                                  f"not `{st.type.kind}`", st.type.span,
                                  "a number the solver chooses needs its values: `var d[1..R, 1..C]: 0..9`"
                                  if st.type.kind == "int" else None)
            if isinstance(st, A.Var) and st.type.kind == "edges" and not st.dims:
                raise PuzzleError("`edges` join neighbouring cells of a grid: give the grid's dimensions, "
                                  "e.g. `var link[1..R, 1..C]: edges`", st.type.span)
            if isinstance(st, A.Var) and (st.type.kind == "edges" or st.boundary is not None) and any(
                    not isinstance(d, A.Range) and self.kinds.kind(d, set()) == SET for d in st.dims):
                raise PuzzleError("a grid indexed by a list of values has no edges and no boundary", st.span,
                                  "declare it over ranges (`[1..R, 1..C]`), or drop the `edges`/`outside`/`wrap`; "
                                  "for a graph of other nodes, list its edges: `acyclic((p, q) in EDGES: …)`")
            if isinstance(st, A.Given) and st.type.kind == "edges":
                raise PuzzleError("`edges` is a type of decision variables (`var`), not of givens", st.type.span)
            if isinstance(st, A.Given) and st.type.kind == "range":
                raise PuzzleError("a given is `int`, `bool` or `sym` (add `?` to allow unknown values)",
                                  st.type.span)
            if isinstance(st, A.Given) and st.values is not None:
                if st.type.kind != "int":
                    raise PuzzleError("`in LO..HI` gives the values of an `int` given", st.values[0].span,
                                      "a `bool` or `sym` given's values are known from its type and legend")
                for bound in st.values:
                    self.kinds.static(bound, set(), "a bound of the values")
            if isinstance(st, A.Given) and isinstance(st.default, A.Expr):  # computed from other givens
                self.kinds.static(st.default, set(), "a given's default")
                if not st.dims:
                    self.kinds.expect(st.default, set(), type_kind(st.type), f"the default of `{st.name}`")
            if st.boundary is not None and st.boundary.default is not None:
                self.kinds.kind(st.boundary.default, set())
        elif isinstance(st, A.Define):
            if st.name in self.views:  # drawn after solving: the decisions are known values there
                self.view_kinds.define_body(st)
            else:
                self.kinds.define_body(st)
        elif isinstance(st, A.Rule):
            self.graph_positions(st.body, True)
            k = self.kinds.kind(st.body, set())
            if k not in (BOOL, ANY):
                raise PuzzleError(f"a rule must be a condition (true/false), but this is {WORDS[k]}", st.body.span,
                                  "compare it with something, e.g. `... == 3`")
        elif isinstance(st, A.Show):
            check_show(st, self.names)
        elif isinstance(st, A.Action):
            self.action(st)
        elif isinstance(st, A.Init | A.Goal):
            word = "init" if isinstance(st, A.Init) else "goal"
            self.need_states(st, word)
            self.kinds.expect(st.body, set(), BOOL, f"`{word}`")
        elif isinstance(st, A.Horizon):
            self.need_states(st, "horizon")
            for e in (st.exact, st.at_most):
                if e is not None:
                    self.kinds.static(e, set(), "a horizon")
                    self.kinds.expect(e, set(), INT, "a horizon")
        elif isinstance(st, A.Wlog | A.Prefer):
            self.wlog(st)
        elif isinstance(st, A.Answer):
            for name, sp in st.names:
                decl = self.vars.get(name)
                if decl is None or decl.state:
                    if name in self.givens or name in self.defines or decl is not None:
                        raise PuzzleError(f"`answer` names decision variables (`var`); `{name}` is not one", sp,
                                          f"to compare solutions on what `{name}` computes, make it a variable: "
                                          f"`var` with a rule that it equals `{name}`, and `answer` that (docs §14)"
                                          if name in self.defines else None)
                    raise unknown_name(name, sp, [n for n, v in self.vars.items() if not v.state])
        elif isinstance(st, A.Format):
            from .importers import IMPORTERS
            for name, sp in st.names:
                if name not in IMPORTERS:  # a name of a format, not of the rules: say so, and where they are
                    raise PuzzleError(f"unknown format `{name}`", sp, did_you_mean(name, list(IMPORTERS)) or
                                      "`puzzledsl formats` lists the importers; data in puzzledsl's own form "
                                      "(`NAME = VALUE` lines, or JSON) needs no `format` line")

    def wlog(self, st: A.Wlog | A.Prefer) -> None:
        """`wlog` and `prefer` name Boolean options; `wlog` keeps an integer or Boolean variable."""
        word = "wlog" if isinstance(st, A.Wlog) else "prefer"
        for name, sp in st.options:
            opt = self.givens.get(name)
            if opt is None or not opt.option:
                options = [g for g, d in self.givens.items() if d.option]
                raise unknown_name(name, sp, options) if opt is None else PuzzleError(
                    f"`{word}` names options, and `{name}` is a given", sp, "declare it with `option`")
            if opt.type.kind != "bool":
                raise PuzzleError(f"`{word}` names Boolean options; `{name}` is not one", sp)
        if st.unless is not None:
            self.kinds.static(st.unless, set(), "the condition after `unless`")
            self.kinds.expect(st.unless, set(), BOOL, "`unless`")
        if isinstance(st, A.Wlog):
            name, sp = st.keep
            var = self.vars.get(name)
            if var is None or var.state or var.type.kind not in ("bool", "range"):
                raise PuzzleError(f"`keep` names a decision variable of type bool or a range, not `{name}`", sp,
                                  "e.g. `keep pair or 0`, where `var pair[1..R, 1..C]: 0..K`")

    def need_states(self, st: A.Stmt, word: str) -> None:
        if not any(v.state for v in self.vars.values()):
            raise PuzzleError(f"`{word}` belongs to a puzzle played over time, but no `state` is declared", st.span,
                              "declare what changes from step to step, e.g. `state at[H, W]: bool`")

    def action(self, st: A.Action) -> None:
        self.need_states(st, "action")
        scope: set[str] = set()
        for b in st.bindings:
            self.kinds.static(b.source, scope, "the set to range over")
            scope |= set(b.names)
            self.kinds.take_while(b.while_, scope, None)
            self.kinds.filter(b.where, scope)
        if st.where is not None:
            self.kinds.static(st.where, scope, "the `where` of an action")
            self.kinds.expect(st.where, scope, BOOL, "`where`")
        if st.pre is not None:
            self.kinds.expect(st.pre, scope, BOOL, "the condition of an action")
        if st.cost is not None:
            self.kinds.expect(st.cost, scope, INT, "the cost of an action")
        self.effects(st.effects, scope)
        self.action_text(st, [n for b in st.bindings for n in b.names])

    def action_text(self, st: A.Action, names: list[str]) -> None:
        """Each `{…}` of a move's text names one of its bindings; anything else was printed as
        written (a new user's `"{k + 1}"` came out as `{k + 1}` in every plan)."""
        for mt in re.finditer(r"\{([^{}]*)\}", st.text or ""):
            if mt.group(1) in names:
                continue
            sp = st.text_span
            at = None if sp is None else Span(sp.path, sp.line, sp.column + 1 + mt.start(), sp.line,
                                               sp.column + 1 + mt.end())
            bound = ", ".join(f"`{{{n}}}`" for n in names) or "none: the action has no parameters"
            raise PuzzleError(f"`{mt.group(0)}` in the text of `{st.name}` is not one of its bindings", at,
                              f"a move's text can show its bindings ({bound}); for a computed value, bind it "
                              "(`n in [b - a]` after the others) and write `{n}`")

    def effects(self, effects: tuple[A.Effect, ...], scope: set[str]) -> None:
        for ef in effects:
            if isinstance(ef, A.ForallEffect):
                inner = set(scope)
                for b in ef.bindings:
                    self.kinds.static(b.source, inner, "the set to range over")
                    inner |= set(b.names)
                    self.kinds.take_while(b.while_, inner, None)
                    self.kinds.filter(b.where, inner)
                if ef.where is not None:
                    self.kinds.static(ef.where, inner, "a `where` filter")
                self.effects(ef.body, inner)
                continue
            assert isinstance(ef, A.AssignEffect)
            decl = self.vars.get(ef.name)
            if decl is None or not decl.state:
                if ef.name in self.vars or ef.name in self.givens or ef.name in self.defines:
                    raise PuzzleError(f"an action changes `state` variables; `{ef.name}` is not one", ef.name_span)
                raise unknown_name(ef.name, ef.name_span, [n for n, v in self.vars.items() if v.state])
            if len(ef.indices) > len(decl.dims):  # fewer: a tuple index is spread
                raise PuzzleError(f"`{ef.name}` has {len(decl.dims)} index(es), but {len(ef.indices)} were given",
                                  ef.span)
            for x in ef.indices:
                self.kinds.static(x, scope, "an index")
            self.kinds.expect(ef.value, scope, type_kind(decl.type), f"a value of `{ef.name}`")

    def graph_positions(self, e: A.Expr, top: bool, guarded: bool = False) -> None:
        """`connected`/`acyclic` hold for a whole graph: only as a rule, or an item of a rule's
        `forall`/`and`, or after `OPTION ->`; never negated, under `or`, inside another expression,
        or after a condition on decisions (`guarded`). The size of a region of a decision grid
        likewise, compared with a number (also after `COND ->`)."""
        if isinstance(e, A.Compare) and self.decision_size(e.left) and self.decision_size(e.right):
            raise PuzzleError("compare the size of a region with a number, not with another region's size", e.span,
                              "give each cell its region's size as a variable and compare those: "
                              "`var sz[1..R, 1..C]: 0..R * C` with `rule forall p in cells(g): g[p] -> "
                              "size(region(g, p)) == sz[p]`, then `sz[p] != sz[q]`")
        if isinstance(e, A.Compare) and top and (self.decision_size(e.left) or self.decision_size(e.right)):
            for side in (e.left, e.right):
                for c in (side.args[0].args if self.decision_size(side) else (side,)):  # type: ignore[attr-defined]
                    self.graph_positions(c, False)
            return
        if self.decision_size(e) or self.decision_region(e):
            what = "size of a region" if self.decision_size(e) else "region"
            raise PuzzleError(f"the {what} of a decision grid is known only once solved", e.span,
                              "compare its size at a rule's top (or after `CONDITION ->`): "
                              "`forall p in cells(g): size(region(g, p)) == ...`")
        if isinstance(e, A.Aggregate) and e.kind in GRAPH_CALLS or isinstance(e, A.Call) and e.func in GRAPH_CALLS:
            word = e.kind if isinstance(e, A.Aggregate) else e.func
            if top and guarded:
                raise PuzzleError(f"`{word}` cannot depend on a decision", e.span,
                                  "it holds for the whole graph or not at all: only an option or a given may come "
                                  f"before `->` (`option -> {word}(…)`); state the graph so that it holds always, "
                                  "e.g. over the cells the decision selects")
            if not top:
                raise PuzzleError(f"`{word}` must be a rule of its own", e.span,
                                  "write it as a rule, or inside a rule's `forall` or `and`; it cannot be negated, "
                                  "combined with `or`, or used inside another expression")
            top = False
        if isinstance(e, A.Aggregate) and e.kind == "all":
            self.graph_positions(e.body, top, guarded)
            for c in [x for b in e.bindings for x in (b.source, b.while_, b.where) if x is not None] + (
                    [e.where] if e.where is not None else []):
                self.graph_positions(c, False)
            return
        if isinstance(e, A.Logic) and e.op == "and":
            for c in e.items:
                self.graph_positions(c, top, guarded)
            return
        if isinstance(e, A.Logic) and e.op == "implies":
            self.graph_positions(e.items[0], False)
            self.graph_positions(e.items[1], top, guarded or self.kinds.dynamic(e.items[0], set()))
            return
        for c in A.children(e):
            self.graph_positions(c, False)

    def decision_region(self, e: A.Expr) -> bool:
        """`region(g, ...)` of a decision grid `g` (the built-in, not a define of that name)."""
        return (isinstance(e, A.Call) and e.func == "region" and e.func not in self.defines and len(e.args) == 2
                and isinstance(e.args[0], A.Name) and e.args[0].id in self.vars)

    def decision_size(self, e: A.Expr) -> bool:
        """`size(region(g, ...))` of a decision grid `g`."""
        return (isinstance(e, A.Call) and e.func == "size" and e.func not in self.defines and len(e.args) == 1
                and self.decision_region(e.args[0]))

def list_type(st: A.Given | A.Var) -> None:
    """Lists are the values of given cells (`given clue[…]: [int?]?`), of `bool`, `int` or `sym`."""
    if isinstance(st, A.Var):
        raise PuzzleError("a decision variable cannot hold a list: lists are the values of givens",
                          st.type.span, "declare a given, `given NAME[…]: [int]`, or one variable per list item")
    if st.option:
        raise PuzzleError("an option is `bool`, `int` or `sym`, not a list", st.type.span)
    item = st.type.item
    if item is None or item.kind not in ("bool", "int", "sym"):
        raise PuzzleError("a list's items are `int`, `bool` or `sym` (with `?` for unknown items)",
                          item.span if item is not None else st.type.span)


def legend_kinds(st: A.Given) -> None:
    """A legend value of another kind than the given's (`bool?` with `"x": dark`) would be
    refused at the first data cell that uses it, and blamed on the data."""
    kind = st.type.item.kind if st.type.kind == "list" and st.type.item is not None else st.type.kind
    ok = {"int": A.IntValue, "bool": A.BoolValue, "sym": A.SymValue}.get(kind)
    for token, v in st.legend or () if ok is not None else ():
        for x in v.items if isinstance(v, A.ListValue) and st.type.kind == "list" else (v,):
            if isinstance(x, ok | A.UnknownValue):
                continue
            what = {A.IntValue: "a number", A.BoolValue: "a truth value", A.SymValue: "the symbol",
                    A.ListValue: "a list"}.get(type(x), "a value")
            shown = f" `{x.name}`" if isinstance(x, A.SymValue) else ""
            raise PuzzleError(f"the legend gives `\"{token}\"` {what}{shown}, but `{st.name}` holds {kind} "
                              "values", x.span,
                              "declare the given `sym?` to read names such as `dark`" if isinstance(x, A.SymValue)
                              else f"give each token a {kind} value (or `?`)")


def check_program(program: A.Program) -> dict[str, Symbol]:
    """Check a parsed program; return the legend symbols it declares."""
    return Checker(program).run()
