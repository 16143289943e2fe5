"""puzzles/tapa.puz (list-valued clues, `sorted(cyclic runs(…))`) against the padded workaround a
new user wrote before those existed (bench/tapa_padded.puz: clues as `clue[r, c, 1..4]`, every
8-bit mask of a clue's neighbours tried):

    python3 bench/bench_tapa.py [--runs 3] [FILE.json ...]

Each puzzle is solved with `--unique --json` in a process of its own (the median of `--runs`),
by both rule files: the bundled instances (puzzles/tapa/) and any JSON files of list clues
(`{"clue": [[[3, 1], null, …], …]}`), which are padded for the workaround.
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
sys.path.insert(0, str(ROOT))


def clue_lists(path: Path) -> list[list]:
    """A puzzle's clues as lists (None: no clue; a None item: `?`)."""
    if path.suffix == ".json":
        return json.loads(path.read_text())["clue"]
    from puzzledsl.compile import compile_file
    g = compile_file(path).givens["clue"]
    return [[g.cells[(r, c)] for c in g.dims[1]] for r in g.dims[0]]


def padded(clues: list[list]) -> dict:
    """The workaround's data: four numbers per cell, `?` as -1, unused places null."""
    return {"clue": [[[None] * 4 if v is None else [-1 if x is None else x for x in v] + [None] * (4 - len(v))
                      for v in row] for row in clues]}


def run_once(rules: Path, data: Path) -> tuple[float, dict]:
    cmd = [sys.executable, "-m", "puzzledsl", "solve", str(rules), "--data", str(data), "--unique", "--json",
           "--time-limit", "120"]
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    wall = time.perf_counter() - t0
    try:
        return wall, json.loads(p.stdout)
    except json.JSONDecodeError:
        return wall, {"status": f"exit {p.returncode}: {p.stderr.strip()[:200]}"}


def measure(rules: Path, data: Path, runs: int) -> str:
    results = [run_once(rules, data) for _ in range(runs)]
    out = results[-1][1]
    stats = out.get("stats") or {}
    wall = statistics.median(w for w, _ in results)
    t = out.get("timings") or {}
    return (f"{wall:6.2f} s  ground {t.get('ground', 0):5.3f}  solve {t.get('solve', 0):5.3f}  "
            f"re-check {t.get('recheck', 0):5.3f}  unique {str(out.get('unique')):5}  "
            f"{stats.get('variables', '?'):>6} vars {stats.get('clauses', '?'):>7} clauses")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("files", nargs="*", type=Path)
    ap.add_argument("--runs", type=int, default=3)
    a = ap.parse_args()
    puzzles = sorted((ROOT / "puzzles" / "tapa").glob("*.puz")) + a.files
    with tempfile.TemporaryDirectory() as tmp:
        for path in puzzles:
            clues = clue_lists(path)
            lists, pads = Path(tmp) / "lists.json", Path(tmp) / "padded.json"
            lists.write_text(json.dumps({"clue": clues}))
            pads.write_text(json.dumps(padded(clues)))
            size = f"{len(clues)}x{len(clues[0])}"
            print(f"{path.name:28} {size:6} lists   {measure(ROOT / 'puzzles' / 'tapa.puz', lists, a.runs)}")
            print(f"{'':28} {'':6} padded  {measure(ROOT / 'bench' / 'tapa_padded.puz', pads, a.runs)}", flush=True)


if __name__ == "__main__":
    main()
