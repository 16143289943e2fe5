"""Speed of the generic generator (`puzzledsl generate RULES`): verified, clue-minimal puzzles
per CPU second at 10×10, one process, one core.

    python3 bench/bench_generate_generic.py [--runs R] [--count M] [--check] [--time-limit S] [--json OUT] [CASE ...]

A CASE is a name of `CASES` (default: all). Each run makes M puzzles with its own seed, the
rules compiled once per run (as one `generate --count M` does); the figure is M / CPU seconds
of the run, setup included, and the median over R runs is reported. Every puzzle is confirmed
unique by `uniqueness.decide` on the compiled puzzle before it counts (the generator does so).
`--check` afterwards re-checks each puzzle of the first run outside the clock: unique again,
and without any one of its clues not unique with the same answer (compiled and solved anew for
each; a Nurikabe island that loses its number may leave another unique puzzle). `--time-limit`
stops a run after S seconds: the figure is then the puzzles made by then per CPU second.
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

from puzzledsl.deadline import TimeUp  # noqa: E402
from puzzledsl.generate import Generator, NoPuzzle, Request  # noqa: E402
from puzzledsl.uniqueness import decide  # noqa: E402

# name: (rule file, --size, --set, --keep[, --option, --values])
NURIKABE = ({"by_cell": "true"}, ("board=1..5",))
CASES: dict[str, tuple] = {
    "kakurasu": ("kakurasu", "10x10", (), ()),
    "battleship": ("battleship", "10x10", ("fleet=[4, 3, 2, 1]",), ("rowsum", "colsum")),
    "mosaic": ("mosaic", "10x10", (), ()),
    "binairo": ("binairo", "10x10", (), ()),
    "slitherlink": ("slitherlink", "10x10", (), ()),
    "kuromasu": ("kuromasu", "10x10", (), ()),
    "sudoku-9x9": ("sudoku", "9x9", (), ()),
    "akari-7x7": ("akari", "7x7", (), ()),
    "akari-10x10": ("akari", "10x10", (), ()),
    # the clue set sampled with the solution (`generate_joint.py`)
    "masyu-6x6": ("masyu", "6x6", (), ()),
    "masyu-8x8": ("masyu", "8x8", (), ()),
    "masyu-10x10": ("masyu", "10x10", (), ()),
    "nurikabe-6x6": ("nurikabe", "6x6", (), (), *NURIKABE),
    "nurikabe-8x8": ("nurikabe", "8x8", (), (), *NURIKABE),
    "nurikabe-10x10": ("nurikabe", "10x10", (), (), *NURIKABE),
}


def request(name: str) -> Request:
    rules, size, settings, keep, *more = CASES[name]
    options, values = more or ({}, ())
    return Request(ROOT / "puzzles" / f"{rules}.puz", size, settings, options, keep=keep, values=values)


def run(name: str, seed: int, count: int, limit: float | None) -> tuple[float, list]:
    cpu0 = time.process_time()
    deadline = None if limit is None else time.perf_counter() + limit
    gen = Generator(request(name))
    rng = random.Random(seed)
    made = []
    try:
        for _ in range(count):
            made.append(gen.puzzle(rng, deadline))
    except (TimeUp, NoPuzzle):
        pass
    return len(made) / (time.process_time() - cpu0), [(gen, p) for p in made]


def minimal(gen: Generator, givens: dict) -> bool:
    """Unique, and without any one clue (kept grids aside) not unique with the same answer."""
    def answer(gv: dict) -> object:
        out = decide(gen.compiled(gv))
        if out.unique is not True:
            return None
        names = gen.blank.answer or list(out.solutions[0])
        return [out.solutions[0][n].nested() for n in names]
    planted = answer(givens)
    if planted is None:
        return False
    for name in gen.decls:
        if name in gen.keep:
            continue
        grid = givens[name]
        for key, v in grid.cells.items():
            if v is not None:
                fewer = dict(givens)
                fewer[name] = type(grid)(grid.name, grid.dims, {**grid.cells, key: None}, grid.boundary, grid.outside)
                if answer(fewer) == planted:
                    return False
    return True


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("cases", nargs="*", default=list(CASES))
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--count", type=int, default=10)
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--time-limit", type=float, help="seconds per run (default: none)")
    ap.add_argument("--json", type=Path)
    a = ap.parse_args()
    rows = []
    for name in a.cases:
        rates, first, made_counts = [], [], []
        for r in range(a.runs):
            rate, made = run(name, 1000 + r, a.count, a.time_limit)
            rates.append(rate)
            made_counts.append(len(made))
            first = first or made
        clues = statistics.median(p.clues for _, p in first) if first else None
        full = statistics.median(p.full for _, p in first) if first else None
        samples = statistics.median(p.samples for _, p in first) if first else None
        checked = all(minimal(g, p.givens) for g, p in first) if a.check and first else None
        row = {"case": name, "size": CASES[name][1], "per_cpu_second": round(statistics.median(rates), 3),
               "min": round(min(rates), 3), "max": round(max(rates), 3), "runs": a.runs, "count": a.count,
               "made": made_counts, "median_clues": clues, "median_full_set": full, "median_samples": samples,
               "checked_minimal": checked}
        rows.append(row)
        print(f"{name:<14} {row['size']:<6} {row['per_cpu_second']:>7.3f} puzzles/CPU s "
              f"(min {row['min']:.3f}, max {row['max']:.3f}; made {made_counts} of {a.count}; clues {clues} of "
              f"{full}; samples {samples})" + ("" if checked is None else f"; minimal: {checked}"), flush=True)
    if a.json:
        a.json.write_text(json.dumps(rows, indent=1) + "\n")


if __name__ == "__main__":
    main()
