"""Notebook 09's four rivals (Symmetric gammon post (2011)): a fresh net of each (:func:`new_rival`), a chunk of
its self-play training (:func:`train_chunk`), its 1-ply duplicate-dice match against pubeval (:func:`vs_pubeval`),
the yardstick of the learning curves (§3) and of the shipped nets' selection, and a rival trained with its learning
curve (:func:`train_rival`)."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any

import numpy as np
from tqdm.auto import tqdm

from ...learners.backgammon_net import TDGammon
from ...learners.backgammon_symmetric import SymmetricGammon
from ...players.backgammon import KIND_PUBEVAL, KIND_SYM, NetPlayer, PubevalPlayer, load_pubeval_weights
from ...players.backgammon_symmetric import NO_SYM, sym_net
from .match import (
    NO_NET,
    REPORT_BASE,
    Contestant,
    MatchResult,
    evaluate,
    play_pairs_net,
    run_match,
    selection_seed,
    summarize,
)

RIVALS = ("symmetric", "naive", "free", "tesauro")


def vs_pubeval(model, pairs: int, seed: int = 99, progress: bool = False, report: bool = False) -> MatchResult:
    """A 1-ply duplicate-dice match of ``model`` (a symmetric-gammon net or a TD-Gammon net) against
    pubeval through :func:`~tdbook.experiments.backgammon.match.play_pairs_net` on a selection seed, or with
    ``report`` on the report seed ``REPORT_BASE + seed`` (dice no choice was made on)."""
    seed = REPORT_BASE + seed if report else selection_seed(seed)
    if isinstance(model, TDGammon) and not report:
        return evaluate(model, pairs, seed=seed, opponent="pubeval", progress=progress)
    if isinstance(model, TDGammon):
        return run_match(NetPlayer(model, 1), PubevalPlayer(), pairs, seed=seed, progress=progress)
    w = load_pubeval_weights()
    net = Contestant(KIND_SYM, NO_NET, 8, sym_net(model))
    opponent = Contestant(KIND_PUBEVAL, NO_NET, 8, NO_SYM)
    out = np.zeros((pairs, 2), np.int64)
    chunk = 100
    with tqdm(total=pairs, desc=f"{model.arch} vs pubeval", disable=not progress, unit="pair", leave=False) as bar:
        for s in range(0, pairs, chunk):
            k = min(chunk, pairs - s)
            o = np.zeros((k, 2), np.int64)
            play_pairs_net(net, opponent, w, seed, s, k, o, np.zeros((k, 2), np.int64))
            out[s : s + k] = o
            bar.update(k)
    return summarize(model.describe(), "pubeval", out)


@dataclass
class Curve:
    rival: str
    seed: int
    games: list[int]
    ppg: list[float]
    stderr: list[float]
    wall_s: float

    def as_dict(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in ("rival", "seed", "games", "ppg", "stderr", "wall_s")}


def new_rival(rival: str, hidden: int, alpha: float, seed: int, inputs: str = "raw", backgammons: bool = False):
    """A fresh net of ``rival``: one of :data:`RIVALS`; ``inputs`` "expanded" or "contact" adds the hand-made
    features of :mod:`tdbook.games.backgammon_features` ((a)–(c) only); ``backgammons`` the two backgammon
    outputs ((c) only)."""
    if rival == "tesauro":
        if inputs != "raw" or backgammons:
            raise ValueError("(d), notebook 08's net, has the raw inputs and its four outputs only")
        return TDGammon.new(hidden=hidden, outputs=4, encoding="relative", alpha=alpha, lam=0.0, seed=seed)
    if rival not in RIVALS:
        raise ValueError(f"unknown rival {rival!r}; choose from: {', '.join(RIVALS)}")
    return SymmetricGammon.new(rival, hidden=hidden, alpha=alpha, seed=seed, inputs=inputs, backgammons=backgammons)


def train_chunk(model, alpha: float, seed: int, first: int, n: int) -> np.ndarray:
    """Self-play games ``first .. first + n − 1`` of either kind of net (TD(0), step ``alpha``)."""
    if isinstance(model, TDGammon):
        return model.train(model.rule(alpha, alpha, 0.0), seed, first, n)
    return model.train(seed, first, n, alpha)


def train_rival(
    rival: str,
    hidden: int,
    games: int,
    alpha: float,
    seed: int,
    eval_every: int,
    eval_pairs: int,
    eval_seed: int = 99,
    progress: bool = True,
    inputs: str = "raw",
    backgammons: bool = False,
) -> tuple[Any, Curve]:
    """Train ``rival`` by self-play TD(0) for ``games`` games (dice streams of ``seed``) and measure it
    against pubeval every ``eval_every`` games (``eval_pairs`` duplicate pairs on ``eval_seed``)."""
    if games < 1 or eval_every < 1 or games % eval_every:
        raise ValueError(f"games ({games}) must be a positive multiple of eval_every ({eval_every})")
    model = new_rival(rival, hidden, alpha, seed, inputs, backgammons)
    curve = Curve(rival, seed, [], [], [], 0.0)
    wall = 0.0
    with tqdm(total=games, desc=f"train {rival} (seed {seed})", disable=not progress, unit="game") as bar:
        for first in range(0, games, eval_every):
            t = time.perf_counter()
            train_chunk(model, alpha, seed, first, eval_every)
            wall += time.perf_counter() - t
            r = vs_pubeval(model, eval_pairs, seed=eval_seed)
            curve.games.append(first + eval_every)
            curve.ppg.append(r.ppg)
            curve.stderr.append(r.stderr)
            bar.update(eval_every)
    curve.wall_s = wall
    return model, curve


def final_gap(curves: list[Curve], a: str, b: str) -> tuple[float, float, int]:
    """Mean final ppg of rival ``a`` minus rival ``b`` over seeds, its standard error (from the matches'
    own errors) and the seeds used."""
    fa = [c for c in curves if c.rival == a]
    fb = [c for c in curves if c.rival == b]
    ma = np.mean([c.ppg[-1] for c in fa])
    mb = np.mean([c.ppg[-1] for c in fb])
    va = np.sum([c.stderr[-1] ** 2 for c in fa]) / len(fa) ** 2
    vb = np.sum([c.stderr[-1] ** 2 for c in fb]) / len(fb) ** 2
    return float(ma - mb), float(math.sqrt(va + vb)), len(fa)
