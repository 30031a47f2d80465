"""The bounded random walk of Powell (2000) §4.3 (Fig. 4.2, "modified from Sutton 1998") and App. A.

A corridor of ``n`` non-terminal states (default 5, named A–E) between Room 1 (left end,
reward 0) and Room 2 (right end, reward 1); every step moves left or right with
probability ½.  Positions are numbered as in App. A's C++ ``states`` vector: 0 is
Room 1, 1..n are A.., n+1 is Room 2.  The text (§4.3, Codes 4.1–4.3) starts every
episode at C; the C++ code (``current = (num_states+1)/2``) starts at D — both are
available through ``start``.

Coin flips: each run owns a SplitMix64 stream (:mod:`tdbook.core.rng`); one 64-bit draw
gives 64 coin flips, consumed least-significant bit first (1 = move right).  The walk
therefore never depends on the learner: every learner consumes exactly one bit per step.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from numba import njit

from ..core import rng

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
ROOM1, ROOM2 = "Room1", "Room2"


def check_n_states(n_states: int) -> int:
    """``n_states`` as an int in 1..26, else ValueError naming ``n_states``."""
    if not isinstance(n_states, (int, np.integer)) or isinstance(n_states, bool) or not 1 <= n_states <= 26:
        raise ValueError(f"n_states must be an int in 1..26, got {n_states!r}")
    return int(n_states)


def state_names(n_states: int = 5) -> list[str]:
    """``['A', 'B', ...]`` for the non-terminal states."""
    return list(LETTERS[: check_n_states(n_states)])


def parse_start(start: str | int, n_states: int = 5) -> int:
    """The position (1..n) of a start state given as a letter (``"C"``) or a 0-based index (A = 0).

    Raises ValueError naming ``start`` when it is outside the chain.
    """
    n = check_n_states(n_states)
    if isinstance(start, str):
        s = start.strip().upper()
        if len(s) == 1 and s in LETTERS[:n]:
            return LETTERS.index(s) + 1
        raise ValueError(f"start must be one of {', '.join(LETTERS[:n])} (or an index 0..{n - 1}), got {start!r}")
    if isinstance(start, (int, np.integer)) and not isinstance(start, bool) and 0 <= start < n:
        return int(start) + 1
    raise ValueError(f"start must be one of {', '.join(LETTERS[:n])} (or an index 0..{n - 1}), got {start!r}")


def position_name(pos: int, n_states: int = 5) -> str:
    """``Room1``, ``A``..``E``, ``Room2`` for positions 0..n+1."""
    if pos == 0:
        return ROOM1
    if pos == n_states + 1:
        return ROOM2
    return LETTERS[pos - 1]


def parse_walk(walk: str | Sequence[str], n_states: int = 5) -> np.ndarray:
    """Positions of a walk written as in the notes, e.g. ``"D,E,D,E,Room2"`` (ends in a room).

    Consecutive positions must be neighbours, only the last may be a room; else ValueError.
    """
    n = check_n_states(n_states)
    toks = [t.strip() for t in (walk.replace(" ", ",").split(",") if isinstance(walk, str) else walk) if t.strip()]
    pos = []
    for t in toks:
        if t.lower() in ("room1", "r1"):
            pos.append(0)
        elif t.lower() in ("room2", "r2"):
            pos.append(n + 1)
        elif len(t) == 1 and t.upper() in LETTERS[:n]:
            pos.append(LETTERS.index(t.upper()) + 1)
        else:
            raise ValueError(f"walk: unknown position {t!r}; use letters A..{LETTERS[n - 1]}, Room1, Room2")
    p = np.asarray(pos, dtype=np.int64)
    if len(p) < 2:
        raise ValueError(f"walk needs a start state and at least one step, got {walk!r}")
    if np.any(np.abs(np.diff(p)) != 1):
        raise ValueError(f"walk {walk!r} has a step that does not move to a neighbour")
    if p[0] in (0, n + 1) or np.any((p[1:-1] == 0) | (p[1:-1] == n + 1)) or p[-1] not in (0, n + 1):
        raise ValueError(f"walk {walk!r} must start in the corridor and end (only) in a room")
    return p


def format_walk(positions: Sequence[int], n_states: int = 5) -> str:
    return ",".join(position_name(int(p), n_states) for p in positions)


def true_values(n_states: int = 5) -> np.ndarray:
    """The exact values P(end in Room 2 | state), from the Bellman system V = P V + r (§4.3: 1/6 … 5/6).

    The system is tridiagonal (``V[i] − ½V[i−1] − ½V[i+1] = r[i]``) and is solved by forward elimination
    and back substitution in plain floating point — the same operations in the same order on every
    machine (a BLAS/LAPACK solve may round differently on different CPUs)."""
    n = check_n_states(n_states)
    r = [0.0] * n
    r[-1] = 0.5  # the step E → Room 2 pays 1 with probability ½
    cp, dp = [0.0] * n, [0.0] * n
    cp[0], dp[0] = -0.5, r[0]
    for i in range(1, n):
        m = 1.0 + 0.5 * cp[i - 1]  # 1 − (−½)·cp[i−1]
        cp[i] = -0.5 / m
        dp[i] = (r[i] + 0.5 * dp[i - 1]) / m
    v = [0.0] * n
    v[-1] = dp[-1]
    for i in range(n - 2, -1, -1):
        v[i] = dp[i] - cp[i] * v[i + 1]
    return np.array(v)


def walk_length_tail(max_steps: int, start: str | int = "D", n_states: int = 5) -> float:
    """Exact P(a walk from ``start`` lasts more than ``max_steps`` steps): the mass still in the corridor
    after ``max_steps`` steps of the sub-stochastic transition matrix (§4.3), propagated step by step
    (each state passes half its mass to each neighbour) and summed exactly (``math.fsum``)."""
    n = check_n_states(n_states)
    if not isinstance(max_steps, (int, np.integer)) or isinstance(max_steps, bool) or max_steps < 0:
        raise ValueError(f"max_steps must be an int >= 0, got {max_steps!r}")
    p = np.zeros(n + 2)  # with the two rooms, which absorb
    p[parse_start(start, n)] = 1.0
    for _ in range(int(max_steps)):
        q = np.zeros(n + 2)
        q[:-2] += 0.5 * p[1:-1]
        q[2:] += 0.5 * p[1:-1]
        q[0] = q[-1] = 0.0
        p = q
    return math.fsum(p[1:-1])


def rms_error(values: np.ndarray, truth: np.ndarray) -> np.ndarray:
    """RMS error over the states (last axis), App. A: ``sqrt(Σ (V_i − i/6)² / 5)``."""
    v = np.asarray(values, dtype=float)
    return np.sqrt(np.mean((v - truth) ** 2, axis=-1))


# ----------------------------------------------------------------------------- kernels


@njit(cache=True)
def _walk(st: np.ndarray, n: int, start: int, out: np.ndarray, j: int) -> int:
    """One walk from ``start`` on coin stream ``st``; writes positions to ``out[j:]`` when ``out`` is
    non-empty and returns the number of steps (§4.3)."""
    write = out.shape[0] > 0
    cur = start
    if write:
        out[j] = cur
    k = 0
    while cur != 0 and cur != n + 1:
        cur = cur - 1 + 2 * rng.coin(st)
        k += 1
        if write:
            out[j + k] = cur
    return k


@njit(cache=True)
def sample_walk_lengths(n: int, start: int, episodes: int, seed: int, stream: int) -> np.ndarray:
    """Steps per episode for one run's coin stream (for tests and the façade); §4.3."""
    st = rng.coin_state(seed, stream)
    out = np.empty(episodes, dtype=np.int64)
    none = np.empty(0, dtype=np.int64)
    for ep in range(episodes):
        out[ep] = _walk(st, n, start, none, 0)
    return out


@njit(cache=True)
def sample_walks(n: int, start: int, episodes: int, seed: int, stream: int) -> tuple[np.ndarray, np.ndarray]:
    """All positions of ``episodes`` walks of one run, concatenated, and the offsets of each walk."""
    lengths = sample_walk_lengths(n, start, episodes, seed, stream)
    offsets = np.zeros(episodes + 1, dtype=np.int64)
    for i in range(episodes):
        offsets[i + 1] = offsets[i] + lengths[i] + 1
    pos = np.empty(offsets[-1], dtype=np.int64)
    st = rng.coin_state(seed, stream)
    for ep in range(episodes):
        _walk(st, n, start, pos, offsets[ep])
    return pos, offsets


# ----------------------------------------------------------------------------- façade


class RandomWalk:
    """The walk behind the common game interface (a one-"player" game of chance; §4.3 Fig. 4.2).

    A state is a position 0..n+1; the only "moves" are ``-1`` and ``+1`` (chance decides in
    the MDP; the façade lets a widget or test script a walk).
    """

    name = "random_walk"
    n_players = 1
    result_range = (0.0, 1.0)

    def __init__(self, n_states: int = 5, start: str | int = "D") -> None:
        self.n = check_n_states(n_states)
        self.start = parse_start(start, self.n)
        self.encoding_shape = (self.n + 2,)

    def initial_state(self) -> int:
        return self.start

    def to_move(self, state: int) -> int:
        return 0

    def legal_moves(self, state: int) -> list[int]:
        return [] if self.is_terminal(state) else [-1, +1]

    def apply(self, state: int, move: int) -> int:
        from .base import IllegalMove

        if isinstance(state, bool) or not isinstance(state, (int, np.integer)) or not 0 <= state <= self.n + 1:
            raise ValueError(f"a state is an integer 0..{self.n + 1} (Room 1, the corridor, Room 2), got {state!r}")
        if self.is_terminal(state):
            raise IllegalMove(f"the walk is over (in {position_name(state, self.n)}): no move {move!r}", move)
        if isinstance(move, bool) or not isinstance(move, (int, np.integer)) or move not in (-1, 1):
            raise IllegalMove(f"a move is -1 (left) or +1 (right), got {move!r}", move)
        return int(state) + int(move)

    def is_terminal(self, state: int) -> bool:
        return state == 0 or state == self.n + 1

    def result(self, state: int) -> float:
        """The reward on entering the terminal ``state``: 1 in Room 2, 0 in Room 1."""
        if not self.is_terminal(state):
            from .base import not_terminal

            raise not_terminal(self, state)
        return 1.0 if state == self.n + 1 else 0.0

    def key(self, state: int) -> int:
        """The position 0..n+1 (Room 1, the corridor, Room 2): the table index."""
        return int(state)

    def encode(self, state: int) -> np.ndarray:
        """One-hot position over the ``n + 2`` places (a table as linear features)."""
        x = np.zeros(self.n + 2)
        x[int(state)] = 1.0
        return x
