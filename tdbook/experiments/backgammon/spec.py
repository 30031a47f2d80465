"""What decides a TD-Gammon training run and what it records (Powell (2000) ch. 5, §5.2): the run's
:class:`TrainSpec` (every setting its weights depend on), the points of its learning curve, and its
:class:`TrainLog` (kept inside every checkpoint, so a resumed run knows where it stands)."""

from __future__ import annotations

import math
import shlex
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from ...learners.backgammon_net import ENCODINGS, OUTPUTS, TDGammon, TDRule

#: The spec keys of iterate averaging (both trainers): they change the net a run writes, not the games it plays.
AVERAGING = ("average_from", "average_every")


def average_points(start: int, every: int, games: int) -> range:
    """The game counts whose weights enter an iterate average (Polyak & Juditsky 1992): ``start``,
    ``start + every``, … up to and including ``games`` — one count for both trainers, notebook 08's
    running sum and notebook 09's mean of snapshots."""
    return range(start, games + 1, every)


@dataclass(frozen=True)
class TrainSpec:
    """Everything that decides a training run's weights (a checkpoint must match it to resume).

    ``alpha`` is the step size for both layers (α input→hidden; ``beta`` hidden→output, None =
    α), lowered to ``alpha_late`` from game ``late_after`` on (None: never).  Game g's dice are
    stream (seed, g); the initial weights come from ``seed`` too.

    ``average_from`` (None: off) makes the run's result the *average* of the weights after games
    ``average_from``, ``average_from + average_every``, … up to ``games`` (iterate averaging,
    Polyak & Juditsky 1992): with a constant step size the weights keep jittering around what
    they have learned, and their mean is a steadier net.  It does not change the training
    trajectory; the checkpoint keeps the raw weights and the running sum."""

    hidden: int = 40
    outputs: int = 4
    encoding: str = "relative"
    alpha: float = 0.1
    beta: float | None = None
    lam: float = 0.7
    alpha_late: float | None = None
    late_after: int | None = None
    init: float = 0.1
    seed: int = 1
    games: int = 1000
    average_from: int | None = None
    average_every: int = 10_000

    def check(self) -> TrainSpec:
        for name in ("hidden", "games", "seed"):
            v = getattr(self, name)
            if not isinstance(v, (int, np.integer)) or isinstance(v, bool) or v < (0 if name == "seed" else 1):
                raise ValueError(f"{name} must be an int >= {0 if name == 'seed' else 1}, got {v!r}")
        if self.outputs not in OUTPUTS:
            raise ValueError(f"outputs must be 1 or 4, got {self.outputs!r}")
        if self.encoding not in ENCODINGS:
            raise ValueError(f"unknown encoding {self.encoding!r}; choose from: {', '.join(ENCODINGS)}")
        for name in ("alpha", "beta", "alpha_late"):
            v = getattr(self, name)
            if v is None and name != "alpha":
                continue
            if not isinstance(v, (int, float)) or isinstance(v, bool) or not (v > 0 and math.isfinite(v)):
                raise ValueError(f"{name} must be a number > 0, got {v!r}")
        if not isinstance(self.lam, (int, float)) or not 0.0 <= self.lam <= 1.0:
            raise ValueError(f"lambda must be in [0, 1], got {self.lam!r}")
        if (self.alpha_late is None) != (self.late_after is None):
            raise ValueError("alpha_late and late_after go together (give both or neither)")
        if self.late_after is not None and (not isinstance(self.late_after, int) or self.late_after < 0):
            raise ValueError(f"late_after must be an int >= 0, got {self.late_after!r}")
        if not isinstance(self.average_every, int) or isinstance(self.average_every, bool) or self.average_every < 1:
            raise ValueError(f"average_every must be an int >= 1, got {self.average_every!r}")
        if self.average_from is not None and (
            not isinstance(self.average_from, int)
            or isinstance(self.average_from, bool)
            or not 0 <= self.average_from <= self.games
        ):
            raise ValueError(f"average_from must be an int in [0, games={self.games}], got {self.average_from!r}")
        return self

    def is_average_point(self, game: int) -> bool:
        """Whether the weights after ``game`` games enter the average."""
        a = self.average_from
        return a is not None and game in average_points(a, self.average_every, self.games)

    def average_points(self, upto: int) -> int:
        """How many weight copies the average holds once ``upto`` games are done."""
        a = self.average_from
        return 0 if a is None else len(average_points(a, self.average_every, min(upto, self.games)))

    def alpha_at(self, game: int) -> float:
        if self.alpha_late is not None and game >= self.late_after:
            return float(self.alpha_late)
        return float(self.alpha)

    def beta_at(self, game: int) -> float:
        if self.beta is None:
            return self.alpha_at(game)
        return float(self.beta) * self.alpha_at(game) / float(self.alpha)

    def rule_at(self, game: int, model: TDGammon) -> TDRule:
        """The update rule of ``model`` from game ``game`` on (the α/β schedule, λ)."""
        return model.rule(self.alpha_at(game), self.beta_at(game), self.lam)

    def new_model(self) -> TDGammon:
        return TDGammon.new(
            self.hidden,
            self.outputs,
            self.encoding,
            alpha=self.alpha,
            beta=self.beta,
            lam=self.lam,
            init=self.init,
            seed=self.seed,
        )

    def command(self, out: str | None = None, **extra: Any) -> str:
        """The ``python -m tdbook train backgammon`` command line for this spec."""
        args = [
            "python",
            "-m",
            "tdbook",
            "train",
            "backgammon",
            "--hidden",
            self.hidden,
            "--outputs",
            self.outputs,
            "--encoding",
            self.encoding,
            "--games",
            self.games,
            "--alpha",
            self.alpha,
            "--lambda",
            self.lam,
            "--seed",
            self.seed,
        ]
        if self.beta is not None:
            args += ["--beta", self.beta]
        if self.alpha_late is not None:
            args += ["--alpha-late", self.alpha_late, "--late-after", self.late_after]
        if self.init != 0.1:
            args += ["--init", self.init]
        if self.average_from is not None:
            args += ["--average-from", self.average_from, "--average-every", self.average_every]
        for k, v in extra.items():
            if v is not None and v is not False:
                args += [f"--{k.replace('_', '-')}"] + ([] if v is True else [v])
        if out:
            args += ["--out", out]
        return " ".join(shlex.quote(str(a)) for a in args)


@dataclass
class CurvePoint:
    games: int
    ppg: float
    stderr: float
    win_pct: float


@dataclass
class TrainLog:
    """What a run recorded: its spec, games played, wall time (s), the learning curve against
    pubeval, and the game counts at which it was resumed."""

    spec: TrainSpec
    games_done: int = 0
    wall_time: float = 0.0
    curve: list[CurvePoint] = field(default_factory=list)
    resumed_at: list[int] = field(default_factory=list)
    averaged: int = 0  # weight copies in the running sum (TrainSpec.average_from)

    def to_dict(self) -> dict:
        d = asdict(self)
        d["spec"] = asdict(self.spec)
        return d

    @classmethod
    def from_dict(cls, d: dict) -> TrainLog:
        return cls(
            TrainSpec(**d["spec"]),
            d["games_done"],
            d["wall_time"],
            [CurvePoint(**c) for c in d["curve"]],
            list(d.get("resumed_at", [])),
            int(d.get("averaged", 0)),
        )
