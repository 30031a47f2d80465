"""Beyond Powell (2000) §6.7: a self-play TD(λ) net that plays tic-tac-toe perfectly — its recipe, its
training, the shipped weights ``data/tictactoe_net_perfect.npz`` with their sidecar, what each ingredient of
the recipe contributes, and ``python -m tdbook train tictactoe-net`` (:func:`train_main`), which trains it
again.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import signal
import sys
import tempfile
import time
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from tqdm.auto import tqdm

from ..core import profiles
from ..core.paths import data_dir, repo_root
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
        callback_every=check_every,
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
    if a.check_every < LOG_EVERY or a.check_every % LOG_EVERY:
        out.append(
            f"--check-every must be a positive multiple of {LOG_EVERY:,} games (the trainer logs and anneals in blocks "
            f"of {LOG_EVERY:,}), got {a.check_every:,}"
        )
    return out


def _output_problem(out: Path, force: bool) -> str | None:
    """Why the weights cannot be written to ``out`` (and its ``.json`` sidecar), or None: checked before training."""
    if out.suffix != ".npz":
        return f"--out must name a .npz file (its sidecar goes next to it as .json), got {out}"
    shipped = data_dir().resolve()
    for f in (out, out.with_suffix(".json")):
        if f.is_dir():
            return f"--out: {f} is a directory"
        if f.exists() and not force and f.resolve().parent == shipped:
            return (
                f"--out {out} would overwrite the shipped {f.name} in data/; pass --force to replace it, or choose "
                f"another --out (the default is {default_out()})"
            )
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        return f"--out: cannot create the directory {out.parent} ({e.strerror or e})"
    try:
        with tempfile.NamedTemporaryFile(dir=out.parent, prefix=".write-test-"):
            pass
    except OSError as e:
        return f"--out: cannot write to the directory {out.parent} ({e.strerror or e})"
    for f in (out, out.with_suffix(".json")):
        if f.exists() and not os.access(f, os.W_OK):
            return f"--out: {f} exists and is not writable"
    return None


@contextlib.contextmanager
def _ctrl_c_deferred() -> Any:
    """Let no Ctrl-C split the weights from their sidecar: SIGINT is ignored while both are written."""
    try:
        old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not the main thread: nothing to defer
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)


def train_main(argv: Sequence[str] | None = None) -> int:
    """``python -m tdbook train tictactoe-net …``: train the self-play net, write it and its sidecar.

    Every option and the output are checked before training starts; a problem is one line on stderr and
    exit code 2.  The default output is under ``build/``; the shipped ``data/`` file is replaced only with
    ``--force``.  Ctrl-C ends with one line (what was, and was not, written; the command to run again) and
    exit code 130."""
    ap = argparse.ArgumentParser(
        prog=PROG,
        description="Train notebook 07's self-play TD(λ) tic-tac-toe net (negamax target, all thesis defects fixed) "
        "and write its weights (.npz) and a JSON sidecar recording the command, seed, wall time and learning curve.",
        epilog=f"The shipped net is data/{PERFECT_FILE}; `{PROG} --out data/{PERFECT_FILE} --force` (with the "
        "sidecar's other options) makes it again, bit for bit.",
    )
    ap.add_argument("--games", type=int, default=PERFECT_GAMES, help="self-play games (any positive number)")
    ap.add_argument("--hidden", type=int, default=PERFECT_SPEC["hidden"], help="hidden units")
    ap.add_argument("--init", type=float, default=PERFECT_SPEC["init"], help="weights start uniform in [-init, init]")
    ap.add_argument("--alpha", type=float, default=PERFECT_SPEC["alpha"], help="input→hidden step size at the start")
    ap.add_argument("--beta", type=float, default=PERFECT_SPEC["beta"], help="hidden→output step size at the start")
    ap.add_argument(
        "--alpha-final",
        type=float,
        default=PERFECT_SPEC["alpha_final"],
        help="α at the end (β shrinks by the same factor)",
    )
    ap.add_argument("--lambda", dest="lam", type=float, default=PERFECT_SPEC["lam"], help="trace decay λ")
    ap.add_argument("--epsilon", type=float, default=PERFECT_SPEC["epsilon"], help="exploration rate ε")
    ap.add_argument("--seed", type=int, default=PERFECT_SPEC["seed"])
    ap.add_argument(
        "--check-every",
        type=int,
        default=25_000,
        help=f"learning-curve spacing in games (a multiple of {LOG_EVERY:,}; the last point is at the end)",
    )
    ap.add_argument("--out", default=None, help=f"weights file, .npz (default build/{PERFECT_FILE})")
    ap.add_argument("--force", action="store_true", help="allow replacing a shipped file in data/")
    ap.add_argument("--no-progress", action="store_true", help="no progress bar")
    a = ap.parse_args(argv)

    def fail(message: str) -> int:
        print(f"{PROG}: error: {message}", file=sys.stderr)
        return 2

    problems = _option_problems(a)
    if problems:
        return fail("; ".join(problems))
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
        return fail(f"these settings cannot train a net: {e}")
    out = Path(a.out) if a.out else default_out()
    problem = _output_problem(out, a.force)
    if problem:
        return fail(problem)
    command = perfect_command({**PERFECT_SPEC, **spec}, a.games, None if a.out is None else str(a.out), a.check_every)
    command += " --force" if a.force else ""
    try:
        pn = train_perfect(a.games, spec, check_every=a.check_every, progress=not a.no_progress)
    except KeyboardInterrupt:
        state = "is unchanged" if out.exists() else "was not created"
        print(
            f"{PROG}: interrupted before the end of training — nothing was written ({out} {state}); "
            f"to train again from the start, run: {command}",
            file=sys.stderr,
        )
        return 130
    except ValueError as e:
        return fail(f"training failed: {e}")
    pn.command = command
    with _ctrl_c_deferred():
        save_perfect(pn, out)
    c = pn.curve[-1]
    print(
        f"wrote {out} and {out.with_suffix('.json').name}: {a.games:,} games in {pn.wall_time_s:.0f} s; P(loss) as X "
        f"{c['loss_x']:.4f}, as O {c['loss_o']:.4f}; optimal moves {100 * c['optimal']:.1f}% of positions"
    )
    return 0
