"""Penpa+ answer checks for every genre, and the genres added for issue 11 (nonogram, hashi,
galaxies, tatamibari, magnets, battleships).

penpa-edit's answer check (`docs/js/class_p.js`, `make_solution`) compares six lists of strings:
shaded cells, lines between cell centres, lines along cell sides, walls, digits and symbols.
`--url penpa-answer` writes the solution as those lists; here each written answer is read
back by decoders written from that format alone (not from puzzledsl's encoders), and the
solution they describe is compared with the solver's, and, for the janko.at genres, with the
published solution and the independent checker.

Real drawings: `data/penpa/penpa-edit-imports.jsonl` holds what penpa-edit itself draws when
it imports a puzz.link URL (its test snapshots, see the file's header); read as a Penpa+ URL,
each must give the givens of that puzz.link URL. noqx's penpa URLs (`data/penpa/noqx-urls.txt`)
are read in `test_penpa.py`.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from puzzledsl.cli import puzzle_url
from puzzledsl.compile import compile_file, compile_givens, load_rules
from puzzledsl.data import InlineData
from puzzledsl.errors import DataError, Span
from puzzledsl.importers import penpa
from puzzledsl.importers.penpa_genres import GENRES
from puzzledsl.solve import Mode, solve
from tests.datasets import requires_data
from tests.genre_specs import GENRES as JANKO
from tests.genre_specs import by_size, published, spread

ROOT = Path(__file__).resolve().parents[1]
PUZZLES = ROOT / "puzzles"
DATA = Path(__file__).parent / "data" / "penpa"
SNAPSHOTS = [json.loads(line) for line in (DATA / "penpa-edit-imports.jsonl").read_text().splitlines()
             if line and line[0] != "#"]
NOQX = {row[0]: row[3] for row in (line.split() for line in (DATA / "noqx-urls.txt").read_text().splitlines()
                                   if line and line[0] != "#")}


def _compiled(rules: str, url: str):
    return compile_file(PUZZLES / f"{rules}.puz", InlineData(url))


def _plain(compiled) -> dict:
    """The givens; regions renumbered in reading order (their names are not the puzzle)."""
    out = {k: getattr(v, "cells", v) for k, v in compiled.givens.items()}
    if "region" in out:
        names: dict = {None: None}
        out["region"] = {p: names.setdefault(v, len(names)) for p, v in sorted(out["region"].items())}
    return out


def _snapshot_url(entry: dict) -> str:
    """The Penpa+ URL of a penpa-edit snapshot: its own drawing, in the text penpa-edit loads."""
    nx0, ny0 = entry["grid_size"]
    top, bottom, left, right = entry["space"]
    drawing = penpa.Drawing(ny0 - 4 - top - bottom, nx0 - 4 - left - right, space=tuple(entry["space"]),
                            grid=tuple(entry["grid"]))
    drawing.q.update(entry["q"])
    return penpa.write_url(drawing, "", entry["tags"])


# ----------------------------------------------------------------- penpa-edit's own drawings


@pytest.mark.parametrize("entry", SNAPSHOTS, ids=[e["name"] for e in SNAPSHOTS])
def test_penpa_edit_drawing_reads_as_its_puzzlink_url(entry: dict) -> None:
    url = _snapshot_url(entry)
    try:
        first = _compiled(entry["rules"], entry["puzzlink"])
    except DataError as error:
        if "variant" in str(error) or "unexpected" in str(error):
            pytest.skip(f"puzz.link's URL is refused for what penpa-edit does not draw: {error}")
        with pytest.raises(DataError, match="cannot state"):  # a `?` clue, a non-square grid: both refuse
            _compiled(entry["rules"], url)
        return
    assert penpa.genre_rules(url) == entry["rules"]  # the tag penpa-edit sets names the genre
    assert _plain(_compiled(entry["rules"], url)) == _plain(first)


def _layers(url: str) -> dict[str, set]:
    """What a drawing places where: numbers and symbols by point and value, shaded points,
    thick sides inside the grid. (A galaxy's dot is black or white as pzprjs shades it: the
    same to the rules.)"""
    board = penpa.parse_url(url, "u")
    numbers = {(k, v[0]) for k, v in board.layer("number").items() if str(v[0]).strip()}
    symbols = {(k, v[1], None if v[1] == "circle_SS" else v[0]) for k, v in board.layer("symbol").items()}
    sides = {k for k, style in board.layer("lineE").items() if style == 2}
    inner = {board.edge_key(*sorted(pair)) for pair in board.borders() if all(board.inside(c) for c in pair)}
    return {"number": numbers, "symbol": symbols, "surface": set(board.layer("surface")), "lineE": sides & inner}


@pytest.mark.parametrize("entry", [e for e in SNAPSHOTS if e["rules"] in ("nonogram", "hashi", "galaxies", "masyu",
                                                                         "slitherlink", "shikaku", "simple-loop")],
                         ids=lambda e: e["name"])
def test_our_drawing_is_penpa_edits(entry: dict) -> None:
    """The URL written for a puzz.link puzzle places its clues where penpa-edit's import does."""
    try:
        first = _compiled(entry["rules"], entry["puzzlink"])
    except DataError:
        pytest.skip("puzz.link's URL is refused")
    assert _layers(puzzle_url(first, "penpa")) == _layers(_snapshot_url(entry))


# ----------------------------------------------------------------- reading a written answer back


def _answer(url: str) -> tuple[penpa.Board, dict, list[list[str]]]:
    params = dict(part.split("=", 1) for part in url.split("#", 1)[1].split("&"))
    lines = penpa.expand(penpa.inflate(params["p"], Span("u", 1, 1))).split("\n")
    return penpa.parse_url(url, "u"), json.loads(lines[7]), json.loads(penpa.inflate(params["a"], Span("u", 1, 1)))


class Solved:
    """A solved grid as decoded from an answer: `.cells` as puzzledsl's grids (1-based keys)."""

    def __init__(self, cells: dict) -> None:
        self.cells = cells


def _grid(board: penpa.Board, value) -> Solved:
    return Solved({(r + 1, c + 1): value((r, c)) for r in range(board.rows) for c in range(board.cols)})


def _pair(board: penpa.Board, entry: str) -> tuple[tuple, tuple, int]:
    a, b, n = entry.split(",")
    return board.point(a), board.point(b), int(n)  # type: ignore[return-value]


def _marks(board: penpa.Board, entries: list[str], letter: str) -> dict[tuple[int, int], int]:
    out = {}
    for entry in entries:
        key, code = entry.split(",")
        assert code.endswith(letter), entry
        out[board.cell(key)] = int(code[: -len(letter)])
    return out


def _links(board: penpa.Board, lines: list[str]) -> Solved:
    cells: dict = {}
    for (ka, a), (kb, b), n in map(lambda e: _pair(board, e), lines):
        assert ka == kb == 0 and n == 1 and abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1
        cells[(a[0] + 1, a[1] + 1, b[0] + 1, b[1] + 1)] = cells[(b[0] + 1, b[1] + 1, a[0] + 1, a[1] + 1)] = True
    return Solved(cells)


def _corners(board: penpa.Board, edges: list[str]) -> Solved:
    """A loop along sides: corner (i, j) (0..R, 0..C) is the bottom-right corner of cell (i, j) 1-based."""
    cells: dict = {}
    for (ka, a), (kb, b), _ in map(lambda e: _pair(board, e), edges):
        assert ka == kb == 1
        p, q = (a[0] + 1, a[1] + 1), (b[0] + 1, b[1] + 1)
        cells[p + q] = cells[q + p] = True
    return Solved(cells)


def _regions(board: penpa.Board, edges: list[str]) -> Solved:
    """Regions as the cells joined without a side between them, numbered by first cell."""
    walls = set()
    for (_, a), (_, b), _ in map(lambda e: _pair(board, e), edges):
        (r1, c1), (r2, c2) = sorted((a, b))
        walls.add(frozenset({(r2, c1), (r2, c1 + 1)}) if c1 == c2 else frozenset({(r1, c2), (r1 + 1, c2)}))
    owner: dict = {}
    for start in ((r, c) for r in range(board.rows) for c in range(board.cols)):
        if start in owner:
            continue
        owner[start], todo = len(set(owner.values())) + 1, [start]
        while todo:
            r, c = todo.pop()
            for nxt in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if board.inside(nxt) and nxt not in owner and frozenset({(r, c), nxt}) not in walls:
                    owner[nxt] = owner[start]
                    todo.append(nxt)
    return _grid(board, owner.get)


def _given_numbers(board: penpa.Board) -> dict:
    return {cell: v for cell, v in board.numbers().items() if board.inside(cell)}


TRI = {1: 1, 2: 3, 3: 4, 4: 2}  # penpa's `tri` style (nw, sw, se, ne) -> shakashaka.puz's (1 nw, 2 ne, 3 sw, 4 se)
PIECE = {1, 2, 3, 4, 5, 6}  # penpa's ship pieces
SHADED = {"nurikabe": "black", "hitori": "black", "kuromasu": "black", "norinori": "black", "lits": "shaded",
          "kakurasu": "black", "nonogram": "black"}


def decode(rules: str, url: str) -> tuple[str, dict[str, Solved]]:
    """The answer check a solve-mode URL sets, and the solution its answer lists describe."""
    board, settings, answer = _answer(url)
    (check,) = [name[4:] for name, on in settings.items() if on]
    used = {i for i, part in enumerate(answer) if part}
    assert all(part == sorted(part) for part in answer)  # as JavaScript's sort leaves them
    assert used <= {{"surface": 0, "loopline": 1, "loopedge": 2, "number": 4}.get(check, 5)}
    surface, line, edge, _, digits, symbol = answer
    if rules in SHADED:
        shaded = {board.cell(k) for k in surface}
        return check, {SHADED[rules]: _grid(board, lambda c: c in shaded)}
    if rules in ("masyu", "simple-loop", "arukone"):
        return check, {"link": _links(board, line)}
    if rules == "slitherlink":
        return check, {"line": _corners(board, edge)}
    if rules in ("galaxies", "tatamibari", "shikaku"):
        return check, {"owner": _regions(board, edge)}
    if rules == "hashi":
        across, down = {}, {}
        for (_, a), (_, b), n in map(lambda e: _pair(board, e), line):
            (r, c), (r2, c2) = sorted((a, b))
            (across if r == r2 else down)[(r + 1, c + 1)] = n
        return check, {"across": _grid(board, lambda p: across.get((p[0] + 1, p[1] + 1), 0)),
                       "down": _grid(board, lambda p: down.get((p[0] + 1, p[1] + 1), 0))}
    if rules in ("sudoku", "skyscraper"):
        values = _given_numbers(board) | {board.cell(e.split(",")[0]): int(e.split(",")[1]) for e in digits}
        return check, {"x" if rules == "sudoku" else "height": _grid(board, values.get)}
    letter, name = {"akari": ("H", "light"), "tent": ("F", "tent"), "star-battle": ("E", "star"),
                    "magnetic": ("G", "pole"), "shakashaka": ("B", "triangle"), "battleship": ("D", "ship"),
                    "battleship-fleetless": ("D", "ship")}[rules]
    marks = _marks(board, symbol, letter)
    if rules == "magnetic":
        given = {cell: style for cell, (_, style) in board.symbols().items() if board.inside(cell)}
        return check, {name: _grid(board, lambda c: {2: 1, 3: -1}.get(marks.get(c, given.get(c)), 0))}
    if rules == "shakashaka":
        return check, {name: _grid(board, lambda c: TRI[marks[c]] if c in marks else 0)}
    if rules.startswith("battleship"):
        given = {cell for cell, (_, style) in board.symbols().items() if style in PIECE}
        assert set(marks.values()) <= PIECE and not given & set(marks)
        return check, {name: _grid(board, lambda c: c in marks or c in given)}
    return check, {name: _grid(board, lambda c: c in marks)}


def _same(rules: str, mine: Solved, solver) -> bool:
    """The decoded answer against the solver's variable (regions as partitions, lines as sets)."""
    if rules == "shikaku":
        return True  # compared through its rectangles in the caller
    theirs = solver.cells
    if all(isinstance(k, tuple) and len(k) == 4 for k in theirs):  # lines: the joined pairs
        return {k for k, v in theirs.items() if v} == {k for k, v in mine.cells.items() if v}
    if rules in ("galaxies", "tatamibari"):
        def parts(cells: dict) -> set:
            return {frozenset(p for p, o in cells.items() if o == v) for v in set(cells.values())}
        return parts(theirs) == parts(mine.cells)
    return theirs == mine.cells


def _instance(rules: str) -> str | Path:
    """A real puzzle of each genre: noqx's penpa URL, else a puzz.link URL penpa-edit imports
    (its snapshots), else pzprjs's example, else a bundled instance."""
    from tests.test_puzzlink import PZPRJS_EXAMPLES

    if rules == "magnetic":
        return NOQX[rules]
    urls = [e["puzzlink"] for e in SNAPSHOTS if e["rules"] == rules]
    urls += [f"https://puzz.link/p?{q}" for r, q in PZPRJS_EXAMPLES if r == rules]
    for url in urls:
        try:
            if solve(_compiled(rules, url), mode=Mode(unique=True)).unique:
                return url
        except DataError:
            continue
    folder = PUZZLES / ("battleship" if rules.startswith("battleship") else rules)
    return next(p for p in sorted(folder.glob("*.puz")) if ("fleetless" in p.name) == rules.endswith("fleetless"))


@pytest.mark.parametrize("rules", sorted(GENRES))
def test_answer_url_carries_the_solution(rules: str) -> None:
    source = _instance(rules)
    compiled = compile_file(source) if isinstance(source, Path) else _compiled(rules, source)
    solution = solve(compiled).solutions[0]
    written = puzzle_url(compiled, "penpa", solution)
    assert written.startswith(penpa.SITE + "#m=solve&p=") and "&a=" in written
    check, decoded = decode(rules, written)
    assert check == GENRES[rules].answer(solution, GENRES[rules].encode(compiled.givens))[1][0]
    for name, mine in decoded.items():
        assert _same(rules, mine, solution[name if name != "owner" or rules != "shikaku" else "take"]), name
    if rules == "shikaku":  # each rectangle taken is one region of the decoded answer
        taken = [k for (k,), v in solution["take"].cells.items() if v]
        for _, (top, left, h, w) in taken:
            region = {decoded["owner"].cells[(r, c)] for r in range(top, top + h) for c in range(left, left + w)}
            assert len(region) == 1
        assert len({v for v in decoded["owner"].cells.values()}) == len(taken)


def test_slitherlink_answer_counts_the_border() -> None:
    """penpa leaves sides on a thick frame out of the answer: a slitherlink URL draws no frame,
    so the loop's sides along the border are in the answer as the solver draws them."""
    url = next(e["puzzlink"] for e in SNAPSHOTS if e["rules"] == "slitherlink")
    compiled = _compiled("slitherlink", url)
    written = puzzle_url(compiled, "penpa", solve(compiled).solutions[0])
    board, _, answer = _answer(written)
    text = penpa.expand(penpa.inflate(written.split("p=", 1)[1].split("&")[0], Span("u", 1, 1)))
    assert json.loads(text.split("\n")[2].split("~")[0]) == ["3", "1", "2"]  # no grid lines, dots, no frame
    border = [e for e in answer[2] if any(c[0] in (-1, board.rows - 1) or c[1] in (-1, board.cols - 1)
                                          for _, c in (board.point(k) for k in e.split(",")[:2]))]
    assert border


# ----------------------------------------------------------------- janko.at puzzles through Penpa+

THROUGH = sorted(k for k, g in JANKO.items() if g.rules in GENRES)
CAP = {"galaxies": 10 * 10, "tatamibari": 10 * 10, "hashi": 12 * 12, "nonogram": 15 * 15, "masyu": 12 * 12,
       "lits": 12 * 12, "norinori": 12 * 12, "nurikabe": 7 * 7, "kuromasu": 12 * 12, "akari": 12 * 12,
       "shakashaka": 10 * 10}


@requires_data
@pytest.mark.parametrize("key", THROUGH)
def test_janko_puzzle_through_penpa_matches_the_published_solution(key: str) -> None:
    """janko givens -> Penpa+ URL -> givens again (the same) -> solved uniquely -> answer URL ->
    decoded answer = the published solution, passing the independent checker."""
    genre = JANKO[key]
    rules = load_rules(genre.rules_path)
    fits = [x for x in by_size(genre) if x[2].get("solution") and x[1]["R"] * x[1]["C"] <= CAP.get(key, 15 * 15)
            and x[1].get("H", x[1]["C"]) == x[1]["C"] and not x[1].get("diagonals")]  # no Penpa+ drawing states these
    for iid, givens, entry in spread(fits, 2):
        first = compile_givens(rules, givens)
        url = puzzle_url(first, "penpa")
        again = _compiled(genre.rules, url)
        assert _plain(again) == _plain(first), iid
        out = solve(again, mode=Mode(unique=True), time_limit=120)
        assert out.status == "sat" and out.unique is True, iid
        _, decoded = decode(genre.rules, puzzle_url(again, "penpa", out.solutions[0]))
        tokens = genre.tokens(decoded, entry["problem"])
        assert genre.check(entry["problem"], tokens) == [], iid
        assert tokens == published(genre, entry["solution"]), iid


@requires_data
def test_janko_battleships_through_penpa() -> None:
    """The fleet goes into the rules text (`Fleet: 1x5, 2x4, …`) and comes back."""
    from puzzledsl.importers import load_with
    from tests.checkers import read_janko_battleship_solution
    from tests.datasets import battleship_entries

    entries = sorted((e for e in battleship_entries() if e[2]), key=lambda e: (len(e[1]), e[0]))[:2]
    rules = load_rules(PUZZLES / "battleship.puz")
    for key, problem, solution in entries:
        first = compile_givens(rules, load_with("janko_battleship", problem, key)[0][1])
        url = puzzle_url(first, "penpa")
        assert "Fleet: " in penpa.parse_url(url, "u").rules
        again = _compiled(penpa.genre_rules(url), url)
        assert _plain(again) == _plain(first)
        out = solve(again, mode=Mode(unique=True))
        assert out.unique is True
        _, decoded = decode("battleship", puzzle_url(again, "penpa", out.solutions[0]))
        ship = decoded["ship"].cells
        grid = read_janko_battleship_solution(solution)
        assert [[ship[(r + 1, c + 1)] for c in range(len(row))] for r, row in enumerate(grid)] == grid


# ----------------------------------------------------------------- the new genres' edges


def _with_rules(url: str, rules_text: str) -> str:
    """A Penpa+ URL with its rules text (header field 19) replaced: how an author states a fleet."""
    params = url.split("p=", 1)[1].split("&")[0]
    lines = penpa.expand(penpa.inflate(params, Span("u", 1, 1))).split("\n")
    header = lines[0].split(",")
    header[18] = rules_text.replace(",", "%2C")
    lines[0] = ",".join(header)
    return f"{penpa.SITE}#m=edit&p={penpa.deflate(penpa.compress(chr(10).join(lines)))}"


def test_noqx_battleship_with_its_fleet_stated() -> None:
    """noqx's battleship keeps its fleet in a `config` ("ship4": 1×4, 2×3, 3×2, 4×1): stated in
    the rules text, the drawing is a unique Battleship; without it, a fleet-less one."""
    url = NOQX["battleship"]
    fleetless = compile_file(PUZZLES / "battleship-fleetless.puz", InlineData(url))
    assert fleetless.givens["rowsum"].cells[(1,)] is None  # a `?` count says nothing
    assert fleetless.givens["colsum"].cells[(2,)] == 1 and solve(fleetless).status == "sat"
    stated = _with_rules(url, "Fleet: 1x4, 2x3, 3x2, 4x1")
    compiled = _compiled("battleship", stated)
    assert [compiled.givens["fleet"].cells[(k,)] for k in range(1, 5)] == [4, 3, 2, 1]
    assert solve(compiled, mode=Mode(unique=True)).unique is True


@pytest.mark.parametrize(("rules", "url_text", "message"), [
    ("galaxies", "dot on the frame", "on its frame"),
    ("tatamibari", "a star", "`star` symbol"),
    ("magnetic", "a three-cell region", "more than two cells"),
    ("nonogram", "a clue at the right", "right margin"),
])
def test_new_genres_refuse_what_they_cannot_state(rules: str, url_text: str, message: str) -> None:
    drawing = penpa.Drawing(4, 4, space=(1, 1, 1, 1))
    if rules == "galaxies":
        drawing.symbol((0, 3), "circle_SS", 1, kind=3)  # the right side of the last column: the frame
    elif rules == "tatamibari":
        drawing.symbol((1, 1), "star", 1)
    elif rules == "magnetic":
        drawing.border((0, 0), (1, 0))
        drawing.border((0, 1), (1, 1))
        drawing.border((0, 2), (1, 2))
        drawing.border((0, 2), (0, 3))
    else:
        drawing.number((0, 4), 3)
    url = penpa.write_url(drawing, "", [])
    with pytest.raises(DataError, match=re.escape(message)):
        _compiled(rules, url)
