"""puzz.link URLs (issue 11): read every genre's real example URL, solve it uniquely, and write
the same URL back; the cell codings are inverse on random grids; bad URLs are located errors.

The example URLs are pzprjs's own test puzzles: the `url` field of `test/script/<genre>.js` in
https://github.com/robx/pzprjs (commit 0401fc64), which pzprjs's `test/puzzle/encode_test.js`
checks its own encoder reproduces, so each is the canonical URL of its puzzle. More URLs, from
penpa-edit's list of puzz.link importer tests, are in `data/puzzlink/penpa-edit-urls.txt`
(its header says where from) with what reading each gives.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import puzzledsl
from puzzledsl.cli import main, puzzle_url
from puzzledsl.compile import compile_file
from puzzledsl.data import InlineData, data_source
from puzzledsl.importers import puzzlink_codec as K
from puzzledsl.importers.puzzlink import GENRES, is_url
from puzzledsl.solve import Mode, solve

ROOT = Path(__file__).resolve().parents[1]
PUZZLES = ROOT / "puzzles"

# (bundled rule file, URL query as pzprjs writes it) -- robx/pzprjs test/script/<genre>.js
PZPRJS_EXAMPLES = [
    ("arukone", "numlin/5/5/1j2h3m1h2j3"),
    ("arukone", "arukone/4/4/12l3123j"),
    ("akari", "akari/6/6/nekcakbl"),  # lightup.js; pzprjs writes the genre as `akari`
    ("nurikabe", "nurikabe/5/5/g5k2o1k3g"),
    ("hitori", "hitori/4/4/1114142333214213"),
    ("sudoku", "sudoku/4/4/g1k23k3g"),
    ("star-battle", "starbattle/6/6/1/4ilbhgdnmhou"),
    ("norinori", "norinori/5/5/cag4ocjo"),
    ("lits", "lits/4/4/9q02jg"),
    ("kakurasu", "box/5/5/7a9979672f"),
    ("skyscraper", "skyscrapers/4/4/k13h4j3g"),
    ("tent", "tents/5/5/2g0h1i1j82323"),
    ("slitherlink", "slither/5/5/cbcbcddad"),
    ("masyu", "mashu/6/6/1063000i3000"),
    ("kuromasu", "kurodoko/5/5/i7g5l2l2g4i"),
    ("hashi", "hashi/5/5/4g2i3h23k3g1g3g4g3"),  # hashikake.js
    ("nonogram", "nonogram/6/6/12g1111h11112j12g11g21j11g3h"),
    ("shakashaka", "shakashaka/6/6/cgbhdhegdrb"),
    ("tatamibari", "tatamibari/5/5/m3g11i2g31h13g3g"),
    ("simple-loop", "simpleloop/5/5/sg020"),
    ("magnetic", "magnets/5/5/g222j2h2g22g0g32fubmo3or00000000000400"),
    ("galaxies", "tentaisho/5/5/o3ey72fs2fl"),
    ("shikaku", "shikaku/6/6/j3g56h6t6h23g5j"),  # not pzprjs's (its has an empty cell): penpa-edit's list
    ("fillomino", "fillomino/6/6/h4j53g2k5233k2g14j3h"),
    ("tapa", "tapa/5/5/3n5hchhajn2"),
]
IDS = [q.split("/")[0] for _, q in PZPRJS_EXAMPLES]


PENPA_LIST = Path(__file__).parent / "data" / "puzzlink" / "penpa-edit-urls.txt"
PENPA_URLS = [tuple(line.split()) for line in PENPA_LIST.read_text().splitlines() if line and line[0] != "#"]


def _compiled(rules: str, url: str):
    return compile_file(PUZZLES / f"{rules}.puz", InlineData(url))


@pytest.mark.parametrize(("rules", "query"), PZPRJS_EXAMPLES, ids=IDS)
def test_real_url_round_trip(rules: str, query: str, capsys: pytest.CaptureFixture[str]) -> None:
    """decode -> givens -> encode gives back the URL pzprjs wrote, from each URL form (whole: no
    warning that it ends early)."""
    if rules == "galaxies":  # its black dots (odd codes) come back white: the rules have no colour
        query = "tentaisho/5/5/o2ey62es2el"
    for url in (f"https://puzz.link/p?{query}", f"http://pzv.jp/p.html?{query}", query):
        assert puzzle_url(_compiled(rules, url)) == f"https://puzz.link/p?{query}"
    assert "ends early" not in capsys.readouterr().err


def _plain(compiled) -> dict:
    return {k: getattr(v, "cells", v) for k, v in compiled.givens.items() if k != "region"}


@pytest.mark.parametrize(("outcome", "url"), PENPA_URLS, ids=[u.split("?")[1][:40] for _, u in PENPA_URLS])
def test_penpa_edit_list(outcome: str, url: str) -> None:
    """Each URL reads as recorded: back exactly, to a URL of the same givens, or to a located error."""
    from puzzledsl.errors import DataError
    from puzzledsl.importers.puzzlink import parse_url
    rules = GENRES[parse_url(url, "x").pid].rules if outcome != "error" else None
    if outcome == "error":
        with pytest.raises(DataError) as err:
            rules = GENRES[parse_url(url, "x").pid].rules
            _compiled(rules, url)
        span = err.value.span
        assert span is not None and span.line == 1 and 1 <= span.column <= len(url)
        return
    first = _compiled(rules, url)
    written = puzzle_url(first)
    if outcome == "exact":
        assert written.split("?", 1)[1] == url.split("?", 1)[1]
        return
    again = _compiled(rules, written)
    assert puzzle_url(again) == written and _plain(again) == _plain(first)


@pytest.mark.parametrize(("rules", "query"), PZPRJS_EXAMPLES, ids=IDS)
def test_real_url_solves_uniquely(rules: str, query: str) -> None:
    result = solve(_compiled(rules, f"https://puzz.link/p?{query}"), mode=Mode(unique=True))
    assert result.status == "sat" and result.unique is True


def test_every_genre_has_a_real_example() -> None:
    assert {q.split("/")[0] for _, q in PZPRJS_EXAMPLES} | {"lightup", "hashikake"} >= set(GENRES)


def test_pzprjs_tentaisho_example_is_refused() -> None:
    """pzprjs's Tentaisho example has a cell outside the grid, which galaxies.puz cannot state."""
    from puzzledsl.errors import DataError
    with pytest.raises(DataError, match="outside the grid"):
        _compiled("galaxies", "tentaisho/5/5/6fl94fi65en8dbf10000")


def test_arukone_flag_sets_fill() -> None:
    """puzz.link's Arukone fills the grid unless flagged `e`; Numberlink never does."""
    assert _compiled("arukone", "arukone/4/4/12l3123j").givens["fill"] is True
    assert _compiled("arukone", "arukone/e/4/4/12l3123j").givens["fill"] is False
    assert puzzle_url(_compiled("arukone", "arukone/e/4/4/12l3123j")) == "https://puzz.link/p?numlin/4/4/12l3123j"


def _bundled_instances() -> list[Path]:
    stems = {g.rules for g in GENRES.values()}
    return [p for p in sorted(PUZZLES.glob("*/*.puz")) if p.parent.name in stems]


@pytest.mark.parametrize("path", _bundled_instances(), ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_bundled_instance_round_trip(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A bundled instance's URL reads back to the same givens (so to the same URL), and is whole."""
    first = compile_file(path)
    url = puzzle_url(first)
    again = _compiled(path.parent.name, url)
    assert puzzle_url(again) == url and "ends early" not in capsys.readouterr().err
    if path.parent.name != "star-battle":  # region names differ (r1, r2, ...); the regions do not
        for name, grid in first.givens.items():
            assert getattr(again.givens[name], "cells", again.givens[name]) == getattr(grid, "cells", grid), name


def test_url_in_a_file_and_through_the_api(tmp_path: Path) -> None:
    f = tmp_path / "p.txt"
    f.write_text("https://puzz.link/p?lightup/6/6/nekcakbl\n")
    assert puzzle_url(compile_file(PUZZLES / "akari.puz", f)) == "https://puzz.link/p?akari/6/6/nekcakbl"
    assert puzzledsl.load(PUZZLES / "akari.puz", "http://pzv.jp/p.html?akari/6/6/nekcakbl").unique()


def test_own_rules_take_a_url_when_the_format_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A URL is for its bundled rule file; `--format puzzlink` reads it for a copy of those rules."""
    rules = tmp_path / "lamps.puz"
    rules.write_text((PUZZLES / "akari.puz").read_text())
    url = "https://puzz.link/p?akari/6/6/nekcakbl"
    assert main(["solve", str(rules), "--data", url]) == 2
    assert "for the rules akari.puz" in capsys.readouterr().err
    assert main(["solve", str(rules), "--data", url, "--format", "puzzlink", "--unique"]) == 0


def test_editor_prefix_and_aliases() -> None:
    url = "https://puzz.link/p?type=editor&hashikake_edit/5/5/4g2i3h23k3g1g3g4g3"
    assert puzzle_url(_compiled("hashi", url)) == "https://puzz.link/p?hashi/5/5/4g2i3h23k3g1g3g4g3"


def test_data_source_tells_urls_from_files(tmp_path: Path) -> None:
    assert isinstance(data_source("https://puzz.link/p?numlin/5/5/1j2h3m1h2j3"), InlineData)
    assert isinstance(data_source("numlin/5/5/1j2h3m1h2j3"), InlineData)
    assert isinstance(data_source("puzzles/akari/constructed-7x7.puz"), Path)
    assert isinstance(data_source("akari/6/6/missing.txt"), Path)
    assert not is_url("numlin.txt") and not is_url("5/5/1j2h3m1h2j3")


# ----------------------------------------------------------------- the codings are inverses


def _body(text: str, made: list[K.Body] | None = None) -> K.Body:
    body = K.Body(text, "<url>", 1)
    if made is not None:
        made.append(body)
    return body


@pytest.mark.parametrize("seed", range(20))
def test_codings_round_trip_random(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.randint(1, 60)
    made: list[K.Body] = []

    def cells(choices: list) -> list:
        return [rng.choice(choices) if rng.random() < 0.3 else None for _ in range(n)]

    nums = cells([0, 5, 15, 16, 255, 256, 4095, 5000, K.QUESTION])
    assert K.decode_number16(_body(K.encode_number16(nums), made), n) == nums
    c4 = cells([0, 1, 2, 3, 4, K.QUESTION])
    assert K.decode_cell4(_body(K.encode_cell4(c4), made), n) == c4
    bits = [rng.random() < 0.3 for _ in range(n)]
    assert K.decode_binary(_body(K.encode_binary(bits), made), n, "bits") == bits
    assert K.decode_marks(_body(K.encode_marks(bits), made), n) == bits
    circles = [rng.choice([0, 0, 1, 2]) for _ in range(n)]
    assert K.decode_circles(_body(K.encode_circles(circles), made), n) == circles
    hitori = [rng.randint(1, 40) for _ in range(n)]
    assert K.decode_hitori(_body(K.encode_hitori(hitori), made), n) == hitori
    box = [rng.randint(0, 60) for _ in range(n)]
    assert K.decode_base32_list(_body(K.encode_base32_list(box), made), n, "clue") == box
    rows, cols = rng.randint(1, 7), rng.randint(1, 7)
    grid = [[rng.randint(1, 3) for _ in range(cols)] for _ in range(rows)]
    right, below = K.borders_of(grid)
    assert K.decode_borders(_body(K.encode_borders(right, below), made), cols, rows) == (right, below)
    assert [b.unread for b in made] == [{}] * len(made)  # what is written is whole: read without a warning


# ----------------------------------------------------------------- errors: located, exit 2


@pytest.mark.parametrize(("rules", "url", "message", "column"), [
    ("akari", "https://puzz.link/p?nosuchgenre/5/5/abc", "has no bundled rule file", 21),
    ("akari", "https://puzz.link/p?akari/x/6/nekcakbl", "expected the number of columns", 27),
    ("akari", "https://puzz.link/p?akari/6/6/nek!akbl", "unexpected '!'", 34),
    ("akari", "https://puzz.link/p?akari/6/6/nekcakblzz", "after the end of the puzzle", 39),
    ("akari", "https://puzz.link/p?numlin/5/5/1j2h3m1h2j3", "for the rules arukone.puz, not these", None),
    ("nurikabe", "https://puzz.link/p?nurikabe/5/5/g.k2o1k3g", "`?` clue", 34),
    ("akari", "https://puzz.link/p?pzprv3/lightup/6/6", "file URLs", 21),
    ("sudoku", "https://puzz.link/p?sudoku/4/5/g1k23k3g", "square", 21),
    ("lits", "https://puzz.link/p?lits/d/4/4/9q02jg", "variant flag", 21),
    ("masyu", "https://puzz.link/p?mashu/v:/6/6/1063000i3000", "rule variant", 27),
    ("sudoku", "https://puzz.link/p?sudoku/6/6/3h2g5n41j53n1g2h6", "n×n boxes", 21),
    ("sudoku", "https://swaroopg92.github.io/penpa-edit/#m=solve&p=1ZJRa7swEMDf", "does not inflate", 52),  # penpa.py
])
def test_bad_urls_are_located_input_errors(capsys: pytest.CaptureFixture[str], rules: str, url: str,
                                            message: str, column: int | None) -> None:
    rc = main(["solve", str(PUZZLES / f"{rules}.puz"), "--data", url])
    err = capsys.readouterr().err
    assert rc == 2 and message in err and "Traceback" not in err, err
    if column is not None:
        assert f"{url}:1:{column}: error" in err, err


def test_a_url_that_ends_early_is_read_with_a_warning(capsys: pytest.CaptureFixture[str]) -> None:
    """A URL cut short was read silently, the rest as empty (a friction log): it is still read so,
    as pzprjs reads it, but a warning says how many places were filled; once, whatever else runs."""
    whole, cut = "https://puzz.link/p?sudoku/4/4/g1k23k3g", "https://puzz.link/p?sudoku/4/4/g1k2"
    assert main(["solve", cut, "--unique", "--json"]) == 0  # 8 cells read, the last 8 empty
    out, err = capsys.readouterr()
    assert json.loads(out)["unique"] is False and "Traceback" not in err
    assert err.count("warning: the puzz.link URL ends early: the last 8 cells of the 4x4 board") == 1
    assert main(["solve", whole, "--json"]) == 0 and "warning" not in capsys.readouterr().err
    # region borders too: of the 24, all but the five of the one digit given
    assert main(["solve", "lits", "--data", "lits/4/4/9", "--json"]) in (0, 1)
    assert "the last 19 borders of the 4x4 board" in capsys.readouterr().err
    # an optional trailing part that is absent is no URL cut short (the grid after the side clues)
    assert main(["solve", "https://puzz.link/p?skyscrapers/4/4/k13h4j3g", "--json"]) == 0
    assert "warning" not in capsys.readouterr().err


def test_url_for_rules_without_a_genre(capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(["solve", str(PUZZLES / "battleship" / "csplib-113.puz"), "--url"])
    assert rc == 2 and "no puzz.link genre" in capsys.readouterr().err


def test_url_cli_prints_the_url(capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(["solve", "sudoku", "--data", "sudoku/4/4/g1k23k3g", "--url"])
    assert rc == 0 and capsys.readouterr().out.strip() == "https://puzz.link/p?sudoku/4/4/g1k23k3g"


def test_values_beyond_the_codes_are_input_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "k.txt"
    data.write_text("rowsum = [5000, 1]\ncolsum = [1, 1]\n")
    assert main(["solve", "kakurasu", "--data", str(data), "--url"]) == 2
    assert "cannot be written as a puzz.link URL" in capsys.readouterr().err


def test_a_url_alone_is_solved_with_its_genres_rules(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "https://puzz.link/p?shikaku/6/6/j3g56h6t6h23g5j", "--unique", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["unique"] is True
    assert main(["solve", "https://puzz.link/p?nosuchgenre/5/5/1j2h3", "--no-color"]) == 2
    assert "has no bundled rule file" in capsys.readouterr().err
    assert main(["solve", "https://puzz.link/p?numlin/5/5/1j2h3m1h2j3", "--data", "x.txt"]) == 2
    assert "leave out --data" in capsys.readouterr().err


def test_rules_of_ones_own_read_urls_when_their_format_line_says_so(tmp_path, capsys) -> None:
    """A copy of a genre's rules (a variant, say) reads that genre's URLs once its `format` line
    names `puzzlink`; without it the URL is refused, and the help says both ways."""
    url = "https://puzz.link/p?nurikabe/5/5/g5k2o1k3g"
    text = (ROOT / "puzzles" / "nurikabe.puz").read_text()
    plain = tmp_path / "my-nurikabe.puz"
    plain.write_text(text)
    assert main(["solve", str(plain), "--data", url]) == 2
    err = capsys.readouterr().err
    assert "`--format puzzlink`" in err and "`format` line" in err
    named = tmp_path / "my-nurikabe-urls.puz"
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("format "))
    lines[at] += ", puzzlink"
    named.write_text("\n".join(lines) + "\n")
    assert main(["solve", str(named), "--data", url, "--unique", "--json"]) == 0
    mine = json.loads(capsys.readouterr().out)
    assert main(["solve", "nurikabe", "--data", url, "--unique", "--json"]) == 0
    bundled = json.loads(capsys.readouterr().out)
    assert mine["unique"] and mine["solutions"] == bundled["solutions"]
