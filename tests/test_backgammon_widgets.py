"""Playing against the net: the session refuses bad moves with the reason and changes nothing; the
board widget shows the reason, and a move played is never reported as 'not played'."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402

from tdbook.games.base import IllegalMove  # noqa: E402
from tdbook.learners.backgammon_net import TDGammon  # noqa: E402
from tdbook.players.backgammon import NetPlayer  # noqa: E402
from tdbook.players.backgammon_human import HumanVsNet  # noqa: E402


def test_human_game_refuses_bad_moves_and_plays_on():
    g = HumanVsNet(NetPlayer(TDGammon.new(5, 4, seed=1)), seed=4)
    assert g.state.player == 0 and g.legal
    before = g.state
    for bad in ("13/3", "x", "25/20", "6/off"):
        with pytest.raises(IllegalMove):
            g.submit(bad)
        assert g.state == before
    n = len(g.history)
    g.submit(g.legal[0])
    assert len(g.history) >= n + 2 and g.history[n].player == "you" and g.history[n + 1].player == "TD-Gammon"
    while not g.over:  # play it out: the human always takes the first legal move
        g.submit(g.legal[0])
    assert "win" in g.message
    with pytest.raises(IllegalMove, match="over"):
        g.submit("8/5 6/5")


def test_play_widget_shows_the_reason_and_keeps_the_position():
    from tdbook.widgets.backgammon import play

    w = play(TDGammon.new(5, 4, seed=1), seed=4)
    box, go, new = w.children[1].children
    status = w.children[2]
    before = w.game.state
    box.value = "13/3"  # Enter in the box
    assert "Not played" in status.value and w.game.state == before
    box.value = w.game.legal[0]
    assert w.game.state != before and "Not played" not in status.value
    assert len(w.children[0].value) > 1000  # the board, as PNG bytes


def test_empty_move_is_refused_by_name():
    g = HumanVsNet(NetPlayer(TDGammon.new(5, 4, seed=1)), seed=4)
    before = g.state
    for empty in ("", "   "):
        with pytest.raises(IllegalMove, match="no move given"):
            g.submit(empty)
    assert g.state == before


def test_a_move_played_then_a_click_on_play_is_not_reported_as_not_played():
    """Issue 15 §4: typing a legal move and clicking Play takes the focus from the box first, which plays
    the move (and empties the box); the click that follows must not add "Not played — ''"."""
    from tdbook.widgets.backgammon import play

    w = play(TDGammon.new(5, 4, seed=1), seed=4)
    box, go, _ = w.children[1].children
    status = w.children[2]
    before = w.game.state
    box.value = w.game.legal[0]  # the box loses focus: its value is committed and the move played
    after = w.game.state
    assert after != before and box.value == ""
    go.click()  # …then the click on Play itself
    assert "Not played" not in status.value and w.game.state == after
    go.click()  # a second click with nothing typed asks for a move, and changes nothing
    assert "Type a move" in status.value and "Not played" not in status.value and w.game.state == after
    box.value = "13/3"
    assert "Not played" in status.value and w.game.state == after
