"""Figures of notebook 02 §1–3 (Powell (2000) §3.1–3.2): the board's bit layouts, the α-β example of Figs 3.2–3.4,
node counts with and without plausibility ordering, the leaf plies of Samuel's ply rules.  Each function returns
a matplotlib figure."""

from __future__ import annotations

from typing import Any

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.patches import FancyArrowPatch

from ..experiments.checkers.lookahead import NodeCounts, TreeSearch
from ..games.checkers import samuel_bit
from ..plotting import PALETTE
from .checkers import empty_board
from .checkers import square_centre as _xy


def layouts(square: int = 14) -> Any:
    """The 32 playable squares numbered as bits of a word: consecutive (left) and in Samuel's 35-bit layout
    (right, bit positions 9, 18, 27 unused); arrows show the forward steps of a Black man on ``square`` and on
    the square in the next row, labelled with their shift."""
    fig, axes = plt.subplots(1, 2, figsize=(9.2, 4.8))
    for ax, (title, bit) in zip(
        axes,
        (("32 consecutive bits (bit = square − 1)", lambda s: s - 1), ("Samuel's 35-bit layout", samuel_bit)),
    ):
        empty_board(ax)
        for s in range(1, 33):
            x, y = _xy(s)
            ax.text(x, y + 0.12, str(bit(s)), ha="center", va="center", fontsize=10, color="white", weight="bold")
            ax.text(x, y - 0.28, f"sq {s}", ha="center", va="center", fontsize=6, color="#f6ecd9")
        for s0 in (square, square + 4):
            for s1 in (s0 + 4, s0 + 4 + (1 if (s0 - 1) // 4 % 2 == 0 else -1)):
                if not 1 <= s1 <= 32 or abs(_xy(s1)[0] - _xy(s0)[0]) != 1:
                    continue
                (x0, y0), (x1, y1) = _xy(s0), _xy(s1)
                ax.add_patch(
                    FancyArrowPatch((x0, y0), (x1, y1), arrowstyle="-|>", mutation_scale=12, color=PALETTE[4], lw=2)
                )
                dx = 0.22 if x1 > x0 else -0.5
                ax.text((x0 + x1) / 2 + dx, (y0 + y1) / 2, f"+{bit(s1) - bit(s0)}", color=PALETTE[4], fontsize=9,
                        weight="bold")  # fmt: skip
        ax.set_title(title, fontsize=10)
    return fig


def alpha_beta_tree(ts: TreeSearch, tree) -> Any:
    """Figs 3.2–3.4 redrawn: Player 1's moves (max), Player 2's replies (min) with their printed scores, the
    backed-up values, the chosen move, and the replies α-β never reads."""
    fig, ax = plt.subplots(figsize=(7.6, 3.6))
    ax.axis("off")
    ax.set_xlim(-1.7, 7.5)
    ax.set_ylim(-0.6, 2.6)
    ax.text(3.5, 2.35, f"Player 1 (max) = {ts.value:g}", ha="center", fontsize=10, weight="bold")
    n_leaf = sum(len(r) for _, r in tree)
    xs = np.linspace(0, 7, n_leaf)
    k = 0
    cut = dict(ts.cut)
    for (name, replies), v in zip(tree, ts.backed_up):
        lx = xs[k : k + len(replies)]
        bx = float(np.mean(lx))
        chosen = name == ts.chosen
        ax.plot([3.5, bx], [2.2, 1.35], color=PALETTE[2] if chosen else "#777", lw=2.4 if chosen else 1.2)
        bound = "≤ " if name in cut else ""
        ax.text(bx, 1.2, f"{name}\nmin {bound}{v:g}", ha="center", va="top", fontsize=8)
        for j, (x, val) in enumerate(zip(lx, replies)):
            read = not (name in cut and j >= cut[name])
            ax.plot([bx, x], [0.78, 0.2], color="#777" if read else "#bbb", ls="-" if read else ":")
            txt = f"{val:g}" if val is not None else "?"
            ax.text(x, 0.05, txt, ha="center", va="top", fontsize=10, color="black" if read else "#aaa")
            if not read:
                ax.text(x, -0.35, "pruned", ha="center", fontsize=7, color=PALETTE[1])
        k += len(replies)
    ax.text(-1.6, -0.02, "Player 2's\nreplies (min)", fontsize=8, color="#555", va="top")
    return fig


def node_counts(nc: NodeCounts) -> Any:
    """Nodes searched (summed over the positions) at fixed depth: minimax (the whole tree), α-β in generation
    order, α-β with plausibility ordering; and the effective branching factors."""
    fig, (a0, a1) = plt.subplots(1, 2, figsize=(9.0, 3.6))
    d = np.array(nc.depths)
    for y, lab, c in (
        (nc.minimax, "minimax (whole tree)", PALETTE[7]),
        (nc.alpha_beta, "α-β, generation order", PALETTE[1]),
        (nc.ordered, "α-β, plausibility order", PALETTE[0]),
    ):
        a0.semilogy(d, y / nc.positions, "o-", color=c, label=lab)
    a0.set_xlabel("depth (plies)")
    a0.set_ylabel("nodes per position")
    a0.legend()
    for k, lab, c in (
        ("minimax", "minimax", PALETTE[7]),
        ("alpha-beta", "α-β, generation order", PALETTE[1]),
        ("ordered", "α-β, plausibility order", PALETTE[0]),
    ):
        a1.plot(d[2:], nc.ebf(k), "o-", color=c, label=lab)
    a1.plot(d[2:], np.sqrt(nc.ebf("minimax")), "--", color=PALETTE[7], lw=1, label="√(minimax): O(B^(d/2))")
    a1.set_xlabel("depth d")
    a1.set_ylabel("(N(d) / N(d−2))^½")
    a1.set_title("effective branching factor", fontsize=10)
    a1.legend()
    return fig


def leaf_plies(samuel: np.ndarray, fixed: dict[int, np.ndarray], max_ply: int = 21) -> Any:
    """Where the searches stop: the share of leaves at each ply under Samuel's six rules and at fixed depths."""
    fig, ax = plt.subplots(figsize=(7.0, 3.4))
    p = np.arange(max_ply + 1)
    h = samuel[: max_ply + 1] / samuel.sum()
    ax.bar(p, h, color=PALETTE[0], label="Samuel's ply rules")
    for i, (d, hist) in enumerate(sorted(fixed.items())):
        ax.plot(p, hist[: max_ply + 1] / hist.sum(), "o", ms=6, mfc="none", color=PALETTE[1 + i], label=f"fixed {d}")
    ax.set_yscale("log")
    ax.set_xlabel("ply of the leaf (evaluated position)")
    ax.set_ylabel("share of leaves")
    ax.set_xticks(p)
    ax.legend()
    return fig
