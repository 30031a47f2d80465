"""Beyond Powell (2000) §6.7: a self-play TD(λ) net that plays tic-tac-toe perfectly — its recipe, its
training, the shipped weights ``data/tictactoe_net_perfect.npz`` with their sidecar, what each ingredient of
the recipe contributes, and ``python -m tdbook train tictactoe-net`` (:func:`train_main`), which trains it
again.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from tqdm.auto import tqdm

from ..core import profiles
from ..core.paths import data_dir
from ..core.storage import code_version, read_sidecar, write_sidecar
from ..learners.td_net import TDNet
from ..learners.tictactoe_net import FIXES, NetDesign
from ..players.tictactoe_net import NetPlayer
from .tictactoe_net import AblationRow, run_seed
from .tictactoe_net_evaluation import check_point, output_stats, window_share
from .tictactoe_net_training import Training, train

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


def training(spec: dict[str, Any], games: int, seed: int) -> Training:
    """The training run of a recipe like :data:`PERFECT_SPEC` (a dict of its settings) for ``games`` games."""
    design = NetDesign(
        spec["version"],
        spec["fixes"],
        hidden=spec["hidden"],
        alpha=spec["alpha"],
        beta=spec["beta"],
        lam=spec["lam"],
        init=spec["init"],
        activation=spec["activation"],
    )
    return Training(
        design, games=games, epsilon=spec["epsilon"], target=spec["target"], alpha_final=spec["alpha_final"], seed=seed
    )


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
        training(spec, games, spec["seed"]),
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

        r = train(training(spec, games, run_seed(seed, "recipe")), callback=cb, callback_every=every, progress=False)
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
