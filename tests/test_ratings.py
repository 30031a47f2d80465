"""Bradley–Terry ratings with bootstrap intervals (tdbook.experiments.common.ratings): exact for two players, recovers
known strengths from simulated round robins, invariant to the order of the players, a newcomer's anchored
rating, and bad input refused by name."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tdbook.experiments.common.ratings import ELO, bradley_terry, matrices, rate, rate_against


def _simulate(theta, units=400, seed=0, draw=0.5):
    """Every pair plays ``units`` units of two games; a game is a draw with probability ``draw``, otherwise a win
    with the probability that keeps the expected score at σ(θ_i − θ_j)."""
    rng = np.random.default_rng(seed)
    names = [f"p{i}" for i in range(len(theta))]
    pairs = [(names[i], names[j]) for i in range(len(theta)) for j in range(i + 1, len(theta))]
    pts = np.zeros((len(pairs), units))
    for k, (a, b) in enumerate(pairs):
        s = 1 / (1 + math.exp(-(theta[names.index(a)] - theta[names.index(b)])))
        d = min(draw, 2 * min(s, 1 - s))
        pw = s - d / 2
        u = rng.random((units, 2))
        pts[k] = np.where(u < pw, 1.0, np.where(u < pw + d, 0.5, 0.0)).sum(axis=1)
    return names, pairs, pts


def test_two_players_are_the_logit_of_the_score():
    w = np.array([[0, 30.0], [10.0, 0]])
    n = np.array([[0, 40.0], [40.0, 0]])
    t = bradley_terry(w, n, prior_sd=math.inf)
    assert t[0] - t[1] == pytest.approx(math.log(30 / 10), abs=1e-9)
    assert (bradley_terry(w, n)[0] - bradley_terry(w, n)[1]) == pytest.approx(math.log(3), rel=0.01)  # weak prior


def test_recovers_known_strengths_with_intervals_that_cover_them():
    theta = np.array([0.0, 0.4, -0.3, 1.0, -1.2])
    names, pairs, pts = _simulate(theta, units=600, seed=3)
    r = rate(names, pairs, pts, anchor="p0", reps=200, seed=1)
    true = (theta - theta[0]) * ELO
    assert np.all(np.abs(r.elo - true) < 45)
    assert np.sum((r.lo <= true) & (true <= r.hi)) >= 4 and np.all(r.lo <= r.elo) and np.all(r.elo <= r.hi)
    assert r.of("p0") == (0.0, 0.0, 0.0) and r.order()[0] == "p3" and r.order()[-1] == "p4"
    d, lo, hi = r.difference("p3", "p1")
    assert lo < d < hi and d == pytest.approx(r.elo[3] - r.elo[1])
    m, mlo, mhi = r.mean_of(["p1", "p3"])
    assert mlo < m < mhi
    # more games, narrower intervals
    names2, pairs2, pts2 = _simulate(theta, units=150, seed=3)
    r2 = rate(names2, pairs2, pts2, anchor="p0", reps=200, seed=1)
    assert np.mean(r2.hi - r2.lo) > np.mean(r.hi - r.lo)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.floats(-1.5, 1.5), min_size=3, max_size=5), st.integers(0, 10_000))
def test_the_fit_does_not_depend_on_the_order_of_the_players(theta, seed):
    names, pairs, pts = _simulate(np.array(theta), units=40, seed=seed)
    w, n = matrices(names, pairs, pts)
    t = bradley_terry(w, n)
    perm = np.random.default_rng(seed).permutation(len(theta))
    tp = bradley_terry(w[np.ix_(perm, perm)], n[np.ix_(perm, perm)])
    assert np.allclose(tp, t[perm], atol=1e-8)
    # the gradient of the penalized log-likelihood vanishes at the fit
    d = t[:, None] - t[None, :]
    g = (w - n / (1 + np.exp(-d))).sum(axis=1) - t / 100.0
    assert np.allclose(g, 0, atol=1e-6)


def test_a_player_who_never_scored_has_a_finite_rating_far_below():
    names, pairs, pts = ["random", "a", "b"], [("random", "a"), ("random", "b"), ("a", "b")], np.zeros((3, 50))
    pts[2] = 1.0  # a and b draw everything; random loses everything
    r = rate(names, pairs, pts, anchor="a", reps=50)
    assert np.all(np.isfinite(r.elo)) and r.elo[0] < -1000 and r.elo[2] == pytest.approx(0, abs=1e-6)


def test_a_newcomer_against_fixed_ratings():
    # against one opponent rated 100, scoring 75 %: 100 + logit(0.75) Elo
    units = np.array([2.0, 1.0, 2.0, 1.0])
    elo, se = rate_against({"x": 100.0}, {"x": units})
    assert elo == pytest.approx(100 + math.log(3) * ELO, abs=1e-6) and se > 0
    # against two opponents the rating sits between their single-opponent ratings
    e1, _ = rate_against({"x": 0.0}, {"x": np.full(50, 1.2)})
    e2, _ = rate_against({"y": 200.0}, {"y": np.full(50, 0.8)})
    e12, se12 = rate_against({"x": 0.0, "y": 200.0}, {"x": np.full(50, 1.2), "y": np.full(50, 0.8)})
    assert min(e1, e2) < e12 < max(e1, e2)
    with pytest.raises(ValueError, match="no finite rating"):
        rate_against({"x": 0.0}, {"x": np.full(5, 2.0)})
    with pytest.raises(ValueError, match="without a fixed rating"):
        rate_against({"x": 0.0}, {"z": np.ones(3)})


def test_bad_input_is_refused_by_name():
    with pytest.raises(ValueError, match="anchor"):
        rate(["a", "b"], [("a", "b")], np.ones((1, 5)), anchor="c")
    with pytest.raises(ValueError, match="unit's points"):
        rate(["a", "b"], [("a", "b")], np.full((1, 5), 3.0), anchor="a")
    with pytest.raises(ValueError, match="two different players"):
        matrices(["a", "b"], [("a", "a")], np.ones((1, 5)))
    with pytest.raises(ValueError, match="must equal their games"):
        bradley_terry(np.array([[0, 3.0], [3.0, 0]]), np.array([[0, 4.0], [4.0, 0]]))
