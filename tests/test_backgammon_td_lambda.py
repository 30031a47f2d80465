"""Issue 51's TD(λ) in the symmetric-gammon trainer: λ = 0 is the TD(0) of before bit for bit (a plain game loop of
the public kernels), λ > 0 equals a plain reference whose traces are kept in the mover's frame and swapped each ply
(the kernel keeps them in colour 0's), each output's gradient is the TD(0) update's for that output alone, the same
seed gives the same bytes, a bad λ changes nothing, and the command line records, names and resumes a λ run."""

from __future__ import annotations

import numpy as np
import pytest

from tdbook.core.rng import seed_state
from tdbook.experiments.backgammon.match import sample_positions
from tdbook.games import backgammon as bg
from tdbook.learners import backgammon_symmetric as sym
from tdbook.learners.backgammon_symmetric import SymmetricGammon

SWAP = [0, 2, 1, 4, 3]  # an output of the other side's frame: (w, gw, gl, bgw, bgl) → (1 − w, gl, gw, bgl, bgw)


def _net(arch: str = "free", inputs: str = "positional", backgammons: bool = True, bearoff: bool = False):
    model = SymmetricGammon.new(arch, hidden=5, seed=3, inputs=inputs, backgammons=backgammons)
    rng = np.random.default_rng(8)
    model.W1[:] = rng.normal(0.0, 0.3, model.W1.shape)
    model.W2[:] = rng.normal(0.0, 0.3, model.W2.shape)
    model = SymmetricGammon(model.net, arch, inputs=inputs)  # the slots the architecture does not use back at zero
    return model.with_bearoff() if bearoff else model


def _gradients(model, idx, val, nnz, g, z):
    """Each output's gradient (of W1, W2) as the TD(0) update computes it: :func:`td_update` with δ = that output's
    unit vector and α = 1 (it writes W1 without reading it, so W1's gradient is exact from zeros)."""
    out = []
    for k in range(model.outputs):
        d1, d2 = np.zeros_like(model.W1), model.W2.copy()
        unit = np.eye(model.outputs)[k]
        sym.td_update(model.code, d1, d2, idx, val, nnz, 1.0, g, z, unit, 1.0)
        out.append((d1, d2 - model.W2))
    return out


def _reference(model, seed: int, first: int, n_games: int, alpha: float, lam: float) -> None:
    """Self-play TD(λ) written plainly: the game loop of ``train_games`` from the public kernels; λ = 0 updates by
    ``td_update``, λ > 0 keeps a trace per output in the frame of the side on roll, swapped into the next mover's
    frame each ply (P(win) negated, gammons and backgammons exchanged), ``θ += α Σ_k δ_k e_k``."""
    arch, W1, W2, bo, n_out = model.code, model.W1, model.W2, model.table, model.outputs
    out, mv, ws = bg.make_buffers()
    scores, tmp = np.zeros(bg.MAX_AFTER), np.zeros(bg.NSLOT, np.int8)
    idx, val, g, z, p = model.scratch()
    perm = SWAP[:n_out]
    for gi in range(n_games):
        rng = seed_state(seed, first + gi)
        pos = bg.initial_position()
        _, d1, d2 = bg.opening_roll(rng)
        cur = None
        E1, E2 = np.zeros((n_out, *W1.shape)), np.zeros((n_out, *W2.shape))

        def step(cur, target):
            nonlocal E1, E2
            c_idx, c_val, c_nnz, c_g, c_z, c_p = cur
            delta = np.asarray(target) - c_p
            if lam == 0.0:
                sym.td_update(arch, W1, W2, c_idx, c_val, c_nnz, 1.0, c_g, c_z, delta, alpha)
                return
            grads = _gradients(model, c_idx, c_val, c_nnz, c_g, c_z)
            E1, E2 = E1[perm], E2[perm]  # the last position was the other side's
            E1[0] *= -1.0
            E2[0] *= -1.0
            for k in range(n_out):
                E1[k] = lam * E1[k] + grads[k][0]
                E2[k] = lam * E2[k] + grads[k][1]
            W1[:] += alpha * np.einsum("k,kij->ij", delta, E1)
            W2[:] += alpha * np.einsum("k,kij->ij", delta, E2)

        while True:
            n = bg.gen_afterstates(pos, d1, d2, out, mv, ws)
            a = out[sym.choose_1ply(arch, W1, W2, bo, out, n, scores, tmp, idx, val, g, z, p)].copy()
            if a[bg.OFF] == 15:
                mult = bg.win_multiplier(a)
                if cur is not None and cur[2] >= 0:
                    step(cur, [1.0, float(mult >= 2), 0.0, float(mult == 3), 0.0][:n_out])
                break
            nxt = bg.flipped(a)
            nnz = sym.evaluate(arch, W1, W2, bo, nxt, idx, val, g, z, p)
            if cur is not None and cur[2] >= 0:
                step(cur, [1.0 - p[0], p[2], p[1], *([p[4], p[3]] if n_out == 5 else [])])
                if nnz >= 0:
                    sym.forward(arch, W1, W2, idx, val, nnz, 1.0, g, z, p)
            cur = (idx[: max(nnz, 0)].copy(), val[: max(nnz, 0)].copy(), nnz, g.copy(), z.copy(), p.copy())
            pos = nxt
            d1, d2 = bg.roll(rng)


@pytest.mark.parametrize(
    "arch,inputs,backgammons,bearoff",
    [("free", "positional", True, False), ("free", "positional", True, True), ("symmetric", "raw", False, False)],
)
def test_lambda_zero_is_the_plain_td0_loop_bit_for_bit(arch, inputs, backgammons, bearoff):
    ours, default, ref = (_net(arch, inputs, backgammons, bearoff) for _ in range(3))
    s1 = ours.train(1, 7, 4, 0.1, lam=0.0)
    s2 = default.train(1, 7, 4, 0.1)
    _reference(ref, 1, 7, 4, 0.1, 0.0)
    assert np.array_equal(s1, s2)
    for m in (default, ref):
        assert np.array_equal(ours.W1, m.W1) and np.array_equal(ours.W2, m.W2)


@pytest.mark.parametrize(
    "arch,inputs,backgammons,bearoff,lam",
    [
        ("free", "positional", True, False, 0.7),
        ("free", "positional", True, True, 0.5),
        ("free", "raw", False, False, 1.0),
        ("symmetric", "expanded", False, False, 0.7),
        ("naive", "raw", False, False, 0.9),
    ],
)
def test_lambda_traces_equal_a_plain_reference_in_the_movers_frame(arch, inputs, backgammons, bearoff, lam):
    ours, ref, td0 = (_net(arch, inputs, backgammons, bearoff) for _ in range(3))
    ours.train(2, 0, 3, 0.05, lam=lam)
    _reference(ref, 2, 0, 3, 0.05, lam)
    assert np.allclose(ours.W1, ref.W1, rtol=0, atol=1e-10) and np.allclose(ours.W2, ref.W2, rtol=0, atol=1e-10)
    td0.train(2, 0, 3, 0.05)
    assert np.abs(ours.W1 - td0.W1).max() > 1e-4  # the traces did move the weights differently


@pytest.mark.parametrize("arch,backgammons", [("free", True), ("free", False), ("symmetric", False), ("naive", False)])
def test_output_gradients_are_the_td0_updates_one_output_at_a_time(arch, backgammons):
    model = _net(arch, "contact", backgammons)
    positions, _ = sample_positions(3, seed=5, every=9)
    idx, val, g, z, p = model.scratch()
    gy, g2 = np.zeros((model.outputs, model.hidden)), np.zeros((model.outputs, *model.W2.shape))
    for pos in positions[:6]:
        nnz = sym.evaluate(model.code, model.W1, model.W2, model.table, pos, idx, val, g, z, p)
        sym.output_gradients(model.code, model.W2, g, z, gy, g2)
        for k, (d1, d2) in enumerate(_gradients(model, idx, val, nnz, g, z)):
            assert np.allclose(d2, g2[k], rtol=0, atol=1e-15)
            assert np.allclose(d1[-1], gy[k], rtol=0, atol=1e-15)  # the bias row: input 1
            for a in range(nnz):
                assert np.allclose(d1[idx[a]], val[a] * gy[k], rtol=0, atol=1e-15)


def test_same_seed_same_bytes_and_a_bad_lambda_changes_nothing():
    a, b = _net(), _net()
    sa = a.train(4, 100, 6, 0.05, lam=0.7)
    sb = b.train(4, 100, 6, 0.05, lam=0.7)
    assert np.array_equal(sa, sb) and a.W1.tobytes() == b.W1.tobytes() and a.W2.tobytes() == b.W2.tobytes()
    before = (a.W1.copy(), a.W2.copy())
    for bad in (-0.1, 1.01, float("nan")):
        with pytest.raises(ValueError, match="lambda must be in"):
            a.train(4, 106, 3, 0.05, lam=bad)
    assert np.array_equal(a.W1, before[0]) and np.array_equal(a.W2, before[1])


def test_cli_lambda_zero_leaves_the_spec_as_before(tmp_path):
    """``--lambda 0`` is the TD(0) run of before: no λ in its spec, so a TD(0) run's checkpoints still resume it (the
    λ run's name, record and resume: ``test_backgammon_lookahead.py``'s test of the trainer's levers)."""
    from tdbook.experiments.backgammon.symmetric_gammon_cli import train_main

    base = ["--arch", "free", "--hidden", "4", "--checkpoint-every", "20", "--pubeval-pairs", "5", "--no-progress"]
    ck = tmp_path / "p.ckpt.npz"
    plain = tmp_path / "plain.npz"
    assert train_main([*base, "--games", "20", "--out", str(plain), "--checkpoint", str(ck)]) == 0
    assert train_main([*base, "--lambda", "0", "--games", "40", "--out", str(plain), "--checkpoint", str(ck)]) == 0
    model = SymmetricGammon.load(plain)
    assert "lam" not in model.info["spec"] and model.info["games_done"] == 40
    by_hand = SymmetricGammon.new("free", hidden=4, seed=1)
    by_hand.train(1, 0, 40, 0.1)
    assert np.array_equal(by_hand.W1, model.W1) and np.array_equal(by_hand.W2, model.W2)
