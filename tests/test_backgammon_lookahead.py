"""Issue 34's lookahead lever: the one-ply-deeper outputs against a plain reference built from the public API
(roll weights, the frame swap, a game won by the reply), the lever off being plain TD(0), its own random stream
(the same dice with or without it), the share checked, and the command line's name, spec and resume."""

from __future__ import annotations

import numpy as np
import pytest

from tdbook.experiments.backgammon.match import sample_positions
from tdbook.games import backgammon as bg
from tdbook.learners import backgammon_symmetric as sym
from tdbook.learners.backgammon_net import ROLL_WEIGHTS, ROLLS
from tdbook.learners.backgammon_symmetric import SymmetricGammon


def _net(backgammons: bool, bearoff: bool = False, seed: int = 5) -> SymmetricGammon:
    model = SymmetricGammon.new("free", hidden=6, seed=seed, inputs="positional", backgammons=backgammons)
    rng = np.random.default_rng(seed)
    model.W1[:] = rng.normal(0.0, 0.3, model.W1.shape)
    model.W2[:] = rng.normal(0.0, 0.3, model.W2.shape)
    return model.with_bearoff() if bearoff else model


def _reference(model: SymmetricGammon, pos: np.ndarray) -> np.ndarray:
    """The mean over the 21 rolls of the mover's outputs after its best 1-ply reply, from the model's
    probabilities (``SymmetricGammon.probabilities``) and the engine's afterstates, written out plainly."""
    out, mv, ws = bg.make_buffers()
    q = np.zeros(model.outputs)
    for (d1, d2), w in zip(ROLLS, ROLL_WEIGHTS):
        n = bg.gen_afterstates(pos, d1, d2, out, mv, ws)
        values, outs = [], []
        for a in out[:n]:
            if a[bg.OFF] == 15:
                m = bg.win_multiplier(a)
                o = [1.0, float(m >= 2), 0.0, float(m == 3), 0.0][: model.outputs]
                values.append(float(m))
            else:
                p = model.probabilities(bg.flipped(a))
                o = [1 - p[0], p[2], p[1], *([p[4], p[3]] if model.outputs == 5 else [])]
                values.append(-float(sym.equity(p)))
            outs.append(o)
        q += w / 36.0 * np.array(outs[int(np.argmax(values))])
    return q


@pytest.mark.parametrize("backgammons,bearoff", [(True, False), (False, False), (True, True)])
def test_lookahead_outputs_are_the_mean_over_the_rolls_of_the_greedy_replies(backgammons, bearoff):
    model = _net(backgammons, bearoff)
    positions, _ = sample_positions(6, seed=11, every=7)
    last = np.zeros(bg.NSLOT, np.int8)  # one checker left on the 1 point, the opponent all home: every roll wins
    last[1], last[bg.OFF], last[19] = 1, 14, -15  # the opponent: all 15 on its own 6 point, none off
    for pos in [*positions, last]:
        assert np.allclose(model.lookahead(pos), _reference(model, pos), rtol=0, atol=1e-12)
    q = model.lookahead(last)
    assert q[0] == pytest.approx(1.0) and q[1] == pytest.approx(1.0)  # a gammon on every roll: none off
    assert not q[2:].any()  # no loss, and with backgammon outputs no backgammon: none in our home board or on the bar


def test_lookahead_off_is_plain_td0_on_shares_its_own_stream_and_a_bad_share_changes_nothing():
    plain, off = _net(True), _net(True)
    s_plain = plain.train(1, 0, 30, 0.05)
    s_off = off.train(1, 0, 30, 0.05, lookahead=0.0)
    assert np.array_equal(plain.W1, off.W1) and np.array_equal(s_plain, s_off)
    on, again = _net(True), _net(True)
    on.train(1, 0, 30, 0.05, lookahead=0.5)
    again.train(1, 0, 30, 0.05, lookahead=0.5)
    assert np.array_equal(on.W1, again.W1) and np.array_equal(on.W2, again.W2)  # the same seed, the same net
    assert not np.array_equal(on.W1, plain.W1)  # the deeper targets did train it differently
    frozen, frozen_look = _net(True), _net(True)  # α tiny: the same moves, so the lookahead draws leave the dice alone
    s1 = frozen.train(1, 0, 20, 1e-300)
    s2 = frozen_look.train(1, 0, 20, 1e-300, lookahead=1.0)
    assert np.array_equal(s1, s2)
    before = on.W1.copy()
    for bad in (-0.1, 1.5, float("nan")):
        with pytest.raises(ValueError, match="lookahead must be a share in"):
            on.train(1, 30, 5, 0.05, lookahead=bad)
    assert np.array_equal(on.W1, before)


@pytest.mark.parametrize(
    "flag,value,key,lever,bad",
    [
        ("--lookahead", 0.1, "lookahead", "lookahead", "--lookahead must be a share in [0, 1], got 1.5"),
        ("--lambda", 0.7, "lam", "lambda07", "--lambda must be in [0, 1], got 1.5"),  # issue 51's TD(λ)
    ],
)
def test_cli_lever_names_the_net_records_it_and_resumes_to_the_uninterrupted_weights(
    tmp_path, capsys, flag, value, key, lever, bad
):
    from tdbook.experiments.backgammon.symmetric_gammon_cli import net_name, train_main

    base = ["--arch", "free", "--hidden", "4", "--checkpoint-every", "10", "--pubeval-pairs", "5", "--no-progress"]
    warm = tmp_path / "warm.npz"
    assert train_main([*base, "--inputs", "positional", "--backgammon-outputs", "--games", "10", "--out", str(warm),
                       "--checkpoint", str(tmp_path / "w.ckpt.npz")]) == 0  # fmt: skip
    run = [*base, "--inputs", "positional", "--backgammon-outputs", "--warm-start", str(warm), flag, str(value)]
    one = tmp_path / "one.npz"
    assert train_main([*run, "--games", "30", "--out", str(one), "--checkpoint", str(tmp_path / "o.ckpt.npz")]) == 0
    a = SymmetricGammon.load(one)
    assert a.info["spec"][key] == value
    assert net_name(a.info["spec"], 60_000) == f"symgammon_free4_positional_bg_{lever}_60k"
    res, ck = tmp_path / "r.npz", tmp_path / "r.ckpt.npz"
    assert train_main([*run, "--games", "20", "--out", str(res), "--checkpoint", str(ck)]) == 0
    assert train_main([*run, "--games", "30", "--out", str(res), "--checkpoint", str(ck)]) == 0
    b = SymmetricGammon.load(res)
    assert np.array_equal(a.W1, b.W1) and np.array_equal(a.W2, b.W2)
    by_hand = SymmetricGammon.load(warm)
    by_hand.train(1, 10, 20, 0.1, **{key: value})
    assert np.array_equal(by_hand.W1, a.W1) and np.array_equal(by_hand.W2, a.W2)
    before = ck.read_bytes()
    plain = [a for a in run if a not in (flag, str(value))]
    capsys.readouterr()
    assert train_main([*plain, "--games", "40", "--out", str(res), "--checkpoint", str(ck)]) == 2
    assert "another run" in capsys.readouterr().err and ck.read_bytes() == before
    assert train_main([*base, flag, "1.5", "--games", "10"]) == 2
    assert bad in capsys.readouterr().err


def test_lookahead_accuracy_compares_the_net_and_its_deeper_value_with_gnubg_position_by_position():
    from tdbook.experiments.backgammon.analysis import game_positions
    from tdbook.experiments.backgammon.lookahead_targets import (
        LOOKAHEAD_HEADER,
        lookahead_accuracy,
        lookahead_claims,
        lookahead_rows,
    )
    from tdbook.games.backgammon_gnubg import context
    from tdbook.games.backgammon_gnubg import equity as gnubg_equity

    model = _net(True)
    acc = lookahead_accuracy(model, 60, seed=4, plies=0)
    live, _ = game_positions(60, seed=4)  # each met before a move: none is over
    assert len(acc["net"]) == len(live) == 60
    k = 7
    assert acc["net"][k] == model.equity(live[k])
    assert acc["deeper"][k] == pytest.approx(float(sym.equity(model.lookahead(live[k]))), abs=1e-12)
    assert acc["gnubg"][k] == gnubg_equity(live[k], context(0))
    contact = acc["classes"] == "contact"
    d = np.abs(acc["deeper"] - acc["gnubg"])[contact] - np.abs(acc["net"] - acc["gnubg"])[contact]
    est = lookahead_claims(acc)["lookahead-closer-contact"]["ours"]
    assert est.mean == pytest.approx(d.mean()) and est.n == contact.sum()
    assert est.stderr == pytest.approx(d.std(ddof=1) / np.sqrt(d.size))
    rows = lookahead_rows(acc)
    assert rows[0][0] == "contact" and all(len(r) == len(LOOKAHEAD_HEADER) for r in rows)
    for bad, match in (({"n_positions": 0}, "n_positions"), ({"plies": 3}, "plies")):
        with pytest.raises(ValueError, match=match):
            lookahead_accuracy(model, **({"n_positions": 10, "seed": 1} | bad))
