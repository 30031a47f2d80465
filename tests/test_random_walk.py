"""Random walk, TD(0) / MC / TD(λ) learners and the App. C reconstruction (Powell (2000) §4.3–4.4, App. A, App. C)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tdbook.experiments.random_walk import appendix_c as appc
from tdbook.experiments.random_walk import random_walk as rw
from tdbook.games.random_walk import (
    RandomWalk,
    parse_start,
    parse_walk,
    rms_error,
    sample_walk_lengths,
    sample_walks,
    true_values,
)
from tdbook.learners.random_walk import (
    METHODS,
    TRACES,
    Learner,
    batch_fixed_points,
    episode_update,
    play_episode,
    run_batch,
    run_many,
)

APPC = appc.appendix_c()
STANDARD = Learner("tdlambda", 0.1, 0.5, "standard", "D")


# ----------------------------------------------------------------------------- the walk


def test_true_values_are_sixths():
    assert np.allclose(true_values(5), np.arange(1, 6) / 6, atol=1e-14)
    assert np.allclose(true_values(19), np.arange(1, 20) / 20, atol=1e-12)


def test_initial_rms_matches_appendix_c_row_1():
    assert abs(appc.initial_rms() - 0.2357) <= 5e-5


def test_appendix_c_transcription_rms_column_matches_formula():
    """The transcribed RMS column is the App. A formula applied to the transcribed A–E (4-decimal rounding)."""
    formula = rms_error(APPC[:, :5], true_values(5))
    assert APPC.shape == (100, 6)
    assert np.max(np.abs(formula - APPC[:, 5])) < 1e-4


def test_parse_start_and_walk():
    assert parse_start("C") == 3 and parse_start("d") == 4 and parse_start(0) == 1
    assert list(parse_walk("D,E,D,E,Room2")) == [4, 5, 4, 5, 6]
    for bad in ("F", 5, -1, "", True):
        with pytest.raises(ValueError, match="start"):
            parse_start(bad)
    for bad in ("D,F,Room2", "D,C", "D,B,A,Room1", "Room1,A,Room1"):
        with pytest.raises(ValueError, match="walk"):
            parse_walk(bad)


def test_facade_interface():
    g = RandomWalk(start="C")
    s = g.initial_state()
    assert s == 3 and g.legal_moves(s) == [-1, 1]
    for m in (1, 1, 1):
        s = g.apply(s, m)
    assert g.is_terminal(s) and g.result(s) == 1.0 and g.legal_moves(s) == []
    with pytest.raises(ValueError, match="the walk is over"):
        g.apply(s, 1)
    for state, move, msg in (
        (57, 1, "a state is an integer 0..6"),
        (3.0, 1, "a state is an integer"),
        (3, True, "a move is -1"),
        (3, 1.0, "a move is -1"),
        (3, 2, "a move is -1"),
    ):
        with pytest.raises(ValueError, match=msg):
            g.apply(state, move)


def test_walks_are_reproducible_and_fair():
    a = sample_walk_lengths(5, 3, 20000, 7, 0)
    assert np.array_equal(a, sample_walk_lengths(5, 3, 20000, 7, 0))
    assert abs(a.mean() - 9.0) < 0.3  # expected duration from C is 3·3 = 9 steps
    pos, off = sample_walks(5, 3, 2000, 7, 0)
    assert np.array_equal(np.diff(off) - 1, a[:2000])
    right = np.mean(pos[off[1:] - 1] == 6)
    assert abs(right - 0.5) < 0.05


# ----------------------------------------------------------------------------- App. C exact rows


@pytest.mark.parametrize(
    "row,walk",
    [(1, "D,E,D,E,Room2"), (3, "D,C,B,A,Room1"), (2, "D,C,D,E,D,E,Room2"), (6, "D,C,D,C,B,C,D,E,D,C,B,A,Room1")],
)
def test_scripted_walk_reproduces_appendix_c_row(row, walk):
    """App. A rule, α=0.1, λ=0.5, duplicate-list ('thesis') traces: printed row → next printed row."""
    out = appc.replay([walk], APPC[row - 1, :5])
    assert np.max(np.abs(out[1] - APPC[row, :5])) <= 1.01e-4  # start is itself rounded to 4 decimals


def test_exact_chain_rows_1_to_4():
    """From the exact all-0.5 start the first three walks reproduce rows 2–4 to 4 decimals."""
    out = appc.replay(["D,E,D,E,Room2", "D,C,D,E,D,E,Room2", "D,C,B,A,Room1"])
    assert np.max(np.abs(out - APPC[:4, :5])) <= 5.01e-5
    assert np.allclose(out[1, 3:], [0.5234, 0.5938], atol=5.01e-5)
    assert np.allclose(out[3, :4], [0.4500, 0.4750, 0.4942, 0.5417], atol=5.01e-5)


def test_standard_traces_or_start_c_do_not_reproduce_row_2():
    std = appc.replay(["D,E,D,E,Room2"], learner=STANDARD)
    assert np.max(np.abs(std[1] - APPC[1, :5])) > 1e-3
    rec = appc.reconstruct_appendix_c(STANDARD, appc.Search(max_len=14), rows=1, progress=False)
    assert rec.first_failure == 1


def test_search_finds_the_unique_short_walks():
    rec = appc.reconstruct_appendix_c(appc.APPENDIX_C_LEARNER, appc.Search(max_len=14), rows=3, progress=False)
    assert rec.walks() == ["D,E,D,E,Room2", "D,C,D,E,D,E,Room2", "D,C,B,A,Room1"]
    assert all(t.solutions == 1 and t.exact_chain for t in rec.transitions)
    assert rec.max_dev() <= 5.01e-5


# ----------------------------------------------------------------------------- learners


@pytest.mark.parametrize("trace", ["standard", "thesis", "replacing"])
@pytest.mark.parametrize("start", ["C", "D"])
def test_td_lambda_zero_is_td0_bit_for_bit(trace, start):
    a = run_many(Learner("td0", 0.1, start=start), runs=20, episodes=50, seed=3)
    b = run_many(Learner("tdlambda", 0.1, 0.0, trace, start), runs=20, episodes=50, seed=3)
    assert np.array_equal(a, b)


def test_same_seed_same_arrays_and_different_seed_differs():
    for m in ("td0", "mc", "tdlambda"):
        learner = Learner(m, 0.05, 0.5, "thesis")
        a = run_many(learner, runs=8, episodes=30, seed=11)
        assert np.array_equal(a, run_many(learner, runs=8, episodes=30, seed=11))
        assert not np.array_equal(a, run_many(learner, runs=8, episodes=30, seed=12))
    r = run_many(Learner("td0", 0.1), runs=8, episodes=30, seed=11, record="rms")
    v = run_many(Learner("td0", 0.1), runs=8, episodes=30, seed=11)
    assert np.allclose(r, rms_error(v, true_values(5)), atol=1e-15)


def test_runs_are_independent_of_how_many_runs_are_made():
    a = run_many(Learner("tdlambda", 0.1, 0.5, "standard"), runs=3, episodes=20, seed=5)
    b = run_many(Learner("tdlambda", 0.1, 0.5, "standard"), runs=10, episodes=20, seed=5)
    assert np.array_equal(a, b[:3])


def test_row_zero_is_initial_and_mc_matches_scripted_episode():
    v = run_many(Learner("mc", 0.1, start="C"), runs=1, episodes=3, seed=2)[0]
    assert np.all(v[0] == 0.5)
    pos, off = sample_walks(5, 3, 3, 2, 0)
    out = appc.replay([pos[off[i] : off[i + 1]] for i in range(3)], learner=Learner("mc", 0.1))
    assert np.array_equal(out, v)


@settings(max_examples=40, deadline=None)
@given(alpha=st.floats(1e-3, 1.0), seed=st.integers(0, 2**32), start=st.sampled_from("ABCDE"))
def test_td0_estimates_stay_in_unit_interval(alpha, seed, start):
    v = run_many(Learner("td0", alpha, start=start), runs=4, episodes=40, seed=seed)
    assert np.all((v >= 0.0) & (v <= 1.0))


@settings(max_examples=15, deadline=None)
@given(alpha=st.floats(1e-3, 1.0), lam=st.floats(0.0, 1.0), seed=st.integers(0, 2**32))
def test_standard_td_lambda_equals_scripted_replay(alpha, lam, seed):
    """The many-runs kernel and the scripted-episode path agree on the same walks."""
    v = run_many(Learner("tdlambda", alpha, lam, "standard", "C"), runs=1, episodes=5, seed=seed)[0]
    pos, off = sample_walks(5, 3, 5, seed, 0)
    walks = [pos[off[i] : off[i + 1]] for i in range(5)]
    out = appc.replay(walks, learner=Learner("tdlambda", alpha, lam, "standard"))
    assert np.array_equal(out, v)
    assert np.allclose(out, _reference_td_lambda(walks, alpha, lam), rtol=0, atol=1e-12)


def _reference_td_lambda(walks, alpha, lam, n=5):
    """Online TD(λ) with accumulating traces, written plainly from Sutton (1988) — independent of
    the jitted kernel: V(terminal) = 0, reward 1 on entering the right-hand room."""
    V = [0.0] + [0.5] * n + [0.0]
    out = [V[1 : n + 1]]
    for w in walks:
        e = [0.0] * (n + 2)
        for cur, nxt in zip(w[:-1], w[1:]):
            delta = (1.0 if nxt == n + 1 else 0.0) + V[nxt] - V[cur]
            e[cur] += 1.0
            V = [v + alpha * delta * ex for v, ex in zip(V, e)]
            e = [lam * ex for ex in e]
        out.append(V[1 : n + 1])
    return np.array(out)


def test_thesis_semantics_diverges_at_lambda_one():
    c = rw.curve(Learner("tdlambda", 0.1, 1.0, "thesis", "C"), runs=50, episodes=100, seed=1)
    assert c.diverged > 0.5
    s = rw.curve(Learner("tdlambda", 0.1, 1.0, "standard", "C"), runs=50, episodes=100, seed=1)
    assert s.diverged == 0


@pytest.mark.parametrize(
    "kw,name",
    [
        (dict(alpha=0.0), "alpha"),
        (dict(alpha=-0.1), "alpha"),
        (dict(alpha=float("nan")), "alpha"),
        (dict(lam=-0.1), "lam"),
        (dict(lam=1.5), "lam"),
        (dict(start="F"), "start"),
        (dict(start=7), "start"),
        (dict(runs=0), "runs"),
        (dict(episodes=0), "episodes"),
        (dict(method="sarsa"), "method"),
        (dict(trace="dutch"), "trace"),
        (dict(seed=-1), "seed"),
        (dict(n_states=0), "n_states"),
        (dict(init=float("nan")), "init"),
        (dict(init="0.5"), "init"),
    ],
)
def test_bad_arguments_name_the_argument(kw, name):
    args = dict(method="tdlambda", alpha=0.1, lam=0.5, trace="standard", start="C", runs=2, episodes=5, seed=0)
    args.update(kw)
    run = {k: args.pop(k) for k in ("runs", "episodes", "seed")}
    with pytest.raises(ValueError, match=name):
        run_many(Learner(**args), **run)


def test_batch_refuses_bad_init_and_tol():
    for kw, name in ((dict(init=float("inf")), "init"), (dict(tol="1e-9"), "tol"), (dict(tol=0.0), "tol")):
        with pytest.raises(ValueError, match=name):
            learner = Learner("td0", init=kw.pop("init", 0.5))
            run_batch(learner, runs=2, episodes=3, **kw)


def test_config_profiles_and_bad_knob():
    cfg = rw.config("quick")
    assert cfg.RUNS >= 1 and cfg.START in "CD"
    assert rw.config("quick", RUNS=7).RUNS == 7
    with pytest.raises(ValueError, match="RUNS"):
        rw.config("quick", RUNS="many")
    with pytest.raises(ValueError, match="start"):
        rw.config("quick", START="Z")


# ----------------------------------------------------------------------------- batch updating


def test_batch_converges_to_closed_form_fixed_points():
    """Batch MC → sample averages of returns; batch TD(0) → certainty-equivalence solution (S&B §6.3)."""
    vals = {}
    for m in ("td0", "mc"):
        vals[m], sweeps = run_batch(Learner(m, start="C"), runs=2, episodes=30, seed=4)
        assert sweeps.max() < 1_000_000
    pos, off = sample_walks(5, 3, 30, 4, 0)
    for k in (1, 5, 30):
        mc, td = batch_fixed_points(pos, off[: k + 1], 5)
        assert np.max(np.abs(vals["mc"][0, k] - mc)) < 1e-9
        assert np.max(np.abs(vals["td0"][0, k] - td)) < 1e-9
    assert np.all(vals["td0"][:, 0] == 0.5)


def test_walk_length_tail_is_exact_and_matches_sampled_walks():
    from tdbook.games.random_walk import sample_walk_lengths, walk_length_tail

    assert walk_length_tail(0, "D") == 1.0 and walk_length_tail(1, "D") == 1.0
    assert walk_length_tail(2, "E") == pytest.approx(0.5)  # E→D→(C or E), E→Room2 ends at once
    lengths = sample_walk_lengths(5, 4, 200_000, 3, 0)
    for L in (5, 10, 20):
        p = walk_length_tail(L, "D")
        se = np.sqrt(p * (1 - p) / lengths.size)
        assert abs((lengths > L).mean() - p) < 5 * se
    with pytest.raises(ValueError, match="max_steps"):
        walk_length_tail(-1)


def test_the_reference_shown_in_the_chapter_is_the_kernel_bit_for_bit():
    """Notebook 05 shows ``episode_update`` (plain Python); the runs use the jitted ``play_episode``: on 3,000 random
    walks, estimates, step sizes, λ, methods and trace semantics they give the same floats, bit for bit."""
    gen = np.random.default_rng(2000)
    for case in range(3000):
        n = int(gen.integers(1, 8))
        walk = [int(gen.integers(1, n + 1))]
        while 0 < walk[-1] < n + 1:
            walk.append(walk[-1] + (1 if gen.random() < 0.5 else -1))
        V = np.concatenate([[0.0], gen.random(n), [0.0]])
        method, trace = METHODS[case % 3], TRACES[(case // 3) % 3]
        alpha, lam = float(gen.uniform(0.001, 1.0)), float(gen.choice([0.0, 1.0, gen.random()]))
        ours, ref = V.copy(), V.copy()
        play_episode(ours, np.array(walk, dtype=np.int64), METHODS.index(method), TRACES.index(trace), alpha, lam)
        episode_update(ref, walk, method, alpha, lam, trace)
        assert np.array_equal(ours, ref), (case, method, trace, walk)
