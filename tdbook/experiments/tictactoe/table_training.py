"""App. B.1 ``main.cc`` as a protocol: two tic-tac-toe policies play game after game, and the TD(λ) table
sides learn (Powell (2000) §6.1–6.2, App. B.1, B.7).

The game loop is ``main.cc``'s: the side to move plays (:func:`tdbook.players.tictactoe.choose`), then
its policy ``learn``s (:func:`tdbook.learners.tictactoe_table.learn`) with ``game_over`` = the game just
ended; when the game is over, the *other* side gets one more ``learn(board, true)``.  The thesis ran
1.5 M games as 3 × 500,000-game program runs (§6.2), saving the table with ``ostream``'s default 6
significant digits and non-zero entries only, reloading it and re-seeding ``rand()`` — so the printed
win/draw/loss counters restart per chunk.  :func:`train` does the same (``save_digits=6``; ``None``
keeps full precision) with a fresh random stream per chunk.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from numba import njit
from tqdm.auto import tqdm

from ...core.rng import make_state
from ...games.tictactoe import DRAW, ONGOING, POW3, STATUS, X_WINS, O, X
from ...learners.tictactoe_table import check_params, learn, round_significant, states_stored
from ...players.tictactoe import KIND_TABLE, Player, choose


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


@dataclass(frozen=True)
class Training:
    """How App. B.1 trains: ``games`` games in program runs of ``chunk`` games (counters restart, a fresh
    random stream ``seed``/chunk-index, tables saved to ``save_digits`` significant digits and reloaded;
    ``None`` keeps full precision), learning with (α, λ, γ), counters logged every ``log_every`` games.
    The thesis: 1.5 M games as 3 × 500,000, α = 0.05, λ = 0.5, γ = 1, a log line every 1,000 games."""

    games: int
    chunk: int = 500_000
    alpha: float = 0.05
    lam: float = 0.5
    gamma: float = 1.0
    seed: int = 0
    log_every: int = 1000
    save_digits: int | None = 6

    def __post_init__(self) -> None:
        games = _check_positive_int("games", self.games)
        c = self.chunk
        _check_positive_int("chunk", min(c, games) if isinstance(c, (int, np.integer)) else c)
        log_every = _check_positive_int("log_every", self.log_every)
        chunk = min(int(c), games)
        if games % chunk or chunk % log_every:
            raise ValueError(
                f"games ({games}) must be a multiple of chunk ({chunk}), and chunk of log_every ({log_every})"
            )
        if self.save_digits is not None:
            _check_positive_int("save_digits", self.save_digits)
        check_params(self.alpha, self.lam, self.gamma)


def train(
    x: Player, o: Player, learning: Sequence[bool], spec: Training, progress: bool = True, desc: str = ""
) -> TrainResult:
    """App. B.1 training of ``x`` against ``o`` as ``spec`` says.  Sides with ``learning[i]`` learn; their
    tables are copied, never changed in place.  Exploration is the players' ``epsilon`` (the thesis: 1/20
    while learning, 0 otherwise)."""
    if not isinstance(spec, Training):
        raise ValueError(f"spec must be a Training, got {type(spec).__name__}")
    games, chunk, log_every = int(spec.games), min(int(spec.chunk), int(spec.games)), int(spec.log_every)
    alpha, lam, gamma = check_params(spec.alpha, spec.lam, spec.gamma)
    seed, save_digits = spec.seed, spec.save_digits
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
