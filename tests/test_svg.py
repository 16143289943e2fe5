"""Pictures (`solve --svg FILE`, `Solution.svg()`): well-formed SVG drawn from the `show` line,
one cell per board cell, clues and lines where the terminal has them, and the cells of a second
solution that differ marked by a glyph (`*`) as well as by colour."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import puzzledsl
from puzzledsl.cli import main

ROOT = Path(__file__).resolve().parents[1]
NS = "{http://www.w3.org/2000/svg}"
ARUKONE = "5 5\n7 - - - 3\n9 1 3 - -\n- - - 7 -\n- - - - -\n9 - - - 1\n"


def _svg(path: Path) -> ET.Element:
    root = ET.parse(path).getroot()
    assert root.tag == f"{NS}svg"
    return root


def _texts(root: ET.Element) -> list[str]:
    return [t.text or "" for t in root.iter(f"{NS}text")]


def _cells(root: ET.Element) -> int:
    return sum(1 for r in root.iter(f"{NS}rect") if r.get("width") == r.get("height") == "32")


def test_kakurasu_picture_has_its_cells_and_clues(tmp_path, capsys):
    out = tmp_path / "k.svg"
    assert main(["solve", str(ROOT / "puzzles" / "kakurasu" / "seed-5x5.puz"), "--svg", str(out)]) == 0
    root = _svg(out)
    assert _cells(root) == 25
    texts = _texts(root)
    assert "Kakurasu" in texts and {"13", "11", "10"} <= set(texts)  # column and row sums beside the grid


def test_a_second_solution_is_drawn_with_its_differences_marked(tmp_path, capsys):
    out = tmp_path / "b.svg"
    rc = main(["solve", str(ROOT / "puzzles" / "battleship" / "seed-9x9-fleetless.puz"), "--unique", "--svg",
               str(out), "--json"])
    assert rc == 0
    sols = json.loads(capsys.readouterr().out)["solutions"]
    first, second = sols[0], sols[1]
    differing = sum(a != b for ra, rb in zip(first["piece"], second["piece"], strict=True)  # the view drawn
                    for a, b in zip(ra, rb, strict=True))
    root = _svg(out)
    assert _cells(root) == 2 * 81
    assert _texts(root).count("*") == differing > 0
    assert "a second solution (differences marked *)" in _texts(root)


def test_the_picture_is_as_wide_as_its_captions(tmp_path):
    """A 2x2 board is narrower than "a second solution (differences marked *)": the picture
    widens to the caption (it was cut off)."""
    rules = tmp_path / "r.puz"
    rules.write_text('title "Two by two"\nvar x[1..2, 1..2]: bool\nrule count(p in cells(x): x[p]) == 1\nshow x\n')
    out = tmp_path / "r.svg"
    assert main(["solve", str(rules), "--unique", "--svg", str(out)]) == 0
    root = _svg(out)
    assert "a second solution (differences marked *)" in _texts(root)
    assert int(root.get("width")) >= 9 * len("a second solution (differences marked *)")


def test_lines_are_drawn_through_the_cells(tmp_path):
    data = tmp_path / "a.txt"
    data.write_text(ARUKONE)
    sol = puzzledsl.load(ROOT / "puzzles" / "arukone.puz", data).solve()
    root = ET.fromstring(sol._repr_svg_())
    lines = list(root.iter(f"{NS}line"))
    assert len(lines) >= 2 * 10  # every line cell draws its half-segments
    assert {"7", "9", "1", "3"} <= set(_texts(root))


def test_svg_into_a_missing_folder_is_an_input_error(tmp_path, capsys):
    rc = main(["solve", str(ROOT / "puzzles" / "kakurasu" / "seed-5x5.puz"), "--svg", str(tmp_path / "no" / "k.svg")])
    assert rc == 2 and "cannot write the picture" in capsys.readouterr().err


def test_png_picture(tmp_path, capsys):
    from puzzledsl.extras import installed
    if not installed("cairosvg"):  # the package, or the cairo library behind it, is missing
        pytest.skip("cairosvg is not usable here")
    out = tmp_path / "k.png"
    assert main(["solve", str(ROOT / "puzzles" / "kakurasu" / "seed-5x5.puz"), "--png", str(out)]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


CREEK = '''given R: int
given C: int
given clue[CLUE]: int? in 0..4 legend { ".": ? } = """
TEXT"""
var black[1..R, 1..C]: bool outside false
rule forall (i, j) in cells(clue) where known(clue[i, j]):
  count(dr in 0..1, dc in 0..1: black[i + dr, j + dc]) == clue[i, j]
rule connected(p in cells(black): not black[p])
show black { true: "■", false: "·" } between clue SHOW
'''


def test_numbers_on_the_corners_of_the_cells(tmp_path, capsys):
    """`between G` with one row and one column more than the board draws G on the corners of
    the cells (two new users found no way to: a friction log); with one fewer each way, on the
    inner corners. The picture puts each in a disc on the grid's corner, inside the canvas."""
    f = tmp_path / "creek.puz"
    f.write_text(CREEK.replace("CLUE", "0..R, 0..C").replace("TEXT", ".0..\n..3.\n1...\n").replace("SHOW", ""))
    out = tmp_path / "c.svg"
    assert main(["solve", str(f), "--no-color", "--svg", str(out)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [x.rstrip() for x in lines[1:6]] == ["  0", " · · ■", "    3", " ■ ■ ■", "1"]
    root = _svg(out)
    discs = [c for c in root.iter(f"{NS}circle") if float(c.get("r", 0)) > 5]
    assert len(discs) == 3 and sorted(_texts(root)).count("3") == 1
    assert all(float(c.get("cx")) - float(c.get("r")) >= 0 for c in discs)  # the left edge's disc fits
    # the inner corners only: [1..R - 1, 1..C - 1], here one corner between four cells
    f.write_text(CREEK.replace("CLUE", "1..R - 1, 1..C - 1").replace('"""\nTEXT"""', '"3 ."').replace("SHOW", "")
                 .replace("given R: int\ngiven C: int\n", "given R: int = 2\ngiven C: int = 3\n"))
    assert main(["solve", str(f), "--no-color"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [x.rstrip() for x in lines[1:4]][1] == " 3"  # in the column between the first two cells
    f.write_text(CREEK.replace("CLUE", "0..R, 0..C").replace("TEXT", ".0..\n..3.\n1...\n")
                 .replace("SHOW", ", regions black"))
    assert main(["solve", str(f)]) == 2
    assert "cannot be drawn with `regions`" in capsys.readouterr().err


def test_a_reverse_glyph_is_light_on_dark(tmp_path, capsys):
    """Friction log 15: Akari's numbered walls (`"1" "reverse"`) were a black digit on a white cell
    in the picture, like an ordinary cell; the terminal shows them light on dark."""
    data = tmp_path / "a.txt"
    data.write_text('board = """\n..1..\n.2...\n2...0\n...#.\n..1..\n"""\n')
    out = tmp_path / "a.svg"
    assert main(["solve", "akari", "--data", str(data), "--svg", str(out)]) == 0
    root = _svg(out)
    digits = [t for t in root.iter(f"{NS}text") if (t.text or "") in {"0", "1", "2"}]
    assert len(digits) == 5 and all(t.get("fill") == "white" for t in digits)
    dark = [r for r in root.iter(f"{NS}rect") if r.get("width") == "32" and r.get("fill") == "#000"]
    assert len(dark) == 5
