"""Notebook 08's runs: TD-Gammon trained by self-play, checkpointed, and measured on a ladder
(seed 004 ch. 5, §5.1–5.3, Table 5.2; §4.6 Eqs 4.14–4.16; Eqs 6.11–6.14).

- :func:`train` — self-play TD(λ) with atomic checkpoints every N games and exact resume (a
  killed run restarted with the same command ends with the same weights as an uninterrupted
  one), a rolling benchmark (duplicate-dice match against pubeval every ``eval_every`` games:
  the learning curve) and a progress bar with games/s;
  ``python -m tdbook train backgammon …`` is :func:`train_main`.
- :func:`ladder` — duplicate-dice matches against pubeval and GNU Backgammon's graded levels.
- The notebook helpers below return data; figures are in :mod:`tdbook.plots.td_gammon`.
"""

from __future__ import annotations

import argparse
import json
import math
import shlex
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from tqdm.auto import tqdm

from ..core import profiles
from ..core.paths import data_dir, repo_root
from ..core.storage import code_version, read_sidecar, sidecar_path, write_sidecar
from ..learners.td_gammon import ENCODINGS, OUTPUTS, ROLLS, TDGammon, train_games
from ..players.backgammon import GNUBG_LEVELS, NetPlayer, PubevalPlayer, RandomPlayer
from .backgammon_match import MatchResult, run_match

# ----------------------------------------------------------------------------- training


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
        return a is not None and a <= game <= self.games and (game - a) % self.average_every == 0

    def average_points(self, upto: int) -> int:
        """How many weight copies the average holds once ``upto`` games are done."""
        a = self.average_from
        if a is None or upto < a:
            return 0
        return (min(upto, self.games) - a) // self.average_every + 1

    def alpha_at(self, game: int) -> float:
        if self.alpha_late is not None and game >= self.late_after:
            return float(self.alpha_late)
        return float(self.alpha)

    def beta_at(self, game: int) -> float:
        if self.beta is None:
            return self.alpha_at(game)
        return float(self.beta) * self.alpha_at(game) / float(self.alpha)

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


def evaluate(
    model: TDGammon, pairs: int, seed: int = 99, opponent: str = "pubeval", plies: int = 1, progress: bool = False
) -> MatchResult:
    """A duplicate-dice match of the net (1- or 2-ply) against ``opponent`` (pubeval, random, or a
    gnubg level: beginner / intermediate / advanced / expert)."""
    return run_match(NetPlayer(model, plies), make_opponent(opponent), pairs, seed=seed, progress=progress)


def paired_difference(a: MatchResult, b: MatchResult) -> tuple[float, float]:
    """(ppg of a − ppg of b, its standard error) for two matches played on the same dice (same seed
    and pairs): the pair-by-pair difference cancels most of the luck."""
    if a.points.shape != b.points.shape:
        raise ValueError(f"matches of different sizes: {a.points.shape} vs {b.points.shape}")
    d = a.points.mean(axis=1) - b.points.mean(axis=1)
    return float(d.mean()), float(d.std(ddof=1) / math.sqrt(len(d))) if len(d) > 1 else float("nan")


def make_opponent(name: str):
    """A benchmark player by name: ``pubeval``, ``random``, or a gnubg level (``gnubg-expert`` or ``expert``)."""
    if name == "pubeval":
        return PubevalPlayer()
    if name == "random":
        return RandomPlayer()
    level = name[6:] if name.startswith("gnubg-") else name
    if level in GNUBG_LEVELS:
        from ..players.backgammon import GnubgPlayer

        return GnubgPlayer(level)
    raise ValueError(
        f"unknown opponent {name!r}; choose from: pubeval, random, " + ", ".join(f"gnubg-{k}" for k in GNUBG_LEVELS)
    )


def _run_chunk(model: TDGammon, spec: TrainSpec, first: int, n: int) -> np.ndarray:
    net = model.net
    stats = np.zeros((n, 2), np.int64)
    a = spec.alpha_at(first)
    train_games(
        net.W1,
        net.W2,
        net.eW1,
        net.eW2,
        net.bias,
        net.hact,
        net.oact,
        net.dmode,
        model.mode,
        a,
        spec.beta_at(first),
        spec.lam,
        spec.seed,
        first,
        n,
        stats,
    )
    net.check_finite()
    return stats


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
        stops.update(range(spec.average_from, spec.games, spec.average_every))
    return sorted(s for s in stops if s > start)


_AVERAGING = ("average_from", "average_every")


class _Average:
    """The running sum of weight copies behind :attr:`TrainSpec.average_from` (float64, in order)."""

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


def train(
    spec: TrainSpec,
    *,
    checkpoint: str | Path | None = None,
    checkpoint_every: int = 5000,
    eval_every: int = 0,
    eval_pairs: int = 200,
    eval_seed: int = 99,
    snapshots: str | Path | None = None,
    progress: bool = True,
    stop_after: int | None = None,
    chunk: int = 500,
) -> tuple[TDGammon, TrainLog]:
    """Self-play TD(λ) training of a TD-Gammon net (see module docstring).

    ``checkpoint``: a ``.npz`` path written atomically every ``checkpoint_every`` games (and at the
    end); if it exists, training resumes from it — its spec must equal ``spec`` except that ``games``
    may be larger (a finished run continues: game g and its step size depend only on g), and the
    averaging settings may differ while no weight copy has been averaged yet.  With
    ``spec.average_from`` the model returned is the average (:class:`TrainSpec`).  ``eval_every``
    > 0 plays ``eval_pairs`` duplicate pairs against pubeval at 0 games and every ``eval_every``
    games (the learning curve; seed ``eval_seed``, the same dice every time).  ``snapshots``: a
    directory for a copy of the weights at each evaluation.  ``stop_after``: stop once this many
    games are done in total, without a checkpoint — what a kill does (for tests)."""
    spec.check()
    for name, v in (
        ("checkpoint_every", checkpoint_every),
        ("eval_every", eval_every),
        ("eval_pairs", eval_pairs),
        ("chunk", chunk),
    ):
        if not isinstance(v, (int, np.integer)) or v < (1 if name in ("chunk", "eval_pairs") else 0):
            raise ValueError(f"{name} must be a non-negative int (chunk, eval_pairs >= 1), got {v!r}")
    ckpt = Path(checkpoint) if checkpoint is not None else None
    model, log = None, None
    if ckpt is not None and ckpt.exists():
        model = TDGammon.load(ckpt)
        saved = model.info.get("log")
        if not saved:
            raise ValueError(f"{ckpt} is a net without a training log: not a checkpoint")
        log = TrainLog.from_dict(saved)
        diff = {k: (v, getattr(spec, k)) for k, v in asdict(log.spec).items() if getattr(spec, k) != v and k != "games"}
        if log.averaged == 0 and (spec.average_from is None or log.games_done <= spec.average_from):
            for k in _AVERAGING:  # averaging has not begun: it may be switched on or moved
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
    if model is None:
        model = spec.new_model()
        log = TrainLog(spec)
    try:
        avg = _Average(model, log)
    except ValueError as e:
        raise ValueError(f"checkpoint {ckpt}: {e}") from None
    model.net.aux = {}
    want = spec.average_points(log.games_done)
    if log.averaged == want - 1 and spec.is_average_point(log.games_done):
        avg.add(model)  # starting at the first weight copy of the average
    if log.averaged != want:
        raise ValueError(
            f"checkpoint {ckpt} sums {log.averaged} weight copies; {want} expected after "
            f"{log.games_done:,} games with average_from={spec.average_from}"
        )
    snap = Path(snapshots) if snapshots is not None else None

    def save_ckpt() -> None:
        if ckpt is not None:
            model.save(ckpt, aux=avg.aux(), log=log.to_dict())

    def do_eval() -> None:
        r = evaluate(model, eval_pairs, eval_seed)
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
        stops = _boundaries(spec, log.games_done, [checkpoint_every, eval_every])
        for stop in stops:
            while log.games_done < stop:
                n = min(chunk, stop - log.games_done)
                if stop_after is not None:
                    n = min(n, stop_after - log.games_done)
                    if n <= 0:
                        break
                t0 = time.perf_counter()
                _run_chunk(model, spec, log.games_done, n)
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
            if checkpoint_every and log.games_done % checkpoint_every == 0 or log.games_done == spec.games:
                save_ckpt()
    finally:
        bar.close()
    if log.averaged:
        return avg.model(), log
    return model, log


# ----------------------------------------------------------------------------- ladder


LADDER = ("pubeval", "gnubg-beginner", "gnubg-intermediate", "gnubg-advanced", "gnubg-expert")


def ladder(
    model: TDGammon, pairs: dict[str, int] | int, seed: int = 2024, plies: int = 1, progress: bool = True
) -> dict[str, dict]:
    """Duplicate-dice matches of the net against each ladder opponent: ``{name: MatchResult.to_dict()}``.

    ``pairs``: one count for all, or per opponent (opponents left out are skipped)."""
    todo = pairs if isinstance(pairs, dict) else {k: pairs for k in LADDER}
    out = {}
    me = NetPlayer(model, plies)
    for name, n in todo.items():
        if not n:
            continue
        r = run_match(me, make_opponent(name), int(n), seed=seed, progress=progress)
        out[name] = r.to_dict()
    return out


# ----------------------------------------------------------------------------- command line


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="python -m tdbook train backgammon",
        description="Train a TD-Gammon net by self-play TD(λ) (seed 004 ch. 5). Checkpoints atomically and "
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
        help="final weights (.npz; a .json sidecar goes next to it); default data/td_gammon_<hidden>.npz",
    )
    ap.add_argument("--checkpoint", default=None, help="checkpoint path (default build/td_gammon/<out stem>.ckpt.npz)")
    ap.add_argument("--checkpoint-every", type=int, default=5000, help="games between checkpoints")
    ap.add_argument("--eval-every", type=int, default=10_000, help="games between pubeval matches (learning curve)")
    ap.add_argument("--eval-pairs", type=int, default=500, help="duplicate pairs per learning-curve match")
    ap.add_argument("--snapshots", default=None, help="directory for a weights copy at every evaluation")
    ap.add_argument(
        "--ladder-pairs",
        type=int,
        default=0,
        help="after training: duplicate pairs against each gnubg level (0: no ladder)",
    )
    ap.add_argument(
        "--pubeval-pairs",
        type=int,
        default=5000,
        help="after training, with --ladder-pairs: duplicate pairs against pubeval",
    )
    ap.add_argument("--no-progress", action="store_true", help="no progress bar")
    return ap


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
    except ValueError as e:
        ap.error(str(e))
    out = Path(a.out) if a.out else data_dir() / f"td_gammon_{a.hidden}.npz"
    ckpt = Path(a.checkpoint) if a.checkpoint else repo_root() / "build" / "td_gammon" / f"{out.stem}.ckpt.npz"
    try:
        model, log = train(
            spec,
            checkpoint=ckpt,
            checkpoint_every=a.checkpoint_every,
            eval_every=a.eval_every,
            eval_pairs=a.eval_pairs,
            snapshots=a.snapshots,
            progress=not a.no_progress,
        )
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
        "learning_curve_opponent": f"pubeval, {a.eval_pairs} duplicate pairs per point, seed 99"
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
    if old.get("spec") == side["spec"] and "ladder" in old:
        for k in ("ladder", "ladder_note", "ladder_raw_final"):
            if k in old:
                side[k] = old[k]
    if a.ladder_pairs:
        pairs = {k: a.ladder_pairs for k in LADDER}
        pairs["pubeval"] = a.pubeval_pairs
        t = time.perf_counter()
        side["ladder"] = ladder(model, pairs, progress=not a.no_progress)
        side["ladder_note"] = (
            f"duplicate-dice cubeless matches, seed 2024, 1-ply; {time.perf_counter() - t:.0f} s; pairs: {pairs}"
        )
        if log.averaged:  # the same ladder for the raw final weights (kept in the checkpoint)
            side["ladder_raw_final"] = ladder(TDGammon.load(ckpt), pairs, progress=not a.no_progress)
    write_sidecar(out, side)
    print(f"wrote {out} and {sidecar_path(out)}: {log.games_done} games in {log.wall_time:.0f} s")
    if log.curve:
        c = log.curve[-1]
        print(f"last learning-curve point: {c.ppg:+.3f} ± {c.stderr:.3f} ppg vs pubeval at {c.games} games")
    for k, r in side.get("ladder", {}).items():
        print(f"  vs {k}: {r['ppg']:+.3f} ± {r['stderr']:.3f} ppg, {r['win_pct']:.1f}% wins over {r['games']} games")
    return 0


# ----------------------------------------------------------------------------- notebook 08: profiles

#: Profile defaults for notebook 08 (see :func:`config`).  Match sizes are duplicate *pairs*
#: (two games each).  ``RETRAIN`` (full profile) retrains both nets from scratch with the
#: commands recorded in their sidecars instead of loading the shipped weights.
PROFILES: dict[str, dict[str, Any]] = {
    "quick": {
        "RETRAIN": False,
        "DEMO_HIDDEN": 10,
        "DEMO_GAMES": 400,
        "DEMO_EVAL_EVERY": 100,
        "DEMO_EVAL_PAIRS": 20,
        "PUBEVAL_PAIRS": 200,
        "INTERMEDIATE_PAIRS": 8,
        "LADDER_PAIRS": 4,
        "TWO_PLY_PAIRS": 2,
        "WORLDCLASS_PAIRS": 0,
        "CROSSCHECK_POSITIONS": 10,
        "AGREEMENT_POSITIONS": 40,
    },
    "standard": {
        "RETRAIN": False,
        "DEMO_HIDDEN": 40,
        "DEMO_GAMES": 10_000,
        "DEMO_EVAL_EVERY": 2_000,
        "DEMO_EVAL_PAIRS": 200,
        "PUBEVAL_PAIRS": 5_000,
        "INTERMEDIATE_PAIRS": 1_000,
        "LADDER_PAIRS": 2_500,
        "TWO_PLY_PAIRS": 1_000,
        "WORLDCLASS_PAIRS": 40,
        "CROSSCHECK_POSITIONS": 150,
        "AGREEMENT_POSITIONS": 1_000,
    },
    "full": {
        "RETRAIN": True,
        "DEMO_HIDDEN": 40,
        "DEMO_GAMES": 10_000,
        "DEMO_EVAL_EVERY": 2_000,
        "DEMO_EVAL_PAIRS": 200,
        "PUBEVAL_PAIRS": 10_000,
        "INTERMEDIATE_PAIRS": 2_500,
        "LADDER_PAIRS": 2_500,
        "TWO_PLY_PAIRS": 2_500,
        "WORLDCLASS_PAIRS": 500,
        "CROSSCHECK_POSITIONS": 2_000,
        "AGREEMENT_POSITIONS": 5_000,
    },
}

SIZES = (40, 80)


def config(profile: str, **knobs: Any) -> profiles.Config:
    """Resolve notebook 08's knobs for ``profile`` (a knob passed as None takes the profile default)."""
    cfg = profiles.resolve(profile, PROFILES, **knobs)
    for name, v in cfg.items():
        if name in ("PROFILE", "RETRAIN"):
            continue
        if v < (0 if name in ("TWO_PLY_PAIRS", "LADDER_PAIRS", "WORLDCLASS_PAIRS", "DEMO_GAMES") else 1):
            raise ValueError(f"{name} must be >= 1, got {v!r}")
    return cfg


# ----------------------------------------------------------------------------- shipped nets


def net_path(hidden: int) -> Path:
    return data_dir() / f"td_gammon_{hidden}.npz"


@dataclass
class Shipped:
    """A trained net with its sidecar (training command, seed, games, wall time, code version,
    learning curve, ladder)."""

    hidden: int
    model: TDGammon
    sidecar: dict
    path: Path

    @property
    def spec(self) -> TrainSpec:
        return TrainSpec(**self.sidecar["spec"])

    @property
    def curve(self) -> list[CurvePoint]:
        return [CurvePoint(**c) for c in self.sidecar.get("learning_curve", [])]


def load_shipped(hidden: int) -> Shipped:
    """The shipped ``data/td_gammon_<hidden>.npz`` and its sidecar (ValueError naming what is wrong)."""
    p = net_path(hidden)
    model = TDGammon.load(p, hidden=hidden)
    return Shipped(hidden, model, read_sidecar(p), p)


def retrain(shipped: Shipped, root: Path, progress: bool = True) -> Shipped:
    """Retrain a shipped net from scratch with its recorded spec (checkpointed under ``root``)."""
    s = shipped.sidecar
    spec = shipped.spec
    out = Path(root) / f"td_gammon_{shipped.hidden}.npz"
    model, log = train(
        spec,
        checkpoint=Path(root) / f"td_gammon_{shipped.hidden}.ckpt.npz",
        eval_every=s.get("eval_every", 10_000),
        eval_pairs=s.get("eval_pairs", 500),
        progress=progress,
    )
    side = {
        **s,
        "games": log.games_done,
        "wall_time_s": round(log.wall_time, 1),
        "code_version": code_version(),
        "learning_curve": [asdict(c) for c in log.curve],
        "resumed_at": log.resumed_at,
    }
    for k in ("ladder", "ladder_note", "ladder_raw_final", "snapshot_ladder"):
        side.pop(k, None)
    model.save(out, log=log.to_dict(), command=s["command"])
    write_sidecar(out, side)
    return Shipped(shipped.hidden, model, side, out)


def nets(cfg: profiles.Config, progress: bool = True) -> dict[int, Shipped]:
    """The 40- and 80-hidden nets: shipped ones, or retrained from scratch when ``cfg.RETRAIN``."""
    out = {}
    for h in SIZES:
        s = load_shipped(h)
        if cfg.RETRAIN:
            from ..core.paths import output_root

            s = retrain(s, output_root(cfg.PROFILE) / "td_gammon", progress)
        out[h] = s
    return out


# ----------------------------------------------------------------------------- §1 engine vs gnubg on screen


def showcase_positions() -> list[tuple[str, np.ndarray, int, int]]:
    """A few positions for the side-by-side move lists: (label, position, d1, d2)."""
    from ..games import backgammon as bg

    bar = np.zeros(28, np.int8)  # one of mine on the bar; they hold their 4-, 5- and 6-points
    for k, v in {24: 2, 13: 5, 8: 3, 6: 4}.items():
        bar[k] = v
    for k, v in {1: 2, 12: 5, 17: 3, 19: 3, 20: 2}.items():
        bar[k] = -v
    bar[bg.BAR] = 1
    bear = np.zeros(28, np.int8)  # bearing off: 6-5 takes two checkers off (gnubg cuts the tuple)
    for k, v in {6: 2, 5: 1, 3: 2, 1: 1}.items():
        bear[k] = v
    for k, v in {20: 3, 21: 4, 24: 2}.items():
        bear[k] = -v
    bear[bg.OFF], bear[bg.OPP_OFF] = 9, -6
    for p in (bar, bear):
        bg.check_position(p)
    return [
        ("opening, 3-1", bg.initial_position(), 3, 1),
        ("a checker on the bar, 6-4", bar, 6, 4),
        ("bearing off, 6-5", bear, 6, 5),
    ]


def side_by_side(pos: np.ndarray, d1: int, d2: int, model: TDGammon | None = None) -> tuple[Any, dict]:
    """gnubg's legal moves (best first, its 0-ply score) next to ours (notation, and the net's
    1-ply value if ``model``), matched afterstate by afterstate; plus the cross-check summary."""
    from ..games import backgammon as bg
    from ..games.backgammon_gnubg import crosscheck, gnubg_moves, move_score
    from ..results import Table

    g = bg.Backgammon()
    s = g.state_from(pos, 0, (d1, d2))
    after, hops = g.afterstates(s)
    ours = {after[j].tobytes(): j for j in range(len(after))}
    net = NetPlayer(model) if model is not None else None
    vals = net.scores(pos, after) if net is not None else None
    rows = []
    for i, m in enumerate(gnubg_moves(pos, d1, d2)):
        mv = tuple(m["move"])
        if len(mv) % 2 == 0:
            j = ours.get(bg.apply_hops(pos, [(mv[2 * k], mv[2 * k + 1]) for k in range(len(mv) // 2)]).tobytes())
        else:  # cut at a bear-off: the afterstate whose gnubg score is the reported one
            sc = [abs(move_score(after[j]) - m["score"]) for j in range(len(after))]
            j = int(np.argmin(sc))
        ours_txt = bg.move_string(pos, hops[j]) if j is not None else "— not generated —"
        row = [
            str(i + 1),
            " ".join(str(x) for x in mv) + (" (cut)" if len(mv) % 2 else ""),
            f"{m['score']:+.3f}",
            ours_txt,
        ]
        if vals is not None:
            row.append(f"{vals[j]:+.3f}" if j is not None else "")
        rows.append(row)
    check = crosscheck(pos, d1, d2)
    head = ["#", "gnubg move (from, to, …)", "gnubg score", "tdbook move"] + (
        ["net 1-ply value"] if vals is not None else []
    )
    cap = (
        f"{len(after)} distinct afterstates (ours) vs {check['gnubg']} moves (gnubg): "
        f"{'equal' if check['count_ok'] and not check['problems'] else 'DIFFERENT'}"
    )
    return Table(head, rows, caption=cap), check


def crosscheck_sample(n_positions: int, seed: int = 7, progress: bool = True) -> dict:
    """Move generation against gnubg on ``n_positions`` positions from real games, all 21 rolls each
    (the full check of ``benchmarks/crosscheck_backgammon_gnubg.py`` at a chosen size)."""
    from ..games.backgammon_gnubg import crosscheck_all
    from .backgammon_match import positions_from_games

    st = crosscheck_all(positions_from_games(n_positions, seed), progress)
    st["max_score_dev"] = max(st["score_devs"], default=0.0)
    return st


def game_positions(n_positions: int, seed: int = 5, every: int = 3) -> tuple[np.ndarray, np.ndarray]:
    """``n_positions`` positions (side on roll's view) and their rolls from pubeval-vs-pubeval games,
    every ``every``-th ply: realistic positions for averages and comparisons."""
    from ..players.backgammon import KIND_PUBEVAL, load_pubeval_weights
    from .backgammon_match import sample_positions

    w = load_pubeval_weights()
    games = max(2, n_positions // 15)
    while True:
        P, D = sample_positions(games, seed=seed, kind0=KIND_PUBEVAL, kind1=KIND_PUBEVAL, w=w, every=every)
        if len(P) >= n_positions:
            return P[:n_positions], D[:n_positions]
        games *= 2


def encoding_flip_property(n_positions: int, seed: int) -> tuple[bool, bool, int]:
    """The encoding seen from the other side (§5.2, 198 units), on positions from random games:
    (side-on-roll encoding: ``encode(flip(p))`` is ``encode(p)`` with its two 98-unit halves swapped;
    thesis encoding: the same physical board with the other side on roll changes only the turn units;
    number of positions)."""
    from ..games.backgammon import flipped
    from ..games.backgammon_encoding import encode_dense, swap_sides
    from .backgammon_match import sample_positions

    positions, _ = sample_positions(n_positions, seed=seed, every=2)
    rel = all(
        np.array_equal(encode_dense(flipped(p), 0, False), swap_sides(encode_dense(p, 0, False))) for p in positions
    )
    tes = all(
        np.array_equal(encode_dense(flipped(p), 1, True), np.r_[encode_dense(p, 0, True)[:196], 0, 1])
        for p in positions
    )
    return rel, tes, len(positions)


def curve_difference(a: Sequence[CurvePoint], b: Sequence[CurvePoint], lo: int, hi: int) -> tuple[float, float]:
    """Mean ppg of curve ``a`` minus that of ``b`` over the points with ``lo <= games <= hi``, and the
    standard error of the difference (the points' own standard errors, treated as independent — a
    conservative choice when both curves were measured on the same dice)."""
    ma, sa, _ = curve_mean(a, lo, hi)
    mb, sb, _ = curve_mean(b, lo, hi)
    return ma - mb, math.hypot(sa, sb)


def point_at(curve: Sequence[CurvePoint], games: int) -> CurvePoint:
    """The learning-curve point measured at ``games`` training games."""
    for c in curve:
        if c.games == games:
            return c
    raise ValueError(f"the learning curve has no point at {games:,} games")


def moves_per_roll(positions: np.ndarray) -> float:
    """Mean number of legal moves (distinct afterstates) per roll, rolls weighted by their chance
    (1/36 doubles, 2/36 others), over ``positions``."""
    from ..games.backgammon import gen_afterstates, make_buffers
    from ..learners.td_gammon import ROLL_WEIGHTS

    bufs = make_buffers()
    tot = 0.0
    for p in positions:
        for (d1, d2), w in zip(ROLLS, ROLL_WEIGHTS):
            tot += w / 36.0 * gen_afterstates(p, int(d1), int(d2), *bufs)
    return tot / len(positions)


# ----------------------------------------------------------------------------- §2 learning curves


def demo_training(
    hidden: int,
    games: int,
    eval_every: int,
    eval_pairs: int,
    seed: int,
    alpha: float = 0.1,
    lam: float = 0.7,
    outputs: int = 4,
    encoding: str = "relative",
    progress: bool = True,
) -> tuple[TDGammon, TrainLog]:
    """A short training run from scratch (no checkpoint) with its learning curve against pubeval."""
    spec = TrainSpec(
        hidden=hidden, outputs=outputs, encoding=encoding, alpha=alpha, lam=lam, seed=seed, games=games
    ).check()
    return train(spec, eval_every=eval_every, eval_pairs=eval_pairs, eval_seed=seed + 99, progress=progress)


def curve_arrays(curve: Sequence[CurvePoint]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(games, ppg, stderr) of a learning curve."""
    return (np.array([c.games for c in curve]), np.array([c.ppg for c in curve]), np.array([c.stderr for c in curve]))


def fmt_point(curve: Sequence[CurvePoint], games: int) -> str:
    """``"+0.123 ± 0.045"`` for the curve's point at ``games`` (``"—"`` if it has none)."""
    try:
        c = point_at(curve, games)
    except ValueError:
        return "—"
    return f"{c.ppg:+.3f} ± {c.stderr:.3f}"


def curve_mean(curve: Sequence[CurvePoint], lo: int, hi: int) -> tuple[float, float, int]:
    """Mean ppg of the curve's points with ``lo <= games <= hi``, its standard error (from the points'
    own standard errors; they are independent matches) and the number of points."""
    pts = [c for c in curve if lo <= c.games <= hi]
    if not pts:
        raise ValueError(f"no learning-curve point between {lo} and {hi} games")
    se = math.sqrt(sum(c.stderr**2 for c in pts)) / len(pts)
    return float(np.mean([c.ppg for c in pts])), se, len(pts)


def lambda_comparison() -> tuple[list[CurvePoint], dict]:
    """The recorded learning curve of the λ = 0.7 comparison run (``data/td_gammon_80_lambda07_curve.json``)."""
    p = data_dir() / "td_gammon_80_lambda07_curve.json"
    try:
        d = json.loads(p.read_text())
        return [CurvePoint(**c) for c in d["learning_curve"]], d
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise ValueError(f"cannot read the λ comparison curve {p}: {e}") from None


def learning_share(curve: Sequence[CurvePoint], by: int) -> float:
    """Share of the total gain against pubeval (first point to the best of the last three) reached
    by ``by`` games: §5.2's "a great deal of learning … after only tens of thousands of games"."""
    g, p, _ = curve_arrays(curve)
    if len(g) < 2:
        raise ValueError("a learning curve needs at least two points")
    final = float(np.mean(p[-3:]))
    upto = p[g <= by]
    return float((upto[-1] - p[0]) / (final - p[0]))


# ----------------------------------------------------------------------------- §4 what the net learned


def handmade_positions() -> list[tuple[str, np.ndarray]]:
    """Hand-made positions (side on roll's view) with an obvious verdict, for the net's P(win)."""
    from ..games import backgammon as bg

    def mk(mine: dict, theirs: dict, my_bar: int = 0, their_bar: int = 0) -> np.ndarray:
        p = np.zeros(bg.NSLOT, np.int8)
        for k, v in mine.items():
            p[k] = v
        for k, v in theirs.items():
            p[k] = -v
        p[bg.BAR], p[bg.OPP_BAR] = my_bar, -their_bar
        p[bg.OFF] = 15 - sum(mine.values()) - my_bar
        p[bg.OPP_OFF] = -(15 - sum(theirs.values()) - their_bar)
        bg.check_position(p)
        return p

    return [
        ("opening position (on roll)", bg.initial_position()),
        ("sure win: last 2 checkers on my 1-point, they have 15 at home", mk({1: 2}, {19: 5, 20: 5, 21: 5})),
        ("sure loss: they bear off their last checker next", mk({23: 5, 13: 5, 8: 5}, {24: 1})),
        ("race, 40 pips ahead", mk({6: 4, 5: 4, 4: 4, 3: 3}, {19: 3, 18: 4, 17: 4, 16: 4})),
        ("race, 40 pips behind", mk({9: 4, 8: 4, 7: 4, 6: 3}, {24: 3, 23: 4, 22: 4, 21: 3})),
        (
            "on the bar against a closed board",
            mk({13: 6, 8: 4, 6: 4}, {19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2, 1: 3}, my_bar=1),
        ),
        (
            "they are on the bar against my closed board",
            mk({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3}, {12: 6, 17: 4, 19: 4}, their_bar=1),
        ),
    ]


def pwin_table(models: dict[str, TDGammon], positions: Sequence[tuple[str, np.ndarray]]) -> tuple[Any, dict]:
    """Each net's P(win) for the side on roll next to gnubg's (0-ply) on the hand-made positions."""
    from ..games.backgammon_gnubg import context, gnubg, to_gnubg
    from ..results import Table

    g = gnubg()
    rows, data = [], {}
    for label, p in positions:
        gp = float(g.evaluate(to_gnubg(p), g.cube_info(), context())[0])
        ours = {k: m.p_win(p) for k, m in models.items()}
        data[label] = {"gnubg": gp, **ours}
        rows.append([label] + [f"{ours[k]:.3f}" for k in models] + [f"{gp:.3f}"])
    return Table(["position (side on roll)"] + [f"{k} P(win)" for k in models] + ["gnubg P(win)"], rows), data


@dataclass
class Agreement:
    """The net against gnubg (0-ply) on positions from games: P(win) per position, and the 1-ply move choice."""

    p_ours: np.ndarray
    p_gnubg: np.ndarray
    same_move: np.ndarray  # our 1-ply choice is gnubg's best (by gnubg's own score)
    loss: np.ndarray  # gnubg's equity of its best move minus of ours (≥ 0)
    rank_corr: np.ndarray  # Spearman correlation of our and gnubg's move scores, per roll with ≥ 3 moves
    abs_err: np.ndarray  # per roll: mean |our move score − gnubg's| (equity)
    rel_err: np.ndarray  # the same after removing each roll's mean (the error common to all its moves)

    @property
    def mean_abs_error(self) -> float:
        return float(np.mean(np.abs(self.p_ours - self.p_gnubg)))

    @property
    def mean_bias(self) -> float:
        return float(np.mean(self.p_ours - self.p_gnubg))


def agreement(model: TDGammon, n_positions: int, seed: int = 5, progress: bool = True) -> Agreement:
    """Positions (and their rolls) from pubeval-vs-pubeval games, every 3rd ply: the net's P(win)
    for the side on roll vs gnubg's, and its 1-ply move vs gnubg's best move (Tesauro's §5.3
    lesson: absolute errors of about 0.1 that "cancel out in move-making decisions")."""
    from scipy.stats import spearmanr

    from ..games.backgammon import OFF, gen_afterstates, make_buffers
    from ..games.backgammon_gnubg import context, gnubg, move_score, to_gnubg

    g = gnubg()
    P, D = game_positions(n_positions, seed)
    me = NetPlayer(model)
    bufs = make_buffers()
    po, pg, same, loss, rc, ae, re_ = [], [], [], [], [], [], []
    ctx = context()
    for p, (d1, d2) in tqdm(list(zip(P, D)), desc="net vs gnubg", disable=not progress, unit="position"):
        po.append(model.p_win(p))
        pg.append(float(g.evaluate(to_gnubg(p), g.cube_info(), ctx)[0]))
        n = gen_afterstates(p, d1, d2, *bufs)
        if n < 2:
            continue
        after = bufs[0][:n]
        s_ours = me.scores(p, after)
        s_g = np.array([move_score(a, ctx) for a in after])
        k = int(np.argmax(s_ours))
        loss.append(float(s_g.max() - s_g[k]))
        same.append(bool(s_g[k] >= s_g.max() - 1e-9))
        live = np.array([a[OFF] < 15 for a in after])  # bear-off wins score exactly in both
        if live.sum() >= 2:
            d = s_ours[live] - s_g[live]
            ae.append(float(np.mean(np.abs(d))))
            re_.append(float(np.mean(np.abs(d - d.mean()))))
        if n >= 3 and np.ptp(s_ours) > 0 and np.ptp(s_g) > 0:
            rc.append(float(spearmanr(s_ours, s_g).statistic))
    return Agreement(
        np.array(po), np.array(pg), np.array(same), np.array(loss), np.array(rc), np.array(ae), np.array(re_)
    )


# ----------------------------------------------------------------------------- §3 Table 5.2


#: Table 5.2 as printed (004 §5.2 p. 45): version, training games, opponents, points, games, ppg.
TABLE_5_2 = [
    ("TD 1.0", 300_000, "Robertie, Davis, Magriel", -13, 51, -0.25),
    ("TD 2.0", 800_000, "Goulding, Woolsey, Snellings, Russell, Sylvester", -7, 38, -0.18),
    ("TD 2.1", 1_500_000, "Robertie", -1, 40, -0.02),
]


def table52_paper() -> Any:
    from ..results import Table

    return Table(
        ["version", "training games", "opponents", "result as printed", "ppg printed", "ppg recomputed"],
        [
            [
                v,
                f"{g:,}",
                o,
                f"lost by {-pts} point{'s' if -pts != 1 else ''} in {n} games",
                f"{ppg:+.2f}",
                f"{pts / n:+.3f}",
            ]
            for v, g, o, pts, n, ppg in TABLE_5_2
        ],
        caption="Table 5.2 (004 §5.2 p. 45): TD-Gammon against humans",
    )


def table52_ours(shipped: dict[int, Shipped], live: dict[int, dict[str, dict]]) -> Any:
    """Our games-vs-result table: each net's learning-curve points at round game counts (pubeval,
    recorded by its training run) and the live ladder of the finished nets."""
    from ..results import Table

    rows = []
    for h, s in shipped.items():
        g, p, se = curve_arrays(s.curve)
        for target in (10_000, 30_000, 100_000, 300_000, g.max() if len(g) else 0):
            k = np.flatnonzero(g == target)
            if len(k) and not any(r[0] == f"{h}" and r[1] == f"{target:,}" for r in rows):
                rows.append([f"{h}", f"{target:,}", f"{p[k[0]]:+.3f} ± {se[k[0]]:.3f}", "", ""])
        lad = live.get(h, {})
        if rows and rows[-1][0] == f"{h}":
            for col, name in ((3, "gnubg-intermediate"), (4, "gnubg-expert")):
                if name in lad:
                    rows[-1][col] = f"{lad[name]['ppg']:+.3f} ± {lad[name]['stderr']:.3f}"
    return Table(
        [
            "hidden units",
            "training games",
            "ppg vs pubeval (training curve)",
            "ppg vs gnubg-intermediate",
            "ppg vs gnubg-expert",
        ],
        rows,
        caption="Ours: cubeless points per game, duplicate dice",
    )


# ----------------------------------------------------------------------------- §6 widget panel


@dataclass
class Explore:
    log: TrainLog
    match: MatchResult
    label: str


def explore(
    hidden: int = 20,
    alpha: float = 0.1,
    lam: float = 0.7,
    games: int = 2000,
    opponent: str = "pubeval",
    pairs: int = 200,
    outputs: int = 4,
    encoding: str = "relative",
    seed: int = 1,
) -> Explore:
    """The panel's run: train a fresh net for ``games`` self-play games (learning curve against
    pubeval every ``games``/5), then a duplicate-dice match of ``pairs`` pairs against ``opponent``."""
    every = max(1, int(games) // 5)
    model, log = demo_training(
        int(hidden),
        int(games),
        every,
        min(int(pairs), 200),
        int(seed),
        alpha=float(alpha),
        lam=float(lam),
        outputs=int(outputs),
        encoding=encoding,
    )
    r = run_match(NetPlayer(model), make_opponent(opponent), int(pairs), seed=int(seed) + 1)
    return Explore(log, r, f"{model.describe()}, α={alpha:g}, λ={lam:g}, {games:,} games")
