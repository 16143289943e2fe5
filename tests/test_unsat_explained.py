""""No solution" names every rule of the clash: also the rules whose forced values the compiler
folds into the rules after them, and the graph rules (`connected`) checked by cuts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from puzzledsl.cli import main


def _conflict(tmp_path: Path, text: str, capsys: pytest.CaptureFixture[str]) -> list[str]:
    p = tmp_path / "p.puz"
    p.write_text(text)
    assert main(["solve", str(p), "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == "unsat"
    return sorted(c["label"] for c in out["conflict"] or [])


def test_a_rule_that_forces_values_is_named_with_the_one_it_breaks(tmp_path, capsys) -> None:
    text = 'var x[1..2]: bool\nrule "both": x[1] and x[2]\nrule "not both": not (x[1] and x[2])\n'
    assert _conflict(tmp_path, text, capsys) == ["both", "not both"]


def test_the_order_of_the_rules_does_not_matter(tmp_path, capsys) -> None:
    text = 'var x[1..2]: bool\nrule "not both": not (x[1] and x[2])\nrule "both": x[1] and x[2]\n'
    assert _conflict(tmp_path, text, capsys) == ["both", "not both"]


def test_a_connectivity_rule_takes_part(tmp_path, capsys) -> None:
    text = ('var b[1..3]: bool\nrule "ends": b[1] and b[3]\nrule "gap": not b[2]\n'
            'rule "one piece": connected(i in 1..3: b[i])\nrule "free": b[1] or b[2]\n')
    assert _conflict(tmp_path, text, capsys) == ["ends", "gap", "one piece"]


def test_a_rule_the_givens_alone_break_is_still_said_so(tmp_path, capsys) -> None:
    p = tmp_path / "p.puz"
    p.write_text('given g: int\ng = 3\nvar x[1..2]: bool\nrule "g small": g < 2\nrule "x": x[1]\n')
    assert main(["solve", str(p), "--no-color"]) == 1
    assert "“g small” at" in capsys.readouterr().out


def test_a_rule_instance_the_givens_break_names_its_loop_values(tmp_path, capsys) -> None:
    """Which clue is impossible, not only which rule: `(where p = (2, 1))`."""
    p = tmp_path / "p.puz"
    p.write_text('given n[1..2, 1..2]: int? = """\n- -\n3 -\n"""\nvar x[1..2, 1..2]: bool\n'
                 'rule "clue": forall p in cells(n) where known(n[p]): count(c in 1..2: x[p[0], c]) == n[p]\n')
    assert main(["solve", str(p), "--no-color"]) == 1
    assert "cannot hold for these givens (where p = (2, 1))" in capsys.readouterr().out
    assert main(["solve", str(p), "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["conflict"][0]["where"] == {"p": "(2, 1)"}


@pytest.mark.parametrize("decl, rule, said", [
    ("", "1 == 2", "never holds: it reads no given and no decision variable"),
    ("var y[1..3]: bool\n", "count(i in 1..3: y[i]) == 5", "cannot hold, whatever its variables' values: it reads no"),
    ("var y[1..3]: bool\n", "forall(i in 1..3: count(j in 1..3 where j != i: y[j]) == 3)",
     "cannot hold, whatever its variables' values (where i = 1): it reads no given"),
    ("var y[1..N]: bool\n", "count(i in 1..N: y[i]) == 5", "cannot hold for these givens"),
    ("var v: 1..N\n", "v == 7", "cannot hold for these givens"),  # the givens set the variable's range
])
def test_a_false_rule_says_for_these_givens_only_when_it_reads_them(tmp_path, capsys, decl, rule, said) -> None:
    p = tmp_path / "p.puz"
    p.write_text(f'given N: int\nN = 3\n{decl}var x: bool\nrule "r": {rule}\n')
    assert main(["solve", str(p), "--no-color"]) == 1
    assert f"“r” at {p}:" in (out := capsys.readouterr().out) and said in out, out


@pytest.mark.parametrize("rowsum, row", [([1, 5, 6, 10, 7], 5), ([2, 5, 6, 10, 6], 1), ([1, 5, 6, 9, 6], 4)])
def test_the_clashing_instances_name_the_wrong_clue(rowsum, row) -> None:
    """Friction log 11: on a large board "these rules cannot all hold" named only rules, and the
    wrong clue had to be hunted for. Seed 003's Kakurasu with one row clue changed (each alone
    is possible): the clash names that row among the rule's instances."""
    import puzzledsl
    from tests.bruteforce import kakurasu_count

    colsum = [13, 3, 3, 4, 11]
    assert kakurasu_count(rowsum, colsum) == 0
    conflict = dict(puzzledsl.load("kakurasu", rowsum=rowsum, colsum=colsum).outcome().conflict)
    assert set(conflict) == {"row sums", "column sums"}
    assert conflict["row sums"].endswith(f"(where r = {row})"), conflict
    assert "(where c = " in conflict["column sums"]


def test_instances_whose_loop_values_are_lists(tmp_path, capsys) -> None:
    """Loop values may be lists (a shape's cells): narrowing the clash to instances keyed them in a
    dict and ended in an internal error (unhashable list) on this puzzle without a solution."""
    p = tmp_path / "p.puz"
    p.write_text('define shapes = [[(0, 0), (0, 1)], [(0, 0), (1, 0)]]\nvar x[1..2, 1..2]: bool\n'
                 'rule "cover": forall s in shapes: count(o in s: x[(1, 1) + o]) == 2\n'
                 'rule "few": count(q in cells(x): x[q]) <= 2\n')
    assert main(["solve", str(p), "--no-color"]) == 1
    out = capsys.readouterr().out
    assert "(where s = [(0, 0), (0, 1)]; s = [(0, 0), (1, 0)])" in out and "“few”" in out


def test_a_clash_with_a_graph_rule_names_the_clues_too(tmp_path, capsys) -> None:
    """Friction log 17: a region-size rule (checked by cuts) in the clash kept the other rule's
    instances from being narrowed, so a wrong Fillomino clue was named by its rules alone; the
    graph rule now holds whole while the clue instances are narrowed (here to two of the five)."""
    p = tmp_path / "p.puz"
    p.write_text('use "fillomino"\nclue = """\n2.2\n.2.\n2.2\n"""\n')
    assert main(["solve", str(p), "--json"]) == 1
    conflict = {c["label"]: c["at"] for c in json.loads(capsys.readouterr().out)["conflict"]}
    clues = conflict["given numbers stay"]
    assert "(where p = " in clues and clues.count("p = ") < 5
    assert "a region of equal numbers has as many cells as its number" in conflict


def test_the_arguments_of_all_are_no_loop_values_of_the_user(tmp_path, capsys) -> None:
    """`all(a, not b)` is grounded one argument at a time under the parser's name `$v`; a clash
    printed `(where $v = <puzzledsl.values.Cond object at 0x…>)` (friction log 19)."""
    p = tmp_path / "p.puz"
    p.write_text('var s[1..2, 1..2]: bool\nrule "r": count(s[1, 1], not s[1, 2]) == 1\n'
                 'rule "q": all(s[1, 1], not s[1, 2])\n')
    assert main(["solve", str(p), "--no-color"]) == 1
    out = capsys.readouterr()
    text = out.out + out.err
    assert "cannot all hold" in text and "“q”" in text
    assert "$v" not in text and "object at" not in text


def test_explain_of_a_puzzle_without_solution_names_the_clash(tmp_path, capsys) -> None:
    """`explain` said only "nothing to explain" where `solve` names the rules that clash
    (friction log 19); `--json` gives them as `conflict`, as `solve --json` does."""
    p = tmp_path / "p.puz"
    p.write_text('var x[1..2]: bool\nrule "both": x[1] and x[2]\nrule "not both": not (x[1] and x[2])\n')
    assert main(["explain", str(p), "--no-color"]) == 1
    text = capsys.readouterr().out
    assert "nothing to explain" in text and "cannot all hold" in text and "“not both”" in text
    assert main(["explain", str(p), "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == "unsat" and sorted(c["label"] for c in out["conflict"]) == ["both", "not both"]
