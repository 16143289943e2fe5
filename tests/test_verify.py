"""`puzzledsl verify` (batch uniqueness) and the generic `--option NAME=VALUE`.

Small hand-made Arukone boards in BWINF format keep these fast; one test reads the
official BWINF example from the shared data folder.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from puzzledsl.cli import main
from puzzledsl.cli_support import parse_options
from puzzledsl.errors import PuzzleError
from tests.datasets import DATA, data_file, requires_data

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "puzzles" / "arukone.puz"

UNIQUE = "3\n3\n1 0 1\n2 0 2\n3 0 3\n"  # three straight rows: one solution under every notion
NOT_UNIQUE = "3\n1\n1 0 0\n0 0 0\n0 0 1\n"  # corner to corner: many routes
NO_SOLUTION = "2\n2\n1 2\n2 1\n"  # each pair is cut off by the other's numbers
BROKEN = "3\n1\n1 0\n"  # a row too short, and rows missing
THOMASAHLE = "3 3\nA.A\nB.B\nC.C\n\n3 3\nA..\n...\n..A\n"  # two puzzles in one file


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def run_main(capsys: pytest.CaptureFixture[str], *args: object) -> tuple[int, str, str]:
    capsys.readouterr()
    rc = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return rc, out, err


def verify_json(capsys: pytest.CaptureFixture[str], *args: object) -> tuple[int, dict]:
    rc, out, _ = run_main(capsys, "verify", RULES, *args, "--json")
    return rc, json.loads(out)


def test_all_unique_exit_0(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    files = [write(tmp_path, f"u{i}.txt", UNIQUE) for i in range(3)]
    rc, obj = verify_json(capsys, *files, "--jobs", "1")
    assert rc == 0
    assert [p["verdict"] for p in obj["puzzles"]] == ["unique"] * 3
    assert obj["summary"]["counts"]["unique"] == 3 and obj["summary"]["exit_code"] == 0
    assert obj["notion"] == {"fill": False, "touchfree": False, "near": False, "tight": False}
    assert all(p["notion"] == obj["notion"] and p["seconds"] > 0 for p in obj["puzzles"])


def test_verdicts_in_input_order_and_exit_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    files = [write(tmp_path, "a.txt", NOT_UNIQUE), write(tmp_path, "b.txt", UNIQUE),
             write(tmp_path, "c.txt", NO_SOLUTION)]
    rc, obj = verify_json(capsys, *files, "--jobs", "2")  # a process pool
    assert rc == 1
    assert [(Path(p["file"]).name, p["verdict"]) for p in obj["puzzles"]] == [
        ("a.txt", "not unique"), ("b.txt", "unique"), ("c.txt", "no solution")]
    counts = obj["summary"]["counts"]
    assert counts == {"unique": 1, "not unique": 1, "no solution": 1, "unknown": 0, "error": 0}
    assert obj["summary"]["jobs"] == 2
    assert obj["summary"]["max_seconds"] >= obj["summary"]["median_seconds"] > 0


def test_multi_puzzle_file_expands(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = write(tmp_path, "many.txt", THOMASAHLE)
    rc, obj = verify_json(capsys, f, "--jobs", "1")
    assert rc == 1
    assert [(p["instance"], p["verdict"]) for p in obj["puzzles"]] == [("1", "unique"), ("2", "not unique")]


def test_instance_picks_puzzles_of_a_multi_puzzle_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`verify --instance` (as `solve --instance`): only the puzzles named; a name no file holds
    is an input error, before any puzzle is solved."""
    f = write(tmp_path, "many.txt", THOMASAHLE)
    rc, obj = verify_json(capsys, f, "--jobs", "1", "--instance", "2")
    assert rc == 1 and [(p["instance"], p["verdict"]) for p in obj["puzzles"]] == [("2", "not unique")]
    rc, obj = verify_json(capsys, f, "--jobs", "1", "--instance", "1,2")
    assert [p["instance"] for p in obj["puzzles"]] == ["1", "2"]
    rc, out, err = run_main(capsys, "verify", RULES, f, "--instance", "1", "--instance", "3")
    assert rc == 2 and "no puzzle with id `3`" in err and not out


def test_per_puzzle_input_error_finishes_batch_then_exit_2(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    files = [write(tmp_path, "bad.txt", BROKEN), write(tmp_path, "good.txt", UNIQUE), tmp_path / "missing.txt"]
    rc, obj = verify_json(capsys, *files, "--format", "bwinf_arukone", "--jobs", "1")
    assert rc == 2
    verdicts = [p["verdict"] for p in obj["puzzles"]]
    assert verdicts == ["error", "unique", "error"]
    assert "bad.txt:3" in obj["puzzles"][0]["error"]["text"]
    assert "no such file" in obj["puzzles"][2]["error"]["message"]
    assert obj["puzzles"][1]["error"] is None


def test_a_puzzles_error_is_an_object_as_solve_json_gives(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    """`verify --json` gave a puzzle's error as one string (a friction log): now the fields of
    `solve --json`'s error object, the same for the same data file, and the printed text."""
    bad = write(tmp_path, "bad.txt", BROKEN)
    rc, obj = verify_json(capsys, bad, "--format", "bwinf_arukone", "--jobs", "1")
    error = obj["puzzles"][0]["error"]
    rc_solve, out, _ = run_main(capsys, "solve", RULES, "--data", bad, "--format", "bwinf_arukone", "--json")
    assert rc == rc_solve == 2
    assert {k: v for k, v in error.items() if k != "text"} == json.loads(out)["error"]
    assert (error["kind"], error["file"], error["line"], error["column"]) == ("input", str(bad), 3, 4)
    assert error["text"].startswith(f"{bad}:3:4: error: {error['message']}")


def test_error_outranks_not_unique_which_outranks_unknown(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    from puzzledsl.batch import ERROR, NOT_UNIQUE, UNIQUE, UNKNOWN, Result, exit_code

    def results(*verdicts: str) -> list[Result]:
        return [Result(i, "f", None, v, 0.1) for i, v in enumerate(verdicts)]

    assert exit_code(results(UNIQUE, UNIQUE)) == 0
    assert exit_code(results(UNIQUE, UNKNOWN)) == 3
    assert exit_code(results(UNKNOWN, NOT_UNIQUE)) == 1
    assert exit_code(results(NOT_UNIQUE, ERROR, UNKNOWN)) == 2


def test_time_limit_gives_unknown_and_exit_3(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # a deadline in the past: the solver stops before the first answer
    f = write(tmp_path, "u.txt", UNIQUE)
    rc, obj = verify_json(capsys, f, "--jobs", "1", "--time-limit", "1e-9")
    assert (rc, obj["puzzles"][0]["verdict"]) == (3, "unknown")


def test_options_set_the_notion(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = write(tmp_path, "u.txt", UNIQUE)
    rc, obj = verify_json(capsys, f, "--jobs", "1", "--option", "fill=true", "--option", "touchfree=true")
    assert rc == 0
    notion = {"fill": True, "touchfree": True, "near": False, "tight": False}
    assert obj["notion"] == obj["puzzles"][0]["notion"] == notion


@requires_data
def test_official_example_strict_and_fill(capsys: pytest.CaptureFixture[str]) -> None:
    example = data_file(DATA / "arukone" / "bwinf" / "arukone0.txt")
    rc, obj = verify_json(capsys, example, "--jobs", "1")
    assert (rc, obj["puzzles"][0]["verdict"]) == (1, "not unique")  # exactly two solutions
    rc, obj = verify_json(capsys, example, "--jobs", "1", "--option", "fill=true")
    assert (rc, obj["puzzles"][0]["verdict"]) == (1, "no solution")


def test_human_summary_lists_the_failures(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    files = [write(tmp_path, "amb.txt", NOT_UNIQUE), write(tmp_path, "ok.txt", UNIQUE)]
    rc, out, err = run_main(capsys, "verify", RULES, *files, "--jobs", "1", "--no-color")
    assert rc == 1
    assert "not unique (1):" in out and "amb.txt" in out.split("not unique (1):")[1]
    assert "median" in out and "slowest" in out
    assert err == ""  # no progress bar: stderr is not a terminal


def test_progress_bar_on_request(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = write(tmp_path, "ok.txt", UNIQUE)
    rc, _, err = run_main(capsys, "verify", RULES, f, "--jobs", "1", "--progress", "--json")
    assert rc == 0 and "verifying" in err and "1/1" in err


def test_bad_rules_file_is_a_command_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = write(tmp_path, "ok.txt", UNIQUE)
    rc, out, err = run_main(capsys, "verify", tmp_path / "nope.puz", f)
    assert rc == 2 and out == "" and "no such file" in err
    rc, out, err = run_main(capsys, "verify", RULES, f, "--option", "colour=red")
    assert rc == 2 and "`colour` is not an option of these rules" in err
    rc, out, err = run_main(capsys, "verify", RULES, f, "--jobs", "0")
    assert rc == 2 and "--jobs" in err


def test_unknown_format_is_one_command_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`--format nosuch` with several files (a friction log): said once, before any file (or the
    rules) is read: a missing file and missing rules are not mentioned."""
    files = [write(tmp_path, "a.txt", UNIQUE), write(tmp_path, "b.txt", UNIQUE), tmp_path / "missing.txt"]
    rc, out, err = run_main(capsys, "verify", tmp_path / "nope.puz", *files, "--format", "nosuch", "--jobs", "1")
    assert rc == 2 and out == "" and "Traceback" not in err
    assert err.count("unknown data format `nosuch`") == 1 and err.count("known formats:") == 1
    assert "bwinf_arukone" in err and "no such file" not in err
    rc, out, _ = run_main(capsys, "verify", RULES, *files, "--format", "nosuch", "--json")
    error = json.loads(out)["error"]
    assert rc == 2 and error["kind"] == "input" and error["message"] == "unknown data format `nosuch`"


def test_entry_point_exit_status(tmp_path: Path) -> None:
    f = write(tmp_path, "amb.txt", NOT_UNIQUE)
    env = dict(os.environ, NO_COLOR="1", PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.run([sys.executable, "-m", "puzzledsl", "verify", str(RULES), str(f), "--json"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1, proc.stderr
    assert json.loads(proc.stdout)["puzzles"][0]["verdict"] == "not unique"


# ------------------------------------------------------------------ --option NAME=VALUE


def test_parse_options() -> None:
    assert parse_options(None) is None
    assert parse_options(["fill=true", " touchfree = false "]) == {"fill": "true", "touchfree": "false"}
    assert parse_options(["fill=true", "fill=true"]) == {"fill": "true"}
    for bad in (["fill"], ["=true"], ["fill="], ["1x=2"], ["fill=true", "fill=false"]):
        with pytest.raises(PuzzleError):
            parse_options(bad)


@pytest.mark.parametrize("command", ["solve", "check", "export"])
def test_malformed_option_is_an_input_error(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                            command: str) -> None:
    f = write(tmp_path, "ok.txt", UNIQUE)
    rc, out, err = run_main(capsys, command, RULES, "--data", f, "--option", "fill")
    assert rc == 2 and "malformed --option `fill`: expected NAME=VALUE" in err


def test_option_reaches_solve_and_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = write(tmp_path, "amb.txt", NOT_UNIQUE)
    rc, out, _ = run_main(capsys, "solve", RULES, "--data", f, "--option", "fill=true", "--json")
    assert rc == 0  # a Hamiltonian path from corner to corner exists
    sol = json.loads(out)["solutions"][0]["pair"]
    assert all(v == 1 for row in sol for v in row)
    rc, out, err = run_main(capsys, "check", RULES, "--data", f, "--option", "nosuch=1")
    assert rc == 2 and "`nosuch` is not an option" in err


def test_a_verdict_of_no_solution_names_no_clash(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """`verify` gives verdicts, so it does not ground the rules again to name the clash of a
    puzzle without a solution (1.0 s of 2.1 s on a 35x48 board under fill and touch-free, and
    nothing found in its time); `solve` still names it."""
    from puzzledsl import solve as solve_module
    board = write(tmp_path, "c.txt", NO_SOLUTION)
    options = ("--option", "fill=true", "--option", "touchfree=true")  # the plain search, no route
    rc, out, _ = run_main(capsys, "solve", RULES, "--data", board, *options, "--json")
    assert rc == 1 and json.loads(out)["conflict"]

    def no_explanation(*args: object, **kwargs: object) -> list:
        raise AssertionError("verify explained a clash")

    monkeypatch.setattr(solve_module, "explain_unsat", no_explanation)
    rc, obj = verify_json(capsys, board, *options, "--jobs", "1")
    assert rc == 1 and obj["puzzles"][0]["verdict"] == "no solution"
