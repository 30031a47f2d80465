"""TD-Leaf(λ) (Baxter, Tridgell & Weaver 1998, "KnightCap"; a modern baseline beside Samuel's learning by
generalization, Powell (2000) §3.3 and §4.5) on Samuel's terms and search.

The value of a board is the score of the leaf of its principal variation — the same α-β search with
plausibility ordering and Samuel's ply rules — squashed, ``J = tanh(v / scale)`` with ``v`` the backed-up score
for Black.  The coefficients are ``unit · θ`` on the 38 terms of :data:`SAMUEL_TERMS` (all of them in the
polynomial; the piece advantage stays fixed).  After a game of ``n`` plies with values ``J_0 … J_{n−1}`` and
the outcome ``J_n = r`` (+1 Black wins, 0 draw, −1 loss),

    θ ← θ + α Σ_t ∇J_t Σ_{j ≥ t} λ^{j−t} (J_{j+1} − J_j),

where ∇J_t is the gradient at the principal variation's leaf (the leaf's terms, signed for Black, times
(1 − J_t²) · unit / scale).  Both colours use and train the same θ (self-play); a leaf without a legal move (a
won or lost board) has no gradient.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np
from numba import njit

from .checkers_generalization import N_SAMUEL, TERM_INDEX
from .checkers_polynomial import N_TERMS, TERMS


@dataclass(frozen=True)
class TDLeafSpec:
    """Step size ``alpha`` on θ, trace decay ``lam``, the squashing ``scale`` of J and the coefficient
    ``unit`` (score units; one man is 2**21 with the default piece weight)."""

    alpha: float = 1.0
    lam: float = 0.7
    scale: float = 2.0**22
    unit: float = 2.0**16

    def __post_init__(self) -> None:
        for name in ("alpha", "scale", "unit"):
            v = getattr(self, name)
            if not (isinstance(v, (int, float)) and not isinstance(v, bool) and np.isfinite(v) and v > 0):
                raise ValueError(f"{name} must be a positive number, got {v!r}")
        if not (isinstance(self.lam, (int, float)) and 0.0 <= self.lam <= 1.0):
            raise ValueError(f"lam must lie in [0, 1], got {self.lam!r}")

    def to_dict(self) -> dict:
        return asdict(self)


@njit(cache=True)
def weights_of(theta: np.ndarray, unit: float, out: np.ndarray) -> None:
    """The coefficient vector (float64[N_TERMS], :data:`TERMS` order) of θ (float64[38])."""
    out[:] = 0.0
    for t in range(N_SAMUEL):
        out[TERM_INDEX[t]] = unit * theta[t]


@njit(cache=True)
def leaf_gradient(terms: np.ndarray, leaf_passive: int, j: float, unit: float, scale: float, grad: np.ndarray) -> None:
    """∇_θ J for a leaf whose terms (credited to ``leaf_passive``, the side that had just moved there) are
    ``terms`` (float64[N_TERMS]) and whose squashed value for Black is ``j``."""
    sign = 1.0 if leaf_passive == 0 else -1.0
    f = (1.0 - j * j) * unit / scale * sign
    for t in range(N_SAMUEL):
        grad[t] = f * terms[TERM_INDEX[t]]


@njit(cache=True)
def td_leaf_update(values: np.ndarray, grads: np.ndarray, n: int, alpha: float, lam: float, theta: np.ndarray) -> float:
    """Apply the TD-Leaf(λ) step for one game: ``values[0..n]`` (``values[n]`` = the outcome), ``grads[0..n−1]``.
    Returns the size (L2 norm) of the step."""
    step = np.zeros(theta.shape[0])
    e = 0.0
    for t in range(n - 1, -1, -1):
        e = (values[t + 1] - values[t]) + lam * e
        for k in range(theta.shape[0]):
            step[k] += grads[t, k] * e
    norm = 0.0
    for k in range(theta.shape[0]):
        d = alpha * step[k]
        theta[k] += d
        norm += d * d
    return np.sqrt(norm)


def named(theta: np.ndarray, unit: float) -> dict[str, float]:
    """The nonzero coefficients by term name."""
    w = np.zeros(N_TERMS)
    weights_of(np.asarray(theta, dtype=np.float64), unit, w)
    return {TERMS[k]: float(w[k]) for k in np.flatnonzero(w)}
