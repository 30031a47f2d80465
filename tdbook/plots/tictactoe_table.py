"""Figures for notebook 06 (tic-tac-toe with TD(λ) tables; Powell (2000) §6.1–6.2, App. D).  Each function
returns a matplotlib figure."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import matplotlib.pyplot as plt
import numpy as np

from ..experiments.tictactoe.table_training import TrainResult
from ..games.tictactoe import X
from ..plotting import PALETTE

SIDE_NAMES = ("X", "O")


def games_text(n: int) -> str:
    """A number of games as a label says it: 500k, 1.5M, 12,345."""
    if n >= 1_000_000 and n % 100_000 == 0:
        return f"{n / 1_000_000:g}M"
    if n >= 1000 and n % 1000 == 0:
        return f"{n // 1000:,}k"
    return f"{n:,}"


def cumulative_label(res: TrainResult) -> str:
    """The y-axis label of the counters: cumulative since the run began, or within each chunk when the run
    restarts them (the thesis's 500k-game "boost")."""
    if res.chunks > 1:
        return f"% of games (cumulative within each {games_text(res.chunk)}-game chunk)"
    return "% of games (cumulative)"


def _curves(ax: Any, res: TrainResult, side: int, opponent: str, window: bool = True, upto: int | None = None) -> None:
    g = res.games_axis().ravel()
    cum = res.cumulative_percent().reshape(-1, 3)
    win = res.window_percent().reshape(-1, 3)
    me, opp = side, 1 - side
    keep = slice(None) if upto is None else g <= upto
    series = [
        (me, f"TD(λ) {SIDE_NAMES[side]} wins", PALETTE[0]),
        (opp, f"{opponent} {SIDE_NAMES[1 - side]} wins", PALETTE[1]),
        (2, "draws", PALETTE[2]),
    ]
    for k, label, col in series:
        if window:
            ax.plot(g[keep], win[keep, k], color=col, lw=0.4, alpha=0.25)
        ax.plot(g[keep], cum[keep, k], color=col, label=label)
    for c in range(1, res.chunks):
        b = c * res.chunk
        if upto is None or b <= upto:
            ax.axvline(b, color="k", lw=0.6, ls=":")
    ax.set_xlabel("games")
    ax.set_ylabel(cumulative_label(res))
    ax.set_ylim(0, 100)


def learning_curves(
    res: TrainResult,
    side: int,
    title: str,
    opponent: str = "random",
    thesis: Sequence[float] | None = None,
    crossover: int | None = None,
    upto: int | None = None,
) -> Any:
    """Figs 6.2–6.4 and 6.7: the counters ``main.cc`` prints every 1,000 games, as % since the chunk began
    (solid; they restart at every 500k-game chunk, the thesis's "boost") and per 1,000-game window (faint).
    ``thesis``: the final (win, draw, loss) the thesis reports, drawn as ticks at the right edge."""
    fig, ax = plt.subplots(figsize=(7.5, 4.2))
    _curves(ax, res, side, opponent, upto=upto)
    xmax = res.games if upto is None else upto
    if thesis is not None:
        w, d, loss = thesis
        for v, col in ((w, PALETTE[0]), (loss, PALETTE[1]), (d, PALETTE[2])):
            ax.plot([xmax * 1.01], [v], marker="<", color=col, ms=8, clip_on=False)
        ax.plot([], [], "k<", label="thesis, after 1.5 M games")
    if crossover is not None:
        ax.axvline(crossover, color=PALETTE[0], lw=0.8, ls="--", label=f"crossover {crossover:,} games")
    ax.set_title(title)
    ax.legend(loc="center right", fontsize=7)
    fig.tight_layout()
    return fig


def final_vs_thesis(labels: Sequence[str], ours: np.ndarray, tol: np.ndarray, thesis: np.ndarray, title: str) -> Any:
    """Final win/draw/loss %: our replicate means ± the 95 % interval of one more run (bars) against the thesis
    (markers), the interval each printed cell is judged by."""
    fig, ax = plt.subplots(figsize=(7, 3.6))
    n = len(labels)
    x = np.arange(n)
    for k, (name, col) in enumerate(zip(("win", "draw", "loss"), PALETTE)):
        ax.bar(
            x + (k - 1) * 0.27,
            ours[:, k],
            0.25,
            yerr=tol[:, k],
            color=col,
            alpha=0.8,
            capsize=3,
            label=f"ours: TD {name} %",
        )
        ax.plot(x + (k - 1) * 0.27, thesis[:, k], "k_", ms=16, mew=2)
    ax.plot([], [], "k_", ms=12, mew=2, label="thesis")
    ax.set_xticks(x, labels)
    ax.set_ylabel("% of games, last 500k-game chunk")
    ax.set_title(title)
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    return fig


def draw_rewards(runs: dict[float, Any]) -> Any:
    """Fig. 6.5: % of games drawn (cumulative within each chunk) for each draw reward; right: final
    win/draw/loss per reward (replicate means)."""
    fig, (ax, ax2) = plt.subplots(1, 2, figsize=(11, 4), gridspec_kw={"width_ratios": [2, 1]})
    for i, (d, s) in enumerate(sorted(runs.items())):
        r = s.runs[0]
        ax.plot(
            r.games_axis().ravel(),
            r.cumulative_percent().reshape(-1, 3)[:, 2],
            color=PALETTE[i],
            label=f"draw reward {d:+g}",
        )
    ax.set_xlabel("games")
    ax.set_ylabel("% of games drawn")
    ax.set_title("Fig. 6.5 — draws for each draw reward (TD(λ) as O, α=0.05)")
    ax.legend(fontsize=7)
    ds = sorted(runs)
    w = np.array([runs[d].wdl().mean(0) for d in ds])
    x = np.arange(len(ds))
    for k, (name, col) in enumerate(zip(("win", "draw", "loss"), PALETTE)):
        ax2.bar(x + (k - 1) * 0.27, w[:, k], 0.25, color=col, label=name)
    ax2.set_xticks(x, [f"{d:+g}" for d in ds])
    ax2.set_xlabel("draw reward")
    ax2.set_ylabel("% (last chunk, mean of replicates)")
    ax2.legend(fontsize=7)
    fig.tight_layout()
    return fig


def lambdas(early: dict[float, np.ndarray], log_every: int, smooth: int = 5, title: str = "") -> Any:
    """Fig. 6.6: TD(λ) wins per 1,000-game window (mean of replicates, moving average over ``smooth``
    windows) for each λ."""
    fig, ax = plt.subplots(figsize=(7.5, 4))
    cmap = plt.get_cmap("viridis")
    lams = sorted(early)
    for i, lam in enumerate(lams):
        y = early[lam]
        k = min(smooth, len(y))
        ys = np.convolve(y, np.ones(k) / k, mode="valid")
        x = (np.arange(len(ys)) + k) * log_every
        ax.plot(x, ys, color=cmap(i / max(len(lams) - 1, 1)), label=f"λ = {lam:g}")
    ax.set_xlabel("games")
    ax.set_ylabel("TD(λ) O wins, % per 1,000 games")
    ax.set_title(title or "Fig. 6.6 — wins for differing λ (α = 0.05)")
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    return fig


def _grid(ax: Any, values: np.ndarray, title: str, vmin: float, vmax: float, fmt: str = "{:.3f}") -> Any:
    im = ax.imshow(values.reshape(3, 3), cmap="viridis", vmin=vmin, vmax=vmax)
    for s in range(9):
        v = values[s]
        ax.text(
            s % 3,
            s // 3,
            "—" if np.isnan(v) else fmt.format(v),
            ha="center",
            va="center",
            color="k" if (np.isnan(v) or v >= (vmin + vmax) / 2) else "w",
            fontsize=9,
        )
    ax.set_xticks([])
    ax.set_yticks([])
    ax.set_title(title, fontsize=9)
    return im


def appendix_d(
    first_printed: dict[int, float],
    first_ours: np.ndarray,
    appd_values: np.ndarray,
    ours_values: np.ndarray,
    corr: float,
    games: int = 1_500_000,
) -> Any:
    """App. D: X's opening after-state values, printed (left) vs ours (mean of replicates, middle), and
    every transcribed App. D state against our mean value (right)."""
    fig, axs = plt.subplots(1, 3, figsize=(12, 3.8), gridspec_kw={"width_ratios": [1, 1, 1.3]})
    printed = np.array([first_printed.get(s, np.nan) for s in range(9)])
    mean = first_ours.mean(axis=0)
    lo, hi = float(np.nanmin([printed.min(), mean.min()])), float(np.nanmax([np.nanmax(printed), mean.max()]))
    _grid(axs[0], printed, "App. D (square 6 lost in the OCR)", lo, hi, "{:.4f}")
    _grid(axs[1], mean, f"ours, mean of {first_ours.shape[0]} runs", lo, hi)
    axs[2].plot(appd_values, ours_values, ".", ms=3, alpha=0.6)
    axs[2].plot([-1, 1], [-1, 1], "k:", lw=0.8)
    axs[2].set_xlabel("App. D value (printed)")
    axs[2].set_ylabel("our value (mean of runs)")
    axs[2].set_title(f"{len(appd_values)} transcribed X after-states, r = {corr:.2f}", fontsize=9)
    fig.suptitle(f"The learned X table (TD(λ) as X vs random O, λ = 0.5, α = 0.05, {games:,} games)", fontsize=10)
    fig.tight_layout()
    return fig


def board(
    code: int,
    values: dict[int, float] | None = None,
    choice: int | None = None,
    marks: dict[int, str] | None = None,
    title: str = "",
) -> Any:
    """A tic-tac-toe position with the values a player sees on the empty squares; ``choice`` ringed,
    ``marks`` label squares (e.g. 'a.' block, 'b.' win as in Fig. 6.8)."""
    fig, ax = plt.subplots(figsize=(3.6, 3.8))
    for k in (1, 2):
        ax.plot([k, k], [0, 3], "k", lw=2)
        ax.plot([0, 3], [k, k], "k", lw=2)
    for s in range(9):
        r, c = divmod(s, 3)
        cx, cy = c + 0.5, 2.5 - r
        p = (int(code) // 3**s) % 3
        if p:
            ax.text(
                cx,
                cy,
                "X" if p == X else "O",
                ha="center",
                va="center",
                fontsize=30,
                color=PALETTE[1] if p == X else PALETTE[0],
            )
            continue
        txt = []
        if marks and s in marks:
            txt.append(marks[s])
        if values is not None and s in values:
            txt.append(f"{values[s]:+.3f}")
        ax.text(cx, cy, "\n".join(txt), ha="center", va="center", fontsize=10)
        if choice == s:
            ax.add_patch(plt.Circle((cx, cy), 0.42, fill=False, color=PALETTE[2], lw=2))
    ax.set_xlim(0, 3)
    ax.set_ylim(0, 3)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.set_title(title, fontsize=9)
    fig.tight_layout()
    return fig


def table61(
    labels: Sequence[str], expected: np.ndarray, human: np.ndarray, exploiter: np.ndarray | None, title: str
) -> Any:
    """Table 6.1 per 20 games: expected opponent wins / TD wins / draws against the perfect player
    (bars), the wins of the opponent that best exploits each table (dots) and the thesis's games against
    its author (markers)."""
    fig, ax = plt.subplots(figsize=(8.5, 3.8))
    x = np.arange(len(labels))
    names = ("opponent wins", "TD(λ) wins", "draws")
    for k, (name, col) in enumerate(zip(names, (PALETTE[1], PALETTE[0], PALETTE[2]))):
        ax.bar(x + (k - 1) * 0.27, expected[:, k], 0.25, color=col, alpha=0.85, label=f"vs perfect: {name}")
        ax.plot(x + (k - 1) * 0.27, human[:, k], "k_", ms=14, mew=2)
    ax.plot([], [], "k_", ms=12, mew=2, label="thesis: vs the author")
    if exploiter is not None:
        ax.plot(x - 0.27, exploiter, "o", color=PALETTE[3], label="exploiting opponent's wins")
    ax.set_xticks(x, labels, rotation=15, fontsize=8)
    ax.set_ylabel("games out of 20")
    ax.set_ylim(0, 20.5)
    ax.set_title(title)
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    return fig


def ablation(
    names: Sequence[str], loss_o_random: np.ndarray, loss_sp_x: np.ndarray, loss_sp_o: np.ndarray, optimal_o: np.ndarray
) -> Any:
    """Ablation: P(loss) against the perfect player of greedy tables trained with each combination of the
    three corrections, and the share of O positions answered optimally."""
    fig, (ax, ax2) = plt.subplots(1, 2, figsize=(12, 4))
    y = np.arange(len(names))
    for k, (vals, label) in enumerate(
        ((loss_o_random, "O trained vs random"), (loss_sp_x, "X, self-play"), (loss_sp_o, "O, self-play"))
    ):
        ax.barh(y + (k - 1) * 0.27, 100 * np.asarray(vals), 0.25, color=PALETTE[k], label=label)
    ax.set_yticks(y, names, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("% of games lost against the perfect player (exact)")
    ax.legend(fontsize=7)
    ax2.barh(y, 100 * np.asarray(optimal_o), color=PALETTE[3])
    ax2.set_yticks(y, [])
    ax2.invert_yaxis()
    ax2.set_xlabel("% of O-to-move positions answered optimally (O trained vs random)")
    ax2.set_xlim(0, 100)
    fig.suptitle("Which correction of the thesis player matters?", fontsize=10)
    fig.tight_layout()
    return fig


def optimal_fractions(labels: Sequence[str], values: Sequence[float], spread: Sequence[float]) -> Any:
    """Share of reachable positions (side to move) where the greedy move is minimax-optimal."""
    fig, ax = plt.subplots(figsize=(6.5, 3.2))
    y = np.arange(len(labels))
    ax.barh(y, 100 * np.asarray(values), xerr=100 * np.asarray(spread), color=PALETTE[0], capsize=3)
    for i, v in enumerate(values):
        ax.text(100 * v + 1, i, f"{100 * v:.1f}%", va="center", fontsize=8)
    ax.set_yticks(y, labels, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlim(0, 110)
    ax.set_xlabel("% of positions with that side to move where the greedy move is optimal")
    fig.tight_layout()
    return fig


def explore(data: Any) -> Any:
    """The widget panel's view: learning curves and the greedy table's results."""
    res, side = data.result, data.side
    i = 0 if side == "X" else 1
    # the statistics and the legend beside the curves, never over them (a box inside hid the draws)
    fig, (ax, info) = plt.subplots(1, 2, figsize=(9.5, 4), gridspec_kw={"width_ratios": [3, 1.15]})
    _curves(ax, res, i, data.params["opponent"])
    ev = data.evaluation
    p = data.params
    ax.set_title(
        f"TD(λ) {p['version']} as {side} vs {p['opponent']}: α={p['alpha']:g}, λ={p['lam']:g}, "
        f"ε={p['epsilon']:g}, draw={p['draw_reward']:g}",
        fontsize=9,
    )
    txt = (
        f"states stored {ev.states:,}\n"
        f"greedy vs perfect: W {100 * ev.vs_perfect[0]:.1f} / D {100 * ev.vs_perfect[1]:.1f} / "
        f"L {100 * ev.vs_perfect[2]:.1f} %\n"
        f"greedy vs random: W {100 * ev.vs_random[0]:.1f} / D {100 * ev.vs_random[1]:.1f} / "
        f"L {100 * ev.vs_random[2]:.1f} %\noptimal moves {100 * ev.optimal:.1f} % of positions"
    )
    info.axis("off")
    info.legend(*ax.get_legend_handles_labels(), loc="upper left", fontsize=7)
    box = dict(boxstyle="round", fc="w", ec="0.7")
    info.text(0.0, 0.55, txt, transform=info.transAxes, va="top", fontsize=7, bbox=box)
    fig.tight_layout()
    return fig
