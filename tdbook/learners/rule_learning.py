"""How a program learns its production rules: the training procedures of Waterman (1968) §3.2–3.3.

:meth:`RuleSet.train` is the training procedure outline of §3.2 (steps 1–7: training rule, bf rules
from item (3), drop again, error-causing rule, target rule *above* that can **catch** by symbol
replacement within ``K``, else a target *below* with the error-causing and in-between rules
modified to **pass**, else insert the training rule just above the error-causing rule); with
``hypothesized=True`` it is the *revised* procedure of §3.3 (all variables relevant; step 5 also
relaxes an hypothesized rule with the advocated decision by making the minimum number of variables
irrelevant, keeping at least ``N``).  Definitions: exclusive variables shift partition boundaries
so the value falls in the named category; overlapping variables turn "large"/"small" at value v
into ``X > v−1`` / ``X < v+1``, reusing an identical symbol, or one that already contains v within
``reuse`` (default ``K``), or enlarging one by at most ``KK``; predicate reasons ("ORP IS (EQUAL TO
−1)") give a symbol with exactly that set.  :meth:`RuleSet.remove_redundancies` removes
subordinate and superordinate redundant rules and the bf rules left unreferenced (§3.3).

The rule language itself (symbols, rules, Steps A and B, listings) is
:class:`tdbook.learners.production_rules.ProductionRules`; a :class:`RuleSet` is one that learns.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .production_rules import CAT, GT, INF, LT, RANDOM, SET, ProductionRules, Rule, Symbol, Variable


@dataclass
class LearnParams:
    """The learning constants Waterman (1968) leaves to the programmer.

    ``K``: maximum definition change when an action rule is modified to catch or pass (§3.2);
    ``KK``: maximum enlargement of an existing overlapping subset (§3.2); ``N``: minimum number of
    relevant variables an hypothesized rule keeps (§3.3); ``reuse``: an existing same-direction
    symbol that already contains the value is reused when its threshold is within ``reuse`` of
    the new one (None = ``K``; the Ch. 4 walkthrough, which is *given* its definitions, uses
    ``INF``); ``catch``: "replace" the non-matching symbol by the training rule's (§3.2) or
    "redefine" it (Ch. 4 complex placement); ``search``: which rule above the error-causing one
    is tried first, "top" (scan from the top, as Step B does) or "nearest"; ``keep_exclusive``:
    relevance changes never make the exclusive variable irrelevant (every rule of Fig. 5-13 keeps H;
    False lets any variable go).
    """

    K: int = 3
    KK: int = 0
    N: int = 1
    reuse: int | None = None
    catch: str = "replace"
    search: str = "top"
    keep_exclusive: bool = True

    def __post_init__(self) -> None:
        for name in ("K", "KK", "N"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 0:
                raise ValueError(f"{name} must be an int >= 0, got {v!r}")
        if self.N < 1:
            raise ValueError(f"N (minimum relevant variables) must be >= 1, got {self.N!r}")
        if self.reuse is not None and (isinstance(self.reuse, bool) or self.reuse < 0):
            raise ValueError(f"reuse must be None or an int >= 0, got {self.reuse!r}")
        if self.catch not in ("replace", "redefine"):
            raise ValueError(f"catch must be 'replace' or 'redefine', got {self.catch!r}")
        if self.search not in ("top", "nearest"):
            raise ValueError(f"search must be 'top' or 'nearest', got {self.search!r}")

    @property
    def reuse_within(self) -> int:
        return self.K if self.reuse is None else self.reuse


@dataclass
class TrialReport:
    """What one training trial did (for transcripts, counts and tests)."""

    decision: Hashable = None
    training_rule: str = ""
    created: list = field(default_factory=list)  # symbols created
    changed: list = field(default_factory=list)  # symbols whose definition changed
    steps: list = field(default_factory=list)  # human-readable log
    inserted: bool = False
    modified: int = 0  # rules modified (catch / pass / relevance)

    def log(self, msg: str) -> None:
        self.steps.append(msg)


# reasons: "large", "small", ("category", name), ("set", lo, hi, label)
Reason = Any


def _reason_kind(reason: Reason) -> str:
    if reason in ("large", "small"):
        return reason
    if isinstance(reason, tuple) and reason and reason[0] in ("category", "set"):
        return reason[0]
    raise ValueError(f"a reason is 'large', 'small', ('category', name) or ('set', lo, hi, label); got {reason!r}")


# ----------------------------------------------------------------------------- rule sets that learn


class RuleSet(ProductionRules):
    """An ordered list of ac rules over ``variables`` with its bf rules (symbols), and the learning
    procedures of §3.2–3.3 with the constants ``params``.  See the module docstring."""

    def __init__(
        self, variables: Sequence[Variable], params: LearnParams | None = None, decision_names: dict | None = None
    ) -> None:
        super().__init__(variables, decision_names)
        self.params = params or LearnParams()

    # ------------------------------------------------------------------ learning definitions (§3.2)

    def _thr(self, s: Symbol) -> int:
        return s.lo if s.kind == GT else s.hi

    def check_reason(self, var: str | int, reason: Reason) -> str:
        """The kind of ``reason`` for variable ``var``; ValueError if it cannot apply (changes nothing)."""
        v = self.var_index(var)
        V = self.variables[v]
        kind = _reason_kind(reason)
        if V.exclusive:
            if kind != "category" or len(reason) != 2:
                raise ValueError(
                    f"{V.name} is an exclusive variable: the reason must name its category, got {reason!r}"
                )
            names = [self.symbols[i].name for i in self.categories[v]]
            if reason[1] not in names:
                raise ValueError(f"{reason[1]!r} is not a category of {V.name}; categories are {names}")
        elif kind == "category":
            raise ValueError(f"{V.name} is an overlapping variable: say 'large' or 'small', got {reason!r}")
        elif kind == "set" and len(reason) != 4:
            raise ValueError(f"a set reason is ('set', lo, hi, label), got {reason!r}")
        return kind

    def learn_definition(self, var: str | int, value: int, reason: Reason, rep: TrialReport | None = None) -> int:
        """Create or change bf rules from item (3) of the training information; returns the symbol id."""
        v = self.var_index(var)
        V = self.variables[v]
        value = int(value)
        kind = self.check_reason(v, reason)
        rep = rep if rep is not None else TrialReport()
        if V.exclusive:
            names = [self.symbols[i].name for i in self.categories[v]]
            k = names.index(reason[1])
            cuts = self.cuts[v]
            before = list(cuts)
            if k > 0 and value < cuts[k - 1]:
                for j in range(k):
                    cuts[j] = min(cuts[j], value)
            if k < len(cuts) and value >= cuts[k]:
                for j in range(k, len(cuts)):
                    cuts[j] = max(cuts[j], value + 1)
            if cuts != before:
                self._sync_partition(v)
                rep.changed.append(f"{V.name} boundaries {before} → {list(cuts)}")
            return self.categories[v][k]
        if kind == "set":
            _, lo, hi, label = reason
            for i, s in enumerate(self.symbols):
                if s is not None and s.var == v and s.kind == SET and s.lo == lo and s.hi == hi:
                    return i
            sid = self.add_symbol(v, SET, lo, hi, op="set", label=label)
            rep.created.append(self.format_symbol(sid))
            return sid
        large = kind == "large"
        sk = GT if large else LT
        lo, hi = (value, V.hi) if large else (V.lo, value)
        thr = lo if large else hi
        same = [(i, s) for i, s in enumerate(self.symbols) if s is not None and s.var == v and s.kind == sk]
        for i, s in same:
            if self._thr(s) == thr:
                return i
        containing = [
            (abs(self._thr(s) - thr), i)
            for i, s in same
            if s.lo <= value <= s.hi and abs(self._thr(s) - thr) <= self.params.reuse_within
        ]
        if containing:
            return min(containing)[1]
        enlarge = [
            (abs(self._thr(s) - thr), i)
            for i, s in same
            if not (s.lo <= value <= s.hi) and abs(self._thr(s) - thr) <= self.params.KK
        ]
        if enlarge:
            i = min(enlarge)[1]
            old = self.format_symbol(i)
            s = self.symbols[i]
            if large:
                s.lo = thr
            else:
                s.hi = thr
            self._arrays = None
            rep.changed.append(f"{old} enlarged to {self.predicate(i)}")
            return i
        sid = self.add_symbol(v, sk, lo, hi)
        rep.created.append(self.format_symbol(sid))
        return sid

    # ------------------------------------------------------------------ modifying action rules (§3.2)

    def _same_op(self, a: int, b: int) -> bool:
        sa, sb = self.symbols[a], self.symbols[b]
        if sa.kind == CAT or sb.kind == CAT:
            return a == b
        return sa.kind == sb.kind

    def same_form(self, rule: Rule, training: Rule) -> bool:
        """§3.2: identical right parts; every ``*`` of the training rule is ``*`` in the rule; other
        symbols identical or defined with the same relational operator (``*`` matches anything)."""
        if rule.decision != training.decision or rule.decision is RANDOM:
            return False
        for r, t in zip(rule.left, training.left):
            if t is None and r is not None:
                return False
            if t is not None and r is not None and not self._same_op(r, t):
                return False
        return True

    def change(self, a: int, b: int) -> int:
        """Definition change between symbols ``a`` and ``b`` (threshold difference; INF if not comparable)."""
        sa, sb = self.symbols[a], self.symbols[b]
        if a == b:
            return 0
        if sa.kind != sb.kind or sa.kind == CAT or sa.var != sb.var:
            return INF
        if sa.kind == SET:
            return max(abs(sa.lo - sb.lo), abs(sa.hi - sb.hi))
        return abs(self._thr(sa) - self._thr(sb))

    def _enlarges(self, new: int, old: int) -> bool:
        """A catch modification *enlarges* a set (§3.2): the new symbol's set includes the old one's."""
        a, b = self.symbols[new], self.symbols[old]
        return a.lo <= b.lo and b.hi <= a.hi and a.lo2 <= b.lo2 and b.hi2 <= a.hi2

    def _replaceable(self, s: int, t: int) -> bool:
        return self._same_op(s, t) and self.change(s, t) <= self.params.K and self._enlarges(t, s)

    def _catch_plan(self, rule: Rule, training: Rule, ids: set[int]) -> list | None:
        """Replacements ``[(position, new symbol)]`` that make ``rule`` catch by enlarging its sets, each
        change within K; None if impossible."""
        plan = []
        for p, s in enumerate(rule.left):
            if s is None or s in ids:
                continue
            t = training.left[p]
            if t is None or not self._replaceable(s, t):
                return None
            plan.append((p, t))
        return plan

    def _apply_catch(self, rule: Rule, plan: list, rep: TrialReport) -> None:
        for p, t in plan:
            s = rule.left[p]
            if self.params.catch == "replace":
                rule.left[p] = t
                rep.log(f"replace {self.symbols[s].name} by {self.symbols[t].name}")
            else:
                old = self.format_symbol(s)
                S, T = self.symbols[s], self.symbols[t]
                S.lo, S.hi, S.lo2, S.hi2 = T.lo, T.hi, T.lo2, T.hi2
                rep.changed.append(f"{old} redefined to {self.predicate(s)}")
                rep.log(f"redefine {S.name}: {self.predicate(s)}")
        self._arrays = None
        rep.modified += 1

    def _pass_plan(self, rule: Rule, values: np.ndarray, forbidden: set[int]) -> tuple[int, int, int] | None:
        """Restrict one symbol of ``rule`` so the current value drops out, change ≤ K; (sid, lo, hi)."""
        best = None
        for s in rule.left:
            if s is None or s in forbidden:
                continue
            S = self.symbols[s]
            x = int(values[S.var])
            if S.kind == GT:
                lo, hi, ch = x + 1, S.hi, x + 1 - S.lo
            elif S.kind == LT:
                lo, hi, ch = S.lo, x - 1, S.hi - (x - 1)
            elif S.kind == SET and S.lo < S.hi and x in (S.lo, S.hi):
                lo, hi, ch = (x + 1, S.hi, 1) if x == S.lo else (S.lo, x - 1, 1)
            else:
                continue
            if lo > hi or ch > self.params.K:
                continue
            if best is None or ch < best[3]:
                best = (s, lo, hi, ch)
        return None if best is None else best[:3]

    def _apply_pass(self, plan: tuple[int, int, int], rep: TrialReport) -> None:
        s, lo, hi = plan
        old = self.format_symbol(s)
        S = self.symbols[s]
        S.lo, S.hi = lo, hi
        self._arrays = None
        rep.changed.append(f"{old} restricted to {self.predicate(s)}")
        rep.log(f"restrict {S.name} to {self.predicate(s)}")
        rep.modified += 1

    def _catches(self, rule: Rule, ids: set[int]) -> bool:
        return all(s is None or s in ids for s in rule.left)

    def _relax_plan(self, rule: Rule, training: Rule, ids: set[int]) -> tuple[list, list] | None:
        """Revised step 5: replacements within K, else make the variable irrelevant; ≥ N stay relevant."""
        repl, drops = [], []
        for p, s in enumerate(rule.left):
            if s is None or s in ids:
                continue
            t = training.left[p]
            if t is not None and self._replaceable(s, t):
                repl.append((p, t))
            elif self.params.keep_exclusive and self.variables[p].exclusive:
                return None
            else:
                drops.append(p)
        relevant = sum(s is not None for s in rule.left) - len(drops)
        if relevant < self.params.N:
            return None
        return repl, drops

    def _apply_relax(self, rule: Rule, plan: tuple[list, list], rep: TrialReport) -> None:
        repl, drops = plan
        for p, t in repl:
            rep.log(f"replace {self.symbols[rule.left[p]].name} by {self.symbols[t].name}")
            rule.left[p] = t
        dropped = []
        for p in drops:
            dropped.append(rule.left[p])
            rep.log(f"make {self.variables[p].name} irrelevant")
            rule.left[p] = None
        if sum(s is not None for s in rule.left) <= self.params.N:
            rule.hyp = False
        for s in dropped:  # a bf rule left unreferenced by a relevance change is removed (§3.3 example)
            if s is not None and not self._referenced(s) and self.symbols[s].kind != CAT:
                self.symbols[s] = None
        self._arrays = None
        rep.modified += 1

    def _referenced(self, sid: int) -> bool:
        return any(sid in r.left for r in self.rules)

    def _order_above(self, err: int) -> Iterable[int]:
        return range(err) if self.params.search == "top" else range(err - 1, -1, -1)

    def train(
        self,
        values: Sequence[int],
        decision: Hashable,
        reasons: dict,
        aux: Sequence[int] | None = None,
        hypothesized: bool = False,
    ) -> TrialReport:
        """One training trial (§3.2 outline; revised procedure of §3.3 when ``hypothesized``).

        ``reasons`` maps relevant variables (names or indices) to their reason: "large"/"small" for
        overlapping variables, ``("category", name)`` for exclusive ones, ``("set", lo, hi, label)``
        for an exact predicate.  The caller has already found the program's decision unacceptable.
        """
        vals, a = self._vals(values, aux)
        if decision is RANDOM:
            raise ValueError("the advocated decision cannot be 'random'")
        reasons = {self.var_index(k): r for k, r in reasons.items()}
        if not reasons:
            raise ValueError("training needs at least one relevant variable")
        if hypothesized and len(reasons) != self.nv:
            raise ValueError("hypothesis formation starts with every variable relevant")
        for v, r in reasons.items():  # validate every reason before anything changes
            self.check_reason(v, r)
        rep = TrialReport(decision=decision)
        left: list = [None] * self.nv
        for v in sorted(reasons):
            left[v] = self.learn_definition(v, int(vals[v]), reasons[v], rep)
        training = Rule(left, decision, hyp=hypothesized and sum(s is not None for s in left) > self.params.N)
        rep.training_rule = self.format_rule(training)
        forbidden_base = {s for s in left if s is not None}
        limit = 4 * len(self.rules) + 10
        err = -1
        for _ in range(limit):
            ids = self.matched(vals, a)
            err = self.fire(vals, a)
            if self.rules[err].decision == decision:
                rep.log(f"rule {err + 1} now gives the advocated decision")
                return rep
            # step 5: a target above the error-causing rule
            if self._modify_above(
                err,
                lambda R: not (hypothesized and R.hyp) and self.same_form(R, training),
                lambda R: self._catch_plan(R, training, ids),  # noqa: B023 - called in this iteration
                self._apply_catch,
                "modify to catch",
                rep,
            ):
                continue
            if hypothesized and self._modify_above(
                err,
                lambda R: R.hyp and R.decision == decision,
                lambda R: self._relax_plan(R, training, ids),  # noqa: B023 - called in this iteration
                self._apply_relax,
                "relax hypothesized",
                rep,
            ):
                continue
            # step 6: a target below, the error-causing and in-between rules modified to pass
            if self._try_below(err, training, vals, a, ids, forbidden_base, hypothesized, rep):
                continue
            # step 7
            rep.log(f"step 7: insert {self.format_rule(training)} above error-causing rule {err + 1}")
            self.rules.insert(err, training)
            self._arrays = None
            rep.inserted = True
            return rep
        self.rules.insert(max(err, 0), training)
        self._arrays = None
        rep.inserted = True
        rep.log("step 7 (iteration limit): insert the training rule")
        return rep

    def _modify_above(self, err: int, select: Any, plan: Any, apply: Any, what: str, rep: TrialReport) -> bool:
        """Steps 5a / 5b: the first selected rule above ``err`` with a feasible plan is modified."""
        for i in self._order_above(err):
            R = self.rules[i]
            if not select(R):
                continue
            p = plan(R)
            if p is not None:
                rep.log(f"step 5: {what} rule {i + 1} (above error-causing rule {err + 1})")
                apply(R, p, rep)
                return True
        return False

    def _try_below(
        self,
        err: int,
        training: Rule,
        vals: np.ndarray,
        a: np.ndarray,
        ids: set[int],
        forbidden_base: set[int],
        hypothesized: bool,
        rep: TrialReport,
    ) -> bool:
        for j in range(err + 1, len(self.rules)):
            R = self.rules[j]
            if (hypothesized and R.hyp) or not self.same_form(R, training):
                continue
            plan = self._catch_plan(R, training, ids)
            if plan is None:
                continue
            trial = self.copy()
            sub = TrialReport()
            trial._apply_catch(trial.rules[j], plan, sub)
            forbidden = forbidden_base | {s for s in trial.rules[j].left if s is not None}
            for i in range(err, j):
                now = trial.matched(vals, a)
                if not trial._catches(trial.rules[i], now):
                    continue
                pp = trial._pass_plan(trial.rules[i], vals, forbidden)
                if pp is None:
                    return False
                trial._apply_pass(pp, sub)
            rep.log(f"step 6: rule {j + 1} (below error-causing rule {err + 1}) catches, rules {err + 1}..{j} pass")
            self.__dict__.update(trial.__dict__)
            rep.changed += sub.changed
            rep.steps += sub.steps
            rep.modified += sub.modified
            return True
        return False

    # ------------------------------------------------------------------ redundancy (§3.3)

    def _interval(self, sid: int | None, var: int) -> tuple[int, int, int, int]:
        V = self.variables[var]
        if sid is None:
            return V.lo, V.hi, -INF, INF
        s = self.symbols[sid]
        return max(s.lo, V.lo), min(s.hi, V.hi), s.lo2, s.hi2

    def covers(self, big: Rule, small: Rule) -> bool:
        """Every set of ``big``'s left part includes the corresponding set of ``small``'s."""
        for p in range(self.nv):
            a = self._interval(big.left[p], p)
            b = self._interval(small.left[p], p)
            if b[0] > b[1]:
                return True  # small can never match
            if not (a[0] <= b[0] and b[1] <= a[1] and a[2] <= b[2] and b[3] <= a[3]):
                return False
        return True

    def remove_redundancies(self) -> list[str]:
        """Remove subordinate and superordinate redundant rules, then unreferenced bf rules; returns
        what was removed."""
        removed = []
        changed = True
        while changed:
            changed = False
            n = len(self.rules)
            for i in range(n):
                for j in range(i + 1, n):
                    ri, rj = self.rules[i], self.rules[j]
                    if rj.decision is not RANDOM and self.covers(ri, rj):
                        removed.append(f"subordinate: {self.format_rule(rj)} (under {self.format_rule(ri)})")
                        del self.rules[j]
                        changed = True
                        break
                    if (
                        ri.decision is not RANDOM
                        and all(self.rules[k].decision == ri.decision for k in range(i, j + 1))
                        and self.covers(rj, ri)
                    ):
                        removed.append(f"superordinate: {self.format_rule(ri)} (over {self.format_rule(rj)})")
                        del self.rules[i]
                        changed = True
                        break
                if changed:
                    break
        self._arrays = None
        self.remove_unreferenced()
        return removed

    def remove_unreferenced(self) -> list[str]:
        """Delete bf rules no action rule uses (exclusive categories stay: they partition the range)."""
        out = []
        for i, s in enumerate(self.symbols):
            if s is not None and s.kind != CAT and not self._referenced(i):
                out.append(s.name)
                self.symbols[i] = None
        self._arrays = None
        return out
