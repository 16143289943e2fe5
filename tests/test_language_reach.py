"""The language's reach (issue 10): bugs and messages, merged constraints, answers that
uniqueness is projected onto, `where` after any binding, expression defaults.

Expectations are written from the puzzles' meaning (counted by hand or by brute force),
never read back from the encoder.
"""

from __future__ import annotations

import json
import re
from itertools import product
from pathlib import Path

import pytest

from puzzledsl.cli import main
from puzzledsl.compile import compile_file
from puzzledsl.errors import Span
from puzzledsl.ground_common import shape_variants
from puzzledsl.solve import Mode, solve

ROOT = Path(__file__).resolve().parents[1]
HEAD = re.compile(r"^(?P<path>.+?):(?P<line>\d+):(?P<col>\d+): error: (?P<msg>.+)$", re.M)


def run(capsys, *args: object) -> tuple[int, str, str]:
    rc = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return rc, out, err


def write(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def located(err: str) -> tuple[int, int, str, str]:
    """(line, column, message, help) of the one error printed."""
    m = HEAD.search(err)
    assert m, err
    help_ = next((ln[6:] for ln in err.splitlines() if ln.startswith("help: ")), "")
    return int(m["line"]), int(m["col"]), m["msg"], help_


# ---------------------------------------------------------------- 1. bugs and messages


def test_three_dimensional_variable_is_drawn_as_slices(tmp_path: Path, capsys) -> None:
    p = write(tmp_path, "b.puz", "var b[2, 2, 2]: bool\n"
                                 "rule forall (i, j, k) in cells(b): b[i, j, k] == (i + j + k == 1)\nshow b\n")
    rc, out, err = run(capsys, "solve", p, "--no-color")
    assert rc == 0, err
    # one board per value of the first index, each under its name
    assert "b[0, ·, ·]\n· ■\n■ ·" in out
    assert "b[1, ·, ·]\n■ ·\n· ·" in out


def test_four_dimensional_determined_and_second_solution(tmp_path: Path, capsys) -> None:
    p = write(tmp_path, "b.puz", "var b[1..2, 2, 1, 2]: bool\nrule count(p in cells(b): b[p]) == 1\n")
    rc, out, err = run(capsys, "solve", p, "--no-color", "--unique")
    assert rc == 0, err
    assert "not unique" in out and "b[2, 1, ·, ·]" in out
    rc, out, err = run(capsys, "solve", p, "--no-color", "--determined")
    assert rc == 0, err
    assert out.split("\n", 2)[2].count("?") == 8  # no cell is the same in all 8 solutions


@pytest.mark.parametrize("dims, expect", [("[3]", "e: 0-1"), ("[2, 1, 2]", "e: (0,0,0)-(0,0,1)")])
def test_edge_grids_that_are_not_2d_are_listed(tmp_path: Path, capsys, dims: str, expect: str) -> None:
    p = write(tmp_path, "e.puz", f"var e{dims}: edges\nrule forall (p, q) in adjacent(e): e[p, q] == ("
                                 "p == cells(e)[0] and q == cells(e)[1])\n")
    rc, out, err = run(capsys, "solve", p, "--no-color")
    assert rc == 0 and expect in out, err


def test_check_binds_an_instance_files_data(tmp_path: Path, capsys) -> None:
    write(tmp_path, "rules.puz", "given num[2, 3]: int\nvar x[2, 3]: bool\n"
                                 "rule forall (r, c) in cells(num): x[r, c] == (num[r, c] > 1)\n")
    inst = write(tmp_path, "inst.puz", 'use "rules"\nnum = [[1, 2, 3], [4, 5]]\n')
    rc, _, err = run(capsys, "check", inst)
    assert rc == 2
    assert located(err)[:3] == (2, 19, "ragged data for `num`: row 2 has 2 entries, the first has 3")
    rc, out, err = run(capsys, "check", tmp_path / "rules.puz")  # no data: nothing to bind, fine
    assert rc == 0 and out.startswith("ok"), err


RULES_N = ("given N: int\ngiven num[1..N, 1..N]: int? legend { \".\": ? }\n"
           "given sign[1..N, 1..N - 1]: sym? legend { \".\": ?, \"<\": lt } = ?\nvar x[1..N, 1..N]: 1..N\n"
           "rule forall p in cells(num) where known(num[p]): x[p] == num[p]\n"
           "rule forall (r, c) in cells(sign) where known(sign[r, c]): x[r, c] < x[r, c + 1]\n")


@pytest.mark.parametrize("name, text", [
    ("missing.puz", 'use "rules"\nsign = """\n<.\n..\n..\n"""\n'),  # an instance without `num`
    ("edge.puz", "given N: int = 3\nvar x[1..N, 1..N]: 1..N\n"  # its data is complete; an index is not
                 "rule forall r in 1..N, c in 1..N: x[r, c] < x[r, c + 1]\n"),
])
def test_check_reports_what_solve_reports_on_the_file_s_own_data(tmp_path: Path, capsys, name: str,
                                                                    text: str) -> None:
    """`check FILE` said ok where `solve FILE` rejected the file's own data: a given an instance file
    leaves out, an index out of range once the file's data is bound (docs/language.md §14)."""
    write(tmp_path, "rules.puz", RULES_N)
    f = write(tmp_path, name, text)
    rc, _, solved = run(capsys, "solve", f)
    assert rc == 2
    rc, _, checked = run(capsys, "check", f)
    assert rc == 2 and checked == solved, checked
    assert located(checked)[2] in ("no value for the given `num`", "index (1, 4) is outside `x[1..3, 1..3]` "
                                                                     "(where r = 1, c = 3)"), checked


def test_check_grounds_a_file_that_holds_its_data(tmp_path: Path, capsys) -> None:
    write(tmp_path, "rules.puz", RULES_N)
    f = write(tmp_path, "ok.puz", 'use "rules"\nnum = """\n1..\n...\n...\n"""\n')
    rc, out, err = run(capsys, "check", f)
    _, sizes, _ = run(capsys, "check", tmp_path / "rules.puz", "--data", f)  # `ok: 27 decision variables, …`
    assert rc == 0 and out.startswith("ok: ") and out.endswith(f" ({sizes[4:].strip()})\n"), out + err
    rc, out, err = run(capsys, "check", tmp_path / "rules.puz")  # rules alone: nothing to ground
    assert rc == 0 and "decision variable" not in out, err


@pytest.mark.parametrize("rule, col, where", [
    ('rule "never": 1 == 2', 15, ""),
    ('define big = 5\nrule "never": forall i in 1..3: i > big', 33, " (where i = 1)"),
])
@pytest.mark.parametrize("given", ["", "given N: int\n"])
def test_check_reports_a_rule_false_whatever_the_data(tmp_path: Path, capsys, rule: str, col: int, where: str,
                                                      given: str) -> None:
    """A rule that reads no given and no decision variable is known without data: false, it leaves
    every puzzle of the rules without a solution, and `check` said ok."""
    f = write(tmp_path, "p.puz", f"{given}var x[1..3]: 1..3\n{rule}\nrule \"fine\": x[1] != x[2] and 1 < 2\n")
    rc, _, err = run(capsys, "check", f)
    assert rc == 2
    line = 2 + given.count("\n") + rule.count("\n")
    assert located(err)[:3] == (line, col, f"rule “never” never holds{where}"), err


@pytest.mark.parametrize("data, line, col, message", [
    ('{"num": [[1, 2, 3],\n        [4, 5]]}', 2, 9, "ragged data for `num`: row 2 has 2 entries"),
    ('{"num": [[1, 2, 3],\n        [4, true, 6]]}', 2, 13, "`num` holds int values, not true/false"),
    ('{"num": [[1, 2, 3],\n [4, null, 6]]}', 2, 6, "`num` may not hold unknown values"),
    ('{"num": [[1, 2, 3],\n [4, 5, "x"]]}', 2, 9, "`x` is not a valid value for `num`"),
    ('{"num": [[1, 2, 3]]}', 1, 2, "`num` should have 2 entries along dimension 1"),
    ('{"num": [1, 2, 3],\n "numb": 3}', 2, 2, "`numb` is not a given of these rules"),
])
def test_json_data_errors_are_located_at_the_value(tmp_path: Path, capsys, data: str, line: int, col: int,
                                                   message: str) -> None:
    rules = write(tmp_path, "rules.puz", "given N: int = 2\ngiven num[N, 3]: int\nvar x: bool\nrule x\n")
    d = write(tmp_path, "d.json", data)
    rc, _, err = run(capsys, "solve", rules, "--data", d)
    assert rc == 2
    got = located(err)
    assert got[:2] == (line, col) and message in got[2], err


@pytest.mark.parametrize("rule, col, message, hint", [
    ("rule a = 1", 8, "unexpected `=`", "write `==`"),
    ("rule forall i in 1..3 where i = 2: a == i", 31, "unexpected `=`", "write `==`"),
    ("rule a == 1 && a != 2", 13, "unexpected character `&`", "write `and`"),
    ("rule a == 1 || a == 2", 13, "unexpected character `|`", "write `or`"),
    ("rule ! (a == 1)", 6, "unexpected character `!`", "write `not`"),
    ("given state: int", 7, "`state` is a reserved word and cannot be used as a name", "choose another name"),
    ("rule forall sum in 1..2: a != sum", 13, "`sum` is a reserved word", "`sum_`"),
])
def test_syntax_errors_hint_the_right_spelling(tmp_path: Path, capsys, rule: str, col: int, message: str,
                                               hint: str) -> None:
    p = write(tmp_path, "p.puz", f"var a: 1..3\n{rule}\n")
    rc, _, err = run(capsys, "check", p)
    assert rc == 2
    line, c, msg, help_ = located(err)
    assert (line, c) == (2, col) and message in msg and hint in help_, err


# ---------------------------------------------------------------- 2. identical ground constraints

REGIONS = ["aabb", "aabb", "ccdd", "ccdd"]


def _size(tmp_path: Path, rule: str) -> tuple[int, int, int | None]:
    """(variables, clauses, count of solutions) of a 4×4 board with one star per region."""
    text = ('given region[1..4, 1..4]: sym = """\n' + "\n".join(REGIONS) + '\n"""\n'
            "var star[1..4, 1..4]: bool\n" + rule + "\n")
    c = compile_file(write(tmp_path, "r.puz", text))
    size = solve(c).stats
    return size["variables"], size["clauses"], solve(c, mode=Mode(count=0)).count


def test_a_constraint_stated_once_per_cell_is_encoded_once(tmp_path: Path) -> None:
    per_cell = ("rule forall (r0, c0) in cells(region): count((r, c) in cells(region) "
                "where region[r, c] == region[r0, c0]: star[r, c]) == 1")
    per_region = ("rule forall k in [(1, 1), (1, 3), (3, 1), (3, 3)]: count((r, c) in cells(region) "
                  "where region[r, c] == region[k]: star[r, c]) == 1")
    a, b = _size(tmp_path, per_cell), _size(tmp_path, per_region)
    assert a == b
    assert a[2] == 4 ** 4  # any one of four cells in each of the four regions


def test_a_pair_rule_seen_from_both_cells_is_one_clause(tmp_path: Path) -> None:
    both = "rule forall (r, c) in cells(region), d in orth where inside(region, (r, c) + d): " \
           "not (star[r, c] and star[(r, c) + d])"
    one = "rule forall (p, q) in adjacent(region): not (star[p] and star[q])"
    a, b = _size(tmp_path, both), _size(tmp_path, one)
    assert a == b and a[1] == 24  # 24 orthogonal pairs on a 4×4 board
    # independent count: sets of cells with no two orthogonal neighbours
    cells = [(r, c) for r in range(4) for c in range(4)]
    count = sum(1 for bits in product((0, 1), repeat=16)
                if not any(bits[i] and bits[j] for i, (r, c) in enumerate(cells) for j, q in enumerate(cells)
                           if abs(r - q[0]) + abs(c - q[1]) == 1))
    assert a[2] == count


def test_tuples_order_lexicographically_so_a_pair_rule_can_take_half_the_offsets(tmp_path: Path,
                                                                                 capsys) -> None:
    """`d > (0, 0)` keeps one of each two opposite offsets: the same variables, clauses and
    models as the rule stated from both cells; a filter orders cells the same way."""
    every = "rule forall p in cells(region), d in king where inside(region, p + d): not (star[p] and star[p + d])"
    half = ("rule forall p in cells(region), d in king where d > (0, 0) and inside(region, p + d): "
            "not (star[p] and star[p + d])")
    a, b = _size(tmp_path, every), _size(tmp_path, half)
    assert a == b
    cells = [(r, c) for r in range(4) for c in range(4)]
    touch = [(i, j) for i, p in enumerate(cells) for j, q in enumerate(cells)
             if i < j and max(abs(p[0] - q[0]), abs(p[1] - q[1])) == 1]
    assert a[2] == sum(1 for bits in product((0, 1), repeat=16) if not any(bits[i] and bits[j] for i, j in touch))
    # lexicographic: (1, 4) < (2, 1), so only the cells of the first row are below (2, 1)
    _, _, n = _size(tmp_path, "rule forall p in cells(region): star[p] == (p < (2, 1))")
    assert n == 1
    path = write(tmp_path, "bad.puz", "var x: bool\nrule x or (1, 2) < 3\n")
    rc, _, err = run(capsys, "solve", path)
    assert rc == 2 and "orders a tuple only with another tuple" in err and located(err)[:2] == (2, 11), err


@pytest.mark.parametrize("backend", ["sat", "z3"])
def test_division_and_remainder_of_an_integer_variable(tmp_path: Path, backend: str) -> None:
    """`x / k` and `x % k` of one integer variable, negative values and divisors and a
    remainder with gaps included, counted against brute force; in a sum too."""
    text = ("var x: -4..9\nvar y: 4..6\nvar z: 0..5\n"
            "rule x % 2 == 1\nrule y % 5 != z / -2 + 3\nrule x / 3 + z % 4 <= 2\n"
            "rule x % 3 + y % 5 + z % 2 >= 1\nshow x\nshow y\nshow z\n")
    c = compile_file(write(tmp_path, "m.puz", text))
    brute = sum(1 for x in range(-4, 10) for y in range(4, 7) for z in range(6)
                if x % 2 == 1 and y % 5 != z // -2 + 3 and x // 3 + z % 4 <= 2
                and x % 3 + y % 5 + z % 2 >= 1)
    assert 0 < brute < 14 * 3 * 6
    assert solve(c, backend_kind=backend, mode=Mode(count=0)).count == brute


def test_a_sum_cannot_be_divided_and_the_error_says_what_can(tmp_path: Path, capsys) -> None:
    path = write(tmp_path, "m.puz", "var a: 0..3\nvar b: 0..3\nrule (a + b) % 2 == 1\n")
    rc, _, err = run(capsys, "solve", path)
    assert rc == 2 and "one integer variable" in err and located(err)[:2] == (3, 6), err


def test_if_on_a_decision_with_sums_a_known_number_apart(tmp_path: Path, capsys) -> None:
    """`if c then x + 1 else x + 3` is `x + 3 - 2 * c`: counted against brute force; branches
    that differ by more than a number are an error that says how to split the rule."""
    text = ("var x: 0..5\nvar y: 0..5\nvar c: bool\n"
            "rule (if c then x + y + 1 else y + x + 3) == 5\nrule (if not c then 2 * y else y + y - 1) >= 3\n")
    brute = sum(1 for x in range(6) for y in range(6) for c in (True, False)
                if (x + y + 1 if c else x + y + 3) == 5 and (2 * y - 1 if c else 2 * y) >= 3)
    assert solve(compile_file(write(tmp_path, "i.puz", text)), mode=Mode(count=0)).count == brute > 0
    path = write(tmp_path, "bad.puz", "var a: 0..3\nvar b: 0..3\nvar c: bool\nrule (if c then a else b) == 2\n")
    rc, _, err = run(capsys, "solve", path)
    assert rc == 2 and "differ by a known number" in err and "`c -> A` and `not c -> B`" in err, err


# ---------------------------------------------------------------- 3. answers: projected uniqueness


def test_a_helper_variable_does_not_make_a_puzzle_ambiguous(tmp_path: Path, capsys) -> None:
    """The issue's example: without `answer`, two models that are drawn the same count as two
    solutions (and the report says why); with `answer x`, the puzzle is unique."""
    base = "var x: bool\nvar aux: bool\nrule x\nshow x\n"
    rc, out, err = run(capsys, "solve", write(tmp_path, "a.puz", base), "--unique", "--no-color")
    assert rc == 0 and "not unique" in out, err
    assert "differ only in `aux`" in out and "declare `answer x`" in out
    rc, out, err = run(capsys, "solve", write(tmp_path, "b.puz", base + "answer x\n"), "--unique", "--json")
    obj = json.loads(out)
    assert rc == 0 and obj["unique"] is True and obj["answer"] == ["x"] and obj["count"] == 1, err


def test_a_view_over_a_given_is_not_suggested_as_the_answer(tmp_path: Path, capsys) -> None:
    """Drawn as a view over a given, two solutions that differ in a helper look the same: the
    hint may not name the given (`answer` takes variables), and says what to do instead."""
    rules = ("given g[1..2]: sym\nvar level[values(g)]: 1..3\ndefine wet(i) = level[g[i]] >= 3\n"
             "rule forall i in 1..2: not wet(i)\nshow wet over g\n")
    data = write(tmp_path, "d.txt", "g = [a, a]\n")
    rc, out, err = run(capsys, "solve", write(tmp_path, "v.puz", rules), "--data", data, "--unique", "--no-color")
    assert rc == 0 and "not unique" in out, err
    assert "differ only in `level`, which the drawing (`wet`, a view) does not show" in out
    assert "answer g" not in out and "make the drawn cells a variable of their own" in out


def test_a_view_may_index_by_solved_values_and_a_rule_may_not(tmp_path: Path, capsys) -> None:
    """A view is evaluated with the solved values (docs §12), so `letters[cell[r, c]]` draws a
    letter per value (friction log 12: rejected as "an index must be known before solving");
    the same define read by a rule still is."""
    view = ("define letters = [A, B, C]\nsymbol A, B, C, empty\nvar cell[1..1, 1..3]: 0..3\n"
            "rule cell[1, 1] == 0 and cell[1, 2] == 2 and cell[1, 3] == 3\n"
            "define shown(r, c) = if cell[r, c] == 0 then empty else letters[cell[r, c] - 1]\n"
            "show shown over cell\n")
    rc, out, err = run(capsys, "solve", write(tmp_path, "v.puz", view), "--no-color")
    assert rc == 0 and re.search(r"empty\s+B\s+C", out), out + err
    rc, out, err = run(capsys, "check", write(tmp_path, "r.puz", view + "rule shown(1, 2) == B\n"))
    assert rc == 2 and "an index must be known before solving" in err


PROJECTED = """var x[3]: bool
var aux[3]: bool
var n: 0..3
rule count(i in 0..2: x[i]) == 1
rule forall i in 0..2: x[i] -> aux[i]
rule n == count(i in 0..2: aux[i])
"""


def _models(answer_names: tuple[str, ...] | None) -> int:
    """Brute force: the number of distinct projections of the models onto `answer_names`."""
    seen = set()
    for x, aux in product(product((0, 1), repeat=3), repeat=2):
        if sum(x) == 1 and all(a or not b for a, b in zip(aux, x)):
            full = {"x": x, "aux": aux, "n": sum(aux)}
            seen.add(tuple(full[k] for k in (answer_names or ("x", "aux", "n"))))
    return len(seen)


@pytest.mark.parametrize("answer", [None, ("x",), ("n",), ("x", "n"), ("aux",)])
@pytest.mark.parametrize("backend", ["sat", "z3"])
def test_counting_is_projected_onto_the_answer(tmp_path: Path, answer: tuple[str, ...] | None,
                                               backend: str) -> None:
    text = PROJECTED + (f"answer {', '.join(answer)}\n" if answer else "")
    c = compile_file(write(tmp_path, "p.puz", text))
    out = solve(c, backend, mode=Mode(count=0))
    assert out.count == _models(answer) and out.count_complete
    unique = solve(c, backend, mode=Mode(unique=True))
    assert unique.unique is (_models(answer) == 1)


def test_determined_cells_of_the_answer(tmp_path: Path) -> None:
    text = "var x[3]: bool\nvar aux[3]: bool\nrule x[0] and not x[2]\nrule aux[0] or aux[1]\nanswer x\n"
    c = compile_file(write(tmp_path, "d.puz", text))
    out = solve(c, mode=Mode(determined=True))
    assert out.determined is not None
    assert out.determined["x"].cells == {(0,): True, (1,): None, (2,): False}
    assert set(out.determined["aux"].cells.values()) == {None}  # not part of the answer: not decided


@pytest.mark.parametrize("line, message", [
    ("answer y", "unknown name `y`"),
    ("answer N", "`answer` names decision variables (`var`); `N` is not one"),
])
def test_answer_names_decision_variables(tmp_path: Path, capsys, line: str, message: str) -> None:
    p = write(tmp_path, "p.puz", f"given N: int = 1\nvar x: bool\n{line}\n")
    rc, _, err = run(capsys, "check", p)
    assert rc == 2 and located(err)[:3] == (3, 8, message), err


def test_answer_is_a_keyword_only_at_the_start_of_a_statement(tmp_path: Path, capsys) -> None:
    p = write(tmp_path, "p.puz", "var answer: bool\nrule answer\nanswer answer\n")
    rc, out, err = run(capsys, "solve", p, "--unique", "--no-color")
    assert rc == 0 and "unique" in out, err


# ---------------------------------------------------------------- 4. `where` anywhere, computed defaults

RAGGED = """given g[1..3]: int? = [2, ?, 3]
var x[1..3, 1..3]: bool
rule "clued rows start with g[i] shaded cells":
  forall i in 1..3 where known(g[i]), j in 1..g[i]: x[i, j]
rule "no other cell is shaded in a clued row":
  forall i in 1..3 where known(g[i]), j in 1..3 where j > g[i]: not x[i, j]
rule "an unclued row has at most one cell":
  atmost(1, i in 1..3 where not known(g[i]), j in 1..3: x[i, j])
"""


def test_where_after_any_binding(tmp_path: Path) -> None:
    c = compile_file(write(tmp_path, "w.puz", RAGGED))
    out = solve(c, mode=Mode(count=0))
    assert out.count == 4  # row 2: empty, or one of three cells
    sol = out.solutions[0]["x"].cells
    assert [sol[1, j] for j in (1, 2, 3)] == [True, True, False] and all(sol[3, j] for j in (1, 2, 3))


def test_where_after_a_binding_filters_before_the_next_source(tmp_path: Path) -> None:
    """`j in 1..g[i]` would read the unknown clue `g[2]` if the filter came after it."""
    text = ("given g[3]: int? = [1, ?, 2]\nvar x[3, 3]: bool\n"
            "rule count(i in 0..2 where known(g[i]), j in 0..g[i]: x[i, j]) == 5\n")
    out = solve(compile_file(write(tmp_path, "w.puz", text)), mode=Mode(count=0))
    assert out.count == 2 ** 4  # the five cells forced, the other four free


def test_a_where_after_a_binding_must_be_known(tmp_path: Path, capsys) -> None:
    p = write(tmp_path, "w.puz", "var x[3]: bool\nrule forall i in 0..2 where x[i], j in 0..1: x[j]\n")
    rc, _, err = run(capsys, "check", p)
    assert rc == 2 and located(err)[:3] == (
        2, 29, "a `where` filter must be known before solving, but this one depends on decision variables")


DEFAULTS = """given N: int
given H: int = N
given W: int = 2 * N - 1
given names[3]: sym = [a, b, a]
given g[1..N]: int? = [1, ?, 3]
given L[3]: int = [N, N + 1, H * W]
var x[1..H, 1..W]: bool
rule count(p in cells(x): x[p]) == L[1]
rule names[0] == names[2] and names[0] != names[1]
"""


def test_a_default_can_be_an_expression_over_givens(tmp_path: Path) -> None:
    c = compile_file(write(tmp_path, "d.puz", DEFAULTS))  # N = 3 from the shape of g
    assert (c.givens["N"], c.givens["H"], c.givens["W"]) == (3, 3, 5)
    assert [c.givens["L"].cells[(i,)] for i in range(3)] == [3, 4, 15]
    assert solve(c, mode=Mode(count=0)).count == 1365  # C(15, 4): one more than N cells
    c = compile_file(write(tmp_path, "e.puz", 'use "d"\nH = 1\n'))  # data overrides the default
    assert (c.givens["H"], c.givens["W"]) == (1, 5)


@pytest.mark.parametrize("text, message", [
    ("given N: int = M + 1\ngiven M: int = N\n", "the default of `N` reads `M`, which has no value"),
    ("given N: int = M\n", "unknown name `M`"),
    ("given N: int = 2\ngiven B: bool = N + 1\n", "the default of `B` needs a condition (true/false)"),
    ("given N: int = 2\nrule [N, ?] != [N, 1]\n", "`?`, strings and text blocks are data"),
])
def test_default_errors(tmp_path: Path, capsys, text: str, message: str) -> None:
    p = write(tmp_path, "d.puz", text + "var x: bool\n")
    rc, _, err = run(capsys, "solve", p)
    assert rc == 2 and message in located(err)[2], err


# ---------------------------------------------------------------- 5. variables created only where used

LAZY = """var x[3]: bool wrap
var y[1..2]: 0..2
rule x[0] and not x[-1]
"""


@pytest.mark.parametrize("lazy", [False, True])
def test_cells_no_rule_reads_are_free(tmp_path: Path, monkeypatch, lazy: bool) -> None:
    """Created lazily or not, the cells no rule reads are free: x[1] either way, y[1] and
    y[2] any of three values: 2 * 3 * 3 solutions, none unique, x[0] and x[2] determined."""
    if lazy:
        monkeypatch.setattr("puzzledsl.ground_declare.LAZY_FROM", 0)
    c = compile_file(write(tmp_path, "l.puz", LAZY))
    assert len(c.model.var_names) == (2 if lazy else 3 + 2 * 3)  # lazily: only x[0] and x[2] (read as x[-1])
    assert solve(c, mode=Mode(count=0)).count == 18
    assert solve(c, mode=Mode(count=5)).count == 5
    out = solve(c, mode=Mode(unique=True))
    assert out.unique is False and len(out.solutions) == 2
    assert out.solutions[0] != out.solutions[1]
    det = solve(c, mode=Mode(determined=True)).determined
    assert det["x"].cells == {(0,): True, (1,): None, (2,): False}
    assert set(det["y"].cells.values()) == {None}
    c = compile_file(write(tmp_path, "m.puz", LAZY + "answer x\nrule x[1]\n"))
    assert solve(c, mode=Mode(unique=True)).unique is True


def test_a_large_grid_gets_variables_for_the_cells_used_only(tmp_path: Path) -> None:
    text = ("var mem[1..50, 1..64, 0..14, -14..14]: bool\nvar ok: bool\n"
            "rule ok == (mem[1, 1, 0, 0] and not mem[50, 64, 14, 14])\nrule ok\nanswer ok\n")
    c = compile_file(write(tmp_path, "mem.puz", text))
    assert len(c.model.var_names) == 3  # was 1,392,001
    out = solve(c, mode=Mode(unique=True))
    assert out.unique is True
    mem = out.solutions[0]["mem"].cells
    assert len(mem) == 50 * 64 * 15 * 29 and mem[1, 1, 0, 0] and sum(mem.values()) == 1
    c = compile_file(write(tmp_path, "all.puz", text.replace("answer ok", "answer mem")))
    out = solve(c, mode=Mode(count=0))
    assert out.count == 10 ** 18 and not out.count_complete  # 2^1,391,998 answers: capped


@pytest.mark.parametrize("equation", [
    "a - b == 1", "a == b + 1", "2 * a + b == 5", "a + b != 3", "3 * a - 2 * b == 1", "b - a == -2",
    "a + b == 10", "-a - b == -3", "a - b + 1 == a - 1",
])
def test_equations_between_two_integer_variables(tmp_path: Path, equation: str) -> None:
    """Lowered value by value: the count of (a, b, c) with c == (equation) agrees with brute force."""
    text = f"var a: 0..3\nvar b: -1..2\nvar c: bool\nrule c == ({equation})\nrule c\n"
    expect = sum(1 for a, b in product(range(0, 4), range(-1, 3))
                 if eval(equation, {"a": a, "b": b}))
    for backend in ("sat", "z3"):
        out = solve(compile_file(write(tmp_path, "e.puz", text)), backend, mode=Mode(count=0))
        assert out.count == expect, backend


def test_an_equation_between_integer_variables_is_cheap(tmp_path: Path) -> None:
    """The issue's measure: 40 copies of `c == (a - b == 1)` over 0..9 cost no more than the
    same rule written value by value (26,040 variables and 89,600 clauses before)."""
    head = "var a[40]: 0..9\nvar b[40]: 0..9\nvar c[40]: bool\n"
    sizes = []
    for body in ("c[i] == (a[i] - b[i] == 1)", "c[i] == exists(v in 1..9: a[i] == v and b[i] == v - 1)"):
        stats = solve(compile_file(write(tmp_path, "e.puz", head + f"rule forall i in 0..39: {body}\n"))).stats
        sizes.append((stats["variables"], stats["clauses"]))
    assert sizes[0][0] <= sizes[1][0] and sizes[0][1] <= sizes[1][1] * 1.05


def test_a_sym_default_is_a_symbol_even_when_a_given_has_that_name():
    # regression: peg solitaire's `option measure: sym = jumps` read the option `jumps` (= square)
    from puzzledsl.compile import compile_file
    root = Path(__file__).resolve().parents[1]
    compiled = compile_file(root / "puzzles" / "peg-solitaire.puz", root / "puzzles" / "peg-solitaire" / "english.txt")
    assert str(compiled.options["measure"]) == "jumps" and str(compiled.options["jumps"]) == "square"


# -- regions, comprehensions and shapes ---------------------------------------------------

REGION_TEXT = '''given region[1..3, 1..4]: int? legend { "@": ? } = """
3 3 1 1
3 @ 1 5
5 5 5 5
"""
'''


def _solutions(path: Path, answer: str) -> list:
    out = solve(compile_file(path), mode=Mode(count=0))
    return sorted(str(s[answer].nested()) for s in out.solutions)


def test_values_and_cells_of_a_value_read_regions(tmp_path):
    """`values` lists the distinct known numbers ascending (`?` left out); `cells(g, v)` the
    cells holding v; one star per region gives as many solutions as the product of the
    region sizes (3 * 3 * 5); the `@` cell is in none and set false."""
    f = write(tmp_path, "r.puz", REGION_TEXT + "var star[1..3, 1..4]: bool\n"
              "rule values(region) == [1, 3, 5]\n"
              "rule cells(region, 3) == [(1, 1), (1, 2), (2, 1)] and cells(region, 7) == []\n"
              "rule forall k in values(region): exactly(1, p in cells(region, k): star[p])\n"
              "rule not star[2, 2]\nshow star\n")
    assert solve(compile_file(f), mode=Mode(count=0)).count == 3 * 3 * 5


def test_list_and_set_comprehensions(tmp_path):
    f = write(tmp_path, "c.puz", REGION_TEXT + "var x: bool\n"
              "rule list(k in values(region): len(cells(region, k))) == [3, 3, 5]\n"
              "rule set(p in cells(region) where known(region[p]): region[p] % 2) == {1}\n"
              "rule list(i in 1..3, j in 1..i where j > 1: (i, j)) == [(2, 2), (3, 2), (3, 3)]\n"
              "rule set(v in [1, 2, 1, 3, 2]: v) == [1, 2, 3]\nrule x\nshow x\n")
    assert solve(compile_file(f), mode=Mode(count=0)).count == 1


@pytest.mark.parametrize("shape, turns, variants", [
    ("[(0, 0), (1, 0), (2, 0), (2, 1)]", 4, 8),   # L
    ("[(0, 0), (1, 0), (2, 0), (3, 0)]", 2, 2),   # I
    ("[(0, 0), (0, 1), (0, 2), (1, 1)]", 4, 4),   # T
    ("[(0, 1), (0, 2), (1, 0), (1, 1)]", 2, 4),   # S
    ("[(0, 0), (0, 1), (1, 0), (1, 1)]", 1, 1),   # O
    ("[(5, 5)]", 1, 1),
])
def test_rotations_and_variants_of_shapes(tmp_path, shape, turns, variants):
    """Counted by hand: the free tetrominoes' symmetries; each variant starts at (0, 0)."""
    f = write(tmp_path, "s.puz", f"define s = {shape}\nvar x: bool\n"
              f"rule len(rotations(s)) == {turns} and len(variants(s)) == {variants}\n"
              "rule forall v in variants(s): v[0] == (0, 0)\nrule x\nshow x\n")
    assert solve(compile_file(f), mode=Mode(count=0)).count == 1


def test_variants_are_the_shape_turned_and_mirrored():
    """Each variant of the L, as a set of cells, is a rigid motion of the L (brute force over
    the 8 matrices), and no two variants are translates of each other."""
    got = shape_variants([(0, 0), (1, 0), (2, 0), (2, 1)], True, Span(Path("x.puz"), 1, 1, 1, 1))

    def norm(cells):
        r0 = min(cells)
        return frozenset((r - r0[0], c - r0[1]) for r, c in cells)
    want = {norm([(a * r + b * c, d * r + e * c) for r, c in [(0, 0), (1, 0), (2, 0), (2, 1)]])
            for a, b, d, e in [(1, 0, 0, 1), (0, -1, 1, 0), (-1, 0, 0, -1), (0, 1, -1, 0),
                               (1, 0, 0, -1), (0, 1, 1, 0), (-1, 0, 0, 1), (0, -1, -1, 0)]}
    assert {norm(v) for v in got} == want and len(got) == 8


@pytest.mark.parametrize("rule, message", [
    ("forall k in values(star): true", "must be known before solving"),
    ("count(p in cells(star, true): star[p]) == 1", "must be known before solving"),
    ("len(variants(5)) == 1", "a shape is a list of cells"),
    ("len(variants([(0, 0), 3])) == 1", "a shape is a list of cells"),
    ("len(cells(region, 1, 2)) == 1", "takes 1 or 2 argument(s), 3 given"),
    ("len(values(region, 1)) == 1", "takes 1 argument(s), 2 given"),
])
def test_region_and_shape_builtins_errors(tmp_path, capsys, rule, message):
    f = write(tmp_path, "e.puz", REGION_TEXT + f"var star[1..3, 1..4]: bool\nrule {rule}\nshow star\n")
    rc, _, err = run(capsys, "solve", f)
    assert rc == 2
    line, _, msg, _ = located(err)
    assert line == 7 and message in msg, err


def _blocks(bits) -> list[int]:
    out, n = [], 0
    for b in [*bits, 0]:
        if b:
            n += 1
        elif n:
            out.append(n)
            n = 0
    return out


@pytest.mark.parametrize("seed", range(10))
def test_runs_agree_with_brute_force(tmp_path, seed):
    """`runs(...) == L` and `!= L`, counted against every 0/1 line (lengths 0..9, clue lists
    drawn to be satisfiable or not, a cell fixed now and then)."""
    import random
    rnd = random.Random(seed)
    for _ in range(5):
        n = rnd.randint(0, 9)
        lengths = _blocks([rnd.random() < 0.6 for _ in range(n)]) if rnd.random() < 0.7 else \
            [rnd.randint(0, 3) for _ in range(rnd.randint(0, 3))]
        op = rnd.choice(["==", "!="])
        fixed = rnd.randrange(n) if n and rnd.random() < 0.5 else None
        want = sum((_blocks(bits) == lengths) == (op == "==") for bits in product([0, 1], repeat=n)
                   if fixed is None or bits[fixed] == 1)
        text = (f"var b[1..{max(n, 1)}]: bool\nrule runs(i in 1..{n}: b[i]) {op} {lengths}\n"
                + (f"rule b[{fixed + 1}]\n" if fixed is not None else "") + ("rule not b[1]\n" if n == 0 else "")
                + "show b\n")
        f = write(tmp_path, "runs.puz", text)
        assert solve(compile_file(f), mode=Mode(count=0)).count == want, text


def test_runs_compared_wrongly_is_a_located_error(tmp_path, capsys):
    f = write(tmp_path, "r.puz", "var b[1..3]: bool\nrule runs(i in 1..3: b[i]) <= [1]\nshow b\n")
    rc, _, err = run(capsys, "solve", f)
    assert rc == 2 and "orders numbers, or tuples with tuples, but this is a set or list" in located(err)[2], err


_RELATIONS = {"<": lambda a, b: a < b, "<=": lambda a, b: a <= b, "==": lambda a, b: a == b,
              "!=": lambda a, b: a != b, ">": lambda a, b: a > b}
_CONTEXTS = {"{R}": lambda r, b: r, "not ({R})": lambda r, b: not r, "({R}) or b": lambda r, b: r or b,
             "({R}) == b": lambda r, b: r == b,
             "count(i in 1..1: {R}) + (if b then 1 else 0) == 1": lambda r, b: r + b == 1}


@pytest.mark.parametrize("context", list(_CONTEXTS))
@pytest.mark.parametrize("op", list(_RELATIONS))
def test_comparisons_of_two_integers_in_any_context_count_like_brute_force(tmp_path: Path, context: str,
                                                                            op: str) -> None:
    """`x - y + k op 0` over two one-hot integers is an auxiliary variable defined by clauses,
    its converse a completion written only where it is used false: asserted, negated, inside
    `or`, `==` and a count, on both backends, against brute force."""
    for lo, hi, k in ((0, 3, 0), (1, 4, -2), (0, 2, 1)):
        rule = context.format(R=f"x - y + {k} {op} 0")
        f = write(tmp_path, "rel.puz", f"var x: {lo}..{hi}\nvar y: {lo}..{hi}\nvar b: bool\nrule {rule}\n")
        want = sum(_CONTEXTS[context](_RELATIONS[op](x - y + k, 0), b)
                   for x in range(lo, hi + 1) for y in range(lo, hi + 1) for b in (False, True))
        for backend in ("sat", "z3"):
            assert solve(compile_file(f), backend, mode=Mode(count=0)).count == want, (rule, backend)
