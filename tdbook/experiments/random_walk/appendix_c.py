"""Notebook 05's Appendix C: the logged TD(0.5) run of Powell (2000) App. C, row by row (App. A's update rule).

- :func:`appendix_c` — the transcribed table (100 rows: A–E and RMS *before* each episode);
- :func:`replay` — scripted walks through App. A's rule (a printed row → the next printed row);
- :func:`reconstruct_appendix_c` — for every row-to-row transition, a jitted depth-first search over
  walks from the start state that reproduce the next printed row (:func:`search_episode`);
- :func:`appc_statistics` and :func:`single_run` — App. C's summary numbers and one seeded run in its format.

The claims' measured values of this part of the notebook are in :mod:`tdbook.experiments.random_walk.random_walk`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numba import njit
from tqdm.auto import tqdm

from ...claims import table_path
from ...games.random_walk import format_walk, parse_walk, rms_error, true_values
from ...learners.random_walk import Learner, play_episode, run_many, td_lambda_step

#: App. A's TD(λ) as App. C ran it: α = 0.1, λ = 0.5, duplicate-list ("thesis") traces, start D
APPENDIX_C_LEARNER = Learner("tdlambda", 0.1, 0.5, "thesis", "D")


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
    walks: Sequence[str | np.ndarray], values: Sequence[float] | None = None, learner: Learner = APPENDIX_C_LEARNER
) -> np.ndarray:
    """Apply scripted walks (e.g. ``"D,E,D,E,Room2"``) one after another with ``learner``'s rule; returns the
    estimates before the first walk and after each, shape ``(len(walks)+1, n)``.  App. A; §4.4 Code 4.3."""
    m, t, n, _ = learner.codes
    V = np.zeros(n + 2)
    V[1 : n + 1] = 0.5 if values is None else np.asarray(values, dtype=float)
    out = [V[1 : n + 1].copy()]
    for w in walks:
        pos = parse_walk(w, n) if isinstance(w, str) else np.asarray(w, dtype=np.int64)
        play_episode(V, pos, m, t, float(learner.alpha), float(learner.lam))
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


@dataclass(frozen=True)
class Search:
    """How far the App. C search looks: walks of at most ``max_len`` steps, at most ``budget`` nodes per
    search call, and ``dmax`` bounding |δ| for pruning (values stay in [−0.15, 1.15])."""

    max_len: int = 26
    budget: int = 2_000_000_000
    dmax: float = 1.3

    def __post_init__(self) -> None:
        if not isinstance(self.max_len, int) or isinstance(self.max_len, bool) or self.max_len < 2:
            raise ValueError(f"max_len must be an int >= 2, got {self.max_len!r}")
        if not isinstance(self.budget, int) or isinstance(self.budget, bool) or self.budget < 1:
            raise ValueError(f"budget must be an int >= 1, got {self.budget!r}")
        if not isinstance(self.dmax, (int, float)) or isinstance(self.dmax, bool) or not self.dmax > 0:
            raise ValueError(f"dmax must be a number > 0, got {self.dmax!r}")


@dataclass
class Reconstruction:
    """Result of :func:`reconstruct_appendix_c`."""

    learner: Learner
    search: Search
    transitions: list[Transition]

    @property
    def trace(self) -> str:
        return self.learner.trace

    @property
    def start(self) -> str | int:
        return self.learner.start

    @property
    def max_len(self) -> int:
        return self.search.max_len

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
        from ...results import Table

        rows = self.table()
        return Table(list(rows[0]), [list(r.values()) for r in rows], caption)


def reconstruct_appendix_c(
    learner: Learner = APPENDIX_C_LEARNER,
    search: Search = Search(),
    rows: int = 99,
    stop_at_first_failure: bool = False,
    progress: bool = True,
) -> Reconstruction:
    """Find, for each App. C transition, the walks that turn printed row k into printed row k+1 under
    ``learner``'s rule (a TD(λ) learner; App. A, App. C).

    The exact simulated estimates are carried forward from row 1 while every transition matches to
    4 decimals (|sim − printed| ≤ 5.01e-5); after a transition with no matching walk of ≤
    ``search.max_len`` steps the chain is broken, and later transitions start from the printed row with
    tolerance 1.01e-4 (rounded start + rounded print).  Iterative deepening in steps of 4; once a walk is
    found the search is repeated 4 steps deeper (within ``max_len``) to test uniqueness.
    """
    if not isinstance(learner, Learner) or learner.method != "tdlambda":
        raise ValueError(f"the App. C search replays a TD(λ) learner, got {learner!r}")
    m, t, n, spos = learner.codes
    alpha, lam, max_len, budget, dmax = learner.alpha, learner.lam, search.max_len, search.budget, search.dmax
    trace, start = learner.trace, learner.start
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
    return Reconstruction(learner, search, out)


def replay_reconstruction(rec: Reconstruction) -> np.ndarray:
    """Replay the exact chain of reconstructed walks from App. C row 1 (rows 1..exact_prefix+1)."""
    k = rec.exact_prefix
    return replay(rec.walks()[:k], appendix_c()[0, :5], rec.learner)


def single_run(
    learner: Learner = APPENDIX_C_LEARNER, episodes: int = 99, seed: int = 0, run: int = 0
) -> tuple[np.ndarray, np.ndarray]:
    """One seeded run in App. C's format: estimates before each of ``episodes+1`` rows, and their RMS."""
    vals = run_many(learner, runs=run + 1, episodes=episodes, seed=seed)[run]
    return vals, rms_error(vals, true_values(vals.shape[1]))


def appc_statistics(values: np.ndarray) -> dict[str, float]:
    """App. C style summary of runs ``(..., 100, 5)``: final RMS, minimum RMS and mean RMS over rows 51–100."""
    rms = rms_error(values, true_values(values.shape[-1]))
    return {"final": rms[..., -1], "min": rms.min(axis=-1), "mean51_100": rms[..., 50:].mean(axis=-1)}


@dataclass(frozen=True)
class ScriptedRows:
    """App. A's rule on two scripted walks (App. C rows 1→2 and 3→4), in both trace semantics."""

    printed: np.ndarray  # App. C (100, 6)
    row2: np.ndarray  # row 1 + walk D,E,D,E,Room2, thesis traces
    row4: np.ndarray  # printed row 3 + walk D,C,B,A,Room1, thesis traces
    row2_standard: np.ndarray  # row 1 + walk D,E,D,E,Room2, textbook traces


def scripted_rows() -> ScriptedRows:
    """The walks D,E,D,E,Room2 (row 1 → 2) and D,C,B,A,Room1 (row 3 → 4) through App. A's rule
    (α = 0.1, λ = 0.5, start D), with the duplicate-list traces and, for row 2, the textbook ones."""
    appc = appendix_c()
    standard = Learner("tdlambda", 0.1, 0.5, "standard", "D")
    return ScriptedRows(
        appc,
        replay(["D,E,D,E,Room2"])[1],
        replay(["D,C,B,A,Room1"], appc[2, :5])[1],
        replay(["D,E,D,E,Room2"], learner=standard)[1],
    )


def many_runs(runs: int, seed: int, learner: Learner = APPENDIX_C_LEARNER, episodes: int = 99) -> np.ndarray:
    """``runs`` seeded runs in App. C's format (estimates before each of ``episodes + 1`` rows)."""
    return run_many(learner, runs=runs, episodes=episodes, seed=seed)
