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


def _cpu_now() -> float:
    s, c = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return s.ru_utime + s.ru_stime + c.ru_utime + c.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    if item.config.getoption("--cpu-durations") is None:
        yield
        return
    c0, t0 = _cpu_now(), time.perf_counter()
    yield
    item.config.__dict__.setdefault("_tdbook_cpu_items", []).append(
        (item.nodeid, round(_cpu_now() - c0, 2), round(time.perf_counter() - t0, 2))
    )


def pytest_sessionfinish(session):
    cfg = session.config
    if cfg.getoption("--cpu-durations") is None:
        return
    data = {"items": cfg.__dict__.get("_tdbook_cpu_items", []), "process": round(_cpu_now(), 2)}
    if hasattr(cfg, "workeroutput"):  # a pytest-xdist worker: the controller reads it in pytest_testnodedown
        cfg.workeroutput["tdbook_cpu"] = json.dumps(data)
    else:  # the one process, or pytest-xdist's controller (no tests of its own)
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
    tr.write_sep("=", f"CPU seconds per test, the {n or len(items)} largest of {len(items)} (wall beside)")
    for nodeid, cpu, wall in items[: n or None]:
        tr.write_line(f"{cpu:8.1f} cpu s {wall:8.1f} wall s  {nodeid}")
    for name, p in sorted(procs.items()):
        t = sum(it[1] for it in p["items"])
        tr.write_line(f"{name}: {p['process']:.1f} cpu s, {t:.1f} in its {len(p['items'])} tests")
    tr.write_line(f"all: {sum(p['process'] for p in procs.values()):.1f} cpu s")
