"""Notebook 06's runs: tic-tac-toe with TD(λ) after-state tables (Powell (2000) §6.1–6.2, App. B, App. D).

Every function returns data; figures are in :mod:`tdbook.plots.tictactoe_table`, the measurements of a
learned table in :mod:`tdbook.experiments.tictactoe.table_evaluation`, the claims' measured values in
:mod:`tdbook.experiments.tictactoe.table_claims`.  A training run is App. B.1's program
(:mod:`tdbook.experiments.tictactoe.table_training`): the TD(λ) player (App. B.7, ``rule="thesis"``
unless stated) against an opponent, 1.5 M games as 3 × 500,000-game chunks (counters reset, table saved
to 6 digits and reloaded, a fresh random stream per chunk).  Each setting is repeated ``REPLICATES``
times with independent seeds; the thesis's numbers come from one run each.

Seeds: run ``r`` of experiment ``label`` uses :func:`run_seed` ``(SEED, label, r)`` — a stable hash, so
adding an experiment never changes another one's numbers.

The module is long (about 620 lines) but one thing: the experiments of notebook 06 as run specifications
and their replicates, section by section; the training loop, the evaluation and the claims are elsewhere.

Notebook 06 uses this module, section by section (``python -m tdbook.catalog --write`` keeps this list):

- What we found: ``config``
- 2. The player of Appendix B: ``afterstate_update``
- 3. Figs 6.2–6.4: the step size α: ``alpha_runs``, ``crossover_runs``, ``ALPHA_FIGURES``, ``thesis_wdl``
- 4. Fig. 6.5 (draw reward), exploration, Fig. 6.6 (λ): ``draw_runs``, ``epsilon_runs``, ``lambda_runs``,
  ``window_win_curves``
- 5. Fig. 6.7 (TD as X) and Appendix D: ``td_as_x_runs``, ``printed``, ``thesis_first_moves``
- 6. Table 6.1 with the human replaced: ``table61``
- 8. p. 63: the X table as a teacher: ``teacher_runs``
- 9. Beyond the thesis: a corrected player that plays perfectly: ``self_play``
- 9.1 Ablation: which correction matters?: ``ablation``, ``gap_closed``, ``ABLATION_METRICS``
- 13. Try it yourself: ``explore``
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from tqdm.auto import tqdm

from ... import claims
from ...core import profiles
from ...learners.tictactoe_table import afterstate_update as afterstate_update  # the rule §2 shows (plain Python)
from ...learners.tictactoe_table import check_params, empty_table
from ...players.tictactoe import (
    RULE_FLAGS,
    RULES,
    Player,
    check_rule,
    perfect_player,
    random_player,
    rule_name,
    table_player,
)
from .table_evaluation import Evaluation, evaluate
from .table_training import Training, TrainResult, train

NOTEBOOK = "06_tictactoe_td_table"

#: Profile defaults for notebook 06 (see :func:`config`).
PROFILES: dict[str, dict[str, Any]] = {
    "quick": {
        "GAMES": 60_000,
        "CHUNK": 20_000,
        "LOG_EVERY": 1000,
        "REPLICATES": 2,
        "ALPHAS": [0.05, 0.10, 0.15],
        "LAMBDA": 0.5,
        "EPSILON": 0.05,
        "DRAW_REWARDS": [-0.1, 0.0, 0.1, 0.5],
        "EPSILONS": [0.025, 0.05, 0.1],
        "LAMBDAS": [0.0, 0.2, 0.4, 0.6],
        "LAMBDA_GAMES": 20_000,
        "TABLE61_GAMES": 60_000,
        "TABLE61_LAMBDAS": [0.0, 0.2, 0.3, 0.5, 0.6],
        "EVAL_GAMES": 2000,
        "SELFPLAY_GAMES": 60_000,
        "ABLATION_GAMES": 60_000,
        "ABLATION_REPLICATES": 1,
        "CROSSOVER_RUNS": 4,
    },
    "standard": {
        "GAMES": 1_500_000,
        "CHUNK": 500_000,
        "LOG_EVERY": 1000,
        "REPLICATES": 5,
        "ALPHAS": [0.05, 0.10, 0.15],
        "LAMBDA": 0.5,
        "EPSILON": 0.05,
        "DRAW_REWARDS": [-0.1, 0.0, 0.1, 0.5],
        "EPSILONS": [0.025, 0.05, 0.1],
        "LAMBDAS": [0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6],
        "LAMBDA_GAMES": 200_000,
        "TABLE61_GAMES": 10_000_000,
        "TABLE61_LAMBDAS": [0.0, 0.2, 0.3, 0.5, 0.6],
        "EVAL_GAMES": 2000,
        "SELFPLAY_GAMES": 1_500_000,
        "ABLATION_GAMES": 1_500_000,
        "ABLATION_REPLICATES": 3,
        "CROSSOVER_RUNS": 20,
    },
    "full": {
        "GAMES": 1_500_000,
        "CHUNK": 500_000,
        "LOG_EVERY": 1000,
        "REPLICATES": 20,
        "ALPHAS": [0.05, 0.10, 0.15],
        "LAMBDA": 0.5,
        "EPSILON": 0.05,
        "DRAW_REWARDS": [-0.1, 0.0, 0.1, 0.5],
        "EPSILONS": [0.025, 0.05, 0.1],
        "LAMBDAS": [0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6],
        "LAMBDA_GAMES": 500_000,
        "TABLE61_GAMES": 10_000_000,
        "TABLE61_LAMBDAS": [0.0, 0.2, 0.3, 0.5, 0.6],
        "EVAL_GAMES": 10_000,
        "SELFPLAY_GAMES": 10_000_000,
        "ABLATION_GAMES": 1_500_000,
        "ABLATION_REPLICATES": 10,
        "CROSSOVER_RUNS": 50,
    },
}


@dataclass(frozen=True)
class Table61Spec:
    """One row of Table 6.1 as the thesis trained it (its printed results: :func:`table61_printed`)."""

    label: str
    side: str  # the TD(λ) table's side
    lam: float
    draw: float  # the draw reward
    games: int  # the thesis's training games


def table61_printed() -> list[tuple[Table61Spec, dict[str, int]]]:
    """Table 6.1 as printed (``tdbook/claims/tables/powell2000_table_6_1.tsv``): each row's setting and its
    (states, human, td, draws) — games won by the author, by the table, and drawn, of 20."""
    header, rows = claims.table("powell2000", "table_6_1")
    col = {h: i for i, h in enumerate(header)}
    out = []
    for r in rows:
        lam, x, tie = float(r[col["lambda"]]), bool(r[col["computer_x"]]), float(r[col["tie"]])
        label = f"λ={lam:.1f}" + (" (computer X)" if x else "") + (f" (tie=−{abs(tie):g})" if tie < 0 else "")
        spec = Table61Spec(label, "X" if x else "O", lam, tie, int(r[col["games"]]))
        out.append((spec, {k: int(r[col[k]]) for k in ("states", "human", "td", "draws")}))
    return out


def printed(claim_id: str) -> Any:
    """The printed value of one of notebook 06's claims (``tdbook/claims/powell2000.toml``)."""
    return claims.get(NOTEBOOK, claim_id).paper


#: the figure of each α of Figs 6.2–6.4 (the claims ``fig6.2-…``, ``fig6.3-…``, ``fig6.4-…``)
ALPHA_FIGURES: dict[float, str] = {0.05: "6.2", 0.10: "6.3", 0.15: "6.4"}


def thesis_wdl(alpha: float) -> tuple[float, float, float] | None:
    """The printed final win/draw/loss % of TD(λ) as O at step size ``alpha`` (Figs 6.2–6.4), if printed."""
    n = ALPHA_FIGURES.get(alpha)
    return None if n is None else tuple(printed(f"fig{n}-wdl"))


#: the squares of X's openings whose value App. D prints legibly (square 6 is lost in the OCR)
APPENDIX_D_SQUARES: tuple[int, ...] = (0, 1, 2, 3, 4, 5, 7, 8)


def thesis_first_moves() -> dict[int, float]:
    """App. D's values of X's opening after-states, by square (claim ``appD-first-moves``)."""
    return dict(zip(APPENDIX_D_SQUARES, printed("appD-first-moves"), strict=True))


def config(profile: str, **knobs: Any) -> profiles.Config:
    """Resolve notebook 06's knobs for ``profile`` (a knob passed as None takes the profile default)."""
    cfg = profiles.resolve(profile, PROFILES, **knobs)
    for name in (
        "GAMES",
        "CHUNK",
        "LOG_EVERY",
        "REPLICATES",
        "LAMBDA_GAMES",
        "TABLE61_GAMES",
        "EVAL_GAMES",
        "SELFPLAY_GAMES",
        "ABLATION_GAMES",
        "ABLATION_REPLICATES",
        "CROSSOVER_RUNS",
    ):
        if cfg[name] < 1:
            raise ValueError(f"{name} must be >= 1, got {cfg[name]!r}")
    for name in ("GAMES", "LAMBDA_GAMES", "TABLE61_GAMES", "SELFPLAY_GAMES", "ABLATION_GAMES"):
        if cfg[name] % min(cfg.CHUNK, cfg[name]) or min(cfg.CHUNK, cfg[name]) % cfg.LOG_EVERY:
            raise ValueError(
                f"{name} ({cfg[name]}) must be a multiple of CHUNK ({cfg.CHUNK}) or smaller than it, "
                f"and CHUNK a multiple of LOG_EVERY ({cfg.LOG_EVERY})"
            )
    if cfg.EVAL_GAMES < 20:
        raise ValueError(f"EVAL_GAMES must be >= 20 (Table 6.1 has 20 games per row), got {cfg.EVAL_GAMES}")
    for a in cfg.ALPHAS:
        check_params(a, cfg.LAMBDA, 1.0)
    for lam in list(cfg.LAMBDAS) + list(cfg.TABLE61_LAMBDAS):
        check_params(0.05, lam, 1.0)
    for e in list(cfg.EPSILONS) + [cfg.EPSILON]:
        if not 0.0 <= e <= 1.0:
            raise ValueError(f"an exploration rate must be in [0, 1], got {e!r}")
    if 0.05 not in cfg.ALPHAS or 0.0 not in cfg.DRAW_REWARDS:
        raise ValueError("ALPHAS must contain 0.05 and DRAW_REWARDS 0.0 (the thesis's chosen settings)")
    return cfg


def run_seed(seed: int, label: str, replicate: int = 0) -> int:
    """The seed of replicate ``replicate`` of experiment ``label`` (stable across code changes elsewhere)."""
    return (int(seed) * 1_000_003 + zlib.crc32(label.encode()) * 101 + replicate) % (1 << 62)


#: The chapter's findings (``tdbook.findings``): claim id → the statement, in the order a reader should meet them.
FINDINGS: dict[str, str] = {
    "fig6.2-wdl": "trained as the thesis trains it, the table player (O) wins, draws and loses against a "
    "random X as printed",
    "fig6.2-crossover": "the table player overtakes the random player after about as many games as printed",
    "fig6.7-wdl": "playing X, the table player wins, draws and loses as printed",
    "table6.1-vs-perfect": "against a strong opponent (the author; here the perfect player) its games end as printed",
    "fig6.8-blocks-instead-of-winning": "offered a win or a block, O always blocks",
    "corrected-O-losses-vs-perfect": "beyond the thesis: with its defects corrected, the player never loses to "
    "perfect play",
}


# ----------------------------------------------------------------------------- training runs


def td(
    rule: str | int = "thesis",
    draw: float = 0.0,
    epsilon: float = 0.05,
    table: np.ndarray | None = None,
    name: str = "",
) -> Player:
    """A TD(λ) table player (App. B.7) that explores with ``epsilon`` while learning."""
    return table_player(
        empty_table() if table is None else table, rule, draw, epsilon, name or f"TD(λ) {rule_name(check_rule(rule))}"
    )


@dataclass(frozen=True)
class Side:
    """A TD(λ) table learning against a fixed opponent (App. B.1): its ``side`` ("X" or "O"), step size,
    trace decay (None: the notebook's ``LAMBDA``), draw reward, exploration (None: ``EPSILON``), greedy
    ``rule`` and training games (None: ``GAMES``)."""

    side: str = "O"
    alpha: float = 0.05
    lam: float | None = None
    draw: float = 0.0
    epsilon: float | None = None
    rule: str | int = "thesis"
    games: int | None = None

    def __post_init__(self) -> None:
        if self.side not in ("X", "O"):
            raise ValueError(f"side must be 'X' or 'O', got {self.side!r}")


def training(cfg: Any, games: int, seed: int, alpha: float = 0.05, lam: float | None = None) -> Training:
    """App. B.1's schedule for ``games`` games under the notebook's knobs (``CHUNK``, ``LOG_EVERY``, ``LAMBDA``)."""
    lam = cfg.LAMBDA if lam is None else lam
    return Training(games, chunk=min(cfg.CHUNK, games), alpha=alpha, lam=lam, seed=seed, log_every=cfg.LOG_EVERY)


def train_side(
    run: Side, cfg: Any, seed: int, opponent: Player | None = None, table: np.ndarray | None = None, desc: str = ""
) -> TrainResult:
    """TD(λ) as ``run.side`` learning against ``opponent`` (default: random), App. B.1."""
    games = cfg.GAMES if run.games is None else run.games
    me = td(run.rule, run.draw, cfg.EPSILON if run.epsilon is None else run.epsilon, table)
    opp = random_player() if opponent is None else opponent
    x, o = (me, opp) if run.side == "X" else (opp, me)
    spec = training(cfg, games, seed, run.alpha, run.lam)
    return train(x, o, (run.side == "X", run.side == "O"), spec, progress=False, desc=desc)


def replicates(
    label: str, cfg: Any, seed: int, fn: Callable[[int, int], TrainResult], n: int | None = None
) -> list[TrainResult]:
    """``fn(run_seed, r)`` for r = 0 .. REPLICATES−1, with a progress bar."""
    n = cfg.REPLICATES if n is None else n
    return [fn(run_seed(seed, label, r), r) for r in tqdm(range(n), desc=label, leave=False)]


@dataclass
class Summary:
    """Replicates of one setting, from the TD side's point of view (side 0 = X, 1 = O)."""

    side: int
    runs: list[TrainResult]

    def wdl(self) -> np.ndarray:
        """(replicates, 3): win, draw, loss % over the last chunk."""
        return np.array([r.final_percent(self.side) for r in self.runs])

    def states(self) -> np.ndarray:
        return np.array([r.states[-1][self.side] for r in self.runs], dtype=float)

    def crossovers(self) -> np.ndarray:
        """First-chunk crossover games (NaN where the TD player never got ahead)."""
        return np.array([np.nan if (c := r.crossover(self.side)) is None else c for r in self.runs], dtype=float)

    def table(self, r: int = 0) -> np.ndarray:
        return self.runs[r].tables[self.side]

    def tables(self) -> np.ndarray:
        return np.array([r.tables[self.side] for r in self.runs])


def alpha_runs(cfg: Any, seed: int) -> dict[float, Summary]:
    """Figs 6.2–6.4: TD(λ) as O against random X, λ = LAMBDA, draw 0, for each α in ALPHAS."""
    return {
        a: Summary(
            1, replicates(f"fig6.2-6.4 alpha={a}", cfg, seed, lambda s, r, a=a: train_side(Side("O", alpha=a), cfg, s))
        )
        for a in cfg.ALPHAS
    }


def crossover_runs(cfg: Any, seed: int) -> dict[float, np.ndarray]:
    """Figs 6.2–6.4's crossover game over CROSSOVER_RUNS extra runs per α: each is the first program run
    only (CHUNK games; the crossover is read there), seeds independent of :func:`alpha_runs`."""
    g = min(cfg.CHUNK, cfg.GAMES)
    return {
        a: Summary(
            1,
            replicates(
                f"crossover alpha={a}",
                cfg,
                seed,
                lambda s, r, a=a: train_side(Side("O", alpha=a, games=g), cfg, s),
                n=cfg.CROSSOVER_RUNS,
            ),
        ).crossovers()
        for a in cfg.ALPHAS
    }


def td_as_x_runs(cfg: Any, seed: int) -> Summary:
    """Fig. 6.7: TD(λ) as X against random O, α = 0.05."""
    return Summary(0, replicates("fig6.7 td-as-x", cfg, seed, lambda s, r: train_side(Side("X"), cfg, s)))


def draw_runs(cfg: Any, seed: int, alpha_05: Summary) -> dict[float, Summary]:
    """Fig. 6.5: TD(λ) as O, α = 0.05, for each draw reward (0 reuses the α = 0.05 runs)."""
    out = {}
    for d in cfg.DRAW_REWARDS:
        out[d] = (
            alpha_05
            if d == 0.0
            else Summary(
                1, replicates(f"fig6.5 draw={d}", cfg, seed, lambda s, r, d=d: train_side(Side("O", draw=d), cfg, s))
            )
        )
    return out


def epsilon_runs(cfg: Any, seed: int, alpha_05: Summary) -> dict[float, Summary]:
    """§6.1: the exploration rate "tested with an increased and decreased interval" (ε = EPSILON reuses)."""
    out = {}
    for e in cfg.EPSILONS:
        out[e] = (
            alpha_05
            if e == cfg.EPSILON
            else Summary(
                1, replicates(f"epsilon={e}", cfg, seed, lambda s, r, e=e: train_side(Side("O", epsilon=e), cfg, s))
            )
        )
    return out


def lambda_runs(cfg: Any, seed: int) -> dict[float, Summary]:
    """Fig. 6.6: TD(λ) as O, α = 0.05, LAMBDA_GAMES games for each λ (common seeds across λ)."""
    g = cfg.LAMBDA_GAMES
    return {
        lam: Summary(
            1,
            replicates(
                "fig6.6",
                cfg,
                seed,  # same seeds for every λ: common random numbers
                lambda s, r, lam=lam: train_side(Side("O", lam=lam, games=g), cfg, s),
            ),
        )
        for lam in cfg.LAMBDAS
    }


def window_win_curves(runs: dict[float, Summary], upto: int) -> dict[float, np.ndarray]:
    """Mean (over replicates) TD win % in windows of LOG_EVERY games for the first ``upto`` games, per λ."""
    out = {}
    for lam, s in runs.items():
        w = np.array([r.window_percent()[0, :, s.side] for r in s.runs])
        out[lam] = w[:, : upto // s.runs[0].log_every].mean(axis=0)
    return out


def plateau_game(res: TrainResult, side: int, upto: int, band: float = 0.5) -> int:
    """The first logged game (within the first ``upto``) after which the cumulative-in-chunk win % of
    ``side`` stays within ``band`` points of its value at ``upto`` ("never bettered its percentage")."""
    g = res.games_axis().ravel()
    w = res.cumulative_percent()[..., side].ravel()
    keep = g <= upto
    g, w = g[keep], w[keep]
    off = np.flatnonzero(np.abs(w - w[-1]) > band)
    return int(g[0] if off.size == 0 else g[min(off[-1] + 1, g.size - 1)])


def chatter(res: TrainResult, side: int, start: int, stop: int, window: int = 10_000) -> float:
    """How much a learning curve 'chatters' once levelled off (§6.2): the s.d. of ``side``'s win % over
    consecutive ``window``-game blocks of the games ``start + 1`` .. ``stop``."""
    g = res.games_axis().ravel()
    w = res.window_percent()[..., side].ravel()
    keep = (g > start) & (g <= stop)
    k = max(1, window // res.log_every)
    x = w[keep]
    x = x[: len(x) // k * k].reshape(-1, k).mean(axis=1)
    return float(x.std(ddof=1)) if x.size > 1 else float("nan")


# ----------------------------------------------------------------------------- Table 6.1


@dataclass
class Table61Row:
    label: str
    side: str
    lam: float
    draw: float
    games: int
    printed: dict[str, int]  # the thesis's states, human, td, draws
    thesis_games: int
    result: TrainResult
    evaluation: Evaluation


def table61(cfg: Any, seed: int, td_as_x: Summary) -> list[Table61Row]:
    """Table 6.1 with the human replaced by the perfect (and the random) player: each O row is trained
    afresh for TABLE61_GAMES games (the thesis: 10 M); the X row is Fig. 6.7's first replicate (1.5 M).
    The O rows with draw reward 0 are those of ``TABLE61_LAMBDAS``."""
    rows = []
    specs = [(s, p) for s, p in table61_printed() if s.side == "X" or s.lam in cfg.TABLE61_LAMBDAS or s.draw != 0.0]
    for spec, prn in tqdm(specs, desc="Table 6.1 rows", leave=False):
        if spec.side == "X":
            res, games = td_as_x.runs[0], cfg.GAMES
        else:
            games = cfg.TABLE61_GAMES
            side = Side("O", lam=spec.lam, draw=spec.draw, games=games)
            res = train_side(side, cfg, run_seed(seed, f"table6.1 {spec.label}"))
        t = res.tables[0 if spec.side == "X" else 1]
        ev = evaluate(t, spec.side, cfg.EVAL_GAMES, run_seed(seed, f"table6.1 eval {spec.label}"))
        rows.append(Table61Row(spec.label, spec.side, spec.lam, spec.draw, games, prn, spec.games, res, ev))
    return rows


# ----------------------------------------------------------------------------- p. 63: the X table as teacher


@dataclass
class TeacherRun:
    """One p. 63 experiment: an O table trained against the learned X table."""

    label: str
    result: TrainResult
    o_before: np.ndarray
    evaluation: Evaluation

    def xod(self) -> tuple[float, float, float]:
        """X wins, O wins, draws % over the last chunk."""
        x, o, d = self.result.cumulative_percent()[-1, -1]
        return float(x), float(o), float(d)


def teacher_runs(
    cfg: Any, seed: int, td_as_x: Summary, alpha_05: Summary, frozen_teacher: bool = False
) -> dict[str, list[TeacherRun]]:
    """p. 63: (i) a *new* O table and (ii) the trained α = 0.05 O table, each trained for GAMES games against
    the trained X table (replicate r uses X and O tables of replicate r).  App. B.1 has one global λ, so
    both TD players learn (and explore) — ``frozen_teacher=True`` keeps the X table fixed and greedy."""
    out: dict[str, list[TeacherRun]] = {"new O": [], "old O": []}
    for which in out:
        label = f"p63 {which}{' frozen' if frozen_teacher else ''}"
        for r in tqdm(range(cfg.REPLICATES), desc=label, leave=False):
            s = run_seed(seed, label, r)
            o0 = empty_table() if which == "new O" else alpha_05.table(r).copy()
            x = td(epsilon=0.0 if frozen_teacher else cfg.EPSILON, table=td_as_x.table(r), name="TD(λ) X table")
            o = td(epsilon=cfg.EPSILON, table=o0, name=f"TD(λ) {which}")
            res = train(x, o, (not frozen_teacher, True), training(cfg, cfg.GAMES, s), progress=False)
            ev = evaluate(res.tables[1], "O", cfg.EVAL_GAMES, run_seed(seed, label + " eval", r))
            out[which].append(TeacherRun(which, res, o0, ev))
    return out


# ----------------------------------------------------------------------------- beyond: corrected player, ablation


@dataclass
class SelfPlay:
    rule: int
    result: TrainResult
    x: Evaluation
    o: Evaluation


def self_play(
    cfg: Any,
    seed: int,
    rule: str | int = "corrected",
    games: int | None = None,
    label: str = "self-play",
    reps: int | None = None,
) -> list[SelfPlay]:
    """Two TD(λ) tables (X and O, same rule) learning against each other, then evaluated greedily."""
    rule = check_rule(rule)
    games = cfg.SELFPLAY_GAMES if games is None else games
    out = []
    for r in tqdm(range(cfg.REPLICATES if reps is None else reps), desc=f"{label} {rule_name(rule)}", leave=False):
        s = run_seed(seed, f"{label} {rule}", r)
        x, o = td(rule, epsilon=cfg.EPSILON), td(rule, epsilon=cfg.EPSILON)
        res = train(x, o, (True, True), training(cfg, games, s), progress=False)
        ex = evaluate(res.tables[0], "X", cfg.EVAL_GAMES, run_seed(seed, f"{label} eval X {rule}", r), rule)
        eo = evaluate(res.tables[1], "O", cfg.EVAL_GAMES, run_seed(seed, f"{label} eval O {rule}", r), rule)
        out.append(SelfPlay(rule, res, ex, eo))
    return out


@dataclass
class AblationRow:
    """One combination of the three corrections, ``ABLATION_REPLICATES`` runs per regime."""

    rule: int
    vs_random_o: list[Evaluation]  # O trained against random X (the thesis's regime), evaluated greedily
    train_wdl: list[tuple[float, float, float]]  # its win/draw/loss % in the last training chunk
    self_play: list[SelfPlay]

    @property
    def name(self) -> str:
        return rule_name(self.rule)

    def mean(self, metric: Callable[[AblationRow, int], float]) -> float:
        return float(np.mean([metric(self, r) for r in range(len(self.vs_random_o))]))


#: the ablation's metrics: (label, function of (row, replicate)), higher is better
ABLATION_METRICS: dict[str, Callable[[AblationRow, int], float]] = {
    "O vs random: training win %": lambda a, r: a.train_wdl[r][0],
    "O vs random: greedy, not lost to perfect %": lambda a, r: 100 * (1 - a.vs_random_o[r].vs_perfect[2]),
    "O vs random: optimal moves %": lambda a, r: 100 * a.vs_random_o[r].optimal,
    "self-play: X not lost to perfect %": lambda a, r: 100 * (1 - a.self_play[r].x.vs_perfect[2]),
    "self-play: O not lost to perfect %": lambda a, r: 100 * (1 - a.self_play[r].o.vs_perfect[2]),
    "self-play: O optimal moves %": lambda a, r: 100 * a.self_play[r].o.optimal,
}


def ablation(cfg: Any, seed: int) -> list[AblationRow]:
    """Every combination of the three corrections (``RULE_FLAGS``; rule 0 = thesis, 7 = corrected) in two
    regimes, ABLATION_GAMES games each: O learning against random X, and self-play."""
    rows = []
    for rule in tqdm(range(8), desc="ablation", leave=False):
        evs, wdl = [], []
        for r in range(cfg.ABLATION_REPLICATES):
            side = Side("O", rule=rule, games=cfg.ABLATION_GAMES)
            res = train_side(side, cfg, run_seed(seed, f"ablation vs random {rule}", r))
            evs.append(evaluate(res.tables[1], "O", cfg.EVAL_GAMES, run_seed(seed, f"ablation eval {rule}", r), rule))
            wdl.append(res.final_percent(1))
        sp = self_play(cfg, seed, rule, cfg.ABLATION_GAMES, label="ablation self-play", reps=cfg.ABLATION_REPLICATES)
        rows.append(AblationRow(rule, evs, wdl, sp))
    return rows


def gap_closed(rows: list[AblationRow], metric: Callable[[AblationRow, int], float]) -> dict[str, float]:
    """For each single correction, the share of the thesis → corrected gap in ``metric`` it closes."""
    by = {r.rule: r for r in rows}
    lo, hi = by[0].mean(metric), by[RULES["corrected"]].mean(metric)
    return {k: (by[v].mean(metric) - lo) / (hi - lo) if hi != lo else float("nan") for k, v in RULE_FLAGS.items()}


# ----------------------------------------------------------------------------- the widget panel


@dataclass
class Explored:
    result: TrainResult
    side: str
    evaluation: Evaluation
    params: dict = field(default_factory=dict)


def explore(
    alpha: float = 0.05,
    lam: float = 0.5,
    epsilon: float = 0.05,
    draw_reward: float = 0.0,
    games: int = 200_000,
    side: str = "O",
    opponent: str = "random",
    version: str = "thesis",
    seed: int = 0,
) -> Explored:
    """Train one TD(λ) table as ``side`` against ``opponent`` (random, perfect, or self: a second table of
    the same version) for ``games`` games (500k-game chunks), then evaluate it greedily."""
    check_params(alpha, lam, 1.0)
    if side not in ("X", "O"):
        raise ValueError(f"side must be X or O, got {side!r}")
    if opponent not in ("random", "perfect", "self"):
        raise ValueError(f"opponent must be random, perfect or self, got {opponent!r}")
    if not 0.0 <= epsilon <= 1.0:
        raise ValueError(f"epsilon must be in [0, 1], got {epsilon!r}")
    if not isinstance(games, (int, np.integer)) or not 1000 <= games <= 20_000_000:
        raise ValueError(f"games must be an int in 1,000..20,000,000, got {games!r}")
    rule = check_rule(version)
    chunk = 500_000 if games >= 500_000 else games
    games = games - games % chunk
    log_every = 1000 if chunk % 1000 == 0 else chunk
    me = td(rule, draw_reward, epsilon)
    opp = {
        "random": random_player(seed + 1),
        "perfect": perfect_player(seed + 1),
        "self": td(rule, draw_reward, epsilon),
    }[opponent]
    x, o = (me, opp) if side == "X" else (opp, me)
    learning = (side == "X" or opponent == "self", side == "O" or opponent == "self")
    spec = Training(games, chunk=chunk, alpha=alpha, lam=lam, seed=seed, log_every=log_every)
    res = train(x, o, learning, spec, desc=f"TD(λ) as {side} vs {opponent}")
    i = 0 if side == "X" else 1
    ev = evaluate(res.tables[i], side, 2000, seed + 7, rule, draw_reward)
    return Explored(
        res,
        side,
        ev,
        dict(
            alpha=alpha,
            lam=lam,
            epsilon=epsilon,
            draw_reward=draw_reward,
            games=games,
            side=side,
            opponent=opponent,
            version=rule_name(rule),
            seed=seed,
        ),
    )
