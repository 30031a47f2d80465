"""Checkpoints of a TD-Gammon training run: one ``.npz`` holding the raw weights, the run's
:class:`~.backgammon_spec.TrainLog` and, when the run averages its weights, their running sum — written
atomically in one file, so the three can never disagree.  :func:`resume` reads one back and checks that it
belongs to the run asked for (the same settings, not more games than asked) before a single game is played.
"""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path

import numpy as np

from ...learners.backgammon_net import TDGammon
from .spec import AVERAGING, TrainLog, TrainSpec

#: What a checkpoint is, for messages about files that are not one.
EXPECTED = "a checkpoint written by `python -m tdbook train backgammon` (a TD-Gammon net with its training log)"


class RunningAverage:
    """The running sum of weight copies behind :attr:`TrainSpec.average_from` (float64, in order),
    kept in the checkpoint as the auxiliary arrays ``avg_W1``/``avg_W2``."""

    def __init__(self, model: TDGammon, log: TrainLog) -> None:
        self.log = log
        aux = model.aux
        if log.averaged:
            if (
                set(aux) != {"avg_W1", "avg_W2"}
                or aux["avg_W1"].shape != model.net.W1.shape
                or aux["avg_W2"].shape != model.net.W2.shape
            ):
                raise ValueError(
                    f"the checkpoint says it sums {log.averaged} weight copies but does not hold a "
                    f"running sum of the net's shape"
                )
            self.W1, self.W2 = aux["avg_W1"].copy(), aux["avg_W2"].copy()
        else:
            self.W1, self.W2 = np.zeros_like(model.net.W1), np.zeros_like(model.net.W2)

    def add(self, model: TDGammon) -> None:
        self.W1 += model.net.W1
        self.W2 += model.net.W2
        self.log.averaged += 1

    def aux(self) -> dict[str, np.ndarray] | None:
        return {"avg_W1": self.W1, "avg_W2": self.W2} if self.log.averaged else None

    def model(self) -> TDGammon:
        """A net of the run's spec whose weights are the average."""
        n = self.log.averaged
        out = self.log.spec.new_model()
        out.net.W1[:] = self.W1 / n
        out.net.W2[:] = self.W2 / n
        return out


def read(path: str | Path) -> tuple[TDGammon, TrainLog]:
    """The net and training log of the checkpoint at ``path``; ValueError naming the file and what
    was expected when it is corrupt, a foreign ``.npz`` or a net without a training log."""
    path = Path(path)
    try:
        model = TDGammon.load(path)
    except ValueError as e:
        raise ValueError(f"checkpoint {path}: expected {EXPECTED}; {e}") from None
    saved = model.info.get("log")
    if not saved:
        raise ValueError(f"{path} is a net without a training log: not a checkpoint (expected {EXPECTED})")
    try:
        log = TrainLog.from_dict(saved)
    except (KeyError, TypeError, ValueError) as e:
        raise ValueError(f"checkpoint {path}: its training log is damaged ({type(e).__name__}: {e})") from None
    return model, log


def resume(path: str | Path, spec: TrainSpec) -> tuple[TDGammon, TrainLog, RunningAverage]:
    """Continue the run ``spec`` from the checkpoint at ``path``.

    The checkpoint's spec must equal ``spec`` except that ``games`` may be larger (a finished run
    continues: game g and its step size depend only on g), and the averaging settings may differ
    while no weight copy has been averaged yet.  ValueError naming the file otherwise."""
    ckpt = Path(path)
    model, log = read(ckpt)
    diff = {k: (v, getattr(spec, k)) for k, v in asdict(log.spec).items() if getattr(spec, k) != v and k != "games"}
    if log.averaged == 0 and (spec.average_from is None or log.games_done <= spec.average_from):
        for k in AVERAGING:  # averaging has not begun: it may be switched on or moved
            diff.pop(k, None)
    if diff:
        raise ValueError(
            f"checkpoint {ckpt} was made with other settings {diff} (saved, asked); "
            f"use another --checkpoint path or the same settings"
        )
    if log.games_done > spec.games:
        raise ValueError(
            f"checkpoint {ckpt} has already played {log.games_done:,} games, more than the {spec.games:,} asked"
        )
    log.spec = spec  # a longer run continues the same game sequence: games g < old total are the same
    if log.games_done < spec.games:
        log.resumed_at.append(log.games_done)
    return model, log, _average(model, log, ckpt)


def start(spec: TrainSpec) -> tuple[TDGammon, TrainLog, RunningAverage]:
    """A fresh run of ``spec``: new weights, an empty log, an empty running sum."""
    model = spec.new_model()
    log = TrainLog(spec)
    return model, log, _average(model, log, None)


def _average(model: TDGammon, log: TrainLog, ckpt: Path | None) -> RunningAverage:
    try:
        avg = RunningAverage(model, log)
    except ValueError as e:
        raise ValueError(f"checkpoint {ckpt}: {e}") from None
    model.net.aux = {}
    spec = log.spec
    want = spec.average_points(log.games_done)
    if log.averaged == want - 1 and spec.is_average_point(log.games_done):
        avg.add(model)  # starting at the first weight copy of the average
    if log.averaged != want:
        raise ValueError(
            f"checkpoint {ckpt} sums {log.averaged} weight copies; {want} expected after "
            f"{log.games_done:,} games with average_from={spec.average_from}"
        )
    return avg


def write(path: str | Path, model: TDGammon, log: TrainLog, avg: RunningAverage) -> Path:
    """Write the checkpoint (raw weights, log, running sum) atomically in one file."""
    return model.save(path, aux=avg.aux(), log=log.to_dict())
