"""The compiled copies of modules (setup.py) are used only while current (puzzledsl/native.py):
an edited source runs as written, `PUZZLEDSL_PURE=1` runs every module from source, and a build
without a compiler is the pure package. Both ways give the same answers (the whole suite runs
on whichever the install made; `test_pure_and_compiled_agree` compares the two directly)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

from puzzledsl import native

ROOT = Path(__file__).resolve().parents[1]
BUILT = (ROOT / "puzzledsl" / "_native.txt").exists()


def _module(tmp_path: Path, text: str) -> tuple[Path, str]:
    """A module's source and a stand-in for its compiled copy (only its presence is looked at)."""
    source = tmp_path / "m.py"
    source.write_text(text)
    (tmp_path / f"m{EXTENSION_SUFFIXES[0]}").write_bytes(b"")
    return source, native.digest_of(source)


def test_a_compiled_copy_is_current_only_while_its_source_is_unchanged(tmp_path: Path) -> None:
    source, digest = _module(tmp_path, "x = 1\n")
    assert native.current(source, digest) is None
    source.write_text("x = 2\n")  # the same length: the checksum tells them apart
    assert "changed since the build" in native.current(source, digest)
    source.write_text("x = 1\n")
    (tmp_path / f"m{EXTENSION_SUFFIXES[0]}").unlink()
    assert native.current(source, digest) == "not compiled"


def test_a_stale_module_is_loaded_from_its_source(tmp_path: Path) -> None:
    source, digest = _module(tmp_path, "x = 1\n")
    chooser = native.Chooser({"puzzledsl.m": digest}, pure=False)
    native.HERE, here = tmp_path, native.HERE
    try:
        assert chooser.find_spec("puzzledsl.m") is None  # current: the usual finders load the compiled copy
        source.write_text("x = 22\n")
        spec = chooser.find_spec("puzzledsl.m")
        assert spec is not None and spec.origin == str(source)
        assert chooser.find_spec("puzzledsl.other") is None  # not compiled: not this finder's business
        assert native.Chooser({"puzzledsl.m": native.digest_of(source)}, pure=True).find_spec("puzzledsl.m").origin \
            == str(source)
    finally:
        native.HERE = here


def _run(code: str, **env: str) -> str:
    clean = {k: v for k, v in os.environ.items() if k != "PUZZLEDSL_PURE"}
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=clean | env, capture_output=True, text=True,
                          check=True, timeout=120).stdout


def test_pure_runs_every_module_from_source() -> None:
    out = _run("import puzzledsl.ground, puzzledsl.closures as c, puzzledsl.native as n; print(c.__file__); "
               "print(n.summary())", PUZZLEDSL_PURE="1")
    first, summary = out.splitlines()
    assert first.endswith("closures.py")
    assert summary == "pure Python" or "PUZZLEDSL_PURE is set" in summary


@pytest.mark.skipif(not BUILT, reason="the modules were not compiled by this install (no C compiler, or a build "
                                      "that could not compile them)")
def test_pure_and_compiled_agree() -> None:
    """The same puzzles, compiled and pure, in two processes: the same solutions and counts."""
    code = ("import json, puzzledsl\n"
            "from puzzledsl.native import summary\n"
            "k = puzzledsl.load('kakurasu/seed-5x5.puz')\n"
            "a = puzzledsl.load('arukone', num=[[1, None, None, 1], [None, 2, 2, None], [None] * 4, [None] * 4])\n"
            "print(json.dumps([summary(), k.solve()['black'], k.count(), a.count(limit=50)]))\n")
    compiled, pure = json.loads(_run(code)), json.loads(_run(code, PUZZLEDSL_PURE="1"))
    assert re.fullmatch(r"(\d+) of \1 modules compiled", compiled[0]) or "changed since the build" in compiled[0]
    assert "PUZZLEDSL_PURE is set" in pure[0]
    assert compiled[1:] == pure[1:]


def test_a_compiled_copy_no_manifest_records_is_never_loaded(tmp_path: Path, monkeypatch) -> None:
    """An editable build that stopped halfway left compiled copies and no manifest: they were
    loaded unchecked, and `--version` said "pure Python" (an installation test). Now every
    compiled file beside a source is found, and one the manifest does not record runs from source."""
    source, _ = _module(tmp_path, "x = 1\n")
    (tmp_path / "encode").mkdir()
    (tmp_path / "encode" / f"cnf{EXTENSION_SUFFIXES[0]}").write_bytes(b"")
    (tmp_path / "__pycache__").mkdir()
    monkeypatch.setattr(native, "HERE", tmp_path)
    assert sorted(native._compiled_copies()) == ["puzzledsl.encode.cnf", "puzzledsl.m"]
    assert "did not finish" in native.current(source, "unrecorded")
    spec = native.Chooser({"puzzledsl.m": "unrecorded"}, pure=False).find_spec("puzzledsl.m")
    assert spec is not None and spec.origin == str(source)


def test_nothing_compiled_reads_pure_python(tmp_path: Path, monkeypatch) -> None:
    """A build without a compiler records no module compiled: "pure Python", not "0 of 0 modules";
    one module the compiler refused is named."""
    (tmp_path / "_native.txt").write_text("puzzledsl.m -\npuzzledsl.n -\n")
    monkeypatch.setattr(native, "HERE", tmp_path)
    monkeypatch.setattr(sys, "meta_path", [f for f in sys.meta_path if not isinstance(f, native.Chooser)])
    assert native.summary() == "pure Python"
    _, digest = _module(tmp_path, "x = 1\n")
    (tmp_path / "_native.txt").write_text(f"puzzledsl.m {digest}\npuzzledsl.n -\n")
    monkeypatch.setattr(sys, "meta_path", [f for f in sys.meta_path if not isinstance(f, native.Chooser)])
    assert native.summary() == "1 of 2 modules compiled; n: the build could not compile it"
