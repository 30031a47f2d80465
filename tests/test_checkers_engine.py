"""The checkers engine (tdbook.games.checkers_bitboard) and façade (tdbook.games.checkers).

Perft from the start position against the published table of Aart Bik ("perft for 8x8 checkers",
TalkChess / Computer Chess Club forum, 8 May 2009: perft(1..20) from the initial position; his move
generator, like ours, keeps duplicate captures): depth ≤ 11 here, to 13 with ``TDBOOK_FULL_CHECKS=1``.
pydraughts (an independent rules implementation) checks the low depths and the move sets
(tests/test_checkers_pydraughts.py).  Hypothesis property tests run the generator on thousands of arbitrary
positions against a naive coordinate-based generator written here, and check the rules' invariants:
crowning ends a move, a capture is forced whenever one exists, jump sequences are complete, and move
generation commutes with the colour flip.
"""

from __future__ import annotations

import os
import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tdbook.games import checkers_bitboard as bb
from tdbook.games.base import IllegalMove
from tdbook.games.checkers import (
    Checkers,
    CheckersState,
    ballots,
    board_text,
    fen,
    flipped,
    moves_of,
    parse_fen,
    samuel_bit,
    samuel_word,
    squares,
    word,
)

FULL = os.environ.get("TDBOOK_FULL_CHECKS") == "1"

#: Aart Bik (2009), perft(d) of English checkers from the initial position, d = 1..17
BIK_PERFT = [
    7,
    49,
    302,
    1469,
    7361,
    36768,
    179740,
    845931,
    3963680,
    18391564,
    85242128,
    388623673,
    1766623630,
    7978439499,
    36263167175,
    165629569428,
    758818810990,
]


@pytest.mark.parametrize("depth", range(1, (13 if FULL else 11) + 1))
def test_perft_from_the_start_matches_the_published_table(depth):
    s = Checkers().initial_state()
    assert bb.perft(*s.words, s.side, depth) == BIK_PERFT[depth - 1]


def test_divide_adds_up_to_perft():
    s = Checkers().initial_state()
    counts = np.zeros(bb.MAX_MOVES, dtype=np.int64)
    buf = bb.move_buffer()
    n = bb.divide(*s.words, s.side, 6, counts, buf)
    assert n == 7 and counts[:n].sum() == BIK_PERFT[5]


# ----------------------------------------------------------------------------- a naive reference generator

DIRS = ((1, -1), (1, 1), (-1, -1), (-1, 1))


def _rc(s):  # standard square 1..32 → (row, col)
    i = s - 1
    r = i // 4
    return r, 2 * (i % 4) + (1 if r % 2 == 0 else 0)


def _sq(r, c):
    if 0 <= r < 8 and 0 <= c < 8 and (r + c) % 2 == 1:
        return 4 * r + c // 2 + 1
    return None


def naive_moves(state: CheckersState) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """((from, landing…), sorted captured) of every legal move, from the rules in words."""
    board = {}
    for w, piece in zip(state.words, ("b", "B", "w", "W")):
        for s in squares(w):
            board[s] = piece
    mine = "bB" if state.side == 0 else "wW"
    fwd = (0, 1) if state.side == 0 else (2, 3)
    crown_row = 7 if state.side == 0 else 0
    jumps, steps = [], []

    def extend(start, s, king, taken, path):
        more = False
        r, c = _rc(s)
        for d in range(4) if king else fwd:
            dr, dc = DIRS[d]
            o, land = _sq(r + dr, c + dc), _sq(r + 2 * dr, c + 2 * dc)
            if o is None or land is None or o in taken or board.get(o, ".") in mine + ".":
                continue
            if land != start and land in board and land not in taken:
                continue
            more = True
            if not king and _rc(land)[0] == crown_row:
                jumps.append(((start, *path, land), tuple(sorted(taken | {o}))))
            else:
                extend(start, land, king, taken | {o}, path + [land])
        if not more and path:
            jumps.append(((start, *path), tuple(sorted(taken))))

    for s, p in board.items():
        if p not in mine:
            continue
        king = p.isupper()
        extend(s, s, king, set(), [])
        r, c = _rc(s)
        for d in range(4) if king else fwd:
            t = _sq(r + DIRS[d][0], c + DIRS[d][1])
            if t is not None and t not in board:
                steps.append(((s, t), ()))
    return sorted(jumps) if jumps else sorted(steps)


def engine_moves(state: CheckersState) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    return sorted(((m.frm, *m.path), m.captured) for m in moves_of(state))


def random_state(rng: np.random.Generator) -> CheckersState:
    """An arbitrary legal-looking position: up to 12 pieces a side on random squares, some kings."""
    sqs = rng.permutation(32) + 1
    nb, nw = int(rng.integers(1, 13)), int(rng.integers(1, 13))
    bm = bk = wm = wk = 0
    for s in sqs[:nb]:
        if s >= 29 or rng.random() < 0.3:
            bk |= 1 << (s - 1)
        else:
            bm |= 1 << (s - 1)
    for s in sqs[nb : nb + nw]:
        if s <= 4 or rng.random() < 0.3:
            wk |= 1 << (s - 1)
        else:
            wm |= 1 << (s - 1)
    return CheckersState(int(bm), int(bk), int(wm), int(wk), int(rng.integers(2)))


def dense_state(rng: np.random.Generator) -> CheckersState:
    """A crowded position, where multi-jumps and kings' branching captures are common."""
    s = random_state(rng)
    while bin(s.bm | s.bk | s.wm | s.wk).count("1") < 14:
        s = random_state(rng)
    return s


N_PER_EXAMPLE = 40


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_move_generation_equals_the_naive_rules_on_arbitrary_positions(seed):
    rng = np.random.default_rng(seed)
    for _ in range(N_PER_EXAMPLE):
        s = random_state(rng) if rng.random() < 0.5 else dense_state(rng)
        assert engine_moves(s) == naive_moves(s), fen(s)


def _invariants(s: CheckersState) -> None:
    g = Checkers(quiet_limit=None)
    ms = moves_of(s)
    own = (s.bm | s.bk) if s.side == 0 else (s.wm | s.wk)
    opp = (s.wm | s.wk) if s.side == 0 else (s.bm | s.bk)
    kings = s.bk if s.side == 0 else s.wk
    crown = range(29, 33) if s.side == 0 else range(1, 5)
    any_capture = bb.has_capture(*((s.bm, s.bk, s.wm, s.wk, True) if s.side == 0 else (s.wm, s.wk, s.bm, s.bk, False)))
    # a capture is forced: when one exists every legal move captures, else none does
    if any_capture:
        assert ms and all(m.is_capture for m in ms)
    else:
        assert not any(m.is_capture for m in ms)
    for m in ms:
        assert (own >> (m.frm - 1)) & 1
        assert all((opp >> (c - 1)) & 1 for c in m.captured) and len(set(m.captured)) == len(m.captured)
        assert len(m.captured) == (len(m.path) if m.is_capture else 0)
        t = g.apply(s, m.text)
        man = not (kings >> (m.frm - 1)) & 1
        mover_kings = t.bk if s.side == 0 else t.wk
        # crowning ends a move: a man's path touches its far row only at its last square, and it is a king there
        if man:
            assert all(p not in crown for p in m.path[:-1])
            assert bool((mover_kings >> (m.to - 1)) & 1) == (m.to in crown)
        # the jump sequence is complete: the piece that moved has no further jump (unless just crowned)
        if m.is_capture and not (man and m.to in crown):
            after = t._replace(side=s.side)
            assert not any(x.frm == m.to and x.is_capture for x in moves_of(after)), (fen(s), m.text)
    # colour-flip symmetry: the flipped position's moves are the mirrored moves (s → 33 − s)
    mirrored = sorted((tuple(33 - a for a in p), tuple(sorted(33 - c for c in cap))) for p, cap in engine_moves(s))
    assert engine_moves(flipped(s)) == mirrored


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_rules_invariants_on_arbitrary_positions(seed):
    rng = np.random.default_rng(seed)
    for _ in range(N_PER_EXAMPLE):
        _invariants(random_state(rng) if rng.random() < 0.5 else dense_state(rng))


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31 - 1))
def test_rules_invariants_on_positions_of_random_games(seed):
    out = np.zeros((N_PER_EXAMPLE * 3, 5), dtype=np.int64)
    bb.random_positions(seed, len(out), 80, out)
    for row in out[::3]:
        s = CheckersState(*(int(x) for x in row))
        _invariants(s)
        assert engine_moves(s) == naive_moves(s)


# ----------------------------------------------------------------------------- rules on hand-made positions


def test_crowning_ends_the_jump_and_men_capture_forward_only():
    g = Checkers()
    # Black man on 22 jumps 26 to land on 31 (crowned); from 31 a king could jump 27 on to 24, a man may not go on
    s = parse_fen("B:W26,27:B22")
    assert g.legal_moves(s) == ["22x31"]
    t = g.apply(s, "22x31")
    assert squares(t.bk) == [31] and t.bm == 0 and squares(t.wm) == [27]
    # a man cannot capture backwards: White man on 18 behind Black man on 23 with 27 empty — no capture
    s = parse_fen("B:W18,32:B23")
    assert all(not m.is_capture for m in moves_of(s))
    # a king captures backwards and chains
    s = parse_fen("B:W18,10:BK23")
    assert g.legal_moves(s) == ["23x14x7"]


def test_any_capture_sequence_may_be_chosen_not_only_the_longest():
    s = parse_fen("B:W14,15,23:B10")  # 10x17 (one piece) or 10x19x26 (two)
    assert sorted(Checkers().legal_moves(s)) == ["10x17", "10x19x26"]


def test_ambiguous_capture_text_needs_the_path():
    g = Checkers()
    s = parse_fen("B:W14,15,22,23:B10")  # 10x17x26 over 14, 22 or 10x19x26 over 15, 23
    assert sorted(g.legal_moves(s)) == ["10x17x26", "10x19x26"]
    with pytest.raises(IllegalMove, match=r"ambiguous.*10x17x26.*10x19x26"):
        g.apply(s, "10x26")
    assert squares(g.apply(s, "10x17x26").wm) == [15, 23]
    assert squares(g.apply(s, "10-19-26").wm) == [14, 22]  # '-' is accepted for a listed path too
    assert g.apply(s, "10x19x26") == g.apply(s, "10 x 19 x 26")


@pytest.mark.parametrize(
    "position, text, reason",
    [
        ("B:W18:B14,10", "10-15", "capture is compulsory"),
        ("B:W18:B14,10", "11-15", "square 11 is empty"),
        ("B:W18:B14,10", "18-22", "holds a White man, but Black is to move"),
        ("W:W18,K5:B14,10", "18-22", "forward only"),
        ("B:W14,15,22,23:B10", "10x17", "multi-jump must be completed"),
        ("B:W26:B22", "22x31x24", "ends on 31 .a man crowned"),
        ("B:W21,22:B1,17", "17-21", "occupied"),
        ("B:W32:B1", "1-10", "not a move of a Black man from square 1"),
        ("B:W32:B1", "1-40", "not on the board"),
        ("B:W32:B1", "one to five", "cannot read move"),
    ],
)
def test_illegal_text_moves_name_the_rule_and_change_nothing(position, text, reason):
    g = Checkers()
    s = parse_fen(position)
    before = pickle.dumps(s)
    with pytest.raises(IllegalMove, match=reason) as e:
        g.apply(s, text)
    assert e.value.move == text and text in str(e.value)
    assert pickle.dumps(s) == before


def test_no_legal_move_loses_and_result_is_for_black():
    g = Checkers()
    s = parse_fen("W:W29:B25,K22")  # White's man on 29 is boxed in by Black on 25 (22 guards the jump): no move
    assert g.legal_moves(s) == [] and g.is_terminal(s) and g.result(s) == 1.0
    s = parse_fen("B:W5:B")  # Black has no pieces
    assert g.is_terminal(s) and g.result(s) == -1.0
    with pytest.raises(ValueError, match="terminal"):
        g.result(g.initial_state())


def test_forty_moves_per_side_without_capture_or_man_move_draw():
    g = Checkers()
    s = parse_fen("B:WK32:BK1")
    seq = ["1-6", "32-27", "6-1", "27-32"]
    for i in range(80):
        assert not g.is_terminal(s)
        s = g.apply(s, seq[i % 4])
    assert s.quiet == 80 and g.is_terminal(s) and g.result(s) == 0.0 and g.legal_moves(s) == []
    with pytest.raises(IllegalMove, match="drawn by the 80-ply rule"):
        g.apply(s, "1-6")
    # a man move resets the count
    t = g.apply(parse_fen("B:WK32:B5,K1")._replace(quiet=79), "5-9")
    assert t.quiet == 0 and not g.is_terminal(t)


def test_samuels_seventy_move_cutoff_is_judged_on_material():
    g = Checkers(move_limit=70)
    s = parse_fen("B:W30,31:B1,2,3")._replace(ply=70)
    assert g.is_terminal(s) and g.result(s) == 1.0
    assert Checkers(move_limit=70, adjudicate="draw").result(s) == 0.0
    assert not Checkers().is_terminal(s)
    with pytest.raises(ValueError, match="move_limit"):
        Checkers(move_limit=0)


def test_fen_round_trip_and_bad_fens_are_refused():
    s = parse_fen("W:W18,K30:B14,10,K3")
    assert fen(s) == "W:W18,K30:B10,14,K3" and parse_fen(fen(s)) == s
    for bad, msg in [
        ("X:W1:B2", "side to move"),
        ("B:W1,1x:B2", "not a square"),
        ("B:W33:B2", "not a square"),
        ("B:W5:B5", "two pieces"),
        ("B:W1:B30", "crowning row"),
    ]:
        with pytest.raises(ValueError, match=msg):
            parse_fen(bad)


def test_encoding_layout():
    g = Checkers()
    s = parse_fen("W:W18,K30:B14,K3")
    x = g.encode(s)
    assert x.shape == (129,) and x.dtype == np.float64
    assert np.flatnonzero(x).tolist() == [13, 32 + 2, 64 + 17, 96 + 29]
    assert g.encode(s._replace(side=0))[128] == 1.0


def test_samuel_numbering_makes_every_forward_move_a_shift_of_4_or_5():
    """Powell (2000) §3.1: "to move forward and to the right, 4 … forward and left, 5" — true in Samuel's 35-bit
    layout (bits 9, 18, 27 unused), not in the plain 32-square numbering."""
    assert [samuel_bit(s) for s in (1, 8, 9, 16, 17, 24, 25, 32)] == [1, 8, 10, 17, 19, 26, 28, 35]
    shifts32, shifts35 = set(), set()
    for s in range(1, 33):
        st_ = CheckersState(1 << (s - 1), 0, 0, 0, 0) if s < 29 else None
        if st_ is None:
            continue
        for m in moves_of(st_):
            shifts32.add(m.to - m.frm)
            shifts35.add(samuel_bit(m.to) - samuel_bit(m.frm))
            assert samuel_word(word([m.to])) == samuel_word(word([m.frm])) << (samuel_bit(m.to) - samuel_bit(m.frm))
    assert shifts35 == {4, 5} and shifts32 == {3, 4, 5}


def test_three_move_ballots():
    b = ballots()
    assert len(b) == 157 and len(ballots(include_lost=True)) == 174
    name, s = b[0]
    assert name.startswith("001 09-13 21-17 05-09") and s.side == 1 and s.ply == 3
    g = Checkers()
    # each ballot is the position after its three moves from the start
    for name, s in b[::10]:
        t = g.initial_state()
        for mv in name.split()[1:]:
            t = g.apply(t, mv)
        assert t.words == s.words and t.side == s.side


def test_text_board():
    txt = board_text(Checkers().initial_state())
    lines = txt.splitlines()
    assert lines[0].startswith("Black to move") and len(lines) == 9
    assert lines[1].split()[:4] == ["b", "b", "b", "b"] and lines[1].split()[-4:] == ["1", "2", "3", "4"]
    assert lines[8].split()[:4] == ["w", "w", "w", "w"]
