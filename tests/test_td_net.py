"""The shared TD(λ) net: gradients and traces against finite differences, the update rule, persistence."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tdbook.learners import td_net
from tdbook.learners.td_net import TDNet


def _numeric_grad(net: TDNet, x: np.ndarray, k: int, eps: float = 1e-6):
    g1, g2 = np.zeros_like(net.W1), np.zeros_like(net.W2)
    for W, G in ((net.W1, g1), (net.W2, g2)):
        for ij in np.ndindex(W.shape):
            w = W[ij]
            W[ij] = w + eps
            up = net.value(x)[k]
            W[ij] = w - eps
            down = net.value(x)[k]
            W[ij] = w
            G[ij] = (up - down) / (2 * eps)
    return g1, g2


@pytest.mark.parametrize("hidden", list(td_net.ACTIVATIONS))
@pytest.mark.parametrize("output", list(td_net.ACTIVATIONS))
def test_trace_gradient_equals_finite_differences(hidden, output):
    rng = np.random.default_rng(hash((hidden, output)) % 2**32)
    net = TDNet(7, 5, 3, hidden=hidden, output=output, init=0.8, bias=1.0, seed=3, lam=0.0)
    x = rng.normal(size=7)
    x[[1, 4]] = 0.0  # sparse input: zeros are skipped, and must not matter
    net.start(x)
    for k in range(3):
        g1, g2 = _numeric_grad(net, x, k)
        assert np.allclose(net.eW1[:, :, k], g1, atol=1e-7), (hidden, output, k)
        others = [c for c in range(3) if c != k]
        assert np.allclose(net.eW2[:, k], g2[:, k], atol=1e-7)
        assert np.allclose(g2[:, others], 0.0)


@settings(max_examples=25, deadline=None)
@given(lam=st.floats(0, 1), gamma=st.floats(0, 1), seed=st.integers(0, 2**31))
def test_traces_follow_the_recursion(lam, gamma, seed):
    """With δ = 0 the weights stay put and e_t = Σ_s (γλ)^(t−s) ∇V(x_s)."""
    rng = np.random.default_rng(seed)
    net = TDNet(6, 4, 2, hidden="tanh", output="logistic", gamma=gamma, lam=lam, seed=seed % 1000)
    xs = rng.normal(size=(4, 6))
    grads = []
    for x in xs:
        probe = TDNet(6, 4, 2, hidden="tanh", output="logistic", seed=seed % 1000)
        probe.start(x)
        grads.append((probe.eW1.copy(), probe.eW2.copy()))
    net.start(xs[0])
    W1 = net.W1.copy()
    for x in xs[1:]:
        net.step(np.zeros(2), x)
    assert np.array_equal(net.W1, W1)
    d = gamma * lam
    want1 = sum(d ** (3 - s) * grads[s][0] for s in range(4))
    want2 = sum(d ** (3 - s) * grads[s][1] for s in range(4))
    assert np.allclose(net.eW1, want1, atol=1e-12) and np.allclose(net.eW2, want2, atol=1e-12)


def test_update_rule_uses_alpha_for_w1_beta_for_w2_and_per_output_errors():
    net = TDNet(5, 3, 2, alpha=0.05, beta=0.1, lam=0.5, seed=1)
    x0, x1 = np.arange(5) / 5.0, np.ones(5)
    net.start(x0)
    e1, e2 = net.eW1.copy(), net.eW2.copy()
    W1, W2 = net.W1.copy(), net.W2.copy()
    delta = np.array([0.3, -0.7])
    net.step(delta, x1)
    assert np.allclose(net.W1, W1 + 0.05 * (e1 @ delta))
    assert np.allclose(net.W2, W2 + 0.1 * e2 * delta)


def test_lambda_zero_is_semi_gradient_td0():
    """λ = 0: Δw = α δ ∇V(s_t) exactly; the next state's trace is its own gradient only."""
    net = TDNet(4, 3, 1, alpha=0.2, lam=0.0, seed=2)
    a, b = np.array([1.0, 0, 0.5, 0]), np.array([0, 1.0, 0, 0.25])
    v0 = net.start(a)[0]
    g1, g2 = net.eW1[:, :, 0].copy(), net.eW2[:, 0].copy()
    W1, W2 = net.W1.copy(), net.W2.copy()
    vb_before = net.value(b)[0]
    delta = 1.0 + vb_before - v0
    net.step(np.array([delta]), b)
    assert np.allclose(net.W1, W1 + 0.2 * delta * g1) and np.allclose(net.W2[:, 0], W2[:, 0] + 0.2 * delta * g2)
    fresh = TDNet(4, 3, 1, seed=2)
    fresh.W1[:], fresh.W2[:] = net.W1, net.W2
    fresh.start(b)
    assert np.allclose(net.eW1, fresh.eW1) and np.allclose(net.eW2, fresh.eW2)


def test_thesis_derivative_is_the_printed_formula():
    net = TDNet(3, 2, 1, hidden="thesis", output="thesis", derivative="thesis", init=0.5, seed=4)
    x = np.array([0.5, -1.0, 2.0])
    net.start(x)
    y = net.o[0]
    assert np.allclose(net.eW2[:2, 0], 2 * y * (1 - y) * net.h)
    assert np.isclose(
        net.value(x)[0],
        (1 - np.exp(-(net.h @ net.W2[:2, 0] + net.W2[2, 0]))) / (1 + np.exp(-(net.h @ net.W2[:2, 0] + net.W2[2, 0]))),
    )


def test_same_seed_same_weights_and_init_range():
    a, b = TDNet(20, 8, 1, seed=9, init=0.1), TDNet(20, 8, 1, seed=9, init=0.1)
    assert np.array_equal(a.W1, b.W1) and np.array_equal(a.W2, b.W2)
    assert np.abs(a.W1).max() <= 0.1 and np.abs(a.W1).max() > 0.05
    assert not np.array_equal(a.W1, TDNet(20, 8, 1, seed=10).W1)


@pytest.mark.parametrize(
    "kwargs, msg",
    [
        ({"n_in": 0}, "n_in"),
        ({"hidden": "relu"}, "hidden activation"),
        ({"alpha": 0}, "alpha"),
        ({"lam": 1.5}, "λ"),
        ({"derivative": "exact"}, "derivative"),
        ({"gamma": -0.1}, "gamma"),
    ],
)
def test_bad_hyperparameters(kwargs, msg):
    args = {"n_in": 4, "n_hidden": 3} | kwargs
    with pytest.raises(ValueError, match=msg):
        TDNet(args.pop("n_in"), args.pop("n_hidden"), **args)


def test_shape_mismatch_and_nan_are_refused():
    net = TDNet(4, 3, 2)
    with pytest.raises(ValueError, match=r"expects \(4,\)"):
        net.value(np.zeros(5))
    net.start(np.ones(4))
    with pytest.raises(ValueError, match="2 outputs"):
        net.step(0.1, np.ones(4))
    with pytest.raises(ValueError, match="not finite"):
        net.step(np.array([np.nan, 0.0]), np.ones(4))
    net.W2[0, 0] = np.inf
    with pytest.raises(ValueError, match="diverged"):
        net.check_finite()


def test_save_load_roundtrip_and_corrupt_files(tmp_path):
    net = TDNet(6, 4, 2, hidden="tanh", alpha=0.03, lam=0.7, seed=5)
    p = net.save(tmp_path / "net.npz", command="python -m tdbook train …", games=12)
    back = TDNet.load(p, expect={"n_in": 6})
    assert np.array_equal(back.W1, net.W1) and back.lam == 0.7 and back.extra["games"] == 12
    with pytest.raises(ValueError, match="n_hidden is 4, expected 80"):
        TDNet.load(p, expect={"n_hidden": 80})
    (tmp_path / "junk.npz").write_bytes(b"not a zip file")
    with pytest.raises(ValueError, match="not a readable tdbook weights file"):
        TDNet.load(tmp_path / "junk.npz")
    with pytest.raises(ValueError, match="no weights file"):
        TDNet.load(tmp_path / "missing.npz")
    net.W1[0, 0] = np.nan
    net.save(tmp_path / "nan.npz")
    with pytest.raises(ValueError, match="non-finite"):
        TDNet.load(tmp_path / "nan.npz")
    import io

    z = io.BytesIO()
    np.savez(z, W1=np.zeros((3, 3)), W2=np.zeros((5, 2)), meta=np.array(__import__("json").dumps(net.meta())))
    (tmp_path / "shape.npz").write_bytes(z.getvalue())
    with pytest.raises(ValueError, match="do not match"):
        TDNet.load(tmp_path / "shape.npz")


@pytest.mark.parametrize(
    "meta, msg",
    [
        ("[1, 2, 3]", "metadata is a list"),
        ('{"format": "tdbook.TDNet/1", "n_hidden": 4}', "metadata lacks n_in"),
        ("n_in-string", "not a readable tdbook weights file"),
    ],
)
def test_corrupt_metadata_is_refused_by_name(tmp_path, meta, msg):
    import io
    import json

    z = io.BytesIO()
    np.savez(z, W1=np.zeros((7, 4)), W2=np.zeros((5, 2)), meta=np.array(meta))
    (tmp_path / "m.npz").write_bytes(z.getvalue())
    with pytest.raises(ValueError, match=msg):
        TDNet.load(tmp_path / "m.npz")
    bad = TDNet(6, 4, 2).meta() | {"n_in": "6"}
    z = io.BytesIO()
    np.savez(z, W1=np.zeros((7, 4)), W2=np.zeros((5, 2)), meta=np.array(json.dumps(bad)))
    (tmp_path / "t.npz").write_bytes(z.getvalue())
    with pytest.raises(ValueError, match="n_in is '6', expected a positive integer"):
        TDNet.load(tmp_path / "t.npz")


def test_a_diverging_step_is_refused_and_changes_nothing():
    net = TDNet(4, 3, 1, alpha=1e308, seed=2)
    net.start(np.ones(4))
    before = [a.copy() for a in (net.W1, net.W2, net.eW1, net.eW2)]
    with pytest.raises(ValueError, match="diverged"):
        net.step(1e308, np.ones(4))
    for a, b in zip((net.W1, net.W2, net.eW1, net.eW2), before):
        assert np.array_equal(a, b)


@pytest.mark.parametrize(
    "arrays, found",
    [
        ({"x": np.zeros(3)}, "it holds x (no W1, W2, meta)"),
        ({"W1": np.zeros((2, 2)), "W2": np.zeros((3, 1)), "meta": np.array([{"a": 1}], dtype=object)}, "holds Python"),
    ],
    ids=["foreign", "pickled"],
)
def test_a_foreign_npz_is_named_with_what_was_expected(tmp_path, arrays, found):
    """Another program's .npz, or one holding pickled objects: the message names the file and what a
    weights file is, and does not send the reader to numpy's allow_pickle."""
    import io

    z = io.BytesIO()
    np.savez(z, **arrays)
    p = tmp_path / "other.npz"
    p.write_bytes(z.getvalue())
    with pytest.raises(ValueError) as e:
        TDNet.load(p)
    msg = str(e.value)
    assert str(p) in msg and "expected" in msg and "W1, W2" in msg and found in msg and "allow_pickle" not in msg
    p.write_bytes(b"not a zip file")
    with pytest.raises(ValueError, match="not a zip archive") as e:
        TDNet.load(p)
    assert "allow_pickle" not in str(e.value)


def _random_net(gen, n_in, n_hid, n_out):
    W1, W2 = gen.normal(0, 0.7, (n_in + 1, n_hid)), gen.normal(0, 0.7, (n_hid + 1, n_out))
    x = gen.normal(0, 1, n_in) * (gen.random(n_in) < 0.5)  # sparse, as the boards are
    idx = np.flatnonzero(x).astype(np.int64)
    return W1, W2, x, idx, x[idx].copy()


#: The references are numpy (a dot product sums in another order than the kernels' loops): equal to rounding.
CLOSE = dict(rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("case", range(400))
def test_the_td_lambda_step_shown_in_the_chapters_is_the_kernel(case):
    """Notebooks 07 and 08 show ``td_lambda_step`` (numpy); training runs the jitted ``td_step``: for random nets,
    activations, derivatives, traces, TD errors and inputs, the same weights, traces and values to rounding."""
    gen = np.random.default_rng(case)
    n_in, n_hid, n_out = int(gen.integers(1, 12)), int(gen.integers(1, 9)), int(gen.integers(1, 5))
    W1, W2, x, idx, val = _random_net(gen, n_in, n_hid, n_out)
    kinds = [k for k in td_net.ACTIVATIONS.values() if k != 4] + [4] * (case % 5 == 0)
    units = td_net.Units(float(gen.choice([1.0, 0.5, -1.0])), int(gen.choice(kinds)), int(gen.choice(kinds)), case % 2)
    e1, e2 = gen.normal(0, 1, (n_in + 1, n_hid, n_out)), gen.normal(0, 1, (n_hid + 1, n_out))
    delta = gen.normal(0, 0.5, n_out)
    alpha, beta, decay = (float(v) for v in gen.uniform(0, 0.5, 3))
    ours = [a.copy() for a in (W1, W2, e1, e2)]
    h, o = np.zeros(n_hid), np.zeros(n_out)
    td_net.td_step(*ours, delta, idx, val, len(idx), alpha, beta, decay, units, h, o)
    ref = [a.copy() for a in (W1, W2, e1, e2)]
    rh, ro = td_net.td_lambda_step(*ref, delta, x, alpha, beta, decay, units)
    for a, b in zip(ours + [h, o], ref + [rh, ro]):
        assert np.allclose(a, b, **CLOSE), case


@pytest.mark.parametrize("case", range(300))
def test_the_self_play_step_shown_in_chapter_08_is_the_kernel(case):
    """Notebook 08 shows ``self_play_step``; TD-Gammon's training kernel runs ``update_remap_rows``, ``forward``,
    ``add_gradient`` and ``fold_output_gradient`` in turn: the same weights, traces and values to rounding, for
    one output (P(win) → 1 − P: the trace changes sign) and for Tesauro's four (win ↔ loss)."""
    gen = np.random.default_rng(10_000 + case)
    n_out = 1 if case % 2 else 4
    n_in, n_hid = int(gen.integers(1, 12)), int(gen.integers(1, 9))
    W1, W2, x, idx, val = _random_net(gen, n_in, n_hid, n_out)
    units = td_net.Units(1.0, 0, 0, 0)
    swap = np.array([0] if n_out == 1 else [2, 3, 0, 1], dtype=np.int64)
    decay = float(gen.uniform(0, 1)) * (-1 if n_out == 1 else 1)
    alpha, beta = (float(v) for v in gen.uniform(0, 0.5, 2))
    e1, e2 = gen.normal(0, 1, (n_in + 1, n_hid, n_out)), gen.normal(0, 1, (n_hid + 1, n_out, n_out))
    delta = gen.normal(0, 0.5, n_out)
    W1k, W2k, e1k, e2k = (a.copy() for a in (W1, W2, e1, e2))
    rows, mark = np.arange(n_in, dtype=np.int64), np.ones(n_in + 1, np.int8)
    td_net.update_remap_rows(W1k, W2k, e1k, e2k, delta, alpha, beta, decay, swap, rows, n_in, mark)
    h, o, g2 = np.zeros(n_hid), np.zeros(n_out), np.zeros((n_hid + 1, n_out))
    td_net.forward(W1k, W2k, idx, val, len(idx), 1.0, 0, 0, h, o)
    td_net.add_gradient(W2k, idx, val, len(idx), 1.0, 0, 0, 0, h, o, e1k, g2)
    td_net.fold_output_gradient(g2, e2k)
    ref = [a.copy() for a in (W1, W2, e1, e2)]
    rh, ro = td_net.self_play_step(*ref, delta, x, alpha, beta, decay, swap, units)
    for a, b in zip([W1k, W2k, e1k, e2k, h, o], ref + [rh, ro]):
        assert np.allclose(a, b, **CLOSE), case
