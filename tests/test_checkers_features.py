"""Samuel's Appendix C parameters (tdbook.games.checkers_features), each on a hand-made position, and the
polynomial built on them (tdbook.learners.checkers_polynomial): piece advantage, term construction,
binary connectives, colour-flip symmetry.

Positions are FENs; the side whose rating is checked (the *passive* side, the one that has just moved) is
Black unless stated, and the active side is White.  Definitions: Samuel (1959) App. C as listed in the
docstring of tdbook.games.checkers_features.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tdbook.games import checkers_bitboard as bb
from tdbook.games.checkers import Checkers, CheckersState, flipped, parse_fen
from tdbook.games.checkers_features import N_PARAMS, PARAMS, parameters, scratch
from tdbook.learners.checkers_polynomial import (
    SAMUEL_42_GAMES,
    TERMS,
    Polynomial,
    Scorer,
    make_terms,
    piece_advantage,
)


def rate(fen: str, passive: int = 0) -> dict[str, float]:
    s = parse_fen(fen)
    out = np.zeros(N_PARAMS)
    parameters(*s.words, passive, out, scratch())
    return dict(zip(PARAMS, out.tolist()))


def test_adv_counts_passive_men_on_rows_5_6_minus_rows_3_4():
    """ADV: +1 per passive man on the 5th/6th rows, −1 per passive man on the 3rd/4th (kings not counted)."""
    assert rate("W:W32:B1,9,17,21,K18")["ADV"] == 1.0
    # for White the rows count from 29–32: 9 and 13 are its 5th/6th rows, 21 its 3rd
    assert rate("B:W9,13,21,29:B3", passive=1)["ADV"] == 1.0


def test_apex():
    """APEX: −1 with no kings, an active man on 7 or 26 and no passive man on either."""
    assert rate("W:W7,30:B1")["APEX"] == -1.0
    assert rate("W:W7:B1,26")["APEX"] == 0.0
    assert rate("W:W7,K30:B1")["APEX"] == 0.0


def test_back_row_bridge():
    """BACK: +1 when the active side has no king and passive pieces hold 1 and 3."""
    assert rate("W:W30:B1,3")["BACK"] == 1.0
    assert rate("W:WK30:B1,3")["BACK"] == 0.0
    assert rate("W:W30:B1,2")["BACK"] == 0.0


def test_cent_counts_passive_men_on_the_centre():
    """CENT: passive men on {10, 11, 14, 15, 18, 19, 22, 23} (Samuel's internal 11, 12, 15, 16, 20, 21, 24, 25)."""
    assert rate("W:W32:B10,15,22,12,K14")["CENT"] == 3.0


def test_cntr_counts_centre_squares_held_or_reachable_by_the_active_side():
    """CNTR: centre squares occupied by an active piece or to which one can move: 19, 23 held; 18, 15 reached."""
    assert rate("W:W19,23,24:B1")["CNTR"] == 4.0


def test_corn():
    """CORN: active credit ≤ 6, passive ahead, and the active side can move onto a double-corner square."""
    assert rate("W:WK6:B20,21")["CORN"] == 1.0  # the king on 6 reaches 1
    assert rate("W:WK6:B20")["CORN"] == 0.0  # passive not ahead (2 vs 3)
    assert rate("W:WK15:B20,21")["CORN"] == 0.0  # no double corner in reach


def test_cramp_and_its_white_squares():
    """CRAMP: +2 when the passive side holds 13 and 9 or 14, the active side all of 17, 21, 22, 25; for White
    the printed "19 or 20" is 19 or 24 by the colour symmetry."""
    assert rate("W:W17,21,22,25:B9,13")["CRAMP"] == 2.0
    assert rate("W:W17,21,22,25:B13,14")["CRAMP"] == 2.0
    assert rate("W:W17,21,22:B9,13")["CRAMP"] == 0.0
    assert rate("B:W20,24:B8,11,12,16", passive=1)["CRAMP"] == 2.0
    assert rate("B:W20,19:B8,11,12,16", passive=1)["CRAMP"] == 2.0


def test_mob_deny_mobil_exch_recap_thret():
    """White men on 22, 26, 30 against a Black man on 14.  MOB: 17, 18, 23, 25.  DENY: 17 (14x21 takes it and
    nothing recaptures); 18 is answered 14x23 26x19, an exchange (EXCH, RECAP).  THRET: on 17 or 18 the man
    could jump 14.  MOBIL = MOB − DENY."""
    r = rate("W:W22,26,30:B14")
    assert (r["MOB"], r["DENY"], r["MOBIL"], r["EXCH"], r["RECAP"], r["THRET"]) == (4, 1, 3, 1, 1, 2)
    # with 30 empty, 14x23 goes on over 26 to 30 (14x23x30): no recapture, so 18 is denied too
    r = rate("W:W22,26:B14")
    assert (r["MOB"], r["DENY"], r["EXCH"]) == (3, 2, 0)
    # without the man on 26 nothing recaptures: both squares 17 and 18 are denied, no exchange
    r = rate("W:W22:B14")
    assert (r["MOB"], r["DENY"], r["MOBIL"], r["EXCH"]) == (2, 2, 0, 0)


def test_dia_and_diav():
    """DIA: passive pieces on the double-corner diagonals; DIAV: 3/2 on them, 1 one removed, 1/2 two removed."""
    assert rate("W:W30:B1,14,K32,2")["DIA"] == 3.0
    assert rate("W:W30:B1,7,12,4")["DIAV"] == 1.5 + 1 + 0.5 + 0


def test_dyke():
    """DYKE: strings of three passive pieces on one diagonal; four in a row (1, 6, 10, 15) are two."""
    assert rate("W:W30:B1,6,10,15,K32")["DYKE"] == 2.0
    assert rate("W:W30:B1,6,15")["DYKE"] == 0.0


def test_expos():
    """EXPOS: passive pieces with two empty flanking squares on one diagonal: 15 (10 and 19 empty) and 11 (7
    and 16 empty); 13 on the edge cannot be flanked."""
    assert rate("W:W29:B11,15,13")["EXPOS"] == 2.0


def test_fork():
    """FORK: passive pieces side by side on 14 and 15, the fork square 18 and the landings 9 and 11 empty."""
    assert rate("W:W30:B14,15")["FORK"] == 1.0
    assert rate("W:W30:B9,14,15")["FORK"] == 0.0
    # the pair 18, 19: fork square 23 below (landings 14, 16) and, for an active king, 15 above (landings 22, 24)
    assert rate("W:WK30:B18,19,1")["FORK"] == rate("W:W30:B18,19,1")["FORK"] + 1


def test_gap():
    """GAP: 6 separates 1 and 10 on a diagonal; 5 separates 1 from the edge."""
    assert rate("W:W30:B1,10")["GAP"] == 2.0


def test_guard_and_oreo():
    """GUARD: no active king and the bridge or the triangle of Oreo held; OREO: the triangle and no passive king."""
    assert rate("W:W30:B2,3,7")["GUARD"] == 1.0 and rate("W:W30:B2,3,7")["OREO"] == 1.0
    assert rate("W:W30:B1,3")["GUARD"] == 1.0 and rate("W:W30:B1,3")["OREO"] == 0.0
    assert rate("W:WK30:B2,3,7")["GUARD"] == 0.0 and rate("W:WK30:B2,3,7")["OREO"] == 1.0
    assert rate("W:W30:B2,3,7,K20")["OREO"] == 0.0


def test_hole_node_pole():
    """HOLE: empty 15 is surrounded by passive 10, 11, 18; NODE: 10, 11, 18 each have ≥ 3 empty neighbours;
    POLE: men with every neighbour empty (13 on the edge too; a king does not count)."""
    r = rate("W:W30:B10,11,18")
    assert (r["HOLE"], r["NODE"], r["POLE"]) == (1, 3, 3)
    r = rate("W:W30:B13,K24")  # 13 has only two neighbours: a pole, not a node; the king on 24 a node only
    assert (r["POLE"], r["NODE"]) == (1, 1)


def test_kcent():
    """KCENT: passive kings on the centre squares."""
    assert rate("W:W30:BK14,K19,K1")["KCENT"] == 2.0


def test_move():
    """MOVE: even credit, total below 24, and an odd number of pieces in the system {1–4, 9–12, 17–20, 25–28}."""
    assert rate("W:W30:B1")["MOVE"] == 1.0
    assert rate("W:W26:B1")["MOVE"] == 0.0
    assert rate("W:W30,31:B1")["MOVE"] == 0.0


def test_moment():
    """MOMENT (our reading): Σ ((c − r)² − 1)/8 over passive pieces: 1 → 0, 4 → 6, 21 → 3."""
    assert rate("W:W30:B1,4,21")["MOMENT"] == 9.0


# ----------------------------------------------------------------------------- symmetry and the polynomial


def _random_state(seed: int) -> CheckersState:
    out = np.zeros((200, 5), dtype=np.int64)
    bb.random_positions(seed, len(out), 80, out)
    return CheckersState(*(int(x) for x in out[seed % 200]))


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**31 - 1))
def test_parameters_are_colour_symmetric(seed):
    s = _random_state(seed)
    a, b = np.zeros(N_PARAMS), np.zeros(N_PARAMS)
    for passive in (0, 1):
        parameters(*s.words, passive, a, scratch())
        parameters(*flipped(s).words, 1 - passive, b, scratch())
        assert np.array_equal(a, b)


def test_piece_advantage_values_kings_three_to_two_and_favours_trading_down_when_ahead():
    w = 1.0
    assert bb.credit(1, 0) == 2 and bb.credit(0, 1) == 3 and bb.credit(0b111, 0) == bb.credit(0, 0b11)  # 3 : 2
    assert piece_advantage(30, 24, w) == pytest.approx(6 * (2 - 54 / 48))
    ahead = piece_advantage(24, 22, w)  # a man up at the start
    after_trade = piece_advantage(22, 20, w)
    assert after_trade > ahead > 0
    assert piece_advantage(20, 22, w) < piece_advantage(22, 24, w) < 0  # behind: trades make it worse
    assert piece_advantage(10, 10, w) == 0.0


def test_make_terms_and_binary_connectives():
    mine = np.zeros(N_PARAMS)
    other = np.zeros(N_PARAMS)
    mine[PARAMS.index("DENY")], mine[PARAMS.index("MOB")] = 2, 1
    other[PARAMS.index("MOB")] = 3  # MOB term −2, DENY term +2
    out = np.zeros(len(TERMS))
    make_terms(mine, other, out)
    t = dict(zip(TERMS, out))
    assert t["DENY"] == 2 and t["MOB"] == -2 and t["MOBIL"] == 0
    assert (t["DEMO"], t["DEMMO"], t["DDEMO"], t["DDMM"]) == (0, 1, 0, 0)
    assert (t["MODE1"], t["MODE2"], t["MODE3"], t["MODE4"]) == (0, 0, 1, 0)  # MOBIL ≤ 0, DENY > 0: Ā·B
    assert (t["MOC1"], t["MOC3"], t["MOC2"], t["MOC4"]) == (0, 0, 0, 1)


def _eval_for_black(scorer: Scorer, s: CheckersState, parent: CheckersState) -> float:
    """The score from Black's side (the score is credited to the side that has just moved)."""
    v = scorer(s.words, s.side, (parent.words, parent.side))
    return v if s.side == 1 else -v


@pytest.mark.parametrize("construction", ["samuel", "static"])
@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**31 - 1))
def test_colour_flip_negates_the_evaluation(construction, seed):
    """Board symmetry: the colour-flipped position (and its flipped predecessor) scores the negation, for
    Black, of the original — for the full polynomial with every term weighted."""
    out = np.zeros((300, 5), dtype=np.int64)
    bb.random_positions(seed, len(out), 80, out)
    k = 1 + seed % 299
    parent = CheckersState(*(int(x) for x in out[k - 1]))
    s = CheckersState(*(int(x) for x in out[k]))
    g = Checkers()
    if s.words not in {g.apply(parent, m).words for m in g.legal_moves(parent)}:  # a new game began at row k
        parent, s = s, g.apply(s, g.legal_moves(s)[0])
    rng = np.random.default_rng(seed)
    poly = Polynomial(dict(zip(TERMS, rng.normal(0, 2**10, len(TERMS)))), construction=construction)
    sc = Scorer(poly)
    v = _eval_for_black(sc, s, parent)
    vf = _eval_for_black(sc, flipped(s), flipped(parent))
    assert vf == pytest.approx(-v, rel=1e-12, abs=1e-6)


def test_samuel_construction_is_the_difference_of_successive_ratings():
    """App. C: term = rating of the side that moved on this board − the other side's rating a move earlier."""
    parent = parse_fen("W:W22,26:B14,1")  # White to move; Black has just moved: Black passive
    child = parse_fen("B:W18,26:B14,1")  # White played 22-18: White passive
    sc = Scorer(Polynomial({"MOB": 1.0}, piece_weight=1.0))
    t = sc.terms_of(child.words, child.side, (parent.words, parent.side))
    r_child = rate("B:W18,26:B14,1", passive=1)
    r_parent = rate("W:W22,26:B14,1", passive=0)
    assert t["MOB"] == r_child["MOB"] - r_parent["MOB"]
    assert sc(child.words, child.side, (parent.words, parent.side)) == pytest.approx(t["MOB"])  # equal material
    static = Scorer(Polynomial({"MOB": 1.0}, piece_weight=1.0, construction="static"))
    assert static(child.words, child.side) == r_child["MOB"] - rate("B:W18,26:B14,1", passive=0)["MOB"]


def test_polynomial_validation_and_samuels_table():
    with pytest.raises(ValueError, match="unknown term"):
        Polynomial({"NOPE": 1.0})
    with pytest.raises(ValueError, match="construction"):
        Polynomial(construction="other")
    with pytest.raises(ValueError, match="needs the board before"):
        Scorer(Polynomial({"MOB": 1.0}))((0, 0, 0, 0), 0)
    p = Polynomial(SAMUEL_42_GAMES)
    assert max(abs(w) for w in p.weights.values()) == 2**18 and len(p.weights) == 12
    assert Polynomial().need == 0  # material only
