"""`verify` and `generate` on one machine (`--jobs J`) against a local Dask cluster
(`--scheduler local --jobs J`): wall time of the whole command, and that the results agree.

    python3 bench/bench_dask.py [--set kakurasu|battleship] [--puzzles N] [--jobs J] [--repeat R]
                                [--generate M]

The first N puzzles of the set's janko dataset (from `../shared/data`, written to a temporary
file in the same format) are verified R times each way; the command's own wall time (from
its JSON summary) and the process's (cluster start and shutdown included) are reported, the
median of R. With --generate M, `generate arukone --size 8 --pairs 7 --count M` is timed too.
Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"
SETS = {"kakurasu": ("kakurasu", DATA / "kakurasu" / "Kakurasu_dataset.json"),
        "battleship": ("battleship", DATA / "battleship" / "Battleship_dataset.json")}


def command(*args: str) -> tuple[float, subprocess.CompletedProcess[str]]:
    env = dict(os.environ, PYTHONPATH=str(ROOT), NO_COLOR="1")
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "puzzledsl", *args], capture_output=True, text=True, env=env,
                          timeout=3600)
    return time.perf_counter() - t0, proc


def verdicts(obj: dict) -> list[tuple]:
    return [(p["file"], p["instance"], p["verdict"], p["error"]) for p in obj["puzzles"]]


def bench_verify(rules: str, data: Path, jobs: int, repeat: int) -> dict:
    runs: dict[str, list[tuple[float, float]]] = {"local": [], "dask": []}
    seen: dict[str, list[tuple]] = {}
    for _ in range(repeat):
        for how, extra in (("local", []), ("dask", ["--scheduler", "local"])):
            wall, proc = command("verify", rules, str(data), "--json", "--jobs", str(jobs), *extra)
            obj = json.loads(proc.stdout)
            runs[how].append((obj["summary"]["wall_seconds"], wall))
            seen[how] = verdicts(obj)
            counts = obj["summary"]["counts"]
    return {
        "puzzles": len(seen["local"]), "counts": counts, "identical": seen["local"] == seen["dask"],
        **{f"{how}_verify_s": round(statistics.median(r[0] for r in rs), 2) for how, rs in runs.items()},
        **{f"{how}_process_s": round(statistics.median(r[1] for r in rs), 2) for how, rs in runs.items()},
    }


def bench_generate(count: int, jobs: int, folder: Path) -> dict:
    out: dict[str, object] = {"count": count}
    files = {}
    for how, extra in (("local", []), ("dask", ["--scheduler", "local"])):
        target = folder / how
        wall, proc = command("generate", "arukone", "--size", "8", "--pairs", "7", "--count", str(count),
                             "--seed", "1", "--jobs", str(jobs), "--out", str(target), *extra)
        assert proc.returncode == 0, proc.stderr
        out[f"{how}_process_s"] = round(wall, 2)
        files[how] = {p.name: p.read_text() for p in target.iterdir()}
    out["identical"] = files["local"] == files["dask"]
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--set", choices=sorted(SETS), default="kakurasu")
    ap.add_argument("--puzzles", type=int, default=200)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--generate", type=int, default=0, metavar="M")
    a = ap.parse_args()
    rules, path = SETS[a.set]
    if not path.is_file():
        raise SystemExit(f"data not found: {path}")
    whole = json.loads(path.read_text(encoding="utf-8"))
    subset = dict(whole, data=dict(list(whole["data"].items())[:a.puzzles]), count=a.puzzles)
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / path.name
        data.write_text(json.dumps(subset), encoding="utf-8")
        result = {"set": a.set, "jobs": a.jobs, "repeat": a.repeat, "cores": os.cpu_count(),
                  "verify": bench_verify(rules, data, a.jobs, a.repeat)}
        if a.generate:
            result["generate"] = bench_generate(a.generate, a.jobs, Path(tmp))
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
