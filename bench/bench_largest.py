"""The largest published puzzle of every bundled janko.at genre, solved as a user would:

    python3 bench/bench_largest.py [--runs 3] [--time-limit 60] [GENRE ...]

One `puzzledsl solve RULES --data DATASET --instance ID --unique --json` process per run (the
median of `--runs`), so start-up, reading the whole dataset, grounding, solving, the uniqueness
proof and the re-check of the answer are all in; the JSON's own timings split it. The issue's
target: every genre's largest board under 2 s.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.genre_specs import GENRES, by_size, options  # noqa: E402


def run_once(genre, iid: str, time_limit: float) -> tuple[float, dict]:
    opts = [f"--option={k}={v}" for k, v in (options(genre, iid) or {}).items()]
    cmd = [sys.executable, "-m", "puzzledsl", "solve", str(genre.rules_path), "--data", str(genre.data_path),
           "--instance", iid, "--unique", "--json", "--time-limit", str(time_limit), *opts]
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    wall = time.perf_counter() - t0
    try:
        out = json.loads(p.stdout)
    except json.JSONDecodeError:
        out = {"status": f"exit {p.returncode}: {p.stderr.strip()[:200]}"}
    return wall, out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("genres", nargs="*")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--time-limit", type=float, default=60.0)
    a = ap.parse_args()
    rows = []
    for key in a.genres or sorted(GENRES):
        genre = GENRES[key]
        if not genre.data_path.exists():
            continue
        iid = by_size(genre)[-1][0]
        walls, out = [], {}
        for _ in range(a.runs):
            wall, out = run_once(genre, iid, a.time_limit)
            walls.append(wall)
        t = out.get("timings", {})
        row = {"genre": key, "id": iid, "wall_s": round(statistics.median(walls), 3),
               "status": out.get("status"), "unique": out.get("unique"),
               **{k: round(t[k], 3) for k in ("ground", "encode", "solve", "recheck", "total") if k in t}}
        rows.append(row)
        print(json.dumps(row), flush=True)
    over = [r["genre"] for r in rows if r["wall_s"] >= 2.0]
    print(json.dumps({"genres": len(rows), "under_2s": len(rows) - len(over), "over_2s": over}))


if __name__ == "__main__":
    main()
