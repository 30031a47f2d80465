"""Notebook 02's measurements of the board and the look-ahead (tdbook.experiments.checkers.board,
checkers_lookahead) and the match protocol (checkers_match)."""

from __future__ import annotations

import numpy as np
import pytest

from tdbook.experiments.checkers import board as cb
from tdbook.experiments.checkers import lookahead as cl
from tdbook.experiments.checkers import match as cm
from tdbook.experiments.checkers.samuel_checkers import (
    SHIPPED,
    centuries_log10,
    config,
    learned,
    retrain_argv,
    shipped_command,
)
from tdbook.games.checkers import moves_of
from tdbook.players.checkers import material_player, random_player


def test_words_shifts_and_perft():
    w = cb.words()
    assert [r["squares"] for r in w][:3] == [list(range(1, 13)), [], list(range(21, 33))]
    assert w[4]["squares"] == list(range(1, 13)) + list(range(21, 33))
    s = cb.shift_sets(200)
    assert s["Samuel 35-bit"] == [4, 5] and s["32-square"] == [3, 4, 5] and s["35-bit shifts exact"]
    assert cb.highest_samuel_bit() == 35
    assert all(r["equal"] for r in cb.perft_table(7))


def test_figure_3_4_by_alpha_beta():
    t = cl.alpha_beta_tree()
    assert t.chosen == "piece 1 forward right" and t.value == 8 and t.backed_up[:2] == (6, 8)
    assert t.cut == (("piece 2 forward right", 1),) and t.leaves_read == 3
    with pytest.raises(ValueError, match="not printed"):
        cl.alpha_beta_tree(pruning=False)
    full = cl.alpha_beta_tree(tree=(("a", (3, 5)), ("b", (4, 1)), ("c", (2, 9))), pruning=False)
    pruned = cl.alpha_beta_tree(tree=(("a", (3, 5)), ("b", (4, 1)), ("c", (2, 9))))
    assert full.chosen == pruned.chosen == "a" and full.value == pruned.value == 3 and pruned.leaves_read == 5


def test_node_counts_and_depths():
    pos = cl.sample_positions(3)
    nc = cl.node_counts(pos, 4, progress=False)
    assert np.all(nc.minimax >= nc.alpha_beta) and nc.minimax[0] == sum(1 + len(moves_of(s)) for s in pos)
    assert nc.ebf("minimax").shape == (2,) and 0 < nc.exponent_ratio() < 1.2
    ds = cl.depth_study(pos, fixed=(3,), progress=False)
    assert ds.samuel_leaves[3:].sum() > 0 and ds.samuel_leaves[21:].sum() == 0 and ds.samuel_nodes.shape == (3,)
    assert np.flatnonzero(ds.fixed[3]).max() <= 3 and ds.mean_leaf_ply() >= 3 - 1e-9


def test_ply_rule_break_points():
    bp = cl.break_points(cl.ply_rule_probes())
    assert bp == {"minimum": 3, "after a jump": 4, "exchange": 5, "ahead": 11, "hard": 20, "lead that does not stop": 2}
    from tdbook.players.checkers_search import SearchRules

    other = SearchRules.samuel(min_ply=4, second_ply=5, ahead_ply=9, hard_ply=15)
    assert cl.break_points(cl.ply_rule_probes(other), other)["minimum"] == 4


def test_match_plays_each_start_twice_with_colours_swapped():
    starts = cm.start_positions(4)
    r = cm.match(material_player(), random_player(), starts)
    assert r.games == 8 and r.as_black.shape == (4,) and sum(r.wdl) == 8 and r.score > 0.8
    assert r.score == pytest.approx(r.pairs.mean()) and r.stderr >= 0 and "material α-β v random" in r.text()
    sc, se = cm.score_matrix({("a", "b"): r}, ["a", "b"])
    assert sc[0, 1] == r.score and sc[1, 0] == pytest.approx(1 - r.score) and np.isnan(sc[0, 0])


def test_config_and_powells_arithmetic():
    assert config("quick").PERFT_DEPTH >= 1 and config("standard").ROTE_BALLOTS == 157
    with pytest.raises(ValueError, match="VERIFY_BALLOTS"):
        config("quick", VERIFY_BALLOTS=400)
    with pytest.raises(ValueError, match="RATING_REPS"):
        config("quick", RATING_REPS=3)
    assert centuries_log10() == pytest.approx(21.0, abs=0.1)


def test_the_shipped_weights_and_the_full_profiles_retraining_command(tmp_path):
    for method in SHIPPED:
        run = learned(method)
        assert run.meta["method"] == method and run.command == shipped_command(method)
        assert run.command.startswith(f"python -m tdbook train checkers --method {method}")
        argv = retrain_argv(run.command, tmp_path / "w.npz", progress=False)
        assert argv[:2] == ["--method", method] and argv[-3:] == ["--out", str(tmp_path / "w.npz"), "--no-progress"]
        assert "data/" not in " ".join(argv)
    sam = learned("samuel")
    assert len(sam.active()) == 16 and len(sam.reserve()) == 22 and sam.tally_at_removal() == 8
    with pytest.raises(ValueError, match="not a 'python -m tdbook train checkers' command"):
        retrain_argv("python -m tdbook train backgammon --games 3", tmp_path / "w.npz")
