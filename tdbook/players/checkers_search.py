"""Look-ahead for checkers (Powell (2000) §3.2): minimax with α-β pruning, Samuel's plausibility ordering, and
Samuel's six ply rules or a plain fixed depth; iterative deepening with a node or time budget for play.

One jitted negamax kernel (:func:`search`), written with an explicit stack (numba's cached code cannot hold
recursive functions), serves every configuration:

- **Evaluation** at a leaf: :func:`tdbook.learners.checkers_polynomial.score` — the fixed piece advantage plus
  the weighted terms; with no weights it is material only.  Or (``tables``, for the ladder's equal search)
  Samuel's signature tables: the same piece advantage plus ``mul`` × the root table's C
  (:func:`tdbook.learners.checkers_signature.board_value`, the 27 terms built from the parent board as in the
  polynomial).  A side with no legal move has lost: it scores −(WIN − ply), so a quicker win and a slower
  loss are preferred.
- **Plausibility ordering** (``ordering=True``; §3.2: "the search scored each of the children nodes with the
  evaluation function and then ordered each of these nodes"): at every node that is expanded, each child is
  scored by the evaluation and the children are searched best first; a child that turns out to be a leaf
  reuses that score.  Without it, children are searched in generation order.
- **Ply rules** — ``SearchRules.samuel()``, the six rules of Powell (2000) §3.2 (Samuel 1959), a node at ply ``p``
  (moves from the root) being evaluated ("stop") or expanded:

  1. always search at least ``min_ply`` = 3 plies (expand every node at ply < 3);
  2. at ply 3 stop unless (a) the next move is a jump (the side to move must capture), (b) the last move was
     a jump, or (c) an exchange of pieces is possible (the side to move has a move forcing an exchange:
     :func:`~tdbook.games.checkers_features.exchange_offered`);
  3. at ply 4 stop unless 2a or 2c holds;
  4. at ply ≥ 5 stop unless the next move is a jump;
  5. at ply ≥ ``ahead_ply`` = 11 stop if one side is ahead by more than two kings — our reading: a piece-credit
     difference above ``ahead_credit`` = 6 (2 kings × 3; men 2, kings 3);
  6. at ply ``hard_ply`` = 20 stop regardless.

  A position without legal moves is scored as lost wherever it occurs.  Samuel's note that the score at the
  hard stop was "adjusted for the pending jump" is not in Powell (2000)'s six rules and is not applied.
- **Rote store** (optional; §3.3 rote learning, :mod:`tdbook.learners.checkers_rote`): a frontier board found
  in the store takes its stored score, shrunk by the store's discount per ply of the entry, in place of the
  evaluation; with ``rote_mode`` 2 each such reuse also refreshes the entry (the store's refresh rule).
- **Fixed depth** — ``SearchRules.fixed(d)``: expand every node at ply < d, evaluate at ply d.

Counts per search (:class:`SearchResult`): ``nodes`` (positions visited, the root included), ``evals``
(static evaluations computed — leaves, and children scored for ordering), the deepest ply reached and a
histogram of leaf plies.  The principal variation is kept (triangular table) for learning methods that
need the leaf the backed-up score came from (TD-Leaf).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
from numba import njit

from ..games.checkers_bitboard import (
    BUF_COLS,
    BUF_ROWS,
    CAP,
    FROM,
    JUMPS,
    MASK32,
    TO,
    credit,
    has_capture,
    legal_moves,
    play,
    simple_targets,
)
from ..games.checkers_features import N_PARAMS, exchange_offered
from ..learners.checkers_polynomial import N_TERMS, Polynomial, natural_params, piece_advantage, score
from ..learners.checkers_rote import T_COLS, RoteSpec, lookup, touch, use_score
from ..learners.checkers_signature import board_value

WIN = 2.0**40
INF = 2.0**50
MAX_PLY = 64
FIXED, SAMUEL = 0, 1
#: ``rules`` array layout: mode, depth (fixed), min_ply, second_ply, ahead_ply, ahead_credit, hard_ply
R_MODE, R_DEPTH, R_MIN, R_SECOND, R_AHEAD_PLY, R_AHEAD_CREDIT, R_HARD = range(7)
#: a search *spec* is two arrays (:func:`search_spec`): ``ints`` = player kind (used by the game loop of
#: :mod:`tdbook.players.checkers`), term construction, parameter mask, ordering, node limit, rote mode (0 no
#: store, 1 read it, 2 read and refresh it), the store's refresh rule, the evaluation (:data:`POLY` or
#: :data:`TABLES`), then the rules (always last); ``floats`` = the N_TERMS term weights, the piece weight, the
#: store's discount per ply and its reuse bonus, the tables' scale, the learned part's shift
I_KIND, I_CONSTRUCTION, I_NEED, I_ORDERING, I_NODE_LIMIT, I_ROTE, I_REFRESH, I_EVAL, I_RULES = range(9)
N_INTS = I_RULES + 7
F_PIECE, F_DISCOUNT, F_BONUS, F_MUL, F_SHIFT = N_TERMS, N_TERMS + 1, N_TERMS + 2, N_TERMS + 3, N_TERMS + 4
N_FLOATS = N_TERMS + 5
POLY, TABLES = 0, 1
ALL_PARAMS = (1 << N_PARAMS) - 1
#: ``stats`` array layout (``S_ROTE_HITS``: frontier boards found in the rote store)
S_NODES, S_EVALS, S_MAXPLY, S_ABORTED, S_BEST, S_PVLEN, S_ROTE_HITS = range(7)
N_STATS = 7


@dataclass(frozen=True)
class SearchRules:
    """Where the look-ahead stops (see the module docstring); build with :meth:`samuel` or :meth:`fixed`."""

    mode: str = "samuel"
    depth: int = 0
    min_ply: int = 3
    second_ply: int = 4
    ahead_ply: int = 11
    ahead_credit: int = 6
    hard_ply: int = 20

    def __post_init__(self) -> None:
        if self.mode not in ("samuel", "fixed"):
            raise ValueError(f"mode must be 'samuel' or 'fixed', got {self.mode!r}")
        if self.mode == "fixed" and not 1 <= self.depth < MAX_PLY:
            raise ValueError(f"a fixed-depth search needs 1 <= depth < {MAX_PLY}, got {self.depth!r}")
        if self.mode == "samuel" and not (
            1 <= self.min_ply <= self.second_ply and self.min_ply <= self.hard_ply < MAX_PLY and self.ahead_ply >= 1
        ):
            raise ValueError(
                f"the ply rules need 1 <= min_ply <= second_ply, min_ply <= hard_ply < {MAX_PLY}, ahead_ply >= 1; "
                f"got {self}"
            )

    @classmethod
    def samuel(cls, **kw) -> SearchRules:
        """The six ply rules of Powell (2000) §3.2 (3, 4, 11, 20; more than two kings = 6 credits)."""
        return cls("samuel", **kw)

    @classmethod
    def fixed(cls, depth: int) -> SearchRules:
        """A plain fixed-depth search."""
        return cls("fixed", depth=depth)

    @property
    def array(self) -> np.ndarray:
        return np.array(
            [
                FIXED if self.mode == "fixed" else SAMUEL,
                self.depth,
                self.min_ply,
                self.second_ply,
                self.ahead_ply,
                self.ahead_credit,
                self.hard_ply,
            ],
            dtype=np.int64,
        )


def _no_tables() -> tuple:
    """Table arrays for a search without tables (the types :meth:`Workspace.use_tables` gives)."""
    i1 = np.zeros(1, dtype=np.int64)
    tabs = (np.zeros(2, dtype=np.int64), i1, i1.copy(), np.zeros(2, dtype=np.int64), i1.copy(), np.zeros(1))
    return i1.copy(), np.zeros((1, 1)), i1.copy(), tabs


class Workspace:
    """Scratch arrays for :func:`search` (one per searching player; reused between searches), the arrays of
    the rote store a search reads (:meth:`use_store`; an empty table when there is none) and of the signature
    tables a search evaluates with (:meth:`use_tables`)."""

    def __init__(self) -> None:
        self.rote_table = np.zeros((0, T_COLS), dtype=np.int64)
        self.rote_scores = np.zeros(0, dtype=np.float64)
        self.tables = _no_tables()
        self.t_terms = np.zeros((1, N_PARAMS), dtype=np.float64)
        self.t_levels = np.zeros((1, N_PARAMS), dtype=np.int64)
        self.t_out = np.zeros(1, dtype=np.float64)
        self.pos = np.zeros((MAX_PLY + 1, 6), dtype=np.int64)  # bm, bk, wm, wk, side, last move was a jump
        self.bufs = np.zeros((MAX_PLY + 1, BUF_ROWS, BUF_COLS), dtype=np.int64)
        self.order = np.zeros((MAX_PLY + 1, BUF_ROWS), dtype=np.int64)
        self.cscore = np.zeros((MAX_PLY + 1, BUF_ROWS), dtype=np.float64)
        self.ab = np.zeros((MAX_PLY + 1, 5), dtype=np.float64)  # alpha, beta, best, n, next index
        self.params = np.zeros((MAX_PLY + 1, N_PARAMS), dtype=np.float64)
        self.tmp = np.zeros((3, max(N_PARAMS, N_TERMS)), dtype=np.float64)
        self.fbuf = np.zeros((2, BUF_ROWS, BUF_COLS), dtype=np.int64)
        self.pv = np.zeros((MAX_PLY + 1, MAX_PLY + 1, 3), dtype=np.int64)
        self.pvlen = np.zeros(MAX_PLY + 1, dtype=np.int64)
        self.hist = np.zeros(MAX_PLY + 1, dtype=np.int64)
        self.stats = np.zeros(N_STATS, dtype=np.int64)

    def use_store(self, store) -> None:
        """Read the rote store ``store`` (a :class:`~tdbook.learners.checkers_rote.RoteStore`, or None for none);
        call again after the store has grown (it then holds new arrays)."""
        if store is None:
            self.rote_table = np.zeros((0, T_COLS), dtype=np.int64)
            self.rote_scores = np.zeros(0, dtype=np.float64)
        else:
            self.rote_table, self.rote_scores = store.table, store.scores

    def use_tables(self, tables) -> None:
        """Evaluate with the signature tables ``tables`` (a
        :class:`~tdbook.learners.checkers_signature.CheckersTables`, or None for none)."""
        if tables is None:
            self.tables = _no_tables()
        else:
            st, thr, n, tabs = tables.kernel_arrays()
            tabs = tuple(np.ascontiguousarray(a, dtype=np.float64 if k == 5 else np.int64) for k, a in enumerate(tabs))
            self.tables = (
                np.ascontiguousarray(st, dtype=np.int64), np.ascontiguousarray(thr, dtype=np.float64),
                np.ascontiguousarray(n, dtype=np.int64), tabs,
            )  # fmt: skip

    @property
    def arrays(self) -> tuple[np.ndarray, ...]:
        """The arrays in the order :func:`search` unpacks them (the rote store's two, then ``stats``, last)."""
        return (
            self.pos, self.bufs, self.order, self.cscore, self.ab, self.params, self.tmp, self.fbuf, self.pv,
            self.pvlen, self.hist, (self.tables, self.t_terms, self.t_levels, self.t_out), self.rote_table,
            self.rote_scores, self.stats,
        )  # fmt: skip


def search_spec(
    poly: Polynomial,
    rules: SearchRules,
    ordering: bool = True,
    node_limit: int = 2**62,
    kind: int = 1,
    rote: RoteSpec | None = None,
    rote_mode: int = 1,
    tables_mul: float | None = None,
    shift: float = 0.0,
) -> tuple[np.ndarray, np.ndarray]:
    """The ``(ints, floats)`` arrays :func:`search` reads for a polynomial, rules, ordering and node budget;
    with ``rote`` (the store's spec) the search reads the workspace's rote store (``rote_mode`` 1) or reads
    and refreshes it (2); with ``tables_mul`` it evaluates with the workspace's signature tables
    (:meth:`Workspace.use_tables`), ``tables_mul`` score units per unit of the root table's C, and ``poly``
    gives only the piece weight.  ``shift`` (score units) is taken off every evaluation: a model fitted to move
    choices has no meaningful level, and centring its learned part on its mean over the training moves keeps the
    ply rules' mix of odd and even leaves from favouring one of them."""
    if rote_mode not in (1, 2):
        raise ValueError(f"rote_mode must be 1 (read) or 2 (read and refresh), got {rote_mode!r}")
    if tables_mul is not None and not (np.isfinite(tables_mul) and tables_mul >= 0):
        raise ValueError(f"tables_mul must be a finite number >= 0, got {tables_mul!r}")
    if not np.isfinite(shift):
        raise ValueError(f"shift must be a finite number, got {shift!r}")
    ints = np.zeros(N_INTS, dtype=np.int64)
    ints[I_KIND] = kind
    ints[I_CONSTRUCTION] = poly.construction_code
    ints[I_NEED] = poly.need
    ints[I_ORDERING] = int(ordering)
    ints[I_NODE_LIMIT] = node_limit
    ints[I_RULES:] = rules.array
    floats = np.zeros(N_FLOATS, dtype=np.float64)
    floats[:N_TERMS] = poly.vector
    floats[F_PIECE] = poly.piece_weight
    if rote is not None:
        ints[I_ROTE] = rote_mode
        ints[I_REFRESH] = rote.refresh_code
        floats[F_DISCOUNT] = rote.discount
        floats[F_BONUS] = rote.bonus
    if tables_mul is not None:
        ints[I_EVAL] = TABLES
        ints[I_CONSTRUCTION] = 0  # Samuel's construction: the terms need the parent board
        ints[I_NEED] = ALL_PARAMS
        floats[:N_TERMS] = 0.0
        floats[F_MUL] = tables_mul
    floats[F_SHIFT] = shift
    return ints, floats


@njit(cache=True)
def evaluate(bm, bk, wm, wk, side, parent_params, ints, floats, tmp, fbuf, tables) -> float:
    """The evaluation of a board (``side`` to move) for the side that has just moved, under the spec: the
    polynomial's :func:`~tdbook.learners.checkers_polynomial.score`, or the piece advantage plus ``mul`` × the
    signature tables' C (``tables`` = the workspace's table arrays), less the spec's shift."""
    if ints[I_EVAL] == POLY:
        return score(
            bm, bk, wm, wk, side, parent_params, floats[:N_TERMS], floats[F_PIECE], ints[I_CONSTRUCTION],
            ints[I_NEED], tmp[0], tmp[1], tmp[2], fbuf,
        ) - floats[F_SHIFT]  # fmt: skip
    (st, thr, n_thr, tabs), terms, levels, out = tables
    if side == 1:
        pa = piece_advantage(credit(bm, bk), credit(wm, wk), floats[F_PIECE])
    else:
        pa = piece_advantage(credit(wm, wk), credit(bm, bk), floats[F_PIECE])
    c = board_value(bm, bk, wm, wk, side, parent_params, tmp[0], terms, fbuf, st, thr, n_thr, levels, tabs, out)
    return pa + floats[F_MUL] * c - floats[F_SHIFT]


@njit(cache=True)
def _stop(pos, p, rules, fbuf) -> bool:
    """Whether the node at ply ``p`` is evaluated rather than expanded (it has legal moves)."""
    if rules[R_MODE] == FIXED:
        return p >= rules[R_DEPTH]
    if p < rules[R_MIN]:
        return False
    if p >= rules[R_HARD]:
        return True
    bm, bk, wm, wk, side = pos[p, 0], pos[p, 1], pos[p, 2], pos[p, 3], pos[p, 4]
    if p >= rules[R_AHEAD_PLY] and abs(credit(bm, bk) - credit(wm, wk)) > rules[R_AHEAD_CREDIT]:
        return True
    if side == 0:
        jump_next = has_capture(bm, bk, wm, wk, True)
    else:
        jump_next = has_capture(wm, wk, bm, bk, False)
    if jump_next:
        return False
    if p == rules[R_MIN]:
        if pos[p, 5] == 1:
            return False
        return not exchange_offered(bm, bk, wm, wk, side, fbuf)
    if p == rules[R_SECOND]:
        return not exchange_offered(bm, bk, wm, wk, side, fbuf)
    return True


def stops_at(words, side: int, ply: int, last_jump: bool, rules: SearchRules) -> bool:
    """Whether a search under ``rules`` evaluates (rather than expands) a node at ``ply`` holding the board
    ``words`` with ``side`` to move, reached by a jump when ``last_jump`` (the board has legal moves)."""
    if not 1 <= ply < MAX_PLY:
        raise ValueError(f"ply must be in 1..{MAX_PLY - 1}, got {ply!r}")
    pos = np.zeros((MAX_PLY + 1, 6), dtype=np.int64)
    pos[ply] = [*words, side, int(last_jump)]
    return bool(_stop(pos, ply, rules.array, np.zeros((2, BUF_ROWS, BUF_COLS), dtype=np.int64)))


@njit(cache=True, inline="always")
def _has_move(bm, bk, wm, wk, side) -> bool:
    empty = ~(bm | bk | wm | wk) & MASK32
    if side == 0:
        return has_capture(bm, bk, wm, wk, True) or simple_targets(bm, bk, empty, True) != 0
    return has_capture(wm, wk, bm, bk, False) or simple_targets(wm, wk, empty, False) != 0


@njit(cache=True, inline="always")
def sort_best_first(order, cscore, p, n) -> None:
    """Insertion-sort ``order[p, :n]`` by ``cscore[p, ·]``, best first; stable (ties keep generation order)."""
    for i in range(1, n):
        k = order[p, i]
        v = cscore[p, k]
        j = i - 1
        while j >= 0 and cscore[p, order[p, j]] < v:
            order[p, j + 1] = order[p, j]
            j -= 1
        order[p, j + 1] = k


@njit(cache=True)
def search(root: np.ndarray, ints: np.ndarray, floats: np.ndarray, ws: tuple) -> float:
    """α-β negamax from ``root`` (int64[6]: bm, bk, wm, wk, side, last move was a jump) under the spec
    ``(ints, floats)`` (:func:`search_spec`) with the workspace ``ws`` (:attr:`Workspace.arrays`); returns the
    root's backed-up value for the side to move.  ``stats`` gets nodes, evals, deepest ply, aborted (node
    limit reached: the value is then meaningless), the best root move's index in ``bufs[0]`` and the PV
    length; ``pv[0, :pvlen]`` holds the principal variation (from, to, captured) and ``hist`` the leaf plies."""
    pos, bufs, order, cscore, ab, params, tmp, fbuf, pv, pvlen, hist, tables, rtab, rscores, stats = ws
    rules = ints[I_RULES:]
    rote = ints[I_ROTE] if rtab.shape[0] > 0 else 0
    construction = ints[I_CONSTRUCTION]
    need = ints[I_NEED]
    ordering = ints[I_ORDERING] == 1
    node_limit = ints[I_NODE_LIMIT]
    stats[:] = 0
    hist[:] = 0
    stats[S_BEST] = -1
    for c in range(6):
        pos[0, c] = root[c]
    ab[0, 0] = -INF
    ab[0, 1] = INF
    scored = need != 0
    samuel = construction == 0
    p = 0
    enter = True
    ret = 0.0
    while True:
        if enter:
            stats[S_NODES] += 1
            if stats[S_NODES] > node_limit:
                stats[S_ABORTED] = 1
                return 0.0
            if p > stats[S_MAXPLY]:
                stats[S_MAXPLY] = p
            bm, bk, wm, wk, side = pos[p, 0], pos[p, 1], pos[p, 2], pos[p, 3], pos[p, 4]
            leaf = False
            if not _has_move(bm, bk, wm, wk, side):
                ret = -(WIN - p)
                leaf = True
            elif p > 0 and (p >= MAX_PLY - 1 or _stop(pos, p, rules, fbuf)):
                hit = lookup(rtab, bm, bk, wm, wk, side) if rote > 0 else -1
                if hit >= 0:  # a stored board: its backed-up score, discounted by its ply
                    ret = use_score(rtab, rscores, hit, floats[F_DISCOUNT])
                    stats[S_ROTE_HITS] += 1
                    if rote == 2:
                        touch(rtab, rscores, hit, ints[I_REFRESH], floats[F_BONUS])
                elif ordering:  # scored when the parent ordered its children
                    ret = -cscore[p - 1, order[p - 1, int(ab[p - 1, 4]) - 1]]
                else:
                    ret = -evaluate(bm, bk, wm, wk, side, params[p - 1], ints, floats, tmp, fbuf, tables)
                    stats[S_EVALS] += 1
                leaf = True
            if leaf:
                hist[p] += 1
                pvlen[p] = p
                p -= 1
                enter = False
                if p < 0:
                    return ret
                continue
            # expand
            n = legal_moves(bm, bk, wm, wk, side, bufs[p])
            if scored and samuel:
                natural_params(bm, bk, wm, wk, side, params[p], fbuf, need)
            for i in range(n):
                order[p, i] = i
            if ordering:
                mv = bufs[p]
                for i in range(n):
                    c0, c1, c2, c3 = play(bm, bk, wm, wk, side, mv[i])
                    cscore[p, i] = evaluate(c0, c1, c2, c3, 1 - side, params[p], ints, floats, tmp, fbuf, tables)
                stats[S_EVALS] += n
                sort_best_first(order, cscore, p, n)
            ab[p, 2] = -INF
            ab[p, 3] = n
            ab[p, 4] = 0
        else:
            val = -ret
            if val > ab[p, 2]:
                ab[p, 2] = val
                i = order[p, int(ab[p, 4]) - 1]
                mv = bufs[p]
                pv[p, p, 0] = mv[i, FROM]
                pv[p, p, 1] = mv[i, TO]
                pv[p, p, 2] = mv[i, CAP]
                for q in range(p + 1, pvlen[p + 1]):
                    pv[p, q, 0] = pv[p + 1, q, 0]
                    pv[p, q, 1] = pv[p + 1, q, 1]
                    pv[p, q, 2] = pv[p + 1, q, 2]
                pvlen[p] = max(pvlen[p + 1], p + 1)
                if p == 0:
                    stats[S_BEST] = i
            if val > ab[p, 0]:
                ab[p, 0] = val
            if ab[p, 0] >= ab[p, 1]:  # cut-off
                ret = ab[p, 2]
                p -= 1
                if p < 0:
                    break
                continue
        # next child
        k = int(ab[p, 4])
        if k < ab[p, 3]:
            ab[p, 4] = k + 1
            i = order[p, k]
            mv = bufs[p]
            c0, c1, c2, c3 = play(pos[p, 0], pos[p, 1], pos[p, 2], pos[p, 3], pos[p, 4], mv[i])
            q = p + 1
            pos[q, 0], pos[q, 1], pos[q, 2], pos[q, 3] = c0, c1, c2, c3
            pos[q, 4] = 1 - pos[p, 4]
            pos[q, 5] = 1 if mv[i, JUMPS] > 0 else 0
            ab[q, 0] = -ab[p, 1]
            ab[q, 1] = -ab[p, 0]
            p = q
            enter = True
        else:
            ret = ab[p, 2]
            p -= 1
            enter = False
            if p < 0:
                break
    stats[S_PVLEN] = pvlen[0]
    return ret


@njit(cache=True)
def pv_boards(root: np.ndarray, ws: tuple, out: np.ndarray) -> int:
    """Replay the principal variation of the last :func:`search` with workspace ``ws`` from ``root``:
    ``out[q]`` (int64[≥ pvlen + 1, 5]) = (bm, bk, wm, wk, side) after ``q`` plies; returns the PV length."""
    pv = ws[8]
    n = ws[-1][S_PVLEN]
    for c in range(5):
        out[0, c] = root[c]
    for q in range(n):
        b0, b1, w0, w1 = play(out[q, 0], out[q, 1], out[q, 2], out[q, 3], out[q, 4], pv[0, q])
        out[q + 1, 0], out[q + 1, 1], out[q + 1, 2], out[q + 1, 3] = b0, b1, w0, w1
        out[q + 1, 4] = 1 - out[q, 4]
    return n


# ----------------------------------------------------------------------------- Python front end


@dataclass(frozen=True)
class SearchResult:
    """One search: the best root move's index (in :func:`~tdbook.games.checkers_bitboard.legal_moves` order,
    −1 when the root has no move), its backed-up value for the side to move, the counts, the principal
    variation (squares 1–32: ``(from, to)``) and the leaf-ply histogram."""

    best: int
    value: float
    nodes: int
    evals: int
    max_ply: int
    depth: int
    pv: tuple[tuple[int, int], ...]
    leaf_plies: np.ndarray
    aborted: bool = False
    rote_hits: int = 0


class Searcher:
    """A configured search: a :class:`~tdbook.learners.checkers_polynomial.Polynomial`, :class:`SearchRules`
    and the plausibility ordering switch.  :meth:`__call__` searches one position; :meth:`iterate` deepens a
    fixed-depth search until a node or time budget runs out.  ``store``: a rote store
    (:class:`~tdbook.learners.checkers_rote.RoteStore`) read at the frontier (``rote_mode`` 1) or read and
    refreshed (2).  ``tables`` (with ``tables_mul``): evaluate with signature tables; ``shift``: taken off every
    evaluation (:func:`search_spec`)."""

    def __init__(
        self,
        poly: Polynomial | None = None,
        rules: SearchRules | None = None,
        ordering: bool = True,
        store=None,
        rote_mode: int = 1,
        tables=None,
        tables_mul: float = 0.0,
        shift: float = 0.0,
    ):
        self.poly = poly if poly is not None else Polynomial()
        self.rules = rules if rules is not None else SearchRules.samuel()
        self.ordering = bool(ordering)
        self.store = store
        self.rote_mode = rote_mode
        self.tables_mul = float(tables_mul) if tables is not None else None
        self.shift = float(shift)
        self.ws = Workspace()
        self.ws.use_tables(tables)

    def __call__(
        self, words, side: int, last_jump: bool = False, node_limit: int = 2**62, rules: SearchRules | None = None
    ) -> SearchResult:
        """Search the position ``words`` = (bm, bk, wm, wk) with ``side`` to move."""
        r = rules if rules is not None else self.rules
        root = np.array([*words, side, int(last_jump)], dtype=np.int64)
        w = self.ws
        w.use_store(self.store)
        rote = self.store.spec if self.store is not None else None
        ints, floats = search_spec(
            self.poly,
            r,
            self.ordering,
            node_limit,
            rote=rote,
            rote_mode=self.rote_mode,
            tables_mul=self.tables_mul,
            shift=self.shift,
        )
        v = search(root, ints, floats, w.arrays)
        st = w.stats
        pv = tuple((int(w.pv[0, q, 0]) + 1, int(w.pv[0, q, 1]) + 1) for q in range(int(st[S_PVLEN])))
        return SearchResult(
            int(st[S_BEST]),
            float(v),
            int(st[S_NODES]),
            int(st[S_EVALS]),
            int(st[S_MAXPLY]),
            r.depth if r.mode == "fixed" else r.min_ply,
            pv,
            w.hist.copy(),
            bool(st[S_ABORTED]),
            int(st[S_ROTE_HITS]),
        )

    def iterate(
        self,
        words,
        side: int,
        max_nodes: int | None = None,
        seconds: float | None = None,
        max_depth: int = 40,
        last_jump: bool = False,
    ) -> SearchResult:
        """Iterative deepening (fixed depth 1, 2, …) until ``max_nodes`` nodes in all or ``seconds`` of time
        would be exceeded: the result of the deepest completed iteration (depth 1 always completes)."""
        if max_nodes is None and seconds is None:
            raise ValueError("iterate needs a budget: max_nodes and/or seconds")
        t0 = time.perf_counter()
        used = 0
        best = None
        for d in range(1, max_depth + 1):
            left = 2**62 if max_nodes is None else max_nodes - used
            if best is not None and left <= 0:
                break
            if seconds is not None and best is not None:
                elapsed = time.perf_counter() - t0
                rate = used / max(elapsed, 1e-9)
                left = min(left, int((seconds - elapsed) * rate))
                if left <= 0:
                    break
            r = self(words, side, last_jump, node_limit=left if best is not None else 2**62, rules=SearchRules.fixed(d))
            used += r.nodes
            if r.aborted:
                break
            best = r
            if abs(r.value) > WIN - MAX_PLY:  # a forced result is found
                break
        return best
