"""`--time-limit` for the whole run, not only the search: parsing, grounding and encoding do
not watch the clock, so an alarm signal stops them when the limit has passed.

The search itself stops by its own deadline (conflict slices, Z3's timeout) and keeps what
it found; the alarm rings `GRACE` seconds later, so it only ends stages that cannot stop by
themselves. `TimeUp` is a `BaseException`, like `KeyboardInterrupt`, so that no
`except Exception` turns it into an error report.

Off the main thread (a Dask worker runs its tasks in threads) no signal can reach the code,
so a watcher thread raises `TimeUp` in the worker thread instead (`_ThreadAlarm`), with the
same grace, repeat and `held` rules.
"""

from __future__ import annotations

import ctypes
import signal
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

GRACE = 0.05
AGAIN = 0.05  # a TimeUp raised inside a finaliser or a gc callback is dropped by Python: ring again

_ringing: list[object] = []  # one token per `alarm_at` in force, innermost last
_held = [0, False]  # `held` blocks in force; whether an interrupt came inside one
_restore: list[object] = [None]  # the SIGALRM handler before the outermost `alarm_at`
_closing = [0]  # `alarm_at` exits in progress: the alarm does not raise inside them


class TimeUp(BaseException):
    """The run's time limit passed in a stage that does not watch the clock."""


def _ring(signum: int, frame: object) -> None:
    if _ringing and not _held[0] and not _closing[0]:  # while held, the next ring (AGAIN later) raises
        raise TimeUp()


def _drop_time_up(previous):  # type: ignore[no-untyped-def]
    """An unraisable-exception hook that drops a `TimeUp` raised inside a finaliser (the alarm
    rings again) and runs the hook before it, alarm held, for anything else: a ring inside that
    hook (while it formats a report) made the report itself fail, on stderr or under pytest."""

    def hook(args) -> None:  # type: ignore[no-untyped-def]
        if isinstance(args.exc_value, TimeUp):
            return
        _held[0] += 1
        try:
            previous(args)
        finally:
            _held[0] -= 1
    hook.drops_time_up = True  # type: ignore[attr-defined]
    hook.previous = previous  # type: ignore[attr-defined]
    return hook


@contextmanager
def held() -> Iterator[None]:
    """Neither the alarm nor Ctrl-C raises inside: for freeing a C solver. PySAT frees the
    solver, then clears its pointer; an exception between the two left the pointer, and the
    object's `__del__` freed the solver again (a crash, exit 139, under a time limit)."""
    alarm = _thread_alarms.get(threading.get_ident())
    if alarm is not None:
        with alarm.holding():
            yield
        return
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
    (nothing when there is no deadline; off the main thread, where signals cannot go, and on
    systems without SIGALRM, a watcher thread raises it)."""
    if deadline is None:
        yield
        return
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        with _ThreadAlarm.at(deadline):  # also where there is no SIGALRM (Windows)
            yield
        return
    token = (deadline,)  # this alarm's place among those in force
    _closing[0] += 1  # no ring raises before the stack and the timer agree
    try:
        if not _ringing:
            _restore[0] = signal.signal(signal.SIGALRM, _ring)
            old_hook = sys.unraisablehook
            if not getattr(old_hook, "drops_time_up", False):
                sys.unraisablehook = _drop_time_up(old_hook)
        _ringing.append(token)
        signal.setitimer(signal.ITIMER_REAL, max(deadline + GRACE - time.perf_counter(), 1e-3), AGAIN)
    finally:
        _closing[0] -= 1
    try:
        yield
    finally:
        _closing[0] += 1
        try:
            _leave(token)
        finally:
            _closing[0] -= 1


def _leave(token: object) -> None:
    """End the alarm `token` and any left open inside it, and give the time back to the one
    around it, or the handler back to what it was. A stage whose `with` was never exited (its
    generator closed later, by the collector) finds its token gone, and changes nothing: it once
    re-armed an alarm that had ended, which then ended the process (exit 142)."""
    if not any(t is token for t in _ringing):
        return
    while _ringing.pop() is not token:
        pass
    if _ringing:
        deadline = _ringing[-1][0]  # type: ignore[index]
        signal.setitimer(signal.ITIMER_REAL, max(deadline + GRACE - time.perf_counter(), 1e-3), AGAIN)
    else:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, _restore[0] if _restore[0] is not None else signal.SIG_DFL)
        hook = sys.unraisablehook
        if getattr(hook, "drops_time_up", False) and getattr(hook, "previous", None) is not None:
            sys.unraisablehook = hook.previous


_thread_alarms: dict[int, _ThreadAlarm] = {}  # by thread id: the alarms in force off the main thread


def _raise_in(thread: int, exc: type[BaseException] | None) -> None:
    """Make `exc` pending in a thread (raised at its next Python instruction); None clears it."""
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread), ctypes.py_object(exc) if exc else None)


class _ThreadAlarm:
    """`alarm_at` for a thread other than the main one: a watcher thread makes `TimeUp` pending in
    it once the earliest deadline in force has passed (+ GRACE), again every AGAIN seconds, and
    never while the thread is inside `held` (entering `held` drops a pending one)."""

    def __init__(self, thread: int) -> None:
        self.thread = thread
        self.deadlines: list[float] = []  # one per nested `alarm_at`, innermost last
        self.depth = 0  # `held` blocks in force
        self.lock = threading.Condition()
        self.watcher = threading.Thread(target=self._watch, name="puzzledsl-alarm", daemon=True)

    @classmethod
    @contextmanager
    def at(cls, deadline: float) -> Iterator[None]:
        me = threading.get_ident()
        alarm = _thread_alarms.get(me)
        outer = alarm is None
        if alarm is None:
            alarm = _thread_alarms[me] = cls(me)
            alarm.watcher.start()
        with alarm.lock:
            alarm.deadlines.append(deadline)
            alarm.lock.notify()
        try:
            yield
        finally:
            alarm._end(outer)

    def _end(self, outer: bool) -> None:
        while True:  # a ring that lands here is dropped: the stage has ended
            try:
                with self.lock:  # the watcher rings only while it holds the lock
                    _raise_in(self.thread, None)  # first: a pending ring must not outlive the alarm
                    self.deadlines.pop()
                    if outer:
                        del _thread_alarms[self.thread]
                    self.lock.notify()
                break
            except TimeUp:
                continue
        if outer:
            self.watcher.join()

    def _watch(self) -> None:
        with self.lock:
            while self.deadlines or _thread_alarms.get(self.thread) is self:
                if not self.deadlines:
                    self.lock.wait()
                    continue
                wait = min(self.deadlines) + GRACE - time.perf_counter()
                if wait > 0:
                    self.lock.wait(wait)
                    continue
                if not self.depth:
                    _raise_in(self.thread, TimeUp)
                self.lock.wait(AGAIN)  # rings again until the stage ends (a TimeUp may be dropped)

    @contextmanager
    def holding(self) -> Iterator[None]:
        with self.lock:
            _raise_in(self.thread, None)  # a ring already pending waits until the block ends
            self.depth += 1
        try:
            yield
        finally:
            with self.lock:
                self.depth -= 1


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
