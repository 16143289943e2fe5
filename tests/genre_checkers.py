"""Independent checkers for the janko.at genres of the puzzlekit datasets (no puzzledsl code).

Each `check_<genre>(problem, solution)` reads the problem text as janko writes it and a
solution in the published token format (rows of tokens, as in the datasets' `solution`
field), and returns the rules it breaks (an empty list: a valid solution). Written from
the genres' printed rules, not from the rule files.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Callable, Iterable

Grid = list[list[str]]
Cell = tuple[int, int]
ORTH = ((-1, 0), (0, 1), (1, 0), (0, -1))
KING = ORTH + ((-1, -1), (-1, 1), (1, 1), (1, -1))


# --------------------------------------------------------------------------- reading


def lines_of(text: str) -> list[list[str]]:
    return [line.split() for line in text.strip().splitlines() if line.strip()]


def header(text: str) -> tuple[int, int, list[str]]:
    first = lines_of(text)[0]
    return int(first[0]), int(first[1]), first[2:]


def solution_grid(text: str) -> Grid:
    """The published solution: the R rows after the header (some entries append notes)."""
    rows, _, _ = header(text)
    return lines_of(text)[1 : 1 + rows]


def blocks(text: str) -> list[list[str]]:
    """The problem's lines after the header."""
    return lines_of(text)[1:]


def grids(text: str, *skip: int) -> tuple[list[list[str]], ...]:
    """After `skip[0]` clue lines, consecutive R-row grids."""
    rows, _, _ = header(text)
    rest = blocks(text)[skip[0] if skip else 0 :]
    return tuple(rest[i : i + rows] for i in range(0, len(rest), rows))


def cells(rows: int, cols: int) -> Iterable[Cell]:
    return ((r, c) for r in range(rows) for c in range(cols))


def inside(rows: int, cols: int, p: Cell) -> bool:
    return 0 <= p[0] < rows and 0 <= p[1] < cols


def near(p: Cell, rows: int, cols: int, offsets=ORTH) -> list[Cell]:
    out = [(p[0] + dr, p[1] + dc) for dr, dc in offsets]
    return [q for q in out if inside(rows, cols, q)]


def one_piece(members: set[Cell], step: Callable[[Cell], Iterable[Cell]]) -> bool:
    """`members` form one piece under `step` (empty or one cell: true)."""
    if len(members) <= 1:
        return True
    start = next(iter(members))
    seen, todo = {start}, deque([start])
    while todo:
        for q in step(todo.popleft()):
            if q in members and q not in seen:
                seen.add(q)
                todo.append(q)
    return seen == members


def orth_piece(members: set[Cell], rows: int, cols: int) -> bool:
    return one_piece(members, lambda p: near(p, rows, cols))


def columns(grid: Grid) -> Grid:
    return [list(col) for col in zip(*grid, strict=True)]


def runs(line: list[bool]) -> list[int]:
    """Lengths of the blocks of consecutive true entries."""
    return [len(m) for m in re.findall("1+", "".join("1" if x else "0" for x in line))]


def groups(region: Grid, skip: str = "@#") -> dict[str, list[Cell]]:
    out: dict[str, list[Cell]] = {}
    for r, row in enumerate(region):
        for c, tok in enumerate(row):
            if tok not in skip:
                out.setdefault(tok, []).append((r, c))
    return out


def clue(tok: str) -> int | None:
    return None if tok in "-.?" else int(tok)


# --------------------------------------------------------------------------- shading genres


def _shaded(sol: Grid) -> set[Cell]:
    return {(r, c) for r, row in enumerate(sol) for c, t in enumerate(row) if t == "x"}


def _no_touching(black: set[Cell], errors: list[str]) -> None:
    if any((r + 1, c) in black or (r, c + 1) in black for r, c in black):
        errors.append("shaded cells touch")


def check_hitori(problem: str, sol: Grid) -> list[str]:
    rows, cols, _ = header(problem)
    number = blocks(problem)
    black, errors = _shaded(sol), []
    lines = [[(r, c) for c in range(cols)] for r in range(rows)] + [[(r, c) for r in range(rows)] for c in range(cols)]
    for line in lines:
        seen = [number[r][c] for r, c in line if (r, c) not in black]
        if len(seen) != len(set(seen)):
            errors.append(f"a number repeats in line {line[0]}")
    _no_touching(black, errors)
    if not orth_piece(set(cells(rows, cols)) - black, rows, cols):
        errors.append("white cells are not connected")
    return errors


def check_kuromasu(problem: str, sol: Grid) -> list[str]:
    rows, cols, _ = header(problem)
    black, errors = _shaded(sol), []
    for r, c in cells(rows, cols):
        n = clue(blocks(problem)[r][c])
        if n is None:
            continue
        seen = 1
        for dr, dc in ORTH:
            q = (r + dr, c + dc)
            while inside(rows, cols, q) and q not in black:
                seen, q = seen + 1, (q[0] + dr, q[1] + dc)
        if (r, c) in black or seen != n:
            errors.append(f"clue at {(r, c)} sees {seen}, not {n}")
    _no_touching(black, errors)
    if not orth_piece(set(cells(rows, cols)) - black, rows, cols):
        errors.append("white cells are not connected")
    return errors


def check_mosaic(problem: str, sol: Grid) -> list[str]:
    rows, cols, _ = header(problem)
    black = _shaded(sol)
    return [f"clue at {(r, c)}" for r, c in cells(rows, cols)
            if (n := clue(blocks(problem)[r][c])) is not None
            and n != sum(q in black for q in [(r, c), *near((r, c), rows, cols, KING)])]


def check_norinori(problem: str, sol: Grid) -> list[str]:
    rows, cols, _ = header(problem)
    _, region = grids(problem)
    black, errors = _shaded(sol), []
    for label, members in groups(region).items():
        if sum(p in black for p in members) != 2:
            errors.append(f"region {label} has not two shaded cells")
    for p in black:
        if sum(q in black for q in near(p, rows, cols)) != 1:
            errors.append(f"shaded cell {p} is not in a domino")
    return errors


def check_nonogram(problem: str, sol: Grid) -> list[str]:
    rows, cols, _ = header(problem)
    lines = blocks(problem)
    want_cols = [[int(t) for t in line if t != "0"] for line in lines[:cols]]
    want_rows = [[int(t) for t in line if t != "0"] for line in lines[cols : cols + rows]]
    shade = [[t == "x" for t in row] for row in sol]
    errors = [f"row {r}" for r in range(rows) if runs(shade[r]) != want_rows[r]]
    return errors + [f"column {c}" for c in range(cols) if runs([row[c] for row in shade]) != want_cols[c]]


def _counts(line: list[str], token: str) -> int:
    return sum(t == token for t in line)


def _line_clues(problem: str, sol: Grid, token: str, first: int = 0) -> list[str]:
    """Column counts on clue line `first`, row counts on the next."""
    lines = blocks(problem)
    colclue, rowclue = lines[first], lines[first + 1]
    errors = [f"row {r}" for r, row in enumerate(sol) if clue(rowclue[r]) not in (None, _counts(row, token))]
    return errors + [f"column {c}" for c, col in enumerate(columns(sol))
                     if clue(colclue[c]) not in (None, _counts(col, token))]


def check_thermometer(problem: str, sol: Grid) -> list[str]:
    rows, cols, _ = header(problem)
    (cell_grid,) = grids(problem, 2)
    pos = {tuple(map(int, cell_grid[r][c].split("."))): (r, c) for r, c in cells(rows, cols)}
    errors = _line_clues(problem, sol, "x")
    for (t, k), (r, c) in pos.items():
        if sol[r][c] == "x" and k > 1 and sol[pos[t, k - 1][0]][pos[t, k - 1][1]] != "x":
            errors.append(f"thermometer {t} has a gap below {k}")
    return errors


def check_tent(problem: str, sol: Grid) -> list[str]:
    rows, cols, _ = header(problem)
    (tree_grid,) = grids(problem, 2)
    trees = {(r, c) for r, c in cells(rows, cols) if tree_grid[r][c] == "x"}
    tents = {(r, c) for r, c in cells(rows, cols) if sol[r][c] == "o"}
    errors = _line_clues(problem, sol, "o")
    if trees != {(r, c) for r, c in cells(rows, cols) if sol[r][c] == "x"}:
        errors.append("the trees moved")
    if tents & trees:
        errors.append("a tent on a tree")
    if any(q in tents for p in tents for q in near(p, rows, cols, KING)):
        errors.append("tents touch")
    if not _perfect_matching(trees, tents, rows, cols):
        errors.append("trees and tents do not pair up")
    return errors


def _perfect_matching(left: set[Cell], right: set[Cell], rows: int, cols: int) -> bool:
    """Kuhn's augmenting paths: each `left` cell matched to an orthogonal `right` cell."""
    if len(left) != len(right):
        return False
    owner: dict[Cell, Cell] = {}

    def augment(p: Cell, seen: set[Cell]) -> bool:
        for q in near(p, rows, cols):
            if q in right and q not in seen:
                seen.add(q)
                if q not in owner or augment(owner[q], seen):
                    owner[q] = p
                    return True
        return False

    return all(augment(p, set()) for p in left)


# --------------------------------------------------------------------------- number genres


def _latin(values: list[list[int]], symbols: Iterable[int]) -> list[str]:
    want = sorted(symbols)
    errors = [f"row {r}" for r, row in enumerate(values) if sorted(row) != want]
    return errors + [f"column {c}" for c, col in enumerate(zip(*values, strict=True)) if sorted(col) != want]


def _ints(sol: Grid) -> list[list[int]]:
    return [[int(t) for t in row] for row in sol]


def check_binairo(problem: str, sol: Grid) -> list[str]:
    rows, cols, _ = header(problem)
    errors = [f"given at {(r, c)}" for r, c in cells(rows, cols) if blocks(problem)[r][c] not in ("-", sol[r][c])]
    for line in sol + columns(sol):
        if line.count("1") != line.count("2") or len(line) != line.count("1") + line.count("2"):
            errors.append("a line is not balanced")
        if any(line[i] == line[i + 1] == line[i + 2] for i in range(len(line) - 2)):
            errors.append("three equal in a line")
    return errors


def _visible(line: list[int]) -> int:
    seen, top = 0, 0
    for h in line:
        if h > top:
            seen, top = seen + 1, h
    return seen


def check_skyscraper(problem: str, sol: Grid) -> list[str]:
    rows, cols, extra = header(problem)
    top, bottom, left, right, *given = blocks(problem)
    h = _ints(sol)
    highest = int(extra[0])
    heights = list(range(1, highest + 1))
    errors = [f"line {i}" for i, row in enumerate(h + [list(c) for c in zip(*h, strict=True)])
              if sorted(x for x in row if x) != heights or row.count(0) != rows - highest]
    if "D" in extra:
        for diag in ([h[i][i] for i in range(rows)], [h[i][cols - 1 - i] for i in range(rows)]):
            if sorted(x for x in diag if x) != list(range(1, highest + 1)):
                errors.append("a diagonal")
    cols_h = [list(c) for c in zip(*h, strict=True)]
    views = [(top, cols_h, False), (bottom, cols_h, True), (left, h, False), (right, h, True)]
    for clues, lines, back in views:
        for i, tok in enumerate(clues):
            if clue(tok) is not None and _visible(lines[i][::-1] if back else lines[i]) != int(tok):
                errors.append(f"view clue {tok} at {i}")
    errors += [f"given at {(r, c)}" for r, c in cells(rows, cols) if given[r][c] not in ("-", sol[r][c])]
    return errors


def check_magnetic(problem: str, sol: Grid) -> list[str]:
    rows, cols, _ = header(problem)
    lines = blocks(problem)
    colplus, colminus, rowplus, rowminus = lines[:4]
    region = lines[4:][-rows:]
    errors = []
    for clues, sign, lines_ in ((colplus, "+", columns(sol)), (colminus, "-", columns(sol)),
                                (rowplus, "+", sol), (rowminus, "-", sol)):
        errors += [f"{sign} count {i}" for i, tok in enumerate(clues)
                   if clue(tok) is not None and _counts(lines_[i], sign) != int(tok)]
    for label, members in groups(region).items():
        pair = sorted(sol[r][c] for r, c in members)
        if len(members) != 2 or pair not in (["x", "x"], ["+", "-"]):
            errors.append(f"domino {label} is {pair}")
    for r, c in cells(rows, cols):
        if region[r][c] in "@#" and sol[r][c] != "x":
            errors.append(f"cell {(r, c)} outside the dominoes is used")
        for q in near((r, c), rows, cols):
            if sol[r][c] in "+-" and sol[q[0]][q[1]] == sol[r][c]:
                errors.append(f"equal poles touch at {(r, c)}")
    if len(lines) == 4 + 2 * rows:
        hint = lines[4 : 4 + rows]
        errors += [f"hint at {(r, c)}" for r, c in cells(rows, cols) if hint[r][c] not in (".", sol[r][c])]
    return errors


def _cage_ok(values: list[int], target: int, op: str) -> bool:
    product = 1
    for v in values:
        product *= v
    ok = {"+": sum(values) == target, "*": product == target}
    if len(values) == 2:
        a, b = sorted(values)
        ok |= {"-": b - a == target, "/": b == a * target}
    if len(values) == 1:
        return values[0] == target
    return any(ok.values()) if op == "" else ok.get({"x": "*"}.get(op, op), False)


def check_kenken(problem: str, sol: Grid) -> list[str]:
    rows, _, _ = header(problem)
    cage_grid, region = grids(problem)
    values = _ints(sol)
    errors = _latin(values, range(1, rows + 1))
    for label, members in groups(region).items():
        toks = [cage_grid[r][c] for r, c in members if cage_grid[r][c] not in ".-"]
        if len(toks) != 1:
            continue
        target, op = re.fullmatch(r"(\d+)(.?)", toks[0]).groups()
        if not _cage_ok([values[r][c] for r, c in members], int(target), op):
            errors.append(f"cage {label} misses {toks[0]}")
    return errors


def _boxes(n: int) -> tuple[int, int]:
    height = max(k for k in range(1, n + 1) if k * k <= n and n % k == 0)
    return height, n // height


def check_killer_sudoku(problem: str, sol: Grid) -> list[str]:
    rows, _, _ = header(problem)
    total, region = grids(problem)
    values = _ints(sol)
    errors = _latin(values, range(1, rows + 1))
    bh, bw = _boxes(rows)
    for br, bc in cells(rows // bh, rows // bw):
        box = [values[br * bh + i][bc * bw + j] for i in range(bh) for j in range(bw)]
        if sorted(box) != list(range(1, rows + 1)):
            errors.append(f"box {(br, bc)}")
    for label, members in groups(region).items():
        vals = [values[r][c] for r, c in members]
        sums = [int(total[r][c]) for r, c in members if total[r][c] != "-"]
        if len(set(vals)) != len(vals) or (sums and sum(vals) != sums[0]):
            errors.append(f"cage {label}")
    return errors


def check_str8t(problem: str, sol: Grid) -> list[str]:
    rows, cols, _ = header(problem)
    grid = blocks(problem)
    errors = []
    for r, c in cells(rows, cols):
        tok, got = grid[r][c], sol[r][c]
        digit = tok.rstrip("x")
        if (digit not in ("", "-") and got != digit) or (tok == "x" and got != "-") or (tok == "-" and got == "-"):
            errors.append(f"cell {(r, c)}")
    for line, toks in zip(sol + columns(sol), grid + columns(grid), strict=True):
        digits = [int(t) for t in line if t != "-"]
        if len(digits) != len(set(digits)):
            errors.append("a number repeats in a line")
        part: list[int] = []
        for t, tok in [*zip(line, toks, strict=True), ("-", "x")]:
            if tok.endswith("x"):
                if part and max(part) - min(part) != len(part) - 1:
                    errors.append(f"compartment {part} is no straight")
                part = []
            elif t != "-":  # a white cell left empty is reported above
                part.append(int(t))
    return errors


def check_hidoku(problem: str, sol: Grid) -> list[str]:
    rows, cols, _ = header(problem)
    at = {int(sol[r][c]): (r, c) for r, c in cells(rows, cols)}
    errors = [] if sorted(at) == list(range(1, rows * cols + 1)) else ["numbers are not 1..R*C"]
    errors += [f"given at {(r, c)}" for r, c in cells(rows, cols) if blocks(problem)[r][c] not in ("-", sol[r][c])]
    for k in range(1, rows * cols):
        if k + 1 in at and k in at and at[k + 1] not in near(at[k], rows, cols, KING):
            errors.append(f"{k} and {k + 1} do not touch")
    return errors


# --------------------------------------------------------------------------- LITS and Hashi


def _shape(members: list[Cell]) -> str | None:
    """The tetromino letter of four cells (turns and mirror images), or None."""
    if len(members) != 4:
        return None
    forms = {"L": [(0, 0), (1, 0), (2, 0), (2, 1)], "I": [(0, 0), (1, 0), (2, 0), (3, 0)],
             "T": [(0, 0), (0, 1), (0, 2), (1, 1)], "S": [(0, 1), (0, 2), (1, 0), (1, 1)]}

    def norm(cs: list[Cell]) -> list[Cell]:
        r0, c0 = min(r for r, _ in cs), min(c for _, c in cs)
        return sorted((r - r0, c - c0) for r, c in cs)

    target = norm(members)
    for letter, form in forms.items():
        cs = form
        for _ in range(4):
            cs = [(c, -r) for r, c in cs]
            if target in (norm(cs), norm([(r, -c) for r, c in cs])):
                return letter
    return None


def check_lits(problem: str, sol: Grid) -> list[str]:
    """Shaded cells hold their shape's letter (or `#`), others `-`."""
    rows, cols, _ = header(problem)
    (region,) = grids(problem)
    shaded = {(r, c) for r, c in cells(rows, cols) if sol[r][c] != "-"}
    errors, letter = [], {}
    for label, members in groups(region).items():
        piece = [p for p in members if p in shaded]
        shape = _shape(piece) if orth_piece(set(piece), rows, cols) else None
        if shape is None:
            errors.append(f"region {label} holds no tetromino")
        letter |= {p: shape for p in piece}
        if shape and any(sol[r][c] not in ("#", shape) for r, c in piece):
            errors.append(f"region {label}'s letters are not its shape {shape}")
    if shaded - set(letter):
        errors.append("a shaded cell outside every region")
    for p in letter:
        for q in near(p, rows, cols):
            if q in letter and region[p[0]][p[1]] != region[q[0]][q[1]] and letter[p] == letter[q]:
                errors.append(f"equal shapes touch at {p}")
    if any({(r, c), (r + 1, c), (r, c + 1), (r + 1, c + 1)} <= shaded for r, c in shaded):
        errors.append("a 2x2 block is shaded")
    if not orth_piece(shaded, rows, cols):
        errors.append("shaded cells are not connected")
    return errors


def check_hashi(problem: str, sol: Grid) -> list[str]:
    """Bridges: `1`/`2` across an empty cell, `a`/`b` down it; islands hold `-`."""
    rows, cols, _ = header(problem)
    island = {(r, c): int(t) for r, row in enumerate(blocks(problem)) for c, t in enumerate(row) if t != "-"}
    count = {p: 0 for p in island}
    joined: dict[Cell, set[Cell]] = {p: set() for p in island}
    errors = []
    for p in island:
        for dr, dc, kinds in ((0, 1, "12"), (1, 0, "ab")):
            q = (p[0] + dr, p[1] + dc)
            if not inside(rows, cols, q) or q in island or sol[q[0]][q[1]] not in kinds:
                continue
            n = kinds.index(sol[q[0]][q[1]]) + 1
            while inside(rows, cols, q) and q not in island and sol[q[0]][q[1]] == kinds[n - 1]:
                q = (q[0] + dr, q[1] + dc)
            if q not in island:
                errors.append(f"a bridge from {p} ends nowhere")
                continue
            count[p] += n
            count[q] += n
            joined[p].add(q)
            joined[q].add(p)
    used = sum(t != "-" for r, row in enumerate(sol) for t in row)
    drawn = sum(abs(a[0] - b[0]) + abs(a[1] - b[1]) - 1 for a in joined for b in joined[a]) // 2
    if used != drawn:
        errors.append("bridge cells that join no islands")
    errors += [f"island {p} has {count[p]} bridges" for p in island if count[p] != island[p]]
    if not one_piece(set(island), lambda p: joined[p]):
        errors.append("islands are not all joined")
    return errors


# --------------------------------------------------------------------------- loops and regions


LOOP_STEPS = {"n": (-1, 0), "s": (1, 0), "e": (0, 1), "w": (0, -1)}


def check_simple_loop(problem: str, sol: Grid) -> list[str]:
    """The loop as published: each cell lists the directions it leaves by (`ns`, `se`, ...)."""
    rows, cols, _ = header(problem)
    blocked = blocks(problem)
    errors, links = [], set()
    for r, c in cells(rows, cols):
        ways = "" if sol[r][c] == "-" else sol[r][c]
        if (blocked[r][c] == "x") != (ways == "") or (ways and len(ways) != 2):
            errors.append(f"cell {(r, c)} is {sol[r][c]!r}")
        for w in ways:
            q = (r + LOOP_STEPS[w][0], c + LOOP_STEPS[w][1])
            back = {"n": "s", "s": "n", "e": "w", "w": "e"}[w]
            if not inside(rows, cols, q) or back not in sol[q[0]][q[1]]:
                errors.append(f"the loop breaks at {(r, c)}")
            links.add(frozenset({(r, c), q}))
    on = {(r, c) for r, c in cells(rows, cols) if sol[r][c] != "-"}
    if not one_piece(on, lambda p: [q for link in links if p in link for q in link]):
        errors.append("more than one loop")
    return errors


def check_shakashaka(problem: str, sol: Grid) -> list[str]:
    """A triangle named by its right-angle corner darkens the two quarters of the cell (cut
    by both diagonals) on that corner's sides: `nw` the north and west quarters."""
    rows, cols, _ = header(problem)
    grid = blocks(problem)
    errors = []
    for r, c in cells(rows, cols):
        if grid[r][c] != "-" and sol[r][c] != "-":
            errors.append(f"a triangle in black cell {(r, c)}")
        if grid[r][c] not in "-x5":
            n = sum(sol[q[0]][q[1]] != "-" for q in near((r, c), rows, cols))
            if n != int(grid[r][c]):
                errors.append(f"clue at {(r, c)} sees {n}")
    return errors + [f"white area at {p} is no rectangle" for p in _bad_white_areas(grid, sol, rows, cols)]


_QUARTER_CORNERS = {"n": ((0, 0), (0, 1)), "e": ((0, 1), (1, 1)), "s": ((1, 1), (1, 0)), "w": ((1, 0), (0, 0))}
_ACROSS = {"n": ((-1, 0), "s"), "s": ((1, 0), "n"), "e": ((0, 1), "w"), "w": ((0, -1), "e")}
_BESIDE = {"n": "ew", "s": "ew", "e": "ns", "w": "ns"}


def _bad_white_areas(grid: Grid, sol: Grid, rows: int, cols: int) -> list[Cell]:
    """Cells where a white area starts that is not a rectangle. Areas are unions of quarter
    cells; one is a rectangle, upright or at 45°, when its area fills its bounding box
    (in the turned coordinates x + y, x - y for the latter)."""
    white = {(r, c, q) for r, c in cells(rows, cols) if grid[r][c] == "-"
             for q in "nesw" if sol[r][c] == "-" or q not in sol[r][c]}

    def step(p: tuple[int, int, str]) -> list[tuple[int, int, str]]:
        r, c, q = p
        (dr, dc), back = _ACROSS[q]
        return [(r, c, x) for x in _BESIDE[q]] + [(r + dr, c + dc, back)]

    bad, seen = [], set()
    for start in sorted(white):
        if start in seen:
            continue
        piece, todo = {start}, [start]
        while todo:
            for nxt in step(todo.pop()):
                if nxt in white and nxt not in piece:
                    piece.add(nxt)
                    todo.append(nxt)
        seen |= piece
        points = [(r + dy, c + dx) for r, c, q in piece for dy, dx in (*_QUARTER_CORNERS[q], (0.5, 0.5))]
        turned = [(y + x, y - x) for y, x in points]
        if not (_box_area(points) == len(piece) / 4 or _box_area(turned) == len(piece) / 2):
            bad.append(start[:2])
    return bad


def _box_area(points: list[tuple[float, float]]) -> float:
    ys, xs = [p[0] for p in points], [p[1] for p in points]
    return (max(ys) - min(ys)) * (max(xs) - min(xs))


def check_tatamibari(problem: str, sol: Grid) -> list[str]:
    rows, cols, _ = header(problem)
    mark = blocks(problem)
    errors = []
    for label, members in groups(sol, skip="").items():
        ys, xs = [r for r, _ in members], [c for _, c in members]
        h, w = max(ys) - min(ys) + 1, max(xs) - min(xs) + 1
        marks = [mark[r][c] for r, c in members if mark[r][c] != "-"]
        if h * w != len(members):
            errors.append(f"region {label} is no rectangle")
        elif len(marks) != 1 or {"s": h == w, "h": w > h, "v": h > w}[marks[0]] is False:
            errors.append(f"region {label} has marks {marks} for a {h}x{w} rectangle")
    for r, c in cells(rows - 1, cols - 1):
        if len({sol[r][c], sol[r][c + 1], sol[r + 1][c], sol[r + 1][c + 1]}) == 4:
            errors.append(f"four rectangles meet below {(r, c)}")
    return errors


def check_galaxies(problem: str, sol: Grid) -> list[str]:
    """A dot at (r, c) with code 0-3 sits at twice-coordinates (2r + code // 2, 2c + code % 2)."""
    rows, cols, _ = header(problem)
    dots = [(2 * r + int(t) // 2, 2 * c + int(t) % 2) for r, row in enumerate(blocks(problem))
            for c, t in enumerate(row) if t != "-"]
    errors = []
    for label, members in groups(sol, skip="").items():
        inside_dots = [d for d in dots if any(d[0] - 1 <= 2 * r <= d[0] and d[1] - 1 <= 2 * c <= d[1]
                                              for r, c in members)]
        if len(inside_dots) != 1:
            errors.append(f"region {label} has {len(inside_dots)} dots")
            continue
        a, b = inside_dots[0]
        if {(a - r, b - c) for r, c in members} != set(members):
            errors.append(f"region {label} is not symmetric about its dot")
        if not orth_piece(set(members), rows, cols):
            errors.append(f"region {label} is not one piece")
    return errors


def check_fillomino(problem: str, sol: Grid) -> list[str]:
    """Every cell holds a number; each maximal orthogonally connected group of cells with one
    number has as many cells as that number; given numbers stay."""
    rows, cols, _ = header(problem)
    errors = [f"cell {p} changes its given {t}" for p, t in
              ((p, blocks(problem)[p[0]][p[1]]) for p in cells(rows, cols))
              if t.isdigit() and sol[p[0]][p[1]] != t]
    if any(not sol[r][c].isdigit() for r, c in cells(rows, cols)):
        return errors + ["a cell holds no number"]
    seen: set[Cell] = set()
    for start in cells(rows, cols):
        if start in seen:
            continue
        group, todo = {start}, [start]
        while todo:
            p = todo.pop()
            for q in near(p, rows, cols):
                if q not in group and sol[q[0]][q[1]] == sol[start[0]][start[1]]:
                    group.add(q)
                    todo.append(q)
        seen |= group
        if len(group) != int(sol[start[0]][start[1]]):
            errors.append(f"the region of {start} has {len(group)} cells, not {sol[start[0]][start[1]]}")
    return errors


# --------------------------------------------------------------------------- genres bundled before


def check_nurikabe(problem: str, sol: Grid) -> list[str]:
    from tests.graph_checkers import check_nurikabe as check

    return check([[clue(t) for t in row] for row in blocks(problem)], [[t == "x" for t in row] for row in sol])


def check_slitherlink(problem: str, sol: Grid) -> list[str]:
    """The loop as published: cells inside it shaded `x`."""
    from tests.graph_checkers import check_slitherlink as check
    from tests.graph_checkers import slitherlink_edges_from_shading

    edges = slitherlink_edges_from_shading([[t == "x" for t in row] for row in sol])
    return check([[clue(t) for t in row] for row in blocks(problem)], edges)


def check_masyu(problem: str, sol: Grid) -> list[str]:
    from tests.graph_checkers import check_masyu as check
    from tests.graph_checkers import masyu_edges_from_letters

    pearls = [[{"1": "w", "2": "b"}.get(t, t) for t in row] for row in blocks(problem)]
    try:
        edges = masyu_edges_from_letters(sol)
    except ValueError as err:  # the letters do not make a line
        return [str(err)]
    return check(pearls, edges)


def check_akari(problem: str, sol: Grid) -> list[str]:
    """Lights `o`; every other token is read as no light (published solutions differ in how
    they mark walls)."""
    rows, cols, _ = header(problem)
    board = blocks(problem)
    wall = {(r, c) for r, c in cells(rows, cols) if board[r][c] != "-"}
    lights = {(r, c) for r, c in cells(rows, cols) if sol[r][c] == "o"}
    errors = [f"a light on wall {p}" for p in lights & wall]
    lit = set()
    for p in lights:
        for dr, dc in ORTH:
            q = (p[0] + dr, p[1] + dc)
            while inside(rows, cols, q) and q not in wall:
                if q in lights:
                    errors.append(f"lights {p} and {q} see each other")
                lit.add(q)
                q = (q[0] + dr, q[1] + dc)
    if set(cells(rows, cols)) - wall - lights - lit:
        errors.append("a white cell stays dark")
    return errors + [f"wall {p}" for p in wall if board[p[0]][p[1]] != "x"
                     and sum(q in lights for q in near(p, rows, cols)) != int(board[p[0]][p[1]])]


def check_sudoku(problem: str, sol: Grid) -> list[str]:
    rows, _, _ = header(problem)
    values = _ints(sol)
    errors = _latin(values, range(1, rows + 1))
    box = int(rows**0.5)
    for br, bc in cells(box, box):
        if sorted(values[br * box + i][bc * box + j] for i, j in cells(box, box)) != list(range(1, rows + 1)):
            errors.append(f"box {(br, bc)}")
    given = blocks(problem)
    return errors + [f"given at {(r, c)}" for r, c in cells(rows, rows) if given[r][c] not in ("-", sol[r][c])]


def check_star_battle(problem: str, sol: Grid) -> list[str]:
    rows, cols, extra = header(problem)
    stars = int(extra[0])
    (region,) = grids(problem)
    star = _shaded(sol)
    errors = [f"row {r}" for r in range(rows) if sum((r, c) in star for c in range(cols)) != stars]
    errors += [f"column {c}" for c in range(cols) if sum((r, c) in star for r in range(rows)) != stars]
    errors += [f"region {k}" for k, members in groups(region).items() if sum(p in star for p in members) != stars]
    errors += [f"a star off the board at {(r, c)}" for r, c in star if region[r][c] in "@#"]
    return errors + [f"stars touch at {p}" for p in star if any(q in star for q in near(p, rows, cols, KING))]


def ring_blocks(bits: list[bool]) -> list[int]:
    """The blocks of true entries of a ring: the list read twice from just after a false
    entry is a line whose blocks are the ring's (all true: one block of all)."""
    if all(bits):
        return [len(bits)]
    start = bits.index(False) + 1
    return runs(bits[start:] + bits[:start])


def check_tapa(problem: str, sol: Grid) -> list[str]:
    """Tapa. `problem`: the header `R C`, then R rows of tokens, `-` an empty cell, a clue's
    numbers joined by `/` (`3/1/1`, `?` a block of any length); `sol`: `x` shaded, `-` not."""
    rows, cols, _ = header(problem)
    clues = blocks(problem)
    black = _shaded(sol)
    errors = [f"2x2 at {(r, c)}" for r, c in cells(rows - 1, cols - 1)
              if {(r, c), (r + 1, c), (r, c + 1), (r + 1, c + 1)} <= black]
    if not orth_piece(black, rows, cols):
        errors.append("the shaded cells are not connected")
    around = ((-1, -1), (-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1))
    for r, c in cells(rows, cols):
        if clues[r][c] == "-":
            continue
        if (r, c) in black:
            errors.append(f"clue {(r, c)} is shaded")
        found = sorted(ring_blocks([(r + dr, c + dc) in black for dr, dc in around]))
        numbers = [int(t) for t in clues[r][c].split("/") if t != "?"]
        unknown = clues[r][c].split("/").count("?")
        if numbers == [0] and not unknown:
            numbers = []
        left = list(found)
        for v in numbers:  # every known number is a block; each `?` is one block more
            if v in left:
                left.remove(v)
            else:
                left.append(-1)
        if len(left) != unknown or -1 in left:
            errors.append(f"clue {(r, c)} {clues[r][c]}: blocks {found}")
    return errors
