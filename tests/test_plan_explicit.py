"""Plans found by the search over explicit states (`planning/explicit.py`).

Optimal lengths are compared with searches written here from the puzzles' rules (and with
2^n - 1 for the Tower of Hanoi), never with the solver's own output.
"""

from __future__ import annotations

import json
from collections import deque

import pytest

from puzzledsl.compile import compile_file
from puzzledsl.planning.explicit import explore
from puzzledsl.planning.search import search
from tests.test_cli import run_main

HANOI = """
given N: int = 3
given P: int = 3
state on[1..N, 1..P]: bool
action move(k in 1..N, a in 1..P, b in 1..P) where a != b "{k}:{a}>{b}":
  if on[k, a] and forall(j in 1..k - 1: not on[j, a] and not on[j, b])
  then on[k, a] := false, on[k, b] := true
init forall k in 1..N, a in 1..P: on[k, a] == (a == 1)
goal forall k in 1..N: on[k, P]
"""

# A keeper pushes boxes on to goals; walking is free under `measure=pushes`.
SOKOBAN = """
given R: int
given C: int
given level[1..R, 1..C]: sym legend { "#": wall, " ": floor, ".": target, "$": crate, "@": keeper }
  outside wall
option measure: sym = moves
symbol moves, pushes
define open(p) = inside(level, p) and level[p] != wall
state box[1..R, 1..C]: bool
state man[1..R, 1..C]: bool
action walk(p in cells(level), d in orth where open(p) and open(p + d)) cost (if measure == pushes then 0 else 1):
  if man[p] and not box[p + d] then man[p] := false, man[p + d] := true
action push(p in cells(level), d in orth where open(p) and open(p + d) and open(p + 2 * d)):
  if man[p] and box[p + d] and not box[p + 2 * d]
  then man[p] := false, man[p + d] := true, box[p + d] := false, box[p + 2 * d] := true
init forall p in cells(level): box[p] == (level[p] == crate) and man[p] == (level[p] == keeper)
goal forall p in cells(level) where open(p): box[p] == (level[p] == target)
horizon minimize cost at most 60
"""
LEVEL = ["#######", "#.   .#", "# #$# #", "#  @  #", "# #$# #", "#     #", "#######"]


def _sokoban_best(level: list[str], pushes: bool) -> tuple[int, int]:
    """(fewest pushes or moves, and the fewest moves among those) by a search over (boxes, keeper)."""
    cells = {(r, c): ch for r, row in enumerate(level) for c, ch in enumerate(row)}
    boxes = frozenset(p for p, ch in cells.items() if ch == "$")
    goals = frozenset(p for p, ch in cells.items() if ch == ".")
    man = next(p for p, ch in cells.items() if ch == "@")
    start = (boxes, man)
    best = {start: (0, 0)}
    todo = deque([start])
    while todo:  # a label-correcting search: fine for a few thousand states
        s = todo.popleft()
        b, m = s
        for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0)):
            q, q2 = (m[0] + dr, m[1] + dc), (m[0] + 2 * dr, m[1] + 2 * dc)
            if cells.get(q, "#") == "#":
                continue
            if q in b:
                if cells.get(q2, "#") == "#" or q2 in b:
                    continue
                t, w = (b - {q} | {q2}, q), 1
            else:
                t, w = (b, q), 0 if pushes else 1
            key = (best[s][0] + w, best[s][1] + 1)
            if key < best.get(t, (10**9, 0)):
                best[t] = key
                todo.append(t)
    return min(v for (b, _), v in best.items() if b == goals)


def _hanoi(tmp_path, n: int, pegs: int = 3, extra: str = ""):
    path = tmp_path / "hanoi.puz"
    path.write_text(HANOI + extra)
    data = tmp_path / "d.json"
    data.write_text(json.dumps({"N": n, "P": pegs}))
    return path, data


@pytest.mark.parametrize("n", [3, 5])
def test_hanoi_is_solved_optimally(tmp_path, n):
    path, data = _hanoi(tmp_path, n)
    res = search(compile_file(path, data).plan, time_limit=30)
    assert res.status == "sat" and res.optimal and len(res.actions) == 2 ** n - 1
    assert "explicit" in res.method and res.stats["states"] <= 3 ** n
    pegs = {1: list(range(n, 0, -1)), 2: [], 3: []}  # replay: a disc moves onto a larger one only
    for act in res.actions:
        k, a, b = act.args
        assert pegs[a] and pegs[a][-1] == k and (not pegs[b] or pegs[b][-1] > k)
        pegs[b].append(pegs[a].pop())
    assert pegs[3] == list(range(n, 0, -1))


def test_no_plan_is_proven_when_the_reachable_states_run_out(tmp_path, capsys):
    """Two pegs, two discs: 2 reachable states and no goal among them. Growing horizons never
    proved it (10,000 horizons in 30 s); the states are all visited at once."""
    path, data = _hanoi(tmp_path, 2, pegs=2)
    rc, out, _ = run_main(capsys, "solve", path, "--data", data, "--json")
    obj = json.loads(out)
    assert rc == 1 and obj["status"] == "unsat" and "no goal state among the 2 states" in obj["reason"]


def test_a_bounded_horizon_is_kept(tmp_path, capsys):
    path, data = _hanoi(tmp_path, 2, extra="horizon minimize at most 2\n")
    rc, out, _ = run_main(capsys, "solve", path, "--data", data, "--json")
    obj = json.loads(out)
    assert rc == 1 and obj["reason"] == "no plan of at most 2 actions"


@pytest.mark.parametrize("measure", ["moves", "pushes"])
def test_sokoban_fewest_moves_and_pushes(tmp_path, measure):
    """A 35-move level that time-indexed SAT had not solved in 200 s. With free walking the
    cheapest plan is also the shortest of the cheapest: no wandering between the pushes."""
    path = tmp_path / "sokoban.puz"
    path.write_text(SOKOBAN + 'level = """\n' + "\n".join(LEVEL) + '\n"""\n')
    res = search(compile_file(path, options={"measure": measure}).plan, time_limit=30)
    pushes = sum(a.name == "push" for a in res.actions)
    best = _sokoban_best(LEVEL, measure == "pushes")
    assert res.status == "sat" and res.optimal
    assert (pushes, len(res.actions)) == best if measure == "pushes" else len(res.actions) == best[0]


def test_a_search_over_its_budget_is_left_to_sat(tmp_path):
    path, data = _hanoi(tmp_path, 3)
    plan = compile_file(path, data).plan
    assert explore(plan, 1, None, max_states=5) is None
    res = search(plan, time_limit=30, explicit=False)
    assert res.status == "sat" and res.optimal and len(res.actions) == 7 and "SAT" in res.method


def test_ctrl_c_during_the_explicit_search(tmp_path, monkeypatch):
    """Ctrl-C while states are visited ends the search as in SAT's horizons (exit 130, JSON
    `interrupted`), not with the CLI's bare "interrupted" object."""
    from puzzledsl.planning import search as search_module

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(search_module, "explore", interrupted)
    path, data = _hanoi(tmp_path, 3)
    res = search(compile_file(path, data).plan, time_limit=30)
    assert res.interrupted and res.timed_out and res.status == "unknown" and not res.actions


SLIDING = """
given start[1..2, 1..3]: int
state tile[1..2, 1..3]: 0..5
action slide(b in cells(start), d in orth) where inside(start, b + d):
  if tile[b] == 0 then tile[b] := tile[b + d], tile[b + d] := 0
init forall p in cells(start): tile[p] == start[p]
goal forall r in 1..2, c in 1..3: tile[r, c] == (3 * (r - 1) + c) % 6
implied rule "each tile once": forall k in 0..5: exactly(1, p in cells(start): tile[p] == k)
"""


def _sliding_best(start: tuple[int, ...]) -> int:
    """Fewest slides to 1 2 3 / 4 5 0, by breadth-first search over the 360 reachable boards."""
    goal = (1, 2, 3, 4, 5, 0)
    seen, todo = {start: 0}, deque([start])
    while todo:
        s = todo.popleft()
        if s == goal:
            return seen[s]
        b = s.index(0)
        for t in (b - 3, b + 3, b - 1 if b % 3 else -1, b + 1 if b % 3 < 2 else -1):
            if 0 <= t < 6:
                n = list(s)
                n[b], n[t] = n[t], 0
                if tuple(n) not in seen:
                    seen[tuple(n)] = seen[s] + 1
                    todo.append(tuple(n))
    raise AssertionError("unreachable")


@pytest.mark.parametrize("start", [(5, 4, 3, 2, 1, 0), (0, 5, 4, 1, 3, 2)])
def test_implied_state_rules_are_not_asked_of_explored_states(tmp_path, start):
    """States reached by the moves keep an `implied rule` (it follows from the others): the
    search over explicit states skips it, and the plan is the shortest all the same."""
    path = tmp_path / "slide.puz"
    path.write_text(SLIDING + 'start = """\n' + " ".join(map(str, start[:3])) + "\n"
                    + " ".join(map(str, start[3:])) + '\n"""\n')
    plan = compile_file(path).plan
    assert len(plan.implied) == 1 and len(plan.state_rules) == 1
    res = search(plan, time_limit=30)
    assert res.status == "sat" and res.optimal and "explicit" in res.method
    board = list(start)
    for act in res.actions:  # replay: the blank swaps with its neighbour
        (r, c), (dr, dc) = act.args
        b, t = 3 * (r - 1) + c - 1, 3 * (r - 1 + dr) + c - 1 + dc
        assert board[b] == 0
        board[b], board[t] = board[t], 0
    assert board == [1, 2, 3, 4, 5, 0] and len(res.actions) == _sliding_best(start)
