"""TD-Gammon: the self-play TD(λ) kernel against a plain reference, choosers, checkpoints and resume."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from tdbook.core.rng import make_state
from tdbook.experiments import td_gammon as tg
from tdbook.experiments.backgammon_match import play_pairs, run_match
from tdbook.games import backgammon as bg
from tdbook.games.backgammon_encoding import encode_dense
from tdbook.learners import td_net
from tdbook.learners.td_gammon import (
    Scratch,
    TDGammon,
    train_games,
    value_2ply,
)
from tdbook.learners.td_net import TDNet
from tdbook.players.backgammon import KIND_PUBEVAL, NetPlayer, PubevalPlayer, RandomPlayer, load_pubeval_weights

ROOT = Path(__file__).resolve().parents[1]


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
    train_games(n.W1, n.W2, n.eW1, n.eW2, n.bias, n.hact, n.oact, n.dmode, a.mode, 0.5, 0.5, lam, 11, 3, 2, stats)
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
    s = Scratch(8, 1)
    pos = bg.initial_position()
    after = bg.apply_hops(pos, [(8, 5), (6, 5)])
    W1, W2, bias, ha, oa, mode = m.arrays
    v = value_2ply(
        W1, W2, bias, ha, oa, mode, 0, after, s.tmp, s.tmp2, s.idx, s.val, s.h, s.o, s.out2, s.mv2, s.ws2, s.scores2
    )
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


# ----------------------------------------------------------------------------- checkpoints and resume


SPEC = tg.TrainSpec(
    hidden=5, outputs=4, encoding="relative", alpha=0.1, lam=0.7, alpha_late=0.05, late_after=50, seed=3, games=90
)


def test_resume_after_an_interruption_gives_the_same_weights(tmp_path):
    whole, log = tg.train(
        SPEC, checkpoint=tmp_path / "a.npz", checkpoint_every=20, eval_every=30, eval_pairs=3, progress=False, chunk=7
    )
    assert log.games_done == 90 and [c.games for c in log.curve] == [0, 30, 60, 90]
    ck = tmp_path / "b.npz"
    part, plog = tg.train(
        SPEC, checkpoint=ck, checkpoint_every=20, eval_every=30, eval_pairs=3, progress=False, stop_after=47
    )  # "killed" after game 47: the checkpoint holds 40
    assert plog.games_done == 47 and TDGammon.load(ck).info["log"]["games_done"] == 40
    again, rlog = tg.train(SPEC, checkpoint=ck, checkpoint_every=20, eval_every=30, eval_pairs=3, progress=False)
    assert rlog.resumed_at == [40] and rlog.games_done == 90
    assert np.array_equal(again.net.W1, whole.net.W1) and np.array_equal(again.net.W2, whole.net.W2)
    assert [c.ppg for c in rlog.curve] == [c.ppg for c in log.curve]
    # a finished checkpoint is not trained further; other settings are refused
    done, dlog = tg.train(SPEC, checkpoint=ck, checkpoint_every=20, progress=False)
    assert np.array_equal(done.net.W1, whole.net.W1)
    with pytest.raises(ValueError, match="other settings"):
        tg.train(tg.TrainSpec(**{**SPEC.__dict__, "lam": 0.5}), checkpoint=ck, progress=False)
    with pytest.raises(ValueError, match="more than"):
        tg.train(tg.TrainSpec(**{**SPEC.__dict__, "games": 60}), checkpoint=ck, progress=False)
    # a finished run extended to more games equals a run asked for that many from the start
    longer = tg.TrainSpec(**{**SPEC.__dict__, "games": 120})
    ext, elog = tg.train(longer, checkpoint=ck, checkpoint_every=20, progress=False)
    ref, _ = tg.train(longer, progress=False)
    assert elog.games_done == 120 and elog.spec.games == 120 and np.array_equal(ext.net.W1, ref.net.W1)


def test_iterate_average_is_the_mean_of_the_weight_copies_and_survives_a_kill(tmp_path):
    avg_spec = tg.TrainSpec(**{**SPEC.__dict__, "average_from": 40, "average_every": 10})
    whole, log = tg.train(avg_spec, checkpoint=tmp_path / "a.npz", checkpoint_every=20, progress=False, chunk=7)
    assert log.averaged == 6  # after games 40, 50, …, 90
    s1, s2 = np.zeros_like(whole.net.W1), np.zeros_like(whole.net.W2)
    for g in range(40, 91, 10):  # the raw weights after g games, summed in order
        raw, _ = tg.train(tg.TrainSpec(**{**SPEC.__dict__, "games": g}), progress=False)
        s1 += raw.net.W1
        s2 += raw.net.W2
    assert np.array_equal(whole.net.W1, s1 / 6) and np.array_equal(whole.net.W2, s2 / 6)
    assert np.array_equal(TDGammon.load(tmp_path / "a.npz").net.W1, raw.net.W1)  # the checkpoint keeps the raw net
    # killed after game 67 (checkpoint at 60), resumed: the same average
    ck = tmp_path / "b.npz"
    tg.train(avg_spec, checkpoint=ck, checkpoint_every=20, progress=False, stop_after=67)
    again, rlog = tg.train(avg_spec, checkpoint=ck, checkpoint_every=20, progress=False)
    assert rlog.resumed_at == [60] and np.array_equal(again.net.W1, whole.net.W1)
    # a plain run's checkpoint from before the average starts may switch averaging on
    ck2 = tmp_path / "c.npz"
    tg.train(tg.TrainSpec(**{**SPEC.__dict__, "games": 40}), checkpoint=ck2, progress=False)
    cont, _ = tg.train(avg_spec, checkpoint=ck2, progress=False)
    assert np.array_equal(cont.net.W1, whole.net.W1) and np.array_equal(cont.net.W2, whole.net.W2)
    # …but not once averaging has begun, and a checkpoint that lost its running sum is refused
    with pytest.raises(ValueError, match="other settings"):
        tg.train(tg.TrainSpec(**{**avg_spec.__dict__, "average_every": 5}), checkpoint=ck, progress=False)
    bare = TDGammon.load(ck)
    bare.save(ck)  # the same log, without the running sum
    with pytest.raises(ValueError, match="running sum"):
        tg.train(avg_spec, checkpoint=ck, progress=False)
    with pytest.raises(ValueError, match="average_from"):
        tg.TrainSpec(games=10, average_from=11).check()
    assert "--average-from 40 --average-every 10" in avg_spec.command()


def test_train_spec_is_checked():
    with pytest.raises(ValueError, match="lambda"):
        tg.TrainSpec(lam=1.5).check()
    with pytest.raises(ValueError, match="alpha_late"):
        tg.TrainSpec(alpha_late=0.01).check()
    with pytest.raises(ValueError, match="hidden"):
        tg.TrainSpec(hidden=0).check()
    assert tg.TrainSpec(alpha=0.1, alpha_late=0.02, late_after=5).alpha_at(5) == 0.02


def test_killed_cli_run_resumes_to_the_uninterrupted_weights(tmp_path):
    """``python -m tdbook train backgammon`` killed with SIGKILL mid-run, then rerun: the same net as
    one uninterrupted run, and the sidecar records the command, the resume and the code version."""
    args = [
        "--hidden",
        "5",
        "--games",
        "6000",
        "--alpha",
        "0.1",
        "--lambda",
        "0.7",
        "--seed",
        "9",
        "--checkpoint-every",
        "200",
        "--eval-every",
        "0",
        "--no-progress",
    ]
    out, ck = tmp_path / "net.npz", tmp_path / "net.ckpt.npz"
    cmd = [sys.executable, "-m", "tdbook", "train", "backgammon", *args, "--out", str(out), "--checkpoint", str(ck)]
    env = {**os.environ, "NUMBA_NUM_THREADS": "1"}
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    t0 = time.time()
    while time.time() - t0 < 120:
        if ck.exists() and TDGammon.load(ck).info["log"]["games_done"] >= 400:
            break
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    killed_at = TDGammon.load(ck).info["log"]["games_done"]
    assert 400 <= killed_at < 6000 and not out.exists()
    assert subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True).returncode == 0
    spec = tg.TrainSpec(hidden=5, outputs=4, encoding="relative", alpha=0.1, lam=0.7, seed=9, games=6000)
    whole, _ = tg.train(spec, progress=False)
    got = TDGammon.load(out)
    assert np.array_equal(got.net.W1, whole.net.W1) and np.array_equal(got.net.W2, whole.net.W2)
    side = json.loads(out.with_suffix(".json").read_text())
    assert side["games"] == 6000 and side["seed"] == 9 and side["resumed_at"] == [killed_at]
    assert (
        side["command"].startswith("python -m tdbook train backgammon --hidden 5") and "tdbook" in side["code_version"]
    )


# ----------------------------------------------------------------------------- notebook helpers, widget, plots


def test_notebook_helpers():
    curve = [
        tg.CurvePoint(g, p, 0.05, 50.0)
        for g, p in [(0, -2.4), (10_000, -0.4), (50_000, 0.1), (90_000, 0.2), (100_000, 0.3), (110_000, 0.1)]
    ]
    assert tg.learning_share(curve, 50_000) == pytest.approx(2.5 / 2.6)
    assert tg.fmt_point(curve, 10_000) == "-0.400 ± 0.050" and tg.fmt_point(curve, 5) == "—"
    a = run_match(PubevalPlayer(), RandomPlayer(), 30, seed=1, progress=False)
    b = run_match(RandomPlayer(), RandomPlayer(), 30, seed=1, progress=False)
    d, se = tg.paired_difference(a, b)
    assert d == pytest.approx(a.ppg - b.ppg) and 0 < se < 1
    with pytest.raises(ValueError, match="unknown knob"):
        tg.config("quick", GAMES=3)
    with pytest.raises(ValueError, match="PUBEVAL_PAIRS"):
        tg.config("quick", PUBEVAL_PAIRS=0)
    assert tg.config("standard").PUBEVAL_PAIRS >= 5000  # the ≥ 10,000-game target
    with pytest.raises(ValueError, match="unknown opponent"):
        tg.make_opponent("kasparov")
    P, D = tg.game_positions(30, seed=2)
    assert P.shape == (30, 28) and 5 < tg.moves_per_roll(P[:10]) < 60
    for _label, p, d1, d2 in tg.showcase_positions():
        table, chk = tg.side_by_side(p, d1, d2, TDGammon.new(5, 4, seed=1))
        assert chk["count_ok"] and not chk["problems"] and len(table.rows) == chk["gnubg"]


def test_human_game_refuses_bad_moves_and_plays_on():
    from tdbook.games.base import IllegalMove
    from tdbook.players.backgammon_human import HumanVsNet

    g = HumanVsNet(NetPlayer(TDGammon.new(5, 4, seed=1)), seed=4)
    assert g.state.player == 0 and g.legal
    before = g.state
    for bad in ("13/3", "x", "25/20", "6/off"):
        with pytest.raises(IllegalMove):
            g.submit(bad)
        assert g.state == before
    n = len(g.history)
    g.submit(g.legal[0])
    assert len(g.history) >= n + 2 and g.history[n].player == "you" and g.history[n + 1].player == "TD-Gammon"
    while not g.over:  # play it out: the human always takes the first legal move
        g.submit(g.legal[0])
    assert "win" in g.message
    with pytest.raises(IllegalMove, match="over"):
        g.submit("8/5 6/5")


def test_play_widget_shows_the_reason_and_keeps_the_position():
    from tdbook.players.backgammon_human import play

    w = play(TDGammon.new(5, 4, seed=1), seed=4)
    box, go, new = w.children[1].children
    status = w.children[2]
    before = w.game.state
    box.value = "13/3"  # Enter in the box
    assert "Not played" in status.value and w.game.state == before
    box.value = w.game.legal[0]
    assert w.game.state != before and "Not played" not in status.value
    assert len(w.children[0].value) > 1000  # the board, as PNG bytes


def test_explore_and_figures():
    import matplotlib

    matplotlib.use("Agg")
    from tdbook.plots import td_gammon as P

    data = tg.explore(hidden=5, games=100, pairs=5, seed=3, opponent="random")
    assert data.log.games_done == 100 and len(data.log.curve) == 6 and data.match.games == 10
    figs = [
        P.explore(data),
        P.board(bg.initial_position(), dice=(3, 1)),
        P.ladder({"net": {"pubeval": {"ppg": 0.3, "stderr": 0.05}}}),
        P.pwin_agreement(np.array([0.2, 0.8]), np.array([0.25, 0.7])),
    ]
    assert all(f.axes for f in figs)


def test_cli_rejects_bad_settings(capsys):
    with pytest.raises(SystemExit) as e:
        tg.train_main(["--hidden", "0"])
    assert e.value.code == 2 and "hidden" in capsys.readouterr().err


def test_full_profile_retrains_a_shipped_net_from_its_sidecar(tmp_path):
    out = tmp_path / "net.npz"
    assert (
        tg.train_main(
            [
                "--hidden",
                "5",
                "--games",
                "60",
                "--eval-every",
                "30",
                "--eval-pairs",
                "3",
                "--out",
                str(out),
                "--checkpoint",
                str(tmp_path / "ck.npz"),
                "--no-progress",
            ]
        )
        == 0
    )
    shipped = tg.Shipped(5, TDGammon.load(out), tg.read_sidecar(out), out)
    again = tg.retrain(shipped, tmp_path / "re", progress=False)
    assert np.array_equal(again.model.net.W1, shipped.model.net.W1)
    assert [c.ppg for c in again.curve] == [c.ppg for c in shipped.curve] and len(again.curve) == 3
    with pytest.raises(ValueError, match="no sidecar"):
        tg.read_sidecar(tmp_path / "missing.npz")
