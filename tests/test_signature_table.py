"""Signature tables (tdbook.learners.signature_table; Samuel (1973 note)): counting is order-independent, C lies
in [−1, 1] and is 0 on empty cells with a prior, the storage arithmetic, monotone requantization thresholds, an
XOR interaction a table learns and a linear model cannot, same seed ⇒ same tables byte for byte; the book
learning measures; the checkers layout; the labelled-set file refused when corrupt."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tdbook.learners.book_learning import (
    agreement,
    agreement_weights,
    alternatives,
    check_book,
    fit_softmax,
    preferred_mask,
    term_agreement,
)
from tdbook.learners.signature_table import (
    Arrangement,
    JointTable,
    SignatureTables,
    count_signatures,
    equal_frequency_thresholds,
    fixed_thresholds,
    imbalance_weights,
)

SAMUEL = Arrangement.samuel()


def _stream(seed: int, positions: int = 300, arr: Arrangement = SAMUEL):
    """A random book stream over ``arr``'s inputs: positions of 2–9 moves, one preferred each."""
    rng = np.random.default_rng(seed)
    sizes = rng.integers(2, 10, positions)
    starts = np.zeros(positions + 1, dtype=np.int64)
    starts[1:] = np.cumsum(sizes)
    X = rng.integers(0, np.array(arr.input_levels), size=(int(starts[-1]), arr.n_inputs))
    pref = starts[:-1] + (rng.random(positions) * sizes).astype(np.int64)
    return X, starts, pref


# ----------------------------------------------------------------------------- the arrangement


def test_samuel_storage_arithmetic():
    """The note's numbers: 27 inputs, 9 tables of 7·5·3 = 105, 3 of 5³ = 125, one of 7³ = 343; 105^9 joint."""
    arr = Arrangement.samuel()
    assert arr.n_inputs == 27 and arr.n_tables == 13
    assert arr.sizes[:9] == (105,) * 9 and arr.sizes[9:12] == (125,) * 3 and arr.sizes[12] == 343
    assert arr.depth == (1,) * 9 + (2,) * 3 + (3,)
    assert arr.entries == 9 * 105 + 3 * 125 + 343
    assert arr.joint_entries == 105**9 == (7 * 5 * 3) ** 9
    assert Arrangement.samuel(second_levels=5).sizes[12] == 125


@given(st.lists(st.integers(1, 9), min_size=1, max_size=6))
@settings(max_examples=60, deadline=None)
def test_table_size_is_product_of_levels(levels):
    """One table over all inputs has ∏ levels entries, which is also the joint table's size."""
    arr = Arrangement(tuple(levels), (tuple(range(len(levels))),), (1,))
    assert arr.sizes == (math.prod(levels),) == (arr.joint_entries,)


@pytest.mark.parametrize(
    "tables, outs, message",
    [
        (((0, 1), (0, 2)), (2, 1), "read by two tables"),
        (((0, 5),), (1,), "reads node 5"),
        (((0,),), (1,), "read by no table"),
        (((0, 1, 2),), (1, 1), "one entry per table"),
    ],
)
def test_bad_arrangement_named(tables, outs, message):
    with pytest.raises(ValueError, match=message):
        Arrangement((2, 2, 2), tables, outs)


# ----------------------------------------------------------------------------- counting


@pytest.mark.parametrize("rule", ["plain", "a_k"])
@pytest.mark.parametrize("requant", ["fixed", "equal"])
def test_counting_is_order_independent(rule, requant):
    """Stagewise counting of a shuffled stream gives the same tables, byte for byte (integer increments)."""
    X, starts, pref = _stream(1)
    m, k = preferred_mask(starts, pref), alternatives(starts)
    a = SignatureTables.fit(SAMUEL, X, m, k, rule, "stagewise", requant)
    perm = np.random.default_rng(2).permutation(len(X))
    b = SignatureTables.fit(SAMUEL, X[perm], m[perm], k[perm], rule, "stagewise", requant)
    assert a.to_bytes() == b.to_bytes()
    assert a.a.sum() > 0 and a.d.sum() > 0


def test_counting_order_independent_d_over_k():
    """With D += 1/k the sums agree up to float rounding."""
    X, starts, pref = _stream(3)
    m, k = preferred_mask(starts, pref), alternatives(starts)
    a = SignatureTables.fit(SAMUEL, X, m, k, "d_over_k")
    perm = np.random.default_rng(4).permutation(len(X))
    b = SignatureTables.fit(SAMUEL, X[perm], m[perm], k[perm], "d_over_k")
    np.testing.assert_allclose(a.a, b.a, rtol=0, atol=1e-9)
    np.testing.assert_allclose(a.d, b.d, rtol=0, atol=1e-9)


def test_counts_are_the_note_rule():
    """Plain rule: each first-level entry's A = preferred vectors with that signature, D = the others."""
    X, starts, pref = _stream(5)
    m = preferred_mask(starts, pref)
    t = SignatureTables.fit(SAMUEL, X, m, alternatives(starts), "plain", requant="fixed")
    A, D = t.table_counts(4)
    for sig in [(0, 0, 0), (6, 4, 2), (3, 2, 1)]:
        hit = np.all(X[:, 12:15] == sig, axis=1)
        assert A[sig] == np.sum(hit & m) and D[sig] == np.sum(hit & ~m)
    assert t.a.sum() == m.sum() * 13 and t.d.sum() == (~m).sum() * 13


def test_imbalance_rules():
    pref = np.array([True, False, False, False])
    k = np.full(4, 3)
    assert imbalance_weights(pref, k, "plain")[0].tolist() == [1, 0, 0, 0]
    assert imbalance_weights(pref, k, "a_k")[0].tolist() == [3, 0, 0, 0]
    wa, wd = imbalance_weights(pref, k, "d_over_k")
    assert wa.tolist() == [1, 0, 0, 0] and np.allclose(wd, [0, 1 / 3, 1 / 3, 1 / 3])
    with pytest.raises(ValueError, match="rule must be"):
        imbalance_weights(pref, k, "book")


@given(st.integers(0, 10_000), st.floats(0.0, 20.0))
@settings(max_examples=25, deadline=None)
def test_c_in_range_and_zero_on_empty_cells(seed, prior):
    """C = (A − D)/(A + D + prior) ∈ [−1, 1] for every entry; an entry never counted has C = 0."""
    X, starts, pref = _stream(seed, 40)
    t = SignatureTables.fit(SAMUEL, X, preferred_mask(starts, pref), alternatives(starts), "a_k", prior=prior)
    for i in range(SAMUEL.n_tables):
        c = t.table_c(i)
        a, d = t.table_counts(i)
        assert np.all(np.abs(c) <= 1.0)
        assert np.all(c[(a + d) == 0] == 0.0)
    v = t.value(X)
    assert np.all(np.abs(v) <= 1.0)
    assert SignatureTables(SAMUEL, prior).value(X[:5]).tolist() == [0.0] * 5


def test_same_seed_same_tables():
    X, starts, pref = _stream(7)
    m, k = preferred_mask(starts, pref), alternatives(starts)
    a = SignatureTables.fit(SAMUEL, X, m, k, "a_k", requant="equal")
    b = SignatureTables.fit(SAMUEL, X.copy(), m.copy(), k.copy(), "a_k", requant="equal")
    assert a.to_bytes() == b.to_bytes()


def test_online_needs_fixed_thresholds_and_bad_input_named():
    X, starts, pref = _stream(8, 20)
    m, k = preferred_mask(starts, pref), alternatives(starts)
    with pytest.raises(ValueError, match="fixed requantization"):
        SignatureTables.fit(SAMUEL, X, m, k, mode="online", requant="equal")
    with pytest.raises(ValueError, match="outside 0"):
        SignatureTables.fit(SAMUEL, X + 7, m, k)
    with pytest.raises(ValueError, match="int array"):
        SignatureTables(SAMUEL).value(np.zeros((3, 26), dtype=np.int64))
    t = SignatureTables.fit(SAMUEL, X, m, k, mode="online", requant="fixed")
    assert t.a.sum() == m.sum() * 13


# ----------------------------------------------------------------------------- requantization


@given(st.lists(st.floats(-1, 1), min_size=1, max_size=200), st.integers(2, 9))
@settings(max_examples=60, deadline=None)
def test_requantization_thresholds_monotone(values, levels):
    for thr in (fixed_thresholds(levels), equal_frequency_thresholds(np.array(values), levels)):
        assert thr.shape == (levels - 1,)
        assert np.all(np.diff(thr) >= 0)


def test_equal_frequency_bins_balance():
    v = np.linspace(-1, 1, 1000)
    thr = equal_frequency_thresholds(v, 5)
    counts = np.bincount((v[:, None] > thr[None, :]).sum(1), minlength=5)
    assert counts.min() >= 190 and counts.max() <= 210


# ----------------------------------------------------------------------------- interactions


def test_xor_table_learns_linear_cannot():
    """A table over (x1, x2) learns preferred = x1 XOR x2; no linear sum of x1, x2 can rank it (C ≤ 0)."""
    from tdbook.experiments.checkers.signature_tables import xor_check

    r = xor_check(300, seed=1)
    assert r["table"] > 0.6
    assert r["linear"] < 0.1


def test_joint_table_sees_only_what_it_met():
    X, starts, pref = _stream(9, 200)
    m, k = preferred_mask(starts, pref), alternatives(starts)
    jt = JointTable.fit(SAMUEL.input_levels, X, m, k)
    c, seen = jt.lookup(X)
    assert seen.all() and np.all(np.abs(c) <= 1)
    X2, _, _ = _stream(10, 50)
    assert jt.lookup(X2)[1].mean() < 0.01  # 105^9 cells: a fresh vector is almost never seen
    with pytest.raises(ValueError, match="too many"):
        JointTable.strides((100,) * 10)


# ----------------------------------------------------------------------------- measures and linear comparators


def test_agreement_coefficient_counts():
    starts = np.array([0, 3, 5])
    pref = np.array([1, 3])
    s = np.array([0.0, 1.0, 2.0, 5.0, 5.0])  # pos 0: one below, one above; pos 1: a tie
    r = agreement(s, starts, pref)
    assert (r["L"], r["H"]) == (1.0, 1.0) and r["C"] == 0.0
    assert r["top1"] == pytest.approx((0 + 0.5) / 2)
    with pytest.raises(ValueError, match="pref must hold"):
        check_book(np.zeros((5, 1)), starts, np.array([3, 3]))


def test_per_term_agreement_and_softmax():
    """A feature equal to 'is preferred' has C_k = 1; the logistic model ranks by it."""
    X, starts, pref = _stream(11, 100, Arrangement((3, 3), ((0, 1),), (1,)))
    X = X.astype(float)
    X[:, 0] = preferred_mask(starts, pref)
    assert term_agreement(X, starts, pref)[0] == 1.0
    w = agreement_weights(X, starts, pref)
    assert agreement(X @ w, starts, pref)["C"] > 0.9
    w2 = fit_softmax(X, starts, pref)
    assert agreement(X @ w2, starts, pref)["C"] == 1.0


# ----------------------------------------------------------------------------- counting without storing


@given(st.lists(st.integers(-5, 5), min_size=1, max_size=200), st.integers(2, 9))
@settings(max_examples=80, deadline=None)
def test_thresholds_from_counts_equal_thresholds_from_the_sample(sample, levels):
    """Equal-frequency thresholds from (distinct value, count) pairs are those of the sample itself."""
    from tdbook.learners.signature_table import weighted_thresholds

    v = np.array(sample, dtype=float) / 4
    u, c = np.unique(v, return_counts=True)
    assert weighted_thresholds(u, c, levels).tolist() == equal_frequency_thresholds(v, levels).tolist()


@pytest.mark.parametrize("rule", ["plain", "a_k"])
def test_fit_needs_no_stored_stream(rule):
    """The stagewise fit's thresholds equal those of the outputs over the stream (stored), and a shuffled stream
    read in chunks gives the same tables byte for byte (Samuel (1973 note) ¶3 advantage 2)."""
    X, starts, pref = _stream(21, 400)
    m, k = preferred_mask(starts, pref), alternatives(starts)
    st = SignatureTables.fit(SAMUEL, X, m, k, rule=rule)
    ref = SignatureTables(SAMUEL)
    wa, wd = imbalance_weights(m, k, rule)
    for lev in (1, 2, 3):
        ref.count(X, wa, wd, lev, lev)
        ref.requantize(X, [t for t, d in enumerate(SAMUEL.depth) if d == lev])
    assert np.array_equal(st.thresholds, ref.thresholds) and np.array_equal(st.a, ref.a)
    order = np.random.default_rng(3).permutation(len(X))

    def stream():
        for lo in range(0, len(order), 333):
            rows = order[lo : lo + 333]
            yield X[rows], m[rows], k[rows]

    assert SignatureTables.fit_stream(SAMUEL, stream, rule=rule).to_bytes() == st.to_bytes()
    assert st.n.sum() == 13 * len(X)  # every vector reaches one entry of every table
    online = SignatureTables.fit(SAMUEL, X, m, k, mode="online", requant="fixed")
    chunks = lambda: iter([(X[:500], m[:500], k[:500]), (X[500:], m[500:], k[500:])])  # noqa: E731
    assert SignatureTables.fit_stream(SAMUEL, chunks, mode="online", requant="fixed").to_bytes() == online.to_bytes()


def test_the_note_rule_is_calibrated_in_sample():
    """Under the note's rule (plain counts, no prior) an entry's (1 + C)/2 is the preferred share of the vectors
    counted in it; with A += k it is not."""
    X, starts, pref = _stream(22, 300)
    m, k = preferred_mask(starts, pref), alternatives(starts)
    for rule, exact in (("plain", True), ("a_k", False)):
        st = SignatureTables.fit(SAMUEL, X, m, k, rule=rule)
        e = st.root_entries(X)
        assert np.array_equal(st.value(X), st.table_c(12).ravel()[e])
        share = np.bincount(e, weights=m, minlength=343) / np.maximum(np.bincount(e, minlength=343), 1)
        gap = np.abs(share[e] - (1 + st.value(X)) / 2).max()
        assert (gap < 1e-12) == exact


def test_samuel_arrangement_with_other_input_levels():
    arr = Arrangement.samuel(15, 15, (15,) * 27)
    assert arr.sizes[:9] == (15**3,) * 9 and arr.sizes[12] == 15**3
    with pytest.raises(ValueError, match="27 inputs"):
        Arrangement.samuel(input_levels=(7, 5, 3))


def test_logistic_fit_is_the_maximum():
    """Newton's method stops at the penalized likelihood's maximum: its gradient there is ~0, and the positions'
    per-position agreement parts sum to the totals."""
    from tdbook.learners.book_learning import _softmax_newton, agreement_by_position

    X, starts, pref = _stream(23, 400, Arrangement((5, 4, 3), ((0, 1, 2),), (1,)))
    X = X.astype(float)
    X[:, 0] += 2.0 * preferred_mask(starts, pref)  # a signal to find
    w = fit_softmax(X, starts, pref, l2=1e-3)
    sd = X.std(axis=0)
    Z = (X - X.mean(axis=0)) / sd
    g, h = np.zeros(3), np.zeros((3, 3))
    _softmax_newton(np.ascontiguousarray(Z), starts, pref, w * sd, g, h, False)
    assert np.abs(g / (len(starts) - 1) - 1e-3 * w * sd).max() < 1e-7
    parts = agreement_by_position(X @ w, starts, pref)
    r = agreement(X @ w, starts, pref)
    assert (parts[:, 0].sum(), parts[:, 1].sum()) == (r["L"], r["H"]) and r["C"] > 0.5


def _random_tree(rng) -> Arrangement:
    """A random tree of tables over 2–9 inputs of 1–5 levels, outputs requantized to 1–6 levels."""
    n = int(rng.integers(2, 10))
    free, tables = list(range(n)), []
    while len(free) > 1 or not tables:
        k = int(rng.integers(1, min(3, len(free)) + 1))
        picked = sorted(rng.choice(len(free), size=k, replace=False))
        tables.append(tuple(free[i] for i in picked))
        free = [f for i, f in enumerate(free) if i not in picked] + [n + len(tables) - 1]
    if free[0] != n + len(tables) - 1:  # the last node must be the root's output
        tables.append((free[0],))
    outs = tuple(int(v) for v in rng.integers(1, 7, len(tables) - 1)) + (1,)
    return Arrangement(tuple(int(v) for v in rng.integers(1, 6, n)), tuple(tables), outs)


@pytest.mark.parametrize("case", range(60))
def test_the_counting_shown_in_the_chapter_is_the_kernels(case):
    """Notebook 01 shows ``count_signatures`` (plain Python, the note's rule); the tables are trained by the jitted
    counting kernel: on Samuel's arrangement and random trees, with fixed and equal-frequency requantization, every
    entry's A, D and C = (A − D)/(A + D) are the same."""
    rng = np.random.default_rng(case)
    arr = SAMUEL if case % 3 == 0 else _random_tree(rng)
    X, starts, pref = _stream(case, int(rng.integers(5, 120)), arr)
    m, k = preferred_mask(starts, pref), alternatives(starts)
    tables = SignatureTables.fit(arr, X, m, k, "plain", "stagewise", "equal" if case % 2 else "fixed")
    levels = arr.output_levels
    thresholds = [list(tables.thresholds[t, : levels[t] - 1]) for t in range(arr.n_tables)]
    A, D = count_signatures(arr, X, m, thresholds)
    for t in range(arr.n_tables):
        a, d = tables.table_counts(t)
        ref_a, ref_d = np.zeros_like(a), np.zeros_like(d)
        for signature, v in A[t].items():
            ref_a[signature] = v
        for signature, v in D[t].items():
            ref_d[signature] = v
        assert np.array_equal(a, ref_a) and np.array_equal(d, ref_d), (case, t)
        c = np.divide(ref_a - ref_d, ref_a + ref_d, out=np.zeros_like(a), where=ref_a + ref_d > 0)
        assert np.array_equal(tables.table_c(t), c)
