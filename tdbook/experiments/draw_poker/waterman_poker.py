"""Notebook 04's training studies and tests: Waterman (1968) ch. 5 (§5.2–5.5, Tables 5-1 to 5-3).

Everything here returns data; figures are in :mod:`tdbook.plots.draw_poker`, the worked examples of
ch. 2–4 and App. G, I, J in :mod:`tdbook.experiments.draw_poker.examples`, the claims' measured
values in :mod:`tdbook.experiments.draw_poker.claims`.  A study is many seeded runs of one training
procedure (:mod:`tdbook.experiments.draw_poker.training`); each run ``r`` of a study uses seed
``SEED·1000 + r`` so studies are reproducible and independent of each other's sizes.  Table 5-3's
winnings column is rebuilt from duplicate proficiency tests
(:mod:`tdbook.experiments.draw_poker.matches`).

Notebook 04 uses this module, section by section (``python -m tdbook.catalog --write`` keeps this list):

- What we found: ``config``
- 1. Production rules (§2.2): ``fire``
- 2. Learning heuristics (ch. 3): ``RuleSet``
- 4. The poker program (§5.2, App. B, G, I, J): ``built_in``, ``CORR_MODES``, ``lisp``
- 4.1 The stand-in opponent, and who beats whom: ``head_to_head``, ``opponents``
- 5. Automatic training (§5.3, Table 5-1): ``explicit_study``
- 6. Implicit training (§5.4, Table 5-2): ``implicit_study``
- 7. Manual training, and the three procedures compared (§5.3, §5.5): ``noise_sweep``
- 8. Table 5-3 rebuilt: the duplicate proficiency test: ``table_53``
- 9. The unstated constants: ``sweep``
- 10. Beyond the thesis: a stronger opponent: ``equity_player``
- 13. Train it yourself: ``explore``
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from tqdm.auto import tqdm

from ...claims import Estimate
from ...core import profiles
from ...learners.draw_poker_heuristics import BUILTIN_VARIANTS, built_in, lisp, random_program
from ...learners.production_rules_kernels import fire as fire  # the decision §1 shows (plain Python)
from ...learners.rule_learning import LearnParams, RuleSet
from ...players.draw_poker import RANDOM_MODES, Player, equity_player, experienced, program_player, random_player
from .matches import Proficiency, Protocol, proficiency
from .training import (
    AgreementSpec,
    Bookkeeping,
    ExplicitSpec,
    ImplicitSpec,
    agreement_explicit,
    agreement_implicit,
    train_explicit,
    train_implicit,
)

#: Profile defaults for notebook 04 (see :func:`config`).
PROFILES: dict[str, dict[str, Any]] = {
    "quick": {
        "AUTO_RUNS": 10,
        "IMPLICIT_RUNS": 10,
        "MANUAL_RUNS": 10,
        "AGREE_N": 50,
        "AGREE_LONG": 150,
        "TESTS": 60,
        "TEST_PROGRAMS": 4,
        "SWEEP_RUNS": 2,
        "SWEEP_AGREE": 60,
        "NOISE": 0.15,
        "K": 4,
        "KK": 0,
        "N": 2,
        "WINDOW": 40,
        "COVERAGE": 0.95,
        "MEMORY": 25,
        "CLEAN_GAMES": 1,
        "RANDOM_MODE": "classes",
        "CORR_MODE": "appJ",
        "NOTPREV": "opp",
        "BUILTIN": "fig5-3",
        "SWAP_SEATS": False,
        "BLUFF": 0.10,
        "H2H_REPS": 20,
        "READING_RUNS": 10,
        "SWEEP_K": [1, 2, 4, 8],
        "SWEEP_KK": [0, 1, 2, 4],
        "SWEEP_CLEAN": [1, 2, 3],
        "SWEEP_N": [1, 2, 3, 4],
        "NOISE_GRID": [0.0, 0.05, 0.1, 0.15, 0.2, 0.3],
    },
    "standard": {
        "AUTO_RUNS": 500,
        "IMPLICIT_RUNS": 300,
        "MANUAL_RUNS": 500,
        "AGREE_N": 50,
        "AGREE_LONG": 1000,
        "TESTS": 1000,
        "TEST_PROGRAMS": 100,
        "SWEEP_RUNS": 50,
        "SWEEP_AGREE": 300,
        "NOISE": 0.15,
        "K": 4,
        "KK": 0,
        "N": 2,
        "WINDOW": 40,
        "COVERAGE": 0.95,
        "MEMORY": 25,
        "CLEAN_GAMES": 1,
        "RANDOM_MODE": "classes",
        "CORR_MODE": "appJ",
        "NOTPREV": "opp",
        "BUILTIN": "fig5-3",
        "SWAP_SEATS": False,
        "BLUFF": 0.10,
        "H2H_REPS": 250,
        "READING_RUNS": 50,
        "SWEEP_K": [1, 2, 4, 8],
        "SWEEP_KK": [0, 1, 2, 4],
        "SWEEP_CLEAN": [1, 2, 3],
        "SWEEP_N": [1, 2, 3, 4],
        "NOISE_GRID": [0.0, 0.05, 0.1, 0.15, 0.2, 0.3],
    },
    "full": {
        "AUTO_RUNS": 1000,
        "IMPLICIT_RUNS": 1000,
        "MANUAL_RUNS": 1000,
        "AGREE_N": 50,
        "AGREE_LONG": 5000,
        "TESTS": 2000,
        "TEST_PROGRAMS": 200,
        "SWEEP_RUNS": 200,
        "SWEEP_AGREE": 1000,
        "NOISE": 0.15,
        "K": 4,
        "KK": 0,
        "N": 2,
        "WINDOW": 40,
        "COVERAGE": 0.95,
        "MEMORY": 25,
        "CLEAN_GAMES": 1,
        "RANDOM_MODE": "classes",
        "CORR_MODE": "appJ",
        "NOTPREV": "opp",
        "BUILTIN": "fig5-3",
        "SWAP_SEATS": False,
        "BLUFF": 0.10,
        "H2H_REPS": 1000,
        "READING_RUNS": 200,
        "SWEEP_K": [1, 2, 3, 4, 6, 8, 12],
        "SWEEP_KK": [0, 1, 2, 3, 4, 6],
        "SWEEP_CLEAN": [1, 2, 3, 4],
        "SWEEP_N": [1, 2, 3, 4, 5],
        "NOISE_GRID": [0.0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4],
    },
}

CORR_MODES = {"appJ": 0, "notes": 1}


def config(profile: str, **knobs: Any) -> profiles.Config:
    """Resolve notebook 04's knobs for ``profile`` (a knob passed as None takes the profile default)."""
    cfg = profiles.resolve(profile, PROFILES, **knobs)
    for name in (
        "AUTO_RUNS",
        "IMPLICIT_RUNS",
        "MANUAL_RUNS",
        "AGREE_N",
        "AGREE_LONG",
        "TESTS",
        "TEST_PROGRAMS",
        "SWEEP_RUNS",
        "SWEEP_AGREE",
        "WINDOW",
        "MEMORY",
        "CLEAN_GAMES",
        "N",
    ):
        if cfg[name] < 1:
            raise ValueError(f"{name} must be >= 1, got {cfg[name]!r}")
    for name in ("H2H_REPS", "READING_RUNS"):
        if cfg[name] < 1:
            raise ValueError(f"{name} must be >= 1, got {cfg[name]!r}")
    for name in ("K", "KK"):
        if cfg[name] < 0:
            raise ValueError(f"{name} must be >= 0, got {cfg[name]!r}")
    for name, lo in (("SWEEP_K", 0), ("SWEEP_KK", 0), ("SWEEP_CLEAN", 1), ("SWEEP_N", 1)):
        g = cfg[name]
        if not g or any(isinstance(v, bool) or not isinstance(v, int) or v < lo for v in g):
            raise ValueError(f"{name} must be a non-empty list of ints >= {lo}, got {g!r}")
    g = cfg.NOISE_GRID
    if not g or any(isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 <= v < 1 for v in g):
        raise ValueError(f"NOISE_GRID must be a non-empty list of rates in [0, 1), got {g!r}")
    if not 0 <= cfg.NOISE < 1:
        raise ValueError(f"NOISE must be in [0, 1), got {cfg.NOISE!r}")
    if not 0 < cfg.COVERAGE <= 1:
        raise ValueError(f"COVERAGE must be in (0, 1], got {cfg.COVERAGE!r}")
    if not 0 <= cfg.BLUFF <= 1:
        raise ValueError(f"BLUFF must be in [0, 1], got {cfg.BLUFF!r}")
    checks = {
        "RANDOM_MODE": RANDOM_MODES,
        "CORR_MODE": CORR_MODES,
        "NOTPREV": ("opp", "you"),
        "BUILTIN": BUILTIN_VARIANTS,
    }
    for name, allowed in checks.items():
        if cfg[name] not in allowed:
            raise ValueError(f"{name} must be one of {list(allowed)}, got {cfg[name]!r}")
    return cfg


def with_knobs(cfg: profiles.Config, **changes: Any) -> profiles.Config:
    """``cfg`` with some knobs changed (checked like :func:`config`)."""
    return config(cfg.PROFILE, **{**{k: cfg[k] for k in PROFILES[cfg.PROFILE]}, **changes})


def params(cfg: profiles.Config, **over: Any) -> LearnParams:
    d = {"K": cfg.K, "KK": cfg.KK, "N": cfg.N}
    d.update(over)
    return LearnParams(**d)


# ============================================================================= training studies


@dataclass
class Study:
    """Many seeded training runs of one procedure."""

    name: str
    trials: np.ndarray
    created: np.ndarray
    redundant: np.ndarray
    rules: np.ndarray
    rops: np.ndarray
    converged: np.ndarray
    before: np.ndarray  # agreement on AGREE_N situations before training
    after: np.ndarray  # ... after
    after_long: np.ndarray  # agreement on AGREE_LONG situations after training
    coverage: np.ndarray  # on those situations: the fraction decided by a learned rule, not the random rule
    programs: list = field(repr=False, default_factory=list)

    def stat(self, name: str) -> tuple[float, float, float]:
        """(mean, 95 % half-width of the mean, s.d. of one run)."""
        x = np.asarray(getattr(self, name), dtype=float)
        x = x[~np.isnan(x)]
        sd = float(x.std(ddof=1)) if len(x) > 1 else 0.0
        return float(x.mean()), 1.96 * sd / math.sqrt(max(len(x), 1)), sd

    def estimate(self, name: str, scale: float = 1.0) -> Estimate:
        """The mean of ``name`` over the runs (× ``scale``) with its standard error (runs are independent)."""
        x = np.asarray(getattr(self, name), dtype=float) * scale
        return cluster_estimate(x[~np.isnan(x)])

    def difference(self, other: Study, name: str, scale: float = 1.0) -> Estimate:
        """This study's mean of ``name`` minus ``other``'s, with the standard error of the difference
        (independent studies)."""
        a, b = self.estimate(name, scale), other.estimate(name, scale)
        return Estimate(a.mean - b.mean, math.hypot(a.stderr, b.stderr), min(a.n, b.n))


def cluster_estimate(x: Any, labels: Any = None) -> Estimate:
    """The mean of ``x`` with its standard error, cluster-robust when ``labels`` group correlated values
    (e.g. the tests of one trained program): var = G/(G−1) · Σ_g (Σ_{i∈g} (x_i − x̄))² / n²; with one
    value per cluster (``labels`` None) this is the usual s² / n."""
    x = np.asarray(x, dtype=float)
    n = x.size
    if n < 2 or not np.all(np.isfinite(x)):
        raise ValueError(f"an estimate needs at least two finite values, got {n}")
    labels = np.arange(n) if labels is None else np.asarray(labels)
    if labels.shape != x.shape:
        raise ValueError(f"labels must match the values' shape {x.shape}, got {labels.shape}")
    _, g = np.unique(labels, return_inverse=True)
    sums = np.bincount(g, weights=x - x.mean())
    k = sums.size
    if k < 2:
        raise ValueError("a cluster-robust standard error needs at least two clusters")
    return Estimate(float(x.mean()), float(math.sqrt(k / (k - 1) * np.sum(sums**2)) / n), int(n))


def _seed(seed: int, r: int) -> int:
    return seed * 1000 + r


def random_rule_agreement(
    cfg: profiles.Config, seed: int, runs: int, random_mode: str = "bcd", progress: bool = True
) -> np.ndarray:
    """Table 5-1's 'before' agreement of the random rule alone under ``random_mode`` (e.g. "bcd":
    drop/call/bet 1–20 uniformly), one ``AGREE_N``-situation test per run ``r`` (seed ``SEED·1000 + r``)."""
    if not isinstance(runs, int) or isinstance(runs, bool) or runs < 1:
        raise ValueError(f"runs must be a positive int, got {runs!r}")
    if random_mode not in RANDOM_MODES:
        raise ValueError(f"random_mode must be one of {list(RANDOM_MODES)}, got {random_mode!r}")
    opp, trainer = experienced(cfg.BLUFF), built_in(cfg.BUILTIN)
    prog, spec = random_program(), AgreementSpec(random_mode, corr_mode=CORR_MODES[cfg.CORR_MODE])
    return np.array(
        [
            agreement_explicit(prog, _seed(seed, r), cfg.AGREE_N, opp, trainer, spec).agreement
            for r in tqdm(range(runs), desc=f"random rule ({random_mode})", disable=not progress, leave=False)
        ]
    )


def _study(
    name: str,
    runs: int,
    seed: int,
    train: Any,
    agree: Any,
    before_program: RuleSet,
    cfg: profiles.Config,
    progress: bool,
) -> Study:
    rows, progs = [], []
    for r in tqdm(range(runs), desc=f"{name} training", disable=not progress, leave=False):
        s = _seed(seed, r)
        run = train(s)
        before = agree(before_program, s, cfg.AGREE_N)
        after = agree(run.program, s, cfg.AGREE_N)
        long = agree(run.program, s + 500, cfg.AGREE_LONG)
        rows.append(
            (
                run.trials,
                run.created,
                run.redundant,
                run.rules,
                run.rops,
                run.converged,
                before.agreement,
                after.agreement,
                long.agreement,
                long.coverage,
            )
        )
        progs.append(run.program)
    a = np.array(rows, dtype=float)
    return Study(name, *(a[:, i] for i in range(10)), programs=progs)


def explicit_study(
    cfg: profiles.Config,
    seed: int,
    runs: int,
    noise: float = 0.0,
    name: str = "automatic",
    opponent: Player | None = None,
    progress: bool = True,
    **over: Any,
) -> Study:
    """``runs`` automatic-training runs (§5.3; ``noise`` > 0: the manual-training proxy)."""
    opponent = opponent or experienced(cfg.BLUFF)
    trainer = built_in(cfg.BUILTIN)
    corr = CORR_MODES[cfg.CORR_MODE]
    spec = ExplicitSpec(noise=noise, clean_games=cfg.CLEAN_GAMES, books=Bookkeeping(corr, cfg.MEMORY))
    agreement = AgreementSpec(cfg.RANDOM_MODE, corr_mode=corr)

    def train(s):
        return train_explicit(s, opponent, params(cfg, **over), trainer, spec)

    def agree(prog, s, n):
        return agreement_explicit(prog, s, n, opponent, trainer, agreement)

    return _study(name, runs, seed, train, agree, random_program(), cfg, progress)


def implicit_study(
    cfg: profiles.Config, seed: int, runs: int, opponent: Player | None = None, progress: bool = True, **over: Any
) -> Study:
    """``runs`` implicit-training runs (§5.4)."""
    opponent = opponent or experienced(cfg.BLUFF)
    corr = CORR_MODES[cfg.CORR_MODE]
    spec = ImplicitSpec(
        coverage=cfg.COVERAGE, window=cfg.WINDOW, notprev=cfg.NOTPREV, books=Bookkeeping(corr, cfg.MEMORY)
    )
    agreement = AgreementSpec(cfg.RANDOM_MODE, cfg.NOTPREV, corr)

    def train(s):
        return train_implicit(s, opponent, params(cfg, **over), spec)

    def agree(prog, s, n):
        return agreement_implicit(prog, s, n, opponent, agreement)

    return _study("implicit", runs, seed, train, agree, random_program("implicit"), cfg, progress)


# ============================================================================= Table 5-3


@dataclass
class Winnings:
    """Proficiency tests of one kind of program (several trained programs pooled)."""

    name: str
    tests: list[Proficiency]  # one entry per program; test t of every kind is played on the same deals

    def values(self, what: str = "gross_pct") -> np.ndarray:
        return np.concatenate([getattr(t, what) for t in self.tests])

    def stat(self, what: str = "gross_pct") -> tuple[float, float, float]:
        x = self.values(what)
        sd = float(x.std(ddof=1)) if len(x) > 1 else 0.0
        return float(x.mean()), 1.96 * sd / math.sqrt(len(x)), sd

    @property
    def clusters(self) -> np.ndarray | None:
        """The program each test belongs to (its tests are correlated), or None for one program's iid tests."""
        if len(self.tests) < 2:
            return None
        return np.concatenate([np.full(t.nets1.shape[0], i) for i, t in enumerate(self.tests)])

    def estimate(self, what: str = "gross_pct") -> Estimate:
        """The mean over the tests with its standard error, clustered by program when several are pooled."""
        return cluster_estimate(self.values(what), self.clusters)

    def difference(self, other: Winnings, what: str = "gross_pct") -> Estimate:
        """This kind's mean minus ``other``'s, test by test on the same deals (paired), with the standard error
        of the paired difference, clustered by the programs of the kind(s) that pool several."""
        a, b = self.values(what), other.values(what)
        if a.shape != b.shape:
            raise ValueError(
                f"{self.name} and {other.name} were not tested on the same deals ({a.size} vs {b.size} tests)"
            )
        ca, cb = self.clusters, other.clusters
        labels = ca if cb is None else cb if ca is None else ca * (int(cb.max()) + 1) + cb
        return cluster_estimate(a - b, labels)


def winnings(
    programs: Sequence[Player],
    opponent: Player,
    cfg: profiles.Config,
    seed: int,
    name: str,
    stream0: int = 0,
    progress: bool = True,
) -> Winnings:
    """``cfg.TESTS`` duplicate proficiency tests spread over ``programs`` (same deals for every kind).
    Each test is the document's protocol (Fig. 5-4): 5 games × 5 r-o-ps in series I, the same 25 deals
    with the hands swapped in series II."""
    if not programs:
        raise ValueError("winnings needs at least one program")
    per = max(1, cfg.TESTS // len(programs))
    protocol = Protocol(swap_seats=cfg.SWAP_SEATS, corr_mode=CORR_MODES[cfg.CORR_MODE])
    tests = []
    for i, p in enumerate(tqdm(programs, desc=f"{name} tests", disable=not progress or len(programs) < 2, leave=False)):
        tests.append(proficiency(p, opponent, per, seed=seed, stream0=stream0 + i * per, protocol=protocol))
    return Winnings(name, tests)


def table_53(
    cfg: profiles.Config,
    seed: int,
    auto: Study,
    manual: Study,
    implicit: Study,
    opponent: Player | None = None,
    progress: bool = True,
) -> dict[str, Winnings]:
    """Table 5-3's winnings column rebuilt: built-in, before-training, and the first
    ``TEST_PROGRAMS`` trained programs of each study, against the stand-in opponent."""
    opponent = opponent or experienced(cfg.BLUFF)
    n = cfg.TEST_PROGRAMS
    rm = cfg.RANDOM_MODE
    progs = {
        "built-in": [program_player(built_in(cfg.BUILTIN), "built-in")],
        "before-training": [program_player(random_program(), "before-training", random_mode=rm)],
        "manual-training": [program_player(p, "manual", random_mode=rm) for p in manual.programs[:n]],
        "automatic-training": [program_player(p, "automatic", random_mode=rm) for p in auto.programs[:n]],
        "implicit-training": [
            program_player(p, "implicit", classes="implicit", random_mode=rm) for p in implicit.programs[:n]
        ],
    }
    return {
        k: winnings(v, opponent, cfg, seed, k, progress=False)
        for k, v in tqdm(progs.items(), desc="Table 5-3 tests", disable=not progress, leave=False)
    }


# ============================================================================= sensitivity and beyond


def sweep(
    cfg: profiles.Config, seed: int, procedure: str, knob: str, values: Sequence[Any], progress: bool = True
) -> dict[Any, Study]:
    """The unstated constants: one training study (``SWEEP_RUNS`` runs, agreement on ``SWEEP_AGREE``
    situations) per value of ``knob`` — a learning constant (K, KK, N, keep_exclusive, search) or
    a knob of the notebook (NOTPREV, CLEAN_GAMES, WINDOW, MEMORY, …)."""
    out = {}
    learn = {"keep_exclusive", "search", "reuse"}  # LearnParams fields that are not notebook knobs
    for v in tqdm(values, desc=f"{procedure}: {knob}", disable=not progress, leave=False):
        c = with_knobs(cfg, AGREE_LONG=cfg.SWEEP_AGREE, **({} if knob in learn else {knob: v}))
        over = {knob: v} if knob in learn else {}
        if procedure == "implicit":
            out[v] = implicit_study(c, seed + 7, cfg.SWEEP_RUNS, progress=False, **over)
        else:
            out[v] = explicit_study(c, seed + 7, cfg.SWEEP_RUNS, progress=False, **over)
    return out


def noise_sweep(cfg: profiles.Config, seed: int, values: Sequence[float], progress: bool = True) -> dict[float, Study]:
    """The manual-training proxy at several rates of inconsistent advice."""
    c = with_knobs(cfg, AGREE_LONG=cfg.SWEEP_AGREE)
    return {
        v: explicit_study(c, seed + 11, cfg.SWEEP_RUNS, noise=v, name=f"noise {v:g}", progress=False)
        for v in tqdm(values, desc="noise", disable=not progress, leave=False)
    }


def opponents(cfg: profiles.Config) -> dict[str, Player]:
    return {
        "experienced (scripted)": experienced(cfg.BLUFF),
        "built-in copy": program_player(built_in(cfg.BUILTIN), "built-in copy"),
        "equity threshold": equity_player(),
        "uniform random": random_player(),
    }


def head_to_head(players: dict[str, Player], cfg: profiles.Config, seed: int, reps: int, progress: bool = True) -> dict:
    """Mean duplicate difference (chips per r-o-p) of every row player against every column player.

    Every ordered pair plays ``reps`` duplicate tests on the *same* deals as its mirror pair, each deal
    twice with hands *and* seats swapped (``swap_seats=True``: the player holding a hand also holds
    its position in both series), so ``mean[i, j] ≈ −mean[j, i]`` up to the players' own random
    choices.  ``antisymmetry`` is the largest |mean[i, j] + mean[j, i]|."""
    if not isinstance(reps, int) or isinstance(reps, bool) or reps < 1:
        raise ValueError(f"reps must be a positive int, got {reps!r}")
    names = list(players)
    if len(names) < 2:
        raise ValueError("head_to_head needs at least two players")
    m = np.zeros((len(names), len(names)))
    h = np.zeros_like(m)
    pairs = [(i, j) for i in range(len(names)) for j in range(len(names)) if i != j]
    protocol = Protocol(swap_seats=True, corr_mode=CORR_MODES[cfg.CORR_MODE])
    for i, j in tqdm(pairs, desc="head to head", disable=not progress, leave=False):
        pair = min(i, j) * len(names) + max(i, j)  # the mirror pair plays the same deals
        pr = proficiency(players[names[i]], players[names[j]], reps, seed=seed, stream0=reps * pair, protocol=protocol)
        m[i, j], h[i, j], _ = pr.summary("chips_per_rop")
    return {"names": names, "mean": m, "half": h, "reps": reps, "antisymmetry": float(np.abs(m + m.T).max())}


# ============================================================================= widget


def explore(
    procedure: str = "automatic",
    K: int = 4,
    KK: int = 0,
    N: int = 2,
    noise: float = 0.15,
    opponent: str = "experienced (scripted)",
    runs: int = 10,
    seed: int = 1968,
) -> dict[str, Any]:
    """Rerun a training study with new constants (the notebook's panel)."""
    if not isinstance(runs, int) or runs < 1:
        raise ValueError(f"runs must be a positive int, got {runs!r}")
    cfg = config(
        "quick",
        K=K,
        KK=KK,
        N=N,
        NOISE=noise,
        AUTO_RUNS=runs,
        IMPLICIT_RUNS=runs,
        MANUAL_RUNS=runs,
        TESTS=40 * runs,
        TEST_PROGRAMS=runs,
        AGREE_LONG=200,
    )
    opp = opponents(cfg)
    if opponent not in opp:
        raise ValueError(f"opponent must be one of {list(opp)}, got {opponent!r}")
    o = opp[opponent]
    if procedure == "implicit":
        st = implicit_study(cfg, seed, runs, opponent=o, progress=True)
        players = [program_player(p, classes="implicit") for p in st.programs]
    elif procedure in ("automatic", "manual"):
        st = explicit_study(cfg, seed, runs, noise=noise if procedure == "manual" else 0.0, name=procedure, opponent=o)
        players = [program_player(p) for p in st.programs]
    else:
        raise ValueError(f"procedure must be 'automatic', 'manual' or 'implicit', got {procedure!r}")
    w = winnings(players, o, cfg, seed, procedure)
    return {
        "study": st,
        "winnings": w,
        "procedure": procedure,
        "opponent": opponent,
        "example": lisp(st.programs[0]),
    }


#: The chapter's findings (``tdbook.findings``): claim id → the statement, in the order a reader should meet them.
FINDINGS: dict[str, str] = {
    "tab5.1-agreement-after": "after automatic training the program agrees with its trainer almost always",
    "§5.4-implicit-agreement-below-explicit": "implicit training agrees less with its standard than automatic "
    "training with its trainer",
    "tab5.3-built-in-winnings": "the built-in program wins about as much as the experienced human",
    "tab5.3-automatic-training-winnings": "after automatic training the program wins about as much as the human",
    "§5.5-training-improves": "training clearly improves the program's play",
}
