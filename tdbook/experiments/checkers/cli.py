"""``python -m tdbook train checkers``: train Samuel's learning program (Alpha/Beta self-play, or following the
master games of the ACF archive: ``samuel-book``) or TD-Leaf(λ) on Samuel's terms, with a progress bar, atomic
checkpoints and exact resume (Powell (2000) §3.3).

    python -m tdbook train checkers --method samuel --games 3000 --seed 1
    python -m tdbook train checkers --method samuel-book --games 7502 --seed 1
    python -m tdbook train checkers --method tdleaf --games 3000 --seed 1 --alpha 1.0

Rerun the same command after an interruption and it resumes from its checkpoint (default
``build/checkers/<out stem>.ckpt.npz``, whatever ``--out`` is) to the same weights.  ``--out`` defaults to
``build/checkers/<method>_seed<S>_games<N>.npz``.  Ctrl-C stops at the end of the current game and writes the
checkpoint.  The files, the checkpoint's lock and reading, Ctrl-C and the messages are the one training driver's
(:mod:`.training_driver`); an option the chosen ``--method`` does not use is refused.
"""

from __future__ import annotations

import argparse
import copy
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from ...core.storage import code_version
from ...learners.checkers_generalization import NEGATIVES, SAMUEL_TERMS, TALLIES
from ...learners.checkers_tdleaf import TDLeafSpec
from ..common import training_driver as driver
from . import training as tr
from .book_learning import BookGames, BookRun
from .samuel import AlphaBeta, SamuelRun
from .tdleaf import TDLeaf, TDLeafRun

#: the options only one learner uses (an option of the other is refused)
SAMUEL_ONLY = ("series", "tally", "negative", "tally_limit", "update_every", "no_recompute", "carry_back", "no_reset",
               "adopt")  # fmt: skip
TDLEAF_ONLY = ("alpha", "lam")


def options(ap: argparse.ArgumentParser) -> None:
    """The checkers trainer's own options."""
    ap.add_argument("--method", required=True, choices=["samuel", "samuel-book", "tdleaf"], help="the learner")
    ap.add_argument("--games", type=int, required=True, help="games in total (self-play, or book games followed)")
    ap.add_argument("--seed", type=int, default=1, help="seed: the first polynomial's terms and the ballot order")
    s = ap.add_argument_group("samuel")
    s.add_argument("--series", type=int, default=1, choices=[1, 2], help="Samuel's first or second series")
    s.add_argument("--tally", choices=TALLIES, default=None, help="term tally rule (default: Powell's threshold)")
    s.add_argument("--negative", choices=NEGATIVES, default=None, help="second series: terms a negative delta changes")
    s.add_argument("--tally-limit", type=int, default=None, help="tallies before a term leaves (8; series 2: 32)")
    s.add_argument("--update-every", type=int, default=1, help="recompute the coefficients every k moves")
    s.add_argument("--no-recompute", action="store_true", help="compare with the score saved when the move was chosen")
    s.add_argument("--carry-back", action=argparse.BooleanOptionalAction, default=None,
                   help="the credit-assignment fix (default: off in series 1, on in series 2)")  # fmt: skip
    s.add_argument("--no-reset", action="store_true", help="black marks never zero the leading term (no kick-start)")
    s.add_argument("--adopt", choices=["win", "majority"], default=None, help="when Beta takes Alpha's polynomial")
    t = ap.add_argument_group("tdleaf")
    t.add_argument("--alpha", type=float, default=1.0, help="step size on θ (coefficients = unit · θ)")
    t.add_argument("--lambda", dest="lam", type=float, default=0.7, help="trace decay λ")


def make_run(a: argparse.Namespace) -> AlphaBeta | BookGames | TDLeaf:
    """The run the options describe (ValueError naming a bad option)."""
    if a.games < 1:
        raise ValueError(f"--games must be a positive number, got {a.games}")
    if a.seed < 0:
        raise ValueError(f"--seed must be >= 0, got {a.seed}")
    if a.method in ("samuel", "samuel-book"):
        kw = {"update_every": a.update_every, "recompute_initial": not a.no_recompute}
        for k in ("tally", "negative", "tally_limit", "carry_back"):
            if getattr(a, k) is not None:
                kw[k] = getattr(a, k)
        if a.method == "samuel-book":
            if a.no_reset or a.adopt is not None:
                raise ValueError("--no-reset and --adopt are about Beta; book games have no Beta")
            return BookGames(BookRun(SamuelRun.series(a.series, **kw).learn, seed=a.seed), a.games)
        if a.no_reset:
            kw["reset"] = False
        if a.adopt is not None:
            kw["adopt"] = a.adopt
        return AlphaBeta(SamuelRun.series(a.series, seed=a.seed, **kw), a.games)
    return TDLeaf(TDLeafRun(TDLeafSpec(alpha=a.alpha, lam=a.lam), seed=a.seed), a.games)


def summary(r: AlphaBeta | BookGames | TDLeaf) -> dict:
    """What the sidecar says about the run's games and its polynomial."""
    if isinstance(r, BookGames):
        return {
            "book_moves_found": [int(r.log["agreed"].sum()), int(r.log["choices"].sum())],
            "replacements": int(r.log["replaced"].sum()),
            "active": r.alpha.active,
            "polynomial": r.alpha.polynomial_weights(),
        }
    res = r.log["result"]
    if isinstance(r, AlphaBeta):
        return {
            "alpha_won_lost_drawn": [int((res > 0).sum()), int((res < 0).sum()), int((res == 0).sum())],
            "beta_adopted": int(r.log["adopted"].sum()),
            "leader_zeroed": int(r.log["zeroed"].sum()),
            "replacements": int(r.log["replaced"].sum()),
            "active": r.alpha.active,
            "polynomial": r.alpha.polynomial_weights(),
        }
    return {
        "black_won_lost_drawn": [int((res > 0).sum()), int((res < 0).sum()), int((res == 0).sum())],
        "theta": {t: round(float(x), 6) for t, x in zip(SAMUEL_TERMS, r.theta)},
    }


def shipped_arrays(r: AlphaBeta | BookGames | TDLeaf) -> dict[str, np.ndarray]:
    """What the weights file keeps of a run: its state and logs, with Samuel's replacement events (one row each,
    the bulk of a long run) summed up as the count of replacements at each tally (``log_removal_tallies``)."""
    out = r.arrays()
    ev = out.pop("log_events", None)
    if ev is not None:
        out["log_removal_tallies"] = np.bincount(ev[:, 4], minlength=1) if ev.size else np.zeros(1, np.int64)
    return out


class CheckersTrainer(driver.Trainer):
    game = "checkers"
    description = (
        "Train Samuel's learning by generalization (Alpha/Beta self-play) or TD-Leaf(λ) on Samuel's terms and search "
        "(Powell (2000) §3.3). Checkpoints atomically and resumes: rerun the same command after an interruption and "
        "it ends with the same weights."
    )
    checkpoint_every = 100
    out_help = "weights file (.npz, a .json sidecar beside it; default build/checkers/<method>_seed<S>_games<N>.npz)"

    def options(self, ap: argparse.ArgumentParser) -> None:
        options(ap)

    def ignored(self, a: argparse.Namespace) -> list[str]:
        if a.method == "tdleaf":
            return list(SAMUEL_ONLY)
        return list(TDLEAF_ONLY) + (["no_reset", "adopt"] if a.method == "samuel-book" else [])

    def prepare(self, a: argparse.Namespace) -> AlphaBeta | BookGames | TDLeaf:
        return make_run(a)

    def default_out(self, a: argparse.Namespace) -> Path:
        return tr.default_out(a.method, a.seed, a.games)

    def default_checkpoint(self, a: argparse.Namespace, out: Path) -> Path:
        return tr.default_out(a.method, a.seed, a.games).parent / f"{out.stem}.ckpt.npz"

    def read_checkpoint(self, a: argparse.Namespace, run: AlphaBeta | BookGames | TDLeaf, path: Path) -> None:
        tr.resume(copy.deepcopy(run), path, a.games)  # on a copy: the run resumes when it starts

    def done(self, path: Path) -> int | None:
        try:
            return int(tr.read(path, "checkers training checkpoint")[0].get("games", 0))
        except (ValueError, TypeError):
            return None

    def train(self, a: argparse.Namespace, run: AlphaBeta | BookGames | TDLeaf, plan: driver.Plan, command: str):
        return tr.run(
            run,
            a.games,
            checkpoint=plan.checkpoint,
            checkpoint_every=a.checkpoint_every,
            progress=not a.no_progress,
            desc=f"train checkers --method {a.method}",
        )

    def write(self, a: argparse.Namespace, run: AlphaBeta | BookGames | TDLeaf, plan: driver.Plan, log, cmd: str):
        poly = run.polynomial()
        meta = {
            "method": a.method,
            "settings": run.settings(),
            "games": log.games,
            "wall_time": round(log.wall_time, 1),
            "resumed_at": log.resumed_at,
            "command": cmd,
            "code_version": code_version(),
            "piece_weight": poly.piece_weight,
            "construction": poly.construction,
        }
        tr.write(plan.out, meta, {"weights": poly.vector} | shipped_arrays(run))
        a.terms = int(np.count_nonzero(poly.vector))
        return {**{k: meta[k] for k in ("command", "method", "games", "wall_time", "resumed_at")}} | {
            "seed": a.seed,
            "code_version": meta["code_version"],
            "settings": meta["settings"],
            "summary": summary(run),
        }  # fmt: skip

    def summary(self, a: argparse.Namespace, plan: driver.Plan, log, side: dict) -> str:
        return (
            f"wrote {plan.out} ({a.terms} terms in the polynomial; {log.games:,} games in {log.wall_time:,.0f} s) "
            "and its sidecar"
        )


def train_main(argv: Sequence[str] | None = None) -> int:
    """``python -m tdbook train checkers …``: train (or resume), write the weights and their sidecar."""
    return driver.main(CheckersTrainer(), argv)
