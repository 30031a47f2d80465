"""Book learning of move preferences, and how it is measured — game-agnostic.

A **book set** is a list of positions, each with the feature vectors of its legal moves (the boards they
lead to) and the one preferred move: rows ``X[starts[g]:starts[g+1]]`` are position ``g``'s moves and row
``pref[g]`` (an absolute row index) is the preferred one.

**Measures.**  Samuel's move-agreement coefficient (1959 fn. 16), C = (L − H)/(L + H) summed over the
positions: L = alternatives an evaluator rates below the preferred move, H = those it rates above (ties
count in neither); and the top-1 share: the share of positions where the preferred move is rated first,
a tie for first counting as 1/(moves tied).

**Linear comparators** of the signature tables (Samuel (1973 note) set tables against "the linear
polynomial"):

- :func:`agreement_weights` — Samuel's book-learned polynomial: each term's weight is its own agreement
  coefficient C_k = (L_k − H_k)/(L_k + H_k), L_k counting alternatives whose term value is below the preferred
  move's, H_k those above (the per-term form of Samuel 1959 fn. 16; our reading of the 1967 "book learning
  procedure", whose arithmetic we could not consult).  ``scale="sd"`` divides by each term's standard
  deviation (the terms' units differ).
- :func:`fit_softmax` — a conditional-logit (softmax over each position's moves) linear model: the maximum of
  the log-likelihood of the preferred moves (standardized features, a small L2 penalty), found by Newton's
  method — the best a linear sum of the same terms can do on the same data.
"""

from __future__ import annotations

import numpy as np
from numba import njit


def check_book(X: np.ndarray, starts: np.ndarray, pref: np.ndarray) -> None:
    """ValueError naming the problem unless ``(X, starts, pref)`` is a book set (see the module docstring)."""
    starts = np.asarray(starts)
    pref = np.asarray(pref)
    if starts.ndim != 1 or starts.size < 2 or starts[0] != 0 or starts[-1] != len(X) or np.any(np.diff(starts) < 2):
        raise ValueError("starts must rise from 0 to len(X) with at least 2 moves per position")
    if pref.shape != (starts.size - 1,) or np.any(pref < starts[:-1]) or np.any(pref >= starts[1:]):
        raise ValueError("pref must hold, for every position, the row of one of its own moves")


def alternatives(starts: np.ndarray) -> np.ndarray:
    """``k`` per row: the number of non-preferred alternatives in the row's position."""
    sizes = np.diff(starts)
    return np.repeat(sizes - 1, sizes)


def preferred_mask(starts: np.ndarray, pref: np.ndarray) -> np.ndarray:
    """True on the preferred rows."""
    m = np.zeros(int(starts[-1]), dtype=bool)
    m[pref] = True
    return m


@njit(cache=True)
def agreement_parts(scores: np.ndarray, starts: np.ndarray, pref: np.ndarray, out: np.ndarray) -> None:
    """Per position ``g``: ``out[g] = (L, H, top-1 credit)`` of the evaluator ``scores`` (one per row)."""
    for g in range(starts.size - 1):
        p = scores[pref[g]]
        lo = 0
        hi = 0
        tie = 0
        for r in range(starts[g], starts[g + 1]):
            if r == pref[g]:
                continue
            if scores[r] < p:
                lo += 1
            elif scores[r] > p:
                hi += 1
            else:
                tie += 1
        out[g, 0] = lo
        out[g, 1] = hi
        out[g, 2] = 1.0 / (1 + tie) if hi == 0 else 0.0


def agreement_by_position(scores: np.ndarray, starts: np.ndarray, pref: np.ndarray) -> np.ndarray:
    """float64[positions, 3]: each position's L, H and top-1 credit (the parts that :func:`agreement` sums,
    kept apart so that an interval can resample positions or whole games)."""
    out = np.zeros((len(starts) - 1, 3))
    agreement_parts(np.asarray(scores, dtype=np.float64), np.asarray(starts), np.asarray(pref), out)
    return out


def agreement(scores: np.ndarray, starts: np.ndarray, pref: np.ndarray) -> dict[str, float]:
    """Samuel's C = (L − H)/(L + H) (0 when L + H = 0), the top-1 share, L and H of ``scores``."""
    parts = agreement_by_position(scores, starts, pref)
    lo, hi, top = (float(v) for v in parts.sum(axis=0))
    c = (lo - hi) / (lo + hi) if lo + hi > 0 else 0.0
    return {"C": float(c), "top1": float(top / (len(starts) - 1)), "L": float(lo), "H": float(hi)}


@njit(cache=True)
def _term_counts(X, starts, pref, low, high):
    for g in range(starts.size - 1):
        p = pref[g]
        for r in range(starts[g], starts[g + 1]):
            if r == p:
                continue
            for j in range(X.shape[1]):
                if X[r, j] < X[p, j]:
                    low[j] += 1.0
                elif X[r, j] > X[p, j]:
                    high[j] += 1.0


def term_agreement(X: np.ndarray, starts: np.ndarray, pref: np.ndarray) -> np.ndarray:
    """Each feature's own agreement coefficient C_k = (L_k − H_k)/(L_k + H_k) (0 when it never differs)."""
    X = np.ascontiguousarray(X, dtype=np.float64)
    low = np.zeros(X.shape[1])
    high = np.zeros(X.shape[1])
    _term_counts(X, np.asarray(starts), np.asarray(pref), low, high)
    s = low + high
    return np.divide(low - high, s, out=np.zeros_like(s), where=s > 0)


def agreement_weights(X: np.ndarray, starts: np.ndarray, pref: np.ndarray, scale: str = "raw") -> np.ndarray:
    """Samuel's book-learned linear weights: C_k per term (``"raw"``) or C_k / sd_k (``"sd"``)."""
    if scale not in ("raw", "sd"):
        raise ValueError(f"scale must be 'raw' or 'sd', got {scale!r}")
    w = term_agreement(X, starts, pref)
    if scale == "sd":
        sd = np.asarray(X, dtype=np.float64).std(axis=0)
        w = np.divide(w, sd, out=np.zeros_like(w), where=sd > 0)
    return w


@njit(cache=True)
def _softmax_newton(Z, starts, pref, w, grad, hess, want_hess) -> float:
    """Log-likelihood of the preferred moves under the conditional logit ``w``, its gradient and (when
    ``want_hess``) minus its Hessian, summed over the positions in order."""
    m_ = Z.shape[1]
    grad[:] = 0.0
    hess[:, :] = 0.0
    mu = np.zeros(m_)
    ll = 0.0
    for g in range(starts.size - 1):
        a, b = starts[g], starts[g + 1]
        top = -1e300
        for r in range(a, b):
            s = 0.0
            for j in range(m_):
                s += Z[r, j] * w[j]
            if s > top:
                top = s
        tot = 0.0
        for r in range(a, b):
            s = 0.0
            for j in range(m_):
                s += Z[r, j] * w[j]
            tot += np.exp(s - top)
        sp = 0.0
        for j in range(m_):
            sp += Z[pref[g], j] * w[j]
        ll += sp - top - np.log(tot)
        mu[:] = 0.0
        for r in range(a, b):
            s = 0.0
            for j in range(m_):
                s += Z[r, j] * w[j]
            p = np.exp(s - top) / tot
            for j in range(m_):
                mu[j] += p * Z[r, j]
            if want_hess:
                for j in range(m_):
                    pz = p * Z[r, j]
                    for k in range(j + 1):
                        hess[j, k] += pz * Z[r, k]
        for j in range(m_):
            grad[j] += Z[pref[g], j] - mu[j]
            if want_hess:
                for k in range(j + 1):
                    hess[j, k] -= mu[j] * mu[k]
    for j in range(m_):
        for k in range(j):
            hess[k, j] = hess[j, k]
    return ll


def fit_softmax(
    X: np.ndarray, starts: np.ndarray, pref: np.ndarray, l2: float = 1e-3, tol: float = 1e-9, max_iter: int = 50
) -> np.ndarray:
    """Weights (in the features' own units) of the conditional-logit model (softmax over each position's
    moves) that maximises the mean log-likelihood of the preferred moves minus ``l2``/2 · |w|² on standardized
    features — Newton's method with step halving, to a step below ``tol`` (the objective is concave, so this
    is its one maximum); deterministic."""
    if l2 < 0 or tol <= 0 or max_iter < 1:
        raise ValueError(f"need l2 >= 0, tol > 0, max_iter >= 1; got {l2}, {tol}, {max_iter}")
    X = np.asarray(X, dtype=np.float64)
    mu, sd = X.mean(axis=0), X.std(axis=0)
    sd = np.where(sd > 0, sd, 1.0)
    Z = np.ascontiguousarray((X - mu) / sd)
    starts = np.asarray(starts, dtype=np.int64)
    pref = np.asarray(pref, dtype=np.int64)
    n, m = starts.size - 1, X.shape[1]
    w = np.zeros(m)
    grad, hess = np.zeros(m), np.zeros((m, m))

    def objective(v: np.ndarray, want_hess: bool) -> float:
        return _softmax_newton(Z, starts, pref, v, grad, hess, want_hess) / n - 0.5 * l2 * float(v @ v)

    f = objective(w, True)
    for _ in range(max_iter):
        g = grad / n - l2 * w
        h = hess / n + l2 * np.eye(m)
        step = np.linalg.solve(h + 1e-12 * np.eye(m), g)
        t = 1.0
        while True:
            f_new = objective(w + t * step, True)
            if f_new >= f - 1e-15 or t < 1e-6:
                break
            t /= 2
        w = w + t * step
        f = f_new
        if float(np.max(np.abs(t * step))) < tol:
            break
    return w / sd
