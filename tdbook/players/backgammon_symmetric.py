"""Notebook 09's nets as players: the greedy 1-ply choice of
:func:`tdbook.learners.backgammon_symmetric.choose_1ply`, at the Python level (for matches against
gnubg, which plays through the Python loop of :mod:`tdbook.experiments.backgammon_match`)."""

from __future__ import annotations

import numpy as np

from ..games.backgammon import MAX_AFTER, NSLOT
from ..learners.backgammon_symmetric import SymmetricGammon, choose_1ply


class SymNetPlayer:
    """A symmetric-gammon net (any architecture) choosing by 1-ply cubeless equity."""

    def __init__(self, model: SymmetricGammon, name: str | None = None) -> None:
        self.model = model
        self.name = name or model.describe()
        self._scores = np.zeros(MAX_AFTER)
        self._tmp = np.zeros(NSLOT, np.int8)
        self._scratch = model.scratch()
        self._table = model.table

    def choose(self, pos, d1, d2, after) -> int:
        idx, val, g, z, p = self._scratch
        m = self.model
        return int(
            choose_1ply(
                m.code,
                m.W1,
                m.W2,
                self._table,
                np.asarray(after, np.int8),
                len(after),
                self._scores,
                self._tmp,
                idx,
                val,
                g,
                z,
                p,
            )
        )
