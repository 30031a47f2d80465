"""Games: rules and encodings behind one contract (:mod:`tdbook.games.base`); nothing here learns.

:data:`GAMES` names every game the collection plays; ``tests/test_game_contract.py`` runs the
contract's conformance checks over each of them, so a new game is added here when it is done.
"""

from __future__ import annotations

import importlib
from typing import Any

#: game name (= its module name, the same word in learners/, players/ and experiments/) → class
GAMES: dict[str, str] = {
    "random_walk": "tdbook.games.random_walk:RandomWalk",
    "tictactoe": "tdbook.games.tictactoe:TicTacToe",
    "backgammon": "tdbook.games.backgammon:Backgammon",
    "draw_poker": "tdbook.games.draw_poker:DrawPoker",
    "checkers": "tdbook.games.checkers:Checkers",
    "kenju": "tdbook.games.kenju:Kenju",
}


def make(name: str, **options: Any) -> Any:
    """A game by name, e.g. ``make("backgammon", seed=3)``; ValueError naming the choices."""
    if name not in GAMES:
        raise ValueError(f"unknown game {name!r}; games are: {', '.join(GAMES)}")
    mod, cls = GAMES[name].split(":")
    return getattr(importlib.import_module(mod), cls)(**options)
