"""Figures are written deterministically and atomically; widget panels rerun and refuse bad values."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

from pathlib import Path  # noqa: E402

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


def test_saved_paths_show_where_the_files_went():
    from tdbook.core.paths import repo_root

    root = repo_root()
    quick = plotting.Saved(
        [root / "build/quick/figures/01_x/a.png", root / "build/quick/figures/01_x/a.svg"], root=root
    )
    assert repr(quick) == "build/quick/figures/01_x/a.png (+svg)"
    assert repr(plotting.Saved([root / "figures/01_x/a.png"], root=root)) == "figures/01_x/a.png"
    assert repr(plotting.Saved([Path("/elsewhere/a.png")], root=root)) == "/elsewhere/a.png"


def test_save_needs_a_session():
    from tdbook import results

    results._current = None
    with pytest.raises(RuntimeError, match="results.start"):
        plotting.save(_figure(), "x")
    plt.close("all")


def test_a_dropdown_of_label_value_pairs_shows_labels_and_passes_values():
    seen = []
    p = widgets.panel(lambda net: seen.append(net), None, net=[("(c) the free net", "free"), ("(a) symmetric", "a")])
    assert seen == ["free"] and p.controls["net"].label == "(c) the free net"
    p.controls["net"].value = "a"
    p.button.click()
    assert seen[-1] == "a"


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
    p.controls["method"].value = "mc"  # no rerun on change: only Run runs
    assert len(calls) == 1 and "press <b>Run</b>" in p.howto.value
    p.button.click()
    assert calls[-1] == (0.1, 10, "mc", True)
    p.controls["alpha"].value = 0.95  # refused: one sentence, last result kept, ready again
    p.button.click()
    assert "not run: alpha too large" in p.status.value and "ready" in p.status.value and p.last == 1.0
    assert not p.button.disabled
    auto = widgets.panel(
        run, None, auto=True, alpha=(0.0, 1.0, 0.05, 0.1), runs=(1, 100, 1, 10), method=["td0"], fast=True
    )
    auto.controls["runs"].value = 20  # auto=True reruns on change
    assert calls[-1] == (0.1, 20, "td0", True) and auto.last == 2.0


@pytest.mark.parametrize(
    "exc", [AssertionError("pattern 3 reached 5 > its limit 4"), KeyError("x"), ZeroDivisionError()]
)
def test_a_panel_whose_experiment_fails_says_why_and_is_ready_again(exc):
    """Any exception — also inside ipywidgets' Output, which swallows it in a kernel — ends in one sentence."""
    state = {"fail": False}

    def run(n):
        if state["fail"]:
            raise exc
        return n

    p = widgets.panel(run, lambda d: None, n=(1, 10, 1, 3))
    assert p.last == 3 and "ready" in p.status.value
    state["fail"] = True
    assert p.refresh() is None
    assert f"failed with {type(exc).__name__}" in p.status.value and "ready" in p.status.value
    assert "last run that worked" in p.status.value and p.last == 3 and not p.button.disabled
    state["fail"] = False
    p.controls["n"].value = 5
    assert p.refresh() == 5 and p.status.value == "done · ready"


def test_a_panel_explains_a_combination_that_cannot_run_before_run():
    calls = []

    def check(a, b):
        return "a and b cannot both be on" if a and b else None

    p = widgets.panel(lambda a, b: calls.append((a, b)), None, check=check, a=True, b=False)
    assert calls == [(True, False)]
    p.controls["b"].value = True
    assert p.button.disabled and "cannot run: a and b cannot both be on" in p.status.value
    assert p.refresh() is None and len(calls) == 1  # Run does nothing while the combination is refused
    p.controls["a"].value = False
    assert not p.button.disabled and p.status.value == "ready"
    p.button.click()
    assert calls[-1] == (False, True)


@pytest.mark.parametrize("spec", [(1, 0, 1, 0), [], object(), (0.0, 1.0, 0.0, 0.5), ("log", 0, 1, 0.5)])
def test_bad_widget_spec(spec):
    with pytest.raises(ValueError):
        widgets.control("x", spec)


def test_the_tdleaf_weights_plot_never_repeats_a_line_s_look():
    """Issue 35: with ten terms and an eight-colour palette, two legend entries shared a colour (MOMENT/DIAV)."""
    import matplotlib.pyplot as plt
    import numpy as np

    from tdbook.plots.checkers_learning import tdleaf_weights

    history = np.arange(1, 13, dtype=float)[None, :] * np.ones((5, 1))
    fig = tdleaf_weights(history, [f"t{i}" for i in range(12)], top=10)
    looks = [(ln.get_color(), ln.get_linestyle()) for ln in fig.axes[0].get_lines()]
    plt.close(fig)
    assert len(looks) == 10 and len(set(looks)) == 10


# ----------------------------------------------------------------------------- issue 49: captions and alt text


def _shown_metadata(fig) -> dict:
    """The metadata IPython gives the figure's output in a notebook (the inline backend's PNG)."""
    from IPython.core.interactiveshell import InteractiveShell
    from IPython.core.pylabtools import select_figure_formats

    shell = InteractiveShell.instance()
    select_figure_formats(shell, {"png"})
    data, meta = shell.display_formatter.format(fig)
    assert "image/png" in data
    return meta["image/png"]


def test_a_figure_of_tdbook_plots_carries_its_docstrings_first_sentence_as_caption_and_says_what_it_holds(session):
    """Issue 49 §6: figures had no caption, and their alt text was a hashed file name."""
    from tdbook.plots import random_walk as rwplots

    fig = rwplots.deviations(np.ones((3, 5)), np.ones((3, 5)) * 1.00001)
    meta = _shown_metadata(fig)
    assert (
        meta["caption"]
        == "|replayed − printed| per value for the reconstructed exact chain, with the 4-decimal rounding limit."
    )
    assert meta["alt"].startswith(meta["caption"]) and "series A, B, C, D, E" in meta["alt"]
    plotting.save(fig, "deviations", caption="How far the replayed chain is from the printed one")
    assert _shown_metadata(fig)["caption"] == "How far the replayed chain is from the printed one."
    plt.close(fig)


def test_a_figure_drawn_elsewhere_is_captioned_by_its_title_else_its_name(session):
    fig = _figure()
    fig.suptitle("Sine with a band")
    assert _shown_metadata(fig)["caption"] == "Sine with a band."
    bare = _figure()
    plotting.save(bare, "a_sine_band")
    meta = _shown_metadata(bare)
    assert meta["caption"] == "A sine band." and "Series sin" in meta["alt"]
    with pytest.raises(ValueError, match="a caption is a sentence"):
        plotting.set_caption(bare, "  ")
    plt.close("all")


def test_the_first_sentence_of_a_docstring_is_not_cut_at_an_abbreviation():
    assert plotting.first_sentence("Fig. 6.5 of App. B: the draws, e.g. here. ``thesis``: ticks.") == (
        "Fig. 6.5 of App. B: the draws, e.g. here."
    )
    assert plotting.first_sentence("One (Powell (2000) §4.3). Two.") == "One (Powell (2000) §4.3)."
    from tdbook.plots import random_walk as rwplots

    assert plotting.doc_caption(rwplots.curves) == "Panels of averaged RMS curves with 95% bands."  # no "; groups = …"
