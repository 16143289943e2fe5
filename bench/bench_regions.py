"""Time to draw a board with region walls (`show … regions G`, issue 11): terminal text (no
colour) and SVG, for an N×N board of rooms, next to the same board drawn without walls.

    python bench/bench_regions.py [--size 30] [--runs 20]

The board is solved once; each drawing is timed `runs` times (CPU time, the median and the
best; the machine may be shared). A second variant takes the walls from a `define` evaluated
at every cell (as Sudoku's boxes are), which adds the define's evaluation.
"""

from __future__ import annotations

import argparse
import statistics
import time

import puzzledsl
from puzzledsl.api import render_text


def rules(n: int, show: str) -> str:
    """An N×N board of 3×5 rooms with a few ragged edges, one decision per cell."""
    room = [[(r // 3 + c // 5 + (r * c) % 7 // 6) % 10 for c in range(n)] for r in range(n)]
    return (f"given room[1..{n}, 1..{n}]: int = {room}\nvar x[1..{n}, 1..{n}]: bool\n"
            f"rule forall p in cells(x): x[p] == (room[p] % 2 == 0)\n"
            f"define box(r, c) = (r - 1) / 3 * 10 + (c - 1) / 5\n{show}\n")


def timed(f, runs: int) -> tuple[float, float]:
    out = []
    for _ in range(runs):
        t = time.process_time()
        f()
        out.append(time.process_time() - t)
    return statistics.median(out) * 1000, min(out) * 1000


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--size", type=int, default=30)
    ap.add_argument("--runs", type=int, default=20)
    a = ap.parse_args()
    print(f"{a.size}×{a.size} board, {a.runs} runs, CPU ms (median / best)")
    for label, show in (("no walls", "show x"), ("regions room (a given)", "show x regions room"),
                        ("regions box (a define)", "show x regions box")):
        sol = puzzledsl.rules(rules(a.size, show)).bind().solve()
        text = timed(lambda s=sol: render_text(s), a.runs)
        svg = timed(lambda s=sol: s.svg(), a.runs)
        print(f"{label:24} text {text[0]:6.1f} / {text[1]:6.1f}   svg {svg[0]:6.1f} / {svg[1]:6.1f}   "
              f"({len(sol.svg()) // 1024} KB of SVG)")


if __name__ == "__main__":
    main()
