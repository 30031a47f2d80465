"""Kenju's rules and line-list (Kenju thesis §2.1–2.2): the live-line bookkeeping against a brute-force recount
on over 10,000 random positions, five-or-more wins in all four directions (overlines included), White first,
the cap, coordinates relative to the first move, and illegal moves refused by name with the state unchanged."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

from tdbook.games import kenju as K
from tdbook.games.base import IllegalMove


@njit(cache=True)
def _recount(xs, ys, cs):
    """Every live window of five as sorted rows (x0, y0, dir, colour, pattern), and the vacant points on a live
    line as sorted rows (x, y, lines through it): recounted on a dense grid window by window (independent of
    the kernels' incremental counts)."""
    x0, y0 = xs.min() - 8, ys.min() - 8
    w, h = xs.max() - x0 + 9, ys.max() - y0 + 9
    grid = np.zeros((h, w), dtype=np.int8)
    for i in range(xs.size):
        grid[ys[i] - y0, xs[i] - x0] = cs[i]
    nlines = np.zeros((h, w), dtype=np.int64)
    rows = []
    for d in range(4):
        dx, dy = K.DX[d], K.DY[d]
        for r in range(h):
            for c in range(w):
                re, ce = r + 4 * dy, c + 4 * dx
                if re < 0 or re >= h or ce < 0 or ce >= w:
                    continue
                nw = nb = pat = 0
                for k in range(5):
                    v = grid[r + k * dy, c + k * dx]
                    nw += v == 1
                    nb += v == 2
                    pat |= (v != 0) << (4 - k)
                if (nw > 0) != (nb > 0):
                    rows.append((c + x0, r + y0, d, 1 if nw > 0 else 2, pat))
                    for k in range(5):
                        nlines[r + k * dy, c + k * dx] += 1
    out = np.empty((len(rows), 5), dtype=np.int64)
    for i, t in enumerate(rows):
        for j in range(5):
            out[i, j] = t[j]
    key = (out[:, 0] * 1024 + out[:, 1]) * 4 + out[:, 2]
    useful = []
    for r in range(h):
        for c in range(w):
            if grid[r, c] == 0 and nlines[r, c] > 0:
                useful.append((c + x0, r + y0, nlines[r, c]))
    u = np.empty((len(useful), 3), dtype=np.int64)
    for i, t in enumerate(useful):
        u[i, 0], u[i, 1], u[i, 2] = t
    return out[np.argsort(key)], u


def _random_games(seed: int, games: int):
    """Positions of random games: moves drawn among the cells in reach, often near the mover's own stones
    (so long lines, kills and wins occur)."""
    rng = np.random.default_rng(seed)
    b = K.new_board()
    out = np.zeros(K.MAX_PLACES, dtype=np.int32)
    mark = np.zeros(K.N_CELLS, dtype=np.int8)
    for _ in range(games):
        K.reset(b)
        while K.status(b) == K.ONGOING:
            n = K.reach_moves(b, out, mark)
            cand = out[:n]
            if K.n_moves(b) >= 2 and rng.random() < 0.7:
                own = int(b.moves[K.n_moves(b) - 2])
                dist = np.maximum(np.abs(cand % K.SIDE - own % K.SIDE), np.abs(cand // K.SIDE - own // K.SIDE))
                if np.any(dist <= 1):
                    cand = cand[dist <= 1]
            K.place(b, int(cand[rng.integers(len(cand))]))
            yield b


def _check_position(b: K.Board) -> None:
    n = int(K.n_moves(b))
    cells = b.moves[:n].astype(np.int64)
    xs, ys = cells % K.SIDE - K.HALF, cells // K.SIDE - K.HALF
    cs = b.colour[cells].astype(np.int64)
    brute, useful = _recount(xs, ys, cs)
    assert np.array_equal(K.line_array(b), brute)
    nl = int(K.n_lines(b))
    lines = b.lines[:nl]
    assert np.unique(lines).size == nl and np.array_equal(b.lpos[lines], np.arange(nl))
    buf = np.zeros(K.MAX_PLACES, dtype=np.int32)
    m = K.useful_moves(b, buf)
    u = buf[:m].astype(np.int64)
    ours = np.sort((u % K.SIDE - K.HALF) * 4096 + (u // K.SIDE - K.HALF))
    assert np.array_equal(ours, np.sort(useful[:, 0] * 4096 + useful[:, 1]))
    for x, y, cnt in useful[:10].tolist():
        assert K.n_lines_through(b, K.cell_of(x, y)) == cnt
    # a win exactly when the last mover has five (or more) in a row
    five = _run_of_last(xs, ys, cs) >= 5
    st_ = int(K.status(b))
    assert (st_ in (K.WHITE_WINS, K.BLACK_WINS)) == five
    if five:
        assert st_ == (K.WHITE_WINS if cs[-1] == K.WHITE else K.BLACK_WINS)
    elif n == 2 * K.CAP:
        assert st_ == K.DRAW


@njit(cache=True)
def _run_of_last(xs, ys, cs):
    """The longest run of the last stone's colour through it, in any direction (a plain scan of the stones)."""
    x, y, c = xs[-1], ys[-1], cs[-1]
    best = 0
    for d in range(4):
        run = 1
        for sgn in (1, -1):
            k = 1
            while True:
                found = False
                for i in range(xs.size):
                    if xs[i] == x + sgn * k * K.DX[d] and ys[i] == y + sgn * k * K.DY[d] and cs[i] == c:
                        found = True
                        break
                if not found:
                    break
                run += 1
                k += 1
        best = max(best, run)
    return best


def test_live_line_bookkeeping_matches_a_brute_force_recount_on_10000_positions():
    n = wins = 0
    for b in _random_games(seed=2024, games=300):
        _check_position(b)
        n += 1
        wins += int(K.status(b)) in (K.WHITE_WINS, K.BLACK_WINS)
    assert n >= 10_000, n
    assert wins >= 20, "the random positions include won games"


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_live_line_bookkeeping_property(seed):
    for b in _random_games(seed, games=3):
        _check_position(b)


def _play(points):
    g = K.Kenju()
    s = g.initial_state()
    for p in points:
        s = g.apply(s, p)
    return g, s


@pytest.mark.parametrize("d", range(4))
@pytest.mark.parametrize("overline", [False, True])
def test_five_or_more_win_in_every_direction(d, overline):
    """White builds a row in direction d, closing it last in the middle (an overline of six when asked);
    Black plays far off the line."""
    dx, dy = int(K.DX[d]), int(K.DY[d])
    order = [0, 1, 3, 4, 5, 2] if overline else [0, 1, 3, 4, 2]
    white = [(k * dx, k * dy) for k in order]
    # Black: two steps off the row on alternate sides (in reach, never four in a row)
    px, py = [(0, 1), (1, 0), (1, -1), (1, 1)][d]
    black = [(x + (-1) ** i * 2 * px, y + (-1) ** i * 2 * py) for i, (x, y) in enumerate(white[:-1])]
    pts = [p for pair in zip(white, black) for p in pair] + [white[-1]]
    g, s = _play(pts)
    assert g.is_terminal(s) and g.result(s) == 1.0
    b = K.board_of(s)
    assert int(K.status(b)) == K.WHITE_WINS and K.winning_line(b) >= 0


def test_black_wins_and_result_signs_and_white_moves_first():
    g = K.Kenju()
    s = g.initial_state()
    assert g.to_move(s) == 0 and g.legal_moves(s) == [(0, 0)]
    white = [(0, 0), (0, 2), (0, 4), (0, 6), (1, 4), (2, 6)]
    black = [(1, 0), (2, 0), (3, 0), (4, 0), (5, 0)]
    pts = [p for pair in zip(white, black) for p in pair]
    g, s = _play(pts)
    assert g.is_terminal(s) and g.result(s) == -1.0 and g.legal_moves(s) == []
    assert g.key(s)[1] == tuple(sorted(black))


def test_the_cap_stops_a_game_as_a_win_for_neither():
    g = K.Kenju(cap=3)
    s = g.initial_state()
    for p in [(0, 0), (1, 0), (0, 1), (1, 1), (2, 3), (-2, 2)]:
        assert not g.is_terminal(s)
        s = g.apply(s, p)
    assert g.is_terminal(s) and g.result(s) == 0.0
    with pytest.raises(ValueError, match="cap"):
        K.Kenju(cap=21)


def test_illegal_moves_are_refused_by_name_and_change_nothing():
    g, s = _play([(0, 0), (1, 1)])
    before = s
    for bad, msg in [
        ((0, 0), "occupied"),
        ((9, 9), "shares no window"),
        ("e4", "two ints"),
        ((1, 2, 3), "two ints"),
        ((True, 0), "two ints"),
    ]:
        with pytest.raises(IllegalMove, match=msg) as e:
            g.apply(s, bad)
        assert e.value.move == bad and repr(bad) in str(e.value)
        assert s == before
    with pytest.raises(IllegalMove, match="relative to the first move"):
        g.apply(g.initial_state(), (2, 2))


def test_killing_a_line_when_the_second_colour_enters():
    b = K.new_board()
    for x, y in [(0, 0), (2, 0)]:
        K.place(b, K.cell_of(x, y))
    # White's horizontal windows through (0,0) that also hold (2,0) are dead; the others live
    horiz = {(x0, y0): c for x0, y0, d, c, _ in K.line_list(b) if d == 0 and y0 == 0}
    assert horiz == {(-4, 0): K.WHITE, (-3, 0): K.WHITE, (1, 0): K.BLACK, (2, 0): K.BLACK}
    assert K.n_lines(b) == 20 + 20 - 6


def test_grid_is_large_enough_for_any_capped_game():
    assert K.RADIUS == K.REACH * (2 * K.CAP - 1) and K.HALF >= K.RADIUS + 2 * K.REACH
    # a straight chain of stones each REACH from the last reaches RADIUS at the cap and no further
    b = K.new_board()
    for i in range(2 * K.CAP):
        x = K.REACH * i
        assert K.is_legal(b, K.cell_of(x, 0 if i % 2 == 0 else 0) if i == 0 else K.cell_of(x, 0))
        K.place(b, K.cell_of(x, 0))
    assert int(K.status(b)) == K.DRAW and K.x_of(b.moves[2 * K.CAP - 1]) == K.RADIUS


def test_board_text_prints_y_upwards():
    txt = K.board_text([(0, 0), (1, 1)], margin=0)
    assert txt.splitlines()[0].strip().startswith("1") and "B" in txt.splitlines()[0]
