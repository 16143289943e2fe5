"""Why a CP-SAT tour search stopped: a time limit, an early stop of the solver's own, or a real
signal. Only a signal makes the result `interrupted` (and the CLI exit 130); the wall time
alone cannot tell them apart, as the solver may stop well before its limit for other reasons
(the c't Chilly level with `--time-limit 6`: CP-SAT gave up 0.8 s early, in its presolve, and
the rule "stopped more than 0.5 s early means Ctrl-C" exited 130 with no signal sent).

The tours are generalised travelling-salesman instances built directly: 20 flags, each set by
any of 3 events at random points of the unit square. CP-SAT finds a first tour in about half a
second and proves nothing close to optimal within ten (measured: 277 moves, bound 119).
The last part checks that plan searches, SAT and tour, stop within 0.5 s of their limit.
"""

from __future__ import annotations

import json
import random
import signal
import threading
import time
from collections.abc import Iterator

import pytest

pytest.importorskip("ortools.sat.python.cp_model")

from ortools.sat.python import cp_model  # noqa: E402

from puzzledsl import deadline  # noqa: E402
from puzzledsl.backends import cpsat  # noqa: E402
from puzzledsl.backends.cpsat import solve_tour  # noqa: E402
from puzzledsl.compile import compile_file  # noqa: E402
from puzzledsl.planning.search import PlanResult, search  # noqa: E402
from puzzledsl.planning.tour import TourProblem  # noqa: E402
from tests import chilly_sim  # noqa: E402
from tests.datasets import DATA, data_file  # noqa: E402
from tests.test_cli import ROOT, run_main  # noqa: E402

CHILLY = ROOT / "puzzles" / "chilly.puz"
CT_LEVEL = DATA / "chilly" / "ct-2023-28-level.txt"


def hard_tour(flags: int = 20, per_flag: int = 3, seed: int = 1) -> TourProblem:
    rnd = random.Random(seed)
    n = flags * per_flag + 1
    pts = [(rnd.random(), rnd.random()) for _ in range(n)]
    cost = {(i, j): 1 + int(100 * ((pts[i][0] - pts[j][0]) ** 2 + (pts[i][1] - pts[j][1]) ** 2) ** 0.5)
            for i in range(n) for j in range(n) if i != j}
    covers = {k: [1 + k * per_flag + r for r in range(per_flag)] for k in range(flags)}
    return TourProblem([(0, 0, 0)] * n, covers, cost)


@pytest.fixture
def python_sigint() -> Iterator[None]:
    """Python's own SIGINT handler (KeyboardInterrupt), whatever the test runner installed;
    afterwards the run forgets the signal (`signals_as_interrupt` remembers it, and the SAT
    backend of a later test in this process would raise KeyboardInterrupt at its next call)."""
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)
        deadline._interrupt.clear()


class _Signaller:
    """A progress callback that sends `sig` to the main thread when the first tour is reported
    (from CP-SAT's thread), so the signal comes during the search however slow the machine."""

    def __init__(self, sig: int) -> None:
        self.sig = sig
        self.sent: float | None = None

    def __call__(self, text: str) -> None:
        if self.sent is None:
            self.sent = time.perf_counter()
            signal.pthread_kill(threading.main_thread().ident, self.sig)  # type: ignore[arg-type]


@pytest.fixture
def early_stop(monkeypatch: pytest.MonkeyPatch) -> None:
    """CP-SAT stops after a little deterministic time: an early stop that is no signal."""

    class Early(cp_model.CpSolver):
        def __init__(self) -> None:
            super().__init__()
            self.parameters.max_deterministic_time = 0.5

    monkeypatch.setattr(cp_model, "CpSolver", Early)


def test_the_time_limit_is_not_an_interrupt() -> None:
    t0 = time.perf_counter()
    res = solve_tour(hard_tour(), 1.5)
    assert not res.interrupted and not res.optimal and not res.infeasible
    assert time.perf_counter() - t0 < 1.5 + 3  # building the model, and slack for a busy machine


def test_an_early_stop_without_a_signal_is_not_an_interrupt(early_stop: None) -> None:
    t0 = time.perf_counter()
    res = solve_tour(hard_tour(), 60)
    assert time.perf_counter() - t0 < 30  # it did stop early (the old rule said "interrupted")
    assert not res.optimal and not res.interrupted


def test_sigint_stops_the_search_promptly_and_keeps_the_tour(python_sigint: None) -> None:
    signaller = _Signaller(signal.SIGINT)
    res = solve_tour(hard_tour(), 60, progress=signaller)
    assert signaller.sent is not None
    assert time.perf_counter() - signaller.sent < 1.0
    assert res.interrupted and not res.optimal and res.moves is not None and res.order


def test_sigterm_under_the_cli_handlers_stops_the_search(python_sigint: None) -> None:
    """The CLI turns SIGTERM into KeyboardInterrupt too; with CP-SAT in its own thread the
    handler runs at once, not when the search reaches its time limit."""
    signaller = _Signaller(signal.SIGTERM)
    with deadline.signals_as_interrupt():
        res = solve_tour(hard_tour(), 60, progress=signaller)
    assert signaller.sent is not None and time.perf_counter() - signaller.sent < 1.0
    assert res.interrupted


def test_an_error_in_the_progress_callback_is_not_lost() -> None:
    def fail(text: str) -> None:
        raise ValueError("from the callback")

    # The first tour comes after 0.5-4 s (a loaded machine); the error ends the search at once,
    # so a generous limit costs nothing (with 2 s, no tour and no call on a busy machine).
    with pytest.raises(ValueError, match="from the callback"):
        solve_tour(hard_tour(), 60, progress=fail)


# ------------------------------------------------------------------ through the CLI

def test_cli_early_stop_exits_3_not_130(capsys: pytest.CaptureFixture[str], early_stop: None) -> None:
    rc, out, err = run_main(capsys, "solve", CHILLY, "--data", data_file(CT_LEVEL), "--json")
    obj = json.loads(out)
    assert obj["interrupted"] is False and "interrupted" not in err
    if obj["optimal"]:  # proven within the budget after all (a fast machine)
        assert rc == 0
        return
    assert rc == 3 and obj["status"] == "sat" and obj["timed_out"] is True


def test_cli_ctrl_c_keeps_the_best_tour(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                                         python_sigint: None) -> None:
    """Ctrl-C in the middle of the tour search: exit 130, the best plan found is printed."""
    real = cpsat.solve_tour
    signaller = _Signaller(signal.SIGINT)

    def solve(t, time_limit, hint=None, progress=None, **kw):
        return real(t, time_limit, hint, signaller, **kw)

    monkeypatch.setattr(cpsat, "solve_tour", solve)
    rc, out, err = run_main(capsys, "solve", CHILLY, "--data", data_file(CT_LEVEL), "--json")
    obj = json.loads(out)
    assert signaller.sent is not None and time.perf_counter() - signaller.sent < 2.0
    assert rc == 130 and obj["interrupted"] is True and obj["status"] == "sat", (rc, err)
    assert chilly_sim.is_valid_plan(chilly_sim.load_level(CT_LEVEL), obj["plan_text"])


# ------------------------------------------------------------------ plan searches keep their time limit

PEG = ROOT / "puzzles" / "peg-solitaire.puz"
ENGLISH = ROOT / "puzzles" / "peg-solitaire" / "english.txt"


def _searched_within(plan, limit: float) -> PlanResult:
    """The search's result, after checking it returned within 0.5 s of `limit` (the project's
    target for overshoot; measured at most 0.26 s on a busy two-core machine)."""
    t0 = time.perf_counter()
    res = search(plan, time_limit=limit)
    wall = time.perf_counter() - t0
    assert wall < limit + 0.5, f"{wall:.2f} s for a {limit} s limit"
    return res


@pytest.mark.parametrize("options", [None, {"measure": "moves"}], ids=["jumps", "moves"])
def test_peg_search_stops_at_its_time_limit(options: dict | None) -> None:
    """English board: 13 parallel steps need ~3 s; the cheapest plan in moves first builds 31
    sequential steps (0.5-1.3 s; they did not watch the clock: 0.4-0.9 s over a 0.5 s limit)."""
    plan = compile_file(PEG, ENGLISH, options=options).plan
    res = _searched_within(plan, 0.5)
    assert res.timed_out and not res.optimal


def test_plan_analyses_stop_at_the_time_limit(tmp_path) -> None:
    """A 1x1500 peg board: its parity invariants and their SAT checks took 1.1 s before any
    horizon, whatever the limit (15 s on a 1x4000 board); a plan for it cannot exist."""
    board = tmp_path / "line.txt"
    board.write_text("o" * 1499 + ".\n")
    res = _searched_within(compile_file(PEG, board).plan, 0.2)
    assert res.status in ("unknown", "unsat") and not res.actions
    assert res.timed_out or res.status == "unsat"


def test_tour_search_stops_at_its_time_limit() -> None:
    """c't Chilly level: finding the tour structure takes 0.8 s before CP-SAT starts (it did not
    watch the clock: 0.9-1.0 s over a 0.5 s limit in a fresh process); with 3 s the greedy tour
    is there and CP-SAT has the rest."""
    plan = compile_file(CHILLY, data_file(CT_LEVEL)).plan
    res = _searched_within(plan, 0.5)
    assert res.timed_out and not res.interrupted
    res = _searched_within(plan, 3.0)
    assert res.status == "sat" and res.timed_out and not res.interrupted and not res.optimal
    assert chilly_sim.is_valid_plan(chilly_sim.load_level(CT_LEVEL), "".join(a.text for a in res.actions))
