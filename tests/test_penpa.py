"""Penpa+ URLs (issue 11): read real penpa-edit URLs of 13 genres and solve them uniquely, write
every bundled instance's URL and read it back, write solutions for penpa's answer check, and
give located input errors (exit 2, no traceback) for what is not read.

The real URLs are the `examples` of T0nyX1ang/noqx's solvers (`data/penpa/noqx-urls.txt`, whose
header says where from): puzzles drawn in penpa-edit, without genre tags or titles, so each is
read for the rule file named with it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import puzzledsl
from puzzledsl.cli import main, puzzle_url
from puzzledsl.compile import compile_file
from puzzledsl.data import InlineData, data_source
from puzzledsl.errors import DataError, Span
from puzzledsl.importers import penpa
from puzzledsl.importers import puzzlink as PL
from puzzledsl.importers.penpa_genres import GENRES, genre_of
from puzzledsl.solve import Mode, solve
from tests.checkers import check_kakurasu

ROOT = Path(__file__).resolve().parents[1]
PUZZLES = ROOT / "puzzles"
LIST = Path(__file__).parent / "data" / "penpa" / "noqx-urls.txt"
ROWS = [line.split() for line in LIST.read_text().splitlines() if line and line[0] != "#"]
REAL = [(rules, url) for rules, _, outcome, url in ROWS if outcome == "unique"]
REFUSED = [(rules, outcome.split(":", 1)[1].replace("_", " "), url) for rules, _, outcome, url in ROWS
           if outcome.startswith("error:")]


def _compiled(rules: str, url: str):
    return compile_file(PUZZLES / f"{rules}.puz", InlineData(url))


def _plain(compiled) -> dict:
    return {k: getattr(v, "cells", v) for k, v in compiled.givens.items()}


@pytest.mark.parametrize(("rules", "url"), REAL, ids=[r for r, _ in REAL])
def test_real_url_solves_uniquely_and_round_trips(rules: str, url: str) -> None:
    first = _compiled(rules, url)
    result = solve(first, mode=Mode(unique=True))
    assert result.status == "sat" and result.unique is True
    written = puzzle_url(first, "penpa")
    again = _compiled(rules, written)  # it names its genre now: the same givens, the same URL
    assert _plain(again) == _plain(first) and puzzle_url(again, "penpa") == written
    assert penpa.genre_rules(written) == rules


def test_at_least_five_real_genres() -> None:
    assert len({r for r, _ in REAL}) >= 13


@pytest.mark.parametrize(("rules", "message", "url"), REFUSED, ids=[f"{r}-{m[:12]}" for r, m, _ in REFUSED])
def test_real_urls_the_rules_cannot_state_are_refused(capsys: pytest.CaptureFixture[str], rules: str,
                                                       message: str, url: str) -> None:
    rc = main(["solve", rules, "--data", url, "--no-color"])
    err = capsys.readouterr().err
    assert rc == 2 and message in err and "Traceback" not in err, err
    assert f"{url}:1:51: error" in err  # at the `p=` part


def test_kakurasu_solution_passes_the_independent_checker() -> None:
    rules, url = next(row for row in REAL if row[0] == "kakurasu")
    compiled = _compiled(rules, url)
    result = solve(compiled)
    black = result.solutions[0]["black"]
    (rows, cols) = (len(compiled.givens["rowsum"].cells), len(compiled.givens["colsum"].cells))
    grid = [[black.cells[(r, c)] for c in range(1, cols + 1)] for r in range(1, rows + 1)]
    rowsum = [compiled.givens["rowsum"].cells[(r,)] for r in range(1, rows + 1)]
    colsum = [compiled.givens["colsum"].cells[(c,)] for c in range(1, cols + 1)]
    assert check_kakurasu(rowsum, colsum, grid) == []


def _star_battle_errors(region: list[list[str]], stars: set[tuple[int, int]], s: int) -> list[str]:
    """Star Battle's rules, written from the rule text: s stars per row, column and region, none touching."""
    n = len(region)
    errors = [f"row {r}" for r in range(n) if sum((r, c) in stars for c in range(n)) != s]
    errors += [f"column {c}" for c in range(n) if sum((r, c) in stars for r in range(n)) != s]
    for name in {v for row in region for v in row}:
        if sum(region[r][c] == name for r, c in stars) != s:
            errors.append(f"region {name}")
    errors += [f"touch at {p}" for p in stars for q in stars if p < q and max(abs(p[0] - q[0]), abs(p[1] - q[1])) == 1]
    return errors


def test_answer_url_carries_the_solution_penpa_checks() -> None:
    """`--url penpa-answer`: solve mode, the answer check on stars, the solver's stars in `a=`."""
    rules, url = next(row for row in REAL if row[0] == "star-battle")
    compiled = _compiled(rules, url)
    solution = solve(compiled).solutions[0]
    written = puzzle_url(compiled, "penpa", solution)
    assert written.startswith(penpa.SITE + "#m=solve&p=")
    params = dict(part.split("=", 1) for part in written.split("#", 1)[1].split("&"))
    lines = penpa.expand(penpa.inflate(params["p"], Span("u", 1, 1))).split("\n")
    assert json.loads(lines[7]) == {"sol_star": True} and json.loads(lines[17]) == ["starbattle"]
    answer = json.loads(penpa.inflate(params["a"], Span("u", 1, 1)))
    board = penpa.parse_url(written, "u")
    stars = {board.cell(mark.split(",")[0]) for mark in answer[5]}
    assert all(mark.endswith(",1E") for mark in answer[5]) and answer[:5] == [[]] * 5
    region = [[compiled.givens["region"].cells[(r, c)].name for c in range(1, 11)] for r in range(1, 11)]
    assert _star_battle_errors(region, stars, compiled.givens["S"]) == []  # type: ignore[arg-type]


# ----------------------------------------------------------------- writing, for every bundled instance


def _bundled_instances() -> list[Path]:
    return [p for p in sorted(PUZZLES.glob("*/*.puz")) if p.parent.name in GENRES]


@pytest.mark.parametrize("path", _bundled_instances(), ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_bundled_instance_round_trip(path: Path) -> None:
    """A bundled instance's Penpa+ URL reads back, genre and all, to the same givens."""
    first = compile_file(path)
    if path.parent.name == "arukone" and (first.givens.get("fill") or first.givens.get("touchfree")):
        pytest.skip("a Penpa+ drawing cannot say fill or touchfree")
    url = puzzle_url(first, "penpa")
    again = compile_file(PUZZLES / f"{penpa.genre_rules(url)}.puz", InlineData(url))
    for name, grid in first.givens.items():
        if path.parent.name == "star-battle" and name == "region":  # named r1, r2, … by reading order
            continue
        assert getattr(again.givens[name], "cells", again.givens[name]) == getattr(grid, "cells", grid), name


def test_every_penpa_genre_reads_a_real_url_or_a_bundled_instance() -> None:
    covered = {p.parent.name for p in _bundled_instances()} | {r for r, _ in REAL} | {r for r, _, _ in REFUSED}
    assert set(GENRES) <= covered | {g for g, genre in GENRES.items() if genre.variant_of in covered}


# ----------------------------------------------------------------- the genre, from tags or title


def test_a_url_alone_is_solved_with_the_rules_its_tags_name(capsys: pytest.CaptureFixture[str]) -> None:
    written = puzzle_url(_compiled(*next(row for row in REAL if row[0] == "sudoku")), "penpa")
    assert main(["solve", written, "--unique", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["unique"] is True
    assert puzzledsl.load(PUZZLES / "sudoku.puz", written).unique()


def test_a_url_without_genre_needs_the_rules(capsys: pytest.CaptureFixture[str]) -> None:
    url = REAL[0][1]
    assert main(["solve", url, "--no-color"]) == 2
    err = capsys.readouterr().err
    assert "does not say which genre" in err and "puzzledsl solve RULES --data URL" in err
    assert "Traceback" not in err


def test_genre_from_title() -> None:
    board = penpa.parse_url(REAL[0][1], "u")
    for title, rules in (("Star Battle (2 stars)", "star-battle"), ("LITS", "lits"), ("Sudoku - easy", "sudoku"),
                         ("Thermo Sudoku", None), ("", None), ("Star Battle - 2 stars", "star-battle"),
                         ("Nurikabe: #12", "nurikabe"), ("Masyu – 10x10, very hard", "masyu"),
                         ("Slitherlink - by Someone", "slitherlink"), ("Tapa - Islands", None),
                         ("Tapa – Islands", None), ("Tapa: Islands", None), ("Sudoku - Thermo", None),
                         ("Tapa-Like Loop", None), ("Nurikabe (Double Choco)", None)):
        board.title = title
        assert genre_of(board) == rules, title
    board.tags = ["classic", "thermo"]  # a variant: the rules must be named
    assert genre_of(board) is None


def test_a_variant_named_after_a_dash_needs_the_rules(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 11: a URL titled "Tapa - Islands" (no genre tags) is a Tapa variant, not plain Tapa:
    alone it is refused as naming no genre; "Tapa - easy" still reads as Tapa."""
    from puzzledsl.importers.penpa_genres import GENRES
    from puzzledsl.importers.penpa_write import write_url

    compiled = compile_file(PUZZLES / "tapa" / "pzprjs-5x5.puz")
    drawing = GENRES["tapa"].encode(compiled.givens)
    variant, plain = (write_url(drawing, title, ()) for title in ("Tapa - Islands", "Tapa - easy"))
    assert main(["solve", variant, "--no-color"]) == 2
    assert "does not say which genre" in capsys.readouterr().err
    assert penpa.genre_rules(plain) == "tapa"


def test_own_rules_and_a_tagged_url(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A URL that names its genre is for that rule file; `--format penpa` reads it for a copy."""
    written = puzzle_url(_compiled(*next(row for row in REAL if row[0] == "akari")), "penpa")
    rules = tmp_path / "lamps.puz"
    rules.write_text((PUZZLES / "akari.puz").read_text())
    assert main(["solve", str(rules), "--data", written]) == 2
    assert "--format penpa" in capsys.readouterr().err
    assert main(["solve", str(rules), "--data", written, "--format", "penpa", "--unique"]) == 0


# ----------------------------------------------------------------- the command line and errors


def test_url_choices(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "sudoku", "--data", "sudoku/4/4/g1k23k3g", "--url"]) == 0
    assert capsys.readouterr().out.strip() == "https://puzz.link/p?sudoku/4/4/g1k23k3g"
    assert main(["solve", "sudoku", "--data", "sudoku/4/4/g1k23k3g", "--url", "penpa"]) == 0
    written = capsys.readouterr().out.strip()
    assert written.startswith(penpa.SITE + "#m=edit&p=")
    assert PL.url_of("sudoku", _compiled("sudoku", written).givens) == "https://puzz.link/p?sudoku/4/4/g1k23k3g"
    assert main(["solve", "sudoku", "--data", "sudoku/4/4/g1k23k3g", "--url", "penpa-answer"]) == 0
    assert "&a=" in capsys.readouterr().out
    assert main(["solve", "masyu", "--data", "mashu/6/6/1063000i3000", "--url", "penpa-answer"]) == 0
    assert "#m=solve&p=" in capsys.readouterr().out
    assert main(["solve", str(PUZZLES / "fillomino" / "001_5x5.puz"), "--url", "penpa"]) == 2
    assert "no Penpa+ genre" in capsys.readouterr().err


def test_answer_url_of_a_puzzle_with_several_solutions_warns(capsys: pytest.CaptureFixture[str]) -> None:
    """`--url penpa-answer` wrote one of several solutions silently (a friction log): the answer
    check would reject the others, so a warning says so; the URL is still written, exit 0 (as
    `--unique` exits when not unique)."""
    assert main(["solve", "sudoku", "--data", "sudoku/4/4/v", "--url", "penpa-answer"]) == 0  # an empty board
    out, err = capsys.readouterr()
    assert "#m=solve&p=" in out and "&a=" in out
    assert "warning: the puzzle has more than one solution" in err and "rejects the others" in err
    assert main(["solve", "sudoku", "--data", "sudoku/4/4/g1k23k3g", "--url", "penpa-answer"]) == 0  # unique
    assert "warning" not in capsys.readouterr().err


def test_bare_url_flag_before_the_file(capsys: pytest.CaptureFixture[str]) -> None:
    """`--url FILE`: the site is optional, so FILE must not be taken for it."""
    instance = str(PUZZLES / "kakurasu" / "seed-5x5.puz")
    assert main(["solve", "--url", instance]) == 0
    assert capsys.readouterr().out.startswith("https://puzz.link/p?box/")
    assert main(["solve", "--url", "penpa", instance]) == 0
    assert capsys.readouterr().out.startswith(penpa.SITE)


def _payload(text: str) -> str:
    return f"{penpa.SITE}#m=edit&p={penpa.deflate(penpa.compress(text))}"


HEX = _payload("hex,5,5,38,0,1,1,0,0,0,0,0,0,0,0,Title: Sudoku\n[0,0,0,0]\n{}\n{}")
OLD = _payload("1,5,5\n[0,0,0,0]")
SHORT = REAL[0][1][:200]


@pytest.mark.parametrize(("url", "message"), [
    (f"{penpa.SITE}#m=edit&p=%%%not-base64!", "not base64"),
    (f"{penpa.SITE}#m=edit&p=AAAA", "does not inflate"),
    (SHORT, "does not inflate"),
    (HEX, "on a `hex` grid; only square grids are read"),
    (OLD, "an old Penpa URL"),
    (_payload("square,5,5,38\n[0,0,0,0]\n{}\nnot json"), "problem layers (line 4 of its text) does not read"),
    (f"{penpa.SITE}#m=edit&p=", "no puzzle after `p=`"),
])
def test_bad_urls_are_located_input_errors(capsys: pytest.CaptureFixture[str], url: str, message: str) -> None:
    rc = main(["solve", "sudoku", "--data", url, "--no-color"])
    err = capsys.readouterr().err
    assert rc == 2 and message in err and "Traceback" not in err, err
    assert main(["solve", url, "--no-color"]) == 2  # without rules: the same error, not a traceback
    assert "Traceback" not in capsys.readouterr().err


def test_urls_are_told_from_files_and_puzzlink() -> None:
    url = REAL[0][1]
    assert isinstance(data_source(url), InlineData) and penpa.is_url(url) and not PL.is_url(url)
    assert not penpa.is_url("https://puzz.link/p?sudoku/4/4/g1k23k3g") and not penpa.is_url("sudoku.txt")


def test_a_large_inflation_is_refused() -> None:
    bomb = penpa.deflate("x" * (penpa.MAX_TEXT + 10))
    with pytest.raises(DataError, match="inflates to more than"):
        penpa.inflate(bomb, Span("u", 1, 1))


def _pzprjs_examples() -> list[tuple[str, str]]:
    from tests.test_puzzlink import PZPRJS_EXAMPLES
    return [(rules, query) for rules, query in PZPRJS_EXAMPLES if rules in GENRES]


@pytest.mark.parametrize(("rules", "query"), _pzprjs_examples(), ids=[q.split("/")[0] for _, q in _pzprjs_examples()])
def test_puzzlink_examples_cross_to_penpa_and_back(rules: str, query: str) -> None:
    """pzprjs's own example of each genre, read from puzz.link, written to Penpa+ and read back: the same givens."""
    first = _compiled(rules, f"https://puzz.link/p?{query}")
    if first.givens.get("fill"):
        pytest.skip("puzz.link's Arukone fills the grid; a Penpa+ drawing cannot say so")
    url = puzzle_url(first, "penpa")
    again = _compiled(penpa.genre_rules(url), url)
    assert _plain(again) == _plain(first) or rules == "star-battle"
    assert puzzle_url(again) == puzzle_url(first)  # so the puzz.link URL too


def test_the_answer_layers_input_mode_is_typed_as_penpa_keeps_it() -> None:
    """Opened in penpa-edit (bench/penpa_edit_check.py), a shading genre's URL said its surface
    style as the text "1" where penpa keeps the number 1 (penpa's panel put it right on load):
    the URL now writes penpa's own value, as for the genres that set it themselves."""
    url = puzzle_url(compile_file(PUZZLES / "kakurasu" / "seed-5x5.puz"), "penpa")
    lines = penpa.expand(penpa.inflate(url.split("p=", 1)[1], Span("u", 1, 1))).split("\n")
    mode = json.loads(lines[2])
    assert mode["pu_a"]["edit_mode"] == "surface" and mode["pu_a"]["surface"] == ["", 1]
