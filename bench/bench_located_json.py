"""Time to read a large JSON data file with every value located, by the candidates for issue 11:
the stdlib's C parser (no positions, the floor), `importers/located_json.py` (the stdlib's
pure-Python scanner with hooks), lark's LALR parser over a JSON grammar with positions, and
json-source-map (a JSON pointer -> position map, next to `json.loads` for the values).

    python bench/bench_located_json.py [--runs 3] [FILE ...]

A candidate that is not installed is skipped (json-source-map is not a dependency:
`pip install json-source-map` to include it). Prints a table and writes
bench/results/located-json.json.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"
DEFAULT = [DATA / "genres" / "Nonogram.json", DATA / "genres" / "Akari.json",
           DATA / "battleship" / "Battleship_dataset.json"]

# lark's own JSON example grammar (docs "JSON parser - Tutorial"), for the measurement only
LARK_JSON = r"""
?start: value
?value: object | array | string | SIGNED_NUMBER -> number | "true" -> true | "false" -> false | "null" -> null
array  : "[" [value ("," value)*] "]"
object : "{" [pair ("," pair)*] "}"
pair   : string ":" value
string : ESCAPED_STRING
%import common.ESCAPED_STRING
%import common.SIGNED_NUMBER
%import common.WS
%ignore WS
"""


def candidates() -> dict[str, object]:
    from puzzledsl.importers.located_json import parse_json_located

    out: dict[str, object] = {"json.loads (C, no positions)": json.loads,
                              "located_json (kept)": lambda text: parse_json_located(text, "bench.json")}
    try:
        import lark
        parser = lark.Lark(LARK_JSON, parser="lalr", propagate_positions=True, maybe_placeholders=False)
        out["lark LALR + positions (tree only)"] = parser.parse
    except ImportError:
        pass
    try:
        import json_source_map
        out["json.loads + json-source-map"] = lambda text: (json.loads(text), json_source_map.calculate(text))
    except ImportError:
        pass
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("files", nargs="*", type=Path, default=DEFAULT)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    files = [f for f in args.files if f.is_file()]
    if not files:
        print(f"no data files (looked for {', '.join(map(str, args.files))})", file=sys.stderr)
        return 1
    rows = []
    for f in files:
        text = f.read_text(encoding="utf-8")
        for name, parse in candidates().items():
            times = []
            for _ in range(args.runs):
                t0 = time.perf_counter()
                parse(text)
                times.append(time.perf_counter() - t0)
            rows.append({"file": f.name, "bytes": len(text.encode()), "reader": name,
                         "median_s": round(statistics.median(times), 4)})
            print(f"{f.name:<28} {len(text) / 1e6:5.2f} MB  {name:<36} {statistics.median(times):8.3f} s", flush=True)
    out = ROOT / "bench" / "results" / "located-json.json"
    out.write_text(json.dumps({"runs": args.runs, "python": sys.version.split()[0], "rows": rows}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
