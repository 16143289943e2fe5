"""Closure compilation of expressions, the grounder's fast path.

Once the givens and variables are bound, every global name is a constant, so each
expression is turned into a Python closure once and then called for every binding of
its loop variables: several times faster than walking the tree for every cell. The
closures implement the same semantics as the `Grounder` methods they fall back to.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from itertools import islice
from typing import TYPE_CHECKING

from . import limits
from .ground_common import GRAPH_KINDS, MAX_DEPTH, cells_equal, too_many_items, tuple_order
from .model import neg
from .syntax import ast as A
from .values import MISSING, Cond, EdgeGrid, Grid, IntVarCell, LazyGrid, Lin, Symbol, _cond

if TYPE_CHECKING:
    from .ground import Grounder

Fn = Callable[[dict], object]
GUARD = "\0while"  # binding environments' key for "every `while` so far held" (not a name: never read)
_INT_COMPARE = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
                ">": operator.gt, ">=": operator.ge}


def make_fn(g: Grounder, e: A.Expr) -> Fn:  # noqa: C901 - one case per node kind
    """The closure that evaluates `e`; unusual node kinds fall back to the tree walker. A closure
    that calls another of the same case takes it as a default argument, not from a closure cell:
    compiled (setup.py), a function keeps one scope for all its closures, and a closure held in
    it would make a reference cycle (tests/test_compile_memory.py)."""
    t = type(e)
    if t is A.IntLit or t is A.BoolLit:
        v = e.value
        return lambda env: v
    if t is A.Name:
        return _name_fn(g, e)
    if t is A.Binary:
        fa, fb, op, slow = _fn(g, e.left), _fn(g, e.right), e.op, g._binary_values
        an, bn = _local(g, e.left), _local(g, e.right)

        def binary(env):
            a, b = fa(env), fb(env)
            ta, tb = type(a), type(b)
            if ta is int and tb is int:
                if op == "+":
                    return a + b
                if op == "-":
                    return a - b
                if op == "*":
                    return a * b
            elif op == "*" and (ta is int and tb is Cond or ta is Cond and tb is int):  # a weight times a cell
                return Lin(0, {b.h: a}) if ta is int else Lin(0, {a.h: b})
            elif ta is tuple and tb is tuple and len(a) == len(b) == 2 and op in "+-":  # cell offsets
                a0, a1 = a
                b0, b1 = b
                if type(a0) is int and type(a1) is int and type(b0) is int and type(b1) is int:
                    return (a0 + b0, a1 + b1) if op == "+" else (a0 - b0, a1 - b1)
            return slow(e, a, b)

        if an is not None and bn is not None and op in "+-":  # `p + d`: two loop variables, read in place
            sign = 1 if op == "+" else -1

            def binary_locals(env, binary=binary):  # a default, not a closure cell (see `make_fn`)
                a, b = env.get(an, MISSING), env.get(bn, MISSING)
                ta = type(a)
                if ta is tuple and type(b) is tuple and len(a) == 2 == len(b):  # cell offsets first: the usual
                    a0, a1 = a
                    b0, b1 = b
                    if type(a0) is int and type(a1) is int and type(b0) is int and type(b1) is int:
                        return (a0 + sign * b0, a1 + sign * b1)
                elif ta is int and type(b) is int:
                    return a + sign * b
                return binary(env)
            return binary_locals
        return binary
    if t is A.Index:
        return _local_index_fn(g, e) or _general_index_fn(g, e)
    if t is A.Call and e.func in g.defines:
        d = g.defines[e.func]
        if len(d.params or ()) != len(e.args):
            return lambda env: g._call(e, env)
        fargs, cache, evaluate = [_fn(g, a) for a in e.args], g._define_cache, g.evaluate_define
        name, span, reads = d.name, e.span, g.reads

        params, fns, body = d.params, g._fns, d.body

        def computed(args: tuple, key: tuple | None) -> object:
            """A value not remembered yet: `evaluate_define` in short, once it has made the
            body's closure (only on a miss, so the calls below stay one call each on a hit)."""
            fbody = fns.get(body)
            if fbody is None or reads is not None or not g.frozen or g._depth >= MAX_DEPTH:
                return evaluate(d, args, span, key)
            g._depth += 1
            try:
                v = fbody(dict(zip(params, args)))  # type: ignore[arg-type]
            finally:
                g._depth -= 1
            if key is not None:
                cache[key] = v
            return v

        # `f(r, c)`: the arguments without a loop, loop variables read in place. The cache lookup
        # below is written out again in `call_define`, not shared by a helper: a call per define
        # call is what this hot path was specialised to save (BENCHMARKS.md, per-puzzle costs).
        if len(fargs) == 2:
            f0, f1 = fargs
            n0, n1 = _local(g, e.args[0]), _local(g, e.args[1])  # None: never a key of env

            def call_define2(env, computed=computed):
                a0, a1 = env.get(n0, MISSING), env.get(n1, MISSING)
                if a0 is MISSING:
                    a0 = f0(env)
                if a1 is MISSING:
                    a1 = f1(env)
                key = (name, (a0, a1))
                try:
                    v = cache.get(key, MISSING)
                except TypeError:  # a list argument: not remembered
                    key, v = None, MISSING
                if v is MISSING:
                    return computed((a0, a1), key)
                if reads is not None:
                    reads.remembered(key)
                return v
            return call_define2

        def call_define(env, computed=computed):
            args = tuple([f(env) for f in fargs])
            key = (name, args)
            try:
                v = cache.get(key, MISSING)
            except TypeError:  # a list argument: not remembered
                key, v = None, MISSING
            if v is MISSING:
                return computed(args, key)
            if reads is not None:  # what the define read of the clues, read again
                reads.remembered(key)
            return v
        return call_define
    if t is A.Call and e.func in g.builtins:
        fargs, builtin = [_fn(g, a) for a in e.args], g.builtin
        fast = _builtin_fn(g, e, fargs)
        if fast is not None:
            return fast
        return lambda env: builtin(e, [f(env) for f in fargs])
    if t is A.Aggregate and e.kind == "reachable":
        return lambda env: g.reachable(e, env)
    if t is A.Aggregate and e.kind not in GRAPH_KINDS and not any(b.while_ is not None for b in e.bindings):
        fbody, bindings, where, combine, iter_bindings = _fn(g, e.body), e.bindings, e.where, g.combine, g.iter_bindings
        if len(bindings) == 1 and not bindings[0].is_tuple and g.reads is None:
            return _one_binding_fn(g, e, fbody)
        bound = limits.current().cells

        def aggregate(env):  # the items of several bindings: their product, bounded as a grid's cells are
            items = [fbody(inner) for inner in islice(iter_bindings(bindings, where, env), bound + 1)]
            if len(items) > bound:
                too_many_items(e)
            return combine(e, items, env)
        return aggregate
    if t is A.Logic and e.op in ("and", "or"):
        fs = [(_fn(g, x), x.span) for x in e.items]
        formula, m = g.formula, g.model
        stop = e.op == "or"

        def logic(env):
            out = []
            for f, span in fs:
                v = f(env)
                if v is stop:
                    return stop
                if type(v) is Cond:
                    out.append(v.h)
                elif v is not (not stop):
                    out.append(formula(v, span))
            return _cond(m.or_(out) if stop else m.and_(out))
        return logic
    if t is A.Logic and e.op in ("implies", "iff"):
        (fa, span_a), (fb, span_b) = [(_fn(g, x), x.span) for x in e.items]
        formula, m, implies = g.formula, g.model, e.op == "implies"

        def logic2(env):
            a = formula(fa(env), span_a)
            if implies and a is False:
                return True
            b = formula(fb(env), span_b)
            return _cond(m.implies(a, b) if implies else m.iff(a, b))
        return logic2
    if t is A.Not:
        f, span, formula = _fn(g, e.operand), e.operand.span, g.formula

        def not_(env):
            v = f(env)
            if v is True or v is False:
                return not v
            return _cond(neg(formula(v, span)))
        return not_
    if t is A.Compare:
        fa, fb, op, compare = _fn(g, e.left), _fn(g, e.right), e.op, g.compare
        py_op = _INT_COMPARE[op]

        def compare_(env):
            a, b = fa(env), fb(env)
            ta = type(a)
            if ta is type(b) and (ta is int or (ta is tuple and tuple_order(a, b))):
                return py_op(a, b)  # numbers, or offsets in lexicographic order
            return compare(op, a, b, e)

        if op not in ("==", "!="):
            return compare_
        equal, iff, m = op == "==", g.model.iff, g.model

        def compare_value(env):  # `x[p] == k` of a one-hot integer: one of its literals
            a, b = fa(env), fb(env)
            ta, tb = type(a), type(b)
            if ta is IntVarCell and not a.binary:
                if tb is int:
                    h = a.handles[b - a.lo] if a.lo <= b <= a.hi else False
                    if h is False:
                        return not equal
                    return Cond(h if equal else -h)
                if tb is IntVarCell and not b.binary:  # `x[p] == x[q]`: neighbours' labels compared
                    f = cells_equal(m, a, b)
                    return _cond(f if equal else neg(f))
            if (ta is int or ta is bool or ta is Symbol or ta is tuple) and ta is tb:  # known numbers,
                return py_op(a, b)  # conditions, names or cells (`q == p` filtering a list of placements)
            if ta is Cond and tb is Cond:  # `x[p] == exists(…)`: equivalence
                f = iff(a.h, b.h)
                return _cond(f if equal else neg(f))
            return compare(op, a, b, e)
        return compare_value
    if t is A.Ite:
        fc, fa, fb, slow_ite = _fn(g, e.cond), _fn(g, e.then), _fn(g, e.other), g._ite

        def ite(env):
            c = fc(env)
            if c is True:
                return fa(env)
            if c is False:
                return fb(env)
            return slow_ite(e, env)
        return ite
    if t is A.Range:
        flo, fhi, slow_range = _fn(g, e.lo), _fn(g, e.hi), g._range

        def range_(env):
            lo, hi = flo(env), fhi(env)
            if type(lo) is int and type(hi) is int:
                return range(lo, hi + 1)
            return slow_range(e, env)  # evaluated again, to say what is wrong
        return range_
    if t is A.TupleLit:
        fs = [_fn(g, x) for x in e.items]
        names = [_local(g, x) for x in e.items]
        if len(fs) == 2 and None not in names:  # `(p, q)`: a key of a grid over pairs, read in place
            (n0, n1), (f0, f1) = names, fs

            def pair(env):
                a, b = env.get(n0, MISSING), env.get(n1, MISSING)
                return (a if a is not MISSING else f0(env), b if b is not MISSING else f1(env))
            return pair
        return lambda env: tuple([f(env) for f in fs])
    walk = g.walk
    return lambda env: walk(e, env)

def _general_index_fn(g: Grounder, e: A.Index) -> Fn:
    """Any index: a grid, a list or a tuple, with indices of any kind."""
    fbase, fidx, slow_index = _fn(g, e.base), [_fn(g, x) for x in e.indices], g._index_values

    if len(fidx) == 1:  # `x[p]` with p a cell, or `x[i]`: the common case, without the general loop
        fi = fidx[0]

        def index1(env):
            base, k = fbase(env), fi(env)
            tb, tk = type(base), type(k)
            if tb is Grid or tb is EdgeGrid:
                if tk is int or base.keyed:  # a number, or a listed value taken whole (`own[(p, q)]`)
                    v = base.cells.get((k,), MISSING)
                elif tk is tuple and len(k) == 2 and type(k[0]) is int and type(k[1]) is int:
                    v = base.cells.get(k, MISSING)
                else:
                    v = MISSING
                if v is not MISSING:
                    return v
            elif (tb is tuple or tb is list) and tk is int and 0 <= k < len(base):
                return base[k]
            return slow_index(e, base, (k,))
        return index1

    if len(fidx) == 2:  # `link[p, q]`: an edge between two cells, or `x[r, c]`
        f0, f1 = fidx

        def index2(env):
            base, a, b = fbase(env), f0(env), f1(env)
            if type(base) is EdgeGrid or type(base) is Grid:
                ta, tb = type(a), type(b)
                key = None
                if ta is int and tb is int:
                    key = (a, b)
                elif ta is tuple and len(a) == 2:
                    a0, a1 = a
                    if tb is int and type(a0) is int and type(a1) is int:  # `placed[p, i]`: a cell and a number
                        key = (a0, a1, b)
                    elif tb is tuple and len(b) == 2:
                        b0, b1 = b
                        if type(a0) is int and type(a1) is int and type(b0) is int and type(b1) is int:
                            key = (a0, a1, b0, b1)
                if key is not None:
                    v = base.cells.get(key, MISSING)
                    if v is not MISSING:
                        return v
            return slow_index(e, base, (a, b))
        return index2

    def index(env):
        base = fbase(env)
        key = tuple([f(env) for f in fidx])
        if type(base) is Grid or type(base) is EdgeGrid:
            flat = key
            for k in key:  # True == 1 as a dict key: keep conditions out of indices
                if type(k) is not int:
                    if type(k) is not tuple:
                        return slow_index(e, base, key)
                    flat = ()  # a cell written as a tuple, `x[p]`: spread it
            if flat is not key:
                for k in key:
                    flat += k if type(k) is tuple else (k,)
                if any(type(k) is not int for k in flat):
                    return slow_index(e, base, key)
            v = base.cells.get(flat, MISSING)
            if v is not MISSING:
                return v
        return slow_index(e, base, key)  # lists and tuples take one index: `index1`
    return index


def _local(g: Grounder, e: A.Expr) -> str | None:
    """The name `e` reads when it is a loop variable or a define's parameter (no global or
    define has it): closures then read it from the environment in place, without a call."""
    if type(e) is A.Name and e.id not in g.defines and not g.is_global(e.id):
        return e.id
    return None


def _local_index_fn(g: Grounder, e: A.Index) -> Fn | None:
    """`x[p]`, `x[r, c]`, `link[p, q]`: a grid known before grounding (a given or a variable)
    indexed by loop variables, the most common expression of all, as one closure; None for any
    other index (and whenever a local name hides the grid, the general closure decides)."""
    base = e.base
    names = [_local(g, x) for x in e.indices]
    if type(base) is not A.Name or base.id in g.defines or not g.is_global(base.id) or None in names \
            or len(names) > 2:
        return None
    grid = g._name(base, {})
    if type(grid) is not Grid and type(grid) is not EdgeGrid and type(grid) is not LazyGrid:
        return None
    bn = base.id
    general = _general_index_fn(g, e)
    if len(names) == 1:
        (kn,) = names

        def index_local(env):
            k = env.get(kn, MISSING)
            tk = type(k)
            if tk is int:
                v = grid.cells.get((k,), MISSING)
            elif tk is tuple and len(k) == 2 and type(k[0]) is int and type(k[1]) is int:
                v = grid.cells.get(k, MISSING)
            else:
                return general(env)
            if v is MISSING or bn in env:
                return general(env)
            return v
        return index_local
    an, bn2 = names
    keyed, span = grid.keyed, e.span

    def index_locals(env):
        a, b = env.get(an, MISSING), env.get(bn2, MISSING)
        ta, tb = type(a), type(b)
        if ta is int and tb is int:
            key = (a, b)
        elif ta is tuple and len(a) == 2 and type(a[0]) is int and type(a[1]) is int:
            if tb is int:  # `placed[p, i]`: a cell and a number
                key = a + (b,)
            elif tb is tuple and len(b) == 2 and type(b[0]) is int and type(b[1]) is int:
                key = a + b
            else:
                return general(env)
        else:
            return general(env)
        v = grid.cells.get(key, MISSING)
        if bn in env or v is MISSING and keyed:
            return general(env)
        return v if v is not MISSING else grid.get(key, span)  # a lazy grid's cell made, or the boundary
    return index_locals


def _one_binding_fn(g: Grounder, e: A.Aggregate, fbody: Fn) -> Fn:
    """An aggregate over one name (`count(q in neighbours(g, p): …)`): the loop of
    `Grounder.iter_bindings` without its generator, for the aggregates inside every rule instance."""
    b = e.bindings[0]
    name, fsource, span = b.names[0], _fn(g, b.source), b.source.span
    fwheres = [(_fn(g, w), w) for w in (b.where, e.where) if w is not None]
    iterable, passes, combine = g.iterable, g.passes, g.combine
    narrow = g._narrowing(b, b.where if b.where is not None else e.where)  # what an index lets it skip
    # `all` stops at the first item known false, `any` at the first known true, as `and` and `or` do
    decides = False if e.kind == "all" else True if e.kind == "any" else MISSING  # MISSING: never a value
    neutral = not decides if decides is not MISSING else MISSING  # an item that changes nothing: left out

    def aggregate(env):
        items = fsource(env)
        if type(items) is not list and type(items) is not tuple:
            items = iterable(items, span)
        if narrow is not None:
            items = narrow(items, env)
        inner = dict(env)
        inner.pop(GUARD, None)  # an enclosing aggregate's guard is not this one's
        out = []
        if not fwheres:
            for item in items:
                inner[name] = item
                v = fbody(inner)
                if v is decides:
                    return v
                if v is not neutral:
                    out.append(v)
        else:
            for item in items:
                inner[name] = item
                for fw, w in fwheres:
                    v = fw(inner)
                    if v is not True and (v is False or not passes(w, inner)):
                        break
                else:
                    v = fbody(inner)
                    if v is decides:
                        return v
                    if v is not neutral:
                        out.append(v)
        if not out and neutral is not MISSING:
            return neutral
        return combine(e, out, env)
    return aggregate


def _builtin_fn(g: Grounder, e: A.Call, fargs: list[Fn]) -> Fn | None:
    """Closures for builtins that rules call once per instance (`known`, `inside`,
    `neighbours`), for the common arguments; anything else goes through `Grounder.builtin`."""
    builtin = g.builtin
    if e.func == "known" and len(fargs) == 1:
        (fx,) = fargs
        return lambda env: fx(env) is not None
    if e.func == "abs" and len(fargs) == 1:
        (fx,) = fargs

        def abs_(env):
            x = fx(env)
            return (x if x >= 0 else -x) if type(x) is int else builtin(e, [x])
        return abs_
    if e.func in ("inside", "neighbours") and len(fargs) == 2:
        fx, fp = fargs
        inside = e.func == "inside"
        neighbours = g.neighbours

        def cell_builtin(env):
            x, p = fx(env), fp(env)
            tx, tp = type(x), type(p)
            if (tx is Grid or tx is EdgeGrid) and (tp is int or tp is tuple and len(p) == len(x.dims)):
                key = p if tp is tuple else (p,)
                if inside:
                    return x.inside(key)
                if x.inside(key):
                    return neighbours(x, key)
            return builtin(e, [x, p])
        return cell_builtin
    return None


def _fn(g: Grounder, e: A.Expr) -> Fn:
    f = g._fns.get(e)
    if f is None:
        f = g._fns[e] = make_fn(g, e)
    return f

def _name_fn(g: Grounder, e: A.Name) -> Fn:
    n = e.id
    d = g.defines.get(n)
    if d is not None and not d.params:  # a constant: evaluated at its first use (`call_define` caches it)
        cache, call, key, reads = g._define_cache, g.call_define, (n, ()), g.reads

        def constant(env):
            if n in env:
                return env[n]
            v = cache.get(key, MISSING)
            if v is MISSING:
                return call(d, (), e.span)
            if reads is not None:  # what the define read of the clues, read again
                reads.remembered(key)
            return v
        return constant
    if d is not None or not g.is_global(n):  # locals, defines: looked up when used
        return lambda env: env[n] if n in env else g._name(e, env)
    const = g._name(e, {})
    return lambda env: env[n] if n in env else const
