"""How far past `--time-limit` a run goes: the solver is stopped only between slices, so the
overshoot is the length of the last slice (and of whatever cannot watch the clock).

    python3 bench/bench_time_limits.py [--limits 0.5,1,2,3] [--arukone-limit 5]

Two loads, each solved in process with `solve()` / `decide()` as the CLI does:
random 30×30 Kakurasu (seeds 1-3, many solutions, `--unique`), and the three largest janko
Arukone boards under fill + touchfree from their published solutions, and the sparse BWINF
60x60 under the literal rules (if ../shared/data is there). Prints each run's overshoot and
the median and maximum.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import bench_kakurasu_random  # noqa: E402
from bench_arukone import JANKO, plain  # noqa: E402

from puzzledsl.compile import compile_givens, load_rules  # noqa: E402
from puzzledsl.data import load_instances  # noqa: E402
from puzzledsl.solve import Mode, solve  # noqa: E402
from puzzledsl.uniqueness import decide  # noqa: E402

LARGE = ("110_25x42", "570_25x32", "567_30x30")
SPARSE = JANKO.parents[1] / "bwinf" / "v1perzerofy-60x60-d142dd5.txt"


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--limits", default="0.5,1,2,3")
    ap.add_argument("--arukone-limit", type=float, default=5.0)
    args = ap.parse_args()
    overs: list[float] = []
    rules = load_rules(ROOT / "puzzles" / "kakurasu.puz")
    for seed in (1, 2, 3):
        compiled = compile_givens(rules, bench_kakurasu_random.random_clues(30, seed), {})
        for limit in (float(x) for x in args.limits.split(",")):
            t0 = time.perf_counter()
            solve(compiled, mode=Mode(unique=True), time_limit=limit)
            overs.append(time.perf_counter() - t0 - limit)
            print(f"kakurasu 30x30 seed {seed}, limit {limit} s: {overs[-1]:+.2f} s", flush=True)
    if JANKO.is_file():
        rules = load_rules(ROOT / "puzzles" / "arukone.puz")
        options = {"fill": "true", "touchfree": "true"}
        for iid, raw in load_instances(JANKO, ["puzzlekit_arukone"], None):
            if iid not in LARGE:
                continue
            compiled = compile_givens(rules, {k: plain(raw[k]) for k in ("num", "pair") if k in raw}, options)
            t0 = time.perf_counter()
            out = decide(compiled, time_limit=args.arukone_limit)
            spent = time.perf_counter() - t0
            verdict = {True: "unique", False: "not unique", None: "unknown"}[out.unique]
            over = spent - args.arukone_limit
            print(f"arukone {iid}, limit {args.arukone_limit} s: {verdict} in {spent:.2f} s"
                  f" ({over:+.2f} s past the limit)", flush=True)
            if out.timed_out:
                overs.append(over)
    if SPARSE.is_file():  # no solution within the limit: the whole run is sliced search
        rules = load_rules(ROOT / "puzzles" / "arukone.puz")
        for limit in (5.0, 10.0):
            for _, raw in load_instances(SPARSE, ["bwinf_arukone"], None):
                compiled = compile_givens(rules, {"num": plain(raw["num"])}, {})
                t0 = time.perf_counter()
                out = decide(compiled, time_limit=limit)
                overs.append(time.perf_counter() - t0 - limit)
                print(f"arukone {SPARSE.stem}, literal, limit {limit} s: {out.status}, {overs[-1]:+.2f} s", flush=True)
    late = [max(o, 0.0) for o in overs]
    print(f"{len(late)} time-limited runs: overshoot median {statistics.median(late):.2f} s, max {max(late):.2f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
