"""`reachable(STARTS, p in S where F)` (a flood fill over known values) and filters by equality
answered from an index (`(q, k) in pairs where q == p`).

Expected sets come from a breadth-first search written here from the definition, and the
indexed filters are compared with the same rules written so that no index applies.
"""

from __future__ import annotations

import copy
import random
import re
from pathlib import Path

import pytest

from puzzledsl.cli import main
from puzzledsl.compile import compile_file
from puzzledsl.errors import Span
from puzzledsl.evaluate import broken_rules
from puzzledsl.joins import Joins, join_spec
from puzzledsl.solve import Mode, solve
from puzzledsl.syntax import ast as A
from tests.datasets import requires_data
from tests.genre_specs import GENRES

ROOT = Path(__file__).resolve().parents[1]


def piece(members: set[tuple[int, int]], start: tuple[int, int]) -> set[tuple[int, int]]:
    """The members joined to `start` through orthogonal neighbours that are members."""
    seen = {start} & members
    todo = list(seen)
    while todo:
        r, c = todo.pop()
        for q in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if q in members and q not in seen:
                seen.add(q)
                todo.append(q)
    return seen


def flood(grid: list[list[int]], start: tuple[int, int]) -> set[tuple[int, int]]:
    """Cells holding 1 joined to `start` (1-based) through orthogonal neighbours holding 1."""
    return piece({(r + 1, c + 1) for r, row in enumerate(grid) for c, v in enumerate(row) if v == 1}, start)


def board_text(grid: list[list[int]]) -> str:
    return "\n".join(" ".join(map(str, row)) for row in grid)


def solved(tmp_path: Path, text: str, name: str = "t.puz") -> dict:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    out = solve(compile_file(p), mode=Mode(unique=True))
    assert out.status == "sat" and out.unique, out.status
    return out.solutions[0]


@pytest.mark.parametrize("seed", range(12))
def test_reachable_cells_match_a_flood_fill(tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    rows, cols = rng.randint(2, 6), rng.randint(2, 6)
    grid = [[int(rng.random() < 0.6) for _ in range(cols)] for _ in range(rows)]
    start = (rng.randint(1, rows), rng.randint(1, cols))
    text = (f'given g[1..{rows}, 1..{cols}]: int = """\n{board_text(grid)}\n"""\n'
            f"define reach = reachable({start}, p in cells(g) where g[p] == 1)\n"
            f"var x[1..{rows}, 1..{cols}]: bool\n"
            "rule forall p in cells(g): x[p] == any(q in reach: q == p)\n")
    x = solved(tmp_path, text)["x"]
    got = {(r, c) for (r, c) in x.keys() if x.cells[(r, c)]}
    assert got == flood(grid, start)


def test_reachable_in_the_order_of_the_source_with_tuple_patterns_and_many_starts(tmp_path: Path) -> None:
    grid = [[1, 1, 0, 1], [0, 1, 0, 1], [1, 0, 0, 1]]
    text = (f'given g[1..3, 1..4]: int = """\n{board_text(grid)}\n"""\n'
            "define a = reachable([(1, 1), (3, 4)], (r, c) in cells(g) where g[r, c] == 1)\n"
            "define b = reachable((3, 1), p in cells(g) where g[p] == 1)\n"
            "define n = reachable([2, 8], i in 1..9 where i != 5)\n"
            "define none = reachable(5, i in 1..9 where i != 5)\n"
            "var x: bool\n"
            "rule x == (a == [(1, 1), (1, 2), (1, 4), (2, 2), (2, 4), (3, 4)] and b == [(3, 1)]\n"
            "           and n == [1, 2, 3, 4, 6, 7, 8, 9] and len(none) == 0)\n")
    assert solved(tmp_path, text)["x"].cells[()] is True


def test_reachable_filter_is_asked_only_next_to_the_fill(tmp_path: Path) -> None:
    """The filter reads `g[p]` of cells next to the fill only: cells beyond a wall are never
    read, so a filter that would fail on them (here: an index outside the grid `h`) does not."""
    text = ('given g[1..1, 1..5]: int = """\n1 1 0 7 7\n"""\n'
            'given h[1..1, 1..3]: int = """\n1 1 0\n"""\n'
            "define a = reachable((1, 1), p in cells(g) where g[p] == 1 and h[p] == 1)\n"
            "var x: bool\nrule x == (a == [(1, 1), (1, 2)])\n")
    assert solved(tmp_path, text)["x"].cells[()] is True


def _error(tmp_path: Path, capsys, text: str) -> tuple[int, str]:
    p = tmp_path / "e.puz"
    p.write_text(text, encoding="utf-8")
    rc = main(["solve", str(p), "--no-color"])
    return rc, capsys.readouterr().err


def test_reachable_errors_are_located(tmp_path: Path, capsys) -> None:
    rc, err = _error(tmp_path, capsys, "var x[1..2, 1..2]: bool\n"
                                       "rule len(reachable((1, 1), p in cells(x) where x[p])) == 1\n")
    assert rc == 2 and "e.puz:2:" in err and "must be known before solving" in err and "filter by givens" in err
    rc, err = _error(tmp_path, capsys, "var x[1..2]: bool\n"
                                       "rule x[1] == (len(reachable(1, s in [a, b] where true)) == 1)\n"
                                       "symbol a, b\n")
    assert rc == 2 and "`reachable` steps between cells (tuples of numbers) or numbers" in err
    rc, err = _error(tmp_path, capsys, "var x: bool\n"
                                       "rule x == (len(reachable(1, i in 1..3, j in 1..3)) == 1)\n")
    assert rc == 2 and "one binding" in err


def test_reachable_is_a_keyword_only_before_a_parenthesis(tmp_path: Path) -> None:
    text = "given reachable: int = 3\nvar x[1..reachable]: bool\nrule count(i in 1..reachable: x[i]) == reachable\n"
    x = solved(tmp_path, text)["x"]
    assert all(x.cells[(i,)] for i in (1, 2, 3))


# ---------------------------------------------------------------- filters by equality

def test_an_equality_guarded_by_the_filter_is_not_read_where_the_guard_fails(tmp_path: Path) -> None:
    """`inside(g, p + d) and k == g[p + d]`: `g[p + d]` outside the grid is never read, by the
    scan or by the index (which then scans)."""
    text = ('given g[1..2, 1..9]: int = """\n1 2 3 4 5 6 7 8 9\n9 8 7 6 5 4 3 2 1\n"""\n'
            "define pairs = list(p in cells(g), k in 1..9: (p, k))\n"
            "var x[1..2, 1..9]: bool\n"
            "rule forall p in cells(g): x[p] == (count((q, k) in pairs where inside(g, p + (0, 1))\n"
            "                                     and k == g[p + (0, 1)]: true) == 18)\n")
    x = solved(tmp_path, text)["x"]
    # each value 1..9 appears twice in g: every cell with a right neighbour counts 18 pairs
    assert [x.cells[(1, c)] for c in range(1, 10)] == [True] * 8 + [False]


def test_join_spec_finds_an_equality_on_a_bound_name() -> None:
    span = Span(1, 1, 1, 2)
    q, p, k = A.Name(span, "q"), A.Name(span, "p"), A.Name(span, "k")
    b = A.Binding(("q", "k"), True, A.Name(span, "pairs"), span)
    eq = A.Compare(span, "==", q, p)
    assert join_spec(b, eq) == (0, p)
    assert join_spec(b, A.Compare(span, "==", p, k)) == (1, p)
    assert join_spec(b, A.Logic(span, "and", (A.Compare(span, "<", k, p), eq))) == (0, p)
    assert join_spec(b, A.Compare(span, "==", q, k)) is None  # both sides read the binding
    assert join_spec(b, A.Logic(span, "or", (eq, eq))) is None  # an `or` may pass other items
    assert join_spec(b, A.Compare(span, "!=", q, p)) is None


def test_lookup_keeps_lists_it_cannot_index() -> None:
    j = Joins()
    pairs = [((i % 5, i % 3), i) for i in range(40)]
    assert j.lookup(pairs, 0, (1, 1)) == [x for x in pairs if x[0] == (1, 1)]
    assert j.lookup(pairs, 1, 7) == [((2, 1), 7)]
    assert j.lookup(pairs, 1, "seven") is pairs  # not a number or a cell: the filter decides
    mixed = [("a", i) for i in range(20)]
    assert j.lookup(mixed, 0, 3) is mixed  # keys that are not numbers or cells: no index
    short = pairs[:5]
    assert j.lookup(short, 1, 3) is short  # short lists are scanned


REGIONS = [[1, 1, 2, 2], [1, 3, 3, 2], [4, 4, 3, 2]]
GROUPED = f"""
given g[1..3, 1..4]: int = \"\"\"
{board_text(REGIONS)}
\"\"\"
define pairs = list(p in cells(g), k in [g[p], g[p] + 10]: (p, k))
var pick[pairs]: bool
rule "one per cell": forall p in cells(g): exactly(1, (q, k) in pairs where FILTER: pick[(q, k)])
rule "one cell of each region takes ten more":
  forall v in values(g): count((q, k) in pairs where KFILTER: pick[(q, k)]) == 1
"""


def test_grouping_by_an_index_counts_as_scanning(tmp_path: Path) -> None:
    """The same rules with the filters written so that an index serves (`q == p`, `k == v + 10`)
    and so that none does (`not (q != p)`): as many solutions, one per choice of a cell in each
    region (the product of the region sizes)."""
    counts = []
    for f, kf in (("q == p", "k == v + 10"), ("not (q != p)", "not (k != v + 10)")):
        p = tmp_path / f"g{len(counts)}.puz"
        p.write_text(GROUPED.replace("KFILTER", kf).replace("FILTER", f), encoding="utf-8")
        counts.append(solve(compile_file(p), mode=Mode(count=0)).count)
    expected = 1
    for v in {x for row in REGIONS for x in row}:
        expected *= sum(row.count(v) for row in REGIONS)
    assert counts == [expected, expected] == [72, 72]


@requires_data
def test_galaxies_largest_boards_are_unique_and_as_published() -> None:
    """20x36 Galaxies boards (undecided at 30 s with a Boolean per cell and dot)."""
    from tests.test_genres_bundled import puzzles, solve_and_compare
    genre = GENRES["galaxies"]
    for _, givens, entry in puzzles(genre)[-2:]:
        solve_and_compare(genre, givens, entry)


def test_reachable_is_documented() -> None:
    doc = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    assert re.search(r"\| `reachable\(", doc)


# ---------------------------------------------------------------- connectivity cuts

def _connected_subsets(rows: int, cols: int, size: int, blocked: set) -> int:
    """Brute force: the sets of `size` free cells that form one orthogonal piece."""
    from itertools import combinations
    free = [(r, c) for r in range(1, rows + 1) for c in range(1, cols + 1) if (r, c) not in blocked]
    return sum(len(piece(set(cells), cells[0])) == size for cells in combinations(free, size))


@pytest.mark.parametrize("rows, cols, size, blocked", [
    (3, 4, 4, set()), (3, 4, 6, {(2, 2)}), (4, 4, 5, {(1, 2), (3, 3)}), (2, 6, 5, {(1, 3)}), (4, 3, 7, set()),
])
def test_connected_pieces_are_counted_exactly(tmp_path: Path, rows, cols, size, blocked) -> None:
    """Counting with lazily cut connectivity (a cut per piece against the largest, on both of
    their borders) finds every connected set of cells and nothing else."""
    cells = ", ".join(str(b) for b in sorted(blocked))
    text = (f"var x[1..{rows}, 1..{cols}]: bool\n"
            f"define blocked = [{cells}]\n"
            f"rule forall p in blocked: not x[p]\n"
            f"rule count(p in cells(x): x[p]) == {size}\n"
            "rule connected(p in cells(x): x[p])\n")
    p = tmp_path / "c.puz"
    p.write_text(text, encoding="utf-8")
    out = solve(compile_file(p), mode=Mode(count=0))
    assert out.count == _connected_subsets(rows, cols, size, blocked)


KEYED = """
define items = list(r in 1..4, c in 1..4, t in 0..17: ((r, c), (t, (r * c + t * t) % 3)))
define kind(a) = a[1]
define m = 0
define row = [0, 1, 2, 0, 1, 2]
var x[1..4, 1..4]: bool
var y[1..4, 1..4, 0..2]: bool
var z[0..2]: bool
rule "by cell and kind": forall p in cells(x), k in 0..2:
  y[p[0], p[1], k] == (count((q, a) in items where FILTER: true) >= 7)
rule "a loop variable hides a define that F reads": forall m in 1..1, p in cells(x):
  x[p] == (count((q, a) in items where SHADOWED: true) >= 7)
rule "F fails where an earlier conjunct would pass over the item":
  forall k in 0..2: z[k] == (count((q, a) in items where a[0] + 3 <= 5 and GUARDED: true) == 16)
"""


def test_items_grouped_by_an_expression_of_the_item_count_as_scanning(tmp_path: Path) -> None:
    """`(q, a) in items where q == p and kind(a) == k`: the items are grouped by their cell, then by
    `kind(a)` (an expression of the item, friction log 17's pentomino filter); the same rules written
    so that no index serves give the same answer. A loop variable that hides a name F reads, and an
    F that fails on items an earlier conjunct passes over, fall back to the scan."""
    forms = [("q == p and kind(a) == k", "q == p and (kind(a) + m) % 3 == 1", "row[a[0] + 3] == k"),
             ("not (q != p) and not (kind(a) != k)", "not (q != p) and not ((kind(a) + m) % 3 != 1)",
              "not (row[a[0] + 3] != k)")]
    answers = []
    for i, (f, shadowed, guarded) in enumerate(forms):
        p = tmp_path / f"k{i}.puz"
        p.write_text(KEYED.replace("FILTER", f).replace("SHADOWED", shadowed).replace("GUARDED", guarded))
        compiled = compile_file(p)
        out = solve(compiled, mode=Mode(unique=True))
        assert out.status == "sat" and out.unique is True
        answers.append({k: v.cells for k, v in out.solutions[0].items()})
        # the re-check groups the items the same way: it passes the answer and catches a changed cell
        sol = out.solutions[0]
        assert broken_rules(compiled.program, compiled.givens, sol, compiled.symbols) == ([], [])
        wrong = copy.deepcopy(sol)
        wrong["y"].cells[1, 1, 0] = not wrong["y"].cells[1, 1, 0]
        broken, _ = broken_rules(compiled.program, compiled.givens, wrong, compiled.symbols)
        assert len(broken) == 1 and "“by cell and kind”" in broken[0]
    assert answers[0] == answers[1]
    y, x = answers[0]["y"], answers[0]["x"]
    assert all(answers[0]["z"].values())  # 16 items (one t, every cell) for each k
    kinds = {(r, c): [(r * c + t * t) % 3 for t in range(18)] for r in range(1, 5) for c in range(1, 5)}
    assert y == {(r, c, k): kinds[r, c].count(k) >= 7 for (r, c) in kinds for k in range(3)}
    assert any(y.values()) and not all(y.values())
    # with m = 1 (the loop variable, not the define), (kind + 1) % 3 == 1 holds for kind 0
    assert x == {p: kinds[p].count(0) >= 7 for p in kinds}


def test_cells_grouped_by_their_region_count_as_scanning(tmp_path: Path) -> None:
    """`count(q in cells(region) where region[q] == region[p]: …)`, the natural way to say "the cells
    of p's region" (issue 10 found it quadratic), is grouped by `region[q]` in the aggregate's own
    closure too; the scanned form gives as many solutions: one shaded cell per region, so the
    product of the region sizes (4 * 4 * 6 * 8 * 2)."""
    rows = ["1 1 2 2 3 3", "1 1 2 2 3 3", "4 4 4 4 3 3", "4 4 4 4 5 5"]
    counts = []
    for f in ("region[q] == region[p]", "not (region[q] != region[p])"):
        p = tmp_path / f"r{len(counts)}.puz"
        p.write_text('given region[1..4, 1..6]: int\nvar x[1..4, 1..6]: bool\n'
                     f'rule forall p in cells(region): count(q in cells(region) where {f}: x[q]) == 1\n'
                     'region = """\n' + "\n".join(rows) + '\n"""\n')
        counts.append(solve(compile_file(p), mode=Mode(count=0)).count)
    assert counts == [4 * 4 * 6 * 8 * 2] * 2
