"""The shipped records of notebooks 09 and 10 (issue 52 §2) and what ``data/`` holds of the symmetric-gammon nets
(issue 48 §5): a record is read only for the settings it was made with, its samples measured again equal it, and a
record that is not what the code makes is refused by name; the weights shipped are exactly those a chapter reads."""

from __future__ import annotations

import hashlib
import json

import numpy as np
import pytest

from tdbook.core.paths import data_dir
from tdbook.core.storage import read_sidecar, write_sidecar
from tdbook.experiments.backgammon import equity_loss, expert_backgammon, rollout_consistency
from tdbook.experiments.backgammon import symmetric_gammon_nets as nets
from tdbook.experiments.backgammon import symmetric_gammon_records as rec
from tdbook.learners.backgammon_symmetric import SymmetricGammon


def test_a_check_passes_the_same_value_and_refuses_one_beyond_its_limit_by_name():
    assert rec.Check("x", 0.5, 0.5, 0.01).enforce().identical
    near = rec.Check("x", 0.5, 0.51, 0.01).enforce()  # another processor's near-tie: shown, not refused
    assert not near.identical and near.row()[-1].startswith("differs by")
    with pytest.raises(rec.RecordMismatch, match="x: the record says"):
        rec.Check("x", 0.5, 0.55, 0.01).enforce()
    with pytest.raises(rec.RecordMismatch):
        rec.Check("an exact value", 0.25, 0.2500001).enforce()


def test_the_rivals_record_is_read_for_its_own_settings_only_and_its_sample_trains_the_same_curve(tmp_path):
    spec = rec.rivals_spec(hidden=3, games=40, alpha=0.1, seed=5, seeds=1, eval_every=20, eval_pairs=2)
    path = tmp_path / "rivals.json"
    made = rec.record_rivals(spec, "python -m test", path, progress=False)
    assert len(made["curves"]) == len(rec.RIVALS) and made["spec"] == spec
    curves, record = rec.recorded_rivals(spec, path)
    assert record["command"] == "python -m test" and [c.rival for c in curves] == list(rec.RIVALS)
    assert rec.recorded_rivals({**spec, "games": 60}, path) is None  # other settings measure afresh
    assert rec.recorded_rivals(spec, tmp_path / "none.json") is None
    checks = rec.check_rivals(curves, spec, "symmetric", 2)
    assert len(checks) == 2 and all(c.identical for c in checks)
    bad = json.loads(path.read_text())
    bad["curves"][0]["ppg"][0] += 2.0
    path.write_text(json.dumps(bad))
    with pytest.raises(rec.RecordMismatch, match="rival symmetric, seed 5"):
        rec.check_rivals(rec.recorded_rivals(spec, path)[0], spec, "symmetric", 1)
    with pytest.raises(ValueError, match="points 1..2"):
        rec.check_rivals(curves, spec, "symmetric", 3)


@pytest.fixture
def tiny_net(tmp_path, monkeypatch):
    """A small free net with a sidecar under tmp_path, standing for a shipped net named ``tiny``."""
    model = SymmetricGammon.new("free", hidden=4, seed=3)
    model.train(3, 0, 30, 0.1)
    path = tmp_path / "tiny.npz"
    model.save(path)
    write_sidecar(path, {"command": "made here", "games": 30})
    monkeypatch.setattr(rec, "net_path", lambda name: tmp_path / f"{name}.npz")
    monkeypatch.setattr(rec, "load_shipped", lambda name: SymmetricGammon.load(tmp_path / f"{name}.npz"))
    return model


def test_a_rollout_record_is_the_diagnosis_it_names_and_its_sample_plays_the_same(tiny_net, tmp_path):
    rec.record_rollouts(["tiny"], 4, 6, 9, "python -m test rollouts", progress=False)
    side = json.loads((tmp_path / "tiny.json").read_text())
    assert side["command"] == "made here" and side[rec.ROLLOUTS_KEY]["trials"] == 6  # the rest of the sidecar kept
    fresh = rollout_consistency.rollout_consistency(tiny_net, 4, 6, 9, progress=False)
    found = rec.recorded_rollouts(["tiny"], 4, 6, 9)
    for k in ("net", "rollout", "rollout_se"):
        assert np.array_equal(found["tiny"][k], fresh[k])
    assert found["tiny"]["positions_sha256"] == rec.positions_sha256(fresh["positions"])
    assert rec.recorded_rollouts(["tiny"], 4, 8, 9) is None and rec.recorded_rollouts(["tiny"], 4, 6, 10) is None
    checks = rec.check_rollouts(found, "tiny", 4, 9, 2)
    assert len(checks) == 4 and all(c.identical for c in checks)
    found["tiny"]["rollout"][0] += 3.0
    with pytest.raises(rec.RecordMismatch, match="position 0"):
        rec.check_rollouts(found, "tiny", 4, 9, 1)
    found["tiny"]["positions_sha256"] = "0" * 64
    with pytest.raises(rec.RecordMismatch, match="positions drawn again"):
        rec.check_rollouts(found, "tiny", 4, 9, 1)


def test_a_shipped_net_replays_its_trainer_s_match_exactly():
    c = rec.check_trainer_match(nets.RIVAL_NETS["free"])
    assert c.identical and "4,000 games vs pubeval" in c.what


def test_the_shipped_records_are_the_standard_profiles_settings():
    """The standard profiles of 09 and 10 find their records: the rivals' curves, and every diagnosed net's rollouts."""
    from tdbook.experiments.backgammon import symmetric_gammon as sx

    c9 = sx.config("standard")
    spec = rec.rivals_spec(c9.HIDDEN, c9.GAMES, c9.ALPHA, 2011, c9.SEEDS, c9.EVAL_EVERY, c9.EVAL_PAIRS)
    assert rec.recorded_rivals(spec) is not None
    c10 = expert_backgammon.config("standard")
    names = [*rollout_consistency.CONSISTENCY_NETS, nets.BEST]
    assert rec.recorded_rollouts(names, c10.ROLL_POSITIONS, c10.ROLL_TRIALS, 2011 + 5) is not None


def test_data_ships_the_weights_a_chapter_reads_and_only_those():
    """Issue 48 §5: the weights in data/ are those of the nets a chapter's table, figure or panel reads; every other
    net keeps its sidecar (the record) with the SHA-256 its weights are restored by; the weights total at most 5 MB."""
    read = set(nets.RIVAL_NETS.values()) | {nets.BEST, expert_backgammon.CURVE_NET}
    read |= set(equity_loss.LOSS_NETS) | set(rollout_consistency.CONSISTENCY_NETS)
    read |= set(expert_backgammon.MATCH_ORDER)
    assert read == set(nets.NETS), "a shipped net no chapter reads, or a net read whose weights are not shipped"
    assert nets.best_shipped() == nets.BEST
    for n in nets.TRAINED:
        side = read_sidecar(nets.net_path(n))
        npz = data_dir() / f"{n}.npz"
        assert npz.is_file() == (n in nets.NETS), n
        if npz.is_file():
            assert side[nets.SHA256_KEY] == hashlib.sha256(npz.read_bytes()).hexdigest(), n
        else:
            assert len(side[nets.SHA256_KEY]) == 64, n
            with pytest.raises(ValueError, match=f"python -m tdbook restore {n}"):
                nets.load_shipped(n)
    total = sum(p.stat().st_size for p in data_dir().glob("*.npz"))
    assert total <= 5_000_000, f"the weights in data/ total {total:,} bytes"
