"""A person plays and teaches System 3 (Kenju thesis §4.3 mode (b), §4.6): an illegal click is refused with the board
unchanged, questions wait for an answer, answers raise the preferred pattern, and the clickable board does the same."""

from __future__ import annotations

import numpy as np
import pytest

from tdbook.games.base import IllegalMove
from tdbook.learners.kenju_line_table import MAX
from tdbook.players.kenju_human import TeachingSession


def _snapshot(s: TeachingSession):
    return (list(s.moves), s.table.copy(), s.state.copy(), s.rng.copy(), s.question, list(s.answers))


def _same(a, b):
    return a[0] == b[0] and all(np.array_equal(x, y) for x, y in zip(a[1:4], b[1:4])) and a[4:] == b[4:]


def _play_until_question(s: TeachingSession, rng: np.random.Generator):
    from tdbook.games.kenju import Kenju, KenjuState

    while s.question is None and not s.over:
        legal = Kenju().legal_moves(KenjuState(tuple(s.moves)))
        s.play(*legal[int(rng.integers(len(legal)))])


def test_illegal_clicks_are_refused_and_change_nothing():
    s = TeachingSession(person="white", seed=1)
    before = _snapshot(s)
    with pytest.raises(IllegalMove, match=r"first stone of a game goes on the centre point \(0, 0\), marked \+"):
        s.play(1, 1)
    assert _same(before, _snapshot(s))
    s.play(0, 0)
    for bad, msg in [((0, 0), "occupied"), ((9, 9), "no window"), ((200, 0), "too far")]:
        before = _snapshot(s)
        if s.question is not None:
            msg = "answer the learner's question first"
        with pytest.raises(IllegalMove, match=msg):
            s.play(*bad)
        assert _same(before, _snapshot(s))


def test_questions_wait_and_answers_raise_the_preferred_pattern():
    s = TeachingSession(person="black", seed=3)
    rng = np.random.default_rng(0)
    _play_until_question(s, rng)
    assert s.question is not None and "Which line is better" in s.question.text()
    before = _snapshot(s)
    with pytest.raises(IllegalMove, match="question first"):
        s.play(*s.question.at)
    assert _same(before, _snapshot(s))
    with pytest.raises(ValueError, match="answer 1, 2 or 0"):
        s.answer(3)
    q = s.question
    t0 = s.table.copy()
    s.answer(2)
    if s.question is None:  # the search ended: the raise is committed
        assert s.table[q.pattern2] == t0[q.pattern2] + 1 or s.table.sum() > t0.sum()
    assert (q.pattern1, q.pattern2, 2) in s.asked


def test_a_finished_game_refuses_moves_and_max_can_teach():
    s = TeachingSession(person="black", teacher="MAX", seed=5)
    rng = np.random.default_rng(1)
    while not s.over:
        _play_until_question(s, rng)
        assert s.question is None, "MAX answers every question itself"
    before = _snapshot(s)
    with pytest.raises(IllegalMove, match="game is over"):
        s.play(30, 30)
    assert _same(before, _snapshot(s))
    assert np.all(s.table <= MAX) and s.table.sum() > 0
    s.new_game()
    assert len(s.moves) == 1 and s.table.sum() > 0, "a new game keeps what was learned"


def test_the_clickable_board_refuses_a_bad_click_and_shows_the_table():
    from tdbook.widgets.kenju import TeachBoard

    w = TeachBoard(seed=2)
    n = len(w.session.moves)
    assert w.click(0, 0) is False and "occupied" in w.message.value and len(w.session.moves) == n
    assert w.click(1, 1) is True and len(w.session.moves) >= n + 1
    assert "line table" in w.table.value


def _board_and_game_agree(w) -> None:
    """What the board draws is the game's stones, Black first (○ moves 1, 3, …), and nothing else."""
    game = {p: "○" if k % 2 == 0 else "●" for k, p in enumerate(w.session.moves)}
    n = 2 * 8 + 1
    shown = {(w.cx - 8 + i % n, w.cy + 8 - i // n) for i in range(n * n)}
    assert w.drawn() == {p: v for p, v in game.items() if p in shown}
    # an empty point is never drawn with "": the browser would keep the stone it showed before (ipywidgets 8)
    assert all(b.description for b in w.cells)


def test_new_game_and_playing_white_clear_the_old_stones_and_the_arrows_move_only_the_game():
    from tdbook.widgets.kenju import CENTRE, TeachBoard

    w = TeachBoard(teacher="MAX", seed=4)
    rng = np.random.default_rng(2)
    while not w.session.over:
        _play_until_question(w.session, rng)
        w._draw()
    assert len(w.session.moves) > 5
    _board_and_game_agree(w)
    before = {id(b): b.description for b in w.cells}
    w.new.click()  # the learner (Black) opens at the centre again: one stone on screen
    assert len(w.session.moves) == 1 and len(w.drawn()) == 1
    assert sum(before[id(b)] != b.description for b in w.cells) >= 5, "the old stones were redrawn as empty"
    _board_and_game_agree(w)
    for arrow in ("←", "↑", "→", "→", "↓"):
        w.pan[arrow].click()
        _board_and_game_agree(w)
    learned = w.session.table.copy()
    w.side.value = "white"  # you open: an empty board with the centre marked, the learner keeping its table
    assert w.session.moves == [] and w.drawn() == {}
    assert np.array_equal(w.session.table, learned) and learned.sum() > 0
    assert w.cx == w.cy == 0 and w.cells[8 * 17 + 8].description == CENTRE
    _board_and_game_agree(w)


def test_playing_white_a_click_off_the_centre_says_where_to_click():
    from tdbook.widgets.kenju import TeachBoard

    w = TeachBoard(person="white", seed=1)
    assert w.click(3, -2) is False and w.session.moves == []
    assert "centre point (0, 0), marked +: click there" in w.message.value
    assert w.click(0, 0) is True and w.session.moves[0] == (0, 0)
    _board_and_game_agree(w)


def test_the_two_questioned_lines_are_drawn_in_two_colours():
    """Issue 35's leftover: both lines of a question were drawn alike; line 1 is orange, line 2 green, and the
    point where they cross red, as the question's text says."""
    from tdbook.widgets.kenju import LINE_STYLE, TeachBoard

    w = TeachBoard(seed=2)
    rng = np.random.default_rng(0)
    for _ in range(40):
        _play_until_question(w.session, rng)
        if w.session.question is not None:
            break
        w.session.new_game()
    q = w.session.question
    assert q is not None, "no question in 40 tries"
    w._draw()
    n = 2 * 8 + 1
    style = {(w.cx - 8 + i % n, w.cy + 8 - i // n): b.button_style for i, b in enumerate(w.cells)}
    shown = [p for p in (*q.line1, *q.line2) if p in style]
    assert shown
    for p in shown:
        assert style[p] == LINE_STYLE[(p in q.line1, p in q.line2)]
    assert {style[p] for p in q.line1 if p in style and p not in q.line2} <= {"warning"}
    assert {style[p] for p in q.line2 if p in style and p not in q.line1} <= {"success"}
    assert "1 (orange)" in w.question.value and "2 (green)" in w.question.value
