"""Issue 51's phase split and fast rollouts.

A race and contact pair (:meth:`SymmetricGammon.split`): two copies of a net value and choose exactly as the net;
each position is valued by, and trained into, the net of its class and no other (:func:`phase_block`); the pair
is saved and loaded as one file, a broken one refused by name; the trainer's ``--phases`` names, records and
resumes its run.  Fast rollouts (``RolloutSpec.fast``): :func:`tanh_fast` within 3e-7 of tanh, the fast targets
the exact ones to a few parts in a million, the same seed the same bytes."""

from __future__ import annotations

import numpy as np
import pytest

from tdbook.experiments.backgammon.match import sample_positions
from tdbook.experiments.backgammon.rollout_targets import RolloutSpec, rollout_targets
from tdbook.games import backgammon as bg
from tdbook.games.backgammon_bearoff import is_bearoff
from tdbook.learners import backgammon_symmetric as sym
from tdbook.learners.backgammon_symmetric import RACE_ARRAYS, SymmetricGammon


@pytest.fixture(scope="module")
def positions() -> tuple[np.ndarray, np.ndarray]:
    """(contact positions, race positions) of random-play games, bear-off positions left out."""
    ps, _ = sample_positions(40, seed=3, every=2)
    ps = np.array([p for p in ps if not is_bearoff(p)])
    race = np.array([bool(bg.is_race(p)) for p in ps])
    assert race.sum() > 50 and (~race).sum() > 50
    return ps[~race], ps[race]


def trained(inputs: str = "positional", seed: int = 2) -> SymmetricGammon:
    m = SymmetricGammon.new("free", 12, inputs=inputs, backgammons=True, seed=seed)
    m.train(1, 0, 30, 0.1)
    return m


def test_a_split_net_values_and_chooses_exactly_as_the_net(positions):
    m = trained()
    pair = m.split()
    assert pair.phases and not m.phases and pair.code == m.code | sym.PHASES
    assert pair.W1.shape == (2 * m.W1.shape[0], m.W1.shape[1]) and pair.split() is pair
    for p in np.concatenate(positions)[::3]:
        assert np.array_equal(pair.probabilities(p), m.probabilities(p))
        assert np.array_equal(pair.nodes(p)[0], m.nodes(p)[0])
    out, mv, ws = bg.make_buffers()
    for p in positions[0][:40]:
        n = bg.gen_afterstates(p, 6, 1, out, mv, ws)
        a = sym.choose_1ply(m.code, m.W1, m.W2, m.table, out, n, np.zeros(bg.MAX_AFTER), np.zeros(bg.NSLOT, np.int8),
                            *m.scratch())  # fmt: skip
        b = sym.choose_1ply(pair.code, pair.W1, pair.W2, pair.table, out, n, np.zeros(bg.MAX_AFTER),
                            np.zeros(bg.NSLOT, np.int8), *pair.scratch())  # fmt: skip
        assert a == b


@pytest.mark.parametrize("cls", ["contact", "race"])
def test_a_position_trains_the_net_of_its_class_and_no_other(positions, cls):
    pair = trained().split()
    mine, other = (pair.net, pair.race) if cls == "contact" else (pair.race, pair.net)
    before_mine, before_other = mine.W1.copy(), other.W1.copy()
    before_w2 = other.W2.copy()
    ps = positions[0] if cls == "contact" else positions[1]
    targets = np.tile([0.7, 0.2, 0.1, 0.02, 0.01], (len(ps), 1))
    pair.fit(ps, targets, np.arange(len(ps)), 0.1)
    assert not np.array_equal(mine.W1, before_mine)
    assert np.array_equal(other.W1, before_other) and np.array_equal(other.W2, before_w2)
    # the pair's arrays are the two nets' weights (views): what the kernels trained is what each net holds
    assert np.shares_memory(pair.W1, pair.net.W1) and np.shares_memory(pair.W1, pair.race.W1)
    single = pair.phase(cls)
    assert np.array_equal(single.W1, mine.W1) and not single.phases


def test_self_play_trains_each_net_on_its_own_positions(positions):
    """Games train both nets of a pair; the contact net alone, after games, differs from the single net trained on
    the same games (it no longer learns race positions), and a pair trained on the same seed is the same bytes."""
    m = trained()
    pair, again = m.split(), m.split()
    stats = pair.train(5, 30, 20, 0.1)
    assert np.array_equal(stats, again.train(5, 30, 20, 0.1))
    assert np.array_equal(pair.W1, again.W1) and np.array_equal(pair.W2, again.W2)
    m.train(5, 30, 20, 0.1)
    assert not np.array_equal(pair.net.W1, pair.race.W1)  # each moved on its own positions
    assert not np.array_equal(pair.net.W1, m.W1)
    with pytest.raises(ValueError, match="TD\\(λ\\) is not built for a race and contact pair"):
        pair.train(5, 50, 2, 0.1, lam=0.5)


def test_a_pair_is_one_file_and_a_broken_pair_is_refused_by_name(tmp_path, positions):
    pair = trained().split()
    pair.race.W1 += 0.01  # the two nets differ
    path = pair.save(tmp_path / "pair.npz", aux={"db": np.zeros(3)})
    back = SymmetricGammon.load(path)
    assert back.phases and np.array_equal(back.W1, pair.W1) and np.array_equal(back.W2, pair.W2)
    assert set(back.net.aux) == {"db"}  # the race arrays are the race net, not left in the aux
    assert "race and contact nets" in back.describe()
    for p in positions[1][:10]:
        assert np.array_equal(back.probabilities(p), pair.probabilities(p))
    with pytest.raises(ValueError, match="race net's array names"):
        pair.save(tmp_path / "x.npz", aux={RACE_ARRAYS[0]: np.zeros(2)})
    with np.load(path) as z:
        arrays = {k: z[k] for k in z.files}
    broken = tmp_path / "broken.npz"
    np.savez(broken, **{k: v for k, v in arrays.items() if k != f"aux_{RACE_ARRAYS[1]}"})
    missing = f"broken.npz: a race and contact pair without its race net's {RACE_ARRAYS[1]}"
    with pytest.raises(ValueError, match=missing):
        SymmetricGammon.load(broken)
    for what in ("widen", "with_backgammons"):
        with pytest.raises(ValueError, match="not a race and contact pair"):
            getattr(pair, what)("positional") if what == "widen" else getattr(pair, what)()
    with pytest.raises(ValueError, match="not a race and contact pair"):
        SymmetricGammon.averaged([pair, pair])
    with pytest.raises(ValueError, match="single net"):
        trained().phase("race")


def test_cli_phases_names_the_net_records_it_and_resumes_to_the_uninterrupted_weights(tmp_path, capsys):
    from tdbook.experiments.backgammon.symmetric_gammon_cli import net_name, train_main

    base = ["--arch", "free", "--hidden", "4", "--checkpoint-every", "10", "--pubeval-pairs", "5", "--no-progress",
            "--inputs", "positional", "--backgammon-outputs"]  # fmt: skip
    warm = tmp_path / "warm.npz"
    assert train_main([*base, "--games", "10", "--out", str(warm), "--checkpoint", str(tmp_path / "w.ckpt.npz")]) == 0
    run = [*base, "--warm-start", str(warm), "--phases"]
    one = tmp_path / "one.npz"
    assert train_main([*run, "--games", "30", "--out", str(one), "--checkpoint", str(tmp_path / "o.ckpt.npz")]) == 0
    a = SymmetricGammon.load(one)
    assert a.phases and a.info["spec"]["phases"] is True
    assert net_name(a.info["spec"], 60_000) == "symgammon_free4_positional_bg_phases_60k"
    res, ck = tmp_path / "r.npz", tmp_path / "r.ckpt.npz"
    assert train_main([*run, "--games", "20", "--out", str(res), "--checkpoint", str(ck)]) == 0
    assert train_main([*run, "--games", "30", "--out", str(res), "--checkpoint", str(ck)]) == 0
    b = SymmetricGammon.load(res)
    assert np.array_equal(a.W1, b.W1) and np.array_equal(a.W2, b.W2)
    by_hand = SymmetricGammon.load(warm).split()
    by_hand.train(1, 10, 20, 0.1)
    assert np.array_equal(by_hand.W1, a.W1) and np.array_equal(by_hand.W2, a.W2)
    capsys.readouterr()
    assert train_main([*base, "--warm-start", str(one), "--games", "40", "--out", str(tmp_path / "s.npz")]) == 2
    assert "it is a race and contact pair" in capsys.readouterr().err
    assert train_main([*run, "--lambda", "0.5", "--games", "40"]) == 2
    assert "--phases is TD(0) only" in capsys.readouterr().err


def test_tanh_fast_is_within_3e7_of_tanh_everywhere():
    x = np.concatenate([np.linspace(-30.0, 30.0, 600_001), [0.0, 1e-12, -1e-12, 7.9, 8.0, 50.0, -50.0]])
    fast = np.array([sym.tanh_fast(v) for v in x[::7]])
    assert np.max(np.abs(fast - np.tanh(x[::7]))) < 3e-7
    assert sym.tanh_fast(0.0) == 0.0 and sym.tanh_fast(-2.0) == -sym.tanh_fast(2.0)


def test_fast_rollouts_are_the_net_to_a_few_parts_in_a_million_and_the_same_seed_the_same_bytes(positions):
    m = trained()
    ps = positions[0][:4]
    spec = RolloutSpec(trials=6, truncate=4, vr_plies=1)
    exact = rollout_targets(m, ps, spec, seed=4, progress=False)
    fast = rollout_targets(m, ps, RolloutSpec(6, 4, 1, True, True), seed=4, progress=False)
    again = rollout_targets(m, ps, RolloutSpec(6, 4, 1, True, True), seed=4, progress=False)
    assert all(np.array_equal(fast[k], again[k]) for k in fast)
    assert np.max(np.abs(fast["targets"] - exact["targets"])) < 1e-4
    assert not np.array_equal(fast["targets"], exact["targets"])  # the fast units did run
    with pytest.raises(ValueError, match="fast must be True or False"):
        RolloutSpec(fast=1).check()
