"""Every puzzle of every bundled janko.at genre: compile + solve + uniqueness, in one process.

    python bench/bench_genres.py [GENRE ...] [--limit N] [--time-limit S] [--out FILE]
    python bench/bench_genres.py fillomino --data Fillomino_dataset.json [--rules FILE]

For each genre (`tests/genre_specs.py`; default: all), the dataset is read once with its
importer and the rules parsed once; each puzzle is then bound, grounded, encoded and
solved with `--unique` semantics under a per-puzzle time limit (the solver's; grounding
is not interrupted). A puzzle counts as *ok* when it is solved, proven unique, and equal
to the published solution. `--limit N` takes N puzzles spread evenly over the dataset
sorted by size (smallest and largest included). Prints one JSON line per genre and writes
all of them to `--out` (default `bench/results/genres.json`). `--data FILE` reads the one
GENRE's dataset from FILE: the genres of `ELSEWHERE` have none in the shared data folder.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from puzzledsl.compile import compile_givens, load_rules  # noqa: E402
from puzzledsl.errors import PuzzleError  # noqa: E402
from puzzledsl.solve import Mode, Outcome, solve  # noqa: E402
from tests.genre_specs import ELSEWHERE, GENRES, Genre, by_size, options, published, spread  # noqa: E402


def decide_unique(rules_path: Path, givens: dict, opts: dict | None,
                  time_limit: float | None) -> tuple[str | None, Outcome | None, float]:
    """Compile + solve + uniqueness, timed: the verdict when that alone settles it (an error, a
    time-out, no solution, not unique), else None and the unique solution's outcome."""
    rules = load_rules(rules_path)
    t0 = time.perf_counter()
    try:
        out = solve(compile_givens(rules, givens, opts), mode=Mode(unique=True), time_limit=time_limit)
    except PuzzleError as err:
        return f"error: {err.message}", None, time.perf_counter() - t0
    seconds = time.perf_counter() - t0
    if out.status != "sat":
        return ("timeout" if out.timed_out else out.status), out, seconds
    if out.unique is not True:
        return ("timeout" if out.unique is None else "not unique"), out, seconds
    return None, out, seconds


def verdict(genre: Genre, iid: str, givens: dict, entry: dict, time_limit: float | None) -> tuple[str, float]:
    """What happened to one puzzle, and how long compile + solve took."""
    failed, out, seconds = decide_unique(genre.rules_path, givens, options(genre, iid), time_limit)
    if failed is not None:
        return failed, seconds
    if not entry.get("solution"):
        return "no published solution", seconds
    mine = genre.tokens(out.solutions[0], entry["problem"])
    return ("ok" if mine == published(genre, entry["solution"]) else "differs"), seconds


def run(genre: Genre, limit: int | None, time_limit: float | None) -> dict:
    load_rules(genre.rules_path)
    t_load = time.perf_counter()
    puzzles = spread(by_size(genre), limit)
    t_load = time.perf_counter() - t_load
    results = []
    for iid, givens, entry in puzzles:
        what, seconds = verdict(genre, iid, givens, entry, time_limit)
        results.append((iid, what, seconds))
        print(f"  {genre.key} {iid}: {what} {seconds:.2f}s", file=sys.stderr, flush=True)
    secs = sorted(s for _, _, s in results)
    failures = [(iid, what) for iid, what, _ in results if what != "ok"]
    return {
        "genre": genre.key, "dataset": genre.dataset, "puzzles": len(results),
        "ok": len(results) - len(failures), "load_s": round(t_load, 2),
        "median_s": round(statistics.median(secs), 3) if secs else None,
        "max_s": round(secs[-1], 3) if secs else None, "total_s": round(sum(secs), 1),
        "slowest": [(iid, round(s, 2)) for iid, _, s in sorted(results, key=lambda x: -x[2])[:3]],
        "failures": failures[:20], "failure_count": len(failures),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    known = {**GENRES, **ELSEWHERE}
    ap.add_argument("genres", nargs="*", choices=[[], *known], metavar="GENRE", help=", ".join(known))
    ap.add_argument("--limit", type=int, help="puzzles per genre, spread over the sizes")
    ap.add_argument("--time-limit", type=float, default=60.0, help="seconds per puzzle (solver)")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "genres.json")
    ap.add_argument("--rules", type=Path, help="another rule file for the one GENRE given (a variant to compare)")
    ap.add_argument("--data", type=Path, help="the dataset file for the one GENRE given")
    a = ap.parse_args()
    if (a.rules or a.data) and len(a.genres) != 1:
        ap.error("--rules and --data need exactly one GENRE")
    rows = []
    for key in a.genres or GENRES:
        genre = known[key]
        if a.rules:
            genre = dataclasses.replace(genre, rules_file=a.rules.resolve())
        if a.data:
            genre = dataclasses.replace(genre, data_file=a.data.resolve())
        if not genre.data_path.is_file():
            raise SystemExit(f"data not found: {genre.data_path}")
        rows.append(run(genre, a.limit, a.time_limit))
        print(json.dumps(rows[-1]), flush=True)
    a.out.parent.mkdir(parents=True, exist_ok=True)
    a.out.write_text(json.dumps({"limit": a.limit, "time_limit": a.time_limit, "genres": rows}, indent=1) + "\n")


if __name__ == "__main__":
    main()
