"""Seeded, counter-style random numbers for jitted kernels.

Every experiment takes a ``seed``; the same seed must give byte-identical results
whatever the thread count, so kernels do not use numba's global ``np.random``
state.  Each independent run (or worker) owns a one-element ``uint64`` state array
derived from ``(seed, stream)`` by :func:`make_state`, and draws from it with the
SplitMix64 generator (Steele, Lea & Flood 2014; period 2**64, passes BigCrush).

All functions here are ``@njit(cache=True)`` and can be called from other kernels.
"""

from __future__ import annotations

import numpy as np
from numba import njit

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S11 = np.uint64(11)
_TWO_M53 = 1.0 / 9007199254740992.0  # 2**-53


@njit(cache=True)
def _mix(z: np.uint64) -> np.uint64:
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@njit(cache=True)
def next_u64(state: np.ndarray) -> np.uint64:
    """Advance ``state`` (uint64 array, first element used) and return 64 random bits."""
    state[0] = state[0] + _GOLDEN
    return _mix(state[0])


@njit(cache=True)
def uniform(state: np.ndarray) -> float:
    """A float in [0, 1) with 53 random bits."""
    return float(next_u64(state) >> _S11) * _TWO_M53


@njit(cache=True)
def randint(state: np.ndarray, n: int) -> int:
    """An int uniform in [0, n) (Lemire-free modulo: bias < n / 2**53, negligible)."""
    return int(uniform(state) * n)


@njit(cache=True)
def seed_state(seed: int, stream: int) -> np.ndarray:
    """Jitted twin of :func:`make_state` for use inside kernels."""
    s = np.empty(1, dtype=np.uint64)
    s[0] = _mix(np.uint64(seed) * _GOLDEN + _mix(np.uint64(stream) + _GOLDEN))
    return s


def make_state(seed: int, stream: int = 0) -> np.ndarray:
    """A fresh generator state for run/worker ``stream`` of experiment ``seed``.

    Distinct ``(seed, stream)`` pairs give statistically independent streams.
    """
    if not isinstance(seed, (int, np.integer)) or isinstance(seed, bool) or seed < 0:
        raise ValueError(f"seed must be a non-negative int, got {seed!r}")
    if not isinstance(stream, (int, np.integer)) or isinstance(stream, bool) or stream < 0:
        raise ValueError(f"stream must be a non-negative int, got {stream!r}")
    return seed_state(int(seed) % (1 << 64), int(stream) % (1 << 64))


_ONE = np.uint64(1)
_SIXTY_FOUR = np.uint64(64)


@njit(cache=True)
def coin_state(seed: int, stream: int) -> np.ndarray:
    """A generator state that also buffers coin flips: ``[SplitMix64 state, unused bits, count]``."""
    s = np.zeros(3, dtype=np.uint64)
    s[0] = seed_state(seed, stream)[0]
    return s


@njit(cache=True)
def coin(state: np.ndarray) -> int:
    """One fair coin flip (0 or 1) from a :func:`coin_state`: each 64-bit draw gives 64 flips,
    least-significant bit first."""
    if state[2] == 0:
        state[1] = next_u64(state)
        state[2] = _SIXTY_FOUR
    b = state[1] & _ONE
    state[1] = state[1] >> _ONE
    state[2] = state[2] - _ONE
    return np.int64(b)
