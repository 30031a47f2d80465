"""Play backgammon against a TD-Gammon net: the session (:class:`HumanVsNet`) — whose turn it is, the
person's moves in standard notation (``8/5 6/5``, ``bar/22``, ``6/off``, ``13/7*``, ``24/18(2)``), the
net's replies and the game's history.  Its display (a board drawing, the dice, a move box) is
:func:`tdbook.widgets.backgammon.play`.

A move that is malformed or illegal is refused with the reason (the rules module names it:
blocked point, checker on the bar, bearing off too early, dice not all used, …) and the
position is unchanged.  The human plays colour 0 (light, moving 24 → 1 in the drawing), the net
colour 1; when the human has no legal move the turn passes by itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..games.backgammon import Backgammon, BGState, flipped, move_string
from ..games.base import IllegalMove
from .backgammon import NetPlayer


@dataclass
class Turn:
    player: str
    dice: tuple[int, int]
    move: str


@dataclass
class HumanVsNet:
    """A game between a person (colour 0) and a net player (colour 1); ``seed`` picks the dice."""

    net: NetPlayer
    seed: int = 0
    game: Backgammon = field(default_factory=Backgammon)
    state: BGState | None = None
    history: list[Turn] = field(default_factory=list)
    message: str = ""

    def __post_init__(self) -> None:
        self.net.seat(1)
        self.new_game(self.seed)

    # -- views
    @property
    def over(self) -> bool:
        return self.game.is_terminal(self.state)

    @property
    def human_view(self) -> np.ndarray:
        """The position from the person's side (their checkers positive)."""
        p = self.state.position
        return p if self.state.player == 0 else flipped(p)

    @property
    def legal(self) -> list[str]:
        """The person's legal moves (empty when it is not their turn or the game is over)."""
        if self.over or self.state.player != 0:
            return []
        return self.game.legal_moves(self.state)

    # -- play
    def new_game(self, seed: int | None = None) -> str:
        if seed is not None:
            self.seed = int(seed)
        self.state = self.game.initial_state(self.seed)
        self.history = []
        first = "you" if self.state.player == 0 else "TD-Gammon"
        self.message = f"Opening roll {self.state.dice[0]}-{self.state.dice[1]}: {first} to play."
        self._advance()
        return self.message

    def submit(self, text: str) -> str:
        """Play the person's move; on a bad move raise :class:`IllegalMove` with the reason (nothing changes)."""
        if self.over:
            raise IllegalMove("the game is over: start a new one")
        if self.state.player != 0:
            raise IllegalMove("it is not your turn")
        if not isinstance(text, str) or not text.strip():
            raise IllegalMove("no move given: type one, e.g. '8/5 6/5' (a roll you cannot play passes by itself)", text)
        before = self.state
        after = self.game.resolve(before, text)  # raises IllegalMove with the reason
        after_list, hops = self.game.afterstates(before)
        j = next(i for i in range(len(after_list)) if np.array_equal(after_list[i], after))
        self.history.append(Turn("you", before.dice, move_string(before.position, hops[j]) or "(no move)"))
        self.state = self.game.next_state(before, after)
        self.message = ""
        self._advance()
        return self.message

    def _advance(self) -> None:
        """Let the net play (and the person pass when they cannot move) until the person must choose."""
        notes = [self.message] if self.message else []
        while not self.over:
            s = self.state
            after, hops = self.game.afterstates(s)
            if s.player == 0:
                if hops == [[]]:
                    notes.append(f"You rolled {s.dice[0]}-{s.dice[1]} and cannot move: you pass.")
                    self.history.append(Turn("you", s.dice, "(no move)"))
                    self.state = self.game.next_state(s, after[0])
                    continue
                break
            k = self.net.choose(s.position, s.dice[0], s.dice[1], after)
            mv = move_string(s.position, hops[k]) or "(no move)"
            self.history.append(Turn("TD-Gammon", s.dice, mv))
            notes.append(f"TD-Gammon rolled {s.dice[0]}-{s.dice[1]} and played {mv}.")
            self.state = self.game.next_state(s, after[k])
        if self.over:
            r = self.game.result(self.state)
            kind = {1: "a single game", 2: "a gammon", 3: "a backgammon"}[int(abs(r))]
            notes.append(
                f"{'You win' if r > 0 else 'TD-Gammon wins'} {kind} ({abs(int(r))} point{'s' if abs(r) > 1 else ''})."
            )
        else:
            notes.append(f"Your roll: {self.state.dice[0]}-{self.state.dice[1]}.")
        self.message = " ".join(notes)
