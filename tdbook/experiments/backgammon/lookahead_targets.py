"""What a deeper target would teach (notebook 10 §8, issue 34's lookahead lever): is a net's value of a position one
ply deeper — the mean over the 21 rolls of its value after its greedy 1-ply move
(:meth:`~tdbook.learners.backgammon_symmetric.SymmetricGammon.lookahead`) — closer to GNU Backgammon's evaluation
than the net's own value of it?  If it is, training toward it (``train symmetric-gammon --lookahead F``) gives the net
targets that know something it does not.

Positions from pubeval-vs-pubeval games (:func:`~tdbook.experiments.backgammon.analysis.game_positions`: each met
before a move, so none is over); the reference is gnubg's cubeless equity at ``plies`` (2 by default: gnubg's own
deeper search, a stronger judge than its 0-ply); errors in points per game (a backgammon 3), by position class.  gnubg
is only the judge here.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...claims import Estimate
from ...games.backgammon_gnubg import context
from ...games.backgammon_gnubg import equity as gnubg_equity
from ...learners.backgammon_symmetric import SymmetricGammon, equity
from .analysis import game_positions
from .equity_loss import position_class

CLASSES = ("contact", "race", "bear-off")


def lookahead_accuracy(model: SymmetricGammon, n_positions: int, seed: int, plies: int = 2) -> dict[str, Any]:
    """The net's equity, its equity one ply deeper and gnubg's (cubeless, at ``plies``) of up to ``n_positions``
    recorded positions, with their classes: ``{"net", "deeper", "gnubg", "classes", "plies"}``.
    ValueError for ``n_positions`` < 1 or ``plies`` outside 0–2."""
    if not isinstance(n_positions, int) or n_positions < 1:
        raise ValueError(f"n_positions must be an int >= 1, got {n_positions!r}")
    if plies not in (0, 1, 2):
        raise ValueError(f"plies must be 0, 1 or 2 (gnubg's search depth), got {plies!r}")
    positions, _ = game_positions(n_positions, seed=seed)
    ctx = context(plies)
    return {
        "net": np.array([model.equity(p) for p in positions]),
        "deeper": np.array([float(equity(model.lookahead(p))) for p in positions]),
        "gnubg": np.array([gnubg_equity(p, ctx) for p in positions]),
        "classes": np.array([position_class(p) for p in positions]),
        "plies": plies,
    }


def _gap(acc: dict[str, Any], mask: np.ndarray) -> Estimate:
    """Mean over the positions of ``mask`` of |deeper − gnubg| − |net − gnubg| (negative: the deeper value is
    closer), ± its standard error."""
    return Estimate.of(np.abs(acc["deeper"][mask] - acc["gnubg"][mask]) - np.abs(acc["net"][mask] - acc["gnubg"][mask]))


def lookahead_rows(acc: dict[str, Any]) -> list[list[str]]:
    """One row per position class present: positions, the net's and the deeper value's mean absolute and RMS error
    against gnubg, and the paired difference of the absolute errors ± 1 s.e."""
    rows = []
    for c in CLASSES:
        k = acc["classes"] == c
        if not k.any():
            continue
        e0, e1 = acc["net"][k] - acc["gnubg"][k], acc["deeper"][k] - acc["gnubg"][k]
        gap = _gap(acc, k)
        rows.append(
            [
                c,
                f"{int(k.sum()):,}",
                f"{np.mean(np.abs(e0)):.4f}",
                f"{np.mean(np.abs(e1)):.4f}",
                f"{np.sqrt(np.mean(e0**2)):.4f}",
                f"{np.sqrt(np.mean(e1**2)):.4f}",
                f"{gap.mean:+.4f} ± {gap.stderr:.4f}",
            ]
        )
    return rows


LOOKAHEAD_HEADER = [
    "position class",
    "positions",
    "net: mean |error|",
    "one ply deeper: mean |error|",
    "net: RMS error",
    "one ply deeper: RMS error",
    "deeper − net, mean |error|",
]


def lookahead_claims(acc: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """``{"lookahead-closer-contact": …}``: in contact positions, the mean paired difference |deeper − gnubg| −
    |net − gnubg| (ppg; negative when the deeper value is closer to gnubg)."""
    k = acc["classes"] == "contact"
    note = f"ppg, {int(k.sum()):,} contact positions from pubeval games, judged by gnubg {acc['plies']}-ply"
    return {"lookahead-closer-contact": {"ours": _gap(acc, k), "note": note}}
