"""A process pool that a batch can rely on: the parent knows which job each worker holds.

`concurrent.futures.ProcessPoolExecutor` breaks as a whole when one worker dies (every
pending job fails with `BrokenProcessPool`), leaves its workers running after SIGTERM or
SIGKILL to the parent, and lets Ctrl-C reach the workers mid-job. Here:

- a worker that dies costs only the job it held (`on_death` makes its result), and a fresh
  worker takes its place;
- workers ignore SIGINT (the terminal sends Ctrl-C to the whole process group; the parent
  decides) and are killed by the kernel when the parent dies (Linux `PR_SET_PDEATHSIG`),
  with a check of the parent's pid between jobs as a fallback elsewhere;
- when the parent stops (Ctrl-C, SIGTERM turned into KeyboardInterrupt, an error), every
  worker is terminated, then killed, before the exception goes on.

A job may also be a stream (`stream=True`): its function yields results one by one, each
handed on as it comes, for work that must stay in one process (a generator whose later
puzzles depend on its solver's state) and still report progress.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
from collections.abc import Callable, Iterator
from multiprocessing.connection import Connection, wait
from typing import Any

PR_SET_PDEATHSIG = 1


def _die_with_parent(parent: int) -> None:
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):  # not Linux: the pid check between jobs remains
        pass
    if os.getppid() != parent:  # the parent died before prctl took effect
        os._exit(1)


def _worker(conn: Connection, parent: int, init: Callable[[Any], None], init_arg: Any,
            fn: Callable[[Any], Any], stream: bool) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _die_with_parent(parent)
    init(init_arg)
    while True:
        try:
            item = conn.recv()
        except (EOFError, OSError):
            return
        if item is None or os.getppid() != parent:
            return
        key, job = item
        if stream:  # (key, result, last): one message per result, then one that ends the job
            for part in fn(job):
                conn.send((key, part, False))
            conn.send((key, None, True))
        else:
            conn.send((key, fn(job), True))


class _Slot:
    def __init__(self, ctx: Any, args: tuple) -> None:
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_worker, args=(child, *args), daemon=True)
        self.proc.start()
        child.close()
        self.key: int | None = None
        self.job: Any = None


def run_pool(jobs: list[Any], workers: int, init: Callable[[Any], None], init_arg: Any,
             fn: Callable[[Any], Any], on_death: Callable[[Any, int | None], Any],
             stream: bool = False) -> Iterator[Any]:
    """Yield `fn(job)` for every job, in completion order, computed in `workers` processes;
    a job whose worker dies yields `on_death(job, exitcode)` instead. With `stream`, `fn(job)`
    and `on_death(job, exitcode)` are iterables, and their items (never None) are yielded one by
    one; after a death, the items the job had not yet sent are the caller's to account for."""
    ctx = multiprocessing.get_context("fork")  # workers inherit the parsed rules and settings
    args = (os.getpid(), init, init_arg, fn, stream)
    todo = list(enumerate(jobs))[::-1]
    slots: list[_Slot] = []
    try:
        def assign(i: int) -> None:  # a worker found dead between jobs is replaced first
            while not _give(slots[i], todo):
                _stop([slots[i]])
                slots[i] = _Slot(ctx, args)

        for _ in range(min(workers, len(jobs))):
            slots.append(_Slot(ctx, args))
        for i in range(len(slots)):
            assign(i)
        while any(s.key is not None for s in slots):
            busy = [s for s in slots if s.key is not None]
            ready = wait([s.conn for s in busy] + [s.proc.sentinel for s in busy])
            for s in busy:
                if s.conn in ready and s.conn.poll():
                    try:
                        _, result, last = s.conn.recv()
                    except (EOFError, OSError):
                        result, last = None, None
                    if result is not None or last:
                        if last:
                            s.key = None
                        if result is not None:
                            yield result
                        if last:
                            assign(slots.index(s))
                        continue
                if s.proc.sentinel in ready or not s.proc.is_alive():
                    s.proc.join()
                    job = s.job
                    s.key = None
                    s.conn.close()
                    if stream:
                        yield from on_death(job, s.proc.exitcode)
                    else:
                        yield on_death(job, s.proc.exitcode)
                    i = slots.index(s)
                    slots[i] = _Slot(ctx, args)
                    assign(i)
    finally:
        _stop(slots)


def _give(s: _Slot, todo: list[tuple[int, Any]]) -> bool:
    """Send the next job (or, when none is left, the word to stop); False if the worker is gone."""
    try:
        s.conn.send(todo[-1] if todo else None)
    except (OSError, ValueError):
        return not todo  # a worker that was to stop anyway may be gone
    if todo:
        s.key, s.job = todo.pop()
    return True


def _stop(slots: list[_Slot]) -> None:
    """Terminate every worker still alive, then kill those that do not go within a second."""
    for s in slots:
        if s.proc.is_alive():
            s.proc.terminate()
    for s in slots:
        s.proc.join(timeout=1.0)
        if s.proc.is_alive():
            s.proc.kill()
            s.proc.join(timeout=1.0)
        try:
            s.conn.close()
        except OSError:
            pass
