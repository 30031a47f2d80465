"""Heuristics as production rules: the rule language of Waterman (1968) §2.2.

- **ac rules** ``S → S'``: an ordered list; the left part has one symbolic value per subvector
  variable or ``*`` (any value); the right part is a *decision* (a label here).
- **bf rules** ``Z → V, predicate``: symbol ``Z`` is the set of values of variable ``V`` that
  satisfy the predicate.  Every predicate we need is an integer interval, so a :class:`Symbol`
  stores ``[lo, hi]`` (plus an optional second interval on an auxiliary value, used only by the
  built-in poker categories SW/EC that test both H − OH and H).
- **ff rules** are plain functions of the state vector (computed by the game, not learned).

Decision procedure: **Step A** ("parse") maps each raw value to the *set* of symbols whose
predicates it satisfies; **Step B** ("drop through") scans the ac rules top to bottom and fires
the first whose every non-``*`` symbol is in the parse.  Both are jitted on plain arrays
(:mod:`tdbook.learners.production_rules_kernels`, fed by :meth:`ProductionRules.arrays`), so the
same code serves the worked examples, the trainees and the poker players.

:class:`ProductionRules` is the language: building a rule list, deciding, and printing it as the
document's numbered listings.  How a program *learns* its rules (§3.2–3.3) is
:class:`tdbook.learners.rule_learning.RuleSet`, a :class:`ProductionRules` that trains.
"""

from __future__ import annotations

import copy
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Self

import numpy as np

from .production_rules_kernels import decide_rule, parse_mask

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


@dataclass
class Rule:
    """An ac rule: ``left`` holds symbol ids (None = ``*``), ``decision`` a label; ``hyp`` marks
    hypothesized rules (§3.3)."""

    left: list
    decision: Hashable
    hyp: bool = False


# ----------------------------------------------------------------------------- rule lists


class ProductionRules:
    """An ordered list of ac rules over ``variables`` with its bf rules (symbols); Steps A and B;
    the numbered listings of the document.  See the module docstring."""

    def __init__(self, variables: Sequence[Variable], decision_names: dict | None = None) -> None:
        if not variables:
            raise ValueError("a rule set needs at least one variable")
        self.variables = list(variables)
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

    def copy(self) -> Self:
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
        """Live symbols grouped by variable, in creation order (the document's listings)."""
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

    def n_rules(self, include_random: bool = False) -> int:
        """The number of ac rules (the random rule at the bottom not counted unless asked)."""
        return sum(1 for r in self.rules if include_random or r.decision is not RANDOM)
