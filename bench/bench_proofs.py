"""Proofs of uniqueness (`solve --unique --proof`): sizes, and the time to write and to check them.

    python3 bench/bench_proofs.py [GENRE ...] [--limit N]      # janko genres (tests/genre_specs.py)
    python3 bench/bench_proofs.py --arukone [--limit N]        # janko Arukone, literal rules
    python3 bench/bench_proofs.py --battleship [--limit N]     # janko Battleship
    ... [--option fill=true] [--time-limit S] [--drat-trim PATH]

For each puzzle: the plain uniqueness search with a proof written (`solve(..., proof=)`), then
the proof checked by the independent checker of the tests (`tests/drat_checker.py`), or with
--drat-trim by that binary (`drat-trim CNF PROOF`, verdict line `s VERIFIED`). Prints a
line per genre: puzzles proven, lemmas and proof bytes (median, max), seconds to solve with
the proof and to check it (median, max; the check's total).
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

from puzzledsl.compile import compile_givens, load_rules  # noqa: E402
from puzzledsl.data import load_instances  # noqa: E402
from puzzledsl.importers import load_with  # noqa: E402
from puzzledsl.solve import Mode, solve  # noqa: E402
from tests.drat_checker import check  # noqa: E402
from tests.genre_specs import GENRES, by_size, options, spread  # noqa: E402

JANKO_ARUKONE = ROOT.parent / "shared" / "data" / "arukone" / "janko" / "janko_puzzlekit_NumberLink_dataset.json"
JANKO_BATTLESHIP = ROOT.parent / "shared" / "data" / "battleship" / "Battleship_dataset.json"


def drat_trim(binary: str):
    """A `check` by the drat-trim binary: (True, "") when it prints `s VERIFIED`."""
    def run(formula: Path, proof: Path) -> tuple[bool, str]:
        out = subprocess.run([binary, str(formula), str(proof)], capture_output=True, text=True)
        if "s VERIFIED" in (ln.strip() for ln in out.stdout.splitlines()):
            return True, ""
        return False, f"drat-trim exit {out.returncode}: {(out.stdout + out.stderr).strip()[-400:]}"
    return run


def measure(rules, givens: dict, opts: dict, folder: Path, name: str = "", checker=check,
            time_limit: float = 60) -> dict | None:
    proof = folder / "p.drat"
    t0 = time.perf_counter()
    out = solve(compile_givens(rules, givens, opts), mode=Mode(unique=True), proof=proof, time_limit=time_limit)
    t1 = time.perf_counter()
    if out.certificate is None:
        print(f"  {name}: no proof ({out.status}, unique={out.unique}), {t1 - t0:.2f} s", file=sys.stderr, flush=True)
        return None
    ok, why = checker(out.certificate.formula, proof)
    t2 = time.perf_counter()
    print(f"  {name}: {out.certificate.lemmas} lemmas, solve {t1 - t0:.2f} s, check {t2 - t1:.2f} s",
          file=sys.stderr, flush=True)
    if not ok:
        raise SystemExit(f"proof of {name} rejected: {why}")
    return {"lemmas": out.certificate.lemmas, "bytes": proof.stat().st_size, "solve": t1 - t0, "check": t2 - t1}


def summary(name: str, rows: list[dict], total: int) -> dict:
    def med_max(k: str) -> list:
        vals = sorted(r[k] for r in rows)
        return [round(statistics.median(vals), 3), round(vals[-1], 3)] if vals else [None, None]
    return {"set": name, "puzzles": total, "proven": len(rows), "lemmas": med_max("lemmas"),
            "bytes": med_max("bytes"), "solve_s": med_max("solve"), "check_s": med_max("check"),
            "check_total_s": round(sum(r["check"] for r in rows), 3)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("genres", nargs="*", choices=[[], *GENRES], metavar="GENRE")
    ap.add_argument("--arukone", action="store_true", help="janko Arukone, literal rules unless --option")
    ap.add_argument("--battleship", action="store_true", help="janko Battleship (puzzles/battleship.puz)")
    ap.add_argument("--limit", type=int, default=40, help="puzzles per set, spread over the sizes")
    ap.add_argument("--option", action="append", default=[], help="K=V, a rule option for --arukone/--battleship")
    ap.add_argument("--time-limit", type=float, default=60, help="seconds per puzzle for the search")
    ap.add_argument("--drat-trim", metavar="PATH", help="check with this drat-trim binary, not the Python checker")
    a = ap.parse_args()
    opts = dict(o.split("=", 1) for o in a.option)
    kw = {"checker": drat_trim(a.drat_trim) if a.drat_trim else check, "time_limit": a.time_limit}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for key in a.genres:
            g = GENRES[key]
            rules = load_rules(g.rules_path)
            puzzles = spread(by_size(g), a.limit)
            rows = [r for iid, givens, _ in puzzles
                    if (r := measure(rules, givens, options(g, iid), folder, iid, **kw))]
            print(json.dumps(summary(key, rows, len(puzzles))), flush=True)
        if a.arukone:
            rules = load_rules(ROOT / "puzzles" / "arukone.puz")
            jobs = [j for j in load_instances(JANKO_ARUKONE, ["puzzlekit_arukone"], None) if "num" in j[1]]
            jobs = jobs[:: max(1, len(jobs) // a.limit)][: a.limit]
            rows = []
            for iid, raw in jobs:
                givens = {"num": _plain(raw["num"])}
                if r := measure(rules, givens, opts, folder, iid, **kw):
                    rows.append(r)
            print(json.dumps(summary(f"arukone ({' '.join(a.option) or 'literal'})", rows, len(jobs))), flush=True)
        if a.battleship:
            rules = load_rules(ROOT / "puzzles" / "battleship.puz")
            text = JANKO_BATTLESHIP.read_text(encoding="utf-8")
            jobs = load_with("puzzlekit_battleship", text, str(JANKO_BATTLESHIP))
            jobs = jobs[:: max(1, len(jobs) // a.limit)][: a.limit]
            rows = [r for iid, givens in jobs if (r := measure(rules, givens, opts, folder, iid, **kw))]
            print(json.dumps(summary("battleship", rows, len(jobs))), flush=True)


def _plain(raw: object) -> object:
    v = raw.value  # type: ignore[attr-defined]
    return [_plain(x) for x in v] if isinstance(v, list) else v


if __name__ == "__main__":
    main()
