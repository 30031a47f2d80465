"""Tic-tac-toe TD(λ) network players (Powell (2000) §6.5–6.6, App. B.8 ``TDNeuralPolicy::move``).

**Move rule** (App. B.8 ``move``): scan the empty squares column-major (``board[i][j]``, ``i`` the
column, as App. B.7), score each after-state (:mod:`tdbook.learners.tictactoe_net`: the net's output
for the side that moved, or with ``immediate_win`` the reward of a move that ends the game) and keep it
when ``val > best`` with ``best`` starting at −1.0; if none qualifies (or with probability ε while
learning) play a uniformly random square.

A net player is turned into an App. B.7 after-state *table* player (:meth:`NetPlayer.as_table_player`)
whose table holds the net's score of every reachable after-state: the table player's ``"thesis"`` rule
is the same column-major ``val > best`` scan from −1.0, so matches, exact outcome probabilities and
optimal-move fractions come from :mod:`tdbook.players.tictactoe` unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numba import njit

from ..core.rng import randint, uniform
from ..games.tictactoe import EMPTY, N_CODES, POW3, SCAN_COLUMN_MAJOR, board_string, legal_moves, to_move
from ..learners.td_net import TDNet
from ..learners.tictactoe_net import (
    AFTER_STATES,
    N_INPUTS,
    SCORES,
    after_score,
    check_encoding,
    check_version,
    output_table,
    score_table,
)
from .tictactoe import Player, _live, table_player


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
def net_move(net, score, immediate, epsilon, code, st, idx, val, h, o) -> int:
    """One move of the net player on ``code`` (not terminal): random (:func:`random_square`) with probability
    ``epsilon`` or when no after-state scores above −1 (App. B.8), else :func:`greedy_square`.  ``net``: a
    :class:`~tdbook.learners.tictactoe_net.LearningNet` (its weights, units, encoding and rewards are read)."""
    if epsilon > 0.0 and uniform(st) < epsilon:
        s = -1
    else:
        u = net.units
        s = greedy_square(
            net.W1, net.W2, u.bias, u.hact, u.oact, net.enc, score, immediate, net.rewards, code, idx, val, h, o
        )
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
