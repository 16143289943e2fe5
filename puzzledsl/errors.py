"""User-facing errors with source locations, printed like a compiler does.

Every error a user can cause is a `PuzzleError`; the CLI turns it into
`path:line:col: error: message`, the source line, a caret under the span and an
optional `help:` line, and exits with the error's exit code. Nothing a user
writes should surface as a Python traceback.
"""

from __future__ import annotations

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


class PuzzleError(Exception):
    """An error in the user's input: rules, data, options."""

    exit_code = EXIT_INPUT_ERROR

    def __init__(self, message: str, span: Span | None = None, help: str | None = None):
        super().__init__(message)
        self.message = message
        self.span = span
        self.help = help


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
            text = Path(path).read_text(encoding="utf-8", errors="replace")
        except OSError:
            return None
    lines = text.splitlines()
    if 1 <= line <= len(lines):
        return lines[line - 1].rstrip("\r\n")
    return None


def format_error(err: PuzzleError, color: bool = False) -> str:
    """Render an error as `path:line:col: error: msg`, the line, and a caret."""
    red, bold, blue, reset = ("\x1b[31;1m", "\x1b[1m", "\x1b[34;1m", "\x1b[0m") if color else ("",) * 4
    head = f"{red}error{reset}{bold}: {err.message}{reset}"
    out: list[str] = []
    span = err.span
    if span is None:
        out.append(head)
    else:
        out.append(f"{bold}{span}{reset}: {head}")
        src = _source_line(span.path, span.line)
        if src is not None:
            num = str(span.line)
            pad = " " * len(num)
            width = 1
            if span.end_line == span.line and span.end_column > span.column:
                width = span.end_column - span.column
            expanded = src.expandtabs(1)
            col = max(span.column - 1, 0)
            width = max(1, min(width, max(len(expanded) - col, 1)))
            out.append(f"{blue}{pad} |{reset}")
            out.append(f"{blue}{num} |{reset} {expanded}")
            out.append(f"{blue}{pad} |{reset} {' ' * col}{red}{'^' * width}{reset}")
    if err.help:
        out.append(f"{blue}help{reset}: {err.help}")
    return "\n".join(out)
