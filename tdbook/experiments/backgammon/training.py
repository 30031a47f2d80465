"""TD-Gammon trained by self-play TD(λ) (Powell (2000) ch. 5, §5.2; §4.6 Eqs 4.14–4.16; Eqs 6.11–6.14).

:func:`train` plays the self-play games of a :class:`~.backgammon_spec.TrainSpec` in chunks with the
jitted kernel (:meth:`~tdbook.learners.backgammon_net.TDGammon.train`), checkpoints atomically every
N games (:mod:`.backgammon_checkpoint`) and resumes exactly (a killed run restarted with the same
command ends with the same weights as an uninterrupted one), measures itself against pubeval every
``eval_every`` games with a duplicate-dice match on the same dice every time (the learning curve), and
shows a progress bar with games/s.  Training needs an opponent only for that measurement, which is why
the loop is a protocol here rather than a learner.  The command line is :mod:`.backgammon_cli`.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from tqdm.auto import tqdm

from ...learners.backgammon_net import TDGammon
from . import checkpoint as checkpoints
from .match import evaluate
from .spec import CurvePoint, TrainLog, TrainSpec, average_points


@dataclass(frozen=True)
class Schedule:
    """When a run checkpoints and measures itself: a checkpoint every ``checkpoint_every`` games (and at
    the end); ``eval_every`` > 0 plays ``eval_pairs`` duplicate pairs against pubeval at 0 games and every
    ``eval_every`` games (seed ``eval_seed``, the same dice every time); the kernel runs ``chunk`` games
    between progress updates."""

    checkpoint_every: int = 5000
    eval_every: int = 0
    eval_pairs: int = 200
    eval_seed: int = 99
    chunk: int = 500

    def check(self) -> Schedule:
        for name in ("checkpoint_every", "eval_every", "eval_pairs", "chunk", "eval_seed"):
            v = getattr(self, name)
            low = 1 if name in ("chunk", "eval_pairs") else 0
            if not isinstance(v, (int, np.integer)) or isinstance(v, bool) or v < low:
                raise ValueError(f"{name} must be an int >= {low}, got {v!r}")
        return self


def _boundaries(spec: TrainSpec, start: int, every: Sequence[int]) -> list[int]:
    """Game counts after ``start`` where a chunk must end: checkpoints, evaluations, the α switch,
    the weight copies of the average."""
    stops = {spec.games}
    for e in every:
        if e and e > 0:
            stops.update(range((start // e + 1) * e, spec.games, e))
    if spec.late_after is not None and start < spec.late_after < spec.games:
        stops.add(spec.late_after)
    if spec.average_from is not None:
        stops.update(average_points(spec.average_from, spec.average_every, spec.games))
    return sorted(s for s in stops if s > start)


def train(
    spec: TrainSpec,
    schedule: Schedule = Schedule(),
    *,
    checkpoint: str | Path | None = None,
    snapshots: str | Path | None = None,
    progress: bool = True,
    stop_after: int | None = None,
) -> tuple[TDGammon, TrainLog]:
    """Self-play TD(λ) training of a TD-Gammon net (see module docstring).

    ``checkpoint``: a ``.npz`` path written atomically on the ``schedule``; if it exists, training
    resumes from it (:func:`~.backgammon_checkpoint.resume` says which checkpoints fit).  With
    ``spec.average_from`` the model returned is the average (:class:`~.backgammon_spec.TrainSpec`).
    ``snapshots``: a directory for a copy of the weights at each evaluation.  ``stop_after``: stop once
    this many games are done in total, without a checkpoint — what a kill does (for tests).  The log's
    ``games_done`` always counts the games whose weights the returned net holds."""
    spec.check()
    schedule.check()
    ckpt = Path(checkpoint) if checkpoint is not None else None
    if ckpt is not None and ckpt.exists():
        model, log, avg = checkpoints.resume(ckpt, spec)
    else:
        model, log, avg = checkpoints.start(spec)
    snap = Path(snapshots) if snapshots is not None else None
    eval_every = schedule.eval_every

    def do_eval() -> None:
        r = evaluate(model, schedule.eval_pairs, schedule.eval_seed)
        log.curve.append(CurvePoint(log.games_done, r.ppg, r.stderr, r.win_pct))
        if snap is not None:
            model.save(snap / f"games_{log.games_done:07d}.npz", aux=avg.aux(), log=log.to_dict())

    if (
        eval_every
        and (not log.curve or log.curve[-1].games < log.games_done)
        and log.games_done % eval_every == 0
        and log.games_done < spec.games
    ):
        do_eval()
    t_last = time.perf_counter()
    bar = tqdm(
        total=spec.games,
        initial=log.games_done,
        desc=f"TD-Gammon {model.describe()}",
        unit="game",
        disable=not progress,
        smoothing=0.1,
    )
    try:
        stops = _boundaries(spec, log.games_done, [schedule.checkpoint_every, eval_every])
        for stop in stops:
            while log.games_done < stop:
                n = min(schedule.chunk, stop - log.games_done)
                if stop_after is not None:
                    n = min(n, stop_after - log.games_done)
                    if n <= 0:
                        break
                t0 = time.perf_counter()
                model.train(spec.rule_at(log.games_done, model), spec.seed, log.games_done, n)
                dt = time.perf_counter() - t0
                log.games_done += n
                bar.update(n)
                post = {"games/s": f"{n / dt:,.0f}"}
                if log.curve:
                    c = log.curve[-1]
                    post["vs pubeval"] = f"{c.ppg:+.3f}±{c.stderr:.3f} @{c.games}"
                bar.set_postfix(post, refresh=False)
            now = time.perf_counter()
            log.wall_time += now - t_last
            t_last = now
            if stop_after is not None and log.games_done >= stop_after and log.games_done < spec.games:
                break
            if spec.is_average_point(log.games_done):
                avg.add(model)
            if eval_every and log.games_done % eval_every == 0 or (eval_every and log.games_done == spec.games):
                do_eval()
                c = log.curve[-1]
                bar.set_postfix({"vs pubeval": f"{c.ppg:+.3f}±{c.stderr:.3f} @{c.games}"})
                now = time.perf_counter()
                log.wall_time += now - t_last
                t_last = now
            checkpoint_every = schedule.checkpoint_every
            if ckpt is not None and (
                checkpoint_every and log.games_done % checkpoint_every == 0 or log.games_done == spec.games
            ):
                checkpoints.write(ckpt, model, log, avg)
    finally:
        bar.close()
    if log.averaged:
        return avg.model(), log
    return model, log
