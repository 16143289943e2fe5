"""Language semantics on small programs, each checked against plain-Python enumeration."""

from __future__ import annotations

from itertools import permutations, product
from pathlib import Path

from puzzledsl.compile import compile_file
from puzzledsl.solve import Mode, solve


def _count(tmp_path: Path, text: str, backend: str = "sat") -> int:
    f = tmp_path / "p.puz"
    f.write_text(text, encoding="utf-8")
    out = solve(compile_file(f), backend, None, Mode(count=0))
    assert out.count_complete
    return out.count or 0


def test_aggregates_over_listed_values(tmp_path: Path) -> None:
    text = """
given R: int
given C: int
var x[1..3]: 1..5
rule alldiff(x[1], x[2], x[3])
rule max(R, C) == 5 and min(R, C) == 2 and sum(R, C, 1) == 8
rule x[1] < x[2]
R = 5
C = 2
"""
    expected = sum(1 for p in permutations(range(1, 6), 3) if p[0] < p[1])
    for backend in ("sat", "z3"):
        assert _count(tmp_path, text, backend) == expected


def test_listed_conditions_count(tmp_path: Path) -> None:
    text = "var a: bool\nvar b: bool\nvar c: bool\nrule count(a, b, c) == 2 and any(a, c)\n"
    expected = sum(1 for a, b, c in product((0, 1), repeat=3) if a + b + c == 2 and (a or c))
    assert _count(tmp_path, text) == expected


def test_forced_cells_keep_every_solution(tmp_path: Path) -> None:
    """Cells fixed by an early rule become constants for later rules; the count must not change."""
    text = """
var x[1..4]: bool outside false
rule not x[2]
rule forall i in 1..4: x[i] -> not x[i + 1]
"""
    expected = sum(1 for v in product((0, 1), repeat=4)
                   if not v[1] and all(not (v[i] and v[i + 1]) for i in range(3)))
    assert _count(tmp_path, text) == expected


def test_show_keywords_are_free_names_elsewhere(tmp_path: Path) -> None:
    text = """
given clue[1..3]: int
given at: int
var marked[1..3]: bool
define over(i) = marked[i]
rule forall i in 1..3: over(i) == (clue[i] > at)
show marked { true: "#" } marked clue
clue = [1, 5, 3]
at = 2
"""
    assert _count(tmp_path, text) == 1


def test_a_comma_after_the_glyphs_of_a_show(tmp_path: Path) -> None:
    """Friction log 15: `show line { … }, regions g` read as options separated by commas, and the
    comma after the glyphs was a syntax error; it may be written or left out."""
    for sep in (",", ""):
        text = f"""
given g[1..2, 1..2]: sym = ["ab", "ab"]
var x[1..2, 1..2]: bool
rule x[1, 1] and not x[1, 2] and x[2, 1] and not x[2, 2]
show x {{ true: "#", false: "." }}{sep} regions g, marked g
"""
        assert _count(tmp_path, text) == 1


def test_forced_values_simplify_later_rules_and_keep_every_solution(tmp_path: Path) -> None:
    """A rule that forces a variable on its own (`v[1] != 2`, `b[1]`) makes it a constant for the
    rules after it: fewer constraints, the same solutions (counted against enumeration)."""
    text = """
var v[1..3]: 0..3
var b[1..3]: bool
rule "units": v[1] != 2 and v[2] != 0 and b[1] and not b[3]
rule "links": forall i in 1..3, k in 0..3: v[i] == k and b[i] -> v[(i % 3) + 1] != k
rule "sum": sum(i in 1..3: v[i]) + count(i in 1..3: b[i]) >= 4
"""
    expected = sum(
        1 for v in product(range(4), repeat=3) for b in product((False, True), repeat=3)
        if v[0] != 2 and v[1] != 0 and b[0] and not b[2]
        and all(not (b[i] and v[(i + 1) % 3] == v[i]) for i in range(3))
        and sum(v) + sum(b) >= 4)
    assert _count(tmp_path, text) == expected
    assert _count(tmp_path, text, "z3") == expected
    f = tmp_path / "p.puz"
    model = compile_file(f).model
    # of the 12 "links", i = 3 vanishes (b[3] is false), and so do v[1] == 2 (forced off), v[2] != 0
    # (forced on: i = 1, k = 0) and v[2] == 0 (i = 2, k = 0)
    assert len([a for a in model.assertions if a.label == "links"]) == 5


def test_ranges_are_indexed_from_zero(tmp_path: Path) -> None:
    """`dim(g, 2)[0]`, `(4..6)[1]`: a range is indexed like a list (grounding and the re-check agree)."""
    text = """
given g[1..3, 4..5]: int = [[1, 2], [3, 4], [5, 6]]
var y: 0..20
rule y == dim(g, 2)[0] + (4..6)[1] + rows(g)[2] + 2 * (0, 1)[1]
"""
    assert _count(tmp_path, text) == 1
    f = tmp_path / "p.puz"
    out = solve(compile_file(f), "sat", None, Mode())
    assert out.solutions[0]["y"].cells[()] == 4 + 5 + 3 + 2


def test_a_grid_given_of_unknowns_written_as_one_question_mark(tmp_path: Path) -> None:
    """`g = ?` (or a default `= ?`, or JSON `null`) is a grid without a single clue, its sizes
    bound elsewhere: an instance need not write out a grid of dots."""
    rules = """
given N: int
given num[1..N, 1..N]: int?
given right[1..N, 1..N - 1]: int? = ?
var x[1..N, 1..N]: 1..N
rule forall r in 1..N: alldiff(c in 1..N: x[r, c])
rule forall c in 1..N: alldiff(r in 1..N: x[r, c])
rule forall p in cells(num) where known(num[p]): x[p] == num[p]
rule forall (r, c) in cells(right) where known(right[r, c]): x[r, c] < x[r, c + 1]
"""
    latin = sum(1 for rows in product(permutations(range(3)), repeat=3)
                if all(len({row[c] for row in rows}) == 3 for c in range(3)))
    assert _count(tmp_path, rules + 'num = """\n- - -\n- - -\n- - -\n"""\n') == latin == 12
    assert _count(tmp_path, rules + 'N = 3\nnum = ?\n') == latin
    increasing = sum(1 for rows in product(permutations(range(3)), repeat=3)
                     if all(len({row[c] for row in rows}) == 3 for c in range(3)) and rows[0][0] < rows[0][1])
    assert _count(tmp_path, rules + 'N = 3\nnum = ?\nright = [[1, ?], [?, ?], [?, ?]]\n') == increasing == 6
