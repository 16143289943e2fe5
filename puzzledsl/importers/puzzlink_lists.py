"""puzz.link's code for clue cells that hold a list of numbers (pzprjs `decodeNumber_tapa`).

Written from reading pzprjs's format: a cell's code is one character for one number (`0`-`8`,
`.` a `?`) and `9` for four 1s; two base-36 characters for two numbers (360 + 6a + b, each
up to 5), three (396 + 16a + 4b + c, each up to 3) or four (460 + 8a + 4b + 2c + d, each 1
or `?`), a 0 standing for `?`; `g`..`z` skip 1..20 empty cells. A cell's value is a list of
numbers, None for a `?`; an empty cell is None.
"""

from __future__ import annotations

from collections.abc import Sequence

from .puzzlink_codec import Body, _b36, _skip_runs, _unexpected

NumberList = list[int | None] | None
_WIDE = ((2, 360, (6, 1), 5), (3, 396, (16, 4, 1), 3), (4, 460, (8, 4, 2, 1), 1))
"""(items, first code, the weight of each item, the largest item) of the two-character codes."""


def decode_number_lists(body: Body, n: int) -> list[NumberList]:
    cells: list[NumberList] = [None] * n
    c = 0
    while c < n and not body.done():
        ch = body.peek()
        if "0" <= ch <= "9" or ch == ".":
            cells[c] = [1, 1, 1, 1] if ch == "9" else [None] if ch == "." else [int(ch)]
            body.pos += 1
        elif "a" <= ch <= "f":
            at = body.pos
            code = body.take(2, 36, "a clue")
            wide = next((w for w in _WIDE if w[1] <= code < w[1] + w[2][0] * (w[3] + 1)), None)
            if wide is None:
                raise body.error(f"`{body.text[at:at + 2]}` is not the code of a clue", at=at, width=2)
            rest = code - wide[1]
            cells[c] = [rest // w % (wide[3] + 1) or None for w in wide[2]]
        elif "g" <= ch <= "z":
            c += int(ch, 36) - 16
            body.pos += 1
        else:
            raise _unexpected(body, "the grid")
        c += 1
    body.ended_early(n - c, "cell")
    return cells


def _code(v: NumberList) -> str | None:
    if v is None:
        return None
    if len(v) == 1 and (v[0] is None or 0 <= v[0] <= 8):
        return "." if v[0] is None else str(v[0])
    if list(v) == [1, 1, 1, 1]:
        return "9"
    for items, first, weights, top in _WIDE:
        if len(v) == items and all(x is None or 1 <= x <= top for x in v):
            code = first + sum(w * (x or 0) for w, x in zip(weights, v))
            return _b36(code // 36) + _b36(code % 36)
    raise ValueError(f"the clue {v} has no puzz.link code")


def encode_number_lists(cells: Sequence[NumberList]) -> str:
    return _skip_runs([_code(v) for v in cells], 20, 15)
