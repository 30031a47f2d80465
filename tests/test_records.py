"""Measurements the standard profile reads from their shipped record, running a sample again (issue 52 §2):
notebook 04's sensitivity sweeps through tdbook.experiments.common.records."""

from __future__ import annotations

import io

import numpy as np
import pytest

from tdbook.experiments.common import records
from tdbook.experiments.draw_poker import waterman_poker as wp


@pytest.fixture
def record_dir(tmp_path, monkeypatch):
    monkeypatch.setattr(records, "data_dir", lambda: tmp_path)
    monkeypatch.delenv(records.ENV, raising=False)
    records._written.clear()
    return tmp_path


def _columns(studies):
    return {v: np.column_stack([getattr(s, c) for c in wp.STUDY_COLUMNS]) for v, s in studies.items()}


def test_a_sweep_is_written_by_the_notebooks_run_read_by_the_standard_profile_and_its_sample_checked(
    record_dir, monkeypatch
):
    cfg = wp.config("standard", SWEEP_RUNS=3, SWEEP_AGREE=20)
    monkeypatch.setenv(records.ENV, "write")
    made = wp.sweep(cfg, 5, "automatic", "K", [2, 4], progress=False)
    noise = wp.noise_sweep(cfg, 5, [0.0, 0.2], progress=False)
    side = records.read_sidecar(records.path(wp.RECORD))
    assert side["command"] == wp.RECORD_COMMAND and len(side["entries"]) == 2
    monkeypatch.delenv(records.ENV)
    read = wp.sweep(cfg, 5, "automatic", "K", [2, 4], progress=False)  # read, the first run of each measured again
    assert list(read) == [2, 4] and all(len(s.trials) == 3 and s.name == "automatic" for s in read.values())
    assert all(np.array_equal(a, b, equal_nan=True) for a, b in zip(_columns(read).values(), _columns(made).values()))
    again = wp.noise_sweep(cfg, 5, [0.0, 0.2], progress=False)
    assert [s.name for s in again.values()] == ["noise 0", "noise 0.2"]
    assert all(np.array_equal(a, b, equal_nan=True) for a, b in zip(_columns(again).values(), _columns(noise).values()))
    # other knobs, another seed or another profile: no entry, measured as before
    other = wp.sweep(wp.with_knobs(cfg, SWEEP_RUNS=2), 5, "automatic", "K", [2], progress=False)
    assert len(other[2].trials) == 2
    quick = wp.sweep(wp.config("quick", SWEEP_RUNS=3, SWEEP_AGREE=20), 5, "automatic", "K", [2], progress=False)
    assert len(quick[2].trials) == 3 and quick[2].programs  # measured: it has its programs, a record has none


def test_a_record_the_code_no_longer_measures_is_refused_naming_the_command(record_dir, monkeypatch):
    cfg = wp.config("standard", SWEEP_RUNS=2, SWEEP_AGREE=20)
    monkeypatch.setenv(records.ENV, "write")
    wp.sweep(cfg, 5, "automatic", "KK", [0], progress=False)
    monkeypatch.delenv(records.ENV)
    p = records.path(wp.RECORD)
    with np.load(p) as z:
        arrays = {f: z[f].copy() for f in z.files}
    arrays["e0.v0"][0, 0] += 1  # the first run's trials, one more than the code measures
    buf = io.BytesIO()
    np.savez_compressed(buf, **arrays)
    p.write_bytes(buf.getvalue())
    with pytest.raises(records.RecordMismatch, match="the first run of sweep at 0 measured again is not what"):
        wp.sweep(cfg, 5, "automatic", "KK", [0], progress=False)
    with pytest.raises(
        records.RecordMismatch, match=r"remake the record with `TDBOOK_RECORDS=write python -m tdbook run 04`"
    ):
        wp.sweep(cfg, 5, "automatic", "KK", [0], progress=False)


def test_keys_are_canonical():
    assert records.key(b=1, a=(1, 2)) == records.key(a=[1, 2], b=1) == '{"a": [1, 2], "b": 1}'
    assert records.key(x=np.int64(3), y=np.array([1.5])) == '{"x": 3, "y": [1.5]}'


def test_notebook_07s_ablations_read_from_the_record_are_the_rows_measured(record_dir, monkeypatch, session):
    """The rows rebuilt from the record are the measured rows to the last bit and type (their repr is equal), with
    the first configuration trained again; outside the standard profile nothing is read."""
    from tdbook import results
    from tdbook.experiments.tictactoe import net_perfect, tictactoe_td_net

    monkeypatch.setenv(records.ENV, "write")
    made = tictactoe_td_net.ablation("v1.1", 600, 3, leave_one_out=False, log_every=100, progress=False)
    recipe = net_perfect.recipe_ablation(2000, 3, progress=False)
    monkeypatch.delenv(records.ENV)
    assert len(records.read_sidecar(records.path(tictactoe_td_net.RECORD))["entries"]) == 2
    read = tictactoe_td_net.ablation("v1.1", 600, 3, leave_one_out=False, log_every=100, progress=False)
    assert read == made and repr(read) == repr(made)  # the session is quick: measured again, not read
    monkeypatch.setattr(results.current(), "profile", "standard")
    calls, train = [], tictactoe_td_net.train
    monkeypatch.setattr(tictactoe_td_net, "train", lambda *a, **k: calls.append(1) or train(*a, **k))
    read = tictactoe_td_net.ablation("v1.1", 600, 3, leave_one_out=False, log_every=100, progress=False)
    assert repr(read) == repr(made) and len(calls) == 1  # read; the thesis configuration trained again
    again = net_perfect.recipe_ablation(2000, 3, progress=False)
    assert repr(again) == repr(recipe) and any(r.stable is not None for r in again)


def test_notebook_08s_matches_read_from_the_record_are_the_matches_played(record_dir, monkeypatch):
    """Every pair's points recorded; read back, the first pairs played again equal the recorded ones (pair p always
    plays dice stream p, so a shorter match is the longer one's start) and the results are the matches played."""
    from tdbook.experiments.backgammon import ladder, td_gammon

    cfg = td_gammon.config("standard", PUBEVAL_PAIRS=50, LADDER_PAIRS=45)
    nets = td_gammon.nets(cfg)
    monkeypatch.setenv(records.ENV, "write")
    played = ladder.ladder_matches(nets, cfg, 7)
    monkeypatch.delenv(records.ENV)
    read = ladder.ladder_matches(nets, cfg, 7)
    assert repr(read) == repr(played) and list(read) == [(40, "pubeval"), (80, "pubeval"), ("pubeval", "gnubg-expert")]
    assert read[40, "pubeval"].games == 100 and read["pubeval", "gnubg-expert"].games == 90
    other = ladder.ladder_matches(nets, td_gammon.config("standard", PUBEVAL_PAIRS=50, LADDER_PAIRS=0), 7)
    assert list(other) == [(40, "pubeval"), (80, "pubeval")]  # other knobs: played, not read


def test_notebook_03s_performance_curves_read_from_the_record_are_the_curves_measured(record_dir, monkeypatch, session):
    from tdbook import results
    from tdbook.experiments.kenju import training

    monkeypatch.setattr(results.current(), "profile", "standard")
    monkeypatch.setenv(records.ENV, "write")
    made = training.performance_curves(3, 2, 5, progress=False)
    monkeypatch.delenv(records.ENV)
    read = training.performance_curves(3, 2, 5, progress=False)
    assert read.test_games == 2 and all(np.array_equal(read.curves()[k], v) for k, v in made.curves().items())
    assert read.W.shape == (3, 20) and repr(read) == repr(made)


def test_a_sample_agrees_to_the_last_bits_of_another_processor_but_not_to_a_change():
    """Issue 52: floats a few ulps apart (another BLAS kernel, another CPU) agree; integers and a real change do not."""
    x = np.array([0.5, 1 / 3, 2.0e-3, np.nan])
    ulps = x.copy()
    ulps[:3] = np.nextafter(np.nextafter(x[:3], np.inf), np.inf)  # two ulps up
    assert not np.array_equal(x, ulps, equal_nan=True) and records.same_numbers(x, ulps)
    assert not records.same_numbers(x, x * (1 + 1e-6))
    assert not records.same_numbers(x[:3], x[:2])
    counts = np.array([3, 4, 5])
    assert records.same_numbers(counts, counts.copy()) and not records.same_numbers(counts, counts + [0, 0, 1])
