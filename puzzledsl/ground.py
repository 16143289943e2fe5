"""Grounding: evaluate the rules over the bound givens into a ground `Model`.

Everything that depends only on givens and loop variables is computed here, in
Python; what depends on decision variables becomes formula handles (`Cond`) or
linear expressions (`Lin`). Each error names the expression that caused it.

The `Grounder` is assembled from parts, one module each: the rules and the expression walk
(here), the decision variables (`ground_declare`), the built-in functions
(`ground_builtins`), bindings and aggregates (`ground_aggregates`), region sizes
(`ground_regions`); what they share is in `ground_common`.
"""

from __future__ import annotations

import copy
import sys
from typing import TYPE_CHECKING

from .closures import GUARD, make_fn
from .errors import PuzzleError, Span
from .ground_aggregates import Aggregates, name_instance
from .ground_builtins import Builtins
from .ground_common import (
    BUILTINS,
    DIRECTIONS,
    MAX_DEPTH,
    Graph,
    Grounded,
    _arith,
    _distinct,
    _eq,
    _int_equals,
    _is_condition,
    _is_static,
    _listed,
    _region_misuse,
    _splits,
    cells_equal,
    define_arity,
    one_hot_relation,
    tuple_order,
    unknown_name,
)
from .ground_declare import Declarations
from .ground_regions import RegionOf, RegionSizes, SizeOf, SizeRule, size_rule
from .int_use import numeric_names
from .joins import Joins
from .model import Assertion, GraphConstraint, Model, neg
from .runs import Runs, runs_equal
from .syntax import ast as A
from .values import (
    MISSING,
    Cond,
    Grid,
    IntVarCell,
    LazyGrid,
    Lin,
    Symbol,
    _cond,
    describe,
    written,
)
from .words import count

if TYPE_CHECKING:
    from .clues import ReadLog

SYMBOL_ORDER = ("symbols have no order, only `==` and `!=`; to take each pair of regions once, compare "
                "something ordered, such as their first cells (`cells(g, a)[0] < cells(g, b)[0]`), or keep "
                "both orders with `a != b`: a constraint stated twice is encoded once")


class Grounder(Declarations, Builtins, Aggregates):
    """Evaluates expressions; one instance per puzzle."""

    builtins = BUILTINS

    def __init__(self, program: A.Program, givens: dict[str, object], symbols: dict[str, Symbol],
                 located: bool = False):
        self.program = program
        self.model = Model()
        # `located`: each rule instance remembers its binding and keeps its own meaning (no
        # forced cell is folded into later rules), so an explanation can cite it alone
        self.located = located
        self.model.fold_units = not located
        self.givens = givens
        self.symbols = symbols
        self.vars: dict[str, Grid] = {}
        self.defines: dict[str, A.Define] = {}
        self._define_cache: dict[tuple, object] = {}
        self._neighbours: dict[tuple, list] = {}
        self._depth = 0
        self.declared: dict[str, Grid] = {}  # decision grids as declared: cells hold handles
        self._cell_of: dict[int, tuple[Grid, tuple[int, ...]]] = {}
        self._one_hot: dict[int, tuple[IntVarCell, int]] = {}  # value handle -> (its cell, value index)
        self._value_index: dict[int, tuple[Grid, dict]] = {}  # id(grid) -> (grid, cells by value)
        self.frozen = False
        self._fns: dict[A.Expr, object] = {}
        self.joins = Joins()  # filters by equality answered from an index of the list
        # `generate` (clues.py): which clue cells each rule instance reads; None when not asked
        self.reads: ReadLog | None = None
        self.regions = RegionSizes(self)
        for st in program.statements:
            if isinstance(st, A.Define):
                self.defines[st.name] = st

    @property
    def numeric(self) -> set[str]:
        """Integer variables read as numbers, not only as labels: worked out once per program,
        when the first integer variable is declared."""
        memo = self.program.memo
        found = memo.get("numeric")
        if found is None:
            found = memo["numeric"] = numeric_names(self.program)
        return found  # type: ignore[return-value]

    # ------------------------------------------------------------ rules
    def ground_rules(self, skip: set[A.Rule] | frozenset = frozenset()) -> Grounded:
        """Ground every rule except those in `skip` (a plan's rules over state, grounded per step)."""
        self.frozen = True
        old = sys.getrecursionlimit()
        # A define level costs a handful of Python frames; make MAX_DEPTH, not Python, the limit
        # (Python 3.11 keeps pure-Python calls off the C stack, so this is safe).
        sys.setrecursionlimit(max(old, 40 * MAX_DEPTH))
        try:
            for st in self.program.statements:
                if isinstance(st, A.Rule) and st not in skip:
                    if self.reads is not None:
                        self.reads.start(st)
                    try:
                        self.assert_expr(st.body, {}, st)
                        self.regions.flush(st)
                    except PuzzleError as err:
                        if err.span is None:  # e.g. a limit reached deep inside: point at the rule
                            err.span = st.span
                        _earlier_false(err, self.model.false_rule, st.span)
                        raise
        finally:
            sys.setrecursionlimit(old)
        return Grounded(self.model, self.givens, self.declared)

    def release(self) -> None:
        """Drop what refers back to this grounder (the closures, the region bounds' helper), once
        no more rules are grounded: it is then freed at once, not by a later pass of Python's
        cyclic collector that would have to scan everything it built (measured: half the time
        of that pass on a batch of 12x12 shading puzzles)."""
        self._fns.clear()
        self._define_cache.clear()
        self.joins = Joins()
        self.regions.gr = None  # type: ignore[assignment]

    def can_fork(self) -> bool:
        """Whether `fork` may go on from here: not where each rule instance stands alone
        (`located`, `reads`), nor over grids whose cells are made as rules read them."""
        return self.reads is None and not self.located and all(
            type(v) is not LazyGrid and isinstance(v, Grid) for v in self.vars.values())

    def fork(self) -> Grounder:
        """A grounder that goes on from where this one stopped (`variants.py`), leaving this one
        and its model as they are: the containers that grounding adds to are copied; the
        declared grids, the givens' grids and the program are shared."""
        g = copy.copy(self)
        g.model = self.model.fork()
        g.givens = dict(self.givens)
        g.vars = {}
        for name, view in self.vars.items():  # forced cells are written into these
            view = copy.copy(view)
            view.cells = dict(view.cells)
            g.vars[name] = view
        g._cell_of, g._one_hot, g._neighbours = dict(self._cell_of), dict(self._one_hot), dict(self._neighbours)
        g._define_cache, g._fns, g._value_index = {}, {}, {}
        g._depth = 0
        g.joins = Joins()
        g.regions = RegionSizes(g)
        return g

    def assert_expr(self, e: A.Expr, env: dict, rule: A.Rule) -> None:
        """Split top-level conjunctions and foralls so each part is its own assertion."""
        reads = self.reads
        if isinstance(e, A.Aggregate) and e.kind == "all":
            body = e.body
            # a body that is one condition (the usual case) is evaluated here, not split again
            plain = self.frozen and not _splits(body)
            f = self._fns.get(body) if plain else None
            if plain and f is None:
                f = self._fns[body] = make_fn(self, body)
            for inner in self.iter_bindings(e.bindings, e.where, env, scoped=True, guarded=True):
                try:
                    if GUARD in inner:  # `forall … while C: B` on decisions: B where every C so far held
                        self.assert_guarded(inner[GUARD], body, inner, rule)
                    elif f is None:
                        self.assert_expr(body, inner, rule)
                    else:
                        v = f(inner)
                        if v is not True:
                            self.assert_value(v, body, inner, rule)
                except PuzzleError as err:
                    name_instance(err, inner)
                    raise
            return
        if isinstance(e, A.Logic) and e.op == "and":
            for item in e.items:
                mark = reads.mark() if reads is not None else None
                self.assert_expr(item, env, rule)
                if reads is not None:
                    reads.back(mark)
            return
        v = None
        if isinstance(e, A.Logic) and e.op == "implies":  # `option -> rule`: decided before solving
            a = self.ev(e.items[0], env)
            if a is False:
                return
            if a is True:
                self.assert_expr(e.items[1], env, rule)
                return
            guard = self.formula(a, e.items[0].span)
            b = self.ev(e.items[1], env)
            if isinstance(b, SizeRule):  # `COND -> size(region(g, p)) == n`: a bound where COND holds
                self.regions.add(b, guard, rule, env)
                return
            v = _cond(self.model.implies(guard, self.formula(b, e.items[1].span)))
        self.assert_value(self.ev(e, env) if v is None else v, e, env, rule)

    def assert_value(self, v: object, e: A.Expr, env: dict, rule: A.Rule) -> None:
        """Require the value `v` of the rule part `e`: a condition, or a graph or size rule."""
        if type(v) is Cond:
            self.require_rule(v.h, e.span, rule, env)
        elif isinstance(v, Graph):
            self.add_graph(v, rule)
        elif isinstance(v, SizeRule):
            self.regions.add(v, True, rule, env)
        else:
            self.require_rule(self.formula(v, e.span), e.span, rule, env)

    def assert_guarded(self, guard: int, e: A.Expr, env: dict, rule: A.Rule) -> None:
        v = self.ev(e, env)
        if isinstance(v, SizeRule):
            self.regions.add(v, guard, rule, env)
            return
        if isinstance(v, Graph):
            raise PuzzleError(f"`{v.kind}` cannot be guarded by a `while` that depends on decisions", e.span,
                              "state the graph rule on its own")
        binding = {k: x for k, x in env.items() if k != GUARD}
        self.require_rule(self.model.implies(guard, self.formula(v, e.span)), e.span, rule, binding)

    def require_rule(self, f: int | bool, span: Span, rule: A.Rule, env: dict) -> None:
        """Assert one instance of a rule (its loop variables' values in `env`; the parser's own
        names, such as `$v` over the arguments of `all(a, b)`, are not the user's and not kept)."""
        if self.located:
            self.model.require(f, span, rule.label, rule.span, _named(env))
            return
        forced = self.model.require(f, span, rule.label, rule.span, _named(env) if f is False else None)
        self._fix_units(f, forced)

    def add_graph(self, g: Graph, rule: A.Rule) -> None:
        m = self.model
        nodes = tuple(m.as_var(f, g.span) for f in g.nodes)
        edges = tuple((i, j, m.as_var(f, g.span)) for i, j, f in g.edges if f is not False)
        m.add_graph(GraphConstraint(g.kind, nodes, edges, g.span, rule.label, rule.span))

    def _fix_units(self, f: int | bool, forced: list[int] | None = None) -> None:
        """A rule that forces a Boolean cell (a water hint, a row count of 0) makes the cell a
        constant for the rules grounded after it: their formulas simplify, and the encoding
        shrinks. The cell keeps its variable and its unit clause, so nothing is lost.
        `forced`: the literals `f` forces, when `Model.require` already worked them out."""
        for lit in self.model.forced(f) if forced is None else forced:
            where = self._cell_of.get(abs(lit))
            if where is not None:
                grid, keys = where
                grid = self.vars[grid.name]
                for key in keys:
                    grid.cells[key] = lit > 0

    # ------------------------------------------------------------ coercions
    def formula(self, v: object, span: Span) -> int | bool:
        if v is True or v is False:
            return v
        if isinstance(v, Cond):
            return v.h
        if isinstance(v, Graph):
            raise PuzzleError(f"`{v.kind}` must be a rule of its own", v.span,
                              "write it as a rule, or inside a rule's `forall` or `and`; it cannot be negated, "
                              "combined with `or`, or depend on decision variables")
        if isinstance(v, SizeRule | SizeOf | RegionOf):
            raise _region_misuse(v)
        raise PuzzleError(f"expected a condition (true/false), found {describe(v)}", span)

    def static_int(self, e: A.Expr, env: dict) -> int:
        v = self.ev(e, env)
        if isinstance(v, int) and not isinstance(v, bool):
            return v
        if isinstance(v, Lin | IntVarCell):
            raise PuzzleError("this number must be known before solving, but it depends on decision variables",
                              e.span)
        raise PuzzleError(f"expected a number, found {describe(v)}", e.span)

    def lin(self, v: object, span: Span) -> Lin | int:
        if isinstance(v, bool):
            return int(v)
        if isinstance(v, int):
            return v
        if isinstance(v, Cond):
            return Lin.of_formula(v.h)
        if isinstance(v, Lin | IntVarCell):
            return Lin.of(v)
        if v is None:
            raise PuzzleError("this value is unknown (`?`); guard it with `known(...)`", span)
        if isinstance(v, SizeRule | SizeOf | RegionOf):
            raise _region_misuse(v)
        raise PuzzleError(f"expected a number, found {describe(v)}", span)

    # ------------------------------------------------------------ evaluation
    def ev(self, e: A.Expr, env: dict) -> object:
        if self.frozen:
            f = self._fns.get(e)
            if f is None:
                f = self._fns[e] = make_fn(self, e)
            return f(env)
        return _DISPATCH[type(e)](self, e, env)

    def is_global(self, n: str) -> bool:
        return n in self.givens or n in self.vars or n in self.symbols or n in DIRECTIONS

    def walk(self, e: A.Expr, env: dict) -> object:
        """Evaluate by walking the tree: the fallback for node kinds without a closure."""
        return _DISPATCH[type(e)](self, e, env)

    def _int(self, e: A.IntLit, env: dict) -> object:
        return e.value

    def _bool(self, e: A.BoolLit, env: dict) -> object:
        return e.value

    def _name(self, e: A.Name, env: dict) -> object:
        n = e.id
        if n in env:
            return env[n]
        if n in self.givens:
            return self.givens[n]
        if n in self.vars:
            g = self.vars[n]
            return g.cells[()] if not g.dims else g
        if n in self.defines:
            d = self.defines[n]
            if d.params:
                raise PuzzleError(f"`{n}` takes {len(d.params)} argument(s): write `{n}(...)`", e.span)
            return self.call_define(d, (), e.span)
        if n in self.symbols:
            return self.symbols[n]
        if n in DIRECTIONS:
            return DIRECTIONS[n]
        raise unknown_name(n, e.span, list(env) + list(self.givens) + list(self.vars) + list(self.defines)
                           + list(self.symbols) + list(DIRECTIONS))

    def _tuple(self, e: A.TupleLit, env: dict) -> object:
        return tuple(self.ev(x, env) for x in e.items)

    def _list(self, e: A.ListLit, env: dict) -> object:
        return [self.ev(x, env) for x in e.items]

    def _set(self, e: A.SetLit, env: dict) -> object:
        return _distinct([self.ev(x, env) for x in e.items])

    def _range(self, e: A.Range, env: dict) -> object:
        return range(self.static_int(e.lo, env), self.static_int(e.hi, env) + 1)

    def _neg(self, e: A.Neg, env: dict) -> object:
        v = self.ev(e.operand, env)
        if isinstance(v, int) and not isinstance(v, bool):
            return -v
        if isinstance(v, tuple) and all(type(x) is int for x in v):  # `-d`: an offset turned around
            return tuple(-x for x in v)
        return Lin.of(self.lin(v, e.operand.span)).scale(-1)

    def _not(self, e: A.Not, env: dict) -> object:
        return _cond(neg(self.formula(self.ev(e.operand, env), e.operand.span)))

    def _binary(self, e: A.Binary, env: dict) -> object:
        return self._binary_values(e, self.ev(e.left, env), self.ev(e.right, env))

    def _binary_values(self, e: A.Binary, a: object, b: object) -> object:
        if type(a) is int and type(b) is int:
            return _arith(e, a, b)
        if type(a) is list and type(b) is list and e.op == "+":
            return a + b
        if e.op == "*" and (type(a) is int and isinstance(b, tuple) or isinstance(a, tuple) and type(b) is int):
            k, t = (a, b) if type(a) is int else (b, a)
            return tuple(k * x for x in t)  # type: ignore[union-attr]
        if isinstance(a, tuple) and isinstance(b, tuple):
            if e.op not in "+-" or len(a) != len(b):
                raise PuzzleError(f"cannot apply `{e.op}` to tuples of {len(a)} and {len(b)}", e.span)
            return tuple(x + y if e.op == "+" else x - y for x, y in zip(a, b))
        if e.op in "/%" and type(a) is IntVarCell and not a.binary and type(b) is int:
            return _divided(self.model, a, b, e)
        la, lb = self.lin(a, e.left.span), self.lin(b, e.right.span)
        if isinstance(la, int) and isinstance(lb, int):
            return _arith(e, la, lb)
        if e.op in "+-":
            return Lin.of(la).add(Lin.of(lb), 1 if e.op == "+" else -1)
        if e.op == "*":
            if isinstance(la, int):
                return Lin.of(lb).scale(la)
            if isinstance(lb, int):
                return Lin.of(la).scale(lb)
            raise PuzzleError("the product of two decision values is not linear", e.span,
                              "one side of `*` must be known before solving; to multiply a decision number `y` "
                              "by a decision condition, sum over its values: `sum(v in LO..HI: v * (y == v and "
                              "cond))`")
        raise PuzzleError(f"`{e.op}` needs numbers known before solving", e.span,
                          "`/` and `%` by a known number take one integer variable (`d[p] % 2 == 0`), "
                          "not a sum" if e.op in "/%" else None)

    def _compare(self, e: A.Compare, env: dict) -> object:
        return self.compare(e.op, self.ev(e.left, env), self.ev(e.right, env), e)

    def compare(self, op: str, a: object, b: object, e: A.Expr) -> object:
        if type(a) is SizeOf or type(b) is SizeOf:
            return size_rule(op, a, b, e)
        if isinstance(a, Runs) or isinstance(b, Runs):
            return self.compare_runs(op, a, b, e)
        static = _is_static(a) and _is_static(b)
        if static:
            if op in ("==", "!="):
                return _eq(a, b) == (op == "==")
            # numbers, or tuples of numbers in lexicographic order (`d > (0, 0)`)
            if not (isinstance(a, int) and isinstance(b, int) or tuple_order(a, b)):
                guard = ("an unknown value (`?`) has no order: guard the comparison, "
                         "e.g. `known(g[p]) and g[p] > 1`, or filter with `where known(g[p])`"
                         if a is None or b is None else SYMBOL_ORDER if isinstance(a, Symbol) or isinstance(b, Symbol)
                         else None)
                raise PuzzleError(f"cannot order {describe(a)} and {describe(b)}", e.span, guard)
            return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op]  # type: ignore[operator]
        if op in ("==", "!=") and (isinstance(a, IntVarCell) or isinstance(b, IntVarCell)):
            cell, other = (a, b) if isinstance(a, IntVarCell) else (b, a)
            f = None
            if isinstance(other, int) and not isinstance(other, bool):
                f = _int_equals(self.model, cell, other)
            elif isinstance(other, IntVarCell):
                f = cells_equal(self.model, cell, other)
            if f is not None:
                return _cond(f if op == "==" else neg(f))
        if op in ("==", "!=") and _is_condition(a) and _is_condition(b):
            fa, fb = self.formula(a, e.span), self.formula(b, e.span)
            f = self.model.iff(fa, fb)
            return _cond(f if op == "==" else neg(f))
        if isinstance(a, Symbol) or isinstance(b, Symbol):  # a decision (no symbol) against a symbol
            sym, other = (a, b) if isinstance(a, Symbol) else (b, a)
            what = "a condition on decisions" if isinstance(other, Cond) else "a number that depends on decisions"
            raise PuzzleError(f"cannot compare {what} with the symbol `{sym}`", e.span,
                              "a decision variable holds truth values or numbers, never symbols: compare the "
                              f"symbol with a symbol, e.g. `black[p] == (g[p] == {sym})`")
        la = Lin.of(self.lin(a, getattr(e, "left", e).span))
        lb = Lin.of(self.lin(b, getattr(e, "right", e).span))
        d = la.add(lb, -1)
        f = one_hot_relation(self.model, self._one_hot, d, op)
        if f is not None:
            return _cond(f)
        return _cond(self.model.linear(d.terms, op, -d.const))

    def compare_runs(self, op: str, a: object, b: object, e: A.Expr) -> object:
        runs, lengths = (a, b) if isinstance(a, Runs) else (b, a)
        if op not in ("==", "!=") or not isinstance(lengths, list | tuple) or \
                not all(type(x) is int for x in lengths):
            raise PuzzleError(f"`runs(…)` can only be compared with `==` or `!=` to a list of known numbers "
                              f"(the block lengths in order), not with `{op}` to {describe(lengths)}", e.span,
                              "e.g. `runs(c in 1..C: black[r, c]) == [3, 1, 2]`")
        f = runs_equal(self.model, runs, list(lengths), e.span)  # type: ignore[arg-type]
        return _cond(f if op == "==" else neg(f))

    def _logic(self, e: A.Logic, env: dict) -> object:
        m = self.model
        if e.op in ("and", "or"):
            stop = e.op == "or"  # the value that decides the whole: true for or, false for and
            out: list = []
            for x in e.items:
                f = self.formula(self.ev(x, env), x.span)
                if f is stop:
                    return stop
                out.append(f)
            return _cond(m.or_(out) if stop else m.and_(out))
        a = self.formula(self.ev(e.items[0], env), e.items[0].span)
        if e.op == "implies" and a is False:
            return True
        b = self.formula(self.ev(e.items[1], env), e.items[1].span)
        return _cond(m.implies(a, b) if e.op == "implies" else m.iff(a, b))

    def _ite(self, e: A.Ite, env: dict) -> object:
        c = self.formula(self.ev(e.cond, env), e.cond.span)
        if c is True:
            return self.ev(e.then, env)
        if c is False:
            return self.ev(e.other, env)
        a, b = self.ev(e.then, env), self.ev(e.other, env)
        if _is_condition(a) and _is_condition(b):
            return _cond(self.model.ite(c, self.formula(a, e.then.span), self.formula(b, e.other.span)))
        la, lb = self.lin(a, e.then.span), self.lin(b, e.other.span)
        if isinstance(la, int) and isinstance(lb, int):  # lb + (la - lb) * c
            return Lin(lb, {c: la - lb}) if la != lb else la
        diff = Lin.of(la).add(Lin.of(lb), -1)
        if not any(diff.terms.values()):  # `if c then x + 1 else x + 2`: the same sum, a known number apart
            return Lin.of(lb).add(Lin(0, {c: diff.const})) if diff.const else lb
        raise PuzzleError("`if` on a decision needs branches that are known numbers or conditions, or two sums "
                          "that differ by a known number", e.span,
                          "split the rule (or the action) by the condition: `c -> A` and `not c -> B`; to add a "
                          "decision number only where a decision condition holds, sum over its values: "
                          "`sum(v in 1..9: v * (x[p] == v and cond))`")

    def _index(self, e: A.Index, env: dict) -> object:
        return self._index_values(e, self.ev(e.base, env), tuple(self.ev(x, env) for x in e.indices))

    def _index_values(self, e: A.Index, base: object, values: tuple) -> object:
        if isinstance(base, Grid) and base.keyed:  # each index is a listed value, taken whole
            if len(values) != len(base.dims):
                raise PuzzleError(f"`{base.name}` has {len(base.dims)} index(es), but {len(values)} were given", e.span)
            key = tuple(values)
            v = base.cells.get(key, MISSING)
            if v is MISSING:
                bad = next((x for x, r in zip(values, base.dims) if x not in r), values[0])
                raise PuzzleError(f"{_listed(bad)} is not an index of `{base.name}`", e.span,
                                  "index it with one of the values its dimension lists")
            return v
        idx: list = []
        for x, v in zip(e.indices, values):
            if type(v) is int:
                idx.append(v)
            elif isinstance(v, tuple):
                idx.extend(v)
            elif isinstance(v, int) and not isinstance(v, bool):
                idx.append(v)
            else:
                raise PuzzleError(f"an index must be a number known before solving, found {describe(v)}", x.span)
        if isinstance(base, Grid):
            key = tuple(idx)
            v = base.cells.get(key, MISSING)
            return v if v is not MISSING else base.get(key, e.span)
        if isinstance(base, tuple | list | range) and len(idx) == 1:  # as the re-check (evaluate.py) reads them
            if 0 <= idx[0] < len(base):
                return base[idx[0]]
            raise PuzzleError(f"index {idx[0]} is outside 0..{len(base) - 1}" if base else
                              f"index {idx[0]} is outside {describe(base)}", e.span,
                              f"the indexed value is {written(base)} here ({count(len(base), 'item')}); where it "
                              f"comes from the data, the data may be what to fix")
        if isinstance(base, tuple | list | range):
            raise PuzzleError(f"{describe(base)} takes one index, but {len(idx)} were given", e.span,
                              "index a list, tuple or range with one number from 0 (`p[0]`); a list of "
                              "lists one step at a time (`L[i][j]`)")
        raise PuzzleError(f"cannot index {describe(base)}", e.base.span,
                          "a 1-D grid's cells (`cells(g)`) are numbers, not tuples" if type(base) is int else None)

    def _call(self, e: A.Call, env: dict) -> object:
        if e.func in self.defines:
            d = self.defines[e.func]
            params = d.params or ()
            if len(params) != len(e.args):
                raise define_arity(e.func, params, len(e.args), e.span)
            return self.call_define(d, tuple(self.ev(a, env) for a in e.args), e.span)
        if e.func in BUILTINS:
            return self.builtin(e, [self.ev(a, env) for a in e.args])
        raise unknown_name(e.func, e.func_span, list(self.defines) + sorted(BUILTINS))

    def call_define(self, d: A.Define, args: tuple, span: Span) -> object:
        """A define's value for these arguments, computed once (a list argument is not remembered)."""
        key: tuple | None = (d.name, args)
        try:
            v = self._define_cache.get(key, MISSING)  # type: ignore[arg-type]
        except TypeError:
            key, v = None, MISSING
        if v is MISSING:
            return self.evaluate_define(d, args, span, key)
        if self.reads is not None:
            self.reads.remembered(key)
        return v

    def evaluate_define(self, d: A.Define, args: tuple, span: Span, key: tuple | None) -> object:
        self._depth += 1
        if self._depth > MAX_DEPTH:
            self._depth = 0
            raise PuzzleError(f"`{d.name}` calls itself more than {MAX_DEPTH} levels deep", span)
        reads = self.reads
        outer = reads.enter() if reads is not None else None
        try:
            f = self._fns.get(d.body) if self.frozen else None
            env = dict(zip(d.params or (), args))
            v = self.ev(d.body, env) if f is None else f(env)
        finally:
            self._depth -= 1
            if reads is not None:
                reads.leave(outer, key)
        if key is not None:
            self._define_cache[key] = v
        return v


_DISPATCH = {
    A.IntLit: Grounder._int, A.BoolLit: Grounder._bool, A.Name: Grounder._name, A.TupleLit: Grounder._tuple,
    A.ListLit: Grounder._list, A.SetLit: Grounder._set, A.Range: Grounder._range, A.Neg: Grounder._neg,
    A.Not: Grounder._not, A.Binary: Grounder._binary, A.Compare: Grounder._compare, A.Logic: Grounder._logic,
    A.Ite: Grounder._ite, A.Index: Grounder._index, A.Call: Grounder._call, A.Aggregate: Grounder._aggregate,
}


def _earlier_false(err: PuzzleError, false: Assertion | None, rule: Span) -> None:
    """Where an earlier rule already cannot hold for this data (a clue of the wrong length, say),
    the data most likely breaks that rule first: the error says so (it names the rule meant to
    catch it, which the user wrote for that)."""
    if false is None or false.rule is None or false.rule == rule:
        return
    name = f"“{false.label}”" if false.label else "a rule"
    note = f"{name} at {false.rule} already cannot hold for this data: fix what it reads first"
    err.help = f"{err.help}; {note}" if err.help else note


def _divided(m: Model, cell: IntVarCell, k: int, e: A.Binary) -> IntVarCell:
    """`x / k` or `x % k` of a one-hot integer: a one-hot view whose value j is the OR of the
    values of `x` that give j (a value no value of `x` gives is False)."""
    if k == 0:
        raise PuzzleError("division by zero", e.span)
    by: dict[int, list[int]] = {}
    for i, h in enumerate(cell.handles):
        if h is not False:
            v = cell.lo + i
            by.setdefault(v // k if e.op == "/" else v % k, []).append(h)
    lo, hi = min(by), max(by)
    return IntVarCell(lo, tuple(m.or_(by[j]) if j in by else False for j in range(lo, hi + 1)), False, hi)


def _named(env: dict) -> tuple[tuple[str, object], ...]:
    """A rule instance's binding as the user wrote it: without the parser's `$` names."""
    return tuple((k, x) for k, x in env.items() if k[:1] != "$")
