"""Where a training trial's information comes from, for Waterman's draw-poker learners (Waterman (1968)
§5.3–5.4, App. G, I, J): no play here, only the judgement of one decision.

- **The program trainer** (§5.3, App. G): the built-in program judges the trainee's move
  (:func:`acceptable`) and, when it rejects it, gives its training information derived from its
  own rule that fired (:func:`trainer_advice`).
- **The axiom set** (§5.4, App. I, Fig. 5-12): after an r-o-p that ends in a call, the predicates of
  App. I are set from one of the program's decisions and the shown hands (:func:`prime`), the
  decisions that maximize the score are deduced (:func:`deduced_classes`, with
  :mod:`tdbook.learners.draw_poker_axioms`), and the decision matrix supplies the reasons
  (:func:`matrix_reasons`).

The procedures that play games and run these trials are in
:mod:`tdbook.experiments.draw_poker.training`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..games.draw_poker import BET, CALL, DROP
from .draw_poker_axioms import deduce
from .draw_poker_heuristics import C_CALL, C_DROP, C_HIGH, C_LAP, C_LOW, CLASS_HI, CLASS_LO, CLASS_NAMES
from .production_rules import GT, LT
from .rule_learning import RuleSet

# ----------------------------------------------------------------------------- the program trainer

H_WORDS = {"H1": "EXCELLENT", "H2": "GOOD", "H3": "FAIR", "H4": "POOR"}
BUILTIN_TO_TRAINEE = {"SW": "H1", "EC": "H1", "GC": "H2", "PC": "H3", "NC": "H4"}


def _set_reason(sym, var: str) -> tuple:
    """A set-valued symbol of the trainer as a reason: (reason, message words)."""
    lo, hi = sym.lo, sym.hi
    if var == "R" and (lo, hi) == (0, 3):
        return ("set", lo, hi, "R ≠ -1"), "(NOT EQUAL TO -1.)"
    if var == "B" and (lo, hi) == (1, 4):
        return ("set", lo, hi, "0 < B < 5"), "(LESS THAN 5. AND NOT EQUAL TO 0.)"
    if lo == hi:
        return ("set", lo, hi, f"{var} = {lo}"), f"(EQUAL TO {lo}.)"
    vals = list(range(lo, hi + 1))
    return (
        ("set", lo, hi, " ∨ ".join(f"{var} = {x}" for x in vals)),
        "(EQUAL TO " + " OR ".join(f"{x}." for x in vals) + ")",
    )


@dataclass
class Advice:
    """Training information: the decision class, the reasons per variable index, and the message."""

    cls: int
    reasons: dict
    message: str


def trainer_advice(trainer: RuleSet, rule: int, cls: int | None = None) -> Advice:
    """The program trainer's training information (App. G), derived from its rule that fired: the
    relevant variables are that rule's non-``*`` positions; H is given as the trainee's category
    (SW/EC → H1 "EXCELLENT", GC → H2 "GOOD", PC → H3 "FAIR", NC → H4 "POOR"); a ``>`` symbol
    means "large", ``<`` "small", and a set (ORP, B9) is given as its predicate.  ``cls``
    overrides the decision (the inconsistent trainer of the manual-training proxy)."""
    R = trainer.rules[rule]
    cls = R.decision if cls is None else cls
    reasons, words = {}, []
    for p, sid in enumerate(R.left):
        if sid is None:
            continue
        s = trainer.symbols[sid]
        V = trainer.variables[p]
        if p == 0:
            cat = BUILTIN_TO_TRAINEE[s.name]
            reasons[p] = ("category", cat)
            words.append(f"THE HAND IS {H_WORDS[cat]}")
        elif s.kind == GT:
            reasons[p] = "large"
            words.append(f"THE {V.word} IS LARGE")
        elif s.kind == LT:
            reasons[p] = "small"
            words.append(f"THE {V.word} IS SMALL")
        else:
            reasons[p], w = _set_reason(s, V.name)
            words.append(f"THE {V.word} IS {w}")
    return Advice(int(cls), reasons, f"({CLASS_NAMES[cls]} BECAUSE {' '.join(words)})")


def acceptable(kind: int, amount: int, cls: int, lap: int) -> bool:
    """Does the move (kind, amount) carry out decision class ``cls``?  The trainer judges moves, as in
    App. G ("I BET 4. OK?" is accepted when its own rule says BET SB)."""
    if cls == C_DROP:
        return kind == DROP
    if cls == C_CALL:
        return kind == CALL
    if kind != BET:
        return False
    if cls == C_LAP:
        return amount == lap
    return bool(CLASS_LO[cls] <= amount <= CLASS_HI[cls])


# ----------------------------------------------------------------------------- the axiom set (implicit training)


#: Fig. 5-12, the decision matrix: per class, the reason of each overlapping variable (P, B, BFO, PB,
#: OCS) when the program's hand is good / not good; H is its current category, R its current value.
DECISION_MATRIX = {
    C_DROP: {"P": "large", "B": "large", "BFO": "small", "PB": "small", "OCS": "large"},
    C_CALL: {"P": "large", "B": "large", "BFO": "small", "PB": "large", "OCS": "large"},
    C_LOW: {"P": "small", "B": "small", "BFO": ("large", "small"), "PB": "large", "OCS": "large"},
    C_HIGH: {
        "P": "small",
        "B": ("large", "small"),
        "BFO": ("small", "large"),
        "PB": ("small", "large"),
        "OCS": ("small", "large"),
    },
}
ACTION_CLASS = {"drop": C_DROP, "call": C_CALL, "bet low": C_LOW, "bet high": C_HIGH}
GOOD_HAND = 10  # goodhand(x) ⇔ VDHAND ≥ 10 (a pair of 4s or better; notes, ambiguity 10)
POT_LARGE = 30  # pot(large) ⇔ POT ≥ K6
HIGH_BET = 10  # a high bet is 10–20 (App. I)


def matrix_reasons(program: RuleSet, vals: np.ndarray, cls: int) -> dict:
    """All seven variables with the decision matrix's reasons for ``cls`` (§5.4, Fig. 5-12)."""
    good = vals[0] >= GOOD_HAND
    row = DECISION_MATRIX[cls]
    cats = program.categories[0]
    cat = next(program.symbols[c].name for c in cats if program.symbols[c].lo <= vals[0] <= program.symbols[c].hi)
    out: dict = {0: ("category", cat), 5: ("set", int(vals[5]), int(vals[5]), f"R = {int(vals[5])}")}
    for name, idx in (("P", 1), ("B", 2), ("BFO", 3), ("PB", 4), ("OCS", 6)):
        r = row[name]
        out[idx] = r if isinstance(r, str) else r[0 if good else 1]
    return out


@dataclass
class Context:
    """What the deduction needs about one of the program's bet decisions."""

    vals: np.ndarray
    aux: np.ndarray
    cls: int  # the decision the rules asked for (DROP even when a CALL was played instead)
    random: bool
    post: bool
    opp_raises_before: int
    opp_max_before: int
    own_max_before: int
    opp_responded_raise: bool = False


def prime(ctx: Context, own_rank: int, opp_rank: int, opp_value: int, notprev: str = "opp") -> set[str]:
    """The predicates of App. I set from one decision and the shown hands (notes, ambiguity 10):
    good/bad hands at VDHAND 10, pot(large) at POT ≥ 30, lastbetopp(bet high) at LASTBET ≥ 10,
    didbet(opp) if a bet was pending or the opponent raised in response, onlycalled(opp) if he has
    not raised in this r-o-p, notprevoppaction(bet high) if he has not bet high in it (``notprev``
    "you": if *you* have not — App. I Part II's wording)."""
    you, pot, lastbet = int(ctx.aux[0]), int(ctx.vals[1]), int(ctx.vals[2])
    f = set()
    if own_rank > opp_rank:
        f.add("higher(yourhand,opphand)")
    if opp_rank > own_rank:
        f.add("higher(opphand,yourhand)")
    if you >= GOOD_HAND:
        f.add("goodhand(you)")
    if opp_value >= GOOD_HAND:
        f |= {"goodhand(opp)", "good(opphand)"}
    else:
        f.add("bad(opphand)")
    if lastbet > 0 or ctx.opp_responded_raise:
        f.add("didbet(opp)")
    if ctx.opp_raises_before == 0:
        f.add("onlycalled(opp)")
    f.add("pot(large)" if pot >= POT_LARGE else "not-pot(large)")
    if lastbet >= HIGH_BET:
        f.add("lastbetopp(bet high)")
    prev = ctx.opp_max_before if notprev == "opp" else ctx.own_max_before
    if prev < HIGH_BET:
        f.add("notprevoppaction(bet high)")
    return f


def deduced_classes(ctx: Context, own_rank: int, opp_rank: int, opp_value: int, notprev: str = "opp") -> list[int]:
    """The decision classes that maximize the score (App. I); nothing deducible → CALL (BET LOW when
    no bet is pending, since a call is not allowed then)."""
    acts, _ = deduce(
        prime(ctx, own_rank, opp_rank, opp_value, notprev), default=("call",) if ctx.vals[2] > 0 else ("bet low",)
    )
    return [ACTION_CLASS[a] for a in acts]
