"""`puzzledsl generate arukone`: BWINF files, unique under the chosen notion, reproducible,
and hard for a greedy router; plus the generator's parts (layouts, its own SAT check)."""

from __future__ import annotations

import importlib
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from puzzledsl.cli import _generators, main
from puzzledsl.compile import compile_givens, load_rules
from puzzledsl.solve import Mode, solve
from tests.arukone_bruteforce import count_solutions
from tests.arukone_checker import check_arukone
from tests.greedy_router import route_greedy

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "puzzles" / "arukone.puz"


def part(name: str):
    """A module of the Arukone generator's package (`puzzles/generators/arukone/`)."""
    _generators()
    return importlib.import_module(f"puzzledsl.stdlib.generators.arukone.{name}")


@pytest.fixture(scope="module")
def gen() -> SimpleNamespace:
    """The generator's parts by name, from the modules that define them."""
    board, layout, checker, generator = (part(m) for m in ("board", "layout", "checker", "generator"))
    return SimpleNamespace(Board=board.Board, Layout=layout.Layout, dominoes=layout.dominoes, Checker=checker.Checker,
                           Settings=generator.Settings, Generator=generator.Generator, Stats=generator.Stats,
                           puzzle_rng=generator.puzzle_rng, generator=generator)


def run_main(capsys: pytest.CaptureFixture[str], *args: object) -> tuple[int, str, str]:
    capsys.readouterr()
    rc = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return rc, out, err


def read_bwinf(path: Path) -> list[list[int | None]]:
    """The clue grid of a BWINF file, checking the format strictly on the way."""
    lines = path.read_text(encoding="utf-8").split("\n")
    assert lines[-1] == "" and all(line == line.strip() for line in lines)
    n, k = int(lines[0]), int(lines[1])
    rows = [[int(x) for x in line.split(" ")] for line in lines[2:-1]]
    assert len(rows) == n and all(len(row) == n for row in rows)
    counts: dict[int, int] = {}
    for v in (v for row in rows for v in row if v):
        counts[v] = counts.get(v, 0) + 1
    assert counts == dict.fromkeys(range(1, k + 1), 2), "every label 1..K exactly twice, 0 elsewhere"
    return [[v or None for v in row] for row in rows]


def generate(capsys, out: Path, *args: object) -> list[Path]:
    rc, _, err = run_main(capsys, "generate", "arukone", "--out", out, "--quiet", *args)
    assert rc == 0, err
    return sorted(out.glob("*.txt"), key=lambda p: int(p.stem.rsplit("-", 1)[1]))


def solve_json(capsys, path: Path, *options: str) -> dict:
    args = [x for o in options for x in ("--option", o)]
    rc, out, err = run_main(capsys, "solve", RULES, "--data", path, "--unique", "--json", *args)
    assert rc == 0, err
    return json.loads(out)


def test_strict_puzzles_are_bwinf_unique_and_checked(tmp_path: Path, capsys) -> None:
    files = generate(capsys, tmp_path, "--size", "6", "--pairs", "5", "--count", "3", "--seed", "7")
    assert [p.name for p in files] == [f"arukone-6-5-7-{i}.txt" for i in (1, 2, 3)]
    for f in files:
        clues = read_bwinf(f)
        obj = solve_json(capsys, f)
        assert obj["unique"] is True
        labels = obj["solutions"][0]["pair"]
        # the intended solution is a touch-free cover of the whole board
        assert check_arukone(clues, labels, fill=True, touchfree=True) == []
    rc, _, _ = run_main(capsys, "verify", RULES, *files, "--jobs", "1")
    assert rc == 0


def test_fill_and_touchfree_notions(tmp_path: Path, capsys) -> None:
    fill = generate(capsys, tmp_path / "fill", "--size", "6", "--pairs", "4", "--count", "2", "--seed", "3", "--fill")
    for f in fill:
        read_bwinf(f)
        obj = solve_json(capsys, f, "fill=true")
        assert obj["unique"] is True
        assert check_arukone(read_bwinf(f), obj["solutions"][0]["pair"], fill=True) == []
    assert run_main(capsys, "verify", RULES, *fill, "--jobs", "1", "--option", "fill=true")[0] == 0
    tf = generate(capsys, tmp_path / "tf", "--size", "6", "--pairs", "5", "--count", "2", "--seed", "3",
                  "--touchfree")
    assert run_main(capsys, "verify", RULES, *tf, "--jobs", "1", "--option", "touchfree=true")[0] == 0


def test_rules_names_the_notion(tmp_path: Path, capsys) -> None:
    """`--rules literal` (the default) makes puzzles unique under the rules as printed, counted
    by brute force; `--rules fill+touchfree` is `--fill --touchfree`."""
    common = ("--size", "5", "--pairs", "4", "--count", "3", "--seed", "2")
    literal = generate(capsys, tmp_path / "lit", *common, "--rules", "literal")
    default = generate(capsys, tmp_path / "def", *common)
    assert [p.read_text() for p in literal] == [p.read_text() for p in default]
    for f in literal:
        assert count_solutions(read_bwinf(f), limit=2) == 1
    both = generate(capsys, tmp_path / "both", *common, "--rules", "fill+touchfree")
    flags = generate(capsys, tmp_path / "flags", *common, "--fill", "--touchfree")
    assert [p.read_text() for p in both] == [p.read_text() for p in flags]
    for f in both:
        assert count_solutions(read_bwinf(f), fill=True, touchfree=True, limit=2) == 1
    with pytest.raises(SystemExit):
        main(["generate", "arukone", "--size", "5", "--pairs", "4", "--rules", "flowfree"])
    assert "invalid choice: 'flowfree'" in capsys.readouterr().err


def test_reproducible_with_seed(tmp_path: Path, capsys) -> None:
    common = ("--size", "7", "--pairs", "6", "--count", "3", "--verify", "fast")
    a = generate(capsys, tmp_path / "a", *common, "--seed", "11")
    b = generate(capsys, tmp_path / "b", *common, "--seed", "11")
    c = generate(capsys, tmp_path / "c", *common, "--seed", "12")
    assert [p.read_text() for p in a] == [p.read_text() for p in b]
    assert [p.read_text() for p in a] != [p.read_text() for p in c]
    d = generate(capsys, tmp_path / "d", *common, "--seed", "11", "--jobs", "2")  # same seed, same jobs: same files
    e = generate(capsys, tmp_path / "e", *common, "--seed", "11", "--jobs", "2")
    assert [p.read_text() for p in d] == [p.read_text() for p in e]


def test_greedy_router_fails_on_generated_puzzles(tmp_path: Path, capsys) -> None:
    """Label 1 is a line longer than the shortest way between its ends, so on a strictly unique
    puzzle routing pairs in label order along shortest paths must go wrong."""
    files = generate(capsys, tmp_path, "--size", "8", "--pairs", "8", "--count", "12", "--seed", "5",
                     "--verify", "fast")
    failed = sum(route_greedy(read_bwinf(f)) is None for f in files)
    print(f"greedy router fails on {failed} of {len(files)} generated 8x8 puzzles")
    assert failed == len(files)


def test_generate_command_errors(tmp_path: Path, capsys) -> None:
    for args, code in ((["--help"], 0), ([], 2)):  # argparse's subcommands: it exits
        with pytest.raises(SystemExit) as exit:
            main(["generate", *args])
        out, err = capsys.readouterr()
        assert exit.value.code == code and "arukone" in (out if code == 0 else err)
    # a name that is no generator of its own is a rule file for the generic one (`generate RULES`)
    rc, _, err = run_main(capsys, "generate", "sudokuu")
    assert rc == 2 and "no such file: sudokuu" in err and "bundled genres: akari" in err
    rc, _, err = run_main(capsys, "generate", "arukone", "--size", "4", "--pairs", "9", "--out", tmp_path)
    assert rc == 2 and "9 pairs need at least 18 cells" in err
    with pytest.raises(SystemExit):
        main(["generate", "arukone", "--pairs", "3"])  # --size is required (argparse)


# ------------------------------------------------------------------ the generator's parts


def test_layouts_are_touch_free_full_covers(gen) -> None:
    rng = random.Random(1)
    for n, k in ((5, 3), (6, 6), (7, 5), (9, 12)):
        board = gen.Board(n)
        lay = gen.Layout(board, gen.dominoes(board, rng))
        if not lay.reduce(k, rng, 4 * board.size):
            continue
        lines = lay.as_list()
        assert len(lines) == k
        assert sorted(c for line in lines for c in line) == list(range(n * n))
        clues = board.clues(lines)
        labels = [[v for v in board.labels(lines)[r * n:(r + 1) * n]] for r in range(n)]
        assert check_arukone(clues, labels, fill=True, touchfree=True) == []


@pytest.mark.parametrize("fill", [False, True])
def test_own_check_agrees_with_the_rules(gen, fill: bool) -> None:
    """The generator's SAT check (touch-free search for strict, see `Generator`) against the
    real rules, on random full covers, unique or not."""
    rules = load_rules(RULES)
    rng = random.Random(4 + fill)
    seen = set()
    for n, k in ((4, 2), (5, 3), (5, 4), (6, 4), (6, 6)):
        board = gen.Board(n)
        checker = gen.Checker(board, k, fill, not fill, "minisat22")
        for _ in range(4):
            lay = gen.Layout(board, gen.dominoes(board, rng))
            if not lay.reduce(k, rng, 4 * board.size, fill):
                continue
            lines = lay.as_list()
            mine = checker.other_solution(lines) is None
            out = solve(compile_givens(rules, {"num": board.clues(lines)}, {"fill": "true"} if fill else None),
                        mode=Mode(unique=True))
            assert out.unique is mine, (n, k, lines)
            seen.add(mine)
    assert seen == {True, False}


@pytest.mark.parametrize("n", [5, 6])  # 6x6 with 3 pairs: checked by the route, 5x5 by the plain search
def test_rules_rejection_is_repaired(gen, monkeypatch, n: int) -> None:
    """Were the generator's own check ever too optimistic, the real rules' second solution
    would drive the repair: a written puzzle is unique by the rules all the same."""
    monkeypatch.setattr(gen.Checker, "other_solution", lambda self, lines: None)
    real = gen.dominoes
    calls = []

    def snake_first(board, rng):  # first layout: a row-by-row snake in three pieces, far from unique
        calls.append(1)
        if len(calls) > 1:
            return real(board, rng)
        k = board.n
        snake = [r * k + (c if r % 2 == 0 else k - 1 - c) for r in range(k) for c in range(k)]
        third = len(snake) // 3
        return [snake[:third], snake[third:2 * third], snake[2 * third:]]

    monkeypatch.setattr(gen.generator, "dominoes", snake_first)  # where the Generator looks it up
    s = gen.Settings(n, 3, verify="rules", rules=RULES)
    g = gen.Generator(s)
    stats = gen.Stats()
    lines = g.puzzle(gen.puzzle_rng(1, s, 1), stats)
    assert lines is not None and stats.rejected >= 1
    out = solve(compile_givens(load_rules(RULES), {"num": g.board.clues(lines)}), mode=Mode(unique=True))
    assert out.unique is True


# ------------------------------------------------------------------ the files, however they are made


def shared_out(s, seed: int, count: int, jobs: int) -> dict[str, str]:
    """The files `generate arukone` promises for `--jobs jobs`, made here in this process: worker
    w's puzzles w + 1, w + 1 + J, … by one Generator, in that order (docs: the files depend on
    the seed and on J)."""
    generator, puzzle = part("generator"), part("puzzle")
    out = {}
    for w in range(min(jobs, count)):
        g = generator.Generator(s)
        for i in range(1 + w, count + 1, jobs):
            lines = g.puzzle(generator.puzzle_rng(seed, s, i), generator.Stats())
            assert lines is not None
            out[f"arukone-{s.n}-{s.k}-{seed}-{i}.txt"] = puzzle.bwinf_text(g.board, lines)
        g.close()
    return out


@pytest.mark.parametrize("jobs, options", [(1, ()), (2, ()), (3, ("--fill",)), (2, ("--touchfree",))])
def test_the_files_are_each_workers_share_made_in_order(tmp_path: Path, capsys, jobs: int,
                                                        options: tuple[str, ...]) -> None:
    """Whatever runs the workers (this process, the process pool), puzzle i is made by worker
    (i - 1) % J after that worker's earlier puzzles, and written as made."""
    generator = part("generator")
    s = generator.Settings(6, 5, fill="--fill" in options, touchfree="--touchfree" in options, verify="fast")
    files = generate(capsys, tmp_path, "--size", "6", "--pairs", "5", "--count", "5", "--seed", "4",
                     "--verify", "fast", "--jobs", str(jobs), *options)
    assert {p.name: p.read_text(encoding="utf-8") for p in files} == shared_out(s, 4, 5, jobs)


def test_a_dead_worker_costs_only_its_puzzles(tmp_path: Path, capsys, monkeypatch) -> None:
    """A worker process that dies (here: on puzzle 3) costs the puzzles it had not yet sent;
    the others are written, the command says which were lost, and it does not hang."""
    batch = part("batch")
    made = batch._reported

    def dies_on_3(gen, seed: int, i: int):
        if i == 3:
            os._exit(9)
        return made(gen, seed, i)

    monkeypatch.setattr(batch, "_reported", dies_on_3)  # the forked workers inherit it
    rc, _, err = run_main(capsys, "generate", "arukone", "--size", "5", "--pairs", "3", "--count", "5",
                          "--seed", "2", "--jobs", "2", "--verify", "fast", "--out", tmp_path)
    assert rc == 1 and "puzzles [3, 5]: the worker process making them died (exit status 9)" in err
    assert "Traceback" not in err and "wrote 3 of 5 puzzles" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == [f"arukone-5-3-2-{i}.txt" for i in (1, 2, 4)]


def test_worker_processes_end_quietly(tmp_path: Path) -> None:
    """The worker processes are stopped without a traceback on stderr (the summary only)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, "-m", "puzzledsl", "generate", "arukone", "--size", "6", "--pairs", "5",
                           "--count", "6", "--seed", "1", "--jobs", "3", "--verify", "fast", "--out", str(tmp_path)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and proc.stderr.startswith("wrote 6 of 6 puzzles") and proc.stderr.count("\n") == 1, \
        proc.stderr
