"""Command-line pieces that let the installed tool stand on its own: bundled genres by
name, `puzzledsl list`, and `--version` (read from the package metadata only when asked)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .errors import EXIT_SOLVED


class VersionAction(argparse.Action):
    """`--version`: like argparse's own, but the metadata lookup (~20 ms) happens only when used."""

    def __init__(self, option_strings: list[str], dest: str = argparse.SUPPRESS, **kwargs: object):
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS,
                         help="print the version and exit")

    def __call__(self, parser: argparse.ArgumentParser, *args: object) -> None:
        from . import __version__
        print(f"{parser.prog} {__version__}")
        parser.exit()


def resolve_bundled(args: argparse.Namespace) -> None:
    """Rule and data files that are not local paths are looked up among the bundled
    genres and instances (`arukone`, `kakurasu/seed-5x5.puz`); a local file wins."""
    from .bundled import find, resolve
    for attr, what in (("file", "genre or instance"), ("rules", "genre"), ("data", "instance")):
        value = getattr(args, attr, None)
        if isinstance(value, Path):
            setattr(args, attr, resolve(value, what))
    if isinstance(getattr(args, "files", None), list):  # verify's: a missing one is that puzzle's error
        args.files = [f if f.exists() else find(f) or f for f in args.files]


def print_list() -> int:
    """`puzzledsl list`: every bundled genre with its title, options, data formats and instances."""
    from .bundled import genres
    from .report import option_word
    out = sys.stdout
    for g in genres():
        print(f"{g.name:<22} {g.title}", file=out)
        for o in g.options:
            decl = f"option {o.name}: {o.type} = {option_word(o.default)}"
            print(f"    {decl:<32} {o.doc}".rstrip(), file=out)
        if g.formats:
            print(f"    formats: {', '.join(g.formats)}", file=out)
        if g.instances:
            print(f"    instances: {', '.join(g.instances)}", file=out)
    print("\nsolve by name: puzzledsl solve GENRE --data FILE [--option NAME=VALUE], "
          "or puzzledsl solve GENRE/INSTANCE", file=out)
    return EXIT_SOLVED
