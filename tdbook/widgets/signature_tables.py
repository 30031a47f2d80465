"""The "teach it" panel of notebook 01: a person plays Samuel's book.  A position from the held-out games is
shown with its legal moves ranked by the tables; the person picks the move they prefer and sees the A and D
counts of the chosen move's nine first-level cells change
(:class:`tdbook.experiments.signature_tables_panel.TeachSession`)."""

from __future__ import annotations

import html

import ipywidgets as W
import matplotlib.pyplot as plt

from ..experiments.signature_tables_panel import TeachSession


def teach_widget(draw, train_positions: int = 2000, seed: int = 0, train_games: int = 0, held_games: int = 0) -> W.VBox:
    """Board (drawn by ``draw(state, show_moves=True)``, e.g. :func:`tdbook.plots.checkers.board`), ranked moves,
    a move picker, "Teach" and "Next position" buttons, and the counts that changed."""
    s = TeachSession(train_positions, seed, train_games, held_games)
    pic, ranking, counts, msg = W.Output(), W.HTML(), W.HTML(), W.HTML()
    pick = W.Dropdown(description="preferred move", style={"description_width": "initial"})
    teach, nxt = W.Button(description="Teach", button_style="success"), W.Button(description="Next position")

    def show() -> None:
        pick.options = s.moves()
        rows = "".join(f"<tr><td>{html.escape(m)}</td><td>{v:+.3f}</td></tr>" for m, v in s.ranking())
        ranking.value = (
            f"<b>the tables' ranking</b> (figure of merit; the master played {html.escape(s.teacher_move())})"
            f"<table>{rows}</table><small>moves taught so far: {s.taught}</small>"
        )
        pic.clear_output(wait=True)
        with pic:
            fig = draw(s.state, show_moves=True)
            plt.show()
            plt.close(fig)

    def on_teach(_b=None) -> None:
        try:
            r = s.teach(pick.value)
        except ValueError as e:
            msg.value = f"<span style='color:#b00'>{html.escape(str(e))}</span>"
            return
        msg.value = ""
        rows = "".join(
            f"<tr><td>{html.escape(n)}</td><td>{a0:g}/{d0:g} → {a1:g}/{d1:g}</td><td>{c0:+.3f} → {c1:+.3f}</td></tr>"
            for (n, a0, d0, c0), (_, a1, d1, c1) in zip(r["before"], r["after"])
        )
        counts.value = (
            f"<b>{html.escape(r['move'])}</b>: figure of merit {r['root_before']:+.3f} → {r['root_after']:+.3f}"
            f"<table><tr><th>first-level table</th><th>A/D</th><th>C</th></tr>{rows}</table>"
        )
        show()

    def on_next(_b=None) -> None:
        s.next()
        counts.value = ""
        show()

    teach.on_click(on_teach)
    nxt.on_click(on_next)
    show()
    return W.VBox([W.HBox([pic, ranking]), W.HBox([pick, teach, nxt]), msg, counts])
