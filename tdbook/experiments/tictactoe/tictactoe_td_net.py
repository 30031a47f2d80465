"""Notebook 07's runs: tic-tac-toe with TD(λ) networks (Powell (2000) §6.3–6.7, App. B.8–B.9).

Every function returns data; figures are in :mod:`tdbook.plots.tictactoe_net`, the measurements of a net in
:mod:`tdbook.experiments.tictactoe.net_evaluation`, the beyond-the-thesis net in
:mod:`tdbook.experiments.tictactoe.net_perfect`, the claims' measured values in
:mod:`tdbook.experiments.tictactoe.net_claims`.

- :func:`thesis_runs` — the thesis's training runs (v1.0, v1.1, v2.0, v2.1, v3.0 by self-play; v1.1, v2.1,
  v3.0 as X against the §6.2 TD(λ) table player; v3.0 against the random player) and v3.0's first 10-input
  encoding, all in ``"thesis"`` mode (:mod:`tdbook.experiments.tictactoe.net_training`);
- :func:`summarise` — what the notebook reports about one trained net;
- :func:`seed_study` — v1.0 and v3.0 over seeds, with the listing's arithmetic and overflow-free;
- :func:`ablation` — one thesis defect fixed at a time (and all but one), what each changes.

Seeds: run ``label`` uses :func:`run_seed` ``(SEED, label)`` — a stable hash, so adding a run never
changes another one's numbers.

Notebook 07 uses this module, section by section (``python -m tdbook.catalog --write`` keeps this list):

- What we found: ``config``
- 1.1 The learning rule, as the code runs it: ``td_lambda_step``, ``value_and_gradient``
- 2. The thesis's runs: ``thesis_runs``, ``summarise``
- 5. v3.0's derivative and arithmetic: ``seed_study``
- 6. Diagnosis: one defect fixed at a time: ``ablation``
- 7. Beyond the thesis: a self-play TD(λ) net that plays perfectly: ``run_seed``
- 10. Try it yourself: ``explore``, ``EXPLORE_VERSIONS``, ``EXPLORE_MODES``
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from typing import Any

import numpy as np
from tqdm.auto import tqdm

from ... import claims
from ...core import profiles
from ...games.tictactoe import O, X
from ...learners.td_net import td_lambda_step as td_lambda_step  # the rule §1 shows (numpy)
from ...learners.td_net import value_and_gradient as value_and_gradient
from ...learners.tictactoe_net import FIXES, VERSIONS, NetDesign, check_version, new_net
from ...learners.tictactoe_table import empty_table
from ...players.tictactoe import Player, exact_outcomes, optimal_fraction, perfect_player, random_player, table_player
from ...players.tictactoe_net import NetPlayer
from .net_evaluation import (
    ALL_POSITIONS,
    Evaluation,
    centre_replies,
    check_point,
    evaluate,
    fixed_order_share,
    output_stats,
    window_share,
)
from .net_training import NetRun, Opponent, Training, train
from .table_training import Training as TableTraining
from .table_training import train as train_table

NOTEBOOK = "07_tictactoe_td_net"

#: Profile defaults for notebook 07 (see :func:`config`).
PROFILES: dict[str, dict[str, Any]] = {
    "quick": {
        "GAMES": 10_000,
        "TD_GAMES": 10_000,
        "RANDOM_GAMES": 10_000,
        "TABLE_GAMES": 100_000,
        "LOG_EVERY": 500,
        "EVAL_GAMES": 1000,
        "ABLATION_GAMES": 10_000,
        "ABLATION_VERSIONS": ["v3.0"],
        "LEAVE_ONE_OUT": False,
        "SEEDS": 2,
        "SEED_GAMES": 5000,
        "RETRAIN": False,
        "PERFECT_GAMES": 500_000,
        "RECIPE_GAMES": 5000,
        "PERFECT_EVAL_GAMES": 2000,
    },
    "standard": {
        "GAMES": 500_000,
        "TD_GAMES": 500_000,
        "RANDOM_GAMES": 1_500_000,
        "TABLE_GAMES": 1_500_000,
        "LOG_EVERY": 1000,
        "EVAL_GAMES": 1000,
        "ABLATION_GAMES": 100_000,
        "ABLATION_VERSIONS": ["v3.0", "v1.1"],
        "LEAVE_ONE_OUT": True,
        "SEEDS": 5,
        "SEED_GAMES": 50_000,
        "RETRAIN": False,
        "PERFECT_GAMES": 500_000,
        "RECIPE_GAMES": 200_000,
        "PERFECT_EVAL_GAMES": 2000,
    },
    "full": {
        "GAMES": 500_000,
        "TD_GAMES": 500_000,
        "RANDOM_GAMES": 1_500_000,
        "TABLE_GAMES": 1_500_000,
        "LOG_EVERY": 1000,
        "EVAL_GAMES": 5000,
        "ABLATION_GAMES": 500_000,
        "ABLATION_VERSIONS": ["v3.0", "v1.1", "v1.0", "v2.1"],
        "LEAVE_ONE_OUT": True,
        "SEEDS": 20,
        "SEED_GAMES": 500_000,
        "RETRAIN": True,
        "PERFECT_GAMES": 500_000,
        "RECIPE_GAMES": 500_000,
        "PERFECT_EVAL_GAMES": 10_000,
    },
}

#: Tables 6.2–6.3 as the thesis trained them: (label, run key, training games); the author's (human wins,
#: net wins, draws) of 20, row by row, are the claims ``table6.2-vs-perfect`` / ``table6.3-vs-perfect``.
TABLE_ROWS: dict[str, list[tuple[str, str, int]]] = {
    "table6.2": [
        ("v1.0", "v1.0", 500_000),
        ("v1.1", "v1.1", 500_000),
        ("v1.1 trained against TD(λ)", "v1.1 vs TD(λ)", 500_000),
        ("v2.0", "v2.0", 500_000),
        ("v2.1 *", "v2.1", 500_000),
        ("v2.1 trained against TD(λ)", "v2.1 vs TD(λ)", 500_000),
    ],
    "table6.3": [
        ("Itself", "v3.0", 500_000),
        ("TD(λ)", "v3.0 vs TD(λ)", 500_000),
        ("Random", "v3.0 vs Random", 1_500_000),
    ],
}


def printed(claim_id: str) -> Any:
    """The printed value of one of notebook 07's claims (``tdbook/claims/powell2000.toml``)."""
    return claims.get(NOTEBOOK, claim_id).paper


#: The thesis's training runs: key → (version, opponent, games knob, encoding)
RUNS: dict[str, tuple[str, str, str, str]] = {
    "v1.0": ("v1.0", "self", "GAMES", "thesis"),
    "v1.1": ("v1.1", "self", "GAMES", "thesis"),
    "v2.0": ("v2.0", "self", "GAMES", "thesis"),
    "v2.1": ("v2.1", "self", "GAMES", "thesis"),
    "v3.0": ("v3.0", "self", "GAMES", "thesis"),
    "v1.1 vs TD(λ)": ("v1.1", "td", "TD_GAMES", "thesis"),
    "v2.1 vs TD(λ)": ("v2.1", "td", "TD_GAMES", "thesis"),
    "v3.0 vs TD(λ)": ("v3.0", "td", "TD_GAMES", "thesis"),
    "v3.0 vs Random": ("v3.0", "random", "RANDOM_GAMES", "thesis"),
    "v3.0 (10 inputs)": ("v3.0", "self", "GAMES", "signed"),
}


def config(profile: str, **knobs: Any) -> profiles.Config:
    """Resolve notebook 07's knobs for ``profile`` (a knob passed as None takes the profile default)."""
    cfg = profiles.resolve(profile, PROFILES, **knobs)
    for name in (
        "GAMES",
        "TD_GAMES",
        "RANDOM_GAMES",
        "TABLE_GAMES",
        "LOG_EVERY",
        "EVAL_GAMES",
        "ABLATION_GAMES",
        "SEEDS",
        "SEED_GAMES",
        "PERFECT_GAMES",
        "PERFECT_EVAL_GAMES",
        "RECIPE_GAMES",
    ):
        if cfg[name] < 1:
            raise ValueError(f"{name} must be >= 1, got {cfg[name]!r}")
    for name in ("GAMES", "TD_GAMES", "RANDOM_GAMES", "ABLATION_GAMES", "SEED_GAMES", "RECIPE_GAMES"):
        if cfg[name] % cfg.LOG_EVERY:
            raise ValueError(f"{name} ({cfg[name]}) must be a multiple of LOG_EVERY ({cfg.LOG_EVERY})")
    for v in cfg.ABLATION_VERSIONS:
        check_version(v)
    return cfg


#: The chapter's findings (``tdbook.findings``): claim id → the statement, in the order a reader should meet them.
FINDINGS: dict[str, str] = {
    "v1.0-outputs-near-one": "the first net (v1.0), trained by self-play, answers close to one for every position",
    "fig6.12-v1.1-vs-td": "trained against the TD(λ) table player, the net mostly loses to it",
    "table6.2-vs-perfect": "a strong opponent (the author; here the perfect player) beats every net in every game",
    "conclusion-td-nets-cannot-learn-tictactoe": "a TD(λ) network does not learn tic-tac-toe",
    "beyond-perfect-net-exact-loss-probability": "beyond the thesis: a net trained by self-play alone never loses",
}


# ----------------------------------------------------------------------------- the TD(λ) table opponent


def td_opponent(games: int, seed: int, progress: bool = True) -> tuple[Player, tuple[float, float, float], int]:
    """§6.2's α = 0.05, λ = 0.5 TD(λ) table player, trained as O against the random player (App. B.7,
    ``"thesis"`` rule, ε = 1/20, 500,000-game chunks) — the "average player" the nets of Figs 6.12,
    6.14, 6.16 were trained against.  Returns the player (still exploring, ε = 1/20, as in training),
    its (win, draw, loss) % over the last chunk, and its states stored."""
    chunk = min(500_000, games)
    games = (games // chunk) * chunk
    r = train_table(
        random_player(),
        table_player(empty_table(), "thesis", epsilon=0.05),
        (False, True),
        TableTraining(games, chunk=chunk, alpha=0.05, lam=0.5, seed=run_seed(seed, "td-table-O")),
        progress=progress,
        desc="TD(λ) table O vs random",
    )
    return (
        table_player(r.tables[1], "thesis", epsilon=0.05, name="TD(λ) table O"),
        r.final_percent(1),
        r.states[-1][1],
    )


def run_seed(seed: int, label: str) -> int:
    """A stable seed for run ``label`` of experiment ``seed``."""
    return (int(seed) * 1_000_003 + zlib.crc32(label.encode())) % (2**31)


# ----------------------------------------------------------------------------- the thesis's runs


def train_run(
    key: str, cfg: profiles.Config, seed: int, opponent: Player | None = None, progress: bool = True
) -> NetRun:
    """One of :data:`RUNS` in thesis mode (``opponent``: the TD(λ) table player for the "vs TD(λ)" runs)."""
    version, opp, knob, enc = RUNS[key]
    if opp == "td" and opponent is None:
        raise ValueError(f"run {key!r} needs the TD(λ) table opponent")
    o = None if opp == "self" else Opponent(opponent if opp == "td" else random_player(), "X")
    spec = Training(
        NetDesign(version, "thesis", encoding=enc),
        games=cfg[knob],
        seed=run_seed(seed, key),
        log_every=cfg.LOG_EVERY,
        allow_nonfinite=True,
    )
    return train(spec, opponent=o, progress=progress, desc=f"TDNN {key}")


def thesis_runs(cfg: profiles.Config, seed: int, progress: bool = True) -> tuple[dict[str, NetRun], dict[str, Any]]:
    """Every run of :data:`RUNS`, and the TD(λ) table opponent's record (games, W/D/L %, states)."""
    opp, wdl, states = td_opponent(cfg.TABLE_GAMES, seed, progress)
    runs = {k: train_run(k, cfg, seed, opp, progress) for k in tqdm(RUNS, desc="thesis runs", disable=not progress)}
    return runs, dict(player=opp, games=cfg.TABLE_GAMES, wdl=wdl, states=states)


#: the seed study's configurations: label → (version, train() overrides)
SEED_CONFIGS: dict[str, tuple[str, dict[str, Any]]] = {
    "v1.0": ("v1.0", {}),
    "v3.0": ("v3.0", {}),
    "v3.0, listing arithmetic": ("v3.0", dict(activation="thesis-listing")),
    "v3.0, 10 inputs": ("v3.0", dict(encoding="signed")),
    "v3.0, 10 inputs, listing arithmetic": ("v3.0", dict(encoding="signed", activation="thesis-listing")),
}


def seed_study(cfg: profiles.Config, seed: int, progress: bool = True) -> dict[str, list[dict[str, Any]]]:
    """Thesis-mode self-play over ``SEEDS`` seeds of ``SEED_GAMES`` games each (:data:`SEED_CONFIGS`):
    does v1.0 saturate, where do v3.0's outputs go, and do its weights overflow — with the activation
    computed overflow-free and as App. B.9 lists it, on the 20-input and the first 10-input encoding?"""
    out: dict[str, list[dict[str, Any]]] = {k: [] for k in SEED_CONFIGS}
    with tqdm(total=cfg.SEEDS * len(SEED_CONFIGS), desc="seed study", disable=not progress, leave=False) as bar:
        for k in range(cfg.SEEDS):
            for label, (v, kw) in SEED_CONFIGS.items():
                spec = Training(
                    NetDesign(v, "thesis", **kw),
                    games=cfg.SEED_GAMES,
                    seed=run_seed(seed, f"seeds-{v}-{k}"),
                    log_every=cfg.LOG_EVERY,
                    allow_nonfinite=True,
                )
                r = train(spec, progress=False)
                st = output_stats(r.player)
                out[label].append(
                    dict(
                        nonfinite=r.nonfinite_game,
                        min=float(st["min"][0]),
                        mean=float(st["mean"][0]),
                        above99=float(st["above99"][0]),
                        below_m99=float((r.player.outputs()[:, 0] < -0.99).mean()),
                        max_w=float(np.nanmax(r.flog[:, 2])) if np.isfinite(r.flog[:, 2]).any() else float("nan"),
                        final=r.cumulative_percent()[-1].round(2).tolist(),
                    )
                )
                bar.update(1)
    return out


@dataclass
class RunSummary:
    """What notebook 07 reports about one trained thesis-mode net."""

    key: str
    games: int
    cumulative: np.ndarray  # X wins, O wins, draws % over the whole run (main.cc's final print)
    first: np.ndarray  # … over the first 10 % of the run
    last: np.ndarray  # … over the last 10 %
    stats: dict[str, np.ndarray]  # output_stats
    evaluation: Evaluation
    untrained_optimal: float  # the same net before training: share of positions answered optimally
    centre: float  # of X's 8 non-centre openings, how many the greedy net (as O) answers with the centre
    order_share: float  # fixed_order_share, mean of the two sides
    order: dict[str, list[int]]
    nonfinite: int | None
    negative_td: float  # share of TD errors < 0 over the run (output 0)

    @property
    def gain(self) -> float:
        """What training added to the share of optimal moves (0 = "no learning at all")."""
        return self.evaluation.optimal_all - self.untrained_optimal


def summarise(key: str, run: NetRun, eval_games: int, seed: int) -> RunSummary:
    """Measure a trained thesis-mode net: its training record, its outputs, and its greedy play."""
    version, _, _, enc = RUNS.get(key, (run.params["version"], "", "", run.params["encoding"]))
    p = run.params
    design = NetDesign(
        version,
        tuple(p["fixes"]),
        hidden=p["hidden"],
        alpha=p["alpha"],
        beta=p["beta"],
        lam=p["lam"],
        init=p["init"],
        activation=p["activation"],
        output=p["output"],
        encoding=enc,
    )
    untrained = NetPlayer(new_net(design, p["seed"]), version, enc)
    ev = evaluate(run.player, eval_games, run_seed(seed, f"eval-{key}"), name=key)
    shares = {side: fixed_order_share(run.player, piece) for side, piece in (("X", X), ("O", O))}
    neg = float(np.mean(run.flog[:, 1])) if len(run.flog) else float("nan")
    return RunSummary(
        key,
        run.games,
        run.cumulative_percent()[-1],
        np.array([window_share(run, c, True) for c in range(3)]),
        np.array([window_share(run, c, False) for c in range(3)]),
        output_stats(run.player),
        ev,
        optimal_fraction(untrained.as_table_player(), X, ALL_POSITIONS),
        centre_replies(run.player)["centre"],
        float(np.mean([v[0] for v in shares.values()])),
        {k: v[1] for k, v in shares.items()},
        run.nonfinite_game,
        neg,
    )


# ----------------------------------------------------------------------------- ablation


@dataclass
class AblationRow:
    version: str
    config: str  # "thesis", "+fix", "all fixes", "all but fix"
    fixes: tuple[str, ...]
    selfplay: tuple[float, float, float]  # X wins, O wins, draws % over the last 10% of training
    out_mean: float
    out_sd: float
    loss_x: float  # exact P(loss) vs perfect, net as X
    loss_o: float
    optimal: float  # share of all 4,520 positions answered optimally
    nonfinite: int | None
    stable: float | None = None  # share of checkpoints in the second half of training without a loss (recipe ablation)


def ablation_configs(leave_one_out: bool = True) -> list[tuple[str, tuple[str, ...]]]:
    """(label, fixes): the thesis, each fix alone, all fixes, and (optionally) all fixes but one."""
    rows = [("thesis", ())] + [(f"+ {f}", (f,)) for f in FIXES] + [("all fixes", FIXES)]
    if leave_one_out:
        rows += [(f"all but {f}", tuple(g for g in FIXES if g != f)) for f in FIXES]
    return rows


def ablation(
    version: str, games: int, seed: int, leave_one_out: bool = True, log_every: int = 1000, progress: bool = True
) -> list[AblationRow]:
    """Self-play ``version`` for ``games`` games under each configuration of :func:`ablation_configs`
    (same seed for all, so only the fixes differ) and measure what changes."""
    rows = []
    for label, fx in tqdm(ablation_configs(leave_one_out), desc=f"ablation {version}", disable=not progress):
        spec = Training(
            NetDesign(version, fx),
            games=games,
            seed=run_seed(seed, f"ablation-{version}"),
            log_every=log_every,
            allow_nonfinite=True,
        )
        r = train(spec, progress=False)
        st = output_stats(r.player)
        p = r.player.as_table_player().greedy()
        per = perfect_player()
        lx = exact_outcomes(p, per)[1]
        lo = exact_outcomes(per, p)[0]
        sp = tuple(window_share(r, c, first=False) for c in range(3))
        rows.append(
            AblationRow(
                version,
                label,
                fx,
                sp,
                float(st["mean"][0]),
                float(st["sd"][0]),
                lx,
                lo,
                optimal_fraction(p, X, ALL_POSITIONS),
                r.nonfinite_game,
            )
        )
    return rows


# ----------------------------------------------------------------------------- widget

#: the panel's choices: every version, and every mode (the thesis, all fixes, one fix alone)
EXPLORE_VERSIONS: list[str] = list(VERSIONS)
EXPLORE_MODES: list[str] = ["thesis", "fixed", *FIXES]


def explore(
    version: str = "v1.0",
    mode: str = "thesis",
    alpha: float = 0.05,
    beta: float = 0.1,
    lam: float = 0.5,
    hidden: int = 8,
    games: int = 50_000,
    seed: int = 0,
) -> dict[str, Any]:
    """Train one net by self-play with the given settings and measure it (the notebook's panel)."""
    if not isinstance(games, (int, np.integer)) or games < 1000 or games % 1000:
        raise ValueError(f"games must be a positive multiple of 1,000, got {games!r}")
    design = NetDesign(version, mode, hidden=int(hidden), alpha=alpha, beta=beta, lam=lam)
    r = train(Training(design, games=int(games), seed=int(seed), allow_nonfinite=True), desc=f"TDNN {version} ({mode})")
    return dict(run=r, stats=output_stats(r.player), check=check_point(r.player), mode=mode)
