"""Draw-poker players (Waterman (1968) ch. 5, App. B, D, G): the built-in program, the random rule, the
stand-ins, matches and duplicate tests, and manual training by a person."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tdbook.core.rng import make_state
from tdbook.experiments.draw_poker.matches import Protocol, match, proficiency
from tdbook.games import draw_poker as dp
from tdbook.learners.draw_poker_heuristics import C_CALL, C_SB, built_in, lisp, random_program
from tdbook.learners.production_rules import RANDOM
from tdbook.players.draw_poker import (
    Table,
    equity_player,
    experienced,
    program_player,
    random_action,
    random_player,
)
from tdbook.players.draw_poker_equity import equity_tables
from tdbook.players.draw_poker_human import ManualSession, parse_advice

BUILT_IN = built_in()


def _beta(rs, h_text, pot, lastbet, r, book=None, phase=dp.BET1):
    """The trainee-view subvector of seat 0 holding ``h_text`` with the given pot, pending bet and ORP."""
    st_ = np.zeros(dp.NST, dtype=np.int64)
    deal = np.concatenate([dp.cards(h_text), [c for c in range(52) if c not in dp.cards(h_text)][:11]])
    dp.new_round(st_, deal, 0, dp.DEFAULT_CAP)
    st_[dp.POT], st_[dp.LASTBET], st_[dp.PHASE] = pot, lastbet, phase
    st_[dp.REPL + 1] = r
    vals, aux, fv = np.zeros(7, dtype=np.int64), np.zeros(7, dtype=np.int64), np.zeros(5)
    dp.subvector(
        st_, 0, np.zeros((2, dp.NBOOK), dtype=np.int64) if book is None else book, dp.K_VALUES, 0, vals, aux, fv
    )
    return vals, aux


def test_built_in_program_shape_and_variants():
    assert BUILT_IN.n_rules() == 28 and sum(s is not None for s in BUILT_IN.symbols) == 41
    app = built_in("appB")
    p9 = lambda rs: rs.symbols[rs.symbol_id("P9")].lo - 1  # noqa: E731
    assert (p9(BUILT_IN), p9(app)) == (17, 15)
    with pytest.raises(ValueError):
        built_in("fig9")


@pytest.mark.parametrize(
    "hand,pot,lastbet,r,rule",
    [
        ("D2 C2 H11 S9 D4", 2, 0, -1, 19),  # App. G: pair of 2s, first to act: BET SB
        ("D2 C2 H11 S9 D4", 4, 6, -1, 18),  # facing a raise of 6: CALL
        ("C13 C11 D8 D3 S2", 2, 6, -1, 28),  # nothing facing 6: DROP
        ("C12 H12 H8 S6 S3", 2, 0, -1, 12),  # pair of queens, first: BET MB
        ("C8 S8 H10 D7 D6", 2, 4, -1, 18),  # pair of 8s facing 4: CALL
    ],
)
def test_built_in_rule_numbers_of_app_g(hand, pot, lastbet, r, rule):
    vals, aux = _beta(BUILT_IN, hand, pot, lastbet, r)
    assert BUILT_IN.fire(vals, aux) + 1 == rule


def test_every_built_in_call_needs_a_pending_bet():
    for rule in BUILT_IN.rules:
        if rule.decision == C_CALL:
            b = BUILT_IN.symbols[rule.left[2]]
            assert b.lo >= 1, f"{BUILT_IN.format_rule(rule)} could call with no bet pending"


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 1), st.integers(0, 1), st.integers(0, 20), st.integers(0, 2**31))
def test_random_rule_never_calls_without_a_bet(cset, mode, lastbet, seed):
    st_ = np.zeros(dp.NST, dtype=np.int64)
    dp.new_round(st_, np.arange(16, dtype=np.int64), 0, dp.DEFAULT_CAP)
    st_[dp.LASTBET] = lastbet
    rng = make_state(seed % 10_000, 0)
    kind, amt, cls = random_action(cset, mode, st_, 11, rng)
    assert dp.check_action(st_, kind, amt) == 0
    if lastbet == 0:
        assert kind != dp.CALL


def test_matches_are_legal_zero_sum_and_reproducible():
    players = [
        program_player(BUILT_IN),
        experienced(),
        equity_player(),
        random_player(),
        program_player(random_program("implicit"), classes="implicit"),
    ]
    for a in players:
        for b in players:
            n1, d1 = match(a, b, 60, seed=4)
            n2, d2 = match(a, b, 60, seed=4)
            assert np.array_equal(n1, n2) and d1 == d2 and d1 >= 60
            assert n1.shape == (60, 2) and np.all(n1.sum(1) == 0), "every r-o-p is zero-sum"
            assert n1[:, 0].any(), "someone wins money over 60 r-o-ps"
    pr = proficiency(players[0], players[1], 5, seed=2)
    pr2 = proficiency(players[0], players[1], 5, seed=2)
    assert np.array_equal(pr.nets1, pr2.nets1) and pr.nets1.shape == (5, 25)
    assert np.all(np.abs(pr.gross_pct) <= 100)


def test_duplicate_test_swaps_the_hands():
    """Fig. 5-4: with a deterministic player against itself and positions swapped as well as hands, the opponent
    earns in series II exactly what the program earned in series I on every deal (the game order permutation
    included); with the seed's protocol (hands only) the positions differ and so can the amounts."""
    p = equity_player(bluff=0.0)
    pr = proficiency(p, p, 10, seed=9, protocol=Protocol(swap_seats=True))
    assert np.array_equal(pr.nets1, pr.nets2) and np.all(pr.chips_per_rop == 0)
    seed_protocol = proficiency(p, p, 10, seed=9)
    assert not np.array_equal(seed_protocol.nets1, seed_protocol.nets2)


def test_equity_tables_make_sense():
    pre, post, post_n = equity_tables()
    pair = lambda r: pre[4 + r - 2]  # noqa: E731
    assert pair(14) > pair(8) > pair(2) > pre[0]
    assert 0.45 < float(pre[4 + 9 - 2]) < 0.75
    for k in range(4):
        assert post_n[k] > 1000 and np.all(np.diff(post[k, : post_n[k]]) >= 0)


def test_advice_is_read_as_app_d_prints_it():
    cls, why = parse_advice("BET SB BECAUSE YOUR HAND IS FAIR, AND THE POT IS SMALL")
    assert cls == C_SB and why == {0: ("category", "H3"), 1: "small"}
    cls, why = parse_advice("(CALL BECAUSE YOUR HAND IS FAIR, AND THE LASTBET IS LARGE, AND ORP IS (EQUAL TO -1))")
    assert cls == C_CALL and why[5] == ("set", -1, -1, "R = -1")
    for bad, msg in [
        ("FOLD BECAUSE YOUR HAND IS POOR", "unknown decision"),
        ("DROP BECAUSE YOUR NERVE IS POOR", "unknown variable"),
        ("DROP BECAUSE THE POT IS HUGE", "LARGE or SMALL"),
        ("DROP", "BECAUSE"),
    ]:
        with pytest.raises(ValueError, match=msg):
            parse_advice(bad)


def test_manual_session_refuses_invalid_advice_and_learns():
    s = ManualSession(seed=3)
    assert s.waiting_for() == "judge" and s.st[dp.LASTBET] == 0
    before = s.prog.listing()
    with pytest.raises(ValueError, match="no bet is pending"):
        s.advise("CALL BECAUSE YOUR HAND IS FAIR")
    with pytest.raises(ValueError, match="unknown variable"):
        s.advise("BET SB BECAUSE YOUR NERVE IS FAIR")
    with pytest.raises(ValueError, match="does not hold"):
        s.advise("BET SB BECAUSE THE ORP IS (EQUAL TO 2)")
    assert s.prog.listing() == before and s.trials == 0
    s.advise("BET SB BECAUSE YOUR HAND IS FAIR, AND THE POT IS SMALL")
    assert s.trials == 1 and s.prog.n_rules() == 1 and s.prog.rules[0].decision == C_SB
    with pytest.raises(ValueError):
        s.play("bet 25")
    for _ in range(40):
        _step(s)
    assert s.table.rop >= 2


def _step(s: ManualSession) -> None:
    """The reader plays on: accepts every proposal, stands pat, calls a bet or bets 1."""
    w = s.waiting_for()
    if w == "judge":
        s.accept()
    elif w == "replace":
        s.replace("")
    else:
        s.play("call" if s.st[dp.LASTBET] > 0 else "bet 1")


def test_lisp_notation():
    text = lisp(BUILT_IN)
    assert "((SW P8 B5 * * * *) CALL)" in text and "(P1 GREATERP P 40)" in text
    assert "(B9 AND (LESSP B 5) (NOT (EQUAL B 0)))" in text and "(OR6 NOT (EQUAL R -1))" in text
    rp = random_program()
    assert lisp(rp).startswith("(((* * * * * * *) RANDOM))")
    assert rp.rules[0].decision is RANDOM


def _session_state(s: ManualSession) -> tuple:
    return s.prog.listing(), s.trials, s.proposal, s.st.copy().tolist(), list(s.log), s.table.rop


def _session_waiting_for(what: str, seed: int = 3) -> ManualSession:
    s = ManualSession(seed=seed)
    for _ in range(200):
        if s.waiting_for() == what:
            return s
        _step(s)
    raise AssertionError(f"never waited for {what}")


@pytest.mark.parametrize(
    "bad, match", [([0, 0], "distinct"), ([-1], "0..4"), ([5], "0..4"), ([1.0], "0..4"), ([True], "0..4")]
)
def test_manual_replace_refuses_bad_positions_and_changes_nothing(bad, match):
    s = _session_waiting_for("replace")
    before = _session_state(s)
    with pytest.raises(ValueError, match=match):
        s.replace(bad)
    assert _session_state(s) == before
    s.replace([0, 1])  # two distinct positions: mask 0b11, two cards replaced
    assert s.st[dp.REPL + 1] == 2


@pytest.mark.parametrize(
    "advice, match",
    [
        ((99, {0: ("category", "H1")}), "advised class"),
        ((-1, {0: ("category", "H1")}), "advised class"),
        ((C_SB, {9: "large"}), "unknown variable"),
        ((C_SB, {1: "large", 0: ("category", "H9")}), "not a category"),
        ((C_SB, {}), "at least one reason"),
        ((C_SB, {1: ("set", 3)}), "set reason"),
        ((C_SB, {1: "tall"}), "a reason is"),
        ((C_SB,), "advice is"),
    ],
)
def test_manual_advise_with_bad_tuple_advice_changes_nothing(advice, match):
    s = ManualSession(seed=3)
    before = _session_state(s)
    with pytest.raises(ValueError, match=match):
        s.advise(advice)
    assert _session_state(s) == before


@pytest.mark.parametrize(
    "kw", [{"corr_mode": 2}, {"corr_mode": True}, {"corr_mode": "appJ"}, {"seed": -1}, {"seed": 1.5}, {"seed": True}]
)
def test_bad_corr_mode_and_seed_are_refused(kw):
    p, q = program_player(BUILT_IN), experienced()
    calls = [
        lambda **k: match(p, q, 5, **k),
        lambda seed=0, **k: proficiency(p, q, 1, seed=seed, protocol=Protocol(**k)),
        lambda **k: Table(k.pop("seed", 0), 0, **k),
    ]
    for call in calls:
        with pytest.raises(ValueError, match="corr_mode" if "corr_mode" in kw else "seed"):
            call(**kw)
