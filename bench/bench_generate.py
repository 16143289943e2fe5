"""Arukone generator speed (puzzles per CPU second, one core) and how often the greedy router
of `tests/greedy_router.py` (pairs in label order along shortest paths, like BWINF's checker)
fails on the generated puzzles.

    python3 bench/bench_generate.py [--count M] [--seed S] [--verify rules|fast|both] [CASE ...]

A CASE is `N:K:NOTION` with NOTION strict, fill or touchfree (default: 10x10 with 8, 10, 12
and 15 pairs under strict and fill). Every puzzle is made in this process (the generator's
SAT solver and the compiled rules are reused, as with `--jobs 1`).
"""

from __future__ import annotations

import argparse
import importlib
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from puzzledsl.cli import _generators  # noqa: E402
from tests.greedy_router import route_greedy  # noqa: E402

DEFAULT = [f"10:{k}:{notion}" for notion in ("strict", "fill") for k in (8, 10, 12, 15)]


def run_case(gen, n: int, k: int, notion: str, count: int, seed: int, verify: str) -> dict:
    s = gen.Settings(n, k, fill=notion == "fill", touchfree=notion == "touchfree", verify=verify)
    g = gen.Generator(s)
    stats = gen.Stats()
    cpu0, wall0 = time.process_time(), time.perf_counter()
    made = []
    for i in range(1, count + 1):
        lines = g.puzzle(gen.puzzle_rng(seed, s, i), stats)
        if lines is not None:
            made.append(g.board.clues(lines))
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    g.close()
    greedy_fails = sum(route_greedy(clues) is None for clues in made)
    return {"case": f"{n}x{n} K={k} {notion}", "verify": verify, "made": len(made), "count": count,
            "per_cpu_s": len(made) / cpu if cpu else 0.0, "cpu_s": cpu, "wall_s": wall, "layouts": stats.layouts,
            "checks": stats.checks, "verify_s": stats.verify_seconds, "greedy_fails": greedy_fails}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("cases", nargs="*", default=DEFAULT)
    ap.add_argument("--count", type=int, default=30)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--verify", choices=("rules", "fast", "both"), default="both")
    a = ap.parse_args()
    _generators()
    gen = importlib.import_module("puzzledsl.stdlib.generators.arukone.generator")
    modes = ("fast", "rules") if a.verify == "both" else (a.verify,)
    print(f"{'case':<22} {'verify':<6} {'made':>9} {'/CPU s':>7} {'CPU s':>7} {'wall s':>7} {'layouts':>7} "
          f"{'checks':>6} {'rules s':>7} {'greedy fails':>12}")
    for case in a.cases:
        n, k, notion = case.split(":")
        for mode in modes:
            r = run_case(gen, int(n), int(k), notion, a.count, a.seed, mode)
            print(f"{r['case']:<22} {mode:<6} {r['made']:>4}/{r['count']:<4} {r['per_cpu_s']:>7.2f} "
                  f"{r['cpu_s']:>7.1f} {r['wall_s']:>7.2f} {r['layouts']:>7} {r['checks']:>6} {r['verify_s']:>7.2f} "
                  f"{r['greedy_fails']:>5}/{r['made']:<6}", flush=True)


if __name__ == "__main__":
    main()
