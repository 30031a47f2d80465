"""``python -m tdbook train backgammon`` says what it will do before it does it (issue 15 §3): the output
defaults under build/, a shipped file in data/ is overwritten only with --force, --out and the checkpoint
are checked before the first game, a corrupt or foreign checkpoint is refused by name, and Ctrl-C ends
with one line naming the last checkpoint and the command that resumes it."""

from __future__ import annotations

import io
import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from tdbook.experiments.backgammon.cli import INTERRUPTED, train_main
from tdbook.experiments.backgammon.spec import TrainSpec
from tdbook.experiments.backgammon.training import train
from tdbook.learners.backgammon_net import TDGammon

ROOT = Path(__file__).resolve().parents[1]
TINY = ["--hidden", "3", "--games", "40", "--eval-every", "0", "--checkpoint-every", "20", "--no-progress"]


@pytest.fixture
def checkout(tmp_path, monkeypatch):
    """A stand-in repository root (its own data/ and build/) for the command's defaults."""
    root = tmp_path / "repo"
    (root / "data").mkdir(parents=True)
    monkeypatch.setenv("TDBOOK_ROOT", str(root))
    return root


def test_out_defaults_under_build_and_leaves_data_alone(checkout, capsys):
    assert train_main(TINY) == 0
    out = checkout / "build" / "td_gammon" / "td_gammon_3.npz"
    assert TDGammon.load(out).hidden == 3 and out.with_suffix(".json").is_file()
    assert not any((checkout / "data").iterdir())
    assert str(out) in capsys.readouterr().out


def test_a_shipped_file_is_overwritten_only_with_force(checkout, capsys):
    shipped = checkout / "data" / "td_gammon_3.npz"
    shipped.write_bytes(b"the shipped weights")
    ckpt = checkout / "build" / "td_gammon" / "td_gammon_3.ckpt.npz"
    assert train_main([*TINY, "--out", str(shipped)]) == 2
    err = capsys.readouterr().err
    assert "--force" in err and str(shipped) in err and "overwrite" in err
    assert shipped.read_bytes() == b"the shipped weights" and not ckpt.exists()  # refused before any game
    assert train_main([*TINY, "--out", str(shipped), "--force"]) == 0
    assert TDGammon.load(shipped).hidden == 3
    # its sidecar alone counts as shipped too
    (checkout / "data" / "td_gammon_4.json").write_text("{}")
    assert train_main([*TINY, "--hidden", "4", "--out", str(checkout / "data" / "td_gammon_4.npz")]) == 2
    assert "td_gammon_4.json" in capsys.readouterr().err


@pytest.mark.parametrize(
    "out, message",
    [
        ("a_file/net.npz", "cannot create the directory"),
        ("net.txt", "must end in .npz"),
        ("a_dir", "is a directory"),
    ],
)
def test_out_is_checked_before_training(checkout, tmp_path, capsys, out, message):
    (tmp_path / "a_file").write_text("not a directory")
    (tmp_path / "a_dir.npz").mkdir()
    target = tmp_path / (out + ".npz" if out == "a_dir" else out)
    ckpt = tmp_path / "ck.npz"
    t0 = time.perf_counter()
    assert train_main([*TINY, "--games", "100000", "--out", str(target), "--checkpoint", str(ckpt)]) == 2
    assert time.perf_counter() - t0 < 10 and not ckpt.exists()  # no game was played
    err = capsys.readouterr().err
    assert message in err and str(target) in err


def _npz(**arrays) -> bytes:
    buf = io.BytesIO()
    np.savez(buf, **arrays)
    return buf.getvalue()


@pytest.mark.parametrize(
    "content, message",
    [
        (b"not a zip file", "not a zip archive"),
        (_npz(x=np.zeros(3)), "holds x (no W1, W2, meta)"),
        (_npz(W1=np.zeros((2, 2)), W2=np.zeros((3, 1)), meta=np.array([{"a": 1}], dtype=object)), "Python objects"),
    ],
    ids=["junk", "foreign", "pickled"],
)
def test_a_corrupt_or_foreign_checkpoint_is_refused_by_name(tmp_path, capsys, content, message):
    ckpt = tmp_path / "ck.npz"
    ckpt.write_bytes(content)
    out = tmp_path / "net.npz"
    assert train_main([*TINY, "--out", str(out), "--checkpoint", str(ckpt)]) == 2
    err = capsys.readouterr().err
    assert str(ckpt) in err and message in err and "expected" in err
    assert "allow_pickle" not in err and "Traceback" not in err
    assert ckpt.read_bytes() == content and not out.exists()


def test_another_runs_checkpoint_is_refused_before_training(tmp_path, capsys):
    ckpt = tmp_path / "ck.npz"
    train(TrainSpec(hidden=3, games=20, seed=5), checkpoint=ckpt, progress=False)
    assert train_main([*TINY, "--out", str(tmp_path / "n.npz"), "--checkpoint", str(ckpt)]) == 2
    assert "other settings" in capsys.readouterr().err


def test_ctrl_c_names_the_last_checkpoint_and_the_command_that_resumes_it(tmp_path, ctrl_c_reaches_child):
    out, ck = tmp_path / "net.npz", tmp_path / "net.ckpt.npz"
    args = ["--hidden", "5", "--games", "6000", "--lambda", "0.7", "--seed", "9", "--checkpoint-every", "200"]
    args += ["--eval-every", "0", "--no-progress", "--out", str(out), "--checkpoint", str(ck)]
    env = {**os.environ, "NUMBA_NUM_THREADS": "1"}
    cmd = [sys.executable, "-m", "tdbook", "train", "backgammon", *args]
    proc = subprocess.Popen(
        cmd,
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=ctrl_c_reaches_child,
    )
    t0 = time.time()
    while time.time() - t0 < 120:
        if ck.exists() and TDGammon.load(ck).info["log"]["games_done"] >= 400:
            break
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == INTERRUPTED, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
    last = err.strip().splitlines()[-1]
    done = TDGammon.load(ck).info["log"]["games_done"]
    assert str(ck) in last and f"({done:,} games)" in last and not out.exists()
    resume = last.split("resume with: ", 1)[1]
    assert resume == "python -m tdbook train backgammon " + shlex.join(args)
    again = subprocess.run([sys.executable, *shlex.split(resume)[1:]], cwd=ROOT, env=env, capture_output=True)
    assert again.returncode == 0
    whole, _ = train(TrainSpec(hidden=5, outputs=4, lam=0.7, seed=9, games=6000), progress=False)
    got = TDGammon.load(out)
    assert np.array_equal(got.net.W1, whole.net.W1) and np.array_equal(got.net.W2, whole.net.W2)
