"""The checkers look-ahead (tdbook.players.checkers_search): α-β equals plain minimax, with and without
plausibility ordering; Samuel's six ply rules (Powell (2000) §3.2) against a direct recursive transcription and
on constructed positions; node counts; iterative deepening under budgets."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tdbook.games import checkers_bitboard as bb
from tdbook.games.checkers import Checkers, CheckersState, moves_of, parse_fen
from tdbook.games.checkers_features import exchange_offered, scratch
from tdbook.learners.checkers_polynomial import SAMUEL_42_GAMES, Polynomial, Scorer
from tdbook.players.checkers_search import MAX_PLY, WIN, Searcher, SearchRules, _stop

G = Checkers(quiet_limit=None)


def _children(s: CheckersState):
    return [(m, G.apply(s, m.text)) for m in moves_of(s)]


def minimax(s: CheckersState, parent: CheckersState | None, ply: int, stop, scorer: Scorer) -> float:
    """Plain negamax (no pruning), recursive, from the rules in words; ``stop(s, ply, last_jump)`` decides
    the leaves; a leaf is the polynomial's score turned to the side to move."""
    kids = _children(s)
    if not kids:
        return -(WIN - ply)
    if ply > 0 and stop(s, ply):
        return -scorer(s.words, s.side, (parent.words, parent.side))
    return max(-minimax(c, s, ply + 1, stop, scorer) for _, c in kids)


def _positions(seed: int, n: int) -> list[CheckersState]:
    out = np.zeros((400, 5), dtype=np.int64)
    bb.random_positions(seed, len(out), 80, out)
    rng = np.random.default_rng(seed)
    return [CheckersState(*(int(x) for x in out[i])) for i in rng.choice(len(out), n, replace=False)]


POLYS = [Polynomial(), Polynomial(SAMUEL_42_GAMES), Polynomial(SAMUEL_42_GAMES, construction="static")]


@pytest.mark.parametrize("poly", POLYS, ids=["material", "samuel42", "samuel42-static"])
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**31 - 1))
def test_alpha_beta_equals_minimax_at_fixed_depth(poly, seed):
    sc = Scorer(poly)
    for s in _positions(seed, 3):
        want = minimax(s, None, 0, lambda s_, ply: ply >= 3, sc)
        for ordering in (False, True):
            r = Searcher(poly, SearchRules.fixed(3), ordering)(s.words, s.side)
            assert r.value == pytest.approx(want, rel=1e-12, abs=1e-6)
            assert not r.aborted and r.max_ply <= 3


def samuel_stop(s: CheckersState, ply: int, last_jump: bool) -> bool:
    """The six rules, transcribed from Powell (2000) §3.2 for the reference minimax."""
    if ply < 3:
        return False
    if ply >= 20:
        return True
    ahead = abs(bb.credit(s.bm, s.bk) - bb.credit(s.wm, s.wk)) > 6
    if ply >= 11 and ahead:
        return True
    jump_next = any(m.is_capture for m in moves_of(s))
    exch = exchange_offered(*s.words, s.side, scratch())
    if ply == 3:
        return not (jump_next or last_jump or exch)
    if ply == 4:
        return not (jump_next or exch)
    return not jump_next


def samuel_minimax(s, parent, ply, last_jump, scorer) -> float:
    kids = _children(s)
    if not kids:
        return -(WIN - ply)
    if ply > 0 and samuel_stop(s, ply, last_jump):
        return -scorer(s.words, s.side, (parent.words, parent.side))
    return max(-samuel_minimax(c, s, ply + 1, m.is_capture, scorer) for m, c in kids)


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 2**31 - 1))
def test_samuel_ply_rules_equal_a_direct_transcription(seed):
    poly = Polynomial({"MOB": 2.0**10, "ADV": -(2.0**8), "THRET": 2.0**9})
    sc = Scorer(poly)
    for s in _positions(seed, 2):
        want = samuel_minimax(s, None, 0, False, sc)
        for ordering in (False, True):
            r = Searcher(poly, SearchRules.samuel(), ordering)(s.words, s.side)
            assert r.value == pytest.approx(want, rel=1e-12, abs=1e-6)


def _stops(fen: str, ply: int, last_jump: bool = False, **kw) -> bool:
    """Does the search stop (evaluate) at a node at ``ply`` holding this position (``_stop`` of the kernel)?"""
    s = parse_fen(fen)
    pos = np.zeros((MAX_PLY + 1, 6), dtype=np.int64)
    pos[ply] = [*s.words, s.side, int(last_jump)]
    return bool(_stop(pos, ply, SearchRules.samuel(**kw).array, scratch()))


QUIET = "B:W30:B1"  # Black to move: no jump, no exchange within reach
JUMP = "B:W18:B14"  # Black to move must jump 14x23
EXCH = "W:W22,26,30:B14"  # White to move can force an exchange (22-18, 14x23, 26x19)


def test_rule_1_always_three_plies():
    assert not any(_stops(f, p) for f in (QUIET, JUMP, EXCH) for p in (1, 2))


def test_rule_2_ply_3_stops_unless_a_jump_is_next_or_was_last_or_an_exchange_is_possible():
    assert _stops(QUIET, 3)
    assert not _stops(JUMP, 3)
    assert not _stops(QUIET, 3, last_jump=True)
    assert not _stops(EXCH, 3)


def test_rule_3_ply_4_stops_unless_a_jump_is_next_or_an_exchange_is_possible():
    assert _stops(QUIET, 4) and _stops(QUIET, 4, last_jump=True)
    assert not _stops(JUMP, 4) and not _stops(EXCH, 4)


def test_rule_4_from_ply_5_only_a_pending_jump_continues():
    for p in (5, 7, 10):
        assert _stops(QUIET, p) and _stops(EXCH, p) and _stops(QUIET, p, last_jump=True)
        assert not _stops(JUMP, p)


def test_rule_5_from_ply_11_a_lead_of_more_than_two_kings_stops_even_a_jump():
    ahead = "B:W18:B14,K1,K2,K3"  # credit 11 against 2: more than 6 ahead, Black must jump
    level = "B:W18:B14,K1,K2"  # 8 against 2: exactly two kings ahead
    assert not _stops(ahead, 10) and _stops(ahead, 11) and _stops(ahead, 15)
    assert not _stops(level, 11)
    assert not _stops(ahead, 11, ahead_credit=9)  # the margin is a parameter


def test_rule_6_ply_20_stops_regardless():
    assert _stops(JUMP, 20) and not _stops(JUMP, 19)
    assert _stops(JUMP, 8, hard_ply=8)


def test_quiet_positions_stop_at_ply_3_and_no_search_passes_the_hard_stop():
    s = parse_fen("B:WK29:BK4")  # two kings far apart: nothing can happen within 3 plies
    r = Searcher(Polynomial(), SearchRules.samuel(), ordering=False)(s.words, s.side)
    assert np.flatnonzero(r.leaf_plies).tolist() == [3] and r.max_ply == 3
    for s in _positions(7, 20):
        r = Searcher(Polynomial(), SearchRules.samuel(hard_ply=12), ordering=True)(s.words, s.side)
        assert r.max_ply <= 12 and r.leaf_plies[13:].sum() == 0


def test_node_counts():
    s = Checkers().initial_state()
    # depth 1: root + 7 children; depth 2 with a material evaluation (all 0): the first reply list is searched
    # in full, every later child is cut off by its first reply: 1 + 7 + 7 + 6
    assert Searcher(Polynomial(), SearchRules.fixed(1), ordering=False)(s.words, s.side).nodes == 8
    assert Searcher(Polynomial(), SearchRules.fixed(2), ordering=False)(s.words, s.side).nodes == 21
    full = 1 + 7 + 49 + 302 + 1469 + 7361 + 36768  # the whole 6-ply tree (Bik's perft)
    r = Searcher(Polynomial(), SearchRules.fixed(6), ordering=False)(s.words, s.side)
    assert r.nodes < full / 20 and r.best in range(7) and len(r.pv) == 6 and r.evals > 0


def test_terminal_scores_prefer_the_quickest_win():
    # Black king can capture White's last piece at once: a win at ply 1 scores WIN − 1
    s = parse_fen("B:W10:BK6")
    r = Searcher(Polynomial(), SearchRules.fixed(4), True)(s.words, s.side)
    assert r.value == WIN - 1 and moves_of(s)[r.best].text == "6x15"


def test_iterative_deepening_respects_budgets():
    s = Checkers().initial_state()
    sr = Searcher(Polynomial(SAMUEL_42_GAMES), ordering=True)
    r = sr.iterate(s.words, s.side, max_nodes=5_000)
    assert r is not None and not r.aborted and r.depth >= 2
    r2 = sr.iterate(s.words, s.side, max_nodes=200_000)
    assert r2.depth > r.depth
    r3 = sr.iterate(s.words, s.side, seconds=0.05)
    assert r3.depth >= 1
    with pytest.raises(ValueError, match="budget"):
        sr.iterate(s.words, s.side)
