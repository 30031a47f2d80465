"""The random walk's prediction learners: TD(0), constant-α MC, TD(λ) (Powell (2000) §4.3–4.4, App. A).

A learner is one :class:`Learner` (method, α, λ, trace semantics, start, states, initial estimate);
:func:`run_many` runs it many times, :func:`run_batch` runs batch TD(0) / batch MC.

- ``td0`` — Code 4.1 / App. A ``gTD_0``: ``V[cur] += α (r + V[next] − V[cur])`` after every step.
- ``mc`` — Code 4.2 / App. A ``gMC``: constant-α every-visit Monte Carlo; after the episode every visited
  state (in visit order, repeats included) moves ``V[s] += α (r − V[s])``.
- ``tdlambda`` — Code 4.3 / eq. 4.10–4.11 with accumulating traces, in three semantics (``trace``):

  * ``"standard"`` — the textbook rule: one trace per state, ``e[s_t] += 1``, every state moves
    ``V[s] += α δ e[s]``, then ``e ← γλ e``;
  * ``"thesis"`` — App. A's ``gTD_1`` exactly: ``current`` is pushed onto a list every step *including
    repeats*, and the list is walked, so a state visited k times is updated k times per step, its trace
    decaying by γλ after each of those updates (this is what reproduces App. C);
  * ``"replacing"`` — replacing traces, ``e[s_t] = 1`` (Singh & Sutton 1996), for comparison.

γ = 1 throughout ("no discounting", §4.4).  With λ = 0 all three equal TD(0) bit for bit.

Arrays use App. A's layout: ``V[0]`` (Room 1) and ``V[n+1]`` (Room 2) are terminal and always 0; the
reward 1 is paid on entering Room 2.  Run ``r`` of an experiment draws its coin flips from stream ``r``
of the experiment's seed, so every learner sees the same walks for the same seed.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numba import njit, prange

from ..core import rng
from ..games.random_walk import check_n_states, parse_start, true_values

METHODS: tuple[str, ...] = ("td0", "mc", "tdlambda")
TRACES: tuple[str, ...] = ("standard", "thesis", "replacing")
TD0, MC, TDLAMBDA = 0, 1, 2
STANDARD, THESIS, REPLACING = 0, 1, 2


def _check_int(name: str, value: object, lo: int) -> int:
    if not isinstance(value, (int, np.integer)) or isinstance(value, bool) or value < lo:
        raise ValueError(f"{name} must be an int >= {lo}, got {value!r}")
    return int(value)


def _is_number(x: object) -> bool:
    return isinstance(x, (int, float, np.integer, np.floating)) and not isinstance(x, bool)


def _check_init(init: float) -> None:
    if not _is_number(init) or not math.isfinite(init):
        raise ValueError(f"init (the initial estimate) must be a finite number, got {init!r}")


@dataclass(frozen=True)
class Learner:
    """One prediction learner on the walk (§4.3 Codes 4.1–4.2, §4.4 Code 4.3, App. A): ``method`` (``td0``,
    ``mc``, ``tdlambda``), step size ``alpha``, trace decay ``lam``, ``trace`` semantics (:data:`TRACES`),
    ``start`` state (a letter or a 0-based index), ``n_states`` and the initial estimate ``init``.

    Built only from valid values: each bad one raises ValueError naming it.
    """

    method: str = "td0"
    alpha: float = 0.1
    lam: float = 0.0
    trace: str = "standard"
    start: str | int = "D"
    n_states: int = 5
    init: float = 0.5

    def __post_init__(self) -> None:
        if self.method not in METHODS:
            raise ValueError(f"method must be one of {', '.join(METHODS)}, got {self.method!r}")
        if self.trace not in TRACES:
            raise ValueError(f"trace must be one of {', '.join(TRACES)}, got {self.trace!r}")
        if not _is_number(self.alpha) or not np.isfinite(self.alpha) or self.alpha <= 0:
            raise ValueError(f"alpha must be a finite number > 0, got {self.alpha!r}")
        if not _is_number(self.lam) or not (0.0 <= self.lam <= 1.0):
            raise ValueError(f"lam (λ) must be a number in [0, 1], got {self.lam!r}")
        parse_start(self.start, check_n_states(self.n_states))
        _check_init(self.init)

    @property
    def codes(self) -> tuple[int, int, int, int]:
        """``(method_code, trace_code, n, start_position)`` for the kernels."""
        n = check_n_states(self.n_states)
        return METHODS.index(self.method), TRACES.index(self.trace), n, parse_start(self.start, n)


def check_run(runs: int, episodes: int, seed: int) -> None:
    """ValueError naming ``runs``, ``episodes`` or ``seed`` unless each is an int (≥ 1, ≥ 1, ≥ 0)."""
    _check_int("runs", runs, 1)
    _check_int("episodes", episodes, 1)
    _check_int("seed", seed, 0)


# ----------------------------------------------------------------------------- one step / one episode


@njit(cache=True)
def td_lambda_step(
    V: np.ndarray, e: np.ndarray, c: np.ndarray, cur: int, nxt: int, n: int, alpha: float, lam: float, trace: int
) -> None:
    """One step of Code 4.3 / App. A ``gTD_1`` from ``cur`` to ``nxt`` (in place; §4.4).

    ``c`` counts how often each state is on App. A's ``moves`` list (thesis semantics).  Updating a
    state's list entries consecutively gives the same floating-point result as App. A's loop over the
    list, because a state's update reads only its own value and trace and the step's δ.
    """
    r = 1.0 if nxt == n + 1 else 0.0
    d = r + V[nxt] - V[cur]
    if trace == REPLACING:
        e[cur] = 1.0
    else:
        e[cur] += 1.0
    c[cur] += 1
    if trace == THESIS:
        for x in range(1, n + 1):
            for _ in range(c[x]):
                V[x] += alpha * d * e[x]
                e[x] = lam * e[x]
    else:
        for x in range(1, n + 1):
            V[x] += alpha * d * e[x]
            e[x] = lam * e[x]


@njit(cache=True)
def play_episode(V: np.ndarray, positions: np.ndarray, method: int, trace: int, alpha: float, lam: float) -> None:
    """Apply one scripted episode (positions start … room) to ``V`` (length n+2) in place; §4.3–4.4."""
    n = V.shape[0] - 2
    V[0] = 0.0
    V[n + 1] = 0.0
    e = np.zeros(n + 2)
    c = np.zeros(n + 2, dtype=np.int64)
    for k in range(positions.shape[0] - 1):
        cur = positions[k]
        nxt = positions[k + 1]
        if method == TD0:
            r = 1.0 if nxt == n + 1 else 0.0
            V[cur] = V[cur] + alpha * (r + V[nxt] - V[cur])
        elif method == MC:
            c[cur] += 1
        else:
            td_lambda_step(V, e, c, cur, nxt, n, alpha, lam, trace)
    if method == MC:
        r = 1.0 if positions[-1] == n + 1 else 0.0
        for x in range(1, n + 1):
            for _ in range(c[x]):
                V[x] = V[x] + alpha * (r - V[x])


def episode_update(
    V: np.ndarray,
    walk: Sequence[int],
    method: str = "td0",
    alpha: float = 0.1,
    lam: float = 0.0,
    trace: str = "standard",
) -> None:
    """One episode of learning on the walk in plain Python: the rule :func:`play_episode` runs jitted (Powell (2000)
    §4.3 Codes 4.1–4.2, §4.4 Code 4.3, App. A; ``tests/test_random_walk.py`` checks they agree bit for bit).

    ``V[1..n]`` are the estimates of A…E, ``V[0]`` and ``V[n+1]`` the rooms (0); ``walk`` the positions visited,
    start … room.  Entering Room 2 pays 1; no discounting (γ = 1).  ``trace``: ``"standard"`` (one trace per
    state), ``"thesis"`` (App. A's list) or ``"replacing"``."""
    n = len(V) - 2

    def reward(s: int) -> float:
        return 1.0 if s == n + 1 else 0.0

    if method == "mc":  # Code 4.2: once the episode is over, every visit moves towards its return
        ret = reward(walk[-1])
        for s in walk[:-1]:
            V[s] = V[s] + alpha * (ret - V[s])
        return
    eligibility = [0.0] * (n + 2)  # one trace per state
    visited: list[int] = []  # App. A's list of the states visited, repeats included
    for s, s_next in zip(walk[:-1], walk[1:]):
        td_error = reward(s_next) + V[s_next] - V[s]  # δ = r + V(s') − V(s)
        if method == "td0":  # Code 4.1
            V[s] = V[s] + alpha * td_error
            continue
        eligibility[s] = 1.0 if trace == "replacing" else eligibility[s] + 1.0
        visited.append(s)
        # Code 4.3: every state moves by δ times its trace, and its trace decays by λ; App. A walks its list
        for x in visited if trace == "thesis" else range(1, n + 1):
            V[x] += alpha * td_error * eligibility[x]
            eligibility[x] = lam * eligibility[x]


@njit(cache=True)
def _one_run(
    method: int,
    trace: int,
    n: int,
    start: int,
    alpha: float,
    lam: float,
    init: float,
    episodes: int,
    seed: int,
    stream: int,
    vals: np.ndarray,
    rms: np.ndarray,
    truth: np.ndarray,
) -> None:
    """One run of ``episodes`` random episodes; writes estimates/RMS before each episode and at the end."""
    st = rng.coin_state(seed, stream)
    V = np.full(n + 2, init)
    V[0] = 0.0
    V[n + 1] = 0.0
    e = np.zeros(n + 2)
    c = np.zeros(n + 2, dtype=np.int64)
    want_vals = vals.shape[0] > 0
    want_rms = rms.shape[0] > 0
    for ep in range(episodes + 1):
        if want_vals:
            for x in range(n):
                vals[ep, x] = V[x + 1]
        if want_rms:
            s = 0.0
            for x in range(n):
                dx = V[x + 1] - truth[x]
                s += dx * dx
            rms[ep] = np.sqrt(s / n)
        if ep == episodes:
            break
        cur = start
        if method == TD0:
            while True:
                nxt = cur - 1 + 2 * rng.coin(st)
                r = 1.0 if nxt == n + 1 else 0.0
                V[cur] = V[cur] + alpha * (r + V[nxt] - V[cur])
                if nxt == 0 or nxt == n + 1:
                    break
                cur = nxt
        else:
            for x in range(n + 2):
                e[x] = 0.0
                c[x] = 0
            while True:
                nxt = cur - 1 + 2 * rng.coin(st)
                if method == MC:
                    c[cur] += 1
                else:
                    td_lambda_step(V, e, c, cur, nxt, n, alpha, lam, trace)
                if nxt == 0 or nxt == n + 1:
                    break
                cur = nxt
            if method == MC:
                r = 1.0 if nxt == n + 1 else 0.0
                for x in range(1, n + 1):
                    for _ in range(c[x]):
                        V[x] = V[x] + alpha * (r - V[x])


@njit(cache=True, parallel=True)
def _many_runs(
    method: int,
    trace: int,
    n: int,
    start: int,
    alpha: float,
    lam: float,
    init: float,
    runs: int,
    episodes: int,
    seed: int,
    vals: np.ndarray,
    rms: np.ndarray,
    truth: np.ndarray,
) -> None:
    for r in prange(runs):
        # an unwanted output is passed with shape (1, 0, ...): every run gets its empty row
        iv = np.int64(r) if vals.shape[0] > 1 else np.int64(0)
        iq = np.int64(r) if rms.shape[0] > 1 else np.int64(0)
        v = vals[iv]
        q = rms[iq]
        _one_run(method, trace, n, start, alpha, lam, init, episodes, seed, r, v, q, truth)


def run_many(
    learner: Learner, runs: int = 100, episodes: int = 100, seed: int = 0, record: str = "values"
) -> np.ndarray:
    """Many independent seeded runs of ``learner`` in one jitted call (§4.3 Codes 4.1–4.3, App. A).

    ``record="values"`` returns estimates of shape ``(runs, episodes+1, n_states)`` — row 0 the initial
    estimates, row k the estimates after k episodes (App. C prints the estimate *before* each episode, so
    its row k+1 is our row k); ``record="rms"`` returns only the RMS error, shape ``(runs, episodes+1)``.
    Run ``r`` draws its coin flips from stream ``r`` of ``seed``.
    """
    if not isinstance(learner, Learner):
        raise ValueError(f"learner must be a Learner, got {type(learner).__name__}")
    check_run(runs, episodes, seed)
    m, t, n, pos = learner.codes
    if record not in ("values", "rms"):
        raise ValueError(f"record must be 'values' or 'rms', got {record!r}")
    truth = true_values(n)
    if record == "values":
        vals = np.empty((runs, episodes + 1, n))
        rms = np.empty((1, 0))
    else:
        vals = np.empty((1, 0, n))
        rms = np.empty((runs, episodes + 1))
    _many_runs(
        m,
        t,
        n,
        pos,
        float(learner.alpha),
        float(learner.lam),
        float(learner.init),
        int(runs),
        int(episodes),
        int(seed),
        vals,
        rms,
        truth,
    )
    return vals if record == "values" else rms


# ----------------------------------------------------------------------------- batch updating


@njit(cache=True)
def _batch_one(
    method: int,
    n: int,
    start: int,
    init: float,
    episodes: int,
    seed: int,
    stream: int,
    tol: float,
    max_sweeps: int,
    vals: np.ndarray,
    sweeps: np.ndarray,
) -> None:
    st = rng.coin_state(seed, stream)
    V = np.full(n + 2, init)
    V[0] = 0.0
    V[n + 1] = 0.0
    R = np.zeros(n + 2)
    R[n + 1] = 1.0
    nl = np.zeros(n + 2)  # transitions s → s-1
    nr = np.zeros(n + 2)  # transitions s → s+1
    nv = np.zeros(n + 2)  # visits (every-visit)
    sg = np.zeros(n + 2)  # sum of returns over visits
    ce = np.zeros(n + 2)  # visits in the current episode
    inc = np.zeros(n + 2)
    for x in range(n):
        vals[0, x] = V[x + 1]
    for ep in range(episodes):
        cur = start
        for x in range(n + 2):
            ce[x] = 0.0
        while True:
            b = rng.coin(st)
            nxt = cur - 1 + 2 * b
            if b == 1:
                nr[cur] += 1.0
            else:
                nl[cur] += 1.0
            ce[cur] += 1.0
            if nxt == 0 or nxt == n + 1:
                break
            cur = nxt
        g = 1.0 if nxt == n + 1 else 0.0
        vmax = 0.0
        for x in range(1, n + 1):
            nv[x] += ce[x]
            sg[x] += ce[x] * g
            if nv[x] > vmax:
                vmax = nv[x]
        # batch updating: the sum of all increments over all data so far, applied once per sweep,
        # repeated until the estimates stop moving (Sutton & Barto §6.3).
        step = 0.5 / vmax
        k = 0
        while k < max_sweeps:
            big = 0.0
            for x in range(1, n + 1):
                if method == MC:
                    inc[x] = sg[x] - nv[x] * V[x]
                else:
                    inc[x] = nl[x] * (R[x - 1] + V[x - 1] - V[x]) + nr[x] * (R[x + 1] + V[x + 1] - V[x])
            for x in range(1, n + 1):
                d = step * inc[x]
                V[x] += d
                if abs(d) > big:
                    big = abs(d)
            k += 1
            if big < tol:
                break
        sweeps[ep] = k
        for x in range(n):
            vals[ep + 1, x] = V[x + 1]


@njit(cache=True, parallel=True)
def _batch_many(
    method: int,
    n: int,
    start: int,
    init: float,
    runs: int,
    episodes: int,
    seed: int,
    tol: float,
    max_sweeps: int,
    vals: np.ndarray,
    sweeps: np.ndarray,
) -> None:
    for r in prange(runs):
        _batch_one(method, n, start, init, episodes, seed, r, tol, max_sweeps, vals[r], sweeps[r])


def run_batch(
    learner: Learner,
    runs: int = 100,
    episodes: int = 100,
    seed: int = 0,
    tol: float = 1e-12,
    max_sweeps: int = 1_000_000,
) -> tuple[np.ndarray, np.ndarray]:
    """Batch TD(0) or batch constant-α MC (``learner.method``; Sutton & Barto Example 6.3 / Fig. 6.2 style,
    beyond Powell (2000)); the learner's α, λ and trace are not used.

    After each new episode, all episodes seen so far are presented again and again — the increments of
    all their steps summed and applied once per sweep (step size 1/(2·most visits)) — until no estimate
    moves by more than ``tol``.  Returns ``(values, sweeps)``: values ``(runs, episodes+1, n)`` (row k after
    k episodes) and the sweeps each convergence took ``(runs, episodes)``.  The walks are those of
    :func:`run_many` with the same seed.
    """
    if not isinstance(learner, Learner):
        raise ValueError(f"learner must be a Learner, got {type(learner).__name__}")
    check_run(runs, episodes, seed)
    m, _, n, pos = learner.codes
    if m == TDLAMBDA:
        raise ValueError("method must be 'td0' or 'mc' for batch updating, got 'tdlambda'")
    if not _is_number(tol) or not (0 < tol < math.inf):
        raise ValueError(f"tol must be a number > 0, got {tol!r}")
    _check_int("max_sweeps", max_sweeps, 1)
    vals = np.empty((runs, episodes + 1, n))
    sweeps = np.zeros((runs, episodes), dtype=np.int64)
    _batch_many(
        m, n, pos, float(learner.init), int(runs), int(episodes), int(seed), float(tol), int(max_sweeps), vals, sweeps
    )
    return vals, sweeps


def _solve(A: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``A x = b`` by Gaussian elimination with partial pivoting in plain floating point: the same
    operations in the same order on every machine (a LAPACK solve may round differently per CPU)."""
    n = len(b)
    M = [[float(A[i, j]) for j in range(n)] + [float(b[i])] for i in range(n)]
    for k in range(n):
        piv = max(range(k, n), key=lambda i: abs(M[i][k]))
        M[k], M[piv] = M[piv], M[k]
        for i in range(k + 1, n):
            f = M[i][k] / M[k][k]
            for j in range(k, n + 1):
                M[i][j] -= f * M[k][j]
    x = [0.0] * n
    for i in range(n - 1, -1, -1):
        x[i] = (M[i][n] - math.fsum(M[i][j] * x[j] for j in range(i + 1, n))) / M[i][i]
    return np.array(x)


def batch_fixed_points(
    positions: np.ndarray, offsets: np.ndarray, n_states: int, init: float = 0.5
) -> tuple[np.ndarray, np.ndarray]:
    """Closed-form limits of batch updating for a set of episodes (plain numpy, an independent check).

    MC → the sample average of the returns that followed each visit; TD(0) → the certainty-equivalence
    estimate, the exact values of the maximum-likelihood model (transition counts) of the data.
    Unvisited states keep ``init``.  Returns ``(mc, td)`` over the n states (the linear system solved by
    :func:`_solve`, so that the check's last digits do not depend on the machine).
    """
    n = check_n_states(n_states)
    visits = np.zeros(n + 2)
    ret = np.zeros(n + 2)
    T = np.zeros((n + 2, n + 2))
    for i in range(len(offsets) - 1):
        w = positions[offsets[i] : offsets[i + 1]]
        g = 1.0 if w[-1] == n + 1 else 0.0
        for a, b in zip(w[:-1], w[1:]):
            visits[a] += 1
            ret[a] += g
            T[a, b] += 1
    mc = np.full(n, float(init))
    td = np.full(n, float(init))
    seen = np.nonzero(visits[1 : n + 1])[0] + 1
    mc[seen - 1] = ret[seen] / visits[seen]
    if len(seen):
        P = T[np.ix_(seen, seen)] / visits[seen][:, None]
        r = T[seen, n + 1] / visits[seen]
        td[seen - 1] = _solve(np.eye(len(seen)) - P, r)
    return mc, td
