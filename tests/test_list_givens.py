"""Givens whose cells hold lists (`given clue[…]: [int?]?`), `cyclic runs(…)` and `sorted(…)`
(issue 10, the language's reach).

The run readers are checked against a plain reference over every short sequence (cells that
are constants fold to the answer), and through the solver by counting solutions against
brute force; data is read from text, JSON and puzzledsl values alike, and bad list data is a
located error.
"""

from __future__ import annotations

import json
import random
from itertools import product
from pathlib import Path

import pytest

from puzzledsl.compile import compile_file
from puzzledsl.model import Model
from puzzledsl.runs import Runs, runs_equal
from puzzledsl.solve import Mode, solve
from tests.genre_checkers import ring_blocks, runs
from tests.test_language_reach import located, run, write

RULES = """given clue[1..2, 1..3]: [int?]?
var x[1..2, 1..3]: bool
rule forall p in cells(clue): x[p] == (known(clue[p]) and sum(v in clue[p] where known(v): v) > 2)
"""


def _blocks(bits, ring: bool = False) -> list[int]:
    """The reference (tests/genre_checkers.py): the blocks of a line, or of a ring."""
    return ring_blocks(list(bits)) if ring and bits else runs(list(bits))


# ---------------------------------------------------------------- list data

def _clues(path: Path, data: Path | None = None) -> dict:
    c = compile_file(path, data)
    return dict(c.givens["clue"].cells)


WANT = {(1, 1): [3, 1], (1, 2): None, (1, 3): [2], (2, 1): [None, 2], (2, 2): [1], (2, 3): []}


@pytest.mark.parametrize("data", [
    'clue = """\n3/1 - 2\n?/2 1 []\n"""\n',
    'clue = """\n[3,1] ? [2]\n[?,2] [1] []\n"""\n',
    'clue = [[[3, 1], ?, 2], [[?, 2], [1], []]]\n',
    'clue = ["3/1 - 2", "?/2 1 []"]\n',
    '{"clue": [[[3, 1], null, [2]], [[null, 2], 1, []]]}',
    '{"clue": [["3/1", null, "2"], ["?/2", "1", "[]"]]}',
])
def test_list_data_in_every_form(tmp_path: Path, data: str) -> None:
    rules = write(tmp_path, "r.puz", RULES)
    f = write(tmp_path, "d.json" if data.startswith("{") else "d.txt", data)
    assert _clues(rules, f) == WANT


def test_a_legend_maps_a_token_to_a_list_and_items_read_through_it(tmp_path: Path) -> None:
    rules = write(tmp_path, "r.puz", 'given clue[1..3]: [int] legend { ".": [], "x": 10 }\n'
                                     'var b[1..3]: bool\nrule forall i in 1..3: b[i] == (len(clue[i]) > 1)\n'
                                     'clue = "3/x . 4"\n')
    assert _clues(rules) == {(1,): [3, 10], (2,): [], (3,): [4]}


def test_unknown_items_are_read_beside_a_legend_for_cells(tmp_path: Path) -> None:
    """A legend for whole cells (`"."`: unknown) leaves an item `?` unknown (a new user's Kakuro)."""
    rules = write(tmp_path, "r.puz", 'given clue[1..3]: [int?]? legend { ".": ? } = ". 3/? ."\n'
                                     'var b[1..3]: bool\nrule b[1]\n')
    assert _clues(rules) == {(1,): None, (2,): [3, None], (3,): None}


def test_list_values_in_rules(tmp_path: Path, capsys) -> None:
    """A list cell is a list: `len`, indexing, `==`, `values` and `cells(g, v)`; beside the board
    its numbers are spaced."""
    f = write(tmp_path, "v.puz", """given clue[1..2, 1..3]: [int?]?
given rowc[1..2]: [int] = [[1, 2], [3]]
var x[1..2, 1..3]: bool
rule forall v in values(clue): count(p in cells(clue, v): x[p]) == len(cells(clue, v)) * (len(v) - 1)
rule forall p in cells(clue) where not known(clue[p]): not x[p]
rule clue[1, 1][0] == 3 and not known(clue[2, 1][0]) and clue[2, 1][1] == 2 and clue[1, 3] != [2, 1]
show x clue rowc at right
clue = \"\"\"
3/1 - 2
?/2 1 3/1
\"\"\"
""")
    rc, out, err = run(capsys, "solve", f, "--no-color", "--unique")
    assert rc == 0, err
    assert "■ · ·  1 2\n■ · ■  3" in out


# ---------------------------------------------------------------- list data errors

@pytest.mark.parametrize(("data", "line", "col", "message", "help_"), [
    ('clue = """\n3,1 - 2\n- - -\n"""\n', 2, 1, "`3,1` is not a valid value for `clue`", "`3/1`"),
    ('clue = """\n3/x - 2\n- - -\n"""\n', 2, 3, "`x` is not a valid value for `clue`", "whole number"),
    ('clue = """\n- [1,y] 2\n- - -\n"""\n', 2, 6, "`y` is not a valid value for `clue`", "whole number"),
    ('clue = [[[3, true], ?, 2], [?, ?, ?]]\n', 1, 14, "`clue` holds int values, not true/false", ""),
    ('clue = [[[3, [1]], ?, 2], [?, ?, ?]]\n', 1, 14, "lists do not nest", ""),
    ('clue = [[[3, 1], ?], [?, ?, ?]]\n', 1, 29, "ragged data for `clue`", "one too many"),
    ('{"clue": [[[3, 1], null, 2], [null, [1, "z"], null]]}', 1, 41, "`z` is not a valid value for `clue`", ""),
])
def test_bad_list_data_is_located(tmp_path: Path, capsys, data: str, line: int, col: int, message: str,
                                  help_: str) -> None:
    rules = write(tmp_path, "r.puz", RULES)
    f = write(tmp_path, "d.json" if data.startswith("{") else "d.txt", data)
    rc, _, err = run(capsys, "solve", rules, "--data", f)
    assert rc == 2, err
    got = located(err)
    assert got[:2] == (line, col) and message in got[2] and help_ in got[3], err
    assert "Traceback" not in err


@pytest.mark.parametrize(("text", "message"), [
    ("given g[1..2]: [int]\ng = [[1, ?], [2]]\nvar b: bool\n", "the items of `g` may not be unknown"),
    ("given g[1..2]: [int?]\ng = [?, [2]]\nvar b: bool\n", "`g` may not hold unknown values"),
    ("var g[1..2]: [int]\n", "a decision variable cannot hold a list"),
    ("option o: [int] = [1]\nvar b: bool\n", "an option is `bool`, `int` or `sym`, not a list"),
    ("given g[1..2]: [edges]\nvar b: bool\n", "a list's items are `int`, `bool` or `sym`"),
    ("given h[1..2]: int? = [1, ?]\nvar b: bool\nrule b == (sorted(list(i in 1..2: h[i])) == [1])\n",
     "cannot order an unknown value"),
])
def test_list_declaration_errors(tmp_path: Path, capsys, text: str, message: str) -> None:
    f = write(tmp_path, "e.puz", text)
    rc, _, err = run(capsys, "solve", f)
    assert rc == 2 and message in err, err
    assert "Traceback" not in err


# ---------------------------------------------------------------- runs: readers and the solver

def test_readers_agree_with_the_reference_on_every_short_sequence() -> None:
    """Lines and rings of 0..7 known values, every list of up to three lengths 0..5: the
    formula built from constants folds to the reference's answer (in order, and sorted)."""
    m = Model()
    for n in range(8):
        for bits in product([False, True], repeat=n):
            for k in range(4):
                for lengths in product(range(6), repeat=k):
                    for ring in (False, True):
                        got = _blocks(bits, ring)
                        assert runs_equal(m, Runs(bits, ring), list(lengths)) == (got == list(lengths))
                        assert runs_equal(m, Runs(bits, ring, ordered=False), sorted(lengths)) == \
                            (sorted(got) == sorted(lengths))


def _holds(bits, ring: bool, ordered: bool, lengths: list[int]) -> bool:
    got = _blocks(bits, ring)
    return (got if ordered else sorted(got)) == lengths


@pytest.mark.parametrize("seed,backend", [(s, "sat") for s in range(8)] + [(s, "z3") for s in (8, 9)])
def test_cyclic_and_sorted_runs_count_like_brute_force(tmp_path: Path, seed: int, backend: str) -> None:
    """Every reader, asserted and negated (`!=`), on both backends: the readers' states are
    auxiliary variables defined by clauses, which must leave the count of answers alone."""
    rng = random.Random(seed)
    for _ in range(6):
        n = rng.randint(0, 9)
        ring, ordered = rng.random() < 0.7, rng.random() < 0.4
        bits0 = [rng.random() < 0.6 for _ in range(n)]
        lengths = _blocks(bits0, ring) if rng.random() < 0.7 else [rng.randint(0, 4) for _ in range(rng.randint(0, 3))]
        if not ordered:
            lengths = sorted(lengths)
        op = rng.choice(["==", "!="])
        fixed = rng.randrange(n) if n and rng.random() < 0.5 else None

        want = sum(_holds(bits, ring, ordered, lengths) == (op == "==") for bits in product([False, True], repeat=n)
                   if fixed is None or bits[fixed])
        lhs = f"{'cyclic ' if ring else ''}runs(i in 1..{n}: b[i])"
        text = (f"var b[1..{max(n, 1)}]: bool\nrule {lhs if ordered else f'sorted({lhs})'} {op} {lengths}\n"
                + (f"rule b[{fixed + 1}]\n" if fixed is not None else "") + ("rule not b[1]\n" if n == 0 else ""))
        f = write(tmp_path, "runs.puz", text)
        assert solve(compile_file(f), backend, mode=Mode(count=0)).count == want, text


@pytest.mark.parametrize("context", ["{R} or b[1]", "not ({R}) or b[2]", "({R}) -> b[1] and b[3]",
                                     "({R}) == b[2]", "count(i in 1..2: b[i] and not ({R})) == 1"])
def test_runs_inside_other_formulas_count_like_brute_force(tmp_path: Path, context: str) -> None:
    """A reader's result negated inside a larger formula needs the other direction of its
    auxiliary variables' definitions (model.completions): counted against brute force."""
    rng = random.Random(context)
    for _ in range(5):
        n = rng.randint(3, 7)
        ring, lengths = rng.random() < 0.5, _blocks([rng.random() < 0.5 for _ in range(n)], False)
        clue = f"{'cyclic ' if ring else ''}runs(i in 1..{n}: b[i]) == {lengths}"
        body = context.format(R=clue)

        def holds(bits, ring: bool = ring, lengths: list[int] = lengths) -> bool:
            r = _holds(bits, ring, True, lengths)
            return {"{R} or b[1]": r or bits[0], "not ({R}) or b[2]": not r or bits[1],
                    "({R}) -> b[1] and b[3]": not r or (bits[0] and bits[2]), "({R}) == b[2]": r == bits[1],
                    "count(i in 1..2: b[i] and not ({R})) == 1": sum(bits[i] and not r for i in range(2)) == 1}[context]
        want = sum(holds(bits) for bits in product([False, True], repeat=n))
        f = write(tmp_path, "runs.puz", f"var b[1..{n}]: bool\nrule {body}\n")
        for backend in ("sat", "z3"):
            assert solve(compile_file(f), backend, mode=Mode(count=0)).count == want, (body, backend)


def test_a_ring_of_known_values_is_rechecked(tmp_path: Path, capsys) -> None:
    """The wrapping block is one block: a ring `■ ■ · ■` has blocks [3]."""
    f = write(tmp_path, "ring.puz", "var b[1..4]: bool\nrule cyclic runs(i in 1..4: b[i]) == [3]\n"
                                    "rule b[1] and not b[3]\n")
    rc, out, err = run(capsys, "solve", f, "--no-color", "--all")
    assert rc == 0 and "1 solution" in out and "■ ■ · ■" in out, out + err


def test_cyclic_is_a_name_elsewhere(tmp_path: Path, capsys) -> None:
    f = write(tmp_path, "c.puz", "given cyclic: int = 2\nvar b[1..3]: bool\n"
                                 "rule cyclic runs(i in 1..3: b[i]) == [cyclic]\nrule b[1] and b[3]\n")
    rc, out, err = run(capsys, "solve", f, "--no-color", "--all")
    assert rc == 0 and "1 solution" in out and "■ · ■" in out, out + err  # a block of 2 round the end


@pytest.mark.parametrize(("rule", "message"), [
    ("sorted(runs(i in 1..3: b[i])) == [2, 1]", "which is not in ascending order"),
    ("cyclic runs(i in 1..3: b[i]) <= [1]", "orders numbers, or tuples with tuples, but this is a set or list"),
    ("sorted(b[1]) == [1]", "`sorted` orders a list of numbers known before solving"),
])
def test_runs_misuse_is_located(tmp_path: Path, capsys, rule: str, message: str) -> None:
    f = write(tmp_path, "m.puz", f"var b[1..3]: bool\nrule {rule}\n")
    rc, _, err = run(capsys, "solve", f)
    assert rc == 2 and message in located(err)[2], err


def test_generate_refuses_list_clues(capsys) -> None:
    rc, _, err = run(capsys, "generate", "tapa", "--size", "5x5")
    assert rc == 2 and "hold lists" in err


def test_json_output_has_the_solution(tmp_path: Path, capsys) -> None:
    rules = write(tmp_path, "r.puz", RULES + 'clue = """\n3/1 - 2\n?/2 1 4\n"""\n')
    rc, out, err = run(capsys, "solve", rules, "--json")
    assert rc == 0, err
    assert json.loads(out)["solutions"][0]["x"] == [[True, False, False], [False, False, True]]


def test_an_unclosed_list_type_is_a_syntax_error(tmp_path: Path, capsys) -> None:
    f = write(tmp_path, "s.puz", "given g[2]: [int\nvar b: bool\n")
    rc, _, err = run(capsys, "check", f)
    assert rc == 2 and located(err)[:2] == (2, 1) and "expected `?`, `]`" in located(err)[3], err
