"""Wall time of whole `puzzledsl solve` processes (start-up included), median of N runs.

    python bench/bench_cli.py [--runs 7]

Cases: a 10x10 Battleship (janko #1 of the CSPLib-sized set, saved as janko text), the
seed Kakurasu, and the 30x30 Battleship, each with --unique.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"


def janko_problem(key_part: str) -> str:
    data = json.loads((DATA / "battleship" / "Battleship_dataset.json").read_text(encoding="utf-8"))["data"]
    key = next(k for k in data if key_part in k)
    return data[key]["problem"]


def wall(cmd: list[str], runs: int) -> dict:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
        times.append(time.perf_counter() - t0)
        if proc.returncode != 0:
            raise SystemExit(f"{cmd} failed ({proc.returncode}): {proc.stderr}")
    return {"median_s": round(statistics.median(times), 3), "min_s": round(min(times), 3),
            "max_s": round(max(times), 3), "runs": runs}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=7)
    runs = ap.parse_args().runs
    py = [sys.executable, "-m", "puzzledsl", "solve"]
    results = {"python_startup": wall([sys.executable, "-c", "pass"], runs)}
    with tempfile.TemporaryDirectory() as tmp:
        cases = {"kakurasu seed 5x5": [str(ROOT / "puzzles/kakurasu/seed-5x5.puz")]}
        if DATA.is_dir():
            for part, label in (("10x10", "battleship 10x10"), ("30x30", "battleship 30x30")):
                f = Path(tmp) / f"{part}.txt"
                f.write_text(janko_problem(part), encoding="utf-8")
                cases[label] = [str(ROOT / "puzzles/battleship.puz"), "--data", str(f)]
        for label, args in cases.items():
            results[label] = wall(py + args + ["--unique", "--json"], runs)
    print(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
