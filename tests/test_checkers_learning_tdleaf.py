"""TD-Leaf(λ) on Samuel's terms (tdbook.learners.checkers_tdleaf, tdbook.experiments.checkers.tdleaf): the λ-return
step against its definition, the leaf's score recomputed equals the search's backed-up value, exact resume."""

from __future__ import annotations

import numpy as np
import pytest

from tdbook.experiments.checkers import training as tr
from tdbook.experiments.checkers.tdleaf import TDLeaf, TDLeafRun
from tdbook.games.checkers import Checkers
from tdbook.games.checkers_features import ALL_PARAMS, N_PARAMS, scratch
from tdbook.learners.checkers_generalization import N_SAMUEL, SAMUEL_TERMS
from tdbook.learners.checkers_polynomial import N_TERMS, Polynomial, natural_params, score
from tdbook.learners.checkers_tdleaf import TDLeafSpec, td_leaf_update
from tdbook.players.checkers_search import Searcher, SearchRules, pv_boards


def test_td_leaf_step_is_the_lambda_weighted_sum_of_temporal_differences():
    rng = np.random.default_rng(1)
    n, lam, alpha = 6, 0.7, 0.3
    values = rng.uniform(-1, 1, n + 1)
    grads = rng.normal(size=(n, 3))
    theta = np.zeros(3)
    td_leaf_update(values, grads, n, alpha, lam, theta)
    d = values[1:] - values[:-1]
    want = sum(grads[t] * sum(lam ** (j - t) * d[j] for j in range(t, n)) for t in range(n))
    assert theta == pytest.approx(alpha * want, rel=1e-12)


def test_the_leaf_of_the_principal_variation_scores_the_backed_up_value():
    g = Checkers()
    s = g.apply(g.apply(g.initial_state(), "11-15"), "23-19")
    rng = np.random.default_rng(2)
    poly = Polynomial(dict(zip(SAMUEL_TERMS, rng.normal(0, 2**14, N_SAMUEL))))
    sr = Searcher(poly, SearchRules.samuel(), ordering=True)
    r = sr(s.words, s.side)
    boards = np.zeros((70, 5), dtype=np.int64)
    root = np.array([*s.words, s.side, 0], dtype=np.int64)
    n = pv_boards(root, sr.ws.arrays, boards)
    assert n == len(r.pv) >= 3
    leaf, par = boards[n], boards[n - 1]
    pp, p, o, t, buf = np.zeros(N_PARAMS), np.zeros(N_PARAMS), np.zeros(N_PARAMS), np.zeros(N_TERMS), scratch()
    natural_params(*par, pp, buf, ALL_PARAMS)
    v = score(*leaf, pp, poly.vector, poly.piece_weight, 0, ALL_PARAMS, p, o, t, buf)
    # the score is the leaf passive side's; the root value is the side to move's
    assert (v if leaf[4] != s.side else -v) == pytest.approx(r.value, rel=1e-12)


def test_tdleaf_self_play_learns_and_resumes_exactly(tmp_path):
    spec = TDLeafRun(TDLeafSpec(alpha=1.0), seed=2)
    whole = TDLeaf(spec, 4)
    tr.run(whole, 4, checkpoint=tmp_path / "w.npz", checkpoint_every=2, progress=False)
    assert np.abs(whole.theta).max() > 0 and np.all(whole.step[:4] > 0)
    assert np.array_equal(whole.history[-1], whole.theta.astype(np.float32))
    ck = tmp_path / "k.npz"
    tr.run(TDLeaf(spec, 4), 4, checkpoint=ck, checkpoint_every=2, progress=False, stop_after=3)
    again = TDLeaf(spec, 4)
    tr.run(again, 4, checkpoint=ck, checkpoint_every=2, progress=False)
    assert np.array_equal(again.theta, whole.theta) and np.array_equal(again.log["result"], whole.log["result"])
    assert set(again.polynomial().weights) <= set(SAMUEL_TERMS)


def test_settings_are_validated():
    with pytest.raises(ValueError, match="lam must lie"):
        TDLeafSpec(lam=1.5)
    with pytest.raises(ValueError, match="alpha must be a positive"):
        TDLeafSpec(alpha=0)
