"""Samuel's signature tables for checkers (Samuel (1973 note); Samuel 1967): the 27 terms, their
quantization into 7, 5 or 3 levels, their assignment to the 9 first-level tables, and the tables'
evaluation of a board — the checkers side of :mod:`tdbook.learners.signature_table`.

**The 27 input terms** are the simple terms of :mod:`tdbook.learners.checkers_polynomial` (the 26 Appendix C
parameters of Samuel 1959 and MOMENT, our reading of his "second moment" term), built the same way:
the rating of the side that has just moved on this board minus the other side's rating on the board before
the move (Samuel 1959 App. C).  Piece advantage is not among them: as in the polynomial it stays a fixed
term outside the learned part (the note's 27 inputs are the learned part).

**Quantization and assignment** — the note prints neither (Samuel 1967 gives them; we could not consult
it); our documented procedure, all on the *training* rows only:

1. *levels*: the terms are ranked by the number of distinct values they take; the 9 with the most get 7
   levels, the next 9 get 5, the last 9 get 3 (a two-valued term such as BACK cannot use 7 levels) — or
   any other three level counts (``classes``; 0 = every distinct value its own level, i.e. unquantized);
2. *thresholds*: equal-frequency bins on the training rows, cut between distinct values (:func:`cut_points`);
   a term with fewer distinct values than levels uses fewer;
3. *grouping* ("group terms that interact"): the 7-level terms in the order of their own agreement
   coefficient |C_k| (:func:`tdbook.learners.book_learning.term_agreement`) each take the unassigned 5-level
   term most correlated with it (|Pearson r| over the training rows), then the unassigned 3-level term most
   correlated with either.

The control (``assignment="random"``): the same levels, terms grouped at random within each level class
(seeded).  The same grouping under other level counts (``classes``) isolates what quantization costs.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from ..games.checkers_bitboard import BUF_COLS, BUF_ROWS, legal_moves, play
from ..games.checkers_features import N_PARAMS, PARAMS, parameters
from .book_learning import alternatives, preferred_mask, term_agreement
from .checkers_polynomial import natural_params
from .signature_table import Arrangement, SignatureTables, root_cached

N_TERMS = N_PARAMS
TERM_NAMES = PARAMS
LEVEL_CLASSES = (7, 5, 3)


# ----------------------------------------------------------------------------- terms of every legal move


@njit(cache=True)
def move_terms(
    bm: int, bk: int, wm: int, wk: int, side: int, static: bool, out: np.ndarray, buf: np.ndarray, fbuf: np.ndarray
) -> int:
    """The 27 terms of the board after each legal move of the position, in
    :func:`~tdbook.games.checkers_bitboard.legal_moves` order, into ``out[:n]``; returns n.  Samuel's
    construction (``static`` False): the mover's rating after the move minus the opponent's rating before it;
    ``static``: the mover's rating minus the opponent's, both on the board after the move."""
    other = np.zeros(N_PARAMS)
    child = np.zeros(N_PARAMS)
    if not static:
        natural_params(bm, bk, wm, wk, side, other, fbuf, (1 << N_PARAMS) - 1)
    n = legal_moves(bm, bk, wm, wk, side, buf)
    for i in range(n):
        c0, c1, c2, c3 = play(bm, bk, wm, wk, side, buf[i])
        natural_params(c0, c1, c2, c3, 1 - side, child, fbuf, (1 << N_PARAMS) - 1)
        if static:
            parameters(c0, c1, c2, c3, 1 - side, other, fbuf, (1 << N_PARAMS) - 1)
        for k in range(N_PARAMS):
            out[i, k] = child[k] - other[k]
    return n


@njit(cache=True)
def _book_terms(words, side, n_moves, static, X, starts):
    buf = np.zeros((BUF_ROWS, BUF_COLS), dtype=np.int64)
    fbuf = np.zeros((2, BUF_ROWS, BUF_COLS), dtype=np.int64)
    tmp = np.zeros((BUF_ROWS, N_PARAMS))
    r = 0
    for g in range(words.shape[0]):
        starts[g] = r
        n = move_terms(words[g, 0], words[g, 1], words[g, 2], words[g, 3], side[g], static, tmp, buf, fbuf)
        if n != n_moves[g]:
            return g
        for i in range(n):
            for k in range(N_PARAMS):
                X[r + i, k] = tmp[i, k]
        r += n
    starts[words.shape[0]] = r
    return -1


def book_terms(
    words: np.ndarray, side: np.ndarray, n_moves: np.ndarray, construction: str = "samuel"
) -> tuple[np.ndarray, np.ndarray]:
    """Term rows of every legal move of every position: ``(X float64[rows, 27], starts int64[n + 1])``, by
    ``construction`` ``"samuel"`` or ``"static"`` (:func:`move_terms`); ValueError if a position's move count
    differs from ``n_moves``."""
    if construction not in ("samuel", "static"):
        raise ValueError(f"construction must be 'samuel' or 'static', got {construction!r}")
    w = np.ascontiguousarray(words, dtype=np.int64)
    nm = np.asarray(n_moves, dtype=np.int64)
    X = np.zeros((int(nm.sum()), N_PARAMS))
    starts = np.zeros(len(nm) + 1, dtype=np.int64)
    bad = _book_terms(w, np.asarray(side, dtype=np.int64), nm, construction == "static", X, starts)
    if bad >= 0:
        raise ValueError(f"position {bad} does not have the {int(nm[bad])} legal moves its record says")
    return X, starts


# ----------------------------------------------------------------------------- quantization


HALF_SPAN = 8192  # distinct halves a column may span for counting (wider: sorting)


@njit(cache=True)
def _half_range(X, lo, hi) -> bool:
    """Each column's least and greatest doubled value; False if a value is not a multiple of ½."""
    for j in range(X.shape[1]):
        lo[j] = np.inf
        hi[j] = -np.inf
    for r in range(X.shape[0]):
        for j in range(X.shape[1]):
            h = 2.0 * X[r, j]
            if h != np.floor(h):
                return False
            lo[j] = min(lo[j], h)
            hi[j] = max(hi[j], h)
    return True


@njit(cache=True)
def _half_hist(X, lo, out) -> None:
    for r in range(X.shape[0]):
        for j in range(X.shape[1]):
            out[j, int(2.0 * X[r, j] - lo[j])] += 1


def column_value_counts(X: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
    """:func:`value_counts` of every column of ``X`` in one pass over its rows when every value is a
    multiple of ½ within a narrow range (every term is), else column by column."""
    X = np.ascontiguousarray(X, dtype=np.float64)
    m = X.shape[1]
    lo, hi = np.zeros(m), np.zeros(m)
    if X.shape[0] == 0 or not _half_range(X, lo, hi) or np.max(hi - lo) >= HALF_SPAN:
        return [value_counts(X[:, j]) for j in range(m)]
    hist = np.zeros((m, int(np.max(hi - lo)) + 1), dtype=np.int64)
    _half_hist(X, lo, hist)
    out = []
    for j in range(m):
        nz = np.flatnonzero(hist[j])
        out.append(((nz + lo[j]) / 2.0, hist[j, nz]))
    return out


def value_counts(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(distinct values, how often each occurs)`` of a column, ascending."""
    return np.unique(np.asarray(values, dtype=np.float64), return_counts=True)


@njit(cache=True)
def _comoments(X, out) -> None:
    """Sum over rows of (x_i − mean_i)(x_j − mean_j), rows in order (the same bits on every machine)."""
    m = X.shape[1]
    mean = np.zeros(m)
    for r in range(X.shape[0]):
        for i in range(m):
            mean[i] += X[r, i]
    for i in range(m):
        mean[i] /= max(1, X.shape[0])
    d = np.zeros(m)
    for r in range(X.shape[0]):
        for i in range(m):
            d[i] = X[r, i] - mean[i]
        for i in range(m):
            for j in range(i + 1):
                out[i, j] += d[i] * d[j]
    for i in range(m):
        for j in range(i):
            out[j, i] = out[i, j]


def abs_correlations(X: np.ndarray) -> np.ndarray:
    """|Pearson r| between the columns of ``X`` (0 for a constant column), summed in a fixed order."""
    X = np.ascontiguousarray(X, dtype=np.float64)
    cm = np.zeros((X.shape[1], X.shape[1]))
    _comoments(X, cm)
    sd = np.sqrt(np.diag(cm))
    with np.errstate(invalid="ignore", divide="ignore"):
        r = cm / np.outer(sd, sd)
    return np.abs(np.nan_to_num(r))


def cut_points(values: np.ndarray, levels: int) -> np.ndarray:
    """Up to ``levels − 1`` thresholds (midway between distinct values) giving bins of as equal frequency as
    the distinct values allow; a value's level is the number of thresholds below it."""
    return cuts_of_counts(*value_counts(values), levels)


def cuts_of_counts(u: np.ndarray, cnt: np.ndarray, levels: int) -> np.ndarray:
    """:func:`cut_points` of a column given as its distinct values ``u`` (ascending) and their counts."""
    if u.size <= levels:
        return (u[:-1] + u[1:]) / 2.0
    cum = np.cumsum(cnt) / cnt.sum()
    cuts: list[int] = []
    for j in range(1, levels):
        i = int(np.argmin(np.abs(cum[:-1] - j / levels)))
        if (not cuts or i > cuts[-1]) and i < u.size - 1:
            cuts.append(i)
    return np.array([(u[i] + u[i + 1]) / 2.0 for i in cuts])


@njit(cache=True)
def quantize_kernel(X, slot_term, thr, n_thr, out):
    """Levels of the term rows ``X`` for each input slot: ``out[r, s]`` = number of thresholds of slot ``s``
    below ``X[r, slot_term[s]]``."""
    for r in range(X.shape[0]):
        for s in range(slot_term.size):
            x = X[r, slot_term[s]]
            lev = 0
            for j in range(n_thr[s]):
                if x > thr[s, j]:
                    lev += 1
            out[r, s] = lev


@dataclass(frozen=True)
class Layout:
    """Which term feeds each input slot of :meth:`Arrangement.samuel` (slot ``3t + c`` is column ``c`` of
    first-level table ``t``: its 7-, 5- and 3-level term) and each slot's quantization thresholds."""

    slot_term: tuple[int, ...]
    thresholds: tuple[tuple[float, ...], ...]
    assignment: str = "interaction"
    classes: tuple[int, int, int] = LEVEL_CLASSES

    @property
    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        st = np.array(self.slot_term, dtype=np.int64)
        width = max(1, max(len(t) for t in self.thresholds))
        thr = np.full((len(st), width), np.inf)
        n = np.zeros(len(st), dtype=np.int64)
        for s, t in enumerate(self.thresholds):
            thr[s, : len(t)] = t
            n[s] = len(t)
        return st, thr, n

    def quantize(self, X: np.ndarray) -> np.ndarray:
        """Input levels (int8[rows, 27], int16 past 127 levels) of term rows ``X``."""
        st, thr, n = self.arrays
        out = np.zeros((len(X), len(st)), dtype=np.int8 if n.max() < 127 else np.int16)
        quantize_kernel(np.ascontiguousarray(X, dtype=np.float64), st, thr, n, out)
        return out

    def groups(self) -> list[tuple[str, str, str]]:
        """The 9 first-level tables' terms by name (7-, 5-, 3-level)."""
        return [tuple(TERM_NAMES[self.slot_term[3 * t + c]] for c in range(3)) for t in range(9)]

    def levels_used(self) -> tuple[int, ...]:
        """Levels each slot's thresholds actually make (≤ its class's 7, 5 or 3)."""
        return tuple(len(t) + 1 for t in self.thresholds)

    def input_levels(self) -> tuple[int, ...]:
        """Levels of each slot as the tables see them: its class's count (7, 5, 3 in Samuel's layout, whether
        or not the term takes that many values), or the levels it uses when the class is 0 (unquantized)."""
        used = self.levels_used()
        return tuple(self.classes[s % 3] or used[s] for s in range(len(self.slot_term)))


def level_classes(X: np.ndarray, counts: list | None = None) -> tuple[list[int], list[int], list[int]]:
    """Step 1: the terms getting 7, 5 and 3 levels (most distinct values first; ties by term order)."""
    counts = counts or column_value_counts(X)
    distinct = [u.size for u, _ in counts]
    order = sorted(range(N_TERMS), key=lambda k: (-distinct[k], k))
    return order[:9], order[9:18], order[18:]


def layout(
    X: np.ndarray,
    starts: np.ndarray,
    pref: np.ndarray,
    assignment: str = "interaction",
    seed: int = 0,
    classes: tuple[int, int, int] = LEVEL_CLASSES,
) -> Layout:
    """The documented quantization and assignment of the module docstring, from training rows only;
    ``assignment="random"`` groups at random within the level classes (seeded); ``classes``: the levels of the
    three slots of every first-level table (0 = every distinct value)."""
    if assignment not in ("interaction", "random"):
        raise ValueError(f"assignment must be 'interaction' or 'random', got {assignment!r}")
    classes = tuple(int(c) for c in classes)
    if len(classes) != 3 or any(c == 1 or c < 0 for c in classes):
        raise ValueError(f"classes must be three level counts >= 2 (or 0 for unquantized), got {classes!r}")
    X = np.asarray(X, dtype=np.float64)
    counts = column_value_counts(X)
    seven, five, three = level_classes(X, counts)
    if assignment == "random":
        rng = np.random.default_rng([seed, 73])
        groups = list(zip(rng.permutation(seven), rng.permutation(five), rng.permutation(three)))
    else:
        c = np.abs(term_agreement(X, starts, pref))
        r = abs_correlations(X)
        left5, left3 = list(five), list(three)
        groups = []
        for a in sorted(seven, key=lambda k: (-c[k], k)):
            b = max(left5, key=lambda k: (r[a, k], -k))
            left5.remove(b)
            z = max(left3, key=lambda k: (max(r[a, k], r[b, k]), -k))
            left3.remove(z)
            groups.append((a, b, z))
    slot_term = tuple(int(k) for g in groups for k in g)
    thr = tuple(
        tuple(float(v) for v in cuts_of_counts(*counts[k], classes[s % 3] or counts[k][0].size))
        for s, k in enumerate(slot_term)
    )
    return Layout(slot_term, thr, assignment, classes)


# ----------------------------------------------------------------------------- evaluating a board


@njit(cache=True)
def board_value(
    bm, bk, wm, wk, side, parent_params, params, terms, fbuf, slot_term, thr, n_thr, levels, tabs, out
) -> float:
    """The root table's C for a board (``side`` to move) credited to the side that has just moved, given the
    parent board's natural parameters (Samuel's construction); ``tabs`` = the tables' kernel arrays
    ``(rptr, rnode, rstride, offsets, elev, cval)`` (:meth:`SignatureTables.kernel_tables`); scratch ``params``,
    ``terms`` (float64[1, 27]), ``levels`` (int64[1, 27]), ``out`` (float64[1])."""
    natural_params(bm, bk, wm, wk, side, params, fbuf, (1 << N_PARAMS) - 1)
    for k in range(N_PARAMS):
        terms[0, k] = params[k] - parent_params[k]
    quantize_kernel(terms, slot_term, thr, n_thr, levels)
    rptr, rnode, rstride, offsets, elev, cv = tabs
    root_cached(levels, rptr, rnode, rstride, offsets, elev, cv, out)
    return out[0]


@dataclass
class CheckersTables:
    """Trained checkers signature tables: the :class:`Layout` (terms → slots, thresholds) and the
    :class:`~tdbook.learners.signature_table.SignatureTables` over :meth:`Arrangement.samuel`."""

    layout: Layout
    tables: SignatureTables

    def kernel_arrays(self) -> tuple:
        """``(slot_term, thr, n_thr, tabs)`` for :func:`board_value`."""
        st, thr, n = self.layout.arrays
        return st, thr, n, self.tables.kernel_tables()

    def value(self, X: np.ndarray) -> np.ndarray:
        """The figure of merit of term rows ``X``."""
        return self.tables.value(self.layout.quantize(X))


def train_tables(
    X: np.ndarray,
    starts: np.ndarray,
    pref: np.ndarray,
    *,
    assignment: str = "interaction",
    rule: str = "plain",
    mode: str = "stagewise",
    requant: str = "equal",
    prior: float = 0.0,
    first_levels: int = 5,
    second_levels: int = 7,
    classes: tuple[int, int, int] = LEVEL_CLASSES,
    seed: int = 0,
) -> CheckersTables:
    """Lay out the 27 terms (:func:`layout`) and train Samuel's 27 → 9 → 3 → 1 tables on a book set (the
    defaults are the note's: 7, 5, 3 input levels, outputs to 5 levels, plain A/D counts, C = (A − D)/(A + D))."""
    lay = layout(X, starts, pref, assignment, seed, classes)
    arr = Arrangement.samuel(first_levels, second_levels, lay.input_levels())
    st = SignatureTables.fit(
        arr, lay.quantize(X), preferred_mask(starts, pref), alternatives(starts), rule, mode, requant, prior
    )
    return CheckersTables(lay, st)
