"""Parse puzzledsl text into the typed tree of `ast.py`, and resolve `use` imports."""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
from pathlib import Path

from ..errors import PuzzleError, Span, register_source
from . import ast as A
from .cache import GRAMMAR, cache_dir


def parse_text(text: str, path: str) -> list[A.Stmt]:
    """Parse one file's text; syntax errors become located `PuzzleError`s. Trees of texts
    parsed before are read back from the user's cache (parsing costs ~25 ms a file)."""
    register_source(path, text)
    cached = _tree_cache_path(text, path)
    if cached is not None:
        try:
            with open(cached, "rb") as f:
                return pickle.load(f)
        except (OSError, pickle.PickleError, EOFError, AttributeError, ImportError):
            pass
    from .frontend import parse_tree

    stmts = parse_tree(text, path)
    if cached is not None:
        try:
            tmp = cached.with_suffix(f".{os.getpid()}.tmp")
            with open(tmp, "wb") as f:
                pickle.dump(stmts, f, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, cached)
        except OSError:
            pass
    return stmts


def _tree_cache_path(text: str, path: str) -> Path | None:
    """A cache file named by the text, its path (spans name it) and the parser's own sources."""
    cache = cache_dir()
    if cache is None:
        return None
    here = Path(__file__).resolve().parent
    sources = (GRAMMAR, here / "ast.py", here / "parser.py", here / "frontend.py", here.parent / "errors.py")
    tag = "".join(str(p.stat().st_mtime_ns) for p in sources)
    key = hashlib.sha1(f"{tag}\0{path}\0{text}".encode()).hexdigest()
    return cache / f"tree-{key}.pickle"


def stdlib_dirs() -> list[Path]:
    """Where `use "name"` looks after the using file's folder: $PUZZLEDSL_PATH, then the bundled puzzles."""
    dirs = [Path(p) for p in os.environ.get("PUZZLEDSL_PATH", "").split(os.pathsep) if p]
    here = Path(__file__).resolve().parent.parent
    for cand in (here.parent / "puzzles", here / "stdlib"):
        if cand.is_dir():
            dirs.append(cand)
    return dirs


def _resolve_use(target: str, from_file: Path, span: Span) -> Path:
    name = target if target.endswith(".puz") else target + ".puz"
    tried = [from_file.parent / name] + [d / name for d in stdlib_dirs()]
    for cand in tried:
        if cand.is_file():
            return cand.resolve()
    raise PuzzleError(f"cannot find `{target}` to use", span,
                      "looked in " + ", ".join(str(p.parent) for p in tried))


def read_source(path: Path, span: Span | None = None) -> str:
    """A file's text; `-` is standard input (`--data -`)."""
    if str(path) == "-":
        return sys.stdin.read()
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise PuzzleError(f"no such file: {path}", span) from None
    except (OSError, UnicodeDecodeError) as err:
        raise PuzzleError(f"cannot read {path}: {err}", span) from None


def parse_program(path: Path, text: str | None = None) -> A.Program:
    """Parse a file and, depth first, every file it `use`s (each once, used files first).
    With `text`, that is the file's content (rules given as a string; `use` resolves from
    the folder `path` names)."""
    program = A.Program()
    seen: set[Path] = set()

    def visit(file: Path, via: Span | None, stack: tuple[Path, ...]) -> None:
        file = file.resolve()
        if file in stack:
            raise PuzzleError(f"`use` cycle: {' -> '.join(p.name for p in stack + (file,))}", via)
        if file in seen:
            return
        seen.add(file)
        shown = _display_path(file)
        source = text if text is not None and not stack else read_source(file, via)
        stmts = parse_text(source, shown)
        for st in stmts:
            if isinstance(st, A.Use):
                visit(_resolve_use(st.target, file, st.span), st.span, stack + (file,))
        program.files.append(shown)
        program.statements.extend(s for s in stmts if not isinstance(s, A.Use))

    visit(path, None, ())
    return program


def _display_path(p: Path) -> str:
    try:
        rel = os.path.relpath(p)
    except ValueError:
        return str(p)
    return str(p) if rel.startswith("..") else rel
