"""Hand-made backgammon features beyond the raw encoding (the "expanded" and "contact" inputs of notebook 09).

TD-Gammon 1.0 learned from the raw board alone; "later, modifications were made to subsequent
version[s] to give the network more input as to the progress of the game" (Powell (2000) §5.2).
These are inputs of that kind, in the spirit of the hand-made features of Tesauro's later versions
and of GNU Backgammon (pip count, hit chances, blockades).  The four features of one side, all
computed from that side's view
(``pos`` with its checkers positive, moving from 24 down to 1), each scaled to about [0, 1]:

0. ``pips / 167`` — its pip count (167 at the start; a checker on the bar counts 25);
1. ``shot`` — the share of the 36 rolls on which the opponent can hit at least one of its blots:
   direct shots and combination shots whose intermediate landing points are open, doubles up to four
   steps.  An approximation of the real count: when the opponent has checkers on the bar only the
   bar may hit (entering first is compulsory), and each roll is checked for a hit, not for a legal
   move that hits (a hit the opponent could make is counted even if another move is forced);
2. ``prime / 6`` — its longest run of consecutive made points (two or more checkers), capped at 6;
3. ``escape`` — the share of the 36 rolls on which its rearmost checker can get past the opponent's
   made points in the 12 points in front of it, by open landing points (1 when none are there, or
   when it has no checker left outside its home board).

The ``"contact"`` set adds three more per side, in the spirit of GNU Backgammon's contact inputs
(``I_PIPLOSS``, ``I_BREAK_CONTACT``, ``I_CONTAIN``); these three are not functions of a few raw units, which
is why they are worth giving the net:

4. ``piploss`` — the pips it loses to a hit, averaged over the 36 rolls, over 24: on each roll the most the
   opponent can hit (a blot on point ``p`` sent back costs ``25 − p`` pips), counted with the same shots as 1;
5. ``break / 152`` — the pips its checkers must travel to get past the opponent's rearmost checker
   (152 at the start): how much contact it has left to break;
6. ``contained`` — one minus the smallest share of rolls on which a checker of its own, standing on any of
   its points 15..24, can move the roll's whole distance (landing point open, and not both single-die
   points closed; doubles: two steps) — GNU Backgammon's escape count: how well the opponent's points in
   front of its back area hold it in, wherever it stands.

The side's features go beside its 98 raw units.  Because they are computed from that side's view,
the features of the other side are :func:`side_features` of :func:`~tdbook.games.backgammon.flip`
of the position, so the board flip exchanges the two sets exactly — what the symmetric nets need.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .backgammon import NSLOT, flip, pip_counts

FEATURE_NAMES = ("pips/167", "shot", "prime/6", "escape", "piploss", "break/152", "contained")
N_FEATURES = 4  # the "expanded" set: the first four names
N_CONTACT = 7  # the "contact" set: all seven


@njit(cache=True, inline="always")
def _blocked(pos, x) -> bool:
    """Point ``x`` (1..24) is closed to the opponent (the side holds it with two or more)."""
    return pos[x] >= 2


@njit(cache=True)
def _hits(pos, q, p, d1, d2) -> bool:
    """Can an opponent checker on ``q`` (0 = its bar) reach the blot on ``p > q`` with roll ``d1, d2``?"""
    dist = p - q
    if d1 != d2:
        if dist == d1 or dist == d2:  # a direct shot lands on the blot itself
            return True
        if dist == d1 + d2:
            return (not _blocked(pos, q + d1)) or (not _blocked(pos, q + d2))
        return False
    for k in range(1, 5):
        if dist == k * d1:
            for i in range(1, k):
                if _blocked(pos, q + i * d1):
                    return False
            return True
    return False


@njit(cache=True)
def shot_counts(pos) -> tuple:
    """(rolls of 36 on which the opponent can hit a blot of the mover, Σ over rolls of the most pips it
    loses to that hit: ``25 − p`` for a blot on ``p``) — see the module doc for the shots counted."""
    nb = 0
    blots = np.empty(24, np.int64)
    for p in range(1, 25):  # ascending: the first blot hit on a roll is the costliest
        if pos[p] == 1:
            blots[nb] = p
            nb += 1
    if nb == 0:
        return 0, 0
    ns = 0
    srcs = np.empty(25, np.int64)
    if pos[0] < 0:  # the opponent must enter first: only its bar checkers can hit
        srcs[0] = 0
        ns = 1
    else:
        for q in range(1, 24):
            if pos[q] < 0:
                srcs[ns] = q
                ns += 1
    count = 0
    loss = 0
    for d1 in range(1, 7):
        for d2 in range(d1, 7):
            w = 1 if d1 == d2 else 2
            for b in range(nb):
                p = blots[b]
                hit = False
                for a in range(ns):
                    q = srcs[a]
                    if p > q and _hits(pos, q, p, d1, d2):
                        hit = True
                        break
                if hit:
                    count += w
                    loss += w * (25 - p)
                    break
    return count, loss


@njit(cache=True)
def shot_share(pos) -> float:
    """Share of the 36 rolls on which the opponent can hit one of the mover's blots (see module doc)."""
    return shot_counts(pos)[0] / 36.0


@njit(cache=True)
def longest_prime(pos) -> int:
    """Longest run of consecutive points (1..24) the mover holds with two or more checkers."""
    best = 0
    run = 0
    for p in range(1, 25):
        if pos[p] >= 2:
            run += 1
            if run > best:
                best = run
        else:
            run = 0
    return best


@njit(cache=True)
def escapes(pos, r) -> int:
    """Rolls of 36 on which a mover's checker on ``r`` (25 = bar) can land past every opponent-made point
    in the 12 points in front of it, through open points (36 when there is none)."""
    low = 0  # the lowest opponent-made point within 12 pips in front of r
    for x in range(r - 1, max(r - 13, 0), -1):
        if pos[x] <= -2:
            low = x
    if low == 0:
        return 36
    count = 0
    for d1 in range(1, 7):
        for d2 in range(d1, 7):
            ok = False
            if d1 != d2:
                for a in range(2):
                    first = d1 if a == 0 else d2
                    t1 = r - first
                    if t1 >= 1 and pos[t1] <= -2:
                        continue
                    if t1 < low:
                        ok = True
                        break
                    t2 = r - d1 - d2
                    if t2 < low and (t2 < 1 or pos[t2] > -2):
                        ok = True
                        break
            else:
                t = r
                for _ in range(4):
                    t -= d1
                    if t >= 1 and pos[t] <= -2:
                        break
                    if t < low:
                        ok = True
                        break
            if ok:
                count += 1 if d1 == d2 else 2
    return count


@njit(cache=True)
def escape_share(pos) -> float:
    """Share of the 36 rolls on which the mover's rearmost checker (bar = 25) can land past every
    opponent-made point in the 12 points in front of it, through open points (see module doc)."""
    r = 0
    for i in range(25, 0, -1):
        if pos[i] > 0:
            r = i
            break
    if r <= 6:
        return 1.0
    return escapes(pos, r) / 36.0


@njit(cache=True)
def break_contact(pos) -> int:
    """Pips the mover's checkers must travel to get past the opponent's rearmost checker (its bar = 0)."""
    q = -1
    for i in range(0, 25):
        if pos[i] < 0:
            q = i
            break
    if q < 0:
        return 0
    total = 0
    for p in range(q + 1, 26):
        if pos[p] > 0:
            total += pos[p] * (p - q)
    return total


@njit(cache=True)
def jumps(pos, r) -> int:
    """Rolls of 36 whose whole distance ``d1 + d2`` a mover's checker on ``r`` can travel: the landing
    point is not opponent-made and not both single-die points are (doubles: the two-step point);
    GNU Backgammon's ``Escapes`` count."""
    count = 0
    for d1 in range(1, 7):
        for d2 in range(d1, 7):
            t = r - d1 - d2
            if t >= 1 and pos[t] <= -2:
                continue
            if r - d1 >= 1 and pos[r - d1] <= -2 and r - d2 >= 1 and pos[r - d2] <= -2:
                continue
            count += 1 if d1 == d2 else 2
    return count


@njit(cache=True)
def contained(pos) -> float:
    """One minus the smallest :func:`jumps` share of a mover's checker standing on any of its points 15..24."""
    worst = 36
    for r in range(15, 25):
        e = jumps(pos, r)
        if e < worst:
            worst = e
    return 1.0 - worst / 36.0


@njit(cache=True)
def side_features(pos, out, base: int, nf: int = N_FEATURES) -> None:
    """The first ``nf`` (:data:`N_FEATURES` or :data:`N_CONTACT`) features of the mover of ``pos`` into
    ``out[base : base + nf]``."""
    out[base] = pip_counts(pos)[0] / 167.0
    if nf > N_FEATURES:
        count, loss = shot_counts(pos)
        out[base + 1] = count / 36.0
        out[base + 4] = loss / (36.0 * 24.0)
        out[base + 5] = break_contact(pos) / 152.0
        out[base + 6] = contained(pos)
    else:
        out[base + 1] = shot_share(pos)
    out[base + 2] = min(longest_prime(pos), 6) / 6.0
    out[base + 3] = escape_share(pos)


@njit(cache=True)
def both_sides(pos, out, tmp, nf: int = N_FEATURES) -> None:
    """Mover's first ``nf`` features into ``out[:nf]``, the opponent's (from its own view) into
    ``out[nf : 2 nf]``; ``tmp`` is an int8 scratch of :data:`~tdbook.games.backgammon.NSLOT` slots."""
    side_features(pos, out, 0, nf)
    flip(pos, tmp)
    side_features(tmp, out, nf, nf)


def features(pos: np.ndarray, nf: int = N_FEATURES) -> np.ndarray:
    """The ``2 nf`` features (mover's ``nf``, then the opponent's) of ``pos`` (the mover's view), float64;
    ``nf`` is :data:`N_FEATURES` (the expanded set) or :data:`N_CONTACT` (the contact set)."""
    if nf not in (N_FEATURES, N_CONTACT):
        raise ValueError(f"nf must be {N_FEATURES} (expanded) or {N_CONTACT} (contact), got {nf}")
    out = np.zeros(2 * nf)
    both_sides(np.asarray(pos, np.int8), out, np.zeros(NSLOT, np.int8), nf)
    return out
