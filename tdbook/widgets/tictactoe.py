"""The clickable tic-tac-toe board of notebooks 06 and 07: a person plays either side against any player
(Powell (2000) App. B.2 ``HumanPolicy``).  The game logic is :class:`tdbook.players.tictactoe_human.HumanSession`;
this module only draws it and forwards clicks.

``HumanBoard(opponents)`` takes one player or a ``{name: player}`` dict.  With *show the opponent's values*
on, each empty square shows the value the opponent gave it when it chose its last move.  A refused click
(an occupied square, after the game is over, not your turn) is shown as a message and changes nothing.
:meth:`HumanBoard.click` is what a button press calls, so the board is testable headlessly.
"""

from __future__ import annotations

from typing import Any

import ipywidgets as W

from ..games.tictactoe import X, square
from ..players.tictactoe_human import HumanSession
from . import preparing


class HumanBoard(W.VBox):
    """A clickable board: you against ``opponents`` (choose one in the dropdown), as X or as O."""

    @preparing("the board")
    def __init__(self, opponents: Any, human: str = "X", show_values: bool = True) -> None:
        self.session = HumanSession(opponents, human)
        self.who = W.Dropdown(options=list(self.session.opponents), description="opponent")
        self.side = W.ToggleButtons(options=["X", "O"], value=human, description="you play")
        self.show = W.Checkbox(value=show_values, description="show the opponent's values")
        self.new = W.Button(description="New game", icon="refresh")
        self.message = W.HTML()
        self.scoreline = W.HTML()
        self.cells = [W.Button(layout=W.Layout(width="72px", height="72px")) for _ in range(9)]
        for s, b in enumerate(self.cells):
            b.on_click(lambda _b, s=s: self.click(s))
        self.new.on_click(lambda _b: self.new_game())
        self.who.observe(lambda c: self._choose(opponent=c["new"]), names="value")
        self.side.observe(lambda c: self._choose(human=c["new"]), names="value")
        self.show.observe(lambda _c: self._draw(), names="value")
        grid = W.GridBox(self.cells, layout=W.Layout(grid_template_columns="repeat(3, 76px)"))
        super().__init__(
            [W.HBox([self.who, self.side]), W.HBox([self.new, self.show]), grid, self.message, self.scoreline]
        )
        self._draw()

    # the session's state, read through the board
    @property
    def code(self) -> int:
        return self.session.code

    @property
    def moves(self) -> list[int]:
        return self.session.moves

    @property
    def values(self) -> dict[int, float]:
        return self.session.values

    @property
    def score(self) -> dict[str, int]:
        return self.session.score

    @property
    def over(self) -> bool:
        return self.session.over

    def new_game(self) -> None:
        self.session.new_game()
        self._draw()

    def click(self, s: Any) -> bool:
        """Your move on square ``s``; False (with the reason shown) when refused."""
        try:
            return self.session.play(s)
        finally:
            self._draw()

    def _choose(self, **kw: str) -> None:
        self.session.choose(**kw)
        self._draw()

    def _draw(self) -> None:
        s_ = self.session
        self.message.value = f"<span style='color:#b00'>{s_.message}</span>" if s_.error else s_.message
        show = self.show.value and bool(s_.values)
        for s, b in enumerate(self.cells):
            p = square(s_.code, s)
            if p:
                b.description = "X" if p == X else "O"
                b.button_style = "danger" if p == X else "info"
                b.style.font_weight = "bold"
            else:
                v = s_.values.get(s) if show else None
                b.description = "" if v is None else f"{v:+.3f}"
                b.button_style = ""
                b.style.font_weight = "normal"
            b.tooltip = f"square {s}"
        self.scoreline.value = s_.scoreline()
