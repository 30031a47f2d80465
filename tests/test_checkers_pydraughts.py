"""The checkers engine against pydraughts (``draughts.Board(variant="english")``), an independent, complete
and slow implementation of the English rules.

- Move sets: on positions reached by random play and by searched play (material α-β and Samuel's
  polynomial under his ply rules, from the 3-move ballots), the legal moves — start square, every landing
  square, captured squares — are the same lists (duplicates included).  All positions with
  ``TDBOOK_FULL_CHECKS=1``; a fixed random sample otherwise.
- Perft: from the start position to depth 7 in the full check (4 in CI), and from king-rich positions.
"""

from __future__ import annotations

import os

import draughts
import numpy as np
import pytest

from tdbook.games import checkers_bitboard as bb
from tdbook.games.checkers import Checkers, CheckersState, ballots, fen, moves_of, parse_fen
from tdbook.learners.checkers_polynomial import SAMUEL_42_GAMES
from tdbook.players.checkers import material_player, play_games, samuel_player

FULL = os.environ.get("TDBOOK_FULL_CHECKS") == "1"
N_RANDOM, N_SEARCHED_GAMES = 2400, 16
CI_SAMPLE = 400


def reference_moves(state: CheckersState) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    board = draughts.Board(variant="english", fen=fen(state))
    return sorted((tuple(m.steps_move), tuple(sorted(m.captures))) for m in board.legal_moves())


def engine_moves(state: CheckersState) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    return sorted(((m.frm, *m.path), m.captured) for m in moves_of(state))


def random_play_positions(n: int, seed: int = 2026) -> list[CheckersState]:
    out = np.zeros((n, 5), dtype=np.int64)
    bb.random_positions(seed, n, 80, out)
    return [CheckersState(*(int(x) for x in row)) for row in out]


def searched_play_positions(n_games: int) -> list[CheckersState]:
    g = Checkers()
    starts = [s for _, s in ballots()][:: max(1, 157 // n_games)][:n_games]
    half = n_games // 2
    recs = play_games(samuel_player(SAMUEL_42_GAMES), material_player(), starts[:half])
    recs += play_games(material_player(), samuel_player(SAMUEL_42_GAMES), starts[half:])
    out = []
    for s, rec in zip(starts, recs):
        for mv in rec.moves:
            out.append(s)
            s = g.apply(s, mv)
    return out


@pytest.fixture(scope="module")
def positions() -> list[CheckersState]:
    ps = random_play_positions(N_RANDOM) + searched_play_positions(N_SEARCHED_GAMES)
    assert len(ps) >= 2000
    return ps


def test_move_sets_equal_pydraughts(positions):
    kings = sum(1 for s in positions if s.bk | s.wk)
    captures = sum(
        1 for s in positions if bb.has_capture(*(s.words if s.side == 0 else (s.wm, s.wk, s.bm, s.bk)), s.side == 0)
    )
    assert kings > 200 and captures > 200, "the sample covers kings and captures"
    rng = np.random.default_rng(7)
    sample = positions if FULL else [positions[i] for i in rng.choice(len(positions), CI_SAMPLE, replace=False)]
    for s in sample:
        assert engine_moves(s) == reference_moves(s), fen(s)


def pydraughts_perft(board: draughts.Board, depth: int) -> int:
    moves = board.legal_moves()
    if depth == 1:
        return len(moves)
    total = 0
    for m in moves:
        board.push(m)
        total += pydraughts_perft(board, depth - 1)
        board.pop()
    return total


@pytest.mark.parametrize("depth", range(1, (7 if FULL else 4) + 1))
def test_perft_from_the_start_equals_pydraughts(depth):
    s = Checkers().initial_state()
    assert bb.perft(*s.words, s.side, depth) == pydraughts_perft(draughts.Board(variant="english"), depth)


@pytest.mark.parametrize(
    "position",
    [
        "B:WK14,K15,K22,K23,28:B10,K1,K6,19",  # kings with branching jumps
        "W:W18,21,22,K30,31:B6,9,10,K26,K27",
        "B:W13,14,15,22,23,24:BK10,K11,5",
    ],
)
def test_perft_from_king_positions_equals_pydraughts(position):
    s = parse_fen(position)
    depth = 4 if FULL else 3
    ref = pydraughts_perft(draughts.Board(variant="english", fen=fen(s)), depth)
    assert bb.perft(*s.words, s.side, depth) == ref
