"""An exact one-sided bear-off table, computed here (issue 34; notebook 09's bear-off lever).

Once no checker of either side can meet one of the other's and every checker is in its own home board (a
*bear-off position*), each side's game is a one-player puzzle: bear off all 15 checkers in as few rolls as
possible.  For every way to have up to 15 checkers on one's six home points — ``C(21, 6) = 54,264`` positions,
the empty board included — the table holds

- ``dist[i, n]``, the probability that the side needs exactly ``n`` rolls to bear off every checker, playing each
  roll to minimise the expected number of rolls (the move whose afterstate has the smallest expectation; the
  engine's move generator, :func:`~tdbook.games.backgammon.gen_afterstates`, gives the legal afterstates), and
- ``first[i, n]``, for a side with all 15 checkers still on the board, the probability that it needs exactly
  ``n`` rolls to bear off its *first* checker, playing to minimise that expectation (a side saving a gammon); for
  a side with a checker already off, ``first[i, 0] = 1``.

Both are computed by dynamic programming over the positions in order of pip count (every move lowers it), exactly
up to double-precision rounding: no sampling, no net.  The two sides of a bear-off position are independent given
the order of play, so for the side on roll with distribution ``A`` and the opponent with ``B`` (and ``GA``, ``GB``
their first-off distributions), :func:`probabilities` gives

- ``P(win) = Σ_n A(n) · B(≥ n)`` (the side on roll bears off on its ``n``-th roll, before the opponent's ``n``-th),
- ``P(gammon win) = Σ_n A(n) · GB(≥ n)`` and ``P(gammon loss) = Σ_m B(m) · GA(≥ m + 1)``;

backgammons cannot happen (no checker is in the winner's home board or on the bar).  These are the one-sided
approximation strong programs use for large bear-offs (GNU Backgammon's one-sided database): each side's rolls are
the fewest in expectation, not the ones that maximise its winning chances against this opponent, so the
two-sided values are close to, not exactly, the best play's.

Positions are ranked by the combinatorial number system: with ``n0 = 15 − Σ n_k`` checkers off, the bars of the
stars-and-bars string of ``(n0, n1, …, n6)`` sit at ``b_j = n0 + … + n_{j−1} + j − 1`` (``j = 1..6``) and the index
is ``Σ_j C(b_j, j)``: a bijection onto ``0 .. 54,263`` (:func:`index`).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from numba import njit

from .backgammon import MAX_AFTER, NSLOT, OFF, OPP_OFF, WS_SIZE, gen_afterstates

POINTS = 6
CHECKERS = 15
N_POSITIONS = 54_264  # C(21, 6)
MAX_ROLLS = 40  # longer than any bear-off of 15 checkers (the table checks that no probability is lost)
_ROLLS = np.array([(a, b) for a in range(1, 7) for b in range(a, 7)], np.int64)
_WEIGHTS = np.array([1 if a == b else 2 for a, b in _ROLLS], np.float64)


def _choose() -> np.ndarray:
    c = np.zeros((22, 8), np.int64)
    for n in range(22):
        c[n, 0] = 1
        for k in range(1, min(n, 7) + 1):
            c[n, k] = c[n - 1, k - 1] + (c[n - 1, k] if k <= n - 1 else 0)
    return c


_C = _choose()


@njit(cache=True)
def index(counts) -> int:
    """Rank of a one-sided position: ``counts[k]`` checkers on the side's point ``k + 1`` (``k = 0..5``,
    at most 15 in all) → ``0 .. 54,263`` (see the module doc)."""
    total = 0
    for k in range(POINTS):
        total += counts[k]
    b = CHECKERS - total  # n0: the checkers off
    r = 0
    for j in range(1, POINTS + 1):
        r += _C[b, j]
        if j < POINTS:
            b += counts[j - 1] + 1
    return r


@njit(cache=True)
def _unrank(r, out) -> None:
    """Inverse of :func:`index` (``out[k]``: checkers on point ``k + 1``)."""
    bars = np.zeros(POINTS, np.int64)
    for j in range(POINTS, 0, -1):  # the largest b with C(b, j) <= r, for j = 6 down to 1
        b = j - 1
        while _C[b + 1, j] <= r:
            b += 1
        bars[j - 1] = b
        r -= _C[b, j]
    for k in range(POINTS - 1):
        out[k] = bars[k + 1] - bars[k] - 1
    # bars[0] = n0 and the last bin holds the rest: 15 − n0 − (checkers on points 1..5)
    rest = CHECKERS - bars[0]
    for k in range(POINTS - 1):
        rest -= out[k]
    out[POINTS - 1] = rest


@njit(cache=True)
def _build(dist, first, expect, expect_first) -> None:
    counts = np.zeros(POINTS, np.int64)
    pips = np.zeros(N_POSITIONS, np.int64)
    for r in range(N_POSITIONS):
        _unrank(r, counts)
        s = 0
        for k in range(POINTS):
            s += (k + 1) * counts[k]
        pips[r] = s
    order = np.argsort(pips, kind="mergesort")
    out_pos = np.zeros((MAX_AFTER, NSLOT), np.int8)
    out_mv = np.full((MAX_AFTER, 8), -1, np.int8)
    ws = np.zeros(WS_SIZE, np.int64)
    pos = np.zeros(NSLOT, np.int8)
    after = np.zeros(POINTS, np.int64)
    for o in range(N_POSITIONS):
        r = order[o]
        _unrank(r, counts)
        on = 0
        for k in range(POINTS):
            on += counts[k]
        if on == 0:  # nothing left: no roll needed
            dist[r, 0] = 1.0
            first[r, 0] = 1.0
            continue
        pos[:] = 0
        for k in range(POINTS):
            pos[k + 1] = counts[k]
        pos[OFF] = CHECKERS - on
        pos[OPP_OFF] = -CHECKERS
        for q in range(21):
            w = _WEIGHTS[q] / 36.0
            n = gen_afterstates(pos, _ROLLS[q, 0], _ROLLS[q, 1], out_pos, out_mv, ws)
            best, best_e = -1, 1e300
            best_f, best_fe = -1, 1e300
            for a in range(n):
                for k in range(POINTS):
                    after[k] = out_pos[a, k + 1]
                j = index(after)
                if expect[j] < best_e:
                    best, best_e = j, expect[j]
                fe = 0.0 if out_pos[a, OFF] > 0 else expect_first[j]
                if fe < best_fe:
                    best_f, best_fe = j, fe
            for m in range(MAX_ROLLS - 1):
                dist[r, m + 1] += w * dist[best, m]
            if on < CHECKERS:
                continue
            if best_fe == 0.0:  # a checker comes off on this roll
                first[r, 1] += w
            else:
                for m in range(MAX_ROLLS - 1):
                    first[r, m + 1] += w * first[best_f, m]
        if on < CHECKERS:
            first[r, 0] = 1.0
        e = 0.0
        ef = 0.0
        for m in range(MAX_ROLLS):
            e += m * dist[r, m]
            ef += m * first[r, m]
        expect[r] = e
        expect_first[r] = ef


@lru_cache(maxsize=1)
def table() -> tuple[np.ndarray, np.ndarray]:
    """``(dist, first)``, float64 ``[54,264, MAX_ROLLS]`` each (see the module doc); computed once per process
    (about a second), and checked: each row sums to one."""
    dist = np.zeros((N_POSITIONS, MAX_ROLLS))
    first = np.zeros((N_POSITIONS, MAX_ROLLS))
    _build(dist, first, np.zeros(N_POSITIONS), np.zeros(N_POSITIONS))
    for name, t in (("dist", dist), ("first", first)):
        worst = float(np.max(np.abs(t.sum(axis=1) - 1.0)))
        if worst > 1e-9:
            raise RuntimeError(f"bear-off table {name}: a row loses {worst:.1e} of its probability; raise MAX_ROLLS")
    return dist, first


def combined() -> np.ndarray:
    """The two tables side by side, ``[54,264, 2 · MAX_ROLLS]`` (``dist`` then ``first``): the one array the
    kernels take (an empty ``(0, 2 · MAX_ROLLS)`` array means no table)."""
    dist, first = table()
    return np.ascontiguousarray(np.concatenate([dist, first], axis=1))


NO_TABLE = np.zeros((0, 2 * MAX_ROLLS))


@njit(cache=True)
def is_bearoff(pos) -> bool:
    """Every checker of both sides in its own home board (the mover's on 1..6, the opponent's on 19..24) or off:
    no contact is possible and both sides are bearing off."""
    if pos[25] != 0 or pos[0] != 0:
        return False
    for p in range(7, 25):
        if pos[p] > 0:
            return False
    for p in range(1, 19):
        if pos[p] < 0:
            return False
    return True


@njit(cache=True)
def sides(pos) -> tuple:
    """Table indices ``(mover, opponent)`` of a bear-off position (mover's view), each side read from its own
    view (the opponent's point ``k`` is the mover's ``25 − k``)."""
    me = np.zeros(POINTS, np.int64)
    them = np.zeros(POINTS, np.int64)
    for k in range(POINTS):
        me[k] = pos[k + 1]
        them[k] = -pos[24 - k]
    return index(me), index(them)


@njit(cache=True)
def probabilities(tab, pos, p) -> None:
    """``p[:3]`` = (P(win), P(gammon win), P(gammon loss)) of the side on roll of bear-off position ``pos`` from
    the table ``tab`` (:func:`combined`), and ``p[3:5] = 0`` when ``p`` has the two backgammon slots."""
    i, j = sides(pos)
    m = MAX_ROLLS
    tail_b = 0.0  # B(≥ n), GB(≥ n), GA(≥ n + 1) from the top down
    tail_gb = 0.0
    tail_ga = 0.0
    w = gw = gl = 0.0
    for n in range(m - 1, 0, -1):
        tail_b += tab[j, n]
        tail_gb += tab[j, m + n]
        w += tab[i, n] * tail_b
        gw += tab[i, n] * tail_gb
        gl += tab[j, n] * tail_ga
        tail_ga += tab[i, m + n]
    p[0] = w
    p[1] = gw
    p[2] = gl
    for k in range(3, p.shape[0]):
        p[k] = 0.0


def bearoff_probabilities(pos: np.ndarray) -> np.ndarray:
    """(P(win), P(gammon win), P(gammon loss)) of the side on roll of a bear-off position (ValueError otherwise)."""
    pos = np.asarray(pos, np.int8)
    if not is_bearoff(pos):
        raise ValueError("not a bear-off position: every checker of both sides must be in its home board or off")
    p = np.zeros(3)
    probabilities(combined_cached(), pos, p)
    return p


@lru_cache(maxsize=1)
def combined_cached() -> np.ndarray:
    """:func:`combined`, computed once per process."""
    return combined()
