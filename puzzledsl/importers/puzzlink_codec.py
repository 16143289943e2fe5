"""The cell encodings of puzz.link (pzprjs) URL bodies, decoded and encoded.

Written from reading pzprjs's `Encode.js` (the format, not the code): a body is a run of
short codes, one per cell or per group of cells, with letters that skip empty cells. Each
decoder reads from a `Body` cursor, so an error can point at the character in the URL
where it went wrong; each encoder is the exact inverse pzprjs writes, so that a URL made
by puzz.link comes back unchanged.

Values: an int is a number, None an empty cell, `QUESTION` a `?` (pzprjs's qnum -2).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from puzzledsl.errors import DataError, Span

QUESTION = "?"
Cell = int | str | None


class Body:
    """The coded part of a URL and a reading position; `column` is where it starts on the line."""

    def __init__(self, text: str, path: str, column: int) -> None:
        self.text, self.path, self.column, self.pos = text, path, column, 0
        self.unread: dict[str, int] = {}  # places the body ended before, by their noun (`ended_early`)

    def error(self, message: str, at: int | None = None, width: int = 1, help: str | None = None) -> DataError:
        col = self.column + (self.pos if at is None else at)
        return DataError(message, Span(self.path, 1, col, 1, col + width), help)

    def peek(self) -> str:
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def take(self, n: int, base: int, what: str) -> int:
        """`n` characters read as a number in `base`."""
        chunk = self.text[self.pos : self.pos + n]
        try:
            if len(chunk) < n:
                raise ValueError
            value = int(chunk, base)
        except ValueError:
            raise self.error(f"expected {n} base-{base} digit{'s' * (n > 1)} for {what}, found {chunk!r}",
                             width=max(len(chunk), 1)) from None
        self.pos += n
        return value

    def part(self) -> Body:
        """The text up to the next `/` as a body of its own (this cursor moves past the `/`)."""
        end = self.text.find("/", self.pos)
        end = len(self.text) if end < 0 else end
        sub = Body(self.text[self.pos : end], self.path, self.column + self.pos)
        self.pos = min(end + 1, len(self.text))
        return sub

    def done(self) -> bool:
        return self.pos >= len(self.text)

    def ended_early(self, left: int, noun: str) -> None:
        """A decoder stopped with `left` places unread because the body ended: pzprjs reads them
        as empty, and so do we (URLs that rely on it are in use), but `load_url` warns of it."""
        if left > 0 and self.done():
            self.unread[noun] = self.unread.get(noun, 0) + left

    def finish(self) -> None:
        """Nothing may follow the puzzle (pzprjs ignores it; a typo should not pass unseen)."""
        if not self.done():
            raise self.error(f"unexpected {self.text[self.pos:]!r} after the end of the puzzle",
                             width=len(self.text) - self.pos)


def _b36(n: int) -> str:
    return "0123456789abcdefghijklmnopqrstuvwxyz"[n]


def _unexpected(body: Body, what: str) -> DataError:
    return body.error(f"unexpected {body.peek()!r} in {what}")


def _skip_runs(parts: list[str | None], limit: int, offset: int) -> str:
    """Codes in order, each run of up to `limit` empty cells (None) written as one letter."""
    out, count = [], 0
    for code in parts:
        if code is None:
            count += 1
            if count == limit:
                out.append(_b36(count + offset))
                count = 0
            continue
        if count:
            out.append(_b36(count + offset))
            count = 0
        out.append(code)
    if count:
        out.append(_b36(count + offset))
    return "".join(out)


# ----------------------------------------------------------------- numbers (16) and excells

NUMBER16_WIDE = {"-": (2, 0), "+": (3, 0), "=": (3, 4096), "%": (3, 8192), "@": (3, 8192), "*": (4, 12240),
                 "$": (5, 77776)}
"""A wide number's lead character: (its hex digits, the value added)."""


def decode_number16(body: Body, n: int, what: str = "the grid",
                    wide: dict[str, tuple[int, int]] = NUMBER16_WIDE) -> list[Cell]:
    """pzprjs `decodeNumber16`: hex digits, `-xx`, `+xxx`, `=xxx`, `%xxx`/`@xxx`, `*xxxx`, `$xxxxx`,
    `.` for `?`; `g`..`z` skip 1..20 cells."""
    cells: list[Cell] = [None] * n
    c = 0
    while c < n and not body.done():
        ch = body.peek()
        if ch in "0123456789abcdef":
            cells[c] = int(ch, 16)
            body.pos += 1
        elif ch in wide:
            digits, add = wide[ch]
            body.pos += 1
            cells[c] = body.take(digits, 16, "a number") + add
        elif ch == ".":
            cells[c] = QUESTION
            body.pos += 1
        elif "g" <= ch <= "z":
            c += int(ch, 36) - 16
            body.pos += 1
        else:
            raise _unexpected(body, what)
        c += 1
    body.ended_early(n - c, "cell")
    return cells


def _write16(v: Cell) -> str | None:
    if v is None:
        return None
    if v == QUESTION:
        return "."
    assert isinstance(v, int)
    for lo, hi, lead, width in ((0, 16, "", 0), (16, 256, "-", 0), (256, 4096, "+", 0), (4096, 8192, "=", 3),
                                (8192, 12240, "@", 3), (12240, 77776, "*", 4), (77776, 1126352, "$", 5)):
        if lo <= v < hi:
            digits = format(v - (lo if width else 0), "x")
            return lead + digits.rjust(width, "0")
    raise ValueError(f"the number {v} is out of range")


def encode_number16(cells: Sequence[Cell]) -> str:
    return _skip_runs([_write16(v) for v in cells], 20, 15)


def decode_excell16(body: Body, n: int, what: str = "the clues outside the grid") -> list[Cell]:
    """pzprjs `decodeNumber16ExCell`: like `decode_number16` with only `-xx` for large numbers."""
    return decode_number16(body, n, what, {"-": (2, 0)})


# ----------------------------------------------------------------- 0..4 per cell, 0..9 per cell

def decode_cell4(body: Body, n: int) -> list[Cell]:
    """pzprjs `decode4Cell`: `0`-`4` a number, `5`-`9` a number and one empty cell, `a`-`e` a number
    and two, `.` a `?`, `g`..`z` 1..20 empty cells."""
    cells: list[Cell] = [None] * n
    c = 0
    while c < n and not body.done():
        ch = body.peek()
        if "0" <= ch <= "9" or "a" <= ch <= "e":
            v = int(ch, 16)
            cells[c] = v % 5
            c += v // 5
        elif ch == ".":
            cells[c] = QUESTION
        elif "g" <= ch <= "z":
            c += int(ch, 36) - 16
        else:
            raise _unexpected(body, "the grid")
        body.pos += 1
        c += 1
    body.ended_early(n - c, "cell")
    return cells


def encode_cell4(cells: Sequence[Cell]) -> str:
    parts: list[str | None] = []
    c, n = 0, len(cells)
    while c < n:
        v = cells[c]
        if v is None:
            parts.append(None)
        elif v == QUESTION:
            parts.append(".")
        else:
            assert isinstance(v, int) and 0 <= v <= 4
            if c + 1 < n and cells[c + 1] is not None:
                parts.append(str(v))
            elif c + 2 < n and cells[c + 2] is not None:
                parts.append(format(5 + v, "x"))
                c += 1
            else:
                parts.append(format(10 + v, "x"))
                c += 2
        c += 1
    return _skip_runs(parts, 20, 15)


def decode_number10(body: Body, n: int) -> list[Cell]:
    """pzprjs `decodeNumber10`: a digit per number, `.` a `?`, `a`..`z` 1..26 empty cells."""
    cells: list[Cell] = [None] * n
    c = 0
    while c < n and not body.done():
        ch = body.peek()
        if ch.isdigit() and ch.isascii():
            cells[c] = int(ch)
        elif ch == ".":
            cells[c] = QUESTION
        elif "a" <= ch <= "z":
            c += int(ch, 36) - 10
        else:
            raise _unexpected(body, "the grid")
        body.pos += 1
        c += 1
    body.ended_early(n - c, "cell")
    return cells


# ----------------------------------------------------------------- bits: borders, binary, circles

def _decode_bits(body: Body, n: int, what: str, noun: str = "cell") -> list[bool]:
    bits: list[bool] = []
    while len(bits) < n and not body.done():
        value = body.take(1, 32, what)
        bits.extend(bool(value & (16 >> w)) for w in range(5))
    body.ended_early(n - len(bits), noun)
    return (bits + [False] * n)[:n]


def _encode_bits(bits: Sequence[bool]) -> str:
    return "".join(_b36(sum(16 >> w for w, b in enumerate(bits[i : i + 5]) if b)) for i in range(0, len(bits), 5))


def decode_borders(body: Body, cols: int, rows: int) -> tuple[list[list[bool]], list[list[bool]]]:
    """pzprjs `decodeBorder`: the borders right of each cell (rows × cols-1), then those below
    each cell (rows-1 × cols), five to a base-32 digit."""
    right = _decode_bits(body, (cols - 1) * rows, "the region borders", "border")
    below = _decode_bits(body, cols * (rows - 1), "the region borders", "border")
    return ([right[r * (cols - 1) : (r + 1) * (cols - 1)] for r in range(rows)],
            [below[r * cols : (r + 1) * cols] for r in range(rows - 1)])


def encode_borders(right: list[list[bool]], below: list[list[bool]]) -> str:
    return _encode_bits([b for row in right for b in row]) + _encode_bits([b for row in below for b in row])


def regions_from_borders(right: list[list[bool]], below: list[list[bool]], rows: int, cols: int) -> list[list[int]]:
    """Number the areas the borders cut the grid into, 1.. in reading order of their first cell."""
    region = [[0] * cols for _ in range(rows)]
    count = 0
    for r0 in range(rows):
        for c0 in range(cols):
            if region[r0][c0]:
                continue
            count += 1
            region[r0][c0] = count
            stack = [(r0, c0)]
            while stack:
                r, c = stack.pop()
                steps = [(r, c + 1, c + 1 < cols and not right[r][c]), (r, c - 1, c > 0 and not right[r][c - 1]),
                         (r + 1, c, r + 1 < rows and not below[r][c]), (r - 1, c, r > 0 and not below[r - 1][c])]
                for r2, c2, open_ in steps:
                    if open_ and not region[r2][c2]:
                        region[r2][c2] = count
                        stack.append((r2, c2))
    return region


def borders_of(grid: list[list[object]]) -> tuple[list[list[bool]], list[list[bool]]]:
    """A border wherever two neighbouring cells differ."""
    rows, cols = len(grid), len(grid[0])
    return ([[grid[r][c] != grid[r][c + 1] for c in range(cols - 1)] for r in range(rows)],
            [[grid[r][c] != grid[r + 1][c] for c in range(cols)] for r in range(rows - 1)])


def decode_binary(body: Body, n: int, what: str) -> list[bool]:
    """pzprjs `decodeBinary`: one bit per cell, five to a base-32 digit."""
    return _decode_bits(body, n, what)


def encode_binary(bits: Sequence[bool]) -> str:
    return _encode_bits(bits)


def decode_circles(body: Body, n: int) -> list[int]:
    """pzprjs `decodeCircle`: 0, 1 or 2 per cell, three cells to a base-27 digit."""
    out: list[int] = []
    while len(out) < n and not body.done():
        value = body.take(1, 27, "the circles")
        out.extend((value // t) % 3 for t in (9, 3, 1))
    body.ended_early(n - len(out), "cell")
    return (out + [0] * n)[:n]


def encode_circles(values: Sequence[int]) -> str:
    out = []
    for i in range(0, len(values), 3):
        chunk = list(values[i : i + 3])
        out.append(_b36(sum(v * t for v, t in zip(chunk, (9, 3, 1), strict=False))))
    return "".join(out)


# ----------------------------------------------------------------- genre-specific cell codes

def decode_marks(body: Body, n: int) -> list[bool]:
    """pzprjs `decode1Cell`: `0`..`h` a marked cell then 0..17 unmarked ones, `i`..`z` 1..18 unmarked."""
    marks = [False] * n
    c = 0
    while c < n and not body.done():
        ch = body.peek()
        if not (ch.isascii() and (ch.isdigit() or "a" <= ch <= "z")):
            raise _unexpected(body, "the grid")
        v = int(ch, 36)
        if v < 18:
            marks[c] = True
            c += v + 1
        else:
            c += v - 17
        body.pos += 1
    body.ended_early(n - c, "cell")
    return marks


def encode_marks(marks: Sequence[bool]) -> str:
    out, count, have = [], -1, False

    def flush() -> None:
        out.append(_b36(count if have else count + 18))

    for marked in marks:
        if marked:
            if count >= 0:
                flush()
            have, count = True, 0
            continue
        count += 1
        if count == 17:
            flush()
            have, count = False, -1
    if count >= 0:
        flush()
    return "".join(out)


def decode_hitori(body: Body, n: int) -> list[Cell]:
    """Hitori's own code: a base-36 digit per number, `-xx` for two digits, `.` an empty cell."""
    cells: list[Cell] = [None] * n
    for c in range(n):
        if body.done():
            body.ended_early(n - c, "cell")
            break
        ch = body.peek()
        if ch.isascii() and (ch.isdigit() or "a" <= ch <= "z"):
            cells[c] = int(ch, 36)
            body.pos += 1
        elif ch == "-":
            body.pos += 1
            cells[c] = body.take(2, 36, "a number")
        elif ch in "%@":
            cells[c] = QUESTION
            body.pos += 1
        elif ch == ".":
            body.pos += 1
        else:
            raise _unexpected(body, "the grid")
    return cells


def encode_hitori(cells: Sequence[Cell]) -> str:
    def code(v: Cell) -> str:
        if v is None:
            return "."
        if v == QUESTION:
            return "@"
        assert isinstance(v, int)
        if 0 <= v < 36:
            return _b36(v)
        if 36 <= v < 1296:
            return "-" + _b36(v // 36) + _b36(v % 36)
        raise ValueError(f"the number {v} is out of range")

    return "".join(code(v) for v in cells)


def decode_base32_list(body: Body, n: int, what: str) -> list[int]:
    """Box's clues: one base-32 digit each, or `-` and two."""
    out = []
    for _ in range(n):
        if body.peek() == "-":
            body.pos += 1
            out.append(body.take(2, 32, what))
        else:
            out.append(body.take(1, 32, what))
    return out


def encode_base32_list(values: Sequence[int]) -> str:
    def b32(v: int) -> str:
        if not 0 <= v < 1024:
            raise ValueError(f"the clue {v} is not between 0 and 1023")
        return _b36(v) if v < 32 else "-" + _b36(v // 32) + _b36(v % 32)

    return "".join(b32(v) for v in values)


def decode_coded(body: Body, n: int, codes: dict[str, object]) -> list[object]:
    """One character per cell from `codes`, `g`..`z` 1..20 empty cells (Tatamibari)."""
    cells: list[object] = [None] * n
    c = 0
    while c < n and not body.done():
        ch = body.peek()
        if ch in codes:
            cells[c] = codes[ch]
        elif "g" <= ch <= "z":
            c += int(ch, 36) - 16
        else:
            raise _unexpected(body, "the grid")
        body.pos += 1
        c += 1
    body.ended_early(n - c, "cell")
    return cells


def encode_coded(cells: Sequence[object], code: Callable[[object], str | None]) -> str:
    return _skip_runs([code(v) for v in cells], 20, 15)


def decode_dots(body: Body, n: int) -> list[int]:
    """pzprjs `decodeDot`: per dot position (0 none, 1 white, 2 black), a hex digit for a dot and
    the gap to the next one (0..7 positions, `e`/`f` for 7 and more), `g`..`z` 1..20 empty."""
    dots = [0] * n
    s = 0
    while s < n and not body.done():
        ch = body.peek()
        if ch in "0123456789abcdef":
            v = int(ch, 16)
            dots[s] = v % 2 + 1
            s += v // 2 + 1
        elif "g" <= ch <= "z":
            s += int(ch, 36) - 15
        else:
            raise _unexpected(body, "the dots")
        body.pos += 1
    body.ended_early(n - s, "dot position")
    return dots


def encode_dots(dots: Sequence[int]) -> str:
    parts: list[str | None] = []
    s, n = 0, len(dots)
    while s < n:
        if not dots[s]:
            parts.append(None)
            s += 1
            continue
        gap = next((i for i in range(1, 8) if s + i < n and dots[s + i]), None)
        if gap is None:
            parts.append(format(13 + dots[s], "x"))
            s += 8
        else:
            parts.append(format(2 * (gap - 1) + dots[s] - 1, "x"))
            s += gap
    return _skip_runs(parts, 20, 15)
