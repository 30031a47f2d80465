"""TD-Gammon's net: the self-play TD(λ) kernel against a plain reference, the 1- and 2-ply choosers, the
match kernels, and the weights file (saved, loaded, refused when corrupt or foreign)."""

from __future__ import annotations

import numpy as np
import pytest

from tdbook.core.rng import make_state
from tdbook.experiments.backgammon.match import play_pairs, run_match
from tdbook.games import backgammon as bg
from tdbook.games.backgammon_encoding import encode_dense
from tdbook.learners import td_net
from tdbook.learners.backgammon_net import TDGammon, TDRule, train_games
from tdbook.learners.td_net import TDNet
from tdbook.players.backgammon import (
    KIND_PUBEVAL,
    NetPlayer,
    PubevalPlayer,
    RandomPlayer,
    load_pubeval_weights,
    value_2ply,
)

# ----------------------------------------------------------------------------- a plain reference


def _grad(model: TDGammon, x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(outputs o, ∂o_k/∂W1 as [i, j, k], ∂o_k/∂W2 as [j, c, k]) at dense input ``x`` via the TD
    net's own start() (which stores only the c = k part of the W2 gradient: the rest is zero)."""
    n = model.net
    probe = TDNet(n.n_in, n.n_hidden, n.n_out, seed=0)
    probe.W1[:], probe.W2[:] = n.W1, n.W2
    o = probe.start(x)
    g2 = np.zeros((n.n_hidden + 1, n.n_out, n.n_out))
    for k in range(n.n_out):
        g2[:, k, k] = probe.eW2[:, k]
    return o, probe.eW1.copy(), g2


def _fixed_frame(model: TDGammon, pos: np.ndarray, colour: int):
    """Value and gradient of ``pos`` (``colour`` on roll) in colour 0's frame, from scratch."""
    if model.encoding == "relative":
        o, g1, g2 = _grad(model, encode_dense(pos, 0, False))
        if colour == 1:
            if model.outputs == 1:
                return 1 - o, -g1, -g2
            p = [2, 3, 0, 1]
            return o[p], g1[:, :, p], g2[:, :, p]
        return o, g1, g2
    return _grad(model, encode_dense(pos, colour, True))


def reference_game(model: TDGammon, alpha: float, lam: float, seed: int, g: int) -> tuple[int, int]:
    """One self-play game of TD(λ) written plainly: every value in colour 0's frame, full gradients
    of every output with respect to every weight, traces e ← λe + ∇U, δ = U(next) − U(now),
    W += α Σ_k δ_k e_k; moves by 1-ply greedy choice."""
    W1, W2 = model.net.W1, model.net.W2
    rng = make_state(seed, g)
    pos = bg.initial_position()
    colour, d1, d2 = bg.opening_roll(rng)
    e1 = e2 = None
    u = None
    plies = 0
    while True:
        b = bg.make_buffers()
        n = bg.gen_afterstates(pos, d1, d2, *b)
        after = b[0][:n]
        vals = [
            float(bg.win_multiplier(a)) if a[bg.OFF] == 15 else -model.equity(bg.flipped(a), 1 - colour) for a in after
        ]
        k = int(np.argmax(vals))
        plies += 1
        a = after[k]
        if a[bg.OFF] == 15:
            m = int(bg.win_multiplier(a))
            if model.outputs == 1:
                target = np.array([1.0 if colour == 0 else 0.0])
            else:
                gm = 1.0 if m >= 2 else 0.0
                target = np.array([1.0, gm, 0, 0]) if colour == 0 else np.array([0, 0, 1.0, gm])
            if e1 is not None:
                d = target - u
                W2 += alpha * np.einsum("jck,k->jc", e2, d)
                W1 += alpha * np.einsum("ijk,k->ij", e1, d)
            return (m if colour == 0 else -m), plies
        nxt = bg.flipped(a)
        if e1 is not None:
            u_next, _, _ = _fixed_frame(model, nxt, 1 - colour)
            d = u_next - u
            W2 += alpha * np.einsum("jck,k->jc", e2, d)
            W1 += alpha * np.einsum("ijk,k->ij", e1, d)
        u, g1, g2 = _fixed_frame(model, nxt, 1 - colour)
        e1 = g1 if e1 is None else lam * e1 + g1
        e2 = g2 if e2 is None else lam * e2 + g2
        pos = nxt
        colour = 1 - colour
        d1, d2 = bg.roll(rng)


@pytest.mark.parametrize(
    "encoding, outputs, lam",
    [("relative", 4, 0.7), ("relative", 1, 0.6), ("tesauro", 4, 0.5), ("tesauro", 1, 0.0), ("relative", 4, 0.0)],
)
def test_kernel_equals_the_plain_reference(encoding, outputs, lam):
    a = TDGammon.new(6, outputs, encoding, alpha=0.5, lam=lam, init=0.5, seed=4)
    b = TDGammon.new(6, outputs, encoding, alpha=0.5, lam=lam, init=0.5, seed=4)
    n = a.net
    stats = np.zeros((2, 2), np.int64)
    train_games(a.arrays, n.eW1, n.eW2, TDRule(0.5, 0.5, lam, n.dmode), 11, 3, 2, stats)
    ref = [reference_game(b, 0.5, lam, 11, g) for g in (3, 4)]
    assert [tuple(r) for r in stats] == ref
    assert np.allclose(a.net.W1, b.net.W1, rtol=0, atol=1e-10)
    assert np.allclose(a.net.W2, b.net.W2, rtol=0, atol=1e-10)
    assert not np.allclose(a.net.W1, TDGammon.new(6, outputs, encoding, init=0.5, seed=4).net.W1)


def test_row_tracked_update_equals_the_dense_one():
    rng = np.random.default_rng(0)
    for n_out in (1, 4):
        net = TDNet(30, 7, n_out, seed=1)
        eW1 = np.zeros_like(net.eW1)
        rows = np.array([3, 17, 5], np.int64)
        eW1[rows] = rng.normal(size=(3, 7, n_out))
        eW1[30] = rng.normal(size=(7, n_out))
        eW2 = rng.normal(size=net.eW2.shape)
        tW2 = np.zeros((8, n_out, n_out))
        td_net.fold_output_gradient(eW2.copy(), tW2)
        delta = rng.normal(size=n_out)
        W1a, W2a, e1a, e2a = net.W1.copy(), net.W2.copy(), eW1.copy(), eW2.copy()
        td_net.update_and_decay(W1a, W2a, e1a, e2a, delta, 0.1, 0.2, 0.7)
        mark = np.zeros(31, np.int8)
        mark[rows] = 1
        W1b, W2b, e1b, t2b = net.W1.copy(), net.W2.copy(), eW1.copy(), tW2.copy()
        k = td_net.update_remap_rows(W1b, W2b, e1b, t2b, delta, 0.1, 0.2, 0.7, np.arange(n_out), rows, 3, mark)
        assert k == 3
        assert np.array_equal(W1a, W1b) and np.array_equal(e1a, e1b)
        assert np.allclose(W2a, W2b, rtol=0, atol=1e-15)
        assert np.allclose(e2a, np.einsum("jkk->jk", t2b), rtol=0, atol=1e-15)
        if n_out == 4:  # the remap swaps outputs (0, 2) and (1, 3) of the decayed traces
            e1c, t2c = eW1.copy(), tW2.copy()
            td_net.update_remap_rows(
                net.W1.copy(), net.W2.copy(), e1c, t2c, delta, 0.1, 0.2, 0.7, np.array([2, 3, 0, 1]), rows, 3, mark
            )
            assert np.allclose(e1c, 0.7 * eW1[:, :, [2, 3, 0, 1]]) and np.allclose(t2c, 0.7 * tW2[:, :, [2, 3, 0, 1]])
        # λ = 0 empties the row list and zeroes the traces
        assert td_net.update_remap_rows(W1b, W2b, e1b, t2b, delta, 0.1, 0.2, 0.0, np.arange(n_out), rows, 3, mark) == 0
        assert not e1b.any() and not t2b.any() and not mark.any()


# ----------------------------------------------------------------------------- choosers


def test_net_player_chooses_by_its_scores_and_takes_wins():
    m = TDGammon.new(8, 4, "relative", seed=2)
    p = NetPlayer(m)
    pos = bg.initial_position()
    b = bg.make_buffers()
    n = bg.gen_afterstates(pos, 6, 5, *b)
    after = b[0][:n]
    s = p.scores(pos, after)
    assert p.choose(pos, 6, 5, after) == int(np.argmax(s))
    assert s[0] == pytest.approx(-m.equity(bg.flipped(after[0])))
    # bearing off the last checker wins, whatever the net thinks
    q = np.zeros(28, np.int8)
    q[2], q[bg.OFF] = 1, 14
    q[20], q[bg.OPP_OFF] = -15, 0
    n = bg.gen_afterstates(q, 3, 1, *b)
    k = p.choose(q, 3, 1, b[0][:n])
    assert b[0][k][bg.OFF] == 15 and p.scores(q, b[0][:n])[k] == 2.0
    with pytest.raises(ValueError, match="plies"):
        NetPlayer(m, plies=3)


def test_two_ply_value_is_the_average_of_the_opponents_best_replies():
    m = TDGammon.new(8, 1, "tesauro", seed=5)
    pos = bg.initial_position()
    after = bg.apply_hops(pos, [(8, 5), (6, 5)])
    v = value_2ply(m.arrays, 0, after, m.buffers(two_ply=True))
    opp = bg.flipped(after)
    total = 0.0
    for d1 in range(1, 7):
        for d2 in range(1, 7):
            b = bg.make_buffers()
            n = bg.gen_afterstates(opp, d1, d2, *b)
            total += -max(-m.equity(bg.flipped(a), 0) for a in b[0][:n])
    assert v == pytest.approx(total / 36, abs=1e-12)


def test_net_matches_use_the_same_duplicate_dice():
    m = TDGammon.new(10, 4, "relative", seed=3)
    r = run_match(NetPlayer(m), NetPlayer(m), 20, seed=7, progress=False)
    assert np.all(r.points[:, 0] == -r.points[:, 1])  # identical players: pairs cancel
    # with pubeval on both sides the net kernel reproduces the plain kernel's games
    out = np.zeros((20, 2), np.int64)
    play_pairs(KIND_PUBEVAL, KIND_PUBEVAL, load_pubeval_weights(), 7, 0, 20, out, np.zeros((20, 2), np.int64))
    assert np.array_equal(run_match(PubevalPlayer(), PubevalPlayer(), 20, seed=7, progress=False).points, out)

    # the Python loop (used against gnubg) plays the same games as the jitted one
    class Slow(NetPlayer):
        kind = None

    for enc in ("relative", "tesauro"):
        m = TDGammon.new(10, 4, enc, seed=3)
        fast = run_match(NetPlayer(m), RandomPlayer(), 6, seed=8, progress=False)
        slow = run_match(Slow(m), RandomPlayer(), 6, seed=8, progress=False)
        assert np.array_equal(fast.points, slow.points)


# ----------------------------------------------------------------------------- persistence


def test_save_load_round_trip_and_refusals(tmp_path):
    m = TDGammon.new(6, 4, "tesauro", seed=1)
    p = m.save(tmp_path / "n.npz", note="x")
    m2 = TDGammon.load(p, hidden=6, outputs=4)
    assert np.array_equal(m2.net.W1, m.net.W1) and m2.encoding == "tesauro" and m2.info["note"] == "x"
    with pytest.raises(ValueError, match="n_hidden"):
        TDGammon.load(p, hidden=80)
    bad = tmp_path / "bad.npz"
    bad.write_bytes(p.read_bytes()[:200])
    with pytest.raises(ValueError, match="not a readable"):
        TDGammon.load(bad)
    plain = TDNet(196, 5, 4).save(tmp_path / "plain.npz")
    with pytest.raises(ValueError, match="not a TD-Gammon"):
        TDGammon.load(plain)
    wrong = TDNet(198, 5, 4).save(tmp_path / "wrong.npz", td_gammon="tdbook.TDGammon/1", encoding="relative")
    with pytest.raises(ValueError, match="196 inputs"):
        TDGammon.load(wrong)
    nan = TDGammon.new(6, 1, "relative")
    nan.net.W2[0, 0] = np.nan
    with pytest.raises(ValueError, match="non-finite"):
        TDGammon.load(nan.net.save(tmp_path / "nan.npz", td_gammon="tdbook.TDGammon/1", encoding="relative"))
    with pytest.raises(ValueError, match="encoding"):
        TDGammon.new(6, 1, "absolute")
    with pytest.raises(ValueError, match="outputs"):
        TDGammon.new(6, 3)
