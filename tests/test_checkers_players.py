"""Checkers players (tdbook.players.checkers), the human session (tdbook.players.checkers_human) and the board
figure (tdbook.plots.checkers)."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from tdbook.games.base import IllegalMove
from tdbook.games.checkers import Checkers, ballots, parse_fen
from tdbook.learners.checkers_polynomial import SAMUEL_42_GAMES
from tdbook.players.checkers import (
    Player,
    material_player,
    play_games,
    random_player,
    samuel_player,
)
from tdbook.players.checkers_human import HumanSession
from tdbook.players.checkers_search import Searcher, SearchRules


def test_play_games_is_legal_deterministic_and_material_beats_random():
    g = Checkers()
    starts = [s for _, s in ballots()[:6]]
    recs = play_games(random_player(), material_player(SearchRules.fixed(4)), starts, seed=3)
    again = play_games(random_player(), material_player(SearchRules.fixed(4)), starts, seed=3)
    assert [r.moves for r in recs] == [r.moves for r in again], "same seed, same games"
    other = play_games(random_player(), material_player(SearchRules.fixed(4)), starts, seed=4)
    assert [r.moves for r in recs] != [r.moves for r in other]
    for s, r in zip(starts, recs):  # every move legal, the result the façade's
        for mv in r.moves:
            s = g.apply(s, mv)
        assert g.is_terminal(s) and g.result(s) == r.result and len(r.moves) == r.plies
    assert all(r.result == -1.0 for r in recs), "α-β on material beats random play as White"


def test_the_game_loop_plays_the_moves_choose_would():
    starts = [s for _, s in ballots()[:2]]
    p = samuel_player(SAMUEL_42_GAMES)
    rec = play_games(p, material_player(), starts[:1])[0]
    g = Checkers()
    s = starts[0]
    last_jump = False
    for k, mv in enumerate(rec.moves[:12]):
        if k % 2 == 0:  # White moves first from a ballot: the game's White is material_player
            assert material_player().choose(s, last_jump) == mv
        else:
            assert p.choose(s, last_jump) == mv
        m = g.resolve(s, mv)
        last_jump = m.is_capture
        s = g.apply(s, mv)


def test_seventy_move_cutoff_and_node_budget():
    g = Checkers(move_limit=70)
    recs = play_games(material_player(), material_player(), [g.initial_state()], game=g)
    assert recs[0].plies == 70
    tiny = Player("tiny budget", poly=samuel_player(SAMUEL_42_GAMES).poly, node_limit=50)
    rec = play_games(tiny, random_player(), [g.initial_state()], game=g)[0]
    assert rec.plies == 70 and all(isinstance(m, str) for m in rec.moves)


def test_player_validation():
    with pytest.raises(ValueError, match="kind"):
        Player("x", kind="oracle")
    with pytest.raises(ValueError, match="node_limit"):
        Player("x", node_limit=0)
    with pytest.raises(ValueError, match="no legal move"):
        material_player().choose(parse_fen("B:W5:B"))


def test_choose_follows_the_search():
    s = Checkers().initial_state()
    p = samuel_player(SAMUEL_42_GAMES, SearchRules.fixed(4))
    r = Searcher(p.poly, p.rules, p.ordering)(s.words, s.side)
    assert p.choose(s) == Checkers().legal_moves(s)[r.best]


# ----------------------------------------------------------------------------- human session


def test_human_session_refuses_illegal_moves_and_keeps_the_position():
    h = HumanSession(material_player(SearchRules.fixed(2)), human="Black")
    before = pickle.dumps((h.state, h.history))
    for text, reason in [
        ("11-16x", "cannot read"),
        ("22-18", "holds a White man"),
        ("11-18", "not a move"),
        ("12-8", "occupied"),
    ]:
        with pytest.raises(IllegalMove, match=reason) as e:
            h.play(text)
        assert e.value.move == text and pickle.dumps((h.state, h.history)) == before
    reply = h.play("11-15")
    assert (
        h.history == ["11-15", reply]
        and h.state.side == 0
        and reply in Checkers().legal_moves(Checkers().apply(Checkers().initial_state(), "11-15"))
    )
    assert "Black to move" in h.board()


def test_human_session_as_white_and_capture_rule():
    h = HumanSession(material_player(SearchRules.fixed(2)), human="White")
    assert len(h.history) == 1 and h.state.side == 1  # the program opened
    s = parse_fen("W:W18,30:B14,1")  # White must take 18x9
    h = HumanSession(material_player(SearchRules.fixed(2)), human="White", start=s)
    with pytest.raises(IllegalMove, match="capture is compulsory"):
        h.play("30-26")
    assert h.state == s
    h.play("18x9")
    assert h.history[0] == "18x9"
    with pytest.raises(ValueError, match="human"):
        HumanSession(material_player(), human="Red")


def test_human_session_end_of_game():
    s = parse_fen("B:W10:BK6")
    h = HumanSession(random_player(), human="Black", start=s)
    assert h.play("6x15") is None and h.over and h.result == 1.0
    with pytest.raises(IllegalMove, match="game is over"):
        h.play("15-18")


def test_board_figure():
    import matplotlib

    matplotlib.use("Agg")
    from tdbook.plots.checkers import board

    s = parse_fen("B:W14,15,22,23,K30:B10,K3")
    fig = board(s, last_move="26-22", show_moves=True)
    ax = fig.axes[0]
    assert ax.get_title() == "Black to move"
    discs = [p for p in ax.patches if type(p).__name__ == "Circle"]
    assert len(discs) == 7 + 2  # seven pieces, two king rings
    arrows = [p for p in ax.patches if type(p).__name__ == "FancyArrowPatch"]
    assert len(arrows) == 1 + 4  # the last move, and two 2-jump moves
    assert np.isclose(len([t for t in ax.texts if t.get_text().isdigit()]), 32)
