"""TD(λ) after-state tables (Powell (2000) §6.1–6.2, App. B.1 main.cc, B.7 TDlambdaPolicy.h).

The central test transliterates App. B's C++ line by line into plain Python — string keys, a dict
for ``std::map``, ``board[i][j]`` with ``i`` the column, the column-major scan, ``val != kInitialize
&& val > best`` — and drives it with the same random draws as the jitted kernel: the two must end
with identical tables and counters.
"""

from __future__ import annotations

import numpy as np
import pytest

from tdbook import claims
from tdbook.core import rng
from tdbook.experiments.tictactoe import table_training as TR
from tdbook.games import tictactoe as T
from tdbook.learners import tictactoe_table as L
from tdbook.players import tictactoe as P


def train(x, o, learning, games, progress=False, **schedule):
    """App. B.1 training (the test's shorthand for ``TR.train(x, o, learning, TR.Training(games, ...))``)."""
    return TR.train(x, o, learning, TR.Training(games, **schedule), progress=progress)


K_EMPTY, K_X, K_O, K_NOWIN, K_DRAW = -1, 0, 1, 2, 3


def _game_over(board):
    """App. B.1 game_over, as listed (board[i][j]: column i, row j)."""
    for j in range(3):
        p = board[0][j]
        if all(board[i][j] == p and board[i][j] != K_EMPTY for i in range(1, 3)):
            return p
    for i in range(3):
        p = board[i][0]
        if all(board[i][j] == p and board[i][j] != K_EMPTY for j in range(1, 3)):
            return p
    p = board[0][0]
    if all(board[i][i] == p and board[i][i] != K_EMPTY for i in range(3)):
        return p
    p = board[2][0]
    if all(board[2 - j][j] == p and board[2 - j][j] != K_EMPTY for j in range(3)):
        return p
    if any(board[i][j] == K_EMPTY for i in range(3) for j in range(3)):
        return K_NOWIN
    return K_DRAW


def _board_string(board):
    return "".join(
        ("X" if board[i][j] == K_X else "O") if board[i][j] != K_EMPTY else "B" for j in range(3) for i in range(3)
    )


def _empty_squares(board):
    """Empty squares in the kernel's order (square 3j+i ascending) — only to map the shared random draws."""
    return [(s % 3, s // 3) for s in range(9) if board[s % 3][s // 3] == K_EMPTY]


class _Random:
    def __init__(self, st):
        self.st = st

    def move(self, board, piece):
        sq = _empty_squares(board)
        k = 0 if len(sq) == 1 else rng.randint(self.st, len(sq))
        i, j = sq[k]
        board[i][j] = piece

    def reset(self):
        pass

    def learn(self, board, piece, winner, loser, game_over):
        pass


class _TDlambda:
    """App. B.7 TDlambdaPolicy, transliterated."""

    def __init__(self, st, alpha, lam, gamma, eps, draw, learning=True):
        self.st, self.alpha, self.lam, self.gamma, self.eps, self.draw = st, alpha, lam, gamma, eps, draw
        self.V, self.E, self.moves, self.current, self.next = {}, {}, [], "", ""
        self.learning = learning

    def move(self, board, piece):
        rand = self.learning and self.eps > 0 and rng.uniform(self.st) < self.eps
        if rand:
            sq = _empty_squares(board)
            i, j = sq[rng.randint(self.st, len(sq))]
            board[i][j] = piece
        else:
            best, x, y = -1.0, -1, -1
            for i in range(3):
                for j in range(3):
                    if board[i][j] == K_EMPTY:
                        board[i][j] = piece
                        s = _board_string(board)
                        val = 0.0  # kInitialize
                        if s in self.V:
                            val = self.V[s]
                        if val != 0.0 and val > best:
                            best, x, y = val, i, j
                        board[i][j] = K_EMPTY
            if x != -1:
                board[x][y] = piece
            else:
                sq = _empty_squares(board)
                i, j = sq[0 if len(sq) == 1 else rng.randint(self.st, len(sq))]
                board[i][j] = piece
        self.next = _board_string(board)
        self.moves.append(self.next)

    def learn(self, board, piece, winner, loser, game_over):
        reward = 0.0
        if game_over:
            self.next = _board_string(board)
            reward = 1.0 if winner else -1.0 if loser else self.draw
        if self.learning and self.current != "" and self.next != "":
            delta = reward + self.gamma * self.V.setdefault(self.next, 0.0) - self.V.setdefault(self.current, 0.0)
            self.E[self.current] = self.E.get(self.current, 0.0) + 1.0
            for s in self.moves:
                self.V[s] = self.V.get(s, 0.0) + self.alpha * delta * self.E.get(s, 0.0)
                self.E[s] = self.gamma * self.lam * self.E.get(s, 0.0)
        self.current = self.next
        self.next = ""

    def reset(self):
        self.E, self.moves, self.current, self.next = {}, [], "", ""

    def saved(self):
        """App. B.7 save(): the entries written to disk."""
        return {k: v for k, v in self.V.items() if v != 0.0 and k != ""}


def _main_cc(policies, games):
    """App. B.1 main loop; returns (X wins, O wins, ties)."""
    wins, ties = [0, 0], 0
    for _ in range(games):
        board = [[K_EMPTY] * 3 for _ in range(3)]
        for p in policies:
            p.reset()
        flags = [[False, False], [False, False]]  # (winner, loser) per player
        current, last, winner = K_X, K_X, K_NOWIN
        while winner == K_NOWIN:
            policies[current].move(board, current)
            winner = _game_over(board)
            if winner == current:
                flags[current] = [True, False]
            policies[current].learn(board, current, *flags[current], winner != K_NOWIN)
            last, current = current, (K_O if current == K_X else K_X)
        if winner != K_DRAW:
            wins[last] += 1
            flags[last], flags[current] = [True, False], [False, True]
        else:
            ties += 1
            flags[last], flags[current] = [False, False], [False, False]
        policies[current].learn(board, current, *flags[current], True)
    return wins[0], wins[1], ties


def _as_array(V):
    t = np.zeros(T.N_CODES)
    for s, v in V.items():
        t[T.parse_board(s)] = v
    return t


@pytest.mark.parametrize("setting", ["td-O-vs-random", "td-X-vs-random", "td-vs-td", "lambda0-draw-0.1"])
def test_kernel_equals_a_line_by_line_port_of_appendix_b(setting):
    games, seed = 1500, 5
    alpha, lam, draw = (0.05, 0.0, -0.1) if setting == "lambda0-draw-0.1" else (0.1, 0.5, 0.0)
    st = rng.make_state(seed, 0)
    td = lambda: _TDlambda(st, alpha, lam, 1.0, 0.05, draw)  # noqa: E731
    pols = {
        "td-O-vs-random": [_Random(st), td()],
        "td-X-vs-random": [td(), _Random(st)],
        "td-vs-td": [td(), td()],
        "lambda0-draw-0.1": [_Random(st), td()],
    }[setting]
    counts_port = _main_cc(pols, games)
    learning = [isinstance(p, _TDlambda) for p in pols]
    players = [P.table_player(P.empty_table(), "thesis", draw, 0.05) if lr else P.random_player() for lr in learning]
    res = train(
        players[0],
        players[1],
        learning,
        games,
        chunk=games,
        alpha=alpha,
        lam=lam,
        seed=seed,
        log_every=games,
        save_digits=None,
    )
    assert tuple(res.log[0, -1]) == counts_port
    for i, p in enumerate(pols):
        if learning[i]:
            ours = res.tables[i]
            assert np.array_equal(ours, _as_array(p.V)), f"side {'XO'[i]} table differs"
            assert L.states_stored(ours) == len(p.saved()) == res.states[-1][i]


def test_learn_by_hand():
    """Code 4.3 / App. B.7 on one game of O (after-states a1, a2, a3, lost): α = 0.1, λ = 0.5, γ = 1."""
    V = np.zeros(T.N_CODES)
    a1, a2, a3, final = 10, 20, 30, 40
    V[a1], V[a2], V[a3] = 0.2, 0.4, 0.1
    moves, E = np.zeros(5, dtype=np.int64), np.zeros(5)
    moves[:3] = a1, a2, a3
    L.learn(V, moves, E, 1, -1, a1, 0.0, 0.1, 0.5, 1.0)  # the first move teaches nothing
    assert V[a1] == 0.2 and not E.any()
    L.learn(V, moves, E, 2, a1, a2, 0.0, 0.1, 0.5, 1.0)  # δ = 0.4 − 0.2
    assert V[a1] == pytest.approx(0.22) and V[a2] == 0.4 and E[0] == 0.5
    L.learn(V, moves, E, 3, a2, a3, 0.0, 0.1, 0.5, 1.0)  # δ = 0.1 − 0.4; e(a1) = 0.5, e(a2) = 1
    assert V[a2] == pytest.approx(0.4 - 0.03) and V[a1] == pytest.approx(0.22 - 0.1 * 0.3 * 0.5)
    L.learn(V, moves, E, 3, a3, final, -1.0, 0.1, 0.5, 1.0)  # lost: δ = −1 + V[final](0) − 0.1
    assert V[a3] == pytest.approx(0.1 - 0.11) and V[a2] == pytest.approx(0.37 - 0.11 * 0.5)
    assert V[a1] == pytest.approx(0.205 - 0.11 * 0.25) and V[final] == 0.0


def test_terminal_after_states_never_change_and_same_seed_same_table():
    kw = dict(games=60_000, chunk=20_000, alpha=0.05, lam=0.5, seed=3)
    a = train(P.random_player(), P.table_player(P.empty_table(), epsilon=0.05), (False, True), **kw)
    b = train(P.random_player(), P.table_player(P.empty_table(), epsilon=0.05), (False, True), **kw)
    assert np.array_equal(a.tables, b.tables) and np.array_equal(a.log, b.log)
    term = T.after_states(T.O, terminal=True)
    assert not a.tables[1, term].any()
    nz = np.flatnonzero(a.tables[1])
    assert set(nz) <= set(T.after_states(T.O, terminal=False))  # only O's own non-terminal after-states
    assert L.states_stored(a.tables[1]) == nz.size == a.states[-1][1]
    c = train(P.random_player(), P.table_player(P.empty_table(), epsilon=0.05), (False, True), **{**kw, "seed": 4})
    assert not np.array_equal(a.tables, c.tables)
    # the random player's table is untouched; the counters restart every chunk
    assert not a.tables[0].any() and a.log.shape == (3, 20, 3) and a.log[:, -1].sum(axis=1).tolist() == [20_000] * 3


def test_save_precision_and_crossover_bookkeeping():
    t = np.zeros(T.N_CODES)
    t[[1, 5, 7]] = [0.123456789, -1.0000004, 2.5e-9]
    r = L.round_significant(t)
    assert r[1] == 0.123457 and r[5] == -1.0 and r[7] == 2.5e-9 and L.states_stored(r) == 3
    log = np.array([[[1, 0, 0], [1, 1, 0], [1, 3, 0], [4, 3, 1], [4, 6, 2]]])
    res = TR.TrainResult(np.zeros((2, T.N_CODES)), log, 1, 5, (False, True))
    assert res.crossover(1) == 5 and res.crossover(0) is None
    assert res.final_percent(1) == pytest.approx((50.0, 2 / 12 * 100, 4 / 12 * 100))
    assert res.window_percent()[0, 3].tolist() == [300.0, 0.0, 100.0]


def test_train_rejects_bad_parameters():
    tp = P.table_player(P.empty_table(), epsilon=0.05)
    rp = P.random_player()
    for kw, msg in [
        ({"alpha": 0.0}, "alpha"),
        ({"alpha": 1.5}, "alpha"),
        ({"lam": -0.1}, "lam"),
        ({"gamma": 0}, "gamma"),
        ({"games": 0}, "games"),
        ({"games": 1000, "chunk": 300}, "multiple"),
        ({"log_every": 0}, "log_every"),
    ]:
        args = {"games": 1000, "chunk": 500, "log_every": 100, **kw}
        with pytest.raises(ValueError, match=msg):
            train(rp, tp, (False, True), **args)
    with pytest.raises(ValueError, match="only a table player can learn"):
        train(rp, tp, (True, True), 100, chunk=100, log_every=10)


# ----------------------------------------------------------------------------- notebook 06's experiment helpers


def test_appendix_d_transcription():
    from tdbook.experiments.tictactoe import table_evaluation as EV
    from tdbook.experiments.tictactoe import tictactoe_td_table as E

    codes, vals = EV.appendix_d()
    assert len(codes) >= 500 and np.all(np.abs(vals) <= 1.0)
    assert all(T.to_move(int(c)) == T.O and T.STATUS[c] == T.ONGOING for c in codes)
    d = dict(zip(codes.tolist(), vals.tolist()))
    for s, v in E.thesis_first_moves().items():  # the opening values read by hand from the OCR
        c = T.place(0, s, T.X)
        assert c not in d or d[c] == v
    text = (
        "Appendix D. Tic-Tac-Toe\nBXOBXXOOX\t1.0000\tBBBBBBBEX 0.5308 XXXOOBBBB 1.0000 BXBBBBBBB 0.4470 "
        "BXBBBBBBB 0.4000 XOBBBBBBB 0.1000 XBBBBBBB 0.5518\n"
    )
    # terminal, met twice, X to move and 8-character entries are dropped; OCR 'E' is read as 'B'
    assert EV.transcribe_appendix_d(text) == [("BBBBBBBBX", 0.5308), ("BXOBXXOOX", 1.0)]


def test_sure_draw_after_states_and_fig68_on_a_hand_made_table():
    from tdbook.experiments.tictactoe import table_evaluation as E

    sure = E.sure_draw_after_states()
    for c in sure:
        s = T.board_string(int(c))
        assert s.count("B") == 1 and T.STATUS[T.place(int(c), s.index("B"), T.X)] == T.DRAW
    assert len(sure) == 80
    t = P.empty_table()
    t[T.parse_board("XXO OOB XBB")] = 0.2
    f = E.fig68(t)
    assert f.example == T.parse_board("XXB OOB XBB") and f.example_choice == 2 and f.example_win == [5]
    assert f.win_values_zero and 0 < f.p_win < 1 and f.positions > 0


def test_config_refuses_bad_knobs_by_name():
    from tdbook.experiments.tictactoe import tictactoe_td_table as E

    cfg = E.config("quick")
    assert cfg.GAMES % cfg.CHUNK == 0 and 0.05 in cfg.ALPHAS
    for kw, msg in [
        ({"GAMES": 50_000}, "multiple"),
        ({"EVAL_GAMES": 10}, "EVAL_GAMES"),
        ({"ALPHAS": [0.1]}, "0.05"),
        ({"LAMBDA": 1.5}, "lam"),
        ({"EPSILONS": [2.0]}, "exploration"),
        ({"REPLICATES": 0}, "REPLICATES"),
        ({"GAMES": "many"}, "GAMES"),
    ]:
        with pytest.raises(ValueError, match=msg):
            E.config("quick", **kw)
    assert E.run_seed(1, "a", 0) != E.run_seed(1, "b", 0) != E.run_seed(1, "a", 1)


def test_explore_runs_and_rejects_bad_parameters():
    from tdbook.experiments.tictactoe import tictactoe_td_table as E

    d = E.explore(games=4000, side="X", opponent="self", version="corrected", seed=3)
    assert d.result.games == 4000 and d.result.learning == (True, True) and 0 <= d.evaluation.optimal <= 1
    for kw in (
        {"alpha": 0.0},
        {"side": "Z"},
        {"opponent": "human"},
        {"games": 10},
        {"version": "v2"},
        {"epsilon": -0.1},
    ):
        with pytest.raises(ValueError):
            E.explore(**kw)


def test_training_schedule_and_side_refuse_bad_settings_by_name():
    for kw, msg in [
        ({"games": 0}, "games"),
        ({"games": 1000, "chunk": 300}, "multiple"),
        ({"games": 1000, "save_digits": 0}, "save_digits"),
        ({"games": 1000, "alpha": 2.0}, "alpha"),
    ]:
        with pytest.raises(ValueError, match=msg):
            TR.Training(**kw)
    with pytest.raises(ValueError, match="spec must be a Training"):
        TR.train(P.random_player(), P.random_player(), (False, False), {"games": 10})
    from tdbook.experiments.tictactoe import tictactoe_td_table as E

    with pytest.raises(ValueError, match="side must be 'X' or 'O'"):
        E.Side("Z")


def test_app_d_correlation_has_the_same_bits_whatever_the_order_or_layout_of_the_values():
    """Issue 15 §5: a fresh clone's `make figures` changed App. D's r from 0.9304675127138201 to …203.  The
    root: np.corrcoef's sums (BLAS dot products, SIMD reductions) associate the terms in an order that
    depends on the CPU's kernel and on the order of the values.  pearson_r sums exactly (math.fsum), so its
    bits depend on neither; the mean over runs likewise."""
    from tdbook.experiments.tictactoe import table_evaluation as EV

    _, vals = EV.appendix_d()
    rng = np.random.default_rng(3)
    ours = vals + rng.normal(0.0, 0.1, vals.size)
    ref = EV.pearson_r(vals, ours)
    assert ref == pytest.approx(np.corrcoef(vals, ours)[0, 1], abs=1e-13)
    perms = [rng.permutation(vals.size) for _ in range(40)]
    assert {EV.pearson_r(vals[p], ours[p]).hex() for p in perms} == {ref.hex()}
    for offset in range(1, 8):  # the same values at another memory offset (alignment)
        buf = np.empty(vals.size + 8)
        moved = buf[offset : offset + vals.size]
        moved[:] = ours
        assert EV.pearson_r(vals, moved).hex() == ref.hex()
    # the cause: the library's reduction is order-dependent in its last bits
    assert len({float(np.corrcoef(vals[p], ours[p])[0, 1]).hex() for p in perms}) > 1
    runs = rng.normal(0.5, 0.2, (5, vals.size))
    means = {EV.mean_over_runs(runs[p]).tobytes() for p in ([0, 1, 2, 3, 4], [4, 3, 2, 1, 0], [2, 0, 4, 1, 3])}
    assert len(means) == 1
    with pytest.raises(ValueError, match="same length"):
        EV.pearson_r([1.0, 2.0], [1.0])


def test_table_6_1_transcription_agrees_with_its_claims():
    """Table 6.1 is transcribed once as a table (the rows' settings and results) and its scored columns are
    claims, one per column: the two must say the same."""
    from tdbook import claims
    from tdbook.experiments.tictactoe import tictactoe_td_table as E

    rows = E.table61_printed()
    assert [s.label for s, _ in rows][-2:] == ["λ=0.5 (computer X)", "λ=0.5 (tie=−0.1)"] and len(rows) == 7
    o = [p for s, p in rows if s.side == "O"]
    x = next(p for s, p in rows if s.side == "X")
    get = lambda cid: claims.get(E.NOTEBOOK, cid).paper  # noqa: E731
    assert all(p["human"] + p["td"] + p["draws"] == 20 for _, p in rows)
    assert get("table6.1-states") == [p["states"] for p in o]
    assert get("table6.1-vs-perfect") == [v for p in o for v in (p["human"], p["draws"])]
    assert get("table6.1-td-wins") == [p["td"] for _, p in rows]
    assert get("table6.1-X-never-loses") == x["draws"] and x["human"] == 0
    assert get("fig6.7-states") == x["states"]
    assert get("table6.1-training") == [
        rows[0][0].games,
        *(s.lam for s, _ in rows if s.side == "O" and s.draw == 0.0),
    ]


def test_the_reference_shown_in_the_chapter_is_the_kernel_bit_for_bit():
    """Notebook 06 shows ``afterstate_update`` (plain Python); training runs the jitted ``learn``: on 5,000 random
    tables, games, traces and parameters they leave the same values and traces, bit for bit."""
    gen = np.random.default_rng(61)
    for case in range(5000):
        V = gen.uniform(-1, 1, T.N_CODES)
        n = int(gen.integers(1, 6))
        moves = gen.choice(T.N_CODES, size=n, replace=False).astype(np.int64)
        E = gen.uniform(0, 2, n) * (gen.random(n) < 0.7)
        current = -1 if case % 10 == 0 else int(moves[gen.integers(n)])
        nxt = -1 if case % 17 == 0 else int(gen.integers(T.N_CODES))
        reward = float(gen.choice([0.0, 1.0, -1.0, gen.uniform(-0.5, 0.5)]))
        alpha, lam, gamma = (
            float(gen.uniform(0.001, 1)),
            float(gen.uniform(0, 1)),
            float(gen.choice([1.0, gen.random()])),
        )
        ours, ours_e = V.copy(), E.copy()
        L.learn(ours, moves, ours_e, n, current, nxt, reward, alpha, lam, gamma)
        ref, traces = V.copy(), list(E)
        L.afterstate_update(
            ref,
            list(moves),
            traces,
            None if current < 0 else current,
            None if nxt < 0 else nxt,
            reward,
            alpha,
            lam,
            gamma,
        )
        assert np.array_equal(ours, ref) and np.array_equal(ours_e, np.array(traces)), case


def test_a_printed_single_run_is_judged_cell_by_cell_against_our_runs_prediction_interval():
    """Figs 6.2–6.4, 6.7, App. D and p. 63 print one run each: each printed cell is judged against the prediction
    interval of one more of our runs, t·s·√(1 + 1/n) (no one-point floor wider than our spread); one run: plain."""
    from scipy import stats

    from tdbook.experiments.tictactoe import table_claims as C

    runs = np.array(
        [[51.5, 30.0, 18.5], [51.6, 30.3, 18.1], [51.4, 29.8, 18.8], [51.5, 30.1, 18.4], [51.6, 29.8, 18.7]]
    )
    cells = C.single_run(runs)
    t = stats.t.ppf(0.975, 4) * np.sqrt(1.2)
    assert [c.half for c in cells] == pytest.approx(t * runs.std(0, ddof=1))
    assert np.allclose(C.half_widths(runs), [c.half for c in cells])
    assert claims.verdict_of("paper", [51.9, 30.0, 18.5], cells, 0.05) == "differs"  # 0.38 off; a 1-point floor: passed
    assert claims.verdict_of("paper", [51.7, 29.5, 18.7], cells, 0.05) == "reproduced"
    assert C.single_run(runs[:1]) == [51.5, 30.0, 18.5] and C.single_run(runs[:1, 0]) == 51.5
    assert C.single_run(runs[:, 0]).n == 5 and C.half_widths(runs[:1]).tolist() == [0.0, 0.0, 0.0]
