"""Figures of notebook 02's ladder and study (Powell (2000) §3.3): every checkers player on one Elo scale with
its book agreement, Samuel's learner along its runs against the ladder's average, the stabilisers' one-change
effects, and the learner's book agreement while it follows master games.  Each function returns a figure."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import matplotlib.pyplot as plt
import numpy as np

from ..experiments.checkers.ladder import Agreement
from ..experiments.common.ratings import Ratings
from ..plotting import PALETTE


def ladder(r: Ratings, agreement: Mapping[str, Agreement], highlight: Sequence[str] = ()) -> Any:
    """Left: every player's Elo (the anchor at 0) with its 95 % bootstrap interval, strongest at the top; right:
    its book agreement (share of held-out master moves played) ± 1.96 s.e.  A player who never scored (the
    random mover) is drawn at the left edge with an arrow: its rating is only known to be far below."""
    names = r.order()[::-1]
    fig, (a0, a1) = plt.subplots(1, 2, figsize=(10.0, 0.42 * len(names) + 1.4), sharey=True,
                                 gridspec_kw={"width_ratios": [1.6, 1.0]})  # fmt: skip
    y = np.arange(len(names))
    elo = np.array([r.of(n)[0] for n in names])
    lo = np.array([r.of(n)[1] for n in names])
    hi = np.array([r.of(n)[2] for n in names])
    floor = min(-250.0, float(np.min(lo[elo > -600])) - 60 if np.any(elo > -600) else -250.0)
    for i, n in enumerate(names):
        c = PALETTE[1] if n in highlight else PALETTE[0]
        if elo[i] < floor:
            a0.annotate("", xy=(floor, i), xytext=(floor + 60, i), arrowprops={"arrowstyle": "->", "color": c})
            a0.text(floor + 65, i, f"{elo[i]:,.0f}", va="center", fontsize=8, color=c)
            continue
        a0.errorbar(elo[i], i, xerr=[[elo[i] - lo[i]], [hi[i] - elo[i]]], fmt="o", color=c, capsize=3)
    a0.axvline(0, color="#777", lw=0.8)
    a0.set_yticks(y, names)
    a0.set_xlim(floor, max(150.0, float(np.max(hi)) + 30))
    a0.set_xlabel(f"Elo (95 % interval; {r.anchor} = 0)")
    ag = np.array([agreement[n].share for n in names])
    se = np.array([agreement[n].stderr for n in names])
    a1.errorbar(100 * ag, y, xerr=196 * se, fmt="s", color=PALETTE[2], capsize=3)
    a1.set_xlabel("master's move played (%, held-out games)")
    a1.grid(axis="x", alpha=0.3)
    return fig


def study_curves(curves: Mapping[str, Mapping[str, np.ndarray]], average: tuple[float, float, float]) -> Any:
    """Elo of Samuel's learner after each number of self-play games: every seeded run (thin), their mean with a
    95 % interval (band), per configuration; the ladder's average player at the equal search (grey)."""
    fig, ax = plt.subplots(figsize=(7.6, 4.0))
    m, lo, hi = average
    ax.axhspan(lo, hi, color="#bbb", alpha=0.4, lw=0)
    ax.axhline(m, color="#777", lw=1, label="ladder average (equal search)")
    for k, (name, c) in enumerate(curves.items()):
        g = np.asarray(c["games"], dtype=float)
        e = np.asarray(c["elo"])
        col = PALETTE[k % len(PALETTE)]
        for run in e:
            ax.plot(g, run, color=col, lw=0.6, alpha=0.35)
        mu = e.mean(axis=0)
        h = 2.0 * e.std(axis=0, ddof=1) / np.sqrt(e.shape[0]) if e.shape[0] > 1 else np.zeros_like(mu)
        ax.fill_between(g, mu - h, mu + h, color=col, alpha=0.2, lw=0)
        ax.plot(g, mu, "o-", color=col, label=f"{name} (mean of {e.shape[0]} runs)")
    ax.set_xscale("symlog", linthresh=10)
    ax.set_xlabel("self-play games (symmetric log scale)")
    ax.set_ylabel("Elo (material α-β = 0)")
    ax.legend(fontsize=8)
    return fig


def stabilisers(effects: Mapping[str, Mapping[str, tuple[float, float, float]]]) -> Any:
    """Each stabiliser's effect — the second series minus the same runs without it — on the Elo after the runs
    and on the game-to-game change of the coefficients (volatility), with 95 % intervals."""
    names = list(effects)
    fig, axes = plt.subplots(1, 2, figsize=(9.6, 0.5 * len(names) + 1.4), sharey=True)
    y = np.arange(len(names))[::-1]
    for ax, key, label, col in zip(axes, ("elo", "volatility"), ("Elo it adds", "volatility it removes"), PALETTE):
        m = np.array([effects[n][key][0] for n in names])
        lo = np.array([effects[n][key][1] for n in names])
        hi = np.array([effects[n][key][2] for n in names])
        ax.errorbar(m, y, xerr=[m - lo, hi - m], fmt="o", color=col, capsize=3)
        ax.axvline(0, color="#777", lw=0.8)
        ax.set_xlabel(label + " (95 % interval)")
    axes[0].set_yticks(y, names)
    return fig


def book_games(agreed: np.ndarray, choices: np.ndarray, window: int = 500) -> Any:
    """The learner's share of the master's moves found while it follows the training games (moving window)."""
    fig, ax = plt.subplots(figsize=(6.4, 3.2))
    w = max(1, min(window, agreed.size))
    a = np.convolve(agreed, np.ones(w), "valid")
    c = np.convolve(choices, np.ones(w), "valid")
    ax.plot(np.arange(w, agreed.size + 1), 100 * a / c, color=PALETTE[0])
    ax.set_xlabel("book games followed")
    ax.set_ylabel(f"master's move found (%)\n({w}-game window)")
    return fig
