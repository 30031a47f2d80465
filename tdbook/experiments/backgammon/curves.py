"""Arithmetic on learning curves — points per game against pubeval recorded every N training games
(Powell (2000) §5.2: "after only tens of thousands of games … a great deal of learning"; §5.3: more
hidden units do better): the points at given game counts, means over stretches of training with their
standard errors, differences between runs, the share of the whole gain reached by a given count."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence

import numpy as np

from ...core.paths import data_dir
from .spec import CurvePoint


def curve_arrays(curve: Sequence[CurvePoint]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(games, ppg, stderr) of a learning curve."""
    return (np.array([c.games for c in curve]), np.array([c.ppg for c in curve]), np.array([c.stderr for c in curve]))


def point_at(curve: Sequence[CurvePoint], games: int) -> CurvePoint:
    """The learning-curve point measured at ``games`` training games."""
    for c in curve:
        if c.games == games:
            return c
    raise ValueError(f"the learning curve has no point at {games:,} games")


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


def curve_difference(a: Sequence[CurvePoint], b: Sequence[CurvePoint], lo: int, hi: int) -> tuple[float, float]:
    """Mean ppg of curve ``a`` minus that of ``b`` over the points with ``lo <= games <= hi``, and the
    standard error of the difference (the points' own standard errors, treated as independent — a
    conservative choice when both curves were measured on the same dice)."""
    ma, sa, _ = curve_mean(a, lo, hi)
    mb, sb, _ = curve_mean(b, lo, hi)
    return ma - mb, math.hypot(sa, sb)


def learning_share(curve: Sequence[CurvePoint], by: int) -> float:
    """Share of the total gain against pubeval (first point to the mean of the last three) reached
    by ``by`` games: §5.2's "a great deal of learning … after only tens of thousands of games"."""
    g, p, _ = curve_arrays(curve)
    if len(g) < 2:
        raise ValueError("a learning curve needs at least two points")
    final = float(np.mean(p[-3:]))
    upto = p[g <= by]
    return float((upto[-1] - p[0]) / (final - p[0]))


def lambda_comparison() -> tuple[list[CurvePoint], dict]:
    """The recorded learning curve of the λ = 0.7 comparison run (``data/td_gammon_80_lambda07_curve.json``)."""
    p = data_dir() / "td_gammon_80_lambda07_curve.json"
    try:
        d = json.loads(p.read_text())
        return [CurvePoint(**c) for c in d["learning_curve"]], d
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise ValueError(f"cannot read the λ comparison curve {p}: {e}") from None
