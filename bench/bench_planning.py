"""Benchmarks of puzzles played over time (issue 4): peg solitaire and Santa Chilly.

Usage (from the repository root)::

    python3 bench/bench_planning.py [--runs 3] [--chilly-limit 60] [--moves-limit 120] [--out FILE.json]

Every plan is replayed by the independent simulators in tests/ before it counts.
Times are wall seconds of `compile` + `search` in this process, medians over --runs.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from puzzledsl.compile import compile_file  # noqa: E402
from puzzledsl.planning.search import search  # noqa: E402
from tests import chilly_sim, pegsol_sim  # noqa: E402

PEG = ROOT / "puzzles" / "peg-solitaire.puz"
BOARDS = ROOT / "puzzles" / "peg-solitaire"
CHILLY = ROOT / "puzzles" / "chilly.puz"
CT = ROOT.parent / "shared" / "data" / "chilly" / "ct-2023-28-level.txt"
CT_JSON = CT.with_name("ct-2023-28-levels.json")


def timed(path: Path, data: Path | None = None, options: dict | None = None, **kw) -> tuple[float, object]:
    t0 = time.perf_counter()
    c = compile_file(path, data, options=options)
    res = search(c.plan, **kw)
    return time.perf_counter() - t0, res


def peg_run(name: str, runs: int, options: dict | None = None, geometry: str = "square") -> dict:
    path = BOARDS / f"{name}.txt"
    times, res = [], None
    for _ in range(runs):
        t, res = timed(PEG, path, options, time_limit=600)
        times.append(t)
        if res.status == "sat":
            jumps = [(a.args[0], a.args[2], a.args[3]) for a in res.actions]
            assert pegsol_sim.is_solution(path.read_text(), jumps, geometry)
    return {"board": name, "status": res.status, "moves": len(res.actions), "optimal": res.optimal,
            "seconds": times, "median": statistics.median(times), "method": res.method,
            "horizons": res.horizons, "reason": res.reason}


def triangle_starts(tmp: Path) -> dict:
    times, solved = [], 0
    for r in range(5):
        for c in range(r + 1):
            text = "\n".join("".join("." if (i, j) == (r, c) else "o" for j in range(i + 1)) for i in range(5)) + "\n"
            path = tmp / "triangle-start.txt"
            path.write_text(text)
            t0 = time.perf_counter()
            res = search(compile_file(PEG, path, options={"jumps": "triangle"}).plan, time_limit=60)
            times.append(time.perf_counter() - t0)
            if res.status == "sat":
                solved += 1
                jumps = [(a.args[0], a.args[2], a.args[3]) for a in res.actions]
                assert pegsol_sim.is_solution(text, jumps, "triangle")
    return {"starts": 15, "solved": solved, "max": max(times), "median": statistics.median(times)}


def chilly(limit: float, runs: int) -> dict:
    level = chilly_sim.load_level(CT)
    out: dict = {}
    t0 = time.perf_counter()
    c = compile_file(CHILLY, CT)
    out["compile"] = time.perf_counter() - t0
    first: list[float] = []
    t1 = time.perf_counter()
    res = search(c.plan, time_limit=10,
                 progress=lambda s: first.append(time.perf_counter() - t1) if not first else None)
    moves = "".join(a.text for a in res.actions)
    assert chilly_sim.is_valid_plan(level, moves)
    out["within_10s"] = {"moves": len(moves), "first_plan_after": first[0] if first else None,
                         "lower_bound": res.lower_bound}
    exact = []
    for data in [CT, CT_JSON] * runs:  # compile + search, as `puzzledsl solve` does
        t2 = time.perf_counter()
        res = search(compile_file(CHILLY, data).plan, time_limit=limit)
        moves = "".join(a.text for a in res.actions)
        assert chilly_sim.is_valid_plan(level, moves)
        exact.append({"data": data.name, "seconds": time.perf_counter() - t2, "moves": len(moves),
                      "optimal": res.optimal, "lower_bound": res.lower_bound})
    secs = [e["seconds"] for e in exact]
    out["exact"] = {"limit": limit, "runs": exact, "median": statistics.median(secs), "max": max(secs),
                    "all_optimal": all(e["optimal"] and e["moves"] == 103 for e in exact), "notes": res.notes}
    out["without_exactly_one"] = tour_ablation(c.plan, limit)
    t3 = time.perf_counter()
    plain = search(compile_file(CHILLY, CT).plan, time_limit=limit, tours=False)
    out["time_indexed_sat"] = {"limit": limit, "seconds": time.perf_counter() - t3, "status": plain.status,
                               "lower_bound": plain.lower_bound}
    return out


def tour_ablation(plan, limit: float) -> dict:
    """The same tour model without "exactly one chosen event per flag" (the LP bound it adds)."""
    from puzzledsl.backends.cpsat import solve_tour
    from puzzledsl.planning.tour import Lowered, detect

    low = Lowered(detect(plan))
    res = solve_tour(low.tour, limit, low.greedy(), exactly_one=False)
    return {"limit": limit, "seconds": res.seconds, "moves": res.moves, "bound": res.bound, "optimal": res.optimal}


def peg_moves(limit: float, tmp: Path) -> dict:
    """Fewest moves (chains of jumps): the triangle's 15 starts against the 0-1 BFS oracle, and the
    best English plan (and its time) within `limit`."""
    out: dict = {"triangle": []}
    for r in range(5):
        for c in range(r + 1):
            text = "\n".join("".join("." if (i, j) == (r, c) else "o" for j in range(i + 1)) for i in range(5)) + "\n"
            path = tmp / "triangle-start.txt"
            path.write_text(text)
            t, res = timed(PEG, path, {"jumps": "triangle", "measure": "moves"}, time_limit=limit)
            assert res.cost == pegsol_sim.min_moves(text, "triangle") and res.optimal
            out["triangle"].append({"start": [r, c], "moves": res.cost, "seconds": t})
    secs = [x["seconds"] for x in out["triangle"]]
    out["triangle_median"], out["triangle_max"] = statistics.median(secs), max(secs)
    found: list[tuple[float, str]] = []
    t0 = time.perf_counter()
    t, res = timed(PEG, BOARDS / "english.txt", {"measure": "moves"}, time_limit=limit,
                   progress=lambda s: found.append((round(time.perf_counter() - t0, 2), s)))
    assert pegsol_sim.is_solution((BOARDS / "english.txt").read_text(),
                                  [(a.args[0], a.args[2], a.args[3]) for a in res.actions])
    out["english"] = {"limit": limit, "cost": res.cost, "optimal": res.optimal, "lower_bound": res.lower_bound,
                      "seconds": t, "progress": found}
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--chilly-limit", type=float, default=60)
    ap.add_argument("--out", type=Path)
    ap.add_argument("--skip-chilly", action="store_true")
    ap.add_argument("--moves-limit", type=float, default=120, help="time limit of the peg-solitaire moves runs")
    args = ap.parse_args()
    import tempfile
    report: dict = {"machine": f"{platform.node()} {platform.processor() or platform.machine()}, "
                               f"python {platform.python_version()}"}
    report["english"] = peg_run("english", args.runs)
    print(json.dumps(report["english"], default=str), flush=True)
    report["european"] = peg_run("european", args.runs)
    report["european_anywhere"] = peg_run("european-anywhere", args.runs)
    with tempfile.TemporaryDirectory() as tmp:
        report["triangle"] = triangle_starts(Path(tmp))
        report["peg_moves"] = peg_moves(args.moves_limit, Path(tmp))
    print(json.dumps({k: report[k] for k in ("european", "triangle")}, default=str), flush=True)
    levels = {}
    for path in sorted((ROOT / "puzzles" / "chilly").glob("tiny-*.txt")):
        t, res = timed(CHILLY, path)
        levels[path.stem] = {"seconds": t, "moves": len(res.actions), "status": res.status}
    report["chilly_tiny"] = levels
    if not args.skip_chilly and CT.exists():
        report["chilly_ct"] = chilly(args.chilly_limit, args.runs)
        print(json.dumps(report["chilly_ct"], default=str), flush=True)
    text = json.dumps(report, indent=1, default=str)
    if args.out:
        args.out.write_text(text)
    print(text)


if __name__ == "__main__":
    main()
