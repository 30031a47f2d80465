"""Notebook 06's runs: tic-tac-toe with TD(λ) after-state tables (seed 004 §6.1–6.2, App. B, App. D).

Every function returns data; figures are in :mod:`tdbook.plots.tictactoe_table`.  A training run is
App. B.1's program: the TD(λ) player (App. B.7, ``rule="thesis"`` unless stated) against an
opponent, 1.5 M games as 3 × 500,000-game chunks (counters reset, table saved to 6 digits and
reloaded, a fresh random stream per chunk).  Each setting is repeated ``REPLICATES`` times with
independent seeds; the thesis's numbers come from one run each, so a claim's tolerance is
``max(floor, 2 × the replicates' standard deviation)``.

Seeds: run ``r`` of experiment ``label`` uses :func:`run_seed` ``(SEED, label, r)`` — a stable hash, so
adding an experiment never changes another one's numbers.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from tqdm.auto import tqdm

from ..claims import table_path
from ..core import profiles
from ..games.tictactoe import (
    DRAW,
    O_WINS,
    ONGOING,
    REACHABLE,
    STATUS,
    X_WINS,
    O,
    X,
    after_states,
    board_string,
    parse_board,
    place,
    positions_to_move,
    to_move,
)
from ..learners.td_table import TrainResult, check_params, states_stored, train
from ..players.tictactoe import (
    RULE_FLAGS,
    RULES,
    MatchResult,
    Player,
    best_response,
    check_rule,
    empty_table,
    exact_outcomes,
    match,
    optimal_fraction,
    perfect_player,
    random_player,
    rule_name,
    table_player,
)

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

#: The thesis's numbers (§6.2 text, Table 6.1, p. 63, App. D).  W/D/L are the TD player's.
THESIS: dict[str, Any] = {
    "alpha": {
        0.05: dict(wdl=(51.8, 29.5, 18.7), states=2217, crossover=85_000),
        0.10: dict(wdl=(50.5, 30.3, 19.2), states=2226, crossover=72_000),
        0.15: dict(wdl=(49.8, 29.5, 20.7), states=2291, crossover=92_000),
    },
    "td_as_x": dict(wdl=(71.2, 25.0, 3.8), states=1489),
    # Table 6.1: (label, TD side, λ, draw reward, training games, states, human wins, TD wins, draws)
    "table61": [
        ("λ=0.0", "O", 0.0, 0.0, 10_000_000, 2305, 6, 4, 10),
        ("λ=0.2", "O", 0.2, 0.0, 10_000_000, 2318, 9, 1, 10),
        ("λ=0.3", "O", 0.3, 0.0, 10_000_000, 2316, 10, 2, 8),
        ("λ=0.5", "O", 0.5, 0.0, 10_000_000, 2324, 5, 5, 10),
        ("λ=0.6", "O", 0.6, 0.0, 10_000_000, 2327, 6, 2, 12),
        ("λ=0.5 (computer X)", "X", 0.5, 0.0, 1_500_000, 1489, 0, 0, 20),
        ("λ=0.5 (tie=−0.1)", "O", 0.5, -0.1, 10_000_000, 2418, 6, 2, 12),
    ],
    # p. 63: (i) new O trained against the X table: X / O / draw %; (ii) old O retrained: O wins / O losses %
    "teacher_new_o": dict(x=50.0, o=7.0, draw=43.0, human_wins=20),
    "teacher_old_o": dict(o=7.1, x=49.9, human_wins=20),
    # App. D: the learned X table's values of X's nine opening after-states (square 6 lost in the OCR)
    "appd_first_moves": {4: 0.6898, 0: 0.5518, 2: 0.5626, 8: 0.5308, 1: 0.4470, 3: 0.5164, 5: 0.4927, 7: 0.5482},
    "crossover_plateau": 550_000,
}

CORNERS, EDGES, CENTRE = (0, 2, 6, 8), (1, 3, 5, 7), 4


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


def train_side(
    side: str,
    cfg: Any,
    seed: int,
    *,
    games: int | None = None,
    alpha: float = 0.05,
    lam: float | None = None,
    draw: float = 0.0,
    epsilon: float | None = None,
    rule: str | int = "thesis",
    opponent: Player | None = None,
    table: np.ndarray | None = None,
    desc: str = "",
) -> TrainResult:
    """TD(λ) as ``side`` ("X" or "O") learning against ``opponent`` (default: random), App. B.1."""
    if side not in ("X", "O"):
        raise ValueError(f"side must be 'X' or 'O', got {side!r}")
    games = cfg.GAMES if games is None else games
    me = td(rule, draw, cfg.EPSILON if epsilon is None else epsilon, table)
    opp = random_player() if opponent is None else opponent
    x, o = (me, opp) if side == "X" else (opp, me)
    return train(
        x,
        o,
        (side == "X", side == "O"),
        games,
        chunk=min(cfg.CHUNK, games),
        alpha=alpha,
        lam=cfg.LAMBDA if lam is None else lam,
        seed=seed,
        log_every=cfg.LOG_EVERY,
        progress=False,
        desc=desc,
    )


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


def tolerance(values: np.ndarray, floor: float) -> float:
    """A claim's tolerance: ``max(floor, 2 × s.d. of the replicates)``, rounded to 3 significant digits."""
    v = np.asarray(values, float)
    v = v[np.isfinite(v)]
    sd = float(v.std(ddof=1)) if v.size > 1 else 0.0
    return float(f"{max(floor, 2.0 * sd):.3g}")


def alpha_runs(cfg: Any, seed: int) -> dict[float, Summary]:
    """Figs 6.2–6.4: TD(λ) as O against random X, λ = LAMBDA, draw 0, for each α in ALPHAS."""
    return {
        a: Summary(
            1, replicates(f"fig6.2-6.4 alpha={a}", cfg, seed, lambda s, r, a=a: train_side("O", cfg, s, alpha=a))
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
                lambda s, r, a=a: train_side("O", cfg, s, games=g, alpha=a),
                n=cfg.CROSSOVER_RUNS,
            ),
        ).crossovers()
        for a in cfg.ALPHAS
    }


def td_as_x_runs(cfg: Any, seed: int) -> Summary:
    """Fig. 6.7: TD(λ) as X against random O, α = 0.05."""
    return Summary(0, replicates("fig6.7 td-as-x", cfg, seed, lambda s, r: train_side("X", cfg, s)))


def draw_runs(cfg: Any, seed: int, alpha_05: Summary) -> dict[float, Summary]:
    """Fig. 6.5: TD(λ) as O, α = 0.05, for each draw reward (0 reuses the α = 0.05 runs)."""
    out = {}
    for d in cfg.DRAW_REWARDS:
        out[d] = (
            alpha_05
            if d == 0.0
            else Summary(
                1, replicates(f"fig6.5 draw={d}", cfg, seed, lambda s, r, d=d: train_side("O", cfg, s, draw=d))
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
            else Summary(1, replicates(f"epsilon={e}", cfg, seed, lambda s, r, e=e: train_side("O", cfg, s, epsilon=e)))
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
                lambda s, r, lam=lam: train_side("O", cfg, s, games=g, lam=lam),
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


# ----------------------------------------------------------------------------- evaluation


@dataclass
class Evaluation:
    """A learned table played greedily (no learning, no exploration: App. B.7 with λ = −1)."""

    side: str
    vs_perfect: tuple[float, float, float]  # exact (TD win, draw, TD loss) probabilities
    vs_random: tuple[float, float, float]
    vs_exploiter: tuple[float, float, float]  # exact, against the opponent that best exploits this table
    sampled_perfect: tuple[int, int, int]  # EVAL_GAMES games: (TD wins, draws, TD losses)
    sampled_random: tuple[int, int, int]
    first20_perfect: tuple[int, int, int]  # the first 20 of them (Table 6.1's shape)
    optimal: float  # share of positions with the TD side to move where its greedy move is optimal
    states: int


def _from_side(m: MatchResult | tuple[float, float, float], side: str) -> tuple:
    x, o, d = (m.x_wins, m.o_wins, m.draws) if isinstance(m, MatchResult) else m
    return (x, d, o) if side == "X" else (o, d, x)


def evaluate(
    table: np.ndarray, side: str, games: int, seed: int, rule: str | int = "thesis", draw_value: float = 0.0
) -> Evaluation:
    """Greedy play of ``table`` as ``side`` against the perfect and the random player (exact and sampled)."""
    me = table_player(table, rule, draw_value)
    per, rnd = perfect_player(seed=seed + 1), random_player(seed=seed + 2)

    def pair(opp: Player) -> tuple[Player, Player]:
        return (me, opp) if side == "X" else (opp, me)

    first20 = match(*pair(per), 20, seed=seed, stream=1, progress=False)
    rest = match(*pair(per), games - 20, seed=seed, stream=2, progress=False) if games > 20 else MatchResult(0, 0, 0)
    allp = MatchResult(first20.x_wins + rest.x_wins, first20.o_wins + rest.o_wins, first20.draws + rest.draws)
    return Evaluation(
        side=side,
        vs_perfect=_from_side(exact_outcomes(*pair(per)), side),
        vs_random=_from_side(exact_outcomes(*pair(rnd)), side),
        vs_exploiter=best_response(me, side),
        sampled_perfect=_from_side(allp, side),
        sampled_random=_from_side(match(*pair(rnd), games, seed=seed, stream=3, progress=False), side),
        first20_perfect=_from_side(first20, side),
        optimal=optimal_fraction(me, X if side == "X" else O),
        states=states_stored(table),
    )


@dataclass
class Table61Row:
    label: str
    side: str
    lam: float
    draw: float
    games: int
    thesis: tuple
    result: TrainResult
    evaluation: Evaluation


def table61(cfg: Any, seed: int, td_as_x: Summary) -> list[Table61Row]:
    """Table 6.1 with the human replaced by the perfect (and the random) player: each O row is trained
    afresh for TABLE61_GAMES games (the thesis: 10 M); the X row is Fig. 6.7's first replicate (1.5 M)."""
    rows = []
    specs = [t for t in THESIS["table61"] if t[1] == "X" or t[2] in cfg.TABLE61_LAMBDAS or t[3] != 0.0]
    for spec in tqdm(specs, desc="Table 6.1 rows", leave=False):
        label, side, lam, draw, _games, *_ = spec
        if side == "X":
            res, games = td_as_x.runs[0], cfg.GAMES
        else:
            games = cfg.TABLE61_GAMES
            res = train_side("O", cfg, run_seed(seed, f"table6.1 {label}"), games=games, lam=lam, draw=draw)
        t = res.tables[0 if side == "X" else 1]
        ev = evaluate(t, side, cfg.EVAL_GAMES, run_seed(seed, f"table6.1 eval {label}"))
        rows.append(Table61Row(label, side, lam, draw, games, tuple(spec), res, ev))
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


def value_stats(table: np.ndarray) -> dict[str, float]:
    """Mean, share negative and share ≤ −0.9 of the stored (non-zero) values."""
    v = table[table != 0]
    if v.size == 0:
        return {"mean": 0.0, "negative": 0.0, "near_minus_one": 0.0, "stored": 0}
    return {
        "mean": float(v.mean()),
        "negative": float((v < 0).mean()),
        "near_minus_one": float((v <= -0.9).mean()),
        "stored": int(v.size),
    }


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
            res = train(
                x,
                o,
                (not frozen_teacher, True),
                cfg.GAMES,
                chunk=min(cfg.CHUNK, cfg.GAMES),
                alpha=0.05,
                lam=cfg.LAMBDA,
                seed=s,
                log_every=cfg.LOG_EVERY,
                progress=False,
            )
            ev = evaluate(res.tables[1], "O", cfg.EVAL_GAMES, run_seed(seed, label + " eval", r))
            out[which].append(TeacherRun(which, res, o0, ev))
    return out


# ----------------------------------------------------------------------------- App. D


def transcribe_appendix_d(seed_text: str) -> list[tuple[str, float]]:
    """(state, value) pairs of App. D's OCR that are unambiguous: 9 characters (OCR 'E' read as 'B', 'D'
    as 'O'), a reachable non-terminal X after-state, and met exactly once.  The command that wrote
    ``data/appendix_d.tsv``: ``write_appendix_d(Path('../shared/seeds/004_cef981d7b973a94b.txt'))``."""
    start = seed_text.find("Appendix D. Tic-Tac-Toe")
    if start < 0:
        raise ValueError("no 'Appendix D. Tic-Tac-Toe' heading in the seed text")
    pairs = re.findall(r"([A-Za-z]{5,11})\s+(-?[0-9]\.[0-9]{4})", seed_text[start:])
    seen: dict[int, list[float]] = {}
    for s, v in pairs:
        s2 = s.upper().replace("E", "B").replace("D", "O")
        if len(s2) != 9 or set(s2) - set("XOB"):
            continue
        try:
            c = parse_board(s2)
        except ValueError:
            continue
        if STATUS[c] == ONGOING and REACHABLE[c] and to_move(c) == O:
            seen.setdefault(c, []).append(float(v))
    return [(board_string(c), vs[0]) for c, vs in sorted(seen.items()) if len(vs) == 1]


def write_appendix_d(seed_path: Path, out: Path | None = None) -> Path:
    """Write the transcription of :func:`transcribe_appendix_d` to ``data/appendix_d.tsv``."""
    pairs = transcribe_appendix_d(Path(seed_path).read_text(encoding="utf-8"))
    out = table_path("powell2000", "appendix_d") if out is None else out
    head = (
        "# Seed 004 (Powell 2000), Appendix D, pp. 125-137: the learned TD(lambda) X table (alpha 0.05, lambda 0.5).\n"
        "# Unambiguous entries of the OCR only (9 characters, 'E'->'B', 'D'->'O', reachable non-terminal X\n"
        "# after-state, met once). Written by tdbook.experiments.tictactoe_table.write_appendix_d(\n"
        "#   Path('../shared/seeds/004_cef981d7b973a94b.txt'))\n"
        "state\tvalue\n"
    )
    out.write_text(head + "".join(f"{s}\t{v:.4f}\n" for s, v in pairs), encoding="utf-8")
    return out


def appendix_d() -> tuple[np.ndarray, np.ndarray]:
    """The shipped App. D transcription as (codes, values)."""
    p = table_path("powell2000", "appendix_d")
    codes, vals = [], []
    for line in p.read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or line.startswith("state") or not line.strip():
            continue
        s, v = line.split("\t")
        c = parse_board(s)
        if to_move(c) != O or STATUS[c] != ONGOING:
            raise ValueError(f"{p} is corrupt: {s} is not a non-terminal X after-state")
        codes.append(c)
        vals.append(float(v))
    if len(codes) < 100:
        raise ValueError(f"{p} is corrupt: only {len(codes)} entries")
    return np.array(codes, dtype=np.int64), np.array(vals)


def first_move_values(table: np.ndarray) -> np.ndarray:
    """The X table's values of X's nine opening after-states, by square."""
    return np.array([table[place(0, s, X)] for s in range(9)])


def appendix_d_comparison(td_as_x: Summary) -> dict[str, Any]:
    """Our X tables against App. D: first-move values, greedy opening, and the per-state correlation."""
    codes, vals = appendix_d()
    tabs = td_as_x.tables()
    fm = np.array([first_move_values(t) for t in tabs])
    corr = [float(np.corrcoef(vals, t[codes])[0, 1]) for t in tabs]
    corr_mean = float(np.corrcoef(vals, tabs[:, codes].mean(axis=0))[0, 1])
    between = [
        float(np.corrcoef(tabs[i, codes], tabs[j, codes])[0, 1])
        for i in range(len(tabs))
        for j in range(i + 1, len(tabs))
    ]
    openings = [table_player(t).move(0) for t in tabs]
    return dict(
        codes=codes,
        values=vals,
        first_moves=fm,
        corr=corr,
        corr_mean=corr_mean,
        corr_between=between,
        openings=openings,
        stored_share=float(np.mean([(t[codes] != 0).mean() for t in tabs])),
        ones_appd=int((vals >= 0.99995).sum()),
        ones_ours=[int((t[codes] >= 0.99995).sum()) for t in tabs],
    )


def corner_answers(o_table: np.ndarray) -> dict[int, int]:
    """The greedy O's reply to each opening square of X (§6.2: corner → centre)."""
    pl = table_player(o_table)
    return {s: pl.move(place(0, s, X)) for s in range(9)}


# ----------------------------------------------------------------------------- Fig. 6.8


def winning_squares(code: int, piece: int) -> list[int]:
    return [s for s in range(9) if (code // 3**s) % 3 == 0 and STATUS[place(code, s, piece)] in (X_WINS, O_WINS)]


@dataclass
class Fig68:
    """The thesis O player on positions where it can win at once (Fig. 6.8)."""

    positions: int  # O to move with an immediate win
    p_win: float  # mean probability that greedy O takes a win there
    with_threat: int  # ... of which X also threatens to win next move
    p_block: float  # mean probability that greedy O blocks there
    p_win_threat: float
    win_values_zero: bool  # every winning after-state is 0 ("unknown") in the table
    example: int  # a position where O blocks instead of winning
    example_values: dict[int, float]
    example_choice: int
    example_win: list[int]
    example_block: list[int]


def fig68(o_table: np.ndarray, prefer: str = "XXB OOB XBB") -> Fig68:
    """Where O can win at once, how often does the thesis O take the win (never greedily: the winning
    after-state is terminal, valued 0, skipped)?  And the position of Fig. 6.8 (our choice of board: the
    figure itself is lost) with the values the player sees."""
    pl = table_player(o_table)
    pos = [int(c) for c in positions_to_move(O) if winning_squares(int(c), O)]
    pw, threat, pb, pwt, zero, examples = [], 0, [], [], True, []
    for c in pos:
        d = pl.distribution(c)
        win = winning_squares(c, O)
        block = winning_squares(c, X)
        zero &= all(o_table[place(c, s, O)] == 0.0 for s in win)
        pw.append(d[win].sum())
        if block:
            threat += 1
            pb.append(d[block].sum())
            pwt.append(d[win].sum())
            ch = pl.move(c)
            if ch in block and d[ch] == 1.0:
                examples.append(c)
    pref = parse_board(prefer)
    ex = pref if pref in examples else (examples[0] if examples else pref)
    return Fig68(
        len(pos),
        float(np.mean(pw)),
        threat,
        float(np.mean(pb)) if pb else float("nan"),
        float(np.mean(pwt)) if pwt else float("nan"),
        bool(zero),
        ex,
        pl.square_values(ex),
        table_player(o_table).move(ex),
        winning_squares(ex, O),
        winning_squares(ex, X),
    )


def sure_draw_after_states() -> np.ndarray:
    """O's after-states with one empty square left that X can only fill to a draw.  With draw reward 0
    their TD target is always 0, so they stay at ``kInitialize`` and the thesis rule never picks them —
    the mechanism behind Fig. 6.5 (any non-zero draw reward makes them known, and drawn games rise)."""
    a = after_states(O, terminal=False)
    out = []
    for c in a:
        empty = [s for s in range(9) if (int(c) // 3**s) % 3 == 0]
        if len(empty) == 1 and STATUS[place(int(c), empty[0], X)] == DRAW:
            out.append(int(c))
    return np.array(out, dtype=np.int64)


def zero_share(summary: Summary, codes: np.ndarray) -> float:
    """Mean share (over replicates) of ``codes`` whose table value is exactly 0."""
    return float(np.mean([(t[codes] == 0).mean() for t in summary.tables()]))


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
        res = train(
            td(rule, epsilon=cfg.EPSILON),
            td(rule, epsilon=cfg.EPSILON),
            (True, True),
            games,
            chunk=min(cfg.CHUNK, games),
            alpha=0.05,
            lam=cfg.LAMBDA,
            seed=s,
            log_every=cfg.LOG_EVERY,
            progress=False,
        )
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
            res = train_side(
                "O", cfg, run_seed(seed, f"ablation vs random {rule}", r), games=cfg.ABLATION_GAMES, rule=rule
            )
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
    res = train(
        x,
        o,
        learning,
        games,
        chunk=chunk,
        alpha=alpha,
        lam=lam,
        seed=seed,
        log_every=log_every,
        desc=f"TD(λ) as {side} vs {opponent}",
    )
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


# ----------------------------------------------------------------------------- the notebook's summary


def port_summary(claims: list[dict[str, Any]], gaps: dict[str, dict[str, float]], appd: dict[str, Any]) -> str:
    """Notebook 06's closing paragraph, written from the measured numbers: the recorded ``claims``
    (results.current().claims.values()), the ablation's ``gaps`` ({metric: {correction: share of the
    thesis → corrected gap it closes}}) and :func:`appendix_d_comparison`'s output."""
    from ..results import fmt

    by = {c["id"]: c for c in claims}
    judged = [c for c in claims if c["verdict"] in ("reproduced", "differs")]
    differs = [c for c in judged if c["verdict"] == "differs"]
    out = [
        f"**What the port shows.**  Of the {len(judged)} claims with a value in the thesis, "
        f"{len(judged) - len(differs)} are reproduced and {len(differs)} differ"
        + (
            ": " + "; ".join(f"`{c['id']}` (thesis {fmt(c['paper'])}, ours {fmt(c['ours'])})" for c in differs)
            if differs
            else ""
        )
        + "."
    ]
    fm = [c for c in judged if c["id"].startswith("appD-first-move-")]
    fm_bad = [c["id"].rsplit("square", 1)[1] for c in fm if c["verdict"] == "differs"]
    corr = np.asarray(appd["corr"], float)
    out.append(
        f"Our X tables resemble App. D without matching it state by state: Pearson r = {appd['corr_mean']:.2f} "
        f"between the {len(appd['codes'])} transcribed values and our mean table (single runs "
        f"{corr.min():.2f}–{corr.max():.2f}), we store {appd['stored_share']:.0%} of App. D's states, and "
        f"{len(fm) - len(fm_bad)} of the {len(fm)} printed opening values are within tolerance"
        + (f" (square {', '.join(fm_bad)} {'differs' if len(fm_bad) == 1 else 'differ'})" if fm_bad else "")
        + "."
    )
    weak = []
    if "fig6.8-win-taken-only-by-chance" in by:
        weak.append(
            f"a terminal after-state is never valued, so the player cannot see an immediate win (Fig. 6.8: "
            f"it takes an available win with probability {by['fig6.8-win-taken-only-by-chance']['ours']:.2f})"
        )
    if "fig6.5-sure-draws-stay-unknown" in by:
        weak.append(
            f'with draw reward 0 a sure draw stays "unknown" for ever (Fig. 6.5: '
            f"{by['fig6.5-sure-draws-stay-unknown']['ours']:.0%} of them still exactly 0)"
        )
    if weak:
        out.append(
            "Its weakness is structural, not a matter of training time or exploration: " + "; and ".join(weak) + "."
        )
    lines = []
    for m, g in gaps.items():
        full = [k for k, v in g.items() if np.isfinite(v) and v >= 0.9]
        worse = [k for k, v in g.items() if np.isfinite(v) and v < -0.05]  # by more than 5 % of the gap
        txt = f"*{m}*: " + ", ".join(f"`{k}` {v:.2f}" for k, v in g.items())
        if full:
            verb = "closes" if len(full) == 1 else "each close"
            txt += f" — {' and '.join(f'`{k}`' for k in full)} alone {verb} the gap"
        elif worse:
            txt += (
                f" — no single correction closes it; {' and '.join(f'`{k}`' for k in worse)} alone "
                f"{'makes it worse' if len(worse) == 1 else 'each make it worse'}"
            )
        else:
            txt += " — no single correction closes it"
        lines.append(txt)
    if lines:
        out.append(
            "The ablation (share of the thesis → corrected gap each single correction closes; 1 = all of it, "
            "below 0 = worse than the thesis; called worse below −0.05) depends on the measure:\n\n"
            + "\n".join(f"- {t}" for t in lines)
        )
    lost = [by[k]["ours"] for k in ("corrected-X-losses-vs-perfect", "corrected-O-losses-vs-perfect") if k in by]
    if len(lost) == 2:
        out.append(
            f"With all three corrections, the same tables and the same TD(λ) update, the self-play player lost "
            f"{lost[0]} games as X and {lost[1]} as O to the perfect player."
        )
    return "\n\n".join(out)
