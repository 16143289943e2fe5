"""Label or number: which integer variables the grounder may one-hot encode beyond 24 values.

A variable only compared for equality is a label (one literal per value propagates best); one
that is added, ordered, summed or used as an index is a number (bits keep sums small). The
choice must never change the answers: both encodings are solved and compared here.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from puzzledsl.compile import compile_file, load_rules
from puzzledsl.errors import PuzzleError
from puzzledsl.int_use import numeric_names
from puzzledsl.solve import Mode, solve
from puzzledsl.values import IntVarCell

ROOT = Path(__file__).resolve().parents[1]


def _numeric(tmp_path: Path, text: str) -> set[str]:
    path = tmp_path / "r.puz"
    path.write_text(text)
    return numeric_names(load_rules(path).program)


@pytest.mark.parametrize("rule, numeric", [
    ("rule forall i in 1..3: x[i] == i or x[i] != 0", False),
    ("rule forall i in 1..2: x[i] == x[i + 1]", False),
    ("rule count(i in 1..3: x[i] == 5) == 1", False),
    ("rule exists(i in 1..3: x[i] == 2) -> x[1] != 3", False),
    ("rule x[1] < x[2]", True),
    ("rule x[1] + 1 == x[2]", True),
    ("rule sum(i in 1..3: x[i]) == 40", True),
    ("rule x[1] == (if x[2] == 1 then 2 else 3)", False),
    ("rule 2 * x[1] - 20 == 3", True),
])
def test_labels_and_numbers(tmp_path, rule, numeric):
    text = f"var x[1..3]: 0..40\n{rule}\nshow x\n"
    assert (("x" in _numeric(tmp_path, text)) is numeric), rule


def test_bundled_label_variables():
    """Arukone's `pair` is a label; Skyscraper's `height` is a number."""
    assert "pair" not in numeric_names(load_rules(ROOT / "puzzles" / "arukone.puz").program)
    assert "height" in numeric_names(load_rules(ROOT / "puzzles" / "skyscraper.puz").program)


def test_label_beyond_24_values_is_one_hot_and_answers_agree(tmp_path):
    """30 labels: one-hot for the label use, binary for the numeric use; the same solutions."""
    label = tmp_path / "label.puz"
    label.write_text("var x[1..4]: 1..30\nrule forall i in 1..3: x[i] != x[i + 1]\n"
                     "rule x[1] == 30 and x[4] == 29\nrule forall i in 2..3: x[i] == 1 or x[i] == 2\nshow x\n")
    number = tmp_path / "number.puz"
    number.write_text(label.read_text() + "rule x[1] + x[4] >= 0\n")
    a, b = compile_file(label), compile_file(number)
    cell_a, cell_b = a.grids["x"].cells[(1,)], b.grids["x"].cells[(1,)]
    assert isinstance(cell_a, IntVarCell) and not cell_a.binary
    assert isinstance(cell_b, IntVarCell) and cell_b.binary
    sa = solve(a, mode=Mode(count=0))
    sb = solve(b, mode=Mode(count=0))
    assert sa.count == sb.count == 2
    assert sorted(str(s["x"].nested()) for s in sa.solutions) == sorted(str(s["x"].nested()) for s in sb.solutions)


def _count(tmp_path: Path, text: str) -> int:
    f = tmp_path / "cmp.puz"
    f.write_text(text)
    return solve(compile_file(f), mode=Mode(count=0)).count


@pytest.mark.parametrize("seed", range(12))
def test_comparisons_value_by_value_agree_with_brute_force(tmp_path, seed):
    """Comparisons over one or two one-hot integers are encoded per value with order literals;
    the number of solutions of `A * x + K op B * y` (and of `A * x + K op 0`) is counted against
    every pair of values."""
    import random
    rnd = random.Random(seed)
    lx, hx, ly, hy = rnd.randint(-3, 1), rnd.randint(2, 5), rnd.randint(-2, 2), rnd.randint(3, 6)
    for _ in range(6):
        a, b, k = rnd.choice([-3, -2, -1, 1, 2, 3]), rnd.choice([-2, -1, 0, 1, 2, 3]), rnd.randint(-6, 6)
        op = rnd.choice(["<", "<=", ">", ">=", "==", "!="])
        ops = {"<": int.__lt__, "<=": int.__le__, ">": int.__gt__, ">=": int.__ge__,
               "==": int.__eq__, "!=": int.__ne__}
        want = sum(ops[op](a * x + k, b * y) for x in range(lx, hx + 1) for y in range(ly, hy + 1))
        text = (f"var x: {lx}..{hx}\nvar y: {ly}..{hy}\nrule {a} * x + {k} {op} {b} * y\n"
                "rule y == y\nshow x\nanswer x, y\n")
        assert _count(tmp_path, text) == want, (a, b, k, op)


def test_increasing_sequence_is_small(tmp_path):
    """Issue 10's example: eight values 0..8, each larger than all before it (9 solutions), in a
    few hundred clauses rather than thousands."""
    f = tmp_path / "inc.puz"
    f.write_text("var a[1..8]: 0..8\nrule forall(j in 1..8, k in 1..8 where j < k: a[j] < a[k])\nshow a\n")
    out = solve(compile_file(f), mode=Mode(count=0))
    assert out.count == 9
    assert out.stats["variables"] < 600 and out.stats["clauses"] < 1000


@pytest.mark.parametrize("seed", range(10))
def test_equal_labels_in_every_position_agree_with_brute_force(tmp_path, seed):
    """`x == y` of two one-hot integers is written "no value is both" wherever it is negated
    (before `->`, under `not`, inside `!=`) and "each value of x is one of y" where it is
    asserted; counted against every assignment, on both backends."""
    import itertools
    import random
    rnd = random.Random(seed)
    lx, hx, ly, hy = rnd.randint(0, 2), rnd.randint(2, 4), rnd.randint(0, 2), rnd.randint(2, 4)
    forms = [("(x == y) -> b", lambda x, y, b: (x != y) or b), ("b -> x == y", lambda x, y, b: not b or x == y),
             ("x != y or b", lambda x, y, b: x != y or b), ("not (x == y and b)", lambda x, y, b: not (x == y and b)),
             ("(x == y) == b", lambda x, y, b: (x == y) == b), ("x == y or b", lambda x, y, b: x == y or b),
             ("(x == y and x != 2) -> b", lambda x, y, b: not (x == y and x != 2) or b)]
    rule, holds = rnd.choice(forms)
    want = sum(holds(x, y, b) for x, y, b in itertools.product(range(lx, hx + 1), range(ly, hy + 1), (0, 1)))
    text = f"var x: {lx}..{hx}\nvar y: {ly}..{hy}\nvar b: bool\nrule {rule}\nshow x\nanswer x, y, b\n"
    f = tmp_path / "eq.puz"
    f.write_text(text)
    for backend in ("sat", "z3"):
        assert solve(compile_file(f), backend, mode=Mode(count=0)).count == want, (rule, backend)


def test_equal_labels_as_a_condition_cost_what_the_value_by_value_form_costs(tmp_path):
    """`a == c -> b` over 20 values: what `forall v: a == v and c == v -> b` costs, and one
    helper variable equal to `a == c` with one clause to use it (a second rule that compares
    the two shares it: no clause per value again). It needed a helper variable per value once."""
    from puzzledsl.encode.cnf import encode

    sizes = []
    for rule in ("a == c -> b", "forall v in 1..20: a == v and c == v -> b"):
        f = tmp_path / "eq.puz"
        f.write_text(f"var a: 1..20\nvar c: 1..20\nvar b: bool\nrule {rule}\nshow a\n")
        cnf = encode(compile_file(f).model)
        sizes.append((len(cnf.clauses), len({abs(x) for c in cnf.clauses for x in c})))
    assert sizes[0] == (sizes[1][0] + 1, sizes[1][1] + 1)


@pytest.mark.parametrize("encoding", ["", "one-hot", "binary"])
def test_an_encoding_written_by_hand_keeps_the_solutions(tmp_path, encoding):
    """`one-hot` / `binary` after a range overrides the choice by use, never the meaning."""
    f = tmp_path / "e.puz"
    f.write_text(f"var x[1..3]: 0..9 {encoding}\nrule x[1] + x[2] == x[3] and x[3] >= 7\nshow x\n")
    compiled = compile_file(f)
    cell = compiled.grids["x"].cells[(1,)]
    assert cell.binary == (encoding == "binary")
    expected = sum(1 for a in range(10) for b in range(10) if 7 <= a + b <= 9)
    assert solve(compiled, mode=Mode(count=0)).count == expected


def test_an_encoding_is_only_for_integers(tmp_path):
    f = tmp_path / "e.puz"
    f.write_text("var x: bool binary\n")
    with pytest.raises(PuzzleError, match="encoding of an integer variable"):
        compile_file(f)


def test_encoding_words_stay_names_elsewhere(tmp_path):
    f = tmp_path / "e.puz"
    f.write_text("given binary: int = 3\nvar x[1..2]: 0..5\nrule x[1] == binary and x[2] == binary\nshow x\n")
    assert solve(compile_file(f), mode=Mode(count=0)).count == 1
