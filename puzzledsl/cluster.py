"""Batches on a Dask cluster (`verify --scheduler ADDRESS`, `generate GENRE --scheduler ADDRESS`).

The cluster runs the same jobs as the local process pool (`workers.py`), behind the same
interface: results come back one by one, in completion order, and the caller orders them.

The workers are not assumed to share the caller's filesystem. The caller reads and parses
everything: the rules (and every file they `use`) are parsed once, here, and the parsed
program is sent once to every worker (`scatter(broadcast=True)`, kept in the worker's
memory); each job carries its puzzle's givens as values, read here from the data files. A
worker thus never opens a file, and needs only puzzledsl installed (the same version). A
user error found on a worker comes back unformatted and is formatted here, where the texts
its span quotes are at hand. The limits in force (`--limit`) go with the rules.

A worker runs a job in one of its threads, where no signal arrives: `--time-limit` is kept
there by `deadline.alarm_at`'s watcher thread. Z3 is not safe to use from two threads of
one process, so on the Z3 backend a worker runs one job at a time. Workers started with
`--scheduler local` have one thread each (the grounding is pure Python: threads of one
process would share one core); a remote cluster is best started the same way
(`dask worker ADDRESS --nworkers N --nthreads 1`).

Ctrl-C cancels the jobs not yet finished and closes the client (and a local cluster); a job
already running on a remote worker runs on to its end (or its time limit).
"""

from __future__ import annotations

import logging
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from typing import Any

from . import limits
from .batch import ERROR, Config, Job, Result, puzzle_error, solve_job
from .compile import Rules, load_rules
from .errors import PuzzleError, Span
from .extras import require

CONNECT_SECONDS = 20  # to reach the scheduler, and for a first worker to join it
_z3_lock = threading.Lock()


@dataclass(frozen=True)
class Shipment:
    """What every worker needs for a batch, sent once: the parsed rules and the run's settings."""

    config: Config
    rules: Rules
    limits: limits.Limits


def verify_job(shipment: Shipment, job: Job) -> tuple[Result, tuple[str, Span | None, str | None] | None]:
    """One `verify` job on a worker: the result, and a user error as (message, span, help)."""
    with limits.using(shipment.limits), (_z3_lock if shipment.config.backend == "z3" else nullcontext()):
        res, err = solve_job(shipment.config, job, shipment.rules)
    return res, None if err is None else (err.message, err.span, err.help)


def generator_task(module: str, function: str, *args: Any) -> Any:
    """A bundled generator's function, run on a worker (`generate GENRE --scheduler`). Named by
    text (`module`: `GENRE` or `GENRE.PART`): the generators live in `puzzles/generators`, which
    a source checkout mounts on demand."""
    import importlib

    from .cli import _generators
    return getattr(importlib.import_module(f"{_generators().__name__}.{module}"), function)(*args)


def worker_version() -> str:
    from . import __version__
    return __version__


class DaskSession:
    """A Dask client (and with `local`, the `LocalCluster` it runs on) for the length of a batch.

    `workers` is the number of worker processes a local cluster starts; on a remote cluster,
    `self.workers` becomes the number of threads its workers offer."""

    def __init__(self, address: str, workers: int) -> None:
        self.address = address
        self.workers = workers
        self.futures: list[Any] = []
        self.cluster: Any = None
        self.client: Any = None

    def __enter__(self) -> DaskSession:
        self.distributed = require("distributed", "--scheduler")
        try:
            self._connect()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _connect(self) -> None:
        d = self.distributed
        if self.address == "local":
            self.cluster = d.LocalCluster(n_workers=self.workers, threads_per_worker=1, processes=True,
                                          dashboard_address=None, silence_logs=logging.CRITICAL)
            self.client = d.Client(self.cluster)
            return
        try:
            self.client = d.Client(self.address, timeout=CONNECT_SECONDS)
        except (OSError, TimeoutError, ValueError) as err:
            raise PuzzleError(f"cannot reach the Dask scheduler at {self.address}: {err}",
                              help="give the address the scheduler prints (tcp://HOST:8786), or `local` "
                                   "for a cluster on this machine") from None
        try:
            self.client.wait_for_workers(1, timeout=CONNECT_SECONDS)
        except TimeoutError:
            raise PuzzleError(f"the Dask scheduler at {self.address} has no workers",
                              help="start some: dask worker ADDRESS --nworkers N --nthreads 1") from None
        self._check_versions()
        self.workers = max(1, sum(self.client.nthreads().values()))

    def _check_versions(self) -> None:
        from . import __version__
        try:
            found = self.client.run(worker_version)
        except Exception as err:  # the function cannot be unpickled where puzzledsl is missing
            raise PuzzleError(f"the Dask workers at {self.address} cannot run puzzledsl: {type(err).__name__}: {err}",
                              help="install puzzledsl on every worker (the same version as here)") from None
        other = sorted({v for v in found.values() if v != __version__})
        if other:
            raise PuzzleError(f"the Dask workers at {self.address} run puzzledsl {', '.join(other)}, "
                              f"this is {__version__}", help="install the same version on every worker")

    def close(self) -> None:
        """Cancel what is left, then close the client and a local cluster (errors on the way out,
        such as a scheduler already gone, do not hide the batch's own outcome)."""
        quiet = _quiet(logging.getLogger("distributed")) if self.cluster is not None else nullcontext()
        with quiet:  # a local scheduler, in this process, logs every message it can no longer send
            try:
                if self.client is not None and self.futures:
                    self.client.cancel(self.futures)
            except Exception:
                pass
            for thing in (self.client, self.cluster):
                if thing is not None:
                    try:
                        thing.close()
                    except Exception:
                        pass
        self.futures = []
        self.client = self.cluster = None

    def submit(self, fn: Any, *args: Any, name: str) -> Any:
        fut = self.client.submit(fn, *args, key=f"puzzledsl-{name}-{uuid.uuid4().hex}", pure=False)
        self.futures.append(fut)
        return fut

    def results(self, futures: list[Any]) -> Iterator[tuple[Any, Any, BaseException | None]]:
        """(future, value, None), or (future, None, the error), in completion order."""
        for fut in self.distributed.as_completed(futures):
            try:
                yield fut, fut.result(), None
            except Exception as err:  # the task failed on the worker, or its worker died (KilledWorker)
                yield fut, None, err

    def verify(self, config: Config, jobs: list[Job]) -> Iterator[Result]:
        """The `verify` jobs' results, in completion order."""
        shipment = Shipment(config, load_rules(config.rules), limits.current())
        shipped = self.client.scatter(shipment, broadcast=True, hash=False)
        futures = [self.submit(verify_job, shipped, job, name=f"verify-{job.index}") for job in jobs]
        by_key = {f.key: job for f, job in zip(futures, jobs)}
        try:
            for fut, value, failure in self.results(futures):
                if failure is not None:
                    yield lost(by_key[fut.key], failure)
                    continue
                res, err = value
                if err is not None:
                    res.error = puzzle_error(PuzzleError(*err))
                yield res
        finally:
            self.client.cancel([f for f in futures if not f.done()])


@contextmanager
def _quiet(logger: logging.Logger) -> Iterator[None]:
    level = logger.level
    logger.setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        logger.setLevel(level)


def lost(job: Job, failure: BaseException) -> Result:
    """A job whose task failed on the cluster (its worker died, more than Dask's allowed retries)."""
    how = type(failure).__name__
    if how == "KilledWorker":
        error = puzzle_error(None, message="the Dask worker solving this puzzle died (Dask gave up after its retries)")
    else:
        error = puzzle_error(None, "internal", f"on the Dask worker: {how}: {failure}")
    return Result(job.index, job.file, job.instance, ERROR, 0.0, error=error, internal=how != "KilledWorker")
