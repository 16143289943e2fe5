"""The public Python API (`import puzzledsl`), checked against independent oracles: a brute-force
Kakurasu counter, the plain-Python Kakurasu checker and the peg solitaire simulator."""

from __future__ import annotations

import io
import os
import random
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from rich.console import Console

import puzzledsl
from tests import pegsol_sim
from tests.bruteforce import kakurasu_count
from tests.checkers import check_kakurasu

ROOT = Path(__file__).resolve().parents[1]
KAKU_ROWS, KAKU_COLS = [1, 5, 6, 10, 6], [13, 3, 3, 4, 11]


def random_clues(rng: random.Random, rows: int, cols: int) -> tuple[list[int | None], list[int | None]]:
    """Clues of a random black pattern, some hidden: always solvable, often not uniquely."""
    black = [[rng.random() < 0.4 for _ in range(cols)] for _ in range(rows)]
    rowsum = [sum(c + 1 for c in range(cols) if black[r][c]) for r in range(rows)]
    colsum = [sum(r + 1 for r in range(rows) if black[r][c]) for c in range(cols)]
    hide = lambda xs: [None if rng.random() < 0.35 else x for x in xs]  # noqa: E731
    return hide(rowsum), hide(colsum)


def test_import_is_fast_and_lazy() -> None:
    code = ("import sys, time; t = time.perf_counter(); import puzzledsl; dt = time.perf_counter() - t; "
            "heavy = [m for m in ('puzzledsl.compile', 'lark', 'pysat', 'z3', 'ortools', 'rich') if m in sys.modules]; "
            "print(dt, heavy)")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    seconds, heavy = out.split(" ", 1)
    assert heavy.strip() == "[]"
    assert float(seconds) < 0.05


def test_a_solve_from_a_parsed_rule_file_imports_no_parser_nor_worker_pool() -> None:
    """The format names the checker reads come with the importers; lark (25 ms at every start)
    and multiprocessing (4 ms) come only with a file that needs parsing or a command with
    workers (the second run here reads the rule file's parse from the cache)."""
    code = ("import contextlib, io, sys; from puzzledsl.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            "    main(['solve', 'kakurasu/seed-5x5.puz', '--unique', '--json'])\n"
            "print([m for m in ('lark', 'multiprocessing') if m in sys.modules])")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_version_comes_from_the_package_metadata() -> None:
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert puzzledsl.__version__ in (declared, "0+unknown")
    assert re.fullmatch(r"[0-9][0-9a-z.+]*", puzzledsl.__version__)
    assert set(puzzledsl.__all__) <= set(dir(puzzledsl))
    with pytest.raises(AttributeError):
        puzzledsl.no_such_name  # noqa: B018


@pytest.mark.parametrize("seed", range(12))
def test_answers_agree_with_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    rowsum, colsum = random_clues(rng, rng.randint(2, 4), rng.randint(2, 4))
    puzzle = puzzledsl.load("kakurasu", rowsum=rowsum, colsum=colsum)
    expected = kakurasu_count(rowsum, colsum)
    every = list(puzzle.solutions())
    assert len(every) == expected == puzzle.count()
    assert all(check_kakurasu(rowsum, colsum, s["black"]) == [] for s in every)
    assert len({str(s["black"]) for s in every}) == expected  # all distinct
    assert puzzle.unique() is (expected == 1)
    assert puzzle.count(limit=2) == min(expected, 2)
    assert len(list(puzzle.solutions(limit=2))) == min(expected, 2)
    # determined: a cell's value where every solution agrees, else None
    cells = [[{s["black"][r][c] for s in every} for c in range(len(colsum))] for r in range(len(rowsum))]
    want = [[next(iter(v)) if len(v) == 1 else None for v in row] for row in cells]
    assert puzzle.determined()["black"] == want


def test_no_solution_is_none() -> None:
    puzzle = puzzledsl.load("kakurasu", rowsum=[2, 2], colsum=[1, None])  # row weights 2 need column 2
    assert kakurasu_count([2, 2], [1, None]) == 0
    assert puzzle.solve() is None and puzzle.determined() is None
    assert puzzle.count() == 0 and puzzle.unique() is False and list(puzzle.solutions()) == []
    assert puzzle.verdict().solvable is False and puzzle.using(time_limit=5).verdict().solutions == []
    # the reason, as the command line reports it: a rule the givens alone break, with its loop values
    alone = puzzledsl.load("kakurasu", rowsum=[16, 1, 1, 1, 1], colsum=[1, 1, 1, 1, 1])  # 16 > 1+2+3+4+5
    (label, at), = alone.outcome().conflict
    assert label == "row sums" and at.endswith("(where r = 1)")


def test_one_puzzle_from_every_kind_of_source(tmp_path: Path) -> None:
    text = (ROOT / "puzzles" / "kakurasu.puz").read_text()
    janko = tmp_path / "k.txt"
    janko.write_text(f"5 5\n{' '.join(map(str, KAKU_COLS))}\n{' '.join(map(str, KAKU_ROWS))}\n")
    puzzles = [
        puzzledsl.load("kakurasu", rowsum=KAKU_ROWS, colsum=KAKU_COLS),
        puzzledsl.load("kakurasu", {"rowsum": KAKU_ROWS, "colsum": KAKU_COLS}),
        puzzledsl.load(ROOT / "puzzles" / "kakurasu.puz", janko),
        puzzledsl.load(str(ROOT / "puzzles" / "kakurasu.puz"), str(janko), format="janko_kakurasu"),
        puzzledsl.rules(text).bind(rowsum=KAKU_ROWS, colsum=KAKU_COLS),
        puzzledsl.rules_from_text(text, "mine.puz").bind(rowsum=KAKU_ROWS, colsum=KAKU_COLS),
        puzzledsl.load("kakurasu/seed-5x5.puz"),
        puzzledsl.load('use "kakurasu"\nrowsum = [1, 5, 6, 10, 6]\ncolsum = [13, 3, 3, 4, 11]\n'),
    ]
    solutions = [p.solve() for p in puzzles]
    assert check_kakurasu(KAKU_ROWS, KAKU_COLS, solutions[0]["black"]) == []
    assert all(s == solutions[0] for s in solutions)
    assert {p.title for p in puzzles} == {"Kakurasu"}


def test_rules_describe_themselves() -> None:
    arukone = puzzledsl.rules("arukone")
    assert arukone.title == "Arukone" and "bwinf_arukone" in arukone.formats
    assert arukone.options == {"fill": False, "touchfree": False, "near": False, "tight": False}
    pegs = puzzledsl.rules("peg-solitaire")
    assert pegs.options == {"jumps": "square", "measure": "jumps"}
    assert "board" in pegs.givens and "jumps" not in pegs.givens
    genres = {g.name: g for g in puzzledsl.genres()}
    assert "battleship-base" not in genres  # a shared base, not a genre
    assert "kakurasu/seed-5x5.puz" in genres["kakurasu"].instances
    assert [o.name for o in genres["arukone"].options] == ["fill", "touchfree", "near", "tight"]


def test_options_take_plain_values() -> None:
    board = "o.oo\n"  # (0,3) over (0,2) to (0,1), then (0,0) over (0,1) to (0,2)
    default = puzzledsl.load("peg-solitaire", board=[list(board.strip())])
    assert default.options == {"jumps": "square", "measure": "jumps"}
    moves = puzzledsl.load("peg-solitaire", board=[list(board.strip())], options={"measure": "moves"})
    assert moves.options["measure"] == "moves"
    arukone = puzzledsl.load("arukone", num=[[1, None, 1]], options={"fill": True, "touchfree": False})
    assert arukone.options == {"fill": True, "touchfree": False, "near": False, "tight": False}


def test_plans_replay_in_the_simulator() -> None:
    text = (ROOT / "puzzles" / "peg-solitaire" / "tiny-2.txt").read_text()
    puzzle = puzzledsl.load("peg-solitaire", "peg-solitaire/tiny-2.txt")
    assert puzzle.is_plan
    plan = puzzle.plan()
    jumps = [(tuple(a.args[0]), tuple(a.args[2]), tuple(a.args[3])) for a in plan.actions]
    assert pegsol_sim.is_solution(text, jumps)
    assert plan.optimal and plan.moves == len(pegsol_sim.solve(text)) == len(plan)
    assert len(plan.states) == plan.moves + 1 and plan.final is plan.states[-1]
    with pytest.raises(puzzledsl.PuzzleError, match="plan"):
        puzzle.solve()
    with pytest.raises(puzzledsl.PuzzleError, match="state"):
        puzzledsl.load("kakurasu/seed-5x5.puz").plan()


def test_a_plan_that_cannot_exist_is_none() -> None:
    assert puzzledsl.load("peg-solitaire", "peg-solitaire/european.txt").plan() is None


def test_errors_are_located_puzzle_errors() -> None:
    with pytest.raises(puzzledsl.PuzzleError) as err:
        puzzledsl.rules("var x: bool\nrule: x ==\n")
    assert (err.value.span.path, err.value.span.line, err.value.span.column) == ("<rules>", 2, 5)
    assert str(err.value).startswith("<rules>:2:5: ")  # printed, the exception says where, as the CLI does
    with pytest.raises(puzzledsl.PuzzleError, match="row 2 has 1 entry, the first has 2") as err:
        puzzledsl.load("sudoku", grid=[[1, None], [None]])  # no file to point at: the row is counted
    with pytest.raises(puzzledsl.PuzzleError, match="`colsm` is not a given") as err:
        puzzledsl.load("kakurasu", rowsum=[1], colsm=[1])
    assert err.value.help == "did you mean `colsum`?"
    with pytest.raises(puzzledsl.PuzzleError, match="not an option"):
        puzzledsl.load("arukone", num=[[1, 1]], options={"fil": True})
    with pytest.raises(puzzledsl.PuzzleError, match="no such file: no-such-genre") as err:
        puzzledsl.rules("no-such-genre")
    assert "kakurasu" in err.value.help
    with pytest.raises(puzzledsl.PuzzleError, match="no such file: no-such-data.txt"):
        puzzledsl.load("kakurasu", "no-such-data.txt")
    with pytest.raises(puzzledsl.PuzzleError, match="unknown SAT solver"):
        puzzledsl.load("kakurasu/seed-5x5.puz").using(solver="nope").solve()


def test_time_limit_is_never_a_proof() -> None:
    free = puzzledsl.load("kakurasu", rowsum=[None] * 12, colsum=[None] * 12)  # 2^144 solutions
    with pytest.raises(puzzledsl.TimeLimitReached) as err:
        free.using(time_limit=0.3).count()
    assert isinstance(err.value.partial, int) and err.value.partial >= 1
    with pytest.raises(puzzledsl.TimeLimitReached):
        list(free.using(time_limit=0.3).solutions())


def test_an_undecided_verdict_says_what_was_established(monkeypatch: pytest.MonkeyPatch) -> None:
    """`verdict()` cut short by the time limit (here: the last search of the route) raises with
    what the route proved on the way, as `solve --unique` prints it."""
    import puzzledsl.uniqueness as U
    from puzzledsl.deadline import TimeUp

    real = U.Session.solve

    def cut_short(self, deadline, assumptions=None, conflicts=None):
        options = self.compiled.options
        if not assumptions and options["touchfree"] and not options["fill"] and not options["near"]:
            raise TimeUp()
        return real(self, deadline, assumptions, conflicts)

    monkeypatch.setattr(U.Session, "solve", cut_short)
    p = puzzledsl.load("arukone", num=[[1, 2, 3], [None, None, None], [1, 2, 3]])
    with pytest.raises(puzzledsl.TimeLimitReached, match="established: no other solution keeps") as err:
        p.verdict()
    assert "no second solution with touchfree, tight, fill" in err.value.partial


def test_settings_a_grounding_limit_and_one_recheck_per_solution(monkeypatch: pytest.MonkeyPatch) -> None:
    """A new user's API slips: `settings=` as a dict works (a wrong key is a PuzzleError, not an
    AttributeError later); a limit given to `load` bounds grounding too; asking a `Puzzle`
    several questions re-checks each solution once."""
    p = puzzledsl.load("kakurasu", rowsum=KAKU_ROWS, colsum=KAKU_COLS, settings={"time_limit": 5})
    assert p.settings == puzzledsl.Settings(time_limit=5) and p.using(backend="z3").settings.time_limit == 5
    with pytest.raises(puzzledsl.PuzzleError, match="`timelimit` is not a setting"):
        puzzledsl.load("kakurasu", rowsum=KAKU_ROWS, colsum=KAKU_COLS, settings={"timelimit": 5})
    slow = puzzledsl.rules("var x[1..3000]: bool\nrule forall i in 1..3000, j in i + 1..3000: not (x[i] and x[j])\n")
    with pytest.raises(puzzledsl.TimeLimitReached, match="before the puzzle was ready"):
        slow.bind(settings={"time_limit": 0.05})  # 4.5 million instances: grounding outlasts the limit
    from puzzledsl import evaluate
    read: list[int] = []
    real = evaluate.recheck
    monkeypatch.setattr(evaluate, "recheck", lambda c, sols: read.append(len(sols)) or real(c, sols))
    assert p.solve() is not None and p.unique() and p.solve() is not None
    assert sum(read) == 1 and p.outcome().stats["rechecked"] == 1


def test_json_is_what_the_command_line_prints(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """`Puzzle.json(mode)` is `solve --json`'s object (plain values: `json.dumps` takes it)."""
    import json

    from puzzledsl.cli import main
    from puzzledsl.solve import Mode
    data = tmp_path / "k.txt"
    data.write_text("rowsum = [1, 5, 6, 10, 6]\ncolsum = [13, 3, 3, 4, 11]\n")
    mine = json.loads(json.dumps(puzzledsl.load("kakurasu", data).json(Mode(unique=True))))
    assert main(["solve", "kakurasu", "--data", str(data), "--unique", "--json"]) == 0
    theirs = json.loads(capsys.readouterr().out)
    for obj in (mine, theirs):
        del obj["timings"], obj["stats"]
    assert mine == theirs and mine["unique"] is True


def test_backends_and_solvers_agree() -> None:
    puzzle = puzzledsl.load("kakurasu", rowsum=[3, None, 4], colsum=[None, 3, None])
    expected = kakurasu_count([3, None, 4], [None, 3, None])
    assert puzzle.using(backend="z3").count() == expected == puzzle.using(solver="glucose4").count()


def test_solutions_print_as_boards() -> None:
    puzzle = puzzledsl.load("kakurasu", rowsum=KAKU_ROWS, colsum=KAKU_COLS)
    text = str(puzzle.solve())
    lines = text.splitlines()
    assert lines[0].split() == ["■", "·", "·", "·", "·", "1"]
    assert lines[-1].split() == [str(c) for c in KAKU_COLS]
    buffer = io.StringIO()
    Console(file=buffer, width=80, color_system="truecolor", force_terminal=True).print(puzzle.solve())
    assert "\x1b[" in buffer.getvalue() and "■" in buffer.getvalue()
    assert repr(puzzle) == "<puzzledsl.Puzzle 'Kakurasu'>"


def test_notebooks_show_boards() -> None:
    solution = puzzledsl.load("kakurasu", rowsum=KAKU_ROWS, colsum=KAKU_COLS).solve()
    html = solution._repr_html_()
    assert html.startswith("<pre") and "■" in html and "color" in html and ">13" in html.replace(" ", "")

    class Printer:
        text_seen = ""

        def text(self, t: str) -> None:
            self.text_seen += t
    printer = Printer()
    solution._repr_pretty_(printer, False)
    assert printer.text_seen == str(solution)


def test_the_docs_page_runs(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Every ```python block of docs/api.md, in order, in one namespace (as a notebook would)."""
    page = (ROOT / "docs" / "api.md").read_text()
    monkeypatch.chdir(ROOT)
    namespace: dict[str, object] = {}
    blocks = list(re.finditer(r"```python\n(.*?)```", page, re.S))
    assert len(blocks) >= 5
    for m in blocks:
        first_line = page.count("\n", 0, m.start(1))
        exec(compile("\n" * first_line + m.group(1), str(ROOT / "docs" / "api.md"), "exec"), namespace)
    assert "■" in capsys.readouterr().out


def test_explain_through_the_api():
    """Friction log 15: explanations and grades had no API (`Puzzle.explain`); progress as rows of
    strings or nested lists, a misspelt grid named."""
    import pytest

    p = puzzledsl.load(ROOT / "puzzles" / "kakurasu" / "seed-5x5.puz")
    ex = p.explain()
    assert ex.status == "unique" and ex.grade()["steps"] == len(ex.steps) > 0
    rows = p.explain({"black": [[True, False, False, False, False]] + [[None] * 5] * 4}, only_next=True)
    assert len(rows.steps) == 1 and all(f.key[0] > 1 for f in rows.steps[0].fixed)  # row 1 was given
    with pytest.raises(puzzledsl.PuzzleError, match="`blak` in the progress is no decision variable"):
        p.explain({"blak": []})


def test_a_generator_s_grid_of_ints_reads_as_the_command_line_reads_it():
    """Friction log 15 (a BWINF student's generator): `num=[[1, 0, 1]]` was "no solution" (0 read as
    the number 0, where the BWINF text's `0` is empty), and a number three or four times was "no
    solution" or even "not unique"; the command line's importer refuses those. Now a number whose
    digits are a legend token reads as that token, and the rules say each number is there twice."""
    import pytest

    from puzzledsl.solve import Mode
    assert puzzledsl.load("arukone", num=[[1, 0, 1]]).verdict().unique is True
    quad = [[1, 0, 0, 0, 2], [0] * 5, [0, 0, 1, 0, 0], [0, 0, 0, 1, 0], [1, 0, 0, 0, 2]]
    out = puzzledsl.load("arukone", num=quad).outcome(Mode(unique=True))
    assert out.status == "unsat" and out.conflict[0][0] == "every number is on the board twice"
    assert "(where k = 1)" in out.conflict[0][1]
    crossed = [[None] * 8 for _ in range(8)]
    crossed[0][0] = crossed[7][7] = 1
    crossed[0][7] = crossed[7][0] = 2
    with pytest.raises(puzzledsl.TimeLimitReached) as err:  # refuting the crossing takes longer than this
        puzzledsl.load("arukone", num=crossed).using(time_limit=0.001).unique()
    assert err.value.partial == []  # a list, as for a verdict cut short later (was None)


def test_generate_through_the_api_makes_what_the_command_line_makes(capsys, tmp_path):
    """`Rules.generate` yields bound puzzles, the same ones `puzzledsl generate` writes for the
    same seed; each is unique, and its text reads back as data with the same solution."""
    from puzzledsl.cli import main
    kakurasu = puzzledsl.rules("kakurasu")
    made = list(kakurasu.generate("5x5", count=2, seed=3))
    assert main(["generate", "kakurasu", "--size", "5x5", "--count", "2", "--seed", "3"]) == 0
    printed = capsys.readouterr().out
    assert printed == "".join(g.text + "\n" for g in made)
    for i, g in enumerate(made):
        assert isinstance(g, puzzledsl.Generated) and g.puzzle.unique() and 0 < g.clues <= g.full
        f = tmp_path / f"p{i}.txt"
        f.write_text(g.text)
        assert kakurasu.bind(f).solve() == g.puzzle.solve()


def test_generate_through_the_api_says_why_it_stopped():
    """No unique puzzle within the tries: `PuzzleError` names the puzzle and the reason."""
    rules = puzzledsl.rules_from_text("given N: int\ngiven hint[1..N]: int? in 0..1\nvar x[1..N]: bool\n"
                                      "rule forall i in 1..N where known(hint[i]): x[i] or not x[i]\n")
    with pytest.raises(puzzledsl.PuzzleError, match="puzzle 1: "):
        list(rules.generate(set={"N": 3}, count=1))
