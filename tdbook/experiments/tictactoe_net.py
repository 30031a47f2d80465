"""Notebook 07's runs: tic-tac-toe with TD(λ) networks (seed 004 §6.3–6.7, App. B.8–B.9).

Every function returns data; figures are in :mod:`tdbook.plots.tictactoe_net`.

- :func:`thesis_runs` — the thesis's eight training runs (v1.0, v1.1, v2.0, v2.1, v3.0 by self-play;
  v1.1, v2.1, v3.0 as X against the §6.2 TD(λ) table player; v3.0 against the random player) and
  v3.0's first 10-input encoding, all in ``"thesis"`` mode (:mod:`tdbook.learners.tictactoe_net`);
- :func:`evaluate` — a frozen net against the perfect player: exact outcome probabilities, ≥ 1,000
  sampled greedy games per side and a 20-game sample (the human of Tables 6.2–6.3 replaced);
- :func:`ablation` — one thesis defect fixed at a time (and all but one), what each changes;
- :func:`perfect_net` — beyond the thesis: a self-play TD(λ) net that plays perfectly (shipped
  weights, retrained by the ``full`` profile or ``python -m tdbook train tictactoe-net``).

Seeds: run ``label`` uses :func:`run_seed` ``(SEED, label)`` — a stable hash, so adding a run never
changes another one's numbers.
"""

from __future__ import annotations

import argparse
import sys
import time
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from tqdm.auto import tqdm

from ..core import profiles
from ..core.paths import data_dir
from ..core.storage import code_version, read_sidecar, write_sidecar
from ..games.tictactoe import (
    EMPTY,
    ONGOING,
    POW3,
    STATUS,
    O,
    X,
    positions_to_move,
    to_move,
)
from ..learners.td_net import TDNet
from ..learners.td_table import train as train_table
from ..learners.tictactoe_net import FIXES, NetRun, new_net, train
from ..players.tictactoe import (
    MatchResult,
    Player,
    best_response,
    empty_table,
    exact_outcomes,
    match,
    optimal_fraction,
    perfect_player,
    policy_candidates,
    random_player,
    table_player,
)
from ..players.tictactoe_net import NetPlayer, check_version

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

#: What the thesis reports (§6.6, Tables 6.2–6.3).  Table rows: (label, run key, training games,
#: (human wins, net wins, draws) of 20 games).
THESIS: dict[str, Any] = {
    "fig6.12": dict(net=10.0, draw=10.0, td=80.0),  # % of games, v1.1 (X) vs TD(λ) (O), "about"
    "table6.2": [
        ("v1.0", "v1.0", 500_000, (20, 0, 0)),
        ("v1.1", "v1.1", 500_000, (20, 0, 0)),
        ("v1.1 trained against TD(λ)", "v1.1 vs TD(λ)", 500_000, (20, 0, 0)),
        ("v2.0", "v2.0", 500_000, (20, 0, 0)),
        ("v2.1 *", "v2.1", 500_000, (20, 0, 0)),
        ("v2.1 trained against TD(λ)", "v2.1 vs TD(λ)", 500_000, (13, 2, 5)),
    ],
    "table6.3": [
        ("Itself", "v3.0", 500_000, (20, 0, 0)),
        ("TD(λ)", "v3.0 vs TD(λ)", 500_000, (20, 0, 0)),
        ("Random", "v3.0 vs Random", 1_500_000, (20, 0, 0)),
    ],
}

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

#: The beyond-the-thesis net (see :func:`perfect_net`): every thesis defect fixed, the negamax target,
#: 80 tanh hidden units, weights U[−0.5, 0.5], α = 0.05 input→hidden and β = 0.01 hidden→output annealed
#: ten-fold, ε = 0.3, λ = 0.5.
PERFECT_SPEC: dict[str, Any] = dict(
    version="v3.0",
    fixes="fixed",
    target="negamax",
    hidden=80,
    activation="tanh",
    init=0.5,
    alpha=0.05,
    beta=0.01,
    alpha_final=0.005,
    lam=0.5,
    epsilon=0.3,
    seed=1,
)
PERFECT_GAMES = 500_000
PERFECT_FILE = "tictactoe_net_perfect.npz"
ALL_POSITIONS = np.concatenate([positions_to_move(X), positions_to_move(O)])


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


def run_seed(seed: int, label: str) -> int:
    """A stable seed for run ``label`` of experiment ``seed``."""
    return (int(seed) * 1_000_003 + zlib.crc32(label.encode())) % (2**31)


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
        games,
        chunk=chunk,
        alpha=0.05,
        lam=0.5,
        seed=run_seed(seed, "td-table-O"),
        progress=progress,
        desc="TD(λ) table O vs random",
    )
    return (
        table_player(r.tables[1], "thesis", epsilon=0.05, name="TD(λ) table O"),
        r.final_percent(1),
        r.states[-1][1],
    )


# ----------------------------------------------------------------------------- evaluations


@dataclass
class Evaluation:
    """A frozen net against the perfect player (counts from the net's point of view)."""

    name: str
    exact: dict[str, tuple[float, float, float]]  # side → (P(net win), P(draw), P(net loss))
    sampled: dict[str, tuple[int, int, int]]  # side → (net wins, draws, net losses) over `games` greedy games
    shape20: tuple[int, int, int]  # (perfect wins, net wins, draws) in 20 games: 10 as X, 10 as O
    optimal: dict[str, float]  # side → share of positions answered with a minimax-optimal move
    games: int  # per side
    exploiter: dict[str, tuple[float, float, float]]  # side → (P(net win), P(draw), P(net loss)), exact, against
    #   the opponent that knows the net's policy and maximises P(win) − P(loss) (players.best_response)

    def exploiter20(self) -> tuple[float, float, float]:
        """(opponent wins, net wins, draws) expected in 20 games against the exploiter, 10 as X and 10 as O."""
        e = [self.exploiter[s] for s in ("X", "O")]
        return 10 * (e[0][2] + e[1][2]), 10 * (e[0][0] + e[1][0]), 10 * (e[0][1] + e[1][1])

    def per20(self) -> tuple[float, float, float]:
        """(perfect wins, net wins, draws) per 20 games over all sampled games, both sides."""
        w = sum(s[0] for s in self.sampled.values())
        d = sum(s[1] for s in self.sampled.values())
        lo = sum(s[2] for s in self.sampled.values())
        n = max(w + d + lo, 1)
        return 20.0 * lo / n, 20.0 * w / n, 20.0 * d / n

    @property
    def losses(self) -> int:
        return sum(s[2] for s in self.sampled.values())

    @property
    def optimal_all(self) -> float:
        """Share over all 4,520 positions (X's 2,423 and O's 2,097)."""
        nx, no = len(positions_to_move(X)), len(positions_to_move(O))
        return (self.optimal["X"] * nx + self.optimal["O"] * no) / (nx + no)


def _net_view(m: MatchResult, side: str) -> tuple[int, int, int]:
    return (m.x_wins, m.draws, m.o_wins) if side == "X" else (m.o_wins, m.draws, m.x_wins)


def evaluate(player: NetPlayer | Player, games: int, seed: int, name: str = "") -> Evaluation:
    """``player`` (played greedily) against the perfect player (random among optimal moves): exact outcome
    probabilities per side, ``games`` sampled games per side, a 20-game sample (10 as X, 10 as O) and the
    share of positions answered optimally."""
    p = player.as_table_player() if isinstance(player, NetPlayer) else player
    p = p.greedy()
    per = perfect_player(seed)
    ex = {"X": exact_outcomes(p, per), "O": exact_outcomes(per, p)}
    exact = {"X": (ex["X"][0], ex["X"][2], ex["X"][1]), "O": (ex["O"][1], ex["O"][2], ex["O"][0])}
    sampled = {
        "X": _net_view(match(p, per, games, seed=seed, stream=1, progress=False), "X"),
        "O": _net_view(match(per, p, games, seed=seed, stream=2, progress=False), "O"),
    }
    a = _net_view(match(p, per, 10, seed=seed, stream=3, progress=False), "X")
    b = _net_view(match(per, p, 10, seed=seed, stream=4, progress=False), "O")
    shape = (a[2] + b[2], a[0] + b[0], a[1] + b[1])
    opt = {"X": optimal_fraction(p, X), "O": optimal_fraction(p, O)}
    return Evaluation(
        name or getattr(player, "name", "net"),
        exact,
        sampled,
        shape,
        opt,
        games,
        {side: best_response(p, side) for side in ("X", "O")},
    )


def centre_replies(player: NetPlayer | Player) -> dict[str, Any]:
    """§6.6's basic rule (Table 6.2 asterisk): as O, answer every non-centre opening with the centre.
    Returns the reply to each of X's 8 non-centre openings and how many are the centre (corners: of 4)."""
    p = player.as_table_player() if isinstance(player, NetPlayer) else player
    p = p.greedy()
    replies = {s: p.distribution(int(X * POW3[s])) for s in range(9) if s != 4}
    centre = {s: float(d[4]) for s, d in replies.items()}
    return dict(
        replies={s: int(np.argmax(d)) for s, d in replies.items()},
        centre=sum(centre.values()),
        corners=sum(centre[s] for s in (0, 2, 6, 8)),
    )


def faced_positions(player: Player, piece: int) -> np.ndarray:
    """Positions with ``piece`` to move that arise when ``player`` plays ``piece`` by its own (greedy) policy
    and the opponent plays anything."""
    out, seen = [], set()
    buf = np.empty(9, dtype=np.int64)
    stack = [0]
    while stack:
        c = stack.pop()
        if c in seen or STATUS[c] != ONGOING:
            continue
        seen.add(c)
        mover = to_move(c)
        if mover == piece:
            out.append(c)
            n = policy_candidates(player.kind, player.table, player.rule, player.draw_value, c, buf)
        else:
            n = int(sum(1 for s in range(9) if (c // 3**s) % 3 == EMPTY))
            buf[:n] = [s for s in range(9) if (c // 3**s) % 3 == EMPTY]
        for s in buf[:n]:
            stack.append(int(c + mover * POW3[int(s)]))
    return np.array(sorted(out), dtype=np.int64)


def fixed_order_share(player: NetPlayer | Player, piece: int) -> tuple[float, list[int]]:
    """§6.6: "it would always choose the same positions (if available) in the same order no matter what the
    opponent had chosen".  Over the positions the player faces (:func:`faced_positions`), the share of its
    moves that one fixed priority order of the squares reproduces (order built greedily), and that order."""
    p = player.as_table_player() if isinstance(player, NetPlayer) else player
    p = p.greedy()
    pos = faced_positions(p, piece)
    dist = np.array([p.distribution(int(c)) for c in pos])  # (n, 9)
    empty = np.array([[(int(c) // 3**s) % 3 == EMPTY for s in range(9)] for c in pos])
    undecided = np.ones(len(pos), dtype=bool)
    order, hit = [], 0.0
    for _ in range(9):
        best, best_gain = None, -1.0
        for q in range(9):
            if q in order:
                continue
            m = undecided & empty[:, q]
            gain = dist[m, q].sum() - 1e-6 * m.sum()
            if gain > best_gain:
                best, best_gain = q, gain
        m = undecided & empty[:, best]
        hit += dist[m, best].sum()
        undecided &= ~empty[:, best]
        order.append(best)
    return float(hit / max(len(pos), 1)), order


# ----------------------------------------------------------------------------- the thesis's runs


def train_run(
    key: str, cfg: profiles.Config, seed: int, opponent: Player | None = None, progress: bool = True
) -> NetRun:
    """One of :data:`RUNS` in thesis mode (``opponent``: the TD(λ) table player for the "vs TD(λ)" runs)."""
    version, opp, knob, enc = RUNS[key]
    if opp == "td" and opponent is None:
        raise ValueError(f"run {key!r} needs the TD(λ) table opponent")
    o = None if opp == "self" else opponent if opp == "td" else random_player()
    return train(
        version,
        "thesis",
        games=cfg[knob],
        opponent=o,
        net_side="X",
        encoding=enc,
        seed=run_seed(seed, key),
        log_every=cfg.LOG_EVERY,
        allow_nonfinite=True,
        progress=progress,
        desc=f"TDNN {key}",
    )


def thesis_runs(cfg: profiles.Config, seed: int, progress: bool = True) -> tuple[dict[str, NetRun], dict[str, Any]]:
    """Every run of :data:`RUNS`, and the TD(λ) table opponent's record (games, W/D/L %, states)."""
    opp, wdl, states = td_opponent(cfg.TABLE_GAMES, seed, progress)
    runs = {k: train_run(k, cfg, seed, opp, progress) for k in tqdm(RUNS, desc="thesis runs", disable=not progress)}
    return runs, dict(player=opp, games=cfg.TABLE_GAMES, wdl=wdl, states=states)


def output_stats(player: NetPlayer) -> dict[str, np.ndarray]:
    """Min, mean, max and s.d. of each raw output over every reachable after-state (NaN-aware)."""
    out = player.outputs()
    with np.errstate(invalid="ignore"):
        return dict(
            min=np.nanmin(out, 0) if np.isfinite(out).any() else np.full(out.shape[1], np.nan),
            mean=np.nanmean(out, 0) if np.isfinite(out).any() else np.full(out.shape[1], np.nan),
            max=np.nanmax(out, 0) if np.isfinite(out).any() else np.full(out.shape[1], np.nan),
            sd=np.nanstd(out, 0) if np.isfinite(out).any() else np.full(out.shape[1], np.nan),
            above99=(out > 0.99).mean(0),
            finite=np.isfinite(out).all(1).mean(),
        )


def window_share(run: NetRun, col: int, first: bool, frac: float = 0.1) -> float:
    """% of X wins (0), O wins (1) or draws (2) over the first or last ``frac`` of the run's games."""
    k = max(1, int(round(len(run.log) * frac)))
    if first:
        d = run.log[k - 1]
    else:
        d = run.log[-1] - (run.log[-1 - k] if len(run.log) > k else 0)
    return float(100.0 * d[col] / max(d.sum(), 1))


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
                r = train(
                    v,
                    "thesis",
                    games=cfg.SEED_GAMES,
                    seed=run_seed(seed, f"seeds-{v}-{k}"),
                    log_every=cfg.LOG_EVERY,
                    allow_nonfinite=True,
                    progress=False,
                    **kw,
                )
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
    untrained = NetPlayer(
        new_net(
            version,
            p["fixes"],
            hidden=p["hidden"],
            alpha=p["alpha"],
            beta=p["beta"],
            lam=p["lam"],
            init=p["init"],
            activation=p["activation"],
            output=p["output"],
            encoding=enc,
            seed=p["seed"],
        ),
        version,
        enc,
    )
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
        r = train(
            version,
            fx,
            games=games,
            seed=run_seed(seed, f"ablation-{version}"),
            log_every=log_every,
            allow_nonfinite=True,
            progress=False,
        )
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


# ----------------------------------------------------------------------------- beyond: a perfect TD net


@dataclass
class PerfectNet:
    player: NetPlayer
    games: int
    wall_time_s: float
    curve: list[dict[str, float]]  # games, loss_x, loss_o, optimal
    command: str
    source: str  # "shipped" or "trained"
    spec: dict = field(default_factory=dict)


def perfect_command(spec: dict[str, Any], games: int, out: str | None = None, check_every: int | None = None) -> str:
    parts = [
        "python -m tdbook train tictactoe-net",
        f"--games {games}",
        f"--hidden {spec['hidden']}",
        f"--init {spec['init']}",
        f"--alpha {spec['alpha']}",
        f"--beta {spec['beta']}",
        f"--alpha-final {spec['alpha_final']}",
        f"--lambda {spec['lam']}",
        f"--epsilon {spec['epsilon']}",
        f"--seed {spec['seed']}",
    ]
    if check_every:
        parts.append(f"--check-every {check_every}")
    if out:
        parts.append(f"--out {out}")
    return " ".join(parts)


def check_point(player: NetPlayer) -> dict[str, float]:
    """Exact P(loss) against the perfect player as X and as O, and the share of the 4,520 positions
    answered with a minimax-optimal move."""
    p = player.as_table_player().greedy()
    per = perfect_player()
    return dict(
        loss_x=exact_outcomes(p, per)[1],
        loss_o=exact_outcomes(per, p)[0],
        optimal=optimal_fraction(p, X, ALL_POSITIONS),
    )


def train_perfect(
    games: int, spec: dict[str, Any] | None = None, check_every: int = 25_000, progress: bool = True
) -> PerfectNet:
    """Train the beyond-the-thesis net from scratch (self-play only), with a learning curve."""
    spec = {**PERFECT_SPEC, **(spec or {})}
    curve: list[dict[str, float]] = []
    t0 = time.perf_counter()
    spent = [0.0]

    def cb(done: int, pl: NetPlayer) -> None:
        t = time.perf_counter()
        curve.append(dict(games=done, **check_point(pl)))
        spent[0] += time.perf_counter() - t

    r = train(
        spec["version"],
        spec["fixes"],
        games=games,
        target=spec["target"],
        hidden=spec["hidden"],
        activation=spec["activation"],
        init=spec["init"],
        alpha=spec["alpha"],
        beta=spec["beta"],
        alpha_final=spec["alpha_final"],
        lam=spec["lam"],
        epsilon=spec["epsilon"],
        seed=spec["seed"],
        callback=cb,
        callback_every=min(check_every, games),
        progress=progress,
        desc="self-play TD(λ) net",
    )
    wall = time.perf_counter() - t0 - spent[0]
    return PerfectNet(
        r.player, games, wall, curve, perfect_command(spec, games, check_every=check_every), "trained", spec
    )


def save_perfect(pn: PerfectNet, path: Path) -> None:
    pn.player.net.save(
        path,
        version=pn.player.version,
        encoding=pn.player.encoding,
        immediate_win=pn.player.immediate_win,
        command=pn.command,
    )
    write_sidecar(
        path,
        dict(
            command=pn.command,
            seed=pn.spec.get("seed"),
            games=pn.games,
            wall_time_s=round(pn.wall_time_s, 1),
            code_version=code_version(),
            net=f"{pn.player.net.n_in}-{pn.player.net.n_hidden}-{pn.player.net.n_out} ({pn.player.encoding} encoding)",
            spec=pn.spec,
            learning_curve=pn.curve,
            learning_curve_note="exact P(loss) vs the perfect player as X / as O; share of the "
            "4,520 non-terminal reachable positions answered optimally",
        ),
    )


def load_perfect(path: Path | None = None) -> PerfectNet:
    """The shipped beyond-the-thesis net and its sidecar; ValueError naming the problem if either is bad."""
    path = Path(path) if path is not None else data_dir() / PERFECT_FILE
    side = read_sidecar(path)
    net = TDNet.load(path, expect={"n_in": 18, "n_out": 1})
    extra = getattr(net, "extra", {})
    player = NetPlayer(
        net,
        extra.get("version", "v3.0"),
        extra.get("encoding", "mover"),
        immediate_win=bool(extra.get("immediate_win", True)),
        name="self-play TD(λ) net",
    )
    try:
        return PerfectNet(
            player,
            int(side["games"]),
            float(side["wall_time_s"]),
            side.get("learning_curve", []),
            str(side["command"]),
            "shipped",
            side.get("spec", {}),
        )
    except (KeyError, TypeError, ValueError) as e:
        raise ValueError(f"the sidecar of {path} is incomplete or malformed ({type(e).__name__}: {e})") from None


def perfect_net(cfg: profiles.Config, progress: bool = True) -> PerfectNet:
    """The shipped net (``RETRAIN`` false) or one retrained from scratch with the shipped spec."""
    if cfg.RETRAIN:
        return train_perfect(cfg.PERFECT_GAMES, progress=progress)
    return load_perfect()


#: What each ingredient of :data:`PERFECT_SPEC` contributes: the recipe, and the recipe with one setting put
#: back to the thesis's (label → train() overrides).
RECIPE_VARIANTS: dict[str, dict[str, Any]] = {
    "the recipe": {},
    "App. B.8's own-next-after-state target": {"target": "own"},
    "weights U[−0.1, 0.1] (thesis)": {"init": 0.1},
    "β = 0.1 (thesis)": {"beta": 0.1},
    "8 hidden units (thesis)": {"hidden": 8},
    "ε = 1/20 (thesis)": {"epsilon": 0.05},
}


def recipe_ablation(games: int, seed: int, progress: bool = True) -> list[AblationRow]:
    """Train the beyond-the-thesis recipe for ``games`` games, and again with each of its settings put back to
    the thesis's (:data:`RECIPE_VARIANTS`; same seed), and measure each net against the perfect player — at the
    end, and at checkpoints (every tenth of the run, at least 1,000 games) in the second half of training:
    ``stable`` is the share of those at which the greedy net never loses, as X or as O."""
    rows = []
    every = max(1000, (games // 10 // 1000) * 1000)
    for label, over in tqdm(RECIPE_VARIANTS.items(), desc="recipe ablation", disable=not progress):
        spec = {**PERFECT_SPEC, **over}
        checks: list[bool] = []

        def cb(done: int, pl: NetPlayer) -> None:
            if 2 * done >= games:
                c = check_point(pl)
                checks.append(c["loss_x"] == 0.0 and c["loss_o"] == 0.0)  # noqa: B023 - used in this iteration

        r = train(
            spec["version"],
            spec["fixes"],
            games=games,
            target=spec["target"],
            hidden=spec["hidden"],
            activation=spec["activation"],
            init=spec["init"],
            alpha=spec["alpha"],
            beta=spec["beta"],
            alpha_final=spec["alpha_final"],
            lam=spec["lam"],
            epsilon=spec["epsilon"],
            seed=run_seed(seed, "recipe"),
            callback=cb,
            callback_every=every,
            progress=False,
        )
        c = check_point(r.player)
        st = output_stats(r.player)
        rows.append(
            AblationRow(
                "v3.0",
                label,
                FIXES,
                tuple(window_share(r, k, first=False) for k in range(3)),
                float(st["mean"][0]),
                float(st["sd"][0]),
                c["loss_x"],
                c["loss_o"],
                c["optimal"],
                r.nonfinite_game,
                float(np.mean(checks)) if checks else None,
            )
        )
    return rows


def train_main(argv: Sequence[str] | None = None) -> int:
    """``python -m tdbook train tictactoe-net …``: train the self-play net, write it and its sidecar."""
    ap = argparse.ArgumentParser(
        prog="python -m tdbook train tictactoe-net",
        description="Train notebook 07's self-play TD(λ) tic-tac-toe net (negamax target, "
        "all thesis defects fixed) and write weights + JSON sidecar.",
    )
    ap.add_argument("--games", type=int, default=PERFECT_GAMES)
    ap.add_argument("--hidden", type=int, default=PERFECT_SPEC["hidden"])
    ap.add_argument("--init", type=float, default=PERFECT_SPEC["init"], help="weights start uniform in [-init, init]")
    ap.add_argument("--alpha", type=float, default=PERFECT_SPEC["alpha"], help="input→hidden step size at the start")
    ap.add_argument("--beta", type=float, default=PERFECT_SPEC["beta"], help="hidden→output step size at the start")
    ap.add_argument(
        "--alpha-final",
        type=float,
        default=PERFECT_SPEC["alpha_final"],
        help="α at the end (β shrinks by the same factor)",
    )
    ap.add_argument("--lambda", dest="lam", type=float, default=PERFECT_SPEC["lam"])
    ap.add_argument("--epsilon", type=float, default=PERFECT_SPEC["epsilon"])
    ap.add_argument("--seed", type=int, default=PERFECT_SPEC["seed"])
    ap.add_argument("--check-every", type=int, default=25_000, help="learning-curve spacing (games)")
    ap.add_argument("--out", default=None, help=f"weights file (default data/{PERFECT_FILE})")
    ap.add_argument("--no-progress", action="store_true")
    a = ap.parse_args(argv)
    spec = dict(
        hidden=a.hidden,
        init=a.init,
        alpha=a.alpha,
        beta=a.beta,
        alpha_final=a.alpha_final,
        lam=a.lam,
        epsilon=a.epsilon,
        seed=a.seed,
    )
    out = Path(a.out) if a.out else data_dir() / PERFECT_FILE
    try:
        pn = train_perfect(a.games, spec, check_every=a.check_every, progress=not a.no_progress)
    except ValueError as e:
        print(f"tdbook train: error: {e}", file=sys.stderr)
        return 2
    pn.command = perfect_command(pn.spec, a.games, None if a.out is None else str(a.out), a.check_every)
    save_perfect(pn, out)
    c = pn.curve[-1]
    print(
        f"wrote {out}: {a.games} games in {pn.wall_time_s:.0f} s; P(loss) as X {c['loss_x']:.4f}, as O "
        f"{c['loss_o']:.4f}; optimal moves {100 * c['optimal']:.1f}% of positions"
    )
    return 0


# ----------------------------------------------------------------------------- widget


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
    r = train(
        version,
        mode,
        games=int(games),
        hidden=int(hidden),
        alpha=alpha,
        beta=beta,
        lam=lam,
        seed=int(seed),
        allow_nonfinite=True,
        desc=f"TDNN {version} ({mode})",
    )
    return dict(run=r, stats=output_stats(r.player), check=check_point(r.player), mode=mode)
