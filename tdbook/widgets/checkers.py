"""A clickable checkers board for playing a program in a notebook (notebook 02 §7; the session logic is
:class:`tdbook.players.checkers_human.HumanSession`).

Click one of your pieces, then the square it goes to — for a multi-jump, each landing square in turn, or just
the last one when only one capture ends there — or type a move (``11-15``, ``15x24``, ``15x24x31``) and press
Enter.  An illegal move is refused with the rule it breaks, and the position does not change; the program
answers a legal move at once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import ipywidgets as W

from ..games.base import IllegalMove
from ..games.checkers import COLOUR, CheckersState, piece_char
from ..players.checkers import Player
from ..players.checkers_human import HumanSession
from . import preparing

#: a man is a filled disc, a king a filled crown, in its side's colour (:data:`INK`); an empty square a no-break
#: space (never "": ipywidgets 8 leaves a button's old text on screen when its description becomes empty)
GLYPH = {"b": "⬤", "B": "♚", "w": "⬤", "W": "♚", ".": "\u00a0"}
INK = {"b": "#111111", "B": "#111111", "w": "#ffffff", "W": "#ffffff", ".": "#ffffff"}
#: the dark squares are a mid brown, so both black and white pieces stand out on them
LIGHT, DARK, PICKED, LAST = "#f0d9b5", "#a0703f", "#d4a017", "#6b8e23"


def square_at(row: int, col: int) -> int | None:
    """The standard square (1–32) at a board cell (row 0 at the top, Black's side), None on a light square."""
    if (row + col) % 2 == 0:
        return None
    return 4 * row + col // 2 + 1


#: the side of one square of the clickable board, in pixels
SQUARE = 44


class BoardButtons(W.GridBox):
    """The 8 × 8 board as buttons, Black at the top (square 1 top left): :meth:`show` draws a position (filled
    black and white discs, crowned kings), a click on a dark square calls ``on_square(square)``."""

    def __init__(self, on_square: Callable[[int], None]) -> None:
        self.cells: dict[int, W.Button] = {}
        grid = []
        for r in range(8):
            for c in range(8):
                sq = square_at(r, c)
                # margin 0: a widget button's default 2 px margin makes each square 48 px in a 44 px column, so the
                # board overflowed its grid by 2 px and got a horizontal scrollbar (and gaps between the rows)
                b = W.Button(
                    layout=W.Layout(width=f"{SQUARE}px", height=f"{SQUARE}px", padding="0", margin="0"),
                    tooltip=str(sq or ""),
                )
                b.style.font_size = "26px"
                if sq is None:
                    b.style.button_color = LIGHT
                    b.disabled = True
                    b.description = GLYPH["."]
                else:
                    self.cells[sq] = b
                    b.on_click(lambda _b, s=sq: on_square(s))
                grid.append(b)
        super().__init__(grid, layout=W.Layout(grid_template_columns=f"repeat(8, {SQUARE}px)", grid_gap="0px"))

    def show(self, state: CheckersState, picked: Sequence[int] = (), last: Sequence[int] = ()) -> None:
        """Draw ``state``; ``picked`` squares in gold, ``last`` (the last move's squares) in green."""
        for sq, b in self.cells.items():
            ch = piece_char(state, sq)
            b.description = GLYPH[ch]
            b.style.text_color = INK[ch]
            b.style.button_color = PICKED if sq in picked else LAST if sq in last else DARK
            b.tooltip = f"{sq}" + {"b": " Black man", "B": " Black king", "w": " White man", "W": " White king"}.get(
                ch, ""
            )


class CheckersBoard(W.VBox):
    """You against ``opponent`` (a :class:`~tdbook.players.checkers.Player`), playing ``human`` (Black moves
    first)."""

    @preparing("the board")
    def __init__(self, opponent: Player, human: str = "Black") -> None:
        self.opponent = opponent
        self.colour = human
        self.session = HumanSession(opponent, human)
        self.path: list[int] = []
        self.last: tuple[int, ...] = ()
        self.grid = BoardButtons(self.click)
        self.cells = self.grid.cells
        self.entry = W.Text(placeholder="type a move, e.g. 11-15 or 15x24, then Enter", continuous_update=False)
        self.entry.observe(lambda ch: self.type_move(ch["new"]) if ch["new"].strip() else None, names="value")
        self.new = W.Button(description="new game")
        self.new.on_click(lambda _b: self.reset())
        self.status = W.HTML()
        self.moves = W.HTML()
        super().__init__([self.grid, W.HBox([self.entry, self.new]), self.status, self.moves])
        self._redraw(f"You play {human}. " + self._turn())

    # -- actions
    def click(self, square: int) -> None:
        """A click on a dark square: pick one of your pieces, or extend the move being built to this square."""
        if self.session.over:
            self._redraw("The game is over: press 'new game'.")
            return
        mine = piece_char(self.session.state, square).lower() == "bw"[self.session.human]
        if mine and (not self.path or len(self.path) == 1):
            self.path = [square]
            self._redraw(f"{square} picked: click where it goes.")
            return
        if not self.path:
            self._redraw(f"Square {square} does not hold one of your pieces: click one of yours first.")
            return
        steps = self.path + [square]
        text = ("-" if len(steps) == 2 else "x").join(str(s) for s in steps)
        try:
            self.session.game.resolve(self.session.state, text)
        except IllegalMove as e:
            msg = str(e)
            if "must be completed" in msg or "ambiguous" in msg:
                self.path.append(square)
                self._redraw(f"{text}: continue the jump (click the next landing square).")
            else:
                self.path = []
                self._redraw(f"Refused — {msg}. The position is unchanged.")
            return
        self.path = []
        self._play(text)

    def type_move(self, text: str) -> None:
        """A typed move."""
        self.path = []
        self._play(text.strip())

    def reset(self) -> None:
        """Start a new game."""
        self.session = HumanSession(self.opponent, self.colour)
        self.path, self.last = [], ()
        self._redraw("New game. " + self._turn())

    # -- internals
    def _play(self, text: str) -> None:
        # said before the reply is searched: a first search (numba compiling) can take a minute on a busy machine,
        # and the board otherwise still says "… picked: click where it goes" all that time (seen in a browser)
        self.status.value = f"{text}: {self.opponent.name} is thinking…"
        try:
            reply = self.session.play(text)
        except IllegalMove as e:
            self._redraw(f"Refused — {e}. The position is unchanged.")
            return
        self.entry.value = ""
        played = self.session.history[-2] if reply is not None else self.session.history[-1]
        self.last = tuple(int(x) for x in (reply or played).replace("x", "-").split("-"))
        said = f"You played {played}." + (f" {self.opponent.name} answers {reply}." if reply else "")
        self._redraw(f"{said} {self._turn()}")

    def _turn(self) -> str:
        s = self.session
        if s.over:
            r = s.result
            return "The game is over: " + ("you win." if r > 0 else "you lose." if r < 0 else "a draw.")
        return f"{COLOUR[s.state.side]} to move."

    @property
    def status_text(self) -> str:
        return self.status.value

    def _redraw(self, message: str) -> None:
        self.grid.show(self.session.state, self.path, self.last)
        self.status.value = message
        self.moves.value = "<small>moves: " + (" ".join(self.session.history) or "—") + "</small>"


def play(opponent: Player, human: str = "Black") -> CheckersBoard:
    """A board to play ``opponent`` (show it as a cell's last expression)."""
    return CheckersBoard(opponent, human)
