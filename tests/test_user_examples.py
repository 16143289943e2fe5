"""docs/examples/: genres written by new users from the docs alone.

Aquarium, Heyawake, Ripple Effect, Yajilin, Suguru, Futoshiki, Dominosa and Country Road, each on a small
instance: solved and proven unique through the Python API, then the solution is checked by a
few lines of plain Python written from the genre's printed rules (no puzzledsl code). The
plans (Lights Out, Sokoban, Rush Hour) are replayed, and their lengths compared with a
breadth-first search written here.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import puzzledsl

EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples"


def block(path: Path, name: str) -> list[list[str]]:
    """The cells of the text block `name = \"\"\"…\"\"\"` (tokens if a row has spaces)."""
    m = re.search(rf'^{name}\s*=\s*"""(.*?)"""', path.read_text(encoding="utf-8"), re.S | re.M)
    assert m, f"no {name} in {path}"
    rows = [ln.strip() for ln in m.group(1).splitlines() if ln.strip()]
    return [row.split() if " " in row else list(row) for row in rows]


def numbers(rows: list[list[str]]) -> list[list[int | None]]:
    return [[int(t) if t.lstrip("-").isdigit() else None for t in row] for row in rows]


def solved(name: str) -> dict:
    puzzle = puzzledsl.load(str(EXAMPLES / name))
    solution = puzzle.solve()
    assert solution is not None and puzzle.unique() is True
    return dict(solution)


def each_room_holds_one_to_its_size(room: list[list[str]], x: list[list[int]]) -> bool:
    """A room (cells of one letter) of k cells holds the numbers 1..k, each once."""
    size = Counter(t for row in room for t in row)
    held: dict[str, list[int]] = {}
    for room_row, x_row in zip(room, x):
        for k, v in zip(room_row, x_row):
            held.setdefault(k, []).append(v)
    return all(sorted(held[k]) == list(range(1, size[k] + 1)) for k in size)


def whites_connected(cells: set) -> bool:
    start = min(cells)
    seen, todo = {start}, [start]
    while todo:
        r, c = todo.pop()
        for q in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if q in cells and q not in seen:
                seen.add(q)
                todo.append(q)
    return seen == cells


def test_aquarium() -> None:
    path = EXAMPLES / "aquarium-5x5.puz"
    tank = block(path, "tank")
    text = path.read_text(encoding="utf-8")
    rowsum = eval(re.search(r"^rowsum = (.*)$", text, re.M).group(1))
    colsum = eval(re.search(r"^colsum = (.*)$", text, re.M).group(1))
    water = solved("aquarium-5x5.puz")["water"]
    R, C = len(tank), len(tank[0])
    assert [sum(row) for row in water] == rowsum
    assert [sum(water[r][c] for r in range(R)) for c in range(C)] == colsum
    for k in {t for row in tank for t in row}:        # each tank is full from one level down
        cells = [(r, c) for r in range(R) for c in range(C) if tank[r][c] == k]
        wet = [r for r, c in cells if water[r][c]]
        level = min(wet, default=R)
        assert all(water[r][c] == (r >= level) for r, c in cells), k


def test_heyawake() -> None:
    path = EXAMPLES / "heyawake-5x5.puz"
    room, num = block(path, "room"), numbers(block(path, "num"))
    black = solved("heyawake-5x5.puz")["black"]
    R, C = len(room), len(room[0])
    cells = [(r, c) for r in range(R) for c in range(C)]
    for r, c in cells:
        if num[r][c] is not None:
            assert sum(black[i][j] for i, j in cells if room[i][j] == room[r][c]) == num[r][c]
        if black[r][c]:
            assert not (r + 1 < R and black[r + 1][c]) and not (c + 1 < C and black[r][c + 1])
    assert whites_connected({(r, c) for r, c in cells if not black[r][c]})
    lines = [[(r, c) for c in range(C)] for r in range(R)] + [[(r, c) for r in range(R)] for c in range(C)]
    for line in lines:                                # a white run crosses at most one border
        runs = [[]]                                   # the rooms of each white run
        for r, c in line:
            if black[r][c]:
                runs.append([])
            else:
                runs[-1].append(room[r][c])
        for run in runs:
            assert sum(a != b for a, b in zip(run, run[1:])) <= 1, line


def test_ripple_effect() -> None:
    path = EXAMPLES / "ripple-effect-5x5.puz"
    room, num = block(path, "room"), numbers(block(path, "num"))
    x = solved("ripple-effect-5x5.puz")["x"]
    R, C = len(room), len(room[0])
    assert each_room_holds_one_to_its_size(room, x)
    for r in range(R):
        for c in range(C):
            assert num[r][c] in (None, x[r][c])
            for j in range(1, x[r][c] + 1):           # no equal number within k cells
                assert c + j >= C or x[r][c + j] != x[r][c]
                assert r + j >= R or x[r + j][c] != x[r][c]


def test_yajilin() -> None:
    path = EXAMPLES / "yajilin-7x7.puz"
    arrow, num = block(path, "arrow"), numbers(block(path, "num"))
    got = solved("yajilin-7x7.puz")
    black, line = got["black"], got["line"]
    R, C = len(arrow), len(arrow[0])
    step = {"^": (-1, 0), "v": (1, 0), "<": (0, -1), ">": (0, 1)}
    nbrs: dict = {}
    for p, q in line:                                  # cells 1-based, as the rules index them
        p, q = (p[0] - 1, p[1] - 1), (q[0] - 1, q[1] - 1)
        assert abs(p[0] - q[0]) + abs(p[1] - q[1]) == 1
        nbrs.setdefault(p, []).append(q)
        nbrs.setdefault(q, []).append(p)
    for r in range(R):
        for c in range(C):
            clue = arrow[r][c] in step
            on_loop = not clue and not black[r][c]
            assert len(nbrs.get((r, c), [])) == (2 if on_loop else 0), (r, c)
            if black[r][c]:
                assert not clue
                assert not (r + 1 < R and black[r + 1][c]) and not (c + 1 < C and black[r][c + 1])
            if clue:
                (dr, dc), i, j, n = step[arrow[r][c]], r, c, 0
                while 0 <= i + dr < R and 0 <= j + dc < C:
                    i, j = i + dr, j + dc
                    n += black[i][j]
                assert n == num[r][c], (r, c)
    assert _one_cycle(nbrs)


def test_yajilin_clues_drawn_as_number_and_arrow() -> None:
    """The view returns a (number, arrow) pair on clue cells: drawn side by side (`1↓`) in the
    text board and the SVG, and written as a list in the answer's values (JSON)."""
    path = EXAMPLES / "yajilin-7x7.puz"
    arrow, num = block(path, "arrow"), numbers(block(path, "num"))
    names = {"^": ("up", "↑"), "v": ("down", "↓"), "<": ("left", "←"), ">": ("right", "→")}
    solution = puzzledsl.load(str(path)).solve()
    assert solution is not None
    glyph, text, svg = solution["glyph"], str(solution), solution.svg()
    for r, row in enumerate(arrow):
        for c, a in enumerate(row):
            if a in names:
                assert glyph[r][c] == [num[r][c], names[a][0]]
                # every other line is the one between rows: the loop's links going down
                assert f"{num[r][c]}{names[a][1]}" in text.splitlines()[::2][r]
                assert f">{num[r][c]}{names[a][1]}<" in svg
            else:
                assert isinstance(glyph[r][c], bool)


KING = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]


def test_suguru() -> None:
    path = EXAMPLES / "suguru-6x6.puz"
    region, num = block(path, "region"), numbers(block(path, "num"))
    n = solved("suguru-6x6.puz")["n"]
    R, C = len(region), len(region[0])
    assert each_room_holds_one_to_its_size(region, n)
    for r in range(R):
        for c in range(C):
            assert num[r][c] in (None, n[r][c])
            for dr, dc in KING:                        # equal numbers never touch, not even diagonally
                if 0 <= r + dr < R and 0 <= c + dc < C:
                    assert n[r + dr][c + dc] != n[r][c], (r, c)


def test_futoshiki() -> None:
    path = EXAMPLES / "futoshiki-5x5.puz"
    num, right, below = numbers(block(path, "num")), block(path, "right"), block(path, "below")
    x = solved("futoshiki-5x5.puz")["x"]
    N = len(x)
    assert all(sorted(row) == list(range(1, N + 1)) for row in x)
    assert all(sorted(x[r][c] for r in range(N)) == list(range(1, N + 1)) for c in range(N))
    for r in range(N):
        for c in range(N):
            assert num[r][c] in (None, x[r][c])
            if c + 1 < N and right[r][c] != ".":       # `<`: the left number is the smaller
                assert (x[r][c] < x[r][c + 1]) == (right[r][c] == "<"), (r, c)
            if r + 1 < N and below[r][c] != ".":       # `^`: the upper number is the smaller
                assert (x[r][c] < x[r + 1][c]) == (below[r][c] == "^"), (r, c)
    signs = sum(t != "." for row in right + below for t in row)
    assert signs == 12


def test_dominosa() -> None:
    path = EXAMPLES / "dominosa-6x7.puz"
    num = numbers(block(path, "num"))
    link = solved("dominosa-6x7.puz")["link"]
    R, C = len(num), len(num[0])
    n = max(max(row) for row in num)
    assert (R, C) == (n + 1, n + 2)
    covered: list = []
    pairs = Counter()
    for p, q in link:                                  # cells 1-based, as the rules index them
        assert abs(p[0] - q[0]) + abs(p[1] - q[1]) == 1
        covered += [tuple(p), tuple(q)]
        pairs[tuple(sorted((num[p[0] - 1][p[1] - 1], num[q[0] - 1][q[1] - 1])))] += 1
    assert sorted(covered) == [(r, c) for r in range(1, R + 1) for c in range(1, C + 1)]   # each cell once
    assert pairs == Counter({(a, b): 1 for a in range(n + 1) for b in range(a, n + 1)})     # each pair once


def test_futoshiki_without_signs_in_one_direction() -> None:
    """The sign grids default to `?` (no signs): an instance may leave one out."""
    rules = puzzledsl.rules(str(EXAMPLES / "futoshiki.puz"))
    puzzle = rules.bind(num=["1..", "...", "..."], right=[[None, "<"], [None, None], [None, None]])
    assert puzzle.count() == 2                         # the first row is 1 2 3; then two squares



def test_cave() -> None:
    # shaded cells reach the border, the open cells are one piece, a number sees its count
    path = EXAMPLES / "cave-8x8.puz"
    clue = numbers(block(path, "clue"))
    wall = solved("cave-8x8.puz")["wall"]
    R, C = len(clue), len(clue[0])
    black = {(r, c) for r in range(R) for c in range(C) if wall[r + 1][c + 1]}
    white = {(r, c) for r in range(R) for c in range(C)} - black
    assert whites_connected(white)
    outside = {(r, c) for r in range(-1, R + 1) for c in range(-1, C + 1)
               if not (0 <= r < R and 0 <= c < C)}
    assert whites_connected(black | outside)
    for r in range(R):
        for c in range(C):
            if clue[r][c] is not None:
                seen = 1
                for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                    q = (r + dr, c + dc)
                    while q in white:
                        seen, q = seen + 1, (q[0] + dr, q[1] + dc)
                assert (r, c) in white and seen == clue[r][c], (r, c)


def test_lights_out_plan() -> None:
    path = EXAMPLES / "lights-out-5x5.puz"
    on = [[t == "#" for t in row] for row in block(path, "lit")]
    plan = puzzledsl.load(str(path)).plan()
    assert plan.optimal and len(plan.actions) == 15        # the classical minimum
    for act in plan.actions:
        r, c = act.args[0]
        for dr, dc in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)):
            if 0 <= r - 1 + dr < 5 and 0 <= c - 1 + dc < 5:
                on[r - 1 + dr][c - 1 + dc] ^= True
    assert not any(map(any, on))


def _text_block(path: Path, name: str) -> list[str]:
    """The rows of a text block as written, spaces kept (Sokoban's floor)."""
    m = re.search(rf'^{name}\s*=\s*"""\n(.*?)"""', path.read_text(encoding="utf-8"), re.S | re.M)
    assert m, f"no {name} in {path}"
    return [ln for ln in m.group(1).splitlines() if ln.strip()]


def _fewest(start, moves, done) -> int | None:
    """Breadth-first search: the fewest moves from `start` to a state where `done` holds."""
    from collections import deque
    seen, todo = {start: 0}, deque([start])
    while todo:
        s = todo.popleft()
        if done(s):
            return seen[s]
        for t in moves(s):
            if t not in seen:
                seen[t] = seen[s] + 1
                todo.append(t)
    return None


SOKO = {"u": (-1, 0), "d": (1, 0), "l": (0, -1), "r": (0, 1)}


def _soko_moves(walls, state):
    boxes, man = state
    for name, (dr, dc) in SOKO.items():
        q, q2 = (man[0] + dr, man[1] + dc), (man[0] + 2 * dr, man[1] + 2 * dc)
        if q in walls or (q in boxes and (q2 in walls or q2 in boxes)):
            continue
        yield (name.upper() if q in boxes else name), ((boxes - {q}) | {q2} if q in boxes else boxes, q)


def test_sokoban_plan() -> None:
    """Replayed move by move, and as short as a breadth-first search over (boxes, keeper) finds."""
    rows = _text_block(EXAMPLES / "sokoban-7x7.puz", "level")
    at = {(r, c): ch for r, row in enumerate(rows) for c, ch in enumerate(row)}
    walls = {p for p, ch in at.items() if ch == "#"}
    goals = frozenset(p for p, ch in at.items() if ch in ".*+")
    start = (frozenset(p for p, ch in at.items() if ch in "$*"), next(p for p, ch in at.items() if ch in "@+"))
    plan = puzzledsl.load(str(EXAMPLES / "sokoban-7x7.puz")).plan()
    state = start
    for act in plan.actions:
        state = dict(_soko_moves(walls, state))[act.text]   # a KeyError: not a legal move
    assert state[0] == goals and plan.optimal
    fewest = _fewest(start, lambda s: [t for _, t in _soko_moves(walls, s)], lambda s: s[0] == goals)
    assert len(plan.actions) == fewest == 35


def test_rush_hour_plan() -> None:
    board = block(EXAMPLES / "rush-hour-6x6.puz", "board")
    n = len(board)
    cars: dict[str, list[tuple[int, int]]] = {}
    for r, row in enumerate(board):
        for c, ch in enumerate(row):
            if ch != "-":
                cars.setdefault(ch, []).append((r, c))

    def cells_of(k: str, head: tuple[int, int]) -> list[tuple[int, int]]:
        (r0, c0), (r1, c1) = cars[k][0], cars[k][1]
        return [(head[0] + i * (r1 - r0), head[1] + i * (c1 - c0)) for i in range(len(cars[k]))]

    def slides(state):
        heads = dict(state)
        taken = {q for k, h in heads.items() for q in cells_of(k, h)}
        for k, h in heads.items():
            dr, dc = cars[k][1][0] - cars[k][0][0], cars[k][1][1] - cars[k][0][1]
            for sign in (1, -1):
                for step in range(1, n):
                    nh = (h[0] + sign * step * dr, h[1] + sign * step * dc)
                    new = cells_of(k, nh)
                    if any(not (0 <= a < n and 0 <= b < n) or ((a, b) in taken and (a, b) not in cells_of(k, h))
                           for a, b in new):
                        break
                    yield f"{k}{sign * step}", tuple(sorted({**heads, k: nh}.items()))

    start = tuple(sorted((k, v[0]) for k, v in cars.items()))
    out = lambda s: dict(s)["X"][1] == n - 2                  # noqa: E731
    plan = puzzledsl.load(str(EXAMPLES / "rush-hour-6x6.puz")).plan()
    state = start
    for act in plan.actions:
        state = dict(slides(state))[act.text]
    assert out(state) and plan.optimal
    assert len(plan.actions) == _fewest(start, lambda s: [t for _, t in slides(s)], out) == 15


def test_country_road() -> None:
    """One loop; a region's number counts the cells it visits; each region entered once; no two
    unvisited cells side by side across a region border."""
    path = EXAMPLES / "country-road-6x6.puz"
    region, num = block(path, "region"), numbers(block(path, "num"))
    line = solved("country-road-6x6.puz")["line"]
    R, C = len(region), len(region[0])
    nbrs: dict = {}
    for p, q in line:                                  # cells 1-based, as the rules index them
        p, q = (p[0] - 1, p[1] - 1), (q[0] - 1, q[1] - 1)
        nbrs.setdefault(p, []).append(q)
        nbrs.setdefault(q, []).append(p)
    assert all(len(v) == 2 for v in nbrs.values())
    assert _one_cycle(nbrs)
    kind = lambda p: region[p[0]][p[1]]                # noqa: E731
    for k in {t for row in region for t in row}:
        crossings = sum(1 for p in nbrs for q in nbrs[p] if kind(p) == k != kind(q))
        assert crossings == 2, k                       # each crossing seen once, from inside
    for r in range(R):
        for c in range(C):
            if num[r][c] is not None:
                k = region[r][c]
                assert sum(1 for p in nbrs if kind(p) == k) == num[r][c], (r, c)
            for q in ((r + 1, c), (r, c + 1)):
                if q[0] < R and q[1] < C and kind(q) != region[r][c]:
                    assert (r, c) in nbrs or q in nbrs, ((r, c), q)


def _one_cycle(nbrs: dict) -> bool:
    """Whether cells with two neighbours each (`nbrs`) form one loop, not several."""
    start = next(iter(nbrs))
    prev, cur, length = None, start, 0
    while True:
        nxt = next(q for q in nbrs[cur] if q != prev) if prev else nbrs[cur][0]
        prev, cur, length = cur, nxt, length + 1
        if cur == start:
            return length == len(nbrs)
