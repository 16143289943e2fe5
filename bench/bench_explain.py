"""Explanations (issue 13) of 10×10 janko.at puzzles: Kakurasu, Battleship, Hitori, and the
genres with lines, loops and regions: Masyu, Slitherlink, Nurikabe.

    python bench/bench_explain.py [GENRE ...] [--limit N] [--repeat K] [--time-limit S]
                                  [--profile FILE] [--out FILE]

For each genre, N puzzles of 10×10 (spread evenly over the dataset's 10×10 entries) are
compiled `located` and explained in full; then the next hint is asked twice: from the empty
board, and from the board halfway through the explanation (the cells of its first half of
steps given as progress). Each time is the median of K runs; `compile` is parse (cached) +
bind + ground, `explain` includes encoding and the uniqueness check. Prints one JSON line per
genre and writes them to `--out` (default `bench/results/explain.json`). Without the shared
data folder it says so and exits 0. The default genres are the first three; name the others.
`--time-limit S` stops each explanation after S seconds (the row says `timed_out`).
`--profile FILE` runs everything under cProfile and writes the statistics to FILE (read them
with `python -m pstats FILE`), and prints the 25 functions with the most cumulative time.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from puzzledsl.compile import compile_givens, load_rules  # noqa: E402
from puzzledsl.explain import Explanation, explain  # noqa: E402
from puzzledsl.importers import load_with  # noqa: E402
from puzzledsl.values import Grid  # noqa: E402

DATA = ROOT.parent / "shared" / "data"
GENRES = {
    "kakurasu": (DATA / "kakurasu" / "Kakurasu_dataset.json", "puzzlekit_kakurasu"),
    "battleship": (DATA / "battleship" / "Battleship_dataset.json", "puzzlekit_battleship"),
    "hitori": (DATA / "genres" / "Hitori.json", "puzzlekit_hitori"),
    "masyu": (DATA / "genres" / "Masyu.json", "puzzlekit_masyu"),
    "slitherlink": (DATA / "genres" / "Slitherlink.json", "puzzlekit_slitherlink"),
    "nurikabe": (DATA / "genres" / "Nurikabe.json", "puzzlekit_nurikabe"),
}
DEFAULT = ("kakurasu", "battleship", "hitori")


def puzzles(genre: str, limit: int) -> list[tuple[str, dict]]:
    path, importer = GENRES[genre]
    items = [(k, g) for k, g in load_with(importer, path.read_text(encoding="utf-8"), str(path))
             if isinstance(g, dict) and g.get("R") == 10 and g.get("C") == 10]
    items.sort()
    if limit >= len(items):
        return items
    return [items[round(i * (len(items) - 1) / max(limit - 1, 1))] for i in range(limit)]


CPU: dict[str, float] = {}  # the median CPU seconds of the last `timed` call per label


def timed(f, repeat: int, label: str = "") -> tuple[float, object]:
    """The median wall time of `repeat` runs (and the median CPU time, kept in CPU[label]: the
    machine is shared, and CPU time moves less with its load)."""
    times, cpu, out = [], [], None
    for _ in range(repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        out = f()
        times.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    CPU[label] = statistics.median(cpu)
    return statistics.median(times), out


def halfway(compiled, out: Explanation) -> dict[str, Grid]:
    """The board after the first half of the steps, as progress grids."""
    grids = {}
    for name, g in compiled.grids.items():
        vals = g.empty_like()
        vals.cells = dict.fromkeys(g.keys(), None)
        grids[name] = vals
    for step in out.steps[: len(out.steps) // 2]:
        for f in step.fixed:
            grids[f.name].cells[f.key] = f.value
    return grids


def one(genre: str, iid: str, givens: dict, repeat: int, limit_s: float | None) -> dict:
    rules = load_rules(ROOT / "puzzles" / f"{genre}.puz")
    t_compile, compiled = timed(lambda: compile_givens(rules, givens, located=True), repeat, "compile")
    t_full, out = timed(lambda: explain(compiled, time_limit=limit_s), repeat, "full")
    t_first, _ = timed(lambda: explain(compiled, time_limit=limit_s, only_next=True), repeat, "next_first")
    mid = halfway(compiled, out)
    t_mid, nxt = timed(lambda: explain(compiled, mid, time_limit=limit_s, only_next=True), repeat, "next_mid")
    return {"id": iid, "status": out.status, "timed_out": out.timed_out, "compile_s": round(t_compile, 4),
            "full_s": round(t_full, 4), "next_first_s": round(t_first, 4), "next_mid_s": round(t_mid, 4),
            **{f"{k}_cpu_s": round(v, 4) for k, v in CPU.items()}, **out.grade(),
            "cells": len(out.facts), "explained": sum(len(s.fixed) for s in out.steps),
            "next_mid_size": nxt.steps[0].size if nxt.steps else None}


def run(genre: str, limit: int, repeat: int, limit_s: float | None) -> dict:
    rows = []
    for iid, givens in puzzles(genre, limit):
        row = one(genre, iid, givens, repeat, limit_s)
        rows.append(row)
        print(f"  {genre} {iid}: {row}", file=sys.stderr, flush=True)

    def med(key: str) -> float:
        return round(statistics.median(r[key] for r in rows), 3)

    def most(*keys: str) -> float:
        return round(max(r[k] for r in rows for k in keys), 3)

    return {"genre": genre, "puzzles": len(rows), "unique": sum(r["status"] == "unique" for r in rows),
            "timed_out": sum(r["timed_out"] for r in rows),
            "compile_median_s": med("compile_s"), "full_median_s": med("full_s"), "full_max_s": most("full_s"),
            "next_first_median_s": med("next_first_s"), "next_mid_median_s": med("next_mid_s"),
            "next_max_s": most("next_first_s", "next_mid_s"),
            "full_cpu_median_s": med("full_cpu_s"), "full_cpu_max_s": most("full_cpu_s"),
            "next_first_cpu_median_s": med("next_first_cpu_s"), "next_mid_cpu_median_s": med("next_mid_cpu_s"),
            "next_cpu_max_s": most("next_first_cpu_s", "next_mid_cpu_s"),
            "steps_median": med("steps"), "grade_median": med("grade"),
            "grades": sorted(r["grade"] for r in rows), "rows": rows}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("genres", nargs="*", choices=[[], *GENRES], metavar="GENRE", help=", ".join(GENRES))
    ap.add_argument("--limit", type=int, default=10, help="puzzles per genre (default 10)")
    ap.add_argument("--repeat", type=int, default=3, help="runs per measurement; the median is kept (default 3)")
    ap.add_argument("--time-limit", type=float, default=None, help="seconds per explanation (default: none)")
    ap.add_argument("--profile", type=Path, default=None, help="write cProfile statistics to this file")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "explain.json")
    a = ap.parse_args()
    if not DATA.is_dir():
        print(f"skipped: the shared data folder {DATA} is absent", file=sys.stderr)
        return
    profile = None
    if a.profile is not None:
        import cProfile
        profile = cProfile.Profile()
        profile.enable()
    out = []
    for genre in a.genres or DEFAULT:
        row = run(genre, a.limit, a.repeat, a.time_limit)
        out.append(row)
        print(json.dumps({k: v for k, v in row.items() if k != "rows"}), flush=True)
    if profile is not None:
        import pstats
        profile.disable()
        profile.dump_stats(a.profile)
        pstats.Stats(profile, stream=sys.stderr).sort_stats("cumulative").print_stats(25)
    a.out.parent.mkdir(parents=True, exist_ok=True)
    a.out.write_text(json.dumps({"limit": a.limit, "repeat": a.repeat, "time_limit": a.time_limit,
                                 "genres": out}, indent=1) + "\n")


if __name__ == "__main__":
    main()
