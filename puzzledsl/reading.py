"""Reading an input file without trusting it: only regular files (a FIFO would block, a
device such as /dev/zero never ends), at most `limits.data_bytes` bytes, UTF-8 text."""

from __future__ import annotations

import codecs
import errno
import os
import stat
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO

from . import limits
from .errors import PuzzleError, Span

_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a named pipe"), (stat.S_ISCHR, "a device"),
          (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket"))


def read_text(path: Path, span: Span | None = None) -> str:
    """The file's text with newlines normalised, or a `PuzzleError` saying why not."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # opening a FIFO must not wait for a writer
    except FileNotFoundError:
        raise PuzzleError(f"no such file: {path}", span) from None
    except OSError as err:
        why = "a loop of symbolic links" if err.errno == errno.ELOOP else err.strerror
        raise PuzzleError(f"cannot read {path}: {why}", span) from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        kind = next((word for test, word in _KINDS if test(mode)), "not a regular file")
        piped = stat.S_ISFIFO(mode) or stat.S_ISCHR(mode)  # `--data /dev/stdin`, `<(generate …)`
        raise PuzzleError(f"cannot read {path}: it is {kind}, not a file", span,
                          "data can come from standard input: `--data -`" if piped else None)
    with os.fdopen(fd, "rb") as f:
        bound = limits.current().data_bytes
        try:
            data = f.read(bound + 1)
        except OSError as err:
            raise PuzzleError(f"cannot read {path}: {err.strerror}", span) from None
    if len(data) > bound:
        raise PuzzleError(f"{path} is larger than the limit of {bound:,} bytes", span,
                          "raise it with `--limit data_bytes=N` if this is intended")
    bom = len(codecs.BOM_UTF8) if data.startswith(codecs.BOM_UTF8) else 0  # some editors begin with one:
    try:  # no part of the text (it would be an unexpected character, or not JSON)
        text = data[bom:].decode("utf-8")
    except UnicodeDecodeError as err:
        raise PuzzleError(f"cannot read {path}: not UTF-8 text (byte {bom + err.start + 1})", span) from None
    return text.replace("\r\n", "\n").replace("\r", "\n")


@contextmanager
def output_file(path: Path) -> Iterator[TextIO]:
    """A text file opened for writing (`-`: standard output, as `--data -` is standard input);
    a missing folder or a folder as the target is an input error."""
    if str(path) == "-":
        yield sys.stdout
        return
    try:
        f = open(path, "w", encoding="utf-8")
    except OSError as err:
        why = {errno.ENOENT: "its folder does not exist", errno.EISDIR: "it is a folder"}.get(err.errno, err.strerror)
        raise PuzzleError(f"cannot write {path}: {why}") from None
    with f:
        yield f


def resolved(path: Path, span: Span | None = None) -> Path:
    """`path.resolve()`, with a symlink loop as an input error rather than a RuntimeError."""
    try:
        return path.resolve()
    except (OSError, RuntimeError):
        raise PuzzleError(f"cannot read {path}: a loop of symbolic links", span) from None
