"""Notebook 09's nets: flip symmetry to rounding for random positions and weights, the tied gradients
against finite differences, the naive net's forced P(gammon win) = 1/4 before the opening roll, the
equity formula, training determinism and the weights file."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tdbook.experiments.backgammon.match import sample_positions
from tdbook.games import backgammon as bg
from tdbook.learners import backgammon_symmetric as sym
from tdbook.learners.backgammon_symmetric import SymmetricGammon

POSITIONS, _ = sample_positions(12, seed=3, every=2)


def _random_net(
    arch: str, seed: int, scale: float = 1.0, inputs: str = "raw", backgammons: bool = False
) -> SymmetricGammon:
    model = SymmetricGammon.new(arch, hidden=7, seed=seed, inputs=inputs, backgammons=backgammons)
    rng = np.random.default_rng(seed)
    model.W1[:] = rng.normal(0.0, scale, model.W1.shape)
    model.W2[:] = rng.normal(0.0, scale, model.W2.shape)
    return SymmetricGammon(model.net, arch, inputs=inputs)  # re-zero the slots the architecture does not use


@settings(max_examples=60, deadline=None)
@given(
    arch=st.sampled_from(["symmetric", "naive"]),
    inputs=st.sampled_from(list(sym.INPUTS)),
    seed=st.integers(0, 2**31),
    k=st.integers(0, len(POSITIONS) - 1),
)
def test_flip_symmetry_to_rounding(arch, inputs, seed, k):
    model = _random_net(arch, seed, scale=2.0, inputs=inputs)
    pos = POSITIONS[k]
    z, p = model.nodes(pos, 1.0)  # the side on roll's frame
    zf, pf = model.nodes(bg.flipped(pos), -1.0)  # the same board in the other side's frame, it not on roll
    assert abs(z[0] + zf[0] - 1.0) <= 1e-12  # P(win)(x) + P(win)(flip x) = 1
    assert abs(z[2] - zf[1]) <= 1e-12  # P(gl|l)(x) = P(gw|w)(flip x)
    assert abs(p[1] - pf[2]) <= 1e-12 and abs(p[2] - pf[1]) <= 1e-12


def test_free_net_is_not_symmetric():
    """The check above can fail: the unconstrained net breaks it."""
    model = _random_net("free", 5)
    pos = POSITIONS[3]
    p = model.probabilities(pos)
    pf = model.probabilities(bg.flipped(pos))
    assert abs(p[0] + pf[0] - 1.0) > 1e-3


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_naive_net_gives_a_quarter_before_the_opening_roll(seed):
    naive = _random_net("naive", seed, scale=3.0)
    z, p = naive.nodes(bg.initial_position(), 0.0)
    assert z[0] == 0.5 and p[1] == 0.25 and p[2] == 0.25
    biased = _random_net("symmetric", seed, scale=3.0)
    z, p = biased.nodes(bg.initial_position(), 0.0)
    assert z[0] == 0.5 and abs(p[1] - 0.25) > 1e-3 and p[1] == p[2]


def test_equity_formula_on_hand_made_outputs():
    # P(w) = 0.6, P(gw|w) = 0.25, P(gl|l) = 0.5: E = 0.6·1.25 − 0.4·1.5 = 0.15
    p = np.array([0.6, 0.6 * 0.25, 0.4 * 0.5])
    assert sym.equity(p) == pytest.approx(0.15, abs=1e-15)
    assert sym.equity(np.array([1.0, 1.0, 0.0])) == 2.0
    assert sym.equity(np.array([0.0, 0.0, 1.0])) == -2.0
    # with backgammon outputs a backgammon is worth 3: P(w) = 0.6, P(gw) = 0.15, P(gl) = 0.2, P(bgw) = 0.05,
    # P(bgl) = 0.1: E = 0.15 + 0.05 − 0.1 = 0.1
    assert sym.equity(np.array([0.6, 0.15, 0.2, 0.05, 0.1])) == pytest.approx(0.1, abs=1e-15)
    assert sym.equity(np.array([1.0, 1.0, 0.0, 1.0, 0.0])) == 3.0
    assert sym.equity(np.array([0.0, 0.0, 1.0, 0.0, 1.0])) == -3.0


@pytest.mark.parametrize(
    "arch,backgammons,k",
    [(a, False, k) for a in ("symmetric", "naive", "free") for k in range(3)] + [("free", True, k) for k in range(5)],
)
@pytest.mark.parametrize("inputs", list(sym.INPUTS))
def test_tied_gradient_matches_finite_differences(arch, backgammons, k, inputs):
    model = _random_net(arch, 11 + k, scale=0.7, inputs=inputs, backgammons=backgammons)
    pos = POSITIONS[5]
    idx, val, g, z, p = model.scratch()
    nnz = sym.encode(model.code, pos, idx, val)
    s = 1.0

    def out(W1, W2):
        gg, zz, pp = np.zeros_like(g), np.zeros_like(z), np.zeros_like(p)
        sym.forward(model.code, W1, W2, idx, val, nnz, s, gg, zz, pp)
        return pp[k]

    sym.forward(model.code, model.W1, model.W2, idx, val, nnz, s, g, z, p)
    W1, W2 = model.W1.copy(), model.W2.copy()
    delta = np.zeros(model.outputs)
    delta[k] = 1.0
    sym.td_update(model.code, W1, W2, idx, val, nnz, s, g, z, delta, 1.0)
    analytic = [W1 - model.W1, W2 - model.W2]
    eps = 1e-6
    rows = sorted(set(idx[:nnz].tolist())) + [model.W1.shape[0] - 1]
    for which, W in ((0, model.W1), (1, model.W2)):
        for i in rows if which == 0 else range(W.shape[0]):
            for j in range(W.shape[1]):
                Wp, Wm = W.copy(), W.copy()
                Wp[i, j] += eps
                Wm[i, j] -= eps
                args_p = (Wp, model.W2) if which == 0 else (model.W1, Wp)
                args_m = (Wm, model.W2) if which == 0 else (model.W1, Wm)
                fd = (out(*args_p) - out(*args_m)) / (2 * eps)
                if which == 1 and model.kind != sym.ARCH_FREE and (j == 2 or (i == W.shape[0] - 1 and j == 0)):
                    assert analytic[1][i, j] == 0.0  # slots the architecture does not use never move
                    continue
                if which == 1 and model.kind == sym.ARCH_NAIVE and i == W.shape[0] - 1:
                    assert analytic[1][i, j] == 0.0
                    continue
                assert analytic[which][i, j] == pytest.approx(fd, abs=1e-7), (which, i, j)


def test_training_is_deterministic_and_learns_something():
    a = SymmetricGammon.new("symmetric", hidden=10, seed=4)
    b = SymmetricGammon.new("symmetric", hidden=10, seed=4)
    sa = a.train(seed=9, first_game=0, n_games=30)
    sb = b.train(seed=9, first_game=0, n_games=20)
    sb2 = b.train(seed=9, first_game=20, n_games=10)
    assert np.array_equal(a.W1, b.W1) and np.array_equal(a.W2, b.W2)  # resumed = uninterrupted
    assert np.array_equal(sa, np.concatenate([sb, sb2]))
    fresh = SymmetricGammon.new("symmetric", hidden=10, seed=4)
    assert not np.array_equal(fresh.W1, a.W1)
    assert a.W2[-1, 0] == 0.0 and np.all(a.W2[:, 2] == 0.0)  # P(win) has no bias, column 2 unused


def test_weights_file_round_trip_and_refusals(tmp_path):
    a = SymmetricGammon.new("naive", hidden=6, seed=2)
    a.train(seed=1, first_game=0, n_games=3)
    path = a.save(tmp_path / "n.npz", games=3)
    b = SymmetricGammon.load(path)
    assert b.arch == "naive" and np.array_equal(a.W1, b.W1) and b.info["games"] == 3
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a zip")
    with pytest.raises(ValueError, match="not a zip archive"):
        SymmetricGammon.load(bad)
    trunc = tmp_path / "trunc.npz"
    trunc.write_bytes(path.read_bytes()[:200])
    with pytest.raises(ValueError, match="bad.npz|trunc.npz"):
        SymmetricGammon.load(trunc)
    from tdbook.learners.td_net import TDNet

    TDNet(98, 4, 3).save(tmp_path / "plain.npz")
    with pytest.raises(ValueError, match="not a symmetric-gammon weights file"):
        SymmetricGammon.load(tmp_path / "plain.npz")
    with pytest.raises(ValueError, match="unknown architecture"):
        SymmetricGammon.new("tied", hidden=3)
    with pytest.raises(ValueError, match="unknown input set"):
        SymmetricGammon.new("free", hidden=3, inputs="gnubg")
    x = SymmetricGammon.new("free", hidden=4, seed=1, inputs="expanded")
    y = SymmetricGammon.load(x.save(tmp_path / "x.npz"))
    assert y.inputs == "expanded" and y.net.n_in == 196 + 8 and np.array_equal(x.W1, y.W1)
    assert np.array_equal(x.probabilities(POSITIONS[4]), y.probabilities(POSITIONS[4]))
    with pytest.raises(ValueError, match="on raw inputs has 196 inputs"):
        SymmetricGammon(y.net, "free")  # expanded weights read as raw: refused, not misread


@pytest.mark.parametrize("inputs,nf", [("expanded", 4), ("contact", 7), ("positional", 18)])
def test_feature_encodings_append_each_sides_features(inputs, nf):
    from tdbook.games.backgammon_encoding import encode_dense
    from tdbook.games.backgammon_features import features

    for pos in POSITIONS[::5]:
        f = features(pos, nf)
        for arch, want in (
            ("free", np.concatenate([encode_dense(pos, 0, False), f])),
            ("symmetric", np.concatenate([(lambda x: x[:98] - x[98:])(encode_dense(pos, 0, False)), f[:nf] - f[nf:]])),
        ):
            m = SymmetricGammon.new(arch, hidden=2, inputs=inputs)
            idx, val, *_ = m.scratch()
            nnz = sym.encode(m.code, pos, idx, val)
            x = np.zeros(m.net.n_in)
            np.add.at(x, idx[:nnz], val[:nnz])
            assert np.array_equal(x, want), arch


@pytest.mark.parametrize("arch", ["symmetric", "free"])
def test_widening_keeps_the_function_and_zeroes_the_new_inputs(arch):
    small = _random_net(arch, 5, inputs="expanded")
    wide = small.widen("contact")
    assert wide.inputs == "contact" and wide.net.n_in == small.net.n_in + (6 if arch == "free" else 3)
    for pos in POSITIONS[::3]:
        assert np.array_equal(small.probabilities(pos), wide.probabilities(pos))
    new_rows = [102, 103, 104] if arch == "symmetric" else [200, 201, 202, 207, 208, 209]
    assert not wide.W1[new_rows].any() and wide.W1[new_rows[0] - 1].any()
    assert np.array_equal(
        _random_net(arch, 6).widen("contact").probabilities(POSITIONS[2]),
        _random_net(arch, 6).probabilities(POSITIONS[2]),
    )
    with pytest.raises(ValueError, match="cannot widen a net on contact inputs to the smaller expanded set"):
        wide.widen("expanded")
    wider = wide.widen("positional")  # contact → positional: the eleven new inputs per side start at zero
    assert wider.net.n_in == wide.net.n_in + (22 if arch == "free" else 11)
    for pos in POSITIONS[::3]:
        assert np.array_equal(wide.probabilities(pos), wider.probabilities(pos))


def test_backgammon_outputs_warm_start_keeps_the_net_and_are_refused_where_they_do_not_fit():
    small = _random_net("free", 8, inputs="expanded")
    wide = small.with_backgammons()
    assert wide.outputs == 5 and wide.describe() == "free 204-7-5 (expanded inputs, backgammon outputs)"
    for pos in POSITIONS[::3]:
        p, q = small.probabilities(pos), wide.probabilities(pos)
        assert np.array_equal(p, q[:3])  # the three outputs it had are untouched
        assert q[3] < p[1] and q[4] < p[2]  # each backgammon node starts below its gammon node
    with pytest.raises(ValueError, match="has backgammon outputs already"):
        wide.with_backgammons()
    with pytest.raises(ValueError, match="'free' architecture only"):
        _random_net("symmetric", 8).with_backgammons()
    with pytest.raises(ValueError, match="'free' architecture only"):
        SymmetricGammon.new("naive", hidden=3, backgammons=True)
    with pytest.raises(ValueError, match="3 output columns, this one has 98 and 5"):
        SymmetricGammon(SymmetricGammon.new("free", hidden=3, backgammons=True).net.__class__(98, 3, 5), "symmetric")


def _reference_game(model: SymmetricGammon, seed: int, game: int, alpha: float) -> int:
    """One self-play TD(0) game written out plainly from the module's kernels (the targets spelled out: the next
    position's outputs seen from this side, (1 − w, gl, gw, bgl, bgw), and at the end (1, gammon?, 0,
    backgammon?, 0)); returns the winner's points."""
    from tdbook.core.rng import seed_state

    code, W1, W2 = model.code, model.W1, model.W2
    out_pos, out_mv, ws = bg.make_buffers()
    scores, tmp = np.zeros(bg.MAX_AFTER), np.zeros(bg.NSLOT, np.int8)
    idx, val, g, z, p = model.scratch()
    rng = seed_state(seed, game)
    pos = bg.initial_position().astype(np.int8)
    _, d1, d2 = bg.opening_roll(rng)
    prev = None
    while True:
        n = bg.gen_afterstates(pos, d1, d2, out_pos, out_mv, ws)
        k = sym.choose_1ply(code, W1, W2, sym.NO_TABLE, out_pos, n, scores, tmp, idx, val, g, z, p)
        a = out_pos[k].copy()
        if a[bg.OFF] == 15:
            mult = bg.win_multiplier(a)
            target = np.array([1.0, float(mult >= 2), 0.0, float(mult == 3), 0.0])
            pi, pv, pn, pg, pz, pp = prev
            sym.td_update(code, W1, W2, pi, pv, pn, 1.0, pg, pz, target - pp, alpha)
            return int(mult)
        nxt = bg.flipped(a)
        nnz = sym.encode(code, nxt, idx, val)
        sym.forward(code, W1, W2, idx, val, nnz, 1.0, g, z, p)
        if prev is not None:
            target = np.array([1.0 - p[0], p[2], p[1], p[4], p[3]])
            pi, pv, pn, pg, pz, pp = prev
            sym.td_update(code, W1, W2, pi, pv, pn, 1.0, pg, pz, target - pp, alpha)
            sym.forward(code, W1, W2, idx, val, nnz, 1.0, g, z, p)
        prev = (idx.copy(), val.copy(), nnz, g.copy(), z.copy(), p.copy())
        pos = nxt
        d1, d2 = bg.roll(rng)


def test_backgammon_outputs_learn_from_backgammons_as_the_reference_game_does():
    """The jitted trainer's updates of a 5-output net equal the plain reference game's, on a game that ends in a
        backgammon, one that ends in a gammon (the terminal targets of the gammon and backgammon nodes differ only
    there) and one that ends in a single win."""
    seen = set()
    for game in range(200):  # each game from the same fresh net
        a = SymmetricGammon.new("free", hidden=6, seed=2, backgammons=True)
        b = SymmetricGammon.new("free", hidden=6, seed=2, backgammons=True)
        mult = abs(int(a.train(seed=8, first_game=game, n_games=1, alpha=0.05)[0, 0]))
        if mult in seen:
            continue
        seen.add(mult)
        assert _reference_game(b, 8, game, 0.05) == mult
        assert np.allclose(a.W1, b.W1, rtol=0, atol=1e-12) and np.allclose(a.W2, b.W2, rtol=0, atol=1e-12)
        if seen == {1, 2, 3}:
            break
    assert seen == {1, 2, 3}, seen


def test_difference_encoding_is_the_blocks_difference():
    from tdbook.games.backgammon_encoding import encode_dense

    for pos in POSITIONS[::7]:
        x = encode_dense(pos, 0, False)
        idx, val, *_ = SymmetricGammon.new("symmetric", hidden=2).scratch()
        nnz = sym.encode(sym.ARCH_SYMMETRIC, pos, idx, val)
        d = np.zeros(98)
        np.add.at(d, idx[:nnz], val[:nnz])
        assert np.array_equal(d, x[:98] - x[98:196])
        assert len(set(idx[:nnz].tolist())) == nnz and np.all(val[:nnz] != 0)
    idx, val, *_ = SymmetricGammon.new("symmetric", hidden=2).scratch()
    assert sym.encode(sym.ARCH_SYMMETRIC, bg.initial_position(), idx, val) == 0  # the start is its own mirror


def test_cli_resumes_to_the_uninterrupted_weights_and_refuses_bad_files(tmp_path, capsys):
    from tdbook.experiments.backgammon.symmetric_gammon_cli import train_main

    base = ["--arch", "symmetric", "--hidden", "6", "--checkpoint-every", "50", "--pubeval-pairs", "5", "--no-progress"]
    one = tmp_path / "one.npz"
    assert train_main([*base, "--games", "150", "--out", str(one), "--checkpoint", str(tmp_path / "one.ckpt.npz")]) == 0
    two = tmp_path / "two.npz"
    ck = tmp_path / "two.ckpt.npz"
    assert train_main([*base, "--games", "100", "--out", str(two), "--checkpoint", str(ck)]) == 0
    assert train_main([*base, "--games", "150", "--out", str(two), "--checkpoint", str(ck)]) == 0  # resumes at 100
    a, b = SymmetricGammon.load(one), SymmetricGammon.load(two)
    assert np.array_equal(a.W1, b.W1) and np.array_equal(a.W2, b.W2)
    ck.write_bytes(b"garbage")
    capsys.readouterr()
    assert train_main([*base, "--games", "200", "--out", str(two), "--checkpoint", str(ck)]) == 2
    assert str(ck) in capsys.readouterr().err
    other = tmp_path / "other.ckpt.npz"
    SymmetricGammon.new("free", hidden=6).save(other)
    assert train_main([*base, "--games", "200", "--out", str(two), "--checkpoint", str(other)]) == 2
    assert "another run" in capsys.readouterr().err
    from tdbook.core.paths import data_dir

    shipped = data_dir() / "symgammon_symmetric40_raw_150k.npz"
    assert train_main([*base, "--games", "50", "--out", str(shipped)]) == 2
    assert "--force" in capsys.readouterr().err


def test_cli_anneals_in_a_third_stage_and_resumes_a_run_before_it(tmp_path, capsys):
    """The annealed third stage: a checkpoint of the two-stage run resumes into it (its games are the same
    games), equals the run that had the third stage from the start, and a checkpoint past its start is refused."""
    from tdbook.experiments.backgammon.symmetric_gammon_cli import train_main

    base = ["--arch", "free", "--hidden", "5", "--checkpoint-every", "40", "--pubeval-pairs", "5", "--no-progress"]
    two = [*base, "--alpha-late", "0.05", "--late-after", "40"]
    three = [*two, "--alpha-final", "0.01", "--final-after", "80"]
    one = tmp_path / "one.npz"
    assert train_main([*three, "--games", "120", "--out", str(one), "--checkpoint", str(tmp_path / "o.ckpt.npz")]) == 0
    ck = tmp_path / "r.ckpt.npz"
    res = tmp_path / "r.npz"
    assert train_main([*two, "--games", "80", "--out", str(res), "--checkpoint", str(ck)]) == 0
    assert train_main([*three, "--games", "120", "--out", str(res), "--checkpoint", str(ck)]) == 0
    a, b = SymmetricGammon.load(one), SymmetricGammon.load(res)
    assert np.array_equal(a.W1, b.W1) and np.array_equal(a.W2, b.W2)
    assert SymmetricGammon.load(ck).info["spec"]["alpha_final"] == 0.01
    late = tmp_path / "late.ckpt.npz"
    assert train_main([*two, "--games", "120", "--out", str(tmp_path / "l.npz"), "--checkpoint", str(late)]) == 0
    assert not np.array_equal(SymmetricGammon.load(tmp_path / "l.npz").W1, a.W1)  # the third stage did change α
    before = late.read_bytes()
    capsys.readouterr()
    assert train_main([*three, "--games", "160", "--out", str(tmp_path / "l.npz"), "--checkpoint", str(late)]) == 2
    assert "another run" in capsys.readouterr().err and late.read_bytes() == before
    assert train_main([*base, "--alpha-final", "0.01", "--final-after", "80", "--games", "10"]) == 2
    assert "--alpha-late" in capsys.readouterr().err


def test_cli_warm_start_widens_a_trained_net_carries_on_its_games_and_resumes(tmp_path, capsys):
    """--warm-start: the widened net starts at the file's game count on the same dice streams, a checkpoint of
    the run resumes it to the uninterrupted weights, and a file of another run is refused, naming what differs."""
    from tdbook.experiments.backgammon.symmetric_gammon_cli import train_main

    base = ["--arch", "free", "--hidden", "5", "--checkpoint-every", "30", "--pubeval-pairs", "5", "--no-progress"]
    warm = tmp_path / "warm.npz"
    warm_ck = str(tmp_path / "w.ckpt.npz")  # not the default under build/: a test leaves the tree as it found it
    assert (
        train_main([*base, "--inputs", "expanded", "--games", "40", "--out", str(warm), "--checkpoint", warm_ck]) == 0
    )
    run = [*base, "--inputs", "contact", "--warm-start", str(warm)]
    one = tmp_path / "one.npz"
    assert train_main([*run, "--games", "100", "--out", str(one), "--checkpoint", str(tmp_path / "o.ckpt.npz")]) == 0
    a = SymmetricGammon.load(one)
    assert a.inputs == "contact" and a.info["games_done"] == 100
    assert a.info["spec"]["warm_start"]["games"] == 40 and len(a.info["spec"]["warm_start"]["sha256"]) == 64
    ck = tmp_path / "r.ckpt.npz"
    res = tmp_path / "r.npz"
    assert train_main([*run, "--games", "70", "--out", str(res), "--checkpoint", str(ck)]) == 0
    assert train_main([*run, "--games", "100", "--out", str(res), "--checkpoint", str(ck)]) == 0
    b = SymmetricGammon.load(res)
    assert np.array_equal(a.W1, b.W1) and np.array_equal(a.W2, b.W2)
    w = SymmetricGammon.load(warm)
    fresh = w.widen("contact")
    fresh.train(1, 40, 60, 0.1)  # the same games by hand: the file's net widened, games 40..99 at α 0.1
    assert np.array_equal(fresh.W1, a.W1)
    capsys.readouterr()
    assert train_main([*base, "--inputs", "contact", "--hidden", "6", "--warm-start", str(warm), "--games", "90"]) == 2
    assert "its hidden units is 5, this run's is 6" in capsys.readouterr().err
    assert train_main([*run, "--games", "30", "--out", str(tmp_path / "x.npz")]) == 2
    assert "40 games done; --games must be at least that" in capsys.readouterr().err
    other = tmp_path / "other.npz"
    w.W1[0, 0] += 1.0
    w.save(other, games_done=40, spec=w.info["spec"])  # another file: another SHA-256, another run
    before = ck.read_bytes()
    assert (
        train_main(
            [
                *base,
                "--inputs",
                "contact",
                "--warm-start",
                str(other),
                "--games",
                "110",
                "--out",
                str(res),
                "--checkpoint",
                str(ck),
            ]
        )
        == 2
    )
    assert "another run" in capsys.readouterr().err and ck.read_bytes() == before
    assert train_main([*run[:-1], str(tmp_path / "missing.npz"), "--games", "90"]) == 2
    assert "no such file" in capsys.readouterr().err


def test_cli_backgammon_outputs_from_scratch_and_by_warm_start(tmp_path, capsys):
    """--backgammon-outputs: a 5-output free net from scratch, or a 3-output net warm-started into one (its spec
    says so); refused for the symmetric archs and for a warm start that would drop a net's backgammon outputs."""
    from tdbook.experiments.backgammon.symmetric_gammon_cli import train_main

    base = ["--arch", "free", "--hidden", "5", "--checkpoint-every", "30", "--pubeval-pairs", "5", "--no-progress"]
    fresh = tmp_path / "fresh.npz"
    ck = ["--checkpoint", str(tmp_path / "f.ckpt.npz")]
    assert train_main([*base, "--backgammon-outputs", "--games", "40", "--out", str(fresh), *ck]) == 0
    f = SymmetricGammon.load(fresh)
    assert f.outputs == 5 and f.info["spec"]["backgammons"] is True
    three = tmp_path / "three.npz"
    assert train_main([*base, "--games", "40", "--out", str(three), "--checkpoint", str(tmp_path / "t.ckpt.npz")]) == 0
    warm = tmp_path / "warm.npz"
    run = [*base, "--backgammon-outputs", "--warm-start", str(three), "--games", "70", "--out", str(warm)]
    assert train_main([*run, "--checkpoint", str(tmp_path / "w.ckpt.npz")]) == 0
    w = SymmetricGammon.load(warm)
    by_hand = SymmetricGammon.load(three).with_backgammons()
    by_hand.train(1, 40, 30, 0.1)
    assert w.outputs == 5 and np.array_equal(w.W1, by_hand.W1) and np.array_equal(w.W2, by_hand.W2)
    capsys.readouterr()
    assert train_main([*base, "--warm-start", str(warm), "--games", "90", "--out", str(tmp_path / "x.npz")]) == 2
    assert "it has backgammon outputs; this run has none" in capsys.readouterr().err
    assert train_main(["--arch", "symmetric", "--backgammon-outputs", "--games", "10", "--no-progress"]) == 2
    assert "--backgammon-outputs is for --arch free only" in capsys.readouterr().err


def test_cli_bearoff_and_positional_warm_start_resume_to_the_uninterrupted_weights_and_keep_snapshots(tmp_path, capsys):
    """--bearoff with a warm start widened to the positional inputs: resumed equals from scratch, equals the same
    games by hand, snapshots are kept along the way (without changing the run), and a table net's file is refused
    by a run without the table."""
    from tdbook.experiments.backgammon.symmetric_gammon_cli import train_main

    base = ["--arch", "free", "--hidden", "4", "--checkpoint-every", "20", "--pubeval-pairs", "5", "--no-progress"]
    warm = tmp_path / "warm.npz"
    assert train_main([*base, "--inputs", "contact", "--backgammon-outputs", "--games", "20", "--out", str(warm),
                       "--checkpoint", str(tmp_path / "w.ckpt.npz")]) == 0  # fmt: skip
    run = [*base, "--inputs", "positional", "--backgammon-outputs", "--bearoff", "--warm-start", str(warm)]
    one = tmp_path / "one.npz"
    ck1 = tmp_path / "o.ckpt.npz"
    snap = ["--snapshot-every", "40"]
    assert train_main([*run, "--games", "80", "--out", str(one), "--checkpoint", str(ck1), *snap]) == 0
    a = SymmetricGammon.load(one)
    assert a.bearoff and a.inputs == "positional" and a.info["spec"]["bearoff"] is True
    snaps = sorted(p.name for p in tmp_path.glob("*.snap.npz"))
    assert snaps == ["one_40g.snap.npz", "one_80g.snap.npz"]  # off a whole thousand: named by the games
    assert SymmetricGammon.load(tmp_path / "one_80g.snap.npz").info["games_done"] == 80
    res, ck = tmp_path / "r.npz", tmp_path / "r.ckpt.npz"
    assert train_main([*run, "--games", "40", "--out", str(res), "--checkpoint", str(ck)]) == 0
    assert train_main([*run, "--games", "80", "--out", str(res), "--checkpoint", str(ck)]) == 0
    b = SymmetricGammon.load(res)
    assert np.array_equal(a.W1, b.W1) and np.array_equal(a.W2, b.W2)
    by_hand = SymmetricGammon.load(warm).widen("positional").with_bearoff()
    by_hand.train(1, 20, 60, 0.1)
    assert np.array_equal(by_hand.W1, a.W1)
    capsys.readouterr()
    assert train_main([*base, "--inputs", "positional", "--backgammon-outputs", "--warm-start", str(one),
                       "--games", "90", "--out", str(tmp_path / "x.npz")]) == 2  # fmt: skip
    assert "this run has no table (add --bearoff)" in capsys.readouterr().err
    same = tmp_path / "same.npz"  # no further games: the file's net with the table at play, nothing else
    args = ["--inputs", "contact", "--backgammon-outputs", "--bearoff", "--warm-start", str(warm), "--games", "20"]
    assert train_main([*base, *args, "--out", str(same), "--checkpoint", str(tmp_path / "s.ckpt.npz")]) == 0
    s, w = SymmetricGammon.load(same), SymmetricGammon.load(warm)
    assert s.bearoff and not w.bearoff and np.array_equal(s.W1, w.W1) and np.array_equal(s.W2, w.W2)
    assert s.info["games_done"] == 20 and not (tmp_path / "s.ckpt.npz").exists()


def test_free_parameters_are_counted_by_behaviour_and_a_wrong_node_would_show():
    """§13–§14 counted on nets: M − 1 for the P(win) node, M + 1 for the biased gammon node of (a), M − 1 for the
    naive gammon node of (b); a free net's nodes (bias and weights all free) give M + 1, so the count can fail."""
    from tdbook.experiments.backgammon.symmetric_gammon import free_parameters, trained_outputs

    positions = np.array(POSITIONS[:40])
    m = 7
    assert free_parameters(_random_net("symmetric", 1), positions) == {"win": m - 1, "gammon": m + 1}
    assert free_parameters(_random_net("naive", 2), positions) == {"win": m - 1, "gammon": m - 1}
    assert free_parameters(_random_net("free", 3), positions) == {"win": m + 1, "gammon": m + 1}
    assert trained_outputs(_random_net("symmetric", 1)) == 2 and trained_outputs(_random_net("free", 3)) == 3
    assert trained_outputs(_random_net("free", 3, backgammons=True)) == 5


def test_averaged_net_is_the_elementwise_mean_and_refuses_nets_that_do_not_match():
    a = SymmetricGammon.new("free", 4, seed=1, inputs="positional", backgammons=True)
    b = SymmetricGammon.new("free", 4, seed=2, inputs="positional", backgammons=True)
    m = SymmetricGammon.averaged([a, b])
    assert np.allclose(m.W1, (a.W1 + b.W1) / 2) and np.allclose(m.W2, (a.W2 + b.W2) / 2)
    assert np.array_equal(SymmetricGammon.averaged([a]).W1, a.W1) and m.W1 is not a.W1
    pos = bg.initial_position()
    assert m.equity(pos) != a.equity(pos)
    for other, what in (
        (SymmetricGammon.new("free", 5, seed=1, inputs="positional", backgammons=True), "hidden units"),
        (SymmetricGammon.new("free", 4, seed=1, inputs="positional"), "outputs"),
        (SymmetricGammon.new("free", 4, seed=1, inputs="positional", backgammons=True, bearoff=True), "bear-off"),
    ):
        with pytest.raises(ValueError, match=what):
            SymmetricGammon.averaged([a, other])
    with pytest.raises(ValueError, match="at least one"):
        SymmetricGammon.averaged([])


def test_cli_average_from_writes_the_mean_of_the_runs_snapshots_names_it_and_resumes_the_plain_run(tmp_path, capsys):
    """--average-from G: the same games as the plain run (whose checkpoint it resumes), the written net the mean of
    the snapshots from G games on, named with the lever; a missing snapshot and bad options are refused by name, and
    nothing is written."""
    import shutil

    from tdbook.experiments.backgammon.symmetric_gammon_cli import net_name, train_main

    base = ["--arch", "free", "--hidden", "4", "--inputs", "positional", "--backgammon-outputs",
            "--checkpoint-every", "20", "--pubeval-pairs", "5", "--no-progress"]  # fmt: skip
    plain, ck = tmp_path / "plain.npz", tmp_path / "plain.ckpt.npz"
    assert train_main([*base, "--games", "80", "--snapshot-every", "20", "--out", str(plain),
                       "--checkpoint", str(ck)]) == 0  # fmt: skip
    snaps = {g: SymmetricGammon.load(tmp_path / f"plain_{g}g.snap.npz") for g in (40, 60, 80)}
    avg = ["--average-from", "40", "--snapshot-every", "20", "--games", "80"]
    one = tmp_path / "one.npz"
    assert train_main([*base, *avg, "--out", str(one), "--checkpoint", str(tmp_path / "o.ckpt.npz")]) == 0
    a = SymmetricGammon.load(one)
    want = SymmetricGammon.averaged([snaps[40], snaps[60], snaps[80]])
    assert np.array_equal(a.W1, want.W1) and np.array_equal(a.W2, want.W2)
    assert not np.array_equal(a.W1, snaps[80].W1)
    assert a.info["averaged"] == {"from": 40, "every": 20, "nets": 3} and a.info["games_done"] == 80
    assert net_name(a.info["spec"], 80_000) == "symgammon_free4_positional_bg_averaged_80k"
    assert np.array_equal(SymmetricGammon.load(tmp_path / "o.ckpt.npz").W1, snaps[80].W1)  # the run's, not the mean
    # the plain run's checkpoint and snapshots, under the averaged run's names: resumed, no games played
    two, ck2 = tmp_path / "two.npz", tmp_path / "t.ckpt.npz"
    shutil.copy(ck, ck2)
    for g in (40, 60, 80):
        shutil.copy(tmp_path / f"plain_{g}g.snap.npz", tmp_path / f"two_{g}g.snap.npz")
    assert train_main([*base, *avg, "--out", str(two), "--checkpoint", str(ck2)]) == 0
    b = SymmetricGammon.load(two)
    assert np.array_equal(a.W1, b.W1) and np.array_equal(a.W2, b.W2)
    for g in (40, 80):  # one snapshot short
        shutil.copy(tmp_path / f"plain_{g}g.snap.npz", tmp_path / f"three_{g}g.snap.npz")
    capsys.readouterr()
    assert train_main([*base, *avg, "--out", str(tmp_path / "three.npz"), "--checkpoint", str(ck2)]) == 2
    assert "the snapshot at 60 games" in capsys.readouterr().err and not (tmp_path / "three.npz").exists()
    for bad, msg in (
        (["--average-from", "40", "--games", "80"], "needs --snapshot-every"),
        (["--average-from", "30", "--snapshot-every", "20", "--games", "80"], "must be multiples"),
        (["--average-from", "80", "--snapshot-every", "20", "--games", "80"], "must be in (0, --games)"),
    ):
        assert train_main([*base, *bad]) == 2
        assert msg in capsys.readouterr().err


@pytest.mark.parametrize("case", range(300))
def test_the_symmetric_forward_pass_shown_in_the_chapter_is_the_kernel(case):
    """Notebook 09 shows ``symmetric_outputs`` (numpy); play and training run the jitted ``forward``: on random
    weights, sides' units and side-to-move units, the same three outputs to rounding (numpy sums in another order and
    the kernel writes y − ½ as ½ tanh(a/2)), and swapping the players gives 1 − P(win) with the gammons exchanged."""
    gen = np.random.default_rng(case)
    hidden, n_in = int(gen.integers(1, 12)), 98
    W1, W2 = gen.normal(0, 0.5, (n_in + 1, hidden)), gen.normal(0, 0.5, (hidden + 1, sym.N_OUT))
    mover = gen.random(n_in) * (gen.random(n_in) < 0.2)
    opponent = gen.random(n_in) * (gen.random(n_in) < 0.2)
    on_roll = float(gen.choice([1.0, -1.0, 0.0]))
    ref = sym.symmetric_outputs(W1, W2, mover, opponent, on_roll)
    d = mover - opponent
    idx = np.flatnonzero(d).astype(np.int64)
    g, z, p = np.zeros(hidden), np.zeros(sym.N_OUT), np.zeros(sym.N_OUT)
    sym.forward(sym.kernel_code("symmetric"), W1, W2, idx, d[idx].copy(), len(idx), on_roll, g, z, p)
    assert np.allclose(p, ref, rtol=1e-12, atol=1e-14), case
    w, gw, gl = sym.symmetric_outputs(W1, W2, opponent, mover, -on_roll)
    assert np.allclose([w, gw, gl], [1.0 - ref[0], ref[2], ref[1]], rtol=1e-12, atol=1e-14), case
