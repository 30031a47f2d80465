"""Figures for notebook 01, Samuel's signature tables (Samuel (1973 note)).  Each function returns a figure."""

from __future__ import annotations

from typing import Any

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.patches import FancyBboxPatch

from ..plotting import band

COLOURS = {
    "tables": "#1f77b4",
    "tables (random assignment)": "#9ecae1",
    "Samuel's polynomial": "#d62728",
    "logistic": "#ff7f0e",
    "joint table": "#7f7f7f",
}


def _box(ax: Any, x: float, y: float, w: float, h: float, text: str, fc: str, fs: float = 7) -> None:
    ax.add_patch(FancyBboxPatch((x - w / 2, y - h / 2), w, h, boxstyle="round,pad=0.02", fc=fc, ec="#333333", lw=0.8))
    ax.text(x, y, text, ha="center", va="center", fontsize=fs)


def arrangement(storage: dict, groups: list[tuple[str, str, str]] | None = None) -> Any:
    """Samuel (1973 note) Fig. 1 redrawn: 27 quantized terms → 9 first-level tables (105 entries) → outputs
    requantized to 5 levels → 3 second-level tables (125) → requantized → the third-level table (343)."""
    arr = storage["arrangement"]
    fig, ax = plt.subplots(figsize=(11, 4.8))
    ax.set_xlim(-0.5, 27.5)
    ax.set_ylim(-0.6, 4.6)
    ax.axis("off")
    sizes, lv = arr.sizes, arr.node_levels
    x_in = np.arange(27) + 0.0
    for j in range(27):
        name = groups[j // 3][j % 3] if groups else f"t{j + 1}"
        _box(ax, x_in[j], 0, 0.9, 0.75, f"{name}\n{lv[j]}", "#f7f3e8", 6)
    x1 = np.array([3 * t + 1.0 for t in range(9)])
    for t in range(9):
        for j in arr.tables[t]:
            ax.plot([x_in[j], x1[t]], [0.38, 1.3], color="#999999", lw=0.6)
        _box(ax, x1[t], 1.6, 2.4, 0.6, f"table {t + 1}\n{sizes[t]} entries", "#c6dbef")
    x2 = np.array([np.mean(x1[3 * s : 3 * s + 3]) for s in range(3)])
    for s in range(3):
        for t in arr.tables[9 + s]:
            ax.plot([x1[t - 27], x2[s]], [1.9, 2.65], color="#999999", lw=0.8)
        _box(ax, x2[s], 2.95, 4.0, 0.6, f"second level {s + 1}: {sizes[9 + s]} entries", "#9ecae1")
    for s in range(3):
        ax.plot([x2[s], 13.0], [3.25, 3.85], color="#999999", lw=0.8)
    _box(ax, 13.0, 4.15, 6.5, 0.6, f"third level: {sizes[12]} entries → figure of merit", "#6baed6")
    ax.text(27.4, 2.25, f"requantized to {arr.output_levels[0]} levels", ha="right", fontsize=7, style="italic")
    ax.text(27.4, 3.55, f"requantized to {arr.output_levels[9]} levels", ha="right", fontsize=7, style="italic")
    ax.text(
        -0.4, -0.55,
        f"{arr.entries:,} entries in all; one joint table over the 27 terms would need {arr.joint_entries:.3e}",
        fontsize=8,
    )  # fmt: skip
    ax.set_title("Samuel's signature-table arrangement (Samuel (1973 note) Fig. 1): 27 → 9 → 3 → 1")
    return fig


def filling(story: dict) -> Any:
    """Training as counting: the share of first-level entries counted at least once along the stream."""
    fig, ax = plt.subplots(figsize=(5.5, 3.4))
    ax.plot(story["stream_positions"], np.array(story["filled"]) * 100, "o-", color=COLOURS["tables"])
    ax.set_xlabel("training positions counted")
    ax.set_ylabel("first-level entries counted (%)")
    ax.set_ylim(0, 100)
    ax.set_title("The 9 × 105 first-level entries filling up")
    return fig


def learning_curves(lc: dict, metric: str = "C") -> Any:
    """Held-out agreement against training-set size: median over seeds, band = min–max of the seeds.  The joint
    table is left out of the C panel: it ranks almost no alternative (unseen signatures tie), so its C rests on a
    handful of comparisons; its top-1 share counts those ties."""
    fig, ax = plt.subplots(figsize=(6.4, 4.0))
    x = np.array(lc["sizes"])
    for m, r in lc["methods"].items():
        if metric == "C" and m == "joint table":
            continue
        y = r[metric]
        med = np.median(y, axis=1)
        band(ax, x, med, None, label=m, color=COLOURS.get(m), marker="o", ms=3)
        ax.fill_between(x, y.min(axis=1), y.max(axis=1), color=COLOURS.get(m), alpha=0.2, lw=0)
    ax.set_xscale("log")
    ax.set_xlabel("training positions")
    ax.set_ylabel("Samuel's C = (L − H)/(L + H)" if metric == "C" else "teacher's move ranked first (share)")
    ax.set_title("Move agreement on held-out games" + (" (C)" if metric == "C" else " (top-1)"))
    ax.axhline(0, color="#444444", lw=0.6)
    ax.legend(fontsize=7)
    return fig


def variants(var: dict) -> Any:
    """Held-out C of the tables under each imbalance rule × requantization × training mode (median, min–max)."""
    keys = list(var)
    fig, ax = plt.subplots(figsize=(7.0, 3.4))
    med = [np.median(var[k]) for k in keys]
    lo = [np.median(var[k]) - np.min(var[k]) for k in keys]
    hi = [np.max(var[k]) - np.median(var[k]) for k in keys]
    ax.bar(range(len(keys)), med, yerr=[lo, hi], color="#6baed6", capsize=3)
    ax.set_xticks(range(len(keys)))
    ax.set_xticklabels([f"{r}\n{q}\n{m}" for r, q, m in keys], fontsize=7)
    ax.set_ylabel("held-out C")
    ax.set_title("The choices the note leaves open: imbalance rule / requantization / training")
    return fig


def heatmap(heat: dict) -> Any:
    """A first-level table's C over its two largest inputs (third input summed out by counts), with the
    number of position-moves counted in each cell."""
    C, n = heat["C"], heat["n"]
    names = heat["names"]
    fig, ax = plt.subplots(figsize=(5.2, 4.2))
    im = ax.imshow(np.where(n > 0, C, np.nan).T, origin="lower", cmap="RdBu", vmin=-1, vmax=1, aspect="auto")
    for i in range(C.shape[0]):
        for j in range(C.shape[1]):
            ax.text(i, j, f"{C[i, j]:+.2f}\n{int(n[i, j])}" if n[i, j] else "empty", ha="center", va="center",
                    fontsize=6)  # fmt: skip
    ax.set_xlabel(f"{names[0]} (level; 7 levels)")
    ax.set_ylabel(f"{names[1]} (level; 5 levels)")
    ax.set_title(f"C = (A − D)/(A + D) of the table {names[0]}/{names[1]}/{names[2]}", fontsize=9)
    fig.colorbar(im, ax=ax, shrink=0.8, label="C")
    return fig


def match(res: dict) -> Any:
    """Wins, draws and losses of the tables against the polynomial."""
    fig, ax = plt.subplots(figsize=(4.6, 2.6))
    vals = [res["wins"], res["draws"], res["losses"]]
    ax.barh(["wins", "draws", "losses"], vals, color=["#2ca02c", "#bbbbbb", "#d62728"])
    for i, v in enumerate(vals):
        ax.text(v, i, f" {v}", va="center", fontsize=8)
    ax.set_title(f"tables v polynomial: score {res['score']:.3f} ± {res['stderr']:.3f}", fontsize=9)
    ax.invert_yaxis()
    return fig


def explore(data: dict) -> Any:
    """The panel's figure: held-out C and top-1 of every method, and the first table's C."""
    fig, (a0, a1) = plt.subplots(1, 2, figsize=(10, 3.8))
    ms = list(data["scores"])
    c = [data["scores"][m]["C"] for m in ms]
    t = [data["scores"][m]["top1"] for m in ms]
    y = np.arange(len(ms))
    a0.barh(y - 0.2, c, 0.4, label="C", color=[COLOURS.get(m, "#777777") for m in ms])
    a0.barh(y + 0.2, t, 0.4, label="top-1", color="#cccccc")
    a0.set_yticks(y)
    a0.set_yticklabels(ms, fontsize=8)
    a0.invert_yaxis()
    a0.legend(fontsize=7)
    a0.set_title(f"held-out agreement, {data['n']} training positions", fontsize=9)
    h = data["heat"]
    im = a1.imshow(np.where(h["n"] > 0, h["C"], np.nan).T, origin="lower", cmap="RdBu", vmin=-1, vmax=1, aspect="auto")
    a1.set_xlabel(h["names"][0])
    a1.set_ylabel(h["names"][1])
    a1.set_title("first table's C", fontsize=9)
    fig.colorbar(im, ax=a1, shrink=0.8)
    fig.tight_layout()
    return fig
