"""Action costs (`cost K`, `horizon minimize cost`): the cheapest plan, checked against
independent searches written from the rules (0-1 BFS for peg-solitaire moves, Dijkstra
for a weighted walk), never against the solver's own output."""

from __future__ import annotations

import heapq
import json
import random
from pathlib import Path

import pytest

from puzzledsl.compile import compile_file
from puzzledsl.planning.search import search
from tests import pegsol_sim
from tests.test_cli import ROOT, run_main

PEG = ROOT / "puzzles" / "peg-solitaire.puz"
PEG_BOARDS = ROOT / "puzzles" / "peg-solitaire"
MOVES = {"measure": "moves"}


def moves_of(jumps: list[tuple]) -> int:
    """Moves of a jump sequence: a jump that starts where the one before landed continues its move."""
    return sum(1 for k, (a, _, _) in enumerate(jumps) if k == 0 or jumps[k - 1][2] != a)


def jumps(actions) -> list[tuple]:
    return [(a.args[0], a.args[2], a.args[3]) for a in actions]


def solve_json(capsys, *args) -> tuple[int, dict]:
    rc, out, _ = run_main(capsys, "solve", *args, "--json")
    return rc, json.loads(out)


# ------------------------------------------------------------------ peg solitaire: moves

@pytest.mark.parametrize("name", ["tiny-1", "tiny-2", "tiny-3", "tiny-4"])
def test_peg_moves_small_boards(name):
    path = PEG_BOARDS / f"{name}.txt"
    text = path.read_text()
    res = search(compile_file(PEG, path, options=MOVES).plan, time_limit=60)
    best = pegsol_sim.min_moves(text)
    if best is None:
        assert res.status == "unsat"
        return
    assert res.status == "sat" and res.optimal and res.cost == best == res.lower_bound
    assert pegsol_sim.is_solution(text, jumps(res.actions))
    assert moves_of(jumps(res.actions)) == best


def _triangle(empty: tuple[int, int]) -> str:
    return "\n".join("".join("." if (r, c) == empty else "o" for c in range(r + 1)) for r in range(5)) + "\n"


def _triangle_moves(tmp_path: Path, starts: list[tuple[int, int]]) -> None:
    for empty in starts:
        text = _triangle(empty)
        path = tmp_path / "t.txt"
        path.write_text(text)
        res = search(compile_file(PEG, path, options={**MOVES, "jumps": "triangle"}).plan, time_limit=120)
        best = pegsol_sim.min_moves(text, "triangle")
        assert res.optimal and res.cost == best, empty
        assert pegsol_sim.is_solution(text, jumps(res.actions), "triangle")
        assert moves_of(jumps(res.actions)) == best


def test_peg_moves_triangle_some_starts(tmp_path):
    _triangle_moves(tmp_path, [(2, 1)])


@pytest.mark.slow
def test_peg_moves_triangle_every_start(tmp_path):
    _triangle_moves(tmp_path, [(r, c) for r in range(5) for c in range(r + 1)])


@pytest.mark.slow  # two proofs of the optimum (12-23 s); the search itself is in the default suite
def test_peg_moves_cli_json_and_text(capsys):
    rc, obj = solve_json(capsys, PEG, "--data", PEG_BOARDS / "triangle.txt", "--option", "jumps=triangle",
                         "--option", "measure=moves")
    assert rc == 0 and obj["optimal"] is True and obj["cost"] == obj["lower_bound"] == 10
    assert obj["moves"] == 13 and sum(obj["step_costs"]) == 10
    assert len(obj["plan_text"].split(" ")) == 10  # chains joined by commas: one word per move
    rc, out, _ = run_main(capsys, "solve", PEG, "--data", PEG_BOARDS / "triangle.txt", "--option",
                          "jumps=triangle", "--option", "measure=moves", "--no-color")
    assert rc == 0 and "13 jumps, cost 10, optimal" in out


def test_peg_jumps_measure_keeps_the_parallel_search(capsys):
    """With every jump costing 1 the cheapest plan is the shortest: the fast parallel-step search runs."""
    res = search(compile_file(PEG, PEG_BOARDS / "triangle.txt", options={"jumps": "triangle"}).plan)
    assert res.optimal and res.cost == len(res.actions) == 13 and "parallel" in res.method


# ------------------------------------------------------------------ a weighted walk against Dijkstra

WALK = """
given H: int
given W: int
given weight[H, W]: int outside 0
given wall[H, W]: bool outside true
state at[H, W]: bool
action step(p in cells(at), d in orth, q in [p + d]) where not wall[q] cost weight[q] "{q}":
  if at[p] then at[p] := false, at[q] := true
init forall p in cells(at): at[p] == (p == (0, 0))
goal at[H - 1, W - 1]
horizon minimize cost at most H * W
"""


def _dijkstra(weight: list[list[int]], wall: list[list[bool]]) -> int | None:
    h, w = len(weight), len(weight[0])
    best = {(0, 0): 0}
    heap = [(0, (0, 0))]
    while heap:
        d, (r, c) = heapq.heappop(heap)
        if (r, c) == (h - 1, w - 1):
            return d
        if d > best[(r, c)]:
            continue
        for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0)):
            q = (r + dr, c + dc)
            if 0 <= q[0] < h and 0 <= q[1] < w and not wall[q[0]][q[1]]:
                nd = d + weight[q[0]][q[1]]
                if nd < best.get(q, nd + 1):
                    best[q] = nd
                    heapq.heappush(heap, (nd, q))
    return None


@pytest.mark.parametrize("explicit", [True, False], ids=["explicit", "sat"])
@pytest.mark.parametrize("seed", range(6))
def test_weighted_walk_matches_dijkstra(tmp_path, seed, explicit):
    rng = random.Random(seed)
    h, w = rng.randint(2, 4), rng.randint(3, 4)
    weight = [[rng.choice([0, 1, 1, 2, 3]) for _ in range(w)] for _ in range(h)]
    wall = [[rng.random() < 0.2 and (r, c) not in ((0, 0), (h - 1, w - 1)) for c in range(w)] for r in range(h)]
    (tmp_path / "walk.puz").write_text(WALK)
    data = tmp_path / "walk.json"
    data.write_text(json.dumps({"H": h, "W": w, "weight": weight, "wall": wall}))
    res = search(compile_file(tmp_path / "walk.puz", data).plan, time_limit=60, explicit=explicit)
    assert ("explicit" in res.method) == (explicit and res.status == "sat")  # both routes are checked
    best = _dijkstra(weight, wall)
    if best is None:
        assert res.status == "unsat"
        return
    assert res.status == "sat" and res.optimal and res.cost == best
    at = (0, 0)
    paid = 0
    for act in res.actions:  # replay: each step goes to a free neighbour and pays its weight
        p, d, q = act.args
        assert p == at and abs(q[0] - p[0]) + abs(q[1] - p[1]) == 1 and not wall[q[0]][q[1]]
        paid += weight[q[0]][q[1]]
        at = q
    assert at == (h - 1, w - 1) and paid == best


def test_uniform_cost_is_the_shortest_plan_in_costs(tmp_path):
    path = tmp_path / "u.puz"
    path.write_text("""
state on[3]: bool
action flip(i in 0..2) cost 2 "{i}": if not on[i] then on[i] := true
init forall i in 0..2: not on[i]
goal forall i in 0..2: on[i]
horizon minimize cost
""")
    res = search(compile_file(path).plan)
    assert res.optimal and len(res.actions) == 3 and res.cost == 6 == res.lower_bound


# ------------------------------------------------------------------ errors

BASE = """
state at[0..3]: bool
init at[0] and forall p in 1..3: not at[p]
goal at[3]
"""


@pytest.mark.parametrize("text, message", [
    (BASE + "action go(p in 0..2) cost p - 2: if at[p] then at[p] := false, at[p + 1] := true\n"
     "horizon minimize cost at most 3\n", "must not be negative"),
    (BASE + "action go(p in 0..2) cost (if at[1] then 0 else 1): if at[p] then at[p] := false, at[p + 1] := true\n"
     "horizon minimize cost\n", "needs a bound on its length"),
    (BASE + "action go(p in 0..2) cost (1, 2): if at[p] then at[p] := false, at[p + 1] := true\n"
     "horizon minimize cost at most 3\n", "the cost of an action"),
    (BASE + "action go(p in 0..2) cost price: if at[p] then at[p] := false, at[p + 1] := true\n"
     "horizon minimize cost at most 3\n", "price"),
    (BASE + "action go(p in 0..2) cost 5000: if at[p] then at[p] := false, at[p + 1] := true\n"
     "horizon minimize cost at most 3\n", "at most 1000"),
])
def test_cost_errors_are_located(tmp_path, capsys, text, message):
    path = tmp_path / "p.puz"
    path.write_text(text)
    rc, _, err = run_main(capsys, "solve", path)
    assert rc == 2 and message in err and "p.puz:" in err, err


def test_time_limit_before_the_proof_exits_3(capsys):
    """The English board's cheapest plan in moves is not proven within a second: the best plan
    found is printed, not marked optimal, and the exit code says the time limit cut it short."""
    rc, obj = solve_json(capsys, PEG, "--data", PEG_BOARDS / "english.txt", "--option", "measure=moves",
                         "--time-limit", "3")
    assert rc == 3 and obj["timed_out"] is True and obj["optimal"] is False
    if obj["status"] == "sat":
        assert pegsol_sim.is_solution((PEG_BOARDS / "english.txt").read_text(),
                                      [tuple(tuple(x) for x in (a["args"][0], a["args"][2], a["args"][3]))
                                       for a in obj["plan"]])


def test_ctrl_c_keeps_the_best_plan(monkeypatch):
    """Ctrl-C during the cost search ends it like a time limit: the best plan found stands."""
    from puzzledsl.backends.sat import SatBackend

    real = SatBackend.solve
    armed = []  # set once the first costed plan is reported: the next solver call is "interrupted"

    def solve(self, assumptions=None, deadline=None, conflicts=None):
        if armed:
            raise KeyboardInterrupt
        return real(self, assumptions, deadline, conflicts)

    monkeypatch.setattr(SatBackend, "solve", solve)
    path = PEG_BOARDS / "triangle.txt"
    res = search(compile_file(PEG, path, options={**MOVES, "jumps": "triangle"}).plan,
                 progress=lambda text: armed.append(1) if text.startswith("a plan of cost") else None)
    assert res.interrupted and res.timed_out and res.status == "sat" and not res.optimal
    assert pegsol_sim.is_solution(path.read_text(), jumps(res.actions), "triangle")
    assert res.cost == moves_of(jumps(res.actions))
