"""CPU time of each stage for the largest published board of a janko genre, in one process:

    python3 bench/bench_stages.py GENRE [--reps 3] [--rules FILE] [--time-limit S]

Bind + ground (`compile_givens`), encode (`open_backend`) and the re-check of the first
solution (`evaluate.recheck`), each the least of `--reps` runs (`time.process_time`: another
job on the machine slows a run but never speeds one up). `--rules` compiles another rule file
for the genre's data (an old version of it, to compare). The solve that gives the re-check its
solution stops at `--time-limit` (60 s); without a solution by then there is no re-check
(Nurikabe's 50x50 is not solved that fast). Run it from two checkouts one after
the other, alternating, to compare two versions of the compiler.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from puzzledsl.compile import compile_givens, load_rules  # noqa: E402
from puzzledsl.evaluate import recheck  # noqa: E402
from puzzledsl.solve import Mode, open_backend, solve  # noqa: E402
from tests.genre_specs import GENRES, by_size, options  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("genre", choices=sorted(GENRES))
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--rules", type=Path, help="another rule file for the genre's data")
    ap.add_argument("--time-limit", type=float, default=60.0, help="for the solve before the re-check")
    a = ap.parse_args()
    genre = GENRES[a.genre]
    iid, givens, _ = by_size(genre)[-1]
    rules = load_rules(a.rules or genre.rules_path)
    best: dict[str, float] = {}

    def keep(stage: str, seconds: float) -> None:
        best[stage] = min(best.get(stage, float("inf")), seconds)

    for _ in range(a.reps):
        t = time.process_time()
        compiled = compile_givens(rules, givens, options(genre, iid))
        keep("bind+ground", time.process_time() - t)
        t = time.process_time()
        open_backend(compiled).close()
        keep("encode", time.process_time() - t)
        out = solve(compiled, mode=Mode(), time_limit=a.time_limit)
        if not out.solutions:
            continue
        t = time.process_time()
        recheck(compiled, out.solutions[:1])
        keep("recheck", time.process_time() - t)
    m = compiled.model
    print(f"{a.genre} {iid} ({ROOT.name}{', ' + str(a.rules) if a.rules else ''}): "
          + ", ".join(f"{k} {v:.3f} s" for k, v in best.items())
          + f"; {len(m.var_names)} variables, {len(m.assertions)} rule instances")


if __name__ == "__main__":
    main()
