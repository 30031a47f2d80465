"""Learner inputs for backgammon: Tesauro's 198-unit encoding and pubeval's 122 inputs (Powell (2000) §5.2).

TD-Gammon's input (the thesis lists the units, Tesauro gives the coding): for each of
the 24 points, 4 units per side in truncated unary — units 1–3 on when the side has
≥1, ≥2, ≥3 checkers there, the 4th = (n − 3)/2 when n > 3; then checkers on the bar
n/2 and borne off n/15 per side; then 2 side-to-move units.

Layout (:func:`encode_tesauro`): a 98-unit block per colour — ``4·(p−1)+u`` for that
colour's own point ``p`` (1 = its ace point), 96 = bar, 97 = off — white's block at
0..97, black's at 98..195, then unit 196 (white on roll) and 197 (black on roll).
``pos`` is always from the side on roll's view and ``colour`` says which colour that is.

The *relative* option (``turn_units=False``, ``colour=0``) drops the turn units and
always evaluates from the side on roll: its block first, the opponent's second (196
units).  Swapping sides permutes the units (the halves swap, so do the turn units):
``encode(flip(p))`` is the half-swapped ``encode(p)``, which the tests pin.
"""

from __future__ import annotations

import numpy as np
from numba import njit

N_INPUTS = 198
N_INPUTS_RELATIVE = 196
MAX_NNZ = 2 * (24 * 4 + 2) + 2  # enough for any position


@njit(cache=True, inline="always")
def _point(n: int, base: int, idx, val, k: int) -> int:
    if n >= 1:
        idx[k] = base
        val[k] = 1.0
        k += 1
        if n >= 2:
            idx[k] = base + 1
            val[k] = 1.0
            k += 1
            if n >= 3:
                idx[k] = base + 2
                val[k] = 1.0
                k += 1
                if n > 3:
                    idx[k] = base + 3
                    val[k] = (n - 3) * 0.5
                    k += 1
    return k


@njit(cache=True)
def encode_tesauro(pos, colour, turn_units, idx, val) -> int:
    """Write the sparse 198 (or 196) inputs of ``pos`` (side on roll's view) into ``idx, val``;
    returns the number of non-zero units.  ``colour``: 0 white / 1 black for the side on roll."""
    mb = 98 * colour
    ob = 98 - mb
    k = 0
    for p in range(1, 25):
        v = pos[p]
        if v > 0:
            k = _point(v, mb + 4 * (p - 1), idx, val, k)
        elif v < 0:
            k = _point(-v, ob + 4 * (24 - p), idx, val, k)
    if pos[25] > 0:
        idx[k] = mb + 96
        val[k] = pos[25] * 0.5
        k += 1
    if pos[26] > 0:
        idx[k] = mb + 97
        val[k] = pos[26] / 15.0
        k += 1
    if pos[0] < 0:
        idx[k] = ob + 96
        val[k] = -pos[0] * 0.5
        k += 1
    if pos[27] < 0:
        idx[k] = ob + 97
        val[k] = -pos[27] / 15.0
        k += 1
    if turn_units:
        idx[k] = 196 + colour
        val[k] = 1.0
        k += 1
    return k


def sparse_buffers() -> tuple[np.ndarray, np.ndarray]:
    """(idx int64, val float64) arrays big enough for :func:`encode_tesauro`."""
    return np.zeros(MAX_NNZ, np.int64), np.zeros(MAX_NNZ, np.float64)


def encode_dense(pos: np.ndarray, colour: int = 0, turn_units: bool = True) -> np.ndarray:
    """Dense float64 vector of :func:`encode_tesauro` (198 units, or 196 without turn units)."""
    idx, val = sparse_buffers()
    nnz = encode_tesauro(np.asarray(pos, np.int8), int(colour), bool(turn_units), idx, val)
    x = np.zeros(N_INPUTS if turn_units else N_INPUTS_RELATIVE)
    x[idx[:nnz]] = val[:nnz]
    return x


def swap_sides(x: np.ndarray) -> np.ndarray:
    """The encoding ``x`` (196 or 198 units) with the two sides' 98-unit halves exchanged and the
    turn units (if any) reversed: what the same units say about the other side."""
    x = np.asarray(x)
    return np.concatenate([x[98:196], x[:98], x[196:][::-1]])


@njit(cache=True)
def pubeval_inputs(pos, x) -> None:
    """Pubeval's 122 inputs of ``pos`` (the mover's view, after its move) into ``x`` (float64[122]).

    Block k = 0..23 reads point 24 − k (the original ``pos[25 − j]`` with j = k + 1)."""
    for j in range(122):
        x[j] = 0.0
    for k in range(24):
        n = pos[24 - k]
        if n == -1:
            x[5 * k] = 1.0
        elif n == 1:
            x[5 * k + 1] = 1.0
        elif n >= 2:
            x[5 * k + 2] = 1.0
            if n == 3:
                x[5 * k + 3] = 1.0
            elif n >= 4:
                x[5 * k + 4] = (n - 3) * 0.5
    x[120] = -pos[0] * 0.5
    x[121] = pos[26] / 15.0
