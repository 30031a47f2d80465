"""The human player (App. B.2 ``HumanPolicy``) as an ipywidgets 3×3 board: play either side against any player.

``HumanBoard(opponents)`` takes one player or a ``{name: player}`` dict; a player is anything with
``move(code) -> square`` (a :class:`tdbook.players.tictactoe.Player`, a net from notebook 07, …).
When the opponent also has ``square_values(code) -> {square: value}``, the board shows on each empty
square the value the opponent gave it when it chose its last move (its after-state value), so you can
see what the learner was thinking.  Clicking an occupied square, clicking after the game is over, or
clicking while it is not your turn, or a square outside 0..8, is refused with a message and changes nothing
(App. B.2 re-asked for ``x y`` until the square was empty).  An opponent that answers with an illegal
square raises ValueError naming it, and your move is taken back (the board is as before the click).

The board is plain Python (no kernels) and testable headlessly: :meth:`HumanBoard.click` is what a
button press calls.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import ipywidgets as W

from ..games.tictactoe import (
    DRAW,
    ONGOING,
    STATUS,
    X_WINS,
    IllegalMove,
    O,
    TicTacToe,
    X,
    board_string,
    check_square,
    square,
    to_move,
)


class HumanBoard(W.VBox):
    """A clickable board: you against ``opponents`` (choose one in the dropdown), as X or as O."""

    def __init__(self, opponents: Any, human: str = "X", show_values: bool = True) -> None:
        if not isinstance(opponents, Mapping):
            opponents = {getattr(opponents, "name", "opponent") or "opponent": opponents}
        if not opponents:
            raise ValueError("HumanBoard needs at least one opponent")
        for name, p in opponents.items():
            if not callable(getattr(p, "move", None)):
                raise ValueError(f"opponent {name!r} has no move(code) method")
        if human not in ("X", "O"):
            raise ValueError(f"human must be 'X' or 'O', got {human!r}")
        self.game = TicTacToe()
        self.opponents = dict(opponents)
        self.who = W.Dropdown(options=list(self.opponents), description="opponent")
        self.side = W.ToggleButtons(options=["X", "O"], value=human, description="you play")
        self.show = W.Checkbox(value=show_values, description="show the opponent's values")
        self.new = W.Button(description="New game", icon="refresh")
        self.message = W.HTML()
        self.scoreline = W.HTML()
        self.cells = [W.Button(layout=W.Layout(width="72px", height="72px")) for _ in range(9)]
        for s, b in enumerate(self.cells):
            b.on_click(lambda _b, s=s: self.click(s))
        self.new.on_click(lambda _b: self.new_game())
        for w in (self.who, self.side):
            w.observe(lambda _c: self.new_game(), names="value")
        self.show.observe(lambda _c: self._draw(), names="value")
        self.score = {"you": 0, "opponent": 0, "draws": 0}
        grid = W.GridBox(self.cells, layout=W.Layout(grid_template_columns="repeat(3, 76px)"))
        super().__init__(
            [W.HBox([self.who, self.side]), W.HBox([self.new, self.show]), grid, self.message, self.scoreline]
        )
        self.new_game()

    # ------------------------------------------------------------------ state

    @property
    def opponent(self) -> Any:
        return self.opponents[self.who.value]

    @property
    def human_piece(self) -> int:
        return X if self.side.value == "X" else O

    @property
    def over(self) -> bool:
        return STATUS[self.code] != ONGOING

    def new_game(self) -> None:
        """Clear the board; if you play O, the opponent opens."""
        self.code = 0
        self.values: dict[int, float] = {}
        self.moves: list[int] = []
        self._say("Your move." if self.side.value == "X" else "")
        if self.side.value == "O":
            self._opponent_moves()
        self._draw()

    def click(self, s: int) -> bool:
        """Your move on square ``s``; returns False (and says why) when the move is refused."""
        try:
            s = check_square(s)
        except IllegalMove as e:
            self._say(f"{e} — choose an empty square.", error=True)
            return False
        if self.over:
            self._say("The game is over — press <b>New game</b>.", error=True)
            return False
        if to_move(self.code) != self.human_piece:
            self._say("It is not your turn.", error=True)
            return False
        if square(self.code, s) != 0:
            taken = "X" if square(self.code, s) == X else "O"
            self._say(
                f"Square {s} (row {s // 3}, column {s % 3}) is taken by {taken} — choose an empty square.", error=True
            )
            return False
        before = (self.code, list(self.moves), dict(self.values), self.message.value)
        self.code = self.game.apply(self.code, s)
        self.moves.append(s)
        self.values = {}
        if not self.over:
            try:
                self._opponent_moves()
            except Exception:  # the opponent failed (e.g. answered an illegal square): take your move back
                self.code, self.moves, self.values, self.message.value = before
                self._draw()
                raise
        self._finish_or_prompt()
        self._draw()
        return True

    # ------------------------------------------------------------------ internals

    def _opponent_moves(self) -> None:
        p = self.opponent
        sv = getattr(p, "square_values", None)
        self.values = dict(sv(self.code)) if callable(sv) else {}
        s = p.move(self.code)
        try:
            nxt = self.game.apply(self.code, s)
        except IllegalMove as e:
            raise ValueError(
                f"opponent {self.who.value!r} answered board {board_string(self.code)} with an illegal move: {e}"
            ) from None
        self.code = nxt
        self.moves.append(int(s))
        if not self.over:
            self._say(f"{self.who.value} played square {s}. Your move.")

    def _finish_or_prompt(self) -> None:
        st = STATUS[self.code]
        if st == ONGOING:
            return
        if st == DRAW:
            self.score["draws"] += 1
            self._say("Game ended in a draw.")
        elif (st == X_WINS) == (self.human_piece == X):
            self.score["you"] += 1
            self._say("Congratulations, you won!")
        else:
            self.score["opponent"] += 1
            self._say(f"Sorry, you lost — {self.who.value} completed a line.")

    def _say(self, text: str, error: bool = False) -> None:
        self.message.value = f"<span style='color:#b00'>{text}</span>" if error else text

    def _draw(self) -> None:
        show = self.show.value and bool(self.values)
        for s, b in enumerate(self.cells):
            p = square(self.code, s)
            if p:
                b.description = "X" if p == X else "O"
                b.button_style = "danger" if p == X else "info"
                b.style.font_weight = "bold"
            else:
                v = self.values.get(s) if show else None
                b.description = "" if v is None else f"{v:+.3f}"
                b.button_style = ""
                b.style.font_weight = "normal"
            b.tooltip = f"square {s}"
        self.scoreline.value = (
            f"you {self.score['you']} · {', '.join(self.opponents) if len(self.opponents) == 1 else 'opponent'} "
            f"{self.score['opponent']} · draws {self.score['draws']} — board {board_string(self.code)}"
        )
