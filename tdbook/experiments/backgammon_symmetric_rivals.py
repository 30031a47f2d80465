"""Notebook 09's four rivals (Symmetric gammon post (2011)): a fresh net of each (:func:`new_rival`), a chunk of
its self-play training (:func:`train_chunk`), and its 1-ply duplicate-dice match against pubeval
(:func:`vs_pubeval`), the yardstick of the learning curves (§3) and of the shipped nets' selection."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import njit
from tqdm.auto import tqdm

from ..core.rng import seed_state
from ..games.backgammon import (
    MAX_AFTER,
    NSLOT,
    OFF,
    WS_SIZE,
    flip,
    gen_afterstates,
    opening_roll,
    roll,
    set_initial,
    win_multiplier,
)
from ..learners.backgammon_net import TDGammon
from ..learners.backgammon_symmetric import MAX_NNZ, SymmetricGammon, choose_1ply
from ..players.backgammon import KIND_PUBEVAL, NetPlayer, PubevalPlayer, choose, load_pubeval_weights
from .backgammon_match import REPORT_BASE, MatchResult, evaluate, run_match, selection_seed, summarize

RIVALS = ("symmetric", "naive", "free", "tesauro")


@njit(cache=True)
def play_pairs_pubeval(arch, W1, W2, bo, w, seed, first_pair, n_pairs, out) -> None:
    """Duplicate-dice pairs of a 1-ply net of :mod:`~tdbook.learners.backgammon_symmetric` (A) against
    pubeval, the protocol of :func:`tdbook.experiments.backgammon_match.play_pairs_net`: pair ``p``
    replays dice stream ``(seed, 2p)`` with the colours swapped; ``out[i]`` = A's points as colour 0, 1; ``bo``
    is the net's bear-off table (:attr:`~tdbook.learners.backgammon_symmetric.SymmetricGammon.table`)."""
    m = W1.shape[1]
    out_pos = np.zeros((MAX_AFTER, NSLOT), np.int8)
    out_mv = np.full((MAX_AFTER, 8), -1, np.int8)
    ws = np.zeros(WS_SIZE, np.int64)
    scores = np.zeros(MAX_AFTER)
    tmp = np.zeros(NSLOT, np.int8)
    pos = np.zeros(NSLOT, np.int8)
    idx = np.zeros(MAX_NNZ, np.int64)
    val = np.zeros(MAX_NNZ)
    g, z, p = np.zeros(m), np.zeros(W2.shape[1]), np.zeros(W2.shape[1])
    x = np.zeros(122)
    for i in range(n_pairs):
        pr = first_pair + i
        for net_colour in range(2):
            dice = seed_state(seed, 2 * pr)
            rng = seed_state(seed, 2 * pr + 1)  # pubeval never draws from it
            set_initial(pos)
            side, d1, d2 = opening_roll(dice)
            result = 0
            while True:
                n = gen_afterstates(pos, d1, d2, out_pos, out_mv, ws)
                if side == net_colour:
                    k = choose_1ply(arch, W1, W2, bo, out_pos, n, scores, tmp, idx, val, g, z, p)
                else:
                    k = choose(KIND_PUBEVAL, pos, out_pos, n, w, x, rng)
                if out_pos[k, OFF] == 15:
                    mult = win_multiplier(out_pos[k])
                    result = mult if side == net_colour else -mult
                    break
                flip(out_pos[k], tmp)
                pos[:] = tmp
                side = 1 - side
                d1, d2 = roll(dice)
            out[i, net_colour] = result


def vs_pubeval(model, pairs: int, seed: int = 99, progress: bool = False, report: bool = False) -> MatchResult:
    """A 1-ply duplicate-dice match of ``model`` (a symmetric-gammon net or a TD-Gammon net) against
    pubeval on a selection seed, or with ``report`` on the report seed ``REPORT_BASE + seed`` (dice no
    choice was made on)."""
    seed = REPORT_BASE + seed if report else selection_seed(seed)
    if isinstance(model, TDGammon) and not report:
        return evaluate(model, pairs, seed=seed, opponent="pubeval", progress=progress)
    if isinstance(model, TDGammon):
        return run_match(NetPlayer(model, 1), PubevalPlayer(), pairs, seed=seed, progress=progress)
    w = load_pubeval_weights()
    out = np.zeros((pairs, 2), np.int64)
    chunk = 100
    with tqdm(total=pairs, desc=f"{model.arch} vs pubeval", disable=not progress, unit="pair", leave=False) as bar:
        for s in range(0, pairs, chunk):
            k = min(chunk, pairs - s)
            o = np.zeros((k, 2), np.int64)
            play_pairs_pubeval(model.code, model.W1, model.W2, model.table, w, seed, s, k, o)
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
