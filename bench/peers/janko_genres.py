"""The janko.at genres with a clingo peer: facts from puzzledsl's importers, models as published tokens.

Each puzzle is read exactly as `bench/bench_genres.py` reads it (`tests/genre_specs.by_size`: the
genre's puzzledsl importer over `../shared/data/genres/<Genre>.json`, sorted by size), so both
sides see the same givens. `facts` turns the imported givens into the encoding's input facts;
`tokens` turns a model's shown atoms into the published solution's token grid, which is
compared with the published solution and checked by the tests' independent checker
(`tests/genre_checkers.py`).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import clingo

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tests.genre_specs import GENRES, Genre, Tokens  # noqa: E402

HERE = Path(__file__).resolve().parent
Givens = dict
Args = tuple[int, ...]


def _num(token: object) -> int | None:
    """A clue token as read by the importer: a number, or None for `-`, `?`, `.` and the like."""
    text = str(token)
    return int(text) if text.lstrip("-").isdigit() and text != "-" else None


def _cells(grid: Sequence[Sequence[object]]) -> Iterable[tuple[int, int, object]]:
    """(row, column, token), 1-based."""
    for r, row in enumerate(grid, 1):
        for c, tok in enumerate(row, 1):
            yield r, c, tok


def _numbered(pred: str, grid: Sequence[Sequence[object]]) -> list[str]:
    """`pred(r,c,n).` for every cell holding a number n."""
    return [f"{pred}({r},{c},{_num(t)})." for r, c, t in _cells(grid) if _num(t) is not None]


def _mask(g: Givens, cells: Iterable[Args], yes: str = "x") -> Tokens:
    """A shading grid: `yes` on the given cells, `-` elsewhere."""
    on = {(a[0], a[1]) for a in cells}
    return [[yes if (r, c) in on else "-" for c in range(1, g["C"] + 1)] for r in range(1, g["R"] + 1)]


def _values(g: Givens, atoms: Iterable[Args]) -> Tokens:
    """A number grid from (row, column, value) atoms."""
    grid = [["-"] * g["C"] for _ in range(g["R"])]
    for r, c, v in atoms:
        grid[r - 1][c - 1] = str(v)
    return grid


# --------------------------------------------------------------------------- facts


def hitori_facts(g: Givens) -> list[str]:
    return [f"number({r},{c},{int(t)})." for r, c, t in _cells(g["number"])]


def akari_facts(g: Givens) -> list[str]:
    facts = [f"size({g['R']},{g['C']})."]
    for r, c, t in _cells(g["board"]):
        if t in ("x", "#") or _num(t) is not None:
            facts.append(f"wall({r},{c}).")
        if _num(t) is not None:
            facts.append(f"number({r},{c},{_num(t)}).")
    return facts


def star_battle_facts(g: Givens) -> list[str]:
    facts = [f"stars({g['S']})."]
    facts += _numbered("region", g["region"])
    return facts


def skyscraper_facts(g: Givens) -> list[str]:
    facts = [f"size({g['R']}).", f"top({g['H']})."]
    if g.get("diagonals"):
        facts.append("diagonals.")
    facts += _numbered("given", g["grid"])
    for side in ("left", "right", "top", "bottom"):
        for i, t in enumerate(g[f"from_{side}"], 1):
            if _num(t) is not None:
                facts.append(f"clue({side},{i},{_num(t)}).")
    return facts


def sudoku_facts(g: Givens) -> list[str]:
    n = g["R"]
    box = max(k for k in range(1, n + 1) if k * k <= n)
    facts = [f"size({n}).", f"box({box})."]
    facts += _numbered("given", g["grid"])
    return facts


def slitherlink_facts(g: Givens) -> list[str]:
    facts = [f"size({g['R']},{g['C']})."]
    facts += _numbered("clue", g["clue"])
    return facts


def tent_facts(g: Givens) -> list[str]:
    facts = [f"size({g['R']},{g['C']})."]
    facts += [f"tree({r},{c})." for r, c, t in _cells(g["grid"]) if t == "x"]
    facts += [f"rowsum({i},{_num(t)})." for i, t in enumerate(g["rowclue"], 1) if _num(t) is not None]
    facts += [f"colsum({i},{_num(t)})." for i, t in enumerate(g["colclue"], 1) if _num(t) is not None]
    return facts


def nonogram_facts(g: Givens) -> list[str]:
    facts = [f"size({g['R']},{g['C']})."]
    for name in ("rowclue", "colclue"):
        for i, line in enumerate(g[name], 1):
            blocks = [n for n in map(_num, line) if n]  # `-` pads a line, a lone 0 marks an empty one
            facts += [f"{name}({i},{j},{n})." for j, n in enumerate(blocks, 1)]
    return facts


def lits_facts(g: Givens) -> list[str]:
    return _numbered("region", g["region"])


def nurikabe_facts(g: Givens) -> list[str]:
    facts = [f"size({g['R']},{g['C']})."]
    # tokens as read: a number, `-` empty, `?` an island of unknown size (read as no clue)
    facts += _numbered("clue", g["board"])
    return facts


# --------------------------------------------------------------------------- tokens


def slitherlink_tokens(g: Givens, atoms: list[Args]) -> Tokens:
    """Cells inside the loop as `x`: an odd number of the loop's vertical edges to the left."""
    vertical = {(i2, j) for i, j, i2, j2 in atoms if j == j2}  # edge (i-1, j)-(i, j) as (i, j)
    return [["x" if sum((r, k) in vertical for k in range(c)) % 2 else "-" for c in range(1, g["C"] + 1)]
            for r in range(1, g["R"] + 1)]


def tent_tokens(g: Givens, atoms: list[Args]) -> Tokens:
    tents = {(a[0], a[1]) for a in atoms}
    return [["o" if (r, c) in tents else ("x" if t == "x" else "-") for c, t in enumerate(row, 1)]
            for r, row in enumerate(g["grid"], 1)]


@dataclass(frozen=True)
class Peer:
    """A genre's clingo side: its encoding, input facts and answer tokens."""

    key: str  # the key of `tests.genre_specs.GENRES`
    facts: Callable[[Givens], list[str]]
    tokens: Callable[[Givens, list[Args]], Tokens]
    options: tuple[str, ...] = ()  # clingo options beyond --models=2

    @property
    def genre(self) -> Genre:
        return GENRES[self.key]

    @property
    def program(self) -> Path:
        return HERE / f"{self.key}.lp"

    def decode(self, givens: Givens, model: clingo.Model) -> Tokens:
        atoms = [tuple(a.number for a in s.arguments) for s in model.symbols(shown=True)]
        return self.tokens(givens, atoms)


def _shade(yes: str = "x") -> Callable[[Givens, list[Args]], Tokens]:
    return lambda g, atoms: _mask(g, atoms, yes)


PEERS: dict[str, Peer] = {p.key: p for p in (
    Peer("hitori", hitori_facts, _shade()),
    Peer("akari", akari_facts, _shade("o")),
    Peer("star_battle", star_battle_facts, _shade()),
    Peer("skyscraper", skyscraper_facts, _values),
    Peer("sudoku", sudoku_facts, _values),
    Peer("slitherlink", slitherlink_facts, slitherlink_tokens),
    Peer("tent", tent_facts, tent_tokens, ("--project=show",)),
    Peer("nonogram", nonogram_facts, _shade()),
    Peer("lits", lits_facts, _shade("#")),
    Peer("nurikabe", nurikabe_facts, _shade()),
)}
"""Janko genres with an encoding in this folder (battleship and kakurasu have their own readers)."""
