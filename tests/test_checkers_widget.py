"""The clickable board of notebook 02 (tdbook.widgets.checkers): clicked and typed moves are played and answered;
an illegal one is refused with the rule it breaks and the position is unchanged; a multi-jump can be clicked
square by square."""

from __future__ import annotations

from tdbook.games.checkers import parse_fen
from tdbook.players.checkers import material_player
from tdbook.players.checkers_human import HumanSession
from tdbook.widgets.checkers import CheckersBoard, square_at


def test_squares_of_the_grid():
    assert square_at(0, 1) == 1 and square_at(0, 0) is None and square_at(7, 6) == 32 and square_at(1, 0) == 5


def test_clicks_and_typed_moves():
    b = CheckersBoard(material_player())
    start = b.session.state
    b.click(12)
    assert "12 picked" in b.status_text
    b.click(17)  # not a move of the man on 12
    assert "Refused" in b.status_text and "12-17" in b.status_text and "12-16" in b.status_text
    assert b.session.state == start and b.path == []
    b.click(21)  # a White man: not yours
    assert "does not hold one of your pieces" in b.status_text and b.session.state == start
    b.click(11)
    b.click(15)
    assert b.status_text.startswith("You played 11-15. material α-β answers") and len(b.session.history) == 2
    assert b.cells[15].description == "⬤" and b.cells[15].style.text_color == "#111111"
    assert b.cells[30].description == "⬤" and b.cells[30].style.text_color == "#ffffff"
    assert all(c.description for c in b.cells.values()), 'an empty square is never drawn with ""'
    before = b.session.state
    b.type_move("9-5")
    assert "Refused" in b.status_text and "occupied" in b.status_text and b.session.state == before
    b.entry.value = "10-14"
    assert "You played 10-14" in b.status_text and b.entry.value == ""


def test_a_multi_jump_clicked_square_by_square():
    b = CheckersBoard(material_player())
    # Black man on 1 can jump 6 and then 15 (1x10x19); White also has a man far away
    b.session = HumanSession(material_player(), "Black", start=parse_fen("B:W6,15,32:B1"))
    b.click(1)
    b.click(10)
    assert "continue the jump" in b.status_text and b.path == [1, 10]
    b.click(19)
    assert "You played 1x10x19" in b.status_text and b.session.history[0] == "1x10x19"


def test_kings_are_drawn_crowned_and_unlike_men():
    b = CheckersBoard(material_player())
    b.session = HumanSession(material_player(), "Black", start=parse_fen("B:WK6,15,32:B1,K10"))
    b._redraw("")
    man, king = b.cells[1], b.cells[10]
    assert man.description != king.description and king.description == "♚" and king.style.text_color == "#111111"
    assert (
        b.cells[6].description == "♚"
        and b.cells[6].style.text_color == "#ffffff"
        and "White king" in b.cells[6].tooltip
    )
    assert b.cells[15].description == man.description and b.cells[15].style.text_color != man.style.text_color
