"""A person plays and teaches System 3 (Kenju thesis §2.2.2.2, §4.3 mode (b), §4.6): the session logic, no display.

:class:`TeachingSession` is a game between a person and a System 3 learner with LEARNING on.  The person
places stones (:meth:`TeachingSession.play`); when the learner's search meets two lines it values equally
(Box 6) it asks "which line is better?" — the thesis showed both patterns on the screen and the teacher typed
1, 2 or 0 (equal) — and waits (:attr:`TeachingSession.question`) until :meth:`TeachingSession.answer` is
called; two identical or mirror-image patterns are answered "equal" without asking.  With
``teacher="MAX"`` Fig. 4.14's table answers instead, as in every experiment of the thesis.

The search is the jitted one of :mod:`tdbook.players.kenju`: at a question it stops; the session keeps the
answers given so far and reruns the search from the same table, state and random stream with one more
answer, so the replayed search asks the same questions in the same order and then goes on — exactly what it
would have done had it waited.  Only when the search ends are the learner's table, its random stream and its
CONFIDENCE committed and its stone placed.

A move that is not allowed — an occupied point, one sharing no window of five with a stone, a first move
other than (0, 0), any move when the game is over, when it is the learner's turn or while a question waits —
is refused with :class:`~tdbook.games.base.IllegalMove` naming it, and changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core.rng import make_state
from ..games.base import IllegalMove
from ..games.kenju import (
    BLACK,
    MAX_PLACES,
    N_CELLS,
    ONGOING,
    STATUS_NAMES,
    WHITE,
    cell_of,
    in_reach,
    n_moves,
    new_board,
    pattern_string,
    place,
    status,
    stones,
    to_move,
    x_of,
    y_of,
)
from ..learners.kenju_line_table import MAX, N_PATTERNS, mirror
from ..players.kenju import (
    N_QUESTION,
    N_STATE,
    N_STATS,
    Q_A,
    Q_B,
    Q_CELL,
    Q_KIND,
    Q_LINE_A,
    Q_LINE_B,
    QUESTION,
    T_QUESTIONS,
    T_RAISES,
    TEACH_ANSWERS,
    TEACH_TABLE,
    Player,
    choose,
    learner,
    new_game_state,
    note_move,
    update_state,
)


@dataclass(frozen=True)
class Question:
    """The learner's question: which of two line patterns through ``at`` is better (1 or 2; 0 says equal)."""

    pattern1: int
    pattern2: int
    at: tuple[int, int]
    line1: tuple[tuple[int, int], ...]
    line2: tuple[tuple[int, int], ...]

    def text(self) -> str:
        return (
            f"Which line is better: 1 {pattern_string(self.pattern1)} or 2 {pattern_string(self.pattern2)}? (0: equal)"
        )


def _line_points(w: int) -> tuple[tuple[int, int], ...]:
    from ..games.kenju import window_cell

    return tuple((int(x_of(window_cell(w, k))), int(y_of(window_cell(w, k)))) for k in range(5))


class TeachingSession:
    """A person against a System 3 learner that asks its teacher about tied lines (module docstring)."""

    def __init__(
        self,
        person: str = "black",
        learner_player: Player | None = None,
        teacher: str = "person",
        seed: int = 0,
        cap: int = 20,
    ) -> None:
        if person not in ("white", "black"):
            raise ValueError(f"person must be 'white' or 'black', got {person!r}")
        if teacher not in ("person", "MAX"):
            raise ValueError(f"teacher must be 'person' or 'MAX', got {teacher!r}")
        self.person = WHITE if person == "white" else BLACK
        self.learner = (learner_player or learner("System 3")).with_()
        if not self.learner.config.learning:
            self.learner = self.learner.with_(learning=True)
        self.teacher = teacher
        self.board = new_board(cap)
        self.rng = make_state(seed, 0)
        self.state = np.zeros(N_STATE)
        self.stats = np.zeros(N_STATS, dtype=np.int64)
        self.par = self.learner.config.array()
        self.answers: list[int] = []
        self.question: Question | None = None
        self.asked: list[tuple[int, int, int]] = []  # (pattern 1, pattern 2, answer)
        self.message = ""
        self.new_game()

    # ------------------------------------------------------------------ state

    @property
    def table(self) -> np.ndarray:
        return self.learner.table

    @property
    def moves(self) -> list[tuple[int, int]]:
        return [(x, y) for x, y, _ in stones(self.board)]

    @property
    def over(self) -> bool:
        return int(status(self.board)) != ONGOING

    @property
    def result(self) -> str:
        return STATUS_NAMES[int(status(self.board))]

    def new_game(self) -> None:
        """Clear the board (the learner keeps its table); if the learner plays White, it opens at (0, 0)."""
        from ..games.kenju import reset

        reset(self.board)
        new_game_state(self.par, self.state)
        self.question = None
        self.answers = []
        self.message = "Your move." if self.person == WHITE else ""
        if self.person != WHITE:
            self._learner_moves()

    def set_person(self, person: str) -> None:
        """Play the other colour from the next game on: a new game starts, and the learner keeps its table."""
        if person not in ("white", "black"):
            raise ValueError(f"person must be 'white' or 'black', got {person!r}")
        self.person = WHITE if person == "white" else BLACK
        self.new_game()

    # ------------------------------------------------------------------ the person's actions

    def play(self, x: int, y: int) -> None:
        """The person's stone at (x, y); then the learner's reply (which may stop at a question)."""
        move = (x, y)
        if self.question is not None:
            raise IllegalMove(f"move {move!r}: answer the learner's question first ({self.question.text()})", move)
        if self.over:
            raise IllegalMove(f"move {move!r}: the game is over ({self.result}) — start a new game", move)
        if int(to_move(self.board)) != self.person:
            raise IllegalMove(f"move {move!r}: it is the learner's turn", move)
        if not all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in move):
            raise IllegalMove(f"move {move!r}: a point is two ints", move)
        if n_moves(self.board) == 0 and move != (0, 0):
            raise IllegalMove(
                f"move {move!r}: the first stone of a game goes on the centre point (0, 0), marked +: click there", move
            )
        if max(abs(x), abs(y)) > 100:
            raise IllegalMove(f"move {move!r}: too far from the stones", move)
        c = int(cell_of(x, y))
        if self.board.colour[c] != 0:
            raise IllegalMove(f"move {move!r}: the point is occupied", move)
        if not in_reach(self.board, c):
            raise IllegalMove(f"move {move!r}: shares no window of five with a stone", move)
        note_move(self.board, self.table, self.par, self.state, c, False)
        place(self.board, c)
        self.message = ""
        if not self.over:
            self._learner_moves()
        else:
            self.message = f"Game over: {self.result}."

    def answer(self, k: int) -> None:
        """Answer the waiting question: 1 or 2 names the better line, 0 says they are equal."""
        if self.question is None:
            raise ValueError("there is no question to answer")
        if k not in (0, 1, 2):
            raise ValueError(f"answer 1, 2 or 0 (equal), got {k!r}")
        q = self.question
        self.asked.append((q.pattern1, q.pattern2, k))
        self.answers.append(k)
        self.question = None
        self._learner_moves()

    # ------------------------------------------------------------------ the learner's move

    def _learner_moves(self) -> None:
        table = self.table.copy()
        state = self.state.copy()
        rng = self.rng.copy()
        stats = self.stats.copy()
        q = np.zeros(N_QUESTION, dtype=np.int64)
        scratch = np.empty(MAX_PLACES, dtype=np.int32)
        mark = np.zeros(N_CELLS, dtype=np.int8)
        update_state(self.board, table, self.par, state)
        mode = TEACH_TABLE if self.teacher == "MAX" else TEACH_ANSWERS
        answers = np.array(self.answers or [0], dtype=np.int64)
        c = int(
            choose(
                self.board,
                table,
                self.par,
                state,
                MAX.copy(),
                mode,
                answers,
                len(self.answers),
                rng,
                stats,
                q,
                scratch,
                mark,
            )  # fmt: skip
        )
        if c == QUESTION:
            if q[Q_KIND] != 1:
                raise RuntimeError("System 3 asks about lines only")
            self.question = Question(
                int(q[Q_A]),
                int(q[Q_B]),
                (int(x_of(q[Q_CELL])), int(y_of(q[Q_CELL]))),
                _line_points(int(q[Q_LINE_A])),
                _line_points(int(q[Q_LINE_B])),
            )
            self.message = self.question.text()
            return
        raised = stats[T_RAISES] - self.stats[T_RAISES]
        asked = stats[T_QUESTIONS] - self.stats[T_QUESTIONS]
        self.learner.table = table
        self.state = state
        self.rng = rng
        self.stats = stats
        self.answers = []
        note_move(self.board, table, self.par, self.state, c, True)
        place(self.board, c)
        p = (int(x_of(c)), int(y_of(c)))
        self.message = f"The learner played {p} after {asked} question(s), {raised} raise(s)."
        if self.over:
            self.message += f" Game over: {self.result}."
        else:
            self.message += " Your move."

    def table_rows(self) -> list[tuple[str, int, int]]:
        """(pattern, the learner's value, MAX's value) for the 32 patterns, best first by the learner's table."""
        order = sorted(range(N_PATTERNS), key=lambda p: (-int(self.table[p]), -int(MAX[p]), p))
        return [(pattern_string(p), int(self.table[p]), int(MAX[p])) for p in order]


__all__ = ["Question", "TeachingSession", "mirror"]
