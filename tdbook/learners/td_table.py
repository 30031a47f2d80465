"""TD(λ) after-state tables for tic-tac-toe, as App. B.1 ``main.cc`` and B.7 ``TDlambdaPolicy::learn`` run them
(seed 004 §6.1, Code 4.3).

Each TD player owns a table ``V`` (float64[N_CODES], all ``kInitialize`` = 0) keyed by its own
*after-states* (the board right after its move) and, per game, the list of its after-states
``myMoves`` with one eligibility trace each (cleared by ``reset()`` at every game start).  The game
loop is ``main.cc``'s: the side to move plays (:func:`tdbook.players.tictactoe.choose`), then its
policy ``learn``s with ``game_over`` = the game just ended; when the game is over, the *other* side
gets one more ``learn(board, true)``.  ``learn`` is, exactly as listed::

    if game_over: next := final board; reward := +1 win, −1 loss, draw reward otherwise (else 0)
    if learning and current and next exist:
        δ := reward + γ·V[next] − V[current]
        E[current] += 1
        for s in myMoves: V[s] += α·δ·E[s];  E[s] := γλ·E[s]
    current := next

so the first move of a game teaches nothing, the after-state just played has trace 0 when it is
updated, and a terminal after-state is never changed (it stays 0 in the table).  The thesis ran
1.5 M games as 3 × 500,000-game program runs (§6.2), saving the table with ``ostream``'s default 6
significant digits and non-zero entries only, reloading it and re-seeding ``rand()`` — so the
printed win/draw/loss counters restart per chunk.  :func:`train` does the same (``save_digits=6``;
``None`` keeps full precision) with a fresh random stream per chunk.

"States stored" = the number of non-zero table entries (what ``save()`` writes): :func:`states_stored`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from numba import njit
from tqdm.auto import tqdm

from ..core.rng import make_state
from ..games.tictactoe import DRAW, ONGOING, POW3, STATUS, X_WINS, O, X
from ..players.tictactoe import KIND_TABLE, Player, check_table, choose


@njit(cache=True)
def learn(
    V: np.ndarray,
    moves: np.ndarray,
    E: np.ndarray,
    n: int,
    current: int,
    nxt: int,
    reward: float,
    alpha: float,
    lam: float,
    gamma: float,
) -> None:
    """App. B.7 ``learn`` for one side: ``moves[:n]`` are its after-states this game, ``E[:n]`` their traces."""
    if current < 0 or nxt < 0:
        return
    delta = reward + gamma * V[nxt] - V[current]
    for i in range(n):
        if moves[i] == current:
            E[i] += 1.0
            break
    for i in range(n):
        V[moves[i]] += alpha * delta * E[i]
        E[i] = gamma * lam * E[i]


@njit(cache=True)
def play_and_learn(
    n_games: int,
    kinds: np.ndarray,
    rules: np.ndarray,
    eps: np.ndarray,
    draws: np.ndarray,
    tables: np.ndarray,
    learning: np.ndarray,
    alpha: float,
    lam: float,
    gamma: float,
    st: np.ndarray,
    counts: np.ndarray,
    log: np.ndarray,
    log_every: int,
    log_pos: int,
) -> int:
    """Play ``n_games`` App. B.1 games (side 0 = X, side 1 = O); sides with ``learning[i]`` update
    ``tables[i]`` by :func:`learn`.  ``counts`` (X wins, O wins, draws) accumulates; every ``log_every``
    games (counted by ``counts``' total) a copy goes to ``log[log_pos]``.  Returns the new ``log_pos``."""
    moves = np.zeros((2, 5), dtype=np.int64)
    E = np.zeros((2, 5))
    nm = np.zeros(2, dtype=np.int64)
    cur = np.zeros(2, dtype=np.int64)
    for _ in range(n_games):
        for i in range(2):  # reset(): traces, move list and history
            nm[i] = 0
            cur[i] = -1
        code = 0
        side = 0
        while True:
            s = choose(kinds[side], tables[side], rules[side], eps[side], draws[side], code, st)
            code = code + (X if side == 0 else O) * POW3[s]
            r = STATUS[code]
            if kinds[side] == KIND_TABLE:
                moves[side, nm[side]] = code
                E[side, nm[side]] = 0.0
                nm[side] += 1
                if learning[side]:
                    reward = 0.0
                    if r == DRAW:
                        reward = draws[side]
                    elif r != ONGOING:
                        reward = 1.0
                    learn(tables[side], moves[side], E[side], nm[side], cur[side], code, reward, alpha, lam, gamma)
                cur[side] = code
            if r != ONGOING:
                break
            side = 1 - side
        other = 1 - side  # the side that did not make the last move learns the outcome too
        if kinds[other] == KIND_TABLE and learning[other]:
            reward = draws[other] if r == DRAW else -1.0
            learn(tables[other], moves[other], E[other], nm[other], cur[other], code, reward, alpha, lam, gamma)
        if r == X_WINS:
            counts[0] += 1
        elif r == DRAW:
            counts[2] += 1
        else:
            counts[1] += 1
        if log_every > 0 and (counts[0] + counts[1] + counts[2]) % log_every == 0 and log_pos < log.shape[0]:
            for k in range(3):
                log[log_pos, k] = counts[k]
            log_pos += 1
    return log_pos


def states_stored(table: np.ndarray) -> int:
    """App. B.7 ``save()``: the number of entries with a value other than ``kInitialize`` (0)."""
    return int(np.count_nonzero(check_table(table)))


def round_significant(table: np.ndarray, digits: int = 6) -> np.ndarray:
    """The table as written by ``out << value`` (``%.{digits}g``) and read back — App. B.7 ``save``/load."""
    t = check_table(table)
    nz = np.flatnonzero(t)
    out = np.zeros_like(t)
    out[nz] = [float(f"{v:.{digits}g}") for v in t[nz]]
    return out


@dataclass
class TrainResult:
    """What :func:`train` returns (side 0 = X, side 1 = O)."""

    tables: np.ndarray  # (2, N_CODES) after the last chunk
    log: np.ndarray  # (chunks, logs per chunk, 3) cumulative X wins, O wins, draws within each chunk
    log_every: int
    chunk: int
    learning: tuple[bool, bool]
    states: list[tuple[int, int]] = field(default_factory=list)  # non-zero entries per side after each chunk
    params: dict = field(default_factory=dict)

    @property
    def chunks(self) -> int:
        return self.log.shape[0]

    @property
    def games(self) -> int:
        return self.chunks * self.chunk

    def games_axis(self) -> np.ndarray:
        """Game number (1-based, over all chunks) of every logged point, shape (chunks, logs)."""
        k = np.arange(1, self.log.shape[1] + 1) * self.log_every
        return np.arange(self.chunks)[:, None] * self.chunk + k[None, :]

    def cumulative_percent(self) -> np.ndarray:
        """(chunks, logs, 3) % of X wins, O wins, draws since the chunk began — what ``main.cc`` printed."""
        tot = self.log.sum(axis=2, keepdims=True)
        return 100.0 * self.log / np.maximum(tot, 1)

    def window_percent(self) -> np.ndarray:
        """(chunks, logs, 3) % of X wins, O wins, draws within each ``log_every``-game window."""
        d = np.diff(self.log, axis=1, prepend=0)
        return 100.0 * d / self.log_every

    def final_percent(self, side: int) -> tuple[float, float, float]:
        """(win, draw, loss) % of ``side`` over the last chunk (the thesis's "after 1.5 M games" numbers)."""
        x, o, d = self.cumulative_percent()[-1, -1]
        return (x, d, o) if side == 0 else (o, d, x)

    def crossover(self, side: int, chunk: int = 0) -> int | None:
        """First game of ``chunk`` from which ``side``'s cumulative wins stay above the opponent's to the
        chunk's end ("finally surpassed the random player", §6.2); None if never."""
        lg = self.log[chunk]
        ahead = lg[:, side] > lg[:, 1 - side]
        if not ahead[-1]:
            return None
        behind = np.flatnonzero(~ahead)
        first = 0 if behind.size == 0 else behind[-1] + 1
        return int((first + 1) * self.log_every)


def _check_positive_int(name: str, v: object) -> int:
    if not isinstance(v, (int, np.integer)) or isinstance(v, bool) or v < 1:
        raise ValueError(f"{name} must be a positive int, got {v!r}")
    return int(v)


def check_params(alpha: float, lam: float, gamma: float) -> tuple[float, float, float]:
    """α in (0, 1], λ in [0, 1], γ in (0, 1] as floats, else ValueError naming the parameter."""
    for name, v, lo, lo_open in (("alpha", alpha, 0.0, True), ("lam", lam, 0.0, False), ("gamma", gamma, 0.0, True)):
        if (
            isinstance(v, bool)
            or not isinstance(v, (int, float, np.integer, np.floating))
            or not np.isfinite(v)
            or v > 1.0
            or v < lo
            or (lo_open and v == lo)
        ):
            rng_txt = "(0, 1]" if lo_open else "[0, 1]"
            raise ValueError(f"{name} must be a number in {rng_txt}, got {v!r}")
    return float(alpha), float(lam), float(gamma)


def train(
    x: Player,
    o: Player,
    learning: Sequence[bool],
    games: int,
    chunk: int = 500_000,
    alpha: float = 0.05,
    lam: float = 0.5,
    gamma: float = 1.0,
    seed: int = 0,
    log_every: int = 1000,
    save_digits: int | None = 6,
    progress: bool = True,
    desc: str = "",
) -> TrainResult:
    """App. B.1 training: ``games`` games of ``x`` against ``o`` in chunks of ``chunk`` (counters reset,
    fresh random stream ``seed``/chunk-index, tables rounded to ``save_digits`` significant digits between
    chunks as the thesis's save/reload did).  Sides with ``learning[i]`` learn with (α, λ, γ); their tables
    are copied, never changed in place.  Exploration is the players' ``epsilon`` (the thesis: 1/20 while
    learning, 0 otherwise)."""
    games = _check_positive_int("games", games)
    chunk = _check_positive_int("chunk", min(chunk, games) if isinstance(chunk, (int, np.integer)) else chunk)
    log_every = _check_positive_int("log_every", log_every)
    if games % chunk or chunk % log_every:
        raise ValueError(f"games ({games}) must be a multiple of chunk ({chunk}), and chunk of log_every ({log_every})")
    if save_digits is not None:
        _check_positive_int("save_digits", save_digits)
    alpha, lam, gamma = check_params(alpha, lam, gamma)
    learn_ = np.array([bool(v) for v in learning], dtype=np.bool_)
    if learn_.shape != (2,):
        raise ValueError(f"learning needs one flag per side (X, O), got {learning!r}")
    for i, p in enumerate((x, o)):
        if learn_[i] and p.kind != KIND_TABLE:
            raise ValueError(f"only a table player can learn; side {'XO'[i]} is {p.name}")
    kinds = np.array([x.kind, o.kind], dtype=np.int64)
    rules = np.array([x.rule, o.rule], dtype=np.int64)
    eps = np.array([x.epsilon, o.epsilon])
    draws = np.array([x.draw_value, o.draw_value])
    tables = np.stack([x.table, o.table]).copy()
    n_chunks = games // chunk
    logs = np.zeros((n_chunks, chunk // log_every, 3), dtype=np.int64)
    states = []
    block = max(log_every, (100_000 // log_every) * log_every)
    with tqdm(total=games, desc=desc or "TD(λ) training", unit="game", disable=not progress, leave=False) as bar:
        for c in range(n_chunks):
            st = make_state(seed, c)
            counts = np.zeros(3, dtype=np.int64)
            pos = 0
            done = 0
            while done < chunk:
                n = min(block, chunk - done)
                pos = play_and_learn(
                    n, kinds, rules, eps, draws, tables, learn_, alpha, lam, gamma, st, counts, logs[c], log_every, pos
                )
                done += n
                bar.update(n)
            if save_digits is not None:
                for i in range(2):
                    if learn_[i]:
                        tables[i] = round_significant(tables[i], save_digits)
            states.append((states_stored(tables[0]), states_stored(tables[1])))
    return TrainResult(
        tables,
        logs,
        log_every,
        chunk,
        (bool(learn_[0]), bool(learn_[1])),
        states,
        dict(alpha=alpha, lam=lam, gamma=gamma, seed=seed, games=games, save_digits=save_digits, x=x.name, o=o.name),
    )
