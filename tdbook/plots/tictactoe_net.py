"""Figures for notebook 07 (tic-tac-toe TD(λ) networks; Powell (2000) §6.6, Figs 6.10–6.16).

Each function returns a figure.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import matplotlib.pyplot as plt
import numpy as np

from ..experiments.tictactoe.net_training import NetRun
from ..plotting import PALETTE

OUTCOMES = ("X wins", "O wins", "draws")


def victories(run: NetRun, title: str, ax: Any = None, legend: bool = True) -> Any:
    """Percentage of victories during training, as ``main.cc`` printed it every 1,000 games (cumulative,
    thick) and per window of about 1 % of the run (thin) — the axes of Figs 6.10–6.16."""
    fig = None
    if ax is None:
        fig, ax = plt.subplots(figsize=(6.4, 3.6))
    x = run.games_axis()
    cum = run.cumulative_percent()
    k = max(1, len(x) // 100)  # the thin line: windows of k logged intervals (≤ ~100 points)
    n = (len(x) // k) * k
    counts = np.diff(run.log[k - 1 : n : k], axis=0, prepend=np.zeros((1, 3), dtype=run.log.dtype))
    win = 100.0 * counts / np.maximum(counts.sum(axis=1, keepdims=True), 1)
    for c in range(3):
        ax.plot(x[k - 1 : n : k], win[:, c], color=PALETTE[c], lw=0.6, alpha=0.4)
        ax.plot(x, cum[:, c], color=PALETTE[c], lw=1.8, label=f"{OUTCOMES[c]} (cumulative)")
    if run.nonfinite_game is not None:
        ax.axvline(run.nonfinite_game, color="k", ls=":", lw=1)
        ax.text(run.nonfinite_game, 97, " weights overflow", fontsize=7, va="top")
    ax.set_ylim(0, 100)
    ax.set_xlabel("training games")
    ax.set_ylabel("% of games")
    ax.set_title(title, fontsize=10)
    if legend:
        ax.legend(loc="center right", fontsize=7)
    if fig is not None:
        fig.tight_layout()
        return fig
    return ax


def victories_grid(runs: dict[str, NetRun], titles: dict[str, str]) -> Any:
    """Every run's :func:`victories` panel on one page."""
    keys = [k for k in titles if k in runs]
    cols = 3
    rows = int(np.ceil(len(keys) / cols))
    fig, axes = plt.subplots(rows, cols, figsize=(13, 3.1 * rows), squeeze=False)
    for i, k in enumerate(keys):
        victories(runs[k], titles[k], axes.flat[i], legend=i == 0)
    for ax in axes.flat[len(keys) :]:
        ax.set_visible(False)
    fig.tight_layout()
    return fig


def outputs(labels: Sequence[str], values: Sequence[np.ndarray]) -> Any:
    """Where every reachable after-state's output lands after training (one strip per net output)."""
    fig, ax = plt.subplots(figsize=(7.5, 0.45 * len(labels) + 1.4))
    rng = np.random.default_rng(0)
    for i, v in enumerate(values):
        v = np.asarray(v, float)
        ok = np.isfinite(v)
        y = i + rng.uniform(-0.3, 0.3, size=v.size)
        ax.scatter(v[ok], y[ok], s=2, alpha=0.25, color=PALETTE[i % len(PALETTE)], rasterized=True)
        if not ok.all():
            ax.text(1.02, i, f"{(~ok).mean():.0%} NaN", transform=ax.get_yaxis_transform(), fontsize=7, va="center")
    ax.set_yticks(range(len(labels)), labels)
    ax.set_xlabel("net output on each of the 5,477 reachable after-states (for the side that moved)")
    ax.axvline(1.0, color="k", lw=0.6, ls=":")
    ax.axvline(0.0, color="k", lw=0.6, ls=":")
    ax.axvline(-1.0, color="k", lw=0.6, ls=":")
    ax.set_xlim(-1.1, 1.1)
    ax.invert_yaxis()
    ax.set_title("Trained outputs: saturation and stuck units (§6.6)")
    fig.tight_layout()
    return fig


def training_traces(runs: dict[str, NetRun], keys: Sequence[str]) -> Any:
    """Mean output along play, share of negative TD errors and the largest |weight| during training."""
    fig, axes = plt.subplots(1, 3, figsize=(13, 3.6))
    for i, k in enumerate(keys):
        r = runs[k]
        x = r.games_axis()
        col = PALETTE[i % len(PALETTE)]
        axes[0].plot(x, r.flog[:, 0], color=col, label=k)
        axes[1].plot(x, 100 * r.flog[:, 1], color=col, label=k)
        w = np.where(np.isfinite(r.flog[:, 2]), r.flog[:, 2], np.nan)
        axes[2].plot(x, w, color=col, label=k)
        if r.nonfinite_game is not None:
            axes[2].axvline(r.nonfinite_game, color=col, ls=":", lw=1)
    axes[0].set_ylabel("mean V(next) over the window")
    axes[1].set_ylabel("% of TD errors δ < 0 (output 0)")
    axes[2].set_ylabel("max |weight|")
    axes[2].set_yscale("log")
    for ax in axes:
        ax.set_xlabel("training games")
    axes[0].legend(fontsize=7)
    fig.suptitle("What the thesis-mode nets do while they train", fontsize=11)
    fig.tight_layout()
    return fig


def ablation(rows: Sequence[Any], title: str) -> Any:
    """P(loss) against the perfect player as X and as O, and the share of optimal moves, per configuration."""
    labels = [r.config for r in rows]
    y = np.arange(len(rows))
    fig, axes = plt.subplots(1, 2, figsize=(11, 0.32 * len(rows) + 1.6), sharey=True)
    axes[0].barh(y - 0.2, [r.loss_x for r in rows], height=0.4, color=PALETTE[0], label="as X")
    axes[0].barh(y + 0.2, [r.loss_o for r in rows], height=0.4, color=PALETTE[1], label="as O")
    axes[0].set_xlabel("exact P(loss) vs the perfect player (greedy)")
    axes[0].set_xlim(0, 1)
    axes[0].legend(fontsize=7)
    axes[1].barh(y, [100 * r.optimal for r in rows], color=PALETTE[2])
    axes[1].set_xlabel("% of the 4,520 positions answered optimally")
    axes[1].set_xlim(50, 100)
    axes[0].set_yticks(y, labels)
    axes[0].invert_yaxis()
    fig.suptitle(title, fontsize=11)
    fig.tight_layout()
    return fig


def perfect_curve(curve: Sequence[dict[str, float]], title: str) -> Any:
    """Learning curve of the self-play net: P(loss) vs the perfect player and share of optimal moves."""
    g = np.array([c["games"] for c in curve])
    fig, ax = plt.subplots(figsize=(6.8, 3.8))
    ax.plot(g, [c["loss_x"] for c in curve], color=PALETTE[0], marker="o", ms=3, label="P(loss) as X")
    ax.plot(g, [c["loss_o"] for c in curve], color=PALETTE[1], marker="o", ms=3, label="P(loss) as O")
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel("self-play training games")
    ax.set_ylabel("exact P(loss) vs perfect player")
    ax2 = ax.twinx()
    ax2.plot(g, [100 * c["optimal"] for c in curve], color=PALETTE[2], marker="s", ms=3, label="optimal moves")
    ax2.axhline(95, color=PALETTE[2], ls=":", lw=1)
    ax2.set_ylabel("% positions answered optimally")
    ax2.set_ylim(50, 100)
    ax2.grid(False)
    h1, l1 = ax.get_legend_handles_labels()
    h2, l2 = ax2.get_legend_handles_labels()
    ax.legend(h1 + h2, l1 + l2, fontsize=7, loc="center right")
    ax.set_title(title, fontsize=10)
    fig.tight_layout()
    return fig


def explore(data: dict[str, Any]) -> Any:
    """The widget panel's view: training curve and where the outputs ended up."""
    r = data["run"]
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(11, 3.6), gridspec_kw=dict(width_ratios=[1.6, 1]))
    c = data["check"]
    victories(
        r,
        f"{r.params['version']} ({data['mode']}): P(loss) vs perfect X {c['loss_x']:.2f}, "
        f"O {c['loss_o']:.2f}; optimal {100 * c['optimal']:.1f}%",
        a1,
    )
    out = r.player.outputs()
    for k in range(out.shape[1]):
        v = out[:, k]
        a2.hist(v[np.isfinite(v)], bins=60, color=PALETTE[k], alpha=0.6, label=f"output {k}")
    a2.set_xlabel("output on every reachable after-state")
    a2.legend(fontsize=7)
    fig.tight_layout()
    return fig
