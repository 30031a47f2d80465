"""Beyond Powell (2000) §6.7: a self-play TD(λ) net that plays tic-tac-toe perfectly — its recipe, its
training, the shipped weights ``data/tictactoe_net_perfect.npz`` with their sidecar, what each ingredient of
the recipe contributes, and ``python -m tdbook train tictactoe-net`` (:func:`train_main`), which trains it
again.
"""

from __future__ import annotations

import argparse
import io
import json
import math
import time
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ...core import profiles
from ...core.paths import data_dir, repo_root
from ...core.storage import atomic_write_bytes, code_version, read_sidecar, write_sidecar
from ...learners.td_net import TDNet
from ...learners.tictactoe_net import FIXES, NetDesign
from ...players.tictactoe_net import NetPlayer
from ..common import records
from ..common import training_driver as driver
from .net_evaluation import check_point, output_stats, window_share
from .net_training import Training, train
from .tictactoe_td_net import AblationRow, recorded_rows, run_seed

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
    games: int,
    spec: dict[str, Any] | None = None,
    check_every: int = 25_000,
    progress: bool = True,
    checkpoint: Path | None = None,
    checkpoint_every: int = 25_000,
) -> PerfectNet:
    """Train the beyond-the-thesis net from scratch (self-play only), with a learning curve.  ``checkpoint``: a
    file written atomically every ``checkpoint_every`` games (a multiple of 1,000) and at the end; when it exists
    the run resumes from it (:func:`read_checkpoint`) and ends with the weights of a run never stopped."""
    spec = {**PERFECT_SPEC, **(spec or {})}
    curve: list[dict[str, float]] = []
    t0 = time.perf_counter()
    spent = [0.0]
    before, state = 0.0, None
    if checkpoint is not None and Path(checkpoint).exists():
        state, meta = read_checkpoint(Path(checkpoint), spec, games, check_every)
        curve, before = list(meta["curve"]), float(meta["wall_time_s"])

    def cb(done: int, pl: NetPlayer) -> None:
        t = time.perf_counter()
        curve.append(dict(games=done, **check_point(pl)))
        spent[0] += time.perf_counter() - t

    def save(st: dict[str, np.ndarray]) -> None:
        wall = before + time.perf_counter() - t0 - spent[0]
        meta = dict(format=CHECKPOINT_FORMAT, spec=spec, games=games, check_every=check_every, curve=curve,
                    wall_time_s=wall)  # fmt: skip
        buf = io.BytesIO()
        np.savez(buf, meta=np.array(json.dumps(meta)), **st)
        atomic_write_bytes(Path(checkpoint), buf.getvalue())

    r = train(
        training(spec, games, spec["seed"]),
        callback=cb,
        callback_every=check_every,
        progress=progress,
        desc="self-play TD(λ) net",
        state=state,
        on_checkpoint=None if checkpoint is None else save,
        checkpoint_every=checkpoint_every,
    )
    wall = before + time.perf_counter() - t0 - spent[0]
    return PerfectNet(
        r.player, games, wall, curve, perfect_command(spec, games, check_every=check_every), "trained", spec
    )


#: the ``format`` of a tic-tac-toe net's training checkpoint
CHECKPOINT_FORMAT = "tdbook-tictactoe-net-checkpoint-1"


def read_checkpoint(
    path: Path, spec: dict[str, Any], games: int, check_every: int
) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """(state, meta) of a training checkpoint of this run (same settings, games and curve spacing); ValueError
    naming the file when it is not one, or is another run's."""
    with np.load(path, allow_pickle=False) as z:
        arrays = {k: z[k] for k in z.files}
    try:
        meta = json.loads(str(arrays.pop("meta")))
    except (KeyError, ValueError):
        raise ValueError(f"checkpoint {path} has no readable 'meta' record") from None
    if not isinstance(meta, dict) or meta.get("format") != CHECKPOINT_FORMAT:
        raise ValueError(f"checkpoint {path} is not a tic-tac-toe net's training checkpoint")
    ours = dict(spec=spec, games=games, check_every=check_every)
    theirs = {k: meta.get(k) for k in ours}
    if json.loads(json.dumps(ours)) != theirs:
        raise ValueError(
            f"checkpoint {path} was made by another run ({theirs}); use another --checkpoint or the same settings"
        )
    return arrays, meta


def save_weights(pn: PerfectNet, path: Path) -> dict[str, Any]:
    """Write the net's weights to ``path`` (atomically) and return its sidecar, not yet written."""
    pn.player.net.save(
        path,
        version=pn.player.version,
        encoding=pn.player.encoding,
        immediate_win=pn.player.immediate_win,
        command=pn.command,
    )
    return dict(
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
    )


def save_perfect(pn: PerfectNet, path: Path) -> None:
    """Write the net and its sidecar."""
    write_sidecar(path, save_weights(pn, path))


WEIGHTS_EXPECTED = (
    "a tdbook weights file: an .npz archive of the arrays W1, W2 (floats) and meta (JSON text), as "
    "`python -m tdbook train tictactoe-net` writes it"
)


def check_weights_file(path: Path) -> None:
    """ValueError naming ``path`` and what was expected unless it is an .npz archive holding W1, W2 and
    meta as plain (non-object) arrays — checked from the archive's headers, without loading anything."""
    if not path.exists():
        raise ValueError(f"no weights file at {path} (expected {WEIGHTS_EXPECTED})")
    try:
        with zipfile.ZipFile(path) as z:
            names = {n[:-4]: n for n in z.namelist() if n.endswith(".npy")}
            missing = [k for k in ("W1", "W2", "meta") if k not in names]
            if missing:
                held = ", ".join(sorted(names)) or "no arrays"
                raise ValueError(f"{path} is not {WEIGHTS_EXPECTED}; it lacks {', '.join(missing)} (it holds {held})")
            for k in ("W1", "W2", "meta"):
                with z.open(names[k]) as f:
                    version = np.lib.format.read_magic(f)
                    header = (
                        np.lib.format.read_array_header_1_0(f)
                        if version == (1, 0)
                        else np.lib.format.read_array_header_2_0(f)
                    )
                if header[2].hasobject:
                    raise ValueError(f"{path} is not {WEIGHTS_EXPECTED}; its {k} holds Python objects")
    except (zipfile.BadZipFile, OSError, EOFError) as e:
        raise ValueError(f"{path} is not {WEIGHTS_EXPECTED} (it is not a readable .npz archive: {e})") from None


def load_perfect(path: Path | None = None) -> PerfectNet:
    """The shipped beyond-the-thesis net and its sidecar; ValueError naming the file and the problem if either
    is missing, corrupt or of another kind."""
    path = Path(path) if path is not None else data_dir() / PERFECT_FILE
    side = read_sidecar(path)
    check_weights_file(path)
    try:
        net = TDNet.load(path, expect={"n_in": 18, "n_out": 1})
    except ValueError as e:
        text = str(e)
        if "allow_pickle" in text or "pickle" in text:  # never suggest unpickling a file we did not write
            text = f"{path} is not {WEIGHTS_EXPECTED}"
        raise ValueError(text) from None
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
    ``stable`` is the share of those at which the greedy net never loses, as X or as O.  The standard profile reads
    the rows from the ablations' record and trains the recipe itself again (:func:`tictactoe_td_net.recorded_rows`)."""
    every = max(1000, (games // 10 // 1000) * 1000)
    variants = list(RECIPE_VARIANTS.items())

    def measure(i: int) -> AblationRow:
        label, over = variants[i]
        spec = {**PERFECT_SPEC, **over}
        checks: list[bool] = []

        def cb(done: int, pl: NetPlayer) -> None:
            if 2 * done >= games:
                c = check_point(pl)
                checks.append(c["loss_x"] == 0.0 and c["loss_o"] == 0.0)

        r = train(training(spec, games, run_seed(seed, "recipe")), callback=cb, callback_every=every, progress=False)
        c = check_point(r.player)
        st = output_stats(r.player)
        return AblationRow("v3.0", label, FIXES, tuple(window_share(r, k, first=False) for k in range(3)),
                           float(st["mean"][0]), float(st["sd"][0]), c["loss_x"], c["loss_o"], c["optimal"],
                           r.nonfinite_game, float(np.mean(checks)) if checks else None)  # fmt: skip

    entry = records.key(what="recipe_ablation", games=games, seed=seed, variants=RECIPE_VARIANTS, spec=PERFECT_SPEC)
    return recorded_rows(entry, [("v3.0", label, FIXES) for label, _ in variants], measure, "recipe ablation", progress)


#: the trainer logs, anneals and checks its learning curve in blocks of this many games
LOG_EVERY = 1000
PROG = "python -m tdbook train tictactoe-net"


def default_out() -> Path:
    """Where ``train tictactoe-net`` writes unless told otherwise: ``build/``, never the shipped ``data/`` file."""
    return repo_root() / "build" / PERFECT_FILE


def _option_problems(a: argparse.Namespace) -> list[str]:
    """Every bad option value, named as the user typed it (empty when all are fine)."""
    out = []

    def within(flag: str, v: float, lo: float, hi: float, lo_open: bool) -> None:
        if not (math.isfinite(v) and (v > lo if lo_open else v >= lo) and v <= hi):
            out.append(f"{flag} must be a number in {'(' if lo_open else '['}{lo:g}, {hi:g}], got {v:g}")

    if a.games < 1:
        out.append(f"--games must be a positive number of games, got {a.games}")
    if a.hidden < 1:
        out.append(f"--hidden must be a positive number of units, got {a.hidden}")
    within("--init", a.init, 0.0, 10.0, True)
    within("--alpha", a.alpha, 0.0, 10.0, True)
    within("--beta", a.beta, 0.0, 10.0, True)
    within("--alpha-final", a.alpha_final, 0.0, 10.0, True)
    within("--lambda", a.lam, 0.0, 1.0, False)
    within("--epsilon", a.epsilon, 0.0, 1.0, False)
    if a.seed < 0:
        out.append(f"--seed must be >= 0, got {a.seed}")
    for flag, v in (("--check-every", a.check_every), ("--checkpoint-every", a.checkpoint_every)):
        if v < LOG_EVERY or v % LOG_EVERY:
            out.append(
                f"{flag} must be a positive multiple of {LOG_EVERY:,} games (the trainer logs and anneals in blocks "
                f"of {LOG_EVERY:,}), got {v:,}"
            )
    return out


class TicTacToeNet(driver.Trainer):
    game = "tictactoe-net"
    description = (
        "Train notebook 07's self-play TD(λ) tic-tac-toe net (negamax target, all thesis defects fixed) and write "
        "its weights (.npz) and a JSON sidecar recording the command, seed, wall time and learning curve."
    )
    epilog = (
        f"The shipped net is data/{PERFECT_FILE}; `{PROG} --out data/{PERFECT_FILE} --force` (with the sidecar's "
        "other options) makes it again, bit for bit."
    )
    checkpoint_every = 25_000
    out_help = f"weights file (.npz, a .json sidecar beside it; default build/{PERFECT_FILE})"

    def options(self, ap: argparse.ArgumentParser) -> None:
        ap.add_argument("--games", type=int, default=PERFECT_GAMES, help="self-play games (any positive number)")
        ap.add_argument("--hidden", type=int, default=PERFECT_SPEC["hidden"], help="hidden units")
        ap.add_argument(
            "--init", type=float, default=PERFECT_SPEC["init"], help="weights start uniform in [-init, init]"
        )
        ap.add_argument(
            "--alpha", type=float, default=PERFECT_SPEC["alpha"], help="input→hidden step size at the start"
        )
        ap.add_argument("--beta", type=float, default=PERFECT_SPEC["beta"], help="hidden→output step size at the start")
        ap.add_argument(
            "--alpha-final",
            type=float,
            default=PERFECT_SPEC["alpha_final"],
            help="α at the end (β shrinks by the same factor)",
        )
        ap.add_argument("--lambda", dest="lam", type=float, default=PERFECT_SPEC["lam"], help="trace decay λ")
        ap.add_argument("--epsilon", type=float, default=PERFECT_SPEC["epsilon"], help="exploration rate ε")
        ap.add_argument("--seed", type=int, default=PERFECT_SPEC["seed"], help="seed of the weights and the games")
        ap.add_argument(
            "--check-every",
            type=int,
            default=25_000,
            help=f"learning-curve spacing in games (a multiple of {LOG_EVERY:,}; the last point is at the end)",
        )

    def prepare(self, a: argparse.Namespace) -> dict[str, Any]:
        problems = _option_problems(a)
        if problems:
            raise driver.UsageError("; ".join(problems))
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
        try:
            training({**PERFECT_SPEC, **spec}, a.games, a.seed)  # every setting the trainer checks, before it runs
        except ValueError as e:
            raise driver.UsageError(f"these settings cannot train a net: {e}") from None
        return spec

    def default_out(self, a: argparse.Namespace) -> Path:
        return default_out()

    def default_checkpoint(self, a: argparse.Namespace, out: Path) -> Path:
        return repo_root() / "build" / f"{out.stem}.ckpt.npz"

    def read_checkpoint(self, a: argparse.Namespace, spec: dict[str, Any], path: Path) -> None:
        read_checkpoint(path, {**PERFECT_SPEC, **spec}, a.games, a.check_every)

    def done(self, path: Path) -> int | None:
        try:
            with np.load(path, allow_pickle=False) as z:
                return int(z["done"])
        except Exception:  # an unreadable checkpoint holds nothing we can count
            return None

    def command(self, a: argparse.Namespace, argv: Sequence[str]) -> str:
        spec = {**PERFECT_SPEC, **self.prepare(a)}
        command = perfect_command(spec, a.games, None if a.out is None else str(a.out), a.check_every)
        return command + (" --force" if a.force else "")

    def train(self, a: argparse.Namespace, spec: dict[str, Any], plan: driver.Plan, command: str) -> PerfectNet:
        pn = train_perfect(
            a.games,
            spec,
            check_every=a.check_every,
            progress=not a.no_progress,
            checkpoint=plan.checkpoint,
            checkpoint_every=a.checkpoint_every,
        )
        pn.command = command
        return pn

    def write(self, a: argparse.Namespace, spec: dict[str, Any], plan: driver.Plan, pn: PerfectNet, cmd: str) -> dict:
        return save_weights(pn, plan.out)

    def summary(self, a: argparse.Namespace, plan: driver.Plan, pn: PerfectNet, side: dict) -> str:
        c = pn.curve[-1]
        return (
            f"wrote {plan.out} and {plan.out.with_suffix('.json').name}: {a.games:,} games in {pn.wall_time_s:.0f} s; "
            f"P(loss) as X {c['loss_x']:.4f}, as O {c['loss_o']:.4f}; optimal moves {100 * c['optimal']:.1f}% of "
            "positions"
        )


def train_main(argv: Sequence[str] | None = None) -> int:
    """``python -m tdbook train tictactoe-net …``: train the self-play net (or resume it), write it and its
    sidecar, through the one training driver (:mod:`.training_driver`)."""
    return driver.main(TicTacToeNet(), argv)
