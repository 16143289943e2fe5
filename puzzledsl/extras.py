"""Optional dependencies: a feature that needs one names the extra that installs it.

The default install is the language, PySAT and rich. Z3 (`--backend z3`, `export --smt2`)
and OR-tools (plans that collect things and then reach a goal, solved as tours) come with
`pip install "puzzledsl[z3]"`, `"puzzledsl[plans]"` or `"puzzledsl[all]"`; cairosvg (`--png`)
with `"puzzledsl[png]"`; Dask (`verify --scheduler`, batches on a cluster) with `"puzzledsl[dask]"`.
"""

from __future__ import annotations

import importlib
import sys
from types import ModuleType

from .errors import PuzzleError

EXTRAS = {"z3": ("z3-solver", "z3"), "ortools.sat.python.cp_model": ("ortools", "plans"),
          "cairosvg": ("cairosvg", "png"), "distributed": ("dask[distributed]", "dask")}


def installed(module: str) -> bool:
    try:
        importlib.import_module(module)
    except (ImportError, OSError):  # OSError: a binding whose C library is missing (cairo)
        return False
    return True


def require(module: str, feature: str) -> ModuleType:
    """The module, or an input error that says which extra brings it."""
    try:
        return importlib.import_module(module)
    except ImportError:
        dist, extra = EXTRAS[module]
        raise PuzzleError(f"{feature} needs the `{dist}` package, which is not installed",
                          help=f'install it with: pip install "puzzledsl[{extra}]"') from None
    except OSError as err:  # installed, but its C library is not (cairosvg without cairo)
        raise PuzzleError(f"{feature} needs `{dist}`, which is installed but cannot load its library: {err}",
                          help="install the library with the system's package manager (e.g. libcairo2)") from None


CORE = {"pysat": "python-sat[pb]", "pypblib": "python-sat[pb]", "lark": "lark", "rich": "rich",
        "platformdirs": "platformdirs"}
"""The default install's packages, by the module each is imported as."""


def missing_core(err: ModuleNotFoundError) -> PuzzleError | None:
    """A clear error for a default dependency that cannot be imported (an install that broke, or
    a Python other than the one puzzledsl was installed for); None for any other module."""
    top = (err.name or "").split(".")[0]
    if top not in CORE:
        return None
    return PuzzleError(f"puzzledsl needs the `{CORE[top]}` package, which this Python ({sys.executable}) "
                       f"cannot import", help=f'install it with: {sys.executable} -m pip install "{CORE[top]}" '
                       "(or install puzzledsl again)")
