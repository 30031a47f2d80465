"""The one contract every game keeps (rules and encodings only: nothing here learns).

A game is a class whose instances answer the methods below for immutable *states*.  One meaning
for each, in every game:

- ``initial_state()`` — the start; for a game of chance the state carries its own seeded random
  stream (from the game's ``seed``), so the same seed and the same moves give the same game.
- ``to_move(state)`` — index (0-based) of the player who chooses the next move.
- ``legal_moves(state)`` — every legal move, empty exactly when ``is_terminal(state)``.
- ``apply(state, move)`` — the next state; never mutates ``state``; an illegal or malformed move
  raises :class:`IllegalMove` whose message names the move and the rule it breaks.
- ``is_terminal(state)``.
- ``result(state)`` — the outcome of a *terminal* state **for player 0**: player 0's payoff
  (tic-tac-toe +1/0/−1, backgammon points ±1/2/3, poker chips, the random walk's reward),
  inside ``result_range``; ``ValueError`` on a state that is not terminal.
- ``key(state)`` — a hashable key for tables: equal keys exactly for equal states.
- ``encode(state)`` — the game's standard learner input: a 1-D ``float64`` array of shape
  ``encoding_shape`` (documented per game), the same shape for every state.

Learners and players that claim to work on any game (e.g. :func:`random_playout`) use only this
contract; ``tests/test_game_contract.py`` checks it on every game, and a new game is done only
when it passes.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np


class IllegalMove(ValueError):
    """A move that the rules do not allow in the given state; the state is unchanged.

    ``move`` is the offending move as given (``None`` when the problem is not one move, e.g. a turn
    taken out of order); the message always names it.
    """

    def __init__(self, message: str, move: Any = None) -> None:
        super().__init__(message)
        self.move = move


@runtime_checkable
class Game(Protocol):
    """See the module docstring for the meaning of each member."""

    name: str
    n_players: int
    result_range: tuple[float, float]
    encoding_shape: tuple[int, ...]

    def initial_state(self) -> Any: ...

    def to_move(self, state: Any) -> int: ...

    def legal_moves(self, state: Any) -> Sequence[Hashable]: ...

    def apply(self, state: Any, move: Hashable) -> Any: ...

    def is_terminal(self, state: Any) -> bool: ...

    def result(self, state: Any) -> float: ...

    def key(self, state: Any) -> Hashable: ...

    def encode(self, state: Any) -> np.ndarray: ...


def naming(move: Any, error: IllegalMove) -> IllegalMove:
    """``error`` with the move named in its message (prefixed when the message does not quote it)."""
    msg = str(error)
    if repr(move) not in msg and (not isinstance(move, str) or move not in msg):
        msg = f"illegal move {move!r}: {msg}"
    return IllegalMove(msg, move)


def not_terminal(game: Game, state: Any) -> ValueError:
    """The error ``result`` raises on a state that is not terminal."""
    return ValueError(f"{game.name}: result() is defined on terminal states only; {state!r} is not terminal")


def random_playout(game: Game, seed: int, state: Any = None, max_plies: int = 100_000) -> list[Any]:
    """The states of one game played by uniformly random legal moves (seeded), from ``state`` or the start.

    Works on any :class:`Game`; raises ``RuntimeError`` if no terminal state is reached in ``max_plies``.
    """
    rng = np.random.default_rng(seed)
    s = game.initial_state() if state is None else state
    states = [s]
    for _ in range(max_plies):
        if game.is_terminal(s):
            return states
        moves = list(game.legal_moves(s))
        s = game.apply(s, moves[int(rng.integers(len(moves)))])
        states.append(s)
    raise RuntimeError(f"{game.name}: no terminal state within {max_plies} plies of random play")
