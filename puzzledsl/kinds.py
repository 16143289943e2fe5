"""What kind of value an expression has (a condition, a number, a symbol, a set or a tuple),
and whether it is known before solving: the expression half of the static checks.

`check.py` walks the statements and asks this about each expression it meets; both work
from the names a program declares (`Declared`), so neither needs data.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .errors import PuzzleError
from .ground_common import (
    ABS_HELP,
    ABS_OF_DECISION,
    AGGREGATES,
    BUILTIN_ARITY,
    BUILTINS,
    DIRECTIONS,
    GUARDED_KINDS,
    SUM_WHILE,
    SUM_WHILE_HELP,
    builtin_arity,
    define_arity,
    unknown_name,
)
from .syntax import ast as A
from .values import Symbol

VALUES_BINDING = ("$v",)  # what the parser binds for `max(a, b)`, `alldiff(x, y, z)`
SHAPE_BUILTINS = {"len", "cells", "rows", "cols", "dim", "inside", "adjacent", "neighbours", "ray"}
INT, BOOL, SYM, SET, TUPLE, ANY = "number", "condition", "symbol", "set", "tuple", "any"
WORDS = {INT: "a number", BOOL: "a condition (true/false)", SYM: "a symbol", SET: "a set or list",
         TUPLE: "a tuple"}


@dataclass
class Declared:
    """The program's global names, by what declares them."""

    givens: dict[str, A.Given] = field(default_factory=dict)
    vars: dict[str, A.Var] = field(default_factory=dict)
    defines: dict[str, A.Define] = field(default_factory=dict)
    symbols: dict[str, Symbol] = field(default_factory=dict)


class Kinds:
    """Kinds of expressions over the declared names; a define's kind and whether it depends on
    decisions are worked out once (and recursion is cut short: assumed static, of any kind)."""

    def __init__(self, declared: Declared, solved: bool = False):
        """`solved`: the decision variables are read at their solved values (a view's define,
        drawn after solving), so an index or a filter may depend on them."""
        self.solved = solved
        self.givens, self.vars = declared.givens, declared.vars
        self.defines, self.symbols = declared.defines, declared.symbols
        self._kind_cache: dict[str, str] = {}
        self._dynamic: dict[str, bool] = {}
        self._in_progress: set[str] = set()
        self._cell_arity: dict[str, int] = {}  # names bound to cells of a grid: how many numbers they hold

    # ---------------------------------------------------------------- known before solving?
    def static(self, e: A.Expr, scope: set[str], what: str) -> None:
        self.kind(e, scope)
        if self.dynamic(e, scope):
            raise PuzzleError(f"{what} must be known before solving, but this depends on decision variables", e.span)

    def dynamic(self, e: A.Expr, scope: set[str]) -> bool:
        if isinstance(e, A.Name):
            if e.id in scope:
                return False
            if e.id in self.vars:
                return not self.solved
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

    def filter(self, where: A.Expr | None, scope: set[str], kind: str | None = None) -> None:
        """A `where` is a condition known before solving."""
        if where is None:
            return
        self.expect(where, scope, BOOL, "`where`")
        if self.dynamic(where, scope):
            raise PuzzleError("a `where` filter must be known before solving, but this one depends on "
                              "decision variables", where.span,
                              "`reachable` fills before solving: filter by givens, and let a rule say which of the "
                              "cells reached hold (`connected(p in reachable(…): x[p])`)" if kind == "reachable" else
                              _WHERE_HELP.get(kind or "", "move the condition into the body, e.g. "
                                                          "`forall x in S: cond -> body`"))

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
            raise PuzzleError(f"{context} needs {WORDS[want]}, but this is {WORDS[k]}", e.span)
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
        if self.kind(e.operand, scope) == TUPLE:  # `-d`: an offset turned around
            return TUPLE
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
                raise PuzzleError(f"`{e.op}` needs numbers, but this is {WORDS[k]}", x.span)
        return INT

    def _k_Compare(self, e, scope):
        try:
            a, b = self.kind(e.left, scope), self.kind(e.right, scope)
        except PuzzleError as err:  # `dir[p] == down` with `down` in no legend: a symbol not declared
            bare = [x.id for x in (e.left, e.right) if isinstance(x, A.Name) and x.span == err.span]
            if bare and err.help is None and err.message == f"unknown name `{bare[0]}`":
                err.help = (f"if `{bare[0]}` is a symbol, declare it in a legend (`\"x\": {bare[0]}`) "
                            f"or with `symbol {bare[0]}`")
            raise
        if e.op not in ("==", "!="):
            for x, k, other in ((e.left, a, b), (e.right, b, a)):
                if k in (SYM, SET):
                    raise PuzzleError(f"`{e.op}` orders numbers, or tuples with tuples, but this is {WORDS[k]}",
                                      x.span)
                if k == TUPLE and other not in (TUPLE, ANY):
                    raise PuzzleError(f"`{e.op}` orders a tuple only with another tuple (lexicographically)", e.span)
        elif ANY not in (a, b) and {a, b} != {INT, BOOL} and a != b:
            if SYM in (a, b) and {a, b} & {INT, BOOL}:
                sym_side, other = (e.left, e.right) if a == SYM else (e.right, e.left)
                if self.dynamic(other, scope):
                    what = "a condition on decisions" if BOOL in (a, b) else "a number that depends on decisions"
                    example = self._symbol_example(sym_side)
                    raise PuzzleError(f"cannot compare {what} with a symbol", e.span,
                                      "a decision variable holds truth values or numbers, never symbols: compare "
                                      f"the symbol with a symbol, e.g. `black[p] == (g[p] == {example})`")
            help_ = None
            if SYM in (a, b) and INT in (a, b):
                sym_side = e.left if a == SYM else e.right
                example = self._symbol_example(sym_side)
                help_ = (f"a symbol is a name, not a number: compare with a symbol (`== {example}`), or, for "
                         "numbers, declare the grid `int` (a legend may map tokens to numbers)")
            raise PuzzleError(f"comparing {WORDS[a]} with {WORDS[b]} is never true", e.span, help_)
        return BOOL

    def _symbol_example(self, e: A.Expr) -> str:
        """A symbol to show in a help: this one, or one from the legend of the grid read here."""
        if isinstance(e, A.Name) and e.id in self.symbols:
            return e.id
        given = self.givens.get(e.base.id) if isinstance(e, A.Index) and isinstance(e.base, A.Name) else None
        names = [v.name for _, v in (given.legend or ()) if isinstance(v, A.SymValue)] if given else []
        return names[0] if names else "s"

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
            return type_kind(g.type) if not g.dims else ANY
        if n in self.vars:
            v = self.vars[n]
            return type_kind(v.type) if not v.dims else ANY
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
        outer, self._cell_arity = self._cell_arity, {}  # a define sees none of its caller's names
        try:
            return self.kind(d.body, set(d.params or ()))
        except PuzzleError as err:
            if err.message.startswith("unknown name") and err.help is None:
                name = err.message.split("`")[1]
                params = ", ".join([*(d.params or ()), name])
                err.help = (f"a define sees only its parameters and global names: to use a loop's `{name}`, "
                            f"pass it in, `define {d.name}({params}) = …`")
            raise
        finally:
            self._cell_arity = outer

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
                arity = len(e.indices) if len(e.indices) == len(decl.dims) else self._arity(e.indices, scope)
                ranged = all(isinstance(d, A.Range) for d in decl.dims)  # not `var pick[candidates]`
                if ranged and arity is not None and arity != len(decl.dims):  # `g[r]` for `g[r, c]`: never a row
                    n = len(decl.dims)
                    numbers = ", ".join("ijkl"[:n]) if n <= 4 else "…"
                    raise PuzzleError(f"`{base.id}` has {n} index(es), but {arity} were given", e.span,
                                      f"index it by all {n} numbers (`{base.id}[{numbers}]`) or by a cell "
                                      f"(`{base.id}[p]`, `p in cells({base.id})`)")
                return type_kind(decl.type) if arity == len(decl.dims) else ANY
            elif base.id in self.symbols and base.id not in self.defines:  # checked without data too
                raise PuzzleError(f"cannot index the symbol `{base.id}`: it is a value of a legend, not a grid",
                                  e.span, f"to read a grid at a cell, index the grid (`g[i]`); to compare with "
                                          f"the symbol, write `g[i] == {base.id}`")
        self.kind(base, scope)
        return ANY

    def _arity(self, items: list[A.Expr] | tuple[A.Expr, ...], scope: set[str]) -> int | None:
        """How many numbers these indices hold together, where that is known without data (`g[p]`
        with `p` a cell of a 2-D grid holds two): None where some index could be a tuple of any length."""
        total = 0
        for x in items:
            if isinstance(x, A.Name) and x.id in scope and x.id in self._cell_arity:
                total += self._cell_arity[x.id]
            elif isinstance(x, A.TupleLit):
                total += len(x.items)
            elif isinstance(x, A.Binary) and x.op in ("+", "-"):  # a cell moved by an offset: `p + d`
                sides = [self._arity([y], scope) for y in (x.left, x.right)]
                known = [n for n in sides if n is not None and n > 1]
                if not known:
                    return None
                total += known[0]
            elif isinstance(x, A.IntLit):
                total += 1
            else:
                return None
        return total

    def _bind_cells(self, b: A.Binding) -> None:
        """Note the names a binding makes cells of a declared grid (`p in cells(g)`, `(p, q) in
        adjacent(g)`, `q in neighbours(g, p)`, `region`, `ray`), and forget any such name it shadows."""
        for n in b.names:
            self._cell_arity.pop(n, None)
        src = b.source
        if not (isinstance(src, A.Call) and src.args and isinstance(src.args[0], A.Name)):
            return
        decl = self.givens.get(src.args[0].id) or self.vars.get(src.args[0].id)
        if decl is None or not decl.dims:
            return
        cells = (src.func in ("cells", "neighbours", "region", "ray") and len(b.names) == 1
                 or src.func == "adjacent" and b.is_tuple and len(b.names) == 2)
        if cells:
            for n in b.names:
                self._cell_arity[n] = len(decl.dims)
        elif src.func == "cells" and b.is_tuple and len(b.names) == len(decl.dims) > 1:  # `(r, c) in cells(g)`
            for n in b.names:
                self._cell_arity[n] = 1

    def _k_Call(self, e, scope):
        for a in e.args:
            self.kind(a, scope)
        if e.func in self.defines:
            d = self.defines[e.func]
            n = len(d.params or ())
            if n != len(e.args):
                raise define_arity(e.func, d.params or (), len(e.args), e.span)
            return self.define_kind(d)
        if e.func in BUILTINS:
            if len(e.args) not in BUILTIN_ARITY[e.func]:
                raise builtin_arity(e.func, len(e.args), e.span)
            if e.func == "abs" and self.dynamic(e.args[0], scope):
                raise PuzzleError(ABS_OF_DECISION, e.args[0].span, help=ABS_HELP)
            first = e.args[0] if e.args and isinstance(e.args[0], A.Name) and e.args[0].id not in scope else None
            decl = first is not None and (self.givens.get(first.id) or self.vars.get(first.id))
            if e.func in ("degree", "connected", "acyclic") and decl and decl.type.kind != "edges":
                raise PuzzleError(f"`{e.func}` takes an edge grid (`var NAME[..]: edges`), not the grid "
                                  f"`{first.id}`", first.span,
                                  "a grid of cells is connected by `connected(p in cells(g): g[p])`; an edge grid "
                                  "links neighbouring cells (docs/language.md §18)")
            return {"len": INT, "abs": INT, "known": BOOL, "inside": BOOL, "degree": INT, "connected": BOOL,
                    "acyclic": BOOL, "size": INT}.get(e.func, SET)
        if e.func in self.givens or e.func in self.vars:
            raise PuzzleError(f"`{e.func}` is not a function; index it with `{e.func}[...]`", e.func_span)
        raise unknown_name(e.func, e.func_span, list(self.defines) + sorted(BUILTINS) + list(AGGREGATES))

    def _k_Aggregate(self, e, scope):
        outer = dict(self._cell_arity)
        try:
            return self._aggregate(e, scope)
        finally:
            self._cell_arity = outer

    def _aggregate(self, e, scope):
        inner = set(scope)
        for b in e.bindings:
            self.kind(b.source, inner)
            if self.dynamic(b.source, inner) and b.names != VALUES_BINDING:  # `max(a, b)` lists values
                raise PuzzleError("the set to range over must be known before solving", b.source.span,
                                  _DYNAMIC_SET_HELP if _is_region(b.source) else
                                  _LISTED_HELP.format(kind=e.kind) if isinstance(b.source, A.ListLit | A.SetLit |
                                                                                 A.TupleLit) else None)
            inner |= set(b.names)
            self._bind_cells(b)
            self.take_while(b.while_, inner, e.kind)
            self.filter(b.where, inner, e.kind)
        self.filter(e.where, inner, e.kind)
        if e.kind == "reachable":
            self.static(e.bound, scope, "the starts of `reachable`")
            self.kind(e.bound, scope)
        elif e.bound is not None:
            self.static(e.bound, scope, "the bound")
            self.expect(e.bound, scope, INT, f"the bound of `{e.kind}`")
        if e.kind in ("all", "any", "count", "exactly", "atmost", "atleast", "connected", "acyclic", "runs"):
            self.expect(e.body, inner, BOOL, _agg_word(e.kind))
        elif e.kind in ("sum", "min", "max"):
            self.expect(e.body, inner, INT, _agg_word(e.kind))
            if (e.kind == "sum" and self.dynamic(e.body, inner)
                    and any(b.while_ is not None and self.dynamic(b.while_, inner) for b in e.bindings)):
                raise PuzzleError(SUM_WHILE, e.body.span, SUM_WHILE_HELP)
        else:
            self.kind(e.body, inner)
        if e.kind in ("sum", "count", "min", "max"):
            return INT
        return SET if e.kind in ("list", "set", "runs", "reachable") else BOOL


def _agg_word(kind: str) -> str:
    return {"all": "`forall`", "any": "`exists`"}.get(kind, f"`{kind}`")


def type_kind(t: A.TypeRef) -> str:
    return {"bool": BOOL, "int": INT, "sym": SYM, "range": INT, "edges": BOOL, "list": SET}[t.kind]


_LISTED_HELP = ("a list that holds decisions is not ranged over; give them as arguments: `{kind}(a, b, not c)` "
                "(docs §8)")
_DYNAMIC_SET_HELP = ("a region of a decision grid is not known before solving: compare its size at a rule's top "
                     "(`size(region(g, p)) == n`, docs §11), or give each cell a label variable and count "
                     "the cells that share it")


def _is_region(e: object) -> bool:
    return isinstance(e, A.Call) and e.func == "region"


_WHERE_HELP = {  # a decision in the `where` of an aggregate: what to write instead
    "count": "move the condition into the body: `count(x in S: cond and body)`",
    "sum": "move the condition into the body: `sum(x in S: if cond then v else 0)` for a known `v`, or "
           "`sum(v in LO..HI: v * (y == v and cond))` for a decision number `y`",
    "alldiff": "say it per value instead: `forall v in LO..HI: count(x in S: y[x] == v and cond) <= 1`",
    "any": "move the condition into the body: `exists(x in S: cond and body)`",
    **{k: f"move the condition into the body: `{k}(n, x in S: cond and body)`"
       for k in ("atmost", "atleast", "exactly")},
    **{k: f"move the condition after the colon: `{k}(p in S: cond)` holds for the items where `cond` does"
       for k in ("connected", "acyclic")},
}
