"""Notebook 09 §4.5: a net's play-outs against a plain Python loop of its own player on the same dice, positions
decided in one roll scored exactly (a single, a gammon, a backgammon capped for a net without backgammon outputs),
the noise-free gap of known biases, the self-play record, the same seed giving the same numbers, and bad input."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tdbook.core.rng import seed_state
from tdbook.experiments.backgammon import rollout_consistency as rc
from tdbook.experiments.backgammon.symmetric_gammon import position_class
from tdbook.games import backgammon as bg
from tdbook.learners.backgammon_symmetric import SymmetricGammon
from tdbook.players.backgammon_symmetric import SymNetPlayer, sym_net


def _net(backgammons: bool = True, seed: int = 3) -> SymmetricGammon:
    model = SymmetricGammon.new("free", hidden=6, seed=seed, inputs="positional", backgammons=backgammons)
    rng = np.random.default_rng(seed)
    model.W1[:] = rng.normal(0.0, 0.3, model.W1.shape)
    model.W2[:] = rng.normal(0.0, 0.3, model.W2.shape)
    return model


def _playout(model: SymmetricGammon, pos0: np.ndarray, seed: int, stream: int, cap: int) -> int:
    """One play-out written plainly: the public player's choice on the engine's afterstates, dice from the same
    seeded stream."""
    player = SymNetPlayer(model)
    out, mv, ws = bg.make_buffers()
    dice = seed_state(seed, stream)
    pos, mover = pos0.copy(), 0
    while True:
        d1, d2 = bg.roll(dice)
        n = bg.gen_afterstates(pos, d1, d2, out, mv, ws)
        after = out[:n].copy()
        k = player.choose(pos, d1, d2, after)
        if after[k, bg.OFF] == 15:
            r = min(int(bg.win_multiplier(after[k])), cap)
            return r if mover == 0 else -r
        pos, mover = bg.flipped(after[k]), 1 - mover


@pytest.mark.parametrize("backgammons", [True, False])
def test_playouts_are_the_players_games_on_the_same_dice(backgammons):
    model = _net(backgammons)
    positions = rc.contact_positions(model, 3, seed=7)
    cap = 3 if backgammons else 2
    res = np.zeros(4, np.int64)
    for i, p in enumerate(positions):
        rc.rollout_results(sym_net(model), p, 7, 100 + 4 * i, res, cap)
        assert res.tolist() == [_playout(model, p, 7, 100 + 4 * i + t, cap) for t in range(4)]


@pytest.mark.parametrize(
    "pos, cap, want",
    [
        (bg.make_position({1: 1}, {24: 1}), 3, 1),  # we bear off our last checker on any roll: a single
        (bg.make_position({1: 1}, {19: 15}), 3, 2),  # … the opponent has none off: a gammon
        (bg.make_position({1: 1}, {6: 14}, their_bar=1), 3, 3),  # … theirs in our home and on the bar: a backgammon
        (bg.make_position({1: 1}, {6: 14}, their_bar=1), 2, 2),  # … a gammon to a net without backgammon outputs
        (bg.make_position({12: 3}, {24: 1}), 3, -1),  # we cannot finish (36 pips to go): the opponent's next roll wins
    ],
)
def test_a_position_decided_in_one_roll_plays_out_exactly(pos, cap, want):
    res = np.zeros(50, np.int64)
    rc.rollout_results(sym_net(_net()), pos, 1, 0, res, cap)
    assert (res == want).all()


def test_the_gap_is_the_rms_of_a_known_bias_and_the_noise_is_taken_out():
    rng = np.random.default_rng(0)
    net = rng.normal(0.0, 0.5, 400)
    bias = rng.choice([-0.1, 0.1], 400)
    exact = {"net": net, "rollout": net + bias, "rollout_se": np.zeros(400)}
    g = rc.consistency_gap(exact)
    assert g.mean == pytest.approx(0.1) and g.stderr == pytest.approx(0.0, abs=1e-12) and g.n == 400
    assert rc.consistency_bias(exact).mean == pytest.approx(bias.mean())
    se = np.full(400, 0.2)  # play-outs that add noise of exactly their standard error leave the gap where it was
    noisy = {"net": net, "rollout": net + bias + se * rng.choice([-1.0, 1.0], 400), "rollout_se": se}
    assert abs(rc.consistency_gap(noisy).mean - 0.1) < 3 * rc.consistency_gap(noisy).stderr
    none = {"net": net, "rollout": net + se * rng.choice([-1.0, 1.0], 400), "rollout_se": se * 1.01}
    g0 = rc.consistency_gap(none)  # no bias at all: the gap is 0, its error the root of the mean's
    assert g0.mean == 0.0 and g0.stderr > 0


def test_self_play_record_starts_at_the_opening_and_stops_when_full():
    net = sym_net(_net())
    rec = np.zeros((20_000, bg.NSLOT), np.int8)  # a net of random weights plays long games: about 1,200 plies each
    m = rc.selfplay_positions(net, 2, 5, 1, rec, *bg.make_buffers())
    start = np.zeros(bg.NSLOT, np.int8)
    bg.set_initial(start)
    assert 20 < m < 20_000 and np.array_equal(rec[0], start)
    small = np.zeros((10, bg.NSLOT), np.int8)
    assert rc.selfplay_positions(net, 2, 5, 1, small, *bg.make_buffers()) == 10
    assert np.array_equal(small, rec[:10])


@pytest.mark.parametrize("source", rc.SOURCES)
def test_same_seed_same_numbers_and_contact_positions_only(source):
    model = _net()
    a = rc.rollout_consistency(model, 5, 6, seed=11, source=source, progress=False)
    b = rc.rollout_consistency(model, 5, 6, seed=11, source=source, progress=False)
    for k in ("net", "rollout", "rollout_se", "positions"):
        assert np.array_equal(a[k], b[k])
    assert len(a["positions"]) == 5 and len({p.tobytes() for p in a["positions"]}) == 5
    assert all(position_class(p) == "contact" for p in a["positions"])
    assert np.allclose(a["net"], [model.equity(p) for p in a["positions"]])
    assert all(math.isfinite(x) for x in a["rollout"])


@pytest.mark.parametrize(
    "kw, msg",
    [({"n_positions": 0}, "n_positions"), ({"trials": 1}, "trials"), ({"source": "gnubg"}, "source")],
)
def test_bad_input_names_the_problem(kw, msg):
    args = {"n_positions": 3, "trials": 4, "seed": 1, "source": "self", **kw}
    with pytest.raises(ValueError, match=msg):
        rc.rollout_consistency(_net(), progress=False, **args)
    if "trials" not in kw:
        with pytest.raises(ValueError, match=msg):
            rc.contact_positions(_net(), kw.get("n_positions", 3), seed=1, source=kw.get("source", "self"))
