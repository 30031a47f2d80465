"""Teach it yourself (Kenju thesis §2.2.2, §4.6): a clickable Kenju board where you play System 3 with LEARNING on
and answer its questions about tied lines, its line table updating beside the board.

``TeachBoard()`` shows a window of the unbounded board (arrows move it); click a point to play there.  When the
learner's search meets two lines it values equally it shows both patterns — "which line is better: XX-X- or
-XXX-?" — and waits for *1*, *2* or *equal*; your answer raises the preferred pattern's value by one.  Choose
"MAX answers" to let Fig. 4.14's table teach instead.  The session logic (and every refusal: an occupied point,
one too far from the stones, a move after the end, while a question waits) is
:class:`tdbook.players.kenju_human.TeachingSession`; :meth:`TeachBoard.click` is what a button press calls, so
the board is testable headlessly.
"""

from __future__ import annotations

from html import escape

import ipywidgets as W

from ..games.base import IllegalMove
from ..players.kenju_human import TeachingSession
from . import preparing

VIEW = 8  # the board window is (2·VIEW + 1)² points
#: what an empty point shows: never "", since ipywidgets' ButtonView (8.x) leaves a button's old text on screen
#: when its description becomes empty and it has no icon (the old stones stayed drawn after "New game")
EMPTY = "\u00a0"
CENTRE = "+"  # the empty centre point of an empty board, where the first stone goes
#: the button style of a point on the questioned lines, by (on line 1, on line 2): orange, green, red where they cross
LINE_STYLE = {(True, False): "warning", (False, True): "success", (True, True): "danger"}


class TeachBoard(W.VBox):
    """A person against a System 3 learner that asks its teacher (you, or MAX) about tied lines."""

    @preparing("the board")
    def __init__(self, person: str = "black", teacher: str = "person", seed: int = 0) -> None:
        self.seed = seed
        self.side = W.ToggleButtons(options=["black", "white"], value=person, description="you play")
        self.teacher = W.ToggleButtons(
            options=[("you answer", "person"), ("MAX answers", "MAX")], value=teacher, description="teacher"
        )
        self.new = W.Button(description="New game", icon="refresh")
        self.forget = W.Button(description="New learner", icon="eraser", tooltip="start again from an empty table")
        self.pan = {d: W.Button(description=d, layout=W.Layout(width="40px")) for d in ("←", "→", "↑", "↓")}
        self.message = W.HTML()
        self.question = W.HTML()
        self.buttons = {
            k: W.Button(description=d, disabled=True) for k, d in ((1, "line 1"), (2, "line 2"), (0, "equal"))
        }
        self.table = W.HTML()
        self.cx, self.cy = 0, 0
        n = 2 * VIEW + 1
        self.cells = [W.Button(layout=W.Layout(width="30px", height="30px", padding="0")) for _ in range(n * n)]
        for i, b in enumerate(self.cells):
            b.on_click(lambda _b, i=i: self._clicked(i))
        for k, b in self.buttons.items():
            b.on_click(lambda _b, k=k: self.answer(k))
        self.new.on_click(lambda _b: self.new_game())
        self.forget.on_click(lambda _b: self.reset_learner())
        moves = {"←": (-4, 0), "→": (4, 0), "↑": (0, 4), "↓": (0, -4)}
        for d, b in self.pan.items():
            b.on_click(lambda _b, d=d: self._pan(*moves[d]))
        self.side.observe(lambda _c: self._set_side(), names="value")
        self.teacher.observe(lambda _c: self._set_teacher(), names="value")
        # the board keeps its size (31 px a point) and scrolls inside the notebook's width rather than being clipped;
        # the line table wraps below the board when both do not fit side by side
        grid = W.GridBox(
            self.cells, layout=W.Layout(grid_template_columns=f"repeat({n}, 31px)", min_width=f"{31 * n + 4}px")
        )
        left = W.VBox([grid, W.HBox(list(self.pan.values()))], layout=W.Layout(overflow="auto", max_width="100%"))
        right = W.VBox([self.question, W.HBox(list(self.buttons.values())), self.table])
        super().__init__(
            [
                W.HBox([self.side, self.teacher], layout=W.Layout(flex_flow="row wrap")),
                W.HBox([self.new, self.forget]),
                self.message,
                W.HBox([left, right], layout=W.Layout(flex_flow="row wrap")),
            ]
        )
        self.reset_learner()

    # ------------------------------------------------------------------ actions

    def reset_learner(self) -> None:
        """A fresh learner (all lines valued 0) and a new game."""
        self.session = TeachingSession(person=self.side.value, teacher=self.teacher.value, seed=self.seed)
        self.cx, self.cy = 0, 0
        self._draw()

    def new_game(self) -> None:
        """A new game; the learner keeps what it has learned."""
        self.session.new_game()
        self.cx, self.cy = 0, 0
        self._draw()

    def click(self, x: int, y: int) -> bool:
        """Your stone at (x, y); False (with the reason shown, nothing changed) when the move is refused."""
        try:
            self.session.play(x, y)
        except IllegalMove as e:
            self._say(str(e), error=True)
            return False
        self._draw()
        return True

    def answer(self, k: int) -> bool:
        """Answer the learner's question: 1, 2 or 0 (equal)."""
        try:
            self.session.answer(k)
        except ValueError as e:
            self._say(str(e), error=True)
            return False
        self._draw()
        return True

    # ------------------------------------------------------------------ internals

    def _set_side(self) -> None:
        """The other colour: a new game, the learner keeping what it learned (*New learner* clears it)."""
        self.session.set_person(self.side.value)
        self.cx, self.cy = 0, 0
        self._draw()
        if not self.session.message:
            self._say(f"You now play {self.side.value}; the learner keeps its line table (New learner clears it).")

    def _set_teacher(self) -> None:
        self.session.teacher = self.teacher.value
        if self.session.question is not None and self.teacher.value == "MAX":
            self.session.answers = []
            self.session.question = None
            self.session._learner_moves()
        self._draw()

    def _pan(self, dx: int, dy: int) -> None:
        self.cx += dx
        self.cy += dy
        self._draw()

    def _clicked(self, i: int) -> None:
        n = 2 * VIEW + 1
        r, c = divmod(i, n)
        self.click(self.cx - VIEW + c, self.cy + VIEW - r)

    def _say(self, text: str, error: bool = False) -> None:
        self.message.value = f"<span style='color:#b00'>{escape(text)}</span>" if error else escape(text)

    def drawn(self) -> dict[tuple[int, int], str]:
        """The stones on screen, ``{point: "○" or "●"}`` (what a reader sees; tests compare it with the game)."""
        n = 2 * VIEW + 1
        return {
            (self.cx - VIEW + i % n, self.cy + VIEW - i // n): b.description
            for i, b in enumerate(self.cells)
            if b.description in ("○", "●")
        }

    def _draw(self) -> None:
        s = self.session
        at = {p: i for i, p in enumerate(s.moves)}
        q = s.question
        one, two = (set(q.line1), set(q.line2)) if q else (set(), set())
        n = 2 * VIEW + 1
        for i, b in enumerate(self.cells):
            r, c = divmod(i, n)
            p = (self.cx - VIEW + c, self.cy + VIEW - r)
            k = at.get(p)
            if k is None:
                b.description = CENTRE if not at and p == (0, 0) else EMPTY
            else:
                b.description = "○" if k % 2 == 0 else "●"
            b.tooltip = f"{p}" + ("" if k is None else f" move {k + 1}")
            last = "info" if k is not None and k == len(at) - 1 else ""
            b.button_style = LINE_STYLE.get((p in one, p in two), last)
        self._say(s.message)
        if q is not None:
            self.question.value = (
                f"<b>Question</b> at {q.at} (red, where the lines cross): which line is better?<br>"
                f"<tt>1 (orange): {escape(q.text().split(' 1 ')[1].split(' or ')[0])}</tt> &nbsp; "
                f"<tt>2 (green): {escape(q.text().split(' or 2 ')[1].split('?')[0])}</tt>"
            )
        else:
            self.question.value = f"<i>{len(s.asked)} question(s) answered so far</i>"
        for b in self.buttons.values():
            b.disabled = q is None
        rows = "".join(
            f"<tr><td><tt>{p}</tt></td><td>{v}</td><td style='color:#888'>{m}</td></tr>" for p, v, m in s.table_rows()
        )
        self.table.value = (
            f"<b>The learner's line table</b> (total {int(s.table.sum())}; MAX in grey)"
            f"<table style='font-size:80%'><tr><th>line</th><th>value</th><th>MAX</th></tr>{rows}</table>"
        )
