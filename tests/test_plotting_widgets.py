"""Figures are written deterministically and atomically; widget panels rerun and refuse bad values."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from tdbook import plotting, widgets  # noqa: E402


def _figure():
    fig, ax = plt.subplots()
    x = np.linspace(0, 1, 50)
    plotting.band(ax, x, np.sin(x), 0.1 * np.ones_like(x), label="sin")
    ax.legend()
    return fig


def test_same_figure_same_bytes(session):
    a = [p.read_bytes() for p in plotting.save(_figure(), "demo")]
    b = [p.read_bytes() for p in plotting.save(_figure(), "demo")]
    assert a == b
    paths = plotting.save(_figure(), "demo")
    assert [p.suffix for p in paths] == [".png", ".svg"]
    assert paths[0].parent.name == "99_test"
    assert not [p for p in paths[0].parent.iterdir() if p.name.endswith(".tmp")]
    plt.close("all")


@pytest.mark.parametrize("name", ["", "../x", "a/b", ".hidden"])
def test_bad_figure_name(session, name):
    with pytest.raises(ValueError, match="figure name"):
        plotting.save(_figure(), name)
    plt.close("all")


def test_save_needs_a_session():
    from tdbook import results

    results._current = None
    with pytest.raises(RuntimeError, match="results.start"):
        plotting.save(_figure(), "x")
    plt.close("all")


def test_panel_builds_controls_and_reruns():
    calls = []

    def run(alpha, runs, method, fast):
        if alpha > 0.9:
            raise ValueError("alpha too large")
        calls.append((alpha, runs, method, fast))
        return alpha * runs

    p = widgets.panel(run, None, alpha=(0.0, 1.0, 0.05, 0.1), runs=(1, 100, 1, 10), method=["td0", "mc"], fast=True)
    assert isinstance(p.controls["alpha"], widgets.W.FloatSlider)
    assert isinstance(p.controls["runs"], widgets.W.IntSlider)
    assert isinstance(p.controls["method"], widgets.W.Dropdown)
    assert isinstance(p.controls["fast"], widgets.W.Checkbox)
    assert calls == [(0.1, 10, "td0", True)] and p.last == 1.0
    p.controls["method"].value = "mc"  # rerun on change
    assert calls[-1] == (0.1, 10, "mc", True)
    p.controls["alpha"].value = 0.95  # refused: message, last result kept
    assert "alpha too large" in p.status.value and p.last == 1.0


@pytest.mark.parametrize("spec", [(1, 0, 1, 0), [], object(), (0.0, 1.0, 0.0, 0.5), ("log", 0, 1, 0.5)])
def test_bad_widget_spec(spec):
    with pytest.raises(ValueError):
        widgets.control("x", spec)
