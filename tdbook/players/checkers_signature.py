"""Equal-search players for notebook 01: one α-β kernel whose leaf evaluation is either a linear polynomial
over the 27 terms or Samuel's signature tables (Samuel (1973 note): "the figure of merit of the board" is the
final table's output), so that a match between them differs in the evaluation alone.

Why a kernel of its own: :func:`tdbook.players.checkers_search.search` evaluates leaves with the scoring
polynomial only (its weights travel in one float array); the tables need their count arrays at every leaf.

**Evaluation** of a board, credited to the side that has just moved: Samuel's fixed piece advantage in men
(:func:`~tdbook.learners.checkers_polynomial.piece_advantage` with one credit = ½ man) plus ``mul`` × (the learned
part − ``shift``) — the learned part is ``w · terms`` (``kind`` :data:`POLY`) or the root table's C (``kind``
:data:`TABLES`), the terms built by Samuel's construction from the parent board.  ``mul`` and ``shift`` put the
learned parts on the same footing (the experiments set ``shift`` to the learned part's mean over the training
moves and ``mul`` to a fixed number of men per standard deviation of it).  The shift matters: negamax credits a
leaf to the side that has just moved, so a learned part that is not centred — the note's C of an average move is
about −0.7, the share of master moves being an eighth — would add a fixed bonus or penalty that flips sign with
the parity of the line's length, which the capture extension varies.

**Search**: negamax with α-β to ``depth`` plies, then on while the side to move must capture (up to
``max_ply``), children ordered best first by their evaluation (plausibility ordering; a leaf reuses that
score); a side without a move has lost (−(WIN − ply)).  Ties go to the first move in that order, then in
generation order — deterministic.  :func:`play_game` plays a whole game between two such players in one
kernel call, under the end-of-game and draw rules of the collection's game loop
(:func:`tdbook.players.checkers.game_end`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from ..games.checkers_bitboard import BUF_COLS, BUF_ROWS, credit, has_capture, legal_moves, play
from ..games.checkers_features import N_PARAMS
from ..learners.checkers_polynomial import natural_params, piece_advantage
from ..learners.checkers_signature import board_value
from .checkers import advance, game_end
from .checkers_search import sort_best_first

POLY, TABLES = 0, 1
WIN = 1.0e6
INF = 1.0e9
MAX_PLY = 40


class Player(NamedTuple):
    """A searching player as :func:`search` takes it after the depth (``*player``) and :func:`play_game` takes
    each colour: evaluation kind (:data:`TABLES` or :data:`POLY`), the polynomial's weights ``w``, ``mul`` men
    per unit of the learned part above ``shift``, and the tables' kernel arrays (slot terms, thresholds, their
    counts, the tables)."""

    kind: int
    w: np.ndarray
    mul: float
    shift: float
    slot_term: np.ndarray
    thr: np.ndarray
    n_thr: np.ndarray
    tabs: tuple


class Workspace:
    """Scratch arrays of :func:`search` (reused between searches)."""

    def __init__(self) -> None:
        P = MAX_PLY + 1
        self.pos = np.zeros((P, 5), dtype=np.int64)
        self.bufs = np.zeros((P, BUF_ROWS, BUF_COLS), dtype=np.int64)
        self.order = np.zeros((P, BUF_ROWS), dtype=np.int64)
        self.cscore = np.zeros((P, BUF_ROWS), dtype=np.float64)
        self.ab = np.zeros((P, 5), dtype=np.float64)  # alpha, beta, best, n, next
        self.params = np.zeros((P, N_PARAMS), dtype=np.float64)
        self.tmp = np.zeros(N_PARAMS, dtype=np.float64)
        self.terms = np.zeros((1, N_PARAMS), dtype=np.float64)
        self.levels = np.zeros((1, N_PARAMS), dtype=np.int64)
        self.cval = np.zeros(1, dtype=np.float64)
        self.fbuf = np.zeros((2, BUF_ROWS, BUF_COLS), dtype=np.int64)
        self.stats = np.zeros(2, dtype=np.int64)  # nodes, best root index

    @property
    def arrays(self) -> tuple:
        return (self.pos, self.bufs, self.order, self.cscore, self.ab, self.params, self.tmp, self.terms, self.levels,
                self.cval, self.fbuf, self.stats)  # fmt: skip


@njit(cache=True)
def evaluate(bm, bk, wm, wk, side, parent, kind, w, mul, shift, slot_term, thr, n_thr, tabs, ws) -> float:
    """The board's value for the side that has just moved (``1 − side``), in men (see the module docstring)."""
    _, _, _, _, _, _, tmp, terms, levels, cval, fbuf, _ = ws
    if side == 1:
        pa = piece_advantage(credit(bm, bk), credit(wm, wk), 1.0) / 2.0
    else:
        pa = piece_advantage(credit(wm, wk), credit(bm, bk), 1.0) / 2.0
    if kind == POLY:
        natural_params(bm, bk, wm, wk, side, tmp, fbuf, (1 << N_PARAMS) - 1)
        s = 0.0
        for k in range(N_PARAMS):
            s += w[k] * (tmp[k] - parent[k])
        return pa + mul * (s - shift)
    c = board_value(bm, bk, wm, wk, side, parent, tmp, terms, fbuf, slot_term, thr, n_thr, levels, tabs, cval)
    return pa + mul * (c - shift)


@njit(cache=True)
def search(root, depth, max_ply, kind, w, mul, shift, slot_term, thr, n_thr, tabs, ws) -> float:
    """α-β negamax from ``root`` (int64[5]: bm, bk, wm, wk, side); returns the root's value for the side to
    move; ``stats`` = (nodes, index of the best root move in ``legal_moves`` order, −1 without a move)."""
    pos, bufs, order, cscore, ab, params, _, _, _, _, fbuf, stats = ws
    stats[0] = 0
    stats[1] = -1
    for c in range(5):
        pos[0, c] = root[c]
    ab[0, 0] = -INF
    ab[0, 1] = INF
    p = 0
    enter = True
    ret = 0.0
    while True:
        if enter:
            stats[0] += 1
            bm, bk, wm, wk, side = pos[p, 0], pos[p, 1], pos[p, 2], pos[p, 3], pos[p, 4]
            n = legal_moves(bm, bk, wm, wk, side, bufs[p])
            leaf = False
            if n == 0:
                ret = -(WIN - p)
                leaf = True
            elif p > 0 and (p >= max_ply or (p >= depth and not has_capture_side(bm, bk, wm, wk, side))):
                ret = -cscore[p - 1, order[p - 1, int(ab[p - 1, 4]) - 1]]
                leaf = True
            if leaf:
                p -= 1
                enter = False
                if p < 0:
                    return ret
                continue
            natural_params(bm, bk, wm, wk, side, params[p], fbuf, (1 << N_PARAMS) - 1)
            mv = bufs[p]
            for i in range(n):
                c0, c1, c2, c3 = play(bm, bk, wm, wk, side, mv[i])
                cscore[p, i] = evaluate(c0, c1, c2, c3, 1 - side, params[p], kind, w, mul, shift, slot_term, thr,
                                        n_thr, tabs, ws)  # fmt: skip
                order[p, i] = i
            sort_best_first(order, cscore, p, n)
            ab[p, 2] = -INF
            ab[p, 3] = n
            ab[p, 4] = 0
        else:
            val = -ret
            if val > ab[p, 2]:
                ab[p, 2] = val
                if p == 0:
                    stats[1] = order[0, int(ab[0, 4]) - 1]
            if val > ab[p, 0]:
                ab[p, 0] = val
            if ab[p, 0] >= ab[p, 1]:
                ret = ab[p, 2]
                p -= 1
                if p < 0:
                    return ret
                continue
        k = int(ab[p, 4])
        if k < ab[p, 3]:
            ab[p, 4] = k + 1
            i = order[p, k]
            c0, c1, c2, c3 = play(pos[p, 0], pos[p, 1], pos[p, 2], pos[p, 3], pos[p, 4], bufs[p][i])
            q = p + 1
            pos[q, 0], pos[q, 1], pos[q, 2], pos[q, 3] = c0, c1, c2, c3
            pos[q, 4] = 1 - pos[p, 4]
            ab[q, 0] = -ab[p, 1]
            ab[q, 1] = -ab[p, 0]
            p = q
            enter = True
        else:
            ret = ab[p, 2]
            p -= 1
            if p < 0:
                return ret
            enter = False


@njit(cache=True, inline="always")
def has_capture_side(bm, bk, wm, wk, side) -> bool:
    """Whether the side to move has a capture."""
    if side == 0:
        return has_capture(bm, bk, wm, wk, True)
    return has_capture(wm, wk, bm, bk, False)


# ----------------------------------------------------------------------------- a whole game in one kernel call


@njit(cache=True)
def play_game(start, depth, quiet_limit, move_limit, adjudicate, ws, black, white):
    """One game from ``start`` (int64[7]: bm, bk, wm, wk, side, quiet, ply) between ``black`` (colour 0) and
    ``white`` (colour 1), each a :class:`Player` (what :func:`search` takes after the depth), both
    searching ``depth`` plies; the end of play and the draw rules of :func:`tdbook.players.checkers.game_end`.
    Returns (result for Black, plies played, nodes searched)."""
    buf = np.empty((BUF_ROWS, BUF_COLS), dtype=np.int64)
    root = np.zeros(5, dtype=np.int64)
    stats = ws[-1]
    bm, bk, wm, wk, side, quiet, ply = start[0], start[1], start[2], start[3], start[4], start[5], start[6]
    k = 0
    nodes = 0
    while True:
        n, over, res = game_end(bm, bk, wm, wk, side, quiet, ply, quiet_limit, move_limit, adjudicate, buf)
        if over:
            return res, k, nodes
        root[0], root[1], root[2], root[3], root[4] = bm, bk, wm, wk, side
        if side == 0:
            b = black  # two calls, not one on either player: the two may be of different numba types
            search(root, depth, MAX_PLY - 1, b.kind, b.w, b.mul, b.shift, b.slot_term, b.thr, b.n_thr, b.tabs, ws)
        else:
            w = white
            search(root, depth, MAX_PLY - 1, w.kind, w.w, w.mul, w.shift, w.slot_term, w.thr, w.n_thr, w.tabs, ws)
        nodes += stats[0]
        bm, bk, wm, wk, side, quiet, ply, _ = advance(bm, bk, wm, wk, side, quiet, ply, buf[stats[1]])
        k += 1
