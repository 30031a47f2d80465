"""Tic-tac-toe engine and players (Powell (2000) §6, App. B.1, B.6, B.7): counts, minimax against an independent
pure-Python search, property tests on random games, the App. B.7 greedy rule on hand-made positions."""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tdbook.games import tictactoe as T
from tdbook.games.base import Game, IllegalMove
from tdbook.players import tictactoe as P

# ----------------------------------------------------------------------------- an independent reference

_LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def _winner(b: tuple) -> str:
    for a, c, d in _LINES:
        if b[a] != "." and b[a] == b[c] == b[d]:
            return b[a]
    return "draw" if "." not in b else ""


@cache
def _minimax(b: tuple) -> int:
    """Value for X of board ``b`` (a tuple of 'X', 'O', '.') by plain recursion — written independently."""
    w = _winner(b)
    if w:
        return {"X": 1, "O": -1, "draw": 0}[w]
    me = "X" if b.count("X") == b.count("O") else "O"
    vals = [_minimax(b[:i] + (me,) + b[i + 1 :]) for i in range(9) if b[i] == "."]
    return max(vals) if me == "X" else min(vals)


def _reachable() -> dict[tuple, None]:
    seen: dict[tuple, None] = {}
    stack = [tuple("." * 9)]
    while stack:
        b = stack.pop()
        if b in seen:
            continue
        seen[b] = None
        if _winner(b):
            continue
        me = "X" if b.count("X") == b.count("O") else "O"
        stack += [b[:i] + (me,) + b[i + 1 :] for i in range(9) if b[i] == "."]
    return seen


def _code(b: tuple) -> int:
    return sum({".": 0, "X": 1, "O": 2}[ch] * 3**i for i, ch in enumerate(b))


REF = _reachable()


# ----------------------------------------------------------------------------- engine


def test_counts_of_positions():
    assert T.REACHABLE.sum() == 5478 == len(REF)
    assert set(T.reachable_codes().tolist()) == {_code(b) for b in REF}
    st_ = T.STATUS[T.reachable_codes()]
    assert [(st_ == k).sum() for k in (T.ONGOING, T.X_WINS, T.O_WINS, T.DRAW)] == [4520, 626, 316, 16]
    assert (len(T.after_states(T.X)), len(T.after_states(T.X, terminal=False))) == (2739, 2097)
    assert (len(T.after_states(T.O)), len(T.after_states(T.O, terminal=False))) == (2738, 2422)
    assert (len(T.positions_to_move(T.X)), len(T.positions_to_move(T.O))) == (2423, 2097)
    assert len({T.canonical(int(c)) for c in T.reachable_codes()}) == 765


def test_minimax_matches_independent_search():
    assert T.VALUE[0] == 0 and _minimax(tuple("." * 9)) == 0  # the empty board is a draw
    for b in REF:
        c = _code(b)
        assert T.VALUE[c] == _minimax(b), b
        if not _winner(b):
            me = "X" if b.count("X") == b.count("O") else "O"
            best = _minimax(b)
            opt = {i for i in range(9) if b[i] == "." and _minimax(b[:i] + (me,) + b[i + 1 :]) == best}
            assert set(T.squares_mask(T.OPTIMAL[c])) == opt, b
        else:
            assert T.OPTIMAL[c] == 0


def test_after_corner_opening_only_centre_is_optimal():
    """§6: "If X begins the game by placing his piece on any of the corners, O must place his piece in the center"."""
    for corner in (0, 2, 6, 8):
        assert T.squares_mask(T.OPTIMAL[T.place(0, corner, T.X)]) == [4]


def test_status_table_agrees_with_line_scan_on_every_code():
    for c in range(0, T.N_CODES, 7):
        b = T.decode(c)
        assert T.encode(b) == c
        if T.REACHABLE[c]:
            assert T.board_status(b) == T.STATUS[c]


def test_symmetries_form_a_group_and_preserve_status_and_value():
    perms = {tuple(p) for p in T.SYMMETRIES}
    assert len(perms) == 8 and tuple(range(9)) in perms
    for p in T.SYMMETRIES:
        for q in T.SYMMETRIES:
            assert tuple(q[p]) in perms
    for c in T.reachable_codes()[::5]:
        for k in range(8):
            t = T.transform(int(c), k)
            assert T.REACHABLE[t] and T.STATUS[t] == T.STATUS[c] and T.VALUE[t] == T.VALUE[c]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 8), min_size=0, max_size=12), st.randoms(use_true_random=False))
def test_random_games_through_the_facade(moves, rnd):
    g = T.TicTacToe()
    assert isinstance(g, Game)
    s = g.initial_state()
    board = ["."] * 9
    for m in moves:
        legal = g.legal_moves(s)
        assert legal == ([i for i in range(9) if board[i] == "."] if not _winner(tuple(board)) else [])
        if g.is_terminal(s):
            with pytest.raises(IllegalMove, match="game is over"):
                g.apply(s, m)
            break
        if board[m] != ".":
            with pytest.raises(IllegalMove, match="already taken"):
                g.apply(s, m)
            m = rnd.choice(legal)
        me = "X" if g.to_move(s) == 0 else "O"
        s = g.apply(s, m)
        board[m] = me
        assert T.board_string(s) == "".join(board).replace(".", "B")
        assert g.is_terminal(s) == bool(_winner(tuple(board)))
    if g.is_terminal(s):
        w = _winner(tuple(board))
        assert g.result(s) == {"X": 1.0, "O": -1.0, "draw": 0.0}[w]
    assert g.key(s) == s and g.value(s) == _minimax(tuple(board))
    assert g.encode(s).tolist() == [float(c == "X") for c in board] + [float(c == "O") for c in board]


def test_facade_rejects_bad_input_with_clear_errors():
    g = T.TicTacToe()
    s = g.play([4])
    for bad in (9, -1, "a", 1.5, True, None):
        with pytest.raises(IllegalMove, match="square 0..8"):
            g.apply(s, bad)
    with pytest.raises(IllegalMove, match="square 4 .* taken by X"):
        g.apply(s, 4)
    with pytest.raises(ValueError, match="not terminal"):
        g.result(s)
    with pytest.raises(ValueError, match="not a position reachable"):
        g.legal_moves(2)  # O alone on the board: code 2
    for bad in ("XXXX", "XXBBBBBBB", "XXXOOOBBB", "QBBBBBBBB"):
        with pytest.raises(ValueError):
            T.parse_board(bad)
    assert T.parse_board("XOB|BXB|BBB") == T.place(T.place(T.place(0, 0, T.X), 1, T.O), 4, T.X)
    assert T.board_string(T.parse_board("x.. .o. ..x")) == "XBBBOBBBX"


# ----------------------------------------------------------------------------- players


def test_random_vs_random_exact_and_sampled():
    r = P.random_player()
    px, po, pd = P.exact_outcomes(r, r)
    # the well-known probabilities of uniformly random play: 737/1260, 121/420, 8/63
    assert abs(px - 737 / 1260) < 1e-12 and abs(po - 121 / 420) < 1e-12 and abs(pd - 8 / 63) < 1e-12
    m = P.match(r, r, 200_000, seed=3, progress=False)
    assert m.games == 200_000
    for got, p in zip((m.x_wins, m.o_wins, m.draws), (px, po, pd)):
        assert abs(got / m.games - p) < 4 * np.sqrt(p * (1 - p) / m.games)


def test_perfect_player_never_loses():
    r, p = P.random_player(), P.perfect_player()
    assert P.exact_outcomes(p, r)[1] == 0.0 and P.exact_outcomes(r, p)[0] == 0.0
    assert P.exact_outcomes(p, p) == pytest.approx((0.0, 0.0, 1.0))
    m1 = P.match(p, r, 10_000, seed=1, progress=False)
    m2 = P.match(r, p, 10_000, seed=2, progress=False)
    assert m1.o_wins == 0 and m2.x_wins == 0 and m1.games == m2.games == 10_000
    assert P.optimal_fraction(p, T.X) == 1.0 and P.optimal_fraction(p, T.O) == 1.0


def test_same_seed_same_match():
    r, p = P.random_player(), P.perfect_player()
    assert P.match(r, p, 5000, seed=9, progress=False) == P.match(r, p, 5000, seed=9, progress=False)
    assert P.match(r, r, 5000, seed=9, progress=False) != P.match(r, r, 5000, seed=10, progress=False)


class _Scripted:
    """A Python-object player (stands in for a human or a net) playing a fixed list of squares."""

    name = "scripted"

    def __init__(self, squares):
        self.squares = list(squares)

    def move(self, code):
        return self.squares.pop(0)


class _FirstEmpty:
    """Plays the first empty square (a deterministic Python-object player)."""

    def move(self, code):
        return T.board_string(code).index("B")


def test_python_object_players_and_illegal_answers():
    code, moves = P.play_game(_Scripted([0, 1, 2]), _Scripted([3, 4]))
    assert T.STATUS[code] == T.X_WINS and moves == [0, 3, 1, 4, 2]
    with pytest.raises(IllegalMove, match="scripted chose an illegal move: square 0"):
        P.play_game(_Scripted([0, 0]), _Scripted([0, 4]))
    res = P.match(P.perfect_player(), _FirstEmpty(), games=200, progress=False)
    assert res.o_wins == 0 and res.games == 200 and res.x_wins > 0
    assert P.optimal_fraction(_FirstEmpty(), T.O) == pytest.approx(
        np.mean([T.is_optimal(int(c), int(T.board_string(int(c)).index("B"))) for c in T.positions_to_move(T.O)])
    )


def _table_with(values: dict[str, float]) -> np.ndarray:
    t = P.empty_table()
    for s, v in values.items():
        t[T.parse_board(s)] = v
    return t


def test_thesis_rule_on_hand_made_positions():
    """App. B.7: column-major scan, `val != 0 && val > best` with best = -1, ties to the first scanned."""
    start = T.parse_board("XBB BBB BBB")  # O to move
    # O on square 1 (scanned 4th) and square 3 (scanned 2nd) both 0.3: the first scanned (3) wins the tie
    t = _table_with({"XOB BBB BBB": 0.3, "XBB OBB BBB": 0.3, "XBB BOB BBB": 0.0, "XBB BBB BBO": -0.2})
    pl = P.table_player(t)
    assert pl.move(start) == 3 and pl.distribution(start)[3] == 1.0
    # the corrected rule breaks the tie at random; the unknown centre (0) is now eligible but lower
    pc = P.table_player(t, "corrected")
    assert set(np.flatnonzero(pc.distribution(start))) == {1, 3}
    # only a value of exactly 0 or <= -1 known: no square qualifies → a uniformly random move
    t2 = _table_with({"XOB BBB BBB": -1.0})
    d = P.table_player(t2).distribution(start)
    assert np.allclose(d[d > 0], 1 / 8) and d[0] == 0
    # a negative value still beats the unknown squares under the thesis rule
    t3 = _table_with({"XBB BBB BBO": -0.9})
    assert P.table_player(t3).move(start) == 8
    assert P.table_player(t3, "corrected").distribution(start)[8] == 0.0  # unknown (0) > -0.9


def test_thesis_rule_never_takes_an_unvalued_win():
    """Fig. 6.8: the winning after-state is terminal, never updated, so 0 and skipped; a known block is played."""
    pos = T.parse_board("XXB OOB XBB")  # O to move: 5 wins, 2 blocks X's top row
    block = "XXO OOB XBB"
    t = _table_with({block: -0.4})
    assert P.table_player(t).move(pos) == 2
    assert P.table_player(t, "corrected").move(pos) == 5
    assert P.table_player(t, P.TERMINAL_REWARD).move(pos) == 5
    # unknown-eligible alone values the win at 0 like any unknown square; the block (-0.4) loses to them
    assert P.table_player(t, P.UNKNOWN_ELIGIBLE).move(pos) != 2


def test_exploration_mixes_a_uniform_move():
    t = _table_with({"XBB BOB BBB": 0.5})
    start = T.parse_board("XBB BBB BBB")
    d = P.table_player(t, epsilon=0.05).distribution(start)
    assert d[4] == pytest.approx(0.95 + 0.05 / 8) and d[1] == pytest.approx(0.05 / 8) and d.sum() == pytest.approx(1)
    assert P.table_player(t, epsilon=0.05).greedy().epsilon == 0.0


def test_player_input_checks():
    with pytest.raises(ValueError, match="rule must be"):
        P.table_player(P.empty_table(), "bogus")
    with pytest.raises(ValueError, match="shape"):
        P.table_player(np.zeros(10))
    with pytest.raises(ValueError, match="finite"):
        P.table_player(np.full(T.N_CODES, np.nan))
    with pytest.raises(ValueError, match="epsilon"):
        P.table_player(P.empty_table(), epsilon=1.5)
    with pytest.raises(ValueError, match="game is over"):
        P.random_player().move(T.parse_board("XXX OOB BBB"))
    with pytest.raises(ValueError, match="games"):
        P.match(P.random_player(), P.random_player(), 0)


# ----------------------------------------------------------------------------- the human board (App. B.2)


def test_human_board_refuses_illegal_clicks_and_plays_both_sides():
    from tdbook.widgets.tictactoe import HumanBoard

    t = _table_with({"XXO OOB XBB": -0.4})
    b = HumanBoard({"thesis O": P.table_player(t), "perfect": P.perfect_player(1)}, human="X")
    assert b.code == 0 and b.message.value == "Your move."
    assert b.click(4) and T.square(b.code, 4) == T.X and len(b.moves) == 2  # the opponent answered
    before = (b.code, list(b.moves))
    taken = b.moves[1]
    assert not b.click(taken) and "taken by O" in b.message.value and (b.code, b.moves) == before
    assert not b.click(4) and "taken by X" in b.message.value and (b.code, b.moves) == before
    # shown values: what the table player saw for the squares still empty
    assert set(b.values) <= set(range(9)) and all(T.square(b.code, s) == 0 for s in b.values if s != taken)
    while not b.over:
        b.click(next(s for s in range(9) if T.square(b.code, s) == 0))
    code = b.code
    assert not b.click(0) and "game is over" in b.message.value and b.code == code
    assert sum(b.score.values()) == 1
    b.side.value = "O"  # switching sides starts a new game with the opponent opening
    assert b.code != 0 and T.N_X[b.code] == 1 and T.N_O[b.code] == 0
    b.who.value = "perfect"
    won = b.score["you"]
    for _ in range(5):
        if b.over:
            break
        b.click(next(s for s in range(9) if T.square(b.code, s) == 0))
    assert b.over and b.score["you"] == won  # nobody beats the perfect player
    with pytest.raises(ValueError, match="move"):
        HumanBoard({"bad": object()})


def _expectimax_score(b: tuple, br: str, memo: dict) -> float:
    """P(br wins) − P(br loses) when side ``br`` best-responds to a uniformly random opponent (independent)."""
    if b in memo:
        return memo[b]
    w = _winner(b)
    if w:
        v = 0.0 if w == "draw" else (1.0 if w == br else -1.0)
    else:
        me = "X" if b.count("X") == b.count("O") else "O"
        kids = [_expectimax_score(b[:i] + (me,) + b[i + 1 :], br, memo) for i in range(9) if b[i] == "."]
        v = max(kids) if me == br else sum(kids) / len(kids)
    memo[b] = v
    return v


def test_best_response_against_random_and_perfect():
    r, p = P.random_player(), P.perfect_player()
    for side, br in (("X", "O"), ("O", "X")):
        win, draw, loss = P.best_response(r, side)
        assert win + draw + loss == pytest.approx(1.0)
        assert loss - win == pytest.approx(_expectimax_score(tuple("." * 9), br, {}), abs=1e-12)
        assert P.best_response(p, side) == pytest.approx((0.0, 1.0, 0.0))
    t = _table_with({"XXO OOB XBB": -0.4})
    # the exploiter does at least as well as the perfect player against any table
    assert P.best_response(P.table_player(t), "O")[2] >= P.exact_outcomes(p, P.table_player(t))[0]


def test_human_board_refuses_off_board_squares_and_takes_back_a_move_the_opponent_cannot_answer():
    from tdbook.widgets.tictactoe import HumanBoard

    b = HumanBoard({"perfect": P.perfect_player(1)}, human="X")
    for s in (9, 27, -1, -9, 2.0, True, "4"):
        assert not b.click(s) and "a move is a square 0..8" in b.message.value
        assert b.code == 0 and b.moves == []  # nothing placed (−1 must not wrap to square 8)

    class Cheat:  # answers with a square that is already taken, then with one off the board
        def __init__(self) -> None:
            self.answers = [0, 9]

        def move(self, code: int) -> int:
            return self.answers.pop(0)

    c = HumanBoard({"cheat": Cheat()}, human="X")
    for bad in ("already taken", "square 0..8"):
        with pytest.raises(ValueError, match=f"opponent 'cheat' answered board .*{bad}"):
            c.click(0 if bad == "already taken" else 4)
        assert c.code == 0 and c.moves == [] and not c.over  # the human's move was taken back
        assert all(cell.description == "" for cell in c.cells)


def test_exact_outcomes_refuses_codes_that_would_wrap_or_are_unreachable():
    r = P.random_player(0)
    assert P.exact_outcomes(r, r, 0) == P.exact_outcomes(r, r)
    for bad in (-1, -T.N_CODES, T.N_CODES, T.N_CODES + 5, 1.0, True, None):
        with pytest.raises(ValueError, match="start must be the code of a reachable position"):
            P.exact_outcomes(r, r, bad)
    unreachable = T.place(T.place(0, 0, T.X), 1, T.X)  # two Xs, no O
    with pytest.raises(ValueError, match="reachable"):
        P.exact_outcomes(r, r, unreachable)


def test_human_session_is_the_board_without_a_display():
    """The session logic (players layer) plays and refuses exactly as the widget board shows it."""
    from tdbook.players.tictactoe_human import HumanSession

    s = HumanSession({"perfect": P.perfect_player(1), "random": P.random_player(2)}, human="O")
    assert T.N_X[s.code] == 1 and s.message.startswith("perfect played square")  # the opponent (X) opened
    assert not s.play(9) and s.error and "square 0..8" in s.message
    s.choose(opponent="random", human="X")
    assert s.code == 0 and s.opponent_name == "random" and s.message == "Your move."
    assert s.play(4) and T.square(s.code, 4) == T.X and len(s.moves) == 2 and not s.error
    with pytest.raises(ValueError, match="no opponent 'nobody'"):
        s.choose(opponent="nobody")
    with pytest.raises(ValueError, match="human must be 'X' or 'O'"):
        s.choose(human="Z")
    assert "board " + T.board_string(s.code) in s.scoreline()
