"""The installed tool on its own: bundled genres by name, `list`, `--version`, stdin as data,
every flag documented (and docs/cli.md current), extras named when missing, and a wheel
built from the sdist that works in a fresh virtual environment outside the checkout."""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tomllib
from pathlib import Path

import pytest

import puzzledsl
from puzzledsl.cli import _parser, main
from puzzledsl.cli_doc import reference, subparsers
from puzzledsl.encode.linear import LinearOptions
from tests.bruteforce import kakurasu_count
from tests.checkers import check_kakurasu

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
KAKU_ROWS, KAKU_COLS = [1, 5, 6, 10, 6], [13, 3, 3, 4, 11]


def run_main(capsys: pytest.CaptureFixture[str], *args: object) -> tuple[int, str, str]:
    capsys.readouterr()
    rc = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return rc, out, err


def all_parsers() -> dict[str, argparse.ArgumentParser]:
    top = _parser()
    out = {"puzzledsl": top} | {f"puzzledsl {n}": p for n, p in subparsers(top).items()}
    out["puzzledsl generate arukone"] = subparsers(out["puzzledsl generate"])["arukone"]
    return out


# ----------------------------------------------------------------- the command line, in-process


def test_every_flag_has_help() -> None:
    missing = [f"{name} {a.option_strings or a.dest}" for name, p in all_parsers().items() for a in p._actions
               if a.help is None and a.dest != "command"]
    assert missing == []


def test_the_cli_reference_is_current() -> None:
    committed = (ROOT / "docs" / "cli.md").read_text()
    assert committed == reference(), "regenerate it: python3 -m puzzledsl.cli_doc > docs/cli.md"
    for name in all_parsers():
        assert f"## {name}\n" in committed


def test_card_help_names_the_real_default() -> None:
    for name in ("solve", "export"):
        sub = subparsers(_parser())[name]
        card = next(a for a in sub._actions if "--card" in a.option_strings)
        assert re.search(r"\(default: ([a-z]+)", card.help).group(1) == LinearOptions().card


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    out = capsys.readouterr().out  # and how the modules run: compiled (setup.py) or from source
    how = r"\((pure Python.*|\d+ of \d+ modules compiled.*)\)"
    assert re.fullmatch(rf"puzzledsl {re.escape(puzzledsl.__version__)} {how}\n", out)
    assert puzzledsl.__version__ == PYPROJECT["project"]["version"]


def test_list_shows_genres_options_formats_instances(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = run_main(capsys, "list")
    assert rc == 0
    titled = [p.stem for p in (ROOT / "puzzles").glob("*.puz") if re.search(r"^title ", p.read_text(), re.M)]
    for stem in titled:
        assert re.search(rf"^{re.escape(stem)} ", out, re.M), stem
    assert "battleship-base" not in out
    assert re.search(r"option fill: bool = false +every cell lies on a line", out)
    assert "option jumps: sym = square" in out
    assert "formats: janko_kakurasu, puzzlekit_kakurasu" in out
    assert "kakurasu/seed-5x5.puz" in out
    # issue 11: the links a genre reads, even where it has no other format (Shikaku, Tapa)
    assert "urls: puzz.link (box), Penpa+" in out and "urls: puzz.link (numlin), Penpa+" in out
    assert re.search(r"^tapa .*\n    urls: puzz.link \(tapa\), Penpa\+$", out, re.M)
    assert re.search(r"^fillomino .*\n.*\n    urls: puzz.link \(fillomino\)$", out, re.M)


def test_bundled_names_work_from_any_folder(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    rc, out, _ = run_main(capsys, "solve", "kakurasu/seed-5x5.puz", "--json")
    assert rc == 0 and check_kakurasu(KAKU_ROWS, KAKU_COLS, json.loads(out)["solutions"][0]["black"]) == []
    (tmp_path / "x.txt").write_text("4 4\n1 0 0 1\n0 2 2 0\n0 0 0 0\n0 0 0 0\n")  # BWINF Arukone
    rc, out, _ = run_main(capsys, "solve", "arukone", "--data", "x.txt", "--json")
    assert rc == 0 and json.loads(out)["title"] == "Arukone"
    rc, out, _ = run_main(capsys, "solve", "peg-solitaire", "--data", "peg-solitaire/tiny-2.txt", "--json")
    assert rc == 0 and json.loads(out)["moves"] == 2
    rc, out, _ = run_main(capsys, "check", "sudoku")
    assert rc == 0 and out.startswith("ok")
    rc, out, _ = run_main(capsys, "verify", "peg-solitaire", "peg-solitaire/tiny-1.txt", "--jobs", "1", "--json")
    [puzzle] = json.loads(out)["puzzles"]
    assert puzzle["file"].endswith("tiny-1.txt") and puzzle["error"] is None and puzzle["verdict"] != "error"


def test_a_local_file_wins_over_a_bundled_name(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "kakurasu").write_text('title "mine"\nvar x: bool\nrule "on": x\n')
    rc, out, _ = run_main(capsys, "solve", "kakurasu", "--json")
    assert rc == 0 and json.loads(out)["title"] == "mine"


def test_instances_in_a_folder_use_the_rules_beside_it(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """The bundled layout in a user's folder (`gk.puz` beside `gk/one.puz`, which says `use "gk"`)
    works as it does for bundled genres; nothing else above the using file is read, and a name
    not found says where to add a folder of rules."""
    (tmp_path / "gk").mkdir()
    (tmp_path / "gk.puz").write_text('title "mine"\ngiven N: int\nvar x[1..N]: bool\nrule x[1]\n')
    (tmp_path / "gk" / "one.puz").write_text('use "gk"\nN = 2\n')
    (tmp_path / "gk" / "two.puz").write_text('use "other"\nN = 2\n')
    (tmp_path / "other.puz").write_text('given N: int\nvar x[1..N]: bool\n')
    rc, out, _ = run_main(capsys, "solve", str(tmp_path / "gk" / "one.puz"), "--json")
    assert rc == 0 and json.loads(out)["title"] == "mine"
    rc, _, err = run_main(capsys, "solve", str(tmp_path / "gk" / "two.puz"))
    assert rc == 2 and "cannot find `other` to use" in err and "PUZZLEDSL_PATH" in err


def test_a_data_instance_brings_its_genre(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """`puzzledsl list` shows data files among a genre's instances (`chilly/tiny-hole.txt`):
    given as FILE they are read by their genre's rules, not parsed as rules; a data file of
    one's own given as FILE says to name the rules first."""
    import puzzledsl
    monkeypatch.chdir(tmp_path)
    rc, out, err = run_main(capsys, "solve", "chilly/tiny-hole.txt", "--json")
    assert rc == 0 and json.loads(out)["status"] == "sat", err
    assert puzzledsl.load("chilly/tiny-hole.txt").title == "Santa Chilly"
    (tmp_path / "mine.txt").write_text("R = 2\nC = 2\nrowsum = [1, 2]\ncolsum = [1, 2]\n")
    rc, _, err = run_main(capsys, "solve", "mine.txt")
    assert rc == 2 and "is this a data file?" in err and "--data FILE" in err


def test_export_to_standard_output(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """`--dimacs -` writes to standard output, as `--data -` reads standard input (it wrote a
    file named `-`)."""
    monkeypatch.chdir(tmp_path)
    rc, out, _ = run_main(capsys, "export", "kakurasu/seed-5x5.puz", "--dimacs", "-")
    assert rc == 0 and "p cnf" in out and not (tmp_path / "-").exists()


def test_unknown_names_are_input_errors(capsys: pytest.CaptureFixture[str]) -> None:
    rc, _, err = run_main(capsys, "solve", "no-such-genre")
    assert rc == 2 and "no such file: no-such-genre" in err and "puzzledsl list" in err
    rc, _, err = run_main(capsys, "solve", "kakurasu", "--data", "no-such-data.txt")
    assert rc == 2 and "no such file: no-such-data.txt" in err


def test_data_from_stdin(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"rowsum = {KAKU_ROWS}\ncolsum = {KAKU_COLS}\n"))
    rc, out, _ = run_main(capsys, "solve", "kakurasu", "--data", "-", "--json")
    assert rc == 0 and check_kakurasu(KAKU_ROWS, KAKU_COLS, json.loads(out)["solutions"][0]["black"]) == []
    monkeypatch.setattr(sys, "stdin", io.StringIO("rowsum = [1, x\n"))
    rc, _, err = run_main(capsys, "solve", "kakurasu", "--data", "-")
    assert rc == 2 and err.startswith("<stdin>:1:")


def test_count_zero_counts_all_as_its_help_says(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    count = next(a for a in subparsers(_parser())["solve"]._actions if "--count" in a.option_strings)
    assert "0: count all" in count.help
    rows, cols = [3, None, None], [None, 4, None]
    data = tmp_path / "k.txt"
    data.write_text(f"rowsum = {rows}\ncolsum = {cols}\n".replace("None", "?"))
    expected = kakurasu_count(rows, cols)
    assert expected > 2
    results = {}
    for flags in (("--count", "0"), ("--all",), ("--count", "2")):
        rc, out, _ = run_main(capsys, "solve", "kakurasu", "--data", data, "--json", *flags)
        results[flags[-1]] = json.loads(out.splitlines()[-1])  # `--all --json`: JSON lines, the summary last
    assert results["0"]["count"] == results["--all"]["count"] == expected
    assert results["0"]["count_complete"] and results["--all"]["complete"]
    assert results["2"]["count"] == 2 and not results["2"]["count_complete"]


# ----------------------------------------------------------------- optional dependencies


def test_missing_z3_names_the_extra(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                                    tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "z3", None)  # `import z3` now fails as if not installed
    rc, _, err = run_main(capsys, "solve", "kakurasu/seed-5x5.puz", "--backend", "z3")
    assert rc == 2 and "--backend z3 needs the `z3-solver` package" in err and 'puzzledsl[z3]' in err
    rc, _, err = run_main(capsys, "export", "kakurasu/seed-5x5.puz", "--smt2", tmp_path / "k.smt2")
    assert rc == 2 and 'puzzledsl[z3]' in err


def test_missing_ortools_names_the_extra(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ortools.sat.python.cp_model", None)
    rc, _, err = run_main(capsys, "solve", "chilly", "--data", "chilly/tiny-hole.txt", "--backend", "cpsat")
    assert rc == 2 and "`ortools`" in err and 'puzzledsl[plans]' in err
    rc, out, _ = run_main(capsys, "solve", "chilly", "--data", "chilly/tiny-hole.txt", "--json")
    plan = json.loads(out)
    assert rc == 0 and plan["status"] == "sat" and any("puzzledsl[plans]" in n for n in plan["notes"])


def test_heavy_dependencies_are_extras_that_the_test_extra_pulls_in() -> None:
    project = PYPROJECT["project"]
    deps = " ".join(project["dependencies"])
    assert "z3" not in deps and "ortools" not in deps and "cairosvg" not in deps
    extras = project["optional-dependencies"]
    assert any(d.startswith("z3-solver") for d in extras["z3"])
    assert any(d.startswith("ortools") for d in extras["plans"])
    assert any(d.startswith("cairosvg") for d in extras["png"])
    assert any(d.startswith("dask[distributed]") for d in extras["dask"]) and "dask" not in deps
    assert "puzzledsl[all]" in extras["test"] and extras["all"] == ["puzzledsl[z3,plans,png,dask]"]


# ----------------------------------------------------------------- packaging


def test_every_python_package_is_packaged() -> None:
    """A subpackage left out of `packages` is not in the wheel: `puzzledsl explain` failed,
    installed, with `No module named 'puzzledsl.explain'` (issue 11's audit)."""
    listed = set(PYPROJECT["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "puzzledsl").rglob("__init__.py")}
    assert found <= listed, found - listed


def test_every_bundled_folder_is_packaged() -> None:
    """setuptools warns about a data folder that looks like a package but is not listed."""
    listed = {p for p in PYPROJECT["tool"]["setuptools"]["packages"] if p.startswith("puzzledsl.stdlib.")}
    folders = {f"puzzledsl.stdlib.{d.name}" for d in (ROOT / "puzzles").iterdir()
               if d.is_dir() and d.name.isidentifier()}
    # a Python package deeper down (a generator split into modules) is only installed when listed
    nested = {"puzzledsl.stdlib." + ".".join(d.parent.relative_to(ROOT / "puzzles").parts)
              for d in (ROOT / "puzzles").rglob("__init__.py")}
    assert listed == folders | nested
    assert PYPROJECT["project"]["license"] == "MIT" and (ROOT / "LICENSE").read_text().startswith("MIT License")


def _source_copy(dest: Path) -> Path:
    """The files git knows (tracked or new, not ignored): what a fresh clone would build from."""
    names = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT, capture_output=True,
                           text=True, check=True).stdout.splitlines()
    for name in names:
        if (ROOT / name).is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, dest / name)
    return dest


@pytest.mark.slow
def test_the_wheel_works_outside_the_checkout(tmp_path: Path) -> None:
    """sdist, then a wheel from it (`python -m build`), without setuptools warnings; the sdist's
    tests import their helpers; the wheel in a fresh venv solves bundled genres by name."""
    pytest.importorskip("build")
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("needs a git checkout to know the project's files")
    src = _source_copy(tmp_path / "src")
    dist = tmp_path / "dist"
    built = subprocess.run([sys.executable, "-m", "build", "--outdir", str(dist), str(src)],
                           capture_output=True, text=True, timeout=600)
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    log = built.stdout + built.stderr
    noise = ("byte-compiling is disabled",)
    warnings = [line for line in log.splitlines() if re.search(r"warn", line, re.I)
                and not any(n in line for n in noise)]
    assert warnings == []
    # the sdist's own tests find their helpers (tests/checkers.py, tests/data, docs/api.md)
    with tarfile.open(next(dist.glob("*.tar.gz"))) as tar:
        tar.extractall(tmp_path / "sdist", filter="data")
    unpacked = next((tmp_path / "sdist").iterdir())
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PUZZLEDSL_PATH")}
    tests = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_api.py",
                            "-k", "sources or docs or brute_force"], cwd=unpacked, env=env,
                           capture_output=True, text=True, timeout=300)
    assert tests.returncode == 0, tests.stdout[-3000:]
    # the wheel, installed on its own in a venv (dependencies from the system's site packages)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True, timeout=120)
    exe = venv / "bin"
    subprocess.run([exe / "python", "-m", "pip", "install", "-q", "--no-deps", "--no-index",
                    str(next(dist.glob("*.whl")))], check=True, timeout=300, capture_output=True)
    work = tmp_path / "elsewhere"
    work.mkdir()
    (work / "x.txt").write_text("4 4\n1 0 0 1\n0 2 2 0\n0 0 0 0\n0 0 0 0\n")

    def tool(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([exe / "puzzledsl", *args], cwd=work, env=env | {"NO_COLOR": "1"},
                              capture_output=True, text=True, timeout=300)

    where = subprocess.run([exe / "python", "-c", "import puzzledsl; print(puzzledsl.__file__)"], cwd=work,
                           env=env, capture_output=True, text=True, check=True).stdout
    assert where.startswith(str(venv))
    assert tool("--version").stdout.startswith(f"puzzledsl {PYPROJECT['project']['version']} (")
    assert "kakurasu/seed-5x5.puz" in tool("list").stdout
    solved = tool("solve", "kakurasu/seed-5x5.puz", "--unique", "--json")
    assert solved.returncode == 0 and json.loads(solved.stdout)["unique"] is True
    arukone = tool("solve", "arukone", "--data", "x.txt", "--json")
    assert arukone.returncode == 0, arukone.stderr
    assert tool("solve", "peg-solitaire", "--data", "peg-solitaire/tiny-2.txt").returncode == 0
    assert tool("explain", "kakurasu/seed-5x5.puz").returncode == 0
    url = tool("solve", "kakurasu/seed-5x5.puz", "--url", "penpa").stdout.strip()
    assert tool("solve", url, "--json").returncode == 0  # a Penpa+ URL alone names its genre
    generated = tool("generate", "arukone", "--size", "5", "--pairs", "3", "--seed", "1", "--out", "gen")
    assert generated.returncode == 0 and list((work / "gen").glob("*.txt")), generated.stderr


def test_verify_and_data_read_bundled_instance_files(capsys: pytest.CaptureFixture[str]) -> None:
    """The instances `list` shows are files of `use "genre"` and assignments: `verify GENRE
    genre/x.puz` and `--data genre/x.puz` read their assignments (they were "cannot tell this
    file's format"); an instance of other rules is a located error naming its own."""
    rc, out, _ = run_main(capsys, "verify", "kakurasu", "kakurasu/seed-5x5.puz", "--jobs", "1", "--json")
    assert rc == 0 and json.loads(out)["summary"]["counts"]["unique"] == 1
    rc, out, _ = run_main(capsys, "solve", "kakurasu", "--data", "kakurasu/seed-5x5.puz", "--json")
    assert rc == 0 and check_kakurasu(KAKU_ROWS, KAKU_COLS, json.loads(out)["solutions"][0]["black"]) == []
    rc, out, err = run_main(capsys, "verify", "nurikabe", "kakurasu/seed-5x5.puz", "--jobs", "1")
    assert rc == 2 and 'uses the rules "kakurasu", not nurikabe.puz' in out + err and ":2:1:" in out + err


@pytest.mark.parametrize("module", ["pysat", "pysat.solvers", "lark", "pypblib"])
def test_missing_default_dependency_is_named_not_reported_as_a_bug(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, module: str) -> None:
    """A default dependency that cannot be imported (a broken install, another Python) is an
    error that says what to install, exit 2, not an internal error asking for a bug report."""
    import puzzledsl.cli as cli

    def broken(args: object) -> int:
        raise ModuleNotFoundError(f"No module named '{module}'", name=module)

    monkeypatch.setattr(cli, "_dispatch", broken)
    rc, _, err = run_main(capsys, "solve", "kakurasu/seed-5x5.puz")
    assert rc == 2 and "internal error" not in err and "please report" not in err
    assert "needs the `" in err and "-m pip install" in err
    monkeypatch.setattr(cli, "_dispatch", lambda args: (_ for _ in ()).throw(
        ModuleNotFoundError("No module named 'nosuchthing'", name="nosuchthing")))
    rc, _, err = run_main(capsys, "solve", "kakurasu/seed-5x5.puz")
    assert rc == 70 and "internal error" in err  # any other module missing is still a bug
