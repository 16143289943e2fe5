"""`puzzledsl explain`: every step replayed by an independent brute-force checker
(`tests/explain_checker.py`, written from the rule texts), the whole sequence ending at the
solution, `--next` from a partly filled board, and the CLI's output and exit codes."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from puzzledsl.cli import main
from puzzledsl.compile import compile_file, compile_givens, load_rules
from puzzledsl.explain import Explanation, explain
from puzzledsl.importers import load_with
from puzzledsl.solve import Mode, solve
from tests import explain_checker as ck
from tests.datasets import BATTLESHIP_JSON, DATA, KAKURASU_JSON, requires_data

PUZZLES = Path(__file__).resolve().parents[1] / "puzzles"

# janko.at puzzles as read from the puzzlekit dataset (SmilingWayne/puzzlekit-dataset, 53de2fc)
BATTLESHIP_71 = ("6 6 3 2 1 0 0\n1 2 1 3 0 3\n2 0 2 1 1 4\n- - w - - -\n- - - - - -\n- - - - - -\n"
                 "- - - - - -\n- - - - - -\n- - - - - -")
HITORI_01 = "4 4\n3 3 1 4\n4 3 2 2\n1 3 4 2\n3 4 3 2"
HITORI_02 = "5 5\n3 4 5 5 2\n3 2 3 5 4\n2 1 4 5 5\n2 3 1 4 1\n2 5 2 3 2"


def _kakurasu():
    compiled = compile_file(PUZZLES / "kakurasu" / "seed-5x5.puz", located=True)
    return compiled, ck.kakurasu([1, 5, 6, 10, 6], [13, 3, 3, 4, 11])


def _battleship():
    g = load_with("janko_battleship", BATTLESHIP_71, "71_6x6")[0][1]
    compiled = compile_givens(load_rules(PUZZLES / "battleship.puz"), g, located=True)
    hint = {(r, c): x for r, row in enumerate(g["hint"], 1) for c, x in enumerate(row, 1) if x != "-"}
    return compiled, ck.battleship(g["rowsum"], g["colsum"], g["fleet"], hint)


def _hitori(text: str):
    def make():
        g = load_with("janko_hitori", text, "h")[0][1]
        compiled = compile_givens(load_rules(PUZZLES / "hitori.puz"), g, located=True)
        return compiled, ck.hitori([[int(x) for x in row] for row in g["number"]])
    return make


BOARDS = {"kakurasu-5x5": _kakurasu, "battleship-6x6": _battleship, "hitori-4x4": _hitori(HITORI_01),
          "hitori-5x5": _hitori(HITORI_02)}


def replay(out: Explanation, instance) -> None:
    """Each step's reasons force its cells (brute force), and it uses only cells fixed before."""
    known: dict[tuple, object] = {f.key: f.value for f in out.given}
    for n, step in enumerate(out.steps, 1):
        for f in step.uses:
            assert known.get(f.key) == f.value, f"step {n} uses {f.where()} before it is fixed"
        instances = [instance(r.label, dict(r.binding)) for r in step.reasons]
        fixed = {f.key: f.value for f in step.uses}
        for f in step.fixed:
            assert f.key not in known, f"step {n} fixes {f.where()} again"
            bad = ck.counterexample(instances, fixed, f.key, f.value)
            assert bad is None, f"step {n}: its reasons do not force {f.where()} = {f.value}: {sorted(bad.items())}"
        for f in step.fixed:
            known[f.key] = f.value


@pytest.mark.parametrize("name", sorted(BOARDS))
def test_every_step_is_forced_by_its_reasons(name: str) -> None:
    compiled, instance = BOARDS[name]()
    out = explain(compiled)
    assert out.status == "unique" and not out.timed_out
    replay(out, instance)


@pytest.mark.parametrize("name", sorted(BOARDS))
def test_the_steps_reach_the_solution(name: str) -> None:
    compiled, _ = BOARDS[name]()
    out = explain(compiled)
    solved = solve(compiled, mode=Mode(unique=True))
    assert solved.unique is True
    sol = solved.solutions[0]
    reached = {(f.name, f.key): f.value for s in out.steps for f in s.fixed}
    assert len(reached) == sum(1 for s in out.steps for _ in s.fixed)  # no cell twice
    expected = {(n, k): v for n in (compiled.answer or compiled.grids) for k, v in sol[n].cells.items()}
    assert reached == expected


@pytest.mark.parametrize("name", ["kakurasu-5x5", "hitori-4x4", "hitori-5x5"])
def test_each_rule_instance_of_a_step_is_needed(name: str) -> None:
    """Minimality: leaving out any cited rule instance lets a single-cell step's cell change."""
    compiled, instance = BOARDS[name]()
    for step in explain(compiled).steps:
        if len(step.fixed) != 1 or len(step.reasons) < 2:
            continue
        f = step.fixed[0]
        fixed = {u.key: u.value for u in step.uses}
        for r in step.reasons:
            rest = [instance(x.label, dict(x.binding)) for x in step.reasons if x is not r]
            assert ck.counterexample(rest, fixed, f.key, f.value) is not None


def test_slitherlink_local_steps_replay_by_brute_force() -> None:
    """A loop genre: every step whose reasons are local (clues, the degree of a dot) replayed
    from the rule text; the steps that cite the loop's connectivity are replayed on a fresh
    solver (`test_other_genres_replay_on_a_fresh_solver`)."""
    compiled = compile_file(PUZZLES / "slitherlink" / "1_4x4.puz", located=True)
    instance = ck.slitherlink([[1, None, None, 0], [None] * 4, [1, None, 2, 1], [None, 2, 3, None]])
    out = explain(compiled)
    local = [s for s in out.steps if all(r.label not in ("one loop", "there is a loop") for r in s.reasons)]
    assert len(local) >= len(out.steps) // 2
    known: dict[tuple, object] = {}
    for n, step in enumerate(out.steps, 1):
        for f in step.uses:
            assert known.get(f.key) == f.value, f"step {n} uses {f.where()} before it is fixed"
        if step in local:
            instances = [instance(r.label, dict(r.binding)) for r in step.reasons]
            fixed = {f.key: f.value for f in step.uses}
            for f in step.fixed:
                bad = ck.counterexample(instances, fixed, f.key, f.value)
                assert bad is None, f"step {n}: its reasons do not force {f.where()} = {f.value}"
        known.update((f.key, f.value) for f in step.fixed)
    # not vacuous: one dot's rule alone does not force its edges
    assert ck.counterexample([instance("the loop never branches or ends", {"r": 1, "c": 1})], {},
                             (0, 1, 1, 1), True) is not None


def test_grade_is_computed_from_the_steps() -> None:
    compiled, _ = _battleship()
    out = explain(compiled)
    g = out.grade()
    sizes = [s.size for s in out.steps]
    assert g["steps"] == len(sizes) and g["hardest"] == max(sizes)
    assert g["hard_steps"] == sum(1 for n in sizes if n >= 3)
    assert g["grade"] == pytest.approx(g["hardest"] + g["hard_steps"] / 100)


def test_the_checker_catches_a_wrong_step() -> None:
    """The replay is not vacuous: a row's sum alone does not force a cell it allows both ways."""
    instance = ck.kakurasu([1, 5, 6, 10, 6], [13, 3, 3, 4, 11])
    row2 = [instance("row sums", {"r": 2})]  # 5 = 5 or 1 + 4 or 2 + 3
    assert ck.counterexample(row2, {}, (2, 5), True) is not None
    assert ck.counterexample([instance("row sums", {"r": 1})], {}, (1, 1), True) is None


# ------------------------------------------------------------------ --next and the CLI

PROGRESS = """black = [[true, false, false, false, false],
         [false, ?, ?, ?, ?],
         [true, ?, ?, ?, ?],
         [true, ?, ?, ?, ?],
         [true, ?, ?, ?, ?]]
"""


def test_next_from_progress(tmp_path: Path, capsys) -> None:
    progress = tmp_path / "progress.txt"
    progress.write_text(PROGRESS)
    code = main(["explain", str(PUZZLES / "kakurasu" / "seed-5x5.puz"), "--progress", str(progress), "--next",
                 "--json"])
    assert code == 0
    obj = json.loads(capsys.readouterr().out)
    assert obj["status"] == "unique" and len(obj["steps"]) == 1
    step = obj["steps"][0]
    assert step["size"] == 1 and step["reasons"][0]["at"].endswith("kakurasu.puz:18")
    given = {tuple(c["index"]) for c in obj["progress"]}
    assert len(given) == 9 and all(tuple(c["index"]) not in given for c in step["cells"])
    # the step's cells follow from what it cites
    instance = ck.kakurasu([1, 5, 6, 10, 6], [13, 3, 3, 4, 11])
    inst = [instance(r["rule"], r["binding"]) for r in step["reasons"]]
    uses = {tuple(c["index"]): c["value"] for c in step["uses"]}
    for c in step["cells"]:
        assert ck.counterexample(inst, uses, tuple(c["index"]), c["value"]) is None


def test_next_says_when_the_progress_is_wrong(tmp_path: Path, capsys) -> None:
    progress = tmp_path / "progress.txt"
    progress.write_text(PROGRESS.replace("[true, false, false", "[false, true, false", 1))
    code = main(["explain", str(PUZZLES / "kakurasu" / "seed-5x5.puz"), "--progress", str(progress), "--next",
                 "--no-color"])
    assert code == 1
    text = capsys.readouterr().out
    assert "black[1, 1] is false, but the solution has true" in text


def test_human_output_marks_cells_by_glyph(capsys) -> None:
    code = main(["explain", str(PUZZLES / "kakurasu" / "seed-5x5.puz"), "--no-color"])
    assert code == 0
    text = capsys.readouterr().out
    assert text.startswith("explained — Kakurasu:")
    assert 'because rule "row sums" at r = 1' in text
    assert "■* ·* ·* ·* ·*  1" in text  # step 1 fixes row 1, marked with *
    assert "+" in text.split("step 7")[1]  # a later step shows the cells it uses


def test_a_line_runs_on_through_the_mark_column(tmp_path: Path, capsys) -> None:
    """The column kept after each cell for a step's mark carries a line going right, so a loop
    is drawn unbroken (it read `┌ ──── ─┐`)."""
    f = tmp_path / "ring.puz"
    f.write_text("var line[1..2, 1..3]: edges\n"
                 "rule forall p in cells(line): degree(line, p) == 2\nrule connected(line)\n")
    assert main(["explain", str(f), "--no-color"]) == 0
    final = capsys.readouterr().out.rstrip().splitlines()[-3:]
    assert final[0].startswith("┌──") and final[-1].startswith("└──"), final
    assert "┌ ─" not in "\n".join(final) and "─ ─" not in "\n".join(final)


def test_an_edge_is_named_by_its_two_cells(tmp_path: Path, capsys) -> None:
    """Friction log 11: an edge read `link[1, 1, 1, 2]` (its two cells run together) in the text and
    `"index": [1, 1, 1, 2]` in the JSON; the rules write `link[(1, 1), (1, 2)]`, `solve --json` the
    edge as its two cells."""
    f = tmp_path / "ring.puz"
    f.write_text("var line[1..2, 1..3]: edges\n"
                 "rule forall p in cells(line): degree(line, p) == 2\nrule connected(line)\n")
    assert main(["explain", str(f), "--no-color"]) == 0
    text = capsys.readouterr().out
    assert re.search(r"line\[\(\d, \d\), \(\d, \d\)\] = (true|false)", text), text
    assert main(["explain", str(f), "--json"]) == 0
    cells = [c for st in json.loads(capsys.readouterr().out)["steps"] for c in st["cells"]]
    assert cells and all(len(c["index"]) == 2 and all(len(p) == 2 for p in c["index"]) for c in cells)


def test_a_line_going_down_is_drawn_under_its_cell(capsys) -> None:
    """With cells three characters wide (a clue `1←` and its mark), the `│` between two rows
    stands under the cell's own glyph, not one column to the right of it."""
    yajilin = Path(__file__).resolve().parents[1] / "docs" / "examples" / "yajilin-7x7.puz"
    assert main(["explain", str(yajilin), "--no-color"]) == 0
    final = capsys.readouterr().out.rstrip().splitlines()[-13:]
    downs = set("│┌┐├┤┬┼╷")
    for above, under in zip(final, final[1:]):
        for i, ch in enumerate(under):
            if ch == "│" and not above.startswith("step"):
                assert i < len(above) and above[i] in downs, (above, under, i)


def test_copied_givens_are_one_block_of_steps(capsys) -> None:
    """Steps that each fix one cell by one rule instance alone (a Sudoku's givens) come first and
    are drawn as one board, not one board per given; the JSON keeps them as steps."""
    code = main(["explain", str(PUZZLES / "sudoku" / "constructed-4x4.puz"), "--no-color"])
    assert code == 0
    text = capsys.readouterr().out
    assert 'steps 1–5: each fixes one cell' in text
    assert 'by rule "givens" (5 cells): x[1, 1] = 1, x[2, 2] = 4' in text
    assert "step 1 " not in text and "step 6 (2 rule instances)" in text
    assert text.count("┏") == 1 + (16 - 5)  # one board for the block, one per later step
    assert main(["explain", str(PUZZLES / "sudoku" / "constructed-4x4.puz"), "--json"]) == 0
    steps = json.loads(capsys.readouterr().out)["steps"]
    assert len(steps) == 16 and all(s["reasons"][0]["rule"] == "givens" for s in steps[:5])


def test_not_unique_is_said(tmp_path: Path, capsys) -> None:
    data = tmp_path / "d.txt"
    data.write_text("rowsum = [?, ?]\ncolsum = [?, ?]\n")  # no clues: every board is a solution
    code = main(["explain", str(PUZZLES / "kakurasu.puz"), "--data", str(data), "--json"])
    assert code == 1
    assert json.loads(capsys.readouterr().out)["status"] == "not unique"


def test_no_solution(tmp_path: Path, capsys) -> None:
    data = tmp_path / "d.txt"
    data.write_text("rowsum = [2, 2]\ncolsum = [1, 1]\n")
    assert main(["explain", str(PUZZLES / "kakurasu.puz"), "--data", str(data), "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["status"] == "unsat"


# ------------------------------------------------------------------ real 10×10 janko puzzles


def _janko(genre: str, path: Path, importer: str, iid: str):
    from tests.datasets import read_text

    g = dict(load_with(importer, read_text(path), str(path)))[iid]
    compiled = compile_givens(load_rules(PUZZLES / f"{genre}.puz"), g, located=True)
    if genre == "kakurasu":
        return compiled, ck.kakurasu(g["rowsum"], g["colsum"])
    if genre == "hitori":
        return compiled, ck.hitori([[int(x) for x in row] for row in g["number"]])
    hint = {(r, c): x for r, row in enumerate(g["hint"], 1) for c, x in enumerate(row, 1) if x != "-"}
    return compiled, ck.battleship(g["rowsum"], g["colsum"], g["fleet"], hint)


@requires_data
@pytest.mark.parametrize("genre, iid", [("kakurasu", "377_10x10"), ("kakurasu", "580_10x10"),
                                        ("hitori", "211_10x10"), ("hitori", "505_10x10"),
                                        ("battleship", "541_10x10")])
def test_real_10x10_explanations_replay(genre: str, iid: str) -> None:
    files = {"kakurasu": (KAKURASU_JSON, "puzzlekit_kakurasu"), "hitori": (DATA / "genres" / "Hitori.json",
             "puzzlekit_hitori"), "battleship": (BATTLESHIP_JSON, "puzzlekit_battleship")}
    compiled, instance = _janko(genre, *files[genre], iid)
    out = explain(compiled)
    assert out.status == "unique"
    replay(out, instance)
    assert sum(len(s.fixed) for s in out.steps) == len(out.facts)


def test_next_on_a_filled_board_says_solved(tmp_path: Path, capsys) -> None:
    progress = tmp_path / "progress.txt"
    progress.write_text("black = [[true, false, false, false, false], [false, false, false, false, true],"
                        " [true, true, true, false, false], [true, false, false, true, true],"
                        " [true, false, false, false, true]]\n")
    assert main(["explain", str(PUZZLES / "kakurasu" / "seed-5x5.puz"), "--progress", str(progress),
                 "--next", "--no-color"]) == 0
    assert "every cell is already filled in" in capsys.readouterr().out


def test_a_solution_in_the_data_is_not_progress(tmp_path: Path, capsys) -> None:
    data = tmp_path / "d.txt"
    data.write_text("rowsum = [1, 5, 6, 10, 6]\ncolsum = [13, 3, 3, 4, 11]\n"
                    "black = [[true, false, false, false, false], [false, false, false, false, true],"
                    " [true, true, true, false, false], [true, false, false, true, true],"
                    " [true, false, false, false, true]]\n")
    assert main(["explain", str(PUZZLES / "kakurasu.puz"), "--data", str(data), "--json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert obj["note"].startswith("the data gives a whole solution") and obj["progress"] == []
    assert sum(len(s["cells"]) for s in obj["steps"]) == 25


def test_time_limit_exit_code(capsys) -> None:
    code = main(["explain", str(PUZZLES / "battleship" / "csplib-113.puz"), "--time-limit", "0.000001", "--json"])
    assert code == 3


def test_time_limit_heads_the_text_as_unfinished(capsys) -> None:
    """Friction log 11: cut short after some steps, the text began `explained — …: 28 steps,
    grade …` as if complete; only its last line said otherwise."""
    code = main(["explain", str(PUZZLES / "battleship" / "csplib-113.puz"), "--time-limit", "1", "--no-color"])
    head = capsys.readouterr().out.splitlines()[0]
    assert code == 3 and head.startswith("time limit reached") and "explained" not in head, head


# ------------------------------------------------------------------ any genre: a fresh solver per step


def fresh_replay(compiled, out: Explanation) -> None:
    """Each step replayed on a fresh solver that holds only the rule instances it cites (and
    the variables' own domains): with its cited cells, no fixed cell can take another value."""
    from pysat.solvers import Solver

    from puzzledsl import graphs
    from puzzledsl.encode.cnf import CnfEncoder

    model = compiled.model
    for n, step in enumerate(out.steps, 1):
        reasons = [(r.label, r.rule, r.binding) for r in step.reasons]
        keep = [a for a in model.assertions if a.binding is None or (a.label, a.rule, a.binding) in reasons]
        lazy = [g for g in model.graphs if (g.label, g.rule, ()) in reasons]
        clauses = CnfEncoder(model).add(keep)
        with Solver(name="cadical195", bootstrap_with=clauses) as s:
            uses = [lit for f in step.uses for lit in f.lits]
            for f in step.fixed:
                flip = model.top + 1000 + n
                s.add_clause([-flip, *(-lit for lit in f.lits)])
                while s.solve(assumptions=uses + [flip]):
                    true = {v for v in s.get_model() if v > 0}
                    cuts = graphs.check(lazy, true).cuts
                    assert cuts, f"step {n}: {f.where()} = {f.value} is not forced by {step.reasons}"
                    for cut in cuts:
                        s.add_clause(cut)
                s.add_clause([-flip])


@pytest.mark.parametrize("path", ["slitherlink/1_4x4.puz", "masyu/02_6x6.puz", "sudoku/constructed-4x4.puz",
                                  "star-battle/constructed-6x6.puz", "akari/constructed-7x7.puz"])
def test_other_genres_replay_on_a_fresh_solver(path: str) -> None:
    compiled = compile_file(PUZZLES / path, located=True)
    out = explain(compiled)
    assert out.status == "unique"
    assert sum(len(s.fixed) for s in out.steps) == len(out.facts)
    fresh_replay(compiled, out)


@requires_data
@pytest.mark.parametrize("genre, iid", [("nurikabe", "103_5x5"), ("nurikabe", "20_6x6"), ("nurikabe", "26_7x7"),
                                        ("masyu", "101_10x10"), ("slitherlink", "101_10x10")])
def test_lines_loops_and_regions_replay_on_a_fresh_solver(genre: str, iid: str) -> None:
    """Genres with graph rules (a region genre, two loop genres; janko.at via the puzzlekit
    dataset): every step replayed on a fresh solver, and the whole board reached."""
    from tests.datasets import read_text

    path = DATA / "genres" / f"{genre.capitalize()}.json"
    g = dict(load_with(f"puzzlekit_{genre}", read_text(path), str(path)))[iid]
    compiled = compile_givens(load_rules(PUZZLES / f"{genre}.puz"), g, located=True)
    out = explain(compiled, time_limit=60)
    assert out.status == "unique" and not out.timed_out
    assert sum(len(s.fixed) for s in out.steps) == len(out.facts)
    fresh_replay(compiled, out)


def test_next_on_a_loop_genre_replays() -> None:
    """`--next` (the leaning solver's first answers) from the empty board and from a board
    half filled gives a step its reasons force."""
    compiled = compile_file(PUZZLES / "masyu" / "02_6x6.puz", located=True)
    full = explain(compiled)
    first = explain(compiled, only_next=True)
    fresh_replay(compiled, first)
    grids = {}
    for name, grid in compiled.grids.items():
        vals = grid.empty_like()
        vals.cells = dict.fromkeys(grid.keys(), None)
        grids[name] = vals
    half = [f for s in full.steps[: len(full.steps) // 2] for f in s.fixed]
    for f in half:
        grids[f.name].cells[f.key] = f.value
    nxt = explain(compiled, grids, only_next=True)
    assert half and len(nxt.steps) == 1 and len(nxt.given) == len(half)
    assert not {(f.name, f.key) for f in nxt.steps[0].fixed} & {(f.name, f.key) for f in nxt.given}
    fresh_replay(compiled, nxt)


@pytest.mark.parametrize("name", sorted(BOARDS))
def test_the_boards_replay_on_a_fresh_solver(name: str) -> None:
    compiled, _ = BOARDS[name]()
    out = explain(compiled)
    fresh_replay(compiled, out)


def test_a_misspelt_grid_in_a_progress_file_is_named(tmp_path, capsys):
    """Friction log 15: `blak = …` in a progress file was reported as "the solution file gives no
    value to a decision variable", listing every helper variable of the rules."""
    import json as _json
    data = tmp_path / "n.json"
    data.write_text(_json.dumps({"board": [[1, None, 1], [None, None, None], [None, None, 3]]}))
    progress = tmp_path / "p.txt"
    progress.write_text('blak = """\n? ? ?\n? ? ?\n? ? ?\n"""\n')
    assert main(["explain", "nurikabe", "--data", str(data), "--progress", str(progress), "--next"]) == 2
    err = capsys.readouterr().err
    assert "the progress file gives no value to a decision variable: `blak` is none of them" in err
    assert "did you mean `black`?" in err and "its answer: `black`" in err


def test_an_edge_known_to_be_empty_is_marked_in_a_step(tmp_path, capsys):
    """Friction log 15: a step fixing `line[…] = false` left the picture unchanged (no line and not
    yet known looked alike). A partly known board of lines marks "no line" with `×`; a finished
    board (`solve`) does not."""
    import json as _json
    data = tmp_path / "s.json"
    data.write_text(_json.dumps({"clue": [[3, 2, None], [None, None, 2], [2, 2, 3]]}))
    assert main(["explain", "slitherlink", "--data", str(data), "--no-color"]) == 0
    out = capsys.readouterr().out
    step = out.split("= false", 1)[1].split("\nstep ", 1)[0]
    assert "×" in step
    assert main(["solve", "slitherlink", "--data", str(data), "--no-color"]) == 0
    assert "×" not in capsys.readouterr().out


def test_slitherlink_steps_show_the_clues_and_no_board_of_question_marks(capsys) -> None:
    """The loop is drawn with its clues between the dots, so every step shows them; the shaded
    view, which reads the whole loop to its left, is left out while none of it is known (it was
    a board of `?` at every early step)."""
    rc = main(["explain", str(PUZZLES / "slitherlink" / "1_4x4.puz"), "--no-color"])
    out = capsys.readouterr().out
    assert rc == 0
    first = out.split("\nstep 2 ")[0].split("\nstep 1 ")[1]
    assert " 1" in first and " 0" in first and " 3" in first  # the clues beside the dots
    assert not re.search(r"^\?(  \?)+\s*$", first, re.M)


def test_a_view_of_clue_lists_is_drawn_in_the_steps(capsys) -> None:
    """A view whose cells are lists (Tapa's clues, `?/?/?`) is drawn as the renderer draws it;
    deciding whether it shows anything yet ended in a TypeError (unhashable list; found by
    `bench/fuzz_cli.py --seed 16`)."""
    rc = main(["explain", str(PUZZLES / "tapa" / "cspuz-6x8.puz"), "--no-color", "--time-limit", "30"])
    out = capsys.readouterr().out
    assert rc == 0
    assert "?/?/?" in out and "3/?/?" in out


def test_a_view_over_a_given_marks_the_cells_a_step_fixes(tmp_path: Path, capsys) -> None:
    """Friction log 17: a board drawn as a view over a clue grid (`show cell over clue`, as in
    docs/examples/cave.puz) showed no `*` or `+` at all; the marks are the decisions' at its cells."""
    f = tmp_path / "view.puz"
    f.write_text('given g[1..1, 1..3]: int? legend { ".": ? }\nvar b[1..1, 1..3]: bool\n'
                 'rule "clues": forall p in cells(g) where known(g[p]): b[p] == (g[p] == 1)\n'
                 'rule "one shaded": count(p in cells(b): b[p]) == 1\n'
                 'define cell(r, c) = if known(g[r, c]) then g[r, c] else b[r, c]\n'
                 'show cell over g { true: "#", false: "." }\n'
                 'g = """\n0 . 0\n"""\n')
    assert main(["explain", str(f), "--no-color"]) == 0
    out = capsys.readouterr().out
    assert "0* ?  0*" in out  # the two clue cells' decisions, fixed by the first steps
    assert "0+ #* 0+" in out  # the last step fixes the middle and uses both


def test_cells_fixed_by_one_rule_instance_alone_come_first(capsys) -> None:
    """Friction log 17: the steps that copy a clue into its cell came scattered among the others
    (steps 1-5, 7, 8, 11-14 and 16), rounds of limited size finding them late; they use no earlier
    step, so they all come first, as one block."""
    puzzle = PUZZLES.parent / "tests" / "data" / "friction" / "canal-view-5x5.puz"
    assert main(["explain", str(puzzle), "--json"]) == 0
    steps = json.loads(capsys.readouterr().out)["steps"]
    alone = [s["size"] == 1 and not s["uses"] and len(s["cells"]) == 1 for s in steps]
    n = alone.index(False)
    assert n >= 12 and not any(alone[n:])  # every clue cell's "unshaded", and nothing of the kind after
