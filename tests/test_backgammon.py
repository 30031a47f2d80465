"""Backgammon engine, façade, encodings, pubeval and match runner (notebook 08 foundation)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tdbook.experiments.backgammon.match import play_pairs, record_game, run_match, sample_positions
from tdbook.games import backgammon as bg
from tdbook.games.backgammon_encoding import encode_dense, encode_tesauro, pubeval_inputs, sparse_buffers, swap_sides
from tdbook.games.base import Game, IllegalMove
from tdbook.learners.td_net import TDNet, forward
from tdbook.players.backgammon import KIND_PUBEVAL, KIND_RANDOM, PubevalPlayer, RandomPlayer, load_pubeval_weights


def position(mine: dict[int, int], theirs: dict[int, int], my_bar: int = 0, their_bar: int = 0) -> np.ndarray:
    """A position (mover's view) from point -> count maps (``theirs`` in the mover's numbering);
    the rest of each side's 15 checkers are borne off."""
    p = np.zeros(bg.NSLOT, np.int8)
    for k, v in mine.items():
        p[k] = v
    for k, v in theirs.items():
        assert p[k] == 0
        p[k] = -v
    p[bg.BAR] = my_bar
    p[bg.OPP_BAR] = -their_bar
    p[bg.OFF] = 15 - sum(mine.values()) - my_bar
    p[bg.OPP_OFF] = -(15 - sum(theirs.values()) - their_bar)
    bg.check_position(p)
    return p


def gen(p: np.ndarray, d1: int, d2: int):
    b = bg.make_buffers()
    n = bg.gen_afterstates(p, d1, d2, *b)
    return b[0][:n].copy(), bg.hop_lists(b, n)


# ----------------------------------------------------------------------------- representation


def test_initial_position_and_flip():
    p = bg.initial_position()
    bg.check_position(p)
    assert np.array_equal(bg.flipped(p), p)  # the start is symmetric
    assert bg.pip_counts(p) == (167, 167)
    q = position({24: 1, 6: 4}, {1: 2, 3: 1}, my_bar=2, their_bar=1)
    f = bg.flipped(q)
    assert np.array_equal(bg.flipped(f), q)
    assert f[bg.BAR] == 1 and f[bg.OPP_BAR] == -2 and f[bg.OFF] == 11 and f[bg.OPP_OFF] == -8
    assert f[24] == 2 and f[22] == 1 and f[1] == -1 and f[19] == -4


def test_set_initial_overwrites_any_position_with_the_start():
    """The kernels start every game with :func:`set_initial` on a reused buffer: whatever the buffer held (here
    a finished game's afterstate), it becomes the starting position."""
    q = position({24: 1, 6: 4}, {1: 2, 3: 1}, my_bar=2, their_bar=1)
    bg.set_initial(q)
    assert np.array_equal(q, bg.initial_position())
    assert q[bg.OFF] == 0 and q[bg.BAR] == 0 and bg.pip_counts(q) == (167, 167)
    bg.check_position(q)


def test_check_position_names_the_problem():
    p = bg.initial_position()
    p[6] -= 1
    with pytest.raises(ValueError, match="15 checkers"):
        bg.check_position(p)
    with pytest.raises(ValueError, match="shape"):
        bg.check_position(np.zeros(26, np.int8))


# ----------------------------------------------------------------------------- rules on hand-made positions


def test_bar_entry_comes_first():
    p = bg.initial_position()
    p[6] -= 1
    p[bg.BAR] = 1
    after, hops = gen(p, 6, 5)
    assert hops and all(h[0] == (25, 19) or h[0] == (25, 20) for h in hops)
    # a closed board: the only move is the empty one
    q = position({6: 10, 8: 4}, {19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2, 12: 3}, my_bar=1)
    after, hops = gen(q, 6, 5)
    assert len(after) == 1 and hops == [[]] and np.array_equal(after[0], q)
    g = bg.Backgammon()
    s = g.state_from(q, 0, (6, 5))
    assert g.legal_moves(s) == [""]
    assert np.array_equal(bg.flipped(g.apply(s, "").position), q)
    with pytest.raises(IllegalMove, match="blocked"):
        g.apply(s, "bar/19")
    # with two on the bar and one entry point open only one enters and nothing else moves
    r = position({6: 10, 8: 3}, {19: 2, 21: 2, 22: 2, 23: 2, 24: 2, 12: 5}, my_bar=2)
    after, hops = gen(r, 6, 5)
    assert hops == [[(25, 20)]]


def test_must_play_both_dice_or_the_larger():
    # 24/18 or 24/19 alone, never both (13 is blocked): the larger die must be played
    p = position({24: 1, 1: 14}, {13: 2})
    after, hops = gen(p, 6, 5)
    assert hops == [[(24, 18)]]
    # the 6 cannot be played at all (18 blocked): the 5 is
    p = position({24: 1, 1: 14}, {18: 2, 13: 2, 14: 2})
    after, hops = gen(p, 6, 5)
    assert hops == [[(24, 19)]]
    # both dice playable only in one order: that order is forced
    p = position({24: 1, 1: 14}, {18: 2, 14: 2})
    after, hops = gen(p, 6, 5)
    assert hops == [[(24, 19), (19, 13)]]


def test_doubles_are_four_moves():
    after, hops = gen(bg.initial_position(), 1, 1)
    assert len(after) == 42 and all(len(h) == 4 for h in hops)
    after, hops = gen(bg.initial_position(), 6, 6)
    assert all(len(h) == 4 for h in hops)
    assert all(bg.pip_counts(a)[0] == 167 - 24 for a in after)


def test_bearing_off_exact_or_higher_die():
    # 6-4 from the 5 and the 3: 5/off with the 6 (nothing higher) then 3/off with the 4; or 5/1
    # with the 4 then 3/off with the 6 — but never 3/off with the 4 while the 5 is occupied
    p = position({5: 1, 3: 1}, {20: 5})
    after, _ = gen(p, 6, 4)
    got = sorted((int(a[1]), int(a[bg.OFF])) for a in after)
    assert got == [(0, 15), (1, 14)]
    # 5-1 from the 6 and the 2: the 2 may not bear off with the 5 while the 6 is occupied
    p = position({6: 1, 2: 1}, {20: 5})
    after, _ = gen(p, 5, 1)
    dists = sorted((int(a[1]), int(a[2]), int(a[bg.OFF])) for a in after)
    assert dists == [(0, 1, 14), (2, 0, 13)]
    # no bearing off while a checker is outside the home board
    p = position({7: 1, 2: 1}, {20: 5})
    after, hops = gen(p, 2, 1)
    assert all(h[0][1] != 0 for h in hops)  # the first hop never bears off
    got = sorted(tuple(int(v) for v in np.flatnonzero(a[1:25] > 0) + 1) + (int(a[bg.OFF]),) for a in after)
    assert got == [(1, 5, 13), (2, 4, 13), (6, 14)]


def test_hits_send_a_blot_to_the_bar():
    p = bg.initial_position()
    p[12] = -4
    p[10] = -1  # an opposing blot on my 10 point
    after, hops = gen(p, 3, 1)
    hit = [a for a in after if a[10] > 0]
    assert hit and all(a[bg.OPP_BAR] == -1 for a in hit)


@pytest.mark.parametrize(
    "opp, expected",
    [
        ({20: 2}, 1),  # the loser has borne off: single
        ({20: 15}, 2),  # none off: gammon
        ({3: 1, 20: 14}, 3),  # one in the winner's home board: backgammon
    ],
)
def test_game_results(opp, expected):
    p = position({}, opp)
    if expected == 1:
        assert p[bg.OPP_OFF] < 0
    assert bg.win_multiplier(p) == expected


def test_backgammon_from_the_bar_and_facade_result():
    p = position({}, {20: 14}, their_bar=1)
    assert bg.win_multiplier(p) == 3
    g = bg.Backgammon()
    # player 1 moved last and won a gammon; player 0 is on roll and sees the winner as opponent
    s = g.state_from(bg.flipped(position({}, {20: 15})), player=0, dice=(3, 1))
    assert g.is_terminal(s) and g.result(s) == -2.0 and g.legal_moves(s) == []
    assert bg.win_multiplier(position({1: 1}, {20: 15})) == 0


# ----------------------------------------------------------------------------- property tests on real positions


@settings(max_examples=300, deadline=None)
@given(
    seed=st.integers(0, 10**9),
    every=st.integers(5, 15),
    pubeval=st.booleans(),
    d1=st.integers(1, 6),
    d2=st.integers(1, 6),
)
def test_afterstate_invariants(seed, every, pubeval, d1, d2):
    """15 checkers a side; each hop uses one die (exactly, or a larger one bearing off the highest
    checker); the mover's pips fall by the pips moved and the opponent's rise by the hits."""
    w = load_pubeval_weights() if pubeval else None
    kind = KIND_PUBEVAL if pubeval else KIND_RANDOM
    P, _ = sample_positions(1, seed=seed % 1000, kind0=kind, kind1=kind, w=w, every=every)
    b = bg.make_buffers()
    for p in P:
        n = bg.gen_afterstates(p, d1, d2, *b)
        hops = bg.hop_lists(b, n)
        assert 1 <= n < bg.MAX_AFTER and b[2][2] == 0
        most = max(len(h) for h in hops)
        seen = set()
        for j in range(n):
            a = b[0][j]
            seen.add(a.tobytes())
            assert int(a[a > 0].sum()) == 15 and int(-a[a < 0].sum()) == 15
            h = hops[j]
            assert len(h) == most <= (4 if d1 == d2 else 2)
            dice = [d1] * 4 if d1 == d2 else [d1, d2]
            moved = 0
            hit_pips = 0
            q = p.copy()
            for s, t in h:
                dist = s - t
                if t == 0 and dist not in dice:
                    die = min(x for x in dice if x > dist)
                    assert all(q[k] <= 0 for k in range(s + 1, 26))  # no checker further back
                else:
                    die = dist
                dice.remove(die)
                if t >= 1 and q[t] == -1:
                    hit_pips += t
                moved += dist
                q = bg.apply_hops(q, [(s, t)])
            assert np.array_equal(q, a)
            pa, oa = bg.pip_counts(p)
            pb, ob = bg.pip_counts(a)
            assert pa - pb == moved and ob - oa == hit_pips
        assert len(seen) == n


def test_gen_is_deterministic_and_order_free():
    P, D = sample_positions(3, seed=5)
    for p, (d1, d2) in zip(P[::7], D[::7]):
        a1, _ = gen(p, d1, d2)
        a2, _ = gen(p, d2, d1)
        assert {x.tobytes() for x in a1} == {x.tobytes() for x in a2}


# ----------------------------------------------------------------------------- façade


def test_facade_is_a_game_and_moves_round_trip():
    g = bg.Backgammon(seed=3)
    assert isinstance(g, Game)
    s = g.initial_state()
    assert s.dice[0] != s.dice[1]  # the opening roll is never a double
    plies = 0
    while not g.is_terminal(s) and plies < 400:
        after, _ = g.afterstates(s)
        moves = g.legal_moves(s)
        assert len(set(moves)) == len(moves) == len(after)
        for j, m in enumerate(moves):
            assert np.array_equal(g.resolve(s, m), after[j]), (m, s)
        k = plies % len(moves)
        t = g.apply(s, moves[k])
        assert np.array_equal(bg.flipped(t.position), after[k]) and t.player == 1 - s.player
        s = t
        plies += 1
    assert g.is_terminal(s) and g.result(s) in (-3, -2, -1, 1, 2, 3)
    assert g.encode(s).shape == (198,)


def test_same_seed_same_game():
    g = bg.Backgammon(seed=9)
    runs = []
    for _ in range(2):
        s = g.initial_state()
        seq = []
        for _ in range(30):
            m = g.legal_moves(s)[0]
            seq.append((s.dice, m))
            s = g.apply(s, m)
        runs.append(seq)
    assert runs[0] == runs[1]


@pytest.mark.parametrize(
    "move, reason",
    [
        ("8/2", "gives at most 4"),
        ("bar/22", "on the bar"),
        ("6/off", "cannot bear off"),
        ("8/5", "does not use all the dice"),
        ("24/23*", "no opposing blot"),
        ("eight/five", "cannot read"),
        ("8/5 6/9", "from higher to lower"),
        ("13/10 13/11 6/5", "gives at most 4"),
        ("12/9 6/5", "not enough checkers"),
        ("", "does not use all the dice"),
        (42, "a move is a string"),
        ([(8, 5), (6, 7)], "not a move from a point to a lower one"),
    ],
)
def test_illegal_moves_are_refused_with_a_reason(move, reason):
    g = bg.Backgammon()
    s = g.state_from(bg.initial_position(), 0, (3, 1))
    before = s.board
    with pytest.raises(IllegalMove, match=reason):
        g.apply(s, move)
    assert s.board == before
    assert np.array_equal(bg.flipped(g.apply(s, "8/5 6/5").position)[5], 2)


def test_blocked_point_and_larger_die_reasons():
    g = bg.Backgammon()
    s = g.state_from(bg.initial_position(), 0, (6, 5))
    with pytest.raises(IllegalMove, match="point 19 is blocked"):
        g.apply(s, "24/19 24/18")
    s = g.state_from(position({24: 1, 1: 14}, {13: 2}), 0, (6, 5))
    with pytest.raises(IllegalMove, match="larger"):
        g.apply(s, "24/19")
    assert g.legal_moves(s) == ["24/18"]
    assert g.resolve(s, [(24, 18)])[18] == 1


def test_notation_forms():
    g = bg.Backgammon()
    s = g.state_from(bg.initial_position(), 0, (6, 6))
    a = g.resolve(s, "24/18(2) 13/7(2)")
    assert a[18] == 2 and a[7] == 2 and a[13] == 3
    assert np.array_equal(g.resolve(s, "24/18 24/18 13/7 13/7"), a)
    s = g.state_from(bg.initial_position(), 0, (6, 5))
    assert g.resolve(s, "24/13")[13] == 6
    assert np.array_equal(g.resolve(s, "24/18/13"), g.resolve(s, "24/13"))


# ----------------------------------------------------------------------------- encodings


def test_tesauro_encoding_units():
    x = encode_dense(bg.initial_position(), 0, True)
    assert x.shape == (198,) and x[196] == 1 and x[197] == 0
    # white (on roll) has 2 on its 24 point, 5 on 13: units 92..95 = 1,1,0,0 and 48..51 = 1,1,1,1
    assert list(x[92:96]) == [1, 1, 0, 0] and list(x[48:52]) == [1, 1, 1, 1]
    p = position({6: 7}, {20: 1}, my_bar=2, their_bar=3)
    x = encode_dense(p, 0, False)
    assert x.shape == (196,)
    assert list(x[20:24]) == [1, 1, 1, 2.0]  # 7 checkers: (7 - 3) / 2
    assert x[96] == 1.0 and x[97] == pytest.approx(6 / 15)
    assert x[98 + 4 * 4] == 1 and x[98 + 96] == 1.5 and x[98 + 97] == pytest.approx(11 / 15)


def test_encoding_of_flipped_board_is_flipped_encoding():
    P, _ = sample_positions(4, seed=2, every=3)
    for p in P:
        r = encode_dense(p, 0, False)
        assert np.array_equal(encode_dense(bg.flipped(p), 0, False), swap_sides(np.r_[r, 0, 0])[:196])
        w = encode_dense(p, 0, True)
        assert np.array_equal(encode_dense(p, 1, True), swap_sides(w))
        assert np.array_equal(encode_dense(bg.flipped(p), 1, True), np.r_[r, 0, 1])


def test_sparse_encoding_feeds_the_td_net():
    net = TDNet(198, 10, 1, seed=0)
    idx, val = sparse_buffers()
    p = bg.initial_position()
    nnz = encode_tesauro(p, 0, True, idx, val)
    h, o = np.empty(10), np.empty(1)
    forward(net.W1, net.W2, idx, val, nnz, net.bias, net.hact, net.oact, h, o)
    assert o[0] == pytest.approx(net.value(encode_dense(p, 0, True))[0])


# ----------------------------------------------------------------------------- pubeval


@pytest.mark.parametrize("dice, best", [((3, 1), "8/5 6/5"), ((4, 2), "8/4 6/4"), ((6, 1), "13/7 8/7")])
def test_pubeval_openings(dice, best):
    g = bg.Backgammon()
    s = g.state_from(bg.initial_position(), 0, dice)
    after, hops = g.afterstates(s)
    k = PubevalPlayer().choose(s.position, *dice, after)
    assert bg.move_string(s.position, hops[k]) == best


def test_pubeval_inputs_and_weights_file(tmp_path):
    x = np.zeros(122)
    pubeval_inputs(bg.initial_position(), x)
    assert list(x[0:5]) == [0, 0, 1, 0, 0]  # block 0 = the mover's 24 point (2 checkers)
    assert list(x[90:95]) == [0, 0, 1, 0, 1.0]  # block 18 = the 6 point (5 checkers: (5 - 3) / 2)
    assert not x[115:120].any()  # block 23 = point 1: two opposing checkers, no input
    w = load_pubeval_weights()
    assert w.shape == (2, 122)
    bad = tmp_path / "w.json"
    bad.write_text('{"contact": [1, 2], "race": [3]}')
    with pytest.raises(ValueError, match="122"):
        load_pubeval_weights(bad)
    bad.write_text("not json")
    with pytest.raises(ValueError, match="cannot read"):
        load_pubeval_weights(bad)


# ----------------------------------------------------------------------------- matches


def test_duplicate_dice_cancel_for_identical_players():
    out = np.zeros((50, 2), np.int64)
    plies = np.zeros((50, 2), np.int64)
    play_pairs(KIND_PUBEVAL, KIND_PUBEVAL, load_pubeval_weights(), 4, 0, 50, out, plies)
    assert np.all(out[:, 0] == -out[:, 1]) and np.all(plies[:, 0] == plies[:, 1])
    assert np.all(np.abs(out) >= 1)


def test_match_runner_reports_and_is_reproducible():
    r1 = run_match(PubevalPlayer(), RandomPlayer(), 100, seed=1, progress=False)
    r2 = run_match(PubevalPlayer(), RandomPlayer(), 100, seed=1, progress=False)
    assert np.array_equal(r1.points, r2.points) and r1.games == 200
    assert r1.ppg > 1.5 and r1.win_pct > 90 and 0 < r1.stderr < 0.2
    assert "points/game" in r1.summary()
    rr = run_match(RandomPlayer(), RandomPlayer(), 200, seed=2, progress=False)
    assert abs(rr.ppg) < 4 * rr.stderr + 0.05
    with pytest.raises(ValueError, match="n_pairs"):
        run_match(RandomPlayer(), RandomPlayer(), 0)


def test_python_loop_matches_the_kernel_for_pubeval():
    class Slow(PubevalPlayer):  # no ``kind``: forces the Python loop
        kind = None

    a = run_match(Slow(), PubevalPlayer(), 5, seed=3, progress=False)
    assert np.all(a.points[:, 0] == -a.points[:, 1])
    b = run_match(PubevalPlayer(), PubevalPlayer(), 5, seed=3, progress=False)
    assert np.array_equal(a.points, b.points)


def test_record_game_lists_positions_before_each_move():
    P = np.zeros((500, 28), np.int8)
    D = np.zeros((500, 2), np.int64)
    m = record_game(KIND_RANDOM, KIND_RANDOM, np.zeros((2, 122)), 0, 0, P, D)
    assert 10 < m < 500 and np.array_equal(P[0], bg.initial_position())
    for p in P[:m]:
        bg.check_position(p)


@pytest.mark.parametrize(
    "kwargs, msg",
    [
        ({"player": 2}, "player must be 0 or 1"),
        ({"dice": (3.5, 1)}, "dice must be a pair of integers"),
        ({"dice": (7, 1)}, "dice must be a pair of integers"),
        ({"dice": 3}, "dice must be a pair of integers"),
        ({"rng": -1}, r"rng must be an integer state in \[0, 2\*\*64\)"),
    ],
)
def test_state_from_refuses_bad_input_by_name(kwargs, msg):
    with pytest.raises(ValueError, match=msg):
        bg.Backgammon().state_from(bg.initial_position(), **kwargs)
    with pytest.raises(ValueError, match="whole checker counts"):
        bg.Backgammon().state_from(bg.initial_position() + 0.5)


def test_make_position_bears_off_the_rest_and_refuses_a_sixteenth_checker():
    p = bg.make_position({1: 2, 6: 3}, {24: 1}, their_bar=2)
    assert p[1] == 2 and p[6] == 3 and p[24] == -1 and p[bg.OPP_BAR] == -2
    assert p[bg.OFF] == 10 and p[bg.OPP_OFF] == -12 and p[bg.BAR] == 0
    with pytest.raises(ValueError, match="must be >= 0"):
        bg.make_position({6: 16}, {19: 15})
