"""Figures for notebook 08 (TD-Gammon; seed 004 ch. 5).  Each function returns a figure."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.patches import Circle, Polygon, Rectangle

from ..plotting import PALETTE, band

LIGHT, DARK = "#f4f1ea", "#2b2b2b"


def _point_xy(p: int) -> tuple[float, bool]:
    """x of point p (1..24, mover's numbering) and whether it is on the top row.  Points 1–12 run
    right to left along the bottom, 13–24 left to right along the top; the bar sits between
    points 6/7 and 18/19."""
    if p <= 12:
        i = 12 - p
        top = False
    else:
        i = p - 13
        top = True
    x = i + (1.0 if i >= 6 else 0.0)  # leave a column for the bar
    return x, top


def board(
    pos: np.ndarray,
    *,
    dice: Sequence[int] | None = None,
    title: str = "",
    names: tuple[str, str] = ("you", "TD-Gammon"),
    last_move: str = "",
) -> Any:
    """Draw a position from the mover's view (``pos``: int8[28], mover's checkers positive, moving
    from 24 towards 1, home board bottom right).  Stacks above 5 show their count."""
    p = np.asarray(pos)
    fig, ax = plt.subplots(figsize=(7.6, 4.6))
    ax.set_xlim(-0.7, 15.3)
    ax.set_ylim(-1.2, 11.6)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.add_patch(Rectangle((-0.5, 0), 13.0, 10.4, fc="#caa472", ec="#5a3d1e", lw=2))
    ax.add_patch(Rectangle((5.5, 0), 1.0, 10.4, fc="#8a6a44", ec="#5a3d1e"))
    for q in range(1, 25):
        x, top = _point_xy(q)
        col = "#7a2e1d" if q % 2 else "#e8dcc0"
        tri = [(x - 0.5, 10.4), (x + 0.5, 10.4), (x, 6.0)] if top else [(x - 0.5, 0), (x + 0.5, 0), (x, 4.4)]
        ax.add_patch(Polygon(tri, fc=col, ec="#5a3d1e", lw=0.5))
        ax.text(x, 10.75 if top else -0.4, str(q), ha="center", va="center", fontsize=7)
        n = int(p[q])
        if n:
            fc, ec = (LIGHT, DARK) if n > 0 else (DARK, LIGHT)
            for k in range(min(abs(n), 5)):
                y = 10.4 - 0.5 - 0.9 * k if top else 0.5 + 0.9 * k
                ax.add_patch(Circle((x, y), 0.43, fc=fc, ec=ec, lw=1))
            if abs(n) > 5:
                y = 10.4 - 0.5 - 0.9 * 4 if top else 0.5 + 0.9 * 4
                ax.text(x, y, str(abs(n)), ha="center", va="center", fontsize=8, color=ec, weight="bold")
    # bars: mover's checkers wait at the top of the bar (they enter into the opponent's home, top right)
    for n, y, fc, ec in ((int(p[25]), 7.0, LIGHT, DARK), (-int(p[0]), 3.4, DARK, LIGHT)):
        if n:
            ax.add_patch(Circle((6.0, y), 0.43, fc=fc, ec=ec, lw=1))
            ax.text(6.0, y, str(n), ha="center", va="center", fontsize=8, color=ec, weight="bold")
    ax.text(14.2, 1.0, f"{names[0]}\n(light) off: {int(p[26])}", ha="center", va="center", fontsize=8)
    ax.text(14.2, 9.4, f"{names[1]}\n(dark) off: {-int(p[27])}", ha="center", va="center", fontsize=8)
    from ..games.backgammon import pip_counts

    a, b = pip_counts(p.astype(np.int8))
    ax.text(14.2, 5.2, f"pips\n{a} – {b}", ha="center", va="center", fontsize=8)
    if dice is not None:
        for k, d in enumerate(dice):
            ax.add_patch(Rectangle((2.6 + 1.1 * k, 4.7), 0.9, 0.9, fc="white", ec="k"))
            ax.text(3.05 + 1.1 * k, 5.15, str(d), ha="center", va="center", fontsize=11, weight="bold")
    if last_move:
        ax.text(9.5, 5.15, last_move, ha="center", va="center", fontsize=8, style="italic")
    if title:
        ax.set_title(title, fontsize=10)
    fig.tight_layout()
    return fig


def learning_curves(
    curves: Mapping[str, tuple[np.ndarray, np.ndarray, np.ndarray]], title: str = "", log_x: bool = False
) -> Any:
    """Points per game against pubeval vs self-play training games (±1.96 s.e. bands)."""
    fig, ax = plt.subplots(figsize=(7, 4))
    for i, (label, (g, p, se)) in enumerate(curves.items()):
        x = np.maximum(g, 1) if log_x else g
        band(ax, x, p, 1.96 * se, color=PALETTE[i % len(PALETTE)], label=label)
    ax.axhline(0, color="k", lw=0.8)
    ax.set_xlabel("self-play training games")
    ax.set_ylabel("points per game vs pubeval")
    if log_x:
        ax.set_xscale("log")
    ax.set_title(title or "Learning curves (duplicate dice, cubeless, ±1.96 s.e.)")
    ax.legend()
    fig.tight_layout()
    return fig


def ladder(results: Mapping[str, Mapping[str, Mapping[str, float]]], title: str = "") -> Any:
    """Points per game ± 1.96 s.e. of each player (outer key) against each opponent (inner key):
    one row per opponent, the players side by side within it."""
    nets = list(results)
    opps: list[str] = []
    for r in results.values():
        opps += [o for o in r if o not in opps]
    fig, ax = plt.subplots(figsize=(7.5, 0.6 * len(opps) + 1.6))
    width = 0.7 / max(1, len(nets))
    for i, n in enumerate(nets):
        ys, xs, es = [], [], []
        for j, o in enumerate(opps):
            r = results[n].get(o)
            if r is not None:
                ys.append(j - 0.35 + width * (i + 0.5))
                xs.append(r["ppg"])
                es.append(1.96 * r["stderr"])
        if ys:
            ax.errorbar(xs, ys, xerr=es, fmt="o", ms=4, color=PALETTE[i % len(PALETTE)], label=n, capsize=2)
    ax.axvline(0, color="k", lw=0.8)
    ax.set_yticks(range(len(opps)), [f"vs {o}" for o in opps], fontsize=8)
    ax.set_ylim(len(opps) - 0.5, -0.5)
    ax.set_xlabel("points per game (cubeless, duplicate dice, ±1.96 s.e.)")
    ax.set_title(title or "The ladder")
    ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    return fig


def pwin_agreement(p_ours: np.ndarray, p_gnubg: np.ndarray, label: str = "net") -> Any:
    """The net's P(win) against gnubg's on positions from games, and the histogram of the error."""
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(9, 3.8))
    a1.plot(p_gnubg, p_ours, ".", ms=3, alpha=0.5, color=PALETTE[0])
    a1.plot([0, 1], [0, 1], "k--", lw=0.8)
    a1.set_xlabel("gnubg P(win), side on roll")
    a1.set_ylabel(f"{label} P(win)")
    a1.set_title("P(win) on positions from games")
    d = p_ours - p_gnubg
    a2.hist(d, bins=40, color=PALETTE[1])
    a2.axvline(0, color="k", lw=0.8)
    a2.set_xlabel(f"{label} − gnubg")
    a2.set_title(f"mean |error| {np.mean(np.abs(d)):.3f}, bias {np.mean(d):+.3f}")
    fig.tight_layout()
    return fig


def explore(data: Any) -> Any:
    """The panel's figure: the short run's learning curve and its match result."""
    from ..experiments.td_gammon import curve_arrays

    g, p, se = curve_arrays(data.log.curve)
    fig = learning_curves({data.label: (g, p, se)}, title=data.match.summary())
    fig.axes[0].title.set_fontsize(8)
    return fig
