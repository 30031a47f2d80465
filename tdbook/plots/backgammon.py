"""Figures for notebook 08 (TD-Gammon; Powell (2000) ch. 5).  Each function returns a figure; the board
drawing and the play widget are in :mod:`tdbook.widgets.backgammon`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import matplotlib.pyplot as plt
import numpy as np

from ..experiments.backgammon_curves import curve_arrays
from ..plotting import PALETTE, band


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
    g, p, se = curve_arrays(data.log.curve)
    fig = learning_curves({data.label: (g, p, se)}, title=data.match.summary())
    fig.axes[0].title.set_fontsize(8)
    return fig
