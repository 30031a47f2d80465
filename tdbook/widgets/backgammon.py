"""Backgammon on screen (notebook 08; Powell (2000) ch. 5): a board drawing from the mover's view, and
:func:`play`, a clickable game against a TD-Gammon net — the board, the dice, a move box in standard
notation (``8/5 6/5``, ``bar/22``, ``6/off``, ``13/7*``, ``24/18(2)``) and the messages of the session
(:class:`tdbook.players.backgammon_human.HumanVsNet`), which keeps the rules and refuses a bad move with
the reason, changing nothing.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.patches import Circle, Polygon, Rectangle

from ..games.backgammon import pip_counts
from ..games.base import IllegalMove
from ..players.backgammon import NetPlayer
from ..players.backgammon_human import HumanVsNet
from . import preparing

LIGHT, DARK = "#f4f1ea", "#2b2b2b"


def _point_xy(p: int) -> tuple[float, bool]:
    """x of point p (1..24, mover's numbering) and whether it is on the top row.  Points 1–12 run
    right to left along the bottom, 13–24 left to right along the top; the bar sits between
    points 6/7 and 18/19."""
    if p <= 12:
        i = 12 - p
        top = False
    else:
        i = p - 13
        top = True
    x = i + (1.0 if i >= 6 else 0.0)  # leave a column for the bar
    return x, top


def board(
    pos: np.ndarray,
    *,
    dice: Sequence[int] | None = None,
    title: str = "",
    names: tuple[str, str] = ("you", "TD-Gammon"),
    last_move: str = "",
) -> Any:
    """Draw a position from the mover's view (``pos``: int8[28], mover's checkers positive, moving
    from 24 towards 1, home board bottom right).  Stacks above 5 show their count."""
    p = np.asarray(pos)
    fig, ax = plt.subplots(figsize=(7.6, 4.6))
    ax.set_xlim(-0.7, 15.3)
    ax.set_ylim(-1.2, 11.6)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.add_patch(Rectangle((-0.5, 0), 13.0, 10.4, fc="#caa472", ec="#5a3d1e", lw=2))
    ax.add_patch(Rectangle((5.5, 0), 1.0, 10.4, fc="#8a6a44", ec="#5a3d1e"))
    for q in range(1, 25):
        x, top = _point_xy(q)
        col = "#7a2e1d" if q % 2 else "#e8dcc0"
        tri = [(x - 0.5, 10.4), (x + 0.5, 10.4), (x, 6.0)] if top else [(x - 0.5, 0), (x + 0.5, 0), (x, 4.4)]
        ax.add_patch(Polygon(tri, fc=col, ec="#5a3d1e", lw=0.5))
        ax.text(x, 10.75 if top else -0.4, str(q), ha="center", va="center", fontsize=7)
        n = int(p[q])
        if n:
            fc, ec = (LIGHT, DARK) if n > 0 else (DARK, LIGHT)
            for k in range(min(abs(n), 5)):
                y = 10.4 - 0.5 - 0.9 * k if top else 0.5 + 0.9 * k
                ax.add_patch(Circle((x, y), 0.43, fc=fc, ec=ec, lw=1))
            if abs(n) > 5:
                y = 10.4 - 0.5 - 0.9 * 4 if top else 0.5 + 0.9 * 4
                ax.text(x, y, str(abs(n)), ha="center", va="center", fontsize=8, color=ec, weight="bold")
    # bars: mover's checkers wait at the top of the bar (they enter into the opponent's home, top right)
    for n, y, fc, ec in ((int(p[25]), 7.0, LIGHT, DARK), (-int(p[0]), 3.4, DARK, LIGHT)):
        if n:
            ax.add_patch(Circle((6.0, y), 0.43, fc=fc, ec=ec, lw=1))
            ax.text(6.0, y, str(n), ha="center", va="center", fontsize=8, color=ec, weight="bold")
    ax.text(14.2, 1.0, f"{names[0]}\n(light) off: {int(p[26])}", ha="center", va="center", fontsize=8)
    ax.text(14.2, 9.4, f"{names[1]}\n(dark) off: {-int(p[27])}", ha="center", va="center", fontsize=8)
    a, b = pip_counts(p.astype(np.int8))
    ax.text(14.2, 5.2, f"pips\n{a} – {b}", ha="center", va="center", fontsize=8)
    if dice is not None:
        for k, d in enumerate(dice):
            ax.add_patch(Rectangle((2.6 + 1.1 * k, 4.7), 0.9, 0.9, fc="white", ec="k"))
            ax.text(3.05 + 1.1 * k, 5.15, str(d), ha="center", va="center", fontsize=11, weight="bold")
    if last_move:
        ax.text(9.5, 5.15, last_move, ha="center", va="center", fontsize=8, style="italic")
    if title:
        ax.set_title(title, fontsize=10)
    fig.tight_layout()
    return fig


@preparing("the board")
def play(model, plies: int = 1, seed: int = 0) -> Any:
    """An ipywidgets panel to play against ``model`` (a TDGammon net): board, move box, messages."""
    import ipywidgets as W

    g = HumanVsNet(NetPlayer(model, plies), seed=seed)
    img = W.Image(format="png", layout=W.Layout(width="620px"))
    box = W.Text(placeholder="your move, e.g. 8/5 6/5", description="move", continuous_update=False)
    go = W.Button(description="Play", button_style="primary")
    new = W.Button(description="New game")
    status = W.HTML()
    log = W.HTML()

    def redraw(error: str = "") -> None:
        last = g.history[-1] if g.history else None
        dice = None if g.over or g.state.player != 0 else g.state.dice
        fig = board(
            g.human_view,
            dice=dice,
            names=("you", f"TD-Gammon {model.hidden}h"),
            last_move=f"{last.player}: {last.move}" if last else "",
        )
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=80)
        plt.close(fig)
        img.value = buf.getvalue()
        msg = f"<span style='color:#b00'>{error}</span><br>" if error else ""
        status.value = msg + g.message
        log.value = (
            "<small>" + " · ".join(f"{t.player} {t.dice[0]}-{t.dice[1]}: {t.move}" for t in g.history[-8:]) + "</small>"
        )

    played = {"last": False}  # did the box's last text get played? (then an empty Play click is no news)

    def on_play(_: Any = None) -> None:
        text = box.value
        if not text.strip():
            # A click on Play first takes the focus from the box, which commits its text: the move is
            # played by on_enter and the box emptied before this click arrives.  Nothing is left to play.
            if not played["last"]:
                redraw("Type a move in the box first, e.g. 8/5 6/5.")
            played["last"] = False
            return
        try:
            g.submit(text)
        except IllegalMove as e:
            played["last"] = False
            redraw(f"Not played — {e}")
            return
        played["last"] = True
        box.value = ""
        redraw()

    def on_enter(change: dict) -> None:  # Enter in the box (continuous_update=False)
        if change["new"].strip():
            on_play()

    def on_new(_: Any) -> None:
        g.new_game(g.seed + 1)
        redraw()

    go.on_click(on_play)
    box.observe(on_enter, names="value")
    new.on_click(on_new)
    redraw()
    panel = W.VBox([img, W.HBox([box, go, new]), status, log])
    panel.game = g
    return panel
