"""puzzledsl: a declarative language for logic puzzles, compiled to SAT (PySAT) and Z3.

    import puzzledsl
    puzzle = puzzledsl.load("GENRE", **givens)   # a bundled genre or a .puz path, and its data
    print(puzzle.solve())          # the board; puzzle.solve()[NAME] is a grid as lists
    puzzle.unique(), puzzle.count()

`docs/api.md` describes the API, with worked examples. Names are imported on first use, so `import puzzledsl`
stays fast (the command line starts from here too).
"""

from __future__ import annotations

from . import native as _native

_native.install()  # before any compiled module is imported: each runs compiled only while current

TYPE_CHECKING = False  # not `from typing import ...`: importing typing alone costs ~10 ms
if TYPE_CHECKING:
    from .api import (
        Generated,
        Plan,
        Puzzle,
        Rules,
        Settings,
        Solution,
        TimeLimitReached,
        Verdict,
        load,
        rules,
        rules_from_text,
    )
    from .bundled import Genre, genres
    from .errors import PuzzleError

__all__ = ["Generated", "Genre", "Plan", "Puzzle", "PuzzleError", "Rules", "Settings", "Solution", "TimeLimitReached",
           "Verdict", "__version__", "genres", "load", "rules", "rules_from_text"]

_HOME = {"Generated": "api", "Plan": "api", "Puzzle": "api", "Rules": "api", "Settings": "api", "Solution": "api",
         "TimeLimitReached": "api", "Verdict": "api", "load": "api", "rules": "api", "rules_from_text": "api",
         "Genre": "bundled", "genres": "bundled", "PuzzleError": "errors"}


def __getattr__(name: str) -> object:
    """Import a public name's module when the name is first used (PEP 562)."""
    if name == "__version__":
        return _version()
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module 'puzzledsl' has no attribute {name!r}")
    from importlib import import_module
    value = getattr(import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


def _version() -> str:
    """The installed distribution's version (pyproject.toml), or 0+unknown from a bare checkout."""
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("puzzledsl")
    except PackageNotFoundError:
        return "0+unknown"
