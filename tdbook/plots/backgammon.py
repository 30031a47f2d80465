"""Figures for notebooks 08–10 (TD-Gammon, Powell (2000) ch. 5; the Symmetric gammon post (2011) and the campaign beyond
it).  Each function returns a figure; the board drawing and the play widget are in :mod:`tdbook.widgets.backgammon`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import matplotlib.pyplot as plt
import numpy as np

from ..experiments.backgammon.curves import curve_arrays
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
    """The panel's figure: the short run's learning curve (always measured against pubeval, as the axis says)
    and its final match against the chosen opponent, named as such in the title — drawn on the curve only when
    that opponent is pubeval too (another opponent's points per game are on another scale)."""
    g, p, se = curve_arrays(data.log.curve)
    m = data.match
    title = f"learning curve: points per game vs pubeval · final match vs {m.b}: {m.ppg:+.3f} ± {m.stderr:.3f}"
    fig = learning_curves({f"{data.label} (vs pubeval)": (g, p, se)}, title=title)
    ax = fig.axes[0]
    ax.title.set_fontsize(8)
    if m.b == "pubeval" and len(g):
        ax.errorbar([g[-1]], [m.ppg], yerr=[1.96 * m.stderr], fmt="D", color="k", capsize=3,
                    label=f"final match vs pubeval ({m.games} games)")  # fmt: skip
        ax.legend()
    return fig


# ----------------------------------------------------------------------------- notebook 09


def rival_curves(curves: list[Mapping[str, Any]], labels: Mapping[str, str]) -> Any:
    """Notebook 09's learning curves: each rival's seeds (thin) and their mean (thick), ppg vs pubeval."""
    fig, ax = plt.subplots(figsize=(7.5, 4.2))
    rivals = list(dict.fromkeys(c["rival"] for c in curves))
    for i, r in enumerate(rivals):
        mine = [c for c in curves if c["rival"] == r]
        col = PALETTE[i % len(PALETTE)]
        for c in mine:
            ax.plot(c["games"], c["ppg"], color=col, lw=0.8, alpha=0.45)
        g = np.asarray(mine[0]["games"])
        mean = np.mean([c["ppg"] for c in mine], axis=0)
        se = np.sqrt(np.sum([np.square(c["stderr"]) for c in mine], axis=0)) / len(mine)
        band(ax, g, mean, 1.96 * se, color=col, label=f"{labels[r]} ({len(mine)} seeds)")
    ax.axhline(0, color="k", lw=0.8)
    ax.set_xlabel("self-play training games")
    ax.set_ylabel("points per game vs pubeval")
    ax.set_title("Equal budgets: ppg against pubeval (duplicate dice, 1-ply, ±1.96 s.e. of the mean)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def reliability(ref: np.ndarray, pred: Mapping[str, np.ndarray], labels: Mapping[str, str], bins: int = 10) -> Any:
    """Reliability diagrams of the gammon outputs: each net's P(gammon win) and P(gammon loss) binned by
    its prediction, against gnubg's mean in the bin (the diagonal = agreement with gnubg)."""
    fig, axes = plt.subplots(1, 2, figsize=(10, 4.4), sharey=True)
    edges = np.linspace(0.0, 1.0, bins + 1)
    for ax, k, name in ((axes[0], 1, "P(gammon win)"), (axes[1], 2, "P(gammon loss)")):
        ax.plot([0, 1], [0, 1], color="k", lw=0.8, ls="--")
        for i, (n, pr) in enumerate(pred.items()):
            b = np.clip(np.digitize(pr[:, k], edges) - 1, 0, bins - 1)
            xs, ys, ns = [], [], []
            for j in range(bins):
                mask = b == j
                if mask.sum() >= 5:
                    xs.append(pr[mask, k].mean())
                    ys.append(ref[mask, k].mean())
                    ns.append(mask.sum())
            ax.plot(xs, ys, "o-", color=PALETTE[i % len(PALETTE)], ms=3, label=labels[n])
        ax.set_xlabel(f"net's {name}")
        ax.set_title(name)
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 1)
    axes[0].set_ylabel("gnubg's mean in the bin")
    axes[0].legend(fontsize=7)
    fig.suptitle("Reliability against gnubg 0-ply (bins of 0.1; bins with ≥ 5 positions)")
    fig.tight_layout()
    return fig


def class_errors(
    by_class: Mapping[str, Mapping[str, float]], counts: Mapping[str, int], labels: Mapping[str, str]
) -> Any:
    """Mean absolute error of P(win) against gnubg by position class, one bar per net."""
    fig, ax = plt.subplots(figsize=(7.5, 3.8))
    classes = list(counts)
    w = 0.8 / max(1, len(by_class))
    for i, (n, d) in enumerate(by_class.items()):
        x = np.arange(len(classes)) + (i - (len(by_class) - 1) / 2) * w
        ax.bar(x, [d[c] for c in classes], width=w, color=PALETTE[i % len(PALETTE)], label=labels[n])
    ax.set_xticks(np.arange(len(classes)), [f"{c}\n({counts[c]} positions)" for c in classes])
    ax.set_ylabel("mean |P(win) − gnubg|")
    ax.set_title("P(win) error by position class (gnubg 0-ply as referee)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def explore_rival(data: Mapping[str, Any]) -> Any:
    """The panel's figure: one rival's learning curve, its opening numbers in the title."""
    c = data["curve"]
    w, gw, gl = data["opening"]
    fig = learning_curves({data["label"]: (np.asarray(c["games"]), np.asarray(c["ppg"]), np.asarray(c["stderr"]))})
    fig.axes[0].set_title(f"{data['label']}: opening P(win) {w:.3f}, P(gw) {gw:.3f}, P(gl) {gl:.3f}", fontsize=9)
    return fig


def equity_loss(losses: Mapping[str, Mapping[str, Any]], labels: Mapping[str, str]) -> Any:
    """Equity lost per game by position class against gnubg (gnubg 0-ply judging each move): for each net a solid
    bar as the game is scored and beside it a hatched one with a backgammon valued as a gammon (the post's equity).
    Nets are named by the tag of their label (the part up to its first closing parenthesis)."""
    from matplotlib.patches import Patch

    nets = list(losses)
    classes = list(next(iter(losses.values()))["classes"])
    fig, ax = plt.subplots(figsize=(7.5, 4.2))
    w = 0.8 / max(1, len(nets))
    handles = []
    for i, n in enumerate(nets):
        x = np.arange(len(classes)) + (i - (len(nets) - 1) / 2) * w
        cl = losses[n]["classes"]
        colour = PALETTE[i % len(PALETTE)]
        ax.bar(x - w / 4, [cl[c]["loss"] for c in classes], width=w / 2, color=colour)
        ax.bar(
            x + w / 4,
            [cl[c]["loss_as_gammon"] for c in classes],
            width=w / 2,
            color="white",
            edgecolor=colour,
            hatch="///",
        )
        handles.append(Patch(color=colour, label=labels[n].split(")")[0] + ")"))
    handles.append(Patch(facecolor="white", edgecolor="0.3", hatch="///", label="a backgammon valued as a gammon"))
    ax.set_xticks(np.arange(len(classes)), classes)
    ax.set_ylabel("equity lost per game (cubeless points)")
    ax.set_title("Where the equity goes against gnubg-expert (each move judged by gnubg 0-ply)", fontsize=9)
    ax.legend(handles=handles, fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.1), ncol=2, frameon=False)
    fig.tight_layout()
    return fig


def lever_gains(levers: Sequence[Mapping[str, Any]]) -> Any:
    """Notebook 10's levers: each single change's gain against gnubg-expert (ppg ± 1.96 s.e., the two nets' report-seed
    ladders), one row per lever in the order of its table, coloured by its kind; a stage of a longer trial hollow."""
    fams = list(dict.fromkeys(v["family"] for v in levers))
    colour = {f: PALETTE[i % len(PALETTE)] for i, f in enumerate(fams)}
    marker = {f: "osD^v"[(i // len(PALETTE)) % 5] for i, f in enumerate(fams)}
    fig, ax = plt.subplots(figsize=(7.5, 0.22 * len(levers) + 1.4))
    for j, v in enumerate(levers):
        c = colour[v["family"]]
        ax.errorbar(
            v["gain"], j, xerr=1.96 * v["stderr"], fmt=marker[v["family"]], ms=4, capsize=2, color=c,
            mfc=c if v["pooled"] else "white",
        )  # fmt: skip
    ax.axvline(0, color="k", lw=0.8)
    ax.set_yticks(range(len(levers)), [v["lever"] for v in levers], fontsize=7)
    ax.set_ylim(len(levers) - 0.5, -0.5)
    ax.set_xlabel("ppg gained against gnubg-expert (report seeds, ±1.96 s.e.)")
    ax.set_title("What each single change bought", fontsize=9)
    from matplotlib.lines import Line2D

    handles = [Line2D([], [], marker=marker[f], ls="", color=colour[f], label=f) for f in fams]
    ax.legend(handles=handles, fontsize=7, loc="lower right")
    fig.tight_layout()
    return fig


def learning_runs(runs: Mapping[str, Mapping[str, Any]], opponent: str = "gnubg-expert") -> Any:
    """Notebook 10's learning curves: ppg ± 1.96 s.e. against ``opponent`` of each run's points against the games
    trained (report-seed ladders drawn solid, selection-seed curves dashed); a run whose claim fits only its later
    points has the first of those marked."""
    fig, ax = plt.subplots(figsize=(7.5, 4.2))
    for i, (label, r) in enumerate(runs.items()):
        c = PALETTE[i % len(PALETTE)]
        ls = "-" if r["seeds"] == "report" else "--"
        ax.errorbar(
            r["games"], r["ppg"], yerr=1.96 * np.asarray(r["stderr"]), fmt="o", ls=ls, ms=3, capsize=2, color=c,
            label=f"{label} ({r['seeds']} seeds)",
        )  # fmt: skip
        if r.get("fitted_from"):
            ax.axvline(r["fitted_from"], color=c, lw=0.8, ls=":")
    ax.axhline(0, color="k", lw=0.8)
    ax.set_xlabel("self-play training games (millions)")
    ax.set_ylabel(f"points per game vs {opponent}")
    ax.set_title(f"Learning curves against {opponent} (1-ply, cubeless, duplicate dice, ±1.96 s.e.)", fontsize=9)
    ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    return fig


def rollout_agreement(data: Mapping[str, Mapping[str, np.ndarray]]) -> Any:
    """Notebook 10's rollout diagnosis: each contact position's rollout by the net itself against the net's own equity
    of it, one panel per net (the diagonal: a net at one with its own play)."""
    fig, axes = plt.subplots(1, len(data), figsize=(3.0 * len(data) + 0.6, 3.3), sharex=True, sharey=True)
    axes = np.atleast_1d(axes)
    for i, (ax, (label, d)) in enumerate(zip(axes, data.items())):
        ax.errorbar(
            d["net"], d["rollout"], yerr=d["rollout_se"], fmt="o", ms=2.5, lw=0.5, color=PALETTE[i % len(PALETTE)],
        )  # fmt: skip
        lo = float(min(np.min(d["net"]), np.min(d["rollout"])))
        hi = float(max(np.max(d["net"]), np.max(d["rollout"])))
        ax.plot([lo, hi], [lo, hi], color="k", lw=0.8)
        ax.set_title(label, fontsize=8)
        ax.set_xlabel("the net's equity (ppg)")
    axes[0].set_ylabel("mean of its own play-outs (ppg)")
    fig.tight_layout()
    return fig
