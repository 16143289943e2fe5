"""Forced values read while encoding (`encode/cnf.py`): a variable some assertion forces on its
own is read as its value in every other clause, so a clause it satisfies is not written and a
sum is written over its other terms. The clauses must keep exactly the models they had: each
formula is counted both ways (the encoder given a guard keeps every clause whole)."""

from __future__ import annotations

from pathlib import Path

import pytest
from pysat.solvers import Solver

from puzzledsl.compile import compile_file
from puzzledsl.encode.cnf import Cnf, encode

SUDOKU4 = """\
given grid[1..4, 1..4]: int? legend { ".": ? }
var x[1..4, 1..4]: 1..4
rule forall r in 1..4: alldiff(c in 1..4: x[r, c])
rule forall c in 1..4: alldiff(r in 1..4: x[r, c])
rule forall br in 0..1, bc in 0..1: alldiff(i in 1..2, j in 1..2: x[2 * br + i, 2 * bc + j])
rule "givens": forall r in 1..4, c in 1..4 where known(grid[r, c]): x[r, c] == grid[r, c]
show x
"""

# A count written before the rule that forces some of its cells, and a clause over forced cells.
SHADING = """\
given clue[1..3, 1..3]: int? legend { ".": ? }
var black[1..3, 1..3]: bool
rule "two per row": forall r in 1..3: count(c in 1..3: black[r, c]) == 2
rule "no column full": forall c in 1..3: not all(r in 1..3: black[r, c])
rule "a 1 is black, a 0 white": forall r in 1..3, c in 1..3 where known(clue[r, c]): black[r, c] == (clue[r, c] == 1)
show black
"""


def _grid(*rows: str, name: str = "grid") -> str:
    return f'{name} = """\n' + "\n".join(rows) + '\n"""\n'


def _models(cnf: Cnf, decision: list[int]) -> set[tuple[int, ...]]:
    out = set()
    with Solver(name="cadical195", bootstrap_with=cnf.clauses) as s:
        while s.solve():
            m = s.get_model()
            key = tuple(v if v <= len(m) and m[v - 1] > 0 else -v for v in decision)
            out.add(key)
            s.add_clause([-lit for lit in key])
    return out


def _both(tmp_path: Path, rules: str, data: str) -> tuple[Cnf, Cnf, list[int]]:
    (tmp_path / "r.puz").write_text(rules)
    (tmp_path / "d.puz").write_text(data)
    model = compile_file(tmp_path / "r.puz", tmp_path / "d.puz").model
    return encode(model), encode(model, guard=lambda a: None), model.decision_vars


@pytest.mark.parametrize("rules, data", [
    (SUDOKU4, _grid("1...", "..3.", ".4..", "...2")),
    (SUDOKU4, _grid("1...", "....", "....", "....")),
    (SUDOKU4, _grid("11..", "....", "....", "....")),  # no solution
    (SHADING, _grid("1..", ".0.", "...", name="clue")),
    (SHADING, _grid("1..", "1..", "1..", name="clue")),  # a column full: no solution
])
def test_reading_forced_values_keeps_the_models(tmp_path: Path, rules: str, data: str) -> None:
    folded, whole, decision = _both(tmp_path, rules, data)
    assert _models(folded, decision) == _models(whole, decision)


def test_forced_variables_stay_only_in_their_unit_clauses(tmp_path: Path) -> None:
    """The units the rules state (the givens, and what a rule grounded after them forces)
    appear in no other clause, whichever rule was written first."""
    lines = SUDOKU4.splitlines(keepends=True)
    givens_first = "".join(lines[:2] + lines[5:6] + lines[2:5] + lines[6:])
    assert givens_first != SUDOKU4 and sorted(givens_first) == sorted(SUDOKU4)
    for rules in (SUDOKU4, givens_first):
        folded, whole, _ = _both(tmp_path, rules, _grid("1...", "..3.", ".4..", "...2"))
        stated = {abs(c[0]) for c in whole.clauses if len(c) == 1}
        assert stated and stated <= {abs(c[0]) for c in folded.clauses if len(c) == 1}
        assert not [c for c in folded.clauses if len(c) > 1 and any(abs(x) in stated for x in c)]
        assert len(folded.clauses) < len(whole.clauses) / 2


@pytest.mark.parametrize("rules, holds", [
    ("rule alldiff(i in 1..3: x[i])", lambda x: len(set(x)) == 3),
    ("rule alldiff(i in [1, 2, 1]: x[i])", lambda x: False),  # a cell listed twice
    ("rule x[1] == 2\nrule alldiff(i in 1..3: x[i])", lambda x: x[0] == 2 and len(set(x)) == 3),
    ("rule x[1] == 2\nrule x[2] == 2\nrule alldiff(i in 1..3: x[i])", lambda x: False),
    ("rule alldiff(x[1], x[2], 3)\nrule x[3] != 1", lambda x: len({x[0], x[1], 3}) == 3 and x[2] != 1),
    ("rule x[3] == 1\nrule alldiff(x[1], x[2], x[3], 2)", lambda x: x[2] == 1 and len({x[0], x[1], 1, 2}) == 4),
])
def test_alldiff_of_digits_against_brute_force(tmp_path: Path, rules: str, holds) -> None:
    """`alldiff` over one-hot digits (its own fast path) counts what brute force counts."""
    import itertools

    (tmp_path / "r.puz").write_text(f"var x[1..3]: 1..4\n{rules}\nshow x\n")
    compiled = compile_file(tmp_path / "r.puz")
    cells = [compiled.grids["x"].cells[(i,)].handles for i in (1, 2, 3)]
    seen = _models(encode(compiled.model), [h for hs in cells for h in hs])
    values = {tuple(1 + [lit > 0 for lit in key[4 * i:4 * i + 4]].index(True) for i in range(3)) for key in seen}
    assert values == {x for x in itertools.product(range(1, 5), repeat=3) if holds(x)}


def test_sums_of_one_shape_share_an_encoding_renamed_for_their_literals() -> None:
    """Sums and counts are encoded once per shape (weights, comparison, bound) over stand-in
    literals, then renamed (encode/linear.py): every renaming must mean the sum it stands for,
    with literals in any order and sign, a guard, and fresh variables above a large pool."""
    import itertools
    import random

    from puzzledsl.encode.linear import LinearOptions, VarPool, encode_linear
    rng = random.Random(18)
    for _ in range(400):
        n = rng.randint(1, 8)
        weights = [rng.choice([1, 1, 2, 3]) for _ in range(n)]  # few shapes: most sums meet an encoded one
        lits = [v if rng.random() < 0.7 else -v for v in rng.sample(range(1, n + 1), n)]
        cmp, bound = rng.choice(["<=", ">=", "=="]), rng.randint(0, sum(weights))
        cond = (n + 1,) if rng.random() < 0.5 else ()
        pool = VarPool(n + 30)
        clauses = encode_linear(list(zip(lits, weights)), cmp, bound, pool, LinearOptions(), cond)
        assert all(abs(x) <= n + 1 or 30 + n < abs(x) <= pool.top for cl in clauses for x in cl)
        with Solver(name="cadical195", bootstrap_with=clauses) as s:
            for bits in itertools.product([False, True], repeat=n + 1):
                total = sum(w for x, w in zip(lits, weights) if bits[abs(x) - 1] == (x > 0))
                holds = {"<=": total <= bound, ">=": total >= bound, "==": total == bound}[cmp]
                want = holds or bool(cond) and not bits[n]
                assert s.solve(assumptions=[v if b else -v for v, b in zip(range(1, n + 2), bits)]) == want
