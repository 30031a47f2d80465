"""Seeded tasks over every core, or over a cluster: the one helper for the embarrassingly parallel parts.

:func:`map_tasks` runs ``fn(task)`` for every task and returns the results in task order.  Each task
carries its own seed, derived from the experiment's seed and the task's index (:func:`task_seed`) —
never from which worker ran it or when — so the results are the same bytes with no cluster, one
worker or many.  The tasks go to the active Dask client when there is one (the ``LocalCluster`` of
``python -m tdbook run --workers N``, a cluster named by ``TDBOOK_SCHEDULER=tcp://host:port``, or a
``distributed.Client`` the caller made), else they run here, one after another.  One progress bar counts
finished tasks across workers.  A worker that dies has its tasks rerun by the scheduler (every task is a
pure function of its arguments), and the results do not change.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from tqdm.auto import tqdm

SCHEDULER_ENV = "TDBOOK_SCHEDULER"
_MASK = (1 << 64) - 1


def task_seed(seed: int, index: int) -> int:
    """A 63-bit seed for task ``index`` of an experiment seeded ``seed`` (SplitMix64 finaliser of both)."""
    if isinstance(seed, bool) or not isinstance(seed, int) or isinstance(index, bool) or not isinstance(index, int):
        raise ValueError(f"seed and index must be ints, got {seed!r} and {index!r}")
    z = (seed * 0x9E3779B97F4A7C15 + (index + 1) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return (z ^ (z >> 31)) >> 1


_clients: dict[str, Any] = {}


@contextlib.contextmanager
def local_cluster(n: int) -> Iterator[None]:
    """While the block runs, :func:`map_tasks` sends its tasks to a Dask ``LocalCluster`` of ``n`` one-thread worker
    processes on this machine (``n`` ≤ 1: no cluster, the tasks run here).  Seeded tasks give the same bytes
    either way."""
    if n <= 1:
        yield
        return
    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with Client(cluster):
            yield


def active_client() -> Any | None:
    """The Dask client tasks should go to: the current one, else one for ``TDBOOK_SCHEDULER``, else None."""
    try:
        from distributed import get_client
    except ImportError:  # pragma: no cover - distributed is a pinned dependency
        return None
    try:
        return get_client()
    except ValueError:
        pass
    address = os.environ.get(SCHEDULER_ENV)
    if not address:
        return None
    if address not in _clients:
        from distributed import Client

        try:
            _clients[address] = Client(address, timeout="20s", set_as_default=False)
        except OSError as e:
            raise ValueError(f"{SCHEDULER_ENV}={address}: no Dask scheduler answers there ({e})") from None
    return _clients[address]


def map_tasks(
    fn: Callable[[Any], Any], tasks: Iterable[Any], *, desc: str = "tasks", progress: bool = True, client: Any = None
) -> list[Any]:
    """``[fn(t) for t in tasks]``, spread over the active Dask client when there is one (see the module docstring).

    ``fn`` must be a module-level function (it is pickled to the workers) and each task must carry
    everything the computation depends on, its seed included.
    """
    tasks = list(tasks)
    client = active_client() if client is None else client
    out: list[Any] = [None] * len(tasks)
    with tqdm(total=len(tasks), desc=desc, disable=not progress or not tasks, leave=False) as bar:
        if client is None:
            for i, t in enumerate(tasks):
                out[i] = fn(t)
                bar.update()
            return out
        from distributed import as_completed

        futures = client.map(fn, tasks, pure=False)
        where = {f.key: i for i, f in enumerate(futures)}
        for fut in as_completed(futures):
            out[where[fut.key]] = fut.result()
            bar.update()
    return out


def map_seeded(fn: Callable[[Any, int], Any], items: Sequence[Any], seed: int, **kw: Any) -> list[Any]:
    """``[fn(item, task_seed(seed, i)) for i, item in enumerate(items)]`` through :func:`map_tasks`."""
    return map_tasks(_Seeded(fn), [(item, task_seed(seed, i)) for i, item in enumerate(items)], **kw)


class _Seeded:
    """``fn(item, seed)`` as a one-argument task function (picklable when ``fn`` is)."""

    def __init__(self, fn: Callable[[Any, int], Any]) -> None:
        self.fn = fn

    def __call__(self, task: tuple[Any, int]) -> Any:
        return self.fn(*task)
