"""Per-puzzle time for compile + solve + uniqueness over the real data sets, in one process.

    python bench/bench_datasets.py battleship [--limit N] [--backend sat|z3] [--pb ENC] [--card ENC]
    python bench/bench_datasets.py kakurasu | csplib

Rules are parsed once (as `puzzledsl` does in a batch); each puzzle is then bound,
grounded, encoded and solved twice (a solution, then the proof that no second one
exists). Prints a JSON summary: count, median, p90, max, the slowest ids.
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
DATA = ROOT.parent / "shared" / "data"

from puzzledsl.compile import compile_givens, load_rules  # noqa: E402
from puzzledsl.importers import load_with  # noqa: E402
from puzzledsl.solve import Mode, solve  # noqa: E402

SETS = {
    "battleship": ("puzzles/battleship.puz", DATA / "battleship" / "Battleship_dataset.json", "puzzlekit_battleship"),
    "kakurasu": ("puzzles/kakurasu.puz", DATA / "kakurasu" / "Kakurasu_dataset.json", "puzzlekit_kakurasu"),
    "csplib": ("puzzles/battleship.puz", DATA / "battleship" / "csplib_prob014_battleship_instances.pl",
               "csplib_battleship"),
}


def run(name: str, limit: int | None, backend: str, pb: str | None, card: str | None) -> dict:
    rules_path, data_path, fmt = SETS[name]
    if not data_path.is_file():
        raise SystemExit(f"data not found: {data_path}")
    rules = load_rules(ROOT / rules_path)
    instances = load_with(fmt, data_path.read_text(encoding="utf-8"), str(data_path))[:limit]
    times: list[tuple[float, str]] = []
    not_unique = []
    for iid, givens in instances:
        t0 = time.perf_counter()
        compiled = compile_givens(rules, givens)
        out = solve(compiled, backend, None, Mode(unique=True), pb=pb, card=card)
        dt = time.perf_counter() - t0
        times.append((dt, iid))
        if out.unique is not True:
            not_unique.append(iid)
    secs = sorted(t for t, _ in times)
    return {
        "set": name, "backend": backend, "pb": pb, "card": card, "puzzles": len(times),
        "median_ms": round(statistics.median(secs) * 1000, 2),
        "p90_ms": round(secs[int(0.9 * (len(secs) - 1))] * 1000, 2),
        "max_ms": round(secs[-1] * 1000, 2), "total_s": round(sum(secs), 2),
        "slowest": [(iid, round(t * 1000, 1)) for t, iid in sorted(times, reverse=True)[:3]],
        "not_unique": not_unique,
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("set", choices=sorted(SETS))
    ap.add_argument("--limit", type=int)
    ap.add_argument("--backend", default="sat")
    ap.add_argument("--pb")
    ap.add_argument("--card")
    a = ap.parse_args()
    print(json.dumps(run(a.set, a.limit, a.backend, a.pb, a.card)))


if __name__ == "__main__":
    main()
