"""Arukone timings: compile + solve + uniqueness per puzzle, under a chosen notion.

    python3 bench/bench_arukone.py janko [--option fill=true] [--limit N] [--time-limit S]
    python3 bench/bench_arukone.py files FILE... [--option ...]
    python3 bench/bench_arukone.py janko --known     # start from the published solutions

Uniqueness is decided as `puzzledsl verify` does (`puzzledsl.uniqueness.decide`: the `wlog` and
`prefer` declarations of the rules, and a known solution with --known; a puzzle without a
solution gets its verdict, without the clashing rules named).

Prints one line per slow puzzle and a summary (median, p90, max, verdict counts); with
--out FILE also writes the per-puzzle rows as JSON.
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
from puzzledsl.data import load_instances  # noqa: E402
from puzzledsl.errors import PuzzleError  # noqa: E402
from puzzledsl.solve import Mode, solve  # noqa: E402
from puzzledsl.uniqueness import decide, first_solution  # noqa: E402
from tests.arukone_checker import check_arukone, normalize_edges  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "arukone"
JANKO = DATA / "janko" / "janko_puzzlekit_NumberLink_dataset.json"


def plain(raw: object) -> object:
    v = raw.value  # type: ignore[attr-defined]
    return [plain(x) for x in v] if isinstance(v, list) else v


def checked(num: list, sol: dict, options: dict[str, str]) -> list[str]:
    """What `tests/arukone_checker.py` (written from the rules, not from the encoder) finds wrong."""
    clues = [[v if isinstance(v, int) and v > 0 else None for v in row] for row in num]
    labels = sol["pair"].nested()
    edges = normalize_edges([[(p[0] - 1, p[1] - 1), (q[0] - 1, q[1] - 1)] for p, q in sol["link"].nested()])
    return check_arukone(clues, labels, edges, fill=options.get("fill") == "true",
                         touchfree=options.get("touchfree") == "true")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("set", choices=("janko", "files"))
    ap.add_argument("files", nargs="*", type=Path)
    ap.add_argument("--option", action="append", default=[])
    ap.add_argument("--limit", type=int)
    ap.add_argument("--only", help="comma-separated puzzle ids (e.g. 48_15x15,559_20x20)")
    ap.add_argument("--time-limit", type=float, default=60.0)
    ap.add_argument("--first", action="store_true",
                    help="first solution only, no uniqueness (the route `solve` takes: `prefer`/`wlog` options first)")
    ap.add_argument("--known", action="store_true", help="give the solution in the data file (if any) as known")
    ap.add_argument("--plain", action="store_true", help="the plain search: no wlog/prefer routes")
    ap.add_argument("--rules", type=Path, default=ROOT / "puzzles" / "arukone.puz", help="another rule file")
    ap.add_argument("--no-implied", action="store_true", help="leave out the rules marked `implied`")
    ap.add_argument("--cpu", action="store_true",
                    help="time in CPU seconds of this process (steadier than wall time on a busy machine)")
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    options = dict(o.split("=", 1) for o in args.option)
    rules = load_rules(args.rules)
    files = [JANKO] if args.set == "janko" else args.files
    jobs = []
    for f in files:
        for iid, raw in load_instances(f, ["bwinf_arukone", "puzzlekit_arukone", "thomasahle", "adc2015", "flowfree"],
                                       None):
            if "num" in raw:
                keys = ("num", "pair") if args.known else ("num",)
                jobs.append((f"{f.name}:{iid}", {k: plain(raw[k]) for k in keys if k in raw}))
    if args.only:
        wanted = set(args.only.split(","))
        jobs = [j for j in jobs if j[0].rsplit(":", 1)[1] in wanted]
    if args.limit:
        jobs = jobs[: args.limit]
    rows = []
    clock = time.process_time if args.cpu else time.perf_counter
    for name, givens in jobs:
        t0 = clock()
        compiled = compile_givens(rules, givens, options, implied=not args.no_implied)
        t1 = clock()
        if args.plain:
            out = solve(compiled, mode=Mode(unique=not args.first), time_limit=args.time_limit)
        elif args.first:
            out = first_solution(compiled, time_limit=args.time_limit)
        else:
            try:
                out = decide(compiled, time_limit=args.time_limit, explain=False)
            except PuzzleError as err:  # the published solution breaks these options (not touch-free, not filled)
                print(f"{name}: {err.message} ({clock() - t1:.1f} s); again without it", flush=True)
                compiled = compile_givens(rules, {k: v for k, v in givens.items() if k != "pair"}, options,
                                            implied=not args.no_implied)
                out = decide(compiled, time_limit=args.time_limit, explain=False)
        t2 = clock()
        verdict = out.status if args.first or out.status != "sat" else {True: "unique", False: "not unique",
                                                                         None: "unknown"}[out.unique]
        broken = [m for sol in out.solutions for m in checked(givens["num"], sol, options)]
        if broken:
            print(f"{name}: a solution breaks the rules (independent checker): {broken[:3]}", flush=True)
            verdict = "WRONG"
        rows.append({"puzzle": name, "compile": t1 - t0, "solve": t2 - t1, "total": t2 - t0, "verdict": verdict,
                     "route": out.route,
                     **{k: v for k, v in out.stats.items() if k.startswith("graph") or k == "conflicts"}})
        if t2 - t0 > 1.0:
            print(f"{name}: {t2 - t0:.2f} s ({verdict}, compile {t1 - t0:.2f} s)", flush=True)
    totals = sorted(r["total"] for r in rows)
    verdicts: dict[str, int] = {}
    for r in rows:
        verdicts[r["verdict"]] = verdicts.get(r["verdict"], 0) + 1
    notion = options or "none (literal rules)"
    print(f"{len(rows)} puzzles, options {notion}: median {statistics.median(totals)*1000:.1f} ms,"
          f" p90 {totals[int(0.9 * (len(totals) - 1))]*1000:.1f} ms, max {totals[-1]*1000:.1f} ms; {verdicts}")
    if args.out:
        args.out.write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
