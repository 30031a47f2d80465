"""A person playing checkers against a program: session logic only (no display; the notebook's widget draws it).

:class:`HumanSession` keeps the game: you type a move (``"11-15"``, ``"15x24"``, ``"15x24x31"`` or a short
form that fits one legal move); an illegal one raises :class:`~tdbook.games.base.IllegalMove` naming the move
and the rule it breaks (capture compulsory, men move forward only, a multi-jump must be completed, …) and
changes nothing; a legal one is played and the program answers at once.  :meth:`HumanSession.board` is the
text board (:func:`tdbook.games.checkers.board_text`); ``history`` lists every move played.
"""

from __future__ import annotations

from ..games.base import IllegalMove
from ..games.checkers import COLOUR, Checkers, CheckersState, board_text
from .checkers import Player


class HumanSession:
    """You (``human`` = ``"Black"`` or ``"White"``; Black moves first) against ``opponent`` from ``start``
    (default: the initial position) under the rules of ``game`` (default :class:`Checkers()`)."""

    def __init__(
        self,
        opponent: Player,
        human: str = "Black",
        game: Checkers | None = None,
        start: CheckersState | None = None,
    ) -> None:
        if human not in COLOUR:
            raise ValueError(f"human must be 'Black' or 'White', got {human!r}")
        if not isinstance(opponent, Player):
            raise ValueError(f"opponent must be a checkers Player, got {opponent!r}")
        self.game = game if game is not None else Checkers()
        self.opponent = opponent
        self.human = COLOUR.index(human)
        self.state = start if start is not None else self.game.initial_state()
        self.history: list[str] = []
        self.last_jump = False
        if not self.over and self.state.side != self.human:
            self._reply()

    @property
    def over(self) -> bool:
        return self.game.is_terminal(self.state)

    @property
    def result(self) -> float:
        """Your payoff (+1 win, 0 draw, −1 loss) once the game is over; ValueError before."""
        r = self.game.result(self.state)
        return r if self.human == 0 else -r

    def legal_moves(self) -> list[str]:
        return self.game.legal_moves(self.state)

    def play(self, text: str) -> str | None:
        """Play your move ``text``; returns the program's answer (``None`` when the game ended first).
        Raises :class:`IllegalMove` (position unchanged) for an illegal move, a move out of turn or after the end."""
        if self.over:
            raise IllegalMove(f"illegal move {text!r}: the game is over", text)
        if self.state.side != self.human:
            raise IllegalMove(f"illegal move {text!r}: it is {COLOUR[self.state.side]}'s turn, not yours", text)
        move = self.game.resolve(self.state, text)  # raises, naming the rule; nothing has changed yet
        self.state = self.game.apply(self.state, move.text)
        self.history.append(move.text)
        self.last_jump = move.is_capture
        if self.over:
            return None
        return self._reply()

    def _reply(self) -> str:
        text = self.opponent.choose(self.state, self.last_jump)
        move = self.game.resolve(self.state, text)
        self.state = self.game.apply(self.state, move.text)
        self.history.append(move.text)
        self.last_jump = move.is_capture
        return move.text

    def board(self) -> str:
        return board_text(self.state)
