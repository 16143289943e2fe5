"""Static checks that need no data: names, arity, kinds (condition / number / symbol),
and what must be known before solving (filters, ranges, sizes, indices).

Grounding re-checks everything with the real values; this pass exists so that
`puzzledsl check` finds the mistakes a rule author makes before any data exists.
"""

from __future__ import annotations

from .errors import PuzzleError, Span
from .ground import ABS_HELP, ABS_OF_DECISION, BUILTIN_ARITY, BUILTINS, DIRECTIONS, GUARDED_KINDS, unknown_name
from .static_size import check_var
from .syntax import ast as A
from .values import Symbol

GRAPH_CALLS = {"connected", "acyclic"}
SIDES = ("right", "left", "top", "bottom")
VALUES_BINDING = ("$v",)  # what the parser binds for `max(a, b)`, `alldiff(x, y, z)`
SHAPE_BUILTINS = {"len", "cells", "rows", "cols", "dim", "inside", "adjacent", "neighbours", "ray"}
INT, BOOL, SYM, SET, TUPLE, ANY = "number", "condition", "symbol", "set", "tuple", "any"
_WORDS = {INT: "a number", BOOL: "a condition (true/false)", SYM: "a symbol", SET: "a set or list",
          TUPLE: "a tuple"}


class Checker:
    def __init__(self, program: A.Program):
        self.program = program
        self.givens: dict[str, A.Given] = {}
        self.vars: dict[str, A.Var] = {}
        self.defines: dict[str, A.Define] = {}
        self.symbols: dict[str, Symbol] = {}
        self._kind_cache: dict[str, str] = {}
        self._dynamic: dict[str, bool] = {}
        self._in_progress: set[str] = set()

    # ---------------------------------------------------------------- entry
    def run(self) -> dict[str, Symbol]:
        self.collect()
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
        for name, sp in seen.items():
            if name in self.symbols:
                raise PuzzleError(f"`{name}` is both a declared name and a legend symbol", sp)

    def statement(self, st: A.Stmt) -> None:
        if isinstance(st, A.Given | A.Var):
            for d in st.dims:
                self.static(d, set(), "a size")
            if st.type.kind == "range":
                self.static(st.type.lo, set(), "a domain bound")
                self.static(st.type.hi, set(), "a domain bound")
            if isinstance(st, A.Var):
                check_var(st)
            if st.type.kind == "list":
                list_type(st)
            if isinstance(st, A.Var) and st.encoding is not None and st.type.kind != "range":
                raise PuzzleError(f"`{st.encoding}` is the encoding of an integer variable, not of `{st.type.kind}`",
                                  st.type.span, "leave it out, or declare a range such as `1..9`")
            if isinstance(st, A.Var) and st.state and st.type.kind not in ("bool", "range"):
                raise PuzzleError(f"a state variable is `bool` or a range like `1..9`, not `{st.type.kind}`",
                                  st.type.span)
            if isinstance(st, A.Var) and st.type.kind not in ("bool", "range", "edges"):
                raise PuzzleError(f"a decision variable is `bool`, `edges` or a range like `1..9`, "
                                  f"not `{st.type.kind}`", st.type.span)
            if isinstance(st, A.Var) and st.type.kind == "edges" and not st.dims:
                raise PuzzleError("`edges` join neighbouring cells of a grid: give the grid's dimensions, "
                                  "e.g. `var link[1..R, 1..C]: edges`", st.type.span)
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
                    self.static(bound, set(), "a bound of the values")
            if isinstance(st, A.Given) and isinstance(st.default, A.Expr):  # computed from other givens
                self.static(st.default, set(), "a given's default")
                if not st.dims:
                    self.expect(st.default, set(), _type_kind(st.type), f"the default of `{st.name}`")
            if st.boundary is not None and st.boundary.default is not None:
                self.kind(st.boundary.default, set())
        elif isinstance(st, A.Define):
            self.define_body(st)
        elif isinstance(st, A.Rule):
            self.graph_positions(st.body, True)
            k = self.kind(st.body, set())
            if k not in (BOOL, ANY):
                raise PuzzleError(f"a rule must be a condition (true/false), but this is {_WORDS[k]}", st.body.span,
                                  "compare it with something, e.g. `... == 3`")
        elif isinstance(st, A.Show):
            self.show(st)
        elif isinstance(st, A.Action):
            self.action(st)
        elif isinstance(st, A.Init | A.Goal):
            word = "init" if isinstance(st, A.Init) else "goal"
            self.need_states(st, word)
            self.expect(st.body, set(), BOOL, f"`{word}`")
        elif isinstance(st, A.Horizon):
            self.need_states(st, "horizon")
            for e in (st.exact, st.at_most):
                if e is not None:
                    self.static(e, set(), "a horizon")
                    self.expect(e, set(), INT, "a horizon")
        elif isinstance(st, A.Wlog | A.Prefer):
            self.wlog(st)
        elif isinstance(st, A.Answer):
            for name, sp in st.names:
                decl = self.vars.get(name)
                if decl is None or decl.state:
                    if name in self.givens or name in self.defines or decl is not None:
                        raise PuzzleError(f"`answer` names decision variables (`var`); `{name}` is not one", sp)
                    raise unknown_name(name, sp, [n for n, v in self.vars.items() if not v.state])
        elif isinstance(st, A.Format):
            from .importers import IMPORTERS
            for name, sp in st.names:
                if name not in IMPORTERS:
                    raise unknown_name(name, sp, list(IMPORTERS))

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
        if isinstance(st, A.Wlog):
            if st.unless is not None:
                self.static(st.unless, set(), "the condition after `unless`")
                self.expect(st.unless, set(), BOOL, "`unless`")
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
            self.static(b.source, scope, "the set to range over")
            scope |= set(b.names)
            self.take_while(b.while_, scope, None)
            self.filter(b.where, scope)
        if st.where is not None:
            self.static(st.where, scope, "the `where` of an action")
            self.expect(st.where, scope, BOOL, "`where`")
        if st.pre is not None:
            self.expect(st.pre, scope, BOOL, "the condition of an action")
        if st.cost is not None:
            self.expect(st.cost, scope, INT, "the cost of an action")
        self.effects(st.effects, scope)

    def effects(self, effects: tuple[A.Effect, ...], scope: set[str]) -> None:
        for ef in effects:
            if isinstance(ef, A.ForallEffect):
                inner = set(scope)
                for b in ef.bindings:
                    self.static(b.source, inner, "the set to range over")
                    inner |= set(b.names)
                    self.take_while(b.while_, inner, None)
                    self.filter(b.where, inner)
                if ef.where is not None:
                    self.static(ef.where, inner, "a `where` filter")
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
                self.static(x, scope, "an index")
            self.expect(ef.value, scope, _type_kind(decl.type), f"a value of `{ef.name}`")

    def show(self, st: A.Show) -> None:
        if st.over is not None:
            shape = self.vars.get(st.over) or self.givens.get(st.over)
            if shape is None or not shape.dims:
                raise unknown_name(st.over, st.span, [n for n, x in {**self.givens, **self.vars}.items() if x.dims])
            d = self.defines.get(st.name)
            if d is None:
                raise PuzzleError(f"`show {st.name} over {st.over}` needs a `define {st.name}(...)`", st.span)
            dims = len(shape.dims)
            if len(d.params or ()) != dims:
                raise PuzzleError(f"`{st.name}` must take {dims} parameter(s), one per index of `{st.over}`",
                                  st.span)
        elif st.name not in self.vars:
            if st.name in self.givens or st.name in self.defines:
                raise PuzzleError(f"`show` draws decision variables; `{st.name}` is not one", st.span)
            raise unknown_name(st.name, st.span, list(self.vars))
        for given, side, sp in st.clues:
            if side not in SIDES:
                raise PuzzleError(f"a clue goes at {', '.join(SIDES)}, not `{side}`", sp)
            if given not in self.givens:
                raise unknown_name(given, sp, list(self.givens))
        for given, sp in st.marked:
            if given not in self.givens:
                raise unknown_name(given, sp, list(self.givens))
        for given, _, sp in st.between:
            decl = self.givens.get(given)
            if decl is None:
                raise unknown_name(given, sp, [n for n, g in self.givens.items() if len(g.dims) == 2])
            if len(decl.dims) != 2:
                raise PuzzleError(f"`between` draws a 2-D given between the cells of a board; `{given}` has "
                                  f"{len(decl.dims)} index(es)", sp)
        if st.lines is not None:
            name, sp = st.lines
            decl = self.vars.get(name)
            if decl is None or decl.type.kind != "edges":
                raise PuzzleError(f"`lines` draws an edge grid (`var {name}[..]: edges`); `{name}` is not one", sp)

    def graph_positions(self, e: A.Expr, top: bool) -> None:
        """`connected`/`acyclic` hold for a whole graph: only as a rule, or an item of a rule's
        `forall`/`and`, or after `OPTION ->`; never negated, under `or`, or inside another expression.
        The size of a region of a decision grid likewise, compared with a number (also after `COND ->`)."""
        if isinstance(e, A.Compare) and self.decision_size(e.left) and self.decision_size(e.right):
            raise PuzzleError("compare the size of a region with a number, not with another region's size", e.span)
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
        if isinstance(e, A.Aggregate) and e.kind == "connected" or isinstance(e, A.Call) and e.func in GRAPH_CALLS:
            if not top:
                word = e.kind if isinstance(e, A.Aggregate) else e.func
                raise PuzzleError(f"`{word}` must be a rule of its own", e.span,
                                  "write it as a rule, or inside a rule's `forall` or `and`; it cannot be negated, "
                                  "combined with `or`, or used inside another expression")
            top = False
        if isinstance(e, A.Aggregate) and e.kind == "all":
            self.graph_positions(e.body, top)
            for c in [x for b in e.bindings for x in (b.source, b.while_, b.where) if x is not None] + (
                    [e.where] if e.where is not None else []):
                self.graph_positions(c, False)
            return
        if isinstance(e, A.Logic) and e.op == "and":
            for c in e.items:
                self.graph_positions(c, top)
            return
        if isinstance(e, A.Logic) and e.op == "implies":
            self.graph_positions(e.items[0], False)
            self.graph_positions(e.items[1], top)
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

    # ---------------------------------------------------------------- helpers
    def static(self, e: A.Expr, scope: set[str], what: str) -> None:
        self.kind(e, scope)
        if self.dynamic(e, scope):
            raise PuzzleError(f"{what} must be known before solving, but this depends on decision variables", e.span)

    def dynamic(self, e: A.Expr, scope: set[str]) -> bool:
        if isinstance(e, A.Name):
            if e.id in scope:
                return False
            if e.id in self.vars:
                return True
            if e.id in self.defines:
                return self.define_dynamic(e.id)
            return False
        if isinstance(e, A.Call) and e.func in SHAPE_BUILTINS and not (e.func == "cells" and len(e.args) == 2):
            # the shape of a decision grid is known before solving, its values are not
            return any(self.dynamic(a, scope) for a in e.args if not (isinstance(a, A.Name) and a.id in self.vars))
        if isinstance(e, A.Call) and e.func in self.defines:
            if self.define_dynamic(e.func):
                return True
        if isinstance(e, A.Aggregate):
            inner = scope | {n for b in e.bindings for n in b.names}
            return (any(self.dynamic(b.source, inner) or any(x is not None and self.dynamic(x, inner)
                                                               for x in (b.while_, b.where))
                        for b in e.bindings) or self.dynamic(e.body, inner)
                    or (e.where is not None and self.dynamic(e.where, inner)))
        return any(self.dynamic(c, scope) for c in A.children(e))

    def filter(self, where: A.Expr | None, scope: set[str]) -> None:
        """A `where` is a condition known before solving."""
        if where is None:
            return
        self.expect(where, scope, BOOL, "`where`")
        if self.dynamic(where, scope):
            raise PuzzleError("a `where` filter must be known before solving, but this one depends on "
                              "decision variables", where.span,
                              "move the condition into the body, e.g. `forall x in S: cond -> body`")

    def take_while(self, cond: A.Expr | None, scope: set[str], kind: str | None) -> None:
        """A `while` is a condition; it may depend on decisions only where each item's part can
        be guarded by "every item before it passed" (`kind`: the aggregate, None for actions)."""
        if cond is None:
            return
        self.expect(cond, scope, BOOL, "`while`")
        if kind not in GUARDED_KINDS and self.dynamic(cond, scope):
            what = f"`{kind}`" if kind else "an action's bindings"
            raise PuzzleError(f"a `while` in {what} must be known before solving, but this one depends on "
                              "decision variables", cond.span,
                              "a `while` on decisions works in `forall`, `exists`, `count`, `sum`, `exactly`, "
                              "`atmost`, `atleast` and `connected`")

    def define_dynamic(self, name: str) -> bool:
        if name in self._dynamic:
            return self._dynamic[name]
        self._dynamic[name] = False  # recursion: assume static until shown otherwise
        d = self.defines[name]
        self._dynamic[name] = self.dynamic(d.body, set(d.params or ()))
        return self._dynamic[name]

    # ---------------------------------------------------------------- kinds
    def kind(self, e: A.Expr, scope: set[str]) -> str:
        if isinstance(e, A.Value):
            raise PuzzleError("`?`, strings and text blocks are data: they may be the value of a given, "
                              "not part of an expression", e.span, "test for a missing clue with `known(g[p])`")
        m = getattr(self, "_k_" + type(e).__name__, None)
        if m is None:
            for c in A.children(e):
                self.kind(c, scope)
            return ANY
        return m(e, scope)

    def expect(self, e: A.Expr, scope: set[str], want: str, context: str) -> str:
        k = self.kind(e, scope)
        if k != ANY and k != want and not (want == INT and k == BOOL):
            raise PuzzleError(f"{context} needs {_WORDS[want]}, but this is {_WORDS[k]}", e.span)
        return k

    def _k_IntLit(self, e, scope):
        return INT

    def _k_BoolLit(self, e, scope):
        return BOOL

    def _k_TupleLit(self, e, scope):
        for x in e.items:
            self.kind(x, scope)
        return TUPLE

    def _k_ListLit(self, e, scope):
        for x in e.items:
            self.kind(x, scope)
        return SET

    _k_SetLit = _k_ListLit

    def _k_Range(self, e, scope):
        self.expect(e.lo, scope, INT, "a range bound")
        self.expect(e.hi, scope, INT, "a range bound")
        return SET

    def _k_Neg(self, e, scope):
        self.expect(e.operand, scope, INT, "`-`")
        return INT

    def _k_Not(self, e, scope):
        self.expect(e.operand, scope, BOOL, "`not`")
        return BOOL

    def _k_Binary(self, e, scope):
        a, b = self.kind(e.left, scope), self.kind(e.right, scope)
        if a == TUPLE or b == TUPLE:
            return TUPLE
        if e.op == "+" and SET in (a, b) and {a, b} <= {SET, ANY}:  # lists join
            return SET
        for x, k in ((e.left, a), (e.right, b)):
            if k in (SYM, SET):
                raise PuzzleError(f"`{e.op}` needs numbers, but this is {_WORDS[k]}", x.span)
        return INT

    def _k_Compare(self, e, scope):
        a, b = self.kind(e.left, scope), self.kind(e.right, scope)
        if e.op not in ("==", "!="):
            for x, k in ((e.left, a), (e.right, b)):
                if k in (SYM, SET, TUPLE):
                    raise PuzzleError(f"`{e.op}` orders numbers, but this is {_WORDS[k]}", x.span)
        elif ANY not in (a, b) and {a, b} != {INT, BOOL} and a != b:
            raise PuzzleError(f"comparing {_WORDS[a]} with {_WORDS[b]} is never true", e.span)
        return BOOL

    def _k_Logic(self, e, scope):
        for x in e.items:
            self.expect(x, scope, BOOL, f"`{e.op}`")
        return BOOL

    def _k_Ite(self, e, scope):
        self.expect(e.cond, scope, BOOL, "the condition of `if`")
        a, b = self.kind(e.then, scope), self.kind(e.other, scope)
        return a if a == b else (INT if {a, b} == {INT, BOOL} else ANY)

    def _k_Name(self, e, scope):
        n = e.id
        if n in scope:
            return ANY
        if n in self.givens:
            g = self.givens[n]
            return _type_kind(g.type) if not g.dims else ANY
        if n in self.vars:
            v = self.vars[n]
            return _type_kind(v.type) if not v.dims else ANY
        if n in self.defines:
            d = self.defines[n]
            if d.params:
                raise PuzzleError(f"`{n}` takes {len(d.params)} argument(s): write `{n}(...)`", e.span)
            return self.define_kind(d)
        if n in self.symbols:
            return SYM
        if n in DIRECTIONS:
            return SET
        raise unknown_name(n, e.span, list(scope) + list(self.givens) + list(self.vars) + list(self.defines)
                           + list(self.symbols) + list(DIRECTIONS))

    def define_body(self, d: A.Define) -> str:
        """The kind of a define's body, which sees its parameters and global names only."""
        try:
            return self.kind(d.body, set(d.params or ()))
        except PuzzleError as err:
            if err.message.startswith("unknown name") and err.help is None:
                name = err.message.split("`")[1]
                params = ", ".join([*(d.params or ()), name])
                err.help = (f"a define sees only its parameters and global names: to use a loop's `{name}`, "
                            f"pass it in, `define {d.name}({params}) = …`")
            raise

    def define_kind(self, d: A.Define) -> str:
        if d.name in self._kind_cache:
            return self._kind_cache[d.name]
        if d.name in self._in_progress:
            return ANY
        self._in_progress.add(d.name)
        k = self.define_body(d)
        self._in_progress.discard(d.name)
        self._kind_cache[d.name] = k
        return k

    def _k_Index(self, e, scope):
        for x in e.indices:
            self.kind(x, scope)
            if self.dynamic(x, scope):
                raise PuzzleError("an index must be known before solving, but this depends on decision variables",
                                  x.span)
        base = e.base
        if isinstance(base, A.Name) and base.id not in scope:
            decl = self.givens.get(base.id) or self.vars.get(base.id)
            if decl is not None:
                if not decl.dims:
                    raise PuzzleError(f"`{base.id}` is not a grid or list and cannot be indexed", e.span)
                if decl.type.kind == "edges":
                    return BOOL if len(e.indices) in (2, 2 * len(decl.dims)) else ANY
                if len(e.indices) > len(decl.dims):
                    raise PuzzleError(f"`{base.id}` has {len(decl.dims)} index(es), but {len(e.indices)} were given",
                                      e.span)
                return _type_kind(decl.type) if len(e.indices) == len(decl.dims) else ANY
        self.kind(base, scope)
        return ANY

    def _k_Call(self, e, scope):
        for a in e.args:
            self.kind(a, scope)
        if e.func in self.defines:
            d = self.defines[e.func]
            n = len(d.params or ())
            if n != len(e.args):
                raise PuzzleError(f"`{e.func}` takes {n} argument(s), {len(e.args)} given", e.span)
            return self.define_kind(d)
        if e.func in BUILTINS:
            n = BUILTIN_ARITY[e.func]
            if len(e.args) not in n:
                raise PuzzleError(f"`{e.func}` takes {' or '.join(map(str, n))} argument(s), {len(e.args)} given",
                                  e.span)
            if e.func == "abs" and self.dynamic(e.args[0], scope):
                raise PuzzleError(ABS_OF_DECISION, e.args[0].span, help=ABS_HELP)
            return {"len": INT, "abs": INT, "known": BOOL, "inside": BOOL, "degree": INT, "connected": BOOL,
                    "acyclic": BOOL, "size": INT}.get(e.func, SET)
        if e.func in self.givens or e.func in self.vars:
            raise PuzzleError(f"`{e.func}` is not a function; index it with `{e.func}[...]`", e.func_span)
        raise unknown_name(e.func, e.func_span, list(self.defines) + sorted(BUILTINS))

    def _k_Aggregate(self, e, scope):
        inner = set(scope)
        for b in e.bindings:
            self.kind(b.source, inner)
            if self.dynamic(b.source, inner) and b.names != VALUES_BINDING:  # `max(a, b)` lists values
                raise PuzzleError("the set to range over must be known before solving", b.source.span)
            inner |= set(b.names)
            self.take_while(b.while_, inner, e.kind)
            self.filter(b.where, inner)
        self.filter(e.where, inner)
        if e.bound is not None:
            self.static(e.bound, scope, "the bound")
            self.expect(e.bound, scope, INT, f"the bound of `{e.kind}`")
        if e.kind in ("all", "any", "count", "exactly", "atmost", "atleast", "connected", "runs"):
            self.expect(e.body, inner, BOOL, _agg_word(e.kind))
        elif e.kind in ("sum", "min", "max"):
            self.expect(e.body, inner, INT, _agg_word(e.kind))
        else:
            self.kind(e.body, inner)
        return INT if e.kind in ("sum", "count", "min", "max") else SET if e.kind in ("list", "set", "runs") else BOOL


def _agg_word(kind: str) -> str:
    return {"all": "`forall`", "any": "`exists`"}.get(kind, f"`{kind}`")


def _type_kind(t: A.TypeRef) -> str:
    return {"bool": BOOL, "int": INT, "sym": SYM, "range": INT, "edges": BOOL, "list": SET}[t.kind]


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


def check_program(program: A.Program) -> dict[str, Symbol]:
    """Check a parsed program; return the legend symbols it declares."""
    return Checker(program).run()
