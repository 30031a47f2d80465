"""Samuel's learning by generalization (Powell (2000) §3.3 eq. 3.1–3.2; tdbook.learners.checkers_generalization,
tdbook.experiments.checkers.samuel): eq. 3.2's running correction and its N schedule, the coefficients made from
the correlation coefficients, the dead zone and the weightings, the second series' selective updates in both
readings, the term tally in both readings and the replacement queue; the Alpha/Beta protocol; training that
resumes after a kill to the same weights, and a corrupt or foreign checkpoint refused by name."""

from __future__ import annotations

import numpy as np
import pytest

from tdbook.experiments.checkers import training as tr
from tdbook.experiments.checkers.samuel import AlphaBeta, SamuelRun, initial_polynomial, signed_powers
from tdbook.learners.checkers_generalization import (
    N_SAMUEL,
    SAMUEL_TERMS,
    TERM_INDEX,
    SamuelSpec,
    SamuelState,
    coefficients,
    correlate,
    generalization_step,
    minimum,
    tally_and_replace,
)
from tdbook.learners.checkers_polynomial import TERMS, Polynomial


def _state(spec: SamuelSpec | None = None) -> SamuelState:
    return SamuelState(spec or SamuelSpec(), np.arange(N_SAMUEL))


def _step(st: SamuelState, u, delta, initial=0.0, piece=False, sure=False, m=None):
    ip, fp = st.spec.arrays()
    mm = minimum(st.order, st.weights, st.spec.n_active) if m is None else m
    u = np.asarray(u, dtype=np.float64)
    return correlate(st.arrays_tuple, ip, fp, u, delta, initial, piece, sure, mm)


def test_terms_are_38_sixteen_active_and_twenty_two_in_reserve():
    assert len(SAMUEL_TERMS) == 38 and "DEMO" not in SAMUEL_TERMS and len(set(SAMUEL_TERMS)) == 38
    st = SamuelState.initial(SamuelSpec(), seed=3)
    assert len(st.active) == 16 and len(st.reserve) == 22 and set(st.active) | set(st.reserve) == set(SAMUEL_TERMS)
    w = st.polynomial_weights()
    assert set(w) == {TERMS[TERM_INDEX[SAMUEL_TERMS.index(t)]] for t in st.active}
    assert set(w.values()) == {2.0**18}  # the first polynomial: equal coefficients


def test_eq_3_2_moves_c_towards_plus_or_minus_one_with_n_from_16_to_256():
    st = _state()
    st.corr[:] = 0.0
    u = np.zeros(N_SAMUEL)
    u[0], u[1] = 2.0, -1.0  # term 0 agrees with a positive delta, term 1 disagrees
    assert _step(st, u, delta=10.0, m=1.0) == 2
    assert st.corr[0] == pytest.approx(1 / 16) and st.corr[1] == pytest.approx(-1 / 16)
    assert st.corr[2] == 0.0 and st.used[2] == 0  # a zero term is not used
    # C_N = C − (C − 1)/N, N = 16 until used 32 times, then 32 until 64, …, never above 256
    c = st.corr[0]
    for k in range(1, 600):
        n = 16 if k < 32 else 32 if k < 64 else 64 if k < 128 else 128 if k < 256 else 256
        _step(st, u, delta=10.0, m=1.0)
        c = c - (c - 1) / n
        assert st.corr[0] == pytest.approx(c, rel=1e-12)
    assert st.used[0] == 600 and st.adjusted[0] == 600


def test_weightings_dead_zone_and_coefficients():
    st = _state()
    st.corr[:] = 0.0
    u = np.zeros(N_SAMUEL)
    u[0] = 1.0
    assert _step(st, u, delta=0.5, m=1.0) == 0 and st.corr[0] == 0.0  # |delta| below the minimum
    _step(st, u, delta=5.0, piece=True, m=1.0)
    assert st.corr[0] == pytest.approx(2 / 16)  # piece advantage changed: doubled
    st.corr[0] = 0.0
    _step(st, u, delta=5.0, piece=True, sure=True, m=1.0)
    assert st.corr[0] == pytest.approx(8 / 16)  # and an almost sure result: quadrupled
    # coefficients: the largest |C| gets 2^18, the others sign(C) 2^round(18 |C| / max |C|), 0 at C = 0
    st.corr[:16] = [0.45, -0.40, 0.35, 0.33, -0.27, 0.19, 0.14, 0.13, 0.10, 0, 0, 0, 0, 0, 0, 0.0]
    w = np.zeros(len(TERMS))
    coefficients(st.order, st.corr, 16, 18, w)
    got = [w[TERM_INDEX[t]] for t in range(10)]
    assert got == [2.0**18, -(2.0**16), 2.0**14, 2.0**13, -(2.0**11), 2.0**8, 2.0**6, 2.0**5, 2.0**4, 0.0]
    assert w[TERM_INDEX[20]] == 0.0  # in reserve


def test_second_series_selective_updates_in_both_readings():
    u = np.zeros(N_SAMUEL)
    u[0], u[1] = 1.0, -1.0  # with positive coefficients: term 0 contributes +, term 1 contributes −
    for negative, changed in (("positive", [True, False]), ("all", [True, True])):
        st = _state(SamuelSpec(selective=True, negative=negative))
        before = st.corr.copy()
        _step(st, u, delta=-5.0, initial=3.0, m=1.0)  # a negative delta
        assert [st.corr[0] != before[0], st.corr[1] != before[1]] == changed, negative
    st = _state(SamuelSpec(selective=True))
    before = st.corr.copy()
    _step(st, u, delta=5.0, initial=3.0, m=1.0)  # positive delta, positive score: only the negative contributors
    assert st.corr[0] == before[0] and st.corr[1] != before[1]
    _step(st, u, delta=5.0, initial=-3.0, m=1.0)  # positive delta, negative score: only the positive ones
    assert st.corr[0] != before[0]


@pytest.mark.parametrize("tally", ["threshold", "lowest"])
def test_tally_and_replacement_queue(tally):
    spec = SamuelSpec(tally=tally, tally_limit=3)
    st = _state(spec)
    st.corr[:16] = np.linspace(0.9, 0.05, 16)
    st.refresh()
    ip, _ = spec.arrays()
    events = np.zeros((64, 4), dtype=np.int64)
    m = minimum(st.order, st.weights, 16)
    n = 0
    for _ in range(3):
        n = tally_and_replace(st.arrays_tuple, ip, m, events, n)
    low = 15  # the term with the lowest C (and the smallest coefficient)
    below = [t for t in range(16) if abs(st.weights[TERM_INDEX[t]]) < m] if tally == "threshold" else [low]
    out = [int(e[1]) for e in events[:n]]
    assert sorted(out) == sorted(below) and all(e[3] == 3 for e in events[:n])
    # each left for the end of the reserve queue; the head of the queue took its slot with C, use and tally 0
    assert list(st.order[-len(out) :]) == out
    assert sorted(int(e[2]) for e in events[:n]) == list(range(16, 16 + len(out)))
    for t in (int(e[2]) for e in events[:n]):
        assert st.corr[t] == 0 and st.used[t] == 0 and st.tally[t] == 0 and t in st.order[:16]


def test_black_marks_zero_the_leading_term():
    st = _state()
    st.corr[:16] = np.linspace(0.9, 0.05, 16)
    st.refresh()
    assert st.top() == SAMUEL_TERMS[0] and st.zero_leader() == SAMUEL_TERMS[0]
    assert st.corr[0] == 0 and st.weights[TERM_INDEX[0]] == 0 and st.top() == SAMUEL_TERMS[1]


def test_alpha_beta_games_learn_deterministically_and_resume_after_a_kill(tmp_path):
    spec = SamuelRun(seed=4)
    whole = AlphaBeta(spec, 6)
    tr.run(whole, 6, checkpoint=tmp_path / "whole.npz", checkpoint_every=2, progress=False)
    log = whole.log
    assert set(np.unique(log["result"])) <= {-1, 0, 1} and log["cycles"].sum() > 0 and log["updates"].sum() > 0
    assert np.all(log["plies"] <= 67) and np.array_equal(log["alpha_black"], [1, 0, 1, 0, 1, 0])
    assert np.all((log["adopted"] == 1) == (log["result"] > 0))  # first series: Beta adopts after a win
    assert len(whole.alpha.active) == 16 and whole.events.shape[1] == 5
    assert np.array_equal(whole.powers[-1], signed_powers(whole.alpha))
    # killed after 3 games (last checkpoint after 2), then the same command again
    ck = tmp_path / "killed.npz"
    tr.run(AlphaBeta(spec, 6), 6, checkpoint=ck, checkpoint_every=2, progress=False, stop_after=3)
    again = AlphaBeta(spec, 6)
    done = tr.run(again, 6, checkpoint=ck, checkpoint_every=2, progress=False)
    assert done.resumed_at == [2]
    for k, v in whole.arrays().items():
        assert np.array_equal(v, again.arrays()[k]), k
    # the initial polynomial is the seed's first 16 terms
    assert set(initial_polynomial(spec).weights) == {TERMS[TERM_INDEX[SAMUEL_TERMS.index(t)]] for t in
                                                      SamuelState.initial(spec.learn, 4).active}  # fmt: skip


def test_a_corrupt_or_foreign_checkpoint_is_refused_by_name(tmp_path):
    ck = tmp_path / "ck.npz"
    ck.write_bytes(b"not an archive")
    with pytest.raises(ValueError, match=r"ck\.npz is not a readable checkers training checkpoint"):
        tr.run(AlphaBeta(SamuelRun(), 2), 2, checkpoint=ck, progress=False)
    assert ck.read_bytes() == b"not an archive"  # nothing changed
    tr.run(AlphaBeta(SamuelRun(seed=2), 1), 1, checkpoint=ck.with_name("other.npz"), progress=False)
    with pytest.raises(ValueError, match=r"other\.npz was made by another run"):
        tr.run(AlphaBeta(SamuelRun(seed=3), 2), 2, checkpoint=ck.with_name("other.npz"), progress=False)


def test_ctrl_c_stops_at_a_game_boundary_with_a_checkpoint(tmp_path):
    import os
    import signal

    ck = tmp_path / "ck.npz"
    r = AlphaBeta(SamuelRun(seed=5), 5)
    with pytest.raises(tr.Interrupted) as e:
        tr.run(r, 5, checkpoint=ck, checkpoint_every=100, progress=False,
               on_game=lambda g: os.kill(os.getpid(), signal.SIGINT) if g == 1 else None)  # fmt: skip
    assert e.value.games == 2 and e.value.checkpoint == ck and ck.exists()
    meta, _ = tr.read(ck, "checkpoint")
    assert meta["games"] == 2


def test_settings_are_validated():
    with pytest.raises(ValueError, match="tally must be one of"):
        SamuelSpec(tally="median")
    with pytest.raises(ValueError, match="adopt must be"):
        SamuelRun(adopt="always")
    assert SamuelRun.series(2).learn.selective and SamuelRun.series(2).learn.tally_limit == 32
    assert SamuelRun.series(2).adopt == "majority"


def test_the_credit_assignment_fix_keeps_the_anchor_until_delta_reaches_the_minimum():
    from tdbook.experiments.checkers.samuel import N_COUNTERS, _static_for_mover, learn_cycle
    from tdbook.games.checkers import Checkers
    from tdbook.games.checkers_features import N_PARAMS, scratch
    from tdbook.players.checkers_search import search_spec

    g = Checkers()
    s0 = g.initial_state()
    s1 = g.apply(s0, "11-15")
    s2 = g.apply(s1, "22-18")
    board = lambda s: np.array([*s.words, s.side], dtype=np.int64)  # noqa: E731
    for carry in (False, True):
        st = _state(SamuelSpec(carry_back=carry))
        ip, fp = st.spec.arrays()
        spec = search_spec(Polynomial(st.polynomial_weights()), SamuelRun().rules)
        work = (np.zeros(N_PARAMS), np.zeros(N_PARAMS), np.zeros(N_PARAMS), np.zeros(len(TERMS)), scratch())
        args = (board(s2), board(s2), board(s1), 0.0, spec, work, np.zeros(N_SAMUEL), np.zeros((8, 4), np.int64), 0,
                np.zeros(N_COUNTERS, np.int64), 0)  # fmt: skip
        initial = _static_for_mover(board(s2), board(s1), st.weights, 2.0**20, 0, (1 << N_PARAMS) - 1, work)
        m = minimum(st.order, st.weights, 16)
        # delta inside the dead zone: the anchor stays (fix) or moves on (no fix); far outside: it moves
        _, moved, _ = learn_cycle(st.arrays_tuple, (ip, fp), initial + m / 2, *args)
        assert moved == (not carry)
        _, moved, _ = learn_cycle(st.arrays_tuple, (ip, fp), initial + 4 * m, *args)
        assert moved


def test_without_the_kick_start_black_marks_never_zero_the_leader():
    on = AlphaBeta(SamuelRun(seed=2, black_marks=1), 4)
    off = AlphaBeta(SamuelRun(seed=2, black_marks=1, reset=False), 4)
    tr.run(on, 4, progress=False)
    tr.run(off, 4, progress=False)
    assert off.log["zeroed"].sum() == 0 and np.array_equal(on.log["zeroed"], on.log["adopted"] == 0)
    assert on.log["marks"].sum() == 0 and on.log["zeroed"].sum() > 0
    marks, want = 0, []
    for a in off.log["adopted"]:
        marks = 0 if a else marks + 1
        want.append(marks)
    assert off.log["marks"].tolist() == want
    assert SamuelRun.series(2).learn.carry_back and not SamuelRun.series(1).learn.carry_back


def test_book_games_follow_training_games_only_deterministically_and_resume(tmp_path):
    from tdbook.experiments.checkers.book_learning import BookGames, BookRun
    from tdbook.games.checkers_book import split_games

    spec = BookRun(seed=3)
    whole = BookGames(spec, 3)
    tr.run(whole, 3, progress=False)
    train, held = split_games()
    L = whole.log
    assert np.isin(L["game"], train).all() and not np.isin(L["game"], held).any()
    assert np.all(L["agreed"] <= L["choices"]) and L["agreed"].sum() > 0 and L["cycles"].sum() > 0
    assert L["updates"].sum() > 0 and L["replaced"].sum() > 0
    ck = tmp_path / "b.npz"
    tr.run(BookGames(spec, 3), 3, checkpoint=ck, checkpoint_every=1, progress=False, stop_after=2)
    again = BookGames(spec, 3)
    tr.run(again, 3, checkpoint=ck, progress=False)
    for k, v in whole.arrays().items():
        assert np.array_equal(v, again.arrays()[k]), k


@pytest.mark.parametrize("series", [1, 2])
def test_the_learning_step_shown_in_the_chapter_is_the_kernels(series):
    """Notebook 02 shows ``generalization_step`` (plain Python); Alpha's games run the jitted ``minimum``,
    ``correlate`` and ``coefficients``: over 3,000 random states, term values, deltas and flags they leave the same
    correlation coefficients, use counts and coefficients, bit for bit."""
    gen = np.random.default_rng(series)
    for case in range(3000):
        spec = SamuelSpec.series(series, negative=["positive", "all"][case % 2], n_min=int(gen.choice([4, 16])))
        st = SamuelState.initial(spec, seed=case)
        st.corr[:] = gen.uniform(-1, 1, N_SAMUEL) * (gen.random(N_SAMUEL) < 0.8)
        st.used[:] = gen.integers(0, 600, N_SAMUEL)
        st.refresh()
        u = gen.normal(0, 2, N_SAMUEL) * (gen.random(N_SAMUEL) < 0.6)
        scale = np.abs(st.weights[st.weights != 0]).mean() if st.weights.any() else 1.0
        delta, initial = (float(v) for v in gen.normal(0, 2 * scale, 2))
        piece, sure = bool(gen.random() < 0.3), bool(gen.random() < 0.2)
        ref = st.copy()
        changed = _step(st, u, delta, initial, piece, sure)
        st.refresh()
        assert generalization_step(ref, u, delta, initial, piece, sure) == changed
        for f in SamuelState.FIELDS:
            assert np.array_equal(getattr(st, f), getattr(ref, f)), (case, f)
