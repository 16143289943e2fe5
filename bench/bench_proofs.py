"""Proofs of uniqueness (`solve --unique --proof`): sizes, and the time to write and to check them.

    python3 bench/bench_proofs.py [GENRE ...] [--limit N]      # janko genres (tests/genre_specs.py)
    python3 bench/bench_proofs.py --arukone [--limit N]        # janko Arukone, literal rules

For each puzzle: the plain uniqueness search with a proof written (`solve(..., proof=)`), then
the proof checked by the independent checker of the tests (`tests/drat_checker.py`). Prints a
line per genre: puzzles proven, lemmas and proof bytes (median, max), seconds to solve with
the proof and to check it (median, max).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from puzzledsl.compile import compile_givens, load_rules  # noqa: E402
from puzzledsl.data import load_instances  # noqa: E402
from puzzledsl.solve import Mode, solve  # noqa: E402
from tests.drat_checker import check  # noqa: E402
from tests.genre_specs import GENRES, by_size, options, spread  # noqa: E402

JANKO_ARUKONE = ROOT.parent / "shared" / "data" / "arukone" / "janko" / "janko_puzzlekit_NumberLink_dataset.json"


def measure(rules, givens: dict, opts: dict, folder: Path) -> dict | None:
    proof = folder / "p.drat"
    t0 = time.perf_counter()
    out = solve(compile_givens(rules, givens, opts), mode=Mode(unique=True), proof=proof, time_limit=60)
    t1 = time.perf_counter()
    if out.certificate is None:
        return None
    ok, why = check(out.certificate.formula, proof)
    t2 = time.perf_counter()
    print(f"  {out.certificate.lemmas} lemmas, solve {t1 - t0:.2f} s, check {t2 - t1:.2f} s",
          file=sys.stderr, flush=True)
    if not ok:
        raise SystemExit(f"proof rejected: {why}")
    return {"lemmas": out.certificate.lemmas, "bytes": proof.stat().st_size, "solve": t1 - t0, "check": t2 - t1}


def summary(name: str, rows: list[dict], total: int) -> dict:
    def med_max(k: str) -> list:
        vals = sorted(r[k] for r in rows)
        return [round(statistics.median(vals), 3), round(vals[-1], 3)] if vals else [None, None]
    return {"set": name, "puzzles": total, "proven": len(rows), "lemmas": med_max("lemmas"),
            "bytes": med_max("bytes"), "solve_s": med_max("solve"), "check_s": med_max("check")}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("genres", nargs="*", choices=[[], *GENRES], metavar="GENRE")
    ap.add_argument("--arukone", action="store_true", help="janko Arukone under the literal rules")
    ap.add_argument("--limit", type=int, default=40, help="puzzles per set, spread over the sizes")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for key in a.genres:
            g = GENRES[key]
            rules = load_rules(g.rules_path)
            puzzles = spread(by_size(g), a.limit)
            rows = [r for iid, givens, _ in puzzles if (r := measure(rules, givens, options(g, iid), folder))]
            print(json.dumps(summary(key, rows, len(puzzles))), flush=True)
        if a.arukone:
            rules = load_rules(ROOT / "puzzles" / "arukone.puz")
            jobs = [raw for _, raw in load_instances(JANKO_ARUKONE, ["puzzlekit_arukone"], None)]
            jobs = jobs[:: max(1, len(jobs) // a.limit)][: a.limit]
            rows = []
            for raw in jobs:
                givens = {"num": _plain(raw["num"])}
                if r := measure(rules, givens, {}, folder):
                    rows.append(r)
            print(json.dumps(summary("arukone (literal)", rows, len(jobs))), flush=True)


def _plain(raw: object) -> object:
    v = raw.value  # type: ignore[attr-defined]
    return [_plain(x) for x in v] if isinstance(v, list) else v


if __name__ == "__main__":
    main()
