"""The "teach it" panel of notebook 01: a person plays Samuel's book.  A position from the held-out games is
shown on a clickable board with its legal moves ranked by the tables; the person picks the move they prefer —
a click on the piece, then on where it goes, or from the list — and sees the A and D counts of the chosen
move's nine first-level cells change (:class:`tdbook.experiments.checkers.signature_tables_panel.TeachSession`)."""

from __future__ import annotations

import html

import ipywidgets as W

from ..experiments.checkers.signature_tables_panel import TeachSession
from ..games.checkers import COLOUR, moves_of, piece_char
from . import preparing
from .checkers import BoardButtons

#: what the panel says under the board about one teach (see TeachSession: counting, not ranking first)
ONE_TEACH = (
    "Teach counts this position once more, as the training did: A + 1 in every entry the taught move reaches, "
    "D + 1 in every entry another legal move reaches. An entry shared with other moves gets their D's too, so "
    "one teach can leave the taught move where it was; teach it again and it climbs."
)


@preparing("the teaching board")
def teach_widget(train_positions: int = 2000, seed: int = 0, train_games: int = 0, held_games: int = 0) -> W.VBox:
    """Board (click a piece of the side to move, then its landing square), ranked moves, a move picker that
    starts on the master's move, "Teach" and "Next position" buttons, and the counts that changed."""
    s = TeachSession(train_positions, seed, train_games, held_games)
    ranking, counts, msg = W.HTML(), W.HTML(), W.HTML()
    pick = W.Dropdown(description="preferred move", style={"description_width": "initial"})
    teach, nxt = W.Button(description="Teach", button_style="success"), W.Button(description="Next position")
    picked: list[int] = []

    def on_square(sq: int) -> None:
        state = s.state
        legal = moves_of(state)
        if piece_char(state, sq).lower() == "bw"[state.side] and any(m.frm == sq for m in legal):
            picked[:] = [sq]
            msg.value = f"{sq} picked: click where it goes."
        elif picked:
            fits = [m.text for m in legal if m.frm == picked[0] and m.path[-1] == sq]
            if len(fits) == 1:
                pick.value = fits[0]
                msg.value = f"{html.escape(fits[0])} chosen: press Teach to count it as preferred."
            elif fits:
                msg.value = f"several captures end on {sq}: choose one in the list ({html.escape(', '.join(fits))})."
            else:
                msg.value = f"<span style='color:#b00'>{picked[0]} cannot go to {sq}: pick again.</span>"
            picked.clear()
        else:
            msg.value = (
                f"<span style='color:#b00'>square {sq} holds no piece of {COLOUR[state.side]} that can move: "
                "click one of those first.</span>"
            )
        board.show(state, picked)

    board = BoardButtons(on_square)

    def show() -> None:
        pick.options = s.moves()
        pick.value = s.teacher_move()  # a legal move from the start: the one the master played
        rows = "".join(f"<tr><td>{html.escape(m)}</td><td>{v:+.3f}</td></tr>" for m, v in s.ranking())
        ranking.value = (
            f"<b>{COLOUR[s.state.side]} to move</b>; the tables' ranking (figure of merit; the master played "
            f"{html.escape(s.teacher_move())})<table>{rows}</table><small>moves taught so far: {s.taught}</small>"
        )
        picked.clear()
        board.show(s.state)

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
        taught = r["move"]
        show()
        pick.value = taught  # teach the same move again with one press

    def on_next(_b=None) -> None:
        s.next()
        counts.value = msg.value = ""
        show()

    teach.on_click(on_teach)
    nxt.on_click(on_next)
    show()
    box = W.VBox(
        [
            W.HBox([board, ranking], layout=W.Layout(flex_flow="row wrap", grid_gap="12px")),
            W.HBox([pick, teach, nxt]),
            W.HTML(f"<small>{html.escape(ONE_TEACH)}</small>"),
            msg,
            counts,
        ]
    )
    box.session = s  # the teaching session (what tests and a curious reader can inspect)
    return box
