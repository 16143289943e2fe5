"""`while` in a binding list and the `ray` built-in (docs §8, §11).

Solution counts of small random rule sets are compared with an enumeration of every
assignment, judged by Python code written from the documented meaning: a binding's run
over its items ends at the first item whose `while` is false; `where` then filters.
"""

from __future__ import annotations

import random
from itertools import product
from pathlib import Path

import pytest
from genre_checkers import one_piece

import puzzledsl
from puzzledsl.errors import PuzzleError

ORTH = [(-1, 0), (0, 1), (1, 0), (0, -1)]


def ray(R: int, C: int, p: tuple[int, int], d: tuple[int, int], most: int | None = None) -> list[tuple[int, int]]:
    out = []
    r, c = p
    while most is None or len(out) < most:
        r, c = r + d[0], c + d[1]
        if not (1 <= r <= R and 1 <= c <= C):
            break
        out.append((r, c))
    return out


def take_while(cells, ok):
    out = []
    for q in cells:
        if not ok(q):
            break
        out.append(q)
    return out


def connected(cells: set) -> bool:
    return one_piece(cells, lambda p: [(p[0] + dr, p[1] + dc) for dr, dc in ORTH])


def random_rule(rng: random.Random, R: int, C: int):
    """One rule as (text, judge(b, a) -> bool) over Boolean grids b and a."""
    p = (rng.randint(1, R), rng.randint(1, C))
    d = rng.choice(ORTH)
    k = rng.randint(0, 3)
    n = rng.choice([None, 1, 2])
    pt, dt = f"({p[0]}, {p[1]})", f"({d[0]}, {d[1]})"
    rayt = f"ray(b, {pt}, {dt}" + (f", {n})" if n is not None else ")")
    kind = rng.randrange(9)
    if kind == 0:  # the white cells seen from p in all four directions
        text = f"count(d in orth, q in ray(b, {pt}, d) while not b[q]: true) == {k}"
        return text, lambda b, a: sum(len(take_while(ray(R, C, p, e), lambda q: not b[q])) for e in ORTH) == k
    if kind == 1:  # a forall guarded by a while on decisions, as a rule's own forall
        text = f"forall q in {rayt} while not b[q]: a[q]"
        return text, lambda b, a: all(a[q] for q in take_while(ray(R, C, p, d, n), lambda q: not b[q]))
    if kind == 2:  # exists inside a negation: the guard must stay inside the aggregate
        text = f"not exists(q in {rayt} while b[q]: a[q])"
        return text, lambda b, a: not any(a[q] for q in take_while(ray(R, C, p, d, n), lambda q: b[q]))
    if kind == 3:  # a sum of known numbers
        text = f"sum(q in {rayt} while a[q]: q[1]) == {k + 1}"
        return text, lambda b, a: sum(q[1] for q in take_while(ray(R, C, p, d, n), lambda q: a[q])) == k + 1
    if kind == 4:  # a cardinality with a `where` after the `while`
        word, op = rng.choice([("atmost", "<="), ("atleast", ">="), ("exactly", "==")])
        text = f"{word}({k % 3}, q in {rayt} while not b[q] where (q[0] + q[1]) % 2 == 0: a[q])"
        return text, lambda b, a: _cmp(sum(a[q] for q in take_while(ray(R, C, p, d, n), lambda q: not b[q])
                                           if (q[0] + q[1]) % 2 == 0), op, k % 3)
    if kind == 5:  # a known `while` just truncates (a list of the cells before a fixed one)
        stop = (rng.randint(1, R), rng.randint(1, C))
        text = (f"count(q in cells(b) while q != ({stop[0]}, {stop[1]}): b[q]) == "
                f"len(list(q in cells(b) while q != ({stop[0]}, {stop[1]}): q)) - {k}")
        cells = [(r, c) for r in range(1, R + 1) for c in range(1, C + 1)]
        before = take_while(cells, lambda q: q != stop)
        return text, lambda b, a: sum(b[q] for q in before) == len(before) - k
    if kind == 6:  # nested aggregates: the inner guard is the inner one's own
        text = f"forall q in {rayt} while b[q]: count(e in orth, s in ray(b, q, e) while a[s]: true) <= {k}"
        return text, lambda b, a: all(
            sum(len(take_while(ray(R, C, q, e), lambda s: a[s])) for e in ORTH) <= k
            for q in take_while(ray(R, C, p, d, n), lambda q: b[q]))
    if kind == 7:  # connected over the cells before the first set `a`, row-major
        cells = [(r, c) for r in range(1, R + 1) for c in range(1, C + 1)]
        text = "connected(q in cells(b) while not a[q]: b[q])"
        return text, lambda b, a: connected({q for q in take_while(cells, lambda q: not a[q]) if b[q]})
    # two `while` bindings in one list: the second run restarts for each item of the first
    text = f"count(q in {rayt} while b[q], s in ray(b, q, {dt}) while not a[s]: true) >= {k}"
    return text, lambda b, a: sum(len(take_while(ray(R, C, q, d), lambda s: not a[s]))
                                  for q in take_while(ray(R, C, p, d, n), lambda q: b[q])) >= k


def _cmp(x: int, op: str, k: int) -> bool:
    return {"<=": x <= k, ">=": x >= k, "==": x == k}[op]


def brute_count(R: int, C: int, judges) -> int:
    cells = [(r, c) for r in range(1, R + 1) for c in range(1, C + 1)]
    total = 0
    for bits in product((False, True), repeat=2 * len(cells)):
        b = dict(zip(cells, bits[: len(cells)]))
        a = dict(zip(cells, bits[len(cells):]))
        total += all(j(b, a) for j in judges)
    return total


def program(R: int, C: int, rules: list[str]) -> str:
    lines = [f"given R: int = {R}", f"given C: int = {C}", "var b[1..R, 1..C]: bool", "var a[1..R, 1..C]: bool"]
    lines += [f'rule "r{i}": {t}' for i, t in enumerate(rules)]
    return "\n".join(lines) + "\nshow b\n"


# most of the seeds with the slow tests: the default suite stays under five minutes
@pytest.mark.parametrize("seed", [s if s < 12 else pytest.param(s, marks=pytest.mark.slow) for s in range(40)])
def test_counts_agree_with_enumeration(seed):
    rng = random.Random(seed)
    R, C = rng.choice([(1, 5), (2, 3), (3, 2), (1, 6)])
    picked = [random_rule(rng, R, C) for _ in range(rng.randint(1, 3))]
    text = program(R, C, [t for t, _ in picked])
    expected = brute_count(R, C, [j for _, j in picked])
    puzzle = puzzledsl.rules(text).bind()
    assert puzzle.count() == expected, text
    if seed % 10 == 0:  # the SMT backend grounds the same guards
        assert puzzle.using(backend="z3").count() == expected, text


def test_kuromasu_reads_its_rays():
    """The bundled rules state what a number sees with `ray` and `while`."""
    text = (Path(__file__).resolve().parents[1] / "puzzles" / "kuromasu.puz").read_text()
    assert "while not black[q]" in text


def test_ray_reads_cells_in_order():
    text = ("given g[1..3, 1..4]: int = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]\n"
            "var x: 0..200\n"
            "rule x == sum(q in ray(g, (2, 1), (0, 1)) while g[q] < 8: g[q])"  # 6 + 7, stops at 8
            " + 100 * len(ray(g, (1, 1), (1, 1), 1)) - len(ray(g, (3, 4), (0, 1)))\n"
            "show x\n")
    sol = puzzledsl.rules(text).bind().solve()
    assert sol is not None and sol["x"] == 113


@pytest.mark.parametrize("text, message", [
    ("var b[1..3]: bool\nrule len(list(i in 1..3 while b[i]: i)) == 2",
     "a `while` in `list` must be known before solving"),
    ("var b[1..3]: bool\nrule count(i in 1..3 while i: b[i]) == 2", "expected a condition"),
    ("var b[1..3, 1..3]: bool\nrule count(q in ray(b, (1, 1), (0, 1, 1)): b[q]) == 1",
     "a direction of `b` is a tuple of 2 numbers"),
    ("var b[1..3, 1..3]: bool\nrule count(q in ray(b, (4, 1), (0, 1)): b[q]) == 1", "(4, 1) is not a cell of `b"),
    ("var b[1..3, 1..3]: bool\nrule count(q in ray(b, (1, 1), (0, 1), -1): b[q]) == 1",
     "the length of a ray is a number 0 or more"),
    ("var b[1..3]: bool\nvar a[1..3]: bool\nrule forall i in 1..3 while b[i]: connected(j in 1..3: a[j])",
     "`connected` cannot be guarded by a `while`"),
])
def test_errors_are_located(text, message):
    with pytest.raises(PuzzleError) as err:
        puzzledsl.rules(text + "\n").bind().solve()
    assert message in err.value.message
    assert err.value.span is not None


def test_explanations_name_the_loop_variables_only(tmp_path, capsys):
    """A rule instance guarded by a `while` is cited by its loop variables, as any other."""
    from puzzledsl.cli import main

    f = tmp_path / "seen.puz"
    f.write_text("var b[1..4]: bool\n"
                 "rule \"start\": b[1]\n"
                 "rule \"after a set cell, the next is unset\": forall i in 1..3 while b[i]: not b[i + 1]\n"
                 "rule \"the last two alike\": b[3] == b[4]\n"
                 "rule \"three set\": count(i in 1..4: b[i]) == 3\n"
                 "show b\n")
    assert main(["explain", str(f), "--no-color"]) == 0
    out = capsys.readouterr().out
    assert "at i = 1" in out and "\0" not in out and "while" not in out.replace("after a set", "")


def test_a_while_after_a_where_says_where_it_goes():
    with pytest.raises(PuzzleError) as err:
        puzzledsl.rules("var b[1..4]: bool\nrule count(i in 1..4 where i > 1 while b[i]: true) == 2\n")
    assert err.value.message == "unexpected `while`" and "before any `where`" in err.value.help
    assert (err.value.span.line, err.value.span.column) == (2, 34)
