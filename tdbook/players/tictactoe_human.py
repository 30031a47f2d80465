"""The human player (Powell (2000) App. B.2 ``HumanPolicy``): a game of tic-tac-toe between a person and a
player, as session logic with no display (the clickable board is :mod:`tdbook.widgets.tictactoe`).

:class:`HumanSession` takes one player or a ``{name: player}`` dict; a player is anything with
``move(code) -> square`` (a :class:`tdbook.players.tictactoe.Player`, a net from notebook 07, …).  When the
opponent also has ``square_values(code) -> {square: value}``, the session keeps the values the opponent
gave the empty squares when it chose its last move (its after-state values), so a board can show what the
learner was thinking.  Playing an occupied square, playing after the game is over or when it is not your
turn, or a square outside 0..8, is refused with a message and changes nothing (App. B.2 re-asked for
``x y`` until the square was empty).  An opponent that answers with an illegal square raises ValueError
naming it, and your move is taken back (the game is as before your move).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

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


class HumanSession:
    """You against one of ``opponents`` (:attr:`opponent_name` picks which), as X or as O (:attr:`human`)."""

    def __init__(self, opponents: Any, human: str = "X") -> None:
        if not isinstance(opponents, Mapping):
            opponents = {getattr(opponents, "name", "opponent") or "opponent": opponents}
        if not opponents:
            raise ValueError("a tic-tac-toe session needs at least one opponent")
        for name, p in opponents.items():
            if not callable(getattr(p, "move", None)):
                raise ValueError(f"opponent {name!r} has no move(code) method")
        if human not in ("X", "O"):
            raise ValueError(f"human must be 'X' or 'O', got {human!r}")
        self.game = TicTacToe()
        self.opponents = dict(opponents)
        self.opponent_name = next(iter(self.opponents))
        self.human = human
        self.score = {"you": 0, "opponent": 0, "draws": 0}
        self.message, self.error = "", False
        self.new_game()

    # ------------------------------------------------------------------ state

    @property
    def opponent(self) -> Any:
        return self.opponents[self.opponent_name]

    @property
    def human_piece(self) -> int:
        return X if self.human == "X" else O

    @property
    def over(self) -> bool:
        return STATUS[self.code] != ONGOING

    def choose(self, opponent: str | None = None, human: str | None = None) -> None:
        """Change the opponent and/or your side, and start a new game."""
        if opponent is not None:
            if opponent not in self.opponents:
                raise ValueError(f"no opponent {opponent!r}; choose from: {', '.join(self.opponents)}")
            self.opponent_name = opponent
        if human is not None:
            if human not in ("X", "O"):
                raise ValueError(f"human must be 'X' or 'O', got {human!r}")
            self.human = human
        self.new_game()

    def new_game(self) -> None:
        """Clear the board; if you play O, the opponent opens."""
        self.code = 0
        self.values: dict[int, float] = {}
        self.moves: list[int] = []
        self._say("Your move." if self.human == "X" else "")
        if self.human == "O":
            self._opponent_moves()

    def play(self, s: Any) -> bool:
        """Your move on square ``s``; returns False (and says why in :attr:`message`) when it is refused."""
        try:
            s = check_square(s)
        except IllegalMove as e:
            return self._say(f"{e} — choose an empty square.", error=True)
        if self.over:
            return self._say("The game is over — press New game.", error=True)
        if to_move(self.code) != self.human_piece:
            return self._say("It is not your turn.", error=True)
        if square(self.code, s) != 0:
            taken = "X" if square(self.code, s) == X else "O"
            return self._say(
                f"Square {s} (row {s // 3}, column {s % 3}) is taken by {taken} — choose an empty square.", error=True
            )
        before = (self.code, list(self.moves), dict(self.values), self.message, self.error)
        self.code = self.game.apply(self.code, s)
        self.moves.append(s)
        self.values = {}
        if not self.over:
            try:
                self._opponent_moves()
            except Exception:  # the opponent failed (e.g. answered an illegal square): take your move back
                self.code, self.moves, self.values, self.message, self.error = before
                raise
        self._finish_or_prompt()
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
                f"opponent {self.opponent_name!r} answered board {board_string(self.code)} with an illegal move: {e}"
            ) from None
        self.code = nxt
        self.moves.append(int(s))
        if not self.over:
            self._say(f"{self.opponent_name} played square {s}. Your move.")

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
            self._say(f"Sorry, you lost — {self.opponent_name} completed a line.")

    def _say(self, text: str, error: bool = False) -> bool:
        self.message, self.error = text, error
        return False

    def scoreline(self) -> str:
        """You, the opponent, draws so far, and the board as an App. B/D state string."""
        who = ", ".join(self.opponents) if len(self.opponents) == 1 else "opponent"
        return (
            f"you {self.score['you']} · {who} {self.score['opponent']} · draws {self.score['draws']} — board "
            f"{board_string(self.code)}"
        )
