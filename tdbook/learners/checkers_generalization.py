"""Samuel's learning by generalization (Powell (2000) §3.3, eq. 3.1–3.2; Samuel 1959): the update rule of the
learning program Alpha — correlation coefficients, their running correction, the coefficients made from them,
and the term-replacement queue.  The self-play protocol around it (Alpha against the frozen Beta, black marks)
is in :mod:`tdbook.experiments.checkers.samuel`; the polynomial itself in
:mod:`tdbook.learners.checkers_polynomial`.

**Terms.**  §3.3: "thirty-eight different parameters … sixteen were used by the linear polynomial while
twenty-two were in reserve".  :data:`SAMUEL_TERMS` is our 38: the 27 simple terms and 11 of the 12
binary-connective terms Samuel names — DEMO, the one no table of his mentions, is left out.  ``order`` (an
int64[38] of indices into :data:`SAMUEL_TERMS`) holds the 16 active terms in ``order[:16]`` and the reserve
queue in ``order[16:]``, head first.  The first polynomial is an arbitrary selection (notes §7 item 8: a
seeded permutation) with equal coefficients (Samuel's first series "started from equal weights").

**One cycle** (after each move of Alpha): ``delta`` = Alpha's backed-up score of the current board − the
polynomial's score of Alpha's previous board (recomputed with the current coefficients), both for Alpha, with
``u`` the previous board's term values for Alpha.  When |delta| is at least the *minimum* — the average
magnitude of the active coefficients (§3.3: "set to the average value of the coefficients for the terms of
the utilized parameters") — each active term with ``u ≠ 0`` ("only terms with nonzero value count as used")
takes one step of eq. 3.2,

    C_N = C_{N−1} − (C_{N−1} ± 1) / N,

with −1 (C moves towards +1) when the sign of the term's value agrees with the sign of delta and +1 when it
does not; N = 16 for a term used fewer than 32 times, then the power of two at or below its use count, at
most 256 (Samuel 1959).  The step is doubled when the piece advantage changed between the two boards and
quadrupled when delta signals an almost sure win or loss (|backed-up score| ≥ ``sure_score``: our reading,
notes §7 item 7), capped so that C stays in [−1, 1].  Then the coefficients: the active term with the
largest |C| gets 2**``p_max`` (2**18), every other ``sign(C) · 2**round(p_max · |C| / max|C|)`` (the rule
that reproduces Samuel's 42-game table; notes §4.2), 0 while C = 0.

Our reading of "the sign of the term's contribution": the sign of the term's *value* (the contribution it
makes with a positive coefficient).  Reading it as the sign of coefficient × value gives the same
coefficients, C flipping sign with the coefficient.

**Term replacement** (``tally``; the readings differ — the document wins, the notes' reading is kept):

- ``TALLY_THRESHOLD`` (Powell 2000 §3.3, the default): "if a particular parameter's weighting coefficient
  fell below the threshold, its counter would be increased" — after each cycle every active term whose
  coefficient magnitude is below the minimum (the one threshold §3.3 defines) gets a tally;
- ``TALLY_LOWEST`` (the reading notes of Samuel 1959): the active term with the lowest |C| gets a tally.

A term whose tally reaches ``tally_limit`` (8; 32 in Samuel's second series) goes to the end of the reserve
queue and the head of the queue takes its place with C, use count and tally 0.

**Second series** (``selective``): a positive delta changes only the terms contributing against the sign of
the initial score (the negatively contributing ones when it was positive, the positively contributing ones
when it was negative; all contributing terms when it counts as zero); a negative delta, by ``negative``:

- ``NEG_POSITIVE`` (Powell 2000 §3.3, the default): only the positively contributing terms;
- ``NEG_ALL`` (the reading notes of Samuel 1959): every contributing term.

Zero-valued terms never change.  A term's contribution sign is sign(coefficient) · sign(value), a term whose
coefficient is still 0 counting as positive.

**Credit assignment** (``carry_back``; Powell (2000) §3.3: "the fix applied to the program allowed the
remembered moves to increase until the delta exceeded its arbitrary, minimum value and then apply the update
to that historical position"; Samuel's second series): delta is taken against the polynomial's score of an
*anchor* board.  Without the fix the anchor is always Alpha's previous board.  With it, while |delta| stays
below the minimum the anchor stays where it is, so the span of remembered moves grows; once |delta| reaches
the minimum the update is made with the anchor's term values and the anchor moves to the current board (a
one-move span again).  The game kernels (:mod:`tdbook.experiments.checkers.samuel`) keep the anchor; the
flag travels in the integer parameters.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np
from numba import njit

from .checkers_polynomial import N_SIMPLE, PAIRS, TERMS

#: Samuel's 38 terms: our 39 without DEMO (module docstring)
SAMUEL_TERMS: tuple[str, ...] = tuple(t for t in TERMS if t != "DEMO")
N_SAMUEL = len(SAMUEL_TERMS)
#: position of each of :data:`SAMUEL_TERMS` in :data:`~tdbook.learners.checkers_polynomial.TERMS`
TERM_INDEX = np.array([TERMS.index(t) for t in SAMUEL_TERMS], dtype=np.int64)
TERM_INDEX.setflags(write=False)
TALLIES = ("threshold", "lowest")
TALLY_THRESHOLD, TALLY_LOWEST = 0, 1
NEGATIVES = ("positive", "all")
NEG_POSITIVE, NEG_ALL = 0, 1
#: integer parameters (:meth:`SamuelSpec.arrays`)
(P_ACTIVE, P_PMAX, P_NMIN, P_NMAX, P_TALLY_LIMIT, P_TALLY, P_SELECTIVE, P_NEGATIVE, P_UPDATE_EVERY,
 P_RECOMPUTE, P_CARRY) = range(11)  # fmt: skip
#: float parameters
F_PIECE_FACTOR, F_SURE_FACTOR, F_SURE_SCORE, F_C0 = range(4)


@dataclass(frozen=True)
class SamuelSpec:
    """The learning rule's settings (module docstring).  ``update_every``: the coefficients are recomputed
    after every k-th cycle only (1 = after each move, as Samuel found necessary); ``recompute_initial``: the
    previous board's score is recomputed with the current coefficients (True) or the score saved when the move
    was chosen is used (False: the variant Samuel found unstable).  ``c0``: every first-polynomial term's C.
    ``carry_back``: the credit-assignment fix (module docstring)."""

    n_active: int = 16
    p_max: int = 18
    n_min: int = 16
    n_max: int = 256
    tally_limit: int = 8
    tally: str = "threshold"
    selective: bool = False
    negative: str = "positive"
    update_every: int = 1
    recompute_initial: bool = True
    piece_factor: float = 2.0
    sure_factor: float = 4.0
    sure_score: float = 6 * 2.0**20
    c0: float = 0.125
    carry_back: bool = False

    def __post_init__(self) -> None:
        for name in ("n_active", "p_max", "n_min", "n_max", "tally_limit", "update_every"):
            v = getattr(self, name)
            if not isinstance(v, (int, np.integer)) or isinstance(v, bool) or v < 1:
                raise ValueError(f"{name} must be a positive int, got {v!r}")
        if not self.n_active < N_SAMUEL:
            raise ValueError(f"n_active must be below the {N_SAMUEL} terms, got {self.n_active}")
        if self.n_min > self.n_max:
            raise ValueError(f"n_min ({self.n_min}) must not exceed n_max ({self.n_max})")
        if self.tally not in TALLIES:
            raise ValueError(f"tally must be one of {TALLIES}, got {self.tally!r}")
        if self.negative not in NEGATIVES:
            raise ValueError(f"negative must be one of {NEGATIVES}, got {self.negative!r}")
        for name in ("piece_factor", "sure_factor", "sure_score"):
            v = getattr(self, name)
            if not (np.isfinite(v) and v > 0):
                raise ValueError(f"{name} must be a positive number, got {v!r}")
        if not 0.0 < self.c0 <= 1.0:
            raise ValueError(f"c0 must lie in (0, 1], got {self.c0!r}")

    @classmethod
    def series(cls, n: int, **kw) -> SamuelSpec:
        """Samuel's first (``n`` = 1) or second (2) series: the second adds the selective update of a positive
        delta, a tally limit of 32 and the credit-assignment fix (``carry_back``)."""
        if n == 1:
            return cls(**kw)
        if n == 2:
            return cls(**{"selective": True, "tally_limit": 32, "carry_back": True, **kw})
        raise ValueError(f"series must be 1 or 2, got {n!r}")

    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        ip = np.array(
            [
                self.n_active,
                self.p_max,
                self.n_min,
                self.n_max,
                self.tally_limit,
                TALLIES.index(self.tally),
                int(self.selective),
                NEGATIVES.index(self.negative),
                self.update_every,
                int(self.recompute_initial),
                int(self.carry_back),
            ],
            dtype=np.int64,
        )
        fp = np.array([self.piece_factor, self.sure_factor, self.sure_score, self.c0], dtype=np.float64)
        return ip, fp

    def to_dict(self) -> dict:
        return asdict(self)


# ----------------------------------------------------------------------------- kernels


@njit(cache=True)
def coefficients(order: np.ndarray, corr: np.ndarray, n_active: int, p_max: int, weights: np.ndarray) -> None:
    """The active terms' coefficients from their correlation coefficients into ``weights`` (float64[N_TERMS],
    :data:`~tdbook.learners.checkers_polynomial.TERMS` order; every inactive term 0)."""
    weights[:] = 0.0
    cmax = 0.0
    for j in range(n_active):
        c = abs(corr[order[j]])
        if c > cmax:
            cmax = c
    if cmax == 0.0:
        return
    for j in range(n_active):
        t = order[j]
        c = corr[t]
        if c == 0.0:
            continue
        p = np.round(p_max * abs(c) / cmax)
        w = 2.0**p
        weights[TERM_INDEX[t]] = w if c > 0 else -w


@njit(cache=True, inline="always")
def _term_need(k: int) -> int:
    """The parameters term ``k`` (index in TERMS) is made of (bit mask)."""
    if k < N_SIMPLE:
        return 1 << k
    g = (k - N_SIMPLE) // 4
    return (1 << PAIRS[g, 0]) | (1 << PAIRS[g, 1])


@njit(cache=True)
def active_need(order: np.ndarray, n_active: int) -> int:
    """The parameters (bit mask) the active terms are made of, whatever their coefficients."""
    need = 0
    for j in range(n_active):
        need |= _term_need(TERM_INDEX[order[j]])
    return need


@njit(cache=True)
def weight_need(weights: np.ndarray) -> int:
    """The parameters a weight vector uses (jitted twin of :func:`~tdbook.learners.checkers_polynomial.need_mask`)."""
    need = 0
    for k in range(weights.shape[0]):
        if weights[k] != 0.0:
            need |= _term_need(k)
    return need


@njit(cache=True)
def minimum(order: np.ndarray, weights: np.ndarray, n_active: int) -> float:
    """The delta minimum: the average magnitude of the active terms' coefficients."""
    s = 0.0
    for j in range(n_active):
        s += abs(weights[TERM_INDEX[order[j]]])
    return s / n_active


@njit(cache=True, inline="always")
def _n_of(used: int, n_min: int, n_max: int) -> int:
    n = n_min
    while n * 2 <= used and n * 2 <= n_max:
        n *= 2
    return n


@njit(cache=True)
def correlate(
    alpha: tuple,
    ip: np.ndarray,
    fp: np.ndarray,
    u: np.ndarray,
    delta: float,
    initial: float,
    piece_changed: bool,
    sure: bool,
    minimum_: float,
) -> int:
    """One cycle's eq. 3.2 steps (module docstring): ``u`` = the previous board's term values for Alpha
    (float64[38], :data:`SAMUEL_TERMS` order), ``initial`` its polynomial score; ``alpha`` = the learner's
    arrays (order, corr, used, tally, adjusted, weights; :attr:`SamuelState.arrays_tuple`); returns how many
    terms changed (0 inside the dead zone)."""
    order, corr, used, _, adjusted, weights = alpha
    if abs(delta) < minimum_ or delta == 0.0:
        return 0
    factor = 1.0
    if piece_changed:
        factor *= fp[F_PIECE_FACTOR]
    if sure:
        factor *= fp[F_SURE_FACTOR]
    selective = ip[P_SELECTIVE] == 1
    zero_initial = abs(initial) < minimum_
    changed = 0
    for j in range(ip[P_ACTIVE]):
        t = order[j]
        v = u[t]
        if v == 0.0:
            continue
        w = weights[TERM_INDEX[t]]
        contrib = (1.0 if w >= 0.0 else -1.0) * (1.0 if v > 0.0 else -1.0)
        if selective:
            if delta > 0.0:
                if not zero_initial and contrib * initial > 0.0:
                    continue  # positive delta: only terms contributing against the initial score's sign
            elif ip[P_NEGATIVE] == NEG_POSITIVE and contrib < 0.0:
                continue  # negative delta (Powell): only the positively contributing terms
        x = 1.0 if (v > 0.0) == (delta > 0.0) else -1.0
        n = _n_of(used[t], ip[P_NMIN], ip[P_NMAX])
        step = min(1.0, factor / n)
        corr[t] = corr[t] + step * (x - corr[t])
        used[t] += 1
        adjusted[t] += 1
        changed += 1
    return changed


@njit(cache=True)
def tally_and_replace(alpha: tuple, ip: np.ndarray, minimum_: float, events: np.ndarray, n_events: int) -> int:
    """Give this cycle's low-term tallies and replace every active term whose tally reached the limit: it goes
    to the end of the reserve queue, the head of the queue takes its slot with C, use count and tally 0.  Each
    replacement appends (slot, term out, term in, its tally) to ``events`` (while rows are left); returns the
    new event count."""
    order, corr, used, tally, _, weights = alpha
    n_active = ip[P_ACTIVE]
    if ip[P_TALLY] == TALLY_THRESHOLD:
        for j in range(n_active):
            t = order[j]
            if abs(weights[TERM_INDEX[t]]) < minimum_:
                tally[t] += 1
    else:
        low = 0
        for j in range(1, n_active):
            if abs(corr[order[j]]) < abs(corr[order[low]]):
                low = j
        tally[order[low]] += 1
    n = order.shape[0]
    for j in range(n_active):
        t = order[j]
        if tally[t] < ip[P_TALLY_LIMIT]:
            continue
        incoming = order[n_active]
        for k in range(n_active, n - 1):
            order[k] = order[k + 1]
        order[n - 1] = t
        order[j] = incoming
        if n_events < events.shape[0]:
            events[n_events, 0] = j
            events[n_events, 1] = t
            events[n_events, 2] = incoming
            events[n_events, 3] = tally[t]
        n_events += 1
        corr[t] = 0.0
        used[t] = 0
        tally[t] = 0
        corr[incoming] = 0.0
        used[incoming] = 0
        tally[incoming] = 0
    return n_events


# ----------------------------------------------------------------------------- the learner's state


class SamuelState:
    """Alpha's learning state: ``order`` (active terms, then the reserve queue), and per term (indexed by
    :data:`SAMUEL_TERMS`) ``corr`` (C), ``used``, ``tally``, ``adjusted`` (times adjusted, as in Samuel's
    42-game table); ``weights`` (float64[N_TERMS]) the coefficients made from them."""

    FIELDS = ("order", "corr", "used", "tally", "adjusted", "weights")

    def __init__(self, spec: SamuelSpec, order: np.ndarray) -> None:
        order = np.asarray(order, dtype=np.int64)
        if sorted(order.tolist()) != list(range(N_SAMUEL)):
            raise ValueError(f"order must be a permutation of 0..{N_SAMUEL - 1}")
        self.spec = spec
        self.order = order.copy()
        self.corr = np.zeros(N_SAMUEL)
        self.corr[self.order[: spec.n_active]] = spec.c0
        self.used = np.zeros(N_SAMUEL, dtype=np.int64)
        self.tally = np.zeros(N_SAMUEL, dtype=np.int64)
        self.adjusted = np.zeros(N_SAMUEL, dtype=np.int64)
        self.weights = np.zeros(len(TERMS))
        self.refresh()

    @classmethod
    def initial(cls, spec: SamuelSpec, seed: int) -> SamuelState:
        """The first polynomial: an arbitrary (seeded) order of the 38 terms, the first 16 active with equal
        coefficients."""
        return cls(spec, np.random.default_rng(seed).permutation(N_SAMUEL))

    @property
    def arrays_tuple(self) -> tuple:
        """(order, corr, used, tally, adjusted, weights): the arrays the kernels update in place."""
        return self.order, self.corr, self.used, self.tally, self.adjusted, self.weights

    def refresh(self) -> None:
        """Recompute the coefficients from the correlation coefficients."""
        coefficients(self.order, self.corr, self.spec.n_active, self.spec.p_max, self.weights)

    @property
    def active(self) -> list[str]:
        return [SAMUEL_TERMS[t] for t in self.order[: self.spec.n_active]]

    @property
    def reserve(self) -> list[str]:
        return [SAMUEL_TERMS[t] for t in self.order[self.spec.n_active :]]

    def polynomial_weights(self) -> dict[str, float]:
        """The active terms' nonzero coefficients by name (for a ``Polynomial``)."""
        return {TERMS[k]: float(self.weights[k]) for k in np.flatnonzero(self.weights)}

    def top(self) -> str:
        """The leading active term (largest |C|)."""
        act = self.order[: self.spec.n_active]
        return SAMUEL_TERMS[int(act[np.argmax(np.abs(self.corr[act]))])]

    def zero_leader(self) -> str:
        """Three black marks: the leading term's C (so its coefficient) is set to zero; returns its name."""
        name = self.top()
        self.corr[SAMUEL_TERMS.index(name)] = 0.0
        self.refresh()
        return name

    def copy(self) -> SamuelState:
        out = SamuelState(self.spec, self.order)
        for f in self.FIELDS:
            setattr(out, f, getattr(self, f).copy())
        return out

    def arrays(self, prefix: str = "") -> dict[str, np.ndarray]:
        return {prefix + f: getattr(self, f) for f in self.FIELDS}

    @classmethod
    def from_arrays(cls, spec: SamuelSpec, data, prefix: str = "") -> SamuelState:
        shapes = {"order": (N_SAMUEL,), "corr": (N_SAMUEL,), "used": (N_SAMUEL,), "tally": (N_SAMUEL,)}
        shapes |= {"adjusted": (N_SAMUEL,), "weights": (len(TERMS),)}
        for f, shp in shapes.items():
            a = data[prefix + f]
            if a.shape != shp or not np.all(np.isfinite(a)):
                raise ValueError(f"{prefix}{f} has shape {a.shape} (want {shp}) or non-finite values")
        out = cls(spec, data[prefix + "order"])
        for f in cls.FIELDS:
            getattr(out, f)[:] = data[prefix + f]
        return out


# ----------------------------------------------------------------------------- the rule in plain Python


def generalization_step(
    state: SamuelState, u: np.ndarray, delta: float, initial: float, piece_changed: bool, sure: bool
) -> int:
    """One cycle of Alpha's learning in plain Python: eq. 3.2 with its stabilisers, then the coefficients — what
    :func:`minimum`, :func:`correlate` and :func:`coefficients` run jitted (Powell (2000) §3.3; Samuel 1959;
    ``tests/test_checkers_learning_samuel.py`` checks they agree).  ``u``: the previous board's term values for Alpha,
    ``initial`` its score, ``delta`` the backed-up score of the current board minus it.  Returns the terms changed."""
    spec, active = state.spec, state.order[: state.spec.n_active]
    minimum = sum(abs(state.weights[TERM_INDEX[t]]) for t in active) / spec.n_active  # the average coefficient
    if abs(delta) < minimum or delta == 0.0:  # a dead zone: small deltas teach nothing
        return 0
    factor = (spec.piece_factor if piece_changed else 1.0) * (spec.sure_factor if sure else 1.0)
    changed = 0
    for t in active:
        if u[t] == 0.0:  # only terms with a non-zero value count as used
            continue
        contribution = (1.0 if state.weights[TERM_INDEX[t]] >= 0.0 else -1.0) * (1.0 if u[t] > 0.0 else -1.0)
        if spec.selective and delta > 0.0 and abs(initial) >= minimum and contribution * initial > 0.0:
            continue  # second series: a positive delta changes only the terms that contributed against the score
        if spec.selective and delta < 0.0 and spec.negative == "positive" and contribution < 0.0:
            continue  # … and a negative delta only the positively contributing ones
        agrees = 1.0 if (u[t] > 0.0) == (delta > 0.0) else -1.0  # the sign of the term's value agrees with delta's
        n = spec.n_min  # N: 16 until the term was used 32 times, then the power of two below its use, at most 256
        while n * 2 <= state.used[t] and n * 2 <= spec.n_max:
            n *= 2
        # eq. 3.2, C_N = C_{N−1} − (C_{N−1} ∓ 1)/N: C moves 1/N of the way towards ±1 (times the factors)
        state.corr[t] = state.corr[t] + min(1.0, factor / n) * (agrees - state.corr[t])
        state.used[t] += 1
        state.adjusted[t] += 1
        changed += 1
    largest = max(abs(state.corr[t]) for t in active)  # coefficients: powers of two in proportion to C
    state.weights[:] = 0.0
    for t in active:
        if largest > 0.0 and state.corr[t] != 0.0:
            power = 2.0 ** round(spec.p_max * abs(state.corr[t]) / largest)
            state.weights[TERM_INDEX[t]] = power if state.corr[t] > 0 else -power
    return changed
