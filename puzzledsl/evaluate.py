"""Re-checking a solution against the rules, with none of the compiler's machinery.

Every solution puzzledsl reports comes out of grounding, encoding and a solver; a bug in any of
them could turn into a wrong answer that looks right. This module reads the rules once more,
as the language reference (docs/language.md) defines them, over the finished solution's
values: plain Python integers, truth values and lists, no formulas, no clauses. It imports no
grounding or encoding code (only the parsed rules, the value containers and their neighbour
helper), so a mistake there cannot hide here. How values compare and what grids and graphs
hold is read in `evaluate_grids.py`. `broken_rules` names every rule a solution breaks; an empty list is
the re-check passing. Rules it cannot read (a plan's `state`) are reported as unchecked.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterator

from .evaluate_grids import (
    GridCells,
    Unreadable,
    cells_break,
    distinct,
    graph_break,
    index,
    inside,
    neighbours,
    number,
    ordered,
    plain_key,
    region,
    run_lengths,
    same,
    truth,
    variants,
)
from .joins import Joins
from .syntax import ast as A
from .values import EdgeGrid, Grid, Symbol, cell_pair, ray_cells, reachable_items

DIRECTIONS = {"orth": [(-1, 0), (0, 1), (1, 0), (0, -1)], "diag": [(-1, -1), (-1, 1), (1, 1), (1, -1)],
              "king": [(-1, -1), (-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1)]}
ORDER = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}
_MISSING = object()
ARITH = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.floordiv, "%": operator.mod}


def broken_rules(program: A.Program, givens: dict[str, object], solution: dict[str, object],
                 symbols: dict[str, Symbol]) -> tuple[list[str], list[str]]:
    """(rules the solution breaks, rules that could not be read), each as `label at file:line:col`."""
    ev = Evaluator(program, givens, solution, symbols)
    broken, unread = [], []
    for st in program.statements:
        if not isinstance(st, A.Rule):
            continue
        where = f"{'“' + st.label + '”' if st.label else 'a rule'} at {st.body.span}"
        ev.graph_detail = None
        try:
            if truth(ev.ev(st.body, {})) is not True:
                broken.append(where + (f" ({ev.graph_detail})" if ev.graph_detail else ""))
        except Unreadable:
            unread.append(where)
        except (KeyError, IndexError, TypeError, ValueError, ZeroDivisionError, RecursionError):
            unread.append(where)
    ev._fns.clear()  # the readers refer back to the evaluator: freed now, not by the cyclic collector
    return broken, unread


class Evaluator:
    def __init__(self, program: A.Program, givens: dict[str, object], solution: dict[str, object],
                 symbols: dict[str, Symbol]):
        self.defines = {st.name: st for st in program.statements if isinstance(st, A.Define)}
        if any(isinstance(st, A.Var) and st.state for st in program.statements):
            raise Unreadable("plans")
        self.values: dict[str, object] = {**symbols, **givens, **solution}
        self.memo: dict[tuple, object] = {}
        self.cells = GridCells()
        self._lookups: dict[int, tuple[A.Logic, tuple[int, ...]]] = {}  # id(node) -> (node, item indices)
        self._fns: dict[int, Callable[[dict], object]] = {}  # id(node) -> its reader (the rules outlive this)
        self.joins = Joins()  # filters by equality answered from an index of the list
        self.graph_detail: str | None = None  # where the last graph rule read false broke (`chosen_graph`)

    def ev(self, e: A.Expr, env: dict) -> object:
        """The value of `e`. Each node is read by a function made for it at its first read (a
        method per node kind; names, lookups, arithmetic, comparisons and define calls as
        closures over their parts): a large board reads millions of nodes."""
        f = self._fns.get(id(e))
        if f is None:
            f = self.reader_of(e)
        return f(env)

    def reader_of(self, e: A.Expr) -> Callable[[dict], object]:
        f = self._fns.get(id(e))
        if f is None:
            f = self._fns[id(e)] = self.reader(e)
        return f

    def reader(self, e: A.Expr) -> Callable[[dict], object]:  # noqa: C901 - one case per node kind
        t, of = type(e), self.reader_of
        if t is A.IntLit or t is A.BoolLit:
            value = e.value
            return lambda env: value
        if t is A.Name:
            n, name = e.id, self.name
            if n not in self.defines and n in self.values:  # a given, a solved grid or a symbol: read once
                const = name(n, {})
                return lambda env: env[n] if n in env else const
            return lambda env: env[n] if n in env else name(n, env)
        if t is A.Index:
            return self.index_reader(e)
        if t is A.Binary:
            op, left, right, arith = e.op, of(e.left), of(e.right), self.arith

            def binary(env: dict) -> object:
                a, b = left(env), right(env)
                ta = type(a)
                if ta is int and type(b) is int and op in "+-*":
                    return a + b if op == "+" else a - b if op == "-" else a * b
                if ta is tuple and type(b) is tuple and len(a) == 2 == len(b) and op in "+-":  # cell offsets
                    a0, a1 = a
                    b0, b1 = b
                    if type(a0) is int and type(a1) is int and type(b0) is int and type(b1) is int:
                        return (a0 + b0, a1 + b1) if op == "+" else (a0 - b0, a1 - b1)
                return arith(op, a, b)
            return binary
        if t is A.Compare:
            op, left, right = e.op, of(e.left), of(e.right)
            if op in ("==", "!="):
                equal = op == "=="

                def compare(env: dict) -> bool:
                    a, b = left(env), right(env)
                    ta = type(a)
                    if ta is type(b) and (ta is int or ta is Symbol or ta is str):
                        return (a == b) == equal
                    return same(a, b) == equal
                return compare
            order = ORDER[op]
            return lambda env: order(ordered(left(env)), ordered(right(env)))
        if t is A.Not:
            operand = of(e.operand)
            return lambda env: not truth(operand(env))
        if t is A.Logic and not self.lookups_after_first(e):
            return self.logic_reader(e)
        if t is A.Ite:  # the branch not taken may be one this module cannot read: read only when taken
            cond, then, other = of(e.cond), self.deferred(e.then), self.deferred(e.other)
            return lambda env: (then if truth(cond(env)) else other)(env)
        if t is A.Call and e.func in self.defines:
            d, parts, memo, name = self.defines[e.func], [of(a) for a in e.args], self.memo, e.func
            params = d.params or ()
            if len(parts) in (1, 2):  # the usual define of a cell or two numbers, without the general tuple
                return self.small_call(d, parts)

            def call(env: dict) -> object:
                args = tuple([a(env) for a in parts])
                try:
                    key = (name, *args)
                    hash(key)
                except TypeError:
                    key = (name, repr(args))
                v = memo.get(key, _MISSING)
                if v is _MISSING:
                    v = memo[key] = of(d.body)(dict(zip(params, args, strict=True)))
                return v
            return call
        if t is A.Call and (e.func == "known" and len(e.args) == 1 or e.func == "inside" and len(e.args) == 2):
            return self.cell_call(e)
        method = _NODES.get(t)
        if method is None:
            raise Unreadable(t.__name__)
        return lambda env: method(self, e, env)

    def small_call(self, d: A.Define, parts: list[Callable[[dict], object]]) -> Callable[[dict], object]:
        """A call of a define of one or two parameters, remembered by its arguments (as `call`)."""
        memo, name, of, params = self.memo, d.name, self.reader_of, d.params or ()

        def body(args: tuple) -> object:
            try:
                key: tuple = (name, *args)
                v = memo.get(key, _MISSING)
            except TypeError:  # a list argument
                key = (name, repr(args))
                v = memo.get(key, _MISSING)
            if v is _MISSING:
                v = memo[key] = of(d.body)(dict(zip(params, args, strict=True)))
            return v
        if len(parts) == 1:
            (f0,) = parts

            def call1(env: dict) -> object:
                a = f0(env)
                try:
                    v = memo.get((name, a), _MISSING)
                except TypeError:
                    v = _MISSING
                return body((a,)) if v is _MISSING else v
            return call1
        f0, f1 = parts

        def call2(env: dict) -> object:
            a, b = f0(env), f1(env)
            try:
                v = memo.get((name, a, b), _MISSING)
            except TypeError:
                v = _MISSING
            return body((a, b)) if v is _MISSING else v
        return call2

    def cell_call(self, e: A.Call) -> Callable[[dict], object]:
        """`known(x)` and `inside(g, p)`, read in every instance of many rules, without `call`'s
        chain of cases."""
        if e.func == "known":
            (x,) = [self.reader_of(a) for a in e.args]
            return lambda env: x(env) is not None
        g, p = [self.reader_of(a) for a in e.args]

        def inside_(env: dict) -> bool:
            grid, q = g(env), p(env)
            if not isinstance(grid, Grid):
                raise Unreadable("`inside` of something that is not a grid")
            return inside(grid, q if isinstance(q, tuple) else (q,))
        return inside_

    def index_reader(self, e: A.Index) -> Callable[[dict], object]:
        """`x[p]`, `x[r, c]`, `x[p, i]` of a plain grid read straight from its cells (a cell that is
        there is inside the grid); anything else, and every cell not there, through `index`."""
        base, parts = self.reader_of(e.base), [self.reader_of(x) for x in e.indices]
        if len(parts) == 1:
            (part,) = parts

            def index1(env: dict) -> object:
                b, k = base(env), part(env)
                tb = type(b)
                if tb is Grid and not b.keyed:
                    v = b.cells.get(k if type(k) is tuple else (k,), _MISSING)
                    if v is not _MISSING:
                        return v
                elif (tb is list or tb is tuple) and type(k) is int:
                    return b[k]
                return index(b, [k])
            return index1
        if len(parts) == 2:
            p0, p1 = parts

            def index2(env: dict) -> object:
                b, k0, k1 = base(env), p0(env), p1(env)
                tb = type(b)
                if tb is Grid and not b.keyed or tb is EdgeGrid and b.boundary != "wrap":  # an edge: both orders
                    v = b.cells.get((k0 if type(k0) is tuple else (k0,)) + (k1 if type(k1) is tuple else (k1,)),
                                    _MISSING)
                    if v is not _MISSING:
                        return v
                return index(b, [k0, k1])
            return index2
        return lambda env: index(base(env), [x(env) for x in parts])

    def _tuple(self, e: A.TupleLit, env: dict) -> tuple:
        return tuple(self.ev(x, env) for x in e.items)

    def _list(self, e: A.ListLit, env: dict) -> list:
        return [self.ev(x, env) for x in e.items]

    def _set(self, e: A.SetLit, env: dict) -> list:
        return distinct([self.ev(x, env) for x in e.items])

    def _range(self, e: A.Range, env: dict) -> range:
        return range(number(self.ev(e.lo, env)), number(self.ev(e.hi, env)) + 1)

    def _neg(self, e: A.Neg, env: dict) -> object:
        v = self.ev(e.operand, env)
        return tuple(-number(x) for x in v) if isinstance(v, tuple) else -number(v)

    def _ite(self, e: A.Ite, env: dict) -> object:
        return self.ev(e.then if truth(self.ev(e.cond, env)) else e.other, env)

    def name(self, n: str, env: dict) -> object:
        if n in env:
            return env[n]
        d = self.defines.get(n)
        if d is not None and not d.params:
            key = (n,)
            if key not in self.memo:
                self.memo[key] = self.ev(d.body, {})
            return self.memo[key]
        if n in self.values:
            v = self.values[n]
            return v.cells.get(()) if isinstance(v, Grid) and not v.dims else v
        if n in DIRECTIONS:
            return DIRECTIONS[n]
        raise Unreadable(f"unknown name {n}")

    def arith(self, op: str, a: object, b: object) -> object:
        if type(a) is list and type(b) is list and op == "+":
            return a + b  # lists join
        if isinstance(a, tuple) and isinstance(b, tuple) and op in "+-":
            f = operator.add if op == "+" else operator.sub
            return tuple(f(number(x), number(y)) for x, y in zip(a, b, strict=True))
        return ARITH[op](number(a), number(b))

    def logic(self, e: A.Logic, env: dict) -> bool:
        if e.op in ("and", "or"):
            stop = e.op == "or"  # the value that decides the whole
            known: dict[int, bool] = {}
            for i in self.lookups_after_first(e):  # a lookup that decides it spares the costly items before it
                try:
                    v = truth(self.ev(e.items[i], env))
                except (Unreadable, LookupError, TypeError, ValueError):
                    break  # guarded by an item before it: read them in order
                if v is stop:
                    return stop
                known[i] = v
            for i, x in enumerate(e.items):
                v = known[i] if i in known else truth(self.ev(x, env))
                if v is stop:
                    return stop
            return not stop
        a = truth(self.ev(e.items[0], env))
        if e.op == "implies":
            return not a or truth(self.ev(e.items[1], env))
        return a == truth(self.ev(e.items[1], env))  # iff

    def logic_reader(self, e: A.Logic) -> Callable[[dict], object]:
        """`and`/`or` read in order, `->` and `==` of conditions: as `logic` does, without its
        cases on every read. An item this module cannot read fails only when it is read (a first
        item may always decide)."""
        fs = [self.deferred(x) for x in e.items]
        if e.op in ("and", "or"):
            stop = e.op == "or"

            def and_or(env: dict) -> bool:
                for f in fs:
                    v = f(env)
                    if v is not True and v is not False:
                        v = truth(v)
                    if v is stop:
                        return stop
                return not stop
            return and_or
        a, b = fs
        if e.op == "implies":
            return lambda env: not truth(a(env)) or truth(b(env))
        return lambda env: truth(a(env)) == truth(b(env))

    def deferred(self, e: A.Expr) -> Callable[[dict], object]:
        """`e`'s reader, or one that raises when read if `e` cannot be read."""
        try:
            return self.reader_of(e)
        except Unreadable as err:
            why = str(err)  # `err` itself is unbound once the `except` ends

            def unreadable(env: dict) -> object:
                raise Unreadable(why)
            return unreadable

    # ---------------------------------------------------------------- calls
    def call(self, e: A.Call, env: dict) -> object:  # noqa: C901 - one case per built-in
        f = e.func
        d = self.defines.get(f)
        if d is not None:
            args = tuple(self.ev(a, env) for a in e.args)
            try:
                key = (f, *args)
                hash(key)
            except TypeError:
                key = (f, repr(args))
            if key not in self.memo:
                self.memo[key] = self.ev(d.body, dict(zip(d.params or (), args, strict=True)))
            return self.memo[key]
        args = [self.ev(a, env) for a in e.args]
        x = args[0] if args else None
        if f == "known":
            return x is not None
        if f == "abs":
            return abs(number(x))
        if f == "len":
            return len(x.dims[0]) if isinstance(x, Grid) else len(x)  # type: ignore[arg-type]
        if f == "sorted":
            return sorted(number(v) for v in x)  # type: ignore[union-attr]
        if f in ("variants", "rotations"):
            return variants(x, f == "variants")
        if f == "size":
            return len(x)  # type: ignore[arg-type]
        if not isinstance(x, Grid):
            raise Unreadable(f"`{f}` of something that is not a grid")
        one = (lambda k: k[0] if len(k) == 1 else k)  # noqa: E731
        if f == "cells" and len(args) == 2:
            groups, at = self.cells.groups(x)
            plain = plain_key(args[1])
            if plain is not None:
                return list(at.get(plain, ()))
            return next((list(cells) for v, cells in groups if same(v, args[1])), [])
        if f == "cells":
            return self.cells.keys(x)
        if f == "region":
            return region(x, args[1] if isinstance(args[1], tuple) else (args[1],))
        if f == "values":
            found = [v for v, _ in self.cells.by_value(x)]
            return sorted(found) if all(type(v) is int for v in found) else found
        if f in ("rows", "cols"):
            return x.dims[0 if f == "rows" else 1]
        if f == "dim":
            return x.dims[number(args[1]) - 1]
        if f == "inside":
            return inside(x, args[1] if isinstance(args[1], tuple) else (args[1],))
        if f == "adjacent":
            pairs = []
            for k in self.cells.keys(x):
                p = k if isinstance(k, tuple) else (k,)
                pairs += [(one(p), one(q)) for q in neighbours(x, p) if p < q]
            return pairs
        if f == "neighbours":
            p = args[1] if isinstance(args[1], tuple) else (args[1],)
            return self.cells.neighbours(x, p)
        if f == "ray":
            p, d = (a if isinstance(a, tuple) else (a,) for a in args[1:3])
            return [one(q) for q in ray_cells(x.dims, p, d, x.boundary == "wrap", args[3] if len(args) == 4 else None)]
        if f == "degree":
            p = args[1] if isinstance(args[1], tuple) else (args[1],)
            return sum(index(x, [p, q]) is True for q in neighbours(x, p))
        if f in ("connected", "acyclic") and isinstance(x, EdgeGrid):
            return self.edge_graph(x, f)
        raise Unreadable(f"the built-in `{f}`")

    def edge_graph(self, g: EdgeGrid, kind: str) -> bool:
        return self.chosen_graph([(p, q) for p, q in g.edges if index(g, [p, q]) is True], kind)  # each once

    def chosen_graph(self, chosen: list[tuple[object, object]], kind: str) -> bool:
        """Whether the chosen edges hold no cycle (`acyclic`), or are one piece (`connected`).
        When not, `self.graph_detail` says where (a closed loop's nodes, the pieces)."""
        self.graph_detail = graph_break(chosen, kind)
        return self.graph_detail is None

    # ---------------------------------------------------------------- aggregates
    def bindings(self, bs: tuple[A.Binding, ...], where: A.Expr | None, env: dict) -> Iterator[dict]:
        """Each binding of the names, as one scope that is updated in place: every caller
        evaluates a binding's body before asking for the next one (a copy per binding was
        most of this module's time on large boards)."""
        return self._bind(bs, 0, where, dict(env))

    def _bind(self, bs: tuple[A.Binding, ...], i: int, where: A.Expr | None, scope: dict) -> Iterator[dict]:
        if i == len(bs):
            if where is None or truth(self.ev(where, scope)):
                yield scope
            return
        b = bs[i]
        source = self.ev(b.source, scope)
        if isinstance(source, Grid):
            source = self.cells.keys(source)
        w = b.where if i + 1 < len(bs) else where
        spec = self.joins.spec(b, w)
        if spec is not None:
            source = self.joins.lookup(source, spec[0], self.joins.value(lambda: self.ev(spec[1], scope)))
        # a filter's `F == E` too, as grounding reads it (a new user's piece-placement re-check
        # scanned 25,000 placements per cell: 0.95 s)
        source = self.joins.grouped(source, b, w, scope, self._outer, self.ev)
        names, last = b.names, i + 1 == len(bs) and where is None
        name = None if b.is_tuple else names[0]
        while_ = None if b.while_ is None else self.reader_of(b.while_)
        filter_ = None if b.where is None else self.reader_of(b.where)
        for v in source:  # type: ignore[union-attr]
            if name is None:
                scope.update(zip(names, v, strict=True))
            else:
                scope[name] = v
            if while_ is not None and not truth(while_(scope)):
                break
            if filter_ is not None and not truth(filter_(scope)):
                continue
            if last:
                yield scope
            else:
                yield from self._bind(bs, i + 1, where, scope)

    def _outer(self, n: str) -> bool:
        """A name that reads the same in any scope: a define, a given, a solved grid, a symbol."""
        return n in self.defines or n in self.values or n in DIRECTIONS

    def reachable(self, e: A.Aggregate, env: dict) -> list:
        """`reachable(STARTS, p in S where F)`, F asked only where the fill arrives."""
        b = e.bindings[0]
        wheres = [self.reader_of(w) for w in (b.where, e.where) if w is not None]
        source = self.ev(b.source, env)
        items = list(self.cells.keys(source) if isinstance(source, Grid) else source)  # type: ignore[arg-type]
        scope = dict(env)

        def ok(item: object) -> bool:
            if b.is_tuple:
                scope.update(zip(b.names, item, strict=True))  # type: ignore[call-overload]
            else:
                scope[b.names[0]] = item
            return all(truth(w(scope)) for w in wheres)
        return reachable_items(items, self.ev(e.bound, env), e.span, ok)

    def aggregate(self, e: A.Aggregate, env: dict) -> object:  # noqa: C901 - one case per kind
        k = e.kind
        if k == "all" and e.where is not None and not any(b.where for b in e.bindings) and cheap(e.body):
            return self.all_body_first(e, env)
        if k == "reachable":
            return self.reachable(e, env)
        envs = self.bindings(e.bindings, e.where, env)
        body = self.reader_of(e.body)
        if k == "all":
            return all(truth(body(x)) for x in envs)
        if k == "any":
            return any(truth(body(x)) for x in envs)
        if k in ("connected", "acyclic"):
            if len(e.bindings) != 1:
                raise Unreadable(f"{k} over several bindings")
            b = e.bindings[0]
            named = b.names[0] if b.is_tuple and len(b.names) > 2 else None  # `(e, x, y)`: the edge is e
            items = [x[named] if named else tuple(x[n] for n in b.names) if b.is_tuple else x[b.names[0]]
                     for x in envs if truth(self.ev(e.body, x))]
            if k == "acyclic" or items and all(cell_pair(x) for x in items):  # edges (p, q), nodes of any kind
                return self.chosen_graph([(p, q) for p, q in items], k)  # type: ignore[misc]
            return self.cells_connected([c if isinstance(c, tuple) else (c,) for c in items])
        items = [body(x) for x in envs]
        if k == "list":
            return items
        if k == "set":
            return distinct(items)
        if k == "count":
            return sum(truth(v) for v in items)
        if k == "sum":
            return sum(number(v) for v in items)
        if k in ("min", "max"):
            nums = [number(v) for v in items]
            return min(nums) if k == "min" else max(nums)
        if k == "alldiff":
            return all(not same(a, b) for i, a in enumerate(items) for b in items[i + 1:])
        if k == "runs":
            return run_lengths([truth(v) for v in items], e.cyclic)
        if k in ("exactly", "atmost", "atleast"):
            n = sum(truth(v) for v in items)
            bound = number(self.ev(e.bound, env))  # type: ignore[arg-type]
            return {"exactly": n == bound, "atmost": n <= bound, "atleast": n >= bound}[k]
        raise Unreadable(f"the aggregate `{k}`")

    def lookups_after_first(self, e: A.Logic) -> tuple[int, ...]:
        """The items of an `and`/`or` worth reading first: lookups behind a costlier first item."""
        found = self._lookups.get(id(e))
        if found is None or found[0] is not e:
            first = () if cheap(e.items[0]) else tuple(i for i, x in enumerate(e.items) if i and cheap(x))
            found = self._lookups[id(e)] = (e, first)
        return found[1]

    def all_body_first(self, e: A.Aggregate, env: dict) -> bool:
        """`forall … where W: B` with B a lookup (`not placed[p, i]`): an instance whose B holds
        holds whatever W says, so W (often a costly define) is read only where B fails. A B
        that cannot be read there (W guards it) falls back to reading W first."""
        for x in self.bindings(e.bindings, None, env):
            try:
                if truth(self.ev(e.body, x)):
                    continue
            except (Unreadable, LookupError, TypeError, ValueError):
                pass
            if truth(self.ev(e.where, x)) and not truth(self.ev(e.body, x)):  # type: ignore[arg-type]
                return False
        return True

    def cells_connected(self, cells: list[tuple]) -> bool:
        """Whether the cells are one orthogonally connected piece (none or one: true); when not,
        `self.graph_detail` names the pieces."""
        self.graph_detail = cells_break(cells)
        return self.graph_detail is None


_NODES = {A.TupleLit: Evaluator._tuple, A.ListLit: Evaluator._list, A.SetLit: Evaluator._set,
          A.Range: Evaluator._range, A.Neg: Evaluator._neg, A.Logic: Evaluator.logic, A.Ite: Evaluator._ite,
          A.Call: Evaluator.call, A.Aggregate: Evaluator.aggregate}  # the other kinds: `Evaluator.reader`


def cheap(e: A.Expr) -> bool:
    """A grid lookup at cell arithmetic, maybe negated (`not placed[p - o, i]`): cheaper to
    read than most filters and defines."""
    x = e.operand if isinstance(e, A.Not) else e
    return isinstance(x, A.Index) and isinstance(x.base, A.Name) and all(_arithmetic(i) for i in x.indices)


def _arithmetic(e: A.Expr) -> bool:
    if isinstance(e, A.Name | A.IntLit):
        return True
    if isinstance(e, A.TupleLit):
        return all(_arithmetic(x) for x in e.items)
    if isinstance(e, A.Binary):
        return e.op in "+-" and _arithmetic(e.left) and _arithmetic(e.right)
    return isinstance(e, A.Neg) and _arithmetic(e.operand)


class WrongAnswer(RuntimeError):
    """A solution the compiler reported breaks a rule: a bug in puzzledsl, never in the input."""


def recheck(compiled: object, solutions: list[dict]) -> int:
    """Re-check reported solutions against the rules; the number checked (0 for a plan).
    Raises WrongAnswer, naming the rule, when one breaks a rule."""
    program, givens, symbols = compiled.program, compiled.givens, compiled.symbols  # type: ignore[attr-defined]
    if getattr(compiled, "plan", None) is not None:
        return 0
    for i, sol in enumerate(solutions, 1):
        try:
            broken, _ = broken_rules(program, givens, sol, symbols)
        except Unreadable:
            return 0
        if broken:
            raise WrongAnswer(f"solution {i} breaks {broken[0]} when the rules are read again over it: "
                              "a bug in puzzledsl (the answer is withheld); please report it")
    return len(solutions)

