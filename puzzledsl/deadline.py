"""`--time-limit` for the whole run, not only the search: parsing, grounding and encoding do
not watch the clock, so an alarm signal stops them when the limit has passed.

The search itself stops by its own deadline (conflict slices, Z3's timeout) and keeps what
it found; the alarm rings `GRACE` seconds later, so it only ends stages that cannot stop by
themselves. `TimeUp` is a `BaseException`, like `KeyboardInterrupt`, so that no
`except Exception` turns it into an error report.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

GRACE = 0.05
AGAIN = 0.05  # a TimeUp raised inside a finaliser or a gc callback is dropped by Python: ring again

_ringing: list[bool] = []  # one entry per `alarm_at` in force, innermost last
_held = [0, False]  # `held` blocks in force; whether an interrupt came inside one


class TimeUp(BaseException):
    """The run's time limit passed in a stage that does not watch the clock."""


def _ring(signum: int, frame: object) -> None:
    if _ringing and not _held[0]:  # while held, the next ring (AGAIN later) raises
        raise TimeUp()


@contextmanager
def held() -> Iterator[None]:
    """Neither the alarm nor Ctrl-C raises inside: for freeing a C solver. PySAT frees the
    solver, then clears its pointer; an exception between the two left the pointer, and the
    object's `__del__` freed the solver again (a crash, exit 139, under a time limit)."""
    _held[0] += 1
    try:
        yield
    finally:
        _held[0] -= 1
    if not _held[0] and _held[1]:
        _held[1] = False
        raise KeyboardInterrupt


@contextmanager
def alarm_at(deadline: float | None) -> Iterator[None]:
    """Raise `TimeUp` in this thread once `time.perf_counter()` passes `deadline` + GRACE
    (nothing when there is no deadline, or off the main thread, where signals cannot go)."""
    if deadline is None or threading.current_thread() is not threading.main_thread():
        yield
        return
    started = time.perf_counter()
    old_handler = signal.signal(signal.SIGALRM, _ring)
    _ringing.append(True)
    old_left, _ = signal.setitimer(signal.ITIMER_REAL, max(deadline + GRACE - time.perf_counter(), 1e-3), AGAIN)
    try:
        yield
    finally:
        _ringing.pop()
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old_handler)
        if old_left:  # an enclosing alarm keeps its own time (nested stages)
            signal.setitimer(signal.ITIMER_REAL, max(old_left - (time.perf_counter() - started), 1e-3), AGAIN)


def left(deadline: float | None) -> float | None:
    """Seconds until the deadline (a tiny positive number once it has passed), or None without one."""
    return None if deadline is None else max(deadline - time.perf_counter(), 1e-9)


_interrupt = threading.Event()


def interrupt_requested() -> bool:
    """Whether Ctrl-C or SIGTERM came during this run (also when the KeyboardInterrupt it raised
    was lost, or turned into another error by a C binding: ctypes wraps it in ArgumentError)."""
    return _interrupt.is_set()


def forget_interrupt() -> None:
    """End of a command: a signal it handled must not stop the next in-process call."""
    _interrupt.clear()


def check_interrupt() -> None:
    """Raise KeyboardInterrupt if Ctrl-C or SIGTERM came and was lost on the way: Python drops an
    exception raised while a finaliser runs (Z3 frees its terms in `__del__`), so the signal is
    also remembered here, and every solver call looks."""
    if _interrupt.is_set():
        raise KeyboardInterrupt


@contextmanager
def signals_as_interrupt() -> Iterator[None]:
    """SIGINT and SIGTERM raise KeyboardInterrupt and are remembered (`check_interrupt`); SIGTERM
    thus ends the run like Ctrl-C, cleanup runs and what finished is reported, instead of the
    process vanishing with its workers left running."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum: int, frame: object) -> None:
        _interrupt.set()
        if _held[0]:
            _held[1] = True  # raised when the held block ends
            return
        raise KeyboardInterrupt()

    _interrupt.clear()  # (not cleared on the way out: the caller's error handling still asks)
    old = {s: signal.signal(s, stop) for s in (signal.SIGINT, signal.SIGTERM)
           if signal.getsignal(s) is not signal.SIG_IGN or s == signal.SIGTERM}
    try:
        yield
    finally:
        for s, handler in old.items():
            signal.signal(s, handler)
