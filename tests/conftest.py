"""Shared fixtures: every test writes under a temporary output root, never into figures/ or data/."""

from __future__ import annotations

import json
import os
import resource
import signal
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def out_root(tmp_path, monkeypatch) -> Path:
    """Point every output (results, figures, executed notebooks) at a fresh temporary directory."""
    root = tmp_path / "out"
    monkeypatch.setenv("TDBOOK_OUTPUT_ROOT", str(root))
    return root


@pytest.fixture
def session(out_root):
    """An open results session for a throwaway notebook name."""
    from tdbook import results

    s = results.start("99_test", profile="quick", seed=1, title="test", document="000")
    yield s
    results._current = None


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.fixture
def ctrl_c_reaches_child():
    """``preexec_fn`` for a child process a test will Ctrl-C: a child of a background job (``make test &``,
    ``nohup``) inherits SIGINT ignored and Python then never raises KeyboardInterrupt; this gives the child
    the disposition it has in a terminal."""
    return _default_sigint


def pytest_configure(config):
    os.environ.setdefault("MPLBACKEND", "Agg")
    # the workers, the notebooks' kernels and the CLI runs of the tests compile each kernel once between them
    # (tdbook.core.compile_lock); set before tdbook is imported, so this process and every child take it
    os.environ.setdefault("TDBOOK_COMPILE_LOCK", "1")


def pytest_collection_modifyitems(config, items):
    """The notebooks' quick runs go last (in collection order otherwise): by then the unit tests have compiled the
    numba kernels the notebooks call into the on-disk cache, so a notebook's two-minute limit measures the notebook,
    not the compiler — with ``make test``'s workers (pytest-xdist) a notebook could otherwise start before
    the tests of its engine and compile it cold (about 100 s of notebook 02's 130 s on a cold cache)."""
    items.sort(key=lambda item: item.get_closest_marker("notebook") is not None)  # stable: the rest keep their order


# ----------------------------------------------------------------------------- CPU seconds per test

# `pytest --durations` reports wall time, which on a shared machine measures the neighbours as much as the test.
# `pytest --cpu-durations N` reports the N most expensive tests in CPU seconds (user + system) of the process that
# ran them and of its waited-for children (a notebook's kernel), and each process's CPU outside its tests (start-up,
# collection, imports): what a quiet machine would spend, whatever else was running beside it.


def pytest_addoption(parser):
    parser.addoption(
        "--cpu-durations",
        type=int,
        default=None,
        metavar="N",
        help="show the N tests that took the most CPU seconds (0: all), and each process's total",
    )


class _CompileTimer:
    """Numba's compilations in this process (``numba:compile`` events; a cache hit is none): the main thread's CPU
    seconds in them, outermost compilations only, and each kernel compiled with its seconds."""

    def __init__(self) -> None:
        self.depth, self.t0, self.total, self.kernels = 0, 0.0, 0.0, []

    def on_start(self, event) -> None:
        if self.depth == 0:
            self.t0 = time.thread_time()
        self.depth += 1

    def on_end(self, event) -> None:
        self.depth -= 1
        if self.depth == 0:
            dt = time.thread_time() - self.t0
            self.total += dt
            d = event.data["dispatcher"]
            self.kernels.append(
                (f"{d.py_func.__module__}.{d.py_func.__qualname__}", str(event.data["args"]), round(dt, 2))
            )


_COMPILES = _CompileTimer()


def pytest_sessionstart(session):
    if session.config.getoption("--cpu-durations") is not None:
        from numba.core import event

        class Listener(event.Listener):
            on_start, on_end = staticmethod(_COMPILES.on_start), staticmethod(_COMPILES.on_end)

        event.register("numba:compile", Listener())


def _cpu_now() -> float:
    s, c = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return s.ru_utime + s.ru_stime + c.ru_utime + c.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    if item.config.getoption("--cpu-durations") is None:
        yield
        return
    c0, t0, k0 = _cpu_now(), time.perf_counter(), _COMPILES.total
    yield
    item.config.__dict__.setdefault("_tdbook_cpu_items", []).append(
        (item.nodeid, round(_cpu_now() - c0, 2), round(time.perf_counter() - t0, 2), round(_COMPILES.total - k0, 2))
    )


def pytest_sessionfinish(session):
    cfg = session.config
    if cfg.getoption("--cpu-durations") is None:
        return
    items = cfg.__dict__.get("_tdbook_cpu_items", [])
    if items or hasattr(cfg, "workeroutput"):  # a process that ran tests: its own CPU and its kernels'
        cpu = _cpu_now()
    else:  # pytest-xdist's controller: its children are the workers, who count themselves
        own = resource.getrusage(resource.RUSAGE_SELF)
        cpu = own.ru_utime + own.ru_stime
    data = {"items": items, "process": round(cpu, 2), "compiled": _COMPILES.kernels}
    if hasattr(cfg, "workeroutput"):  # a pytest-xdist worker: the controller reads it in pytest_testnodedown
        cfg.workeroutput["tdbook_cpu"] = json.dumps(data)
    else:
        cfg.__dict__.setdefault("_tdbook_cpu_procs", {})["main"] = data


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    raw = getattr(node, "workeroutput", {}).get("tdbook_cpu")
    if raw:
        node.config.__dict__.setdefault("_tdbook_cpu_procs", {})[node.gateway.id] = json.loads(raw)


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    n = config.getoption("--cpu-durations")
    procs = config.__dict__.get("_tdbook_cpu_procs")
    if n is None or not procs:
        return
    tr = terminalreporter
    items = sorted((it for p in procs.values() for it in p["items"]), key=lambda it: -it[1])
    tr.write_sep("=", f"CPU seconds per test, the {n or len(items)} largest of {len(items)} (compiling, wall beside)")
    for nodeid, cpu, wall, comp in items[: n or None]:
        tr.write_line(f"{cpu:8.1f} cpu s {comp:7.1f} compiling {wall:8.1f} wall s  {nodeid}")
    for name, p in sorted(procs.items()):
        t = sum(it[1] for it in p["items"])
        c = sum(k[2] for k in p["compiled"])
        tr.write_line(f"{name}: {p['process']:.1f} cpu s, {t:.1f} in its {len(p['items'])} tests; "
                      f"{c:.1f} compiling {len(p['compiled'])} kernels")  # fmt: skip
    tr.write_line(f"all: {sum(p['process'] for p in procs.values()):.1f} cpu s")
    seen: dict[tuple, list] = {}
    for p in procs.values():
        for mod, args, sec in p["compiled"]:
            seen.setdefault((mod, args), []).append(sec)
    twice = {k: v for k, v in seen.items() if len(v) > 1}
    tr.write_line(f"kernels compiled in more than one process: {len(twice)}, "
                  f"{sum(sum(v) - max(v) for v in twice.values()):.1f} cpu s beyond the first")  # fmt: skip
