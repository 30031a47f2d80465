"""Systems 1 and 2 (Kenju thesis §3.2–3.3, §4.2–4.4, App. C): situation codes of hand-made positions, App. C's counts
by enumeration, System 1's training on the opponent's moves, System 2's useful moves and teaching."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tdbook.experiments.kenju import ram as kr
from tdbook.games import kenju as K
from tdbook.games import kenju_codes as C
from tdbook.learners import ram_net as R
from tdbook.players import kenju_ram as PR


def _board(points):
    b = K.new_board()
    for p in points:
        K.place(b, K.cell_of(*p))
    return b


def test_fields_of_a_hand_made_position():
    # White: (0,0), (1,0), (2,0); Black: (0,2), (5,5)
    b = _board([(0, 0), (0, 2), (1, 0), (5, 5), (2, 0)])
    f = np.zeros((4, 4), dtype=np.int64)
    C.fields(b, K.cell_of(3, 0), K.WHITE, f)
    assert f[0].tolist() == [3, 2, 0, 5], "horizontal: two windows hold White's three"
    assert f[1].tolist() == [0, 5, 0, 5]
    C.fields(b, K.cell_of(0, 1), K.WHITE, f)
    assert f[1].tolist() == [1, 1, 1, 1], "vertical between White (0,0) and Black (0,2): one live window each"
    assert C.code_text(b, K.cell_of(3, 0)).startswith("[3.2/0.5]H")


def test_code48_sorted_descending_and_code64_unary():
    b = _board([(0, 0), (0, 2), (1, 0), (5, 5), (2, 0)])
    addr = np.zeros(4, dtype=np.int64)
    C.code48(b, K.cell_of(3, 0), K.WHITE, True, addr)
    assert addr.tolist() == sorted(addr.tolist(), reverse=True)
    assert addr[0] == (3 << 9) | (2 << 6) | (0 << 3) | 5
    C.code48(b, K.cell_of(3, 0), K.WHITE, False, addr)
    assert (2 << 9) | (3 << 6) | (5 << 3) | 0 in addr.tolist()
    bits = np.zeros(64, dtype=np.uint8)
    C.code64(b, K.cell_of(3, 0), K.WHITE, bits)
    assert "".join(map(str, bits[:16])) == "0111" + "0001" + "0000" + "1111"
    assert [C.unary(v) for v in range(5)] == ["0000", "0001", "0011", "0111", "1111"]


def test_appendix_c_enumeration():
    a = C.appendix_c()
    assert len(a["subcodes"]) == 21 and len(a["combinations"]) == 91
    app_c = {"0.5", "1.1", "1.2", "1.3", "1.4", "2.1", "2.2", "2.3", "3.1", "3.2", "4.1"}
    assert app_c <= set(a["subcodes"])
    assert a["pm_values"] == [0, 1, 2, 3, 4] and a["pl_values"] == [1, 2, 3, 4, 5], "§3.2.3: PM 0..4, PL 1..5"
    # a hand-made line: X X X X ? X X X X — all five windows hold four of the player's stones
    assert C.line_fields([1, 1, 1, 1, 0, 1, 1, 1, 1]) == (4, 5, 0, 5)
    # O . . X ? . . . . — the window holding both is dead: three windows hold the single X, none an O
    assert C.line_fields([2, 0, 0, 1, 0, 0, 0, 0, 0]) == (1, 3, 0, 5)


def test_code_sizes_follow_the_enumeration():
    z = C.code_sizes()
    assert z["code_bits"] == 48 and z["combination_bits"] == 4 * 7
    assert z["full_codes"] == math.comb(94, 4) and z["full_codes_unsorted"] == 91**4
    assert z["full_code_bits"] == 22
    assert C.bits_for(71) == 7 and C.bits_for(128) == 7 and C.bits_for(129) == 8 and C.bits_for(1) == 1
    with pytest.raises(ValueError, match="at least one value"):
        C.bits_for(0)
    with pytest.raises(ValueError, match="nine points"):
        C.line_fields([0] * 8)


def test_the_enumerated_line_code_is_the_board_encoders():
    """App. C's enumeration codes a line with line_fields; on positions of real games every direction of every
    useful move must get the same (PM, PL, OM, OL) from the board encoder fields."""
    rng = np.random.default_rng(7)
    buf = np.zeros(K.MAX_PLACES, dtype=np.int32)
    f = np.zeros((4, 4), dtype=np.int64)
    checked = 0
    for _ in range(6):
        b = K.new_board()
        K.place(b, K.cell_of(0, 0))
        for _ply in range(24):
            n = K.useful_moves(b, buf)
            for cell in buf[:n].tolist():
                for colour in (K.WHITE, K.BLACK):
                    C.fields(b, cell, colour, f)
                    for d in range(4):
                        line = []
                        for k in range(-4, 5):
                            c = int(b.colour[cell + k * K.STEP[d]])
                            line.append(0 if c == K.EMPTY else 1 if c == colour else 2)
                        assert C.line_fields(line) == tuple(f[d].tolist())
                        checked += 1
            if K.status(b) != K.ONGOING:
                break
            K.place(b, int(buf[rng.integers(n)]))
    assert checked > 10_000


def test_system1_learns_the_addressed_words_of_the_opponents_move():
    b = _board([(0, 0), (1, 1)])
    net = R.word_net(PR.S1_NODES, PR.S1_BITS)
    PR.system1_learn(b, net, K.cell_of(2, 2), K.BLACK, True)
    addr = np.zeros(4, dtype=np.int64)
    C.code48(b, K.cell_of(2, 2), K.BLACK, True, addr)
    assert net.sum() == 4 - (len(set(zip(range(4), addr.tolist()))) - 4) and all(
        net[i, a] == 1 for i, a in enumerate(addr)
    )
    buf = np.zeros(K.MAX_PLACES, dtype=np.int32)
    c = PR.system1_choose(b, net, True, buf)
    assert b.colour[c] == 0 and K.n_lines_through(b, c) > 0


def test_system2_useful_moves_and_teaching():
    b = _board([(0, 0), (3, 3)])
    out = np.zeros(K.MAX_PLACES, dtype=np.int32)
    n = PR.system2_useful(b, out)
    pts = {(int(K.x_of(c)), int(K.y_of(c))) for c in out[:n]}
    assert len(pts) == n and (1, 1) in pts and (4, 0) in pts and (0, 0) not in pts
    mapping = R.random_mapping(64, 8, 8, seed=1, bias="linear")
    net = R.discriminators(8, 8, 8)
    c = K.cell_of(1, 1)
    bits = np.zeros(64, dtype=np.uint8)
    addr = np.zeros(8, dtype=np.int64)
    PR.system2_teach(b, net, mapping, c, K.WHITE, 3, False)
    PR.system2_teach(b, net, mapping, c, K.WHITE, 6, False)
    assert PR.system2_level(b, net, mapping, c, K.WHITE, bits, addr) == (6, 2), "saturated: levels 3 and 6 tie"
    PR.system2_teach(b, net, mapping, c, K.WHITE, 3, True)
    assert PR.system2_level(b, net, mapping, c, K.WHITE, bits, addr) == (3, 1), "detrain all, then train 3"
    PR.system2_teach(b, net, mapping, c, K.WHITE, -5, True)
    assert PR.system2_level(b, net, mapping, c, K.WHITE, bits, addr)[0] == 3


def test_system1_and_system2_runs_are_seeded():
    a = kr.system1_run(4, seed=2)
    b = kr.system1_run(4, seed=2)
    assert np.array_equal(a.net, b.net) and np.array_equal(a.dist, b.dist) and a.net.sum() > 0
    assert kr.teacher_level(_board([(0, 0), (1, 0), (0, 1), (1, 1), (0, 2), (2, 1), (0, 3)]), K.cell_of(0, 4)) == 8


def test_system2_curve_is_seeded_and_detraining_cures_saturation():
    a = kr.system2_curve("linear", False, 6, seed=4, points=2, test_games=3)
    b = kr.system2_curve("linear", False, 6, seed=4, points=2, test_games=3)
    c = kr.system2_curve("linear", True, 6, seed=4, points=2, test_games=3)
    assert np.array_equal(a.saturated, b.saturated) and np.array_equal(a.agree, b.agree)
    assert c.saturated[-1] < a.saturated[-1]
