"""Lower a ground `Model` to CNF.

Handles are SAT variables: a decision variable keeps its number and a definition
node's number becomes its Tseitin variable. Definitions are encoded only in the
polarity in which they are used (Plaisted–Greenbaum), which keeps every model of
the decision variables and halves the clauses. Top-level conjunctions are split
and top-level sums are encoded without a reification literal.

Variables that an assertion forces on its own (a unit, or the plain parts of a conjunction),
and those the encoder's own unit clauses force, are read as their values wherever they occur:
a clause they satisfy is not written and a sum is written over its other terms. Grounding folds
them only into the rules grounded after the one that forced them; this catches the rest, e.g. an
integer's "one value per cell", stated when it is declared, before any given is read (a 16x16
grid of digits: 54,000 clauses, 35,000 of them satisfied by unit clauses; now 9,000; BENCHMARKS.md,
"Forced values read while encoding"). The unit clauses stay, so the models are the same.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .. import limits
from ..errors import Span
from ..model import AndNode, Assertion, LinNode, Model
from .linear import LinearOptions, VarPool, encode_linear

POS, NEG = 1, 2
SPLICE = 8  # disjunctions up to this size are spliced into the clause that uses them
DISTRIBUTE = 64  # a conjunction up to this size inside a clause is distributed over it


@dataclass
class Cnf:
    clauses: list[list[int]]
    num_vars: int
    decision_vars: list[int]


def encode(model: Model, opts: LinearOptions | None = None, selectors: dict[object, int] | None = None,
           guard: Callable[[Assertion], int | None] | None = None) -> Cnf:
    """CNF for the model. With `selectors` (rule span -> fresh literal id above the model's
    handles), each rule holds only under its selector, so an unsat core names rules. `guard`
    instead gives each assertion its own selector (or None: always holds), so a core names
    rule instances (`puzzledsl/explain/`)."""
    enc = CnfEncoder(model, opts, selectors, guard)
    clauses = enc.add(model.assertions, model.false_rule is not None)
    return Cnf(clauses, enc.pool.top, model.decision_vars)


class CnfEncoder:
    """Encodes assertions batch by batch, remembering which definitions are already written:
    a plan's horizon grows by adding the clauses of new steps to the same solver. Fresh
    variables are taken from the model's own counter, so handles made later never collide."""

    def __init__(self, model: Model, opts: LinearOptions | None = None,
                 selectors: dict[object, int] | None = None, guard: Callable[[Assertion], int | None] | None = None):
        self.model = model
        self.opts = opts or LinearOptions()
        self.selectors = selectors
        self.guard = guard
        self.pool = VarPool(max(model.top, max((selectors or {}).values(), default=0)))
        self.done: dict[int, int] = {}
        # (literal, guard) pairs already asserted: a constraint stated once per cell of a region
        # (or a pair of neighbours seen from both sides) is hash-consed to one handle, and is
        # written once (a 10×10 board with a count per region stated per cell: 4810 variables and
        # 9367 clauses when each copy was encoded, 1430 and 2261 now; BENCHMARKS.md)
        self.asserted: set[tuple[int, tuple[int, ...]]] = set()
        self.aux = 0  # variables the encodings of sums and counts took beyond the model's handles
        # Variables forced by what this encoder wrote (the assertions' own units first, then every
        # unit clause it writes without a guard), by value. Not with selectors or guards: each rule
        # must then keep its own meaning.
        self.fixed: dict[int, bool] = {}
        self.definitions_written = 0  # how many of `model.definitions` (always unguarded)
        self.completed: set[int] = set()  # nodes whose `model.completions` are written

    def add(self, assertions: list, false_rule: bool = False) -> list[list[int]]:  # noqa: C901
        model, opts, pool = self.model, self.opts, self.pool
        pool.top = max(pool.top, model.top)
        first_aux = pool.top
        clauses: list[list[int]] = []
        need: dict[int, int] = {}  # node handle -> polarity bits still to encode
        done, asserted, equal_values, nodes = self.done, self.asserted, model.equal_values, model.nodes
        completions, completed = model.completions, self.completed

        def complete(h: int) -> None:
            """`h` (a conjunction, or with a negative handle its negation) is used true: write
            what its definitions need then, and ask for the formulas those clauses mention, in
            the polarity they are used in."""
            if h in completions and h not in completed:
                completed.add(h)
                written = completions[h]
                clauses.extend(written)
                for cl in written:  # mostly plain variables (two labels compared): no call for those
                    for x in cl:
                        if (x if x > 0 else -x) in nodes:
                            use(x)

        def use(lit: int) -> None:
            """Ask for the definition of `lit`'s node in the polarity the literal is used in."""
            h = abs(lit)
            if h in model.nodes:
                bit = POS if lit > 0 else NEG
                if not (done.get(h, 0) | need.get(h, 0)) & bit:
                    need[h] = need.get(h, 0) | bit

        def assert_lit(lit: int, guard: tuple[int, ...]) -> None:
            key = (lit, guard)
            if key in asserted:
                return
            asserted.add(key)
            node = model.nodes.get(abs(lit))
            off = [-g for g in guard]
            if node is None:
                clauses.append(off + [lit])
                if not off and fixing:
                    fixed.setdefault(abs(lit), lit > 0)
            elif isinstance(node, AndNode):
                if lit > 0:
                    if completions:
                        complete(lit)
                    for c in node.children:
                        assert_lit(c, guard)
                else:
                    if completions:
                        complete(lit)
                    assert_clause(off, [lit] if -lit in equal_values else [-c for c in node.children])
            else:
                _lin(node, lit > 0, guard)

        nodes_get = nodes.get
        fixed = self.fixed
        fixing = not (self.selectors or self.guard)  # units may be read as values

        def assert_clause(off: list[int], lits: list[int], distribute: bool = True) -> None:
            """Assert a disjunction without naming its parts where that is free: a disjunction
            inside is spliced in, and one conjunction is distributed (`a -> b and c` gives the
            clauses (-a, b) and (-a, c)); anything else gets a definition variable."""
            flat: list[int] = []
            named = False  # some literal of `flat` stands for a definition
            conj: list[list[int]] | None = None  # one clause is written per part
            for x in lits:
                node = nodes_get(x if x > 0 else -x)
                if node is None:  # a plain variable: the common case
                    v = fixed.get(x if x > 0 else -x) if fixed else None
                    if v is None:
                        flat.append(x)
                    elif v == (x > 0):
                        return  # a forced literal satisfies the clause
                    # else: a forced literal that is false is left out
                elif x < 0 and distribute and conj is None and -x in equal_values \
                        and len(equal_values[-x]) <= DISTRIBUTE:
                    conj = [[-a, -b] for a, b in equal_values[-x]]  # `a != b`: no value is both
                elif type(node) is AndNode and x < 0 and len(node.children) <= SPLICE:
                    flat.extend(-c for c in node.children)
                    if completions:
                        complete(x)
                elif (type(node) is AndNode and x > 0 and distribute and conj is None
                      and len(node.children) <= DISTRIBUTE):
                    conj = [[c] for c in node.children]
                    if completions:
                        complete(x)
                else:
                    flat.append(x)
                    named = True
            if conj is not None:
                distribute_over(off, flat, named, conj)
                return
            clauses.append(off + flat if off else flat)
            if not off and fixing and len(flat) == 1 and not named:
                fixed.setdefault(abs(flat[0]), flat[0] > 0)
            if len(flat) != len(lits) or named:  # spliced children may stand for definitions too
                for x in flat:
                    use(x)

        def distribute_over(off: list[int], flat: list[int], named: bool, conj: list[list[int]]) -> None:
            """A clause for each part of `conj`, each with `flat`; once, as distributing again could
            multiply clauses without end. The usual part, a disjunction of plain variables none of
            them forced (`a = v -> b = v` of two labels compared), is spliced here; 2 µs a clause
            through `assert_clause`, a third of a large path puzzle's encoding."""
            base = off + flat
            for part in conj:
                lits = part
                if len(part) == 1 and part[0] < 0:  # a negated conjunction: its parts, negated
                    node = nodes_get(-part[0])
                    if type(node) is AndNode and len(node.children) <= SPLICE:
                        lits = [-k for k in node.children]
                        if completions:
                            complete(part[0])
                if base or len(lits) > 1:  # (a unit may force a value: `assert_clause` notes it)
                    for k in lits:
                        k = k if k > 0 else -k
                        if k in nodes or k in fixed:
                            break
                    else:
                        clauses.append(base + lits)
                        continue
                assert_clause(off, flat + part, False)
            if named:
                for x in flat:
                    use(x)

        def _lin(node: LinNode, positive: bool, cond: tuple[int, ...]) -> None:
            terms, bound = node.terms, node.bound
            if fixed:
                kept = []
                for h, c in terms:
                    v = fixed.get(h if h > 0 else -h)
                    if v is None:
                        kept.append((h, c))
                    elif v == (h > 0):
                        bound -= c
                terms = kept
            else:
                terms = list(terms)
            nodes = model.nodes
            if positive:
                out = encode_linear(terms, node.cmp, bound, pool, opts, cond)
                clauses.extend(out)
                if not cond and fixing:
                    for cl in out:
                        if len(cl) == 1 and abs(cl[0]) not in nodes:
                            fixed.setdefault(abs(cl[0]), cl[0] > 0)
                for h, _ in terms:
                    if (h if h > 0 else -h) in nodes:  # a plain variable needs no definition
                        use(h)
                        if node.cmp == "==":
                            use(-h)
                return
            for h, _ in terms:
                if (h if h > 0 else -h) in nodes:
                    use(-h)
                    if node.cmp == "==":
                        use(h)
            if node.cmp == ">=":
                clauses.extend(encode_linear(terms, "<=", bound - 1, pool, opts, cond))
                return
            lo, hi = pool.fresh(), pool.fresh()
            clauses.append([-c for c in cond] + [lo, hi])
            clauses.extend(encode_linear(terms, "<=", bound - 1, pool, opts, (lo,)))
            clauses.extend(encode_linear(terms, ">=", bound + 1, pool, opts, (hi,)))

        try:
            return self._write(assertions, false_rule, clauses, need, first_aux, assert_lit, _lin, use, complete)
        finally:  # the closures name each other: a reference cycle, with all they reach, until broken
            assert_lit = assert_clause = distribute_over = _lin = use = complete = None  # type: ignore[assignment]

    def _write(self, assertions: list, false_rule: bool, clauses: list[list[int]], need: dict[int, int],
               first_aux: int, assert_lit, _lin, use, complete) -> list[list[int]]:
        model, selectors, pool, done = self.model, self.selectors, self.pool, self.done
        equal_values = model.equal_values
        if false_rule:  # the givens alone violate a rule
            clauses.append([])
        bound = limits.current().clauses
        guard = self.guard
        if not (selectors or guard):  # the units these assertions force, before any clause is written
            _units(model, [a.formula for a in assertions], self.fixed)
        if len(model.definitions) > self.definitions_written:  # they hold whatever rules are assumed
            clauses.extend(model.definitions[self.definitions_written:])
            self.definitions_written = len(model.definitions)
            for h in model.definition_nodes:
                use(h)
        for a in assertions:
            if guard is not None:
                g = guard(a)
                assert_lit(a.formula, (g,) if g else ())
            else:
                assert_lit(a.formula, (selectors[a.rule],) if selectors else ())
            if len(clauses) > bound:
                _too_many(clauses, a.span)

        nodes, add = model.nodes, clauses.append
        while need:
            if len(clauses) > bound:
                _too_many(clauses, None)
            h, bits = need.popitem()
            bits &= ~done.get(h, 0)
            done[h] = done.get(h, 0) | bits
            node = nodes[h]
            if type(node) is AndNode:
                kids = node.children
                if bits & POS:
                    complete(h)
                    for c in kids:
                        add([-h, c])
                        if abs(c) in nodes:
                            use(c)
                if bits & NEG:
                    complete(-h)
                if bits & NEG and h in equal_values:  # equal when some value is both
                    for a, b in equal_values[h]:
                        add([h, -a, -b])
                elif bits & NEG:
                    add([h] + [-c for c in kids])
                    for c in kids:
                        if abs(c) in nodes:
                            use(-c)
            else:
                if bits & POS:
                    _lin(node, True, (h,))
                if bits & NEG:
                    _lin(node, False, (-h,))
        self.aux += pool.top - first_aux
        model.top = max(model.top, pool.top)
        return clauses

    def variables(self) -> int:
        """The variables the clauses can mention: the decision variables, the definitions written
        (a formula spliced into the clause that uses it needs none) and the encodings' own. The
        largest handle is often far above it (`p cnf` says that one)."""
        return len(self.model.var_names) + len(self.model.auxiliary) + len(self.done) + self.aux


def _units(model: Model, formulas: list[int], fixed: dict[int, bool]) -> None:
    """Add to `fixed` the variables these asserted formulas force on their own: the plain
    literals of each, through conjunctions inside conjunctions (as `assert_lit` splits them)."""
    nodes = model.nodes
    stack = list(formulas)
    seen: set[int] = set()
    while stack:
        f = stack.pop()
        node = nodes.get(f if f > 0 else -f)
        if node is None:
            fixed.setdefault(abs(f), f > 0)
        elif f > 0 and type(node) is AndNode and f not in seen:
            seen.add(f)
            stack.extend(node.children)


def _too_many(clauses: list[list[int]], span: Span | None) -> None:
    """The formula outgrew the clause limit: say so before memory runs out (at the rule that
    went past it, when one did)."""
    n = len(clauses)
    clauses.clear()
    limits.check("clauses", n, "the encoded formula has too many clauses (so far)", span)
