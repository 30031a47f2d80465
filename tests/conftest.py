"""Shared fixtures: every test writes under a temporary output root, never into figures/ or data/."""

from __future__ import annotations

import os
import signal
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
