"""Parse puzzledsl text into the typed tree of `ast.py`, and resolve `use` imports."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from .. import limits
from ..errors import PuzzleError, Span, did_you_mean, register_source
from ..reading import read_text, resolved
from . import ast as A
from .cache import Store, dump_tree, load_tree


def parse_text(text: str, path: str, data: bool = False) -> list[A.Stmt]:
    """Parse one file's text; syntax errors become located `PuzzleError`s (`data`: told as a data
    file's). Trees of texts parsed before are read back from the user's verified cache (parsing
    costs ~25 ms a file)."""
    register_source(path, text)
    store = Store.open()
    entry = store.path("tree", str(limits.current().nesting), path, text) if store is not None else None
    if entry is not None:
        stmts = load_tree(store, entry)
        if stmts is not None:
            return stmts
    from .frontend import parse_tree

    stmts = parse_tree(text, path, data)
    if entry is not None:
        dump_tree(store, entry, stmts)
    return stmts


def stdlib_dirs() -> list[Path]:
    """Where `use "name"` looks after the using file's folder: $PUZZLEDSL_PATH, then the bundled puzzles."""
    dirs = [Path(p) for p in os.environ.get("PUZZLEDSL_PATH", "").split(os.pathsep) if p]
    here = Path(__file__).resolve().parent.parent
    for cand in (here.parent / "puzzles", here / "stdlib"):
        if cand.is_dir():
            dirs.append(cand)
    return dirs


def _resolve_use(target: str, from_file: Path, span: Span) -> Path:
    """`use` reaches only rule files below the using file's folder, the $PUZZLEDSL_PATH folders
    and the bundled library: no absolute path, no `..`, no symbolic link leading out."""
    name = target if target.endswith(".puz") else target + ".puz"
    parts = Path(name).parts
    if Path(name).is_absolute() or not parts or any(p in ("..", ".", "") for p in parts) or "\\" in name:
        raise PuzzleError(f"`use` takes a rule file's name, not the path `{target}`", span,
                          "it looks below the using file's folder, in $PUZZLEDSL_PATH and in the bundled "
                          "rules; `..` and absolute paths are not allowed")
    bases = [from_file.parent, *stdlib_dirs()]
    if Path(name).stem == from_file.parent.name and len(parts) == 1:
        # the bundled layout, `GENRE.puz` beside the folder `GENRE/` of its instances: that one file
        bases.insert(1, from_file.parent.parent)
    tried = [b / name for b in bases]
    for base, cand in zip(bases, tried):
        if cand.is_file():
            if not _inside(cand, base):
                raise PuzzleError(f"`{target}` is a symbolic link that leads out of {base}", span,
                                  "`use` reads only rule files inside the folders it searches")
            return cand.resolve()
    own = from_file.resolve()  # never suggest the using file itself: it would use itself
    near = [str(f.relative_to(b).with_suffix("")) for b in bases if b.is_dir()
            for f in b.glob(str(Path(name).parent / "*.puz")) if f.resolve() != own]
    meant = did_you_mean(str(Path(name).with_suffix("")), near)
    looked = (f"looked in {', '.join(str(p.parent) for p in tried)}; add a folder of rule files to "
              "$PUZZLEDSL_PATH to look there too")
    raise PuzzleError(f"cannot find `{target}` to use", span, f"{meant} It {looked}" if meant else looked)


def _shadowed(target: str, from_file: Path, used: Path) -> str | None:
    """A warning when `use` took a rule file from $PUZZLEDSL_PATH or the bundled rules while a
    file of that name lies in a folder above the using file, which `use` does not search: a
    user's own rules beside a folder of instances were passed over in silence (friction log 17)."""
    name = target if target.endswith(".puz") else target + ".puz"
    if used.parent == from_file.resolve().parent:
        return None
    for folder in list(from_file.resolve().parents)[1:3]:
        mine = folder / name
        if mine.is_file() and mine.resolve() != used:
            return (f'`use "{target}"` took {_display_path(used)}, not {_display_path(mine)}: `use` looks in '
                    "the using file's folder, then $PUZZLEDSL_PATH and the bundled rules, never above; move the "
                    "instance beside your rules (or into a folder named after them), or add their folder to "
                    "$PUZZLEDSL_PATH")
    return None


def _inside(path: Path, folder: Path) -> bool:
    try:
        return path.resolve().is_relative_to(folder.resolve())
    except (OSError, RuntimeError):
        return False


def read_source(path: Path, span: Span | None = None) -> str:
    """A rule or data file's text, read within the limits (see `reading.py`); `-` is standard
    input (`--data -`)."""
    if str(path) == "-":
        return sys.stdin.read().removeprefix("\ufeff")  # a byte-order mark, as `read_text` drops it
    return read_text(path, span)


def parse_program(path: Path, text: str | None = None) -> A.Program:
    """Parse a file and, depth first, every file it `use`s (each once, used files first).
    With `text`, that is the file's content (rules given as a string; `use` resolves from
    the folder `path` names)."""
    program = A.Program()
    seen: set[Path] = set()

    def visit(file: Path, via: Span | None, stack: tuple[Path, ...], again) -> None:  # `again` is `visit`:
        # passed, not named, so that the function is no reference cycle left to the collector
        file = resolved(file, via)
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
                used = _resolve_use(st.target, file, st.span)
                note = _shadowed(st.target, file, used)
                if note:
                    program.memo.setdefault("notes", []).append(note)  # type: ignore[union-attr]
                again(used, st.span, stack + (file,), again)
        program.files.append(shown)
        program.statements.extend(s for s in stmts if not isinstance(s, A.Use))

    visit(path, None, (), visit)
    if not program.statements:  # an empty file has one solution, the empty one: never what was meant
        raise PuzzleError(f"`{_display_path(resolved(path, None))}` holds no statements: no rules, variables "
                          "or data", Span(program.files[0], 1, 1),
                          "a rule file declares its variables (`var`) and rules (`rule`), docs/tutorial.md; an "
                          "empty file is often the output of a command that failed (`generate … > FILE`)")
    return program


def _display_path(p: Path) -> str:
    try:
        rel = os.path.relpath(p)
    except ValueError:
        return str(p)
    return str(p) if rel.startswith("..") else rel
