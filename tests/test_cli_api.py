"""The command line and the Python API give the same answers: `solve` is built on
`puzzledsl.load` and `Puzzle.outcome` / `enumeration` / `plan_search`, and `--unique` and
`Puzzle.verdict()` take the same route. Every answer is also checked independently: the
plain-Python Kakurasu and Arukone checkers, brute-force counts, the peg solitaire simulator."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import puzzledsl
from puzzledsl.api import PLAIN_ROUTE
from tests import pegsol_sim
from tests.arukone_bruteforce import enumerate_solutions
from tests.arukone_checker import check_arukone, normalize_edges
from tests.bruteforce import kakurasu_count
from tests.checkers import check_kakurasu
from tests.datasets import DATA, requires_data
from tests.test_api import random_clues
from tests.test_arukone import random_puzzle
from tests.test_cli import run_main

ROOT = Path(__file__).resolve().parents[1]
KAKURASU = "kakurasu/seed-5x5.puz"
JANKO_ARUKONE = DATA / "arukone" / "janko" / "janko_puzzlekit_NumberLink_dataset.json"


def cli_json(capsys: pytest.CaptureFixture[str], *args: object) -> tuple[int, dict]:
    rc, out, err = run_main(capsys, "solve", *args, "--json")
    assert "Traceback" not in err
    return rc, json.loads(out)


def cli_lines(capsys: pytest.CaptureFixture[str], *args: object) -> tuple[int, list[dict], dict]:
    """`--all --json`: every line is JSON, solutions first, the summary last."""
    rc, out, _ = run_main(capsys, "solve", *args, "--all", "--json")
    lines = [json.loads(line) for line in out.splitlines()]
    assert [x["type"] for x in lines] == ["solution"] * (len(lines) - 1) + ["summary"]
    return rc, [x["values"] for x in lines[:-1]], lines[-1]


def grid_text(name: str, grid: list[list[int | None]]) -> str:
    return f"{name} = {grid}\n".replace("None", "?")


def edges(link: list) -> frozenset:
    return normalize_edges([[(p[0] - 1, p[1] - 1), (q[0] - 1, q[1] - 1)] for p, q in link])


def arukone_ok(clues: list[list[int | None]], solution: dict) -> bool:
    return check_arukone(clues, solution["pair"], edges(solution["link"])) == []


# ------------------------------------------------------------------ Kakurasu


def test_a_bundled_instance_alike(capsys: pytest.CaptureFixture[str]) -> None:
    puzzle = puzzledsl.load(KAKURASU)
    rows, cols = puzzle.compiled.givens["rowsum"].nested(), puzzle.compiled.givens["colsum"].nested()
    rc, obj = cli_json(capsys, KAKURASU, "--unique")
    verdict = puzzle.verdict()
    assert rc == 0 and obj["unique"] is verdict.unique is True
    assert (obj["route"] or PLAIN_ROUTE) == verdict.route == PLAIN_ROUTE  # no `wlog` in these rules
    assert [dict(s) for s in verdict.solutions] == obj["solutions"] == [{"black": obj["solutions"][0]["black"]}]
    assert check_kakurasu(rows, cols, obj["solutions"][0]["black"]) == []
    assert dict(puzzle.solve()) == cli_json(capsys, KAKURASU)[1]["solutions"][0]
    assert dict(puzzle.determined()) == cli_json(capsys, KAKURASU, "--determined")[1]["determined"]


@pytest.mark.parametrize("seed", range(4))
def test_counts_lists_and_verdicts_alike(capsys: pytest.CaptureFixture[str], tmp_path: Path, seed: int) -> None:
    rng = random.Random(300 + seed)
    rows, cols = random_clues(rng, rng.randint(2, 4), rng.randint(2, 4))
    data = tmp_path / "k.txt"
    data.write_text(grid_text("rowsum", rows) + grid_text("colsum", cols))
    puzzle = puzzledsl.load("kakurasu", data)
    expected = kakurasu_count(rows, cols)
    rc, listed, summary = cli_lines(capsys, "kakurasu", "--data", data)
    assert rc == 0 and summary["count"] == len(listed) == expected == puzzle.count()
    assert listed == [dict(s) for s in puzzle.solutions()]  # the same order: the same solver, the same clauses
    assert all(check_kakurasu(rows, cols, s["black"]) == [] for s in listed)
    rc, obj = cli_json(capsys, "kakurasu", "--data", data, "--unique")
    assert obj["unique"] is puzzle.unique() is (expected == 1)
    rc, obj = cli_json(capsys, "kakurasu", "--data", data, "--count", "2")
    assert obj["count"] == puzzle.count(limit=2) == min(expected, 2)


def test_the_cli_asks_the_puzzle(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """`solve` reaches the solver through `Puzzle.outcome`, with the settings given."""
    asked: list[tuple[object, object]] = []
    real = puzzledsl.Puzzle.outcome

    def outcome(self, mode=None, **kw):
        asked.append((mode, self.settings))
        return real(self, mode, **kw)

    monkeypatch.setattr(puzzledsl.Puzzle, "outcome", outcome)
    assert run_main(capsys, "solve", KAKURASU, "--unique", "--backend", "z3", "--time-limit", "60")[0] == 0
    (mode, settings), = asked
    assert mode.unique and settings.backend == "z3" and 0 < settings.time_limit <= 60


# ------------------------------------------------------------------ Arukone: the `wlog` route


def arukone_boards() -> list[list[list[int | None]]]:
    """Random boards (rarely unique under the literal rules: a line may wander through empty
    cells), and boards whose lines have no room to wander."""
    out = []
    for seed in range(700, 706):
        rng = random.Random(seed)
        out.append(random_puzzle(rng, rng.choice([3, 4, 4, 5]), rng.randint(1, 3)))
    return out + [[[1, 2, 3], [None] * 3, [1, 2, 3]], [[1, 2, 3, 4], [None] * 4, [None] * 4, [1, 2, 3, 4]]]


@pytest.mark.parametrize("clues", arukone_boards(), ids=str)
def test_unique_takes_the_same_route(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                     clues: list[list[int | None]]) -> None:
    """`--unique` and `verdict()`: the same verdict, route and solutions, the verdict as brute
    force finds it, every solution passing the checker."""
    data = tmp_path / "a.txt"
    data.write_text(grid_text("num", clues))
    rc, obj = cli_json(capsys, "arukone", "--data", data, "--unique")
    verdict = puzzledsl.load("arukone", num=clues).verdict()
    assert (obj["unique"], obj["route"]) == (verdict.unique, verdict.route)
    assert "wlog touchfree" in verdict.route
    assert obj["solutions"] == [dict(s) for s in verdict.solutions]
    assert all(arukone_ok(clues, s) for s in obj["solutions"])
    count = len(list(enumerate_solutions(clues, limit=2)))
    assert verdict.unique is (count == 1) and rc == (0 if count else 1)


def test_a_known_solution_alike(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """`--solution FILE` and `solution=`: a known solution that touches itself is at once not unique."""
    clues = [[1, None, None], [None, None, None], [None, None, 1]]
    known = [[1, 1, 1], [1, 1, 1], [0, 0, 1]]
    data, sol = tmp_path / "p.txt", tmp_path / "s.txt"
    data.write_text(grid_text("num", clues))
    sol.write_text(grid_text("pair", known))
    rc, obj = cli_json(capsys, "arukone", "--data", data, "--solution", sol, "--unique")
    for solution in (sol, {"pair": known}):
        verdict = puzzledsl.load("arukone", data, solution=solution).verdict()
        assert (obj["unique"], obj["route"]) == (verdict.unique, verdict.route)
        assert "known solution" in verdict.route and verdict.unique is False
        assert obj["solutions"] == [dict(s) for s in verdict.solutions]
    assert rc == 0 and all(arukone_ok(clues, s) for s in obj["solutions"])
    with pytest.raises(puzzledsl.PuzzleError, match="not a decision variable"):
        puzzledsl.load("arukone", data, solution={"num": known})


@requires_data
@pytest.mark.parametrize("iid", ["01_5x5", "12_10x10"])
def test_a_janko_arukone_alike(capsys: pytest.CaptureFixture[str], iid: str) -> None:
    rc, obj = cli_json(capsys, "arukone", "--data", JANKO_ARUKONE, "--instance", iid, "--unique")
    puzzle = puzzledsl.load("arukone", JANKO_ARUKONE, instance=iid)
    verdict = puzzle.verdict()
    assert rc == 0 and obj["unique"] is verdict.unique is True
    # the known solution is in its data
    route = "wlog touchfree, tight: no second solution with touchfree, tight, none extends the known solution"
    assert obj["route"] == verdict.route == route
    clues = puzzle.compiled.givens["num"].nested()
    assert all(arukone_ok(clues, s) for s in [obj["solutions"][0], dict(verdict.solutions[0])])


# ------------------------------------------------------------------ a plan


def test_a_plan_alike(capsys: pytest.CaptureFixture[str]) -> None:
    text = (ROOT / "puzzles" / "peg-solitaire" / "tiny-2.txt").read_text()
    rc, obj = cli_json(capsys, "peg-solitaire", "--data", "peg-solitaire/tiny-2.txt")
    plan = puzzledsl.load("peg-solitaire", "peg-solitaire/tiny-2.txt").plan()
    assert rc == 0 and obj["plan"] == [{"action": a.name, "args": a.args} for a in plan.actions]
    assert obj["moves"] == plan.moves == len(pegsol_sim.solve(text)) and obj["cost"] == plan.cost
    jumps = [(tuple(a["args"][0]), tuple(a["args"][2]), tuple(a["args"][3])) for a in obj["plan"]]
    assert pegsol_sim.is_solution(text, jumps)
