"""The exact one-sided bear-off table (issue 34): the ranking is a bijection, hand-counted rolls for small
positions, a plain recursion over every position of up to three checkers, the flip reading each side from its own
view, the two-sided probabilities against GNU Backgammon's bear-off databases, and the nets that use the table."""

from __future__ import annotations

from functools import cache
from itertools import product

import numpy as np
import pytest

from tdbook.games import backgammon as bg
from tdbook.games import backgammon_bearoff as bo


def counts(points: dict[int, int]) -> np.ndarray:
    c = np.zeros(6, np.int64)
    for p, n in points.items():
        c[p - 1] = n
    return c


def row(points: dict[int, int], which: str = "dist") -> np.ndarray:
    dist, first = bo.table()
    return (dist if which == "dist" else first)[bo.index(counts(points))]


def board(mine: dict[int, int], theirs: dict[int, int]) -> np.ndarray:
    """A bear-off position from the mover's view: ``mine[k]`` checkers on its point k, ``theirs[k]`` on the
    opponent's point k (the mover's 25 − k)."""
    pos = np.zeros(bg.NSLOT, np.int8)
    for k, n in mine.items():
        pos[k] = n
    for k, n in theirs.items():
        pos[25 - k] = -n
    pos[bg.OFF] = 15 - sum(mine.values())
    pos[bg.OPP_OFF] = -(15 - sum(theirs.values()))
    return pos


def test_the_ranking_is_a_bijection_onto_all_54264_positions():
    seen = np.zeros(bo.N_POSITIONS, bool)
    out = np.zeros(6, np.int64)
    for c in product(range(16), repeat=3):  # a sample of all shapes: three points free, the rest fixed
        for fill in ((0, 0, 0), (1, 0, 2), (0, 3, 0)):
            full = np.array(c + fill, np.int64)
            if full.sum() > 15:
                continue
            r = bo.index(full)
            bo._unrank(r, out)
            assert np.array_equal(out, full)
    for r in range(bo.N_POSITIONS):
        bo._unrank(r, out)
        assert out.min() >= 0 and out.sum() <= 15 and bo.index(out) == r
        seen[r] = True
    assert seen.all()


def test_hand_counted_rolls():
    assert row({1: 1})[1] == pytest.approx(1.0) and row({1: 2})[1] == pytest.approx(1.0)  # off the 1 point in a roll
    # one checker on the 6 point: off in one roll unless the dice total less than 6 (2-1, 3-1, 4-1, 3-2, 1-1: 9)
    assert row({6: 1})[1] == pytest.approx(27 / 36) and row({6: 1})[2] == pytest.approx(9 / 36)
    # three on the 1 point: doubles take all three, other rolls two
    assert row({1: 3})[1] == pytest.approx(6 / 36) and row({1: 3})[2] == pytest.approx(30 / 36)
    # fifteen on the 6 point, the first checker: a 6 (11 rolls), 5-1, 4-2, 3-3 or 2-2: 17 of 36
    assert row({6: 15}, "first")[1] == pytest.approx(17 / 36)
    assert row({6: 14}, "first")[0] == 1.0  # a checker is off already: no gammon to save
    # fifteen on the 1 point: 2 per roll, 4 on doubles; a checker comes off on the first roll
    assert row({1: 15}, "first")[1] == pytest.approx(1.0) and row({1: 15})[:4].sum() == 0.0
    for r in (row({6: 15}), row({1: 15}), row({3: 5, 2: 5, 4: 5}, "first")):
        assert r.sum() == pytest.approx(1.0, abs=1e-12)


@cache
def _brute(points: tuple[int, ...]) -> tuple[float, tuple[float, ...]]:
    """(expected rolls, distribution) of bearing off ``points`` (checkers on points 1..6), each roll playing the
    afterstate of least expectation (first of equals): a plain recursion, independent of the table's ranking and
    order of computation."""
    if sum(points) == 0:
        return 0.0, (1.0,) + (0.0,) * (bo.MAX_ROLLS - 1)
    pos = np.zeros(bg.NSLOT, np.int8)
    pos[1:7] = points
    pos[bg.OFF] = 15 - sum(points)
    pos[bg.OPP_OFF] = -15
    bufs = bg.make_buffers()
    dist = np.zeros(bo.MAX_ROLLS)
    for d1 in range(1, 7):
        for d2 in range(d1, 7):
            n = bg.gen_afterstates(pos, d1, d2, *bufs)
            best = min((_brute(tuple(int(x) for x in bufs[0][a, 1:7])) for a in range(n)), key=lambda t: t[0])
            dist[1:] += (1 if d1 == d2 else 2) / 36 * np.array(best[1][:-1])
    return float(np.arange(bo.MAX_ROLLS) @ dist), tuple(dist)


def test_the_table_equals_a_plain_recursion_on_every_position_of_up_to_three_checkers():
    dist, _ = bo.table()
    checked = 0
    for c in product(range(4), repeat=6):
        if sum(c) <= 3:
            assert np.allclose(dist[bo.index(np.array(c, np.int64))], _brute(c)[1], rtol=0, atol=1e-12), c
            checked += 1
    assert checked == 84  # C(9, 6)


def test_each_side_is_read_from_its_own_view_and_the_flip_exchanges_them():
    pos = board({1: 2, 4: 3, 6: 1}, {2: 4, 5: 1})
    me, them = bo.sides(pos)
    assert me == bo.index(counts({1: 2, 4: 3, 6: 1})) and them == bo.index(counts({2: 4, 5: 1}))
    assert bo.sides(bg.flipped(pos)) == (them, me)
    assert bo.is_bearoff(pos) and bo.is_bearoff(bg.flipped(pos))
    assert not bo.is_bearoff(bg.initial_position())
    assert not bo.is_bearoff(board({1: 2, 7: 1}, {2: 4}))  # a checker outside its home board
    # identical sides: the side on roll is ahead, and exactly as likely to win a gammon as to lose one when
    # neither can be gammoned
    same = board({1: 3, 2: 3}, {1: 3, 2: 3})
    p = bo.bearoff_probabilities(same)
    assert p[0] > 0.5 and p[1] == 0.0 and p[2] == 0.0
    # one checker each on the 1 point: the side on roll wins for sure
    assert bo.bearoff_probabilities(board({1: 1}, {1: 1}))[0] == pytest.approx(1.0)
    with pytest.raises(ValueError, match="not a bear-off position"):
        bo.bearoff_probabilities(bg.initial_position())


def test_gammons_need_fifteen_checkers_on_the_board():
    p = bo.bearoff_probabilities(board({1: 2}, {6: 15}))  # it bears off in one roll, they have none off
    assert p[0] == pytest.approx(1.0) and p[1] == pytest.approx(1.0) and p[2] == 0.0
    q = bo.bearoff_probabilities(board({6: 15}, {1: 1}))  # the reverse, with the heavy side on roll
    assert q[0] == 0.0 and q[2] == pytest.approx(1 - 17 / 36)  # lost unless the first roll takes a checker off


def test_the_two_sided_values_stand_within_a_hundredth_of_gnubgs_bearoff_databases():
    pytest.importorskip("gnubg")
    from tdbook.games.backgammon_gnubg import context, gnubg, to_gnubg

    g = gnubg()
    ctx, cube = context(), g.cube_info()
    rng = np.random.default_rng(7)
    worst = np.zeros(3)
    for _ in range(150):
        mine: dict[int, int] = {}
        theirs: dict[int, int] = {}
        for side, n in ((mine, rng.integers(1, 16)), (theirs, rng.integers(1, 16))):
            for k in rng.integers(1, 7, size=n):
                side[int(k)] = side.get(int(k), 0) + 1
        pos = board(mine, theirs)
        ours = bo.bearoff_probabilities(pos)
        e = g.evaluate(to_gnubg(pos), cube, ctx)
        worst = np.maximum(worst, np.abs(ours - np.array([e[0], e[1], e[3]])))
    assert worst[0] < 0.01 and worst[1] < 1e-4 and worst[2] < 1e-4


def test_a_net_with_the_table_values_bear_offs_by_it_and_is_not_trained_on_them():
    from tdbook.learners import backgammon_symmetric as sym
    from tdbook.learners.backgammon_symmetric import SymmetricGammon

    net = SymmetricGammon.new("free", hidden=4, seed=3, backgammons=True)
    with_table = net.with_bearoff()
    pos = board({1: 2, 3: 4}, {2: 5, 6: 2})
    p = with_table.probabilities(pos)
    assert np.array_equal(p[:3], bo.bearoff_probabilities(pos)) and p[3] == p[4] == 0.0
    assert not np.array_equal(net.probabilities(pos)[:3], p[:3])
    assert net.probabilities(bg.initial_position()).tolist() == with_table.probabilities(bg.initial_position()).tolist()
    assert with_table.describe().endswith("bear-off table)") and with_table.table.shape == (bo.N_POSITIONS, 80)
    assert net.table.shape == (0, 80)
    # a move into a bear-off: the table's choice (the greedy 1-ply over the table's values)
    start = board({1: 1, 4: 1, 7: 1}, {1: 3, 6: 3})
    out_pos, out_mv, ws = bg.make_buffers()
    n = bg.gen_afterstates(start, 6, 3, out_pos, out_mv, ws)
    scores = np.zeros(bg.MAX_AFTER)
    idx, val, g, z, q = with_table.scratch()
    k = sym.choose_1ply(
        with_table.code,
        with_table.W1,
        with_table.W2,
        with_table.table,
        out_pos,
        n,
        scores,
        np.zeros(bg.NSLOT, np.int8),
        idx,
        val,
        g,
        z,
        q,
    )
    values = [
        float(bg.win_multiplier(a)) if a[bg.OFF] == 15 else -sym.equity(with_table.probabilities(bg.flipped(a)))
        for a in out_pos[:n]
    ]
    assert values[k] == max(values)
    # training: deterministic, and it moves the weights (positions before the bear-off are trained on)
    a, b = net.with_bearoff(), SymmetricGammon.new("free", hidden=4, seed=3, backgammons=True, bearoff=True)
    sa, sb = a.train(5, 0, 20, 0.1), b.train(5, 0, 20, 0.1)
    assert np.array_equal(sa, sb) and np.array_equal(a.W1, b.W1)
    assert not np.array_equal(a.W1, SymmetricGammon.new("free", hidden=4, seed=3, backgammons=True).W1)


def test_a_net_with_the_table_round_trips_through_its_file(tmp_path):
    from tdbook.learners.backgammon_symmetric import SymmetricGammon

    m = SymmetricGammon.new("free", hidden=3, bearoff=True, inputs="positional")
    m.save(tmp_path / "m.npz")
    back = SymmetricGammon.load(tmp_path / "m.npz")
    assert back.bearoff and back.inputs == "positional"
    SymmetricGammon.new("free", hidden=3).save(tmp_path / "n.npz")
    assert not SymmetricGammon.load(tmp_path / "n.npz").bearoff
