"""The equity-loss diagnosis of notebook 09: gnubg 0-ply judging each move of a net against gnubg."""

from __future__ import annotations

import numpy as np
import pytest

from tdbook.core.rng import seed_state
from tdbook.experiments.backgammon.equity_loss import CLASSES, JudgedPlayer, equity_losses, judged_scores
from tdbook.experiments.backgammon.match import REPORT_BASE, play_python_game
from tdbook.games import backgammon as bg
from tdbook.learners.backgammon_symmetric import SymmetricGammon
from tdbook.players.backgammon import GnubgPlayer, RandomPlayer


def _gammoned_race() -> np.ndarray:
    """The mover: 14 checkers on its 6-point and one on point 20, in the opponent's home board, none off; the
    opponent: one checker on its 1-point (our 24), 14 off — it bears off next roll, gammon or backgammon."""
    pos = np.zeros(bg.NSLOT, np.int8)
    pos[6], pos[20] = 14, 1
    pos[24], pos[bg.OPP_OFF] = -1, -14
    return pos


def test_a_backgammon_saved_is_worth_a_point_as_scored_and_nothing_as_a_gammon():
    bufs = bg.make_buffers()
    n = bg.gen_afterstates(_gammoned_race(), 2, 1, *bufs)
    after = bufs[0][:n]
    full, as_gammon = judged_scores(after)
    stays = np.array([(a[19:25] > 0).any() for a in after])  # a checker still in the opponent's home board
    assert stays.any() and not stays.all()
    assert np.allclose(full[stays], -3.0, atol=1e-6) and np.allclose(full[~stays], -2.0, atol=1e-6)
    assert np.allclose(as_gammon, -2.0, atol=1e-6)  # the post's equity sees no difference


def test_gnubg_judged_by_itself_loses_nothing_and_a_random_player_loses_equity():
    for player, lost in ((GnubgPlayer("expert"), False), (RandomPlayer(seed=3), True)):
        judged = JudgedPlayer(player)
        for p in range(3):
            play_python_game((judged, GnubgPlayer("expert")), seed_state(5, 2 * p))
        decisions = sum(judged.loss[c][0] for c in CLASSES)
        loss = sum(judged.loss[c][1] for c in CLASSES)
        assert decisions > 20
        assert (loss > 0.5) if lost else (loss == 0.0), (player.name, loss)


def test_equity_losses_reports_per_game_and_refuses_report_seeds_and_bad_pairs():
    model = SymmetricGammon.new("free", hidden=4, seed=1)
    r = equity_losses(model, 2, seed=7, progress=False)
    assert r["games"] == 4 and set(r["classes"]) == set(CLASSES)
    assert all(v["loss"] >= 0 and v["loss_as_gammon"] >= 0 for v in r["classes"].values())
    assert sum(v["decisions"] for v in r["classes"].values()) > 5
    assert r["bg_lost"] + r["bg_won"] + r["gammon_lost"] <= 1
    with pytest.raises(ValueError, match="report set"):
        equity_losses(model, 2, seed=REPORT_BASE + 1, progress=False)
    with pytest.raises(ValueError, match="pairs must be a positive int"):
        equity_losses(model, 0, seed=7, progress=False)
