"""Notebook 08's measuring helpers (profiles, learning-curve arithmetic, the engine side by side with
gnubg), its panel run and its figures."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

from tdbook.experiments.backgammon import (
    analysis,  # noqa: E402
    curves,  # noqa: E402
)
from tdbook.experiments.backgammon import td_gammon as nb08  # noqa: E402
from tdbook.experiments.backgammon.match import make_opponent, paired_difference, run_match  # noqa: E402
from tdbook.experiments.backgammon.spec import CurvePoint  # noqa: E402
from tdbook.games import backgammon as bg  # noqa: E402
from tdbook.learners.backgammon_net import TDGammon  # noqa: E402
from tdbook.players.backgammon import PubevalPlayer, RandomPlayer  # noqa: E402


def test_notebook_helpers():
    curve = [
        CurvePoint(g, p, 0.05, 50.0)
        for g, p in [(0, -2.4), (10_000, -0.4), (50_000, 0.1), (90_000, 0.2), (100_000, 0.3), (110_000, 0.1)]
    ]
    assert curves.learning_share(curve, 50_000) == pytest.approx(2.5 / 2.6)
    assert curves.fmt_point(curve, 10_000) == "-0.400 ± 0.050" and curves.fmt_point(curve, 5) == "—"
    a = run_match(PubevalPlayer(), RandomPlayer(), 30, seed=1, progress=False)
    b = run_match(RandomPlayer(), RandomPlayer(), 30, seed=1, progress=False)
    d, se = paired_difference(a, b)
    assert d == pytest.approx(a.ppg - b.ppg) and 0 < se < 1
    with pytest.raises(ValueError, match="unknown knob"):
        nb08.config("quick", GAMES=3)
    with pytest.raises(ValueError, match="PUBEVAL_PAIRS"):
        nb08.config("quick", PUBEVAL_PAIRS=0)
    assert nb08.config("standard").PUBEVAL_PAIRS >= 5000  # the ≥ 10,000-game target
    with pytest.raises(ValueError, match="unknown opponent"):
        make_opponent("kasparov")
    P, D = analysis.game_positions(30, seed=2)
    assert P.shape == (30, 28) and 5 < analysis.moves_per_roll(P[:10]) < 60
    for _label, p, d1, d2 in analysis.showcase_positions():
        table, chk = analysis.side_by_side(p, d1, d2, TDGammon.new(5, 4, seed=1))
        assert chk["count_ok"] and not chk["problems"] and len(table.rows) == chk["gnubg"]


def test_explore_and_figures():
    from tdbook.plots import backgammon as P
    from tdbook.widgets.backgammon import board

    data = nb08.explore(hidden=5, games=100, pairs=5, seed=3, opponent="random")
    assert data.log.games_done == 100 and len(data.log.curve) == 6 and data.match.games == 10
    figs = [
        P.explore(data),
        board(bg.initial_position(), dice=(3, 1)),
        P.ladder({"net": {"pubeval": {"ppg": 0.3, "stderr": 0.05}}}),
        P.pwin_agreement(np.array([0.2, 0.8]), np.array([0.25, 0.7])),
    ]
    assert all(f.axes for f in figs)
    # the title, the curve and the axis name the opponent each is against: the curve is vs pubeval, the match
    # vs the opponent chosen in the panel (issue 35: the title said "vs random" over a curve vs pubeval)
    ax = figs[0].axes[0]
    assert ax.get_ylabel() == "points per game vs pubeval" and "vs pubeval" in ax.get_legend_handles_labels()[1][0]
    assert "curve: points per game vs pubeval" in ax.get_title() and "final match vs random" in ax.get_title()
    data = nb08.explore(hidden=5, games=100, pairs=5, seed=3, opponent="pubeval")
    labels = P.explore(data).axes[0].get_legend_handles_labels()[1]
    assert any(lab.startswith("final match vs pubeval") for lab in labels)


def test_shared_error_is_told_from_independent_error():
    """§5.3's 'every calculation has a similar error': the shuffle test finds an error common to a roll's
    moves, and finds none when the errors are independent (so the claim can fail)."""
    rng = np.random.default_rng(0)
    sizes = rng.integers(2, 30, size=300)
    independent = [rng.normal(0.0, 0.1, n) for n in sizes]
    shared = [rng.normal(0.0, 0.1) + rng.normal(0.0, 0.03, n) for n in sizes]

    def left(errs):
        return np.mean([np.mean(np.abs(d - d.mean())) for d in errs])

    null = analysis.common_error_shuffles(shared, 100, seed=1)
    assert left(shared) < 0.5 * np.quantile(null, 0.025)
    null = analysis.common_error_shuffles(independent, 100, seed=1)
    assert np.quantile(null, 0.025) < left(independent) < np.quantile(null, 0.975)
    assert np.array_equal(null, analysis.common_error_shuffles(independent, 100, seed=1))  # seeded
    with pytest.raises(ValueError, match="at least two"):
        analysis.common_error_shuffles([np.zeros(1)], 3)
