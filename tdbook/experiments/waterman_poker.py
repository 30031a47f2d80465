"""Notebook 04's runs: Waterman (1968), *Machine Learning of Heuristics* (seed 003, ch. 2–5, App. A–K).

Everything here returns data; figures are in :mod:`tdbook.plots.waterman_poker`.  The worked
examples of ch. 2–4 are rebuilt from the rules and bf rules the seed prints and run through
:mod:`tdbook.learners.production_rules`; the ``PAPER_*`` constants are the seed's printed results
(transcribed from the OCR, obvious OCR slips repaired as noted) that the notebook compares with.
The poker runs use :mod:`tdbook.players.poker`; each training run ``r`` of a study uses seed
``SEED·1000 + r`` so studies are reproducible and independent of each other's sizes.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np
from tqdm.auto import tqdm

from ..core import profiles
from ..games import draw_poker as dp
from ..learners.production_rules import (
    INF,
    RANDOM,
    InductionModel,
    LearnParams,
    RuleSet,
    SimpleModel,
    StimulusGeneralization,
    Variable,
    deduce,
    grow_tree,
)
from ..players import poker as pk

#: Profile defaults for notebook 04 (see :func:`config`).
PROFILES: dict[str, dict[str, Any]] = {
    "quick": {
        "AUTO_RUNS": 10,
        "IMPLICIT_RUNS": 10,
        "MANUAL_RUNS": 10,
        "AGREE_N": 50,
        "AGREE_LONG": 150,
        "TESTS": 60,
        "TEST_PROGRAMS": 4,
        "SWEEP_RUNS": 2,
        "SWEEP_AGREE": 60,
        "NOISE": 0.15,
        "K": 4,
        "KK": 0,
        "N": 2,
        "WINDOW": 40,
        "COVERAGE": 0.95,
        "MEMORY": 25,
        "CLEAN_GAMES": 1,
        "RANDOM_MODE": "classes",
        "CORR_MODE": "appJ",
        "NOTPREV": "opp",
        "BUILTIN": "fig5-3",
        "SWAP_SEATS": False,
        "BLUFF": 0.10,
        "H2H_REPS": 20,
        "READING_RUNS": 10,
        "SWEEP_K": [1, 2, 4, 8],
        "SWEEP_KK": [0, 1, 2, 4],
        "SWEEP_CLEAN": [1, 2, 3],
        "SWEEP_N": [1, 2, 3, 4],
        "NOISE_GRID": [0.0, 0.05, 0.1, 0.15, 0.2, 0.3],
    },
    "standard": {
        "AUTO_RUNS": 500,
        "IMPLICIT_RUNS": 300,
        "MANUAL_RUNS": 500,
        "AGREE_N": 50,
        "AGREE_LONG": 1000,
        "TESTS": 1000,
        "TEST_PROGRAMS": 100,
        "SWEEP_RUNS": 50,
        "SWEEP_AGREE": 300,
        "NOISE": 0.15,
        "K": 4,
        "KK": 0,
        "N": 2,
        "WINDOW": 40,
        "COVERAGE": 0.95,
        "MEMORY": 25,
        "CLEAN_GAMES": 1,
        "RANDOM_MODE": "classes",
        "CORR_MODE": "appJ",
        "NOTPREV": "opp",
        "BUILTIN": "fig5-3",
        "SWAP_SEATS": False,
        "BLUFF": 0.10,
        "H2H_REPS": 250,
        "READING_RUNS": 50,
        "SWEEP_K": [1, 2, 4, 8],
        "SWEEP_KK": [0, 1, 2, 4],
        "SWEEP_CLEAN": [1, 2, 3],
        "SWEEP_N": [1, 2, 3, 4],
        "NOISE_GRID": [0.0, 0.05, 0.1, 0.15, 0.2, 0.3],
    },
    "full": {
        "AUTO_RUNS": 1000,
        "IMPLICIT_RUNS": 1000,
        "MANUAL_RUNS": 1000,
        "AGREE_N": 50,
        "AGREE_LONG": 5000,
        "TESTS": 2000,
        "TEST_PROGRAMS": 200,
        "SWEEP_RUNS": 200,
        "SWEEP_AGREE": 1000,
        "NOISE": 0.15,
        "K": 4,
        "KK": 0,
        "N": 2,
        "WINDOW": 40,
        "COVERAGE": 0.95,
        "MEMORY": 25,
        "CLEAN_GAMES": 1,
        "RANDOM_MODE": "classes",
        "CORR_MODE": "appJ",
        "NOTPREV": "opp",
        "BUILTIN": "fig5-3",
        "SWAP_SEATS": False,
        "BLUFF": 0.10,
        "H2H_REPS": 1000,
        "READING_RUNS": 200,
        "SWEEP_K": [1, 2, 3, 4, 6, 8, 12],
        "SWEEP_KK": [0, 1, 2, 3, 4, 6],
        "SWEEP_CLEAN": [1, 2, 3, 4],
        "SWEEP_N": [1, 2, 3, 4, 5],
        "NOISE_GRID": [0.0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4],
    },
}

CORR_MODES = {"appJ": 0, "notes": 1}


def config(profile: str, **knobs: Any) -> profiles.Config:
    """Resolve notebook 04's knobs for ``profile`` (a knob passed as None takes the profile default)."""
    cfg = profiles.resolve(profile, PROFILES, **knobs)
    for name in (
        "AUTO_RUNS",
        "IMPLICIT_RUNS",
        "MANUAL_RUNS",
        "AGREE_N",
        "AGREE_LONG",
        "TESTS",
        "TEST_PROGRAMS",
        "SWEEP_RUNS",
        "SWEEP_AGREE",
        "WINDOW",
        "MEMORY",
        "CLEAN_GAMES",
        "N",
    ):
        if cfg[name] < 1:
            raise ValueError(f"{name} must be >= 1, got {cfg[name]!r}")
    for name in ("H2H_REPS", "READING_RUNS"):
        if cfg[name] < 1:
            raise ValueError(f"{name} must be >= 1, got {cfg[name]!r}")
    for name in ("K", "KK"):
        if cfg[name] < 0:
            raise ValueError(f"{name} must be >= 0, got {cfg[name]!r}")
    for name, lo in (("SWEEP_K", 0), ("SWEEP_KK", 0), ("SWEEP_CLEAN", 1), ("SWEEP_N", 1)):
        g = cfg[name]
        if not g or any(isinstance(v, bool) or not isinstance(v, int) or v < lo for v in g):
            raise ValueError(f"{name} must be a non-empty list of ints >= {lo}, got {g!r}")
    g = cfg.NOISE_GRID
    if not g or any(isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 <= v < 1 for v in g):
        raise ValueError(f"NOISE_GRID must be a non-empty list of rates in [0, 1), got {g!r}")
    if not 0 <= cfg.NOISE < 1:
        raise ValueError(f"NOISE must be in [0, 1), got {cfg.NOISE!r}")
    if not 0 < cfg.COVERAGE <= 1:
        raise ValueError(f"COVERAGE must be in (0, 1], got {cfg.COVERAGE!r}")
    if not 0 <= cfg.BLUFF <= 1:
        raise ValueError(f"BLUFF must be in [0, 1], got {cfg.BLUFF!r}")
    checks = {
        "RANDOM_MODE": pk.RANDOM_MODES,
        "CORR_MODE": CORR_MODES,
        "NOTPREV": ("opp", "you"),
        "BUILTIN": pk.BUILTIN_VARIANTS,
    }
    for name, allowed in checks.items():
        if cfg[name] not in allowed:
            raise ValueError(f"{name} must be one of {list(allowed)}, got {cfg[name]!r}")
    return cfg


def with_knobs(cfg: profiles.Config, **changes: Any) -> profiles.Config:
    """``cfg`` with some knobs changed (checked like :func:`config`)."""
    return config(cfg.PROFILE, **{**{k: cfg[k] for k in PROFILES[cfg.PROFILE]}, **changes})


def params(cfg: profiles.Config, **over: Any) -> LearnParams:
    d = {"K": cfg.K, "KK": cfg.KK, "N": cfg.N}
    d.update(over)
    return LearnParams(**d)


# ============================================================================= ch. 2–3 worked examples

#: Fig. 2-2 and the text after it (§2.2, p. 37–38).
PAPER_PARSE = "((A2), (B1, B2), (C))"
PAPER_PARSE_RULE = 3
PAPER_PARSE_BETA = (4, 5, 2)


def parse_example() -> dict[str, Any]:
    """§2.2: β = (4, 5, 6), K1 = 1, K2 = 20, K3 = 3, D = 7, E = 8; the production rules 1–13."""
    rs = RuleSet([Variable("A"), Variable("B"), Variable("C")])
    rs.add_threshold("A", "≥ 25", "A1")
    rs.add_threshold("A", "< 25", "A2")
    rs.add_threshold("B", "> 1", "B1")
    rs.add_threshold("B", "> 4", "B2")
    rs.add_threshold("C", "= 5", "C1")
    rs.add_rule(["A1", "*", "*"], "(a, X+b, c)")
    rs.add_rule(["A2", "*", "C1"], "(a, b, c-Y)")
    rs.add_rule(["*", "B1", "*"], "(a, b, Y+c)")
    K1, K2, K3, D, E = 1, 20, 3, 7, 8
    X, Y = K1 * D, K2 - (K3 * E)  # ff rules 9 and 10
    right = {
        "(a, X+b, c)": lambda a, b, c: (a, X + b, c),
        "(a, b, c-Y)": lambda a, b, c: (a, b, c - Y),
        "(a, b, Y+c)": lambda a, b, c: (a, b, Y + c),
    }
    beta = (4, 5, 6)
    r = rs.fire(beta)
    return {"ruleset": rs, "parse": rs.format_parse(beta), "rule": r + 1, "beta": right[rs.rules[r].decision](*beta)}


#: §3.1 (p. 53–54): rules after the example trial on (13, 5, 7) (the range rules 11–13 omitted).
PAPER_31 = [
    "1. (A1, *, C2) → (*, *, c+3)",
    "2. (A2, B1, *) → (a+2, *, *)",
    "3. (A1, *, C1) → (a+6, *, *)",
    "4. (*, B2, C1) → (*, b+1, *)",
    "5. A1 → A, A ≥ 13",
    "6. A2 → A, A < 13",
    "7. B1 → B, B ≥ 16",
    "8. B2 → B, B < 16",
    "9. C1 → C, C > 5",
    "10. C2 → C, C ≤ 5",
]
PAPER_31_PARSE = "((A2), (B2), (C1))"


def example_31(K: int = 3) -> dict[str, Any]:
    """§3.1: "add 6 to A" because A is an A1 and C is a C1, at (13, 5, 7)."""
    V = [Variable("A", exclusive=True), Variable("B", exclusive=True), Variable("C", exclusive=True, style="le")]
    rs = RuleSet(V, LearnParams(K=K))
    rs.add_partition("A", ["A2", "A1"], [20], listing=["A1", "A2"])
    rs.add_partition("B", ["B2", "B1"], [16], listing=["B1", "B2"])
    rs.add_partition("C", ["C2", "C1"], [6], listing=["C1", "C2"])
    rs.add_rule(["A1", "*", "C2"], "(*, *, c+3)")
    rs.add_rule(["A2", "B1", "*"], "(a+2, *, *)")
    rs.add_rule(["*", "B2", "C1"], "(*, b+1, *)")
    before = rs.format_parse((13, 5, 7))
    rep = rs.train((13, 5, 7), "(a+6, *, *)", {"A": ("category", "A1"), "C": ("category", "C1")})
    return {"ruleset": rs, "parse": before, "listing": rs.listing(), "report": rep, "decision": rs.decide((13, 5, 7))}


#: §3.2 (p. 64–67): the same-form and catch/pass example.
PAPER_SAMEFORM = {
    "same_form": [False, False, True, False],
    "parse": "((A1, A2), (B), (C1))",
    "fires": 4,
    "catch_change": 2,
    "pass_change": 3,
}


def same_form_example() -> dict[str, Any]:
    """§3.2 "Example of rule modification": which rules have the same form as (A1, *, C1) → (*, b+2, *),
    the parse of (5, 3, 13), and the definition changes of the catch (C3 → C1) and pass (A2: A < 8 →
    A < 5) modifications."""
    rs = RuleSet([Variable("A"), Variable("B"), Variable("C")], LearnParams(K=3))
    for name, text in [("A1", "< 6"), ("A2", "< 8")]:
        rs.add_threshold("A", text, name)
    rs.add_threshold("B", "> 8", "B1")
    for name, text in [("C1", "> 12"), ("C2", "< 5"), ("C3", "> 14")]:
        rs.add_threshold("C", text, name)
    rs.add_rule(["A1", "*", "C2"], "(*, b+2, *)")
    rs.add_rule(["A1", "B1", "*"], "(*, *, a+5)")
    rs.add_rule(["A2", "*", "C3"], "(*, b+2, *)")
    rs.add_rule(["A1", "*", "*"], "(*, *, a+5)")
    from ..learners.production_rules import Rule

    training = Rule([rs.symbol_id("A1"), None, rs.symbol_id("C1")], "(*, b+2, *)")
    same = [rs.same_form(r, training) for r in rs.rules]
    values = (5, 3, 13)
    parse = rs.format_parse(values)
    fires = rs.fire(values) + 1
    catch = rs.change(rs.symbol_id("C3"), rs.symbol_id("C1"))
    a2 = rs.symbols[rs.symbol_id("A2")]
    pass_change = a2.hi - (values[0] - 1)  # restrict A2 so that 5 drops out: A < 8 → A < 5
    return {"same_form": same, "parse": parse, "fires": fires, "catch_change": catch, "pass_change": pass_change}


#: §3.2 (p. 70–74): the three training trials, the listing after each.
PAPER_TRIALS = [
    [
        "1. (A2, B1, *) → (a+1, *, *)",
        "2. (A1, *, C1) → (*, b+2, *)",
        "3. (A2, B2, *) → (*, *, c+3)",
        "4. (*, *, *) → (random)",
        "5. A1 → A, A < 18",
        "6. A2 → A, A ≥ 18",
        "7. B1 → B, B > 3",
        "8. B2 → B, B < 3",
        "9. C1 → C, C > 9",
    ],
    [
        "1. (A2, B1, *) → (a+1, *, *)",
        "2. (A1, *, C2) → (*, b+2, *)",
        "3. (A2, B2, *) → (*, *, c+3)",
        "4. (*, *, *) → (random)",
        "5. A1 → A, A < 18",
        "6. A2 → A, A ≥ 18",
        "7. B1 → B, B > 3",
        "8. B2 → B, B < 3",
        "9. C1 → C, C > 9",
        "10. C2 → C, C > 6",
    ],
    [
        "1. (A2, B1, *) → (a+1, *, *)",
        "2. (A1, *, C2) → (*, b+2, *)",
        "3. (A2, B3, *) → (*, *, c+3)",
        "4. (*, *, *) → (random)",
        "5. A1 → A, A < 18",
        "6. A2 → A, A ≥ 18",
        "7. B1 → B, B > 4",
        "8. B2 → B, B < 3",
        "9. B3 → B, B < 5",
        "10. C1 → C, C > 9",
        "11. C2 → C, C > 6",
    ],
]
PAPER_TRIAL_PARSES = ["((A1), (B), (C1))", "((A1), (B2), (C))", "((A2), (B1), (C1, C2))"]


def training_example(K: int = 3, KK: int = 0) -> dict[str, Any]:
    """§3.2 "Training procedure outline": trials on (18, 2, 11), (12, 1, 7), (21, 4, 15)."""
    V = [Variable("A", exclusive=True), Variable("B"), Variable("C")]
    rs = RuleSet(V, LearnParams(K=K, KK=KK))
    rs.add_partition("A", ["A1", "A2"], [20])
    rs.add_threshold("B", "> 3", "B1")
    rs.add_threshold("C", "> 9", "C1")
    rs.add_rule(["A2", "B1", "*"], "(a+1, *, *)")
    rs.add_rule(["A1", "*", "C1"], "(*, b+2, *)")
    rs.add_random_rule()
    trials = [
        ((18, 2, 11), "(*, *, c+3)", {"A": ("category", "A2"), "B": "small"}),
        ((12, 1, 7), "(*, b+2, *)", {"A": ("category", "A1"), "C": "large"}),
        ((21, 4, 15), "(*, *, c+3)", {"A": ("category", "A2"), "B": "small"}),
    ]
    listings, parses, reports = [], [], []
    for beta, dec, why in trials:
        parses.append(rs.format_parse(beta))
        reports.append(rs.train(beta, dec, why))
        listings.append(rs.listing())
    return {"ruleset": rs, "listings": listings, "parses": parses, "reports": reports}


PAPER_EXCLUSIVE = ["A1 → A, A ≤ 10", "A2 → A, A > 10 ∧ A ≤ 29", "A3 → A, A > 29"]
PAPER_OVERLAPPING = ["B1 → B, B < 9", "B2 → B, B > 27", "B3 → B, B > 50"]


def definition_examples(KK: int = 2) -> dict[str, Any]:
    """§3.2 "Learning exclusive definitions" (A on 1–60, guessed A1 ≤ 20, A2 21–40, A3 > 40; trials
    14 is A2, 7 A1, 30 A3, 11 A2) and "Learning overlapping definitions" (B on 1–60: 8 small, 30
    large, 51 large, 28 large; B2 is enlarged on the last trial, so KK ≥ 2)."""
    ex = RuleSet([Variable("A", exclusive=True, lo=1, hi=60, style="le")])
    ex.add_partition("A", ["A1", "A2", "A3"], [21, 41])
    steps_ex = []
    for v, cat in [(14, "A2"), (7, "A1"), (30, "A3"), (11, "A2")]:
        ex.learn_definition("A", v, ("category", cat))
        steps_ex.append(list(ex.cuts[0]))
    ov = RuleSet([Variable("B", lo=1, hi=60)], LearnParams(K=3, KK=KK))
    for v, m in [(8, "small"), (30, "large"), (51, "large"), (28, "large")]:
        ov.learn_definition("B", v, m)
    return {
        "exclusive": [ex.format_symbol(i) for i in ex.symbol_order()],
        "exclusive_cuts": steps_ex,
        "overlapping": [ov.format_symbol(i) for i in ov.symbol_order()],
    }


#: §3.3 (p. 82–85): hypothesis formation, the listing after each trial.
PAPER_HYPOTHESIS = [
    [
        "1. (A2, B1, C2) → (*, b+2, *) hypothesized",
        "2. (A1, *, C1) → (*, *, c+3)",
        "3. (*, *, *) → (random)",
        "4. A1 → A, A > 10",
        "5. A2 → A, A > 14",
        "6. B1 → B, B > 11",
        "7. C1 → C, C < 15",
        "8. C2 → C, C < 3",
    ],
    [
        "1. (A2, B1, *) → (*, b+2, *) hypothesized",
        "2. (A1, *, C1) → (*, *, c+3)",
        "3. (*, *, *) → (random)",
        "4. A1 → A, A > 10",
        "5. A2 → A, A > 14",
        "6. B1 → B, B > 11",
        "7. C1 → C, C < 15",
    ],
]
PAPER_HYPOTHESIS_PARSES = ["((A1), (B), (C1))", "((A1, A2), (B1), (C1))"]

#: Fig. 3-4, the decision matrix of the hypothesis example.
MATRIX_34 = {
    "(a+1, *, *)": ("large", "small", "small"),
    "(*, b+2, *)": ("large", "large", "small"),
    "(*, *, c+3)": ("small", "small", "large"),
}


def hypothesis_example(K: int = 3, N: int = 1) -> dict[str, Any]:
    """§3.3 revised training procedure: K = 3, N = 1, the decision matrix of Fig. 3-4; deduced decision
    "add 2 to B" at (15, 12, 2) and at (18, 13, 14)."""
    rs = RuleSet([Variable("A"), Variable("B"), Variable("C")], LearnParams(K=K, N=N))
    rs.add_threshold("A", "> 10", "A1")
    rs.add_threshold("C", "< 15", "C1")
    rs.add_rule(["A1", "*", "C1"], "(*, *, c+3)")
    rs.add_random_rule()
    listings, parses = [], []
    for beta in [(15, 12, 2), (18, 13, 14)]:
        dec = "(*, b+2, *)"
        parses.append(rs.format_parse(beta))
        rs.train(beta, dec, dict(enumerate(MATRIX_34[dec])), hypothesized=True)
        listings.append(rs.listing())
    return {"ruleset": rs, "listings": listings, "parses": parses}


PAPER_REDUNDANCY = ["1. (A1, B1, *) → d1", "2. (*, B1, *) → d3", "3. A1 → A, A > 5", "4. B1 → B, B < 9"]


def redundancy_example() -> dict[str, Any]:
    """§3.3 "Creation of redundant action rules": 4 rules, rule 2 subordinate-redundant (under rule 1),
    rule 3 superordinate-redundant (over rule 4); bf rules 6, 8, 9, 10 become superfluous."""
    rs = RuleSet([Variable("A"), Variable("B"), Variable("C")])
    for name, var, text in [
        ("A1", "A", "> 5"),
        ("A2", "A", "> 10"),
        ("B1", "B", "< 9"),
        ("B2", "B", "< 4"),
        ("C1", "C", "> 15"),
        ("C2", "C", "< 7"),
    ]:
        rs.add_threshold(var, text, name)
    rs.add_rule(["A1", "B1", "*"], "d1")
    rs.add_rule(["A2", "B2", "C1"], "d2")
    rs.add_rule(["*", "B2", "C2"], "d3")
    rs.add_rule(["*", "B1", "*"], "d3")
    before = rs.listing()
    removed = rs.remove_redundancies()
    return {"before": before, "after": rs.listing(), "removed": removed}


# ============================================================================= ch. 4 S-R models

FIG42 = [
    ((15, 21, 6), "A3", "HPB"),
    ((4, 28, 3), "A4", "H"),
    ((13, 8, 4), "A2", "HPB"),
    ((37, 4, 9), "A1", "HP"),
    ((12, 9, 10), "A4", "HB"),
    ((1, 42, 17), "A4", "H"),
    ((12, 5, 5), "A2", "HPB"),
]
#: Fig. 4-3: the environment's heuristics over exclusive values.
FIG43 = [
    (("h1", None, "b2"), "A1"),
    (("h1", "p2", None), "A1"),
    (("h2", "p2", "b2"), "A2"),
    (("h1", "p1", "b1"), "A3"),
    (("h2", "p1", "b2"), "A3"),
    (("h2", None, "b1"), "A4"),
    (("h3", None, None), "A4"),
]

PAPER_SIMPLE = ["15,21,6 → A3", "4,*,* → A4", "13,8,4 → A2", "37,4,* → A1", "*,*,* → {A1, A2, A3, A4}"]
PAPER_SIMPLE_PICKS = [None, "A3", "A4", "A3", "A2"]  # the printed predictions (random picks) of trials 1-5
PAPER_SG_DISTANCES = [
    [13.4],
    [13.3, 9.0],
    [28.0, 33.0, 24.8],
    [13.0, 8.0, 6.2, 25.5],
    [27.6, 3.0, 38.4, 52.3, 13.1],
    [16.3, 8.0, 3.3, 25.0, 5.0],
]
PAPER_SG_PREDICTIONS = ["A3", "A4", "A2", "A2", "A4", "A2"]
PAPER_INDUCTION_PREDICTIONS = ["A3", "A3", "A2", "A2", "A4"]  # trials 2–6 (trial 7's column is lost)
PAPER_INDUCTION_TREES = {4: "h3?(+A4 −p1?(+A3 −A2))", 5: "h1?(+A1 −h3?(+A4 −p1?(+A3 −A2)))"}
PAPER_ROOT_AE = Fraction(6, 7)
PAPER_COMPLEX = [
    "h2,*,* → A4",
    "h1,p1,b1 → A3",
    "h1,p2,b1 → A2",
    "h3,p2,* → A1",
    "h1,*,b2 → A4",
    "*,*,* → {A1, A2, A3, A4}",
]
PAPER_COMPLEX_PICKS = [None, None, "A4", "A2", "A3", None, None]  # printed random picks
PAPER_COMPLEX_18 = "h1 → H, H < 19"


def exclusive_values(s: Sequence[int]) -> tuple[str, str, str]:
    """Fig. 4-3's exclusive abstract values of a situation (H, P, B)."""
    h, p, b = s
    return ("h1" if h > 25 else "h2" if h > 10 else "h3", "p1" if p > 9 else "p2", "b1" if b > 7 else "b2")


def _complex_model() -> RuleSet:
    """The complex-placement model with Fig. 4-2's overlapping definitions (given, not learned)."""
    rs = RuleSet(
        [Variable("H", lo=1, hi=50), Variable("P", lo=1, hi=60), Variable("B", lo=1, hi=INF)],
        LearnParams(K=3, KK=0, reuse=INF, catch="redefine"),
    )
    for name, var, text in [
        ("h1", "H", "< 16"),
        ("h2", "H", "< 5"),
        ("h3", "H", "> 36"),
        ("p1", "P", "> 20"),
        ("p2", "P", "< 9"),
        ("b1", "B", "< 7"),
        ("b2", "B", "> 9"),
    ]:
        rs.add_threshold(var, text, name)
    for v in rs.variables:
        v.prefix = v.name.lower()
    rs.add_random_rule()
    return rs


def _complex_listing(rs: RuleSet, known: list) -> list[str]:
    out = []
    for r in rs.rules:
        if r.decision is RANDOM:
            out.append("*,*,* → {" + ", ".join(sorted(set(known))) + "}")
        else:
            out.append(",".join("*" if s is None else rs.symbols[s].name for s in r.left) + f" → {r.decision}")
    return out


def _terminals(node: Any) -> int:
    return 1 if node.test is None else _terminals(node.pos) + _terminals(node.neg)


def _run_model(model: Any, before: Any, transform: Any = tuple) -> list:
    """Fig. 4-2's trials through a model: ``before(k, model, situation)`` sees each trial first; returns the
    predictions of trials 2–7; a wrong prediction stores the connection (relevant elements only)."""
    preds = []
    for k, (s, a, rel) in enumerate(FIG42):
        x = transform(s)
        before(k, model, x)
        p, _ = model.predict(x)
        if k:
            preds.append(p)
        if p != a:
            model.learn(x, [n in rel for n in "HPB"], a)
    return preds


def sr_models() -> dict[str, Any]:
    """Ch. 4: the four models on the training sequence of Fig. 4-2, and Fig. 4-2 itself derived from
    the tree grown on Fig. 4-3's heuristics (App. A; §4.3 "Training trials")."""
    out: dict[str, Any] = {}
    # Fig. A-1 and the training information of Fig. 4-2
    tree = grow_tree([(s, a) for s, a in FIG43], ("h", "p", "b"))
    derived = []
    for s, _, _ in FIG42:
        act, path = tree.sort(exclusive_values(s))
        derived.append((act, "".join(n for i, n in enumerate("HPB") if i in path)))
    out["fig_a1"] = tree.text("hpb")
    out["fig_a1_negative"] = f"{tree.neg.text('hpb').count('?')} tests, {_terminals(tree.neg)} terminals"
    out["root_ae"] = tree.ae
    out["fig42_derived"] = derived
    # simple model (its random picks replayed as printed)
    sm = SimpleModel()
    preds = []
    for k, (s, a, rel) in enumerate(FIG42[:5]):
        p, how = sm.predict(s, pick=PAPER_SIMPLE_PICKS[k] if k else None)
        preds.append(p)
        if k < 4 and p != a:
            sm.learn(s, [n in rel for n in "HPB"], a)
    out["simple_listing"] = sm.listing()
    # stimulus generalization (distances to every stored connection, before each prediction)
    dists: list = []
    out["sg_predictions"] = _run_model(
        StimulusGeneralization(), lambda k, m, x: dists.append([round(d, 4) for d in m.distances(x)]) if k else None
    )
    out["sg_distances"] = dists
    # induction model (the tree used for each prediction)
    trees: dict = {}
    out["induction_predictions"] = _run_model(
        InductionModel(),
        lambda k, m, x: trees.__setitem__(k + 1, m.tree.text("hpb")) if m.tree is not None else None,
        exclusive_values,
    )
    out["induction_trees"] = trees
    # complex placement (random picks replayed as printed)
    cm = _complex_model()
    known: list = []
    cp = []
    for k, (s, a, rel) in enumerate(FIG42):
        r = cm.fire(s)
        dec = cm.rules[r].decision
        pred = PAPER_COMPLEX_PICKS[k] if dec is RANDOM else dec
        if dec is RANDOM and not known:
            pred = None
        cp.append(pred)
        if pred != a:
            reasons = {}
            for i, n in enumerate("HPB"):
                if n in rel:
                    cat = exclusive_values(s)[i]
                    reasons[i] = "large" if cat.endswith("1") else "small"  # ordering: top category large
            cm.train(s, a, reasons)
        known.append(a)
    out["complex_predictions"] = cp
    out["complex_listing"] = _complex_listing(cm, known)
    # the 18,24,3 → A3 example ("18 is small, 24 is large, 3 is small")
    before = cm.format_parse((18, 24, 3))
    cm.train((18, 24, 3), "A3", {0: "small", 1: "large", 2: "small"})
    out["complex_18_parse"] = before
    out["complex_18_h1"] = cm.format_symbol(cm.symbol_id("h1"))
    out["complex_18_decision"] = cm.decide((18, 24, 3))
    return out


# ============================================================================= App. G, I, J

#: App. G: the trainer's messages for its rules 9, 16, 17, 18 and 28 (trials 6–10).
PAPER_APP_G = {
    9: "(BET SB BECAUSE THE HAND IS GOOD THE BLUFFS IS LARGE THE ORP IS (EQUAL TO -1.))",
    16: "(BET BB BECAUSE THE HAND IS FAIR THE POT IS SMALL THE LASTBET IS SMALL THE BLUFFS IS LARGE)",
    17: "(DROP BECAUSE THE HAND IS FAIR THE LASTBET IS LARGE THE PBRATIO IS SMALL THE ORP IS (NOT EQUAL TO -1.))",
    18: "(CALL BECAUSE THE HAND IS FAIR THE LASTBET IS LARGE)",
    28: "(DROP BECAUSE THE HAND IS POOR)",
}

#: App. J: the first four r-o-ps of implicit training as printed (program = seat 0).  Each: program's
#: 8 cards (hand + the replacement cards in order), opponent's 8, opener, the action script
#: (seat, action) and the discards; then the printed subvectors and deduced decisions.
APP_J = [
    {
        "prog": "H6 D6 H14 D9 D5 S6 D8 H10",
        "opp": "H4 D10 C10 C9 D14 D7 S11 D12",
        "opener": 0,
        "discard": {0: "H14 D9 D5", 1: "H4 C9 D14"},
        "actions": [(0, "bet 1"), (1, "call"), (0, "bet 1"), (1, "bet 2"), (0, "bet 11"), (1, "call")],
        "vectors": [(52, 4, 0, -6, 4, 3, 0), (52, 6, 2, -6, 3, 3, 0)],
        "deduced": [["BET HIGH", "BET LOW"], ["BET HIGH", "BET LOW"]],
        "score": 16,
    },
    {
        "prog": "S4 D4 H13 H12 H11 S11 D8 C2",
        "opp": "S12 D3 S9 C7 D12 D7 S10 H9",
        "opener": 1,
        "discard": {1: "D3 S9 C7", 0: "H13 H12 H11"},
        "actions": [(1, "bet 7"), (0, "bet 13"), (1, "call"), (1, "bet 5"), (0, "call")],
        "vectors": [(10, 42, 5, -6, 8, 3, 0)],
        "deduced": [["CALL"]],
        "score": -10,
    },
    {
        "prog": "D14 S13 S8 S5 H2 C8 C9 C11",
        "opp": "S14 H6 D5 D6 H4 D2 H8 C2",
        "opener": 0,
        "discard": {0: "S8 S5 H2", 1: "D5 H4"},
        "actions": [(0, "bet 6"), (1, "call"), (0, "bet 5"), (1, "call")],
        "vectors": [(2, 14, 0, -14, 14, 2, -1)],
        "deduced": [["DROP"]],
        "score": -22,
    },
    {
        "prog": "S7 H7 C10 D9 S3 D10 D13 C12",
        "opp": "C3 H14 C6 C4 H3 C5 H10 S2",
        "opener": 1,
        "discard": {1: "C6 C4", 0: "C10 D9 S3"},
        "actions": [(1, "bet 2"), (0, "call"), (1, "bet 3"), (0, "call")],
        "vectors": [(13, 6, 3, -14, 2, 2, -1)],
        "deduced": [["BET LOW"]],
        "score": -16,
    },
]

#: App. I Part III: the predicates set in the worked deduction, and its answer.
APP_I_FACTS = {
    "higher(opphand,yourhand)",
    "notprevoppaction(bet high)",
    "onlycalled(opp)",
    "not-pot(large)",
    "bad(opphand)",
    "didbet(you)",
}
PAPER_APP_I = ["bet high"]


def _mask(hand: np.ndarray, discard: str) -> int:
    d = set(dp.cards(discard).tolist())
    return sum(1 << i for i, c in enumerate(hand) if int(c) in d)


def appendix_j(corr_mode: int = 0, notprev: str = "opp") -> list[dict[str, Any]]:
    """Replay App. J's r-o-ps through the engine (cards, discards and bets as printed; the long-term
    books carried from r-o-p to r-o-p) and compute the program's subvectors at its post-draw
    decisions and the decisions deduced from the axioms."""
    st = np.zeros(dp.NST, dtype=np.int64)
    book = np.zeros((2, dp.NBOOK), dtype=np.int64)
    vals, aux, fv = np.zeros(7, dtype=np.int64), np.zeros(7, dtype=np.int64), np.zeros(5)
    score = 0
    out = []
    for r in APP_J:
        deal = np.concatenate([dp.cards(r["prog"]), dp.cards(r["opp"])])
        dp.new_round(st, deal, r["opener"], dp.DEFAULT_CAP)
        ctxs, last = [], None
        for seat, act in r["actions"]:
            while st[dp.PHASE] == dp.REPLACE:
                s = int(st[dp.TO_MOVE])
                dp.apply_replace(st, _mask(st[dp.HAND + 8 * s : dp.HAND + 8 * s + 5], r["discard"][s]))
            if int(st[dp.TO_MOVE]) != seat:
                raise ValueError(f"App. J script out of turn at {act!r}")
            kind, *amt = act.split()
            k = {"drop": dp.DROP, "call": dp.CALL, "bet": dp.BET}[kind]
            if seat == 0 and st[dp.PHASE] == dp.BET2:
                dp.subvector(st, 0, book, dp.K_VALUES, 1, vals, aux, fv)
                last = pk.Context(
                    vals.copy(),
                    aux.copy(),
                    0,
                    False,
                    True,
                    int(st[dp.RCOUNT + 1]),
                    int(st[dp.RMAX + 1]),
                    int(st[dp.RMAX]),
                )
                ctxs.append(last)
            elif seat == 1:
                if last is not None and k == dp.BET:
                    last.opp_responded_raise = True
                last = None
            err = dp.apply_action(st, k, int(amt[0]) if amt else 0)
            if err:
                raise ValueError(f"App. J script: {dp.ERRORS[err]}")
        if st[dp.PHASE] != dp.DONE:
            raise ValueError("App. J script does not finish the r-o-p")
        dp.update_books(st, book, corr_mode, dp.K_VALUES)
        score += int(st[dp.NET])
        own, opp = st[dp.HAND : dp.HAND + 5], st[dp.HAND + 8 : dp.HAND + 13]
        ded = [
            sorted(
                pk.CLASS_NAMES[c]
                for c in pk.deduced_classes(
                    c, int(dp.hand_rank(own)), int(dp.hand_rank(opp)), int(dp.vdhand(opp)), notprev
                )
            )
            for c in ctxs
        ]
        out.append(
            {
                "vectors": [tuple(int(x) for x in c.vals) for c in ctxs],
                "deduced": ded,
                "score": score,
                "paper_vectors": r["vectors"],
                "paper_deduced": [sorted(d) for d in r["deduced"]],
                "paper_score": r["score"],
            }
        )
    return out


def appendix_i() -> list[str]:
    return deduce(APP_I_FACTS)[0]


def trainer_messages() -> dict[int, str]:
    b = pk.built_in()
    return {k: pk.trainer_advice(b, k - 1).message for k in PAPER_APP_G}


# ============================================================================= training studies


@dataclass
class Study:
    """Many seeded training runs of one procedure."""

    name: str
    trials: np.ndarray
    created: np.ndarray
    redundant: np.ndarray
    rules: np.ndarray
    rops: np.ndarray
    converged: np.ndarray
    before: np.ndarray  # agreement on AGREE_N situations before training
    after: np.ndarray  # ... after
    after_long: np.ndarray  # agreement on AGREE_LONG situations after training
    programs: list = field(repr=False, default_factory=list)

    def stat(self, name: str) -> tuple[float, float, float]:
        """(mean, 95 % half-width of the mean, s.d. of one run)."""
        x = np.asarray(getattr(self, name), dtype=float)
        x = x[~np.isnan(x)]
        sd = float(x.std(ddof=1)) if len(x) > 1 else 0.0
        return float(x.mean()), 1.96 * sd / math.sqrt(max(len(x), 1)), sd


def _seed(seed: int, r: int) -> int:
    return seed * 1000 + r


def random_rule_agreement(
    cfg: profiles.Config, seed: int, runs: int, random_mode: str = "bcd", progress: bool = True
) -> np.ndarray:
    """Table 5-1's 'before' agreement of the random rule alone under ``random_mode`` (e.g. "bcd":
    drop/call/bet 1–20 uniformly), one ``AGREE_N``-situation test per run ``r`` (seed ``SEED·1000 + r``)."""
    if not isinstance(runs, int) or isinstance(runs, bool) or runs < 1:
        raise ValueError(f"runs must be a positive int, got {runs!r}")
    if random_mode not in pk.RANDOM_MODES:
        raise ValueError(f"random_mode must be one of {list(pk.RANDOM_MODES)}, got {random_mode!r}")
    opp, trainer = pk.experienced(cfg.BLUFF), pk.built_in(cfg.BUILTIN)
    prog, corr = pk.random_program(), CORR_MODES[cfg.CORR_MODE]
    return np.array(
        [
            pk.agreement_explicit(prog, _seed(seed, r), cfg.AGREE_N, opp, trainer, random_mode, corr)
            for r in tqdm(range(runs), desc=f"random rule ({random_mode})", disable=not progress, leave=False)
        ]
    )


def _study(
    name: str,
    runs: int,
    seed: int,
    train: Any,
    agree: Any,
    before_program: RuleSet,
    cfg: profiles.Config,
    progress: bool,
) -> Study:
    rows, progs = [], []
    for r in tqdm(range(runs), desc=f"{name} training", disable=not progress, leave=False):
        s = _seed(seed, r)
        run = train(s)
        rows.append(
            (
                run.trials,
                run.created,
                run.redundant,
                run.rules,
                run.rops,
                run.converged,
                agree(before_program, s, cfg.AGREE_N),
                agree(run.program, s, cfg.AGREE_N),
                agree(run.program, s + 500, cfg.AGREE_LONG),
            )
        )
        progs.append(run.program)
    a = np.array(rows, dtype=float)
    return Study(name, *(a[:, i] for i in range(9)), programs=progs)


def explicit_study(
    cfg: profiles.Config,
    seed: int,
    runs: int,
    noise: float = 0.0,
    name: str = "automatic",
    opponent: pk.Player | None = None,
    progress: bool = True,
    **over: Any,
) -> Study:
    """``runs`` automatic-training runs (§5.3; ``noise`` > 0: the manual-training proxy)."""
    opponent = opponent or pk.experienced(cfg.BLUFF)
    trainer = pk.built_in(cfg.BUILTIN)
    corr = CORR_MODES[cfg.CORR_MODE]

    def train(s):
        return pk.train_explicit(
            s,
            opponent,
            params(cfg, **over),
            noise=noise,
            corr_mode=corr,
            trainer=trainer,
            clean_games=cfg.CLEAN_GAMES,
            memory=cfg.MEMORY,
        )

    def agree(prog, s, n):
        return pk.agreement_explicit(prog, s, n, opponent, trainer, cfg.RANDOM_MODE, corr)

    return _study(name, runs, seed, train, agree, pk.random_program(), cfg, progress)


def implicit_study(
    cfg: profiles.Config, seed: int, runs: int, opponent: pk.Player | None = None, progress: bool = True, **over: Any
) -> Study:
    """``runs`` implicit-training runs (§5.4)."""
    opponent = opponent or pk.experienced(cfg.BLUFF)
    corr = CORR_MODES[cfg.CORR_MODE]

    def train(s):
        return pk.train_implicit(
            s,
            opponent,
            params(cfg, **over),
            coverage=cfg.COVERAGE,
            window=cfg.WINDOW,
            notprev=cfg.NOTPREV,
            corr_mode=corr,
            memory=cfg.MEMORY,
        )

    def agree(prog, s, n):
        return pk.agreement_implicit(
            prog,
            s,
            n,
            opponent,
            cfg.RANDOM_MODE,
            cfg.NOTPREV,  # noqa: E731
            corr,
        )

    return _study("implicit", runs, seed, train, agree, pk.random_program("implicit"), cfg, progress)


# ============================================================================= Table 5-3

#: Table 5-3 (p. 153): trials, redundancies, action rules, % difference in winnings, agreement.
PAPER_TABLE_53 = {
    "built-in": {"rules": 28, "pct": 5.0},
    "before-training": {"rules": 1, "pct": -71.0},
    "manual-training": {"trials": 38, "redundant": 5, "rules": 26, "pct": -6.8, "created": 31},
    "automatic-training": {
        "trials": 29,
        "redundant": 1,
        "rules": 19,
        "pct": -1.9,
        "before": 20.0,
        "after": 96.0,
        "created": 20,
    },
    "implicit-training": {
        "trials": 57,
        "redundant": 1,
        "rules": 14,
        "pct": -13.0,
        "before": 24.0,
        "after": 82.0,
        "created": 15,
    },
}


@dataclass
class Winnings:
    """Proficiency tests of one kind of program (several trained programs pooled)."""

    name: str
    tests: list  # list of pk.Proficiency

    def values(self, what: str = "gross_pct") -> np.ndarray:
        return np.concatenate([getattr(t, what) for t in self.tests])

    def stat(self, what: str = "gross_pct") -> tuple[float, float, float]:
        x = self.values(what)
        sd = float(x.std(ddof=1)) if len(x) > 1 else 0.0
        return float(x.mean()), 1.96 * sd / math.sqrt(len(x)), sd


def winnings(
    programs: Sequence[pk.Player],
    opponent: pk.Player,
    cfg: profiles.Config,
    seed: int,
    name: str,
    stream0: int = 0,
    progress: bool = True,
) -> Winnings:
    """``cfg.TESTS`` duplicate proficiency tests spread over ``programs`` (same deals for every kind).
    Each test is the seed's protocol (Fig. 5-4): 5 games × 5 r-o-ps in series I, the same 25 deals
    with the hands swapped in series II."""
    if not programs:
        raise ValueError("winnings needs at least one program")
    per = max(1, cfg.TESTS // len(programs))
    tests = []
    for i, p in enumerate(tqdm(programs, desc=f"{name} tests", disable=not progress or len(programs) < 2, leave=False)):
        tests.append(
            pk.proficiency(
                p,
                opponent,
                per,
                seed=seed,
                stream0=stream0 + i * per,
                swap_seats=cfg.SWAP_SEATS,
                corr_mode=CORR_MODES[cfg.CORR_MODE],
            )
        )
    return Winnings(name, tests)


def table_53(
    cfg: profiles.Config,
    seed: int,
    auto: Study,
    manual: Study,
    implicit: Study,
    opponent: pk.Player | None = None,
    progress: bool = True,
) -> dict[str, Winnings]:
    """Table 5-3's winnings column rebuilt: built-in, before-training, and the first
    ``TEST_PROGRAMS`` trained programs of each study, against the stand-in opponent."""
    opponent = opponent or pk.experienced(cfg.BLUFF)
    n = cfg.TEST_PROGRAMS
    rm = cfg.RANDOM_MODE
    progs = {
        "built-in": [pk.program_player(pk.built_in(cfg.BUILTIN), "built-in")],
        "before-training": [pk.program_player(pk.random_program(), "before-training", random_mode=rm)],
        "manual-training": [pk.program_player(p, "manual", random_mode=rm) for p in manual.programs[:n]],
        "automatic-training": [pk.program_player(p, "automatic", random_mode=rm) for p in auto.programs[:n]],
        "implicit-training": [
            pk.program_player(p, "implicit", classes="implicit", random_mode=rm) for p in implicit.programs[:n]
        ],
    }
    return {
        k: winnings(v, opponent, cfg, seed, k, progress=False)
        for k, v in tqdm(progs.items(), desc="Table 5-3 tests", disable=not progress, leave=False)
    }


# ============================================================================= sensitivity and beyond


def sweep(
    cfg: profiles.Config, seed: int, procedure: str, knob: str, values: Sequence[Any], progress: bool = True
) -> dict[Any, Study]:
    """The unstated constants: one training study (``SWEEP_RUNS`` runs, agreement on ``SWEEP_AGREE``
    situations) per value of ``knob`` — a learning constant (K, KK, N, keep_exclusive, search) or
    a knob of the notebook (NOTPREV, CLEAN_GAMES, WINDOW, MEMORY, …)."""
    out = {}
    learn = {"keep_exclusive", "search", "reuse"}  # LearnParams fields that are not notebook knobs
    for v in tqdm(values, desc=f"{procedure}: {knob}", disable=not progress, leave=False):
        c = with_knobs(cfg, AGREE_LONG=cfg.SWEEP_AGREE, **({} if knob in learn else {knob: v}))
        over = {knob: v} if knob in learn else {}
        if procedure == "implicit":
            out[v] = implicit_study(c, seed + 7, cfg.SWEEP_RUNS, progress=False, **over)
        else:
            out[v] = explicit_study(c, seed + 7, cfg.SWEEP_RUNS, progress=False, **over)
    return out


def noise_sweep(cfg: profiles.Config, seed: int, values: Sequence[float], progress: bool = True) -> dict[float, Study]:
    """The manual-training proxy at several rates of inconsistent advice."""
    c = with_knobs(cfg, AGREE_LONG=cfg.SWEEP_AGREE)
    return {
        v: explicit_study(c, seed + 11, cfg.SWEEP_RUNS, noise=v, name=f"noise {v:g}", progress=False)
        for v in tqdm(values, desc="noise", disable=not progress, leave=False)
    }


def opponents(cfg: profiles.Config) -> dict[str, pk.Player]:
    return {
        "experienced (scripted)": pk.experienced(cfg.BLUFF),
        "built-in copy": pk.program_player(pk.built_in(cfg.BUILTIN), "built-in copy"),
        "equity threshold": pk.equity_player(),
        "uniform random": pk.random_player(),
    }


def head_to_head(
    players: dict[str, pk.Player], cfg: profiles.Config, seed: int, reps: int, progress: bool = True
) -> dict:
    """Mean duplicate difference (chips per r-o-p) of every row player against every column player.

    Every ordered pair plays ``reps`` duplicate tests on the *same* deals as its mirror pair, each deal
    twice with hands *and* seats swapped (``swap_seats=True``: the player holding a hand also holds
    its position in both series), so ``mean[i, j] ≈ −mean[j, i]`` up to the players' own random
    choices.  ``antisymmetry`` is the largest |mean[i, j] + mean[j, i]|."""
    if not isinstance(reps, int) or isinstance(reps, bool) or reps < 1:
        raise ValueError(f"reps must be a positive int, got {reps!r}")
    names = list(players)
    if len(names) < 2:
        raise ValueError("head_to_head needs at least two players")
    m = np.zeros((len(names), len(names)))
    h = np.zeros_like(m)
    pairs = [(i, j) for i in range(len(names)) for j in range(len(names)) if i != j]
    for i, j in tqdm(pairs, desc="head to head", disable=not progress, leave=False):
        pair = min(i, j) * len(names) + max(i, j)  # the mirror pair plays the same deals
        pr = pk.proficiency(
            players[names[i]],
            players[names[j]],
            reps,
            seed=seed,
            stream0=reps * pair,
            swap_seats=True,
            corr_mode=CORR_MODES[cfg.CORR_MODE],
        )
        m[i, j], h[i, j], _ = pr.summary("chips_per_rop")
    return {"names": names, "mean": m, "half": h, "reps": reps, "antisymmetry": float(np.abs(m + m.T).max())}


# ============================================================================= widget


def explore(
    procedure: str = "automatic",
    K: int = 4,
    KK: int = 0,
    N: int = 2,
    noise: float = 0.15,
    opponent: str = "experienced (scripted)",
    runs: int = 10,
    seed: int = 1968,
) -> dict[str, Any]:
    """Rerun a training study with new constants (the notebook's panel)."""
    if not isinstance(runs, int) or runs < 1:
        raise ValueError(f"runs must be a positive int, got {runs!r}")
    cfg = config(
        "quick",
        K=K,
        KK=KK,
        N=N,
        NOISE=noise,
        AUTO_RUNS=runs,
        IMPLICIT_RUNS=runs,
        MANUAL_RUNS=runs,
        TESTS=40 * runs,
        TEST_PROGRAMS=runs,
        AGREE_LONG=200,
    )
    opp = opponents(cfg)
    if opponent not in opp:
        raise ValueError(f"opponent must be one of {list(opp)}, got {opponent!r}")
    o = opp[opponent]
    if procedure == "implicit":
        st = implicit_study(cfg, seed, runs, opponent=o, progress=True)
        players = [pk.program_player(p, classes="implicit") for p in st.programs]
    elif procedure in ("automatic", "manual"):
        st = explicit_study(cfg, seed, runs, noise=noise if procedure == "manual" else 0.0, name=procedure, opponent=o)
        players = [pk.program_player(p) for p in st.programs]
    else:
        raise ValueError(f"procedure must be 'automatic', 'manual' or 'implicit', got {procedure!r}")
    w = winnings(players, o, cfg, seed, procedure)
    return {
        "study": st,
        "winnings": w,
        "procedure": procedure,
        "opponent": opponent,
        "example": pk.lisp(st.programs[0]),
    }
