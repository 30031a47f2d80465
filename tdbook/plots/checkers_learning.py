"""Figures of notebook 02 §4–5 and §8 (Powell (2000) §3.3): rote learning, learning by generalization, TD-Leaf,
Samuel's first games.  Each function returns a matplotlib figure (the ladder's and the study's are in
:mod:`tdbook.plots.checkers_ladder`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import matplotlib.pyplot as plt
import numpy as np

from ..experiments.checkers.book_learning import BookGames
from ..experiments.checkers.match import MatchResult
from ..experiments.checkers.rote import PHASES, RoteTraining
from ..experiments.checkers.samuel import AlphaBeta
from ..experiments.checkers.tdleaf import TDLeaf
from ..learners.checkers_generalization import SAMUEL_TERMS
from ..plotting import PALETTE


def rote_store(t: RoteTraining, measure_at: int | None = None, window: int = 50) -> Any:
    """The store's size against games played, and the frontier hits per search by phase (moving windows)."""
    fig, (a0, a1) = plt.subplots(1, 2, figsize=(9.4, 3.6))
    g = np.arange(1, t.games + 1)
    a0.plot(g, t.size, color=PALETTE[0])
    if measure_at is not None:
        a0.axhline(measure_at, color=PALETTE[1], ls="--", lw=1, label=f"{measure_at:,} positions")
        a0.legend()
    a0.set_xlabel("games played")
    a0.set_ylabel("boards in the store")
    w = max(1, min(window, t.games))
    for k, name in enumerate(PHASES):
        boards = np.convolve(t.phases[:, k, 0], np.ones(w), "valid")
        hits = np.convolve(t.phases[:, k, 2], np.ones(w), "valid")
        with np.errstate(invalid="ignore", divide="ignore"):
            a1.plot(g[w - 1 :], hits / boards, color=PALETTE[k], label=name)
    a1.set_xlabel("games played")
    a1.set_ylabel(f"stored boards met at the frontier\nper search ({w}-game window)")
    a1.legend()
    return fig


def scores_by(labels: Sequence[str], results: Sequence[MatchResult], title: str = "") -> Any:
    """Scores ± 1.96 s.e. of a series of matches (e.g. by game phase, or by variant)."""
    fig, ax = plt.subplots(figsize=(max(4.0, 1.3 * len(labels) + 1), 3.4))
    x = np.arange(len(labels))
    sc = np.array([r.score for r in results])
    se = np.array([r.stderr for r in results])
    ax.bar(x, 100 * sc, yerr=196 * se, color=PALETTE[0], capsize=4)
    ax.axhline(50, color="#555", lw=1)
    ax.set_xticks(x, labels, rotation=15 if len(labels) > 3 else 0, ha="right" if len(labels) > 3 else "center")
    ax.set_ylabel("score (%), ± 95 %")
    lo = min(40.0, float(np.nanmin(100 * (sc - 2 * se))) - 2)
    hi = max(60.0, float(np.nanmax(100 * (sc + 2 * se))) + 2)
    ax.set_ylim(lo, hi)
    ax.set_title(title, fontsize=10)
    return fig


def weights_over_games(powers: np.ndarray, terms: Sequence[str], title: str = "") -> Any:
    """Alpha's coefficients after each game: sign · log2|coefficient| per term (blank: not in the polynomial)."""
    p = np.asarray(powers, dtype=float)
    v = np.where(p == 0, np.nan, np.sign(p) * (np.abs(p) - 1))
    fig, ax = plt.subplots(figsize=(9.4, 5.2))
    im = ax.imshow(v.T, aspect="auto", cmap="RdBu_r", vmin=-18, vmax=18, interpolation="nearest")
    ax.set_yticks(range(len(terms)), terms, fontsize=6)
    ax.set_xlabel("games played")
    ax.set_title(title, fontsize=10)
    fig.colorbar(im, ax=ax, label="sign · log₂ |coefficient|", shrink=0.8)
    ax.grid(False)
    return fig


def replacement_queue(picture: np.ndarray, per_game: np.ndarray, terms: Sequence[str], games: int) -> Any:
    """The term-replacement queue: which of the 38 terms are in the polynomial after each game (dark) and, below,
    the replacements per game."""
    fig, (a0, a1) = plt.subplots(2, 1, figsize=(9.4, 6.0), height_ratios=[4, 1], sharex=True)
    a0.imshow(picture[:games].T, aspect="auto", cmap="Greys", interpolation="nearest", vmin=0, vmax=1)
    a0.set_yticks(range(len(terms)), terms, fontsize=6)
    a0.set_title("in the polynomial (dark) or in the reserve queue (light), after each game", fontsize=10)
    a0.grid(False)
    a1.plot(np.arange(games), per_game[:games], color=PALETTE[1], lw=0.8)
    a1.set_ylabel("replaced")
    a1.set_xlabel("games played")
    return fig


def tdleaf_weights(history: np.ndarray, terms: Sequence[str], top: int = 10) -> Any:
    """TD-Leaf's θ after each game for the ``top`` terms largest at the end."""
    fig, ax = plt.subplots(figsize=(6.8, 3.8))
    k = np.argsort(-np.abs(history[-1]))[:top]
    g = np.arange(1, history.shape[0] + 1)
    for i, t in enumerate(k):
        # past the palette, the colours come back dashed: no two lines share colour and style
        style = ("-", "--", ":")[(i // len(PALETTE)) % 3]
        ax.plot(g, history[:, t], color=PALETTE[i % len(PALETTE)], ls=style, label=terms[t], lw=1.2)
    ax.set_xlabel("self-play games")
    ax.set_ylabel("θ (coefficient / 2^16)")
    ax.legend(ncol=2)
    return fig


def first_games(values: np.ndarray, printed: float, xlabel: str) -> Any:
    """Our seeded runs' values (a histogram) with the printed single run marked."""
    fig, ax = plt.subplots(figsize=(5.0, 3.0))
    v = np.asarray(values)
    ax.hist(v, bins=np.arange(v.min() - 0.5, v.max() + 1.5, max(1, (v.max() - v.min() + 1) // 15)), color=PALETTE[0])
    ax.axvline(printed, color=PALETTE[1], lw=2, label=f"printed: {printed:g}")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("seeded runs")
    ax.legend()
    return fig


def explore(run: AlphaBeta | BookGames | TDLeaf) -> Any:
    """The notebook's panel: a short run's coefficients over its games."""
    if isinstance(run, AlphaBeta):
        res = run.log["result"][: run.done]
        title = f"Alpha: won {(res > 0).sum()}, lost {(res < 0).sum()}, drew {(res == 0).sum()} of {run.done}"
        return weights_over_games(run.powers[: run.done], SAMUEL_TERMS, title)
    if isinstance(run, BookGames):
        a, c = run.log["agreed"][: run.done].sum(), run.log["choices"][: run.done].sum()
        title = f"{run.done} book games: the master's move found at {100 * a / max(c, 1):.1f} % of {c:,} positions"
        return weights_over_games(run.powers[: run.done], SAMUEL_TERMS, title)
    return tdleaf_weights(run.history[: run.done], SAMUEL_TERMS)
