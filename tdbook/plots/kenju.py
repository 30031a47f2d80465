"""Figures for notebook 03 (the Kenju thesis).  Each function returns a figure; :func:`board` draws a position on an
axis (stones, the live lines of each colour, values or marks on the vacant points)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import matplotlib.pyplot as plt
import numpy as np

from ..experiments.kenju.kenju import GRID_X, GRID_Y, MARKED, POSITION_4_16, ModeResult, Trace, evaluation_grid
from ..experiments.kenju.ram import System1Run, System2Curve
from ..experiments.kenju.search import (
    CHOSEN_ON,
    FIG_4_24_CAUSES,
    FIG_4_24_PATHS,
    NODEPATIENCES,
    SearchStats,
    Work,
    reading_name,
)
from ..experiments.kenju.training import SCHEMES, FirstMoveBias, PerformanceCurves, Schemes, System4Comparison
from ..games.kenju import DX, DY, pattern_string, x_of, y_of
from ..learners.kenju_line_table import MAX, N_PATTERNS, REACHABLE, learnable_limit
from ..plotting import PALETTE, band

LINE_COLOURS = {1: "#E69F00", 2: "#0072B2"}  # White's lines, Black's lines


def board(
    ax: Any,
    moves: Sequence[tuple[int, int]],
    lines: Sequence[tuple[int, int, int, int, int]] = (),
    values: dict[tuple[int, int], int] | None = None,
    marks: dict[str, tuple[int, int]] | None = None,
    numbers: bool = False,
    extent: tuple[int, int, int, int] | None = None,
    title: str = "",
) -> Any:
    """Draw a position: White's stones open circles, Black's filled (White moved first); each live line a
    translucent bar over its five points, orange for White's, blue for Black's; ``values`` printed on points."""
    pts = list(moves) + list((values or {}).keys()) + [p for _, p in (marks or {}).items()]
    if extent is None:
        xs = [p[0] for p in pts] or [0]
        ys = [p[1] for p in pts] or [0]
        extent = (min(xs) - 1, max(xs) + 1, min(ys) - 1, max(ys) + 1)
    x0, x1, y0, y1 = extent
    for x in range(x0, x1 + 1):
        ax.plot([x, x], [y0, y1], color="#bbbbbb", lw=0.5, zorder=0)
    for y in range(y0, y1 + 1):
        ax.plot([x0, x1], [y, y], color="#bbbbbb", lw=0.5, zorder=0)
    for lx, ly, d, colour, _ in lines:
        dx, dy = int(DX[d]), int(DY[d])
        off = 0.08 * (d - 1.5)
        ax.plot(
            [lx + off * dy, lx + 4 * dx + off * dy],
            [ly - off * dx, ly + 4 * dy - off * dx],
            color=LINE_COLOURS[colour],
            alpha=0.18,
            lw=5,
            solid_capstyle="round",
            zorder=1,
        )
    for i, (x, y) in enumerate(moves):
        white = i % 2 == 0
        ax.scatter([x], [y], s=200, facecolor="white" if white else "black", edgecolor="black", lw=1.2, zorder=3)
        if numbers:
            ax.text(
                x, y, str(i + 1), ha="center", va="center", fontsize=6.5, color="black" if white else "white", zorder=4
            )
    for (x, y), v in (values or {}).items():
        ax.text(x, y, str(v), ha="center", va="center", fontsize=6, zorder=2)
    for name, (x, y) in (marks or {}).items():
        ax.scatter([x], [y], s=260, facecolor="none", edgecolor="#D55E00", lw=1.6, zorder=4)
        ax.text(x + 0.32, y + 0.32, name, color="#D55E00", fontsize=9, fontweight="bold", zorder=5)
    ax.set_xlim(x0 - 0.6, x1 + 0.6)
    ax.set_ylim(y0 - 0.6, y1 + 0.6)
    ax.set_aspect("equal")
    ax.grid(False)
    ax.set_xticks(range(x0, x1 + 1, 2))
    ax.set_yticks(range(y0, y1 + 1, 2))
    ax.tick_params(labelsize=7)
    if title:
        ax.set_title(title)
    return ax


def line_list(moves: Sequence[tuple[int, int]], lines: Sequence[tuple[int, int, int, int, int]], title: str) -> Any:
    """A game's position with its line-list (§2.2.3)."""
    fig, ax = plt.subplots(figsize=(6.5, 6.5))
    board(ax, moves, lines, numbers=True, title=title)
    return fig


def max_table(limit: np.ndarray | None = None, learned: np.ndarray | None = None) -> Any:
    """Fig. 4.14: MAX's value of each pattern (hatched: never met in play), the bound of the learning rule and,
    when given, a learned table."""
    limit = learnable_limit() if limit is None else limit
    order = sorted(range(N_PATTERNS), key=lambda p: (-MAX[p], p))
    fig, ax = plt.subplots(figsize=(11, 3.8))
    x = np.arange(N_PATTERNS)
    bars = ax.bar(x, MAX[order], color=PALETTE[0], alpha=0.8, label="MAX (Fig. 4.14)")
    for b, p in zip(bars, order):
        if not REACHABLE[p]:
            b.set_hatch("//")
            b.set_alpha(0.35)
    ax.step(x, limit[order], where="mid", color=PALETTE[1], label="most the learning rule can reach")
    if learned is not None:
        ax.plot(x, learned[order], "o", color=PALETTE[2], ms=4, label="a learned table")
    ax.set_xticks(x)
    ax.set_xticklabels([pattern_string(p) for p in order], rotation=90, fontfamily="monospace", fontsize=8)
    ax.set_ylabel("value (rank level)")
    ax.set_title(f"MAX: total {MAX.sum()}; reachable patterns {MAX[REACHABLE].sum()}; bound {limit.sum()}")
    ax.legend(loc="upper right")
    return fig


def value_maps() -> Any:
    """Figs 4.16–4.18: the position valued under effect A/C, B and the percentage setting (MAX table)."""
    fig, axes = plt.subplots(1, 3, figsize=(16, 5.6))
    moves = [p for pair in zip(POSITION_4_16["white"], POSITION_4_16["black"]) for p in pair]
    titles = {"A": "Fig. 4.16 effect A/C", "B": "Fig. 4.17 effect B", "percentage": "Fig. 4.18 percentage"}
    for ax, (effect, title) in zip(axes, titles.items()):
        g = evaluation_grid(effect)
        board(
            ax,
            moves,
            values={p: v for p, v in g.items() if not (effect == "percentage" and v == 0)},
            marks=MARKED,
            extent=(min(GRID_X), max(GRID_X), min(GRID_Y), max(GRID_Y)),
            title=title,
        )
    return fig


def modes(results: dict[str, ModeResult]) -> Any:
    """Fig. 4.13: results of MAX vs MAX with fixed modes (a–d), dynamic WA.140 vs WA.140 (e) and, not in the thesis,
    MAX vs MAX with the modes off (n), and one game each."""
    fig = plt.figure(figsize=(16, 7))
    ax = fig.add_subplot(2, 1, 1)
    labels = list(results)
    w = np.array([results[k].counts["white"] for k in labels], float)
    b = np.array([results[k].counts["black"] for k in labels], float)
    d = np.array([results[k].counts["draw"] for k in labels], float)
    n = w + b + d
    names = [f"({k}) W {results[k].modes[0]} / B {results[k].modes[1]}" for k in labels]
    ax.barh(names, w / n, color=PALETTE[4], label="White wins")
    ax.barh(names, b / n, left=w / n, color=PALETTE[0], label="Black wins")
    ax.barh(names, d / n, left=(w + b) / n, color="#cccccc", label="stopped at the cap")
    ax.invert_yaxis()
    ax.set_xlabel(f"share of {int(n[0])} games")
    ax.legend(loc="lower right", ncol=3)
    for i, k in enumerate(labels):
        a2 = fig.add_subplot(2, len(labels), len(labels) + i + 1)
        r = results[k]
        mv = [(int(x_of(c)), int(y_of(c))) for c in r.games.moves[0][: r.games.lengths[0]].tolist()]
        board(a2, mv, numbers=True, title=f"({k}) game 1")
    fig.tight_layout()
    return fig


def confidence(trace: Trace) -> Any:
    """Fig. 4.15: each player's CONFIDENCE and INTEREST before its moves, with the modes they set."""
    fig, (ax, ax2) = plt.subplots(1, 2, figsize=(14, 4.6), gridspec_kw={"width_ratios": [1.6, 1]})
    moves = np.arange(1, len(trace.moves) + 1)
    for s, name in ((0, "White"), (1, "Black")):
        m = trace.side == s
        ax.plot(moves[m], trace.confidence[m], "o-", color=PALETTE[4 * s], label=f"{name} CONFIDENCE")
        ax.plot(moves[m], trace.interest[m], "s:", color=PALETTE[4 * s], alpha=0.6, label=f"{name} INTEREST")
    ax.axhline(0, color="black", lw=0.8)
    ax.set_xlabel("move")
    ax.set_ylabel("value")
    ax.set_title("attacking above 0, defending below, both at 0")
    ax.legend(ncol=2)
    board(ax2, trace.moves, numbers=True, title="the game")
    return fig


def total_learning(s: Schemes, limit_total: int, long_totals: np.ndarray | None = None) -> Any:
    """Fig. 4.11 (1–6): total learning against training moves, median and central 90 % of the runs, one run thin."""
    fig, axes = plt.subplots(2, 3, figsize=(15, 7), sharey=True)
    x = np.arange(1, s.moves + 1)
    for ax, k in zip(axes.ravel(), SCHEMES):
        t = s.totals(k)
        lo, med, hi = np.quantile(t, [0.05, 0.5, 0.95], axis=0)
        ax.fill_between(x, lo, hi, color=PALETTE[0], alpha=0.2, lw=0)
        ax.plot(x, med, color=PALETTE[0], label="median")
        ax.plot(x, t[0], color=PALETTE[1], lw=0.9, label="one run")
        ax.set_title(f"({k}) {SCHEMES[k][0]}: {SCHEMES[k][1]}", fontsize=9)
        ax.set_xlabel("training moves")
    axes[0, 0].set_ylabel("total of the line table")
    axes[0, 0].legend()
    fig.suptitle(f"{t.shape[0]} runs per scheme; the bound of the rule is {limit_total} (the thesis: 306)")
    fig.tight_layout()
    return fig


def line_values(history: np.ndarray, title: str) -> Any:
    """Fig. 4.8: a learner's value of each pattern after each training move, and the pattern ranks."""
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(15, 5.5))
    order = sorted(range(N_PATTERNS), key=lambda p: (-MAX[p], p))
    im = ax1.imshow(history[:, order].T, aspect="auto", cmap="viridis", interpolation="nearest")
    ax1.set_yticks(range(N_PATTERNS))
    ax1.set_yticklabels([pattern_string(p) for p in order], fontfamily="monospace", fontsize=6.5)
    ax1.set_xlabel("training move")
    ax1.set_title(f"{title}: stored values")
    ax1.grid(False)
    ax2.grid(False)
    fig.colorbar(im, ax=ax1)
    changes = np.flatnonzero(np.diff(history.sum(1), prepend=0) > 0)
    ranks = np.array([len(set(h)) - np.searchsorted(np.unique(h), h) for h in history[changes]])
    im2 = ax2.imshow(ranks[:, order].T, aspect="auto", cmap="viridis_r", interpolation="nearest")
    ax2.set_yticks(range(N_PATTERNS))
    ax2.set_yticklabels([pattern_string(p) for p in order], fontfamily="monospace", fontsize=6.5)
    ax2.set_xticks(range(0, len(changes), max(1, len(changes) // 10)))
    ax2.set_xticklabels([str(c + 1) for c in changes[:: max(1, len(changes) // 10)]], fontsize=7)
    ax2.set_xlabel(f"the {len(changes)} moves with a change (Fig. 4.9's columns)")
    ax2.set_title("ranks (1 = best; Fig. 4.10)")
    fig.colorbar(im2, ax=ax2)
    fig.tight_layout()
    return fig


def performance(as_run: PerformanceCurves, powered: PerformanceCurves) -> Any:
    """Fig. 4.4 as the thesis ran it (one replicate, 10-game tests) and powered (mean of the replicates' tests)."""
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(13, 4.4))
    for i, (k, arr) in enumerate(as_run.curves().items()):
        ax1.plot(np.arange(1, arr.shape[1] + 1), arr[0], "o-", color=PALETTE[i], label=k)
    ax1.axhline(0, color="black", lw=0.7)
    ax1.set_title(f"as run: one replicate, {as_run.test_games}-game tests")
    ax1.set_xlabel("training game")
    ax1.set_ylabel("White wins − Black wins")
    ax1.legend()
    for i, (k, arr) in enumerate(powered.curves().items()):
        x = np.arange(1, arr.shape[1] + 1)
        m = arr.mean(0) / powered.test_games * 10
        h = 1.96 * arr.std(0, ddof=1) / np.sqrt(arr.shape[0]) / powered.test_games * 10 if arr.shape[0] > 1 else None
        band(ax2, x, m, h, label=k, color=PALETTE[i], marker="o")
    ax2.axhline(0, color="black", lw=0.7)
    ax2.set_title(f"powered: {powered.test_games} test games × {powered.W.shape[0]} replicates (per 10 games, 95 %)")
    ax2.set_xlabel("training game")
    ax2.legend()
    return fig


def first_move(fb: FirstMoveBias) -> Any:
    """Fig. 4.5: the histogram of 16 ten-game tests of MAX vs MAX, and the spread of their mean over repeats."""
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(12, 4))
    s = fb.as_run()
    bins = np.arange(-10.5, 11.5)
    ax1.hist(s, bins=bins, color=PALETTE[0], alpha=0.8)
    ax1.axvline(s.mean(), color=PALETTE[1], label=f"mean {s.mean():.2f}")
    ax1.set_xlabel("White wins − Black wins in 10 games")
    ax1.set_title(f"as run: {s.size} ten-game tests")
    ax1.legend()
    means = fb.scores.mean(1)
    ax2.hist(means, bins=30, color=PALETTE[2], alpha=0.8)
    c = fb.powered.counts()
    p = (c["white"] - c["black"]) / fb.powered.n * 10
    ax2.axvline(p, color=PALETTE[1], label=f"{fb.powered.n:,} games: {p:+.2f} per 10")
    ax2.axvline(0, color="black", lw=0.7)
    ax2.set_xlabel("mean of the 16 tests")
    ax2.set_title(f"{means.size} repeats of the 16 tests")
    ax2.legend()
    return fig


def deadends(best: SearchStats, others: Sequence[SearchStats] = ()) -> Any:
    """Fig. 4.24: paths per search and dead-end causes, printed vs the reading chosen on the NODEPATIENCE 1 column
    (the range of the other readings as grey bars); NODEPATIENCE 4 and 9 were held out of the choice."""
    fig, axes = plt.subplots(2, 3, figsize=(15, 7))
    for j, npat in enumerate(NODEPATIENCES):
        for i, (printed, key, labels) in enumerate(
            (
                (FIG_4_24_PATHS[npat], "paths", ["5", "4", "3", "2", "1"]),
                (FIG_4_24_CAUSES[npat], "causes", ["node-loop", "line-loop", "place-loop", "none"]),
            )
        ):
            ax = axes[i, j]
            x = np.arange(len(labels))
            ax.bar(x - 0.2, printed, 0.4, color="#999999", label="Fig. 4.24")
            ax.bar(x + 0.2, getattr(best, key)[npat], 0.4, color=PALETTE[0], label="reading chosen on NP 1")
            if others:
                vals = np.array([getattr(o, key)[npat] for o in others])
                ax.vlines(x + 0.2, vals.min(0), vals.max(0), color="#555555", lw=2.5, alpha=0.5, label="other readings")
            ax.set_xticks(x)
            ax.set_xticklabels(labels)
            role = "chosen on" if npat in CHOSEN_ON else "held out"
            ax.set_title(f"NODEPATIENCE {npat} ({role}): {'paths per search' if i == 0 else 'how paths ended'}")
            ax.set_ylabel("%")
    axes[0, 0].legend()
    fig.suptitle(f"MAXDEADENDS 5; the reading chosen on NODEPATIENCE 1: {reading_name(best.reading)}")
    fig.tight_layout()
    return fig


def work(w: Work) -> Any:
    """Figs 4.19–4.20: moves valued per search against MAXDEADENDS and against NODEPATIENCE."""
    fig, ax = plt.subplots(figsize=(6.4, 4))
    ax.plot(w.values, w.by_maxdeadends, "o-", label="MAXDEADENDS (NODEPATIENCE 4)")
    ax.plot(w.values, w.by_nodepatience, "s-", label="NODEPATIENCE (MAXDEADENDS 5)")
    ax.set_xlabel("parameter value")
    ax.set_ylabel("moves valued per search")
    ax.legend()
    return fig


def system1(runs: Sequence[System1Run], block: int = 20) -> Any:
    """System 1 against MAX: distance to the nearest stone, leap from the last move and empty directions of each
    side's moves, over training (means over runs and blocks of games)."""
    d = np.array([r.dist for r in runs])
    g = d.shape[1] // block * block
    x = np.arange(block, g + 1, block)
    fig, axes = plt.subplots(1, 3, figsize=(15, 4))
    for ax, (k, title) in zip(
        axes, enumerate(["distance to the nearest stone", "distance from the last move", "empty directions (of 4)"])
    ):
        for s, name in ((0, "System 1"), (1, "MAX")):
            y = d[:, :g, 2 * k + s].reshape(d.shape[0], -1, block).mean(axis=(0, 2))
            ax.plot(x, y, "o-", color=PALETTE[s], label=name)
        ax.set_title(title)
        ax.set_xlabel("training games")
    axes[0].legend()
    return fig


def system2(curves: dict[tuple[str, bool], list[System2Curve]]) -> Any:
    """System 2 taught by watching MAX: saturation and agreement with the teacher on held-out positions."""
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(13, 4.2))
    for i, ((bias, fix), cs) in enumerate(curves.items()):
        sat = np.mean([c.saturated for c in cs], axis=0)
        agr = np.mean([c.agree for c in cs], axis=0)
        ls = "-" if fix else "--"
        lab = f"{bias}{', detrain all first' if fix else ''}"
        ax1.plot(cs[0].games, sat, ls, color=PALETTE[i // 2], marker="o", ms=3, label=lab)
        ax2.plot(cs[0].games, agr, ls, color=PALETTE[i // 2], marker="o", ms=3, label=lab)
    ax1.set_title("saturation: strongest response shared")
    ax2.set_title("valued at the teacher's level")
    for ax in (ax1, ax2):
        ax.set_xlabel("training games watched")
        ax.set_ylabel("share of evaluations")
    ax1.legend(fontsize=7)
    return fig


def system4(c: System4Comparison) -> Any:
    """System 4 against System 3 (scheme 1): total learning against training moves (log scale)."""
    fig, ax = plt.subplots(figsize=(7, 4.2))
    x = np.arange(1, c.totals3.shape[1] + 1)
    for i, (t, name) in enumerate(((c.totals3, "System 3 (line questions)"), (c.totals4, "System 4 (move questions)"))):
        lo, med, hi = np.quantile(t, [0.05, 0.5, 0.95], axis=0)
        ax.fill_between(x, np.maximum(lo, 0.5), hi, color=PALETTE[i], alpha=0.2, lw=0)
        ax.plot(x, np.maximum(med, 0.5), color=PALETTE[i], label=name)
    ax.axhline(learnable_limit().sum(), color="black", lw=0.7, ls=":", label="System 3's bound (193)")
    ax.set_yscale("log")
    ax.set_xlabel("training moves")
    ax.set_ylabel("total of the line table")
    ax.legend()
    return fig


def explore(s: Schemes) -> Any:
    """The panel's figure: total learning of the runs of one scheme, against System 3's bound (a System 4 run may
    pass it, §4.10.2: the line says whose bound it is, since the panel's System 4 curves go far above it)."""
    k = next(k for k, runs in s.runs.items() if runs)
    t = s.totals(k)
    x = np.arange(1, s.moves + 1)
    fig, ax = plt.subplots(figsize=(7, 4))
    for row in t:
        ax.plot(x, row, color=PALETTE[0], alpha=0.25, lw=0.8)
    ax.plot(x, np.median(t, axis=0), color=PALETTE[1], label=f"median of {t.shape[0]} runs")
    ax.axhline(learnable_limit().sum(), color="black", ls=":", lw=0.8, label="System 3's bound (193)")
    ax.set_xlabel("training moves")
    ax.set_ylabel("total of the line table")
    ax.set_title(f"scheme {k} ({SCHEMES[k][0]}): {SCHEMES[k][1]}")
    ax.legend()
    return fig
