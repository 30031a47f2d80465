"""The master-games archive (``data/acf_checkers/``): every one of its 9,377 games replays legally on our engine
with the square mapping, an illegal move is refused naming the game, the move and the rule, and the held-out
split is fixed by game."""

from __future__ import annotations

import numpy as np
import pytest

from tdbook.games import checkers_book as cb
from tdbook.games.checkers import BLACK, moves_of
from tests.test_checkers_pydraughts import engine_moves, reference_moves


def test_the_square_mapping_is_a_bijection_onto_the_books_squares():
    assert sorted(cb.standard_square(i) for i in range(32)) == list(range(1, 33))
    # the first player's back row, left to right as he sees it: the books' 4, 3, 2, 1 (Black's single corner is 4)
    assert [cb.standard_square(i) for i in range(4)] == [4, 3, 2, 1]
    assert cb.standard_square(10) == 10 and cb.standard_square(13) == 15
    for bad in (-1, 32, 3.0, True):
        with pytest.raises(cb.BookError, match="0..31"):
            cb.standard_square(bad)


def test_every_game_of_the_archive_replays_legally():
    games = cb.read_games()
    assert len(games) == cb.N_GAMES == 9377
    assert sum(g.result == 0 for g in games) == 5407  # the archive's README: draws
    assert sum(g.result == 1 for g in games) == 1597  # first player (Black) wins
    assert sum(g.result == -1 for g in games) == 2373
    # the seven legal first moves of checkers, and the archive's first game as the books write it
    assert {g.moves[0] for g in games} <= {"9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"}
    assert games[0].moves[:4] == ("10-15", "23-19", "7-10", "22-18")  # archive: 10-13 21-17 5-10 22-18 → books
    p = cb.all_positions()
    assert len(p) == sum(len(g.moves) for g in games) == 460287
    assert np.all(p.chosen >= 0) and np.all(p.chosen < p.n_legal)
    assert len(cb.book_positions()) == int(np.sum(p.n_legal > 1)) == 362159


def test_the_jitted_replay_agrees_with_the_rules_facade_move_by_move():
    games = cb.read_games()
    p = cb.all_positions()
    for gi in np.random.default_rng(5).choice(len(games), 40, replace=False):
        mine = p.take(p.game == gi)
        steps = cb.replay(games[gi])
        assert len(steps) == len(mine)
        for i, (s, played) in enumerate(steps):
            assert mine.state(i).words == s.words and mine.side[i] == s.side
            assert moves_of(s)[mine.chosen[i]].text.replace("x", "-") == played.replace("x", "-")


def test_book_positions_have_the_same_legal_moves_as_pydraughts():
    """An independent engine sees the same move lists on a sample of master positions (kings, captures)."""
    b = cb.book_positions()
    idx = np.random.default_rng(11).choice(len(b), 300, replace=False)
    for i in idx:
        s = b.state(int(i))
        assert engine_moves(s) == reference_moves(s)
        assert len(moves_of(s)) == b.n_legal[i]


@pytest.mark.parametrize(
    ("moves", "message"),
    [
        (("10-15", "23-19", "15-19"), r"game 1, move 3 \(Black\): illegal move '15-19': square 19 is occupied"),
        (("10-15", "23-19", "15-10"), r"game 1, move 3 \(Black\): .*a man moves and captures forward only"),
        (("11-15", "22-18", "9-13"), r"game 1, move 3 \(Black\): .*a capture is compulsory"),
        (("10-15", "23-19", "20-24"), r"game 1, move 3 \(Black\): illegal move '20-24': square 20 is empty"),
    ],
)
def test_an_illegal_game_is_refused_naming_the_game_the_move_and_the_rule(moves, message):
    bad = cb.BookGame(1, moves, 0)
    with pytest.raises(cb.BookError, match=message):
        cb.replay(bad)
    with pytest.raises(cb.BookError, match=message):
        cb.all_positions((bad,))


def test_a_malformed_line_or_archive_is_refused_by_name(tmp_path, monkeypatch):
    with pytest.raises(cb.BookError, match="game 7: unknown result '2-0'"):
        cb.parse_line("10-13 21-17\t2-0", 7)
    with pytest.raises(cb.BookError, match="game 3, move 2: cannot read '21-x'"):
        cb.parse_line("10-13 21-x\t1-0", 3)
    with pytest.raises(cb.BookError, match="game 4: a line is the moves, a tab and the result"):
        cb.parse_line("10-13 21-17", 4)
    assert cb.parse_line("10-13 21-17\t1/2-1/2", 1) == cb.BookGame(1, ("10-15", "23-19"), 0)
    fake = tmp_path / "data" / "acf_checkers"
    fake.mkdir(parents=True)
    (fake / "ACF.txt.gz").write_bytes(b"not gzip")
    monkeypatch.setenv("TDBOOK_ROOT", str(tmp_path))
    cb.read_games.cache_clear()
    try:
        with pytest.raises(cb.BookError, match="cannot read the master-games archive"):
            cb.read_games()
    finally:
        monkeypatch.delenv("TDBOOK_ROOT")
        cb.read_games.cache_clear()


def test_the_held_out_split_is_by_game_fixed_and_disjoint():
    tr, ho = cb.split_games()
    assert len(tr) + len(ho) == cb.N_GAMES and not set(tr) & set(ho)
    assert len(ho) == 1875
    again = cb.split_games()
    assert np.array_equal(tr, again[0]) and np.array_equal(ho, again[1])
    assert not np.array_equal(ho, cb.split_games(seed=2)[1])
    b = cb.book_positions()
    held = np.isin(b.game, ho)
    assert set(np.unique(b.game[held])) <= set(ho) and not set(np.unique(b.game[~held])) & set(ho)
    for bad in ({"n_games": 1}, {"held_out": 0}, {"held_out": 1.5}):
        with pytest.raises(ValueError):
            cb.split_games(**bad)


def test_black_moves_first_and_sides_alternate():
    p = cb.all_positions()
    first = p.ply == 0
    assert np.all(p.side[first] == BLACK)
    assert np.all(p.side == (p.ply % 2))
