"""``python -m tdbook train backgammon …``: train a TD-Gammon net by self-play TD(λ) (Powell (2000) ch. 5),
or resume one, and write it with its sidecar (the exact command, seed, games, wall time, code version,
learning curve).

The options, the files it writes, the checkpoint's lock and reading, Ctrl-C and the messages are the one
training driver's (:mod:`.training_driver`); this module supplies the options, the run
(:class:`~.backgammon_spec.TrainSpec`), its checkpoint (:mod:`.backgammon_checkpoint`) and its training loop
(:func:`~.backgammon_training.train`).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path

from ...core.paths import repo_root
from ...core.storage import code_version, read_sidecar, sidecar_path
from ...learners.backgammon_net import ENCODINGS, OUTPUTS, TDGammon
from ..common import training_driver as driver
from . import checkpoint as checkpoints
from .match import LADDER, SELECTION_SEED, ladder
from .spec import TrainSpec
from .training import Schedule, train

#: Exit code of a run ended by Ctrl-C (128 + SIGINT, as shells report it).
INTERRUPTED = driver.INTERRUPTED


class Backgammon(driver.Trainer):
    game = "backgammon"
    description = (
        "Train a TD-Gammon net by self-play TD(λ) (Powell (2000) ch. 5). Checkpoints atomically and "
        "resumes: rerun the same command after an interruption and no game is lost or repeated."
    )
    checkpoint_every = 5000
    out_help = "final weights (.npz; a .json sidecar goes next to it); default build/td_gammon/td_gammon_<hidden>.npz"

    def options(self, ap: argparse.ArgumentParser) -> None:
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
        ap.add_argument("--eval-every", type=int, default=10_000, help="games between pubeval matches (learning curve)")
        ap.add_argument("--eval-pairs", type=int, default=500, help="duplicate pairs per learning-curve match")
        ap.add_argument("--snapshots", default=None, help="directory for a weights copy at every evaluation")
        ap.add_argument(
            "--ladder-pairs",
            type=int,
            default=0,
            help=f"after training: duplicate pairs against each gnubg level on the selection seed {SELECTION_SEED} "
            "(for choosing between runs; the strength figure of a chosen net is "
            "python -m tdbook.experiments.backgammon.strength; 0: no ladder)",
        )
        ap.add_argument(
            "--pubeval-pairs",
            type=int,
            default=5000,
            help="after training, with --ladder-pairs: duplicate pairs against pubeval",
        )

    def ignored(self, a: argparse.Namespace) -> list[str]:
        out = []
        if a.average_from is None:
            out.append("average_every")
        if not a.ladder_pairs:
            out.append("pubeval_pairs")
        if not a.eval_every:
            out += ["eval_pairs", "snapshots"]
        return out

    def prepare(self, a: argparse.Namespace) -> tuple[TrainSpec, Schedule]:
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
        spec.check()
        schedule = Schedule(checkpoint_every=a.checkpoint_every, eval_every=a.eval_every, eval_pairs=a.eval_pairs)
        schedule.check()
        if a.ladder_pairs < 0 or a.pubeval_pairs < 1:
            raise ValueError("ladder_pairs must be >= 0 and pubeval_pairs >= 1")
        return spec, schedule

    def default_out(self, a: argparse.Namespace) -> Path:
        return repo_root() / "build" / "td_gammon" / f"td_gammon_{a.hidden}.npz"

    def default_checkpoint(self, a: argparse.Namespace, out: Path) -> Path:
        return repo_root() / "build" / "td_gammon" / f"{out.stem}.ckpt.npz"

    def extra_targets(self, a: argparse.Namespace, out: Path, checkpoint: Path) -> list[driver.Target]:
        if not a.snapshots:
            return []
        snaps = Path(a.snapshots)
        if snaps.exists() and not snaps.is_dir():
            raise driver.UsageError(f"--snapshots {snaps} is a file, not a directory")
        return [driver.Target("--snapshots", snaps / "games_0000000.npz")]

    def read_checkpoint(self, a: argparse.Namespace, run: tuple[TrainSpec, Schedule], path: Path) -> None:
        checkpoints.resume(path, run[0])  # refuses a corrupt, foreign or other run's checkpoint

    def done(self, path: Path) -> int | None:
        try:
            return checkpoints.read(path)[1].games_done
        except ValueError:
            return None

    def train(self, a: argparse.Namespace, run: tuple[TrainSpec, Schedule], plan: driver.Plan, command: str):
        spec, schedule = run
        snaps = Path(a.snapshots) if a.snapshots else None
        return train(spec, schedule, checkpoint=plan.checkpoint, snapshots=snaps, progress=not a.no_progress)

    def write(
        self, a: argparse.Namespace, run: tuple[TrainSpec, Schedule], plan: driver.Plan, result, cmd: str
    ) -> dict:
        spec, schedule = run
        model, log = result
        out = plan.out
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
        return side

    def finish(self, a: argparse.Namespace, run, plan: driver.Plan, result, side: dict) -> dict:
        model, log = result
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
                raw = TDGammon.load(plan.checkpoint)
                side["selection_ladder_raw_final"] = ladder(raw, pairs, progress=not a.no_progress)
        return side

    def summary(self, a: argparse.Namespace, plan: driver.Plan, result, side: dict) -> str:
        model, log = result
        lines = [f"wrote {plan.out} and {sidecar_path(plan.out)}: {log.games_done} games in {log.wall_time:.0f} s"]
        if log.curve:
            c = log.curve[-1]
            lines.append(f"last learning-curve point: {c.ppg:+.3f} ± {c.stderr:.3f} ppg vs pubeval at {c.games} games")
        for k, r in side.get("selection_ladder", {}).items():
            lines.append(
                f"  vs {k}: {r['ppg']:+.3f} ± {r['stderr']:.3f} ppg, {r['win_pct']:.1f}% wins over {r['games']} games"
            )
        return "\n".join(lines)


def train_main(argv: Sequence[str] | None = None) -> int:
    """``python -m tdbook train backgammon …``: train (or resume), write the net and its sidecar."""
    return driver.main(Backgammon(), argv)
