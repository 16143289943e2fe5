"""The ground model: what grounding produces and every backend consumes.

A formula is an integer *handle*, like a literal in an and-inverter graph: a
positive handle names a decision variable or a definition node, its negation is
the negated formula. Nodes are hash-consed, so a sub-formula written twice (a
`define` used in many rules, say) exists once and is encoded once. Constants are
Python `True`/`False` and are simplified away while building.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from . import limits
from .errors import Span

Formula = int | bool


@dataclass(slots=True)  # not frozen (a frozen one costs twice as much to build); never changed
class AndNode:
    children: tuple[int, ...]


@dataclass(slots=True)
class LinNode:
    """sum(coef * handle) `cmp` bound, with cmp in (">=", "==") and all coefs > 0."""

    terms: tuple[tuple[int, int], ...]  # (handle, coef)
    cmp: str
    bound: int


@dataclass(frozen=True)
class VarGrid:
    """A declared decision variable (scalar or grid) and the handles behind its cells."""

    name: str
    dims: tuple[range, ...]
    kind: str  # "bool" | "int"
    lo: int = 0
    hi: int = 1
    # cell index tuple -> handle (bool) or list of one-hot handles for lo..hi (int)
    cells: dict[tuple[int, ...], int | tuple[int, ...]] = field(default_factory=dict)


@dataclass(frozen=True)
class SizeBound:
    """`size(region(g, p)) cmp target`, required where `guard` holds: the region is the piece of
    node `node` in a `sizes` constraint (see `region_sizes.py`). The target is one of `choices`
    (a value and the literal that says the target has it: a known number is one choice under
    `True`, a one-hot integer one per value), or else `const` plus the coefficients of the true
    literals of `terms` (with `binary`, the bits of a binary-encoded integer: coefficient 2^i)."""

    node: int
    cmp: str  # == != <= >= < >
    guard: int | bool
    choices: tuple[tuple[int, int | bool], ...] = ()
    const: int = 0
    terms: tuple[tuple[int, int], ...] = ()
    binary: bool = False


@dataclass(frozen=True)
class GraphConstraint:
    """A condition on a whole graph (`connected`, `acyclic`, region `sizes`) whose clauses would be
    too many to write out: the solver loop checks each model against it and adds cuts (see
    `graphs.py`). Node and edge conditions are variables or constants, so a cut is a clause over
    them. For `sizes`, every node is in and an edge's condition says that its two cells hold the
    same value: the pieces are the regions, and `sizes` bounds them."""

    kind: str  # "connected" | "acyclic" | "sizes"
    nodes: tuple[int | bool, ...]  # node i is in the graph when nodes[i] holds
    edges: tuple[tuple[int, int, int | bool], ...]  # (i, j, condition): an edge between nodes i and j
    span: Span
    label: str | None
    rule: Span | None = None
    sizes: tuple[SizeBound, ...] = ()


@dataclass(slots=True)  # not frozen: a rule instance makes one, and a frozen one costs 3x as much to build
class Assertion:
    formula: int
    span: Span
    label: str | None
    rule: Span | None = None  # the `rule` statement it comes from
    # the loop variables' values it was grounded at (compiled `located`, for explanations);
    # None for what is not a rule instance (a variable's domain, a graph node's definition)
    binding: tuple[tuple[str, object], ...] | None = None

    @property
    def place(self) -> Span:
        """Where a report names it: its rule statement (as unsat cores name rules), else its own span."""
        return self.rule or self.span


class Model:
    """Decision variables, definition nodes and top-level assertions of one puzzle."""

    def __init__(self) -> None:
        self.top = 0
        self.var_names: dict[int, str] = {}
        self.nodes: dict[int, AndNode | LinNode] = {}
        # hash-consing, keyed by a node's fields as a plain tuple (cheaper to hash than the node):
        # an AndNode by its children, a LinNode by (terms, cmp, bound)
        self._cons: dict[tuple, int] = {}
        self.assertions: list[Assertion] = []
        self.grids: dict[str, VarGrid] = {}
        self.false_rule: Assertion | None = None  # a rule the givens alone violate
        self.graphs: list[GraphConstraint] = []
        self._as_var: dict[int, int] = {}
        # each assertion and each definition node becomes at least one clause: the clause limit
        # bounds grounding too (a rule over 4.5 million pairs took 48 s and 2.3 GB to ground)
        self._bound = limits.current().clauses
        # Variables that a rule on its own forces (`island[p] != 3`, `black[p]`): formulas built
        # after that rule read them as constants, so they shrink. The unit clause stays.
        self.units: dict[int, bool] = {}
        # False when every rule instance must keep its own meaning (explanations cite them one by
        # one): forced cells are then not folded into the rules grounded after them
        self.fold_units = True
        # `a == b` of two one-hot integers is the node "for each value v: a=v -> b=v". Its
        # negation would need a variable per value; the equivalent "for no v: a=v and b=v" needs
        # none (`pair[p] == pair[q] -> link[p, q]` becomes one clause per value). The encoder
        # uses these value pairs wherever the node is negated.
        self.equal_values: dict[int, tuple[tuple[int, int], ...]] = {}
        self.equalities: dict[tuple[int, int], Formula] = {}  # (first handles of x, y) -> `x == y`
        self.ladders: dict[tuple[int, ...], list[Formula]] = {}  # one-hot handles -> "at least j" literals
        # Clauses that define auxiliary variables (the states of a `runs` reader): together they
        # make each such variable a function of the others, so they hold in every model and are
        # written out as they are, without a definition node per clause (a node costs about
        # 3 µs to build; the run-length readers of a 25x25 board of clues need some 20,000 clauses).
        self.definitions: list[list[int]] = []
        self.auxiliary: set[int] = set()  # the variables they define: not part of any answer
        # formulas (node handles, signed as they occur) in definitions: the encoder writes their
        # own definitions for these uses (a completion's are asked for as it is written)
        self.definition_nodes: list[int] = []
        # Definitions needed only where a conjunction node is true (a formula built from auxiliary
        # variables is used negated): its handle -> the clauses that pin its variables down then;
        # keyed by the negated handle, those needed only where it is false. A formula only ever
        # required needs just one direction of them (nearly half the clauses).
        self.completions: dict[int, list[list[int]]] = {}
        self.relations: dict[tuple, int] = {}  # a comparison's parts -> its formula, built once
        # False while formulas are grounded as templates to be copied (a plan's state rules): a
        # copy could not copy the variables its definitions introduce
        self.templates = False

    def fork(self) -> Model:
        """A copy to go on grounding in while this one stays as it is (`Grounder.fork`). The
        nodes, completions and ladders in it are never changed once made: they are shared."""
        out = copy.copy(self)
        for name, value in vars(self).items():
            if isinstance(value, dict | list | set):
                setattr(out, name, value.copy())
        return out

    @property
    def defines_by_clauses(self) -> bool:
        """Whether auxiliary variables may be defined by clauses (`definitions`): not when each
        rule instance must stand alone (`fold_units` off: explanations, clue guards), nor in
        templates."""
        return self.fold_units and not self.templates

    # -- variables
    def new_var(self, name: str) -> int:
        self.top += 1
        self.var_names[self.top] = name
        return self.top

    def as_var(self, f: Formula, span: Span) -> Formula:
        """`f` itself when it is a constant or a variable, else a new variable equal to it."""
        if f is True or f is False or (abs(f) not in self.nodes and abs(f) not in self.auxiliary):
            return f  # (an auxiliary variable is no answer's: models are read without it)
        v = self._as_var.get(f)
        if v is None:
            v = self._as_var[f] = self.new_var(f"graph#{len(self._as_var)}")
            self.require(self.iff(v, f), span, None)
        return v

    def new_auxiliary(self) -> int:
        """A variable that `definitions` make a function of the others (not a decision variable:
        it has no name, and no answer is made of it)."""
        self.top += 1
        self.auxiliary.add(self.top)
        return self.top

    @property
    def decision_vars(self) -> list[int]:
        return sorted(self.var_names)

    def _node(self, key: tuple, kind: type[AndNode] | type[LinNode]) -> int:
        h = self._cons.get(key)  # hash-consing: an equal node already has a handle
        if h is None:
            if self.top >= self._bound:
                limits.check("clauses", self.top + 1, "the rules ground into too many definitions (so far)")
            self.top += 1
            h = self.top
            self.nodes[h] = AndNode(key) if kind is AndNode else LinNode(*key)
            self._cons[key] = h
        return h

    def conjunction_of(self, v: int) -> int:
        """A node that is just `v`: somewhere to hang `completions` on a variable."""
        return self._node((v,), AndNode)

    def forced(self, f: Formula) -> list[int]:
        """The variable literals that asserting `f` forces on its own: `f` itself, or the plain
        parts of a conjunction."""
        if f is True or f is False:
            return []
        node = self.nodes.get(f) if f > 0 else None
        return [x for x in (node.children if type(node) is AndNode else (f,)) if abs(x) not in self.nodes]

    def fixed(self, lit: Formula) -> Formula:
        """`lit`, or its value when a rule already forced its variable."""
        if lit is True or lit is False or abs(lit) not in self.units:
            return lit
        return self.units[abs(lit)] == (lit > 0)

    # -- connectives
    def and_(self, items: list[Formula] | tuple[Formula, ...]) -> Formula:
        units, nodes = self.units, self.nodes
        if len(items) == 2:  # the common case, without building a set
            a, b = items
            if units:  # a variable a rule already forced is read as its value
                if a is not True and a is not False and (a if a > 0 else -a) in units:
                    a = self.fixed(a)
                if b is not True and b is not False and (b if b > 0 else -b) in units:
                    b = self.fixed(b)
            if a is False or b is False:
                return False
            if a is True:
                return b
            if b is True:
                return a
            if (a < 0 or a not in nodes) and (b < 0 or b not in nodes):
                if a == b:
                    return a
                if a == -b:
                    return False
                return self._node((a, b) if a < b else (b, a), AndNode)
            items = (a, b)  # a conjunction inside: spliced below
        elif units:
            for x in items:
                if x is not True and x is not False and (x if x > 0 else -x) in units:
                    items = [self.fixed(x) for x in items]
                    break
        kids: set[int] = set()
        for x in items:
            if x is True:
                continue
            if x is False:
                return False
            inner = self.nodes.get(x) if x > 0 else None
            # a small conjunction inside a conjunction is spliced in: `a and b -> c` then
            # becomes the clause (-a, -b, c) instead of needing a variable for `a and b`; not
            # one with completions, which the encoder writes where the node itself is true
            splice = type(inner) is AndNode and len(inner.children) <= 8 and x not in self.completions
            for y in (inner.children if splice else (x,)):
                if -y in kids:
                    return False
                kids.add(y)
        if not kids:
            return True
        if len(kids) == 1:
            return next(iter(kids))
        return self._node(tuple(sorted(kids)), AndNode)

    def or_(self, items: list[Formula] | tuple[Formula, ...]) -> Formula:
        return neg(self.and_([-x if type(x) is int else not x for x in items]))

    def implies(self, a: Formula, b: Formula) -> Formula:
        return neg(self.and_([a, neg(b)]))

    def implications(self, pairs: list[tuple[int, int | bool]]) -> Formula:
        """`a1 -> b1 and a2 -> b2 and …` for plain variables `a` (and `b`, or False): what
        `and_` and `implies` build, without their general cases when no rule forced any of
        them. Two one-hot labels compared are this, value by value, where no auxiliary
        variable may stand for it (explanations, a plan's templates): 13 implications per edge
        of a 15x15 path puzzle, a third of its grounding through `and_`."""
        units = self.units
        if units and any(a in units or (b is not False and b in units) for a, b in pairs):
            return self.and_([self.implies(a, b) for a, b in pairs])
        kids: set[int] = set()
        for a, b in pairs:
            if b is False:
                kids.add(-a)
            elif a != b:  # `a -> a` holds
                kids.add(-self._node((-b, a) if -b < a else (a, -b), AndNode))
        if not kids:
            return True
        if len(kids) == 1:
            return next(iter(kids))
        return self._node(tuple(sorted(kids)), AndNode)

    def iff(self, a: Formula, b: Formula) -> Formula:
        if a is True or a is False:
            return b if a else neg(b)
        if b is True or b is False:
            return a if b else neg(a)
        if a == b:
            return True
        if a == -b:
            return False
        return self.and_([self.or_([-a, b]), self.or_([a, -b])])

    def ite(self, c: Formula, a: Formula, b: Formula) -> Formula:
        if c is True or c is False:
            return a if c else b
        return self.or_([self.and_([c, a]), self.and_([-c, b])])

    # -- linear constraints
    def linear(self, terms: dict[int, int], cmp: str, bound: int) -> Formula:
        """sum(coef * handle) cmp bound, for cmp in == != <= >= < >; simplified and normalised."""
        if cmp == "!=":
            return neg(self.linear(terms, "==", bound))
        if cmp == "<":
            cmp, bound = "<=", bound - 1
        elif cmp == ">":
            cmp, bound = ">=", bound + 1
        if cmp == "<=":
            terms = {h: -c for h, c in terms.items()}
            cmp, bound = ">=", -bound
        return self._normalised(terms, cmp, bound)

    def _normalised(self, terms: dict[int, int], cmp: str, bound: int) -> Formula:
        pos: dict[int, int] = {}
        units = self.units
        for h, c in terms.items():
            if c == 0:
                continue
            if abs(h) in units:
                if self.fixed(h) is True:
                    bound -= c
                continue
            if c < 0:
                h, c, bound = -h, -c, bound - c
            if -h in pos:  # c*h + d*(not h) == d + (c-d)*h
                d = pos.pop(-h)
                bound -= min(c, d)
                if c > d:
                    pos[h] = c - d
                elif d > c:
                    pos[-h] = d - c
                continue
            pos[h] = pos.get(h, 0) + c
        total = sum(pos.values())
        if cmp == ">=":
            if bound <= 0:
                return True
            if bound > total:
                return False
            pos = {h: min(c, bound) for h, c in pos.items()}
            if all(c >= bound for c in pos.values()):
                return self.or_(list(pos))
            if bound == sum(pos.values()):
                return self.and_(list(pos))
        else:  # ==
            if bound < 0 or bound > total:
                return False
            if bound == 0:
                return self.and_([-h for h in pos])
            if bound == total:
                return self.and_(list(pos))
            if len(pos) == 1:
                return False  # single term: only 0 or total possible
        return self._node((tuple(sorted(pos.items())), cmp, bound), LinNode)

    def at_most_one(self, handles: list[int]) -> Formula:
        """`count(handles) <= 1` over distinct variables no rule forced: the very node `linear`
        builds for it (so equal constraints still share one handle), without its general
        normalisation; a 16x16 grid's `alldiff`s build 768 of them per puzzle."""
        n = len(handles)
        if n <= 1:
            return True
        if n == 2:
            return neg(self.and_(handles))
        return self._node((tuple(sorted((-h, 1) for h in handles)), ">=", n - 1), LinNode)

    # -- copies
    def substitute(self, f: Formula, mapping: dict[int, Formula], memo: dict[int, Formula],
                   depends: dict[int, bool] | None = None) -> Formula:
        """`f` with each handle of `mapping` replaced by its formula: a plan's rules are grounded
        once over template state cells and copied into every time step. `depends` (shared across
        copies) remembers which nodes contain a mapped handle, so the rest is never walked."""
        if f is True or f is False:
            return f
        h = f if f > 0 else -f
        r = memo.get(h)
        if r is None:
            if h in mapping:
                r = mapping[h]
            elif depends is not None and not self._depends(h, mapping, depends):
                r = h
            else:
                node = self.nodes.get(h)
                if node is None:
                    r = h
                elif type(node) is AndNode:
                    r = self.and_([self.substitute(c, mapping, memo, depends) for c in node.children])
                else:
                    terms: dict[int, int] = {}
                    bound = node.bound
                    for t, c in node.terms:
                        v = self.substitute(t, mapping, memo, depends)
                        if v is True:
                            bound -= c
                        elif v is not False:
                            terms[v] = terms.get(v, 0) + c
                    r = self._normalised(terms, node.cmp, bound)
            memo[h] = r
        return r if f > 0 else neg(r)

    def _depends(self, h: int, mapping: dict[int, Formula], depends: dict[int, bool]) -> bool:
        d = depends.get(h)
        if d is None:
            node = self.nodes.get(h)
            if node is None:
                d = h in mapping
            else:
                kids = node.children if type(node) is AndNode else [t for t, _ in node.terms]
                d = any(self._depends(abs(k), mapping, depends) for k in kids)
            depends[h] = d
        return d

    def variables(self, f: Formula) -> set[int]:
        """The decision variables a formula reads."""
        out: set[int] = set()
        if f is True or f is False:
            return out
        stack, seen = [abs(f)], set()
        while stack:
            h = stack.pop()
            if h in seen:
                continue
            seen.add(h)
            node = self.nodes.get(h)
            if node is None:
                out.add(h)
            else:
                stack.extend(abs(c) for c in (node.children if type(node) is AndNode else [t for t, _ in node.terms]))
        return out

    def evaluate(self, f: Formula, value: dict[int, bool], memo: dict[int, bool] | None = None) -> bool:
        """The truth of `f` when each variable `v` has `value[v]` (missing ones are false)."""
        if f is True or f is False:
            return f
        memo = {} if memo is None else memo
        h = abs(f)
        r = memo.get(h)
        if r is None:
            node = self.nodes.get(h)
            if node is None:
                r = value.get(h, False)
            elif type(node) is AndNode:
                r = all(self.evaluate(c, value, memo) for c in node.children)
            else:
                total = sum(c for t, c in node.terms if self.evaluate(t, value, memo))
                r = total >= node.bound if node.cmp == ">=" else total == node.bound
            memo[h] = r
        return r if f > 0 else not r

    # -- assertions
    def add_graph(self, gc: GraphConstraint) -> None:
        self.graphs.append(gc)

    def require(self, f: Formula, span: Span, label: str | None, rule: Span | None = None,
                binding: tuple[tuple[str, object], ...] | None = None) -> list[int] | None:
        """Assert `f`; returns the literals it forces when they are folded (`fold_units`)."""
        if f is True or f is False:
            if f is False and self.false_rule is None:
                self.false_rule = Assertion(0, span, label, rule, binding)
            return []
        self.assertions.append(Assertion(f, span, label, rule or span, binding))
        if len(self.assertions) > self._bound:
            limits.check("clauses", len(self.assertions), "the rules ground into too many constraints (so far)", span)
        if not self.fold_units:
            return None
        forced = self.forced(f)
        for lit in forced:
            self.units[abs(lit)] = lit > 0
        return forced


def neg(f: Formula) -> Formula:
    if f is True or f is False:
        return not f
    return -f
