"""Heuristics as production rules, and how a program learns them (seed 003, Waterman 1968, ch. 2–4).

Representation (§2.2):

- **ac rules** ``S → S'``: an ordered list; the left part has one symbolic value per subvector
  variable or ``*`` (any value); the right part is a *decision* (a label here).
- **bf rules** ``Z → V, predicate``: symbol ``Z`` is the set of values of variable ``V`` that
  satisfy the predicate.  Every predicate we need is an integer interval, so a :class:`Symbol`
  stores ``[lo, hi]`` (plus an optional second interval on an auxiliary value, used only by the
  built-in poker categories SW/EC that test both H − OH and H).
- **ff rules** are plain functions of the state vector (computed by the game, not learned).

Decision procedure: **Step A** ("parse") maps each raw value to the *set* of symbols whose
predicates it satisfies (:func:`parse_mask`); **Step B** ("drop through") scans the ac rules
top to bottom and fires the first whose every non-``*`` symbol is in the parse
(:func:`drop_through`).  Both are jitted on plain arrays (:meth:`RuleSet.arrays`), so the same
code serves the worked examples, the trainees and the poker players.

Learning (§3.2, §3.3): :meth:`RuleSet.train` is the training procedure outline of §3.2
(steps 1–7: training rule, bf rules from item (3), drop again, error-causing rule, target rule
*above* that can **catch** by symbol replacement within ``K``, else a target *below* with the
error-causing and in-between rules modified to **pass**, else insert the training rule just
above the error-causing rule); with ``hypothesized=True`` it is the *revised* procedure of §3.3
(all variables relevant; step 5 also relaxes an hypothesized rule with the advocated decision by
making the minimum number of variables irrelevant, keeping at least ``N``).  Definitions:
exclusive variables shift partition boundaries so the value falls in the named category;
overlapping variables turn "large"/"small" at value v into ``X > v−1`` / ``X < v+1``, reusing an
identical symbol, or one that already contains v within ``reuse`` (default ``K``), or enlarging
one by at most ``KK``; predicate reasons ("ORP IS (EQUAL TO −1)") give a symbol with exactly
that set.  :meth:`RuleSet.remove_redundancies` removes subordinate and superordinate redundant
rules and the bf rules left unreferenced (§3.3).

Implicit training (§3.3, §5.4, App. I) needs a correct decision deduced from axioms:
:class:`HornTheory` is a small propositional backward-chaining prover (ground Horn clauses,
``prob(p)`` read as ``p``) and :data:`POKER_THEORY` holds App. I's poker rules, poker axioms and
general axioms; :func:`deduce` returns the actions that satisfy the first satisfiable disjunct
of general axiom 2.  The decision matrix (Fig. 5-12) lives with the poker players.

Ch. 4 reinterprets all this as S-R models: :class:`SimpleModel`, :class:`StimulusGeneralization`,
:class:`InductionModel` (Hunt-style tree with App. A's ``ae = bc − av − sv``) and the
complex-placement model (a :class:`RuleSet` with given overlapping definitions and
``catch="redefine"``).
"""

from __future__ import annotations

import copy
import math
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np
from numba import njit

INF = 1 << 40  # "unbounded" for integer intervals
GT, LT, CAT, SET = 0, 1, 2, 3  # symbol kinds: X > t ("large"), X < t ("small"), exclusive category, fixed set


class _Random:
    """The decision of the rule ``(*, …, *) → (random)``."""

    def __repr__(self) -> str:
        return "(random)"

    def __reduce__(self) -> str:
        return "RANDOM"


RANDOM = _Random()
RANDOM_CODE = -1


# ----------------------------------------------------------------------------- jitted Steps A and B


@njit(cache=True)
def parse_mask(syms: np.ndarray, nsym: int, vals: np.ndarray, aux: np.ndarray, mask: np.ndarray) -> None:
    """Step A: ``mask[i]`` = value of symbol i's variable lies in its interval (and aux in its second)."""
    for i in range(nsym):
        v = syms[i, 0]
        x = vals[v]
        a = aux[v]
        mask[i] = syms[i, 1] <= x and x <= syms[i, 2] and syms[i, 3] <= a and a <= syms[i, 4]


@njit(cache=True)
def drop_through(rules: np.ndarray, nrules: int, mask: np.ndarray) -> int:
    """Step B: index of the first rule whose every non-``*`` (≥ 0) symbol is in the parse; -1 if none."""
    nv = rules.shape[1] - 1
    for r in range(nrules):
        ok = True
        for p in range(nv):
            s = rules[r, p]
            if s >= 0 and not mask[s]:
                ok = False
                break
        if ok:
            return r
    return -1


@njit(cache=True)
def decide_rule(
    syms: np.ndarray, nsym: int, rules: np.ndarray, nrules: int, vals: np.ndarray, aux: np.ndarray, mask: np.ndarray
) -> int:
    """Steps A and B: the index of the rule that fires for the subvector ``vals``."""
    parse_mask(syms, nsym, vals, aux, mask)
    return drop_through(rules, nrules, mask)


# ----------------------------------------------------------------------------- data


@dataclass
class Variable:
    """A subvector variable: its name, exclusive or overlapping, its range, its symbol prefix."""

    name: str
    exclusive: bool = False
    lo: int = 1
    hi: int = INF
    prefix: str | None = None
    word: str | None = None  # for trainer messages ("POT", "LASTBET", ...)
    style: str = "lt"  # exclusive categories printed as "A < c / A ≥ c" ("lt") or "A ≤ b / A > b" ("le")

    def __post_init__(self) -> None:
        if self.prefix is None:
            self.prefix = self.name
        if self.word is None:
            self.word = self.name
        if self.lo > self.hi:
            raise ValueError(f"variable {self.name}: empty range {self.lo}..{self.hi}")


@dataclass
class Symbol:
    """A bf rule ``name → var, predicate``: the values ``lo ≤ x ≤ hi`` (and ``lo2 ≤ aux ≤ hi2``)."""

    name: str
    var: int
    kind: int
    lo: int
    hi: int
    lo2: int = -INF
    hi2: int = INF
    op: str = ""  # display operator: '>', '≥', '<', '≤', '=', 'set', 'cat'
    label: str = ""  # display text of a 'set' predicate, e.g. "R ≠ -1"

    def contains(self, x: int, a: int | None = None) -> bool:
        a = x if a is None else a
        return self.lo <= x <= self.hi and self.lo2 <= a <= self.hi2


@dataclass
class Rule:
    """An ac rule: ``left`` holds symbol ids (None = ``*``), ``decision`` a label; ``hyp`` marks
    hypothesized rules (§3.3)."""

    left: list
    decision: Hashable
    hyp: bool = False


@dataclass
class LearnParams:
    """The learning constants the seed leaves to the programmer.

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


# ----------------------------------------------------------------------------- rule sets


class RuleSet:
    """An ordered list of ac rules over ``variables`` with its bf rules (symbols), and the learning
    procedures of §3.2–3.3.  See the module docstring."""

    def __init__(
        self, variables: Sequence[Variable], params: LearnParams | None = None, decision_names: dict | None = None
    ) -> None:
        if not variables:
            raise ValueError("a rule set needs at least one variable")
        self.variables = list(variables)
        self.params = params or LearnParams()
        self.symbols: list[Symbol | None] = []
        self.rules: list[Rule] = []
        self.cuts: dict[int, list[int]] = {}  # exclusive var -> category boundaries
        self.categories: dict[int, list[int]] = {}  # exclusive var -> category symbol ids, low to high
        self.counters: dict[int, int] = {i: 0 for i in range(len(variables))}
        self.decision_names = dict(decision_names or {})
        self._codes: dict[Hashable, int] = {}
        self._arrays: tuple | None = None

    # ------------------------------------------------------------------ building

    @property
    def nv(self) -> int:
        return len(self.variables)

    def var_index(self, name: str | int) -> int:
        if isinstance(name, (int, np.integer)) and not isinstance(name, bool):
            if not 0 <= name < self.nv:
                raise ValueError(f"variable index {name} out of range 0..{self.nv - 1}")
            return int(name)
        for i, v in enumerate(self.variables):
            if v.name == name:
                return i
        raise ValueError(f"unknown variable {name!r}; variables are {[v.name for v in self.variables]}")

    def _new_name(self, var: int) -> str:
        used = {s.name for s in self.symbols if s is not None}
        while True:
            self.counters[var] += 1
            name = f"{self.variables[var].prefix}{self.counters[var]}"
            if name not in used:
                return name

    def add_symbol(
        self,
        var: str | int,
        kind: int,
        lo: int,
        hi: int,
        name: str | None = None,
        op: str = "",
        label: str = "",
        lo2: int = -INF,
        hi2: int = INF,
    ) -> int:
        """Add a bf rule; returns its id.  A given ``name`` also advances the naming counter past it."""
        v = self.var_index(var)
        if name is None:
            name = self._new_name(v)
        else:
            if any(s is not None and s.name == name for s in self.symbols):
                raise ValueError(f"symbol {name!r} already exists")
            tail = name[len(self.variables[v].prefix) :]
            if name.startswith(self.variables[v].prefix) and tail.isdigit():
                self.counters[v] = max(self.counters[v], int(tail))
        if not op:
            op = {GT: ">", LT: "<", CAT: "cat", SET: "set"}[kind]
        self.symbols.append(Symbol(name, v, kind, int(lo), int(hi), int(lo2), int(hi2), op, label))
        self._arrays = None
        return len(self.symbols) - 1

    def add_threshold(self, var: str | int, text: str, name: str | None = None) -> int:
        """A one-sided bf rule from text: ``"> 10"``, ``"≥ 25"``, ``"< 9"``, ``"≤ 5"`` or ``"= 5"``."""
        v = self.var_index(var)
        op, num = text.split()
        t = int(num)
        V = self.variables[v]
        if op in (">", ">="):
            return self.add_symbol(v, GT, t + 1, V.hi, name, op=">")
        if op in ("≥",):
            return self.add_symbol(v, GT, t, V.hi, name, op="≥")
        if op in ("<",):
            return self.add_symbol(v, LT, V.lo, t - 1, name, op="<")
        if op in ("≤", "<="):
            return self.add_symbol(v, LT, V.lo, t, name, op="≤")
        if op == "=":
            return self.add_symbol(v, SET, t, t, name, op="=")
        raise ValueError(f"cannot read predicate {text!r}")

    def add_partition(
        self,
        var: str | int,
        names_low_to_high: Sequence[str],
        cuts: Sequence[int],
        listing: Sequence[str] | None = None,
    ) -> list[int]:
        """An exclusive variable's categories: category k covers ``[cuts[k-1], cuts[k] - 1]``.
        ``listing`` gives the order the bf rules are created (and printed) in."""
        v = self.var_index(var)
        if not self.variables[v].exclusive:
            raise ValueError(f"variable {self.variables[v].name} is not exclusive")
        if len(cuts) != len(names_low_to_high) - 1 or list(cuts) != sorted(cuts):
            raise ValueError("need one increasing cut between consecutive categories")
        order = list(listing) if listing is not None else list(names_low_to_high)
        if sorted(order) != sorted(names_low_to_high):
            raise ValueError("listing must name the same categories")
        ids = {n: self.add_symbol(v, CAT, 0, 0, n, op="cat") for n in order}
        self.categories[v] = [ids[n] for n in names_low_to_high]
        self.cuts[v] = [int(c) for c in cuts]
        self._sync_partition(v)
        return self.categories[v]

    def _sync_partition(self, v: int) -> None:
        cats, cuts, V = self.categories[v], self.cuts[v], self.variables[v]
        for k, sid in enumerate(cats):
            s = self.symbols[sid]
            s.lo = V.lo if k == 0 else cuts[k - 1]
            s.hi = V.hi if k == len(cats) - 1 else cuts[k] - 1
        self._arrays = None

    def add_rule(
        self, left: Sequence[str | int | None], decision: Hashable, hyp: bool = False, at: int | None = None
    ) -> int:
        """Append (or insert at ``at``) an ac rule; ``left`` names symbols or uses ``"*"``/None."""
        if len(left) != self.nv:
            raise ValueError(f"a left part needs {self.nv} entries, got {len(left)}")
        ids = []
        for p, x in enumerate(left):
            if x is None or x == "*":
                ids.append(None)
                continue
            sid = self.symbol_id(x) if isinstance(x, str) else int(x)
            if self.symbols[sid] is None or self.symbols[sid].var != p:
                raise ValueError(f"symbol {x!r} is not a symbol of variable {self.variables[p].name}")
            ids.append(sid)
        rule = Rule(ids, decision, hyp)
        if at is None:
            self.rules.append(rule)
            at = len(self.rules) - 1
        else:
            self.rules.insert(at, rule)
        self._arrays = None
        return at

    def add_random_rule(self) -> None:
        self.add_rule([None] * self.nv, RANDOM)

    def symbol_id(self, name: str) -> int:
        for i, s in enumerate(self.symbols):
            if s is not None and s.name == name:
                return i
        raise ValueError(f"unknown symbol {name!r}")

    def copy(self) -> RuleSet:
        c = copy.copy(self)
        c.variables = list(self.variables)
        c.symbols = [copy.copy(s) for s in self.symbols]
        c.rules = [Rule(list(r.left), r.decision, r.hyp) for r in self.rules]
        c.cuts = {k: list(v) for k, v in self.cuts.items()}
        c.categories = {k: list(v) for k, v in self.categories.items()}
        c.counters = dict(self.counters)
        c.decision_names = dict(self.decision_names)
        c._codes = dict(self._codes)
        c._arrays = None
        return c

    # ------------------------------------------------------------------ arrays and decisions

    def code(self, decision: Hashable) -> int:
        """The integer code of a decision in :meth:`arrays` (ints map to themselves, random to -1)."""
        if decision is RANDOM:
            return RANDOM_CODE
        if isinstance(decision, (int, np.integer)) and not isinstance(decision, bool):
            return int(decision)
        if decision not in self._codes:
            self._codes[decision] = 1000 + len(self._codes)
        return self._codes[decision]

    def arrays(self) -> tuple[np.ndarray, np.ndarray, dict[int, int]]:
        """``(syms, rules, row_of_id)``: ``syms[i] = (var, lo, hi, lo2, hi2)``, ``rules[r] = (symbol rows…,
        decision code)`` with -1 for ``*``.  Cached until the rule set changes."""
        if self._arrays is None:
            live = [i for i, s in enumerate(self.symbols) if s is not None]
            row = {sid: k for k, sid in enumerate(live)}
            syms = np.zeros((max(1, len(live)), 5), dtype=np.int64)
            for k, sid in enumerate(live):
                s = self.symbols[sid]
                syms[k] = (s.var, s.lo, s.hi, s.lo2, s.hi2)
            rules = np.full((max(1, len(self.rules)), self.nv + 1), -1, dtype=np.int64)
            for r, rule in enumerate(self.rules):
                for p, sid in enumerate(rule.left):
                    rules[r, p] = -1 if sid is None else row[sid]
                rules[r, self.nv] = self.code(rule.decision)
            self._arrays = (syms, rules, row, len(live))
        syms, rules, row, _ = self._arrays
        return syms, rules, row

    def _vals(self, values: Sequence[int], aux: Sequence[int] | None) -> tuple[np.ndarray, np.ndarray]:
        vals = np.asarray(values, dtype=np.int64)
        if vals.shape != (self.nv,):
            raise ValueError(f"a subvector needs {self.nv} values, got {vals.shape}")
        a = vals.copy() if aux is None else np.asarray(aux, dtype=np.int64)
        return vals, a

    def mask(self, values: Sequence[int], aux: Sequence[int] | None = None) -> np.ndarray:
        syms, _, _ = self.arrays()
        vals, a = self._vals(values, aux)
        m = np.zeros(syms.shape[0], dtype=np.bool_)
        parse_mask(syms, self._arrays[3], vals, a, m)
        return m

    def matched(self, values: Sequence[int], aux: Sequence[int] | None = None) -> set[int]:
        """Ids of the symbols the subvector parses to (Step A)."""
        m = self.mask(values, aux)
        _, _, row = self.arrays()
        return {sid for sid, k in row.items() if m[k]}

    def fire(self, values: Sequence[int], aux: Sequence[int] | None = None) -> int:
        """Index of the rule that fires (Step B); ValueError if none (no random rule at the bottom)."""
        syms, rules, _ = self.arrays()
        vals, a = self._vals(values, aux)
        m = np.zeros(syms.shape[0], dtype=np.bool_)
        r = decide_rule(syms, self._arrays[3], rules, len(self.rules), vals, a, m)
        if r < 0:
            raise ValueError("no action rule catches this subvector")
        return r

    def decide(self, values: Sequence[int], aux: Sequence[int] | None = None) -> Hashable:
        return self.rules[self.fire(values, aux)].decision

    # ------------------------------------------------------------------ display

    def parse_sets(self, values: Sequence[int], aux: Sequence[int] | None = None) -> list[list[str]]:
        """The symbolic subvector: per variable the matched symbol names (the bare variable name if none)."""
        ids = self.matched(values, aux)
        out = []
        for v in range(self.nv):
            names = [self.symbols[i].name for i in sorted(ids) if self.symbols[i].var == v]
            out.append(names or [self.variables[v].name])
        return out

    def format_parse(self, values: Sequence[int], aux: Sequence[int] | None = None) -> str:
        """``"((A2), (B1, B2), (C))"`` as Fig. 2-2 prints it."""
        return "(" + ", ".join("(" + ", ".join(s) + ")" for s in self.parse_sets(values, aux)) + ")"

    def decision_text(self, d: Hashable) -> str:
        if d is RANDOM:
            return "(random)"
        return str(self.decision_names.get(d, d))

    def format_rule(self, rule: Rule) -> str:
        left = ", ".join("*" if s is None else self.symbols[s].name for s in rule.left)
        return f"({left}) → {self.decision_text(rule.decision)}" + (" hypothesized" if rule.hyp else "")

    def predicate(self, sid: int) -> str:
        s = self.symbols[sid]
        V = self.variables[s.var]
        x = V.name
        if s.label:
            return s.label
        if s.kind == CAT:
            cats, cuts = self.categories[s.var], self.cuts[s.var]
            k = cats.index(sid)
            lo_t = cuts[k - 1] if k > 0 else None
            hi_t = cuts[k] if k < len(cuts) else None
            if V.style == "lt":
                parts = ([f"{x} ≥ {lo_t}"] if lo_t is not None else []) + (
                    [f"{x} < {hi_t}"] if hi_t is not None else []
                )
            else:
                parts = ([f"{x} > {lo_t - 1}"] if lo_t is not None else []) + (
                    [f"{x} ≤ {hi_t - 1}"] if hi_t is not None else []
                )
            return " ∧ ".join(parts)
        if s.kind == GT:
            return f"{x} ≥ {s.lo}" if s.op == "≥" else f"{x} > {s.lo - 1}"
        if s.kind == LT:
            return f"{x} ≤ {s.hi}" if s.op == "≤" else f"{x} < {s.hi + 1}"
        return f"{x} = {s.lo}" if s.lo == s.hi else f"{s.lo} ≤ {x} ≤ {s.hi}"

    def format_symbol(self, sid: int) -> str:
        s = self.symbols[sid]
        return f"{s.name} → {self.variables[s.var].name}, {self.predicate(sid)}"

    def symbol_order(self) -> list[int]:
        """Live symbols grouped by variable, in creation order (the seed's listings)."""
        live = [i for i, s in enumerate(self.symbols) if s is not None]
        return sorted(live, key=lambda i: (self.symbols[i].var, i))

    def listing(self, bf: bool = True) -> list[str]:
        """The numbered listing of §3: ac rules, then bf rules (the range rules ``A → a, a ∈ …`` omitted)."""
        lines = [self.format_rule(r) for r in self.rules]
        if bf:
            lines += [self.format_symbol(i) for i in self.symbol_order()]
        return [f"{k}. {t}" for k, t in enumerate(lines, 1)]

    def __repr__(self) -> str:
        return "\n".join(self.listing())

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

    def n_rules(self, include_random: bool = False) -> int:
        return sum(1 for r in self.rules if include_random or r.decision is not RANDOM)


# ----------------------------------------------------------------------------- deduction (§3.3, App. I)


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

    def prove(self, goal: str, facts: Iterable[str]) -> bool:
        return goal in self.closure(facts)


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


# ----------------------------------------------------------------------------- Ch. 4 S-R models


def _known(actions: list) -> list:
    return sorted(set(actions), key=str)


class SimpleModel:
    """Actual elements, simple placement, simple search (§4.2): exact match else a random known action."""

    def __init__(self, seed: int = 0) -> None:
        if not isinstance(seed, (int, np.integer)) or isinstance(seed, bool) or seed < 0:
            raise ValueError(f"seed must be a non-negative int, got {seed!r}")
        self.connections: list[tuple[tuple, Hashable]] = []
        self.rng = np.random.default_rng(int(seed))  # one generator per model: successive random picks differ

    def predict(self, s: Sequence[int], pick: Hashable | None = None, rng: np.random.Generator | None = None):
        for c, a in self.connections:
            if all(x is None or x == y for x, y in zip(c, s)):
                return a, "match"
        known = _known([a for _, a in self.connections])
        if not known:
            return None, "none"
        if pick is not None:
            if pick not in known:
                raise ValueError(f"scripted pick {pick!r} is not a known action {known}")
            return pick, "random"
        return known[int((rng or self.rng).integers(len(known)))], "random"

    def learn(self, s: Sequence[int], relevant: Sequence[bool], action: Hashable) -> None:
        self.connections.append((tuple(x if r else None for x, r in zip(s, relevant)), action))

    def listing(self) -> list[str]:
        def f(c):
            return ",".join("*" if x is None else str(x) for x in c)

        return [f"{f(c)} → {a}" for c, a in self.connections] + [
            "*,*,* → {" + ", ".join(map(str, _known([a for _, a in self.connections]))) + "}"
        ]


class StimulusGeneralization(SimpleModel):
    """Actual elements, simple placement, stimulus generalization (§4.2): nearest stored description in
    Euclidean distance, ``*`` matching any value exactly."""

    @staticmethod
    def distance(c: Sequence, s: Sequence[int]) -> float:
        return math.sqrt(sum(0.0 if x is None else (x - y) ** 2 for x, y in zip(c, s)))

    def distances(self, s: Sequence[int]) -> list[float]:
        return [self.distance(c, s) for c, _ in self.connections]

    def predict(self, s: Sequence[int], pick=None, rng=None):
        if not self.connections:
            return None, "none"
        d = self.distances(s)
        return self.connections[int(np.argmin(d))][1], "nearest"


@dataclass
class TreeNode:
    test: tuple | None = None  # (attribute index, value)
    pos: TreeNode | None = None
    neg: TreeNode | None = None
    action: Hashable = None
    ae: Fraction | None = None

    def sort(self, s: Sequence) -> tuple[Hashable, list[int]]:
        """Action at the terminal node reached by ``s`` and the attributes tested on the way."""
        node, path = self, []
        while node.test is not None:
            a, v = node.test
            path.append(a)
            node = node.pos if s[a] == v else node.neg
        return node.action, path

    def text(self, names: Sequence[str]) -> str:
        if self.test is None:
            return str(self.action)
        return f"{self.test[1]}?(+{self.pos.text(names)} −{self.neg.text(names)})"


def grow_tree(connections: Sequence[tuple[Sequence, Hashable]], attr_order: Sequence[str], depth: int = 0) -> TreeNode:
    """App. A Part I: Hunt-style concept tree over abstract values; test = the value maximizing
    ``ae = bc − av − sv`` (ties: attribute order, then low digit first); values present in every S
    are excluded; an S with ``*`` goes down both branches."""
    acts = _known([a for _, a in connections])
    if len(acts) <= 1:
        return TreeNode(action=acts[0] if acts else None)
    if depth > 50:
        raise ValueError("inconsistent S-A connections: the tree does not terminate (App. A)")
    n = len(connections)
    sets = {a: [c for c, b in connections if b == a] for a in acts}
    best = None
    values = sorted(
        {(i, x) for c, _ in connections for i, x in enumerate(c) if x is not None}, key=lambda t: (t[0], str(t[1]))
    )
    for i, x in values:
        if all(c[i] == x for c, _ in connections):
            continue
        bcs = [(Fraction(sum(c[i] == x for c in S), len(S)), a) for a, S in sets.items()]
        bc, bset = max(bcs, key=lambda t: t[0])
        # the set giving the maximum bc: first in action order among ties
        bset = next(a for b, a in bcs if b == bc)
        av = Fraction(
            sum(any(c[i] is None for c in S) for S in sets.values())
            + sum(c[i] is None for S in sets.values() for c in S),
            n,
        )
        sv = Fraction(sum(c[i] == x for a, S in sets.items() if a != bset for c in S), n)
        ae = bc - av - sv
        key = (ae, -i, [-ord(ch) for ch in str(x)])
        if best is None or key > best[0]:
            best = (key, (i, x), ae)
    if best is None:
        raise ValueError("inconsistent S-A connections: identical situations with different actions")
    (i, x), ae = best[1], best[2]
    pos = [(c, a) for c, a in connections if c[i] is None or c[i] == x]
    neg = [(c, a) for c, a in connections if c[i] is None or c[i] != x]
    return TreeNode(
        test=(i, x), ae=ae, pos=grow_tree(pos, attr_order, depth + 1), neg=grow_tree(neg, attr_order, depth + 1)
    )


class InductionModel:
    """Exclusive abstract elements, induction, tree sorting (§4.2)."""

    def __init__(self, attr_order: Sequence[str] = ("h", "p", "b")) -> None:
        self.connections: list[tuple[tuple, Hashable]] = []
        self.attr_order = attr_order
        self.tree: TreeNode | None = None

    def predict(self, s: Sequence):
        if self.tree is None:
            return None, "none"
        return self.tree.sort(s)[0], "tree"

    def learn(self, s: Sequence, relevant: Sequence[bool], action: Hashable) -> None:
        self.connections.append((tuple(x if r else None for x, r in zip(s, relevant)), action))
        self.tree = grow_tree(self.connections, self.attr_order)


__all__ = [
    "INF",
    "GT",
    "LT",
    "CAT",
    "SET",
    "RANDOM",
    "RANDOM_CODE",
    "parse_mask",
    "drop_through",
    "decide_rule",
    "Variable",
    "Symbol",
    "Rule",
    "LearnParams",
    "TrialReport",
    "RuleSet",
    "HornTheory",
    "POKER_THEORY",
    "POKER_ACTIONS",
    "deduce",
    "SimpleModel",
    "StimulusGeneralization",
    "TreeNode",
    "grow_tree",
    "InductionModel",
]
