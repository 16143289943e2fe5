"""Which modules run compiled. The build (setup.py) may compile the grounder's and encoder's
modules with Cython from their Python source, and Python would then load the compiled copy
whatever happened to the source since. Here a compiled copy is used only while its source is
the one it was built from (its CRC-32 and length, in `_native.txt`): an edited module, or one
changed by a checkout, runs from its source until the next `pip install`. `PUZZLEDSL_PURE=1`
runs every module from its source (a profiler sees compiled functions as one call each).
"""

from __future__ import annotations

import os
import sys
import zlib
from importlib.machinery import EXTENSION_SUFFIXES, ModuleSpec
from importlib.util import spec_from_file_location
from pathlib import Path

HERE = Path(__file__).resolve().parent


def digest_of(source: Path) -> str:
    """What identifies a module's source (setup.py records the same)."""
    data = source.read_bytes()
    return f"{zlib.crc32(data):08x}-{len(data)}"


class Chooser:  # a finder on `sys.meta_path` (not importlib.abc's class: importing it costs ~10 ms)
    """For each module the build compiled: the compiled copy where it is current (None: the usual
    finders load it, and they try compiled files first), else a spec for the source."""

    def __init__(self, recorded: dict[str, str], pure: bool):
        self.recorded = recorded
        self.pure = pure
        self.chosen: dict[str, str] = {}  # module -> "compiled", or why it runs from source

    def find_spec(self, name: str, path: object = None, target: object = None) -> ModuleSpec | None:
        digest = self.recorded.get(name)
        if digest is None:
            return None
        source = _source(name)
        why = current(source, digest) if not self.pure else "PUZZLEDSL_PURE is set"
        self.chosen[name] = why or "compiled"
        return None if why is None else spec_from_file_location(name, source)


def _source(name: str) -> Path:
    """The source file of module `name` (`puzzledsl.encode.cnf`)."""
    return HERE.joinpath(*name.split(".")[1:]).with_suffix(".py")


def current(source: Path, digest: str) -> str | None:
    """None where the compiled copy of `source` is there and was built from it, else why not."""
    if digest == "-":
        return "the build could not compile it"
    if not any(source.with_name(source.stem + suffix).exists() for suffix in EXTENSION_SUFFIXES):
        return "not compiled"
    try:
        if digest == "unrecorded":
            return "its build did not finish (pip install again to compile it)"
        if digest_of(source) != digest:
            return "its source changed since the build (pip install again to compile it)"
    except OSError:
        return "its source cannot be read"
    return None


def install() -> Chooser | None:
    """Put the chooser first among the finders, once; None where nothing was compiled. A compiled
    copy the manifest does not record (a build that stopped halfway) is never loaded: it is given
    a digest no source has."""
    for finder in sys.meta_path:
        if isinstance(finder, Chooser):
            return finder
    try:  # lines `MODULE DIGEST`
        lines = (HERE / "_native.txt").read_text(encoding="utf-8").split("\n")
    except (OSError, ValueError):
        lines = []
    recorded = dict(line.split(" ", 1) for line in lines if line.count(" ") == 1)
    for name in _compiled_copies():
        recorded.setdefault(name, "unrecorded")
    if all(d == "-" for d in recorded.values()):  # nothing compiled (no C compiler)
        return None
    chooser = Chooser(recorded, pure=bool(os.environ.get("PUZZLEDSL_PURE")))
    sys.meta_path.insert(0, chooser)
    return chooser


def _compiled_copies() -> list[str]:
    """The modules with a compiled file in the package or one level below (where setup.py puts them)."""
    out = []
    for folder in [HERE, *(d for d in HERE.iterdir() if d.is_dir() and not d.name.startswith(("_", ".")))]:
        prefix = "puzzledsl." + ("" if folder == HERE else folder.name + ".")
        for entry in os.scandir(folder):
            for suffix in EXTENSION_SUFFIXES:  # the longest first: `.cpython-311-….so` before `.so`
                if entry.name.endswith(suffix):
                    out.append(prefix + entry.name[:-len(suffix)])
                    break
    return out


def summary() -> str:
    """How the modules run, for `--version`: all from source, or how many compiled and why not the rest."""
    chooser = install()
    if chooser is None:
        return "pure Python"
    if chooser.pure:
        return "pure Python: PUZZLEDSL_PURE is set"
    for name, digest in chooser.recorded.items():  # the ones not imported yet are judged as they would be
        if name not in chooser.chosen:
            chooser.chosen[name] = current(_source(name), digest) or "compiled"
    compiled = [n for n, why in chooser.chosen.items() if why == "compiled"]
    others = {n.removeprefix("puzzledsl."): why for n, why in chooser.chosen.items() if why != "compiled"}
    text = f"{len(compiled)} of {len(chooser.recorded)} modules compiled"
    return text + "".join(f"; {n}: {why}" for n, why in sorted(others.items()))
