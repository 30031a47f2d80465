"""TD(λ) after-state tables for tic-tac-toe: the value function and App. B.7's update rule (Powell (2000)
§6.1, Code 4.3, App. B.7 ``TDlambdaPolicy::learn``).

A table ``V`` (float64[N_CODES], all ``kInitialize`` = 0) holds one side's values of its own
*after-states* (the board right after its move), indexed by position code.  Per game the side keeps the
list of its after-states ``myMoves`` with one eligibility trace each (cleared by ``reset()`` at every game
start).  ``learn`` is, exactly as listed::

    if game_over: next := final board; reward := +1 win, −1 loss, draw reward otherwise (else 0)
    if learning and current and next exist:
        δ := reward + γ·V[next] − V[current]
        E[current] += 1
        for s in myMoves: V[s] += α·δ·E[s];  E[s] := γλ·E[s]
    current := next

so the first move of a game teaches nothing, the after-state just played has trace 0 when it is
updated, and a terminal after-state is never changed (it stays 0 in the table).  The thesis saved the
table with ``ostream``'s default 6 significant digits, non-zero entries only (:func:`round_significant`,
:func:`states_stored`).  The game loop that calls ``learn`` (App. B.1 ``main.cc``) is a protocol with
opponents: :mod:`tdbook.experiments.tictactoe.table_training`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from ..games.tictactoe import N_CODES


def empty_table() -> np.ndarray:
    """A fresh value table: every after-state at App. B.7's ``kInitialize`` = 0."""
    return np.zeros(N_CODES, dtype=np.float64)


def check_table(table: Any) -> np.ndarray:
    """``table`` as a float64 array of length N_CODES with finite values, else ValueError."""
    t = np.asarray(table)
    if t.shape != (N_CODES,):
        raise ValueError(f"a tic-tac-toe value table has shape ({N_CODES},), got {t.shape}")
    if not np.issubdtype(t.dtype, np.floating) or not np.all(np.isfinite(t)):
        raise ValueError("a tic-tac-toe value table must hold finite floating-point values")
    return t.astype(np.float64, copy=False)


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


def afterstate_update(
    values: np.ndarray,
    afterstates: list[int],
    traces: list[float],
    current: int | None,
    next_afterstate: int | None,
    reward: float,
    alpha: float,
    lam: float,
    gamma: float = 1.0,
) -> None:
    """App. B.7's ``learn`` in plain Python, the rule :func:`learn` runs jitted (Powell (2000) §6.1, Code 4.3;
    ``tests/test_tictactoe_table.py`` checks they agree bit for bit).

    ``values`` is the side's table of after-state values; ``afterstates`` the after-states it has played this game,
    ``traces`` their eligibility traces; ``current`` the after-state it played last, ``next_afterstate`` the one it
    plays now (at the end of a game: the final board, valued 0, with ``reward`` +1, −1 or the draw reward)."""
    if current is None or next_afterstate is None:  # the first move of a game teaches nothing
        return
    td_error = reward + gamma * values[next_afterstate] - values[current]
    traces[afterstates.index(current)] += 1.0  # the after-state just left becomes eligible
    for i, state in enumerate(afterstates):  # every after-state of the game moves by δ times its trace
        values[state] += alpha * td_error * traces[i]
        traces[i] = gamma * lam * traces[i]


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
