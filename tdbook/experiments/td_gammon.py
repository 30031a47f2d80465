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
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Sequence

import numpy as np
from tqdm.auto import tqdm

from .. import __version__, profiles
from ..learners.td_gammon import ENCODINGS, OUTPUTS, TDGammon, train_games
from ..paths import atomic_write_bytes, data_dir, repo_root
from ..players.backgammon import GNUBG_LEVELS, NetPlayer, PubevalPlayer, RandomPlayer
from .backgammon_match import MatchResult, run_match

# ----------------------------------------------------------------------------- training


@dataclass(frozen=True)
class TrainSpec:
    """Everything that decides a training run's weights (a checkpoint must match it to resume).

    ``alpha`` is the step size for both layers (α input→hidden; ``beta`` hidden→output, None =
    α), lowered to ``alpha_late`` from game ``late_after`` on (None: never).  Game g's dice are
    stream (seed, g); the initial weights come from ``seed`` too."""

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

    def check(self) -> "TrainSpec":
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
        return self

    def alpha_at(self, game: int) -> float:
        if self.alpha_late is not None and game >= self.late_after:
            return float(self.alpha_late)
        return float(self.alpha)

    def beta_at(self, game: int) -> float:
        if self.beta is None:
            return self.alpha_at(game)
        return float(self.beta) * self.alpha_at(game) / float(self.alpha)

    def new_model(self) -> TDGammon:
        return TDGammon.new(self.hidden, self.outputs, self.encoding, alpha=self.alpha, beta=self.beta, lam=self.lam,
                            init=self.init, seed=self.seed)

    def command(self, out: str | None = None, **extra: Any) -> str:
        """The ``python -m tdbook train backgammon`` command line for this spec."""
        args = ["python", "-m", "tdbook", "train", "backgammon", "--hidden", self.hidden, "--outputs", self.outputs,
                "--encoding", self.encoding, "--games", self.games, "--alpha", self.alpha, "--lambda", self.lam,
                "--seed", self.seed]
        if self.beta is not None:
            args += ["--beta", self.beta]
        if self.alpha_late is not None:
            args += ["--alpha-late", self.alpha_late, "--late-after", self.late_after]
        if self.init != 0.1:
            args += ["--init", self.init]
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
    pubeval and the mean game length of each chunk."""

    spec: TrainSpec
    games_done: int = 0
    wall_time: float = 0.0
    curve: list[CurvePoint] = field(default_factory=list)
    plies: list[tuple[int, float]] = field(default_factory=list)
    resumed_at: list[int] = field(default_factory=list)

    def to_dict(self) -> dict:
        d = asdict(self)
        d["spec"] = asdict(self.spec)
        return d

    @classmethod
    def from_dict(cls, d: dict) -> "TrainLog":
        return cls(TrainSpec(**d["spec"]), d["games_done"], d["wall_time"], [CurvePoint(**c) for c in d["curve"]],
                   [tuple(p) for p in d.get("plies", [])], list(d.get("resumed_at", [])))


def evaluate(model: TDGammon, pairs: int, seed: int = 99, opponent: str = "pubeval", plies: int = 1) -> MatchResult:
    """A duplicate-dice match of the net (1- or 2-ply) against ``opponent`` (pubeval, random, or a
    gnubg level: beginner / intermediate / advanced / expert)."""
    return run_match(NetPlayer(model, plies), make_opponent(opponent), pairs, seed=seed, progress=False)


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
    raise ValueError(f"unknown opponent {name!r}; choose from: pubeval, random, "
                     + ", ".join(f"gnubg-{k}" for k in GNUBG_LEVELS))


def _run_chunk(model: TDGammon, spec: TrainSpec, first: int, n: int) -> np.ndarray:
    net = model.net
    stats = np.zeros((n, 2), np.int64)
    a = spec.alpha_at(first)
    train_games(net.W1, net.W2, net.eW1, net.eW2, net.bias, net.hact, net.oact, net.dmode, model.mode, a,
                spec.beta_at(first), spec.lam, spec.seed, first, n, stats)
    net.check_finite()
    return stats


def _boundaries(spec: TrainSpec, start: int, every: Sequence[int]) -> list[int]:
    """Game counts after ``start`` where a chunk must end: checkpoints, evaluations, the α switch."""
    stops = {spec.games}
    for e in every:
        if e and e > 0:
            stops.update(range((start // e + 1) * e, spec.games, e))
    if spec.late_after is not None and start < spec.late_after < spec.games:
        stops.add(spec.late_after)
    return sorted(s for s in stops if s > start)


def train(spec: TrainSpec, *, checkpoint: str | Path | None = None, checkpoint_every: int = 5000,
          eval_every: int = 0, eval_pairs: int = 200, eval_seed: int = 99, snapshots: str | Path | None = None,
          progress: bool = True, stop_after: int | None = None, chunk: int = 500) -> tuple[TDGammon, TrainLog]:
    """Self-play TD(λ) training of a TD-Gammon net (see module docstring).

    ``checkpoint``: a ``.npz`` path written atomically every ``checkpoint_every`` games (and at the
    end); if it exists, training resumes from it — its spec must equal ``spec``.  ``eval_every``
    > 0 plays ``eval_pairs`` duplicate pairs against pubeval at 0 games and every ``eval_every``
    games (the learning curve; seed ``eval_seed``, the same dice every time).  ``snapshots``: a
    directory for a copy of the weights at each evaluation.  ``stop_after``: stop once this many
    games are done in total, without a checkpoint — what a kill does (for tests)."""
    spec.check()
    for name, v in (("checkpoint_every", checkpoint_every), ("eval_every", eval_every), ("eval_pairs", eval_pairs),
                    ("chunk", chunk)):
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
        if log.spec != spec:
            diff = {k: (v, getattr(spec, k)) for k, v in asdict(log.spec).items() if getattr(spec, k) != v}
            raise ValueError(f"checkpoint {ckpt} was made with other settings {diff} (saved, asked); "
                             f"use another --checkpoint path or the same settings")
        if log.games_done < spec.games:
            log.resumed_at.append(log.games_done)
    if model is None:
        model = spec.new_model()
        log = TrainLog(spec)
    snap = Path(snapshots) if snapshots is not None else None

    def save_ckpt() -> None:
        if ckpt is not None:
            model.save(ckpt, log=log.to_dict())

    def do_eval() -> None:
        r = evaluate(model, eval_pairs, eval_seed)
        log.curve.append(CurvePoint(log.games_done, r.ppg, r.stderr, r.win_pct))
        if snap is not None:
            model.save(snap / f"games_{log.games_done:07d}.npz", log=log.to_dict())

    if eval_every and (not log.curve or log.curve[-1].games < log.games_done) and log.games_done % eval_every == 0 \
            and log.games_done < spec.games:
        do_eval()
    t_last = time.perf_counter()
    bar = tqdm(total=spec.games, initial=log.games_done, desc=f"TD-Gammon {model.describe()}", unit="game",
               disable=not progress, smoothing=0.1)
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
                st = _run_chunk(model, spec, log.games_done, n)
                dt = time.perf_counter() - t0
                log.games_done += n
                log.plies.append((log.games_done, float(st[:, 1].mean())))
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
    return model, log


# ----------------------------------------------------------------------------- ladder


LADDER = ("pubeval", "gnubg-beginner", "gnubg-intermediate", "gnubg-advanced", "gnubg-expert")


def ladder(model: TDGammon, pairs: dict[str, int] | int, seed: int = 2024, plies: int = 1,
           progress: bool = True) -> dict[str, dict]:
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


# ----------------------------------------------------------------------------- code version and sidecars


def code_version() -> str:
    """Package version and git commit of the checkout (``+dirty`` when tracked files differ)."""
    root = repo_root()
    try:
        rev = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], cwd=root, capture_output=True, text=True,
                             timeout=10).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no", "--", "tdbook"], cwd=root,
                               capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        rev, dirty = "", ""
    return f"tdbook {__version__}" + (f" git {rev}" + ("+dirty" if dirty else "") if rev else "")


def sidecar_path(net_path: str | Path) -> Path:
    p = Path(net_path)
    return p.with_suffix(".json")


def read_sidecar(net_path: str | Path) -> dict:
    p = sidecar_path(net_path)
    try:
        return json.loads(p.read_text())
    except FileNotFoundError:
        raise ValueError(f"no sidecar {p} next to {net_path}") from None
    except ValueError as e:
        raise ValueError(f"{p} is not valid JSON: {e}") from None


def write_sidecar(net_path: str | Path, data: dict) -> Path:
    p = sidecar_path(net_path)
    atomic_write_bytes(p, (json.dumps(data, indent=1, sort_keys=False) + "\n").encode())
    return p


# ----------------------------------------------------------------------------- command line


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="python -m tdbook train backgammon",
        description="Train a TD-Gammon net by self-play TD(λ) (seed 004 ch. 5). Checkpoints atomically and "
                    "resumes: rerun the same command after an interruption and no game is lost or repeated.")
    ap.add_argument("--hidden", type=int, default=40, help="hidden units (thesis: 40, later 80)")
    ap.add_argument("--outputs", type=int, default=4, choices=OUTPUTS,
                    help="1 = P(win); 4 = win, gammon win, loss, gammon loss (default 4)")
    ap.add_argument("--encoding", default="relative", choices=list(ENCODINGS),
                    help="tesauro = 198 inputs with turn units, white's outputs; relative = 196, side on roll")
    ap.add_argument("--games", type=int, default=300_000, help="self-play games in total")
    ap.add_argument("--alpha", type=float, default=0.1, help="step size α (both layers unless --beta)")
    ap.add_argument("--beta", type=float, default=None, help="hidden→output step size β (default α)")
    ap.add_argument("--lambda", dest="lam", type=float, default=0.7, help="trace decay λ")
    ap.add_argument("--alpha-late", type=float, default=None, help="step size from --late-after games on")
    ap.add_argument("--late-after", type=int, default=None, help="game at which α becomes --alpha-late")
    ap.add_argument("--init", type=float, default=0.1, help="initial weights uniform in ±init")
    ap.add_argument("--seed", type=int, default=1, help="seed of the initial weights and of every game's dice")
    ap.add_argument("--out", default=None, help="final weights (.npz; a .json sidecar goes next to it); "
                    "default data/td_gammon_<hidden>.npz")
    ap.add_argument("--checkpoint", default=None, help="checkpoint path (default build/td_gammon/<out stem>.ckpt.npz)")
    ap.add_argument("--checkpoint-every", type=int, default=5000, help="games between checkpoints")
    ap.add_argument("--eval-every", type=int, default=10_000, help="games between pubeval matches (learning curve)")
    ap.add_argument("--eval-pairs", type=int, default=500, help="duplicate pairs per learning-curve match")
    ap.add_argument("--snapshots", default=None, help="directory for a weights copy at every evaluation")
    ap.add_argument("--ladder-pairs", type=int, default=0,
                    help="after training: duplicate pairs against each gnubg level (0: no ladder)")
    ap.add_argument("--pubeval-pairs", type=int, default=5000,
                    help="after training, with --ladder-pairs: duplicate pairs against pubeval")
    ap.add_argument("--no-progress", action="store_true", help="no progress bar")
    return ap


def train_main(argv: Sequence[str] | None = None) -> int:
    """``python -m tdbook train backgammon …``: train (or resume), write the net and its sidecar."""
    ap = _parser()
    a = ap.parse_args(argv)
    spec = TrainSpec(hidden=a.hidden, outputs=a.outputs, encoding=a.encoding, alpha=a.alpha, beta=a.beta, lam=a.lam,
                     alpha_late=a.alpha_late, late_after=a.late_after, init=a.init, seed=a.seed, games=a.games)
    try:
        spec.check()
    except ValueError as e:
        ap.error(str(e))
    out = Path(a.out) if a.out else data_dir() / f"td_gammon_{a.hidden}.npz"
    ckpt = Path(a.checkpoint) if a.checkpoint else repo_root() / "build" / "td_gammon" / f"{out.stem}.ckpt.npz"
    try:
        model, log = train(spec, checkpoint=ckpt, checkpoint_every=a.checkpoint_every, eval_every=a.eval_every,
                           eval_pairs=a.eval_pairs, snapshots=a.snapshots, progress=not a.no_progress)
    except ValueError as e:
        print(f"tdbook train: error: {e}", file=sys.stderr)
        return 2
    cmd = spec.command(None if a.out is None else str(a.out), checkpoint_every=a.checkpoint_every,
                       eval_every=a.eval_every, eval_pairs=a.eval_pairs, ladder_pairs=a.ladder_pairs or None,
                       pubeval_pairs=a.pubeval_pairs if a.ladder_pairs else None)
    model.save(out, log=log.to_dict(), command=cmd)
    side = {"command": cmd, "seed": spec.seed, "games": log.games_done, "wall_time_s": round(log.wall_time, 1),
            "code_version": code_version(), "net": model.describe(), "spec": asdict(spec),
            "resumed_at": log.resumed_at, "learning_curve": [asdict(c) for c in log.curve],
            "learning_curve_opponent": f"pubeval, {a.eval_pairs} duplicate pairs per point, seed 99"}
    old = {}
    try:
        old = read_sidecar(out)
    except ValueError:
        pass
    if old.get("spec") == side["spec"] and "ladder" in old:
        side["ladder"] = old["ladder"]
    if a.ladder_pairs:
        pairs = {k: a.ladder_pairs for k in LADDER}
        pairs["pubeval"] = a.pubeval_pairs
        t = time.perf_counter()
        side["ladder"] = ladder(model, pairs, progress=not a.no_progress)
        side["ladder_note"] = (f"duplicate-dice cubeless matches, seed 2024, 1-ply; {time.perf_counter() - t:.0f} s; "
                               f"pairs: {pairs}")
    write_sidecar(out, side)
    print(f"wrote {out} and {sidecar_path(out)}: {log.games_done} games in {log.wall_time:.0f} s")
    if log.curve:
        c = log.curve[-1]
        print(f"last learning-curve point: {c.ppg:+.3f} ± {c.stderr:.3f} ppg vs pubeval at {c.games} games")
    for k, r in side.get("ladder", {}).items():
        print(f"  vs {k}: {r['ppg']:+.3f} ± {r['stderr']:.3f} ppg, {r['win_pct']:.1f}% wins over {r['games']} games")
    return 0
