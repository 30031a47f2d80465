"""Figures for notebook 05 (random walk; Powell (2000) §4.3–4.4, App. C).  Each function returns a figure."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import matplotlib.pyplot as plt
import numpy as np

from ..plotting import PALETTE, band

NAMES = ["A", "B", "C", "D", "E"]


def _finite(y: np.ndarray) -> np.ndarray:
    y = np.asarray(y, float)
    return np.where(np.isfinite(y), y, np.nan)


def appendix_c(
    printed: np.ndarray,
    ours: np.ndarray | None = None,
    ours_label: str = "ours",
    truth: np.ndarray | None = None,
    title: str = "App. C format",
) -> Any:
    """Estimates A–E and RMS per row (row k = before episode k), printed App. C vs ours (dashed)."""
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4))
    rows = np.arange(1, printed.shape[0] + 1)
    for i, name in enumerate(NAMES):
        ax1.plot(rows, printed[:, i], color=PALETTE[i], label=f"{name} App. C")
        if ours is not None:
            r = np.arange(1, ours.shape[0] + 1)
            ax1.plot(r, ours[:, i], color=PALETTE[i], ls="--", lw=1.1, label=f"{name} {ours_label}")
        if truth is not None:
            ax1.axhline(truth[i], color=PALETTE[i], lw=0.6, ls=":")
    ax1.set_xlabel("iteration (row; estimates before the episode)")
    ax1.set_ylabel("estimate")
    ax1.set_title(title)
    ax1.legend(ncol=2, fontsize=7)
    ax2.plot(rows, printed[:, 5], color="k", label="App. C RMS")
    if ours is not None and truth is not None:
        ax2.plot(
            np.arange(1, ours.shape[0] + 1),
            np.sqrt(np.mean((ours - truth) ** 2, axis=1)),
            "k--",
            lw=1.1,
            label=f"{ours_label} RMS",
        )
    ax2.set_xlabel("iteration")
    ax2.set_ylabel("RMS error over A–E")
    ax2.legend()
    fig.tight_layout()
    return fig


def deviations(printed: np.ndarray, replayed: np.ndarray) -> Any:
    """|replayed − printed| per value for the reconstructed exact chain, with the 4-decimal rounding limit."""
    fig, ax = plt.subplots(figsize=(6.4, 3.2))
    k = replayed.shape[0]
    dev = np.abs(replayed - printed[:k, :5])
    for i, name in enumerate(NAMES):
        ax.plot(np.arange(1, k + 1), dev[:, i], "o", ms=3, color=PALETTE[i], label=name)
    ax.axhline(5e-5, color="k", lw=0.8, ls="--", label="rounding limit 5e-5")
    ax.set_xlabel("App. C row")
    ax.set_ylabel("|replayed − printed|")
    ax.set_title("Replaying the reconstructed walks from row 1 (App. A rule)")
    ax.legend(ncol=3, fontsize=7)
    fig.tight_layout()
    return fig


def curves(
    groups: Sequence[tuple[str, Sequence[Any]]],
    title: str = "",
    ylim: tuple[float, float] | None = None,
    ncols: int | None = None,
) -> Any:
    """Panels of averaged RMS curves with 95% bands; ``groups`` = [(panel title, [Curve, ...]), ...]."""
    ncols = ncols or len(groups)
    fig, axes = plt.subplots(1, ncols, figsize=(5.2 * ncols, 4), squeeze=False, sharey=True)
    for ax, (name, cs) in zip(axes[0], groups):
        for i, c in enumerate(cs):
            x = np.arange(len(c.mean))
            lab = c.label + (f" ({100 * c.diverged:.0f}% runs diverge; median shown)" if c.diverged > 0 else "")
            if c.diverged > 0:
                ax.plot(x, _finite(c.median), color=PALETTE[i % len(PALETTE)], ls=":", label=lab)
            else:
                band(ax, x, c.mean, c.halfwidth, label=lab, color=PALETTE[i % len(PALETTE)])
        ax.set_title(name)
        ax.set_xlabel("episodes")
        ax.legend(fontsize=7)
        if ylim:
            ax.set_ylim(*ylim)
    axes[0][0].set_ylabel("RMS error (averaged over runs)")
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    return fig


def surface(surf: Any, episodes: Sequence[int] = (10, 100), ylim: tuple[float, float] = (0.0, 0.4)) -> Any:
    """RMS after 10 / 100 episodes against α, one line per λ (diverging settings are left out)."""
    fig, axes = plt.subplots(1, len(episodes), figsize=(5.2 * len(episodes), 4), sharey=True)
    axes = np.atleast_1d(axes)
    for ax, e in zip(axes, episodes):
        for i, lam in enumerate(surf.lambdas):
            y = np.where(np.isfinite(surf.at[e][i]), surf.at[e][i], np.nan)
            ax.plot(surf.alphas, y, "-o", ms=2.5, color=PALETTE[i % len(PALETTE)], label=f"λ={lam:g}")
        ax.set_xscale("log")
        ax.set_xlabel("α (log scale)")
        ax.set_title(f"after {e} episodes ({surf.trace} traces)")
        ax.set_ylim(*ylim)
        ax.legend(fontsize=7, ncol=2)
    axes[0].set_ylabel("mean RMS error")
    fig.tight_layout()
    return fig


def batch(res: Any) -> Any:
    """Batch TD(0) vs batch MC, RMS before each episode (Sutton & Barto Fig. 6.2 style)."""
    fig, ax = plt.subplots(figsize=(6.4, 4))
    for i, c in enumerate((res.td, res.mc)):
        band(ax, np.arange(len(c.mean)), c.mean, c.halfwidth, label=c.label, color=PALETTE[i])
    ax.set_xlabel("episodes")
    ax.set_ylabel("RMS error (averaged over runs)")
    ax.set_title("Batch updating")
    ax.legend()
    fig.tight_layout()
    return fig


def explore(data: dict[str, Any]) -> Any:
    """The widget's figure: averaged RMS curve and run 0's estimates against the true values."""
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 3.6))
    c = data["curve"]
    x = np.arange(len(c.mean))
    if c.diverged > 0:
        ax1.plot(x, _finite(c.median), label=f"{c.label}: median ({100 * c.diverged:.0f}% runs diverge)")
    else:
        band(ax1, x, c.mean, c.halfwidth, label=f"{c.label} ({c.runs} runs)")
    ax1.set_xlabel("episodes")
    ax1.set_ylabel("RMS error")
    ax1.set_ylim(bottom=0)
    ax1.legend()
    run0 = _finite(data["run0"])
    ax2.plot(data["names"], data["truth"], "ko-", label="true values")
    ax2.plot(data["names"], run0[0], "o:", color=PALETTE[5], label="initial")
    for k, col in ((min(10, len(run0) - 1), PALETTE[1]), (len(run0) - 1, PALETTE[0])):
        ax2.plot(data["names"], run0[k], "o-", color=col, label=f"run 0 after {k} episodes")
    ax2.set_ylim(-0.05, 1.05)
    ax2.set_title(f"start {data['start']}")
    ax2.legend(fontsize=7)
    fig.tight_layout()
    return fig
