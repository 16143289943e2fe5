"""Fuzzing (hypothesis): mutated rule files and mutated data files of every importer must give
an answer or a located input error, never an internal error (exit 70) or a traceback.

The default run is short (a few dozen cases each); `-m slow` runs thousands
(`PUZZLEDSL_FUZZ_EXAMPLES=N` sets how many). Cases it found are kept in `tests/data/fuzz/`
and replayed on every run (`test_found_cases`): a `.puz` is solved, a `FORMAT.txt`
(`FORMAT.NAME.txt`) is read with that importer.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from puzzledsl.cli import main
from puzzledsl.errors import PuzzleError
from puzzledsl.importers import IMPORTERS
from tests.test_importers import BATTLESHIP, CSPLIB, KAKURASU, PYCSP3
from tests.test_importers_numberlink import ADC, BWINF, FLOWFREE, IMOS, JANKO, THOMASAHLE
from tests.test_importers_planning import CHILLY_JSON, CHILLY_TXT, PDDL, PEG

ROOT = Path(__file__).resolve().parents[1]
FOUND = ROOT / "tests" / "data" / "fuzz"
RULES = sorted(p for p in (ROOT / "puzzles").rglob("*.puz"))
SHORT = int(os.environ.get("PUZZLEDSL_FUZZ_EXAMPLES", "0")) or 25
LONG = int(os.environ.get("PUZZLEDSL_FUZZ_EXAMPLES", "0")) or 2000


def _kit(problem: str) -> str:
    return '{"data": {"a": {"problem": ' + repr(problem).replace("'", '"') + "}}}"


SAMPLES = {
    "adc2015": ADC, "bwinf_arukone": BWINF, "flowfree": FLOWFREE, "imos_numberlink": IMOS,
    "janko_arukone": JANKO, "thomasahle": THOMASAHLE, "janko_kakurasu": KAKURASU,
    "janko_battleship": BATTLESHIP, "csplib_battleship": CSPLIB, "pycsp3_battleship": PYCSP3,
    "chilly_text": CHILLY_TXT, "chilly_json": CHILLY_JSON, "peg_board": PEG, "pddl_pegsol": PDDL,
    "puzzlekit_arukone": _kit(JANKO), "puzzlekit_kakurasu": _kit(KAKURASU),
    "puzzlekit_battleship": _kit(BATTLESHIP),
    "puzzlink": "https://puzz.link/p?starbattle/6/6/1/4ilbhgdnmhou",
    "penpa": (  # tests/test_penpa.py: pzprjs's 4×4 Sudoku, written by `--url penpa`
        "https://swaroopg92.github.io/penpa-edit/#m=edit&p=7VNNb8IwDL"
        "33VyCffWgSGE1ubINdGPuAaUJVhaBjolpRJwrTFNT/PsdhlAPSNk2TOExp3GcnsfNiu9w8FS8bbNJQEYYo3NAhTy3cF+7GKFvnc9"
        "MY+gOdzXpRrEwDEW96PXye5uUcg3i3OQm2VhvbQXtlYhCAIGkKSNDema0dkhFQJAjLTb7O0iIvVvBps31/RBLs1vCR1x268EYREh"
        "7sMMExwTRbpfl80veWWxPbEYKLes6nHYRl8TaH3a2cnhbLWeYMs+maGJaL7BVQ0ULJTKGOcG3ssELb+S4DVTNQewbqOAP55wy0Zz"
        "CoKkrOPXGYmDghOg81jGo4NNvKXW4LQpMDVxacP5BOlXtVNUlVe7V5qJIDwW7GLHssJcsRRUGrWF6yDFm2WPZ5T5eCt1sYKTASIV"
        "JUjIxcWWqPNL1h2y9r1KE3hocbpUcStXNTuSw43xcsmyzPOGbb8f7Ry/ye3pfXiUXkOxJbx/9JEFOvVQG8A096e0mp/2+/U24/l6"
        "jw1Ert1K5DxQ9pPi3LLIUk+AA="
    ),
}

# Words and numbers a mutation inserts: the language's keywords and punctuation, and the numbers
# that break things (0, negatives, 2^31, 2^62, 2^63, 10^9, 10^20).
TOKENS = ["forall", "exists", "sum", "count", "alldiff", "min", "max", "connected", "if", "then", "else", "not",
          "and", "or", "->", "==", "!=", "<=", "..", "in", "where", ":", ",", "(", ")", "[", "]", "{", "}", '"',
          '"""', "\n", " ", "?", "-", "*", "/", "%", "true", "false", "var", "given", "rule", "define", "use",
          "state", "action", "goal", "init", "horizon", "show", "cells", "orth", "edges", "bool", "int", "sym",
          "0", "-1", "1", "2147483648", "4611686018427387904", "9223372036854775808", "1000000000",
          "100000000000000000000", "x", "N", "#"]


@st.composite
def mutated(draw: st.DrawFn, text: str) -> str:
    """1-3 edits: delete a slice, insert a token, replace a number, duplicate or drop a line."""
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["delete", "insert", "number", "dup", "drop"]))
        if not text:
            text = draw(st.sampled_from(TOKENS))
            continue
        i = draw(st.integers(0, len(text)))
        if kind == "delete":
            text = text[:i] + text[i + draw(st.integers(1, 8)):]
        elif kind == "insert":
            text = text[:i] + draw(st.sampled_from(TOKENS)) + text[i:]
        elif kind == "number":
            nums = list(re.finditer(r"\d+", text))
            if nums:
                m = nums[draw(st.integers(0, len(nums) - 1))]
                text = text[:m.start()] + draw(st.sampled_from(TOKENS[-10:-2])).lstrip("-") + text[m.end():]
        else:
            lines = text.split("\n")
            k = draw(st.integers(0, len(lines) - 1))
            lines[k:k + 1] = [lines[k]] * 2 if kind == "dup" else []
            text = "\n".join(lines)
    return text


def check_rules(text: str, tmp: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp / "fuzz.puz"
    f.write_text(text, encoding="utf-8")
    capsys.readouterr()
    try:
        rc = main(["solve", str(f), "--time-limit", "2", "--limit", "cells=20000", "--limit", "domain=2000",
                   "--no-color"])
    except SystemExit as exc:  # argparse: cannot happen with these arguments
        rc = exc.code
    err = capsys.readouterr().err
    assert rc in (0, 1, 2, 3), (rc, err, text)
    assert "internal error" not in err and "Traceback" not in err, (err, text)


def check_importer(fmt: str, text: str) -> None:
    try:
        IMPORTERS[fmt].load(text, "fuzz.txt")
    except PuzzleError:
        pass


def _fuzz_rules(examples: int):
    @settings(max_examples=examples, deadline=None, derandomize=examples <= SHORT,
              suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
    @given(data=st.data())
    def run(tmp_path: Path, capsys: pytest.CaptureFixture[str], data: st.DataObject) -> None:
        source = data.draw(st.sampled_from(RULES))
        check_rules(data.draw(mutated(source.read_text(encoding="utf-8"))), tmp_path, capsys)
    return run


def _fuzz_importers(examples: int):
    @settings(max_examples=examples, deadline=None, derandomize=examples <= SHORT)
    @given(data=st.data())
    def run(data: st.DataObject) -> None:
        fmt = data.draw(st.sampled_from(sorted(SAMPLES)))
        check_importer(fmt, data.draw(mutated(SAMPLES[fmt])))
    return run


test_fuzz_rules = _fuzz_rules(SHORT)
test_fuzz_importers = _fuzz_importers(SHORT * 8)
test_fuzz_rules_long = pytest.mark.slow(_fuzz_rules(LONG))
test_fuzz_importers_long = pytest.mark.slow(_fuzz_importers(LONG * 5))


def test_every_importer_has_a_sample() -> None:
    # the janko genre importers share one layout reader (tests/test_genres_bundled.py covers it);
    # TODO: give them fuzz samples too
    from puzzledsl.importers.janko_genres import genre_importers
    shared = {imp.name for imp in genre_importers()}
    assert set(SAMPLES) == set(IMPORTERS) - shared


@pytest.mark.parametrize("case", sorted(FOUND.glob("*")) if FOUND.is_dir() else [], ids=lambda p: p.name)
def test_found_cases(case: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = case.read_text(encoding="utf-8")
    if case.suffix == ".puz":
        check_rules(text, tmp_path, capsys)
    else:
        check_importer(case.name.split(".")[0], text)
