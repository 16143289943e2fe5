"""Independent checkers for the region and loop genres (Nurikabe, Slitherlink, Masyu).

Written from the puzzle rules alone, in the style of `checkers.py`: no puzzledsl imports,
naive flood fills and walks, so that a bug in the encoder or a rule file cannot hide
behind the same bug here. Each `check_*` returns a list of violations; empty = valid.

Conventions: cells and dots are 0-based `(row, column)` tuples; a loop is a set of
edges, each a `frozenset` of two orthogonally adjacent points. Slitherlink edges join
the dots of an (R+1)x(C+1) lattice (dot (r, c) is the top-left corner of cell (r, c));
Masyu edges join the centres of the R x C cells.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

Point = tuple[int, int]
Edge = frozenset[Point]
Clues = Sequence[Sequence[int | None]]
Grid = Sequence[Sequence[bool]]

ORTH = ((-1, 0), (0, 1), (1, 0), (0, -1))
LETTER = {"n": (-1, 0), "e": (0, 1), "s": (1, 0), "w": (0, -1)}


def edge(p: Point, q: Point) -> Edge:
    if abs(p[0] - q[0]) + abs(p[1] - q[1]) != 1:
        raise ValueError(f"{p} and {q} are not adjacent")
    return frozenset((p, q))


def _components(points: Iterable[Point], linked) -> list[set[Point]]:
    """Connected pieces of `points`, where `linked(p)` yields the points joined to p."""
    todo_all = set(points)
    pieces = []
    while todo_all:
        start = todo_all.pop()
        piece, todo = {start}, [start]
        while todo:
            p = todo.pop()
            for q in linked(p):
                if q in todo_all:
                    todo_all.discard(q)
                    piece.add(q)
                    todo.append(q)
        pieces.append(piece)
    return pieces


def _grid_neighbours(p: Point, rows: int, cols: int) -> list[Point]:
    return [(p[0] + dr, p[1] + dc) for dr, dc in ORTH if 0 <= p[0] + dr < rows and 0 <= p[1] + dc < cols]


# ----------------------------------------------------------------- Nurikabe


def check_nurikabe(clues: Clues, black: Grid) -> list[str]:
    """Numbered cells are white; the black cells form one orthogonally connected piece with
    no 2x2 block; every white region holds exactly one number, equal to its size."""
    rows, cols = len(clues), len(clues[0])
    if len(black) != rows or any(len(row) != cols for row in black):
        return [f"grid is not {rows}x{cols}"]
    bad = []
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    for r, c in cells:
        if clues[r][c] is not None and black[r][c]:
            bad.append(f"numbered cell ({r},{c}) is black")
    blacks = {p for p in cells if black[p[0]][p[1]]}
    whites = set(cells) - blacks
    pieces = _components(blacks, lambda p: _grid_neighbours(p, rows, cols))
    if len(pieces) > 1:
        bad.append(f"black cells form {len(pieces)} pieces")
    for r in range(rows - 1):
        for c in range(cols - 1):
            if all(black[r + i][c + j] for i in (0, 1) for j in (0, 1)):
                bad.append(f"2x2 black block at ({r},{c})")
    for region in _components(whites, lambda p: _grid_neighbours(p, rows, cols)):
        numbers = sorted((p, clues[p[0]][p[1]]) for p in region if clues[p[0]][p[1]] is not None)
        where = min(region)
        if len(numbers) != 1:
            bad.append(f"white region at {where} ({len(region)} cells) holds {len(numbers)} numbers")
        elif numbers[0][1] != len(region):
            bad.append(f"white region of {numbers[0][0]} has {len(region)} cells, number is {numbers[0][1]}")
    return bad


# ----------------------------------------------------------------- loops


def _loop_violations(points: Iterable[Point], edges: set[Edge]) -> list[str]:
    """Every point has degree 0 or 2 and the edges form one connected piece (so one cycle)."""
    points = set(points)
    bad = []
    for e in edges:
        if not e <= points:
            bad.append(f"edge {sorted(e)} leaves the board")
    degree: dict[Point, list[Point]] = {p: [] for p in points}
    for e in edges:
        p, q = sorted(e)
        if p in degree and q in degree:
            degree[p].append(q)
            degree[q].append(p)
    for p, nbs in sorted(degree.items()):
        if len(nbs) not in (0, 2):
            bad.append(f"{p} has degree {len(nbs)}")
    used = [p for p, nbs in degree.items() if nbs]
    if not used:
        bad.append("there is no loop")
    else:
        pieces = _components(used, lambda p: degree[p])
        if len(pieces) > 1:
            bad.append(f"the line is {len(pieces)} separate pieces")
    return bad


def cell_sides(r: int, c: int) -> list[Edge]:
    """The four Slitherlink edges around cell (r, c): top, right, bottom, left."""
    return [edge((r, c), (r, c + 1)), edge((r, c + 1), (r + 1, c + 1)),
            edge((r + 1, c), (r + 1, c + 1)), edge((r, c), (r + 1, c))]


def check_slitherlink(clues: Clues, edges: set[Edge]) -> list[str]:
    """One single loop along the grid lines; a clue counts the loop edges around its cell."""
    rows, cols = len(clues), len(clues[0])
    dots = [(r, c) for r in range(rows + 1) for c in range(cols + 1)]
    bad = _loop_violations(dots, edges)
    for r in range(rows):
        for c in range(cols):
            if clues[r][c] is not None:
                got = sum(e in edges for e in cell_sides(r, c))
                if got != clues[r][c]:
                    bad.append(f"cell ({r},{c}): {got} loop edges, clue is {clues[r][c]}")
    return bad


def slitherlink_edges_from_shading(inside: Grid) -> set[Edge]:
    """The loop that separates inside cells from outside ones (outside the board is outside)."""
    rows, cols = len(inside), len(inside[0])

    def at(r: int, c: int) -> bool:
        return 0 <= r < rows and 0 <= c < cols and bool(inside[r][c])

    edges = set()
    for r in range(rows):
        for c in range(cols):
            top, right, bottom, left = cell_sides(r, c)
            if at(r, c) != at(r - 1, c):
                edges.add(top)
            if at(r, c) != at(r + 1, c):
                edges.add(bottom)
            if at(r, c) != at(r, c - 1):
                edges.add(left)
            if at(r, c) != at(r, c + 1):
                edges.add(right)
    return edges


def _step(p: Point, d: Point, k: int = 1) -> Point:
    return (p[0] + k * d[0], p[1] + k * d[1])


def check_masyu(pearls: Sequence[Sequence[str]], edges: set[Edge]) -> list[str]:
    """One single loop through cell centres visiting every pearl. On a white pearl (`w`) the
    loop goes straight and turns in at least one of the two cells next to it; on a black
    pearl (`b`) it turns and goes straight through both cells next to it."""
    rows, cols = len(pearls), len(pearls[0])
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    bad = _loop_violations(cells, edges)

    def dirs(p: Point) -> list[Point]:
        return [d for d in ORTH if frozenset((p, _step(p, d))) in edges]

    def straight(p: Point) -> bool:
        ds = dirs(p)
        return len(ds) == 2 and ds[0][0] == -ds[1][0] and ds[0][1] == -ds[1][1]

    def turns(p: Point) -> bool:
        return len(dirs(p)) == 2 and not straight(p)

    for p in cells:
        kind = pearls[p[0]][p[1]]
        if kind not in ("w", "b"):
            continue
        ds = dirs(p)
        if len(ds) != 2:
            bad.append(f"pearl {p} is not on the loop")
        elif kind == "w":
            if not straight(p):
                bad.append(f"white pearl {p}: the loop turns on it")
            elif not any(turns(_step(p, d)) for d in ds):
                bad.append(f"white pearl {p}: the loop turns in neither neighbour")
        else:
            if straight(p):
                bad.append(f"black pearl {p}: the loop goes straight on it")
            for d in ds:
                near, far = _step(p, d), _step(p, d, 2)
                if not (inside_grid(far, rows, cols) and edge(near, far) in edges):
                    bad.append(f"black pearl {p}: the loop does not go straight through {near}")
    return bad


def inside_grid(p: Point, rows: int, cols: int) -> bool:
    return 0 <= p[0] < rows and 0 <= p[1] < cols


def masyu_edges_from_letters(tokens: Sequence[Sequence[str]]) -> set[Edge]:
    """janko.at Masyu solution: per cell the letters of the directions the loop leaves it
    (`-` unused). Raises ValueError when two neighbours disagree about an edge."""
    rows, cols = len(tokens), len(tokens[0])
    edges = set()
    for r in range(rows):
        for c in range(cols):
            tok = tokens[r][c]
            for ch in "" if tok == "-" else tok:
                if ch not in LETTER:
                    raise ValueError(f"cell ({r},{c}): unknown letter {ch!r}")
                q = _step((r, c), LETTER[ch])
                if not inside_grid(q, rows, cols):
                    raise ValueError(f"cell ({r},{c}): the line leaves the board")
                back = {v: k for k, v in LETTER.items()}[(-LETTER[ch][0], -LETTER[ch][1])]
                if back not in tokens[q[0]][q[1]]:
                    raise ValueError(f"cells ({r},{c}) and {q} disagree about their edge")
                edges.add(edge((r, c), q))
    return edges


# ----------------------------------------------------------------- puzzlekit text


def read_rows(text: str) -> list[list[str]]:
    """Token rows after the `rows cols` header, checked against it."""
    lines = [line.split() for line in text.strip().splitlines()]
    rows, cols = int(lines[0][0]), int(lines[0][1])
    grid = lines[1:]
    if len(grid) != rows or any(len(row) != cols for row in grid):
        raise ValueError(f"grid is not {rows}x{cols}")
    return grid


def read_clues(text: str) -> list[list[int | None]]:
    """A puzzlekit clue grid: numbers, `-` for no clue."""
    return [[None if t == "-" else int(t) for t in row] for row in read_rows(text)]


def read_shading(text: str) -> list[list[bool]]:
    """A puzzlekit shading solution: `x` shaded (black / inside), `-` not."""
    grid = read_rows(text)
    if any(t not in ("x", "-") for row in grid for t in row):
        raise ValueError("shading cells must be 'x' or '-'")
    return [[t == "x" for t in row] for row in grid]
