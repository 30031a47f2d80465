"""``python -m tdbook train checkers`` (tdbook.experiments.checkers.cli): weights and a sidecar with the exact
command; a shipped data/ file is never overwritten without --force (checked before training); a corrupt weights
file is refused by name; with TDBOOK_FULL_CHECKS=1, a real process killed mid-run and started again with the same
command ends with the same weights as an uninterrupted run."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from tdbook.experiments.checkers import training as tr
from tdbook.experiments.checkers.cli import train_main
from tdbook.learners.checkers_polynomial import N_TERMS

FULL = os.environ.get("TDBOOK_FULL_CHECKS") == "1"


@pytest.fixture
def repo(tmp_path, monkeypatch):
    root = tmp_path / "repo"
    (root / "data").mkdir(parents=True)
    (root / "notebooks").mkdir()
    monkeypatch.setenv("TDBOOK_ROOT", str(root))
    return root


def test_train_writes_weights_and_a_sidecar_with_the_command(repo, capsys):
    assert train_main(["--method", "samuel", "--games", "2", "--seed", "3", "--no-progress"]) == 0
    out = repo / "build" / "checkers" / "samuel_seed3_games2.npz"
    assert out.exists() and (out.parent / "samuel_seed3_games2.ckpt.npz").exists()
    side = json.loads(out.with_suffix(".json").read_text())
    assert side["command"] == "python -m tdbook train checkers --method samuel --games 2 --seed 3 --no-progress"
    assert side["games"] == 2 and len(side["summary"]["active"]) == 16
    poly, meta = tr.load_polynomial(out)
    assert meta["method"] == "samuel" and set(poly.weights) == set(side["summary"]["polynomial"])
    _, arrays = tr.read(out)
    assert "log_events" not in arrays and arrays["log_removal_tallies"].sum() == side["summary"]["replacements"]
    assert "wrote" in capsys.readouterr().out


def test_a_shipped_file_is_not_overwritten_without_force(repo, capsys):
    shipped = repo / "data" / "checkers_samuel.npz"
    shipped.write_bytes(b"shipped")
    args = ["--method", "tdleaf", "--games", "1", "--no-progress", "--out", str(shipped)]
    assert train_main(args) == 2
    assert "add --force" in capsys.readouterr().err and shipped.read_bytes() == b"shipped"
    assert not (repo / "data" / "checkers_samuel.ckpt.npz").exists()  # refused before training
    assert train_main(args + ["--force", "--checkpoint", str(repo / "data" / "c.npz")]) == 2  # no checkpoint in data/
    assert train_main(args + ["--force", "--checkpoint", str(repo / "build" / "c.npz")]) == 0
    assert tr.load_polynomial(shipped)[1]["method"] == "tdleaf"


def test_bad_options_and_corrupt_weights_are_refused_by_name(repo, tmp_path):
    assert train_main(["--method", "samuel", "--games", "0"]) == 2
    assert train_main(["--method", "samuel", "--games", "2", "--out", str(tmp_path / "w.txt")]) == 2
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"\x00" * 100)
    with pytest.raises(ValueError, match=r"bad\.npz is not a readable checkers weights file"):
        tr.load_polynomial(bad)
    odd = tmp_path / "odd.npz"
    tr.write(odd, {"method": "samuel", "piece_weight": 1.0}, {"weights": np.ones(N_TERMS - 1)})
    with pytest.raises(ValueError, match=r"odd\.npz is not a checkers weights file: 'weights'"):
        tr.load_polynomial(odd)
    nan = tmp_path / "nan.npz"
    tr.write(nan, {"method": "samuel", "piece_weight": 1.0}, {"weights": np.full(N_TERMS, np.nan)})
    with pytest.raises(ValueError, match=r"nan\.npz"):
        tr.load_polynomial(nan)
    with pytest.raises(ValueError, match=r"no checkers weights file .*missing\.npz"):
        tr.load_polynomial(tmp_path / "missing.npz")


@pytest.mark.skipif(not FULL, reason="a real process killed and restarted: TDBOOK_FULL_CHECKS=1")
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGINT])
def test_a_killed_run_started_again_ends_with_the_same_weights(tmp_path, sig, ctrl_c_reaches_child):
    def cmd(out):
        return [sys.executable, "-m", "tdbook", "train", "checkers", "--method", "samuel", "--games", "60",
                "--seed", "7", "--checkpoint-every", "5", "--no-progress", "--out", str(out),
                "--checkpoint", str(out.with_suffix(".ckpt.npz"))]  # fmt: skip

    subprocess.run(cmd(tmp_path / "whole.npz"), check=True, capture_output=True)
    ck = tmp_path / "cut.ckpt.npz"
    p = subprocess.Popen(
        cmd(tmp_path / "cut.npz"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=ctrl_c_reaches_child,
    )
    t0 = time.time()
    while not ck.exists() and time.time() - t0 < 120:
        time.sleep(0.2)
    p.send_signal(sig)
    out, _ = p.communicate(timeout=120)
    if sig == signal.SIGINT:
        assert p.returncode == 130 and "resume with: python -m tdbook train checkers" in out and str(ck) in out
    assert not (tmp_path / "cut.npz").exists()
    subprocess.run(cmd(tmp_path / "cut.npz"), check=True, capture_output=True)
    a, b = tr.read(tmp_path / "whole.npz")[1], tr.read(tmp_path / "cut.npz")[1]
    assert a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)
    assert tr.read(tmp_path / "cut.npz")[0]["resumed_at"]
