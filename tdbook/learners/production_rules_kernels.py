"""Steps A and B of the production-rule decision procedure, jitted on plain arrays (Waterman (1968) §2.2).

**Step A** ("parse", :func:`parse_mask`) marks every bf rule (symbol) whose predicate the subvector
satisfies; **Step B** ("drop through", :func:`drop_through`) scans the ac rules from the top and
returns the first whose every non-``*`` symbol is marked.  The arrays are those of
:meth:`tdbook.learners.production_rules.ProductionRules.arrays`: ``syms[i] = (var, lo, hi, lo2, hi2)``
and ``rules[r] = (symbol rows…, decision code)`` with -1 for ``*``.  The same kernels serve the
worked examples, the trainees and the poker players' move kernels.
"""

from __future__ import annotations

import numpy as np
from numba import njit


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


def fire(symbols: np.ndarray, rules: np.ndarray, values: np.ndarray, aux: np.ndarray) -> int:
    """Steps A and B in plain Python, the decision :func:`decide_rule` runs jitted (Waterman (1968) §2.2;
    ``tests/test_production_rules.py`` checks they agree).  ``symbols[i]`` = (variable, lo, hi, lo2, hi2): the bf
    rule "symbol i is the values lo … hi of the variable" (and of its auxiliary value); ``rules[r]`` = (one symbol
    per variable, −1 for ``*``, then the decision).  Returns the index of the rule that fires, −1 if none."""
    parse = {  # Step A: every symbol whose predicate the subvector satisfies
        i for i, (var, lo, hi, lo2, hi2) in enumerate(symbols) if lo <= values[var] <= hi and lo2 <= aux[var] <= hi2
    }
    for r, rule in enumerate(rules):  # Step B: drop through the ordered ac rules to the first that matches
        if all(s < 0 or s in parse for s in rule[:-1]):
            return r
    return -1
