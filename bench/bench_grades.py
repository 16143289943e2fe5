"""How the explanation's grade (docs/explain.md) relates to board size and to the difficulty
words some janko.at ids carry, on the real sets:

    python3 bench/bench_grades.py [GENRE ...] [--per-size N] [--time-limit S] [--out FILE]

For each genre, up to N puzzles of every board size in its dataset (spread over the entries of
that size) are explained in full (`located` compile + `explain`, one process); a puzzle whose
explanation does not finish in the time limit is counted, not graded. Prints per genre the
grade's median per size, Spearman's rank correlation between cells and grade, and the grade
of every puzzle whose id carries a word (`hard_25x25`) beside the median of its size.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from puzzledsl.compile import compile_givens, load_rules  # noqa: E402
from puzzledsl.errors import PuzzleError  # noqa: E402
from puzzledsl.explain import explain  # noqa: E402
from tests.genre_specs import GENRES, by_size, options  # noqa: E402

WORD = re.compile(r"^([a-z]+)_")


def spearman(xs: list[float], ys: list[float]) -> float | None:
    """Rank correlation (average ranks for ties)."""
    def ranks(v: list[float]) -> list[float]:
        order = sorted(range(len(v)), key=v.__getitem__)
        out = [0.0] * len(v)
        i = 0
        while i < len(order):
            j = i
            while j + 1 < len(order) and v[order[j + 1]] == v[order[i]]:
                j += 1
            for k in range(i, j + 1):
                out[order[k]] = (i + j) / 2
            i = j + 1
        return out
    if len(xs) < 3:
        return None
    rx, ry = ranks(xs), ranks(ys)
    mx, my = statistics.fmean(rx), statistics.fmean(ry)
    sx = sum((a - mx) ** 2 for a in rx) ** 0.5
    sy = sum((b - my) ** 2 for b in ry) ** 0.5
    return round(sum((a - mx) * (b - my) for a, b in zip(rx, ry)) / (sx * sy), 3) if sx and sy else None


def sample(genre, per_size: int) -> list[tuple[str, dict]]:
    by: dict[str, list] = defaultdict(list)
    for iid, givens, _ in by_size(genre):
        by[f"{givens['R']}x{givens['C']}"].append((iid, givens))
    out = []
    for items in by.values():
        step = max(len(items) / per_size, 1)
        picked = {items[int(i * step)][0]: items[int(i * step)] for i in range(min(per_size, len(items)))}
        out += picked.values()
        out += [x for x in items if WORD.match(x[0]) and x[0] not in picked]  # every worded id
    return out


def run(key: str, per_size: int, time_limit: float) -> dict:
    genre = GENRES[key]
    rules = load_rules(genre.rules_path)
    rows = []
    for iid, givens in sample(genre, per_size):
        t0 = time.process_time()
        try:
            out = explain(compile_givens(rules, givens, options(genre, iid), located=True), time_limit=time_limit)
        except PuzzleError as err:
            rows.append({"id": iid, "status": f"error: {err.message}"})
            continue
        row = {"id": iid, "cells": givens["R"] * givens["C"], "size": f"{givens['R']}x{givens['C']}",
               "status": out.status, "cpu_s": round(time.process_time() - t0, 3)}
        if out.status == "unique" and not out.timed_out:
            row.update(out.grade())
        rows.append(row)
        print(f"  {key} {row}", file=sys.stderr, flush=True)
    graded = [r for r in rows if "grade" in r]
    per = defaultdict(list)
    for r in graded:
        per[r["size"]].append(r["grade"])
    def area(size: str) -> int:
        r, c = size.split("x")
        return int(r) * int(c)
    medians = {s: statistics.median(g) for s, g in sorted(per.items(), key=lambda kv: area(kv[0]))}
    worded = [{"id": r["id"], "grade": r["grade"], "median_of_its_size": medians[r["size"]]}
              for r in graded if WORD.match(r["id"])]
    return {"genre": key, "puzzles": len(rows), "graded": len(graded),
            "not_graded": len(rows) - len(graded),
            "spearman_cells_grade": spearman([r["cells"] for r in graded], [r["grade"] for r in graded]),
            "spearman_cells_steps": spearman([r["cells"] for r in graded], [r["steps"] for r in graded]),
            "grade_median_by_size": medians, "worded": worded, "rows": rows}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("genres", nargs="*", default=["hitori", "akari", "star_battle", "sudoku", "tent", "norinori"])
    ap.add_argument("--per-size", type=int, default=4)
    ap.add_argument("--time-limit", type=float, default=20.0)
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "grades.json")
    a = ap.parse_args()
    results = []
    for key in a.genres:
        if not GENRES[key].data_path.exists():
            print(json.dumps({"genre": key, "skipped": "no data"}))
            continue
        res = run(key, a.per_size, a.time_limit)
        results.append(res)
        print(json.dumps({k: v for k, v in res.items() if k != "rows"}), flush=True)
    a.out.parent.mkdir(parents=True, exist_ok=True)
    a.out.write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
