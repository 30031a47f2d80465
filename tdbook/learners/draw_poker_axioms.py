"""The axiom set of Waterman (1968) App. I and the deduction that implicit training uses (§3.3, §5.4).

:class:`HornTheory` is a small propositional forward-chaining prover (ground Horn clauses,
``prob(p)`` read as ``p``); :data:`POKER_THEORY` holds App. I's poker rules, poker axioms and general
axioms grounded for ``maximize(yourscore)``; :func:`deduce` returns the actions that satisfy the
first satisfiable disjunct of general axiom 2.  How a played decision primes these predicates, and
the decision matrix (Fig. 5-12), are in :mod:`tdbook.learners.draw_poker_trainers`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence


class HornTheory:
    """Ground propositional Horn clauses ``body ⊃ head`` (``body`` a conjunction of atoms).

    A disjunctive body becomes several clauses; a conjunctive head several clauses; ``prob(p)`` is
    written as ``p`` (App. I reads probable consequences as consequences).  ``not-...`` atoms are
    ordinary atoms that the priming step sets.
    """

    def __init__(self, clauses: Iterable[tuple[str, Sequence[str]]]) -> None:
        self.clauses = [(h, tuple(b)) for h, b in clauses]
        self._uses: dict[str, list[int]] = {}
        for k, (_, body) in enumerate(self.clauses):
            for b in set(body):
                self._uses.setdefault(b, []).append(k)

    def closure(self, facts: Iterable[str]) -> set[str]:
        """Every atom derivable from ``facts`` (forward chaining, each clause counted down once)."""
        known: set[str] = set()
        missing = [len(set(b)) for _, b in self.clauses]
        todo = list(set(facts))
        for h, b in self.clauses:
            if not b:
                todo.append(h)
        while todo:
            a = todo.pop()
            if a in known:
                continue
            known.add(a)
            for k in self._uses.get(a, ()):
                missing[k] -= 1
                if missing[k] == 0:
                    todo.append(self.clauses[k][0])
        return known


def _poker_clauses() -> list[tuple[str, list[str]]]:
    you_win, opp_wins = "higher(yourhand,opphand)", "higher(opphand,yourhand)"
    add, sub = "add(pot,yourscore)", "sub(pot,yourscore)"
    bets = ("bet low", "bet high")
    cl: list[tuple[str, list[str]]] = [
        # poker rules 1-10 (rule 4 reads sub: Part II "the pot is subtracted from your score")
        (add, ["action(call)", you_win]),
        (add, ["oppaction(call)", you_win]),
        (sub, ["action(call)", opp_wins]),
        (sub, ["oppaction(call)", opp_wins]),
        (sub, ["action(drop)"]),
        (add, ["oppaction(drop)"]),
    ]
    cl += [("add(lastbet,pot)", [f"action({b})"]) for b in bets]
    cl += [("add(lastbet,pot)", [f"oppaction({b})"]) for b in bets]
    cl += [
        # poker axioms 1-15
        ("keepsmall(pot)", ["action(drop)", "not-pot(large)"]),  # 1 (only while the pot is not large)
        ("unsureofhand(you)", ["action(call)"]),  # 2
        ("unsureofhand(opp)", ["onlycalled(opp)"]),  # 3
        ("keepsbetting(you)", ["action(bet low)"]),
        ("keepsbetting(you)", ["action(bet high)"]),  # 4
        ("keepsbetting(opp)", ["oppaction(bet low)"]),
        ("keepsbetting(opp)", ["oppaction(bet high)"]),  # 5
        ("buildup(pot)", ["keepsbetting(opp)", "keepsbetting(you)"]),  # 6
        ("bluffed(opp)", ["action(bet high)", opp_wins]),  # 7
        ("surehandwillwin(you)", ["goodhand(you)", "didbet(you)"]),  # 8
        ("surehandwillwin(opp)", ["goodhand(opp)", "didbet(opp)"]),
        ("makelargeenough(pot)", ["unsureofhand(you)", "seemsureofhand(opp)"]),  # 9
        ("seemsureofhand(opp)", ["pot(large)"]),
        ("seemsureofhand(opp)", ["lastbetopp(bet high)"]),  # 10
    ]
    cl += [("eventually(add(pot,yourscore))", [f"action({a})", you_win]) for a in ("call",) + bets]  # 11
    cl += [("oppaction(drop)", ["bad(opphand)", "bluffed(opp)", "notprevoppaction(bet high)"])]  # 12
    for b in bets:  # 13
        cl += [
            ("oppaction(bet low)", [f"action({b})", "surehandwillwin(opp)"]),
            ("oppaction(bet high)", [f"action({b})", "surehandwillwin(opp)"]),
        ]
    cl += [
        ("oppaction(bet low)", ["action(bet low)", "good(opphand)", "unsureofhand(opp)"]),  # 14
        ("oppaction(call)", ["action(bet low)", "good(opphand)", "unsureofhand(opp)"]),
        ("oppaction(bet low)", ["action(bet low)", "bad(opphand)"]),  # 15
        ("oppaction(call)", ["action(bet low)", "bad(opphand)"]),
    ]
    cl += [("eventually(add(pot,yourscore))", [add])]  # general axiom 1 for the atom we need
    # general axiom 2 with x = pot, z = yourscore, split in its three disjuncts a, b, c
    cl += [
        ("disjunct-a", ["buildup(pot)", "eventually(add(pot,yourscore))"]),
        ("disjunct-a", ["makelargeenough(pot)", "eventually(add(pot,yourscore))"]),
        ("disjunct-b", [add]),
        ("disjunct-c", ["keepsmall(pot)", sub]),
    ]
    return cl


#: App. I: poker rules 1–10, poker axioms 1–15 and the general axioms, grounded for maximize(yourscore).
POKER_THEORY = HornTheory(_poker_clauses())
POKER_ACTIONS = ("drop", "call", "bet low", "bet high")


def deduce(
    facts: Iterable[str],
    actions: Sequence[str] = POKER_ACTIONS,
    theory: HornTheory = POKER_THEORY,
    default: Sequence[str] = ("call",),
) -> tuple[list[str], str]:
    """The actions that make ``maximize(yourscore)`` true (App. I, §5.4): general axiom 2's disjuncts
    a, b, c are tried in order and the answer is every action satisfying the first satisfiable one.
    Returns ``(actions, disjunct)``; ``(default, "none")`` if no disjunct can be made true."""
    facts = set(facts)
    known = {act: theory.closure(facts | {f"action({act})"}) for act in actions}
    for d in ("a", "b", "c"):
        ok = [act for act in actions if f"disjunct-{d}" in known[act]]
        if ok:
            return ok, d
    return list(default), "none"
