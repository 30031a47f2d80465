"""Figures for notebook 01, Samuel's signature tables (Samuel (1973 note)).  Each function returns a figure."""

from __future__ import annotations

from typing import Any

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.colors import TwoSlopeNorm
from matplotlib.patches import FancyBboxPatch

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
    ax.set_xscale("log")
    ax.set_xlabel("master positions counted")
    ax.set_ylabel("first-level entries counted (%)")
    ax.set_ylim(0, 100)
    ax.set_title("The 9 × 105 first-level entries filling up")
    return fig


MAIN = ("tables", "Samuel's polynomial", "logistic")


def learning_curves(lc: dict) -> Any:
    """Held-out C and top-1 against training size: the mean over draws, band = 95 % bootstrap interval over
    held-out games (and draws of training games)."""
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.0))
    x = np.array(lc["sizes"])
    for ax, metric in zip(axes, ("C", "top1")):
        for m, r in lc["methods"].items():
            if m == "joint table" and metric == "C":
                continue
            main = m in MAIN
            y = r[metric]
            ax.plot(x, y["point"], "o-" if main else "--", color=COLOURS.get(m), ms=3, lw=1.4 if main else 0.9,
                    label=m)  # fmt: skip
            ax.fill_between(x, y["lo"], y["hi"], color=COLOURS.get(m), alpha=0.25 if main else 0.1, lw=0)
        ax.set_xscale("log")
        ax.set_xlabel("training positions (master games)")
        ax.set_ylabel("Samuel's C = (L − H)/(L + H)" if metric == "C" else "master's move ranked first (share)")
    axes[0].set_title("Move agreement on held-out master games (C)")
    axes[1].set_title("… and the master's move ranked first (top-1)")
    axes[1].legend(fontsize=7)
    fig.tight_layout()
    return fig


def curve_differences(lc: dict) -> Any:
    """The tables minus each linear model (C and top-1) against training size, 95 % paired bootstrap bands."""
    fig, axes = plt.subplots(1, 2, figsize=(11, 3.6))
    x = np.array(lc["sizes"])
    for ax, metric in zip(axes, ("C", "top1")):
        for lin, r in lc["diff"].items():
            y = r[metric]
            ax.plot(x, y["point"], "o-", color=COLOURS[lin], ms=3, label=f"tables − {lin}")
            ax.fill_between(x, y["lo"], y["hi"], color=COLOURS[lin], alpha=0.25, lw=0)
        ax.axhline(0, color="#444444", lw=0.7)
        ax.set_xscale("log")
        ax.set_xlabel("training positions (master games)")
        ax.set_ylabel(f"difference in {'C' if metric == 'C' else 'top-1 share'}")
    axes[0].set_title("Where would the tables overtake? (C)")
    axes[1].set_title("(top-1)")
    axes[0].legend(fontsize=7)
    fig.tight_layout()
    return fig


def _bars(ax: Any, names: list[str], rows: list[dict], metric: str, colour: Any) -> None:
    y = np.arange(len(names))
    v = np.array([r[metric] for r in rows])
    lo = np.array([r[metric + "_ci"][0] for r in rows])
    hi = np.array([r[metric + "_ci"][1] for r in rows])
    ax.barh(y, v, xerr=[v - lo, hi - v], color=colour, capsize=3)
    for i, val in enumerate(v):
        ax.text(hi[i], i, f"  {val:.3f}", va="center", fontsize=7)
    ax.set_yticks(y)
    ax.set_yticklabels(names, fontsize=8)
    if not ax.yaxis_inverted():
        ax.invert_yaxis()


def table_sweep(sw: dict, title: str, refs: dict[str, dict] | None = None) -> Any:
    """Held-out C and top-1 of the tables under each variant (95 % bootstrap intervals), their entries and the
    share of alternatives each ranks (the rest tie with the master's move); ``refs``: models drawn as lines."""
    rows = sw["rows"]
    names = list(rows)
    labels = [f"{n}  ({rows[n]['entries']:,} entries, ranks {rows[n]['decided']:.0%})" for n in names]
    fig, axes = plt.subplots(1, 2, figsize=(11.5, 0.45 * len(names) + 1.8), sharey=True)
    cols = ["#6baed6" if n != sw["base"] else COLOURS["tables"] for n in names]
    for ax, metric in zip(axes, ("C", "top1")):
        _bars(ax, labels, [rows[n] for n in names], metric, cols)
        for m, r in (refs or {}).items():
            ax.axvline(r[metric], color=COLOURS.get(m, "#444444"), lw=1.2, ls="--", label=f"{m} ({r[metric]:.3f})")
    axes[0].set_xlabel("held-out C")
    axes[1].set_xlabel("held-out top-1 share")
    if refs:
        axes[1].legend(fontsize=7, loc="lower right")
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    return fig


def teachers(tc: dict) -> Any:
    """The two teachers: each model trained on the masters' or the deep search's moves (as many positions),
    scored on held-out master moves and on held-out deep-search moves (95 % bootstrap intervals)."""
    fig, axes = plt.subplots(1, 2, figsize=(11, 3.4), sharex=True)
    for ax, test in zip(axes, ("masters", "deep search")):
        labels, vals, lo, hi, cols = [], [], [], [], []
        for teacher in ("masters", "deep search"):
            for m in MAIN:
                r = tc["rows"][teacher, test][m]
                labels.append(f"{m}, taught by {teacher}")
                vals.append(r["C"])
                lo.append(r["C"] - r["C_ci"][0])
                hi.append(r["C_ci"][1] - r["C"])
                cols.append(COLOURS[m] if teacher == "masters" else "#cccccc")
        y = np.arange(len(labels))
        ax.barh(y, vals, xerr=[lo, hi], color=cols, edgecolor=[COLOURS[m] for m in MAIN] * 2, capsize=3)
        ax.set_yticks(y)
        ax.set_yticklabels(labels if test == "masters" else [""] * len(labels), fontsize=8)
        ax.invert_yaxis()
        ax.set_xlabel("held-out C")
        ax.set_title(f"scored on held-out {'master' if test == 'masters' else 'deep-search'} moves", fontsize=9)
    fig.suptitle(f"Two teachers, {tc['positions']:,} training positions each", fontsize=10)
    fig.tight_layout()
    return fig


def calibration(cal: dict, cal_balanced: dict | None = None) -> Any:
    """Each final-table entry: (1 + C)/2 from the training counts against the share of held-out moves reaching
    it that the master played (marker area ∝ held-out moves)."""
    fig, ax = plt.subplots(figsize=(5.2, 4.6))
    sets = [(cal, "the note's rule: A += 1, D += 1", COLOURS["tables"])]
    if cal_balanced is not None:
        sets.append((cal_balanced, "A += k, prior 1", "#bbbbbb"))
    for c, label, col in sets:
        ax.scatter(c["implied"], c["share"], s=4 + 200 * c["n"] / c["n"].max(), color=col, alpha=0.6,
                   label=f"{label} (mean gap {c['error']:.3f})")  # fmt: skip
    ax.plot([0, 1], [0, 1], color="#444444", lw=0.7)
    ax.set_xlabel("(1 + C)/2 of the final-table entry (training counts)")
    ax.set_ylabel("share of held-out moves there the master played")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.legend(fontsize=7, loc="upper left")
    ax.set_title("C = (A − D)/(A + D) on unseen master moves", fontsize=10)
    return fig


def heatmap(heat: dict) -> Any:
    """A first-level table's C over its two largest inputs (third input summed out by counts), with the
    number of position-moves counted in each cell."""
    C, n = heat["C"], heat["n"]
    names = heat["names"]
    fig, ax = plt.subplots(figsize=(5.2, 4.2))
    norm = TwoSlopeNorm(vcenter=heat["base"], vmin=-1.0, vmax=1.0)
    im = ax.imshow(np.where(n > 0, C, np.nan).T, origin="lower", cmap="RdBu", norm=norm, aspect="auto")
    for i in range(C.shape[0]):
        for j in range(C.shape[1]):
            ax.text(i, j, f"{C[i, j]:+.2f}\n{int(n[i, j])}" if n[i, j] else "empty", ha="center", va="center",
                    fontsize=6)  # fmt: skip
    ax.set_xlabel(f"{names[0]} (level; 7 levels)")
    ax.set_ylabel(f"{names[1]} (level; 5 levels)")
    ax.set_title(
        f"C = (A − D)/(A + D) of the table {names[0]}/{names[1]}/{names[2]}\n(white: the table's overall "
        f"C, {heat['base']:+.2f}; blue: cells of moves the masters chose more often)",
        fontsize=8,
    )
    fig.colorbar(im, ax=ax, shrink=0.8, label="C")
    return fig


def matches(rr: dict) -> Any:
    """Each match's score per depth (± 1 s.e. over ballots) and pooled over the depths."""
    from ..experiments.checkers.signature_tables_play import pooled

    fig, ax = plt.subplots(figsize=(7.6, 3.8))
    pairs = list(rr)
    for i, pair in enumerate(pairs):
        p = pooled(rr[pair])
        depths = p["depths"]
        for j, d in enumerate(depths):
            s, e = p["by_depth"][d]
            y = i - 0.3 + 0.15 * j
            ax.errorbar(s, y, xerr=e, fmt="o", color="#999999", ms=3, capsize=2)
            ax.text(s + e + 0.003, y, f"depth {d}", va="center", fontsize=6, color="#777777")
        ax.errorbar(p["score"], i + 0.25, xerr=p["stderr"], fmt="D", color=COLOURS[pair[0]], ms=5, capsize=3)
        label = f"{p['score']:.3f} ± {p['stderr']:.3f} ({p['games']} games)"
        ax.text(p["score"] + p["stderr"] + 0.004, i + 0.25, label, va="center", fontsize=7)
    ax.axvline(0.5, color="#444444", lw=0.7)
    ax.set_ylim(len(pairs) - 0.5, -0.6)
    ax.set_xlim(min(0.35, ax.get_xlim()[0]), max(0.8, ax.get_xlim()[1]))
    ax.set_yticks(range(len(pairs)))
    ax.set_yticklabels([f"{a} v {b}" for a, b in pairs], fontsize=8)
    ax.set_xlabel("score of the first player per game (win 1, draw ½); grey: each depth, diamond: pooled")
    ax.set_title("Equal search on the 3-move ballots, colours swapped", fontsize=10)
    return fig


def explore(data: dict) -> Any:
    """The panel's figure: held-out C and top-1 of every model, and the first table's C."""
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
    a0.set_title(f"held-out agreement ({data['held_out']:,} positions), {data['n']:,} training positions", fontsize=9)
    h = data["heat"]
    norm = TwoSlopeNorm(vcenter=h["base"], vmin=-1.0, vmax=1.0)
    im = a1.imshow(np.where(h["n"] > 0, h["C"], np.nan).T, origin="lower", cmap="RdBu", norm=norm, aspect="auto")
    a1.set_xlabel(h["names"][0])
    a1.set_ylabel(h["names"][1])
    a1.set_title("first table's C", fontsize=9)
    fig.colorbar(im, ax=a1, shrink=0.8)
    fig.tight_layout()
    return fig
