"""Speed of the generic generator (`puzzledsl generate RULES`): verified, clue-minimal puzzles
per CPU second at 10×10, one process, one core.

    python3 bench/bench_generate_generic.py [--runs R] [--count M] [--check] [--json OUT] [CASE ...]

A CASE is a name of `CASES` (default: all). Each run makes M puzzles with its own seed, the
rules compiled once per run (as one `generate --count M` does); the figure is M / CPU seconds
of the run, setup included, and the median over R runs is reported. Every puzzle is confirmed
unique by `uniqueness.decide` on the compiled puzzle before it counts (the generator does so).
`--check` afterwards re-checks each puzzle of the first run outside the clock: unique again,
and not unique without any one of its clues (compiled and solved anew for each).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from puzzledsl.generate import Generator, Request  # noqa: E402
from puzzledsl.uniqueness import decide  # noqa: E402

# name: (rule file, --size, --set, --keep)
CASES = {
    "kakurasu": ("kakurasu", "10x10", (), ()),
    "battleship": ("battleship", "10x10", ("fleet=[4, 3, 2, 1]",), ("rowsum", "colsum")),
    "mosaic": ("mosaic", "10x10", (), ()),
    "binairo": ("binairo", "10x10", (), ()),
    "slitherlink": ("slitherlink", "10x10", (), ()),
    "kuromasu": ("kuromasu", "10x10", (), ()),
    "sudoku-9x9": ("sudoku", "9x9", (), ()),
}


def request(name: str) -> Request:
    rules, size, settings, keep = CASES[name]
    return Request(ROOT / "puzzles" / f"{rules}.puz", size, settings, keep=keep)


def run(name: str, seed: int, count: int) -> tuple[float, list]:
    cpu0 = time.process_time()
    gen = Generator(request(name))
    rng = random.Random(seed)
    made = [gen.puzzle(rng) for _ in range(count)]
    return count / (time.process_time() - cpu0), [(gen, p) for p in made]


def minimal(gen: Generator, givens: dict) -> bool:
    """Unique, and not unique without any one clue (kept grids aside)."""
    def unique(gv: dict) -> bool:
        return decide(gen.compiled(gv)).unique is True
    if not unique(givens):
        return False
    for name in gen.decls:
        if name in gen.keep:
            continue
        grid = givens[name]
        for key, v in grid.cells.items():
            if v is not None:
                fewer = dict(givens)
                fewer[name] = type(grid)(grid.name, grid.dims, {**grid.cells, key: None}, grid.boundary, grid.outside)
                if unique(fewer):
                    return False
    return True


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("cases", nargs="*", default=list(CASES))
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--count", type=int, default=10)
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--json", type=Path)
    a = ap.parse_args()
    rows = []
    for name in a.cases:
        rates, first = [], []
        for r in range(a.runs):
            rate, made = run(name, 1000 + r, a.count)
            rates.append(rate)
            first = first or made
        clues = statistics.median(p.clues for _, p in first)
        full = statistics.median(p.full for _, p in first)
        checked = all(minimal(g, p.givens) for g, p in first) if a.check else None
        row = {"case": name, "size": CASES[name][1], "per_cpu_second": round(statistics.median(rates), 2),
               "min": round(min(rates), 2), "max": round(max(rates), 2), "runs": a.runs, "count": a.count,
               "median_clues": clues, "median_full_set": full, "checked_minimal": checked}
        rows.append(row)
        print(f"{name:<12} {row['size']:<6} {row['per_cpu_second']:>7.2f} puzzles/CPU s "
              f"(min {row['min']:.2f}, max {row['max']:.2f}; clues {clues} of {full})"
              + ("" if checked is None else f"; minimal: {checked}"), flush=True)
    if a.json:
        a.json.write_text(json.dumps(rows, indent=1) + "\n")


if __name__ == "__main__":
    main()
