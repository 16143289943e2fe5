"""The grounder's fast paths (cell offsets, list indices, constants, builtin calls, aggregates
as closures, sums built in place, neighbour lists computed once) must mean what the general
paths mean. Each case is a rule whose truth is known by hand; a wrong fast path turns a
solvable program into an unsolvable one or the reverse, or changes a count of solutions."""

from __future__ import annotations

from pathlib import Path

import pytest

from puzzledsl.compile import compile_file
from puzzledsl.errors import PuzzleError
from puzzledsl.solve import Mode, solve

HEAD = "given k: int = 4\nvar g[1..3, 1..3]: bool\nvar x[1..3]: bool\nrule forall p in cells(g): not g[p]\n"


def _count(tmp_path: Path, rules: str) -> int:
    f = tmp_path / "r.puz"
    f.write_text(HEAD + rules + "\nshow x\n")
    return solve(compile_file(f), mode=Mode(count=0)).count


@pytest.mark.parametrize("rule", [
    "rule (1, 2) + (3, 4) == (4, 6)",
    "rule (5, 5) - (1, 2) == (4, 3)",
    "rule (1, 2, 3) + (1, 1, 1) == (2, 3, 4)",
    "rule [10, 20, 30][1] == 20 and (7, 8)[0] == 7",
    "define L = [1, 2, 3]\ndefine f(L) = L + 1\nrule f(2) == 3 and len(L) == 3",
    "rule len(neighbours(g, (1, 1)) + [(9, 9)]) == 3 and len(neighbours(g, (1, 1))) == 2",
    "rule forall p in cells(g): len(neighbours(g, p)) == (if p == (2, 2) then 4 else "
    "if p[0] == 2 or p[1] == 2 then 3 else 2)",
    "rule known(k) and abs(-3) == 3",
])
def test_static_rules_hold(tmp_path, rule):
    assert _count(tmp_path, rule) == 8  # true: every assignment of x is a solution
    assert _count(tmp_path, rule.replace("rule ", "rule not (", 1) + ")" if "\n" not in rule
                  else rule.rsplit("rule ", 1)[0] + "rule not (" + rule.rsplit("rule ", 1)[1] + ")") == 0


@pytest.mark.parametrize("rule, solutions", [
    ("rule count(i in 1..3: x[i]) == 2", 3),
    ("rule count(i in 1..3: i > 1 or x[i]) == 3", 4),  # two items always true
    ("rule count(i in 1..3: i > 5 and x[i]) == 0", 8),
    ("rule sum(i in 1..3: if x[i] then i else 0) == 5", 1),
    ("rule sum(i in 1..3: i * x[i]) + 10 == 13", 2),  # {3} or {1, 2}
    ("rule sum(i in 1..3: x[i] - x[i]) == 0", 8),
    ("rule sum(i in 1..3: 2) == 6", 8),
])
def test_sums_and_counts_agree_with_enumeration(tmp_path, rule, solutions):
    assert _count(tmp_path, rule) == solutions


def test_list_index_out_of_range_is_an_error(tmp_path):
    with pytest.raises(PuzzleError, match="outside 0..2"):
        _count(tmp_path, "rule [10, 20, 30][3] == 20")
