"""Streaming every solution as JSON lines (`--json-stream`), the solver's statistics
(`--stats`), and the differences of a second solution marked by glyph without colour."""

from __future__ import annotations

import io
import json
import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

import puzzledsl
from puzzledsl.cli import main
from tests.bruteforce import kakurasu_count
from tests.checkers import check_kakurasu
from tests.test_api import random_clues

ROOT = Path(__file__).resolve().parents[1]


def kakurasu_data(tmp_path: Path, rowsum: list[int | None], colsum: list[int | None]) -> Path:
    path = tmp_path / "k.txt"
    path.write_text(f"rowsum = {rowsum}\ncolsum = {colsum}\n".replace("None", "?"))
    return path


def stream(capsys: pytest.CaptureFixture[str], *args: object) -> tuple[int, list[dict], dict]:
    capsys.readouterr()
    rc = main(["solve", *map(str, args), "--json-stream"])
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [x["type"] for x in lines] == ["solution"] * (len(lines) - 1) + ["summary"]
    return rc, lines[:-1], lines[-1]


@pytest.mark.parametrize("seed", range(6))
def test_the_stream_holds_every_solution_once(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                              seed: int) -> None:
    rng = random.Random(100 + seed)
    rowsum, colsum = random_clues(rng, rng.randint(2, 4), rng.randint(2, 4))
    rc, sols, summary = stream(capsys, "kakurasu", "--data", kakurasu_data(tmp_path, rowsum, colsum))
    boards = [s["values"]["black"] for s in sols]
    assert rc == 0 and len(boards) == kakurasu_count(rowsum, colsum) == summary["count"]
    assert [s["index"] for s in sols] == list(range(1, len(sols) + 1))
    assert all(check_kakurasu(rowsum, colsum, b) == [] for b in boards)
    assert len({json.dumps(b) for b in boards}) == len(boards)
    assert summary["complete"] is True and summary["status"] == "sat"


def test_the_stream_stops_at_count_and_reports_no_solution(capsys: pytest.CaptureFixture[str],
                                                           tmp_path: Path) -> None:
    rows, cols = [3, None, None], [None, 4, None]
    assert kakurasu_count(rows, cols) > 2
    rc, sols, summary = stream(capsys, "kakurasu", "--data", kakurasu_data(tmp_path, rows, cols), "--count", "2")
    assert rc == 0 and len(sols) == 2 and summary["count"] == 2 and summary["complete"] is False
    rc, sols, summary = stream(capsys, "kakurasu", "--data", kakurasu_data(tmp_path, [2, 2], [1, None]),
                               "--backend", "z3")
    assert rc == 1 and sols == [] and summary["status"] == "unsat" and summary["complete"] is True


def test_the_stream_is_written_as_solutions_are_found(tmp_path: Path) -> None:
    """A puzzle with 2^144 solutions: the first line arrives long before the time limit."""
    data = kakurasu_data(tmp_path, [None] * 12, [None] * 12)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "puzzledsl", "solve", "kakurasu", "--data", str(data),
                             "--json-stream", "--time-limit", "60"], stdout=subprocess.PIPE, text=True, env=env)
    try:
        first = json.loads(proc.stdout.readline())
        assert first["type"] == "solution" and proc.poll() is None
    finally:
        proc.kill()
        proc.wait()


@pytest.mark.parametrize("flags", [["--json-stream"], ["--all", "--json"]], ids=" ".join)
def test_ctrl_c_ends_the_stream_with_a_summary(tmp_path: Path, flags: list[str]) -> None:
    """The lines written stand; the summary counts them and says `interrupted` (exit 130)."""
    data = kakurasu_data(tmp_path, [None] * 12, [None] * 12)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "puzzledsl", "solve", "kakurasu", "--data", str(data), *flags],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        first = proc.stdout.readline()
        proc.send_signal(signal.SIGINT)
        out = first + proc.stdout.read()  # not communicate(): it would skip what readline buffered
        err = proc.stderr.read()
        proc.wait(timeout=30)
    finally:
        proc.kill()
        proc.wait()
    lines = [json.loads(line) for line in out.splitlines()]
    summary = lines[-1]
    assert proc.returncode == 130 and summary["type"] == "summary" and summary["interrupted"], err
    assert summary["count"] == len(lines) - 1 and summary["status"] == "sat" and not summary["complete"]
    assert all(x["type"] == "solution" and check_kakurasu([None] * 12, [None] * 12, x["values"]["black"]) == []
               for x in lines[:-1])


def test_a_time_limit_ends_the_stream_with_exit_3(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    data = kakurasu_data(tmp_path, [None] * 12, [None] * 12)
    capsys.readouterr()
    rc = main(["solve", "kakurasu", "--data", str(data), "--json-stream", "--time-limit", "0.3"])
    lines = capsys.readouterr().out.splitlines()
    summary = json.loads(lines[-1])
    assert rc == 3 and summary["timed_out"] and summary["count"] == len(lines) - 1 > 0


def test_the_stream_refuses_plans_and_verdicts(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "peg-solitaire", "--data", "peg-solitaire/tiny-2.txt", "--json-stream"]) == 2
    assert main(["solve", "kakurasu/seed-5x5.puz", "--json-stream", "--unique"]) == 2


@pytest.mark.parametrize("backend", ["sat", "z3"])
def test_stats_are_the_solvers_counters(capsys: pytest.CaptureFixture[str], backend: str) -> None:
    sudoku = "sudoku/wikipedia.puz"
    capsys.readouterr()
    assert main(["solve", sudoku, "--unique", "--json", "--backend", backend]) == 0
    stats = json.loads(capsys.readouterr().out)["stats"]
    assert stats["propagations"] > 0 and ("decisions" in stats or backend == "z3")  # z3 omits zero counters
    assert main(["solve", sudoku, "--unique", "--stats", "--no-color", "--backend", backend]) == 0
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if x.startswith("solver statistics:"))
    assert f"{stats['propagations']} propagations" in line or backend == "z3"  # z3's counts vary run to run
    assert "propagations" not in out.replace(line, "")  # the footer keeps to sizes and times


def test_stats_of_a_solver_that_keeps_none(capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main(["solve", "kakurasu/seed-5x5.puz", "--solver", "kissat404", "--stats", "--no-color"]) == 0
    assert "solver statistics: none kept by this solver" in capsys.readouterr().out


def _marked_cells(board: str, rows: int) -> set[tuple[int, int]]:
    """The (row, column) of every cell followed by `*` in a plain-text Kakurasu board."""
    out = set()
    for r, line in enumerate(board.splitlines()[:rows]):
        cells = [line[i:i + 3] for i in range(0, len(line), 3)]  # glyph, marker, separator
        out |= {(r, c) for c, cell in enumerate(cells) if cell[1:2] == "*"}
    return out


def test_differences_are_marked_by_glyph_without_colour() -> None:
    puzzle = puzzledsl.load("kakurasu", rowsum=[3, None, None], colsum=[None, 4, None])
    first, second = puzzle.solutions(limit=2)
    differ = {(r, c) for r in range(3) for c in range(3) if first["black"][r][c] != second["black"][r][c]}
    assert differ
    plain = str(second.compared_to(first))
    assert _marked_cells(plain, 3) == differ
    assert "*" not in str(second)  # nothing to compare with, nothing marked
    buffer = io.StringIO()
    Console(file=buffer, force_terminal=True, color_system="standard").print(second.compared_to(first))
    assert "*" not in buffer.getvalue()  # with colour, the colour marks them


def test_the_cli_marks_the_second_solution_under_no_color(capsys: pytest.CaptureFixture[str],
                                                          tmp_path: Path) -> None:
    data = kakurasu_data(tmp_path, [3, None, None], [None, 4, None])
    capsys.readouterr()
    assert main(["solve", "kakurasu", "--data", str(data), "--unique", "--json"]) == 0
    first, second = (s["black"] for s in json.loads(capsys.readouterr().out)["solutions"])
    differ = {(r, c) for r in range(3) for c in range(3) if first[r][c] != second[r][c]}
    assert main(["solve", "kakurasu", "--data", str(data), "--unique", "--no-color"]) == 0
    out = capsys.readouterr().out
    second_board = out.split("not unique")[1].split("\n", 2)[2]
    assert _marked_cells(second_board.lstrip("\n"), 3) == differ


def test_the_second_board_of_a_count_has_a_label(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    data = kakurasu_data(tmp_path, [3, None, None], [None, 4, None])
    capsys.readouterr()
    assert main(["solve", "kakurasu", "--data", str(data), "--count", "3", "--no-color"]) == 0
    out = capsys.readouterr().out
    label = "a second solution, the cells that differ from the first marked *:"
    assert out.count(label) == 1
    assert "*" in out.split(label)[1] and "*" not in out.split(label)[0].replace("marked *", "")


@pytest.mark.parametrize("lazy", [False, True])
def test_the_stream_lists_every_value_of_a_free_cell(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch, lazy: bool) -> None:
    """Cells no rule reads (created lazily: no variable at all) take every value, one line each,
    as `--count 0` counts them: x[1] free, y[1] and y[2] any of 0..2: 18 answers."""
    if lazy:
        monkeypatch.setattr("puzzledsl.ground_declare.LAZY_FROM", 0)
    rules = tmp_path / "l.puz"
    rules.write_text("var x[3]: bool wrap\nvar y[1..2]: 0..2\nrule x[0] and not x[-1]\n")
    rc, sols, summary = stream(capsys, rules, "--all")
    values = [(tuple(s["values"]["x"]), tuple(s["values"]["y"])) for s in sols]
    want = {((True, x1, False), (y1, y2)) for x1 in (False, True) for y1 in range(3) for y2 in range(3)}
    assert rc == 0 and summary["complete"] and summary["count"] == len(values) == len(set(values)) == 18
    assert set(values) == want
    capsys.readouterr()
    assert main(["solve", str(rules), "--count", "0", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["count"] == 18
    rc, sols, summary = stream(capsys, rules, "--count", "5")
    assert len(sols) == summary["count"] == 5 and not summary["complete"] and not summary["timed_out"]


def test_a_ctrl_c_lost_in_a_finaliser_still_ends_a_listing_of_free_cells() -> None:
    """Python drops a KeyboardInterrupt raised while a finaliser runs; the signal is remembered
    (`deadline.check_interrupt`), and a listing of cells no rule reads, which calls no solver
    between its answers, looks at it before each answer."""
    from puzzledsl import deadline
    from puzzledsl.compile import compile_givens, load_rules
    from puzzledsl.enumeration import Enumeration

    compiled = compile_givens(load_rules(ROOT / "puzzles" / "kakurasu.puz"), {"rowsum": [None] * 6,
                                                                              "colsum": [None] * 6})
    listing = iter(Enumeration(compiled))
    next(listing)
    deadline._interrupt.set()  # as the signal handler does before raising
    try:
        with pytest.raises(KeyboardInterrupt):
            next(listing)
    finally:
        deadline.forget_interrupt()
