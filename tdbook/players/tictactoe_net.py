"""Tic-tac-toe TD(λ) network players (seed 004 §6.5–6.6, App. B.8 ``TDNeuralPolicy.h``).

**Versions** (:data:`VERSIONS`; 8 hidden units each, §6.5):

=======  =======  ==============================  ================================  ===========================
version  outputs  activation (hidden and output)  rewards win / draw / loss         move score
=======  =======  ==============================  ================================  ===========================
v1.0     1        logistic (Eq. 6.2)              1 / 0.5 / 0                       ``out[0]`` = P(win)
v1.1     1        logistic                        1 / 0 / −1                        ``out[0]``
v2.0     2        logistic                        (1,0) / (0,1) / (0,0)             ``max(out[0], out[1])``
v2.1     2        logistic                        (1,−1) / (−1,1) / (−1,−1)         ``max(out[0], out[1])``
v3.0     1        thesis (1−e^−x)/(1+e^−x) (6.15) 1 / 0 / −1                        ``out[0]``
=======  =======  ==============================  ================================  ===========================

v3.0 also uses the listing's derivative ``2y(1−y)`` (Eq. 6.16, App. B.9 ``output_function_prime``) on
every unit; v1/v2 are not listed and use the logistic's own ``y(1−y)`` (Eq. 6.3).  v2's score is the
listing's ``max(out[0], out[1])`` (App. B.8 ``move``); v2.1's draw reward for the win unit is the
text's −1 (the listing's hybrid reward block writes 0, :data:`V21_LISTING_DRAW`).

**Encodings** (:data:`ENCODINGS`) of an *after-state* (the board right after a move) for the player
who just made it — App. B.8 ``board_vector(board, plyr.piece())``:

- ``"thesis"`` (20 inputs): unit ``2s`` = X on square ``s``, ``2s+1`` = O on ``s``, unit 18 = "X's
  turn", 19 = "O's turn" — the turn unit marks the player who *just moved*, i.e. whose probability
  of victory the output estimates;
- ``"mover"`` (18 inputs, a fix): unit ``2s`` = the mover's piece on ``s``, ``2s+1`` = the opponent's;
  the same board seen by the other side is the colour-swapped input, so the net need not "invert"
  its estimate when only a turn unit changes (the difficulty the thesis names at the end of §6.6);
- ``"signed"`` (10 inputs): §6.6's first v3.0 input, +1 X / −1 O / 0 blank per square and a turn unit
  +1 X / −1 O.

**Move rule** (App. B.8 ``move``): scan the empty squares column-major (``board[i][j]``, ``i`` the
column, as App. B.7), score each after-state and keep it when ``val > best`` with ``best`` starting at
−1.0; if none qualifies (or with probability ε while learning) play a uniformly random square.  With
``immediate_win`` (a fix) a move that ends the game is scored by its reward instead of by the net.

A net player is turned into an App. B.7 after-state *table* player (:func:`as_table_player`) whose
table holds the net's score of every reachable after-state: the table player's ``"thesis"`` rule is
the same column-major ``val > best`` scan from −1.0, so matches, exact outcome probabilities and
optimal-move fractions come from :mod:`tdbook.players.tictactoe` unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numba import njit

from ..core.rng import randint, uniform
from ..games.tictactoe import (
    DRAW,
    EMPTY,
    N_CODES,
    N_O,
    N_X,
    ONGOING,
    POW3,
    REACHABLE,
    SCAN_COLUMN_MAJOR,
    STATUS,
    O,
    X,
    board_string,
    legal_moves,
    to_move,
)
from ..learners.td_net import TDNet, forward
from .tictactoe import Player, _live, table_player

ENCODINGS: dict[str, int] = {"thesis": 0, "mover": 1, "signed": 2}
N_INPUTS: dict[str, int] = {"thesis": 20, "mover": 18, "signed": 10}
SCORES: dict[str, int] = {"first": 0, "max": 1}
#: rows of a reward array: the outcome for the player who learns
WIN, DRAW_ROW, LOSS = 0, 1, 2


@dataclass(frozen=True)
class Version:
    """One of the thesis's TDNN versions (§6.5–6.6)."""

    name: str
    n_out: int
    activation: str  # hidden and output units (td_net.ACTIVATIONS)
    derivative: str  # td_net.DERIVATIVES: "thesis" = App. B.9's 2y(1−y)
    rewards: tuple[tuple[float, ...], ...]  # (win, draw, loss), one value per output
    score: str  # "first" or "max"
    note: str = ""

    def reward_array(self) -> np.ndarray:
        return np.array(self.rewards, dtype=np.float64)


VERSIONS: dict[str, Version] = {
    "v1.0": Version(
        "v1.0",
        1,
        "logistic",
        "true",
        ((1.0,), (0.5,), (0.0,)),
        "first",
        "Tesauro-style P(win); rewards loss 0, draw 0.5, win 1 (§6.5)",
    ),
    "v1.1": Version(
        "v1.1", 1, "logistic", "true", ((1.0,), (0.0,), (-1.0,)), "first", "as v1.0 with rewards −1 / 0 / 1 (§6.6)"
    ),
    "v2.0": Version(
        "v2.0",
        2,
        "logistic",
        "true",
        ((1.0, 0.0), (0.0, 1.0), (0.0, 0.0)),
        "max",
        "outputs P(win), P(draw); loss rewards both 0 (§6.5)",
    ),
    "v2.1": Version(
        "v2.1",
        2,
        "logistic",
        "true",
        ((1.0, -1.0), (-1.0, 1.0), (-1.0, -1.0)),
        "max",
        "as v2.0 with −1 for the outcome that did not happen (§6.6)",
    ),
    "v3.0": Version(
        "v3.0",
        1,
        "thesis",
        "thesis",
        ((1.0,), (0.0,), (-1.0,)),
        "first",
        "expected reward in (−1, 1), Eq. 6.15 activation, Eq. 6.16 / App. B.9 derivative 2y(1−y)",
    ),
}
#: App. B.8's reward block gives the win unit 0 in a draw (the text §6.6 says −1)
V21_LISTING_DRAW = (0.0, 1.0)


def check_version(version: str) -> Version:
    if version not in VERSIONS:
        raise ValueError(f"unknown TDNN version {version!r}; choose from: {', '.join(VERSIONS)}")
    return VERSIONS[version]


def check_encoding(encoding: str) -> int:
    if encoding not in ENCODINGS:
        raise ValueError(f"unknown encoding {encoding!r}; choose from: {', '.join(ENCODINGS)}")
    return ENCODINGS[encoding]


# ----------------------------------------------------------------------------- kernels


@njit(cache=True)
def encode_after(code: int, mover: int, enc: int, idx: np.ndarray, val: np.ndarray) -> int:
    """Sparse input of position ``code`` seen by ``mover`` (X or O) — App. B.8 ``board_vector``.
    Writes ``idx[:n]``, ``val[:n]`` and returns ``n``."""
    n = 0
    c = code
    for s in range(9):
        p = c % 3
        c //= 3
        if p != EMPTY:
            if enc == 0:
                idx[n] = 2 * s if p == X else 2 * s + 1
                val[n] = 1.0
            elif enc == 1:
                idx[n] = 2 * s if p == mover else 2 * s + 1
                val[n] = 1.0
            else:
                idx[n] = s
                val[n] = 1.0 if p == X else -1.0
            n += 1
    if enc == 0:
        idx[n] = 18 if mover == X else 19
        val[n] = 1.0
        n += 1
    elif enc == 2:
        idx[n] = 9
        val[n] = 1.0 if mover == X else -1.0
        n += 1
    return n


@njit(cache=True, inline="always")
def score_of(o: np.ndarray, score: int) -> float:
    """The number the move rule maximises: ``out[0]`` or ``max(out[0], out[1])`` (v2)."""
    if score == 1:
        return max(o[0], o[1])
    return o[0]


@njit(cache=True)
def after_score(W1, W2, bias, hact, oact, enc, score, immediate, rewards, after, mover, idx, val, h, o) -> float:
    """Score of after-state ``after`` for ``mover``: the net's, or (``immediate``) the reward's when it
    ends the game."""
    if immediate and STATUS[after] != ONGOING:
        row = DRAW_ROW if STATUS[after] == DRAW else WIN
        return score_of(rewards[row], score)
    nnz = encode_after(after, mover, enc, idx, val)
    forward(W1, W2, idx, val, nnz, bias, hact, oact, h, o)
    return score_of(o, score)


@njit(cache=True)
def best_after(W1, W2, bias, hact, oact, enc, score, immediate, rewards, code, idx, val, h, o) -> tuple[int, float]:
    """App. B.8 ``move`` without exploration: the first square (column-major) whose after-state scores
    highest and above −1.0, and its score; (−1, −1.0) when none does (the caller then plays randomly)."""
    mover = to_move(code)
    best = -1.0
    x = -1
    for k in range(9):
        s = SCAN_COLUMN_MAJOR[k]
        if (code // POW3[s]) % 3 != EMPTY:
            continue
        v = after_score(
            W1, W2, bias, hact, oact, enc, score, immediate, rewards, code + mover * POW3[s], mover, idx, val, h, o
        )
        if v > best:
            best = v
            x = s
    return x, best


@njit(cache=True)
def greedy_square(W1, W2, bias, hact, oact, enc, score, immediate, rewards, code, idx, val, h, o) -> int:
    """The square of :func:`best_after` (−1 when no after-state scores above −1)."""
    return best_after(W1, W2, bias, hact, oact, enc, score, immediate, rewards, code, idx, val, h, o)[0]


@njit(cache=True)
def net_move(W1, W2, bias, hact, oact, enc, score, immediate, rewards, epsilon, code, st, idx, val, h, o) -> int:
    """One move of the net player on ``code`` (not terminal): random (:func:`random_square`) with probability
    ``epsilon`` or when no after-state scores above −1 (App. B.8), else :func:`greedy_square`."""
    if epsilon > 0.0 and uniform(st) < epsilon:
        s = -1
    else:
        s = greedy_square(W1, W2, bias, hact, oact, enc, score, immediate, rewards, code, idx, val, h, o)
    if s < 0:
        s = random_square(code, st)
    return s


@njit(cache=True)
def random_square(code: int, st: np.ndarray) -> int:
    """App. B.8's random move: uniform over the empty squares listed column-major (``moves`` vector)."""
    buf = np.empty(9, dtype=np.int64)
    n = 0
    for k in range(9):
        s = SCAN_COLUMN_MAJOR[k]
        if (code // POW3[s]) % 3 == EMPTY:
            buf[n] = s
            n += 1
    return buf[randint(st, n)]


@njit(cache=True)
def score_table(W1, W2, bias, hact, oact, enc, score, immediate, rewards, codes) -> np.ndarray:
    """The move score of every after-state in ``codes`` for the side that just moved (N_CODES array, 0 elsewhere)."""
    out = np.zeros(STATUS.shape[0])
    raw = output_table(W1, W2, bias, hact, oact, enc, codes)
    for i in range(codes.shape[0]):
        a = codes[i]
        if immediate and STATUS[a] != ONGOING:
            out[a] = score_of(rewards[DRAW_ROW if STATUS[a] == DRAW else WIN], score)
        else:
            out[a] = score_of(raw[i], score)
    return out


@njit(cache=True)
def output_table(W1, W2, bias, hact, oact, enc, codes) -> np.ndarray:
    """Raw outputs ``(len(codes), n_out)`` of the net on the after-states ``codes`` (for the side that moved)."""
    out = np.empty((codes.shape[0], W2.shape[1]))
    idx = np.empty(10, dtype=np.int64)
    val = np.empty(10)
    h = np.empty(W1.shape[1])
    o = np.empty(W2.shape[1])
    for i in range(codes.shape[0]):
        a = codes[i]
        mover = X if N_X[a] > N_O[a] else O
        nnz = encode_after(a, mover, enc, idx, val)
        forward(W1, W2, idx, val, nnz, bias, hact, oact, h, o)
        out[i] = o
    return out


#: every reachable position with at least one piece — an after-state of exactly one side
AFTER_STATES = np.flatnonzero(REACHABLE & ((N_X.astype(np.int64) + N_O) > 0)).astype(np.int64)


# ----------------------------------------------------------------------------- Python side


@dataclass
class NetPlayer:
    """A trained (frozen) TDNN on tic-tac-toe: ``move(code)`` plays App. B.8's rule greedily.

    ``net``: a :class:`~tdbook.learners.td_net.TDNet` of ``version``'s shape on ``encoding``;
    ``immediate_win``: score game-ending moves by their reward (a fix; the thesis scores them by the net);
    ``epsilon``: exploration (App. B.8 never stops exploring; our evaluations play greedily, ε = 0).
    """

    net: TDNet
    version: str = "v1.0"
    encoding: str = "thesis"
    immediate_win: bool = False
    epsilon: float = 0.0
    rewards: np.ndarray | None = None  # (3, n_out); None = the version's
    name: str = ""
    seed: int = 0
    _player: Player | None = field(default=None, repr=False)
    _scores: np.ndarray | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        v = check_version(self.version)
        self.enc = check_encoding(self.encoding)
        if not isinstance(self.net, TDNet):
            raise ValueError(f"net must be a TDNet, got {type(self.net).__name__}")
        want = (N_INPUTS[self.encoding], v.n_out)
        if (self.net.n_in, self.net.n_out) != want:
            raise ValueError(
                f"a {self.version} net on the {self.encoding!r} encoding has {want[0]} inputs and "
                f"{want[1]} outputs; this net is {self.net.n_in}-{self.net.n_hidden}-{self.net.n_out}"
            )
        self.rewards = v.reward_array() if self.rewards is None else np.asarray(self.rewards, dtype=np.float64)
        if self.rewards.shape != (3, v.n_out):
            raise ValueError(f"rewards must have shape (3, {v.n_out}) (win, draw, loss rows), got {self.rewards.shape}")
        if not 0.0 <= float(self.epsilon) <= 1.0:
            raise ValueError(f"epsilon must be in [0, 1], got {self.epsilon!r}")
        self.score = SCORES[v.score]
        if not self.name:
            self.name = f"TDNN {self.version}" + ("" if self.encoding == "thesis" else f" ({self.encoding})")

    def _args(self) -> tuple:
        n = self.net
        return (n.W1, n.W2, n.bias, n.hact, n.oact, self.enc, self.score, bool(self.immediate_win), self.rewards)

    def scores(self) -> np.ndarray:
        """The move score of every reachable after-state (N_CODES array; NaN where the net diverged)."""
        return score_table(*self._args(), AFTER_STATES)

    def outputs(self, codes: np.ndarray | None = None) -> np.ndarray:
        """Raw net outputs on after-states (all reachable ones by default), shape (n, n_out)."""
        codes = AFTER_STATES if codes is None else np.asarray(codes, dtype=np.int64)
        n = self.net
        return output_table(n.W1, n.W2, n.bias, n.hact, n.oact, self.enc, codes)

    def as_table_player(self) -> Player:
        """The same policy as an App. B.7 after-state table player (rule ``"thesis"``: column-major
        ``val != 0 && val > best`` from −1.0, random when nothing qualifies).  A NaN score (diverged
        weights) becomes 0 — skipped, as ``NaN > best`` is false in App. B.8 — and an exact 0 score
        becomes the smallest positive double, so the table rule's ``val != 0`` filter skips nothing else."""
        if self._player is None:
            self._scores = self.scores()
            t = self._scores.copy()
            t[~np.isfinite(t)] = 0.0
            zero = np.zeros(N_CODES, dtype=bool)
            zero[AFTER_STATES] = True
            zero &= t == 0.0
            t[zero] = np.nextafter(0.0, 1.0)
            self._player = table_player(t, "thesis", epsilon=float(self.epsilon), name=self.name, seed=self.seed)
        return self._player

    def move(self, code: int) -> int:
        """The square this net plays on ``code``; ValueError if the game is over or ``code`` is not a position."""
        return self.as_table_player().move(code)

    def square_values(self, code: int) -> dict[int, float]:
        """What the net sees for each empty square of ``code`` (its move score of the after-state)."""
        code = _live(code)
        piece = int(to_move(code))
        buf = np.empty(9, dtype=np.int64)
        self.as_table_player()
        t = self._scores
        return {int(s): float(t[code + piece * 3 ** int(s)]) for s in buf[: legal_moves(code, buf)]}

    def describe(self, code: int) -> str:
        """The board and the net's score of each empty square."""
        vals = self.square_values(code)
        return f"{board_string(code)}: " + ", ".join(f"{s}: {v:+.3f}" for s, v in sorted(vals.items()))


def frozen(player: Player | Any) -> Any:
    """``player`` as it plays in evaluations: a :class:`NetPlayer` becomes its table player, anything else is kept."""
    return player.as_table_player() if isinstance(player, NetPlayer) else player
