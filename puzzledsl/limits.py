"""Bounds on the work one run may do, so that a typo or a hostile file gives a clear error
instead of exhausting memory or blocking forever.

Every default is above the real data sets (the largest stored puzzle, a 1002×1002 board
of `../shared/data`, has 1,004,004 cells in a 3 MB file; typical boards have
100 to 2,000 cells) and below what exhausts a laptop (a million Boolean cells take ~0.7 GB
to ground), and each can be raised on the command line with `--limit NAME=N`. The limits in force are a
context value, set once by the command line (`using`), read where the work happens
(`current`); library callers get the defaults.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, fields, replace

from .errors import PuzzleError, Span


@dataclass(frozen=True)
class Limits:
    cells: int = 4_000_000  # cells of one grid, and values of one range a quantifier runs over
    domain: int = 1_000_000  # values of one integer variable (`var x: LO..HI`)
    data_bytes: int = 64 * 2**20  # bytes of one rule or data file
    import_cells: int = 4_000_000  # cells (or lengths) an importer may build from one puzzle
    nesting: int = 2_000  # levels of nested expressions in one statement
    # clauses of one encoded formula, and constraints and definitions while grounding; the largest
    # stored real board under its bundled rules (40x57) encoded to 34 million
    clauses: int = 100_000_000


DOC = {
    "cells": "cells of one grid",
    "domain": "values of one integer variable",
    "data_bytes": "bytes of one input file",
    "import_cells": "cells or lengths in one imported puzzle",
    "nesting": "levels of nested expressions in one statement",
    "clauses": "clauses of one encoded formula",
}

_DEFAULT = Limits()
_current: ContextVar[Limits | None] = ContextVar("puzzledsl_limits", default=None)


def current() -> Limits:
    return _current.get() or _DEFAULT


@contextmanager
def using(limits: Limits) -> Iterator[Limits]:
    token = _current.set(limits)
    try:
        yield limits
    finally:
        _current.reset(token)


def parse_limits(items: list[str] | None) -> Limits:
    """`--limit NAME=N` settings (repeatable) over the defaults; a bad one is an input error."""
    out = Limits()
    names = [f.name for f in fields(Limits)]
    for item in items or []:
        name, eq, value = item.partition("=")
        name = name.strip().replace("-", "_")
        if not eq or name not in names:
            raise PuzzleError(f"`--limit {item}` is not NAME=N",
                              help="limits: " + ", ".join(f"{n} ({DOC[n]}, default {getattr(Limits(), n):,})"
                                                          for n in names))
        try:
            n = int(value.replace("_", ""))
        except ValueError:
            n = 0
        if n <= 0:
            raise PuzzleError(f"`--limit {item}`: the limit must be a positive whole number")
        out = replace(out, **{name: n})
    return out


def check(name: str, amount: int, what: str, span: Span | None = None) -> None:
    """Raise a located error when `amount` exceeds the limit `name`."""
    bound = getattr(current(), name)
    if amount > bound:
        raise PuzzleError(f"{what}: {amount:,} is more than the limit of {bound:,}", span,
                          f"raise it with `--limit {name}={amount}` if this is intended")


def size(r: range) -> int:
    """The number of values of a range, also past 2^63 (where `len()` raises OverflowError)."""
    return max(0, -(-(r.stop - r.start) // r.step))


def grid_cells(sizes: list[int] | tuple[int, ...], what: str, span: Span | None = None) -> None:
    """A grid of these dimension sizes stays within the cell limit (checked before it is built)."""
    total = 1
    for s in sizes:
        total *= max(s, 0)
    check("cells", total, f"{what} has too many cells", span)


@contextmanager
def deep_recursion(frames: int = 40_000) -> Iterator[None]:
    """Let Python recurse deep enough for `nesting` levels (lark's transformer, the checker and
    pickling recurse a few frames per level); Python 3.11 keeps pure-Python calls off the C stack."""
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, frames))
    try:
        yield
    finally:
        sys.setrecursionlimit(old)
