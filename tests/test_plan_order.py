"""Plans whose moves commute (`planning/order.py`) and flips in parity invariants.

A new user's Lights Out, written over time as docs §20's lamp example suggests, got stuck at
horizon 10 of a 5×5 board for minutes: every order of every set of presses was searched. The
plans are replayed here by a plain simulation and their lengths compared with a brute force
over sets of presses, never with the solver's own output.
"""

from __future__ import annotations

import itertools
import json

import pytest

from puzzledsl.compile import compile_file
from puzzledsl.planning.order import commute_order
from tests.test_cli import run_main

LIGHTS = """
given lit[1..R, 1..C]: bool legend { "#": true, ".": false }
given R: int
given C: int
state on[1..R, 1..C]: bool
action press(p in cells(lit)) "{p}":
  on[p] := not on[p], forall d in orth where inside(lit, p + d): on[p + d] := not on[p + d]
init forall p in cells(lit): on[p] == lit[p]
goal forall p in cells(lit): not on[p]
"""


def _toggle(on: list[list[bool]], r: int, c: int) -> None:
    for dr, dc in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)):
        if 0 <= r + dr < len(on) and 0 <= c + dc < len(on[0]):
            on[r + dr][c + dc] ^= True


def _fewest(lit: list[list[bool]]) -> int | None:
    """The fewest presses that switch every light off: every set of presses, tried."""
    cells = [(r, c) for r in range(len(lit)) for c in range(len(lit[0]))]
    for k in range(len(cells) + 1):
        for chosen in itertools.combinations(cells, k):
            on = [row[:] for row in lit]
            for r, c in chosen:
                _toggle(on, r, c)
            if not any(map(any, on)):
                return k
    return None


def _solve(tmp_path, capsys, board: list[str], rules: str = LIGHTS) -> tuple[int, dict]:
    path = tmp_path / "lights.puz"
    path.write_text(rules + 'lit = """\n' + "\n".join(board) + '\n"""\n')
    rc, out, _ = run_main(capsys, "solve", path, "--json", "--time-limit", "60")
    return rc, json.loads(out)


@pytest.mark.parametrize("board", [
    ["###", "###", "###"],
    ["#..", "...", "..."],
    ["#.#.", ".##.", "....", "#..#"],
    ["####", "####", "####", "####"],
    [".#..", "#.#.", ".#.#", "..#."],
])
def test_lights_out_plans_are_shortest(tmp_path, capsys, board):
    lit = [[ch == "#" for ch in row] for row in board]
    best = _fewest(lit)
    rc, obj = _solve(tmp_path, capsys, board)
    if best is None:
        assert rc == 1 and obj["status"] == "unsat"
        return
    assert rc == 0 and obj["optimal"] is True and obj["moves"] == best
    on = [row[:] for row in lit]
    for act in obj["plan"]:
        r, c = act["args"][0]
        _toggle(on, r - 1, c - 1)
    assert not any(map(any, on))


def test_five_by_five_all_on_takes_fifteen_presses(tmp_path, capsys):
    rc, obj = _solve(tmp_path, capsys, ["#####"] * 5)
    assert rc == 0 and obj["moves"] == 15 and obj["optimal"] is True
    assert any("one order" in n for n in obj["notes"])


def test_flips_give_parity_invariants(tmp_path, capsys):
    # one corner light of 5×5 cannot be switched off alone: known from the parities at once
    rc, obj = _solve(tmp_path, capsys, ["#...."] + ["....."] * 4)
    assert rc == 1 and "parit" in obj["reason"]


def _order(tmp_path, text: str) -> str | None:
    path = tmp_path / "p.puz"
    path.write_text(text)
    compiled = compile_file(path)
    return commute_order(compiled.plan)


def test_commute_order_kinds(tmp_path):
    base = "state x[3]: bool\ninit forall i in 0..2: not x[i]\ngoal forall i in 0..2: x[i]\n"
    assert _order(tmp_path, base + 'action put(i in 0..2): x[i] := true\n') == "strict"
    assert _order(tmp_path, base + 'action flip(i in 0..2): x[i] := not x[i]\n') == "strict"
    # flips one cell and sets another: applying it twice is neither nothing nor once
    mixed = 'action m(i in 0..1): x[i] := not x[i], x[2] := true\naction s(i in [2]): x[i] := true\n'
    assert _order(tmp_path, base + mixed) is None  # two actions set x[2]
    assert _order(tmp_path, base + 'action m(i in 0..2): x[i] := not x[i]\n'
                  'action n(i in [0]): x[i] := not x[0]\n') == "strict"
    assert _order(tmp_path, base + 'state y[3]: bool\n'
                  'action m(i in 0..2): x[i] := not x[i], y[i] := true\n') == "sorted"
    # a condition reads what another action writes: the order matters
    assert _order(tmp_path, base + 'action step(i in 1..2): if x[i - 1] then x[i] := true\n'
                  'action first(i in [0]): x[i] := true\n') is None
    # a rule over the states between moves: the order decides which states occur
    assert _order(tmp_path, base + 'action flip(i in 0..2): x[i] := not x[i]\n'
                  'rule not (x[0] and x[1] and not x[2])\n') is None


def test_ordered_sets_find_every_shortest_plan_length(tmp_path, capsys):
    # moves that only set cells: each is needed once, in any order
    text = ("state x[4]: bool\naction put(i in 0..3) \"{i}\": x[i] := true\n"
            "init forall i in 0..3: not x[i]\ngoal x[0] and x[2] and x[3]\n")
    path = tmp_path / "sets.puz"
    path.write_text(text)
    rc, out, _ = run_main(capsys, "solve", path, "--json")
    obj = json.loads(out)
    assert rc == 0 and obj["moves"] == 3 and obj["optimal"] is True
