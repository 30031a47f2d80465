"""Notebook 05's runs: random-walk TD vs Monte Carlo vs TD(λ) (seed 004 §4.3–4.4, App. A, App. C).

Everything a notebook cell calls returns data (numpy arrays, dataclasses); plotting is in
:mod:`tdbook.plots.random_walk`.  Runs are seeded: run ``r`` of every configuration uses coin
stream ``r`` of the seed, so all configurations see the same walks (common random numbers) and
TD(λ=0) reproduces TD(0) bit for bit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numba import njit
from tqdm.auto import tqdm

from ..claims import table_path
from ..core import profiles
from ..games.random_walk import (
    check_n_states,
    format_walk,
    parse_start,
    parse_walk,
    rms_error,
    sample_walks,
    state_names,
    true_values,
)
from ..learners.tabular import (
    METHODS,
    TRACES,
    batch_fixed_points,
    check_args,
    play_episode,
    run_batch,
    run_many,
    td_lambda_step,
)

#: Profile defaults for notebook 05 (see :func:`config`).
PROFILES: dict[str, dict[str, Any]] = {
    "quick": {
        "RUNS": 200,
        "EPISODES": 100,
        "START": "C",
        "TD_ALPHAS": [0.05, 0.10, 0.15],
        "MC_ALPHAS": [0.01, 0.02, 0.03, 0.04],
        "LAMBDAS": [0.0, 0.2, 0.4, 0.5, 0.6, 0.8, 1.0],
        "LAMBDA_ALPHA": 0.1,
        "SEARCH_MAX_LEN": 14,
        "SEARCH_BUDGET": 20_000_000,
        "SURFACE_RUNS": 50,
        "SURFACE_LAMBDAS": [0.0, 0.4, 0.8, 0.9, 1.0],
        "SURFACE_ALPHAS": 10,
        "BATCH_RUNS": 20,
        "BATCH_EPISODES": 100,
    },
    "standard": {
        "RUNS": 1000,
        "EPISODES": 100,
        "START": "C",
        "TD_ALPHAS": [0.05, 0.10, 0.15],
        "MC_ALPHAS": [0.01, 0.02, 0.03, 0.04],
        "LAMBDAS": [0.0, 0.2, 0.4, 0.5, 0.6, 0.8, 1.0],
        "LAMBDA_ALPHA": 0.1,
        "SEARCH_MAX_LEN": 30,
        "SEARCH_BUDGET": 2_000_000_000,
        "SURFACE_RUNS": 1000,
        "SURFACE_LAMBDAS": [0.0, 0.2, 0.4, 0.6, 0.8, 0.9, 0.95, 1.0],
        "SURFACE_ALPHAS": 25,
        "BATCH_RUNS": 200,
        "BATCH_EPISODES": 100,
    },
    "full": {
        "RUNS": 10000,
        "EPISODES": 100,
        "START": "C",
        "TD_ALPHAS": [0.05, 0.10, 0.15],
        "MC_ALPHAS": [0.01, 0.02, 0.03, 0.04],
        "LAMBDAS": [0.0, 0.2, 0.4, 0.5, 0.6, 0.8, 1.0],
        "LAMBDA_ALPHA": 0.1,
        "SEARCH_MAX_LEN": 38,
        "SEARCH_BUDGET": 50_000_000_000,
        "SURFACE_RUNS": 10000,
        "SURFACE_LAMBDAS": [0.0, 0.2, 0.4, 0.6, 0.8, 0.9, 0.95, 1.0],
        "SURFACE_ALPHAS": 40,
        "BATCH_RUNS": 1000,
        "BATCH_EPISODES": 100,
    },
}


def config(profile: str, **knobs: Any) -> profiles.Config:
    """Resolve notebook 05's knobs for ``profile`` (a knob passed as None takes the profile default)."""
    cfg = profiles.resolve(profile, PROFILES, **knobs)
    check_args("td0", 0.1, 0.0, "standard", cfg.START, 5, cfg.RUNS, cfg.EPISODES, 0)
    for a in list(cfg.TD_ALPHAS) + list(cfg.MC_ALPHAS) + [cfg.LAMBDA_ALPHA]:
        check_args("td0", a)
    for lam in list(cfg.LAMBDAS) + list(cfg.SURFACE_LAMBDAS):
        check_args("tdlambda", 0.1, lam)
    for name in ("SEARCH_MAX_LEN", "SEARCH_BUDGET", "SURFACE_RUNS", "SURFACE_ALPHAS", "BATCH_RUNS", "BATCH_EPISODES"):
        if cfg[name] < 1:
            raise ValueError(f"{name} must be >= 1, got {cfg[name]!r}")
    return cfg


# ----------------------------------------------------------------------------- App. C data


def appendix_c() -> np.ndarray:
    """App. C (p. 122) as printed: 100 rows × (A, B, C, D, E, RMS); row k = estimates *before* episode k."""
    t = np.loadtxt(table_path("powell2000", "appendix_c"), comments="#", skiprows=3, delimiter="\t")
    if t.shape != (100, 7) or not np.array_equal(t[:, 0], np.arange(1, 101)):
        raise ValueError(
            f"{table_path('powell2000', 'appendix_c')} is corrupt: expected 100 numbered rows of 7 columns"
        )
    return t[:, 1:]


def initial_rms(n_states: int = 5, init: float = 0.5) -> float:
    """RMS error of the all-``init`` estimate against the true values (App. C row 1: 0.2357)."""
    return float(rms_error(np.full(n_states, init), true_values(n_states)))


def replay(
    walks: Sequence[str | np.ndarray],
    values: Sequence[float] | None = None,
    alpha: float = 0.1,
    lam: float = 0.5,
    trace: str = "thesis",
    method: str = "tdlambda",
) -> np.ndarray:
    """Apply scripted walks (e.g. ``"D,E,D,E,Room2"``) one after another; returns the estimates before
    the first walk and after each, shape ``(len(walks)+1, 5)``.  App. A update rule; §4.4 Code 4.3."""
    m, t, n, _ = check_args(method, alpha, lam, trace)
    V = np.zeros(n + 2)
    V[1 : n + 1] = 0.5 if values is None else np.asarray(values, dtype=float)
    out = [V[1 : n + 1].copy()]
    for w in walks:
        pos = parse_walk(w, n) if isinstance(w, str) else np.asarray(w, dtype=np.int64)
        play_episode(V, pos, m, t, float(alpha), float(lam))
        out.append(V[1 : n + 1].copy())
    return np.array(out)


@njit(cache=True)
def search_episode(
    V0: np.ndarray,
    target: np.ndarray,
    start: int,
    alpha: float,
    lam: float,
    trace: int,
    tol: float,
    dmax: float,
    max_len: int,
    budget: int,
    sol_pos: np.ndarray,
    sol_len: np.ndarray,
    sol_vals: np.ndarray,
) -> tuple[int, int, bool]:
    """Depth-first search over walks from ``start`` (≤ ``max_len`` steps) whose TD(λ) episode turns the
    estimates ``V0`` (length n+2) into ``target`` (length n) to within ``tol`` in every state.

    Pruning (never discards a walk that stays within the δ bound): a state s that is off its target by
    more than it can still move without being revisited — at most α·dmax·e[s]/(1−λ), its trace decaying
    by λ per list entry per step — must be visited again, and the walk must still be able to cover all
    such states and reach a room within ``max_len`` steps.  ``dmax`` bounds |δ|.  Returns
    ``(solutions, nodes, complete)``; the first ``len(sol_len)`` solutions are stored.
    """
    n = V0.shape[0] - 2
    L = max_len
    Vs = np.zeros((L + 1, n + 2))
    es = np.zeros((L + 1, n + 2))
    cs = np.zeros((L + 1, n + 2), dtype=np.int64)
    pos = np.zeros(L + 1, dtype=np.int64)
    choice = np.zeros(L + 1, dtype=np.int64)
    for x in range(n + 2):
        Vs[0, x] = V0[x]
    Vs[0, 0] = 0.0
    Vs[0, n + 1] = 0.0
    pos[0] = start
    K = alpha * dmax / (1.0 - lam) if lam < 1.0 else 1e300
    keep = sol_len.shape[0]
    nsol = 0
    nodes = 0
    d = 0
    while d >= 0:
        if choice[d] == 2:
            d -= 1
            continue
        if nodes >= budget:
            return nsol, nodes, False
        ch = choice[d]
        choice[d] += 1
        q = pos[d] - 1 + 2 * ch
        m = d + 1
        for x in range(n + 2):
            Vs[m, x] = Vs[d, x]
            es[m, x] = es[d, x]
            cs[m, x] = cs[d, x]
        td_lambda_step(Vs[m], es[m], cs[m], pos[d], q, n, alpha, lam, trace)
        nodes += 1
        if q == 0 or q == n + 1:
            ok = True
            for x in range(n):
                if abs(Vs[m, x + 1] - target[x]) > tol:
                    ok = False
                    break
            if ok:
                if nsol < keep:
                    for j in range(m):
                        sol_pos[nsol, j] = pos[j]
                    sol_pos[nsol, m] = q
                    sol_len[nsol] = m
                    for x in range(n + 2):
                        sol_vals[nsol, x] = Vs[m, x]
                nsol += 1
            continue
        if m >= L:
            continue
        lo = q
        hi = q
        for x in range(1, n + 1):
            if x != q and abs(target[x - 1] - Vs[m, x]) - tol > K * es[m, x]:
                if x < lo:
                    lo = x
                if x > hi:
                    hi = x
        c1 = (hi - q) + hi  # cover up to hi, then leave through Room 1
        c2 = (q - lo) + (n + 1 - lo)  # cover down to lo, then leave through Room 2
        if m + (c1 if c1 < c2 else c2) > L:
            continue
        d = m
        pos[d] = q
        choice[d] = 0
    return nsol, nodes, True


#: printed values carry ±5e-5 rounding; a simulated value "agrees to 4 decimals" within this
TOL_EXACT = 5.01e-5
#: from a *printed* (rounded) start the error can double: start rounding + print rounding
TOL_ROUNDED = 1.01e-4


@dataclass
class Transition:
    """One App. C row-to-row transition (row k → k+1, i.e. episode k)."""

    row: int
    found: bool
    exact_chain: bool  # searched from the exact simulated state carried from row 1 (else from printed row k)
    tol: float
    walk: str = ""
    steps: int = 0
    solutions: int = 0
    horizon: int = 0  # every walk of ≤ horizon steps was examined (when complete)
    complete: bool = True
    max_dev: float = float("nan")
    nodes: int = 0
    values: np.ndarray = field(default_factory=lambda: np.zeros(0))


@dataclass
class Reconstruction:
    """Result of :func:`reconstruct_appendix_c`."""

    trace: str
    start: str
    alpha: float
    lam: float
    max_len: int
    transitions: list[Transition]

    @property
    def found(self) -> int:
        return sum(t.found for t in self.transitions)

    @property
    def exact(self) -> int:
        """Transitions matched to 4 decimals from the exact state carried forward from row 1."""
        return sum(t.found and t.exact_chain for t in self.transitions)

    @property
    def exact_prefix(self) -> int:
        """How many transitions from row 1 on are reconstructed in one unbroken exact chain."""
        k = 0
        for t in self.transitions:
            if not (t.found and t.exact_chain):
                break
            k += 1
        return k

    @property
    def first_failure(self) -> int | None:
        """The row k whose transition k → k+1 is the first with no matching walk (None if none)."""
        for t in self.transitions:
            if not t.found:
                return t.row
        return None

    @property
    def unique(self) -> int:
        return sum(t.found and t.solutions == 1 for t in self.transitions)

    def max_dev(self, exact_only: bool = False) -> float:
        d = [t.max_dev for t in self.transitions if t.found and (t.exact_chain or not exact_only)]
        return float(max(d)) if d else float("nan")

    def walks(self) -> list[str]:
        return [t.walk for t in self.transitions]

    def table(self) -> list[dict[str, Any]]:
        return [
            {
                "rows": f"{t.row}→{t.row + 1}",
                "found": t.found,
                "from": "exact" if t.exact_chain else "printed",
                "steps": t.steps or "",
                "walk": t.walk,
                "solutions": t.solutions,
                "searched ≤": t.horizon,
                "max |sim − printed|": (f"{t.max_dev:.1e}" if t.found else ""),
            }
            for t in self.transitions
        ]

    def as_table(self, caption: str = "") -> Any:
        """The per-transition table, displayable in a notebook."""
        from ..results import Table

        rows = self.table()
        return Table(list(rows[0]), [list(r.values()) for r in rows], caption)


def reconstruct_appendix_c(
    trace: str = "thesis",
    start: str = "D",
    alpha: float = 0.1,
    lam: float = 0.5,
    max_len: int = 26,
    budget: int = 2_000_000_000,
    rows: int = 99,
    dmax: float = 1.3,
    stop_at_first_failure: bool = False,
    progress: bool = True,
) -> Reconstruction:
    """Find, for each App. C transition, the walks that turn printed row k into printed row k+1 (App. A rule).

    The exact simulated estimates are carried forward from row 1 while every transition matches to
    4 decimals (|sim − printed| ≤ 5.01e-5); after a transition with no matching walk of ≤ ``max_len``
    steps the chain is broken, and later transitions start from the printed row with tolerance 1.01e-4
    (rounded start + rounded print).  Iterative deepening in steps of 4; once a walk is found the search
    is repeated 4 steps deeper (within ``max_len``) to test uniqueness.  ``dmax`` bounds |δ| for pruning
    (values stay in [−0.15, 1.15]).  Seed 004 App. A, App. C.
    """
    m, t, n, spos = check_args("tdlambda", alpha, lam, trace, start)
    if not isinstance(max_len, int) or max_len < 2:
        raise ValueError(f"max_len must be an int >= 2, got {max_len!r}")
    tab = appendix_c()[:, :n]
    V = np.zeros(n + 2)
    V[1 : n + 1] = tab[0]
    exact = True
    out: list[Transition] = []
    keep = 8
    for k in tqdm(range(min(rows, 99)), desc=f"App. C search ({trace}, start {start})", disable=not progress):
        if not exact:
            V = np.zeros(n + 2)
            V[1 : n + 1] = tab[k]
        tol = TOL_EXACT if exact else TOL_ROUNDED
        tr = Transition(row=k + 1, found=False, exact_chain=exact, tol=tol)
        lens = list(range(6, max_len, 4)) + [max_len]
        for L in lens:
            sp = np.zeros((keep, L + 1), dtype=np.int64)
            sl = np.zeros(keep, dtype=np.int64)
            sv = np.zeros((keep, n + 2))
            ns, nodes, complete = search_episode(
                V, tab[k + 1], spos, float(alpha), float(lam), t, tol, dmax, L, budget, sp, sl, sv
            )
            tr.nodes += nodes
            tr.horizon, tr.complete = L, complete
            if ns:
                tr.found = True
                tr.walk = format_walk(sp[0, : sl[0] + 1], n)
                tr.steps = int(sl[0])
                tr.values = sv[0, 1 : n + 1].copy()
                tr.max_dev = float(np.max(np.abs(tr.values - tab[k + 1])))
                tr.solutions = ns
                L2 = min(L + 4, max_len)
                if L2 > L:  # uniqueness: look a little deeper
                    sp = np.zeros((keep, L2 + 1), dtype=np.int64)
                    sl = np.zeros(keep, dtype=np.int64)
                    sv = np.zeros((keep, n + 2))
                    ns2, nodes2, complete2 = search_episode(
                        V, tab[k + 1], spos, float(alpha), float(lam), t, tol, dmax, L2, budget, sp, sl, sv
                    )
                    tr.nodes += nodes2
                    tr.solutions, tr.horizon, tr.complete = ns2, L2, complete2
                break
            if not complete:
                break
        out.append(tr)
        if tr.found and exact:
            V = np.zeros(n + 2)
            V[1 : n + 1] = tr.values
        else:
            exact = False
        if stop_at_first_failure and not tr.found:
            break
    return Reconstruction(trace, start, float(alpha), float(lam), max_len, out)


def replay_reconstruction(rec: Reconstruction) -> np.ndarray:
    """Replay the exact chain of reconstructed walks from App. C row 1 (rows 1..exact_prefix+1)."""
    k = rec.exact_prefix
    return replay(rec.walks()[:k], appendix_c()[0, :5], rec.alpha, rec.lam, rec.trace)


# ----------------------------------------------------------------------------- learning curves


@dataclass
class Curve:
    """RMS error (over the states, before each episode) averaged over runs, with a 95% band."""

    label: str
    mean: np.ndarray
    halfwidth: np.ndarray  # 1.96 × standard error over runs
    median: np.ndarray
    sd: np.ndarray
    diverged: float  # fraction of runs whose RMS passed 1e6 or became non-finite (their RMS counts as inf)
    runs: int

    def at(self, episode: int) -> float:
        return float(self.mean[episode])


def _summarise(label: str, rms: np.ndarray) -> Curve:
    runs = rms.shape[0]
    with np.errstate(over="ignore", invalid="ignore"):
        bad = ~np.isfinite(rms) | (rms > 1e6)
        r = np.where(bad, np.inf, rms)
        mean = r.mean(axis=0)
        sd = r.std(axis=0, ddof=1) if runs > 1 else np.zeros(rms.shape[1])
        median = np.median(r, axis=0)
    return Curve(label, mean, 1.96 * sd / np.sqrt(runs), median, sd, float(bad.any(axis=1).mean()), runs)


def curve(
    method: str,
    alpha: float,
    lam: float = 0.0,
    trace: str = "standard",
    start: str = "C",
    runs: int = 100,
    episodes: int = 100,
    seed: int = 0,
    label: str | None = None,
) -> Curve:
    """One averaged RMS learning curve (§4.3 Fig. 4.3, §4.4 Fig. 4.4)."""
    with np.errstate(over="ignore", invalid="ignore"):
        rms = run_many(method, alpha, lam, trace, start, runs=runs, episodes=episodes, seed=seed, record="rms")
    if label is None:
        label = {"td0": f"TD(0) α={alpha:g}", "mc": f"MC α={alpha:g}"}.get(method, f"TD(λ={lam:g}) α={alpha:g}")
    return _summarise(label, rms)


def fig43(cfg: Any, seed: int) -> dict[str, list[Curve]]:
    """Fig. 4.3: TD(0) for each α in ``TD_ALPHAS`` and constant-α MC for each α in ``MC_ALPHAS``."""
    jobs = [("td0", a) for a in cfg.TD_ALPHAS] + [("mc", a) for a in cfg.MC_ALPHAS]
    out: dict[str, list[Curve]] = {"td0": [], "mc": []}
    for method, a in tqdm(jobs, desc="Fig. 4.3 curves"):
        out[method].append(curve(method, a, start=cfg.START, runs=cfg.RUNS, episodes=cfg.EPISODES, seed=seed))
    return out


def fig44(cfg: Any, seed: int) -> dict[str, list[Curve]]:
    """Fig. 4.4: TD(λ) at α = ``LAMBDA_ALPHA`` for each λ in ``LAMBDAS``, in both trace semantics."""
    out: dict[str, list[Curve]] = {"standard": [], "thesis": []}
    jobs = [(tr, lam) for tr in out for lam in cfg.LAMBDAS]
    for tr, lam in tqdm(jobs, desc="Fig. 4.4 curves"):
        out[tr].append(
            curve("tdlambda", cfg.LAMBDA_ALPHA, lam, tr, cfg.START, cfg.RUNS, cfg.EPISODES, seed, label=f"λ={lam:g}")
        )
    return out


def td0_identity(alpha: float, start: str, runs: int, episodes: int, seed: int) -> dict[str, bool]:
    """TD(λ=0) in each trace semantics vs TD(0): are the estimate arrays bit-identical? (§4.4 eq. 4.12–4.13)"""
    ref = run_many("td0", alpha, 0.0, "standard", start, runs=runs, episodes=episodes, seed=seed)
    return {
        tr: bool(
            np.array_equal(ref, run_many("tdlambda", alpha, 0.0, tr, start, runs=runs, episodes=episodes, seed=seed))
        )
        for tr in TRACES
    }


def single_run(
    alpha: float = 0.1,
    lam: float = 0.5,
    trace: str = "thesis",
    start: str = "D",
    episodes: int = 99,
    seed: int = 0,
    run: int = 0,
) -> tuple[np.ndarray, np.ndarray]:
    """One seeded run in App. C's format: estimates before each of ``episodes+1`` rows, and their RMS."""
    vals = run_many("tdlambda", alpha, lam, trace, start, runs=run + 1, episodes=episodes, seed=seed)[run]
    return vals, rms_error(vals, true_values(vals.shape[1]))


def appc_statistics(values: np.ndarray) -> dict[str, float]:
    """App. C style summary of runs ``(..., 100, 5)``: final RMS, minimum RMS and mean RMS over rows 51–100."""
    rms = rms_error(values, true_values(values.shape[-1]))
    return {"final": rms[..., -1], "min": rms.min(axis=-1), "mean51_100": rms[..., 50:].mean(axis=-1)}


def td_vs_mc(f43: dict[str, list[Curve]], episodes: Sequence[int] = (10, 100)) -> dict[str, Any]:
    """Fig. 4.3 verdict pieces: does every TD(0) α beat every MC α at the given episodes, and is the best
    TD(0) curve below the best MC curve at every episode 1..E?"""
    td = np.array([c.mean for c in f43["td0"]])
    mc = np.array([c.mean for c in f43["mc"]])
    out: dict[str, Any] = {f"every_td_beats_every_mc@{e}": bool(td[:, e].max() < mc[:, e].min()) for e in episodes}
    better = td[:, 1:].min(axis=0) < mc[:, 1:].min(axis=0)
    out["best_td_below_best_mc_every_episode"] = bool(better.all())
    out["episodes_best_td_not_below"] = [int(k + 1) for k in np.nonzero(~better)[0]]
    sd = np.array([c.sd[-1] for c in f43["mc"]])
    out["mc_spread_grows_with_alpha"] = bool(np.all(np.diff(sd) > 0))
    out["mc_final_sd"] = sd
    return out


def lambda_vs_fig43(
    f44: dict[str, list[Curve]],
    f43: dict[str, list[Curve]],
    lambdas: Sequence[float],
    alpha: float,
    episode: int,
    trace: str,
) -> dict[str, Any]:
    """Fig. 4.4 verdict pieces at one episode for one trace semantics: λ strictly between 0 and 1 against
    TD(0) at the same α, and against the best of all Fig. 4.3 curves."""
    mid = [c for lam, c in zip(lambdas, f44[trace]) if 0.0 < lam < 1.0]
    same = [c for c in f43["td0"] if c.label == f"TD(0) α={alpha:g}"]
    best43 = min(c.mean[episode] for c in f43["td0"] + f43["mc"])
    ref = same[0].mean[episode] if same else f44[trace][0].mean[episode]
    vals = np.array([c.mean[episode] for c in mid])
    return {
        "all_mid_lambdas_beat_td0_same_alpha": bool(np.all(vals < ref)),
        "all_mid_lambdas_beat_best_fig43": bool(np.all(vals < best43)),
        "best_mid_lambda_beats_best_fig43": bool(vals.min() < best43),
        "best_lambda": float([lam for lam in lambdas if 0.0 < lam < 1.0][int(np.argmin(vals))]),
        "best_lambda_rms": float(vals.min()),
        "td0_same_alpha_rms": float(ref),
        "best_fig43_rms": float(best43),
    }


# ----------------------------------------------------------------------------- beyond the thesis


@dataclass
class Surface:
    alphas: np.ndarray
    lambdas: list[float]
    trace: str
    at: dict[int, np.ndarray]  # episode → (λ, α) mean RMS after that many episodes (inf where runs diverge)
    diverged: dict[int, np.ndarray]

    def best(self, episode: int) -> list[tuple[float, float, float]]:
        """(λ, best α, its RMS) per λ."""
        s = self.at[episode]
        return [
            (lam, float(self.alphas[int(np.nanargmin(s[i]))]), float(np.nanmin(s[i])))
            for i, lam in enumerate(self.lambdas)
        ]


def surface_alphas(count: int, lo: float = 0.01, hi: float = 1.0) -> np.ndarray:
    """``count`` step sizes spaced evenly on a log scale from ``lo`` to ``hi`` (rounded to 4 significant digits)."""
    if count < 1:
        raise ValueError(f"count must be >= 1, got {count!r}")
    a = np.geomspace(lo, hi, count) if count > 1 else np.array([0.1])
    return np.array([float(f"{x:.4g}") for x in a])


def alpha_surface(
    lambdas: Sequence[float],
    alphas: Sequence[float],
    trace: str = "standard",
    start: str = "C",
    runs: int = 100,
    episodes: Sequence[int] = (10, 100),
    seed: int = 0,
) -> Surface:
    """Mean RMS after 10 and 100 episodes over an α × λ grid (the standard TD(λ) parameter study)."""
    E = max(episodes)
    at = {e: np.zeros((len(lambdas), len(alphas))) for e in episodes}
    dv = {e: np.zeros((len(lambdas), len(alphas))) for e in episodes}
    jobs = [(i, j) for i in range(len(lambdas)) for j in range(len(alphas))]
    for i, j in tqdm(jobs, desc="α × λ surface"):
        with np.errstate(over="ignore", invalid="ignore"):
            rms = run_many(
                "tdlambda",
                float(alphas[j]),
                float(lambdas[i]),
                trace,
                start,
                runs=runs,
                episodes=E,
                seed=seed,
                record="rms",
            )
        for e in episodes:
            x = rms[:, e]
            bad = ~np.isfinite(x) | (x > 1e6)
            dv[e][i, j] = bad.mean()
            at[e][i, j] = np.inf if bad.any() else x.mean()
    return Surface(np.asarray(alphas, float), list(lambdas), trace, at, dv)


@dataclass
class BatchResult:
    td: Curve
    mc: Curve
    sweeps_td: int
    sweeps_mc: int
    check_td: float  # max |batch TD − certainty-equivalence| over run 0's rows
    check_mc: float  # max |batch MC − sample average of returns| over run 0's rows


def batch_comparison(
    start: str = "C", runs: int = 100, episodes: int = 100, seed: int = 0, tol: float = 1e-12
) -> BatchResult:
    """Batch TD(0) vs batch MC (Sutton & Barto Example 6.3), and a check of both against the closed-form
    fixed points (sample averages for MC, the certainty-equivalence estimate for TD) on run 0."""
    truth = true_values(5)
    res = {}
    for m in tqdm(("td0", "mc"), desc="batch updating"):
        res[m] = run_batch(m, start, 5, runs, episodes, seed, tol=tol)
    pos, off = sample_walks(5, parse_start(start), episodes, seed, 0)
    dev = {"td0": 0.0, "mc": 0.0}
    for k in range(1, episodes + 1):
        mc, td = batch_fixed_points(pos, off[: k + 1], 5)
        dev["mc"] = max(dev["mc"], float(np.max(np.abs(res["mc"][0][0, k] - mc))))
        dev["td0"] = max(dev["td0"], float(np.max(np.abs(res["td0"][0][0, k] - td))))
    return BatchResult(
        _summarise("batch TD(0)", rms_error(res["td0"][0], truth)),
        _summarise("batch MC", rms_error(res["mc"][0], truth)),
        int(res["td0"][1].max()),
        int(res["mc"][1].max()),
        dev["td0"],
        dev["mc"],
    )


# ----------------------------------------------------------------------------- widget


def explore(
    method: str = "tdlambda",
    alpha: float = 0.1,
    lam: float = 0.5,
    start: str = "C",
    trace: str = "standard",
    runs: int = 100,
    episodes: int = 100,
    seed: int = 0,
) -> dict[str, Any]:
    """The widget's experiment: one configuration's averaged RMS curve plus run 0's estimates."""
    check_args(method, alpha, lam, trace, start, 5, runs, episodes, seed)
    with np.errstate(over="ignore", invalid="ignore"):
        vals = run_many(method, alpha, lam, trace, start, runs=runs, episodes=episodes, seed=seed)
    rms = rms_error(vals, true_values(5))
    label = {"td0": f"TD(0) α={alpha:g}", "mc": f"MC α={alpha:g}"}.get(method, f"TD(λ={lam:g}, {trace}) α={alpha:g}")
    return {
        "curve": _summarise(label, rms),
        "run0": vals[0],
        "truth": true_values(5),
        "names": state_names(5),
        "start": start,
    }


__all__ = [
    "PROFILES",
    "config",
    "appendix_c",
    "initial_rms",
    "replay",
    "search_episode",
    "reconstruct_appendix_c",
    "replay_reconstruction",
    "Reconstruction",
    "Transition",
    "Curve",
    "curve",
    "fig43",
    "fig44",
    "td0_identity",
    "td_vs_mc",
    "lambda_vs_fig43",
    "single_run",
    "appc_statistics",
    "alpha_surface",
    "surface_alphas",
    "Surface",
    "batch_comparison",
    "BatchResult",
    "explore",
    "METHODS",
    "TRACES",
    "check_n_states",
]
