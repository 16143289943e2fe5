"""Cells of a given that hold lists (`given clue[1..R, 1..C]: [int?]?`), read from data.

A list is written `[3, 1]` in puzzledsl data and JSON, `3/1` in a text grid (one value
alone, `3`, is a list of one, and a token in brackets is a list too: `[3,1]`, `[?]`, `[]`);
`?` or `-` (JSON `null`) is an unknown cell when the type allows it (`[…]?`), and a legend
may map a token to a whole list (`"x": []`). Each item is read as a
cell of a given of the item type would be (a legend entry, a number, a symbol, `?`), so a bad
item is reported at the item itself.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

from .errors import DataError, Span
from .syntax import ast as A

if TYPE_CHECKING:
    from .data import Binder


def type_text(t: A.TypeRef) -> str:
    """A type as written: `int?`, `[int?]?`."""
    if t.kind == "list" and t.item is not None:
        return f"[{type_text(t.item)}]" + ("?" if t.optional else "")
    return t.kind + ("?" if t.optional else "")


def list_cell(b: Binder, d: A.Given, v: object, span: Span | None, legend: dict[str, object]) -> list | None:
    """The value of one cell of the list given `d`: a list of item values, or None (`?`)."""
    from .data import Raw

    if isinstance(v, str):
        if v in legend:
            v = legend[v]
        elif v in ("?", "-") and d.type.optional and not legend:
            return None
        elif v.startswith("[") and v.endswith("]") and len(v) > 1:  # `[?]`, `[]`, `[3,1]`
            inner = v[1:-1].replace(",", "/")
            return [_item(b, d, t, _part(span, v, k + 1), legend) for k, t in _split(inner)] if inner else []
        elif "," in v or ";" in v or "[" in v or "]" in v:
            raise DataError(f"`{v}` is not a valid value for `{d.name}`", span,
                            "in a text grid, write a list's items separated by `/` (`3/1`), or in brackets "
                            "without spaces (`[3,1]`, `[?]`, `[]`)")
        else:
            return [_item(b, d, t, _part(span, v, k), legend) for k, t in _split(v)]
    if v is None:
        if not d.type.optional:
            raise DataError(f"`{d.name}` may not hold unknown values", span,
                            f"declare it with `{type_text(d.type)}?` to allow `?`")
        return None
    if isinstance(v, list):  # items as read (data, JSON), or plain values (a legend entry)
        return [_item(b, d, x.value, x.span or span, legend) if isinstance(x, Raw) else _item(b, d, x, span, legend)
                for x in v]
    return [_item(b, d, v, span, legend)]  # one value alone: a list of one


def _item(b: Binder, d: A.Given, v: object, span: Span | None, legend: dict[str, object]) -> object:
    if isinstance(v, list):
        raise DataError(f"the items of `{d.name}` are single values: lists do not nest", span,
                        "a path of cells is written flat, `[r1, c1, r2, c2, …]` (docs §5, \"Lists of cells\")")
    item = d.type.item
    assert item is not None
    if v == "?" and item.optional and "?" not in legend:  # an unknown item, whatever the legend says of cells
        return None
    try:
        return b.cell(replace(d, type=item), v, span, legend)
    except DataError as err:
        if err.message.endswith("may not hold unknown values"):
            err.message = f"the items of `{d.name}` may not be unknown"
            err.help = f"declare it `[{item.kind}?]` to allow `?` items"
        elif "is not a valid value" in err.message:  # the help spoke of a cell holding one value
            known = ", ".join(f"`{k}`" for k in legend)
            what = {"int": "a whole number", "sym": "a name", "bool": "`true` or `false`"}.get(item.kind, "a value")
            err.help = (f"a cell of `{d.name}` is a list: its items separated by `/` (`3/1`"
                        + (", `4/?`" if item.optional else "") + ") or in brackets (`[3,1]`), each "
                        + what + (f"; the legend's {known} stand for whole cells" if known else "")
                        + (f"; a mark of its own such as `{v}` needs a legend entry (`\"{v}\": ?`, "
                           f"or a list: `\"{v}\": [?, ?]`)" if isinstance(v, str) and len(v) == 1
                           and not v.isalnum() and v not in legend else ""))
        raise


def _split(token: str) -> list[tuple[int, str]]:
    """The items of `3/1/?` with their offsets in the token."""
    out, at = [], 0
    for t in token.split("/"):
        out.append((at, t))
        at += len(t) + 1
    return out


def _part(span: Span | None, token: str, offset: int) -> Span | None:
    """The span of an item inside a token's span (the token's own when it is not one line)."""
    if span is None or span.end_line != span.line or span.end_column - span.column != len(token):
        return span
    width = len(re.split("[/,\\]]", token[offset:], maxsplit=1)[0]) or 1
    return Span(span.path, span.line, span.column + offset, span.line, span.column + offset + width)
