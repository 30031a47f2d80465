"""Notebook 04's worked examples: Waterman (1968) ch. 2–4, App. A, G, I, J rebuilt and run, and the sample games of
App. C, E, F, H and K replayed with the printed heuristics.

Every example is rebuilt from the rules and bf rules the document prints and run through the rule
language (:mod:`tdbook.learners.production_rules`), the training procedures
(:mod:`tdbook.learners.rule_learning`), the S-R models (:mod:`tdbook.learners.sr_models`) or the
draw-poker engine and trainers.  What the document prints as the *result* of each example is claim
data (``tdbook/claims/waterman1968.toml``); what it prints as the *input* (situations, training
sequences, the App. J deals and bets, the random picks the document made) is here; the sample games are a
transcribed table (``tdbook/claims/tables/waterman1968_sample_games.tsv``).  The module stays one piece (about 800
lines) because it is one thing: the document's own printed examples and transcripts, each run through the engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ... import claims
from ...core.rng import make_state
from ...games import draw_poker as dp
from ...learners.draw_poker_axioms import deduce
from ...learners.draw_poker_heuristics import (
    C_CALL,
    C_DROP,
    C_LAP,
    CLASS_HI,
    CLASS_LO,
    CLASS_NAMES,
    built_in,
    printed_heuristics,
    random_program,
)
from ...learners.draw_poker_trainers import Context, deduced_classes, trainer_advice
from ...learners.production_rules import INF, RANDOM, Rule, Variable
from ...learners.rule_learning import LearnParams, RuleSet
from ...learners.sr_models import InductionModel, SimpleModel, StimulusGeneralization, grow_tree
from ...players import draw_poker as poker_players

# ----------------------------------------------------------------------------- ch. 2–3 worked examples


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
    training = Rule([rs.symbol_id("A1"), None, rs.symbol_id("C1")], "(*, b+2, *)")
    same = [rs.same_form(r, training) for r in rs.rules]
    values = (5, 3, 13)
    parse = rs.format_parse(values)
    fires = rs.fire(values) + 1
    catch = rs.change(rs.symbol_id("C3"), rs.symbol_id("C1"))
    a2 = rs.symbols[rs.symbol_id("A2")]
    pass_change = a2.hi - (values[0] - 1)  # restrict A2 so that 5 drops out: A < 8 → A < 5
    return {"same_form": same, "parse": parse, "fires": fires, "catch_change": catch, "pass_change": pass_change}


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
    return {"ruleset": rs, "listings": listings, "parses": parses, "reports": reports, "K": K, "KK": KK}


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
        "KK": KK,
    }


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
    return {"ruleset": rs, "listings": listings, "parses": parses, "K": K, "N": N}


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

#: The Simple model's printed predictions of trials 1–5 where it guesses at random: replayed, not drawn.
SIMPLE_PICKS = [None, "A3", "A4", "A3", "A2"]
#: The complex-placement model's printed random picks (trials 1–7): replayed, not drawn.
COMPLEX_PICKS = [None, None, "A4", "A2", "A3", None, None]


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
        p, how = sm.predict(s, pick=SIMPLE_PICKS[k] if k else None)
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
        pred = COMPLEX_PICKS[k] if dec is RANDOM else dec
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


#: App. J: the first four r-o-ps of implicit training as printed (program = seat 0).  Each: program's
#: 8 cards (hand + the replacement cards in order), opponent's 8, opener, the action script
#: (seat, action) and the discards.  The printed subvectors, deduced decisions and scores are claims
#: (``appJ-*`` in ``tdbook/claims/waterman1968.toml``).
APP_J = [
    {
        "prog": "H6 D6 H14 D9 D5 S6 D8 H10",
        "opp": "H4 D10 C10 C9 D14 D7 S11 D12",
        "opener": 0,
        "discard": {0: "H14 D9 D5", 1: "H4 C9 D14"},
        "actions": [(0, "bet 1"), (1, "call"), (0, "bet 1"), (1, "bet 2"), (0, "bet 11"), (1, "call")],
    },
    {
        "prog": "S4 D4 H13 H12 H11 S11 D8 C2",
        "opp": "S12 D3 S9 C7 D12 D7 S10 H9",
        "opener": 1,
        "discard": {1: "D3 S9 C7", 0: "H13 H12 H11"},
        "actions": [(1, "bet 7"), (0, "bet 13"), (1, "call"), (1, "bet 5"), (0, "call")],
    },
    {
        "prog": "D14 S13 S8 S5 H2 C8 C9 C11",
        "opp": "S14 H6 D5 D6 H4 D2 H8 C2",
        "opener": 0,
        "discard": {0: "S8 S5 H2", 1: "D5 H4"},
        "actions": [(0, "bet 6"), (1, "call"), (0, "bet 5"), (1, "call")],
    },
    {
        "prog": "S7 H7 C10 D9 S3 D10 D13 C12",
        "opp": "C3 H14 C6 C4 H3 C5 H10 S2",
        "opener": 1,
        "discard": {1: "C6 C4", 0: "C10 D9 S3"},
        "actions": [(1, "bet 2"), (0, "call"), (1, "bet 3"), (0, "call")],
    },
]

#: App. I Part III: the predicates set in the worked deduction.
APP_I_FACTS = {
    "higher(opphand,yourhand)",
    "notprevoppaction(bet high)",
    "onlycalled(opp)",
    "not-pot(large)",
    "bad(opphand)",
    "didbet(you)",
}


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
                last = Context(
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
                CLASS_NAMES[c]
                for c in deduced_classes(
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
            }
        )
    return out


def appendix_i() -> list[str]:
    """App. I Part III's worked deduction: the actions that maximize the score."""
    return deduce(APP_I_FACTS)[0]


#: App. G: the trainer rules whose messages trials 6–10 print.
APP_G_RULES = (9, 16, 17, 18, 28)


def trainer_messages() -> dict[int, str]:
    """The program trainer's training information for its rules of App. G, as it prints it."""
    b = built_in()
    return {k: trainer_advice(b, k - 1).message for k in APP_G_RULES}


# ============================================================================= App. C, E, F, H, K: the sample games

#: The program that plays each appendix's sample games (§5.2–5.4): the heuristics the document prints.
SAMPLE_PROGRAMS = {"C": "fig5-3", "E": "fig5-7", "F": "before-training", "H": "fig5-10", "K": "fig5-13"}
SAMPLE_TITLES = {
    "C": "built-in heuristics (Fig. 5-3)",
    "E": "manual-training heuristics (Fig. 5-7)",
    "F": "before-training heuristics (the random rule)",
    "H": "automatic-training heuristics (Fig. 5-10)",
    "K": "implicit-training heuristics (Fig. 5-13)",
}
LOST = "…"


@dataclass(frozen=True)
class SampleRop:
    """One printed r-o-p of a sample game: the human's hand, discards and new cards, how many cards the program
    replaced and the hand it showed, the actions in order (``LOST`` where our copy lost lines) and the program's
    printed score after it (None where lost)."""

    appendix: str
    series: int
    rop: int
    opener: str
    human_hand: tuple[str, ...]
    human_discard: tuple[str, ...] | None
    human_new: tuple[str, ...]
    program_replaces: int | None
    program_shows: tuple[str, ...] | None
    actions: tuple[tuple[str, str], ...]
    score: int | None


def sample_games() -> dict[str, list[SampleRop]]:
    """The transcribed sample games by appendix (series I then II, r-o-ps in order)."""
    header, rows = claims.text_table("waterman1968", "sample_games")

    def cells(x: str) -> tuple[str, ...] | None:
        return None if x == "-" else () if x == "none" else tuple(x.split())

    out: dict[str, list[SampleRop]] = {}
    for row in rows:
        r = dict(zip(header, row))
        acts = []
        for tok in r["actions"].split():
            if tok in ("/", LOST):
                acts.append(("", tok))
                continue
            who, a = tok.split(":")
            acts.append((who, a))
        out.setdefault(r["appendix"], []).append(
            SampleRop(
                r["appendix"],
                int(r["series"]),
                int(r["rop"]),
                r["opener"],
                cells(r["human_hand"]) or (),
                cells(r["human_discard"]),
                cells(r["human_new"]) or (),
                None if r["program_replaces"] == "-" else int(r["program_replaces"]),
                cells(r["program_shows"]),
                tuple(acts),
                None if r["score"] in ("-", "?") else int(r["score"]),
            )
        )
    return out


def sample_program(appendix: str) -> Any:
    """The rule program (a :class:`~tdbook.players.draw_poker.Player`) that played ``appendix``'s sample games."""
    fig = SAMPLE_PROGRAMS[appendix]
    if fig == "fig5-3":
        return poker_players.program_player(built_in())
    if fig == "before-training":
        return poker_players.program_player(random_program())
    rs = printed_heuristics(fig)
    return poker_players.program_player(rs, classes=rs.classes)  # type: ignore[attr-defined]


@dataclass
class Decision:
    """One printed bet decision of the program beside the decision its heuristics take in the replayed state."""

    where: str
    printed: str
    rule: int  # the action rule that fired (-1: the random rule)
    decided: str
    matched: bool | None  # None: the random rule decided (not compared)
    unseen: bool  # the program's hand holds cards our copy does not print (a placeholder is dealt)


@dataclass
class SampleReplay:
    """One appendix's sample games replayed: every program decision and every printed score compared."""

    appendix: str
    decisions: list[Decision] = field(default_factory=list)
    scores: list[tuple[str, int, int | None]] = field(default_factory=list)  # (where, printed change, ours)
    notes: list[str] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        d = [x for x in self.decisions if x.matched is not None]
        s = [x for x in self.scores if x[2] is not None]
        return {
            "decisions": len(d),
            "decisions matched": sum(x.matched for x in d),
            "random": sum(x.matched is None for x in self.decisions),
            "scores": len(s),
            "scores matched": sum(x[1] == x[2] for x in s),
        }

    def share(self) -> float:
        """Decisions and scores matched, as a share of those that can be compared."""
        c = self.counts()
        n = c["decisions"] + c["scores"]
        return (c["decisions matched"] + c["scores matched"]) / n if n else float("nan")

    def mismatches(self) -> list[list[str]]:
        rows = [[d.where, "decision", d.printed, d.decided + (" (unseen cards)" if d.unseen else "")]
                for d in self.decisions if d.matched is False]  # fmt: skip
        rows += [[w, "score change", f"{p:+d}", f"{o:+d}"] for w, p, o in self.scores if o is not None and o != p]
        return rows


def _agrees(cls: int, lap: int, kind: int, amount: int, pending: bool) -> bool:
    """Is the printed action one the decision class allows (a CALL rule with no bet pending bets 1, App. B I)?"""
    if cls == C_DROP:
        return kind == dp.DROP
    if cls == C_CALL:
        return kind == dp.CALL or (not pending and kind == dp.BET and amount == 1)
    if kind != dp.BET:
        return False
    if cls == C_LAP:
        return amount == max(1, min(20, lap))
    return int(CLASS_LO[cls]) <= amount <= int(CLASS_HI[cls])


def _action(text: str) -> tuple[int, int]:
    if text == "drop":
        return dp.DROP, 0
    if text == "call":
        return dp.CALL, 0
    if text.startswith("bet"):
        return dp.BET, int(text[3:])
    raise ValueError(f"unknown action {text!r} in the sample games")


def _fill(known: Sequence[int], n: int, avoid: set[int], hand: Sequence[int]) -> tuple[list[int], bool]:
    """``known`` reserve cards padded to ``n`` with placeholders that pair with nothing in ``hand`` (ranks and
    suits not in it, as far as the deck allows): (cards, whether a placeholder was needed)."""
    out = list(known)[:n]
    ranks = {c // 4 for c in hand} | {c // 4 for c in out}
    suits = [c % 4 for c in hand]
    rare = min(range(4), key=suits.count)
    for c in sorted(range(52), key=lambda c: (c % 4 != rare, c // 4)):
        if len(out) >= n:
            break
        if c not in avoid and c not in out and c // 4 not in ranks:
            out.append(c)
            ranks.add(c // 4)
    return out, len(known) < n


def _program_cards(rop: SampleRop, twin: SampleRop | None) -> tuple[list[int], list[int], bool, str]:
    """The program's 5 cards and 3 reserve cards: its hand is the human's in the other series' same r-o-p, its
    reserve the human's new cards there (App. C's note); where the other series does not print them, placeholders.
    Returns (hand, reserve, placeholders used, a note)."""
    if twin is None or not twin.human_hand:
        raise ValueError(f"App. {rop.appendix} series {rop.series} r-o-p {rop.rop}: the other series' hand is needed")
    hand = [int(c) for c in dp.cards(" ".join(twin.human_hand))]
    used = set(hand) | {int(c) for c in dp.cards(" ".join(rop.human_hand + rop.human_new))}
    known = [int(c) for c in dp.cards(" ".join(twin.human_new))] if twin.human_new else []
    note = ""
    if rop.program_shows is not None:  # the shown hand fixes what the program drew
        shown = [int(c) for c in dp.cards(" ".join(rop.program_shows))]
        drawn = [c for c in shown if c not in hand]
        if known and drawn and set(known[: len(drawn)]) != set(drawn):
            note = f"shown hand {' '.join(rop.program_shows)} draws other cards than the other series deals"
        known = drawn + [c for c in known if c not in drawn]
    reserve, unseen = _fill(known, 3, used | set(hand), hand)
    n = rop.program_replaces or 0
    return hand, reserve, unseen and n > len(known), note


def replay_sample(appendix: str, games: dict[str, list[SampleRop]] | None = None, corr_mode: int = 0) -> SampleReplay:
    """Replay ``appendix``'s sample games (both series) with the printed heuristics: cards, draws and the human's
    bets as printed, the long-term books carried from r-o-p to r-o-p (empty at each series' start: our copy does
    not say which game of the five-game series is printed); at each printed decision of the program, the decision
    its heuristics take in that state is compared with the printed one, and each r-o-p's score change with the
    printed one.  The program's discards follow the fixed draw policy unless the printed count differs (then the
    printed count, keeping its best cards).  Where our copy lost lines the r-o-p is replayed up to them."""
    games = games or sample_games()
    if appendix not in games:
        raise ValueError(f"no sample games of App. {appendix!r}; appendices: {sorted(games)}")
    rops = games[appendix]
    twin_of = {(r.series, r.rop): r for r in rops}
    player = sample_program(appendix)
    eq = poker_players.equity_inputs(player)
    out = SampleReplay(appendix)
    rng = make_state(0, 0)  # the random rule's draws: decisions it takes are not compared
    for series in (1, 2):
        book = np.zeros((2, dp.NBOOK), dtype=np.int64)
        previous: int | None = 0
        ours: int | None = 0  # our cumulative score while every r-o-p so far replayed whole
        for rop in [r for r in rops if r.series == series]:
            where = f"series {'I' if series == 1 else 'II'} r-o-p {rop.rop}"
            twin = twin_of.get((3 - series, rop.rop))
            hand, reserve, unseen, note = _program_cards(rop, twin)
            if note:
                out.notes.append(f"{where}: {note}")
            human = [int(c) for c in dp.cards(" ".join(rop.human_hand))]
            hnew, _ = _fill([int(c) for c in dp.cards(" ".join(rop.human_new))] if rop.human_new else [], 3,
                            set(hand) | set(reserve) | set(human), human)  # fmt: skip
            st = np.zeros(dp.NST, dtype=np.int64)
            dp.new_round(st, np.array(hand + reserve + human + hnew, dtype=np.int64), 0 if rop.opener == "P" else 1,
                         dp.DEFAULT_CAP)  # fmt: skip
            complete = True
            for who, a in rop.actions:
                if a == "/":
                    while st[dp.PHASE] == dp.REPLACE:
                        s = int(st[dp.TO_MOVE])
                        h = st[dp.HAND + 8 * s : dp.HAND + 8 * s + 5]
                        if s == 1:
                            mask = _mask(h, " ".join(rop.human_discard or ()))
                        else:
                            mask = int(dp.draw_mask(h))
                            n = rop.program_replaces
                            if n is not None and n != bin(mask).count("1"):
                                order = np.argsort([c // 4 for c in h], kind="stable")
                                mask = sum(1 << int(i) for i in order[:n])
                                out.notes.append(f"{where}: the program replaced {n} cards, our draw policy "
                                                 f"{bin(int(dp.draw_mask(h))).count('1')}")  # fmt: skip
                        dp.apply_replace(st, mask)
                    if rop.program_shows is not None:
                        shown = dp.cards(" ".join(rop.program_shows))
                        if sorted(st[dp.HAND : dp.HAND + 5].tolist()) != sorted(shown.tolist()):
                            out.notes.append(f"{where}: kept other cards than the draw policy keeps; the shown hand "
                                             "is used")  # fmt: skip
                            st[dp.HAND : dp.HAND + 5] = shown
                    continue
                if a == LOST:
                    complete = False
                    break
                kind, amount = _action(a)
                if who == "P":
                    if st[dp.TO_MOVE] != 0:
                        raise ValueError(f"App. {appendix} {where}: the program acts out of turn at {a!r}")
                    work = poker_players.Work(np.zeros(7, dtype=np.int64), np.zeros(7, dtype=np.int64), np.zeros(5),
                                np.zeros(max(1, player.syms.shape[0]), dtype=np.bool_))  # fmt: skip
                    _, _, cls, rule, rnd = poker_players.act(player.arrays, st, 0, book, dp.K_VALUES, rng, eq, work)
                    pending = bool(st[dp.LASTBET] > 0)
                    post = bool(st[dp.PHASE] == dp.BET2)
                    out.decisions.append(
                        Decision(
                            f"{where}, {'after' if post else 'before'} the draw",
                            a.replace("bet", "bet "),
                            int(rule),
                            CLASS_NAMES[int(cls)] + (f" {int(work.fv[4])}" if int(cls) == C_LAP else ""),
                            None if rnd else _agrees(int(cls), int(work.fv[4]), kind, amount, pending),
                            unseen and post,
                        )
                    )
                elif st[dp.TO_MOVE] != 1:
                    raise ValueError(f"App. {appendix} {where}: the human acts out of turn at {a!r}")
                err = dp.apply_action(st, kind, amount)
                if err:
                    raise ValueError(f"App. {appendix} {where}: {a!r} refused: {dp.ERRORS[err]}")
            if complete and st[dp.PHASE] == dp.DONE:
                dp.update_books(st, book, corr_mode, dp.K_VALUES)
                net = int(st[dp.NET])
                if previous is not None and rop.score is not None:
                    out.scores.append((where, rop.score - previous, net))
                elif ours is not None and rop.score is not None:  # the printed score before it is lost
                    out.scores.append((f"{where} (cumulative)", rop.score, ours + net))
                ours = None if ours is None else ours + net
            elif complete:
                raise ValueError(f"App. {appendix} {where}: the printed actions do not finish the r-o-p")
            else:
                ours = None
                out.notes.append(f"{where}: lines lost in our copy; replayed up to them, books not updated")
            previous = rop.score
    return out
