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
