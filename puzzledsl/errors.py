"""User-facing errors with source locations, printed like a compiler does.

Every error a user can cause is a `PuzzleError`; the CLI turns it into
`path:line:col: error: message`, the source line, a caret under the span and an
optional `help:` line, and exits with the error's exit code. Nothing a user
writes should surface as a Python traceback.
"""

from __future__ import annotations

import difflib
import stat
from dataclasses import dataclass
from pathlib import Path

EXIT_SOLVED = 0
EXIT_NO_SOLUTION = 1
EXIT_INPUT_ERROR = 2
EXIT_TIME_LIMIT = 3


@dataclass(frozen=True)
class Span:
    """A region of a source text; lines and columns are 1-based, end exclusive."""

    path: str
    line: int
    column: int
    end_line: int = 0
    end_column: int = 0

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}"


def offset_span(text: str, path: str, start: int, end: int) -> Span:
    """The span of `text` between two offsets (on the start's line), for a reader that finds
    its places as offsets (a JSON value, a regular expression's match, an importer's cell)."""
    line = text.count("\n", 0, start) + 1
    column = start - (text.rfind("\n", 0, start) + 1) + 1
    stop = text.find("\n", start, end)
    width = (stop if stop >= 0 else end) - start
    return Span(path, line, column, line, column + max(width, 1))


def did_you_mean(name: str, known: list[str] | tuple[str, ...]) -> str | None:
    """`did you mean `x`?` for the closest of `known` to a misspelt `name`, if any is close."""
    close = difflib.get_close_matches(name, sorted(set(known)), n=1)
    return f"did you mean `{close[0]}`?" if close else None


class PuzzleError(Exception):
    """An error in the user's input: rules, data, options."""

    exit_code = EXIT_INPUT_ERROR

    def __init__(self, message: str, span: Span | None = None, help: str | None = None):
        super().__init__(message)
        self.message = message
        self.span = span
        self.help = help

    def __str__(self) -> str:
        """`file:line:col: message` and the help, as the command line says it (a Python caller
        printing the exception sees the place too); `message` alone is `.message`."""
        text = f"{self.span}: {self.message}" if self.span is not None else self.message
        return text + (f" (help: {self.help})" if self.help else "")


class DataError(PuzzleError):
    """A data file (or data block) is malformed or does not fit the rules' givens."""


_source_cache: dict[str, str] = {}


def register_source(path: str, text: str) -> None:
    """Remember a text so that errors can quote it, also for in-memory sources."""
    _source_cache[path] = text


def _source_line(path: str, line: int) -> str | None:
    text = _source_cache.get(path)
    if text is None:
        try:  # only a regular file of sensible size: never a FIFO or a device
            st = Path(path).stat()
            if not stat.S_ISREG(st.st_mode) or st.st_size > 64 * 2**20:
                return None
            text = Path(path).read_text(encoding="utf-8-sig", errors="replace")  # as reading.py
        except OSError:
            return None
    lines = text.splitlines()
    if 1 <= line <= len(lines):
        return lines[line - 1].rstrip("\r\n")
    return None


QUOTE_WIDTH = 120  # a longer source line (one-line JSON: megabytes) is quoted as a window
QUOTE_BEFORE = 40  # characters of the window before the column


def quoted_window(line: str, col: int) -> tuple[str, int]:
    """The part of `line` to quote around the 0-based column `col`, and the column in it: the
    whole line when it is short, else a window marked `…` on the side(s) cut off."""
    if len(line) <= QUOTE_WIDTH:
        return line, col
    start = max(0, min(col - QUOTE_BEFORE, len(line) - QUOTE_WIDTH))
    end = start + QUOTE_WIDTH
    head = "…" if start > 0 else ""
    tail = "…" if end < len(line) else ""
    return head + line[start:end] + tail, col - start + len(head)


_CONTROL = dict.fromkeys([*range(0x20), 0x7f, *range(0x80, 0xa0)])


def shown_line(line: str) -> str:
    """A source line as quoted: control characters (a binary file's, a terminal escape) as `�`,
    one column each, so they neither act on the terminal nor move the caret. Tabs are spaces."""
    return line.expandtabs(1).translate({k: "\ufffd" for k in _CONTROL})


def shown_text(text: str) -> str:
    """A message or help as printed: a control character it quotes (`unexpected character`)
    written as its escape (`\\x1b`), newlines kept."""
    return "".join(repr(ch)[1:-1] if ord(ch) in _CONTROL and ch != "\n" else ch for ch in text)


def format_error(err: PuzzleError, color: bool = False) -> str:
    """Render an error as `path:line:col: error: msg`, the line, and a caret; with `color`, the
    same text with rich's terminal styles (the plain text is `error_text(err).plain`)."""
    text = error_text(err)
    if not color:
        return text.plain
    import io

    from rich.console import Console
    out = io.StringIO()
    Console(file=out, force_terminal=True, color_system="standard", soft_wrap=True, highlight=False,
            emoji=False, markup=False).print(text)
    return out.getvalue().rstrip("\n")


def error_text(err: PuzzleError):  # -> rich.text.Text (rich is imported only when an error is shown)
    """The error as a rich `Text`: the word `error` and the carets red, the head bold, the gutter
    and `help` blue; read without colour it is the compiler-style plain text."""
    from rich.text import Text
    red, bold, blue = "bold red", "bold", "bold blue"
    head = Text.assemble(("error", red), (f": {shown_text(err.message)}", bold))
    out = Text()
    span = err.span
    if span is None:
        out.append_text(head)
    else:
        out.append(f"{span}", bold)
        out.append(": ")
        out.append_text(head)
        src = _source_line(span.path, span.line)
        if src is not None:
            num = str(span.line)
            pad = " " * len(num)
            width = 1
            if span.end_line == span.line and span.end_column > span.column:
                width = span.end_column - span.column
            expanded, col = quoted_window(shown_line(src), max(span.column - 1, 0))
            width = max(1, min(width, max(len(expanded) - col, 1)))
            out.append("\n")
            out.append(f"{pad} |", blue)
            out.append("\n")
            out.append(f"{num} |", blue)
            out.append(f" {expanded}\n")
            out.append(f"{pad} |", blue)
            out.append(f" {' ' * col}")
            out.append("^" * width, red)
    if err.help:
        if out:
            out.append("\n")
        out.append("help", blue)
        out.append(f": {shown_text(err.help)}")
    return out
