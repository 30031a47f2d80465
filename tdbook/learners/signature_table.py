"""Signature tables (Samuel (1973 note); Samuel 1967): a tree of look-up tables, each over a few quantized
inputs, trained by counting — game-agnostic.

**Arrangement** (:class:`Arrangement`).  ``input_levels[i]`` is the number of levels of input ``i`` (an input
is an integer level ``0 … L−1``).  Table ``t`` reads the nodes ``tables[t]``: node ``j < n_inputs`` is input
``j``, node ``n_inputs + u`` is the output of table ``u < t``, requantized to ``output_levels[u]`` levels.
Every node is read by exactly one table (a tree) and the last table is the root, whose output is the
figure of merit.  A table "has an entry for every possible combination of the input vector" (Samuel (1973
note)): its size is the product of its inputs' levels.  :meth:`Arrangement.samuel` is the note's Fig. 1:
27 inputs of 7, 5 and 3 levels, 9 first-level tables of 7·5·3 = 105 entries, outputs requantized to 5
levels into 3 second-level tables (125 entries), their outputs requantized to ``second_levels`` levels into
one third-level table (7³ = 343 entries with the default 7).

**Training is counting** (Samuel (1973 note): "Count A is incremented when the current input vector
represents a prefered move and count D is incremented when it is not").  A training stream is a list of
input vectors, each flagged preferred or not, with ``k`` = the number of non-preferred alternatives the
preferred move was chosen from.  The book/non-book imbalance rule (``rule``; the note counts one A per
preferred vector and one D per other vector and says nothing of the imbalance between them):

- ``"plain"``: A += 1 for a preferred vector, D += 1 for a non-preferred one (the note as written; the default);
- ``"a_k"``: A += k, D += 1 (a preferred move weighs as much as all its alternatives together);
- ``"d_over_k"``: A += 1, D += 1/k (the same balance, by shrinking the alternatives).

Every table counts the signature it sees for every vector.  Output of an entry: C = (A − D)/(A + D + m)
with the prior ``m`` ≥ 0 pseudo-counts at C = 0 (``m`` = 0 is the note's C; an empty entry has C = 0 either
way).  C always lies in [−1, 1].

**Requantization** of a table's output for the table above (``requant``): ``"fixed"`` thresholds split
[−1, 1] into equal widths; ``"equal"`` thresholds are the equal-frequency quantiles of the table's outputs
over the training stream.  A level is the number of thresholds strictly below the value.  The quantiles need
no stored samples: every entry also counts the rows that reached it (``n``), and the outputs over the stream
are the entries' C weighted by those counts (:meth:`SignatureTables.count_thresholds`).

**Upper tables** (``mode``): ``"stagewise"`` trains the tables level by level — the first-level tables on
the inputs, then each upper table on the requantized outputs of the already-trained tables below — one pass
over the stream per level, each pass reading it in order, one vector at a time
(:meth:`SignatureTables.fit_stream` takes the stream in chunks); the result does not depend on the order of the
stream (the counts are sums; with ``"d_over_k"`` up to the last bits of a float sum).  ``"online"`` trains all
tables in one pass, the upper tables seeing the lower tables' outputs as they stand when each vector arrives
(so the order matters; fixed thresholds only).

Counting and evaluation are jitted kernels over numpy arrays (:func:`count_kernel`, :func:`forward_kernel`,
:func:`root_cached`).
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np
from numba import njit

RULES = ("plain", "a_k", "d_over_k")
MODES = ("stagewise", "online")
REQUANT = ("fixed", "equal")


class TreeArrays(NamedTuple):
    """How the kernels walk an arrangement (:meth:`Arrangement.arrays`): table t reads the nodes
    ``rnode[rptr[t]:rptr[t+1]]`` with the mixed-radix strides ``rstride[…]``; ``offsets[t]`` is where it starts in
    the flat count arrays; ``node_levels`` as :attr:`Arrangement.node_levels`."""

    rptr: np.ndarray
    rnode: np.ndarray
    rstride: np.ndarray
    offsets: np.ndarray
    node_levels: np.ndarray


@dataclass(frozen=True)
class Arrangement:
    """A tree of signature tables (see the module docstring)."""

    input_levels: tuple[int, ...]
    tables: tuple[tuple[int, ...], ...]
    output_levels: tuple[int, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "input_levels", tuple(int(v) for v in self.input_levels))
        object.__setattr__(self, "tables", tuple(tuple(int(v) for v in t) for t in self.tables))
        object.__setattr__(self, "output_levels", tuple(int(v) for v in self.output_levels))
        n, nt = len(self.input_levels), len(self.tables)
        if n < 1 or nt < 1:
            raise ValueError("an arrangement needs at least one input and one table")
        if any(v < 1 for v in self.input_levels):
            raise ValueError(f"every input needs at least 1 level, got {self.input_levels}")
        if len(self.output_levels) != nt:
            raise ValueError(f"output_levels needs one entry per table ({nt}), got {len(self.output_levels)}")
        if any(v < 1 for v in self.output_levels[:-1]):
            raise ValueError(f"every non-root table's output needs at least 1 level, got {self.output_levels}")
        seen: set[int] = set()
        for t, ins in enumerate(self.tables):
            if not ins:
                raise ValueError(f"table {t} reads no input")
            for j in ins:
                if not 0 <= j < n + t:
                    raise ValueError(
                        f"table {t} reads node {j}: a table reads inputs 0..{n - 1} or outputs of earlier tables"
                    )
                if j in seen:
                    raise ValueError(f"node {j} is read by two tables: an arrangement is a tree")
                seen.add(j)
        unread = sorted(set(range(n + nt - 1)) - seen)
        if unread:
            raise ValueError(f"nodes {unread} are read by no table (every input and non-root table feeds one)")

    @classmethod
    def samuel(
        cls, first_levels: int = 5, second_levels: int = 7, input_levels: tuple[int, ...] = (7, 5, 3) * 9
    ) -> Arrangement:
        """Samuel (1973 note) Fig. 1: inputs ``3t, 3t+1, 3t+2`` (7, 5, 3 levels; ``input_levels`` for another
        quantization) → first-level table ``t`` (t = 0…8) → requantized to ``first_levels`` → 3 second-level
        tables over tables (0,1,2), (3,4,5), (6,7,8) → requantized to ``second_levels`` → the third-level table."""
        if len(input_levels) != 27:
            raise ValueError(f"Samuel's arrangement reads 27 inputs, got {len(input_levels)} input levels")
        tables = [(3 * t, 3 * t + 1, 3 * t + 2) for t in range(9)]
        tables += [(27 + 3 * s, 28 + 3 * s, 29 + 3 * s) for s in range(3)]
        tables += [(36, 37, 38)]
        return cls(tuple(input_levels), tuple(tables), (first_levels,) * 9 + (second_levels,) * 3 + (1,))

    @property
    def n_inputs(self) -> int:
        return len(self.input_levels)

    @property
    def n_tables(self) -> int:
        return len(self.tables)

    @property
    def node_levels(self) -> tuple[int, ...]:
        """Levels of every node as its reader sees it (inputs, then requantized table outputs)."""
        return self.input_levels + self.output_levels

    @property
    def sizes(self) -> tuple[int, ...]:
        """Entries of each table (the product of its inputs' levels)."""
        lv = self.node_levels
        return tuple(math.prod(lv[j] for j in ins) for ins in self.tables)

    @property
    def entries(self) -> int:
        """Entries of all tables together."""
        return sum(self.sizes)

    @property
    def joint_entries(self) -> int:
        """Entries of one table over all the inputs at once (an exact Python int)."""
        return math.prod(self.input_levels)

    @property
    def depth(self) -> tuple[int, ...]:
        """Level of each table: 1 for a table over inputs only, else 1 + the deepest table it reads."""
        n, out = self.n_inputs, []
        for ins in self.tables:
            out.append(1 + max((out[j - n] for j in ins if j >= n), default=0))
        return tuple(out)

    def arrays(self) -> TreeArrays:
        """``(rptr, rnode, rstride, offsets, node_levels)`` for the kernels: table t reads the nodes
        ``rnode[rptr[t]:rptr[t+1]]`` with the mixed-radix strides ``rstride[…]``; ``offsets[t]`` is where it starts
        in the flat count arrays; ``node_levels`` as :attr:`node_levels`."""
        lv = self.node_levels
        rptr = np.zeros(self.n_tables + 1, dtype=np.int64)
        rnode, rstride = [], []
        for t, ins in enumerate(self.tables):
            s, st = 1, []
            for j in reversed(ins):
                st.append(s)
                s *= lv[j]
            rnode += list(ins)
            rstride += st[::-1]
            rptr[t + 1] = len(rnode)
        offsets = np.zeros(self.n_tables + 1, dtype=np.int64)
        offsets[1:] = np.cumsum(self.sizes)
        return TreeArrays(
            rptr,
            np.array(rnode, dtype=np.int64),
            np.array(rstride, dtype=np.int64),
            offsets,
            np.array(lv, dtype=np.int64),
        )


# ----------------------------------------------------------------------------- kernels


@njit(cache=True, inline="always")
def entry_value(a: float, d: float, prior: float) -> float:
    """C = (A − D)/(A + D + prior); 0 for an empty entry."""
    s = a + d + prior
    return (a - d) / s if s > 0.0 else 0.0


@njit(cache=True, inline="always")
def level_of(c: float, thresholds: np.ndarray, t: int, n_thr: int) -> int:
    """Requantized level of table ``t``'s output ``c``: the number of its thresholds strictly below ``c``."""
    lev = 0
    for j in range(n_thr):
        if c > thresholds[t, j]:
            lev += 1
    return lev


@njit(cache=True, inline="always")
def _entry(node, t, rptr, rnode, rstride, offsets) -> int:
    """Flat index of table ``t``'s entry given every node's level in ``node`` (inputs, then table outputs)."""
    e = offsets[t]
    for q in range(rptr[t], rptr[t + 1]):
        e += rstride[q] * node[rnode[q]]
    return e


@njit(cache=True)
def forward_kernel(X, rptr, rnode, rstride, offsets, node_levels, a, d, prior, thresholds, out):
    """Every table's output C for every row of ``X`` into ``out`` (float64[n, n_tables]); the root is the last
    column."""
    nt = offsets.size - 1
    n_in = X.shape[1]
    node = np.zeros(n_in + nt, dtype=np.int64)
    for r in range(X.shape[0]):
        for j in range(n_in):
            node[j] = X[r, j]
        for t in range(nt):
            e = _entry(node, t, rptr, rnode, rstride, offsets)
            cv = entry_value(a[e], d[e], prior)
            out[r, t] = cv
            node[n_in + t] = level_of(cv, thresholds, t, node_levels[n_in + t] - 1)


@njit(cache=True)
def entry_tables(a, d, prior, thresholds, offsets, node_levels, n_in, cval, elev) -> None:
    """Every entry's C (``cval``) and requantized level (``elev``) — the tables as the level above reads them."""
    nt = offsets.size - 1
    for t in range(nt):
        for e in range(offsets[t], offsets[t + 1]):
            c = entry_value(a[e], d[e], prior)
            cval[e] = c
            elev[e] = level_of(c, thresholds, t, node_levels[n_in + t] - 1)


@njit(cache=True)
def count_kernel(X, wa, wd, tree, a, d, rows, prior, thresholds, elev, memo, lo, hi, tdepth):
    """Add the stream ``X`` (int[n, n_inputs] levels) to the counts ``a``/``d`` of the tables whose depth lies in
    ``lo … hi``: row ``r`` adds ``wa[r]`` to A and ``wd[r]`` to D (one of them is 0) and 1 to the entry's row
    count ``rows``.  With one depth
    (``lo == hi``, stagewise) the lower tables are final and read through their cached levels ``elev``; with
    several (online) every table's output is recomputed from the counts as each vector arrives.  ``memo``
    (int8[n, n_tables], or empty): the levels of the tables below, kept from one stagewise pass to the next.
    ``tree``: the arrangement's :class:`TreeArrays`."""
    rptr, rnode, rstride, offsets, node_levels = tree
    nt = offsets.size - 1
    n_in = X.shape[1]
    node = np.zeros(n_in + nt, dtype=np.int64)
    last = -1
    for t in range(nt):
        if tdepth[t] <= hi:
            last = t
    cached = lo == hi
    use_memo = cached and memo.shape[0] == X.shape[0]
    for r in range(X.shape[0]):
        for j in range(n_in):
            node[j] = X[r, j]
        for t in range(last + 1):
            if use_memo and tdepth[t] < lo - 1:  # computed in an earlier pass
                node[n_in + t] = memo[r, t]
                continue
            e = _entry(node, t, rptr, rnode, rstride, offsets)
            if lo <= tdepth[t] <= hi:  # adding the 0 of the other count changes nothing (branch-free)
                a[e] += wa[r]
                d[e] += wd[r]
                rows[e] += 1.0
            if tdepth[t] < hi:  # its output is read above
                if cached:
                    node[n_in + t] = elev[e]
                    if use_memo:
                        memo[r, t] = elev[e]
                else:
                    node[n_in + t] = level_of(entry_value(a[e], d[e], prior), thresholds, t, node_levels[n_in + t] - 1)


@njit(cache=True)
def root_cached(X, rptr, rnode, rstride, offsets, elev, cval, out):
    """The figure of merit of every row of ``X`` through the cached entry levels and values."""
    nt = offsets.size - 1
    n_in = X.shape[1]
    node = np.zeros(n_in + nt, dtype=np.int64)
    for r in range(X.shape[0]):
        for j in range(n_in):
            node[j] = X[r, j]
        for t in range(nt - 1):
            node[n_in + t] = elev[_entry(node, t, rptr, rnode, rstride, offsets)]
        out[r] = cval[_entry(node, nt - 1, rptr, rnode, rstride, offsets)]


def count_signatures(
    arrangement: Arrangement, vectors: np.ndarray, preferred: np.ndarray, thresholds: list[list[float]]
) -> tuple[list[dict[tuple[int, ...], float]], list[dict[tuple[int, ...], float]]]:
    """The note's training in plain Python: counting A and D, level by level, with C = (A − D)/(A + D) as each table's
    output (Samuel (1973 note) ¶2–¶3; what :meth:`SignatureTables.fit` runs jitted with ``rule="plain"``, stagewise —
    ``tests/test_signature_table.py`` checks they give the same counts).

    ``vectors[r]`` are the quantized terms of the board a move leads to, ``preferred[r]`` whether it is the book move;
    ``thresholds[t]`` requantize table t's output for the table above.  Returns per table ``{signature: A}`` and
    ``{signature: D}``."""
    A = [defaultdict(float) for _ in arrangement.tables]
    D = [defaultdict(float) for _ in arrangement.tables]

    def correlation(t: int, signature: tuple[int, ...]) -> float:  # C; an entry never counted gives 0
        a, d = A[t][signature], D[t][signature]
        return (a - d) / (a + d) if a + d > 0 else 0.0

    for level in range(1, max(arrangement.depth) + 1):  # the first-level tables, then each level above them
        for x, book_move in zip(vectors, preferred):  # one pass over the stream, one vector at a time
            node = [int(v) for v in x]  # the terms, then each table's output requantized
            for t, inputs in enumerate(arrangement.tables):
                signature = tuple(node[j] for j in inputs)
                if arrangement.depth[t] == level:  # "Count A is incremented when … a prefered move", else D
                    (A if book_move else D)[t][signature] += 1.0
                node.append(sum(correlation(t, signature) > th for th in thresholds[t]))
    return A, D


@njit(cache=True)
def _out_of_range(X, levels) -> int:
    """The first row with an input outside ``0 … levels − 1``, or −1."""
    for r in range(X.shape[0]):
        for j in range(X.shape[1]):
            if X[r, j] < 0 or X[r, j] >= levels[j]:
                return r
    return -1


# ----------------------------------------------------------------------------- the learner


def imbalance_weights(preferred: np.ndarray, k: np.ndarray, rule: str) -> tuple[np.ndarray, np.ndarray]:
    """Per-row increments ``(wa, wd)`` under the imbalance ``rule`` (see the module docstring): ``wa`` > 0 on
    preferred rows only, ``wd`` > 0 on the others; ``k`` = alternatives the preferred move was chosen from."""
    if rule not in RULES:
        raise ValueError(f"rule must be one of {RULES}, got {rule!r}")
    pref = np.asarray(preferred, dtype=bool)
    kk = np.asarray(k, dtype=np.float64)
    if kk.shape != pref.shape or np.any(kk < 1):
        raise ValueError("k must give, for every row, the number (>= 1) of non-preferred alternatives")
    wa = np.where(pref, kk if rule == "a_k" else 1.0, 0.0)
    wd = np.where(pref, 0.0, 1.0 / kk if rule == "d_over_k" else 1.0)
    return wa, wd


def fixed_thresholds(levels: int) -> np.ndarray:
    """``levels − 1`` thresholds splitting [−1, 1] into equal widths."""
    return -1.0 + 2.0 * np.arange(1, levels) / levels


def equal_frequency_thresholds(values: np.ndarray, levels: int) -> np.ndarray:
    """``levels − 1`` non-decreasing thresholds at the ``j/levels`` quantiles of ``values`` (equal-frequency bins)."""
    v = np.asarray(values, dtype=np.float64)
    if v.size == 0:
        return fixed_thresholds(levels)
    return np.quantile(v, np.arange(1, levels) / levels, method="lower")


def weighted_thresholds(values: np.ndarray, weights: np.ndarray, levels: int) -> np.ndarray:
    """:func:`equal_frequency_thresholds` of a sample given as distinct ``values`` each seen ``weights`` times
    (whole numbers): the same thresholds, without the sample."""
    v = np.asarray(values, dtype=np.float64)
    w = np.asarray(weights, dtype=np.float64)
    total = float(w.sum())
    if total <= 0:
        return fixed_thresholds(levels)
    order = np.argsort(v, kind="stable")
    cum = np.cumsum(w[order])
    idx = np.floor((total - 1) * (np.arange(1, levels) / levels))  # numpy's "lower" virtual index
    return v[order][np.searchsorted(cum, idx, side="right")]


@dataclass
class SignatureTables:
    """A trained (or empty) arrangement of signature tables: the A and D counts of every entry, the number of
    rows that reached it (``n``), the prior and the requantization thresholds of every table output."""

    arrangement: Arrangement
    prior: float = 0.0
    a: np.ndarray = field(default=None)  # type: ignore[assignment]
    d: np.ndarray = field(default=None)  # type: ignore[assignment]
    thresholds: np.ndarray = field(default=None)  # type: ignore[assignment]
    n: np.ndarray = field(default=None)  # type: ignore[assignment]

    def __post_init__(self) -> None:
        if not (np.isfinite(self.prior) and self.prior >= 0):
            raise ValueError(f"prior must be a number >= 0, got {self.prior!r}")
        arr = self.arrangement
        for name in ("a", "d", "n"):
            if getattr(self, name) is None:
                setattr(self, name, np.zeros(arr.entries, dtype=np.float64))
            elif np.shape(getattr(self, name)) != (arr.entries,):
                raise ValueError(
                    f"{name} must hold one count per entry ({arr.entries}), got {np.shape(getattr(self, name))}"
                )
        if self.thresholds is None:
            width = max(1, max(arr.output_levels) - 1)
            self.thresholds = np.full((arr.n_tables, width), np.inf)
            for t, lv in enumerate(arr.output_levels):
                self.thresholds[t, : lv - 1] = fixed_thresholds(lv)
        self._arrays = arr.arrays()
        self._cache: tuple[np.ndarray, np.ndarray] | None = None

    def cached(self) -> tuple[np.ndarray, np.ndarray]:
        """``(cval, elev)``: every entry's C and requantized level (recomputed after counting)."""
        if self._cache is None:
            cval = np.zeros(self.arrangement.entries)
            elev = np.zeros(self.arrangement.entries, dtype=np.int64)
            _, _, _, offsets, node_levels = self._arrays
            entry_tables(self.a, self.d, self.prior, self.thresholds, offsets, node_levels,
                         self.arrangement.n_inputs, cval, elev)  # fmt: skip
            self._cache = (cval, elev)
        return self._cache

    def kernel_tables(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """``(rptr, rnode, rstride, offsets, elev, cval)`` for :func:`root_cached`."""
        cval, elev = self.cached()
        rptr, rnode, rstride, offsets, _ = self._arrays
        return rptr, rnode, rstride, offsets, elev, cval

    # -- evaluation
    def _check_x(self, X: np.ndarray) -> np.ndarray:
        lv = np.array(self.arrangement.input_levels)
        X = np.asarray(X)
        if X.ndim != 2 or X.shape[1] != lv.size or not np.issubdtype(X.dtype, np.integer):
            raise ValueError(f"inputs must be an int array [n, {lv.size}], got {X.dtype} of shape {X.shape}")
        X = np.ascontiguousarray(X)
        if X.size and _out_of_range(X, lv) >= 0:
            raise ValueError(f"an input level lies outside 0 … levels − 1 (levels {tuple(lv)})")
        return np.ascontiguousarray(X, dtype=np.int8 if lv.max() <= 127 else np.int64)

    def value(self, X: np.ndarray) -> np.ndarray:
        """The root table's output (the figure of merit) for each input vector."""
        X = self._check_x(X)
        out = np.zeros(X.shape[0])
        root_cached(X, *self.kernel_tables(), out)
        return out

    def outputs(self, X: np.ndarray) -> np.ndarray:
        """Every table's output for each input vector (float64[n, n_tables])."""
        X = self._check_x(X)
        out = np.zeros((X.shape[0], self.arrangement.n_tables))
        forward_kernel(X, *self._arrays, self.a, self.d, self.prior, self.thresholds, out)
        return out

    def _slice(self, t: int) -> slice:
        return slice(int(self._arrays[3][t]), int(self._arrays[3][t + 1]))

    def root_entries(self, X: np.ndarray) -> np.ndarray:
        """Index (within the root table) of the entry each input vector reaches."""
        _, elev = self.cached()
        rptr, rnode, rstride, offsets, _ = self._arrays
        idx = np.arange(self.arrangement.entries, dtype=np.float64)
        out = np.zeros(np.asarray(X).shape[0])
        root_cached(self._check_x(X), rptr, rnode, rstride, offsets, elev, idx, out)
        return out.astype(np.int64) - int(offsets[-2])

    def table_c(self, t: int) -> np.ndarray:
        """Table ``t``'s C for every entry, shaped by its inputs' levels."""
        arr = self.arrangement
        a, d = self.a[self._slice(t)], self.d[self._slice(t)]
        s = a + d + self.prior
        c = np.divide(a - d, s, out=np.zeros_like(a), where=s > 0)
        return c.reshape([arr.node_levels[j] for j in arr.tables[t]])

    def table_counts(self, t: int) -> tuple[np.ndarray, np.ndarray]:
        """Table ``t``'s A and D counts, shaped by its inputs' levels."""
        arr = self.arrangement
        shape = [arr.node_levels[j] for j in arr.tables[t]]
        return self.a[self._slice(t)].reshape(shape), self.d[self._slice(t)].reshape(shape)

    # -- training
    def count(self, X: np.ndarray, wa: np.ndarray, wd: np.ndarray, lo: int = 1, hi: int | None = None) -> None:
        """Add a stream to the counts of the tables of depth ``lo … hi`` (default: all).  One depth: the lower
        tables are read through their cached levels (stagewise); several: every table's output is recomputed
        as each vector arrives (online)."""
        self._count(self._check_x(X), wa, wd, lo, hi)

    def _count(
        self, X: np.ndarray, wa: np.ndarray, wd: np.ndarray, lo: int = 1, hi: int | None = None, memo=None
    ) -> None:
        depth = np.array(self.arrangement.depth, dtype=np.int64)
        top = int(depth.max()) if hi is None else hi
        wa = np.asarray(wa, dtype=np.float64)
        wd = np.asarray(wd, dtype=np.float64)
        if wa.shape != (X.shape[0],) or wd.shape != (X.shape[0],):
            raise ValueError(f"{X.shape[0]} input vectors but {wa.shape} A and {wd.shape} D increments")
        elev = self.cached()[1] if lo == top else np.zeros(0, dtype=np.int64)
        memo = memo if memo is not None else np.zeros((0, self.arrangement.n_tables), dtype=np.int8)
        count_kernel(X, wa, wd, self._arrays, self.a, self.d, self.n, self.prior, self.thresholds, elev, memo, lo,
                     top, depth)  # fmt: skip
        self._cache = None

    def requantize(self, X: np.ndarray, tables: list[int]) -> None:
        """Equal-frequency thresholds for the outputs of ``tables`` over the stream ``X`` (stored); the same as
        :meth:`count_thresholds` after counting ``X``."""
        outs = self.outputs(X)
        for t in tables:
            lv = self.arrangement.output_levels[t]
            self.thresholds[t, : lv - 1] = equal_frequency_thresholds(outs[:, t], lv)
        self._cache = None

    def count_thresholds(self, tables: list[int]) -> None:
        """Equal-frequency thresholds for the outputs of ``tables`` over the stream counted so far, from the
        counts alone: the entries' C weighted by the rows that reached them."""
        cval, _ = self.cached()
        for t in tables:
            lv = self.arrangement.output_levels[t]
            sl = self._slice(t)
            self.thresholds[t, : lv - 1] = weighted_thresholds(cval[sl], self.n[sl], lv)
        self._cache = None

    @staticmethod
    def _check_options(mode: str, requant: str) -> None:
        if mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
        if requant not in REQUANT:
            raise ValueError(f"requant must be one of {REQUANT}, got {requant!r}")
        if mode == "online" and requant != "fixed":
            raise ValueError("online training (all tables at once) needs fixed requantization thresholds")

    def _level_done(self, lev: int, requant: str) -> None:
        if requant == "equal":
            self.count_thresholds([t for t, d in enumerate(self.arrangement.depth) if d == lev])

    @classmethod
    def fit(
        cls,
        arrangement: Arrangement,
        X: np.ndarray,
        preferred: np.ndarray,
        k: np.ndarray,
        rule: str = "plain",
        mode: str = "stagewise",
        requant: str = "equal",
        prior: float = 0.0,
    ) -> SignatureTables:
        """Train an arrangement on the stream ``X`` (levels), ``preferred`` flags and alternative counts ``k``."""
        cls._check_options(mode, requant)
        st = cls(arrangement, prior)
        X = st._check_x(X)
        if X.shape[0] != np.asarray(preferred).shape[0]:
            raise ValueError(f"{X.shape[0]} input vectors but {np.asarray(preferred).shape[0]} preferred flags")
        wa, wd = imbalance_weights(preferred, k, rule)
        if mode == "online":
            st._count(X, wa, wd)
            return st
        depth = arrangement.depth
        levels_fit_int8 = max(arrangement.output_levels) <= 127
        memo = np.zeros((X.shape[0] if levels_fit_int8 else 0, arrangement.n_tables), dtype=np.int8)
        for lev in range(1, max(depth) + 1):
            st._count(X, wa, wd, lev, lev, memo)
            st._level_done(lev, requant)
        return st

    @classmethod
    def fit_stream(
        cls,
        arrangement: Arrangement,
        stream,
        rule: str = "plain",
        mode: str = "stagewise",
        requant: str = "equal",
        prior: float = 0.0,
    ) -> SignatureTables:
        """Train on a stream read in chunks, never held whole (Samuel (1973 note) ¶3: "simultaneous storage of
        all the samples is not required"): ``stream()`` returns a fresh iterator of ``(X, preferred, k)``
        chunks; stagewise training reads it once per level.  The same stream gives the same tables as
        :meth:`fit` on it whole."""
        cls._check_options(mode, requant)
        st = cls(arrangement, prior)
        passes = [(1, None)] if mode == "online" else [(lev, lev) for lev in range(1, max(arrangement.depth) + 1)]
        for lo, hi in passes:
            for X, preferred, k in stream():
                wa, wd = imbalance_weights(preferred, k, rule)
                st._count(st._check_x(X), wa, wd, lo, hi)
            if mode == "stagewise":
                st._level_done(lo, requant)
        return st

    def to_bytes(self) -> bytes:
        """The counts and thresholds as bytes (the tables' identity: same bytes ⇒ same tables)."""
        return self.a.tobytes() + self.d.tobytes() + self.n.tobytes() + self.thresholds.tobytes()


# ----------------------------------------------------------------------------- one joint table


@dataclass
class JointTable:
    """One table over all the inputs at once, stored sparsely (only the signatures seen in training) — what
    splitting into small tables avoids (Samuel (1973 note): "instead of the 105↑9 entries were the entire
    space to be represented").  Unseen signatures get C = 0 (the prior)."""

    input_levels: tuple[int, ...]
    keys: np.ndarray
    a: np.ndarray
    d: np.ndarray
    prior: float = 0.0

    @staticmethod
    def strides(levels: tuple[int, ...]) -> np.ndarray:
        if math.prod(levels) >= 2**63:
            raise ValueError(
                f"a joint table over levels {levels} has {math.prod(levels)} entries: too many for int64 keys"
            )
        s = np.ones(len(levels), dtype=np.int64)
        for j in range(len(levels) - 2, -1, -1):
            s[j] = s[j + 1] * levels[j + 1]
        return s

    @classmethod
    def fit(cls, levels, X, preferred, k, rule: str = "plain", prior: float = 0.0) -> JointTable:
        levels = tuple(int(v) for v in levels)
        keys = np.asarray(X, dtype=np.int64) @ cls.strides(levels)
        wa, wd = imbalance_weights(preferred, k, rule)
        uk, inv = np.unique(keys, return_inverse=True)
        a = np.bincount(inv, weights=wa, minlength=uk.size)
        d = np.bincount(inv, weights=wd, minlength=uk.size)
        return cls(levels, uk, a, d, prior)

    def lookup(self, X) -> tuple[np.ndarray, np.ndarray]:
        """(C, seen) for each input vector: C of its entry and whether training ever visited it."""
        keys = np.asarray(X, dtype=np.int64) @ self.strides(self.input_levels)
        pos = np.clip(np.searchsorted(self.keys, keys), 0, max(self.keys.size - 1, 0))
        seen = self.keys.size > 0
        seen = (self.keys[pos] == keys) if seen else np.zeros(keys.size, dtype=bool)
        a = np.where(seen, self.a[pos] if self.keys.size else 0.0, 0.0)
        d = np.where(seen, self.d[pos] if self.keys.size else 0.0, 0.0)
        s = a + d + self.prior
        return np.divide(a - d, s, out=np.zeros_like(a), where=s > 0), seen

    def value(self, X) -> np.ndarray:
        return self.lookup(X)[0]
