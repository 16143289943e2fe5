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
