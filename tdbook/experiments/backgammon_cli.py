"""``python -m tdbook train backgammon …``: train a TD-Gammon net by self-play TD(λ) (Powell (2000) ch. 5),
or resume one, and write it with its sidecar (the exact command, seed, games, wall time, code version,
learning curve).

The command says what it will do before it does it: ``--out`` (default under ``build/td_gammon/``) and
the checkpoint path are checked before the first game — a directory that exists or can be made and is
writable, a ``.npz`` name, and never a shipped file in ``data/`` unless ``--force``; a checkpoint that
exists must be one of this run (:func:`~.backgammon_checkpoint.resume`).  Ctrl-C ends with one line
naming the last checkpoint and the exact command that resumes it (exit code 130).
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path

from ..core.paths import data_dir, repo_root
from ..core.storage import code_version, read_sidecar, sidecar_path, write_sidecar
from ..learners.backgammon_net import ENCODINGS, OUTPUTS, TDGammon
from . import backgammon_checkpoint as checkpoints
from .backgammon_match import LADDER, SELECTION_SEED, ladder
from .backgammon_spec import TrainSpec
from .backgammon_training import Schedule, train

#: Exit code of a run ended by Ctrl-C (128 + SIGINT, as shells report it).
INTERRUPTED = 130


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="python -m tdbook train backgammon",
        description="Train a TD-Gammon net by self-play TD(λ) (Powell (2000) ch. 5). Checkpoints atomically and "
        "resumes: rerun the same command after an interruption and no game is lost or repeated.",
    )
    ap.add_argument("--hidden", type=int, default=40, help="hidden units (thesis: 40, later 80)")
    ap.add_argument(
        "--outputs",
        type=int,
        default=4,
        choices=OUTPUTS,
        help="1 = P(win); 4 = win, gammon win, loss, gammon loss (default 4)",
    )
    ap.add_argument(
        "--encoding",
        default="relative",
        choices=list(ENCODINGS),
        help="tesauro = 198 inputs with turn units, white's outputs; relative = 196, side on roll",
    )
    ap.add_argument("--games", type=int, default=300_000, help="self-play games in total")
    ap.add_argument("--alpha", type=float, default=0.1, help="step size α (both layers unless --beta)")
    ap.add_argument("--beta", type=float, default=None, help="hidden→output step size β (default α)")
    ap.add_argument("--lambda", dest="lam", type=float, default=0.7, help="trace decay λ")
    ap.add_argument("--alpha-late", type=float, default=None, help="step size from --late-after games on")
    ap.add_argument("--late-after", type=int, default=None, help="game at which α becomes --alpha-late")
    ap.add_argument(
        "--average-from",
        type=int,
        default=None,
        help="write the average of the weights after this many games, every --average-every games "
        "up to --games (iterate averaging; default: the final weights)",
    )
    ap.add_argument("--average-every", type=int, default=10_000, help="games between the averaged weight copies")
    ap.add_argument("--init", type=float, default=0.1, help="initial weights uniform in ±init")
    ap.add_argument("--seed", type=int, default=1, help="seed of the initial weights and of every game's dice")
    ap.add_argument(
        "--out",
        default=None,
        help="final weights (.npz; a .json sidecar goes next to it); default build/td_gammon/td_gammon_<hidden>.npz. "
        "A file that already exists in data/ (a shipped net) is overwritten only with --force",
    )
    ap.add_argument("--force", action="store_true", help="allow --out to overwrite a shipped file in data/")
    ap.add_argument("--checkpoint", default=None, help="checkpoint path (default build/td_gammon/<out stem>.ckpt.npz)")
    ap.add_argument("--checkpoint-every", type=int, default=5000, help="games between checkpoints")
    ap.add_argument("--eval-every", type=int, default=10_000, help="games between pubeval matches (learning curve)")
    ap.add_argument("--eval-pairs", type=int, default=500, help="duplicate pairs per learning-curve match")
    ap.add_argument("--snapshots", default=None, help="directory for a weights copy at every evaluation")
    ap.add_argument(
        "--ladder-pairs",
        type=int,
        default=0,
        help=f"after training: duplicate pairs against each gnubg level on the selection seed {SELECTION_SEED} "
        "(for choosing between runs; the strength figure of a chosen net is "
        "python -m tdbook.experiments.backgammon_strength; 0: no ladder)",
    )
    ap.add_argument(
        "--pubeval-pairs",
        type=int,
        default=5000,
        help="after training, with --ladder-pairs: duplicate pairs against pubeval",
    )
    ap.add_argument("--no-progress", action="store_true", help="no progress bar")
    return ap


class UsageError(ValueError):
    """A bad request, found before any game is played; nothing has been written."""


def _is_within(path: Path, root: Path) -> bool:
    try:
        path.resolve().relative_to(root.resolve())
        return True
    except ValueError:
        return False


def writable_file(path: Path, what: str) -> Path:
    """``path`` as a file the run may write: its directory exists or is made, and is writable; the
    path is not a directory.  UsageError naming the problem otherwise."""
    if path.is_dir():
        raise UsageError(f"{what} {path} is a directory; give a file name")
    parent = path.parent
    try:
        parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise UsageError(f"{what} {path}: cannot create the directory {parent} ({e.strerror or e})") from None
    if not os.access(parent, os.W_OK | os.X_OK):
        raise UsageError(f"{what} {path}: the directory {parent} is not writable")
    if path.exists() and not os.access(path, os.W_OK):
        raise UsageError(f"{what} {path} exists and is not writable")
    return path


def plan_files(a: argparse.Namespace) -> tuple[Path, Path, Path | None]:
    """(out, checkpoint, snapshots) of the run, checked before training (UsageError naming the problem)."""
    out = Path(a.out) if a.out else repo_root() / "build" / "td_gammon" / f"td_gammon_{a.hidden}.npz"
    if out.suffix != ".npz":
        raise UsageError(f"--out {out} must end in .npz (its sidecar {out.with_suffix('.json').name} goes beside it)")
    shipped = [p for p in (out, sidecar_path(out)) if p.exists() and _is_within(p, data_dir())]
    if shipped and not a.force:
        raise UsageError(
            f"--out {out} would overwrite the shipped {' and '.join(str(p) for p in shipped)}; "
            f"write elsewhere (the default is build/td_gammon/) or add --force"
        )
    writable_file(out, "--out")
    ckpt = Path(a.checkpoint) if a.checkpoint else repo_root() / "build" / "td_gammon" / f"{out.stem}.ckpt.npz"
    if ckpt.resolve() == out.resolve():
        raise UsageError(f"--checkpoint and --out are the same file {out}; give the checkpoint another name")
    writable_file(ckpt, "--checkpoint")
    snaps = None
    if a.snapshots:
        snaps = Path(a.snapshots)
        if snaps.exists() and not snaps.is_dir():
            raise UsageError(f"--snapshots {snaps} is a file, not a directory")
        writable_file(snaps / "games_0000000.npz", "--snapshots")
    return out, ckpt, snaps


def _resume_line(ckpt: Path, argv: Sequence[str]) -> str:
    """One line: where the last checkpoint is and the command that resumes from it."""
    cmd = "python -m tdbook train backgammon " + shlex.join(argv)  # the same command resumes: same checkpoint
    try:
        _, log = checkpoints.read(ckpt)
    except ValueError:
        return f"interrupted before the first checkpoint ({ckpt}); start again with: {cmd}"
    return f"interrupted; the last checkpoint is {ckpt} ({log.games_done:,} games); resume with: {cmd}"


def train_main(argv: Sequence[str] | None = None) -> int:
    """``python -m tdbook train backgammon …``: train (or resume), write the net and its sidecar."""
    ap = _parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    a = ap.parse_args(argv)
    spec = TrainSpec(
        hidden=a.hidden,
        outputs=a.outputs,
        encoding=a.encoding,
        alpha=a.alpha,
        beta=a.beta,
        lam=a.lam,
        alpha_late=a.alpha_late,
        late_after=a.late_after,
        init=a.init,
        seed=a.seed,
        games=a.games,
        average_from=a.average_from,
        average_every=a.average_every,
    )
    try:
        spec.check()
        schedule = Schedule(checkpoint_every=a.checkpoint_every, eval_every=a.eval_every, eval_pairs=a.eval_pairs)
        schedule.check()
    except ValueError as e:
        ap.error(str(e))
    try:
        out, ckpt, snaps = plan_files(a)
        if ckpt.exists():
            checkpoints.resume(ckpt, spec)  # refuses a corrupt, foreign or other run's checkpoint now
    except ValueError as e:
        print(f"tdbook train: error: {e}", file=sys.stderr)
        return 2
    try:
        return _train_and_write(a, argv, spec, schedule, out, ckpt, snaps)
    except KeyboardInterrupt:
        print(f"\ntdbook train: {_resume_line(ckpt, argv)}", file=sys.stderr)
        return INTERRUPTED


def _train_and_write(
    a: argparse.Namespace,
    argv: Sequence[str],
    spec: TrainSpec,
    schedule: Schedule,
    out: Path,
    ckpt: Path,
    snaps: Path | None,
) -> int:
    try:
        model, log = train(spec, schedule, checkpoint=ckpt, snapshots=snaps, progress=not a.no_progress)
    except ValueError as e:
        print(f"tdbook train: error: {e}", file=sys.stderr)
        return 2
    cmd = "python -m tdbook train backgammon " + shlex.join(argv)  # exactly as given
    model.save(out, log=log.to_dict(), command=cmd)
    side = {
        "command": cmd,
        "seed": spec.seed,
        "games": log.games_done,
        "wall_time_s": round(log.wall_time, 1),
        "code_version": code_version(),
        "net": model.describe(),
        "spec": asdict(spec),
        "eval_every": a.eval_every,
        "eval_pairs": a.eval_pairs,
        "resumed_at": log.resumed_at,
        "learning_curve": [asdict(c) for c in log.curve],
        "learning_curve_opponent": f"pubeval, {a.eval_pairs} duplicate pairs per point, seed {schedule.eval_seed}"
        + (" (the raw weights during training)" if log.averaged else ""),
    }
    if log.averaged:
        side["averaged"] = {
            "copies": log.averaged,
            "from": spec.average_from,
            "every": spec.average_every,
            "to": log.games_done,
        }
    old = {}
    try:
        old = read_sidecar(out)
    except ValueError:
        pass
    if old.get("spec") == side["spec"]:  # the same run: keep what was measured of it
        for k in ("selection_ladder", "selection_ladder_note", "selection_ladder_raw_final", "strength"):
            if k in old:
                side[k] = old[k]
    if a.ladder_pairs:
        pairs = {k: a.ladder_pairs for k in LADDER}
        pairs["pubeval"] = a.pubeval_pairs
        t = time.perf_counter()
        side["selection_ladder"] = ladder(model, pairs, progress=not a.no_progress)
        side["selection_ladder_note"] = (
            f"duplicate-dice cubeless matches, selection seed {SELECTION_SEED}, 1-ply; "
            f"{time.perf_counter() - t:.0f} s; pairs: {pairs}; for choosing between runs, not a strength figure"
        )
        if log.averaged:  # the same ladder for the raw final weights (kept in the checkpoint)
            side["selection_ladder_raw_final"] = ladder(TDGammon.load(ckpt), pairs, progress=not a.no_progress)
    write_sidecar(out, side)
    print(f"wrote {out} and {sidecar_path(out)}: {log.games_done} games in {log.wall_time:.0f} s")
    if log.curve:
        c = log.curve[-1]
        print(f"last learning-curve point: {c.ppg:+.3f} ± {c.stderr:.3f} ppg vs pubeval at {c.games} games")
    for k, r in side.get("selection_ladder", {}).items():
        print(f"  vs {k}: {r['ppg']:+.3f} ± {r['stderr']:.3f} ppg, {r['win_pct']:.1f}% wins over {r['games']} games")
    return 0
