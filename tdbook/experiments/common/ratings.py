"""Ratings on one scale from a round robin: the Bradley–Terry model fitted by maximum likelihood, with
intervals by resampling the start positions (for any game; notebook 02's checkers ladder uses it).

**Model.**  Player ``i`` has a strength θ_i; the expected score of ``i`` against ``j`` (win 1, draw ½,
loss 0) is σ(θ_i − θ_j), σ the logistic function.  Draws count as half a win each way — the convention of
the Elo system, whose ratings are θ · 400 / ln 10 (:data:`ELO`): 100 Elo points ≈ a 64 % expected score.
The fit maximizes Σ_{i≠j} W_ij · log σ(θ_i − θ_j) with W_ij the points ``i`` scored against ``j``, plus a
weak Gaussian prior N(0, ``prior_sd``²) on every θ (``prior_sd`` = 10, i.e. 1,737 Elo): with it a player
who never scored a point (a random mover) still has a finite rating, and the fit of players with data is
unchanged to well within its interval.  Newton's method on the concave log-likelihood; ratings are then
shifted so that the ``anchor`` player is 0.

**Intervals** (:func:`rate`): the games come in *units* — the two games of one start position, colours
swapped — that are independent of each other but not within.  Resampling the start positions with
replacement (the same resample for every pairing, as the positions are shared) and refitting gives a
bootstrap distribution of every rating and of every difference; the interval is its 2.5–97.5 % range.

**A newcomer against fixed ratings** (:func:`rate_against`): the one-dimensional maximum-likelihood rating of
a player who met only opponents whose ratings are already fixed (e.g. a snapshot of a learner against the
ladder's anchors), with a sandwich standard error over its units (robust to draws and to the pairing of
games within a unit).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

#: Elo points per unit of θ
ELO = 400.0 / math.log(10.0)


def _check_matrix(points: np.ndarray, games: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    w = np.asarray(points, dtype=np.float64)
    n = np.asarray(games, dtype=np.float64)
    if w.ndim != 2 or w.shape[0] != w.shape[1] or n.shape != w.shape:
        raise ValueError(f"points and games must be square matrices of one shape, got {w.shape} and {n.shape}")
    if not (np.all(np.isfinite(w)) and np.all(np.isfinite(n))):
        raise ValueError("points and games must be finite")
    if np.any(w < 0) or np.any(n < 0) or not np.allclose(n, n.T) or np.any(np.diag(n) != 0):
        raise ValueError("games must be symmetric, non-negative, zero on the diagonal; points non-negative")
    if not np.allclose(w + w.T, n):
        raise ValueError("points of i against j plus points of j against i must equal their games")
    return w, n


def bradley_terry(points: np.ndarray, games: np.ndarray, prior_sd: float = 10.0, tol: float = 1e-10) -> np.ndarray:
    """θ (mean 0 up to the prior) maximizing the Bradley–Terry log-likelihood plus the N(0, prior_sd²) prior
    (module docstring): ``points[i, j]`` = points ``i`` scored against ``j``, ``games[i, j]`` = games they
    played (symmetric).  ``prior_sd`` = inf fits without the prior (every player must then have scored and
    conceded, and the games must connect everyone)."""
    w, n = _check_matrix(points, games)
    if not prior_sd > 0:
        raise ValueError(f"prior_sd must be > 0 (inf for none), got {prior_sd!r}")
    k = w.shape[0]
    lam = 0.0 if math.isinf(prior_sd) else 1.0 / prior_sd**2
    theta = np.zeros(k)
    for _ in range(200):
        d = theta[:, None] - theta[None, :]
        p = 1.0 / (1.0 + np.exp(-d))
        g = (w - n * p).sum(axis=1) - lam * theta
        c = n * p * (1.0 - p)
        h = c.copy()
        np.fill_diagonal(h, -c.sum(axis=1) - lam)
        if lam == 0.0:  # fix the gauge: θ_0 = 0, solve for the rest
            step = np.zeros(k)
            step[1:] = np.linalg.solve(h[1:, 1:], g[1:])
        else:
            step = np.linalg.solve(h, g)
        theta = theta - step
        if np.max(np.abs(step)) < tol:
            break
    if lam == 0.0:
        theta -= theta.mean()
    return theta


@dataclass(frozen=True)
class Ratings:
    """Ratings in Elo relative to ``anchor`` (0), their 95 % bootstrap intervals, and the bootstrap draws
    (``boot``: reps × players, each row relative to the anchor) for intervals on differences."""

    names: tuple[str, ...]
    elo: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    anchor: str
    boot: np.ndarray
    games: np.ndarray

    def index(self, name: str) -> int:
        if name not in self.names:
            raise ValueError(f"no player {name!r}; players: {', '.join(self.names)}")
        return self.names.index(name)

    def of(self, name: str) -> tuple[float, float, float]:
        """(Elo, lower, upper) of ``name``."""
        i = self.index(name)
        return float(self.elo[i]), float(self.lo[i]), float(self.hi[i])

    def difference(self, a: str, b: str) -> tuple[float, float, float]:
        """Elo of ``a`` minus Elo of ``b`` with its 95 % bootstrap interval."""
        i, j = self.index(a), self.index(b)
        d = self.boot[:, i] - self.boot[:, j]
        return float(self.elo[i] - self.elo[j]), float(np.percentile(d, 2.5)), float(np.percentile(d, 97.5))

    def mean_of(self, names: Sequence[str]) -> tuple[float, float, float]:
        """The mean Elo of ``names`` with its 95 % bootstrap interval."""
        idx = [self.index(n) for n in names]
        m = self.boot[:, idx].mean(axis=1)
        return float(self.elo[idx].mean()), float(np.percentile(m, 2.5)), float(np.percentile(m, 97.5))

    def order(self) -> list[str]:
        """The players, strongest first."""
        return [self.names[i] for i in np.argsort(-self.elo, kind="stable")]


def matrices(
    names: Sequence[str], pairs: Sequence[tuple[str, str]], unit_points: np.ndarray, unit_games: float = 2.0
) -> tuple[np.ndarray, np.ndarray]:
    """(points, games) matrices of a round robin given per pairing ``(a, b)`` the points ``a`` scored in each
    unit (``unit_points[pair, unit]``, each unit ``unit_games`` games)."""
    k = len(names)
    pts = np.asarray(unit_points, dtype=np.float64)
    if pts.ndim != 2 or pts.shape[0] != len(pairs):
        raise ValueError(f"unit_points must be [pairs, units] for {len(pairs)} pairs, got shape {pts.shape}")
    if np.any(pts < 0) or np.any(pts > unit_games):
        raise ValueError(f"a unit's points must lie in 0..{unit_games}")
    w = np.zeros((k, k))
    n = np.zeros((k, k))
    for p, (a, b) in enumerate(pairs):
        if a not in names or b not in names or a == b:
            raise ValueError(f"pairing {(a, b)!r} is not two different players of {list(names)}")
        i, j = names.index(a), names.index(b)
        s, g = pts[p].sum(), unit_games * pts.shape[1]
        w[i, j] += s
        w[j, i] += g - s
        n[i, j] += g
        n[j, i] += g
    return w, n


def rate(
    names: Sequence[str],
    pairs: Sequence[tuple[str, str]],
    unit_points: np.ndarray,
    anchor: str,
    *,
    unit_games: float = 2.0,
    reps: int = 400,
    seed: int = 0,
    prior_sd: float = 10.0,
) -> Ratings:
    """Bradley–Terry ratings of a round robin (module docstring) with bootstrap intervals over the units, which
    are shared by all pairings (unit ``u`` of every pairing is the same start position)."""
    names = tuple(names)
    if anchor not in names:
        raise ValueError(f"anchor {anchor!r} is not a player; players: {', '.join(names)}")
    if reps < 10:
        raise ValueError(f"reps must be at least 10, got {reps!r}")
    pts = np.asarray(unit_points, dtype=np.float64)
    w, n = matrices(names, pairs, pts, unit_games)
    a = names.index(anchor)
    theta = bradley_terry(w, n, prior_sd)
    rng = np.random.default_rng([seed, 1400])
    boot = np.zeros((reps, len(names)))
    for r in range(reps):
        idx = rng.integers(0, pts.shape[1], pts.shape[1])
        wb, nb = matrices(names, pairs, pts[:, idx], unit_games)
        t = bradley_terry(wb, nb, prior_sd)
        boot[r] = (t - t[a]) * ELO
    elo = (theta - theta[a]) * ELO
    lo, hi = np.percentile(boot, 2.5, axis=0), np.percentile(boot, 97.5, axis=0)
    return Ratings(names, elo, lo, hi, anchor, boot, n)


def rate_against(
    fixed: Mapping[str, float], unit_points: Mapping[str, np.ndarray], unit_games: float = 2.0
) -> tuple[float, float]:
    """(Elo, standard error) of a newcomer from its units against opponents of fixed Elo (``fixed[name]``):
    ``unit_points[name]`` = its points in each unit against ``name``.  The maximum-likelihood rating with a
    sandwich standard error (module docstring); ValueError when it scored everything or nothing."""
    opp = [o for o in unit_points if np.asarray(unit_points[o]).size]
    if not opp:
        raise ValueError("rate_against needs at least one unit against a rated opponent")
    missing = [o for o in opp if o not in fixed]
    if missing:
        raise ValueError(f"opponents without a fixed rating: {missing}")
    th = np.array([fixed[o] / ELO for o in opp])
    pts = [np.asarray(unit_points[o], dtype=np.float64) for o in opp]
    total = sum(p.sum() for p in pts)
    games = sum(unit_games * p.size for p in pts)
    if total <= 0 or total >= games:
        raise ValueError(f"a newcomer who scored {total} of {games} points has no finite rating")
    x = float(np.dot([p.size for p in pts], th) / sum(p.size for p in pts))
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-(x - th)))
        g = sum(q.sum() - unit_games * q.size * pj for q, pj in zip(pts, p))
        i = sum(unit_games * q.size * pj * (1 - pj) for q, pj in zip(pts, p))
        step = g / i
        x += step
        if abs(step) < 1e-12:
            break
    p = 1.0 / (1.0 + np.exp(-(x - th)))
    info = sum(unit_games * q.size * pj * (1 - pj) for q, pj in zip(pts, p))
    meat = sum(float(np.sum((q - unit_games * pj) ** 2)) for q, pj in zip(pts, p))
    return float(x * ELO), float(math.sqrt(meat) / info * ELO)
