"""Counts printed in English (issue 11: "5 presss"): the plural helper and its uses."""

from __future__ import annotations

from pathlib import Path

import pytest

from puzzledsl.cli import main
from puzzledsl.report import stats_text
from puzzledsl.words import count, plural


@pytest.mark.parametrize("noun, many", [
    ("press", "presses"), ("switch", "switches"), ("push", "pushes"), ("box", "boxes"), ("buzz", "buzzes"),
    ("copy", "copies"), ("day", "days"), ("jump", "jumps"), ("move", "moves"), ("solution", "solutions"),
    ("Press", "Presses"), ("child", "children"), ("y", "ys"),
])
def test_plural(noun: str, many: str) -> None:
    assert plural(noun) == many


def test_count() -> None:
    assert count(1, "press") == "1 press"
    assert count(0, "press") == "0 presses"
    assert count(5, "press") == "5 presses"
    assert count(2, "different number") == "2 different numbers"
    assert count(3, "datum", many="data") == "3 data"


def test_stats_are_counted() -> None:
    assert stats_text({"variables": 1, "clauses": 2, "rechecked": 1}) == "1 variable, 2 clauses, 1 rechecked"


LAMPS = """state on[5]: bool wrap
action press(i in 0..4) "{i}": on[i] := not on[i], on[i - 1] := not on[i - 1], on[i + 1] := not on[i + 1]
init forall i in 0..4: not on[i]
goal forall i in 0..4: on[i]
"""


def test_a_plan_counts_its_actions_by_name(tmp_path: Path, capsys) -> None:
    p = tmp_path / "lamps.puz"
    p.write_text(LAMPS, encoding="utf-8")
    assert main(["solve", str(p), "--no-color"]) == 0
    out = capsys.readouterr().out
    assert "plan (5 presses, optimal)" in out and "presss" not in out
