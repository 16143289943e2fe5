"""Batches on a Dask cluster (`--scheduler`): the same results as the local run.

Most tests share one in-process `LocalCluster` (threads, no worker processes), reached by
its address as a remote cluster would be; one slow test starts `--scheduler local` with two
worker processes. Without dask installed they skip, except the test that `--scheduler` then
names the extra.
"""

from __future__ import annotations

import json
import pickle
import sys
import time
from pathlib import Path

import pytest

from puzzledsl.cli import main

ROOT = Path(__file__).resolve().parents[1]
PUZZLES = ROOT / "puzzles"
ARUKONE = PUZZLES / "arukone.puz"

UNIQUE = "3\n3\n1 0 1\n2 0 2\n3 0 3\n"
NOT_UNIQUE = "3\n1\n1 0 0\n0 0 0\n0 0 1\n"
NO_SOLUTION = "2\n2\n1 2\n2 1\n"
BROKEN = "3\n1\n1 0\n"  # an input error found while reading (here)
THOMASAHLE = "3 3\nA.A\nB.B\nC.C\n\n3 3\nA..\n...\n..A\n"  # two puzzles in one file
SLOW_RULES = """given N: int
var x[1..N, 1..N]: bool
rule "many": forall i in 1..N: forall j in 1..N: forall k in 1..N: x[i, j] or x[j, k] or not x[i, k]
"""  # N = 60 grounds 216,000 clauses: seconds of pure Python


@pytest.fixture(scope="module")
def address() -> str:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None,
                                  silence_logs=50) as cluster:
        yield cluster.scheduler_address


def run_main(capsys: pytest.CaptureFixture[str], *args: object) -> tuple[int, str, str]:
    capsys.readouterr()
    rc = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return rc, out, err


def without_times(obj: dict) -> dict:
    """A `verify --json` object without what depends on the clock."""
    obj = dict(obj)
    obj["puzzles"] = [{k: v for k, v in p.items() if k != "seconds"} for p in obj["puzzles"]]
    obj["summary"] = {k: v for k, v in obj["summary"].items() if not k.endswith("_seconds")}
    return obj


def both(capsys: pytest.CaptureFixture[str], scheduler: str, *args: object) -> tuple[dict, dict]:
    """`verify ARGS --json` locally with 2 jobs, then on the cluster; the same exit code."""
    rc_local, out_local, _ = run_main(capsys, "verify", *args, "--json", "--jobs", "2")
    rc_dask, out_dask, _ = run_main(capsys, "verify", *args, "--json", "--jobs", "2", "--scheduler", scheduler)
    local, dask = json.loads(out_local), json.loads(out_dask)
    assert rc_local == rc_dask == local["summary"]["exit_code"]
    return local, dask


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def bundled_data(folder: Path, instance: str) -> Path:
    """A bundled instance (`use "genre"` + givens) as a data file: its givens alone."""
    text = (PUZZLES / instance).read_text(encoding="utf-8")
    return write(folder, instance.replace("/", "-") + ".txt",
                 "\n".join(line for line in text.splitlines() if not line.startswith("use ")) + "\n")


def test_verdicts_errors_and_order_match_the_local_run(address: str, tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    files = [write(tmp_path, "u.txt", UNIQUE), write(tmp_path, "n.txt", NOT_UNIQUE),
             write(tmp_path, "none.txt", NO_SOLUTION), write(tmp_path, "broken.txt", BROKEN),
             write(tmp_path, "many.txt", THOMASAHLE), tmp_path / "missing.txt"]
    local, dask = both(capsys, address, ARUKONE, *files)
    assert without_times(dask) == without_times(local)
    assert [(Path(p["file"]).name, p["instance"], p["verdict"]) for p in dask["puzzles"]] == [
        ("u.txt", None, "unique"), ("n.txt", None, "not unique"), ("none.txt", None, "no solution"),
        ("broken.txt", None, "error"), ("many.txt", "1", "unique"), ("many.txt", "2", "not unique"),
        ("missing.txt", None, "error")]
    assert dask["summary"]["exit_code"] == 2 and dask["summary"]["jobs"] == 2


def test_an_error_found_on_a_worker_quotes_the_data(address: str, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """Binding fails on the worker; the message is formatted here, with the line it points at."""
    bad = write(tmp_path, "k.txt", "rowsum = [1, 2]\ncolsum = [1, true]\n")
    good = bundled_data(tmp_path, "kakurasu/seed-5x5.puz")
    local, dask = both(capsys, address, PUZZLES / "kakurasu.puz", bad, good)
    assert without_times(dask) == without_times(local)
    error = dask["puzzles"][0]["error"]["text"]
    assert error.startswith(f"{bad}:2:14: error:") and "2 | colsum = [1, true]" in error
    assert dask["puzzles"][1]["verdict"] == "unique"


@pytest.mark.parametrize("rules, instances", [
    ("masyu.puz", ["masyu/02_6x6.puz", "masyu/03_6x6.puz", "masyu/06_6x6.puz"]),
    ("slitherlink.puz", ["slitherlink/1_4x4.puz"]),
    ("akari.puz", ["akari/constructed-7x7.puz"]),
    ("sudoku.puz", ["sudoku/constructed-4x4.puz"]),
])
def test_bundled_puzzles_match_the_local_run(address: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                             rules: str, instances: list[str]) -> None:
    files = [bundled_data(tmp_path, name) for name in instances]
    local, dask = both(capsys, address, PUZZLES / rules, *files)
    assert without_times(dask) == without_times(local)
    assert {p["verdict"] for p in dask["puzzles"]} == {"unique"}


def test_options_and_the_table_match(address: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    files = [write(tmp_path, "u.txt", UNIQUE), write(tmp_path, "n.txt", NOT_UNIQUE)]
    local, dask = both(capsys, address, ARUKONE, *files, "--option", "fill=true")
    assert without_times(dask) == without_times(local) and dask["notion"]["fill"] is True
    outs = []
    for extra in ((), ("--scheduler", address)):
        rc, out, err = run_main(capsys, "verify", ARUKONE, *files, "--jobs", "2", "--no-color", "--progress", *extra)
        assert rc == 1 and "verifying" in err and "2/2" in err
        outs.append(out.split("\n", 1)[1].split("time per puzzle")[0])  # past the header (it has the wall time)
    assert outs[0] == outs[1]


def test_the_time_limit_holds_in_a_worker_thread(address: str, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """A Dask worker runs jobs in threads, where no alarm signal arrives; grounding still stops."""
    rules = write(tmp_path, "slow.puz", SLOW_RULES)
    files = [write(tmp_path, "slow.txt", "N = 60\n"), write(tmp_path, "fast.txt", "N = 2\n")]
    t0 = time.perf_counter()
    rc, out, _ = run_main(capsys, "verify", rules, *files, "--json", "--time-limit", "0.3", "--scheduler", address)
    obj = json.loads(out)
    assert rc == 1 and [p["verdict"] for p in obj["puzzles"]] == ["unknown", "not unique"]  # 1 outranks 3
    assert obj["puzzles"][0]["seconds"] < 1.5 and time.perf_counter() - t0 < 10


def test_a_worker_needs_no_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What a worker gets (the parsed rules, a job's givens) survives pickling and is solved
    with the rule and data files out of reach."""
    pytest.importorskip("distributed")
    from puzzledsl import limits
    from puzzledsl.batch import Config, expand
    from puzzledsl.cluster import Shipment, verify_job
    from puzzledsl.compile import load_rules

    folder = tmp_path / "caller"
    folder.mkdir()
    rules = write(folder, "arukone.puz", ARUKONE.read_text(encoding="utf-8"))
    jobs = expand(rules, [write(folder, "many.txt", THOMASAHLE)], None)
    shipment = Shipment(Config(rules, None), load_rules(rules), limits.current())
    sent = pickle.loads(pickle.dumps((shipment, jobs)))
    for path in folder.iterdir():
        path.unlink()
    folder.rmdir()
    monkeypatch.setattr("puzzledsl.compile._rules_cache", {})
    monkeypatch.setattr("puzzledsl.errors._source_cache", {})
    verdicts = [verify_job(sent[0], job)[0].verdict for job in sent[1]]
    assert verdicts == ["unique", "not unique"]


def test_generate_writes_the_same_files(address: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    common = ("generate", "arukone", "--size", "5", "--pairs", "3", "--count", "4", "--seed", "7", "--jobs", "2")
    assert run_main(capsys, *common, "--out", tmp_path / "local")[0] == 0
    rc, _, err = run_main(capsys, *common, "--out", tmp_path / "dask", "--scheduler", address)
    assert rc == 0 and "with 2 jobs on Dask" in err
    local = {p.name: p.read_text() for p in (tmp_path / "local").iterdir()}
    assert len(local) == 4 and local == {p.name: p.read_text() for p in (tmp_path / "dask").iterdir()}


def test_generate_rules_writes_the_same_puzzles(address: str, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """The generic generator: puzzle i comes from (seed, i), wherever it is made."""
    common = ("generate", "kakurasu", "--size", "5x5", "--count", "4", "--seed", "5")
    assert run_main(capsys, *common, "--out", tmp_path / "local")[0] == 0
    rc, _, err = run_main(capsys, *common, "--jobs", "2", "--out", tmp_path / "dask", "--scheduler", address)
    assert rc == 0 and "Traceback" not in err
    local = {p.name: p.read_text() for p in (tmp_path / "local").iterdir()}
    assert len(local) == 4 and local == {p.name: p.read_text() for p in (tmp_path / "dask").iterdir()}
    rc, out, err = run_main(capsys, "generate", "kakurasu", "--size", "14x14", "--count", "40", "--json",
                            "--time-limit", "0.5", "--scheduler", address)
    assert rc == 3 and json.loads(out)["error"]["text"] == "the time limit passed" and "Traceback" not in err


def test_without_dask_the_extra_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # `import distributed` fails as if not installed
    f = write(tmp_path, "u.txt", UNIQUE)
    rc, out, err = run_main(capsys, "verify", ARUKONE, f, "--scheduler", "local")
    assert rc == 2 and out == "" and "Traceback" not in err
    assert "--scheduler needs the `dask[distributed]` package" in err and 'pip install "puzzledsl[dask]"' in err
    rc, _, err = run_main(capsys, "generate", "arukone", "--size", "4", "--pairs", "2", "--out", tmp_path,
                          "--scheduler", "local")
    assert rc == 2 and 'puzzledsl[dask]' in err


def test_an_unreachable_scheduler_is_an_input_error(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("distributed")
    monkeypatch.setattr("puzzledsl.cluster.CONNECT_SECONDS", 1)
    f = write(tmp_path, "u.txt", UNIQUE)
    rc, out, err = run_main(capsys, "verify", ARUKONE, f, "--scheduler", "tcp://127.0.0.1:9", "--json")
    assert rc == 2 and "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in err
    assert json.loads(out)["error"]["kind"] == "input"


@pytest.mark.slow
def test_a_local_cluster_of_processes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`--scheduler local`: two worker processes, started and shut down by the command."""
    pytest.importorskip("distributed")
    files = [write(tmp_path, "u.txt", UNIQUE), write(tmp_path, "n.txt", NOT_UNIQUE),
             write(tmp_path, "broken.txt", BROKEN), write(tmp_path, "many.txt", THOMASAHLE)]
    local, dask = both(capsys, "local", ARUKONE, *files)
    assert without_times(dask) == without_times(local)
    common = ("generate", "arukone", "--size", "5", "--pairs", "3", "--count", "4", "--seed", "3", "--jobs", "2")
    assert run_main(capsys, *common, "--out", tmp_path / "a")[0] == 0
    assert run_main(capsys, *common, "--out", tmp_path / "b", "--scheduler", "local")[0] == 0
    assert [p.read_text() for p in sorted((tmp_path / "a").iterdir())] == \
        [p.read_text() for p in sorted((tmp_path / "b").iterdir())]
