"""Where puzzledsl keeps its caches (lark's compiled grammar, parsed trees)."""

from __future__ import annotations

import os
from pathlib import Path

GRAMMAR = Path(__file__).resolve().parent.parent / "grammars" / "puzzledsl.lark"


def cache_dir() -> Path | None:
    """$XDG_CACHE_HOME/puzzledsl (or ~/.cache/puzzledsl), or None when it cannot be created."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    try:
        folder = Path(base) / "puzzledsl"
        folder.mkdir(parents=True, exist_ok=True)
        return folder
    except OSError:
        return None
