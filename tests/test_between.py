"""`show … between G`: a given drawn on the sides between cells (docs §12)."""

from __future__ import annotations

import pytest

import puzzledsl
from puzzledsl.api import render_text
from puzzledsl.errors import PuzzleError

SIGNS = """
given lt[1..2, 1..2]: sym? legend { ".": none, "<": less, ">": more } = \"\"\"
<.
.>
\"\"\"
given up[1..1, 1..3]: sym legend { ".": none, "^": less, "v": more } = \"\"\"
^.v
\"\"\"
var x[1..2, 1..3]: 1..3
rule forall r in 1..2: alldiff(c in 1..3: x[r, c])
rule forall (r, c) in cells(lt): (lt[r, c] == less -> x[r, c] < x[r, c + 1]) and
                                 (lt[r, c] == more -> x[r, c] > x[r, c + 1])
rule forall (r, c) in cells(up): (up[r, c] == less -> x[r, c] < x[r + 1, c]) and
                                 (up[r, c] == more -> x[r, c] > x[r + 1, c])
rule x[1, 1] == 1 and x[1, 3] == 3 and x[2, 1] == 2
"""


def _board(text: str) -> list[str]:
    sol = puzzledsl.rules(text).bind().solve()
    assert sol is not None
    return render_text(sol).splitlines()


def test_signs_sit_between_their_cells():
    lines = _board(SIGNS + 'show x between lt { less: "<", more: ">", none: " " }, '
                           'between up { less: "^", more: "v", none: " " }\n')
    board = [ln for ln in lines if ln.strip()][:3]  # two rows and the line between them
    assert board[0].startswith("1<2 3")
    assert board[1].startswith("^   v")
    assert board[2].startswith("2 3>1")


def test_an_unknown_value_takes_the_glyph_keyed_by_a_question_mark():
    """Friction log 11: `{ white: "○", ?: "x" }` drew nothing where the given is unknown."""
    text = SIGNS.replace('"""\n<.\n.>\n"""', '[[less, ?], [?, more]]')
    lines = _board(text + 'show x between lt { less: "<", more: ">", ?: "." }\n')
    board = [ln for ln in lines if ln.strip()][:2]
    assert board[0].startswith("1<2.3") and board[1].startswith("2.3>1"), board


def test_a_wide_glyph_widens_the_gaps_and_unknown_values_draw_nothing():
    text = SIGNS.replace('"""\n<.\n.>\n"""', '[[less, ?], [?, more]]')
    lines = _board(text + 'show x between lt { less: "lt", more: "gt" }\n')
    board = [ln for ln in lines if ln.strip()][:2]
    assert board[0].startswith("1lt2  3") and board[1].startswith("2  3gt1")


def test_the_picture_draws_them_too():
    sol = puzzledsl.rules(SIGNS + 'show x between lt { less: "<", more: ">", none: " " }\n').bind().solve()
    svg = sol.svg()
    assert svg.count("&lt;") == 1 and svg.count("&gt;") == 1


@pytest.mark.parametrize("show, message", [
    ("show x between nothing", "unknown name"),
    ("show x between row", "`between` draws a 2-D given"),
    ("show x between square", "does not lie between the cells of `x[1..2, 1..3]`"),
])
def test_errors_are_located(show, message):
    text = SIGNS + "given row[1..3]: int = [1, 2, 3]\ngiven square[1..2, 1..3]: int = [[1, 2, 3], [4, 5, 6]]\n"
    with pytest.raises(PuzzleError) as err:
        puzzledsl.rules(text + show + "\n").bind()
    assert message in err.value.message.lower() or message in err.value.message
    assert err.value.span is not None


def test_glyphs_keep_numbers_and_conditions_apart():
    """`1` and `true` are two glyph keys (docs §7: `true == 1` is false), though a Python dict
    would merge them: a view's tuple of numbers and a condition draws each by its own glyph."""
    text = ('var b[1..2]: bool\ndefine w(i) = (1, b[i], 0)\n'
            'show w over b { 1: "one", 0: "zero", true: "T", false: "F" }\nrule b[1] and not b[2]\n')
    assert _board(text)[0].startswith("oneTzero oneFzero")


def test_lines_between_wide_cells_go_down_too():
    """Numbers of two digits widen the cells: the lines going down are then drawn on a row of
    their own (they were left out, a board without its vertical links)."""
    text = ('var link[1..2, 1..2]: edges\ngiven num[1..2, 1..2]: int? = [[10, ?], [10, ?]]\n'
            'var pair[1..2, 1..2]: 0..10\nrule link[(1, 1), (2, 1)] and not link[(1, 1), (1, 2)] and '
            'not link[(2, 1), (2, 2)] and not link[(1, 2), (2, 2)]\n'
            'rule forall p in cells(num): pair[p] == (if known(num[p]) then num[p] else 0)\n'
            'show pair { 0: "." } lines link, marked num\n')
    board = [ln for ln in _board(text) if ln.strip()][:3]
    assert board[0].startswith("10") and board[1].strip() == "│" and board[2].startswith("10")


def test_a_clue_above_a_column_stands_over_its_cells():
    """Friction log 11: with two-digit clues the cells are two columns wide, their glyphs on the
    left, but a one-digit clue was put on the right: `    8  6` over `13 1  ■`."""
    text = ("given top[1..3]: int = [8, 14, 6]\ngiven left[1..2]: int = [13, 3]\n"
            "var x[1..2, 1..3]: 1..3\nrule forall r in 1..2: alldiff(c in 1..3: x[r, c])\n"
            "rule x[1, 1] == 1 and x[1, 2] == 2 and x[2, 1] == 3 and x[2, 2] == 1\n"
            "show x clue top at top, clue left at left\n")
    lines = [ln for ln in _board(text) if ln.strip()]
    head, first = lines[0], lines[1]
    assert first.startswith("13 1  2  3"), lines
    assert head.index("8") == first.index("1 ") and head.index("14") == first.index("2 "), lines
