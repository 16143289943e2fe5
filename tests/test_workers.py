"""`puzzledsl.workers.run_pool`: every job's results come back, also as a stream, and a worker
that dies costs only its own job (the batches of `verify`, `generate` and `generate arukone`)."""

from __future__ import annotations

import os

from puzzledsl.workers import run_pool


def nothing(_: object) -> None:
    pass


def squares(job: int) -> int:
    return job * job


def counting(job: tuple[int, int]):
    """A stream: (job, 0), (job, 1), …; job 0 exits its process at item `stop`."""
    name, stop = job
    for k in range(3):
        if name == 0 and k == stop:
            os._exit(3)
        yield name, k


def test_each_job_once() -> None:
    results = list(run_pool(list(range(7)), 3, nothing, None, squares, lambda job, code: None))
    assert sorted(results) == [i * i for i in range(7)]


def test_a_stream_hands_on_every_item() -> None:
    items = list(run_pool([(i, -1) for i in range(4)], 2, nothing, None, counting,
                          lambda job, code: [], stream=True))
    assert sorted(items) == [(i, k) for i in range(4) for k in range(3)]
    for i in range(4):  # one worker's items in the order it sent them
        assert [k for j, k in items if j == i] == [0, 1, 2]


def test_a_stream_whose_worker_dies() -> None:
    deaths = []

    def died(job: tuple[int, int], code: int | None) -> list[tuple[int, str]]:
        deaths.append((job, code))
        return [(job[0], "lost")]

    items = list(run_pool([(0, 2), (1, -1), (2, -1)], 2, nothing, None, counting, died, stream=True))
    assert deaths == [((0, 2), 3)]
    assert sorted(items, key=str) == sorted([(0, 0), (0, 1), (0, "lost")] + [(i, k) for i in (1, 2) for k in range(3)],
                                            key=str)
