"""Penpa+ URLs opened in penpa-edit itself (issue 11): for every rule file with a Penpa+ genre,
one puzzle (the instance `tests/test_penpa_answers.py` picks: a real URL where there is one)
is written as an edit-mode URL (`--url penpa`) and as a solve-mode URL with its answer check
(`--url penpa-answer`); both are opened in penpa-edit's own page, in headless Chromium
(`penpa_edit_check.js`, through playwright-core), and checked:

- loaded: the page raised no error; penpa's board has the puzzle's size and margins, the
  frame's cells (penpa's own `reset_frame` rule) are the URL's `centerlist`, and the title and
  genre tag are the ones written (a tag penpa does not know would be dropped);
- clues: every entry of the problem's layers is the one written, at the place penpa's own point
  geometry puts its key (row and column, cell centre, corner or side), compared with the place
  puzzledsl means;
- answer: the solver's marks for puzzledsl's solution (penpa's layer entries for the `&a=`
  lists: shaded cells, green lines and sides, green digits, symbols), drawn into the solver's
  layer, make penpa's own check (`pu.check_solution`) accept; with one mark taken away it does
  not. The marks' places are compared as the clues' are;
- saved: the URL penpa-edit itself writes of the loaded puzzle (its edit or solve link) reads
  back in puzzledsl, genre and all, to the same givens, and its text is ours line for line
  (but for what penpa always adds: a header field, the answer-check boxes left unticked);
- drawn: the answer drawn with the mouse and keyboard in the input mode the URL sets (clicks
  to shade or place a symbol, drags for lines, sides, triangles and ships' ends, typed digits),
  at the places puzzledsl means, turned into pixels by penpa's own geometry, is accepted.

    python bench/penpa_edit_check.py PENPA_EDIT [--genres a,b] [--out bench/results/penpa_edit.json]

PENPA_EDIT is a checkout of swaroopg92/penpa-edit (its root or its `docs/`); nothing of it is
kept here. Needs node, playwright-core (`npm install playwright-core`; `--node-modules` or
NODE_PATH points at it) and a Chromium (`CHROMIUM`, default /usr/bin/chromium; Debian's
`chromium` package). Without them it says what is missing and exits 0 (not part of pytest).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import unquote

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from puzzledsl.cli import puzzle_url  # noqa: E402
from puzzledsl.compile import compile_file  # noqa: E402
from puzzledsl.importers import penpa  # noqa: E402
from puzzledsl.importers.penpa_genres import GENRES  # noqa: E402
from puzzledsl.importers.penpa_write import TITLE_OF  # noqa: E402
from puzzledsl.solve import solve  # noqa: E402

DRIVER = Path(__file__).with_name("penpa_edit_check.js")
LAYERS = ("number", "surface", "symbol", "lineE", "line")
SYMBOL_OF = {"A": "circle_M", "B": "tri", "C": "arrow_S", "D": "battleship_B", "D+": "battleship_B+", "E": "star",
             "F": "tents", "G": "math", "H": "sun_moon", "I": "sun_moon"}  # make_solution's letters


def missing(penpa_edit: Path, node_modules: str | None) -> str | None:
    """Why the check cannot run here, or None."""
    if shutil.which("node") is None:
        return "node is not installed"
    if not (penpa_edit / "index.html").is_file() or not (penpa_edit / "js" / "class_p.js").is_file():
        return f"{penpa_edit} is not a penpa-edit checkout (no index.html and js/class_p.js)"
    chromium = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    if shutil.which(chromium) is None:
        return f"no Chromium at {chromium} (apt-get install chromium, or set CHROMIUM)"
    probe = subprocess.run(["node", "-e", "require('playwright-core')"], env=_env(node_modules),
                           capture_output=True, text=True)
    if probe.returncode != 0:
        return "playwright-core is not installed for node (npm install playwright-core; then --node-modules DIR)"
    return None


def _env(node_modules: str | None) -> dict[str, str]:
    env = dict(os.environ)
    if node_modules:
        env["NODE_PATH"] = node_modules
    return env


def _place(board: penpa.Board, key: str) -> list[list]:
    """Where puzzledsl means a layer key's points: [penpa's point type, column, row], a corner
    or a side's middle half a cell from a centre (the JS driver reports penpa's own view so)."""
    out = []
    for part in key.split(","):
        point = board.point(part)
        if point is None:
            out.append(None)
            continue
        kind, (r, c) = point
        dx, dy = {0: (0, 0), 1: (0.5, 0.5), 2: (0, 0.5), 3: (0.5, 0)}[kind]
        out.append([kind, c + dx, r + dy])
    return out


def marks_of(answer: list[list[str]]) -> dict[str, dict]:
    """The solver's layer entries that make penpa's `make_solution` give these six lists."""
    marks: dict[str, dict] = {name: {} for name in LAYERS}
    surface, line, edge, _, digits, symbols = answer
    for key in surface:
        marks["surface"][key] = 1  # dark grey
    for layer, entries in (("line", line), ("lineE", edge)):
        for entry in entries:
            a, b, n = entry.split(",")
            marks[layer][f"{a},{b}"] = 30 if n == "2" else 3  # green, or a double line
    for entry in digits:
        key, value = entry.split(",", 1)
        marks["number"][key] = [value, 2, "1"]  # green, normal style
    for entry in symbols:
        key, code = entry.split(",", 1)
        style = int("".join(ch for ch in code if ch.isdigit()))
        marks["symbol"][key] = [style, SYMBOL_OF[code.lstrip("0123456789")], 2]
    return {k: v for k, v in marks.items() if v}


TRI_TOWARDS = {1: (-0.4, -0.4), 2: (-0.4, 0.4), 3: (0.4, 0.4), 4: (0.4, -0.4)}  # a tri's right-angled corner
SHIP_DRAG = {3: (0.45, 0), 4: (0, 0.45), 5: (-0.45, 0), 6: (0, -0.45)}  # an end piece: drag towards its ship


def gestures_of(board: penpa.Board, answer: list[list[str]]) -> list[dict]:
    """How a solver draws the answer in penpa-edit's input mode that the URL sets: clicks,
    drags and typing at places in cell units (column, row; from puzzledsl's reading of the
    lists' keys), turned into pixels by penpa's own geometry in the driver."""
    def at(key: str) -> list[float]:
        (_, x, y), = _place(board, key)
        return [x, y]

    surface, line, edge, _, digits, symbols = answer
    out: list[dict] = [{"click": at(k)} for k in surface]
    for entries in (line, edge):
        for entry in entries:
            a, b, n = entry.split(",")
            out += [{"drag": [at(a), at(b)]}] * int(n)  # once a line, twice a double one
    out += [{"type": at(k), "text": v} for k, v in (e.split(",", 1) for e in digits)]
    for entry in symbols:
        key, code = entry.split(",", 1)
        style, letter = int(code[0]), code[1:]
        x, y = at(key)
        if letter == "B":  # a triangle: drag from the centre towards its corner
            dx, dy = TRI_TOWARDS[style]
            out.append({"drag": [[x, y], [x + dx, y + dy]]})
        elif letter == "D" and style in SHIP_DRAG:  # a ship's end: drag towards the rest of the ship
            dx, dy = SHIP_DRAG[style]
            out.append({"drag": [[x, y], [x + dx, y + dy]]})
        else:  # one click a star, tent, light, `+` or middle piece; two a `-` or a one-cell ship
            out += [{"click": [x, y]}] * (2 if (letter, style) in (("G", 3), ("D", 1)) else 1)
    return out


def _answer_lists(url: str) -> list[list[str]]:
    text = url.split("&a=", 1)[1]
    return json.loads(penpa.inflate(unquote(text), penpa.Span("<a>", 1, 1)))


def sources(rules: str, wide: bool) -> list[tuple[str, object]]:
    """(label, compiled puzzle) to open: the instance `tests/test_penpa_answers.py` picks (a
    real URL where there is one); with `wide`, also every bundled instance of the genre and the
    smallest, middle and largest janko.at board of its dataset (when ../shared/data is there)."""
    from tests.test_penpa_answers import PUZZLES, _compiled, _instance

    source = _instance(rules)
    label = source.name if isinstance(source, Path) else str(source)[:60]
    out = [(label, compile_file(source) if isinstance(source, Path) else _compiled(rules, source))]
    if not wide:
        return out
    folder = PUZZLES / ("battleship" if rules.startswith("battleship") else rules)
    for path in sorted(folder.glob("*.puz")):
        if path != source and ("fleetless" in path.name) == rules.endswith("fleetless"):
            compiled = compile_file(path)
            if not (rules == "arukone" and (compiled.givens.get("fill") or compiled.givens.get("touchfree"))):
                out.append((path.name, compiled))
    return out + _janko(rules)


def _janko(rules: str) -> list[tuple[str, object]]:
    from puzzledsl.compile import compile_givens, load_rules
    from tests.genre_specs import GENRES as JANKO
    from tests.genre_specs import by_size, spread

    out = []
    for genre in (g for g in JANKO.values() if g.rules == rules and g.rules_file is None):
        if not genre.data_path.is_file():
            continue
        boards = [x for x in by_size(genre) if x[1].get("H", x[1]["C"]) == x[1]["C"] and not x[1].get("diagonals")]
        loaded = load_rules(genre.rules_path)
        out += [(f"janko {iid}", compile_givens(loaded, givens)) for iid, givens, _ in spread(boards, 3)]
    return out


def case(rules: str, label: str, compiled, mouse_cells: int = 400) -> dict:
    """One puzzle, its two URLs, and what penpa-edit must find in them."""
    from tests.test_penpa_answers import _plain

    result = solve(compiled, time_limit=60)  # a board not solved in time is opened without an answer
    genre = GENRES[rules]
    drawing = genre.encode(compiled.givens)
    board = drawing.board()
    expect_q = {layer: {k: [_place(board, k), v] for k, v in drawing.q[layer].items()} for layer in LAYERS}
    out = {"rules": rules, "givens": _plain(compiled), "source": label, "edit": puzzle_url(compiled, "penpa"),
           "answer": None, "marks": None, "gestures": None,
           "expect": {"nx": drawing.cols + drawing.space[2] + drawing.space[3],
                      "ny": drawing.rows + drawing.space[0] + drawing.space[1], "space": list(drawing.space),
                      "title": TITLE_OF.get(rules, rules), "tags": list(genre.tags[:1]), "q": expect_q,
                      "rules": drawing.rules.replace("\n", "<br>"),
                      "mode": ["pu_a", drawing.mode[0], drawing.mode[1][0]], "a": {}, "check": []},
           "status": result.status}
    if result.status == "sat":
        answer_url = puzzle_url(compiled, "penpa", result.solutions[0])
        lists = _answer_lists(answer_url)
        marks = marks_of(lists)
        mouse = drawing.rows * drawing.cols <= mouse_cells  # every mouse event redraws the board: slow
        out |= {"answer": answer_url, "marks": marks, "gestures": gestures_of(board, lists) if mouse else None}
        out["expect"] |= {"a": {layer: {k: [_place(board, k), v] for k, v in entries.items()}
                                for layer, entries in marks.items()},
                          "check": sorted(name for name, on in json.loads(_lines(answer_url)[7]).items() if on)}
    return out


def _lines(url: str) -> list[str]:
    p = url.split("p=", 1)[1].split("&", 1)[0]
    return penpa.expand(penpa.inflate(p, penpa.Span("<p>", 1, 1))).split("\n")


def _same_places(got: dict, want: dict) -> list[str]:
    """Differences between penpa's placed layer entries and puzzledsl's."""
    out = []
    for key in sorted(set(got) | set(want)):
        if key not in got:
            out.append(f"{key} missing in penpa")
        elif key not in want:
            out.append(f"{key} extra in penpa")
        elif got[key] != want[key]:
            out.append(f"{key}: penpa {got[key]} vs {want[key]}")
    return out


def _saved(c: dict, url: str) -> list[str]:
    """The URL penpa-edit wrote of the puzzle it loaded, read back by puzzledsl (its file://
    address swapped for the site's, as penpa's `maketext_baseurl` does when shortening links)."""
    from tests.test_penpa_answers import _compiled, _plain

    url = penpa.SITE + "#" + url.split("#", 1)[-1]
    try:
        named = penpa.genre_rules(url)
        if named != c["rules"] and GENRES[c["rules"]].variant_of != named:
            return [f"penpa's own URL names genre {named!r}"]
        again = _plain(_compiled(c["rules"], url))
    except Exception as error:  # noqa: BLE001 - reported, not raised
        return [f"penpa's own URL does not read back: {error}"]
    return [] if again == c["givens"] else ["penpa's own URL reads back to other givens"]


def _parsed(line: str) -> object:
    """A line of penpa's text as values: JSON (key order aside: JavaScript orders integer keys),
    or the solve-mode mode line `grid~mode~setting`, else the text."""
    try:
        return json.loads(line)
    except json.JSONDecodeError:
        if "~" in line:
            return [_parsed(part) for part in line.split("~")]
        return line


def _settled(mode: object) -> object:
    """A mode without what penpa settles on loading from its panel: a style left blank, a
    number's orientation ("R"). The layer, input mode and submode stay."""
    if isinstance(mode, dict):
        return {k: v if k == "grid" else _settled(v) for k, v in mode.items()}
    if isinstance(mode, list) and len(mode) >= 2 and isinstance(mode[0], str) and not isinstance(mode[1], list):
        return mode[:1]
    return [_settled(v) for v in mode] if isinstance(mode, list) else mode


def _text_differences(written: str, saved: str) -> list[str]:
    """Lines of penpa's own text of the puzzle (its Share link) whose values are not ours.
    penpa adds a background-image field to the header, writes every answer-check box (false
    ones too), and settles a mode's style from its panel (`_settled`)."""
    mine, theirs = _lines(written), _lines(penpa.SITE + "#" + saved.split("#", 1)[-1])
    out = [] if len(mine) == len(theirs) else [f"penpa's text has {len(theirs)} lines, ours {len(mine)}"]
    for i, (a, b) in enumerate(zip(mine, theirs)):
        ours, its = _parsed(a), _parsed(b)
        if i == 0:
            same = b.startswith(a)
        elif i in (7, 16) and isinstance(ours, dict) and isinstance(its, dict):
            same = ours == {k: v for k, v in its.items() if v}
        elif i == 2 and isinstance(ours, list) and isinstance(its, list):  # solve mode: grid~mode~setting
            same = ours[:2] == its[:2] and _settled(ours[2:]) == _settled(its[2:])
        elif i in (2, 11):
            same = _settled(ours) == _settled(its)
        else:
            same = ours == its
        if not same:
            keys = sorted(k for k in set(ours) | set(its) if ours.get(k) != its.get(k)) \
                if isinstance(ours, dict) and isinstance(its, dict) else []
            out.append(f"line {i} of penpa's own text differs" + (f" in {keys[:6]}" if keys else "") +
                       f": ours {a[:100]!r}, penpa's {b[:100]!r}")
    return out


def judge(c: dict, seen: dict, with_answer: bool) -> list[str]:
    """What penpa-edit saw that differs from what puzzledsl wrote."""
    want = c["expect"]
    if "error" in seen:
        return [f"did not load: {seen['error']}"]
    problems = [f"page error: {e}" for e in seen["page_errors"]]
    for name in ("nx", "ny", "space", "title", "tags", "rules", "mode"):
        if seen[name] != want[name]:
            problems.append(f"{name}: penpa {seen[name]!r}, written {want[name]!r}")
    if not seen["centerlist_ok"]:
        problems.append("centerlist is not the frame's cells")
    for layer in LAYERS:
        problems += [f"{layer} {p}" for p in _same_places(seen["q"][layer], want["q"][layer])]
    problems += _saved(c, seen.get("saved", ""))
    problems += _text_differences(c["answer" if with_answer else "edit"], seen.get("saved", ""))
    if with_answer:
        if not seen.get("has_solution"):
            problems.append("no solution loaded")
        if sorted(seen["checks"]) != want["check"]:
            problems.append(f"answer check settings: penpa {seen['checks']}, written {want['check']}")
        for layer, entries in want["a"].items():
            problems += [f"answer {layer} {p}" for p in _same_places(seen["a"].get(layer, {}), entries)]
        if c["gestures"] and not seen.get("drawn_accepted"):
            problems.append(f"answer drawn with the mouse not accepted: penpa made {seen.get('drawn_made', '')[:300]}"
                            f" against {str(seen.get('solution'))[:300]}")
        if not seen.get("accepted"):
            problems.append(f"answer not accepted: penpa made {seen.get('made', '')[:300]} "
                            f"against {str(seen.get('solution'))[:300]}")
        if not seen.get("broken_rejected"):
            problems.append(f"broken answer ({seen.get('broken_by')}) accepted")
    return problems


def run(penpa_edit: Path, node_modules: str | None, cases: list[dict]) -> list[dict]:
    todo = []
    for c in cases:
        todo.append({"name": f"{c['rules']} edit", "url": c["edit"].split("#", 1)[1], "marks": None})
        if c["answer"]:
            todo.append({"name": f"{c['rules']} answer", "url": c["answer"].split("#", 1)[1], "marks": c["marks"],
                         "gestures": c["gestures"]})
    with tempfile.TemporaryDirectory() as tmp:
        src, out = Path(tmp) / "cases.json", Path(tmp) / "out.json"
        src.write_text(json.dumps(todo))
        subprocess.run(["node", str(DRIVER), str(penpa_edit), str(src), str(out)], env=_env(node_modules),
                       check=True)
        return json.loads(out.read_text())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("penpa_edit", type=Path, help="a checkout of swaroopg92/penpa-edit (root or docs/)")
    ap.add_argument("--node-modules", help="a node_modules folder holding playwright-core")
    ap.add_argument("--genres", help="comma-separated rule files (default: every Penpa+ genre)")
    ap.add_argument("--wide", action="store_true",
                    help="also every bundled instance and three janko.at boards per genre")
    ap.add_argument("--mouse-cells", type=int, default=400,
                    help="draw the answer with the mouse on boards of at most this many cells (default 400)")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "penpa_edit.json")
    args = ap.parse_args()
    docs = args.penpa_edit / "docs" if (args.penpa_edit / "docs" / "index.html").is_file() else args.penpa_edit
    why = missing(docs, args.node_modules)
    if why is not None:
        print(f"penpa_edit_check: skipped: {why}")
        return 0
    genres = args.genres.split(",") if args.genres else sorted(GENRES)
    cases = [case(g, label, compiled, args.mouse_cells) for g in genres for label, compiled in sources(g, args.wide)]
    start = time.perf_counter()
    seen = iter(run(docs, args.node_modules, cases))
    seconds = time.perf_counter() - start
    rows, failed = [], 0
    for c in cases:
        loaded = judge(c, next(seen), False)
        answer = next(seen) if c["answer"] else {}
        answered = judge(c, answer, True) if c["answer"] else []
        failed += bool(loaded or answered)
        rows.append({"rules": c["rules"], "source": c["source"], "loaded": not loaded, "solved": c["status"],
                     "answer_accepted": bool(answer.get("accepted")), "drawn": bool(c["gestures"]),
                     "drawn_accepted": bool(answer.get("drawn_accepted")),
                     "broken_rejected": bool(answer.get("broken_rejected")),
                     "check": c["expect"]["check"], "problems": loaded + answered})
        said = (f"({c['status']})" if not c["answer"] else "NO" if answered
                else "drawn ok" if c["gestures"] else "accepted")
        print(f"{c['rules']:21} {c['source'][:44]:44} loaded {'ok' if not loaded else 'NO':3} answer {said:9} "
              f"{' '.join(c['expect']['check'])}")
        for p in loaded + answered:
            print(f"    {p}")
    pages = sum(1 + bool(c["answer"]) for c in cases)
    print(f"{len(cases) - failed}/{len(cases)} puzzles ({len(set(genres))} genres) loaded and answered in "
          f"penpa-edit ({pages} pages, {seconds:.1f} s)")
    args.out.write_text(json.dumps(rows, indent=1) + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
