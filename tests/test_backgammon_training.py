"""TD-Gammon training: checkpoints and exact resume, iterate averaging, the run's spec, the command line
(``python -m tdbook train backgammon``) and retraining a shipped net from its sidecar."""

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

from tdbook.core.storage import read_sidecar
from tdbook.experiments.backgammon.cli import train_main
from tdbook.experiments.backgammon.shipped import Shipped, retrain
from tdbook.experiments.backgammon.spec import TrainSpec, average_points
from tdbook.experiments.backgammon.training import Schedule, train
from tdbook.learners.backgammon_net import TDGammon

ROOT = Path(__file__).resolve().parents[1]


# ----------------------------------------------------------------------------- checkpoints and resume


SPEC = TrainSpec(
    hidden=5, outputs=4, encoding="relative", alpha=0.1, lam=0.7, alpha_late=0.05, late_after=50, seed=3, games=90
)


def test_resume_after_an_interruption_gives_the_same_weights(tmp_path):
    whole, log = train(
        SPEC,
        Schedule(checkpoint_every=20, eval_every=30, eval_pairs=3, chunk=7),
        checkpoint=tmp_path / "a.npz",
        progress=False,
    )
    assert log.games_done == 90 and [c.games for c in log.curve] == [0, 30, 60, 90]
    ck = tmp_path / "b.npz"
    part, plog = train(
        SPEC, Schedule(checkpoint_every=20, eval_every=30, eval_pairs=3), checkpoint=ck, progress=False, stop_after=47
    )  # "killed" after game 47: the checkpoint holds 40
    assert plog.games_done == 47 and TDGammon.load(ck).info["log"]["games_done"] == 40
    again, rlog = train(SPEC, Schedule(checkpoint_every=20, eval_every=30, eval_pairs=3), checkpoint=ck, progress=False)
    assert rlog.resumed_at == [40] and rlog.games_done == 90
    assert np.array_equal(again.net.W1, whole.net.W1) and np.array_equal(again.net.W2, whole.net.W2)
    assert [c.ppg for c in rlog.curve] == [c.ppg for c in log.curve]
    # a finished checkpoint is not trained further; other settings are refused
    done, dlog = train(SPEC, Schedule(checkpoint_every=20), checkpoint=ck, progress=False)
    assert np.array_equal(done.net.W1, whole.net.W1)
    with pytest.raises(ValueError, match="other settings"):
        train(TrainSpec(**{**SPEC.__dict__, "lam": 0.5}), checkpoint=ck, progress=False)
    with pytest.raises(ValueError, match="more than"):
        train(TrainSpec(**{**SPEC.__dict__, "games": 60}), checkpoint=ck, progress=False)
    # a finished run extended to more games equals a run asked for that many from the start
    longer = TrainSpec(**{**SPEC.__dict__, "games": 120})
    ext, elog = train(longer, Schedule(checkpoint_every=20), checkpoint=ck, progress=False)
    ref, _ = train(longer, progress=False)
    assert elog.games_done == 120 and elog.spec.games == 120 and np.array_equal(ext.net.W1, ref.net.W1)


def test_iterate_average_is_the_mean_of_the_weight_copies_and_survives_a_kill(tmp_path):
    avg_spec = TrainSpec(**{**SPEC.__dict__, "average_from": 40, "average_every": 10})
    whole, log = train(avg_spec, Schedule(checkpoint_every=20, chunk=7), checkpoint=tmp_path / "a.npz", progress=False)
    assert log.averaged == 6  # after games 40, 50, …, 90
    s1, s2 = np.zeros_like(whole.net.W1), np.zeros_like(whole.net.W2)
    for g in range(40, 91, 10):  # the raw weights after g games, summed in order
        raw, _ = train(TrainSpec(**{**SPEC.__dict__, "games": g}), progress=False)
        s1 += raw.net.W1
        s2 += raw.net.W2
    assert np.array_equal(whole.net.W1, s1 / 6) and np.array_equal(whole.net.W2, s2 / 6)
    assert np.array_equal(TDGammon.load(tmp_path / "a.npz").net.W1, raw.net.W1)  # the checkpoint keeps the raw net
    # killed after game 67 (checkpoint at 60), resumed: the same average
    ck = tmp_path / "b.npz"
    train(avg_spec, Schedule(checkpoint_every=20), checkpoint=ck, progress=False, stop_after=67)
    again, rlog = train(avg_spec, Schedule(checkpoint_every=20), checkpoint=ck, progress=False)
    assert rlog.resumed_at == [60] and np.array_equal(again.net.W1, whole.net.W1)
    # a plain run's checkpoint from before the average starts may switch averaging on
    ck2 = tmp_path / "c.npz"
    train(TrainSpec(**{**SPEC.__dict__, "games": 40}), checkpoint=ck2, progress=False)
    cont, _ = train(avg_spec, checkpoint=ck2, progress=False)
    assert np.array_equal(cont.net.W1, whole.net.W1) and np.array_equal(cont.net.W2, whole.net.W2)
    # …but not once averaging has begun, and a checkpoint that lost its running sum is refused
    with pytest.raises(ValueError, match="other settings"):
        train(TrainSpec(**{**avg_spec.__dict__, "average_every": 5}), checkpoint=ck, progress=False)
    bare = TDGammon.load(ck)
    bare.save(ck)  # the same log, without the running sum
    with pytest.raises(ValueError, match="running sum"):
        train(avg_spec, checkpoint=ck, progress=False)
    with pytest.raises(ValueError, match="average_from"):
        TrainSpec(games=10, average_from=11).check()
    assert "--average-from 40 --average-every 10" in avg_spec.command()


def test_both_trainers_count_the_points_of_an_average_alike():
    """Notebook 08's running sum and notebook 09's mean of snapshots (``--average-from``) take their weight copies at
    the same games, by one function: from G on, every K, up to and including the run's last game."""
    spec = TrainSpec(games=90, average_from=40, average_every=10)
    assert list(average_points(40, 10, 90)) == [40, 50, 60, 70, 80, 90]
    assert [g for g in range(100) if spec.is_average_point(g)] == [40, 50, 60, 70, 80, 90]
    assert [spec.average_points(g) for g in (0, 39, 40, 67, 90, 200)] == [0, 0, 1, 3, 6, 6]
    assert TrainSpec(games=90).average_points(90) == 0 and not TrainSpec(games=90).is_average_point(90)


def test_train_spec_is_checked():
    with pytest.raises(ValueError, match="lambda"):
        TrainSpec(lam=1.5).check()
    with pytest.raises(ValueError, match="alpha_late"):
        TrainSpec(alpha_late=0.01).check()
    with pytest.raises(ValueError, match="hidden"):
        TrainSpec(hidden=0).check()
    assert TrainSpec(alpha=0.1, alpha_late=0.02, late_after=5).alpha_at(5) == 0.02


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
    spec = TrainSpec(hidden=5, outputs=4, encoding="relative", alpha=0.1, lam=0.7, seed=9, games=6000)
    whole, _ = train(spec, progress=False)
    got = TDGammon.load(out)
    assert np.array_equal(got.net.W1, whole.net.W1) and np.array_equal(got.net.W2, whole.net.W2)
    side = json.loads(out.with_suffix(".json").read_text())
    assert side["games"] == 6000 and side["seed"] == 9 and side["resumed_at"] == [killed_at]
    assert (
        side["command"].startswith("python -m tdbook train backgammon --hidden 5") and "tdbook" in side["code_version"]
    )


def test_cli_rejects_bad_settings(capsys):
    assert train_main(["--hidden", "0"]) == 2
    assert "--hidden" in capsys.readouterr().err


def test_full_profile_retrains_a_shipped_net_from_its_sidecar(tmp_path):
    out = tmp_path / "net.npz"
    assert (
        train_main(
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
    shipped = Shipped(5, TDGammon.load(out), read_sidecar(out), out)
    again = retrain(shipped, tmp_path / "re", progress=False)
    assert np.array_equal(again.model.net.W1, shipped.model.net.W1)
    assert [c.ppg for c in again.curve] == [c.ppg for c in shipped.curve] and len(again.curve) == 3
    with pytest.raises(ValueError, match="no sidecar"):
        read_sidecar(tmp_path / "missing.npz")
