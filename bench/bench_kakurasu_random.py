"""Random N×N Kakurasu (clues from a random half-black grid, so many solutions):
time to a first solution and a uniqueness verdict, per seed, with a time limit.

    python bench/bench_kakurasu_random.py [--size 30] [--seeds 1,2,3,4,5] [--pb ENC] [--time-limit 60]

The grid: cell (r, c) is black iff random.Random(seed).random() < 0.5, drawn row by
row (r outer, c inner) — the same instances as bench/peers/run_clingo.py kakurasu-random.
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

from puzzledsl.compile import compile_givens, load_rules  # noqa: E402
from puzzledsl.solve import Mode, solve  # noqa: E402


def random_clues(n: int, seed: int) -> dict[str, list[int]]:
    rng = random.Random(seed)
    grid = [[rng.random() < 0.5 for _ in range(n)] for _ in range(n)]
    rowsum = [sum(c + 1 for c in range(n) if grid[r][c]) for r in range(n)]
    colsum = [sum(r + 1 for r in range(n) if grid[r][c]) for c in range(n)]
    return {"rowsum": rowsum, "colsum": colsum}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--size", type=int, default=30)
    ap.add_argument("--seeds", default="1,2,3,4,5")
    ap.add_argument("--pb")
    ap.add_argument("--solver")
    ap.add_argument("--backend", default="sat")
    ap.add_argument("--time-limit", type=float, default=60.0)
    a = ap.parse_args()
    rules = load_rules(ROOT / "puzzles" / "kakurasu.puz")
    rows = []
    for seed in (int(s) for s in a.seeds.split(",")):
        t0 = time.perf_counter()
        compiled = compile_givens(rules, random_clues(a.size, seed))
        out = solve(compiled, a.backend, a.solver, Mode(unique=True), a.time_limit, pb=a.pb)
        rows.append({"seed": seed, "seconds": round(time.perf_counter() - t0, 3), "status": out.status,
                     "unique": out.unique, "timed_out": out.timed_out, **out.stats})
    done = [r["seconds"] for r in rows if not r["timed_out"]]
    print(json.dumps({"size": a.size, "pb": a.pb, "backend": a.backend, "runs": rows,
                      "median_s": round(statistics.median(done), 3) if done else None}, indent=1))


if __name__ == "__main__":
    main()
