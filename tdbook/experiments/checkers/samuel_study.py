"""Samuel's learner over many seeded runs (Powell (2000) §3.3, §4.5): the stabilisers the chapter names as
one-change ablations, and the chapter's outcome statements measured on the ladder's scale.

**Configurations** (:data:`CONFIGS`): Samuel's first series (Powell's readings, the shipped run's rule); the
same with the coefficients recomputed only every 8 moves (the instability §3.3 warns of); Samuel's second
series — the asymmetric update for positive and negative delta, the tally limit raised from 8 to 32, Beta
adopting only after a majority of Alpha's wins, the kick-start reset of the leading weight, and the
credit-assignment fix — and five one-change ablations of it, each without one of those.  Every configuration
runs from the same ``seeds`` (a seed fixes the first polynomial and the ballot order, so the runs of one seed
differ in the one change only) for ``games`` self-play games.

**Strength** of a polynomial is its Elo on the ladder's scale (:mod:`tdbook.experiments.checkers.ladder`):
it plays the ladder's ``ANCHORS`` (material α-β and TD-Leaf, their ladder ratings held fixed) over the first
``ballots`` ballots twice, and :func:`~tdbook.experiments.common.ratings.rate_against` places it.  The curve
configurations are rated after each of the ``snapshots`` game counts, the others after the last game.
**Stability** of a run is its *volatility*: the mean over the second half of the run of Σ|Δ(sign ·
(power + 1))| over the 38 terms from one game to the next (a term entering or leaving counts its power).
An ablation's effect is the mean over seeds of its difference from the second series, seed by seed, with a
Student-t 95 % interval.

**Outcome statements** (§3.3): Alpha's changes of its leading term and its losses in its first 7 games, over
``first_seeds`` seeded first-series runs; "better-than-average" after about 25 games (the first series'
25-game polynomials against the mean rating of the ladder's players at the equal search); "erratic and none
too stable" after that (the first-series ratings from 25 games on vary about each run's own trend more than
their match noise: a χ² test); "could (and did) get worse with time" (runs whose last polynomial rates below
their 25-game polynomial by more than the match noise allows, Bonferroni over the runs).

The study is long (about an hour on one core), so notebook 02 reads the shipped result
(``data/checkers_samuel_study.npz``, the command in its sidecar) and the full profile runs it again.  Training
and matches go through :func:`tdbook.core.parallel.map_tasks`, seeded per task.
"""

from __future__ import annotations

import argparse
import math
import shlex
import sys
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from scipy import stats

from ...core.parallel import map_tasks, task_seed
from ...core.paths import data_dir, repo_root
from ...core.storage import code_version, write_sidecar
from ...learners.checkers_polynomial import TERMS, Polynomial
from ...players.checkers import Player, samuel_player
from ..common.ratings import Ratings, rate_against
from . import match as cm
from . import training as tr
from .ladder import ANCHOR, EQUAL_SEARCH, Context, LadderSpec, _cluster, players_of
from .samuel import AlphaBeta, SamuelRun, initial_polynomial

FILE = "checkers_samuel_study.npz"
#: the ladder players every snapshot plays
ANCHORS = (ANCHOR, "TD-Leaf (learned)")
FIRST, SECOND = "first series", "second series"
#: name → (series, the one change); the second series has all five of Samuel's fixes
CONFIGS: dict[str, tuple[int, dict[str, Any]]] = {
    FIRST: (1, {}),
    "first series, coefficients every 8 moves": (1, {"update_every": 8}),
    SECOND: (2, {}),
    "without the asymmetric update": (2, {"selective": False}),
    "tally limit 8, not 32": (2, {"tally_limit": 8}),
    "Beta adopts after one win": (2, {"adopt": "win"}),
    "without the kick-start reset": (2, {"reset": False}),
    "without the credit-assignment fix": (2, {"carry_back": False}),
}
#: the ablations of the second series, by the stabiliser each removes
STABILISERS = {
    "asymmetric update": "without the asymmetric update",
    "tally limit 32": "tally limit 8, not 32",
    "Beta after a majority of wins": "Beta adopts after one win",
    "kick-start reset": "without the kick-start reset",
    "credit-assignment fix": "without the credit-assignment fix",
}
#: the configurations rated along the run
CURVES = (FIRST, SECOND)
LOGS = ("result", "top_changes", "replaced", "cycles", "zeroed", "adopted")


def run_of(config: str, seed: int) -> SamuelRun:
    """The :class:`SamuelRun` of a configuration and seed."""
    if config not in CONFIGS:
        raise ValueError(f"unknown configuration {config!r}; configurations: {', '.join(CONFIGS)}")
    series, kw = CONFIGS[config]
    return SamuelRun.series(series, seed=seed, **kw)


@dataclass(frozen=True)
class StudySpec:
    """The study's size: ``seeds`` runs of ``games`` games per configuration (seeds ``seed``, ``seed`` + 1, …),
    strength after the ``snapshots`` game counts (curve configurations) over ``ballots`` ballots against each
    anchor, and the first ``first_games`` games of ``first_seeds`` first-series runs."""

    games: int = 300
    seeds: int = 8
    snapshots: tuple[int, ...] = (0, 7, 25, 50, 100, 200, 300)
    ballots: int = 60
    first_seeds: int = 40
    first_games: int = 7
    seed: int = 1
    configs: tuple[str, ...] = field(default_factory=lambda: tuple(CONFIGS))

    def __post_init__(self) -> None:
        for k in ("games", "seeds", "ballots", "first_seeds", "first_games"):
            v = getattr(self, k)
            if not isinstance(v, (int, np.integer)) or v < 1:
                raise ValueError(f"{k} must be a positive int, got {v!r}")
        if self.ballots > 157:
            raise ValueError(f"ballots must be at most 157, got {self.ballots}")
        s = tuple(self.snapshots)
        if not s or s[0] != 0 or s[-1] != self.games or list(s) != sorted(set(s)):
            raise ValueError(f"snapshots must rise from 0 to games ({self.games}), got {s}")
        for c in (FIRST, SECOND):
            if c not in self.configs:
                raise ValueError(f"the study needs the {c!r} configuration")
        unknown = [c for c in self.configs if c not in CONFIGS]
        if unknown:
            raise ValueError(f"unknown configurations {unknown}; configurations: {', '.join(CONFIGS)}")

    def snaps(self, config: str) -> tuple[int, ...]:
        """The game counts a configuration is rated at (0 is rated once per seed, for every configuration)."""
        return self.snapshots[1:] if config in CURVES else (self.games,)

    def seed_list(self) -> list[int]:
        return list(range(self.seed, self.seed + self.seeds))


# ----------------------------------------------------------------------------- the tasks


def _train_task(task: tuple) -> dict[str, np.ndarray]:
    config, seed, games, snaps = task
    r = AlphaBeta(run_of(config, seed), games)
    weights = {}

    def keep(g: int) -> None:
        if g + 1 in snaps:
            weights[g + 1] = r.alpha.weights.copy()

    tr.run(r, games, progress=False, on_game=keep)
    p = r.powers.astype(np.int64)
    out = {k: r.log[k].copy() for k in LOGS}
    out["changes"] = np.abs(np.diff(p, axis=0)).sum(axis=1)
    out["weights"] = np.array([weights[g] for g in snaps])
    return out


def _first_task(task: tuple) -> np.ndarray:
    seed, games = task
    r = AlphaBeta(run_of(FIRST, seed), games)
    tr.run(r, games, progress=False)
    res = r.log["result"]
    return np.array([r.log["top_changes"].sum(), (res < 0).sum(), (res > 0).sum(), (res == 0).sum()])


def _match_task(task: tuple) -> np.ndarray:
    weights, anchor, ballots, seed = task
    me = samuel_player(Polynomial({TERMS[k]: float(weights[k]) for k in np.flatnonzero(weights)}), name="snapshot")
    return cm.match(me, anchor, cm.start_positions(ballots), seed=seed).pairs * 2


def play(spec: StudySpec, anchors: dict[str, Player], progress: bool = True) -> dict[str, np.ndarray]:
    """Run the study (module docstring): the arrays :func:`save` writes."""
    seeds = spec.seed_list()
    jobs = [(c, s) for c in spec.configs for s in seeds]
    trained = map_tasks(_train_task, [(c, s, spec.games, spec.snaps(c)) for c, s in jobs], desc="study runs",
                        progress=progress)  # fmt: skip
    first = map_tasks(_first_task, [(s, spec.first_games) for s in range(spec.seed, spec.seed + spec.first_seeds)],
                      desc="first games", progress=progress)  # fmt: skip
    out: dict[str, np.ndarray] = {"first": np.array(first)}
    for ci, c in enumerate(spec.configs):
        runs = [trained[jobs.index((c, s))] for s in seeds]
        for k in (*LOGS, "changes"):
            out[f"c{ci}_{k}"] = np.array([r[k] for r in runs])
        out[f"c{ci}_weights"] = np.array([r["weights"] for r in runs])  # seeds × snaps × terms
    out["initial_weights"] = np.array([initial_polynomial(run_of(FIRST, s)).vector for s in seeds])
    # every polynomial to rate: (key, seed index, weights)
    polys = [("initial", i, out["initial_weights"][i]) for i in range(len(seeds))]
    for ci, c in enumerate(spec.configs):
        for j in range(len(spec.snaps(c))):
            polys += [(f"c{ci}_g{j}", i, out[f"c{ci}_weights"][i, j]) for i in range(len(seeds))]
    names = list(anchors)
    tasks = [(w, anchors[a], spec.ballots, task_seed(spec.seed, k)) for k, (_, _, w) in enumerate(polys) for a in names]
    pts = map_tasks(_match_task, tasks, desc="snapshot matches", progress=progress)
    for k, (key, i, _) in enumerate(polys):
        arr = out.setdefault(f"points_{key}", np.zeros((len(seeds), len(names), spec.ballots)))
        for a in range(len(names)):
            arr[i, a] = pts[k * len(names) + a]
    return out


# ----------------------------------------------------------------------------- reading it


def _t_interval(x: np.ndarray) -> tuple[float, float, float]:
    """Mean and Student-t 95 % interval of the samples ``x``."""
    x = np.asarray(x, dtype=np.float64)
    m = float(x.mean())
    if x.size < 2:
        return m, float("nan"), float("nan")
    h = float(stats.t.ppf(0.975, x.size - 1) * x.std(ddof=1) / math.sqrt(x.size))
    return m, m - h, m + h


@dataclass
class Study:
    """A played study with the ladder's ratings it is read against (module docstring)."""

    spec: StudySpec
    arrays: dict[str, np.ndarray]
    ratings: Ratings
    anchors: tuple[str, ...]
    meta: dict[str, Any] = field(default_factory=dict)

    def _c(self, config: str) -> int:
        if config not in self.spec.configs:
            raise ValueError(f"configuration {config!r} is not in the study: {', '.join(self.spec.configs)}")
        return self.spec.configs.index(config)

    def log(self, config: str, key: str) -> np.ndarray:
        """Per seed and game: one of the learner's logs (``result``, ``top_changes``, ``replaced``, ``cycles``,
        ``zeroed``, ``adopted``, ``changes``)."""
        return self.arrays[f"c{self._c(config)}_{key}"]

    def elo(self, config: str, games: int) -> tuple[np.ndarray, np.ndarray]:
        """Per seed, the Elo (and its standard error) of the configuration's polynomial after ``games`` games."""
        if games == 0:
            key = "initial"
        else:
            snaps = self.spec.snaps(config)
            if games not in snaps:
                raise ValueError(f"{config!r} is rated after {snaps} games, not {games}")
            key = f"c{self._c(config)}_g{snaps.index(games)}"
        pts = self.arrays[f"points_{key}"]
        fixed = {a: self.ratings.of(a)[0] for a in self.anchors}
        e, s = zip(*(rate_against(fixed, {a: pts[i, k] for k, a in enumerate(self.anchors)}) for i in range(len(pts))))
        return np.array(e), np.array(s)

    def curve(self, config: str) -> dict[str, np.ndarray]:
        """Elo per seed after each snapshot (0 included): ``games``, ``elo`` [seeds × snapshots], ``se``."""
        g = (0, *self.spec.snaps(config))
        es = [self.elo(config, x) for x in g]
        return {"games": np.array(g), "elo": np.array([e for e, _ in es]).T, "se": np.array([s for _, s in es]).T}

    def volatility(self, config: str) -> np.ndarray:
        """Per seed: the mean game-to-game change of the coefficients over the second half of the run."""
        ch = self.log(config, "changes")
        return ch[:, self.spec.games // 2 :].mean(axis=1)

    def replacements_per_move(self, config: str) -> np.ndarray:
        return self.log(config, "replaced").sum(axis=1) / self.log(config, "cycles").sum(axis=1)

    def effect(self, config: str, measure: str, base: str = SECOND) -> tuple[float, float, float]:
        """The change ``config`` − ``base`` in ``measure`` (``"elo"`` of the last polynomial, ``"gain"`` over the
        seed's first polynomial, ``"volatility"``, ``"replacements"`` of terms per move), seed by seed: mean and
        Student-t 95 % interval."""
        return _t_interval(self._measure(config, measure) - self._measure(base, measure))

    def _measure(self, config: str, measure: str) -> np.ndarray:
        if measure == "elo":
            return self.elo(config, self.spec.games)[0]
        if measure == "gain":
            return self.elo(config, self.spec.games)[0] - self.elo(config, 0)[0]
        if measure == "volatility":
            return self.volatility(config)
        if measure == "replacements":
            return self.replacements_per_move(config)
        raise ValueError(f"measure must be 'elo', 'gain', 'volatility' or 'replacements', got {measure!r}")

    def summary(self, config: str) -> dict[str, tuple[float, float, float]]:
        """Per configuration: last Elo, gain over the first polynomial, volatility, replacements per move,
        changes of the leading term per game (each mean and 95 % interval over seeds)."""
        return {
            "elo": _t_interval(self._measure(config, "elo")),
            "gain": _t_interval(self._measure(config, "gain")),
            "volatility": _t_interval(self.volatility(config)),
            "replacements per move": _t_interval(self.replacements_per_move(config)),
            "leader changes per game": _t_interval(self.log(config, "top_changes").mean(axis=1)),
        }

    # -- the outcome statements
    def first_games(self) -> dict[str, np.ndarray]:
        f = self.arrays["first"]
        return {"top_changes": f[:, 0], "losses": f[:, 1], "wins": f[:, 2], "draws": f[:, 3]}

    def ladder_average(self) -> tuple[float, float, float]:
        """The mean Elo of the ladder's players at the equal search."""
        return self.ratings.mean_of([n for n in EQUAL_SEARCH if n in self.ratings.names])

    def above_average(self, games: int = 25, config: str = FIRST) -> tuple[float, float, float]:
        """The configuration's polynomials after ``games`` games minus the ladder average: mean over seeds and
        a 95 % interval (the seeds' spread, and the average's own bootstrap interval added in quadrature)."""
        e, _ = self.elo(config, games)
        m, lo, hi = _t_interval(e)
        avg, alo, ahi = self.ladder_average()
        h = math.hypot((hi - lo) / 2, (ahi - alo) / 2)
        return m - avg, m - avg - h, m - avg + h

    def erratic(self, config: str = FIRST, after: int = 25) -> tuple[float, int, float]:
        """χ² of each run's ratings from ``after`` games on about the run's own trend (a weighted least-squares line
        in log games), in units of their match noise, summed over runs: (χ², degrees of freedom, p-value).  A small
        p: the strength moves from snapshot to snapshot by more than the matches' noise, and not only along a steady
        climb or decline — a χ² about the run's mean would be passed by steady learning as well."""
        g = [x for x in self.spec.snaps(config) if x >= after]
        es = [self.elo(config, x) for x in g]
        e = np.array([x for x, _ in es]).T
        s = np.array([x for _, x in es]).T
        if len(g) < 3:
            raise ValueError(f"erratic: a trend and its residuals need 3 snapshots from {after} games on, got {g}")
        x = np.column_stack([np.ones(len(g)), np.log(np.asarray(g, dtype=float))])
        chi2 = 0.0
        for ei, si in zip(e, s):
            w = 1 / si**2
            beta = np.linalg.solve(x.T @ (x * w[:, None]), x.T @ (w * ei))
            chi2 += float((((ei - x @ beta) / si) ** 2).sum())
        df = int(e.size - x.shape[1] * e.shape[0])
        return chi2, df, float(stats.chi2.sf(chi2, df))

    def worse_with_time(self, config: str = FIRST, early: int = 25, alpha: float = 0.05) -> tuple[int, np.ndarray]:
        """Runs whose last polynomial rates below their ``early``-game polynomial by more than z match-noise
        standard errors, z the one-sided Bonferroni point for ``alpha`` over the runs; and every run's z."""
        e0, s0 = self.elo(config, early)
        e1, s1 = self.elo(config, self.spec.games)
        z = (e1 - e0) / np.hypot(s0, s1)
        crit = stats.norm.ppf(1 - alpha / len(z))
        return int(np.sum(z < -crit)), z


def save(spec: StudySpec, arrays: dict[str, np.ndarray], path: Path, command: str) -> None:
    """The study as a checkers archive and its sidecar."""
    meta = {"method": "samuel-study", "settings": asdict(spec) | {"snapshots": list(spec.snapshots)},
            "anchors": list(ANCHORS), "command": command, "code_version": code_version()}  # fmt: skip
    tr.write(path, meta, arrays)
    write_sidecar(path, {k: meta[k] for k in ("command", "code_version", "settings", "anchors")})


def load(ratings: Ratings, path: Path | None = None) -> Study:
    """A study written by :func:`save` (default: the shipped one), read against the ladder's ``ratings``."""
    p = Path(path) if path is not None else data_dir() / FILE
    meta, arrays = tr.read(p, "checkers study file")
    if meta.get("method") != "samuel-study":
        raise ValueError(f"{p} is not a checkers study file")
    s = meta["settings"]
    spec = StudySpec(**{**s, "snapshots": tuple(s["snapshots"]), "configs": tuple(s["configs"])})
    return Study(spec, arrays, ratings, tuple(meta["anchors"]), meta)


def study(ratings: Ratings, profile: str = "standard", progress: bool = True) -> Study:
    """Notebook 02's study: the shipped one, or (full profile) its command run again under ``build/full/data``."""
    if profile != "full":
        return load(ratings)
    return load(ratings, tr.rerun_shipped(FILE, "python -m tdbook.experiments.checkers.samuel_study", main, progress))


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m tdbook.experiments.checkers.samuel_study …``: run the study and write it with its sidecar."""
    argv = list(sys.argv[1:] if argv is None else argv)
    ap = argparse.ArgumentParser(prog="python -m tdbook.experiments.checkers.samuel_study",
                                 description=__doc__.split("\n")[0])  # fmt: skip
    d = StudySpec()
    ap.add_argument("--games", type=int, default=d.games, help="self-play games per run")
    ap.add_argument("--seeds", type=int, default=d.seeds, help="runs per configuration")
    ap.add_argument("--snapshots", type=int, nargs="+", default=None, help="game counts rated (0 … games)")
    ap.add_argument("--ballots", type=int, default=d.ballots, help="ballots per anchor match, each played twice")
    ap.add_argument("--first-seeds", type=int, default=d.first_seeds, help="runs for the first games")
    ap.add_argument("--seed", type=int, default=d.seed, help="the first seed")
    ap.add_argument("--configs", nargs="+", default=None, help=f"configurations (default all: {', '.join(CONFIGS)})")
    tr.add_file_options(ap, FILE)
    a = ap.parse_args(argv)
    snaps = tuple(a.snapshots) if a.snapshots else tuple(x for x in d.snapshots if x < a.games) + (a.games,)
    try:
        spec = StudySpec(a.games, a.seeds, snaps, a.ballots, a.first_seeds, d.first_games, a.seed,
                         tuple(a.configs) if a.configs else tuple(CONFIGS))  # fmt: skip
    except ValueError as e:
        ap.error(str(e))
    out = tr.output_file(a.out, repo_root() / "build" / "checkers" / FILE, a.force, "checkers study")
    if out is None:
        return 2
    command = "python -m tdbook.experiments.checkers.samuel_study " + shlex.join(argv)
    anchors = players_of(LadderSpec(ANCHORS), Context(LadderSpec(ANCHORS), a.profile))
    with _cluster(a.workers):
        arrays = play(spec, anchors, progress=not a.no_progress)
    save(spec, arrays, out, command)
    print(f"wrote {out} and its sidecar")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
