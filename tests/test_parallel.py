"""tdbook.core.parallel: seeded tasks give the same results in-process, on a LocalCluster, and when a worker dies."""

from __future__ import annotations

import os
import signal
import time

import numpy as np
import pytest

from tdbook.core.parallel import local_cluster, map_seeded, map_tasks, task_seed


def _draws(item: int, seed: int) -> list[float]:
    """A seeded computation that takes a moment (so a worker can be killed while tasks are running)."""
    time.sleep(0.4)
    return np.random.default_rng(seed).normal(size=3).round(12).tolist() + [item]


def test_task_seeds_depend_on_seed_and_index_only():
    assert task_seed(7, 3) == task_seed(7, 3)
    seeds = {task_seed(s, i) for s in range(20) for i in range(50)}
    assert len(seeds) == 1000 and all(0 <= x < 2**63 for x in seeds)
    with pytest.raises(ValueError, match="must be ints"):
        task_seed(1.5, 0)


def test_local_cluster_runs_the_tasks_on_n_workers_with_the_same_results():
    from distributed import get_client

    here = map_seeded(_draws, list(range(4)), seed=5, progress=False)
    with local_cluster(1):
        assert map_seeded(_draws, list(range(4)), seed=5, progress=False) == here
    with local_cluster(2):
        assert len(get_client().scheduler_info()["workers"]) == 2
        assert map_seeded(_draws, list(range(4)), seed=5, progress=False) == here


@pytest.fixture(scope="module")
def client():
    from distributed import Client, LocalCluster

    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    c = Client(cluster)
    yield c
    c.close()
    cluster.close()


def test_the_same_results_with_no_cluster_and_with_two_workers(client):
    here = map_seeded(_draws, list(range(8)), seed=11, progress=False, client=None)
    there = map_seeded(_draws, list(range(8)), seed=11, progress=False, client=client)
    assert here == there and [r[-1] for r in there] == list(range(8))
    assert map_tasks(abs, [-1, 2, -3], progress=False, client=client) == [1, 2, 3]


def test_a_worker_killed_mid_run_has_its_tasks_rerun_and_nothing_changes(client):
    expected = map_seeded(_draws, list(range(16)), seed=5, progress=False, client=None)
    from distributed import as_completed

    from tdbook.core.parallel import _Seeded

    tasks = [(i, task_seed(5, i)) for i in range(16)]
    futures = client.map(_Seeded(_draws), tasks, pure=False)
    victim = next(iter(client.scheduler_info()["workers"]))
    pid = client.run(os.getpid, workers=[victim])[victim]
    time.sleep(1.0)  # tasks are running on both workers
    os.kill(pid, signal.SIGKILL)  # the worker dies mid-task; its nanny starts a new one
    got = [None] * len(tasks)
    where = {f.key: i for i, f in enumerate(futures)}
    for fut in as_completed(futures):
        got[where[fut.key]] = fut.result()
    assert got == expected
    assert victim not in client.scheduler_info()["workers"], "the killed worker was replaced"
