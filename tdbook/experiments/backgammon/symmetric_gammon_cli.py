"""``python -m tdbook train symmetric-gammon …``: train one of notebook 09's nets from scratch.

The files, the checkpoint's lock and reading, Ctrl-C and the messages are the one training driver's
(:mod:`.training_driver`).  Checkpoints every ``--checkpoint-every`` games (the net's weight file, with the games
done) and resumes from the checkpoint when it belongs to the same run — or to the same run before an annealed
third step size (``--alpha-final``) was added, not yet past its start; writes the net with a sidecar recording
the exact command, games, wall time and a 1-ply match against pubeval (selection seed); with
``--snapshot-every`` it also keeps copies of the net along the way, for learning curves.

``--warm-start FILE`` starts from a trained net of the same architecture, hidden units and seed instead of
fresh weights, widened to this run's input set (:meth:`~tdbook.learners.backgammon_symmetric.SymmetricGammon.widen`:
the new inputs' weights start at zero) and, with ``--backgammon-outputs``, given backgammon outputs
(:meth:`~tdbook.learners.backgammon_symmetric.SymmetricGammon.with_backgammons`) and, with ``--bearoff``, the
bear-off table (:meth:`~tdbook.learners.backgammon_symmetric.SymmetricGammon.with_bearoff`), and carried on from its
game count on the same dice streams; the file's SHA-256 goes into the run's spec, so a checkpoint resumes only a run
from the same file.  The wall time recorded is this run's own.  ``--games`` equal to the file's games trains no
further: the file's net with only the changes asked for (e.g. ``--bearoff``, the table at play; issue 34).

``--lambda L`` (issue 51) trains by TD(λ): one eligibility trace per weight and output
(:func:`~tdbook.learners.backgammon_symmetric.trace_update`); 0, the default, is the TD(0) of before, bit for bit, and
leaves the run's spec as it was (its checkpoints resume).

``--phases`` (issue 51) trains a race and contact pair
(:meth:`~tdbook.learners.backgammon_symmetric.SymmetricGammon.split`): two nets of the same shape, both starting as
the net (or the ``--warm-start`` file's), each valuing, choosing for and trained on the positions of its own class
(:func:`~tdbook.games.backgammon.is_race`), as GNU Backgammon plays its contact and race nets; TD(0) only.

``--lookahead F`` (issue 34) trains a share ``F`` of the contact positions toward the next position's outputs one
ply deeper (:func:`~tdbook.learners.backgammon_symmetric.lookahead_outputs`) instead of the net's outputs of it.

``--average-from G`` (issue 34) writes, instead of the last weights, their mean over the snapshots at ``G`` games
and every ``--snapshot-every`` games after, up to ``--games``: iterate averaging
(:meth:`~tdbook.learners.backgammon_symmetric.SymmetricGammon.averaged`), its points counted as by notebook 08's
TD-Gammon trainer's option of the same name.  The games are the run's without it, so its checkpoint resumes.
"""

from __future__ import annotations

import argparse
import hashlib
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from tqdm.auto import tqdm

from ...core.paths import repo_root
from ...core.storage import code_version, sidecar_path
from ...learners.backgammon_symmetric import ARCHS, INPUTS, N_OUT_BG, SymmetricGammon
from ..common import training_driver as driver
from .match import SELECTION_SEED
from .spec import AVERAGING, average_points
from .symmetric_gammon_rivals import vs_pubeval

INTERRUPTED = driver.INTERRUPTED


def _options(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--arch", choices=list(ARCHS), required=True, help="(a) symmetric, (b) naive, (c) free")
    ap.add_argument("--hidden", type=int, default=40, help="hidden units (default 40)")
    ap.add_argument(
        "--inputs",
        choices=list(INPUTS),
        default="raw",
        help="raw: TD-Gammon's units; expanded: plus pip count, shot, prime and escape features per side; "
        "contact: those and pips lost to a hit, pips to break contact, containment; positional: those and double "
        "shots, back checker, anchors, mobility, moment, entering, timing, back games, free pips",
    )
    ap.add_argument(
        "--backgammon-outputs",
        action="store_true",
        help="free only: two more outputs, P(backgammon win) and P(backgammon loss), and an equity that scores a "
        "backgammon 3 (with --warm-start from a net without them, they start from its gammon outputs)",
    )
    ap.add_argument(
        "--bearoff",
        action="store_true",
        help="value bear-off positions by the exact one-sided bear-off table (tdbook.games.backgammon_bearoff) in "
        "choices and as the targets of the positions before them; the net is not trained on them",
    )
    ap.add_argument(
        "--lookahead",
        type=float,
        default=0.0,
        help="the share of contact positions trained toward the next position one ply deeper (the mean over the "
        "next mover's 21 rolls of its greedy replies) instead of the net's value of it (issue 34; default 0: plain "
        "TD(0); slower: 0.05 halves the games/s of a 160-hidden positional net)",
    )
    ap.add_argument(
        "--lambda",
        dest="lam",
        type=float,
        default=0.0,
        help="TD(λ): the decay of the eligibility traces, one per weight and output (issue 51; default 0: plain "
        "TD(0); a 160-hidden positional net trains about 1.7 times slower at 0.7)",
    )
    ap.add_argument(
        "--phases",
        action="store_true",
        help="a contact net and a race net (issue 51's phase split), both starting as the net (with --warm-start: "
        "copies of it), each valuing and trained on the positions of its own class; TD(0) only",
    )
    ap.add_argument("--games", type=int, required=True, help="self-play games in all")
    ap.add_argument("--alpha", type=float, default=0.1, help="step size (default 0.1)")
    ap.add_argument(
        "--alpha-late", type=float, default=None, help="step size after --late-after games (default: --alpha)"
    )
    ap.add_argument("--late-after", type=int, default=0, help="games before --alpha-late takes over")
    ap.add_argument(
        "--alpha-final",
        type=float,
        default=None,
        help="a third, annealed step size after --final-after games (needs --alpha-late)",
    )
    ap.add_argument("--final-after", type=int, default=None, help="games before --alpha-final takes over")
    ap.add_argument("--seed", type=int, default=1, help="initial weights and dice streams (default 1)")
    ap.add_argument(
        "--warm-start",
        metavar="FILE",
        help="start from this trained net (same arch, hidden units and seed), widened to --inputs, at its game count",
    )
    ap.add_argument(
        "--snapshot-every",
        type=int,
        default=0,
        help="also keep a copy of the net at every multiple of this many games that a checkpoint lands on, beside "
        "the checkpoint as <out stem>_<games/1000>k.snap.npz (<out stem>_<games>g.snap.npz off a whole thousand), "
        "for learning curves and --average-from (default 0: none; not part of the run's spec, so a run resumes "
        "with or without it)",
    )
    ap.add_argument(
        "--average-from",
        type=int,
        default=None,
        metavar="G",
        help="write the mean of the weights at G games and every --snapshot-every games after, up to --games "
        "(iterate averaging, read from the run's snapshots) instead of the last weights; the games are the same "
        "(issue 34)",
    )
    ap.add_argument("--pubeval-pairs", type=int, default=1000, help="duplicate pairs of the final pubeval match")


def _check(a: argparse.Namespace) -> None:
    """ValueError naming the first bad option."""
    for name in ("hidden", "games", "pubeval_pairs"):
        if getattr(a, name) < 1:
            raise ValueError(f"--{name.replace('_', '-')} must be >= 1, got {getattr(a, name)}")
    if a.snapshot_every < 0:
        raise ValueError(f"--snapshot-every must be >= 0, got {a.snapshot_every}")
    if not a.alpha > 0:
        raise ValueError(f"--alpha must be > 0, got {a.alpha}")
    if a.alpha_late is not None and not a.alpha_late > 0:
        raise ValueError(f"--alpha-late must be > 0, got {a.alpha_late}")
    if a.late_after < 0:
        raise ValueError(f"--late-after must be >= 0, got {a.late_after}")
    if not 0.0 <= a.lookahead <= 1.0:
        raise ValueError(f"--lookahead must be a share in [0, 1], got {a.lookahead}")
    if not 0.0 <= a.lam <= 1.0:
        raise ValueError(f"--lambda must be in [0, 1], got {a.lam}")
    if a.phases and a.lam:
        raise ValueError("--phases is TD(0) only: TD(λ)'s traces are not split between the two nets (drop --lambda)")
    if a.backgammon_outputs and a.arch != "free":
        raise ValueError(f"--backgammon-outputs is for --arch free only, got --arch {a.arch}")
    if (a.alpha_final is None) != (a.final_after is None):
        raise ValueError("--alpha-final and --final-after go together (give both or neither)")
    if a.alpha_final is not None:
        if a.alpha_late is None:
            raise ValueError("--alpha-final needs --alpha-late (it is the schedule's third stage)")
        if not a.alpha_final > 0:
            raise ValueError(f"--alpha-final must be > 0, got {a.alpha_final}")
        if a.final_after <= a.late_after:
            raise ValueError(f"--final-after must be > --late-after ({a.late_after}), got {a.final_after}")
    if a.average_from is not None:
        k = a.snapshot_every
        if not k:
            raise ValueError("--average-from needs --snapshot-every (the snapshots it averages)")
        if not 0 < a.average_from < a.games:
            raise ValueError(f"--average-from must be in (0, --games), got {a.average_from}")
        if a.average_from % k or a.games % k:
            raise ValueError(f"--average-from ({a.average_from}) and --games ({a.games}) must be multiples of "
                             f"--snapshot-every ({k})")  # fmt: skip


def _stages(a: argparse.Namespace) -> list[tuple[int, float]]:
    """The step-size schedule as (first game, α) stages, in order."""
    stages = [(0, a.alpha)]
    if a.alpha_late is not None:
        stages.append((a.late_after, a.alpha_late))
    if a.alpha_final is not None:
        stages.append((a.final_after, a.alpha_final))
    return stages


def same_run(a: dict | None, b: dict | None) -> bool:
    """Two training specs are one run's: equal, the ``--warm-start`` parent compared by its SHA-256 and games, not
    by its file name (a parent renamed since, as the nets of notebook 09 were, is the same parent)."""
    if not isinstance(a, dict) or not isinstance(b, dict):
        return False

    def key(spec: dict) -> dict:
        spec = {k: v for k, v in spec.items() if k not in AVERAGING}  # the same games with or without averaging
        warm = spec.get("warm_start")
        return spec | {"warm_start": {k: v for k, v in warm.items() if k != "file"}} if isinstance(warm, dict) else spec

    return key(a) == key(b)


def _resumable(saved: dict | None, spec: dict, done: int) -> bool:
    """A checkpoint resumes this run if it is the same run (:func:`same_run`), or the same run before an annealed
    third stage was added to its schedule and not yet past that stage's start (its games so far are this run's)."""
    if same_run(saved, spec):
        return True
    if "alpha_final" not in spec or not isinstance(saved, dict) or "alpha_final" in saved:
        return False
    earlier = {k: v for k, v in spec.items() if k not in ("alpha_final", "final_after")}
    return same_run(saved, earlier) and done <= spec["final_after"]


def net_name(spec: dict, games: int) -> str:
    """The one name of a net of notebook 09 (its file stem and its name in the code), from its training spec and
    games: ``symgammon_<arch><hidden>_<inputs>[_bg][_<lever>…]_<games>k``, the levers ``anneal`` (a third, annealed
    step size), ``bearoff`` (the bear-off table at play), ``phases`` (a race and a contact net), ``lambda<λ without
    its point>`` (TD(λ): ``lambda07``), ``lookahead`` (lookahead targets) and ``averaged`` (the mean of the weights
    over the run's last snapshots): ``symgammon_free160_contact_bg_4800k``."""
    levers = ["bg"] if spec.get("backgammons") else []
    levers += ["anneal"] if "alpha_final" in spec else []
    levers += ["bearoff"] if spec.get("bearoff") else []
    levers += ["phases"] if spec.get("phases") else []
    levers += [f"lambda{spec['lam']:g}".replace(".", "")] if spec.get("lam") else []
    levers += ["lookahead"] if spec.get("lookahead") else []
    levers += ["averaged"] if spec.get("average_from") is not None else []
    parts = [f"symgammon_{spec['arch']}{spec['hidden']}", spec.get("inputs", "raw"), *levers, f"{games // 1000}k"]
    return "_".join(parts)


def _name_spec(a: argparse.Namespace) -> dict:
    spec = {"arch": a.arch, "hidden": a.hidden, "inputs": a.inputs, "backgammons": a.backgammon_outputs}
    extra = {"alpha_final": a.alpha_final} if a.alpha_final is not None else {}
    levers = {"bearoff": a.bearoff, "phases": a.phases, "lam": a.lam, "lookahead": a.lookahead}
    levers["average_from"] = a.average_from
    return spec | extra | levers


def _warm_start(a: argparse.Namespace, spec: dict) -> SymmetricGammon:
    """The widened net of ``--warm-start`` with its games done; ``spec`` gains the file's name, SHA-256 and games.
    ValueError naming the file and the mismatch."""
    path = Path(a.warm_start)
    if not path.is_file():
        raise ValueError(f"--warm-start {path}: no such file")
    warm = SymmetricGammon.load(path)
    games = int(warm.info.get("games_done", 0))
    seed = (warm.info.get("spec") or {}).get("seed")
    for what, theirs, ours in (
        ("arch", warm.arch, a.arch),
        ("hidden units", warm.hidden, a.hidden),
        ("seed", seed, a.seed),
    ):
        if theirs != ours:
            raise ValueError(f"--warm-start {path}: its {what} is {theirs!r}, this run's is {ours!r}")
    if warm.outputs == N_OUT_BG and not a.backgammon_outputs:
        raise ValueError(
            f"--warm-start {path}: it has backgammon outputs; this run has none (add --backgammon-outputs)"
        )
    if warm.bearoff and not a.bearoff:
        raise ValueError(
            f"--warm-start {path}: it values bear-off positions by the table and was not trained on them; "
            "this run has no table (add --bearoff)"
        )
    if not 0 < games <= a.games:
        raise ValueError(
            f"--warm-start {path}: it has {games:,} games done; --games must be at least that ({a.games:,})"
        )
    if warm.phases and not a.phases:
        raise ValueError(f"--warm-start {path}: it is a race and contact pair; this run is one net (add --phases)")
    if warm.phases and warm.inputs != a.inputs:
        raise ValueError(f"--warm-start {path}: a pair is not widened; its inputs are {warm.inputs}, not {a.inputs}")
    model = warm if warm.phases else warm.widen(a.inputs)
    if a.backgammon_outputs and model.outputs != N_OUT_BG:
        model = model.with_backgammons()
    if a.bearoff:
        model = model.with_bearoff()
    if a.phases:
        model = model.split()
    spec["warm_start"] = {
        "file": path.as_posix(),
        "sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
        "games": games,
    }
    model.info = {"spec": spec, "games_done": games, "wall_time_s": 0.0}
    return model


class SymmetricGammonTrainer(driver.Trainer):
    game = "symmetric-gammon"
    description = (
        "Self-play TD(0) or TD(λ) training of a notebook 09 net (symmetric, naive, free; raw, expanded, contact or "
        "positional inputs); "
        "checkpointed, resumable."
    )
    checkpoint_every = 5000
    out_help = (
        "weights file (.npz, a .json sidecar beside it; default build/symmetric_gammon/<its name>.npz, "
        "symgammon_<arch><hidden>_<inputs>[_bg][_<lever>…]_<games>k)"
    )

    def options(self, ap: argparse.ArgumentParser) -> None:
        _options(ap)

    def ignored(self, a: argparse.Namespace) -> list[str]:
        return ["late_after"] if a.alpha_late is None else []

    def prepare(self, a: argparse.Namespace) -> dict:
        _check(a)
        spec = {"arch": a.arch, "hidden": a.hidden, "alpha": a.alpha, "seed": a.seed}
        if a.inputs != "raw":
            spec["inputs"] = a.inputs
        if a.backgammon_outputs:
            spec["backgammons"] = True
        if a.bearoff:
            spec["bearoff"] = True
        if a.phases:
            spec["phases"] = True
        if a.lam:
            spec["lam"] = a.lam
        if a.lookahead:
            spec["lookahead"] = a.lookahead
        if a.alpha_late is not None:
            spec.update(alpha_late=a.alpha_late, late_after=a.late_after)
        if a.alpha_final is not None:
            spec.update(alpha_final=a.alpha_final, final_after=a.final_after)
        if a.average_from is not None:
            spec.update(average_from=a.average_from, average_every=a.snapshot_every)
        if a.warm_start:
            a.warm = _warm_start(a, spec)  # checks the file now; spec gains its name, SHA-256 and games
        return spec

    def default_out(self, a: argparse.Namespace) -> Path:
        return repo_root() / "build" / "symmetric_gammon" / f"{net_name(_name_spec(a), a.games)}.npz"

    def default_checkpoint(self, a: argparse.Namespace, out: Path) -> Path:
        return repo_root() / "build" / "symmetric_gammon" / f"{out.stem}.ckpt.npz"

    def extra_targets(self, a: argparse.Namespace, out: Path, checkpoint: Path) -> list[driver.Target]:
        if not a.snapshot_every:
            return []
        return [driver.Target("--snapshot-every", _snapshot(checkpoint, out, 0))]

    def read_checkpoint(self, a: argparse.Namespace, spec: dict, path: Path) -> None:
        model = SymmetricGammon.load(path)
        if not _resumable(model.info.get("spec"), spec, int(model.info.get("games_done", 0))):
            raise ValueError(f"checkpoint {path} belongs to another run ({model.info.get('spec')}), not {spec}")

    def done(self, path: Path) -> int | None:
        try:
            return int(SymmetricGammon.load(path).info.get("games_done", 0))
        except (ValueError, TypeError):
            return None

    def train(self, a: argparse.Namespace, spec: dict, plan: driver.Plan, command: str) -> SymmetricGammon:
        ckpt, out = plan.checkpoint, plan.out
        if ckpt.exists():
            model = SymmetricGammon.load(ckpt)
            model.info["spec"] = spec
        elif a.warm_start:
            model = a.warm
        else:
            model = SymmetricGammon.new(
                a.arch,
                a.hidden,
                alpha=a.alpha,
                seed=a.seed,
                inputs=a.inputs,
                backgammons=a.backgammon_outputs,
                bearoff=a.bearoff,
            )
            if a.phases:
                model = model.split()
            model.info.update(spec=spec, games_done=0, wall_time_s=0.0)
        stages = _stages(a)
        done = int(model.info["games_done"])
        with tqdm(total=a.games, initial=done, desc=f"train {a.arch}", disable=a.no_progress, unit="game") as bar:
            while done < a.games:
                n = min(a.checkpoint_every, a.games - done)
                alpha = [al for start, al in stages if start <= done][-1]
                later = [start for start, _ in stages if start > done]
                if later:
                    n = min(n, later[0] - done)  # a chunk never straddles a change of step size
                t = time.perf_counter()
                model.train(a.seed, done, n, alpha, lookahead=a.lookahead, lam=a.lam)
                done += n
                model.info["games_done"] = done
                model.info["wall_time_s"] = float(model.info["wall_time_s"]) + time.perf_counter() - t
                model.save(ckpt)
                if a.snapshot_every and done % a.snapshot_every == 0:
                    model.save(_snapshot(ckpt, out, done))
                bar.update(n)
        return model if a.average_from is None else _averaged(a, spec, ckpt, out, model)

    def write(self, a: argparse.Namespace, spec: dict, plan: driver.Plan, model: SymmetricGammon, cmd: str) -> dict:
        model.save(plan.out, command=cmd)
        return {
            "command": cmd,
            "seed": a.seed,
            "games": int(model.info["games_done"]),
            "wall_time_s": round(float(model.info["wall_time_s"]), 1),
            "code_version": code_version(),
            "net": model.describe(),
            "spec": spec,
        }

    def finish(self, a: argparse.Namespace, spec: dict, plan: driver.Plan, model: SymmetricGammon, side: dict) -> dict:
        return side | pubeval_record(a, model)

    def summary(self, a: argparse.Namespace, plan: driver.Plan, model: SymmetricGammon, side: dict) -> str:
        return f"wrote {plan.out} and {sidecar_path(plan.out)}: {side['games']} games; {a.vs_pubeval.summary()}"


def pubeval_record(a: argparse.Namespace, model: SymmetricGammon) -> dict:
    """A trained net's sidecar entries of its 1-ply match against pubeval on the selection seed (``--pubeval-pairs``
    duplicate pairs); the result is kept as ``a.vs_pubeval`` for the closing line."""
    r = vs_pubeval(model, a.pubeval_pairs, seed=SELECTION_SEED, progress=not a.no_progress)
    a.vs_pubeval = r
    return {
        "vs_pubeval": r.to_dict(),
        "vs_pubeval_note": f"1-ply, duplicate dice, cubeless, selection seed {SELECTION_SEED}",
    }


def _snapshot(ckpt: Path, out: Path, done: int) -> Path:
    """The snapshot at ``done`` games: ``<out stem>_<thousands>k.snap.npz``, or ``_<games>g`` off a whole thousand."""
    return ckpt.with_name(
        f"{out.stem}_{done // 1000}k.snap.npz" if done % 1000 == 0 else f"{out.stem}_{done}g.snap.npz"
    )


def _averaged(a: argparse.Namespace, spec: dict, ckpt: Path, out: Path, last: SymmetricGammon) -> SymmetricGammon:
    """The mean of the run's snapshots at ``--average-from`` games and every ``--snapshot-every`` after, up to and
    including ``last``'s weights at ``--games``; ValueError naming a snapshot that is missing or not this run's."""
    nets = []
    for g in average_points(a.average_from, a.snapshot_every, a.games):
        path = _snapshot(ckpt, out, g)
        if not path.is_file():
            raise ValueError(f"--average-from {a.average_from}: the snapshot at {g:,} games ({path}) is missing")
        net = SymmetricGammon.load(path)
        if int(net.info.get("games_done", -1)) != g or not same_run(net.info.get("spec"), spec):
            raise ValueError(f"--average-from {a.average_from}: {path} is not this run's net at {g:,} games")
        nets.append(net)
    if not (np.array_equal(nets[-1].W1, last.W1) and np.array_equal(nets[-1].W2, last.W2)):
        raise ValueError(f"--average-from {a.average_from}: the last snapshot is not the run's last weights")
    model = SymmetricGammon.averaged(nets)
    model.info = dict(last.info) | {"averaged": {"from": a.average_from, "every": a.snapshot_every, "nets": len(nets)}}
    return model


def train_main(argv: Sequence[str] | None = None) -> int:
    """``python -m tdbook train symmetric-gammon …``: train (or resume), write the net and its sidecar."""
    return driver.main(SymmetricGammonTrainer(), argv)
