"""The independent re-check (`puzzledsl/evaluate.py`): the rules read again over each solution,
with no grounding or encoding code. It must pass every real solution, catch a changed cell,
and turn a wrong answer into an internal error rather than a printed board."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

import puzzledsl.cli as cli
from puzzledsl.cli import main
from puzzledsl.compile import compile_file
from puzzledsl.evaluate import broken_rules
from puzzledsl.solve import Mode, solve
from tests.genre_specs import GENRES, by_size, options, spread

ROOT = Path(__file__).resolve().parents[1]
BUNDLED = sorted(p for p in (ROOT / "puzzles").glob("*/*.puz") if p.parent.name not in ("chilly", "peg-solitaire"))


def _mutated(compiled, sol: dict) -> dict:
    """The solution with one cell of its first decision grid changed."""
    names = [st.name for st in compiled.program.statements if type(st).__name__ == "Var"]
    for name in names:
        grid = sol[name]
        key = next((k for k, v in grid.cells.items() if isinstance(v, bool | int)), None)
        if key is not None:
            m = copy.copy(grid)
            m.cells = dict(grid.cells)
            v = m.cells[key]
            m.cells[key] = (not v) if isinstance(v, bool) else v + 1
            return {**sol, name: m}
    raise AssertionError("no decision cell")


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_bundled_solutions_pass_and_a_changed_cell_is_caught(path):
    c = compile_file(path)
    out = solve(c, mode=Mode(count=2))
    assert out.solutions
    for sol in out.solutions:
        assert broken_rules(c.program, c.givens, sol, c.symbols) == ([], [])
    assert broken_rules(c.program, c.givens, _mutated(c, out.solutions[0]), c.symbols)[0]


def test_a_wrong_answer_is_an_internal_error_not_a_board(monkeypatch, capsys):
    import puzzledsl.enumeration
    import puzzledsl.generate
    import puzzledsl.solve as solve_module
    import puzzledsl.uniqueness  # noqa: F401 - imported before the patch, so they keep the real `decode`
    real = solve_module.decode
    monkeypatch.setattr(solve_module, "decode", lambda compiled, true: _mutated(compiled, real(compiled, true)))
    rc = main(["solve", str(ROOT / "puzzles" / "kakurasu" / "seed-5x5.puz")])
    out, err = capsys.readouterr()
    assert rc == 70 and "breaks" in err and "a bug in puzzledsl" in err
    assert "■" not in out
    assert main(["solve", str(ROOT / "puzzles" / "kakurasu" / "seed-5x5.puz"), "--no-recheck"]) == 0
    assert cli  # the CLI module stays importable with the patch


@pytest.mark.slow
@pytest.mark.parametrize("key", sorted(GENRES))
def test_real_solutions_of_every_genre_pass(key):
    """Three puzzles of every janko genre (the smaller half of a spread of six; the largest
    boards take minutes to ground): the solution found passes."""
    g = GENRES[key]
    if not g.data_path.is_file():
        pytest.skip("needs ../shared/data")
    from puzzledsl.compile import compile_givens, load_rules
    rules = load_rules(g.rules_path)
    for iid, givens, _ in spread(by_size(g), 6)[:3]:
        c = compile_givens(rules, givens, options(g, iid))
        out = solve(c, time_limit=60)
        for sol in out.solutions:
            assert broken_rules(c.program, c.givens, sol, c.symbols) == ([], []), iid


def _verdict(tmp_path: Path, text: str, solution: dict) -> list[str]:
    """The rules `solution` (name -> {key: value}) breaks, by the re-check alone."""
    p = tmp_path / "p.puz"
    p.write_text(text)
    c = compile_file(p)
    sol = {}
    for name, cells in solution.items():
        grid = c.grids[name].empty_like()
        grid.cells = dict(cells)
        sol[name] = grid
    broken, unread = broken_rules(c.program, c.givens, sol, c.symbols)
    assert unread == []
    return [b.split("”")[0].lstrip("“") for b in broken]


READ_ORDER = """var x[1..3]: bool
define w(i) = i != 1
rule "body first": forall i in 1..3 where w(i): not x[i]
rule "guarded": forall i in 1..3: i < 3 and x[i + 1] or i == 3
"""


def test_lookups_read_first_give_the_rules_meaning(tmp_path: Path) -> None:
    """`forall … where W: B` and `A and x[…]` may read the lookup first (it is cheap); the verdict
    must be the rules' own, also where the lookup falls outside its grid (`x[i + 1]`, i = 3)."""
    ok = {"x": {(1,): True, (2,): False, (3,): False}}
    assert _verdict(tmp_path, READ_ORDER.replace('rule "guarded"', '# '), ok) == []
    assert _verdict(tmp_path, READ_ORDER.replace('rule "guarded"', '# '), {"x": {(1,): True, (2,): True,
                                                                             (3,): False}}) == ["body first"]
    guarded = READ_ORDER.replace('rule "body first"', '# ')
    assert _verdict(tmp_path, guarded, {"x": {(1,): False, (2,): True, (3,): True}}) == []
    assert _verdict(tmp_path, guarded, {"x": {(1,): False, (2,): False, (3,): True}}) == ["guarded"]


def test_the_cells_of_a_value_keep_truth_values_apart_from_numbers():
    """`values(g)` and `cells(g, v)` group cells by value through a dict for numbers, names and
    text: a truth value is not the number 1 there (the rules' equality), and tuples are still
    compared item by item."""
    from types import SimpleNamespace

    from puzzledsl.evaluate import Evaluator
    from puzzledsl.values import Grid
    g = Grid("g", (range(1, 7),), {(1,): 1, (2,): True, (3,): 1, (4,): (1, 2), (5,): (True, 2), (6,): None})
    ev = Evaluator(SimpleNamespace(statements=[]), {}, {}, {})  # type: ignore[arg-type]
    assert ev.cells.by_value(g) == [(1, [1, 3]), (True, [2]), ((1, 2), [4]), ((True, 2), [5])]
    assert [type(v) for v, _ in ev.cells.by_value(g)][:2] == [int, bool]


def test_a_part_never_read_cannot_make_a_rule_unreadable():
    """`if`, `and`, `or` and `->` read their parts as the rules say: a branch not taken, or an
    item after one that decides, is never read, so a part this module cannot read matters only
    when it is read (the readers are made ahead, the failure deferred)."""
    from dataclasses import dataclass
    from types import SimpleNamespace

    import pytest

    from puzzledsl.evaluate import Evaluator, Unreadable
    from puzzledsl.syntax import ast as A

    @dataclass(eq=False)
    class Strange(A.Expr):  # a node kind the re-check has no reader for
        pass

    sp = None
    odd, yes, no = Strange(sp), A.BoolLit(sp, True), A.BoolLit(sp, False)
    ev = Evaluator(SimpleNamespace(statements=[]), {}, {}, {})  # type: ignore[arg-type]
    # the nodes stay referenced: readers are kept by node identity, as the rules outlive a re-check
    nodes = [A.Ite(sp, no, odd, yes), A.Logic(sp, "and", (no, odd)), A.Logic(sp, "or", (yes, odd)),
             A.Logic(sp, "implies", (no, odd)), A.Ite(sp, yes, odd, yes), A.Logic(sp, "and", (yes, odd))]
    assert [ev.ev(x, {}) for x in nodes[:4]] == [True, False, True, True]
    for x in nodes[4:]:
        with pytest.raises(Unreadable):
            ev.ev(x, {})
