"""Penpa+ URLs on large boards (issue 11): for every Penpa+ genre with janko.at data, the
largest board of the dataset is written as a Penpa+ URL and read back (the same givens), and
the smallest board with at least `--answer-cells` cells is solved and its answer URL written.

    python bench/bench_penpa.py [--runs 5] [--answer-cells 100]

Times are the median of `--runs` (the URL writer from bound givens; the reader from the URL
text to givens, rule files not compiled; the answer lists from a solution). Prints a table
and writes bench/results/penpa.json.
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

from puzzledsl.cli import puzzle_url  # noqa: E402
from puzzledsl.compile import compile_givens, load_rules  # noqa: E402
from puzzledsl.importers import penpa  # noqa: E402
from puzzledsl.importers.penpa_genres import GENRES  # noqa: E402
from puzzledsl.solve import solve  # noqa: E402
from tests.genre_specs import GENRES as JANKO  # noqa: E402
from tests.genre_specs import by_size  # noqa: E402


def _median(f, runs: int) -> tuple[float, object]:
    times, out = [], None
    for _ in range(runs):
        start = time.perf_counter()
        out = f()
        times.append(time.perf_counter() - start)
    return statistics.median(times), out


def _plain(givens: dict) -> dict:
    """The givens; regions renumbered in reading order (janko's region names are not the puzzle)."""
    out = {k: getattr(v, "cells", v) for k, v in givens.items()}
    if "region" in out:
        names: dict = {None: None}
        out["region"] = {p: names.setdefault(v, len(names)) for p, v in sorted(out["region"].items())}
    return out


def measure(key: str, runs: int, answer_cells: int) -> dict:
    genre = JANKO[key]
    rules = load_rules(genre.rules_path)
    boards = [x for x in by_size(genre) if x[1].get("H", x[1]["C"]) == x[1]["C"] and not x[1].get("diagonals")]
    iid, givens, _ = boards[-1]
    compiled = compile_givens(rules, givens)
    write, url = _median(lambda: puzzle_url(compiled, "penpa"), runs)
    read, back = _median(lambda: penpa.load_url(url, "u")[0][1], runs)  # type: ignore[arg-type]
    again = compile_givens(rules, {k: v for k, v in back.items() if k != "__rules__"})  # type: ignore[union-attr]
    row = {"genre": key, "board": iid, "cells": givens["R"] * givens["C"], "url_chars": len(str(url)),
           "write_ms": round(write * 1000, 2), "read_ms": round(read * 1000, 2),
           "same_givens": _plain(again.givens) == _plain(compiled.givens)}
    small = next((x for x in boards if x[1]["R"] * x[1]["C"] >= answer_cells and x[2].get("solution")), None)
    if small is not None:
        solved = compile_givens(rules, small[1])
        result = solve(solved, time_limit=60)
        if result.status == "sat":
            answer, url2 = _median(lambda: puzzle_url(solved, "penpa", result.solutions[0]), runs)
            row |= {"answer_board": small[0], "answer_ms": round(answer * 1000, 2), "answer_url_chars": len(str(url2))}
    return row


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--answer-cells", type=int, default=100)
    args = ap.parse_args()
    keys = sorted(k for k, g in JANKO.items() if g.rules in GENRES)
    rows = [measure(k, args.runs, args.answer_cells) for k in keys]
    print(f"{'genre':14} {'board':22} {'cells':>6} {'URL chars':>9} {'write ms':>9} {'read ms':>8} same "
          f"{'answer board':18} {'answer ms':>9}")
    for r in rows:
        print(f"{r['genre']:14} {r['board']:22} {r['cells']:6} {r['url_chars']:9} {r['write_ms']:9} {r['read_ms']:8} "
              f"{'yes' if r['same_givens'] else 'NO':4} {r.get('answer_board', '-'):18} {r.get('answer_ms', '-'):>9}")
    out = ROOT / "bench" / "results" / "penpa.json"
    out.write_text(json.dumps(rows, indent=1) + "\n")
    print(f"written {out.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
