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
    import puzzledsl.solve as solve_module
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
