"""An independent replay of explanations: each step's reasons, read from the rule texts of
Kakurasu, Battleship, Hitori and (its local rules) Slitherlink in plain Python (never from the
encoder), must force the cells the step fixes. Forcing is checked by brute force: a
backtracking search over the cells the cited rule instances read, with the cited cells fixed,
for an assignment that satisfies every cited rule instance and gives a fixed cell another
value. None may exist.
"""

from __future__ import annotations

from collections.abc import Callable

Cell = tuple[int, int]
Assign = dict[Cell, bool]
# a rule instance: the cells it reads, and whether it holds (None: not yet known, on a partial board)
Instance = tuple[set[Cell], Callable[[Assign], bool | None]]


class Board:
    def __init__(self, rows: int, cols: int):
        self.rows, self.cols = rows, cols
        self.cells = [(r, c) for r in range(1, rows + 1) for c in range(1, cols + 1)]

    def inside(self, p: Cell) -> bool:
        return 1 <= p[0] <= self.rows and 1 <= p[1] <= self.cols


def _get(a: Assign, p: Cell, board: Board) -> bool:
    """A cell's value; outside the board is false (`outside false`)."""
    return a[p] if board.inside(p) else False


def count_rule(cells: list[Cell], weights: list[int], target: int) -> Instance:
    """sum of the weights of the true cells == target, decided early when it can be."""
    def holds(a: Assign) -> bool | None:
        low = sum(w for p, w in zip(cells, weights) if a.get(p) is True)
        high = low + sum(w for p, w in zip(cells, weights) if p not in a)
        if low > target or high < target:
            return False
        return True if low == high else None
    return set(cells), holds


def whole(scope: set[Cell], f: Callable[[Assign], bool]) -> Instance:
    """A rule instance known only once all its cells are."""
    return scope, (lambda a: f(a) if all(p in a for p in scope) else None)


# ------------------------------------------------------------------ Kakurasu


def kakurasu(rowsum: list[int | None], colsum: list[int | None]) -> Callable[[str, dict], Instance]:
    R, C = len(rowsum), len(colsum)

    def instance(label: str, b: dict) -> Instance:
        if label == "row sums":
            r = b["r"]
            return count_rule([(r, c) for c in range(1, C + 1)], list(range(1, C + 1)), rowsum[r - 1])
        if label == "column sums":
            c = b["c"]
            return count_rule([(r, c) for r in range(1, R + 1)], list(range(1, R + 1)), colsum[c - 1])
        raise KeyError(label)
    return instance


# ------------------------------------------------------------------ Battleship


ORTH = ((-1, 0), (0, 1), (1, 0), (0, -1))


def battleship(rowsum: list[int], colsum: list[int], fleet: list[int],
               hint: dict[Cell, str]) -> Callable[[str, dict], Instance]:
    """Ship cells; counts per row and column; ships never touch diagonally; hint letters; at
    least fleet[k] ships of exactly k cells; no run longer than the longest ship."""
    board = Board(len(rowsum), len(colsum))
    L = len(fleet)

    def s(a: Assign, p: Cell) -> bool:
        return _get(a, p, board)

    def run(a: Assign, p: Cell, d: Cell, k: int) -> bool:
        """A ship starts at p (not continuing backwards) and runs at least k cells along d."""
        back = (p[0] - d[0], p[1] - d[1])
        return not s(a, back) and all(s(a, (p[0] + i * d[0], p[1] + i * d[1])) for i in range(k))

    def hint_ok(a: Assign, p: Cell, letter: str) -> bool:
        r, c = p
        up, down, left, right = s(a, (r - 1, c)), s(a, (r + 1, c)), s(a, (r, c - 1)), s(a, (r, c + 1))
        at = s(a, p)
        return {"x": not at, "o": at and not (up or down or left or right), "n": at and not up and down,
                "s": at and up and not down, "w": at and not left and right, "e": at and left and not right,
                "m": at and ((up and down) or (left and right))}[letter]

    everything = set(board.cells)

    def ship_cells(p: Cell, d: Cell, k: int, alone: bool) -> tuple[list[Cell], list[Cell]]:
        """The cells a ship of exactly k cells from p along d occupies, and the water around
        its ends (all four sides too for a single ship)."""
        on = [(p[0] + i * d[0], p[1] + i * d[1]) for i in range(k)]
        off = [(p[0] - d[0], p[1] - d[1]), (p[0] + k * d[0], p[1] + k * d[1])]
        if alone:
            off = [(p[0] + dr, p[1] + dc) for dr, dc in ORTH]
        return on, off

    def at_least(n: int, ships: list[tuple[Cell, Cell, int, bool]]) -> Callable[[Assign], bool | None]:
        """At least n of these ships: False once fewer can still be, True once n surely are."""
        shapes = [ship_cells(*x) for x in ships]

        def value(a: Assign, q: Cell) -> bool | None:
            return a.get(q) if board.inside(q) else False

        def holds(a: Assign) -> bool | None:
            sure = may = 0
            for on, off in shapes:
                vals = [value(a, q) for q in on] + [None if v is None else not v for v in (value(a, q) for q in off)]
                if False in vals:
                    continue
                may += 1
                sure += None not in vals
            if sure >= n:
                return True
            return False if may < n else None
        return holds

    def instance(label: str, b: dict) -> Instance:
        if label == "row counts":
            r = b["r"]
            return count_rule([(r, c) for c in range(1, board.cols + 1)], [1] * board.cols, rowsum[r - 1])
        if label == "column counts":
            c = b["c"]
            return count_rule([(r, c) for r in range(1, board.rows + 1)], [1] * board.rows, colsum[c - 1])
        if label == "ships never touch diagonally":
            p = (b["r"], b["c"])
            q = (p[0] + b["d"][0], p[1] + b["d"][1])
            return whole({x for x in (p, q) if board.inside(x)}, lambda a: not (s(a, p) and s(a, q)))
        if label == "hints":
            p = (b["r"], b["c"])
            near = {p, *((p[0] + dr, p[1] + dc) for dr, dc in ORTH)}
            return whole({x for x in near if board.inside(x)}, lambda a: hint_ok(a, p, hint[p]))
        if label == "single ships":
            return everything, at_least(fleet[0], [(p, (0, 1), 1, True) for p in board.cells])
        if label == "longer ships":
            k = b["k"]
            return everything, at_least(fleet[k - 1], [(p, d, k, False) for p in board.cells
                                                       for d in ((0, 1), (1, 0))])
        if label == "no ship longer than the fleet's longest":
            p, d = (b["r"], b["c"]), (b["dr"], b["dc"])
            scope = {(p[0] + i * d[0], p[1] + i * d[1]) for i in range(-1, L + 1)}
            return whole({x for x in scope if board.inside(x)}, lambda a: not run(a, p, d, L + 1))
        if label == "ship cells of the fleet":
            total = sum(k * n for k, n in enumerate(fleet, 1))
            return count_rule(board.cells, [1] * len(board.cells), total)
        raise KeyError(label)
    return instance


# ------------------------------------------------------------------ Hitori


def hitori(number: list[list[int]]) -> Callable[[str, dict], Instance]:
    """Shaded cells: no number twice among the unshaded cells of a row or column; shaded cells
    never touch; the unshaded cells are one orthogonally connected area."""
    board = Board(len(number), len(number[0]))

    def connected(a: Assign) -> bool | None:
        """False once the cells not shaded (and those still open) cannot all be one area."""
        white = [p for p in board.cells if a.get(p) is not True]
        if not white:
            return True
        seen, todo = {white[0]}, [white[0]]
        ws = set(white)
        while todo:
            r, c = todo.pop()
            for dr, dc in ORTH:
                q = (r + dr, c + dc)
                if q in ws and q not in seen:
                    seen.add(q)
                    todo.append(q)
        if len(seen) < len(ws):
            return False
        return True if all(p in a for p in board.cells) else None

    def instance(label: str, b: dict) -> Instance:
        if label == "no number twice in a row":
            p, q = (b["r"], b["c1"]), (b["r"], b["c2"])
            return whole({p, q}, lambda a: a[p] or a[q])
        if label == "no number twice in a column":
            p, q = (b["r1"], b["c"]), (b["r2"], b["c"])
            return whole({p, q}, lambda a: a[p] or a[q])
        if label == "shaded cells never touch":
            p = tuple(b["p"])
            q = (p[0] + b["d"][0], p[1] + b["d"][1])
            return whole({x for x in (p, q) if board.inside(x)},
                         lambda a: not (_get(a, p, board) and _get(a, q, board)))
        if label == "the unshaded cells are one area":
            return set(board.cells), connected
        raise KeyError(label)
    return instance


# ------------------------------------------------------------------ Slitherlink


class Global(Exception):
    """A rule instance that reads the whole board (a loop's connectivity): not replayed here."""


def slitherlink(clue: list[list[int | None]]) -> Callable[[str, dict], Instance]:
    """Edges between the dots (0..R, 0..C), keyed (r1, c1, r2, c2) with the smaller dot first:
    a clue counts its cell's four sides; a dot has 0 or 2 edges. "one loop" and "there is a
    loop" raise Global."""
    R, C = len(clue), len(clue[0])

    def edge(p: Cell, q: Cell) -> Cell:
        a, b = sorted((p, q))
        return (*a, *b)  # type: ignore[return-value]

    def degree(edges: list[Cell]) -> Instance:
        def holds(a: Assign) -> bool | None:
            on = sum(1 for e in edges if a.get(e) is True)
            free = sum(1 for e in edges if e not in a)
            if on > 2 or (on + free < 2 and on != 0):
                return False
            return on in (0, 2) if free == 0 else None
        return set(edges), holds

    def instance(label: str, b: dict) -> Instance:
        r, c = b.get("r"), b.get("c")
        if label == "clues":
            sides = [edge((r - 1, c - 1), (r - 1, c)), edge((r, c - 1), (r, c)), edge((r - 1, c - 1), (r, c - 1)),
                     edge((r - 1, c), (r, c))]
            return count_rule(sides, [1] * 4, clue[r - 1][c - 1])  # type: ignore[arg-type]
        if label == "the loop never branches or ends":
            return degree([edge((r, c), (r + dr, c + dc)) for dr, dc in ORTH
                           if 0 <= r + dr <= R and 0 <= c + dc <= C])
        raise Global(label)
    return instance


# ------------------------------------------------------------------ the replay


def counterexample(instances: list[Instance], fixed: Assign, target: Cell, value: bool) -> Assign | None:
    """An assignment of the instances' cells that keeps `fixed`, gives `target` the other value
    and satisfies every instance; None when there is none (the step forces `target`)."""
    scope = set().union(*(s for s, _ in instances)) if instances else set()
    if target not in scope:
        return {target: not value}  # no cited rule reads it: nothing forces it
    a: Assign = {p: v for p, v in fixed.items() if p in scope}
    a[target] = not value
    # cells that small rule instances read first: they prune the search early
    small = set().union(*(sc for sc, _ in instances if len(sc) < len(scope))) if len(instances) > 1 else set()
    free = sorted(scope - a.keys(), key=lambda p: (p not in small, p))

    def ok() -> bool:
        return all(holds(a) is not False for _, holds in instances)

    def search(i: int) -> bool:
        if not ok():
            return False
        if i == len(free):
            return all(holds(a) is True for _, holds in instances)
        for v in (False, True):
            a[free[i]] = v
            if search(i + 1):
                return True
        del a[free[i]]
        return False

    return dict(a) if search(0) else None
