"""Grounding: bindings (`where`, `while`) and aggregates (`forall`, `exists`, `count`, `sum`,
`connected`, `alldiff`, …), each turned into a formula, a linear term or a graph rule."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import islice
from typing import TYPE_CHECKING

from . import limits
from .closures import GUARD, make_fn
from .errors import PuzzleError, Span
from .ground_common import (
    GRAPH_KINDS,
    GUARDED_KINDS,
    SUM_WHILE,
    SUM_WHILE_HELP,
    Graph,
    _count_terms,
    _deep_static,
    _distinct,
    _eq,
    _is_static,
    _region_misuse,
    too_many_items,
)
from .ground_regions import RegionOf
from .runs import Runs
from .syntax import ast as A
from .values import (
    MISSING,
    Cond,
    Grid,
    IntVarCell,
    Lin,
    _cond,
    binding_text,
    cell_pair,
    describe,
    reachable_items,
    written,
)

if TYPE_CHECKING:
    from .model import Model


def edge_of(b: A.Binding, env: dict) -> object:
    """The edge a graph rule's binding names: its item, `(p, q)` or `e`; with three names or more,
    `(e, x, y)`, the first (the others are for the condition)."""
    if b.is_tuple and len(b.names) > 2:
        return env[b.names[0]]
    return tuple(env[n] for n in b.names) if b.is_tuple else env[b.names[0]]


_EDGE_FIRST = ("with more names than two, the first is the whole edge, a pair of nodes: "
               "`acyclic((e, x, y) in L: …)` with items `((p, q), x, y)` (docs §18)")


def _shape(v: object) -> object:
    """A value's make-up, to tell a node from an edge: `(3, 2)` and `(1, 4)` alike, `((0, 1), (1, 0))` not."""
    return tuple(_shape(x) for x in v) if isinstance(v, tuple) else type(v)


def _edge_named_first(kind: str, b: A.Binding, env: dict) -> None:
    """`acyclic((a, b, p, s) in L: …)` takes `a` for the edge; where `a` and `b` are values of one
    make-up (two corners), the rule meant them as the edge's two ends: an error, not a graph whose
    nodes are the corners' coordinates."""
    one, two = env[b.names[0]], env[b.names[1]]
    if isinstance(one, tuple) and len(one) == 2 and _shape(one) == _shape(two):
        raise PuzzleError(f"`{kind}` takes `{b.names[0]}` = {written(one)} for the edge, from {written(one[0])} to "
                          f"{written(one[-1])}; but `{b.names[1]}` = {written(two)} looks like it is the edge's "
                          f"other end", b.source.span, _EDGE_FIRST)


class Aggregates:
    """The `Grounder`'s bindings and aggregates (a mixin: it shares the grounder's state)."""

    def iter_bindings(self, bindings: tuple[A.Binding, ...], where: A.Expr | None, env: dict,
                      scoped: bool = False, guarded: bool = False) -> Iterator[dict]:
        """The environments of the bindings that pass their filters. `scoped` (a rule's own
        `forall`): what each item's filter reads of the clues is its own (`ReadLog`). A `while`
        ends a binding's run at the first item where it is false; one that depends on decisions
        (`guarded` callers only) leaves under `GUARD` the condition "every `while` so far held"."""
        env = dict(env)
        env.pop(GUARD, None)  # an enclosing aggregate's guard is not this one's
        last = len(bindings) - 1
        if last < 0:
            return iter([env] if where is None or self.passes(where, env) else [])
        reads = self.reads if scoped else None
        if reads is None and self.frozen and all(b.while_ is None for b in bindings):
            return self._plain_bindings(bindings, where, env)

        def rec(i: int, guard: int | bool, again) -> Iterator[dict]:  # the innermost binding yields itself
            b = bindings[i]
            name = None if b.is_tuple else b.names[0]
            items = self.iterable(self.ev(b.source, env), b.source.span)
            spec = self.joins.spec(b, b.where if i < last else where) if reads is None else None
            if spec is not None:
                items = self.joins.lookup(items, spec[0], self.joins.value(lambda: self.ev(spec[1], env)))
            mark = reads.mark() if reads is not None else None  # what the sources read holds for each item
            run = guard
            for item in items:
                if reads is not None:
                    reads.back(mark)
                if name is not None:
                    env[name] = item
                else:
                    if not isinstance(item, tuple) or len(item) != len(b.names):
                        raise PuzzleError(f"cannot unpack {describe(item)} into ({', '.join(b.names)})", b.span)
                    env.update(zip(b.names, item))
                if b.while_ is not None:
                    run = self.take_while(b.while_, env, run, guarded)
                    if run is False:
                        break
                    if run is True:
                        env.pop(GUARD, None)
                    else:
                        env[GUARD] = run
                if b.where is not None and not self.passes(b.where, env):
                    continue
                if i < last:
                    yield from again(i + 1, run, again)
                elif where is None or self.passes(where, env):
                    yield env

        return rec(0, True, rec)  # `again`: as in `_plain_bindings`

    def _plain_bindings(self, bindings: tuple[A.Binding, ...], where: A.Expr | None, env: dict) -> Iterator[dict]:
        """`iter_bindings` without `while` (the usual `forall r in 1..R, c in 1..C where …`),
        with each source and filter's closure looked up once."""
        fns = self._fns
        steps = []
        for b in bindings:
            for x in (b.source, b.where):
                if x is not None and x not in fns:
                    fns[x] = make_fn(self, x)
            steps.append((b.names[0] if not b.is_tuple else None, b, fns[b.source],
                          None if b.where is None else fns[b.where], b.where,
                          self._narrowing(b, b.where if b is not bindings[-1] else where)))
        if where is not None and where not in fns:
            fns[where] = make_fn(self, where)
        fwhere = None if where is None else fns[where]
        iterable, passes, last = self.iterable, self.passes, len(steps) - 1

        def ok(f, w: A.Expr) -> bool:
            try:
                v = f(env)
            except PuzzleError as err:  # a filter that fails names the loop values it failed at
                name_instance(err, env)
                raise
            return v if v is True or v is False else passes(w, env)

        if last == 1 and steps[0][0] is not None and steps[1][0] is not None:
            return self._two_plain_bindings(steps, ok, fwhere, where, env)

        # `again` is `rec` itself, passed down: a closure that names itself would be a reference
        # cycle, left for Python's cyclic collector with everything it reaches (the grounder)
        def rec(i: int, again, ok=ok) -> Iterator[dict]:  # `ok` a default: see closures.make_fn
            name, b, fsource, fw, w, narrow = steps[i]
            items = iterable(fsource(env), b.source.span)
            if narrow is not None:
                items = narrow(items, env)
            for item in items:
                if name is not None:
                    env[name] = item
                elif isinstance(item, tuple) and len(item) == len(b.names):
                    env.update(zip(b.names, item))
                else:
                    raise PuzzleError(f"cannot unpack {describe(item)} into ({', '.join(b.names)})", b.span)
                if fw is not None and not ok(fw, w):
                    continue
                if i < last:
                    yield from again(i + 1, again)
                elif fwhere is None or ok(fwhere, where):
                    yield env

        return rec(0, rec)

    def _two_plain_bindings(self, steps: list, ok, fwhere, where: A.Expr | None, env: dict) -> Iterator[dict]:
        """`_plain_bindings` of two names (`forall p in cells(g), i in 0..N`, the usual rule over cells
        and a second index) as two loops in one generator: no inner generator per outer item."""
        (n1, b1, fs1, fw1, w1, j1), (n2, b2, fs2, fw2, w2, j2) = steps
        iterable = self.iterable
        xs = iterable(fs1(env), b1.source.span)
        for x in (xs if j1 is None else j1(xs, env)):
            env[n1] = x
            if fw1 is not None and not ok(fw1, w1):
                continue
            ys = iterable(fs2(env), b2.source.span)
            for y in (ys if j2 is None else j2(ys, env)):
                env[n2] = y
                if fw2 is not None and not ok(fw2, w2):
                    continue
                if fwhere is None or ok(fwhere, where):
                    yield env

    def _narrowing(self, b: A.Binding, where: A.Expr | None) -> Callable[[object, dict], object] | None:
        """What the equalities of a binding's filter let an index skip (`joins.py`): the items whose
        bound name is E (`q == p`), then those whose F is E (`letters[a[0]] == k`, F an expression
        of the item: a new user's piece-placement rules filtered 25,000 placements by cell and
        letter), as a function of the items and the environment, built once per compile; None
        when the filter has no equality at all."""
        fns = self._fns
        made = fns.get(("narrow", id(b), id(where)), MISSING)
        if made is not MISSING:
            return made  # type: ignore[return-value]
        joins, narrow = self.joins, None

        # the functions below take each other as defaults, not from closure cells: see closures.make_fn
        def outer(n: str, g=self) -> bool:
            return n in g.defines or g.is_global(n)

        spec = joins.spec(b, where)
        if spec is not None or joins.keyed(b, where, outer) is not None:
            def read(x: A.Expr, env: dict, g=self, fns=fns) -> object:
                f = fns.get(x)
                if f is None:
                    f = fns[x] = make_fn(g, x)
                return f(env)

            fe = None if spec is None else (lambda env, x=spec[1], read=read: read(x, env))

            def narrow(items: object, env: dict, fe=fe, outer=outer, read=read) -> object:
                if fe is not None:
                    items = joins.lookup(items, spec[0], joins.value(lambda: fe(env)))  # type: ignore[index]
                return joins.grouped(items, b, where, env, outer, read)
        fns[("narrow", id(b), id(where))] = narrow  # type: ignore[index]
        return narrow

    def take_while(self, cond: A.Expr, env: dict, run: int | bool, guarded: bool) -> int | bool:
        """The condition that a `while` has held for every item up to this one."""
        f = self.formula(self.ev(cond, env), cond.span)
        if f is True or f is False or run is False:
            return run if f is True else False
        if not guarded:
            raise PuzzleError("this `while` depends on decision variables, which only `forall`, `exists`, "
                              "`count`, `sum`, `exactly`, `atmost`, `atleast` and `connected` allow", cond.span)
        return self.model.and_([run, f]) if run is not True else f

    def passes(self, where: A.Expr, env: dict) -> bool:
        """The value of a `where` filter, which must be known before solving."""
        try:
            w = self.ev(where, env)
        except PuzzleError as err:
            name_instance(err, env)
            raise
        if isinstance(w, Cond):
            raise PuzzleError("a `where` filter must be known before solving, but this one depends on "
                              "decision variables", where.span, "move the condition into the body, "
                              "e.g. `forall x in S: cond -> body`")
        if w is not True and w is not False:
            raise PuzzleError(f"a `where` filter is a condition, found {describe(w)}", where.span)
        return w

    def iterable(self, v: object, span: Span) -> list | range | tuple:
        if isinstance(v, range):
            limits.check("cells", limits.size(v), "this range has too many values to run over", span)
            return v
        if isinstance(v, list | tuple):
            return v
        if isinstance(v, Grid):
            return [k[0] if len(k) == 1 else k for k in v.keys()]
        if isinstance(v, RegionOf):
            raise _region_misuse(v)
        raise PuzzleError(f"cannot range over {describe(v)}", span, "use a range `a..b`, a list, or `cells(grid)`")

    def reachable(self, e: A.Aggregate, env: dict) -> list:
        """`reachable(STARTS, p in S where F)`, its filter asked only where the fill arrives (a
        region's reach over a large board reads a few cells, not all of them)."""
        b = e.bindings[0]
        wheres = [w for w in (b.where, e.where) if w is not None]
        starts = self.ev(e.bound, env)
        if self.reads is not None or b.while_ is not None:  # each item's reads scoped: the plain loop
            items = [self.ev(e.body, inner) for inner in self.iter_bindings(e.bindings, e.where, env)]
            return reachable_items(items, starts, e.span)
        inner = dict(env)
        inner.pop(GUARD, None)
        names, passes = b.names, self.passes

        def ok(item: object) -> bool:
            if b.is_tuple:
                inner.update(zip(names, item))  # type: ignore[call-overload]
            else:
                inner[names[0]] = item
            return all(passes(w, inner) for w in wheres)

        items = self.iterable(self.ev(b.source, env), b.source.span)
        if b.is_tuple and any(not isinstance(x, tuple) or len(x) != len(names) for x in items):
            raise PuzzleError(f"cannot unpack the items of this list into ({', '.join(names)})", b.span)
        return reachable_items(list(items), starts, e.span, ok)

    def _aggregate(self, e: A.Aggregate, env: dict) -> object:
        if e.kind == "reachable":
            return self.reachable(e, env)
        if e.kind in GRAPH_KINDS:
            return self._graph_aggregate(e, env)
        if any(b.while_ is not None for b in e.bindings):
            return self._guarded_aggregate(e, env)
        bound = limits.current().cells
        items = [self.ev(e.body, inner) for inner in islice(self.iter_bindings(e.bindings, e.where, env), bound + 1)]
        if len(items) > bound:
            too_many_items(e)
        return self.combine(e, items, env)

    def _guarded_aggregate(self, e: A.Aggregate, env: dict) -> object:
        """An aggregate with a `while` on decisions: an item counts only where its guard holds."""
        m, k, span = self.model, e.kind, e.body.span
        items = []
        bound = limits.current().cells
        for inner in self.iter_bindings(e.bindings, e.where, env, guarded=k in GUARDED_KINDS):
            v, guard = self.ev(e.body, inner), inner.get(GUARD, True)
            if guard is not True:
                if k == "all":
                    v = _cond(m.implies(guard, self.formula(v, span)))
                elif k == "sum":
                    n = self.lin(v, span)
                    if not isinstance(n, int):
                        raise PuzzleError(SUM_WHILE, span, SUM_WHILE_HELP)
                    v = Lin(0, {guard: n}) if n else 0
                else:
                    v = _cond(m.and_([guard, self.formula(v, span)]))
            items.append(v)
            if len(items) > bound:
                too_many_items(e)
        return self.combine(e, items, env)

    def combine(self, e: A.Aggregate, items: list, env: dict) -> object:
        """An aggregate's value from the values of its body, one per binding."""
        k = e.kind
        if k == "list":
            return items
        if k == "set":
            return _distinct(items)
        if k == "runs":
            return Runs(tuple(self.formula(v, e.body.span) for v in items), e.cyclic)
        m = self.model
        if k in ("all", "any"):
            fs = [self.formula(v, e.body.span) for v in items]
            return _cond(m.and_(fs) if k == "all" else m.or_(fs))
        if k in ("sum", "count"):  # summed in place: a long sum stays linear in its length
            const, terms, span = 0, {}, e.body.span
            if k == "count":
                for v in items:
                    f = self.formula(v, span)
                    if f is True:
                        const += 1
                    elif f is not False:
                        terms[f] = terms.get(f, 0) + 1
                return Lin(const, terms) if terms else const
            for v in items:
                lv = self.lin(v, span)
                if type(lv) is int:
                    const += lv
                    continue
                const += lv.const
                for h, c in lv.terms.items():
                    terms[h] = terms.get(h, 0) + c
            return Lin(const, terms) if terms else const
        if k in ("min", "max"):
            vals = [self.lin(v, e.body.span) for v in items]
            if any(not isinstance(v, int) for v in vals):
                raise PuzzleError(f"`{k}` needs values known before solving", e.body.span)
            if not vals:
                raise PuzzleError(f"`{k}` over an empty set", e.span,
                                  f"an empty `{k}` has no value: use it only where its set has items, by a "
                                  f"guard (`if … then {k}(…) else …`) or a `where` on the binding that reaches it")
            return min(vals) if k == "min" else max(vals)
        if k == "alldiff":
            return self.alldiff(items, e)
        bound = self.static_int(e.bound, env)
        fs = [self.formula(v, e.body.span) for v in items]
        cmp = {"exactly": "==", "atmost": "<=", "atleast": ">="}[k]
        return _cond(m.linear(_count_terms(fs), cmp, bound - sum(1 for f in fs if f is True)))

    def _graph_aggregate(self, e: A.Aggregate, env: dict) -> object:
        """`acyclic((p, q) in E: cond)`: the edges (p, q) of E where cond holds close no cycle; the
        nodes are any values. `connected` over such edges (each a pair of cells): the chosen
        edges are one piece. `connected(p in S: cond)` over cells is the other form."""
        if len(e.bindings) != 1:
            raise PuzzleError(f"`{e.kind}` takes one binding: `{e.kind}((p, q) in EDGES: …)`"
                              + (" or `connected(p in CELLS: …)`" if e.kind == "connected" else ""), e.span)
        b = e.bindings[0]
        chosen: list[tuple[object, object, int | bool]] = []
        first = True
        for inner in self.iter_bindings(e.bindings, e.where, env, guarded=True):
            item = edge_of(b, inner)
            if first and b.is_tuple and len(b.names) > 2:
                _edge_named_first(e.kind, b, inner)
                first = False
            if e.kind == "connected" and not cell_pair(item):
                return self._connected_cells(e, env)  # cells, the other form
            if not (isinstance(item, tuple) and len(item) == 2):
                raise PuzzleError(f"`acyclic` ranges over edges, pairs of nodes `(p, q)`; found {describe(item)}",
                                  b.source.span, _EDGE_FIRST if b.is_tuple and len(b.names) > 2 else None)
            f = self.formula(self.ev(e.body, inner), e.body.span)
            if GUARD in inner:
                f = self.model.and_([inner[GUARD], f])
            if f is not False:
                chosen.append((item[0], item[1], f))
        index: dict[object, int] = {}
        edges = []
        for p, q, f in chosen:
            if p == q:
                raise PuzzleError(f"`{e.kind}` over an edge from {written(p)} to itself", b.source.span,
                                  _EDGE_FIRST if b.is_tuple and len(b.names) > 2 else None)
            edges.append((index.setdefault(p, len(index)), index.setdefault(q, len(index)), f))
        if e.kind == "acyclic":
            return Graph("acyclic", [True] * len(index), edges, e.span)
        at: dict[int, list] = {}
        for i, j, f in edges:
            at.setdefault(i, []).append(f)
            at.setdefault(j, []).append(f)
        return Graph("connected", [self.model.or_(at.get(i, [])) for i in range(len(index))], edges, e.span)

    def _connected_cells(self, e: A.Aggregate, env: dict) -> object:
        """`connected(p in S: cond)`: the cells p where cond holds are one orthogonally connected piece."""
        members: dict[tuple, int | bool] = {}
        for inner in self.iter_bindings(e.bindings, e.where, env, guarded=True):
            b = e.bindings[0]
            item = inner[b.names[0]] if not b.is_tuple else tuple(inner[n] for n in b.names)
            key = item if isinstance(item, tuple) else (item,)
            if not all(type(i) is int for i in key):
                raise PuzzleError(f"`connected` ranges over cells (numbers or tuples of numbers), found "
                                  f"{describe(item)}", b.source.span)
            f = self.formula(self.ev(e.body, inner), e.body.span)
            if GUARD in inner:
                f = self.model.and_([inner[GUARD], f])
            if f is not False:
                members[key] = self.model.or_([members.get(key, False), f])
        if len(members) <= 1:
            return True
        keys = list(members)
        index = {k: i for i, k in enumerate(keys)}
        edges = []
        for k in keys:
            for axis in range(len(k)):
                q = k[:axis] + (k[axis] + 1,) + k[axis + 1:]
                if q in index:
                    edges.append((index[k], index[q], True))
        return Graph("connected", [members[k] for k in keys], edges, e.span)

    def alldiff(self, items: list, e: A.Aggregate) -> object:
        m = self.model
        for v in items:
            if isinstance(v, list | tuple | set | frozenset | range | Grid) and not _deep_static(v):
                raise PuzzleError(f"`alldiff` compares single values (numbers, symbols, conditions), "
                                  f"not {describe(v)} that depends on decisions", e.span,
                                  "list the values themselves: `alldiff(c in cells(g): g[c])`")
        if all(_is_static(v) for v in items):
            try:
                return len(set(items)) == len(items)
            except TypeError:  # lists or grids of known values: compare them pairwise
                return not any(_eq(a, b) for i, a in enumerate(items) for b in items[i + 1:])
        if all(isinstance(v, IntVarCell) and not v.binary or (isinstance(v, int) and not isinstance(v, bool))
               for v in items):
            by_value: dict[int, list] = {}
            for v in items:
                if isinstance(v, int):
                    by_value.setdefault(v, []).append(True)
                else:
                    for i, h in enumerate(v.handles):
                        by_value.setdefault(v.lo + i, []).append(h)
            return _cond(m.and_(_once_each(m, by_value)))
        parts = []
        for i in range(len(items)):
            for j in range(i + 1, len(items)):
                parts.append(self.formula(self.compare("!=", items[i], items[j], e), e.span))
        return _cond(m.and_(parts))


def _once_each(m: Model, by_value: dict[int, list]) -> list:
    """For each value, "at most one of these holds" (True: a known cell with that value). The
    common case, distinct variables, skips `linear`'s general normalisation: a cell another rule
    fixed counts as its value, one known holder rules the others out."""
    parts: list = []
    units = m.units
    for fs in by_value.values():
        if len(fs) < 2:
            continue
        held, free = 0, []
        for f in fs:
            u = True if f is True else units.get(f)
            if u is None:
                free.append(f)
            elif u:
                held += 1
        if len(set(free)) != len(free):  # a cell listed twice: the general way
            parts.append(m.linear(_count_terms(fs), "<=", 1 - sum(1 for f in fs if f is True)))
        elif held > 1:
            return [False]
        elif held == 1:
            parts.extend(-h for h in free)
        else:
            parts.append(m.at_most_one(free))
    return parts


def name_instance(err: PuzzleError, env: dict) -> None:
    """Say which instance of a rule an error arose in (`where i = 3`): the innermost `forall`
    names it, with every loop value in scope; the outer ones leave it as it is."""
    if getattr(err, "instance_named", False):
        return
    err.instance_named = True  # type: ignore[attr-defined]
    binding = tuple((k, v) for k, v in env.items() if k != GUARD and isinstance(k, str))
    if binding:
        err.message += f" (where {binding_text(binding)})"
