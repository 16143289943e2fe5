"""Filters by equality, answered from an index.

`exactly(1, (q, d) in candidates where q == p: …)` inside `forall p in cells(g)` is how a rule
file groups a list by one of its parts; scanned item by item it costs cells × candidates filter
calls (1.3 million on a 20×36 board with 1,856 candidate pairs). When a binding's filter says `NAME == E` (alone
or as one item of an `and`), NAME bound by the binding and E reading none of its names, the
items whose NAME equals E are looked up in an index of the list, built once per list object;
the whole filter still runs on them, so the index only skips items that would fail it. A
second kind, `F == E` with F an expression of the item (`letters[a[0]] == k`), groups the items
by F's value, read once per item (`keyed_spec`, `Joins.grouped`; the grounder's fast path).
"""

from __future__ import annotations

from collections.abc import Callable

from .syntax import ast as A
from .values import Symbol

MIN_ITEMS = 16  # a shorter list is scanned: building its index costs more than it saves
MAX_INDEXES = 512  # lists indexed at once; the oldest index is dropped beyond that

Spec = tuple[int | None, A.Expr]  # the compared name's place in a tuple pattern (None: the name itself), E


def names_in(e: A.Expr, out: set[str]) -> set[str]:
    """Every name `e` reads (bindings' sources and filters too), added to `out`."""
    if isinstance(e, A.Name):
        out.add(e.id)
    if isinstance(e, A.Aggregate):
        for b in e.bindings:
            names_in(b.source, out)
            for w in (b.where, b.while_):
                if w is not None:
                    names_in(w, out)
    for c in A.children(e):
        if isinstance(c, A.Expr):
            names_in(c, out)
    return out


def join_spec(b: A.Binding, where: A.Expr | None) -> Spec | None:
    """`NAME == E` among the conjuncts of `where`, if NAME is bound by `b` and E reads none of its names."""
    if where is None:
        return None
    items = where.items if isinstance(where, A.Logic) and where.op == "and" else (where,)
    for c in items:
        if not (isinstance(c, A.Compare) and c.op == "=="):
            continue
        for name, other in ((c.left, c.right), (c.right, c.left)):
            if isinstance(name, A.Name) and name.id in b.names and not names_in(other, set()) & set(b.names):
                return (b.names.index(name.id) if b.is_tuple else None), other
    return None


def keyed_spec(b: A.Binding, where: A.Expr | None,
               outer: Callable[[str], bool]) -> tuple[A.Expr, A.Expr, frozenset[str]] | None:
    """`F == E` among the conjuncts of `where`, F an expression of the item (it reads a name bound by
    `b`, and otherwise only names for which `outer` holds: givens, defines) but not the bare name
    `join_spec` takes, E reading none of `b`'s names: the items can be grouped by F once per list.
    Also the other names F reads: a loop variable of that name would hide the global one."""
    if where is None:
        return None
    items = where.items if isinstance(where, A.Logic) and where.op == "and" else (where,)
    bound = set(b.names)
    for c in items:
        if not (isinstance(c, A.Compare) and c.op == "=="):
            continue
        for f, e in ((c.left, c.right), (c.right, c.left)):
            if isinstance(f, A.Name):
                continue
            read = names_in(f, set())
            if read & bound and all(n in bound or outer(n) for n in read) and not names_in(e, set()) & bound:
                return f, e, frozenset(read - bound)
    return None


def keyable(v: object) -> bool:
    """A known value whose `==` in the language implies Python's on a dict key: a number, a truth
    value, a symbol, `?`, or a tuple of these (Python's `==` may say more, `True == 1`: the filter
    itself still runs on every item found)."""
    t = type(v)
    if t is tuple:
        return all(keyable(x) for x in v)  # type: ignore[union-attr]
    return t is int or t is bool or t is Symbol or v is None


def _plain(v: object) -> bool:
    """A value whose `==` in the language is Python's: a number or a cell (no `?`, no symbol)."""
    return type(v) is int or (type(v) is tuple and all(type(x) is int for x in v))


class Joins:
    """The indexes of one compile, keyed by the list object (kept alive, so its id stays its own)."""

    def __init__(self) -> None:
        self._specs: dict[tuple, Spec | None] = {}  # `join_spec`s, and `keyed_spec`s under a third part
        self._indexes: dict[tuple[int, int | None], tuple[object, dict | None]] = {}  # (list, position or F)

    def spec(self, b: A.Binding, where: A.Expr | None) -> Spec | None:
        key = (id(b), id(where))
        if key not in self._specs:
            self._specs[key] = join_spec(b, where)
        return self._specs[key]

    @staticmethod
    def value(read: Callable[[], object]) -> object:
        """E's value, or None (scan) where reading it fails: the filter may guard E by an earlier
        item of its `and` (`inside(g, p + d) and k == g[p + d]`), which the scan respects."""
        try:
            return read()
        except Exception:  # noqa: BLE001 - any failure: let the filter speak, item by item
            return None

    def keyed(self, b: A.Binding, where: A.Expr | None,
              outer: Callable[[str], bool]) -> tuple[A.Expr, A.Expr, frozenset[str]] | None:
        """`keyed_spec`, worked out once per binding and filter."""
        key = (id(b), id(where), "keyed")
        if key not in self._specs:
            self._specs[key] = keyed_spec(b, where, outer)  # type: ignore[assignment]
        return self._specs[key]  # type: ignore[return-value]

    def grouped(self, items: object, b: A.Binding, where: A.Expr | None, env: dict,
                outer: Callable[[str], bool], read: Callable[[A.Expr, dict], object]) -> object:
        """The items whose F is E, for a filter's `F == E` (`keyed_spec`; `outer` says which names
        F may read besides the item's), each item's F read once per list with `read` (the
        grounder's closures, or the re-check's reader); `items` itself when no index serves: a
        short list, no such equality, a loop variable hiding a name F reads, an E or F that fails
        or is no key."""
        if type(items) is not list or len(items) < MIN_ITEMS:
            return items
        spec = self.keyed(b, where, outer)
        if spec is None or any(n in env for n in spec[2]):
            return items
        f, e, _ = spec
        try:
            value = read(e, env)
        except Exception:  # noqa: BLE001 - the filter says what is wrong, item by item
            return items
        if not keyable(value):
            return items
        hit = self._indexes.get((id(items), id(f)))
        if hit is None or hit[0] is not items:
            hit = (items, _grouping(items, b, f, read))
            if len(self._indexes) >= MAX_INDEXES:
                del self._indexes[next(iter(self._indexes))]
            self._indexes[id(items), id(f)] = hit
        return items if hit[1] is None else hit[1].get(value, ())

    def lookup(self, items: object, pos: int | None, value: object) -> object:
        """The items whose part `pos` equals `value`, or `items` itself when no index serves."""
        if not _plain(value) or type(items) is not list or len(items) < MIN_ITEMS:
            return items
        key = (id(items), pos)
        hit = self._indexes.get(key)
        if hit is None or hit[0] is not items:
            hit = (items, _index(items, pos))
            if len(self._indexes) >= MAX_INDEXES:
                del self._indexes[next(iter(self._indexes))]
            self._indexes[key] = hit
        index = hit[1]
        return items if index is None else index.get(value, ())


def _grouping(items: list, b: A.Binding, f: A.Expr, read: Callable[[A.Expr, dict], object]) -> dict | None:
    """The items by their F, read with the item's names alone; None where an item's F fails (an
    earlier part of the filter passes over that item) or is no key."""
    out: dict = {}
    names, whole = b.names, not b.is_tuple
    for x in items:
        try:
            k = read(f, {names[0]: x} if whole else dict(zip(names, x)))  # type: ignore[call-overload]
        except Exception:  # noqa: BLE001 - an item the filter's earlier parts would pass over
            return None
        if not keyable(k):
            return None
        out.setdefault(k, []).append(x)
    return out


def _index(items: list, pos: int | None) -> dict | None:
    out: dict = {}
    for x in items:
        if pos is not None:
            if type(x) is not tuple or len(x) <= pos:
                return None
            k = x[pos]
        else:
            k = x
        if not _plain(k):
            return None
        out.setdefault(k, []).append(x)
    return out
