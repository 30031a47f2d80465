"""Production rules and their learning (Waterman (1968) ch. 2–4, App. A, I): the rule language and its jitted
Steps A and B, properties of the training procedure, the deduction from the axioms, the S-R models.  The
worked examples as printed are in test_draw_poker_examples.py."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tdbook.learners.draw_poker_axioms import deduce
from tdbook.learners.draw_poker_heuristics import C_CALL, random_program
from tdbook.learners.production_rules import GT, LT, RANDOM, Variable
from tdbook.learners.production_rules_kernels import decide_rule, fire
from tdbook.learners.rule_learning import LearnParams, RuleSet
from tdbook.learners.sr_models import SimpleModel, grow_tree

# ----------------------------------------------------------------------------- S-R models (ch. 4)


def test_inconsistent_connections_do_not_grow_a_tree():
    with pytest.raises(ValueError, match="inconsistent"):
        grow_tree([(("h1", "p1", "b1"), "A1"), (("h1", "p1", "b1"), "A2")], "hpb")


# ----------------------------------------------------------------------------- deduction (App. I)


def test_deduce_tries_disjuncts_in_order():
    winning = {
        "higher(yourhand,opphand)",
        "good(opphand)",
        "goodhand(opp)",
        "onlycalled(opp)",
        "not-pot(large)",
        "notprevoppaction(bet high)",
    }
    acts, d = deduce(winning)
    assert d == "a" and acts == ["bet low"]  # buildup via axiom 14, then the pot is added
    acts, d = deduce({"higher(opphand,yourhand)", "good(opphand)", "not-pot(large)"})
    assert (acts, d) == (["drop"], "c")
    assert deduce({"higher(opphand,yourhand)", "pot(large)"}) == (["call"], "none")


# ----------------------------------------------------------------------------- the procedure's guarantees


def _toy(params: LearnParams) -> RuleSet:
    rs = RuleSet(
        [Variable("A", exclusive=True, lo=1, hi=60), Variable("B", lo=1, hi=60), Variable("C", lo=1, hi=60)], params
    )
    rs.add_partition("A", ["A1", "A2", "A3"], [20, 40])
    rs.add_random_rule()
    return rs


trial = st.tuples(
    st.integers(1, 60),
    st.integers(1, 60),
    st.integers(1, 60),
    st.sampled_from(["d1", "d2", "d3"]),
    st.sampled_from(["A1", "A2", "A3"]),
    st.lists(st.sampled_from(["large", "small", None]), min_size=2, max_size=2),
)


@settings(max_examples=60, deadline=None)
@given(st.lists(trial, min_size=1, max_size=25), st.integers(0, 6), st.integers(0, 3), st.booleans())
def test_a_training_trial_makes_the_advocated_decision(trials, K, KK, hyp):
    """§3.2: 'when the program subvector is … the desired decision … is made' after every trial."""
    rs = _toy(LearnParams(K=K, KK=KK, N=1))
    for a, b, c, dec, cat, (rb, rc) in trials:
        reasons = {"A": ("category", cat)}
        if hyp:
            reasons.update({"B": rb or "large", "C": rc or "small"})
        else:
            if rb:
                reasons["B"] = rb
            if rc:
                reasons["C"] = rc
        rs.train((a, b, c), dec, reasons, hypothesized=hyp)
        assert rs.decide((a, b, c)) == dec


@settings(max_examples=40, deadline=None)
@given(
    st.lists(trial, min_size=3, max_size=25),
    st.lists(st.tuples(st.integers(1, 60), st.integers(1, 60), st.integers(1, 60)), min_size=50, max_size=50),
)
def test_removing_redundant_rules_changes_no_decision(trials, probes):
    rs = _toy(LearnParams(K=3, KK=1, N=1))
    for a, b, c, dec, cat, (rb, rc) in trials:
        rs.train((a, b, c), dec, {"A": ("category", cat), "B": rb or "small", "C": rc or "large"}, hypothesized=True)
    before = [rs.decide(p) for p in probes]
    rs.remove_redundancies()
    assert [rs.decide(p) for p in probes] == before


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 2), st.integers(0, 1), st.integers(-5, 25)), min_size=1, max_size=12),
    st.lists(st.lists(st.integers(-1, 11), min_size=3, max_size=3), min_size=1, max_size=8),
    st.lists(st.integers(-10, 30), min_size=3, max_size=3),
)
def test_jitted_steps_a_and_b_match_a_plain_reading(syms, rules, values):
    """Step A / Step B on arrays agree with the definition: first rule whose symbols all hold."""
    rs = RuleSet([Variable("A", lo=-100, hi=100), Variable("B", lo=-100, hi=100), Variable("C", lo=-100, hi=100)])
    ids = [rs.add_symbol(v, GT if k == 0 else LT, t if k == 0 else -100, 100 if k == 0 else t) for v, k, t in syms]
    for left in rules:
        row = [None] * 3
        for p, x in enumerate(left):
            cand = [i for i in ids if rs.symbols[i].var == p]
            row[p] = cand[x % len(cand)] if cand and x >= 0 else None
        rs.add_rule(row, "d")
    rs.add_random_rule()
    expect = next(
        r
        for r, rule in enumerate(rs.rules)
        if all(s is None or rs.symbols[s].lo <= values[p] <= rs.symbols[s].hi for p, s in enumerate(rule.left))
    )
    syms_a, rules_a, _ = rs.arrays()
    mask = np.zeros(syms_a.shape[0], dtype=np.bool_)
    v = np.array(values, dtype=np.int64)
    assert decide_rule(syms_a, rs._arrays[3], rules_a, len(rs.rules), v, v, mask) == expect


def test_bad_parameters_and_reasons_are_refused():
    for bad in ({"K": -1}, {"N": 0}, {"catch": "grow"}, {"search": "random"}, {"KK": 1.5}):
        with pytest.raises(ValueError):
            LearnParams(**bad)
    rs = _toy(LearnParams())
    n = len(rs.rules)
    with pytest.raises(ValueError, match="not a category"):
        rs.train((5, 5, 5), "d1", {"A": ("category", "A9")})
    with pytest.raises(ValueError, match="exclusive"):
        rs.train((5, 5, 5), "d1", {"A": "large"})
    with pytest.raises(ValueError, match="unknown variable"):
        rs.train((5, 5, 5), "d1", {"Q": "large"})
    with pytest.raises(ValueError, match="random"):
        rs.train((5, 5, 5), RANDOM, {"B": "large"})
    assert len(rs.rules) == n


def _snapshot(rs: RuleSet) -> tuple:
    return (
        rs.listing(),
        {k: list(v) for k, v in rs.cuts.items()},
        [None if s is None else (s.name, s.lo, s.hi) for s in rs.symbols],
    )


@pytest.mark.parametrize(
    "reasons, match",
    [
        ({"A": ("category", "A1"), "B": ("category", "X")}, "overlapping"),  # A's cut would move first
        ({"A": ("category", "A1"), "B": "large", "C": "tall"}, "a reason is"),
        ({"A": ("category", "A1"), "C": ("set", 3)}, "set reason"),
        ({"A": ("category", "A1"), "B": "small", "Q": "large"}, "unknown variable"),
    ],
)
def test_a_bad_reason_anywhere_changes_nothing(reasons, match):
    """Every reason is validated before any bf rule, cut or ac rule changes (A = 50 is an A3, so the
    valid reason 'A1' alone would move the A1/A2 cuts)."""
    rs = _toy(LearnParams())
    rs.train((10, 30, 30), "d1", {"A": ("category", "A1"), "B": "large"})
    before = _snapshot(rs)
    with pytest.raises(ValueError, match=match):
        rs.train((50, 5, 5), "d2", reasons)
    assert _snapshot(rs) == before
    prog = random_program()
    before = _snapshot(prog)
    with pytest.raises(ValueError, match="overlapping"):
        prog.train((-30, 5, 5, -6, 10, 2, 0), C_CALL, {0: ("category", "H2"), 1: ("category", "X")})
    assert _snapshot(prog) == before


def test_simple_model_random_picks_use_one_seeded_generator():
    """Ch. 4 Simple model: an unmatched situation gets a random known action from the model's own generator,
    so successive picks vary, and the same seed repeats them."""

    def picks(seed):
        m = SimpleModel(seed)
        for k, a in enumerate("abcd"):
            m.learn((k, k, k), [True] * 3, a)
        return [m.predict((9, 9, 9))[0] for _ in range(40)]

    assert picks(5) == picks(5) and len(set(picks(5))) > 1 and picks(5) != picks(6)
    with pytest.raises(ValueError, match="seed"):
        SimpleModel(-1)


def test_the_rule_matching_shown_in_the_chapter_is_the_kernel():
    """Notebook 04 shows ``fire`` (Steps A and B in plain Python); every program decides with the jitted
    ``decide_rule``: on 5,000 random symbol tables, rule lists and subvectors (with auxiliary values), the same rule."""
    gen = np.random.default_rng(1968)
    for case in range(5000):
        nv, ns, nr = int(gen.integers(1, 6)), int(gen.integers(1, 12)), int(gen.integers(1, 10))
        lo, lo2 = gen.integers(-5, 10, ns), gen.integers(-5, 10, ns)
        syms = np.stack(
            [gen.integers(0, nv, ns), lo, lo + gen.integers(0, 8, ns), lo2, lo2 + gen.integers(0, 8, ns)], 1
        )
        rules = np.concatenate([gen.integers(-ns, ns, (nr, nv)).clip(-1), gen.integers(0, 5, (nr, 1))], 1)
        values, aux = gen.integers(-6, 18, nv), gen.integers(-6, 18, nv)
        mask = np.zeros(ns, dtype=np.bool_)
        assert decide_rule(syms, ns, rules, nr, values, aux, mask) == fire(syms, rules, values, aux), case
