"""puzzledsl against clingo, genre by genre: the same puzzles, interleaved in one process.

    python bench/bench_peer_ratios.py [GENRE ...] [--limit N | --all] [--time-limit S] --out FILE

For every genre with a clingo encoding in `bench/peers/` (default: all of them), the puzzles
are taken as `bench/bench_genres.py --limit N` takes them: N spread evenly over the data set
sorted by size, smallest and largest included (`--all`: every puzzle). Each puzzle is solved
by both, one right after the other (the order alternates from puzzle to puzzle), so both see
the same machine load:

- puzzledsl as `bench_genres.py` does: rules parsed once, then bind + ground + encode + solve
  + proof of uniqueness, timed from binding the data to the verdict;
- clingo as `bench/peers/run_clingo.py` does: `Control` creation + `add` + `ground` + `solve`
  with `models=2`, timed the same way; the facts are written before the clock starts.

Both answers are compared with the published solution (and clingo's checked by the tests'
independent checker). Before each genre, its smallest puzzle is solved once by both, untimed
(imports, first-call costs). Prints one JSON line per genre and a Markdown table; writes all
to `--out`.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "bench"), str(ROOT / "bench" / "peers")]

import clingo  # noqa: E402
import run_clingo as peer  # noqa: E402
from bench_datasets import SETS  # noqa: E402
from bench_genres import decide_unique, verdict  # noqa: E402
from janko_genres import PEERS  # noqa: E402

from puzzledsl.importers import load_with  # noqa: E402
from tests.genre_specs import by_size, spread  # noqa: E402

Ours = Callable[[], tuple[str, float]]
"""Solve one puzzle with puzzledsl: (verdict, seconds); "ok" = unique and the published solution."""


@dataclass
class Case:
    ident: str
    cells: int
    ours: Ours
    theirs: peer.Instance


def cells_verdict(rules_path: Path, name: str, givens: dict, instance: peer.Instance,
                  time_limit: float) -> tuple[str, float]:
    """puzzledsl on a Battleship or Kakurasu puzzle: its Boolean grid `name` against the
    published cells and the run_clingo checker."""
    failed, out, seconds = decide_unique(rules_path, givens, None, time_limit)
    if failed is not None:
        return failed, seconds
    assert out is not None
    mine = frozenset(p for p, v in out.solutions[0][name].cells.items() if v)
    if not instance.check(mine):
        return "invalid", seconds
    if instance.solution is None:
        return "no published solution", seconds
    return ("ok" if mine == instance.solution else "differs"), seconds


def dataset_cases(key: str, limit: int | None, time_limit: float) -> list[Case]:
    """Battleship and Kakurasu: puzzledsl's importer for our side, run_clingo's reader for clingo's."""
    rules_rel, data_path, fmt = SETS[key]
    name, source = {"battleship": ("ship", peer.battleship_janko), "kakurasu": ("black", peer.kakurasu_dataset)}[key]
    theirs = {i.ident: i for i in source(None)}
    loaded = sorted(load_with(fmt, data_path.read_text(encoding="utf-8"), str(data_path)),
                    key=lambda x: (x[1]["R"] * x[1]["C"], x[0]))
    cases = []
    for iid, givens in spread(loaded, limit):
        def ours(givens: dict = givens, instance: peer.Instance = theirs[iid]) -> tuple[str, float]:
            return cells_verdict(ROOT / rules_rel, name, givens, instance, time_limit)

        cases.append(Case(iid, givens["R"] * givens["C"], ours, theirs[iid]))
    return cases


def janko_cases(key: str, limit: int | None, time_limit: float) -> list[Case]:
    genre = PEERS[key].genre
    cases = []
    for iid, givens, entry in spread(by_size(genre), limit):
        def ours(iid: str = iid, givens: dict = givens, entry: dict = entry) -> tuple[str, float]:
            return verdict(genre, iid, givens, entry, time_limit)

        cases.append(Case(iid, givens["R"] * givens["C"], ours, peer.janko_instance(PEERS[key], iid, givens, entry)))
    return cases


GENRES = ["battleship", "kakurasu", *PEERS]


def cases_of(key: str, limit: int | None, time_limit: float) -> tuple[list[Case], str, list[str]]:
    """The puzzles, the clingo program and its options."""
    if key in PEERS:
        p = PEERS[key]
        return janko_cases(key, limit, time_limit), p.program.read_text(), list(p.options)
    return dataset_cases(key, limit, time_limit), (ROOT / "bench" / "peers" / f"{key}.lp").read_text(), []


def clingo_verdict(outcome: peer.Outcome) -> str:
    if outcome.status != "unique":
        return outcome.status
    if not outcome.valid:
        return "invalid"
    if not outcome.has_solution:
        return "no published solution"
    return "differs" if outcome.mismatch else "ok"


def run(key: str, limit: int | None, time_limit: float) -> dict:
    cases, program, options = cases_of(key, limit, time_limit)
    cases[0].ours()
    peer.solve(cases[0].theirs, program, time_limit, options)  # warm-up, untimed
    rows = []
    for i, case in enumerate(cases):
        def theirs(case: Case = case) -> peer.Outcome:
            return peer.solve(case.theirs, program, time_limit, options)

        if i % 2:
            outcome = theirs()
            ours, ours_s = case.ours()
        else:
            ours, ours_s = case.ours()
            outcome = theirs()
        rows.append({"id": case.ident, "cells": case.cells, "ours": ours, "ours_s": round(ours_s, 5),
                     "clingo": clingo_verdict(outcome), "clingo_s": round(outcome.seconds, 5)})
        print(f"  {key} {case.ident}: ours {ours} {ours_s:.3f}s, clingo {rows[-1]['clingo']} "
              f"{outcome.seconds:.3f}s", file=sys.stderr, flush=True)
    return summary(key, rows)


def summary(key: str, rows: list[dict]) -> dict:
    ours = [r["ours_s"] for r in rows]
    theirs = [r["clingo_s"] for r in rows]
    slowest = max(rows, key=lambda r: r["ours_s"])
    slowest_peer = max(rows, key=lambda r: r["clingo_s"])
    largest = rows[-1]
    ratio = statistics.median(ours) / statistics.median(theirs)
    return {
        "genre": key, "puzzles": len(rows),
        "ours_ok": sum(r["ours"] == "ok" for r in rows), "clingo_ok": sum(r["clingo"] == "ok" for r in rows),
        "ours_median_s": round(statistics.median(ours), 4), "clingo_median_s": round(statistics.median(theirs), 4),
        "ratio_of_medians": round(ratio, 2),
        "median_of_ratios": round(statistics.median(o / t for o, t in zip(ours, theirs, strict=True)), 2),
        "ours_faster": sum(o < t for o, t in zip(ours, theirs, strict=True)),
        "ours_max": [slowest["id"], slowest["ours_s"]], "clingo_max": [slowest_peer["id"], slowest_peer["clingo_s"]],
        "largest": {"id": largest["id"], "ours_s": largest["ours_s"], "clingo_s": largest["clingo_s"]},
        "ours_total_s": round(sum(ours), 2), "clingo_total_s": round(sum(theirs), 2),
        "not_ok": [(r["id"], r["ours"], r["clingo"]) for r in rows if (r["ours"], r["clingo"]) != ("ok", "ok")],
        "instances": rows,
    }


def markdown(rows: list[dict]) -> Iterator[str]:
    yield ("| genre | puzzles | ok ours / clingo | median ours s | median clingo s | ratio of medians "
           "| max ours s (id) | max clingo s (id) | largest: ours / clingo s |")
    yield "|---|---:|---:|---:|---:|---:|---|---|---|"
    for s in rows:
        big = s["largest"]
        yield (f"| {s['genre']} | {s['puzzles']} | {s['ours_ok']} / {s['clingo_ok']} | {s['ours_median_s']:.4f} "
               f"| {s['clingo_median_s']:.4f} | **{s['ratio_of_medians']:.2f}** | {s['ours_max'][1]:.3f} "
               f"({s['ours_max'][0]}) | {s['clingo_max'][1]:.3f} ({s['clingo_max'][0]}) "
               f"| {big['id']}: {big['ours_s']:.3f} / {big['clingo_s']:.3f} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("genres", nargs="*", choices=[[], *GENRES], metavar="GENRE", help=", ".join(GENRES))
    size = ap.add_mutually_exclusive_group()
    size.add_argument("--limit", type=int, default=40, help="puzzles per genre, spread over the sizes (40)")
    size.add_argument("--all", action="store_true", help="every puzzle of each genre")
    ap.add_argument("--time-limit", type=float, default=30.0, help="seconds per puzzle and solver")
    ap.add_argument("--out", type=Path, required=True, help="JSON report")
    a = ap.parse_args()
    limit = None if a.all else a.limit
    rows = []
    started = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    for key in a.genres or GENRES:
        rows.append(run(key, limit, a.time_limit))
        print(json.dumps({k: v for k, v in rows[-1].items() if k != "instances"}), flush=True)
        a.out.parent.mkdir(parents=True, exist_ok=True)
        a.out.write_text(json.dumps({"started": started, "limit": limit, "time_limit": a.time_limit,
                                     "clingo": clingo.__version__, "genres": rows}, indent=1) + "\n")
    print("\n".join(markdown(rows)))


if __name__ == "__main__":
    main()
