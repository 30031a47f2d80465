"""Tic-tac-toe TD(λ) nets (notebook 07; Powell (2000) §6.5–6.7): the jitted thesis-mode training loop against a
line-by-line Python port of App. B.1/B.8/B.9, the encodings, the net-as-table-player equivalence, the thesis's v1.0
saturation, the beyond-the-thesis net against the perfect player, and clear errors on bad input."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tdbook.core.rng import randint, uniform
from tdbook.experiments.tictactoe import net_training as training
from tdbook.experiments.tictactoe.net_training import Opponent, Training, net_state
from tdbook.games.tictactoe import (
    DRAW,
    EMPTY,
    N_O,
    N_X,
    ONGOING,
    SCAN_COLUMN_MAJOR,
    STATUS,
    O,
    X,
    parse_board,
    positions_to_move,
)
from tdbook.learners import tictactoe_net as learner
from tdbook.learners.td_net import TDNet
from tdbook.learners.tictactoe_net import FIXES, VERSIONS, NetDesign, check_fixes, encode_after
from tdbook.players.tictactoe import (
    exact_outcomes,
    match,
    optimal_fraction,
    perfect_player,
)
from tdbook.players.tictactoe_net import NetPlayer, greedy_square


def new_net(version="v1.0", fixes="thesis", *, seed=0, **design):
    """A fresh net (the test's shorthand for ``learner.new_net(NetDesign(...), seed)``)."""
    return learner.new_net(NetDesign(version, fixes, **design), seed)


def train(
    version="v1.0",
    fixes="thesis",
    *,
    net=None,
    opponent=None,
    net_side="X",
    opponent_learns=True,
    callback=None,
    callback_every=0,
    progress=True,
    **settings,
):
    """One training run (the test's shorthand for a :class:`Training` with its :class:`NetDesign`)."""
    spec = Training().but(version=version, fixes=fixes, **settings)
    opp = None if opponent is None else Opponent(opponent, net_side, opponent_learns)
    return training.train(
        spec, net=net, opponent=opp, callback=callback, callback_every=callback_every, progress=progress
    )


# ----------------------------------------------------------------------------- a plain port of App. B.1, B.8, B.9


def _board_vector(code: int, piece: int) -> list[float]:
    """App. B.8 ``board_vector``: ``xpos = (i + j*cols)*2``, ``opos = xpos + 1``, turn units 18 / 19."""
    v = [0.0] * 20
    for j in range(3):
        for i in range(3):
            p = (code // 3 ** (i + 3 * j)) % 3
            xpos = (i + j * 3) * 2
            if p == X:
                v[xpos] = 1.0
            elif p == O:
                v[xpos + 1] = 1.0
    v[18 if piece == X else 19] = 1.0
    return v


class _SuttonNet:
    """App. B.9 ``TDSuttonNet``, loops as listed (bias units last, weights [i][j] and [j][k])."""

    def __init__(self, net: TDNet, thesis_fn: bool, thesis_prime: bool, alpha, beta, gamma, lam):
        self.n_in, self.n_hid, self.n_out = net.n_in + 1, net.n_hidden + 1, net.n_out
        self.Wih = [[net.W1[i, j] if j < net.n_hidden else 0.0 for j in range(self.n_hid)] for i in range(self.n_in)]
        self.Who = [[net.W2[j, k] for k in range(self.n_out)] for j in range(self.n_hid)]
        self.thesis_fn, self.thesis_prime = thesis_fn, thesis_prime
        self.alpha, self.beta, self.gamma, self.lam = alpha, beta, gamma, lam
        self.reset()

    def f(self, x):
        if self.thesis_fn:
            e = math.exp(-x)
            return (1.0 - e) / (1.0 + e)
        return 1.0 / (1.0 + math.exp(-x))

    def fp(self, y):
        return 2.0 * y * (1.0 - y) if self.thesis_prime else y * (1.0 - y)

    def input(self, vec):
        self.inp = list(vec) + [1.0]

    def feed_forward(self):
        self.inp[-1] = 1.0
        self.hid = [0.0] * self.n_hid
        self.hid[-1] = 1.0
        for j in range(self.n_hid - 1):
            self.hid[j] = self.f(sum(self.inp[i] * self.Wih[i][j] for i in range(self.n_in)))
        self.out = [self.f(sum(self.hid[j] * self.Who[j][k] for j in range(self.n_hid))) for k in range(self.n_out)]

    def update_weights(self, err):
        for k in range(self.n_out):
            for j in range(self.n_hid):
                self.Who[j][k] += self.beta * err[k] * self.eHO[j][k]
                for i in range(self.n_in):
                    self.Wih[i][j] += self.alpha * err[k] * self.eIH[k][i][j]

    def update_eligibility(self):
        g = [self.fp(self.out[k]) for k in range(self.n_out)]
        d = self.gamma * self.lam
        for j in range(self.n_hid):
            for k in range(self.n_out):
                self.eHO[j][k] = d * self.eHO[j][k] + g[k] * self.hid[j]
                for i in range(self.n_in):
                    self.eIH[k][i][j] = (
                        d * self.eIH[k][i][j] + g[k] * self.Who[j][k] * self.fp(self.hid[j]) * self.inp[i]
                    )

    def reset(self):
        self.inp = [0.0] * self.n_in
        self.eIH = [[[0.0] * self.n_hid for _ in range(self.n_in)] for _ in range(self.n_out)]
        self.eHO = [[0.0] * self.n_out for _ in range(self.n_hid)]
        self.feed_forward()
        self.update_eligibility()

    def weights(self):
        W1 = np.array([[self.Wih[i][j] for j in range(self.n_hid - 1)] for i in range(self.n_in)])
        return W1, np.array(self.Who)


class _NeuralPolicy:
    """App. B.8 ``TDNeuralPolicy`` (``myLearning`` true: explores with p = 1/20 and learns)."""

    def __init__(self, net: _SuttonNet, version, st, eps):
        self.net, self.v, self.st, self.eps = net, VERSIONS[version], st, eps
        self.R = self.v.reward_array()

    def score(self):
        o = self.net.out
        return max(o[0], o[1]) if self.v.score == "max" else o[0]

    def move(self, code, piece):
        random = self.eps > 0 and uniform(self.st) < self.eps
        if not random:
            best, x = -1.0, -1
            for i in range(3):
                for j in range(3):
                    s = i + 3 * j
                    if (code // 3**s) % 3 == EMPTY:
                        self.net.input(_board_vector(code + piece * 3**s, piece))
                        self.net.feed_forward()
                        val = self.score()
                        if val > best:
                            best, x = val, s
            if x == -1:
                random = True
            else:
                code += piece * 3**x
        if random:
            moves = [
                code + piece * 3 ** (i + 3 * j)
                for i in range(3)
                for j in range(3)
                if (code // 3 ** (i + 3 * j)) % 3 == EMPTY
            ]
            code = moves[randint(self.st, len(moves))]
        self.next = _board_vector(code, piece)
        return code

    def learn(self, code, piece, over, outcome):
        reward = [0.0] * self.net.n_out
        if over:
            self.next = _board_vector(code, piece)
            reward = list(self.R[outcome])
        self.net.input(self.next)
        self.net.feed_forward()
        error = [reward[k] + self.net.gamma * self.net.out[k] - self.current[k] for k in range(self.net.n_out)]
        self.net.update_weights(error)
        self.net.feed_forward()
        self.current = list(self.net.out)
        self.net.update_eligibility()

    def reset(self):
        self.net.reset()
        self.current = list(self.net.out)


def _port_selfplay(version: str, games: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """``main.cc`` with ``-1 n -2 n``: both players share one ``TDSuttonNet``."""
    v = VERSIONS[version]
    net0 = new_net(version, "thesis", seed=seed)
    sn = _SuttonNet(net0, v.activation == "thesis", v.derivative == "thesis", 0.05, 0.1, 1.0, 0.5)
    st = net_state(seed)
    pol = [_NeuralPolicy(sn, version, st, 0.05), _NeuralPolicy(sn, version, st, 0.05)]
    for _ in range(games):
        for p in pol:
            p.reset()
        code, cur = 0, 0
        while True:
            piece = X if cur == 0 else O
            code = pol[cur].move(code, piece)
            r = STATUS[code]
            pol[cur].learn(code, piece, r != ONGOING, 1 if r == DRAW else 0)
            if r != ONGOING:
                break
            cur = 1 - cur
        other = 1 - cur
        pol[other].learn(code, X if other == 0 else O, True, 1 if r == DRAW else 2)
    return sn.weights()


@pytest.mark.parametrize("version", ["v1.0", "v2.1", "v3.0"])
def test_thesis_mode_equals_a_plain_port_of_the_listing(version):
    games = 12
    net = train(version, "thesis", games=games, seed=5, log_every=games, progress=False).net
    W1, W2 = _port_selfplay(version, games, 5)
    assert np.allclose(net.W1, W1, rtol=1e-9, atol=1e-12) and np.allclose(net.W2, W2, rtol=1e-9, atol=1e-12)
    assert not np.allclose(net.W1, new_net(version, "thesis", seed=5).W1)  # it did learn


def test_negamax_target_equals_a_plain_port():
    """The beyond-the-thesis rule: δ_t = −max V(replies) − V(a_t), traces e ← −γλ e + ∇V (cut after exploring)."""
    games, seed, lam, eps = 6, 3, 0.6, 0.3
    r = train(
        "v3.0",
        "fixed",
        games=games,
        target="negamax",
        hidden=5,
        activation="tanh",
        alpha=0.05,
        beta=0.07,
        lam=lam,
        epsilon=eps,
        seed=seed,
        log_every=games,
        progress=False,
    )
    net = new_net("v3.0", "fixed", hidden=5, activation="tanh", alpha=0.05, beta=0.07, lam=lam, seed=seed)
    st = net_state(seed)

    def V(code, piece):
        x = np.zeros(18)
        for s in range(9):
            p = (code // 3**s) % 3
            if p:
                x[2 * s + (0 if p == piece else 1)] = 1.0
        return x

    def score(code, piece):
        if STATUS[code] != ONGOING:
            return 0.0 if STATUS[code] == DRAW else 1.0
        return net.value(V(code, piece))[0]

    for _ in range(games):
        code, first, cur = 0, True, 0.0
        while True:
            piece = X if N_X[code] == N_O[code] else O
            best, s = -1.0, -1
            for sq in SCAN_COLUMN_MAJOR:
                if (code // 3**sq) % 3 == EMPTY:
                    val = score(code + piece * 3**sq, piece)
                    if val > best:
                        best, s = val, int(sq)
            explore = uniform(st) < eps
            if explore or s < 0:
                empties = [int(q) for q in SCAN_COLUMN_MAJOR if (code // 3**q) % 3 == EMPTY]
                s2 = empties[randint(st, len(empties))]
                explore, s = s2 != s, s2
            code += piece * 3**s
            x = V(code, piece)
            if first:
                net.start(x)
                first = False
            else:
                d = -best - cur
                net.W1 += net.alpha * d * net.eW1[:, :, 0]
                net.W2 += net.beta * d * net.eW2
                decay = 0.0 if explore else -lam  # the frame of the latest mover: traces flip sign each ply
                probe = TDNet(18, 5, 1, hidden="tanh", output="tanh")
                probe.W1[:], probe.W2[:] = net.W1, net.W2
                probe.start(x)  # ∇V(a_t) at the new weights
                net.eW1[:] = decay * net.eW1 + probe.eW1
                net.eW2[:] = decay * net.eW2 + probe.eW2
            cur = net.value(x)[0]
            if STATUS[code] != ONGOING:
                d = (0.0 if STATUS[code] == DRAW else 1.0) - cur
                net.W1 += net.alpha * d * net.eW1[:, :, 0]
                net.W2 += net.beta * d * net.eW2
                break
    assert np.allclose(r.net.W1, net.W1, atol=1e-12) and np.allclose(r.net.W2, net.W2, atol=1e-12)


# ----------------------------------------------------------------------------- encodings and the move rule


def test_encodings():
    code = parse_board("XOB BXB OBB")
    idx, val = np.empty(10, np.int64), np.empty(10)
    n = encode_after(code, O, 0, idx, val)  # thesis: absolute pieces, turn unit of the mover
    dense = np.zeros(20)
    dense[idx[:n]] = val[:n]
    assert dense.tolist() == _board_vector(code, O)
    n = encode_after(code, O, 1, idx, val)  # mover: O's pieces first
    dense = np.zeros(18)
    dense[idx[:n]] = val[:n]
    assert dense[[2, 12]].tolist() == [1, 1] and dense[[1, 9]].tolist() == [1, 1] and dense.sum() == 4
    n = encode_after(code, X, 2, idx, val)  # signed: +1 X, −1 O, turn unit
    dense = np.zeros(10)
    dense[idx[:n]] = val[:n]
    assert dense.tolist() == [1, -1, 0, 0, 1, 0, -1, 0, 0, 1]


def test_net_player_is_the_same_policy_as_its_table_player():
    """The table player built from the net's scores makes App. B.8's greedy choice in every position."""
    rng = np.random.default_rng(0)
    for version in VERSIONS:
        net = new_net(version, "thesis", seed=int(rng.integers(100)), init=2.0)
        pl = NetPlayer(net, version)
        tp = pl.as_table_player()
        idx, val = np.empty(10, np.int64), np.empty(10)
        h, o = np.empty(net.n_hidden), np.empty(net.n_out)
        for c in rng.choice(np.concatenate([positions_to_move(X), positions_to_move(O)]), 300):
            s = greedy_square(
                net.W1, net.W2, net.bias, net.hact, net.oact, 0, pl.score, False, pl.rewards, int(c), idx, val, h, o
            )
            d = tp.distribution(int(c))
            assert s >= 0 and d[s] == 1.0, (version, c)


def test_immediate_win_scores_game_ending_moves_by_reward():
    net = new_net("v3.0", "fixed", seed=1)
    net.W2[:] = 0.0
    net.W2[-1, 0] = -3.0  # the net says every non-terminal after-state is lost
    pl = NetPlayer(net, "v3.0", "mover", immediate_win=True)
    code = parse_board("XXB OOB BBB")  # X to move wins on square 2
    assert pl.move(code) == 2
    assert NetPlayer(net, "v3.0", "mover").square_values(code)[2] < 0


# ----------------------------------------------------------------------------- the thesis's observations


def test_thesis_v1_0_saturates():
    """§6.6, Fig. 6.10: "every input fed through the network results in an output activation very close to one"."""
    r = train("v1.0", "thesis", games=20_000, seed=0, progress=False)
    out = r.player.outputs()
    rng = np.random.default_rng(1)
    assert (out[rng.choice(len(out), 500)] > 0.99).all()
    assert (out > 0.99).mean() > 0.99


def test_same_seed_same_weights_different_seed_different():
    a = train("v2.1", "thesis", games=3000, seed=9, progress=False)
    b = train("v2.1", "thesis", games=3000, seed=9, progress=False)
    c = train("v2.1", "thesis", games=3000, seed=10, progress=False)
    assert np.array_equal(a.net.W1, b.net.W1) and np.array_equal(a.net.W2, b.net.W2)
    assert np.array_equal(a.log, b.log)
    assert not np.array_equal(a.net.W1, c.net.W1)


def test_thesis_derivative_v3_0_overflows_in_the_listing_arithmetic_and_the_run_says_when():
    """App. B.9's 2y(1−y) flips the gradient's sign for y < 0 and the weights run away; computed as listed,
    exp(−x) then overflows and the weights turn NaN.  With the true derivative the same run stays small."""
    with pytest.raises(ValueError, match="training diverged: the weights became non-finite at game"):
        train("v3.0", "thesis", games=5000, activation="thesis-listing", seed=3, progress=False)
    net = new_net("v3.0", "thesis", activation="thesis-listing", seed=3)
    before = net.W1.copy()
    with pytest.raises(ValueError, match="non-finite"):
        train("v3.0", "thesis", games=5000, activation="thesis-listing", seed=3, net=net, progress=False)
    assert np.array_equal(net.W1, before)  # a refused run leaves the net as it was
    r = train("v3.0", "thesis", games=5000, activation="thesis-listing", seed=3, allow_nonfinite=True, progress=False)
    fixed = train("v3.0", "true_derivative", games=5000, activation="thesis-listing", seed=3, progress=False)
    assert r.nonfinite_game is not None and 0 < r.nonfinite_game <= 5000
    assert np.isnan(r.net.W1).any() and np.isnan(r.flog[-1, 2])
    assert fixed.nonfinite_game is None and fixed.flog[:, 2].max() < 10
    with pytest.raises(ValueError, match="non-finite"):
        train("v3.0", "thesis", games=1000, net=r.net, progress=False)


# ----------------------------------------------------------------------------- beyond the thesis


def test_corrected_net_passes_the_perfect_player_test_on_a_small_budget():
    """The notebook's beyond-the-thesis recipe (all fixes, negamax target, 80 hidden, U[−0.5, 0.5], α 0.05 / β 0.01
    annealed ten-fold, ε 0.3, λ 0.5) on 200,000 self-play games instead of the shipped net's 500,000: greedy, it
    never loses to the perfect player, as X or as O (exact), and sampled games agree."""
    r = train(
        "v3.0",
        "fixed",
        games=200_000,
        target="negamax",
        hidden=80,
        activation="tanh",
        init=0.5,
        alpha=0.05,
        beta=0.01,
        alpha_final=0.005,
        lam=0.5,
        epsilon=0.3,
        seed=4,
        progress=False,
    )
    p = r.player.as_table_player()
    per = perfect_player(0)
    assert exact_outcomes(p, per)[1] == 0.0 and exact_outcomes(per, p)[0] == 0.0
    assert match(p, per, 1000, seed=1, progress=False).o_wins == 0
    assert match(per, p, 1000, seed=2, progress=False).x_wins == 0
    assert optimal_fraction(p, X, np.concatenate([positions_to_move(X), positions_to_move(O)])) > 0.9


def test_shipped_net_plays_perfectly():
    from tdbook.experiments.tictactoe.net_evaluation import ALL_POSITIONS
    from tdbook.experiments.tictactoe.net_perfect import load_perfect

    pn = load_perfect()
    p = pn.player.as_table_player()
    per = perfect_player(0)
    assert exact_outcomes(p, per)[1] == 0.0 and exact_outcomes(per, p)[0] == 0.0
    assert optimal_fraction(p, X, ALL_POSITIONS) >= 0.95
    assert "python -m tdbook train tictactoe-net" in pn.command and pn.games > 0
    assert pn.curve and pn.curve[-1]["games"] == pn.games


def test_shipped_net_is_what_its_command_makes(tmp_path):
    """The shipped net is retrained from its sidecar's command (about a minute) and must come out
    bit-identical: the weights in data/ are what the recorded command makes."""
    from tdbook.experiments.tictactoe.net_perfect import load_perfect, train_main

    pn = load_perfect()
    out = tmp_path / "net.npz"
    argv = pn.command.split("tictactoe-net", 1)[1].split() + ["--out", str(out), "--no-progress"]
    assert train_main(argv) == 0
    again = load_perfect(out)
    assert np.array_equal(again.player.net.W1, pn.player.net.W1) and np.array_equal(
        again.player.net.W2, pn.player.net.W2
    )


def test_corrupt_or_mismatched_shipped_weights_are_refused(tmp_path):
    from tdbook.experiments.tictactoe.net_perfect import PerfectNet, load_perfect, save_perfect

    (tmp_path / "bad.npz").write_bytes(b"not a zip file")
    (tmp_path / "bad.json").write_text("{}")
    with pytest.raises(ValueError, match="bad.npz is not a tdbook weights file: an .npz archive of the arrays W1, W2"):
        load_perfect(tmp_path / "bad.npz")
    with pytest.raises(ValueError, match="no sidecar"):
        load_perfect(tmp_path / "missing.npz")
    net = new_net("v1.0", "thesis")  # 20 inputs: not the 18-input shipped net
    save_perfect(PerfectNet(NetPlayer(net, "v1.0"), 1, 0.0, [], "cmd", "trained", {}), tmp_path / "wrong.npz")
    with pytest.raises(ValueError, match="n_in"):
        load_perfect(tmp_path / "wrong.npz")


# ----------------------------------------------------------------------------- bad input


def test_bad_input_is_refused_clearly():
    with pytest.raises(ValueError, match="unknown TDNN version"):
        train("v9", games=10, progress=False)
    with pytest.raises(ValueError, match="unknown fix"):
        train("v1.0", ["no_such_fix"], games=10, progress=False)
    with pytest.raises(ValueError, match="games must be a positive int"):
        train("v1.0", games=0, progress=False)
    with pytest.raises(ValueError, match="epsilon"):
        train("v1.0", games=10, epsilon=2.0, progress=False)
    with pytest.raises(ValueError, match="inputs and"):
        train("v1.0", "mover_encoding", games=10, net=new_net("v1.0", "thesis"), progress=False)
    with pytest.raises(ValueError, match="1 outputs"):
        NetPlayer(new_net("v2.0"), "v1.0")
    with pytest.raises(ValueError, match="negamax"):
        train("v1.0", "fixed", games=10, target="negamax", progress=False)
    with pytest.raises(ValueError, match="game is over"):
        NetPlayer(new_net("v1.0"), "v1.0").move(parse_board("XXX OOB BBB"))
    bad = new_net("v1.1")
    bad.W1[3, 2] = np.nan
    with pytest.raises(ValueError, match="non-finite"):
        train("v1.1", games=10, net=bad, progress=False)
    assert check_fixes("fixed") == FIXES and check_fixes("thesis") == ()


def test_train_with_a_net_refuses_conflicting_settings_and_a_failing_callback_leaves_it_as_it_was():
    net = new_net("v1.1", "thesis", hidden=5, alpha=0.2, beta=0.3, lam=0.7, init=0.2, seed=4)
    w1, w2 = net.W1.copy(), net.W2.copy()
    for kw, name in (
        (dict(hidden=8), "hidden=8"),
        (dict(alpha=0.05), "alpha=0.05"),
        (dict(beta=0.1), "beta=0.1"),
        (dict(lam=0.5), "lam=0.5"),
        (dict(init=0.1), "init=0.1"),
        (dict(gamma=0.9), "gamma=0.9"),
        (dict(activation="tanh"), "activation='tanh'"),
    ):
        with pytest.raises(ValueError, match=f"conflict with it: {name}"):
            train("v1.1", games=10, net=net, progress=False, **kw)
        assert np.array_equal(net.W1, w1) and np.array_equal(net.W2, w2)
    # agreeing values are fine, and continue the same net
    train(
        "v1.1",
        games=10,
        net=net,
        hidden=5,
        alpha=0.2,
        beta=0.3,
        lam=0.7,
        init=0.2,
        activation="logistic",
        log_every=10,
        progress=False,
    )
    assert not np.array_equal(net.W1, w1)
    w1, w2 = net.W1.copy(), net.W2.copy()

    def boom(done, player):
        if done >= 200:
            raise RuntimeError("callback failed")

    with pytest.raises(RuntimeError, match="callback failed"):
        train(
            "v1.1",
            games=400,
            net=net,
            log_every=100,
            callback=boom,
            callback_every=100,
            alpha_final=0.01,
            progress=False,
        )
    assert np.array_equal(net.W1, w1) and np.array_equal(net.W2, w2)  # weights restored
    assert (net.alpha, net.beta) == (0.2, 0.3)  # and the annealed step sizes


def test_design_training_and_opponent_refuse_bad_settings_by_name():
    with pytest.raises(ValueError, match="unknown TDNN version"):
        NetDesign("v4.0")
    with pytest.raises(ValueError, match="unknown activation"):
        NetDesign("v1.0", activation="relu")
    with pytest.raises(ValueError, match="unknown encoding"):
        NetDesign("v1.0", encoding="bits")
    assert NetDesign("v3.0", "fixed").fixes == FIXES and NetDesign("v3.0", "fixed").encoding_name == "mover"
    with pytest.raises(ValueError, match="target must be"):
        Training(target="greedy")
    with pytest.raises(ValueError, match="log_every"):
        Training(log_every=0)
    with pytest.raises(ValueError, match="opponent must be a tictactoe Player"):
        Opponent(object())
    with pytest.raises(ValueError, match="net_side"):
        Opponent(perfect_player(), "Z")
    assert Training().but(hidden=80, games=2000).design.hidden == 80


# ----------------------------------------------------------------------------- python -m tdbook train tictactoe-net


@pytest.fixture
def fake_root(tmp_path, monkeypatch):
    """A checkout of our own: data/ holds a 'shipped' net file, build/ is empty."""
    root = tmp_path / "repo"
    (root / "data").mkdir(parents=True)
    (root / "notebooks").mkdir()
    (root / "pyproject.toml").write_text("")
    (root / "data" / "tictactoe_net_perfect.npz").write_bytes(b"shipped weights")
    (root / "data" / "tictactoe_net_perfect.json").write_text("{}")
    monkeypatch.setenv("TDBOOK_ROOT", str(root))
    return root


def _cli(capsys, *argv):
    from tdbook.cli import main

    code = main(["train", "tictactoe-net", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_train_cli_any_game_count_works_and_writes_under_build_by_default(fake_root, capsys):
    code, out, err = _cli(capsys, "--games", "200", "--hidden", "4", "--no-progress")
    assert code == 0, err
    written = fake_root / "build" / "tictactoe_net_perfect.npz"
    assert written.is_file() and written.with_suffix(".json").is_file() and "wrote" in out
    from tdbook.experiments.tictactoe.net_perfect import load_perfect

    pn = load_perfect(written)
    assert pn.games == 200 and pn.curve[-1]["games"] == 200 and "--games 200" in pn.command
    assert (fake_root / "data" / "tictactoe_net_perfect.npz").read_bytes() == b"shipped weights"


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--check-every", "2500"], "--check-every must be a positive multiple of 1,000 games"),
        (["--games", "0"], "--games must be a positive number of games"),
        (["--alpha", "0"], "--alpha must be a number in (0, 10]"),
        (["--lambda", "1.5"], "--lambda must be a number in [0, 1]"),
        (["--out", "net.txt"], "--out net.txt must end in .npz"),
    ],
)
def test_train_cli_refuses_bad_options_up_front(fake_root, capsys, argv, message):
    code, out, err = _cli(capsys, *argv)
    assert code == 2 and message in err and err.count("\n") == 1
    assert "callback_every" not in err and "Traceback" not in err
    assert not (fake_root / "build").exists()  # nothing was trained or written


def test_train_cli_never_overwrites_the_shipped_net_without_force(fake_root, capsys, tmp_path):
    shipped = fake_root / "data" / "tictactoe_net_perfect.npz"
    code, _, err = _cli(capsys, "--games", "200", "--out", str(shipped), "--no-progress")
    assert code == 2 and "add --force" in err and shipped.read_bytes() == b"shipped weights"
    code, _, err = _cli(capsys, "--games", "200", "--hidden", "4", "--out", str(shipped), "--force", "--no-progress")
    assert code == 0, err
    assert shipped.read_bytes() != b"shipped weights" and "--force" in (shipped.with_suffix(".json")).read_text()
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    code, _, err = _cli(capsys, "--out", str(blocker / "net.npz"))
    assert code == 2 and "cannot create the directory" in err


def test_train_cli_ctrl_c_says_what_was_written_and_how_to_run_again(fake_root, capsys, monkeypatch):
    from tdbook.experiments.tictactoe import net_perfect as perfect

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(perfect, "train_perfect", interrupted)
    code, out, err = _cli(capsys, "--games", "3000", "--seed", "7")
    assert code == 130 and err.count("\n") == 1 and "Traceback" not in err
    assert "interrupted before the first checkpoint" in err
    assert err.strip().endswith("start again with: python -m tdbook train tictactoe-net --games 3000 --seed 7")
    assert not (fake_root / "build" / "tictactoe_net_perfect.npz").exists()


def test_corrupt_or_foreign_weights_name_the_file_and_what_was_expected(tmp_path):
    from tdbook.experiments.tictactoe.net_perfect import load_perfect

    for name, write in (
        ("garbage.npz", lambda p: p.write_bytes(b"\x00not an archive")),
        ("objects.npz", lambda p: np.savez(p, W1=np.array([object()], dtype=object), W2=np.zeros(2), meta=np.zeros(1))),
        ("foreign.npz", lambda p: np.savez(p, weights=np.zeros(3))),
    ):
        path = tmp_path / name
        write(path)
        path.with_suffix(".json").write_text('{"games": 1, "wall_time_s": 0, "command": "c"}')
        with pytest.raises(ValueError) as e:
            load_perfect(path)
        text = str(e.value)
        assert f"{path} is not a tdbook weights file: an .npz archive of the arrays W1, W2" in text
        assert "pickle" not in text


def test_a_finished_run_off_the_log_grid_resumes_to_itself():
    """A run of 1,500 games (not a multiple of ``log_every`` = 1,000) ends with a state of 1,500 games done; handing
    that state back (the trainer resuming its own finished checkpoint) returns the same weights, not a refusal
    ("the saved state has 1,500 games done"); a state off the grid before the end is still refused."""
    states = []
    spec = Training().but(games=1500, seed=3)

    def keep(state):
        states.append({k: np.copy(v) for k, v in state.items()})

    run = training.train(spec, progress=False, on_checkpoint=keep, checkpoint_every=1000)
    assert int(states[-1]["done"]) == 1500
    again = training.train(spec, progress=False, state=states[-1])
    assert np.array_equal(again.net.W1, run.net.W1) and np.array_equal(again.net.W2, run.net.W2)
    bad = dict(states[-1], done=np.array(500))
    with pytest.raises(ValueError, match="500 games done"):
        training.train(spec, progress=False, state=bad)
