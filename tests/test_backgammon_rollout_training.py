"""Issue 51's rollout targets and the loop that trains on them: decided positions roll out exactly, a one-ply
truncation with its luck taken out is the net's one-ply-deeper value whatever the dice, plain play-outs equal a plain
loop of the public kernels on the same dice, the first rolls are stratified, the same seed gives the same bytes in
any chunking, a resumed loop equals an uninterrupted one, and bad input is refused."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from tdbook.core.rng import seed_state
from tdbook.experiments.backgammon import rollout_targets as rt
from tdbook.experiments.backgammon.match import sample_positions
from tdbook.experiments.backgammon.rollout_targets import RolloutSpec, rollout_targets
from tdbook.experiments.backgammon.rollout_training import LoopSpec, LoopState, read_checkpoint, run_loop
from tdbook.experiments.backgammon.rollout_training import sample_positions as loop_positions
from tdbook.games import backgammon as bg
from tdbook.games.backgammon_bearoff import combined_cached
from tdbook.games.backgammon_bearoff import probabilities as bearoff_probabilities
from tdbook.learners import backgammon_symmetric as sym
from tdbook.learners.backgammon_net import ROLLS
from tdbook.learners.backgammon_symmetric import SymmetricGammon
from tests.test_backgammon_lookahead import _net

SPEC = RolloutSpec(trials=6, truncate=4)


def _positions(n: int = 8) -> np.ndarray:
    pos, _ = sample_positions(6, seed=2, every=5)
    live = [p for p in pos if not bg.is_race(p)]
    return np.array(live[:n], np.int8)


def test_decided_positions_roll_out_exactly():
    model = _net(True)
    # the mover bears off its last checker with any roll, the opponent has none off: a gammon, in one ply
    won = bg.make_position({1: 1}, {19: 15})
    # the mover cannot bear off (all on its 7 point) and the opponent's last checker is on its 1 point: whatever the
    # mover plays, the opponent finishes next: a gammon lost, in two plies
    lost = bg.make_position({7: 15}, {24: 1})
    for pos, want, plies in ((won, [1, 1, 0, 0, 0], 1), (lost, [0, 0, 1, 0, 0], 2)):
        # with the luck taken out, the 36 play-outs' first rolls are the 36 rolls: their luck cancels, to rounding
        for spec in (RolloutSpec(36, 0, 0, False), RolloutSpec(36, 3, 2, False), RolloutSpec(72, 2, 1, False)):
            r = rollout_targets(model, pos[None], spec, seed=4, progress=False)
            if spec.vr_plies:
                assert np.allclose(r["targets"][0], want, rtol=0, atol=1e-12)  # each play-out its own luck
            else:
                assert np.array_equal(r["targets"][0], want) and r["se"][0] == 0.0
            assert r["plies"][0] == plies
    # a bear-off position stops at the table's probabilities (exact for the race), with no play-out at all
    race = bg.make_position({1: 2, 2: 3}, {24: 3, 22: 2})
    r = rollout_targets(model, race[None], RolloutSpec(4, 0, 0, True), seed=1, progress=False)
    p = np.zeros(5)
    bearoff_probabilities(combined_cached(), race, p)
    assert np.array_equal(r["targets"][0], p) and r["se"][0] == 0.0 and r["plies"][0] == 0


def test_one_ply_with_its_luck_taken_out_is_the_one_ply_deeper_value_whatever_the_dice():
    model = _net(True)
    pos = _positions(5)
    for seed in (1, 2):
        r = rollout_targets(model, pos, RolloutSpec(trials=7, truncate=1, vr_plies=1, bearoff_stop=False), seed,
                            progress=False)  # fmt: skip
        for p, t in zip(pos, r["targets"]):
            assert np.allclose(t, model.lookahead(p), rtol=0, atol=1e-12)
        assert np.all(r["se"] < 1e-12)


def _reference(model, pos, seed, index, trials, truncate):
    """Plain play-outs from the public kernels (no luck taken out, no bear-off stop): the roll order of the module
    docstring, the move of ``choose_1ply`` on the low die first, the result or the net's outputs after ``truncate``
    plies, carried into the root's frame."""
    out, mv, ws = bg.make_buffers()
    base = index * (trials + 1)
    first = seed_state(seed, base + trials)
    perm0, perm1 = np.zeros(36, np.int64), np.zeros(36, np.int64)
    rt._shuffled36(first, perm0)
    rt._shuffled36(first, perm1)
    ests = []
    for t in range(trials):
        dice = seed_state(seed, base + t)
        cur = pos.copy()
        ply = 0
        while True:
            if ply < 2:
                r = perm0[t % 36] if ply == 0 else perm1[(t + t // 36) % 36]
                d1, d2 = r // 6 + 1, r % 6 + 1
            else:
                d1, d2 = bg.roll(dice)
            n = bg.gen_afterstates(cur, min(d1, d2), max(d1, d2), out, mv, ws)
            scores = [float(bg.win_multiplier(a)) if a[bg.OFF] == 15 else -model.equity(bg.flipped(a)) for a in out[:n]]
            a = out[int(np.argmax(scores))].copy()
            mover = ply % 2
            ply += 1
            if a[bg.OFF] == 15:
                m = bg.win_multiplier(a)
                v = np.array([1.0, m >= 2, 0.0, m == 3, 0.0])
                frame = mover
                break
            cur = bg.flipped(a)
            if ply == truncate:
                v = model.probabilities(cur)
                frame = ply % 2
                break
        ests.append(v if frame == 0 else np.array([1 - v[0], v[2], v[1], v[4], v[3]]))
    return np.mean(ests, axis=0)


def test_plain_play_outs_equal_a_plain_loop_of_the_public_kernels_and_the_first_rolls_are_stratified():
    model = _net(True)
    pos = _positions(3)
    spec = RolloutSpec(trials=5, truncate=6, vr_plies=0, bearoff_stop=False)
    r = rollout_targets(model, pos, spec, seed=9, first=11, progress=False)
    for i, p in enumerate(pos):
        assert np.allclose(r["targets"][i], _reference(model, p, 9, 11 + i, 5, 6), rtol=0, atol=1e-12)
    perm0, perm1 = np.zeros(36, np.int64), np.zeros(36, np.int64)
    rng = seed_state(3, 77)
    rt._shuffled36(rng, perm0)
    rt._shuffled36(rng, perm1)
    assert sorted(perm0) == list(range(36)) and sorted(perm1) == list(range(36))
    assert sorted(perm1[(t + t // 36) % 36] for t in range(36, 72)) == list(range(36))
    assert [rt._roll_index(a, b) for a, b in ROLLS] == list(range(21))
    assert all(rt._roll_index(b, a) == rt._roll_index(a, b) for a, b in ROLLS)


def test_luck_adjustment_keeps_the_mean():
    """The same positions, many play-outs: the adjusted estimate agrees with the plain one within their errors (how
    much noise it takes out depends on how well the net predicts its own play: ``benchmarks/bench_rollouts.py``)."""
    model = _net(True)
    pos = _positions(4)
    plain = rollout_targets(model, pos, RolloutSpec(144, 4, 0), seed=3, progress=False)
    adj = rollout_targets(model, pos, RolloutSpec(144, 4, 4), seed=3, progress=False)
    e_plain = np.array([sym.equity(t) for t in plain["targets"]])
    e_adj = np.array([sym.equity(t) for t in adj["targets"]])
    assert np.all(np.abs(e_plain - e_adj) < 4 * np.hypot(plain["se"], adj["se"]))
    assert not np.array_equal(e_plain, e_adj)


def test_same_seed_same_bytes_in_any_chunking_and_bad_input_is_refused():
    model = _net(True)
    pos = _positions(6)
    a = rollout_targets(model, pos, SPEC, seed=7, progress=False, chunk=64)
    b = rollout_targets(model, pos, SPEC, seed=7, progress=False, chunk=1)
    c = rollout_targets(model, pos[2:], SPEC, seed=7, first=2, progress=False)
    for k in a:
        assert a[k].tobytes() == b[k].tobytes() and a[k][2:].tobytes() == c[k].tobytes()
    assert not np.array_equal(a["targets"], rollout_targets(model, pos, SPEC, seed=8, progress=False)["targets"])
    over = pos[:1].copy()
    over[0, :] = 0
    over[0, bg.OFF] = 15
    over[0, 19] = -15
    for bad, match in (
        (pos.astype(np.int64), "int8"),
        (pos[:, :20], r"\(n, 28\)"),
        (over, "not a board in play"),
        (np.vstack([pos[:1], pos[:1] * 2]), "not a board in play"),
    ):
        with pytest.raises(ValueError, match=match):
            rollout_targets(model, bad, SPEC, seed=1, progress=False)
    for spec, match in ((RolloutSpec(trials=1), "trials"), (RolloutSpec(truncate=-1), "truncate"),
                        (RolloutSpec(vr_plies=-2), "vr_plies")):  # fmt: skip
        with pytest.raises(ValueError, match=match):
            rollout_targets(model, pos, spec, seed=1, progress=False)


def test_fit_moves_the_net_toward_its_targets_and_refuses_what_does_not_fit():
    model = _net(True)
    pos = _positions(8)
    targets = np.tile([0.7, 0.2, 0.1, 0.02, 0.01], (len(pos), 1))
    order = np.tile(np.arange(len(pos)), 40)
    before = model.W1.copy()
    sq = model.fit(pos, targets, order, 0.1)
    assert sq[-len(pos) :].mean() < 0.2 * sq[: len(pos)].mean()
    for args, match in (
        ((pos, targets[:3], order, 0.1), "targets"),
        ((pos, targets, order + 100, 0.1), "order"),
        ((pos, targets, order, 0.0), "alpha"),
        ((pos.astype(np.int64), targets, order, 0.1), "positions"),
        ((pos, targets * np.nan, order, 0.1), "targets"),
    ):
        w = model.W1.copy()
        with pytest.raises(ValueError, match=match):
            model.fit(*args)
        assert np.array_equal(model.W1, w)
    assert not np.array_equal(model.W1, before)


LOOP = LoopSpec(positions=24, race_share=0.5, rollout=RolloutSpec(4, 3), epochs=2, alpha=0.05, window=2, seed=3)


def test_loop_resumed_from_its_checkpoint_equals_the_uninterrupted_loop(tmp_path):
    whole = _net(True)
    st = run_loop(whole, LOOP, 3, chunk=10, progress=False)
    assert st.iterations == 3 and len(st.log) == 3 and len(st.db_pos) == 2 * LOOP.positions
    ck = tmp_path / "loop.ckpt.npz"
    run_loop(_net(True), LOOP, 3, checkpoint=ck, chunk=10, progress=False, stop_after=10)  # killed after one chunk
    m, spec, s = read_checkpoint(ck)
    assert spec == LOOP and s.iterations == 0 and s.cur_done == 10
    s = run_loop(m, spec, 2, s, checkpoint=ck, chunk=10, progress=False)  # two iterations, then a third, killed
    run_loop(m, spec, 3, s, checkpoint=ck, chunk=10, progress=False, stop_after=20)
    m, spec, s = read_checkpoint(ck)
    assert s.iterations == 2 and s.cur_done == 20
    s = run_loop(m, spec, 3, s, checkpoint=ck, chunk=10, progress=False)
    assert m.W1.tobytes() == whole.W1.tobytes() and m.W2.tobytes() == whole.W2.tobytes()
    assert s.db_pos.tobytes() == st.db_pos.tobytes() and s.db_tgt.tobytes() == st.db_tgt.tobytes()
    drop = ("rollout_seconds", "fit_seconds")
    assert [{k: v for k, v in r.items() if k not in drop} for r in s.log] == [
        {k: v for k, v in r.items() if k not in drop} for r in st.log
    ]
    again = _net(True)
    run_loop(again, LOOP, 3, chunk=24, progress=False)
    assert again.W1.tobytes() == whole.W1.tobytes()  # the chunking does not change the bytes


def test_loop_positions_weigh_contact_and_bad_settings_are_refused():
    model = _net(True)
    pos = loop_positions(model, 200, 0.0, seed=1)
    assert len(pos) == 200 and len(np.unique(pos, axis=0)) == 200 and not any(bg.is_race(p) for p in pos)
    some = loop_positions(model, 200, 1.0, seed=1)
    assert any(bg.is_race(p) for p in some)
    for bad, match in (
        ({"positions": 1}, "positions"),
        ({"race_share": 1.5}, "race_share"),
        ({"epochs": 0}, "epochs"),
        ({"alpha": -1.0}, "alpha"),
        ({"window": 0}, "window"),
    ):
        with pytest.raises(ValueError, match=match):
            run_loop(model, LoopSpec(**bad), 1, progress=False)
    with pytest.raises(ValueError, match="iterations"):
        run_loop(model, LOOP, 0, progress=False)
    assert isinstance(LoopState(), LoopState)


def test_cli_writes_the_net_with_its_log_and_resumes(tmp_path, capsys):
    from tdbook.experiments.backgammon.rollout_training import train_main

    warm = tmp_path / "warm.npz"
    _net(True).save(warm, games_done=40, spec={"arch": "free", "hidden": 6, "seed": 5})
    base = ["--warm-start", str(warm), "--positions", "12", "--trials", "3", "--truncate", "2", "--race-share",
            "0.5", "--checkpoint-every", "5", "--pubeval-pairs", "4", "--no-progress"]  # fmt: skip
    one = tmp_path / "one.npz"
    first = ["--iterations", "2", "--out", str(one), "--checkpoint", str(tmp_path / "o.ckpt.npz")]
    assert train_main([*base, *first]) == 0
    a = SymmetricGammon.load(one)
    side = __import__("json").loads(one.with_suffix(".json").read_text())
    assert len(side["log"]) == 2 and side["spec"]["warm_start"]["games"] == 40 and side["iterations"] == 2
    assert side["spec"]["loop"]["rollout"]["from_base"] is False
    two, ck = tmp_path / "two.npz", tmp_path / "t.ckpt.npz"
    assert train_main([*base, "--iterations", "1", "--out", str(two), "--checkpoint", str(ck)]) == 0
    # resumed on two Dask workers (--workers 2): the same bytes as the uninterrupted run in one process
    assert train_main([*base, "--iterations", "2", "--workers", "2", "--out", str(two), "--checkpoint", str(ck)]) == 0
    b = SymmetricGammon.load(two)
    assert a.W1.tobytes() == b.W1.tobytes() and a.W2.tobytes() == b.W2.tobytes()
    capsys.readouterr()
    assert train_main([*base, "--alpha", "0.5", "--iterations", "3", "--out", str(two), "--checkpoint", str(ck)]) == 2
    assert "another run" in capsys.readouterr().err
    # valued from a base: other bits, so a run with it is another run, never a resumption of one without it
    assert train_main([*base, "--from-base", "--iterations", "3", "--out", str(two), "--checkpoint", str(ck)]) == 2
    assert "another run" in capsys.readouterr().err
    assert train_main([*base, "--truncate", "-1", "--iterations", "1"]) == 2
    assert "truncate must be an int >= 0" in capsys.readouterr().err
    assert train_main([*base, "--workers", "0", "--iterations", "1"]) == 2
    assert "--workers must be >= 1, got 0" in capsys.readouterr().err


def test_signal_measures_write_the_loop_curve_by_iteration_into_the_sidecar(tmp_path):
    import json

    from tdbook.experiments.backgammon.rollout_training import train_main
    from tdbook.experiments.backgammon.signal_measures import main as measure

    warm = tmp_path / "warm.npz"
    _net(True).save(warm, games_done=40, spec={"arch": "free", "hidden": 6, "seed": 5})
    out = tmp_path / "loop.npz"
    assert train_main(["--warm-start", str(warm), "--positions", "8", "--trials", "2", "--truncate", "2",
                       "--iterations", "2", "--snapshots", "--pubeval-pairs", "2", "--no-progress",
                       "--out", str(out)]) == 0  # fmt: skip
    snap = tmp_path / "loop_it1.snap.npz"
    assert snap.is_file()
    assert measure(["curve", str(out), "--snapshots", str(snap), "--pubeval-pairs", "3", "--gnubg-pairs", "1",
                    "--no-progress"]) == 0  # fmt: skip
    side = json.loads(out.with_suffix(".json").read_text())
    curve = side["curve"]
    assert [p["iteration"] for p in curve["points"]] == [0, 1, 2] and curve["pairs"]["gnubg-expert"] == 1
    assert curve["points"][0]["vs_pubeval"]["games"] == 6 and len(side["log"]) == 2
    other = tmp_path / "other_it1.snap.npz"
    _net(True).save(other)
    assert measure(["curve", str(out), "--snapshots", str(other), "--no-progress"]) == 2
    assert measure(["curve", str(out), "--gnubg-pairs", "0"]) == 2


def test_fit_trials_fit_copies_and_measure_the_held_out_gap():
    from tdbook.experiments.backgammon.rollout_training import fit_trials

    model = _net(True)
    pos = loop_positions(model, 40, 0.5, seed=2)
    r = rollout_targets(model, pos, RolloutSpec(4, 3), seed=2, progress=False)
    w = model.W1.copy()
    out = fit_trials(model, pos, r["targets"], r["se"], [(0.05, 1), (0.05, 8)], holdout=0.25, seed=1)
    assert np.array_equal(model.W1, w)  # the model itself is not fitted
    assert [(o["alpha"], o["epochs"]) for o in out] == [(0.05, 1), (0.05, 8)]
    assert out[0]["before"] == out[1]["before"] and out[0]["before"]["n"] == 10
    assert out[0]["after"] != out[1]["after"]
    assert [o["hidden"] for o in out] == [6, 6] and out[1]["train"]["n"] == 30
    wide = fit_trials(model, pos, r["targets"], r["se"], [(0.05, 8)], holdout=0.25, seed=1, hidden=9)
    assert np.array_equal(model.W1, w) and wide[0]["hidden"] == 9
    assert wide[0]["before"] == out[0]["before"] and wide[0]["after"] != out[1]["after"]


def test_a_wider_net_values_exactly_as_its_parent_until_it_trains():
    model = _net(True, bearoff=True)
    pos = _positions(8)
    wide = model.with_hidden(10, init=0.1, seed=4)
    assert wide.hidden == 10 and wide.bearoff and wide.outputs == model.outputs
    for p in pos:
        assert np.array_equal(wide.probabilities(p), model.probabilities(p))
    assert np.array_equal(wide.W1[:, :6], model.W1) and np.abs(wide.W1[:, 6:]).max() > 0
    assert np.array_equal(model.with_hidden(10, init=0.1, seed=4).W1, wide.W1)  # the seed draws the new units
    r = rollout_targets(model, pos, RolloutSpec(4, 3), seed=2, progress=False)
    wide.fit(pos, r["targets"], np.arange(len(pos)), 0.1)
    assert np.abs(wide.W2[6:-1]).max() > 0  # the new units learn
    with pytest.raises(ValueError, match="hidden must be an int >= this net's 6"):
        model.with_hidden(5)
    with pytest.raises(ValueError, match="init must be a number >= 0"):
        model.with_hidden(8, init=-1.0)
    with pytest.raises(ValueError, match="a race and contact pair"):
        model.split().with_hidden(8)
    with pytest.raises(ValueError, match="'free' architecture only"):
        SymmetricGammon.new("symmetric", hidden=4).with_hidden(8)


def test_rollouts_on_two_dask_workers_are_the_same_bytes_as_here():
    from distributed import Client, LocalCluster

    model = _net(True)
    pos = _positions(6)
    based = replace(SPEC, fast=True, from_base=True)
    here = rollout_targets(model, pos, SPEC, seed=5, chunk=2, progress=False)
    here_b = rollout_targets(model, pos, based, seed=5, chunk=2, progress=False)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with Client(cluster):
            there = rollout_targets(model, pos, SPEC, seed=5, chunk=2, progress=False)
            there_b = rollout_targets(model, pos, based, seed=5, chunk=2, progress=False)
    for k in here:
        assert here[k].tobytes() == there[k].tobytes()
        assert here_b[k].tobytes() == there_b[k].tobytes()
