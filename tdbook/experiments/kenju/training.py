"""Notebook 03's protocols, part 2: learning (Kenju thesis §4.7, §4.9, §4.10): the six training schemes of Fig. 4.21,
the performance graphs of Figs 4.4–4.7, and System 4 against System 3.

**Training schemes** (Figs 4.21–4.23).  White learns from scratch (table 0, LEARNING on, CONFIDENCE reset
before each game, MAX the teacher, Fig. 4.23's parameters) for as many games as it takes to make 200 moves:
(1) WA against NULL, (2) W6 against MAX, (3) W8 against WA.140 — scheme 1's White after 140 moves, taken from
the same replicate — (4) WC against the author, (5) W4 White and Black both learning against each other,
(6) WE White and Black both learning while watching the author play himself (mode (a): each runs its search
at its side's turns and learns, the move is the author's).  The author is gone: schemes 4 and 6 use
:func:`tdbook.players.kenju.me_stand_in` in his place, a documented stand-in, not a model of him.  Each
scheme is run with many seeds; the thesis printed one run of each.

Every System 3 learner's table is checked after every move against the bound of its learning rule
(``L ≤ learnable_limit ≤ MAX``, :mod:`tdbook.learners.kenju_line_table`): a violation raises.  A System 4
learner is not: it raises every pattern through the preferred move, so "lines could be re-ranked erroneously,
which was not possible in system 3" (§4.10.2) and the bound does not hold for it (its tables only rise, one
word by at most one per answer, which is checked instead).

**Performance graphs** (§4.7.1, Figs 4.4–4.7).  Fig. 4.6's protocol: Fig. 4.7's parameters (effect B,
MAXDEADENDS 3, NODEPATIENCE 12), CONFIDENCE carried from game to game, 20 training games of two learners
against each other (curves W and B) or 7 of a White learner against MAX (curve H); after each training game
the learner, not learning, plays a test match against the standard MAX player; the point is White wins −
Black wins.  Fig. 4.5: 16 ten-game tests of MAX against itself.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np
from tqdm.auto import tqdm

from ...claims import Estimate, Spread
from ...core.parallel import map_tasks
from ...learners.kenju_line_table import MAX, N_PATTERNS, learnable_limit, ranking_violations
from ...players.kenju import (
    FIG_4_7,
    FIG_4_23,
    N_STATE,
    T_MOVE_QUESTIONS,
    T_QUESTIONS,
    Player,
    System3,
    frozen,
    learner,
    max_player,
    me_stand_in,
    null_player,
)
from ..common.checks import Checks, from_pairs
from .kenju import Measured, difference, estimate, run_seed, share_estimate
from .play import Games, match, train

SCHEMES = {
    1: ("WA", "W learns from scratch vs NULL"),
    2: ("W6", "W learns from scratch vs MAX"),
    3: ("W8", "W learns from scratch vs WA.140"),
    4: ("WC", "W learns from scratch vs ME (stand-in)"),
    5: ("W4", "W and B learn from scratch, W vs B"),
    6: ("WE", "W and B learn from scratch watching ME vs ME (stand-in)"),
}
LIMIT = learnable_limit()


def check_invariant(history: np.ndarray, label: str, system: int = 3) -> None:
    """Raise unless every table of ``history`` (moves × 32) respects System 3's L ≤ learnable limit ≤ MAX (§4.6);
    for ``system=4`` only that the tables never fall (§4.10.2: System 4 may re-rank lines against MAX)."""
    if system == 4:
        if history.size and (np.any(history < 0) or np.any(np.diff(history, axis=0) < 0)):
            raise AssertionError(f"{label}: a System 4 table fell or went below 0")
        return
    if history.size and (np.any(history > LIMIT[None, :]) or np.any(history > MAX[None, :])):
        k, p = np.argwhere(history > LIMIT[None, :])[0]
        raise AssertionError(f"{label}: pattern {p} reached {history[k, p]} > its limit {LIMIT[p]} at move {k + 1}")


def opponent(name: str, wa140: np.ndarray | None = None, search: System3 | None = None) -> Player:
    """The non-learning opponents of the schemes, with Fig. 4.23's search (or ``search``, learning off)."""
    cfg = replace(search, learning=False) if search is not None else System3()
    if name == "NULL":
        return null_player(cfg)
    if name == "MAX":
        return max_player(cfg)
    if name == "WA.140":
        if wa140 is None:
            raise ValueError("WA.140 needs scheme 1's table after 140 moves")
        return frozen("WA.140", wa140, cfg)
    if name == "ME":
        return me_stand_in()
    raise ValueError(f"unknown opponent {name!r}")


@dataclass
class SchemeRun:
    """One training run of one scheme: White's (and, for 5 and 6, Black's) table after each of its moves."""

    scheme: int
    white: np.ndarray  # moves × 32
    black: np.ndarray | None
    games: Games

    @property
    def totals(self) -> np.ndarray:
        return self.white.sum(1)


def train_scheme(
    scheme: int,
    moves: int,
    seed: int,
    wa140: np.ndarray | None = None,
    system: int = 3,
    search: System3 | None = None,
) -> SchemeRun:
    """One run of training scheme ``scheme`` (Fig. 4.21) for ``moves`` moves per learner (Fig. 4.22); ``search``
    replaces Fig. 4.23's search parameters of every searching player (learners keep LEARNING on)."""
    if scheme not in SCHEMES:
        raise ValueError(f"scheme must be one of 1..6, got {scheme!r}")
    cfg = replace(search or FIG_4_23, learning=True, system=system)
    w = learner("W", cfg)
    if scheme in (1, 2, 3, 4):
        opp = opponent({1: "NULL", 2: "MAX", 3: "WA.140", 4: "ME"}[scheme], wa140, search)
        g = train(w, opp, moves, seed=seed, record=(True, False))
    elif scheme == 5:
        g = train(w, learner("B", cfg), moves, seed=seed, record=(True, True))
    else:
        me = me_stand_in()
        g = train(me, me, moves, seed=seed, record=(True, True), watchers=(w, learner("B", cfg)))
    white = g.history(0)
    black = g.history(1) if scheme in (5, 6) else None
    check_invariant(white, f"scheme {scheme} White", system)
    if black is not None:
        check_invariant(black, f"scheme {scheme} Black", system)
    return SchemeRun(scheme, white, black, g)


@dataclass
class Schemes:
    """Many seeded runs of the six schemes: ``totals[s]`` is runs × moves (the total learning curve of Fig. 4.11)."""

    runs: dict[int, list[SchemeRun]]
    moves: int

    def totals(self, scheme: int) -> np.ndarray:
        return np.array([r.totals for r in self.runs[scheme]])

    def final(self, scheme: int) -> np.ndarray:
        return self.totals(scheme)[:, -1]

    def change_moves(self, scheme: int) -> np.ndarray:
        """Moves with a learning change per run (the columns of Fig. 4.9)."""
        return np.array([int(np.sum(np.diff(np.concatenate([[0], r.totals])) > 0)) for r in self.runs[scheme]])

    def roughness(self, scheme: int) -> np.ndarray:
        """The largest single-move step of each run's total learning curve, as a share of its total at the end."""
        out = []
        for r in self.runs[scheme]:
            steps = np.diff(np.concatenate([[0], r.totals]))
            out.append(steps.max() / max(1, r.totals[-1]))
        return np.array(out)

    def early_share(self, scheme: int, first: int = 50) -> np.ndarray:
        """The share of each run's learning (at move ``moves``) made in its first ``first`` moves."""
        t = self.totals(scheme)
        return t[:, first - 1] / np.maximum(1, t[:, -1])

    def levels(self, scheme: int, side: int = 0) -> np.ndarray:
        """Distinct values (rank levels) in each run's final table."""
        return np.array([len(set((r.white if side == 0 else r.black)[-1].tolist())) for r in self.runs[scheme]])

    def pattern_final(self, scheme: int, p: int) -> np.ndarray:
        return np.array([r.white[-1, p] for r in self.runs[scheme]])


def all_schemes(runs: int, moves: int, wa_moves: int, seed: int, system: int = 3, progress: bool = True) -> Schemes:
    """``runs`` seeded runs of each of the six schemes (scheme 3's WA.140 from the same replicate's scheme 1).

    The replicates are independent tasks (:func:`tdbook.core.parallel.map_tasks`: spread over a Dask cluster
    when one is active), each seeded by its index, so the result is the same however they are run.
    """
    out: dict[int, list[SchemeRun]] = {s: [] for s in SCHEMES}
    tasks = [(r, moves, wa_moves, seed, system) for r in range(runs)]
    for replicate in map_tasks(_replicate, tasks, desc=f"System {system} training schemes", progress=progress):
        for s, run in zip(SCHEMES, replicate):
            out[s].append(run)
    return Schemes(out, moves)


def _replicate(task: tuple[int, int, int, int, int]) -> list[SchemeRun]:
    """Replicate ``r`` of :func:`all_schemes`: the six schemes in order."""
    r, moves, wa_moves, seed, system = task
    wa, runs = None, []
    for s in SCHEMES:
        run = train_scheme(s, moves, run_seed(seed, f"scheme{s}-sys{system}", r), wa, system)
        if s == 1:
            wa = run.white[wa_moves - 1].copy()
        runs.append(run)
    return runs


def wa140(seed: int, moves: int = 140) -> Player:
    """WA.140: scheme 1's White after ``moves`` moves (replicate 0 of the notebook's seed)."""
    run = train_scheme(1, moves, run_seed(seed, "scheme1-sys3", 0))
    return frozen("WA.140", run.white[moves - 1])


def long_runs(runs: int, moves: int, seed: int) -> np.ndarray:
    """Total learning of two learners training against each other for ``moves`` moves each (runs × moves, White)."""
    out = []
    for r in tqdm(range(runs), desc="long training runs", leave=False):
        run = train_scheme(5, moves, run_seed(seed, "long", r))
        out.append(run.totals)
    return np.array(out)


# ----------------------------------------------------------------------------- Figs 4.4–4.5


@dataclass
class PerformanceCurves:
    """Fig. 4.4: test scores (White wins − Black wins) after each training game, per replicate, for curves W, B, H."""

    test_games: int
    W: np.ndarray  # replicates × 20
    B: np.ndarray
    H: np.ndarray  # replicates × 7

    def curves(self) -> dict[str, np.ndarray]:
        return {"W": self.W, "B": self.B, "H": self.H}


def _test_score(player: Player, side: int, games: int, seed: int) -> int:
    """The learner (not learning) against the standard MAX in a ``games``-game test match."""
    std = max_player(FIG_4_7)
    w, b = (player, std) if side == 0 else (std, player)
    return match(w, b, games, seed=seed).score()


def performance_curves(replicates: int, test_games: int, seed: int, progress: bool = True) -> PerformanceCurves:
    """Fig. 4.6's protocol (module docstring), ``test_games`` test games per point."""
    W = np.zeros((replicates, 20))
    B = np.zeros((replicates, 20))
    H = np.zeros((replicates, 7))
    tag = f"perf{test_games}"
    for r in tqdm(range(replicates), desc=f"Fig. 4.4 ({test_games} test games)", disable=not progress, leave=False):
        w, b = learner("W", FIG_4_7), learner("B", FIG_4_7)
        states = np.zeros((2, N_STATE))
        for g in range(20):
            res = _train_game(w, b, states, run_seed(seed, f"{tag}-wb-train", r * 100 + g))
            w.table, b.table = res.tables[0].copy(), res.tables[1].copy()
            check_invariant(w.table[None, :], "curve W")
            check_invariant(b.table[None, :], "curve B")
            W[r, g] = _test_score(w, 0, test_games, run_seed(seed, f"{tag}-w-test", r * 100 + g))
            B[r, g] = _test_score(b, 1, test_games, run_seed(seed, f"{tag}-b-test", r * 100 + g))
        h = learner("H", FIG_4_7)
        std = max_player(FIG_4_7)
        states = np.zeros((2, N_STATE))
        for g in range(7):
            res = _train_game(h, std, states, run_seed(seed, f"{tag}-h-train", r * 100 + g))
            h.table = res.tables[0].copy()
            H[r, g] = _test_score(h, 0, test_games, run_seed(seed, f"{tag}-h-test", r * 100 + g))
    return PerformanceCurves(test_games, W, B, H)


def _train_game(white: Player, black: Player, states: np.ndarray, seed: int) -> Games:
    from .play import run

    return run(white, black, games=1, seed=seed, states=states)


def trend(curve: np.ndarray) -> tuple[float, float]:
    """Least-squares slope of a curve against the training game, and its two-sided p-value (t test)."""
    from scipy import stats

    x = np.arange(1, curve.size + 1, dtype=float)
    res = stats.linregress(x, curve)
    p = float(res.pvalue) if np.isfinite(res.pvalue) else 1.0
    return float(res.slope), p


def significant_curves(pc: PerformanceCurves, alpha: float = 0.05) -> np.ndarray:
    """Per replicate, how many of its three curves (W, B, H) show a significant linear trend."""
    out = np.zeros(pc.W.shape[0], dtype=int)
    for arr in (pc.W, pc.B, pc.H):
        for r in range(arr.shape[0]):
            out[r] += trend(arr[r])[1] < alpha
    return out


def pooled_slopes(pc: PerformanceCurves) -> dict[str, tuple[float, float, int]]:
    """Each curve's slope (score per training game) estimated over all replicates: (mean, s.e., n)."""
    return {k: estimate([trend(row)[0] for row in arr]) for k, arr in pc.curves().items()}


@dataclass
class FirstMoveBias:
    """Fig. 4.5: scores of ten-game tests of MAX against itself (Fig. 4.7's parameters)."""

    scores: np.ndarray  # repeats × tests (each a ten-game test's White wins − Black wins)
    powered: Games

    def as_run(self) -> np.ndarray:
        return self.scores[0]


def first_move_bias(tests: int, repeats: int, powered_games: int, seed: int) -> FirstMoveBias:
    """``repeats`` repetitions of the thesis's ``tests`` ten-game tests, and one powered match of ``powered_games``."""
    m = max_player(FIG_4_7)
    scores = np.zeros((repeats, tests))
    for r in tqdm(range(repeats), desc="Fig. 4.5", leave=False):
        g = match(m, m, 10 * tests, seed=run_seed(seed, "fig4.5", r))
        res = g.results.reshape(tests, 10)
        scores[r] = np.sum(res == 1, axis=1) - np.sum(res == 2, axis=1)
    powered = match(m, m, powered_games, seed=run_seed(seed, "fig4.5-powered"))
    return FirstMoveBias(scores, powered)


# ----------------------------------------------------------------------------- System 4


@dataclass
class System4Comparison:
    """Scheme 1 (against NULL) learned by System 3 and by System 4 (§4.10): totals, violations of the order."""

    totals3: np.ndarray  # runs × moves
    totals4: np.ndarray
    violations3: np.ndarray  # ranking violations at the end of each run
    violations4: np.ndarray
    above_limit4: np.ndarray  # patterns above the System 3 bound at the end
    questions3: np.ndarray
    questions4: np.ndarray


def system4_vs_3(runs: int, moves: int, seed: int, scheme: int = 1) -> System4Comparison:
    t3, t4, v3, v4, a4, q3, q4 = [], [], [], [], [], [], []
    for r in tqdm(range(runs), desc="System 4 vs System 3", leave=False):
        s = run_seed(seed, f"sys4-{scheme}", r)
        r3 = train_scheme(scheme, moves, s, system=3) if scheme != 3 else None
        w4 = learner("W4", replace(FIG_4_23, system=4))
        g4 = train(w4, opponent({1: "NULL", 2: "MAX", 4: "ME"}[scheme]), moves, seed=s, record=(True, False))
        h4 = g4.history(0)
        t3.append(r3.totals)
        t4.append(h4.sum(1))
        v3.append(ranking_violations(r3.white[-1]))
        v4.append(ranking_violations(h4[-1]))
        a4.append(int(np.sum(h4[-1] > LIMIT)))
        q3.append(int(r3.games.stats[0][T_QUESTIONS]))
        q4.append(int(g4.stats[0][T_MOVE_QUESTIONS]))
    return System4Comparison(
        np.array(t3), np.array(t4), np.array(v3), np.array(v4), np.array(a4), np.array(q3), np.array(q4)
    )


def summary(x: Any) -> str:
    m, se, n = estimate(x)
    return f"{m:.3g} ± {se:.2g} (n = {n})"


__all__ = ["N_PATTERNS", "SCHEMES", "all_schemes", "performance_curves", "first_move_bias", "system4_vs_3"]


# ----------------------------------------------------------------------------- the claims' measured values


def standardized_difference(a: np.ndarray, b: np.ndarray) -> Estimate:
    """mean(a) − mean(b) in pooled single-run standard deviations (Cohen's d), with its large-sample standard
    error √((n_a + n_b) / (n_a n_b) + d² / (2 (n_a + n_b)))."""
    na, nb = len(a), len(b)
    if na < 2 or nb < 2:
        raise ValueError(f"a standardized difference needs two runs on each side, got {na} and {nb}")
    sd = float(np.sqrt(((na - 1) * np.var(a, ddof=1) + (nb - 1) * np.var(b, ddof=1)) / (na + nb - 2)))
    d = float((np.mean(a) - np.mean(b)) / sd) if sd > 0 else 0.0
    return Estimate(d, float(np.sqrt((na + nb) / (na * nb) + d * d / (2 * (na + nb)))), na + nb)


def claims_schemes(s: Schemes, long_totals: np.ndarray) -> Checks:
    fin = {k: s.final(k) for k in SCHEMES}
    rough = {k: s.roughness(k) for k in SCHEMES}
    early = np.concatenate([s.early_share(k) for k in SCHEMES])
    n_tables = sum(len(r) for r in s.runs.values()) + len(s.runs[5]) + len(s.runs[6])
    means = {k: float(v.mean()) for k, v in fin.items()}
    sd = float(np.sqrt(np.mean([np.var(v, ddof=1) for v in fin.values()])))
    hi, lo = max(means, key=means.get), min(means, key=means.get)
    gap = means[hi] - means[lo]
    measured: Measured = {
        "fig4.11-2-4-low": (
            difference(np.concatenate([fin[1], fin[3]]), np.concatenate([fin[2], fin[4]])),
            "total at move 200, schemes 1 and 3 minus schemes 2 and 4; means "
            + ", ".join(f"{SCHEMES[k][0]} {means[k]:.1f}" for k in SCHEMES),
        ),
        "fig4.11-1-3-similar": (
            standardized_difference(fin[1], fin[3]),
            f"total at move {s.moves}, scheme 1 (WA, vs NULL) − scheme 3 (W8, vs WA.140) in single-run standard "
            f"deviations: {means[1]:.1f} vs {means[3]:.1f}; scheme 3 sits with schemes 2 and 4 "
            f"({means[2]:.1f}, {means[4]:.1f})",
        ),
        "fig4.11-5-6-smooth": (
            difference(np.concatenate([rough[k] for k in (1, 2, 3, 4)]), np.concatenate([rough[5], rough[6]])),
            "largest single-move step as a share of the total at 200, schemes 1–4 minus 5–6; means "
            + ", ".join(f"{SCHEMES[k][0]} {rough[k].mean():.3f}" for k in SCHEMES),
        ),
        "fig4.8-early-activity": (
            Estimate(*estimate(early)),
            f"share of the learning at move {s.moves} done in the first 50 moves, all {early.size} runs",
        ),
        "fig4.8-no-obvious-differences": (
            standardized_difference(fin[hi], fin[lo]),
            f"the schemes farthest apart, {SCHEMES[hi][0]} and {SCHEMES[lo][0]}: mean totals {means[hi]:.1f} and "
            f"{means[lo]:.1f}, a gap of {gap:.1f}, {gap / sd:.2f} pooled single-run standard deviations ({sd:.1f})",
        ),
        "fig4.9-6-columns": (
            Spread.of(s.change_moves(6)),
            f"moves with a change in scheme 6 (WE), {len(s.runs[6])} runs; all schemes: "
            + ", ".join(f"{SCHEMES[k][0]} {s.change_moves(k).mean():.1f}" for k in SCHEMES),
        ),
        "fig4.9-6-levels": (
            Spread.of(s.levels(6)),
            "distinct values (rank levels) in scheme 6's White table at move 200",
        ),
        "fig4.9-6-xxxxx-lowest": (
            share_estimate(s.pattern_final(6, 31) == 0),
            "share of scheme 6 runs in which XXXXX still has the lowest value (0) at move 200; all schemes: "
            + ", ".join(f"{SCHEMES[k][0]} {np.mean(s.pattern_final(k, 31) == 0):.2f}" for k in SCHEMES),
        ),
        "invariant-tables": (
            n_tables,
            f"learner tables checked after every move against L ≤ bound ≤ MAX (a violation raises); "
            f"{len(s.runs[1])} runs × 6 schemes × {s.moves} moves",
        ),
        "long-run-total": (
            int(long_totals.max()),
            f"largest total of {long_totals.shape[0]} learners after {long_totals.shape[1]} moves each "
            f"(median {int(np.median(long_totals[:, -1]))})",
        ),
    }
    return from_pairs(measured)


def claims_performance(as_run: PerformanceCurves, powered: PerformanceCurves) -> Checks:
    sig = significant_curves(as_run)
    slopes = pooled_slopes(powered)
    out: Measured = {
        "fig4.4-no-trend": (
            Spread.of(sig),
            f"curves (of W, B, H) with a significant linear trend (p < 0.05) per replicate, {sig.size} replicates "
            f"of the thesis's protocol (10-game tests); {np.mean(sig > 0):.0%} of replicates show at least one",
        ),
    }
    for k, (m, se, n) in slopes.items():
        out[f"fig4.4-powered-slope-{k}"] = (
            Estimate(m / powered.test_games * 10, se / powered.test_games * 10, n),
            f"slope of curve {k} in score per 10 games per training game, {powered.test_games}-game tests",
        )
    return from_pairs(out)


def claims_first_move(fb: FirstMoveBias) -> Checks:
    s = fb.as_run()
    c = fb.powered.counts()
    per_game = np.where(fb.powered.results == 1, 1.0, np.where(fb.powered.results == 2, -1.0, 0.0))
    m, se, n = estimate(per_game)
    sd = float(fb.scores.std(ddof=1))
    measured: Measured = {
        "fig4.5-white-bias-as-run": (
            Estimate(*estimate(s)),
            f"mean of the 16 ten-game scores of one run: {s.astype(int).tolist()}",
        ),
        "fig4.5-white-bias-powered": (
            Estimate(10 * m, 10 * se, n),
            f"White − Black per 10 games over {fb.powered.n:,} games: {c}",
        ),
        "fig4.5-spread": (sd, f"standard deviation of a ten-game score over {fb.scores.size:,} tests"),
        "fig4.5-as-run-significant": (
            share_estimate(fb.scores.mean(1) - 1.96 * fb.scores.std(1, ddof=1) / np.sqrt(fb.scores.shape[1]) > 0),
            f"share of {fb.scores.shape[0]} repeats of the 16 tests whose mean is significantly above 0",
        ),
    }
    return from_pairs(measured)


def claims_system4(c: System4Comparison) -> Checks:
    measured: Measured = {
        "sys4-faster": (
            difference(c.totals4[:, -1], c.totals3[:, -1]),
            f"total at move {c.totals3.shape[1]}, System 4 − System 3 (scheme 1); questions per run "
            f"{c.questions4.mean():.0f} vs {c.questions3.mean():.0f}",
        ),
        "sys4-above-bound": (
            Estimate(*estimate(c.above_limit4)),
            "patterns above System 3's bound (L ≤ rank ≤ MAX) at the end of a System 4 run (System 3: none, by the "
            f"invariant); ranking violations {c.violations4.mean():.0f} vs System 3's {c.violations3.mean():.0f}",
        ),
    }
    return from_pairs(measured)


def explore(
    scheme: int = 1,
    runs: int = 10,
    moves: int = 200,
    maxdeadends: int = 5,
    nodepatience: int = 4,
    effect: str = "A",
    system: int = 3,
    seed: int = 1,
) -> Schemes:
    """The panel's experiment: ``runs`` runs of one training scheme with other search parameters."""
    from ...learners.kenju_line_table import EFFECTS

    if effect not in EFFECTS:
        raise ValueError(f"effect must be one of {', '.join(EFFECTS)}, got {effect!r}")
    if scheme not in SCHEMES:
        raise ValueError(f"scheme must be one of 1..6, got {scheme!r}")
    search = replace(FIG_4_23, maxdeadends=int(maxdeadends), nodepatience=int(nodepatience), evaluation=EFFECTS[effect])
    out: dict[int, list[SchemeRun]] = {k: [] for k in SCHEMES}
    wa = None
    if scheme == 3:
        wa = train_scheme(1, 140, run_seed(seed, "explore-wa")).white[-1]
    for r in tqdm(range(runs), desc=f"scheme {scheme}", leave=False):
        out[scheme].append(train_scheme(scheme, moves, run_seed(seed, f"explore{scheme}", r), wa, system, search))
    return Schemes(out, moves)
