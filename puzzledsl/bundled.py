"""The bundled genres and their instances, found by name.

An installed puzzledsl carries its rule files (`puzzles/` in a checkout, `puzzledsl/stdlib`
in a wheel), so `puzzledsl solve GENRE --data x.txt` and `puzzledsl solve
GENRE/INSTANCE.puz` work from any folder. A local file of the same name always wins.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from .errors import PuzzleError
from .values import plain


def library_dirs() -> list[Path]:
    """Where bundled names are looked up: $PUZZLEDSL_PATH, then the bundled puzzles
    (the same folders `use "name"` searches)."""
    from .syntax.parser import stdlib_dirs
    return stdlib_dirs()


def find(name: str | os.PathLike[str]) -> Path | None:
    """The bundled file a name means (`GENRE`, `GENRE.puz`, `GENRE/INSTANCE.puz`,
    `GENRE/DATA.txt`), or None."""
    text = os.fspath(name)
    if not text or Path(text).is_absolute() or ".." in Path(text).parts:
        return None
    names = [text] if Path(text).suffix else [text + ".puz", text]
    for folder in library_dirs():
        for n in names:
            cand = folder / n
            if cand.is_file():
                return cand
    return None


def data_instance(name: str | os.PathLike[str]) -> tuple[Path, Path] | None:
    """(rules, data) for a bundled instance that is a data file (`GENRE/x.txt`: the data of
    `GENRE.puz`), which `puzzledsl list` shows among the genre's instances; else None."""
    if Path(name).is_file() or Path(name).suffix in ("", ".puz"):
        return None
    found = find(name)
    if found is None:
        return None
    rules = found.parent.parent / (found.parent.name + ".puz")
    return (rules, found) if rules.is_file() else None


def resolve(path: Path, what: str = "genre or instance") -> Path:
    """A path as given if it exists, else the bundled file of that name; a located error
    naming the bundled genres when neither exists."""
    if path.is_file() or str(path) == "-":
        return path
    found = find(path)
    if found is not None:
        return found
    if path.exists() or path.is_symlink():  # a folder, a broken or looping link: reading it gives the precise error
        return path
    names = ", ".join(g.name for g in genres())
    raise PuzzleError(f"no such file: {path}", None,
                      f"nor a bundled {what} of that name; bundled genres: {names} (`puzzledsl list` shows them "
                      "and their instances)")


@dataclass(frozen=True)
class Option:
    name: str
    type: str  # as declared: `bool`, `int`, `sym`
    default: object  # a plain value: True/False, an int, a symbol's name, None for `?`
    doc: str = ""  # the comment at the end of its line in the rule file


@dataclass(frozen=True)
class Genre:
    """A bundled rule file: what `puzzledsl list` prints."""

    name: str
    title: str | None
    path: Path
    formats: tuple[str, ...]
    options: tuple[Option, ...]
    instances: tuple[str, ...]  # bundled instance files, as names `genre/file`


def genres() -> list[Genre]:
    """Every bundled rule file that declares a title (a shared base that other files `use`
    has none), by name; the first folder wins a name."""
    seen: dict[str, Genre] = {}
    for folder in library_dirs():
        for path in sorted(folder.glob("*.puz")):
            if path.stem not in seen:
                genre = _describe(path, folder)
                if genre is not None:
                    seen[path.stem] = genre
    return sorted(seen.values(), key=lambda g: g.name)


def _describe(path: Path, folder: Path) -> Genre | None:
    from .syntax import ast as A
    from .syntax.parser import parse_text, read_source

    try:
        text = read_source(path)
        stmts = parse_text(text, str(path))
    except PuzzleError:
        return None
    title = next((s.text for s in stmts if isinstance(s, A.Title)), None)
    if title is None:
        return None
    formats = tuple(n for s in stmts if isinstance(s, A.Format) for n, _ in s.names)
    options = options_of(stmts, text.splitlines())
    sub = folder / path.stem
    files = sorted(p for p in sub.glob("*") if p.suffix in (".puz", ".txt")) if sub.is_dir() else []
    return Genre(path.stem, title, path, formats, options, tuple(f"{path.stem}/{p.name}" for p in files))


def options_of(stmts: list, lines: list[str] | None = None) -> tuple[Option, ...]:
    """The `option` declarations of a file's statements, with their defaults as plain values
    (and, given the file's lines, the comment that ends each declaration's line)."""
    from .data import raw_from_ast
    from .syntax import ast as A

    def doc(line: int) -> str:
        return lines[line - 1].partition("#")[2].strip() if lines and 0 < line <= len(lines) else ""
    return tuple(Option(s.name, s.type.kind, plain(raw_from_ast(s.default).value if s.default else None),
                        doc(s.span.line))
                 for s in stmts if isinstance(s, A.Given) and s.option)


