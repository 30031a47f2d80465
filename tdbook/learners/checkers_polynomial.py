"""Samuel's scoring polynomial for checkers (1959 §"learning by generalization", App. C; Powell (2000) §3.3 eq. 3.1):
a fixed piece-advantage term plus a weighted sum of terms, each term the difference of the two sides'
ratings of an Appendix C parameter (:mod:`tdbook.games.checkers_features`), and optional binary-connective
terms.  Everything a search calls is jitted; :class:`Polynomial` holds a weight set and hands its arrays
to the kernels.

**Terms** (:data:`TERMS`): the 27 simple terms in the order of
:data:`~tdbook.games.checkers_features.PARAMS`, then 12 binary-connective terms (Samuel 1959, "binary
connective terms"): for a pair (A, B) each term is 1 or 0 by whether A > 0 and whether B > 0 (our reading of
"each range split into two halves, usually by sign"), in the printed order A·B, A·B̄, Ā·B, Ā·B̄ —
DENY–MOB: DEMO, DEMMO, DDEMO, DDMM; MOBIL–DENY: MODE1, MODE2, MODE3, MODE4; MOBIL–CENT: MOC1, MOC3, MOC2,
MOC4 (the MOC order is as printed).  That is 39 terms; Samuel's list had 38 (27 simple, the rest
combinational) and he names these 12 combinational ones, so one of them was not in his list.

**How a term is computed** (``construction``):

- ``"samuel"`` (default; 1959 App. C "method of computing terms"): the rating of the side that has just
  moved, taken on this board, minus the rating of the other side taken on the board *before* that move —
  each board rated for its own passive side ("the differences between the most recent ratings and those
  made a move earlier").  At a search leaf the board before is the leaf's parent.
- ``"static"``: both sides rated on the same board (the passive side's rating minus the rating with the
  roles exchanged) — a position-only evaluation, for comparison (notes §7 item 3).

**Piece advantage** (fixed, never learned; Samuel 1959: king : man = 3 : 2, and "arranged" so that trading
when ahead is favoured and trading when behind is avoided; his formula is not printed).  We use, for the
side ``S`` the value is credited to, with material credit ``c`` = 2 per man + 3 per king (App. C's credit):

    PA = piece_weight · (c_S − c_O) · (2 − (c_S + c_O) / 48)

The difference ``c_S − c_O`` values a king at 3/2 of a man; the factor grows from 1 at the full board (48
credits) towards 2 as material comes off, so an even trade raises the advantage of the side ahead and
deepens the deficit of the side behind — trading down when ahead, avoiding it when behind — and a
three-men-for-two-kings trade keeps the difference (Samuel: "the program will trade three men for two
kings").  ``piece_weight`` defaults to 2**20 per credit (a man is 2**21), above Samuel's largest term
coefficient 2**18.

The score is credited to the side that has just moved (the passive side of the board); a search turns it
to the side to move's view by negation.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np
from numba import njit

from ..games.checkers_bitboard import credit
from ..games.checkers_features import (
    CENT,
    DENY,
    MOB,
    MOBIL,
    N_PARAMS,
    PARAMS,
    parameters,
    scratch,
)

CONNECTIVES = (
    ("DENY", "MOB", ("DEMO", "DEMMO", "DDEMO", "DDMM")),
    ("MOBIL", "DENY", ("MODE1", "MODE2", "MODE3", "MODE4")),
    ("MOBIL", "CENT", ("MOC1", "MOC3", "MOC2", "MOC4")),
)
TERMS: tuple[str, ...] = PARAMS + tuple(n for _, _, names in CONNECTIVES for n in names)
N_TERMS = len(TERMS)
N_SIMPLE = N_PARAMS
#: (A, B) parameter indices of each connective group, in :data:`CONNECTIVES` order
PAIRS = np.array([[DENY, MOB], [MOBIL, DENY], [MOBIL, CENT]], dtype=np.int64)
PAIRS.setflags(write=False)
CONSTRUCTIONS = ("samuel", "static")
SAMUEL, STATIC = 0, 1
FULL_BOARD_CREDIT = 48.0
#: Samuel's polynomial after 42 games (1959, the table of the first 12 terms): sign · 2**power.  Signs refer to
#: his readings of the terms; they are data from the paper, not tuned for ours.
SAMUEL_42_GAMES: dict[str, float] = {
    "MOC2": -(2.0**18),
    "KCENT": 2.0**16,
    "MOC4": -(2.0**14),
    "MODE3": -(2.0**13),
    "DEMMO": -(2.0**11),
    "MOVE": 2.0**8,
    "ADV": -(2.0**8),
    "MODE2": -(2.0**8),
    "BACK": -(2.0**6),
    "CNTR": 2.0**5,
    "THRET": 2.0**5,
    "MOC3": 2.0**4,
}


@njit(cache=True, inline="always")
def piece_advantage(c_s: int, c_o: int, piece_weight: float) -> float:
    """Piece advantage of a side with credit ``c_s`` against ``c_o`` (see the module docstring)."""
    return piece_weight * (c_s - c_o) * (2.0 - (c_s + c_o) / FULL_BOARD_CREDIT)


@njit(cache=True)
def natural_params(bm: int, bk: int, wm: int, wk: int, side: int, out: np.ndarray, buf: np.ndarray, need: int):
    """The parameters of a board rated for its own passive side (the side that has just moved, ``1 − side``)."""
    parameters(bm, bk, wm, wk, 1 - side, out, buf, need)


@njit(cache=True)
def make_terms(mine: np.ndarray, other: np.ndarray, out: np.ndarray) -> None:
    """All :data:`N_TERMS` terms into ``out`` from the passive side's ratings ``mine`` and the other side's
    ratings ``other`` (on the board before the move, or on the same board for the static construction)."""
    for k in range(N_SIMPLE):
        out[k] = mine[k] - other[k]
    j = N_SIMPLE
    for g in range(PAIRS.shape[0]):
        a = out[PAIRS[g, 0]] > 0.0
        b = out[PAIRS[g, 1]] > 0.0
        out[j] = 1.0 if (a and b) else 0.0
        out[j + 1] = 1.0 if (a and not b) else 0.0
        out[j + 2] = 1.0 if (b and not a) else 0.0
        out[j + 3] = 1.0 if not (a or b) else 0.0
        j += 4


@njit(cache=True)
def score(
    bm: int,
    bk: int,
    wm: int,
    wk: int,
    side: int,
    parent_params: np.ndarray,
    weights: np.ndarray,
    piece_weight: float,
    construction: int,
    need: int,
    params: np.ndarray,
    other: np.ndarray,
    terms: np.ndarray,
    buf: np.ndarray,
) -> float:
    """The polynomial's score of a board (``side`` to move) for the side that has just moved.

    ``parent_params``: the parent board's :func:`natural_params` (Samuel's construction); on return
    ``params`` holds this board's natural parameters and ``terms`` its terms (when ``need`` ≠ 0).
    ``other``, ``buf``: scratch.  ``need`` = 0 (no weight set) skips the terms: piece advantage only."""
    passive = 1 - side
    if passive == 0:
        v = piece_advantage(credit(bm, bk), credit(wm, wk), piece_weight)
    else:
        v = piece_advantage(credit(wm, wk), credit(bm, bk), piece_weight)
    if need == 0:
        return v
    parameters(bm, bk, wm, wk, passive, params, buf, need)
    if construction == SAMUEL:
        make_terms(params, parent_params, terms)
    else:
        parameters(bm, bk, wm, wk, side, other, buf, need)
        make_terms(params, other, terms)
    for k in range(N_TERMS):
        w = weights[k]
        if w != 0.0:
            v += w * terms[k]
    return v


# ----------------------------------------------------------------------------- the weight set


def need_mask(weights: np.ndarray) -> int:
    """The parameters (bit mask over :data:`~tdbook.games.checkers_features.PARAMS`) a weight vector uses."""
    need = 0
    for k in np.flatnonzero(weights):
        if k < N_SIMPLE:
            need |= 1 << int(k)
        else:
            a, b = PAIRS[(k - N_SIMPLE) // 4]
            need |= (1 << int(a)) | (1 << int(b))
    return need


@dataclass(frozen=True)
class Polynomial:
    """A scoring polynomial: ``weights`` by term name (absent terms are 0 = not in the polynomial), the
    fixed ``piece_weight`` (per credit) and the term ``construction`` (``"samuel"`` or ``"static"``).

    ``Polynomial()`` (no terms) is the material-only evaluation."""

    weights: Mapping[str, float] = field(default_factory=dict)
    piece_weight: float = 2.0**20
    construction: str = "samuel"

    def __post_init__(self) -> None:
        bad = [k for k in self.weights if k not in TERMS]
        if bad:
            raise ValueError(f"unknown term(s) {bad}; terms are: {', '.join(TERMS)}")
        for k, w in self.weights.items():
            if not np.isfinite(float(w)):
                raise ValueError(f"weight of {k} must be a finite number, got {w!r}")
        if self.construction not in CONSTRUCTIONS:
            raise ValueError(f"construction must be one of {CONSTRUCTIONS}, got {self.construction!r}")
        if not (np.isfinite(self.piece_weight) and self.piece_weight > 0):
            raise ValueError(f"piece_weight must be a positive number, got {self.piece_weight!r}")
        object.__setattr__(self, "weights", {k: float(v) for k, v in self.weights.items()})

    @property
    def vector(self) -> np.ndarray:
        """float64[N_TERMS] in :data:`TERMS` order."""
        w = np.zeros(N_TERMS, dtype=np.float64)
        for k, v in self.weights.items():
            w[TERMS.index(k)] = v
        return w

    @property
    def need(self) -> int:
        return need_mask(self.vector)

    @property
    def construction_code(self) -> int:
        return CONSTRUCTIONS.index(self.construction)


class Scorer:
    """Python access to :func:`score` for one polynomial (tests, notebooks): holds the scratch arrays."""

    def __init__(self, poly: Polynomial) -> None:
        self.poly = poly
        self.w = poly.vector
        self.need = poly.need
        self.params = np.zeros(N_PARAMS)
        self.parent = np.zeros(N_PARAMS)
        self.other = np.zeros(N_PARAMS)
        self.terms = np.zeros(N_TERMS)
        self.buf = scratch()

    def __call__(self, words, side: int, parent=None) -> float:
        """Score of the board ``words`` (``side`` to move) for the side that has just moved; ``parent`` =
        ``(words, side)`` of the board before the move (needed for Samuel's construction)."""
        if self.poly.construction == "samuel" and self.need:
            if parent is None:
                raise ValueError("Samuel's construction needs the board before the move (parent=(words, side))")
            natural_params(*parent[0], parent[1], self.parent, self.buf, self.need)
        return float(
            score(
                *words,
                side,
                self.parent,
                self.w,
                self.poly.piece_weight,
                self.poly.construction_code,
                self.need,
                self.params,
                self.other,
                self.terms,
                self.buf,
            )
        )

    def terms_of(self, words, side: int, parent=None) -> dict[str, float]:
        """Every term's value (all parameters computed) for the board, as for :meth:`__call__`."""
        full = Scorer(Polynomial(dict.fromkeys(TERMS, 1.0), self.poly.piece_weight, self.poly.construction))
        full(words, side, parent)
        return dict(zip(TERMS, full.terms.tolist()))
