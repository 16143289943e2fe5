"""CPU time per puzzle, robust to a loaded machine: the least of several runs of each puzzle.

    python bench/bench_cpu_minima.py GENRE [--reps N]

Takes the 40 puzzles `bench_genres.py --limit 40` spreads over the sizes, keeps every other
one of the first 36 (18 puzzles; the four largest left out, so that slow genres stay quick),
and runs each `--reps` times (4) as `bench_genres.py` times it: bind + ground + encode + solve
+ proof of uniqueness (`decide_unique`), measured with `time.process_time`. Another session's
job slows a run but never speeds one up, so the least of a puzzle's runs is its cost; prints
the median and the sum of those minima. Run it from two checkouts one after the other (the
order alternating) to compare two versions. GENRE is a janko genre of `tests/genre_specs.py`,
or `battleship` / `kakurasu` (their datasets, as `bench_peer_ratios.py` reads them).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

from bench_datasets import SETS  # noqa: E402
from bench_genres import decide_unique  # noqa: E402

from puzzledsl.importers import load_with  # noqa: E402
from tests.genre_specs import GENRES, by_size, options, spread  # noqa: E402


def puzzles(key: str) -> list[tuple[Path, dict, dict | None]]:
    """(rules, givens, options) of the 40 spread puzzles, smallest first."""
    if key in ("battleship", "kakurasu"):
        rules_rel, data_path, fmt = SETS[key]
        loaded = sorted(load_with(fmt, data_path.read_text(encoding="utf-8"), str(data_path)),
                        key=lambda x: (x[1]["R"] * x[1]["C"], x[0]))
        return [(ROOT / rules_rel, givens, None) for _, givens in spread(loaded, 40)]
    genre = GENRES[key]
    return [(genre.rules_path, givens, options(genre, iid)) for iid, givens, _ in spread(by_size(genre), 40)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("genre", choices=["battleship", "kakurasu", *GENRES])
    ap.add_argument("--reps", type=int, default=4)
    a = ap.parse_args()
    items = puzzles(a.genre)[:36:2]
    decide_unique(*items[0], 30)  # imports and first-call costs, untimed
    best = [float("inf")] * len(items)
    for _ in range(a.reps):
        for i, item in enumerate(items):
            t = time.process_time()
            decide_unique(*item, 30)
            best[i] = min(best[i], time.process_time() - t)
    print(f"{a.genre}: {len(items)} puzzles, median of minima {1000 * statistics.median(best):.2f} ms CPU, "
          f"sum {1000 * sum(best):.1f} ms")


if __name__ == "__main__":
    main()
