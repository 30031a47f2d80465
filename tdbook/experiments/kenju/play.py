"""Kenju games between two players, matches and training runs (Kenju thesis §4.3, §4.7.1, §4.8.6, §4.9).

:func:`play_game` is the jitted game loop: White (side 0) moves first at (0, 0); before each move the mover's
CONFIDENCE, INTEREST and modes are updated (§4.8.2–4.8.3); every System 3 player on the board hears the
value of each move before it is played (the "before" reading of CONFIDENCE's inputs); a game ends at five or
at the cap.  Each side may also have a *watcher*, a System 3 learner that runs its own search at that side's
turns (TRYING) and learns from its questions while another player makes the move — the thesis's learning
mode (a), in which "neither White nor Black take moves or effect the course of the game" (§4.9, scheme 6).
Two copies of parameters and tables are kept and the active one swapped before each move (§4.8.6).

The teacher of every learner is a table (MAX, Fig. 4.14, in every experiment of the thesis, Figs 4.6d and
4.22d).  :func:`train` plays games until each recorded learner has taken ``moves`` moves and keeps its table
after each of them (Fig. 4.8); :func:`match` plays non-learning games and counts the results.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np
from numba import njit

from ...core.rng import make_state
from ...games.kenju import (
    BLACK_WINS,
    DRAW,
    MAX_PLACES,
    MAX_STONES,
    N_CELLS,
    ONGOING,
    WHITE_WINS,
    Board,
    n_moves,
    new_board,
    place,
    reset,
    status,
)
from ...learners.kenju_line_table import MAX, N_PATTERNS
from ...players.kenju import (
    N_PAR,
    N_QUESTION,
    N_STATE,
    N_STATS,
    P_LEARNING,
    S_ATT,
    S_CONF,
    S_DEF,
    S_INTEREST,
    TEACH_TABLE,
    Player,
    choose,
    new_game_state,
    note_move,
    search,
    update_state,
)

# trace columns (one row per move)
R_SIDE, R_CELL, R_CONF, R_INTEREST, R_DEF, R_ATT = range(6)
N_TRACE = 8


class Sides(NamedTuple):
    """The players of both sides (row ``s`` is side ``s``, White 0) as the kernels take them: line tables
    (int64[2, 32]), parameters (float64[2, N_PAR]), states (float64[2, N_STATE]) and search statistics
    (int64[2, N_STATS])."""

    tables: np.ndarray
    pars: np.ndarray
    states: np.ndarray
    stats: np.ndarray


class History(NamedTuple):
    """Which sides' learning tables are recorded (bool[2]), the tables after each of their moves
    (``hist[s, k]`` after side ``s``'s move ``k + 1``) and how many are recorded (int64[2])."""

    record: np.ndarray
    hist: np.ndarray
    hist_n: np.ndarray


class Log(NamedTuple):
    """What a batch of games leaves: each game's status and length, and the moves of the first games (-1 padded)."""

    results: np.ndarray
    lengths: np.ndarray
    moves: np.ndarray


@njit(cache=True)
def play_game(
    board: Board,
    players: Sides,
    watch: np.ndarray,
    watchers: Sides,
    teacher: np.ndarray,
    rng: np.ndarray,
    history: History,
    trace: np.ndarray,
    scratch: np.ndarray,
    mark: np.ndarray,
) -> int:
    """One game; returns its status.  Side ``s`` has a watcher in ``watchers`` when ``watch[s]``.
    ``history.record[s]`` keeps side ``s``'s learning table (the watcher's when it has one) in
    ``history.hist[s, history.hist_n[s]]`` after each of its moves, while there is room.  ``scratch``
    (int32[MAX_PLACES]) and ``mark`` (int8[N_CELLS], all zero and left so) are work space."""
    tables, pars, states, stats = players
    wtables, wpars, wstates, wstats = watchers
    record, hist, hist_n = history
    reset(board)
    question = np.zeros(N_QUESTION, dtype=np.int64)
    answers = np.zeros(1, dtype=np.int64)
    for s in range(2):
        new_game_state(pars[s], states[s])
        if watch[s]:
            new_game_state(wpars[s], wstates[s])
    while status(board) == ONGOING:
        nm = n_moves(board)
        s = nm % 2
        if watch[s]:
            update_state(board, wtables[s], wpars[s], wstates[s])
            if nm > 0 and board.meta[0] > 0:
                search(
                    board,
                    wtables[s],
                    wpars[s],
                    wstates[s, S_DEF] > 0,
                    wstates[s, S_ATT] > 0,
                    teacher,
                    TEACH_TABLE,
                    answers,
                    0,
                    rng,
                    wstats[s],
                    question,
                )
        update_state(board, tables[s], pars[s], states[s])
        cell = choose(
            board,
            tables[s],
            pars[s],
            states[s],
            teacher,
            TEACH_TABLE,
            answers,
            0,
            rng,
            stats[s],
            question,
            scratch,
            mark,
        )
        st = states[s] if not watch[s] else wstates[s]
        if nm < trace.shape[0]:
            trace[nm, R_SIDE] = s
            trace[nm, R_CELL] = cell
            trace[nm, R_CONF] = st[S_CONF]
            trace[nm, R_INTEREST] = st[S_INTEREST]
            trace[nm, R_DEF] = st[S_DEF]
            trace[nm, R_ATT] = st[S_ATT]
        for t in range(2):
            note_move(board, tables[t], pars[t], states[t], cell, t == s)
            if watch[t]:
                note_move(board, wtables[t], wpars[t], wstates[t], cell, t == s)
        place(board, cell)
        if record[s] and hist_n[s] < hist.shape[1]:
            hist[s, hist_n[s]] = wtables[s] if watch[s] else tables[s]
            hist_n[s] += 1
    return status(board)


@njit(cache=True)
def play_games(
    board: Board,
    n_games: int,
    until_moves: int,
    players: Sides,
    watch: np.ndarray,
    watchers: Sides,
    teacher: np.ndarray,
    rng: np.ndarray,
    history: History,
    log: Log,
) -> int:
    """``n_games`` games, or (``until_moves`` > 0) as many as it takes each recorded side to fill ``history.hist``
    (or ``log.results``); returns the number of games played (their statuses, lengths and first moves in ``log``)."""
    trace = np.zeros((MAX_STONES, N_TRACE), dtype=np.float64)
    scratch = np.empty(MAX_PLACES, dtype=np.int32)
    mark = np.zeros(N_CELLS, dtype=np.int8)
    record, _, hist_n = history
    results, lengths, games_moves = log
    g = 0
    while True:
        if until_moves > 0:
            done = True
            for s in range(2):
                if record[s] and hist_n[s] < until_moves:
                    done = False
            if done or g >= results.size:
                return g
        elif g >= n_games:
            return g
        st = play_game(board, players, watch, watchers, teacher, rng, history, trace, scratch, mark)
        results[g] = st
        lengths[g] = n_moves(board)
        if g < games_moves.shape[0]:
            games_moves[g, :] = -1
            games_moves[g, : n_moves(board)] = board.moves[: n_moves(board)]
        g += 1


# ----------------------------------------------------------------------------- Python wrappers


@dataclass
class Games:
    """What a batch of games gave: results (status per game), lengths, moves of the first games, search stats,
    the recorded tables after each learning move (``hist[s, k]`` after side ``s``'s move ``k + 1``)."""

    results: np.ndarray
    lengths: np.ndarray
    moves: np.ndarray
    stats: np.ndarray
    wstats: np.ndarray
    hist: np.ndarray
    hist_n: np.ndarray
    tables: np.ndarray
    wtables: np.ndarray
    states: np.ndarray = field(repr=False, default=None)

    @property
    def n(self) -> int:
        return int(self.results.size)

    def counts(self) -> dict[str, int]:
        r = self.results
        return {
            "white": int(np.sum(r == WHITE_WINS)),
            "black": int(np.sum(r == BLACK_WINS)),
            "draw": int(np.sum(r == DRAW)),
        }

    def score(self) -> int:
        """White wins − Black wins (Fig. 4.4's measure; games stopped at the cap count for neither side)."""
        c = self.counts()
        return c["white"] - c["black"]

    def history(self, side: int) -> np.ndarray:
        return self.hist[side, : int(self.hist_n[side])]


def _arrays(players: tuple[Player | None, Player | None]) -> tuple[np.ndarray, np.ndarray]:
    tables = np.zeros((2, N_PATTERNS), dtype=np.int64)
    pars = np.zeros((2, N_PAR), dtype=np.float64)
    for s, p in enumerate(players):
        if p is not None:
            tables[s] = p.table
            pars[s] = p.config.array()
    return tables, pars


_BOARDS: dict[int, Board] = {}


def board_for(cap: int) -> Board:
    b = _BOARDS.get(cap)
    if b is None:
        b = _BOARDS[cap] = new_board(cap)
    return b


def run(
    white: Player,
    black: Player,
    *,
    seed: int,
    stream: int = 0,
    games: int = 0,
    until_moves: int = 0,
    record: tuple[bool, bool] = (False, False),
    watchers: tuple[Player | None, Player | None] = (None, None),
    teacher: np.ndarray = MAX,
    cap: int = 20,
    keep_moves: int = 0,
    states: np.ndarray | None = None,
) -> Games:
    """Play ``games`` games (or until each recorded side has taken ``until_moves`` moves) of ``white`` against
    ``black``; the players' tables are copied in and the learned ones returned in ``Games.tables``.

    ``watchers`` are learners watching a side (mode (a)); ``states`` carries CONFIDENCE between calls
    (a (2, N_STATE) array, updated in place)."""
    if (games <= 0) == (until_moves <= 0):
        raise ValueError(f"give either games > 0 or until_moves > 0, got games={games}, until_moves={until_moves}")
    for s, w in enumerate(watchers):
        if w is not None and not w.config.learning:
            raise ValueError(f"watcher of side {s} ({w.name}) does not learn; a watcher is a learner")
    tables, pars = _arrays((white, black))
    wtables, wpars = _arrays(watchers)
    watch = np.array([w is not None for w in watchers], dtype=np.bool_)
    states = np.zeros((2, N_STATE), dtype=np.float64) if states is None else states
    wstates = np.zeros((2, N_STATE), dtype=np.float64)
    stats = np.zeros((2, N_STATS), dtype=np.int64)
    wstats = np.zeros((2, N_STATS), dtype=np.int64)
    rec = np.array(record, dtype=np.bool_)
    for s in range(2):
        learns = (wpars[s, P_LEARNING] if watch[s] else pars[s, P_LEARNING]) > 0
        if rec[s] and not learns:
            raise ValueError(f"side {s} does not learn; only a learner's table history can be recorded")
    h = max(until_moves, 1)
    hist = np.zeros((2, h, N_PATTERNS), dtype=np.int64)
    hist_n = np.zeros(2, dtype=np.int64)
    n_max = games if games > 0 else until_moves + 1
    results = np.zeros(n_max, dtype=np.int64)
    lengths = np.zeros(n_max, dtype=np.int64)
    moves = np.zeros((min(keep_moves, n_max), MAX_STONES), dtype=np.int32)
    rng = make_state(seed, stream)
    g = play_games(
        board_for(cap), games, until_moves, Sides(tables, pars, states, stats), watch,
        Sides(wtables, wpars, wstates, wstats), np.asarray(teacher, dtype=np.int64), rng, History(rec, hist, hist_n),
        Log(results, lengths, moves),
    )  # fmt: skip
    return Games(
        results[:g], lengths[:g], moves[: min(g, moves.shape[0])], stats, wstats, hist, hist_n, tables, wtables, states
    )


def match(white: Player, black: Player, games: int, *, seed: int, stream: int = 0, **kw) -> Games:
    """``games`` games with learning switched off on both sides (a test match, §4.7.1)."""
    return run(white.with_(learning=False), black.with_(learning=False), games=games, seed=seed, stream=stream, **kw)


def train(
    white: Player,
    black: Player,
    moves: int,
    *,
    seed: int,
    stream: int = 0,
    record: tuple[bool, bool] = (True, False),
    watchers: tuple[Player | None, Player | None] = (None, None),
    **kw,
) -> Games:
    """A training run (Fig. 4.22): games until each recorded learner has taken ``moves`` moves."""
    return run(white, black, until_moves=moves, seed=seed, stream=stream, record=record, watchers=watchers, **kw)
