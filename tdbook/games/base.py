"""The one small interface every game (and the random-walk MDP) offers to notebooks and widgets.

Jitted kernels underneath work on plain numpy arrays / ints; this façade is what
notebooks, widgets and players call.  Learners consume ``encode`` and never
special-case a game.
"""

from __future__ import annotations

from typing import Any, Hashable, Protocol, Sequence, runtime_checkable

import numpy as np


class IllegalMove(ValueError):
    """A move that the rules do not allow in the given state; the state is unchanged."""


@runtime_checkable
class Game(Protocol):
    """Initial state, legal moves, apply, terminal/result, encode for learners."""

    name: str
    n_players: int

    def initial_state(self) -> Any:
        """The position the game starts from."""

    def to_move(self, state: Any) -> int:
        """Index (0-based) of the player whose turn it is."""

    def legal_moves(self, state: Any) -> Sequence[Hashable]:
        """Every legal move in ``state`` (empty when terminal)."""

    def apply(self, state: Any, move: Hashable) -> Any:
        """The state after ``move``; raises :class:`IllegalMove` naming the problem, never mutates ``state``."""

    def is_terminal(self, state: Any) -> bool:
        """True when the game is over."""

    def result(self, state: Any) -> float:
        """Outcome of a terminal state from player 0's point of view (e.g. +1 win, 0 draw, -1 loss)."""

    def encode(self, state: Any) -> np.ndarray:
        """Learner input for ``state`` (a table index array or a feature vector)."""
