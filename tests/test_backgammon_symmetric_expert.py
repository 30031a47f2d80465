"""Issue 34 in notebook 09: the learning curve written into a net's sidecar (parent, snapshots, the net), the
recipe table and the aim read from the shipped sidecars."""

from __future__ import annotations

from pathlib import Path

import pytest

from tdbook.core.storage import read_sidecar
from tdbook.experiments.backgammon import symmetric_gammon as sx
from tdbook.experiments.backgammon import symmetric_gammon_expert as ex
from tdbook.experiments.backgammon import symmetric_gammon_rivals as rivals
from tdbook.experiments.backgammon.symmetric_gammon_cli import train_main
from tdbook.learners.backgammon_symmetric import SymmetricGammon


def test_the_learning_curve_measures_parent_snapshots_and_net_on_the_selection_seed(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(ex, "data_dir", lambda: tmp_path)
    base = ["--arch", "free", "--hidden", "3", "--checkpoint-every", "1000", "--pubeval-pairs", "2", "--no-progress"]
    parent = tmp_path / "parent.npz"
    assert (
        train_main([*base, "--games", "1000", "--out", str(parent), "--checkpoint", str(tmp_path / "p.ckpt.npz")]) == 0
    )
    run = [*base, "--inputs", "expanded", "--warm-start", str(parent), "--snapshot-every", "1000"]
    net = tmp_path / "net.npz"
    assert train_main([*run, "--games", "3000", "--out", str(net), "--checkpoint", str(tmp_path / "n.ckpt.npz")]) == 0
    snaps = sorted(str(p) for p in tmp_path.glob("net_*k.snap.npz"))
    assert [p.split("_")[-1] for p in snaps] == ["2k.snap.npz", "3k.snap.npz"]
    args = [str(net), "--snapshots", snaps[0], "--pubeval-pairs", "4", "--gnubg-pairs", "1", "--no-progress"]
    assert ex.main(args) == 0
    curve = read_sidecar(net)["curve"]
    assert curve["command"] == f"python -m tdbook.experiments.backgammon.symmetric_gammon_expert {' '.join(args)}"
    assert [p["games"] for p in curve["points"]] == [1000, 2000, 3000]
    assert curve["points"][1]["vs_pubeval"]["games"] == 8 and curve["points"][1]["vs_gnubg_expert"]["games"] == 2
    direct = rivals.vs_pubeval(SymmetricGammon.load(snaps[0]), 4, seed=ex.SELECTION_SEED)
    assert curve["points"][1]["vs_pubeval"]["ppg"] == pytest.approx(direct.ppg)
    widened = SymmetricGammon.load(parent).widen("expanded")  # the parent is measured as the run started from it
    assert curve["points"][0]["vs_pubeval"]["ppg"] == pytest.approx(
        rivals.vs_pubeval(widened, 4, seed=ex.SELECTION_SEED).ppg
    )
    assert "2,000 games: pubeval" in capsys.readouterr().out
    other = tmp_path / "other.npz"
    SymmetricGammon.new("free", hidden=3, inputs="expanded").save(other, games_done=5, spec={"arch": "free"})
    before = read_sidecar(net)
    assert ex.main([str(net), "--snapshots", str(other), "--pubeval-pairs", "1", "--gnubg-pairs", "1"]) == 2
    assert "a snapshot of another run" in capsys.readouterr().err and read_sidecar(net) == before
    assert ex.main([str(net), "--snapshots", str(tmp_path / "none.npz")]) == 2
    assert "no such snapshot" in capsys.readouterr().err


def test_each_net_is_named_once_in_the_picker_table():
    """Issue 35: the picker's rows named a larger-budget net by its label and again by its parent's; a row names
    the net alone (the four rivals keep their descriptive labels)."""
    assert sx.short_label("symgammon_free160_contact_bg_4800k") == "(c″, 160, 4.8 M, bg, contact)"
    assert sx.short_label("symmetric") == sx.LABELS["symmetric"]
    nets = {
        "free": SymmetricGammon.new("free", hidden=3),
        "symgammon_free160_contact_bg_4800k": SymmetricGammon.new("free", hidden=3),
    }
    rows = sx.position_rows(nets, sx.picker_positions(2, seed=1)[1])
    assert [r[0] for r in rows] == ["gnubg 0-ply", sx.LABELS["free"], "(c″, 160, 4.8 M, bg, contact)"]


def test_the_panel_explains_before_run_the_combinations_that_cannot_run():
    """Issue 35: rival (b) with backgammon outputs, or (d) with other inputs, is explained before Run, in the words
    that say what to change; every combination the check lets through builds its net."""
    assert "pick rival 'free'" in sx.explore_check(rival="naive", inputs="raw", backgammons=True)
    assert "set inputs to raw" in sx.explore_check(rival="tesauro", inputs="contact", backgammons=False)
    for rival in rivals.RIVALS:
        for inputs in ("raw", "expanded", "contact"):
            for bgs in (False, True):
                if sx.explore_check(rival=rival, inputs=inputs, backgammons=bgs) is None:
                    rivals.new_rival(rival, 3, 0.1, 1, inputs, bgs)
                else:
                    with pytest.raises(ValueError):
                        rivals.new_rival(rival, 3, 0.1, 1, inputs, bgs)


def test_every_shipped_net_has_one_name_by_the_rule_of_its_sidecar():
    """Issue 31: a net's name is its file stem and its name in the code, built by one rule from what its sidecar
    says it is; its label's short name by one rule too; a net renamed since is found by its old name's sidecar."""
    from tdbook.experiments.backgammon import symmetric_gammon_nets
    from tdbook.experiments.backgammon.rollout_training import net_name as loop_net_name
    from tdbook.experiments.backgammon.symmetric_gammon_cli import net_name

    for name in symmetric_gammon_nets.TRAINED:
        side = read_sidecar(symmetric_gammon_nets.net_path(name))
        sp = side["spec"]
        if "loop" in sp:  # a net of the rollout loop: its parent's name, the lever and the iterations
            lever = "search" if sp["loop"].get("search") else "rollouts"
            assert name == loop_net_name(Path(sp["warm_start"]["file"]).stem, side["iterations"], lever), name
        else:
            assert name == net_name(sp, side["games"]), name
        assert (
            symmetric_gammon_nets.LABELS[name].startswith(symmetric_gammon_nets.short_name(name))
            or name in symmetric_gammon_nets.RIVAL_NETS.values()
        )
    assert symmetric_gammon_nets.short_name("symgammon_free80_raw_800k") == "(c′)"
    assert symmetric_gammon_nets.short_name("symgammon_symmetric80_expanded_800k") == "(a″)"
    assert symmetric_gammon_nets.short_name("symgammon_free160_expanded_anneal_4000k") == "(c″, 160, 4.0 M, α 0.005)"
    averaged = symmetric_gammon_nets.short_name("symgammon_free160_positional_bg_averaged_7600k")
    assert averaged == "(c″, 160, 7.6 M, bg, positional, averaged)"
    assert (
        symmetric_gammon_nets.short_name("symgammon_free160_contact_bg_bearoff_4800k")
        == "(c″, 160, 4.8 M, bg, contact, bear-off)"
    )
    assert symmetric_gammon_nets.short_name("symgammon_naive40_raw_150k") == "(b)"
    searched = symmetric_gammon_nets.short_name("symgammon_free160_positional_bg_search1_7400k")
    assert searched == "(c″, 160, 7.4 M, bg, positional, 2-ply targets)"
    trained = symmetric_gammon_nets.TRAINED
    assert len({symmetric_gammon_nets.LABELS[n] for n in trained}) == len(trained)
    with pytest.raises(ValueError, match="'symgammon_c160bgct' is now called 'symgammon_free160_contact_bg_4800k'"):
        sx.load_shipped("symgammon_c160bgct")
    with pytest.raises(ValueError, match="no shipped net 'free160bgct'; choose from: symgammon_symmetric40_raw_150k"):
        sx.load_shipped("free160bgct")


def test_a_run_is_the_same_run_under_its_parent_s_new_name():
    """A snapshot or checkpoint made before the parent was renamed belongs to the run (the parent is its SHA-256
    and games); another parent, or any other difference, does not."""
    from tdbook.experiments.backgammon.symmetric_gammon_cli import _resumable, same_run

    warm = {"file": "data/symgammon_c160bgct.npz", "sha256": "ab" * 32, "games": 4_800_000}
    old = {"arch": "free", "hidden": 160, "seed": 1, "warm_start": warm}
    new = old | {"warm_start": warm | {"file": "data/symgammon_free160_contact_bg_4800k.npz"}}
    assert same_run(old, new) and _resumable(old, new, 4_900_000)
    assert not same_run(old, new | {"warm_start": warm | {"sha256": "cd" * 32}})
    assert not same_run(old, new | {"hidden": 80}) and not same_run(old, None)


def test_the_slope_of_a_learning_curve_is_the_weighted_least_squares_line():
    """Hand-computed cases: equal weights give the ordinary slope Σ(x−x̄)(y−ȳ)/Σ(x−x̄)² with standard error
    σ/√Σ(x−x̄)²; a point known a hundred times less precisely barely moves the line; bad input is named."""
    s = ex.wls_slope([0, 1, 2], [0, 1, 2.5], [1, 1, 1])
    assert s.mean == pytest.approx(1.25) and s.stderr == pytest.approx(0.5**0.5) and s.n == 3
    assert ex.wls_slope([0, 1, 2], [0, 1, 2.5], [0.5, 0.5, 0.5]).stderr == pytest.approx(0.5 * 0.5**0.5)
    assert ex.wls_slope([0, 1, 2, 3], [0, 1, 2, 100], [1, 1, 1, 100]).mean == pytest.approx(1.0, abs=0.02)
    with pytest.raises(ValueError, match="two or more x"):
        ex.wls_slope([1, 1], [0, 1], [1, 1])
    with pytest.raises(ValueError, match="standard error > 0"):
        ex.wls_slope([0, 1], [0, 1], [1, 0])
    with pytest.raises(ValueError, match="differ in length"):
        ex.wls_slope([0, 1], [0, 1], [1])


def test_two_curves_of_one_run_read_as_one_the_parent_once(tmp_path, monkeypatch):
    """A run's curve recorded in two sidecars (to 6.0 M, then on to 7.0 M) shares its parent's point: the table
    shows it once, the trend fits each number of games once and from ``since`` on."""
    from tdbook.core.storage import write_sidecar

    def point(games, pub, exp):
        return {
            "games": games,
            "vs_pubeval": {"ppg": pub, "stderr": 0.01},
            "vs_gnubg_expert": {"ppg": exp, "stderr": 0.02},
        }

    parent = point(1_000_000, 0.1, -0.3)
    curves = {
        "a": [parent, point(2_000_000, 0.2, -0.2)],
        "b": [parent, point(3_000_000, 0.3, -0.1), point(4_000_000, 0.4, -0.0)],
        "c": [],
    }
    for k, pts in curves.items():
        write_sidecar(tmp_path / f"{k}.npz", {"curve": {"points": pts}} if pts else {})
    monkeypatch.setattr(ex, "net_path", lambda k: tmp_path / f"{k}.npz")
    monkeypatch.setattr(ex, "short_label", lambda k: k.upper())
    rows = ex.curve_rows(["a", "b"])
    assert [r[:2] for r in rows] == [["A", "1.00 M"], ["A", "2.00 M"], ["B", "3.00 M"], ["B", "4.00 M"]]
    trend = ex.curve_trend(["a", "b"])
    assert trend["pubeval"].mean == pytest.approx(0.1) and trend["gnubg-expert"].mean == pytest.approx(0.1)
    assert trend["pubeval"].n == 4 and ex.curve_trend(["a", "b"], since=2_000_000)["pubeval"].n == 3
    run = ex.Run("the run", "curve-slope-x", curve=("a", "b"), since=2_000_000)
    monkeypatch.setattr(ex, "RUNS", {"x": run})
    pts = ex.run_points(run)
    assert [x for x, _ in pts["gnubg-expert"]] == [2.0, 3.0, 4.0] and pts["pubeval"][0][1].mean == 0.2
    claims = ex.run_claims()
    assert list(claims) == ["curve-slope-x"]
    assert claims["curve-slope-x"]["ours"] == ex.curve_trend(["a", "b"], since=2_000_000)["gnubg-expert"]
    note = claims["curve-slope-x"]["note"]
    assert "3 points from 2.0 M to 4.0 M games" in note and "through all 4 points" in note
    with pytest.raises(ValueError, match="c.npz has no learning curve"):
        ex.curve_rows(["a", "c"])
