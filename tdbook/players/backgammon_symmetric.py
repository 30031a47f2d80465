"""Notebook 09's nets as players: the greedy 1-ply choice of
:func:`tdbook.learners.backgammon_symmetric.choose_1ply`, or a 2-ply choice (issue 34: the best net at 2-ply
against gnubg-expert), at the Python level (for matches against gnubg, which plays through the Python loop of
:mod:`tdbook.experiments.backgammon.match`).

2-ply, as for notebook 08's nets (:func:`tdbook.players.backgammon.choose_2ply`): the ``keep`` best afterstates
by 1-ply score are re-valued over the opponent's 21 rolls, the opponent answering each with its best 1-ply reply
by the same net (the reply's value is the net's equity for us on roll, or the points lost when the opponent bears
off its last checker); the afterstate with the best mean is played.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from ..games.backgammon import MAX_AFTER, NSLOT, OFF, WS_SIZE, flip, gen_afterstates, win_multiplier
from ..games.backgammon_bearoff import NO_TABLE
from ..learners.backgammon_net import ROLL_WEIGHTS, ROLLS
from ..learners.backgammon_symmetric import (
    FROM_BASE,
    MAX_NNZ,
    SymmetricGammon,
    choose_1ply,
    first_best,
    phase_block,
    score_afterstates,
    score_afterstates_from_base,
)
from .backgammon import best_first


class SymNet(NamedTuple):
    """What the 2-ply kernels read of a symmetric-gammon net: its architecture code, weights and bear-off table
    (:attr:`~tdbook.learners.backgammon_symmetric.SymmetricGammon.table`)."""

    arch: int
    W1: np.ndarray
    W2: np.ndarray
    bo: np.ndarray


class Scratch(NamedTuple):
    """The evaluator's scratch (:meth:`~tdbook.learners.backgammon_symmetric.SymmetricGammon.scratch`): the sparse
    input, hidden, node and output values."""

    idx: np.ndarray
    val: np.ndarray
    g: np.ndarray
    z: np.ndarray
    p: np.ndarray


class Replies(NamedTuple):
    """The opponent's side of a 2-ply search: its afterstates, moves and move-generator workspace, their scores,
    and a position buffer."""

    out2: np.ndarray
    mv2: np.ndarray
    ws2: np.ndarray
    scores2: np.ndarray
    tmp2: np.ndarray


class BaseScratch(NamedTuple):
    """What :func:`~tdbook.learners.backgammon_symmetric.score_afterstates_from_base` keeps of the afterstate it
    valued last: its dense inputs, input marks, hidden sums, sparse input indices, and (their count, net block, mark
    stamp)."""

    x: np.ndarray
    mark: np.ndarray
    h: np.ndarray
    bidx: np.ndarray
    state: np.ndarray


class SymBuffers(NamedTuple):
    """Scratch of a symmetric net choosing 1-ply inside a jitted match loop: move scores, a position buffer,
    the evaluator's :class:`Scratch` and, for a net valued from a base (``FROM_BASE``), :class:`BaseScratch`."""

    scores: np.ndarray
    tmp: np.ndarray
    s: Scratch
    base: BaseScratch


#: The symmetric-net slot of a match seat that is not a symmetric net: never read.
NO_SYM = SymNet(0, np.zeros((2, 1)), np.zeros((2, 1)), NO_TABLE)


def sym_net(model: SymmetricGammon) -> SymNet:
    """The :class:`SymNet` of ``model`` (its weights, not a copy: the kernels see later training)."""
    return SymNet(model.code, model.W1, model.W2, model.table)


@njit(cache=True)
def sym_buffers(net) -> SymBuffers:
    """Fresh :class:`SymBuffers` for the :class:`SymNet` ``net``."""
    n_out = net.W2.shape[1]
    s = Scratch(
        np.zeros(MAX_NNZ, np.int64), np.zeros(MAX_NNZ), np.zeros(net.W1.shape[1]), np.zeros(n_out), np.zeros(n_out)
    )
    n_in = phase_block(net.arch, net.W1, net.W2, False)[0].shape[0] - 1  # a pair's: either net's inputs
    base = BaseScratch(
        np.zeros(n_in), np.zeros(n_in, np.int64), np.zeros(net.W1.shape[1]), np.zeros(MAX_NNZ, np.int64),
        np.zeros(3, np.int64),
    )  # fmt: skip
    return SymBuffers(np.zeros(MAX_AFTER), np.zeros(NSLOT, np.int8), s, base)


@njit(cache=True)
def choose_sym_1ply(net, out_pos, n, b) -> int:
    """:func:`~tdbook.learners.backgammon_symmetric.choose_1ply` of the :class:`SymNet` ``net`` with the
    :class:`SymBuffers` ``b`` (the form a jitted match loop calls); with :data:`FROM_BASE` in its code, the
    afterstates valued from a base (:func:`~tdbook.learners.backgammon_symmetric.score_afterstates_from_base`)."""
    s = b.s
    if net.arch & FROM_BASE and n > 1:
        e = b.base
        score_afterstates_from_base(
            net.arch, net.W1, net.W2, net.bo, out_pos, n, b.scores, b.tmp, s.idx, s.val, s.g, s.z, s.p,
            e.x, e.mark, e.h, e.bidx, e.state,
        )  # fmt: skip
        return first_best(b.scores, n)
    return choose_1ply(net.arch, net.W1, net.W2, net.bo, out_pos, n, b.scores, b.tmp, s.idx, s.val, s.g, s.z, s.p)


@njit(cache=True)
def value_2ply(net, after, tmp, rep, s) -> float:
    """Mean over the opponent's 21 rolls of the value to its mover of afterstate ``after`` once the opponent has
    played its best 1-ply reply (points won when ``after`` bears off the last checker); ``net`` a :class:`SymNet`,
    ``rep`` :class:`Replies`, ``s`` :class:`Scratch`."""
    if after[OFF] == 15:
        return float(win_multiplier(after))
    flip(after, tmp)  # the opponent on roll
    total = 0.0
    for r in range(21):
        n2 = gen_afterstates(tmp, ROLLS[r, 0], ROLLS[r, 1], rep.out2, rep.mv2, rep.ws2)
        score_afterstates(
            net.arch, net.W1, net.W2, net.bo, rep.out2, n2, rep.scores2, rep.tmp2, s.idx, s.val, s.g, s.z, s.p
        )
        best = rep.scores2[0]
        for j in range(1, n2):
            if rep.scores2[j] > best:
                best = rep.scores2[j]
        total -= ROLL_WEIGHTS[r] * best
    return total / 36.0


@njit(cache=True)
def choose_2ply(net, out_pos, n, keep, scores, order, tmp, rep, s) -> int:
    """The 2-ply choice among ``out_pos[:n]``: the ``keep`` best by 1-ply score re-valued by :func:`value_2ply`
    (first of equals)."""
    if n <= 1:
        return 0
    score_afterstates(net.arch, net.W1, net.W2, net.bo, out_pos, n, scores, tmp, s.idx, s.val, s.g, s.z, s.p)
    m = best_first(scores, n, keep, order)
    best = order[0]
    bv = -1e300
    for a in range(m):
        j = order[a]
        v = value_2ply(net, out_pos[j], tmp, rep, s)
        if v > bv:
            bv = v
            best = j
    return best


class SymNetPlayer:
    """A symmetric-gammon net (any architecture) choosing by cubeless equity at 1-ply, or at 2-ply over the
    ``keep`` best 1-ply candidates."""

    def __init__(self, model: SymmetricGammon, name: str | None = None, plies: int = 1, keep: int = 8) -> None:
        if plies not in (1, 2):
            raise ValueError(f"plies must be 1 or 2, got {plies!r}")
        if not isinstance(keep, (int, np.integer)) or keep < 1:
            raise ValueError(f"keep must be an int >= 1, got {keep!r}")
        self.model, self.plies, self.keep = model, plies, int(keep)
        self.name = name or model.describe() + ("" if plies == 1 else " 2-ply")
        self._scores = np.zeros(MAX_AFTER)
        self._tmp = np.zeros(NSLOT, np.int8)
        self._scratch = model.scratch()
        self._table = model.table
        if plies == 2:
            self._order = np.zeros(MAX_AFTER, np.int64)
            self._replies = Replies(
                np.zeros((MAX_AFTER, NSLOT), np.int8),
                np.full((MAX_AFTER, 8), -1, np.int8),
                np.zeros(WS_SIZE, np.int64),
                np.zeros(MAX_AFTER),
                np.zeros(NSLOT, np.int8),
            )

    def choose(self, pos, d1, d2, after) -> int:
        idx, val, g, z, p = self._scratch
        m = self.model
        after = np.asarray(after, np.int8)
        if self.plies == 2:
            net = SymNet(m.code, m.W1, m.W2, self._table)
            return int(
                choose_2ply(
                    net,
                    after,
                    len(after),
                    self.keep,
                    self._scores,
                    self._order,
                    self._tmp,
                    self._replies,
                    Scratch(idx, val, g, z, p),
                )
            )
        return int(
            choose_1ply(m.code, m.W1, m.W2, self._table, after, len(after), self._scores, self._tmp, idx, val, g, z, p)
        )
