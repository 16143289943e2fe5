"""Compiling leaves no reference cycles behind. A cycle (a closure naming itself, say) is freed
by Python's cyclic collector alone, with everything it reaches (a whole grounder); without
cycles, what a compile built goes by reference counting as soon as it is no longer used, and
the collector finds nothing to free (a one-shot process freezes it out of its passes)."""

from __future__ import annotations

import gc
from pathlib import Path
from types import FunctionType

from puzzledsl.compile import compile_givens, load_rules
from puzzledsl.ground import Grounder
from puzzledsl.solve import Mode, solve
from puzzledsl.uniqueness import decide

ROOT = Path(__file__).resolve().parents[1]

ARUKONE = [[1, None, None, None, 2],
           [None, None, 3, None, None],
           [None, None, None, None, None],
           [None, 3, None, None, None],
           [1, None, None, None, 2]]


def _leftovers(run) -> list[object]:
    """What `run` leaves that only the cyclic collector could free."""
    gc.unfreeze()
    gc.collect()
    old = gc.get_debug()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        run()
        gc.unfreeze()  # frozen objects are not looked at by a collection
        gc.collect()
        return [o for o in gc.garbage if isinstance(o, (FunctionType, Grounder))]
    finally:
        gc.set_debug(old)
        gc.garbage.clear()


def test_solving_and_the_uniqueness_route_leave_no_cycles():
    arukone = load_rules(ROOT / "puzzles" / "arukone.puz")

    def run() -> None:
        for options in ({}, {"fill": "true", "touchfree": "true"}):
            compiled = compile_givens(arukone, {"num": ARUKONE}, options)
            decide(compiled, time_limit=60)
            solve(compiled, mode=Mode(unique=True), time_limit=60)

    assert _leftovers(run) == []


def test_rules_with_while_bindings_and_lazy_graph_cuts_leave_no_cycles():
    def run() -> None:
        for name in ("kuromasu.puz", "nurikabe/01_10x10.puz", "akari/constructed-7x7.puz"):
            rules = load_rules(ROOT / "puzzles" / name)
            if name == "kuromasu.puz":
                givens = {"clue": [[None, 2, None], [None, None, None], [3, None, None]]}
            else:
                givens = {}
            try:
                compiled = compile_givens(rules, givens, {})
            except Exception as err:  # noqa: BLE001 - the test is about memory, not these givens
                raise AssertionError(f"{name}: {err}") from err
            solve(compiled, mode=Mode(unique=True), time_limit=60)

    assert _leftovers(run) == []


def test_the_api_with_its_recheck_and_drawing_leaves_no_cycles():
    import puzzledsl as pd
    from puzzledsl.api import render_text

    def run() -> None:
        for name in ("nurikabe/01_10x10.puz", "masyu/02_6x6.puz", "battleship/csplib-113.puz"):
            puzzle = pd.load(ROOT / "puzzles" / name)
            solution = puzzle.solve()
            assert solution is not None and puzzle.verdict().unique
            render_text(solution)

    assert _leftovers(run) == []
