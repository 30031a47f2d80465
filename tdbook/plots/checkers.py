"""Figures for checkers (notebook 02; Powell (2000) ch. 3).  Each function returns a matplotlib figure."""

from __future__ import annotations

from typing import Any

import matplotlib.pyplot as plt
from matplotlib.patches import Circle, FancyArrowPatch, Rectangle

from ..games.checkers import COLOUR, CheckersState, moves_of, piece_char

LIGHT, DARK = "#f0d9b5", "#8b5a2b"
BLACK_PIECE, WHITE_PIECE = "#1d1d1d", "#f7f3e8"


def _xy(square: int) -> tuple[float, float]:
    """Centre of standard square 1–32 in plot coordinates (square 1's row at the top, column 0 at the left)."""
    i = square - 1
    r = i // 4
    c = 2 * (i % 4) + (1 if r % 2 == 0 else 0)
    return c + 0.5, 7.5 - r


def square_centre(square: int) -> tuple[float, float]:
    """Centre of standard square 1–32 in the coordinates of :func:`empty_board`."""
    return _xy(square)


def empty_board(ax: Any) -> None:
    """The 8 × 8 board on ``ax`` (unit squares, Black's side at the top), without pieces."""
    ax.set_xlim(0, 8)
    ax.set_ylim(0, 8)
    ax.set_aspect("equal")
    ax.axis("off")
    for r in range(8):
        for c in range(8):
            ax.add_patch(Rectangle((c, 7 - r), 1, 1, fc=DARK if (r + c) % 2 else LIGHT, ec="none"))
    ax.add_patch(Rectangle((0, 0), 8, 8, fc="none", ec="#3b2a1a", lw=2))


def board(
    state: CheckersState,
    *,
    title: str | None = None,
    last_move: str | None = None,
    numbers: bool = True,
    show_moves: bool = False,
    ax: Any = None,
) -> Any:
    """Draw a position, Black at the top as in the books (square 1 top row): dark and light discs for Black's
    and White's pieces, a ring for a king, the square numbers, the path of ``last_move`` (text as the
    façade writes it) and, with ``show_moves``, every legal move of the side to move as an arrow."""
    if ax is None:
        fig, ax = plt.subplots(figsize=(4.6, 4.9))
    else:
        fig = ax.figure
    empty_board(ax)
    for s in range(1, 33):
        x, y = _xy(s)
        ch = piece_char(state, s)
        if numbers:
            ax.text(x - 0.42, y + 0.42, str(s), fontsize=6, color="#f6ecd9", ha="left", va="top")
        if ch == ".":
            continue
        fc, ec = (BLACK_PIECE, "#000000") if ch in "bB" else (WHITE_PIECE, "#555555")
        ax.add_patch(Circle((x, y), 0.36, fc=fc, ec=ec, lw=1.2, zorder=3))
        if ch.isupper():  # a king: an inner ring and a K
            ring = "#d4a017"
            ax.add_patch(Circle((x, y), 0.22, fc="none", ec=ring, lw=2.0, zorder=4))
            ax.text(x, y, "K", color=ring, fontsize=8, ha="center", va="center", fontweight="bold", zorder=5)
    if last_move:
        sq = [int(t) for t in last_move.replace("x", "-").split("-")]
        _path(ax, sq, "#d62728", lw=2.2)
    if show_moves:
        for m in moves_of(state):
            _path(ax, [m.frm, *m.path], "#1f77b4", lw=1.2, alpha=0.7)
    ax.set_title(title if title is not None else f"{COLOUR[state.side]} to move", fontsize=10)
    return fig


def _path(ax: Any, sq: list[int], color: str, **kw: Any) -> None:
    for a, b in zip(sq, sq[1:]):
        (x0, y0), (x1, y1) = _xy(a), _xy(b)
        ax.add_patch(
            FancyArrowPatch((x0, y0), (x1, y1), arrowstyle="-|>", mutation_scale=12, color=color, zorder=6, **kw)
        )
