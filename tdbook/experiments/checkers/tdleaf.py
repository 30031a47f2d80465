"""TD-Leaf(λ) self-play on Samuel's terms and search (the modern baseline of notebook 02; the update rule is in
:mod:`tdbook.learners.checkers_tdleaf`).

One game (:func:`tdleaf_game`, jitted): from a 3-move ballot both colours search with the same coefficients
(α-β, plausibility ordering, Samuel's ply rules); at every ply the backed-up score, turned to Black's view and
squashed, and the gradient at the principal variation's leaf are recorded; at the end the TD-Leaf(λ) step is
applied.  Games follow the same cutoff as Samuel's self-play (70 plies, judged by piece credit), and game
``g`` starts from ballot ``perm[g mod 157]`` of a seeded permutation.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
from numba import njit

from ...games.checkers import ballots
from ...games.checkers_bitboard import BUF_COLS, BUF_ROWS
from ...games.checkers_features import ALL_PARAMS, N_PARAMS, scratch
from ...learners.checkers_generalization import N_SAMUEL
from ...learners.checkers_polynomial import N_TERMS, TERMS, Polynomial, natural_params, score
from ...learners.checkers_tdleaf import TDLeafSpec, leaf_gradient, td_leaf_update, weights_of
from ...players.checkers import advance, game_end
from ...players.checkers_search import (
    F_PIECE,
    I_CONSTRUCTION,
    I_NEED,
    MAX_PLY,
    S_BEST,
    WIN,
    SearchRules,
    Workspace,
    pv_boards,
    search,
    search_spec,
)

MAX_GAME_PLIES = 1024


@njit(cache=True)
def tdleaf_game(start, limits, theta, learn, spec, ws, work) -> tuple[float, int, float]:
    """One self-play game from ``start`` (int64[7]) under ``limits`` (quiet limit, move limit, adjudicate) with
    the coefficients ``unit · θ``, then the TD-Leaf(λ) step on θ (in place).  ``learn`` = (alpha, lam, scale,
    unit); ``spec`` = the search spec (its weights are rewritten from θ).  Returns (result for Black, plies,
    size of the step)."""
    alpha, lam, scale, unit = learn[0], learn[1], learn[2], learn[3]
    ints, floats = spec
    values, grads, boards, pparams, params, other, terms, buf, fbuf = work
    weights_of(theta, unit, floats[:N_TERMS])
    ints[I_NEED] = ALL_PARAMS
    construction = ints[I_CONSTRUCTION]
    pw = floats[F_PIECE]
    root = np.zeros(6, dtype=np.int64)
    bm, bk, wm, wk, side, quiet, ply = start[0], start[1], start[2], start[3], start[4], start[5], start[6]
    last_jump = 0
    n = 0
    res = 0.0
    while True:
        nm, over, res = game_end(bm, bk, wm, wk, side, quiet, ply, limits[0], limits[1], limits[2], buf)
        if over or n >= values.shape[0] - 1:
            break
        root[0], root[1], root[2], root[3], root[4], root[5] = bm, bk, wm, wk, side, last_jump
        v = search(root, ints, floats, ws)
        i = ws[-1][S_BEST]
        vb = v if side == 0 else -v
        j = np.tanh(vb / scale)
        values[n] = j
        grads[n, :] = 0.0
        npv = pv_boards(root, ws, boards)
        if npv > 0 and abs(v) < WIN - MAX_PLY:
            leaf = boards[npv]
            par = boards[npv - 1]
            if construction == 0:
                natural_params(par[0], par[1], par[2], par[3], par[4], pparams, fbuf, ALL_PARAMS)
            score(
                leaf[0], leaf[1], leaf[2], leaf[3], leaf[4], pparams, floats[:N_TERMS], pw, construction, ALL_PARAMS,
                params, other, terms, fbuf,
            )  # fmt: skip
            leaf_gradient(terms, 1 - leaf[4], j, unit, scale, grads[n])
        n += 1
        bm, bk, wm, wk, side, quiet, ply, last_jump = advance(bm, bk, wm, wk, side, quiet, ply, buf[i])
    values[n] = res
    size = td_leaf_update(values, grads, n, alpha, lam, theta)
    weights_of(theta, unit, floats[:N_TERMS])
    return res, n, size


@dataclass(frozen=True)
class TDLeafRun:
    """Settings of a TD-Leaf(λ) self-play run besides the number of games: the rule ``learn``, ``seed`` (ballot
    order), the search ``rules``, the cutoff ``move_limit`` (plies, judged by material) and ``quiet_limit``."""

    learn: TDLeafSpec = field(default_factory=TDLeafSpec)
    seed: int = 1
    rules: SearchRules = field(default_factory=SearchRules.samuel)
    move_limit: int = 70
    quiet_limit: int = 80
    piece_weight: float = 2.0**20

    def __post_init__(self) -> None:
        for name in ("move_limit", "quiet_limit"):
            v = getattr(self, name)
            if not isinstance(v, (int, np.integer)) or isinstance(v, bool) or v < 1:
                raise ValueError(f"{name} must be a positive int, got {v!r}")
        if not isinstance(self.seed, (int, np.integer)) or isinstance(self.seed, bool) or self.seed < 0:
            raise ValueError(f"seed must be a non-negative int, got {self.seed!r}")

    def settings(self) -> dict[str, Any]:
        d = asdict(self)
        d["rules"] = asdict(self.rules)
        return d


class TDLeaf:
    """A TD-Leaf(λ) training run in progress (a :class:`~tdbook.experiments.checkers.training.Run`)."""

    method = "tdleaf"
    LOGS = ("result", "plies", "ballot")

    def __init__(self, spec: TDLeafRun, games: int) -> None:
        self.spec = spec
        self.theta = np.zeros(N_SAMUEL)
        self.perm = np.random.default_rng([spec.seed, 157]).permutation(len(_BALLOTS))
        ls = spec.learn
        self.learn = np.array([ls.alpha, ls.lam, ls.scale, ls.unit], dtype=np.float64)
        self.ints, self.floats = search_spec(Polynomial({}, spec.piece_weight), spec.rules, True)
        self.ws = Workspace()
        self.work = (
            np.zeros(MAX_GAME_PLIES + 1), np.zeros((MAX_GAME_PLIES, N_SAMUEL)), np.zeros((MAX_PLY + 2, 5), np.int64),
            np.zeros(N_PARAMS), np.zeros(N_PARAMS), np.zeros(N_PARAMS), np.zeros(N_TERMS),
            np.zeros((BUF_ROWS, BUF_COLS), np.int64), scratch(),
        )  # fmt: skip
        self.log = {k: np.zeros(games, dtype=np.int64) for k in self.LOGS}
        self.step = np.zeros(games)
        self.history = np.zeros((games, N_SAMUEL), dtype=np.float32)  # θ after each game
        self.done = 0

    def settings(self) -> dict[str, Any]:
        return self.spec.settings()

    def play(self, g: int) -> None:
        if g >= self.step.shape[0]:
            self._grow(g + 1)
        k = int(self.perm[g % len(_BALLOTS)])
        s = _BALLOTS[k][1]
        start = np.array([*s.words, s.side, s.quiet, s.ply], dtype=np.int64)
        limits = np.array([self.spec.quiet_limit, self.spec.move_limit, 1], dtype=np.int64)
        res, n, size = tdleaf_game(
            start, limits, self.theta, self.learn, (self.ints, self.floats), self.ws.arrays, self.work
        )
        if not np.all(np.isfinite(self.theta)):
            raise FloatingPointError(f"TD-Leaf: θ became non-finite in game {g}; lower --alpha")
        self.log["result"][g], self.log["plies"][g], self.log["ballot"][g] = int(res), n, k
        self.step[g] = size
        self.history[g] = self.theta
        self.done = g + 1

    def _grow(self, n: int) -> None:
        for k in self.LOGS:
            self.log[k] = np.concatenate([self.log[k], np.zeros(n - self.log[k].shape[0], dtype=np.int64)])
        self.step = np.concatenate([self.step, np.zeros(n - self.step.shape[0])])
        self.history = np.concatenate([self.history, np.zeros((n - self.history.shape[0], N_SAMUEL), np.float32)])

    def arrays(self) -> dict[str, np.ndarray]:
        d = self.done
        out = {"theta": self.theta, "log_step": self.step[:d], "log_theta": self.history[:d]}
        return out | {f"log_{k}": v[:d] for k, v in self.log.items()}

    def restore(self, data: dict[str, np.ndarray], games: int) -> None:
        th = np.asarray(data["theta"], dtype=np.float64)
        if th.shape != (N_SAMUEL,) or not np.all(np.isfinite(th)):
            raise ValueError(f"theta has shape {th.shape} (want ({N_SAMUEL},)) or non-finite values")
        self.theta = th.copy()
        n = max(games, self.step.shape[0])
        for k in self.LOGS:
            a = data[f"log_{k}"]
            if a.shape[0] != games:
                raise ValueError(f"log_{k} has {a.shape[0]} rows for {games} games")
            self.log[k] = np.zeros(n, dtype=np.int64)
            self.log[k][:games] = a
        self.step = np.zeros(n)
        self.step[:games] = data["log_step"]
        self.history = np.zeros((n, N_SAMUEL), np.float32)
        self.history[:games] = data["log_theta"]
        self.done = games

    def postfix(self) -> dict[str, str]:
        d = self.done
        st = self.step[max(0, d - 100) : d]
        return {"|Δθ| (last 100)": f"{st.mean():.3g}" if st.size else "-", "|θ|": f"{np.abs(self.theta).max():.3g}"}

    def weights(self) -> np.ndarray:
        w = np.zeros(N_TERMS)
        weights_of(self.theta, self.spec.learn.unit, w)
        return w

    def polynomial(self) -> Polynomial:
        w = self.weights()
        return Polynomial({TERMS[k]: float(w[k]) for k in np.flatnonzero(w)}, self.spec.piece_weight)


_BALLOTS = ballots()
